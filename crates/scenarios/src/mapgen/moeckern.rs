//! Rebuilds the ground of Möckern, 16 October 1813, for the hex-miniatures rules' table: 16 rows
//! of 15 hexes of 200 m ([2.1.1]), from `data/moeckern-geography.toml`.
//!
//! Made the way the Battle of Nations map is ([`super`]): the ground is described in kilometres
//! around the Möckern village core (rivers, the Rietzschke, roads and lanes, the escarpments of
//! the heights and the Elster terrace, the village walls, areas of terrain, places in latitude
//! and longitude), each item with its source, and rasterised onto the hexes with [`super::geom`]
//! and [`super::water_hexsides`]. `docs/moeckern-map.md` gives the sources, the window and
//! what is evidence and what reconstruction.
//!
//! **Orientation and window.** The table's top edge faces ground bearing 300 degrees (west-north-
//! west), the direction of the terrace villages' chain (Gohlis - Möckern - Wahren - Lützschena)
//! and of Yorck's approach from Schkeuditz: the Prussians come in over the top edge and from the
//! top right (Lindenthal), Marmont's line runs across the lower middle from Möckern on the left to
//! Klein-Wiederitzsch on the right, and the Elster runs up the left (west) side of the table
//! with its meadows beyond it. A hex is 200 m across its flats, rows (`XX`, top to bottom) are
//! 173 m apart; `YY` grows from right to left as on every `hexmap` map. The table covers 3.0 km
//! across by 2.8 km; its middle lies 0.8 km to the right of and 0.2 km above the village core.
//!
//! **Projection.** A latitude and longitude becomes km east and north of the core
//! (equirectangular, true scale at 51.369 N), then is turned so that bearing 300 is up.
//!
//! **Rasterising**, as for Leipzig: a hex takes the terrain of the areas holding its centre
//! (walled > village > redoubt > woods > meadow > slope > clear); rivers, streams, escarpments
//! (slope hexsides) and walls run along every hexside whose two centres the line separates;
//! roads and lanes are chains of adjacent hexes with a road or lane hexside between each two; a
//! road or lane over the river crosses on a bridge. Slope-terrain hexes also carry the map's
//! slope-hex flag, and so does the hex at the top of each hexside of a bank's escarpment (the
//! Elster terrace): clear ground there becomes the slope terrain ([8.4.6], [18]).
//!
//! ```
//! let map = scenarios::mapgen::moeckern::generate();
//! assert_eq!((map.width(), map.height()), (16, 15));
//! let core = scenarios::mapgen::moeckern::hex_at(51.369, 12.336);
//! assert_eq!(map.place_at(core), Some("Möckern"));
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use hexmap::{
    Dir, FeatureKind, FeatureStyle, Hex, Hexside, Legend, Map, Parity, Place, Terrain, TerrainKind,
    CORNERS,
};
use serde::Deserialize;

use super::geom::{self, Pt};
use super::Side;

/// The geography source text (`data/moeckern-geography.toml`).
pub const GEOGRAPHY: &str = include_str!("../../data/moeckern-geography.toml");
/// The committed output (`maps/moeckern.toml`).
pub const COMMITTED: &str = include_str!("../../maps/moeckern.toml");
/// The battalion order of battle (`data/moeckern-oob.toml`), read by the tests and the
/// scenario to come.
pub const OOB: &str = include_str!("../../data/moeckern-oob.toml");

/// Rows `XX` of the table (top to bottom).
pub const ROWS: i16 = 16;
/// Hexes per row `YY` (right to left).
pub const PER_ROW: i16 = 15;
/// Kilometres across a hex ([2.1.1]: 200 m).
pub const KM_PER_HEX: f64 = 0.2;
/// Latitude of the frame's origin, the Möckern village core.
pub const LAT0: f64 = 51.369;
/// Longitude of the frame's origin.
pub const LON0: f64 = 12.336;
/// Kilometres per degree of latitude (a sphere of radius 6371 km).
pub const KM_PER_DEG: f64 = 111.195;
/// The ground bearing (degrees clockwise from north) the table's top edge faces.
pub const UP_BEARING: f64 = 300.0;
/// Where the table's middle lies, km to the right of the core (across the table).
pub const MID_RIGHT: f64 = 0.8;
/// Where the table's middle lies, km above the core (up the table).
pub const MID_UP: f64 = 0.2;
/// Grid `YY'` of the table's middle.
const U_MID: f64 = (1.0 + PER_ROW as f64 + 0.5) / 2.0;
/// Grid `XX` of the table's middle.
const V_MID: f64 = (1.0 + ROWS as f64) / 2.0;

/// Km east and north of the core of a latitude and longitude.
pub fn ground(lat: f64, lon: f64) -> Pt {
    let k = KM_PER_DEG * LAT0.to_radians().cos();
    [(lon - LON0) * k, (lat - LAT0) * KM_PER_DEG]
}

/// The table's `(right, up)` in km of a ground point.
pub fn table(p: Pt) -> (f64, f64) {
    let (s, c) = UP_BEARING.to_radians().sin_cos();
    (p[0] * c - p[1] * s, p[0] * s + p[1] * c)
}

/// Grid coordinates `(YY', XX)` of a ground point (`YY' = YY + 0.5` on even rows).
pub fn project(p: Pt) -> (f64, f64) {
    let (r, t) = table(p);
    (
        U_MID - (r - MID_RIGHT) / KM_PER_HEX,
        V_MID - (t - MID_UP) / (KM_PER_HEX * geom::ROW),
    )
}

/// The ground point (km east, north of the core) of a hex centre: the inverse of [`project`].
pub fn ground_of(h: Hex) -> Pt {
    let (u, v) = geom::hex_to_grid(h);
    let r = MID_RIGHT + (U_MID - u) * KM_PER_HEX;
    let t = MID_UP + (V_MID - v) * KM_PER_HEX * geom::ROW;
    let (s, c) = UP_BEARING.to_radians().sin_cos();
    [r * c + t * s, -r * s + t * c]
}

/// Grid coordinates carried into the plane of [`geom`]'s functions.
fn frame(u: f64, v: f64) -> Pt {
    [
        geom::KM_PER_YY * (geom::YY_AT_MARKT - u),
        geom::KM_PER_XX * (geom::XX_AT_MARKT - v),
    ]
}

/// A ground point carried into the plane of [`geom`]'s functions.
fn to_frame(p: Pt) -> Pt {
    let (u, v) = project(p);
    frame(u, v)
}

fn frame_line(points: &[Pt]) -> Vec<Pt> {
    points.iter().map(|&p| to_frame(p)).collect()
}

/// The hex (possibly off the table) holding a ground point.
pub fn hex_at_ground(p: Pt) -> Hex {
    let q = to_frame(p);
    geom::hex_at_km(q[0], q[1])
}

/// The hex (possibly off the table) holding a latitude and longitude.
pub fn hex_at(lat: f64, lon: f64) -> Hex {
    hex_at_ground(ground(lat, lon))
}

/// The geography: every feature on the ground around Möckern, each with its source.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Geography {
    /// Rivers (crossed only at bridges).
    #[serde(default, rename = "river")]
    pub rivers: Vec<LineDef>,
    /// Streams (crossed anywhere, disordering).
    #[serde(default, rename = "stream")]
    pub streams: Vec<LineDef>,
    /// Roads and lanes.
    #[serde(default, rename = "road")]
    pub roads: Vec<RoadDef>,
    /// Escarpments: slope hexsides along a line.
    #[serde(default, rename = "escarpment")]
    pub escarpments: Vec<LineDef>,
    /// Walls: wall hexsides round the landward edge of an area.
    #[serde(default, rename = "wall")]
    pub walls: Vec<WallDef>,
    /// Banks: the hexes at the top of an escarpment that carry the slope symbol.
    #[serde(default, rename = "bank")]
    pub banks: Vec<BankDef>,
    /// Areas of hex terrain.
    #[serde(default, rename = "area")]
    pub areas: Vec<AreaDef>,
    /// Named places.
    #[serde(default, rename = "place")]
    pub places: Vec<PlaceDef>,
}

/// A line on the ground, km east and north of the core, as the battlefield's data writes it
/// (`rises`: a stream that rises on the table).
pub type LineDef = super::data::Line;

/// A wall round an area's edge: on every hexside between a hex of the area and one outside
/// it, except across a river and towards meadow (the river side needs no wall).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallDef {
    /// Name.
    pub name: String,
    /// The area (an `area` name) it encloses.
    pub area: String,
    /// Source.
    pub source: String,
}

/// A bank: the hexes just above an escarpment, on its `top` side, are slope hexes ([8.4.6]: a
/// slope hexside is the lower edge of a slope hex; [18]: a slope hex halves movement). Each
/// carries the slope symbol; one of clear ground becomes the slope terrain, one of another
/// kind (the walled village on the bank) keeps its kind.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BankDef {
    /// Name.
    pub name: String,
    /// The escarpment (an `escarpment` name) whose top it is.
    pub escarpment: String,
    /// Which side of the escarpment's line, walking its points in order, is the top: `left`
    /// or `right`.
    pub top: String,
    /// Source.
    pub source: String,
}

/// A road or lane.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoadDef {
    /// Name.
    pub name: String,
    /// `road` or `lane` (a legend feature id).
    pub kind: String,
    /// Source.
    pub source: String,
    /// The course.
    pub points: Vec<Pt>,
}

/// An area of hex terrain, as the battlefield's data writes it (its `terrain` an id of this
/// table's legend, [`terrain`]).
pub type AreaDef = super::data::Area;

/// A named place, in latitude and longitude.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceDef {
    /// Name as printed.
    pub name: String,
    /// `[latitude, longitude]`.
    pub at: [f64; 2],
    /// Source.
    pub source: String,
}

/// Parses the geography data file.
pub fn geography() -> Geography {
    toml::from_str(GEOGRAPHY).unwrap_or_else(|e| panic!("data/moeckern-geography.toml: {e}"))
}

/// Terrain ids of the map's legend: the hexes of the Terrain Effects Table [18].
pub mod terrain {
    /// Clear ground: [18] clear hex.
    pub const CLEAR: &str = "clear";
    /// Woods: [18] forest hex ([3.1.8]).
    pub const WOODS: &str = "woods";
    /// Rough ground: [18] rough hex ([3.1.7]); in the legend, not on this table.
    pub const ROUGH: &str = "rough";
    /// Flood meadow: the research's marsh or flood terrain (not in [18]; the rules crate
    /// decides its effect).
    pub const MEADOW: &str = "meadow";
    /// The face of a height: [18] slope hex.
    pub const SLOPE: &str = "slope";
    /// A village: [18] town hex ([3.1.4]).
    pub const VILLAGE: &str = "village";
    /// Walled buildings, a loopholed village or manor: [18] fortified hex (blocks sight).
    pub const WALLED: &str = "walled";
    /// A redoubt ([3.1.5]): [18]'s second fortified row (no effect on sight).
    pub const REDOUBT: &str = "redoubt";
}

/// Hexside feature ids of the map's legend.
pub mod feature {
    /// A road hexside ([3.1.6], [8.4.2]).
    pub const ROAD: &str = "road";
    /// A lane: a trail hexside ([8.4.3]).
    pub const LANE: &str = "lane";
    /// A river hexside, crossed only at a bridge ([3.1.3]).
    pub const RIVER: &str = "river";
    /// A stream hexside ([3.1.3.4], [8.4.5]).
    pub const STREAM: &str = "stream";
    /// A bridge over a river hexside.
    pub const BRIDGE: &str = "bridge";
    /// A slope hexside at the foot of a height or the terrace edge ([8.4.6]).
    pub const SLOPE: &str = "slope";
    /// A loopholed wall along a village's edge.
    pub const WALL: &str = "wall";
}

/// The legend: the hex-miniatures terrain kinds and hexside features as data.
pub fn legend() -> Legend {
    use FeatureStyle::*;
    Legend {
        terrain: vec![
            TerrainKind::new(terrain::CLEAR, "Clear", '.', "#F4EFD9", None),
            TerrainKind::new(terrain::WOODS, "Woods", 'f', "#9FD3B5", Some("trees")),
            TerrainKind::new(terrain::ROUGH, "Rough", 'r', "#E2CCA3", Some("hatching")),
            TerrainKind::new(
                terrain::MEADOW,
                "Flood meadow",
                'm',
                "#CBE6EE",
                Some("tufts"),
            ),
            TerrainKind::new(terrain::SLOPE, "Slope", 's', "#E6D5B0", Some("hatching")),
            TerrainKind::new(
                terrain::VILLAGE,
                "Village",
                't',
                "#E9D6CF",
                Some("buildings"),
            ),
            TerrainKind::new(
                terrain::WALLED,
                "Walled buildings",
                'w',
                "#D7A9A0",
                Some("buildings"),
            ),
            TerrainKind::new(terrain::REDOUBT, "Redoubt", 'R', "#C9B27C", None),
        ],
        features: vec![
            FeatureKind::new(feature::ROAD, "Road", "#9C5A1A", 0.1, None, Route),
            FeatureKind::new(
                feature::LANE,
                "Lane",
                "#9C5A1A",
                0.055,
                Some("0.12 0.07"),
                Route,
            ),
            FeatureKind::new(feature::RIVER, "River", "#0072B2", 0.15, None, Edge),
            FeatureKind::new(feature::STREAM, "Stream", "#3A9AD9", 0.07, None, Edge),
            FeatureKind::new(feature::BRIDGE, "Bridge", "#1F1F1F", 0.19, None, Crossing),
            FeatureKind::new(feature::SLOPE, "Slope", "#6B4423", 0.035, None, Hachured),
            FeatureKind::new(feature::WALL, "Wall", "#5A1A1A", 0.06, None, Edge),
        ],
    }
}

/// Area precedence where areas overlap: the first wins.
const PRECEDENCE: [&str; 6] = [
    terrain::WALLED,
    terrain::VILLAGE,
    terrain::REDOUBT,
    terrain::WOODS,
    terrain::MEADOW,
    terrain::SLOPE,
];

/// A line as rasterised: its name and its hexsides (both hexes on the table).
#[derive(Clone, Debug)]
pub struct Course {
    /// Name.
    pub name: String,
    /// Its hexsides.
    pub hexsides: BTreeSet<Side>,
}

/// A road or lane as rasterised.
#[derive(Clone, Debug)]
pub struct RoadCourse {
    /// Name.
    pub name: String,
    /// `road` or `lane`.
    pub kind: String,
    /// The chain of adjacent hexes, off-table hexes at the ends included.
    pub hexes: Vec<Hex>,
}

/// A place as placed.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Name.
    pub name: String,
    /// The hex the projection puts it in (possibly off the table).
    pub projected: Hex,
    /// The hex its name is printed in (`None` off the table).
    pub hex: Option<Hex>,
}

/// Everything the generator made: the map and the per-feature detail behind it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The map.
    pub map: Map,
    /// Rivers.
    pub rivers: Vec<Course>,
    /// Streams.
    pub streams: Vec<Course>,
    /// Escarpments.
    pub escarpments: Vec<Course>,
    /// Walls.
    pub walls: Vec<Course>,
    /// Banks: the slope hexes along the top of an escarpment, by bank.
    pub banks: Vec<(String, BTreeSet<Hex>)>,
    /// Roads and lanes.
    pub roads: Vec<RoadCourse>,
    /// Places.
    pub places: Vec<Placed>,
    /// The parsed geography.
    pub geography: Geography,
}

fn t(map: &Map, id: &str) -> Terrain {
    map.legend()
        .terrain_index(id)
        .unwrap_or_else(|| panic!("legend has no terrain '{id}'"))
}

fn f(map: &Map, id: &str) -> Hexside {
    map.legend()
        .feature(id)
        .unwrap_or_else(|| panic!("legend has no feature '{id}'"))
}

fn course(map: &Map, l: &LineDef) -> Course {
    Course {
        name: l.name.clone(),
        hexsides: super::water_hexsides(map, &frame_line(&l.points)),
    }
}

fn lay(map: &mut Map, c: &Course, flag: Hexside) {
    for &(a, b) in &c.hexsides {
        map.add_hexside(a, a.direction_to(b).expect("adjacent"), flag);
    }
}

/// The Möckern table, rebuilt from the data file.
pub fn generate() -> Map {
    generate_detailed().map
}

/// The map file text (`maps/moeckern.toml`) of the generated map, with a header comment.
pub fn map_text() -> String {
    let map = generate();
    format!(
        "# Möckern, 16 October 1813, for the hex-miniatures rules (200 m a hex): a reconstruction.\n\
         # GENERATED by `cargo run -p scenarios --bin gen-moeckern-map` from\n\
         # data/moeckern-geography.toml; do not edit by hand. How it is made: docs/moeckern-map.md.\n{}",
        toml::to_string_pretty(&map.to_file()).expect("a map file always serialises")
    )
}

/// The map with the per-feature detail behind it.
pub fn generate_detailed() -> Generated {
    let geo = geography();
    let mut map = Map::with_legend("moeckern", ROWS, PER_ROW, legend(), Parity::Even);
    map.title = "Möckern, 16 October 1813 (reconstruction; top edge faces west-north-west)".into();

    // hex terrain: the first kind of PRECEDENCE among the areas holding the centre
    let areas: Vec<(usize, Vec<Pt>)> = geo
        .areas
        .iter()
        .map(|a| {
            let rank = PRECEDENCE
                .iter()
                .position(|&k| k == a.terrain)
                .unwrap_or_else(|| panic!("area '{}': unknown terrain '{}'", a.name, a.terrain));
            (rank, frame_line(&a.polygon))
        })
        .collect();
    let hexes: Vec<Hex> = map.hexes().collect();
    for &h in &hexes {
        let (u, v) = geom::hex_to_grid(h);
        let c = frame(u, v);
        let best = areas
            .iter()
            .filter(|(_, poly)| geom::inside(c, poly))
            .map(|(r, _)| *r)
            .min();
        let id = best.map_or(terrain::CLEAR, |r| PRECEDENCE[r]);
        let tt = t(&map, id);
        map.set_terrain(h, tt);
        if id == terrain::SLOPE {
            map.set_slope_hex(h, true);
        }
    }

    // lines along hexsides
    let rivers: Vec<Course> = geo.rivers.iter().map(|l| course(&map, l)).collect();
    let streams: Vec<Course> = geo.streams.iter().map(|l| course(&map, l)).collect();
    let escarpments: Vec<Course> = geo.escarpments.iter().map(|l| course(&map, l)).collect();
    let (river, stream, slope, wall, bridge) = (
        f(&map, feature::RIVER),
        f(&map, feature::STREAM),
        f(&map, feature::SLOPE),
        f(&map, feature::WALL),
        f(&map, feature::BRIDGE),
    );
    for c in &rivers {
        lay(&mut map, c, river);
    }
    for c in &streams {
        lay(&mut map, c, stream);
    }
    for c in &escarpments {
        lay(&mut map, c, slope);
    }
    // banks: the hex above each hexside of the escarpment is a slope hex ([8.4.6], [18])
    let clear = t(&map, terrain::CLEAR);
    let slope_terrain = t(&map, terrain::SLOPE);
    let mut banks = Vec::new();
    for b in &geo.banks {
        let (i, line) = geo
            .escarpments
            .iter()
            .enumerate()
            .find(|(_, l)| l.name == b.escarpment)
            .unwrap_or_else(|| panic!("bank '{}': no escarpment '{}'", b.name, b.escarpment));
        let right = match b.top.as_str() {
            "right" => true,
            "left" => false,
            other => panic!("bank '{}': top '{other}' is not left or right", b.name),
        };
        let mut tops = BTreeSet::new();
        for &(x, y) in &escarpments[i].hexsides {
            let top = if right_of(&line.points, ground_of(x), ground_of(y)) == right {
                x
            } else {
                y
            };
            tops.insert(top);
        }
        for &h in &tops {
            map.set_slope_hex(h, true);
            if map.terrain(h) == clear {
                map.set_terrain(h, slope_terrain);
            }
        }
        banks.push((b.name.clone(), tops));
    }
    let meadow = t(&map, terrain::MEADOW);
    let mut walls = Vec::new();
    for w in &geo.walls {
        let a = geo
            .areas
            .iter()
            .find(|a| a.name == w.area)
            .unwrap_or_else(|| panic!("wall '{}': no area '{}'", w.name, w.area));
        let poly = frame_line(&a.polygon);
        let within = |h: Hex| {
            let (u, v) = geom::hex_to_grid(h);
            geom::inside(frame(u, v), &poly)
        };
        let mut hexsides = BTreeSet::new();
        for &h in hexes.iter().filter(|&&h| within(h)) {
            for d in Dir::ALL {
                let n = h.neighbour(d);
                if !map.contains(n)
                    || within(n)
                    || map.terrain(n) == meadow
                    || map.hexside(h, d).has(river)
                {
                    continue;
                }
                hexsides.insert(super::side(h, n));
            }
        }
        let c = Course {
            name: w.name.clone(),
            hexsides,
        };
        lay(&mut map, &c, wall);
        walls.push(c);
    }

    // roads and lanes; over a river on a bridge
    let mut roads = Vec::new();
    for r in &geo.roads {
        let flag = f(&map, &r.kind);
        let chain = geom::trace(&frame_line(&r.points));
        for w in chain.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (on, d) = if map.contains(a) {
                (a, a.direction_to(b).expect("a chain is adjacent"))
            } else if map.contains(b) {
                (b, b.direction_to(a).expect("a chain is adjacent"))
            } else {
                continue;
            };
            map.add_hexside(on, d, flag);
            if map.hexside(on, d).has(river) {
                map.add_hexside(on, d, bridge);
            }
        }
        roads.push(RoadCourse {
            name: r.name.clone(),
            kind: r.kind.clone(),
            hexes: chain,
        });
    }

    // places: the projected hex; one name a hex
    let mut taken: BTreeMap<Hex, String> = BTreeMap::new();
    let mut places = Vec::new();
    for p in &geo.places {
        let projected = hex_at(p.at[0], p.at[1]);
        let hex = map.contains(projected).then_some(projected);
        if let Some(h) = hex {
            if let Some(other) = taken.insert(h, p.name.clone()) {
                panic!("places '{other}' and '{}' fall in one hex {h}", p.name);
            }
        }
        places.push(Placed {
            name: p.name.clone(),
            projected,
            hex,
        });
    }
    map.places = places
        .iter()
        .filter_map(|p| {
            p.hex.map(|hex| Place {
                name: p.name.clone(),
                hex,
            })
        })
        .collect();

    Generated {
        map,
        rivers,
        streams,
        escarpments,
        walls,
        banks,
        roads,
        places,
        geography: geo,
    }
}

/// Of two points either side of a line (ground km), whether `a` lies to the right of it,
/// walking its points in order: judged against the segment nearest the two points' middle.
fn right_of(line: &[Pt], a: Pt, b: Pt) -> bool {
    let m = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let dist = |p: Pt, q: Pt| {
        let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
        let l = dx * dx + dy * dy;
        let t = if l == 0.0 {
            0.0
        } else {
            (((m[0] - p[0]) * dx + (m[1] - p[1]) * dy) / l).clamp(0.0, 1.0)
        };
        let (x, y) = (p[0] + t * dx - m[0], p[1] + t * dy - m[1]);
        x * x + y * y
    };
    let (p, q) = line
        .windows(2)
        .map(|w| (w[0], w[1]))
        .min_by(|s, t| dist(s.0, s.1).total_cmp(&dist(t.0, t.1)))
        .expect("a line has two points");
    let cross = (q[0] - p[0]) * (a[1] - p[1]) - (q[1] - p[1]) * (a[0] - p[0]);
    cross < 0.0
}

// ---------------------------------------------------------------------------------------------
// The review drawing.

const PX: f64 = 60.0; // pixels per hex width

/// Pixel position of grid coordinates `(YY', XX)`.
fn px(u: f64, v: f64) -> (f64, f64) {
    ((PER_ROW as f64 + 1.5 - u) * PX, (v * geom::ROW + 0.2) * PX)
}

fn px_ground(p: Pt) -> (f64, f64) {
    let (u, v) = project(p);
    px(u, v)
}

fn corners_px(h: Hex) -> [(f64, f64); 6] {
    let (u, v) = geom::hex_to_grid(h);
    let (cx, cy) = px(u, v);
    CORNERS.map(|(x, y)| (cx + x * PX, cy + y * PX))
}

fn polyline(s: &mut String, pts: &[Pt], stroke: &str, close: bool) {
    let p: Vec<String> = pts
        .iter()
        .map(|&q| {
            let (a, b) = px_ground(q);
            format!("{a:.1},{b:.1}")
        })
        .collect();
    let tag = if close { "polygon" } else { "polyline" };
    let _ = writeln!(
        s,
        r#"<{tag} points="{}" fill="none" stroke="{stroke}" stroke-width="1" stroke-dasharray="4,3"/>"#,
        p.join(" ")
    );
}

/// An SVG drawing of the generated map over its source geography, for review: hexes with their
/// terrain and number, hexside features, and, dashed, the source lines and outlines with the
/// places as dots.
pub fn preview_svg() -> String {
    let g = generate_detailed();
    let map = &g.map;
    let legend = map.legend().clone();
    let mut s = String::new();
    let (w, h) = px(-0.5, ROWS as f64 + 1.0);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for hx in map.hexes() {
        let pts: Vec<String> = corners_px(hx)
            .iter()
            .map(|(a, b)| format!("{a:.1},{b:.1}"))
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{}" stroke="#aaa" stroke-width="0.6"/>"##,
            pts.join(" "),
            map.terrain_kind(hx).fill
        );
        let (u, v) = geom::hex_to_grid(hx);
        let (a, b) = px(u, v);
        let _ = writeln!(
            s,
            r##"<text x="{a:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#888">{hx} {}</text>"##,
            b - 18.0,
            map.terrain_kind(hx).code
        );
    }
    for hx in map.hexes() {
        for d in Dir::ALL {
            let n = hx.neighbour(d);
            if map.contains(n) && n < hx {
                continue;
            }
            let sd = map.hexside(hx, d);
            let c = corners_px(hx);
            let (i, j) = d.corners();
            let (p, q) = (c[i], c[j]);
            for (k, fk) in legend.features.iter().enumerate() {
                if !sd.has(Hexside::bit(k)) {
                    continue;
                }
                let width = fk.width * PX;
                let dash = if fk.dash.is_some() { "7,4" } else { "none" };
                let (a, b) = match fk.style {
                    FeatureStyle::Route => {
                        let (u, v) = geom::hex_to_grid(hx);
                        let (x, y) = geom::hex_to_grid(n);
                        (px(u, v), px(x, y))
                    }
                    FeatureStyle::Crossing => {
                        let m = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                        let (dx, dy) = ((q.0 - p.0) * 0.3, (q.1 - p.1) * 0.3);
                        ((m.0 - dy, m.1 + dx), (m.0 + dy, m.1 - dx))
                    }
                    FeatureStyle::Hachured => {
                        let _ = writeln!(
                            s,
                            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="6" stroke-dasharray="2,4"/>"#,
                            p.0, p.1, q.0, q.1, fk.stroke
                        );
                        (p, q)
                    }
                    _ => (p, q),
                };
                let _ = writeln!(
                    s,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="{width:.1}" stroke-dasharray="{dash}"/>"#,
                    a.0, a.1, b.0, b.1, fk.stroke
                );
            }
        }
    }
    let geo = &g.geography;
    for l in geo.rivers.iter().chain(&geo.streams) {
        polyline(&mut s, &l.points, "#002080", false);
    }
    for l in &geo.escarpments {
        polyline(&mut s, &l.points, "#503010", false);
    }
    for r in &geo.roads {
        polyline(&mut s, &r.points, "#a05000", false);
    }
    for a in &geo.areas {
        polyline(&mut s, &a.polygon, "#404040", true);
    }
    for p in &geo.places {
        let (a, b) = px_ground(ground(p.at[0], p.at[1]));
        let _ = writeln!(
            s,
            r#"<circle cx="{a:.1}" cy="{b:.1}" r="3" fill="black"/><text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
            a + 4.0,
            b + 4.0,
            p.name
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_map_is_the_generated_one() {
        if map_text() != COMMITTED {
            panic!(
                "maps/moeckern.toml is out of date with its data file: run \
                 `cargo run -p scenarios --bin gen-moeckern-map` and review the diff"
            );
        }
    }

    #[test]
    fn generated_map_round_trips_through_its_file() {
        let m = generate();
        assert_eq!(Map::from_toml(&m.to_toml()).unwrap(), m);
    }

    #[test]
    fn the_projection_inverts() {
        for h in [
            Hex::new(1, 1),
            Hex::new(8, 8),
            Hex::new(16, 15),
            Hex::new(3, 12),
        ] {
            let p = ground_of(h);
            assert_eq!(hex_at_ground(p), h);
            let (u, v) = project(p);
            let (a, b) = geom::hex_to_grid(h);
            assert!((u - a).abs() < 1e-9 && (v - b).abs() < 1e-9);
        }
    }

    #[test]
    fn a_hex_is_200_m_across() {
        let (a, b) = (ground_of(Hex::new(5, 5)), ground_of(Hex::new(5, 6)));
        let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
        assert!((d - 0.2).abs() < 1e-9, "{d}");
        let (c, e) = (ground_of(Hex::new(5, 5)), ground_of(Hex::new(7, 5)));
        let d = ((c[0] - e[0]).powi(2) + (c[1] - e[1]).powi(2)).sqrt();
        assert!((d - 0.4 * geom::ROW).abs() < 1e-9, "{d}");
    }

    #[test]
    fn the_terrace_bank_is_a_line_of_slope_hexes_above_the_terrace_edge() {
        // [8.4.6], [18]: the hex above each hexside of the Elster terrace edge carries the
        // slope symbol; clear ground there is the slope terrain, Wahren and the walled village keep their
        // kinds; no meadow is on the bank
        let g = generate_detailed();
        let map = &g.map;
        let edge = g
            .escarpments
            .iter()
            .find(|c| c.name == "Elster terrace edge")
            .expect("the terrace edge");
        let (_, bank) = g
            .banks
            .iter()
            .find(|(n, _)| n == "Elster terrace bank")
            .expect("the bank");
        let meadow = t(map, terrain::MEADOW);
        for &(a, b) in &edge.hexsides {
            assert!(
                bank.contains(&a) != bank.contains(&b),
                "one of {a} and {b} is on the bank"
            );
        }
        for &h in bank {
            assert!(map.is_slope_hex(h), "{h}");
            assert_ne!(map.terrain(h), meadow, "{h}");
            let id = &map.terrain_kind(h).id;
            assert!(
                ["slope", "walled", "village"].contains(&id.as_str()),
                "{h} is {id}"
            );
        }
        // Wahren and the terrace top beside it, and the walled village on the bank
        for h in ["0312", "0712", "0812", "0912", "1011", "1112", "1411"] {
            assert!(bank.contains(&h.parse().unwrap()), "{h}");
        }
        // the meadows and the manor below the bank are not on it
        for h in ["0313", "0813", "1012", "1113"] {
            assert!(!bank.contains(&h.parse().unwrap()), "{h}");
        }
    }

    #[test]
    fn every_item_names_its_source() {
        let g = geography();
        for w in &g.walls {
            assert!(!w.source.trim().is_empty(), "{}", w.name);
        }
        for l in g.rivers.iter().chain(&g.streams).chain(&g.escarpments) {
            assert!(!l.source.trim().is_empty(), "{}", l.name);
            assert!(l.points.len() >= 2, "{}", l.name);
        }
        for r in &g.roads {
            assert!(!r.source.trim().is_empty(), "{}", r.name);
            assert!(
                r.kind == feature::ROAD || r.kind == feature::LANE,
                "{}",
                r.name
            );
        }
        for a in &g.areas {
            assert!(!a.source.trim().is_empty(), "{}", a.name);
            assert!(a.polygon.len() >= 3, "{}", a.name);
        }
        for p in &g.places {
            assert!(!p.source.trim().is_empty(), "{}", p.name);
        }
    }
}
