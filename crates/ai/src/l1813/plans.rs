//! Leipzig 1813's fast search, `plans`: the generic search ([`crate::montecarlo::search`])
//! over whole steps played in each [`Style`], as the Battle of Nations' search compares whole
//! phases.
//!
//! - Candidates: at the first decision of its own movement phase and of its attack step, the
//!   step as each style's heuristic plays it (to the step's end or its first chance event, a
//!   forced march's die), identical plans once, the steady style first. Every other decision
//!   (set-up, the defender's retreats and supply, a march's letter, an advance) and the rest of
//!   a step after a chance event is the chosen style's heuristic.
//! - Rollouts: the steady heuristic for both sides, the dice drawn from the rules' chance
//!   events, to the end of the player-turn (the opponent's first decision of the next).
//! - Evaluation ([`PlanKnowledge::evaluate`]): the victory point difference, half a point a
//!   division on the map, a third of a point a supply unit, a quarter of a point a division
//!   standing next to the enemy with no supply, and a fiftieth of a point a hex of distance
//!   from each combat unit to the nearest victory city its side does not hold (both sides'),
//!   on a scale of [`PlanKnowledge::SCALE`] points.

use super::heuristic::{
    could_supply, describe, pick, scored_with, step_key, step_plan, StepKey, Style,
};
use super::L1813Heuristic;
use crate::montecarlo::{search, Knowledge, Limits};
use engine::{Dice, Rules, Side, ToAct};
use leipzig_1813::game::Step;
use leipzig_1813::units::Arm;
use leipzig_1813::{Action, Game};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The plug-in of the generic search for whole-step plans.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlanKnowledge;

impl PlanKnowledge {
    /// Victory points that make a position certain for the evaluation's scale.
    pub const SCALE: f64 = 40.0;
}

/// The step as each style plays it from `g` (tie-breaks from `seed`), identical plans once,
/// the steady style first.
pub fn style_plans(g: &Game, seed: u64) -> Vec<(Style, Vec<Action>)> {
    let mut out: Vec<(Style, Vec<Action>)> = Vec::new();
    for style in Style::ALL {
        let plan = step_plan(g, style, &mut Dice::new(seed));
        if !plan.is_empty() && !out.iter().any(|(_, p)| *p == plan) {
            out.push((style, plan));
        }
    }
    out
}

/// One side's material and position in points of the evaluation (see the module's text).
fn standing(g: &Game, side: u8) -> f64 {
    let b = g.board();
    let holders = g.city_holders();
    let targets: Vec<_> = b
        .cities
        .iter()
        .zip(holders)
        .filter_map(|(h, o)| h.filter(|_| o != Some(side)))
        .collect();
    let enemies: Vec<_> = g
        .units()
        .iter()
        .filter(|u| u.on_map() && u.side != side && g.arm(u).is_combat())
        .map(|u| u.hex)
        .collect();
    let mut v = 0.0;
    for u in g.units().iter().filter(|u| u.on_map() && u.side == side) {
        match g.arm(u) {
            Arm::Infantry | Arm::Cavalry => {
                let w = f64::from(g.kind(u).worth);
                v += 0.5 * w;
                if enemies.iter().any(|&e| b.distance(e, u.hex) <= 1)
                    && !could_supply(g, side, u.hex)
                {
                    v -= 0.25 * w;
                }
                let d = targets
                    .iter()
                    .map(|&c| b.distance(c, u.hex))
                    .min()
                    .unwrap_or(0)
                    .min(12);
                v -= 0.02 * f64::from(d);
            }
            Arm::Supply => v += 0.33,
            _ => {}
        }
    }
    v
}

impl Knowledge<Game> for PlanKnowledge {
    type Policy = L1813Heuristic;

    fn candidates(&self, g: &Game, _me: Side, seed: u64) -> Vec<Vec<Action>> {
        style_plans(g, seed).into_iter().map(|(_, p)| p).collect()
    }

    fn policy(&self, _seat: Side, seed: u64) -> L1813Heuristic {
        L1813Heuristic::new(seed).quiet()
    }

    /// The victory point difference with the material and position of the module's text, on
    /// a scale of [`PlanKnowledge::SCALE`]; a finished game is its result.
    fn evaluate(&self, g: &Game, me: Side) -> f64 {
        if let Some(v) = crate::montecarlo::final_value(g, me) {
            return v;
        }
        let vp = g.victory_points();
        let (m, o) = (me.0 % 2, 1 - me.0 % 2);
        let diff = f64::from(vp[usize::from(m)]) - f64::from(vp[usize::from(o)]) + standing(g, m)
            - standing(g, o);
        (0.5 + diff / (2.0 * Self::SCALE)).clamp(0.0, 1.0)
    }

    /// A rollout stops at the end of the player-turn it began in.
    fn horizon_reached(&self, start: &Game, now: &Game, _me: Side) -> bool {
        now.turn() != start.turn() || now.player() != start.player()
    }

    fn max_rollout(&self) -> usize {
        3_000
    }
}

/// The fast search player: whole steps in each style compared by short rollouts.
pub struct L1813Plans {
    knowledge: Arc<PlanKnowledge>,
    /// Rollouts per candidate plan.
    sims: u32,
    seed: u64,
    dice: Dice,
    decisions: u64,
    key: Option<StepKey>,
    style: Style,
    queue: VecDeque<Action>,
    last: Option<String>,
    /// Time spent in each of its player-turns: (game-turn, time).
    turn_times: Vec<(u32, Duration)>,
}

impl L1813Plans {
    /// The rollouts per plan of the default level.
    pub const DEFAULT_SIMS: u32 = 8;

    /// A plans player spending `sims` rollouts on each candidate plan.
    pub fn new(sims: u32, seed: u64) -> L1813Plans {
        L1813Plans {
            knowledge: Arc::new(PlanKnowledge),
            sims: sims.max(1),
            seed,
            dice: Dice::new(seed),
            decisions: 0,
            key: None,
            style: Style::STEADY,
            queue: VecDeque::new(),
            last: None,
            turn_times: Vec::new(),
        }
    }

    /// The player of a spec: `plans` ([`L1813Plans::DEFAULT_SIMS`] rollouts a plan) or
    /// `plans@Nn`.
    pub fn from_spec(spec: &str, seed: u64) -> Result<L1813Plans, String> {
        match spec.trim() {
            "plans" => Ok(L1813Plans::new(Self::DEFAULT_SIMS, seed)),
            s => crate::montecarlo::rollouts_of(s, "plans")
                .map(|n| L1813Plans::new(n, seed))
                .ok_or_else(|| format!("no computer player '{s}' (plans, plans@8n)")),
        }
    }

    /// Its name for reports.
    pub fn name(&self) -> String {
        if self.sims == Self::DEFAULT_SIMS {
            "plans".into()
        } else {
            format!("plans@{}n", self.sims)
        }
    }

    /// The sentence of the plan its last choice began (`None` while carrying one out).
    pub fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    /// The style of the plan it plays now.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The time each of its player-turns took (game-turn, time), in order.
    pub fn turn_times(&self) -> &[(u32, Duration)] {
        &self.turn_times
    }

    fn add_time(&mut self, g: &Game, t: Duration) {
        match self.turn_times.last_mut() {
            Some((turn, d)) if *turn == g.turn() => *d += t,
            _ => self.turn_times.push((g.turn(), t)),
        }
    }

    /// Chooses an action of the seat to act in `g`, from what that seat may know (a
    /// determinization where it may not examine every unit: [`super::on_seen`]). Its plan is
    /// made on the determinization; each of its actions is checked against the real game.
    pub fn choose(&mut self, g: &Game) -> Action {
        let t0 = Instant::now();
        let seed = self.seed;
        let a = super::on_seen(g, seed, |view| self.decide(view, g));
        if matches!(g.to_act(), ToAct::Side(Side(s)) if s == g.player()) {
            self.add_time(g, t0.elapsed());
        }
        a
    }

    /// Decides on `g`, what the seat may know (the real game or a determinization of it);
    /// the actions of a plan already made are checked against `real`.
    fn decide(&mut self, g: &Game, real: &Game) -> Action {
        self.last = None;
        let ToAct::Side(me) = g.to_act() else {
            return Action::End;
        };
        let key = step_key(g);
        if self.key != Some(key) {
            self.key = Some(key);
            self.decisions += 1;
            let seed = self.seed ^ self.decisions.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let own = g.player() == me.0 && matches!(g.step(), Step::Movement | Step::Attack);
            let plans = if own {
                style_plans(g, seed)
            } else {
                vec![(
                    Style::STEADY,
                    step_plan(g, Style::STEADY, &mut self.dice.clone()),
                )]
            };
            let best = if plans.len() >= 2 {
                let cands: Vec<Vec<Action>> = plans.iter().map(|(_, p)| p.clone()).collect();
                let n = self.sims * cands.len() as u32;
                search(&self.knowledge, g, me, &cands, seed, Limits::sims(n)).best
            } else {
                0
            };
            match plans.get(best) {
                Some((style, plan)) => {
                    self.style = *style;
                    self.last = Some(describe(g, *style, plan));
                    self.queue = if own {
                        plan.iter().copied().collect()
                    } else {
                        VecDeque::new()
                    };
                }
                None => {
                    self.style = Style::STEADY;
                    self.queue.clear();
                }
            }
        }
        while let Some(a) = self.queue.pop_front() {
            if real.check(a).is_ok() && g.check(a).is_ok() {
                return a;
            }
            self.queue.clear();
        }
        pick(&scored_with(g, self.style), &mut self.dice)
    }
}
