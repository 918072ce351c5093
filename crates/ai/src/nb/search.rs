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
    activation_choices, melee_options, melee_sentence, option_worth, side_of, NbHeuristic, Style,
};
use crate::montecarlo::{cores, mix, search, Knowledge, Limits};
use crate::Budget;
use engine::{Rules, Side, ToAct};
use napoleonic_battles::{Action, Game, Loc, Step};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The Napoleonic Battles plug-in of the generic search.
#[derive(Clone, Debug, Default)]
pub struct NbKnowledge;

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

/// The decisions searched, with a sentence for each candidate.
fn candidates_with_why(g: &Game, me: Side) -> Vec<(Vec<Action>, String)> {
    match g.step() {
        Step::Choose => {
            let all = activation_choices(g, me);
            let mut v: Vec<(Vec<Action>, String)> = Vec::new();
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
        return match o.winner {
            Some(w) if w == me => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
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
    stop: Option<Arc<AtomicBool>>,
    last: Option<String>,
    simulations: u64,
}

impl NbSearch {
    /// A search player with a seed and a budget per decision.
    pub fn new(seed: u64, budget: Budget) -> NbSearch {
        NbSearch {
            knowledge: Arc::new(NbKnowledge),
            seed,
            budget,
            decision_no: 0,
            pending: Vec::new(),
            pending_seat: None,
            stop: None,
            last: None,
            simulations: 0,
        }
    }

    /// Its spec (`search@1000n`).
    pub fn name(&self) -> String {
        match self.budget {
            Budget::Sims(n) => format!("search@{n}n"),
            Budget::Time(d) => format!("search@{}ms", d.as_millis()),
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
        let ToAct::Side(me) = g.to_act() else {
            return Action::Pass;
        };
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
        let best = if plans.len() > 1 && !stopped {
            let limits = match self.budget {
                Budget::Sims(n) => Limits::sims(n),
                Budget::Time(d) => Limits {
                    sims: 0,
                    deadline: Some(Instant::now() + d),
                    workers: cores(),
                    stop: None,
                },
            };
            let limits = match &self.stop {
                Some(f) => limits.stop_on(f.clone()),
                None => limits,
            };
            let actions: Vec<Vec<Action>> = plans.iter().map(|p| p.0.clone()).collect();
            let v = search(&self.knowledge, g, me, &actions, seed, limits);
            self.simulations += u64::from(v.simulations);
            v.best
        } else {
            0
        };
        let (mut plan, why) = plans.swap_remove(best);
        self.last = Some(why);
        let a = plan.remove(0);
        self.pending = plan;
        self.pending_seat = Some(me);
        a
    }
}
