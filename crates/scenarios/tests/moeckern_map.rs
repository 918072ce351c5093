//! The Möckern table for the hex-miniatures rules (`maps/moeckern.toml`) against the research
//! (`shared/research/moeckern-1813.md`) and the rules' table ([2.1.1]): the places where the
//! projection puts them, the walled village on the Elster, the river up the west side with its
//! meadows beyond, the ridge east of the village, the Rietzschke and its crossing, the roads.

use std::collections::{BTreeSet, VecDeque};

use hexmap::{Dir, Hex, Hexside, Map, Terrain};
use scenarios::mapgen::moeckern::{self, feature, terrain};

fn shipped() -> Map {
    Map::from_toml(moeckern::COMMITTED).expect("the committed map parses")
}

fn tid(map: &Map, id: &str) -> Terrain {
    map.legend().terrain_index(id).unwrap()
}

fn fid(map: &Map, id: &str) -> Hexside {
    map.legend().feature(id).unwrap()
}

fn place(map: &Map, name: &str) -> Hex {
    map.places
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no place '{name}' on the table"))
        .hex
}

fn dist_km(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// The hexes reachable from `from` without crossing a hexside carrying `barrier` (unless it
/// also carries `unless`).
fn reach(map: &Map, from: Hex, barrier: Hexside, unless: Hexside) -> BTreeSet<Hex> {
    let mut seen = BTreeSet::from([from]);
    let mut q = VecDeque::from([from]);
    while let Some(h) = q.pop_front() {
        for d in Dir::ALL {
            let n = h.neighbour(d);
            let s = map.hexside(h, d);
            if !map.contains(n) || (s.any(barrier) && !s.any(unless)) {
                continue;
            }
            if seen.insert(n) {
                q.push_back(n);
            }
        }
    }
    seen
}

#[test]
fn the_shipped_map_is_the_generated_one() {
    assert_eq!(shipped(), moeckern::generate());
}

#[test]
fn the_table_is_16_rows_of_15_hexes_of_200_m() {
    // [2.1.1]: a 16 x 15 hex table, 240 hexes, 200 m a hex
    let map = shipped();
    assert_eq!((map.width(), map.height()), (16, 15));
    assert_eq!(map.hexes().count(), 240);
    let a = moeckern::ground_of(Hex::new(8, 7));
    let b = moeckern::ground_of(Hex::new(8, 8));
    assert!((dist_km(a, b) - 0.2).abs() < 1e-9);
}

/// The research's coordinates (its table of places), and the name each has on the table.
const RESEARCH_PLACES: &[(&str, f64, f64)] = &[
    ("Möckern", 51.369, 12.336),
    ("Wahren", 51.375, 12.322),
    ("Lindenthal", 51.392, 12.332),
];

#[test]
fn each_place_of_the_research_is_within_a_hex_of_its_projection() {
    let map = shipped();
    let geo = moeckern::geography();
    for &(name, lat, lon) in RESEARCH_PLACES {
        let h = place(&map, name);
        let projected = moeckern::hex_at(lat, lon);
        assert!(
            h.distance(projected) <= 1,
            "{name}: {h} against {projected}"
        );
        // and the hex's centre lies within a hex width of the research's point
        let d = dist_km(moeckern::ground_of(h), moeckern::ground(lat, lon));
        assert!(d <= 0.2, "{name}: {d:.2} km from its hex centre");
        // the data file carries the research's coordinate
        let p = geo.places.iter().find(|p| p.name == name).unwrap();
        assert!(
            (p.at[0] - lat).abs() < 1e-6 && (p.at[1] - lon).abs() < 1e-6,
            "{name}"
        );
    }
    // every named place of the table is where its data puts it
    for p in &geo.places {
        let projected = moeckern::hex_at(p.at[0], p.at[1]);
        if map.contains(projected) {
            assert!(place(&map, &p.name).distance(projected) <= 1, "{}", p.name);
        }
    }
}

#[test]
fn the_window_holds_the_fight_and_leaves_out_the_other_fights() {
    // on the table: Wahren and Lindenthal (Hiller's and Horn's approaches), the village, the
    // heights, Klein-Wiederitzsch; off it: Dombrowski's Groß-Wiederitzsch, Gohlis and
    // Eutritzsch in the rear, Breitenfeld, Lützschena (research's table of places)
    let map = shipped();
    for n in [
        "Möckern",
        "Wahren",
        "Lindenthal",
        "Klein-Wiederitzsch",
        "Great battery",
        "Redoubts",
    ] {
        assert!(map.contains(place(&map, n)), "{n}");
    }
    for (n, lat, lon) in [
        ("Groß-Wiederitzsch", 51.384, 12.370),
        ("Eutritzsch", 51.368, 12.386),
        ("Gohlis", 51.361, 12.367),
        ("Breitenfeld", 51.402, 12.344),
        ("Lützschena", 51.384, 12.281),
    ] {
        assert!(
            !map.contains(moeckern::hex_at(lat, lon)),
            "{n} is on the table"
        );
    }
}

#[test]
fn the_village_is_walled_and_stands_on_the_elster() {
    let map = shipped();
    let walled = tid(&map, terrain::WALLED);
    let (wall, river) = (fid(&map, feature::WALL), fid(&map, feature::RIVER));
    let core = place(&map, "Möckern");
    assert_eq!(
        map.terrain(core),
        walled,
        "the village core is walled buildings"
    );
    // the village: the walled hexes joined to the core; 3-6 of them (research: 3-5 stone
    // village hexes and the manor)
    let mut village = BTreeSet::from([core]);
    let mut q = VecDeque::from([core]);
    while let Some(h) = q.pop_front() {
        for n in h.neighbours() {
            if map.contains(n) && map.terrain(n) == walled && village.insert(n) {
                q.push_back(n);
            }
        }
    }
    assert!((3..=6).contains(&village.len()), "{village:?}");
    assert_eq!(
        map.hexes().filter(|&h| map.terrain(h) == walled).count(),
        village.len(),
        "Möckern is the only walled village"
    );
    // the brick barns inside its north-east edge
    assert!(village.contains(&place(&map, "Brick barns")));
    // walled all round its landward side: every hexside out of the village to clear, slope
    // or village ground carries a wall; none to the river
    let meadow = tid(&map, terrain::MEADOW);
    let mut walls = 0;
    for &h in &village {
        for d in Dir::ALL {
            let n = h.neighbour(d);
            if !map.contains(n) || village.contains(&n) {
                continue;
            }
            let s = map.hexside(h, d);
            if s.has(river) || map.terrain(n) == meadow {
                continue;
            }
            assert!(s.has(wall), "{h}/{n}: no wall");
            walls += 1;
        }
    }
    assert!(walls >= 4, "{walls} wall hexsides");
    // on the Elster: the river covers part of it, and the manor's bridge leads off it
    assert!(village.iter().any(|&h| map.touches(h, river)));
    let bridge = fid(&map, feature::BRIDGE);
    assert!(village.iter().any(|&h| map.touches(h, bridge)));
}

#[test]
fn the_elster_runs_up_the_west_side_with_its_meadows_beyond() {
    // the table's top faces west-north-west: the Elster, flowing west-north-west past the
    // terrace villages, runs from the bottom edge to the top edge within the four westernmost
    // hexes of each row, the meadows beyond it
    let map = shipped();
    let river = fid(&map, feature::RIVER);
    let g = moeckern::generate_detailed();
    let elster = &g.rivers[0];
    assert_eq!(elster.name, "Weiße Elster");
    let rows: BTreeSet<i16> = elster
        .hexsides
        .iter()
        .flat_map(|s| [s.0.x, s.1.x])
        .collect();
    assert_eq!(rows.first(), Some(&1));
    assert_eq!(rows.last(), Some(&16));
    for &(a, b) in &elster.hexsides {
        assert!(a.y >= 11 && b.y >= 11, "{a}/{b} is not on the west side");
    }
    // west of the river: meadow only, and cut off but for the bridge
    let east = reach(&map, place(&map, "Great battery"), river, Hexside::NONE);
    let meadow = tid(&map, terrain::MEADOW);
    for h in map.hexes().filter(|h| !east.contains(h)) {
        assert_eq!(map.terrain(h), meadow, "{h} beyond the Elster");
        assert!(h.y >= 12, "{h}");
    }
    assert!(map.hexes().filter(|h| !east.contains(h)).count() >= 16);
    let with_bridges = reach(
        &map,
        place(&map, "Great battery"),
        river,
        fid(&map, feature::BRIDGE),
    );
    assert_eq!(
        with_bridges.len(),
        240,
        "the manor's bridge joins the banks"
    );
    // every village is on the east bank
    for n in ["Möckern", "Wahren", "Lindenthal", "Klein-Wiederitzsch"] {
        assert!(east.contains(&place(&map, n)), "{n}");
    }
}

#[test]
fn the_ridge_east_of_the_village_carries_the_great_battery() {
    let map = shipped();
    let slope = tid(&map, terrain::SLOPE);
    let ridge: Vec<Hex> = map.hexes().filter(|&h| map.terrain(h) == slope).collect();
    assert!(ridge.len() >= 8, "{ridge:?}");
    assert!(ridge.iter().all(|&h| map.is_slope_hex(h)));
    let battery = place(&map, "Great battery");
    assert!(ridge.iter().any(|&h| h.distance(battery) <= 1));
    // just east of the village: a slope hex within two hexes of the village's edge
    let core = place(&map, "Möckern");
    assert!(ridge.iter().any(|&h| h.distance(core) <= 3));
    // its foot is a line of slope hexsides between the face and the plain ([8.4.6])
    let side = fid(&map, feature::SLOPE);
    let mut foot = 0;
    for &h in &ridge {
        for d in Dir::ALL {
            let n = h.neighbour(d);
            if map.contains(n) && map.terrain(n) != slope && map.hexside(h, d).has(side) {
                foot += 1;
            }
        }
    }
    assert!(foot >= 6, "{foot} slope hexsides at the ridge's foot");
}

#[test]
fn the_rietzschke_flanks_the_right_and_the_lane_crosses_it() {
    let map = shipped();
    let (stream, lane) = (fid(&map, feature::STREAM), fid(&map, feature::LANE));
    let kw = place(&map, "Klein-Wiederitzsch");
    assert!(
        map.touches(kw, stream) || kw.neighbours().iter().any(|&n| map.touches(n, stream)),
        "Klein-Wiederitzsch lies on the Rietzschke"
    );
    // the Klein-Wiederitzsch lane crosses it (a stream needs no bridge, [3.1.3.4])
    let crossing = map.hexes().any(|h| {
        Dir::ALL
            .iter()
            .any(|&d| map.hexside(h, d).has(stream.with(lane)))
    });
    assert!(crossing, "no lane crosses the Rietzschke");
    // on the right (east) of the table, behind Marmont's right
    for h in map.hexes().filter(|&h| map.touches(h, stream)) {
        assert!(h.y <= 5, "{h}");
    }
}

#[test]
fn the_roads_join_the_villages_and_cross_water_only_on_bridges() {
    let map = shipped();
    let g = moeckern::generate_detailed();
    let (road, lane, river, bridge) = (
        fid(&map, feature::ROAD),
        fid(&map, feature::LANE),
        fid(&map, feature::RIVER),
        fid(&map, feature::BRIDGE),
    );
    for r in &g.roads {
        assert!(
            r.hexes.windows(2).all(|w| w[0].distance(w[1]) == 1),
            "{} is not a chain",
            r.name
        );
    }
    // the Halle road: through Möckern and Wahren, from the bottom edge to the top edge
    let halle = g.roads.iter().find(|r| r.name == "Halle road").unwrap();
    for n in ["Möckern", "Wahren"] {
        let p = place(&map, n);
        assert!(halle.hexes.iter().any(|&h| h.distance(p) <= 1), "{n}");
    }
    let on: Vec<&Hex> = halle.hexes.iter().filter(|&&h| map.contains(h)).collect();
    assert!(on.iter().any(|h| h.x == 1) && on.iter().any(|h| h.x == 16));
    // every road or lane over the river is bridged, and every bridge carries one
    for h in map.hexes() {
        for d in Dir::ALL {
            let s = map.hexside(h, d);
            if s.has(river) && s.any(road.with(lane)) {
                assert!(s.has(bridge), "{h} {d:?}");
            }
            if s.has(bridge) {
                assert!(s.has(river) && s.any(road.with(lane)), "{h} {d:?}");
            }
        }
    }
}
