//! The pinned level `search1` and the rating ladder (`ai::ladder`): the rating math on
//! synthetic results (a known order recovered, equal levels equal, intervals that shrink with
//! more games, a pairing won every time kept finite), the schedule, and a small ladder played
//! through the generic arena on the toy *Scouts*.

use ai::ladder::{self, expected, rate, Arena, DynArena, GameScore, Plan, RatingOptions};
use ai::{player, AnyRandom};
use engine::dynamic::{DynGame, DynPlayer, ScenarioSource, System};
use engine::{Dice, Rules, Side, ToAct};
use naw::{Action, Game};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Plays the First Day's first three game-turns, `spec` (seed 21) French against the heuristic
/// (seed 22), dice from seed 23, and returns a digest of the actions' texts: the game of
/// `tests/stopping.rs`'s pin, through the player specs.
fn first_day_digest(spec: &str) -> u64 {
    let mut g = Game::from_arc(Arc::new(
        scenarios::load("bon-first-day").expect("shipped scenario"),
    ));
    let mut s = player(spec, 21).expect("a player");
    let mut h = player("heuristic", 22).expect("the heuristic");
    let mut dice = Dice::new(23);
    let mut text = String::new();
    while g.turn() <= 3 {
        let a: Action = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => engine::draw_chance(&g, &mut dice).expect("a chance event"),
            ToAct::Side(Side(0)) => s.choose(&g),
            ToAct::Side(_) => h.choose(&g),
        };
        text.push_str(&g.action_text(a));
        text.push('\n');
        g.apply(a).expect("legal");
    }
    engine::hash_bytes(text.as_bytes())
}

/// The digest of that game played by `search@300n` at release 1 (issue 13), when `search` was
/// the default: `search1` must play it so forever.
const RELEASE_1_SEARCH_300N: u64 = 0x225b_e62d_1465_7948;

#[test]
fn search1_plays_release_1s_default_search() {
    assert_eq!(first_day_digest("search1@300n"), RELEASE_1_SEARCH_300N);
    // the spec is read as the other players' are
    assert_eq!(first_day_digest(" SEARCH1@300n "), RELEASE_1_SEARCH_300N);
}

#[test]
fn search1_takes_the_budgets_search_takes() {
    for spec in ["search1", "search1@2s", "search1@500ms", "search1@5000n"] {
        let p = player(spec, 1).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(p.name().starts_with("search"), "{spec}: {}", p.name());
    }
    assert!(player("search1@", 1).is_err());
    assert!(ai::thinks_by_the_clock("search1"));
    assert!(ai::thinks_by_the_clock("search1@2s"));
    assert!(!ai::thinks_by_the_clock("search1@5000n"));
    assert!(ai::PLAYERS.contains(&"search1"));
    // the default computer player (the last listed) is still `search`
    assert_eq!(ai::PLAYERS.last(), Some(&"search"));
}

/// A tiny deterministic generator for synthetic results.
struct Rng(Dice);

impl Rng {
    fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Synthetic games between levels of known Elo: `per_pair` games each way between every two,
/// a draw with probability `draws`, otherwise a win by the model's expected score.
fn synthetic(elo: &[f64], per_pair: usize, draws: f64, seed: u64) -> Vec<GameScore> {
    let mut rng = Rng(Dice::new(seed));
    let mut out = Vec::new();
    for i in 0..elo.len() {
        for j in 0..elo.len() {
            if i == j {
                continue;
            }
            for _ in 0..per_pair {
                let e = expected(elo[i], elo[j]);
                // a draw takes half the decisive mass from each side, keeping the expectation
                let u = rng.uniform();
                let score = if u < e - draws / 2.0 {
                    1.0
                } else if u < e + draws / 2.0 {
                    0.5
                } else {
                    0.0
                };
                out.push(GameScore {
                    first: i,
                    second: j,
                    score,
                });
            }
        }
    }
    out
}

#[test]
fn expected_scores_on_the_elo_scale() {
    assert!((expected(0.0, 0.0) - 0.5).abs() < 1e-12);
    assert!((expected(400.0, 0.0) - 10.0 / 11.0).abs() < 1e-12);
    assert!((expected(0.0, 400.0) + expected(400.0, 0.0) - 1.0).abs() < 1e-12);
}

#[test]
fn a_known_strength_order_is_recovered() {
    let truth = [0.0, 150.0, 300.0, 500.0];
    let games = synthetic(&truth, 400, 0.1, 7);
    let r = rate(
        truth.len(),
        &games,
        RatingOptions {
            prior: 0.0,
            ..RatingOptions::default()
        },
    )
    .expect("rated");
    let elo: Vec<f64> = r.ratings.iter().map(|x| x.elo).collect();
    assert_eq!(elo[0], 0.0, "the anchor stays put");
    assert_eq!(r.ratings[0].ci95, 0.0);
    for k in 1..truth.len() {
        assert!(elo[k] > elo[k - 1], "order lost: {elo:?}");
        let x = r.ratings[k];
        // within its own interval, give or take (400 games each way per pairing)
        assert!(
            (x.elo - truth[k]).abs() < x.ci95.max(40.0),
            "level {k}: {} ± {} for {}",
            x.elo,
            x.ci95,
            truth[k]
        );
    }
    // the points add up: every game counted once for each level
    let total: usize = r.ratings.iter().map(|x| x.games).sum();
    assert_eq!(total, 2 * games.len());
    let points: f64 = r.ratings.iter().map(|x| x.points).sum();
    assert!((points - games.len() as f64).abs() < 1e-9);
}

#[test]
fn equal_levels_are_rated_equal() {
    let games = synthetic(&[0.0, 0.0, 0.0], 300, 0.2, 3);
    let r = rate(3, &games, RatingOptions::default()).expect("rated");
    for x in &r.ratings[1..] {
        assert!(x.elo.abs() < x.ci95, "{} ± {}", x.elo, x.ci95);
        assert!(x.elo.abs() < 60.0, "{}", x.elo);
    }
    // exactly equal results: exactly equal ratings
    let even: Vec<GameScore> = (0..10)
        .flat_map(|k| {
            let s = if k % 2 == 0 { 1.0 } else { 0.0 };
            [
                GameScore {
                    first: 0,
                    second: 1,
                    score: s,
                },
                GameScore {
                    first: 1,
                    second: 2,
                    score: 0.5,
                },
                GameScore {
                    first: 2,
                    second: 0,
                    score: 1.0 - s,
                },
            ]
        })
        .collect();
    let r = rate(3, &even, RatingOptions::default()).expect("rated");
    for x in &r.ratings {
        assert!(x.elo.abs() < 1e-6, "{:?}", r.ratings);
    }
}

#[test]
fn intervals_shrink_with_more_games() {
    let truth = [0.0, 100.0, 250.0];
    let mut last = f64::INFINITY;
    for per_pair in [10, 40, 160, 640] {
        let r = rate(
            3,
            &synthetic(&truth, per_pair, 0.1, 11),
            RatingOptions::default(),
        )
        .expect("rated");
        let ci = r.ratings[2].ci95;
        assert!(ci < last, "{per_pair} games: ±{ci} after ±{last}");
        last = ci;
    }
    // about 1/√n: sixteen times the games, a quarter of the interval (give or take)
    let small = rate(3, &synthetic(&truth, 40, 0.1, 11), RatingOptions::default()).unwrap();
    let big = rate(
        3,
        &synthetic(&truth, 640, 0.1, 11),
        RatingOptions::default(),
    )
    .unwrap();
    let q = big.ratings[1].ci95 / small.ratings[1].ci95;
    assert!((0.18..0.35).contains(&q), "{q}");
}

#[test]
fn a_pairing_won_every_time_stays_finite() {
    // level 1 wins all its 10 games against level 0
    let games: Vec<GameScore> = (0..10)
        .map(|k| GameScore {
            first: k % 2,
            second: 1 - k % 2,
            score: if k % 2 == 1 { 1.0 } else { 0.0 },
        })
        .collect();
    let r = rate(2, &games, RatingOptions::default()).expect("rated");
    let x = r.ratings[1];
    assert!(x.elo.is_finite() && x.ci95.is_finite(), "{x:?}");
    // one virtual draw: 10.5 of 11 points, 400·log10(10.5 / 0.5) ≈ 529 Elo
    assert!((x.elo - 400.0 * 21f64.log10()).abs() < 1e-6, "{}", x.elo);
    assert!(x.ci95 > 100.0, "a wide interval on ten games: {}", x.ci95);
    assert!((x.rate() - 1.0).abs() < 1e-12);
    // more wins, a higher rating, still finite
    let more: Vec<GameScore> = games.iter().cycle().take(40).copied().collect();
    let r2 = rate(2, &more, RatingOptions::default()).expect("rated");
    assert!(r2.ratings[1].elo > x.elo && r2.ratings[1].elo.is_finite());
    // a chain of sweeps: 0 < 1 < 2, everything won; the anchor elsewhere
    let chain: Vec<GameScore> = (0..8)
        .flat_map(|_| {
            [
                GameScore {
                    first: 1,
                    second: 0,
                    score: 1.0,
                },
                GameScore {
                    first: 2,
                    second: 1,
                    score: 1.0,
                },
                GameScore {
                    first: 2,
                    second: 0,
                    score: 1.0,
                },
            ]
        })
        .collect();
    let r3 = rate(
        3,
        &chain,
        RatingOptions {
            anchor: 1,
            anchor_elo: 1000.0,
            prior: 1.0,
        },
    )
    .expect("rated");
    let e: Vec<f64> = r3.ratings.iter().map(|x| x.elo).collect();
    assert_eq!(e[1], 1000.0);
    assert!(
        e[0] < e[1] && e[1] < e[2] && e.iter().all(|x| x.is_finite()),
        "{e:?}"
    );
}

#[test]
fn unconnected_levels_and_bad_scores_are_refused() {
    let g = |first, second, score| GameScore {
        first,
        second,
        score,
    };
    assert!(rate(3, &[g(0, 1, 1.0)], RatingOptions::default()).is_err());
    assert!(rate(2, &[g(0, 1, 1.5)], RatingOptions::default()).is_err());
    assert!(rate(2, &[g(0, 0, 1.0)], RatingOptions::default()).is_err());
    let bad_anchor = RatingOptions {
        anchor: 5,
        ..RatingOptions::default()
    };
    assert!(rate(2, &[g(0, 1, 1.0)], bad_anchor).is_err());
}

fn plan(players: &[&str], games: usize) -> Plan {
    Plan {
        players: players.iter().map(|s| s.to_string()).collect(),
        scenarios: vec!["a".into(), "b".into()],
        games,
        seed: 5,
    }
}

#[test]
fn the_schedule_plays_every_pairing_on_every_scenario_as_both_sides() {
    let p = plan(&["x", "y", "z"], 2);
    let f = ladder::fixtures(&p);
    // 2 scenarios × 6 ordered pairs × 2 rounds
    assert_eq!(f.len(), 24);
    for s in 0..2 {
        for i in 0..3 {
            for j in 0..3 {
                let k = f
                    .iter()
                    .filter(|x| x.scenario == s && x.seats == [i, j])
                    .count();
                assert_eq!(k, if i == j { 0 } else { 2 });
            }
        }
    }
    let mut seeds: Vec<u64> = f.iter().map(|x| x.seed).collect();
    seeds.sort();
    seeds.dedup();
    assert_eq!(seeds.len(), f.len(), "distinct seeds");
    // adding a level leaves the others' games as they were
    let more = ladder::fixtures(&plan(&["x", "w", "y", "z"], 2));
    let seed_of = |fs: &[ladder::Fixture], names: &[&str], a: &str, b: &str, s: usize, r| {
        let i = names.iter().position(|n| *n == a).unwrap();
        let j = names.iter().position(|n| *n == b).unwrap();
        fs.iter()
            .find(|x| x.seats == [i, j] && x.scenario == s && x.round == r)
            .unwrap()
            .seed
    };
    assert_eq!(
        seed_of(&f, &["x", "y", "z"], "z", "x", 1, 1),
        seed_of(&more, &["x", "w", "y", "z"], "z", "x", 1, 1)
    );
}

fn scouts(_scenario: &str, seed: u64) -> Result<Box<dyn DynGame>, String> {
    let src = ScenarioSource {
        name: "toy-skirmish",
        text: toy::SCENARIO,
        read: &|f| Err(format!("no file {f}")),
    };
    toy::Toy.new_game(&src, seed).map_err(|e| e.to_string())
}

fn scouts_player(spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String> {
    match spec {
        "random" => Ok(Box::new(AnyRandom::new(seed))),
        other => toy::Toy.player(other, seed),
    }
}

#[test]
fn a_small_ladder_through_the_generic_arena() {
    let arena = DynArena {
        new_game: scouts,
        player: scouts_player,
        max_actions: 10_000,
    };
    assert!(arena.check("first").is_ok() && arena.check("nobody").is_err());
    let p = Plan {
        players: vec!["random".into(), "first".into()],
        scenarios: vec!["toy-skirmish".into()],
        games: 6,
        seed: 9,
    };
    let seen = AtomicUsize::new(0);
    let count = |_: &ladder::Played| {
        seen.fetch_add(1, Ordering::Relaxed);
    };
    let played = ladder::play(&arena, &p, 2, &count).expect("played");
    assert_eq!(played.len(), 12);
    assert_eq!(seen.load(Ordering::Relaxed), 12);
    for x in &played {
        assert!((x.score[0] + x.score[1] - 1.0).abs() < 1e-12);
    }
    // the same games on one thread
    let again = ladder::play(&arena, &p, 1, &|_| {}).expect("played");
    let scores = |v: &[ladder::Played]| v.iter().map(|x| x.score).collect::<Vec<_>>();
    assert_eq!(scores(&played), scores(&again));
    let results: Vec<GameScore> = played.iter().map(|x| x.game_score()).collect();
    let r = rate(2, &results, RatingOptions::default()).expect("rated");
    assert_eq!(r.ratings[0].games, 12);
    assert_eq!(r.pairwise[0][1].games, 12);
    assert!((r.pairwise[0][1].points + r.pairwise[1][0].points - 12.0).abs() < 1e-9);
    // a level listed twice, or unknown, is refused before any game
    let twice = Plan {
        players: vec!["first".into(), "first".into()],
        ..p.clone()
    };
    assert!(ladder::play(&arena, &twice, 1, &|_| {}).is_err());
    let unknown = Plan {
        players: vec!["first".into(), "nobody".into()],
        ..p
    };
    assert!(ladder::play(&arena, &unknown, 1, &|_| {}).is_err());
}

/// An arena whose games are coin flips by seed, with `slow` thinking by the clock, that notes
/// the order the games were played in.
struct Coins {
    played: std::sync::Mutex<Vec<(u64, bool)>>,
}

impl Arena for Coins {
    fn check(&self, _spec: &str) -> Result<(), String> {
        Ok(())
    }

    fn thinks_by_the_clock(&self, spec: &str) -> bool {
        spec == "slow"
    }

    fn play(&self, _scenario: &str, players: [&str; 2], seed: u64) -> Result<[f64; 2], String> {
        let clock = players.contains(&"slow");
        self.played.lock().unwrap().push((seed, clock));
        Ok(if seed.is_multiple_of(2) {
            [1.0, 0.0]
        } else {
            [0.0, 1.0]
        })
    }
}

#[test]
fn clock_games_are_played_alone_after_the_others_and_reported_in_order() {
    let arena = Coins {
        played: Default::default(),
    };
    let p = Plan {
        players: vec!["a".into(), "slow".into(), "b".into()],
        scenarios: vec!["s".into(), "t".into()],
        games: 3,
        seed: 2,
    };
    let played = ladder::play(&arena, &p, 2, &|_| {}).expect("played");
    let fixtures = ladder::fixtures(&p);
    assert_eq!(played.len(), fixtures.len());
    for (x, f) in played.iter().zip(&fixtures) {
        assert_eq!(x.fixture, *f);
        assert_eq!(x.score[0], if f.seed.is_multiple_of(2) { 1.0 } else { 0.0 });
    }
    // every game without the clock player came first
    let order = arena.played.lock().unwrap().clone();
    let first_clock = order.iter().position(|(_, c)| *c).expect("clock games");
    assert!(order[first_clock..].iter().all(|(_, c)| *c), "{order:?}");
    assert_eq!(order.iter().filter(|(_, c)| *c).count(), 2 * 4 * 3);
}
