// The rules reference (GET /api/rules) in a searchable side drawer.

import { api } from './api.js';
import { h, fill, debounce } from './util.js';

/** @typedef {{case: string, title: string, text: string}} Rule */

/** Compares case numbers "5.13" < "5.2" < "7.11" numerically part by part. @param {string} a @param {string} b */
function cmpCase(a, b) {
  const pa = a.split('.').map(Number), pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

export class RulesDrawer {
  constructor() {
    /** @type {Rule[]|null} */
    this.rules = null;
    /** @type {string|null} the rules system whose reference is shown (the game's) */
    this.system = null;
    this.search = /** @type {HTMLInputElement} */ (h('input', { type: 'search', placeholder: 'Search the rules (case number or words)', 'aria-label': 'Search the rules', class: 'rules-search' }));
    this.list = h('div', { class: 'rules-list', role: 'list' });
    this.status = h('p', { class: 'muted rules-status' });
    this.closeBtn = h('button', { class: 'icon-btn', 'aria-label': 'Close the rules', title: 'Close (Esc)', text: '×', onclick: () => this.close() });
    this.el = h('aside', { id: 'rules-drawer', class: 'drawer', 'aria-label': 'Rules reference', 'aria-hidden': 'true', tabindex: -1 },
      h('header', { class: 'drawer-head' }, h('h2', {}, 'Rules reference'), this.closeBtn),
      h('p', { class: 'muted small' }, 'The rules in our own words, by case number. Every refusal names the case that forbids the action.'),
      this.search, this.status, this.list);
    this.search.addEventListener('input', debounce(() => this.render(), 120));
    this.el.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.stopPropagation(); this.close(); } });
    document.body.append(this.el);
    /** @type {Element|null} */
    this.returnFocus = null;
    /** @type {Promise<void>|null} the reference being fetched */
    this.loading = null;
  }

  /**
   * The rules system whose reference the drawer shows: the game's (`GET /api/rules?system=ID`).
   * Another system's reference, already loaded, is dropped.
   * @param {string|null} system
   */
  setSystem(system) {
    if (system === this.system) return;
    this.system = system;
    this.rules = null;
    this.loading = null;
    if (this.isOpen) this.load().then(() => this.render());
  }

  async load() {
    if (this.rules) return;
    if (this.loading) return this.loading;
    const system = this.system;
    this.status.textContent = 'Loading…';
    this.loading = (async () => {
      /** @type {Rule[]} */
      let rules;
      try {
        // in the order of the rulebook, as served (cases, then charts such as TEC and CRT)
        rules = await api.rules(system || undefined);
        this.status.textContent = '';
      } catch (e) {
        const err = /** @type {any} */ (e);
        this.status.textContent = err.status === 404 ? 'This rules system ships no reference yet.' : `The rules could not be loaded: ${/** @type {Error} */ (e).message}`;
        rules = [];
      }
      if (system === this.system) this.rules = rules;
    })();
    try { await this.loading; } finally { this.loading = null; }
  }

  get isOpen() {
    return this.el.classList.contains('open');
  }

  /** Opens the drawer, at a case if given. @param {string} [kase] */
  async open(kase) {
    if (!this.isOpen) this.returnFocus = document.activeElement;
    this.el.classList.add('open');
    this.el.setAttribute('aria-hidden', 'false');
    await this.load();
    if (kase) this.search.value = '';
    this.render(kase);
    if (kase) {
      const target = this.find(kase);
      if (target) {
        target.scrollIntoView({ block: 'start' });
        target.classList.add('hit');
        /** @type {HTMLElement} */ (target).focus({ preventScroll: true });
        setTimeout(() => target.classList.remove('hit'), 2500);
        return;
      }
      this.status.textContent = `Case ${kase} is not in the reference; the nearest cases are shown.`;
    }
    this.search.focus();
  }

  /** The entry of a case, or of its nearest parent (7.12 -> 7.1 -> 7). @param {string} kase */
  find(kase) {
    const exact = this.list.querySelector(`[data-case="${CSS.escape(kase)}"]`);
    if (exact || !/^\d+(\.\d+)*$/.test(kase)) return exact;
    let k = kase;
    while (k) {
      const el = this.list.querySelector(`[data-case="${CSS.escape(k)}"]`);
      if (el) return el;
      k = k.slice(0, -1);
      if (k.endsWith('.')) k = k.slice(0, -1);
    }
    // nearest by number
    const all = [...this.list.querySelectorAll('[data-case]')].filter((e) => /^\d/.test(e.getAttribute('data-case') || ''));
    return all.find((e) => cmpCase(/** @type {string} */ (e.getAttribute('data-case')), kase) >= 0) || null;
  }

  close() {
    this.el.classList.remove('open');
    this.el.setAttribute('aria-hidden', 'true');
    if (this.returnFocus instanceof HTMLElement) this.returnFocus.focus();
  }

  /** @param {string} [focus] */
  render(focus) {
    // case-blind both ways: "crt" and "CRT" find the chart whose id is `CRT`
    const q = this.search.value.trim().toLowerCase();
    const rules = (this.rules || []).filter((r) => !q || r.case.toLowerCase().startsWith(q) || `${r.title} ${r.text}`.toLowerCase().includes(q));
    if (!focus) this.status.textContent = q ? `${rules.length} of ${(this.rules || []).length} cases` : '';
    fill(this.list, rules.map((r) => h('article', { class: 'rule', 'data-case': r.case, id: `rule-${r.case}`, role: 'listitem', tabindex: -1 },
      h('h3', {}, h('span', { class: 'rule-case' }, r.case), ' ', r.title),
      h('p', {}, r.text))));
  }
}
