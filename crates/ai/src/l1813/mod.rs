//! Leipzig 1813's computer players: the generic Monte Carlo search ([`crate::montecarlo`]) with
//! a first plug-in of this system's knowledge ([`L1813Knowledge`]).
//!
//! What it knows, all read from the rules' public queries (`leipzig_1813::Game`): the victory
//! points as the schedule counts them now (cities held or besieged, enemy divisions and leaders
//! destroyed in combat and by forced march), and a little of the material behind them (the
//! divisions each side still has on the map). Its candidates are single legal actions: the
//! heuristic's ([`heuristic`]: objectives, supply for stacks and combat, forced marches at a
//! small expected loss, attacks at good odds) best [`L1813Knowledge::CANDIDATES`], `end`
//! among them where it is legal; its rollouts play the heuristic (seeded tie-breaks) to the
//! end of the next player-turn.

//!
//! **Hidden information.** Every player here chooses from its seat's view: where its side may
//! not examine every unit (Reconnaissance, the spring scenarios' hidden Allied counters), it
//! chooses on a determinization ([`Game::as_seen_by`]: the hidden identities permuted among
//! the hidden counters, seeded from the player's seed and the public step only), never on the
//! real game ([`on_seen`]). A choice the real game refuses (its legality hung on a hidden
//! identity) is dropped and chosen again on another determinization, then `end`, then the
//! first legal action.

pub mod heuristic;
pub mod plans;

pub use heuristic::L1813Heuristic;
pub use plans::L1813Plans;

use crate::montecarlo::{search, Knowledge, Limits, Rollout};
use engine::{Dice, Rules, Side, ToAct};
use leipzig_1813::game::{Status, Step};
use leipzig_1813::units::Arm;
use leipzig_1813::{Action, Game};
use std::sync::Arc;

/// Determinizations a player tries before it falls back on `end` ([`on_seen`]).
pub const DETERMINIZATIONS: u64 = 3;

/// The seed of a determinization: the player's seed mixed with what is public of the moment
/// (the game-turn, the player-turn's side, the step) and the attempt, never with the state's
/// hash (which would read the hidden identities).
pub fn seen_seed(g: &Game, seed: u64, attempt: u64) -> u64 {
    let (turn, player, step) = heuristic::step_key(g);
    let mut x = seed
        ^ u64::from(turn).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (u64::from(player) << 40)
        ^ (step as u64) << 48
        ^ attempt.wrapping_mul(0xD1B5_4A32_D192_ED03);
    // splitmix64's finalizer
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Chooses for the seat to act in `g` from what that seat may know: where it may examine
/// every unit, `choose(g)` itself; otherwise `choose` on a determinization
/// ([`Game::as_seen_by`], seeded by [`seen_seed`]), its choice kept when the real game accepts
/// it, else on the next determinization, up to [`DETERMINIZATIONS`]; then `end` where it is
/// legal, else the real game's first legal action (what a person at the board may always do:
/// nothing here reads a hidden identity but through the rules' own refusal).
pub fn on_seen(g: &Game, seed: u64, mut choose: impl FnMut(&Game) -> Action) -> Action {
    let ToAct::Side(me) = g.to_act() else {
        return Action::End;
    };
    if g.sees_all(me.0) {
        return choose(g);
    }
    for attempt in 0..DETERMINIZATIONS {
        let view = g.as_seen_by(me.0, seen_seed(g, seed, attempt));
        let a = choose(&view);
        if g.check(a).is_ok() {
            return a;
        }
    }
    if g.check(Action::End).is_ok() {
        return Action::End;
    }
    legal(g).first().copied().unwrap_or(Action::End)
}

/// The plug-in of the generic search for Leipzig 1813.
#[derive(Clone, Copy, Debug, Default)]
pub struct L1813Knowledge;

impl L1813Knowledge {
    /// The most candidates a decision weighs.
    pub const CANDIDATES: usize = 8;
    /// Victory points that make a position certain for the evaluation's scale.
    pub const SCALE: f64 = 40.0;
}

/// Divisions a side has on the map (what its combat units stand for).
fn divisions(g: &Game, side: u8) -> u32 {
    g.units()
        .iter()
        .filter(|u| u.side == side && u.status == Status::OnMap)
        .filter(|u| matches!(g.arm(u), Arm::Infantry | Arm::Cavalry))
        .map(|u| g.kind(u).worth)
        .sum()
}

/// The legal actions of the seat to act (none at a chance event or the end).
fn legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    if matches!(g.to_act(), ToAct::Side(_)) {
        g.legal_actions(&mut v);
    }
    v
}

/// A uniformly random legal action, seeded.
pub struct RandomPolicy(Dice);

impl RandomPolicy {
    /// A random policy drawing from `seed`.
    pub fn new(seed: u64) -> RandomPolicy {
        RandomPolicy(Dice::new(seed))
    }
}

impl Rollout<Game> for RandomPolicy {
    fn act(&mut self, g: &Game) -> Action {
        let v = legal(g);
        let i = self.0.draw(&vec![1; v.len()]).unwrap_or(0);
        v.get(i).copied().unwrap_or(Action::End)
    }
}

impl Rollout<Game> for L1813Heuristic {
    /// In a rollout the game is already a world the searching side believes in: no further
    /// determinization.
    fn act(&mut self, g: &Game) -> Action {
        self.choose_in(g)
    }
}

impl Knowledge<Game> for L1813Knowledge {
    type Policy = L1813Heuristic;

    /// The heuristic's own choice first, then its next best, `end` among them where legal.
    fn candidates(&self, g: &Game, _me: Side, seed: u64) -> Vec<Vec<Action>> {
        let scored = heuristic::scored(g);
        let mut out: Vec<Vec<Action>> = Vec::new();
        if scored.is_empty() {
            return out;
        }
        out.push(vec![heuristic::pick(&scored, &mut Dice::new(seed))]);
        if scored.iter().any(|&(_, a)| a == Action::End) && out[0][0] != Action::End {
            out.push(vec![Action::End]);
        }
        for &(_, a) in &scored {
            if out.len() >= Self::CANDIDATES {
                break;
            }
            if !out.iter().any(|p| p[0] == a) {
                out.push(vec![a]);
            }
        }
        out
    }

    fn policy(&self, _seat: Side, seed: u64) -> L1813Heuristic {
        L1813Heuristic::new(seed).quiet()
    }

    /// The victory point difference for `me`, with each division on the map worth half a
    /// point, on a scale of [`L1813Knowledge::SCALE`]; a finished game is its result.
    fn evaluate(&self, g: &Game, me: Side) -> f64 {
        if let Some(v) = crate::montecarlo::final_value(g, me) {
            return v;
        }
        let vp = g.victory_points();
        let (m, o) = (usize::from(me.0 % 2), usize::from(1 - me.0 % 2));
        let diff = f64::from(vp[m]) - f64::from(vp[o])
            + 0.5 * (f64::from(divisions(g, m as u8)) - f64::from(divisions(g, o as u8)));
        (0.5 + diff / (2.0 * Self::SCALE)).clamp(0.0, 1.0)
    }

    /// A rollout stops once the next player-turn's movement phase begins.
    fn horizon_reached(&self, start: &Game, now: &Game, _me: Side) -> bool {
        now.turn() != start.turn()
            || (now.player() != start.player() && now.step() == Step::Movement)
    }

    fn max_rollout(&self) -> usize {
        1_500
    }
}

/// A computer player of Leipzig 1813: the generic search over [`L1813Knowledge`] with a
/// simulation budget.
pub struct L1813Search {
    knowledge: Arc<L1813Knowledge>,
    sims: u32,
    seed: u64,
    decisions: u64,
    key: Option<heuristic::StepKey>,
    last: Option<String>,
}

impl L1813Search {
    /// A search player spending `sims` rollouts a decision.
    pub fn new(sims: u32, seed: u64) -> L1813Search {
        L1813Search {
            knowledge: Arc::new(L1813Knowledge),
            sims: sims.max(1),
            seed,
            decisions: 0,
            key: None,
            last: None,
        }
    }

    /// At the first decision of a step: the steady heuristic's plan for it in a sentence
    /// (the search weighs single actions around that plan).
    pub fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    /// The player of a spec: `search` (200 rollouts a decision) or `search@Nn`.
    pub fn from_spec(spec: &str, seed: u64) -> Result<L1813Search, String> {
        match spec.trim() {
            "search" => Ok(L1813Search::new(200, seed)),
            s => crate::montecarlo::rollouts_of(s, "search")
                .map(|n| L1813Search::new(n, seed))
                .ok_or_else(|| format!("no computer player '{s}' (search, search@500n)")),
        }
    }

    /// Its name for reports.
    pub fn name(&self) -> String {
        format!("search@{}n", self.sims)
    }

    /// Chooses an action of the seat to act in `g`, from what that seat may know
    /// ([`on_seen`]).
    pub fn choose(&mut self, g: &Game) -> Action {
        let seed = self.seed;
        on_seen(g, seed, |view| self.choose_in(view))
    }

    /// Chooses an action of the seat to act in `g` reading all of `g`.
    fn choose_in(&mut self, g: &Game) -> Action {
        let ToAct::Side(me) = g.to_act() else {
            return Action::End;
        };
        self.last = None;
        let key = heuristic::step_key(g);
        if self.key != Some(key) {
            self.key = Some(key);
            let style = heuristic::Style::STEADY;
            let plan = heuristic::step_plan(g, style, &mut Dice::new(self.seed));
            self.last = Some(heuristic::describe(g, style, &plan));
        }
        self.decisions += 1;
        let seed = self.seed ^ self.decisions.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let plans = self.knowledge.candidates(g, me, seed);
        match plans.len() {
            0 => Action::End,
            1 => plans[0][0],
            _ => {
                let v = search(
                    &self.knowledge,
                    g,
                    me,
                    &plans,
                    seed,
                    Limits::sims(self.sims),
                );
                plans[v.best][0]
            }
        }
    }
}

/// Any computer player of Leipzig 1813 by its spec.
pub enum L1813Player {
    /// `heuristic`.
    Heuristic(L1813Heuristic),
    /// `search`, `search@Nn`: the generic search over single actions (slow).
    Search(L1813Search),
    /// `plans`, `plans@Nn`: the fast search over whole steps in styles.
    Plans(L1813Plans),
}

impl L1813Player {
    /// The player of a spec: `heuristic`, `heuristic-<style>` (`heuristic-bold`: one
    /// [`heuristic::Style`] throughout, for studies), `plans`, `plans@Nn`, `search`,
    /// `search@Nn`.
    pub fn from_spec(spec: &str, seed: u64) -> Result<L1813Player, String> {
        let s = spec.trim();
        if s == "heuristic" {
            Ok(L1813Player::Heuristic(L1813Heuristic::new(seed)))
        } else if let Some(name) = s.strip_prefix("heuristic-") {
            heuristic::Style::ALL
                .into_iter()
                .find(|st| st.name == name)
                .map(|st| L1813Player::Heuristic(L1813Heuristic::styled(st, seed)))
                .ok_or_else(|| {
                    format!("no style '{name}' (heuristic-steady, -bold, -cautious, -hunting)")
                })
        } else if s.starts_with("plans") {
            L1813Plans::from_spec(s, seed).map(L1813Player::Plans)
        } else {
            L1813Search::from_spec(s, seed).map(L1813Player::Search)
        }
    }

    /// Chooses an action of the seat to act in `g`.
    pub fn choose(&mut self, g: &Game) -> Action {
        match self {
            L1813Player::Heuristic(p) => p.choose(g),
            L1813Player::Search(p) => p.choose(g),
            L1813Player::Plans(p) => p.choose(g),
        }
    }

    /// Its name for reports.
    pub fn name(&self) -> String {
        match self {
            L1813Player::Heuristic(p) => p.name(),
            L1813Player::Search(p) => p.name(),
            L1813Player::Plans(p) => p.name(),
        }
    }

    /// The sentence of the plan the last choice began, if it began one.
    pub fn explain(&self) -> Option<String> {
        match self {
            L1813Player::Heuristic(p) => p.explain(),
            L1813Player::Search(p) => p.explain(),
            L1813Player::Plans(p) => p.explain(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leipzig_1813::data::Tables;
    use leipzig_1813::scenario::Scenario;

    #[test]
    fn the_search_chooses_legal_actions_and_the_evaluation_is_even_at_the_start() {
        let sc = Scenario::leipzig(5).expect("scenario 5");
        let mut g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        let k = L1813Knowledge;
        let e = k.evaluate(&g, Side(0));
        assert!((0.0..=1.0).contains(&e));
        assert!(
            (k.evaluate(&g, Side(1)) + e - 1.0).abs() < 1e-9,
            "the same position seen from both sides"
        );
        let mut p = L1813Search::new(2, 3);
        let mut dice = Dice::new(9);
        for _ in 0..4 {
            match g.to_act() {
                ToAct::Side(_) => {
                    let a = p.choose(&g);
                    g.check(a).expect("a legal action");
                    g.apply_unchecked(a);
                }
                ToAct::Chance => {
                    let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                    g.apply_unchecked(a);
                }
                ToAct::Over(_) => break,
            }
        }
        assert!(L1813Search::from_spec("search@50n", 1).is_ok());
        assert!(L1813Search::from_spec("expert", 1).is_err());
    }
}
