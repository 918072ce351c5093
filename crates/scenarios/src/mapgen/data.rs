//! The two data files the Battle of Nations map is made from, as Rust types.
//!
//! `data/leipzig-geography.toml` holds the ground in kilometres around the Leipzig Markt;
//! `data/leipzig-overrides.toml` holds the few hand corrections applied after rasterising.

use serde::Deserialize;

use super::geom::Pt;

/// The ground: every feature in km east/north of the Markt, each with its source.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Geography {
    /// Rivers: crossed only at bridges.
    #[serde(default, rename = "river")]
    pub rivers: Vec<Line>,
    /// Streams: crossed at extra cost.
    #[serde(default, rename = "stream")]
    pub streams: Vec<Line>,
    /// Roads, each running from the town (or from another road) to the map edge and beyond.
    #[serde(default, rename = "road")]
    pub roads: Vec<Line>,
    /// Bridges that do not carry one of the roads (a road crossing a river always gets one).
    #[serde(default, rename = "bridge")]
    pub bridges: Vec<Bridge>,
    /// Areas of hex terrain.
    #[serde(default, rename = "area")]
    pub areas: Vec<Area>,
    /// Named places; a town place makes its hex town terrain.
    #[serde(default, rename = "place")]
    pub places: Vec<PlaceDef>,
}

/// A river, stream or road: a polyline in km.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// Name (`Elster`, `Lützen road`).
    pub name: String,
    /// Where the course comes from, and any deliberate departure from it.
    pub source: String,
    /// True for a stream that rises on the map (its first point need not join anything).
    #[serde(default)]
    pub rises: bool,
    /// The course, in order (rivers downstream; roads outward from the town).
    pub points: Vec<Pt>,
}

/// A bridge not carried by a road of the data: the hexside of `river` nearest to `at`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bridge {
    /// Name.
    pub name: String,
    /// The river it crosses (a `river` name).
    pub river: String,
    /// Where it stood, km.
    pub at: Pt,
    /// Source.
    pub source: String,
}

/// An area of hex terrain: every hex whose centre lies inside the polygon takes the terrain
/// (where areas overlap, town beats marsh beats forest beats rough).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Name.
    pub name: String,
    /// `forest`, `rough`, `marsh` or `town`.
    pub terrain: String,
    /// Source.
    pub source: String,
    /// The outline, km (closed implicitly).
    pub polygon: Vec<Pt>,
}

/// A named place.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceDef {
    /// Name as printed.
    pub name: String,
    /// Where it is, km.
    pub at: Pt,
    /// True when the place's hex is town terrain (a village that doubles its defender).
    #[serde(default)]
    pub town: bool,
    /// Source.
    pub source: String,
}

/// The hand corrections.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    /// Terrain changes.
    #[serde(default, rename = "terrain")]
    pub terrain: Vec<TerrainOverride>,
    /// Hexside changes.
    #[serde(default, rename = "hexside")]
    pub hexsides: Vec<HexsideOverride>,
    /// Place names moved to another hex.
    #[serde(default, rename = "place")]
    pub places: Vec<PlaceOverride>,
}

/// Sets the terrain of one hex.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainOverride {
    /// The hex, `XXYY`.
    pub hex: String,
    /// `clear`, `forest`, `rough`, `marsh` or `town`.
    pub terrain: String,
    /// Why.
    pub reason: String,
}

/// Adds or removes one feature on one hexside.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideOverride {
    /// `XXYY/XXYY` (two adjacent hexes) or `XXYY/DIR` on the map edge.
    pub hexside: String,
    /// A feature to add (`road`, `river`, `stream`, `bridge`).
    #[serde(default)]
    pub add: Option<String>,
    /// A feature to remove.
    #[serde(default)]
    pub remove: Option<String>,
    /// For a river or stream: which one (so each line stays a chain of its own).
    #[serde(default)]
    pub line: Option<String>,
    /// Why.
    pub reason: String,
}

/// Moves a place name.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceOverride {
    /// The place's name as in the geography.
    pub name: String,
    /// The hex it is printed in.
    pub hex: String,
    /// Why.
    pub reason: String,
}
