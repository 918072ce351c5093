// Rules systems' panels, registered by system id. The generic board (store, controller, views)
// asks the panel of the state view's `system` for everything a rules system decides the look
// of: counters' faces and colours, the names of steps, obligations and unit values, and the side
// panels only that system has (web/systems/<id>/). A system with no panel gets plain counters.

/** @typedef {import('./api.js').Unit} Unit */
/** @typedef {{fill: string, text: string, name: string}} Colours */

/**
 * @typedef {{
 *   id: string,
 *   name: string,
 *   unitColours: (u: Unit) => Colours,
 *   sideColour: (side: string) => Colours,
 *   counterFace: (u: Unit, k: number, colours: Colours) => SVGElement[],
 *   unitName: (u: Unit) => string,
 *   unitValues: (u: Unit) => string,
 *   unitLines: (u: Unit) => string[],
 *   stepName: (step: string) => string,
 *   stepHint: (step: string) => string,
 *   obligationLabel: (kase: string) => string,
 *   isCombatEvent: (e: import('./api.js').GameEvent) => boolean,
 *   panels: (game: import('./game.js').Game) => (Node|null)[],
 *   ordersPanels?: (game: import('./game.js').Game) => (Node|null)[],
 *   legendUnits: () => {code: string, name: string, fill: string, text: string, mark?: string}[],
 *   legendMarks: () => {cls: string, label: string}[],
 *   helpLines: () => string[],
 *   unitMark?: (u: Unit) => string|null,
 *   eventLabel?: (e: import('./api.js').GameEvent) => string|null,
 *   changeNotes?: (before: import('./api.js').StateView, after: import('./api.js').StateView) => import('./api.js').GameEvent[],
 *   sequence?: (v: import('./api.js').StateView) => Sequence,
 *   tableFocus?: (game: import('./game.js').Game) => {column: string|null, die: number|null, why: string}|null,
 *   grammar?: () => string,
 *   previewView?: (preview: any) => Node|null,
 *   mapShade?: (v: import('./api.js').StateView) => {seen: Set<string>, label: string}|null,
 *   mapRoutes?: (v: import('./api.js').StateView) => {id: string, hexes: string[], label: string}[],
 *   unitRange?: (v: import('./api.js').StateView, unit: string) => Set<string>|null,
 * }} SystemPanel
 */
/**
 * Where a game stands in its system's sequence of play, in that system's words (the track of
 * web/js/views/track.js): the phases of the game-turn in order, each with its steps, and why the
 * turn differs from the usual one (each note with the case that says so).
 * @typedef {{phases: {label: string, state: 'past'|'now'|'next'|'skipped', steps?: {label: string, now: boolean}[], note?: string}[],
 *   notes: {case: string, text: string}[]}} Sequence
 */

// `grammar`: the system's action grammar in one line, for the command box (its verbs, as its
// rules crate writes them). `previewView`: the system's own part of a preview answer
// (`GET /api/games/{id}/preview`, such as a melee's odds with their shifts) drawn for the
// player, in the hover card and before an action is confirmed; null when it has nothing to show.
// `ordersPanels`: the system's boxes shown in the Orders card right below the selected unit's
// card, where the eye is when a unit is selected (such as its stack opened, or a choice the
// player must make now); `panels` are cards of their own after the turn track.
// `unitMark`: the shape a counter carries besides its colours (a nation's, so that nations are
// told apart without colour), one of the board's marks (views/board.js `MARKS`).
// `mapRoutes`: routes drawn on the map as dashed arrows through hexes (such as a messenger's
// ride still to go, from the state view). `unitRange`: the hexes shaded as a selected (or
// pointed-at) unit's or leader's range when the server's overlays give none (such as the hexes
// of a general's troops, from the state view).

/** @type {Map<string, SystemPanel>} */
const registry = new Map();

/** Registers a rules system's panel under its id. @param {SystemPanel} panel */
export function registerSystem(panel) {
  registry.set(panel.id, panel);
}

/** @param {string} s */
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');

/** What a system without a registered panel gets: plain counters, words from the data. @type {SystemPanel} */
export const GENERIC = {
  id: 'generic',
  name: 'Generic',
  unitColours: (u) => GENERIC.sideColour(u.side),
  sideColour: (side) => {
    const palette = ['#0072B2', '#00775A', '#CC79A7', '#E69F00', '#56B4E9', '#2B2B2B'];
    let n = 0;
    for (const ch of side || '') n = (n * 31 + ch.charCodeAt(0)) >>> 0;
    return { fill: palette[n % palette.length], text: '#FFFFFF', name: side };
  },
  counterFace: () => [],
  unitName: (u) => `${u.id} (${u.side} ${u.type}${u.designation ? ` ${u.designation}` : ''})`,
  unitValues: (u) => `${u.strength}-${u.movement}`,
  unitLines: (u) => [`${u.side} ${u.type}`, `Strength ${u.strength}, movement ${u.movement}`],
  stepName: cap,
  stepHint: () => '',
  obligationLabel: (kase) => kase,
  isCombatEvent: (e) => e.kind === 'combat',
  panels: () => [],
  legendUnits: () => [],
  legendMarks: () => [],
  helpLines: () => [],
};

/** The panel of a system id (the generic one for an id nobody registered). @param {string|undefined|null} id */
export function systemFor(id) {
  return (id && registry.get(id)) || GENERIC;
}
