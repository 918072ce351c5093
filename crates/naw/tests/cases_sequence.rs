//! The sequence of play (4.0, 4.1), and two properties of the whole interface: every refusal
//! names a case of the rulebook, and the canonical text of every legal action parses back to
//! that action.

mod common;
use common::*;
use engine::{Dice, Rules, ToAct};
use hexmap::Hex;
use naw::{Action, Column, Game, Step, UnitId, UnitSet};

/// Every case number the rulebook prints (standard rules 4.0-10.2, exclusive rules 12.0-17.5).
const CASES: &[&str] = &[
    "4.0", "4.1", "5.0", "5.1", "5.11", "5.12", "5.13", "5.14", "5.15", "5.16", "5.17", "5.2",
    "5.21", "5.22", "5.23", "5.24", "5.25", "5.26", "5.3", "5.31", "5.32", "5.33", "5.34", "6.0",
    "6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "7.0", "7.1", "7.11", "7.12", "7.13", "7.14", "7.15",
    "7.2", "7.21", "7.22", "7.3", "7.4", "7.5", "7.6", "7.7", "7.71", "7.72", "7.73", "7.74",
    "7.75", "7.8", "7.81", "7.82", "7.9", "8.0", "8.1", "8.11", "8.12", "8.13", "8.14", "8.15",
    "8.2", "8.21", "8.22", "8.23", "8.3", "8.31", "8.32", "8.33", "8.34", "8.35", "8.4", "8.41",
    "8.42", "8.43", "8.44", "8.45", "8.5", "8.51", "8.52", "9.0", "10.0", "10.1", "10.2", "12.0",
    "13.0", "14.0", "14.6", "14.61", "14.62", "14.63", "15.0", "15.1", "15.2", "15.3", "15.4",
    "15.5", "16.0", "16.1", "17.0", "17.1", "17.2", "17.3", "17.4", "17.5",
];

// ---------------------------------------------------------------- 4.0 / 4.1

#[test]
fn case_4_0_a_game_turn_is_two_player_turns_then_the_turn_advances() {
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    b.last_turn = 2;
    let mut g = b.game();
    let mut seen = Vec::new();
    while !matches!(g.to_act(), ToAct::Over(_)) {
        seen.push((g.turn(), g.phasing(), g.step()));
        act(&mut g, "end");
    }
    use Step::*;
    assert_eq!(
        seen,
        vec![
            (1, BLUE, Movement),
            (1, BLUE, Declare),
            (1, RED, Movement),
            (1, RED, Declare),
            (2, BLUE, Movement),
            (2, BLUE, Declare),
            (2, RED, Movement),
            (2, RED, Declare),
        ]
    );
    // At the end of the final game-turn the victory conditions are consulted.
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(o.case, "17.4"),
        other => panic!("{other:?}"),
    }
    assert_eq!(refused(&g, "end"), "17.4");
}

#[test]
fn case_4_1_movement_phase_then_combat_phase_with_its_steps() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0404")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    assert_eq!(g.step(), Step::Movement);
    act(&mut g, "move B.1 0505");
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Declare);
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Choose);
    act(&mut g, "resolve R.1");
    assert_eq!((g.step(), g.to_act()), (Step::Roll, ToAct::Chance));
    // 1-1, a 1: Dr.
    act(&mut g, "roll 1");
    assert_eq!((g.step(), g.to_act()), (Step::Retreat, ToAct::Side(RED)));
    act(&mut g, "retreat R.1 0706");
    assert_eq!((g.step(), g.to_act()), (Step::Advance, ToAct::Side(BLUE)));
    act(&mut g, "hold");
    // Every combat done: the second player-turn begins.
    assert_eq!((g.phasing(), g.step()), (RED, Step::Movement));
    // The non-phasing player's units do not move (4.1 A).
    assert_eq!(refused(&g, "move B.1 0504"), "5.11");
}

// ---------------------------------------------------------------- properties

/// Candidate actions for the current state: a random sample of every kind, legal or not,
/// including unknown units and hexes off the map.
fn candidates(g: &Game, dice: &mut Dice, n: usize) -> Vec<Action> {
    let units = g.unit_ids().count() as u64;
    let map = &g.scenario().map;
    let (w, hh) = (map.width() as u64, map.height() as u64);
    let mut r = |k: u64| dice.next_u64() % k;
    let mut out = vec![Action::End, Action::Hold];
    for _ in 0..n {
        let u = UnitId(r(units + 2) as u8);
        let t = UnitId(r(units + 2) as u8);
        let hex = Hex::new(r(w + 2) as i16, r(hh + 2) as i16);
        let a = match r(9) {
            0 => Action::Move { unit: u, to: hex },
            1 => Action::Attack { unit: u, target: t },
            2 => Action::Resolve {
                target: t,
                column: (r(2) == 0).then(|| Column(r(10) as u8)),
            },
            3 => Action::Roll(r(8) as u8),
            4 => Action::Lose {
                units: UnitSet::of([u, t]),
            },
            5 => Action::Retreat { unit: u, to: hex },
            6 => Action::Stand { unit: u },
            7 => Action::Advance { unit: u, to: hex },
            _ => Action::Lose {
                units: UnitSet::of([u]),
            },
        };
        out.push(a);
    }
    out
}

#[test]
fn refusal_every_refusal_names_a_case_of_the_rulebook() {
    let mut by_case = std::collections::BTreeMap::<&str, usize>::new();
    for seed in 0..4 {
        let mut g = Game::new(generated(seed, 10, 12, 30));
        let mut pick = Dice::new(seed + 100);
        play_random(&mut g, seed, 700, |g, _| {
            for a in candidates(g, &mut pick, 60) {
                if let Err(e) = g.check(a) {
                    assert!(
                        CASES.contains(&e.case),
                        "'{}' refused with case '{}', not a case of the rulebook: {}",
                        g.action_text(a),
                        e.case,
                        e.why
                    );
                    assert!(!e.why.trim().is_empty(), "{}: no explanation", e.case);
                    *by_case.entry(e.case).or_default() += 1;
                }
            }
        });
    }
    // The sweep reaches refusals of every part of the rules.
    for c in ["5.11", "5.12", "5.15", "7.0", "7.6", "7.71", "7.74", "8.15"] {
        assert!(
            by_case.contains_key(c),
            "no refusal citing {c}: {by_case:?}"
        );
    }
}

#[test]
fn refusal_text_that_is_not_an_action_is_refused_as_action() {
    let g = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909")
        .game();
    for t in [
        "",
        "fly B.1 0303",
        "move B.1",
        "move X.9 0303",
        "move B.1 33",
        "roll 7",
        "resolve R.1 at 7-1",
        "move 0505 0506",
    ] {
        assert_eq!(refused(&g, t), "action", "{t}");
    }
}

#[test]
fn canonical_text_of_every_legal_action_parses_back_to_itself() {
    let mut checked = 0usize;
    for seed in 10..14 {
        let mut g = Game::new(generated(seed, 10, 12, 30));
        let mut buf = Vec::new();
        let mut check_all = |g: &Game| {
            buf.clear();
            g.legal_actions(&mut buf);
            for &a in &buf {
                let t = g.action_text(a);
                assert_eq!(g.parse_action(&t), Ok(a), "'{t}' does not parse back");
                assert!(g.check(a).is_ok(), "'{t}' is listed as legal but refused");
                checked += 1;
            }
        };
        check_all(&g);
        play_random(&mut g, seed, 1500, |g, _| check_all(g));
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn canonical_text_names_units_by_id_and_accepts_hexes_and_reduced_odds() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 10-4 0505")
        .unit("R.1 inf 2-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    // A unit may be named by the hex it stands in; the canonical form uses its id.
    let a = g.parse_action("attack 0505 0605").unwrap();
    assert_eq!(g.action_text(a), "attack B.1 R.1");
    act(&mut g, "attack 0505 0605");
    act(&mut g, "end");
    let a = g.parse_action("resolve R.1 at 3-1").unwrap();
    assert_eq!(g.action_text(a), "resolve R.1 at 3-1");
    // Naming the current odds is the plain form.
    let a = g.parse_action("resolve R.1 at 5-1").unwrap();
    assert_eq!(g.action_text(a), "resolve R.1");
}
