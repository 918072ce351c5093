// The hover card: what a wargamer reads off a hex before acting. The hex's terrain with its
// movement and combat effects and its hexsides (river, bridge, stream, road) with theirs, all
// from the server's charts (`GET /api/tables`: the board holds no table); who controls the hex
// (the units in it, the zones of control of the state view's `overlays`); each unit's details;
// reinforcements due there. In the declaring step, with an attacker selected, a hex holding an
// enemy unit that the server lists as its legal target (`legal_actions`, kind `attack`) also
// shows the odds, the column, the result probabilities and the terrain effects of the combat
// the declaration would make (`GET /api/games/{id}/preview`), cached per state and action,
// asked for after a short pause (debounced); so does a hex the selected unit's hex may attack
// (a legal action of one hex into another), drawn by the system's panel (`previewView`: a
// melee's strengths, shifts and chances). The keyboard's hex cursor shows it too.

import { h, fill, debounce } from '../util.js';
import * as H from '../hex.js';
import { api } from '../api.js';

/** @typedef {import('../api.js').Unit} Unit */
/** @typedef {import('../api.js').Combat} Combat */
/** @typedef {import('../api.js').Tables} Tables */
/** @typedef {{terrain: string, kind: string, name: string, movement: string, combat: string, case?: string}} TecRow */
/** A preview as the board keeps it: the combat a declaration would make (Napoleon at War's
 *  answer), the whole answer for the system's panel, or why there is none.
 *  @typedef {{combat: Combat|null, answer?: any, error?: string}} Preview */

/** How long the pointer rests on a target before its odds are asked for, in ms. */
const PREVIEW_PAUSE = 150;

/** The hexside directions in words. @type {Record<string, string>} */
const DIR_WORDS = { E: 'east', NE: 'north-east', NW: 'north-west', W: 'west', SW: 'south-west', SE: 'south-east' };

export class HoverCard {
  /** @param {import('../game.js').Game} game */
  constructor(game) {
    this.game = game;
    this.el = h('div', { class: 'hover-card', role: 'tooltip', hidden: true });
    this.odds = h('div', { class: 'hover-odds', 'aria-live': 'polite' });
    (game.mapHost?.parentElement || document.body).append(this.el);
    /** @type {Tables|null|undefined} undefined: not asked yet; null: the system has none */
    this.tables = undefined;
    /** @type {Promise<void>|null} */
    this.loading = null;
    /** @type {Map<string, Preview>} previews by state hash and action */
    this.previews = new Map();
    /** @type {string|null} the hex shown */
    this.hex = null;
    /** @type {string|null} the preview wanted now */
    this.wanted = null;
    this.fetchPreview = debounce(() => this.loadPreview(), PREVIEW_PAUSE);
  }

  /** The server's charts, asked for once. */
  loadTables() {
    if (this.tables !== undefined || this.loading) return;
    this.loading = api.tables(this.game.v?.system).then((t) => { this.tables = t || null; }, () => { this.tables = null; })
      .finally(() => { this.loading = null; if (this.hex) this.show(this.hex); });
  }

  /** A chart row of a terrain or a hexside feature. @param {string} id @param {'hex'|'hexside'} kind @returns {TecRow|null} */
  tec(id, kind) {
    const rows = this.tables?.tec?.rows || [];
    return rows.find((r) => r.terrain === id && r.kind === kind) || rows.find((r) => r.terrain === id) || null;
  }

  /**
   * Shows the card for a hex (null hides it).
   * @param {string|null} hex @param {boolean} [keyboard] the hex cursor's hex, not the pointer's
   */
  show(hex, keyboard = false) {
    const game = this.game;
    const b = game.board;
    const v = game.v;
    this.hex = hex;
    if (!hex || !b || !v || !b.contains(hex)) { this.hide(); return; }
    this.loadTables();
    const styles = b.styles;
    const terrain = b.terrain.get(hex) || '';
    const tname = styles.terrain.get(terrain)?.name || terrain;
    const place = b.places.get(hex);
    const row = this.tec(terrain, 'hex');
    /** @type {(Node|string|null)[]} */
    const parts = [];
    parts.push(h('div', { class: 'hc-head' }, h('b', {}, `${hex}`), ` ${tname}`, place ? h('i', {}, ` · ${place}`) : null));
    parts.push(row ? this.effects(row) : h('div', { class: 'hc-muted' }, this.tables === undefined ? 'Loading the terrain chart…' : 'No chart for this terrain.'));
    // hexsides
    const sides = [];
    for (const side of game.map?.hexsides || []) {
      if (side.a !== hex && side.b !== hex) continue;
      const other = side.a === hex ? side.b : side.a;
      const dir = H.isHex(other) ? H.directionTo(hex, other) : other;
      for (const feat of side.features) sides.push({ feat, dir: dir || '' });
    }
    if (sides.length) {
      /** @type {Map<string, string[]>} */
      const byFeat = new Map();
      for (const x of sides) byFeat.set(x.feat, [...(byFeat.get(x.feat) || []), DIR_WORDS[x.dir] || x.dir]);
      parts.push(h('div', { class: 'hc-sides' }, [...byFeat].map(([feat, dirs]) => {
        const r = this.tec(feat, 'hexside');
        const name = styles.features.get(feat)?.name || feat;
        return h('div', { class: 'hc-side', 'data-feature': feat }, h('b', {}, name), ` (${dirs.join(', ')})`,
          r ? h('div', { class: 'hc-eff' }, `Movement: ${r.movement}. Combat: ${r.combat}.`, r.case ? h('span', { class: 'hc-case' }, ` ${r.case}`) : null) : null);
      })));
    }
    // who controls it
    const units = b.unitsIn(hex);
    const holders = [...new Set(units.map((u) => u.side))];
    // a unit's own side's zone of control over its hex says nothing: the other side's is what
    // holds it in place
    const zoc = Object.entries(v.overlays?.zoc || {})
      .filter(([side, hexes]) => (hexes || []).includes(hex) && !holders.includes(side))
      .map(([side]) => side);
    const control = [];
    if (units.length) control.push(`Held by ${holders.join(' and ')}`);
    if (zoc.length) control.push(`in the zone of control of ${zoc.join(' and ')}`);
    else if (v.overlays?.zoc) control.push(units.length ? 'in no enemy zone of control' : 'in no zone of control');
    if (control.length) parts.push(h('div', { class: 'hc-control' }, control.join(', ') + '.'));
    // the units
    for (const u of units) parts.push(this.unit(u));
    // reinforcements due here
    const due = v.units.filter((u) => u.status === 'waiting' && u.arrival?.hex === hex);
    if (due.length) parts.push(h('div', { class: 'hc-reinf' }, `Arriving here: ${due.map((u) => `${u.id} (turn ${u.arrival?.turn})`).join(', ')}`));
    // odds before declaring
    const target = this.target(hex);
    if (target) {
      parts.push(this.odds);
      this.wanted = `${v.state_hash} ${target}`;
      const got = this.previews.get(this.wanted);
      if (got) this.fillOdds(target, got);
      else {
        fill(this.odds, h('div', { class: 'hc-muted' }, `${target}: odds…`));
        this.fetchPreview();
      }
    } else this.wanted = null;
    fill(this.el, ...parts);
    this.el.hidden = false;
    this.el.classList.toggle('keyboard', keyboard);
    this.place(hex);
  }

  hide() {
    this.el.hidden = true;
    this.wanted = null;
  }

  /** The movement and combat effects of a chart row. @param {TecRow} r */
  effects(r) {
    return h('div', { class: 'hc-eff' }, `Movement: ${r.movement}. Combat: ${r.combat}.`, r.case ? h('span', { class: 'hc-case' }, ` ${r.case}`) : null);
  }

  /** A unit's details. @param {Unit} u */
  unit(u) {
    const sys = this.game.system;
    if (u.hidden) return h('div', { class: 'hc-unit' }, `A hidden ${u.side} unit`);
    const notes = [u.moved ? 'has moved' : '', u.in_combat ? 'in a declared combat' : '', ...(u.markers || []).map((m) => m.replace(/_/g, ' '))].filter(Boolean);
    return h('div', { class: 'hc-unit', 'data-unit': u.id }, h('b', {}, u.id), ' ', sys.unitLines(u).join('. '), notes.length ? `. ${notes.join(', ')}` : '', '.');
  }

  /**
   * The legal declaration the selected unit may make against a unit in the hex (the server's
   * `legal_actions` of kind `attack`), or the attack of its hex on this hex (`strikes`), if any.
   * @param {string} hex @returns {string|null}
   */
  target(hex) {
    const game = this.game;
    const sel = game.ctl.selected;
    if (!sel || !game.canAct() || !game.token) return null;
    const ids = new Set((game.board?.unitsIn(hex) || []).map((u) => u.id));
    const a = game.v.legal_actions.find((x) => x.kind === 'attack' && x.unit === sel && !!x.target && ids.has(x.target));
    if (a) return a.text;
    const from = game.v.units.find((u) => u.id === sel)?.hex;
    return (from && game.ctl.L.strikes.get(from)?.get(hex)) || null;
  }

  /** Asks the server what the wanted declaration would make (once per state and action). */
  async loadPreview() {
    const key = this.wanted;
    if (!key || this.previews.has(key)) return;
    const action = key.slice(key.indexOf(' ') + 1);
    const got = await fetchPreview(this.game, action);
    this.previews.set(key, got);
    if (this.previews.size > 200) this.previews.delete(/** @type {string} */ (this.previews.keys().next().value));
    if (this.wanted === key) this.fillOdds(action, got);
  }

  /** @param {string} action @param {Preview} got */
  fillOdds(action, got) {
    fill(this.odds, ...previewNodes(this.game, action, got), h('div', { class: 'hc-muted' }, `If declared: ${action}`));
  }

  /** Puts the card beside the hex, inside the map. @param {string} hex */
  place(hex) {
    const b = this.game.board;
    const area = this.el.parentElement;
    if (!b || !area) return;
    const ar = area.getBoundingClientRect();
    const [x, y] = b.clientPoint(hex);
    const r = this.el.getBoundingClientRect();
    const gap = 0.55 * 60 * b.view.k + 8;
    let left = x - ar.left + gap;
    if (left + r.width > ar.width - 6) left = x - ar.left - gap - r.width;
    left = Math.max(6, Math.min(left, ar.width - r.width - 6));
    const top = Math.max(6, Math.min(y - ar.top - r.height / 2, ar.height - r.height - 6));
    this.el.style.left = `${Math.round(left)}px`;
    this.el.style.top = `${Math.round(top)}px`;
  }
}

/**
 * Asks the server what an action would make (`GET /api/games/{id}/preview`), without taking it.
 * @param {import('../game.js').Game} game @param {string} action @returns {Promise<Preview>}
 */
export async function fetchPreview(game, action) {
  try {
    const r = await api.preview(game.id, action, game.token);
    return { combat: r.combat || null, answer: r };
  } catch (e) {
    return { combat: null, error: /** @type {any} */ (e).why || /** @type {Error} */ (e).message };
  }
}

/**
 * A preview for the player: the combat a declaration would make (its column, strengths, the
 * chance of each result and the terrain's effects), or the system's own view of the answer.
 * @param {import('../game.js').Game} game @param {string} action @param {Preview} got
 * @returns {Node[]}
 */
export function previewNodes(game, action, got) {
  const cb = got.combat;
  if (!cb) {
    const own = got.answer && game.system.previewView ? game.system.previewView(got.answer) : null;
    if (own) return [own];
    return [h('div', { class: 'hc-muted' }, `${action}: no preview (${got.error || 'the server gave none'}).`)];
  }
  const order = ['Ae', 'Ar', 'Ex', 'Dr', 'De'];
  const codes = [...order.filter((c) => c in cb.probabilities), ...Object.keys(cb.probabilities).filter((c) => !order.includes(c))];
  return [
    h('div', { class: 'hc-odds-head' }, h('span', { class: 'hc-column' }, cb.column), ` ${cb.attack} attack against ${cb.defence} defence`,
      cb.attackers.length > 1 ? ` (${cb.attackers.join(', ')})` : ''),
    h('div', { class: 'hc-probs' }, codes.map((c) => h('span', { class: `hc-prob p-${c}`, 'data-code': c }, `${c} ${Math.round((cb.probabilities[c] || 0) * 100)}%`))),
    cb.terrain.length ? h('div', { class: 'hc-terrain' }, cb.terrain.join('; ')) : h('div', { class: 'hc-terrain' }, 'No terrain effect.'),
  ];
}
