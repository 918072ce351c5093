//! The odds arithmetic against every statement the rulebook makes about it: Combat (F) and
//! (I), Supply (A) and (F), Leaders (B) and (C) with the Napoleon example, the TEC's
//! multipliers and river floor, How to use the CRT's examples and the automatic elimination,
//! Combat (J)'s bar on retreat before combat; rulings L7-L9, L12. Each test is named after the
//! statement it pins.

use leipzig_1813::crt::Crt;
use leipzig_1813::data::Tables;
use leipzig_1813::odds::{
    attack_strength, automatic_elimination, defence_strength, leader_addition, odds, percent,
    retreat_before_combat_barred, unit_strength, units_strength, MovingAttack, OddsRefusal,
};
use leipzig_1813::terrain::TerrainChart;
use proptest::prelude::*;

fn crt() -> Crt {
    Tables::leipzig().crt
}

fn terrain() -> TerrainChart {
    Tables::leipzig().terrain
}

fn napoleon() -> u32 {
    Tables::leipzig().leader("French", 1).unwrap().offence
}

fn column_of(attack: u32, defence: u32) -> u32 {
    let t = crt();
    t.percent(odds(&t, attack, defence, 0).unwrap().column)
}

#[test]
fn how_to_use_the_crt_a_5_4_against_a_3_7_is_167_percent_simplified_to_160() {
    let a = attack_strength(&[5], true, &[]);
    let d = defence_strength(&[3], true, 1, &[]);
    // 500 / 3 = 166.7: the rulebook rounds it to 167 in words; fractions are dropped (L12).
    assert_eq!(percent(a, d), Some(166));
    assert_eq!(column_of(a, d), 160);
    assert_eq!(crt().percent(crt().column(167)), 160);
}

#[test]
fn l12_how_to_use_the_crt_napoleon_an_18_2_and_a_5_4_against_a_fortress_is_the_200_column() {
    // Napoleon adds 23 (all the units have) to 18 + 5: 46.
    let a = attack_strength(&[18, 5], true, &[napoleon()]);
    assert_eq!(a, 46);
    // A 5-4 and a 1-8 in a fortress: 6 tripled, 18.
    let m = terrain().defence_multiplier("city-fortress", &[]);
    let d = defence_strength(&[5, 1], true, m, &[]);
    assert_eq!(d, 18);
    // The text prints 225%; 46 / 18 is 255%. Both simplify to 200%.
    assert_eq!(percent(a, d), Some(255));
    assert_eq!(column_of(a, d), 200);
    assert_eq!(crt().percent(crt().column(225)), 200);
}

#[test]
fn combat_f_26_against_10_is_260_percent_rounded_to_200() {
    assert_eq!(percent(26, 10), Some(260));
    assert_eq!(column_of(26, 10), 200);
}

#[test]
fn combat_i_unsupplied_units_are_halved_one_by_one_never_below_one() {
    assert_eq!(unit_strength(5, false), 2);
    assert_eq!(unit_strength(18, false), 9);
    assert_eq!(unit_strength(3, false), 1);
    // A 1-8 always fights with 1; a 2-5 with 1 unsupplied.
    assert_eq!(unit_strength(1, false), 1);
    assert_eq!(unit_strength(1, true), 1);
    assert_eq!(unit_strength(2, false), 1);
    // Two 5-4s: 2 + 2 = 4, not half of 10.
    assert_eq!(units_strength(&[5, 5], false), 4);
    assert_eq!(units_strength(&[5, 5], true), 10);
}

#[test]
fn leaders_b_napoleon_adds_18_to_one_18_2_then_all_25_to_two() {
    assert_eq!(napoleon(), 25);
    assert_eq!(attack_strength(&[18], true, &[napoleon()]), 36);
    assert_eq!(attack_strength(&[18, 18], true, &[napoleon()]), 61);
}

#[test]
fn leaders_b_the_bonus_is_added_after_supply_and_limited_by_the_halved_strength() {
    // An unsupplied 18-2 fights with 9: Napoleon adds 9, not 18 (the bonus itself is not
    // halved: leaders need no supply, Leaders (A)).
    assert_eq!(attack_strength(&[18], false, &[napoleon()]), 18);
    assert_eq!(attack_strength(&[18, 18], false, &[napoleon()]), 36);
    assert_eq!(leader_addition(&[25], 40), 25);
}

#[test]
fn l7_leaders_b_several_leaders_share_one_limit() {
    assert_eq!(leader_addition(&[10, 8], 12), 12);
    assert_eq!(leader_addition(&[10, 8], 30), 18);
    assert_eq!(attack_strength(&[5], true, &[10, 8]), 10);
}

#[test]
fn leaders_c_leaders_alone_may_not_attack_and_defend_with_one() {
    assert_eq!(attack_strength(&[], true, &[napoleon()]), 0);
    assert_eq!(defence_strength(&[], true, 1, &[25]), 1);
    assert_eq!(defence_strength(&[], true, 1, &[]), 0);
}

#[test]
fn l8_leaders_b_terrain_multiplies_the_defensive_bonus_too() {
    let tec = terrain();
    // Victor (defence 8) with a 5-4 in a fortress: 3 x (5 + 5).
    let victor = Tables::leipzig().leader("French", 6).unwrap().defence;
    assert_eq!(victor, 8);
    let m = tec.defence_multiplier("city-fortress", &[]);
    assert_eq!(defence_strength(&[5], true, m, &[victor]), 30);
    // With an 18-2: 3 x (18 + 8).
    assert_eq!(defence_strength(&[18], true, m, &[victor]), 78);
    // In a mountain, unsupplied: 2 x (2 + 2).
    let m = tec.defence_multiplier("mountain", &[]);
    assert_eq!(defence_strength(&[5], false, m, &[victor]), 8);
    // A leader alone in a fortress: 1, tripled.
    assert_eq!(
        defence_strength(
            &[],
            true,
            tec.defence_multiplier("city-fortress", &[]),
            &[8]
        ),
        3
    );
}

#[test]
fn tec_terrain_effects_are_not_cumulative_a_fortress_across_a_river_is_tripled() {
    let tec = terrain();
    assert_eq!(tec.defence_multiplier("city-fortress", &["river"]), 3);
    assert_eq!(tec.defence_multiplier("mountain", &["river"]), 2);
    assert_eq!(tec.defence_multiplier("clear", &["river"]), 2);
    assert_eq!(tec.defence_multiplier("clear", &["river", "bridge"]), 2);
    assert_eq!(tec.defence_multiplier("mountain-pass", &[]), 2);
    assert_eq!(tec.defence_multiplier("city", &[]), 1);
    assert_eq!(tec.defence_multiplier("clear", &["border", "armistice"]), 1);
}

#[test]
fn tec_river_hexside_no_attack_across_a_river_below_160_percent_bridged_or_not() {
    let t = crt();
    let tec = terrain();
    for features in [&["river"][..], &["river", "bridge"][..]] {
        let floor = tec.min_percent(features);
        assert_eq!(floor, 160, "{features:?}");
        // 15 against a doubled 5: 150%.
        let d = defence_strength(&[5], true, tec.defence_multiplier("clear", features), &[]);
        assert_eq!(
            odds(&t, 15, d, floor),
            Err(OddsRefusal::BelowRiverMinimum {
                percent: 150,
                min: 160
            })
        );
        assert_eq!(t.percent(odds(&t, 16, d, floor).unwrap().column), 160);
    }
    assert_eq!(tec.min_percent(&[]), 0);
    assert_eq!(tec.min_percent(&["border"]), 0);
    let e = odds(&t, 15, 10, 160).unwrap_err().to_string();
    assert!(e.starts_with("TEC River hexside"), "{e}");
}

#[test]
fn l9_the_river_floor_holds_against_a_fortress_across_a_river() {
    let t = crt();
    let tec = terrain();
    let f = ["river"];
    let d = defence_strength(&[5], true, tec.defence_multiplier("city-fortress", &f), &[]);
    assert_eq!(d, 15);
    assert!(odds(&t, 23, d, tec.min_percent(&f)).is_err());
    assert!(odds(&t, 24, d, tec.min_percent(&f)).is_ok());
}

#[test]
fn there_is_no_attack_on_an_empty_hex() {
    assert_eq!(percent(5, 0), None);
    assert_eq!(odds(&crt(), 5, 0, 0), Err(OddsRefusal::NoDefender));
}

fn moving<'a>(attack: u32, printed: &'a [u32], supply: bool) -> MovingAttack<'a> {
    MovingAttack {
        attack,
        defender_printed: printed,
        defender_may_be_supplied: supply,
        multiplier: 1,
        leader_defence: &[],
        defender_has_cavalry: false,
    }
}

#[test]
fn crt_auto_500_percent_eliminates_during_movement() {
    let t = crt();
    assert!(automatic_elimination(&t, &moving(25, &[5], true)));
    assert!(!automatic_elimination(&t, &moving(24, &[5], true)));
    assert!(automatic_elimination(&t, &moving(50, &[5, 5], true)));
}

#[test]
fn crt_auto_not_against_a_hex_with_cavalry() {
    let t = crt();
    let mut a = moving(100, &[5, 1], true);
    a.defender_has_cavalry = true;
    assert!(!automatic_elimination(&t, &a));
}

#[test]
fn supply_f_the_mere_threat_of_supply_counts_for_the_automatic_elimination() {
    let t = crt();
    // 8 against a 2-5 next to a friendly supply unit: 400%, not automatic...
    assert!(!automatic_elimination(&t, &moving(8, &[2], true)));
    // ...against one that cannot be supplied: its halved 1, 800%.
    assert!(automatic_elimination(&t, &moving(8, &[2], false)));
}

#[test]
fn crt_auto_terrain_and_leaders_count_in_the_defence() {
    let t = crt();
    let mut a = moving(30, &[5], true);
    a.multiplier = 2;
    assert!(!automatic_elimination(&t, &a));
    a.attack = 50;
    assert!(automatic_elimination(&t, &a));
    a.leader_defence = &[4];
    assert!(!automatic_elimination(&t, &a));
}

#[test]
fn combat_j_500_percent_bars_retreat_before_combat_except_cavalry_and_leaders() {
    let t = crt();
    assert!(retreat_before_combat_barred(&t, 25, &[5], 1, &[], false));
    assert!(!retreat_before_combat_barred(&t, 25, &[5], 1, &[], true));
    assert!(!retreat_before_combat_barred(&t, 24, &[5], 1, &[], false));
}

#[test]
fn combat_j_the_retreat_bar_counts_printed_strength_and_terrain() {
    let t = crt();
    // Against the printed 5 even if the defender would not spend supply: 20 is 400%.
    assert!(!retreat_before_combat_barred(&t, 20, &[5], 1, &[], false));
    // In a mountain: 50 against a doubled 5 is 500%.
    assert!(!retreat_before_combat_barred(&t, 49, &[5], 2, &[], false));
    assert!(retreat_before_combat_barred(&t, 50, &[5], 2, &[], false));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn combat_f_more_attack_never_gives_a_lower_column(a in 1u32..200, d in 1u32..100, more in 0u32..50) {
        let t = crt();
        let c1 = t.column(percent(a, d).unwrap());
        let c2 = t.column(percent(a + more, d).unwrap());
        prop_assert!(c1 <= c2);
        prop_assert!(t.percent(c1) <= percent(a, d).unwrap() || c1 == 0);
    }

    #[test]
    fn supply_a_a_defence_is_never_below_one_per_unit(units in proptest::collection::vec(1u32..20, 1..6), m in 1u32..4, supplied: bool) {
        let d = defence_strength(&units, supplied, m, &[]);
        prop_assert!(d >= m * units.len() as u32);
        prop_assert!(d <= m * units.iter().sum::<u32>());
    }
}
