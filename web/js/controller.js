// The controller: turns what the player points at (a hex, a unit, a drag) into an intent —
// select a unit, send an action text, pick one unit of a stack, focus a combat — from the
// server's legal actions only (chessground's "dests": the server lists, the board offers). It
// knows the action grammar's kinds (move, attack, retreat, advance, resolve, ...), no rules.

import { indexLegal } from './actions.js';
import * as H from './hex.js';

/** @typedef {import('./api.js').StateView} StateView */
/** @typedef {import('./api.js').Unit} Unit */
/** @typedef {import('./api.js').Destination} Destination */
/**
 * @typedef {{do: 'act', action: string}
 *   | {do: 'select', unit: string|null}
 *   | {do: 'pick', hex: string, units: Unit[]}
 *   | {do: 'focus', combat: number, unit: string}
 *   | {do: 'confirm', action: string}} Intent
 */

export class Controller {
  constructor() {
    /** @type {string|null} */
    this.selected = null;
    /** @type {null | {unit: string, dests: Map<string, Destination>, list: Destination[], why_not: null | {case: string, why: string}}} */
    this.moves = null;
    /** @type {number|null} the combat the player looks at */
    this.focusCombat = null;
    /** @type {import('./actions.js').Legal} */
    this.L = indexLegal([]);
  }

  /**
   * Reads the legal actions of the state shown (none when this browser may not act), drops a
   * selection that means nothing any more, and in retreats and advances selects the unit to place.
   * @param {StateView} v @param {boolean} canAct
   */
  update(v, canAct) {
    this.L = indexLegal(canAct ? v.legal_actions : []);
    if (this.selected && !v.units.some((u) => u.id === this.selected)) this.selected = null;
    // a retreat's route to choose after a combat (in a step of another name) selects its unit too
    const pool = v.step === 'retreat' || (v.step !== 'movement' && v.step !== 'advance' && this.L.retreats.size) ? this.L.retreats : v.step === 'advance' ? this.L.advances : null;
    if (pool && !(this.selected && pool.has(this.selected)) && pool.size >= 1) this.selected = /** @type {string} */ (pool.keys().next().value);
  }

  /** Units that may act now (drawn as such). @param {StateView} v */
  actable(v) {
    /** @type {Set<string>} */
    const out = new Set();
    if (v.step === 'movement') for (const u of this.L.moves.keys()) out.add(u);
    return out;
  }

  /**
   * The hexsides the player may turn a stack to face now, by hex (the server's legal facings):
   * the selected unit's hex's, else those of every hex when there are few (a reaction to make).
   * @param {StateView} v @returns {Map<string, Map<string, string>>|null}
   */
  facingChoices(v) {
    const F = this.L.facings;
    if (!F.size) return null;
    const hex = this.selected ? v.units.find((u) => u.id === this.selected)?.hex : null;
    if (hex && F.has(hex)) return new Map([[hex, /** @type {Map<string, string>} */ (F.get(hex))]]);
    return F.size <= 3 ? F : null;
  }

  /**
   * Hexes to highlight: targets and attackers of the selected unit, retreat and advance hexes.
   * @param {StateView} v @param {Map<string, Unit>} byId @returns {Map<string, string>} hex -> kind
   */
  candidates(v, byId) {
    /** @type {Map<string, string>} */
    const cands = new Map();
    const sel = this.selected;
    if (sel) {
      for (const t of this.L.attacks.get(sel)?.keys() || []) { const u = byId.get(t); if (u?.hex) cands.set(u.hex, 'target'); }
      for (const a of this.L.targets.get(sel)?.keys() || []) { const u = byId.get(a); if (u?.hex) cands.set(u.hex, 'attacker'); }
    }
    // a hex's attack on another hex (the server's `strikes`): the targets of the selected
    // unit's hex, else every hex that may strike
    const from = sel ? byId.get(sel)?.hex : null;
    const strikes = from ? this.L.strikes.get(from) : null;
    if (strikes) for (const hx of strikes.keys()) cands.set(hx, 'target');
    else for (const hx of this.L.strikes.keys()) if (!cands.has(hx)) cands.set(hx, 'attacker');
    for (const [pool, kind] of /** @type {const} */ ([[this.L.retreats, 'retreat'], [this.L.advances, 'advance']])) {
      if (sel) for (const hx of pool.get(sel)?.keys() || []) cands.set(hx, kind);
      for (const id of pool.keys()) { const u = byId.get(id); if (u?.hex && id !== sel && !cands.has(u.hex)) cands.set(u.hex, 'attacker'); }
    }
    return cands;
  }

  /**
   * The player clicked (or pressed Enter on) a hex holding `units` (top first).
   * @param {StateView} v @param {boolean} canAct @param {string} hex @param {Unit[]} units
   * @param {Set<string>|null} range the selected unit's range (server overlay), if any
   * @returns {Intent}
   */
  onHex(v, canAct, hex, units, range = null) {
    const sel = this.selected;
    if (canAct && sel) {
      // a legal action of the selected unit into this hex comes first
      const into = this.L.moves.get(sel)?.get(hex) || this.L.retreats.get(sel)?.get(hex) || this.L.advances.get(sel)?.get(hex);
      if (into) return { do: 'act', action: into };
      // an attack of the selected unit's hex on this one: shown with its odds, then confirmed
      const from = v.units.find((u) => u.id === sel)?.hex;
      const strike = from ? this.L.strikes.get(from)?.get(hex) : null;
      if (strike) return { do: 'confirm', action: strike };
    }
    if (units.length > 1) {
      // a stack: the player picks one, unless exactly one of them is the selected unit's target
      const targets = sel ? units.filter((u) => this.L.attacks.get(sel)?.has(u.id) || this.L.targets.get(sel)?.has(u.id)) : [];
      if (canAct && targets.length === 1) return this.onUnit(v, canAct, hex, targets[0], range);
      return { do: 'pick', hex, units };
    }
    return this.onUnit(v, canAct, hex, units[0], range);
  }

  /**
   * The player chose a unit (or an empty hex: `u` undefined) on the map.
   * @param {StateView} v @param {boolean} canAct @param {string} hex @param {Unit|undefined} u
   * @param {Set<string>|null} range
   * @returns {Intent}
   */
  onUnit(v, canAct, hex, u, range = null) {
    const L = this.L;
    const sel = this.selected;
    const select = (/** @type {string|null} */ id) => /** @type {Intent} */ ({ do: 'select', unit: id });
    if (!canAct) return select(u ? u.id : null);
    if (v.step === 'movement') {
      if (sel && u?.id === sel) return select(null);
      if (sel && L.moves.has(sel) && !u) return { do: 'act', action: L.moves.get(sel)?.get(hex) || `move ${sel} ${hex}` };
      return select(u ? u.id : null);
    }
    if (v.step === 'declare') {
      if (sel && u && u.id === sel) return select(null);
      const act = sel && u ? L.attacks.get(sel)?.get(u.id) || L.targets.get(sel)?.get(u.id) : null;
      if (act) return { do: 'act', action: act };
      const selU = sel ? v.units.find((x) => x.id === sel) : null;
      if (sel && u && selU?.hex && selU.side === v.to_act && u.side !== v.to_act && !u.hidden
        && (H.distance(selU.hex, hex) === 1 || range?.has(hex))) {
        // not offered: ask the server, which explains the refusal
        return { do: 'act', action: `attack ${sel} ${u.id}` };
      }
      return select(u ? u.id : null);
    }
    if (v.step === 'retreat' || v.step === 'advance') {
      const pool = v.step === 'retreat' ? L.retreats : L.advances;
      if (u && pool.has(u.id)) return select(u.id);
      if (sel && pool.has(sel)) return { do: 'act', action: `${v.step} ${sel} ${hex}` };
      return select(u ? u.id : sel);
    }
    if (u) {
      const i = v.combats.findIndex((c) => c.defenders.includes(u.id) || c.attackers.includes(u.id));
      if (i >= 0 && v.step === 'choose') return { do: 'focus', combat: i, unit: u.id };
    }
    return select(u ? u.id : null);
  }

  /** May the player drag this unit now? @param {StateView} v @param {boolean} canAct @param {string} unit */
  canDrag(v, canAct, unit) {
    if (!canAct) return false;
    const L = this.L, step = v.step;
    return (step === 'movement' && L.moves.has(unit)) || (step === 'retreat' && L.retreats.has(unit)) || (step === 'advance' && L.advances.has(unit)) || (step === 'declare' && L.attacks.has(unit));
  }

  /**
   * The action a drop means: a unit dragged onto a hex (onto `target`, the unit there).
   * @param {StateView} v @param {string} unit @param {string} hex @param {Unit|undefined} target
   * @returns {string|null}
   */
  onDrop(v, unit, hex, target) {
    const L = this.L, step = v.step;
    if (step === 'movement') return target?.id === unit ? null : L.moves.get(unit)?.get(hex) || `move ${unit} ${hex}`;
    if (step === 'retreat') return L.retreats.get(unit)?.get(hex) || `retreat ${unit} ${hex}`;
    if (step === 'advance') return L.advances.get(unit)?.get(hex) || `advance ${unit} ${hex}`;
    if (step === 'declare' && target && target.id !== unit) return L.attacks.get(unit)?.get(target.id) || `attack ${unit} ${target.id}`;
    return null;
  }
}
