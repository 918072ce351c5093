// The map's look: terrain fills and patterns, hexside feature strokes, paper and ink. The one
// place the board keeps colours of the map (crates/render/src/palette.rs has the same ones). A
// map view's `legend` (docs/api.md) overrides or extends them, so a new map needs no code here.

export const INK = '#1A1A1A';
export const PAPER = '#FBF8EE';
/** The hex outlines. */
export const GRID = '#8E8A80';

/** @typedef {{id: string, name: string, fill: string, pattern?: string|null}} TerrainStyle */
/** @typedef {{id: string, name: string, stroke: string, width: number, dash?: string|null}} FeatureStyle */
/** @typedef {{terrain: TerrainStyle[], features: FeatureStyle[]}} Legend */

/** Terrain, in drawing order. `pattern` names a pattern the board defines (`pat-<name>`). @type {TerrainStyle[]} */
export const TERRAIN = [
  { id: 'clear', name: 'Clear', fill: '#F4EFD9' },
  { id: 'forest', name: 'Forest', fill: '#9FD3B5', pattern: 'forest' },
  { id: 'rough', name: 'Rough', fill: '#E2CCA3', pattern: 'rough' },
  { id: 'marsh', name: 'Marsh', fill: '#CBE6EE', pattern: 'marsh' },
  { id: 'town', name: 'Town', fill: '#E9D6CF', pattern: 'town' },
];

/**
 * Hexside features, in drawing order (later over earlier). `width` is in hexes across the flats
 * (0.15 = 15% of a hex). Roads and trails run centre to centre; bridges cross the hexside; the
 * rest are drawn along it.
 * @type {FeatureStyle[]}
 */
export const FEATURES = [
  { id: 'slope', name: 'Slope', stroke: '#6B4423', width: 0.035 },
  { id: 'stream', name: 'Stream', stroke: '#3A9AD9', width: 0.07 },
  { id: 'river', name: 'River', stroke: '#0072B2', width: 0.15 },
  { id: 'bridge', name: 'Bridge', stroke: '#1F1F1F', width: 0.19 },
  { id: 'trail', name: 'Trail', stroke: '#9C5A1A', width: 0.055, dash: '0.12 0.07' },
  { id: 'road', name: 'Road', stroke: '#9C5A1A', width: 0.1 },
];

/** Features drawn from hex centre to hex centre (the others along the hexside). */
export const LINEAR = new Set(['road', 'trail', 'railway', 'path']);
/** Features drawn across the hexside. */
export const CROSSING = new Set(['bridge', 'ford']);

/**
 * The styles to draw a map with: the map view's legend where it has one (entries it names
 * replace ours), ours for the rest, and a grey for a terrain neither knows.
 * @param {Partial<Legend>|null|undefined} legend
 * @returns {{terrain: Map<string, TerrainStyle>, features: Map<string, FeatureStyle>}}
 */
export function styles(legend) {
  /** @type {Map<string, TerrainStyle>} */
  const terrain = new Map(TERRAIN.map((t) => [t.id, t]));
  /** @type {Map<string, FeatureStyle>} */
  const features = new Map(FEATURES.map((f) => [f.id, f]));
  for (const t of legend?.terrain || []) if (t && t.id) terrain.set(t.id, { ...terrain.get(t.id), ...t });
  for (const f of legend?.features || []) {
    if (!f || !f.id) continue;
    const w = Number(f.width);
    // a legend may give widths in pixels of a 60-pixel hex: bring them to hex units
    features.set(f.id, { ...features.get(f.id), ...f, width: w > 1 ? w / 60 : w || 0.05 });
  }
  return { terrain, features };
}

/** The style of a terrain no legend names. @param {string} id @returns {TerrainStyle} */
export function unknownTerrain(id) {
  return { id, name: id, fill: '#EEEEEE' };
}
