// What the map notes from the state views, besides the counters: the reinforcements still to
// come (the units' `arrival`), and the moves a change made (the units' hexes before and after).
// Data only, read from the views and their typed events; no rules.

/** @typedef {import('../api.js').StateView} StateView */
/** @typedef {import('../api.js').Unit} Unit */

/**
 * The reinforcements still to arrive, by entry hex and turn: the units waiting with an
 * `arrival`, `late` when one of them was delayed (an event of kind `delayed` names it) or its
 * turn has passed.
 * @param {StateView} v
 * @returns {{hex: string, turn: number, units: Unit[], late: boolean}[]}
 */
export function arrivals(v) {
  const delayed = new Set();
  for (const e of v.log || []) for (const ev of e.events || []) if (ev.kind === 'delayed' && ev.unit) delayed.add(ev.unit);
  /** @type {Map<string, {hex: string, turn: number, units: Unit[], late: boolean}>} */
  const by = new Map();
  for (const u of v.units) {
    if (u.status !== 'waiting' || !u.arrival || !u.arrival.hex) continue;
    const key = `${u.arrival.hex} ${u.arrival.turn}`;
    let a = by.get(key);
    if (!a) by.set(key, (a = { hex: u.arrival.hex, turn: u.arrival.turn, units: [], late: false }));
    a.units.push(u);
    if (delayed.has(u.id) || u.arrival.turn < v.turn) a.late = true;
  }
  return [...by.values()].sort((a, b) => a.turn - b.turn || a.hex.localeCompare(b.hex));
}

/**
 * The units a change moved on the map: from their hex before to their hex after, leaving out
 * the units in `exclude` (those this board moved itself).
 * @param {StateView|null} before @param {StateView} after @param {Set<string>} [exclude]
 * @returns {{unit: string, side: string, from: string, to: string}[]}
 */
export function movesBetween(before, after, exclude = new Set()) {
  if (!before) return [];
  const was = new Map(before.units.map((u) => [u.id, u]));
  /** @type {{unit: string, side: string, from: string, to: string}[]} */
  const out = [];
  for (const u of after.units) {
    const b = was.get(u.id);
    if (!b || exclude.has(u.id) || u.id.startsWith('?')) continue;
    const onMap = (/** @type {Unit} */ x) => (x.status === 'map' || x.status === 'displaced') && !!x.hex;
    if (onMap(b) && onMap(u) && b.hex !== u.hex) out.push({ unit: u.id, side: u.side, from: /** @type {string} */ (b.hex), to: /** @type {string} */ (u.hex) });
  }
  return out;
}

/**
 * The units an action text names (its words that are unit ids of the view): what this board's
 * own action moves, so that its own moves are not shown as the opponent's.
 * @param {string} action @param {StateView} v
 */
export function unitsNamed(action, v) {
  const ids = new Set(v.units.map((u) => u.id));
  return new Set(action.split(/\s+/).filter((w) => ids.has(w)));
}
