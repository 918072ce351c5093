// The log card: every action with its events (each with its case, a link to the rule).

import { h, actionLabel } from '../util.js';
import { caseLink } from '../toast.js';
import { card } from './sidebar.js';
import { computerSays } from './events.js';

/** @param {import('../game.js').Game} game */
export function logCard(game) {
  const log = game.v.log;
  const max = 200;
  const shown = log.slice(-max);
  // the computer explains every action of a plan alike: each distinct explanation is shown once
  /** @type {string|null} */
  let said = null;
  const repeated = new Set(shown.filter((e) => {
    const now = computerSays(e);
    if (now === null) return false;
    const same = now === said;
    said = now;
    return same;
  }));
  const items = shown.map((e) => h('li', { class: `log-entry side-${(e.side || 'none').toLowerCase()}` },
    // the set-up's events have no action; an action this viewer may not see has an empty text
    e.action == null || e.n === 0 ? h('div', { class: 'log-action muted' }, 'Set-up')
      : h('div', { class: 'log-action' }, h('span', { class: 'log-n' }, `${e.n}.`), ' ', h('span', { class: 'log-side' }, e.side === 'chance' ? 'die' : e.side || ''), ' ',
        e.action ? h('code', {}, e.action) : h('span', { class: 'hidden-action muted' }, actionLabel(e.action))),
    e.events.length ? h('ul', { class: 'log-events' }, e.events.filter((ev) => !(repeated.has(e) && ev.case === 'computer')).map((ev) => h('li', { class: ev.kind ? `ev-${ev.kind}` : null }, ev.case ? caseLink(ev.case) : null, ' ', ev.text))) : null));
  return card(game, 'log', 'Log', [
    log.length > max ? h('p', { class: 'small muted' }, `The last ${max} of ${log.length} entries. Export the record for all.`) : null,
    h('ol', { class: 'log-list', 'aria-label': 'Actions and events' }, items.length ? items : h('li', { class: 'muted small' }, 'Nothing yet.')),
    h('div', { class: 'btn-row' }, h('button', { type: 'button', class: 'btn', onclick: () => game.exportRecord() }, '⤓ Export the game record')),
  ], { count: String(game.v.actions_recorded) });
}
