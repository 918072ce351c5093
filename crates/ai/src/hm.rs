//! Computer players for the hex-miniatures rules (`hex_miniatures`, Möckern 1813).
//!
//! [`HmHeuristic`] scores each legal action of the side to act by plain rules of thumb, with
//! no search; [`HmSearch`] is the generic search ([`crate::montecarlo`]) over
//! [`HmKnowledge`], whose candidates are whole stages as the heuristic plays them in the
//! styles of [`HmKnowledge::STYLES`] (the village first, the ridge first, bold or holding
//! forward, holding the line).
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
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// How boldly the heuristic closes with the enemy: the numbers its rules of thumb use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Its name (`steady`, `bold`, `cautious`).
    pub name: &'static str,
    /// The least column (in tenths: 20 is 2:1) at which an attacker's unit moves into
    /// contact.
    pub contact: i64,
    /// The same for the defender's units (which need not attack at all).
    pub hold: i64,
    /// The turn from which the attacker closes whether gathered or not (12 is 13:50 at
    /// Möckern, when the history has both sides in position).
    pub close_turn: u16,
    /// The share (percent) of the attacker's foot and horse on the table that must stand
    /// within two hexes of the enemy's gun range before it closes.
    pub gather: u32,
    /// Which of the enemy's objectives the attacker makes for.
    pub aim: Aim,
}

/// Which of the enemy's objectives the attacker makes for first (at Möckern: the walled
/// village, or the great battery's height east of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// Each unit the nearest.
    Nearest,
    /// Those in a town, a work or a wood (the village first).
    Cover,
    /// Those in the open (the ridge and its battery first).
    Open,
}

impl Style {
    /// The default: contact at 1:1 or better (counting only the friends who can reach the
    /// enemy this stage, each once), closing once 60% are gathered or at 13:50.
    pub const STEADY: Style = Style {
        name: "steady",
        contact: 10,
        hold: 10,
        close_turn: 12,
        gather: 60,
        aim: Aim::Nearest,
    };
    /// Closing at once, contact at 1:1 or better (defending: holding forward, counterattacking
    /// at 1:1 like the steady style).
    pub const BOLD: Style = Style {
        name: "bold",
        contact: 10,
        hold: 10,
        close_turn: 1,
        gather: 0,
        aim: Aim::Nearest,
    };
    /// No new contact below 3:1 and no closing before every unit is gathered or 14:50.
    pub const CAUTIOUS: Style = Style {
        name: "cautious",
        contact: 30,
        hold: 30,
        close_turn: 18,
        gather: 90,
        aim: Aim::Nearest,
    };
    /// The steady numbers, the village first; defending, the same as steady.
    pub const VILLAGE: Style = Style {
        name: "village first",
        aim: Aim::Cover,
        ..Style::STEADY
    };
    /// The steady numbers, the ridge and its battery first; defending, the same as steady.
    pub const RIDGE: Style = Style {
        name: "ridge first",
        aim: Aim::Open,
        ..Style::STEADY
    };
    /// Defending, the line held: no move into contact below 4:1, so that the defender makes
    /// no attack it need not make; attacking, the cautious numbers.
    pub const LINE: Style = Style {
        name: "hold the line",
        hold: 40,
        ..Style::CAUTIOUS
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
        let ctx = self.ctx(g, side.0, &legal);
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
        self.said = if fresh || matches!(a, Action::Attack { .. }) {
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            self.ctx(g, side.0, &legal).sentence(a)
        } else {
            None
        };
        self.taken.insert(a);
        Some(a)
    }

    /// The scoring context of `g` for `side`, with the attack stage's plan made from the
    /// legal declarations and those this player already made in the stage.
    fn ctx<'a>(&self, g: &'a Game, side: u8, legal: &[Action]) -> Ctx<'a> {
        let mut ctx = Ctx::new(g, side, self.style);
        if g.stage() == Stage::Attacks {
            let declared: Vec<(UnitId, Hex)> = self
                .taken
                .iter()
                .filter_map(|a| match *a {
                    Action::Attack { unit, target } => Some((unit, target)),
                    _ => None,
                })
                .collect();
            ctx.plan = ctx.attack_plan(legal, &declared);
        }
        ctx
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
    /// The enemy's objectives the style aims at (empty: all of them).
    aimed: Vec<Hex>,
    /// Enemy units on the table, with their hexes.
    enemies: Vec<(UnitId, Hex)>,
    /// The enemy's gun range: the longest range of a foot battery ([21]).
    range: i64,
    /// This side's foot and horse on the table, and those gathered (within two hexes of the
    /// enemy's gun range or nearer).
    gathered: (u32, u32),
    /// The attacker closes now: gathered enough, or late enough.
    closing: bool,
    /// In the attack stage, who attacks which hex: the declarations made and the plan for
    /// the rest ([`Ctx::attack_plan`]).
    plan: Vec<(UnitId, Hex)>,
    /// The hexes each unit can reach this stage, as asked.
    reach: RefCell<HashMap<UnitId, Vec<Hex>>>,
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
            aimed: Vec::new(),
            theirs,
            ours,
            enemies,
            range,
            gathered: (0, 0),
            closing: true,
            plan: Vec::new(),
            reach: RefCell::new(HashMap::new()),
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
        c.aimed = match style.aim {
            Aim::Nearest => Vec::new(),
            Aim::Cover => c.theirs.iter().copied().filter(|&h| c.cover(h)).collect(),
            Aim::Open => c.theirs.iter().copied().filter(|&h| !c.cover(h)).collect(),
        };
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
        if self.attacker && !self.aimed.is_empty() {
            &self.aimed
        } else if self.attacker && !self.theirs.is_empty() {
            &self.theirs
        } else if !self.ours.is_empty() {
            &self.ours
        } else {
            &self.theirs
        }
    }

    /// This side's foot and horse in order on the table, but `unit`, with their hexes.
    fn ordered_friends(&self, unit: UnitId) -> impl Iterator<Item = (UnitId, Hex)> + '_ {
        let g = self.g;
        (0..g.unit_count())
            .map(|i| UnitId(i as u8))
            .filter(move |&u| {
                u != unit
                    && g.side_of(u) == self.side
                    && g.kind_of(u).arm() != Arm::Artillery
                    && matches!(g.unit(u).order, Order::Ordered)
            })
            .filter_map(move |u| g.hex_of(u).map(|h| (u, h)))
    }

    /// This side's foot and horse in order next to `target`, with `unit`.
    fn joiners(&self, target: Hex, unit: UnitId) -> Vec<UnitId> {
        let near = self
            .ordered_friends(unit)
            .filter(|&(_, h)| self.dist(h, target) == 1)
            .map(|(u, _)| u);
        std::iter::once(unit).chain(near).collect()
    }

    /// The least column (tenths) at which a unit of this side moves into contact.
    fn least(&self) -> i64 {
        if self.attacker {
            self.style.contact
        } else {
            self.style.hold
        }
    }

    /// Whether an enemy not routed stands in `h`.
    fn live_enemy(&self, h: Hex) -> bool {
        self.g
            .units_at(h)
            .iter()
            .any(|&u| self.g.side_of(u) != self.side && self.g.unit(u).order != Order::Routed)
    }

    /// Whether `u` can reach a hex next to `target` other than `not` this stage
    /// (`Game::destinations`: it has not moved, is in order and free of the enemy's zones of
    /// control).
    fn can_reach_next_to(&self, u: UnitId, target: Hex, not: Hex) -> bool {
        let mut cache = self.reach.borrow_mut();
        let dest = cache.entry(u).or_insert_with(|| self.g.destinations(u));
        dest.iter().any(|&h| {
            h != not
                && self.dist(h, target) == 1
                && !self
                    .g
                    .units_at(h)
                    .iter()
                    .any(|&e| self.g.side_of(e) != self.side)
        })
    }

    /// The column (tenths) of an attack on `e` by `att`; 0 when nobody attacks.
    fn column_of(&self, e: Hex, att: &[UnitId]) -> i64 {
        if att.is_empty() {
            return 0;
        }
        self.g.preview(e, att).map_or(0, |p| column10(&p))
    }

    /// The column (tenths) `unit` would attack at from `to`, and the hex: the worst over the
    /// hexes next to `to` holding an enemy not routed, since each of them must then be
    /// attacked ([9.4.2.1]; HM33). The friends who can join are shared out among those hexes
    /// and the others they touch, each attacking once ([9.4.2.4]), the weakest attack first:
    /// those already next to them, and those that can reach a hex next to them this stage
    /// (coordinated arrival: a friend who cannot get there is not counted). `None` when `to`
    /// touches no enemy, 10:1 when it touches only routed ones.
    fn contact(&self, unit: UnitId, to: Hex) -> Option<(i64, Hex)> {
        let g = self.g;
        let hexes = self.enemy_hexes_next_to(to);
        let first = *hexes.first()?;
        let live: Vec<Hex> = hexes.into_iter().filter(|&e| self.live_enemy(e)).collect();
        if live.is_empty() {
            return Some((100, first));
        }
        let mut opts: Vec<(UnitId, Vec<Hex>)> = vec![(unit, live.clone())];
        for (u, h) in self.ordered_friends(unit) {
            if live.iter().all(|&e| self.dist(h, e) > 2) {
                continue;
            }
            let touching: Vec<Hex> = self
                .enemy_hexes_next_to(h)
                .into_iter()
                .filter(|&e| self.live_enemy(e))
                .collect();
            if touching.iter().any(|e| live.contains(e)) {
                // next to one of them already: it attacks one of the hexes it touches
                opts.push((u, touching));
            } else if touching.is_empty() && !g.unit(u).moved {
                // two hexes away: counted only where it can get next to the hex this stage
                let o: Vec<Hex> = live
                    .iter()
                    .copied()
                    .filter(|&e| self.dist(h, e) == 2 && self.can_reach_next_to(u, e, to))
                    .collect();
                if !o.is_empty() {
                    opts.push((u, o));
                }
            }
        }
        // the units with the fewest choices first, each to the weakest attack it can join
        opts.sort_by_key(|(u, o)| (o.len(), *u != unit));
        let mut groups: BTreeMap<Hex, Vec<UnitId>> = BTreeMap::new();
        for (u, o) in opts {
            let e = o
                .iter()
                .copied()
                .min_by_key(|&e| {
                    let grp = groups.get(&e).map_or(&[][..], |v| &v[..]);
                    (self.column_of(e, grp), e)
                })
                .unwrap_or(first);
            groups.entry(e).or_default().push(u);
        }
        live.into_iter()
            .map(|e| {
                let grp = groups.get(&e).map_or(&[][..], |v| &v[..]);
                (self.column_of(e, grp), e)
            })
            .min()
    }

    /// What an attack on `h` by `att` is worth, from the preview's chances: each attacking
    /// unit routed (Ar) counts -3, made to retire (Aw) -1.5, disordered (Ad, Dx) -1; each
    /// defending unit disordered (Dx, Dd) +1, retiring (Dw) +2, routed (Dr) +3; a square broken
    /// +3 a unit, a charge repulsed -1 a horse regiment; a battery taken +3.
    fn value(&self, h: Hex, att: &[UnitId]) -> f64 {
        let Some(p) = self.g.preview(h, att) else {
            return -1.0;
        };
        let n_att = att.len() as f64;
        let n_def = self
            .g
            .units_at(h)
            .iter()
            .filter(|&&u| self.g.side_of(u) != self.side)
            .count()
            .max(1) as f64;
        if p.kind == "capture" {
            return 3.0;
        }
        p.chances
            .iter()
            .map(|(r, c)| {
                let w = match r.as_str() {
                    "Ar" => -3.0 * n_att,
                    "Aw" => -1.5 * n_att,
                    "Ad" => -n_att,
                    "Dx" => n_def - n_att,
                    "Dd" => n_def,
                    "Dw" => 2.0 * n_def,
                    "Dr" | "broken" => 3.0 * n_def,
                    "repulsed" => -n_att,
                    _ => 0.0,
                };
                w * f64::from(*c) / 1000.0
            })
            .sum()
    }

    /// The attack stage's plan, from the legal declarations ([9.4.2]): the declarations made;
    /// then for each hex that must still be attacked (fewest possible attackers first), the
    /// one unit that fares best there alone; then every other unit where it adds most to
    /// [`Ctx::value`], so that the strength goes where it can win and the other obliged
    /// attacks are made by one unit each rather than by many at a bad column.
    fn attack_plan(&self, legal: &[Action], declared: &[(UnitId, Hex)]) -> Vec<(UnitId, Hex)> {
        let mut opts: BTreeMap<UnitId, Vec<Hex>> = BTreeMap::new();
        for a in legal {
            if let Action::Attack { unit, target } = *a {
                opts.entry(unit).or_default().push(target);
            }
        }
        let mut groups: BTreeMap<Hex, Vec<UnitId>> = BTreeMap::new();
        for &(u, h) in declared {
            groups.entry(h).or_default().push(u);
            opts.remove(&u);
        }
        let mut todo: Vec<Hex> = opts
            .values()
            .flatten()
            .copied()
            .filter(|&h| self.live_enemy(h) && !groups.contains_key(&h))
            .collect();
        todo.sort();
        todo.dedup();
        todo.sort_by_key(|h| (opts.values().filter(|o| o.contains(h)).count(), *h));
        for h in todo {
            if groups.contains_key(&h) {
                continue;
            }
            let best = opts
                .iter()
                .filter(|(_, o)| o.contains(&h))
                .map(|(&u, o)| (self.value(h, &[u]), std::cmp::Reverse(o.len()), u))
                .max_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            if let Some((_, _, u)) = best {
                groups.entry(h).or_default().push(u);
                opts.remove(&u);
            }
        }
        let mut rest: Vec<(UnitId, Vec<Hex>)> = opts.into_iter().collect();
        rest.sort_by_key(|(u, o)| (o.len(), *u));
        for (u, o) in rest {
            let obliged = self.enemy_hexes_next_to_unit(u);
            let mut best: Option<(f64, Hex)> = None;
            for &h in &o {
                let grp = groups.get(&h).cloned().unwrap_or_default();
                let before = if grp.is_empty() {
                    0.0
                } else {
                    self.value(h, &grp)
                };
                let mut with = grp;
                with.push(u);
                let gain = self.value(h, &with) - before;
                if best.is_none_or(|(b, _)| gain > b) {
                    best = Some((gain, h));
                }
            }
            if let Some((gain, h)) = best {
                if gain > 0.0 || obliged {
                    groups.entry(h).or_default().push(u);
                }
            }
        }
        groups
            .into_iter()
            .flat_map(|(h, v)| v.into_iter().map(move |u| (u, h)))
            .collect()
    }

    /// Whether an enemy not routed stands next to `u` (it must attack, [9.4.2.2]).
    fn enemy_hexes_next_to_unit(&self, u: UnitId) -> bool {
        self.g.hex_of(u).is_some_and(|h| {
            self.enemy_hexes_next_to(h)
                .into_iter()
                .any(|e| self.live_enemy(e))
        })
    }

    /// The units the plan sends against `h`.
    fn planned_on(&self, h: Hex) -> Vec<UnitId> {
        self.plan
            .iter()
            .filter(|&&(_, t)| t == h)
            .map(|&(u, _)| u)
            .collect()
    }

    /// Whether `h` is a work, a town or a forest: ground to hold ([18]).
    fn cover(&self, h: Hex) -> bool {
        matches!(
            self.g.hex_kind(h),
            "town" | "fortified" | "earthwork" | "forest"
        )
    }

    fn score(&self, a: Action) -> i64 {
        let g = self.g;
        match a {
            Action::End => 0,
            Action::Draw(_) | Action::Roll(_) => 0,
            Action::Order { order, .. } => match (order, self.attacker) {
                (Standing::Advance(h), true) if self.aimed.contains(&h) => 60,
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
            Action::Advance { unit } => {
                // a victor holding an objective, or a defender in cover, keeps its ground
                // rather than step out toward the enemy
                match g.hex_of(unit) {
                    Some(h) if self.ours.contains(&h) || (!self.attacker && self.cover(h)) => -5,
                    _ => 30,
                }
            }
            Action::Attack { unit, target } => {
                // the stage's plan first ([`Ctx::attack_plan`]), the strongest attack first
                let planned = self.plan.contains(&(unit, target));
                let mut attackers = self.planned_on(target);
                if !attackers.contains(&unit) {
                    attackers.push(unit);
                }
                let odds = g
                    .preview(target, &attackers)
                    .or_else(|| g.preview(target, &[unit]));
                let Some(p) = odds else {
                    return -1;
                };
                let bonus = if self.theirs.contains(&target) { 5 } else { 0 };
                let s = column10(&p) - 20 + bonus + i64::from(p.modifier) / 10;
                if planned {
                    200 + s
                } else {
                    s - 200
                }
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
        // a defender standing on an objective stays there; out of contact it keeps to cover
        // near its objectives (a work, the town, a wood) rather than stand in the open
        if !self.attacker && self.ours.contains(&from) {
            s -= 40;
        }
        if !self.attacker && arm != Arm::Artillery && near_to > 1 {
            if self.cover(to) && self.nearest(to, &self.ours) <= 2 {
                s += 15;
            }
            if self.cover(from) && !self.cover(to) && self.nearest_enemy(from) <= self.range + 2 {
                s -= 15;
            }
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
                Some((c, e)) if c >= self.least() && (self.closing || c >= 40) => {
                    let joined = self.joiners(e, unit).len() as i64 - 1;
                    s = s.max(0) + 20 + (c - self.least()) + 10 * joined.min(3);
                }
                _ => return -61,
            }
        } else if self.attacker && !self.closing {
            // gathering: up to two hexes outside the enemy's gun range, no nearer
            if near_to <= self.range && self.nearest_enemy(from) > self.range {
                s -= 40;
            }
        } else if self.attacker && near_to <= self.range && self.cover(to) {
            // waiting within the enemy's gun range: in a wood or a village if one is at hand
            s += 8;
        }
        // a unit in contact at a bad column steps back (not a defender on its objective)
        if arm != Arm::Artillery && self.nearest_enemy(from) <= 1 && near_to > 1 {
            let now = self.contact(unit, from).map_or(0, |(c, _)| c);
            if now < self.least() && (self.attacker || !self.ours.contains(&from)) {
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
                        column_text(self.least())
                    ))
                } else if self.closing {
                    Some(format!(
                        "Movement ({style}): close on the objectives: {near} of {all} units \
                         are within {} hexes of the enemy (the gathering asks {}%, or turn {}); \
                         a unit in order moves into contact only at {} or better, counting \
                         only the friends that can reach the enemy this stage.",
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
                    let mut att = self.planned_on(target);
                    if att.is_empty() {
                        att = self.joiners(target, unit);
                    }
                    if !att.contains(&unit) {
                        att.insert(0, unit);
                    }
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
                        1 => "with 1 other unit".to_string(),
                        n => format!("with {n} other units"),
                    };
                    Some(format!(
                        "{} attacks {} {odds}, {with} ({style}: the strength goes where it \
                         can win and each other hex that must be attacked gets the one unit \
                         that fares best there, {}; a unit in contact must attack, \
                         [9.4.2.2]).",
                        g.unit_name(unit),
                        target,
                        match self.plan.len().max(att.len()) {
                            1 => "the only unit in contact".to_string(),
                            n => format!("of {n} units in contact"),
                        },
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
    pub const STYLES: [Style; 5] = [
        Style::STEADY,
        Style::VILLAGE,
        Style::RIDGE,
        Style::BOLD,
        Style::LINE,
    ];
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
