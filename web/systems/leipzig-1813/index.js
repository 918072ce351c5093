// Leipzig 1813, the strategic game (crates/leipzig-1813): the panel the generic board asks for
// this system's look and words. Counters show their printed values (strength-movement, a
// defence-only strength in parentheses) with the NATO symbol of their arm; supply units and
// depots are marked S and D; leaders are round counters with their number, surname and bonuses.
// The generic board stacks them by hex and draws the Allies' inverted counters (the
// Reconnaissance rule: where they stand, not what they are) as blank ones. The side panels show
// the turn and the victory point track, the cities of the schedule and the fortresses with their
// sieges, the special rules in force, and the combats of the combat phase. Registered under the
// system id `leipzig-1813`; everything comes from the state view the server's presenter
// (crates/present/src/l1813_views.rs) gives.

import { h, s } from '../../js/util.js';
import { armSymbol } from '../../js/views/symbol.js';
import { registerSystem } from '../../js/systems.js';
import { card, unitBtn } from '../../js/views/sidebar.js';
import { fetchPreview } from '../../js/views/hover.js';

/** @typedef {import('../../js/api.js').Unit} Unit */
/** @typedef {import('../../js/api.js').StateView} StateView */
/** @typedef {import('../../js/api.js').GameEvent} GameEvent */
/** @typedef {import('../../js/systems.js').Colours} Colours */
/** @typedef {import('../../js/systems.js').Sequence} Sequence */

/**
 * The system's members of a unit entry and of the state view (l1813_views.rs).
 * @typedef {Unit & {kind?: string, echelon?: string|null, name?: string, worth?: number, defence_only?: boolean,
 *   mp?: number|null, dispersed?: boolean, march?: {march: string, state: string, letter?: string}|null,
 *   supplied?: boolean, supply_use?: string[], stopped?: boolean, aside?: boolean, saxon?: boolean, gotha?: boolean,
 *   place?: string|null, revealed?: boolean, hidden_from?: string|null,
 *   leader?: {number: number, name: string, offence: number, defence: number}|null}} LUnit
 * @typedef {{name: string, hex: string, holder: string|null, points: number, besieged: boolean}} City
 * @typedef {{name: string, hex: string, holder: string|null, besieged: boolean, garrison: number|null}} Fortress
 * @typedef {{points: Record<string, number>, losses: Record<string, {combat: number, march: number, total: number}>,
 *   per_division: number, cities: City[]}} Victory
 * @typedef {{from: string, targets: string[], resolved: boolean, result: string|null}} Battle
 * @typedef {{reconnaissance: boolean, reconnaissance_until: number|null, austria_open: boolean,
 *   austria_intervened: number|null, bavaria_defected: number|null, german_rebellion: boolean,
 *   saxon_garrison: {at: string, moves_from_turn: number}|null}} Special
 */

/** The system's members of a state view. @param {StateView} v */
function l1813(v) {
  const x = /** @type {any} */ (v);
  return {
    /** @type {Victory|null} */ victory: x.victory || null,
    /** @type {Fortress[]} */ fortresses: Array.isArray(x.fortresses) ? x.fortresses : [],
    /** @type {Battle[]} */ battles: Array.isArray(x.battles) ? x.battles : [],
    /** @type {Special|null} */ special: x.special || null,
    /** @type {string|null} */ hidden: typeof x.hidden === 'string' ? x.hidden : null,
  };
}

/**
 * Counter colours by nationality (the counters' colours: the French dark blue, the Allies
 * others), Okabe-Ito based as elsewhere on the board.
 * @type {Record<string, Colours>}
 */
export const NATIONS = {
  French: { fill: '#1F3A93', text: '#FFFFFF', name: 'French' },
  Saxon: { fill: '#56B4E9', text: '#1A1A1A', name: 'Saxon' },
  Russian: { fill: '#00775A', text: '#FFFFFF', name: 'Russian' },
  Prussian: { fill: '#2B2B2B', text: '#FFFFFF', name: 'Prussian' },
  Swedish: { fill: '#F0E442', text: '#1A1A1A', name: 'Swedish' },
  Austrian: { fill: '#F3EBD3', text: '#1A1A1A', name: 'Austrian' },
  Bavarian: { fill: '#CC79A7', text: '#1A1A1A', name: 'Bavarian' },
};

/** Each nationality's mark (a shape of the board's `MARKS`), so that they are told apart
 *  without colour. @type {Record<string, string>} */
export const NATION_MARKS = { French: 'disc', Saxon: 'ring', Russian: 'triangle', Prussian: 'square', Swedish: 'cross', Austrian: 'diamond', Bavarian: 'bar' };

/** @param {string} nation @returns {Colours} */
function nationColours(nation) {
  return NATIONS[nation] || { fill: '#BBBBBB', text: '#1A1A1A', name: nation };
}

/** The colour that stands for a side. @param {string} side @returns {Colours} */
function sideColour(side) {
  return side === 'French' ? NATIONS.French : { fill: '#00775A', text: '#FFFFFF', name: side };
}

/** Human words for the steps. @type {Record<string, string>} */
export const STEP_NAMES = {
  setup: 'Set-up',
  movement: 'Movement',
  attack: 'Declaring attacks and supply',
  retreat: 'Retreat before combat',
  defence_supply: 'Defender\'s supply',
  resolve: 'Resolving combats',
  over: 'Game over',
};

/** What the player to act is asked to do, per step. @type {Record<string, string>} */
export const STEP_HINTS = {
  setup: 'Place each waiting unit on one of its hexes (select it, then click a shaded hex), or combine units where they stand; or let the computer finish the set-up for you. End when done.',
  movement: 'Move a unit (select it, click a shaded hex), break it down or build one up (select a unit of the stack: its card lists them), declare a forced march and roll for it. Supply units support stacks and marches. End the phase when done.',
  attack: 'Declare attacks: select a unit of yours, then click an adjacent enemy hex to see the odds and confirm; allocate supply units to them (untick a unit in the stack card to keep it out of its hex\'s attack), then end.',
  retreat: 'You are attacked: a unit may retreat before combat, or end.',
  defence_supply: 'Allocate supply units to the defence, then end.',
  resolve: 'The combats are resolved, a die each. Where a retreat has equal routes its owner chooses one: click a highlighted hex.',
  over: 'The game is over.',
};

/** The face of a combat counter, supply unit or depot.
 *  @param {LUnit} u @param {number} k @param {Colours} c */
function counterFace(u, k, c) {
  const S = k / 0.72;
  const f = (/** @type {number} */ n) => (Math.round(n * 100) / 100).toString();
  const text = c.text;
  /** @type {SVGElement[]} */
  const out = [];
  const { els, x: bx, y: by, w: bw, h: bh } = armSymbol(u.type, k, text);
  out.push(...els);
  if (u.type !== 'infantry' && u.type !== 'cavalry') out.push(s('text', { x: f(bx + bw / 2), y: f(by + bh * 0.8), 'font-size': f(bh * 0.9), fill: text, 'text-anchor': 'middle', 'font-weight': 'bold' }, u.type === 'depot' ? 'D' : 'S'));
  // the echelon above (XX division, XXX corps, XXXX army)
  const ech = u.echelon === 'army' ? 'XXXX' : u.echelon === 'corps' ? 'XXX' : u.echelon === 'division' ? 'XX' : '';
  if (ech) out.push(s('text', { x: f(0.02 * S), y: f(by - 0.04 * S), 'font-size': f(0.11 * S), fill: text, 'text-anchor': 'middle', class: 'designation' }, ech));
  const values = u.type === 'supply' || u.type === 'depot' ? `${u.movement}` : u.designation;
  out.push(s('text', { x: f(0.02 * S), y: f(0.3 * S), 'font-size': f(0.23 * S), 'font-weight': 'bold', fill: text, 'text-anchor': 'middle', class: 'sm', ...(values.length >= 5 ? { textLength: f(0.62 * S), lengthAdjust: 'spacingAndGlyphs' } : {}) }, values));
  return out;
}

/** A leader's face: his number and surname, his offensive and defensive bonuses.
 *  @param {LUnit} u @param {number} k @param {Colours} c */
function leaderFace(u, k, c) {
  const name = (u.leader?.name || u.designation || u.id).split(' ').pop() || u.id;
  const fs = Math.min(0.24 * k, (1.3 * k) / Math.max(3, [...name].length));
  const out = [s('text', { y: (-fs * 0.1).toFixed(2), 'font-size': fs.toFixed(2), fill: c.text, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'designation' }, name)];
  if (u.leader) out.push(s('text', { y: (fs * 1.0).toFixed(2), 'font-size': (fs * 0.8).toFixed(2), fill: c.text, 'text-anchor': 'middle', class: 'ratings' }, `+${u.leader.offence}/+${u.leader.defence}`));
  return out;
}

/** @param {LUnit} u */
function unitName(u) {
  if (u.type === 'leader') return `${u.id} (${u.nation} leader ${u.leader?.number ?? ''} ${u.leader?.name ?? ''})`;
  return `${u.id} (${u.nation} ${u.name || u.type})`;
}

/** @param {LUnit} u */
function unitLines(u) {
  if (u.type === 'leader') {
    return [
      `${u.nation} leader ${u.leader?.number ?? ''}: ${u.leader?.name ?? u.designation}`,
      `Adds up to ${u.leader?.offence ?? 0} in attack, ${u.leader?.defence ?? 0} in defence; movement ${u.movement}${typeof u.mp === 'number' ? ` (${u.mp} MP left)` : ''}`,
    ];
  }
  const state = [
    u.dispersed ? 'dispersed' : null,
    u.march ? `${u.march.march} forced march (${u.march.state}${u.march.letter ? ` ${u.march.letter}` : ''})` : null,
    u.status === 'map' ? (u.supplied ? 'in supply' : 'out of supply') : u.status,
    u.supply_use?.length ? `supply for ${u.supply_use.join(', ')}` : null,
    u.saxon ? 'Saxon garrison' : null,
    u.markers?.includes('besieged') ? 'besieged' : null,
    u.aside ? 'stands aside from its hex\'s attack' : null,
    u.hidden_from ? `hidden from the ${u.hidden_from}` : u.revealed ? 'revealed to the French' : null,
  ].filter(Boolean);
  return [
    `${u.nation} ${u.name || u.type}${u.place ? ` at ${u.place}` : ''}`,
    `Strength ${u.defence_only ? `(${u.strength}) in defence only` : u.strength}, movement ${u.movement}${typeof u.mp === 'number' ? ` (${u.mp} MP left)` : ''}`,
    state.join(', '),
  ];
}

/** The victory point track and the cities: each side's points, its losses, the cities held.
 *  @param {import('../../js/game.js').Game} game */
function victoryCard(game) {
  const { victory, hidden } = l1813(game.v);
  if (!victory) return null;
  const sides = Object.keys(victory.points);
  const most = Math.max(10, ...sides.map((x) => victory.points[x]));
  const swatch = (/** @type {string} */ side) => h('span', { class: 'swatch', style: `display:inline-block;width:12px;height:12px;border:1px solid #000;border-radius:2px;vertical-align:-1px;background:${sideColour(side).fill}`, 'aria-hidden': 'true' });
  const [a, b] = sides;
  const lead = a && b ? victory.points[a] - victory.points[b] : 0;
  const body = [
    h('p', { class: 'small l1813-turn' }, `Turn ${game.v.turn} of ${game.v.first_turn}–${game.v.last_turn}; the ${game.v.phasing} player-turn.`),
    hidden ? h('p', { class: 'small l1813-hidden' }, `Reconnaissance: the ${hidden} counters are inverted; you see where they stand, not what they are, until your units examine them.`) : null,
    h('ul', { class: 'plain small l1813-vp' }, sides.map((side) => h('li', { 'data-side': side },
      swatch(side), ' ', h('b', {}, side), `: ${victory.points[side]} victory points`,
      victory.losses[side] ? h('span', { class: 'muted' }, ` (lost ${victory.losses[side].combat} in combat, ${victory.losses[side].march} by forced march)`) : null,
      h('div', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': most, 'aria-valuenow': victory.points[side], 'aria-label': `${side}: ${victory.points[side]} victory points` },
        h('div', { class: 'bar-fill', style: `width:${((victory.points[side] / most) * 100).toFixed(1)}%;background:${sideColour(side).fill}` }))))),
    a && b ? h('p', { class: 'small l1813-lead' }, lead === 0 ? 'The sides are level.' : `The ${lead > 0 ? a : b} lead by ${Math.abs(lead)} point${Math.abs(lead) === 1 ? '' : 's'}.`) : null,
    victory.cities.length ? h('table', { class: 'tbl small l1813-cities' },
      h('thead', {}, h('tr', {}, h('th', {}, 'City'), h('th', {}, 'Points'), h('th', {}, 'Held by'))),
      h('tbody', {}, victory.cities.map((c) => h('tr', { 'data-city': c.name },
        h('td', {}, `${c.name} (${c.hex})`), h('td', {}, String(c.points)), h('td', {}, `${c.holder || '—'}${c.besieged ? ', besieged' : ''}`))))) : null,
    h('p', { class: 'small muted' }, `${victory.per_division} point${victory.per_division === 1 ? '' : 's'} for each enemy division or leader destroyed (How to Win).`),
  ];
  return card(game, 'l1813-victory', 'Victory points', body);
}

/** The fortresses and their sieges. @param {import('../../js/game.js').Game} game */
function fortressCard(game) {
  const { fortresses } = l1813(game.v);
  if (!fortresses.length) return null;
  return card(game, 'l1813-fortresses', 'Fortresses', [
    h('ul', { class: 'plain small l1813-fortresses' }, fortresses.map((f) => h('li', { 'data-hex': f.hex, class: f.besieged ? 'besieged' : '' },
      h('b', {}, f.name), ` (${f.hex}): `, f.holder ? `${f.holder}${f.garrison !== null ? `, ${f.garrison} counter${f.garrison === 1 ? '' : 's'}` : ''}` : 'empty',
      f.besieged ? h('span', { class: 'l1813-siege' }, ' · under siege') : null))),
  ], { open: false });
}

/** The combats of the combat phase and the special rules in force. @param {import('../../js/game.js').Game} game */
function situationCard(game) {
  const { battles, special } = l1813(game.v);
  const rules = special ? [
    special.reconnaissance ? `Reconnaissance: Allied units hidden from the French through turn ${special.reconnaissance_until}` : null,
    special.austria_open ? 'Austria is open to both sides' : 'No unit may enter Austria',
    special.austria_intervened ? `Austria intervened on turn ${special.austria_intervened}` : null,
    special.bavaria_defected ? `Bavaria defected on turn ${special.bavaria_defected}` : null,
    special.german_rebellion ? 'The German rebellion is under way' : null,
    special.saxon_garrison ? `The Saxon garrison of ${special.saxon_garrison.at} may not move before turn ${special.saxon_garrison.moves_from_turn}` : null,
  ].filter(Boolean) : [];
  if (!battles.length && !rules.length) return null;
  return card(game, 'l1813-situation', 'Combats and special rules', [
    battles.length ? h('ul', { class: 'plain small l1813-battles' }, battles.map((b) => h('li', { 'data-from': b.from },
      `${b.from} attacks ${b.targets.join(', ')}`, b.resolved ? h('b', {}, ` → ${b.result}`) : h('span', { class: 'muted' }, ' (to be resolved)')))) : null,
    rules.length ? h('ul', { class: 'plain small l1813-rules' }, rules.map((r) => h('li', {}, r))) : null,
  ]);
}

/**
 * The odds of an attack as the server's preview gives them (`odds`: the rules' arithmetic,
 * crates/present/src/l1813_views.rs): the attacking and defending strengths with and without
 * supply, each case's percentage and its column (rounded for the defender), the column's six
 * results, the terrain and the leaders; or what a break-down or build-up would make
 * (`regroup`). @param {any} answer
 */
function previewView(answer) {
  const o = answer?.odds;
  if (o) {
    const sup = (/** @type {boolean} */ b) => (b ? 'yes' : 'no');
    const cases = Array.isArray(o.cases) ? o.cases : [];
    const leaders = (/** @type {{name: string, bonus: number}[]|null} */ ls) => (ls && ls.length ? ls.map((l) => `${l.name} +${l.bonus}`).join(', ') : 'no leader');
    const terrain = (o.defenders || []).map((/** @type {any} */ d) => `${d.hex}${d.place ? ` (${d.place})` : ''}: ${d.fortress ? 'fortress, ' : ''}defence ×${d.multiplier}${d.river ? ', across a river' : ''}${d.printed ? `, strengths ${d.printed.join(' + ') || 'none'}` : ''}${d.leaders?.length ? `, ${leaders(d.leaders)}` : ''}`);
    return h('div', { class: 'l1813-odds', 'data-from': o.from, 'data-targets': (o.targets || []).join(' ') },
      h('div', { class: 'hc-odds-head' }, `${o.from} attacks ${(o.targets || []).join(', ')}: strengths ${(o.attack_printed || []).join(' + ') || 'none'}, ${leaders(o.attack_leaders)}`),
      o.hidden ? h('div', { class: 'hc-muted' }, 'The defenders are inverted counters (Reconnaissance): their strength is not known until the attack reveals them.') : null,
      h('table', { class: 'tbl small l1813-odds-table' },
        h('thead', {}, h('tr', {}, h('th', { title: 'Supplied? attacker / defender' }, 'Supplied A / D'), h('th', {}, 'Strengths'), h('th', {}, 'Odds → column'))),
        h('tbody', {}, cases.map((/** @type {any} */ c) => h('tr', { 'data-attacker-supplied': String(c.attacker_supplied), 'data-defender-supplied': String(c.defender_supplied), 'data-column': c.column || '', title: c.refused || `die 1–6: ${(c.results || []).join(', ')}` },
          h('td', {}, `${sup(c.attacker_supplied)} / ${sup(c.defender_supplied)}`),
          h('td', {}, c.defence === null ? `${c.attack} : ?` : `${c.attack} : ${c.defence}`),
          h('td', {}, `${typeof c.percent === 'number' ? `${c.percent}%` : '?'} → `, h('b', { class: 'l1813-column' }, c.column || (c.refused ? 'refused' : '?')),
            h('div', { class: 'muted l1813-results', title: 'die 1–6' }, c.refused ? c.refused : (c.results || []).join(' '))))))),
      h('div', { class: 'hc-terrain' }, terrain.join('; ') || 'No defender.'),
      h('div', { class: 'hc-muted' }, `${o.attacker_supply_allocated ? 'A supply unit is allocated to this hex' : o.attacker_supply_at_hand ? 'A supply unit is at hand (allocate it after declaring)' : 'No supply unit at hand: the attackers fight at half strength'}${o.min_percent ? `; across a river at least ${o.min_percent}%` : ''}${o.fortress ? '; against a fortress only Dx results count' : ''}. Percentages are rounded down to a column (${o.case}).`));
  }
  const r = answer?.regroup;
  if (r) {
    const list = (/** @type {any[]} */ us) => us.map((u) => `${u.id} (${u.name} ${u.designation}, ${u.mp} MP)`).join(', ');
    return h('div', { class: 'l1813-regroup' }, `Takes ${list(r.taken || [])}; makes ${list(r.made || [])} (${r.case}).`);
  }
  return null;
}

/** What break-downs and build-ups make, by state and action (the server's preview, asked once). @type {Map<string, any>} */
const regroups = new Map();

/**
 * The stack of the selected unit's hex, opened (shown right below the Orders card): its units,
 * each a chip that selects it; the break-downs and build-ups the legal actions allow there
 * (Stacking (E)), each a button that says what it takes and makes and at what movement points
 * (the server's preview), to be clicked rather than typed; and when an attack is declared from
 * the hex, a box per unit saying whether it takes part, unticked to keep it out of the attack
 * (`aside F3`, Stacking (D), ruling L44) when the legal actions offer it.
 * @param {import('../../js/game.js').Game} game
 */
function stackCard(game) {
  const v = game.v;
  const sel = game.ctl.selected ? v.units.find((u) => u.id === game.ctl.selected) : null;
  if (!sel?.hex || sel.hidden) return null;
  const hex = sel.hex;
  const can = game.canAct();
  const all = /** @type {LUnit[]} */ (v.units.filter((u) => u.hex === hex));
  const here = new Set(all.filter((u) => !u.hidden).map((u) => u.id));
  const legal = can ? v.legal_actions || [] : [];
  const regroup = legal.filter((a) => (a.kind === 'split' && a.unit && here.has(a.unit)) || (a.kind === 'combine' && a.from === hex));
  const asides = new Map(legal.filter((a) => a.kind === 'aside' && a.unit && here.has(a.unit)).map((a) => [/** @type {string} */ (a.unit), a.text]));
  const { battles } = l1813(v);
  const battle = battles.find((b) => b.from === hex && !b.resolved) || null;
  const own = all.filter((u) => u.side === sel.side);
  if (all.length < 2 && !regroup.length && !asides.size) return null;
  const label = (/** @type {import('../../js/api.js').LegalAction} */ a) => {
    const got = regroups.get(`${v.state_hash} ${a.text}`);
    if (!got) {
      regroups.set(`${v.state_hash} ${a.text}`, null);
      fetchPreview(game, a.text).then((p) => { regroups.set(`${v.state_hash} ${a.text}`, p.answer?.regroup || { error: p.error }); if (regroups.size > 300) regroups.clear(); game.renderSidebar(); });
    }
    const r = got && !got.error ? got : null;
    const names = (/** @type {any[]} */ us) => us.map((u) => `${u.id} ${u.designation}`).join(', ');
    if (a.kind === 'split') {
      return [h('b', {}, `Break down ${a.unit}`), h('small', {}, r ? ` into ${names(r.made)} (${r.made[0]?.mp ?? '?'} MP left each)` : ` (${a.text})`)];
    }
    return [h('b', {}, `Build up ${r ? r.made.map((/** @type {any} */ u) => `${u.name} ${u.designation}`).join(', ') : a.text.split(' ').pop()}`), h('small', {}, r ? ` from ${names(r.taken)} (${r.made[0]?.mp ?? '?'} MP left)` : ` (${a.text})`)];
  };
  const fights = (/** @type {LUnit} */ u) => u.type === 'infantry' || u.type === 'cavalry' || u.type === 'leader';
  const place = /** @type {LUnit} */ (sel).place;
  const others = all.filter((u) => u.side !== sel.side);
  return box('l1813-stack', `Stack at ${hex}${place ? ` (${place})` : ''}`, [
    h('div', { class: 'chips l1813-stack-units' }, own.map((u) => h('span', { class: 'l1813-stack-unit', 'data-unit': u.id },
      unitBtn(game, u, 'small'),
      h('small', {}, ` ${u.name || u.type}${(u.name || '').includes(u.designation) ? '' : ` ${u.designation}`}${typeof u.mp === 'number' ? `, ${u.mp} MP` : ''}${u.dispersed ? ', dispersed' : ''}${u.aside ? ', stands aside' : ''}`)))),
    others.length ? h('p', { class: 'small muted' }, `Also here: ${others.map((u) => (u.hidden ? `an inverted ${u.side} counter` : `${u.id} (${u.side})`)).join(', ')}.`) : null,
    battle && own.some(fights) ? h('fieldset', { class: 'l1813-aside', 'data-from': hex },
      h('legend', { class: 'small' }, `Attack from ${hex} on ${battle.targets.join(', ')}: who takes part`),
      ...own.filter(fights).map((u) => {
        const act = asides.get(u.id);
        const box = h('input', { type: 'checkbox', 'data-key': `aside:${u.id}`, 'data-unit': u.id, checked: !u.aside, disabled: !act,
          title: act ? `Untick to keep ${u.id} out of this attack (${act})` : u.aside ? `${u.id} stands aside (take the action back to undo it)` : `${u.id} takes part: it may not stand aside (the last combat unit, or the river's 160%)` });
        if (act) box.addEventListener('change', () => { if (!/** @type {HTMLInputElement} */ (box).checked) game.act(act); });
        return h('label', { class: 'small l1813-aside-unit' }, box, ` ${u.id} ${u.name || u.type}${(u.name || '').includes(u.designation) ? '' : ` ${u.designation}`}${u.aside ? ' — stands aside' : ''}`);
      }),
      h('p', { class: 'small muted' }, 'Units kept out of an attack neither add their strength nor share its result (Stacking (D), ruling L44).')) : null,
    regroup.length ? h('p', { class: 'small muted' }, 'Break a unit down into smaller ones, or build one up from units here (Stacking (E)): each costs the units a movement point in the movement phase.') : null,
    regroup.length ? h('div', { class: 'btn-col l1813-regroups' }, regroup.map((a) => h('button', { type: 'button', class: 'btn btn-wide', 'data-key': `act:${a.text}`, 'data-action': a.text, title: a.text, onclick: () => game.act(a.text) }, ...label(a)))) : null,
  ]);
}

/** A box of the Orders card (below the selected unit's card). @param {string} key @param {string} title @param {(Node|null)[]} body */
function box(key, title, body) {
  return h('section', { class: `choice l1813-box card-${key}`, 'data-card': key, 'aria-label': title }, h('h3', {}, title), ...body);
}

/**
 * A retreat after combat whose route its owner chooses among equal ends (Retreat Order of
 * Preference, ruling L45): the units retreating, and each end as a button; the ends are
 * highlighted on the map too, to be clicked. @param {import('../../js/game.js').Game} game
 */
function retreatCard(game) {
  const v = game.v;
  const c = /** @type {any} */ (v).retreat_choice;
  if (!c || !game.canAct()) return null;
  const routes = (v.legal_actions || []).filter((a) => a.kind === 'retreat');
  if (!routes.length) return null;
  const ends = Array.isArray(c.ends) ? c.ends : [];
  const named = (/** @type {string} */ hx) => c.ends_named?.[ends.indexOf(hx)] || hx;
  return box('l1813-retreat', 'Retreat: choose the route', [
    h('p', { class: 'small' }, `${c.scatter ? 'The scattered unit' : 'The stack'} ${(c.units || []).join(', ')} must retreat; the order of preference leaves ${routes.length} equal ends, and its owner chooses (Retreat Order of Preference, ruling L45). Click a highlighted hex on the map, or a Retreat button below.`),
    h('p', { class: 'small l1813-retreat-ends' }, 'Equal ends: ', routes.map((a, i) => [i ? ', ' : '', h('b', { 'data-hex': a.to || '' }, a.to ? named(a.to) : a.text)]), '.'),
  ]);
}

/**
 * The selected unit's forced march in words (Forced March): what its orders `march`, `press`
 * and `halt` (offered with it among the orders) would do now, and where its march stands.
 * @param {import('../../js/game.js').Game} game
 */
function marchBox(game) {
  const v = game.v;
  const sel = /** @type {LUnit|undefined} */ (game.ctl.selected ? v.units.find((u) => u.id === game.ctl.selected) : undefined);
  if (!sel || sel.hidden || sel.side !== v.to_act || !game.canAct()) return null;
  const mine = (v.legal_actions || []).filter((a) => a.unit === sel.id && ['march', 'press', 'halt'].includes(a.kind));
  if (!mine.length && !sel.march) return null;
  const m = sel.march;
  const lines = [];
  if (m) lines.push(m.state === 'declared' ? `${sel.id} is on a ${m.march} forced march: it moves up to ${m.march === 'triple' ? 'three' : 'two'} times its allowance before the roll.`
    : m.state === 'letter' ? `${sel.id}'s ${m.march} forced march rolled the letter ${m.letter}: roll on its table, or stop here.` : `${sel.id}'s ${m.march} forced march is over this phase.`);
  const declare = mine.filter((a) => a.kind === 'march').map((a) => a.text);
  if (declare.length) lines.push(`${declare.join(' or ')}: twice its allowance (three times, infantry only), then a die on the Forced March table that may disperse or destroy it; a march supported by a supply unit rolls on no table (Supply (C) III).`);
  for (const a of mine) {
    if (a.kind === 'march') continue;
    if (a.kind === 'press') lines.push(`${a.text}: ${m?.state === 'letter' ? `roll on table ${m.letter}` : 'roll the die on the Forced March table'}.`);
    else if (a.kind === 'halt') lines.push(`${a.text}: stop on ${m?.letter ? `the letter ${m.letter}` : 'the letter'}; the march ends where the unit stands.`);
  }
  return box('l1813-march', 'Forced march', [h('ul', { class: 'plain small' }, lines.map((l) => h('li', {}, l)))]);
}

/** The sequence of play (General Course of Play): each player-turn a movement then a combat
 *  phase, the French first. @param {StateView} v @returns {Sequence} */
function sequence(v) {
  const french = v.phasing === 'French';
  const combat = ['attack', 'retreat', 'defence_supply', 'resolve'];
  const now = (/** @type {boolean} */ side, /** @type {string} */ phase) => v.step !== 'setup' && v.step !== 'over' && side === french && (phase === 'movement' ? v.step === 'movement' : combat.includes(v.step));
  const state = (/** @type {boolean} */ side, /** @type {string} */ phase) => {
    if (v.step === 'setup') return 'next';
    if (v.step === 'over') return 'past';
    if (now(side, phase)) return 'now';
    const order = [[true, 'movement'], [true, 'combat'], [false, 'movement'], [false, 'combat']];
    const at = order.findIndex(([s2, p]) => s2 === french && (p === 'movement' ? v.step === 'movement' : combat.includes(v.step)));
    const me = order.findIndex(([s2, p]) => s2 === side && p === phase);
    return me < at ? 'past' : 'next';
  };
  /** @type {Sequence['phases']} */
  const phases = [
    { label: 'French movement', state: state(true, 'movement') },
    { label: 'French combat', state: state(true, 'combat'), steps: [
      { label: 'Attacks and supply', now: french && v.step === 'attack' },
      { label: 'Retreat before combat', now: french && v.step === 'retreat' },
      { label: 'Defender\'s supply', now: french && v.step === 'defence_supply' },
      { label: 'Resolution', now: french && v.step === 'resolve' },
    ] },
    { label: 'Allied movement', state: state(false, 'movement') },
    { label: 'Allied combat', state: state(false, 'combat') },
  ];
  /** @type {Sequence['notes']} */
  const notes = [];
  if (v.step === 'setup') notes.push({ case: 'How to Use the Scenarios', text: 'the Allies deploy first, then the French; the French move first.' });
  return { phases, notes };
}

/** The name of an event in the events panel, or null for one it does not list. @param {GameEvent} e */
function eventLabel(e) {
  switch (e.kind) {
    case 'combat_resolved': return `Combat${e.result ? ` · ${e.result}` : ''}`;
    case 'attack_declared': return 'Attack';
    case 'eliminated': return 'Eliminated';
    case 'dispersed': return 'Dispersed';
    case 'march_rolled': return 'Forced march';
    case 'overrun': return 'Overrun';
    case 'revealed': return 'Revealed';
    case 'city_taken': return 'City taken';
    case 'reinforcements': return 'Reinforcements';
    case 'special_rule': return 'Special rule';
    case 'game_over': return 'Game over';
    case 'moved': case 'placed': case 'phase_begins': return null;
    default: return e.kind ? e.kind.replace(/_/g, ' ') : null;
  }
}

registerSystem({
  id: 'leipzig-1813',
  name: 'Leipzig 1813',
  unitColours: (u) => nationColours(u.nation),
  sideColour,
  counterFace: (u, k, c) => (u.type === 'leader' ? leaderFace(u, k, c) : counterFace(u, k, c)),
  unitName,
  unitMark: (u) => NATION_MARKS[u.nation] || null,
  unitValues: (u) => (u.type === 'leader' ? `+${/** @type {LUnit} */ (u).leader?.offence ?? 0}/+${/** @type {LUnit} */ (u).leader?.defence ?? 0}` : u.designation),
  unitLines,
  stepName: (step) => STEP_NAMES[step] || step,
  stepHint: (step) => STEP_HINTS[step] || '',
  obligationLabel: (kase) => kase,
  isCombatEvent: (e) => e.kind === 'combat_resolved',
  eventLabel,
  sequence,
  ordersPanels: (game) => [retreatCard(game), marchBox(game), stackCard(game)],
  panels: (game) => [victoryCard(game), situationCard(game), fortressCard(game)],
  previewView,
  grammar: () => 'The grammar: place U HEX, move U HEX, split U KIND, combine HEX KIND, march U double|triple, press U, halt U, overrun HEX HEX, attack HEX HEX, supply U, retreat U HEX, end — units by their ids (F12), hexes XXYY.',
  legendUnits: () => Object.entries(NATIONS).map(([code, c]) => ({ code, name: c.name, fill: c.fill, text: c.text, mark: NATION_MARKS[code] })),
  legendMarks: () => [],
  helpLines: () => [
    'Leipzig 1813: weekly turns on the map of central Europe; each player-turn a movement phase, then a combat phase.',
    'Counters show their printed strength-movement; supply units (S) and depots (D) must be spent to stack, to fight at full strength and to force-march safely.',
    'A forced march doubles (or, for infantry, triples) a unit\'s movement: declare it, then roll on its table (press, or halt on a letter).',
    'In the spring scenarios the Allied counters are inverted: the French see a blank counter until they examine it (adjacent at the start of their movement, a cavalry unit moving next to it, or an attack).',
  ],
});
