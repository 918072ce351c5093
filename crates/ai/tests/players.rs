//! The computer players: every choice is legal, a seeded search with a simulation budget plays
//! the same game every time, the heuristic beats random play, and the players explain
//! themselves.

use ai::{play_game, player, Budget, HeuristicPlayer, Player, RandomPlayer, SearchPlayer};
use engine::{Rules, Side, ToAct};
use naw::{Action, Game};
use proptest::prelude::*;
use std::sync::Arc;

fn scenario(id: &str) -> Arc<naw::Scenario> {
    Arc::new(scenarios::load(id).expect("shipped scenario"))
}

/// Plays `id` from the start with seeded dice until the game ends or game-turn `last` is over,
/// asking `players` (by side) and checking every choice with the rules before applying it.
/// Returns the game and the actions taken.
fn checked_game(
    id: &str,
    seed: u64,
    players: [&mut dyn Player; 2],
    last: u8,
) -> (Game, Vec<Action>) {
    let [p0, p1] = players;
    let mut g = Game::from_arc(scenario(id));
    let mut dice = engine::Dice::new(seed);
    let mut actions = Vec::new();
    for _ in 0..100_000 {
        if g.turn() > last {
            break;
        }
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("a chance event");
                g.apply(a).expect("a die roll is legal");
                actions.push(a);
            }
            ToAct::Side(side) => {
                let p: &mut dyn Player = if side == Side(0) { &mut *p0 } else { &mut *p1 };
                let a = p.choose(&g);
                if let Err(r) = g.check(a) {
                    panic!(
                        "{} chose a refused action on turn {} ({:?}): {} — {r}",
                        p.name(),
                        g.turn(),
                        g.step(),
                        g.action_text(a)
                    );
                }
                g.apply_unchecked(a);
                actions.push(a);
            }
        }
    }
    (g, actions)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    /// The heuristic only ever takes legal actions, as either side, through a whole First Day
    /// against random play.
    #[test]
    fn heuristic_choices_are_legal(seed in any::<u64>(), french in any::<bool>()) {
        let mut h = HeuristicPlayer::new(seed);
        let mut r = RandomPlayer::new(seed ^ 1);
        let (g, _) = if french {
            checked_game("bon-first-day", seed, [&mut h, &mut r], 99)
        } else {
            checked_game("bon-first-day", seed, [&mut r, &mut h], 99)
        };
        prop_assert!(matches!(g.to_act(), ToAct::Over(_)));
    }

    /// The heuristic only ever takes legal actions in the Grand Battle against itself.
    #[test]
    fn heuristic_choices_are_legal_in_the_grand_battle(seed in any::<u64>()) {
        let mut a = HeuristicPlayer::new(seed);
        let mut b = HeuristicPlayer::new(seed ^ 7);
        checked_game("bon-grand-battle", seed, [&mut a, &mut b], 8);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, failure_persistence: None, ..ProptestConfig::default() })]

    /// The search player only ever takes legal actions (its own and the plans it adopts).
    #[test]
    fn search_choices_are_legal(seed in any::<u64>(), french in any::<bool>()) {
        let mut s = SearchPlayer::new(seed, Budget::Sims(60));
        let mut h = HeuristicPlayer::new(seed ^ 3);
        if french {
            checked_game("bon-first-day", seed, [&mut s, &mut h], 3);
        } else {
            checked_game("bon-first-day", seed, [&mut h, &mut s], 3);
        }
    }
}

#[test]
fn a_seeded_search_with_a_simulation_budget_plays_the_same_game() {
    let play = |workers: usize| {
        let mut s = SearchPlayer::new(42, Budget::Sims(80)).with_workers(workers);
        let mut h = HeuristicPlayer::new(43);
        checked_game("bon-first-day", 44, [&mut s, &mut h], 3).1
    };
    let a = play(2);
    let b = play(2);
    assert_eq!(a, b, "the same seed and budget gave different games");
    // and the result does not depend on how the rollouts are shared between threads
    let c = play(1);
    assert_eq!(a, c, "one worker and two workers gave different games");
}

#[test]
fn the_heuristic_wins_a_clear_majority_of_first_days_against_random_play() {
    let sc = scenario("bon-first-day");
    let mut score = 0.0;
    let games = 6;
    for seed in 0..games {
        let mut h = HeuristicPlayer::new(seed * 2);
        let mut r = RandomPlayer::new(seed * 2 + 1);
        // three games as the French, three as the Allies
        let (rep, side) = if seed % 2 == 0 {
            (play_game(sc.clone(), seed, [&mut h, &mut r]), 0)
        } else {
            (play_game(sc.clone(), seed, [&mut r, &mut h]), 1)
        };
        score += rep.score[side];
    }
    assert!(
        score >= 5.0,
        "the heuristic scored {score} of {games} against random play"
    );
}

#[test]
fn player_specs() {
    for spec in [
        "random",
        "heuristic",
        "search",
        "search@2s",
        "search@500ms",
        "search@5000n",
        "Search@1.5s",
    ] {
        assert!(player(spec, 1).is_ok(), "{spec}");
    }
    assert_eq!(player("search@5000n", 1).unwrap().name(), "search@5000n");
    assert_eq!(player("search@2s", 1).unwrap().name(), "search@2000ms");
    for bad in [
        "bogus",
        "search@",
        "search@0n",
        "search@-1s",
        "search@fast",
        "heuristic@2s",
        "random@10n",
    ] {
        assert!(player(bad, 1).is_err(), "{bad}");
    }
    assert_eq!(
        Budget::parse("250ms"),
        Ok(Budget::Time(std::time::Duration::from_millis(250)))
    );
    assert_eq!(Budget::parse("300n"), Ok(Budget::Sims(300)));
    // an arena plays clock-bound players one game at a time
    for clock in ["search", "search@2s", "SEARCH@500ms"] {
        assert!(ai::thinks_by_the_clock(clock), "{clock}");
    }
    for count in [
        "random",
        "heuristic",
        "search@5000n",
        "search@fast",
        "bogus",
    ] {
        assert!(!ai::thinks_by_the_clock(count), "{count}");
    }
}

#[test]
fn the_heuristic_explains_its_plan_and_its_attacks() {
    let sc = scenario("bon-grand-battle");
    let mut g = Game::from_arc(sc);
    let mut h = HeuristicPlayer::new(5);
    let mut dice = engine::Dice::new(5);
    let mut attack_notes = Vec::new();
    let mut plans = Vec::new();
    while g.turn() <= 2 {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => g
                .apply(engine::draw_chance(&g, &mut dice).expect("a chance event"))
                .unwrap(),
            ToAct::Side(_) => {
                let a = h.choose(&g);
                // the plan is said once, by the first action of a phase
                let Some(note) = h.explain() else {
                    g.apply(a).unwrap();
                    continue;
                };
                match a {
                    Action::Attack { .. } => attack_notes.push(note),
                    Action::Move { .. } if note.starts_with("plan: ") => plans.push(note),
                    _ => {}
                }
                g.apply(a).unwrap();
            }
        }
    }
    assert!(!plans.is_empty(), "no plan sentence");
    assert!(!attack_notes.is_empty(), "no attack declared");
    // every attack names its odds column
    let columns = [
        "1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1",
    ];
    for n in &attack_notes {
        assert!(
            columns.iter().any(|c| n.contains(&format!(" at {c}"))),
            "no odds in: {n}"
        );
    }
    let e = h.explanation().expect("a structured explanation");
    assert!(!e.plan.is_empty());
}

#[test]
fn the_search_player_explains_its_choice() {
    let sc = scenario("bon-first-day");
    let mut g = Game::from_arc(sc);
    let mut s = SearchPlayer::new(9, Budget::Sims(200));
    let mut h = HeuristicPlayer::new(10);
    let mut dice = engine::Dice::new(11);
    // to the Allied movement phase of turn 1
    while !(g.phasing() == Side(1) && g.step() == naw::Step::Movement) {
        match g.to_act() {
            ToAct::Chance => g
                .apply(engine::draw_chance(&g, &mut dice).expect("a chance event"))
                .unwrap(),
            ToAct::Side(_) => {
                let a = h.choose(&g);
                g.apply(a).unwrap();
            }
            ToAct::Over(_) => unreachable!(),
        }
    }
    let a = s.choose(&g);
    assert!(g.check(a).is_ok());
    let note = s.explain().unwrap();
    assert!(note.starts_with("plan: "), "{note}");
    // the search's figures are kept out of the sentence a player reads
    assert!(!note.contains("rollouts"), "{note}");
    let summary = s.search_summary().expect("a search was made");
    assert!(summary.contains("rollouts"), "{summary}");
    assert!(s.stats().simulations > 0);
}

/// The search's statistics by kind of decision add up to its totals: every searched decision
/// is counted once, under its own kind, with its rollouts; a budget too small for two rollouts
/// a candidate leaves the decision to the heuristic and is counted as unsearched.
#[test]
fn the_search_counts_its_decisions_by_kind() {
    use ai::DecisionKind;
    let first = scenario("bon-first-day").first_turn;
    let mut s = SearchPlayer::new(21, Budget::Sims(240)).with_workers(1);
    let mut h = HeuristicPlayer::new(22);
    checked_game("bon-first-day", 23, [&mut s, &mut h], first + 4);
    let st = s.stats();
    let searched: u64 = st.kinds.iter().map(|k| k.searched).sum();
    let sims: u64 = st.kinds.iter().map(|k| k.simulations).sum();
    assert_eq!(searched, st.decisions);
    assert_eq!(sims, st.simulations);
    let movement = st.kinds[DecisionKind::Movement as usize];
    assert!(
        movement.searched >= 1,
        "a French movement phase searched: {st:?}"
    );
    assert!(movement.simulations > 0 && movement.time >= movement.planning);
    assert!(
        st.kinds[DecisionKind::Defender as usize].searched
            + st.kinds[DecisionKind::Defender as usize].unsearched
            > 0,
        "the French defend in the Allied player-turn: {st:?}"
    );
    let names: Vec<&str> = DecisionKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["movement", "declare", "own_combat", "defender"]);

    // ten rollouts cannot try each of the movement plans twice
    let mut s = SearchPlayer::new(21, Budget::Sims(10)).with_workers(1);
    let mut h = HeuristicPlayer::new(22);
    checked_game("bon-first-day", 23, [&mut s, &mut h], first + 4);
    let st = s.stats();
    let movement = st.kinds[DecisionKind::Movement as usize];
    assert_eq!((st.decisions, movement.searched), (0, 0), "{st:?}");
    assert!(movement.unsearched >= 1, "{st:?}");
}
