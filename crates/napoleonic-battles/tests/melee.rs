//! NB Melee phase procedures: one hex against one through a front hexside, activated units
//! only, each enemy hex once; the to-hit and morale dice as chance events; losses allocated
//! by the loser; retreats; the mandatory advance; cavalry's retreat before infantry's melee;
//! leader casualties.

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use hexmap::Dir;
use napoleonic_battles::{Disorder, Event, Game, LeaderLoc, Loc, Step};

/// The French in 0413 facing the Russians' hex 0414 (with `defenders`), activated, at the
/// melee phase.
fn at_melee(french: &[U], defenders: &[U]) -> Game {
    let mut units: Vec<U> = french
        .iter()
        .map(|u| U(u.0, u.1, u.2, u.3, u.4, u.5))
        .collect();
    units.extend(defenders.iter().map(|u| U(u.0, u.1, u.2, u.3, u.4, u.5)));
    let mut g = custom(3, &[], &units);
    play(&mut g, &FRENCH_GO);
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Melee);
    g
}

fn fr4() -> U<'static> {
    U("FR.4", "infantry", 6, 4, VICTOR, "0413")
}

fn ru3() -> U<'static> {
    U("RU.3", "infantry", 6, 4, EUGEN, "0414")
}

#[test]
fn melee_phase_the_dice_are_chance_events_one_to_hit_and_a_morale_die() {
    let mut g = at_melee(&[fr4()], &[ru3()]);
    act(&mut g, "melee 0413 0414");
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::MeleeDeclared { column, .. } if column == "100%")));
    assert_eq!(g.to_act(), ToAct::Chance);
    assert_eq!(g.chance_outcomes().len(), 6, "one d6 to hit");
    act(&mut g, "roll 4");
    assert_eq!(g.to_act(), ToAct::Chance, "then the morale die");
    assert_eq!(g.chance_outcomes().len(), 6);
    act(&mut g, "roll 1");
    // 100%, 4: 1/1m — each side loses 1 SP, the defender checks morale (passes on 1)
    assert_eq!(g.sp(uid(&g, "FR.4")), 5);
    assert_eq!(g.sp(uid(&g, "RU.3")), 5);
    assert_eq!(g.disorder(uid(&g, "RU.3")), Disorder::Good);
    assert_eq!(g.step(), Step::Melee);
}

#[test]
fn melee_phase_a_won_hex_must_be_entered_with_a_one_hexspine_turn() {
    let mut g = at_melee(&[fr4()], &[ru3()]);
    // 100%, 6: 1/2r1mL — the defender loses 2, retreats 1, checks morale, loses a leader
    play(&mut g, &["melee 0413 0414", "roll 6", "roll 6"]);
    assert_eq!(
        g.disorder(uid(&g, "RU.3")),
        Disorder::ThisImpulse,
        "6 fails morale 3"
    );
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::LeaderCasualty { .. })));
    let s = g.leader_by_id("AU.Schwarzenberg").unwrap();
    assert_eq!(
        g.leader_loc(s),
        LeaderLoc::Casualty,
        "the highest-ranking leader"
    );
    // the loser retreats: the Allies choose the hex
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    let w = nb(&g, "0414", Dir::W);
    act(&mut g, &format!("retreat {w}"));
    assert_eq!(g.loc(uid(&g, "RU.3")), Loc::Map(w));
    // the advance is mandatory
    assert_eq!(g.step(), Step::Advance);
    assert_eq!(refusal(&g, "end").case, "NB Melee phase procedures");
    act(&mut g, "advance FR.4");
    assert_eq!(
        g.facing(uid(&g, "FR.4")),
        Dir::W,
        "facing the way it entered"
    );
    assert_eq!(refusal(&g, "face 0414 E").case, "NB Melee phase procedures");
    play(&mut g, &["face 0414 NW", "end"]);
    assert_eq!(g.step(), Step::Melee);
}

#[test]
fn melee_phase_the_loser_allocates_his_losses() {
    // set-ups hold one unit a hex: the Russians stack in their first impulse
    let mut g = custom(
        3,
        &[],
        &[fr4(), ru3(), U("RU.4", "infantry", 6, 4, EUGEN, "0415")],
    );
    play(
        &mut g,
        &[
            "command RU.Wittgenstein RU.Eugen",
            "go",
            "move RU.4 0414",
            "end",
            "end",
        ],
    );
    play(&mut g, &["command FR.Murat FR.Victor", "go", "end"]);
    // 6 against 12 SP (6 whole, 6 half: 9): 66%, the 50% column; 6: 1/1m
    play(&mut g, &["melee 0413 0414", "roll 6", "roll 1"]);
    assert_eq!(g.step(), Step::Losses);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    act(&mut g, "lose RU.4");
    assert_eq!(g.sp(uid(&g, "RU.4")), 5);
    assert_eq!(g.sp(uid(&g, "RU.3")), 6);
}

#[test]
fn melee_phase_only_through_a_front_hexside_and_each_enemy_hex_once() {
    let mut g = custom(
        3,
        &[],
        &[fr4(), U("FR.6", "infantry", 6, 4, VICTOR, "0313"), ru3()],
    );
    play(&mut g, &FRENCH_GO);
    play(&mut g, &["face 0413 E", "end"]);
    let r = refusal(&g, "melee 0413 0414");
    assert!(r.why.contains("front hexsides"), "{}", r.why);
    let from = g.loc(uid(&g, "FR.6"));
    let Loc::Map(from) = from else { panic!() };
    if g.scenario().map.distance(from, hex("0414")) == 1 {
        // 1: 1/1m at 100% or so: no one leaves the hex
        play(&mut g, &[&format!("melee {from} 0414"), "roll 4", "roll 1"]);
        assert_eq!(g.loc(uid(&g, "RU.3")), Loc::Map(hex("0414")));
        let r = refusal(&g, &format!("melee {from} 0414"));
        assert_eq!(r.case, "NB Melee phase procedures");
    }
}

#[test]
fn melee_phase_no_retreat_through_enemy_front_hexes_costs_a_step_and_disorder() {
    // the Russians' three retreat hexes west of 0414 are held by French units
    let g0 = custom(3, &[], &[fr4(), ru3()]);
    let behind: Vec<String> = [Dir::W, Dir::NW, Dir::SW]
        .iter()
        .map(|&d| nb(&g0, "0414", d).to_string())
        .collect();
    let mut g = at_melee(
        &[
            fr4(),
            U("FR.5", "infantry", 3, 4, VICTOR, &behind[0]),
            U("FR.6", "infantry", 3, 4, VICTOR, &behind[1]),
            U("FR.8", "infantry", 3, 4, VICTOR, &behind[2]),
        ],
        &[ru3()],
    );
    // 100% column: 6 is 1/2r1mL
    play(&mut g, &["melee 0413 0414", "roll 6", "roll 1"]);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::NoRetreat { .. })));
    assert_eq!(g.sp(uid(&g, "RU.3")), 3, "2 SP and one more");
    assert_eq!(g.disorder(uid(&g, "RU.3")), Disorder::ThisImpulse);
    assert_eq!(g.loc(uid(&g, "RU.3")), Loc::Map(hex("0414")));
    assert_eq!(g.step(), Step::Melee, "no advance into a held hex");
}

#[test]
fn melee_phase_cavalry_may_retreat_two_hexes_before_infantrys_melee() {
    let mut g = at_melee(&[fr4()], &[U("RU.C", "cavalry", 3, 6, PAHLEN, "0414")]);
    act(&mut g, "melee 0413 0414");
    assert_eq!(g.step(), Step::Evade);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    play(&mut g, &["evade", "roll 5"]); // the morale die: 5 fails morale 3
    assert_eq!(g.disorder(uid(&g, "RU.C")), Disorder::ThisImpulse);
    let w = nb(&g, "0414", Dir::W);
    let ww = g.scenario().map.neighbour(w, Dir::W);
    play(&mut g, &[&format!("retreat {w}"), &format!("retreat {ww}")]);
    assert_eq!(g.loc(uid(&g, "RU.C")), Loc::Map(ww));
    assert_eq!(g.step(), Step::Advance, "the infantry takes the hex");
    act(&mut g, "advance FR.4");
}

#[test]
fn melee_phase_a_flank_attack_shifts_one_column_right() {
    let g0 = custom(3, &[], &[fr4(), ru3()]);
    // the Russians face the French in 0413 (east); FR.4 comes from the south-west
    let sw = nb(&g0, "0414", Dir::SW).to_string();
    let g = at_melee(
        &[U("FR.4", "infantry", 6, 4, VICTOR, &sw)],
        &[ru3(), U("FR.9", "infantry", 6, 4, LAURISTON, "0413")],
    );
    let Loc::Map(from) = g.loc(uid(&g, "FR.4")) else {
        panic!()
    };
    let odds = g.melee_odds(from, hex("0414")).unwrap();
    assert!(
        odds.shifts.iter().any(|s| s.why.contains("flank")),
        "{:?}",
        odds.shifts
    );
}
