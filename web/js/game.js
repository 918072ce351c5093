// The game screen: the board, the top bar (turn track, phase, side to act), the side panel
// (orders, combats, armies, reinforcements, eliminated units, log, the map as text) and the
// replay bar. Every choice offered comes from the state view's list of legal actions; every
// action is sent to the server, which decides.

import { api, ApiError, wsUrl, loadSeat, saveSeat, normalizeState, applyChange } from './api.js';
import { Board, counterIcon } from './board.js';
import { indexLegal, loseUnits, COLUMNS, STEP_NAMES, STEP_HINTS } from './actions.js';
import { h, fill, mp, pct, nationColours, sideColour, RESULTS, RESULT_COLOURS, debounce, plural } from './util.js';
import { toast, caseLink, announce, dieFace, setRuleOpener } from './toast.js';
import { RulesDrawer } from './rules.js';
import * as H from './hex.js';
import { icon } from './icons.js';

/** @typedef {import('./api.js').StateView} StateView */
/** @typedef {import('./api.js').Unit} Unit */
/** @typedef {import('./api.js').Combat} Combat */
/** @typedef {import('./actions.js').Legal} Legal */

const PREFS = 'grognard.prefs';

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
    setRuleOpener((c) => /** @type {RulesDrawer} */ (rulesDrawer).open(c));
  }
  return rulesDrawer;
}

export class Game {
  /**
   * @param {HTMLElement} root
   * @param {string} id
   */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    const seat = loadSeat(id);
    /** @type {string|null} */
    this.token = seat?.token || null;
    /** @type {string|null} 'both' in hot-seat, a side, or null when unknown */
    this.side = seat?.side || null;
    this.mode = seat?.mode || null;
    /** @type {StateView|null} the live state */
    this.state = null;
    /** @type {StateView|null} what is shown (the live state, or a replay position) */
    this.view = null;
    /** @type {number|null} */
    this.replayN = null;
    /** @type {string|null} */
    this.selected = null;
    /** @type {null | {unit: string, dests: Map<string, import('./api.js').Destination>, list: import('./api.js').Destination[], why_not: null | {case: string, why: string}}} */
    this.moves = null;
    this.movesSeq = 0;
    /** @type {string|null} */
    this.hover = null;
    /** @type {number|null} */
    this.focusCombat = null;
    this.busy = false;
    this.prefs = loadPrefs();
    /** @type {WebSocket|null} */
    this.ws = null;
    this.wsRetry = 0;
    this.closed = false;
    /** @type {Map<string, string>} combat key -> the resolve action chosen in its odds selector */
    this.oddsChoice = new Map();
    /** @type {Map<string, Record<string, number>>} odds column -> result probabilities (GET /api/odds) */
    this.columnProbs = new Map();
    /** @type {Set<string>} units to flash after an action */
    this.flash = new Set();
    /** @type {Legal} */
    this.L = indexLegal([]);
    /** @type {null | {by: string, actions: string[], actions_recorded: number}} a take-back waiting for consent (online) */
    this.takeback = null;
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
    /** @type {HTMLElement} */ this.trackEl = none;
    /** @type {HTMLElement} */ this.phaseEl = none;
    /** @type {HTMLElement} */ this.actorEl = none;
    /** @type {HTMLButtonElement} */ this.undoBtn = none;
    /** @type {HTMLElement} */ this.replayBtn = none;
    /** @type {HTMLElement} */ this.exportBtn = none;
    /** @type {HTMLElement} */ this.rulesBtn = none;
    /** @type {HTMLElement} */ this.helpBtn = none;
    /** @type {HTMLElement} */ this.numBtn = none;
    /** @type {HTMLElement} */ this.zocBtn = none;
    /** @type {HTMLElement} */ this.namesBtn = none;
    /** @type {HTMLElement} */ this.legendBtn = none;
  }

  async start() {
    rules();
    fill(this.root, h('div', { class: 'loading' }, h('div', { class: 'spinner', 'aria-hidden': 'true' }), h('p', {}, 'Unfolding the map…')));
    let map, state;
    try {
      [map, state] = await Promise.all([api.map(this.id), api.state(this.id)]);
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      fill(this.root, h('div', { class: 'start' }, h('main', { id: 'main', class: 'start-main' }, h('section', { class: 'card' },
        h('h1', {}, err.status === 404 ? 'No such game' : 'The game could not be loaded'),
        h('p', {}, err.message),
        h('p', {}, h('a', { href: '#', class: 'btn btn-primary' }, 'Back to the start'))))));
      return;
    }
    this.map = map;
    this.state = state;
    this.view = state;
    if (this.token && (!this.side || !this.mode)) {
      // a seat without its side or mode (a link opened here): ask the server what the token holds
      try {
        const seat = await api.seat(this.id, this.token);
        this.side = seat.side;
        this.mode = seat.mode;
        saveSeat(this.id, { token: this.token, side: seat.side, mode: seat.mode });
      } catch { /* keep acting as the server allows */ }
    }
    if (this.token && !loadSeat(this.id)?.title) saveSeat(this.id, { token: this.token, side: this.side || undefined, title: state.title });
    this.buildDom();
    this.board = new Board(this.mapHost, map, {
      onActivate: (hex, how) => this.activate(hex, how),
      onHover: (hex) => this.onHover(hex),
      onDragStart: (unit) => this.dragStart(unit),
      onDrop: (unit, hex) => this.drop(unit, hex),
      onCursor: (hex) => this.onCursor(hex),
      onEscape: () => this.escape(),
    });
    this.board.setHexNumbers(this.prefs.numbers);
    this.board.setPlaceNames(this.prefs.names);
    document.addEventListener('keydown', this.onKey);
    this.render();
    this.connect();
    document.title = `${state.title} — Grognard`;
  }

  destroy() {
    this.closed = true;
    document.removeEventListener('keydown', this.onKey);
    if (this.ws) this.ws.close();
  }

  // ================================================================ DOM skeleton

  buildDom() {
    const tb = (/** @type {string} */ label, /** @type {string} */ ic, /** @type {() => void} */ fn, /** @type {string} */ title, extra = {}) =>
      h('button', { class: 'tool', type: 'button', 'aria-label': label, title, onclick: fn, ...extra }, h('span', { class: 'tool-icon' }, icon(ic)), h('span', { class: 'tool-label' }, label));
    this.undoBtn = /** @type {HTMLButtonElement} */ (tb('Undo', 'undo', () => this.undo(), 'Take back the last action (Ctrl+Z) — not once a die has been rolled (5.14)'));
    this.replayBtn = tb('Replay', 'replay', () => this.toggleReplay(), 'Step through the game so far; branch a what-if game from any point');
    this.exportBtn = tb('Export', 'export', () => this.exportRecord(), 'Download the game record (JSON)');
    this.rulesBtn = tb('Rules', 'rules', () => rules().open(), 'The rules reference (R)');
    this.helpBtn = tb('Help', 'help', () => this.help(), 'Keys and how to play (?)');
    this.trackEl = h('ol', { class: 'turn-track', 'aria-label': 'Turn track' });
    this.phaseEl = h('div', { class: 'phase', 'aria-live': 'polite' });
    this.actorEl = h('div', { class: 'actor' });
    const top = h('header', { class: 'topbar' },
      h('a', { class: 'brand', href: '#', title: 'New game / your games' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '⚑'), h('span', {}, 'Grognard')),
      h('div', { class: 'title-block' },
        h('div', { class: 'game-title', title: this.state?.title }, (this.state?.title || '').replace(/^The Battle of Nations: /, '')),
        this.trackEl),
      this.phaseEl, this.actorEl,
      h('nav', { class: 'tools', 'aria-label': 'Game tools' }, this.undoBtn, this.replayBtn, this.exportBtn, this.rulesBtn, this.helpBtn));

    this.mapHost = h('div', { class: 'board-host' });
    const ctl = (/** @type {string} */ label, /** @type {string|Node} */ text, /** @type {() => void} */ fn, pressed = /** @type {boolean|null} */ (null)) =>
      h('button', { type: 'button', class: 'map-btn', 'aria-label': label, title: label, onclick: fn, ...(pressed === null ? {} : { 'aria-pressed': String(pressed) }) }, text);
    this.numBtn = ctl('Hex numbers (H)', '#', () => this.toggle('numbers'), this.prefs.numbers);
    this.zocBtn = ctl('Enemy zones of control (Z) — a display aid; the server decides', 'ZOC', () => this.toggle('zoc'), this.prefs.zoc);
    this.namesBtn = ctl('Place names (P)', 'Aa', () => this.toggle('names'), this.prefs.names);
    this.legendBtn = ctl('Legend (L)', 'Key', () => this.toggle('legend'), this.prefs.legend);
    const controls = h('div', { class: 'map-controls', role: 'toolbar', 'aria-label': 'Map view' },
      ctl('Zoom in (+)', icon('plus'), () => this.board?.zoom(1.25)),
      ctl('Zoom out (−)', icon('minus'), () => this.board?.zoom(0.8)),
      ctl('Fit the map to the screen (0)', icon('fit'), () => this.board?.fit()),
      h('span', { class: 'sep', 'aria-hidden': 'true' }),
      this.numBtn, this.zocBtn, this.namesBtn, this.legendBtn);
    this.infoBar = h('div', { class: 'hex-info', 'aria-hidden': 'true' });
    this.legendEl = legend();
    this.legendEl.hidden = !this.prefs.legend;
    this.replayBar = h('div', { class: 'replay-bar', hidden: true, role: 'region', 'aria-label': 'Replay' });
    this.banner = h('div', { class: 'outcome-banner', hidden: true, role: 'status' });
    this.takebackEl = h('div', { class: 'takeback-bar', hidden: true, role: 'status', 'aria-live': 'polite' });
    const mapSection = h('section', { class: 'map-area', id: 'main', 'aria-label': 'Map' }, this.mapHost, controls, this.replayBar, this.legendEl, this.infoBar, this.banner, this.takebackEl);

    this.side_ = h('aside', { class: 'sidebar', 'aria-label': 'Orders and information' });
    fill(this.root, h('div', { class: 'game' }, top, h('div', { class: 'game-body' }, mapSection, this.side_)));
  }

  /** @param {'numbers'|'zoc'|'names'|'legend'} k */
  toggle(k) {
    this.prefs[k] = !this.prefs[k];
    try { localStorage.setItem(PREFS, JSON.stringify(this.prefs)); } catch { /* ignore */ }
    this.numBtn?.setAttribute('aria-pressed', String(this.prefs.numbers));
    this.zocBtn?.setAttribute('aria-pressed', String(this.prefs.zoc));
    this.namesBtn?.setAttribute('aria-pressed', String(this.prefs.names));
    this.legendBtn?.setAttribute('aria-pressed', String(this.prefs.legend));
    this.board?.setHexNumbers(this.prefs.numbers);
    this.board?.setPlaceNames(this.prefs.names);
    if (this.legendEl) this.legendEl.hidden = !this.prefs.legend;
    this.renderBoard();
  }

  savePrefs() {
    try { localStorage.setItem(PREFS, JSON.stringify(this.prefs)); } catch { /* ignore */ }
  }

  // ================================================================ state helpers

  /** @returns {StateView} */
  get v() {
    return /** @type {StateView} */ (this.view);
  }

  /** True when this browser may act now (live view, a seat, and its side to act). */
  canAct() {
    const v = this.v;
    if (this.replayN !== null || !this.token || !v || v.outcome) return false;
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

  unitsById() {
    return new Map(this.v.units.map((u) => [u.id, u]));
  }

  /** @param {string} hex */
  terrainOf(hex) {
    return this.board?.terrain.get(hex) || '?';
  }

  /** @param {string} hex */
  placeOf(hex) {
    return this.board?.places.get(hex) || null;
  }

  /** @param {Unit} u */
  unitText(u) {
    const n = nationColours(u.nation).name;
    return `${u.id} (${n} ${u.type} ${u.designation}, ${u.strength}-${u.movement})`;
  }

  /** @param {string} hex */
  describeHex(hex) {
    const parts = [`Hex ${hex}`, this.terrainOf(hex)];
    const place = this.placeOf(hex);
    if (place) parts.push(place);
    const u = this.board?.unitAt.get(hex);
    if (u) parts.push(this.unitText(u) + (u.moved ? ', moved' : '') + (u.in_combat ? ', in combat' : ''));
    const d = this.moves?.dests.get(hex);
    if (d) parts.push(`destination of ${this.moves?.unit}, ${mp(d.cost)} MP`);
    const r = this.selected ? this.L.retreats.get(this.selected)?.get(hex) : null;
    if (r) parts.push(`retreat hex for ${this.selected}`);
    const a = this.selected ? this.L.advances.get(this.selected)?.get(hex) : null;
    if (a) parts.push(`advance hex for ${this.selected}`);
    if (u && this.selected && this.L.attacks.get(this.selected)?.has(u.id)) parts.push(`${this.selected} may attack it`);
    const ob = u && this.v.obligations.find((o) => o.unit === u.id);
    if (ob) parts.push(`${ob.case}: ${ob.case === '7.12' ? 'must attack' : ob.case === '7.11' ? 'must be attacked' : 'obligation'}`);
    return parts.join(' · ');
  }

  // ================================================================ rendering

  render() {
    if (!this.view || !this.board) return;
    this.L = indexLegal(this.canAct() ? this.v.legal : []);
    // keep a selection only while it still means something
    if (this.selected && !this.v.units.some((u) => u.id === this.selected)) this.selected = null;
    this.autoSelect();
    this.renderTop();
    this.renderSidebar();
    this.renderBoard();
    this.renderBanner();
  }

  /** In retreats and advances with one unit to place, select it. */
  autoSelect() {
    const step = this.v.step;
    const pool = step === 'retreat' ? this.L.retreats : step === 'advance' ? this.L.advances : null;
    if (!pool) return;
    if (this.selected && pool.has(this.selected)) return;
    if (pool.size >= 1) this.selected = /** @type {string} */ (pool.keys().next().value);
  }

  renderTop() {
    const v = this.v;
    const night = new Set(v.night_turns);
    const track = [];
    for (let t = 1; t <= v.last_turn; t++) {
      const isNight = night.has(t);
      const cls = ['turn', isNight ? 'night' : '', t === v.turn ? 'current' : '', t < v.first_turn ? 'before' : '', t < v.turn && t >= v.first_turn ? 'past' : ''].filter(Boolean).join(' ');
      track.push(h('li', { class: cls, title: `Game-turn ${t}${isNight ? ' (night, 10.0)' : ''}${t === v.turn ? ' — now' : ''}${t < v.first_turn ? ' — before this scenario' : ''}`, 'aria-current': t === v.turn ? 'step' : false },
        h('span', { class: 'turn-n' }, String(t)), isNight ? moon() : null));
    }
    fill(this.trackEl, track);
    const phase = v.step === 'over' || v.outcome ? 'Game over' : `${v.phasing} ${v.phase === 'movement' ? 'movement' : 'combat'} phase`;
    fill(this.phaseEl,
      h('div', { class: 'phase-main' }, `Turn ${v.turn}`, v.night ? h('span', { class: 'night-chip', title: 'Night turn (10.0)' }, '☾ night') : null),
      h('div', { class: 'phase-sub' }, phase, v.step !== 'over' && !v.outcome ? ` · ${STEP_NAMES[v.step] || v.step}` : ''));
    const sc = sideColour(v.to_act);
    let actor;
    if (v.outcome) actor = h('span', { class: 'actor-chip over' }, v.outcome.winner ? `${v.outcome.winner} victory` : 'Drawn');
    else if (this.replayN !== null) actor = h('span', { class: 'actor-chip replay' }, `Replay ${this.replayN}/${this.state?.actions_recorded}`);
    else if (v.to_act === 'chance') actor = h('span', { class: 'actor-chip' }, 'Rolling…');
    else {
      const you = this.token && (this.side === 'both' || this.side === v.to_act || !this.side);
      actor = h('span', { class: `actor-chip${you ? ' you' : ''}`, style: `--side:${sc.fill};--side-text:${sc.text}` },
        h('span', { class: 'swatch', 'aria-hidden': 'true' }), you ? `${v.to_act} to act${this.side && this.side !== 'both' ? ' (you)' : ''}` : `Waiting for ${v.to_act}`);
    }
    fill(this.actorEl, actor, !this.token ? h('span', { class: 'spectator', title: 'No seat in this game: you are watching' }, 'spectator') : null);
    const canUndo = this.replayN === null && !!this.token && (this.state?.undoable || 0) > 0 && !this.busy;
    /** @type {HTMLButtonElement} */ (this.undoBtn).disabled = !canUndo;
    this.undoBtn?.setAttribute('title', canUndo ? `Take back the last action (${this.state?.undoable} may be taken back) — Ctrl+Z` : 'Nothing to take back (5.14: not once a die has been rolled)');
    this.replayBtn?.setAttribute('aria-pressed', String(this.replayN !== null));
  }

  renderBanner() {
    const o = this.v.outcome;
    if (!this.banner) return;
    if (!o) { this.banner.hidden = true; return; }
    this.banner.hidden = false;
    fill(this.banner, h('div', { class: 'banner-title' }, o.winner ? `${o.winner} victory` : 'The battle is drawn'),
      h('div', { class: 'banner-why' }, caseLink(o.case), ' ', o.why),
      h('div', { class: 'banner-actions' },
        h('button', { class: 'btn', onclick: () => this.toggleReplay() }, 'Replay the battle'),
        h('button', { class: 'btn', onclick: () => this.exportRecord() }, 'Export the record'),
        h('button', { class: 'btn', onclick: () => { if (this.banner) this.banner.hidden = true; } }, 'Look at the map')));
  }

  renderBoard() {
    const b = this.board;
    if (!b) return;
    const v = this.v;
    const byId = this.unitsById();
    const obligations = new Map(v.obligations.map((o) => [o.unit, o.case]));
    /** @type {Set<string>} */
    const actable = new Set();
    if (v.step === 'movement') for (const u of this.L.moves.keys()) actable.add(u);
    b.setUnits(v.units, { selected: this.selected, obligations, actable, flash: this.flash });
    this.flash = new Set();
    // destinations
    const movesNow = this.moves && this.moves.unit === this.selected && v.step === 'movement' && this.canAct();
    const selUnit = this.selected ? byId.get(this.selected) : undefined;
    b.showDestinations(movesNow && this.moves ? this.moves.list : null, selUnit?.hex || null);
    // candidates
    /** @type {Map<string, string>} */
    const cands = new Map();
    if (this.selected && v.step === 'declare') {
      for (const t of this.L.attacks.get(this.selected)?.keys() || []) { const u = byId.get(t); if (u?.hex) cands.set(u.hex, 'target'); }
      for (const a of this.L.targets.get(this.selected)?.keys() || []) { const u = byId.get(a); if (u?.hex) cands.set(u.hex, 'attacker'); }
    }
    if (v.step === 'retreat') {
      if (this.selected) for (const hx of this.L.retreats.get(this.selected)?.keys() || []) cands.set(hx, 'retreat');
      for (const id of this.L.retreats.keys()) { const u = byId.get(id); if (u?.hex && id !== this.selected) cands.set(u.hex, 'attacker'); }
    }
    if (v.step === 'advance') {
      if (this.selected) for (const hx of this.L.advances.get(this.selected)?.keys() || []) cands.set(hx, 'advance');
      for (const id of this.L.advances.keys()) { const u = byId.get(id); if (u?.hex && id !== this.selected) cands.set(u.hex, 'attacker'); }
    }
    b.showCandidates(cands.size ? cands : null);
    b.showCombats(v.combats, byId, this.focusCombat);
    b.showZoc(this.prefs.zoc ? this.zocHexes() : null);
    this.onHover(this.hover);
  }

  /** Enemy zones of control, for display: the six neighbours of every enemy unit on the map. */
  zocHexes() {
    const me = this.viewer();
    const occupied = new Set(this.v.units.filter((u) => u.status === 'map' && u.hex).map((u) => u.hex));
    /** @type {Set<string>} */
    const out = new Set();
    for (const u of this.v.units) {
      if (u.status !== 'map' || !u.hex || u.side === me) continue;
      for (const n of H.neighbours(u.hex)) if (!occupied.has(n) || this.board?.unitAt.get(n)?.side === me) out.add(n);
    }
    return out;
  }

  // ---------------------------------------------------------------- side panel

  /** @param {string} key @param {string} title @param {(Node|string|null|false)[]} body @param {{open?: boolean, cls?: string, count?: string}} [o] */
  card(key, title, body, o = {}) {
    const open = this.prefs.open[key] ?? o.open ?? true;
    const d = h('details', { class: `card card-${key} ${o.cls || ''}`, open, 'data-card': key },
      h('summary', {}, h('h2', {}, title), o.count ? h('span', { class: 'count' }, o.count) : null),
      h('div', { class: 'card-body' }, body));
    d.addEventListener('toggle', () => { this.prefs.open[key] = /** @type {HTMLDetailsElement} */ (d).open; this.savePrefs(); });
    return d;
  }

  /**
   * A collapsible sub-section that remembers whether the player opened it.
   * @param {string} key @param {boolean} dflt @param {string} title @param {...(Node|null)} body
   */
  sub(key, dflt, title, ...body) {
    const open = this.prefs.open[`sub:${key}`] ?? dflt;
    const d = h('details', { class: 'sub', open }, h('summary', { 'data-key': `sub:${key}` }, title), ...body);
    d.addEventListener('toggle', () => { this.prefs.open[`sub:${key}`] = /** @type {HTMLDetailsElement} */ (d).open; this.savePrefs(); });
    return d;
  }

  renderSidebar() {
    const side = this.side_;
    if (!side) return;
    // keep focus and scroll across re-renders
    const active = /** @type {HTMLElement|null} */ (document.activeElement);
    const key = active && side.contains(active) ? active.getAttribute('data-key') : null;
    const cmdValue = /** @type {HTMLInputElement|null} */ (side.querySelector('.cmd-input'))?.value || '';
    const logScroll = side.querySelector('.log-list');
    const atBottom = !logScroll || logScroll.scrollHeight - logScroll.scrollTop - logScroll.clientHeight < 30;
    const scroll = side.scrollTop;
    fill(side,
      this.ordersCard(),
      this.combatsCard(),
      this.armiesCard(),
      this.reinforcementsCard(),
      this.eliminatedCard(),
      this.logCard(),
      this.textCard());
    side.scrollTop = scroll;
    const cmd = /** @type {HTMLInputElement|null} */ (side.querySelector('.cmd-input'));
    if (cmd && cmdValue) cmd.value = cmdValue;
    const log = side.querySelector('.log-list');
    if (log && atBottom) log.scrollTop = log.scrollHeight;
    if (key) /** @type {HTMLElement|null} */ (side.querySelector(`[data-key="${CSS.escape(key)}"]`))?.focus({ preventScroll: true });
  }

  /**
   * A button that sends an action.
   * @param {string} action @param {string|Node|(string|Node)[]} label @param {string} [cls]
   */
  actBtn(action, label, cls = 'btn') {
    return h('button', { type: 'button', class: cls, 'data-key': `act:${action}`, title: action, onclick: () => this.act(action) }, label);
  }

  /** @param {Unit} u @param {string} [extra] */
  unitBtn(u, extra = '') {
    return h('button', {
      type: 'button', class: `unit-chip${this.selected === u.id ? ' selected' : ''} ${extra}`, 'data-key': `unit:${u.id}`,
      'aria-pressed': String(this.selected === u.id),
      title: `${this.unitText(u)}${u.hex ? ` in ${u.hex}` : ''}`,
      onclick: () => this.selectUnit(u.id, true),
    }, counterIcon(u, 30), h('span', { class: 'chip-text' }, h('b', {}, u.id), h('small', {}, u.hex || (u.arrival ? `enters ${u.arrival.hex}` : ''))));
  }

  ordersCard() {
    const v = this.v;
    const byId = this.unitsById();
    /** @type {(Node|string|null|false)[]} */
    const body = [];
    const can = this.canAct();
    // the situation
    if (this.replayN !== null) {
      body.push(h('p', { class: 'hint' }, `Replay: the position after ${plural(this.replayN, 'action')}. The map is read-only; branch from here to play on from this point.`));
    } else if (v.outcome) {
      body.push(h('p', { class: 'hint' }, 'The game is over. ', caseLink(v.outcome.case), ' ', v.outcome.why));
    } else if (can) {
      body.push(h('p', { class: 'step-title' }, `${v.to_act}: ${STEP_NAMES[v.step] || v.step}`));
      body.push(h('p', { class: 'hint' }, STEP_HINTS[v.step] || ''));
    } else if (!this.token) {
      body.push(h('p', { class: 'hint' }, `You are watching this game. ${v.to_act === 'chance' ? 'The die is being rolled.' : `${v.to_act} to act.`}`));
    } else if (v.to_act === 'chance') {
      body.push(h('p', { class: 'hint' }, 'The die is being rolled…'));
    } else {
      body.push(h('p', { class: 'hint waiting' }, h('span', { class: 'dots', 'aria-hidden': 'true' }), this.mode === 'computer' ? `The computer (${v.to_act}) is thinking…` : `Waiting for the ${v.to_act} player.`));
    }

    // the selected unit
    const sel = this.selected ? byId.get(this.selected) : undefined;
    if (sel) body.push(this.unitCard(sel));

    if (can) {
      const L = this.L;
      // obligations
      if (v.step === 'declare' && v.obligations.length) {
        body.push(h('div', { class: 'obligations' }, h('h3', {}, 'Obligations'),
          h('ul', { class: 'plain' }, v.obligations.map((o) => {
            const u = byId.get(o.unit);
            return h('li', {}, u ? this.unitBtn(u, 'small') : o.unit, ' ', caseLink(o.case), ' ', o.case === '7.12' ? 'must attack' : o.case === '7.11' ? 'must be attacked' : '');
          }))));
      }
      // step-specific choices
      if (v.step === 'movement') {
        if (sel && L.moves.has(sel.id)) {
          const n = this.moves?.unit === sel.id ? this.moves.list.length : null;
          body.push(h('p', { class: 'small' }, n === null ? 'Finding the legal destinations…' : `${plural(n, 'legal destination')}, shaded on the map by cost (darker is cheaper). Hover a hex to see the path; click it, or drag the counter there.`));
        }
        const movable = [...L.moves.keys()].map((id) => byId.get(id)).filter((u) => !!u);
        const onMap = movable.filter((u) => u.status === 'map');
        const entering = movable.filter((u) => u.status !== 'map');
        if (entering.length) body.push(h('h3', {}, 'Reinforcements entering now'), h('div', { class: 'chips' }, entering.map((u) => this.unitBtn(u))));
        if (onMap.length) body.push(this.sub('movable', onMap.length <= 16, `Units that may still move (${onMap.length})`, h('div', { class: 'chips' }, onMap.map((u) => this.unitBtn(u)))));
      }
      if (v.step === 'declare') {
        if (sel && L.attacks.has(sel.id)) {
          body.push(h('h3', {}, `${sel.id} may attack`), h('div', { class: 'btn-row' }, [...(L.attacks.get(sel.id)?.entries() || [])].map(([t, act]) => {
            const tu = byId.get(t);
            return this.actBtn(act, `Attack ${t}${tu?.hex ? ` (${tu.hex})` : ''}`, 'btn btn-attack');
          })));
        } else if (sel && L.targets.has(sel.id)) {
          body.push(h('h3', {}, `May attack ${sel.id}`), h('div', { class: 'btn-row' }, [...(L.targets.get(sel.id)?.entries() || [])].map(([a, act]) => this.actBtn(act, `${a} attacks`, 'btn btn-attack'))));
        } else {
          const attackers = [...L.attacks.keys()].map((id) => byId.get(id)).filter((u) => !!u);
          if (attackers.length) body.push(this.sub('attackers', attackers.length <= 12, `Units that may attack (${attackers.length})`, h('div', { class: 'chips' }, attackers.map((u) => this.unitBtn(u)))));
          else body.push(h('p', { class: 'small muted' }, v.combats.length ? 'No further attack can be declared.' : 'No attack can be declared.'));
        }
      }
      if (v.step === 'losses' && L.loses.length) {
        body.push(h('h3', {}, 'Choose the exchange losses'), h('div', { class: 'btn-col' }, L.loses.map((a) => {
          const us = loseUnits(a).map((id) => byId.get(id)).filter((u) => !!u);
          const total = us.reduce((n, u) => n + u.strength, 0);
          return this.actBtn(a, [h('span', {}, `Lose ${loseUnits(a).join(', ')}`), h('small', {}, ` (${total} strength points)`)], 'btn btn-wide');
        })));
      }
      if (v.step === 'retreat') {
        for (const [uid, m] of L.retreats) {
          body.push(h('div', { class: 'choice' }, h('h3', {}, `Retreat ${uid}`), h('div', { class: 'btn-row' }, [...m.entries()].map(([hx, a]) => this.actBtn(a, `to ${hx} (${this.terrainOf(hx)})`)))));
        }
        for (const [uid, a] of L.stands) body.push(this.actBtn(a, `${uid} stands (8.15)`));
      }
      if (v.step === 'advance') {
        for (const [uid, m] of L.advances) {
          body.push(h('div', { class: 'choice' }, h('h3', {}, `Advance ${uid}`), h('div', { class: 'btn-row' }, [...m.entries()].map(([hx, a]) => this.actBtn(a, `into ${hx}`)))));
        }
      }
      if (L.hold) body.push(this.actBtn(L.hold, 'Hold — do not advance (7.74)', 'btn btn-wide'));
      if (L.rolls.length) {
        body.push(h('h3', {}, 'Enter the die'), h('div', { class: 'btn-row dice-row' }, L.rolls.map((a) => {
          const n = Number(a.split(/\s+/)[1]);
          return h('button', { type: 'button', class: 'die-btn', 'aria-label': a, title: a, 'data-key': `act:${a}`, onclick: () => this.act(a) }, dieFace(n));
        })));
      }
      if (L.other.length) body.push(h('div', { class: 'btn-row' }, L.other.map((a) => this.actBtn(a, a))));
      if (L.end) {
        const label = v.step === 'movement' ? `End the ${v.phasing} movement phase` : v.step === 'declare' ? (v.combats.length ? 'Done declaring: to the combats' : 'Declare no (more) attacks: end') : 'End';
        body.push(h('div', { class: 'end-row' }, this.actBtn(L.end, label, 'btn btn-primary btn-end')));
      }
    }
    body.push(this.commandBox(can));
    return this.card('orders', 'Orders', body, { open: true, cls: 'orders' });
  }

  /** @param {Unit} u */
  unitCard(u) {
    const c = nationColours(u.nation);
    const lines = [
      `${c.name} ${u.type}, designation ${u.designation}`,
      `Strength ${u.strength}, movement allowance ${u.movement}`,
      u.status === 'map' ? `In ${u.hex}: ${this.terrainOf(/** @type {string} */ (u.hex))}${this.placeOf(/** @type {string} */ (u.hex)) ? ` (${this.placeOf(/** @type {string} */ (u.hex))})` : ''}` : u.status === 'waiting' ? `Arrives turn ${u.arrival?.turn} at ${u.arrival?.hex}` : 'Eliminated',
    ];
    if (u.moved) lines.push('Has moved this phase');
    if (u.in_combat) lines.push('In a declared combat');
    const why = this.moves?.unit === u.id ? this.moves.why_not : null;
    return h('div', { class: 'unit-card', style: `--nation:${c.fill}` },
      counterIcon(u, 56),
      h('div', {},
        h('div', { class: 'unit-id' }, u.id, ' ', h('span', { class: 'muted small' }, u.side)),
        lines.map((l) => h('div', { class: 'small' }, l)),
        why && this.v.step === 'movement' ? h('div', { class: 'why-not small' }, 'Cannot move: ', caseLink(why.case), ' ', why.why) : null),
      h('button', { class: 'icon-btn', 'aria-label': 'Deselect', title: 'Deselect (Esc)', onclick: () => this.selectUnit(null) }, '×'));
  }

  /** @param {boolean} can */
  commandBox(can) {
    const dl = h('datalist', { id: 'legal-list' }, (can ? this.v.legal.slice(0, 3000) : []).map((a) => h('option', { value: a })));
    const input = /** @type {HTMLInputElement} */ (h('input', {
      class: 'cmd-input', type: 'text', list: 'legal-list', autocomplete: 'off', spellcheck: 'false', 'data-key': 'cmd',
      placeholder: can ? 'Type an action: move FR.4 2316' : 'No action to take now',
      'aria-label': 'Action command', disabled: !can,
    }));
    const form = h('form', { class: 'cmd', onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const t = input.value.trim();
      if (!t) return;
      if (/^(undo)$/i.test(t)) { input.value = ''; this.undo(); return; }
      // Empty the box before sending: the sidebar is rebuilt when the state changes, so clear
      // now and put the text back (in whichever box is current) only if it was refused.
      input.value = '';
      this.act(t).then((ok) => {
        if (ok) return;
        const now = /** @type {HTMLInputElement|null} */ (this.side_?.querySelector('.cmd-input'));
        if (now && !now.value) now.value = t;
      });
    } },
    h('label', { for: 'cmd-input', class: 'cmd-label' }, 'Command'),
    input, h('button', { type: 'submit', class: 'btn', disabled: !can }, 'Do'), dl);
    input.id = 'cmd-input';
    const legalList = can ? this.sub('legal', false, `All legal actions (${this.v.legal.length})`,
      h('ul', { class: 'plain legal-ul' }, this.v.legal.slice(0, 400).map((a) => h('li', {}, h('button', { type: 'button', class: 'link-btn', 'data-key': `legal:${a}`, onclick: () => this.act(a) }, a)))),
      this.v.legal.length > 400 ? h('p', { class: 'small muted' }, `… and ${this.v.legal.length - 400} more (type them in the command box).`) : null) : null;
    return h('div', { class: 'cmd-wrap' }, form, h('p', { class: 'small muted' }, 'The grammar: move, attack, resolve, retreat, advance, hold, lose, end — by unit id or hex. ', h('a', { href: '#', onclick: (/** @type {Event} */ e) => { e.preventDefault(); this.help(); } }, 'Help')), legalList);
  }

  combatsCard() {
    const v = this.v;
    if (!v.combats.length) {
      if (v.phase !== 'combat') return null;
      return this.card('combats', 'Combats', [h('p', { class: 'small muted' }, v.step === 'declare' ? 'No combat declared yet. Select one of your units, then an enemy unit next to it.' : 'No combat this phase.')]);
    }
    const byId = this.unitsById();
    const body = v.combats.map((cb, i) => this.combatView(cb, i, byId));
    const open = v.combats.filter((c) => !c.resolved).length;
    return this.card('combats', 'Combats', body, { count: `${open} to resolve` });
  }

  /** @param {Combat} cb @param {number} i @param {Map<string, Unit>} byId */
  combatView(cb, i, byId) {
    const names = (/** @type {string[]} */ ids) => ids.map((id) => {
      const u = byId.get(id);
      return h('button', { type: 'button', class: 'link-btn unit-link', 'data-key': `cu:${i}:${id}`, onclick: () => this.selectUnit(id, true), title: u ? this.unitText(u) : id }, id);
    });
    const join = (/** @type {Node[]} */ xs) => xs.flatMap((x, k) => (k ? [', ', x] : [x]));
    // resolve controls, from the legal actions
    /** @type {{action: string, label: string}[]} */
    const options = [];
    for (const d of cb.defenders) {
      const r = this.L.resolves.get(d);
      if (!r) continue;
      if (r.action) options.push({ action: r.action, label: `at ${cb.column} (as it stands)` });
      for (const x of r.reduced.slice().sort((a, b) => COLUMNS.indexOf(b.odds) - COLUMNS.indexOf(a.odds))) options.push({ action: x.action, label: `at ${x.odds} (reduced, 7.9)` });
      break;
    }
    /** @type {Node|null} */
    let resolve = null;
    const key = cb.defenders.join(',');
    const chosen = options.find((o) => o.action === this.oddsChoice.get(key)) || options[0];
    /** the column the combat would be resolved at, and its probabilities */
    let column = cb.column;
    let probs = cb.probabilities || {};
    if (chosen && / at (\S+)$/.test(chosen.action)) {
      column = /** @type {string} */ (chosen.action.match(/ at (\S+)$/)?.[1]);
      probs = this.columnProbs.get(column) || probs;
    }
    if (options.length && !cb.resolved) {
      const sel = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': 'Odds to resolve at (7.9)', 'data-key': `odds:${i}` }, options.map((o) => h('option', { value: o.action, selected: o === chosen }, o.label))));
      sel.addEventListener('change', () => this.chooseOdds(key, sel.value));
      resolve = h('div', { class: 'resolve-row' },
        options.length > 1 ? sel : null,
        h('button', { type: 'button', class: 'btn btn-primary', 'data-key': `resolve:${i}`, title: chosen.action, onclick: () => this.act(chosen.action) }, 'Resolve', column !== cb.column ? ` at ${column}` : ''));
    }
    const p = probs;
    const risk = this.risk(cb, byId, p);
    const result = this.combatResult(cb);
    return h('article', {
      class: `combat-card${cb.resolved ? ' resolved' : ''}${this.focusCombat === i ? ' focus' : ''}`,
      onmouseenter: () => { this.focusCombat = i; this.board?.showCombats(this.v.combats, byId, i); },
      onmouseleave: () => { this.focusCombat = null; this.board?.showCombats(this.v.combats, byId, null); },
    },
    h('header', {}, h('span', { class: 'combat-n' }, `${i + 1}`), h('span', { class: 'combat-who' }, join(names([...cb.attackers, ...cb.bombarding])), ' → ', join(names(cb.defenders))),
      h('span', { class: 'odds', title: 'Odds column (7.0)' }, column !== cb.column ? h('s', {}, cb.column) : null, column !== cb.column ? ' ' : null, column)),
    h('div', { class: 'combat-strengths' },
      h('span', {}, h('b', {}, String(cb.attack)), ' attack'), h('span', { class: 'muted' }, ' against '), h('span', {}, h('b', {}, String(cb.defence)), ' defence'),
      cb.bombarding.length ? h('span', { class: 'small muted' }, ` · bombarding: ${cb.bombarding.join(', ')}`) : null),
    cb.terrain.length ? h('ul', { class: 'plain small terrain-notes' }, cb.terrain.map((t) => h('li', {}, t))) : null,
    probBar(p),
    result ? h('div', { class: 'combat-result' }, result.die ? dieFace(result.die) : null, h('div', {}, caseLink('7.6'), ' ', result.text)) : risk,
    cb.resolved ? h('p', { class: 'small muted' }, 'Resolved.') : resolve);
  }

  /**
   * Chooses the odds a combat will be resolved at, and fetches that column's probabilities.
   * @param {string} key @param {string} action
   */
  async chooseOdds(key, action) {
    this.oddsChoice.set(key, action);
    const m = action.match(/ at (\d)-(\d)$/);
    if (m && !this.columnProbs.has(`${m[1]}-${m[2]}`)) {
      try {
        // a ratio of exactly a-b falls in column a-b
        const o = await api.odds(Number(m[1]), Number(m[2]));
        this.columnProbs.set(o.column, o.probabilities);
      } catch {
        /* the bar keeps the present odds */
      }
    }
    this.renderSidebar();
  }

  /**
   * The result of a combat of this phase, from the log's events (display only).
   * @param {Combat} cb
   * @returns {{text: string, die: number|null}|null}
   */
  combatResult(cb) {
    const log = this.v.log;
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i];
      if (e.action === 'end') break;
      for (const ev of e.events) {
        if (ev.case === '7.6' && cb.defenders.some((d) => mentions(ev.text, d))) {
          const m = ev.text.match(/die (\d)/);
          return { text: ev.text, die: m ? Number(m[1]) : null };
        }
      }
    }
    return null;
  }

  /**
   * The demoralization risk of a combat (17.0): what each army would lose on each result,
   * against its margin to its level. Retreat eliminations are not counted.
   * @param {Combat} cb @param {Map<string, Unit>} byId @param {Record<string, number>} p the result probabilities
   */
  risk(cb, byId, p) {
    const att = cb.attackers.map((id) => byId.get(id)).filter((u) => !!u);
    const def = cb.defenders.map((id) => byId.get(id)).filter((u) => !!u);
    if (!att.length || !def.length) return null;
    const dem = (/** @type {string} */ side) => this.v.demoralization.find((d) => d.side === side || d.army === side);
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

  armiesCard() {
    const v = this.v;
    const body = v.demoralization.map((d) => {
      const frac = d.level ? Math.min(1, d.losses / d.level) : 0;
      const sc = sideColour(d.side);
      const broken = d.losses >= d.level;
      return h('div', { class: `army${broken ? ' broken' : ''}` },
        h('div', { class: 'army-head' }, h('span', { class: 'swatch', style: `background:${sc.fill}`, 'aria-hidden': 'true' }), h('b', {}, d.army),
          h('span', { class: 'army-nums' }, `${d.losses} of ${d.level} lost`)),
        h('div', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': d.level, 'aria-valuenow': d.losses, 'aria-label': `${d.army} demoralization: ${d.losses} of ${d.level} strength points lost` },
          h('div', { class: 'bar-fill', style: `width:${(frac * 100).toFixed(1)}%;--c:${sc.fill}` })),
        h('div', { class: 'small muted' }, broken ? 'Demoralized (17.0)' : `${d.level - d.losses} more to demoralization`));
    });
    return this.card('armies', 'Armies', [h('p', { class: 'small muted' }, 'Strength points lost against the demoralization level ', caseLink('17.0'), '.'), ...body]);
  }

  reinforcementsCard() {
    const v = this.v;
    const due = v.units.filter((u) => u.status === 'waiting').sort((a, b) => (a.arrival?.turn || 0) - (b.arrival?.turn || 0) || a.id.localeCompare(b.id));
    if (!due.length) return this.card('reinf', 'Reinforcements due', [h('p', { class: 'small muted' }, 'None.')], { open: false });
    const rows = due.map((u) => {
      const now = this.L.moves.has(u.id);
      return h('tr', { class: now ? 'now' : '' },
        h('td', {}, String(u.arrival?.turn ?? '?')),
        h('td', {}, h('button', { type: 'button', class: 'link-btn', 'data-key': `reinf:${u.id}`, onclick: () => { this.selectUnit(u.id, true); if (u.arrival?.hex) this.board?.centreOn(u.arrival.hex, 0.8); } }, counterIcon(u, 26), ' ', u.id)),
        h('td', {}, `${u.strength}-${u.movement}`),
        h('td', {}, u.arrival?.hex || ''),
        h('td', {}, now ? h('span', { class: 'tag' }, 'now') : ''));
    });
    return this.card('reinf', 'Reinforcements due', [h('table', { class: 'tbl' }, h('thead', {}, h('tr', {}, h('th', {}, 'Turn'), h('th', {}, 'Unit'), h('th', {}, 'S-M'), h('th', {}, 'Enters'), h('th', {}, ''))), h('tbody', {}, rows))], { count: String(due.length), open: this.prefs.open.reinf ?? true });
  }

  eliminatedCard() {
    const gone = this.v.units.filter((u) => u.status === 'eliminated');
    if (!gone.length) return this.card('elim', 'Eliminated', [h('p', { class: 'small muted' }, 'No unit eliminated yet.')], { open: false });
    /** @type {Map<string, Unit[]>} */
    const bySide = new Map();
    for (const u of gone) bySide.set(u.side, [...(bySide.get(u.side) || []), u]);
    const body = [...bySide.entries()].map(([side, us]) => h('div', { class: 'elim-side' },
      h('h3', {}, `${side}: ${plural(us.length, 'unit')}, ${us.reduce((n, u) => n + u.strength, 0)} strength points`),
      h('div', { class: 'chips' }, us.map((u) => this.unitBtn(u, 'elim')))));
    return this.card('elim', 'Eliminated', body, { count: String(gone.length) });
  }

  logCard() {
    const log = this.v.log;
    const max = 200;
    const shown = log.slice(-max);
    const items = shown.map((e) => h('li', { class: `log-entry side-${(e.side || 'none').toLowerCase()}` },
      e.action ? h('div', { class: 'log-action' }, h('span', { class: 'log-n' }, `${e.n}.`), ' ', h('span', { class: 'log-side' }, e.side === 'chance' ? 'die' : e.side || ''), ' ', h('code', {}, e.action)) : h('div', { class: 'log-action muted' }, 'Set-up'),
      e.events.length ? h('ul', { class: 'log-events' }, e.events.map((ev) => h('li', {}, ev.case ? caseLink(ev.case) : null, ' ', ev.text))) : null));
    return this.card('log', 'Log', [
      log.length > max ? h('p', { class: 'small muted' }, `The last ${max} of ${log.length} entries. Export the record for all.`) : null,
      h('ol', { class: 'log-list', 'aria-label': 'Actions and events' }, items.length ? items : h('li', { class: 'muted small' }, 'Nothing yet.')),
      h('div', { class: 'btn-row' }, h('button', { type: 'button', class: 'btn', onclick: () => this.exportRecord() }, '⤓ Export the game record')),
    ], { count: String(this.v.actions_recorded) });
  }

  textCard() {
    const v = this.v;
    const onMap = v.units.filter((u) => u.status === 'map' && u.hex);
    /** @type {Map<string, Unit[]>} */
    const bySide = new Map();
    for (const u of onMap) bySide.set(u.side, [...(bySide.get(u.side) || []), u]);
    const body = [
      h('p', { class: 'small' }, `Game-turn ${v.turn} of ${v.first_turn}–${v.last_turn}${v.night ? ' (night)' : ''}; ${v.phasing} ${v.phase} phase, ${STEP_NAMES[v.step] || v.step}; ${v.to_act} to act.`),
      v.obligations.length ? h('p', { class: 'small' }, 'Obligations: ', v.obligations.map((o) => `${o.unit} ${o.case === '7.12' ? 'must attack' : 'must be attacked'} (${o.case})`).join('; '), '.') : null,
      v.combats.length ? h('p', { class: 'small' }, 'Combats: ', v.combats.map((c, i) => `${i + 1}: ${c.attackers.join(', ')} (${c.attack}) against ${c.defenders.join(', ')} (${c.defence}) at ${c.column}${c.resolved ? ', resolved' : ''}`).join('; '), '.') : null,
      ...[...bySide.entries()].map(([side, us]) => h('div', {}, h('h3', {}, `${side} (${us.length} on the map)`),
        h('table', { class: 'tbl text-map' }, h('thead', {}, h('tr', {}, h('th', {}, 'Unit'), h('th', {}, 'Type'), h('th', {}, 'S-M'), h('th', {}, 'Hex'), h('th', {}, 'Terrain'))),
          h('tbody', {}, us.sort((a, b) => (a.hex || '').localeCompare(b.hex || '')).map((u) => h('tr', {},
            h('td', {}, h('button', { type: 'button', class: 'link-btn', 'data-key': `tm:${u.id}`, onclick: () => this.selectUnit(u.id, true) }, u.id)),
            h('td', {}, `${nationColours(u.nation).name} ${u.type}`),
            h('td', {}, `${u.strength}-${u.movement}`),
            h('td', {}, /** @type {string} */ (u.hex)),
            h('td', {}, `${this.terrainOf(/** @type {string} */ (u.hex))}${this.placeOf(/** @type {string} */ (u.hex)) ? `, ${this.placeOf(/** @type {string} */ (u.hex))}` : ''}${u.moved ? '; moved' : ''}${u.in_combat ? '; in combat' : ''}`))))))),
    ];
    return this.card('text', 'Map as text', body, { open: false });
  }

  // ================================================================ interaction

  /** @param {string|null} id @param {boolean} [centre] */
  async selectUnit(id, centre = false) {
    if (this.selected === id && id !== null && !centre) id = null;
    this.selected = id;
    this.moves = null;
    const v = this.v;
    const u = id ? this.v.units.find((x) => x.id === id) : null;
    if (u?.hex && centre && this.board) {
      // from a list: bring the unit into view, close enough to read its counter
      if (this.board.view.k < 0.75) this.board.centreOn(u.hex, 0.95);
      else this.board.ensureVisible(u.hex);
    }
    if (u?.hex) this.board?.setCursor(u.hex, !!this.board?.keyboard && document.activeElement === this.board?.svg);
    this.renderBoard();
    this.renderSidebar();
    if (u) announce(`Selected ${this.unitText(u)}${u.hex ? ` in ${u.hex}` : ''}.`);
    if (id && v.step === 'movement' && this.replayN === null && this.canAct() && u && u.side === v.to_act) {
      const seq = ++this.movesSeq;
      try {
        const m = await api.moves(this.id, id);
        if (seq !== this.movesSeq || this.selected !== id) return;
        this.moves = { unit: id, list: m.destinations || [], dests: new Map((m.destinations || []).map((d) => [d.hex, d])), why_not: m.why_not };
        if (this.moves.list.length) announce(`${id}: ${plural(this.moves.list.length, 'legal destination')}.`);
        else if (m.why_not) announce(`${id} cannot move: ${m.why_not.case}: ${m.why_not.why}`);
        this.renderBoard();
        this.renderSidebar();
      } catch (e) {
        toast({ kind: 'error', title: `The moves of ${id} could not be loaded`, body: /** @type {Error} */ (e).message });
      }
    }
  }

  /** The player clicked (or pressed Enter on) a hex. @param {string} hex @param {'click'|'key'} how */
  activate(hex, how) {
    const v = this.v;
    const u = this.board?.unitAt.get(hex);
    const L = this.L;
    const sel = this.selected;
    void how;
    if (!this.canAct()) {
      if (u) this.selectUnit(u.id);
      else this.selectUnit(null);
      return;
    }
    if (v.step === 'movement') {
      if (sel && u?.id === sel) return void this.selectUnit(null);
      if (sel && L.moves.has(sel) && !u) {
        // a legal destination, or let the server say why not
        const act = L.moves.get(sel)?.get(hex) || `move ${sel} ${hex}`;
        return void this.act(act);
      }
      if (u) return void this.selectUnit(u.id);
      return void this.selectUnit(null);
    }
    if (v.step === 'declare') {
      if (sel && u && u.id === sel) return void this.selectUnit(null);
      if (sel && u && L.attacks.get(sel)?.has(u.id)) return void this.act(/** @type {string} */ (L.attacks.get(sel)?.get(u.id)));
      if (sel && u && L.targets.get(sel)?.has(u.id)) return void this.act(/** @type {string} */ (L.targets.get(sel)?.get(u.id)));
      const selU = sel ? v.units.find((x) => x.id === sel) : null;
      if (sel && u && selU && selU.side === v.to_act && u.side !== v.to_act && H.distance(/** @type {string} */ (selU.hex), hex) <= 2) {
        // not offered: ask the server, which explains the refusal
        return void this.act(`attack ${sel} ${u.id}`);
      }
      if (u) return void this.selectUnit(u.id);
      return void this.selectUnit(null);
    }
    if (v.step === 'retreat' || v.step === 'advance') {
      const pool = v.step === 'retreat' ? L.retreats : L.advances;
      if (sel && pool.get(sel)?.has(hex)) return void this.act(/** @type {string} */ (pool.get(sel)?.get(hex)));
      if (u && pool.has(u.id)) return void this.selectUnit(u.id);
      if (sel && pool.has(sel)) return void this.act(`${v.step} ${sel} ${hex}`);
      if (u) return void this.selectUnit(u.id);
      return;
    }
    if (v.step === 'choose' && u) {
      const i = v.combats.findIndex((c) => c.defenders.includes(u.id) || c.attackers.includes(u.id));
      if (i >= 0) {
        this.focusCombat = i;
        const card = /** @type {HTMLDetailsElement|null} */ (this.side_?.querySelector('.card-combats'));
        if (card) card.open = true;
        this.renderBoard();
        this.renderSidebar();
        /** @type {HTMLElement|null} */ (this.side_?.querySelectorAll('.combat-card')[i] || null)?.scrollIntoView({ block: 'nearest' });
      }
    }
    if (u) this.selectUnit(u.id);
    else this.selectUnit(null);
  }

  /** @param {string|null} hex */
  onHover(hex) {
    this.hover = hex;
    const b = this.board;
    if (!b) return;
    const d = hex && this.moves && this.moves.unit === this.selected ? this.moves.dests.get(hex) : null;
    b.showPath(d ? d.path : null);
    const show = hex || (b.cursorVisible ? b.cursor : null);
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
    if (!this.canAct()) return false;
    const step = this.v.step;
    const ok = (step === 'movement' && this.L.moves.has(unit)) || (step === 'retreat' && this.L.retreats.has(unit)) || (step === 'advance' && this.L.advances.has(unit)) || (step === 'declare' && this.L.attacks.has(unit));
    if (ok && this.selected !== unit) this.selectUnit(unit);
    return ok;
  }

  /** @param {string} unit @param {string} hex */
  drop(unit, hex) {
    const step = this.v.step;
    const target = this.board?.unitAt.get(hex);
    if (step === 'movement') {
      if (target?.id === unit) return;
      this.act(this.L.moves.get(unit)?.get(hex) || `move ${unit} ${hex}`);
    } else if (step === 'retreat') this.act(this.L.retreats.get(unit)?.get(hex) || `retreat ${unit} ${hex}`);
    else if (step === 'advance') this.act(this.L.advances.get(unit)?.get(hex) || `advance ${unit} ${hex}`);
    else if (step === 'declare' && target && target.id !== unit) this.act(this.L.attacks.get(unit)?.get(target.id) || `attack ${unit} ${target.id}`);
  }

  escape() {
    if (rules().isOpen) return rules().close();
    if (this.selected) this.selectUnit(null);
  }

  /** Global keys (not while typing). @param {KeyboardEvent} e */
  onKey(e) {
    const t = /** @type {HTMLElement} */ (e.target);
    const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z' && !typing) { e.preventDefault(); this.undo(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    const onMap = /** @type {Element} */ (t) === this.board?.svg;
    switch (e.key) {
      case '?': this.help(); break;
      case 'h': case 'H': this.toggle('numbers'); break;
      case 'z': case 'Z': this.toggle('zoc'); break;
      case 'p': case 'P': this.toggle('names'); break;
      case 'l': case 'L': this.toggle('legend'); break;
      case 'r': case 'R': rules().open(); break;
      case 'm': case 'M': this.board?.svg.focus(); break;
      case 'c': case 'C': e.preventDefault(); /** @type {HTMLElement|null} */ (this.side_?.querySelector('.cmd-input'))?.focus(); break;
      case 'Escape': if (!onMap) this.escape(); break;
      case '[': if (this.replayN !== null) this.replayTo(this.replayN - 1); break;
      case ']': if (this.replayN !== null) this.replayTo(this.replayN + 1); break;
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
    this.busy = true;
    document.body.classList.add('busy');
    const expect = this.state?.actions_recorded;
    try {
      const r = await api.act(this.id, action, expect, this.token);
      const s = r.state || applyChange(this.state, r.change) || await api.state(this.id);
      this.afterChange(s, r.events, r.accepted);
      return true;
    } catch (e) {
      this.refused(/** @type {ApiError} */ (e), action);
      return false;
    } finally {
      this.busy = false;
      document.body.classList.remove('busy');
      if (this.view) this.renderTop();
    }
  }

  /** @param {ApiError} e @param {string} action */
  async refused(e, action) {
    if (e.status === 409) {
      const before = this.state?.actions_recorded;
      await this.refresh();
      const moved = this.state?.actions_recorded !== before;
      toast({ kind: 'warn', title: moved ? 'The game moved on' : 'Not your turn', body: moved ? `${e.why}. The board shows the game as it stands now.` : e.why });
      return;
    }
    if (e.status === 401) {
      toast({ kind: 'error', title: 'Your seat token was refused', body: e.why });
      return;
    }
    const kind = e.status === 422 ? 'Refused' : e.status === 400 ? 'Not understood' : 'Error';
    toast({ kind: 'error', title: `${kind}: ${action}`, body: e.why, case: e.case && e.case !== 'action' ? e.case : undefined });
    announce(`${kind}: ${e.case ? e.case + ': ' : ''}${e.why}`);
  }

  /**
   * @param {StateView} state @param {import('./api.js').GameEvent[]} events @param {string[]} accepted
   */
  afterChange(state, events, accepted) {
    const prev = this.state;
    this.state = state;
    if (this.replayN === null) this.view = state;
    // what moved, to flash
    if (prev) {
      const before = new Map(prev.units.map((u) => [u.id, u]));
      for (const u of state.units) {
        const b = before.get(u.id);
        if (b && (b.hex !== u.hex || b.status !== u.status)) this.flash.add(u.id);
      }
    }
    const firstMove = accepted.find((a) => /^move /i.test(a));
    if (this.selected && firstMove) this.selected = null;
    if (this.selected && !state.legal.some((a) => a.includes(/** @type {string} */ (this.selected)))) {
      if (state.step !== 'movement') this.selected = null;
    }
    this.moves = null;
    this.focusCombat = null;
    this.render();
    if (this.selected && state.step === 'movement' && this.canAct()) this.selectUnit(this.selected);
    this.showEvents(events, accepted);
    if (accepted.length) announce(`Accepted: ${accepted.join('; ')}. ${state.to_act === 'over' ? '' : `${state.to_act} to act.`}`);
  }

  /** @param {import('./api.js').GameEvent[]} events @param {string[]} accepted */
  showEvents(events, accepted) {
    const rolls = accepted.map((a) => a.match(/^roll (\d)/i)).filter((m) => !!m);
    const computer = events.filter((e) => e.case === 'computer');
    const rest = events.filter((e) => e.text && e.case !== 'computer');
    if (computer.length) {
      const who = computer[0].text.match(/^(\w+)/)?.[1] || 'The computer';
      const plan = computer[0].text.replace(/^\S+\s+\([^)]*\)\s+/, '');
      const results = rest.filter((e) => e.case === '7.6');
      toast({
        kind: 'info',
        title: `${who} (computer) played ${plural(computer.length, 'action')}`,
        body: [h('div', { class: 'ev' }, plan.length > 320 ? plan.slice(0, 320) + '…' : plan),
          ...results.slice(0, 6).map((e) => h('div', { class: 'ev' }, caseLink(e.case || ''), ' ', e.text)),
          h('div', { class: 'ev small muted' }, 'Every action and its reason is in the log.')],
        timeout: 15000,
      });
      return;
    }
    const die = rolls.length ? Number(/** @type {RegExpMatchArray} */ (rolls[rolls.length - 1])[1]) : undefined;
    if (!rest.length && !die) return;
    const result = rest.find((e) => e.case === '7.6');
    if (rest.length === 1 && !result && !die) {
      toast({ kind: 'info', title: rest[0].text, case: rest[0].case, timeout: 6000 });
      return;
    }
    toast({
      kind: result ? 'result' : 'info',
      title: result ? 'Combat result' : die ? `The die shows ${die}` : plural(rest.length, 'event'),
      die,
      body: rest.slice(0, 8).map((e) => h('div', { class: 'ev' }, e.case ? caseLink(e.case) : null, ' ', e.text)),
      timeout: result ? 12000 : 7000,
    });
  }

  async refresh() {
    try {
      const s = await api.state(this.id);
      this.state = s;
      if (this.replayN === null) this.view = s;
      this.render();
    } catch (e) {
      toast({ kind: 'error', title: 'The game could not be reloaded', body: /** @type {Error} */ (e).message });
    }
  }

  async undo() {
    if (!this.token || this.busy || this.replayN !== null) return;
    if (!(this.state?.undoable)) { toast({ kind: 'warn', title: 'Nothing to take back', case: '5.14', body: 'Moves and declarations of the current phase may be taken back until a die is rolled.' }); return; }
    this.busy = true;
    try {
      const r = await api.undo(this.id, this.token);
      if (r.requested) {
        this.takeback = r.requested;
        this.renderTakeback();
        toast({ kind: 'info', title: 'Take-back asked', body: `Your opponent must consent before ${r.requested.actions.join(', ')} is taken back (5.14).`, timeout: 5000 });
        announce('Take-back asked: waiting for your opponent');
        return;
      }
      const s = (r.state ? normalizeState(r.state) : applyChange(this.state, r.change)) || await api.state(this.id);
      this.state = s;
      this.view = s;
      this.selected = null;
      this.moves = null;
      this.render();
      toast({ kind: 'info', title: `Took back: ${r.undone}`, timeout: 4000 });
      announce(`Took back ${r.undone}`);
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.status === 409) { await this.refused(err, 'undo'); return; }
      toast({ kind: 'error', title: 'Cannot take back', body: err.why, case: err.case });
    } finally {
      this.busy = false;
      this.renderTop();
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
    const what = t.actions.join(', ');
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
        const s = applyChange(this.state, r.change) || await api.state(this.id);
        this.state = s;
        if (this.replayN === null) this.view = s;
        this.selected = null;
        this.moves = null;
        this.render();
        toast({ kind: 'info', title: `Took back: ${r.undone}`, timeout: 4000 });
      } else {
        toast({ kind: 'info', title: r.takeback === 'withdrawn' ? 'Take-back withdrawn' : 'Take-back declined', timeout: 4000 });
      }
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      this.takeback = null;
      this.renderTakeback();
      toast({ kind: 'error', title: 'Cannot take back', body: err.why, case: err.case });
      if (err.status === 409) await this.refresh();
    } finally {
      this.busy = false;
      this.renderTop();
    }
  }

  async exportRecord() {
    try {
      const rec = await api.record(this.id);
      const blob = new Blob([JSON.stringify(rec, null, 2) + '\n'], { type: 'application/json' });
      const a = h('a', { href: URL.createObjectURL(blob), download: `grognard-${this.id}-${this.state?.actions_recorded ?? 0}.json` });
      document.body.append(a);
      /** @type {HTMLAnchorElement} */ (a).click();
      setTimeout(() => { URL.revokeObjectURL(/** @type {HTMLAnchorElement} */ (a).href); a.remove(); }, 1000);
      toast({ kind: 'info', title: 'Game record downloaded', timeout: 3000 });
    } catch (e) {
      toast({ kind: 'error', title: 'The record could not be exported', body: /** @type {Error} */ (e).message });
    }
  }

  // ---------------------------------------------------------------- replay

  toggleReplay() {
    if (this.replayN === null) {
      this.replayN = this.state?.actions_recorded || 0;
      this.selected = null;
      this.moves = null;
      if (this.banner) this.banner.hidden = true;
      this.renderReplayBar();
      this.render();
    } else {
      this.replayN = null;
      this.view = this.state;
      if (this.replayBar) this.replayBar.hidden = true;
      this.render();
    }
  }

  /** @param {number} n */
  async replayTo(n) {
    const max = this.state?.actions_recorded || 0;
    n = Math.max(0, Math.min(max, n));
    this.replayN = n;
    this.renderReplayBar();
    this.loadReplay();
  }

  loadReplay = debounce(async () => {
    const n = this.replayN;
    if (n === null) return;
    try {
      const s = n === this.state?.actions_recorded ? this.state : await api.replay(this.id, n);
      if (this.replayN !== n) return;
      this.view = s;
      this.render();
      this.renderReplayBar();
    } catch (e) {
      toast({ kind: 'error', title: `Position ${n} could not be loaded`, body: /** @type {Error} */ (e).message });
    }
  }, 120);

  renderReplayBar() {
    const bar = this.replayBar;
    if (!bar || this.replayN === null) return;
    bar.hidden = false;
    const max = this.state?.actions_recorded || 0;
    const n = this.replayN;
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
      h('span', { class: 'replay-pos' }, `${n} / ${max}`, entry?.action ? h('code', {}, ` ${entry.side === 'chance' ? 'die' : entry.side}: ${entry.action}`) : null),
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
      ws = new WebSocket(wsUrl(this.id));
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
        if (!msg.takeback && was && this.side === was.by && msg.why === 'declined') toast({ kind: 'warn', title: 'Take-back declined', body: 'Your opponent declined: the move stands.', timeout: 6000 });
        return;
      }
      if (msg.type === 'change' && msg.change) {
        this.onChange(msg.change, msg.events || []);
        return;
      }
      if (msg.type !== 'state' || !msg.state) return;
      if ('takeback' in msg) { this.takeback = msg.takeback || null; }
      {
        const s = normalizeState(msg.state);
        const cur = this.state;
        if (cur && s.state_hash === cur.state_hash && s.actions_recorded === cur.actions_recorded) return;
        if (this.busy) return; // our own reply will bring it
        const prevN = cur?.actions_recorded || 0;
        const newEntries = s.log.filter((e) => e.n > prevN);
        const accepted = newEntries.map((e) => e.action || '').filter(Boolean);
        const events = (msg.events && msg.events.length ? msg.events : newEntries.flatMap((e) => e.events));
        this.afterChange(s, events, accepted);
        if (this.replayN !== null) this.renderReplayBar();
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
    if (this.busy) return; // our own reply brings it
    let s = applyChange(cur, c);
    // the change lists no legal actions: when this seat acts next, fetch them with the whole state
    if (!s || (this.token && !s.outcome && s.to_act !== 'chance' && s.to_act !== 'over' && (!this.side || this.side === 'both' || this.side === s.to_act))) {
      try { s = await api.state(this.id); } catch { return; }
      if (this.state && this.state.actions_recorded === s.actions_recorded && this.state.state_hash === s.state_hash) return;
    }
    const accepted = (c.log || []).map((/** @type {any} */ e) => e.action || '').filter(Boolean);
    this.afterChange(s, events, accepted);
    if (this.replayN !== null) this.renderReplayBar();
    this.renderTakeback();
  }

  // ---------------------------------------------------------------- help

  help() {
    const dlg = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'help', 'aria-label': 'Help' },
      h('h2', {}, 'How to play'),
      h('p', {}, 'The server enforces every rule. The board offers only what the rules allow now, and every refusal names its case: click the case to read the rule.'),
      h('h3', {}, 'Mouse and touch'),
      h('ul', {},
        h('li', {}, 'Click one of your units: its legal destinations are shaded (darker is cheaper) with their cost; hover one to see the path; click it, or drag the counter there.'),
        h('li', {}, 'Combat: click an attacker, then the enemy unit it attacks. Ringed units must attack (7.12) or be attacked (7.11).'),
        h('li', {}, 'Resolve combats from the Combats panel, at the odds as they stand or lower (7.9).'),
        h('li', {}, 'Drag the map to pan; wheel or pinch to zoom.')),
      h('h3', {}, 'Keys'),
      h('table', { class: 'tbl keys' }, h('tbody', {}, [
        ['Tab', 'move between the map, the tools and the panels'],
        ['M', 'focus the map'], ['Arrow keys', 'move the hex cursor (on the map)'], ['Enter / Space', 'act on the hex under the cursor: select, move, attack'],
        ['Shift + arrows', 'pan'], ['+ / −', 'zoom'], ['0', 'fit the map'], ['Esc', 'deselect / close'],
        ['H', 'hex numbers'], ['Z', 'enemy zones of control'], ['P', 'place names'], ['L', 'legend'], ['R', 'rules reference'], ['C', 'command box'],
        ['Ctrl+Z', 'undo'], ['[ / ]', 'step the replay'], ['?', 'this help'],
      ].map(([k, d]) => h('tr', {}, h('td', {}, h('kbd', {}, k)), h('td', {}, d))))),
      h('h3', {}, 'Commands'),
      h('p', {}, 'Type any action in the command box: ', h('code', {}, 'move FR.4 2316'), ', ', h('code', {}, 'attack PR.9 FR.26'), ', ', h('code', {}, 'resolve FR.26 at 1-1'), ', ', h('code', {}, 'retreat PR.9 2517'), ', ', h('code', {}, 'hold'), ', ', h('code', {}, 'end'), '. Units by id or by the hex they stand in.'),
      h('form', { method: 'dialog' }, h('button', { class: 'btn btn-primary', autofocus: true }, 'Close'))));
    document.body.append(dlg);
    dlg.addEventListener('close', () => dlg.remove());
    dlg.showModal();
  }
}

/** A crescent moon (night turns, 10.0). */
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

/** True when `text` names the unit `id` as a whole word. @param {string} text @param {string} id */
function mentions(text, id) {
  const esc = id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(^|[\\s(,])${esc}(?=$|[\\s),:;])`).test(text);
}

/** A stacked bar of result probabilities with labels. @param {Record<string, number>} p */
function probBar(p) {
  const segs = RESULTS.filter(([k]) => (p[k] || 0) > 0);
  return h('div', { class: 'prob' },
    h('div', { class: 'prob-bar', role: 'img', 'aria-label': RESULTS.map(([k, d]) => `${k} (${d}) ${pct(p[k] || 0)}`).join(', ') },
      segs.map(([k, d]) => h('div', { class: `seg seg-${k}`, style: `flex:${p[k]};--c:${RESULT_COLOURS[/** @type {keyof RESULT_COLOURS} */ (k)]}`, title: `${k}: ${d}, ${pct(p[k] || 0)}` }, (p[k] || 0) >= 0.12 ? k : ''))),
    h('table', { class: 'prob-table' }, h('tbody', {}, h('tr', {}, RESULTS.map(([k, d]) => h('td', { title: d, class: (p[k] || 0) > 0 ? '' : 'zero' }, h('span', { class: `key key-${k}`, style: `--c:${RESULT_COLOURS[/** @type {keyof RESULT_COLOURS} */ (k)]}` }), k, h('br'), h('b', {}, pct(p[k] || 0))))))));
}

/** The map legend. */
function legend() {
  const sw = (/** @type {string} */ cls, /** @type {string} */ label) => h('li', {}, h('span', { class: `lg lg-${cls}`, 'aria-hidden': 'true' }), label);
  return h('aside', { class: 'legend', 'aria-label': 'Legend' },
    h('h2', {}, 'Legend'),
    h('div', { class: 'legend-cols' },
      h('ul', { class: 'plain' }, sw('clear', 'Clear'), sw('forest', 'Forest'), sw('rough', 'Rough'), sw('marsh', 'Marsh'), sw('town', 'Town')),
      h('ul', { class: 'plain' }, sw('river', 'River'), sw('stream', 'Stream'), sw('bridge', 'Bridge'), sw('road', 'Road'), sw('trail', 'Trail')),
      h('ul', { class: 'plain' }, ...Object.entries({ FR: 'French', PR: 'Prussian', AU: 'Austrian', RU: 'Russian', SW: 'Swedish' }).map(([k, n]) => h('li', {}, h('span', { class: 'lg lg-nation', style: `background:${nationColours(k).fill};color:${nationColours(k).text}`, 'aria-hidden': 'true' }, k), n))),
      h('ul', { class: 'plain' }, sw('dest', 'Legal destination (cost)'), sw('zoc', 'Enemy zone of control'), sw('oblig', 'Must attack / be attacked'), sw('moved', 'Has moved'), sw('incombat', 'In a declared combat'), sw('cand', 'Retreat / advance hex'))));
}
