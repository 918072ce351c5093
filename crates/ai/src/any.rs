//! The generic part of the computer players: what works over any rules system through
//! [`engine::dynamic::DynGame`], naming no rules crate. A system's own planners and
//! evaluations are plug-ins behind [`engine::dynamic::System::player`].

use engine::dynamic::{DynGame, DynPlayer};
use engine::{Dice, Outcome, Record, ToAct};

/// Uniformly random legal actions of any rules system: a baseline and a fuzzer.
#[derive(Debug)]
pub struct AnyRandom {
    rng: Dice,
}

impl AnyRandom {
    /// A random player with its own seed.
    pub fn new(seed: u64) -> AnyRandom {
        AnyRandom {
            rng: Dice::new(seed),
        }
    }
}

impl DynPlayer for AnyRandom {
    fn choose(&mut self, game: &dyn DynGame) -> String {
        let legal = game.legal();
        if legal.is_empty() {
            return String::new();
        }
        let weights = vec![1; legal.len()];
        let i = self.rng.draw(&weights).unwrap_or(0);
        legal[i].text.clone()
    }

    fn name(&self) -> String {
        "random".into()
    }
}

/// How a game between computer players of any system ended.
#[derive(Clone, Debug)]
pub struct AnyReport {
    /// How it ended (`None` when cut off at the action bound).
    pub outcome: Option<Outcome>,
    /// The whole record.
    pub record: Record,
    /// Actions a player chose that the rules refused (a player's bug; the arena then took
    /// the first legal action).
    pub refused: usize,
}

/// Plays a game of any rules system to its end: `players[i]` plays seat `i`, chance events
/// draw from the record's dice. Stops after `max_actions` actions.
pub fn play_any(
    game: &mut dyn DynGame,
    players: &mut [Box<dyn DynPlayer>],
    max_actions: usize,
) -> AnyReport {
    let mut refused = 0;
    for _ in 0..max_actions {
        match game.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                if game.roll().is_none() {
                    break;
                }
            }
            ToAct::Side(s) => {
                let Some(p) = players.get_mut(s.0 as usize) else {
                    break;
                };
                let text = p.choose(game);
                if game.act(&text).is_err() {
                    refused += 1;
                    let Some(first) = game.legal().into_iter().next() else {
                        break;
                    };
                    if game.act(&first.text).is_err() {
                        break;
                    }
                }
            }
        }
    }
    AnyReport {
        outcome: match game.to_act() {
            ToAct::Over(o) => Some(o),
            _ => None,
        },
        record: game.record().clone(),
        refused,
    }
}
