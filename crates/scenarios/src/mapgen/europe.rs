//! Rebuilds the map of the strategic game of 1813 (central Europe, 42 rows x 50 hexes of 10 km)
//! from the geographic data in `data/central-europe-geography.toml`.
//!
//! No public source gives the printed sheet hex by hex, so this map is a reconstruction, made
//! the way the Battle of Nations map was ([`super`]): places, rivers, river crossings, passes,
//! mountains, the 1813 borders and the armistice line in latitude and longitude, each with its
//! source, rasterised onto the hexes by [`generate`]. `docs/central-europe-map.md` gives the
//! sources, the choice of scale (10 km a hex, the designer's, against the rules' 15 km) and what
//! is evidence and what reconstruction.
//!
//! **Projection.** Equirectangular about 51.4 N 13.9 E: a degree of latitude is 111.195 km, a
//! degree of longitude 111.195 x cos 51.4 = 69.40 km (true scale on the parallel of 51.4 N; 3 %
//! off at the map's north and south edges, a third of a hex over the whole height). A hex is
//! 10 km across its flats; rows run east-west (the `hexmap` convention), 8.66 km apart, `YY`
//! growing westward. 51.4 N 13.9 E lies at grid `(YY', XX) = (25.75, 21.5)`, the middle of the
//! sheet, which so covers about 10.33-17.47 E and 49.76-53.04 N: the edges the research note
//! reasons for (Gotha and Breslau on, Stettin and Kassel off, the Elbe leaving in the north-west,
//! Prague three hexes from the south edge).
//!
//! **Rasterising** reuses [`super::geom`] and [`super::water_hexsides`]: a projected point is
//! carried into the plane those functions work in (the Battle of Nations' kilometre frame, an
//! affine image of the same hex lattice that keeps which side of a line a point lies on), so the
//! same rules make the same kind of map:
//!
//! - a hex is mountain when its centre, or two of the six points midway to its corners, lie in
//!   a mountain area (the chart counts a hex with any mountains in it as mountain);
//! - a pass's road is traced as a chain of adjacent hexes; its mountain hexes become
//!   mountain-pass hexes, and the `pass` hexside feature joins them to each other and to the
//!   hex at either end, the pass-entry hexes of the chart;
//! - a place makes its hex city (`city`) or city-fortress (`fortress`) terrain; where two
//!   places fall in one hex, or a town's hex lies across the river from the town, the place is
//!   printed in the free neighbouring hex nearest it (on its bank);
//! - a river, a border or the armistice line runs along every hexside whose two centres it
//!   separates; a crossing bridges the river hexside of its town's hex nearest the town.
//!
//! ```
//! let map = scenarios::mapgen::europe::generate();
//! assert_eq!((map.width(), map.height()), (42, 50));
//! let leipzig = scenarios::mapgen::europe::hex_at(51.34, 12.37);
//! assert_eq!(map.place_at(leipzig), Some("Leipzig"));
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

/// The geography source text (`data/central-europe-geography.toml`).
pub const GEOGRAPHY: &str = include_str!("../../data/central-europe-geography.toml");
/// The committed output (`maps/central-europe.toml`).
pub const COMMITTED: &str = include_str!("../../maps/central-europe.toml");

/// Rows `XX` of the map (north to south).
pub const ROWS: i16 = 42;
/// Hexes per row `YY` (east to west).
pub const PER_ROW: i16 = 50;
/// Kilometres across a hex (between neighbouring centres).
pub const KM_PER_HEX: f64 = 10.0;
/// Latitude of the projection's centre and true-scale parallel.
pub const LAT0: f64 = 51.4;
/// Longitude of the projection's centre.
pub const LON0: f64 = 13.9;
/// Kilometres per degree of latitude (a sphere of radius 6371 km).
pub const KM_PER_DEG: f64 = 111.195;
/// Grid `YY'` of the projection's centre.
pub const YY_AT_CENTRE: f64 = 25.75;
/// Grid `XX` of the projection's centre.
pub const XX_AT_CENTRE: f64 = 21.5;

/// Kilometres per degree of longitude on the true-scale parallel.
fn km_per_deg_lon() -> f64 {
    KM_PER_DEG * LAT0.to_radians().cos()
}

/// Grid coordinates `(YY', XX)` of a latitude and longitude (`YY' = YY + 0.5` on even rows):
/// the projection.
pub fn project(lat: f64, lon: f64) -> (f64, f64) {
    let x = km_per_deg_lon() * (lon - LON0);
    let y = KM_PER_DEG * (lat - LAT0);
    (
        YY_AT_CENTRE - x / KM_PER_HEX,
        XX_AT_CENTRE - y / (KM_PER_HEX * geom::ROW),
    )
}

/// The latitude and longitude of a hex centre (the inverse of [`project`]).
pub fn lat_lon(h: Hex) -> (f64, f64) {
    let (u, v) = geom::hex_to_grid(h);
    let x = (YY_AT_CENTRE - u) * KM_PER_HEX;
    let y = (XX_AT_CENTRE - v) * KM_PER_HEX * geom::ROW;
    (LAT0 + y / KM_PER_DEG, LON0 + x / km_per_deg_lon())
}

/// Grid coordinates carried into the plane of [`geom`]'s functions.
fn frame(u: f64, v: f64) -> Pt {
    [
        geom::KM_PER_YY * (geom::YY_AT_MARKT - u),
        geom::KM_PER_XX * (geom::XX_AT_MARKT - v),
    ]
}

/// A latitude-longitude pair carried into the plane of [`geom`]'s functions.
fn to_frame(p: LatLon) -> Pt {
    let (u, v) = project(p[0], p[1]);
    frame(u, v)
}

/// The hex (possibly off the map) holding a latitude and longitude.
pub fn hex_at(lat: f64, lon: f64) -> Hex {
    let p = to_frame([lat, lon]);
    geom::hex_at_km(p[0], p[1])
}

/// `[latitude, longitude]` in degrees.
pub type LatLon = [f64; 2];

/// The geography: every feature in latitude and longitude, each with its source.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Geography {
    /// Named places, in order of precedence.
    #[serde(rename = "place")]
    pub places: Vec<PlaceDef>,
    /// Rivers, each downstream.
    #[serde(rename = "river")]
    pub rivers: Vec<LineDef>,
    /// River crossings at their towns.
    #[serde(rename = "crossing")]
    pub crossings: Vec<CrossingDef>,
    /// Mountain areas.
    #[serde(rename = "mountain")]
    pub mountains: Vec<AreaDef>,
    /// Passes through the mountains.
    #[serde(rename = "pass")]
    pub passes: Vec<PassDef>,
    /// National borders of 1813.
    #[serde(rename = "border")]
    pub borders: Vec<BorderDef>,
    /// The armistice line.
    pub armistice: LineDef,
}

/// What a place is on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlaceKind {
    /// Fortified in 1813: a city-fortress hex.
    Fortress,
    /// An important city: a city hex.
    City,
    /// A town named for a crossing or a pass: clear terrain.
    Town,
    /// A battlefield or village: clear terrain.
    Site,
}

/// A named place.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceDef {
    /// Name as printed.
    pub name: String,
    /// Where it is.
    pub at: LatLon,
    /// What it is.
    pub kind: PlaceKind,
    /// The rulebook's spelling, where the rulebook names it.
    #[serde(default)]
    pub rules: Option<String>,
    /// The bank of a river the town stands on, where the hex must show it.
    #[serde(default)]
    pub bank: Option<BankDef>,
    /// Source.
    pub source: String,
}

/// The bank of a river a place stands on.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BankDef {
    /// The river (a `river` name).
    pub river: String,
    /// Which bank, looking downstream.
    pub side: BankSide,
}

/// A bank of a river, looking downstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BankSide {
    /// The left bank.
    Left,
    /// The right bank.
    Right,
}

/// A polyline: a river (downstream) or the armistice line.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineDef {
    /// Name.
    pub name: String,
    /// Source.
    pub source: String,
    /// The course.
    pub points: Vec<LatLon>,
}

/// A river crossing at a town.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrossingDef {
    /// The river (a `river` name).
    pub river: String,
    /// The town (a `place` name).
    pub town: String,
    /// What stood there in 1813.
    pub how: String,
    /// Source.
    pub source: String,
}

/// A mountain area.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaDef {
    /// Name.
    pub name: String,
    /// Source.
    pub source: String,
    /// The outline (closed implicitly).
    pub polygon: Vec<LatLon>,
}

/// A pass: a road over the mountains through the pass point.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassDef {
    /// Name.
    pub name: String,
    /// The pass itself.
    pub at: LatLon,
    /// Source.
    pub source: String,
    /// The road from one side of the mountains to the other.
    pub road: Vec<LatLon>,
}

/// A national border.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BorderDef {
    /// Name (the country it bounds).
    pub name: String,
    /// Which states it divides.
    pub between: String,
    /// Source.
    pub source: String,
    /// The line.
    pub points: Vec<LatLon>,
}

impl Geography {
    /// The bank of the river `river` on which the centre of `h` lies: the side of the river's
    /// nearest segment (`None` for an unknown river).
    pub fn bank_of(&self, river: &str, h: Hex) -> Option<BankSide> {
        let r = self.rivers.iter().find(|r| r.name == river)?;
        let line = frame_line(&r.points);
        let (u, v) = geom::hex_to_grid(h);
        let c = frame(u, v);
        let (p, q) = line.windows(2).map(|w| (w[0], w[1])).min_by(|a, b| {
            geom::dist_to_segment(c, a.0, a.1).total_cmp(&geom::dist_to_segment(c, b.0, b.1))
        })?;
        let cross = (q[0] - p[0]) * (c[1] - p[1]) - (q[1] - p[1]) * (c[0] - p[0]);
        Some(if cross > 0.0 {
            BankSide::Left
        } else {
            BankSide::Right
        })
    }
}

/// Parses the geography data file.
pub fn geography() -> Geography {
    toml::from_str(GEOGRAPHY).unwrap_or_else(|e| panic!("data/central-europe-geography.toml: {e}"))
}

/// A line as rasterised: its name and its hexsides (both hexes on the map).
#[derive(Clone, Debug)]
pub struct Course {
    /// Name.
    pub name: String,
    /// Its hexsides.
    pub hexsides: BTreeSet<Side>,
}

/// A place as placed.
#[derive(Clone, Debug)]
pub struct Placed {
    /// Name.
    pub name: String,
    /// What it is.
    pub kind: PlaceKind,
    /// The rulebook's spelling, if the rulebook names it.
    pub rules: Option<String>,
    /// The hex the projection puts it in (possibly off the map).
    pub projected: Hex,
    /// The hex its name is printed in (`None` when off the map).
    pub hex: Option<Hex>,
}

/// A crossing as bridged.
#[derive(Clone, Debug)]
pub struct Bridged {
    /// The river.
    pub river: String,
    /// The town.
    pub town: String,
    /// The bridged hexside.
    pub side: Side,
}

/// A pass as rasterised.
#[derive(Clone, Debug)]
pub struct PassCourse {
    /// Name.
    pub name: String,
    /// The road's chain of adjacent hexes (off-map hexes included).
    pub chain: Vec<Hex>,
    /// Its mountain-pass hexes.
    pub pass_hexes: Vec<Hex>,
}

/// Everything the generator made: the map and the per-feature detail behind it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The map.
    pub map: Map,
    /// The places.
    pub places: Vec<Placed>,
    /// The rivers.
    pub rivers: Vec<Course>,
    /// The bridged crossings.
    pub crossings: Vec<Bridged>,
    /// The passes.
    pub passes: Vec<PassCourse>,
    /// The borders.
    pub borders: Vec<Course>,
    /// The armistice line.
    pub armistice: Course,
    /// The parsed geography.
    pub geography: Geography,
}

/// Terrain ids of the map's legend.
pub mod terrain {
    /// Clear.
    pub const CLEAR: &str = "clear";
    /// City.
    pub const CITY: &str = "city";
    /// City-fortress.
    pub const CITY_FORTRESS: &str = "city-fortress";
    /// Mountain.
    pub const MOUNTAIN: &str = "mountain";
    /// Mountain pass.
    pub const PASS: &str = "mountain-pass";
}

/// Hexside feature ids of the map's legend.
pub mod feature {
    /// A river hexside.
    pub const RIVER: &str = "river";
    /// A bridge over a river hexside (a bridged river hexside carries both).
    pub const BRIDGE: &str = "bridge";
    /// The road of a pass, joining pass hexes to each other and to their entry hexes.
    pub const PASS: &str = "pass";
    /// A national border.
    pub const BORDER: &str = "border";
    /// The armistice line.
    pub const ARMISTICE: &str = "armistice";
}

/// The legend of the map: the Terrain Effects Chart's kinds as data.
pub fn legend() -> Legend {
    use FeatureStyle::*;
    Legend {
        terrain: vec![
            TerrainKind::new(terrain::CLEAR, "Clear", '.', "#F4EFD9", None),
            TerrainKind::new(terrain::CITY, "City", 'c', "#E9D6CF", Some("buildings")),
            TerrainKind::new(
                terrain::CITY_FORTRESS,
                "City-Fortress",
                'F',
                "#D7A9A0",
                Some("buildings"),
            ),
            TerrainKind::new(
                terrain::MOUNTAIN,
                "Mountain",
                'M',
                "#C8B08A",
                Some("hatching"),
            ),
            TerrainKind::new(terrain::PASS, "Mountain Pass", 'P', "#E6D5B0", None),
        ],
        features: vec![
            FeatureKind::new(feature::RIVER, "River", "#0072B2", 0.15, None, Edge),
            FeatureKind::new(feature::BRIDGE, "Bridge", "#1F1F1F", 0.19, None, Crossing),
            FeatureKind::new(feature::PASS, "Pass road", "#7A4A1A", 0.08, None, Route),
            FeatureKind::new(
                feature::BORDER,
                "National border",
                "#B22222",
                0.09,
                Some("0.2 0.1"),
                Edge,
            ),
            FeatureKind::new(
                feature::ARMISTICE,
                "Armistice line",
                "#2E7D32",
                0.06,
                Some("0.05 0.07"),
                Edge,
            ),
        ],
    }
}

fn frame_line(points: &[LatLon]) -> Vec<Pt> {
    points.iter().map(|&p| to_frame(p)).collect()
}

/// True when a hex holds mountains: its centre, or two of the six points midway to its corners,
/// inside one of the areas.
fn mountainous(h: Hex, areas: &[Vec<Pt>]) -> bool {
    let (u, v) = geom::hex_to_grid(h);
    let inside = |p: Pt| areas.iter().any(|a| geom::inside(p, a));
    if inside(frame(u, v)) {
        return true;
    }
    // drawing frame: x east (u grows west), y south in hex widths (v counts rows of ROW)
    let n = CORNERS
        .iter()
        .filter(|&&(x, y)| inside(frame(u - x / 2.0, v + y / 2.0 / geom::ROW)))
        .count();
    n >= 2
}

/// The terrain index of an id in the map's legend.
fn t(map: &Map, id: &str) -> Terrain {
    map.legend()
        .terrain_index(id)
        .unwrap_or_else(|| panic!("legend has no terrain '{id}'"))
}

/// The feature bit of an id in the map's legend.
fn f(map: &Map, id: &str) -> Hexside {
    map.legend()
        .feature(id)
        .unwrap_or_else(|| panic!("legend has no feature '{id}'"))
}

fn course(map: &Map, name: &str, points: &[LatLon]) -> Course {
    Course {
        name: name.to_string(),
        hexsides: super::water_hexsides(map, &frame_line(points)),
    }
}

/// The map of central Europe, rebuilt from the data file.
pub fn generate() -> Map {
    generate_detailed().map
}

/// The map file text (`maps/central-europe.toml`) of the generated map, with a header comment.
pub fn map_text() -> String {
    let map = generate();
    format!(
        "# Central Europe 1813, the strategic game's map: a reconstruction (the printed sheet is\n\
         # unavailable), 10 km a hex. GENERATED by `cargo run -p scenarios --bin gen-europe-map`\n\
         # from data/central-europe-geography.toml; do not edit by hand.\n\
         # How it is made: docs/central-europe-map.md.\n{}",
        toml::to_string_pretty(&map.to_file()).expect("a map file always serialises")
    )
}

/// The map with the per-feature detail behind it.
pub fn generate_detailed() -> Generated {
    let geo = geography();
    let mut map = Map::with_legend("central-europe", ROWS, PER_ROW, legend(), Parity::Even);
    map.title = "Central Europe, spring and summer 1813 (reconstruction)".to_string();
    let (clear, city, fortress, mountain, pass) = (
        t(&map, terrain::CLEAR),
        t(&map, terrain::CITY),
        t(&map, terrain::CITY_FORTRESS),
        t(&map, terrain::MOUNTAIN),
        t(&map, terrain::PASS),
    );

    // mountains
    let areas: Vec<Vec<Pt>> = geo
        .mountains
        .iter()
        .map(|a| frame_line(&a.polygon))
        .collect();
    let hexes: Vec<Hex> = map.hexes().collect();
    for &h in &hexes {
        map.set_terrain(
            h,
            if mountainous(h, &areas) {
                mountain
            } else {
                clear
            },
        );
    }

    // passes: the mountain hexes on each road
    let mut passes = Vec::new();
    for p in &geo.passes {
        let chain = geom::trace(&frame_line(&p.road));
        let mut pass_hexes = Vec::new();
        for &h in &chain {
            if map.contains(h) && (map.terrain(h) == mountain || map.terrain(h) == pass) {
                map.set_terrain(h, pass);
                if !pass_hexes.contains(&h) {
                    pass_hexes.push(h);
                }
            }
        }
        passes.push(PassCourse {
            name: p.name.clone(),
            chain,
            pass_hexes,
        });
    }

    // places: city and fortress terrain beat everything else
    let mut taken: BTreeMap<Hex, String> = BTreeMap::new();
    let mut places = Vec::new();
    for p in &geo.places {
        let projected = hex_at(p.at[0], p.at[1]);
        let mut hex = None;
        if map.contains(projected) {
            // the projected hex, or else the free neighbour nearest the place, on its bank
            let (u, v) = project(p.at[0], p.at[1]);
            let near = |n: &Hex| {
                let (a, b) = geom::hex_to_grid(*n);
                (a - u).powi(2) + ((b - v) * geom::ROW).powi(2)
            };
            let on_bank = |n: &Hex| match &p.bank {
                None => true,
                Some(b) => {
                    geo.bank_of(&b.river, *n)
                        .unwrap_or_else(|| panic!("place '{}': no river '{}'", p.name, b.river))
                        == b.side
                }
            };
            let h = std::iter::once(projected)
                .chain(projected.neighbours())
                .filter(|n| map.contains(*n) && !taken.contains_key(n) && on_bank(n))
                .min_by(|a, b| near(a).total_cmp(&near(b)))
                .unwrap_or_else(|| panic!("place '{}': no free hex near {projected}", p.name));
            taken.insert(h, p.name.clone());
            match p.kind {
                PlaceKind::Fortress => map.set_terrain(h, fortress),
                PlaceKind::City if map.terrain(h) != fortress => map.set_terrain(h, city),
                _ => {}
            }
            hex = Some(h);
        }
        places.push(Placed {
            name: p.name.clone(),
            kind: p.kind,
            rules: p.rules.clone(),
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

    // a fortress or city on a pass road is no pass hex (it is the pass's entry hex)
    for p in &mut passes {
        p.pass_hexes.retain(|&h| map.terrain(h) == pass);
    }

    // pass roads: between consecutive hexes of a chain where one is a pass hex
    let pass_flag = f(&map, feature::PASS);
    for p in &passes {
        for w in p.chain.windows(2) {
            let (a, b) = (w[0], w[1]);
            if map.contains(a)
                && map.contains(b)
                && (map.terrain(a) == pass || map.terrain(b) == pass)
            {
                map.add_hexside(
                    a,
                    a.direction_to(b).expect("a chain is adjacent"),
                    pass_flag,
                );
            }
        }
    }

    // rivers and their crossings
    let river_flag = f(&map, feature::RIVER);
    let bridge_flag = f(&map, feature::BRIDGE);
    let rivers: Vec<Course> = geo
        .rivers
        .iter()
        .map(|r| course(&map, &r.name, &r.points))
        .collect();
    for r in &rivers {
        for &(a, b) in &r.hexsides {
            map.add_hexside(a, a.direction_to(b).expect("adjacent"), river_flag);
        }
    }
    let mut crossings = Vec::new();
    for c in &geo.crossings {
        let r = rivers
            .iter()
            .find(|r| r.name == c.river)
            .unwrap_or_else(|| panic!("crossing at {}: no river '{}'", c.town, c.river));
        let town = places
            .iter()
            .find(|p| p.name == c.town)
            .unwrap_or_else(|| panic!("crossing of the {}: no place '{}'", c.river, c.town));
        let th = town
            .hex
            .unwrap_or_else(|| panic!("crossing at {}: the town is off the map", c.town));
        let at = geo
            .places
            .iter()
            .find(|p| p.name == c.town)
            .expect("found above")
            .at;
        let (u, v) = project(at[0], at[1]);
        let mid = |(a, b): Side| {
            let (p, q) = (geom::hex_to_grid(a), geom::hex_to_grid(b));
            let m = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
            (m.0 - u).powi(2) + ((m.1 - v) * geom::ROW).powi(2)
        };
        let s = r
            .hexsides
            .iter()
            .copied()
            .filter(|&(a, b)| a == th || b == th)
            .min_by(|a, b| mid(*a).total_cmp(&mid(*b)))
            .unwrap_or_else(|| {
                panic!(
                    "crossing at {}: the {} does not touch its hex {th}",
                    c.town, c.river
                )
            });
        map.add_hexside(s.0, s.0.direction_to(s.1).expect("adjacent"), bridge_flag);
        crossings.push(Bridged {
            river: c.river.clone(),
            town: c.town.clone(),
            side: s,
        });
    }

    // borders and the armistice line
    let border_flag = f(&map, feature::BORDER);
    let borders: Vec<Course> = geo
        .borders
        .iter()
        .map(|b| course(&map, &b.name, &b.points))
        .collect();
    for b in &borders {
        for &(a, c) in &b.hexsides {
            map.add_hexside(a, a.direction_to(c).expect("adjacent"), border_flag);
        }
    }
    let armistice = course(&map, &geo.armistice.name, &geo.armistice.points);
    let armistice_flag = f(&map, feature::ARMISTICE);
    for &(a, c) in &armistice.hexsides {
        map.add_hexside(a, a.direction_to(c).expect("adjacent"), armistice_flag);
    }

    Generated {
        map,
        places,
        rivers,
        crossings,
        passes,
        borders,
        armistice,
        geography: geo,
    }
}

// ---------------------------------------------------------------------------------------------
// The review drawing.

const PX: f64 = 24.0; // pixels per hex width

/// Pixel position of grid coordinates `(YY', XX)`.
fn px(u: f64, v: f64) -> (f64, f64) {
    // drawing frame of `Hex::centre`: x = -(YY' + 0.5), y = XX * ROW
    ((PER_ROW as f64 + 1.5 - u) * PX, (v * geom::ROW + 0.8) * PX)
}

fn px_ll(p: LatLon) -> (f64, f64) {
    let (u, v) = project(p[0], p[1]);
    px(u, v)
}

/// The six corners of a hex in pixels, numbered as [`hexmap::CORNERS`].
fn corners_px(h: Hex) -> [(f64, f64); 6] {
    let (u, v) = geom::hex_to_grid(h);
    let (cx, cy) = px(u, v);
    CORNERS.map(|(x, y)| (cx + x * PX, cy + y * PX))
}

fn polyline(s: &mut String, pts: &[LatLon], stroke: &str, width: f64, dash: &str, close: bool) {
    let p: Vec<String> = pts
        .iter()
        .map(|&q| {
            let (a, b) = px_ll(q);
            format!("{a:.1},{b:.1}")
        })
        .collect();
    let tag = if close { "polygon" } else { "polyline" };
    let _ = writeln!(
        s,
        r#"<{tag} points="{}" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{dash}"/>"#,
        p.join(" ")
    );
}

/// An SVG drawing of the generated map over its source geography, for review.
pub fn preview_svg() -> String {
    let g = generate_detailed();
    let map = &g.map;
    let legend = map.legend().clone();
    let mut s = String::new();
    let (w, h) = px(0.0, ROWS as f64 + 1.0);
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
            r##"<polygon points="{}" fill="{}" stroke="#aaa" stroke-width="0.4"/>"##,
            pts.join(" "),
            map.terrain_kind(hx).fill
        );
        let (u, v) = geom::hex_to_grid(hx);
        let (a, b) = px(u, v);
        let _ = writeln!(
            s,
            r##"<text x="{a:.1}" y="{:.1}" font-size="4.5" text-anchor="middle" fill="#999">{hx}</text>"##,
            b - 7.0
        );
    }
    for hx in map.hexes() {
        for d in Dir::ALL {
            let n = hx.neighbour(d);
            if !map.contains(n) || n < hx {
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
                let dash = fk
                    .dash
                    .as_deref()
                    .map(|d| {
                        d.split([' ', ','])
                            .filter(|x| !x.is_empty())
                            .map(|x| format!("{:.1}", x.parse::<f64>().unwrap_or(0.1) * PX))
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_else(|| "none".into());
                let width = fk.width * PX;
                let (a, b) = match fk.style {
                    FeatureStyle::Route => {
                        let (u, v) = geom::hex_to_grid(hx);
                        let (x, y) = geom::hex_to_grid(n);
                        (px(u, v), px(x, y))
                    }
                    FeatureStyle::Crossing => {
                        let m = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                        let (dx, dy) = ((q.0 - p.0) * 0.3, (q.1 - p.1) * 0.3);
                        // a bar across the hexside, perpendicular to it
                        ((m.0 - dy, m.1 + dx), (m.0 + dy, m.1 - dx))
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
    // the sources, thin and dashed
    let geo = &g.geography;
    for r in &geo.rivers {
        polyline(&mut s, &r.points, "#002080", 0.7, "3,2", false);
    }
    for b in &geo.borders {
        polyline(&mut s, &b.points, "#800000", 0.7, "3,2", false);
    }
    polyline(&mut s, &geo.armistice.points, "#004000", 0.7, "1,2", false);
    for m in &geo.mountains {
        polyline(&mut s, &m.polygon, "#503010", 0.7, "1,2", true);
    }
    for p in &geo.passes {
        polyline(&mut s, &p.road, "#a05000", 0.7, "2,1", false);
    }
    for p in &geo.places {
        let (a, b) = px_ll(p.at);
        let weight = if p.rules.is_some() { "bold" } else { "normal" };
        let _ = writeln!(
            s,
            r#"<circle cx="{a:.1}" cy="{b:.1}" r="1.8" fill="black"/><text x="{:.1}" y="{:.1}" font-size="8" font-weight="{weight}">{}</text>"#,
            a + 2.5,
            b + 3.0,
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
                "maps/central-europe.toml is out of date with its data file: run \
                 `cargo run -p scenarios --bin gen-europe-map` and review the diff"
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
            Hex::new(21, 25),
            Hex::new(42, 50),
            Hex::new(20, 7),
        ] {
            let (lat, lon) = lat_lon(h);
            assert_eq!(hex_at(lat, lon), h);
            let (u, v) = project(lat, lon);
            assert!((u - geom::hex_to_grid(h).0).abs() < 1e-9);
            assert!((v - geom::hex_to_grid(h).1).abs() < 1e-9);
        }
    }

    #[test]
    fn a_hex_is_ten_km_across() {
        // two neighbouring centres in a row are 10 km apart on the ground, near the true-scale
        // parallel
        let (a, b) = (lat_lon(Hex::new(21, 25)), lat_lon(Hex::new(21, 26)));
        let dx = (a.1 - b.1) * km_per_deg_lon();
        assert!((dx.abs() - 10.0).abs() < 1e-9);
        let (c, d) = (lat_lon(Hex::new(21, 25)), lat_lon(Hex::new(23, 25)));
        assert!(((c.0 - d.0) * KM_PER_DEG - 2.0 * 8.660_254).abs() < 1e-3);
    }

    #[test]
    fn every_data_item_names_its_source() {
        let g = geography();
        for p in &g.places {
            assert!(!p.source.trim().is_empty(), "{}", p.name);
        }
        for l in g.rivers.iter().chain(std::iter::once(&g.armistice)) {
            assert!(
                !l.source.trim().is_empty() && l.points.len() >= 2,
                "{}",
                l.name
            );
        }
        for c in &g.crossings {
            assert!(
                !c.source.trim().is_empty() && !c.how.trim().is_empty(),
                "{}",
                c.town
            );
        }
        for a in &g.mountains {
            assert!(
                !a.source.trim().is_empty() && a.polygon.len() >= 3,
                "{}",
                a.name
            );
        }
        for p in &g.passes {
            assert!(
                !p.source.trim().is_empty() && p.road.len() >= 2,
                "{}",
                p.name
            );
        }
        for b in &g.borders {
            assert!(
                !b.source.trim().is_empty() && b.points.len() >= 2,
                "{}",
                b.name
            );
        }
    }

    #[test]
    fn tributaries_end_on_the_river_they_join() {
        // a river ending on the map flows into another: its mouth lies on that river's line
        let g = geography();
        let m = generate();
        for r in &g.rivers {
            let mouth = *r.points.last().unwrap();
            if !m.contains(hex_at(mouth[0], mouth[1])) {
                continue;
            }
            let p = to_frame(mouth);
            let joined = g.rivers.iter().filter(|o| o.name != r.name).any(|o| {
                frame_line(&o.points)
                    .windows(2)
                    .any(|w| geom::dist_to_segment(p, w[0], w[1]) < 1e-4)
            });
            assert!(
                joined,
                "the {} ends at {mouth:?} without joining a river",
                r.name
            );
        }
    }
}
