// Reads the list of legal action texts (the state view's `legal`) into indexes the board uses to
// offer choices. This is parsing only: the server decides what is legal; the board never adds
// an option the list does not hold.

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
 *   loses: string[],
 *   rolls: string[],
 *   hold: string|null,
 *   end: string|null,
 *   other: string[],
 * }} Legal
 */

/** @param {Map<string, Map<string, string>>} m @param {string} a @param {string} b @param {string} act */
function put(m, a, b, act) {
  if (!m.has(a)) m.set(a, new Map());
  /** @type {Map<string,string>} */ (m.get(a)).set(b, act);
}

/**
 * @param {string[]} legal
 * @returns {Legal}
 */
export function indexLegal(legal) {
  /** @type {Legal} */
  const L = {
    all: legal,
    moves: new Map(),
    attacks: new Map(),
    targets: new Map(),
    resolves: new Map(),
    retreats: new Map(),
    advances: new Map(),
    stands: new Map(),
    loses: [],
    rolls: [],
    hold: null,
    end: null,
    other: [],
  };
  for (const act of legal) {
    const w = act.trim().split(/\s+/);
    const verb = w[0].toLowerCase();
    if (verb === 'move' && w.length === 3) put(L.moves, w[1], w[2], act);
    else if (verb === 'attack' && w.length === 3) {
      put(L.attacks, w[1], w[2], act);
      put(L.targets, w[2], w[1], act);
    } else if (verb === 'resolve' && (w.length === 2 || (w.length === 4 && w[2] === 'at'))) {
      if (!L.resolves.has(w[1])) L.resolves.set(w[1], { action: null, reduced: [] });
      const r = /** @type {{action: string|null, reduced: {odds: string, action: string}[]}} */ (L.resolves.get(w[1]));
      if (w.length === 2) r.action = act;
      else r.reduced.push({ odds: w[3], action: act });
    } else if (verb === 'retreat' && w.length === 3) put(L.retreats, w[1], w[2], act);
    else if (verb === 'advance' && w.length === 3) put(L.advances, w[1], w[2], act);
    else if (verb === 'stand' && w.length === 2) L.stands.set(w[1], act);
    else if (verb === 'lose') L.loses.push(act);
    else if (verb === 'roll') L.rolls.push(act);
    else if (verb === 'hold') L.hold = act;
    else if (verb === 'end') L.end = act;
    else L.other.push(act);
  }
  return L;
}

/** The units a `lose` action names. @param {string} act */
export function loseUnits(act) {
  return act.replace(/^lose\s+/i, '').split(/\s*,\s*/).filter(Boolean);
}

/** Order of the odds columns, weakest first. */
export const COLUMNS = ['1-5', '1-4', '1-3', '1-2', '1-1', '2-1', '3-1', '4-1', '5-1', '6-1'];

/** Human words for the step of a phase. @type {Record<string, string>} */
export const STEP_NAMES = {
  movement: 'Movement',
  declare: 'Declaring attacks',
  choose: 'Choosing a combat',
  roll: 'Rolling the die',
  losses: 'Exchange losses',
  retreat: 'Retreats',
  advance: 'Advance after combat',
  over: 'Game over',
};

/** What the player to act is asked to do, per step. @type {Record<string, string>} */
export const STEP_HINTS = {
  movement: 'Select a unit to see where it may go, then click a shaded hex (or drag the counter there). End the phase when done.',
  declare: 'Click one of your units, then the enemy unit it attacks. Units that must attack or be attacked are ringed. End when every obligation is met.',
  choose: 'Pick a declared combat and resolve it, at its odds or lower (7.9).',
  roll: 'The die is rolled.',
  losses: 'Choose which attacking units are lost in the exchange (7.6).',
  retreat: 'Retreat each unit one hex: click a highlighted hex.',
  advance: 'A victorious unit may advance into the vacated hex: select it and click the hex, or hold.',
  over: 'The game is over.',
};
