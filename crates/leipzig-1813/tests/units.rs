//! The counters (The Playing Pieces; Stacking and Unit Breakdown (E); Supply): printed values,
//! break-downs and their equivalences, each side's limits, and bad data refused.

use leipzig_1813::units::{Arm, Units};

#[test]
fn stacking_e_the_printed_values_of_every_kind() {
    let u = Units::leipzig();
    let printed = |id: &str| {
        let k = u.kind(id).unwrap();
        (k.arm, k.strength, k.movement, k.defence_only)
    };
    assert_eq!(printed("infantry-army"), (Arm::Infantry, 18, 2, false));
    assert_eq!(printed("infantry-corps"), (Arm::Infantry, 5, 4, false));
    assert_eq!(printed("infantry-division"), (Arm::Infantry, 2, 5, false));
    assert_eq!(printed("cavalry-corps"), (Arm::Cavalry, 3, 7, false));
    assert_eq!(printed("cavalry-division"), (Arm::Cavalry, 1, 8, false));
    // Combat (L): the parenthesised strengths of the (1)-2 depot and the (1)-4 supply unit.
    assert_eq!(printed("depot"), (Arm::Depot, 1, 2, true));
    assert_eq!(printed("supply"), (Arm::Supply, 1, 4, true));
    // Leaders (C): a leader alone defends with 1; his movement is ours (L18).
    assert_eq!(printed("leader"), (Arm::Leader, 1, 8, true));
    assert_eq!(u.kinds.len(), 8);
}

#[test]
fn l16_stacking_e_break_downs_keep_the_divisions_not_the_strength() {
    let u = Units::leipzig();
    for k in &u.kinds {
        if let Some(b) = &k.breaks_into {
            let into = u.kind(&b.kind).unwrap();
            assert_eq!(into.worth * b.count, k.worth, "{}", k.id);
        }
    }
    // An 18-2 breaks down straight into six 2-5s, or into three 5-4s (L16); a 5-4 into two
    // 2-5s; a 3-7 into two 1-8s; a depot into two supply units.
    let full = |id: &str| u.full_breakdown(id).map(|(k, n)| (k.id.clone(), n));
    assert_eq!(full("infantry-army"), Some(("infantry-division".into(), 6)));
    assert_eq!(
        full("infantry-corps"),
        Some(("infantry-division".into(), 2))
    );
    assert_eq!(full("cavalry-corps"), Some(("cavalry-division".into(), 2)));
    assert_eq!(full("depot"), Some(("supply".into(), 2)));
    assert_eq!(
        full("infantry-division"),
        Some(("infantry-division".into(), 1))
    );
    let army = u.kind("infantry-army").unwrap();
    assert_eq!(army.breaks_into.as_ref().unwrap().count, 3);
    // The strength is not kept: the army is worth more than its parts (18 > 15 > 12), the
    // corps more than its two divisions (5 > 4), the cavalry corps more than two 1-8s (3 > 2).
    let s = |id: &str| u.kind(id).unwrap().strength;
    assert!(s("infantry-army") > 3 * s("infantry-corps"));
    assert!(3 * s("infantry-corps") > 6 * s("infantry-division"));
    assert!(s("cavalry-corps") > 2 * s("cavalry-division"));
    let steps: Vec<&str> = u
        .steps("infantry-army", "infantry-division")
        .unwrap()
        .iter()
        .map(|k| k.id.as_str())
        .collect();
    assert_eq!(
        steps,
        ["infantry-army", "infantry-corps", "infantry-division"]
    );
    assert!(u.steps("infantry-division", "infantry-army").is_none());
}

#[test]
fn supply_e_and_leaders_ten_a_side_and_the_nationalities() {
    let u = Units::leipzig();
    for side in ["French", "Allied"] {
        let s = u.side(side).unwrap();
        assert_eq!((s.supply, s.leaders), (10, 10), "{side}");
    }
    assert!(u
        .side("French")
        .unwrap()
        .nationalities
        .contains(&"Saxon".to_string()));
    for n in ["Russian", "Prussian", "Swedish", "Austrian", "Bavarian"] {
        assert!(u
            .side("Allied")
            .unwrap()
            .nationalities
            .contains(&n.to_string()));
    }
    assert_eq!(u.smallest(Arm::Depot).id, "supply");
    assert_eq!(u.smallest(Arm::Infantry).id, "infantry-division");
    assert!(u.kind("artillery").is_none());
}

#[test]
fn a_break_down_that_loses_divisions_is_refused_with_its_reason() {
    // The scan's "One 18-2 = two 5-4s" would lose two divisions.
    let bad = Units::UNITS_TOML.replacen(
        "breaks_into = { kind = \"infantry-corps\", count = 3 }",
        "breaks_into = { kind = \"infantry-corps\", count = 2 }",
        1,
    );
    let e = Units::from_toml(&bad).unwrap_err().to_string();
    assert!(
        e.contains("'infantry-army' (worth 6) breaks into 2 x 'infantry-corps'"),
        "{e}"
    );
    assert!(e.contains("Stacking (E)"), "{e}");
}

#[test]
fn bad_counter_files_are_refused_never_a_panic() {
    let cases = [
        (
            "kind = \"infantry-corps\", count = 3",
            "kind = \"guards\", count = 3",
            "which is no kind",
        ),
        (
            "format = \"grognard-leipzig-1813-units/1\"",
            "format = \"x\"",
            "format 'x'",
        ),
        ("name = \"Allied\"", "name = \"Swedes\"", "units: sides"),
        (
            "arm = \"cavalry\"\nechelon = \"corps\"",
            "arm = \"cavalry\"\nechelon = \"brigade\"",
            "echelon 'brigade'",
        ),
        (
            "worth = 2\nbreaks_into = { kind = \"supply\"",
            "worth = 3\nbreaks_into = { kind = \"supply\"",
            "the worth must be kept",
        ),
    ];
    for (from, to, expect) in cases {
        let text = Units::UNITS_TOML.replacen(from, to, 1);
        assert_ne!(text, Units::UNITS_TOML, "{from}");
        let e = Units::from_toml(&text).unwrap_err().to_string();
        assert!(e.contains(expect), "{expect}: {e}");
    }
    assert!(Units::from_toml("not toml [").is_err());
    assert!(Units::from_toml("").is_err());
}
