// The map board: terrain, hexsides, roads, counters and overlays in one SVG, north up, with zoom
// and pan (wheel, pinch, drag, buttons, keys), a keyboard hex cursor and drag-and-drop of
// counters. It draws what it is told and reports what the player points at; it knows no rules.
// Counters are drawn from the unit entries: stacks (several units in a hex, offset, with a count
// badge), leaders (round), facing (a notch on the hexside faced), markers (tags) and hidden
// units (a blank counter of their side); the rules system's panel gives the counter's face.

import { s, mp } from '../util.js';
import * as H from '../hex.js';
import { INK, PAPER, GRID, styles, unknownTerrain, unknownFeature } from '../palette.js';
import { GENERIC } from '../systems.js';
import { placeLabels, textWidth, boxAt } from './labels.js';

/** Size of a hex across its flats, in SVG user units. */
export const S = 60;
const R = H.R * S;
const MARGIN = 0.9 * S;
/** A counter's side, in hex widths: small enough to leave the hexsides (a river, a stream)
 *  showing around it, and a road's way between rows of counters for the labels. */
export const COUNTER = 0.66;
/** The zoom the board opens at when the whole map would make the counters unreadable: the
 *  counters' strength text is then about 12 px high (issue 12). */
export const READABLE = 0.78;
/** Place names' size, in hex widths (fits between two rows of counters). */
const PLACE_FONT = 0.17;
/** Label ranks: the lower placed first. */
const RANK = { odds: 0, obligation: 1, reinforcement: 2, place: 3 };

/** Patterns the board defines (`pat-<name>`), as hexmap's legend names them; `buildings` draws
 *  buildings in the hex. A pattern it does not know is left out (the fill alone). */
export const PATTERNS = new Set(['trees', 'hatching', 'tufts']);
const BUILDINGS = [
  [-0.27, -0.2, 0.17, 0.12],
  [-0.06, -0.25, 0.12, 0.17],
  [0.1, -0.17, 0.17, 0.11],
  [-0.3, -0.03, 0.12, 0.16],
  [-0.12, -0.03, 0.22, 0.12],
  [0.14, 0.0, 0.13, 0.17],
  [-0.14, 0.14, 0.24, 0.1],
];

/** @typedef {import('../api.js').Unit} Unit */
/** @typedef {import('../api.js').MapView} MapView */
/** @typedef {import('../api.js').Combat} Combat */
/** @typedef {import('../systems.js').SystemPanel} SystemPanel */

/**
 * @typedef {{
 *   onActivate?: (hex: string, how: 'click'|'key') => void,
 *   onHover?: (hex: string|null) => void,
 *   onDragStart?: (unit: string) => boolean,
 *   onDrop?: (unit: string, hex: string) => void,
 *   onCursor?: (hex: string) => void,
 *   onEscape?: () => void,
 *   onChoose?: (action: string) => void,
 * }} BoardHandlers
 */

/** A number for SVG output. @param {number} n */
const f = (n) => (Math.round(n * 100) / 100).toString();

export class Board {
  /**
   * @param {HTMLElement} host the element the board fills
   * @param {MapView} map
   * @param {BoardHandlers} handlers
   * @param {SystemPanel} [system] the rules system's panel (counters' faces, obligation names)
   * @param {{viewKey?: string|null}} [opts] `viewKey`: where the zoom and position are kept
   *   across reloads (localStorage), e.g. the game's id
   */
  constructor(host, map, handlers, system = GENERIC, opts = {}) {
    this.host = host;
    /** @type {string|null} the localStorage key of the remembered view */
    this.viewKey = opts.viewKey ? `grognard.view.${opts.viewKey}` : null;
    /** @type {any} */
    this.saveTimer = null;
    /** True while the counters are hidden (the map under them shown). */
    this.countersHidden = false;
    /** @type {Map<string, import('./labels.js').Label[]>} the labels of each kind, placed together */
    this.labels = new Map();
    /** @type {import('./labels.js').Box[]} the text printed on the counters (for the labels to avoid) */
    this.counterText = [];
    /** @type {import('./labels.js').Box[]} the counters' bodies */
    this.counterBodies = [];
    this.map = map;
    this.on = handlers;
    this.system = system;
    H.setParity(map.parity);
    this.styles = styles(map.legend);
    /** @type {Map<string, string>} hex -> terrain */
    this.terrain = new Map();
    for (let x = 1; x <= map.terrain.length; x++) {
      const row = map.terrain[x - 1];
      for (let y = 1; y <= row.length; y++) this.terrain.set(H.id(x, y), row[y - 1]);
    }
    /** @type {Map<string, string>} hex -> place name */
    this.places = new Map(map.places.map((p) => [p.hex, p.name]));
    // frame
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const hx of this.terrain.keys()) {
      const [cx, cy] = H.centre(hx);
      x0 = Math.min(x0, cx - 0.5); x1 = Math.max(x1, cx + 0.5);
      y0 = Math.min(y0, cy - H.R); y1 = Math.max(y1, cy + H.R);
    }
    this.ox = MARGIN - x0 * S;
    this.oy = MARGIN - y0 * S;
    this.width = (x1 - x0) * S + 2 * MARGIN;
    this.height = (y1 - y0) * S + 2 * MARGIN;
    this.view = { k: 1, tx: 0, ty: 0 };
    /** @type {string|null} */
    this.cursor = null;
    this.cursorVisible = false;
    /** True once the first view (kept or opening) is set. */
    this.fitted = false;
    /** @type {number|undefined} the x the cursor keeps to on vertical moves */
    this.cursorX = undefined;
    /** True while the keyboard (not a pointer) drives the map: the hex cursor shows. */
    this.keyboard = true;
    /** @type {Map<string, Unit>} hex -> the top unit of the hex's stack */
    this.unitAt = new Map();
    /** @type {Map<string, Unit[]>} hex -> every unit in the hex, bottom first */
    this.stackAt = new Map();
    const built = this.build();
    /** @type {SVGSVGElement} */
    this.svg = built.svg;
    /** @type {SVGElement} */
    this.vp = built.vp;
    /** @type {Record<string, SVGElement>} */
    this.layers = built.layers;
    this.drawNumbers();
    this.drawPlaces();
    this.layers.numbers.style.display = 'none';
    this.host.replaceChildren(this.svg);
    this.bind();
  }

  /** @param {string} hex @returns {[number, number]} */
  c(hex) {
    const [x, y] = H.centre(hex);
    return [this.ox + x * S, this.oy + y * S];
  }

  /** @param {string} hex */
  contains(hex) {
    return this.terrain.has(hex);
  }

  /** The outline of a hex as SVG path data. @param {string} hex @param {number} [scale] */
  hexPath(hex, scale = 1) {
    const [cx, cy] = this.c(hex);
    return H.outline(cx, cy, S, scale);
  }

  build() {
    const svg = /** @type {SVGSVGElement} */ (s('svg', {
      class: 'board',
      tabindex: 0,
      role: 'application',
      'aria-roledescription': 'hex map',
      'aria-label': `${this.map.title}. Arrow keys move the hex cursor, Enter acts on the hex, plus and minus zoom, 0 fits the map, Shift with arrows pans.`,
    }));
    svg.append(this.defs());
    const vp = s('g', { class: 'viewport' });
    svg.append(vp);
    // table and paper
    vp.append(s('rect', { x: 0, y: 0, width: f(this.width), height: f(this.height), fill: PAPER, class: 'paper', rx: 6 }));
    vp.append(this.drawTerrain());
    vp.append(this.drawFeatures());
    vp.append(s('rect', { x: f(MARGIN * 0.55), y: f(MARGIN * 0.55), width: f(this.width - MARGIN * 1.1), height: f(this.height - MARGIN * 1.1), fill: 'none', stroke: INK, 'stroke-width': 2.5 }));
    vp.append(this.drawEdgeLabels());
    /** @type {Record<string, SVGElement>} */
    const layers = {};
    // hexside features (river, stream, bridge) are drawn again over the counters' edges (`sides`):
    // a counter never hides them; labels go over both. A rules system's routes (a messenger's
    // ride) go over the counters too, since they pass through occupied hexes, and take no clicks
    for (const name of ['sight', 'zoc', 'range', 'dest', 'cand', 'numbers', 'lastmoves', 'origin', 'counters', 'sides', 'routes', 'places', 'marks', 'reinf', 'combats', 'path', 'cursor', 'facings', 'ghost']) {
      const g = s('g', { class: `layer layer-${name}` });
      layers[name] = g;
      vp.append(g);
    }
    layers.ghost.setAttribute('pointer-events', 'none');
    layers.routes.setAttribute('pointer-events', 'none');
    layers.sides.append(this.drawSides());
    return { svg, vp, layers };
  }

  defs() {
    const p = 0.5 * S;
    const forest = s('pattern', { id: 'pat-trees', patternUnits: 'userSpaceOnUse', width: f(p), height: f(p) },
      s('g', { fill: '#00775A', 'fill-opacity': 0.75 },
        ...[[0.25, 0.25, 0.085], [0.75, 0.72, 0.085], [0.74, 0.2, 0.06]].map(([x, y, r]) => s('circle', { cx: f(x * p), cy: f(y * p), r: f(r * S) }))));
    const q = 0.2 * S;
    const rough = s('pattern', { id: 'pat-hatching', patternUnits: 'userSpaceOnUse', width: f(q), height: f(q) },
      s('path', { d: `M0,${f(q)} L${f(q)},0 M${f(-0.25 * q)},${f(0.25 * q)} L${f(0.25 * q)},${f(-0.25 * q)} M${f(0.75 * q)},${f(1.25 * q)} L${f(1.25 * q)},${f(0.75 * q)}`, stroke: '#8A6230', 'stroke-width': f(0.025 * S), 'stroke-opacity': 0.7 }));
    const pw = 0.5 * S, ph = 0.3 * S;
    let md = '';
    for (const [bx, by] of [[0.05, 0.4], [0.55, 0.9]]) {
      const x = bx * pw, y = by * ph, l = 0.2 * S;
      md += `M${f(x)},${f(y)} h${f(l)} M${f(x + l / 2)},${f(y)} v${f(-0.09 * S)} M${f(x + l / 2 - 0.04 * S)},${f(y)} l${f(-0.04 * S)},${f(-0.07 * S)} M${f(x + l / 2 + 0.04 * S)},${f(y)} l${f(0.04 * S)},${f(-0.07 * S)} `;
    }
    const marsh = s('pattern', { id: 'pat-tufts', patternUnits: 'userSpaceOnUse', width: f(pw), height: f(ph) },
      s('path', { d: md, stroke: '#1E7F8C', 'stroke-width': f(0.025 * S), 'stroke-linecap': 'round', fill: 'none' }));
    // zones of control: vermillion hatching (a pattern, so hue is not the only cue)
    const z = 0.16 * S;
    const zoc = s('pattern', { id: 'pat-zoc', patternUnits: 'userSpaceOnUse', width: f(z), height: f(z), patternTransform: 'rotate(45)' },
      s('rect', { x: 0, y: 0, width: f(z * 0.38), height: f(z), fill: '#D55E00', 'fill-opacity': 0.55 }));
    // artillery range: sky-blue cross-hatching
    const rg = 0.2 * S;
    const range = s('pattern', { id: 'pat-range', patternUnits: 'userSpaceOnUse', width: f(rg), height: f(rg), patternTransform: 'rotate(-45)' },
      s('rect', { x: 0, y: 0, width: f(rg * 0.25), height: f(rg), fill: '#56B4E9', 'fill-opacity': 0.6 }));
    // retreat / advance candidates: bluish green dots
    const d = 0.18 * S;
    const cand = s('pattern', { id: 'pat-cand', patternUnits: 'userSpaceOnUse', width: f(d), height: f(d) },
      s('circle', { cx: f(d / 2), cy: f(d / 2), r: f(d * 0.22), fill: '#009E73' }));
    const arrow = s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 Z', fill: 'context-stroke' }));
    const arrowV = s('marker', { id: 'arrow-v', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' },
      s('path', { d: 'M0,0 L10,5 L0,10 Z', fill: '#D55E00', stroke: INK, 'stroke-width': 1 }));
    const arrowP = s('marker', { id: 'arrow-p', viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto' },
      s('path', { d: 'M0,0 L10,5 L0,10 Z', fill: '#E69F00', stroke: INK, 'stroke-width': 1.2 }));
    const shadow = s('filter', { id: 'shadow', x: '-20%', y: '-20%', width: '150%', height: '150%' },
      s('feDropShadow', { dx: 1.6, dy: 2, stdDeviation: 1.1, 'flood-color': '#000', 'flood-opacity': 0.45 }));
    return s('defs', {}, forest, rough, marsh, zoc, range, cand, arrow, arrowV, arrowP, shadow);
  }

  /** Terrain fills (with their patterns), the hex grid, and town buildings. */
  drawTerrain() {
    const g = s('g', { class: 'terrain' });
    /** @type {Map<string, string>} */
    const byT = new Map();
    for (const [hx, t] of this.terrain) byT.set(t, (byT.get(t) || '') + this.hexPath(hx));
    const known = [...this.styles.terrain.keys()];
    const order = [...known.filter((t) => byT.has(t)), ...[...byT.keys()].filter((t) => !known.includes(t))];
    for (const t of order) {
      const d = /** @type {string} */ (byT.get(t));
      const st = this.styles.terrain.get(t) || unknownTerrain(t);
      g.append(s('path', { d, fill: st.fill, class: `t-${t}` }));
      if (st.pattern && PATTERNS.has(st.pattern)) g.append(s('path', { d, fill: `url(#pat-${st.pattern})` }));
    }
    // outlines, each edge once
    let d = '';
    for (const hx of this.terrain.keys()) {
      const [cx, cy] = this.c(hx);
      for (const dir of H.DIRS) {
        const n = H.neighbour(hx, dir);
        if (this.contains(n) && n < hx) continue;
        const [p, q] = H.sideEnds(cx, cy, S, dir);
        d += `M${f(p[0])},${f(p[1])}L${f(q[0])},${f(q[1])}`;
      }
    }
    g.append(s('path', { d, fill: 'none', stroke: GRID, 'stroke-width': f(0.025 * S), 'stroke-linecap': 'round' }));
    // town buildings (the `buildings` pattern)
    let bd = '';
    for (const [hx, t] of this.terrain) {
      if ((this.styles.terrain.get(t)?.pattern) !== 'buildings') continue;
      const [cx, cy] = this.c(hx);
      for (const [x, y, w, hh] of BUILDINGS) bd += `M${f(cx + x * S)},${f(cy + y * S)}h${f(w * S)}v${f(hh * S)}h${f(-w * S)}Z`;
    }
    if (bd) g.append(s('path', { d: bd, fill: '#A8432A' }));
    return g;
  }

  /** Hexside features as the map's legend lays them: along the hexside (`edge`, `hachured`),
   *  across it (`crossing`) or from hex centre to hex centre (`route`). */
  drawFeatures() {
    return this.featureLayer(s('g', { class: 'features', 'pointer-events': 'none' }), 'f', ['hachured', 'edge', 'crossing', 'route']);
  }

  /** The hexside features along and across the hexsides (not the routes), again, over the
   *  counters' edges: a counter never hides a river. */
  drawSides() {
    return this.featureLayer(s('g', { class: 'sides-top', 'pointer-events': 'none' }), 'fs', ['hachured', 'edge', 'crossing']);
  }

  /**
   * Draws the map's hexside features of some lays into a group, a path per feature (class
   * `<prefix>-<id>`).
   * @param {SVGElement} g @param {string} prefix @param {import('../palette.js').FeatureLay[]} lays
   */
  featureLayer(g, prefix, lays) {
    /** @type {Map<string, string>} */
    const d = new Map();
    const add = (/** @type {string} */ k, /** @type {string} */ seg) => d.set(k, (d.get(k) || '') + seg);
    const styleOf = (/** @type {string} */ k) => this.styles.features.get(k) || unknownFeature(k);
    for (const side of this.map.hexsides) {
      let a = side.a, b = side.b;
      if (!this.contains(a) && this.contains(b)) [a, b] = [b, a];
      /** @type {H.Dir|null} */
      let dir = H.isHex(b) ? H.directionTo(a, b) : /** @type {any} */ (H.DIRS.includes(/** @type {any} */ (b)) ? b : null);
      if (!dir) continue;
      const nb = H.neighbour(a, dir);
      const [cx, cy] = this.c(a);
      const [p1, p2] = H.sideEnds(cx, cy, S, dir);
      const seg = (/** @type {number[]} */ p, /** @type {number[]} */ q) => `M${f(p[0])},${f(p[1])}L${f(q[0])},${f(q[1])}`;
      const m = [(p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2];
      const [nx, ny] = this.c(nb);
      const ux = (nx - cx) / S, uy = (ny - cy) / S;
      const end = this.contains(nb) ? [nx, ny] : m;
      for (const feat of side.features) {
        const lay = styleOf(feat).style;
        if (!lays.includes(lay)) continue;
        if (lay === 'crossing') add(feat, seg([m[0] - ux * 0.2 * S, m[1] - uy * 0.2 * S], [m[0] + ux * 0.2 * S, m[1] + uy * 0.2 * S]));
        else if (lay === 'route') add(feat, seg([cx, cy], end));
        else {
          add(feat, seg(p1, p2));
          if (lay === 'hachured') {
            // ticks across the hexside
            const ex = p2[0] - p1[0], ey = p2[1] - p1[1], len = Math.hypot(ex, ey);
            const tx = (-ey / len) * 0.09 * S, ty = (ex / len) * 0.09 * S;
            for (const t of [0.2, 0.4, 0.6, 0.8]) {
              const px = p1[0] + ex * t, py = p1[1] + ey * t;
              add(feat, seg([px - tx, py - ty], [px + tx, py + ty]));
            }
          }
        }
      }
    }
    // bottom to top: by lay, then the legend's later features under its earlier ones
    const legendOrder = [...this.styles.features.keys()];
    const ids = [...legendOrder, ...[...d.keys()].filter((k) => !legendOrder.includes(k))].reverse();
    for (const lay of lays) {
      for (const k of ids) {
        const path = d.get(k);
        const st = styleOf(k);
        if (!path || st.style !== lay) continue;
        const round = !st.dash && st.style !== 'crossing';
        g.append(s('path', {
          d: path, fill: 'none', class: `${prefix}-${k}`, stroke: st.stroke, 'stroke-width': f(st.width * S),
          'stroke-linecap': round ? 'round' : null, 'stroke-linejoin': round ? 'round' : null,
          'stroke-dasharray': st.dash ? st.dash.split(/[\s,]+/).map((x) => f(Number(x) * S)).join(' ') : null,
        }));
      }
    }
    return g;
  }

  /** Row numbers down both sides and a compass. */
  drawEdgeLabels() {
    const g = s('g', { class: 'edge-labels', 'font-size': f(0.22 * S), fill: '#5E5A52', 'pointer-events': 'none' });
    const rows = this.map.terrain.length;
    for (let x = 1; x <= rows; x++) {
      const cols = this.map.terrain[x - 1].length;
      const [rx, ry] = this.c(H.id(x, 1));
      const [lx] = this.c(H.id(x, cols));
      g.append(s('text', { x: f(rx + 0.62 * S), y: f(ry + 0.08 * S), 'text-anchor': 'start' }, String(x).padStart(2, '0')));
      g.append(s('text', { x: f(lx - 0.62 * S), y: f(ry + 0.08 * S), 'text-anchor': 'end' }, String(x).padStart(2, '0')));
    }
    // north arrow, top right
    const ax = this.width - MARGIN * 0.95, ay = MARGIN * 1.25;
    g.append(s('path', { d: `M${f(ax)},${f(ay - 0.38 * S)} L${f(ax + 0.15 * S)},${f(ay + 0.2 * S)} L${f(ax)},${f(ay + 0.1 * S)} L${f(ax - 0.15 * S)},${f(ay + 0.2 * S)} Z`, fill: INK }));
    g.append(s('text', { x: f(ax), y: f(ay + 0.45 * S), 'text-anchor': 'middle', 'font-weight': 'bold', fill: INK }, 'N'));
    // title cartouche
    g.append(s('text', { x: f(MARGIN * 0.6), y: f(MARGIN * 0.42), 'font-size': f(0.3 * S), 'font-family': 'DejaVu Serif, Georgia, serif', 'font-style': 'italic', fill: INK }, this.map.title));
    return g;
  }

  drawNumbers() {
    const g = this.layers.numbers;
    g.setAttribute('font-size', f(0.15 * S));
    g.setAttribute('fill', '#4A463F');
    g.setAttribute('text-anchor', 'middle');
    g.setAttribute('pointer-events', 'none');
    for (const hx of this.terrain.keys()) {
      const [cx, cy] = this.c(hx);
      g.append(s('text', { x: f(cx), y: f(cy - 0.34 * S) }, hx));
    }
  }

  /** Place names, laid out with the other labels (see {@link Board.layoutLabels}). */
  drawPlaces() {
    const g = this.layers.places;
    g.setAttribute('pointer-events', 'none');
    const fs = PLACE_FONT * S;
    /** @type {import('./labels.js').Label[]} */
    const labels = [];
    for (const p of this.map.places) {
      if (!this.contains(p.hex)) continue;
      const el = s('text', {
        x: 0, y: f(fs * 0.36), class: 'place', 'text-anchor': 'middle', 'font-size': f(fs), 'data-hex': p.hex,
        'font-family': 'DejaVu Serif, Georgia, serif', 'font-style': 'italic', 'font-weight': 'bold',
        fill: INK, stroke: PAPER, 'stroke-width': f(0.06 * S), 'stroke-linejoin': 'round', 'paint-order': 'stroke',
      }, p.name);
      g.append(el);
      const w = textWidth(p.name, fs, 'italic bold |"DejaVu Serif", Georgia, serif|') * 1.04 + 2;
      labels.push({ el, w, h: fs * 1.2, spots: this.spotsAround(p.hex, w, fs * 1.2, true), rank: RANK.place });
    }
    this.labels.set('place', labels);
  }

  /**
   * The spots (centres) a label of a hex may take, best first: under its counter, over it, the
   * same shifted along the row, beside it, and (for a place name) on the hex itself.
   * @param {string} hex @param {number} w @param {number} h @param {boolean} [onHex]
   * @returns {[number, number][]}
   */
  spotsAround(hex, w, h, onHex = false) {
    const [cx, cy] = this.c(hex);
    const c = (COUNTER / 2) * S;
    const below = cy + c + h / 2 + 0.5, above = cy - c - h / 2 - 0.5;
    /** @type {[number, number][]} */
    const out = [[cx, below], [cx, above]];
    for (const dx of [0.25, -0.25, 0.5, -0.5]) out.push([cx + dx * S, below], [cx + dx * S, above]);
    out.push([cx + c + w / 2 + 1, cy], [cx - c - w / 2 - 1, cy]);
    if (onHex) out.push([cx, cy]);
    for (const dx of [0.75, -0.75, 1, -1]) out.push([cx + dx * S, below], [cx + dx * S, above]);
    return out;
  }

  /**
   * Lays out every label (odds badges, obligation tags, reinforcements, place names) so that none
   * overlaps another or the text of a counter, and as few as can be overlap a counter.
   */
  layoutLabels() {
    const all = [...this.labels.values()].flat();
    const hidden = this.countersHidden;
    placeLabels(all, hidden ? [] : this.counterText, hidden ? [] : this.counterBodies);
  }

  /** Measures what the labels must avoid on the counters just drawn: their printed text and bodies. */
  measureCounters() {
    this.counterText = [];
    this.counterBodies = [];
    for (const el of /** @type {NodeListOf<SVGGElement>} */ (this.layers.counters.querySelectorAll('.counter'))) {
      const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(el.getAttribute('transform') || '');
      if (!m) continue;
      const x = Number(m[1]), y = Number(m[2]);
      const leader = el.classList.contains('leader');
      const k = (leader ? 0.5 : COUNTER) * S;
      this.counterBodies.push(boxAt(x, y, k, k));
      for (const t of /** @type {NodeListOf<SVGTextElement>} */ (el.querySelectorAll('text'))) {
        let b = null;
        try { b = t.getBBox(); } catch { b = null; }
        // not laid out (hidden): the whole face counts as text
        if (!b || (!b.width && !b.height)) { this.counterText.push(boxAt(x, y, k - 4, k - 4)); break; }
        const tr = t.getAttribute('transform');
        if (tr) continue; // the nation's code along the edge: small, at the edge
        this.counterText.push({ x: x + b.x, y: y + b.y, w: b.width, h: b.height });
      }
    }
  }

  // ---------------------------------------------------------------- counters

  /**
   * Draws every unit on the map. Units sharing a hex are drawn as a stack, bottom first, each
   * offset up and left, with a count badge; the selected unit is drawn on top.
   * @param {Unit[]} units
   * `slide` (unit id -> the hex it came from): those counters slide from there, one after the
   * other (not under `prefers-reduced-motion`: the last moves' marks tell it then).
   * @param {{selected?: string|null, obligations?: Map<string, string>, dim?: Set<string>, actable?: Set<string>, flash?: Set<string>, slide?: Map<string, string>}} marks
   */
  setUnits(units, marks = {}) {
    const g = this.layers.counters;
    const mk = this.layers.marks;
    g.replaceChildren();
    mk.replaceChildren();
    this.unitAt.clear();
    this.stackAt.clear();
    /** @type {import('./labels.js').Label[]} */
    const tags = [];
    const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    let slid = 0;
    for (const u of units) {
      if ((u.status !== 'map' && u.status !== 'displaced') || !u.hex || !this.contains(u.hex)) continue;
      const st = this.stackAt.get(u.hex);
      if (st) st.push(u);
      else this.stackAt.set(u.hex, [u]);
    }
    for (const [hex, stack] of this.stackAt) {
      // the selected unit goes on top; otherwise the server's order, last on top
      const sel = stack.findIndex((u) => u.id === marks.selected);
      if (sel >= 0 && sel !== stack.length - 1) stack.push(...stack.splice(sel, 1));
      this.unitAt.set(hex, stack[stack.length - 1]);
      const [cx, cy] = this.c(hex);
      const n = stack.length;
      const step = n > 1 ? Math.min(0.07 * S, (0.2 * S) / (n - 1)) : 0;
      stack.forEach((u, i) => {
        const off = ((n - 1) / 2 - i) * step; // bottom down and right, top up and left
        const el = counterSvg(u, {
          selected: marks.selected === u.id,
          actable: marks.actable?.has(u.id) || false,
          dim: marks.dim?.has(u.id) || false,
        }, this.system);
        el.setAttribute('transform', `translate(${f(cx + off)},${f(cy + off)})`);
        if (n > 1) el.classList.add('stacked');
        if (marks.flash?.has(u.id)) el.classList.add('flash');
        g.append(el);
        const from = marks.slide?.get(u.id);
        if (from && from !== hex && this.contains(from) && !reduced && typeof el.animate === 'function') {
          const [fx, fy] = this.c(from);
          el.classList.add('sliding');
          el.animate([{ transform: `translate(${f(fx)}px,${f(fy)}px)` }, { transform: `translate(${f(cx + off)}px,${f(cy + off)}px)` }],
            { duration: 650, delay: 350 * slid++, easing: 'ease-in-out', fill: 'backwards' }).finished.then(() => el.classList.remove('sliding'), () => {});
        }
      });
      if (n > 1) {
        const r = 0.11 * S, bx = cx + 0.3 * S, by = cy - 0.36 * S;
        mk.append(s('g', { class: 'stack-badge', transform: `translate(${f(bx)},${f(by)})`, 'data-hex': hex },
          s('title', {}, `${n} units in ${hex}: click to choose one`),
          s('circle', { r: f(r), fill: INK, stroke: PAPER, 'stroke-width': 1.2 }),
          s('text', { y: f(0.04 * S), 'text-anchor': 'middle', 'font-size': f(0.13 * S), fill: '#FFFFFF', 'font-weight': 'bold' }, String(n))));
      }
      for (const u of stack) {
        const ob = marks.obligations?.get(u.id);
        if (!ob) continue;
        mk.append(s('circle', { cx: f(cx), cy: f(cy), r: f(0.47 * S), class: 'obligation-ring', fill: 'none' }));
        const label = this.system.obligationLabel(ob);
        const text = label && label !== ob ? `${ob} ${label}` : ob;
        const fs = 0.12 * S;
        const w = textWidth(text, fs) + 0.1 * S, hh = 0.19 * S;
        const el = s('g', { class: 'obligation-tag', 'data-unit': u.id },
          s('rect', { x: f(-w / 2), y: f(-hh / 2), width: f(w), height: f(hh), rx: 3 }),
          s('text', { x: 0, y: f(fs * 0.36), 'text-anchor': 'middle', 'font-size': f(fs) }, text));
        tags.push({ el, w, h: hh, spots: this.spotsAround(hex, w, hh), rank: RANK.obligation });
        break;
      }
    }
    // the tags over every ring (a neighbour's ring never crosses a tag)
    for (const t of tags) mk.append(t.el);
    this.labels.set('obligation', tags);
    this.measureCounters();
    this.layoutLabels();
  }

  /** The units in a hex, top first. @param {string} hex */
  unitsIn(hex) {
    return (this.stackAt.get(hex) || []).slice().reverse();
  }

  // ---------------------------------------------------------------- overlays

  /**
   * Shades legal destinations by cost, with the cost printed.
   * @param {import('../api.js').Destination[]|null} dests
   * @param {string|null} [origin]
   */
  showDestinations(dests, origin) {
    const g = this.layers.dest;
    g.replaceChildren();
    this.layers.origin.replaceChildren();
    if (!dests) return;
    const max = Math.max(1, ...dests.map((d) => d.cost ?? 0));
    for (const d of dests) {
      if (!this.contains(d.hex)) continue;
      const t = (d.cost ?? 0) / max;
      g.append(s('path', { d: this.hexPath(d.hex, 0.94), class: 'dest', 'fill-opacity': f(0.62 - 0.38 * t), 'data-hex': d.hex }));
      const [cx, cy] = this.c(d.hex);
      // a system that does not price its moves gives no cost: the hex is shaded unlabelled
      if (d.cost !== null) g.append(s('text', { x: f(cx), y: f(cy + 0.4 * S), class: 'dest-cost', 'text-anchor': 'middle', 'font-size': f(0.16 * S) }, `${mp(d.cost)}`));
    }
    if (origin && this.contains(origin)) this.layers.origin.append(s('path', { d: this.hexPath(origin, 0.94), class: 'origin' }));
  }

  /**
   * Highlights candidate hexes: 'target' (enemy to attack), 'attacker', 'retreat', 'advance'.
   * @param {Map<string, string>|null} cands hex -> kind
   */
  showCandidates(cands) {
    const g = this.layers.cand;
    g.replaceChildren();
    if (!cands) return;
    for (const [hx, kind] of cands) {
      if (!this.contains(hx)) continue;
      if (kind === 'retreat' || kind === 'advance') {
        g.append(s('path', { d: this.hexPath(hx, 0.92), class: `cand cand-${kind}` }));
        const [cx, cy] = this.c(hx);
        g.append(s('text', { x: f(cx), y: f(cy + 0.42 * S), class: 'cand-label', 'text-anchor': 'middle', 'font-size': f(0.13 * S) }, kind));
      } else {
        g.append(s('path', { d: this.hexPath(hx, 0.98), class: `cand cand-${kind}` }));
      }
    }
  }

  /** The cheapest path, centre to centre, ending in an arrow. @param {string[]|null} path */
  showPath(path) {
    const g = this.layers.path;
    g.replaceChildren();
    if (!path || path.length < 2) return;
    const pts = path.filter((p) => this.contains(p)).map((p) => this.c(p));
    const d = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)},${f(y)}`).join('');
    g.append(s('path', { d, class: 'path-casing' }));
    g.append(s('path', { d, class: 'path-line', 'marker-end': 'url(#arrow-p)' }));
    for (const [x, y] of pts.slice(0, -1)) g.append(s('circle', { cx: f(x), cy: f(y), r: f(0.06 * S), class: 'path-dot' }));
  }

  /**
   * Combats still to resolve: arrows from the attackers, where they stand now, to the
   * defenders, and an odds badge laid out with the other labels. A resolved combat is not
   * drawn (its units may have retreated or advanced: the log and the combat card tell it).
   * @param {Combat[]} combats
   * @param {Map<string, Unit>} units by id
   * @param {number|null} [focus] index of the combat to emphasise
   */
  showCombats(combats, units, focus = null) {
    const g = this.layers.combats;
    g.replaceChildren();
    /** @type {import('./labels.js').Label[]} */
    const badges = [];
    combats.forEach((cb, i) => {
      if (cb.resolved) return;
      const defs = cb.defenders.map((id) => units.get(id)).filter((u) => u && u.hex && this.contains(u.hex));
      if (!defs.length) return;
      const cls = `combat${focus === i ? ' focus' : ''}`;
      const cg = s('g', { class: cls, 'data-combat': i });
      const target = /** @type {Unit} */ (defs[0]);
      const [tx, ty] = this.c(/** @type {string} */ (target.hex));
      for (const aid of [...cb.attackers, ...cb.bombarding]) {
        const a = units.get(aid);
        if (!a || !a.hex || !this.contains(a.hex)) continue;
        // nearest defender
        let best = target;
        for (const d of defs) if (d && H.distance(/** @type {string} */ (a.hex), /** @type {string} */ (d.hex)) < H.distance(/** @type {string} */ (a.hex), /** @type {string} */ (best.hex))) best = d;
        const [ax, ay] = this.c(a.hex);
        const [bx, by] = this.c(/** @type {string} */ (best.hex));
        const len = Math.hypot(bx - ax, by - ay) || 1;
        // from the attacker's counter edge into the defender's (drawn over the counters)
        const ux = (bx - ax) / len, uy = (by - ay) / len;
        const sx = ax + ux * 0.3 * S, sy = ay + uy * 0.3 * S;
        const ex = bx - ux * 0.42 * S, ey = by - uy * 0.42 * S;
        cg.append(s('line', { x1: f(sx), y1: f(sy), x2: f(ex), y2: f(ey), class: 'combat-arrow-casing' }));
        cg.append(s('line', { x1: f(sx), y1: f(sy), x2: f(ex), y2: f(ey), class: `combat-arrow${cb.bombarding.includes(aid) ? ' bombard' : ''}`, 'marker-end': 'url(#arrow-v)' }));
      }
      const label = `${cb.column}`;
      const fs = 0.18 * S;
      const w = 0.12 * S + textWidth(label, fs, '800 |"DejaVu Sans", Verdana, sans-serif|'), hh = 0.26 * S;
      const badge = s('g', { class: 'odds-badge', 'data-combat': i },
        s('rect', { x: f(-w / 2), y: f(-hh / 2), width: f(w), height: f(hh), rx: 4 }),
        s('text', { x: 0, y: f(fs * 0.36), 'text-anchor': 'middle', 'font-size': f(fs) }, label));
      cg.append(badge);
      // on the first arrow, between the counters, else around the target
      /** @type {[number, number][]} */
      const spots = [];
      const first = [...cb.attackers, ...cb.bombarding].map((id) => units.get(id)).find((a) => a?.hex && this.contains(a.hex));
      if (first?.hex && H.distance(first.hex, /** @type {string} */ (target.hex)) === 1) {
        const [ax, ay] = this.c(first.hex);
        spots.push([(ax + tx) / 2, (ay + ty) / 2]);
      }
      spots.push(...this.spotsAround(/** @type {string} */ (target.hex), w, hh));
      badges.push({ el: badge, w, h: hh, spots, rank: RANK.odds });
      g.append(cg);
    });
    this.labels.set('odds', badges);
    this.layoutLabels();
  }

  /**
   * Reinforcements: each entry hex ringed, with a tag per turn saying when and how many arrive
   * there (the units listed in its tooltip); a late arrival (delayed, or its turn passed) is
   * flagged.
   * @param {{hex: string, turn: number, units: Unit[], late: boolean}[]} arrivals
   */
  showReinforcements(arrivals) {
    const g = this.layers.reinf;
    g.replaceChildren();
    /** @type {import('./labels.js').Label[]} */
    const marks = [];
    const ringed = new Set();
    for (const a of arrivals) {
      if (!this.contains(a.hex)) continue;
      if (!ringed.has(a.hex)) {
        ringed.add(a.hex);
        g.append(s('path', { d: this.hexPath(a.hex, 0.9), class: 'reinf-hex', 'data-hex': a.hex }));
      }
      const fs = 0.13 * S;
      const text = `T${a.turn}: +${a.units.length}${a.late ? ' late' : ''}`;
      const w = textWidth(text, fs) + 0.14 * S, hh = 0.21 * S;
      const names = a.units.map((u) => this.system.unitName(u)).join('; ');
      const el = s('g', { class: `reinf-mark${a.late ? ' late' : ''}`, 'data-hex': a.hex, 'data-turn': a.turn },
        s('title', {}, `${a.late ? 'Late: ' : ''}arriving in ${a.hex} on turn ${a.turn}: ${names}`),
        s('rect', { x: f(-w / 2), y: f(-hh / 2), width: f(w), height: f(hh), rx: 3 }),
        s('text', { x: 0, y: f(fs * 0.36), 'text-anchor': 'middle', 'font-size': f(fs) }, text));
      g.append(el);
      const [cx, cy] = this.c(a.hex);
      marks.push({ el, w, h: hh, spots: [[cx, cy], ...this.spotsAround(a.hex, w, hh)], rank: RANK.reinforcement });
    }
    this.labels.set('reinforcement', marks);
    this.layoutLabels();
  }

  /**
   * The last moves of the other side (or the computer): where each unit came from (a dashed
   * hex), the way to where it stands now (an arrow) and its new hex.
   * @param {{unit: string, from: string, to: string}[]} moves
   */
  showLastMoves(moves) {
    const g = this.layers.lastmoves;
    g.replaceChildren();
    for (const m of moves) {
      if (!this.contains(m.from) || !this.contains(m.to)) continue;
      const [ax, ay] = this.c(m.from);
      const [bx, by] = this.c(m.to);
      const len = Math.hypot(bx - ax, by - ay) || 1;
      const ux = (bx - ax) / len, uy = (by - ay) / len;
      g.append(s('g', { class: 'last-move', 'data-unit': m.unit, 'data-from': m.from, 'data-to': m.to },
        s('title', {}, `${m.unit} moved ${m.from} to ${m.to}`),
        s('path', { d: this.hexPath(m.from, 0.9), class: 'last-from' }),
        s('path', { d: this.hexPath(m.to, 0.96), class: 'last-to' }),
        s('line', { x1: f(ax), y1: f(ay), x2: f(bx - ux * 0.36 * S), y2: f(by - uy * 0.36 * S), class: 'last-way', 'marker-end': 'url(#arrow-p)' })));
    }
  }

  /**
   * Routes the rules system draws on the map (its `mapRoutes`: a messenger's ride still to go):
   * a dashed line through the hexes' centres from the first to an arrow at the last, its hexes
   * ringed at the end, with the route's words as its tooltip.
   * @param {{id: string, hexes: string[], label: string}[]} routes
   */
  showRoutes(routes) {
    const g = this.layers.routes;
    g.replaceChildren();
    for (const r of routes) {
      const hexes = r.hexes.filter((hx) => this.contains(hx));
      if (hexes.length < 2) continue;
      const pts = hexes.map((hx) => this.c(hx));
      const [ax, ay] = pts[pts.length - 2];
      const [bx, by] = pts[pts.length - 1];
      const len = Math.hypot(bx - ax, by - ay) || 1;
      // the arrow stops short of the last hex's centre (a counter may stand there)
      const end = [bx - ((bx - ax) / len) * 0.3 * S, by - ((by - ay) / len) * 0.3 * S];
      const d = [...pts.slice(0, -1), end].map(([x, y], i) => `${i ? 'L' : 'M'}${f(x)},${f(y)}`).join('');
      g.append(s('g', { class: 'map-route', 'data-route': r.id, 'data-from': hexes[0], 'data-to': hexes[hexes.length - 1], 'data-hexes': hexes.join(' ') },
        s('title', {}, r.label),
        s('path', { d: this.hexPath(hexes[hexes.length - 1], 0.9), class: 'route-end' }),
        s('path', { d, class: 'route-casing' }),
        s('path', { d, class: 'route-line', 'marker-end': 'url(#arrow)' })));
    }
  }

  /**
   * Greys the hexes a side does not see (the rules system's `mapShade`); null for none.
   * @param {{seen: Set<string>, label: string}|null} shade
   */
  showSight(shade) {
    const g = this.layers.sight;
    g.replaceChildren();
    if (!shade) return;
    let d = '';
    let n = 0;
    for (const hx of this.terrain.keys()) {
      if (shade.seen.has(hx)) continue;
      d += this.hexPath(hx);
      n++;
    }
    if (!d) return;
    g.append(s('path', { d, class: 'out-of-sight', fill: '#3A3A3A', 'fill-opacity': 0.3, 'pointer-events': 'none', 'data-hexes': String(n) }, s('title', {}, shade.label)));
  }

  /** Hatches zones of control. @param {Set<string>|null} hexes */
  showZoc(hexes) {
    const g = this.layers.zoc;
    g.replaceChildren();
    if (!hexes) return;
    let d = '';
    for (const hx of hexes) if (this.contains(hx)) d += this.hexPath(hx);
    g.append(s('path', { d, class: 'zoc', fill: 'url(#pat-zoc)' }));
  }

  /** Cross-hatches the hexes in a unit's range (as the server computed them). @param {Set<string>|null} hexes */
  showRange(hexes) {
    const g = this.layers.range;
    g.replaceChildren();
    if (!hexes) return;
    let d = '';
    for (const hx of hexes) if (this.contains(hx)) d += this.hexPath(hx);
    g.append(s('path', { d, class: 'range', fill: 'url(#pat-range)' }));
  }

  /**
   * The hexsides a hex's units may turn to face, as the server lists them: an arrow inside the
   * hex at each such hexside, pointing out through it; clicking one sends its action (the
   * handlers' `onChoose`). The hexside faced now (a unit's `facing`) has no arrow unless listed.
   * @param {Map<string, Map<string, string>>|null} byHex hex -> direction (E, NE, ...) -> action
   */
  showFacings(byHex) {
    const g = this.layers.facings;
    g.replaceChildren();
    if (!byHex) return;
    for (const [hx, dirs] of byHex) {
      if (!this.contains(hx)) continue;
      const [cx, cy] = this.c(hx);
      for (const [d, action] of dirs) {
        if (!H.DIRS.includes(/** @type {H.Dir} */ (d))) continue;
        const [nx, ny] = H.sideNormal(/** @type {H.Dir} */ (d));
        // between the counter's edge and the hexside, pointing through it
        const r0 = 0.3 * S, r1 = 0.5 * S, w = 0.13 * S;
        const px = -ny, py = nx;
        const bx = cx + nx * r0, by = cy + ny * r0;
        const tip = `${f(cx + nx * r1)},${f(cy + ny * r1)}`;
        const path = `M${f(bx + px * w)},${f(by + py * w)}L${tip}L${f(bx - px * w)},${f(by - py * w)}Z`;
        g.append(s('g', { class: 'facing-choice', 'data-hex': hx, 'data-dir': d, 'data-action': action, role: 'button', 'aria-label': action },
          s('title', {}, `${action}: turn to face this hexside`),
          // a wider, invisible target for the pointer
          s('circle', { cx: f(cx + nx * (r0 + r1) / 2), cy: f(cy + ny * (r0 + r1) / 2), r: f(0.13 * S), class: 'facing-hit' }),
          s('path', { d: path, class: 'facing-arrow' })));
      }
    }
  }

  /** @param {boolean} on */
  setHexNumbers(on) {
    this.layers.numbers.style.display = on ? '' : 'none';
  }

  /** @param {boolean} on */
  setPlaceNames(on) {
    this.layers.places.style.display = on ? '' : 'none';
  }

  // ---------------------------------------------------------------- cursor

  /** @param {string|null} hex @param {boolean} [visible] */
  setCursor(hex, visible = true) {
    this.cursor = hex;
    this.cursorVisible = visible;
    const g = this.layers.cursor;
    g.replaceChildren();
    if (!hex || !visible || !this.contains(hex)) return;
    g.append(s('path', { d: this.hexPath(hex), class: 'cursor-casing' }));
    g.append(s('path', { d: this.hexPath(hex), class: 'cursor' }));
  }

  /** @param {'left'|'right'|'up'|'down'} key */
  moveCursor(key) {
    let hex = this.cursor && this.contains(this.cursor) ? this.cursor : this.centreHex();
    const [x] = H.parse(hex);
    const [cx] = this.c(hex);
    if (this.cursorX === undefined || key === 'left' || key === 'right') this.cursorX = cx;
    let next;
    if (key === 'left') next = H.neighbour(hex, 'W');
    else if (key === 'right') next = H.neighbour(hex, 'E');
    else {
      const [a, b] = key === 'up' ? [H.neighbour(hex, 'NE'), H.neighbour(hex, 'NW')] : [H.neighbour(hex, 'SE'), H.neighbour(hex, 'SW')];
      // keep to the column the cursor started in
      const want = /** @type {number} */ (this.cursorX);
      next = Math.abs(this.c(a)[0] - want) <= Math.abs(this.c(b)[0] - want) ? a : b;
      void x;
    }
    if (!this.contains(next)) return;
    /** @type {number|undefined} */
    const keepX = this.cursorX;
    this.setCursor(next);
    if (key === 'up' || key === 'down') this.cursorX = keepX;
    this.ensureVisible(next);
    this.on.onCursor?.(next);
  }

  /** The hex at the centre of the view. */
  centreHex() {
    const r = this.svg.getBoundingClientRect();
    const [ux, uy] = this.toUser(r.left + r.width / 2, r.top + r.height / 2);
    const hx = H.atPoint((ux - this.ox) / S, (uy - this.oy) / S);
    if (this.contains(hx)) return hx;
    return '1418';
  }

  // ---------------------------------------------------------------- view

  applyView() {
    const { k, tx, ty } = this.view;
    this.vp.setAttribute('transform', `translate(${f(tx)},${f(ty)}) scale(${k.toFixed(4)})`);
    this.svg.classList.toggle('zoomed-out', k < 0.55);
    if (this.fitted) this.saveView();
  }

  /** Keeps the zoom and the map point at the centre of the view (localStorage), soon. */
  saveView() {
    if (!this.viewKey) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      const r = this.svg.getBoundingClientRect();
      if (!r.width || !r.height || !this.viewKey) return;
      const [ux, uy] = this.toUser(r.left + r.width / 2, r.top + r.height / 2);
      try { localStorage.setItem(this.viewKey, JSON.stringify({ k: this.view.k, x: ux, y: uy })); } catch { /* not kept */ }
    }, 250);
  }

  /** The view kept for this game, if any, restored: true when there was one. */
  restoreView() {
    if (!this.viewKey) return false;
    /** @type {any} */
    let v = null;
    try { v = JSON.parse(localStorage.getItem(this.viewKey) || 'null'); } catch { v = null; }
    if (!v || !(v.k > 0.05 && v.k <= 4) || !Number.isFinite(v.x) || !Number.isFinite(v.y)) return false;
    const r = this.svg.getBoundingClientRect();
    this.view = { k: v.k, tx: r.width / 2 - v.x * v.k, ty: r.height / 2 - v.y * v.k };
    this.applyView();
    return true;
  }

  /**
   * The opening view: the whole map when its counters are readable so, else the zoom at which
   * they are ({@link READABLE}) centred on the units on the map.
   */
  openingView() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return;
    this.fit();
    if (this.view.k >= READABLE) return;
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const hex of this.stackAt.keys()) {
      const [x, y] = this.c(hex);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    const left = r.width > 600 ? 58 : 0;
    const k = READABLE;
    const [cx, cy] = x0 <= x1 ? [(x0 + x1) / 2, (y0 + y1) / 2] : [this.width / 2, this.height / 2];
    // keep the map's edge from coming into the view where the map is larger than the view
    const clamp = (/** @type {number} */ t, /** @type {number} */ lo, /** @type {number} */ hi) => (lo > hi ? (lo + hi) / 2 : Math.max(lo, Math.min(hi, t)));
    this.view = {
      k,
      tx: clamp(left + (r.width - left) / 2 - cx * k, r.width - this.width * k, left),
      ty: clamp(r.height / 2 - cy * k, r.height - this.height * k, 0),
    };
    this.applyView();
  }

  /** Hides the counters (and what is drawn on them) to show the map under them, or shows them
   *  again (VASSAL's habit). @param {boolean} [on] */
  setCountersHidden(on = !this.countersHidden) {
    this.countersHidden = on;
    this.svg.classList.toggle('counters-hidden', on);
    this.layoutLabels();
    return on;
  }

  /** Client pixel -> SVG user units. @param {number} px @param {number} py */
  toUser(px, py) {
    const r = this.svg.getBoundingClientRect();
    return [(px - r.left - this.view.tx) / this.view.k, (py - r.top - this.view.ty) / this.view.k];
  }

  /** The client pixel of a hex centre (for tests and tooltips). @param {string} hex */
  clientPoint(hex) {
    const r = this.svg.getBoundingClientRect();
    const [x, y] = this.c(hex);
    return [r.left + this.view.tx + x * this.view.k, r.top + this.view.ty + y * this.view.k];
  }

  /** The hex under a client pixel, or null off the map. @param {number} px @param {number} py */
  hexAt(px, py) {
    const [ux, uy] = this.toUser(px, py);
    const hx = H.atPoint((ux - this.ox) / S, (uy - this.oy) / S);
    return this.contains(hx) ? hx : null;
  }

  fit() {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return;
    // leave room on the left for the map's tool column when there is room to spare
    const left = r.width > 600 ? 58 : 0;
    const k = Math.min((r.width - left) / this.width, r.height / this.height);
    this.view = { k, tx: left + (r.width - left - this.width * k) / 2, ty: (r.height - this.height * k) / 2 };
    this.applyView();
  }

  /** Zooms by a factor around a client point (default: the centre). @param {number} factor @param {number} [px] @param {number} [py] */
  zoom(factor, px, py) {
    const r = this.svg.getBoundingClientRect();
    const cx = px === undefined ? r.width / 2 : px - r.left;
    const cy = py === undefined ? r.height / 2 : py - r.top;
    const minK = Math.min(r.width / this.width, r.height / this.height) * 0.6;
    const k = Math.max(minK, Math.min(4, this.view.k * factor));
    const f2 = k / this.view.k;
    this.view = { k, tx: cx - (cx - this.view.tx) * f2, ty: cy - (cy - this.view.ty) * f2 };
    this.applyView();
  }

  /** @param {number} dx @param {number} dy pixels */
  pan(dx, dy) {
    this.view.tx += dx;
    this.view.ty += dy;
    this.applyView();
  }

  /** Centres the view on a hex, zooming in to a readable scale if needed. @param {string} hex @param {number} [minK] */
  centreOn(hex, minK = 0) {
    const r = this.svg.getBoundingClientRect();
    if (minK && this.view.k < minK) this.view.k = minK;
    const [cx, cy] = this.c(hex);
    this.view.tx = r.width / 2 - cx * this.view.k;
    this.view.ty = r.height / 2 - cy * this.view.k;
    this.applyView();
  }

  /** Pans so that a hex is inside the view with a margin. @param {string} hex */
  ensureVisible(hex) {
    const r = this.svg.getBoundingClientRect();
    const [cx, cy] = this.c(hex);
    const x = cx * this.view.k + this.view.tx, y = cy * this.view.k + this.view.ty;
    const m = Math.max(60, S * this.view.k * 1.2);
    let dx = 0, dy = 0;
    if (x < m) dx = m - x;
    else if (x > r.width - m) dx = r.width - m - x;
    if (y < m) dy = m - y;
    else if (y > r.height - m) dy = r.height - m - y;
    if (dx || dy) this.pan(dx, dy);
  }

  // ---------------------------------------------------------------- input

  bind() {
    const svg = this.svg;
    /** @type {Map<number, {x: number, y: number}>} */
    const pointers = new Map();
    /** @type {null | {mode: 'idle'|'pan'|'drag'|'pinch', x0: number, y0: number, unit?: string, hex?: string|null, dist?: number, moved?: boolean, action?: string|null}} */
    let g = null;
    let suppressClick = false;

    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const factor = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
      this.zoom(factor, e.clientX, e.clientY);
    }, { passive: false });

    svg.addEventListener('pointerdown', (e) => {
      this.keyboard = false;
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      svg.setPointerCapture(e.pointerId);
      if (pointers.size === 2) {
        const [p, q] = [...pointers.values()];
        g = { mode: 'pinch', x0: (p.x + q.x) / 2, y0: (p.y + q.y) / 2, dist: Math.hypot(p.x - q.x, p.y - q.y), moved: true };
        this.clearGhost();
        return;
      }
      const hex = this.hexAt(e.clientX, e.clientY);
      const u = hex ? this.unitAt.get(hex) : undefined;
      // a choice drawn on the map (an arrow at a hexside) is pressed, not its hex
      const choice = /** @type {Element|null} */ (e.target instanceof Element ? e.target.closest('[data-action]') : null);
      const action = choice && this.layers.facings.contains(choice) ? choice.getAttribute('data-action') : null;
      g = { mode: 'idle', x0: e.clientX, y0: e.clientY, unit: action ? undefined : u?.id, hex, moved: false, action };
    });

    svg.addEventListener('pointermove', (e) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (!g) {
        this.on.onHover?.(this.hexAt(e.clientX, e.clientY));
        return;
      }
      if (g.mode === 'pinch' && pointers.size >= 2) {
        const [p, q] = [...pointers.values()];
        const dist = Math.hypot(p.x - q.x, p.y - q.y);
        const mx = (p.x + q.x) / 2, my = (p.y + q.y) / 2;
        this.pan(mx - g.x0, my - g.y0);
        this.zoom(dist / /** @type {number} */ (g.dist || dist), mx, my);
        g.x0 = mx; g.y0 = my; g.dist = dist;
        return;
      }
      const dx = e.clientX - g.x0, dy = e.clientY - g.y0;
      if (g.mode === 'idle' && Math.hypot(dx, dy) > 6) {
        g.moved = true;
        if (g.unit && this.on.onDragStart?.(g.unit)) {
          g.mode = 'drag';
          this.startGhost(g.unit);
        } else g.mode = 'pan';
      }
      if (g.mode === 'pan') {
        this.pan(dx, dy);
        g.x0 = e.clientX; g.y0 = e.clientY;
      } else if (g.mode === 'drag') {
        const [ux, uy] = this.toUser(e.clientX, e.clientY);
        this.moveGhost(ux, uy);
        this.on.onHover?.(this.hexAt(e.clientX, e.clientY));
      }
    });

    const up = (/** @type {PointerEvent} */ e) => {
      pointers.delete(e.pointerId);
      if (!g) return;
      if (g.mode === 'pinch') {
        if (pointers.size === 0) { g = null; suppressClick = true; }
        return;
      }
      if (g.mode === 'drag' && g.unit) {
        const hex = this.hexAt(e.clientX, e.clientY);
        this.clearGhost();
        if (hex && e.type === 'pointerup') this.on.onDrop?.(g.unit, hex);
        suppressClick = true;
      } else if (g.mode === 'pan') {
        suppressClick = true;
      } else if (e.type === 'pointerup' && g.action) {
        this.on.onChoose?.(g.action);
        suppressClick = true;
      } else if (e.type === 'pointerup') {
        const hex = this.hexAt(e.clientX, e.clientY);
        if (hex) {
          this.setCursor(hex, false);
          this.on.onActivate?.(hex, 'click');
        }
        suppressClick = true;
      }
      g = null;
    };
    svg.addEventListener('pointerup', up);
    svg.addEventListener('pointercancel', up);
    svg.addEventListener('click', (e) => { if (suppressClick) { suppressClick = false; e.preventDefault(); } });
    svg.addEventListener('dblclick', (e) => {
      // double-click on open ground zooms in (on a counter the two clicks select and deselect)
      const hex = this.hexAt(e.clientX, e.clientY);
      if (hex && this.unitAt.has(hex)) return;
      e.preventDefault();
      this.zoom(1.6, e.clientX, e.clientY);
    });
    svg.addEventListener('pointerleave', () => { if (!g) this.on.onHover?.(null); });

    svg.addEventListener('keydown', (e) => {
      const k = e.key;
      this.keyboard = true;
      const step = 80;
      if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(k)) {
        e.preventDefault();
        if (e.shiftKey) {
          const [dx, dy] = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[k] || [0, 0];
          this.pan(dx, dy);
        } else {
          if (!this.cursorVisible && this.cursor) this.setCursor(this.cursor);
          this.moveCursor(/** @type {any} */ ({ ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' }[k]));
        }
      } else if (k === '+' || k === '=') { e.preventDefault(); this.zoom(1.25); }
      else if (k === '-' || k === '_') { e.preventDefault(); this.zoom(0.8); }
      else if (k === '0') { e.preventDefault(); this.fit(); }
      else if (k === 'Enter' || k === ' ') {
        e.preventDefault();
        if (!this.cursor || !this.cursorVisible) {
          this.setCursor(this.cursor && this.contains(this.cursor) ? this.cursor : this.centreHex());
          this.on.onCursor?.(/** @type {string} */ (this.cursor));
        } else this.on.onActivate?.(this.cursor, 'key');
      } else if (k === 'Escape') {
        this.on.onEscape?.();
      }
    });
    svg.addEventListener('focus', () => {
      if (!this.keyboard) return;
      if (!this.cursor) {
        this.setCursor(this.centreHex());
        this.on.onCursor?.(/** @type {string} */ (this.cursor));
      } else this.setCursor(this.cursor, true);
    });
    svg.addEventListener('blur', () => { if (this.cursor) this.setCursor(this.cursor, false); });

    document.addEventListener('keydown', (e) => { if (e.key === 'Tab') this.keyboard = true; });
    new ResizeObserver(() => {
      if (this.fitted) return;
      const r = this.svg.getBoundingClientRect();
      if (!r.width || !r.height) return;
      if (!this.restoreView()) this.openingView();
      this.fitted = true;
    }).observe(this.host);
  }

  /** @param {string} unitId */
  startGhost(unitId) {
    const u = [...this.unitAt.values()].find((x) => x.id === unitId);
    if (!u) return;
    const el = counterSvg(u, { selected: true }, this.system);
    el.classList.add('ghost');
    this.layers.ghost.replaceChildren(el);
    this.svg.classList.add('dragging');
  }

  /** @param {number} x @param {number} y */
  moveGhost(x, y) {
    const el = this.layers.ghost.firstElementChild;
    if (el) el.setAttribute('transform', `translate(${f(x)},${f(y)}) scale(1.08)`);
  }

  clearGhost() {
    this.layers.ghost.replaceChildren();
    this.svg.classList.remove('dragging');
  }
}

/** Short names of the usual markers; others are shown by their first letters. @type {Record<string, string>} */
const MARKER_TAGS = { disordered: 'DIS', spent: 'SPT', out_of_supply: 'OOS', routed: 'RTD', fatigued: 'FAT', shaken: 'SHK', rallied: 'RAL', entrenched: 'ENT' };

/** @param {string} m */
export function markerTag(m) {
  return MARKER_TAGS[m] || m.replace(/[^A-Za-z0-9]/g, '').slice(0, 3).toUpperCase();
}

/** The marks a system may give its counters (`unitMark`): shapes told apart without colour. */
export const MARKS = ['disc', 'triangle', 'square', 'diamond', 'cross', 'star', 'ring', 'bar'];

/**
 * A mark's shape centred on the origin, `r` its half size.
 * @param {string} mark one of {@link MARKS} @param {number} r @param {string} colour @param {string} edge
 * @returns {SVGElement|null}
 */
export function markShape(mark, r, colour, edge) {
  const line = { fill: colour, stroke: edge, 'stroke-width': f(r * 0.22), 'stroke-linejoin': 'round', class: `mark mark-${mark}`, 'data-mark': mark };
  const poly = (/** @type {number[][]} */ pts) => s('path', { d: pts.map(([x, y], i) => `${i ? 'L' : 'M'}${f(x * r)},${f(y * r)}`).join('') + 'Z', ...line });
  switch (mark) {
    case 'disc': return s('circle', { r: f(r * 0.85), ...line });
    case 'ring': return s('circle', { r: f(r * 0.72), ...line, fill: 'none', stroke: colour, 'stroke-width': f(r * 0.45) });
    case 'triangle': return poly([[0, -1], [1, 0.8], [-1, 0.8]]);
    case 'square': return poly([[-0.78, -0.78], [0.78, -0.78], [0.78, 0.78], [-0.78, 0.78]]);
    case 'diamond': return poly([[0, -1.05], [0.9, 0], [0, 1.05], [-0.9, 0]]);
    case 'cross': return poly([[-0.32, -1], [0.32, -1], [0.32, -0.32], [1, -0.32], [1, 0.32], [0.32, 0.32], [0.32, 1], [-0.32, 1], [-0.32, 0.32], [-1, 0.32], [-1, -0.32], [-0.32, -0.32]]);
    case 'star': return poly(Array.from({ length: 10 }, (_, i) => {
      const a = -Math.PI / 2 + (i * Math.PI) / 5, q = i % 2 ? 0.45 : 1.05;
      return [Math.cos(a) * q, Math.sin(a) * q];
    }));
    case 'bar': return poly([[-1, -0.36], [1, -0.36], [1, 0.36], [-1, 0.36]]);
    default: return null;
  }
}

/**
 * A counter centred on the origin: its body (square, or round and smaller for a leader) in the
 * colours the system gives, the system's face on it (nothing for a hidden unit: a blank counter
 * of its side), and the generic marks: moved (a dog-ear), in combat (a badge), facing (a notch
 * toward the hexside faced) and markers (tags under the counter).
 * @param {Unit} u
 * @param {{selected?: boolean, actable?: boolean, dim?: boolean}} [o]
 * @param {SystemPanel} [system]
 */
export function counterSvg(u, o = {}, system = GENERIC) {
  const leader = u.type === 'leader';
  const k = (leader ? 0.5 : COUNTER) * S;
  const c = u.hidden ? system.sideColour(u.side) : system.unitColours(u);
  const text = c.text;
  const g = s('g', {
    class: `counter nation-${u.nation}${leader ? ' leader' : ''}${u.hidden ? ' hidden-unit' : ''}${o.selected ? ' selected' : ''}${u.moved ? ' moved' : ''}${u.in_combat ? ' in-combat' : ''}${o.actable ? ' actable' : ''}${o.dim ? ' dim' : ''}`,
    'data-unit': u.id,
  });
  const markers = u.markers || [];
  const facing = typeof u.facing === 'number' && u.facing >= 0 && u.facing < 6 ? H.DIRS[u.facing] : null;
  const title = u.hidden ? `A hidden ${u.side} unit${u.hex ? ` in ${u.hex}` : ''}`
    : `${system.unitName(u)}${u.hex ? ` in ${u.hex}` : ''}${u.moved ? '; has moved' : ''}${u.in_combat ? '; in combat' : ''}${facing ? `; facing ${facing}` : ''}${markers.length ? `; ${markers.join(', ').replace(/_/g, ' ')}` : ''}`;
  g.append(s('title', {}, title));
  const body = { fill: c.fill, stroke: INK, 'stroke-width': 1.2, filter: 'url(#shadow)', class: 'body' };
  if (leader) {
    if (o.selected) g.append(s('circle', { r: f(k / 2 + 4), class: 'sel-halo' }));
    g.append(s('circle', { r: f(k / 2), ...body }));
    g.append(s('circle', { r: f(k / 2 - 2), fill: 'none', stroke: text, 'stroke-opacity': 0.35, 'stroke-width': 0.6 }));
  } else {
    if (o.selected) g.append(s('rect', { x: f(-k / 2 - 4), y: f(-k / 2 - 4), width: f(k + 8), height: f(k + 8), rx: 6, class: 'sel-halo' }));
    g.append(s('rect', { x: f(-k / 2), y: f(-k / 2), width: f(k), height: f(k), rx: 3, ...body }));
    // a thin inner frame, as printed counters have
    g.append(s('rect', { x: f(-k / 2 + 2), y: f(-k / 2 + 2), width: f(k - 4), height: f(k - 4), rx: 2, fill: 'none', stroke: text, 'stroke-opacity': 0.35, 'stroke-width': 0.6 }));
  }
  if (u.hidden) g.append(s('text', { y: f(0.06 * S), 'font-size': f(0.22 * S), fill: text, 'fill-opacity': 0.7, 'text-anchor': 'middle', 'font-weight': 'bold', class: 'hidden-mark' }, '?'));
  else g.append(...system.counterFace(u, k, c));
  // the system's mark (a nation's shape: colour is never the only cue), top left
  const mark = u.hidden ? null : system.unitMark?.(u);
  const shape = mark ? markShape(mark, 0.058 * S, text, c.fill) : null;
  if (shape) {
    const at = leader ? [-k * 0.36, -k * 0.36] : [-k / 2 + 0.085 * S, -k / 2 + 0.085 * S];
    g.append(s('g', { transform: `translate(${f(at[0])},${f(at[1])})`, class: 'unit-mark' }, shape));
  }
  if (facing) {
    // a notch on the edge toward the hexside faced
    const [nx, ny] = H.sideNormal(facing);
    const r = leader ? k / 2 : (k / 2) / Math.max(Math.abs(nx), Math.abs(ny));
    const px = -ny, py = nx, w = 0.07 * S, out = 0.1 * S;
    const bx = nx * r, by = ny * r;
    g.append(s('path', {
      d: `M${f(bx + px * w)},${f(by + py * w)}L${f(bx + nx * out)},${f(by + ny * out)}L${f(bx - px * w)},${f(by - py * w)}Z`,
      fill: '#E69F00', stroke: INK, 'stroke-width': 0.9, class: 'facing', 'data-facing': facing,
    }));
  }
  if (u.moved) {
    // a dog-ear: this unit has moved this phase
    g.append(s('path', { d: `M${f(k / 2 - 0.2 * S)},${f(-k / 2)} L${f(k / 2)},${f(-k / 2)} L${f(k / 2)},${f(-k / 2 + 0.2 * S)} Z`, fill: '#FBF8EE', stroke: INK, 'stroke-width': 0.8, class: 'moved-mark' }));
  }
  if (u.in_combat) {
    // crossed sabres badge
    const r = 0.12 * S;
    g.append(s('g', { transform: `translate(${f(k / 2 - 0.02 * S)},${f(k / 2 - 0.02 * S)})`, class: 'combat-mark' },
      s('circle', { r: f(r), fill: '#D55E00', stroke: INK, 'stroke-width': 0.9 }),
      s('path', { d: `M${f(-r * 0.55)},${f(-r * 0.55)}L${f(r * 0.55)},${f(r * 0.55)}M${f(r * 0.55)},${f(-r * 0.55)}L${f(-r * 0.55)},${f(r * 0.55)}`, stroke: '#fff', 'stroke-width': 1.6, 'stroke-linecap': 'round' })));
  }
  if (markers.length) {
    // tags along the bottom edge, left to right
    const h = 0.15 * S, tw = 0.26 * S;
    const x0 = -k / 2 - 0.04 * S, y0 = k / 2 - h / 2 + 0.02 * S;
    markers.slice(0, 3).forEach((m, i) => {
      g.append(s('g', { class: `marker marker-${m}`, transform: `translate(${f(x0 + i * (tw + 0.02 * S))},${f(y0)})` },
        s('rect', { width: f(tw), height: f(h), rx: 2, fill: '#FFFFFF', stroke: INK, 'stroke-width': 0.8 }),
        s('text', { x: f(tw / 2), y: f(h * 0.74), 'font-size': f(0.105 * S), 'text-anchor': 'middle', fill: INK, 'font-weight': 'bold' }, markerTag(m))));
    });
  }
  return g;
}

/**
 * A counter as a standalone small SVG (for side panels).
 * @param {Unit} u
 * @param {number} [px] size in CSS pixels
 * @param {SystemPanel} [system]
 */
export function counterIcon(u, px = 40, system = GENERIC) {
  const box = 0.9 * S;
  const svg = s('svg', { viewBox: `${f(-box / 2)} ${f(-box / 2)} ${f(box)} ${f(box)}`, width: px, height: px, class: 'counter-icon', 'aria-hidden': 'true' });
  svg.append(counterSvg({ ...u, moved: false, in_combat: false, markers: [], facing: null }, {}, system));
  return svg;
}
