// The store: the state view the board holds (docs/api.md), the changes applied to it, and who
// listens. It knows the shape of the API's data, never a game's rules: it reads the server's
// legal actions, overlays and events as they come (older servers' spellings included).

import { parseAction } from './actions.js';

/** @typedef {import('./api.js').StateView} StateView */
/** @typedef {import('./api.js').Unit} Unit */
/** @typedef {import('./api.js').LegalAction} LegalAction */

/** The rules system a state view without `system` belongs to (the first and only one, so far). */
export const DEFAULT_SYSTEM = 'naw';

/**
 * Normalises a state view: fills what an older server leaves out (`system`, `legal_actions`,
 * `overlays`), tolerates the CLI's `grognard show --json` spellings (`legal_actions` as texts,
 * `arrival_turn`/`arrival_hex`, `odds`), and gives hidden units without id a placeholder one.
 * @param {any} s
 * @returns {StateView}
 */
export function normalizeState(s) {
  const v = { ...s };
  v.system = typeof s.system === 'string' && s.system ? s.system : DEFAULT_SYSTEM;
  const { texts, actions } = legalOf(s);
  v.legal = texts;
  v.legal_actions = actions;
  v.overlays = s.overlays && typeof s.overlays === 'object' ? s.overlays : {};
  v.units = normalizeUnits(s.units || []);
  v.combats = (s.combats || []).map((/** @type {any} */ c) => ({ ...c, column: c.column || c.odds, bombarding: c.bombarding || [], terrain: c.terrain || [] }));
  v.obligations = s.obligations || [];
  v.night_turns = s.night_turns || [];
  v.log = s.log || [];
  // events of the set-up (before any action), if the server lists them apart from the log
  if (Array.isArray(s.setup_events) && s.setup_events.length && !v.log.some((/** @type {any} */ e) => e.n === 0)) {
    v.log = [{ n: 0, side: null, action: null, events: s.setup_events }, ...v.log];
  }
  v.demoralization = s.demoralization || [];
  v.outcome = s.outcome || null;
  return /** @type {StateView} */ (v);
}

/**
 * The legal actions of a state view or a change, as texts and as structured actions: the
 * server's `legal_actions` objects when it sends them, else the texts (`legal`, or the CLI's
 * `legal_actions` of strings) read by {@link parseAction}.
 * @param {any} s
 * @returns {{texts: string[], actions: LegalAction[]}}
 */
export function legalOf(s) {
  const la = Array.isArray(s.legal_actions) ? s.legal_actions : null;
  if (la && la.length && typeof la[0] === 'object') {
    // the server's fields win; a hex's action on a hex (`from`, no `unit`, such as Leipzig
    // 1813's `attack 2627 2628`) takes no unit or target from the text's reading
    const actions = la.filter((/** @type {any} */ a) => a && typeof a.text === 'string').map((/** @type {any} */ a) => {
      const p = parseAction(a.text);
      if (a.from && !a.unit) { delete p.unit; delete p.target; }
      return { ...p, ...a };
    });
    return { texts: Array.isArray(s.legal) ? s.legal : actions.map((/** @type {LegalAction} */ a) => a.text), actions };
  }
  /** @type {string[]} */
  const texts = Array.isArray(s.legal) ? s.legal : la || [];
  return { texts, actions: texts.map(parseAction) };
}

/** @param {any[]} units @returns {Unit[]} */
function normalizeUnits(units) {
  let hidden = 0;
  return units.map((u) => {
    let o = u;
    if (!o.arrival && o.arrival_turn != null) o = { ...o, arrival: { turn: o.arrival_turn, hex: o.arrival_hex } };
    if (!o.id) {
      hidden++;
      o = { nation: '', designation: '', type: 'unknown', strength: 0, movement: 0, status: 'map', ...o, id: `?${o.side || 'unit'}.${hidden}`, hidden: true };
    }
    return o;
  });
}

/** The members of a change that are not state view fields as they are (applied apart). */
const CHANGE_OWN = new Set(['base', 'units', 'log', 'legal', 'legal_actions', 'combats', 'obligations', 'id', 'scenario', 'title', 'first_turn', 'last_turn', 'night_turns', 'setup_events']);

/**
 * Applies a change (the light reply of an action or a take-back, docs/api.md "The change") to
 * the state view it was made from. Returns the new state view, or null when `state` is not the
 * one the change applies to (the caller then fetches the whole state). The legal actions are
 * kept only when the change lists them; otherwise they are empty and `legal_missing` is true.
 * @param {StateView|null} state @param {any} c
 * @returns {StateView|null}
 */
export function applyChange(state, c) {
  if (!state || !c || typeof c.base !== 'number' || c.base !== state.actions_recorded) return null;
  const v = /** @type {any} */ ({ ...state });
  // every small field the change carries, the rules system's own included (docs/api.md, "The
  // change": all the state view's fields but the ones below, which it gives in its own way)
  for (const k of Object.keys(c)) {
    if (!CHANGE_OWN.has(k)) v[k] = c[k];
  }
  const listed = c.units || [];
  // a unit the state does not hold (one revealed, a counter built up), a hidden one (it cannot be
  // matched), or a view that counts its units (`units_count`) and now counts otherwise (one
  // hidden again, a counter gone into another): fetch the whole state
  const held = new Set(state.units.map((u) => u.id));
  if (listed.some((/** @type {any} */ u) => !u.id || !held.has(u.id))) return null;
  if (typeof c.units_count === 'number' && c.units_count !== state.units.length) return null;
  const changed = new Map(listed.filter((/** @type {any} */ u) => u.id && !String(u.id).startsWith('?')).map((/** @type {any} */ u) => [u.id, u]));
  const anonymous = listed.filter((/** @type {any} */ u) => !u.id);
  // units without id (hidden) cannot be matched: a change that lists some replaces them all
  const kept = anonymous.length ? state.units.filter((u) => !u.id.startsWith('?')) : state.units;
  v.units = kept.map((u) => changed.get(u.id) || u).concat(anonymous);
  const hasLegal = Array.isArray(c.legal) || Array.isArray(c.legal_actions);
  const s = normalizeState({ ...v, combats: c.combats || [], obligations: c.obligations || [], legal: c.legal, legal_actions: c.legal_actions });
  const added = c.log || [];
  const keep = c.actions_recorded - added.length;
  s.log = state.log.filter((e) => e.n <= keep).concat(added);
  s.legal_missing = !hasLegal;
  return s;
}

/**
 * The state the board holds: the live state view, and what is shown (the live state, or a
 * position of the replay). Views subscribe and are called after every change.
 */
export class Store {
  constructor() {
    /** @type {StateView|null} the live state */
    this.state = null;
    /** @type {StateView|null} what is shown */
    this.view = null;
    /** @type {number|null} the replay position shown, or null when live */
    this.replayN = null;
    /** @type {Set<(store: Store) => void>} */
    this.listeners = new Set();
  }

  /** Calls `fn` after every change; returns the unsubscriber. @param {(store: Store) => void} fn */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => { this.listeners.delete(fn); };
  }

  emit() {
    for (const fn of this.listeners) fn(this);
  }

  /** Takes a new live state (shown unless a replay is). @param {StateView} state @param {boolean} [quiet] */
  setLive(state, quiet = false) {
    this.state = state;
    if (this.replayN === null) this.view = state;
    if (!quiet) this.emit();
  }

  /** Applies a change to the live state; false when it does not apply (fetch the whole state). @param {any} change */
  apply(change) {
    const s = applyChange(this.state, change);
    if (!s) return false;
    this.setLive(s);
    return true;
  }

  /** Shows a replay position (null: back to the live state). @param {number|null} n @param {StateView|null} [view] */
  showReplay(n, view = null) {
    this.replayN = n;
    this.view = n === null ? this.state : view || this.view;
    this.emit();
  }

  /** The units shown, by id. */
  unitsById() {
    return new Map((this.view?.units || []).map((u) => [u.id, u]));
  }

  /**
   * Hexes of an overlay of the shown state, as the server computed them: `zoc` by side (all
   * sides but `viewer`'s), `range` by unit id. Null when the server sends none.
   * @param {'zoc'|'range'} kind @param {{viewer?: string|null, unit?: string|null}} o
   * @returns {Set<string>|null}
   */
  overlay(kind, o) {
    const ov = this.view?.overlays;
    if (!ov) return null;
    if (kind === 'zoc') {
      const z = ov.zoc;
      if (!z) return null;
      return new Set(Object.entries(z).filter(([side]) => side !== o.viewer).flatMap(([, hexes]) => hexes || []));
    }
    const r = ov.range;
    if (!r || !o.unit || !r[o.unit]) return null;
    return new Set(r[o.unit]);
  }
}
