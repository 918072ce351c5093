//! NB Action phase - activations: command points, officer initiative, unit initiative, march
//! orders and written orders; the designation of an activation's units.

use crate::action::{Action, LeaderId};
use crate::data::Rank;
use crate::event::{ActivationKind, Event};
use crate::game::{Act, Bonus, Disorder, Game, LeaderLoc, Loc, Step};
use engine::{Refusal, Side};
use hexmap::Hex;
use naw::UnitId;

const ACT: &str = "NB Action phase";
const ORDERS: &str = "NB50";

/// How far an order's destination may lie from the officer (NB50).
pub const ORDER_RADIUS: u32 = 3;

/// Unit activations: the range of the formation's officer (NB Action phase).
pub const UNIT_COMMAND_RANGE: u32 = 3;

/// A march order reaches this far in cavalry movement points per turn of delay (NB Action
/// phase: March orders).
pub const MARCH_MP_PER_TURN: u16 = 10;

fn refuse(case: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(case, why)
}

impl Game {
    fn leader_ok(&self, l: LeaderId) -> Result<usize, Refusal> {
        let i = usize::from(l.0);
        if i >= self.sup.leaders.len() {
            return Err(refuse("action", "no such leader"));
        }
        Ok(i)
    }

    /// True when commander `c` may spend command points on officer `o`: `o` is below him in
    /// the chain of command, or he is his side's overall commander (NB60).
    pub(crate) fn commands(&self, c: usize, o: usize) -> bool {
        if self
            .sup
            .overall_commanders(&self.sc, Side(self.lside(c).unwrap_or(9)))
            .contains(&c)
        {
            return true;
        }
        let mut cur = self.sup.leaders[o].superior;
        let mut n = 0;
        while let Some(s) = cur {
            if s == c {
                return true;
            }
            n += 1;
            if n > self.sup.leaders.len() {
                break;
            }
            cur = self.sup.leaders[s].superior;
        }
        false
    }

    /// The units an officer's activation takes: his formations' units on the map that have
    /// not acted, were not left out and are not Spent, within his range (NB61).
    pub fn officer_units(&self, o: LeaderId) -> Vec<UnitId> {
        let i = usize::from(o.0);
        let Some(oh) = self.lhex(i) else {
            return Vec::new();
        };
        let def = &self.sup.leaders[i];
        let side = self.lside(i);
        self.unit_ids()
            .filter(|&u| {
                let s = self.us(u);
                let Loc::Map(h) = s.loc else { return false };
                !s.acted
                    && !s.spent
                    && !s.excluded
                    && Some(self.side_of(u)) == side
                    && def.formations.contains(&self.sup.formation_of(&self.sc, u))
                    && self.sc.map.distance(h, oh) <= self.officer_range(i)
            })
            .collect()
    }

    /// An officer's span this turn: his range, grown by a rating lent to him (NB Napoleon's
    /// Last Battles: a corps commander's span is 3 plus his command rating, and a lent rating
    /// adds to that rating; NB75).
    pub(crate) fn officer_range(&self, o: usize) -> u32 {
        u32::from(self.sup.leaders[o].range) + u32::from(self.st.leaders[o].lent)
    }

    /// The units a designation activates.
    pub(crate) fn act_units(&self, act: &Act) -> Vec<UnitId> {
        let mut v: Vec<UnitId> = match act.lead {
            Some(lead) => {
                let Some(h) = self.hex_of(lead) else {
                    return Vec::new();
                };
                let mut v: Vec<UnitId> = self
                    .units_at(h)
                    .into_iter()
                    .filter(|&u| {
                        let s = self.us(u);
                        self.side_of(u) == act.side && !s.acted && !s.spent
                    })
                    .collect();
                v.extend(act.included.iter().copied());
                v
            }
            None => {
                let mut v = Vec::new();
                for &o in &act.officers {
                    v.extend(self.officer_units(LeaderId(o)));
                }
                v
            }
        };
        v.retain(|u| !act.excluded.contains(u));
        v.sort();
        v.dedup();
        v
    }

    fn officer_ready(&self, o: usize, side: u8) -> Result<Hex, Refusal> {
        let def = &self.sup.leaders[o];
        if def.rank != Rank::Corps {
            return Err(refuse(ACT, format!("{} is not an officer", def.id)));
        }
        if self.lside(o) != Some(side) {
            return Err(refuse(ACT, format!("{} is not yours", def.id)));
        }
        let Some(h) = self.lhex(o) else {
            return Err(refuse(ACT, format!("{} is not on the map", def.id)));
        };
        let s = &self.st.leaders[o];
        if s.acted || s.spent {
            return Err(refuse(
                ACT,
                format!("{} has already acted or is Spent this turn", def.id),
            ));
        }
        Ok(h)
    }

    fn commander_ready(&self, c: usize, side: u8) -> Result<Hex, Refusal> {
        let def = &self.sup.leaders[c];
        if def.rank != Rank::Army {
            return Err(refuse(ACT, format!("{} is not a commander", def.id)));
        }
        if self.lside(c) != Some(side) {
            return Err(refuse(ACT, format!("{} is not yours", def.id)));
        }
        let Some(h) = self.lhex(c) else {
            return Err(refuse(ACT, format!("{} is not on the map", def.id)));
        };
        if self.st.leaders[c].cp_used >= def.command {
            return Err(refuse(
                ACT,
                format!("{} has spent his {} command points", def.id, def.command),
            ));
        }
        Ok(h)
    }

    fn check_command(&self, c: usize, o: usize, side: u8) -> Result<(), Refusal> {
        let ch = self.commander_ready(c, side)?;
        self.check_command_from(c, ch, o, side)
    }

    /// [`Game::check_command`] with the commander standing in `ch` (where a move before he
    /// spends his points would take him, NB77).
    fn check_command_from(&self, c: usize, ch: Hex, o: usize, side: u8) -> Result<(), Refusal> {
        let oh = self.officer_ready(o, side)?;
        let cdef = &self.sup.leaders[c];
        if !self.commands(c, o) {
            return Err(refuse(
                "NB60",
                format!("{} is not under {}", self.sup.leaders[o].id, cdef.id),
            ));
        }
        let d = self.sc.map.distance(ch, oh);
        if d > u32::from(cdef.range) {
            return Err(refuse(
                ACT,
                format!(
                    "{} is {d} hexes from {}, beyond his command range of {}",
                    self.sup.leaders[o].id, cdef.id, cdef.range
                ),
            ));
        }
        if self.officer_units(LeaderId(o as u8)).is_empty() {
            return Err(refuse(
                ACT,
                format!("{} has no unit to activate", self.sup.leaders[o].id),
            ));
        }
        Ok(())
    }

    /// The officers of `side` a command point could activate now, wherever the commander
    /// stands: ready, with units to activate (NB Action phase), and where they stand.
    fn activatable_officers(&self, side: u8) -> Vec<(usize, Hex)> {
        (0..self.sup.leaders.len())
            .filter_map(|o| self.officer_ready(o, side).ok().map(|h| (o, h)))
            .filter(|&(o, _)| !self.officer_units(LeaderId(o as u8)).is_empty())
            .collect()
    }

    /// True when commander `c` standing in `at` could spend a command point: an officer of
    /// his (NB60) within his range is ready and has units to activate.
    fn can_command_from(&self, c: usize, at: Hex, side: u8) -> bool {
        let range = u32::from(self.sup.leaders[c].range);
        (0..self.sup.leaders.len()).any(|o| {
            self.lhex(o)
                .is_some_and(|oh| self.sc.map.distance(at, oh) <= range)
                && self.commands(c, o)
                && self.officer_ready(o, side).is_ok()
                && !self.officer_units(LeaderId(o as u8)).is_empty()
        })
    }

    /// NB Action phase (a commander "may move before spending his Command Points"; NB77):
    /// commander `c` moves to `to` as the first step of an activation he then commands. He
    /// must have command points left and not have moved this turn, reach `to` within his
    /// movement allowance (NB62), and find there an officer to spend a point on (he moves
    /// within an activation, so it must follow). The cost in half MP.
    pub(crate) fn check_premove(&self, c: usize, to: Hex, side: u8) -> Result<u16, Refusal> {
        let ch = self.commander_ready(c, side)?;
        let def = &self.sup.leaders[c];
        let s = &self.st.leaders[c];
        if s.moved || s.mp_half > 0 {
            return Err(refuse(
                ACT,
                format!("{} has made his one move of the turn", def.id),
            ));
        }
        if to == ch {
            return Err(refuse("NB Movement", "he is already there"));
        }
        let Some(cost) = self.leader_cost(ch, to, 2 * u16::from(def.movement), side) else {
            return Err(refuse(
                "NB Movement",
                format!("{to} is beyond his {} movement points", def.movement),
            ));
        };
        let range = u32::from(def.range);
        if !self.can_command_from(c, to, side) {
            return Err(refuse(
                "NB77",
                format!(
                    "a commander moves before spending a command point only to spend one: from \
                     {to} no officer of his with units to activate is within his range of {range}"
                ),
            ));
        }
        Ok(cost)
    }

    /// The cavalry movement points (halves) from a commander to an officer, for a march
    /// order, if within 20 MP.
    pub(crate) fn march_cost(&self, from: Hex, to: Hex) -> Option<u16> {
        let max = 4 * MARCH_MP_PER_TURN;
        self.leader_cost(from, to, max, self.st.acting)
    }

    /// The turns a march order from commander `c` would take to reach officer `o` (NB Action
    /// phase: March orders, 1 turn within 10 cavalry MP, 2 within 20), `None` beyond 20 MP or
    /// when either is off the map.
    pub fn march_delay(&self, c: LeaderId, o: LeaderId) -> Option<u8> {
        let ch = self.lhex(usize::from(c.0))?;
        let oh = self.lhex(usize::from(o.0))?;
        let side = self.lside(usize::from(c.0))?;
        let max = 4 * MARCH_MP_PER_TURN;
        let cost = self.leader_cost(ch, oh, max, side)?;
        Some(if cost <= 2 * MARCH_MP_PER_TURN { 1 } else { 2 })
    }

    pub(crate) fn check_activation(&self, a: Action) -> Result<(), Refusal> {
        let side = self.st.acting;
        match self.st.step {
            Step::Choose => match a {
                Action::Pass => Ok(()),
                Action::Command { commander, officer } => {
                    let c = self.leader_ok(commander)?;
                    let o = self.leader_ok(officer)?;
                    self.check_command(c, o, side)
                }
                Action::Initiative { officer } => {
                    let o = self.leader_ok(officer)?;
                    self.officer_ready(o, side)?;
                    if self.officer_units(officer).is_empty() {
                        return Err(refuse(
                            ACT,
                            format!("{} has no unit to activate", self.sup.leaders[o].id),
                        ));
                    }
                    Ok(())
                }
                Action::Unit { lead } => {
                    let Some(s) = self.st.units.get(usize::from(lead.0)) else {
                        return Err(refuse("action", "no such unit"));
                    };
                    if self.side_of(lead) != side {
                        return Err(refuse(ACT, "that unit is not yours"));
                    }
                    if !matches!(s.loc, Loc::Map(_)) {
                        return Err(refuse(ACT, "that unit is not on the map"));
                    }
                    if s.acted || s.spent {
                        return Err(refuse(
                            ACT,
                            "each unit acts once a turn; a Spent unit may not try again",
                        ));
                    }
                    Ok(())
                }
                Action::March {
                    commander,
                    officer,
                    to,
                } => {
                    let c = self.leader_ok(commander)?;
                    let o = self.leader_ok(officer)?;
                    let ch = self.commander_ready(c, side)?;
                    let oh = self.officer_ready(o, side)?;
                    if !self.commands(c, o) {
                        return Err(refuse("NB60", "a march order goes to a subordinate"));
                    }
                    if self.sc.map.distance(ch, oh) <= u32::from(self.sup.leaders[c].range) {
                        return Err(refuse(
                            ACT,
                            "march orders go to officers outside the command range",
                        ));
                    }
                    if self.st.leaders[o].march.is_some() {
                        return Err(refuse(ACT, "that officer already has a march order"));
                    }
                    if self.march_cost(ch, oh).is_none() {
                        return Err(refuse(
                            ACT,
                            "a march order reaches at most 20 cavalry movement points",
                        ));
                    }
                    if !self.sc.map.contains(to) || self.sc.map.distance(oh, to) > ORDER_RADIUS {
                        return Err(refuse(
                            ORDERS,
                            format!("an order's destination lies within {ORDER_RADIUS} hexes of the officer"),
                        ));
                    }
                    Ok(())
                }
                Action::Lend { commander, officer } => {
                    let c = self.leader_ok(commander)?;
                    let o = self.leader_ok(officer)?;
                    let ch = self.commander_ready(c, side)?;
                    let oh = self.officer_ready(o, side)?;
                    if self.st.leaders[c].cp_used > 0 {
                        return Err(refuse(
                            "NB75",
                            "a commander lends his full rating: he may have spent none of it",
                        ));
                    }
                    if self.st.leaders[o].lent > 0 {
                        return Err(refuse(
                            "NB75",
                            "only one commander may lend his rating to an officer in a turn",
                        ));
                    }
                    if !self.commands(c, o) {
                        return Err(refuse("NB60", "a commander lends to a subordinate"));
                    }
                    if self.sc.map.distance(ch, oh) > u32::from(self.sup.leaders[c].range) {
                        return Err(refuse(
                            ACT,
                            "a commander lends his rating within his command range",
                        ));
                    }
                    Ok(())
                }
                Action::Lead { leader, to } => {
                    let c = self.leader_ok(leader)?;
                    self.check_premove(c, to, side).map(|_| ())
                }
                Action::SetAside { officer } => {
                    let o = self.leader_ok(officer)?;
                    if self.lside(o) != Some(side) {
                        return Err(refuse(ACT, "that officer is not yours"));
                    }
                    let s = &self.st.leaders[o];
                    if s.order.is_none() && s.march.is_none() {
                        return Err(refuse(ORDERS, "that officer holds no order"));
                    }
                    Ok(())
                }
                _ => Err(refuse(
                    ACT,
                    "choose an activation (command, initiative, unit; a commander may move first: \
                     lead C HEX), send a march order or pass",
                )),
            },
            Step::Designate => {
                let Some(act) = &self.st.act else {
                    return Err(refuse(ACT, "no activation"));
                };
                match a {
                    Action::Go if act.how == ActivationKind::Command && act.officers.is_empty() => {
                        Err(refuse(
                            "NB77",
                            "the commander has moved: he now spends a command point on an officer \
                             (command C O)",
                        ))
                    }
                    Action::Go => Ok(()),
                    Action::Command { commander, officer } => {
                        let c = self.leader_ok(commander)?;
                        let o = self.leader_ok(officer)?;
                        if act.commander != Some(c as u8) {
                            return Err(refuse(
                                ACT,
                                "only the same commander may add officers to this activation",
                            ));
                        }
                        if act.officers.contains(&(o as u8)) {
                            return Err(refuse(ACT, "that officer is already activated"));
                        }
                        self.check_command(c, o, side)
                    }
                    Action::Exclude { unit } => {
                        if act.lead == Some(unit) {
                            return Err(refuse(ACT, "the lead unit may not be left out"));
                        }
                        if !self.act_units(act).contains(&unit) {
                            return Err(refuse(ACT, "that unit is not in this activation"));
                        }
                        Ok(())
                    }
                    Action::Include { unit } => {
                        let Some(lead) = act.lead else {
                            return Err(refuse(
                                ACT,
                                "only a unit activation takes units from another hex",
                            ));
                        };
                        let (Some(lh), Some(uh)) = (self.hex_of(lead), self.hex_of(unit)) else {
                            return Err(refuse(ACT, "that unit is not on the map"));
                        };
                        let s = self.us(unit);
                        if self.side_of(unit) != side || s.acted || s.spent {
                            return Err(refuse(ACT, "that unit may not act this turn"));
                        }
                        if uh == lh || act.included.contains(&unit) || act.excluded.contains(&unit)
                        {
                            return Err(refuse(ACT, "that unit is already designated"));
                        }
                        if self.sc.map.distance(lh, uh) > 2 {
                            return Err(refuse(
                                ACT,
                                "a unit activation reaches one more hex within 2 hexes",
                            ));
                        }
                        if act.second.is_some_and(|s| s != uh) {
                            return Err(refuse(
                                ACT,
                                "a unit activation takes units of one more hex only",
                            ));
                        }
                        if self.sup.formation_of(&self.sc, unit)
                            != self.sup.formation_of(&self.sc, lead)
                            || self.sc.unit(unit).nation != self.sc.unit(lead).nation
                        {
                            return Err(refuse(
                                "NB Napoleon At Leipzig",
                                "the other hex's units must be of the lead unit's formation and nation",
                            ));
                        }
                        Ok(())
                    }
                    _ => Err(refuse(
                        ACT,
                        "designate the activation: include, exclude, command another officer, or go",
                    )),
                }
            }
            Step::WriteOrder => match a {
                Action::NoOrder => Ok(()),
                Action::Order { officer, to } => {
                    let Some(act) = &self.st.act else {
                        return Err(refuse(ORDERS, "no failed officer"));
                    };
                    if act.officers.first() != Some(&officer.0) {
                        return Err(refuse(
                            ORDERS,
                            "only the officer who failed writes an order",
                        ));
                    }
                    let Some(oh) = self.lhex(usize::from(officer.0)) else {
                        return Err(refuse(ORDERS, "the officer is not on the map"));
                    };
                    if !self.sc.map.contains(to) || self.sc.map.distance(oh, to) > ORDER_RADIUS {
                        return Err(refuse(
                            ORDERS,
                            format!("an order's destination lies within {ORDER_RADIUS} hexes of the officer"),
                        ));
                    }
                    Ok(())
                }
                _ => Err(refuse(
                    ORDERS,
                    "write an order (order O HEX) or none (no-order)",
                )),
            },
            _ => Err(refuse(ACT, "not now")),
        }
    }

    /// Candidate actions (`out`, to be checked) and actions already known legal (`sure`: the
    /// march orders, whose reach search would otherwise run once per destination).
    pub(crate) fn activation_candidates(&self, out: &mut Vec<Action>, sure: &mut Vec<Action>) {
        let side = self.st.acting;
        let leaders: Vec<usize> = (0..self.sup.leaders.len())
            .filter(|&l| self.lside(l) == Some(side) && self.lhex(l).is_some())
            .collect();
        let officers: Vec<usize> = leaders
            .iter()
            .copied()
            .filter(|&l| self.sup.leaders[l].rank == Rank::Corps)
            .collect();
        let commanders: Vec<usize> = leaders
            .iter()
            .copied()
            .filter(|&l| self.sup.leaders[l].rank == Rank::Army)
            .collect();
        match self.st.step {
            Step::Choose => {
                out.push(Action::Pass);
                for &c in &commanders {
                    for &o in &officers {
                        out.push(Action::Command {
                            commander: LeaderId(c as u8),
                            officer: LeaderId(o as u8),
                        });
                        out.push(Action::Lend {
                            commander: LeaderId(c as u8),
                            officer: LeaderId(o as u8),
                        });
                    }
                }
                for &o in &officers {
                    out.push(Action::Initiative {
                        officer: LeaderId(o as u8),
                    });
                    let s = &self.st.leaders[o];
                    if s.order.is_some() || s.march.is_some() {
                        out.push(Action::SetAside {
                            officer: LeaderId(o as u8),
                        });
                    }
                }
                for u in self.unit_ids() {
                    out.push(Action::Unit { lead: u });
                }
                // NB77: a commander's move before he spends his command points
                let ready = self.activatable_officers(side);
                for &c in &commanders {
                    let Ok(ch) = self.commander_ready(c, side) else {
                        continue;
                    };
                    let s = &self.st.leaders[c];
                    if s.moved || s.mp_half > 0 {
                        continue;
                    }
                    let def = &self.sup.leaders[c];
                    let range = u32::from(def.range);
                    let targets: Vec<Hex> = ready
                        .iter()
                        .filter(|&&(o, _)| self.commands(c, o))
                        .map(|&(_, h)| h)
                        .collect();
                    if targets.is_empty() {
                        continue;
                    }
                    for (h, _) in self.leader_reach(ch, 2 * u16::from(def.movement), side) {
                        if h != ch && targets.iter().any(|&t| self.sc.map.distance(h, t) <= range) {
                            sure.push(Action::Lead {
                                leader: LeaderId(c as u8),
                                to: h,
                            });
                        }
                    }
                }
                for &c in &commanders {
                    let Ok(ch) = self.commander_ready(c, side) else {
                        continue;
                    };
                    let reach = self.leader_reach(ch, 4 * MARCH_MP_PER_TURN, side);
                    for &o in &officers {
                        let Ok(oh) = self.officer_ready(o, side) else {
                            continue;
                        };
                        if self.sc.map.distance(ch, oh) <= u32::from(self.sup.leaders[c].range)
                            || self.st.leaders[o].march.is_some()
                            || !self.commands(c, o)
                            || reach.binary_search_by_key(&oh, |&(h, _)| h).is_err()
                        {
                            continue;
                        }
                        for to in self.hexes_within(oh, ORDER_RADIUS) {
                            sure.push(Action::March {
                                commander: LeaderId(c as u8),
                                officer: LeaderId(o as u8),
                                to,
                            });
                        }
                    }
                }
            }
            Step::Designate => {
                out.push(Action::Go);
                if let Some(act) = &self.st.act {
                    if let Some(c) = act.commander {
                        for &o in &officers {
                            out.push(Action::Command {
                                commander: LeaderId(c),
                                officer: LeaderId(o as u8),
                            });
                        }
                    }
                    for u in self.act_units(act) {
                        out.push(Action::Exclude { unit: u });
                    }
                    if let Some(lh) = act.lead.and_then(|l| self.hex_of(l)) {
                        for h in self.hexes_within(lh, 2) {
                            for u in self.units_at(h) {
                                out.push(Action::Include { unit: u });
                            }
                        }
                    }
                }
            }
            Step::WriteOrder => {
                out.push(Action::NoOrder);
                if let Some(o) = self.st.act.as_ref().and_then(|a| a.officers.first()) {
                    if let Some(oh) = self.lhex(usize::from(*o)) {
                        for to in self.hexes_within(oh, ORDER_RADIUS) {
                            out.push(Action::Order {
                                officer: LeaderId(*o),
                                to,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The map hexes within `r` of `h`, in map order.
    pub(crate) fn hexes_within(&self, h: Hex, r: u32) -> Vec<Hex> {
        let r16 = r as i16 + 1;
        let mut v = Vec::new();
        for x in (h.x - r16).max(1)..=(h.x + r16) {
            for y in (h.y - r16 - 1).max(1)..=(h.y + r16 + 1) {
                let c = Hex::new(x, y);
                if self.sc.map.contains(c) && self.sc.map.distance(h, c) <= r {
                    v.push(c);
                }
            }
        }
        v
    }

    fn new_act(&self, side: u8, how: ActivationKind) -> Act {
        Game::blank_act(side, how)
    }

    pub(crate) fn apply_activation(&mut self, a: Action) {
        let side = self.st.acting;
        match a {
            Action::Command { commander, officer } => {
                self.st.leaders[usize::from(commander.0)].cp_used += 1;
                let act = self.st.act.get_or_insert_with(|| Act {
                    commander: Some(commander.0),
                    ..Game::blank_act(side, ActivationKind::Command)
                });
                act.officers.push(officer.0);
                self.st.step = Step::Designate;
            }
            Action::Lead { leader, to } => {
                // NB77: the commander moves, then spends his command points in this activation
                let c = usize::from(leader.0);
                let from = self.lhex(c).unwrap_or_default();
                let cost = self.check_premove(c, to, side).unwrap_or(0);
                self.st.leaders[c].loc = LeaderLoc::Map(to);
                self.st.leaders[c].mp_half += cost.max(1);
                self.st.act = Some(Act {
                    commander: Some(leader.0),
                    ..Game::blank_act(side, ActivationKind::Command)
                });
                self.events.push(Event::LeaderMoved { leader, from, to });
                self.st.step = Step::Designate;
            }
            Action::Initiative { officer } => {
                let mut act = self.new_act(side, ActivationKind::Officer);
                act.officers.push(officer.0);
                self.st.act = Some(act);
                self.st.step = Step::Designate;
            }
            Action::Unit { lead } => {
                let mut act = self.new_act(side, ActivationKind::Unit);
                act.lead = Some(lead);
                self.st.act = Some(act);
                self.st.step = Step::Designate;
            }
            Action::Include { unit } => {
                let h = self.hex_of(unit);
                if let Some(act) = self.st.act.as_mut() {
                    act.second = h;
                    act.included.push(unit);
                }
            }
            Action::Exclude { unit } => {
                if let Some(act) = self.st.act.as_mut() {
                    act.excluded.push(unit);
                }
            }
            Action::Go => self.go(),
            Action::March {
                commander,
                officer,
                to,
            } => {
                let c = usize::from(commander.0);
                let o = usize::from(officer.0);
                self.st.leaders[c].cp_used += 1;
                let cost = match (self.lhex(c), self.lhex(o)) {
                    (Some(ch), Some(oh)) => self.march_cost(ch, oh).unwrap_or(0),
                    _ => 0,
                };
                // NB Action phase: March orders, 10 cavalry MP a turn of delay.
                let delay = if cost <= 2 * MARCH_MP_PER_TURN { 1 } else { 2 };
                let arrives = self.st.turn + delay;
                self.st.leaders[o].march = Some((arrives, to));
                self.events.push(Event::MarchOrderSent {
                    officer,
                    to,
                    arrives,
                });
            }
            Action::Lend { commander, officer } => {
                let c = usize::from(commander.0);
                let rating = self.sup.leaders[c].command;
                self.st.leaders[c].cp_used = rating;
                self.st.leaders[usize::from(officer.0)].lent = rating;
                self.events.push(Event::RatingLent {
                    commander,
                    officer,
                    rating,
                });
            }
            Action::SetAside { officer } => {
                let s = &mut self.st.leaders[usize::from(officer.0)];
                s.order = None;
                s.march = None;
                s.bonus = Bonus::None;
                self.events.push(Event::OrderSetAside { officer });
            }
            Action::Order { officer, to } => {
                let s = &mut self.st.leaders[usize::from(officer.0)];
                s.order = Some(to);
                s.bonus = Bonus::Plus2;
                self.events.push(Event::OrderWritten { officer, to });
                self.next_impulse();
            }
            Action::NoOrder => self.next_impulse(),
            _ => {}
        }
    }

    fn blank_act(side: u8, how: ActivationKind) -> Act {
        Act {
            side,
            how,
            commander: None,
            officers: Vec::new(),
            lead: None,
            second: None,
            included: Vec::new(),
            excluded: Vec::new(),
            order: None,
            uses_bonus: false,
            out_of_range: false,
            strategic: false,
            came_near: false,
            attacked: Vec::new(),
            attackers: Vec::new(),
            movers: Vec::new(),
            mover: None,
            reactions: Vec::new(),
        }
    }

    /// A received march order that has arrived.
    fn march_arrived(&self, o: usize) -> Option<Hex> {
        match self.st.leaders[o].march {
            Some((t, h)) if t <= self.st.turn => Some(h),
            _ => None,
        }
    }

    fn go(&mut self) {
        self.st.passes = 0;
        let Some(act) = self.st.act.clone() else {
            return;
        };
        match act.how {
            ActivationKind::Command | ActivationKind::MarchOrder => {
                self.activate(ActivationKind::Command)
            }
            ActivationKind::Officer => {
                let o = usize::from(act.officers[0]);
                if let Some(to) = self.march_arrived(o) {
                    // NB Action phase: March orders execute automatically on arrival.
                    self.events.push(Event::InitiativeAttempt {
                        die: 0,
                        need: 0,
                        success: true,
                    });
                    if let Some(a) = self.st.act.as_mut() {
                        a.order = Some(to);
                    }
                    self.st.leaders[o].march = None;
                    self.activate(ActivationKind::MarchOrder);
                } else if self.st.leaders[o].bonus == Bonus::Auto {
                    // NB Action phase: the Auto side passes automatically, executing the
                    // written order.
                    self.events.push(Event::InitiativeAttempt {
                        die: 0,
                        need: 0,
                        success: true,
                    });
                    let order = self.st.leaders[o].order.take();
                    self.st.leaders[o].bonus = Bonus::None;
                    if let Some(a) = self.st.act.as_mut() {
                        a.order = order;
                    }
                    self.activate(ActivationKind::Officer);
                } else {
                    self.st.step = Step::ActivationRoll;
                }
            }
            ActivationKind::Unit => self.st.step = Step::ActivationRoll,
        }
    }

    /// The number an initiative roll must not exceed.
    pub fn activation_need(&self) -> u8 {
        let Some(act) = &self.st.act else { return 0 };
        match act.lead {
            // NB Action phase: the lead unit's initiative (its morale, NB Napoleon At Leipzig).
            Some(lead) => self.morale(lead).max(0) as u8,
            None => {
                let o = usize::from(act.officers[0]);
                let bonus = if self.st.leaders[o].bonus == Bonus::Plus2 {
                    2
                } else {
                    0
                };
                // NB75: a lent rating adds to the officer's command rating (his span), not to
                // his initiative
                self.sup.leaders[o].initiative + bonus
            }
        }
    }

    pub(crate) fn activation_roll(&mut self, n: u8) {
        let need = self.activation_need();
        let success = n <= need;
        self.events.push(Event::InitiativeAttempt {
            die: n,
            need,
            success,
        });
        let Some(act) = self.st.act.clone() else {
            return;
        };
        if success {
            if act.lead.is_none() {
                let o = usize::from(act.officers[0]);
                if self.st.leaders[o].bonus == Bonus::Plus2 {
                    // NB Action phase: using the +2 commits him to his written order.
                    let order = self.st.leaders[o].order.take();
                    self.st.leaders[o].bonus = Bonus::None;
                    if let Some(a) = self.st.act.as_mut() {
                        a.order = order;
                    }
                }
            }
            self.activate(act.how);
            return;
        }
        // NB Action phase: a failed attempt marks its units Spent.
        let units = self.act_units(&act);
        for &u in &units {
            let s = self.us_mut(u);
            s.spent = true;
            s.acted = true;
        }
        self.events.push(Event::Spent { units });
        match act.lead {
            Some(_) => self.next_impulse(),
            None => {
                let o = usize::from(act.officers[0]);
                self.st.leaders[o].spent = true;
                match self.st.leaders[o].bonus {
                    Bonus::Plus2 => {
                        // a failed +2 attempt: the Auto side next time
                        self.st.leaders[o].bonus = Bonus::Auto;
                        self.next_impulse();
                    }
                    _ => self.st.step = Step::WriteOrder,
                }
            }
        }
    }

    /// The activation succeeds: its units act this impulse.
    fn activate(&mut self, how: ActivationKind) {
        let Some(act) = self.st.act.clone() else {
            return;
        };
        let units = self.act_units(&act);
        // NB Action phase: units left out may act later only by unit initiative.
        for &o in &act.officers {
            let o = usize::from(o);
            self.st.leaders[o].acted = true;
        }
        for &u in &act.excluded {
            self.us_mut(u).excluded = true;
        }
        for &u in &units {
            let h = self.hex_of(u).unwrap_or_default();
            let s = self.us_mut(u);
            s.active = true;
            s.acted = true;
            s.start = h;
            s.mp_half = 0;
            s.halted = false;
            s.faced = false;
            s.near = false;
            // NB Impulse Action sequence: designated disordered units flip to "not this
            // impulse".
            if s.disorder == Disorder::ThisImpulse {
                s.disorder = Disorder::Disordered;
            }
        }
        let mut movers: Vec<u8> = act.officers.clone();
        if let Some(c) = act.commander {
            if !self.st.leaders[usize::from(c)].moved {
                movers.push(c);
            }
        }
        let out_of_range = match act.lead {
            Some(lead) => {
                let f = self.sup.formation_of(&self.sc, lead);
                let lh = self.hex_of(lead);
                // NB Action phase: a unit activation within 3 hexes of its officer.
                !self.sup.officer_of(f).is_some_and(|o| {
                    matches!((self.lhex(o), lh), (Some(oh), Some(lh)) if self.sc.map.distance(oh, lh) <= UNIT_COMMAND_RANGE)
                })
            }
            None => false,
        };
        if let Some(a) = self.st.act.as_mut() {
            a.movers = movers;
            a.out_of_range = out_of_range;
            a.how = how;
        }
        self.events.push(Event::Activated {
            side: Side(act.side),
            how,
            officers: act.officers.iter().map(|&o| LeaderId(o)).collect(),
            units,
        });
        self.st.step = Step::Movement;
    }

    /// True when the side to choose has an officer ready for a command or an initiative
    /// activation (for tests and front ends).
    pub fn ready_officers(&self, side: Side) -> Vec<LeaderId> {
        (0..self.sup.leaders.len())
            .filter(|&o| self.officer_ready(o, side.0).is_ok())
            .map(|o| LeaderId(o as u8))
            .collect()
    }

    /// The map hexes within a leader's command range of his hex, in the map's order (empty
    /// when he is not on the map): the distance test by which a commander reaches an officer
    /// with his command points, lends his rating or needs a march order, and by which an
    /// officer's activation takes his formation's units, an officer's span grown by a rating
    /// lent to him (NB Action phase, NB61, NB75). Read-only, for front ends that shade the
    /// range.
    pub fn command_range(&self, l: LeaderId) -> Vec<Hex> {
        let i = usize::from(l.0);
        let (Some(h), Some(def)) = (self.lhex(i), self.sup.leaders.get(i)) else {
            return Vec::new();
        };
        let range = match def.rank {
            Rank::Corps => self.officer_range(i),
            Rank::Army => u32::from(def.range),
        };
        self.sc
            .map
            .hexes()
            .filter(|&x| self.sc.map.distance(h, x) <= range)
            .collect()
    }

    /// Leaders of a side on the map.
    pub fn leaders_of(&self, side: Side) -> Vec<LeaderId> {
        (0..self.st.leaders.len())
            .filter(|&l| {
                self.lside(l) == Some(side.0) && matches!(self.st.leaders[l].loc, LeaderLoc::Map(_))
            })
            .map(|l| LeaderId(l as u8))
            .collect()
    }
}
