//! The map as the game reads it, computed once per scenario: every hex's terrain effects
//! (Terrain Effects Chart) and every hexside's costs and effects, in dense arrays by hex, so
//! that movement and combat never look a name up.

use crate::data::Tables;
use crate::europe::{Area, Europe};
use crate::victory::CITIES;
use hexmap::{Hex, HexGrid};

/// One hex's terrain, as the rules use it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HexInfo {
    /// Its legend kind (`clear`, `city`, `city-fortress`, `mountain`, `mountain-pass`).
    pub kind: u8,
    /// A fortress (Fortress and Siege).
    pub fortress: bool,
    /// Cavalry may enter (TEC Mountain).
    pub cavalry: bool,
    /// Supply units and depots may enter (TEC notes).
    pub supply: bool,
    /// A mountain hex: no retreat enters it (Combat (J), (K)).
    pub mountain: bool,
    /// In Austria.
    pub austria: bool,
    /// The city of the Victory Point Schedule it holds (index into [`CITIES`]).
    pub city: Option<u8>,
    /// Divisions that stand here supplied with no supply unit (Fortress (B)).
    pub supplied_divisions: u8,
    /// The defence multiplier of the hex itself (TEC).
    pub defence: u8,
    /// Its side of the armistice line (The Armistice Line): 0 the French side (south-west,
    /// Austria excluded), 1 the Allied side (north-east), 2 Austria.
    pub zone: u8,
}

/// One hexside seen from one of its hexes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideInfo {
    /// MP to enter the neighbour across it (TEC: its hex kind, the hexside's extra cost, the
    /// pass); 0 when the neighbour is off the map.
    pub cost: u8,
    /// Zones of control cross it (Zones of Control (C)).
    pub zoc: bool,
    /// Retreats may cross it (Combat (J), (K)).
    pub retreat: bool,
    /// A river, bridged or not (Combat (M), Fortress (C)).
    pub river: bool,
    /// The neighbour's defence multiplier against an attack across it (TEC, not cumulative).
    pub defence: u8,
    /// The lowest percentage of an attack across it (TEC River hexside).
    pub min_percent: u16,
}

/// The map with its rules effects.
#[derive(Clone, Debug)]
pub struct Board {
    /// Index geometry.
    grid: HexGrid<()>,
    /// Per hex.
    hexes: Vec<HexInfo>,
    /// Per hex, per direction (`hexmap::Dir::ALL` order).
    sides: Vec<[SideInfo; 6]>,
    /// Per hex, its neighbours on the map, direction order (`None` off the map).
    neighbours: Vec<[Option<Hex>; 6]>,
    /// The hexes of the schedule's cities, [`CITIES`] order (`None` where the map lacks one).
    pub cities: [Option<Hex>; 5],
    /// The map's width (rows `XX`) and height (positions `YY`).
    pub size: (i16, i16),
    parity: hexmap::Parity,
}

impl Board {
    /// Builds the board from the map and the chart.
    pub fn new(europe: &Europe, tables: &Tables) -> Board {
        let map = &europe.map;
        let grid = map.grid(());
        let legend = map.legend();
        let feature_names: Vec<(&str, hexmap::Hexside)> =
            ["river", "bridge", "pass", "border", "armistice"]
                .into_iter()
                .filter_map(|n| legend.feature(n).map(|f| (n, f)))
                .collect();
        let austria = europe.area(Area::Austria);
        let south_west = europe.area(Area::ArmisticeSouthwest);
        let mut hexes = vec![HexInfo::default(); grid.len()];
        let mut sides = vec![[SideInfo::default(); 6]; grid.len()];
        let mut neighbours = vec![[None; 6]; grid.len()];
        let kind_index = |h: Hex| -> u8 {
            let id = map.terrain_kind(h).id.as_str();
            crate::terrain::HEX_KINDS
                .iter()
                .position(|k| *k == id)
                .unwrap_or(0) as u8
        };
        let mut cities = [None; 5];
        for (i, c) in CITIES.iter().enumerate() {
            cities[i] = europe.place(c).ok();
        }
        for h in map.hexes() {
            let i = grid.index(h).expect("on the map");
            let kind = kind_index(h);
            let name = crate::terrain::HEX_KINDS[kind as usize];
            let e = tables.terrain.hex(name).copied();
            hexes[i] = HexInfo {
                kind,
                fortress: e.is_some_and(|e| e.only_dx),
                cavalry: e.is_none_or(|e| e.cavalry),
                supply: e.is_none_or(|e| e.supply),
                mountain: name == "mountain",
                austria: austria.contains(&h),
                city: cities.iter().position(|c| *c == Some(h)).map(|p| p as u8),
                supplied_divisions: e.map_or(0, |e| e.supplied_divisions.min(255) as u8),
                defence: e.map_or(1, |e| e.defence.min(255) as u8),
                zone: if austria.contains(&h) {
                    2
                } else if south_west.contains(&h) {
                    0
                } else {
                    1
                },
            };
            for (d, n) in map.neighbours(h).into_iter().enumerate() {
                if !map.contains(n) {
                    continue;
                }
                neighbours[i][d] = Some(n);
                let hs = map.hexside(h, hexmap::Dir::ALL[d]);
                let features: Vec<&str> = feature_names
                    .iter()
                    .filter(|(_, f)| hs.any(*f))
                    .map(|(n, _)| *n)
                    .collect();
                let nkind = crate::terrain::HEX_KINDS[kind_index(n) as usize];
                let pass = features.contains(&"pass");
                let t = &tables.terrain;
                sides[i][d] = SideInfo {
                    cost: t
                        .entry_cost(nkind, &features, pass)
                        .unwrap_or(1)
                        .clamp(1, 255) as u8,
                    zoc: t.zoc_crosses(&features),
                    retreat: t.retreat_crosses(&features),
                    river: features.contains(&"river"),
                    defence: t.defence_multiplier(nkind, &features).clamp(1, 255) as u8,
                    min_percent: t.min_percent(&features).min(u32::from(u16::MAX)) as u16,
                };
            }
        }
        Board {
            grid,
            hexes,
            sides,
            neighbours,
            cities,
            size: (map.width(), map.height()),
            parity: map.parity(),
        }
    }

    /// The dense index of a hex on the map.
    pub fn index(&self, h: Hex) -> Option<usize> {
        self.grid.index(h)
    }

    /// How many hexes the map has.
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// True for a map of no hexes (never the shipped one).
    pub fn is_empty(&self) -> bool {
        self.grid.len() == 0
    }

    /// The hex of a dense index.
    pub fn hex_at(&self, i: usize) -> Hex {
        self.grid.hex_at(i)
    }

    /// A hex's terrain (the default, clear, off the map).
    pub fn hex(&self, h: Hex) -> HexInfo {
        self.index(h).map(|i| self.hexes[i]).unwrap_or_default()
    }

    /// True for a hex of the map.
    pub fn contains(&self, h: Hex) -> bool {
        self.grid.contains(h)
    }

    /// The neighbours on the map, with their direction index.
    pub fn neighbours(&self, h: Hex) -> impl Iterator<Item = (usize, Hex)> + '_ {
        let n = self
            .index(h)
            .map(|i| self.neighbours[i])
            .unwrap_or([None; 6]);
        n.into_iter()
            .enumerate()
            .filter_map(|(d, n)| n.map(|n| (d, n)))
    }

    /// The hexside from `h` in direction `d`.
    pub fn side(&self, h: Hex, d: usize) -> SideInfo {
        self.index(h).map(|i| self.sides[i][d]).unwrap_or_default()
    }

    /// The hexside between two adjacent hexes, seen from `a` (`None` when not adjacent).
    pub fn between(&self, a: Hex, b: Hex) -> Option<SideInfo> {
        self.neighbours(a)
            .find(|&(_, n)| n == b)
            .map(|(d, _)| self.side(a, d))
    }

    /// The number of hexes between two hexes.
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        a.distance_in(b, self.parity)
    }

    /// True when two hexes are adjacent on the map.
    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        self.neighbours(a).any(|(_, n)| n == b)
    }

    /// How far a hex lies from a side's own edge of retreat (Retreat Order of Preference (B)):
    /// the French retreat toward the west edge, the Allies toward the north, south or east.
    pub fn from_home_edge(&self, side: u8, h: Hex) -> i32 {
        let (w, ht) = (i32::from(self.size.0), i32::from(self.size.1));
        let (x, y) = (i32::from(h.x), i32::from(h.y));
        if side == 0 {
            ht - y
        } else {
            (x - 1).min(w - x).min(y - 1)
        }
    }
}
