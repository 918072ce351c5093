//! Hex maths for printed hex-and-counter maps: `XXYY` numbering, neighbours, distance, line of
//! sight, dense per-hex storage, and the terrain of a map (hex terrain and hexside features).
//!
//! This crate knows nothing of units or rules. Geometry follows `RULES-NOTES.md` of the project:
//! hexes of one `XX` form a straight east-west line (a *row*, drawn north up with `XX = 01` at the
//! top); rows are offset by half a hex, even rows shifted toward higher `YY` (west). `YY` grows
//! from east to west.
//!
//! ```
//! use hexmap::{Hex, Dir};
//! let h: Hex = "2314".parse().unwrap();
//! assert_eq!(h.to_string(), "2314");
//! // Yorck's start line is continuous:
//! let line: Vec<Hex> = ["0529", "0429", "0330", "0230", "0131"].iter().map(|s| s.parse().unwrap()).collect();
//! assert!(line.windows(2).all(|w| w[0].distance(w[1]) == 1));
//! assert_eq!(h.neighbour(Dir::W), "2315".parse().unwrap());
//! ```

mod grid;
mod legend;
mod los;
mod map;

pub use grid::HexGrid;
pub use legend::{FeatureKind, FeatureStyle, Legend, TerrainKind, MAX_FEATURES, MAX_TERRAINS};
pub use los::{line_of_sight, line_of_sight_in, LosStep};
pub use map::{Edge, Hexside, Map, MapError, MapFile, Place, Terrain};

use std::fmt;
use std::str::FromStr;

/// Which rows of a map are shifted half a hex toward higher `YY` (west): the offset parity of
/// the printed grid. Napoleon at War's maps shift the even rows (`RULES-NOTES.md`), the default.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Debug,
    Default,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Parity {
    /// Even rows (`XX = 02, 04, ...`) are shifted west: the default.
    #[default]
    Even,
    /// Odd rows (`XX = 01, 03, ...`) are shifted west.
    Odd,
}

impl Parity {
    /// The name used in map files (`even`, `odd`).
    pub const fn name(self) -> &'static str {
        match self {
            Parity::Even => "even",
            Parity::Odd => "odd",
        }
    }

    /// True when row `x` is shifted half a hex west under this parity.
    #[inline]
    pub const fn shifts(self, x: i32) -> bool {
        let even = x % 2 == 0;
        match self {
            Parity::Even => even,
            Parity::Odd => !even,
        }
    }

    /// The constant added to `2 * YY + shift` so that doubled coordinates keep
    /// `column + row` even.
    const fn column_offset(self) -> i32 {
        match self {
            Parity::Even => 1,
            Parity::Odd => 0,
        }
    }
}

/// A hex by its printed number `XXYY`: `x` is the row (north to south), `y` the position in the
/// row (east to west). Both are 1-based on a map; off-map values (0 or past the edge) are
/// representable so that neighbour arithmetic never fails, and [`Map::contains`] tells which are
/// real.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Hex {
    /// Row number `XX` (grows north to south).
    pub x: i16,
    /// Position in the row `YY` (grows east to west).
    pub y: i16,
}

/// Circumradius of a hex one unit across its flats (`1 / sqrt(3)`), in the drawing frame of
/// [`Hex::centre`].
pub const CIRCUMRADIUS: f64 = 0.577_350_269_189_625_8;

/// The six corners of a hex relative to its centre in the drawing frame of [`Hex::centre`]
/// (`x` east, `y` south, hexes one unit across their flats), clockwise from the north corner:
/// 0 north, 1 east-north-east, 2 east-south-east, 3 south, 4 west-south-west,
/// 5 west-north-west. Every drawing of hexes (the renderer, the map generator's preview) takes
/// its corners from here.
pub const CORNERS: [(f64, f64); 6] = [
    (0.0, -CIRCUMRADIUS),
    (0.5, -CIRCUMRADIUS / 2.0),
    (0.5, CIRCUMRADIUS / 2.0),
    (0.0, CIRCUMRADIUS),
    (-0.5, CIRCUMRADIUS / 2.0),
    (-0.5, -CIRCUMRADIUS / 2.0),
];

/// The six directions out of a hex. Rows run east-west, so there is no north or south neighbour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// East: `YY - 1` in the same row.
    E = 0,
    /// North-east: the row above, toward lower `YY`.
    NE = 1,
    /// North-west: the row above, toward higher `YY`.
    NW = 2,
    /// West: `YY + 1` in the same row.
    W = 3,
    /// South-west: the row below, toward higher `YY`.
    SW = 4,
    /// South-east: the row below, toward lower `YY`.
    SE = 5,
}

impl Dir {
    /// All six directions, in index order.
    pub const ALL: [Dir; 6] = [Dir::E, Dir::NE, Dir::NW, Dir::W, Dir::SW, Dir::SE];

    /// The two corners (indices into [`CORNERS`]) that bound the hexside in this direction.
    pub const fn corners(self) -> (usize, usize) {
        match self {
            Dir::E => (1, 2),
            Dir::SE => (2, 3),
            Dir::SW => (3, 4),
            Dir::W => (4, 5),
            Dir::NW => (5, 0),
            Dir::NE => (0, 1),
        }
    }

    /// The direction pointing back.
    pub const fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 6]
    }

    /// The index 0..6 of this direction.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A short name (`E`, `NE`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Dir::E => "E",
            Dir::NE => "NE",
            Dir::NW => "NW",
            Dir::W => "W",
            Dir::SW => "SW",
            Dir::SE => "SE",
        }
    }
}

impl Hex {
    /// A hex from its row and position numbers.
    pub const fn new(x: i16, y: i16) -> Hex {
        Hex { x, y }
    }

    /// The neighbour in direction `d` (may be off the map), with the default parity
    /// ([`Parity::Even`]); [`Hex::neighbour_in`] takes the map's.
    #[inline]
    pub const fn neighbour(self, d: Dir) -> Hex {
        self.neighbour_in(d, Parity::Even)
    }

    /// The neighbour in direction `d` on a grid of the given parity (may be off the map).
    #[inline]
    pub const fn neighbour_in(self, d: Dir, p: Parity) -> Hex {
        let s = if p.shifts(self.x as i32) { 1 } else { 0 };
        let (dx, dy) = match d {
            Dir::E => (0, -1),
            Dir::W => (0, 1),
            Dir::NE => (-1, s - 1),
            Dir::NW => (-1, s),
            Dir::SE => (1, s - 1),
            Dir::SW => (1, s),
        };
        Hex::new(self.x + dx, self.y + dy)
    }

    /// The six neighbours in direction order (some may be off the map), default parity.
    pub fn neighbours(self) -> [Hex; 6] {
        self.neighbours_in(Parity::Even)
    }

    /// The six neighbours in direction order on a grid of the given parity.
    pub fn neighbours_in(self, p: Parity) -> [Hex; 6] {
        Dir::ALL.map(|d| self.neighbour_in(d, p))
    }

    /// The direction from `self` to `other` when they are adjacent, default parity.
    pub fn direction_to(self, other: Hex) -> Option<Dir> {
        self.direction_to_in(other, Parity::Even)
    }

    /// The direction from `self` to `other` when they are adjacent on a grid of parity `p`.
    pub fn direction_to_in(self, other: Hex, p: Parity) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|&d| self.neighbour_in(d, p) == other)
    }

    /// Doubled-width coordinates (default parity): `(column, row)` where the column counts half
    /// hexes, so that every hex centre has integer coordinates and `column + row` is even.
    pub const fn doubled(self) -> (i32, i32) {
        self.doubled_in(Parity::Even)
    }

    /// Doubled-width coordinates on a grid of parity `p` (see [`Hex::doubled`]).
    pub const fn doubled_in(self, p: Parity) -> (i32, i32) {
        let shift = if p.shifts(self.x as i32) { 1 } else { 0 };
        let c = 2 * self.y as i32 + shift + p.column_offset();
        (c, self.x as i32)
    }

    /// Cube coordinates `(q, r, s)` with `q + r + s = 0`, default parity.
    pub const fn cube(self) -> (i32, i32, i32) {
        self.cube_in(Parity::Even)
    }

    /// Cube coordinates on a grid of parity `p`.
    pub const fn cube_in(self, p: Parity) -> (i32, i32, i32) {
        let (c, r) = self.doubled_in(p);
        let q = (c - r) / 2;
        (q, r, -q - r)
    }

    /// The hex with the given cube coordinates, default parity.
    pub const fn from_cube(q: i32, r: i32) -> Hex {
        Hex::from_cube_in(q, r, Parity::Even)
    }

    /// The hex with the given cube coordinates on a grid of parity `p`.
    pub const fn from_cube_in(q: i32, r: i32, p: Parity) -> Hex {
        let c = 2 * q + r;
        // c = 2y + shift + offset
        let shift = if p.shifts(r) { 1 } else { 0 };
        Hex::new(r as i16, ((c - shift - p.column_offset()) / 2) as i16)
    }

    /// The number of hexes between two hexes (adjacent hexes are at distance 1), default
    /// parity. Range for artillery (8.12) counts the target hex but not the firing hex, which
    /// is this distance.
    pub const fn distance(self, other: Hex) -> u32 {
        self.distance_in(other, Parity::Even)
    }

    /// The number of hexes between two hexes on a grid of parity `p`.
    pub const fn distance_in(self, other: Hex, p: Parity) -> u32 {
        let (c1, r1) = self.doubled_in(p);
        let (c2, r2) = other.doubled_in(p);
        let dc = (c1 - c2).unsigned_abs();
        let dr = (r1 - r2).unsigned_abs();
        if dc > dr {
            dr + (dc - dr) / 2
        } else {
            dr
        }
    }

    /// Centre of the hex in a north-up drawing with hexes one unit across (flat to flat),
    /// default parity: `x` grows to the east (right), `y` to the south (down). `YY = 01` is at
    /// the east, so the drawing's x decreases as `YY` grows; callers add their own offset.
    pub fn centre(self) -> (f64, f64) {
        self.centre_in(Parity::Even)
    }

    /// Centre of the hex on a grid of parity `p` (see [`Hex::centre`]).
    pub fn centre_in(self, p: Parity) -> (f64, f64) {
        let (c, r) = self.doubled_in(p);
        (-(c as f64) * 0.5, r as f64 * 0.75_f64.sqrt())
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if (0..100).contains(&self.x) && (0..100).contains(&self.y) {
            write!(f, "{:02}{:02}", self.x, self.y)
        } else {
            write!(f, "({},{})", self.x, self.y)
        }
    }
}

/// Why a hex number did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a hex number: expected four digits XXYY, such as 1418")]
pub struct HexParseError(pub String);

impl FromStr for Hex {
    type Err = HexParseError;
    fn from_str(s: &str) -> Result<Hex, HexParseError> {
        let t = s.trim();
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(HexParseError(s.to_string()));
        }
        let x: i16 = t[..2].parse().map_err(|_| HexParseError(s.to_string()))?;
        let y: i16 = t[2..].parse().map_err(|_| HexParseError(s.to_string()))?;
        Ok(Hex::new(x, y))
    }
}

impl serde::Serialize for Hex {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().unwrap()
    }

    #[test]
    fn each_hexside_lies_between_its_two_corners_midway_to_the_neighbour() {
        for p in [Parity::Even, Parity::Odd] {
            for h in [h("0505"), h("0606")] {
                let (cx, cy) = h.centre_in(p);
                for (x, y) in CORNERS {
                    assert!(((x * x + y * y).sqrt() - CIRCUMRADIUS).abs() < 1e-12);
                }
                for d in Dir::ALL {
                    let (i, j) = d.corners();
                    let (nx, ny) = h.neighbours_in(p)[d.index()].centre_in(p);
                    let mid = (
                        cx + (CORNERS[i].0 + CORNERS[j].0) / 2.0,
                        cy + (CORNERS[i].1 + CORNERS[j].1) / 2.0,
                    );
                    let want = ((cx + nx) / 2.0, (cy + ny) / 2.0);
                    assert!(
                        (mid.0 - want.0).abs() < 1e-9 && (mid.1 - want.1).abs() < 1e-9,
                        "{p:?} {h} {d:?}: {mid:?} vs {want:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn neighbours_follow_the_rules_notes() {
        // x odd: (x, y-1) (x, y+1) (x-1, y-1) (x-1, y) (x+1, y-1) (x+1, y)
        let mut n = h("2315").neighbours().to_vec();
        n.sort();
        let mut want = vec![
            h("2314"),
            h("2316"),
            h("2214"),
            h("2215"),
            h("2414"),
            h("2415"),
        ];
        want.sort();
        assert_eq!(n, want);
        // x even: (x, y-1) (x, y+1) (x-1, y) (x-1, y+1) (x+1, y) (x+1, y+1)
        let mut n = h("2210").neighbours().to_vec();
        n.sort();
        let mut want = vec![
            h("2209"),
            h("2211"),
            h("2110"),
            h("2111"),
            h("2310"),
            h("2311"),
        ];
        want.sort();
        assert_eq!(n, want);
    }

    #[test]
    fn neighbour_relation_is_symmetric_and_at_distance_one() {
        for x in 1..10 {
            for y in 1..10 {
                let a = Hex::new(x, y);
                for d in Dir::ALL {
                    let b = a.neighbour(d);
                    assert_eq!(b.neighbour(d.opposite()), a);
                    assert_eq!(a.distance(b), 1);
                    assert_eq!(a.direction_to(b), Some(d));
                }
            }
        }
    }

    #[test]
    fn distance_matches_breadth_first_search() {
        let start = Hex::new(5, 5);
        let mut dist = std::collections::HashMap::new();
        dist.insert(start, 0u32);
        let mut frontier = vec![start];
        for k in 1..6 {
            let mut next = vec![];
            for &f in &frontier {
                for n in f.neighbours() {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                        e.insert(k);
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        for (hx, d) in dist {
            assert_eq!(start.distance(hx), d, "{hx}");
        }
    }

    #[test]
    fn cube_round_trip() {
        for x in 0..12 {
            for y in 0..12 {
                let a = Hex::new(x, y);
                let (q, r, s) = a.cube();
                assert_eq!(q + r + s, 0);
                assert_eq!(Hex::from_cube(q, r), a);
            }
        }
    }

    #[test]
    fn parse_and_display() {
        assert_eq!(h("0131"), Hex::new(1, 31));
        assert_eq!(Hex::new(1, 31).to_string(), "0131");
        assert!("131".parse::<Hex>().is_err());
        assert!("ab12".parse::<Hex>().is_err());
        assert!("".parse::<Hex>().is_err());
    }

    #[test]
    fn start_lines_are_continuous() {
        for line in [
            &["0529", "0429", "0330", "0230", "0131"][..],
            &["2312", "2311", "2210"],
        ] {
            for w in line.windows(2) {
                assert_eq!(h(w[0]).distance(h(w[1])), 1, "{w:?}");
            }
        }
    }

    #[test]
    fn odd_parity_shifts_the_odd_rows() {
        let p = Parity::Odd;
        // x odd (shifted): (x, y-1) (x, y+1) (x-1, y) (x-1, y+1) (x+1, y) (x+1, y+1)
        let mut n = h("2315").neighbours_in(p).to_vec();
        n.sort();
        let mut want = vec![
            h("2314"),
            h("2316"),
            h("2215"),
            h("2216"),
            h("2415"),
            h("2416"),
        ];
        want.sort();
        assert_eq!(n, want);
        // x even (not shifted): (x, y-1) (x, y+1) (x-1, y-1) (x-1, y) (x+1, y-1) (x+1, y)
        let mut n = h("2210").neighbours_in(p).to_vec();
        n.sort();
        let mut want = vec![
            h("2209"),
            h("2211"),
            h("2109"),
            h("2110"),
            h("2309"),
            h("2310"),
        ];
        want.sort();
        assert_eq!(n, want);
        // Drawn, an odd row lies half a hex west of the even rows.
        assert!(h("0101").centre_in(p).0 < h("0201").centre_in(p).0);
        assert!(h("0101").centre().0 > h("0201").centre().0);
    }

    #[test]
    fn odd_parity_neighbours_distances_and_lines_agree() {
        let p = Parity::Odd;
        for x in 0..12 {
            for y in 0..12 {
                let a = Hex::new(x, y);
                for d in Dir::ALL {
                    let b = a.neighbour_in(d, p);
                    assert_eq!(b.neighbour_in(d.opposite(), p), a);
                    assert_eq!(a.distance_in(b, p), 1);
                    assert_eq!(a.direction_to_in(b, p), Some(d));
                    let (ca, cb) = (a.centre_in(p), b.centre_in(p));
                    let len = ((ca.0 - cb.0).powi(2) + (ca.1 - cb.1).powi(2)).sqrt();
                    assert!((len - 1.0).abs() < 1e-9, "{a} {b}");
                }
                let (q, r, s) = a.cube_in(p);
                assert_eq!(q + r + s, 0);
                assert_eq!(Hex::from_cube_in(q, r, p), a);
            }
        }
        // Distance equals breadth-first search over the odd-parity neighbours.
        for start in [Hex::new(5, 5), Hex::new(6, 5)] {
            let mut dist = std::collections::HashMap::new();
            dist.insert(start, 0u32);
            let mut frontier = vec![start];
            for k in 1..7 {
                let mut next = vec![];
                for &f in &frontier {
                    for n in f.neighbours_in(p) {
                        if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                            e.insert(k);
                            next.push(n);
                        }
                    }
                }
                frontier = next;
            }
            for (hx, d) in dist {
                assert_eq!(start.distance_in(hx, p), d, "{start} {hx}");
            }
        }
        // Lines of sight pass through hexes adjacent in turn.
        let a = Hex::new(5, 5);
        for x in 1..11 {
            for y in 1..11 {
                let b = Hex::new(x, y);
                let mut prev = a;
                for s in line_of_sight_in(a, b, p) {
                    if let LosStep::Hex(m) = s {
                        assert_eq!(prev.distance_in(m, p), 1, "{a} -> {b}");
                        prev = m;
                    } else if let LosStep::Hexside(m, n) = s {
                        assert_eq!(m.distance_in(n, p), 1, "{a} -> {b}");
                        prev = m;
                    }
                }
            }
        }
    }
}
