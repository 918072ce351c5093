// Label placement on the map: place names, obligation tags, odds badges and reinforcement marks
// are each offered a few spots around what they label, and each takes the first spot where it
// overlaps nothing already placed (other labels, the text printed on counters, then the
// counters themselves), or the spot where it overlaps least. Geometry only: it knows no rules.

/** A box in SVG user units: left, top, width, height. @typedef {{x: number, y: number, w: number, h: number}} Box */

/**
 * A label to place: its element (drawn centred on the origin, moved by a `translate`), its size,
 * the centres it may take (best first) and its rank (lower ranks are placed first).
 * @typedef {{el: SVGElement, w: number, h: number, spots: [number, number][], rank: number}} Label
 */

/** The area two boxes share. @param {Box} a @param {Box} b */
export function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** @param {number} cx @param {number} cy @param {number} w @param {number} h @returns {Box} */
export function boxAt(cx, cy, w, h) {
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

/**
 * Places labels: each, by rank, at its first spot that overlaps nothing, else at its spot of
 * least weighted overlap (labels placed before weigh most, then `text`, then `bodies`). Sets
 * each label element's transform and returns the boxes taken.
 * @param {Label[]} labels
 * @param {Box[]} text the text printed on counters (designations, strengths)
 * @param {Box[]} bodies the counters
 * @returns {Box[]}
 */
export function placeLabels(labels, text, bodies) {
  /** @type {Box[]} */
  const taken = [];
  const order = labels.map((l, i) => ({ l, i })).sort((a, b) => a.l.rank - b.l.rank || a.i - b.i);
  for (const { l } of order) {
    let best = l.spots[0] || [0, 0];
    let bestScore = Infinity;
    for (let i = 0; i < l.spots.length; i++) {
      const [x, y] = l.spots[i];
      const b = boxAt(x, y, l.w, l.h);
      let score = 0;
      for (const o of taken) score += 1000 * overlap(b, o);
      for (const o of text) score += 100 * overlap(b, o);
      for (const o of bodies) score += overlap(b, o);
      if (score < bestScore) {
        bestScore = score;
        best = [x, y];
        if (score === 0) break;
      }
    }
    l.el.setAttribute('transform', `translate(${r2(best[0])},${r2(best[1])})`);
    taken.push(boxAt(best[0], best[1], l.w, l.h));
  }
  return taken;
}

/** @param {number} n */
const r2 = (n) => (Math.round(n * 100) / 100).toString();

/** @type {CanvasRenderingContext2D|null} */
let ctx = null;

/**
 * The width of a text in a font, in the units of its size (a canvas measures it; an estimate
 * when there is no canvas).
 * @param {string} text @param {number} size @param {string} [font] CSS font without size:
 *   `style weight |family|`, e.g. `italic bold |"DejaVu Serif", Georgia, serif|`
 */
export function textWidth(text, size, font = 'bold |"DejaVu Sans", Verdana, sans-serif|') {
  if (!ctx) {
    try {
      ctx = document.createElement('canvas').getContext('2d');
    } catch {
      ctx = null;
    }
  }
  if (!ctx) return text.length * size * 0.62;
  ctx.font = font.replace(/\|(.*)\|/, `${size}px $1`);
  return ctx.measureText(text).width;
}
