// The map's look: terrain fills and patterns, hexside feature strokes, paper and ink. The one
// place the board keeps colours of the map (hexmap's standard legend, the same as the SVG
// renderer's). A map view's `legend` (docs/api.md) replaces them, so a new map needs no code here.

export const INK = '#1A1A1A';
export const PAPER = '#FBF8EE';
/** The hex outlines. */
export const GRID = '#8E8A80';

/** @typedef {{id: string, name: string, fill: string, code?: string, pattern?: string|null}} TerrainStyle */
/**
 * How a hexside feature is laid (hexmap's `FeatureStyle`): `edge` along the hexside, `hachured`
 * along it with ticks across, `crossing` a bar across its middle, `route` from hex centre to
 * hex centre.
 * @typedef {'edge'|'hachured'|'crossing'|'route'} FeatureLay */
/** @typedef {{id: string, name: string, stroke: string, width: number, dash?: string|null, style: FeatureLay}} FeatureStyle */
/** The map view's `legend` (hexmap's `Legend` as the server serialises it: `style` is left out
 *  for `edge`, `pattern` and `dash` when there are none).
 *  @typedef {{terrain: {id: string, name: string, code?: string, fill: string, pattern?: string|null}[],
 *    features: {id: string, name: string, stroke: string, width: number, dash?: string|null, style?: string}[]}} Legend */

/** Terrain, in drawing order (hexmap's standard legend). `pattern` names a pattern the board
 *  defines (`pat-<name>`: `trees`, `hatching`, `tufts`; `buildings` draws buildings).
 *  @type {TerrainStyle[]} */
export const TERRAIN = [
  { id: 'clear', name: 'Clear', fill: '#F4EFD9' },
  { id: 'forest', name: 'Forest', fill: '#9FD3B5', pattern: 'trees' },
  { id: 'rough', name: 'Rough', fill: '#E2CCA3', pattern: 'hatching' },
  { id: 'marsh', name: 'Marsh', fill: '#CBE6EE', pattern: 'tufts' },
  { id: 'town', name: 'Town', fill: '#E9D6CF', pattern: 'buildings' },
];

/**
 * Hexside features (hexmap's standard legend, in its order). `width` is in hex widths, the
 * distance between neighbouring hex centres (0.15 = 15% of a hex), and so is `dash`.
 * @type {FeatureStyle[]}
 */
export const FEATURES = [
  { id: 'road', name: 'Road', stroke: '#9C5A1A', width: 0.1, style: 'route' },
  { id: 'trail', name: 'Trail', stroke: '#9C5A1A', width: 0.055, dash: '0.12 0.07', style: 'route' },
  { id: 'river', name: 'River', stroke: '#0072B2', width: 0.15, style: 'edge' },
  { id: 'stream', name: 'Stream', stroke: '#3A9AD9', width: 0.07, style: 'edge' },
  { id: 'bridge', name: 'Bridge', stroke: '#1F1F1F', width: 0.19, style: 'crossing' },
  { id: 'slope', name: 'Slope', stroke: '#6B4423', width: 0.035, style: 'hachured' },
];

/** The lays a feature may have; anything else is drawn along the hexside. */
const LAYS = new Set(['edge', 'hachured', 'crossing', 'route']);

/**
 * The styles to draw a map with: the map view's legend when it has one (the server's word on
 * every terrain and feature of the map), else the standard legend above; a grey for a terrain
 * neither knows.
 * @param {Partial<Legend>|null|undefined} legend
 * @returns {{terrain: Map<string, TerrainStyle>, features: Map<string, FeatureStyle>}}
 */
export function styles(legend) {
  /** @type {Map<string, TerrainStyle>} */
  const terrain = new Map(TERRAIN.map((t) => [t.id, t]));
  /** @type {Map<string, FeatureStyle>} */
  const features = new Map(FEATURES.map((f) => [f.id, f]));
  if (legend && Array.isArray(legend.terrain) && legend.terrain.length) {
    terrain.clear();
    for (const t of legend.terrain) if (t && t.id) terrain.set(t.id, { id: t.id, name: t.name || t.id, fill: t.fill || '#EEEEEE', code: t.code, pattern: t.pattern || null });
  }
  if (legend && Array.isArray(legend.features)) {
    features.clear();
    for (const f of legend.features) {
      if (!f || !f.id) continue;
      const w = Number(f.width);
      // the server leaves `style` out for the default, `edge`
      const style = /** @type {FeatureLay} */ (f.style && LAYS.has(f.style) ? f.style : 'edge');
      features.set(f.id, { id: f.id, name: f.name || f.id, stroke: f.stroke || '#555555', width: w > 0 ? w : 0.05, dash: f.dash || null, style });
    }
  }
  return { terrain, features };
}

/** The style of a terrain no legend names. @param {string} id @returns {TerrainStyle} */
export function unknownTerrain(id) {
  return { id, name: id, fill: '#EEEEEE' };
}

/** The style of a feature no legend names: a grey line along the hexside. @param {string} id @returns {FeatureStyle} */
export function unknownFeature(id) {
  return { id, name: id, stroke: '#555555', width: 0.05, style: 'edge' };
}
