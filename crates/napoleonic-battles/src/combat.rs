//! NB Melee phase procedures: declaring a melee, cavalry's retreat before infantry's melee,
//! the to-hit and morale dice, losses allocated by their loser, retreats, leader casualties
//! and the mandatory advance into a won hex.

use crate::action::Action;
use crate::data::{CavalryClass, Rank};
use crate::event::Event;
use crate::game::{other, Disorder, Fight, Game, LeaderLoc, Loc, Step};
use crate::melee::{assess, AttackerArm, Column, HexForce, MeleeOdds, MeleeSituation, Through};
use crate::movement::{arc, Arc};
use engine::Refusal;
use hexmap::{Dir, Hex};
use naw::{UnitId, UnitType};

const MELEE: &str = "NB Melee phase procedures";

impl Game {
    /// The activated units of the acting side in a hex that may melee (artillery never
    /// attacks).
    fn melee_attackers(&self, from: Hex) -> Vec<UnitId> {
        self.units_at(from)
            .into_iter()
            .filter(|&u| {
                self.us(u).active
                    && self.side_of(u) == self.st.acting
                    && self.kind(u) != UnitType::Artillery
            })
            .collect()
    }

    /// The situation of a melee from `from` into `to` (for [`crate::melee::assess`]), or why
    /// none may be made.
    pub fn melee_situation(&self, from: Hex, to: Hex) -> Result<MeleeSituation, Refusal> {
        let attackers = self.melee_attackers(from);
        if attackers.is_empty() {
            return Err(Refusal::new(
                MELEE,
                "only activated infantry or cavalry may melee",
            ));
        }
        let Some(dir_in) = self.sc.map.direction(to, from) else {
            return Err(Refusal::new(
                MELEE,
                "melee is one hex against an adjacent hex",
            ));
        };
        let defenders = self.units_at(to);
        let Some(&d0) = defenders.first() else {
            return Err(Refusal::new(MELEE, "no enemy unit there"));
        };
        if self.side_of(d0) == self.st.acting {
            return Err(Refusal::new(MELEE, "no enemy unit there"));
        }
        let force = |us: &[UnitId]| {
            let mut f = HexForce::default();
            for &u in us {
                let sp = self.sp(u);
                match self.kind(u) {
                    UnitType::Infantry => f.infantry += sp,
                    UnitType::Cavalry => f.cavalry += sp,
                    UnitType::Artillery => f.artillery += sp,
                }
            }
            f
        };
        let att = force(&attackers);
        let through = if self.sup.hex_class(&self.sc, to).fortified {
            Through::Front
        } else {
            match arc(self.facing(d0), dir_in) {
                Arc::Front => Through::Front,
                Arc::Flank => Through::Flank,
                Arc::Rear => Through::Rear,
            }
        };
        let cross = self.sup.crossing(&self.sc, from, to);
        let cav_class = |u: UnitId| self.sup.cavalry_class(&self.sc, u);
        let def_cav: Vec<UnitId> = defenders
            .iter()
            .copied()
            .filter(|&u| self.kind(u) == UnitType::Cavalry)
            .collect();
        Ok(MeleeSituation {
            attacker: att,
            defender: force(&defenders),
            attacker_arm: if att.cavalry > 0 {
                AttackerArm::Cavalry
            } else {
                AttackerArm::Infantry
            },
            attacker_morale: attackers.iter().map(|&u| self.morale(u)).min().unwrap_or(0),
            defender_morale: defenders.iter().map(|&u| self.morale(u)).max().unwrap_or(0),
            defender_disordered: defenders
                .iter()
                .any(|&u| self.us(u).disorder != Disorder::Good),
            through,
            attacker_old_guard: attackers.iter().all(|&u| self.sup.old_guard(&self.sc, u)),
            defender_old_guard: defenders.iter().any(|&u| self.sup.old_guard(&self.sc, u)),
            attacker_heavy_cavalry: att.cavalry > 0
                && attackers
                    .iter()
                    .all(|&u| cav_class(u) == Some(CavalryClass::Heavy)),
            defender_light_cavalry: !def_cav.is_empty()
                && def_cav.len() == defenders.len()
                && def_cav
                    .iter()
                    .all(|&u| cav_class(u) == Some(CavalryClass::Light)),
            terrain: self.sup.hex_class(&self.sc, to),
            across_bridge: cross.river_bridge,
            across_stream: cross.stream,
            up_slope: cross.up_slope,
        })
    }

    /// The odds of a melee from `from` into `to`: the assessment with every shift.
    pub fn melee_odds(&self, from: Hex, to: Hex) -> Result<MeleeOdds, Refusal> {
        let s = self.melee_situation(from, to)?;
        Ok(assess(&self.sup.melee, &s, &self.sup.stacking))
    }

    fn check_declare(&self, from: Hex, to: Hex) -> Result<usize, Refusal> {
        let Some(act) = &self.st.act else {
            return Err(Refusal::new(MELEE, "no activation"));
        };
        if self.night() {
            return Err(Refusal::new(
                "NB Napoleon At Leipzig",
                "no combat of any kind on a night turn",
            ));
        }
        if act.attackers.contains(&from) {
            return Err(Refusal::new(
                MELEE,
                "that hex has already made its melee (NB64)",
            ));
        }
        if act.attacked.contains(&to) {
            return Err(Refusal::new(
                MELEE,
                "only one hex may melee a given enemy hex in a melee phase",
            ));
        }
        let attackers = self.melee_attackers(from);
        let Some(&a0) = attackers.first() else {
            return Err(Refusal::new(
                MELEE,
                "only activated infantry or cavalry may melee",
            ));
        };
        if !self.fronts(from, self.facing(a0), to) {
            return Err(Refusal::new(
                MELEE,
                "a melee goes through one of the attacker's three front hexsides",
            ));
        }
        if act.out_of_range
            && !attackers
                .iter()
                .any(|&u| self.sc.map.distance(self.us(u).start, to) <= 1)
        {
            return Err(Refusal::new(
                "NB Action phase",
                "a unit activation beyond its officer's range fights only enemies it was already adjacent to",
            ));
        }
        let odds = self.melee_odds(from, to)?;
        match odds.column {
            Column::Table(c) => Ok(c),
            Column::Off => Err(Refusal::new("NB7", odds.explain(&self.sup.melee))),
        }
    }

    /// The hexes a stack of `side` in `cur` may retreat into, moving away from `away`.
    pub fn retreat_options(&self, side: u8, cur: Hex, away: Hex, stack: &[UnitId]) -> Vec<Hex> {
        let mut v = Vec::new();
        for d in Dir::ALL {
            let n = self.sc.map.neighbour(cur, d);
            if !self.sc.map.contains(n) {
                continue;
            }
            // the terrain must let every unit of the stack in (NB73: infantry into swamp)
            if stack
                .iter()
                .any(|&u| self.terrain_step(self.kind(u), cur, d).is_err())
            {
                continue;
            }
            if self.sc.map.distance(n, away) <= self.sc.map.distance(cur, away) {
                continue;
            }
            let here = self.occupants(n);
            if here.iter().any(|&u| self.side_of(u) != side) {
                continue;
            }
            // NB Movement procedures: not through an enemy front hex unless a friend is there.
            if here.is_empty() && self.enemy_front(side, n) {
                continue;
            }
            if self.stacking(n, stack).is_err() {
                continue;
            }
            v.push(n);
        }
        v
    }

    fn fight_stack(&self, f: &Fight, k: u8) -> Vec<UnitId> {
        let (list, hex) = if k == 0 {
            (&f.attackers, f.retreating.map_or(f.from, |r| r.1))
        } else {
            (&f.defenders, f.retreating.map_or(f.to, |r| r.1))
        };
        list.iter()
            .copied()
            .filter(|&u| self.us(u).loc == Loc::Map(hex))
            .collect()
    }

    fn alive(&self, list: &[UnitId]) -> Vec<UnitId> {
        list.iter()
            .copied()
            .filter(|&u| matches!(self.us(u).loc, Loc::Map(_)))
            .collect()
    }

    pub(crate) fn check_melee(&self, a: Action) -> Result<(), Refusal> {
        let fight = self.st.fight.as_ref();
        match self.st.step {
            Step::Melee => match a {
                Action::End => Ok(()),
                Action::Melee { from, to } => self.check_declare(from, to).map(|_| ()),
                _ => Err(Refusal::new(
                    MELEE,
                    "in the melee phase: melee HEX HEX or end",
                )),
            },
            Step::Evade => {
                let Some(f) = fight else {
                    return Err(Refusal::new(MELEE, "no melee"));
                };
                match a {
                    Action::Stand => Ok(()),
                    Action::Evade => {
                        let stack = self.alive(&f.defenders);
                        if self
                            .retreat_options(other(self.st.acting), f.to, f.from, &stack)
                            .is_empty()
                        {
                            Err(Refusal::new(
                                MELEE,
                                "the cavalry has no retreat route and may not retreat before melee",
                            ))
                        } else {
                            Ok(())
                        }
                    }
                    _ => Err(Refusal::new(
                        MELEE,
                        "the defending cavalry retreats before the melee (evade) or stands",
                    )),
                }
            }
            Step::Losses => {
                let Some(f) = fight else {
                    return Err(Refusal::new(MELEE, "no melee"));
                };
                let k = if f.loss[1] > 0 { 1 } else { 0 };
                let list = if k == 1 { &f.defenders } else { &f.attackers };
                match a {
                    Action::Lose { unit } if self.alive(list).contains(&unit) => Ok(()),
                    _ => Err(Refusal::new(
                        "NB Steps and losses",
                        "the side losing SP allocates each to one of its units in the melee (lose U)",
                    )),
                }
            }
            Step::Retreat => {
                let Some(f) = fight else {
                    return Err(Refusal::new(MELEE, "no melee"));
                };
                let Some((k, cur)) = f.retreating else {
                    return Err(Refusal::new(MELEE, "no retreat"));
                };
                let (side, away) = if k == 1 {
                    (other(self.st.acting), f.from)
                } else {
                    (self.st.acting, f.to)
                };
                let stack = self.fight_stack(f, k);
                match a {
                    Action::Retreat { to }
                        if self.retreat_options(side, cur, away, &stack).contains(&to) =>
                    {
                        Ok(())
                    }
                    _ => Err(Refusal::new(
                        "NB Movement",
                        "a retreat steps away from the enemy, into no enemy hex and through no enemy front hex without a friend in it",
                    )),
                }
            }
            Step::Advance => {
                let Some(f) = fight else {
                    return Err(Refusal::new(MELEE, "no melee"));
                };
                match a {
                    Action::Advance { unit } => {
                        if !f.attackers.contains(&unit)
                            || self.us(unit).loc != Loc::Map(f.from)
                            || f.advanced.contains(&unit)
                        {
                            return Err(Refusal::new(
                                MELEE,
                                "only the attacking units advance into the won hex",
                            ));
                        }
                        self.stacking(f.to, &[unit])
                    }
                    Action::Face { hex, dir } => {
                        if hex != f.to || f.advanced.is_empty() || f.turned {
                            return Err(Refusal::new(
                                MELEE,
                                "after advancing, the won hex may turn one hexspine once",
                            ));
                        }
                        let entry = self.sc.map.direction(f.from, f.to).unwrap_or(Dir::E);
                        let diff = (dir as u8 + 6 - entry as u8) % 6;
                        if diff != 1 && diff != 5 {
                            return Err(Refusal::new(
                                MELEE,
                                "after advancing a unit turns at most one hexspine from the direction it entered by",
                            ));
                        }
                        Ok(())
                    }
                    Action::End => {
                        if f.advanced.is_empty() && self.can_advance(f) {
                            Err(Refusal::new(
                                MELEE,
                                "the attackers must advance into the won hex (at least one unit)",
                            ))
                        } else {
                            Ok(())
                        }
                    }
                    _ => Err(Refusal::new(MELEE, "advance U, face HEX DIR, or end")),
                }
            }
            _ => Err(Refusal::new(MELEE, "not now")),
        }
    }

    fn can_advance(&self, f: &Fight) -> bool {
        f.attackers.iter().any(|&u| {
            self.us(u).loc == Loc::Map(f.from)
                && !f.advanced.contains(&u)
                && self.stacking(f.to, &[u]).is_ok()
        })
    }

    pub(crate) fn melee_candidates(&self, out: &mut Vec<Action>) {
        match self.st.step {
            Step::Melee => {
                out.push(Action::End);
                let mut hexes = Vec::new();
                for u in self.unit_ids() {
                    if self.us(u).active {
                        if let Some(h) = self.hex_of(u) {
                            if !hexes.contains(&h) {
                                hexes.push(h);
                            }
                        }
                    }
                }
                for h in hexes {
                    for n in self.sc.map.neighbours(h) {
                        out.push(Action::Melee { from: h, to: n });
                    }
                }
            }
            Step::Evade => {
                out.push(Action::Evade);
                out.push(Action::Stand);
            }
            Step::Losses => {
                if let Some(f) = &self.st.fight {
                    for &u in f.attackers.iter().chain(f.defenders.iter()) {
                        out.push(Action::Lose { unit: u });
                    }
                }
            }
            Step::Retreat => {
                if let Some((_, cur)) = self.st.fight.as_ref().and_then(|f| f.retreating) {
                    for n in self.sc.map.neighbours(cur) {
                        out.push(Action::Retreat { to: n });
                    }
                }
            }
            Step::Advance => {
                if let Some(f) = &self.st.fight {
                    for &u in &f.attackers {
                        out.push(Action::Advance { unit: u });
                    }
                    for d in Dir::ALL {
                        out.push(Action::Face { hex: f.to, dir: d });
                    }
                    out.push(Action::End);
                }
            }
            _ => {}
        }
    }

    pub(crate) fn apply_melee(&mut self, a: Action) {
        match (self.st.step, a) {
            (Step::Melee, Action::End) => self.end_activation(),
            (Step::Melee, Action::Melee { from, to }) => {
                let Ok(odds) = self.melee_odds(from, to) else {
                    return;
                };
                let Column::Table(column) = odds.column else {
                    return;
                };
                let attackers = self.melee_attackers(from);
                let defenders = self.units_at(to);
                if let Some(act) = self.st.act.as_mut() {
                    act.attackers.push(from);
                    act.attacked.push(to);
                }
                self.events.push(Event::MeleeDeclared {
                    from,
                    to,
                    attack_halves: odds.attack_halves,
                    defence_halves: odds.defence_halves,
                    column: self.sup.melee.column_name(column),
                    shifts: odds
                        .shifts
                        .iter()
                        .map(|s| format!("{:+} {}", s.by, s.why))
                        .collect(),
                });
                // NB Melee phase procedures: cavalry may retreat before infantry's melee.
                let inf_attack = attackers
                    .iter()
                    .all(|&u| self.kind(u) == UnitType::Infantry);
                let cav_defence = defenders.iter().all(|&u| self.kind(u) == UnitType::Cavalry);
                self.st.fight = Some(Fight {
                    from,
                    to,
                    attackers,
                    defenders,
                    column,
                    roll: 0,
                    die: 0,
                    evaded: false,
                    loss: [0; 2],
                    retreat: [0; 2],
                    retreating: None,
                    advanced: Vec::new(),
                    turned: false,
                    morale_checks: [false; 2],
                    leader_loss: [false; 2],
                });
                self.st.step = if inf_attack && cav_defence {
                    Step::Evade
                } else {
                    Step::ToHit
                };
            }
            (Step::Evade, Action::Stand) => self.st.step = Step::ToHit,
            (Step::Evade, Action::Evade) => {
                if let Some(f) = self.st.fight.as_mut() {
                    f.evaded = true;
                    // NB Melee phase procedures: retreat 2 hexes, checking morale.
                    f.retreat = [0, 2];
                    f.morale_checks = [false, true];
                }
                let to = self.st.fight.as_ref().map_or(Hex::default(), |f| f.to);
                self.events.push(Event::Evaded { hex: to });
                self.st.step = Step::MoraleDie;
            }
            (Step::Losses, Action::Lose { unit }) => {
                if let Some(f) = self.st.fight.as_mut() {
                    if f.loss[1] > 0 {
                        f.loss[1] -= 1;
                    } else {
                        f.loss[0] = f.loss[0].saturating_sub(1);
                    }
                }
                self.lose_sp(unit);
                self.continue_fight();
            }
            (Step::Retreat, Action::Retreat { to }) => self.retreat_step(to),
            (Step::Advance, Action::Advance { unit }) => {
                let Some(f) = self.st.fight.as_ref() else {
                    return;
                };
                let (from, to) = (f.from, f.to);
                let d = self.sc.map.direction(from, to).unwrap_or(Dir::E);
                self.set_loc(unit, Loc::Map(to));
                self.us_mut(unit).facing = d as u8;
                if let Some(f) = self.st.fight.as_mut() {
                    f.advanced.push(unit);
                }
                self.events.push(Event::Advanced { unit, to });
                let side = self.st.acting;
                self.displace_leaders(to, side);
            }
            (Step::Advance, Action::Face { hex, dir }) => {
                for u in self.units_at(hex) {
                    self.us_mut(u).facing = dir as u8;
                }
                if let Some(f) = self.st.fight.as_mut() {
                    f.turned = true;
                }
                self.events.push(Event::Faced {
                    hex,
                    dir: dir.name(),
                });
            }
            (Step::Advance, Action::End) => {
                self.st.fight = None;
                self.st.step = Step::Melee;
            }
            _ => {}
        }
    }

    /// The to-hit roll and then the morale die (NB Morale and disorder rules: a third die).
    pub(crate) fn melee_roll(&mut self, n: u8) {
        if self.st.step == Step::ToHit {
            if let Some(f) = self.st.fight.as_mut() {
                f.roll = n;
            }
            self.st.step = Step::MoraleDie;
            return;
        }
        let Some(f) = self.st.fight.as_mut() else {
            return;
        };
        f.die = n;
        if !f.evaded {
            let r = *self.sup.melee.result(f.column, f.roll);
            f.loss = [r.attacker_loss, r.defender_loss];
            f.retreat = [r.attacker_retreat, r.defender_retreat];
            f.morale_checks = [r.attacker_morale_check, r.defender_morale_check];
            f.leader_loss = [r.attacker_leader_loss, r.defender_leader_loss];
            let roll = f.roll;
            self.events.push(Event::MeleeResolved {
                roll,
                result: r.to_string(),
            });
        }
        self.continue_fight();
    }

    /// Carries a melee's results on: losses (defender first, each loser choosing), morale
    /// checks, leader casualties, retreats (defender first), the advance.
    fn continue_fight(&mut self) {
        loop {
            let Some(f) = self.st.fight.clone() else {
                return;
            };
            // losses
            for k in [1u8, 0] {
                if f.loss[usize::from(k)] == 0 {
                    continue;
                }
                let list = if k == 1 { &f.defenders } else { &f.attackers };
                let alive = self.alive(list);
                if alive.is_empty() {
                    if let Some(g) = self.st.fight.as_mut() {
                        g.loss[usize::from(k)] = 0;
                    }
                } else if alive.len() == 1 {
                    let u = alive[0];
                    let n = f.loss[usize::from(k)];
                    if let Some(g) = self.st.fight.as_mut() {
                        g.loss[usize::from(k)] = 0;
                    }
                    for _ in 0..n {
                        if matches!(self.us(u).loc, Loc::Map(_)) {
                            self.lose_sp(u);
                        }
                    }
                } else {
                    // NB Steps and losses: in melee the loser chooses.
                    self.st.step = Step::Losses;
                    return;
                }
            }
            let f = self.st.fight.clone().unwrap_or(f);
            if f.loss != [0, 0] {
                continue;
            }
            // morale checks with the morale die, then leader casualties
            for k in [0u8, 1] {
                if f.morale_checks[usize::from(k)] {
                    self.morale_check(&f, k);
                }
                if f.leader_loss[usize::from(k)] {
                    let hex = if k == 0 { f.from } else { f.to };
                    let side = if k == 0 {
                        self.st.acting
                    } else {
                        other(self.st.acting)
                    };
                    self.leader_casualty(hex, side);
                }
            }
            if let Some(g) = self.st.fight.as_mut() {
                g.morale_checks = [false; 2];
                g.leader_loss = [false; 2];
            }
            // retreats: the defender first
            for k in [1u8, 0] {
                if f.retreat[usize::from(k)] == 0 {
                    continue;
                }
                let hex = if k == 0 { f.from } else { f.to };
                let list = if k == 0 { &f.attackers } else { &f.defenders };
                let stack: Vec<UnitId> = list
                    .iter()
                    .copied()
                    .filter(|&u| self.us(u).loc == Loc::Map(hex))
                    .collect();
                if stack.is_empty() {
                    if let Some(g) = self.st.fight.as_mut() {
                        g.retreat[usize::from(k)] = 0;
                    }
                    continue;
                }
                if let Some(g) = self.st.fight.as_mut() {
                    g.retreating = Some((k, hex));
                }
                if self.retreat_stuck() {
                    continue;
                }
                self.st.step = Step::Retreat;
                return;
            }
            break;
        }
        // the advance
        let Some(f) = self.st.fight.clone() else {
            return;
        };
        let out_of_range = self.st.act.as_ref().is_some_and(|a| a.out_of_range);
        let cleared = self.units_at(f.to).is_empty();
        if cleared && !out_of_range && self.can_advance(&f) {
            self.st.step = Step::Advance;
        } else {
            self.st.fight = None;
            self.st.step = Step::Melee;
        }
    }

    /// When the retreating stack has no way on: it loses one more SP and is disordered (NB
    /// Movement procedures), and its retreat ends. True when that happened.
    fn retreat_stuck(&mut self) -> bool {
        let Some(f) = self.st.fight.clone() else {
            return false;
        };
        let Some((k, cur)) = f.retreating else {
            return false;
        };
        let (side, away) = if k == 1 {
            (other(self.st.acting), f.from)
        } else {
            (self.st.acting, f.to)
        };
        let stack = self.fight_stack(&f, k);
        if !self.retreat_options(side, cur, away, &stack).is_empty() {
            return false;
        }
        self.events.push(Event::NoRetreat { hex: cur });
        // NB65: the strongest unit takes the extra loss.
        if let Some(&u) = stack
            .iter()
            .max_by_key(|&&u| (self.sp(u), std::cmp::Reverse(u)))
        {
            self.lose_sp(u);
        }
        for u in self.fight_stack(&f, k) {
            self.disorder_unit(u);
        }
        if let Some(g) = self.st.fight.as_mut() {
            g.retreat[usize::from(k)] = 0;
            g.retreating = None;
        }
        true
    }

    fn retreat_step(&mut self, to: Hex) {
        let Some(f) = self.st.fight.clone() else {
            return;
        };
        let Some((k, cur)) = f.retreating else {
            return;
        };
        let stack = self.fight_stack(&f, k);
        let side = if k == 1 {
            other(self.st.acting)
        } else {
            self.st.acting
        };
        let joined = self.units_at(to).first().map(|&u| self.us(u).facing);
        for &u in &stack {
            self.set_loc(u, Loc::Map(to));
            if let Some(j) = joined {
                self.us_mut(u).facing = j;
            }
        }
        for l in self.leaders_at(cur) {
            if self.lside(usize::from(l.0)) == Some(side) {
                self.st.leaders[usize::from(l.0)].loc = LeaderLoc::Map(to);
            }
        }
        self.events.push(Event::Retreated { from: cur, to });
        let left = f.retreat[usize::from(k)].saturating_sub(1);
        if let Some(g) = self.st.fight.as_mut() {
            g.retreat[usize::from(k)] = left;
            g.retreating = if left > 0 { Some((k, to)) } else { None };
        }
        if left > 0 && !self.retreat_stuck() {
            return; // still retreating
        }
        if let Some(g) = self.st.fight.as_mut() {
            g.retreating = None;
        }
        self.continue_fight();
    }

    fn morale_check(&mut self, f: &Fight, k: u8) {
        let (list, hex) = if k == 0 {
            (&f.attackers, f.from)
        } else {
            (&f.defenders, f.to)
        };
        let alive: Vec<UnitId> = list
            .iter()
            .copied()
            .filter(|&u| self.us(u).loc == Loc::Map(hex))
            .collect();
        if alive.is_empty() {
            return;
        }
        // NB Morale and disorder rules: attackers their lowest morale, defenders their highest.
        let morale = if k == 0 {
            alive.iter().map(|&u| self.morale(u)).min().unwrap_or(0)
        } else {
            alive.iter().map(|&u| self.morale(u)).max().unwrap_or(0)
        };
        let passed = crate::melee::morale_passes(morale, f.die);
        self.events.push(Event::MoraleCheck {
            hex,
            morale,
            die: f.die,
            passed,
        });
        if !passed {
            for u in alive {
                self.disorder_unit(u);
            }
        }
    }

    pub(crate) fn disorder_unit(&mut self, u: UnitId) {
        self.us_mut(u).disorder = Disorder::ThisImpulse;
        self.events.push(Event::Disordered { unit: u });
    }

    /// NB Combat results tables: the highest-ranking leader in the hex falls.
    fn leader_casualty(&mut self, hex: Hex, side: u8) {
        let best = self
            .leaders_at(hex)
            .into_iter()
            .filter(|l| self.lside(usize::from(l.0)) == Some(side))
            .max_by_key(|l| {
                let d = &self.sup.leaders[usize::from(l.0)];
                (d.rank == Rank::Army, d.command, std::cmp::Reverse(l.0))
            });
        if let Some(l) = best {
            self.st.leaders[usize::from(l.0)].loc = LeaderLoc::Casualty;
            self.events.push(Event::LeaderCasualty { leader: l });
        }
    }

    /// One SP lost (NB Steps and losses, the slower advanced game): counted against the
    /// unit's formation and army.
    pub(crate) fn lose_sp(&mut self, u: UnitId) {
        let s = self.us_mut(u);
        s.sp = s.sp.saturating_sub(1);
        let left = s.sp;
        let f = self.sup.formation_of(&self.sc, u);
        if let Some(fs) = self.st.formations.get_mut(f) {
            fs.lost += 1;
        }
        if let Some(a) = self.sup.formations.get(f).map(|d| d.army) {
            if let Some(x) = self.st.army_lost.get_mut(a) {
                *x += 1;
            }
        }
        self.events.push(Event::Lost { unit: u, left });
        if left == 0 {
            self.set_loc(u, Loc::Eliminated);
            self.events.push(Event::Eliminated { unit: u });
        }
    }
}
