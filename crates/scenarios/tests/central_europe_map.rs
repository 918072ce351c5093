//! The reconstructed map of the strategic game of 1813 against its sources: the places of the
//! rulebook and of the research note where the projection puts them, every river crossing
//! bridged at its town, the passes through the mountains, the 1813 borders, the armistice line
//! and the map's size (docs/central-europe-map.md).

use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};

use hexmap::{Dir, Edge, Hex, Hexside, Map, CORNERS};
use scenarios::mapgen::europe::{
    self, feature, generate_detailed, hex_at, lat_lon, terrain, Generated, PlaceKind,
};

fn shipped() -> Map {
    Map::from_toml(europe::COMMITTED).expect("the committed map parses")
}

fn flag(m: &Map, id: &str) -> Hexside {
    m.legend().feature(id).unwrap()
}

fn is(m: &Map, h: Hex, id: &str) -> bool {
    m.terrain_kind(h).id == id
}

/// The printed hex of a place by name.
fn place(g: &Generated, name: &str) -> Hex {
    g.places
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no place {name}"))
        .hex
        .unwrap_or_else(|| panic!("{name} is off the map"))
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

/// Fewest steps from `from` to `to` by steps allowed by `step` (`None` if unreachable).
fn steps(m: &Map, from: Hex, to: Hex, step: impl Fn(Hex, Hex) -> bool) -> Option<u32> {
    let mut dist = BTreeMap::from([(from, 0u32)]);
    let mut q = VecDeque::from([from]);
    while let Some(a) = q.pop_front() {
        if a == to {
            return Some(dist[&a]);
        }
        for b in a.neighbours() {
            if m.contains(b) && !dist.contains_key(&b) && step(a, b) {
                dist.insert(b, dist[&a] + 1);
                q.push_back(b);
            }
        }
    }
    None
}

/// The region around `from` bounded by hexsides carrying `f`.
fn region(m: &Map, from: Hex, f: Hexside) -> BTreeSet<Hex> {
    reach(m, from, |a, b| !m.hexside_between(a, b).has(f))
}

/// Number of connected pieces of a set of hexsides (two hexsides meeting at a corner join).
fn pieces(sides: &BTreeSet<(Hex, Hex)>) -> usize {
    let key = |h: Hex, i: usize| {
        let (x, y) = h.centre();
        (
            ((x + CORNERS[i].0) * 1000.0).round() as i64,
            ((y + CORNERS[i].1) * 1000.0).round() as i64,
        )
    };
    let list: Vec<_> = sides
        .iter()
        .map(|&(a, b)| {
            let (i, j) = a.direction_to(b).unwrap().corners();
            (key(a, i), key(a, j))
        })
        .collect();
    let mut parent: Vec<usize> = (0..list.len()).collect();
    fn find(p: &mut Vec<usize>, i: usize) -> usize {
        if p[i] != i {
            let r = find(p, p[i]);
            p[i] = r;
        }
        p[i]
    }
    for i in 0..list.len() {
        for j in 0..i {
            let (a, b) = (list[i], list[j]);
            if a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1 {
                let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    (0..list.len())
        .filter(|&i| find(&mut parent, i) == i)
        .count()
}

#[test]
fn the_shipped_map_is_the_generated_one() {
    assert_eq!(shipped(), europe::generate());
}

#[test]
fn the_map_is_42_rows_of_50_hexes_from_gotha_to_breslau_and_the_havel_to_prague() {
    let m = shipped();
    assert_eq!((m.width(), m.height()), (42, 50));
    // the corners' centres: about 53.0 N 10.4 E (north-west) and 49.8 N 17.4 E (south-east)
    let (lat, lon) = lat_lon(Hex::new(1, 50));
    assert!(
        (52.9..53.1).contains(&lat) && (10.3..10.5).contains(&lon),
        "{lat} {lon}"
    );
    let (lat, lon) = lat_lon(Hex::new(42, 1));
    assert!(
        (49.7..49.9).contains(&lat) && (17.3..17.5).contains(&lon),
        "{lat} {lon}"
    );
    // the research note's edges: Gotha and Breslau on, Kassel and Stettin off
    assert!(m.contains(hex_at(50.95, 10.70)));
    assert!(m.contains(hex_at(51.11, 17.03)));
    assert!(!m.contains(hex_at(51.32, 9.50)), "Kassel");
    assert!(!m.contains(hex_at(53.43, 14.55)), "Stettin");
}

#[test]
fn a_hex_is_ten_kilometres_so_the_campaigns_distances_come_out_in_hexes() {
    // Counted in hexes, a straight line comes out up to a sixth longer than the crow flies.
    // Dresden-Leipzig is about 100 km, Berlin-Dresden 165 km, Breslau-Berlin 295 km.
    let g = generate_detailed();
    let d = |a: &str, b: &str| place(&g, a).distance(place(&g, b));
    for (a, b, km) in [
        ("Dresden", "Leipzig", 100),
        ("Berlin", "Dresden", 165),
        ("Breslau", "Berlin", 295),
    ] {
        let n = d(a, b);
        assert!(
            km / 10 <= n && n <= km * 12 / 100,
            "{a}-{b}: {n} hexes for {km} km"
        );
    }
    // the Gotha corps' free triple march of the first turn (3 x 4 = 12 hexes) reaches Lützen,
    // as the French, leaving Erfurt in the last days of April, fought there on 2 May; a
    // division's (3 x 5) reaches Leipzig
    assert!(d("Gotha", "Lützen") <= 12, "{}", d("Gotha", "Lützen"));
    assert!(d("Gotha", "Leipzig") <= 15, "{}", d("Gotha", "Leipzig"));
}

#[test]
fn every_named_place_lies_within_one_hex_of_where_the_projection_puts_it() {
    let g = generate_detailed();
    for p in &g.places {
        if let Some(h) = p.hex {
            assert!(
                h.distance(p.projected) <= 1,
                "{} printed in {h}, projected to {}",
                p.name,
                p.projected
            );
            assert_eq!(g.map.place_at(h), Some(p.name.as_str()));
        }
    }
    // every place the rulebook names is on the map, with its spelling recorded
    let rules: BTreeSet<&str> = g.places.iter().filter_map(|p| p.rules.as_deref()).collect();
    for name in [
        "Magdeburg",
        "Torgau",
        "Gotha",
        "Wittenberg",
        "Kustrin",
        "Glogau",
        "Dresden",
        "Chemnitz",
        "Leipzig",
        "Halle",
        "Rosslau",
        "Posen",
        "Breslau",
        "Berlin",
        "Prague",
    ] {
        assert!(rules.contains(name), "{name}");
    }
    for p in g.places.iter().filter(|p| p.rules.is_some()) {
        assert!(p.hex.is_some(), "{} is off the map", p.name);
    }
    // everything but Stettin and Kosel is on the map
    let off: Vec<&str> = g
        .places
        .iter()
        .filter(|p| p.hex.is_none())
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(off, ["Stettin", "Kosel"]);
}

#[test]
fn river_towns_lie_on_their_own_bank() {
    // Dresden's Altstadt on the left bank of the Elbe, Wittenberg on the right, Küstrin on the
    // right bank of the Oder, Glogau and Breslau on the left ...
    let g = generate_detailed();
    let mut n = 0;
    for d in &g.geography.places {
        let Some(b) = &d.bank else { continue };
        let h = place(&g, &d.name);
        assert_eq!(g.geography.bank_of(&b.river, h), Some(b.side), "{}", d.name);
        n += 1;
    }
    assert!(n >= 15);
}

#[test]
fn no_two_places_share_a_hex() {
    let m = shipped();
    let mut seen = BTreeMap::new();
    for p in &m.places {
        if let Some(o) = seen.insert(p.hex, &p.name) {
            panic!("{} and {o} share {}", p.name, p.hex);
        }
    }
}

#[test]
fn fortresses_are_city_fortress_hexes_and_cities_city_hexes() {
    let g = generate_detailed();
    let m = &g.map;
    for p in &g.places {
        let Some(h) = p.hex else { continue };
        match p.kind {
            PlaceKind::Fortress => assert!(is(m, h, terrain::CITY_FORTRESS), "{}", p.name),
            PlaceKind::City => assert!(is(m, h, terrain::CITY), "{}", p.name),
            _ => assert!(
                !is(m, h, terrain::CITY) && !is(m, h, terrain::CITY_FORTRESS),
                "{}",
                p.name
            ),
        }
    }
    // and no other hex is a city or a fortress
    let named: BTreeSet<Hex> = m.places.iter().map(|p| p.hex).collect();
    for h in m.hexes() {
        if is(m, h, terrain::CITY) || is(m, h, terrain::CITY_FORTRESS) {
            assert!(named.contains(&h), "{h}");
        }
    }
    // the fortresses of the deployment charts
    for f in [
        "Magdeburg",
        "Torgau",
        "Wittenberg",
        "Küstrin",
        "Glogau",
        "Dresden",
        "Prague",
    ] {
        assert!(is(m, place(&g, f), terrain::CITY_FORTRESS), "{f}");
    }
    assert!(
        is(m, place(&g, "Breslau"), terrain::CITY),
        "Breslau's walls were razed"
    );
}

#[test]
fn every_river_crossing_is_a_bridged_hexside_beside_its_town() {
    let g = generate_detailed();
    let m = &g.map;
    let (river, bridge) = (flag(m, feature::RIVER), flag(m, feature::BRIDGE));
    assert_eq!(g.crossings.len(), g.geography.crossings.len());
    let mut bridged = BTreeSet::new();
    for c in &g.crossings {
        let (a, b) = c.side;
        let s = m.hexside_between(a, b);
        assert!(s.has(river) && s.has(bridge), "{} at {}", c.river, c.town);
        let town = place(&g, &c.town);
        assert!(a == town || b == town, "{} at {}: {a}/{b}", c.river, c.town);
        let r = g.rivers.iter().find(|r| r.name == c.river).unwrap();
        assert!(r.hexsides.contains(&c.side), "{} at {}", c.river, c.town);
        bridged.insert(c.side);
    }
    // no other bridge, and every bridge is on a river
    for h in m.hexes() {
        for d in Dir::ALL {
            let n = h.neighbour(d);
            let s = m.hexside(h, d);
            if s.has(bridge) {
                assert!(s.has(river), "{h}/{n}");
                let k = if h < n { (h, n) } else { (n, h) };
                assert!(bridged.contains(&k), "stray bridge {h}/{n}");
            }
        }
    }
    // the crossings the research note names as the main ones of 1813
    for (r, towns) in [
        (
            "Elbe",
            &[
                "Königstein",
                "Pirna",
                "Dresden",
                "Meissen",
                "Torgau",
                "Wittenberg",
                "Elster",
                "Rosslau",
                "Aken",
                "Magdeburg",
            ][..],
        ),
        (
            "Oder",
            &[
                "Breslau",
                "Steinau",
                "Glogau",
                "Crossen",
                "Frankfurt",
                "Küstrin",
            ][..],
        ),
    ] {
        for t in towns {
            assert!(
                g.crossings.iter().any(|c| c.river == r && c.town == *t),
                "{r} at {t}"
            );
        }
    }
}

#[test]
fn each_river_is_one_chain_of_hexsides_and_the_tributaries_join_their_rivers() {
    let g = generate_detailed();
    for r in &g.rivers {
        assert!(!r.hexsides.is_empty(), "{}", r.name);
        assert_eq!(pieces(&r.hexsides), 1, "the {} is broken", r.name);
    }
    // the Elbe system is one network; so is the Oder's
    let system = |names: &[&str]| -> BTreeSet<(Hex, Hex)> {
        g.rivers
            .iter()
            .filter(|r| names.contains(&r.name.as_str()))
            .flat_map(|r| r.hexsides.iter().copied())
            .collect()
    };
    let elbe = [
        "Elbe",
        "Saale",
        "Elster",
        "Mulde",
        "Freiberger Mulde",
        "Spree",
        "Havel",
        "Vltava",
        "Eger",
    ];
    assert_eq!(pieces(&system(&elbe)), 1);
    let oder = ["Oder", "Neisse", "Bober", "Katzbach", "Warthe"];
    assert_eq!(pieces(&system(&oder)), 1);
}

#[test]
fn the_rivers_cut_the_ground_and_the_bridges_join_it() {
    let m = shipped();
    let g = generate_detailed();
    let (river, bridge) = (flag(&m, feature::RIVER), flag(&m, feature::BRIDGE));
    let dry = |a: Hex, b: Hex| !m.hexside_between(a, b).has(river);
    let bridged = |a: Hex, b: Hex| {
        let s = m.hexside_between(a, b);
        !s.has(river) || s.has(bridge)
    };
    // the Elbe (and the Spree and the Havel) stand between Berlin and the west bank
    let berlin = reach(&m, place(&g, "Berlin"), dry);
    for p in [
        "Leipzig",
        "Dresden",
        "Magdeburg",
        "Prague",
        "Gotha",
        "Halle",
    ] {
        assert!(
            !berlin.contains(&place(&g, p)),
            "Berlin reaches {p} without a crossing"
        );
    }
    // ... and the bridges join the whole map
    let all = reach(&m, place(&g, "Berlin"), bridged);
    for p in [
        "Leipzig",
        "Dresden",
        "Magdeburg",
        "Breslau",
        "Prague",
        "Gotha",
        "Posen",
    ] {
        assert!(
            all.contains(&place(&g, p)),
            "Berlin cannot reach {p} over the bridges"
        );
    }
}

#[test]
fn each_pass_leads_through_its_mountains_from_entry_hex_to_entry_hex() {
    let g = generate_detailed();
    let m = &g.map;
    let pass_road = flag(m, feature::PASS);
    let high = |h: Hex| is(m, h, terrain::MOUNTAIN) || is(m, h, terrain::PASS);
    for p in &g.passes {
        assert!(
            !p.pass_hexes.is_empty(),
            "the {} pass crosses no mountain",
            p.name
        );
        let on: Vec<Hex> = p.chain.iter().copied().filter(|&h| m.contains(h)).collect();
        let (first, last) = (on[0], *on.last().unwrap());
        assert!(
            !high(first) && !high(last),
            "the {} pass ends in the mountains",
            p.name
        );
        for &h in &p.pass_hexes {
            assert!(is(m, h, terrain::PASS), "{}: {h}", p.name);
        }
        // a supply unit or cavalry (never entering mountains) goes through: into a pass hex
        // only along the pass road
        let way = |a: Hex, b: Hex| {
            if is(m, b, terrain::MOUNTAIN) {
                return false;
            }
            !is(m, b, terrain::PASS) || m.hexside_between(a, b).has(pass_road)
        };
        let n = steps(m, first, last, way);
        assert!(
            n.is_some_and(|n| n as usize <= on.len()),
            "the {} pass: {first} to {last} takes {n:?} steps",
            p.name
        );
    }
}

#[test]
fn no_pass_road_crosses_an_unbridged_river() {
    let m = shipped();
    let (pass, river, bridge) = (
        flag(&m, feature::PASS),
        flag(&m, feature::RIVER),
        flag(&m, feature::BRIDGE),
    );
    for h in m.hexes() {
        for d in Dir::ALL {
            let s = m.hexside(h, d);
            if s.has(pass) && s.has(river) {
                assert!(s.has(bridge), "{h}/{}", h.neighbour(d));
            }
        }
    }
}

#[test]
fn the_erzgebirge_is_crossed_only_by_its_passes() {
    let g = generate_detailed();
    let m = &g.map;
    let pass_road = flag(m, feature::PASS);
    let (dresden, teplitz) = (place(&g, "Dresden"), place(&g, "Teplitz"));
    let lowland = |_: Hex, b: Hex| !is(m, b, terrain::MOUNTAIN) && !is(m, b, terrain::PASS);
    let by_pass = |a: Hex, b: Hex| {
        !is(m, b, terrain::MOUNTAIN)
            && (!is(m, b, terrain::PASS) || m.hexside_between(a, b).has(pass_road))
    };
    let round = steps(m, dresden, teplitz, lowland);
    let over = steps(m, dresden, teplitz, by_pass).expect("a pass leads from Dresden to Teplitz");
    assert!(over <= 7, "{over}");
    // round the mountains is the long way, by Plauen and Eger
    assert!(
        round.is_none_or(|r| r >= 3 * over),
        "{round:?} against {over}"
    );
}

#[test]
fn the_named_passes_are_on_the_map() {
    let g = generate_detailed();
    let names: BTreeSet<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
    for n in [
        "Nollendorf",
        "Geiersberg",
        "Zinnwald",
        "Sayda",
        "Sebastiansberg",
        "Kaaden",
        "Elbe valley",
        "Rumburg",
        "Gabel",
        "Friedland",
        "Landeshut",
        "Nachod",
    ] {
        assert!(names.contains(n), "{n}");
    }
    // Glatz, in its ring of mountains, is the entry hex of the Nachod pass into Bohemia
    let m = &g.map;
    let glatz = place(&g, "Glatz");
    let nachod = g.passes.iter().find(|p| p.name == "Nachod").unwrap();
    assert_eq!(nachod.chain[0], glatz);
    assert!(glatz
        .neighbours()
        .iter()
        .any(|&n| m.contains(n) && m.hexside_between(glatz, n).has(flag(m, feature::PASS))));
}

#[test]
fn austria_is_bohemia_within_its_border() {
    let g = generate_detailed();
    let m = &g.map;
    let austria = region(m, place(&g, "Prague"), flag(m, feature::BORDER));
    for p in [
        "Prague",
        "Theresienstadt",
        "Leitmeritz",
        "Teplitz",
        "Kulm",
        "Aussig",
        "Josephstadt",
        "Königgrätz",
        "Eger",
        "Laun",
        "Melnik",
        "Reichenberg",
        "Trautenau",
        "Nachod",
        "Kaaden",
        "Komotau",
        "Gabel",
        "Rumburg",
        "Friedland",
    ] {
        assert!(austria.contains(&place(&g, p)), "{p} is not in Austria");
    }
    for p in [
        "Dresden",
        "Pirna",
        "Königstein",
        "Zittau",
        "Glatz",
        "Hof",
        "Bayreuth",
        "Chemnitz",
        "Freiberg",
        "Marienberg",
        "Landeshut",
        "Schweidnitz",
        "Neisse",
        "Breslau",
        "Lauban",
        "Görlitz",
        "Hirschberg",
    ] {
        assert!(!austria.contains(&place(&g, p)), "{p} is in Austria");
    }
    // Austria meets the south edge and the east edge, and the south edge runs on west of it
    // (where the Bavarians of the defection rule enter)
    let edges: HashSet<Edge> = austria.iter().flat_map(|&h| m.edges_of(h)).collect();
    assert!(edges.contains(&Edge::South) && edges.contains(&Edge::East));
    assert!(!edges.contains(&Edge::North) && !edges.contains(&Edge::West));
    let south = m.edge_hexes(Edge::South);
    assert!(south.iter().filter(|h| !austria.contains(h)).count() >= 15);
}

#[test]
fn the_other_borders_of_1813_bound_saxony_prussia_and_the_duchy_of_warsaw() {
    let g = generate_detailed();
    let m = &g.map;
    let border = flag(m, feature::BORDER);
    let saxony = region(m, place(&g, "Dresden"), border);
    for p in [
        "Dresden",
        "Leipzig",
        "Torgau",
        "Wittenberg",
        "Meissen",
        "Chemnitz",
        "Bautzen",
        "Görlitz",
        "Zittau",
        "Freiberg",
        "Naumburg",
        "Pirna",
        "Königstein",
        "Lauban",
    ] {
        assert!(saxony.contains(&place(&g, p)), "{p} is not in Saxony");
    }
    for p in [
        "Berlin",
        "Halle",
        "Magdeburg",
        "Erfurt",
        "Weimar",
        "Prague",
        "Hof",
        "Gotha",
        "Breslau",
    ] {
        assert!(!saxony.contains(&place(&g, p)), "{p} is in Saxony");
    }
    let prussia = region(m, place(&g, "Berlin"), border);
    for p in [
        "Berlin",
        "Spandau",
        "Küstrin",
        "Frankfurt",
        "Potsdam",
        "Glogau",
        "Breslau",
        "Liegnitz",
        "Glatz",
        "Schweidnitz",
        "Neisse",
        "Havelberg",
    ] {
        assert!(prussia.contains(&place(&g, p)), "{p} is not in Prussia");
    }
    for p in ["Posen", "Magdeburg", "Dresden", "Prague", "Leipzig"] {
        assert!(!prussia.contains(&place(&g, p)), "{p} is in Prussia");
    }
    let warsaw = region(m, place(&g, "Posen"), border);
    assert!(!warsaw.contains(&place(&g, "Glogau")) && !warsaw.contains(&place(&g, "Küstrin")));
}

#[test]
fn the_armistice_line_runs_from_the_north_west_edge_to_the_east_edge() {
    let g = generate_detailed();
    let m = &g.map;
    let line = flag(m, feature::ARMISTICE);
    assert_eq!(pieces(&g.armistice.hexsides), 1, "the line is broken");
    // the Allied side, north-east (Northern Prussia)
    let allied = region(m, place(&g, "Berlin"), line);
    for p in [
        "Berlin",
        "Spandau",
        "Potsdam",
        "Küstrin",
        "Frankfurt",
        "Posen",
        "Havelberg",
    ] {
        assert!(
            allied.contains(&place(&g, p)),
            "{p} is not on the Allied side"
        );
    }
    // the French side, south-west, with the rest but Austria
    let french = region(m, place(&g, "Leipzig"), line);
    for p in [
        "Leipzig",
        "Dresden",
        "Magdeburg",
        "Torgau",
        "Wittenberg",
        "Gotha",
        "Glogau",
        "Liegnitz",
        "Breslau",
        "Prague",
    ] {
        assert!(
            french.contains(&place(&g, p)),
            "{p} is not on the French side"
        );
    }
    assert!(allied.is_disjoint(&french));
    assert_eq!(
        allied.len() + french.len(),
        m.hexes().count(),
        "the line leaves an island"
    );
    let edges =
        |r: &BTreeSet<Hex>| -> HashSet<Edge> { r.iter().flat_map(|&h| m.edges_of(h)).collect() };
    let (a, f) = (edges(&allied), edges(&french));
    assert!(a.contains(&Edge::North) && a.contains(&Edge::East), "{a:?}");
    assert!(!a.contains(&Edge::South), "{a:?}");
    // it meets the north edge in the west half of the map and the east edge
    let north_west = m
        .edge_hexes(Edge::North)
        .into_iter()
        .chain(m.edge_hexes(Edge::West))
        .filter(|h| h.y > 25)
        .any(|h| allied.contains(&h) && Dir::ALL.iter().any(|&d| m.hexside(h, d).has(line)));
    assert!(north_west);
    assert!(
        f.contains(&Edge::East),
        "the French corridor reaches the east edge"
    );
    // under the Austrian intervention the Austrian border is its second part: the French
    // territory is then a corridor from west to east between the two
    let austria = region(m, place(&g, "Prague"), flag(m, feature::BORDER));
    let corridor = reach(m, place(&g, "Leipzig"), |a, b| {
        !m.hexside_between(a, b).has(line) && !austria.contains(&b)
    });
    let ends = edges(&corridor);
    assert!(
        ends.contains(&Edge::West) && ends.contains(&Edge::East),
        "{ends:?}"
    );
    assert!(!corridor.contains(&place(&g, "Prague")));
    assert!(corridor.contains(&place(&g, "Gotha")) && corridor.contains(&place(&g, "Glatz")));
}
