//! The random player: a baseline opponent and a fuzzer.

use crate::Player;
use engine::{Dice, Rules};
use naw::{Action, Game};

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
            // the units that may still move, in unit order (may_move includes the side); kept
            // without a branch per unit
            let n = game.scenario().units.len();
            self.units.clear();
            self.units.resize(n, naw::UnitId(0));
            let mut k = 0;
            for u in game.unit_ids() {
                self.units[k] = u;
                k += game.may_move(u) as usize;
            }
            self.units.truncate(k);
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
