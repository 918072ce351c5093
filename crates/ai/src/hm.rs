//! Computer players for the hex-miniatures rules (`hex_miniatures`, Möckern 1813).
//!
//! [`HmHeuristic`] scores each legal action of the side to act by plain rules of thumb, with
//! no search; [`HmSearch`] is the generic search ([`crate::montecarlo`]) over
//! [`HmKnowledge`], whose candidates are whole stages as the heuristic plays them in three
//! styles.
//!
//! The heuristic, in short: rally what can rally (the rules do it); order every formation of
//! the army that must take the objectives (the side not holding the field) to advance on the
//! nearest objective the enemy holds, the other army's to hold; the attacker gathers its army
//! out of the enemy's gun range before it closes, brings its batteries up to a short range
//! first and lets them fire, moves in column out of range and in line within it; a unit moves
//! into contact (and so must attack, [9.4.2.2]) only in order and only where the attack it
//! joins, with the friends already there or able to join, reads a good column of the odds
//! table ([9.4.1], `Game::preview`): combined arms and flank attacks count through the
//! preview's shifts. Routed and retiring units move away from the enemy; infantry forms square
//! when enemy cavalry is within two hexes; batteries fire on ordered units about to be
//! attacked, at the shortest range. Ties go to a seeded draw, so a game is reproducible from
//! its seed.
//!
//! Each action is taken at most once per stage of a player-turn, so that a formation change
//! or a turn never repeats without end.

use crate::montecarlo::{mix, search, Knowledge, Limits, Rollout};
use engine::{Dice, Rules, Side, ToAct};
use hex_miniatures::army::{Arm, Order};
use hex_miniatures::artillery::Battery;
use hex_miniatures::game::Loc;
use hex_miniatures::setup::Standing;
use hex_miniatures::{Action, Formation, Game, Preview, Stage, UnitId};
use hexmap::Hex;
use std::collections::HashSet;
use std::sync::Arc;

/// How boldly the heuristic closes with the enemy: the numbers its rules of thumb use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Its name (`steady`, `bold`, `cautious`).
    pub name: &'static str,
    /// The least column (in tenths: 20 is 2:1) at which a unit moves into contact.
    pub contact: i64,
    /// The turn from which the attacker closes whether gathered or not (12 is 13:50 at
    /// Möckern, when the history has both sides in position).
    pub close_turn: u16,
    /// The share (percent) of the attacker's foot and horse on the table that must stand
    /// within two hexes of the enemy's gun range before it closes.
    pub gather: u32,
}

impl Style {
    /// The default: contact at 2:1 or better, closing once 60% are gathered or at 13:50.
    pub const STEADY: Style = Style {
        name: "steady",
        contact: 20,
        close_turn: 12,
        gather: 60,
    };
    /// Closing at once, contact at 1:1 or better.
    pub const BOLD: Style = Style {
        name: "bold",
        contact: 10,
        close_turn: 1,
        gather: 0,
    };
    /// No new contact below 3:1 and no closing before every unit is gathered or 14:50.
    pub const CAUTIOUS: Style = Style {
        name: "cautious",
        contact: 30,
        close_turn: 18,
        gather: 90,
    };
}

/// The heuristic player of the hex-miniatures rules: fast, no search.
pub struct HmHeuristic {
    dice: Dice,
    style: Style,
    /// The actions taken in the current stage (turn, stage, side), so none repeats.
    taken: HashSet<Action>,
    key: (u16, u8, u8),
    /// The sentence of the plan the last choice began, if it began one.
    said: Option<String>,
}

impl HmHeuristic {
    /// A heuristic player in the steady style breaking ties with `seed`.
    pub fn new(seed: u64) -> HmHeuristic {
        HmHeuristic::with_style(seed, Style::STEADY)
    }

    /// A heuristic player in a style.
    pub fn with_style(seed: u64, style: Style) -> HmHeuristic {
        HmHeuristic {
            dice: Dice::new(seed),
            style,
            taken: HashSet::new(),
            key: (0, 255, 255),
            said: None,
        }
    }

    /// Its style.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The sentence explaining the plan the last choice began (the first order, move, fire
    /// or attack of a stage), `None` for the choices that carry a plan out.
    pub fn explain(&self) -> Option<String> {
        self.said.clone()
    }

    /// Every legal action of the side to act with its score, best first (actions already
    /// taken in this stage last); empty when no side acts.
    pub fn scored(&mut self, g: &Game) -> Vec<(i64, Action)> {
        let ToAct::Side(side) = g.to_act() else {
            return Vec::new();
        };
        let key = (g.turn(), g.stage() as u8, side.0);
        if key != self.key {
            self.key = key;
            self.taken.clear();
        }
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let ctx = Ctx::new(g, side.0, self.style);
        let mut v: Vec<(i64, Action)> = legal
            .into_iter()
            .map(|a| {
                let s = if self.taken.contains(&a) && a != Action::End {
                    i64::MIN + 1
                } else {
                    ctx.score(a)
                };
                (s, a)
            })
            .collect();
        v.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        v
    }

    /// Its choice among the legal actions of the side to act; `None` when no side acts (a
    /// chance event is pending or the battle is over).
    pub fn choose(&mut self, g: &Game) -> Option<Action> {
        let ToAct::Side(side) = g.to_act() else {
            return None;
        };
        let fresh = self.is_fresh(g);
        let v = self.scored(g);
        let top = v.first()?.0;
        let best: Vec<Action> = v.iter().take_while(|p| p.0 == top).map(|p| p.1).collect();
        let i = self.dice.draw(&vec![1; best.len()]).unwrap_or(0);
        let a = best.get(i).copied().unwrap_or(v[0].1);
        self.taken.insert(a);
        self.said = if fresh || matches!(a, Action::Attack { .. }) {
            Ctx::new(g, side.0, self.style).sentence(a)
        } else {
            None
        };
        Some(a)
    }
}

/// The column a preview reads, in tenths (2:1 is 20, 1:2 is 5); a capture counts as 10:1,
/// a charge on a square by its chance to break it (50% or more: 3:1, else 1:2).
pub fn column10(p: &Preview) -> i64 {
    match p.kind {
        "capture" => 100,
        "charge" => {
            let broken: u32 = p
                .chances
                .iter()
                .filter(|(r, _)| r == "broken")
                .map(|&(_, c)| c)
                .sum();
            if broken >= 500 {
                30
            } else {
                5
            }
        }
        _ => {
            let Some(c) = p.column.as_deref() else {
                return 0;
            };
            let mut it = c.split(':').map(|x| x.trim().parse::<i64>().unwrap_or(1));
            let (a, b) = (it.next().unwrap_or(1), it.next().unwrap_or(1).max(1));
            a * 10 / b
        }
    }
}

/// A column in tenths as the table writes it (`2:1`, `1:2`).
fn column_text(c10: i64) -> String {
    if c10 >= 10 {
        format!("{}:1", c10 / 10)
    } else {
        format!("1:{}", (10 / c10.max(1)).max(1))
    }
}

/// What the scoring needs to know about the position, gathered once per decision.
struct Ctx<'a> {
    g: &'a Game,
    side: u8,
    style: Style,
    /// Whether this side must take the objectives (it does not hold the field).
    attacker: bool,
    /// Objectives the enemy holds.
    theirs: Vec<Hex>,
    /// Objectives this side holds.
    ours: Vec<Hex>,
    /// Enemy units on the table, with their hexes.
    enemies: Vec<(UnitId, Hex)>,
    /// The enemy's gun range: the longest range of a foot battery ([21]).
    range: i64,
    /// This side's foot and horse on the table, and those gathered (within two hexes of the
    /// enemy's gun range or nearer).
    gathered: (u32, u32),
    /// The attacker closes now: gathered enough, or late enough.
    closing: bool,
}

impl<'a> Ctx<'a> {
    fn new(g: &'a Game, side: u8, style: Style) -> Ctx<'a> {
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
        let enemies: Vec<(UnitId, Hex)> = (0..g.unit_count())
            .map(|i| UnitId(i as u8))
            .filter(|&u| g.side_of(u) != side)
            .filter_map(|u| g.hex_of(u).map(|h| (u, h)))
            .collect();
        let range = g
            .tables()
            .artillery
            .rows(Battery::Foot)
            .iter()
            .map(|&(r, _)| i64::from(r))
            .max()
            .unwrap_or(6);
        let mut c = Ctx {
            g,
            side,
            style,
            attacker,
            theirs,
            ours,
            enemies,
            range,
            gathered: (0, 0),
            closing: true,
        };
        let (mut all, mut near) = (0, 0);
        for u in (0..g.unit_count()).map(|i| UnitId(i as u8)) {
            if g.side_of(u) != side || g.kind_of(u).arm() == Arm::Artillery {
                continue;
            }
            if let Some(h) = g.hex_of(u) {
                all += 1;
                if c.nearest_enemy(h) <= c.range + 2 {
                    near += 1;
                }
            }
        }
        c.gathered = (near, all);
        c.closing =
            !attacker || g.turn() >= style.close_turn || near * 100 >= style.gather * all.max(1);
        c
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

    /// The enemy-held hexes next to `h`.
    fn enemy_hexes_next_to(&self, h: Hex) -> Vec<Hex> {
        let mut v: Vec<Hex> = self
            .enemies
            .iter()
            .filter(|&&(_, e)| self.dist(h, e) == 1)
            .map(|&(_, e)| e)
            .collect();
        v.sort();
        v.dedup();
        v
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

    /// This side's foot and horse in order that could attack `target` with `unit`: those next
    /// to it, and those two hexes away that have not moved this player-turn (they can join).
    fn joiners(&self, target: Hex, unit: UnitId, with_reach: bool) -> Vec<UnitId> {
        let g = self.g;
        let mut v = vec![unit];
        for u in (0..g.unit_count()).map(|i| UnitId(i as u8)) {
            if u == unit || g.side_of(u) != self.side || g.kind_of(u).arm() == Arm::Artillery {
                continue;
            }
            let view = g.unit(u);
            if !matches!(view.order, Order::Ordered) {
                continue;
            }
            let Some(h) = g.hex_of(u) else { continue };
            let d = self.dist(h, target);
            if d == 1 || (with_reach && d == 2 && !view.moved) {
                v.push(u);
            }
        }
        v
    }

    /// The column (tenths) `unit` would attack at from `to`, with the friends that can join,
    /// and the hex: the worst over the hexes next to `to` holding an enemy in order or
    /// disorder, since each of them must then be attacked ([9.4.2.1]; HM33); `None` when `to`
    /// touches no enemy, 10:1 when it touches only routed ones.
    fn contact(&self, unit: UnitId, to: Hex) -> Option<(i64, Hex)> {
        let hexes = self.enemy_hexes_next_to(to);
        let first = *hexes.first()?;
        let live: Vec<Hex> = hexes
            .into_iter()
            .filter(|&e| {
                self.g.units_at(e).iter().any(|&u| {
                    self.g.side_of(u) != self.side && self.g.unit(u).order != Order::Routed
                })
            })
            .collect();
        if live.is_empty() {
            return Some((100, first));
        }
        live.into_iter()
            .map(|e| {
                let att = self.joiners(e, unit, true);
                let c = self.g.preview(e, &att).map_or(0, |p| column10(&p));
                (c, e)
            })
            .min()
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
            Action::Move { unit, to } => self.score_move(unit, to),
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
            Action::Form { unit, formation } => self.score_form(unit, formation),
            Action::Fire { battery, target } => {
                let t = g.unit(target);
                let (Some(b), Some(h)) = (g.hex_of(battery), g.hex_of(target)) else {
                    return 0;
                };
                // the shortest range, an ordered unit (fire disorders it before the assault),
                // one next to our troops or on an objective, the strongest
                let mut s = 20 + i64::from(t.strength.min(40)) - 8 * self.dist(b, h);
                if matches!(t.order, Order::Ordered) {
                    s += 15;
                }
                if !self.enemy_hexes_next_to_ours(h) {
                    s -= 5;
                }
                if self.ours.contains(&h) || self.theirs.contains(&h) {
                    s += 20;
                }
                s
            }
            Action::Advance { .. } => 30,
            Action::Attack { unit, target } => {
                let attackers = self.joiners(target, unit, false);
                let odds = g
                    .preview(target, &attackers)
                    .or_else(|| g.preview(target, &[unit]));
                let Some(p) = odds else {
                    return -1;
                };
                let bonus = if self.theirs.contains(&target) { 5 } else { 0 };
                column10(&p) - 20 + bonus + i64::from(p.modifier) / 10
            }
        }
    }

    /// Whether one of our units stands next to `h`.
    fn enemy_hexes_next_to_ours(&self, h: Hex) -> bool {
        self.g.setup().map.neighbours(h).iter().any(|&n| {
            self.g
                .units_at(n)
                .iter()
                .any(|&u| self.g.side_of(u) == self.side)
        })
    }

    fn score_move(&self, unit: UnitId, to: Hex) -> i64 {
        let g = self.g;
        let v = g.unit(unit);
        let arm = g.kind_of(unit).arm();
        let Loc::Map(from) = v.loc else {
            // entering the table: always worth it
            return 60;
        };
        if matches!(v.order, Order::Routed | Order::Retiring) {
            // away from the enemy
            return (self.nearest_enemy(to) - self.nearest_enemy(from)) * 10;
        }
        let goals = self.goals();
        let gain = self.nearest(from, goals) - self.nearest(to, goals);
        let near_to = self.nearest_enemy(to);
        let mut s = gain * 10;
        if self.theirs.contains(&to) {
            s += 40;
        }
        // a defender standing on an objective stays there
        if !self.attacker && self.ours.contains(&from) {
            s -= 40;
        }
        if arm == Arm::Artillery {
            // batteries come up to a short range of their guns, never into contact
            s = match near_to {
                0 | 1 => return -61,
                2 => 10,
                3 | 4 => 40,
                d if d <= self.range => 25,
                _ => gain * 10,
            };
        } else if near_to <= 1 {
            // contact: the unit must attack in its combat stage ([9.4.2.2])
            // (never out of order, below the style's column, or while gathering unless at
            // 4:1 or better: a negative score is never played while `end` is legal)
            if !matches!(v.order, Order::Ordered) {
                return -61;
            }
            match self.contact(unit, to) {
                Some((c, e)) if c >= self.style.contact && (self.closing || c >= 40) => {
                    let joined = self.joiners(e, unit, false).len() as i64 - 1;
                    s = s.max(0) + 20 + (c - self.style.contact) + 10 * joined.min(3);
                }
                _ => return -61,
            }
        } else if self.attacker && !self.closing {
            // gathering: up to two hexes outside the enemy's gun range, no nearer
            if near_to <= self.range && self.nearest_enemy(from) > self.range {
                s -= 40;
            }
        }
        // a unit in contact at a bad column steps back (not a defender on its objective)
        if arm != Arm::Artillery && self.nearest_enemy(from) <= 1 && near_to > 1 {
            let now = self.contact(unit, from).map_or(0, |(c, _)| c);
            if now < self.style.contact && (self.attacker || !self.ours.contains(&from)) {
                s += 35;
            }
        }
        if s <= 0 {
            s - 1
        } else {
            s
        }
    }

    fn score_form(&self, unit: UnitId, formation: Formation) -> i64 {
        let g = self.g;
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
                } else if v.formation == Formation::Column && near <= self.range + 1 {
                    // in line within the enemy's gun range
                    15
                } else {
                    -3
                }
            }
            (Arm::Infantry, Formation::Column) => {
                if v.formation == Formation::Square && !self.enemy_cavalry_within(h, 2) {
                    20
                } else if near > self.range + 1 {
                    // in column out of range: a hex more of movement (HM25)
                    8
                } else {
                    -3
                }
            }
            (Arm::Artillery, Formation::Unlimbered) if near <= 4 => 45,
            (Arm::Artillery, Formation::Unlimbered) if near <= self.range => 20,
            (Arm::Artillery, Formation::Limbered) if near > self.range + 2 => 10,
            (Arm::Artillery, Formation::Limbered) => -10,
            _ => -3,
        }
    }

    /// One plain sentence for the plan `a` begins, with the numbers the player used.
    fn sentence(&self, a: Action) -> Option<String> {
        let g = self.g;
        let style = self.style.name;
        match g.stage() {
            Stage::Orders => {
                let goal = if self.attacker {
                    "advance on the objectives the enemy holds"
                } else {
                    "hold the objectives"
                };
                Some(format!(
                    "Orders ({style}): every formation is told to {goal}."
                ))
            }
            Stage::Movement => {
                let (near, all) = self.gathered;
                if all == 0 {
                    Some(format!(
                        "Movement ({style}): the army enters the table and comes up toward the \
                         objectives."
                    ))
                } else if !self.attacker {
                    Some(format!(
                        "Movement ({style}): hold the objectives; a unit moves into contact \
                         only at {} or better.",
                        column_text(self.style.contact)
                    ))
                } else if self.closing {
                    Some(format!(
                        "Movement ({style}): close on the objectives: {near} of {all} units \
                         are within {} hexes of the enemy (the gathering asks {}%, or turn {}); \
                         a unit in order moves into contact only at {} or better with the \
                         friends that can join.",
                        self.range + 2,
                        self.style.gather,
                        self.style.close_turn,
                        column_text(self.style.contact)
                    ))
                } else {
                    Some(format!(
                        "Movement ({style}): gather out of the enemy's gun range ({} hexes) \
                         before closing: {near} of {all} units are within {} hexes, {}% are \
                         needed (or turn {}); the batteries come up to 3-4 hexes first.",
                        self.range,
                        self.range + 2,
                        self.style.gather,
                        self.style.close_turn
                    ))
                }
            }
            Stage::Artillery => match a {
                Action::Fire { battery, target } => Some(format!(
                    "Artillery: the batteries fire first, {} on {} at {} hexes (the nearest \
                     ordered target, to disorder it before the assault).",
                    g.unit_name(battery),
                    g.unit_name(target),
                    match (g.hex_of(battery), g.hex_of(target)) {
                        (Some(b), Some(t)) => self.dist(b, t),
                        _ => 0,
                    }
                )),
                _ => None,
            },
            Stage::Attacks => match a {
                Action::Attack { unit, target } => {
                    let att = self.joiners(target, unit, false);
                    let p = g.preview(target, &att)?;
                    let odds = match (p.kind, p.strengths) {
                        ("crt", Some((x, y))) => format!(
                            "at {} ({x} against {y})",
                            p.column.clone().unwrap_or_default()
                        ),
                        ("capture", _) => "to take the battery standing alone".into(),
                        _ => "charging the square".into(),
                    };
                    let with = match att.len() - 1 {
                        0 => "alone".to_string(),
                        1 => "with 1 other unit beside the target".to_string(),
                        n => format!("with {n} other units beside the target"),
                    };
                    Some(format!(
                        "{} attacks {} {odds}, {with} ({style}: it went into contact at {} or \
                         better; a unit in contact must attack, [9.4.2.2]).",
                        g.unit_name(unit),
                        target,
                        column_text(self.style.contact),
                    ))
                }
                _ => None,
            },
            _ => None,
        }
    }
}

impl Rollout<Game> for HmHeuristic {
    fn act(&mut self, g: &Game) -> Action {
        self.choose(g).unwrap_or(Action::End)
    }
}

/// The plug-in of the generic search for the hex-miniatures rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct HmKnowledge;

impl HmKnowledge {
    /// The styles whose plans a searched stage weighs, the default first.
    pub const STYLES: [Style; 3] = [Style::STEADY, Style::BOLD, Style::CAUTIOUS];
    /// Percentage points of casualties (the enemy's less mine) worth one unit of the
    /// evaluation's logistic.
    pub const SCALE: f64 = 12.0;
    /// Percentage points an objective hex held is worth.
    pub const OBJECTIVE: f64 = 4.0;
    /// Percentage points the whole field held is worth ([14]: it decides the battle).
    pub const FIELD: f64 = 20.0;
    /// The most actions a stage plan holds.
    const PLAN: usize = 120;

    /// Whether the decision at `g` is searched: the first action of this side's movement or
    /// attack stage.
    pub fn searched(g: &Game) -> bool {
        matches!(g.stage(), Stage::Movement | Stage::Attacks)
    }

    /// The stage from `g` as the heuristic plays it in `style`: its actions up to the end of
    /// the stage (or the first chance event).
    pub fn plan(g: &Game, style: Style, seed: u64) -> Vec<Action> {
        let mut s = g.clone();
        let mut p = HmHeuristic::with_style(seed, style);
        let stage = g.stage();
        let turn = g.turn();
        let mut out = Vec::new();
        while out.len() < Self::PLAN {
            let ToAct::Side(_) = s.to_act() else { break };
            if s.stage() != stage || s.turn() != turn {
                break;
            }
            let Some(a) = p.choose(&s) else { break };
            if s.check(a).is_err() {
                break;
            }
            out.push(a);
            s.apply_unchecked(a);
        }
        out
    }
}

impl Knowledge<Game> for HmKnowledge {
    type Policy = HmHeuristic;

    /// At the first action of a movement or attack stage, the whole stage as each style plays
    /// it (identical plans once); elsewhere the heuristic's choice alone.
    fn candidates(&self, g: &Game, _me: Side, seed: u64) -> Vec<Vec<Action>> {
        let mut out: Vec<Vec<Action>> = Vec::new();
        if Self::searched(g) {
            for st in Self::STYLES {
                let p = Self::plan(g, st, seed);
                if !p.is_empty() && !out.contains(&p) {
                    out.push(p);
                }
            }
        } else if let Some(a) = HmHeuristic::new(seed).choose(g) {
            out.push(vec![a]);
        }
        out
    }

    fn policy(&self, _seat: Side, seed: u64) -> HmHeuristic {
        HmHeuristic::new(seed)
    }

    /// The difference of casualties in percent (the enemy's less mine), the objective hexes
    /// held (each [`HmKnowledge::OBJECTIVE`] points, the whole field [`HmKnowledge::FIELD`]
    /// more) and the crisis levels reached (the enemy's less mine, a tenth of a point each
    /// percent), through a logistic of scale [`HmKnowledge::SCALE`]; a finished game is its
    /// result.
    fn evaluate(&self, g: &Game, me: Side) -> f64 {
        if let Some(v) = crate::montecarlo::final_value(g, me) {
            return v;
        }
        let (m, o) = (usize::from(me.0 % 2), usize::from(1 - me.0 % 2));
        let cas = g.casualties();
        let pct = |s: usize| f64::from(cas[s].0) * 100.0 / f64::from(cas[s].1.max(1));
        let held = g.objective_holders();
        let mine = held.iter().filter(|&&(_, s)| usize::from(s) == m).count() as f64;
        let theirs = held.len() as f64 - mine;
        let field = match g.holder_of_the_field() {
            Some(s) if usize::from(s) == m => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        let crisis = g.crisis_level();
        let level = |s: usize| f64::from(crisis[s].unwrap_or(0));
        let diff = pct(o) - pct(m)
            + Self::OBJECTIVE * (mine - theirs)
            + Self::FIELD * field
            + 0.1 * (level(o) - level(m));
        1.0 / (1.0 + (-diff / Self::SCALE).exp())
    }

    /// A rollout stops when the same side's next movement stage begins (a whole turn on).
    fn horizon_reached(&self, start: &Game, now: &Game, _me: Side) -> bool {
        now.turn() > start.turn()
            && (now.stage() == Stage::Movement || now.turn() > start.turn() + 1)
            && now.phasing() == start.phasing()
    }

    fn max_rollout(&self) -> usize {
        600
    }
}

/// A computer player of the hex-miniatures rules: the generic search over [`HmKnowledge`]
/// with a simulation budget per searched stage; the heuristic elsewhere.
pub struct HmSearch {
    knowledge: Arc<HmKnowledge>,
    sims: u32,
    seed: u64,
    decisions: u64,
    /// The rest of the chosen plan.
    pending: Vec<Action>,
    /// The heuristic for the decisions not searched.
    heuristic: HmHeuristic,
    said: Option<String>,
    /// Rollouts played so far.
    simulations: u64,
}

impl HmSearch {
    /// The default budget: rollouts per searched stage.
    pub const SIMS: u32 = 100;

    /// A search player spending `sims` rollouts on each searched stage.
    pub fn new(sims: u32, seed: u64) -> HmSearch {
        HmSearch {
            knowledge: Arc::new(HmKnowledge),
            sims: sims.max(1),
            seed,
            decisions: 0,
            pending: Vec::new(),
            heuristic: HmHeuristic::new(seed),
            said: None,
            simulations: 0,
        }
    }

    /// The player of a spec: `search` ([`HmSearch::SIMS`] rollouts a searched stage) or
    /// `search@Nn`.
    pub fn from_spec(spec: &str, seed: u64) -> Result<HmSearch, String> {
        match spec.trim() {
            "search" => Ok(HmSearch::new(Self::SIMS, seed)),
            s => crate::montecarlo::rollouts_of(s, "search")
                .map(|n| HmSearch::new(n, seed))
                .ok_or_else(|| format!("no computer player '{s}' (search, search@100n)")),
        }
    }

    /// Its name for reports.
    pub fn name(&self) -> String {
        if self.sims == Self::SIMS {
            "search".into()
        } else {
            format!("search@{}n", self.sims)
        }
    }

    /// Rollouts played so far.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// The sentence explaining the plan the last choice began, if it began one.
    pub fn explain(&self) -> Option<String> {
        self.said.clone()
    }

    /// Chooses an action of the seat to act in `g`; `None` when no seat acts.
    pub fn choose(&mut self, g: &Game) -> Option<Action> {
        let ToAct::Side(me) = g.to_act() else {
            return None;
        };
        self.said = None;
        if let Some(&a) = self.pending.first() {
            self.pending.remove(0);
            if g.check(a).is_ok() {
                // the heuristic keeps its stage memory in step
                self.heuristic.taken_push(g, a);
                return Some(a);
            }
            self.pending.clear();
        }
        let fresh = self.heuristic.is_fresh(g);
        if !(fresh && HmKnowledge::searched(g)) {
            let a = self.heuristic.choose(g);
            self.said = self.heuristic.explain();
            return a;
        }
        self.decisions += 1;
        let seed = mix(self.seed, self.decisions);
        let mut plans = self.knowledge.candidates(g, me, seed);
        plans.retain(|p| p.first().is_some_and(|&a| g.check(a).is_ok()));
        let best = if plans.len() > 1 {
            let v = search(
                &self.knowledge,
                g,
                me,
                &plans,
                seed,
                Limits::sims(self.sims),
            );
            self.simulations += u64::from(v.simulations);
            v.best
        } else {
            0
        };
        let Some(mut plan) = plans.into_iter().nth(best) else {
            let a = self.heuristic.choose(g);
            self.said = self.heuristic.explain();
            return a;
        };
        // the chosen plan's style says the plan
        let style = HmKnowledge::STYLES
            .into_iter()
            .find(|&st| HmKnowledge::plan(g, st, seed) == plan)
            .unwrap_or(Style::STEADY);
        let ctx = Ctx::new(g, me.0, style);
        let a = plan.remove(0);
        self.said = ctx.sentence(a);
        self.heuristic.taken_push(g, a);
        self.pending = plan;
        Some(a)
    }
}

impl HmHeuristic {
    /// Whether `g`'s decision is the first of a stage for this player.
    fn is_fresh(&self, g: &Game) -> bool {
        match g.to_act() {
            ToAct::Side(side) => {
                (g.turn(), g.stage() as u8, side.0) != self.key || self.taken.is_empty()
            }
            _ => false,
        }
    }

    /// Records `a` as taken in `g`'s stage (a choice made by another player for it).
    fn taken_push(&mut self, g: &Game, a: Action) {
        if let ToAct::Side(side) = g.to_act() {
            let key = (g.turn(), g.stage() as u8, side.0);
            if key != self.key {
                self.key = key;
                self.taken.clear();
            }
            self.taken.insert(a);
        }
    }
}
