//! A map: hex terrain, hexside features and place names, with its text file format
//! (`docs/formats.md`).

use crate::{Dir, Hex, HexGrid};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The terrain filling a hex (Terrain Effects Chart, 9.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    /// Clear terrain.
    Clear,
    /// Forest: blocks line of sight (8.33).
    Forest,
    /// Rough: doubles the defender.
    Rough,
    /// Marsh: entered only along a road; doubles the defender.
    Marsh,
    /// Town: blocks line of sight, doubles the defender.
    Town,
}

impl Terrain {
    /// All hex terrains.
    pub const ALL: [Terrain; 5] = [
        Terrain::Clear,
        Terrain::Forest,
        Terrain::Rough,
        Terrain::Marsh,
        Terrain::Town,
    ];

    /// The one-character code of the map file format.
    pub const fn code(self) -> char {
        match self {
            Terrain::Clear => '.',
            Terrain::Forest => 'f',
            Terrain::Rough => 'r',
            Terrain::Marsh => 'm',
            Terrain::Town => 't',
        }
    }

    /// The terrain of a one-character code.
    pub fn from_code(c: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.code() == c)
    }

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Forest => "forest",
            Terrain::Rough => "rough",
            Terrain::Marsh => "marsh",
            Terrain::Town => "town",
        }
    }
}

/// The features of one hexside, as bit flags. A hexside may carry several (a road crossing a
/// river on a bridge is `ROAD | RIVER | BRIDGE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hexside(pub u8);

impl Hexside {
    /// No feature.
    pub const NONE: Hexside = Hexside(0);
    /// A road runs through this hexside from hex to hex (5.22).
    pub const ROAD: Hexside = Hexside(1);
    /// A trail runs through this hexside (5.23).
    pub const TRAIL: Hexside = Hexside(2);
    /// A river (crossed only at a bridge, 5.24).
    pub const RIVER: Hexside = Hexside(4);
    /// A stream (two extra movement points, 5.25).
    pub const STREAM: Hexside = Hexside(8);
    /// A bridge over the river or stream of this hexside.
    pub const BRIDGE: Hexside = Hexside(16);
    /// A slope hexside (5.26).
    pub const SLOPE: Hexside = Hexside(32);

    /// Every flag with its file-format name.
    pub const NAMED: [(Hexside, &'static str); 6] = [
        (Hexside::ROAD, "road"),
        (Hexside::TRAIL, "trail"),
        (Hexside::RIVER, "river"),
        (Hexside::STREAM, "stream"),
        (Hexside::BRIDGE, "bridge"),
        (Hexside::SLOPE, "slope"),
    ];

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

    /// A river hexside with no bridge: no movement, no zone of control, no normal attack.
    #[inline]
    pub const fn is_unbridged_river(self) -> bool {
        self.has(Hexside::RIVER) && !self.has(Hexside::BRIDGE)
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

/// A validated map: every hex has a terrain; hexside features are stored on both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Identifier (`leipzig`).
    pub id: String,
    /// Title for people.
    pub title: String,
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
    /// A map of clear hexes with no hexside features.
    pub fn new(id: &str, width: i16, height: i16) -> Map {
        Map {
            id: id.to_string(),
            title: id.to_string(),
            terrain: HexGrid::new(width, height, Terrain::Clear),
            sides: HexGrid::new(width, height, [Hexside::NONE; 6]),
            slope_hexes: HexGrid::new(width, height, false),
            places: Vec::new(),
        }
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

    /// The terrain of an on-map hex (`Clear` off the map).
    #[inline]
    pub fn terrain(&self, h: Hex) -> Terrain {
        self.terrain.get(h).copied().unwrap_or(Terrain::Clear)
    }

    /// Sets the terrain of a hex (ignored off the map).
    pub fn set_terrain(&mut self, h: Hex, t: Terrain) {
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
        a.direction_to(b)
            .map(|d| self.hexside(a, d))
            .unwrap_or(Hexside::NONE)
    }

    /// Adds features to the hexside of `h` in direction `d`, on both of its hexes.
    pub fn add_hexside(&mut self, h: Hex, d: Dir, f: Hexside) {
        if let Some(s) = self.sides.get_mut(h) {
            s[d.index()] = s[d.index()].with(f);
        }
        if let Some(s) = self.sides.get_mut(h.neighbour(d)) {
            s[d.opposite().index()] = s[d.opposite().index()].with(f);
        }
    }

    /// Removes features from a hexside, on both of its hexes.
    pub fn remove_hexside(&mut self, h: Hex, d: Dir, f: Hexside) {
        if let Some(s) = self.sides.get_mut(h) {
            s[d.index()] = Hexside(s[d.index()].0 & !f.0);
        }
        if let Some(s) = self.sides.get_mut(h.neighbour(d)) {
            let i = d.opposite().index();
            s[i] = Hexside(s[i].0 & !f.0);
        }
    }

    /// True for a hex with a road through at least one of its hexsides.
    pub fn is_road_hex(&self, h: Hex) -> bool {
        Dir::ALL
            .iter()
            .any(|&d| self.hexside(h, d).has(Hexside::ROAD))
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
                .map(|y| self.terrain(Hex::new(x, y)).code())
                .collect();
            terrain.push(row);
        }
        let mut hexsides: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (flag, name) in Hexside::NAMED {
            let mut list = Vec::new();
            for h in self.hexes() {
                for d in Dir::ALL {
                    let n = h.neighbour(d);
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
                hexsides.insert(name.to_string(), list);
            }
        }
        MapFile {
            format: FORMAT.to_string(),
            id: self.id.clone(),
            title: self.title.clone(),
            width: self.width(),
            height: self.height(),
            terrain,
            slope_hexes: self.hexes().filter(|&h| self.is_slope_hex(h)).collect(),
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
    /// One string per row `XX = 01..`, character `k` (from 1) is hex `YY = k`:
    /// `.` clear, `f` forest, `r` rough, `m` marsh, `t` town.
    pub terrain: Vec<String>,
    /// Hexes with the slope symbol.
    #[serde(default)]
    pub slope_hexes: Vec<Hex>,
    /// Hexside features by name (`road`, `trail`, `river`, `stream`, `bridge`, `slope`): lists of
    /// `XXYY/XXYY` (two adjacent hexes) or `XXYY/DIR` for a map-edge hexside.
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
        let mut m = Map::new(&self.id, self.width, self.height);
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
        for (i, row) in self.terrain.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != self.height as usize {
                return Err(err(
                    &format!("terrain row {:02}", i + 1),
                    format!("{} hexes given, rows have {}", chars.len(), self.height),
                ));
            }
            for (j, c) in chars.into_iter().enumerate() {
                let t = Terrain::from_code(c).ok_or_else(|| {
                    err(
                        &format!("hex {:02}{:02}", i + 1, j + 1),
                        format!("unknown terrain code '{c}' (use . f r m t)"),
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
            let flag = Hexside::NAMED
                .iter()
                .find(|(_, n)| n == name)
                .map(|(f, _)| *f)
                .ok_or_else(|| {
                    err(
                        &format!("hexsides.{name}"),
                        "unknown feature (road trail river stream bridge slope)".into(),
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
                        a.direction_to(bh)
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

    #[test]
    fn hexsides_are_stored_on_both_sides() {
        let mut m = Map::new("t", 5, 5);
        let a = Hex::new(2, 2);
        m.add_hexside(a, Dir::SW, Hexside::RIVER);
        let b = a.neighbour(Dir::SW);
        assert!(m.hexside(b, Dir::NE).has(Hexside::RIVER));
        assert!(m.hexside_between(a, b).is_unbridged_river());
        m.add_hexside(b, Dir::NE, Hexside::BRIDGE);
        assert!(!m.hexside_between(a, b).is_unbridged_river());
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
        let back = Map::from_toml(&text).unwrap();
        assert_eq!(back, m);
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
