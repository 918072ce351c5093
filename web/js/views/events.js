// The events panel and the "what changed" summary. The events panel lists what a player watches
// for — combat results, reinforcements, eliminations, demoralization — from the log's typed
// events (docs/api.md "Events"), the rules system's panel saying which are worth listing and
// under what name (`eventLabel`), plus the notes the panel draws from two positions
// (`changeNotes`, such as an army's losses). The summary tells, when the turn comes back to
// this seat, what the opponent (or the computer) did meanwhile: its plan once, its moves, its
// combats and their results, its losses.

import { h, plural } from '../util.js';
import { caseLink, dieFace } from '../toast.js';
import { parseAction } from '../actions.js';
import { card } from './sidebar.js';

/** @typedef {import('../game.js').Game} Game */
/** @typedef {import('../api.js').GameEvent} GameEvent */
/** @typedef {import('../api.js').LogEntry} LogEntry */
/** @typedef {{n: number, side: string|null, ev: GameEvent, label: string}} Notable */

/**
 * The name an event is listed under, or null when it is not listed (the computer's
 * explanations, which the log and the summary show, and events the system calls routine).
 * @param {Game} game @param {GameEvent} ev
 */
export function eventLabel(game, ev) {
  if (ev.kind === 'computer' || ev.case === 'computer') return null;
  const sys = game.system;
  if (sys.eventLabel) return sys.eventLabel(ev);
  return ev.kind ? ev.kind.replace(/_/g, ' ') : null;
}

/**
 * The notable events of log entries (and the board's own notes of the positions between them).
 * @param {Game} game @param {LogEntry[]} entries
 * @returns {Notable[]}
 */
export function notable(game, entries) {
  const notes = new Map(game.notes.map((x) => [x.n, x.events]));
  /** @type {Notable[]} */
  const out = [];
  for (const e of entries) {
    for (const ev of [...e.events, ...(notes.get(e.n) || [])]) {
      const label = eventLabel(game, ev);
      if (label) out.push({ n: e.n, side: e.side, ev, label });
    }
  }
  return out;
}

/** One listed event. @param {Notable} x */
function item(x) {
  return h('li', { class: `event ev-${x.ev.kind || 'other'}`, 'data-n': x.n },
    h('span', { class: 'ev-label' }, x.label),
    typeof x.ev.die === 'number' ? dieFace(x.ev.die) : null,
    h('span', { class: 'ev-text' }, x.ev.case ? caseLink(x.ev.case) : null, ' ', x.ev.text));
}

/** The events card (beside the log). @param {Game} game */
export function eventsCard(game) {
  const all = notable(game, game.v.log);
  const max = 120;
  const shown = all.slice(-max);
  return card(game, 'events', 'Events', [
    all.length > max ? h('p', { class: 'small muted' }, `The last ${max} of ${all.length}; the log holds every one.`) : null,
    h('ol', { class: 'plain events-list', 'aria-label': 'Combat results, reinforcements, losses' },
      shown.length ? shown.map(item) : h('li', { class: 'muted small' }, 'No combat, reinforcement or loss yet.')),
  ], { count: String(all.length) });
}

/**
 * The computer's explanation of a log entry without its preamble (`Allied (spec) ACTION: `),
 * the part a plan repeats from action to action; null when the entry has none.
 * @param {LogEntry} e
 */
export function computerSays(e) {
  const ev = e.events.find((x) => x.case === 'computer' || x.kind === 'computer');
  if (!ev) return null;
  const pre = `${e.side} (`;
  if (e.action && ev.text.startsWith(pre)) {
    const at = ev.text.indexOf(`) ${e.action}: `);
    if (at > 0) return ev.text.slice(at + `) ${e.action}: `.length);
  }
  return ev.text;
}

/**
 * What the other side(s) did while this seat waited: the log entries after `from` that are not
 * this seat's, summed up.
 * @typedef {{from: number, to: number, sides: string[], plans: string[], moves: {unit: string, to: string}[],
 *   combats: GameEvent[], others: Notable[], actions: number}} Summary
 * @param {Game} game @param {LogEntry[]} entries the entries after the seat handed the turn
 * @returns {Summary|null}
 */
export function summarize(game, entries) {
  const theirs = entries.filter((e) => e.n > 0 && e.side !== game.side);
  // the dice alone (a roll after this seat's own resolve) are no turn of the other side's
  if (!theirs.some((e) => e.side !== 'chance')) return null;
  /** @type {string[]} */
  const plans = [];
  /** @type {{unit: string, to: string}[]} */
  const moves = [];
  for (const e of theirs) {
    const said = computerSays(e);
    // each distinct plan once (the computer explains every action of a plan alike)
    if (said && !plans.includes(said)) plans.push(said);
    const a = e.action ? parseAction(e.action) : null;
    if (a && a.kind === 'move' && a.unit && a.to) moves.push({ unit: a.unit, to: a.to });
  }
  const events = notable(game, entries.filter((e) => e.n > 0));
  const combats = events.filter((x) => game.system.isCombatEvent(x.ev)).map((x) => x.ev);
  const others = events.filter((x) => !game.system.isCombatEvent(x.ev));
  const sides = [...new Set(theirs.map((e) => e.side).filter((s) => s && s !== 'chance'))].map(String);
  return { from: theirs[0].n, to: theirs[theirs.length - 1].n, sides, plans, moves, combats, others, actions: theirs.filter((e) => e.side !== 'chance').length };
}

/** The "what changed" card, while the summary of the last turn is not dismissed. @param {Game} game */
export function whatChangedCard(game) {
  const s = game.summary;
  if (!s || game.store.replayN !== null) return null;
  const who = s.sides.length ? s.sides.join(' and ') : 'The dice';
  const computer = game.mode === 'computer' ? ' (computer)' : '';
  const moves = s.moves.slice(0, 16);
  const body = [
    h('p', { class: 'small' }, h('b', {}, `${who}${computer}`), ` played ${plural(s.actions, 'action')}: ${plural(s.moves.length, 'move')}, ${plural(s.combats.length, 'combat')}.`),
    s.plans.length ? h('div', { class: 'wc-plans' }, h('h3', {}, s.plans.length === 1 ? 'The plan' : 'The plans'),
      h('ul', { class: 'plain small' }, s.plans.slice(0, 3).map((p) => h('li', { class: 'wc-plan' }, p))),
      s.plans.length > 3 ? h('p', { class: 'small muted' }, `… and ${s.plans.length - 3} more explanations, in the log.`) : null) : null,
    moves.length ? h('div', { class: 'wc-moves' }, h('h3', {}, 'Moves'),
      h('div', { class: 'chips' }, moves.map((m) => h('button', { type: 'button', class: 'link-btn wc-move', 'data-key': `wc:${m.unit}`, onclick: () => game.selectUnit(m.unit, true) }, `${m.unit} → ${m.to}`))),
      s.moves.length > moves.length ? h('p', { class: 'small muted' }, `… and ${s.moves.length - moves.length} more (the log has them all).`) : null) : null,
    s.combats.length ? h('div', { class: 'wc-combats' }, h('h3', {}, 'Combats'),
      h('ul', { class: 'plain small' }, s.combats.map((ev) => h('li', {}, typeof ev.die === 'number' ? dieFace(ev.die) : null, ev.case ? caseLink(ev.case) : null, ' ', ev.text)))) : null,
    s.others.length ? h('div', { class: 'wc-others' }, h('h3', {}, 'Losses, arrivals and more'),
      h('ul', { class: 'plain small' }, s.others.map((x) => h('li', {}, h('span', { class: 'ev-label' }, x.label), ' ', x.ev.case ? caseLink(x.ev.case) : null, ' ', x.ev.text)))) : null,
    h('div', { class: 'btn-row' }, h('button', { type: 'button', class: 'btn', 'data-key': 'wc-dismiss', onclick: () => game.dismissSummary() }, 'Got it')),
  ];
  return card(game, 'changed', `What changed (actions ${s.from}–${s.to})`, body, { open: true, cls: 'what-changed' });
}

/** A short line for a notice: "Allied played 29 actions". @param {Summary} s */
export function summaryLine(s) {
  return `${s.sides.join(' and ') || 'The dice'}: ${plural(s.actions, 'action')}, ${plural(s.moves.length, 'move')}, ${plural(s.combats.length, 'combat')}`;
}
