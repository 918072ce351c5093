// The rules system's charts as tables (GET /api/tables): the Combat Results Table by odds column
// and die, the Terrain Effects Chart of hexes and hexsides, and the system's other charts (each a
// grid, folded under its title), in a side drawer opened from the tools (and the T key). During a combat the column of its odds and, once rolled, the row of
// its die are highlighted (the rules system's panel says which combat: `tableFocus`).

import { api, ApiError } from '../api.js';
import { h, fill } from '../util.js';
import { caseLink } from '../toast.js';

/** @typedef {import('../game.js').Game} Game */
/** @typedef {import('../api.js').Tables} Tables */

export class TablesDrawer {
  /** @param {Game} game */
  constructor(game) {
    this.game = game;
    /** @type {Tables|null} */
    this.tables = null;
    /** @type {string|null} why the charts could not be loaded */
    this.error = null;
    this.body = h('div', { class: 'tables-body' });
    this.closeBtn = h('button', { class: 'icon-btn', 'aria-label': 'Close the charts', title: 'Close (Esc)', text: '×', onclick: () => this.close() });
    this.el = h('aside', { id: 'tables-drawer', class: 'drawer tables-drawer', 'aria-label': 'Charts', 'aria-hidden': 'true', tabindex: -1 },
      h('header', { class: 'drawer-head' }, h('h2', {}, 'Charts'), this.closeBtn),
      this.body);
    this.el.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.stopPropagation(); this.close(); } });
    document.body.append(this.el);
    /** @type {Element|null} */
    this.returnFocus = null;
  }

  get isOpen() {
    return this.el.classList.contains('open');
  }

  async load() {
    if (this.tables || this.error) return;
    try {
      this.tables = await api.tables(this.game.v?.system);
    } catch (e) {
      this.error = e instanceof ApiError && e.status === 404 ? 'This game\'s rules system has no charts.' : `The charts could not be loaded: ${/** @type {Error} */ (e).message}`;
    }
  }

  async open() {
    if (!this.isOpen) this.returnFocus = document.activeElement;
    this.el.classList.add('open');
    this.el.setAttribute('aria-hidden', 'false');
    await this.load();
    this.render();
    this.el.focus({ preventScroll: true });
  }

  toggle() {
    if (this.isOpen) this.close();
    else this.open();
  }

  close() {
    this.el.classList.remove('open');
    this.el.setAttribute('aria-hidden', 'true');
    if (this.returnFocus instanceof HTMLElement) this.returnFocus.focus();
  }

  destroy() {
    this.el.remove();
  }

  /** Draws the charts, the current combat's column and die highlighted. */
  render() {
    if (!this.isOpen) return;
    if (this.error || !this.tables) {
      fill(this.body, h('p', { class: 'muted' }, this.error || 'Loading…'));
      return;
    }
    const game = this.game;
    const focus = game.v && game.system.tableFocus ? game.system.tableFocus(game) : null;
    const { crt, tec } = this.tables;
    fill(this.body,
      crt ? h('section', { class: 'chart crt' },
        h('h3', {}, crt.case ? caseLink(crt.case) : null, ' Combat Results Table'),
        focus ? h('p', { class: 'small crt-focus' }, focus.why, focus.column ? ` · column ${focus.column}` : '', focus.die ? ` · die ${focus.die}` : '') : h('p', { class: 'small muted' }, 'During a combat its odds column and, once rolled, its die are highlighted.'),
        h('div', { class: 'chart-scroll' }, h('table', { class: 'tbl crt-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Die'), crt.columns.map((c) => h('th', { scope: 'col', class: c === focus?.column ? 'hl-col' : null, 'data-column': c }, c)))),
          h('tbody', {}, crt.rows.map((r) => h('tr', { class: r.die === focus?.die ? 'hl-row' : null, 'data-die': r.die },
            h('th', { scope: 'row' }, r.from ?? String(r.die)),
            r.results.map((x, i) => h('td', {
              class: [`res res-${x}`, crt.columns[i] === focus?.column ? 'hl-col' : '', crt.columns[i] === focus?.column && r.die === focus?.die ? 'hl-cell' : ''].filter(Boolean).join(' '),
              'data-column': crt.columns[i],
            }, x))))))),
        crt.results ? h('ul', { class: 'plain small crt-legend' }, crt.results.map((x) => h('li', {}, h('b', {}, x.code), ` ${x.name} `, x.case ? caseLink(x.case) : null))) : null) : null,
      tec ? h('section', { class: 'chart tec' },
        h('h3', {}, tec.case ? caseLink(tec.case) : null, ' Terrain Effects Chart'),
        h('div', { class: 'chart-scroll' }, h('table', { class: 'tbl tec-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Terrain'), h('th', { scope: 'col' }, 'Movement'), h('th', { scope: 'col' }, 'Combat'), h('th', { scope: 'col' }, 'Case'))),
          h('tbody', {}, tec.rows.map((r) => h('tr', { class: `tec-${r.kind}`, 'data-terrain': r.terrain },
            h('th', { scope: 'row' }, r.name, r.kind === 'hexside' ? h('span', { class: 'small muted' }, ' (hexside)') : null),
            h('td', {}, r.movement), h('td', {}, r.combat), h('td', {}, r.case ? caseLink(r.case) : '')))))) ) : null,
      ...(this.tables.charts || []).map(chartSection));
  }
}

/** One of the system's other charts, folded under its title. @param {import('../api.js').Chart} c */
function chartSection(c) {
  return h('details', { class: 'chart chart-grid', 'data-chart': c.id },
    h('summary', {}, h('h3', { style: 'display:inline' }, c.case ? caseLink(c.case) : null, ` ${c.title}`), c.reconstructed ? h('span', { class: 'small muted' }, ' (reconstructed)') : null),
    h('div', { class: 'chart-scroll' }, h('table', { class: 'tbl grid-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, c.corner || ''), c.columns.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, c.rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.label), r.cells.map((x) => h('td', {}, x))))))),
    c.note ? h('p', { class: 'small muted' }, c.note) : null);
}
