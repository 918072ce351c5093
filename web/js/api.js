// The server's HTTP API (docs/api.md). The server is authoritative: the board sends action texts
// and shows what comes back.

import { normalizeState } from './store.js';

/**
 * An event of the log (docs/api.md "Events"): `case`, `kind`, `text` (for people) and the typed
 * facts the board reads, for Napoleon at War: `combat` {attackers, defenders, attack, defence,
 * column, die, result}; `eliminated` {unit, why}; `displaced` {unit, from, by}; `advanced`
 * {unit, to}; `entered` {unit, hex}; `delayed` {unit, hex, by}; `no_movement` {side}; `cut_off`
 * {unit, hex}; `game_over` {winner}; `computer` (the computer player's explanation, case
 * `computer`).
 * @typedef {{case?: string, text: string, kind?: string, attackers?: string[], defenders?: string[],
 *   attack?: number, defence?: number, column?: string, die?: number, result?: string, unit?: string,
 *   from?: string, by?: string, to?: string, hex?: string, side?: string, winner?: string|null, why?: string}} GameEvent */
/**
 * A unit entry. `hidden` units may come without id, strength or designation (the store gives
 * them a placeholder id starting with `?`); `facing` (0-5) is the hexside it faces, in the order
 * of hex.js's DIRS (E, NE, NW, W, SW, SE); `markers` name states drawn as tags on the counter.
 * @typedef {{id: string, side: string, nation: string, designation: string, type: string,
 *   strength: number, movement: number, status: 'map'|'waiting'|'eliminated'|'displaced', hex?: string|null,
 *   moved?: boolean, in_combat?: boolean, arrival?: {turn: number, hex: string}|null,
 *   hidden?: boolean, facing?: number|null, markers?: string[]}} Unit */
/** @typedef {{attackers: string[], bombarding: string[], defenders: string[], attack: number,
 *   defence: number, column: string, terrain: string[], probabilities: Record<string, number>,
 *   resolved: boolean}} Combat */
/** A log entry; `action` is `""` for an action of a seat this viewer may not see (until the
 *  game is over), null for the set-up's events.
 *  @typedef {{n: number, side: string|null, action: string|null, events: GameEvent[]}} LogEntry */
/** A legal action: its canonical text and what it is about (docs/api.md).
 *  @typedef {{text: string, kind: string, unit?: string, from?: string, to?: string, target?: string, units?: string[], odds?: string}} LegalAction */
/** Hexes computed by the rules for display: zones of control by side, ranges by unit id.
 *  @typedef {{zoc?: Record<string, string[]>, range?: Record<string, string[]>}} Overlays */
/** @typedef {{id: string, scenario: string, title: string, turn: number, first_turn: number,
 *   last_turn: number, night_turns: number[], night: boolean, phasing: string, phase: string,
 *   step: string, to_act: string, actions_recorded: number, undoable: number, state_hash: string,
 *   demoralization: {army: string, side: string, losses: number, level: number}[], units: Unit[],
 *   combats: Combat[], obligations: {unit: string, case: string}[], legal: string[],
 *   legal_actions: LegalAction[], legal_missing?: boolean, overlays: Overlays, system: string,
 *   log: LogEntry[], outcome: null | {winner: string|null, case: string, why: string}}} StateView */
/** @typedef {{id: string, width: number, height: number, title: string, terrain: string[][],
 *   hexsides: {a: string, b: string, dir?: string, features: string[]}[], slope_hexes: string[],
 *   places: {name: string, hex: string}[], legend?: import('./palette.js').Legend, parity?: 'even'|'odd'}} MapView */
/** @typedef {{hex: string, cost: number, path: string[]}} Destination */
/** @typedef {{unit: string, movement?: number, from?: string|null, destinations: Destination[], why_not: null | {case: string, why: string}}} Moves */

/** An error reply: `{"error": {"status", "case", "why", "kind"}}`. */
export class ApiError extends Error {
  /** @param {number} status @param {string} kind @param {string} why @param {string|undefined} kase */
  constructor(status, kind, why, kase) {
    super(kase ? `${kase}: ${why}` : why);
    this.status = status;
    this.kind = kind;
    this.why = why;
    this.case = kase;
  }
}

/**
 * @param {string} path
 * @param {{method?: string, body?: any, token?: string|null}} [opts]
 */
async function call(path, opts = {}) {
  /** @type {Record<string,string>} */
  const headers = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let res;
  try {
    res = await fetch(path, {
      method: opts.method || 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'network', `the server cannot be reached (${/** @type {Error} */ (e).message})`, undefined);
  }
  const text = await res.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = data && data.error ? data.error : {};
    throw new ApiError(e.status || res.status, e.kind || 'error', e.why || text || res.statusText, e.case);
  }
  return data;
}

export const api = {
  /** @returns {Promise<{id: string, title: string, first_turn: number, last_turn: number, sides: string[], description?: string}[]>} */
  scenarios: () => call('/api/scenarios'),
  /** @param {{scenario: string, seed?: number, mode: string, computer_side?: string, computer?: string}} body
   *  @returns {Promise<{id: string, seats: Record<string, string>, links: Record<string, string>}>} */
  create: (body) => call('/api/games', { method: 'POST', body }),
  /** The state view as the seat of `token` sees it (a spectator's without a token).
   *  @param {string} id @param {string|null} [token] @returns {Promise<StateView>} */
  state: async (id, token = null) => normalizeState(await call(`/api/games/${encodeURIComponent(id)}`, { token })),
  /** @param {string} id @param {string|null} [token] @returns {Promise<MapView>} */
  map: (id, token = null) => call(`/api/games/${encodeURIComponent(id)}/map`, { token }),
  /** @param {string} id @param {string} unit @param {string|null} [token] @returns {Promise<Moves>} */
  moves: (id, unit, token = null) => call(`/api/games/${encodeURIComponent(id)}/moves/${encodeURIComponent(unit)}`, { token }),
  /** The game record; 403 (`forbidden`) while the game hides what some seat does from this viewer.
   *  @param {string} id @param {string|null} [token] */
  record: (id, token = null) => call(`/api/games/${encodeURIComponent(id)}/record`, { token }),
  /** Sends an action; the reply's change lists the legal actions that follow.
   *  @param {string} id @param {string} action @param {number|undefined} expect @param {string|null} token
   *  @returns {Promise<{accepted: string[], events: import('./api.js').GameEvent[], change: any, state: StateView|null}>} */
  act: async (id, action, expect, token) => {
    const r = await call(`/api/games/${encodeURIComponent(id)}/actions`, { method: 'POST', body: expect === undefined ? { action, legal: true } : { action, expect, legal: true }, token });
    // (a server that answers with the whole state, like web/dev's mock, is understood too)
    return { accepted: r.accepted || [], events: r.events || [], change: r.change, state: r.state ? normalizeState(r.state) : null };
  },
  /** Takes back the last action (or, online, asks the opponent: then `requested` is set).
   *  @param {string} id @param {string|null} token
   *  @returns {Promise<{undone?: string, also_undone?: string[], change?: any, state?: any, requested?: any}>} */
  undo: (id, token) => call(`/api/games/${encodeURIComponent(id)}/undo`, { method: 'POST', body: { legal: true }, token }),
  /** Answers the opponent's request to take back (online games).
   *  @param {string} id @param {boolean} accept @param {string|null} token */
  takeback: (id, accept, token) => call(`/api/games/${encodeURIComponent(id)}/takeback`, { method: 'POST', body: { accept, legal: true }, token }),
  /** The pending request to take back, if any. @param {string} id @param {string|null} [token]
   *  @returns {Promise<{takeback: null | {by: string, actions: string[], actions_recorded: number}}>} */
  pendingTakeback: (id, token = null) => call(`/api/games/${encodeURIComponent(id)}/takeback`, { token }),
  /** The computer players and the levels the start screen offers.
   *  @returns {Promise<{players: string[], default: string, levels: {name: string, spec: string, about: string}[]}>} */
  players: () => call('/api/players'),
  /** The side a seat token acts for. @param {string} id @param {string} token
   *  @returns {Promise<{side: string, mode: string}>} */
  seat: (id, token) => call(`/api/games/${encodeURIComponent(id)}/seat`, { token }),
  /** @param {string} id @param {number} at @param {string|null} token
   *  @returns {Promise<{id: string, seats: Record<string, string>, links: Record<string, string>}>} */
  branch: (id, at, token) => call(`/api/games/${encodeURIComponent(id)}/branch`, { method: 'POST', body: { at }, token }),
  /** @param {string} id @param {number} n @param {string|null} [token] @returns {Promise<StateView>} */
  replay: async (id, n, token = null) => normalizeState(await call(`/api/games/${encodeURIComponent(id)}/replay/${n}`, { token })),
  /** @returns {Promise<{case: string, title: string, text: string}[]>} */
  rules: () => call('/api/rules'),
  /** @param {number} attack @param {number} defence @param {boolean} [doubled]
   *  @returns {Promise<{column: string, probabilities: Record<string, number>}>} */
  odds: (attack, defence, doubled = false) => call(`/api/odds?attack=${attack}&defence=${defence}&doubled=${doubled}`),
};

/** The WebSocket URL of a game, for the seat of `token` (a spectator's without one).
 *  @param {string} id @param {string|null} [token] */
export function wsUrl(id, token = null) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const seat = token ? `?seat=${encodeURIComponent(token)}` : '';
  return `${proto}//${location.host}/api/games/${encodeURIComponent(id)}/ws${seat}`;
}

// ------------------------------------------------------------------ seats in localStorage

const KEY = 'grognard.seats';

/** @typedef {{token: string, side?: string, mode?: string, title?: string, created?: number}} Seat */

/** @returns {Record<string, Seat>} */
function allSeats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/** @param {string} game @returns {Seat|null} */
export function loadSeat(game) {
  return allSeats()[game] || null;
}

/** @param {string} game @param {Seat} seat */
export function saveSeat(game, seat) {
  const all = allSeats();
  all[game] = { ...(all[game] || {}), ...seat, created: all[game]?.created || Date.now() };
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* storage may be unavailable (private mode): the seat lives in the URL */
  }
}

/** Games this browser holds a seat in, newest first. */
export function knownGames() {
  return Object.entries(allSeats())
    .map(([id, s]) => ({ id, ...s }))
    .sort((a, b) => (b.created || 0) - (a.created || 0));
}

/** @param {string} game */
export function forgetSeat(game) {
  const all = allSeats();
  delete all[game];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* ignore */
  }
}
