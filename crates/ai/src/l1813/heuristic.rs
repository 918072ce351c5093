//! Leipzig 1813's heuristic player: every legal action of the seat to act scored by what the
//! rules' public queries tell of objectives, supply, forced marches and stacks, the best taken
//! (ties broken by a seeded draw), `end` once nothing scores above nothing.
//!
//! - Set-up and reinforcements: combat units go to the legal hex nearest an objective (a
//!   victory city the side does not hold, else any victory city); supply units and leaders to
//!   the hex with the most friendly combat units around it.
//! - Movement: each combat unit heads for its objective (the nearest victory city the enemy
//!   holds or nobody holds, or one of its own left empty; failing those the nearest enemy); a
//!   lone unit on a city its side holds stays. A move must bring it strictly nearer, so every
//!   phase ends. It never moves into a stack that no supply unit would feed (Stacking (B): an
//!   unsupplied stack is dispersed at the end of the phase), outside a fortress's own supply.
//!   Supply units follow the combat units that no supply unit feeds yet; leaders the strongest
//!   stack. Automatic eliminations (CRT Auto) are always taken.
//! - Forced march (Forced March; Supply (C) III): declared only by a unit far from its
//!   objective when the march's chance of destruction or dispersal, read from the crate's
//!   tables (`ForcedMarchTables::chances`, stopping on every letter), is at most
//!   [`MAX_MARCH_LOSS`] 36ths: in practice only marches a supply unit supports. On a letter
//!   it stops the march.
//! - Combat: attacks only from a hex a supply unit feeds, at an estimated ratio of at least
//!   [`MIN_ODDS`] (the defender tripled in a fortress, each side halved without supply), with
//!   as many supply units allocated as it has combats; the defender allocates supply the same
//!   way and never retreats before combat; an advance is taken only into a victory city.

use engine::{Dice, Rules, ToAct};
use hexmap::Hex;
use leipzig_1813::forced_march::{March, OnLetter};
use leipzig_1813::game::{supply_use, MarchState, Status};
use leipzig_1813::units::Arm;
use leipzig_1813::{Action, Game};
use std::collections::HashMap;

/// The attack-to-defence ratio (after supply and fortresses) the heuristic attacks at.
pub const MIN_ODDS: f64 = 2.0;
/// The most 36ths of destruction plus dispersal a forced march may risk.
pub const MAX_MARCH_LOSS: u32 = 2;

/// What a decision reads once: the seat, the objectives and the supply on the map.
struct View<'a> {
    g: &'a Game,
    me: u8,
    /// Victory cities: hex and holder.
    cities: Vec<(Hex, Option<u8>)>,
    /// Hexes of friendly supply units or depots that are not dispersed.
    supply: Vec<Hex>,
    /// Hexes of enemy supply units or depots that are not dispersed.
    enemy_supply: Vec<Hex>,
    /// Hexes of enemy combat units.
    enemies: Vec<Hex>,
    /// Hexes of friendly combat units.
    friends: Vec<Hex>,
    /// Divisions of friendly combat units by hex.
    worth: HashMap<Hex, u32>,
    /// Each unit's goal for this decision (friendly units on the map; computed once).
    goals: Vec<Option<Hex>>,
}

impl<'a> View<'a> {
    fn new(g: &'a Game, me: u8) -> View<'a> {
        let holders = g.city_holders();
        let cities = g
            .board()
            .cities
            .iter()
            .zip(holders)
            .filter_map(|(h, o)| h.map(|h| (h, o)))
            .collect();
        let mut v = View {
            g,
            me,
            cities,
            supply: Vec::new(),
            enemy_supply: Vec::new(),
            enemies: Vec::new(),
            friends: Vec::new(),
            goals: Vec::new(),
            worth: HashMap::new(),
        };
        for u in g.units().iter().filter(|u| u.on_map()) {
            let arm = g.arm(u);
            let mine = u.side == me;
            if matches!(arm, Arm::Supply | Arm::Depot) && !g.is_dispersed(u) {
                if mine {
                    v.supply.push(u.hex);
                } else {
                    v.enemy_supply.push(u.hex);
                }
            } else if arm.is_combat() {
                if mine {
                    v.friends.push(u.hex);
                    *v.worth.entry(u.hex).or_default() += g.kind(u).worth;
                } else {
                    v.enemies.push(u.hex);
                }
            }
        }
        let leader = v.leader_target();
        v.goals = (0..g.units().len())
            .map(|i| {
                let u = &g.units()[i];
                if u.side != me || !u.on_map() {
                    return None;
                }
                match g.arm(u) {
                    Arm::Infantry | Arm::Cavalry => v.objective(i, u.hex),
                    Arm::Supply | Arm::Depot => v.supply_target(u.hex),
                    Arm::Leader => leader,
                }
            })
            .collect();
        v
    }

    fn dist(&self, a: Hex, b: Hex) -> u32 {
        self.g.board().distance(a, b)
    }

    /// A friendly supply unit stands on or next to `h` (Supply (B)).
    fn fed(&self, h: Hex) -> bool {
        self.supply.iter().any(|&s| self.dist(s, h) <= 1)
    }

    fn enemy_fed(&self, h: Hex) -> bool {
        self.enemy_supply.iter().any(|&s| self.dist(s, h) <= 1)
    }

    /// Friendly combat units at `h`, leaving out unit `but`.
    fn friends_at(&self, h: Hex, but: usize) -> Vec<usize> {
        self.g
            .units_at(h)
            .into_iter()
            .filter(|&i| {
                let u = &self.g.units()[i];
                i != but && u.side == self.me && self.g.arm(u).is_combat()
            })
            .collect()
    }

    /// Printed strength of one side's combat units at `h`.
    fn strength_at(&self, h: Hex, side: u8) -> u32 {
        self.g
            .units_at(h)
            .into_iter()
            .map(|i| &self.g.units()[i])
            .filter(|u| u.side == side && self.g.arm(u).is_combat())
            .map(|u| self.g.kind(u).strength)
            .sum()
    }

    /// Where a friendly combat unit at `from` should go (None: nowhere).
    fn objective(&self, u: usize, from: Hex) -> Option<Hex> {
        // a lone unit holding a city of its side stays
        if self
            .cities
            .iter()
            .any(|&(h, o)| h == from && o == Some(self.me))
            && self.friends_at(from, u).is_empty()
        {
            return Some(from);
        }
        let wanted = self.cities.iter().filter(|&&(h, o)| {
            o != Some(self.me) || (self.friends_at(h, u).is_empty() && h != from)
        });
        wanted
            .map(|&(h, _)| h)
            .chain(self.enemies.iter().copied())
            .min_by_key(|&h| (self.dist(from, h), h.x, h.y))
    }

    /// Where a supply unit should go: the nearest friendly combat unit no supply feeds.
    fn supply_target(&self, from: Hex) -> Option<Hex> {
        self.friends
            .iter()
            .copied()
            .filter(|&h| {
                !self
                    .supply
                    .iter()
                    .any(|&s| s != from && self.dist(s, h) <= 1)
            })
            .min_by_key(|&h| (self.dist(from, h), h.x, h.y))
    }

    /// Where a leader should go: the strongest friendly hex.
    fn leader_target(&self) -> Option<Hex> {
        self.friends
            .iter()
            .copied()
            .max_by_key(|&h| (self.strength_at(h, self.me), std::cmp::Reverse((h.x, h.y))))
    }

    /// The score of placing unit `u` at `h` (higher is better).
    fn place(&self, u: usize, h: Hex) -> i64 {
        let unit = &self.g.units()[u];
        let goals: Vec<Hex> = {
            let open: Vec<Hex> = self
                .cities
                .iter()
                .filter(|&&(_, o)| o != Some(self.me))
                .map(|&(h, _)| h)
                .collect();
            if open.is_empty() {
                self.cities.iter().map(|&(h, _)| h).collect()
            } else {
                open
            }
        };
        let near = goals.iter().map(|&c| self.dist(h, c)).min().unwrap_or(0) as i64;
        if self.g.arm(unit).is_combat() {
            // spread out: a second combat unit in a hex needs supply (Stacking (B))
            let crowd = if self.friends.contains(&h) { 5 } else { 0 };
            1_000 - near - crowd
        } else {
            let around = self
                .friends
                .iter()
                .filter(|&&f| self.dist(f, h) <= 1)
                .count() as i64;
            1_000 + 3 * around - near
        }
    }

    /// The score of moving unit `u` to `to`.
    fn move_to(&self, u: usize, to: Hex) -> i64 {
        let unit = &self.g.units()[u];
        let from = unit.hex;
        match self.g.arm(unit) {
            Arm::Infantry | Arm::Cavalry => {
                let Some(goal) = self.goals[u] else {
                    return -1;
                };
                let (d0, d1) = (self.dist(from, goal), self.dist(to, goal));
                if d1 >= d0 {
                    return -1;
                }
                // Stacking (B): no stack without a supply unit to feed it
                let others = self.worth.get(&to).copied().unwrap_or(0)
                    - if to == from {
                        self.g.kind(unit).worth
                    } else {
                        0
                    };
                if others > 0 {
                    let info = self.g.board().hex(to);
                    let fortress_fed = info.fortress
                        && others + self.g.kind(unit).worth <= u32::from(info.supplied_divisions);
                    if !fortress_fed && !self.fed(to) {
                        return -1;
                    }
                }
                let capture = self
                    .cities
                    .iter()
                    .any(|&(h, o)| h == to && o != Some(self.me));
                10 * i64::from(d0 - d1) + if capture { 50 } else { 0 }
            }
            Arm::Supply | Arm::Depot => {
                let Some(goal) = self.goals[u] else {
                    return -1;
                };
                let (d0, d1) = (self.dist(from, goal), self.dist(to, goal));
                if d0 <= 1 || d1 >= d0 {
                    return -1;
                }
                5 * i64::from(d0 - d1)
            }
            Arm::Leader => {
                let Some(goal) = self.goals[u] else {
                    return -1;
                };
                let (d0, d1) = (self.dist(from, goal), self.dist(to, goal));
                if d1 >= d0 {
                    return -1;
                }
                5 * i64::from(d0 - d1)
            }
        }
    }

    /// The score of declaring a forced march: only far from its objective and at a small
    /// expected loss (Forced March; Supply (C) III).
    fn march(&self, u: usize, triple: bool) -> i64 {
        let unit = &self.g.units()[u];
        if !self.g.arm(unit).is_combat() || unit.moved {
            return -1;
        }
        let kind = if triple { March::Triple } else { March::Double };
        let supported = self.fed(unit.hex);
        let ch = self
            .g
            .tables()
            .forced_march
            .chances(kind, supported, OnLetter::Halt);
        if ch.destroyed + ch.dispersed > MAX_MARCH_LOSS {
            return -1;
        }
        let Some(goal) = self.goals[u] else {
            return -1;
        };
        if self.dist(unit.hex, goal) <= self.g.allowance(unit) {
            return -1;
        }
        if triple {
            4
        } else {
            3
        }
    }

    /// The estimated ratio of an attack from `from` on `to` (after supply and fortresses).
    fn odds(&self, from: Hex, to: Hex) -> f64 {
        let mut a = f64::from(self.strength_at(from, self.me));
        let mut d = f64::from(self.strength_at(to, 1 - self.me)).max(1.0);
        if !self.fed(from) {
            a /= 2.0;
        }
        if !self.enemy_fed(to) && !self.g.board().hex(to).fortress {
            d /= 2.0;
        }
        if self.g.board().hex(to).fortress {
            d *= 3.0;
        }
        a / d
    }

    /// Supply units this side has allocated to combat this player-turn, and its combats.
    fn allocation(&self) -> (usize, usize) {
        let g = self.g;
        let allocated = g
            .units()
            .iter()
            .filter(|u| {
                u.side == self.me
                    && u.status == Status::OnMap
                    && u.supply_use & supply_use::ALLOCATED != 0
            })
            .count();
        let combats = g
            .combats()
            .iter()
            .filter(|c| {
                let side_at = |h: Hex| g.units_at(h).first().map(|&i| g.units()[i].side);
                if g.player() == self.me {
                    side_at(c.from) == Some(self.me)
                } else {
                    c.targets.iter().any(|&t| side_at(t) == Some(self.me))
                }
            })
            .count();
        (allocated, combats)
    }

    /// The score of an action (above 0: worth doing; `end` is 0).
    fn score(&self, a: Action) -> i64 {
        match a {
            Action::End => 0,
            Action::Place { unit, hex } => self.place(usize::from(unit), hex),
            Action::Overrun { .. } => 600,
            Action::Move { unit, to } => self.move_to(usize::from(unit), to),
            Action::March { unit, triple } => self.march(usize::from(unit), triple),
            Action::Press { unit } => match self.g.units()[usize::from(unit)].march {
                MarchState::Letter(..) => 1,
                _ => 2,
            },
            Action::Halt { .. } => 2,
            Action::Attack { from, to } => {
                let r = self.odds(from, to);
                if self.fed(from) && r >= MIN_ODDS {
                    200 + (r * 10.0) as i64
                } else {
                    -1
                }
            }
            Action::Supply { .. } => {
                let (allocated, combats) = self.allocation();
                if allocated < combats {
                    100
                } else {
                    -1
                }
            }
            Action::Advance { to, .. } => {
                if self.cities.iter().any(|&(h, _)| h == to) {
                    50
                } else {
                    -1
                }
            }
            Action::Retreat { .. }
            | Action::Split { .. }
            | Action::Combine { .. }
            | Action::Armistice
            | Action::Exit { .. }
            | Action::Disband { .. }
            | Action::Roll(_) => -1,
        }
    }
}

/// The legal actions of the seat to act, scored by the heuristic, best first (the rules'
/// order among equals). Empty at a chance event or the end.
pub fn scored(g: &Game) -> Vec<(i64, Action)> {
    let ToAct::Side(me) = g.to_act() else {
        return Vec::new();
    };
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let view = View::new(g, me.0);
    let mut out: Vec<(i64, Action)> = legal.into_iter().map(|a| (view.score(a), a)).collect();
    out.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    out
}

/// The heuristic's choice among scored actions: the best above 0 (a seeded draw among equals),
/// else `end` where legal, else the best there is.
pub fn pick(scored: &[(i64, Action)], dice: &mut Dice) -> Action {
    let Some(&(best, first)) = scored.first() else {
        return Action::End;
    };
    if best <= 0 && scored.iter().any(|&(_, a)| a == Action::End) {
        return Action::End;
    }
    let ties = scored.iter().take_while(|&&(s, _)| s == best).count();
    let i = dice.draw(&vec![1; ties]).unwrap_or(0);
    scored.get(i).map_or(first, |&(_, a)| a)
}

/// Leipzig 1813's heuristic player (see the module's text), seeded for its tie-breaks.
pub struct L1813Heuristic(Dice);

impl L1813Heuristic {
    /// A heuristic player whose tie-breaks follow `seed`.
    pub fn new(seed: u64) -> L1813Heuristic {
        L1813Heuristic(Dice::new(seed))
    }

    /// Its name for reports.
    pub fn name(&self) -> String {
        "heuristic".into()
    }

    /// Chooses an action of the seat to act in `g` (`end` when none is to act).
    pub fn choose(&mut self, g: &Game) -> Action {
        pick(&scored(g), &mut self.0)
    }
}
