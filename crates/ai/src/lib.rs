//! Computer players over the engine's game interface, and [`play_game`], the arena loop used
//! by `grognard sim`, the web server and the tests.
//!
//! A player sees only what [`engine::Rules`] and the public `naw::Game` queries offer: it never
//! reaches into a rules crate's internals. The players, by spec ([`player`]):
//!
//! - `random`: uniformly random legal actions (a baseline and a fuzzer);
//! - `heuristic`: hand-written play that knows the game (`docs/ai.md`);
//! - `search`, `search@2s`, `search@500ms`, `search@5000n`: Monte Carlo search over plans the
//!   heuristic proposes, with the dice as chance events, within a thinking-time or a
//!   simulation-count budget, on every core;
//! - `search1` (with the same budgets): the search as it was the default at release 1, pinned
//!   (it plays exactly as `search` did then, whatever `search` becomes), the yardstick every
//!   later level is measured against;
//! - `search2` (same budgets): the search with the evaluation learned from self-play
//!   ([`learn`], weights in `crates/ai/weights/naw.toml`);
//! - `search3` (same budgets): `search2` searching the opponent's replies and spending its
//!   time where the decision is close ([`montecarlo::search_with`]);
//! - `search4` (same budgets): `search3` with more candidate plans (the reinforcements' entry
//!   hex kept clear, set-ups converging on an isolated enemy, support for units obliged to
//!   attack, the line of communications' end hex held by a unit strong enough), a defender's
//!   advance that weighs the attack it obliges, ending a decision once no candidate can beat
//!   the leader by 0.01 ([`montecarlo::Options::indifference`]).
//!
//! [`ladder`] rates levels against each other (Elo with confidence intervals) over any rules
//! system's games.
//!
//! The search machinery itself, [`montecarlo`], is generic over any [`engine::Rules`] with a
//! per-system plug-in ([`montecarlo::Knowledge`]); the search player is Napoleon at War's.

// Hex and unit data live in dense arrays indexed by hex or unit number: index loops say so.
#![allow(clippy::needless_range_loop)]

mod any;
mod board;
mod eval;
pub mod features;
mod heuristic;
pub mod hm;
mod info;
pub mod l1813;
pub mod ladder;
pub mod learn;
mod loc;
#[doc(hidden)]
pub mod mirrors;
pub mod montecarlo;
pub mod nb;
mod plan;
mod random;
mod search;
pub mod suite;
mod tactics;

pub use any::{play_any, AnyRandom, AnyReport};
pub use heuristic::HeuristicPlayer;
pub use info::TIEBREAK_SCENARIOS;
pub use plan::{AttackNote, Explanation, Style};
pub use random::RandomPlayer;
pub use search::{Budget, DecisionKind, KindStats, SearchPlayer, SearchStats};

use engine::{Outcome, Record, Rules, Session, Side, ToAct};
use naw::{Action, Game, Scenario};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A computer player.
pub trait Player: Send {
    /// Chooses one of the legal actions of the side to act. Called only when a side is to act.
    fn choose(&mut self, game: &Game) -> Action;
    /// A name for reports (`random`).
    fn name(&self) -> String;
    /// A sentence explaining the last choice, for the log: for an attack declaration its odds
    /// and why, for the first move of a turn the plan of the turn.
    fn explain(&self) -> Option<String> {
        None
    }
    /// What the player intends this player-turn: the plan in a sentence and every attack with
    /// its odds and why.
    fn explanation(&self) -> Option<Explanation> {
        None
    }
    /// What a searching player has done so far (simulations, thinking time); `None` for players
    /// that do not search.
    fn search_stats(&self) -> Option<SearchStats> {
        None
    }
    /// Asks the player to stop thinking as soon as `flag` is set, from any thread (its game
    /// was abandoned): a [`choose`](Player::choose) under way or to come then returns as soon
    /// as it can, with a legal action that is cheap to find (a search's heuristic choice). The
    /// player never clears the flag. Players that do not search return at once anyway and
    /// ignore it (the default); a flag that is never set changes nothing.
    fn stop_on(&mut self, _flag: Arc<AtomicBool>) {}
}

/// The player for a spec: `random`, `heuristic`, `search` (the default budget),
/// `search@2s`, `search@500ms` (thinking time per player-turn) or `search@5000n` (simulations
/// per player-turn, for reproducible games); `search1` with the same budgets is release 1's
/// default search, pinned (see [`PLAYERS`]).
pub fn player(spec: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    player_with(spec, seed, None)
}

/// [`player`], the learned levels (`search2`, `search3`, `search4`) reading `weights` in place
/// of the embedded ones (`crates/ai/weights/naw.toml`) when given; the other levels ignore
/// them. For measuring and fitting weights before they ship (`grognard sim --weights`).
pub fn player_with(
    spec: &str,
    seed: u64,
    weights: Option<Arc<learn::Weights>>,
) -> Result<Box<dyn Player>, String> {
    let spec = spec.trim();
    let learned = || weights.clone().unwrap_or_else(features::naw_weights);
    let (kind, budget) = match spec.split_once('@') {
        Some((k, b)) => (k, Some(b)),
        None => (spec, None),
    };
    match (kind.to_ascii_lowercase().as_str(), budget) {
        ("random", None) => Ok(Box::new(RandomPlayer::new(seed))),
        ("heuristic", None) => Ok(Box::new(HeuristicPlayer::new(seed))),
        // `search1` is pinned to release 1's search: today's `SearchPlayer` with its default
        // options, whatever later levels add (`tests/ladder.rs` pins its games' digests)
        ("search" | "search1", b) => {
            let budget = match b {
                None => Budget::default(),
                Some(b) => Budget::parse(b)?,
            };
            Ok(Box::new(SearchPlayer::new(seed, budget)))
        }
        // the search with the evaluation learned from self-play (`features.rs`, `learn.rs`)
        ("search2", b) => {
            let budget = b.map_or(Ok(Budget::default()), Budget::parse)?;
            Ok(Box::new(
                SearchPlayer::new(seed, budget).with_learned(learned()),
            ))
        }
        // the search that expects a real opponent (the opponent's replies searched, time where
        // the decision is hard) over search2's learned evaluation
        ("search3", b) => {
            let budget = b.map_or(Ok(Budget::default()), Budget::parse)?;
            Ok(Box::new(
                SearchPlayer::new(seed, budget)
                    .with_learned(learned())
                    .with_replies(),
            ))
        }
        // search3 with more candidate plans: the entry hex kept clear, set-ups that converge
        // on an isolated enemy and support units obliged to attack (docs/ai.md, "search4")
        ("search4", b) => {
            let budget = b.map_or(Ok(Budget::default()), Budget::parse)?;
            Ok(Box::new(
                SearchPlayer::new(seed, budget)
                    .with_learned(learned())
                    .with_replies()
                    .with_more_candidates(),
            ))
        }
        ("random" | "heuristic", Some(_)) => Err(format!(
            "'{spec}': only the search players take a budget (search@2s, search1@5000n)"
        )),
        (other, _) => Err(format!(
            "unknown player '{other}' (available: {})",
            PLAYERS.join(", ")
        )),
    }
}

/// True when the player of a spec thinks by the clock (a search with a time budget): its
/// strength then depends on the cores it has, so an arena plays such games one at a time.
/// `false` for an invalid spec.
pub fn thinks_by_the_clock(spec: &str) -> bool {
    match spec.trim().split_once('@') {
        Some((k, b)) if is_search(k) => matches!(Budget::parse(b), Ok(Budget::Time(_))),
        _ => is_search(spec.trim()),
    }
}

/// The search players' names (without a budget), whose default budget is a thinking time.
fn is_search(kind: &str) -> bool {
    ["search", "search1", "search2", "search3", "search4"]
        .iter()
        .any(|k| kind.eq_ignore_ascii_case(k))
}

/// The names of the available players, weakest first, the default last: the server's default
/// computer player is the last one (`server::games::default_computer`), so `search` stays last
/// until the ladder shows a stronger level and the lead points the default at it. `search1` is
/// release 1's default search, pinned: today the same player as `search`, which may later point
/// to a stronger level.
pub const PLAYERS: &[&str] = &[
    "random",
    "heuristic",
    "search1",
    "search2",
    "search3",
    "search4",
    "search",
];

/// What a finished game came to.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// How it ended.
    pub outcome: Outcome,
    /// Actions taken (dice included).
    pub actions: usize,
    /// The game-turn it ended in.
    pub turns: u8,
    /// The whole record.
    pub record: Record,
    /// Eliminated strength per army at the end.
    pub losses: Vec<u32>,
    /// Eliminated strength per side at the end (the armies of each side added up).
    pub side_losses: [u32; 2],
    /// Which sides' armies ended the game demoralized (17.2, 17.3).
    pub demoralized: [bool; 2],
    /// The arena score of each side: a win 1, a loss 0, a draw ½, except that in the scenarios
    /// of [`TIEBREAK_SCENARIOS`] a draw goes to the side that eliminated more strength.
    pub score: [f64; 2],
}

/// The arena score of a finished game for each side: a win 1, a loss 0, a draw ½; where
/// `tiebreak` holds, a draw is won by the side that eliminated more strength (½ each on equal
/// strength).
pub fn score(outcome: &Outcome, side_losses: [u32; 2], tiebreak: bool) -> [f64; 2] {
    match outcome.winner {
        Some(Side(0)) => [1.0, 0.0],
        Some(_) => [0.0, 1.0],
        None if tiebreak => match side_losses[1].cmp(&side_losses[0]) {
            std::cmp::Ordering::Greater => [1.0, 0.0],
            std::cmp::Ordering::Less => [0.0, 1.0],
            std::cmp::Ordering::Equal => [0.5, 0.5],
        },
        None => [0.5, 0.5],
    }
}

/// Eliminated strength per side of a game.
pub fn side_losses(g: &Game) -> [u32; 2] {
    let mut l = [0u32; 2];
    for (a, x) in g.losses().iter().enumerate() {
        l[g.scenario().armies[a].1 .0 as usize] += x;
    }
    l
}

/// Plays a whole game between two players, rolling the record's seeded dice at every chance
/// event. `players[0]` plays the scenario's first side.
pub fn play_game(scenario: Arc<Scenario>, seed: u64, players: [&mut dyn Player; 2]) -> GameReport {
    let [p0, p1] = players;
    let id = scenario.id.clone();
    let digest = scenario.digest;
    let tiebreak = TIEBREAK_SCENARIOS.contains(&id.as_str());
    let mut s = Session::new(Game::from_arc(scenario), &id, digest, seed);
    // a generous bound: no legal game is anywhere near it
    for _ in 0..1_000_000 {
        match s.game.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                s.roll();
            }
            ToAct::Side(side) => {
                let a = if side.0 == 0 {
                    p0.choose(&s.game)
                } else {
                    p1.choose(&s.game)
                };
                if s.act(a).is_err() {
                    // a player bug: fall back to the first legal action so the arena goes on
                    debug_assert!(false, "a player chose a refused action: {a:?}");
                    let mut v = Vec::new();
                    s.game.legal_actions(&mut v);
                    let _ = s.act(v[0]);
                }
            }
        }
    }
    let outcome = match s.game.to_act() {
        ToAct::Over(o) => o,
        _ => Outcome {
            winner: None,
            case: "4.0",
            why: "the game was cut off".into(),
        },
    };
    let sl = side_losses(&s.game);
    let demoralized = [s.game.demoralized(Side(0)), s.game.demoralized(Side(1))];
    GameReport {
        demoralized,
        score: score(&outcome, sl, tiebreak),
        side_losses: sl,
        outcome,
        actions: s.record.actions.len(),
        turns: s.game.turn(),
        losses: s.game.losses().to_vec(),
        record: s.record,
    }
}
