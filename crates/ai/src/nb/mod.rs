//! Computer players for the Napoleonic Battles activation system (`napoleonic_battles`):
//! a heuristic that plays whole activations by a few simple principles, and a Monte Carlo
//! search over its plans through the generic [`crate::montecarlo`] machinery
//! ([`NbKnowledge`] is the system's plug-in).
//!
//! The players ask the rules crate for every rule they need: legality by
//! [`engine::Rules::check`], the melee odds with their shifts by
//! [`Game::melee_odds`](napoleonic_battles::Game::melee_odds) (`melee::assess`), the expected
//! losses of a column by the table ([`napoleonic_battles::melee::MeleeTable::expected_losses`]),
//! zones of control by [`Game::enemy_front`](napoleonic_battles::Game::enemy_front), an
//! officer's activation by [`Game::officer_units`](napoleonic_battles::Game::officer_units).
//! They never copy a rule; what they know of their own is geometry (distances, which
//! hexsides face an enemy) and judgement (what is worth doing).
//!
//! Levels ([`player`]): `random`, `heuristic`, `search` (`search@1000n`, `search@1.5s`: a
//! budget per player-turn, one side's impulse), `search2` (the same with the opponent's
//! replies searched).

mod heuristic;
mod paths;
mod search;

pub use heuristic::{NbHeuristic, Style};
pub use search::{NbKnowledge, NbSearch};

use crate::Budget;
use engine::{Dice, Rules, ToAct};
use napoleonic_battles::{Action, Game};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The levels offered for the system, weakest first.
pub const LEVELS: &[&str] = &["random", "heuristic", "search", "search2"];

/// A computer player of the Napoleonic Battles system.
pub enum NbPlayer {
    /// Uniformly random legal actions.
    Random(Box<Dice>),
    /// The heuristic.
    Heuristic(Box<NbHeuristic>),
    /// The search over the heuristic's plans.
    Search(Box<NbSearch>),
}

impl NbPlayer {
    /// Chooses one legal action of the seat to act (`Action::Pass` when none: callers ask
    /// only when a seat is to act).
    pub fn choose(&mut self, g: &Game) -> Action {
        match self {
            NbPlayer::Random(d) => {
                let mut legal = Vec::new();
                if matches!(g.to_act(), ToAct::Side(_)) {
                    g.legal_actions(&mut legal);
                }
                let i = d.draw(&vec![1; legal.len()]).unwrap_or(0);
                legal.get(i).copied().unwrap_or(Action::Pass)
            }
            NbPlayer::Heuristic(h) => h.choose(g),
            NbPlayer::Search(s) => s.choose(g),
        }
    }

    /// The player's name (its spec).
    pub fn name(&self) -> String {
        match self {
            NbPlayer::Random(_) => "random".into(),
            NbPlayer::Heuristic(_) => "heuristic".into(),
            NbPlayer::Search(s) => s.name(),
        }
    }

    /// A plain sentence explaining the last choice when it began a plan (an activation, a
    /// movement, a melee with the column the rules compute), else `None`.
    pub fn explain(&self) -> Option<String> {
        match self {
            NbPlayer::Random(_) => None,
            NbPlayer::Heuristic(h) => h.explain(),
            NbPlayer::Search(s) => s.explain(),
        }
    }

    /// Stops a search as soon as `flag` is set (the others return at once anyway).
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        if let NbPlayer::Search(s) = self {
            s.stop_on(flag);
        }
    }
}

/// The player for a spec: `random`, `heuristic`, `search` (1.5 s a player-turn, that is one
/// side's impulse from its choice of an activation to its last melee), `search@1.5s`,
/// `search@500ms` or `search@1000n` (simulations a player-turn: the same seed gives the same
/// game), and `search2` with the same budgets (the opponent's replies searched).
pub fn player(spec: &str, seed: u64) -> Result<NbPlayer, String> {
    let spec = spec.trim();
    let (kind, budget) = match spec.split_once('@') {
        Some((k, b)) => (k, Some(b)),
        None => (spec, None),
    };
    match (kind.to_ascii_lowercase().as_str(), budget) {
        ("random", None) => Ok(NbPlayer::Random(Box::new(Dice::new(seed)))),
        ("heuristic", None) => Ok(NbPlayer::Heuristic(Box::new(NbHeuristic::new(
            Style::Steady,
        )))),
        ("search", b) => {
            let budget = b.map_or(Ok(Budget::default()), Budget::parse)?;
            Ok(NbPlayer::Search(Box::new(NbSearch::new(seed, budget))))
        }
        ("search2", b) => {
            let budget = b.map_or(Ok(Budget::default()), Budget::parse)?;
            Ok(NbPlayer::Search(Box::new(
                NbSearch::new(seed, budget).with_replies(),
            )))
        }
        _ => Err(format!(
            "no computer player '{spec}' for Napoleonic Battles (available: random, heuristic, \
             search, search@1.5s, search@1000n, search2, search2@1.5s, search2@1000n)"
        )),
    }
}
