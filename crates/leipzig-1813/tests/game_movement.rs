//! Movement, zones of control, stacking, break-down and build-up, supply for stacks, forced
//! march (Movement, Zones of Control, Stacking and Unit Breakdown, Supply, Forced March).

mod common;
use common::*;
use engine::{Rules, ToAct};
use leipzig_1813::game::{MarchState, Status, Step};
use leipzig_1813::{Action, Event};

fn cost(g: &leipzig_1813::Game, u: usize, to: hexmap::Hex) -> Option<u32> {
    g.moves(u)
        .into_iter()
        .find(|&(h, _)| h == to)
        .map(|(_, c)| c)
}

#[test]
fn movement_a_each_hex_entered_costs_its_terrain_within_the_allowance() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    assert_eq!(cost(&g, d, steps(&g, h, 0, 1)), Some(1));
    assert_eq!(cost(&g, d, steps(&g, h, 0, 4)), Some(4));
    g.stage_unit_mut(d).mp = 3;
    assert_eq!(cost(&g, d, steps(&g, h, 0, 3)), Some(3));
    assert_eq!(cost(&g, d, steps(&g, h, 0, 4)), None);
    g.stage_unit_mut(d).mp = 5;
    let t = format!("move {} {}", g.label(d), steps(&g, h, 0, 2));
    act(&mut g, &t);
    assert_eq!(g.units()[d].mp, 3);
}

#[test]
fn tec_river_hexside_three_more_to_cross() {
    let mut g = staged(0);
    let (a, b, _) = river_crossing(&g);
    let d = g.stage_unit(0, "infantry-division", a).unwrap();
    assert_eq!(cost(&g, d, b), Some(4));
}

#[test]
fn stacking_c_entering_and_leaving_friendly_combat_units_cost_one_more_each() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let n = steps(&g, h, 0, 1);
    let a = g.stage_unit(0, "infantry-division", h).unwrap();
    let b = g.stage_unit(0, "infantry-division", h).unwrap();
    // Leaving a friendly combat unit: 1 + 1.
    assert_eq!(cost(&g, a, n), Some(2));
    let t = format!("move {} {n}", g.label(a));
    act(&mut g, &t);
    // Entering one: 1 + 1.
    let m = steps(&g, h, 3, 1);
    let t = format!("move {} {m}", g.label(b));
    act(&mut g, &t);
    assert_eq!(g.units()[b].mp, 4);
    let c = g
        .stage_unit(0, "infantry-division", steps(&g, n, 0, 1))
        .unwrap();
    assert_eq!(cost(&g, c, n), Some(2));
    // Stacking (A): leaders move through and onto combat units freely.
    let l = g.stage_leader(0, 2, h);
    g.stage_unit(0, "infantry-division", h).unwrap();
    assert_eq!(cost(&g, l, n), Some(1));
}

#[test]
fn fortress_c_no_stacking_penalty_in_a_fortress() {
    let mut g = staged(0);
    let f = fortress(&g);
    let a = g.stage_unit(0, "infantry-division", f).unwrap();
    g.stage_unit(0, "infantry-division", f).unwrap();
    let (_, n) = g
        .board()
        .neighbours(f)
        .find(|&(d, n)| g.board().side(f, d).cost == 1 && !g.board().hex(n).fortress)
        .unwrap();
    assert_eq!(cost(&g, a, n), Some(1));
}

#[test]
fn zones_of_control_a_infantry_stops_on_entering_an_enemy_zone() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit(1, "infantry-division", steps(&g, h, 0, 2))
        .unwrap();
    let m = steps(&g, h, 0, 1);
    let t = format!("move {} {m}", g.label(d));
    act(&mut g, &t);
    assert!(g.units()[d].stopped);
    assert!(g.moves(d).is_empty());
    let back = steps(&g, h, 3, 1);
    assert_eq!(
        refusal(&g, &format!("move {} {back}", g.label(d))).case,
        "Zones of Control (A)"
    );
}

#[test]
fn zones_of_control_b_infantry_never_steps_from_one_controlled_hex_to_another() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let e = steps(&g, h, 0, 1);
    g.stage_unit(1, "infantry-division", e).unwrap();
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let z = g.zones_of_control();
    let controlled: Vec<_> = g
        .board()
        .neighbours(h)
        .map(|(_, n)| n)
        .filter(|&n| n != e && z[g.board().index(n).unwrap()][1] > 0)
        .collect();
    assert_eq!(controlled.len(), 2);
    // Every neighbour of h the enemy also controls is reached only by a detour through a
    // free hex (the first hex entered is not controlled), never in one step...
    for &n in &controlled {
        assert!(cost(&g, d, n).is_none_or(|c| c >= 2), "{n}");
    }
    // ...but cavalry steps straight in.
    let c = g.stage_unit(0, "cavalry-division", h).unwrap();
    g.stage_unit_mut(c).hex = h;
    for &n in &controlled {
        assert_eq!(
            cost(&g, c, n),
            Some(2),
            "{n}: 1 and 1 to leave the division"
        );
    }
}

#[test]
fn zones_of_control_b_cavalry_passes_a_partial_zone_at_two_more_and_stops_in_a_total_one() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let c = g.stage_unit(0, "cavalry-division", h).unwrap();
    g.stage_unit(1, "infantry-division", steps(&g, h, 0, 2))
        .unwrap();
    let m = steps(&g, h, 0, 1);
    let t = format!("move {} {m}", g.label(c));
    act(&mut g, &t);
    assert!(!g.units()[c].stopped);
    // Leaving the partial zone entered this phase: 1 + 2 (back where it came from).
    assert_eq!(cost(&g, c, h), Some(3));
    // A cavalry zone is total: cavalry stops there.
    let mut g = staged(0);
    let c = g.stage_unit(0, "cavalry-division", h).unwrap();
    g.stage_unit(1, "cavalry-division", steps(&g, h, 0, 2))
        .unwrap();
    let t = format!("move {} {m}", g.label(c));
    act(&mut g, &t);
    assert!(g.units()[c].stopped);
}

#[test]
fn zones_of_control_c_not_across_an_unbridged_river_nor_into_a_fortress() {
    let mut g = staged(0);
    let (a, b, _) = river_crossing(&g);
    g.stage_unit(1, "cavalry-division", b).unwrap();
    let z = g.zones_of_control();
    assert_eq!(z[g.board().index(a).unwrap()][1], 0);
    let mut g = staged(0);
    let f = fortress(&g);
    let (_, n) = g
        .board()
        .neighbours(f)
        .find(|&(d, _)| g.board().side(f, d).zoc)
        .unwrap();
    g.stage_unit(1, "cavalry-division", n).unwrap();
    let z = g.zones_of_control();
    assert_eq!(z[g.board().index(f).unwrap()][1], 0);
    // Fortress (D): units in a fortress exert none outside it.
    let mut g = staged(0);
    g.stage_unit(1, "cavalry-division", f).unwrap();
    let z = g.zones_of_control();
    assert_eq!(z[g.board().index(n).unwrap()][1], 0);
}

#[test]
fn movement_g_no_unit_enters_a_hex_of_enemy_units() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let c = g.stage_unit(0, "cavalry-division", h).unwrap();
    let e = steps(&g, h, 0, 1);
    g.stage_leader(1, 3, e);
    assert_eq!(cost(&g, c, e), None);
}

#[test]
fn stacking_e_break_down_costs_one_movement_point_and_only_before_moving() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let army = g.stage_unit(0, "infantry-army", h).unwrap();
    let t = format!("split {} infantry-division", g.label(army));
    act(&mut g, &t);
    let divs = g.units_at(h);
    assert_eq!(divs.len(), 6);
    assert!(divs.iter().all(|&i| g.units()[i].mp == 4));
    assert_eq!(g.units()[army].status, Status::Gone);
    // After moving, no break-down.
    let corps = g.stage_unit(0, "infantry-corps", h).unwrap();
    let t = format!("move {} {}", g.label(corps), steps(&g, h, 0, 1));
    act(&mut g, &t);
    assert_eq!(
        refusal(&g, &format!("split {} infantry-division", g.label(corps))).case,
        "Stacking (E)"
    );
}

#[test]
fn stacking_e_combining_costs_each_unit_one_movement_point() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let a = g.stage_unit(0, "infantry-division", h).unwrap();
    let b = g
        .stage_unit(0, "infantry-division", steps(&g, h, 0, 1))
        .unwrap();
    let t = format!("move {} {h}", g.label(b));
    act(&mut g, &t);
    let t = format!("combine {h} infantry-corps");
    act(&mut g, &t);
    assert_eq!(g.units()[a].status, Status::Gone);
    let corps = g.units_at(h)[0];
    assert_eq!(g.kind(&g.units()[corps]).id, "infantry-corps");
    // Built at the end of a move, it moves no more.
    assert_eq!(g.units()[corps].mp, 0);
    // Before any has moved: its allowance less 1.
    let mut g = staged(0);
    g.stage_unit(0, "cavalry-division", h).unwrap();
    g.stage_unit(0, "cavalry-division", h).unwrap();
    let t = format!("combine {h} cavalry-corps");
    act(&mut g, &t);
    assert_eq!(g.units()[g.units_at(h)[0]].mp, 6);
}

#[test]
fn stacking_f_dispersed_units_neither_break_down_nor_combine() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let c = g.stage_unit(0, "infantry-corps", h).unwrap();
    g.stage_unit_mut(c).dispersed_until = 999;
    assert_eq!(
        refusal(&g, &format!("split {} infantry-division", g.label(c))).case,
        "Stacking (F)"
    );
    let mut g = staged(0);
    let a = g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit_mut(a).dispersed_until = 999;
    assert_eq!(
        refusal(&g, &format!("combine {h} infantry-corps")).case,
        "Stacking (E)"
    );
}

#[test]
fn stacking_b_a_stack_needs_a_supply_unit_which_is_spent_and_l26_without_one_it_is_dispersed() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let a = g.stage_unit(0, "infantry-division", h).unwrap();
    let b = g.stage_unit(0, "infantry-division", h).unwrap();
    let s = g.stage_unit(0, "supply", steps(&g, h, 0, 1)).unwrap();
    g.apply(Action::End).unwrap();
    assert!(!g.is_dispersed(&g.units()[a]));
    // The supply unit is spent at the end of the combat phase.
    g.apply(Action::End).unwrap();
    assert_eq!(g.units()[s].status, Status::Gone);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::SupplySpent { role, .. } if role == "stacking")));
    // L26: no supply unit, the stack is dispersed.
    let mut g = staged(0);
    let a = g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit(0, "infantry-division", h).unwrap();
    g.apply(Action::End).unwrap();
    assert!(g.is_dispersed(&g.units()[a]));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::StackOutOfSupply { .. })));
    let _ = b;
}

#[test]
fn fortress_b_six_divisions_stand_in_a_fortress_with_no_supply_unit() {
    let mut g = staged(0);
    let f = fortress(&g);
    let a = g.stage_unit(0, "infantry-army", f).unwrap();
    g.stage_unit(0, "infantry-army", f).unwrap();
    let mut g2 = g.clone();
    // Two armies are twelve divisions: too many.
    g.apply(Action::End).unwrap();
    assert!(g.is_dispersed(&g.units()[a]));
    // One army and a leader: fine.
    g2.stage_unit_mut(1).status = Status::Gone;
    g2.stage_leader(0, 1, f);
    g2.apply(Action::End).unwrap();
    assert!(!g2.is_dispersed(&g2.units()[a]));
}

#[test]
fn forced_march_double_rolls_after_the_allowance_and_applies_the_table() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.units()[d].mp, 5);
    let t = format!("move {} {}", g.label(d), steps(&g, h, 0, 4));
    act(&mut g, &t);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.to_act(), ToAct::Chance);
    // Double, first roll 1: no effect, the rest of the march.
    g.apply(Action::Roll(1)).unwrap();
    assert_eq!(g.units()[d].mp, 6);
    assert_eq!(
        g.units()[d].march,
        MarchState::Done(leipzig_1813::forced_march::March::Double)
    );
    // 6: destroyed, a loss for the victory points.
    let mut g = staged(0);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    g.apply(Action::Roll(6)).unwrap();
    assert_eq!(g.units()[d].status, Status::Eliminated);
    assert_eq!(g.losses(0).march, 1);
    // 5: dispersed at the end of the march (the movement phase).
    let mut g = staged(0);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    g.apply(Action::Roll(5)).unwrap();
    assert!(!g.is_dispersed(&g.units()[d]));
    assert_eq!(g.units()[d].mp, 10);
    g.apply(Action::End).unwrap();
    assert!(g.is_dispersed(&g.units()[d]));
}

#[test]
fn forced_march_a_letter_lets_the_owner_stop_or_roll_the_subsidiary_table() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    g.apply(Action::Roll(3)).unwrap();
    assert!(matches!(g.units()[d].march, MarchState::Letter(_, 'J')));
    // Nothing else until the owner chooses.
    assert_eq!(g.check(Action::End).unwrap_err().case, "Forced March");
    let mut halted = g.clone();
    let t = format!("halt {}", halted.label(d));
    act(&mut halted, &t);
    assert_eq!(halted.units()[d].mp, 5);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    // J, die 2: dispersed at the end.
    g.apply(Action::Roll(2)).unwrap();
    assert!(g.units()[d].disperse_at_end);
}

#[test]
fn forced_march_only_infantry_triple_marches_the_rulebooks_example() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let c = g.stage_unit(0, "cavalry-division", h).unwrap();
    assert_eq!(
        refusal(&g, &format!("march {} triple", g.label(c))).case,
        "Forced March"
    );
    // The example: a 2-5 triples, moves ten, rolls 2 (M), rolls again 4: completes, dispersed.
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} triple", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.units()[d].mp, 10);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    g.apply(Action::Roll(2)).unwrap();
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    g.apply(Action::Roll(4)).unwrap();
    assert_eq!(g.units()[d].mp, 15);
    assert!(g.units()[d].disperse_at_end);
}

#[test]
fn supply_c_iii_a_supply_unit_supports_a_forced_march_with_no_roll_and_is_spent() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let s = g.stage_unit(0, "supply", steps(&g, h, 0, 1)).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.units()[d].mp, 10);
    assert!(matches!(g.units()[d].march, MarchState::Done(_)));
    g.apply(Action::End).unwrap();
    assert_eq!(g.units()[s].status, Status::Gone);
    // A depot leaves a supply unit behind.
    let mut g = staged(0);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let dep = g.stage_unit(0, "depot", h).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    g.apply(Action::End).unwrap();
    assert_eq!(g.units()[dep].status, Status::Gone);
    assert!(g
        .units_at(h)
        .iter()
        .any(|&i| g.kind(&g.units()[i]).id == "supply"));
}

#[test]
fn spring_scenarios_gotha_units_triple_march_free_in_the_first_french_player_turn() {
    let mut g = game(1);
    let mut buf = Vec::new();
    for _ in 0..2 {
        loop {
            buf.clear();
            g.legal_actions(&mut buf);
            match buf.iter().find(|a| matches!(a, Action::Place { .. })) {
                Some(&a) => g.apply(a).unwrap(),
                None => break,
            }
        }
        g.apply(Action::End).unwrap();
    }
    assert_eq!(g.step(), Step::Movement);
    let c = (0..g.units().len())
        .find(|&i| g.units()[i].gotha && g.kind(&g.units()[i]).id == "cavalry-division")
        .unwrap();
    let t = format!("march {} triple", g.label(c));
    act(&mut g, &t);
    assert_eq!(g.units()[c].mp, 24);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::MarchDeclared { free: true, .. })));
}

#[test]
fn l42_supply_e_a_supply_unit_may_be_destroyed_in_its_movement_phase_and_come_back() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let s = g.stage_unit(0, "supply", h).unwrap();
    let d = g.stage_unit(0, "depot", steps(&g, h, 0, 2)).unwrap();
    let a = g.stage_unit(1, "supply", steps(&g, h, 3, 3)).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.contains(&Action::Disband { unit: s as u16 }));
    // Not a depot, nor the enemy's.
    assert!(!legal.contains(&Action::Disband { unit: d as u16 }));
    assert_eq!(
        refusal(&g, &format!("disband {}", g.label(a))).case,
        "action"
    );
    assert_eq!(g.supply_in_play(0), 1);
    let t = format!("disband {}", g.label(s));
    act(&mut g, &t);
    assert_eq!(g.units()[s].status, Status::Gone);
    // Back in the pool: none lost for good, one more may come.
    assert_eq!(g.supply_in_play(0), 0);
    assert_eq!(g.supply_limit(0), 10);
    assert!(g
        .events()
        .iter()
        .any(|e| engine::GameEvent::case(e) == "Supply (E)"));
    // Only in the movement phase.
    let s2 = g.stage_unit(0, "supply", h).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!(
        refusal(&g, &format!("disband {}", g.label(s2))).case,
        "Combat"
    );
    // A supply unit supporting a forced march is spent by it, not destroyed.
    let mut g = staged(0);
    let s = g.stage_unit(0, "supply", h).unwrap();
    let i = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} double", g.label(i));
    act(&mut g, &t);
    assert_eq!(
        refusal(&g, &format!("disband {}", g.label(s))).case,
        "Supply (C)"
    );
}
