//! Planning a player-turn by hand-written rules: where the units go (attack set-ups first, then
//! the line, the line of communications and the reinforcements), which units attack which, in
//! what order the combats are resolved and at what odds, and the small choices combat asks for
//! (losses, retreats, advances). The heuristic player is these rules; the search player uses
//! them to propose candidate plans and to play its rollouts.

use crate::board::{Board, Reach};
use crate::info::{Info, NONE};
use crate::loc::{ball, cut_strength, loc_region, Watch};
use crate::tactics::{can_retreat, engages, eval_combat, retreat_hexes, CombatEval, Values};
use engine::{Dice, Rules, Side};
use naw::tables::Column;
use naw::{Action, Game, Step, UnitId, UnitSet};

/// The knobs of the hand-written play. The heuristic player uses [`Style::default`]; the search
/// player varies them to propose different plans.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Random perturbation of move scores (0: deterministic).
    pub noise: f64,
    /// Multiplies the value of attacks when choosing where to attack.
    pub aggression: f64,
    /// An attack set-up is made only when it is worth at least this much.
    pub min_gain: f64,
    /// Cost of each extra enemy unit an attacker would touch that no planned attack covers.
    pub contact_cost: f64,
    /// Weight of the danger of a hex against the enemy's next attacks.
    pub risk: f64,
    /// How strongly units not attacking close with the enemy.
    pub approach: f64,
    /// Attack set-ups also try every pair of attackers that closes the defender's every
    /// retreat (7.72: a `Dr` then eliminates it) before the one-by-one growth, so that units
    /// converge on an isolated enemy from opposite sides (the level `search4`).
    pub converge: bool,
    /// A set-up on an enemy unit that our units in contact are obliged to attack (7.1) is worth
    /// also what it saves them: the loss of their attack alone, as at 1-1 with no retreat where
    /// an `Ar` kills (7.72) (the level `search4`).
    pub support: bool,
    /// No unit ends its move on the entry hex of its own side's reinforcements due next
    /// game-turn where a friend there would delay them (15.0, 15.5 with the scenario's
    /// `friendly_occupied_entry_ok` off), and one standing there moves off (the level `search4`).
    pub keep_entry: bool,
    /// When the enemy's next player-turn is the game's last, a hex of ours whose loss to an
    /// attack and an advance (7.74) would cut the line of communications (17.5) gets up to two
    /// friends on the free hexes the enemy could attack it from, while what can still attack it
    /// is at 2-1 or more (one of the level `search4`'s candidate plans).
    pub hold_line: bool,
    /// On the game's last player-turn of the side without a line of communications, an attack
    /// on an enemy unit whose hex, once vacated and entered by an advance (7.74), would cut
    /// strength off from its line (17.5) is worth also what that cut is worth, as likely as the
    /// hex is vacated (the level `search4`'s model of the enemy's last player-turn, in its
    /// rollouts and replies).
    pub strike_line: bool,
    /// The side with a line of communications holds its end hex with a unit the enemy near it
    /// cannot attack at 2-1 or more (17.5: an advance into the vacated end hex, 7.74, cuts the
    /// whole army off): on the game's last five game-turns (the whole First Day), the weakest
    /// unit strong enough (or, when none is, the strongest) among those soonest there marches
    /// to the end hex, takes it when it is empty and relieves a weaker holder there when the
    /// holder can step off (5.13); until then the weaker holder stays (the level `search4`'s
    /// candidates).
    pub hold_end: bool,
    /// The side without a line of communications, advancing as the defender after the
    /// attacker's retreat (7.74), weighs what the advance obliges it to next: in contact with
    /// enemy units at the start of its own player-turn it may not leave their zones (5.13) and
    /// must attack them (7.1), alone at the odds it has; the expected loss of that attack counts
    /// against the advance. Used in `search4`'s own Allied advances (there unsearched, the search's
    /// horizon coming as soon as the advance is made; `docs/ai.md`, "Why the Allies do not win
    /// more").
    pub wary_advance: bool,
    /// 0: none; `k` in 1..=3: the army concentrates on one sector of the enemy, the `k`-th
    /// third of his units on the map taken by their bearing from the centre of ours: an attack
    /// there is worth 1.6 times as much, elsewhere 0.6 times, and the units that do not attack
    /// close with that sector rather than with the nearest enemy (three of the level
    /// `search4`'s candidate plans; `docs/ai.md`, "One sector at a time").
    pub focus: u8,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            noise: 0.0,
            aggression: 1.0,
            min_gain: 0.4,
            contact_cost: 2.0,
            risk: 1.0,
            approach: 0.35,
            converge: false,
            support: false,
            keep_entry: false,
            hold_line: false,
            strike_line: false,
            hold_end: false,
            wary_advance: false,
            focus: 0,
        }
    }
}

/// One attack a plan intends, for explanations.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackNote {
    /// The attacking units.
    pub attackers: Vec<UnitId>,
    /// The defending units.
    pub defenders: Vec<UnitId>,
    /// The odds column it is expected to be resolved on.
    pub odds: Column,
    /// Why, in a sentence.
    pub why: String,
}

/// What a computer player intends this player-turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explanation {
    /// The plan in one sentence.
    pub plan: String,
    /// The attacks it means to make (or has declared), with their odds and reasons.
    pub attacks: Vec<AttackNote>,
}

/// A planned move phase: the moves in order, and what they are for.
#[derive(Clone, Debug, Default)]
pub(crate) struct MovePlan {
    pub moves: Vec<Action>,
    pub explanation: Explanation,
}

/// An attack set-up: the moves (unit, hex), the attackers already in place, the combat's
/// evaluation and the set-up's net value.
type AttackSetup = (Vec<(UnitId, usize)>, Vec<(UnitId, usize)>, CombatEval, f64);

/// A set-up grown from the attackers in place: the moves (unit, hex), the combat's evaluation
/// and the net value.
type Grown = (Vec<(UnitId, usize)>, CombatEval, f64);

/// Working state for planning one movement phase.
struct MoveCtx<'a> {
    info: &'a Info,
    g: &'a Game,
    style: Style,
    me: Side,
    en: Side,
    b: Board,
    vals: Values,
    /// Legal destinations (hex index, cost) per unit index; empty for units that cannot move.
    dests: Vec<Vec<(u16, u16)>>,
    movers: Vec<UnitId>,
    /// Moved in the plan, or committed to stay.
    used: Vec<bool>,
    /// Enemy units a planned attack covers.
    targeted: Vec<bool>,
    /// Enemy strength able to attack each hex in the enemy's next player-turn.
    threat: Vec<u32>,
    /// How many enemy units could attack each hex.
    threat_n: Vec<u8>,
    /// Steps to the nearest hex in contact with the enemy (with the style's `focus`, the
    /// enemy of the focus sector).
    front: Vec<u16>,
    /// Per enemy unit, the multiplier of an attack's worth on it (the style's `focus`; empty
    /// otherwise).
    focus_mult: Vec<f64>,
    /// Hexes from which the line of communications can be traced now (17.5).
    loc_ok: Vec<bool>,
    /// Game-turns left after this one.
    turns_left: u8,
    /// Units sent to keep the line of communications' end hex safe.
    zone_job: Vec<bool>,
    /// On the last player-turns of the side with a line: the watch over it and the most
    /// strength a plan may leave exposed to a cut.
    loc_watch: Option<(Watch, u32)>,
    rng: &'a mut Dice,
    plan: MovePlan,
    /// Per enemy unit, what a set-up on it saves our units obliged to attack it (the style's
    /// `support`; empty otherwise).
    support_bonus: Vec<f64>,
    /// Hexes no unit should end its move in (the style's `keep_entry`; empty otherwise).
    entry_block: Vec<bool>,
    /// Per hex we hold, the strength an enemy standing there would cut off from the line of
    /// communications before the game ends (the style's `hold_line`; empty otherwise).
    hold_stake: Vec<u32>,
    /// Per enemy unit, what a set-up on it saves a holder of [`Self::hold_stake`] obliged to
    /// attack it alone (the style's `hold_line`; empty otherwise).
    hold_bonus: Vec<f64>,
    /// Per hex the enemy holds, what standing there would cut off from his line of
    /// communications for good (the style's `strike_line` on our last player-turn; empty
    /// otherwise).
    strike_stake: Vec<u32>,
}

/// Enemy threat against each hex: the total strength (and number) of enemy units that could
/// stand adjacent to it, across a hexside they may attack over, after their next movement.
pub(crate) fn threat_map(
    info: &Info,
    g: &Game,
    b: &Board,
    enemy: Side,
    reach: &mut Reach,
) -> (Vec<u32>, Vec<u8>) {
    let mut threat = vec![0u32; info.n];
    let mut count = vec![0u8; info.n];
    let sc = g.scenario();
    let t = if enemy.0 == 1 { g.turn() } else { g.turn() + 1 };
    if t > sc.last_turn || sc.is_night(t) {
        return (threat, count);
    }
    let mut stamp = vec![u16::MAX; info.n];
    let mut ends = Vec::new();
    for i in 0..info.strength.len() {
        let e = UnitId(i as u8);
        if info.side[i] != enemy {
            continue;
        }
        let m = crate::loc::next_mover(info, g, b, e, enemy, t);
        let Some(m) = m else { continue };
        reach.run(info, b, m, &mut ends);
        if b.at(e).is_some() {
            ends.push((m.start as u16, 0));
        }
        let s = info.strength[i];
        for &(r, _) in &ends {
            let r = r as usize;
            for k in 0..6 {
                let j = info.nb[r][k];
                if j == NONE || !info.engage[r][k] {
                    continue;
                }
                let j = j as usize;
                if stamp[j] != i as u16 {
                    stamp[j] = i as u16;
                    threat[j] += s;
                    count[j] = count[j].saturating_add(1);
                }
            }
        }
    }
    (threat, count)
}

/// The style's `focus`: per enemy unit, 1.6 for those of the `focus`-th third by bearing from
/// our units' centre, 0.6 for the others; empty for no focus.
fn focus_of(info: &Info, b: &Board, me: Side, en: Side, focus: u8) -> Vec<f64> {
    if focus == 0 {
        return Vec::new();
    }
    let nu = info.strength.len();
    let at = |side: Side| {
        (0..nu).filter_map(move |u| {
            (info.side[u] == side)
                .then(|| b.at(UnitId(u as u8)))
                .flatten()
                .map(|p| (u, info.hex(p).centre()))
        })
    };
    let ours: Vec<(f64, f64)> = at(me).map(|(_, c)| c).collect();
    if ours.is_empty() {
        return Vec::new();
    }
    let n = ours.len() as f64;
    let cx = ours.iter().map(|c| c.0).sum::<f64>() / n;
    let cy = ours.iter().map(|c| c.1).sum::<f64>() / n;
    let mut theirs: Vec<(f64, usize)> = at(en)
        .map(|(u, c)| ((c.1 - cy).atan2(c.0 - cx), u))
        .collect();
    theirs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut mult = vec![0.6; nu];
    let k = theirs.len();
    let f = (focus as usize - 1).min(2);
    for (j, &(_, u)) in theirs.iter().enumerate() {
        if j * 3 / k.max(1) == f {
            mult[u] = 1.6;
        }
    }
    mult
}

/// Steps from each hex to the nearest hex next to an enemy unit of the focus sector (`mult`
/// above 1), as [`front_map`] counts them.
fn focus_front(info: &Info, b: &Board, mult: &[f64]) -> Vec<u16> {
    let mut seeds = Vec::new();
    for (u, &m) in mult.iter().enumerate() {
        if m <= 1.0 {
            continue;
        }
        if let Some(p) = b.at(UnitId(u as u8)) {
            for k in 0..6 {
                let j = info.nb[p][k];
                if j != NONE {
                    seeds.push(j as usize);
                }
            }
        }
    }
    spread(info, seeds)
}

/// Steps from each hex to the nearest hex in contact with `enemy` (a breadth-first search over
/// passable hexsides), capped at 60.
fn front_map(info: &Info, b: &Board, enemy: Side) -> Vec<u16> {
    spread(info, (0..info.n).filter(|&i| b.controlled(enemy, i)))
}

/// Steps from each hex to the nearest of `seeds` over passable hexsides, capped at 60.
fn spread(info: &Info, seeds: impl IntoIterator<Item = usize>) -> Vec<u16> {
    let mut d = vec![60u16; info.n];
    let mut q = std::collections::VecDeque::new();
    for i in seeds {
        if d[i] != 0 {
            d[i] = 0;
            q.push_back(i);
        }
    }
    while let Some(i) = q.pop_front() {
        for k in 0..6 {
            let j = info.nb[i][k];
            if j == NONE || info.step[i][k] == crate::info::BLOCKED {
                continue;
            }
            let j = j as usize;
            if d[j] > d[i] + 1 {
                d[j] = d[i] + 1;
                q.push_back(j);
            }
        }
    }
    d
}

impl<'a> MoveCtx<'a> {
    fn new(
        info: &'a Info,
        g: &'a Game,
        style: Style,
        rng: &'a mut Dice,
        reach: &mut Reach,
    ) -> Self {
        let me = g.phasing();
        let en = Side(1 - me.0);
        let b = Board::from_game(info, g);
        let nu = info.strength.len();
        let mut dests = vec![Vec::new(); nu];
        let mut movers = Vec::new();
        let mut tmp = Vec::new();
        for u in g.unit_ids() {
            if info.side[u.0 as usize] != me || !g.may_move(u) {
                continue;
            }
            g.destinations(u, &mut tmp);
            if tmp.is_empty() {
                continue;
            }
            let mut v: Vec<(u16, u16)> = tmp
                .iter()
                .filter_map(|d| info.idx(d.hex).map(|i| (i as u16, d.cost_half)))
                .collect();
            v.sort_unstable();
            dests[u.0 as usize] = v;
            movers.push(u);
        }
        let (threat, threat_n) = threat_map(info, g, &b, en, reach);
        let focus_mult = focus_of(info, &b, me, en, style.focus);
        let front = if focus_mult.is_empty() {
            front_map(info, &b, en)
        } else {
            focus_front(info, &b, &focus_mult)
        };
        let loc_ok = loc_region(info, &b, me);
        let vals = Values::new(info, g, me);
        MoveCtx {
            info,
            g,
            style,
            me,
            en,
            vals,
            dests,
            movers,
            used: vec![false; nu],
            zone_job: vec![false; nu],
            loc_watch: None,
            targeted: vec![false; nu],
            threat,
            threat_n,
            front,
            focus_mult,
            loc_ok,
            turns_left: g.scenario().last_turn.saturating_sub(g.turn()),
            b,
            rng,
            plan: MovePlan::default(),
            support_bonus: Vec::new(),
            entry_block: Vec::new(),
            hold_stake: Vec::new(),
            hold_bonus: Vec::new(),
            strike_stake: Vec::new(),
        }
    }

    /// The strongest unused mover that reaches hex `t` (the lowest id among equals).
    fn strongest_reaching(&self, t: usize) -> Option<UnitId> {
        self.movers
            .iter()
            .copied()
            .filter(|&u| !self.used[u.0 as usize] && self.can_reach(u, t))
            .max_by_key(|&u| (self.info.str(u), std::cmp::Reverse(u)))
    }

    fn can_reach(&self, u: UnitId, i: usize) -> bool {
        self.dests[u.0 as usize]
            .binary_search_by_key(&(i as u16), |d| d.0)
            .is_ok()
    }

    fn noise(&mut self) -> f64 {
        if self.style.noise <= 0.0 {
            return 0.0;
        }
        let x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (x - 0.5) * 2.0 * self.style.noise
    }

    /// Danger to a unit of strength `s` standing at `i` in the enemy's next player-turn.
    fn exposure(&self, s: u32, i: usize) -> f64 {
        let t = self.threat[i];
        if t == 0 {
            return 0.0;
        }
        let mult = if self.info.doubles[i] { 2 } else { 1 };
        // the enemy cannot bring more units than there are free hexes around
        let free = (0..6)
            .filter(|&k| {
                let j = self.info.nb[i][k];
                j != NONE
                    && self.info.engage[i][k]
                    && self
                        .b
                        .unit_at(j as usize)
                        .is_none_or(|w| self.info.side[w.0 as usize] != self.me)
            })
            .count() as f64;
        let n = self.threat_n[i].max(1) as f64;
        let eff = t as f64 * (free / n).min(1.0);
        let ratio = eff / (s * mult) as f64;
        let danger = ((ratio - 1.5) / 3.5).clamp(0.0, 1.0);
        // surrounded hexes are deadlier: fewer friendly neighbours to fall back on
        let friends = (0..6)
            .filter(|&k| {
                let j = self.info.nb[i][k];
                j != NONE
                    && self
                        .b
                        .unit_at(j as usize)
                        .is_some_and(|w| self.info.side[w.0 as usize] == self.me)
            })
            .count() as f64;
        let trap = 1.0 - 0.12 * friends.min(4.0);
        self.style.risk * danger * trap * s as f64 * 0.6
    }

    /// Enemy units engaged from hex `i` (by a unit of ours there).
    fn contacts(&self, i: usize) -> impl Iterator<Item = UnitId> + '_ {
        (0..6).filter_map(move |k| {
            let j = self.info.nb[i][k];
            if j == NONE || !self.info.engage[i][k] {
                return None;
            }
            self.b
                .unit_at(j as usize)
                .filter(|&w| self.info.side[w.0 as usize] == self.en)
        })
    }

    /// The style's aggression on the enemy unit `e` (its `focus` weighed in).
    fn aggression(&self, e: UnitId) -> f64 {
        self.style.aggression * self.focus_mult.get(e.0 as usize).copied().unwrap_or(1.0)
    }

    /// Extra value of attacking enemy `e` beyond the strength: the line of communications.
    fn target_bonus(&self, e: UnitId, ev: &CombatEval) -> f64 {
        let Some((ls, _, t)) = self.info.loc else {
            return 0.0;
        };
        let Some(he) = self.b.at(e) else { return 0.0 };
        let d = self.info.loc_dist[he];
        if ls == self.me {
            // clear the enemy off the ground behind our line's end
            let mut v = 0.0;
            if info_zone(self.info, he) {
                v += ev.p_vacate * 3.0 + ev.p_kill * 0.5 * self.info.str(e) as f64;
            }
            if d <= 2 {
                v += ev.p_vacate * (3.0 + if self.turns_left <= 2 { 10.0 } else { 0.0 });
            }
            return v;
        } else if he == t {
            // the enemy holds his line's end: dislodge him and advance into it
            let urgency = if self.turns_left == 0 { 1.0 } else { 0.1 };
            return ev.p_vacate * urgency * crate::tactics::WIN * 0.5;
        } else if let Some(&c) = self.strike_stake.get(he) {
            // the style's `strike_line`: the enemy's hex, once ours by an advance (7.74), cuts
            // `c` strength off from his line for good (17.5)
            if c > 0 {
                return ev.p_vacate * self.vals.delta(ls, c, 0).abs();
            }
        }
        0.0
    }

    /// Cost of putting mover `u` at `i` to attack `target`.
    fn slot_cost(&self, u: UnitId, i: usize, target: UnitId) -> f64 {
        let mut c = 0.0;
        for f in self.contacts(i) {
            if f != target && !self.targeted[f.0 as usize] {
                c += self.style.contact_cost + 0.1 * self.info.str(f) as f64;
            }
        }
        c + 0.5 * self.exposure(self.info.str(u), i)
    }

    /// Our units already adjacent to `e` and free to attack it.
    fn existing_attackers(&self, he: usize) -> Vec<(UnitId, usize)> {
        let mut v = Vec::new();
        for k in 0..6 {
            let j = self.info.nb[he][k];
            if j == NONE || !self.info.engage[he][k] {
                continue;
            }
            if let Some(w) = self.b.unit_at(j as usize) {
                if self.info.side[w.0 as usize] == self.me && !self.used[w.0 as usize] {
                    v.push((w, j as usize));
                }
            }
        }
        v
    }

    /// The best attack set-up on enemy `e` with the movers still free: the moves, the existing
    /// attackers, its evaluation and its net value.
    fn build_attack(&mut self, e: UnitId) -> Option<AttackSetup> {
        let info = self.info;
        let he = self.b.at(e)?;
        let mut existing = self.existing_attackers(he);
        // the style's `hold_line`: a holder committed to its hex attacks from it all the same
        for h in self.holders_next_to(he) {
            if !existing.contains(&h) {
                existing.push(h);
            }
        }
        let mut slots: Vec<usize> = Vec::with_capacity(6);
        for k in 0..6 {
            let j = info.nb[he][k];
            if j != NONE
                && info.engage[he][k]
                && self.b.occ[j as usize] == 0
                && !self.entry_kept(j as usize)
            {
                slots.push(j as usize);
            }
        }
        // candidate movers per slot: the strongest few that reach it
        let mut cands: Vec<(UnitId, usize)> = Vec::new();
        for &s in &slots {
            let mut here: Vec<UnitId> = self
                .movers
                .iter()
                .copied()
                .filter(|&u| !self.used[u.0 as usize] && self.can_reach(u, s))
                .collect();
            here.sort_by_key(|&u| std::cmp::Reverse(info.str(u)));
            here.truncate(4);
            cands.extend(here.into_iter().map(|u| (u, s)));
        }
        if cands.is_empty() && existing.is_empty() {
            return None;
        }
        let mut grown = self.grow(e, &cands, &existing, &[]);
        if self.style.converge {
            if let Some(pair) = self.trapping_pair(e, &cands, &existing) {
                let from_pair = self.grow(e, &cands, &existing, &pair);
                if let Some(p) = from_pair {
                    if grown.as_ref().is_none_or(|g| p.2 > g.2 + 1e-9) {
                        grown = Some(p);
                    }
                }
            }
        }
        let (moves, best_ev, best) = grown?;
        Some((moves, existing, best_ev, best))
    }

    /// Grows an attack set-up on `e` from the attackers in place (`existing`) and the moves
    /// `seed` (made first, in order), adding one candidate (unit, slot) at a time, the one that
    /// adds the most, and keeps the best prefix: its moves (the seed included), evaluation and
    /// net value. With no seed this is the heuristic's own growth.
    fn grow(
        &mut self,
        e: UnitId,
        cands: &[(UnitId, usize)],
        existing: &[(UnitId, usize)],
        seed: &[(UnitId, usize)],
    ) -> Option<Grown> {
        let info = self.info;
        let mut att = existing.to_vec();
        let mut moves: Vec<(UnitId, usize)> = Vec::new();
        let mut cost = 0.0;
        let score = |this: &Self, att: &[(UnitId, usize)], cost: f64| -> (CombatEval, f64) {
            let ev = eval_combat(info, &this.b, &this.vals, att, &[e], None);
            let v = this.aggression(e) * ev.ev + this.target_bonus(e, &ev) + this.support(e)
                - this.holder_risk(e, ev.column)
                - cost;
            (ev, v)
        };
        let mut orig: Vec<(UnitId, Option<usize>)> = Vec::new();
        for &(u, s) in seed {
            orig.push((u, self.b.at(u)));
            self.b.place(info, u, s);
            att.push((u, s));
            moves.push((u, s));
            cost += self.slot_cost(u, s, e);
        }
        let (mut best_ev, mut best) = if att.is_empty() {
            (CombatEval::default(), f64::NEG_INFINITY)
        } else {
            score(self, &att, cost)
        };
        let mut best_len = moves.len();
        while att.len() < 6 {
            let mut pick: Option<(usize, CombatEval, f64, f64)> = None;
            for (ci, &(u, s)) in cands.iter().enumerate() {
                if self.b.occ[s] != 0 || moves.iter().any(|m| m.0 == u) {
                    continue;
                }
                let from = self.b.at(u);
                self.b.place(info, u, s);
                att.push((u, s));
                let c = self.slot_cost(u, s, e);
                let (ev, v) = score(self, &att, cost + c);
                att.pop();
                match from {
                    Some(f) => self.b.place(info, u, f),
                    None => self.b.lift(info, u),
                }
                if pick.as_ref().is_none_or(|p| v > p.3) {
                    pick = Some((ci, ev, c, v));
                }
            }
            let Some((ci, ev, c, v)) = pick else { break };
            let (u, s) = cands[ci];
            orig.push((u, self.b.at(u)));
            self.b.place(info, u, s);
            att.push((u, s));
            moves.push((u, s));
            cost += c;
            if v > best + 1e-9 {
                best = v;
                best_ev = ev;
                best_len = moves.len();
            }
            if ev.natural >= 9 {
                break;
            }
        }
        // restore the board
        for &(u, from) in orig.iter().rev() {
            match from {
                Some(f) => self.b.place(info, u, f),
                None => self.b.lift(info, u),
            }
        }
        if best == f64::NEG_INFINITY {
            return None;
        }
        moves.truncate(best_len);
        Some((moves, best_ev, best))
    }

    /// The pair of candidate moves (two units, two slots) that closes every retreat of `e`
    /// (7.72: each `Dr` then eliminates it) at the best net value, or `None` when no pair does
    /// or `e` is trapped already (the style's `converge`).
    fn trapping_pair(
        &mut self,
        e: UnitId,
        cands: &[(UnitId, usize)],
        existing: &[(UnitId, usize)],
    ) -> Option<Vec<(UnitId, usize)>> {
        let info = self.info;
        let he = self.b.at(e)?;
        if !can_retreat(info, &self.b, self.en, he) {
            return None;
        }
        let mut best: Option<(f64, [(UnitId, usize); 2])> = None;
        let mut att = existing.to_vec();
        for (i, &(u1, s1)) in cands.iter().enumerate() {
            let from1 = self.b.at(u1);
            self.b.place(info, u1, s1);
            let c1 = self.slot_cost(u1, s1, e);
            att.push((u1, s1));
            for &(u2, s2) in &cands[i + 1..] {
                if u2 == u1 || s2 == s1 || self.b.occ[s2] != 0 {
                    continue;
                }
                let from2 = self.b.at(u2);
                self.b.place(info, u2, s2);
                if !can_retreat(info, &self.b, self.en, he) {
                    let c2 = self.slot_cost(u2, s2, e);
                    att.push((u2, s2));
                    let ev = eval_combat(info, &self.b, &self.vals, &att, &[e], None);
                    att.pop();
                    let v =
                        self.aggression(e) * ev.ev + self.target_bonus(e, &ev) + self.support(e)
                            - self.holder_risk(e, ev.column)
                            - c1
                            - c2;
                    if best.is_none_or(|b| v > b.0 + 1e-9) {
                        best = Some((v, [(u1, s1), (u2, s2)]));
                    }
                }
                match from2 {
                    Some(f) => self.b.place(info, u2, f),
                    None => self.b.lift(info, u2),
                }
            }
            att.pop();
            match from1 {
                Some(f) => self.b.place(info, u1, f),
                None => self.b.lift(info, u1),
            }
        }
        best.map(|b| b.1.to_vec())
    }

    /// What a set-up on `e` saves the units of ours obliged to attack it (7.1): the loss their
    /// attack alone would cost, as at 1-1 with no retreat where an `Ar` kills (7.72); 0 unless
    /// the style's `support` is on.
    fn support(&self, e: UnitId) -> f64 {
        self.support_bonus.get(e.0 as usize).copied().unwrap_or(0.0)
            + self.hold_bonus.get(e.0 as usize).copied().unwrap_or(0.0)
    }

    /// Our holders of a hex of [`Self::hold_stake`] next to hex `he`, across a hexside they
    /// may attack over: each must attack (7.1), the enemy there if no other.
    fn holders_next_to(&self, he: usize) -> Vec<(UnitId, usize)> {
        let info = self.info;
        let mut v = Vec::new();
        if self.hold_stake.is_empty() {
            return v;
        }
        for k in 0..6 {
            let j = info.nb[he][k];
            if j == NONE || !info.engage[he][k] || self.hold_stake[j as usize] == 0 {
                continue;
            }
            if let Some(w) = self.b.unit_at(j as usize) {
                if info.side[w.0 as usize] == self.me {
                    v.push((w, j as usize));
                }
            }
        }
        v
    }

    /// What an attack on `e` at `column` risks when a holder of a hex of [`Self::hold_stake`]
    /// takes part: an `Ar` or `Ae` (7.6) vacates the hex and the defender may advance into it
    /// (7.74), cutting the line for good (17.5); half a won game per certain loss, the worth
    /// the enemy's set-ups give the line's end ([`Self::target_bonus`]). 0 unless the style's
    /// `hold_line` found such a hex next to `e`.
    fn holder_risk(&self, e: UnitId, column: u8) -> f64 {
        let Some(he) = self.b.at(e) else { return 0.0 };
        if self.holders_next_to(he).is_empty() {
            return 0.0;
        }
        let back = (1..=6u8)
            .filter(|&die| {
                matches!(
                    naw::tables::crt(naw::tables::Column(column), die),
                    naw::tables::CombatResult::Ar | naw::tables::CombatResult::Ae
                )
            })
            .count() as f64
            / 6.0;
        back * crate::tactics::WIN * 0.5
    }

    /// True when no unit should end its move at hex `i`: the entry hex of our reinforcements
    /// due next game-turn (the style's `keep_entry`).
    fn entry_kept(&self, i: usize) -> bool {
        self.entry_block.get(i).copied().unwrap_or(false)
    }

    /// Fills what the style's options need: the saving of a supported attack per enemy unit
    /// (`support`) and the entry hexes to keep clear (`keep_entry`). Nothing for the
    /// heuristic's own style.
    fn prepare_options(&mut self) {
        let info = self.info;
        if self.style.support {
            let mut bonus = vec![0.0; info.strength.len()];
            for i in 0..info.strength.len() {
                let e = UnitId(i as u8);
                if info.side[i] != self.en {
                    continue;
                }
                let Some(he) = self.b.at(e) else { continue };
                let existing = self.existing_attackers(he);
                if existing.is_empty() {
                    continue;
                }
                // 7.1: the units in contact attack whether or not help comes
                let alone = eval_combat(info, &self.b, &self.vals, &existing, &[e], None);
                bonus[i] = (-alone.ev).max(0.0);
            }
            self.support_bonus = bonus;
        }
        if self.style.keep_entry && !self.g.scenario().hooks.friendly_occupied_entry_ok {
            // 15.0, 15.5: a friend on the entry hex at the start of our next movement phase
            // delays the reinforcements due then (or already delayed)
            let next = self.g.turn().saturating_add(1);
            let mut block = vec![false; info.n];
            for u in self.g.unit_ids() {
                if info.side[u.0 as usize] != self.me {
                    continue;
                }
                if let Some((due, hex)) = self.g.arrival(u) {
                    if due <= next {
                        if let Some(x) = info.idx(hex) {
                            block[x] = true;
                        }
                    }
                }
            }
            self.entry_block = block;
        }
    }

    /// The style's `strike_line`, on the game's last player-turn of the side without a line of
    /// communications: per hex the enemy holds, the strength an advance into it after an
    /// attack (7.74) would cut off from his line's end for good (17.5), from the watch over his
    /// line ([`Watch::held`], our units where they stand now).
    fn prepare_strike(&mut self) {
        let info = self.info;
        let Some((ls, _, _)) = info.loc else { return };
        if !self.style.strike_line || ls == self.me || self.turns_left != 0 {
            return;
        }
        let Some(w) = Watch::new(info, self.g, &mut self.b, ls, self.g.turn()) else {
            return;
        };
        let mut stake = vec![0u32; info.n];
        for (x, c) in w.held(info, &self.b) {
            stake[x] = c;
        }
        self.strike_stake = stake;
    }

    /// Plans attack set-ups greedily, best first.
    fn plan_attacks(&mut self) {
        let info = self.info;
        // candidate targets: enemy units next to a hex some mover reaches, or already in contact
        let mut reachable = vec![false; info.n];
        for &u in &self.movers {
            for &(i, _) in &self.dests[u.0 as usize] {
                reachable[i as usize] = true;
            }
        }
        let mut targets: Vec<(f64, UnitId)> = Vec::new();
        for i in 0..info.strength.len() {
            if info.side[i] != self.en {
                continue;
            }
            let Some(p) = self.b.at(UnitId(i as u8)) else {
                continue;
            };
            let near = (0..6).any(|k| {
                let j = info.nb[p][k];
                j != NONE
                    && info.engage[p][k]
                    && (reachable[j as usize]
                        || self
                            .b
                            .unit_at(j as usize)
                            .is_some_and(|w| info.side[w.0 as usize] == self.me))
            });
            if near {
                targets.push((f64::INFINITY, UnitId(i as u8)));
            }
        }
        let mut rounds = 0;
        while !targets.is_empty() && rounds < 64 {
            rounds += 1;
            // the most promising by its last (stale) value
            targets.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let e = targets[0].1;
            let fresh = self.build_attack(e);
            let v = fresh.as_ref().map_or(f64::NEG_INFINITY, |f| f.3) + self.noise();
            let next = targets.get(1).map_or(f64::NEG_INFINITY, |t| t.0);
            if v + 1e-9 < next {
                targets[0].0 = v;
                continue;
            }
            targets.remove(0);
            let Some((moves, existing, ev, value)) = fresh else {
                continue;
            };
            if value < self.style.min_gain || (moves.is_empty() && existing.is_empty()) {
                continue;
            }
            if !self.loc_keeps(&moves) {
                continue;
            }
            // commit
            for &(u, s) in &moves {
                self.do_move(u, s);
            }
            for &(u, _) in &existing {
                self.used[u.0 as usize] = true;
            }
            self.targeted[e.0 as usize] = true;
            let mut attackers: Vec<UnitId> = existing.iter().map(|a| a.0).collect();
            attackers.extend(moves.iter().map(|m| m.0));
            let why = attack_reason(self.g, &ev);
            self.plan.explanation.attacks.push(AttackNote {
                attackers,
                defenders: vec![e],
                odds: Column(ev.column),
                why,
            });
            // values of the others may have changed
            for t in targets.iter_mut() {
                t.0 = f64::INFINITY;
            }
        }
    }

    fn do_move(&mut self, u: UnitId, s: usize) {
        self.b.place(self.info, u, s);
        self.used[u.0 as usize] = true;
        self.plan.moves.push(Action::Move {
            unit: u,
            to: self.info.hex(s),
        });
    }

    /// The worth of a unit standing at hex `i` when it is not attacking.
    fn position_score(&self, u: UnitId, i: usize) -> f64 {
        let info = self.info;
        let s = info.str(u);
        let mut v = 0.0;
        // close with the enemy: one step out of contact is where the next attack starts
        let f = self.front[i] as f64;
        v -= self.style.approach * (f - 1.0).max(0.0);
        v -= self.exposure(s, i);
        if info.doubles[i] {
            v += if self.threat[i] > 0 {
                0.6 + 0.04 * s as f64
            } else {
                0.15
            };
        }
        // a riverbank facing the enemy: attacks can only come over bridges
        let friends = (0..6)
            .filter(|&k| {
                let j = info.nb[i][k];
                j != NONE
                    && self
                        .b
                        .unit_at(j as usize)
                        .is_some_and(|w| info.side[w.0 as usize] == self.me)
            })
            .count();
        v += 0.12 * friends.min(3) as f64;
        if self.zone_job[u.0 as usize] {
            v -= 0.8 * info.loc_zone_dist[i] as f64;
        }
        // line of communications
        if !self.loc_ok.is_empty() {
            let urgency = match self.turns_left {
                0 => 8.0,
                1 => 3.0,
                2 => 1.0,
                _ => 0.2,
            };
            if !self.loc_ok[i] {
                v -= urgency * (1.0 + 0.1 * s as f64);
            }
        }
        v
    }

    /// The line of communications, for the side that has one: keep its end hex held. For the
    /// other side, on the last turns: take or cut it.
    fn plan_loc(&mut self) {
        let info = self.info;
        let Some((ls, _, t)) = info.loc else { return };
        if ls == self.me {
            match self.b.unit_at(t) {
                Some(w) if info.side[w.0 as usize] == self.me => {
                    if !self.hold_end(t) {
                        self.used[w.0 as usize] = true;
                    }
                }
                Some(_) => {}
                None if self.hold_end(t) => {}
                None => {
                    // the strongest mover that reaches the end hex holds it
                    if let Some(u) = self.strongest_reaching(t) {
                        self.do_move(u, t);
                        self.plan.explanation.plan.push_str(&format!(
                            "{} holds {}, the end of the line of communications (17.5); ",
                            self.g.id(u),
                            info.hex(t)
                        ));
                    } else {
                        // move the nearest free unit toward it
                        let mut best: Option<(u16, u32, UnitId, usize)> = None;
                        for &u in &self.movers {
                            if self.used[u.0 as usize] {
                                continue;
                            }
                            for &(i, _) in &self.dests[u.0 as usize] {
                                let i = i as usize;
                                if self.b.occ[i] != 0 || self.b.controlled(self.en, i) {
                                    continue;
                                }
                                let k = (info.loc_dist[i], std::cmp::Reverse(info.str(u)).0, u, i);
                                if best.is_none_or(|b| {
                                    (k.0, std::cmp::Reverse(k.1)) < (b.0, std::cmp::Reverse(b.1))
                                }) {
                                    best = Some(k);
                                }
                            }
                        }
                        if let Some((d, _, u, i)) = best {
                            if d < 12 {
                                self.do_move(u, i);
                            }
                        }
                    }
                }
            }
        } else if self.turns_left == 0 && self.b.occ[t] == 0 {
            // the last player-turn: standing on the enemy's line's end cuts every unit off
            if let Some(u) = self.strongest_reaching(t) {
                self.do_move(u, t);
                self.plan.explanation.plan.push_str(&format!(
                    "{} takes {}, cutting the enemy's line of communications (17.5); ",
                    self.g.id(u),
                    info.hex(t)
                ));
            }
        }
    }

    /// The style's `hold_end`, for the side with a line of communications whose end hex `t` we
    /// hold or is empty, when at most [`END_WINDOW`] game-turns are left after this one: the
    /// defence its holder needs is more than half the strength of the enemy units within
    /// [`END_HORIZON`] moves of it (an attack by them all is then at 1-1 or less, 7.6). A
    /// holder that strong stays. Otherwise the relief (the weakest unit that strong, or, when
    /// none is, the strongest stronger than the holder, among the free units soonest there,
    /// that can be there before the game ends): when it reaches the empty end hex, it holds
    /// it; when the holder can step off (5.13) and it reaches the vacated hex (the rules'
    /// movement search on the game with the planned moves made), it takes the holder's place;
    /// else it marches toward the end hex (its next step nearest it, out of the enemy's
    /// zones). True when the end hex's holder is settled (it stays, or the relief took the
    /// hex); false leaves the end hex to the heuristic's own rule (a weaker holder stays, the
    /// strongest unit that reaches the empty hex holds it).
    fn hold_end(&mut self, t: usize) -> bool {
        let info = self.info;
        if !self.style.hold_end || self.turns_left > END_WINDOW {
            return false;
        }
        let cost = end_cost(info, t);
        let mult = if info.doubles[t] { 2 } else { 1 };
        let mut near = 0u32;
        for i in 0..info.strength.len() {
            if info.side[i] != self.en {
                continue;
            }
            let Some(p) = self.b.at(UnitId(i as u8)) else {
                continue;
            };
            if cost[p] <= END_HORIZON * info.movement[i] as u32 {
                near += info.strength[i];
            }
        }
        if near == 0 {
            return false;
        }
        // 7.6: attack strength over defence under 2 is 1-1 or less
        let need = near / 2 + 1;
        let holder = self.b.unit_at(t);
        let held = holder.map_or(0, |w| info.str(w) * mult);
        if held >= need {
            if let Some(w) = holder {
                self.used[w.0 as usize] = true;
            }
            return true;
        }
        // the relief: soonest there, then the weakest strong enough, else the strongest
        let turns = |u: UnitId| -> Option<u32> {
            let p = self.b.at(u)?;
            let m = info.movement[u.0 as usize] as u32;
            (cost[p] != u32::MAX && m > 0).then(|| cost[p].div_ceil(m))
        };
        let mut best: Option<((bool, u32, i64, UnitId), UnitId)> = None;
        for &u in &self.movers {
            if self.used[u.0 as usize] || Some(u) == holder || info.str(u) * mult <= held {
                continue;
            }
            let Some(n) = turns(u) else { continue };
            if n > self.turns_left as u32 + 2 {
                continue;
            }
            let enough = info.str(u) * mult >= need;
            let s = info.str(u) as i64;
            let k = (!enough, n, if enough { s } else { -s }, u);
            if best.is_none_or(|b| k < b.0) {
                best = Some((k, u));
            }
        }
        let Some((_, r)) = best else { return false };
        match holder {
            None if self.can_reach(r, t) => {
                self.do_move(r, t);
                self.plan.explanation.plan.push_str(&format!(
                    "{} holds {}, the end of the line of communications (17.5); ",
                    self.g.id(r),
                    info.hex(t)
                ));
                return true;
            }
            Some(w) if self.relieve(w, r, t) => return true,
            _ => {}
        }
        // march toward it: the free hex nearest it, out of the enemy's zones
        let here = self.b.at(r).map_or(u32::MAX, |p| cost[p]);
        let step = self.dests[r.0 as usize]
            .iter()
            .map(|&(i, _)| i as usize)
            .filter(|&i| {
                i != t
                    && self.b.occ[i] == 0
                    && !self.b.controlled(self.en, i)
                    && !self.entry_kept(i)
                    && cost[i] < here
            })
            .min_by(|&a, &b| {
                let s = info.str(r);
                let ka = (cost[a], self.exposure(s, a), a);
                let kb = (cost[b], self.exposure(s, b), b);
                ka.partial_cmp(&kb).unwrap_or(std::cmp::Ordering::Equal)
            });
        if let Some(i) = step {
            self.do_move(r, i);
            self.plan.explanation.plan.push_str(&format!(
                "{} marches toward {} to hold the end of the line of communications (17.5); ",
                self.g.id(r),
                info.hex(t)
            ));
        }
        false
    }

    /// The relief of the end hex `t`'s holder `w` by `r` (the style's `hold_end`): when `w`
    /// is free to move (not held by an enemy zone, 5.13), it steps off to the least exposed
    /// free hex it reaches out of the enemy's zones (the nearest the end hex among equals), and
    /// `r` takes its place if it reaches the vacated hex (the rules' own movement search on the
    /// game with the planned moves and the step made). True when both moves were planned.
    fn relieve(&mut self, w: UnitId, r: UnitId, t: usize) -> bool {
        let info = self.info;
        if self.used[w.0 as usize] || !self.g.may_move(w) {
            return false;
        }
        let Some(off) = self.dests[w.0 as usize]
            .iter()
            .map(|&(i, _)| i as usize)
            .filter(|&i| i != t && self.b.occ[i] == 0 && !self.b.controlled(self.en, i))
            .min_by(|&a, &b| {
                let ka = (self.exposure(info.str(w), a), info.loc_dist[a], a);
                let kb = (self.exposure(info.str(w), b), info.loc_dist[b], b);
                ka.partial_cmp(&kb).unwrap_or(std::cmp::Ordering::Equal)
            })
        else {
            return false;
        };
        let mut g2 = self.g.clone();
        for &a in &self.plan.moves {
            if g2.apply(a).is_err() {
                return false;
            }
        }
        let step = Action::Move {
            unit: w,
            to: info.hex(off),
        };
        if g2.apply(step).is_err() {
            return false;
        }
        let mut tmp = Vec::new();
        g2.destinations(r, &mut tmp);
        if !tmp.iter().any(|d| info.idx(d.hex) == Some(t)) {
            return false;
        }
        self.do_move(w, off);
        self.do_move(r, t);
        self.plan.explanation.plan.push_str(&format!(
            "{} relieves {} on {}, the end of the line of communications (17.5); ",
            self.g.id(r),
            self.g.id(w),
            info.hex(t)
        ));
        true
    }

    /// The last player-turn of the side without a line: stand where the most enemy strength
    /// is cut off from its line's end (17.5).
    fn plan_loc_cut(&mut self) {
        let info = self.info;
        let Some((ls, _, _)) = info.loc else { return };
        if ls == self.me || self.turns_left != 0 || self.me.0 != 1 {
            return;
        }
        for _ in 0..4 {
            let Some(w) = Watch::new(info, self.g, &mut self.b, ls, self.g.turn()) else {
                break;
            };
            let threats = w.threats(info, self.g, &mut self.b);
            let Some(&(x, c)) = threats.iter().find(|t| {
                self.movers
                    .iter()
                    .any(|&u| !self.used[u.0 as usize] && self.can_reach(u, t.0))
            }) else {
                break;
            };
            // the weakest unit that gets there
            let Some(u) = self
                .movers
                .iter()
                .copied()
                .filter(|&u| !self.used[u.0 as usize] && self.can_reach(u, x))
                .min_by_key(|&u| (info.str(u), u))
            else {
                break;
            };
            self.do_move(u, x);
            self.plan.explanation.plan.push_str(&format!(
                "{} cuts {} strength points off from their line of communications (17.5); ",
                self.g.id(u),
                c
            ));
        }
    }

    /// The last player-turns of the side with a line: watch it, so that no planned move opens
    /// it to a cut by the enemy's next move.
    fn start_loc_watch(&mut self) {
        let info = self.info;
        let Some((ls, _, _)) = info.loc else { return };
        if ls != self.me || self.turns_left > 1 {
            return;
        }
        let enemy_turn = if self.me.0 == 0 {
            self.g.turn()
        } else {
            self.g.turn() + 1
        };
        if enemy_turn > self.g.scenario().last_turn {
            return;
        }
        if let Some(w) = Watch::new(info, self.g, &mut self.b, self.me, enemy_turn) {
            self.loc_watch = Some((w, 0));
        }
    }

    /// After the guard: the exposure the rest of the plan may not make worse.
    fn set_loc_limit(&mut self) {
        let info = self.info;
        if let Some((w, _)) = &self.loc_watch {
            let w = w.clone();
            let e = w.exposure(info, self.g, &mut self.b, &[]);
            self.loc_watch = Some((w, e + 4));
        }
    }

    /// True when the moves (unit, to) keep the line as safe as the watch demands.
    fn loc_keeps(&mut self, moves: &[(UnitId, usize)]) -> bool {
        let info = self.info;
        let Some((w, limit)) = &self.loc_watch else {
            return true;
        };
        let limit = *limit;
        let w = w.clone();
        let orig: Vec<(UnitId, Option<usize>)> =
            moves.iter().map(|&(u, _)| (u, self.b.at(u))).collect();
        let mut extra = Vec::new();
        for &(_, from) in &orig {
            if let Some(f) = from {
                extra.extend(ball(info, f));
            }
        }
        for &(u, to) in moves {
            self.b.place(info, u, to);
        }
        let e = w.exposure(info, self.g, &mut self.b, &extra);
        for &(u, from) in orig.iter().rev() {
            match from {
                Some(f) => self.b.place(info, u, f),
                None => self.b.lift(info, u),
            }
        }
        e <= limit
    }

    /// The last player-turns of the side with a line: stand in the hexes from which the enemy's
    /// next move could cut it, so that he cannot (17.5).
    fn plan_loc_guard(&mut self) {
        let info = self.info;
        let Some((w, _)) = &self.loc_watch else {
            return;
        };
        let w = w.clone();
        let mut hopeless = vec![false; info.n];
        for _ in 0..8 {
            let threats = w.threats(info, self.g, &mut self.b);
            let Some(&(x, c)) = threats.iter().find(|t| t.1 >= 5 && !hopeless[t.0]) else {
                break;
            };
            let mut cands: Vec<UnitId> = self
                .movers
                .iter()
                .copied()
                .filter(|&u| !self.used[u.0 as usize] && self.can_reach(u, x))
                .collect();
            cands.sort_by_key(|&u| (std::cmp::Reverse(info.str(u)), u));
            cands.truncate(5);
            // the one whose move leaves the least exposed (its old post may matter too)
            let mut u = None;
            let mut best_e = u32::MAX;
            for c in cands {
                let from = self.b.at(c);
                self.b.place(info, c, x);
                let extra = from.map(|f| ball(info, f)).unwrap_or_default();
                let e = w.exposure(info, self.g, &mut self.b, &extra);
                match from {
                    Some(f) => self.b.place(info, c, f),
                    None => self.b.lift(info, c),
                }
                if e < best_e {
                    best_e = e;
                    u = Some(c);
                }
            }
            match u {
                Some(u) => {
                    self.do_move(u, x);
                    self.plan.explanation.plan.push_str(&format!(
                        "{} guards {} against a cut of the line of communications ({c} strength points at stake); ",
                        self.g.id(u),
                        info.hex(x)
                    ));
                }
                None => hopeless[x] = true,
            }
        }
    }

    /// The style's `hold_line`, before the attack set-ups: when the enemy's next player-turn is
    /// the last, the hexes we hold whose loss to the enemy (an attack, then an advance into the
    /// vacated hex, 7.74) would cut strength off from the line (17.5) for good
    /// ([`Self::hold_stake`]), and what a set-up on an enemy next to one saves its holder, who
    /// must attack (7.1) and would otherwise attack alone ([`Self::hold_bonus`]).
    fn prepare_hold(&mut self) {
        // the enemy's next player-turn is the last: a cut then stands (17.5)
        if !self.style.hold_line || self.turns_left != 0 {
            return;
        }
        let info = self.info;
        let Some((w, _)) = &self.loc_watch else {
            return;
        };
        let w = w.clone();
        let held = w.held(info, &self.b);
        self.hold_stake = vec![0; info.n];
        for &(x, c) in &held {
            if c >= HOLD_AT_STAKE {
                self.hold_stake[x] = c;
            }
        }
        // a holder in contact must attack (7.1): what its attack alone risks, a set-up on its
        // enemy saves
        let mut bonus = vec![0.0; info.strength.len()];
        for i in 0..info.strength.len() {
            let e = UnitId(i as u8);
            if info.side[i] != self.en {
                continue;
            }
            let Some(he) = self.b.at(e) else { continue };
            let holders = self.holders_next_to(he);
            if !holders.is_empty() {
                let alone = eval_combat(info, &self.b, &self.vals, &holders, &[e], None);
                bonus[i] = self.holder_risk(e, alone.column);
            }
        }
        self.hold_bonus = bonus;
    }

    /// The style's `hold_line`, after the attack set-ups: the hexes of [`Self::hold_stake`]
    /// whose holder is not in contact (one in contact is helped by the set-ups), worst first:
    /// while the enemy strength that could attack the holder next turn (fewer where the free
    /// hexes around it are fewer) is at 2-1 or more against its defence (a retreat result then
    /// comes two times in three, 7.6), a free unit that reaches a free hex around it, out of
    /// the enemy's zones, stands there (the strongest first, [`HOLD_FRIENDS`] at most), if the
    /// line stays as safe as the watch demands.
    fn plan_loc_hold(&mut self) {
        if self.hold_stake.is_empty() {
            return;
        }
        let info = self.info;
        let mut held: Vec<(usize, u32)> = (0..info.n)
            .filter(|&x| self.hold_stake[x] > 0)
            .map(|x| (x, self.hold_stake[x]))
            .collect();
        held.sort_by_key(|x| (std::cmp::Reverse(x.1), x.0));
        for (x, c) in held.into_iter().take(4) {
            if self.b.controlled(self.en, x) {
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            let Some(o) = self.b.unit_at(x) else { continue };
            let defence = info.str(o) * if info.doubles[x] { 2 } else { 1 };
            let n = self.threat_n[x].max(1) as f64;
            for _ in 0..HOLD_FRIENDS {
                let free: Vec<usize> = (0..6)
                    .filter_map(|k| {
                        let j = info.nb[x][k];
                        (j != NONE && info.engage[x][k] && self.b.occ[j as usize] == 0)
                            .then_some(j as usize)
                    })
                    .collect();
                let attack = self.threat[x] as f64 * (free.len() as f64 / n).min(1.0);
                if attack < 2.0 * defence as f64 {
                    break;
                }
                let mut best: Option<(u32, UnitId, usize)> = None;
                for &j in &free {
                    if self.b.controlled(self.en, j) || self.entry_kept(j) {
                        continue;
                    }
                    for &u in &self.movers {
                        if self.used[u.0 as usize] || !self.can_reach(u, j) {
                            continue;
                        }
                        let k = (info.str(u), u, j);
                        if best.is_none_or(|b| {
                            (k.0, std::cmp::Reverse(k.1)) > (b.0, std::cmp::Reverse(b.1))
                        }) {
                            best = Some(k);
                        }
                    }
                }
                let Some((_, u, j)) = best else { break };
                if !self.loc_keeps(&[(u, j)]) {
                    break;
                }
                self.do_move(u, j);
                names.push(self.g.id(u).to_string());
            }
            if !names.is_empty() {
                self.plan.explanation.plan.push_str(&format!(
                    "{} {} by {} so that no attack dislodges its holder and cuts the line of \
                     communications ({c} strength points at stake); ",
                    names.join(", "),
                    if names.len() == 1 { "stands" } else { "stand" },
                    info.hex(x)
                ));
            }
        }
    }

    /// The side with a line of communications keeps enough strength on the ground behind its
    /// end hex (the bank the end hex is on) to beat off the enemy units that come there: the
    /// nearest free units are sent.
    fn plan_loc_zone(&mut self) {
        let info = self.info;
        let Some((ls, _, _)) = info.loc else { return };
        if ls != self.me {
            return;
        }
        let mut enemy = 0u32;
        let mut ours = 0u32;
        for i in 0..info.strength.len() {
            let Some(p) = self.b.at(UnitId(i as u8)) else {
                continue;
            };
            let d = info.loc_zone_dist[p];
            if info.side[i] == self.en && d <= 1 {
                enemy += info.strength[i];
            } else if info.side[i] == self.me && d == 0 {
                ours += info.strength[i];
            }
        }
        let mut need = 2.0 * enemy as f64 + 8.0 - ours as f64;
        while need > 0.0 {
            // the free mover that gets nearest
            let mut best: Option<(u16, std::cmp::Reverse<u32>, UnitId)> = None;
            for &u in &self.movers {
                if self.used[u.0 as usize] || self.zone_job[u.0 as usize] {
                    continue;
                }
                let here = self.b.at(u).map_or(u16::MAX, |p| info.loc_zone_dist[p]);
                if here == 0 {
                    continue;
                }
                let d = self.dests[u.0 as usize]
                    .iter()
                    .map(|&(i, _)| info.loc_zone_dist[i as usize])
                    .min()
                    .unwrap_or(u16::MAX)
                    .min(here);
                let k = (d, std::cmp::Reverse(info.str(u)), u);
                if best.is_none_or(|b| k < b) {
                    best = Some(k);
                }
            }
            let Some((d, _, u)) = best else { break };
            if d > 12 {
                break;
            }
            self.zone_job[u.0 as usize] = true;
            need -= info.str(u) as f64;
        }
    }

    /// Every unit not attacking goes where it stands best.
    fn plan_positions(&mut self) {
        let info = self.info;
        let mut order: Vec<UnitId> = self
            .movers
            .iter()
            .copied()
            .filter(|&u| !self.used[u.0 as usize])
            .collect();
        // the units nearest the enemy choose first
        order.sort_by_key(|&u| {
            let f = self.b.at(u).map_or(99, |p| self.front[p]);
            (f, std::cmp::Reverse(info.str(u)), u)
        });
        for u in order {
            let here = self.b.at(u);
            let mut best: Option<(f64, usize)> = None;
            if let Some(h) = here {
                // staying put is always possible
                let mut v = self.position_score(u, h) + self.noise();
                if self.entry_kept(h) {
                    // off the entry hex if it can (15.0)
                    v -= 1000.0;
                }
                best = Some((v, h));
            }
            for di in 0..self.dests[u.0 as usize].len() {
                let i = self.dests[u.0 as usize][di].0 as usize;
                if self.b.occ[i] != 0 || self.entry_kept(i) {
                    continue;
                }
                // no unplanned contact: a unit that touches the enemy must attack
                if self.b.controlled(self.en, i)
                    && !self.contacts(i).all(|f| self.targeted[f.0 as usize])
                {
                    continue;
                }
                let from = here;
                self.b.place(info, u, i);
                let v = self.position_score(u, i) + self.noise();
                match from {
                    Some(f) => self.b.place(info, u, f),
                    None => self.b.lift(info, u),
                }
                if best.is_none_or(|b| v > b.0 + 1e-9) {
                    best = Some((v, i));
                }
            }
            if let Some((_, i)) = best {
                if Some(i) != here && self.loc_keeps(&[(u, i)]) {
                    self.do_move(u, i);
                }
            }
        }
    }
}

/// The attacks a movement plan sets up, in plain words, the best odds first: `attack PR.11 at
/// 3-1 (FR.1Gd, FR.2Gd) and RU.5 at 2-1 (FR.4)` (at most four named, then how many more).
pub(crate) fn attacks_intended(g: &Game, attacks: &[AttackNote]) -> String {
    let mut sorted: Vec<&AttackNote> = attacks.iter().collect();
    sorted.sort_by_key(|n| std::cmp::Reverse(n.odds));
    let named: Vec<String> = sorted
        .iter()
        .take(4)
        .map(|n| {
            format!(
                "{} at {} ({})",
                unit_list(g, &n.defenders),
                n.odds.name(),
                ids_of(g, &n.attackers)
            )
        })
        .collect();
    let mut s = format!("attack {}", and_list(&named));
    if sorted.len() > named.len() {
        s.push_str(&format!(
            " (and {} more attack{})",
            sorted.len() - named.len(),
            if sorted.len() - named.len() == 1 {
                ""
            } else {
                "s"
            }
        ));
    }
    s
}

/// Units' ids as `A, B, C`.
pub(crate) fn ids_of(g: &Game, us: &[UnitId]) -> String {
    us.iter()
        .map(|&u| g.id(u).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Units' ids as `A`, `A and B`, `A, B and C`.
pub(crate) fn unit_list(g: &Game, us: &[UnitId]) -> String {
    let ids: Vec<String> = us.iter().map(|&u| g.id(u).to_string()).collect();
    and_list(&ids)
}

/// Items as `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why an attack is worth making, in a sentence.
pub(crate) fn attack_reason(_g: &Game, ev: &CombatEval) -> String {
    let col = Column(ev.column).name();
    let kill = (ev.p_kill * 100.0).round();
    let strengths = format!("{} against {}: ", ev.attack, ev.defence);
    let mut why = if ev.trapped {
        format!(
            "the defender has no hex to retreat into, so a retreat result eliminates it: {kill}% to destroy it at {col}"
        )
    } else if ev.p_kill > 0.0 {
        format!("{kill}% to destroy it at {col}, and it is pushed back otherwise")
    } else {
        format!(
            "{col} drives it back {:.0}% of the time",
            ev.p_vacate * 100.0
        )
    };
    why.insert_str(0, &strengths);
    if ev.column < ev.natural {
        why.push_str(&format!(
            " (reduced from {} to avoid an exchange, 7.9)",
            Column(ev.natural).name()
        ));
    }
    if ev.p_loss > 0.0 {
        why.push_str(&format!("; {:.0}% risk of losses", ev.p_loss * 100.0));
    }
    why
}

/// The style's `hold_line` looks after a hex we hold only when an enemy standing there would
/// cut at least this much strength off from the line of communications (17.5).
const HOLD_AT_STAKE: u32 = 25;

/// The style's `hold_line` brings at most this many friends next to one holder.
const HOLD_FRIENDS: usize = 2;

/// The style's `hold_end` counts the enemy units within this many moves of the line's end hex.
const END_HORIZON: u32 = 2;

/// The style's `hold_end` acts when at most this many game-turns are left after the current one
/// (the whole First Day; a Grand Battle's last five game-turns: the line counts only at the
/// game's end, 17.5, and a march there takes three moves).
const END_WINDOW: u8 = 4;

/// The cost in half movement points of the cheapest way from each hex into the hex `t`, over
/// the map's steps (5.2, 9.0), units and zones ignored; `u32::MAX` where none leads.
fn end_cost(info: &Info, t: usize) -> Vec<u32> {
    let mut d = vec![u32::MAX; info.n];
    let mut heap = std::collections::BinaryHeap::new();
    d[t] = 0;
    heap.push(std::cmp::Reverse((0u32, t)));
    while let Some(std::cmp::Reverse((c, i))) = heap.pop() {
        if c > d[i] {
            continue;
        }
        for k in 0..6 {
            let j = info.nb[i][k];
            if j == NONE {
                continue;
            }
            let j = j as usize;
            // the step from j into i, in the direction opposite to k
            let s = info.step[j][(k + 3) % 6];
            if s == crate::info::BLOCKED {
                continue;
            }
            let nc = c + s as u32;
            if nc < d[j] {
                d[j] = nc;
                heap.push(std::cmp::Reverse((nc, j)));
            }
        }
    }
    d
}

/// Plans a whole movement phase for the phasing side.
pub(crate) fn plan_movement(
    info: &Info,
    g: &Game,
    style: Style,
    rng: &mut Dice,
    reach: &mut Reach,
) -> MovePlan {
    let mut c = MoveCtx::new(info, g, style, rng, reach);
    c.prepare_options();
    c.plan_loc();
    c.plan_loc_cut();
    c.start_loc_watch();
    c.plan_loc_guard();
    c.set_loc_limit();
    c.prepare_hold();
    c.prepare_strike();
    let fights = !g.is_night();
    if fights {
        c.plan_attacks();
    }
    c.plan_loc_hold();
    c.plan_loc_zone();
    c.plan_positions();
    let n_att = c.plan.explanation.attacks.len();
    let entering = c
        .plan
        .moves
        .iter()
        .filter(|a| matches!(a, Action::Move { unit, .. } if g.hex_of(*unit).is_none()))
        .count();
    let mut s = std::mem::take(&mut c.plan.explanation.plan);
    if g.is_night() {
        s.push_str("night: no combat (10.1); the line is reorganised out of danger");
    } else if n_att == 0 {
        s.push_str(
            "no attack is worth making; the units take up positions out of contact, on good ground",
        );
    } else {
        s.push_str(&format!(
            "{}; the other units hold good ground just out of contact",
            attacks_intended(g, &c.plan.explanation.attacks)
        ));
    }
    if entering > 0 {
        s.push_str(&format!(
            "; {entering} reinforcement{} come up toward the fighting",
            if entering == 1 { "" } else { "s" }
        ));
    }
    c.plan.explanation.plan = s;
    c.plan
}

/// A combat of a declaration plan.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlannedCombat {
    pub attackers: Vec<UnitId>,
    pub defenders: Vec<UnitId>,
}

/// Plans the combat declarations of the phasing side (7.1, 7.2): every obligated unit in a
/// combat, every combat as valuable as the assignment can make it.
pub(crate) fn plan_declarations(
    info: &Info,
    g: &Game,
    style: Style,
    rng: &mut Dice,
) -> Vec<PlannedCombat> {
    let me = g.phasing();
    let en = Side(1 - me.0);
    let b = Board::from_game(info, g);
    let vals = Values::new(info, g, me);
    // the contact graph: our units in enemy zones of control and the enemies in ours
    let mut att: Vec<UnitId> = Vec::new();
    let mut def: Vec<UnitId> = Vec::new();
    for i in 0..info.strength.len() {
        let u = UnitId(i as u8);
        let Some(p) = b.at(u) else { continue };
        if g.in_combat(u) {
            continue;
        }
        if info.side[i] == me && b.controlled(en, p) {
            att.push(u);
        } else if info.side[i] == en && b.controlled(me, p) {
            def.push(u);
        }
    }
    if att.is_empty() && def.is_empty() {
        return Vec::new();
    }
    let adj = |a: UnitId, d: UnitId| match (b.at(a), b.at(d)) {
        (Some(x), Some(y)) => engages(info, x, y),
        _ => false,
    };
    // 1. a maximum matching of defenders to distinct attackers
    let mut mate_of_att: Vec<Option<usize>> = vec![None; att.len()];
    let mut mate_of_def: Vec<Option<usize>> = vec![None; def.len()];
    fn augment(
        d: usize,
        def: &[UnitId],
        att: &[UnitId],
        adj: &dyn Fn(UnitId, UnitId) -> bool,
        mate_a: &mut [Option<usize>],
        mate_d: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for a in 0..att.len() {
            if seen[a] || !adj(att[a], def[d]) {
                continue;
            }
            seen[a] = true;
            if mate_a[a].is_none()
                || augment(mate_a[a].unwrap_or(0), def, att, adj, mate_a, mate_d, seen)
            {
                mate_a[a] = Some(d);
                mate_d[d] = Some(a);
                return true;
            }
        }
        false
    }
    // strongest defenders first get their own attacker
    let mut dorder: Vec<usize> = (0..def.len()).collect();
    dorder.sort_by_key(|&d| (std::cmp::Reverse(info.str(def[d])), d));
    for &d in &dorder {
        let mut seen = vec![false; att.len()];
        augment(
            d,
            &def,
            &att,
            &adj,
            &mut mate_of_att,
            &mut mate_of_def,
            &mut seen,
        );
    }
    // combats: one per matched pair
    let mut combats: Vec<PlannedCombat> = Vec::new();
    let mut combat_of_att: Vec<Option<usize>> = vec![None; att.len()];
    for (d, m) in mate_of_def.iter().enumerate() {
        if let Some(a) = *m {
            combat_of_att[a] = Some(combats.len());
            combats.push(PlannedCombat {
                attackers: vec![att[a]],
                defenders: vec![def[d]],
            });
        }
    }
    // 2. unmatched defenders join the combat of an adjacent attacker that engages them all
    for d in 0..def.len() {
        if mate_of_def[d].is_some() {
            continue;
        }
        let mut best: Option<(f64, usize)> = None;
        for (a, &au) in att.iter().enumerate() {
            if !adj(au, def[d]) {
                continue;
            }
            let Some(c) = combat_of_att[a] else { continue };
            if !combats[c].attackers.iter().all(|&x| adj(x, def[d])) {
                continue;
            }
            let mut ds = combats[c].defenders.clone();
            ds.push(def[d]);
            let e = eval_combat(
                info,
                &b,
                &vals,
                &crate::tactics::placed(&b, &combats[c].attackers),
                &ds,
                None,
            );
            if best.is_none_or(|x| e.ev > x.0) {
                best = Some((e.ev, c));
            }
        }
        if let Some((_, c)) = best {
            combats[c].defenders.push(def[d]);
        }
    }
    // 3. free attackers join the combat where they add the most
    let value = |c: &PlannedCombat| -> f64 {
        eval_combat(
            info,
            &b,
            &vals,
            &crate::tactics::placed(&b, &c.attackers),
            &c.defenders,
            None,
        )
        .ev
    };
    let mut order: Vec<usize> = (0..att.len())
        .filter(|&a| combat_of_att[a].is_none())
        .collect();
    order.sort_by_key(|&a| (std::cmp::Reverse(info.str(att[a])), a));
    for a in order {
        let au = att[a];
        let mut best: Option<(f64, usize)> = None;
        for (ci, c) in combats.iter().enumerate() {
            if !c.defenders.iter().all(|&d| adj(au, d)) {
                continue;
            }
            let before = value(c);
            let mut c2 = c.clone();
            c2.attackers.push(au);
            let gain = value(&c2) - before;
            let gain = gain + style.noise * noise(rng);
            if best.is_none_or(|x| gain > x.0) {
                best = Some((gain, ci));
            }
        }
        if let Some((_, ci)) = best {
            combats[ci].attackers.push(au);
            combat_of_att[a] = Some(ci);
        }
    }
    // 4. improve: move an attacker from one combat to another while the total rises
    for _ in 0..3 {
        let mut improved = false;
        for a in 0..att.len() {
            let Some(from) = combat_of_att[a] else {
                continue;
            };
            if combats[from].attackers.len() < 2 {
                continue;
            }
            let au = att[a];
            let mut c_from = combats[from].clone();
            c_from.attackers.retain(|&x| x != au);
            let base_from = value(&combats[from]);
            let after_from = value(&c_from);
            let mut best: Option<(f64, usize)> = None;
            for to in 0..combats.len() {
                if to == from || !combats[to].defenders.iter().all(|&d| adj(au, d)) {
                    continue;
                }
                let mut c_to = combats[to].clone();
                c_to.attackers.push(au);
                let gain = after_from - base_from + value(&c_to) - value(&combats[to]);
                if gain > 0.05 && best.is_none_or(|x| gain > x.0) {
                    best = Some((gain, to));
                }
            }
            if let Some((_, to)) = best {
                combats[from].attackers.retain(|&x| x != au);
                combats[to].attackers.push(au);
                combat_of_att[a] = Some(to);
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    combats.retain(|c| !c.attackers.is_empty() && !c.defenders.is_empty());
    combats
}

fn noise(rng: &mut Dice) -> f64 {
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (x - 0.5) * 2.0
}

/// The declaration actions of a plan, in an order the rules accept.
pub(crate) fn declaration_actions(plan: &[PlannedCombat]) -> Vec<Action> {
    let mut v = Vec::new();
    for c in plan {
        let (Some(&a0), Some(&d0)) = (c.attackers.first(), c.defenders.first()) else {
            continue;
        };
        v.push(Action::Attack {
            unit: a0,
            target: d0,
        });
        for &d in &c.defenders[1..] {
            v.push(Action::Attack {
                unit: a0,
                target: d,
            });
        }
        for &a in &c.attackers[1..] {
            v.push(Action::Attack {
                unit: a,
                target: d0,
            });
        }
    }
    v
}

/// When the planned declarations are refused: the best legal declaration by a simple value, or
/// `end` when it is allowed.
pub(crate) fn fallback_declaration(info: &Info, g: &Game) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    if legal.contains(&Action::End) {
        return Action::End;
    }
    let b = Board::from_game(info, g);
    let vals = Values::new(info, g, g.phasing());
    let mut best: Option<(f64, Action)> = None;
    for &a in &legal {
        if let Action::Attack { unit, target } = a {
            let e = eval_combat(
                info,
                &b,
                &vals,
                &crate::tactics::placed(&b, &[unit]),
                &[target],
                None,
            );
            if best.is_none_or(|x| e.ev > x.0) {
                best = Some((e.ev, a));
            }
        }
    }
    best.map(|x| x.1)
        .unwrap_or_else(|| legal.first().copied().unwrap_or(Action::End))
}

/// The declared combats of the current combat phase, unresolved ones only: attackers (with
/// bombarding ones), defenders.
pub(crate) fn pending_combats(g: &Game) -> Vec<(Vec<UnitId>, Vec<UnitId>)> {
    g.combats()
        .into_iter()
        .filter(|c| !c.resolved)
        .map(|c| (c.attackers, c.defenders))
        .collect()
}

/// Chooses the next combat to resolve and its column (7.0, 7.9).
pub(crate) fn choose_resolve(info: &Info, g: &Game) -> Action {
    let me = g.phasing();
    let b = Board::from_game(info, g);
    let vals = Values::new(info, g, me);
    let pending = pending_combats(g);
    let mut best: Option<(f64, Action)> = None;
    for (i, (a, d)) in pending.iter().enumerate() {
        let Some(&first) = d.first() else { continue };
        let placed = crate::tactics::placed(&b, a);
        let e = eval_combat(info, &b, &vals, &placed, d, None);
        // resolve first the combats whose success would cut the retreat of other defenders:
        // an advance into the vacated hex blocks them (7.74)
        let mut cut = 0.0;
        for hd in d.iter().filter_map(|&x| b.at(x)) {
            for (j, (_, d2)) in pending.iter().enumerate() {
                if j == i {
                    continue;
                }
                for &x in d2 {
                    if let Some(h2) = b.at(x) {
                        if info.nb[h2].contains(&(hd as u16))
                            && can_retreat(info, &b, info.side[x.0 as usize], h2)
                        {
                            cut += 0.5 * info.str(x) as f64 * e.p_vacate;
                        }
                    }
                }
            }
        }
        // and leave for last the combats whose defenders can still be cut off
        let cuttable = if e.trapped { 0.0 } else { 0.3 };
        let pri = cut + e.p_vacate * 2.0 - cuttable + 0.01 * e.column as f64;
        let column = (e.column < e.natural).then_some(Column(e.column));
        let act = Action::Resolve {
            target: first,
            column,
        };
        if best.is_none_or(|x| pri > x.0) {
            best = Some((pri, act));
        }
    }
    best.map(|x| x.1).unwrap_or(Action::End)
}

/// Chooses exchange losses (7.6): the least strength, then the units in the worst spots.
pub(crate) fn choose_losses(info: &Info, g: &Game) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let b = Board::from_game(info, g);
    let side = g.phasing();
    let score = |units: &UnitSet| -> f64 {
        units
            .iter()
            .map(|u| {
                let s = info.str(u) as f64;
                let stuck = b.at(u).is_some_and(|p| !can_retreat(info, &b, side, p));
                s * 10.0 - if stuck { 3.0 } else { 0.0 }
            })
            .sum()
    };
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Lose { units } => Some((score(units), *a)),
            _ => None,
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|x| x.1)
        .unwrap_or_else(|| legal.first().copied().unwrap_or(Action::End))
}

/// The worth of retreating (or advancing) a unit of `side` into hex `i`: away from the enemy,
/// on good ground, among friends, with somewhere to go next time, in touch with the line of
/// communications.
fn refuge_score(info: &Info, b: &Board, side: Side, u: UnitId, i: usize) -> f64 {
    let en = Side(1 - side.0);
    let mut v = 0.0;
    if info.doubles[i] {
        v += 1.0;
    }
    let mut enemies_near = 0;
    let mut friends = 0;
    for k in 0..6 {
        let j = info.nb[i][k];
        if j == NONE {
            continue;
        }
        // enemy units two hexes away could close in
        for k2 in 0..6 {
            let j2 = info.nb[j as usize][k2];
            if j2 != NONE
                && b.unit_at(j2 as usize)
                    .is_some_and(|w| info.side[w.0 as usize] == en)
            {
                enemies_near += 1;
            }
        }
        if b.unit_at(j as usize)
            .is_some_and(|w| w != u && info.side[w.0 as usize] == side)
        {
            friends += 1;
        }
    }
    v -= 0.3 * enemies_near as f64;
    v += 0.3 * friends.min(3) as f64;
    v += 0.4 * retreat_hexes(info, b, side, i, |_| true).min(3) as f64;
    if let Some((ls, _, t)) = info.loc {
        if ls == side {
            v -= 0.05 * info.loc_dist[i].min(40) as f64;
            if i == t {
                v += 2.0;
            }
        }
    }
    v
}

/// Chooses a retreat (7.71-7.82). `avoid` are hexes already entered by displacement in this
/// combat: a chain of displacements may otherwise go round in circles.
pub(crate) fn choose_retreat(info: &Info, g: &Game, avoid: &[naw::Loc]) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let b = Board::from_game(info, g);
    let mut best: Option<(f64, Action)> = None;
    for &a in &legal {
        let v = match a {
            Action::Retreat { unit, to } => {
                let Some(i) = info.idx(to) else { continue };
                let side = info.side[unit.0 as usize];
                let mut s = refuge_score(info, &b, side, unit, i);
                if b.unit_at(i).is_some() {
                    s -= 1.5; // displacing a friend disturbs the line
                    let n = avoid.iter().filter(|&&l| l == naw::Loc::Map(to)).count();
                    s -= 10.0 * n as f64;
                }
                s
            }
            // bombarding artillery stays put unless the attacker retreat would be better
            Action::Stand { .. } => 0.5,
            _ => continue,
        };
        if best.is_none_or(|x| v > x.0) {
            best = Some((v, a));
        }
    }
    best.map(|x| x.1)
        .unwrap_or_else(|| legal.first().copied().unwrap_or(Action::Hold))
}

/// A watch over our line kept through one combat phase: (turn, phasing side, the watch).
pub(crate) type WatchCache = Option<(u8, u8, Watch)>;

/// Chooses whether and where to advance after combat (7.74, 7.75).
pub(crate) fn choose_advance(info: &Info, g: &Game, cache: &mut WatchCache, wary: bool) -> Action {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let b = Board::from_game(info, g);
    let me = match engine::Rules::to_act(g) {
        engine::ToAct::Side(s) => s,
        _ => g.phasing(),
    };
    let en = Side(1 - me.0);
    let phasing = g.phasing() == me;
    let vals = Values::new(info, g, me);
    let pending = if phasing {
        pending_combats(g)
    } else {
        Vec::new()
    };
    let mut best: (f64, Action) = (0.0, Action::Hold);
    let mut watch: Option<(Watch, u32)> = None;
    for &a in &legal {
        let Action::Advance { unit, to } = a else {
            continue;
        };
        let Some(i) = info.idx(to) else { continue };
        let mut b2 = b.clone();
        b2.place(info, unit, i);
        let mut v = 0.0;
        // cutting off the retreat of defenders still to be attacked
        for (att, def) in &pending {
            let before = eval_combat(info, &b, &vals, &crate::tactics::placed(&b, att), def, None);
            let after = eval_combat(
                info,
                &b2,
                &vals,
                &crate::tactics::placed(&b2, att),
                def,
                None,
            );
            v += after.ev - before.ev;
        }
        // the line of communications
        if let Some((ls, _, t)) = info.loc {
            if ls != me && i == t {
                v += if g.turn() >= g.scenario().last_turn {
                    crate::tactics::WIN
                } else {
                    2.0
                };
            }
            if ls == me {
                v += 0.02
                    * (b.at(unit).map_or(0, |p| info.loc_dist[p]) as f64 - info.loc_dist[i] as f64);
                let last = g.scenario().last_turn;
                let enemy_turn = if me.0 == 0 { g.turn() } else { g.turn() + 1 };
                if enemy_turn <= last && last - g.turn() <= 1 {
                    // do not open the line to a cut by the enemy's last moves
                    if watch.is_none() {
                        let key = (g.turn(), g.phasing().0);
                        if cache.as_ref().is_none_or(|c| (c.0, c.1) != key) {
                            *cache = Watch::new(info, g, &mut b.clone(), me, enemy_turn)
                                .map(|w| (key.0, key.1, w));
                        }
                        watch = cache.as_ref().map(|c| {
                            let w = c.2.clone();
                            let e = w.exposure(info, g, &mut b.clone(), &[]);
                            (w, e)
                        });
                    }
                    if let Some((w, before)) = &watch {
                        let extra = b.at(unit).map(|f| ball(info, f)).unwrap_or_default();
                        let after = w.exposure(info, g, &mut b2.clone(), &extra);
                        let wt = if last == g.turn() { 1.0 } else { 0.4 };
                        v -= wt * vals.delta(me, after.saturating_sub(*before), 0).abs();
                    }
                }
            } else if ls == en {
                let before = cut_strength(info, &b, en);
                let after = cut_strength(info, &b2, en);
                let urgency = if g.turn() >= g.scenario().last_turn {
                    1.0
                } else {
                    0.05
                };
                v += urgency * vals.delta(en, after.saturating_sub(before), 0).abs();
            }
        }
        // ground: better terrain than the hex it leaves, and not into a trap
        let from = b.at(unit);
        if info.doubles[i] && from.is_none_or(|f| !info.doubles[f]) {
            v += 0.4;
        }
        let en_adj = (0..6)
            .filter(|&k| {
                let j = info.nb[i][k];
                j != NONE
                    && info.engage[i][k]
                    && b2
                        .unit_at(j as usize)
                        .is_some_and(|w| info.side[w.0 as usize] == en)
            })
            .count();
        if !can_retreat(info, &b2, me, i) {
            v -= 0.15 * info.str(unit) as f64;
        }
        v -= 0.3 * en_adj as f64;
        if wary && !phasing && info.loc.is_some_and(|(ls, _, _)| ls == en) {
            v += forced_attack(info, &b2, &vals, unit, i).min(0.0);
        }
        // pressing on: the advanced unit keeps contact for the next attack
        v += 0.1;
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

/// The worth to `unit`'s side of the attack `unit` standing at hex `i` would be obliged to make
/// alone (7.1) on the enemy units in contact with it (their zones hold it, 5.13): 0 when none.
fn forced_attack(info: &Info, b: &Board, vals: &Values, unit: UnitId, i: usize) -> f64 {
    let me = info.side[unit.0 as usize];
    let defenders: Vec<UnitId> = (0..6)
        .filter_map(|k| {
            let j = info.nb[i][k];
            if j == NONE || !info.engage[i][k] {
                return None;
            }
            b.unit_at(j as usize)
                .filter(|&w| info.side[w.0 as usize] != me)
        })
        .collect();
    if defenders.is_empty() {
        return 0.0;
    }
    eval_combat(info, b, vals, &[(unit, i)], &defenders, None).ev
}

/// Decides one action of the phasing or acting side with the hand-written rules, outside the
/// movement and declaration steps (which are planned as a whole).
pub(crate) fn choose_combat_step(
    info: &Info,
    g: &Game,
    avoid: &[naw::Loc],
    cache: &mut WatchCache,
    style: Style,
) -> Action {
    match g.step() {
        Step::Choose => choose_resolve(info, g),
        Step::Losses => choose_losses(info, g),
        Step::Retreat => choose_retreat(info, g, avoid),
        Step::Advance => choose_advance(info, g, cache, style.wary_advance),
        _ => {
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            legal.first().copied().unwrap_or(Action::End)
        }
    }
}

fn info_zone(info: &Info, i: usize) -> bool {
    info.loc_zone.get(i).copied().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;
    use engine::Rules;

    /// A First Day game played by the heuristic to the Allied movement phase of the last
    /// game-turn (5).
    fn allied_last_turn(seed: u64) -> Game {
        movement_of(seed, 5, Side(1))
    }

    /// A First Day game played by the heuristic to the movement phase of `side` in game-turn
    /// `turn`.
    fn movement_of(seed: u64, turn: u8, side: Side) -> Game {
        let sc = std::sync::Arc::new(scenarios::load("bon-first-day").unwrap());
        let mut g = Game::from_arc(sc);
        let mut p = [
            crate::HeuristicPlayer::new(seed),
            crate::HeuristicPlayer::new(seed + 1),
        ];
        let mut dice = Dice::new(seed + 2);
        while !(g.turn() == turn && g.phasing() == side && g.step() == Step::Movement) {
            match g.to_act() {
                engine::ToAct::Chance => g.apply_unchecked(Action::Roll(dice.roll())),
                engine::ToAct::Side(s) => {
                    let a = p[s.0 as usize].choose(&g);
                    g.apply(a).unwrap();
                }
                engine::ToAct::Over(_) => break,
            }
        }
        g
    }

    /// `wary_advance`: over First Days played by the heuristic, at every Allied advance after a
    /// French attacker's retreat (7.74) the wary choice differs from the heuristic's own only
    /// where the own one advances into contact with French units that the advanced unit would
    /// then have to attack alone at a loss (7.1, 5.13), and then its obliged attack is worth
    /// more; such advances occur; the French advances are unchanged (they have the line).
    #[test]
    fn wary_advance_keeps_defenders_out_of_forced_attacks() {
        let sc = std::sync::Arc::new(scenarios::load("bon-first-day").unwrap());
        let (mut allied, mut changed, mut french) = (0, 0, 0);
        for seed in 1..=12u64 {
            let mut g = Game::from_arc(sc.clone());
            let mut p = [
                crate::HeuristicPlayer::new(seed),
                crate::HeuristicPlayer::new(seed + 1),
            ];
            let mut dice = Dice::new(seed + 2);
            loop {
                match g.to_act() {
                    engine::ToAct::Chance => g.apply_unchecked(Action::Roll(dice.roll())),
                    engine::ToAct::Side(s) => {
                        if g.step() == Step::Advance && g.phasing() != s {
                            let info = crate::info::info(&g);
                            let plain = choose_advance(&info, &g, &mut None, false);
                            let wary = choose_advance(&info, &g, &mut None, true);
                            if s == Side(0) {
                                french += 1;
                                assert_eq!(plain, wary, "a French advance changed");
                            } else {
                                allied += 1;
                                let b = Board::from_game(&info, &g);
                                let vals = Values::new(&info, &g, s);
                                let forced = |a: Action| match a {
                                    Action::Advance { unit, to } => {
                                        let i = info.idx(to).unwrap();
                                        let mut b2 = b.clone();
                                        b2.place(&info, unit, i);
                                        forced_attack(&info, &b2, &vals, unit, i)
                                    }
                                    _ => 0.0,
                                };
                                if plain != wary {
                                    changed += 1;
                                    assert!(
                                        forced(plain) < 0.0,
                                        "{plain:?} obliged no losing attack"
                                    );
                                    assert!(forced(wary) > forced(plain), "{wary:?} for {plain:?}");
                                }
                            }
                        }
                        let a = p[s.0 as usize].choose(&g);
                        g.apply(a).unwrap();
                    }
                    engine::ToAct::Over(_) => break,
                }
            }
        }
        eprintln!("Allied defenders' advances {allied}, changed {changed}; French {french}");
        assert!(
            changed > 0,
            "no Allied advance into a losing forced attack in these games"
        );
    }

    /// `strike_line`: on the Allies' last player-turn of the First Day the plans set up more
    /// attacks on French units holding hexes whose loss to an attack and an advance (7.74) cuts
    /// 25 SP or more off the French line of communications (17.5) than the heuristic's own.
    #[test]
    fn strike_line_attacks_the_holders_of_the_line() {
        let mut struck = [0usize; 2];
        for seed in 1..=6u64 {
            let g = allied_last_turn(seed);
            if g.turn() != 5 || g.phasing() != Side(1) {
                continue;
            }
            let info = crate::info::info(&g);
            let mut b = Board::from_game(&info, &g);
            let w = Watch::new(&info, &g, &mut b, Side(0), 5).expect("the French have a line");
            let held: Vec<usize> = w
                .held(&info, &b)
                .into_iter()
                .filter(|x| x.1 >= 25)
                .map(|x| x.0)
                .collect();
            for (k, strike_line) in [false, true].into_iter().enumerate() {
                let style = Style {
                    strike_line,
                    ..Style::default()
                };
                let mut rng = Dice::new(seed);
                let p = plan_movement(&info, &g, style, &mut rng, &mut Reach::default());
                struck[k] += p
                    .explanation
                    .attacks
                    .iter()
                    .filter(|a| {
                        a.defenders
                            .iter()
                            .any(|&d| b.at(d).is_some_and(|x| held.contains(&x)))
                    })
                    .count();
            }
        }
        eprintln!(
            "attacks on holders: plain {}, strike_line {}",
            struck[0], struck[1]
        );
        assert!(struck[1] > struck[0], "{struck:?}");
    }

    /// A French movement phase of the last game-turn: the cavalry FR.III (5 SP) holds the line's
    /// end 2131 (17.5) and the Austrian divisions AU.2/III and AU.3/III (9 SP each), out of
    /// contact, can attack it next turn at 3-1; the infantry FR.21 (11 SP) stands near.
    const RELIEF: &str = r#"
format = "grognard-scenario/1"
id = "relief"
title = "A weak holder of the line's end"
system = "naw"
map = "leipzig"
first_turn = 5
last_turn = 5
night_turns = [6]
sides = ["French", "Allied"]
units = [
  { id = "FR.III", nation = "FR", designation = "III", type = "cavalry", strength = 5, movement = 6, hex = "2131" },
  { id = "FR.21", nation = "FR", designation = "21", type = "infantry", strength = 11, movement = 4, hex = "1929" },
  { id = "AU.2/III", nation = "AU", designation = "2/III", type = "infantry", strength = 9, movement = 4, hex = "2328" },
  { id = "AU.3/III", nation = "AU", designation = "3/III", type = "infantry", strength = 9, movement = 4, hex = "2428" },
]

[[nations]]
id = "FR"
name = "French"
side = "French"

[[nations]]
id = "AU"
name = "Austrian"
side = "Allied"

[[demoralization]]
turns = [5, 5]
levels = { French = 60, Allied = 60 }

[line_of_communications]
side = "French"
army = "French"
hex = "2131"
"#;

    /// The position of [`RELIEF`] with FR.21 at `hex`, on game-turn `turn`.
    fn relief_game(hex: &str, turn: u8) -> Game {
        let resolve = |name: &str| {
            scenarios::map_text(name)
                .map(String::from)
                .ok_or_else(|| format!("no map {name}"))
        };
        let text = RELIEF.replace("hex = \"1929\"", &format!("hex = \"{hex}\""));
        let text = text
            .replace("first_turn = 5", &format!("first_turn = {turn}"))
            .replace("turns = [5, 5]", &format!("turns = [{turn}, 5]"));
        Game::new(naw::Scenario::from_toml(&text, "relief.toml", &resolve).unwrap())
    }

    /// The plan of `style` for the movement phase of `g` (dice seeded 1) and the game after its
    /// moves, each legal in its order.
    fn planned(info: &Info, g: &Game, style: Style) -> (MovePlan, Game) {
        let p = plan_movement(info, g, style, &mut Dice::new(1), &mut Reach::default());
        let mut g2 = g.clone();
        for &a in &p.moves {
            g2.apply(a).unwrap_or_else(|e| panic!("{a:?}: {e:?}"));
        }
        (p, g2)
    }

    /// `hold_end` on game-turn 2 of [`RELIEF`] (three game-turns left) with FR.21 far from the
    /// end hex: FR.21 marches toward it (nearer by the map's costs), the weak holder FR.III
    /// stays; the heuristic's own style sends FR.21 elsewhere.
    #[test]
    fn hold_end_marches_a_strong_unit_toward_the_end_hex() {
        let g = relief_game("1725", 2);
        let info = crate::info::info(&g);
        let (_, _, t) = info.loc.expect("a line");
        let id = |name: &str| g.unit_ids().find(|&u| g.id(u) == name).unwrap();
        let cost = end_cost(&info, t);
        let before = cost[info.idx(g.hex_of(id("FR.21")).unwrap()).unwrap()];
        for hold_end in [false, true] {
            let style = Style {
                hold_end,
                ..Style::default()
            };
            let (p, g2) = planned(&info, &g, style);
            assert_eq!(g2.unit_at(info.hex(t)), Some(id("FR.III")));
            let after = cost[info.idx(g2.hex_of(id("FR.21")).unwrap()).unwrap()];
            let marches = p.explanation.plan.contains("FR.21 marches toward 2131");
            assert_eq!(marches, hold_end, "{}", p.explanation.plan);
            if hold_end {
                assert!(after < before, "{before} -> {after}");
            }
        }
    }

    /// `hold_end`: the weak holder of the line's end steps off and the stronger FR.21 takes its
    /// place (the Austrians' 18 SP then attack 11 at 1-1, not 5 at 3-1), by moves legal in
    /// their order; without the option the holder stays.
    #[test]
    fn hold_end_puts_a_stronger_unit_on_the_end_hex() {
        let g = relief_game("1929", 5);
        assert_eq!(
            (g.turn(), g.phasing(), g.step()),
            (5, Side(0), Step::Movement)
        );
        let info = crate::info::info(&g);
        let (_, _, t) = info.loc.expect("a line");
        let id = |name: &str| g.unit_ids().find(|&u| g.id(u) == name).unwrap();
        let mut ends = Vec::new();
        for hold_end in [false, true] {
            let style = Style {
                hold_end,
                ..Style::default()
            };
            let (p, g2) = planned(&info, &g, style);
            ends.push(g2.unit_at(info.hex(t)));
            assert_eq!(
                p.explanation.plan.contains("relieves"),
                hold_end,
                "{}",
                p.explanation.plan
            );
        }
        assert_eq!(ends, vec![Some(id("FR.III")), Some(id("FR.21"))]);
    }

    /// `focus`: the three sectors split the enemy's units on the map among them, a third each
    /// (sizes one apart at most), and each sector's plan brings our units nearer that sector
    /// than the heuristic's own plan does (the strength-weighted steps to the sector, over
    /// French and Allied movement phases of First Days played by the heuristic).
    #[test]
    fn focus_concentrates_on_one_third_of_the_enemy() {
        let (mut closer, mut cases) = (0, 0);
        for (seed, turn, side) in [
            (7, 2, Side(0)),
            (7, 3, Side(1)),
            (8, 3, Side(0)),
            (9, 4, Side(1)),
        ] {
            let g = movement_of(seed, turn, side);
            let info = crate::info::info(&g);
            let b = Board::from_game(&info, &g);
            let en = Side(1 - side.0);
            let on_map: Vec<usize> = (0..info.strength.len())
                .filter(|&u| info.side[u] == en && b.at(UnitId(u as u8)).is_some())
                .collect();
            let mut times = vec![0; info.strength.len()];
            let mut sizes = Vec::new();
            for focus in 1..=3u8 {
                let mult = focus_of(&info, &b, side, en, focus);
                let inside: Vec<usize> =
                    on_map.iter().copied().filter(|&u| mult[u] > 1.0).collect();
                assert!(mult.iter().all(|&m| m == 1.6 || m == 0.6));
                for &u in &inside {
                    times[u] += 1;
                }
                sizes.push(inside.len());
                // where our units stand after a plan, weighted by strength
                let steps = |st: Style| {
                    let mut h = crate::HeuristicPlayer::with_style(1, st);
                    let (moves, _) = h.movement_plan(&g);
                    let mut after = g.clone();
                    for a in moves {
                        after.apply(a).unwrap();
                    }
                    let ba = Board::from_game(&info, &after);
                    let d = focus_front(&info, &b, &mult);
                    (0..info.strength.len())
                        .filter(|&u| info.side[u] == side)
                        .filter_map(|u| {
                            ba.at(UnitId(u as u8))
                                .map(|p| d[p] as u32 * info.strength[u])
                        })
                        .sum::<u32>()
                };
                let own = steps(Style::default());
                let focused = steps(Style {
                    focus,
                    ..Style::default()
                });
                cases += 1;
                closer += usize::from(focused < own);
            }
            assert!(
                on_map.iter().all(|&u| times[u] == 1),
                "each enemy unit in one sector"
            );
            assert!(
                sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
                "{sizes:?}"
            );
            assert!(focus_of(&info, &b, side, en, 0).is_empty());
        }
        assert!(closer * 4 >= cases * 3, "closer in {closer} of {cases}");
    }
}
