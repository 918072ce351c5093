// Small line icons (inline SVG: no icon font, nothing from the network).

import { s } from './util.js';

/** @type {Record<string, string>} path data on a 20x20 grid, stroked */
const PATHS = {
  undo: 'M7 5 L3 9 L7 13 M3 9 H12 A5 5 0 0 1 12 19 H8',
  replay: 'M4 4 V16 M16 4 L7 10 L16 16 Z',
  export: 'M10 3 V13 M6 9 L10 13 L14 9 M4 16 H16',
  rules: 'M5 3 H14 L16 5 V17 H5 Z M8 7 H13 M8 10 H13 M8 13 H11',
  charts: 'M3 4 H17 V16 H3 Z M3 8 H17 M3 12 H17 M8 4 V16 M12.5 4 V16',
  help: 'M7.5 7.5 A2.6 2.6 0 1 1 11 10 C10 10.6 10 11 10 12.5 M10 15.5 V15.6 M10 1.8 A8.2 8.2 0 1 1 9.99 1.8',
  first: 'M5 4 V16 M15 4 L7 10 L15 16 Z',
  prev: 'M14 4 L6 10 L14 16 Z',
  next: 'M6 4 L14 10 L6 16 Z',
  last: 'M15 4 V16 M5 4 L13 10 L5 16 Z',
  branch: 'M6 3 V17 M6 11 C6 7 14 9 14 4 M14 4 L11.5 6.5 M14 4 L16.5 6.5',
  fit: 'M3 7 V3 H7 M13 3 H17 V7 M17 13 V17 H13 M7 17 H3 V13',
  plus: 'M10 4 V16 M4 10 H16',
  minus: 'M4 10 H16',
};

/** An icon, hidden from assistive technology (its button carries the label). @param {string} name */
export function icon(name) {
  return s('svg', { viewBox: '0 0 20 20', width: 20, height: 20, class: `icon icon-${name}`, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: PATHS[name] || '', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
}
