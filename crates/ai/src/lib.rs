//! Computer players over the engine's game interface, and [`play_game`], the arena loop used
//! by `grognard sim`, the web server and the tests.
//!
//! A player sees only what [`engine::Rules`] and the public `naw::Game` queries offer: it never
//! reaches into a rules crate's internals.

use engine::{Dice, Outcome, Record, Rules, Session, ToAct};
use naw::{Action, Game, Scenario};
use std::sync::Arc;

/// A computer player.
pub trait Player: Send {
    /// Chooses one of the legal actions of the side to act. Called only when a side is to act.
    fn choose(&mut self, game: &Game) -> Action;
    /// A name for reports (`random`).
    fn name(&self) -> String;
    /// A sentence explaining the last choice, for the log.
    fn explain(&self) -> Option<String> {
        None
    }
}

/// Random legal actions: a baseline opponent and a fuzzer. Outside the movement phase it
/// picks uniformly among the legal actions. In the movement phase it picks uniformly among the
/// units that can still move and `end`, then uniformly among that unit's destinations: the
/// same support as the legal actions, without computing every unit's destinations each step.
#[derive(Debug)]
pub struct RandomPlayer {
    rng: Dice,
    buf: Vec<Action>,
    dests: Vec<naw::Destination>,
    units: Vec<naw::UnitId>,
}

impl RandomPlayer {
    /// A random player with its own seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Dice::new(seed),
            buf: Vec::new(),
            dests: Vec::new(),
            units: Vec::new(),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, game: &Game) -> Action {
        if game.step() == naw::Step::Movement {
            let side = game.phasing();
            self.units.clear();
            self.units.extend(
                game.unit_ids()
                    .filter(|&u| game.side_of(u) == side && game.may_move(u)),
            );
            while !self.units.is_empty() {
                let k = (self.rng.next_u64() % (self.units.len() as u64 + 1)) as usize;
                if k == self.units.len() {
                    return Action::End;
                }
                game.destinations(self.units[k], &mut self.dests);
                if self.dests.is_empty() {
                    self.units.swap_remove(k);
                    continue;
                }
                let d = self.dests[(self.rng.next_u64() % self.dests.len() as u64) as usize];
                return Action::Move {
                    unit: self.units[k],
                    to: d.hex,
                };
            }
            return Action::End;
        }
        self.buf.clear();
        game.legal_actions(&mut self.buf);
        if self.buf.is_empty() {
            return Action::End;
        }
        let i = (self.rng.next_u64() % self.buf.len() as u64) as usize;
        self.buf[i]
    }

    fn name(&self) -> String {
        "random".into()
    }
}

/// The player for a spec such as `random`.
pub fn player(spec: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    let (kind, _budget) = spec.split_once('@').unwrap_or((spec, ""));
    match kind {
        "random" => Ok(Box::new(RandomPlayer::new(seed))),
        other => Err(format!("unknown player '{other}' (available: random)")),
    }
}

/// The names of the available players.
pub const PLAYERS: &[&str] = &["random"];

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
}

/// Plays a whole game between two players, rolling the record's seeded dice at every chance
/// event. `players[0]` plays the scenario's first side.
pub fn play_game(scenario: Arc<Scenario>, seed: u64, players: [&mut dyn Player; 2]) -> GameReport {
    let [p0, p1] = players;
    let id = scenario.id.clone();
    let digest = scenario.digest;
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
    GameReport {
        outcome,
        actions: s.record.actions.len(),
        turns: s.game.turn(),
        losses: s.game.losses().to_vec(),
        record: s.record,
    }
}
