// Napoleonic Battles, the activation system (crates/napoleonic-battles) played on the Battle of
// Nations components: the panel the generic board asks for this system's look and words.
// Counters show strength points (SP) left, not a strength-movement pair; the generic board draws
// their facing (a notch on the hexside faced) and markers (disordered, spent, active). Leaders
// are round counters with their command and initiative ratings. The side panels show who has
// the initiative and the victory points, the activation in progress, and every formation with
// its officer, its losses against its loss limit, and whether it is spent or has acted. A melee is
// shown before its die (the server's preview: strengths, base column, every shift with its rule,
// the final column and each result's chance); the command box names this system's verbs.
// Registered under the system id `napoleonic-battles`; everything comes from the state view the
// server's presenter (crates/present/src/nb_views.rs) gives.

import { h, s } from '../../js/util.js';
import { armSymbol } from '../../js/views/symbol.js';
import { registerSystem } from '../../js/systems.js';
import { card } from '../../js/views/sidebar.js';
import { caseLink } from '../../js/toast.js';
import { NATIONS, NATION_MARKS, nationColours, sideColour } from '../naw/index.js';

/** @typedef {import('../../js/api.js').Unit} Unit */
/** @typedef {import('../../js/api.js').StateView} StateView */
/** @typedef {import('../../js/api.js').GameEvent} GameEvent */
/** @typedef {import('../../js/systems.js').Colours} Colours */
/** @typedef {import('../../js/systems.js').Sequence} Sequence */

/**
 * The system's members of the state view (docs/api.md; nb_views.rs).
 * @typedef {{side: string, acting: string, bonus: Record<string, number>, points: Record<string, number>}} Initiative
 * @typedef {{index: number, name: string, corps: string, army: string|null, side: string|null, officer: string|null,
 *   lost: number, loss_limit: number, demoralized: boolean, units: number, on_map: number, acted: number,
 *   spent: number, active: number, ready: boolean}} Formation
 * @typedef {{name: string, side: string|null, lost: number, loss_limit: number, disintegration: number}} Army
 * @typedef {{side: string, how?: string, commander?: string|null, officers?: string[], lead?: string|null, units: string[], order?: string|null}} Activation
 * @typedef {Unit & {sp?: number, full?: number, morale?: number, formation?: string|null, disorder?: string,
 *   acted?: boolean, spent?: boolean, active?: boolean, rank?: string, command?: number, initiative?: number,
 *   range?: number, name?: string, bonus?: string|null, order?: string|null, formations?: string[],
 *   command_points_used?: number}} NbUnit
 */

/** The system's members of a state view. @param {StateView} v */
function nb(v) {
  const x = /** @type {any} */ (v);
  return {
    /** @type {Initiative|null} */ initiative: x.initiative || null,
    /** @type {Formation[]} */ formations: Array.isArray(x.formations) ? x.formations : [],
    /** @type {Army[]} */ armies: Array.isArray(x.armies) ? x.armies : [],
    /** @type {Activation|null} */ activation: x.activation || null,
  };
}

/** Human words for the steps of the sequence of play. @type {Record<string, string>} */
export const STEP_NAMES = {
  initiative_roll: 'Initiative roll',
  choose: 'Choosing an activation',
  pass_roll: 'The die after a pass',
  designate: 'Designating the activation',
  activation_roll: 'Initiative roll of the activation',
  write_order: 'Writing an order',
  movement: 'Movement',
  reaction: 'Reaction face changes',
  melee: 'Melee',
  evade: 'Cavalry evades or stands',
  to_hit: 'The melee\'s to-hit die',
  morale_die: 'The melee\'s morale die',
  losses: 'Melee losses',
  retreat: 'Retreat',
  advance: 'Advance after melee',
  rally: 'Rally',
  recovery: 'Night recovery',
  place: 'Placing a unit back from elimination',
  over: 'Game over',
};

/** What the player to act is asked to do, per step. @type {Record<string, string>} */
export const STEP_HINTS = {
  choose: 'Activate a formation (a commander\'s command point, or an officer\'s initiative), a unit by its own initiative, or pass.',
  designate: 'Add or leave out units, then Go.',
  write_order: 'The officer failed: he may write an order (its destination), or none.',
  movement: 'Select a unit or leader of the activation, then click an adjacent hex; to turn a stack, click one of the arrows at its hexsides. End when done.',
  reaction: 'The enemy moved near: click an arrow at a hexside of the stack to turn it to face that way, or hold.',
  melee: 'Select a unit of an active hex, then click an enemy hex in its front: the odds and their shifts are shown before you confirm. Or end the impulse.',
  evade: 'Your cavalry is attacked by infantry: evade (retreat before the melee) or stand.',
  losses: 'Choose which unit loses each strength point.',
  retreat: 'Choose the hex the retreating stack steps into.',
  advance: 'A winning unit may advance into the hex: choose it, or end.',
  place: 'A unit is back from elimination: click one of the shaded hexes, within 2 of its officer, to place it there.',
  over: 'The game is over.',
};

/** The face of a unit counter: NATO symbol, designation above, SP left large below (with its
 *  full strength when reduced), the nation's code along the left edge.
 *  @param {NbUnit} u @param {number} k @param {Colours} c */
function counterFace(u, k, c) {
  const S = k / 0.72;
  const f = (/** @type {number} */ n) => (Math.round(n * 100) / 100).toString();
  const text = c.text;
  /** @type {SVGElement[]} */
  const out = [];
  const { els, y: by } = armSymbol(u.type, k, text);
  out.push(...els);
  const chars = Math.max(1, [...(u.designation || '')].length);
  const fs = Math.min(0.16 * S, (0.6 * S) / (0.6 * chars));
  out.push(s('text', { x: f(0.02 * S), y: f(by - 0.04 * S), 'font-size': f(fs), fill: text, 'text-anchor': 'middle', class: 'designation' }, u.designation || ''));
  const sp = `${u.strength}`;
  out.push(s('text', { x: f(0.02 * S), y: f(0.3 * S), 'font-size': f(0.25 * S), 'font-weight': 'bold', fill: text, 'text-anchor': 'middle', class: 'sm sp' }, sp));
  if (typeof u.full === 'number' && u.full > u.strength) {
    out.push(s('text', { x: f(0.26 * S), y: f(0.3 * S), 'font-size': f(0.1 * S), fill: text, 'fill-opacity': 0.85, 'text-anchor': 'middle', class: 'full' }, `/${u.full}`));
  }
  out.push(s('text', { x: 0, y: 0, 'font-size': f(0.1 * S), fill: text, 'fill-opacity': 0.85, 'text-anchor': 'middle', transform: `translate(${f(-k / 2 + 0.075 * S)},${f(-0.02 * S)}) rotate(-90)`, 'letter-spacing': 0.5 }, u.nation));
  return out;
}

/** A leader's face: his surname, his command and initiative ratings beneath.
 *  @param {NbUnit} u @param {number} k @param {Colours} c */
function leaderFace(u, k, c) {
  const name = u.designation || u.id;
  const fs = Math.min(0.26 * k, (1.3 * k) / Math.max(3, [...name].length));
  const out = [s('text', { y: (-fs * 0.05).toFixed(2), 'font-size': fs.toFixed(2), fill: c.text, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'designation' }, name)];
  if (typeof u.command === 'number' && typeof u.initiative === 'number') {
    out.push(s('text', { y: (fs * 1.05).toFixed(2), 'font-size': (fs * 0.8).toFixed(2), fill: c.text, 'text-anchor': 'middle', class: 'ratings' }, `${u.command}·${u.initiative}`));
  }
  return out;
}

/** @param {NbUnit} u */
function unitName(u) {
  const nation = nationColours(u.nation).name;
  if (u.type === 'leader') return `${u.id} (${nation} ${u.rank === 'army' ? 'commander' : 'officer'} ${u.name || u.designation})`;
  return `${u.id} (${nation} ${u.type} ${u.designation}, ${u.strength} SP)`;
}

/** @param {NbUnit} u */
function unitLines(u) {
  if (u.type === 'leader') {
    return [
      `${nationColours(u.nation).name} ${u.rank === 'army' ? 'army commander' : 'corps officer'}: ${u.name || u.designation}`,
      `Command ${u.command}, initiative ${u.initiative}, range ${u.range} hexes (shaded on the map), movement ${u.movement}`,
      ...(u.rank === 'army' ? [`Command points spent this turn: ${u.command_points_used ?? 0} of ${u.command}`] : []),
      ...(u.formations?.length ? [`Commands ${u.formations.join(', ')}`] : []),
      ...(u.bonus ? [`Initiative bonus: ${u.bonus}`] : []),
      ...(u.order ? [`Written order: march to ${u.order}`] : []),
    ];
  }
  return [
    `${nationColours(u.nation).name} ${u.type}, ${u.designation}${u.formation ? ` (${u.formation})` : ''}`,
    `${u.strength} of ${u.full ?? u.strength} SP, morale ${u.morale ?? '?'}, movement ${u.movement}`,
    [u.disorder && u.disorder !== 'good' ? 'disordered' : 'in good order', u.spent ? 'spent this turn' : u.active ? 'active this impulse' : u.acted ? 'has acted this turn' : null].filter(Boolean).join(', '),
  ];
}

/** The initiative card: who has it, who acts, bonuses and victory points, the activation.
 *  @param {import('../../js/game.js').Game} game */
function initiativeCard(game) {
  const v = game.v;
  const { initiative, activation } = nb(v);
  if (!initiative) return null;
  const swatch = (/** @type {string} */ side) => h('span', { class: 'swatch', style: `background:${sideColour(side).fill}`, 'aria-hidden': 'true' });
  const sides = Object.keys(initiative.points);
  const body = [
    h('p', { class: 'nb-initiative' }, swatch(initiative.side), h('b', {}, `${initiative.side} has the initiative`), ` this turn; ${initiative.acting} ${v.to_act === 'over' ? 'acted last' : 'is acting'}.`),
    h('ul', { class: 'plain small nb-sides' }, sides.map((side) => h('li', {}, swatch(side), ` ${side}: ${initiative.points[side]} victory points, initiative bonus +${initiative.bonus[side] ?? 0}`))),
    activation ? h('p', { class: 'small nb-activation', 'data-how': activation.how || '' }, h('b', {}, `${activation.side} activation`),
      activation.commander ? ` by ${activation.commander}'s command` : '',
      activation.officers?.length ? ` under ${activation.officers.join(', ')}` : '',
      activation.lead ? ` led by ${activation.lead}` : '',
      `: ${activation.units.length} unit${activation.units.length === 1 ? '' : 's'} (${activation.units.slice(0, 12).join(', ')}${activation.units.length > 12 ? ', …' : ''})`) : null,
  ];
  return card(game, 'nb-initiative', 'Initiative', body);
}

/** The formations card: each side's formations with officer, losses against the loss limit,
 *  and whether they are spent, have acted, or are ready. @param {import('../../js/game.js').Game} game */
function formationsCard(game) {
  const { formations, armies } = nb(game.v);
  if (!formations.length) return null;
  const bySide = new Map();
  for (const f of formations) {
    const k = f.side || '?';
    if (!bySide.has(k)) bySide.set(k, []);
    bySide.get(k).push(f);
  }
  const body = [];
  body.push(h('p', { class: 'small muted' }, 'SP lost against each formation\'s loss limit; spent: failed an activation this turn; acted: has acted this turn.'));
  for (const [side, fs] of bySide) {
    const sc = sideColour(side);
    body.push(h('h3', {}, h('span', { class: 'swatch', style: `background:${sc.fill}`, 'aria-hidden': 'true' }), ` ${side}`));
    body.push(h('ul', { class: 'plain small nb-formations' }, fs.map((/** @type {Formation} */ f) => {
      const state = f.demoralized ? 'demoralized'
        : f.spent > 0 && !f.ready ? 'spent'
          : f.active > 0 ? 'active'
            : f.on_map > 0 && f.acted >= f.on_map ? 'acted'
              : f.ready ? 'ready' : '';
      const frac = f.loss_limit ? Math.min(1, f.lost / f.loss_limit) : 0;
      return h('li', { class: `nb-formation${state ? ` nb-${state}` : ''}`, 'data-formation': f.name, 'data-state': state },
        h('span', { class: 'nb-fname' }, h('b', {}, f.name), f.officer ? ` (${f.officer})` : ''),
        ' ', h('span', { class: 'nb-lost' }, `${f.lost}/${f.loss_limit} SP lost`),
        state ? h('span', { class: `nb-tag nb-tag-${state}` }, ` · ${state}`) : null,
        h('div', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': f.loss_limit, 'aria-valuenow': f.lost, 'aria-label': `${f.name}: ${f.lost} of ${f.loss_limit} SP lost` },
          h('div', { class: 'bar-fill', style: `width:${(frac * 100).toFixed(1)}%;--c:${sc.fill}` })));
    })));
  }
  if (armies.length) {
    body.push(h('h3', {}, 'Armies'), h('ul', { class: 'plain small nb-armies' }, armies.map((a) => h('li', {}, h('b', {}, a.name), ` (${a.side}): ${a.lost}/${a.loss_limit} SP lost; disintegrates at ${a.disintegration}`))));
  }
  return card(game, 'nb-formations', 'Formations', body);
}

/** The last state whose unit to place was selected for the player (once a state: a click
 *  elsewhere puts it down, the card's button takes it up again). */
let placingSelected = '';

/** The unit back from elimination its owner is to place (the state view's `placing`, NB
 *  Recovery): who places it and near whom; for the player who places it, the unit is taken up
 *  at once, so that the hexes it may return in are shaded (the server's `overlays.range` of the
 *  unit) and a click on one of them places it (its legal `place` actions are the board's moves
 *  of the unit). @param {import('../../js/game.js').Game} game */
function placingCard(game) {
  /** @type {{unit: string, side: string, officer: string|null, officer_hex: string|null, radius: number, hexes: string[]}|null} */
  const p = /** @type {any} */ (game.v).placing || null;
  if (!p) return null;
  const mine = game.canAct();
  const key = `${game.id}:${game.v.actions_recorded}`;
  if (mine && game.selected !== p.unit && placingSelected !== key) {
    placingSelected = key;
    queueMicrotask(() => game.selectUnit(p.unit));
  }
  const body = [
    h('p', { class: 'nb-placing' }, h('b', {}, p.unit), ` is back from elimination with 1 SP: ${p.side} places it within ${p.radius} hexes of ${p.officer || 'its officer'}${p.officer_hex ? ` (in ${p.officer_hex})` : ''}. `, caseLink('NB Recovery')),
    mine
      ? h('p', { class: 'small' }, `Click one of the ${p.hexes.length} shaded hexes on the map to place it. `,
        h('button', { type: 'button', class: 'link-btn', 'data-key': 'nb-place-select', onclick: () => game.selectUnit(p.unit) }, `Select ${p.unit}`))
      : h('p', { class: 'small muted' }, `Waiting for ${p.side} to place it.`),
  ];
  return card(game, 'nb-placing', 'Recovery', body);
}

/** The sequence of play (NB Sequence of Play): initiative, reinforcements, the action phase of
 *  alternating impulses, the victory phase. @param {StateView} v @returns {Sequence} */
function sequence(v) {
  const order = ['initiative', 'action', 'victory'];
  const at = v.phase === 'over' ? order.length : Math.max(0, order.indexOf(v.phase));
  /** @type {Sequence['phases']} */
  const phases = [
    { label: 'Initiative phase', state: 'past', steps: [{ label: 'Each side rolls two dice, plus its overall commander\'s command rating', now: v.step === 'initiative_roll' }] },
    { label: 'Reinforcements', state: 'past', steps: [] },
    { label: 'Action phase', state: 'past', steps: [
      { label: 'Activate or pass', now: ['choose', 'pass_roll', 'designate', 'activation_roll', 'write_order'].includes(v.step) },
      { label: 'Movement (and reactions)', now: v.step === 'movement' || v.step === 'reaction' },
      { label: 'Melee', now: ['melee', 'evade', 'to_hit', 'morale_die', 'losses', 'retreat', 'advance'].includes(v.step) },
      { label: 'Rally', now: v.step === 'rally' },
    ] },
    { label: 'Victory phase', state: 'past', steps: [{ label: 'Recovery (last night turn), demoralization, victory', now: v.step === 'recovery' || v.step === 'place' }] },
  ];
  const idx = [0, 0, 1, 2];
  phases.forEach((p, i) => {
    p.state = idx[i] < at ? 'past' : idx[i] === at ? (i === 1 ? 'past' : 'now') : 'next';
  });
  if (v.turn === v.first_turn && at === 1) phases[0].state = 'skipped';
  /** @type {Sequence['notes']} */
  const notes = [];
  if (v.turn === v.first_turn) notes.push({ case: 'NB Napoleon At Leipzig', text: 'the Allies have the initiative on the first turn: no initiative roll.' });
  notes.push({ case: 'NB Turn End', text: 'two passes in a row end the action phase; a pass ends it on a die of 6.' });
  if (v.night) notes.push({ case: 'NB Recovery', text: 'in the last night turn of a night, units that have lost SP may recover one; an eliminated unit that recovers is placed by its owner within 2 hexes of its officer.' });
  return { phases, notes };
}

/**
 * The preview of a melee (the server's `preview` answer, `melee`), before its die: the strengths
 * and the percentage, the base column (rounded down, in the defender's favour), every column
 * shift with its rule, the final column, the chance of each result and of the main outcomes.
 * @typedef {{from: string, to: string, attackers: string[], defenders: string[], attack: string,
 *   defence: string, percent: number|null, base: string|null, shifts: {by: number, rule: string, why: string}[],
 *   column: string|null, results: {roll: number, chance: number, result: string, text: string}[],
 *   chances: null | {defender_retreats: number, attacker_retreats: number, defender_morale_check: number,
 *   attacker_morale_check: number, defender_leader_loss: number, attacker_leader_loss: number,
 *   expected_loss: {attacker: number, defender: number}}, explain: string, case: string}} MeleePreview
 * @param {any} answer @returns {Node|null}
 */
function previewView(answer) {
  /** @type {MeleePreview|null} */
  const m = answer && answer.melee;
  if (!m) return null;
  const pct = (/** @type {number} */ x) => `${Math.round(x * 100)}%`;
  const sign = (/** @type {number} */ n) => (n > 0 ? `+${n}` : `${n}`);
  const total = m.shifts.reduce((n, x) => n + x.by, 0);
  const ch = m.chances;
  return h('div', { class: 'nb-melee-preview', 'data-column': m.column || '' },
    h('div', { class: 'hc-odds-head' }, h('span', { class: 'hc-column nb-final' }, m.column || 'off'),
      ` Melee ${m.from} → ${m.to}: ${m.attack} against ${m.defence} SP`),
    h('div', { class: 'small nb-base' }, `${m.percent === null ? 'no defence' : `${m.percent}%`}, read on ${m.base || 'no column'} (rounded down for the defender)`,
      ' ', caseLink(m.case)),
    m.shifts.length
      ? h('ul', { class: 'plain small nb-shifts' }, m.shifts.map((x) => h('li', { class: 'nb-shift', 'data-by': x.by },
        h('b', {}, sign(x.by)), ` ${x.why} `, caseLink(x.rule))))
      : h('div', { class: 'small nb-shifts muted' }, 'No column shift.'),
    h('div', { class: 'small' }, m.column ? `Final column ${m.column}${m.shifts.length ? ` (${sign(total)} from ${m.base || 'below the table'})` : ''}.` : 'Off the table: this melee may not be made.'),
    m.results.length ? h('table', { class: 'tbl nb-results small' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Die'), h('th', {}, 'Chance'), h('th', {}, 'Result'))),
      h('tbody', {}, m.results.map((r) => h('tr', { 'data-roll': r.roll, title: r.text },
        h('td', {}, String(r.roll)), h('td', {}, pct(r.chance)), h('td', {}, h('code', {}, r.result), ' ', h('span', { class: 'muted' }, r.text)))))) : null,
    ch ? h('div', { class: 'small nb-chances' },
      `The defender retreats ${pct(ch.defender_retreats)}, the attacker ${pct(ch.attacker_retreats)}; expected losses ${ch.expected_loss.attacker.toFixed(2)} SP attacking, ${ch.expected_loss.defender.toFixed(2)} SP defending; a leader may fall: defender ${pct(ch.defender_leader_loss)}, attacker ${pct(ch.attacker_leader_loss)}.`) : null,
    h('div', { class: 'small muted' }, `${m.attackers.join(', ')} against ${m.defenders.join(', ')}.`));
}

/**
 * Which cell of the melee table the charts light: the melee in progress (its column, and its
 * to-hit die once rolled, from the log), else the melee shown before its die.
 * @param {import('../../js/game.js').Game} game
 * @returns {{column: string|null, die: number|null, why: string}|null}
 */
function tableFocus(game) {
  const m = /** @type {any} */ (game.v).melee;
  if (m) {
    /** @type {number|null} */
    let die = null;
    // the latest to-hit die after the latest declaration
    outer: for (let i = game.v.log.length - 1; i >= 0; i--) {
      const evs = game.v.log[i].events;
      for (let j = evs.length - 1; j >= 0; j--) {
        const e = /** @type {any} */ (evs[j]);
        if (e.kind === 'melee_resolved' && die === null) die = typeof e.roll === 'number' ? e.roll : null;
        if (e.kind === 'melee_declared') break outer;
      }
    }
    return { column: m.column || null, die, why: `Melee ${m.from} → ${m.to}` };
  }
  const p = game.confirming?.preview?.answer?.melee;
  if (p) return { column: p.column || null, die: null, why: `Before the die: melee ${p.from} → ${p.to}` };
  return null;
}

/** The name of an event in the events panel, or null for one it does not list. @param {GameEvent} e */
function eventLabel(e) {
  switch (e.kind) {
    case 'melee_declared': return 'Melee';
    case 'melee_resolved': return `Melee${e.result ? ` · ${e.result}` : ''}`;
    case 'eliminated': return 'Eliminated';
    case 'lost': return 'SP lost';
    case 'arrived': return 'Reinforcement';
    case 'placed': return 'Back from elimination';
    case 'activated': return 'Activation';
    case 'spent': return 'Spent';
    case 'initiative': return 'Initiative';
    case 'formation_demoralized': return 'Demoralized';
    case 'army_demoralized': return 'Army demoralized';
    case 'leader_casualty': return 'Leader fallen';
    case 'game_over': return 'Game over';
    case 'moved': case 'leader_moved': case 'faced': case 'computer': return null;
    default: return e.kind ? e.kind.replace(/_/g, ' ') : null;
  }
}

registerSystem({
  id: 'napoleonic-battles',
  name: 'Napoleonic Battles',
  unitColours: (u) => nationColours(u.nation),
  sideColour,
  counterFace: (u, k, c) => (u.type === 'leader' ? leaderFace(u, k, c) : counterFace(u, k, c)),
  unitName,
  unitMark: (u) => NATION_MARKS[u.nation] || null,
  unitValues: (u) => (u.type === 'leader' ? `${/** @type {NbUnit} */ (u).command ?? ''}·${/** @type {NbUnit} */ (u).initiative ?? ''}` : `${u.strength} SP`),
  unitLines,
  stepName: (step) => STEP_NAMES[step] || step,
  stepHint: (step) => STEP_HINTS[step] || '',
  obligationLabel: (kase) => kase,
  isCombatEvent: (e) => e.kind === 'melee_resolved' || e.kind === 'melee_declared',
  eventLabel,
  sequence,
  panels: (game) => [placingCard(game), initiativeCard(game), formationsCard(game)],
  // the verbs of crates/napoleonic-battles/src/action.rs
  tableFocus,
  grammar: () => 'The grammar: command C O, initiative O, unit U, include U, exclude U, go, pass, march C O HEX, lend C O, order O HEX, no-order, move U HEX, lead L HEX, face HEX DIR, melee HEX HEX, evade, stand, lose U, retreat HEX, advance U, react HEX DIR, hold HEX, place U HEX, end — units and leaders by id, DIR one of E NE NW W SW SE.',
  previewView,
  legendUnits: () => Object.entries(NATIONS).map(([code, c]) => ({ code, name: c.name, fill: c.fill, text: c.text, mark: NATION_MARKS[code] })),
  legendMarks: () => [],
  helpLines: () => [
    'Napoleonic Battles: formations act in alternating impulses. Activate one by a commander\'s command point or its officer\'s initiative, or a unit by its own initiative; or pass.',
    'Counters show strength points left; the notch on a counter\'s edge is the hexside it faces; tags mark disorder, and units spent or active this turn.',
    'To turn a stack, select one of its units and click an arrow at the hexside it should face. Select a leader (or point at him) to see his command range shaded.',
    'A melee is shown with its odds before the die: click an enemy hex from a selected active unit, read the strengths, the shifts and the chances, then confirm.',
    'In the last night turn, a unit back from elimination is placed by its owner: click one of the shaded hexes near its officer.',
  ],
});
