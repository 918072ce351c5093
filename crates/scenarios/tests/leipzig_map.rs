//! The reconstructed Battle of Nations map against what the rulebook requires of it: every
//! set-up hex (14.1-14.5, first and third day) is a legal place to stand, the reinforcement
//! entry hexes (15.5) are road hexes on their edges, the French line of communications (17.5)
//! runs over the Lindenau causeway bridges to 2131, the rivers cut the field into the sectors
//! the battle was fought in, and the places the battle turned on are where they were.

use std::collections::{BTreeSet, VecDeque};

use hexmap::{Dir, Hex, Hexside, Map, Terrain};
use scenarios::mapgen::{self, geom};

fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

fn hexes(list: &[&str]) -> Vec<Hex> {
    list.iter().map(|s| h(s)).collect()
}

fn shipped() -> Map {
    Map::from_toml(scenarios::map_text("leipzig").unwrap()).unwrap()
}

// Set-up hexes transcribed from the Initial Deployment Chart (14.1-14.5) of file 1, which the
// errata of RULES-NOTES.md confirm against file 2's OCR slips ("destroyed" and "absent" omitted).

/// 14.1, first day (also the Grand Battle).
const FRENCH_FIRST: &[&str] = &[
    "2315", "2314", "2313", "0518", "0614", "0917", "0817", "0717", "2312", "2311", "2210", "0819",
    "0921", "1018", "2316", "0310", "1712", "1811", "1810", "0809", "0709", "0708", "0607", "1522",
    "1918", "1715", "1714", "1913", "1813", "1914", "1814", "1713", "1915", "0507", "1322", "2115",
    "2012",
];
/// 14.1, third day.
const FRENCH_THIRD: &[&str] = &[
    "1914", "2015", "2016", "1214", "1315", "1726", "1725", "1624", "1812", "1813", "1814", "1013",
    "1014", "1918", "1716", "1816", "1817", "1609", "1610", "1710", "1811", "1125", "1615", "1715",
    "1421", "1714", "1521", "1614", "1713", "1613", "1410", "1216", "1717", "1215", "1217", "1113",
    "1212",
];
/// 14.2-14.4, first day.
const ALLIED_FIRST: &[&str] = &[
    // Prussian
    "0529", "0429", "0330", "0230", "0131", "2516", "2515", "2615", "2614", // Austrian
    "2720", "2619", "2029", "2030", "2605", "2504", "2820", "2920", "2303", "2912", "2913",
    "2511", // Russian
    "2710", "2709", "2514", "2513",
];
/// 14.2-14.5, third day.
const ALLIED_THIRD: &[&str] = &[
    // Prussian
    "0918", "0817", "0919", "0921", "2612", "2613", "2614", "2615", "0607", "0507", "0406", "0405",
    "0809", "2611", // Austrian
    "2317", "2422", "2424", "2306", "2406", "2318", "2319", "2003", "2510", "2509", "2609", "2105",
    "2205", // Russian
    "2507", "2508", "1119", "1018", "1019", "0717", "0715", "0716", "0615", "0616", "0718", "0617",
    "0518", "0409", "0309", "0308", "0207", "2511", "2512", "2506", "2505", "2604",
    "2603", // Swedish
    "0314", "0315", "0215",
];

/// Reinforcement entry hexes (15.51-15.55) and the edge each is on.
const ENTRIES: &[(&str, Dir, Dir)] = &[
    // (hex, the two directions of hexsides on that edge)
    ("0103", Dir::NE, Dir::NW),
    ("0117", Dir::NE, Dir::NW),
    ("0125", Dir::NE, Dir::NW),
    ("0131", Dir::NE, Dir::NW),
    ("2901", Dir::SE, Dir::SW),
    ("2915", Dir::SE, Dir::SW),
];

/// The French line of communications hex (17.5).
const LOC: &str = "2131";

fn all_setup() -> Vec<Hex> {
    [FRENCH_FIRST, FRENCH_THIRD, ALLIED_FIRST, ALLIED_THIRD]
        .iter()
        .flat_map(|l| hexes(l))
        .collect()
}

/// True when a unit may step from `a` into the adjacent `b` (5.24, 9.0): not over an unbridged
/// river, and into marsh only through a road hexside from a road hex.
fn can_step(m: &Map, a: Hex, b: Hex) -> bool {
    if !m.contains(b) {
        return false;
    }
    let s = m.hexside_between(a, b);
    if s.has(Hexside::RIVER) && !s.has(Hexside::BRIDGE) {
        return false;
    }
    if m.terrain(b) == Terrain::Marsh && !s.has(Hexside::ROAD) {
        return false;
    }
    true
}

/// Hexes reachable from `from` by steps allowed by `step`.
fn reach(m: &Map, from: Hex, step: impl Fn(Hex, Hex) -> bool) -> BTreeSet<Hex> {
    let mut seen = BTreeSet::from([from]);
    let mut q = VecDeque::from([from]);
    while let Some(a) = q.pop_front() {
        for b in a.neighbours() {
            if m.contains(b) && !seen.contains(&b) && step(a, b) {
                seen.insert(b);
                q.push_back(b);
            }
        }
    }
    seen
}

#[test]
fn the_shipped_map_is_the_generated_one() {
    assert_eq!(shipped(), mapgen::generate_leipzig());
    let m = shipped();
    assert_eq!((m.width(), m.height()), (29, 31));
}

#[test]
fn set_up_hexes_are_on_the_map_and_not_marsh() {
    let m = shipped();
    for hx in all_setup() {
        assert!(m.contains(hx), "{hx} is off the map");
        assert_ne!(m.terrain(hx), Terrain::Marsh, "set-up hex {hx} is marsh");
    }
}

#[test]
fn no_set_up_hex_is_shut_in() {
    // a unit set up anywhere can move somewhere: no hex is ringed by rivers and marsh
    let m = shipped();
    for hx in all_setup() {
        let out = hx
            .neighbours()
            .into_iter()
            .filter(|&n| can_step(&m, hx, n))
            .count();
        assert!(out >= 2, "set-up hex {hx} has only {out} way(s) out");
        assert!(
            reach(&m, hx, |a, b| can_step(&m, a, b)).len() > 40,
            "set-up hex {hx} is in a small pocket"
        );
    }
}

#[test]
fn entry_hexes_are_road_hexes_on_their_edge_leading_inward() {
    let m = shipped();
    let by_road = reach(&m, h("1418"), |a, b| {
        m.hexside_between(a, b).has(Hexside::ROAD)
    });
    for &(s, d1, d2) in ENTRIES {
        let hx = h(s);
        assert!(m.contains(hx), "{s}");
        assert!(
            m.touches(hx, Hexside::ROAD),
            "entry hex {s} is not a road hex"
        );
        // the road comes in across the map edge
        assert!(
            m.hexside(hx, d1).has(Hexside::ROAD) || m.hexside(hx, d2).has(Hexside::ROAD),
            "the road does not leave the map edge at {s}"
        );
        assert!(
            !m.contains(hx.neighbour(d1)) && !m.contains(hx.neighbour(d2)),
            "{s} edge"
        );
        // and leads inward, all the way to the town
        let inward = hx
            .neighbours()
            .into_iter()
            .any(|n| m.contains(n) && m.hexside_between(hx, n).has(Hexside::ROAD));
        assert!(inward, "no road leads inward from {s}");
        assert!(
            by_road.contains(&hx),
            "{s} is not joined to Leipzig by road"
        );
        assert_ne!(m.terrain(hx), Terrain::Marsh, "{s}");
    }
}

#[test]
fn the_lutzen_road_leaves_the_west_edge_at_2131_and_runs_to_the_town() {
    let m = shipped();
    let loc = h(LOC);
    assert_eq!(m.edges_of(loc), vec![hexmap::Edge::West]);
    assert!(m.touches(loc, Hexside::ROAD));
    assert!(
        m.hexside(loc, Dir::W).has(Hexside::ROAD),
        "the Lützen road must cross the west edge at 2131"
    );
    let by_road = reach(&m, loc, |a, b| m.hexside_between(a, b).has(Hexside::ROAD));
    assert!(by_road.contains(&h("1422")), "2131 to Lindenau by road");
    assert!(by_road.contains(&h("1418")), "2131 to Leipzig by road");
}

#[test]
fn the_lindenau_causeway_crosses_the_rivers_on_bridges() {
    let m = shipped();
    // road route from Lindenau to the Markt, counting bridges
    let mut prev: std::collections::BTreeMap<Hex, Hex> = Default::default();
    let start = h("1422");
    let goal = h("1418");
    let mut q = VecDeque::from([start]);
    prev.insert(start, start);
    while let Some(a) = q.pop_front() {
        for b in a.neighbours() {
            if m.contains(b) && !prev.contains_key(&b) && m.hexside_between(a, b).has(Hexside::ROAD)
            {
                prev.insert(b, a);
                q.push_back(b);
            }
        }
    }
    assert!(prev.contains_key(&goal), "no road from Lindenau to Leipzig");
    let mut bridges = 0;
    let mut at = goal;
    while at != start {
        let p = prev[&at];
        if m.hexside_between(p, at).has(Hexside::BRIDGE) {
            bridges += 1;
        }
        at = p;
    }
    assert!(
        bridges >= 2,
        "the causeway has {bridges} bridge(s); the Elster and its arms need several"
    );
}

#[test]
fn the_french_can_trace_their_line_of_communications_to_2131() {
    let m = shipped();
    let from_loc = reach(&m, h(LOC), |a, b| can_step(&m, b, a));
    for hx in hexes(FRENCH_FIRST).into_iter().chain(hexes(FRENCH_THIRD)) {
        assert!(
            from_loc.contains(&hx),
            "French set-up hex {hx} has no path to {LOC} that avoids unbridged rivers"
        );
    }
}

#[test]
fn the_rivers_cut_the_field_into_sectors() {
    let m = shipped();
    // a step that crosses no river at all (bridged or not) and keeps to the marsh rule
    let no_bridge = |a: Hex, b: Hex| {
        let s = m.hexside_between(a, b);
        !s.has(Hexside::RIVER) && (m.terrain(b) != Terrain::Marsh || s.has(Hexside::ROAD))
    };
    let west = reach(&m, h("1422"), no_bridge); // Lindenau
    for east in ["1418", "0921", "2314", "2316", "1918"] {
        assert!(
            !west.contains(&h(east)),
            "from Lindenau to {east} without a bridge"
        );
    }
    // the Parthe: Möckern (north) and Wachau (south) only meet over a bridge
    let north = reach(&m, h("0921"), no_bridge);
    assert!(
        !north.contains(&h("2314")),
        "Möckern to Wachau without a bridge"
    );
    assert!(
        !north.contains(&h("1418")),
        "Möckern to Leipzig without a bridge"
    );
    // and with bridges everything of the battle is one field
    let all = reach(&m, h("1418"), |a, b| can_step(&m, a, b));
    for hx in [
        "1422", "0921", "2314", "0708", "2029", "2720", "0131", "2131",
    ] {
        assert!(
            all.contains(&h(hx)),
            "{hx} cannot be reached from Leipzig at all"
        );
    }
}

#[test]
fn each_river_is_a_continuous_chain_of_hexsides() {
    let g = mapgen::generate_leipzig_detailed();
    for w in g.water.iter().filter(|w| w.river) {
        assert!(!w.hexsides.is_empty(), "{} is not on the map", w.name);
        // hexsides are joined when they share a corner: the corner where hexes a, b and c meet
        let corners = |&(a, b): &(Hex, Hex)| -> Vec<BTreeSet<Hex>> {
            a.neighbours()
                .into_iter()
                .filter(|c| c.distance(b) == 1)
                .map(|c| BTreeSet::from([a, b, c]))
                .collect()
        };
        let sides: Vec<(Hex, Hex)> = w.hexsides.iter().copied().collect();
        let mut seen = vec![false; sides.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            let ci = corners(&sides[i]);
            for j in 0..sides.len() {
                if !seen[j] && corners(&sides[j]).iter().any(|c| ci.contains(c)) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        let loose: Vec<_> = sides
            .iter()
            .zip(&seen)
            .filter(|(_, s)| !**s)
            .map(|(s, _)| format!("{}/{}", s.0, s.1))
            .collect();
        assert!(loose.is_empty(), "{} is broken: {loose:?}", w.name);
    }
    // and every river hexside of the map belongs to one of them
    let m = &g.map;
    for a in m.hexes() {
        for d in Dir::ALL {
            let b = a.neighbour(d);
            if m.contains(b) && m.hexside(a, d).has(Hexside::RIVER) {
                let s = if a < b { (a, b) } else { (b, a) };
                assert!(
                    g.water.iter().any(|w| w.river && w.hexsides.contains(&s)),
                    "{a}/{b}"
                );
            }
        }
    }
}

#[test]
fn bridges_are_on_rivers_and_roads_over_rivers_have_bridges() {
    let m = shipped();
    for a in m.hexes() {
        for d in Dir::ALL {
            let s = m.hexside(a, d);
            if s.has(Hexside::BRIDGE) {
                assert!(s.has(Hexside::RIVER), "bridge without a river at {a} {d:?}");
            }
            if s.has(Hexside::ROAD) && s.has(Hexside::RIVER) {
                assert!(
                    s.has(Hexside::BRIDGE),
                    "road over a river without a bridge at {a}"
                );
            }
            assert!(
                !(s.has(Hexside::RIVER) && s.has(Hexside::STREAM)),
                "river and stream on one hexside at {a}"
            );
        }
    }
}

#[test]
fn roads_are_continuous() {
    let g = mapgen::generate_leipzig_detailed();
    for r in &g.roads {
        assert!(
            r.hexes.windows(2).all(|w| w[0].distance(w[1]) == 1),
            "{} has a gap",
            r.name
        );
        assert!(r.hexes.iter().any(|&x| g.map.contains(x)), "{}", r.name);
    }
}

/// Places from shared/research/leipzig-geography.md, km east and north of the Markt.
const PLACES: &[(&str, f64, f64, bool)] = &[
    // (name, x, y, must be town terrain)
    ("Leipzig", 0.0, 0.0, true),
    ("Lindenau", -3.6, -0.2, true),
    ("Möckern", -2.2, 3.1, true),
    ("Wachau", 3.8, -6.9, true),
    ("Liebertwolkwitz", 6.2, -6.4, true),
    ("Markkleeberg", 1.6, -7.0, true),
    ("Connewitz", 0.3, -3.1, true),
    ("Probstheida", 3.5, -3.8, true),
    ("Schönefeld", 2.4, 2.2, true),
    ("Paunsdorf", 5.3, 0.9, true),
    ("Taucha", 8.2, 4.4, true),
    ("Gohlis", -0.6, 2.3, false),
    ("Eutritzsch", 0.7, 3.1, false),
    ("Stötteritz", 3.0, -2.4, false),
    ("Holzhausen", 6.3, -2.9, false),
    ("Güldengossa", 4.8, -9.3, false),
    ("Seifertshain", 9.8, -5.3, false),
    ("Großzschocher", -3.4, -4.4, false),
    ("Wahren", -3.7, 3.9, false),
    ("Lützschena", -6.6, 4.8, false),
    ("Lindenau causeway", -2.2, -0.1, false),
];

#[test]
fn the_places_the_battle_turned_on_are_where_they_were() {
    let m = shipped();
    assert_eq!(m.place_at(h("1418")), Some("Leipzig"));
    for &(name, x, y, town) in PLACES {
        let p = m
            .places
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("{name} is not named on the map"));
        let want = geom::hex_at_km(x, y);
        assert!(
            p.hex.distance(want) <= 1,
            "{name} is printed in {} but the ground puts it in {want}",
            p.hex
        );
        if town {
            assert_eq!(
                m.terrain(p.hex),
                Terrain::Town,
                "{name} ({}) is not a town",
                p.hex
            );
        }
    }
}

#[test]
fn the_fit_anchors_agree_with_the_set_up() {
    // the nine unit-to-place pairs the transform was fitted to: each set-up hex is within a
    // hex of where its place falls
    for (hx, x, y) in [
        ("2314", 3.8, -6.9),  // Victor at Wachau
        ("2311", 6.2, -6.4),  // Lauriston at Liebertwolkwitz
        ("0921", -2.2, 3.1),  // Marmont at Möckern
        ("2316", 1.6, -7.0),  // Poniatowski at Markkleeberg
        ("1814", 3.5, -3.8),  // the Guard at Probstheida
        ("0708", 8.2, 4.4),   // Macdonald at Taucha
        ("2513", 4.8, -9.3),  // Eugen at Güldengossa
        ("1918", 0.3, -3.1),  // the garrison at Connewitz
        ("1522", -2.2, -0.1), // the garrison at the Lindenau causeway
    ] {
        assert!(
            h(hx).distance(geom::hex_at_km(x, y)) <= 1,
            "{hx} vs {}",
            geom::hex_at_km(x, y)
        );
    }
}

#[test]
fn no_two_places_share_a_hex() {
    let m = shipped();
    let mut seen = BTreeSet::new();
    for p in &m.places {
        assert!(
            seen.insert(p.hex),
            "{} shares hex {} with another place",
            p.name,
            p.hex
        );
    }
}
