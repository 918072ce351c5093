// Hex geometry of printed maps, as crates/hexmap: XXYY numbers, XX the row (north to south), YY
// the hex in the row (east to west: YY = 01 at the right), pointy-top hexes, even rows shifted
// half a hex toward higher YY (left) unless the map's `parity` says odd. Distances in "hex
// units" are one hex across the flats. The only place in the board that knows hex corners.

/** Circumradius of a hex one unit across its flats. */
export const R = 1 / Math.sqrt(3);
const ROW_H = Math.sqrt(0.75);

/** Corners around a centre, clockwise from the top (x east, y south). */
export const CORNERS = [
  [0, -R], [0.5, -R / 2], [0.5, R / 2], [0, R], [-0.5, R / 2], [-0.5, -R / 2],
];

/** @typedef {'E'|'NE'|'NW'|'W'|'SW'|'SE'} Dir */
/** @type {Dir[]} */
export const DIRS = ['E', 'NE', 'NW', 'W', 'SW', 'SE'];

/** The two corner indices bounding the hexside in a direction. @type {Record<Dir, [number, number]>} */
export const SIDE_CORNERS = { E: [1, 2], SE: [2, 3], SW: [3, 4], W: [4, 5], NW: [5, 0], NE: [0, 1] };

/** The remainder (mod 2) of the shifted rows: 0, the even rows (the maps of today), or 1. */
let shifted = 0;

/**
 * Sets which rows are shifted half a hex toward higher YY, from the map view's `parity`
 * (`"even"`, the default, or `"odd"`).
 * @param {string|null|undefined} parity
 */
export function setParity(parity) {
  shifted = parity === 'odd' ? 1 : 0;
}

/** True when row `x` is shifted half a hex toward higher YY. @param {number} x */
function isShifted(x) {
  return Math.abs(x % 2) === shifted;
}

/** The outline of a hex centred on (cx, cy), `size` across the flats, as SVG path data.
 *  @param {number} cx @param {number} cy @param {number} size @param {number} [scale] */
export function outline(cx, cy, size, scale = 1) {
  return CORNERS.map(([x, y], i) => `${i ? 'L' : 'M'}${r2(cx + x * size * scale)},${r2(cy + y * size * scale)}`).join('') + 'Z';
}

/** The two ends of the hexside in direction `d` of a hex centred on (cx, cy).
 *  @param {number} cx @param {number} cy @param {number} size @param {Dir} d @returns {[[number, number], [number, number]]} */
export function sideEnds(cx, cy, size, d) {
  const [i, j] = SIDE_CORNERS[d];
  return [[cx + CORNERS[i][0] * size, cy + CORNERS[i][1] * size], [cx + CORNERS[j][0] * size, cy + CORNERS[j][1] * size]];
}

/** The unit vector from a hex's centre toward the middle of its hexside in direction `d`.
 *  @param {Dir} d @returns {[number, number]} */
export function sideNormal(d) {
  const [i, j] = SIDE_CORNERS[d];
  const x = (CORNERS[i][0] + CORNERS[j][0]) / 2, y = (CORNERS[i][1] + CORNERS[j][1]) / 2;
  const n = Math.hypot(x, y);
  return [x / n, y / n];
}

/** @param {number} n */
const r2 = (n) => (Math.round(n * 100) / 100).toString();

/** @param {string} hex "XXYY" @returns {[number, number]} [x, y] */
export function parse(hex) {
  return [Number(hex.slice(0, 2)), Number(hex.slice(2, 4))];
}

/** @param {number} x @param {number} y */
export function id(x, y) {
  const p = (/** @type {number} */ n) => (n < 0 ? '-' : '') + String(Math.abs(n)).padStart(2, '0');
  return p(x) + p(y);
}

/** @param {string} s */
export function isHex(s) {
  return /^\d{4}$/.test(s);
}

/** The neighbour of a hex in a direction (may be off the map). @param {string} hex @param {Dir} d */
export function neighbour(hex, d) {
  const [x, y] = parse(hex);
  const s = isShifted(x) ? 1 : 0;
  const [dx, dy] = { E: [0, -1], W: [0, 1], NE: [-1, s - 1], NW: [-1, s], SE: [1, s - 1], SW: [1, s] }[d];
  return id(x + dx, y + dy);
}

/** @param {string} hex */
export function neighbours(hex) {
  return DIRS.map((d) => neighbour(hex, d));
}

/** @param {string} a @param {string} b @returns {Dir|null} */
export function directionTo(a, b) {
  return DIRS.find((d) => neighbour(a, d) === b) || null;
}

/** Doubled-width coordinates [column, row]. @param {string} hex */
function doubled(hex) {
  const [x, y] = parse(hex);
  return [2 * y + 1 + (isShifted(x) ? 1 : 0), x];
}

/** Hex distance. @param {string} a @param {string} b */
export function distance(a, b) {
  const [c1, r1] = doubled(a);
  const [c2, r2] = doubled(b);
  const dc = Math.abs(c1 - c2), dr = Math.abs(r1 - r2);
  return dc > dr ? dr + (dc - dr) / 2 : dr;
}

/** Centre in hex units (x grows east, y south; YY = 01 at the east). @param {string} hex */
export function centre(hex) {
  const [c, r] = doubled(hex);
  return [-c * 0.5, r * ROW_H];
}

/** The hex whose centre is nearest to a point in hex units. @param {number} px @param {number} py */
export function atPoint(px, py) {
  const cf = -px / 0.5;
  const rf = py / ROW_H;
  // doubled -> cube, round, back
  const qf = (cf - rf) / 2;
  const sf = -qf - rf;
  let q = Math.round(qf), r = Math.round(rf), s = Math.round(sf);
  const dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  const c = 2 * q + r;
  const shift = isShifted(r) ? 1 : 0;
  return id(r, (c - 1 - shift) / 2);
}
