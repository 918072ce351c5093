// The side panel: orders (the situation, the selected unit, the choices the legal actions offer,
// the command box), the rules system's panels, reinforcements, eliminated units, the log and the
// map as text. Generic: the system's panel gives names, values and its own cards.

import { h, fill, plural, copyText } from '../util.js';
import { caseLink, dieFace } from '../toast.js';
import { loseUnits } from '../actions.js';
import { counterIcon } from './board.js';
import { logCard } from './log.js';
import { eventsCard, whatChangedCard } from './events.js';
import { trackCard } from './track.js';
import { isLoopback } from '../api.js';
import { previewNodes } from './hover.js';
import { DIRS } from '../hex.js';

/** @typedef {import('../game.js').Game} Game */

/** A hexside's direction in words. @type {Record<string, string>} */
const DIR_WORDS = { E: 'east', NE: 'north-east', NW: 'north-west', W: 'west', SW: 'south-west', SE: 'south-east' };
/** @typedef {import('../api.js').Unit} Unit */

/**
 * A collapsible card that remembers whether the player opened it.
 * @param {Game} game @param {string} key @param {string} title @param {(Node|string|null|false)[]} body
 * @param {{open?: boolean, cls?: string, count?: string}} [o]
 */
export function card(game, key, title, body, o = {}) {
  const open = game.prefs.open[key] ?? o.open ?? true;
  const d = h('details', { class: `card card-${key} ${o.cls || ''}`, open, 'data-card': key },
    h('summary', {}, h('h2', {}, title), o.count ? h('span', { class: 'count' }, o.count) : null),
    h('div', { class: 'card-body' }, body));
  d.addEventListener('toggle', () => { game.prefs.open[key] = /** @type {HTMLDetailsElement} */ (d).open; game.savePrefs(); });
  return d;
}

/**
 * A collapsible sub-section that remembers whether the player opened it.
 * @param {Game} game @param {string} key @param {boolean} dflt @param {string} title @param {...(Node|null)} body
 */
export function sub(game, key, dflt, title, ...body) {
  const open = game.prefs.open[`sub:${key}`] ?? dflt;
  const d = h('details', { class: 'sub', open }, h('summary', { 'data-key': `sub:${key}` }, title), ...body);
  d.addEventListener('toggle', () => { game.prefs.open[`sub:${key}`] = /** @type {HTMLDetailsElement} */ (d).open; game.savePrefs(); });
  return d;
}

/** Rebuilds the side panel, keeping focus, scroll and the command being typed. @param {Game} game @param {HTMLElement} side */
export function renderSidebar(game, side) {
  const active = /** @type {HTMLElement|null} */ (document.activeElement);
  const key = active && side.contains(active) ? active.getAttribute('data-key') : null;
  const cmdValue = /** @type {HTMLInputElement|null} */ (side.querySelector('.cmd-input'))?.value || '';
  const logScroll = side.querySelector('.log-list');
  const atBottom = !logScroll || logScroll.scrollHeight - logScroll.scrollTop - logScroll.clientHeight < 30;
  const scroll = side.scrollTop;
  // a button that acted (an `end`, a die, a legal action) must not hand its focus to the button
  // of the same key in the next position: Enter pressed again would end the next phase too
  const moved = side.dataset.n !== undefined && side.dataset.n !== String(game.v.actions_recorded);
  const acted = !!key && moved && /^(act|legal|resolve|bar):/.test(key);
  side.dataset.n = String(game.v.actions_recorded);
  fill(side,
    ordersCard(game),
    whatChangedCard(game),
    trackCard(game),
    ...game.system.panels(game),
    seatCard(game),
    reinforcementsCard(game),
    eliminatedCard(game),
    eventsCard(game),
    logCard(game),
    textCard(game));
  side.scrollTop = scroll;
  const cmd = /** @type {HTMLInputElement|null} */ (side.querySelector('.cmd-input'));
  if (cmd && cmdValue) cmd.value = cmdValue;
  const log = side.querySelector('.log-list');
  if (log && atBottom) log.scrollTop = log.scrollHeight;
  if (acted) /** @type {HTMLElement|null} */ (side.querySelector('[data-key="orders-status"]'))?.focus({ preventScroll: true });
  else if (key) /** @type {HTMLElement|null} */ (side.querySelector(`[data-key="${CSS.escape(key)}"]`))?.focus({ preventScroll: true });
}

/**
 * A button that sends an action.
 * @param {Game} game @param {string} action @param {string|Node|(string|Node)[]} label @param {string} [cls]
 */
export function actBtn(game, action, label, cls = 'btn') {
  return h('button', { type: 'button', class: cls, 'data-key': `act:${action}`, title: action, onclick: () => game.act(action) }, label);
}

/** @param {Game} game @param {Unit} u @param {string} [extra] */
export function unitBtn(game, u, extra = '') {
  const sel = game.ctl.selected === u.id;
  return h('button', {
    type: 'button', class: `unit-chip${sel ? ' selected' : ''} ${extra}`, 'data-key': `unit:${u.id}`,
    'aria-pressed': String(sel),
    title: `${game.unitText(u)}${u.hex ? ` in ${u.hex}` : ''}`,
    onclick: () => game.selectUnit(u.id, true),
  }, counterIcon(u, 30, game.system), h('span', { class: 'chip-text' }, h('b', {}, u.hidden ? 'hidden' : u.id), h('small', {}, u.hex || (u.arrival ? `enters ${u.arrival.hex}` : ''))));
}

/** @param {Game} game */
function ordersCard(game) {
  const v = game.v;
  const sys = game.system;
  const byId = game.store.unitsById();
  const ctl = game.ctl;
  /** @type {(Node|string|null|false)[]} */
  const body = [];
  const can = game.canAct();
  /** @type {(Node|string|null|false)[]} where the game stands for this seat: the focus lands here after an action */
  const status = [];
  if (game.store.replayN !== null) {
    status.push(h('p', { class: 'hint' }, `Replay: the position after ${plural(game.store.replayN, 'action')}. The map is read-only; branch from here to play on from this point.`));
  } else if (v.outcome) {
    status.push(h('p', { class: 'hint' }, 'The game is over. ', caseLink(v.outcome.case), ' ', v.outcome.why));
  } else if (can) {
    status.push(h('p', { class: 'step-title' }, `${v.to_act}: ${sys.stepName(v.step)}`));
    status.push(h('p', { class: 'hint' }, sys.stepHint(v.step)));
  } else if (!game.token) {
    if (game.seatNote) status.push(h('p', { class: 'hint seat-note', role: 'note' }, game.seatNote));
    status.push(h('p', { class: 'hint' }, `You are watching this game. ${v.to_act === 'chance' ? 'The die is being rolled.' : `${v.to_act} to act.`}`));
  } else if (v.to_act === 'chance') {
    status.push(h('p', { class: 'hint' }, 'The die is being rolled…'));
  } else {
    status.push(h('p', { class: 'hint waiting' }, h('span', { class: 'dots', 'aria-hidden': 'true' }), game.mode === 'computer' ? `The computer (${v.to_act}) is thinking…` : `Waiting for the ${v.to_act} player.`));
  }
  body.push(h('div', { class: 'orders-status', tabindex: -1, 'data-key': 'orders-status' }, status));
  if (can && game.confirming) body.push(confirmBox(game, game.confirming));

  const sel = ctl.selected ? byId.get(ctl.selected) : undefined;
  if (sel) body.push(unitCard(game, sel));
  // the system's own boxes about the selected unit or the choice at hand, where the eye is
  body.push(...(sys.ordersPanels?.(game) || []));

  if (can) {
    const L = ctl.L;
    if (v.step === 'declare' && v.obligations.length) {
      body.push(h('div', { class: 'obligations' }, h('h3', {}, 'Obligations'),
        h('ul', { class: 'plain' }, v.obligations.map((o) => {
          const u = byId.get(o.unit);
          return h('li', {}, u ? unitBtn(game, u, 'small') : o.unit, ' ', caseLink(o.case), ' ', sys.obligationLabel(o.case));
        }))));
    }
    if (v.step === 'movement') {
      if (sel && L.moves.has(sel.id)) {
        const n = ctl.moves?.unit === sel.id ? ctl.moves.list.length : null;
        const priced = ctl.moves?.unit === sel.id && ctl.moves.list.some((d) => d.cost !== null);
        body.push(h('p', { class: 'small' }, n === null ? 'Finding the legal destinations…' : `${plural(n, 'legal destination')}, shaded on the map${priced ? ' by cost (darker is cheaper). Hover a hex to see the path;' : ';'} click it, or drag the counter there.`));
      }
      const movable = [...L.moves.keys()].map((id) => byId.get(id)).filter((u) => !!u);
      const onMap = movable.filter((u) => u.status === 'map');
      const entering = movable.filter((u) => u.status !== 'map');
      if (entering.length) body.push(h('h3', {}, 'Reinforcements entering now'), h('div', { class: 'chips' }, entering.map((u) => unitBtn(game, u))));
      if (onMap.length) body.push(sub(game, 'movable', onMap.length <= 16, `Units that may still move (${onMap.length})`, h('div', { class: 'chips' }, onMap.map((u) => unitBtn(game, u)))));
    }
    if (v.step === 'declare') {
      if (sel && L.attacks.has(sel.id)) {
        body.push(h('h3', {}, `${sel.id} may attack`), h('div', { class: 'btn-row' }, [...(L.attacks.get(sel.id)?.entries() || [])].map(([t, act]) => {
          const tu = byId.get(t);
          return actBtn(game, act, `Attack ${t}${tu?.hex ? ` (${tu.hex})` : ''}`, 'btn btn-attack');
        })));
      } else if (sel && L.targets.has(sel.id)) {
        body.push(h('h3', {}, `May attack ${sel.id}`), h('div', { class: 'btn-row' }, [...(L.targets.get(sel.id)?.entries() || [])].map(([a, act]) => actBtn(game, act, `${a} attacks`, 'btn btn-attack'))));
      } else {
        const attackers = [...L.attacks.keys()].map((id) => byId.get(id)).filter((u) => !!u);
        if (attackers.length) body.push(sub(game, 'attackers', attackers.length <= 12, `Units that may attack (${attackers.length})`, h('div', { class: 'chips' }, attackers.map((u) => unitBtn(game, u)))));
        else body.push(h('p', { class: 'small muted' }, v.combats.length ? 'No further attack can be declared.' : 'No attack can be declared.'));
      }
    }
    if (v.step === 'losses' && L.loses.length) {
      body.push(h('h3', {}, 'Choose the exchange losses'), h('div', { class: 'btn-col' }, L.loses.map((a) => {
        const us = loseUnits(a).map((id) => byId.get(id)).filter((u) => !!u);
        const total = us.reduce((n, u) => n + u.strength, 0);
        return actBtn(game, a, [h('span', {}, `Lose ${loseUnits(a).join(', ')}`), h('small', {}, ` (${total} strength points)`)], 'btn btn-wide');
      })));
    }
    for (const [uid, m] of L.retreats) {
      body.push(h('div', { class: 'choice' }, h('h3', {}, `Retreat ${uid}`), h('div', { class: 'btn-row' }, [...m.entries()].map(([hx, a]) => actBtn(game, a, `to ${hx} (${game.terrainOf(hx)})`)))));
    }
    for (const [uid, a] of L.stands) body.push(actBtn(game, a, `${uid} stands (8.15)`));
    for (const [uid, m] of L.advances) {
      body.push(h('div', { class: 'choice' }, h('h3', {}, `Advance ${uid}`), h('div', { class: 'btn-row' }, [...m.entries()].map(([hx, a]) => actBtn(game, a, `into ${hx}`)))));
    }
    if (L.hold) body.push(actBtn(game, L.hold, 'Hold — do not advance (7.74)', 'btn btn-wide'));
    if (L.rolls.length) {
      body.push(h('h3', {}, 'Enter the die'), h('div', { class: 'btn-row dice-row' }, L.rolls.map((a) => {
        const n = Number(a.split(/\s+/)[1]);
        return h('button', { type: 'button', class: 'die-btn', 'aria-label': a, title: a, 'data-key': `act:${a}`, onclick: () => game.act(a) }, dieFace(n));
      })));
    }
    const confirmable = new Set([...L.strikes.values()].flatMap((m) => [...m.values()]));
    // the hexsides the selected unit's stack may turn to face (also arrows on the map)
    const turns = sel?.hex ? L.facings.get(sel.hex) : null;
    if (sel?.hex && turns) {
      body.push(h('div', { class: 'choice facings', 'data-hex': sel.hex }, h('h3', {}, `Turn the stack in ${sel.hex} to face`),
        h('div', { class: 'btn-row' }, DIRS.filter((d) => turns.has(d)).map((d) => actBtn(game, /** @type {string} */ (turns.get(d)), DIR_WORDS[d] || d)))));
    }
    const own = sel ? L.byUnit.get(sel.id) || [] : [];
    if (sel && own.length) body.push(h('div', { class: 'choice unit-orders', 'data-unit': sel.id }, h('h3', {}, `Orders naming ${sel.id}`), ...otherActions(game, own, confirmable)));
    // the rest, without those just offered with the selected unit
    const rest = L.other.filter((a) => !own.includes(a));
    if (rest.length) body.push(...(sel && own.length ? [h('h3', {}, 'Other orders')] : []), ...otherActions(game, rest, confirmable));
    if (v.step === 'setup' || v.phase === 'setup') {
      // a set-up's many placements: the computer may make the rest (the server's `finish`)
      body.push(h('div', { class: 'btn-row finish-row' }, h('button', { type: 'button', class: 'btn', 'data-key': 'finish-step', title: 'The computer player makes the rest of this step\'s choices for you', onclick: () => game.finishStep() }, 'Let the computer finish this step')));
    }
    if (L.end) {
      const label = v.step === 'movement' ? `End the ${v.phasing} movement phase` : v.step === 'declare' ? (v.combats.length ? 'Done declaring: to the combats' : 'Declare no (more) attacks: end') : 'End';
      body.push(h('div', { class: 'end-row' }, actBtn(game, L.end, label, 'btn btn-primary btn-end')));
    }
  }
  body.push(commandBox(game, can));
  return card(game, 'orders', 'Orders', body, { open: true, cls: 'orders' });
}

/**
 * An action shown with its preview before it is sent (an attack whose die follows at once): the
 * preview (the system's view of it), then Confirm or Cancel.
 * @param {Game} game @param {{action: string, preview: import('./hover.js').Preview|null}} c
 */
function confirmBox(game, c) {
  return h('div', { class: 'confirm-box', role: 'group', 'aria-label': `Before the die: ${c.action}`, 'data-action': c.action },
    h('h3', {}, `Before the die: ${c.action}`),
    h('div', { class: 'btn-row' },
      h('button', { type: 'button', class: 'btn btn-primary', 'data-key': 'confirm-go', title: c.action, onclick: () => { game.confirming = null; game.act(c.action); } }, `Confirm: ${c.action}`),
      h('button', { type: 'button', class: 'btn', 'data-key': 'confirm-cancel', onclick: () => game.cancelConfirm() }, 'Cancel')),
    c.preview ? h('div', { class: 'confirm-preview hover-odds' }, ...previewNodes(game, c.action, c.preview)) : h('p', { class: 'small muted' }, 'Asking the server for the odds…'));
}

/**
 * The legal actions the board has no place for, as buttons: grouped by their verb, a verb with
 * many actions (a system's orders to every hex) folded under its name so that the few stay in view.
 * An attack of one hex on another (`confirm`) is shown with its odds first, then confirmed.
 * @param {Game} game @param {string[]} actions @param {Set<string>} [confirm] @returns {Node[]}
 */
function otherActions(game, actions, confirm = new Set()) {
  /** @type {Map<string, string[]>} */
  const byVerb = new Map();
  for (const a of actions) {
    const verb = a.split(/\s+/)[0] || a;
    if (!byVerb.has(verb)) byVerb.set(verb, []);
    /** @type {string[]} */ (byVerb.get(verb)).push(a);
  }
  /** @type {string[]} */
  const few = [];
  /** @type {Node[]} */
  const folded = [];
  const btn = (/** @type {string} */ a) => (confirm.has(a)
    ? h('button', { type: 'button', class: 'btn btn-attack', 'data-key': `confirm:${a}`, title: `${a}: see the odds, then confirm`, onclick: () => game.confirm(a) }, `${a}…`)
    : actBtn(game, a, a));
  for (const [verb, list] of byVerb) {
    if (list.length <= 16) few.push(...list);
    else folded.push(sub(game, `other:${verb}`, false, `${verb} (${list.length})`, h('div', { class: 'btn-row' }, list.map(btn))));
  }
  return [few.length ? h('div', { class: 'btn-row' }, few.map(btn)) : null, ...folded].filter((x) => !!x);
}

/**
 * The player's own seat link, to play this seat from another browser or device (a player's
 * seats live in one browser's storage), with what holding it means.
 * @param {Game} game
 */
function seatCard(game) {
  const link = game.seatLink();
  if (!link) return null;
  const who = game.side === 'both' ? 'both sides' : game.side || 'your side';
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'text', readonly: true, value: link, class: 'link-input', 'aria-label': 'Your seat link', 'data-key': 'seat-link', onfocus: () => input.select() }));
  const copy = h('button', { type: 'button', class: 'btn', 'data-key': 'seat-copy', onclick: () => copyText(input, copy) }, 'Copy');
  const body = [
    h('p', { class: 'small' }, `Open this link in another browser, a private window or on another device to play ${who} there.`),
    h('div', { class: 'seat-link-row' }, input, copy),
    h('p', { class: 'small warn-text' }, `Whoever holds this link plays ${who} in this game: keep it to yourself.`),
    isLoopback(link) ? h('p', { class: 'small muted' }, 'This address opens on this computer only.') : null,
  ];
  return card(game, 'seat', 'Your seat link', body, { open: game.mode === 'online' });
}

/** @param {Game} game @param {Unit} u */
function unitCard(game, u) {
  const c = u.hidden ? game.system.sideColour(u.side) : game.system.unitColours(u);
  const where = u.status === 'map' || u.status === 'displaced'
    ? `In ${u.hex}: ${game.terrainOf(/** @type {string} */ (u.hex))}${game.placeOf(/** @type {string} */ (u.hex)) ? ` (${game.placeOf(/** @type {string} */ (u.hex))})` : ''}`
    : u.status === 'waiting' ? `Arrives turn ${u.arrival?.turn} at ${u.arrival?.hex}` : 'Eliminated';
  const lines = u.hidden ? [`A hidden ${u.side} unit`, where] : [...game.system.unitLines(u), where];
  if (typeof u.facing === 'number') lines.push(`Facing ${DIRS[u.facing] || `hexside ${u.facing}`}`);
  if (u.markers?.length) lines.push(`Markers: ${u.markers.join(', ').replace(/_/g, ' ')}`);
  if (u.moved) lines.push('Has moved this phase');
  if (u.in_combat) lines.push('In a declared combat');
  const why = game.ctl.moves?.unit === u.id ? game.ctl.moves.why_not : null;
  return h('div', { class: 'unit-card', style: `--nation:${c.fill}` },
    counterIcon(u, 56, game.system),
    h('div', {},
      h('div', { class: 'unit-id' }, u.hidden ? 'Hidden unit' : u.id, ' ', h('span', { class: 'muted small' }, u.side)),
      lines.map((l) => h('div', { class: 'small' }, l)),
      why && game.v.step === 'movement' ? h('div', { class: 'why-not small' }, 'Cannot move: ', caseLink(why.case), ' ', why.why) : null),
    h('button', { class: 'icon-btn', 'aria-label': 'Deselect', title: 'Deselect (Esc)', onclick: () => game.selectUnit(null) }, '×'));
}

/** @param {Game} game @param {boolean} can */
function commandBox(game, can) {
  const legal = game.v.legal;
  const dl = h('datalist', { id: 'legal-list' }, (can ? legal.slice(0, 3000) : []).map((a) => h('option', { value: a })));
  const input = /** @type {HTMLInputElement} */ (h('input', {
    class: 'cmd-input', type: 'text', list: 'legal-list', autocomplete: 'off', spellcheck: 'false', 'data-key': 'cmd',
    placeholder: can ? `Type an action${example(legal)}` : 'No action to take now',
    'aria-label': 'Action command', disabled: !can,
  }));
  const form = h('form', { class: 'cmd', onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    const t = input.value.trim();
    if (!t) return;
    if (/^(undo)$/i.test(t)) { input.value = ''; game.undo(); return; }
    // Empty the box before sending: the sidebar is rebuilt when the state changes, so clear
    // now and put the text back (in whichever box is current) only if it was refused.
    input.value = '';
    game.act(t).then((ok) => {
      if (ok) return;
      const now = /** @type {HTMLInputElement|null} */ (game.side_?.querySelector('.cmd-input'));
      if (now && !now.value) now.value = t;
    });
  } },
  h('label', { for: 'cmd-input', class: 'cmd-label' }, 'Command'),
  input, h('button', { type: 'submit', class: 'btn', disabled: !can }, 'Do'), dl);
  input.id = 'cmd-input';
  const legalList = can ? sub(game, 'legal', false, `All legal actions (${legal.length})`,
    h('ul', { class: 'plain legal-ul' }, legal.slice(0, 400).map((a) => h('li', {}, h('button', { type: 'button', class: 'link-btn', 'data-key': `legal:${a}`, onclick: () => game.act(a) }, a)))),
    legal.length > 400 ? h('p', { class: 'small muted' }, `… and ${legal.length - 400} more (type them in the command box).`) : null) : null;
  return h('div', { class: 'cmd-wrap' }, form, h('p', { class: 'small muted cmd-grammar' }, grammarHint(game), ' ', h('a', { href: '#', onclick: (/** @type {Event} */ e) => { e.preventDefault(); game.help(); } }, 'Help')), legalList);
}

/** An example for the command box: a legal action that names something (`: move FR.4 2316`). @param {string[]} legal */
function example(legal) {
  const a = legal.find((x) => /\s/.test(x) && !/^roll\s/.test(x)) || legal[0];
  return a ? `: ${a}` : '';
}

/**
 * The action grammar in one line: the rules system's (its panel's `grammar`), else the verbs of
 * the legal actions now.
 * @param {Game} game
 */
function grammarHint(game) {
  const own = game.system.grammar?.();
  if (own) return own;
  const verbs = [...new Set(game.v.legal.map((a) => a.split(/\s+/)[0]).filter((x) => x && x !== 'roll'))];
  return verbs.length ? `The verbs now: ${verbs.join(', ')}.` : 'The grammar of actions is in the help.';
}

/** @param {Game} game */
function reinforcementsCard(game) {
  const v = game.v;
  const due = v.units.filter((u) => u.status === 'waiting').sort((a, b) => (a.arrival?.turn || 0) - (b.arrival?.turn || 0) || a.id.localeCompare(b.id));
  if (!due.length) return card(game, 'reinf', 'Reinforcements due', [h('p', { class: 'small muted' }, 'None.')], { open: false });
  const rows = due.map((u) => {
    const now = game.ctl.L.moves.has(u.id);
    return h('tr', { class: now ? 'now' : '' },
      // a unit waiting with no scheduled arrival is placed now (Leipzig 1813's set-up)
      h('td', {}, u.arrival ? String(u.arrival.turn) : 'to place'),
      h('td', {}, h('button', { type: 'button', class: 'link-btn', 'data-key': `reinf:${u.id}`, onclick: () => { game.selectUnit(u.id, true); if (u.arrival?.hex) game.board?.centreOn(u.arrival.hex, 0.8); } }, counterIcon(u, 26, game.system), ' ', u.id)),
      h('td', {}, game.system.unitValues(u)),
      h('td', {}, u.arrival?.hex || ''),
      h('td', {}, now ? h('span', { class: 'tag' }, 'now') : ''));
  });
  return card(game, 'reinf', 'Reinforcements due', [h('table', { class: 'tbl' }, h('thead', {}, h('tr', {}, h('th', {}, 'Turn'), h('th', {}, 'Unit'), h('th', {}, 'Values'), h('th', {}, 'Enters'), h('th', {}, ''))), h('tbody', {}, rows))], { count: String(due.length), open: game.prefs.open.reinf ?? true });
}

/** @param {Game} game */
function eliminatedCard(game) {
  const gone = game.v.units.filter((u) => u.status === 'eliminated');
  if (!gone.length) return card(game, 'elim', 'Eliminated', [h('p', { class: 'small muted' }, 'No unit eliminated yet.')], { open: false });
  /** @type {Map<string, Unit[]>} */
  const bySide = new Map();
  for (const u of gone) bySide.set(u.side, [...(bySide.get(u.side) || []), u]);
  const body = [...bySide.entries()].map(([side, us]) => h('div', { class: 'elim-side' },
    h('h3', {}, `${side}: ${plural(us.length, 'unit')}, ${us.reduce((n, u) => n + u.strength, 0)} strength points`),
    h('div', { class: 'chips' }, us.map((u) => unitBtn(game, u, 'elim')))));
  return card(game, 'elim', 'Eliminated', body, { count: String(gone.length) });
}

/** @param {Game} game */
function textCard(game) {
  const v = game.v;
  const sys = game.system;
  const onMap = v.units.filter((u) => u.status === 'map' && u.hex);
  /** @type {Map<string, Unit[]>} */
  const bySide = new Map();
  for (const u of onMap) bySide.set(u.side, [...(bySide.get(u.side) || []), u]);
  const body = [
    h('p', { class: 'small' }, `Game-turn ${v.turn} of ${v.first_turn}–${v.last_turn}${v.night ? ' (night)' : ''}; ${v.phasing} ${v.phase} phase, ${sys.stepName(v.step)}; ${v.to_act} to act.`),
    v.obligations.length ? h('p', { class: 'small' }, 'Obligations: ', v.obligations.map((o) => `${o.unit} ${sys.obligationLabel(o.case)} (${o.case})`).join('; '), '.') : null,
    v.combats.length ? h('p', { class: 'small' }, 'Combats: ', v.combats.map((c, i) => `${i + 1}: ${c.attackers.join(', ')} (${c.attack}) against ${c.defenders.join(', ')} (${c.defence}) at ${c.column}${c.resolved ? ', resolved' : ''}`).join('; '), '.') : null,
    ...[...bySide.entries()].map(([side, us]) => h('div', {}, h('h3', {}, `${side} (${us.length} on the map)`),
      h('table', { class: 'tbl text-map' }, h('thead', {}, h('tr', {}, h('th', {}, 'Unit'), h('th', {}, 'Type'), h('th', {}, 'Values'), h('th', {}, 'Hex'), h('th', {}, 'Terrain'))),
        h('tbody', {}, us.sort((a, b) => (a.hex || '').localeCompare(b.hex || '')).map((u) => h('tr', {},
          h('td', {}, u.hidden ? 'hidden' : h('button', { type: 'button', class: 'link-btn', 'data-key': `tm:${u.id}`, onclick: () => game.selectUnit(u.id, true) }, u.id)),
          h('td', {}, u.hidden ? '?' : `${sys.unitColours(u).name} ${u.type}`),
          h('td', {}, u.hidden ? '?' : sys.unitValues(u)),
          h('td', {}, /** @type {string} */ (u.hex)),
          h('td', {}, `${game.terrainOf(/** @type {string} */ (u.hex))}${game.placeOf(/** @type {string} */ (u.hex)) ? `, ${game.placeOf(/** @type {string} */ (u.hex))}` : ''}${u.moved ? '; moved' : ''}${u.in_combat ? '; in combat' : ''}${u.markers?.length ? `; ${u.markers.join(', ').replace(/_/g, ' ')}` : ''}`))))))),
  ];
  return card(game, 'text', 'Map as text', body, { open: false });
}

