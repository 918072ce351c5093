// Napoleon at War (SPI's folio system, crates/naw): the panel the generic board asks for this
// system's look and words. Counters in period style (nation colours, NATO symbols,
// strength-movement), the names of steps and obligations (7.11, 7.12, 8.41), and the side panels
// of combat (odds, result probabilities, the result, demoralization risk) and of the armies'
// demoralization (17.0). Registered under the system id `naw`.

import { s } from '../../js/util.js';
import { armSymbol } from '../../js/views/symbol.js';
import { registerSystem } from '../../js/systems.js';
import { combatsCard, tableFocus } from './combat.js';
import { sequence, eventLabel, changeNotes } from './sequence.js';
import { armiesCard } from './armies.js';

/** @typedef {import('../../js/api.js').Unit} Unit */
/** @typedef {import('../../js/systems.js').Colours} Colours */

/**
 * Counter colours (fill, text) of the nations of the scenarios, as in crates/render's palette
 * (Okabe-Ito based): FR blue, PR dark grey, AU cream, RU green, SW yellow.
 * @type {Record<string, Colours>}
 */
export const NATIONS = {
  FR: { fill: '#0072B2', text: '#FFFFFF', name: 'French' },
  PR: { fill: '#2B2B2B', text: '#FFFFFF', name: 'Prussian' },
  AU: { fill: '#F3EBD3', text: '#1A1A1A', name: 'Austrian' },
  RU: { fill: '#00775A', text: '#FFFFFF', name: 'Russian' },
  SW: { fill: '#F0E442', text: '#1A1A1A', name: 'Swedish' },
};

/**
 * Each nation's mark on its counters (a shape of the board's `MARKS`), so that nations are told
 * apart without colour: FR a disc, RU a triangle, PR a square, AU a diamond, SW a cross.
 * @type {Record<string, string>}
 */
export const NATION_MARKS = { FR: 'disc', RU: 'triangle', PR: 'square', AU: 'diamond', SW: 'cross' };

/** @param {string} nation @returns {Colours} */
export function nationColours(nation) {
  return NATIONS[nation] || { fill: '#BBBBBB', text: '#1A1A1A', name: nation };
}

/** The colour that stands for a side (its first nation's). @param {string} side @returns {Colours} */
export function sideColour(side) {
  return side === 'French' ? NATIONS.FR : side === 'Allied' ? NATIONS.RU : { fill: '#666666', text: '#FFFFFF', name: side };
}

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
  declare: 'Click one of your units, then the enemy unit it attacks. Units that must attack, be attacked, or (artillery) attack or bombard are ringed. End when every obligation is met.',
  choose: 'Pick a declared combat and resolve it, at its odds or lower (7.9).',
  roll: 'The die is rolled.',
  losses: 'Choose which attacking units are lost in the exchange (7.6).',
  retreat: 'Retreat each unit one hex: click a highlighted hex.',
  advance: 'A victorious unit may advance into the vacated hex: select it and click the hex, or hold.',
  over: 'The game is over.',
};

/**
 * What each obligation of the combat phase asks (docs/architecture.md: 7.11, 7.12, 8.41).
 * @type {Record<string, string>}
 */
export const OBLIGATIONS = {
  '7.11': 'must be attacked',
  '7.12': 'must attack',
  '8.41': 'must attack or bombard',
};

/** The face of a counter: NATO symbol (infantry X, cavalry diagonal, artillery dot), designation
 *  above, strength-movement below, the nation's code along the left edge (colour is never the
 *  only cue). @param {Unit} u @param {number} k the counter's size @param {Colours} c */
function counterFace(u, k, c) {
  const S = k / 0.72;
  const f = (/** @type {number} */ n) => (Math.round(n * 100) / 100).toString();
  const text = c.text;
  /** @type {SVGElement[]} */
  const out = [];
  const { els, y: by } = armSymbol(u.type, k, text);
  out.push(...els);
  const chars = Math.max(1, [...u.designation].length);
  const fs = Math.min(0.16 * S, (0.6 * S) / (0.6 * chars));
  out.push(s('text', { x: f(0.02 * S), y: f(by - 0.04 * S), 'font-size': f(fs), fill: text, 'text-anchor': 'middle', class: 'designation' }, u.designation));
  // strength-movement large enough to read at the opening view (issue 12): squeezed, not
  // shrunk, when it has four characters or more
  const sm = `${u.strength}-${u.movement}`;
  out.push(s('text', { x: f(0.02 * S), y: f(0.3 * S), 'font-size': f(0.25 * S), 'font-weight': 'bold', fill: text, 'text-anchor': 'middle', class: 'sm', ...(sm.length >= 4 ? { textLength: f(0.62 * S), lengthAdjust: 'spacingAndGlyphs' } : {}) }, sm));
  out.push(s('text', { x: 0, y: 0, 'font-size': f(0.1 * S), fill: text, 'fill-opacity': 0.85, 'text-anchor': 'middle', transform: `translate(${f(-k / 2 + 0.075 * S)},${f(-0.02 * S)}) rotate(-90)`, 'letter-spacing': 0.5 }, u.nation));
  return out;
}

/** A leader's face: its designation across a round counter. @param {Unit} u @param {number} k @param {Colours} c */
function leaderFace(u, k, c) {
  const fs = Math.min(0.3 * k, (1.4 * k) / Math.max(3, [...(u.designation || u.id)].length));
  return [s('text', { y: (fs * 0.35).toFixed(2), 'font-size': fs.toFixed(2), fill: c.text, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'designation' }, u.designation || u.id)];
}

/** @param {Unit} u */
function unitName(u) {
  if (u.type === 'leader') return `${u.id} (${nationColours(u.nation).name} leader ${u.designation})`;
  return `${u.id} (${nationColours(u.nation).name} ${u.type} ${u.designation}, ${u.strength}-${u.movement})`;
}

registerSystem({
  id: 'naw',
  name: 'Napoleon at War',
  unitColours: (u) => nationColours(u.nation),
  sideColour,
  counterFace: (u, k, c) => (u.type === 'leader' ? leaderFace(u, k, c) : counterFace(u, k, c)),
  unitName,
  unitMark: (u) => NATION_MARKS[u.nation] || null,
  unitValues: (u) => `${u.strength}-${u.movement}`,
  unitLines: (u) => [
    `${nationColours(u.nation).name} ${u.type}, designation ${u.designation}`,
    `Strength ${u.strength}, movement allowance ${u.movement}`,
  ],
  grammar: () => 'The grammar: move, attack, resolve, retreat, advance, hold, lose, end — by unit id or hex.',
  stepName: (step) => STEP_NAMES[step] || step,
  stepHint: (step) => STEP_HINTS[step] || '',
  obligationLabel: (kase) => OBLIGATIONS[kase] || 'obligation',
  isCombatEvent: (e) => e.kind === 'combat',
  eventLabel,
  changeNotes,
  sequence,
  tableFocus,
  panels: (game) => [combatsCard(game), armiesCard(game)],
  legendUnits: () => Object.entries(NATIONS).map(([code, c]) => ({ code, name: c.name, fill: c.fill, text: c.text, mark: NATION_MARKS[code] })),
  legendMarks: () => [{ cls: 'oblig', label: 'Must attack / be attacked / attack or bombard' }],
  helpLines: () => [
    'Combat: click an attacker, then the enemy unit it attacks. Ringed units must attack (7.12), must be attacked (7.11), or, artillery, must attack or bombard (8.41).',
    'Resolve combats from the Combats panel, at the odds as they stand or lower (7.9).',
  ],
});
