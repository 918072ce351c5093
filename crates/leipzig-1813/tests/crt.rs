//! The Combat Results Table against every statement the rulebook makes about it (Combat (F),
//! (K), (M), Fortress (A), the TEC's City-Fortress, How to use the CRT, the Explanation of
//! Results, CRT Auto) and our reconstruction's rulings (L1-L6). Each test is named after the
//! statement it pins.

use leipzig_1813::crt::{
    half_exchange_attacker_loss, parse_result, CombatResult, Crt, CrtFile, Effect,
};
use leipzig_1813::data::Tables;

fn crt() -> Crt {
    Tables::leipzig().crt
}

fn r(cell: &str) -> CombatResult {
    parse_result(cell).unwrap_or_else(|e| panic!("{cell}: {e}"))
}

fn col(t: &Crt, pct: u32) -> usize {
    (0..t.columns())
        .find(|&c| t.percent(c) == pct)
        .unwrap_or_else(|| panic!("no {pct}% column"))
}

fn cells(t: &Crt, pct: u32) -> Vec<String> {
    t.column_results(col(t, pct))
        .iter()
        .map(|r| r.to_string())
        .collect()
}

#[test]
fn crt_has_the_printed_columns_from_60_or_less_to_500() {
    let t = crt();
    let pcts: Vec<u32> = (0..t.columns()).map(|c| t.percent(c)).collect();
    assert_eq!(
        pcts,
        [60, 80, 100, 110, 120, 140, 160, 180, 200, 300, 400, 500]
    );
    assert_eq!(t.column_name(0), "60% or less");
    assert_eq!(t.column_name(6), "160%");
}

#[test]
fn combat_f_percentages_round_down_to_a_column_in_the_defenders_favour() {
    let t = crt();
    // Combat (F): 26 against 10 is 260%, the 200% column.
    assert_eq!(t.percent(t.column(260)), 200);
    for (p, c) in [
        (0, 60),
        (60, 60),
        (79, 60),
        (80, 80),
        (109, 100),
        (110, 110),
        (166, 160),
        (199, 180),
        (299, 200),
        (499, 400),
        (500, 500),
        (2500, 500),
    ] {
        assert_eq!(t.percent(t.column(p)), c, "{p}%");
    }
}

#[test]
fn explanation_of_results_every_kind_the_rulebook_names_is_in_the_table() {
    // s scattered, d dispersed with a numeral of retreat, x destroyed, 1/2ex, Auto; the
    // attacker's As, Ax, AdDs (Combat (M)) and the two-sided AsDs.
    let t = crt();
    let all: Vec<String> = (0..t.columns())
        .flat_map(|c| t.column_results(c).iter().map(|r| r.to_string()))
        .collect();
    for kind in [
        "As", "Ax", "AsDs", "AdDs", "Dd1", "Dd2", "Ds", "1/2ex", "Dx", "Auto",
    ] {
        assert!(all.iter().any(|c| c == kind), "{kind} missing");
    }
}

#[test]
fn l1_the_columns_as_reconstructed() {
    // docs/leipzig-1813.md, The CRT column by column; die 1 first.
    let t = crt();
    let expect: [(u32, [&str; 6]); 12] = [
        (60, ["Ax", "As", "As", "As", "As", "As"]),
        (80, ["As", "As", "As", "AdDs", "AdDs", "AdDs"]),
        (100, ["As", "AsDs", "AdDs", "Dd1", "Dd1", "Dd2"]),
        (110, ["AsDs", "AdDs", "Dd1", "Dd2", "Ds", "Ds"]),
        (120, ["Dd1", "Dd2", "Dd2", "Ds", "Ds", "Ds"]),
        (140, ["Ds", "Ds", "Ds", "Ds", "Ds", "Ds"]),
        (160, ["Ds", "Ds", "Ds", "Ds", "Ds", "1/2ex"]),
        (180, ["Ds", "Ds", "Ds", "1/2ex", "Dx", "Dx"]),
        (200, ["Ds", "1/2ex", "Dx", "Dx", "Dx", "Dx"]),
        (300, ["1/2ex", "Dx", "Dx", "Dx", "Dx", "Dx"]),
        (400, ["Dx", "Dx", "Dx", "Dx", "Dx", "Dx"]),
        (500, ["Auto", "Auto", "Auto", "Auto", "Auto", "Auto"]),
    ];
    for (p, cs) in expect {
        assert_eq!(cells(&t, p), cs, "{p}%");
    }
}

#[test]
fn l2_no_result_gets_worse_for_the_attacker_as_the_die_or_the_odds_rise() {
    let t = crt();
    for c in 0..t.columns() {
        for d in 1..6u8 {
            let (a, b) = (t.result(c, d).unwrap(), t.result(c, d + 1).unwrap());
            assert!(
                a.attacker_rank() <= b.attacker_rank(),
                "{}: die {d} {a} then {b}",
                t.column_name(c)
            );
        }
    }
    for d in 1..=6u8 {
        for c in 1..t.columns() {
            let (a, b) = (t.result(c - 1, d).unwrap(), t.result(c, d).unwrap());
            assert!(
                a.attacker_rank() <= b.attacker_rank(),
                "die {d}: {} {a} then {} {b}",
                t.column_name(c - 1),
                t.column_name(c)
            );
        }
    }
}

#[test]
fn crt_auto_fills_the_500_column_and_400_is_all_dx() {
    let t = crt();
    assert_eq!(t.sixths(col(&t, 500), |r| r == CombatResult::Automatic), 6);
    assert_eq!(t.sixths(col(&t, 400), |r| r == r_dx()), 6);
    assert_eq!(t.automatic_percent(), Some(500));
}

fn r_dx() -> CombatResult {
    CombatResult::Sides {
        attacker: Effect::None,
        defender: Effect::Destroyed,
    }
}

#[test]
fn l4_auto_in_the_combat_phase_destroys_the_defender_as_a_dx() {
    let auto = r("Auto");
    assert!(auto.destroys_defender());
    assert_eq!(auto.attacker(), Effect::None);
}

#[test]
fn explanation_of_results_dispersal_carries_its_retreat_and_scatter_none() {
    assert_eq!(r("Dd1").defender(), Effect::Dispersed { retreat: 1 });
    assert_eq!(r("Dd2").defender(), Effect::Dispersed { retreat: 2 });
    // The attacker's d has no numeral: dispersed where it stands.
    assert_eq!(r("AdDs").attacker(), Effect::Dispersed { retreat: 0 });
    assert_eq!(r("AdDs").defender(), Effect::Scattered);
    assert_eq!(r("AsDs").attacker(), Effect::Scattered);
    assert_eq!(r("Ax").attacker(), Effect::Destroyed);
    assert_eq!(r("Ax").defender(), Effect::None);
}

#[test]
fn explanation_of_results_half_exchange_costs_the_attacker_half_the_divisions_rounded_up() {
    let h = r("1/2ex");
    assert!(h.destroys_defender());
    for (lost, att) in [(0, 0), (1, 1), (2, 1), (3, 2), (6, 3), (7, 4)] {
        assert_eq!(half_exchange_attacker_loss(lost), att, "{lost}");
    }
}

#[test]
fn fortress_a_only_dx_touches_defenders_in_a_fortress_and_attackers_suffer_as_usual() {
    assert_eq!(r("Dx").against_fortress(), r("Dx"));
    assert_eq!(r("Auto").against_fortress(), r("Auto"));
    for cell in ["Ds", "Dd1", "Dd2"] {
        assert_eq!(r(cell).against_fortress(), CombatResult::NONE, "{cell}");
    }
    assert_eq!(r("AdDs").against_fortress(), r("Ad"));
    assert_eq!(r("AsDs").against_fortress(), r("As"));
    assert_eq!(r("Ax").against_fortress(), r("Ax"));
}

#[test]
fn l6_fortress_a_a_half_exchange_never_touches_a_fortress_nor_costs_the_attacker() {
    assert_eq!(r("1/2ex").against_fortress(), CombatResult::NONE);
}

#[test]
fn l5_combat_m_no_advance_after_a_result_that_touches_the_attacker() {
    for cell in ["Ax", "As", "AdDs", "AsDs"] {
        assert!(!r(cell).attacker_may_advance(), "{cell}");
    }
    for cell in ["Ds", "Dd1", "Dd2", "Dx", "1/2ex", "Auto"] {
        assert!(r(cell).attacker_may_advance(), "{cell}");
    }
    assert!(!CombatResult::NONE.attacker_may_advance());
}

#[test]
fn the_notation_reads_back_as_written() {
    for cell in [
        "-", "As", "Ax", "Ad", "AsDs", "AdDs", "Dd1", "Dd2", "Dd", "Ds", "Dx", "AxDx", "1/2ex",
        "Auto",
    ] {
        assert_eq!(r(cell).to_string(), cell);
    }
    assert_eq!(r("½ex"), r("1/2ex"));
}

#[test]
fn bad_cells_are_refused_with_the_reason() {
    for (cell, says) in [
        ("", "empty"),
        ("Aq", "unknown effect 'q'"),
        ("DsAs", "expected A<effect> then D<effect>"),
        ("A", "without its effect"),
        ("Ox", "expected A<effect>"),
    ] {
        let e = parse_result(cell).unwrap_err();
        assert!(e.contains(says), "{cell}: {e}");
    }
}

#[test]
fn a_replacement_table_is_validated_whole() {
    let good = || CrtFile {
        columns: vec![100, 200],
        results: vec![vec!["As".into(), "Dx".into()]; 6],
    };
    assert!(Crt::from_file(&good()).is_ok());
    let mut f = good();
    f.columns = vec![200, 100];
    assert!(Crt::from_file(&f)
        .unwrap_err()
        .to_string()
        .contains("increase strictly"));
    let mut f = good();
    f.results.pop();
    assert!(Crt::from_file(&f).unwrap_err().to_string().contains("6"));
    let mut f = good();
    f.results[3][1] = "Dq".into();
    let e = Crt::from_file(&f).unwrap_err().to_string();
    assert!(e.contains("die 4, column 200%"), "{e}");
    let mut f = good();
    f.results[0].push("Dx".into());
    assert!(Crt::from_file(&f)
        .unwrap_err()
        .to_string()
        .contains("3 cells for 2 columns"));
}

#[test]
fn l1_l3_the_reconstruction_keeps_every_cell_the_scan_shows() {
    // The scan, as it reads: the 60% column top to bottom, then the other eleven columns row
    // by row. The reconstruction moves two cells (L2, L3) and drops or adds none.
    const SCAN_60: [&str; 6] = ["As", "As", "As", "As", "As", "Ax"];
    const SCAN: &str = "As As AsDs Dd1 Ds Ds Ds Ds 1/2ex Dx Auto \
        As AdDs AsDs Dd2 Ds Ds Ds 1/2ex Dx Dx Auto \
        As AdDs Dd1 Dd2 Ds Ds Ds Dx Dx Dx Auto \
        AdDs Dd1 Dd2 Ds Ds Ds 1/2ex Dx Dx Dx Auto \
        AdDs Dd1 Ds Ds Ds Ds Dx Dx Dx Dx Auto \
        AdDs Dd2 Ds Ds Ds 1/2ex Dx Dx Dx Dx Auto";
    let mut scan: Vec<String> = SCAN_60.iter().map(|s| s.to_string()).collect();
    scan.extend(SCAN.split_whitespace().map(String::from));
    assert_eq!(scan.len(), 72);
    let t = crt();
    let mut ours: Vec<String> = (0..t.columns())
        .flat_map(|c| t.column_results(c).iter().map(|r| r.to_string()))
        .collect();
    scan.sort();
    ours.sort();
    assert_eq!(ours, scan);
}

#[test]
fn combat_m_advance_only_across_a_river_or_into_a_fortress() {
    assert!(!r("Ds").attacker_may_advance_into(false, false));
    assert!(r("Ds").attacker_may_advance_into(true, false));
    assert!(r("Dx").attacker_may_advance_into(false, true));
    // A fortress's defenders stay on anything but a Dx.
    assert!(!r("Ds").attacker_may_advance_into(false, true));
    assert!(!r("1/2ex").attacker_may_advance_into(true, true));
    assert!(r("1/2ex").attacker_may_advance_into(true, false));
    assert!(!r("AdDs").attacker_may_advance_into(true, false));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    #[test]
    fn any_cell_text_is_read_or_refused_never_a_panic(s in "\\PC{0,8}") {
        let _ = parse_result(&s);
    }

    #[test]
    fn any_written_cell_reads_back(s in "(A[sxd][0-9]?)?(D[sxd][0-9]?)?") {
        if let Ok(c) = parse_result(&s) {
            proptest::prop_assert_eq!(parse_result(&c.to_string()), Ok(c));
        }
    }
}
