// The top bar (turn track, phase and step, the side to act) and the game-over banner.

import { h, fill } from '../util.js';
import { caseLink } from '../toast.js';

/** @typedef {import('../game.js').Game} Game */

/** The most turns the top bar's track shows at once. */
const TRACK_MAX = 20;

/** @param {Game} game */
export function renderTop(game) {
  const v = game.v;
  const replayN = game.store.replayN;
  const night = new Set(v.night_turns);
  const track = [];
  // the turns before the scenario's first are shown while the whole track is short (a day of
  // the Grand Battle in its place); a long one (a campaign of 35 weeks, 36 ten-minute turns)
  // shows at most TRACK_MAX turns around the current one
  let from = v.last_turn <= TRACK_MAX ? 1 : v.first_turn;
  let to = v.last_turn;
  if (to - from + 1 > TRACK_MAX) {
    from = Math.max(from, Math.min(v.turn - 5, to - TRACK_MAX + 1));
    to = from + TRACK_MAX - 1;
  }
  for (let t = from; t <= to; t++) {
    const isNight = night.has(t);
    const cls = ['turn', isNight ? 'night' : '', t === v.turn ? 'current' : '', t < v.first_turn ? 'before' : '', t < v.turn && t >= v.first_turn ? 'past' : ''].filter(Boolean).join(' ');
    track.push(h('li', { class: cls, title: `Game-turn ${t}${isNight ? ' (night, 10.0)' : ''}${t === v.turn ? ' — now' : ''}${t < v.first_turn ? ' — before this scenario' : ''}`, 'aria-current': t === v.turn ? 'step' : false },
      h('span', { class: 'turn-n' }, String(t)), isNight ? moon() : null));
  }
  fill(game.trackEl, track);
  const phase = v.step === 'over' || v.outcome ? 'Game over' : `${v.phasing} ${v.phase || 'combat'} phase`;
  fill(game.phaseEl,
    h('div', { class: 'phase-main' }, `Turn ${v.turn}`, v.night ? h('span', { class: 'night-chip', title: 'Night turn (10.0)' }, '☾ night') : null),
    h('div', { class: 'phase-sub' }, phase, v.step !== 'over' && !v.outcome ? ` · ${game.system.stepName(v.step)}` : ''));
  const sc = game.system.sideColour(v.to_act);
  let actor;
  if (v.outcome) actor = h('span', { class: 'actor-chip over' }, v.outcome.winner ? `${v.outcome.winner} victory` : 'Drawn');
  else if (replayN !== null) actor = h('span', { class: 'actor-chip replay' }, `Replay ${replayN}/${game.state?.actions_recorded}`);
  else if (game.thinking()) {
    // from the moment this seat's turn-ending action goes out until the computer's moves arrive
    const who = game.computerSide() || v.to_act;
    const c = game.system.sideColour(who);
    actor = h('span', { class: 'actor-chip thinking', style: `--side:${c.fill};--side-text:${c.text}` },
      h('span', { class: 'dots', 'aria-hidden': 'true' }), `${who} (computer) is thinking…`);
  } else if (v.to_act === 'chance') actor = h('span', { class: 'actor-chip' }, 'Rolling…');
  else {
    const you = game.token && (game.side === 'both' || game.side === v.to_act || !game.side);
    actor = h('span', { class: `actor-chip${you ? ' you' : ''}`, style: `--side:${sc.fill};--side-text:${sc.text}` },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }), you ? `${v.to_act} to act${game.side && game.side !== 'both' ? ' (you)' : ''}` : `Waiting for ${v.to_act}`);
  }
  fill(game.actorEl, actor, !game.token ? h('span', { class: 'spectator', title: 'No seat in this game: you are watching' }, 'spectator') : null);
  const canUndo = replayN === null && !!game.token && (game.state?.undoable || 0) > 0 && !game.busy;
  game.undoBtn.disabled = !canUndo;
  game.undoBtn.setAttribute('title', canUndo ? `Take back the last action (${game.state?.undoable} may be taken back) — Ctrl+Z` : 'Nothing to take back now (Ctrl+Z says why)');
  game.replayBtn.setAttribute('aria-pressed', String(replayN !== null));
}

/** @param {Game} game */
export function renderBanner(game) {
  const o = game.v.outcome;
  const banner = game.banner;
  if (!banner) return;
  if (!o) { banner.hidden = true; return; }
  banner.hidden = false;
  fill(banner, h('div', { class: 'banner-title' }, o.winner ? `${o.winner} victory` : 'The battle is drawn'),
    h('div', { class: 'banner-why' }, caseLink(o.case), ' ', o.why),
    h('div', { class: 'banner-actions' },
      h('button', { class: 'btn', onclick: () => game.toggleReplay() }, 'Replay the battle'),
      h('button', { class: 'btn', onclick: () => game.exportRecord() }, 'Export the record'),
      h('button', { class: 'btn', onclick: () => { banner.hidden = true; } }, 'Look at the map')));
}

/** A crescent moon (night turns). */
function moon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 10 10');
  svg.setAttribute('class', 'moon');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'night');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', 'M6.5 1 A4 4 0 1 0 9 8 A3.2 3.2 0 1 1 6.5 1 Z');
  svg.append(p);
  return svg;
}
