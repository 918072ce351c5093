//! Combat (7.0), artillery (8.0) and night (10.1): declaring combats, odds, the Combat
//! Results Table, retreats, displacement and advance after combat.

use crate::game::{Combat, Game, Loc, Resolution, Step, NO_COMBAT};
use crate::scenario::UnitType;
use crate::tables::{crt, probabilities, Column, CombatResult};
use crate::Opponent;
use crate::{Action, Elimination, Event, UnitId, UnitSet};
use engine::{Refusal, Side};
use hexmap::{line_of_sight, Dir, Hex, LosStep};

/// The odds of a combat, as a player sees them before rolling.
#[derive(Clone, Debug, PartialEq)]
pub struct OddsPreview {
    /// Total attack strength (7.22).
    pub attack: u32,
    /// Total defence strength after terrain (7.4).
    pub defence: u32,
    /// The column the strengths give.
    pub column: Column,
    /// Why defenders are doubled, if any are (`1522: town (9.0)`).
    pub terrain: Vec<String>,
    /// Probability of each result, in [`CombatResult::ALL`] order.
    pub probabilities: [f64; 5],
}

/// A declared combat, for display.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatView {
    /// Attacking units.
    pub attackers: Vec<UnitId>,
    /// Bombarding artillery among them (8.14).
    pub bombarding: Vec<UnitId>,
    /// Defending units.
    pub defenders: Vec<UnitId>,
    /// Odds now.
    pub odds: OddsPreview,
    /// Already resolved (its result carried out to the end).
    pub resolved: bool,
    /// Once its die has been rolled: the odds as they stood then, the column used and the
    /// result (the combat being carried out, or resolved).
    pub rolled: Option<Rolled>,
}

/// A combat whose die has been rolled, as it stood at the roll (7.6).
#[derive(Clone, Debug, PartialEq)]
pub struct Rolled {
    /// The odds the strengths gave at the roll.
    pub odds: OddsPreview,
    /// The column it was resolved at: `odds.column`, or a lower one the attacker chose (7.9).
    pub column: Column,
    /// The die.
    pub die: u8,
    /// The result.
    pub result: CombatResult,
}

/// The declared combats with one more attack in them, without copying them: `changed`
/// replaces the combat at `at` (or follows the others, a new combat).
#[derive(Clone, Copy)]
struct Declared<'a> {
    combats: &'a [Combat],
    changed: Combat,
    at: usize,
}

impl<'a> Declared<'a> {
    /// The combats in order.
    fn iter(self) -> impl Iterator<Item = Combat> + 'a {
        let n = self.combats.len().max(self.at + 1);
        (0..n).map(move |i| {
            if i == self.at {
                self.changed
            } else {
                self.combats[i]
            }
        })
    }
}

/// An obligation of the combat phase (7.11, 7.12, 8.41): what a unit must still do before the
/// phasing player may finish declaring attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObligationKind {
    /// 7.11: an enemy unit in a friendly zone of control must be attacked.
    MustBeAttacked,
    /// 7.12: a phasing unit in an enemy zone of control must attack.
    MustAttack,
    /// 8.41: phasing artillery in an enemy zone of control must attack.
    ArtilleryMustFire,
}

impl ObligationKind {
    /// The rule case, as refusals and views print it (`"7.11"`).
    pub fn case(self) -> &'static str {
        match self {
            ObligationKind::MustBeAttacked => "7.11",
            ObligationKind::MustAttack => "7.12",
            ObligationKind::ArtilleryMustFire => "8.41",
        }
    }

    /// The obligation a declaration would strand: 7.12 for an attacker (artillery included:
    /// joining an attack meets 8.41 too), 7.11 for a defender.
    fn of_isolated(attacker: bool) -> ObligationKind {
        if attacker {
            ObligationKind::MustAttack
        } else {
            ObligationKind::MustBeAttacked
        }
    }
}

impl std::fmt::Display for ObligationKind {
    /// The rule case.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.case())
    }
}

/// Retreat options of one unit: vacant hexes, or else hexes of friends it may displace.
struct RetreatOptions {
    vacant: Vec<Hex>,
    displace: Vec<Hex>,
}

impl Game {
    fn is_artillery(&self, u: UnitId) -> bool {
        self.sc.units[u.0 as usize].kind == UnitType::Artillery
    }

    fn strength(&self, u: UnitId) -> u32 {
        self.sc.units[u.0 as usize].strength as u32
    }

    /// True when artillery at `from` sees `to` (8.31-8.35).
    pub fn line_of_sight_clear(&self, from: Hex, to: Hex) -> bool {
        let map = &self.sc.map;
        let blocks_sight = |h| self.sc.chart.blocks_sight(map.terrain(h));
        line_of_sight(from, to).into_iter().all(|s| match s {
            // 8.31, 8.33
            LosStep::Hex(h) => !blocks_sight(h),
            // 8.32: along a hexside, blocked only if both hexes block
            LosStep::Hexside(a, b) => !(blocks_sight(a) && blocks_sight(b)),
        })
    }

    /// The hexes an artillery unit could bombard this phase (8.11: two hexes; 8.31: a clear
    /// line of sight at two hexes; 8.42: adjacent only while in an enemy zone of control);
    /// empty for other units and units off the map. For display: the declaration's own check
    /// decides.
    pub fn bombard_range(&self, u: UnitId) -> Vec<Hex> {
        let Some(a) = self.hex_of(u) else {
            return Vec::new();
        };
        if !self.is_artillery(u) {
            return Vec::new();
        }
        let reach = if self.in_enemy_zoc(u) { 1 } else { 2 }; // 8.42, 8.11
        let map = &self.sc.map;
        let mut out = Vec::new();
        for x in 1..=map.width() {
            for y in 1..=map.height() {
                let h = Hex::new(x, y);
                let d = a.distance(h);
                if d >= 1 && d <= reach && (d == 1 || self.line_of_sight_clear(a, h)) {
                    out.push(h);
                }
            }
        }
        out
    }

    /// Would `u` attack `target` by bombardment (8.1) rather than adjacently?
    fn bombards(&self, u: UnitId) -> bool {
        self.is_artillery(u) && !self.in_enemy_zoc(u)
    }

    /// Checks that `u` could attack `target` at all, ignoring other declarations.
    fn check_reach(&self, u: UnitId, target: UnitId) -> Result<(), Refusal> {
        let (Some(a), Some(d)) = (self.hex_of(u), self.hex_of(target)) else {
            return Game::refuse("7.15", "both units must be on the map");
        };
        let map = &self.sc.map;
        let dist = a.distance(d);
        if self.is_artillery(u) {
            if self.in_enemy_zoc(u) {
                // 8.41, 8.42
                if dist != 1 {
                    return Game::refuse(
                        "8.42",
                        format!(
                            "{} is in an enemy zone of control and may attack only adjacent units",
                            self.id(u)
                        ),
                    );
                }
                if self.sc.chart.unbridged_river(map.hexside_between(a, d)) {
                    return Game::refuse("9.0", "no attack across a river except at a bridge");
                }
                return Ok(());
            }
            if dist > 2 {
                return Game::refuse(
                    "8.11",
                    format!(
                        "{} is {dist} hexes from {}: artillery reaches two",
                        self.id(u),
                        d
                    ),
                );
            }
            if dist == 2 && !self.line_of_sight_clear(a, d) {
                return Game::refuse(
                    "8.31",
                    format!("forest or town blocks the line of sight from {a} to {d}"),
                );
            }
            return Ok(()); // 8.45: bombardment may cross a river
        }
        if dist != 1 {
            return Game::refuse(
                "7.15",
                format!("{} is not adjacent to {}", self.id(u), self.id(target)),
            );
        }
        if self.sc.chart.unbridged_river(map.hexside_between(a, d)) {
            return Game::refuse("9.0", "no attack across a river hexside except at a bridge (8.45: artillery may bombard across)");
        }
        Ok(())
    }

    /// True when a non-bombarding attacker at `a` may engage the defender at `d`.
    fn engages(&self, a: Hex, d: Hex) -> bool {
        a.distance(d) == 1
            && !self
                .sc
                .chart
                .unbridged_river(self.sc.map.hexside_between(a, d))
    }

    pub(crate) fn check_attack(&self, u: UnitId, target: UnitId) -> Result<(), Refusal> {
        self.check_attack_shape(u, target)?;
        let open = self.open_obligations();
        let partners = self.open_partners(&open);
        if let Some((x, case)) = self.attack_strands(u, target, &open, &partners) {
            let why = if case == ObligationKind::MustBeAttacked {
                format!(
                    "after this, {} could no longer be attacked by anyone, yet it must be (7.11)",
                    self.id(x)
                )
            } else {
                format!(
                    "after this, {} could no longer attack anyone, yet it must (7.12)",
                    self.id(x)
                )
            };
            return Game::refuse(case.case(), why);
        }
        Ok(())
    }

    /// True when the units of hexes `a` and `d` can engage each other: adjacent, not across an
    /// unbridged river (either way round: the relation is symmetric).
    fn units_engage(&self, a: UnitId, d: UnitId) -> bool {
        match (self.hex_of(a), self.hex_of(d)) {
            (Some(x), Some(y)) => self.engages(x, y),
            _ => false,
        }
    }

    /// For each obligation of `open`, how many obligations of `open` of the other side it can
    /// engage (its possible partners in a new combat).
    fn open_partners(&self, open: &[(UnitId, ObligationKind)]) -> Vec<u16> {
        open.iter()
            .map(|&(x, _)| {
                open.iter()
                    .filter(|&&(y, _)| {
                        self.side_of(y) != self.side_of(x) && self.units_engage(x, y)
                    })
                    .count() as u16
            })
            .collect()
    }

    /// The obligation (7.11, 7.12) that declaring `u`'s attack on `target` would strand, if
    /// any; `open` is [`Game::open_obligations`] of the declarations as they stand and
    /// `partners` its [`Game::open_partners`] (found once for every candidate declaration).
    fn attack_strands(
        &self,
        u: UnitId,
        target: UnitId,
        open: &[(UnitId, ObligationKind)],
        partners: &[u16],
    ) -> Option<(UnitId, ObligationKind)> {
        // the two units join a combat: their obligations are met
        let still_open = |x: UnitId| x != u && x != target;
        if !open.iter().any(|&(x, _)| still_open(x)) {
            return None;
        }
        // partners that are no longer open: u and target, where they were
        let leaving: Vec<UnitId> = [u, target]
            .into_iter()
            .filter(|&z| open.iter().any(|&(y, _)| y == z))
            .collect();
        let paired = |k: usize, x: UnitId| {
            let lost = leaving
                .iter()
                .filter(|&&z| self.side_of(z) != self.side_of(x) && self.units_engage(x, z))
                .count() as u16;
            partners[k] > lost
        };
        // the declarations as they would stand after this one (without copying the game)
        let (changed, c) = self.declared_after(u, target);
        let declared = Declared {
            combats: &self.combats,
            changed,
            at: c as usize,
        };
        let combat_of = |x: UnitId| {
            if x == u || x == target {
                c
            } else {
                self.units[x.0 as usize].combat
            }
        };
        self.stranded_obligation(open, still_open, paired, declared, combat_of)
    }

    /// The combat `u` and `target` are in after `u` declares an attack on `target` (7.1, 7.2:
    /// joining the combat either is already in, or a new one), and its index.
    fn declared_after(&self, u: UnitId, target: UnitId) -> (Combat, u8) {
        let uc = self.units[u.0 as usize].combat;
        let tc = self.units[target.0 as usize].combat;
        let c = if uc != NO_COMBAT {
            uc
        } else if tc != NO_COMBAT {
            tc
        } else {
            self.combats.len() as u8
        };
        let mut cm = self.combats.get(c as usize).copied().unwrap_or(Combat {
            attackers: UnitSet::EMPTY,
            defenders: UnitSet::EMPTY,
            bombard: UnitSet::EMPTY,
            resolved: false,
        });
        cm.attackers.insert(u);
        if self.bombards(u) {
            cm.bombard.insert(u);
        }
        cm.defenders.insert(target);
        (cm, c)
    }

    /// An obligation (7.11, 7.12) that no completion of the current declarations can meet.
    /// Unassigned obligated units that can engage each other can always be paired off (an edge
    /// cover of their contact graph is a set of stars, and every star is a legal combat); the
    /// others must join existing combats, and a combat cannot take both a new attacker and a
    /// new defender that cannot engage each other.
    ///
    /// `declared` and `combat_of` are the declarations to judge (the game's own plus one
    /// more), the obligations of `open` for which `still_open` holds those they leave open,
    /// and `paired(k, x)` tells whether the `k`-th of `open`, `x`, can engage another of
    /// those left open.
    fn stranded_obligation(
        &self,
        open: &[(UnitId, ObligationKind)],
        still_open: impl Fn(UnitId) -> bool,
        paired: impl Fn(usize, UnitId) -> bool,
        declared: Declared<'_>,
        combat_of: impl Fn(UnitId) -> u8,
    ) -> Option<(UnitId, ObligationKind)> {
        let me = self.phasing();
        let engage = |a: UnitId, d: UnitId| self.units_engage(a, d);
        // (unit, is an attacker, combats it could join, free batteries that could bombard it)
        let mut isolated: Vec<(UnitId, bool, Vec<usize>, Vec<UnitId>)> = Vec::new();
        for (k, &(x, _)) in open.iter().enumerate() {
            if !still_open(x) {
                continue;
            }
            let attacker = self.side_of(x) == me;
            if paired(k, x) {
                continue;
            }
            let mut options = Vec::new();
            for (ci, c) in declared.iter().enumerate() {
                let ok = if attacker {
                    c.defenders.iter().all(|d| engage(x, d))
                } else {
                    let adj: Vec<UnitId> = c
                        .attackers
                        .iter()
                        .filter(|&a| !c.bombard.contains(a))
                        .collect();
                    !adj.is_empty() && adj.iter().all(|&a| engage(a, x))
                };
                if ok {
                    options.push(ci);
                }
            }
            // free artillery could bombard it instead, one hex per battery (8.13)
            let guns: Vec<UnitId> = if attacker {
                Vec::new()
            } else {
                self.unit_ids()
                    .filter(|&a| {
                        self.side_of(a) == me
                            && combat_of(a) == NO_COMBAT
                            && self.bombards(a)
                            && self.check_reach(a, x).is_ok()
                    })
                    .collect()
            };
            if options.is_empty() && guns.is_empty() {
                return Some((x, ObligationKind::of_isolated(attacker)));
            }
            isolated.push((x, attacker, options, guns));
        }
        if isolated.is_empty() {
            return None;
        }
        // Each combat takes new attackers or new defenders, not both (an isolated attacker
        // cannot engage an isolated defender): look for such a labelling of the combats. Units
        // that share a combat or a battery decide together; the groups are independent, so
        // each is searched alone and the search is exact whatever the number of combats.
        let n = isolated.len();
        let mut group: Vec<usize> = (0..n).collect();
        fn root(g: &mut [usize], mut i: usize) -> usize {
            while g[i] != i {
                g[i] = g[g[i]];
                i = g[i];
            }
            i
        }
        for i in 0..n {
            for j in 0..i {
                let (a, b) = (&isolated[i], &isolated[j]);
                if a.2.iter().any(|c| b.2.contains(c)) || a.3.iter().any(|x| b.3.contains(x)) {
                    let (ri, rj) = (root(&mut group, i), root(&mut group, j));
                    group[ri] = rj;
                }
            }
        }
        let choices: Vec<Choice<'_>> = isolated
            .iter()
            .map(|(_, attacker, o, guns)| Choice {
                attacker: *attacker,
                options: o,
                guns,
            })
            .collect();
        for i in 0..n {
            if root(&mut group, i) != i {
                continue;
            }
            let members: Vec<usize> = (0..n).filter(|&k| root(&mut group, k) == i).collect();
            if !labelling_exists(&choices, &members) {
                let (x, attacker, _, _) = &isolated[members[0]];
                return Some((*x, ObligationKind::of_isolated(*attacker)));
            }
        }
        None
    }

    fn check_attack_shape(&self, u: UnitId, target: UnitId) -> Result<(), Refusal> {
        let n = self.units.len();
        if u.0 as usize >= n || target.0 as usize >= n {
            return Game::refuse("7.0", "no such unit");
        }
        if self.side_of(u) != self.phasing() {
            return Game::refuse(
                "7.0",
                format!("{} is not the phasing player's unit", self.id(u)),
            );
        }
        if self.side_of(target) == self.phasing() {
            return Game::refuse("7.0", format!("{} is a friendly unit", self.id(target)));
        }
        self.check_reach(u, target)?;
        let uc = self.units[u.0 as usize].combat;
        let tc = self.units[target.0 as usize].combat;
        match (uc == NO_COMBAT, tc == NO_COMBAT) {
            (true, true) => Ok(()),
            (true, false) => {
                let c = &self.combats[tc as usize];
                if !self.bombards(u) {
                    let a = self.hex_of(u).unwrap_or_default();
                    if let Some(d) = c.defenders.iter().find(|&d| !self.engages(a, self.hex_of(d).unwrap_or_default())) {
                        return Game::refuse(
                            "7.2",
                            format!(
                                "{} would join the attack on {}, but every attacker must be adjacent to every defending hex of its combat, and it cannot engage {}",
                                self.id(u),
                                self.id(target),
                                self.id(d)
                            ),
                        );
                    }
                }
                Ok(())
            }
            (false, true) => {
                let c = &self.combats[uc as usize];
                let adjacent: Vec<UnitId> = c.attackers.iter().filter(|&a| !c.bombard.contains(a)).collect();
                if adjacent.is_empty() {
                    return Game::refuse("8.13", "bombarding artillery alone attacks a single hex");
                }
                let d = self.hex_of(target).unwrap_or_default();
                if let Some(a) = adjacent.iter().find(|&&a| !self.engages(self.hex_of(a).unwrap_or_default(), d)) {
                    return Game::refuse(
                        "7.2",
                        format!("{} cannot engage {}, and every attacker must be adjacent to every defending hex of its combat", self.id(*a), self.id(target)),
                    );
                }
                Ok(())
            }
            (false, false) if uc == tc => {
                Game::refuse("7.14", format!("{} already attacks {}", self.id(u), self.id(target)))
            }
            (false, false) => Game::refuse(
                "7.14",
                format!(
                    "{} already attacks in another combat and {} is already attacked: no unit attacks or is attacked twice",
                    self.id(u),
                    self.id(target)
                ),
            ),
        }
    }

    pub(crate) fn apply_attack(&mut self, u: UnitId, target: UnitId) {
        let (changed, c) = self.declared_after(u, target);
        if c as usize == self.combats.len() {
            self.combats.push(changed);
        } else {
            self.combats[c as usize] = changed;
        }
        self.units[u.0 as usize].combat = c;
        self.units[target.0 as usize].combat = c;
        self.sync_unit(u);
        self.sync_unit(target);
    }

    /// 7.11, 7.12, 8.41: the obligations still open in the current declarations.
    pub fn open_obligations(&self) -> Vec<(UnitId, ObligationKind)> {
        let me = self.phasing();
        let mut v = Vec::new();
        for u in self.unit_ids() {
            let Some(h) = self.hex_of(u) else { continue };
            if self.units[u.0 as usize].combat != NO_COMBAT {
                continue;
            }
            let side = self.side_of(u);
            if self.controlled_by(side.other(), h) {
                if side == me {
                    v.push((
                        u,
                        if self.is_artillery(u) {
                            ObligationKind::ArtilleryMustFire // 8.41
                        } else {
                            ObligationKind::MustAttack // 7.12
                        },
                    ));
                } else {
                    v.push((u, ObligationKind::MustBeAttacked)); // 7.11
                }
            }
        }
        v
    }

    pub(crate) fn check_declarations_complete(&self) -> Result<(), Refusal> {
        if let Some(&(u, case)) = self.open_obligations().first() {
            let why = match case {
                ObligationKind::MustBeAttacked => format!(
                    "{} is in a friendly zone of control and must be attacked this phase",
                    self.id(u)
                ),
                ObligationKind::ArtilleryMustFire => format!(
                    "the artillery {} is adjacent to the enemy and must attack",
                    self.id(u)
                ),
                ObligationKind::MustAttack => format!(
                    "{} is in an enemy zone of control and must attack this phase",
                    self.id(u)
                ),
            };
            return Game::refuse(case.case(), why);
        }
        Ok(())
    }

    pub(crate) fn end_declarations(&mut self) {
        if self.combats.is_empty() {
            self.end_player_turn();
        } else {
            self.step = Step::Choose;
        }
    }

    pub(crate) fn declare_actions(&self, out: &mut Vec<Action>) {
        let me = self.phasing();
        let open = self.open_obligations();
        let partners = self.open_partners(&open);
        for u in self.unit_ids() {
            if self.side_of(u) != me {
                continue;
            }
            let Some(a) = self.hex_of(u) else { continue };
            let art = self.is_artillery(u);
            let mut consider = |t: UnitId| {
                // check_attack, with the open obligations found once for all candidates
                if self.side_of(t) != me
                    && self.check_attack_shape(u, t).is_ok()
                    && self.attack_strands(u, t, &open, &partners).is_none()
                {
                    out.push(Action::Attack { unit: u, target: t });
                }
            };
            if art {
                for t in self.unit_ids() {
                    if self.hex_of(t).is_some_and(|d| d.distance(a) <= 2) {
                        consider(t);
                    }
                }
            } else {
                // the units of the six neighbouring hexes (by the precomputed table)
                let occ = self.occ.cells();
                let mut near: [Option<UnitId>; 6] = [None; 6];
                if let Some(ai) = self.occ.index(a) {
                    for (slot, &n) in near.iter_mut().zip(&self.sc.steps.adj[ai]) {
                        *slot = occ
                            .get(n as usize)
                            .and_then(|&v| v.checked_sub(1))
                            .map(UnitId);
                    }
                }
                // in unit order (None sorts first and is skipped)
                near.sort_unstable();
                for t in near.into_iter().flatten() {
                    consider(t);
                }
            }
        }
        if open.is_empty() {
            // check_declarations_complete
            out.push(Action::End);
        }
    }

    /// The defence of one defender in a combat, doubled by terrain (7.4, 9.0: never more than
    /// doubled), with the reason.
    fn defence_of(&self, d: UnitId, attackers: UnitSet, bombard: UnitSet) -> (u32, Option<String>) {
        let s = self.strength(d);
        let Some(h) = self.hex_of(d) else {
            return (s, None);
        };
        let map = &self.sc.map;
        if self.sc.chart.doubles_defender(map.terrain(h)) {
            return (
                2 * s,
                Some(format!(
                    "{h}: {} doubles the defender (9.0)",
                    map.terrain_kind(h).id
                )),
            );
        }
        let mut sides = Vec::new();
        for a in attackers.iter() {
            if bombard.contains(a) {
                continue; // the ruling: bombarding artillery counts neither way
            }
            if let Some(ah) = self.hex_of(a) {
                if ah.distance(h) == 1 {
                    sides.push((ah, map.hexside_between(ah, h)));
                }
            }
        }
        if sides.is_empty() {
            return (s, None);
        }
        if sides
            .iter()
            .all(|(_, x)| x.any(self.sc.chart.stream.with(self.sc.chart.bridge)))
        {
            return (
                2 * s,
                Some(format!(
                    "{h}: attacked only across streams or bridges (9.0)"
                )),
            );
        }
        if sides
            .iter()
            .all(|(ah, x)| x.any(self.sc.chart.slope) && map.is_slope_hex(*ah))
        {
            return (
                2 * s,
                Some(format!(
                    "{h}: attacked only up slope hexsides from slope hexes (9.0)"
                )),
            );
        }
        (s, None)
    }

    /// The odds of `attackers` (with `bombard` among them) against `defenders` as things stand.
    pub fn odds_of(&self, attackers: UnitSet, bombard: UnitSet, defenders: UnitSet) -> OddsPreview {
        let attack: u32 = attackers.iter().map(|a| self.strength(a)).sum();
        let mut defence = 0;
        let mut terrain = Vec::new();
        for d in defenders.iter() {
            let (s, why) = self.defence_of(d, attackers, bombard);
            defence += s;
            terrain.extend(why);
        }
        let column = Column::of(attack, defence);
        OddsPreview {
            attack,
            defence,
            column,
            terrain,
            probabilities: probabilities(column),
        }
    }

    /// The combats declared this phase.
    pub fn combats(&self) -> Vec<CombatView> {
        self.combats
            .iter()
            .enumerate()
            .map(|(i, c)| CombatView {
                attackers: c.attackers.iter().collect(),
                bombarding: c.bombard.iter().collect(),
                defenders: c.defenders.iter().collect(),
                odds: self.odds_of(c.attackers, c.bombard, c.defenders),
                resolved: c.resolved,
                rolled: self
                    .rolled
                    .iter()
                    .flat_map(|r| r.iter())
                    .find(|(k, _)| *k as usize == i)
                    .map(|(_, r)| r.clone()),
            })
            .collect()
    }

    fn combat_of_target(&self, target: UnitId) -> Option<usize> {
        let c = *self.units.get(target.0 as usize).map(|s| &s.combat)?;
        (c != NO_COMBAT).then_some(c as usize)
    }

    pub(crate) fn check_resolve(
        &self,
        target: UnitId,
        column: Option<Column>,
    ) -> Result<(), Refusal> {
        let Some(c) = self.combat_of_target(target) else {
            return Game::refuse("7.0", "no declared combat includes that unit");
        };
        let cm = &self.combats[c];
        if cm.resolved {
            return Game::refuse("7.14", "that combat has been resolved");
        }
        if cm.defenders.first() != Some(target) {
            return Game::refuse("7.0", "name a combat by its first defender");
        }
        if let Some(col) = column {
            let now = self.odds_of(cm.attackers, cm.bombard, cm.defenders).column;
            if col >= now {
                return Game::refuse(
                    "7.9",
                    format!(
                        "the odds are {}; they may only be reduced, not raised to {}",
                        now.name(),
                        col.name()
                    ),
                );
            }
        }
        Ok(())
    }

    pub(crate) fn choose_actions(&self, out: &mut Vec<Action>) {
        for c in &self.combats {
            if c.resolved {
                continue;
            }
            let Some(t) = c.defenders.first() else {
                continue;
            };
            out.push(Action::Resolve {
                target: t,
                column: None,
            });
            let now = self.odds_of(c.attackers, c.bombard, c.defenders).column;
            for k in 0..now.0 {
                out.push(Action::Resolve {
                    target: t,
                    column: Some(Column(k)),
                });
            }
        }
    }

    pub(crate) fn apply_resolve(&mut self, target: UnitId, column: Option<Column>) {
        let c = self.units[target.0 as usize].combat;
        self.res = Resolution {
            combat: c,
            column,
            ..Resolution::default()
        };
        self.step = Step::Roll;
    }

    pub(crate) fn apply_roll(&mut self, die: u8) {
        let ci = self.res.combat as usize;
        let cm = self.combats[ci];
        let odds = self.odds_of(cm.attackers, cm.bombard, cm.defenders);
        let column = self.res.column.map_or(odds.column, |c| c.min(odds.column));
        let result = crt(column, die);
        self.res.column = Some(column);
        self.res.die = die;
        self.res.result = Some(result);
        self.res.bombard = cm.bombard;
        let rolled = self.rolled.get_or_insert_with(Default::default);
        std::sync::Arc::make_mut(rolled).push((
            ci as u8,
            Rolled {
                odds: odds.clone(),
                column,
                die,
                result,
            },
        ));
        self.event(Event::Combat {
            attackers: cm.attackers,
            defenders: cm.defenders,
            attack: odds.attack,
            defence: odds.defence,
            column,
            die,
            result,
        }); // 7.6
        let adjacent = UnitSet::of(cm.attackers.iter().filter(|&a| !cm.bombard.contains(a)));
        let hexes = |s: UnitSet, g: &Game| s.iter().filter_map(|u| g.hex_of(u)).collect::<Vec<_>>();
        let me = self.phasing();
        match result {
            CombatResult::Ae => {
                self.res.losing_hexes = hexes(adjacent, self);
                self.res.victor = Some(me.other());
                for a in adjacent.iter() {
                    self.eliminate(a, Elimination::AttackerEliminated);
                }
                self.check_demoralization(None);
                self.begin_advance();
            }
            CombatResult::De => {
                self.res.losing_hexes = hexes(cm.defenders, self);
                self.res.victor = Some(me);
                for d in cm.defenders.iter() {
                    self.eliminate(d, Elimination::DefenderEliminated);
                }
                self.check_demoralization(None);
                self.begin_advance();
            }
            CombatResult::Ex => {
                self.res.losing_hexes = hexes(cm.defenders, self);
                self.res.victor = Some(me);
                let needed: u32 = cm.defenders.iter().map(|d| self.strength(d)).sum();
                for d in cm.defenders.iter() {
                    self.eliminate(d, Elimination::ExchangeDefender);
                }
                self.res.loss_needed = needed;
                let total: u32 = adjacent.iter().map(|a| self.strength(a)).sum();
                let mut options = Vec::new();
                if total > needed {
                    self.loss_options(adjacent, needed, &mut options);
                }
                if total <= needed || options.len() <= 1 {
                    let lose = options.first().copied().unwrap_or(adjacent);
                    for a in lose.iter() {
                        self.eliminate(a, Elimination::ExchangeLoss);
                    }
                    // 17.3: the exchange is one instant for demoralization
                    self.check_demoralization(None);
                    self.begin_advance();
                } else {
                    self.step = Step::Losses;
                }
            }
            CombatResult::Ar => {
                self.res.losing_hexes = hexes(adjacent, self);
                self.res.victor = Some(me.other());
                self.res.retreating = adjacent;
                self.res.optional = cm.bombard; // 8.15
                self.step = Step::Retreat;
                self.settle_retreats();
            }
            CombatResult::Dr => {
                self.res.losing_hexes = hexes(cm.defenders, self);
                self.res.victor = Some(me);
                self.res.retreating = cm.defenders;
                self.step = Step::Retreat;
                self.settle_retreats();
            }
        }
    }

    /// Inclusion-minimal sets of `candidates` whose printed strengths reach `needed` (7.6 Ex
    /// and the ruling: the attacker never loses a unit he did not have to).
    fn loss_options(&self, candidates: UnitSet, needed: u32, out: &mut Vec<UnitSet>) {
        let list: Vec<UnitId> = candidates.iter().collect();
        let k = list.len().min(16);
        for mask in 1u32..(1 << k) {
            let sum: u32 = (0..k)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| self.strength(list[i]))
                .sum();
            if sum < needed {
                continue;
            }
            let minimal = (0..k)
                .filter(|i| mask & (1 << i) != 0)
                .all(|i| sum - self.strength(list[i]) < needed);
            if minimal {
                out.push(UnitSet::of(
                    (0..k).filter(|i| mask & (1 << i) != 0).map(|i| list[i]),
                ));
            }
        }
    }

    fn exchange_candidates(&self) -> UnitSet {
        let cm = &self.combats[self.res.combat as usize];
        UnitSet::of(
            cm.attackers
                .iter()
                .filter(|&a| !cm.bombard.contains(a) && self.hex_of(a).is_some()),
        )
    }

    pub(crate) fn loss_actions(&self, out: &mut Vec<Action>) {
        let mut opts = Vec::new();
        self.loss_options(self.exchange_candidates(), self.res.loss_needed, &mut opts);
        out.extend(opts.into_iter().map(|units| Action::Lose { units }));
    }

    pub(crate) fn check_losses(&self, units: UnitSet) -> Result<(), Refusal> {
        let cand = self.exchange_candidates();
        if let Some(u) = units.iter().find(|&u| !cand.contains(u)) {
            return Game::refuse(
                "7.6",
                format!(
                    "{} did not take part in this attack (or bombarded, 8.14)",
                    self.id(u)
                ),
            );
        }
        let sum: u32 = units.iter().map(|u| self.strength(u)).sum();
        let needed = self.res.loss_needed;
        if sum < needed {
            return Game::refuse("7.6", format!("the losses must total at least {needed} printed strength points; these total {sum}"));
        }
        if let Some(u) = units.iter().find(|&u| sum - self.strength(u) >= needed) {
            return Game::refuse(
                "7.6",
                format!(
                    "{} need not be lost: the others already make up {needed} (ruling on 7.6)",
                    self.id(u)
                ),
            );
        }
        Ok(())
    }

    pub(crate) fn apply_losses(&mut self, units: UnitSet) {
        for u in units.iter() {
            self.eliminate(u, Elimination::ExchangeLoss);
        }
        self.check_demoralization(None);
        self.begin_advance();
    }

    pub(crate) fn retreat_side(&self) -> Side {
        let r = &self.res;
        r.displaced
            .or_else(|| r.retreating.first())
            .or_else(|| r.optional.first())
            .map(|u| self.side_of(u))
            .unwrap_or(self.phasing())
    }

    fn involved(&self, u: UnitId) -> bool {
        let c = self.units[u.0 as usize].combat;
        c != NO_COMBAT && !self.combats[c as usize].resolved
    }

    /// May a unit of `side` retreat from `from` into neighbour `d` (7.72)? Ignores occupancy.
    fn retreat_step_ok(&self, side: Side, from: Hex, d: Dir) -> bool {
        let map = &self.sc.map;
        let to = from.neighbour(d);
        let s = map.hexside(from, d);
        map.contains(to)
            && self.sc.chart.passable(s, map.terrain(to))
            && !self.controlled_by(side.other(), to)
    }

    /// Retreat options of a unit of `side` at `from` (7.72, 7.73, 7.81, 7.82). `vacated` is a
    /// hex to treat as empty, `chain` hexes that may not be entered.
    fn retreat_options(
        &self,
        side: Side,
        from: Hex,
        vacated: Option<Hex>,
        chain: &[Hex],
    ) -> RetreatOptions {
        let mut vacant = Vec::new();
        let mut displace = Vec::new();
        for d in Dir::ALL {
            if !self.retreat_step_ok(side, from, d) {
                continue;
            }
            let to = from.neighbour(d);
            if chain.contains(&to) {
                continue;
            }
            match self.unit_at(to) {
                None => vacant.push(to),
                Some(_) if Some(to) == vacated => vacant.push(to),
                Some(w) if self.side_of(w) == side && !self.involved(w) => displace.push(to),
                Some(_) => {}
            }
        }
        if !vacant.is_empty() {
            return RetreatOptions {
                vacant,
                displace: Vec::new(),
            };
        }
        // 7.82: displacement only where it does not end in an elimination
        displace.retain(|&to| self.displacement_ends(side, to, vacated, chain));
        RetreatOptions { vacant, displace }
    }

    /// 7.81, 7.82: can a unit of `side` displaced from `start` retreat, displacing friends in
    /// turn if it must, so that the chain ends in a vacant hex? No hex of `chain` (the hexes
    /// the chain has already left or passed) may be entered, and the chain never passes a hex
    /// twice. Whether a hex of the chain has a vacant hex to retreat into does not depend on
    /// the path that led there (the hexes passed are all occupied), so the question is
    /// whether a hex with a vacant retreat can be reached from `start` through friends: a
    /// breadth-first search, exact for chains of any length.
    fn displacement_ends(
        &self,
        side: Side,
        start: Hex,
        vacated: Option<Hex>,
        chain: &[Hex],
    ) -> bool {
        let mut seen: Vec<Hex> = vec![start];
        let mut k = 0;
        while let Some(&h) = seen.get(k) {
            k += 1;
            for d in Dir::ALL {
                if !self.retreat_step_ok(side, h, d) {
                    continue;
                }
                let to = h.neighbour(d);
                if chain.contains(&to) {
                    continue;
                }
                match self.unit_at(to) {
                    None => return true, // 7.72
                    Some(_) if Some(to) == vacated => return true,
                    // 7.81: a friend not in a combat of this phase is displaced in turn
                    Some(w) if self.side_of(w) == side && !self.involved(w) => {
                        if !seen.contains(&to) {
                            seen.push(to);
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        false
    }

    fn options_of(&self, u: UnitId) -> Vec<Hex> {
        let (from, vacated) = match self.loc(u) {
            Loc::Map(h) => (h, Some(h)),
            Loc::Lifted(h) => (h, None),
            _ => return Vec::new(),
        };
        // a displaced unit continues its chain: no hex of it may be passed through again
        let mut chain = if self.res.displaced == Some(u) {
            self.res.chain.clone()
        } else {
            Vec::new()
        };
        chain.push(from);
        let o = self.retreat_options(self.side_of(u), from, vacated, &chain);
        if o.vacant.is_empty() {
            o.displace
        } else {
            o.vacant
        }
    }

    fn retreaters(&self) -> Vec<UnitId> {
        if let Some(u) = self.res.displaced {
            return vec![u];
        }
        self.res
            .retreating
            .union(self.res.optional)
            .iter()
            .collect()
    }

    pub(crate) fn retreat_actions(&self, out: &mut Vec<Action>) {
        for u in self.retreaters() {
            for to in self.options_of(u) {
                out.push(Action::Retreat { unit: u, to });
            }
            if self.res.displaced.is_none() && self.res.optional.contains(u) {
                out.push(Action::Stand { unit: u });
            }
        }
    }

    pub(crate) fn check_retreat(&self, u: UnitId, to: Hex) -> Result<(), Refusal> {
        if !self.retreaters().contains(&u) {
            if let Some(v) = self.res.displaced {
                return Game::refuse(
                    "7.81",
                    format!("the displaced unit {} must retreat first", self.id(v)),
                );
            }
            return Game::refuse(
                "7.71",
                format!(
                    "{} is not retreating",
                    self.id(u.min(UnitId(self.units.len() as u8 - 1)))
                ),
            );
        }
        if self.options_of(u).contains(&to) {
            return Ok(());
        }
        let side = self.side_of(u);
        let from = match self.loc(u) {
            Loc::Map(h) | Loc::Lifted(h) => h,
            _ => return Game::refuse("7.71", "the unit is not on the map"),
        };
        let Some(d) = from.direction_to(to) else {
            return Game::refuse(
                "7.71",
                format!("a retreat is one hex: {to} is not adjacent to {from}"),
            );
        };
        let map = &self.sc.map;
        if !map.contains(to) {
            return Game::refuse("15.4", format!("{to} is off the map"));
        }
        if self.sc.chart.unbridged_river(map.hexside(from, d)) {
            return Game::refuse("7.72", "a retreat may not cross a river except at a bridge");
        }
        if !self
            .sc
            .chart
            .passable(map.hexside(from, d), map.terrain(to))
        {
            let name = &map.terrain_kind(to).id;
            return Game::refuse("7.72", format!("{to} is {name}, entered only along a road"));
        }
        if self.controlled_by(side.other(), to) {
            return Game::refuse("7.72", format!("{to} is in an enemy zone of control"));
        }
        match self.unit_at(to) {
            Some(w) if self.side_of(w) != side => Game::refuse("5.12", format!("{to} holds an enemy unit")),
            Some(w) if self.involved(w) => Game::refuse(
                "7.81",
                format!("{} is taking part in a combat this phase and cannot be displaced", self.id(w)),
            ),
            Some(_) => Game::refuse(
                "7.82",
                "a friendly unit may be displaced only when no vacant hex is open and the displaced unit can itself retreat",
            ),
            None => Game::refuse("7.72", format!("{to} is not open to this retreat")),
        }
    }

    pub(crate) fn apply_retreat(&mut self, u: UnitId, to: Hex) {
        let displaced = self.unit_at(to);
        if let Some(w) = displaced {
            self.lift(w);
            self.event(Event::Displaced {
                unit: w,
                from: to,
                by: u,
            }); // 7.81
        }
        self.place(u, to);
        self.res.retreating.remove(u);
        self.res.optional.remove(u);
        if self.res.displaced == Some(u) {
            self.res.displaced = None;
        }
        if displaced.is_some() {
            // 7.82: the chain goes on; it never pushes a unit out of the same hex twice
            self.res.displaced = displaced;
            self.res.chain.push(to);
        } else {
            self.res.chain.clear();
        }
        self.settle_retreats();
    }

    pub(crate) fn check_stand(&self, u: UnitId) -> Result<(), Refusal> {
        if self.res.displaced.is_none() && self.res.optional.contains(u) {
            Ok(())
        } else {
            Game::refuse(
                "8.15",
                "only bombarding artillery may choose not to retreat",
            )
        }
    }

    pub(crate) fn apply_stand(&mut self, u: UnitId) {
        self.res.optional.remove(u);
        self.settle_retreats();
    }

    /// Eliminates retreating units with nowhere to go (7.72) once nothing else can move, and
    /// moves on to the advance when every retreat is done.
    fn settle_retreats(&mut self) {
        loop {
            if self.outcome.is_some() {
                return;
            }
            if let Some(v) = self.res.displaced {
                if self.options_of(v).is_empty() {
                    // cannot happen: displacement is allowed only where it succeeds (7.82)
                    self.eliminate(v, Elimination::DisplacedNowhere);
                    self.res.displaced = None;
                    self.res.chain.clear();
                    self.check_demoralization(None);
                    continue;
                }
                return;
            }
            let pending: Vec<UnitId> = self
                .res
                .retreating
                .union(self.res.optional)
                .iter()
                .collect();
            if pending.is_empty() {
                self.begin_advance();
                return;
            }
            if pending.iter().any(|&u| !self.options_of(u).is_empty()) {
                return;
            }
            for u in self.res.retreating.iter().collect::<Vec<_>>() {
                self.eliminate(u, Elimination::NoRetreat);
            }
            self.res.retreating = UnitSet::EMPTY;
            self.res.optional = UnitSet::EMPTY;
            self.check_demoralization(None);
        }
    }

    fn advance_candidates(&self) -> Vec<(UnitId, Hex)> {
        let mut v = Vec::new();
        let Some(victor) = self.res.victor else {
            return v;
        };
        let cm = &self.combats[self.res.combat as usize];
        let side_units = if victor == self.phasing() {
            cm.attackers
        } else {
            cm.defenders
        };
        let map = &self.sc.map;
        for u in side_units.iter() {
            if cm.bombard.contains(u) {
                continue; // the ruling: artillery that bombarded does not advance
            }
            let Some(h) = self.hex_of(u) else { continue };
            for &to in &self.res.losing_hexes {
                let Some(d) = h.direction_to(to) else {
                    continue;
                };
                let s = map.hexside(h, d);
                if self.unit_at(to).is_none() && self.sc.chart.passable(s, map.terrain(to)) {
                    v.push((u, to));
                }
            }
        }
        v
    }

    fn begin_advance(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        if self.advance_candidates().is_empty() {
            self.finish_combat();
        } else {
            self.step = Step::Advance;
        }
    }

    pub(crate) fn advance_actions(&self, out: &mut Vec<Action>) {
        out.extend(
            self.advance_candidates()
                .into_iter()
                .map(|(unit, to)| Action::Advance { unit, to }),
        );
        out.push(Action::Hold);
    }

    pub(crate) fn check_advance(&self, u: UnitId, to: Hex) -> Result<(), Refusal> {
        if self.advance_candidates().contains(&(u, to)) {
            return Ok(());
        }
        Game::refuse(
            "7.74",
            format!(
                "only one victorious unit that took part in this combat may advance, one hex, into a hex the combat vacated: not {} to {to}",
                self.id(u.min(UnitId(self.units.len() as u8 - 1)))
            ),
        )
    }

    pub(crate) fn apply_advance(&mut self, mv: Option<(UnitId, Hex)>) {
        if let Some((u, to)) = mv {
            self.place(u, to);
            self.units[u.0 as usize].advanced = true;
            self.sync_unit(u);
            self.event(Event::Advanced { unit: u, to }); // 7.74
        }
        self.finish_combat();
    }

    fn finish_combat(&mut self) {
        let c = self.res.combat as usize;
        if let Some(cm) = self.combats.get_mut(c) {
            cm.resolved = true;
        }
        self.res = Resolution::default();
        if self.outcome.is_some() {
            self.step = Step::Over;
            return;
        }
        if self.combats.iter().any(|c| !c.resolved) {
            self.step = Step::Choose;
        } else {
            self.end_player_turn();
        }
    }
}

impl Game {
    pub(crate) fn combats_raw(&self) -> &[Combat] {
        &self.combats
    }

    /// The odds column of the declared combat that includes `target`, as things stand.
    pub fn current_column(&self, target: UnitId) -> Option<Column> {
        let c = self.combat_of_target(target)?;
        let cm = &self.combats[c];
        Some(self.odds_of(cm.attackers, cm.bombard, cm.defenders).column)
    }
}

/// True when each entry can be given a different battery from its list (a bipartite matching
/// by augmenting paths).
fn distinct_batteries(needs: &[&[UnitId]]) -> bool {
    // `owner` holds (battery, index of the entry it serves)
    fn augment(
        i: usize,
        needs: &[&[UnitId]],
        owner: &mut Vec<(UnitId, usize)>,
        seen: &mut Vec<UnitId>,
    ) -> bool {
        for &g in needs[i] {
            if seen.contains(&g) {
                continue;
            }
            seen.push(g);
            match owner.iter().position(|&(x, _)| x == g) {
                None => {
                    owner.push((g, i));
                    return true;
                }
                Some(k) => {
                    let j = owner[k].1;
                    if augment(j, needs, owner, seen) {
                        owner[k].1 = i;
                        return true;
                    }
                }
            }
        }
        false
    }
    let mut owner = Vec::new();
    (0..needs.len()).all(|i| augment(i, needs, &mut owner, &mut Vec::new()))
}

/// One isolated obligation of [`Game::stranded_obligation`]: whether it is an attacker, the
/// declared combats it could join, and the free batteries that could bombard it (8.13).
struct Choice<'a> {
    attacker: bool,
    options: &'a [usize],
    guns: &'a [UnitId],
}

/// 7.11, 7.12: whether the combats can be labelled "takes attackers" or "takes defenders" so
/// that every isolated attacker of `members` joins a combat that takes attackers, and every
/// isolated defender joins one that takes defenders or else has a free battery of its own
/// (8.13). A backtracking search over the attackers' choices: a combat no defender wants is
/// taken at once, each other option is tried in turn and, if that fails, never retried; the
/// combats no attacker took go to the defenders. Exact, with no limit on the combats.
fn labelling_exists(all: &[Choice<'_>], members: &[usize]) -> bool {
    let wanted: Vec<usize> = members
        .iter()
        .filter(|&&k| !all[k].attacker)
        .flat_map(|&k| all[k].options.iter().copied())
        .collect();
    let mut label: Vec<(usize, bool)> = Vec::new();
    label_search(all, members, &wanted, &mut label)
}

/// The recursion of [`labelling_exists`]; `label` holds the combats decided so far (true:
/// takes attackers).
fn label_search(
    all: &[Choice<'_>],
    members: &[usize],
    wanted: &[usize],
    label: &mut Vec<(usize, bool)>,
) -> bool {
    let get =
        |label: &[(usize, bool)], c: usize| label.iter().find(|&&(x, _)| x == c).map(|&(_, a)| a);
    // the attacker not yet placed with the fewest undecided options
    let mut pick: Option<(usize, usize)> = None;
    for &k in members {
        let ch = &all[k];
        if !ch.attacker || ch.options.iter().any(|&c| get(label, c) == Some(true)) {
            continue;
        }
        let free = ch
            .options
            .iter()
            .filter(|&&c| get(label, c).is_none())
            .count();
        if free == 0 {
            return false; // 7.12
        }
        if pick.is_none_or(|(_, f)| free < f) {
            pick = Some((k, free));
        }
    }
    let Some((k, _)) = pick else {
        // every attacker is placed: the other combats take defenders, and the defenders no
        // combat takes need batteries of their own (7.11, 8.13)
        let mut needy: Vec<&[UnitId]> = Vec::new();
        for &j in members {
            let ch = &all[j];
            if ch.attacker || ch.options.iter().any(|&c| get(label, c) != Some(true)) {
                continue;
            }
            if ch.guns.is_empty() {
                return false;
            }
            needy.push(ch.guns);
        }
        return distinct_batteries(&needy);
    };
    let mark = label.len();
    let options = all[k].options;
    // a combat no defender could join costs the defenders nothing
    if let Some(&c) = options
        .iter()
        .find(|&&c| get(label, c).is_none() && !wanted.contains(&c))
    {
        label.push((c, true));
        let ok = label_search(all, members, wanted, label);
        label.truncate(mark);
        return ok;
    }
    for &c in options {
        if get(label, c).is_some() {
            continue;
        }
        label.push((c, true));
        if label_search(all, members, wanted, label) {
            label.truncate(mark);
            return true;
        }
        label.pop();
        // later branches leave this combat to the defenders
        label.push((c, false));
    }
    label.truncate(mark);
    false
}

/// Where a unit could retreat (7.7, 7.8), as the retreat's own check sees it: for the study
/// tools.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatChoices {
    /// The unit must (or, bombarding artillery, may: 8.15) retreat now; otherwise the
    /// choices are a what-if, as if it had to retreat from where it stands.
    pub retreating: bool,
    /// Vacant hexes open to the retreat (7.72: not across a river without a bridge, nor
    /// into an enemy zone of control, nor off the roads into road-only terrain).
    pub vacant: Vec<Hex>,
    /// Only when no vacant hex is open: the hexes of friends the unit would displace, each
    /// with the friend (7.81: not one in a combat of this phase; 7.82: only one that can
    /// itself retreat, displacing in turn). Both lists empty: the unit would be eliminated
    /// (7.72).
    pub displace: Vec<(Hex, UnitId)>,
}

impl Game {
    /// Where a unit on the map (or displaced) could retreat now: see [`RetreatChoices`].
    /// `None` for a unit that is neither on the map nor displaced.
    pub fn retreat_choices(&self, u: UnitId) -> Option<RetreatChoices> {
        if (u.0 as usize) >= self.units.len() {
            return None;
        }
        if !matches!(self.loc(u), Loc::Map(_) | Loc::Lifted(_)) {
            return None;
        }
        let retreating = self.step == Step::Retreat && self.retreaters().contains(&u);
        let mut vacant = Vec::new();
        let mut displace = Vec::new();
        for to in self.options_of(u) {
            match self.unit_at(to) {
                Some(w) if w != u => displace.push((to, w)),
                _ => vacant.push(to),
            }
        }
        Some(RetreatChoices {
            retreating,
            vacant,
            displace,
        })
    }

    /// The enemy units a unit could attack if it stood in `from` in its combat phase, as the
    /// declaration's reach check sees them (7.15: adjacent, not across a river without a
    /// bridge, 9.0; artillery: 8.11 two hexes with a clear line of sight, 8.31, across rivers,
    /// 8.45, but only adjacent units while in an enemy zone of control, 8.42). Obligations
    /// and other declarations are not considered: a what-if for the study tools.
    pub fn reach_targets(&self, u: UnitId, from: Hex) -> Vec<UnitId> {
        if (u.0 as usize) >= self.units.len() {
            return Vec::new();
        }
        let side = self.side_of(u);
        let bombards = self.is_artillery(u) && !self.controlled_by(side.other(), from);
        self.unit_ids()
            .filter(|&t| self.side_of(t) != side)
            .filter(|&t| match self.hex_of(t) {
                Some(d) if bombards => {
                    let dist = from.distance(d);
                    dist == 1 || (dist == 2 && self.line_of_sight_clear(from, d))
                }
                Some(d) => self.engages(from, d),
                None => false,
            })
            .collect()
    }
}
