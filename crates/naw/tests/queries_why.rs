//! The rules' answers to "why not?" and "what happened?" that front ends print: why a unit has
//! no destination (14.62, 5.13, 16.1), the combat as it was rolled (7.9), what may be taken
//! back after a die (5.14) and the line of communications at the end (17.5).

mod common;
use common::*;
use engine::Rules;

#[test]
fn case_16_1_a_unit_that_may_withdraw_at_night_but_has_nowhere_to_go_says_so() {
    // B.1 in the corner 0101 stands in R.1's zone (R.1 at 0102); its only other neighbour,
    // 0201, is in R.1's zone too: at night it may withdraw (16.1) but enter no zone (10.2)
    let mut b = Build::new(2, 2)
        .unit("B.1 inf 6-4 0101")
        .unit("R.1 inf 6-4 0102");
    b.night = vec![1];
    b.hooks.night_withdrawal = true;
    let g = b.game();
    let u = uid(&g, "B.1");
    let mut d = Vec::new();
    g.destinations(u, &mut d);
    assert!(d.is_empty());
    assert_eq!(g.why_immobile(u), None, "16.1: it may leave the zone");
    let why = g.why_no_destination(u);
    assert_eq!(why.case, "16.1", "{why:?}");
    assert!(why.why.contains("enemy zone of control"), "{why:?}");
}

#[test]
fn case_5_11_out_of_phase_moves_name_the_phase() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    let r = g.why_no_destination(uid(&g, "B.1"));
    assert_eq!(r.case, "5.11");
    assert!(r.why.contains("combat phase of game-turn 1 (4.1)"), "{r:?}");
}

#[test]
fn case_7_9_a_combat_rolled_at_reduced_odds_keeps_the_column_used() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    for a in [
        "end",
        "attack B.1 R.1",
        "end",
        "resolve R.1 at 1-1",
        "roll 3",
    ] {
        act(&mut g, a);
    }
    let c = &g.combats()[0];
    let r = c.rolled.as_ref().expect("rolled");
    assert_eq!(r.odds.column.name(), "2-1");
    assert_eq!(r.column.name(), "1-1");
    assert_eq!(r.die, 3);
}

#[test]
fn ruling_m8_the_choices_after_the_die_may_be_taken_back_to_it() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    for a in ["end", "attack B.1 R.1", "end", "resolve R.1"] {
        act(&mut g, a);
    }
    act(&mut g, "roll 1");
    assert_eq!(g.undoable(), 0);
    assert_eq!(g.undo_refusal().case, "5.14");
    // whatever the result asks for next (losses, a retreat, an advance), each choice counts
    let mut n = 0;
    while g.outcome().is_none() && g.turn() == 1 && g.phasing() == BLUE {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        if legal.is_empty() || g.step() == naw::Step::Roll {
            break;
        }
        g.apply(legal[0]).unwrap();
        n += 1;
        if g.turn() == 1 && g.phasing() == BLUE {
            assert_eq!(g.undoable(), n);
        }
    }
    assert!(n > 0);
    // once the next player-turn has begun, the last one's actions stand (5.17)
    if g.phasing() == RED {
        assert_eq!(g.undoable(), 0);
        assert_eq!(g.undo_refusal().case, "5.17");
    }
}
