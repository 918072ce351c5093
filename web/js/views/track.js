// The sequence-of-play track: where the game stands in the game-turn (the phases in order, the
// step within the phase, the night turns ahead) and why this turn differs from the usual one,
// each reason with its case and the rule's title from the rules reference (GET /api/rules). The
// phases, steps and reasons are the rules system's words (`sequence` of its panel); without
// them the track shows the state view's own phase and step.

import { h } from '../util.js';
import { caseLink } from '../toast.js';
import { card } from './sidebar.js';
import { rules } from '../game.js';

/** @typedef {import('../game.js').Game} Game */

/** The rule titles by case, once the rules reference is loaded. @param {Game} game */
function ruleTitles(game) {
  const r = rules();
  if (!r.rules) {
    // loaded once for the page; the track is drawn again when it is in
    r.load().then(() => game.renderSidebar());
    return new Map();
  }
  return new Map(r.rules.map((x) => [x.case, x.title]));
}

/** The track card. @param {Game} game */
export function trackCard(game) {
  const v = game.v;
  if (!v || v.outcome) return null;
  const seq = game.system.sequence ? game.system.sequence(v) : {
    phases: [{ label: `${v.phasing} ${v.phase}`, state: /** @type {'now'} */ ('now'), steps: [{ label: game.system.stepName(v.step), now: true }] }],
    notes: [],
  };
  const titles = ruleTitles(game);
  const night = new Set(v.night_turns);
  const nextNight = v.night_turns.find((t) => t > v.turn && t <= v.last_turn);
  const body = [
    h('p', { class: 'track-turn' }, h('b', {}, `Game-turn ${v.turn}`), ` of ${v.first_turn}–${v.last_turn}`,
      night.has(v.turn) ? h('span', { class: 'night-chip' }, '☾ night') : null,
      nextNight ? h('span', { class: 'small muted' }, ` · next night turn: ${nextNight}`) : null),
    h('ol', { class: 'plain seq-phases', 'aria-label': 'The phases of this game-turn' }, seq.phases.map((p) => h('li', {
      class: `seq-phase seq-${p.state}`, 'aria-current': p.state === 'now' ? 'step' : false,
    },
    h('span', { class: 'seq-label' }, p.label),
    p.note ? h('span', { class: 'seq-note small muted' }, ` — ${p.note}`) : null,
    p.state === 'now' && p.steps && p.steps.length > 1 ? h('ol', { class: 'plain seq-steps' }, p.steps.map((st) => h('li', { class: st.now ? 'seq-step now' : 'seq-step', 'aria-current': st.now ? 'step' : false }, st.label))) : null))),
    seq.notes.length ? h('ul', { class: 'plain small seq-why', 'aria-label': 'Why' }, seq.notes.map((n) => h('li', {},
      caseLink(n.case), titles.get(n.case) ? h('b', {}, ` ${titles.get(n.case)}: `) : ' ', n.text))) : null,
  ];
  return card(game, 'track', 'Sequence of play', body, { open: true, count: game.system.stepName(v.step) });
}
