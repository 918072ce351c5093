//! NB Sequence of Play and NB Turn End: initiative, reinforcements, the action phase of
//! alternating impulses ended by passes, night turns, the victory phase.

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use napoleonic_battles::{Event, Loc, Step};

fn two_corps(last: u8, nights: &[u8]) -> napoleonic_battles::Game {
    custom(
        last,
        nights,
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
        ],
    )
}

#[test]
fn initiative_the_allies_have_it_on_the_first_turn() {
    let g = two_corps(3, &[]);
    assert_eq!(g.turn(), 1);
    assert_eq!(g.initiative(), Side(1));
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    assert_eq!(g.step(), Step::Choose);
    // the shipped scenarios too
    for id in ["bon-first-day", "bon-third-day", "bon-grand-battle"] {
        let g = game(id);
        assert_eq!(g.initiative(), Side(1), "{id}");
    }
}

#[test]
fn turn_end_a_pass_ends_the_action_phase_on_a_six() {
    let mut g = two_corps(3, &[]);
    act(&mut g, "pass");
    assert_eq!(g.to_act(), ToAct::Chance);
    act(&mut g, "roll 6");
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::ActionPhaseEnded)));
    assert_eq!(g.turn(), 2);
    assert_eq!(g.step(), Step::InitiativeRoll);
}

#[test]
fn turn_end_a_pass_below_six_hands_the_action_to_the_other_side() {
    let mut g = two_corps(3, &[]);
    play(&mut g, &["pass", "roll 5"]);
    assert_eq!(g.turn(), 1);
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
}

#[test]
fn turn_end_two_passes_in_succession_end_it_without_a_roll() {
    let mut g = two_corps(3, &[]);
    play(&mut g, &["pass", "roll 1", "pass"]);
    assert_eq!(g.turn(), 2, "no die after the second pass");
    assert_eq!(g.step(), Step::InitiativeRoll);
}

#[test]
fn turn_end_an_activation_between_passes_restarts_the_count() {
    let mut g = two_corps(3, &[]);
    // Allies pass, the French activate (a command point), then the Allies pass again: a roll
    play(
        &mut g,
        &[
            "pass",
            "roll 1",
            "command FR.Murat FR.Victor",
            "go",
            "end",
            "end",
        ],
    );
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    act(&mut g, "pass");
    assert_eq!(g.to_act(), ToAct::Chance, "the pass die is rolled again");
}

#[test]
fn initiative_two_dice_plus_the_overall_commanders_rating() {
    let mut g = two_corps(3, &[]);
    play(&mut g, &["pass", "roll 1", "pass"]);
    // Napoleon (4) and Schwarzenberg (2) are on the map with their armies
    assert_eq!(g.initiative_bonus(Side(0)), 4);
    assert_eq!(g.initiative_bonus(Side(1)), 2);
    play(&mut g, &["roll 6", "roll 9"]); // 10 against 11
    assert_eq!(g.initiative(), Side(1));
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    play(&mut g, &["pass", "roll 1", "pass"]);
    play(&mut g, &["roll 8", "roll 9"]); // 12 against 11
    assert_eq!(g.initiative(), Side(0));
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
}

#[test]
fn initiative_ties_go_to_last_turns_holder() {
    let mut g = two_corps(4, &[]);
    play(&mut g, &["pass", "roll 1", "pass", "roll 7", "roll 9"]); // 11 against 11
    assert_eq!(g.initiative(), Side(1), "the Allies held it on turn 1");
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Initiative { why: "tie", .. })));
    play(
        &mut g,
        &[
            "pass", "roll 1", "pass", "roll 12", "roll 2", "pass", "roll 1", "pass",
        ],
    );
    play(&mut g, &["roll 5", "roll 7"]); // 9 against 9: the French held it on turn 3
    assert_eq!(g.initiative(), Side(0));
}

#[test]
fn initiative_rolls_are_two_dice_weighted_as_such() {
    let mut g = two_corps(3, &[]);
    play(&mut g, &["pass", "roll 1", "pass"]);
    let w: Vec<u32> = g.chance_outcomes().iter().map(|&(_, w)| w).collect();
    assert_eq!(w, vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn reinforcements_are_placed_on_their_entry_hex_and_may_activate() {
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("FR.5", "infantry", 6, 4, VICTOR, "0117@2"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
        ],
    );
    let r = uid(&g, "FR.5");
    assert_eq!(g.loc(r), Loc::Waiting);
    play(&mut g, &["pass", "roll 1", "pass", "roll 12", "roll 2"]);
    assert_eq!(g.turn(), 2);
    assert_eq!(g.loc(r), Loc::Map(hex("0117")));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Arrived { unit, .. } if *unit == r)));
    // available to activate at once
    act(&mut g, "unit FR.5");
}

#[test]
fn night_turns_no_moving_adjacent_to_an_enemy_and_no_combat() {
    let mut g = custom(
        3,
        &[1],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0413"),
        ],
    );
    play(&mut g, &FRENCH_GO);
    let u = uid(&g, "FR.4");
    // 0412 is adjacent to the Russians in 0413
    let to = hex("0412");
    let r = g
        .check(napoleonic_battles::Action::Move { unit: u, to })
        .unwrap_err();
    assert_eq!(r.case, "NB Napoleon At Leipzig");
    // ending movement ends the activation: no melee phase at night
    act(&mut g, "end");
    assert_ne!(g.step(), Step::Melee);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
}

#[test]
fn victory_phase_the_game_ends_after_the_last_turn() {
    let mut g = two_corps(1, &[]);
    play(&mut g, &["pass", "roll 1", "pass"]);
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(o.winner, None),
        t => panic!("{t:?}"),
    }
}
