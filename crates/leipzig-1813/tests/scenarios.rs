//! The eight scenarios against the rulebook's charts: each side's forces counted as the charts
//! count them, every place on the map, reinforcements within the game, the set-up hexes.

use leipzig_1813::data::Tables;
use leipzig_1813::europe::{Area, Europe};
use leipzig_1813::scenario::{
    AustriaAccess, Force, Location, Scenario, REINFORCEMENTS_TOML, SCENARIO_TOML,
};
use leipzig_1813::units::Units;

fn force(infantry: u32, cavalry: u32, supply: u32, depots: u32, leaders: &[u8]) -> Force {
    let mut leaders = leaders.to_vec();
    leaders.sort_unstable();
    Force {
        infantry,
        cavalry,
        supply,
        depots,
        leaders,
    }
}

fn total(s: &Scenario, side: &str) -> Force {
    let mut f = s.setup_total(side);
    f.leaders.sort_unstable();
    f
}

fn load(text: &str) -> Result<Scenario, String> {
    Scenario::from_toml(
        text,
        REINFORCEMENTS_TOML,
        &Europe::central_europe(),
        &Units::leipzig(),
        &Tables::leipzig(),
    )
    .map_err(|e| e.to_string())
}

const FRENCH_SPRING: [u8; 8] = [1, 3, 4, 5, 6, 7, 8, 10];
const ALLIED_SPRING: [u8; 6] = [2, 3, 5, 7, 8, 10];
const ALL: [u8; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

#[test]
fn each_scenario_sets_up_the_totals_its_charts_print() {
    // (scenario, French, Allied): the totals the charts and the scenarios' text print.
    let expected = [
        (
            1,
            force(23, 5, 4, 0, &FRENCH_SPRING),
            force(15, 10, 8, 3, &ALLIED_SPRING),
        ),
        (
            2,
            force(30, 8, 5, 1, &ALL),
            force(15, 10, 8, 3, &ALLIED_SPRING),
        ),
        (
            3,
            force(23, 5, 4, 0, &FRENCH_SPRING),
            force(29, 12, 9, 3, &[1, 2, 3, 5, 6, 7, 8, 10]),
        ),
        (
            4,
            force(30, 8, 5, 1, &ALL),
            force(29, 12, 9, 3, &[1, 2, 3, 5, 6, 7, 8, 10]),
        ),
        (5, force(32, 10, 7, 3, &ALL), force(48, 14, 9, 2, &ALL)),
        (6, force(46, 14, 10, 3, &ALL), force(48, 14, 9, 2, &ALL)),
        (
            7,
            force(32, 10, 7, 3, &ALL),
            force(28, 12, 6, 1, &[2, 4, 7, 8, 9, 10]),
        ),
        (
            8,
            force(23, 5, 4, 0, &FRENCH_SPRING),
            force(15, 10, 8, 3, &ALLIED_SPRING),
        ),
    ];
    let all = Scenario::all();
    assert_eq!(all.len(), 8);
    for (n, french, allied) in expected {
        let s = &all[n - 1];
        assert_eq!(s.id, format!("leipzig1813-{n}"));
        assert_eq!(total(s, "French"), french, "scenario {n}, French");
        assert_eq!(total(s, "Allied"), allied, "scenario {n}, Allied");
        assert_eq!(
            (s.first_player.as_str(), s.deploys_first.as_str()),
            ("French", "Allied")
        );
    }
}

#[test]
fn the_spring_and_summer_charts_place_by_place() {
    let s1 = Scenario::leipzig(1).unwrap();
    let on = |s: &Scenario, side: &str, place: &str| -> Force {
        let mut f = Force::default();
        for p in s.setup.iter().filter(|p| p.side == side) {
            if matches!(&p.location, Location::Place { name, .. } if name == place) {
                f.add(&p.force);
            }
        }
        f
    };
    // French spring, directly on (printed columns, unambiguous).
    assert_eq!(
        on(&s1, "French", "Magdeburg"),
        force(6, 1, 1, 0, &[6, 8, 10])
    );
    assert_eq!(on(&s1, "French", "Torgau"), force(2, 1, 0, 0, &[]));
    assert_eq!(
        on(&s1, "French", "Gotha"),
        force(12, 3, 3, 0, &[1, 3, 4, 5, 7])
    );
    for f in ["Wittenberg", "Kustrin", "Glogau"] {
        assert_eq!(on(&s1, "French", f), force(1, 0, 0, 0, &[]), "{f}");
    }
    // Scenario 2: Gotha's units replaced.
    let s2 = Scenario::leipzig(2).unwrap();
    assert_eq!(
        on(&s2, "French", "Gotha"),
        force(19, 6, 4, 1, &[1, 2, 3, 4, 5, 7, 9])
    );
    // Allied spring: eleven places, within two hexes; the shares are our reading (L19).
    let places: Vec<&str> = s1
        .setup
        .iter()
        .filter(|p| p.side == "Allied")
        .map(|p| match &p.location {
            Location::Place { name, radius, .. } => {
                assert_eq!(*radius, 2, "{name}");
                name.as_str()
            }
            Location::Area(a) => panic!("{a:?}"),
        })
        .collect();
    assert_eq!(
        places,
        [
            "Dresden",
            "Chemnitz",
            "Leipzig",
            "Halle",
            "Rosslau",
            "Posen",
            "Breslau",
            "Berlin",
            "Kustrin",
            "Glogau",
            "Wittenberg"
        ]
    );
    assert_eq!(on(&s1, "Allied", "Leipzig").leaders, [5, 8]);
    // Allied summer, printed rows.
    let s5 = Scenario::leipzig(5).unwrap();
    assert_eq!(on(&s5, "Allied", "Posen"), force(6, 2, 2, 0, &[9]));
    assert_eq!(on(&s5, "Allied", "Berlin"), force(10, 8, 2, 1, &[4, 7, 10]));
    assert_eq!(on(&s5, "Allied", "Breslau"), force(8, 2, 2, 0, &[2, 8]));
    assert_eq!(on(&s5, "Allied", "Kustrin"), force(2, 0, 0, 0, &[]));
    assert_eq!(on(&s5, "French", "Dresden"), force(0, 0, 0, 2, &[]));
    assert_eq!(on(&s5, "French", "Torgau"), force(0, 0, 0, 1, &[]));
    let austria: Vec<_> = s5
        .setup
        .iter()
        .filter(|p| p.location == Location::Area(Area::Austria))
        .collect();
    assert_eq!(austria.len(), 1);
    assert_eq!(austria[0].force, force(20, 2, 3, 1, &[1, 3, 5, 6]));
    assert_eq!(austria[0].nationality.as_deref(), Some("Austrian"));
    let s7 = Scenario::leipzig(7).unwrap();
    assert!(s7
        .setup
        .iter()
        .all(|p| p.location != Location::Area(Area::Austria)));
}

#[test]
fn every_place_of_the_charts_resolves_on_the_map() {
    let e = Europe::central_europe();
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
        let h = e.place(name).unwrap_or_else(|m| panic!("{m}"));
        assert!(e.map.contains(h), "{name}");
    }
    // The rulebook's spelling and the map's print resolve to one hex.
    assert_eq!(e.place("Kustrin"), e.place("Küstrin"));
    for s in Scenario::all() {
        for p in s
            .setup
            .iter()
            .chain(&s.reinforcements)
            .chain(&s.intervention)
        {
            if let Location::Place { name, hex, .. } = &p.location {
                assert_eq!(e.place(name), Ok(*hex), "{} {name}", s.id);
            }
        }
    }
}

#[test]
fn an_unknown_place_is_refused_by_name() {
    let text = SCENARIO_TOML[0].replacen("at = \"Chemnitz\"", "at = \"Zwickau-on-Sea\"", 1);
    let e = load(&text).unwrap_err();
    assert!(
        e.contains("'Zwickau-on-Sea' is no place of the central Europe map"),
        "{e}"
    );
    let text = SCENARIO_TOML[7].replacen("trigger = \"Berlin\"", "trigger = \"Atlantis\"", 1);
    assert!(load(&text).unwrap_err().contains("'Atlantis'"));
}

#[test]
fn within_two_hexes_sets_are_on_the_map_and_directly_on_is_one_hex() {
    let e = Europe::central_europe();
    for s in Scenario::all() {
        for p in &s.setup {
            assert!(!p.hexes.is_empty(), "{} {:?}", s.id, p.location);
            assert!(p.hexes.iter().all(|&h| e.map.contains(h)));
            if let Location::Place { hex, radius, name } = &p.location {
                assert!(p.hexes.contains(hex), "{} {name}", s.id);
                assert!(p.hexes.len() <= 1 + 3 * (*radius as usize) * (*radius as usize + 1));
                assert!(p.hexes.iter().all(|&h| e.map.distance(*hex, h) <= *radius));
                if *radius == 0 {
                    assert_eq!(p.hexes, [*hex], "{} {name}", s.id);
                }
                if *radius == 2 && s.rules.austria != AustriaAccess::Open {
                    // Nothing may enter a closed Austria.
                    assert!(p.hexes.iter().all(|&h| !e.in_austria(h)), "{} {name}", s.id);
                }
            }
        }
    }
    // Scenario 3's Austrians: within three hexes of Prague.
    let s3 = Scenario::leipzig(3).unwrap();
    let prague = s3
        .setup
        .iter()
        .find(|p| matches!(&p.location, Location::Place { name, .. } if name == "Prague"))
        .unwrap();
    assert_eq!(prague.hexes.len(), 37);
    assert_eq!(prague.force, force(14, 2, 1, 0, &[1, 6]));
}

#[test]
fn the_areas_austria_the_armistice_line_and_the_edges() {
    let e = Europe::central_europe();
    let p = |n: &str| e.place(n).unwrap();
    assert!(e.in_austria(p("Prague")));
    for n in ["Dresden", "Leipzig", "Breslau", "Berlin", "Glogau"] {
        assert!(!e.in_austria(p(n)), "{n}");
    }
    let sw = e.area(Area::ArmisticeSouthwest);
    for n in [
        "Leipzig",
        "Dresden",
        "Magdeburg",
        "Gotha",
        "Torgau",
        "Glogau",
        "Breslau",
    ] {
        assert!(sw.contains(&p(n)), "{n}");
    }
    for n in ["Berlin", "Kustrin", "Posen", "Prague"] {
        assert!(!sw.contains(&p(n)), "{n}");
    }
    let north_east = e.area(Area::NorthEdgeEastOfElbe);
    let north_west = e.area(Area::NorthEdgeWestOfElbe);
    assert_eq!(north_east.len() + north_west.len(), e.map.height() as usize);
    assert!(north_east.iter().all(|h| h.x == 1 && !sw.contains(h)));
    assert!(north_west.iter().all(|h| h.x == 1 && sw.contains(h)));
    let bavaria = e.area(Area::SouthEdgeWestOfAustria);
    assert!(bavaria
        .iter()
        .all(|&h| h.x == e.map.width() && !e.in_austria(h)));
    assert!(bavaria.contains(&hexmap::Hex {
        x: e.map.width(),
        y: e.map.height()
    }));
    assert!(e
        .area(Area::EastEdge)
        .iter()
        .all(|&h| h.y == 1 && !e.in_austria(h)));
    assert!(e
        .area(Area::WestEdge)
        .iter()
        .all(|&h| h.y == e.map.height()));
}

#[test]
fn reinforcements_arrive_within_each_scenarios_turns() {
    for s in Scenario::all() {
        for r in &s.reinforcements {
            let t = r.turn.unwrap();
            assert!(
                (s.first_turn..=s.last_turn).contains(&t),
                "{} turn {t}",
                s.id
            );
            assert!(!r.hexes.is_empty(), "{} turn {t}", s.id);
        }
    }
    let turns = |n: u8| -> (u32, u32) {
        let s = Scenario::leipzig(n).unwrap();
        let t: Vec<u32> = s.reinforcements.iter().map(|r| r.turn.unwrap()).collect();
        (*t.iter().min().unwrap(), *t.iter().max().unwrap())
    };
    assert_eq!(turns(1), (1, 12));
    // Summer: the set-up is turn 24's; the chart's summer rows are 25-35 (L20).
    assert_eq!(turns(5), (25, 35));
    assert_eq!(turns(8), (1, 35));
    // Prague's arrive only while Austria is at war: never in 1, 2, 7; after the intervention in 8.
    for n in [1, 2, 7] {
        let s = Scenario::leipzig(n).unwrap();
        assert!(s.reinforcements.iter().all(|r| !r.needs_austria), "{n}");
    }
    let s8 = Scenario::leipzig(8).unwrap();
    assert_eq!(
        s8.reinforcements.iter().filter(|r| r.needs_austria).count(),
        5
    );
    // The leaders the chart brings (L21): Allied 4 (NSM) and 9 (ESM), French 2.
    let leader = |side: &str, l: u8| {
        s8.reinforcements
            .iter()
            .find(|r| r.side == side && r.force.leaders.contains(&l))
            .map(|r| (r.turn.unwrap(), r.location.clone()))
    };
    assert_eq!(
        leader("Allied", 4),
        Some((8, Location::Area(Area::NorthEdgeEastOfElbe)))
    );
    assert_eq!(
        leader("Allied", 9),
        Some((24, Location::Area(Area::EastEdge)))
    );
    assert!(matches!(
        leader("French", 2),
        Some((15, Location::Area(Area::WestEdge)))
    ));
    // Our reading's totals over the campaign, pinned so that a change is deliberate.
    let sum = |side: &str| {
        let mut f = Force::default();
        for r in s8.reinforcements.iter().filter(|r| r.side == side) {
            f.add(&r.force);
        }
        (f.infantry, f.cavalry, f.supply)
    };
    assert_eq!(sum("French"), (35, 4, 31));
    assert_eq!(sum("Allied"), (79, 6, 62));
}

#[test]
fn the_special_rules_each_scenario_switches_on() {
    let all = Scenario::all();
    for s in &all {
        let r = &s.rules;
        let spring = s.number <= 4;
        let campaign = s.number == 8;
        assert_eq!(r.saxon_garrison.is_some(), spring || campaign, "{}", s.id);
        assert_eq!(r.gotha_march.is_some(), spring || campaign, "{}", s.id);
        assert_eq!(r.armistice.is_some(), campaign, "{}", s.id);
        assert_eq!(r.german_rebellion.is_some(), campaign, "{}", s.id);
        assert_eq!(r.austrian_intervention.is_some(), campaign, "{}", s.id);
        assert_eq!(s.intervention.is_some(), campaign, "{}", s.id);
        assert_eq!(
            r.bavarian_defection.is_some(),
            [5, 7, 8].contains(&s.number),
            "{}",
            s.id
        );
        assert!(r.northern_option.is_some(), "{}", s.id);
        let recon = if spring {
            Some(12)
        } else if campaign {
            Some(15)
        } else {
            None
        };
        assert_eq!(r.reconnaissance_until, recon, "{}", s.id);
        let austria = match s.number {
            1 | 2 | 7 => AustriaAccess::Closed,
            8 => AustriaAccess::ClosedUntilIntervention,
            _ => AustriaAccess::Open,
        };
        assert_eq!(r.austria, austria, "{}", s.id);
        let turns = if spring {
            (1, 12)
        } else if campaign {
            (1, 35)
        } else {
            (24, 35)
        };
        assert_eq!((s.first_turn, s.last_turn), turns, "{}", s.id);
        assert_eq!(s.victory, s.number);
    }
    let s8 = &all[7];
    let g = s8.rules.gotha_march.as_ref().unwrap();
    assert_eq!((g.at.as_str(), g.turn, g.multiple), ("Gotha", 1, 3));
    let a = s8.rules.armistice.as_ref().unwrap();
    assert_eq!(
        (a.after_turn, a.turns, a.reentry_after, a.per_game),
        (3, 11, 8, 1)
    );
    let b = s8.rules.bavarian_defection.as_ref().unwrap();
    assert_eq!(
        (b.from_turn, b.infantry, b.cavalry, b.supply),
        (25, 6, 2, 1)
    );
    let i = s8.intervention.as_ref().unwrap();
    assert_eq!(i.force, force(14, 2, 1, 0, &[1, 6]));
    assert_eq!(i.hexes.len(), 37);
    let saxons = all[0]
        .setup
        .iter()
        .find(|p| p.nationality.as_deref() == Some("Saxon"))
        .unwrap();
    assert!(
        matches!(&saxons.location, Location::Place { name, radius: 0, .. } if name == "Torgau")
    );
}

#[test]
fn bad_scenarios_are_refused_with_every_problem() {
    let s = SCENARIO_TOML[0];
    let cases = [
        (
            "leaders = [2]",
            "leaders = [5]",
            "Allied leader 5 is placed twice",
        ),
        ("leaders = [2]", "leaders = [11]", "numbers run 1 to 10"),
        ("last_turn = 12", "last_turn = 0", "are no game"),
        (
            "reinforcement_turns = [1, 12]",
            "reinforcement_turns = [1, 13]",
            "lie outside",
        ),
        (
            "first_player = \"French\"",
            "first_player = \"Allied\"",
            "How to Use the Scenarios",
        ),
        ("supply = 3", "supply = 10", "a side has 10 (Supply (E))"),
        (
            "nationality = \"Saxon\"",
            "nationality = \"Swedish\"",
            "nationality 'Swedish'",
        ),
        ("victory = 1", "victory = 9", "no victory row 9"),
        (
            "at = \"Halle\"\nwithin = 2",
            "at = \"Halle\"\narea = \"austria\"",
            "exactly one of",
        ),
    ];
    for (from, to, expect) in cases {
        let text = s.replacen(from, to, 1);
        assert_ne!(text, s, "{from}");
        let e = load(&text)
            .err()
            .unwrap_or_else(|| panic!("accepted: {to}"));
        assert!(e.contains(expect), "{expect}: {e}");
    }
    assert!(load("garbage").is_err());
    let chart = REINFORCEMENTS_TOML.replacen(
        "turn = 1\nside = \"Allied\"\nat = \"Berlin\"",
        "turn = 1\nside = \"Allied\"\nat = \"Nowhere\"",
        1,
    );
    assert_ne!(chart, REINFORCEMENTS_TOML);
    let e = Scenario::from_toml(
        s,
        &chart,
        &Europe::central_europe(),
        &Units::leipzig(),
        &Tables::leipzig(),
    )
    .map(|_| ())
    .expect_err("an unknown place is refused")
    .to_string();
    assert!(e.contains("'Nowhere' is no place"), "{e}");
}

#[test]
fn each_scenario_has_its_own_digest() {
    let all = Scenario::all();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a.digest, b.digest, "{} {}", a.id, b.id);
        }
    }
    assert_eq!(Scenario::leipzig(5).unwrap().digest, all[4].digest);
    assert!(Scenario::leipzig(0).is_none() && Scenario::leipzig(9).is_none());
}

#[test]
fn l19_the_allied_spring_chart_as_read_place_by_place() {
    let s = Scenario::leipzig(1).unwrap();
    let rows: Vec<(&str, Force)> = s
        .setup
        .iter()
        .filter(|p| p.side == "Allied")
        .map(|p| match &p.location {
            Location::Place { name, .. } => (name.as_str(), p.force.clone()),
            Location::Area(a) => panic!("{a:?}"),
        })
        .collect();
    let expected = [
        ("Dresden", force(1, 2, 1, 0, &[10])),
        ("Chemnitz", force(1, 4, 1, 0, &[2])),
        ("Leipzig", force(3, 1, 2, 0, &[5, 8])),
        ("Halle", force(1, 0, 0, 0, &[])),
        ("Rosslau", force(3, 0, 2, 0, &[])),
        ("Posen", force(1, 0, 0, 0, &[3])),
        ("Breslau", force(2, 0, 0, 2, &[])),
        ("Berlin", force(2, 0, 2, 1, &[7])),
        ("Kustrin", force(1, 0, 0, 0, &[])),
        ("Glogau", force(0, 2, 0, 0, &[])),
        ("Wittenberg", force(0, 1, 0, 0, &[])),
    ];
    assert_eq!(rows, expected);
    // The printed columns, blanks dropped, top to bottom.
    let column = |f: fn(&Force) -> u32| -> Vec<u32> {
        rows.iter().map(|(_, x)| f(x)).filter(|&n| n > 0).collect()
    };
    assert_eq!(column(|f| f.infantry), [1, 1, 3, 1, 3, 1, 2, 2, 1]);
    assert_eq!(column(|f| f.cavalry), [2, 4, 1, 2, 1]);
    assert_eq!(column(|f| f.supply), [1, 1, 2, 2, 2]);
    assert_eq!(column(|f| f.depots), [2, 1]);
    let leaders: Vec<u8> = rows.iter().flat_map(|(_, f)| f.leaders.clone()).collect();
    assert_eq!(leaders, [10, 2, 5, 8, 3, 7]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Any edit of a scenario file is read or refused, never a panic.
    #[test]
    fn a_scenario_file_with_any_byte_changed_is_read_or_refused(i in 0usize..4000, b in 0u8..128) {
        let text = SCENARIO_TOML[7];
        let i = i % text.len();
        let mut bytes = text.as_bytes().to_vec();
        bytes[i] = b;
        if let Ok(t) = String::from_utf8(bytes) {
            let _ = load(&t);
        }
    }
}
