//! The melee table and the melee arithmetic against every statement the rulebook makes about
//! them (NB Melee phase procedures, NB Combat results tables, NB SP limits for various
//! purposes, NB Terrain effects on melee strength, NB Napoleon At Leipzig, NB Leipzig Terrain
//! Effects, the 30 Years War notes on leader loss), and the table's sanity. Each test is named
//! after the statement it pins.

use napoleonic_battles::data::{StackLimits, Supplement, TerrainClass};
use napoleonic_battles::melee::{
    assess, melee_strength_halves, morale_passes, parse_result, AttackerArm, Column, HexForce,
    MeleeOdds, MeleeSituation, MeleeTable, MeleeTableFile, Through,
};

fn table() -> MeleeTable {
    Supplement::bon().melee
}

fn limits() -> StackLimits {
    Supplement::bon().stacking
}

fn inf(sp: u16) -> HexForce {
    HexForce {
        infantry: sp,
        ..HexForce::default()
    }
}

fn cav(sp: u16) -> HexForce {
    HexForce {
        cavalry: sp,
        ..HexForce::default()
    }
}

/// An infantry melee in the open, both sides morale 3, front, nothing else.
fn open(att: u16, def: u16) -> MeleeSituation {
    MeleeSituation {
        attacker: inf(att),
        defender: inf(def),
        attacker_morale: 3,
        defender_morale: 3,
        ..MeleeSituation::default()
    }
}

fn odds(s: &MeleeSituation) -> MeleeOdds {
    assess(&table(), s, &limits())
}

fn col(pct: u32) -> usize {
    let t = table();
    (0..t.columns())
        .find(|&c| t.percent(c) == pct)
        .unwrap_or_else(|| panic!("no {pct}% column"))
}

fn total_shift(o: &MeleeOdds) -> i32 {
    o.shifts.iter().map(|s| i32::from(s.by)).sum()
}

/// True when the column is Off or left of `c`.
fn below(column: Column, c: usize) -> bool {
    match column {
        Column::Off => true,
        Column::Table(x) => x < c,
    }
}

fn village() -> TerrainClass {
    Supplement::bon().terrain("town")
}

// ---- the columns (NB Combat results tables) ----

#[test]
fn columns_are_percentages_of_the_defender_strength() {
    let t = table();
    assert!(t.columns() >= 5);
    for c in 1..t.columns() {
        assert!(t.percent(c) > t.percent(c - 1));
    }
    assert!(t.percent(0) < 100 && t.percent(t.columns() - 1) > 100);
    assert_eq!(t.column_name(col(100)), "100%");
}

#[test]
fn percent_is_rounded_down_for_the_defender() {
    // The rulebook's example: 5 against 3 is 167%, which reads the 150% column.
    let o = odds(&open(5, 3));
    assert_eq!((o.attack_halves, o.defence_halves), (10, 6));
    assert_eq!(o.percent, Some(166));
    assert_eq!(o.base, Some(col(150)));
    assert_eq!(o.column, Column::Table(col(150)));
    // Just short of a column is the column below.
    assert_eq!(table().base_column(199, 100), Some(col(150)));
    assert_eq!(table().base_column(200, 100), Some(col(200)));
}

#[test]
fn the_highest_column_reached_is_used() {
    let t = table();
    for c in 0..t.columns() {
        let p = t.percent(c);
        assert_eq!(t.base_column(p, 100), Some(c));
        if c + 1 < t.columns() {
            assert_eq!(t.base_column(t.percent(c + 1) - 1, 100), Some(c));
        }
    }
}

#[test]
fn defender_bonuses_apply_after_strength_and_rounding() {
    // 5 against 3 rounds to 150% first; the fortified hex's shift then moves one column.
    let mut s = open(5, 3);
    s.terrain = TerrainClass {
        fortified: true,
        obstructed: true,
        ..TerrainClass::default()
    };
    let o = odds(&s);
    assert_eq!(o.base, Some(col(150)));
    assert_eq!(o.column, Column::Table(col(125)));
}

#[test]
fn shifts_past_the_rightmost_column_use_the_rightmost() {
    let mut s = open(12, 1);
    s.through = Through::Rear;
    s.defender_disordered = true;
    let o = odds(&s);
    assert_eq!(o.column, Column::Table(table().columns() - 1));
}

#[test]
fn below_the_leftmost_column_the_melee_may_not_be_made() {
    // Ruling NB7: 1 against 6 is 16%, below 25%: Off.
    let o = odds(&open(1, 6));
    assert_eq!(o.base, None);
    assert_eq!(o.column, Column::Off);
    // A shift left off the table is Off too.
    let mut s = open(2, 6); // 33% reads 25%
    s.up_slope = true;
    assert_eq!(odds(&s).column, Column::Off);
}

#[test]
fn a_right_shift_lifts_a_melee_below_the_leftmost_onto_it() {
    let mut s = open(1, 6);
    s.through = Through::Flank;
    assert_eq!(odds(&s).column, Column::Table(0));
}

#[test]
fn no_attack_strength_means_no_melee() {
    let mut s = open(0, 3);
    s.attacker.artillery = 6; // artillery never attacks
    s.through = Through::Rear;
    let o = odds(&s);
    assert_eq!(o.attack_halves, 0);
    assert_eq!(o.column, Column::Off);
}

#[test]
fn a_defender_with_no_melee_strength_is_met_at_the_rightmost_column() {
    let t = table();
    assert_eq!(t.base_column(2, 0), Some(t.columns() - 1));
}

// ---- the results (NB Combat results tables; 30 Years War notes on leader loss) ----

#[test]
fn defender_retreats_only_above_50_percent() {
    let t = table();
    for c in 0..t.columns() {
        let any = (1..=6).any(|r| t.result(c, r).defender_retreat > 0);
        if t.percent(c) <= 50 {
            assert!(!any, "the defender retreats at {}", t.column_name(c));
        } else {
            assert!(any, "the defender never retreats at {}", t.column_name(c));
        }
    }
}

#[test]
fn attacker_retreats_only_at_125_percent_or_less() {
    let t = table();
    for c in 0..t.columns() {
        let any = (1..=6).any(|r| t.result(c, r).attacker_retreat > 0);
        if t.percent(c) <= 125 {
            assert!(any, "the attacker never retreats at {}", t.column_name(c));
        } else {
            assert!(!any, "the attacker retreats at {}", t.column_name(c));
        }
    }
}

#[test]
fn defender_leader_loss_only_on_a_6_when_the_defender_retreats() {
    let t = table();
    for c in 0..t.columns() {
        for r in 1..=6 {
            let res = t.result(c, r);
            let expect = r == 6 && res.defender_retreat > 0;
            assert_eq!(
                res.defender_leader_loss,
                expect,
                "{} roll {r}",
                t.column_name(c)
            );
        }
        // Above 50% the 6 always drives the defender back, so it always risks his leader.
        if t.percent(c) > 50 {
            assert!(t.result(c, 6).defender_leader_loss);
        }
    }
}

#[test]
fn attacker_leader_loss_only_on_a_1_at_125_or_less() {
    let t = table();
    for c in 0..t.columns() {
        for r in 1..=6 {
            let res = t.result(c, r);
            let expect = r == 1 && t.percent(c) <= 125;
            assert_eq!(
                res.attacker_leader_loss,
                expect,
                "{} roll {r}",
                t.column_name(c)
            );
            if res.attacker_leader_loss {
                assert!(
                    res.attacker_retreat > 0,
                    "a leader is lost only in a repulse"
                );
            }
        }
    }
}

#[test]
fn the_melee_roll_is_one_die_with_the_morale_die_beside_it() {
    let t = table();
    assert_eq!(t.dice(), 1);
    assert_eq!(
        t.roll_weights(),
        (1..=6).map(|r| (r, 1)).collect::<Vec<_>>()
    );
}

#[test]
fn results_are_losses_in_single_strength_points() {
    // The slower advanced game: every loss is in SP, none larger than a small unit.
    let t = table();
    for c in 0..t.columns() {
        for r in 1..=6 {
            let res = t.result(c, r);
            assert!(res.attacker_loss <= 2 && res.defender_loss <= 4);
            assert!(
                res.attacker_loss + res.defender_loss > 0,
                "a melee costs blood"
            );
        }
    }
}

#[test]
fn both_sides_never_retreat_from_one_melee() {
    let t = table();
    for c in 0..t.columns() {
        for r in 1..=6 {
            let res = t.result(c, r);
            assert!(res.attacker_retreat == 0 || res.defender_retreat == 0);
        }
    }
}

#[test]
fn a_retreating_side_checks_morale() {
    // Ruling NB13: the morale die decides whether a side driven back is also disordered.
    let t = table();
    for c in 0..t.columns() {
        for r in 1..=6 {
            let res = t.result(c, r);
            if res.attacker_retreat > 0 {
                assert!(res.attacker_morale_check, "{} {r}", t.column_name(c));
            }
            if res.defender_retreat > 0 {
                assert!(res.defender_morale_check, "{} {r}", t.column_name(c));
            }
        }
    }
}

#[test]
fn losses_grow_with_the_column() {
    let t = table();
    for c in 1..t.columns() {
        let (a0, d0) = t.expected_losses(c - 1);
        let (a1, d1) = t.expected_losses(c);
        assert!(d1 >= d0, "defender loss falls at {}", t.column_name(c));
        assert!(a1 <= a0, "attacker loss grows at {}", t.column_name(c));
        assert!(d1 - a1 > d0 - a0, "no gain at {}", t.column_name(c));
    }
    let (a, d) = t.expected_losses(col(100));
    assert!(a >= 0.5 && d >= 0.5, "an even fight costs both sides");
}

#[test]
fn retreats_shift_toward_the_defender_with_the_column() {
    let t = table();
    let dr = |c| t.chance(c, |r| r.defender_retreat > 0);
    let ar = |c| t.chance(c, |r| r.attacker_retreat > 0);
    for c in 1..t.columns() {
        assert!(
            dr(c) >= dr(c - 1) && ar(c) <= ar(c - 1),
            "{}",
            t.column_name(c)
        );
    }
    assert!(
        dr(t.columns() - 1) == 1.0,
        "at the rightmost the defender always goes"
    );
    assert!(
        ar(0) >= 0.5,
        "at the leftmost the attacker is usually thrown back"
    );
}

#[test]
fn a_higher_roll_is_never_worse_for_the_attacker() {
    let t = table();
    for c in 0..t.columns() {
        for r in 2..=6 {
            let (lo, hi) = (t.result(c, r - 1), t.result(c, r));
            assert!(
                hi.attacker_loss <= lo.attacker_loss,
                "{} {r}",
                t.column_name(c)
            );
            assert!(
                hi.defender_loss >= lo.defender_loss,
                "{} {r}",
                t.column_name(c)
            );
            assert!(hi.attacker_retreat <= lo.attacker_retreat);
            assert!(hi.defender_retreat >= lo.defender_retreat);
        }
    }
}

// ---- strengths (NB SP limits for various purposes; NB Stacking and SP limits) ----

#[test]
fn the_first_six_infantry_sp_count_one_each_the_rest_one_half() {
    let l = limits();
    assert_eq!(melee_strength_halves(&inf(6), false, &l), 12);
    assert_eq!(melee_strength_halves(&inf(7), false, &l), 13);
    // 11 SP: 6 + 5 halves = 8.5, i.e. 17 half points.
    assert_eq!(melee_strength_halves(&inf(11), false, &l), 17);
}

#[test]
fn artillery_counts_against_the_first_six() {
    let l = limits();
    let f = HexForce {
        infantry: 6,
        artillery: 2,
        ..HexForce::default()
    };
    // 8 SP: the 2 artillery take two of the six whole places: 6 + 2 halves = 7.
    assert_eq!(melee_strength_halves(&f, false, &l), 14);
}

#[test]
fn artillery_beyond_six_adds_nothing_to_melee_defence() {
    let l = limits();
    let six = HexForce {
        artillery: 6,
        ..HexForce::default()
    };
    let nine = HexForce {
        artillery: 9,
        ..HexForce::default()
    };
    assert_eq!(melee_strength_halves(&six, false, &l), 12);
    assert_eq!(melee_strength_halves(&nine, false, &l), 12);
}

#[test]
fn artillery_never_attacks() {
    let mut s = open(3, 3);
    s.attacker.artillery = 6;
    let o = odds(&s);
    assert_eq!(o.attack_halves, 6);
}

#[test]
fn cavalry_counts_two_in_the_open_one_in_obstructed_terrain() {
    let l = limits();
    assert_eq!(melee_strength_halves(&cav(3), false, &l), 12);
    assert_eq!(melee_strength_halves(&cav(3), true, &l), 6);
}

#[test]
fn excess_over_the_obstructed_limit_is_ignored() {
    let l = limits();
    // Infantry: 6 SP in obstructed terrain; cavalry: 3.
    assert_eq!(melee_strength_halves(&inf(12), true, &l), 12);
    assert_eq!(melee_strength_halves(&cav(6), true, &l), 6);
}

#[test]
fn a_lone_unit_above_its_open_limit_fights_with_its_full_strength() {
    // NB Napoleon At Leipzig: the Guard heavy cavalry's 8 SP all count in the open (16).
    let l = limits();
    assert_eq!(melee_strength_halves(&cav(8), false, &l), 32);
    // Ruling NB5: so does a 16 SP infantry division (6 + 10 halves = 11).
    assert_eq!(melee_strength_halves(&inf(16), false, &l), 22);
}

#[test]
fn the_attacked_hex_limit_binds_the_attacker() {
    // NB Melee phase procedures: melee into obstructed terrain uses only what could fight
    // there: 12 SP attack as 6.
    let mut s = open(12, 3);
    s.terrain = Supplement::bon().terrain("forest");
    let o = odds(&s);
    assert_eq!((o.attack_halves, o.defence_halves), (12, 6));
}

#[test]
fn maxed_obstructed_defender_cannot_be_reached_at_100_without_shifts() {
    // NB Terrain effects on melee strength: a full obstructed hex with a defensive bonus
    // cannot be met at 100% by any attacker, however large.
    let fortified = TerrainClass {
        obstructed: true,
        fortified: true,
        ..TerrainClass::default()
    };
    for att in 1..=16 {
        let mut s = open(att, 6);
        s.terrain = fortified;
        let o = odds(&s);
        assert!(below(o.column, col(100)), "{att} SP reach {:?}", o.column);
    }
    // Cavalry against a full town: 3 SP at 1 each against 6, and the town's shift.
    for att in 1..=8 {
        let mut s = open(0, 6);
        s.attacker = cav(att);
        s.attacker_arm = AttackerArm::Cavalry;
        s.terrain = village();
        let o = odds(&s);
        assert!(
            below(o.column, col(100)),
            "{att} cavalry SP reach {:?}",
            o.column
        );
    }
}

#[test]
fn a_maxed_obstructed_defender_can_still_be_shifted_to_100() {
    // "They might still shift to that column or better thanks to facing, disorder..."
    let mut s = open(12, 6);
    s.terrain = TerrainClass {
        obstructed: true,
        fortified: true,
        ..TerrainClass::default()
    };
    s.through = Through::Flank;
    assert_eq!(odds(&s).column, Column::Table(col(100)));
    s.defender_disordered = true;
    assert_eq!(odds(&s).column, Column::Table(col(125)));
}

// ---- every shift, by name ----

#[test]
fn flank_attack_shifts_one_right() {
    let mut s = open(6, 6);
    s.through = Through::Flank;
    let o = odds(&s);
    assert_eq!(total_shift(&o), 1);
    assert_eq!(o.shifts[0].rule, "NB Melee phase procedures");
    assert_eq!(o.column, Column::Table(col(125)));
}

#[test]
fn rear_attack_shifts_one_right() {
    let mut s = open(6, 6);
    s.through = Through::Rear;
    assert_eq!(total_shift(&odds(&s)), 1);
}

#[test]
fn front_attack_has_no_shift() {
    let o = odds(&open(6, 6));
    assert!(o.shifts.is_empty());
    assert_eq!(o.column, Column::Table(col(100)));
}

#[test]
fn disordered_defender_shifts_one_right() {
    let mut s = open(6, 6);
    s.defender_disordered = true;
    let o = odds(&s);
    assert_eq!(total_shift(&o), 1);
    assert!(o.shifts[0].why.contains("disordered"));
}

#[test]
fn morale_two_higher_shifts_toward_the_higher_side() {
    let mut s = open(6, 6);
    s.attacker_morale = 4;
    s.defender_morale = 2;
    assert_eq!(total_shift(&odds(&s)), 1);
    s.attacker_morale = 2;
    s.defender_morale = 4;
    assert_eq!(total_shift(&odds(&s)), -1);
    // One higher is nothing.
    s.attacker_morale = 3;
    assert!(odds(&s).shifts.is_empty());
    // Demoralization's -1 is in the morale the game passes: 4 against a demoralized 2.
    s.attacker_morale = 2 - 1;
    s.defender_morale = 3;
    assert_eq!(total_shift(&odds(&s)), -1);
}

#[test]
fn heavy_cavalry_attacking_light_cavalry_shifts_one_right() {
    let mut s = open(0, 0);
    s.attacker = cav(3);
    s.defender = cav(3);
    s.attacker_arm = AttackerArm::Cavalry;
    s.attacker_heavy_cavalry = true;
    s.defender_light_cavalry = true;
    let o = odds(&s);
    assert_eq!(total_shift(&o), 1);
    assert_eq!(o.shifts[0].rule, "NB Napoleon At Leipzig");
}

#[test]
fn heavy_cavalry_gets_no_shift_against_anything_but_light_cavalry() {
    let mut s = open(0, 3);
    s.attacker = cav(3);
    s.attacker_arm = AttackerArm::Cavalry;
    s.attacker_heavy_cavalry = true;
    assert!(odds(&s).shifts.is_empty());
    // Nor on defence: light cavalry attacking heavy is plain.
    s.attacker_heavy_cavalry = false;
    s.defender = cav(3);
    assert!(odds(&s).shifts.is_empty());
}

#[test]
fn old_guard_infantry_attacking_shifts_one_right() {
    let mut s = open(6, 6);
    s.attacker_old_guard = true;
    let o = odds(&s);
    assert_eq!(total_shift(&o), 1);
    assert!(o.shifts[0].why.contains("Old Guard"));
}

#[test]
fn old_guard_gets_no_shift_against_another_dot_unit() {
    let mut s = open(6, 6);
    s.attacker_old_guard = true;
    s.defender_old_guard = true;
    assert!(odds(&s).shifts.is_empty());
}

#[test]
fn old_guard_defends_normally() {
    let mut s = open(6, 6);
    s.defender_old_guard = true;
    assert!(odds(&s).shifts.is_empty());
}

#[test]
fn bridge_attackers_use_obstructed_limits_and_shift_one_left() {
    let mut s = open(12, 6);
    s.across_bridge = true;
    let o = odds(&s);
    // 12 SP attack as 6 (obstructed limit); the defender in the open keeps 6 whole.
    assert_eq!((o.attack_halves, o.defence_halves), (12, 12));
    assert_eq!(total_shift(&o), -1);
    assert_eq!(o.shifts[0].rule, "NB Leipzig Terrain Effects");
    assert_eq!(o.column, Column::Table(col(75)));
}

#[test]
fn bridge_with_one_sp_left_still_attacks() {
    // A bridge attack with a single SP left: 1 against 1 is 100%, one left is 75%.
    let mut s = open(1, 1);
    s.across_bridge = true;
    assert_eq!(odds(&s).column, Column::Table(col(75)));
}

#[test]
fn bridge_does_not_cut_the_defender() {
    let mut s = open(6, 12);
    s.across_bridge = true;
    assert_eq!(odds(&s).defence_halves, 18);
}

#[test]
fn villages_shift_one_left_against_cavalry_only() {
    let mut s = open(0, 3);
    s.attacker = cav(3);
    s.attacker_arm = AttackerArm::Cavalry;
    s.terrain = village();
    assert_eq!(total_shift(&odds(&s)), -1);
    // Infantry melee: no effect beyond the obstructed limits.
    let mut s = open(3, 3);
    s.terrain = village();
    assert!(odds(&s).shifts.is_empty());
}

#[test]
fn fortified_shifts_one_left() {
    let mut s = open(6, 6);
    s.terrain = TerrainClass {
        obstructed: true,
        fortified: true,
        ..TerrainClass::default()
    };
    assert_eq!(total_shift(&odds(&s)), -1);
}

#[test]
fn fortified_is_cumulative_with_a_bridge() {
    let mut s = open(6, 6);
    s.terrain = TerrainClass {
        obstructed: true,
        fortified: true,
        ..TerrainClass::default()
    };
    s.across_bridge = true;
    assert_eq!(total_shift(&odds(&s)), -2);
}

#[test]
fn swamp_is_only_obstructed_for_melee() {
    let mut s = open(12, 12);
    s.terrain = Supplement::bon().terrain("marsh");
    assert!(s.terrain.swamp && s.terrain.obstructed);
    let o = odds(&s);
    assert!(o.shifts.is_empty());
    assert_eq!((o.attack_halves, o.defence_halves), (12, 12));
}

#[test]
fn forest_is_only_obstructed() {
    let mut s = open(12, 12);
    s.terrain = Supplement::bon().terrain("forest");
    let o = odds(&s);
    assert!(o.shifts.is_empty());
    assert_eq!(o.defence_halves, 12);
}

#[test]
fn stream_shifts_one_left_and_is_not_obstructed() {
    let mut s = open(12, 6);
    s.across_stream = true;
    let o = odds(&s);
    assert_eq!(total_shift(&o), -1);
    assert_eq!(o.attack_halves, 18, "no obstructed limit across a stream");
}

#[test]
fn up_slope_shifts_one_left() {
    let mut s = open(6, 6);
    s.up_slope = true;
    assert_eq!(total_shift(&odds(&s)), -1);
}

#[test]
fn shifts_are_cumulative() {
    let mut s = open(6, 6);
    s.through = Through::Rear;
    s.defender_disordered = true;
    s.attacker_old_guard = true;
    s.up_slope = true;
    s.across_stream = true;
    let o = odds(&s);
    assert_eq!(o.shifts.len(), 5);
    assert_eq!(total_shift(&o), 1);
    assert_eq!(o.column, Column::Table(col(125)));
}

// ---- morale ----

#[test]
fn a_morale_check_passes_on_a_die_at_most_the_morale() {
    assert!(morale_passes(3, 3));
    assert!(!morale_passes(3, 4));
    assert!(!morale_passes(0, 1));
    assert!(morale_passes(6, 6));
    // A leader's modifier lowers the die, i.e. raises the target.
    assert!(morale_passes(2 + 2, 4));
}

// ---- the table as data ----

#[test]
fn cells_read_in_the_documented_notation() {
    let r = parse_result("1r1mL/0").unwrap();
    assert_eq!(
        (
            r.attacker_loss,
            r.attacker_retreat,
            r.attacker_morale_check,
            r.attacker_leader_loss
        ),
        (1, 1, true, true)
    );
    assert_eq!(r.defender_loss, 0);
    assert_eq!(r.to_string(), "1r1mL/0");
    let t = table();
    for c in 0..t.columns() {
        for roll in 1..=6 {
            let res = t.result(c, roll);
            assert_eq!(parse_result(&res.to_string()).unwrap(), *res);
        }
    }
}

#[test]
fn bad_cells_are_refused_with_a_reason() {
    for bad in [
        "", "1", "x/0", "1r/0", "1r0/0", "1mm/0", "1/2q", "300/0", "1 / r1",
    ] {
        assert!(parse_result(bad).is_err(), "{bad:?} accepted");
    }
}

fn file(dice: u8, columns: Vec<u32>, rows: usize, cell: &str) -> MeleeTableFile {
    MeleeTableFile {
        dice,
        columns: columns.clone(),
        results: vec![vec![cell.to_string(); columns.len()]; rows],
    }
}

#[test]
fn a_table_of_the_wrong_shape_is_refused() {
    assert!(MeleeTable::from_file(&file(1, vec![50, 100], 6, "1/1")).is_ok());
    let e = MeleeTable::from_file(&file(1, vec![50, 100], 5, "1/1")).unwrap_err();
    assert!(e.to_string().contains("rows"), "{e}");
    let e = MeleeTable::from_file(&file(3, vec![50, 100], 6, "1/1")).unwrap_err();
    assert!(e.to_string().contains("dice"), "{e}");
    let e = MeleeTable::from_file(&file(1, vec![100, 100], 6, "1/1")).unwrap_err();
    assert!(e.to_string().contains("increase"), "{e}");
    let e = MeleeTable::from_file(&file(1, vec![], 6, "1/1")).unwrap_err();
    assert!(e.to_string().contains("no columns"), "{e}");
    let e = MeleeTable::from_file(&file(1, vec![50, 100], 6, "1/z")).unwrap_err();
    assert!(e.to_string().contains("roll 1, column 50%"), "{e}");
    // Two dice: rolls 2..=12, weighted.
    let t = MeleeTable::from_file(&file(2, vec![50, 100], 11, "1/1")).unwrap();
    assert_eq!(t.roll_weights().iter().map(|x| x.1).sum::<u32>(), 36);
    assert_eq!(t.roll_weights()[5], (7, 6));
}

fn replace_melee(section: &str) -> String {
    let text = Supplement::BON_TOML;
    let at = text
        .find("\n[melee]\n")
        .expect("the embedded file has [melee]");
    format!("{}\n{section}", &text[..at])
}

#[test]
fn a_replaced_table_is_used() {
    // A player's printed table: two columns, every result a rout of the defender.
    let text = replace_melee(
        "[melee]\ndice = 1\ncolumns = [10, 1000]\nresults = [\n\
         [\"0/9r3m\", \"0/9r3m\"], [\"0/9r3m\", \"0/9r3m\"], [\"0/9r3m\", \"0/9r3m\"],\n\
         [\"0/9r3m\", \"0/9r3m\"], [\"0/9r3m\", \"0/9r3m\"], [\"0/9r3mL\", \"0/9r3mL\"]]\n",
    );
    let s = Supplement::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(s.digest, Supplement::bon().digest);
    assert_eq!(s.melee.columns(), 2);
    let o = assess(&s.melee, &open(2, 6), &s.stacking);
    assert_eq!(o.column, Column::Table(0));
    let r = s.melee.result(0, 4);
    assert_eq!((r.defender_loss, r.defender_retreat), (9, 3));
}

#[test]
fn a_table_given_alone_replaces_the_embedded_one() {
    let s = Supplement::bon()
        .with_melee_table(
            "[melee]\ndice = 1\ncolumns = [100]\nresults = [[\"1/0\"], [\"1/0\"], [\"1/0\"], \
             [\"0/1\"], [\"0/1\"], [\"0/1r1mL\"]]\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.melee.columns(), 1);
    assert_ne!(s.digest, Supplement::bon().digest);
    assert_eq!(s.leaders, Supplement::bon().leaders);
    let e = Supplement::bon()
        .with_melee_table("[melee]\ndice = 1\ncolumns = [100]\nresults = []\n")
        .unwrap_err();
    assert!(e.to_string().contains("0 rows"), "{e}");
    let e = Supplement::bon().with_melee_table("melee = 3").unwrap_err();
    assert!(!e.to_string().is_empty());
}

#[test]
fn a_broken_replacement_table_is_refused_clearly() {
    let text = replace_melee("[melee]\ndice = 1\ncolumns = [50, 100]\nresults = [[\"1/1\"]]\n");
    let e = Supplement::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("melee table") && e.contains("rows"), "{e}");
    let text = replace_melee("[melee]\ndice = 1\ncolumns = [50]\n");
    let e = Supplement::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("results"), "{e}");
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // no regression files: a failure prints its minimal case, and the run stays quiet
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn any_cell_text_parses_or_is_refused(s in ".{0,12}") {
            let _ = parse_result(&s);
        }

        #[test]
        fn any_table_shape_parses_or_is_refused(
            dice in 0u8..4,
            columns in proptest::collection::vec(0u32..500, 0..5),
            rows in 0usize..13,
            cell in "[0-9rmL/]{0,6}",
        ) {
            let _ = MeleeTable::from_file(&file(dice, columns, rows, &cell));
        }

        #[test]
        fn any_melee_assesses(
            ai in 0u16..20, ac in 0u16..10, di in 0u16..20, dc in 0u16..10, da in 0u16..10,
            am in 0i8..6, dm in 0i8..6, flags in 0u16..512,
        ) {
            let b = |i: u16| flags & (1 << i) != 0;
            let s = MeleeSituation {
                attacker: HexForce { infantry: ai, cavalry: ac, artillery: 0 },
                defender: HexForce { infantry: di, cavalry: dc, artillery: da },
                attacker_arm: if b(0) { AttackerArm::Cavalry } else { AttackerArm::Infantry },
                attacker_morale: am,
                defender_morale: dm,
                defender_disordered: b(1),
                through: if b(2) { Through::Flank } else { Through::Front },
                attacker_old_guard: b(3),
                terrain: TerrainClass { obstructed: b(4), village: b(5), fortified: b(6), swamp: false },
                across_bridge: b(7),
                up_slope: b(8),
                ..MeleeSituation::default()
            };
            let o = odds(&s);
            if let Column::Table(c) = o.column {
                prop_assert!(c < table().columns());
            }
        }
    }
}

#[test]
fn cavalry_attacking_into_obstructed_terrain_counts_one_per_sp() {
    // Ruling NB35: the attacked hex's terrain sets the attacker's limits and cavalry value.
    let mut s = open(0, 3);
    s.attacker = cav(5);
    s.attacker_arm = AttackerArm::Cavalry;
    s.terrain = Supplement::bon().terrain("forest");
    assert_eq!(odds(&s).attack_halves, 6);
}

#[test]
fn an_assessment_explains_itself_with_its_rules() {
    let t = table();
    let mut s = open(5, 3);
    s.through = Through::Flank;
    assert_eq!(
        odds(&s).explain(&t),
        "5 against 3 (166%): 150%; +1 through the defender's flank \
         (NB Melee phase procedures): 200%"
    );
    assert_eq!(odds(&open(11, 6)).explain(&t), "8.5 against 6 (141%): 125%");
    let e = odds(&open(1, 6)).explain(&t);
    assert!(
        e.ends_with("off the table, the melee may not be made (NB7)"),
        "{e}"
    );
}
