// The map legend, drawn from the same styles as the map (palette.js and the map's legend) and
// from the rules system's panel (its units' colours and marks).

import { h, s } from '../util.js';
import { PATTERNS, markShape } from './board.js';

/** @typedef {import('../palette.js').TerrainStyle} TerrainStyle */
/** @typedef {import('../palette.js').FeatureStyle} FeatureStyle */

/**
 * @param {{terrain: Map<string, TerrainStyle>, features: Map<string, FeatureStyle>}} styles
 * @param {Set<string>} terrainUsed @param {Set<string>} featuresUsed
 * @param {import('../systems.js').SystemPanel} system
 */
export function legend(styles, terrainUsed, featuresUsed, system) {
  const swatch = (/** @type {(SVGElement|null)[]} */ ...kids) => s('svg', { viewBox: '0 0 22 14', width: 22, height: 14, class: 'lg-svg', 'aria-hidden': 'true' }, ...kids);
  const terrain = [...styles.terrain.values()].filter((t) => terrainUsed.has(t.id)).map((t) => h('li', {},
    swatch(s('rect', { x: 0.5, y: 0.5, width: 21, height: 13, fill: t.fill, stroke: '#8e8a80' }),
      t.pattern && PATTERNS.has(t.pattern) ? s('rect', { x: 0.5, y: 0.5, width: 21, height: 13, fill: `url(#pat-${t.pattern})` }) : null,
      t.pattern === 'buildings' ? s('path', { d: 'M4 4h5v4H4z M11 3h4v6h-4z M6 9h8v3H6z', fill: '#A8432A' }) : null), t.name));
  const features = [...styles.features.values()].filter((f) => featuresUsed.has(f.id)).map((f) => h('li', {},
    swatch(f.style === 'crossing' ? s('line', { x1: 11, y1: 1, x2: 11, y2: 13, stroke: f.stroke, 'stroke-width': Math.max(1.5, f.width * 20).toFixed(1) })
      : s('path', { d: f.style === 'hachured' ? 'M1 7H21M5 4V10M9 4V10M13 4V10M17 4V10' : 'M1 7H21', fill: 'none', stroke: f.stroke, 'stroke-width': Math.max(1.5, f.width * 20).toFixed(1), 'stroke-dasharray': f.dash ? f.dash.split(/[\s,]+/).map((x) => (Number(x) * 20).toFixed(1)).join(' ') : null })), f.name));
  const sw = (/** @type {string} */ cls, /** @type {string} */ label) => h('li', {}, h('span', { class: `lg lg-${cls}`, 'aria-hidden': 'true' }), label);
  return h('aside', { class: 'legend', 'aria-label': 'Legend' },
    h('h2', {}, 'Legend'),
    h('div', { class: 'legend-cols' },
      h('ul', { class: 'plain' }, terrain),
      h('ul', { class: 'plain' }, features),
      h('ul', { class: 'plain' }, system.legendUnits().map((n) => h('li', {}, h('span', { class: 'lg lg-nation', style: `background:${n.fill};color:${n.text}`, 'aria-hidden': 'true' }, n.code),
        n.mark ? s('svg', { viewBox: '-7 -7 14 14', width: 14, height: 14, class: 'lg-mark', 'aria-hidden': 'true' }, markShape(n.mark, 6, '#1A1A1A', '#1A1A1A')) : null, n.name))),
      h('ul', { class: 'plain' }, sw('dest', 'Legal destination (cost)'), sw('zoc', 'Enemy zone of control'), sw('range', 'Range of the selected unit'),
        system.legendMarks().map((m) => sw(m.cls, m.label)),
        sw('moved', 'Has moved'), sw('incombat', 'In a declared combat'), sw('cand', 'Retreat / advance hex'), sw('stack', 'Units in a stack'))));
}
