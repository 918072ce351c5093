//! A search that can be stopped (issue 11): once its stop flag is set — its game abandoned —
//! a search returns as soon as it can with a legal action, even with an hour to think; and a
//! flag that is never set changes nothing (the games of a simulation budget are pinned as they
//! were before the flag existed).
//!
//! The waits below are liveness bounds (a stopped search that has not returned after two
//! minutes is stuck), not measures of speed.

use ai::montecarlo::{self, Knowledge, Limits, MonteCarloPlayer, Rollout};
use ai::{player, Budget, HeuristicPlayer, Player, SearchPlayer};
use engine::dynamic::{DynGame, ScenarioSource, System};
use engine::{Dice, Rules, Side, ToAct};
use naw::{Action, Game, Step};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long a stopped search may take before the test calls it stuck.
const LIVENESS: Duration = Duration::from_secs(120);

/// Runs `f` on a thread of its own and returns its result, failing the test if it has not
/// returned within [`LIVENESS`].
fn within_liveness_bound<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(LIVENESS) {
        Ok(v) => v,
        Err(_) => panic!("{what} had not returned after {} s", LIVENESS.as_secs()),
    }
}

fn first_day() -> Game {
    Game::from_arc(Arc::new(
        scenarios::load("bon-first-day").expect("shipped scenario"),
    ))
}

/// The First Day at its first movement phase (the heuristic plays what comes before): a
/// decision with many candidate plans.
fn first_movement() -> Game {
    let mut g = first_day();
    let mut h = HeuristicPlayer::new(1);
    let mut dice = Dice::new(1);
    while !(g.step() == Step::Movement && matches!(g.to_act(), ToAct::Side(_))) {
        let a = match g.to_act() {
            ToAct::Chance => engine::draw_chance(&g, &mut dice).expect("a chance event"),
            ToAct::Side(_) => h.choose(&g),
            ToAct::Over(o) => panic!("the game ended: {o:?}"),
        };
        g.apply(a).expect("legal");
    }
    g
}

#[test]
fn a_search_with_an_hour_to_think_returns_a_legal_action_once_stopped() {
    let g = first_movement();
    let flag = Arc::new(AtomicBool::new(false));
    let mut p = player("search@3599s", 5).expect("a search player");
    p.stop_on(flag.clone());
    let (started_tx, started_rx) = mpsc::channel();
    let game = g.clone();
    let setter = flag.clone();
    // the flag is set once the search is under way (a pause after its start lets it reach its
    // rollouts; were it set earlier, the search must return all the same)
    std::thread::spawn(move || {
        if started_rx.recv().is_ok() {
            std::thread::sleep(Duration::from_millis(300));
        }
        setter.store(true, Ordering::Relaxed);
    });
    let (a, stats, why) = within_liveness_bound("a stopped search@3599s", move || {
        let _ = started_tx.send(());
        let a = p.choose(&game);
        (a, p.search_stats(), p.explain())
    });
    assert!(g.check(a).is_ok(), "a refused action: {}", g.action_text(a));
    println!("stopped with {stats:?}: {}", why.unwrap_or_default());
    assert!(
        flag.load(Ordering::Relaxed),
        "it returned before it was stopped"
    );
}

#[test]
fn a_search_stopped_before_it_starts_plays_the_heuristics_plan_unsearched() {
    let mut g = first_movement();
    let flag = Arc::new(AtomicBool::new(true));
    let mut s = SearchPlayer::new(5, Budget::Time(Duration::from_secs(3599)));
    s.stop_on(flag);
    let mut dice = Dice::new(9);
    // a whole French player-turn: the movement plan, the declarations, the combat choices
    let (turn, french) = (g.turn(), g.phasing());
    let choices = within_liveness_bound("a search stopped beforehand", move || {
        let mut n = 0;
        while (g.turn(), g.phasing()) == (turn, french) {
            match g.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    let a = engine::draw_chance(&g, &mut dice).expect("a chance event");
                    g.apply(a).expect("a die");
                }
                ToAct::Side(_) => {
                    let a = s.choose(&g);
                    assert!(g.check(a).is_ok(), "refused: {}", g.action_text(a));
                    g.apply_unchecked(a);
                    n += 1;
                }
            }
        }
        assert_eq!(s.stats().simulations, 0, "a stopped search played rollouts");
        n
    });
    assert!(choices > 0);
}

/// Plays the First Day's first three game-turns, the search (`search@300n`) French against
/// the heuristic, and returns a digest of the actions' texts.
fn search_game_digest(workers: usize, flag: Option<Arc<AtomicBool>>) -> u64 {
    let mut g = first_day();
    let mut s = SearchPlayer::new(21, Budget::Sims(300)).with_workers(workers);
    if let Some(f) = flag {
        s.stop_on(f);
    }
    let mut h = HeuristicPlayer::new(22);
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

/// The digest of that game before the stop flag existed.
const SEARCH_GAME: u64 = 0x225b_e62d_1465_7948;

#[test]
fn an_unset_flag_leaves_a_simulation_budget_search_as_it_was() {
    let unset = || Some(Arc::new(AtomicBool::new(false)));
    assert_eq!(search_game_digest(2, None), SEARCH_GAME);
    assert_eq!(search_game_digest(2, unset()), SEARCH_GAME);
    assert_eq!(search_game_digest(1, unset()), SEARCH_GAME);
}

/// A trivial plug-in for the toy *Scouts* (every legal action a candidate, random rollouts to
/// the end), which can raise a stop flag itself after a number of evaluations: a stop in the
/// middle of a search at a known point.
struct Trivial {
    evaluations: AtomicU32,
    stop_after: Option<(u32, Arc<AtomicBool>)>,
}

impl Trivial {
    fn new() -> Trivial {
        Trivial {
            evaluations: AtomicU32::new(0),
            stop_after: None,
        }
    }
}

struct RandomPolicy(Dice);

impl Rollout<toy::Game> for RandomPolicy {
    fn act(&mut self, g: &toy::Game) -> toy::Action {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let i = self.0.draw(&vec![1; legal.len()]).unwrap_or(0);
        legal[i]
    }
}

impl Knowledge<toy::Game> for Trivial {
    type Policy = RandomPolicy;

    fn candidates(&self, g: &toy::Game, _me: Side, _seed: u64) -> Vec<Vec<toy::Action>> {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        legal.into_iter().map(|a| vec![a]).collect()
    }

    fn policy(&self, _seat: Side, seed: u64) -> RandomPolicy {
        RandomPolicy(Dice::new(seed))
    }

    fn evaluate(&self, g: &toy::Game, me: Side) -> f64 {
        let n = self.evaluations.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some((after, flag)) = &self.stop_after {
            if n >= *after {
                flag.store(true, Ordering::Relaxed);
            }
        }
        match g.to_act() {
            ToAct::Over(o) => match o.winner {
                Some(w) if w == me => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            _ => 0.5,
        }
    }

    fn horizon_reached(&self, _start: &toy::Game, _now: &toy::Game, _me: Side) -> bool {
        false
    }
}

fn toy_game(seed: u64) -> Box<dyn DynGame> {
    let src = ScenarioSource {
        name: "toy-skirmish",
        text: toy::SCENARIO,
        read: &|f| Err(format!("no file {f}")),
    };
    toy::Toy
        .new_game(&src, seed)
        .expect("the shipped toy scenario")
}

fn typed(g: &dyn DynGame) -> &toy::Game {
    &g.as_any()
        .downcast_ref::<toy::ToyGame>()
        .expect("a toy game")
        .session
        .game
}

#[test]
fn a_generic_search_stopped_midway_keeps_the_rounds_it_completed() {
    let g = typed(toy_game(3).as_ref()).clone();
    let me = match g.to_act() {
        ToAct::Side(s) => s,
        other => panic!("no seat to act: {other:?}"),
    };
    let flag = Arc::new(AtomicBool::new(false));
    let mut k = Trivial::new();
    k.stop_after = Some((7, flag.clone()));
    let k = Arc::new(k);
    let plans = k.candidates(&g, me, 1);
    assert!(plans.len() > 1, "a decision to search");
    // an hour to think, one worker: the plug-in raises the flag at its seventh evaluation
    let limits = Limits {
        sims: u32::MAX,
        deadline: Some(Instant::now() + Duration::from_secs(3600)),
        workers: 1,
        stop: Some(flag),
    };
    let n = plans.len() as u32;
    let v = within_liveness_bound("a stopped generic search", move || {
        montecarlo::search(&k, &g, me, &plans, 7, limits)
    });
    assert!(v.stopped);
    // the round cut by the stop is dropped whole: only complete rounds count
    assert_eq!(v.simulations, (7 / n) * n, "{v:?}");
    assert!(v.best < n as usize);
}

#[test]
fn a_generic_search_stopped_before_any_round_takes_the_first_candidate() {
    let g = typed(toy_game(3).as_ref()).clone();
    let ToAct::Side(me) = g.to_act() else {
        panic!("no seat to act")
    };
    let k = Arc::new(Trivial::new());
    let plans = k.candidates(&g, me, 1);
    for workers in [1, 2] {
        let limits = Limits {
            sims: u32::MAX,
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            workers,
            stop: Some(Arc::new(AtomicBool::new(true))),
        };
        let (k, g, plans) = (k.clone(), g.clone(), plans.clone());
        let v = within_liveness_bound("a generic search stopped beforehand", move || {
            montecarlo::search(&k, &g, me, &plans, 7, limits)
        });
        assert_eq!((v.best, v.simulations, v.stopped), (0, 0, true), "{v:?}");
    }
}

/// A whole game of Scouts, the generic search (48 simulations a decision) playing both seats,
/// as a digest of the record's action texts, and whether it ended.
fn toy_game_digest(flag: Option<Arc<AtomicBool>>) -> (u64, bool) {
    let mut g = toy_game(3);
    let mut p = MonteCarloPlayer::new(Trivial::new(), 11, 48);
    if let Some(f) = flag {
        p.stop_on(f);
    }
    for _ in 0..1_000 {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                g.roll().expect("a die");
            }
            ToAct::Side(_) => {
                let t = {
                    let tg = typed(g.as_ref());
                    tg.action_text(p.choose(tg).expect("a seat to act"))
                };
                g.act(&t).expect("a legal action");
            }
        }
    }
    let text: String = g
        .record()
        .actions
        .iter()
        .map(|a| format!("{}\n", a.text))
        .collect();
    let over = matches!(g.to_act(), ToAct::Over(_));
    (engine::hash_bytes(text.as_bytes()), over)
}

/// The digest of that game before the stop flag existed.
const TOY_GAME: u64 = 0xa398_3c3c_27a2_f5fa;

#[test]
fn an_unset_flag_leaves_the_generic_search_as_it_was() {
    assert_eq!(toy_game_digest(None), (TOY_GAME, true));
    assert_eq!(
        toy_game_digest(Some(Arc::new(AtomicBool::new(false)))),
        (TOY_GAME, true)
    );
}

#[test]
fn a_stopped_generic_player_still_plays_legal_actions() {
    let (_, over) = within_liveness_bound("a stopped generic player", || {
        toy_game_digest(Some(Arc::new(AtomicBool::new(true))))
    });
    // a whole game, unsearched, every action accepted by `act`
    assert!(over);
}
