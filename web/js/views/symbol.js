// The NATO symbol of a unit's arm in a box, for the counter faces the systems' panels draw.

import { s } from '../util.js';

/** An SVG attribute's number, rounded to hundredths. @param {number} n */
export const num = (n) => (Math.round(n * 100) / 100).toString();

/**
 * A unit's arm as a NATO symbol in a box a little above the counter's middle: infantry a
 * cross, cavalry a diagonal, artillery a dot; any other arm an empty box (colour is never the
 * only cue).
 * @param {string} arm the unit's arm (`infantry`, `cavalry`, `artillery`, ...)
 * @param {number} k the counter's size
 * @param {string} colour the symbol's colour (the counter's text colour)
 * @param {number} [lift] how far above the middle the box's centre stands, in 0.72 parts of `k`
 * @returns {{els: SVGElement[], x: number, y: number, w: number, h: number}} the elements and
 *   the box (top left corner and size)
 */
export function armSymbol(arm, k, colour, lift = 0.06) {
  const S = k / 0.72;
  const w = 0.34 * S, h = 0.2 * S;
  const x = -w / 2 + 0.02 * S, y = -lift * S - h / 2;
  /** @type {SVGElement[]} */
  const els = [s('rect', { x: num(x), y: num(y), width: num(w), height: num(h), fill: 'none', stroke: colour, 'stroke-width': 1.3 })];
  const sym = { stroke: colour, 'stroke-width': 1.2, fill: 'none' };
  if (arm === 'infantry') els.push(s('path', { d: `M${num(x)},${num(y)}L${num(x + w)},${num(y + h)}M${num(x)},${num(y + h)}L${num(x + w)},${num(y)}`, ...sym }));
  else if (arm === 'cavalry') els.push(s('path', { d: `M${num(x)},${num(y + h)}L${num(x + w)},${num(y)}`, ...sym }));
  else if (arm === 'artillery') els.push(s('circle', { cx: num(x + w / 2), cy: num(y + h / 2), r: num(0.045 * S), fill: colour }));
  return { els, x, y, w, h };
}
