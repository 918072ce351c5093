// Napoleon at War's sequence of play in the board's words (4.0, 4.1): each game-turn holds a
// player-turn for each side, each a movement phase then a combat phase (declare every attack,
// then resolve the combats one by one: the die, exchange losses, retreats, the advance). Night
// turns have no combat phase (10.0, 10.1) and stricter movement (10.2, 16.1); the French have no
// movement phase on the first game-turn (14.62). Also the names of the events the events panel
// lists, and the demoralization notes drawn from two positions (17.0).

/** @typedef {import('../../js/api.js').StateView} StateView */
/** @typedef {import('../../js/api.js').GameEvent} GameEvent */
/** @typedef {import('../../js/systems.js').Sequence} Sequence */

/** The steps of a combat phase, in order, with the state view's step names. */
const COMBAT_STEPS = [
  ['declare', 'Declare every attack'],
  ['choose', 'Pick a combat to resolve'],
  ['roll', 'The die'],
  ['losses', 'Exchange losses'],
  ['retreat', 'Retreats'],
  ['advance', 'Advance after combat'],
];

/** The sides in the order they play a game-turn (the first is the first phasing player). @param {StateView} v */
function sidesOf(v) {
  const sides = [...new Set(v.demoralization.map((d) => d.side))];
  return sides.length ? sides : [v.phasing];
}

/** The side that has no movement phase this game-turn (14.62), if any. @param {StateView} v */
function noMovement(v) {
  if (v.turn !== v.first_turn) return null;
  const setup = /** @type {GameEvent[]} */ (/** @type {any} */ (v).setup_events || v.log.find((e) => e.n === 0)?.events || []);
  return setup.find((e) => e.kind === 'no_movement')?.side || null;
}

/** Where the game stands in the game-turn, and why this turn differs. @param {StateView} v @returns {Sequence} */
export function sequence(v) {
  const sides = sidesOf(v);
  const still = noMovement(v);
  const nowAt = Math.max(0, sides.indexOf(v.phasing)) * 2 + (v.phase === 'combat' ? 1 : 0);
  /** @type {Sequence['phases']} */
  const phases = [];
  sides.forEach((side, i) => {
    for (const [k, phase] of /** @type {const} */ ([[0, 'movement'], [1, 'combat']])) {
      const at = i * 2 + k;
      const skipped = (phase === 'movement' && side === still) || (phase === 'combat' && v.night);
      const state = skipped ? 'skipped' : at < nowAt ? 'past' : at === nowAt ? 'now' : 'next';
      phases.push({
        label: `${side} ${phase} phase`,
        state,
        note: skipped ? (phase === 'movement' ? 'none this turn (14.62)' : 'none at night (10.1)') : undefined,
        steps: phase === 'combat' ? COMBAT_STEPS.map(([id, label]) => ({ label, now: id === v.step })) : [{ label: 'Move units, bring on reinforcements', now: v.step === 'movement' }],
      });
    }
  });
  /** @type {Sequence['notes']} */
  const notes = [];
  if (still) {
    notes.push({ case: '14.62', text: `the ${still} have no movement phase on the first game-turn, so they open the battle in their combat phase.` });
  }
  if (v.night) {
    notes.push({ case: '10.1', text: 'a night turn has no combat phase: the sides only move.' });
    notes.push({ case: '10.2', text: 'at night no unit may enter an enemy zone of control (see 16.1 for units already in one).' });
  } else {
    const next = v.night_turns.find((t) => t > v.turn && t <= v.last_turn);
    if (next === v.turn + 1) notes.push({ case: '10.0', text: `game-turn ${next} is a night turn: no combat, and movement near the enemy is restricted.` });
  }
  if (!notes.length) notes.push({ case: '4.1', text: `each game-turn the ${sides.join(', then the ')} move and then fight.` });
  return { phases, notes };
}

/** The name of an event in the events panel, or null for one it does not list. @param {GameEvent} e */
export function eventLabel(e) {
  switch (e.kind) {
    case 'combat': return `Combat${e.result ? ` · ${e.result}` : ''}`;
    case 'eliminated': return 'Eliminated';
    case 'entered': return 'Reinforcement';
    case 'delayed': return 'Delayed';
    case 'displaced': return 'Displaced';
    case 'advanced': return 'Advance';
    case 'cut_off': return 'Cut off';
    case 'no_movement': return 'No movement';
    case 'game_over': return 'Game over';
    case 'demoralization': return 'Demoralization';
    case 'computer': return null;
    default: return e.kind ? e.kind.replace(/_/g, ' ') : null;
  }
}

/**
 * The armies' losses that changed between two positions, as events of the panel (17.0): the
 * state view gives each army's losses and level, not an event.
 * @param {StateView} before @param {StateView} after @returns {GameEvent[]}
 */
export function changeNotes(before, after) {
  /** @type {GameEvent[]} */
  const out = [];
  for (const d of after.demoralization) {
    const was = before.demoralization.find((x) => x.army === d.army);
    if (!was || was.losses === d.losses) continue;
    const broke = was.losses < was.level && d.losses >= d.level;
    out.push({
      case: '17.0',
      kind: 'demoralization',
      text: broke
        ? `${d.army} army demoralized: ${d.losses} of ${d.level} strength points lost`
        : `${d.army} army: ${d.losses} of ${d.level} strength points lost (${d.losses > was.losses ? '+' : ''}${d.losses - was.losses}); ${Math.max(0, d.level - d.losses)} more to demoralization`,
    });
  }
  return out;
}
