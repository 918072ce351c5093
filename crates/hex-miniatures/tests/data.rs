//! The data file `data/hex-miniatures.toml`: it parses, reports every problem of a bad file
//! with its place, never panics, and a replaced table is the one the arithmetic uses.

use hex_miniatures::army::Kind;
use hex_miniatures::combat::{assess, CombatSituation};
use hex_miniatures::crt::CombatResult;
use hex_miniatures::data::Tables;
use hex_miniatures::orders::Carried;
use hex_miniatures::prob::{parse_modifier, parse_prob, Draw, Prob};
use hex_miniatures::RULES_VERSION;
use proptest::prelude::*;

#[test]
fn the_embedded_data_parses() {
    let t = Tables::from_toml(Tables::TOML).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t, Tables::shipped());
    assert_eq!(RULES_VERSION, "hex-miniatures/0.4");
    assert_eq!(t.armies.len(), 5);
    for n in ["French", "Prussian", "Russian", "Austrian", "British"] {
        assert!(t.army(n).is_some(), "{n}");
        assert!(t.line(n, Kind::Line).is_some(), "{n}");
    }
}

#[test]
fn the_digest_changes_with_the_text() {
    let a = Tables::shipped();
    let b = Tables::from_toml(&Tables::TOML.replace("routed = \"0.800\"", "routed = \"0.750\""))
        .unwrap();
    assert_ne!(a.digest, b.digest);
    assert_eq!(b.rally_routed, Prob(750));
}

#[test]
fn probabilities_are_read_as_the_text_writes_them() {
    assert_eq!(parse_prob("0.150"), Ok(Prob(150)));
    assert_eq!(parse_prob("0.8"), Ok(Prob(800)));
    assert_eq!(parse_prob("1.000"), Ok(Prob(1000)));
    assert!(parse_prob("1.5").is_err());
    assert!(parse_prob("0.1234").is_err());
    assert!(parse_prob("15%").is_err());
    assert_eq!(parse_modifier("-0.100"), Ok(-100));
    assert_eq!(parse_modifier("+0.200"), Ok(200));
    assert_eq!(Prob(150).to_string(), "0.150");
    assert_eq!(Draw::new(1000), None);
}

#[test]
fn a_replaced_crt_is_the_one_the_combat_reads() {
    let text = Tables::TOML.replace(
        r#""1:1" = ["0.000 Ar", "0.050 Aw", "0.150 Ad", "0.350 Dx", "0.650 Dd", "0.850 Dw", "0.950 Dr"]"#,
        r#""1:1" = ["0.000 Ar", "0.500 Dr"]"#,
    );
    let t = Tables::from_toml(&text).unwrap();
    let s = CombatSituation {
        attack: 5,
        defence: 5,
        arms: 1,
        ..CombatSituation::default()
    };
    let a = assess(&t.crt, &t.combat, &s).unwrap();
    assert_eq!(
        a.chances(&t.crt),
        vec![(CombatResult::Ar, 500), (CombatResult::Dr, 500)]
    );
}

#[test]
fn a_replaced_threshold_and_army_line_are_used() {
    let text = Tables::TOML
        .replace("understood = \"0.150\"", "understood = \"0.200\"")
        .replace(
            "line           = { strength = 4, disordered = 2, movement = 1, rally = \"0.550\" }",
            "line           = { strength = 3, disordered = 2, movement = 1, rally = \"0.600\" }",
        );
    let t = Tables::from_toml(&text).unwrap();
    assert_eq!(
        t.orders.chance(Carried::Messenger { restricted: false }),
        800
    );
    let l = t.line("French", Kind::Line).unwrap();
    assert_eq!((l.strength, l.rally), (3, Prob(600)));
}

#[test]
fn a_bad_file_is_refused_with_every_problem_named() {
    let text = Tables::TOML
        .replace("format = \"grognard-hex-miniatures/1\"", "format = \"x\"")
        .replace("\"0.450 Aw\"", "\"0.450 Zz\"")
        .replace("routed = \"0.800\"", "routed = \"0.8000\"")
        .replace("[terrain.hexes.lake]", "[terrain.hexes.swamp]")
        .replace("\"60\" = [", "\"62\" = [")
        .replace(
            "guard          = { strength = 6, disordered = 4, movement = 1, rally = \"0.250\" }",
            "guard          = { strength = 6, disordered = 7, movement = 1, rally = \"0.250\" }",
        );
    let e = Tables::from_toml(&text).unwrap_err().to_string();
    for want in [
        "format 'x'",
        "crt '1:5': 'Zz'",
        "rally.routed",
        "'lake' is missing",
        "unknown kind 'swamp'",
        "level 62%",
        "army.French.guard",
    ] {
        assert!(e.contains(want), "{want} not in:\n{e}");
    }
}

#[test]
fn a_crt_out_of_order_or_a_missing_column_is_refused() {
    let text = Tables::TOML.replace(
        r#""6:1" = ["0.000 Dx", "0.150 Dd", "0.350 Dw", "0.450 Dr"]"#,
        r#""6:1" = ["0.000 Dd", "0.150 Dx"]"#,
    );
    let e = Tables::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("column 6:1: results must run"), "{e}");
    let text = Tables::TOML.replace(r#""6:1" = ["#, r#""7:1" = ["#);
    let e = Tables::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("no column '6:1'"), "{e}");
    let text = Tables::TOML.replace(r#""0.000 Ar", "0.450 Aw""#, r#""0.100 Ar", "0.450 Aw""#);
    let e = Tables::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("starts at 0.000"), "{e}");
}

proptest! {
    #[test]
    fn any_band_cell_is_read_or_refused_never_a_panic(cell in "[ -~]{0,16}") {
        let text = Tables::TOML.replace("\"0.950 broken\"", &format!("{cell:?}"));
        let _ = Tables::from_toml(&text);
    }

    #[test]
    fn every_draw_gives_a_result_in_every_column(n in 0u16..1000, m in -1000i32..1000) {
        let t = Tables::shipped();
        let d = Draw::new(n).unwrap();
        for c in 0..t.crt.columns() {
            let _ = t.crt.result(c, d, m);
        }
    }
}
