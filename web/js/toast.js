// Toasts: refusals (with their rule case and a link to the rules reference), events, notices.

import { h } from './util.js';

/** @type {(c: string) => void} */
let openRule = () => {};

/** @type {(c: string) => boolean} */
let knownCase = () => false;

/**
 * Sets what a case link does, and which cases the rules reference holds (a case named in words,
 * such as a section's title, is a link when the reference has it).
 * @param {(c: string) => void} f @param {(c: string) => boolean} [known]
 */
export function setRuleOpener(f, known) {
  openRule = f;
  if (known) knownCase = known;
}

/** A link that opens the rules reference at a case. @param {string} kase @param {string} [label] */
export function caseLink(kase, label) {
  if (!kase || !(/^(\d+(\.\d+)*|TEC|CRT)$/.test(kase) || knownCase(kase))) return h('span', { class: 'case case-plain' }, label || kase || '');
  return h('a', {
    class: 'case',
    href: `#rule-${kase}`,
    title: `Open rule ${kase} in the rules reference`,
    onclick: (/** @type {Event} */ e) => { e.preventDefault(); openRule(kase); },
  }, label || kase);
}

/**
 * Shows a toast.
 * @param {{kind?: 'error'|'info'|'result'|'warn', title: string, body?: (Node|string)[]|string, case?: string, timeout?: number, die?: number}} t
 */
export function toast(t) {
  const host = document.getElementById('toasts');
  if (!host) return;
  const close = h('button', { class: 'toast-close', 'aria-label': 'Dismiss', title: 'Dismiss', text: '×' });
  const el = h('div', { class: `toast toast-${t.kind || 'info'}`, role: t.kind === 'error' ? 'alert' : 'status' },
    t.die ? dieFace(t.die) : null,
    h('div', { class: 'toast-main' },
      h('div', { class: 'toast-title' }, t.case ? [caseLink(t.case, `${t.case}`), ' '] : null, t.title),
      t.body ? h('div', { class: 'toast-body' }, t.body) : null,
      t.case && /^(\d|TEC|CRT)/.test(t.case) ? h('div', { class: 'toast-links' }, caseLink(t.case, `Read rule ${t.case} →`)) : null),
    close);
  const remove = () => { el.classList.add('leaving'); setTimeout(() => el.remove(), 200); };
  close.addEventListener('click', remove);
  host.append(el);
  while (host.children.length > 5) host.firstElementChild?.remove();
  const ms = t.timeout ?? (t.kind === 'error' ? 12000 : 6000);
  if (ms > 0) setTimeout(remove, ms);
  return el;
}

/** A die face with pips. @param {number} n */
export function dieFace(n) {
  const pips = /** @type {Record<number, number[][]>} */ ({
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
    5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]],
  })[n] || [];
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 40 40');
  svg.setAttribute('class', 'die');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `die shows ${n}`);
  const r = document.createElementNS(ns, 'rect');
  Object.entries({ x: 2, y: 2, width: 36, height: 36, rx: 7, fill: '#FBF8EE', stroke: '#1A1A1A', 'stroke-width': 2 }).forEach(([k, v]) => r.setAttribute(k, String(v)));
  svg.append(r);
  for (const [x, y] of pips) {
    const c = document.createElementNS(ns, 'circle');
    c.setAttribute('cx', String(x * 10));
    c.setAttribute('cy', String(y * 10));
    c.setAttribute('r', '3.6');
    c.setAttribute('fill', '#1A1A1A');
    svg.append(c);
  }
  return svg;
}

/** Speaks a line to screen readers. @param {string} text */
export function announce(text) {
  const live = document.getElementById('live');
  if (!live) return;
  live.textContent = '';
  setTimeout(() => { live.textContent = text; }, 30);
}
