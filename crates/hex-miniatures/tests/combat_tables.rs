//! The odds table [22], the combat results table [15] = [23] and one combat's arithmetic
//! ([9.4.1], [9.8]) against every statement the text makes about them, and our rulings
//! (HM1-HM7). Each test is named after the statement it pins.

use hex_miniatures::combat::{assess, CombatSituation, Direction, Shift};
use hex_miniatures::crt::{CombatResult, Crt, Ratio};
use hex_miniatures::data::Tables;
use hex_miniatures::prob::{Draw, D1000};

fn t() -> Tables {
    Tables::shipped()
}

fn name(crt: &Crt, c: usize) -> String {
    crt.ratio(c).to_string()
}

fn column_of(attack: u32, defence: u32) -> String {
    let t = t();
    name(&t.crt, t.crt.column(attack, defence).unwrap())
}

fn draw(n: u16) -> Draw {
    Draw::new(n).unwrap()
}

#[test]
fn odds_9_4_1_thirteen_against_four_is_three_to_one_rounded_for_the_defender() {
    assert_eq!(column_of(13, 4), "3:1");
    assert_eq!(column_of(12, 4), "3:1");
    assert_eq!(column_of(11, 4), "2:1");
    assert_eq!(column_of(4, 4), "1:1");
    assert_eq!(column_of(7, 4), "1:1");
    // below 1:1 the defender's favour too: 4 against 9 is 1:2.25, read 1:3
    assert_eq!(column_of(4, 9), "1:3");
    assert_eq!(column_of(4, 8), "1:2");
}

#[test]
fn hm4_odds_beyond_the_table_read_its_end_columns() {
    assert_eq!(column_of(100, 1), "6:1");
    assert_eq!(column_of(1, 100), "1:5");
    assert_eq!(column_of(0, 5), "1:5");
    assert_eq!(t().crt.column(5, 0), None);
}

#[test]
fn odds_table_22_has_the_columns_from_1_5_to_6_1() {
    let t = t();
    let names: Vec<String> = (0..t.crt.columns()).map(|c| name(&t.crt, c)).collect();
    assert_eq!(
        names,
        ["1:5", "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    );
    assert_eq!(
        Ratio::parse("2:3"),
        Err("'2:3': an odds column is written a:1 or 1:d".into())
    );
}

#[test]
fn crt_9_8_every_result_the_text_names_is_in_the_table() {
    let t = t();
    for r in CombatResult::ALL {
        assert!(
            (0..t.crt.columns()).any(|c| t.crt.bands(c).results().contains(&r)),
            "{r} missing"
        );
    }
}

#[test]
fn hm2_no_result_gets_worse_for_the_attacker_as_the_number_or_the_odds_rise() {
    let t = t();
    for c in 0..t.crt.columns() {
        let b = t.crt.bands(c);
        for n in 1..D1000 {
            assert!(b.at(n) >= b.at(n - 1), "column {c} at {n}");
            if c + 1 < t.crt.columns() {
                assert!(
                    t.crt.bands(c + 1).at(n) >= b.at(n),
                    "column {c} -> {} at {n}",
                    c + 1
                );
            }
        }
    }
}

#[test]
fn hm2_at_one_to_one_the_sides_are_even() {
    let t = t();
    let c = t.crt.column_named("1:1").unwrap();
    let w = t.crt.bands(c).weights(0);
    let get = |r| w.iter().find(|(x, _)| *x == r).map_or(0, |(_, n)| *n);
    assert_eq!(get(CombatResult::Ar), get(CombatResult::Dr));
    assert_eq!(get(CombatResult::Aw), get(CombatResult::Dw));
    assert_eq!(get(CombatResult::Ad), get(CombatResult::Dd));
    assert_eq!(w.iter().map(|(_, n)| n).sum::<u32>(), 1000);
}

#[test]
fn hm2_a_column_is_worth_a_generals_bonus() {
    // The design: each column to the right moves every bound down by 0.100, so +0.100 reads
    // the next column (away from the clamped ends).
    let t = t();
    for c in 0..t.crt.columns() - 1 {
        for n in 0..(D1000 - 100) {
            assert_eq!(
                t.crt.result(c, draw(n), 100),
                t.crt.result(c + 1, draw(n), 0),
                "column {c}, {n}"
            );
        }
    }
}

#[test]
fn combined_arms_9_4_1_two_arms_one_column_three_arms_two() {
    let t = t();
    let base = CombatSituation {
        attack: 4,
        defence: 4,
        arms: 1,
        ..CombatSituation::default()
    };
    for (arms, want) in [(1, "1:1"), (2, "2:1"), (3, "3:1")] {
        let a = assess(&t.crt, &t.combat, &CombatSituation { arms, ..base }).unwrap();
        assert_eq!(name(&t.crt, a.column), want, "{arms} arms");
    }
}

#[test]
fn flank_and_rear_9_4_1_flank_one_column_rear_two() {
    let t = t();
    let base = CombatSituation {
        attack: 4,
        defence: 4,
        arms: 1,
        ..CombatSituation::default()
    };
    for (d, want) in [
        (Direction::Front, "1:1"),
        (Direction::Flank, "2:1"),
        (Direction::Rear, "3:1"),
    ] {
        let a = assess(
            &t.crt,
            &t.combat,
            &CombatSituation {
                direction: d,
                ..base
            },
        )
        .unwrap();
        assert_eq!(name(&t.crt, a.column), want, "{d:?}");
    }
}

#[test]
fn hm5_shifts_add_and_stop_at_the_tables_edge() {
    let t = t();
    let s = CombatSituation {
        attack: 4,
        defence: 4,
        arms: 3,
        direction: Direction::Rear,
        ..CombatSituation::default()
    };
    let a = assess(&t.crt, &t.combat, &s).unwrap();
    assert_eq!(
        a.shifts,
        vec![
            (Shift::CombinedArms(3), 2),
            (Shift::Direction(Direction::Rear), 2)
        ]
    );
    assert_eq!(name(&t.crt, a.column), "5:1");
    let s = CombatSituation { attack: 20, ..s };
    let a = assess(&t.crt, &t.combat, &s).unwrap();
    assert_eq!(name(&t.crt, a.column), "6:1");
}

#[test]
fn terrain_9_6_the_defender_doubled_in_a_town_changes_the_odds() {
    let t = t();
    let s = CombatSituation {
        attack: 10,
        defence: 5,
        arms: 1,
        defence_multiplier: t
            .terrain
            .defence_multiplier("town", hex_miniatures::army::Arm::Infantry),
        ..CombatSituation::default()
    };
    let a = assess(&t.crt, &t.combat, &s).unwrap();
    assert_eq!(a.defence, 10);
    assert_eq!(name(&t.crt, a.column), "1:1");
}

#[test]
fn generals_9_2_add_a_tenth_napoleon_two_and_hm6_the_defenders_subtract() {
    let t = t();
    let base = CombatSituation {
        attack: 4,
        defence: 4,
        arms: 1,
        ..CombatSituation::default()
    };
    let m = |s: CombatSituation| assess(&t.crt, &t.combat, &s).unwrap().modifier;
    assert_eq!(
        m(CombatSituation {
            attacker_generals: (1, 0),
            ..base
        }),
        100
    );
    assert_eq!(
        m(CombatSituation {
            attacker_generals: (0, 1),
            ..base
        }),
        200
    );
    assert_eq!(
        m(CombatSituation {
            attacker_generals: (2, 0),
            ..base
        }),
        200
    );
    assert_eq!(
        m(CombatSituation {
            defender_generals: (1, 0),
            ..base
        }),
        -100
    );
    assert_eq!(
        m(CombatSituation {
            attacker_generals: (1, 0),
            defender_generals: (1, 0),
            ..base
        }),
        0
    );
}

#[test]
fn square_9_4_1_infantry_firing_into_a_square_add_a_tenth() {
    let t = t();
    let s = CombatSituation {
        attack: 8,
        defence: 8,
        arms: 1,
        infantry_against_square: true,
        ..CombatSituation::default()
    };
    assert_eq!(assess(&t.crt, &t.combat, &s).unwrap().modifier, 100);
}

#[test]
fn hm3_the_modified_number_stays_within_0_and_0_999() {
    let t = t();
    let c = t.crt.column_named("1:1").unwrap();
    assert_eq!(t.crt.result(c, draw(990), 300), CombatResult::Dr);
    assert_eq!(t.crt.result(c, draw(10), -300), CombatResult::Ar);
    assert_eq!(draw(950).modified(200), 999);
    assert_eq!(draw(50).modified(-200), 0);
}

#[test]
fn chances_of_each_result_add_up_and_follow_the_modifier() {
    let t = t();
    let s = CombatSituation {
        attack: 6,
        defence: 3,
        arms: 1,
        ..CombatSituation::default()
    };
    let a = assess(&t.crt, &t.combat, &s).unwrap();
    let ch = a.chances(&t.crt);
    assert_eq!(ch.iter().map(|(_, w)| w).sum::<u32>(), 1000);
    // 2:1: Aw 0.000-0.049, Ad to 0.249, Dx to 0.549, Dd to 0.749, Dw to 0.849, Dr above.
    assert_eq!(
        ch,
        vec![
            (CombatResult::Aw, 50),
            (CombatResult::Ad, 200),
            (CombatResult::Dx, 300),
            (CombatResult::Dd, 200),
            (CombatResult::Dw, 100),
            (CombatResult::Dr, 150)
        ]
    );
    // the chances are those of drawing every number
    for n in 0..D1000 {
        let r = a.result(&t.crt, draw(n));
        assert!(ch.iter().any(|(x, _)| *x == r));
    }
}

#[test]
fn results_9_8_who_each_result_touches() {
    use CombatResult::*;
    for r in [Ar, Aw, Ad] {
        assert!(r.touches_attacker() && !r.touches_defender());
    }
    assert!(Dx.touches_attacker() && Dx.touches_defender());
    for r in [Dd, Dw, Dr] {
        assert!(!r.touches_attacker() && r.touches_defender());
    }
    assert_eq!(CombatResult::parse("Dw"), Ok(Dw));
    assert!(CombatResult::parse("De").is_err());
}

#[test]
fn hm1_one_table_serves_15_and_23() {
    // The text names [15] and [23] both "Combat Results Table": the data holds one.
    let t = t();
    assert_eq!(t.crt.columns(), 10);
}

// ---- The square attack table [20] ----

use hex_miniatures::square::SquareResult;

#[test]
fn square_20_every_result_9_3_names_is_in_both_columns() {
    // [9.3.2] the cavalry disrupted, [9.3.3] the square broken, [9.3.5] the square holds.
    let t = t();
    for disordered in [false, true] {
        let b = t.square.column(disordered);
        for r in [
            SquareResult::Repulsed,
            SquareResult::Holds,
            SquareResult::Broken,
        ] {
            assert!(b.results().contains(&r), "{r:?} ({disordered})");
        }
    }
}

#[test]
fn square_9_3_1_a_disrupted_square_breaks_more_often_than_an_ordered_one() {
    let t = t();
    for m in [-200, -100, 0, 100, 200] {
        let broken = |d| t.square.column(d).chance(m, |r| r == SquareResult::Broken);
        let repulsed = |d| {
            t.square
                .column(d)
                .chance(m, |r| r == SquareResult::Repulsed)
        };
        assert!(broken(true) > broken(false), "{m}");
        assert!(repulsed(true) < repulsed(false), "{m}");
    }
    // our figures: 5% against an ordered square, 35% against a disrupted one
    assert_eq!(
        t.square
            .column(false)
            .chance(0, |r| r == SquareResult::Broken),
        50
    );
    assert_eq!(
        t.square
            .column(true)
            .chance(0, |r| r == SquareResult::Broken),
        350
    );
}

#[test]
fn square_9_3_1_the_cavalrys_higher_number_is_never_worse_for_it() {
    let t = t();
    for d in [false, true] {
        let b = t.square.column(d);
        for n in 1..D1000 {
            assert!(b.at(n) >= b.at(n - 1));
        }
    }
    assert_eq!(t.square.charge(false, draw(0), 0), SquareResult::Repulsed);
    assert_eq!(t.square.charge(false, draw(999), 0), SquareResult::Broken);
    // a general with the cavalry: +0.100 ([9.2])
    assert_eq!(t.square.charge(false, draw(500), 0), SquareResult::Repulsed);
    assert_eq!(t.square.charge(false, draw(500), 100), SquareResult::Holds);
    let ch = t.square.chances(true, 0);
    assert_eq!(ch.iter().map(|(_, w)| w).sum::<u32>(), 1000);
}

use proptest::prelude::*;

proptest! {
    #[test]
    fn more_strength_is_never_worse_for_the_attacker_and_chances_add_up(
        attack in 0u32..200,
        defence in 1u32..200,
        arms in 1u8..4,
        dir in 0u8..3,
        generals in 0u32..3,
        n in 0u16..1000,
    ) {
        let t = t();
        let direction = [Direction::Front, Direction::Flank, Direction::Rear][usize::from(dir)];
        let s = CombatSituation {
            attack,
            defence,
            arms,
            direction,
            attacker_generals: (generals, 0),
            ..CombatSituation::default()
        };
        let a = assess(&t.crt, &t.combat, &s).unwrap();
        let ch = a.chances(&t.crt);
        prop_assert_eq!(ch.iter().map(|(_, w)| w).sum::<u32>(), 1000);
        let r = a.result(&t.crt, draw(n));
        prop_assert!(ch.iter().any(|(x, w)| *x == r && *w > 0));
        let more = assess(&t.crt, &t.combat, &CombatSituation { attack: attack + 1, ..s }).unwrap();
        prop_assert!(more.result(&t.crt, draw(n)) >= r);
        let stronger_defence =
            assess(&t.crt, &t.combat, &CombatSituation { defence: defence + 1, ..s }).unwrap();
        prop_assert!(stronger_defence.result(&t.crt, draw(n)) <= r);
    }
}

// ---- What the results do [9.8] ----

use hex_miniatures::army::Order;
use hex_miniatures::results::{effect, Effect, Movement, Side};

fn fx(r: CombatResult, s: Side, o: Order) -> (bool, Order, Movement) {
    let Effect {
        base_unit_lost,
        order,
        movement,
    } = effect(r, s, o);
    (base_unit_lost, order, movement)
}

const ROUT: (bool, Order, Movement) = (true, Order::Routed, Movement::Rout);

#[test]
fn results_9_8_1_and_9_8_7_a_routed_side_loses_a_base_unit_and_routs_whatever_its_state() {
    for o in [Order::Ordered, Order::Disordered, Order::Retiring] {
        assert_eq!(fx(CombatResult::Ar, Side::Attacker, o), ROUT);
        assert_eq!(fx(CombatResult::Dr, Side::Defender, o), ROUT);
        assert_eq!(
            fx(CombatResult::Ar, Side::Defender, o),
            (false, o, Movement::Hold)
        );
        assert_eq!(
            fx(CombatResult::Dr, Side::Attacker, o),
            (false, o, Movement::Hold)
        );
    }
}

#[test]
fn results_9_8_2_9_8_6_hm23_aw_dw_ordered_units_retire_disrupted_ones_rout() {
    let retire = (false, Order::Retiring, Movement::Retire);
    assert_eq!(fx(CombatResult::Aw, Side::Attacker, Order::Ordered), retire);
    assert_eq!(fx(CombatResult::Dw, Side::Defender, Order::Ordered), retire);
    assert_eq!(
        fx(CombatResult::Aw, Side::Attacker, Order::Disordered),
        ROUT
    );
    assert_eq!(
        fx(CombatResult::Dw, Side::Defender, Order::Disordered),
        ROUT
    );
    assert_eq!(fx(CombatResult::Dw, Side::Defender, Order::Retiring), ROUT);
}

#[test]
fn results_9_8_3_hm23_ad_disrupts_the_attacker_and_sends_him_back_a_move() {
    assert_eq!(
        fx(CombatResult::Ad, Side::Attacker, Order::Ordered),
        (false, Order::Disordered, Movement::Withdraw)
    );
    assert_eq!(
        fx(CombatResult::Ad, Side::Attacker, Order::Disordered),
        ROUT
    );
}

#[test]
fn results_9_8_4_dx_disrupts_both_a_disrupted_attacker_loses_a_base_and_holds() {
    let dis = (false, Order::Disordered, Movement::Hold);
    assert_eq!(fx(CombatResult::Dx, Side::Attacker, Order::Ordered), dis);
    assert_eq!(fx(CombatResult::Dx, Side::Defender, Order::Ordered), dis);
    assert_eq!(
        fx(CombatResult::Dx, Side::Attacker, Order::Disordered),
        (true, Order::Disordered, Movement::Hold)
    );
    assert_eq!(
        fx(CombatResult::Dx, Side::Defender, Order::Disordered),
        ROUT
    );
}

#[test]
fn results_9_8_5_dd_disrupts_the_defender_who_holds_already_disrupted_he_routs() {
    assert_eq!(
        fx(CombatResult::Dd, Side::Defender, Order::Ordered),
        (false, Order::Disordered, Movement::Hold)
    );
    assert_eq!(
        fx(CombatResult::Dd, Side::Defender, Order::Disordered),
        ROUT
    );
    assert_eq!(fx(CombatResult::Dd, Side::Defender, Order::Routed), ROUT);
}
