// Reads the server's legal actions (the state view's `legal_actions`, or the texts of `legal`)
// into indexes the controller offers choices from: the board's "dests". This is reading only:
// the server decides what is legal; the board never adds an option the list does not hold.

/** @typedef {import('./api.js').LegalAction} LegalAction */

/**
 * @typedef {{
 *   all: string[],
 *   moves: Map<string, Map<string, string>>,
 *   attacks: Map<string, Map<string, string>>,
 *   targets: Map<string, Map<string, string>>,
 *   resolves: Map<string, {action: string|null, reduced: {odds: string, action: string}[]}>,
 *   retreats: Map<string, Map<string, string>>,
 *   advances: Map<string, Map<string, string>>,
 *   stands: Map<string, string>,
 *   facings: Map<string, Map<string, string>>,
 *   strikes: Map<string, Map<string, string>>,
 *   byUnit: Map<string, string[]>,
 *   loses: string[],
 *   rolls: string[],
 *   hold: string|null,
 *   end: string|null,
 *   other: string[],
 * }} Legal
 */

/**
 * The structure of an action text in the grammar of docs/actions.md: the fallback when the
 * server sends texts only. Unknown verbs are `kind: "other"`.
 * @param {string} text
 * @returns {LegalAction}
 */
export function parseAction(text) {
  const w = text.trim().split(/\s+/);
  const verb = (w[0] || '').toLowerCase();
  if ((verb === 'move' || verb === 'retreat' || verb === 'advance') && w.length === 3) return { text, kind: verb, unit: w[1], to: w[2] };
  if (verb === 'attack' && w.length === 3) return { text, kind: 'attack', unit: w[1], target: w[2] };
  if (verb === 'resolve' && w.length === 2) return { text, kind: 'resolve', target: w[1] };
  if (verb === 'resolve' && w.length === 4 && w[2] === 'at') return { text, kind: 'resolve', target: w[1], odds: w[3] };
  if (verb === 'stand' && w.length === 2) return { text, kind: 'stand', unit: w[1] };
  if (verb === 'lose') return { text, kind: 'lose', units: loseUnits(text) };
  if (verb === 'roll' || verb === 'hold' || verb === 'end') return { text, kind: verb };
  return { text, kind: 'other' };
}

/** @param {Map<string, Map<string, string>>} m @param {string} a @param {string} b @param {string} act */
function put(m, a, b, act) {
  if (!m.has(a)) m.set(a, new Map());
  /** @type {Map<string,string>} */ (m.get(a)).set(b, act);
}

/** The hexside directions an action may name as its `target` (a turn to face one). */
const SIDES = new Set(['E', 'NE', 'NW', 'W', 'SW', 'SE']);

/**
 * Indexes legal actions by what the board offers: moves by unit and hex, attacks by attacker
 * and target (and back), resolutions by defender, retreats and advances by unit and hex; the
 * actions of a hex toward one of its hexsides (a turn to face it: `from` and a direction as
 * `target`) by hex and direction (`facings`); and the actions of one hex into another that name
 * no unit (a hex attacking a hex: `from` and `to`) by hex and hex (`strikes`). The last two
 * stay among `other` too, for their buttons; the other actions that name a unit or a leader
 * (as `unit` or `target`) are listed by it too (`byUnit`), to offer with it when selected.
 * @param {LegalAction[]} actions
 * @returns {Legal}
 */
export function indexLegal(actions) {
  /** @type {Legal} */
  const L = {
    all: actions.map((a) => a.text),
    moves: new Map(),
    attacks: new Map(),
    targets: new Map(),
    resolves: new Map(),
    retreats: new Map(),
    advances: new Map(),
    stands: new Map(),
    facings: new Map(),
    strikes: new Map(),
    byUnit: new Map(),
    loses: [],
    rolls: [],
    hold: null,
    end: null,
    other: [],
  };
  for (const a of actions) {
    const act = a.text;
    if (a.kind === 'move' && a.unit && a.to) put(L.moves, a.unit, a.to, act);
    else if (a.kind === 'attack' && a.unit && a.target) {
      put(L.attacks, a.unit, a.target, act);
      put(L.targets, a.target, a.unit, act);
    } else if (a.kind === 'resolve' && a.target) {
      if (!L.resolves.has(a.target)) L.resolves.set(a.target, { action: null, reduced: [] });
      const r = /** @type {{action: string|null, reduced: {odds: string, action: string}[]}} */ (L.resolves.get(a.target));
      const odds = a.odds || parseAction(act).odds;
      if (odds) r.reduced.push({ odds, action: act });
      else r.action = act;
    } else if (a.kind === 'retreat' && a.unit && a.to) put(L.retreats, a.unit, a.to, act);
    else if (a.kind === 'advance' && a.unit && a.to) put(L.advances, a.unit, a.to, act);
    else if (a.kind === 'stand' && a.unit) L.stands.set(a.unit, act);
    else if (a.kind === 'lose') L.loses.push(act);
    else if (a.kind === 'roll') L.rolls.push(act);
    else if (a.kind === 'hold') L.hold = act;
    else if (a.kind === 'end') L.end = act;
    else {
      L.other.push(act);
      if (a.from && a.target && SIDES.has(a.target) && !a.unit && !a.to) put(L.facings, a.from, a.target, act);
      else if (a.from && a.to && !a.unit && !a.target) put(L.strikes, a.from, a.to, act);
      // the other actions that name a unit (or a leader): offered with it when it is selected
      for (const id of [a.unit, a.target]) {
        if (!id || SIDES.has(id)) continue;
        if (!L.byUnit.has(id)) L.byUnit.set(id, []);
        /** @type {string[]} */ (L.byUnit.get(id)).push(act);
      }
    }
  }
  return L;
}

/** The units a `lose` action names. @param {string} act */
export function loseUnits(act) {
  return act.replace(/^lose\s+/i, '').split(/\s*,\s*/).filter(Boolean);
}
