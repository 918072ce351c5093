// The game screen: wires the store (the state view and its changes), the controller (what the
// player's pointing means, from the server's legal actions) and the views (board, top bar, side
// panel, log, dialogs), and talks to the server. The rules system's panel (web/systems/<id>/,
// picked by the state view's `system`) gives everything specific to a game system.

import { api, ApiError, wsUrl, loadSeat, saveSeat, forgetSeat, onRateLimit, waitLeft, limit, seatPath, absoluteLink, isLoopback } from './api.js';
import { Store, normalizeState, applyChange } from './store.js';
import { Controller } from './controller.js';
import { systemFor } from './systems.js';
import { styles } from './palette.js';
import { Board } from './views/board.js';
import { renderSidebar } from './views/sidebar.js';
import { renderTop, renderBanner } from './views/topbar.js';
import { help, pickUnit } from './views/dialogs.js';
import { legend } from './views/legend.js';
import { arrivals, movesBetween, unitsNamed } from './views/mapnotes.js';
import { HoverCard, fetchPreview } from './views/hover.js';
import { h, fill, mp, debounce, plural, actionLabel } from './util.js';
import { toast, caseLink, announce, setRuleOpener } from './toast.js';
import { RulesDrawer } from './rules.js';
import { TablesDrawer } from './views/tables.js';
import { summarize, summaryLine } from './views/events.js';
import { parseAction } from './actions.js';
import { icon } from './icons.js';

/** @typedef {import('./api.js').StateView} StateView */
/** @typedef {import('./api.js').Unit} Unit */

const PREFS = 'grognard.prefs';

/** A seat's side as said to the player: `both` is the hot-seat's. @param {string} side */
function sideName(side) {
  return side === 'both' ? 'both sides' : side || 'a side';
}

/** @returns {{numbers: boolean, zoc: boolean, names: boolean, legend: boolean, open: Record<string, boolean>}} */
function loadPrefs() {
  const d = { numbers: false, zoc: false, names: true, legend: false, open: { log: true, text: false } };
  try {
    return { ...d, ...JSON.parse(localStorage.getItem(PREFS) || '{}') };
  } catch {
    return d;
  }
}

/** @type {RulesDrawer|null} */
let rulesDrawer = null;

/** The rules drawer (one per page). */
export function rules() {
  if (!rulesDrawer) {
    rulesDrawer = new RulesDrawer();
    setRuleOpener((c) => /** @type {RulesDrawer} */ (rulesDrawer).open(c), (c) => !!rulesDrawer?.rules?.some((r) => r.case === c));
  }
  return rulesDrawer;
}

export class Game {
  /**
   * @param {HTMLElement} root
   * @param {string} id
   * @param {{token: string, side?: string}|null} [offered] a seat offered by the link opened
   *   (`&seat=TOKEN&side=SIDE`), checked with the server before it is taken
   */
  constructor(root, id, offered = null) {
    this.root = root;
    this.id = id;
    this.offered = offered;
    const seat = loadSeat(id);
    /** @type {string|null} */
    this.token = seat?.token || null;
    /** @type {string|null} 'both' in hot-seat, a side, or null when unknown */
    this.side = seat?.side || null;
    this.mode = seat?.mode || null;
    this.store = new Store();
    this.ctl = new Controller();
    this.system = systemFor(null);
    this.movesSeq = 0;
    /** @type {string|null} */
    this.hover = null;
    this.busy = false;
    this.prefs = loadPrefs();
    /** @type {WebSocket|null} */
    this.ws = null;
    this.wsRetry = 0;
    this.closed = false;
    /** @type {Set<string>} units to flash after an action */
    this.flash = new Set();
    /** @type {{unit: string, side: string, from: string, to: string}[]} the other side's last moves, marked on the map */
    this.lastMoves = [];
    /** @type {Map<string, string>} units to slide from a hex at the next drawing (the other side's moves) */
    this.slide = new Map();
    /** @type {HoverCard|null} */
    this.hoverCard = null;
    /** @type {null | {by: string, actions: string[], actions_recorded: number}} a take-back waiting for consent (online) */
    this.takeback = null;
    /** @type {string|null} why this board has no seat although one was offered or kept (shown to the spectator) */
    this.seatNote = null;
    /** @type {null | {n: number, hash: string}} a change the WebSocket told while this board waited for a reply of its own */
    this.missed = null;
    /** @type {(() => void)|null} */
    this.unlimit = null;
    /** @type {any} the countdown of a "slow down" */
    this.limitTimer = null;
    /** @type {{n: number, events: import('./api.js').GameEvent[]}[]} the rules system's notes of what changed between positions (the events panel lists them) */
    this.notes = [];
    /** @type {number|null} the position at which this seat last handed the turn to another (its opponent, the computer) */
    this.awaySince = null;
    /** @type {import('./views/events.js').Summary|null} what the other side did while this seat waited (shown until dismissed) */
    this.summary = null;
    /** @type {string|null} the action sent, waiting for its reply */
    this.pending = null;
    /** @type {HTMLElement|null} the notice of a take-back this seat asked for, while it waits */
    this.askToast = null;
    /** @type {TablesDrawer|null} */
    this.tables = null;
    /** @type {null | {action: string, n: number, preview: import('./views/hover.js').Preview|null}} an action shown with its preview, waiting for the player's word (a melee before its die) */
    this.confirming = null;
    this.onKey = this.onKey.bind(this);
    /** @type {Board|null} */
    this.board = null;
    /** @type {import('./api.js').MapView|null} */
    this.map = null;
    // the elements of the screen, made by buildDom()
    const none = /** @type {any} */ (null);
    /** @type {HTMLElement} */ this.mapHost = none;
    /** @type {HTMLElement} */ this.side_ = none;
    /** @type {HTMLElement} */ this.infoBar = none;
    /** @type {HTMLElement} */ this.legendEl = none;
    /** @type {HTMLElement} */ this.replayBar = none;
    /** @type {HTMLElement} */ this.banner = none;
    /** @type {HTMLElement} */ this.takebackEl = none;
    /** @type {HTMLElement} */ this.limitEl = none;
    /** @type {HTMLElement} */ this.trackEl = none;
    /** @type {HTMLElement} */ this.phaseEl = none;
    /** @type {HTMLElement} */ this.actorEl = none;
    /** @type {HTMLButtonElement} */ this.undoBtn = none;
    /** @type {HTMLElement} */ this.replayBtn = none;
    /** @type {HTMLElement} */ this.numBtn = none;
    /** @type {HTMLElement} */ this.zocBtn = none;
    /** @type {HTMLElement} */ this.namesBtn = none;
    /** @type {HTMLElement} */ this.legendBtn = none;
    /** @type {HTMLElement} */ this.phoneBar = none;
  }

  // handles the browser checks and the e2e tests read (window.grognard)
  /** The live state view. */
  get state() { return this.store.state; }
  /** What is shown (the live state, or a replay position). */
  get view() { return this.store.view; }
  get selected() { return this.ctl.selected; }
  get moves() { return this.ctl.moves; }
  get replayN() { return this.store.replayN; }

  async start() {
    rules();
    fill(this.root, h('div', { class: 'loading' }, h('div', { class: 'spinner', 'aria-hidden': 'true' }), h('p', {}, 'Unfolding the map…')));
    /** @type {{kind: 'warn'|'info', title: string, body: string}|null} what to tell about the seat once the board is up */
    let told = null;
    let map, state;
    try {
      told = await this.takeSeat();
      if (this.closed) return;
      try {
        [map, state] = await Promise.all([api.map(this.id, this.token), api.state(this.id, this.token)]);
      } catch (e) {
        // a token the server does not know for this game (401): watch as a spectator instead
        if (!(e instanceof ApiError && e.status === 401 && this.token)) throw e;
        told = this.refuseSeat(e, !!this.offered && this.token === this.offered.token);
        [map, state] = await Promise.all([api.map(this.id), api.state(this.id)]);
      }
    } catch (e) {
      if (this.closed) return;
      const err = /** @type {ApiError} */ (e);
      fill(this.root, h('div', { class: 'start' }, h('main', { id: 'main', class: 'start-main' }, h('section', { class: 'card' },
        h('h1', {}, err.status === 404 ? 'No such game' : 'The game could not be loaded'),
        h('p', { role: 'alert' }, err.status === 429 ? `The server is busy: ${err.why}` : err.message),
        h('p', { class: 'btn-row' },
          err.status === 404 ? null : h('button', { type: 'button', class: 'btn btn-primary', onclick: () => this.start() }, 'Try again'),
          h('a', { href: '#', class: err.status === 404 ? 'btn btn-primary' : 'btn' }, 'Back to the start'))))));
      return;
    }
    if (this.closed) return;
    this.map = map;
    this.system = systemFor(state.system);
    rules().setSystem(state.system);
    this.store.setLive(state, true);
    const kept = loadSeat(this.id);
    if (this.token && kept?.token === this.token && !kept.title) saveSeat(this.id, { token: this.token, title: state.title });
    this.buildDom();
    this.board = new Board(this.mapHost, map, {
      onActivate: (hex) => this.activate(hex),
      onHover: (hex) => this.onHover(hex),
      onDragStart: (unit) => this.dragStart(unit),
      onDrop: (unit, hex) => this.drop(unit, hex),
      onCursor: (hex) => this.onCursor(hex),
      onEscape: () => this.escape(),
      onChoose: (action) => { this.act(action); },
    }, this.system, { viewKey: this.id });
    this.hoverCard = new HoverCard(this);
    this.board.setHexNumbers(this.prefs.numbers);
    this.board.setPlaceNames(this.prefs.names);
    document.addEventListener('keydown', this.onKey);
    this.store.subscribe(() => this.render());
    this.render();
    this.connect();
    this.unlimit = onRateLimit(() => this.renderLimit());
    this.renderLimit();
    document.title = `${state.title} — Grognard`;
    if (told) {
      toast({ kind: told.kind, title: told.title, body: told.body, timeout: told.kind === 'warn' ? 20000 : 6000 });
      announce(`${told.title}. ${told.body}`);
    }
  }

  destroy() {
    this.closed = true;
    document.removeEventListener('keydown', this.onKey);
    this.tables?.destroy();
    if (this.ws) this.ws.close();
    this.unlimit?.();
    clearInterval(this.limitTimer);
  }

  // ================================================================ the seat

  /**
   * Checks the seat this board would play with the server (`GET /api/games/{id}/seat`) before
   * anything else: the seat a link offers (kept in this browser once the server knows it; the
   * link's token then leaves the address bar), else the one this browser keeps. A token the
   * server refuses (wrong, stale, another game's) is said at once: the board falls back to the
   * seat this browser keeps, or watches. Returns what to tell the player, if anything.
   * @returns {Promise<{kind: 'warn'|'info', title: string, body: string}|null>}
   */
  async takeSeat() {
    const offered = this.offered;
    const kept = loadSeat(this.id);
    const plain = `#game=${encodeURIComponent(this.id)}`;
    if (offered) {
      try {
        const seat = await api.seat(this.id, offered.token);
        this.token = offered.token;
        this.side = seat.side;
        this.mode = seat.mode;
        const stored = saveSeat(this.id, { token: offered.token, side: seat.side, mode: seat.mode });
        // the seat now lives in this browser: keep it out of the address bar (and out of shared
        // links); a browser that stores nothing keeps it there, the only way back to it
        if (stored) history.replaceState(null, '', plain);
        if (kept && kept.token !== offered.token) return { kind: 'info', title: `You now play ${sideName(seat.side)} in this game`, body: `This browser's seat was ${sideName(kept.side || '')}; the link you opened replaced it.` };
        if (!stored) return { kind: 'warn', title: 'This browser keeps no seats', body: 'It stores nothing for this site (private window or storage turned off): keep your seat link to come back to this game.' };
        return null;
      } catch (e) {
        const err = /** @type {ApiError} */ (e);
        if (err.status === 404) throw err;
        if (err.status === 401 || err.status === 403) {
          history.replaceState(null, '', plain);
          return this.refuseSeat(err, true);
        }
        // the server could not say (unreachable, busy): play with the link's seat, unchecked,
        // for this page only (the link stays in the address bar)
        this.token = offered.token;
        this.side = offered.side || null;
        this.mode = null;
        return null;
      }
    }
    if (!this.token) return null;
    try {
      const seat = await api.seat(this.id, this.token);
      if (seat.side !== this.side || seat.mode !== this.mode) saveSeat(this.id, { token: this.token, side: seat.side, mode: seat.mode });
      this.side = seat.side;
      this.mode = seat.mode;
      return null;
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.status === 404) throw err;
      if (err.status === 401 || err.status === 403) return this.refuseSeat(err, false);
      return null; // unchecked: the server will say when acting
    }
  }

  /**
   * The server refused this board's seat token: the link's (this browser's seat, if any, stays)
   * or the one this browser kept (forgotten). Returns what to tell the player.
   * @param {ApiError} err @param {boolean} fromLink
   * @returns {{kind: 'warn', title: string, body: string}}
   */
  refuseSeat(err, fromLink) {
    const kept = loadSeat(this.id);
    const keep = fromLink && kept && kept.token !== this.offered?.token ? kept : null;
    if (!fromLink || kept?.token === this.offered?.token) forgetSeat(this.id);
    this.token = keep ? keep.token : null;
    this.side = keep ? keep.side || null : null;
    this.mode = keep ? keep.mode || null : null;
    const what = fromLink ? 'This seat link is wrong or out of date' : 'The seat this browser kept for this game was refused';
    const then = keep ? `You keep this browser's own seat (${sideName(keep.side || '')}).` : 'You are watching this game as a spectator; ask for a new link to play.';
    this.seatNote = keep ? null : `${what}: ${err.why}.`;
    return { kind: 'warn', title: what, body: `The server refused its token: ${err.why.replace(/\.?$/, '.')} ${then}` };
  }

  /** This seat's link, absolute: the server's own address when it gave one, else this page's. */
  seatLink() {
    if (!this.token) return null;
    const kept = loadSeat(this.id);
    const url = kept?.token === this.token ? kept.url : undefined;
    return absoluteLink(seatPath(this.id, this.token, this.side), url);
  }

  // ================================================================ DOM skeleton

  buildDom() {
    const tb = (/** @type {string} */ label, /** @type {string} */ ic, /** @type {() => void} */ fn, /** @type {string} */ title, extra = {}) =>
      h('button', { class: 'tool', type: 'button', 'aria-label': label, title, onclick: fn, ...extra }, h('span', { class: 'tool-icon' }, icon(ic)), h('span', { class: 'tool-label' }, label));
    this.undoBtn = /** @type {HTMLButtonElement} */ (tb('Undo', 'undo', () => this.undo(), 'Take back the last action (Ctrl+Z)'));
    this.replayBtn = tb('Replay', 'replay', () => this.toggleReplay(), 'Step through the game so far; branch a what-if game from any point');
    const exportBtn = tb('Export', 'export', () => this.exportRecord(), 'Download the game record (JSON)');
    const rulesBtn = tb('Rules', 'rules', () => rules().open(), 'The rules reference (R)');
    this.tables = new TablesDrawer(this);
    const tablesBtn = tb('Charts', 'charts', () => this.tables?.toggle(), 'The Combat Results Table and the Terrain Effects Chart (T)', { 'data-key': 'charts' });
    const helpBtn = tb('Help', 'help', () => this.help(), 'Keys and how to play (?)');
    this.trackEl = h('ol', { class: 'turn-track', 'aria-label': 'Turn track' });
    this.phaseEl = h('div', { class: 'phase', 'aria-live': 'polite' });
    this.actorEl = h('div', { class: 'actor' });
    const top = h('header', { class: 'topbar' },
      h('a', { class: 'brand', href: '#', title: 'New game / your games' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '⚑'), h('span', {}, 'Grognard')),
      h('div', { class: 'title-block' },
        h('div', { class: 'game-title', title: this.state?.title }, (this.state?.title || '').replace(/^The Battle of Nations: /, '')),
        this.trackEl),
      this.phaseEl, this.actorEl,
      h('nav', { class: 'tools', 'aria-label': 'Game tools' }, this.undoBtn, this.replayBtn, exportBtn, rulesBtn, tablesBtn, helpBtn));

    this.mapHost = h('div', { class: 'board-host' });
    const ctl = (/** @type {string} */ label, /** @type {string|Node} */ text, /** @type {() => void} */ fn, pressed = /** @type {boolean|null} */ (null)) =>
      h('button', { type: 'button', class: 'map-btn', 'aria-label': label, title: label, onclick: fn, ...(pressed === null ? {} : { 'aria-pressed': String(pressed) }) }, text);
    this.numBtn = ctl('Hex numbers (H)', '#', () => this.toggle('numbers'), this.prefs.numbers);
    this.zocBtn = ctl('Enemy zones of control (Z), as the server computes them', 'ZOC', () => this.toggle('zoc'), this.prefs.zoc);
    this.namesBtn = ctl('Place names (P)', 'Aa', () => this.toggle('names'), this.prefs.names);
    this.legendBtn = ctl('Legend (L)', 'Key', () => this.toggle('legend'), this.prefs.legend);
    const controls = h('div', { class: 'map-controls', role: 'toolbar', 'aria-label': 'Map view' },
      ctl('Zoom in (+)', icon('plus'), () => this.board?.zoom(1.25)),
      ctl('Zoom out (−)', icon('minus'), () => this.board?.zoom(0.8)),
      ctl('Fit the map to the screen (0)', icon('fit'), () => this.board?.fit()),
      h('span', { class: 'sep', 'aria-hidden': 'true' }),
      this.numBtn, this.zocBtn, this.namesBtn, this.legendBtn);
    this.infoBar = h('div', { class: 'hex-info', 'aria-hidden': 'true' });
    const map = /** @type {import('./api.js').MapView} */ (this.map);
    this.legendEl = legend(styles(map.legend), new Set(map.terrain.flat()), new Set(map.hexsides.flatMap((x) => x.features)), this.system);
    this.legendEl.hidden = !this.prefs.legend;
    this.replayBar = h('div', { class: 'replay-bar', hidden: true, role: 'region', 'aria-label': 'Replay' });
    this.banner = h('div', { class: 'outcome-banner', hidden: true, role: 'status' });
    this.takebackEl = h('div', { class: 'takeback-bar', hidden: true, role: 'status', 'aria-live': 'polite' });
    this.limitEl = h('div', { class: 'limit-bar', hidden: true, role: 'status' });
    const mapSection = h('section', { class: 'map-area', id: 'main', 'aria-label': 'Map' }, this.mapHost, controls, this.replayBar, this.legendEl, this.infoBar, this.banner, this.takebackEl, this.limitEl);

    this.side_ = h('aside', { class: 'sidebar', 'aria-label': 'Orders and information' });
    // on a phone, the step and its end-phase button within thumb reach (a bar at the bottom)
    this.phoneBar = h('div', { class: 'phone-bar', role: 'toolbar', 'aria-label': 'Quick orders' });
    fill(this.root, h('div', { class: 'game' }, top, h('div', { class: 'game-body' }, mapSection, this.side_), this.phoneBar));
  }

  /** @param {'numbers'|'zoc'|'names'|'legend'} k */
  toggle(k) {
    this.prefs[k] = !this.prefs[k];
    this.savePrefs();
    this.numBtn?.setAttribute('aria-pressed', String(this.prefs.numbers));
    this.zocBtn?.setAttribute('aria-pressed', String(this.prefs.zoc));
    this.namesBtn?.setAttribute('aria-pressed', String(this.prefs.names));
    this.legendBtn?.setAttribute('aria-pressed', String(this.prefs.legend));
    this.board?.setHexNumbers(this.prefs.numbers);
    this.board?.setPlaceNames(this.prefs.names);
    if (this.legendEl) this.legendEl.hidden = !this.prefs.legend;
    if (k === 'zoc' && this.prefs.zoc && !this.v.overlays?.zoc) toast({ kind: 'info', title: 'No zones of control to show', body: 'The server sends none for this game.', timeout: 4000 });
    this.renderBoard();
  }

  savePrefs() {
    try { localStorage.setItem(PREFS, JSON.stringify(this.prefs)); } catch { /* ignore */ }
  }

  // ================================================================ state helpers

  /** @returns {StateView} */
  get v() {
    return /** @type {StateView} */ (this.store.view);
  }

  /** True when this browser may act now (live view, a seat, and its side to act). */
  canAct() {
    const v = this.v;
    if (this.store.replayN !== null || !this.token || !v || v.outcome) return false;
    if (v.to_act === 'chance' || v.to_act === 'over') return false;
    if (this.side && this.side !== 'both' && this.side !== v.to_act) return false;
    return true;
  }

  /** The side whose point of view the overlays take. */
  viewer() {
    const v = this.v;
    if (this.side && this.side !== 'both') return this.side;
    if (v.to_act !== 'chance' && v.to_act !== 'over') return v.to_act;
    return v.phasing;
  }

  /** @param {string} hex */
  terrainOf(hex) {
    const t = this.board?.terrain.get(hex);
    return t ? this.board?.styles.terrain.get(t)?.name.toLowerCase() || t : '?';
  }

  /** @param {string} hex */
  placeOf(hex) {
    return this.board?.places.get(hex) || null;
  }

  /** @param {Unit} u */
  unitText(u) {
    return u.hidden ? `a hidden ${u.side} unit` : this.system.unitName(u);
  }

  /** @param {string} hex */
  describeHex(hex) {
    const ctl = this.ctl;
    const parts = [`Hex ${hex}`, this.terrainOf(hex)];
    const place = this.placeOf(hex);
    if (place) parts.push(place);
    const units = this.board?.unitsIn(hex) || [];
    for (const u of units) parts.push(this.unitText(u) + (u.moved ? ', moved' : '') + (u.in_combat ? ', in combat' : ''));
    const d = ctl.moves?.dests.get(hex);
    if (d) parts.push(`destination of ${ctl.moves?.unit}${d.cost === null ? '' : `, ${mp(d.cost)} MP`}`);
    const sel = ctl.selected;
    if (sel && ctl.L.retreats.get(sel)?.get(hex)) parts.push(`retreat hex for ${sel}`);
    if (sel && ctl.L.advances.get(sel)?.get(hex)) parts.push(`advance hex for ${sel}`);
    for (const u of units) {
      if (sel && ctl.L.attacks.get(sel)?.has(u.id)) parts.push(`${sel} may attack ${u.id}`);
      const ob = this.v.obligations.find((o) => o.unit === u.id);
      if (ob) parts.push(`${ob.case}: ${u.id} ${this.system.obligationLabel(ob.case)}`);
    }
    return parts.join(' · ');
  }

  // ================================================================ rendering

  render() {
    if (!this.store.view || !this.board) return;
    if (this.confirming && (this.confirming.n !== this.v.actions_recorded || !this.canAct())) this.confirming = null;
    this.ctl.update(this.v, this.canAct());
    this.renderTop();
    this.renderSidebar();
    this.renderBoard();
    renderBanner(this);
  }

  /**
   * The phone's bottom bar: where the game stands and the end of the step within thumb reach
   * (shown on narrow screens only, by the style sheet).
   */
  renderPhoneBar() {
    const bar = this.phoneBar;
    if (!bar || !this.store.view) return;
    const v = this.v;
    const can = this.canAct();
    const end = can ? this.ctl.L.end : null;
    const label = v.step === 'movement' ? `End ${v.phasing} movement` : v.step === 'declare' ? (v.combats.length ? 'Done declaring' : 'End: no attack') : 'End';
    const active = /** @type {HTMLElement|null} */ (document.activeElement);
    const had = !!active && bar.contains(active) && bar.dataset.n === String(v.actions_recorded);
    bar.dataset.n = String(v.actions_recorded);
    fill(bar,
      h('span', { class: 'phone-status' }, v.outcome ? 'Game over' : can ? `${v.to_act}: ${this.system.stepName(v.step)}` : this.thinking() ? `${this.computerSide() || 'The computer'} is thinking…` : `${v.to_act} to act`),
      end ? h('button', { type: 'button', class: 'btn btn-primary btn-end phone-end', 'data-key': 'bar:end', title: end, onclick: () => this.act(end) }, label) : null);
    if (had) /** @type {HTMLElement|null} */ (bar.querySelector('.phone-end'))?.focus({ preventScroll: true });
  }

  /** The computer's side in a game against it: the side this seat does not play. */
  computerSide() {
    if (this.mode !== 'computer' || !this.side || this.side === 'both') return null;
    const v = this.v;
    const sides = [...new Set([...(v?.demoralization || []).map((d) => d.side), ...(v?.units || []).map((u) => u.side)])];
    return sides.find((s) => s && s !== this.side) || null;
  }

  /**
   * True while the computer is thinking: from the moment this seat's `end` goes out (the reply
   * comes once the computer has played) or the state hands it the turn, until its change arrives.
   */
  thinking() {
    if (this.mode !== 'computer' || !this.side || this.side === 'both' || this.store.replayN !== null) return false;
    const v = this.state;
    if (!v || v.outcome) return false;
    if (this.pending && parseAction(this.pending).kind === 'end') return true;
    return v.to_act !== this.side && v.to_act !== 'chance' && v.to_act !== 'over';
  }

  /** Puts the "what changed" summary away. */
  dismissSummary() {
    this.summary = null;
    this.renderSidebar();
    /** @type {HTMLElement|null} */ (this.side_?.querySelector('[data-key="orders-status"]'))?.focus({ preventScroll: true });
  }

  renderTop() {
    if (this.store.view) {
      renderTop(this);
      this.renderPhoneBar();
    }
  }

  renderSidebar() {
    if (this.side_ && this.store.view) renderSidebar(this, this.side_);
    this.tables?.render();
  }

  /** The selected unit's range, as the server computed it (overlays.range), if any. */
  selectedRange() {
    const sel = this.ctl.selected;
    return this.store.overlay('range', { unit: sel }) ?? (sel ? this.system.unitRange?.(this.v, sel) ?? null : null);
  }

  renderBoard() {
    const b = this.board;
    if (!b) return;
    const v = this.v;
    const ctl = this.ctl;
    const byId = this.store.unitsById();
    const obligations = new Map(v.obligations.map((o) => [o.unit, o.case]));
    b.setUnits(v.units, { selected: ctl.selected, obligations, actable: ctl.actable(v), flash: this.flash, slide: this.slide });
    this.flash = new Set();
    this.slide = new Map();
    b.showSight(this.system.mapShade?.(v) ?? null);
    b.showLastMoves(this.store.replayN === null ? this.lastMoves : []);
    b.showRoutes(this.system.mapRoutes?.(v) ?? []);
    b.showReinforcements(arrivals(v));
    const movesNow = ctl.moves && ctl.moves.unit === ctl.selected && v.step === 'movement' && this.canAct();
    const selUnit = ctl.selected ? byId.get(ctl.selected) : undefined;
    b.showDestinations(movesNow && ctl.moves ? ctl.moves.list : null, selUnit?.hex || null);
    const cands = ctl.candidates(v, byId);
    b.showCandidates(cands.size ? cands : null);
    b.showCombats(v.combats, byId, ctl.focusCombat);
    b.showZoc(this.prefs.zoc ? this.store.overlay('zoc', { viewer: this.viewer() }) : null);
    b.showRange(this.selectedRange());
    b.showFacings(this.canAct() ? ctl.facingChoices(v) : null);
    this.onHover(this.hover);
  }

  /**
   * The range of a leader in a hex (as the server computed it: `overlays.range`), shown while the
   * pointer rests on him and nothing is selected.
   * @param {string|null} hex
   */
  hoverRange(hex) {
    if (!hex || this.ctl.selected) return null;
    for (const u of this.board?.unitsIn(hex) || []) {
      const r = u.type === 'leader' ? this.store.overlay('range', { unit: u.id }) ?? this.system.unitRange?.(this.v, u.id) ?? null : null;
      if (r) return r;
    }
    return null;
  }

  /**
   * Shows an action with its preview (`GET /api/games/{id}/preview`) in the orders, to be
   * confirmed or put away: an attack of one hex on another, whose die follows at once.
   * @param {string} action
   */
  async confirm(action) {
    const n = this.v.actions_recorded;
    this.confirming = { action, n, preview: null };
    this.renderSidebar();
    announce(`${action}: the odds are being asked for. Confirm to send it.`);
    const got = await fetchPreview(this, action);
    if (this.confirming?.action !== action || this.confirming.n !== n) return;
    this.confirming.preview = got;
    this.renderSidebar();
    /** @type {HTMLElement|null} */ (this.side_?.querySelector('[data-key="confirm-go"]'))?.focus({ preventScroll: true });
  }

  /** Puts away the action shown for confirmation. */
  cancelConfirm() {
    this.confirming = null;
    this.renderSidebar();
  }

  // ================================================================ interaction

  /**
   * Selects a unit (null: none). The controller decides what a click on the selected unit means
   * (in a retreat or an advance it stays selected: it is the unit to place).
   * @param {string|null} id @param {boolean} [centre]
   */
  async selectUnit(id, centre = false) {
    const ctl = this.ctl;
    ctl.selected = id;
    ctl.moves = null;
    const v = this.v;
    const u = id ? v.units.find((x) => x.id === id) : null;
    if (u?.hex && centre && this.board) {
      // from a list: bring the unit into view, close enough to read its counter
      if (this.board.view.k < 0.75) this.board.centreOn(u.hex, 0.95);
      else this.board.ensureVisible(u.hex);
    }
    if (u?.hex) this.board?.setCursor(u.hex, !!this.board?.keyboard && document.activeElement === this.board?.svg);
    this.renderBoard();
    this.renderSidebar();
    if (u) announce(`Selected ${this.unitText(u)}${u.hex ? ` in ${u.hex}` : ''}.`);
    if (id && u && !u.hidden && v.step === 'movement' && this.canAct() && u.side === v.to_act) {
      const seq = ++this.movesSeq;
      try {
        const m = await api.moves(this.id, id, this.token);
        if (seq !== this.movesSeq || ctl.selected !== id) return;
        ctl.moves = { unit: id, list: m.destinations || [], dests: new Map((m.destinations || []).map((d) => [d.hex, d])), why_not: m.why_not };
        if (ctl.moves.list.length) announce(`${id}: ${plural(ctl.moves.list.length, 'legal destination')}.`);
        else if (m.why_not) announce(`${id} cannot move: ${m.why_not.case}: ${m.why_not.why}`);
        this.renderBoard();
        this.renderSidebar();
      } catch (e) {
        if (e instanceof ApiError && e.status === 404 && /no query/.test(e.why)) {
          // a rules system without the moves query: the hexes its legal moves of the unit name
          if (seq !== this.movesSeq || ctl.selected !== id) return;
          const list = [...(ctl.L.moves.get(id)?.keys() || [])].map((hex) => ({ hex, cost: 0, path: [hex] }));
          ctl.moves = { unit: id, list, dests: new Map(list.map((d) => [d.hex, d])), why_not: null };
          if (list.length) announce(`${id}: ${plural(list.length, 'legal destination')}.`);
          this.renderBoard();
          this.renderSidebar();
          return;
        }
        toast({ kind: 'error', title: `The moves of ${id} could not be loaded`, body: /** @type {Error} */ (e).message });
      }
    }
  }

  /** Carries out what the controller makes of the player's pointing. @param {import('./controller.js').Intent} it @returns {Promise<void>} */
  async perform(it) {
    if (it.do === 'act') return void this.act(it.action);
    if (it.do === 'confirm') return void this.confirm(it.action);
    if (it.do === 'select') return void this.selectUnit(it.unit);
    if (it.do === 'focus') {
      this.ctl.focusCombat = it.combat;
      const cardEl = /** @type {HTMLDetailsElement|null} */ (this.side_?.querySelector('.card-combats'));
      if (cardEl) cardEl.open = true;
      await this.selectUnit(it.unit);
      /** @type {HTMLElement|null} */ (this.side_?.querySelectorAll('.combat-card')[it.combat] || null)?.scrollIntoView({ block: 'nearest' });
      return;
    }
    const id = await pickUnit(it.hex, it.units, this.system, (u) => [u.hex, this.system.unitValues(u), ...(u.markers || [])].filter(Boolean).join(' · '));
    if (!id) return;
    const u = it.units.find((x) => x.id === id);
    return this.perform(this.ctl.onUnit(this.v, this.canAct(), it.hex, u, this.selectedRange()));
  }

  /** The player clicked (or pressed Enter on) a hex. @param {string} hex */
  activate(hex) {
    const units = this.board?.unitsIn(hex) || [];
    this.perform(this.ctl.onHex(this.v, this.canAct(), hex, units, this.selectedRange()));
  }

  /** @param {string|null} hex */
  onHover(hex) {
    this.hover = hex;
    const b = this.board;
    if (!b) return;
    const ctl = this.ctl;
    const d = hex && ctl.moves && ctl.moves.unit === ctl.selected ? ctl.moves.dests.get(hex) : null;
    b.showPath(d ? d.path : null);
    if (!ctl.selected) b.showRange(this.hoverRange(hex));
    const show = hex || (b.cursorVisible ? b.cursor : null);
    this.hoverCard?.show(show, !hex && !!show);
    if (this.infoBar) {
      if (show) { this.infoBar.textContent = this.describeHex(show); this.infoBar.hidden = false; }
      else this.infoBar.hidden = true;
    }
    this.mapHost?.classList.toggle('pointer', !!(hex && (b.unitAt.has(hex) || d)));
  }

  /** @param {string} hex */
  onCursor(hex) {
    this.onHover(hex);
    announce(this.describeHex(hex));
  }

  /** @param {string} unit */
  dragStart(unit) {
    const ok = this.ctl.canDrag(this.v, this.canAct(), unit);
    if (ok && this.ctl.selected !== unit) this.selectUnit(unit);
    return ok;
  }

  /** @param {string} unit @param {string} hex */
  drop(unit, hex) {
    const act = this.ctl.onDrop(this.v, unit, hex, this.board?.unitAt.get(hex));
    if (act) this.act(act);
  }

  escape() {
    if (rules().isOpen) return rules().close();
    if (this.tables?.isOpen) return this.tables.close();
    if (this.confirming) return this.cancelConfirm();
    if (this.ctl.selected) this.selectUnit(null);
  }

  help() {
    help(this.system);
  }

  /** Global keys (not while typing). @param {KeyboardEvent} e */
  onKey(e) {
    const t = /** @type {HTMLElement} */ (e.target);
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z' && !typing) { e.preventDefault(); this.undo(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    const onMap = /** @type {Element} */ (t) === this.board?.svg;
    const n = this.store.replayN;
    switch (e.key) {
      case '?': this.help(); break;
      case 'h': case 'H': this.toggle('numbers'); break;
      case 'z': case 'Z': this.toggle('zoc'); break;
      case 'p': case 'P': this.toggle('names'); break;
      case 'l': case 'L': this.toggle('legend'); break;
      case 'u': case 'U': this.board?.setCountersHidden(); break;
      case 'r': case 'R': rules().open(); break;
      case 't': case 'T': this.tables?.toggle(); break;
      case 'm': case 'M': this.board?.svg.focus(); break;
      case 'c': case 'C': e.preventDefault(); /** @type {HTMLElement|null} */ (this.side_?.querySelector('.cmd-input'))?.focus(); break;
      case 'Escape': if (!onMap) this.escape(); break;
      case '[': if (n !== null) this.replayTo(n - 1); break;
      case ']': if (n !== null) this.replayTo(n + 1); break;
      case '+': case '=': if (!onMap) this.board?.zoom(1.25); break;
      case '-': if (!onMap) this.board?.zoom(0.8); break;
      default: return;
    }
  }

  // ================================================================ server calls

  /** Sends an action. Returns true when accepted. @param {string} action */
  async act(action) {
    if (this.busy) return false;
    if (!this.token) { toast({ kind: 'warn', title: 'You have no seat in this game', body: 'Open the link of a seat to play; without one you watch.' }); return false; }
    return this.send(action, action, (expect) => api.act(this.id, action, expect, this.token),
      (r) => `Accepted: ${r.accepted.map(actionLabel).join('; ') || action}`);
  }

  /**
   * Lets the computer finish the step for this seat (a set-up's placements): the server's
   * `finish` route plays the seat's actions with the system's computer player until the step
   * or the seat to act changes. Returns true when it was done.
   */
  async finishStep() {
    if (this.busy || !this.token || !this.canAct()) return false;
    return this.send('the computer finishes the step', 'finish the step', (expect) => api.finish(this.id, expect, this.token),
      (r) => `The computer took ${r.accepted.length} actions`);
  }

  /**
   * One request that changes the game (an action, the computer finishing a step): the board
   * busy meanwhile, the header saying at once what follows (the computer thinking, when it
   * ends the turn), a refusal explained, the change applied (or the state fetched). Returns
   * true when the server accepted it.
   * @param {string} pending what the header shows while it goes
   * @param {string} what what a refusal names
   * @param {(expect: number|undefined) => Promise<any>} request
   * @param {(r: any) => string} title the notice's title if the state cannot be fetched
   */
  async send(pending, what, request, title) {
    this.busy = true;
    this.pending = pending;
    document.body.classList.add('busy');
    this.renderTop();
    const expect = this.state?.actions_recorded;
    try {
      let r;
      try {
        r = await request(expect);
      } catch (e) {
        await this.refused(/** @type {ApiError} */ (e), what);
        return false;
      }
      let s = r.state || applyChange(this.state, r.change);
      if (!s) {
        try {
          s = await api.state(this.id, this.token);
        } catch (e) {
          this.outOfDate(/** @type {Error} */ (e), title(r));
          return true;
        }
      }
      this.afterChange(s, r.events, r.accepted);
      return true;
    } finally {
      this.busy = false;
      this.pending = null;
      document.body.classList.remove('busy');
      if (this.view) this.renderTop();
      this.catchUp();
    }
  }

  /**
   * The board could not fetch the game as it stands: says so, with a way to reload it (the
   * WebSocket's next change brings it too).
   * @param {Error} e @param {string} [title]
   */
  outOfDate(e, title = 'The board may be out of date') {
    const again = h('button', { type: 'button', class: 'btn', onclick: () => { again.remove(); this.refresh(); } }, 'Reload the game');
    toast({ kind: 'warn', title, body: [`The game could not be reloaded: ${e.message}. `, again], timeout: 0 });
  }

  /** A change told by the WebSocket while this board waited for its own reply: fetched now if
   *  the board does not show it yet. */
  catchUp() {
    const m = this.missed;
    this.missed = null;
    if (!m || this.busy || this.closed) return;
    const cur = this.state;
    if (cur && cur.actions_recorded === m.n && cur.state_hash === m.hash) return;
    this.resync();
  }

  /** Fetches the state view and shows it as a change another client made. */
  async resync() {
    let s;
    try {
      s = await api.state(this.id, this.token);
    } catch (e) {
      this.outOfDate(/** @type {Error} */ (e));
      return;
    }
    if (this.busy) { this.missed = { n: -1, hash: '' }; return; }
    const cur = this.state;
    if (cur && cur.actions_recorded === s.actions_recorded && cur.state_hash === s.state_hash) return;
    const prevN = cur?.actions_recorded || 0;
    const fresh = s.log.filter((e) => e.n > prevN);
    this.afterChange(s, fresh.flatMap((e) => e.events), fresh.map((e) => e.action || ''));
    if (this.store.replayN !== null) this.renderReplayBar();
    this.renderTakeback();
  }

  /** Shows the server's "slow down" and counts down to the moment the board may send again. */
  renderLimit() {
    const el = this.limitEl;
    if (!el) return;
    clearInterval(this.limitTimer);
    const tick = () => {
      const left = waitLeft();
      if (left <= 0) {
        clearInterval(this.limitTimer);
        if (!el.hidden) announce('You can act again.');
        el.hidden = true;
        fill(el);
        return;
      }
      el.hidden = false;
      fill(el, h('span', { class: 'limit-title' }, 'The server asks you to slow down'),
        h('span', {}, `${limit.why.replace(/\.?$/, '.')} You can act again in ${plural(left, 'second')}.`));
    };
    tick();
    if (waitLeft() > 0) this.limitTimer = setInterval(tick, 1000);
  }

  /**
   * Says why the server did not take an action (or an undo): a rule's refusal with its case; a
   * conflict (the game moved on: another player, or another server, changed it first) reloads
   * the game; a "slow down" (429) says when the board may send again.
   * @param {ApiError} e @param {string} action
   */
  async refused(e, action) {
    if (e.status === 409) {
      const before = this.state;
      await this.refresh();
      const now = this.state;
      const moved = !!before && !!now && (now.actions_recorded !== before.actions_recorded || now.state_hash !== before.state_hash);
      toast({ kind: 'warn', title: moved ? 'The game moved on' : 'Not your turn', body: moved ? `${e.why}. The board shows the game as it stands now.` : e.why });
      announce(moved ? 'The game moved on: the board shows it as it stands now.' : `Not your turn: ${e.why}`);
      return;
    }
    if (e.status === 429) {
      const wait = e.retryAfter || waitLeft();
      toast({ kind: 'warn', title: `Not sent: ${action}`, body: `The server asks you to slow down: ${e.why.replace(/\.?$/, '.')}${wait ? ` Try again in ${plural(wait, 'second')}.` : ''}` });
      announce(`Not sent. The server asks you to slow down: ${e.why}`);
      this.renderLimit();
      return;
    }
    if (e.status === 401) {
      toast({ kind: 'error', title: 'Your seat token was refused', body: e.why });
      return;
    }
    if (e.status === 0) {
      toast({ kind: 'error', title: `Not sent: ${action}`, body: `${e.why}. Check the connection and try again.` });
      announce(`Not sent: ${e.why}`);
      return;
    }
    const kind = e.status === 422 ? 'Refused' : e.status === 400 ? 'Not understood' : e.status === 403 ? 'Not allowed' : 'Error';
    toast({ kind: 'error', title: `${kind}: ${action}`, body: e.why, case: e.case && e.case !== 'action' ? e.case : undefined });
    announce(`${kind}: ${e.case ? e.case + ': ' : ''}${e.why}`);
  }

  /**
   * @param {StateView} state @param {import('./api.js').GameEvent[]} events @param {string[]} accepted
   */
  afterChange(state, events, accepted) {
    const prev = this.state;
    // the moves the other side (or the computer) made: marked and slid on the map; this board's
    // own action (the first accepted, while it waits for its reply) is not one of them
    const own = this.busy && accepted[0] ? unitsNamed(accepted[0], state) : new Set();
    const moved = movesBetween(prev, state, own);
    if (moved.length) {
      this.lastMoves = moved;
      this.slide = new Map(moved.map((m) => [m.unit, m.from]));
    } else if (own.size && movesBetween(prev, state).length) this.lastMoves = [];
    // what moved, to flash
    if (prev) {
      const before = new Map(prev.units.map((u) => [u.id, u]));
      for (const u of state.units) {
        const b = before.get(u.id);
        if (b && (b.hex !== u.hex || b.status !== u.status)) this.flash.add(u.id);
      }
    }
    const ctl = this.ctl;
    const kinds = accepted.map((a) => parseAction(a).kind);
    // a unit that moved, or a declaration made (by its attacker or its target), is done with:
    // a later click must not declare an attack the player did not mean
    if (ctl.selected && (kinds.includes('move') || kinds.includes('attack'))) ctl.selected = null;
    if (ctl.selected && !state.legal.some((a) => a.includes(/** @type {string} */ (ctl.selected)))) {
      if (state.step !== 'movement') ctl.selected = null;
    }
    ctl.moves = null;
    ctl.focusCombat = null;
    this.system = systemFor(state.system);
    this.noteChanges(prev, state);
    this.store.setLive(state);
    if (ctl.selected && state.step === 'movement' && this.canAct()) this.selectUnit(ctl.selected);
    this.showEvents(events, accepted);
    if (accepted.length) announce(`Accepted: ${accepted.map(actionLabel).join('; ')}. ${state.to_act === 'over' ? '' : `${state.to_act} to act.`}`);
  }

  /**
   * What a new position changed for the panels: the rules system's notes (such as an army's
   * losses) for the events panel; and, when the turn comes back to this seat after the other
   * side (the opponent, the computer) played, the summary of what it did.
   * @param {StateView|null} prev @param {StateView} state
   */
  noteChanges(prev, state) {
    if (!prev) return;
    if (state.actions_recorded < prev.actions_recorded) {
      // a take-back: what it undid goes from the notes and the summary
      this.notes = this.notes.filter((x) => x.n <= state.actions_recorded);
      if (this.summary && this.summary.to > state.actions_recorded) this.summary = null;
      if (this.awaySince !== null && this.awaySince > state.actions_recorded) this.awaySince = null;
      return;
    }
    const extra = this.system.changeNotes ? this.system.changeNotes(prev, state) : [];
    if (extra.length) this.notes.push({ n: state.actions_recorded, events: extra });
    if (!this.side || this.side === 'both') return;
    const since = this.awaySince ?? prev.actions_recorded;
    const back = state.to_act === this.side || !!state.outcome;
    if (!back) {
      if (this.awaySince === null) this.awaySince = prev.actions_recorded;
      return;
    }
    this.awaySince = null;
    const s = summarize(this, state.log.filter((e) => e.n > since));
    if (!s) return;
    this.summary = s;
    const cardEl = /** @type {HTMLDetailsElement|null} */ (this.side_?.querySelector('.card-changed'));
    if (cardEl) cardEl.open = true;
    announce(`Your turn. ${summaryLine(s)}.`);
  }

  /**
   * A brief notice of what an action brought (the die and the result, the computer's turn): the
   * events panel, the log and the "what changed" card keep the whole of it.
   * @param {import('./api.js').GameEvent[]} events @param {string[]} accepted
   */
  showEvents(events, accepted) {
    const rolls = accepted.map((a) => a.match(/^roll (\d)/i)).filter((m) => !!m);
    const computer = events.filter((e) => e.case === 'computer');
    const rest = events.filter((e) => e.text && e.case !== 'computer');
    const result = rest.find((e) => this.system.isCombatEvent(e));
    if (computer.length) {
      const who = this.computerSide() || 'The computer';
      toast({
        kind: 'info',
        title: `${who} (computer) played ${plural(computer.length, 'action')}`,
        body: [...(this.summary ? [h('div', { class: 'ev' }, summaryLine(this.summary), '.')] : []),
          h('div', { class: 'ev small muted' }, 'What changed, its plan and the results are in the side panel.')],
        timeout: 5000,
      });
      return;
    }
    const die = typeof result?.die === 'number' ? result.die : rolls.length ? Number(/** @type {RegExpMatchArray} */ (rolls[rolls.length - 1])[1]) : undefined;
    if (!rest.length && !die) return;
    if (rest.length === 1 && !result && !die) {
      toast({ kind: 'info', title: rest[0].text, case: rest[0].case, timeout: 4000 });
      return;
    }
    toast({
      kind: result ? 'result' : 'info',
      title: result ? 'Combat result' : die ? `The die shows ${die}` : `${plural(rest.length, 'event')}: see the Events panel`,
      die,
      body: result ? [h('div', { class: 'ev' }, result.case ? caseLink(result.case) : null, ' ', result.text)] : undefined,
      timeout: 5000,
    });
  }

  async refresh() {
    try {
      this.store.setLive(await api.state(this.id, this.token));
    } catch (e) {
      this.outOfDate(/** @type {Error} */ (e));
    }
  }

  async undo() {
    if (!this.token || this.busy || this.store.replayN !== null) return;
    // with nothing to take back the server still answers: its refusal names the rules' case and
    // reason (the take-back limit is the rules system's, not the board's)
    this.busy = true;
    try {
      const r = await api.undo(this.id, this.token);
      if (r.requested) {
        this.takeback = r.requested;
        this.renderTakeback();
        this.askToast?.remove();
        this.askToast = toast({ kind: 'info', title: 'Take-back asked', body: `Your opponent must consent before ${r.requested.actions.map(actionLabel).join(', ')} is taken back (5.14).`, timeout: 5000 }) || null;
        announce('Take-back asked: waiting for your opponent');
        return;
      }
      const s = (r.state ? normalizeState(r.state) : applyChange(this.state, r.change)) || await this.fetchOrSay(`Took back: ${r.undone}`);
      if (!s) return;
      this.ctl.selected = null;
      this.ctl.moves = null;
      this.store.setLive(s);
      toast({ kind: 'info', title: `Took back: ${r.undone}`, timeout: 4000 });
      announce(`Took back ${r.undone}`);
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.status === 409 || err.status === 429 || err.status === 0) { await this.refused(err, 'undo'); return; }
      toast({ kind: 'error', title: 'Cannot take back', body: err.why, case: err.case });
    } finally {
      this.busy = false;
      this.renderTop();
      this.catchUp();
    }
  }

  /** Shows the pending take-back: the opponent may accept or decline, the asker withdraw. */
  renderTakeback() {
    const el = this.takebackEl;
    if (!el) return;
    const t = this.takeback;
    if (!t || (this.state && t.actions_recorded !== this.state.actions_recorded)) { el.hidden = true; fill(el); return; }
    el.hidden = false;
    const mine = !!this.side && this.side === t.by;
    const what = t.actions.map(actionLabel).join(', ');
    if (mine) {
      fill(el, h('span', {}, `Waiting for your opponent to let you take back ${what} `, caseLink('5.14')),
        h('button', { type: 'button', class: 'btn', 'data-key': 'takeback-withdraw', onclick: () => this.answerTakeback(false) }, 'Withdraw'));
    } else if (this.token) {
      fill(el, h('span', {}, `${t.by} asks to take back ${what} `, caseLink('5.14')),
        h('button', { type: 'button', class: 'btn btn-primary', 'data-key': 'takeback-accept', onclick: () => this.answerTakeback(true) }, 'Allow'),
        h('button', { type: 'button', class: 'btn', 'data-key': 'takeback-decline', onclick: () => this.answerTakeback(false) }, 'Decline'));
    } else {
      fill(el, h('span', {}, `${t.by} asks to take back ${what}.`));
    }
  }

  /** Accepts or declines the opponent's take-back (or withdraws one's own). @param {boolean} accept */
  async answerTakeback(accept) {
    if (!this.token || this.busy) return;
    this.busy = true;
    try {
      const r = await api.takeback(this.id, accept, this.token);
      this.takeback = null;
      this.renderTakeback();
      if (r.change) {
        const s = applyChange(this.state, r.change) || await this.fetchOrSay(`Took back: ${r.undone}`);
        if (!s) return;
        this.ctl.selected = null;
        this.ctl.moves = null;
        this.store.setLive(s);
        toast({ kind: 'info', title: `Took back: ${r.undone}`, timeout: 4000 });
      } else {
        toast({ kind: 'info', title: r.takeback === 'withdrawn' ? 'Take-back withdrawn' : 'Take-back declined', timeout: 4000 });
      }
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.status === 429 || err.status === 0) {
        // not sent, or not taken: the request still waits for an answer
        await this.refused(err, accept ? 'allow the take-back' : 'decline the take-back');
        return;
      }
      toast({ kind: 'error', title: 'Cannot take back', body: err.why, case: err.case });
      if (err.status === 409) {
        // nothing pending any more, or the game moved on: show what is
        await this.refresh();
        try { this.takeback = (await api.pendingTakeback(this.id, this.token)).takeback; } catch { this.takeback = null; }
      } else {
        this.takeback = null;
      }
      this.renderTakeback();
    } finally {
      this.busy = false;
      this.renderTop();
      this.catchUp();
    }
  }

  /**
   * The state view, fetched after a reply the board could not apply; null (and said, with a way
   * to reload) when it cannot be fetched.
   * @param {string} title what was done
   * @returns {Promise<StateView|null>}
   */
  async fetchOrSay(title) {
    try {
      return await api.state(this.id, this.token);
    } catch (e) {
      this.outOfDate(/** @type {Error} */ (e), title);
      return null;
    }
  }

  async exportRecord() {
    try {
      // the record's text as the server wrote it: its seed may be a 64-bit number, which a
      // JavaScript number would round
      const text = await api.recordText(this.id, this.token);
      const blob = new Blob([text.endsWith('\n') ? text : text + '\n'], { type: 'application/json' });
      const a = h('a', { href: URL.createObjectURL(blob), download: `grognard-${this.id}-${this.state?.actions_recorded ?? 0}.json` });
      document.body.append(a);
      /** @type {HTMLAnchorElement} */ (a).click();
      setTimeout(() => { URL.revokeObjectURL(/** @type {HTMLAnchorElement} */ (a).href); a.remove(); }, 1000);
      toast({ kind: 'info', title: 'Game record downloaded', timeout: 3000 });
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) {
        // hidden information: the record names every seat's actions, so it waits for the end
        toast({ kind: 'info', title: 'The record is not available yet', body: 'This game hides what each side does: its record is given out when the game is over.', timeout: 8000 });
        return;
      }
      toast({ kind: 'error', title: 'The record could not be exported', body: /** @type {Error} */ (e).message });
    }
  }

  // ---------------------------------------------------------------- replay

  toggleReplay() {
    if (this.store.replayN === null) {
      this.ctl.selected = null;
      this.ctl.moves = null;
      if (this.banner) this.banner.hidden = true;
      this.store.showReplay(this.state?.actions_recorded || 0);
      this.renderReplayBar();
    } else {
      if (this.replayBar) this.replayBar.hidden = true;
      this.store.showReplay(null);
    }
  }

  /** @param {number} n */
  async replayTo(n) {
    const max = this.state?.actions_recorded || 0;
    n = Math.max(0, Math.min(max, n));
    this.store.replayN = n;
    this.renderReplayBar();
    this.loadReplay();
  }

  loadReplay = debounce(async () => {
    const n = this.store.replayN;
    if (n === null) return;
    try {
      const s = n === this.state?.actions_recorded ? this.state : await api.replay(this.id, n, this.token);
      if (this.store.replayN !== n) return;
      this.store.showReplay(n, s);
      this.renderReplayBar();
    } catch (e) {
      toast({ kind: 'error', title: `Position ${n} could not be loaded`, body: /** @type {Error} */ (e).message });
    }
  }, 120);

  renderReplayBar() {
    const bar = this.replayBar;
    if (!bar || this.store.replayN === null) return;
    bar.hidden = false;
    const max = this.state?.actions_recorded || 0;
    const n = this.store.replayN;
    const entry = this.state?.log.find((e) => e.n === n);
    const slider = /** @type {HTMLInputElement} */ (h('input', { type: 'range', min: 0, max, value: n, 'aria-label': 'Position in the game (actions taken)', class: 'replay-slider' }));
    slider.addEventListener('input', () => this.replayTo(Number(slider.value)));
    const btn = (/** @type {string} */ label, /** @type {string} */ ic, /** @type {() => void} */ fn, disabled = false) => h('button', { type: 'button', class: 'map-btn', 'aria-label': label, title: label, onclick: fn, disabled }, icon(ic));
    fill(bar,
      h('span', { class: 'replay-label' }, 'Replay'),
      btn('To the start', 'first', () => this.replayTo(0), n === 0),
      btn('Back one action ([)', 'prev', () => this.replayTo(n - 1), n === 0),
      slider,
      btn('Forward one action (])', 'next', () => this.replayTo(n + 1), n >= max),
      btn('To the end', 'last', () => this.replayTo(max), n >= max),
      h('span', { class: 'replay-pos' }, `${n} / ${max}`, entry && entry.n > 0 && entry.action != null ? h('code', {}, ` ${entry.side === 'chance' ? 'die' : entry.side}: ${actionLabel(entry.action)}`) : null),
      h('button', { type: 'button', class: 'btn', onclick: () => this.branch(n), title: 'Start a new hot-seat game from this position (what-if play)' }, icon('branch'), 'Branch from here'),
      h('button', { type: 'button', class: 'btn btn-primary', onclick: () => this.toggleReplay() }, 'Back to the game'));
    if (document.activeElement?.classList.contains('replay-slider')) /** @type {HTMLElement} */ (bar.querySelector('.replay-slider')).focus();
  }

  /** @param {number} n */
  async branch(n) {
    try {
      const g = await api.branch(this.id, n, this.token);
      const token = g.seats.both || Object.values(g.seats)[0];
      saveSeat(g.id, { token, side: 'both', mode: 'hotseat', title: `${this.state?.title} (branch at ${n})` });
      toast({ kind: 'info', title: `A what-if game from action ${n}`, body: 'The new game opens; the original stays as it was.' });
      location.hash = `game=${encodeURIComponent(g.id)}`;
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      toast({ kind: 'error', title: 'Could not branch', body: err.why || err.message, case: err.case });
    }
  }

  // ---------------------------------------------------------------- live updates

  connect() {
    if (this.closed || typeof WebSocket === 'undefined') return;
    let ws;
    try {
      ws = new WebSocket(wsUrl(this.id, this.token));
    } catch {
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => { this.wsRetry = 0; });
    ws.addEventListener('message', (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch { return; }
      if (msg.type === 'takeback') {
        const was = this.takeback;
        this.takeback = msg.takeback || null;
        this.renderTakeback();
        if (!msg.takeback && was && this.side === was.by) {
          // the answer to this seat's request: the waiting notice goes, the answer is said
          this.askToast?.remove();
          this.askToast = null;
          const what = was.actions.map(actionLabel).join(', ');
          if (msg.why === 'declined') toast({ kind: 'warn', title: 'Take-back declined', body: 'Your opponent declined: the move stands.', timeout: 6000 });
          else if (msg.why === 'accepted') {
            toast({ kind: 'info', title: 'Take-back allowed', body: `Your opponent allowed it: ${what} taken back (5.14).`, timeout: 6000 });
            announce(`Take-back allowed: ${what} taken back.`);
          }
        }
        return;
      }
      if (msg.type === 'change' && msg.change) {
        this.onChange(msg.change, msg.events || []);
        return;
      }
      if (msg.type !== 'state' || !msg.state) return;
      // a whole state view: on connect, when this watcher fell behind, or after a change made
      // through another server: it replaces the board's state
      if ('takeback' in msg) { this.takeback = msg.takeback || null; }
      {
        const s = normalizeState(msg.state);
        const cur = this.state;
        if (cur && s.state_hash === cur.state_hash && s.actions_recorded === cur.actions_recorded) { this.renderTakeback(); return; }
        // waiting for a reply of our own: compared with it (and fetched if it differs) once it is in
        if (this.busy) { this.missed = { n: s.actions_recorded, hash: s.state_hash }; return; }
        const prevN = cur?.actions_recorded || 0;
        const newEntries = s.log.filter((e) => e.n > prevN);
        const accepted = newEntries.map((e) => e.action || '');
        const events = (msg.events && msg.events.length ? msg.events : newEntries.flatMap((e) => e.events));
        this.afterChange(s, events, accepted);
        if (this.store.replayN !== null) this.renderReplayBar();
      }
      this.renderTakeback();
    });
    ws.addEventListener('close', () => {
      if (this.closed) return;
      this.wsRetry = Math.min(this.wsRetry + 1, 6);
      setTimeout(() => this.connect(), 500 * 2 ** this.wsRetry);
    });
  }

  /** A change another client made (WebSocket). @param {any} c @param {import('./api.js').GameEvent[]} events */
  async onChange(c, events) {
    const cur = this.state;
    if (cur && c.state_hash === cur.state_hash && c.actions_recorded === cur.actions_recorded) return;
    // waiting for a reply of our own (most often this very change): compared with it once it is in
    if (this.busy) { this.missed = { n: c.actions_recorded, hash: c.state_hash }; return; }
    let s = applyChange(cur, c);
    // the change lists no legal actions: when this seat acts next, fetch them with the whole state
    if (!s || (this.token && !s.outcome && s.to_act !== 'chance' && s.to_act !== 'over' && (!this.side || this.side === 'both' || this.side === s.to_act))) {
      try {
        s = await api.state(this.id, this.token);
      } catch (e) {
        this.outOfDate(/** @type {Error} */ (e));
        return;
      }
      if (this.busy) { this.missed = { n: -1, hash: '' }; return; }
      if (this.state && this.state.actions_recorded === s.actions_recorded && this.state.state_hash === s.state_hash) return;
    }
    const accepted = (c.log || []).map((/** @type {any} */ e) => /** @type {string} */ (e.action || ''));
    this.afterChange(s, events, accepted);
    if (this.store.replayN !== null) this.renderReplayBar();
    this.renderTakeback();
  }

}
