// Napoleon at War's combat panel: each declared combat with its odds column (7.0), the result
// probabilities of the Combat Results Table (7.6), resolution at the odds or lower (7.9), the
// result once rolled (from the server's typed `combat` events), and the demoralization risk (17.0).

import { h, pct } from '../../js/util.js';
import { caseLink, dieFace } from '../../js/toast.js';
import { api } from '../../js/api.js';
import { card } from '../../js/views/sidebar.js';

/** @typedef {import('../../js/api.js').Unit} Unit */
/** @typedef {import('../../js/api.js').Combat} Combat */
/** @typedef {import('../../js/game.js').Game} Game */

/** Order of the odds columns, weakest first. */
export const COLUMNS = ['1-5', '1-4', '1-3', '1-2', '1-1', '2-1', '3-1', '4-1', '5-1', '6-1'];

/** Results of the Combat Results Table, with their meaning. */
export const RESULTS = /** @type {const} */ ([
  ['Ae', 'attacker eliminated'],
  ['Ar', 'attacker retreats'],
  ['Ex', 'exchange'],
  ['Dr', 'defender retreats'],
  ['De', 'defender eliminated'],
]);

/** Okabe-Ito colours of the results (with patterns in CSS so hue is never the only cue). */
export const RESULT_COLOURS = { Ae: '#D55E00', Ar: '#E69F00', Ex: '#CC79A7', Dr: '#56B4E9', De: '#0072B2' };

/** game id + combat key -> the resolve action chosen in its odds selector */
const oddsChoice = new Map();
/** odds column -> result probabilities (GET /api/odds) @type {Map<string, Record<string, number>>} */
const columnProbs = new Map();

/** The combats card. @param {Game} game */
export function combatsCard(game) {
  const v = game.v;
  if (!v.combats.length) {
    if (v.phase !== 'combat') return null;
    return card(game, 'combats', 'Combats', [h('p', { class: 'small muted' }, v.step === 'declare' ? 'No combat declared yet. Select one of your units, then an enemy unit next to it.' : 'No combat this phase.')]);
  }
  const byId = game.store.unitsById();
  const body = v.combats.map((cb, i) => combatView(game, cb, i, byId));
  const open = v.combats.filter((c) => !c.resolved).length;
  return card(game, 'combats', 'Combats', body, { count: `${open} to resolve` });
}

/** @param {Game} game @param {Combat} cb @param {number} i @param {Map<string, Unit>} byId */
function combatView(game, cb, i, byId) {
  const ctl = game.ctl;
  const names = (/** @type {string[]} */ ids) => ids.map((id) => {
    const u = byId.get(id);
    return h('button', { type: 'button', class: 'link-btn unit-link', 'data-key': `cu:${i}:${id}`, onclick: () => game.selectUnit(id, true), title: u ? game.system.unitName(u) : id }, id);
  });
  const join = (/** @type {Node[]} */ xs) => xs.flatMap((x, k) => (k ? [', ', x] : [x]));
  // resolve controls, from the legal actions
  /** @type {{action: string, label: string}[]} */
  const options = [];
  for (const d of cb.defenders) {
    const r = ctl.L.resolves.get(d);
    if (!r) continue;
    if (r.action) options.push({ action: r.action, label: `at ${cb.column} (as it stands)` });
    for (const x of r.reduced.slice().sort((a, b) => COLUMNS.indexOf(b.odds) - COLUMNS.indexOf(a.odds))) options.push({ action: x.action, label: `at ${x.odds} (reduced, 7.9)` });
    break;
  }
  /** @type {Node|null} */
  let resolve = null;
  const key = `${game.id}|${cb.defenders.join(',')}`;
  const chosen = options.find((o) => o.action === oddsChoice.get(key)) || options[0];
  /** the column the combat would be resolved at, and its probabilities */
  let column = cb.column;
  let probs = cb.probabilities || {};
  const at = chosen?.action.match(/ at (\S+)$/);
  if (at) {
    column = at[1];
    probs = columnProbs.get(column) || probs;
  }
  if (options.length && !cb.resolved) {
    const sel = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': 'Odds to resolve at (7.9)', 'data-key': `odds:${i}` }, options.map((o) => h('option', { value: o.action, selected: o === chosen }, o.label))));
    sel.addEventListener('change', () => chooseOdds(game, key, sel.value));
    resolve = h('div', { class: 'resolve-row' },
      options.length > 1 ? sel : null,
      h('button', { type: 'button', class: 'btn btn-primary', 'data-key': `resolve:${i}`, title: chosen.action, onclick: () => game.act(chosen.action) }, 'Resolve', column !== cb.column ? ` at ${column}` : ''));
  }
  const p = probs;
  const result = combatResult(game, cb);
  return h('article', {
    class: `combat-card${cb.resolved ? ' resolved' : ''}${ctl.focusCombat === i ? ' focus' : ''}`,
    onmouseenter: () => { ctl.focusCombat = i; game.board?.showCombats(game.v.combats, byId, i); },
    onmouseleave: () => { ctl.focusCombat = null; game.board?.showCombats(game.v.combats, byId, null); },
  },
  h('header', {}, h('span', { class: 'combat-n' }, `${i + 1}`), h('span', { class: 'combat-who' }, join(names([...cb.attackers, ...cb.bombarding])), ' → ', join(names(cb.defenders))),
    h('span', { class: 'odds', title: 'Odds column (7.0)' }, column !== cb.column ? h('s', {}, cb.column) : null, column !== cb.column ? ' ' : null, column)),
  h('div', { class: 'combat-strengths' },
    h('span', {}, h('b', {}, String(cb.attack)), ' attack'), h('span', { class: 'muted' }, ' against '), h('span', {}, h('b', {}, String(cb.defence)), ' defence'),
    cb.bombarding.length ? h('span', { class: 'small muted' }, ` · bombarding: ${cb.bombarding.join(', ')}`) : null),
  cb.terrain.length ? h('ul', { class: 'plain small terrain-notes' }, cb.terrain.map((t) => h('li', {}, t))) : null,
  probBar(p),
  result ? h('div', { class: 'combat-result' }, result.die ? dieFace(result.die) : null, h('div', {}, caseLink('7.6'), ' ', result.result ? h('b', { class: 'result-code' }, result.result, ' ') : null, result.text)) : risk(game, cb, byId, p),
  cb.resolved ? h('p', { class: 'small muted' }, 'Resolved.') : resolve);
}

/**
 * Chooses the odds a combat will be resolved at, and fetches that column's probabilities.
 * @param {Game} game @param {string} key @param {string} action
 */
async function chooseOdds(game, key, action) {
  oddsChoice.set(key, action);
  const m = action.match(/ at (\d)-(\d)$/);
  if (m && !columnProbs.has(`${m[1]}-${m[2]}`)) {
    try {
      // a ratio of exactly a-b falls in column a-b
      const o = await api.odds(Number(m[1]), Number(m[2]));
      columnProbs.set(o.column, o.probabilities);
    } catch {
      /* the bar keeps the present odds */
    }
  }
  game.renderSidebar();
}

/**
 * The result of a combat of this phase, from the log's events: the server's typed `combat`
 * event (docs/api.md, "Events") whose defenders are this combat's: its die and result.
 * @param {Game} game @param {Combat} cb
 * @returns {{text: string, die: number|null, result: string|null}|null}
 */
export function combatResult(game, cb) {
  const log = game.v.log;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.action === 'end') break;
    for (const ev of e.events) {
      if (ev.kind === 'combat' && (ev.defenders || []).some((d) => cb.defenders.includes(d))) {
        return { text: ev.text, die: typeof ev.die === 'number' ? ev.die : null, result: ev.result || null };
      }
    }
  }
  return null;
}

/**
 * The demoralization risk of a combat (17.0): what each army would lose on each result,
 * against its margin to its level. Retreat eliminations are not counted.
 * @param {Game} game @param {Combat} cb @param {Map<string, Unit>} byId @param {Record<string, number>} p the result probabilities
 */
function risk(game, cb, byId, p) {
  const att = cb.attackers.map((id) => byId.get(id)).filter((u) => !!u);
  const def = cb.defenders.map((id) => byId.get(id)).filter((u) => !!u);
  if (!att.length || !def.length) return null;
  const dem = (/** @type {string} */ side) => game.v.demoralization.find((d) => d.side === side || d.army === side);
  const aD = dem(att[0].side), dD = dem(def[0].side);
  const aStr = att.reduce((n, u) => n + u.strength, 0);
  const dStr = def.reduce((n, u) => n + u.strength, 0);
  /** @type {Node[]} */
  const rows = [];
  const row = (/** @type {any} */ d, /** @type {string} */ lossText, /** @type {number} */ loss, /** @type {number} */ prob, /** @type {string} */ when) => {
    if (!d) return;
    const margin = d.level - d.losses;
    const breaks = loss >= margin;
    rows.push(h('li', { class: breaks ? 'breaks' : '' },
      h('span', { class: 'risk-when' }, when, ' ', h('span', { class: 'muted' }, pct(prob))), ': ',
      `${d.army} lose ${lossText} (${d.losses} → ${d.losses + loss} of ${d.level})`,
      breaks ? h('strong', { class: 'risk-break' }, ' — demoralized!') : null));
  };
  row(dD, String(dStr), dStr, (p.De || 0) + (p.Ex || 0), 'De or Ex');
  row(aD, String(aStr), aStr, p.Ae || 0, 'Ae');
  if ((p.Ex || 0) > 0) row(aD, `at least ${Math.min(aStr, dStr)}`, Math.min(aStr, dStr), p.Ex || 0, 'Ex');
  return h('details', { class: 'risk', open: true }, h('summary', {}, 'Demoralization risk ', caseLink('17.0')), h('ul', { class: 'plain small' }, rows),
    h('p', { class: 'small muted' }, 'Units eliminated for want of a retreat hex are not counted here.'));
}

/** A stacked bar of result probabilities with labels. @param {Record<string, number>} p */
export function probBar(p) {
  const segs = RESULTS.filter(([k]) => (p[k] || 0) > 0);
  return h('div', { class: 'prob' },
    h('div', { class: 'prob-bar', role: 'img', 'aria-label': RESULTS.map(([k, d]) => `${k} (${d}) ${pct(p[k] || 0)}`).join(', ') },
      segs.map(([k, d]) => h('div', { class: `seg seg-${k}`, style: `flex:${p[k]};--c:${RESULT_COLOURS[k]}`, title: `${k}: ${d}, ${pct(p[k] || 0)}` }, (p[k] || 0) >= 0.12 ? k : ''))),
    h('table', { class: 'prob-table' }, h('tbody', {}, h('tr', {}, RESULTS.map(([k, d]) => h('td', { title: d, class: (p[k] || 0) > 0 ? '' : 'zero' }, h('span', { class: `key key-${k}`, style: `--c:${RESULT_COLOURS[k]}` }), k, h('br'), h('b', {}, pct(p[k] || 0))))))));
}

/**
 * The combat whose column and die the Combat Results Table highlights (7.6): the combat just
 * rolled while its result is carried out (its typed `combat` event: column and die), else the
 * combat the player looks at, or the first still to resolve, at the odds chosen for it (7.9).
 * Null outside the combat phase.
 * @param {Game} game @returns {{column: string|null, die: number|null, why: string}|null}
 */
export function tableFocus(game) {
  const v = game.v;
  if (v.phase !== 'combat' || !v.combats.length) return null;
  const log = v.log;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.action === 'end') break;
    const ev = e.events.find((x) => x.kind === 'combat');
    if (!ev) continue;
    if (['losses', 'retreat', 'advance'].includes(v.step) || i === log.length - 1) {
      return { column: ev.column || null, die: typeof ev.die === 'number' ? ev.die : null, why: `Just rolled: ${(ev.attackers || []).join(', ')} against ${(ev.defenders || []).join(', ')}${ev.result ? `, ${ev.result}` : ''}` };
    }
    break;
  }
  const at = game.ctl.focusCombat ?? v.combats.findIndex((c) => !c.resolved);
  const cb = v.combats[at];
  if (!cb || cb.resolved) return null;
  const chosen = oddsChoice.get(`${game.id}|${cb.defenders.join(',')}`)?.match(/ at (\S+)$/)?.[1];
  return { column: chosen || cb.column, die: null, why: `Combat ${at + 1}: ${cb.attackers.join(', ')} against ${cb.defenders.join(', ')}` };
}
