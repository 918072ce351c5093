// The hex-miniatures rules (crates/hex-miniatures): the panel the generic board asks for this
// system's look and words. Battalions, cavalry regiments and batteries are square counters with
// the NATO symbol of their arm, their strength and their base units left; tags mark a unit's
// state of order (disordered, retiring, routed) and formation (column, square, a battery
// limbered); the notch is the hexside faced. Generals and the messengers carrying their orders
// are round counters. The side panels show the clock with the weather, the light and the turn's
// visible range; the victory table (each army's casualties against its 5% marks, the crisis
// levels reached, the objectives and who holds the field); the formations' standing orders and
// the orders in transit. Registered under the system id `hex-miniatures`; everything comes from
// the state view the server's presenter (crates/present/src/hm_views.rs) gives.

import { h, s } from '../../js/util.js';
import { armSymbol } from '../../js/views/symbol.js';
import { registerSystem } from '../../js/systems.js';
import { card } from '../../js/views/sidebar.js';

/** @typedef {import('../../js/api.js').Unit} Unit */
/** @typedef {import('../../js/api.js').StateView} StateView */
/** @typedef {import('../../js/api.js').GameEvent} GameEvent */
/** @typedef {import('../../js/systems.js').Colours} Colours */
/** @typedef {import('../../js/systems.js').Sequence} Sequence */

/**
 * The system's members of a unit entry and of the state view (hm_views.rs).
 * @typedef {Unit & {kind?: string, name?: string, formation?: string, order?: string|{order: string, hex?: string}|null,
 *   bases?: number, full_bases?: number, command?: string|null, seen_by_enemy?: boolean, role?: string,
 *   senior?: boolean, bonus?: number, commands?: string[], command_names?: string[], from?: string, order_text?: string|null,
 *   route?: string[]}} HmUnit
 * @typedef {{id: string, name: string, side: string, commander: string|null, parent: string|null,
 *   order: {order: string, hex?: string}, order_text: string}} Formation
 * @typedef {{clock: string, weather: string, weather_position: number, weather_visibility: number|null,
 *   light: number|null, visibility: number|null, night: boolean}} Conditions
 * @typedef {{side: string, lost: number, total: number, percent: number, marks: {level: number, bases: number}[],
 *   crisis_tested: number|null}} Army
 * @typedef {{armies: Army[], objectives: {hex: string, place: string|null, holder: string}[], field: string|null,
 *   margins: number[]}} Victory
 */

/** The system's members of a state view. @param {StateView} v */
function hm(v) {
  const x = /** @type {any} */ (v);
  return {
    /** @type {string} */ clock: typeof x.clock === 'string' ? x.clock : '',
    /** @type {Conditions|null} */ conditions: x.conditions || null,
    /** @type {Victory|null} */ victory: x.victory || null,
    /** @type {Formation[]} */ formations: Array.isArray(x.formations) ? x.formations : [],
    /** @type {HmUnit[]} */ messengers: Array.isArray(x.messengers) ? x.messengers : [],
    /** @type {string|null} */ viewer: typeof x.viewer_side === 'string' ? x.viewer_side : null,
  };
}

/**
 * Counter colours by army: the Prussians dark, the French blue (Okabe-Ito based as elsewhere).
 * @type {Record<string, Colours>}
 */
export const NATIONS = {
  Prussian: { fill: '#2B2B2B', text: '#FFFFFF', name: 'Prussian' },
  French: { fill: '#1F3A93', text: '#FFFFFF', name: 'French' },
  Russian: { fill: '#00775A', text: '#FFFFFF', name: 'Russian' },
  Austrian: { fill: '#F3EBD3', text: '#1A1A1A', name: 'Austrian' },
  British: { fill: '#D55E00', text: '#FFFFFF', name: 'British' },
};

/** Each army's mark (a shape of the board's `MARKS`), so that they are told apart without
 *  colour. @type {Record<string, string>} */
export const NATION_MARKS = { Prussian: 'square', French: 'disc', Russian: 'triangle', Austrian: 'diamond', British: 'cross' };

/** The short code of each army in the legend's swatch. @type {Record<string, string>} */
const NATION_CODES = { Prussian: 'PR', French: 'FR', Russian: 'RU', Austrian: 'AU', British: 'GB' };

/** @param {string} nation @returns {Colours} */
function nationColours(nation) {
  return NATIONS[nation] || { fill: '#BBBBBB', text: '#1A1A1A', name: nation || 'unknown' };
}

/** The colour that stands for a side (its army's). @param {string} side @returns {Colours} */
function sideColour(side) {
  if (side === 'Prussians') return NATIONS.Prussian;
  if (side === 'French') return NATIONS.French;
  return { fill: '#00775A', text: '#FFFFFF', name: side };
}

/** The colours of a counter: its nation's; a messenger or general without one, his side's.
 *  @param {Unit} u */
function unitColours(u) {
  return u.nation ? nationColours(u.nation) : sideColour(u.side);
}

/** Human words for the stages of a player-turn ([5.1.2]). @type {Record<string, string>} */
export const STEP_NAMES = {
  rally: 'Rally',
  orders: 'Orders',
  movement: 'Movement',
  artillery: 'Artillery fire',
  attacks: 'Declaring attacks',
  resolution: 'Resolving attacks',
  crisis: 'Crisis of morale',
  turn_end: 'End of the turn',
  over: 'Battle over',
};

/** What the player to act is asked to do, per stage. @type {Record<string, string>} */
export const STEP_HINTS = {
  rally: 'Disrupted and routed units try to rally, a random number each ([6]).',
  orders: 'A general orders a formation to hold, to act at its discretion, or to advance on a hex: in person if he is with it, else a messenger rides ([7.1.2]). End when done.',
  movement: 'Move units within their orders (select one, click a shaded hex), bring on arrivals at their edge hexes, change formation (form square against cavalry), turn to face, ride your generals. End when done.',
  artillery: 'Each ordered, unlimbered battery may fire on one visible enemy unit within range ([9.1]). End when done.',
  attacks: 'Every unit next to the enemy attacks: pick the hex each attacks ([9.4.2]). End when done.',
  resolution: 'The attacks are resolved: artillery first, then cavalry and squares, then the rest ([9]).',
  crisis: 'The army whose casualties passed a 5% mark tests each unit in sight of the action ([13]).',
  turn_end: 'Ten minutes pass; the weather counter drifts ([24]).',
  over: 'The battle is over.',
};

/** The NATO symbol of a unit's arm in a box, its strength and base units.
 *  @param {HmUnit} u @param {number} k @param {Colours} c */
function counterFace(u, k, c) {
  const S = k / 0.72;
  const f = (/** @type {number} */ n) => (Math.round(n * 100) / 100).toString();
  const text = c.text;
  /** @type {SVGElement[]} */
  const out = [];
  // a unit out of order is struck through corner to corner in its state's colour, heavier the
  // worse it is ([2.4.1]); the tag under the counter names it
  const band = typeof u.order === 'string' ? STATE_BANDS[u.order] : undefined;
  if (band) {
    out.push(s('line', {
      x1: f(-k / 2 + 2), y1: f(k / 2 - 2), x2: f(k / 2 - 2), y2: f(-k / 2 + 2),
      stroke: band.colour, 'stroke-width': f(band.width * S), 'stroke-opacity': 0.9, class: `hm-state hm-state-${u.order}`, 'data-state': u.order,
    }));
  }
  // a square's four faces: a heavy frame inside the counter's edge ([8.1.1])
  if (u.formation === 'square') {
    out.push(s('rect', {
      x: f(-k / 2 + 4), y: f(-k / 2 + 4), width: f(k - 8), height: f(k - 8), rx: 1.5,
      fill: 'none', stroke: text, 'stroke-width': f(0.05 * S), class: 'hm-square-frame',
    }));
  }
  // every arm but the foot and the horse is a battery here: the dot
  const arm = u.type === 'infantry' || u.type === 'cavalry' ? u.type : 'artillery';
  const { els, y: by } = armSymbol(arm, k, text, 0.08);
  out.push(...els);
  // the kind above the box (G grenadier, L light...)
  out.push(s('text', { x: f(0.02 * S), y: f(by - 0.03 * S), 'font-size': f(0.1 * S), fill: text, 'text-anchor': 'middle', class: 'designation' }, kindTag(u.kind || '')));
  out.push(s('text', { x: f(0.02 * S), y: f(0.28 * S), 'font-size': f(0.2 * S), 'font-weight': 'bold', fill: text, 'text-anchor': 'middle', class: 'sm' }, `${u.strength}·${u.bases ?? ''}`));
  return out;
}

/** The stroke across a counter out of order: its colour (Okabe-Ito) and width (of a hex's size).
 *  @type {Record<string, {colour: string, width: number}>} */
const STATE_BANDS = {
  disordered: { colour: '#F0E442', width: 0.06 },
  retiring: { colour: '#E69F00', width: 0.1 },
  routed: { colour: '#D55E00', width: 0.15 },
};

/** A short tag for a kind. @param {string} kind */
function kindTag(kind) {
  /** @type {Record<string, string>} */
  const tags = { guard: 'GD', grenadier: 'GR', line: 'LN', light: 'LT', militia: 'LW', 'heavy-cavalry': 'HC', 'medium-cavalry': 'MC', 'light-cavalry': 'LC', lancers: 'UH', 'foot-battery': 'FT', 'horse-battery': 'HA' };
  return tags[kind] || kind.slice(0, 2).toUpperCase();
}

/** A general's or a messenger's face: his surname, or M and what the messenger carries.
 *  @param {HmUnit} u @param {number} k @param {Colours} c */
function roundFace(u, k, c) {
  if (u.role === 'messenger') {
    const fs = 0.34 * k;
    return [
      s('text', { y: (fs * 0.1).toFixed(2), 'font-size': fs.toFixed(2), fill: c.text, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'designation' }, 'M'),
      s('text', { y: (fs * 1.0).toFixed(2), 'font-size': (fs * 0.55).toFixed(2), fill: c.text, 'text-anchor': 'middle', class: 'ratings' }, u.order ? 'order' : 'back'),
    ];
  }
  const name = u.designation || u.id;
  const fs = Math.min(0.24 * k, (1.3 * k) / Math.max(3, [...name].length));
  const out = [s('text', { y: (-fs * 0.1).toFixed(2), 'font-size': fs.toFixed(2), fill: c.text, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'designation' }, name)];
  out.push(s('text', { y: (fs * 1.0).toFixed(2), 'font-size': (fs * 0.8).toFixed(2), fill: c.text, 'text-anchor': 'middle', class: 'ratings' }, u.senior ? '+0.200' : '+0.100'));
  return out;
}

/** @param {HmUnit} u */
function unitName(u) {
  if (u.role === 'messenger') return `a ${u.side} messenger from ${u.from} to ${u.formation}${u.order_text ? ` (${u.order_text})` : ' (riding back)'}`;
  if (u.role === 'general') return `${u.name || u.id} (${u.side}${u.senior ? ', senior commander' : ''})`;
  return `${u.id} (${u.name || u.kind})`;
}

/** @param {HmUnit} u */
function unitLines(u) {
  if (u.role === 'messenger') {
    return [
      `Messenger of ${u.side}, riding ${u.movement} hexes a turn`,
      u.order_text ? `Carries to ${u.formation}: ${u.order_text}` : `Riding back to ${u.from}`,
      u.route && u.route.length > 1 ? `${u.route.length - 1} hex${u.route.length === 2 ? '' : 'es'} still to ride, to ${u.route[u.route.length - 1]} (the dashed arrow)` : '',
    ].filter(Boolean);
  }
  if (u.role === 'general') {
    return [
      `${u.name || u.id}${u.senior ? ', senior commander' : ''}`,
      `Adds ${u.senior ? '+0.200' : '+0.100'} to the numbers of his side's troops in his hex when he survives under fire; rides ${u.movement} hexes`,
      'Selected, his formations\' troops are shaded on the map',
      u.commands?.length ? `Commands ${u.commands.map((id, i) => (u.command_names?.[i] && u.command_names[i] !== id ? `${u.command_names[i]} (${id})` : id)).join(', ')}` : '',
    ].filter(Boolean);
  }
  const state = [
    u.order && typeof u.order === 'string' ? u.order : null,
    u.formation,
    u.status === 'waiting' ? 'still to arrive' : u.status === 'eliminated' ? 'removed from play' : null,
    u.seen_by_enemy === false && u.status === 'map' ? 'out of the enemy\'s sight' : null,
  ].filter(Boolean);
  return [
    `${u.name || u.id}${u.command ? ` (${u.command})` : ''}`,
    `${u.kind}: ${u.bases} of ${u.full_bases} base units, strength ${u.strength}, movement ${u.movement}`,
    state.join(', '),
  ];
}

/** Whose sight the map shows: the seat's side, else (hot seat, spectators) the side to act, else
 *  the phasing one. @param {StateView} v */
function sightSide(v) {
  const x = /** @type {any} */ (v);
  const sight = x.sight && typeof x.sight === 'object' ? x.sight : null;
  if (!sight) return null;
  const side = typeof x.viewer_side === 'string' ? x.viewer_side : v.to_act in sight ? v.to_act : v.phasing;
  return Array.isArray(sight[side]) ? { side, seen: /** @type {string[]} */ (sight[side]) } : null;
}

/** The hexes out of a side's sight, greyed on the map ([24], [18]: the light, the weather and
 *  what terrain and troops hide; what is out of sight may not be fired on, [9.1.3]).
 *  @param {StateView} v */
function mapShade(v) {
  const s = sightSide(v);
  return s ? { seen: new Set(s.seen), label: `Greyed: hexes no unit of the ${s.side} sees` } : null;
}

/** The clock, the weather, the light and the visible range. @param {import('../../js/game.js').Game} game */
function battleCard(game) {
  const { clock, conditions } = hm(game.v);
  if (!conditions) return null;
  const sight = conditions.visibility === null || conditions.visibility === undefined ? 'unlimited but for terrain' : `${conditions.visibility} hex${conditions.visibility === 1 ? '' : 'es'}`;
  return card(game, 'hm-battle', 'The battle', [
    h('p', { class: 'small hm-clock' }, `Turn ${game.v.turn} of ${game.v.last_turn}, ${clock}: the ${game.v.phasing}, ${STEP_NAMES[game.v.step] || game.v.step}.`),
    h('ul', { class: 'plain small hm-conditions' },
      h('li', { 'data-weather': conditions.weather }, `Weather: ${conditions.weather}${conditions.weather_position ? ` (counter at ${conditions.weather_position})` : ''}`),
      h('li', {}, `Light: ${conditions.night ? 'night' : conditions.light === null || conditions.light === undefined ? 'full daylight' : `dusk, ${conditions.light} hex${conditions.light === 1 ? '' : 'es'}`}`),
      h('li', { class: 'hm-visibility' }, `Sight: ${sight}${conditions.night ? '; night: no combat' : ''}`),
      (() => {
        const who = sightSide(game.v);
        return who ? h('li', { class: 'hm-sight' }, `Greyed on the map: the hexes no unit of the ${who.side} sees (${who.seen.length} seen)`) : null;
      })()),
  ]);
}

/** The victory table: casualties against the 5% marks, crises, objectives and the field.
 *  @param {import('../../js/game.js').Game} game */
function victoryCard(game) {
  const { victory } = hm(game.v);
  if (!victory) return null;
  const swatch = (/** @type {string} */ side) => h('span', { class: 'swatch', style: `background:${sideColour(side).fill}`, 'aria-hidden': 'true' });
  return card(game, 'hm-victory', 'Victory table', [
    h('ul', { class: 'plain small hm-armies' }, victory.armies.map((a) => {
      const next = a.marks.find((m) => m.bases > a.lost);
      return h('li', { 'data-side': a.side },
        swatch(a.side), ' ', h('b', {}, a.side), `: ${a.lost} of ${a.total} base units lost (${a.percent.toFixed(1)}%)`,
        a.crisis_tested ? h('span', { class: 'hm-crisis' }, ` · crisis tested at ${a.crisis_tested}%`) : null,
        next ? h('span', { class: 'muted' }, ` · next mark ${next.level}% at ${next.bases}`) : null,
        h('div', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(a.percent), 'aria-label': `${a.side}: ${a.percent.toFixed(1)}% casualties` },
          h('div', { class: 'bar-fill', style: `width:${Math.min(100, a.percent).toFixed(1)}%;--c:${sideColour(a.side).fill}` })));
    })),
    h('p', { class: 'small hm-field' }, victory.field ? `The ${victory.field} hold the field (every objective).` : 'Nobody holds every objective.'),
    h('ul', { class: 'plain small hm-objectives' }, victory.objectives.map((o) => h('li', { 'data-hex': o.hex }, `${o.place ? `${o.place} (${o.hex})` : o.hex}: ${o.holder}`))),
    h('p', { class: 'small muted' }, `At dusk the holder of the field wins; the casualties' difference makes it marginal, major or decisive (over ${victory.margins.join(', ')} points).`),
  ]);
}

/** The formations' standing orders and the orders in transit. @param {import('../../js/game.js').Game} game */
function ordersCard(game) {
  const { formations, messengers } = hm(game.v);
  if (!formations.length) return null;
  const general = (/** @type {string|undefined} */ id) => /** @type {HmUnit|undefined} */ (game.v.units.find((u) => u.id === id))?.name || id || '';
  const formation = (/** @type {string|undefined} */ id) => formations.find((f) => f.id === id)?.name || id || '';
  const sides = [...new Set(formations.map((f) => f.side))];
  return card(game, 'hm-orders', 'Orders', [
    messengers.length ? h('ul', { class: 'plain small hm-messengers' }, messengers.map((m) => h('li', { 'data-hex': m.hex || '' },
      `${m.side}: ${m.from} → ${m.formation}, ${m.order_text ? `"${m.order_text}"` : 'riding back'}, at ${m.hex}`,
      h('span', { class: 'muted' }, ` (${general(m.from)} to ${formation(m.formation)})`),
      m.route && m.route.length > 1 ? h('span', { class: 'muted' }, `; ${m.route.length - 1} hex${m.route.length === 2 ? '' : 'es'} to ${m.route[m.route.length - 1]} (about ${Math.ceil((m.route.length - 1) / Math.max(1, m.movement))} turn${Math.ceil((m.route.length - 1) / Math.max(1, m.movement)) === 1 ? '' : 's'})`) : null))) : h('p', { class: 'small muted' }, 'No messenger riding.'),
    ...sides.map((side) => h('details', { class: 'hm-formations' },
      h('summary', {}, `${side}: standing orders`),
      h('ul', { class: 'plain small' }, formations.filter((f) => f.side === side).map((f) => h('li', { 'data-formation': f.id },
        h('b', {}, f.id), ` ${f.name}${f.commander ? ` (${f.commander})` : ''}: ${f.order_text}`))))),
  ], { open: false });
}

/** The sequence of play ([5.1.2]): each army's player-turn in five stages, the first army
 *  first. @param {StateView} v @returns {Sequence} */
function sequence(v) {
  const stages = ['rally', 'orders', 'movement', 'combat', 'crisis'];
  const combat = ['artillery', 'attacks', 'resolution'];
  const at = combat.includes(v.step) ? 'combat' : v.step;
  const idx = stages.indexOf(at);
  /** @type {Sequence['phases']} */
  const phases = stages.map((st, i) => ({
    label: st === 'combat' ? 'Combat' : STEP_NAMES[st],
    state: v.step === 'over' || v.step === 'turn_end' ? 'past' : i < idx ? 'past' : i === idx ? 'now' : 'next',
    ...(st === 'combat' ? { steps: combat.map((c) => ({ label: STEP_NAMES[c], now: v.step === c })) } : {}),
  }));
  /** @type {Sequence['notes']} */
  const notes = [];
  if (v.night) notes.push({ case: '[11.2]', text: 'night: no combat, no entering the enemy\'s zones of control.' });
  return { phases, notes };
}

/** The name of an event in the events panel, or null for one it does not list. @param {GameEvent} e */
function eventLabel(e) {
  switch (e.kind) {
    case 'combat': return `Combat${e.result ? ` · ${e.result}` : ''}`;
    case 'charge': return `Charge on a square${e.result ? ` · ${e.result}` : ''}`;
    case 'fired': return 'Artillery fire';
    case 'order_given': return 'Order';
    case 'order_delivered': return 'Order delivered';
    case 'messenger_captured': return 'Messenger captured';
    case 'rally': return 'Rally';
    case 'state_changed': return 'State of order';
    case 'base_lost': return 'Base unit lost';
    case 'removed': return 'Removed from play';
    case 'formed': return 'Formation';
    case 'advanced': return 'Advance after combat';
    case 'general_tested': return 'General under fire';
    case 'general_captured': return 'General captured';
    case 'battery_captured': return 'Battery captured';
    case 'crisis_of_morale': return 'Crisis of morale';
    case 'crisis_test': return 'Crisis test';
    case 'weather': return 'Weather';
    case 'over': return 'Battle over';
    case 'withdrew': return 'Falls back';
    case 'moved': case 'rode': case 'faced': case 'stage_began': case 'turn_began': return null;
    default: return e.kind ? e.kind.replace(/_/g, ' ') : null;
  }
}

/** The messengers' rides still to go, as the state view gives them (the rules' route, from where
 *  each is to whom he rides: his formation's commander, or back to his general, [7.1.2.1]).
 *  @param {StateView} v */
function mapRoutes(v) {
  return hm(v).messengers.filter((m) => Array.isArray(m.route) && m.route.length > 1).map((m) => ({
    id: m.id,
    hexes: /** @type {string[]} */ (m.route),
    label: `${m.side} messenger from ${m.from} to ${m.formation}${m.order_text ? ` carrying "${m.order_text}"` : ', riding back'}: ${(m.route?.length || 1) - 1} hexes to ${m.route?.[m.route.length - 1]}`,
  }));
}

/** The formations under a general: those he commands and, down the order of battle, every one
 *  under them (the formations' `parent`). @param {StateView} v @param {string} general */
function formationsUnder(v, general) {
  const { formations } = hm(v);
  const g = /** @type {HmUnit|undefined} */ (v.units.find((u) => u.id === general));
  const under = new Set(g?.commands || []);
  for (let grew = true; grew;) {
    grew = false;
    for (const f of formations) if (f.parent && under.has(f.parent) && !under.has(f.id)) { under.add(f.id); grew = true; }
  }
  return under;
}

/** A selected (or pointed-at) general's "range": the hexes of his formations' troops on the
 *  table (his bonus itself counts in his own hex only). @param {StateView} v @param {string} id */
function unitRange(v, id) {
  const u = /** @type {HmUnit|undefined} */ (v.units.find((x) => x.id === id));
  if (!u || u.role !== 'general') return null;
  const under = formationsUnder(v, id);
  const hexes = new Set(v.units.filter((x) => x.type !== 'leader' && x.hex && under.has(/** @type {HmUnit} */ (x).command || '')).map((x) => /** @type {string} */ (x.hex)));
  return hexes.size ? hexes : null;
}

registerSystem({
  id: 'hex-miniatures',
  name: 'Hex miniatures',
  unitColours,
  sideColour,
  counterFace: (u, k, c) => (u.type === 'leader' ? roundFace(/** @type {HmUnit} */ (u), k, c) : counterFace(/** @type {HmUnit} */ (u), k, c)),
  unitName: (u) => unitName(/** @type {HmUnit} */ (u)),
  unitMark: (u) => NATION_MARKS[u.nation] || null,
  unitValues: (u) => {
    const x = /** @type {HmUnit} */ (u);
    return x.type === 'leader' ? (x.role === 'messenger' ? 'messenger' : x.senior ? '+0.200' : '+0.100') : `${x.strength} (${x.bases}/${x.full_bases})`;
  },
  unitLines: (u) => unitLines(/** @type {HmUnit} */ (u)),
  stepName: (step) => STEP_NAMES[step] || step,
  stepHint: (step) => STEP_HINTS[step] || '',
  obligationLabel: (kase) => kase,
  isCombatEvent: (e) => e.kind === 'combat' || e.kind === 'charge' || e.kind === 'fired',
  eventLabel,
  sequence,
  panels: (game) => [battleCard(game), victoryCard(game), ordersCard(game)],
  mapShade,
  mapRoutes,
  unitRange,
  // the verbs of crates/hex-miniatures/src/action.rs
  grammar: () => 'The grammar: order G F hold|free|HEX, move U HEX, ride G HEX, face U DIR, form U line|column|square|limbered|unlimbered, fire B U, attack U HEX, advance U, end — units and generals by id (FR-21-2M-1, yorck), formations by id (PR-7), hexes XXYY, directions E NE NW W SW SE.',
  legendUnits: () => Object.entries(NATIONS).map(([nation, c]) => ({ code: NATION_CODES[nation] || nation.slice(0, 2).toUpperCase(), name: c.name, fill: c.fill, text: c.text, mark: NATION_MARKS[nation] })),
  legendMarks: () => [
    { cls: 'hm-disordered', label: 'Disordered (a thin yellow stroke)' },
    { cls: 'hm-retiring', label: 'Retiring (an orange stroke)' },
    { cls: 'hm-routed', label: 'Routed (a heavy vermillion stroke)' },
    { cls: 'hm-square', label: 'In square (a heavy frame)' },
    { cls: 'hm-unseen', label: 'Greyed: out of sight of the side to act' },
    { cls: 'hm-route', label: 'A messenger\'s ride still to go' },
    { cls: 'range', label: 'With a general selected: his formations\' troops' },
  ],
  helpLines: () => [
    'Hex miniatures: battalions, cavalry regiments and batteries of base units on 200 m hexes, ten minutes a turn. Each army\'s player-turn: rally, orders, movement, combat (artillery, then cavalry and squares, then the rest), crisis of morale.',
    'Counters show their strength and base units left (strength·bases); tags mark a unit disordered (DIS), retiring (RET) or routed (RTD), in column (COL) or square (SQU), a battery limbered (LIM); the notch is the hexside it faces. A unit out of order is also struck through corner to corner (yellow disordered, orange retiring, a heavy vermillion stroke routed); a square has a heavy frame inside its edge. After an action, an arrow shows where a unit that fell back came from.',
    'Generals are round counters with their bonus (it counts for the troops in his hex); select one to shade his formations\' troops. Messengers (M) carry orders to formations at five hexes a turn and may be captured: a dashed arrow shows the ride each has still to go. The Orders panel lists the standing orders and the orders in transit.',
    'Sight shortens with the weather and at dusk: the battle panel gives the turn\'s visible range, and the map greys the hexes no unit of the side to act (or of your seat) sees. The victory table counts each army\'s base units lost against its 5% marks; at dusk the holder of every objective wins.',
  ],
});
