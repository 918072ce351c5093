//! The central Europe map as the scenarios read it: its places by the rulebook's names, the
//! hexes within a radius of a place, its regions (Austria, the French side of the armistice
//! line) and the stretches of its edges where reinforcements enter.
//!
//! The map and its geography are `crates/scenarios`' files, read here through `include_str!`
//! (the `scenarios` crate depends on `naw`, a rules crate, so this rules crate does not depend on
//! it). A place named by the rulebook resolves through the geography's `rules` spelling
//! (`Kustrin`) or its own name (`Küstrin`) to the hex the map prints it in.

use crate::data::DataError;
use hexmap::{Edge, Hex, Map};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// An area of the map a set-up or a reinforcement names instead of a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    /// Austria (Bohemia and Austrian Silesia): the region of Prague inside the border hexsides.
    Austria,
    /// The French side of the armistice line, Austria excluded (the summer chart's "anywhere
    /// Southwest of Armistice Line": the German states, Bavaria, Saxony, southern Prussia).
    ArmisticeSouthwest,
    /// The west edge (French reinforcements).
    WestEdge,
    /// The east edge outside Austria (ESM).
    EastEdge,
    /// The north edge east of the Elbe (NSM).
    NorthEdgeEastOfElbe,
    /// The north edge west of the Elbe.
    NorthEdgeWestOfElbe,
    /// The south edge west of the Austrian border (the Bavarian defection).
    SouthEdgeWestOfAustria,
}

impl Area {
    /// Every area.
    pub const ALL: [Area; 7] = [
        Area::Austria,
        Area::ArmisticeSouthwest,
        Area::WestEdge,
        Area::EastEdge,
        Area::NorthEdgeEastOfElbe,
        Area::NorthEdgeWestOfElbe,
        Area::SouthEdgeWestOfAustria,
    ];
}

#[derive(Deserialize)]
struct Geography {
    place: Vec<GeoPlace>,
}

#[derive(Deserialize)]
struct GeoPlace {
    name: String,
    #[serde(default)]
    rules: Option<String>,
}

/// The map with its places and areas, ready for the scenarios.
#[derive(Clone, Debug)]
pub struct Europe {
    /// The map.
    pub map: Map,
    /// Every name a place answers to (the rulebook's spelling and the map's) and its hex.
    places: BTreeMap<String, Hex>,
    areas: BTreeMap<Area, Vec<Hex>>,
}

impl Europe {
    /// The generated map file of `crates/scenarios`.
    pub const MAP_TOML: &'static str = include_str!("../../scenarios/maps/central-europe.toml");
    /// Its source geography (for the rulebook's spellings).
    pub const GEOGRAPHY_TOML: &'static str =
        include_str!("../../scenarios/data/central-europe-geography.toml");

    /// The shipped map.
    pub fn central_europe() -> Europe {
        Europe::new(Europe::MAP_TOML, Europe::GEOGRAPHY_TOML)
            .expect("the shipped central Europe map and geography are valid")
    }

    /// Reads a map and its geography; fails if the map does not parse, a place the geography
    /// names is not on the map, or an area the scenarios need is empty.
    pub fn new(map_text: &str, geography_text: &str) -> Result<Europe, DataError> {
        let map = Map::from_toml(map_text)
            .map_err(|e| DataError(vec![format!("central Europe map: {e}")]))?;
        let geo: Geography = toml::from_str(geography_text)
            .map_err(|e| DataError(vec![format!("central Europe geography: {e}")]))?;
        let mut places = BTreeMap::new();
        for p in &map.places {
            places.insert(p.name.clone(), p.hex);
        }
        for g in &geo.place {
            if let (Some(r), Some(&h)) = (&g.rules, places.get(&g.name)) {
                places.insert(r.clone(), h);
            }
        }
        let mut errs = Vec::new();
        let border = map.legend().feature("border");
        let armistice = map.legend().feature("armistice");
        let mut areas = BTreeMap::new();
        let austria = match (places.get("Prague"), border) {
            (Some(&prague), Some(border)) => {
                flood(&map, prague, |a, b| !map.hexside_between(a, b).any(border))
            }
            _ => {
                errs.push("central Europe map: Austria needs Prague and `border` hexsides".into());
                BTreeSet::new()
            }
        };
        let south_west = match (places.get("Leipzig"), armistice) {
            (Some(&leipzig), Some(armistice)) => flood(&map, leipzig, |a, b| {
                !map.hexside_between(a, b).any(armistice)
            }),
            _ => {
                errs.push(
                    "central Europe map: the armistice line needs Leipzig and `armistice` hexsides"
                        .into(),
                );
                BTreeSet::new()
            }
        };
        // The north edge either side of the Elbe: the Elbe is the armistice line where it
        // leaves the map (docs/central-europe-map.md), so its east bank is the Allied side.
        let mut north = map.edge_hexes(Edge::North);
        north.sort_by_key(|h| h.y);
        let (west_of_elbe, east_of_elbe): (Vec<Hex>, Vec<Hex>) =
            north.into_iter().partition(|h| south_west.contains(h));
        let mut south = map.edge_hexes(Edge::South);
        south.sort_by_key(|h| std::cmp::Reverse(h.y));
        let south_west_of_austria: Vec<Hex> = south
            .iter()
            .copied()
            .take_while(|h| !austria.contains(h))
            .collect();
        let outside =
            |v: Vec<Hex>| -> Vec<Hex> { v.into_iter().filter(|h| !austria.contains(h)).collect() };
        areas.insert(Area::Austria, austria.iter().copied().collect());
        areas.insert(
            Area::ArmisticeSouthwest,
            south_west.difference(&austria).copied().collect(),
        );
        areas.insert(Area::WestEdge, map.edge_hexes(Edge::West));
        areas.insert(Area::EastEdge, outside(map.edge_hexes(Edge::East)));
        areas.insert(Area::NorthEdgeEastOfElbe, east_of_elbe);
        areas.insert(Area::NorthEdgeWestOfElbe, west_of_elbe);
        areas.insert(Area::SouthEdgeWestOfAustria, south_west_of_austria);
        for (a, hexes) in &areas {
            if hexes.is_empty() {
                errs.push(format!("central Europe map: the area {a:?} is empty"));
            }
        }
        if !errs.is_empty() {
            return Err(DataError(errs));
        }
        Ok(Europe { map, places, areas })
    }

    /// The hex of a place the rulebook names (`Kustrin`) or the map prints (`Küstrin`).
    pub fn place(&self, name: &str) -> Result<Hex, String> {
        self.places.get(name).copied().ok_or_else(|| {
            format!(
                "'{name}' is no place of the central Europe map (its places: {})",
                self.map
                    .places
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// Every hex of the map within `radius` hexes of `centre` (the centre included), in
    /// numbering order.
    pub fn within(&self, centre: Hex, radius: u32) -> Vec<Hex> {
        self.map
            .hexes()
            .filter(|&h| self.map.distance(centre, h) <= radius)
            .collect()
    }

    /// The hexes of an area, in numbering order for regions and along the edge for edges.
    pub fn area(&self, a: Area) -> &[Hex] {
        self.areas.get(&a).map(Vec::as_slice).unwrap_or(&[])
    }

    /// True for a hex of Austria.
    pub fn in_austria(&self, h: Hex) -> bool {
        self.area(Area::Austria).contains(&h)
    }
}

/// The hexes reachable from `start` by steps `open` allows.
fn flood(map: &Map, start: Hex, open: impl Fn(Hex, Hex) -> bool) -> BTreeSet<Hex> {
    let mut seen = BTreeSet::from([start]);
    let mut todo = vec![start];
    while let Some(h) = todo.pop() {
        for n in map.neighbours(h) {
            if map.contains(n) && !seen.contains(&n) && open(h, n) {
                seen.insert(n);
                todo.push(n);
            }
        }
    }
    seen
}
