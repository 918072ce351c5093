// Small DOM helpers and shared constants. No rules live here (or anywhere in the board).

const SVGNS = 'http://www.w3.org/2000/svg';

/**
 * Creates an HTML element.
 * @param {string} tag
 * @param {Record<string, any>} [attrs] attributes; `on*` functions become listeners, `class`,
 *   `text` (textContent) and `html` are special, `false`/`null` values are skipped
 * @param {...(Node|string|null|undefined|false|Array<any>)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  setAttrs(e, attrs);
  append(e, children);
  return e;
}

/**
 * Creates an SVG element.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|null|undefined|false|Array<any>)} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const e = /** @type {SVGElement} */ (document.createElementNS(SVGNS, tag));
  setAttrs(e, attrs);
  append(e, children);
  return e;
}

/** @param {Element} e @param {Record<string, any>} attrs */
function setAttrs(e, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = String(v);
    else if (k === 'html') e.innerHTML = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
}

/** @param {Element} e @param {any[]} children */
function append(e, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Removes every child of `e` and appends `children`. @param {Element} e @param {...any} children */
export function fill(e, ...children) {
  e.replaceChildren();
  append(e, children);
  return e;
}

/** Movement points with halves as ½: 1.5 -> "1½", 0.5 -> "½". @param {number} n */
export function mp(n) {
  const whole = Math.floor(n + 1e-9);
  const half = n - whole > 0.25;
  if (whole === 0 && half) return '½';
  return `${whole}${half ? '½' : ''}`;
}

/** A probability as a percentage: 0.1667 -> "16.7%". @param {number} p */
export function pct(p) {
  if (!p) return '0%';
  const v = p * 100;
  return `${Math.abs(v - Math.round(v)) < 0.05 ? Math.round(v) : v.toFixed(1)}%`;
}

/** Debounce `f` by `ms`. @template {(...a:any[])=>void} F @param {F} f @param {number} ms */
export function debounce(f, ms) {
  /** @type {any} */ let t;
  return /** @type {F} */ ((...a) => { clearTimeout(t); t = setTimeout(() => f(...a), ms); });
}

/** Plural helper. @param {number} n @param {string} one @param {string} [many] */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + 's'}`;
}

/**
 * An action text as shown: the server sends an empty text for an action of a seat this viewer
 * may not see (docs/api.md, "Per-seat views") until the game is over.
 * @param {string|null|undefined} text
 */
export function actionLabel(text) {
  return text ? text : '(hidden action)';
}

/**
 * Copies an input's text to the clipboard (selecting it too, for the keyboard's copy where the
 * clipboard is refused) and says so on the button.
 * @param {HTMLInputElement} input @param {HTMLElement} button
 */
export async function copyText(input, button) {
  input.focus();
  input.select();
  let ok = false;
  try {
    await navigator.clipboard.writeText(input.value);
    ok = true;
  } catch {
    try { ok = document.execCommand('copy'); } catch { ok = false; }
  }
  button.textContent = ok ? 'Copied' : 'Press Ctrl+C';
  setTimeout(() => { button.textContent = 'Copy'; }, 2000);
}
