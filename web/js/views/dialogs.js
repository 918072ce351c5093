// Dialogs: the help, and the list a stack opens to pick one of its units.

import { h } from '../util.js';
import { counterIcon } from './board.js';

/** @typedef {import('../api.js').Unit} Unit */
/** @typedef {import('../systems.js').SystemPanel} SystemPanel */

/** The help dialog. @param {SystemPanel} system */
export function help(system) {
  const dlg = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'help', 'aria-label': 'Help' },
    h('h2', {}, 'How to play'),
    h('p', {}, 'The server enforces every rule. The board offers only what the rules allow now, and every refusal names its case: click the case to read the rule.'),
    h('h3', {}, 'Mouse and touch'),
    h('ul', {},
      h('li', {}, 'Click one of your units: its legal destinations are shaded (darker is cheaper) with their cost; hover one to see the path; click it, or drag the counter there.'),
      h('li', {}, 'A hex with several units shows their number: click it to choose one.'),
      system.helpLines().map((l) => h('li', {}, l)),
      h('li', {}, 'Drag the map to pan; wheel or pinch to zoom.')),
    h('h3', {}, 'Keys'),
    h('table', { class: 'tbl keys' }, h('tbody', {}, [
      ['Tab', 'move between the map, the tools and the panels'],
      ['M', 'focus the map'], ['Arrow keys', 'move the hex cursor (on the map)'], ['Enter / Space', 'act on the hex under the cursor: select, move, attack'],
      ['Shift + arrows', 'pan'], ['+ / −', 'zoom'], ['0', 'fit the map'], ['Esc', 'deselect / close'],
      ['H', 'hex numbers'], ['Z', 'enemy zones of control'], ['P', 'place names'], ['L', 'legend'], ['U', 'hide / show the counters (the map under them)'], ['R', 'rules reference'], ['T', 'the charts (CRT, TEC)'], ['C', 'command box'],
      ['Ctrl+Z', 'undo'], ['[ / ]', 'step the replay'], ['?', 'this help'],
    ].map(([k, d]) => h('tr', {}, h('td', {}, h('kbd', {}, k)), h('td', {}, d))))),
    h('h3', {}, 'Commands'),
    h('p', {}, 'Type any action in the command box: ', h('code', {}, 'move FR.4 2316'), ', ', h('code', {}, 'attack PR.9 FR.26'), ', ', h('code', {}, 'resolve FR.26 at 1-1'), ', ', h('code', {}, 'retreat PR.9 2517'), ', ', h('code', {}, 'hold'), ', ', h('code', {}, 'end'), '. Units by id or by the hex they stand in.'),
    h('form', { method: 'dialog' }, h('button', { class: 'btn btn-primary', autofocus: true }, 'Close'))));
  document.body.append(dlg);
  dlg.addEventListener('close', () => dlg.remove());
  dlg.showModal();
}

/**
 * Asks which unit of a stack the player means. Resolves to its id, or null when closed.
 * @param {string} hex @param {Unit[]} units top first @param {SystemPanel} system @param {(u: Unit) => string} label
 * @returns {Promise<string|null>}
 */
export function pickUnit(hex, units, system, label) {
  return new Promise((resolve) => {
    /** @type {string|null} */
    let picked = null;
    const dlg = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'pick-unit', 'aria-label': `Units in ${hex}` },
      h('h2', {}, `${units.length} units in ${hex}`),
      h('ul', { class: 'plain pick-list' }, units.map((u) => h('li', {},
        h('button', {
          type: 'button', class: 'unit-chip pick', 'data-unit': u.id, disabled: !!u.hidden,
          onclick: () => { picked = u.id; dlg.close(); },
        }, counterIcon(u, 34, system), h('span', { class: 'chip-text' }, h('b', {}, u.hidden ? 'Hidden unit' : u.id), h('small', {}, label(u))))))),
      h('form', { method: 'dialog' }, h('button', { class: 'btn' }, 'Cancel'))));
    document.body.append(dlg);
    dlg.addEventListener('close', () => { dlg.remove(); resolve(picked); });
    dlg.showModal();
  });
}
