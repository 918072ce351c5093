//! The search level of the Napoleonic Battles system: [`crate::montecarlo::search`] over the
//! heuristic's plans, with this system's plug-in [`NbKnowledge`].
//!
//! - Candidates: at the choice of an activation, the heuristic's three best activations and
//!   the pass; at the start of a movement, the whole movement phase as each style plays it
//!   ([`Style`]); at a melee, the three best declarations by the rules' odds and the end of
//!   the melee phase. Elsewhere the heuristic decides alone.
//! - Rollouts: the heuristic (steady) for both sides, the dice drawn from the rules' chance
//!   outcomes, to the side's next choice of an activation after its own has been played, or
//!   the end of the game-turn.
//! - Evaluation: victory points, and each formation's progress toward demoralization (its
//!   SP lost over its limit, worth its victory points), both sides', through a logistic.

use super::heuristic::{
    activation_choices, designation, enemy_hexes, further_officer, march_order, melee_options,
    melee_sentence, option_worth, side_of, written_order, NbHeuristic, Style,
};
use crate::montecarlo::{cores, mix, search_with, Knowledge, Limits, Options};
use crate::Budget;
use engine::{Rules, Side, ToAct};
use napoleonic_battles::{Action, Game, Loc, Step};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The Napoleonic Battles plug-in of the generic search.
#[derive(Clone, Debug, Default)]
pub struct NbKnowledge {
    /// Offer the opponent's replies ([`Knowledge::replies`]): its next choice of an
    /// activation, among its three best.
    pub replies: bool,
}

/// How many replies of the opponent the reply search compares.
const REPLY_WIDTH: usize = 3;

/// The opponent's replies at its choice of an activation: the heuristic's choice (a march
/// order first when it sends one) and its next best activations or the pass, distinct and
/// legal, at most [`REPLY_WIDTH`].
fn reply_plans(g: &Game, opp: Side) -> Vec<Vec<Action>> {
    let mut v: Vec<Vec<Action>> = Vec::new();
    if let Some(m) = march_order(g, opp) {
        v.push(vec![m.action]);
    }
    for c in activation_choices(g, opp) {
        if v.len() >= REPLY_WIDTH {
            break;
        }
        if !v.iter().any(|p| p == &[c.action]) && g.check(c.action).is_ok() {
            v.push(vec![c.action]);
        }
    }
    v
}

/// The plans of a whole movement phase, one per style (identical plans once).
fn movement_plans(g: &Game, me: Side) -> Vec<(Style, Vec<Action>)> {
    let mut out: Vec<(Style, Vec<Action>)> = Vec::new();
    for style in Style::ALL {
        let h = NbHeuristic::new(style);
        let mut s = g.clone();
        let mut plan = Vec::new();
        while s.to_act() == ToAct::Side(me) && s.step() == Step::Movement && plan.len() < 400 {
            let (a, _) = h.decide(&s);
            if s.check(a).is_err() {
                break;
            }
            s.apply_unchecked(a);
            plan.push(a);
        }
        if !plan.is_empty() && !out.iter().any(|(_, p)| *p == plan) {
            out.push((style, plan));
        }
    }
    out
}

/// The designations compared: the heuristic's whole designation (further officers, the
/// second hex, units left out), `go` at once, and when the heuristic adds no officer, the
/// commander's best further officer.
fn designation_plans(g: &Game, me: Side) -> Vec<(Vec<Action>, String)> {
    let mut s = g.clone();
    let mut plan = Vec::new();
    let mut why: Option<String> = None;
    while s.to_act() == ToAct::Side(me) && s.step() == Step::Designate && plan.len() < 40 {
        let (a, w) = designation(&s, me);
        if s.check(a).is_err() {
            break;
        }
        why = why.or(w);
        s.apply_unchecked(a);
        plan.push(a);
        if a == Action::Go {
            break;
        }
    }
    let count = |k: fn(&Action) -> bool| plan.iter().filter(|a| k(a)).count();
    let more = count(|a| matches!(a, Action::Command { .. }));
    let out = count(|a| matches!(a, Action::Exclude { .. }));
    let inc = count(|a| matches!(a, Action::Include { .. }));
    let sentence = why.unwrap_or_else(|| {
        format!(
            "The activation goes with {more} more officer{}, {inc} unit{} of a second hex and \
             {out} unit{} left out.",
            if more == 1 { "" } else { "s" },
            if inc == 1 { "" } else { "s" },
            if out == 1 { "" } else { "s" },
        )
    });
    let mut v = vec![(plan.clone(), sentence)];
    if plan != [Action::Go] {
        v.push((
            vec![Action::Go],
            "The activation goes as designated.".into(),
        ));
    }
    if more == 0 {
        if let Some(act) = g.activation() {
            if let Some(c) = act.commander {
                let enemies = enemy_hexes(g, me);
                if let Some(x) = further_officer(g, me, c, &act.officers, &enemies) {
                    v.push((vec![x.action, Action::Go], x.why));
                }
            }
        }
    }
    v
}

/// The decisions searched, with a sentence for each candidate.
fn candidates_with_why(g: &Game, me: Side) -> Vec<(Vec<Action>, String)> {
    match g.step() {
        Step::Choose => {
            let all = activation_choices(g, me);
            let mut v: Vec<(Vec<Action>, String)> = Vec::new();
            // a march order (it keeps the choice open: the activation is searched next)
            if let Some(m) = march_order(g, me) {
                v.push((vec![m.action], m.why));
                if let Some(first) = all.first() {
                    v.push((vec![first.action], first.why.clone()));
                }
                return v;
            }
            for c in all.iter().filter(|c| c.action != Action::Pass).take(3) {
                v.push((vec![c.action], c.why.clone()));
            }
            // the heuristic's own choice first (it wins ties)
            if let Some(first) = all.first() {
                if first.action == Action::Pass {
                    v.insert(0, (vec![Action::Pass], first.why.clone()));
                } else {
                    v.push((vec![Action::Pass], "Pass.".into()));
                }
            }
            v
        }
        Step::Designate => designation_plans(g, me),
        Step::WriteOrder => {
            let (a, why) = written_order(g, me);
            let mut v = vec![(vec![a], why.unwrap_or_else(|| "No written order.".into()))];
            if a != Action::NoOrder {
                v.push((vec![Action::NoOrder], "No written order.".into()));
            }
            v
        }
        Step::Movement => movement_plans(g, me)
            .into_iter()
            .map(|(style, plan)| {
                let moves = plan
                    .iter()
                    .filter(|a| matches!(a, Action::Move { .. }))
                    .count();
                let faces = plan
                    .iter()
                    .filter(|a| matches!(a, Action::Face { .. }))
                    .count();
                (
                    plan,
                    format!(
                        "Movement in the {} style: {moves} step{} toward the enemy and {faces} \
                         face change{}.",
                        style.name(),
                        if moves == 1 { "" } else { "s" },
                        if faces == 1 { "" } else { "s" },
                    ),
                )
            })
            .collect(),
        Step::Melee => {
            let mut opts = melee_options(g, me);
            opts.sort_by(|a, b| option_worth(g, b.0, b.2).total_cmp(&option_worth(g, a.0, a.2)));
            let h = NbHeuristic::new(Style::Steady);
            let (default, _) = h.decide(g);
            let mut v: Vec<(Vec<Action>, String)> = Vec::new();
            let sentence = |a: Action| {
                opts.iter()
                    .find(|o| o.0 == a)
                    .map(|o| melee_sentence(g, o.0, &o.1, o.2))
                    .unwrap_or_else(|| "No melee worth its losses: end the melee phase.".into())
            };
            v.push((vec![default], sentence(default)));
            for o in opts.iter().take(3) {
                if o.0 != default {
                    v.push((vec![o.0], sentence(o.0)));
                }
            }
            if default != Action::End {
                v.push((vec![Action::End], sentence(Action::End)));
            }
            v
        }
        _ => Vec::new(),
    }
}

/// SP lost by the units of a side that have entered the game.
fn sp_lost(g: &Game, side: Side) -> f64 {
    g.unit_ids()
        .filter(|&u| side_of(g, u) == side && g.loc(u) != Loc::Waiting)
        .map(|u| f64::from(g.scenario().unit(u).strength.saturating_sub(g.sp(u))))
        .sum()
}

/// The value of a position for `me`: victory points, formations' progress toward
/// demoralization (worth their points), and strength lost.
pub(crate) fn value(g: &Game, me: Side) -> f64 {
    if let Some(o) = g.outcome() {
        return crate::montecarlo::outcome_value(o, me);
    }
    let sup = g.supplement();
    let sc = g.scenario();
    let p = g.points();
    let mine = usize::from(me.0.min(1));
    let mut d = f64::from(p[mine]) - f64::from(p[1 - mine]);
    for f in sup.formations_in(sc) {
        let def = &sup.formations[f];
        if def.loss_limit == 0 || g.formation_demoralized(f) {
            continue; // its points are already counted
        }
        let frac = (f64::from(g.formation_lost(f)) / f64::from(def.loss_limit)).min(1.0);
        let worth = frac * frac * f64::from(def.victory_points.max(1));
        match sup.army_side(sc, def.army) {
            Some(s) if s == me => d -= worth,
            Some(_) => d += worth,
            None => {}
        }
    }
    d += 0.1 * (sp_lost(g, Side(1 - me.0.min(1))) - sp_lost(g, me));
    1.0 / (1.0 + (-d / 8.0).exp())
}

/// Units of `me` that have acted this turn.
fn acted(g: &Game, me: Side) -> usize {
    g.unit_ids()
        .filter(|&u| side_of(g, u) == me && g.unit(u).acted)
        .count()
}

impl Knowledge<Game> for NbKnowledge {
    type Policy = NbHeuristic;

    fn candidates(&self, g: &Game, me: Side, _seed: u64) -> Vec<Vec<Action>> {
        let v: Vec<Vec<Action>> = candidates_with_why(g, me)
            .into_iter()
            .map(|x| x.0)
            .collect();
        if v.is_empty() {
            vec![vec![NbHeuristic::new(Style::Steady).decide(g).0]]
        } else {
            v
        }
    }

    fn policy(&self, _seat: Side, _seed: u64) -> NbHeuristic {
        NbHeuristic::new(Style::Steady)
    }

    fn evaluate(&self, g: &Game, me: Side) -> f64 {
        value(g, me)
    }

    fn horizon_reached(&self, start: &Game, now: &Game, me: Side) -> bool {
        now.turn() != start.turn()
            || (now.step() == Step::Choose
                && now.to_act() == ToAct::Side(me)
                && acted(now, me) > acted(start, me))
    }

    fn stratify(&self, g: &Game) -> bool {
        g.step() == Step::Melee
    }

    fn replies(&self, _start: &Game, now: &Game, me: Side, _seed: u64) -> Option<Vec<Vec<Action>>> {
        if !self.replies || now.step() != Step::Choose {
            return None;
        }
        match now.to_act() {
            ToAct::Side(s) if s != me => Some(reply_plans(now, s)),
            _ => None,
        }
    }
}

/// The search player: searches the activation, the movement and each melee; the heuristic
/// plays the rest.
pub struct NbSearch {
    knowledge: Arc<NbKnowledge>,
    seed: u64,
    budget: Budget,
    decision_no: u64,
    pending: Vec<Action>,
    pending_seat: Option<Side>,
    /// Search the opponent's replies (`search2`).
    replies: bool,
    /// Every player-turn's simulations, the current one last.
    turn_sims: Vec<u32>,
    stop: Option<Arc<AtomicBool>>,
    last: Option<String>,
    simulations: u64,
    /// Thinking time spent in the current player-turn (this side's impulse).
    spent: Duration,
    /// Simulations spent in the current player-turn.
    spent_sims: u32,
    /// The last action returned keeps the player-turn open (a march order: the activation
    /// is chosen next).
    continuing: bool,
    /// The estimated seconds of one rollout on one worker.
    rollout_secs: f64,
    /// Every player-turn's thinking time, the current one last (for the docs'
    /// measures).
    turns: Vec<Duration>,
}

/// The share of what is left of the player-turn's budget that a decision at `step` may
/// spend: the activation 30%, its designation 15%, a written order 10%, the movement phase
/// 45% of what remains, each melee decision half of what remains.
fn share(step: Step) -> f64 {
    match step {
        Step::Choose => 0.3,
        Step::Designate => 0.15,
        Step::WriteOrder => 0.1,
        Step::Movement => 0.45,
        _ => 0.5,
    }
}

impl NbSearch {
    /// A search player with a seed and a budget per decision.
    pub fn new(seed: u64, budget: Budget) -> NbSearch {
        NbSearch {
            knowledge: Arc::new(NbKnowledge::default()),
            replies: false,
            turn_sims: Vec::new(),
            seed,
            budget,
            decision_no: 0,
            pending: Vec::new(),
            pending_seat: None,
            stop: None,
            last: None,
            simulations: 0,
            spent: Duration::ZERO,
            spent_sims: 0,
            continuing: false,
            rollout_secs: 0.002,
            turns: Vec::new(),
        }
    }

    /// The same player searching the opponent's replies (the level `search2`): at its
    /// activation, movement and designation decisions each candidate is played on to the
    /// opponent's next choice of an activation, then once for each of its three best replies
    /// with the same dice, and is worth its worst reply ([`crate::montecarlo::Options::replies`]).
    pub fn with_replies(mut self) -> NbSearch {
        self.replies = true;
        self.knowledge = Arc::new(NbKnowledge { replies: true });
        self
    }

    /// The simulations of every player-turn played so far, the current one last.
    pub fn turn_simulations(&self) -> &[u32] {
        &self.turn_sims
    }

    /// The thinking time of every player-turn (impulse) played so far, the current one last.
    pub fn turn_times(&self) -> &[Duration] {
        &self.turns
    }

    /// Its spec (`search@1000n`).
    pub fn name(&self) -> String {
        let level = if self.replies { "search2" } else { "search" };
        match self.budget {
            Budget::Sims(n) => format!("{level}@{n}n"),
            Budget::Time(d) => format!("{level}@{}ms", d.as_millis()),
        }
    }

    /// The sentence of the last plan chosen.
    pub fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    /// Rollouts played so far.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// Stops searching as soon as `flag` is set.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// One action for the seat to act.
    pub fn choose(&mut self, g: &Game) -> Action {
        let start = Instant::now();
        let a = self.decide(g);
        if let Some(t) = self.turns.last_mut() {
            *t += start.elapsed();
        }
        self.spent += start.elapsed();
        a
    }

    /// [`NbSearch::choose`] without the clock's bookkeeping. A player-turn is this side's
    /// impulse: it begins at the choice of an activation (unless a march order was just sent)
    /// and its budget is shared by its decisions ([`share`]).
    fn decide(&mut self, g: &Game) -> Action {
        let ToAct::Side(me) = g.to_act() else {
            return Action::Pass;
        };
        if g.step() == Step::Choose && !self.continuing {
            self.spent = Duration::ZERO;
            self.spent_sims = 0;
            self.turns.push(Duration::ZERO);
            self.turn_sims.push(0);
        }
        let a = self.decide_in_turn(g, me);
        self.continuing = matches!(a, Action::March { .. });
        a
    }

    fn decide_in_turn(&mut self, g: &Game, me: Side) -> Action {
        self.last = None;
        if self.pending_seat == Some(me) && !self.pending.is_empty() {
            let a = self.pending.remove(0);
            if g.check(a).is_ok() {
                return a;
            }
        }
        self.pending.clear();
        let mut plans = candidates_with_why(g, me);
        plans.retain(|p| p.0.first().is_some_and(|&a| g.check(a).is_ok()));
        if plans.is_empty() {
            let mut h = NbHeuristic::new(Style::Steady);
            let a = h.choose(g);
            self.last = h.explain();
            return a;
        }
        self.decision_no += 1;
        let seed = mix(self.seed, self.decision_no);
        let stopped = crate::montecarlo::is_set(self.stop.as_deref());
        let k = plans.len() as u32;
        let share = share(g.step());
        // the decision's part of what is left of the player-turn; too little for two rounds
        // of rollouts: the heuristic's choice
        let limits = match self.budget {
            Budget::Sims(n) => {
                let sims = (f64::from(n.saturating_sub(self.spent_sims)) * share) as u32;
                (sims >= 2 * k).then(|| Limits::sims(sims))
            }
            Budget::Time(t) => {
                // 5% of the player-turn kept in hand for planning the candidates
                let avail = t.mul_f64(0.95).saturating_sub(self.spent).mul_f64(share);
                let planned = avail.as_secs_f64() * cores() as f64 / self.rollout_secs;
                (planned >= 2.0 * f64::from(k)).then(|| Limits {
                    sims: 0,
                    deadline: Some(Instant::now() + avail),
                    workers: cores(),
                    stop: None,
                })
            }
        };
        let best = match limits.filter(|_| plans.len() > 1 && !stopped) {
            None => 0,
            Some(limits) => {
                let started = Instant::now();
                let limits = match &self.stop {
                    Some(f) => limits.stop_on(f.clone()),
                    None => limits,
                };
                let actions: Vec<Vec<Action>> = plans.iter().map(|p| p.0.clone()).collect();
                // the replies are searched where the opponent's answer matters: the
                // activation, its designation and its movement (a melee's dice decide more)
                let opts = Options {
                    replies: if self.replies
                        && matches!(g.step(), Step::Choose | Step::Designate | Step::Movement)
                    {
                        REPLY_WIDTH
                    } else {
                        0
                    },
                    ..Options::default()
                };
                let v = search_with(&self.knowledge, g, me, &actions, seed, limits, &opts);
                if let Some(t) = self.turn_sims.last_mut() {
                    *t += v.simulations;
                }
                self.simulations += u64::from(v.simulations);
                self.spent_sims += v.simulations;
                if v.simulations > 0 && !v.stopped {
                    let per =
                        started.elapsed().as_secs_f64() * cores() as f64 / f64::from(v.simulations);
                    self.rollout_secs = 0.7 * self.rollout_secs + 0.3 * per;
                }
                v.best
            }
        };
        let (mut plan, why) = plans.swap_remove(best);
        self.last = Some(why);
        let a = plan.remove(0);
        self.pending = plan;
        self.pending_seat = Some(me);
        a
    }
}
