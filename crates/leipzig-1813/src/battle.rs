//! Combat (Combat, Supply, Leaders, Fortress and Siege, the CRT, Retreat Order of Preference):
//! declaring attacks hex by hex, supply allocation by both sides, retreat before combat,
//! resolving each combat with a die, and carrying its result out: dispersal with its retreat,
//! scattering, destruction, the half exchange; and the automatic elimination at 500% during
//! movement (CRT Auto).

use crate::crt::{half_exchange_attacker_loss, CombatResult, Effect};
use crate::game::{supply_use, Chance, Combat, Event, Game, Status, Step};
use crate::odds::{
    attack_strength, automatic_elimination, defence_strength, odds, retreat_before_combat_barred,
    MovingAttack,
};
use crate::units::Arm;
use engine::Refusal;
use hexmap::Hex;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

fn refuse(case: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(case, why)
}

/// What a resolved combat still owes, carried out in order (`Game::run_due`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Due {
    /// One side's effect on its units in a hex.
    Effect(u8, Hex, Effect),
    /// The attacker's half of a half exchange: side, hex, divisions owed.
    HalfExchange(u8, Hex, u32),
    /// A scattered unit's retreat.
    Scatter(u8, u16),
    /// The combat is over: the advance it may offer (from, into).
    Finish(Hex, Option<Hex>),
}

/// A retreat whose route its owner chooses among equal ones (Retreat Order of Preference,
/// ruling L45).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RetreatChoice {
    /// The side retreating.
    pub side: u8,
    /// The units retreating together (a dispersed stack, or one scattered unit).
    pub units: Vec<u16>,
    /// The ends the order of preference leaves equal.
    pub options: Vec<Hex>,
    /// A scattered unit (dispersed once it ends its retreat).
    pub scatter: bool,
}

/// What a hex's units bring to a combat, as the combat counts them: the one source of who
/// fights for the rules, the players and the board's odds preview.
#[derive(Clone, Debug, Default)]
pub struct HexForce {
    /// Printed strengths of the combat units that take part.
    pub printed: Vec<u32>,
    /// Leaders' bonuses (offence or defence).
    pub leaders: Vec<u32>,
    /// The leaders' unit indices, in the order of `leaders`.
    pub leader_units: Vec<usize>,
    /// A cavalry unit is among them.
    pub cavalry: bool,
}

impl Game {
    /// The units of `side` at `h` as attackers (Combat (B): dispersed units do not attack;
    /// Stacking (D): units standing aside do not, L44; Leaders (C): leaders add their offensive
    /// bonus).
    pub fn attacking_force(&self, side: u8, h: Hex) -> HexForce {
        self.attacking_force_but(side, h, None)
    }

    /// The attacking force of a hex as it would be if unit `except` stood aside too.
    fn attacking_force_but(&self, side: u8, h: Hex, except: Option<usize>) -> HexForce {
        let mut f = HexForce::default();
        for i in self.units_at(h) {
            let u = &self.units[i];
            if u.side != side
                || self.is_dispersed(u)
                || self.saxon_locked(u)
                || u.aside
                || except == Some(i)
            {
                continue;
            }
            match self.arm(u) {
                Arm::Infantry | Arm::Cavalry => f.printed.push(self.kind(u).strength),
                Arm::Leader => {
                    if let Some(l) = self
                        .ctx
                        .tables
                        .leader(crate::game::DATA_SIDES[usize::from(side)], u.leader)
                    {
                        f.leaders.push(l.offence);
                        f.leader_units.push(i);
                    }
                }
                _ => {}
            }
        }
        if f.printed.is_empty() {
            f.leaders.clear();
            f.leader_units.clear();
        }
        f
    }

    /// The units of `side` at `h` as defenders: combat units, or without them the bracketed
    /// strengths of supply units and depots (Combat (L)); leaders' defensive bonuses.
    pub fn defending_force(&self, side: u8, h: Hex) -> HexForce {
        let mut f = HexForce::default();
        let mut brackets = Vec::new();
        for i in self.units_at(h) {
            let u = &self.units[i];
            if u.side != side {
                continue;
            }
            match self.arm(u) {
                Arm::Infantry | Arm::Cavalry => {
                    f.printed.push(self.kind(u).strength);
                    f.cavalry |= self.arm(u) == Arm::Cavalry;
                }
                Arm::Leader => {
                    if let Some(l) = self
                        .ctx
                        .tables
                        .leader(crate::game::DATA_SIDES[usize::from(side)], u.leader)
                    {
                        f.leaders.push(l.defence);
                        f.leader_units.push(i);
                    }
                }
                Arm::Supply | Arm::Depot => brackets.push(self.kind(u).strength),
            }
        }
        if f.printed.is_empty() {
            f.printed = brackets;
        }
        f
    }

    /// The hexes an attack from `from` on `to` strikes: `to`, or from a fortress every
    /// adjacent enemy hex not across a river (Fortress (C), (E)).
    pub fn attack_targets(&self, from: Hex, to: Hex) -> Vec<Hex> {
        let b = &self.ctx.board;
        let side = self.player;
        let river = b.between(from, to).is_some_and(|s| s.river);
        if !b.hex(from).fortress || river {
            return vec![to];
        }
        b.neighbours(from)
            .filter(|&(d, n)| {
                !b.side(from, d).river
                    && self.units_at(n).iter().any(|&i| self.units[i].side != side)
            })
            .map(|(_, n)| n)
            .collect()
    }

    fn enemy_at(&self, side: u8, h: Hex) -> bool {
        self.units_at(h).iter().any(|&i| self.units[i].side != side)
    }

    /// The best odds an attack could still have, and the floor it must reach (TEC River
    /// hexside): the attacker at full strength where a supply unit could support it, the
    /// defender at full strength where one could support it (ruling L30).
    fn attack_floor(
        &self,
        from: Hex,
        targets: &[Hex],
        except: Option<usize>,
    ) -> Option<(u32, u32)> {
        let side = self.player;
        let b = &self.ctx.board;
        let af = self.attacking_force_but(side, from, except);
        let a_sup = b.hex(from).fortress || self.supply_near(side, from, |_| true).is_some();
        let attack = attack_strength(&af.printed, a_sup, &af.leaders);
        let mut defence = 0u32;
        let mut min = 0u32;
        for &t in targets {
            let s = b.between(from, t)?;
            let df = self.defending_force(1 - side, t);
            let d_sup = b.hex(t).fortress || self.supply_near(1 - side, t, |_| true).is_some();
            defence += defence_strength(&df.printed, d_sup, u32::from(s.defence), &df.leaders);
            min = min.max(u32::from(s.min_percent));
        }
        let p = crate::odds::percent(attack, defence)?;
        Some((p, min))
    }

    pub(crate) fn check_attack(&self, a: crate::game::Action) -> Result<(), Refusal> {
        use crate::game::Action;
        match a {
            Action::Attack { from, to } => {
                if self.armistice_active() {
                    return Err(refuse("Armistice", "no combat during the armistice"));
                }
                let side = self.player;
                let b = &self.ctx.board;
                if !b.adjacent(from, to) {
                    return Err(refuse(
                        "Combat (A)",
                        "only units adjacent to an enemy hex may attack it",
                    ));
                }
                if self.attacking_force(side, from).printed.is_empty() {
                    return Err(refuse(
                        "Combat (A)",
                        format!(
                            "no combat unit of yours at {from} may attack (dispersed units and \
                             leaders alone may not)"
                        ),
                    ));
                }
                if self.combats.iter().any(|c| c.from == from) {
                    return Err(refuse(
                        "Combat (D)",
                        "the units of one hex attack one enemy hex only, once a phase",
                    ));
                }
                if !self.enemy_at(side, to) {
                    return Err(refuse("Combat (A)", format!("no enemy unit at {to}")));
                }
                if self
                    .units_at(to)
                    .iter()
                    .any(|&i| self.saxon_locked(&self.units[i]))
                {
                    return Err(refuse(
                        "Saxon Garrison",
                        "no attack against the Saxon garrison before its turn",
                    ));
                }
                let targets = self.attack_targets(from, to);
                let hidden = targets
                    .iter()
                    .any(|&t| self.units_at(t).iter().any(|&i| !self.sees(side, i)));
                if !hidden {
                    if let Some((p, min)) = self.attack_floor(from, &targets, None) {
                        if p < min {
                            return Err(refuse(
                                "TEC River hexside",
                                format!(
                                    "an attack across a river must be at least {min}% (this \
                                     one can be at most {p}%)"
                                ),
                            ));
                        }
                    }
                }
                Ok(())
            }
            Action::Aside { unit } => self.check_aside(unit),
            Action::Supply { unit } => self.check_supply(unit, self.player),
            Action::End => Ok(()),
            _ => Err(refuse(
                "Combat",
                "the attacker declares attacks, keeps units out of them and allocates supply, \
                 then ends",
            )),
        }
    }

    /// Stacking (D), Combat (H): not every unit of an attacking stack need take part (ruling
    /// L44): a combat unit or leader of a hex whose attack is declared may stand aside while
    /// another combat unit of the hex still attacks.
    fn check_aside(&self, unit: u16) -> Result<(), Refusal> {
        let Some(u) = self.units.get(usize::from(unit)) else {
            return Err(refuse("action", "no such unit"));
        };
        if u.side != self.player || !u.on_map() {
            return Err(refuse("action", "that unit is not yours"));
        }
        if !self.combats.iter().any(|c| c.from == u.hex) {
            return Err(refuse(
                "Stacking (D)",
                format!("no attack is declared from {}", u.hex),
            ));
        }
        if u.aside {
            return Err(refuse("Stacking (D)", "that unit already stands aside"));
        }
        let arm = self.arm(u);
        if !(arm.is_combat() || arm == Arm::Leader) || self.is_dispersed(u) {
            return Err(refuse(
                "Stacking (D)",
                "only combat units and leaders that would attack stand aside",
            ));
        }
        let others = self.units_at(u.hex).into_iter().any(|i| {
            let x = &self.units[i];
            i != usize::from(unit)
                && x.side == self.player
                && !x.aside
                && self.arm(x).is_combat()
                && !self.is_dispersed(x)
        });
        if !others {
            return Err(refuse(
                "Combat (A)",
                "an attack needs a combat unit: the last one may not stand aside",
            ));
        }
        // TEC River hexside: not below the river's floor where the French may examine the
        // defenders (as at the declaration, L30).
        let side = self.player;
        for c in self.combats.iter().filter(|c| c.from == u.hex) {
            let hidden = c
                .targets
                .iter()
                .any(|&t| self.units_at(t).iter().any(|&i| !self.sees(side, i)));
            if hidden {
                continue;
            }
            if let Some((p, min)) = self.attack_floor(c.from, &c.targets, Some(usize::from(unit))) {
                if p < min {
                    return Err(refuse(
                        "TEC River hexside",
                        format!(
                            "without {} the attack across the river could be at most {p}%, \
                             under its {min}%",
                            self.label(usize::from(unit))
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_supply(&self, unit: u16, side: u8) -> Result<(), Refusal> {
        let Some(u) = self.units.get(usize::from(unit)) else {
            return Err(refuse("action", "no such unit"));
        };
        if u.side != side || !u.on_map() || !matches!(self.arm(u), Arm::Supply | Arm::Depot) {
            return Err(refuse(
                "Combat (I)",
                "only your own supply units and depots on the map support combat",
            ));
        }
        if self.is_dispersed(u) {
            return Err(refuse(
                "Combat (K)",
                "a dispersed supply unit supplies nothing",
            ));
        }
        if u.supply_use & supply_use::ALLOCATED != 0 {
            return Err(refuse(
                "Combat (I)",
                "that supply unit is already allocated",
            ));
        }
        Ok(())
    }

    pub(crate) fn legal_supply(&self, out: &mut Vec<crate::game::Action>) {
        let side = match self.step {
            Step::Attack => self.player,
            _ => 1 - self.player,
        };
        for i in 0..self.units.len() {
            if self.check_supply(i as u16, side).is_ok() {
                out.push(crate::game::Action::Supply { unit: i as u16 });
            }
        }
    }

    pub(crate) fn legal_attack(&self, out: &mut Vec<crate::game::Action>) {
        use crate::game::Action;
        let side = self.player;
        let mut hexes: Vec<Hex> = self
            .units
            .iter()
            .filter(|u| u.on_map() && u.side == side)
            .map(|u| u.hex)
            .collect();
        hexes.sort();
        hexes.dedup();
        for from in hexes {
            for (_, to) in self.ctx.board.neighbours(from) {
                let a = Action::Attack { from, to };
                if self.enemy_at(side, to) && self.check_attack(a).is_ok() {
                    out.push(a);
                }
            }
        }
        for i in 0..self.units.len() {
            if self.units[i].side == side
                && self.units[i].on_map()
                && self.check_aside(i as u16).is_ok()
            {
                out.push(Action::Aside { unit: i as u16 });
            }
        }
        self.legal_supply(out);
        out.push(Action::End);
    }

    pub(crate) fn apply_attack(&mut self, from: Hex, to: Hex) {
        let targets = self.attack_targets(from, to);
        // Reconnaissance: the French examine the units they attack; units that attack show
        // themselves (ruling L28).
        if self.player == 0 && self.reconnaissance() {
            for &t in &targets {
                for i in self.units_at(t) {
                    if self.units[i].side == 1 && self.units[i].revealed == 0 {
                        self.units[i].revealed = 1;
                    }
                }
            }
        }
        if self.player == 1 {
            for i in self.units_at(from) {
                if self.units[i].revealed == 0 {
                    self.units[i].revealed = 1;
                }
            }
        }
        self.events.push(Event::AttackDeclared {
            from: from.to_string(),
            targets: targets.iter().map(|h| h.to_string()).collect(),
        });
        self.combats.push(Combat {
            from,
            targets,
            result: None,
        });
    }

    pub(crate) fn end_attack(&mut self) {
        if self.combats.is_empty() {
            self.end_combat_phase();
        } else {
            self.step = Step::Retreat;
        }
    }

    // ---- retreat before combat -----------------------------------------------------------

    /// Whether a defending unit may retreat before combat (Combat (J)): not dispersed, not
    /// surrounded by enemy units and zones of control (friendly units negate them), and
    /// cavalry, a leader, or attacked below 500% against its printed strength with terrain.
    pub fn may_retreat_before_combat(&self, u: usize) -> bool {
        let unit = &self.units[u];
        let defender = 1 - self.player;
        if !unit.on_map() || unit.side != defender || self.is_dispersed(unit) {
            return false;
        }
        if self.saxon_locked(unit) {
            return false;
        }
        let attacks: Vec<&Combat> = self
            .combats
            .iter()
            .filter(|c| c.targets.contains(&unit.hex))
            .collect();
        if attacks.is_empty() {
            return false;
        }
        let arm = self.arm(unit);
        let cav_or_leader = matches!(arm, Arm::Cavalry | Arm::Leader);
        let df = self.defending_force(defender, unit.hex);
        for c in &attacks {
            let af = self.attacking_force(self.player, c.from);
            let a_sup = self.ctx.board.hex(c.from).fortress
                || self
                    .supply_near(self.player, c.from, |s| {
                        s.supply_use & supply_use::ALLOCATED != 0
                    })
                    .is_some();
            let attack = attack_strength(&af.printed, a_sup, &af.leaders);
            let m = self
                .ctx
                .board
                .between(c.from, unit.hex)
                .map_or(1, |s| u32::from(s.defence));
            if retreat_before_combat_barred(
                &self.ctx.tables.crt,
                attack,
                &df.printed,
                m,
                &df.leaders,
                cav_or_leader,
            ) {
                return false;
            }
        }
        true
    }

    /// The hexes a unit may end a retreat before combat in (Combat (J)): its full movement
    /// allowance spent (or as much of it as the terrain lets it spend, ruling L31), never
    /// across an unbridged river, into a mountain, an enemy unit or an enemy zone of control
    /// (which does not reach into hexes of friendly units).
    pub fn retreat_before_combat_hexes(&self, u: usize) -> Vec<Hex> {
        if !self.may_retreat_before_combat(u) {
            return Vec::new();
        }
        let unit = &self.units[u];
        let side = unit.side;
        let occ = self.occupancy();
        let zoc = self.zones_of_control();
        let b = &self.ctx.board;
        let arm = self.arm(unit);
        let combat = arm.is_combat();
        let budget = self.allowance(unit) as u16;
        let passable = |n: Hex| -> bool {
            let Some(i) = b.index(n) else { return false };
            let info = b.hex(n);
            if info.mountain || !self.may_enter(side, arm, n, &occ) {
                return false;
            }
            // Surrounded or blocked: an enemy zone reaches only hexes free of friendly units.
            !(zoc[i][usize::from(1 - side)] > 0 && occ.any[i][usize::from(side)] == 0)
        };
        // Surrounded (Combat (J) I).
        if !b
            .neighbours(unit.hex)
            .any(|(d, n)| b.side(unit.hex, d).retreat && passable(n))
        {
            return Vec::new();
        }
        let start = b.index(unit.hex).expect("on the map");
        let mut dist = vec![u16::MAX; b.len()];
        dist[start] = 0;
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0u16, start)));
        let step_cost = |h: Hex, d: usize, n: Hex, from_start: bool| -> u16 {
            let i = b.index(h).expect("on the map");
            let ni = b.index(n).expect("on the map");
            let mut c = u16::from(b.side(h, d).cost);
            let others = if from_start {
                occ.combat[i][usize::from(side)].saturating_sub(u16::from(combat))
            } else {
                occ.combat[i][usize::from(side)]
            };
            if combat && others > 0 && !b.hex(h).fortress {
                c += 1;
            }
            if combat && occ.combat[ni][usize::from(side)] > 0 && !b.hex(n).fortress {
                c += 1;
            }
            c
        };
        let mut ends = Vec::new();
        while let Some(Reverse((c, i))) = heap.pop() {
            if c > dist[i] {
                continue;
            }
            let h = b.hex_at(i);
            let mut onward_too_dear = false;
            for (d, n) in b.neighbours(h) {
                if !b.side(h, d).retreat || !passable(n) {
                    continue;
                }
                let ni = b.index(n).expect("on the map");
                let nc = c + step_cost(h, d, n, i == start);
                if nc > budget {
                    onward_too_dear = true;
                    continue;
                }
                if nc < dist[ni] {
                    dist[ni] = nc;
                    heap.push(Reverse((nc, ni)));
                }
            }
            if i != start && (c == budget || onward_too_dear) {
                ends.push(h);
            }
        }
        ends.sort();
        ends
    }

    pub(crate) fn check_retreat(&self, a: crate::game::Action) -> Result<(), Refusal> {
        use crate::game::Action;
        match a {
            Action::Retreat { unit, to } => {
                let u = usize::from(unit);
                if u >= self.units.len() || self.units[u].side != 1 - self.player {
                    return Err(refuse("Combat (J)", "only the defender's units retreat"));
                }
                if !self.may_retreat_before_combat(u) {
                    return Err(refuse(
                        "Combat (J)",
                        format!(
                            "{} may not retreat before combat (not attacked, dispersed, \
                             surrounded, or attacked at 500% and neither cavalry nor a leader)",
                            self.label(u)
                        ),
                    ));
                }
                if !self.retreat_before_combat_hexes(u).contains(&to) {
                    return Err(refuse(
                        "Combat (J)",
                        format!(
                            "{} may not end a retreat before combat in {to} (its full \
                             allowance, no river, mountain, enemy unit or zone of control)",
                            self.label(u)
                        ),
                    ));
                }
                Ok(())
            }
            Action::End => Ok(()),
            _ => Err(refuse(
                "Combat (J)",
                "the defender may retreat units before combat, then ends",
            )),
        }
    }

    pub(crate) fn legal_retreat(&self, out: &mut Vec<crate::game::Action>) {
        let mut hexes: Vec<Hex> = self
            .combats
            .iter()
            .flat_map(|c| c.targets.iter().copied())
            .collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            for u in self.units_at(h) {
                for to in self.retreat_before_combat_hexes(u) {
                    out.push(crate::game::Action::Retreat { unit: u as u16, to });
                }
            }
        }
        out.push(crate::game::Action::End);
    }

    pub(crate) fn apply_retreat_before_combat(&mut self, u: usize, to: Hex) {
        let from = self.units[u].hex;
        self.units[u].hex = to;
        self.events.push(Event::Retreated {
            unit: self.label(u),
            from: from.to_string(),
            to: to.to_string(),
        });
        // Combat (J), (K): a unit that retreats before combat is dispersed at the end.
        self.disperse(u);
        self.update_cities();
    }

    pub(crate) fn check_defence_supply(&self, a: crate::game::Action) -> Result<(), Refusal> {
        use crate::game::Action;
        match a {
            Action::Supply { unit } => self.check_supply(unit, 1 - self.player),
            Action::End => Ok(()),
            _ => Err(refuse("Combat", "the defender allocates supply, then ends")),
        }
    }

    // ---- resolution ----------------------------------------------------------------------

    /// Moves to the next combat that can be fought, or ends the combat phase.
    pub(crate) fn advance_resolution(&mut self) {
        while self.next_combat < self.combats.len() {
            let c = self.combats[self.next_combat].clone();
            let side = self.player;
            let defended = c.targets.iter().any(|&t| self.enemy_at(side, t));
            if !defended {
                // Supply (F): the defender retreated before combat; nothing is fought.
                self.events.push(Event::CombatVoid {
                    from: c.from.to_string(),
                    why: "the defenders are gone".into(),
                });
                self.next_combat += 1;
                // Combat (M): the attackers may always enter a hex vacated by a retreat
                // before combat.
                if c.targets.len() == 1 && self.offer_advance(c.from, c.targets[0]) {
                    return;
                }
                continue;
            }
            if self.attacking_force(side, c.from).printed.is_empty() {
                self.events.push(Event::CombatVoid {
                    from: c.from.to_string(),
                    why: "no attacker is left".into(),
                });
                self.next_combat += 1;
                continue;
            }
            self.chance = Chance::Combat;
            return;
        }
        self.chance = Chance::None;
        self.end_combat_phase();
    }

    /// A hex's units take part in combat supplied (Combat (I), Supply (D)): in a fortress, or
    /// next to an allocated supply unit, which is then spent; `mark` records it.
    fn supplied_in_combat(&mut self, side: u8, h: Hex) -> bool {
        if self.ctx.board.hex(h).fortress {
            return true;
        }
        match self.supply_near(side, h, |s| s.supply_use & supply_use::ALLOCATED != 0) {
            Some(s) => {
                self.units[s].supply_use |= supply_use::FOUGHT;
                true
            }
            None => false,
        }
    }

    pub(crate) fn resolve_combat(&mut self, die: u8) {
        self.chance = Chance::None;
        let c = self.combats[self.next_combat].clone();
        let side = self.player;
        let enemy = 1 - side;
        let ctx = self.ctx.clone();
        let b = &ctx.board;
        let targets: Vec<Hex> = c
            .targets
            .iter()
            .copied()
            .filter(|&t| self.enemy_at(side, t))
            .collect();
        let af = self.attacking_force(side, c.from);
        let a_sup = self.supplied_in_combat(side, c.from);
        let attack = attack_strength(&af.printed, a_sup, &af.leaders);
        let mut defence = 0u32;
        let mut min = 0u32;
        for &t in &targets {
            let s = b.between(c.from, t).unwrap_or_default();
            let df = self.defending_force(enemy, t);
            let d_sup = self.supplied_in_combat(enemy, t);
            defence += defence_strength(&df.printed, d_sup, u32::from(s.defence), &df.leaders);
            min = min.max(u32::from(s.min_percent));
        }
        let o = match odds(&self.ctx.tables.crt, attack, defence, min) {
            Ok(o) => o,
            Err(e) => {
                // TEC River hexside: an attack on units the French could not examine, found
                // below the floor when they are revealed, is called off (ruling L30).
                self.events.push(Event::CombatVoid {
                    from: c.from.to_string(),
                    why: e.to_string(),
                });
                self.next_combat += 1;
                self.advance_resolution();
                return;
            }
        };
        let raw = self
            .ctx
            .tables
            .crt
            .result(o.column, die)
            .unwrap_or(CombatResult::NONE);
        let fortress = targets.iter().any(|&t| b.hex(t).fortress);
        let result = if fortress {
            raw.against_fortress()
        } else {
            raw
        };
        self.events.push(Event::CombatResolved {
            from: c.from.to_string(),
            targets: targets.iter().map(|h| h.to_string()).collect(),
            attack,
            defence,
            percent: o.percent,
            column: self.ctx.tables.crt.column_name(o.column),
            die,
            result: result.to_string(),
        });
        self.combats[self.next_combat].result = Some(result);
        // The defender's losses in divisions, for the half exchange.
        let mut defender_divisions = 0u32;
        let mut due = Vec::new();
        match result {
            CombatResult::HalfExchange | CombatResult::Automatic => {
                for &t in &targets {
                    for i in self.units_at(t) {
                        if self.units[i].side == enemy {
                            if self.arm(&self.units[i]).is_combat() {
                                defender_divisions += self.kind(&self.units[i]).worth;
                            }
                            self.eliminate(i, false);
                        }
                    }
                }
            }
            CombatResult::Sides { defender, .. } => {
                for &t in &targets {
                    due.push(Due::Effect(enemy, t, defender));
                }
            }
        }
        if result == CombatResult::HalfExchange {
            due.push(Due::HalfExchange(
                side,
                c.from,
                half_exchange_attacker_loss(defender_divisions),
            ));
        }
        due.push(Due::Effect(side, c.from, result.attacker()));
        // Combat (M): after an attack across a river or on a fortress that empties the hex,
        // the attackers may advance, unless the result touched them (L5).
        let advance_into = match targets[..] {
            [t] => {
                let river = b.between(c.from, t).is_some_and(|s| s.river);
                raw.attacker_may_advance_into(river, b.hex(t).fortress)
                    .then_some(t)
            }
            _ => None,
        };
        due.push(Due::Finish(c.from, advance_into));
        self.due = due;
        self.run_due();
    }

    /// Carries out what a resolved combat still owes, in order, stopping where an owner must
    /// choose a retreat among equal routes (ruling L45).
    pub(crate) fn run_due(&mut self) {
        while self.retreat_choice.is_none() && !self.due.is_empty() {
            let d = self.due.remove(0);
            match d {
                Due::Effect(side, h, e) => self.carry_out(side, h, e),
                Due::HalfExchange(side, h, owed) => self.half_exchange_loss(side, h, owed),
                Due::Scatter(side, u) => self.scatter_one(side, usize::from(u)),
                Due::Finish(from, into) => {
                    self.update_cities();
                    self.next_combat += 1;
                    if into.is_some_and(|t| self.offer_advance(from, t)) {
                        return;
                    }
                    self.advance_resolution();
                    return;
                }
            }
        }
    }

    /// The owner's choice of a retreat route (ruling L45): `retreat A3 1212` naming the first
    /// unit of the retreating group and one of the equal ends.
    pub(crate) fn check_retreat_choice(&self, unit: u16, to: Hex) -> Result<(), Refusal> {
        let Some(c) = &self.retreat_choice else {
            return Err(refuse("action", "no retreat is to be chosen now"));
        };
        if c.units.first() != Some(&unit) {
            return Err(refuse(
                "Retreat Order of Preference",
                format!(
                    "choose where {} retreats first",
                    self.label(usize::from(c.units[0]))
                ),
            ));
        }
        if !c.options.contains(&to) {
            return Err(refuse(
                "Retreat Order of Preference",
                format!(
                    "{} retreats by the order of preference to one of {}",
                    self.label(usize::from(unit)),
                    c.options
                        .iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn apply_retreat_choice(&mut self, to: Hex) {
        let Some(c) = self.retreat_choice.take() else {
            return;
        };
        for &u in &c.units {
            self.retreat_to(usize::from(u), to);
            if c.scatter && self.units[usize::from(u)].on_map() {
                self.disperse(usize::from(u));
            }
        }
        self.run_due();
    }

    /// Offers the attackers of `from` the advance into `to` when it is empty of enemy units
    /// and they are still there; true when offered.
    fn offer_advance(&mut self, from: Hex, to: Hex) -> bool {
        let side = self.player;
        let empty = !self.enemy_at(side, to);
        let movers = !self.advancing(from).is_empty();
        if empty && movers && self.may_enter(side, Arm::Infantry, to, &self.occupancy()) {
            self.advance = Some((from, to));
            true
        } else {
            false
        }
    }

    /// The units that advance from a hex: its combat units that are not dispersed, and its
    /// leaders (Combat (M)).
    fn advancing(&self, from: Hex) -> Vec<usize> {
        self.units_at(from)
            .into_iter()
            .filter(|&i| {
                let u = &self.units[i];
                u.side == self.player
                    && !self.is_dispersed(u)
                    && !u.aside
                    && (self.arm(u).is_combat() || self.arm(u) == Arm::Leader)
            })
            .collect()
    }

    pub(crate) fn apply_advance(&mut self, from: Hex, to: Hex) {
        for i in self.advancing(from) {
            if self.arm(&self.units[i]) == Arm::Cavalry && !self.ctx.board.hex(to).cavalry {
                continue;
            }
            self.units[i].hex = to;
            self.events.push(Event::Advanced {
                unit: self.label(i),
                from: from.to_string(),
                to: to.to_string(),
            });
        }
        self.advance = None;
        self.update_cities();
        self.advance_resolution();
    }

    /// The attacker's half of a half exchange: divisions of the attacking hex, smallest units
    /// first, broken down where a unit is worth more than is still owed (CRT ½ex).
    fn half_exchange_loss(&mut self, side: u8, h: Hex, mut owed: u32) {
        while owed > 0 {
            let mut ours: Vec<usize> = self
                .units_at(h)
                .into_iter()
                .filter(|&i| {
                    let u = &self.units[i];
                    u.side == side && !u.aside && self.arm(u).is_combat()
                })
                .collect();
            if ours.is_empty() {
                return;
            }
            ours.sort_by_key(|&i| (self.kind(&self.units[i]).worth, i));
            let i = ours[0];
            let w = self.kind(&self.units[i]).worth;
            if w <= owed {
                self.eliminate(i, false);
                owed -= w;
            } else {
                let into = *self.split_kinds(i).last().unwrap_or(&self.units[i].kind);
                self.force_split(i, into);
            }
        }
    }

    /// Breaks a unit down where it stands, at no cost (scattering, the half exchange).
    fn force_split(&mut self, u: usize, into: u8) -> Vec<usize> {
        let src = self.units[u].clone();
        let w = self.kind(&src).worth;
        let iw = self.ctx.units.kinds[usize::from(into)].worth.max(1);
        let mut made = Vec::new();
        for _ in 0..(w / iw) {
            let i = self.spawn(src.side, into, src.nationality, 0);
            let nu = &mut self.units[i];
            nu.hex = src.hex;
            nu.status = Status::OnMap;
            nu.revealed = src.revealed;
            nu.saxon = src.saxon;
            nu.dispersed_until = src.dispersed_until;
            made.push(i);
        }
        self.units[u].status = Status::Gone;
        self.events.push(Event::Split {
            unit: self.label(u),
            into: made.iter().map(|&i| self.label(i)).collect(),
        });
        made
    }

    /// Carries one side's effect out on its units in a hex (CRT: every unit of the stack, the
    /// non-combat ones alike).
    pub(crate) fn carry_out(&mut self, side: u8, h: Hex, e: Effect) {
        // Stacking (D): units that stood aside from the attack take no part in its result (L44).
        let here: Vec<usize> = self
            .units_at(h)
            .into_iter()
            .filter(|&i| self.units[i].side == side && !self.units[i].aside)
            .collect();
        if here.is_empty() {
            return;
        }
        match e {
            Effect::None => {}
            Effect::Destroyed => {
                for i in here {
                    self.eliminate(i, false);
                }
            }
            Effect::Dispersed { retreat } => {
                for &i in &here {
                    self.disperse(i);
                }
                if retreat > 0 {
                    let ends = self.retreat_ends(side, h, retreat);
                    match ends[..] {
                        [] => {
                            // Retreat Order of Preference (C): no route, eliminated.
                            for i in here {
                                self.eliminate(i, false);
                            }
                        }
                        [end] => {
                            for &i in &here {
                                self.retreat_to(i, end);
                            }
                        }
                        _ => {
                            // The owning player retreats his units: among equal routes he
                            // chooses (L45).
                            self.retreat_choice = Some(RetreatChoice {
                                side,
                                units: here.iter().map(|&i| i as u16).collect(),
                                options: ends,
                                scatter: false,
                            });
                        }
                    }
                }
            }
            Effect::Scattered => self.scatter(side, here),
        }
    }

    fn retreat_to(&mut self, i: usize, end: Hex) {
        let from = self.units[i].hex;
        if self.ctx.board.hex(end).austria && !self.austria_open() {
            // The scenarios: a unit forced into a closed Austria is eliminated.
            self.eliminate(i, false);
            return;
        }
        self.units[i].hex = end;
        self.events.push(Event::Retreated {
            unit: self.label(i),
            from: from.to_string(),
            to: end.to_string(),
        });
    }

    /// Whether a retreat after combat may step from `h` into `n`: not across an unbridged
    /// river, not into a mountain or a hex of enemy units (Combat (K)); enemy zones are
    /// allowed but counted.
    fn retreat_step_ok(&self, side: u8, h: Hex, d: usize, n: Hex) -> bool {
        let b = &self.ctx.board;
        if !b.side(h, d).retreat || b.hex(n).mountain {
            return false;
        }
        !self.enemy_at(side, n)
            && !self
                .units_at(n)
                .iter()
                .any(|&i| self.saxon_locked(&self.units[i]) && self.units[i].side != side)
    }

    /// The ends of a retreat of `n` hexes from `h` the Retreat Order of Preference leaves
    /// equal: through the fewest enemy controlled hexes (A), toward the side's own edges (B),
    /// never the same hex twice (C); a closed Austria last. Sorted; empty: no route. The owner
    /// chooses among them (ruling L45).
    pub(crate) fn retreat_ends(&self, side: u8, h: Hex, n: u8) -> Vec<Hex> {
        let zoc = self.zones_of_control();
        let b = &self.ctx.board;
        let enemy = usize::from(1 - side);
        let mut best: Option<(u32, bool, i32)> = None;
        let mut ends: Vec<Hex> = Vec::new();
        let mut stack = vec![(h, vec![h], 0u32)];
        while let Some((at, path, zocs)) = stack.pop() {
            if path.len() as u8 == n + 1 {
                let closed = b.hex(at).austria && !self.austria_open();
                let key = (zocs, closed, b.from_home_edge(side, at));
                if best.is_none_or(|k| key < k) {
                    best = Some(key);
                    ends.clear();
                }
                if best == Some(key) {
                    ends.push(at);
                }
                continue;
            }
            for (d, nb) in b.neighbours(at) {
                if path.contains(&nb) || !self.retreat_step_ok(side, at, d, nb) {
                    continue;
                }
                let i = b.index(nb).expect("on the map");
                let z = zocs + u32::from(zoc[i][enemy] > 0);
                let mut p = path.clone();
                p.push(nb);
                stack.push((nb, p, z));
            }
        }
        ends.sort();
        ends.dedup();
        ends
    }

    /// Scattering (Combat (K)): the stack breaks down to its smallest units, each retreats its
    /// full allowance by the order of preference and may not end with any other unit
    /// (eliminated if it must); all are dispersed at the end.
    fn scatter(&mut self, side: u8, here: Vec<usize>) {
        let mut all = Vec::new();
        for i in here {
            let smallest = self.split_kinds(i).last().copied();
            match smallest {
                Some(k) => all.extend(self.force_split(i, k)),
                None => all.push(i),
            }
        }
        // Each unit retreats in turn, before what the combat still owes.
        let mut due: Vec<Due> = all.iter().map(|&i| Due::Scatter(side, i as u16)).collect();
        due.append(&mut self.due);
        self.due = due;
    }

    /// One scattered unit's retreat: the order of preference's end, or its owner's choice
    /// among equal ends (L45); eliminated with none.
    fn scatter_one(&mut self, side: u8, i: usize) {
        if !self.units[i].on_map() {
            return;
        }
        let ends = self.scatter_ends(side, i);
        match ends[..] {
            [] => self.eliminate(i, false),
            [end] => {
                self.retreat_to(i, end);
                if self.units[i].on_map() {
                    self.disperse(i);
                }
            }
            _ => {
                self.retreat_choice = Some(RetreatChoice {
                    side,
                    units: vec![i as u16],
                    options: ends,
                    scatter: true,
                });
            }
        }
    }

    /// Where a scattered unit may end: within its allowance (terrain and stacking costs), in an
    /// empty hex, through the fewest enemy controlled hexes, nearest its own edges; the ends
    /// equal by these, sorted (empty: none).
    fn scatter_ends(&self, side: u8, u: usize) -> Vec<Hex> {
        let b = &self.ctx.board;
        let zoc = self.zones_of_control();
        let occ = self.occupancy();
        let enemy = usize::from(1 - side);
        let start = self.units[u].hex;
        let Some(si) = b.index(start) else {
            return Vec::new();
        };
        let budget = self.allowance(&self.units[u]) as u16;
        let arm = self.arm(&self.units[u]);
        let mut best: Vec<(u16, u32)> = vec![(u16::MAX, u32::MAX); b.len()];
        best[si] = (0, 0);
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0u32, 0u16, si)));
        let mut ends: Vec<((u32, bool, i32, Hex), Hex)> = Vec::new();
        while let Some(Reverse((z, c, i))) = heap.pop() {
            if (c, z) != (best[i].0, best[i].1) {
                continue;
            }
            let h = b.hex_at(i);
            if i != si && occ.any[i] == [0, 0] {
                let closed = b.hex(h).austria && !self.austria_open();
                ends.push(((z, closed, b.from_home_edge(side, h), h), h));
            }
            for (d, n) in b.neighbours(h) {
                if !self.retreat_step_ok(side, h, d, n) {
                    continue;
                }
                let info = b.hex(n);
                if (arm == Arm::Cavalry && !info.cavalry)
                    || (matches!(arm, Arm::Supply | Arm::Depot) && !info.supply)
                {
                    continue;
                }
                let ni = b.index(n).expect("on the map");
                let mut cost = u16::from(b.side(h, d).cost);
                if arm.is_combat() && occ.combat[ni][usize::from(side)] > 0 {
                    cost += 1;
                }
                let nc = c + cost;
                let nz = z + u32::from(zoc[ni][enemy] > 0);
                if nc <= budget && (nz, nc) < (best[ni].1, best[ni].0) {
                    best[ni] = (nc, nz);
                    heap.push(Reverse((nz, nc, ni)));
                }
            }
        }
        ends.sort();
        let Some(&(k, _)) = ends.first() else {
            return Vec::new();
        };
        ends.iter()
            .filter(|(key, _)| (key.0, key.1, key.2) == (k.0, k.1, k.2))
            .map(|&(_, h)| h)
            .collect()
    }

    // ---- automatic elimination during movement (CRT Auto) -------------------------------

    pub(crate) fn check_overrun(&self, from: Hex, to: Hex) -> Result<(), Refusal> {
        if self.armistice_active() {
            return Err(refuse("Armistice", "no combat during the armistice"));
        }
        let side = self.player;
        let b = &self.ctx.board;
        if !b.adjacent(from, to) || !self.enemy_at(side, to) {
            return Err(refuse(
                "CRT Auto",
                "an automatic elimination is made against an adjacent enemy hex",
            ));
        }
        let movers = self
            .units_at(from)
            .into_iter()
            .any(|i| self.arm(&self.units[i]).is_combat() && self.may_move(&self.units[i]));
        if !movers {
            return Err(refuse(
                "CRT Auto",
                "it is made by units that are moving (with movement points left)",
            ));
        }
        if self
            .units_at(to)
            .iter()
            .any(|&i| self.saxon_locked(&self.units[i]))
        {
            return Err(refuse(
                "Saxon Garrison",
                "no attack against the Saxon garrison before its turn",
            ));
        }
        if side == 0
            && self.reconnaissance()
            && self
                .units_at(to)
                .iter()
                .any(|&i| self.units[i].side == 1 && self.units[i].revealed < 2)
        {
            return Err(refuse(
                "Reconnaissance",
                "the French eliminate automatically only units a cavalry unit has exposed",
            ));
        }
        let af = self.attacking_force(side, from);
        let a_sup = b.hex(from).fortress || self.supply_near(side, from, |_| true).is_some();
        let attack = attack_strength(&af.printed, a_sup, &af.leaders);
        let df = self.defending_force(1 - side, to);
        let may_supply = b.hex(to).fortress || self.supply_near(1 - side, to, |_| true).is_some();
        let m = b.between(from, to).map_or(1, |s| u32::from(s.defence));
        let ok = automatic_elimination(
            &self.ctx.tables.crt,
            &MovingAttack {
                attack,
                defender_printed: &df.printed,
                defender_may_be_supplied: may_supply,
                multiplier: m,
                leader_defence: &df.leaders,
                defender_has_cavalry: df.cavalry,
            },
        );
        if !ok {
            return Err(refuse(
                "CRT Auto",
                if df.cavalry {
                    "no automatic elimination of a hex holding cavalry".to_string()
                } else {
                    format!(
                        "the attack ({attack}) does not reach 500% of the defence as it could \
                         be in the combat phase"
                    )
                },
            ));
        }
        Ok(())
    }

    pub(crate) fn legal_overrun(&self, out: &mut Vec<crate::game::Action>) {
        let side = self.player;
        let mut hexes: Vec<Hex> = self
            .units
            .iter()
            .filter(|u| u.on_map() && u.side == side && self.arm(u).is_combat() && self.may_move(u))
            .map(|u| u.hex)
            .collect();
        hexes.sort();
        hexes.dedup();
        for from in hexes {
            for (_, to) in self.ctx.board.neighbours(from) {
                if self.enemy_at(side, to) && self.check_overrun(from, to).is_ok() {
                    out.push(crate::game::Action::Overrun { from, to });
                }
            }
        }
    }

    pub(crate) fn apply_overrun(&mut self, from: Hex, to: Hex) {
        let side = self.player;
        self.events.push(Event::Overrun {
            from: from.to_string(),
            to: to.to_string(),
        });
        for i in self.units_at(to) {
            if self.units[i].side != side {
                self.eliminate(i, false);
            }
        }
        self.overrun.push(to);
    }
}
