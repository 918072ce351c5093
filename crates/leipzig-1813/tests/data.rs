//! The data file `data/leipzig.toml`: it parses, covers the central Europe map's legend, says
//! what the Terrain Effects Chart and the Victory Point Schedule say (rulings L13-L15), reports
//! every problem of a bad file, and a replaced table is the one the arithmetic uses.

use leipzig_1813::crt::parse_result;
use leipzig_1813::data::Tables;
use leipzig_1813::forced_march::{March, OnLetter};
use leipzig_1813::odds::{attack_strength, odds};
use leipzig_1813::terrain::{HEXSIDE_KINDS, HEX_KINDS};
use leipzig_1813::RULES_VERSION;

#[test]
fn the_embedded_data_parses() {
    let t = Tables::from_toml(Tables::LEIPZIG_TOML).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t, Tables::leipzig());
    assert_eq!(RULES_VERSION, "leipzig-1813/0.3");
}

#[test]
fn the_digest_changes_with_the_text() {
    let a = Tables::leipzig();
    let b =
        Tables::from_toml(&Tables::LEIPZIG_TOML.replace("offence = 25", "offence = 24")).unwrap();
    assert_ne!(a.digest, b.digest);
    assert_eq!(
        a.digest,
        Tables::from_toml(Tables::LEIPZIG_TOML).unwrap().digest
    );
}

#[test]
fn the_chart_covers_every_kind_of_the_central_europe_maps_legend() {
    let map: toml::Value =
        toml::from_str(include_str!("../../scenarios/maps/central-europe.toml")).unwrap();
    let ids = |key: &str| -> Vec<String> {
        map["legend"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };
    let mut terrain = ids("terrain");
    terrain.sort();
    let mut ours: Vec<String> = HEX_KINDS.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(terrain, ours);
    let mut features = ids("features");
    features.sort();
    let mut ours: Vec<String> = HEXSIDE_KINDS.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(features, ours);
    let t = Tables::leipzig().terrain;
    for k in HEX_KINDS {
        assert!(t.hex(k).is_some(), "{k}");
    }
    for k in HEXSIDE_KINDS {
        assert!(t.hexside(k).is_some(), "{k}");
    }
}

#[test]
fn tec_movement_costs() {
    let t = Tables::leipzig().terrain;
    for (kind, mp) in [
        ("clear", 1),
        ("city", 1),
        ("city-fortress", 1),
        ("mountain", 5),
    ] {
        assert_eq!(t.entry_cost(kind, &[], false), Some(mp), "{kind}");
    }
    // A river costs 3 more to cross; a bridge nothing; borders and the armistice line nothing.
    assert_eq!(t.entry_cost("clear", &["river"], false), Some(4));
    assert_eq!(t.entry_cost("clear", &["river", "bridge"], false), Some(1));
    assert_eq!(t.entry_cost("clear", &["border"], false), Some(1));
    assert_eq!(t.entry_cost("clear", &["armistice"], false), Some(1));
    assert_eq!(
        t.entry_cost("city", &["border", "armistice"], false),
        Some(1)
    );
    assert_eq!(t.entry_cost("marsh", &[], false), None);
}

#[test]
fn l15_tec_mountain_pass_one_mp_from_its_entry_or_along_the_pass_five_otherwise() {
    let t = Tables::leipzig().terrain;
    assert_eq!(t.entry_cost("mountain-pass", &["pass"], true), Some(1));
    assert_eq!(t.entry_cost("mountain-pass", &[], false), Some(5));
    assert_eq!(t.hex("mountain-pass").unwrap().defence, 2);
    // The pass road feature is a route: it costs and multiplies nothing.
    let pass = t.hexside("pass").unwrap();
    assert_eq!((pass.extra_mp, pass.defence, pass.min_percent), (0, 1, 0));
}

#[test]
fn tec_notes_moving_over_eliminated_units_and_cavalry_leaving_partial_zones() {
    let t = Tables::leipzig().terrain;
    assert_eq!(t.over_eliminated_mp, 1);
    assert_eq!(t.cavalry_leave_partial_zoc_mp, 2);
}

#[test]
fn tec_mountains_bar_cavalry_supply_and_depots() {
    let t = Tables::leipzig().terrain;
    let m = t.hex("mountain").unwrap();
    assert!(!m.cavalry && !m.supply);
    for k in ["clear", "city", "city-fortress", "mountain-pass"] {
        let h = t.hex(k).unwrap();
        assert!(h.cavalry && h.supply, "{k}");
    }
}

#[test]
fn tec_city_fortress_triples_takes_only_dx_and_supplies_six_divisions() {
    let t = Tables::leipzig().terrain;
    let f = t.hex("city-fortress").unwrap();
    assert_eq!((f.defence, f.only_dx, f.supplied_divisions), (3, true, 6));
    for k in ["clear", "city", "mountain", "mountain-pass"] {
        let h = t.hex(k).unwrap();
        assert!(!h.only_dx && h.supplied_divisions == 0, "{k}");
    }
    assert_eq!(t.hex("city").unwrap().defence, 1);
    // The game reads "only Dx" from the chart.
    let ds = parse_result("AdDs").unwrap();
    assert_eq!(f.result_against(ds), parse_result("Ad").unwrap());
    assert_eq!(t.hex("city").unwrap().result_against(ds), ds);
}

#[test]
fn zones_of_control_c_not_across_an_unbridged_river_but_across_a_bridge() {
    let t = Tables::leipzig().terrain;
    assert!(!t.zoc_crosses(&["river"]));
    assert!(t.zoc_crosses(&["river", "bridge"]));
    assert!(t.zoc_crosses(&[]));
    assert!(t.zoc_crosses(&["border", "armistice", "pass"]));
}

#[test]
fn combat_j_k_retreats_never_cross_an_unbridged_river() {
    let t = Tables::leipzig().terrain;
    assert!(!t.retreat_crosses(&["river"]));
    assert!(t.retreat_crosses(&["river", "bridge"]));
    assert!(t.retreat_crosses(&["border"]));
}

#[test]
fn l13_victory_point_schedule_as_read() {
    let t = Tables::leipzig();
    let row = |s: u8| {
        let v = t.victory(s).unwrap();
        (
            ["Berlin", "Prague", "Dresden", "Leipzig", "Breslau"].map(|c| v.city(c)),
            v.division,
            v.esm,
        )
    };
    assert_eq!(row(1), ([10, 0, 10, 5, 15], 1, Some(6)));
    assert_eq!(row(2), ([10, 0, 10, 5, 15], 1, Some(6)));
    assert_eq!(row(3), ([10, 20, 10, 5, 15], 1, Some(6)));
    assert_eq!(row(4), ([10, 20, 10, 5, 15], 1, Some(6)));
    assert_eq!(row(5), ([15, 15, 20, 15, 5], 1, None));
    assert_eq!(row(6), ([20, 15, 25, 20, 10], 1, None));
    assert_eq!(row(7), ([25, 0, 25, 20, 10], 1, None));
    assert_eq!(row(8), ([15, 15, 20, 20, 5], 1, None));
    assert!(t.victory(9).is_none());
}

#[test]
fn victory_prague_counts_only_where_austria_may_be_entered() {
    // Scenarios 1, 2 and 7 close Austria to both sides.
    let t = Tables::leipzig();
    for s in 1..=8u8 {
        let closed = [1, 2, 7].contains(&s);
        assert_eq!(t.victory(s).unwrap().city("Prague") == 0, closed, "{s}");
    }
}

#[test]
fn victory_div_esm_and_besieged_units() {
    let t = Tables::leipzig();
    let v = t.victory(1).unwrap();
    // ESM: only complete groups count.
    assert_eq!(v.exit_points(2), 12);
    assert_eq!(v.exit_points(0), 0);
    assert_eq!(t.victory(5).unwrap().exit_points(3), 0);
    // Half points for enemy units in a besieged city, fractions dropped.
    assert_eq!(v.besieged_units(6), 3);
    assert_eq!(v.besieged_units(3), 1);
}

#[test]
fn a_bad_file_reports_every_problem_at_once() {
    let text = Tables::LEIPZIG_TOML
        .replace(
            "format = \"grognard-leipzig-1813/1\"",
            "format = \"other/2\"",
        )
        .replace("[terrain.hexsides.armistice]", "[terrain.hexsides.canal]")
        .replace("scenario = 8", "scenario = 9")
        .replace("[\"Ax\", \"As\",", "[\"Aq\", \"As\",");
    let e = Tables::from_toml(&text).unwrap_err();
    let msg = e.to_string();
    for says in [
        "format 'other/2'",
        "die 1, column 60%",
        "no entry for the hexside 'armistice'",
        "'canal' is not a hexside of the map",
        "one row for each scenario 1 to 8",
    ] {
        assert!(msg.contains(says), "{says} not in:\n{msg}");
    }
    assert!(e.0.len() >= 5);
    let e = Tables::from_toml("format = 3").unwrap_err().to_string();
    assert!(e.starts_with("leipzig data:"), "{e}");
}

#[test]
fn a_replaced_crt_is_the_one_the_odds_use() {
    // Make the die-6 row's 140% cell a Dx.
    let text: String = Tables::LEIPZIG_TOML
        .lines()
        .map(|l| {
            if l.ends_with("# 6") {
                "  [\"As\", \"AdDs\", \"Dd2\", \"Ds\", \"Ds\", \"Dx\", \"1/2ex\", \"Dx\", \"Dx\", \"Dx\", \"Dx\", \"Auto\"],".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(text, Tables::LEIPZIG_TOML);
    let t = Tables::from_toml(&text).unwrap();
    let o = odds(&t.crt, 5, 3, 0).unwrap();
    assert_eq!(t.crt.percent(o.column), 160);
    assert_eq!(
        t.crt.result(o.column, 6).unwrap(),
        parse_result("1/2ex").unwrap()
    );
    // The die-6 row's 140% cell (the 6th of the row) is now Dx.
    assert_eq!(t.crt.result(5, 6).unwrap(), parse_result("Dx").unwrap());
    assert_eq!(
        Tables::leipzig().crt.result(5, 6).unwrap(),
        parse_result("Ds").unwrap()
    );
}

#[test]
fn a_replaced_forced_march_table_and_leader_are_used() {
    let text = Tables::LEIPZIG_TOML
        .replace(
            "first = [\"-\", \"-\", \"J\", \"K\", \"D\", \"X\"]",
            "first = [\"-\", \"-\", \"-\", \"K\", \"D\", \"D\"]",
        )
        .replace(
            "subsidiary = { J = [\"-\", \"D\", \"D\", \"D\", \"D\", \"X\"], K =",
            "subsidiary = { K =",
        )
        .replace(
            "name = \"Napoleon\"\noffence = 25",
            "name = \"Napoleon\"\noffence = 30",
        );
    let t = Tables::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let c = t.forced_march.chances(March::Double, false, OnLetter::Roll);
    assert_eq!((c.completes, c.dispersed, c.destroyed), (18, 16, 2));
    let n = t.leader("French", 1).unwrap().offence;
    assert_eq!(attack_strength(&[18, 18], true, &[n]), 66);
}
