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
/** @typedef {{hex: string, cost: number|null, path: string[]}} Destination */
/** @typedef {{unit: string, movement?: number, from?: string|null, destinations: Destination[], why_not: null | {case: string, why: string}}} Moves */

/**
 * A system's charts (`GET /api/tables`): a results table by odds column and die (`crt`; a die
 * row may give its text in `from`, as a band of random numbers), a terrain chart (`tec`) of
 * hexes and hexsides with their movement and combat effects, and any other charts (`charts`).
 * @typedef {{crt?: {columns: string[], rows: {die: number, from?: string, results: string[]}[], results?: {code: string, name: string, case?: string}[], case?: string},
 *   tec?: {rows: {terrain: string, kind: string, name: string, movement: string, combat: string, case?: string}[], case?: string},
 *   charts?: Chart[]}} Tables */
/** One more of a system's charts, a grid to draw as it is (`charts` of `GET /api/tables`): a
 *  heading per column (`corner` above the rows' labels), a label and a cell text per row;
 *  `reconstructed` when the rules' text describes it without printing it.
 * @typedef {{id: string, title: string, case?: string, reconstructed?: boolean, corner?: string, columns: string[],
 *   rows: {label: string, cells: string[]}[], note?: string}} Chart */

/** An error reply: `{"error": {"status", "case", "why", "kind"}}`; `retryAfter` is the wait, in
 *  seconds, a rate-limited reply (429) asks for (its `Retry-After` header). */
export class ApiError extends Error {
  /** @param {number} status @param {string} kind @param {string} why @param {string|undefined} kase @param {number} [retryAfter] */
  constructor(status, kind, why, kase, retryAfter) {
    super(kase ? `${kase}: ${why}` : why);
    this.status = status;
    this.kind = kind;
    this.why = why;
    this.case = kase;
    this.retryAfter = retryAfter;
  }
}

// ------------------------------------------------------------------ rate limits (429)

/** The wait asked when a 429 names none, and the longest the board honours, in seconds. */
const DEFAULT_WAIT = 5;
const LONGEST_WAIT = 600;

/**
 * The server's last "slow down": until when (ms since 1970) nothing is sent that the player did
 * not ask for again, and the server's words. Reads wait for it to pass; actions are refused at
 * once, without a request, with the server's words and the time left.
 */
export const limit = { until: 0, why: '' };

/** @type {Set<() => void>} */
const limitListeners = new Set();

/** Calls `fn` whenever the server asks the board to slow down; returns the unsubscriber. @param {() => void} fn */
export function onRateLimit(fn) {
  limitListeners.add(fn);
  return () => { limitListeners.delete(fn); };
}

/** Seconds left before the board may send again (0 when it may). */
export function waitLeft() {
  return Math.max(0, Math.ceil((limit.until - Date.now()) / 1000));
}

/** A `Retry-After` header (seconds, or an HTTP date) in seconds, within bounds. @param {string|null} v */
export function retryAfterSeconds(v) {
  if (!v) return DEFAULT_WAIT;
  const n = /^\s*\d+\s*$/.test(v) ? Number(v) : Math.ceil((Date.parse(v) - Date.now()) / 1000);
  if (!Number.isFinite(n)) return DEFAULT_WAIT;
  return Math.min(LONGEST_WAIT, Math.max(1, n));
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * One request to the API. Every request that is not a read (POST) carries a JSON body (`{}`
 * when there is nothing to say) with `Content-Type: application/json`, as the server demands.
 * A read that the server rate-limits (429) is retried, twice at most, after the wait it asks;
 * anything else throws an {@link ApiError}.
 * @param {string} path
 * @param {{method?: string, body?: any, token?: string|null, raw?: boolean}} [opts] `raw`: the
 *   reply's text as it came, not parsed
 */
async function call(path, opts = {}) {
  const method = opts.method || 'GET';
  const read = method === 'GET' || method === 'HEAD';
  for (let attempt = 0; ; attempt++) {
    const left = waitLeft();
    if (left > 0) {
      // the server asked to slow down: a read waits, an action is refused without asking
      if (!read) throw new ApiError(429, 'rate_limited', limit.why || 'the server asks to slow down', undefined, left);
      await sleep(limit.until - Date.now());
    }
    try {
      return await send(path, method, read, opts);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 429)) throw e;
      limit.until = Date.now() + (e.retryAfter || DEFAULT_WAIT) * 1000;
      limit.why = e.why;
      for (const fn of limitListeners) fn();
      if (!read || attempt >= 2) throw e;
    }
  }
}

/** @param {string} path @param {string} method @param {boolean} read @param {{body?: any, token?: string|null, raw?: boolean}} opts */
async function send(path, method, read, opts) {
  /** @type {Record<string,string>} */
  const headers = { Accept: 'application/json' };
  if (!read) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: read ? undefined : JSON.stringify(opts.body === undefined ? {} : opts.body),
      cache: 'no-store',
      credentials: 'same-origin',
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
    const status = e.status || res.status;
    const kind = e.kind || (status === 429 ? 'rate_limited' : 'error');
    const why = e.why || (data ? '' : text.trim().slice(0, 300)) || res.statusText || `the server answered ${status}`;
    throw new ApiError(status, kind, why, e.case, status === 429 ? retryAfterSeconds(res.headers.get('Retry-After')) : undefined);
  }
  if (opts.raw) return text;
  return read ? data : data ?? {};
}

/**
 * What creating a game (or a branch) answers: the seat tokens, each seat's relative link
 * (`/#game=ID&seat=TOKEN&side=SIDE`) and, when the server knows its public address, the same
 * links as absolute addresses in `urls`; a sealed game's (secret dice) `commitment` to its seed.
 * @typedef {{id: string, mode?: string, seats: Record<string, string>, links: Record<string, string>, urls?: Record<string, string>, commitment?: string}} Created
 */

export const api = {
  /** Every scenario, with `rules`: the systems that can play it (its own first).
   *  @returns {Promise<{id: string, title: string, system?: string, rules?: {id: string, name: string}[], first_turn: number, last_turn: number, sides: string[], description?: string}[]>} */
  scenarios: () => call('/api/scenarios'),
  /** A seed is sent only when the player gives one: as a number when it is a safe integer,
   *  else as its decimal digits (a 64-bit seed does not survive a JavaScript number).
   *  @param {{scenario: string, seed?: number|string, mode: string, computer_side?: string, computer?: string, rules?: string}} body
   *  @returns {Promise<Created>} */
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
  /** The game record's text exactly as the server wrote it (for export: its seed may not fit a
   *  JavaScript number). @param {string} id @param {string|null} [token] @returns {Promise<string>} */
  recordText: (id, token = null) => call(`/api/games/${encodeURIComponent(id)}/record`, { token, raw: true }),
  /** Sends an action; the reply's change lists the legal actions that follow.
   *  @param {string} id @param {string} action @param {number|undefined} expect @param {string|null} token
   *  @returns {Promise<{accepted: string[], events: import('./api.js').GameEvent[], change: any, state: StateView|null}>} */
  act: async (id, action, expect, token) => {
    const r = await call(`/api/games/${encodeURIComponent(id)}/actions`, { method: 'POST', body: expect === undefined ? { action, legal: true } : { action, expect, legal: true }, token });
    // (a server that answers with the whole state, like web/dev's mock, is understood too)
    return { accepted: r.accepted || [], events: r.events || [], change: r.change, state: r.state ? normalizeState(r.state) : null };
  },
  /** The computer finishes the step for the seat to act (`POST /api/games/{id}/finish`): the
   *  system's computer player takes the seat's actions until the step or the seat to act
   *  changes; answered as an action is. @param {string} id @param {number|undefined} expect
   *  @param {string|null} token */
  finish: async (id, expect, token) => {
    const r = await call(`/api/games/${encodeURIComponent(id)}/finish`, { method: 'POST', body: expect === undefined ? { legal: true } : { expect, legal: true }, token });
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
  /** The computer players and the levels the start screen offers, of a rules system (the
   *  server's first by default).
   *  @param {string} [system]
   *  @returns {Promise<{players: string[], default: string, levels: {name: string, spec: string, about: string}[]}>} */
  players: (system) => call(`/api/players${system ? `?system=${encodeURIComponent(system)}` : ''}`),
  /** The side a seat token acts for. @param {string} id @param {string} token
   *  @returns {Promise<{side: string, mode: string}>} */
  seat: (id, token) => call(`/api/games/${encodeURIComponent(id)}/seat`, { token }),
  /** @param {string} id @param {number} at @param {string|null} token
   *  @returns {Promise<Created>} */
  branch: (id, at, token) => call(`/api/games/${encodeURIComponent(id)}/branch`, { method: 'POST', body: { at }, token }),
  /** @param {string} id @param {number} n @param {string|null} [token] @returns {Promise<StateView>} */
  replay: async (id, n, token = null) => normalizeState(await call(`/api/games/${encodeURIComponent(id)}/replay/${n}`, { token })),
  /** The rules reference of a system (the server's first one without `system`).
   *  @param {string} [system] @returns {Promise<{case: string, title: string, text: string}[]>} */
  rules: (system) => call(`/api/rules${system ? `?system=${encodeURIComponent(system)}` : ''}`),
  /** The rules system's charts as data (`GET /api/tables`): for Napoleon at War the Combat
   *  Results Table (`crt`) and the Terrain Effects Chart (`tec`); 404 for a system without any.
   *  @param {string} [system] @returns {Promise<Tables>} */
  tables: (system) => call(`/api/tables${system ? `?system=${encodeURIComponent(system)}` : ''}`),
  /** What a legal action of this seat's side would make, without doing it (`GET
   *  /api/games/{id}/preview`): for a declaration, the combat it would make or join; the
   *  rest of the answer is the system's (a melee's odds with their shifts, for one).
   *  @param {string} id @param {string} action @param {string|null} [token]
   *  @returns {Promise<{action: string, combat?: Combat, combats?: Combat[], [k: string]: any}>} */
  preview: (id, action, token = null) => call(`/api/games/${encodeURIComponent(id)}/preview?action=${encodeURIComponent(action)}`, { token }),
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

/**
 * A seat this browser holds: its token, side (`both` in hot-seat), mode, the game's title, when it
 * was taken, and `url`, the seat's absolute link as the server gave it (`urls` of the create call)
 * when it gave one.
 * @typedef {{token: string, side?: string, mode?: string, title?: string, created?: number, url?: string}} Seat */

/** Seats kept for this page only, when the browser stores nothing (storage disabled or full).
 *  @type {Record<string, Seat>} */
const unstored = {};

/** @returns {Record<string, Seat>} */
function allSeats() {
  try {
    return { ...(JSON.parse(localStorage.getItem(KEY) || '{}') || {}), ...unstored };
  } catch {
    return { ...unstored };
  }
}

/** @param {string} game @returns {Seat|null} */
export function loadSeat(game) {
  return allSeats()[game] || null;
}

/**
 * Keeps a seat in this browser; false when the browser would not store it (it is then kept for
 * this page only, and the seat's link stays the way back to it).
 * @param {string} game @param {Seat} seat
 */
export function saveSeat(game, seat) {
  const all = allSeats();
  const old = all[game];
  // another token for the same game (another seat's link): nothing of the old seat carries over
  // but the title
  const base = old && old.token === seat.token ? old : old ? { title: old.title } : {};
  const merged = { ...base, ...dropUndefined(seat), created: (old && old.token === seat.token && old.created) || Date.now() };
  all[game] = merged;
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    stored[game] = merged;
    localStorage.setItem(KEY, JSON.stringify(stored));
    delete unstored[game];
    return true;
  } catch {
    unstored[game] = merged;
    return false;
  }
}

/** @template {Record<string, any>} T @param {T} o @returns {T} */
function dropUndefined(o) {
  return /** @type {T} */ (Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
}

/** Games this browser holds a seat in, newest first. */
export function knownGames() {
  return Object.entries(allSeats())
    .map(([id, s]) => ({ id, ...s }))
    .sort((a, b) => (b.created || 0) - (a.created || 0));
}

/** @param {string} game */
export function forgetSeat(game) {
  delete unstored[game];
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    delete stored[game];
    localStorage.setItem(KEY, JSON.stringify(stored));
  } catch {
    /* ignore */
  }
}

// ------------------------------------------------------------------ seat links

/**
 * The relative link of a seat, the server's shape: `/#game=ID&seat=TOKEN&side=SIDE`.
 * @param {string} game @param {string} token @param {string|null|undefined} side
 */
export function seatPath(game, token, side) {
  return `/#game=${encodeURIComponent(game)}&seat=${encodeURIComponent(token)}${side ? `&side=${encodeURIComponent(side)}` : ''}`;
}

/**
 * A seat's absolute link: the server's own (`urls`, built from its public address) when it gave
 * one, else the link on the address this page was loaded from.
 * @param {string} link the relative link (`links` of the create call)
 * @param {string|null|undefined} [url] the absolute one (`urls`), if any
 */
export function absoluteLink(link, url) {
  if (url && /^https?:\/\//i.test(url)) return url;
  return new URL(link, location.origin).href;
}

/**
 * True when an address can be opened only on this machine (loopback: 127.x.x.x, localhost,
 * [::1]) — a friend elsewhere cannot reach it.
 * @param {string} href
 */
export function isLoopback(href) {
  let host;
  try {
    host = new URL(href).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host)
    || host === '::1' || host === '0:0:0:0:0:0:0:1' || host === '0.0.0.0' || /^::ffff:127\./.test(host) || /^::ffff:7f/.test(host);
}
