//! Computer players for the hex-miniatures rules (`hex_miniatures`, Möckern 1813).
//!
//! [`HmHeuristic`] scores each legal action of the side to act by a few plain rules of thumb,
//! with no search: rally what can rally (the rules do it), order every formation of the army
//! that must take the objectives (the side not holding the field) to advance on the nearest
//! objective the enemy holds and the other army's to hold; move formed units toward the
//! nearest objective not theirs (or onto their own objectives to hold them), routed and
//! retiring units away from the enemy; form square when enemy cavalry is within two hexes;
//! attack when the odds ([9.4.1], `Game::preview`) are good; batteries fire on the strongest
//! enemy in reach. Ties go to a seeded draw, so a game is reproducible from its seed.
//!
//! Each action is taken at most once per stage of a player-turn, so that a formation change
//! or a turn never repeats without end.

use engine::{Dice, Rules, ToAct};
use hex_miniatures::army::{Arm, Order};
use hex_miniatures::game::Loc;
use hex_miniatures::setup::Standing;
use hex_miniatures::{Action, Formation, Game, UnitId};
use hexmap::Hex;
use std::collections::HashSet;

/// The heuristic player of the hex-miniatures rules: fast, no search.
pub struct HmHeuristic {
    dice: Dice,
    /// The actions taken in the current stage (turn, stage, side), so none repeats.
    taken: HashSet<Action>,
    key: (u16, u8, u8),
}

impl HmHeuristic {
    /// A heuristic player breaking ties with `seed`.
    pub fn new(seed: u64) -> HmHeuristic {
        HmHeuristic {
            dice: Dice::new(seed),
            taken: HashSet::new(),
            key: (0, 255, 255),
        }
    }

    /// Its choice among the legal actions of the side to act; `None` when no side acts (a
    /// chance event is pending or the battle is over).
    pub fn choose(&mut self, g: &Game) -> Option<Action> {
        let ToAct::Side(side) = g.to_act() else {
            return None;
        };
        let key = (g.turn(), g.stage() as u8, side.0);
        if key != self.key {
            self.key = key;
            self.taken.clear();
        }
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        if legal.is_empty() {
            return None;
        }
        let ctx = Ctx::new(g, side.0);
        let mut best: Vec<Action> = Vec::new();
        let mut best_score = i64::MIN;
        for &a in &legal {
            let s = if self.taken.contains(&a) && a != Action::End {
                i64::MIN + 1
            } else {
                ctx.score(a)
            };
            if s > best_score {
                best_score = s;
                best.clear();
            }
            if s == best_score {
                best.push(a);
            }
        }
        let i = self.dice.draw(&vec![1; best.len()]).unwrap_or(0);
        let a = best.get(i).copied().unwrap_or(legal[0]);
        self.taken.insert(a);
        Some(a)
    }
}

/// What the scoring needs to know about the position, gathered once per decision.
struct Ctx<'a> {
    g: &'a Game,
    side: u8,
    /// Whether this side must take the objectives (it does not hold the field).
    attacker: bool,
    /// Objectives the enemy holds.
    theirs: Vec<Hex>,
    /// Objectives this side holds.
    ours: Vec<Hex>,
    /// Enemy units on the table, with their hexes.
    enemies: Vec<(UnitId, Hex)>,
}

impl<'a> Ctx<'a> {
    fn new(g: &'a Game, side: u8) -> Ctx<'a> {
        let held = g.objective_holders();
        let theirs: Vec<Hex> = held
            .iter()
            .filter(|&&(_, s)| s != side)
            .map(|&(h, _)| h)
            .collect();
        let ours: Vec<Hex> = held
            .iter()
            .filter(|&&(_, s)| s == side)
            .map(|&(h, _)| h)
            .collect();
        // The Prussians (seat 0 at Möckern) attack; otherwise whoever holds less.
        let attacker = ours.len() < theirs.len() || (ours.len() == theirs.len() && side == 0);
        let enemies = (0..g.unit_count())
            .map(|i| UnitId(i as u8))
            .filter(|&u| g.side_of(u) != side)
            .filter_map(|u| g.hex_of(u).map(|h| (u, h)))
            .collect();
        Ctx {
            g,
            side,
            attacker,
            theirs,
            ours,
            enemies,
        }
    }

    fn dist(&self, a: Hex, b: Hex) -> i64 {
        i64::from(self.g.setup().map.distance(a, b))
    }

    fn nearest(&self, from: Hex, set: &[Hex]) -> i64 {
        set.iter().map(|&h| self.dist(from, h)).min().unwrap_or(0)
    }

    fn nearest_enemy(&self, from: Hex) -> i64 {
        self.enemies
            .iter()
            .map(|&(_, h)| self.dist(from, h))
            .min()
            .unwrap_or(99)
    }

    fn enemy_cavalry_within(&self, from: Hex, r: i64) -> bool {
        self.enemies
            .iter()
            .any(|&(u, h)| self.g.kind_of(u).arm() == Arm::Cavalry && self.dist(from, h) <= r)
    }

    /// Where a unit should go: the objectives to take, or those to hold.
    fn goals(&self) -> &[Hex] {
        if self.attacker && !self.theirs.is_empty() {
            &self.theirs
        } else if !self.ours.is_empty() {
            &self.ours
        } else {
            &self.theirs
        }
    }

    fn score(&self, a: Action) -> i64 {
        let g = self.g;
        match a {
            Action::End => 0,
            Action::Draw(_) | Action::Roll(_) => 0,
            Action::Order { order, .. } => match (order, self.attacker) {
                (Standing::Advance(h), true) if self.theirs.contains(&h) => 50,
                (Standing::Advance(h), true) if self.ours.contains(&h) => 5,
                (Standing::Hold, false) => 40,
                (Standing::Free, _) => 10,
                _ => -5,
            },
            Action::Move { unit, to } => {
                let v = g.unit(unit);
                let routed = matches!(v.order, Order::Routed | Order::Retiring);
                let Loc::Map(from) = v.loc else {
                    // entering the table: always worth it
                    return 60;
                };
                if routed {
                    // away from the enemy
                    return (self.nearest_enemy(to) - self.nearest_enemy(from)) * 10;
                }
                let goals = self.goals();
                let gain = self.nearest(from, goals) - self.nearest(to, goals);
                let mut s = gain * 10;
                if self.theirs.contains(&to) {
                    s += 40;
                }
                // a defender standing on an objective stays there
                if !self.attacker && self.ours.contains(&from) {
                    s -= 40;
                }
                if g.kind_of(unit).arm() == Arm::Artillery && self.nearest_enemy(to) <= 1 {
                    s -= 30;
                }
                if s <= 0 {
                    s - 1
                } else {
                    s
                }
            }
            Action::Ride { general, to } => {
                // generals follow their army toward the goals, a hex behind
                let Loc::Map(from) = g.general(general).loc else {
                    return 1;
                };
                let goals = self.goals();
                let d = self.nearest(to, goals);
                if self.nearest_enemy(to) <= 1 {
                    return -10;
                }
                (self.nearest(from, goals) - d).min(2) - 1
            }
            Action::Face { .. } => -2,
            Action::Form { unit, formation } => {
                let Some(h) = g.hex_of(unit) else {
                    return -1;
                };
                let v = g.unit(unit);
                let arm = g.kind_of(unit).arm();
                let near = self.nearest_enemy(h);
                match (arm, formation) {
                    (Arm::Infantry, Formation::Square) => {
                        if self.enemy_cavalry_within(h, 2) {
                            70
                        } else {
                            -20
                        }
                    }
                    (Arm::Infantry, Formation::Line) => {
                        if v.formation == Formation::Square && !self.enemy_cavalry_within(h, 2) {
                            30
                        } else if v.formation == Formation::Column && near <= 2 {
                            15
                        } else {
                            -3
                        }
                    }
                    (Arm::Infantry, Formation::Column) => {
                        if v.formation == Formation::Square && !self.enemy_cavalry_within(h, 2) {
                            20
                        } else if near >= 5 {
                            8
                        } else {
                            -3
                        }
                    }
                    (Arm::Artillery, Formation::Unlimbered) if near <= 6 => 35,
                    (Arm::Artillery, Formation::Limbered) if near > 8 => 10,
                    (Arm::Artillery, Formation::Limbered) => -10,
                    _ => -3,
                }
            }
            Action::Fire { target, .. } => {
                let t = g.unit(target);
                // the strongest target, more so on an objective
                let mut s = 20 + i64::from(t.strength.min(60));
                if let Some(h) = g.hex_of(target) {
                    if self.ours.contains(&h) || self.theirs.contains(&h) {
                        s += 20;
                    }
                }
                s
            }
            Action::Advance { .. } => 30,
            Action::Attack { unit, target } => {
                let attackers = self.attackers_on(target, unit);
                let odds = g
                    .preview(target, &attackers)
                    .or_else(|| g.preview(target, &[unit]));
                let Some(p) = odds else {
                    return -1;
                };
                match (p.kind, p.strengths) {
                    ("capture", _) => 80,
                    (_, Some((att, def))) => {
                        let def = i64::from(def.max(1));
                        let ratio10 = i64::from(att) * 10 / def;
                        let bonus = if self.theirs.contains(&target) { 5 } else { 0 };
                        // 2:1 or better: attack; 3:2 on an objective
                        ratio10 - 20 + bonus + i64::from(p.modifier)
                    }
                    _ => {
                        // a charge on a square: only with good chances
                        let good: u32 = p
                            .chances
                            .iter()
                            .filter(|(r, _)| r.contains('D') || r.contains("rout"))
                            .map(|&(_, c)| c)
                            .sum();
                        i64::from(good / 10) - 40
                    }
                }
            }
        }
    }

    /// This side's formed units next to `target` that could join an attack on it, with `unit`.
    fn attackers_on(&self, target: Hex, unit: UnitId) -> Vec<UnitId> {
        let g = self.g;
        let mut v = vec![unit];
        for n in g.setup().map.neighbours(target) {
            for &u in g.units_at(n) {
                if u != unit
                    && g.side_of(u) == self.side
                    && g.kind_of(u).arm() != Arm::Artillery
                    && matches!(g.unit(u).order, Order::Ordered)
                {
                    v.push(u);
                }
            }
        }
        v
    }
}
