//! NB Morale and disorder rules: disorder from a failed morale check, the "not this impulse"
//! marker, rally at the end of an activation with the leaders' modifier.

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use napoleonic_battles::{Disorder, Event, Game, Step};

/// The French (FR.4 in 0413) melee the Russians (RU.3 in 0414) at 100%: `to_hit` and the
/// morale die `die`.
fn after_melee(to_hit: u8, die: u8) -> Game {
    let mut g = duel("0413", "0414");
    play(&mut g, &FRENCH_GO);
    act(&mut g, "end");
    play(
        &mut g,
        &[
            "melee 0413 0414",
            &format!("roll {to_hit}"),
            &format!("roll {die}"),
        ],
    );
    g
}

#[test]
fn morale_a_failed_check_disorders_the_hex() {
    // 100%, 4: 1/1m — the defender checks with the morale die: 6 fails morale 3
    let g = after_melee(4, 6);
    assert_eq!(g.disorder(uid(&g, "RU.3")), Disorder::ThisImpulse);
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::MoraleCheck {
            morale: 3,
            die: 6,
            passed: false,
            ..
        }
    )));
    // 3 passes
    let g = after_melee(4, 3);
    assert_eq!(g.disorder(uid(&g, "RU.3")), Disorder::Good);
}

#[test]
fn rally_at_the_end_of_its_next_activation_with_the_leaders_modifier() {
    for (die, rallied) in [(5, true), (6, false)] {
        let mut g = after_melee(4, 6);
        act(&mut g, "end"); // the French melee phase ends: the Allies' impulse
        assert_eq!(g.to_act(), ToAct::Side(Side(1)));
        play(&mut g, &["command RU.Wittgenstein RU.Eugen", "go"]);
        // designated: the marker flips to "not this impulse"
        assert_eq!(g.disorder(uid(&g, "RU.3")), Disorder::Disordered);
        play(&mut g, &["end", "end"]);
        assert_eq!(g.step(), Step::Rally);
        // morale 3, and the best leader in the hex (command 2) takes 2 off the roll
        act(&mut g, &format!("roll {die}"));
        assert!(g
            .events()
            .iter()
            .any(|e| matches!(e, Event::Rally { need: 5, rallied: r, .. } if *r == rallied)));
        let want = if rallied {
            Disorder::Good
        } else {
            Disorder::Disordered
        };
        assert_eq!(g.disorder(uid(&g, "RU.3")), want);
    }
}

#[test]
fn rally_not_for_a_unit_disordered_in_this_impulse() {
    // 100%, 1: 1r1mL/0 — the attacker loses 1, retreats, checks morale (6 fails)
    let mut g = after_melee(1, 6);
    if g.step() == Step::Retreat {
        let opts = g.legal_actions_text();
        act(&mut g, &opts[0]);
    }
    let u = uid(&g, "FR.4");
    assert_eq!(g.disorder(u), Disorder::ThisImpulse);
    act(&mut g, "end");
    // no rally roll: the Allies are to act, and the marker shows "not this impulse"
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    assert!(!g.events().iter().any(|e| matches!(e, Event::Rally { .. })));
    assert_eq!(g.disorder(u), Disorder::Disordered);
}

#[test]
fn morale_is_each_units_initiative() {
    let g = duel("0411", "0414");
    assert_eq!(g.morale(uid(&g, "FR.4")), 3);
    assert_eq!(g.morale(uid(&g, "RU.3")), 3);
}

#[test]
fn rally_a_lent_rating_adds_to_the_officers_modifier() {
    // NB75: Wittgenstein lends his 2 to Eugen (2): 4 off the rally roll, so a 6 rallies
    // morale 3 (without the loan it fails, above)
    let mut g = after_melee(4, 6);
    act(&mut g, "end");
    play(
        &mut g,
        &["lend RU.Wittgenstein RU.Eugen", "initiative RU.Eugen", "go"],
    );
    act(&mut g, "roll 1");
    play(&mut g, &["end", "end"]);
    assert_eq!(g.step(), Step::Rally);
    act(&mut g, "roll 6");
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::Rally {
            need: 7,
            rallied: true,
            ..
        }
    )));
}
