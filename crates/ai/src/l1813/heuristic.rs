//! Leipzig 1813's heuristic player: every legal action of the seat to act scored by what the
//! rules' public queries tell of objectives, supply, forced marches, stacks and odds, the best
//! taken (ties broken by a seeded draw), `end` once nothing scores above nothing. A [`Style`]
//! sets its appetite (the odds it attacks at, the forced march losses it risks, whether it
//! breaks corps down to spread); the search compares whole phases played in each style.
//!
//! - Set-up and reinforcements: combat units go to the legal hex nearest an objective (a
//!   victory city the side does not hold, else any victory city); supply units and leaders to
//!   the hex with the most friendly combat units around it.
//! - Stacks (Stacking (B), (E)): a stack of combat units that no supply unit feeds, or that
//!   stands next to the enemy, is built up into one unit where the rules allow it (at its
//!   movement-point cost), so that it needs no supply to stand and attacks as one; a corps or
//!   army away from the enemy is broken down to spread over the objectives when more open
//!   objectives lie ahead than its one counter can take ([`Style::spread`]). Units sharing a
//!   hex no supply feeds take distinct objectives, so a broken-down corps fans out.
//! - Movement: each combat unit heads for its objective (the nearest victory city the enemy
//!   holds or nobody holds, or one of its own left empty; failing those the nearest enemy); a
//!   lone unit on a city its side holds stays. A move must bring it strictly nearer, so every
//!   phase ends. It never moves into a stack that no supply unit would feed, outside a
//!   fortress's own supply. Supply units follow the combat units that no supply unit feeds
//!   yet; leaders the strongest stack. Automatic eliminations (CRT Auto) are always taken.
//! - Forced march (Forced March; Supply (C) III): declared only by a unit far from its
//!   objective, at most the style's 36ths of destruction or dispersal, and only where its
//!   expected gain outweighs its expected cost, both from the rules' chances
//!   (`Game::march_chances`: no roll where a supply unit that has not moved supports it);
//!   declared before the unit moves. On a letter it stops the march.
//! - Armistice (ruling L41): a unit across the line withdraws first; an Allied unit goes round
//!   the French by the map's edge when that reaches a city sooner than waiting.
//! - Combat: the odds are the rules' arithmetic ([`attack_odds`]: `odds::attack_strength`,
//!   `odds::defence_strength` with the hexside's terrain multiplier, the leaders' bonuses from
//!   the crate's tables, supply where a supply unit could feed each side, the CRT column and
//!   its results, a fortress's "only Dx"); it attacks at the style's percentage or better and
//!   never below a river's floor, allocates as many supply units as it has combats (the
//!   defender too), retreats before combat where the rules allow it and the CRT gives the
//!   stack at least [`Style::retreat_sixths`] sixths of destruction (more when it holds a
//!   victory city), and advances only into a victory city.
//! - Special rules: the French call the armistice (the campaign game) in time to avert the
//!   German rebellion ([`armistice_worth`]); they move units off the east edge (ESM) only when
//!   a complete group (six divisions, a leader, a supply unit) would score.
//! - Unknown steps or actions (rules added later) score nothing: it ends the step where it may,
//!   else takes the first legal action.

use engine::{Dice, Rules, ToAct};
use hexmap::Hex;
use leipzig_1813::crt::{CombatResult, Effect};
use leipzig_1813::forced_march::{MarchChances, OnLetter};
use leipzig_1813::game::{supply_use, MarchState, Status, Step};
use leipzig_1813::odds::{attack_strength, defence_strength, leader_addition, units_strength};
use leipzig_1813::units::Arm;
use leipzig_1813::{Action, Game};
use std::collections::HashMap;

/// The attack percentage (after supply, terrain and leaders) the steady style attacks at.
pub const MIN_PERCENT: u32 = 200;
/// The most 36ths of destruction plus dispersal a steady forced march may risk (a double
/// march without supply: 12/36); within it, a march is declared only where its expected gain
/// outweighs its expected loss.
pub const MAX_MARCH_LOSS: u32 = 12;

/// How a heuristic plays: its appetite for attacks, forced marches and spreading out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Its name in explanations.
    pub name: &'static str,
    /// The lowest attack percentage (the rules' arithmetic) it attacks at.
    pub min_percent: u32,
    /// The most 36ths of destruction plus dispersal a forced march may risk.
    pub max_march_loss: u32,
    /// It breaks corps down to spread over the objectives.
    pub spread: bool,
    /// The sixths of destruction (CRT) at which a defender retreats before combat.
    pub retreat_sixths: u32,
    /// Its combat units head for the enemy's stacks rather than the victory cities.
    pub hunt: bool,
}

impl Style {
    /// The default: 200% attacks, forced marches at most 12/36 of loss (a double march
    /// without supply) and only where the gain outweighs the expected loss.
    pub const STEADY: Style = Style {
        name: "steady",
        min_percent: MIN_PERCENT,
        max_march_loss: MAX_MARCH_LOSS,
        spread: true,
        retreat_sixths: 3,
        hunt: false,
    };
    /// Attacks from 150%, forced marches up to 18/36 of loss (a triple march without
    /// supply), where the gain outweighs the expected loss.
    pub const BOLD: Style = Style {
        name: "bold",
        min_percent: 150,
        max_march_loss: 18,
        spread: true,
        retreat_sixths: 4,
        hunt: false,
    };
    /// Attacks only from 300%, no forced march at any loss, corps kept whole; retreats sooner.
    pub const CAUTIOUS: Style = Style {
        name: "cautious",
        min_percent: 300,
        max_march_loss: 0,
        spread: false,
        retreat_sixths: 2,
        hunt: false,
    };
    /// The steady style's numbers, its units heading for the nearest enemy stacks rather than
    /// the cities (a city of its own it holds alone is still held).
    pub const HUNTING: Style = Style {
        name: "hunting",
        min_percent: MIN_PERCENT,
        max_march_loss: MAX_MARCH_LOSS,
        spread: false,
        retreat_sixths: 3,
        hunt: true,
    };
    /// The styles the search compares, the default first.
    pub const ALL: [Style; 4] = [Style::STEADY, Style::BOLD, Style::CAUTIOUS, Style::HUNTING];
}

/// An attack's odds as the rules compute them, with what went into them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackOdds {
    /// The attacking strength (supply, then leaders).
    pub attack: u32,
    /// The defending strength (supply, leaders, terrain), all targets together.
    pub defence: u32,
    /// What the attacking leaders add.
    pub attack_leaders: u32,
    /// What the defending leaders add (before terrain).
    pub defence_leaders: u32,
    /// The highest terrain multiplier among the targets (1: none).
    pub multiplier: u32,
    /// The attack as a percentage of the defence.
    pub percent: u32,
    /// Its CRT column.
    pub column: usize,
    /// The column's name (`200%`).
    pub column_name: String,
    /// The lowest percentage the hexside allows (a river's 160%; 0 when none).
    pub floor: u32,
    /// Sixths of the die that destroy the defender (a fortress only by Dx).
    pub destroy: u32,
    /// Sixths of the die that touch the defender at all.
    pub defender_hurt: u32,
    /// Sixths of the die that touch the attacker.
    pub attacker_hurt: u32,
}

impl AttackOdds {
    /// The numbers in words: `30 against 12 (250%, the 200% column; leaders +5; terrain x2):
    /// 3/6 to destroy the defender, 1/6 of loss to the attacker`.
    pub fn words(&self) -> String {
        let mut extra = Vec::new();
        if self.attack_leaders > 0 {
            extra.push(format!("attacking leaders +{}", self.attack_leaders));
        }
        if self.defence_leaders > 0 {
            extra.push(format!("defending leaders +{}", self.defence_leaders));
        }
        if self.multiplier > 1 {
            extra.push(format!("terrain x{}", self.multiplier));
        }
        format!(
            "{} against {} ({}%, the {} column{}): {}/6 to destroy the defender, {}/6 of loss \
             to the attacker",
            self.attack,
            self.defence,
            self.percent,
            self.column_name,
            if extra.is_empty() {
                String::new()
            } else {
                format!("; {}", extra.join(", "))
            },
            self.destroy,
            self.attacker_hurt
        )
    }
}

/// A friendly supply unit or depot (not dispersed) of `side` stands on or next to `h`
/// (Supply (B)), or `h` is a fortress (Supply (D)).
pub fn could_supply(g: &Game, side: u8, h: Hex) -> bool {
    g.board().hex(h).fortress
        || g.units().iter().any(|s| {
            s.on_map()
                && s.side == side
                && matches!(g.arm(s), Arm::Supply | Arm::Depot)
                && !g.is_dispersed(s)
                && g.board().distance(s.hex, h) <= 1
        })
}

/// The odds of an attack by `side` from `from` on `targets` as the rules compute them: each
/// side at full strength where a supply unit could feed it (or a fortress holds it), halved
/// unit by unit otherwise; leaders' bonuses from the crate's tables, capped by the units';
/// each target's terrain multiplier across its hexside; the CRT column and its results (a
/// fortress touched only by Dx). `None` when nothing defends or the hexes are not adjacent.
pub fn attack_odds(g: &Game, side: u8, from: Hex, targets: &[Hex]) -> Option<AttackOdds> {
    let t = g.tables();
    // who fights, as the rules count it (Combat (B), (L), Stacking (D) and L44, Leaders (C))
    let force = g.attacking_force(side, from);
    let (printed, bonuses) = (force.printed, force.leaders);
    if printed.is_empty() {
        return None;
    }
    let a_sup = could_supply(g, side, from);
    let attack = attack_strength(&printed, a_sup, &bonuses);
    let attack_leaders = leader_addition(&bonuses, units_strength(&printed, a_sup));
    let enemy = 1 - side % 2;
    let (mut defence, mut defence_leaders, mut multiplier, mut floor) = (0u32, 0u32, 1u32, 0u32);
    let mut fortress = false;
    for &h in targets {
        let s = g.board().between(from, h)?;
        let df = g.defending_force(enemy, h);
        let (dp, db) = (df.printed, df.leaders);
        let d_sup = could_supply(g, enemy, h);
        let m = u32::from(s.defence).max(1);
        defence += defence_strength(&dp, d_sup, m, &db);
        defence_leaders += leader_addition(&db, units_strength(&dp, d_sup));
        multiplier = multiplier.max(m);
        floor = floor.max(u32::from(s.min_percent));
        fortress |= g.board().hex(h).fortress;
    }
    let percent = leipzig_1813::odds::percent(attack, defence)?;
    let crt = &t.crt;
    let column = crt.column(percent);
    let res = |r: CombatResult| if fortress { r.against_fortress() } else { r };
    Some(AttackOdds {
        attack,
        defence,
        attack_leaders,
        defence_leaders,
        multiplier,
        percent,
        column,
        column_name: crt.column_name(column),
        floor,
        destroy: crt.sixths(column, |r| res(r).destroys_defender()),
        defender_hurt: crt.sixths(column, |r| res(r).defender() != Effect::None),
        attacker_hurt: crt.sixths(column, |r| res(r).attacker() != Effect::None),
    })
}

/// Whether calling the armistice now is worth it for the French (Armistice, German
/// Rebellion): the campaign game's rebellion begins on its turn unless an armistice was
/// called, and then costs them divisions every turn and their reinforcements; so they call it
/// in the last two turns before the rebellion, keeping the war going as long as it may pay.
pub fn armistice_worth(g: &Game) -> bool {
    match &g.scenario().rules.german_rebellion {
        Some(r) => g.turn() + 2 >= r.turn && g.turn() < r.turn,
        None => false,
    }
}

/// What a decision reads once: the seat, the objectives and the supply on the map.
struct View<'a> {
    g: &'a Game,
    me: u8,
    style: Style,
    /// Victory cities: hex and holder.
    cities: Vec<(Hex, Option<u8>)>,
    /// Hexes of friendly supply units or depots that are not dispersed.
    supply: Vec<Hex>,
    /// Hexes of enemy combat units.
    enemies: Vec<Hex>,
    /// Hexes of friendly combat units.
    friends: Vec<Hex>,
    /// Divisions of friendly combat units by hex.
    worth: HashMap<Hex, u32>,
    /// Each unit's goal for this decision (friendly units on the map; computed once).
    goals: Vec<Option<Hex>>,
    /// The Allies during the armistice (L41): the hexes of the east edge north-east of the
    /// line they may leave by, and the distance from where units come back to the nearest
    /// victory city they do not hold, for a unit leaving from the east edge and from Austria.
    armistice_exits: Vec<Hex>,
    back_distance: [Option<u32>; 2],
}

impl<'a> View<'a> {
    fn new(g: &'a Game, me: u8, style: Style) -> View<'a> {
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
            style,
            cities,
            supply: Vec::new(),
            enemies: Vec::new(),
            friends: Vec::new(),
            goals: Vec::new(),
            worth: HashMap::new(),
            armistice_exits: Vec::new(),
            back_distance: [None, None],
        };
        if me == 1 && g.armistice_active() && g.austria_open() {
            v.armistice_ways();
        }
        for u in g.units().iter().filter(|u| u.on_map()) {
            let arm = g.arm(u);
            let mine = u.side == me;
            if matches!(arm, Arm::Supply | Arm::Depot) && !g.is_dispersed(u) {
                if mine {
                    v.supply.push(u.hex);
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
        // the rank of each combat unit among the friendly combat units of its hex
        let mut rank: HashMap<Hex, usize> = HashMap::new();
        v.goals = (0..g.units().len())
            .map(|i| {
                let u = &g.units()[i];
                if u.side != me || !u.on_map() {
                    return None;
                }
                match g.arm(u) {
                    Arm::Infantry | Arm::Cavalry => {
                        let r = rank.entry(u.hex).or_default();
                        *r += 1;
                        v.objective(i, u.hex, *r - 1)
                    }
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

    fn enemy_adjacent(&self, h: Hex) -> bool {
        self.enemies.iter().any(|&e| self.dist(e, h) <= 1)
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

    /// The victory cities worth taking or re-occupying for a unit at `from` (not `u`).
    fn open_cities(&self, u: usize, from: Hex) -> Vec<Hex> {
        self.cities
            .iter()
            .filter(|&&(h, o)| {
                o != Some(self.me) || (self.friends_at(h, u).is_empty() && h != from)
            })
            .map(|&(h, _)| h)
            .collect()
    }

    /// Where a friendly combat unit at `from` should go (None: nowhere). `rank` is its place
    /// among the combat units of its hex: where no supply feeds them, the k-th takes the k-th
    /// nearest objective, so that a stack fans out.
    fn objective(&self, u: usize, from: Hex, rank: usize) -> Option<Hex> {
        // a lone unit holding a city of its side stays
        if self
            .cities
            .iter()
            .any(|&(h, o)| h == from && o == Some(self.me))
            && self.friends_at(from, u).is_empty()
        {
            return Some(from);
        }
        if let Some(e) = self.way_round(u, from) {
            return Some(e);
        }
        let mut wanted: Vec<Hex> = if self.style.hunt && !self.enemies.is_empty() {
            Vec::new()
        } else {
            self.open_cities(u, from)
        };
        wanted.extend(self.enemies.iter().copied());
        wanted.sort_by_key(|&h| (self.dist(from, h), h.x, h.y));
        wanted.dedup();
        let k = if self.fed(from) || self.enemy_adjacent(from) {
            0
        } else {
            rank
        };
        wanted.get(k).or(wanted.first()).copied()
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
        // Armistice (ruling L41): a unit on the enemy side of the line must withdraw in every
        // movement phase (the rules offer it only moves toward its own side, or into a
        // fortress as a garrison); without this it would stop the phase's end and leave the
        // choice to a draw among unwanted actions (forced marches among them)
        if self.g.must_withdraw(u) {
            let home = if self.g.on_own_side(self.me, to) {
                100
            } else {
                0
            };
            return 500 + home + i64::from(self.dist(from, to));
        }
        let Some(goal) = self.goals[u] else {
            return -1;
        };
        let (d0, d1) = (self.dist(from, goal), self.dist(to, goal));
        match self.g.arm(unit) {
            Arm::Infantry | Arm::Cavalry => {
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
                if d0 <= 1 || d1 >= d0 {
                    return -1;
                }
                5 * i64::from(d0 - d1)
            }
            Arm::Leader => {
                if d1 >= d0 {
                    return -1;
                }
                5 * i64::from(d0 - d1)
            }
        }
    }

    /// The chances of unit `u`'s forced march as the rules would roll it now
    /// (`Game::march_chances`: no roll where a supply unit that has not moved supports it),
    /// stopping on every letter.
    fn march_chances(&self, u: usize, triple: bool) -> MarchChances {
        self.g.march_chances(u, triple, OnLetter::Halt)
    }

    /// The chance, in 36ths, that unit `u`'s forced march ends in destruction or dispersal.
    fn march_loss(&self, u: usize, triple: bool) -> u32 {
        let ch = self.march_chances(u, triple);
        ch.destroyed + ch.dispersed
    }

    /// A forced march weighed in points of the search's evaluation: what it is expected to
    /// cost and what it is expected to gain (see [`View::march`]).
    fn march_weighed(&self, u: usize, triple: bool) -> (f64, f64) {
        let g = self.g;
        let unit = &g.units()[u];
        let worth = f64::from(g.kind(unit).worth);
        let ch = self.march_chances(u, triple);
        let p = |n: u32| f64::from(n) / 36.0;
        let division_vp = g
            .tables()
            .victory(g.scenario().victory)
            .map_or(1.0, |r| f64::from(r.division));
        // destroyed: the divisions and the enemy's points for them; dispersed: out of play
        // for a turn, unsupplied and easy prey (a quarter of their worth)
        let mut cost = worth * (p(ch.destroyed) * (0.5 + division_vp) + p(ch.dispersed) * 0.25);
        // a march a supply unit supports spends that supply unit at the end of the phase
        // (Supply (C) III): a third of a point, as the search's evaluation counts it
        if ch.completes == 36 && !g.gotha_free(unit) {
            cost += 0.33;
        }
        let Some(goal) = self.goals[u] else {
            return (cost, 0.0);
        };
        let allowance = g.allowance(unit);
        let total = if triple { 3 * allowance } else { 2 * allowance };
        let d = self.dist(unit.hex, goal);
        // it arrives when the march completes (or completes dispersed)
        let arrives = p(ch.completes + ch.dispersed);
        let city = self
            .cities
            .iter()
            .position(|&(h, o)| h == goal && o != Some(self.me))
            .filter(|_| !self.enemies.contains(&goal))
            .map(|i| {
                g.tables()
                    .victory(g.scenario().victory)
                    .map_or(0, |r| r.city(leipzig_1813::victory::CITIES[i]))
            });
        // a city taken a game-turn sooner is worth its points only when that turn matters:
        // the last one, or an enemy combat unit near enough to take it first
        let urgent = g.turn() >= g.scenario().last_turn
            || self
                .enemies
                .iter()
                .any(|&e| self.dist(e, goal) <= allowance);
        let gain = match city {
            // a victory city taken this phase that it could not reach without the march
            Some(vp) if d <= total && urgent => arrives * f64::from(vp),
            // otherwise hexes nearer its objective: a fiftieth of a point each, as the
            // search's evaluation counts them, for each of its divisions
            _ => arrives * 0.02 * worth * f64::from(d.min(total) - allowance),
        };
        (cost, gain)
    }

    /// The score of declaring a forced march (Forced March; Supply (C) III): only far from
    /// its objective, at most the style's 36ths of loss, and only when what it is expected to
    /// gain (a victory city taken this phase, or hexes nearer the objective) outweighs what
    /// it is expected to cost (divisions destroyed and the enemy's points for them, dispersal).
    fn march(&self, u: usize, triple: bool) -> i64 {
        let unit = &self.g.units()[u];
        if !self.g.arm(unit).is_combat() || unit.moved {
            return -1;
        }
        if self.march_loss(u, triple) > self.style.max_march_loss {
            return -1;
        }
        let Some(goal) = self.goals[u] else {
            return -1;
        };
        if self.dist(unit.hex, goal) <= self.g.allowance(unit) {
            return -1;
        }
        let (cost, gain) = self.march_weighed(u, triple);
        if gain <= cost {
            return -1;
        }
        // declared before the unit's first move (a unit that has moved marches no more), and
        // before a supply unit that supports it moves away
        if triple {
            401
        } else {
            400
        }
    }

    /// The score of breaking unit `u` down into `into` (Stacking (E)): one step down, away
    /// from the enemy, when more objectives lie open than the unit's counter can take.
    fn split(&self, u: usize, into: u8) -> i64 {
        let unit = &self.g.units()[u];
        if !self.style.spread
            || self.g.step() != Step::Movement
            || !self.g.arm(unit).is_combat()
            || self.g.split_kinds(u).first() != Some(&into)
            || self.enemy_adjacent(unit.hex)
        {
            return -1;
        }
        if self.spread_worth(unit.hex, self.g.allowance(unit)) {
            150
        } else {
            -1
        }
    }

    /// Whether units at `h` should spread rather than stand together: at least two victory
    /// cities the side does not hold, free of its own units and of the enemy's, lie within
    /// three moves of `allowance`.
    fn spread_worth(&self, h: Hex, allowance: u32) -> bool {
        self.style.spread
            && self
                .cities
                .iter()
                .filter(|&&(c, o)| {
                    o != Some(self.me)
                        && self
                            .g
                            .units_at(c)
                            .iter()
                            .all(|&i| self.g.units()[i].side != self.me)
                        && !self.enemies.contains(&c)
                        && self.dist(h, c) <= 3 * allowance
                })
                .count()
                >= 2
    }

    /// The score of building a unit of `kind` up at `h` (Stacking (E)): a stack next to the
    /// enemy (it attacks as one unit and needs no supply to stand), or one no supply feeds
    /// (it would be dispersed) unless its units should rather spread out.
    fn combine(&self, h: Hex, kind: u8) -> i64 {
        let n = self.friends.iter().filter(|&&f| f == h).count();
        if n < 2 {
            return -1;
        }
        let k = self.g.counters().kinds.get(usize::from(kind));
        let worth = k.map_or(0, |k| k.worth);
        let allowance = k.map_or(0, |k| k.movement);
        if self.enemy_adjacent(h) || (!self.fed(h) && !self.spread_worth(h, allowance)) {
            150 + i64::from(worth)
        } else {
            -1
        }
    }

    /// The odds of an attack from `from` on `to` (the rules' arithmetic).
    fn odds(&self, from: Hex, to: Hex) -> Option<AttackOdds> {
        attack_odds(self.g, self.me, from, &self.g.attack_targets(from, to))
    }

    /// The worst odds the stack at `h` is attacked at this combat phase (the declared
    /// combats), as the defender.
    fn threat(&self, h: Hex) -> Option<AttackOdds> {
        let attacker = 1 - self.me;
        self.g
            .combats()
            .iter()
            .filter(|c| c.targets.contains(&h))
            .filter_map(|c| attack_odds(self.g, attacker, c.from, &c.targets))
            .max_by_key(|o| (o.destroy, o.percent))
    }

    /// The score of retreating unit `u` before combat to `to` (Combat (J)).
    fn retreat(&self, u: usize, to: Hex) -> i64 {
        let unit = &self.g.units()[u];
        let Some(o) = self.threat(unit.hex) else {
            return -1;
        };
        let holds_city = self
            .cities
            .iter()
            .any(|&(h, owner)| h == unit.hex && owner == Some(self.me));
        let need = if holds_city {
            self.style.retreat_sixths + 2
        } else {
            self.style.retreat_sixths
        };
        if o.destroy < need {
            return -1;
        }
        let far = self
            .enemies
            .iter()
            .map(|&e| self.dist(e, to))
            .min()
            .unwrap_or(0);
        100 + i64::from(far) + if self.fed(to) { 10 } else { 0 }
    }

    /// The score of moving unit `u` off the east edge (ESM): only while a complete group of
    /// six divisions, a leader and a supply unit would score.
    fn exit(&self, u: usize) -> i64 {
        let g = self.g;
        if self.me == 1 {
            return self.armistice_exit(u);
        }
        if self.me != 0 || g.units()[u].side != 0 {
            return -1;
        }
        let mut have = g.exited();
        for (i, x) in g.units().iter().enumerate() {
            if x.side == 0 && x.on_map() && g.may_exit(i) {
                match g.arm(x) {
                    Arm::Infantry | Arm::Cavalry => have[0] += g.kind(x).worth,
                    Arm::Leader => have[1] += 1,
                    Arm::Supply => have[2] += 1,
                    Arm::Depot => {}
                }
            }
        }
        let groups = (have[0] / 6).min(have[1]).min(have[2]);
        if groups > g.exit_groups() {
            // before any march or move
            450
        } else {
            -1
        }
    }

    /// The score of an Allied combat unit leaving the map during the armistice (ruling L41):
    /// it returns on the far side of the French corridor (in Austria from the east edge, on
    /// the east edge from Austria) after the scenario's game-turns away. Worth it when that
    /// brings it to a victory city it does not hold sooner than walking, which cannot begin
    /// before the armistice ends (no unit crosses the line while it holds), and when it is
    /// back before the game ends.
    fn armistice_exit(&self, u: usize) -> i64 {
        let g = self.g;
        let unit = &g.units()[u];
        if !g.may_leave_in_armistice(u) || !g.arm(unit).is_combat() {
            return -1;
        }
        if self.exit_worth(u, unit.hex, 0) {
            350
        } else {
            -1
        }
    }

    /// Reads the ways round the French during the armistice (the view's `armistice_exits`
    /// and `back_distance`).
    fn armistice_ways(&mut self) {
        let b = self.g.board();
        let targets: Vec<Hex> = self
            .cities
            .iter()
            .filter(|&&(_, o)| o != Some(self.me))
            .map(|&(h, _)| h)
            .collect();
        let edge: Vec<Hex> = (0..b.len())
            .map(|i| b.hex_at(i))
            .filter(|&h| b.neighbours(h).count() < 6)
            .collect();
        let near = |h: Hex| targets.iter().map(|&t| b.distance(h, t)).min();
        // leaving from the east edge: back in Austria (its edge); from Austria: back on the
        // east edge north of Austria
        self.back_distance = [
            edge.iter()
                .filter(|&&h| b.hex(h).austria)
                .filter_map(|&h| near(h))
                .min(),
            edge.iter()
                .filter(|&&h| !b.hex(h).austria && b.hex(h).zone == 1)
                .filter_map(|&h| near(h))
                .min(),
        ];
        let east = edge.iter().map(|h| h.x).max().unwrap_or(0);
        self.armistice_exits = edge
            .into_iter()
            .filter(|h| h.x == east && b.hex(*h).zone == 1 && !b.hex(*h).austria)
            .collect();
    }

    /// Whether Allied unit `u`, standing at `at` in `turns` game-turns, should leave the map
    /// there during the armistice (ruling L41): it returns on the far side of the French
    /// corridor (in Austria from the east edge, on the east edge from Austria) after the
    /// scenario's game-turns away. Worth it when that brings it to a victory city it does not
    /// hold sooner than walking, which cannot begin before the armistice ends (no unit crosses
    /// the line while it holds), and when it is back before the game ends.
    fn exit_worth(&self, u: usize, at: Hex, turns: u32) -> bool {
        let g = self.g;
        let unit = &g.units()[u];
        let (Some(a), Some(from)) = (g.scenario().rules.armistice.as_ref(), g.armistice_called())
        else {
            return false;
        };
        let back = a.reentry_after;
        if g.turn() + turns + back >= g.scenario().last_turn {
            return false;
        }
        let allowance = g.allowance(unit).max(1);
        let hexes = |d: u32| d.div_ceil(allowance);
        let walk_d = self
            .cities
            .iter()
            .filter(|&&(_, o)| o != Some(self.me))
            .map(|&(h, _)| self.dist(unit.hex, h))
            .min();
        let from_austria = g.board().hex(at).austria;
        let (Some(walk_d), Some(back_d)) = (walk_d, self.back_distance[usize::from(from_austria)])
        else {
            return false;
        };
        let armistice_left = (from + a.turns + 1).saturating_sub(g.turn());
        let walk = armistice_left + hexes(walk_d);
        let around = turns + back + hexes(back_d);
        around < walk
    }

    /// During the armistice, an Allied combat unit's way round the French: the nearest hex of
    /// the east edge it may leave by, when leaving there is worth it ([`View::exit_worth`]).
    fn way_round(&self, u: usize, from: Hex) -> Option<Hex> {
        let g = self.g;
        if self.armistice_exits.is_empty() || g.must_withdraw(u) {
            return None;
        }
        let e = self
            .armistice_exits
            .iter()
            .copied()
            .min_by_key(|&e| (self.dist(from, e), e.x, e.y))?;
        let allowance = g.allowance(&g.units()[u]).max(1);
        let turns = self.dist(from, e).div_ceil(allowance);
        self.exit_worth(u, e, turns).then_some(e)
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
            Action::Attack { from, to } => match self.odds(from, to) {
                Some(o) if o.percent >= self.style.min_percent.max(o.floor) => {
                    200 + i64::from(o.percent / 10)
                }
                _ => -1,
            },
            Action::Supply { .. } => {
                let (allocated, combats) = self.allocation();
                if allocated < combats {
                    100
                } else {
                    -1
                }
            }
            Action::Advance { to, .. } if self.cities.iter().any(|&(h, _)| h == to) => 50,
            Action::Advance { .. } => -1,
            Action::Retreat { unit, to } => self.retreat(usize::from(unit), to),
            Action::Split { unit, into } => self.split(usize::from(unit), into),
            Action::Combine { hex, kind } => self.combine(hex, kind),
            Action::Armistice if armistice_worth(self.g) => 1_000,
            Action::Armistice => -1,
            Action::Exit { unit } => self.exit(usize::from(unit)),
            // Reconnaissance (L46): what the French have examined is turned face-down again
            // first, before any Allied unit moves and closes the window.
            Action::Hide { .. } => 900,
            #[allow(unreachable_patterns)]
            _ => -1,
        }
    }
}

/// The legal actions of the seat to act, scored by the heuristic in `style`, best first (the
/// rules' order among equals). Empty at a chance event or the end.
pub fn scored_with(g: &Game, style: Style) -> Vec<(i64, Action)> {
    let ToAct::Side(me) = g.to_act() else {
        return Vec::new();
    };
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let view = View::new(g, me.0, style);
    let mut out: Vec<(i64, Action)> = legal.into_iter().map(|a| (view.score(a), a)).collect();
    out.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    out
}

/// [`scored_with`] in the steady style.
pub fn scored(g: &Game) -> Vec<(i64, Action)> {
    scored_with(g, Style::STEADY)
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
    if best <= 0 {
        // nothing is worth doing and the step may not end yet (a rule asks for an action):
        // never a forced march by default, whose die may destroy the unit
        if let Some(&(_, a)) = scored
            .iter()
            .find(|&&(s, a)| s == best && !matches!(a, Action::March { .. }))
        {
            return a;
        }
    }
    let ties = scored.iter().take_while(|&&(s, _)| s == best).count();
    let i = dice.draw(&vec![1; ties]).unwrap_or(0);
    scored.get(i).map_or(first, |&(_, a)| a)
}

/// What identifies a step of play: the game-turn, the player-turn's side, the step.
pub type StepKey = (u32, u8, Step);

/// The key of the step `g` stands in.
pub fn step_key(g: &Game) -> StepKey {
    (g.turn(), g.player(), g.step())
}

/// The actions `style`'s heuristic (its tie-breaks drawn from `dice`) plays from `g` while the
/// same seat acts in the same step (up to a chance event), at most 600.
pub fn step_plan(g: &Game, style: Style, dice: &mut Dice) -> Vec<Action> {
    let ToAct::Side(me) = g.to_act() else {
        return Vec::new();
    };
    let key = step_key(g);
    let mut s = g.clone();
    let mut plan = Vec::new();
    while s.to_act() == ToAct::Side(me) && step_key(&s) == key && plan.len() < 600 {
        let a = pick(&scored_with(&s, style), dice);
        if s.check(a).is_err() {
            break;
        }
        s.apply_unchecked(a);
        plan.push(a);
        if a == Action::End {
            break;
        }
    }
    plan
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One plain sentence for a step's plan played from `g`: what it does and the numbers it
/// used (the odds of each attack, the chance of loss of each forced march, the odds a retreat
/// avoids).
pub fn describe(g: &Game, style: Style, plan: &[Action]) -> String {
    let ToAct::Side(me) = g.to_act() else {
        return String::new();
    };
    let me = me.0;
    let view = View::new(g, me, style);
    let mut s = g.clone();
    let (mut moves, mut splits, mut combines, mut supply) = (0usize, 0usize, 0usize, 0usize);
    let mut marches = Vec::new();
    let mut attacks = Vec::new();
    let mut retreats = Vec::new();
    let mut placed = 0usize;
    let mut other = Vec::new();
    let mut goals: Vec<String> = Vec::new();
    for &a in plan {
        match a {
            Action::Move { unit, .. } => {
                moves += 1;
                if let Some(h) = view.goals.get(usize::from(unit)).copied().flatten() {
                    let name = h.to_string();
                    if !goals.contains(&name) {
                        goals.push(name);
                    }
                }
            }
            Action::Place { .. } => placed += 1,
            Action::Split { .. } => splits += 1,
            Action::Combine { .. } => combines += 1,
            Action::Supply { .. } => supply += 1,
            Action::March { unit, triple } => {
                let v = View::new(&s, me, style);
                marches.push(format!(
                    "{} {} ({}/36 of destruction or dispersal)",
                    s.label(usize::from(unit)),
                    if triple { "triple" } else { "double" },
                    v.march_loss(usize::from(unit), triple)
                ));
            }
            Action::Attack { from, to } => {
                if let Some(o) = attack_odds(&s, me, from, &s.attack_targets(from, to)) {
                    attacks.push(format!("{from} on {to}: {}", o.words()));
                }
            }
            Action::Retreat { unit, to } => {
                let v = View::new(&s, me, style);
                let u = usize::from(unit);
                if let Some(o) = v.threat(s.units()[u].hex) {
                    retreats.push(format!(
                        "{} to {to}, away from an attack at {}% ({}/6 to be destroyed if it \
                         stands)",
                        s.label(u),
                        o.percent,
                        o.destroy
                    ));
                }
            }
            Action::Armistice => other
                .push("calls the armistice to avert the German rebellion (Armistice)".to_string()),
            Action::Exit { .. } if me == 1 => other.push(
                "leaves the map during the armistice to come back on the far side of the French \
                 (Armistice, L41)"
                    .into(),
            ),
            Action::Exit { .. } => {
                other.push("moves a complete group off the east edge (ESM)".into())
            }
            Action::Overrun { from, to } => {
                other.push(format!("overruns {to} from {from} at 500% (CRT Auto)"))
            }
            Action::Advance { from, to } => {
                other.push(format!("advances from {from} into the city at {to}"))
            }
            _ => {}
        }
        if s.check(a).is_err() {
            break;
        }
        s.apply_unchecked(a);
    }
    let mut parts = Vec::new();
    parts.extend(other);
    if placed > 0 {
        parts.push(format!(
            "places {} toward the victory cities it does not hold",
            plural(placed, "unit", "units")
        ));
    }
    if combines > 0 {
        parts.push(format!(
            "builds up {} so that no supply is spent on stacks",
            plural(combines, "unit", "units")
        ));
    }
    if splits > 0 {
        parts.push(format!(
            "breaks {} down to spread over the open objectives",
            plural(splits, "unit", "units")
        ));
    }
    if moves > 0 {
        goals.truncate(4);
        parts.push(format!(
            "makes {} toward {}",
            plural(moves, "move", "moves"),
            goals.join(", ")
        ));
    }
    if !marches.is_empty() {
        parts.push(format!("forced-marches {}", marches.join("; ")));
    }
    if !attacks.is_empty() {
        parts.push(format!(
            "attacks {} (it attacks at {}% or better)",
            attacks.join("; "),
            style.min_percent
        ));
    }
    if supply > 0 {
        parts.push(format!(
            "allocates {} to its combats",
            plural(supply, "supply unit", "supply units")
        ));
    }
    if !retreats.is_empty() {
        parts.push(format!("retreats {} before combat", retreats.join("; ")));
    }
    let step = match g.step() {
        Step::Setup => "Set-up",
        Step::Movement => "Movement",
        Step::Attack => "Attacks",
        Step::Retreat => "Retreat before combat",
        Step::DefenceSupply => "Defence",
        _ => "Step",
    };
    if parts.is_empty() {
        let none = match g.step() {
            Step::Attack => format!("no attack at {}% or better", style.min_percent),
            Step::Retreat => "every stack stands: no attack threatens destruction enough".into(),
            _ => "nothing worth doing".into(),
        };
        format!("{step} ({} style): {none}.", style.name)
    } else {
        format!("{step} ({} style): {}.", style.name, parts.join("; "))
    }
}

/// Leipzig 1813's heuristic player (see the module's text), seeded for its tie-breaks.
pub struct L1813Heuristic {
    dice: Dice,
    /// Its seed (the determinizations' draws mix it with the public step).
    seed: u64,
    style: Style,
    /// Say the plan of each step (off in rollouts).
    explaining: bool,
    key: Option<StepKey>,
    last: Option<String>,
}

impl L1813Heuristic {
    /// A heuristic player (steady style) whose tie-breaks follow `seed`.
    pub fn new(seed: u64) -> L1813Heuristic {
        L1813Heuristic::styled(Style::STEADY, seed)
    }

    /// A heuristic player of a style.
    pub fn styled(style: Style, seed: u64) -> L1813Heuristic {
        L1813Heuristic {
            dice: Dice::new(seed),
            seed,
            style,
            explaining: true,
            key: None,
            last: None,
        }
    }

    /// The same player without explanations (for rollouts: no planning ahead).
    pub fn quiet(mut self) -> L1813Heuristic {
        self.explaining = false;
        self
    }

    /// Its name for reports.
    pub fn name(&self) -> String {
        "heuristic".into()
    }

    /// Its style.
    pub fn style(&self) -> Style {
        self.style
    }

    /// A plain sentence for the last choice when it began a step's plan ([`describe`]),
    /// `None` for the actions that carry it out.
    pub fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    /// Chooses an action of the seat to act in `g` (`end` when none is to act) from what that
    /// seat may know: on a determinization where it may not examine every unit
    /// ([`super::on_seen`]).
    pub fn choose(&mut self, g: &Game) -> Action {
        let seed = self.seed;
        super::on_seen(g, seed, |view| self.choose_in(view))
    }

    /// Chooses an action of the seat to act in `g` reading all of `g` (a rollout's world, or
    /// a determinization already made).
    pub fn choose_in(&mut self, g: &Game) -> Action {
        self.last = None;
        if self.explaining && matches!(g.to_act(), ToAct::Side(_)) {
            let key = step_key(g);
            if self.key != Some(key) {
                self.key = Some(key);
                // the plan as it will be played: the same tie-breaks, on a copy of the dice
                let plan = step_plan(g, self.style, &mut self.dice.clone());
                self.last = Some(describe(g, self.style, &plan));
            }
        }
        pick(&scored_with(g, self.style), &mut self.dice)
    }
}
