//! The computer's plan is said once per phase, in words (issue 12): the first action of a
//! movement phase says the plan (which attacks it sets up at what odds, what it holds, where
//! the rest goes), the first declaration says every attack with its odds and why, and the
//! actions that carry the plan out say nothing more. The search's figures (rollouts,
//! candidates) stay out of the sentence.

use ai::{Budget, HeuristicPlayer, Player, SearchPlayer};
use engine::{Rules, Side, ToAct};
use naw::{Game, Step};
use std::sync::Arc;

fn scenario(id: &str) -> Arc<naw::Scenario> {
    Arc::new(scenarios::load(id).expect("shipped scenario"))
}

/// One phase's choices by the phasing side: (turn, side, step) and each choice's explanation.
type Phase = ((u8, u8, Step), Vec<Option<String>>);

/// Plays `id` to the end of game-turn `last` with `players`, gathering what each said, phase
/// by phase (movement and declarations of the phasing side).
fn phases(id: &str, seed: u64, players: [&mut dyn Player; 2], last: u8) -> Vec<Phase> {
    let [p0, p1] = players;
    let mut g = Game::from_arc(scenario(id));
    let mut dice = engine::Dice::new(seed);
    let mut out: Vec<Phase> = Vec::new();
    for _ in 0..100_000 {
        if g.turn() > last {
            break;
        }
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("a chance event");
                g.apply(a).unwrap();
            }
            ToAct::Side(side) => {
                let p: &mut dyn Player = if side == Side(0) { &mut *p0 } else { &mut *p1 };
                let key = (g.turn(), g.phasing().0, g.step());
                let a = p.choose(&g);
                let said = p.explain();
                if matches!(g.step(), Step::Movement | Step::Declare) && side == g.phasing() {
                    match out.last_mut() {
                        Some((k, v)) if *k == key => v.push(said),
                        _ => out.push((key, vec![said])),
                    }
                }
                g.apply(a).expect("a legal choice");
            }
        }
    }
    out
}

/// Every phase: the first action says the plan; no later one repeats it (a declaration may
/// add an obligation the plan did not foresee, 7.1); no sentence carries the search's figures.
fn check(phases: &[Phase], who: &str) {
    assert!(!phases.is_empty());
    let mut movement = 0;
    for ((turn, side, step), said) in phases {
        let first = said[0]
            .as_deref()
            .unwrap_or_else(|| panic!("{who}: turn {turn} side {side} {step:?}: nothing said"));
        for s in said.iter().flatten() {
            assert!(
                !s.contains("rollouts") && !s.contains("candidates"),
                "{who}: figures in {s}"
            );
        }
        let later: Vec<&String> = said[1..].iter().flatten().collect();
        match step {
            Step::Movement => {
                movement += 1;
                assert!(first.starts_with("plan: "), "{who}: {first}");
                assert!(later.is_empty(), "{who}: said again: {later:?}");
            }
            _ => {
                assert!(
                    first.contains(" attack") || first == "no attack this phase",
                    "{who}: {first}"
                );
                for s in later {
                    assert!(s.contains("an obligation, 7.1"), "{who}: said again: {s}");
                }
            }
        }
    }
    assert!(movement > 0, "{who}: no movement phase");
}

#[test]
fn the_heuristic_says_its_plan_once_a_phase() {
    let mut a = HeuristicPlayer::new(3);
    let mut b = HeuristicPlayer::new(4);
    let p = phases("bon-grand-battle", 5, [&mut a, &mut b], 2);
    check(&p, "heuristic");
    // a plan that sets up attacks names them with their odds
    let named = p.iter().filter_map(|(_, s)| s[0].as_deref()).any(|s| {
        s.starts_with("plan: attack ")
            && ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "1-2", "1-3"]
                .iter()
                .any(|c| s.contains(&format!(" at {c} (")))
    });
    assert!(named, "{p:?}");
}

#[test]
fn the_search_says_its_plan_once_a_phase() {
    // the search plays the Allies of the Grand Battle, who move and attack on turn 1
    let mut a = HeuristicPlayer::new(8);
    let mut b = SearchPlayer::new(7, Budget::Sims(1500)).with_workers(2);
    let p = phases("bon-grand-battle", 9, [&mut a, &mut b], 1);
    let allied: Vec<Phase> = p.into_iter().filter(|((_, s, _), _)| *s == 1).collect();
    check(&allied, "search");
    assert!(b.search_summary().is_some_and(|s| s.contains("rollouts")));
}
