//! A map: hex terrain, hexside features and place names, with its text file format
//! (`docs/formats.md`).

use crate::{Dir, Hex, HexGrid, Legend, LosStep, Parity, TerrainKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The terrain filling a hex: an index into its map's [`Legend`] terrain list. What a terrain
/// means for play is the business of a rules system, which looks its id up in the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Terrain(pub u8);

/// The terrains of the standard legend ([`Legend::standard`]), by their place in it. They name
/// indices only: on a map with another legend, look terrains up with [`Legend::terrain_index`].
#[allow(non_upper_case_globals)]
impl Terrain {
    /// `clear` in the standard legend.
    pub const Clear: Terrain = Terrain(0);
    /// `forest` in the standard legend.
    pub const Forest: Terrain = Terrain(1);
    /// `rough` in the standard legend.
    pub const Rough: Terrain = Terrain(2);
    /// `marsh` in the standard legend.
    pub const Marsh: Terrain = Terrain(3);
    /// `town` in the standard legend.
    pub const Town: Terrain = Terrain(4);
}

/// The features of one hexside as a bit set: bit `i` is feature `i` of the map's [`Legend`].
/// A hexside may carry several (a road crossing a river on a bridge is `ROAD | RIVER | BRIDGE`
/// in the standard legend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hexside(pub u32);

impl Hexside {
    /// No feature.
    pub const NONE: Hexside = Hexside(0);
    /// `road`: feature 0 of the standard legend.
    pub const ROAD: Hexside = Hexside(1);
    /// `trail`: feature 1 of the standard legend.
    pub const TRAIL: Hexside = Hexside(2);
    /// `river`: feature 2 of the standard legend.
    pub const RIVER: Hexside = Hexside(4);
    /// `stream`: feature 3 of the standard legend.
    pub const STREAM: Hexside = Hexside(8);
    /// `bridge`: feature 4 of the standard legend.
    pub const BRIDGE: Hexside = Hexside(16);
    /// `slope`: feature 5 of the standard legend.
    pub const SLOPE: Hexside = Hexside(32);

    /// The set holding feature `i` of the legend alone (`NONE` for `i >= 32`).
    #[inline]
    pub const fn bit(i: usize) -> Hexside {
        if i < 32 {
            Hexside(1 << i)
        } else {
            Hexside::NONE
        }
    }

    /// True when no feature is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when every flag of `f` is set.
    #[inline]
    pub const fn has(self, f: Hexside) -> bool {
        self.0 & f.0 == f.0
    }

    /// True when any flag of `f` is set.
    #[inline]
    pub const fn any(self, f: Hexside) -> bool {
        self.0 & f.0 != 0
    }

    /// The union of two sets of flags.
    #[inline]
    pub const fn with(self, f: Hexside) -> Hexside {
        Hexside(self.0 | f.0)
    }

    /// This set without the flags of `f`.
    #[inline]
    pub const fn without(self, f: Hexside) -> Hexside {
        Hexside(self.0 & !f.0)
    }
}

/// Which edge of the map a hex lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    /// `XX = 01`.
    North,
    /// `XX = width`.
    South,
    /// `YY = 01`.
    East,
    /// `YY = height`.
    West,
}

/// A named place drawn on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Name as printed.
    pub name: String,
    /// The hex it is drawn in.
    pub hex: Hex,
}

/// A validated map: every hex has a terrain of its legend; hexside features are stored on both
/// sides; the offset parity says which rows are shifted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Identifier (`leipzig`).
    pub id: String,
    /// Title for people.
    pub title: String,
    legend: Legend,
    parity: Parity,
    terrain: HexGrid<Terrain>,
    sides: HexGrid<[Hexside; 6]>,
    slope_hexes: HexGrid<bool>,
    /// Named places.
    pub places: Vec<Place>,
}

/// A problem found in a map file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// The TOML text did not parse.
    #[error("map file: {0}")]
    Syntax(String),
    /// A semantic problem, with the item it concerns.
    #[error("map '{map}': {item}: {problem}")]
    Invalid {
        /// The map id.
        map: String,
        /// The item (a row, a hexside, a place).
        item: String,
        /// What is wrong.
        problem: String,
    },
}

impl Map {
    /// A map of the standard legend and parity, of clear hexes with no hexside features.
    pub fn new(id: &str, width: i16, height: i16) -> Map {
        Map::with_legend(id, width, height, Legend::standard(), Parity::Even)
    }

    /// A map with its own legend and parity, every hex of the legend's first terrain, with no
    /// hexside features. The legend is taken as given: [`Legend::check`] it first.
    pub fn with_legend(id: &str, width: i16, height: i16, legend: Legend, parity: Parity) -> Map {
        Map {
            id: id.to_string(),
            title: id.to_string(),
            legend,
            parity,
            terrain: HexGrid::new(width, height, Terrain(0)),
            sides: HexGrid::new(width, height, [Hexside::NONE; 6]),
            slope_hexes: HexGrid::new(width, height, false),
            places: Vec::new(),
        }
    }

    /// The map's legend: its terrain kinds and hexside features.
    pub fn legend(&self) -> &Legend {
        &self.legend
    }

    /// Which rows are shifted.
    pub fn parity(&self) -> Parity {
        self.parity
    }

    /// The neighbour of `h` in direction `d` on this map's grid (may be off the map).
    #[inline]
    pub fn neighbour(&self, h: Hex, d: Dir) -> Hex {
        h.neighbour_in(d, self.parity)
    }

    /// The six neighbours of `h` in direction order (some may be off the map).
    pub fn neighbours(&self, h: Hex) -> [Hex; 6] {
        h.neighbours_in(self.parity)
    }

    /// The direction from `a` to `b` when they are adjacent on this map's grid.
    pub fn direction(&self, a: Hex, b: Hex) -> Option<Dir> {
        a.direction_to_in(b, self.parity)
    }

    /// The number of hexes between two hexes on this map's grid.
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        a.distance_in(b, self.parity)
    }

    /// The centre of a hex in a north-up drawing, hexes one unit across (see [`Hex::centre`]).
    pub fn centre(&self, h: Hex) -> (f64, f64) {
        h.centre_in(self.parity)
    }

    /// The steps of the line of sight between two hexes (see [`crate::line_of_sight`]).
    pub fn line_of_sight(&self, from: Hex, to: Hex) -> Vec<LosStep> {
        crate::line_of_sight_in(from, to, self.parity)
    }

    /// Number of rows (`XX`).
    pub fn width(&self) -> i16 {
        self.terrain.width()
    }

    /// Hexes per row (`YY`).
    pub fn height(&self) -> i16 {
        self.terrain.height()
    }

    /// True when the hex is on the map.
    #[inline]
    pub fn contains(&self, h: Hex) -> bool {
        self.terrain.contains(h)
    }

    /// Every hex of the map in dense-index order.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.terrain.hexes()
    }

    /// A grid of this map's size filled with `v`.
    pub fn grid<T: Clone>(&self, v: T) -> HexGrid<T> {
        HexGrid::new(self.width(), self.height(), v)
    }

    /// The terrain of an on-map hex (the legend's first terrain off the map).
    #[inline]
    pub fn terrain(&self, h: Hex) -> Terrain {
        self.terrain.get(h).copied().unwrap_or_default()
    }

    /// The legend entry of the terrain of a hex (the legend's first terrain off the map).
    pub fn terrain_kind(&self, h: Hex) -> &TerrainKind {
        let t = self.terrain(h).0 as usize;
        &self.legend.terrain[t]
    }

    /// Sets the terrain of a hex (ignored off the map, or for an index the legend lacks).
    pub fn set_terrain(&mut self, h: Hex, t: Terrain) {
        if (t.0 as usize) >= self.legend.terrain.len() {
            return;
        }
        if let Some(c) = self.terrain.get_mut(h) {
            *c = t;
        }
    }

    /// True for a hex carrying the slope symbol (5.26).
    #[inline]
    pub fn is_slope_hex(&self, h: Hex) -> bool {
        self.slope_hexes.get(h).copied().unwrap_or(false)
    }

    /// Marks a hex as a slope hex.
    pub fn set_slope_hex(&mut self, h: Hex, v: bool) {
        if let Some(c) = self.slope_hexes.get_mut(h) {
            *c = v;
        }
    }

    /// The features of the hexside of `h` in direction `d`.
    #[inline]
    pub fn hexside(&self, h: Hex, d: Dir) -> Hexside {
        self.sides
            .get(h)
            .map(|s| s[d.index()])
            .unwrap_or(Hexside::NONE)
    }

    /// The features of the hexside between two adjacent hexes (`NONE` if not adjacent).
    pub fn hexside_between(&self, a: Hex, b: Hex) -> Hexside {
        self.direction(a, b)
            .map(|d| self.hexside(a, d))
            .unwrap_or(Hexside::NONE)
    }

    /// Adds features to the hexside of `h` in direction `d`, on both of its hexes. Bits past
    /// the legend's features are dropped.
    pub fn add_hexside(&mut self, h: Hex, d: Dir, f: Hexside) {
        let f = Hexside(f.0 & self.legend.all_features().0);
        let n = self.neighbour(h, d);
        if let Some(s) = self.sides.get_mut(h) {
            s[d.index()] = s[d.index()].with(f);
        }
        if let Some(s) = self.sides.get_mut(n) {
            s[d.opposite().index()] = s[d.opposite().index()].with(f);
        }
    }

    /// Removes features from a hexside, on both of its hexes.
    pub fn remove_hexside(&mut self, h: Hex, d: Dir, f: Hexside) {
        let n = self.neighbour(h, d);
        if let Some(s) = self.sides.get_mut(h) {
            s[d.index()] = s[d.index()].without(f);
        }
        if let Some(s) = self.sides.get_mut(n) {
            let i = d.opposite().index();
            s[i] = s[i].without(f);
        }
    }

    /// True for a hex with any of the features `f` on at least one of its hexsides (with a
    /// road's bit: a road hex).
    pub fn touches(&self, h: Hex, f: Hexside) -> bool {
        Dir::ALL.iter().any(|&d| self.hexside(h, d).any(f))
    }

    /// The edges a hex lies on (none for an interior hex, two at a corner).
    pub fn edges_of(&self, h: Hex) -> Vec<Edge> {
        let mut v = Vec::new();
        if !self.contains(h) {
            return v;
        }
        if h.x == 1 {
            v.push(Edge::North);
        }
        if h.x == self.width() {
            v.push(Edge::South);
        }
        if h.y == 1 {
            v.push(Edge::East);
        }
        if h.y == self.height() {
            v.push(Edge::West);
        }
        v
    }

    /// The on-map hexes along one edge, in order.
    pub fn edge_hexes(&self, e: Edge) -> Vec<Hex> {
        self.hexes()
            .filter(|&h| self.edges_of(h).contains(&e))
            .collect()
    }

    /// The place name drawn in a hex, if any.
    pub fn place_at(&self, h: Hex) -> Option<&str> {
        self.places
            .iter()
            .find(|p| p.hex == h)
            .map(|p| p.name.as_str())
    }

    /// Parses and validates a map file (TOML, `docs/formats.md`).
    pub fn from_toml(text: &str) -> Result<Map, MapError> {
        let f: MapFile = toml::from_str(text).map_err(|e| MapError::Syntax(e.to_string()))?;
        f.validate()
    }

    /// The map file that reproduces this map.
    pub fn to_file(&self) -> MapFile {
        let mut terrain = Vec::new();
        for x in 1..=self.width() {
            let row: String = (1..=self.height())
                .map(|y| self.terrain_kind(Hex::new(x, y)).code)
                .collect();
            terrain.push(row);
        }
        let mut hexsides: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (i, feature) in self.legend.features.iter().enumerate() {
            let flag = Hexside::bit(i);
            let mut list = Vec::new();
            for h in self.hexes() {
                for d in Dir::ALL {
                    let n = self.neighbour(h, d);
                    // each hexside once: from the lower-numbered hex, or from the only on-map one
                    if self.contains(n) && n < h {
                        continue;
                    }
                    if self.hexside(h, d).has(flag) {
                        if self.contains(n) {
                            list.push(format!("{h}/{n}"));
                        } else {
                            list.push(format!("{h}/{}", d.name()));
                        }
                    }
                }
            }
            if !list.is_empty() {
                hexsides.insert(feature.id.clone(), list);
            }
        }
        MapFile {
            format: FORMAT.to_string(),
            id: self.id.clone(),
            title: self.title.clone(),
            width: self.width(),
            height: self.height(),
            parity: (self.parity != Parity::Even).then_some(self.parity),
            terrain,
            slope_hexes: self.hexes().filter(|&h| self.is_slope_hex(h)).collect(),
            legend: (!self.legend.is_standard()).then(|| self.legend.clone()),
            hexsides,
            places: self.places.clone(),
        }
    }

    /// The map file text (TOML) for this map.
    pub fn to_toml(&self) -> String {
        toml::to_string(&self.to_file()).expect("a map file always serialises")
    }
}

const FORMAT: &str = "grognard-map/1";

/// A map file as written: the unvalidated form of a [`Map`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// Always `grognard-map/1`.
    pub format: String,
    /// Identifier.
    pub id: String,
    /// Title.
    #[serde(default)]
    pub title: String,
    /// Number of rows `XX`.
    pub width: i16,
    /// Hexes per row `YY`.
    pub height: i16,
    /// Which rows are shifted half a hex west; [`Parity::Even`] when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parity: Option<Parity>,
    /// One string per row `XX = 01..`, character `k` (from 1) is hex `YY = k`, each the code of
    /// a legend terrain (standard legend: `.` clear, `f` forest, `r` rough, `m` marsh, `t` town).
    pub terrain: Vec<String>,
    /// Hexes with the slope symbol.
    #[serde(default)]
    pub slope_hexes: Vec<Hex>,
    /// The terrain kinds and hexside features; [`Legend::standard`] when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legend: Option<Legend>,
    /// Hexside features by legend id (standard legend: `road`, `trail`, `river`, `stream`,
    /// `bridge`, `slope`): lists of `XXYY/XXYY` (two adjacent hexes) or `XXYY/DIR` for a
    /// map-edge hexside.
    #[serde(default)]
    pub hexsides: BTreeMap<String, Vec<String>>,
    /// Place names.
    #[serde(default)]
    pub places: Vec<Place>,
}

impl MapFile {
    /// Checks the file and builds the map; every error names the item at fault.
    pub fn validate(&self) -> Result<Map, MapError> {
        let err = |item: &str, problem: String| MapError::Invalid {
            map: self.id.clone(),
            item: item.to_string(),
            problem,
        };
        if self.format != FORMAT {
            return Err(err(
                "format",
                format!("expected '{FORMAT}', found '{}'", self.format),
            ));
        }
        if !(1..=99).contains(&self.width) || !(1..=99).contains(&self.height) {
            return Err(err(
                "size",
                format!("{} x {} is not within 1..99", self.width, self.height),
            ));
        }
        let legend = self.legend.clone().unwrap_or_default();
        legend
            .check()
            .map_err(|(item, problem)| err(&item, problem))?;
        let mut m = Map::with_legend(
            &self.id,
            self.width,
            self.height,
            legend,
            self.parity.unwrap_or_default(),
        );
        m.title = if self.title.is_empty() {
            self.id.clone()
        } else {
            self.title.clone()
        };
        if self.terrain.len() != self.width as usize {
            return Err(err(
                "terrain",
                format!(
                    "{} rows given, the map has {}",
                    self.terrain.len(),
                    self.width
                ),
            ));
        }
        let codes = |l: &Legend| {
            let c: Vec<String> = l
                .terrain
                .iter()
                .map(|t| format!("{} {}", t.code, t.id))
                .collect();
            c.join(", ")
        };
        for (i, row) in self.terrain.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != self.height as usize {
                return Err(err(
                    &format!("terrain row {:02}", i + 1),
                    format!("{} hexes given, rows have {}", chars.len(), self.height),
                ));
            }
            for (j, c) in chars.into_iter().enumerate() {
                let t = m.legend.terrain_of_code(c).ok_or_else(|| {
                    err(
                        &format!("hex {:02}{:02}", i + 1, j + 1),
                        format!(
                            "unknown terrain code '{c}' (the legend has {})",
                            codes(&m.legend)
                        ),
                    )
                })?;
                m.set_terrain(Hex::new(i as i16 + 1, j as i16 + 1), t);
            }
        }
        for &h in &self.slope_hexes {
            if !m.contains(h) {
                return Err(err(&format!("slope hex {h}"), "is off the map".into()));
            }
            m.set_slope_hex(h, true);
        }
        for (name, list) in &self.hexsides {
            let flag = m.legend.feature(name).ok_or_else(|| {
                let ids: Vec<&str> = m.legend.features.iter().map(|f| f.id.as_str()).collect();
                err(
                    &format!("hexsides.{name}"),
                    format!("unknown feature (the legend has {})", ids.join(" ")),
                )
            })?;
            for s in list {
                let item = format!("{name} hexside {s}");
                let (a, b) = s
                    .split_once('/')
                    .ok_or_else(|| err(&item, "expected XXYY/XXYY or XXYY/DIR".into()))?;
                let a: Hex = a
                    .parse()
                    .map_err(|e: crate::HexParseError| err(&item, e.to_string()))?;
                if !m.contains(a) {
                    return Err(err(&item, format!("hex {a} is off the map")));
                }
                let d = match Dir::ALL.iter().find(|d| d.name() == b) {
                    Some(&d) => d,
                    None => {
                        let bh: Hex = b
                            .parse()
                            .map_err(|e: crate::HexParseError| err(&item, e.to_string()))?;
                        m.direction(a, bh)
                            .ok_or_else(|| err(&item, format!("{a} and {bh} are not adjacent")))?
                    }
                };
                m.add_hexside(a, d, flag);
            }
        }
        for p in &self.places {
            if !m.contains(p.hex) {
                return Err(err(
                    &format!("place '{}'", p.name),
                    format!("hex {} is off the map", p.hex),
                ));
            }
        }
        m.places = self.places.clone();
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FeatureKind, FeatureStyle, TerrainKind, MAX_FEATURES};

    #[test]
    fn hexsides_are_stored_on_both_sides() {
        let mut m = Map::new("t", 5, 5);
        let a = Hex::new(2, 2);
        m.add_hexside(a, Dir::SW, Hexside::RIVER);
        let b = a.neighbour(Dir::SW);
        assert!(m.hexside(b, Dir::NE).has(Hexside::RIVER));
        assert!(!m.hexside_between(a, b).has(Hexside::BRIDGE));
        m.add_hexside(b, Dir::NE, Hexside::BRIDGE);
        assert_eq!(
            m.hexside_between(a, b),
            Hexside::RIVER.with(Hexside::BRIDGE)
        );
        m.remove_hexside(a, Dir::SW, Hexside::RIVER);
        assert_eq!(m.hexside(b, Dir::NE), Hexside::BRIDGE);
        assert!(m.touches(a, Hexside::BRIDGE) && !m.touches(a, Hexside::ROAD));
    }

    #[test]
    fn file_round_trip() {
        let mut m = Map::new("t", 4, 6);
        m.set_terrain(Hex::new(2, 3), Terrain::Forest);
        m.set_terrain(Hex::new(4, 6), Terrain::Marsh);
        m.add_hexside(Hex::new(1, 1), Dir::W, Hexside::ROAD.with(Hexside::STREAM));
        m.add_hexside(Hex::new(1, 1), Dir::NE, Hexside::ROAD);
        m.set_slope_hex(Hex::new(3, 3), true);
        m.places.push(Place {
            name: "X".into(),
            hex: Hex::new(2, 2),
        });
        let text = m.to_toml();
        assert!(
            !text.contains("legend") && !text.contains("parity"),
            "{text}"
        );
        let back = Map::from_toml(&text).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn the_standard_legend_is_the_napoleon_at_war_chart() {
        let l = Legend::standard();
        let t: Vec<(&str, char)> = l.terrain.iter().map(|t| (t.id.as_str(), t.code)).collect();
        assert_eq!(
            t,
            [
                ("clear", '.'),
                ("forest", 'f'),
                ("rough", 'r'),
                ("marsh", 'm'),
                ("town", 't')
            ]
        );
        for (c, id) in [
            (Terrain::Clear, "clear"),
            (Terrain::Forest, "forest"),
            (Terrain::Rough, "rough"),
            (Terrain::Marsh, "marsh"),
            (Terrain::Town, "town"),
        ] {
            assert_eq!(l.terrain_index(id), Some(c));
        }
        for (c, id) in [
            (Hexside::ROAD, "road"),
            (Hexside::TRAIL, "trail"),
            (Hexside::RIVER, "river"),
            (Hexside::STREAM, "stream"),
            (Hexside::BRIDGE, "bridge"),
            (Hexside::SLOPE, "slope"),
        ] {
            assert_eq!(l.feature(id), Some(c));
        }
        assert_eq!(l.features.len(), 6);
        assert!(l.check().is_ok() && l.is_standard());
        assert_eq!(Map::new("x", 1, 1).legend(), &l);
        // A file without a legend gets it.
        let m = Map::from_toml(MINI).unwrap();
        assert!(m.legend().is_standard());
        assert_eq!(m.parity(), Parity::Even);
        assert_eq!(m.terrain(Hex::new(2, 2)), Terrain::Town);
    }

    const MINI: &str = r#"format = "grognard-map/1"
id = "x"
width = 2
height = 2
terrain = ["..", ".t"]
"#;

    const CUSTOM: &str = r##"format = "grognard-map/1"
id = "strategic"
width = 3
height = 3
parity = "odd"
terrain = ["..M", "^^.", "F.^"]

[[legend.terrain]]
id = "open"
name = "Open"
code = "."
fill = "#eeeedd"

[[legend.terrain]]
id = "mountain"
name = "Mountains"
code = "^"
fill = "tan"
pattern = "hatching"

[[legend.terrain]]
id = "fortress"
name = "Fortress"
code = "F"
fill = "#a44"

[[legend.terrain]]
id = "marsh"
name = "Marsh"
code = "M"
fill = "#cbe6ee"
pattern = "tufts"

[[legend.features]]
id = "border"
name = "Border"
stroke = "#000"
width = 0.05
dash = "0.1 0.05"

[[legend.features]]
id = "pass"
name = "Mountain pass"
stroke = "brown"
width = 0.2
style = "crossing"

[hexsides]
border = ["0101/0102", "0103/E"]
pass = ["0201/0202"]
"##;

    #[test]
    fn a_custom_legend_map_parses_and_round_trips() {
        let m = Map::from_toml(CUSTOM).unwrap();
        let l = m.legend();
        assert_eq!(l.terrain.len(), 4);
        assert_eq!(m.parity(), Parity::Odd);
        assert_eq!(m.terrain_kind(Hex::new(1, 3)).id, "marsh");
        assert_eq!(m.terrain_kind(Hex::new(3, 1)).id, "fortress");
        assert_eq!(
            m.terrain(Hex::new(2, 1)),
            l.terrain_index("mountain").unwrap()
        );
        let border = l.feature("border").unwrap();
        let pass = l.feature("pass").unwrap();
        assert_eq!(l.features[1].style, FeatureStyle::Crossing);
        assert!(m
            .hexside_between(Hex::new(1, 1), Hex::new(1, 2))
            .has(border));
        assert!(m.hexside(Hex::new(1, 3), Dir::E).has(border));
        assert!(m.hexside_between(Hex::new(2, 2), Hex::new(2, 1)).has(pass));
        assert_eq!(
            l.feature_ids(border.with(pass)).collect::<Vec<_>>(),
            ["border", "pass"]
        );
        let text = m.to_toml();
        assert!(text.contains("parity = \"odd\"") && text.contains("[[legend.terrain]]"));
        let back = Map::from_toml(&text).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.to_toml(), text);
    }

    fn custom_with(f: impl FnOnce(&mut MapFile)) -> String {
        let mut file: MapFile = toml::from_str(CUSTOM).unwrap();
        f(&mut file);
        file.validate().unwrap_err().to_string()
    }

    #[test]
    fn bad_legends_are_refused_with_the_item_named() {
        let e = custom_with(|f| {
            let l = f.legend.as_mut().unwrap();
            let t = l.terrain[1].clone();
            l.terrain.push(TerrainKind { code: 'x', ..t });
        });
        assert!(
            e.contains("terrain 'mountain'") && e.contains("used twice"),
            "{e}"
        );
        let e = custom_with(|f| {
            let l = f.legend.as_mut().unwrap();
            let t = l.terrain[1].clone();
            l.terrain.push(TerrainKind {
                id: "hills".into(),
                ..t
            });
        });
        assert!(e.contains("'hills'") && e.contains("code '^'"), "{e}");
        let e = custom_with(|f| {
            let l = f.legend.as_mut().unwrap();
            let b = l.features[0].clone();
            l.features.push(b);
        });
        assert!(
            e.contains("feature 'border'") && e.contains("used twice"),
            "{e}"
        );
        let e = custom_with(|f| {
            let l = f.legend.as_mut().unwrap();
            let b = l.features[0].clone();
            for i in 0..MAX_FEATURES {
                l.features.push(FeatureKind {
                    id: format!("f{i}"),
                    ..b.clone()
                });
            }
        });
        assert!(e.contains("34 features") && e.contains("at most 32"), "{e}");
        let e = custom_with(|f| f.legend.as_mut().unwrap().terrain.clear());
        assert!(e.contains("at least one terrain"), "{e}");
        let e = custom_with(|f| f.legend.as_mut().unwrap().terrain[0].fill = "red\"/>".into());
        assert!(e.contains("not a colour"), "{e}");
        let e = custom_with(|f| f.legend.as_mut().unwrap().features[0].width = f64::NAN);
        assert!(e.contains("width"), "{e}");
        let e = custom_with(|f| f.legend.as_mut().unwrap().features[0].dash = Some("x".into()));
        assert!(e.contains("dash"), "{e}");
        let e = custom_with(|f| f.legend.as_mut().unwrap().terrain[0].id = "Open Land".into());
        assert!(e.contains("not an id"), "{e}");
        // a code the legend lacks, and a standard code the custom legend does not have
        let e = custom_with(|f| f.terrain[0] = "..t".into());
        assert!(
            e.contains("hex 0103") && e.contains("'t'") && e.contains("^ mountain"),
            "{e}"
        );
        // a feature the legend lacks
        let e = custom_with(|f| {
            f.hexsides.insert("river".into(), vec!["0101/0102".into()]);
        });
        assert!(
            e.contains("hexsides.river") && e.contains("border pass"),
            "{e}"
        );
        // syntax: a two-character code, an unknown key
        let e = Map::from_toml(&CUSTOM.replace("code = \"F\"", "code = \"FF\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("map file"), "{e}");
        let e = Map::from_toml(&CUSTOM.replace("parity = \"odd\"", "parity = \"both\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("map file") && e.contains("parity"), "{e}");
    }

    #[test]
    fn an_odd_parity_map_stores_hexsides_on_its_own_neighbours() {
        let m = Map::from_toml(CUSTOM).unwrap();
        // Odd rows are shifted west: 0101's south-west neighbour is 0202 (it is 0201 with even
        // parity).
        assert_eq!(m.neighbour(Hex::new(1, 1), Dir::SW), Hex::new(2, 2));
        assert_eq!(m.direction(Hex::new(1, 1), Hex::new(2, 2)), Some(Dir::SW));
        assert_eq!(m.distance(Hex::new(1, 1), Hex::new(2, 2)), 1);
        assert_eq!(m.direction(Hex::new(1, 2), Hex::new(2, 1)), None);
        let bad = CUSTOM.replace("pass = [\"0201/0202\"]", "pass = [\"0102/0201\"]");
        let e = Map::from_toml(&bad).unwrap_err().to_string();
        assert!(e.contains("not adjacent"), "{e}");
        let ok = CUSTOM.replace("pass = [\"0201/0202\"]", "pass = [\"0101/0202\"]");
        let m = Map::from_toml(&ok).unwrap();
        let pass = m.legend().feature("pass").unwrap();
        assert!(m.hexside(Hex::new(2, 2), Dir::NE).has(pass));
    }

    #[test]
    fn errors_name_the_item() {
        let bad = r#"format = "grognard-map/1"
id = "x"
width = 2
height = 2
terrain = ["..", ".q"]
"#;
        let e = Map::from_toml(bad).unwrap_err().to_string();
        assert!(e.contains("hex 0202") && e.contains("'q'"), "{e}");
        let bad = r#"format = "grognard-map/1"
id = "x"
width = 2
height = 2
terrain = ["..", ".."]
[hexsides]
river = ["0101/0202"]
"#;
        let e = Map::from_toml(bad).unwrap_err().to_string();
        assert!(e.contains("not adjacent"), "{e}");
    }
}
