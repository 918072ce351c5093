//! The search player: Monte Carlo search over the plans the heuristic proposes.
//!
//! At each decision of its player-turn (the movement phase as a whole, the declarations as a
//! whole, each resolution, advance, retreat and loss choice) it gathers candidates: for the
//! two planned phases, whole-phase plans from the heuristic in several styles; for the others,
//! the legal actions. Each candidate is played out by rollouts: the heuristic plays both sides,
//! every die is a chance event drawn from `Rules::chance_outcomes` (the first die after the
//! candidate is stratified over its faces), to the start of the player's next player-turn,
//! where the position is evaluated (`eval.rs`). Candidates are compared on common dice and
//! whittled down by sequential halving. Rollouts run on every core (root parallelism: each
//! worker plays its own share and the statistics are summed), within a thinking-time budget
//! per player-turn or, for reproducible games, a simulation count. A stop flag
//! ([`Player::stop_on`]) ends a search at once, for a game that was abandoned.
//!
//! The machinery is the generic [`crate::montecarlo`]; this module is Napoleon at War's
//! plug-in to it (`NawKnowledge`) and the player around it (budget shares, plans played
//! through the heuristic, explanations).

use crate::eval::evaluate;
use crate::features::evaluate_learned;
use crate::heuristic::{step_note, HeuristicPlayer};
use crate::info::{info, Info};
use crate::learn::Weights;
use crate::montecarlo::{self, cores, is_set, mix, Knowledge, Limits, Options, Rollout};
use crate::plan::{Explanation, Style};
use crate::Player;
use engine::{Rules, Side, ToAct};
use naw::{Action, Game, Step};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the search player may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Thinking time per player-turn (wall clock; every core).
    Time(Duration),
    /// Simulations (rollouts) per player-turn: the same seed gives the same game.
    Sims(u32),
}

impl Default for Budget {
    /// The default level: 1.5 s per player-turn.
    fn default() -> Budget {
        Budget::Time(Duration::from_millis(1500))
    }
}

impl Budget {
    /// Parses `2s`, `1.5s`, `500ms` or `5000n`.
    pub fn parse(s: &str) -> Result<Budget, String> {
        let s = s.trim();
        let bad = || format!("'{s}' is not a budget (2s, 500ms, 5000n)");
        if let Some(n) = s.strip_suffix('n') {
            let n: u32 = n.parse().map_err(|_| bad())?;
            if n == 0 {
                return Err(bad());
            }
            return Ok(Budget::Sims(n));
        }
        if let Some(ms) = s.strip_suffix("ms") {
            let ms: f64 = ms.parse().map_err(|_| bad())?;
            if !(ms > 0.0 && ms < 3.6e6) {
                return Err(bad());
            }
            return Ok(Budget::Time(Duration::from_secs_f64(ms / 1000.0)));
        }
        if let Some(sec) = s.strip_suffix('s') {
            let sec: f64 = sec.parse().map_err(|_| bad())?;
            if !(sec > 0.0 && sec < 3600.0) {
                return Err(bad());
            }
            return Ok(Budget::Time(Duration::from_secs_f64(sec)));
        }
        Err(bad())
    }

    fn text(&self) -> String {
        match self {
            Budget::Time(d) => format!("{}ms", d.as_millis()),
            Budget::Sims(n) => format!("{n}n"),
        }
    }
}

/// What the search did, summed over the game so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Rollouts played.
    pub simulations: u64,
    /// Decisions searched (more than one candidate).
    pub decisions: u64,
    /// Thinking time.
    pub time: Duration,
    /// Player-turns played.
    pub player_turns: u64,
    /// The longest thinking time of one player-turn.
    pub max_turn_time: Duration,
    /// Each player-turn's thinking time, in the order played (for the median a player-turn
    /// takes, which the bound names beside the longest).
    pub turn_times: Vec<Duration>,
    /// The decisions by kind ([`DecisionKind`], in its order): what a thinking time does with
    /// each, beside what a simulation budget does (`grognard sim --json`).
    pub kinds: [KindStats; 4],
}

/// The kinds of decision the search player meets, for [`SearchStats::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// Its movement phase, as a whole.
    Movement,
    /// Its declarations, as a whole.
    Declare,
    /// Its other choices in its own player-turn (resolutions, retreats, advances, losses).
    OwnCombat,
    /// Its choices in the opponent's player-turn (as the defender).
    Defender,
}

impl DecisionKind {
    /// Every kind, in the order of [`SearchStats::kinds`].
    pub const ALL: [DecisionKind; 4] = [
        DecisionKind::Movement,
        DecisionKind::Declare,
        DecisionKind::OwnCombat,
        DecisionKind::Defender,
    ];

    /// The kind's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Movement => "movement",
            DecisionKind::Declare => "declare",
            DecisionKind::OwnCombat => "own_combat",
            DecisionKind::Defender => "defender",
        }
    }

    fn of(g: &Game, me: Side) -> DecisionKind {
        if g.phasing() != me {
            return DecisionKind::Defender;
        }
        match g.step() {
            Step::Movement => DecisionKind::Movement,
            Step::Declare => DecisionKind::Declare,
            _ => DecisionKind::OwnCombat,
        }
    }
}

/// What the search did with one kind of decision, summed over the game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KindStats {
    /// Decisions searched.
    pub searched: u64,
    /// Decisions with several candidates left to the heuristic's own choice because too
    /// little of the budget was left for two rollouts a candidate.
    pub unsearched: u64,
    /// Rollouts played in them.
    pub simulations: u64,
    /// Time spent drawing the candidates (every decision with several).
    pub planning: Duration,
    /// Time spent in the searched decisions, planning included.
    pub time: Duration,
}

impl std::ops::AddAssign<&KindStats> for KindStats {
    fn add_assign(&mut self, x: &KindStats) {
        self.searched += x.searched;
        self.unsearched += x.unsearched;
        self.simulations += x.simulations;
        self.planning += x.planning;
        self.time += x.time;
    }
}

/// Monte Carlo search over heuristic plans (see the module documentation).
pub struct SearchPlayer {
    seed: u64,
    budget: Budget,
    inner: HeuristicPlayer,
    turn_key: Option<(u8, u8)>,
    /// The (turn, side, movement?) of the planned phase being played.
    phase_key: Option<u64>,
    /// Spent this player-turn: thinking time (every choice of the player-turn), simulations.
    spent: Duration,
    spent_sims: u32,
    decision_no: u64,
    stats: SearchStats,
    last: Option<String>,
    /// The last search in figures (candidates, rollouts, time, scores), kept out of the
    /// explanation a player reads.
    last_search: Option<String>,
    /// Worker threads for the rollouts.
    workers: usize,
    /// Estimated seconds of one rollout on one worker (a running average).
    rollout_secs: f64,
    /// Set when the game is abandoned: stop searching (see [`Player::stop_on`]).
    stop: Option<Arc<AtomicBool>>,
    /// The learned evaluation in place of `eval.rs` (the level `search2`), or `None`.
    learned: Option<Arc<Weights>>,
    /// The reply search with time where the decision is hard (the level `search3`): the
    /// opponent's replies searched in the movement and declaration decisions ([`REPLY_STYLES`]
    /// of them); 0 for today's levels.
    replies: usize,
    /// The candidates of the level `search4` ([`search4_styles`]): every style keeps the
    /// reinforcements' entry hex clear, and more styles converge on isolated enemy units and
    /// support units obliged to attack; `false` for today's levels.
    extra: bool,
}

/// The opponent's replies the level `search3` searches: its next movement phase (or
/// declarations, in a player-turn without movement) planned by the heuristic in these styles
/// of [`styles`]: its own and two aggressive ones (more attacks; more contact).
const REPLY_STYLES: [usize; 3] = [0, 2, 5];

/// The continuations a round of `search3` is expected to play: the styles often plan the same
/// reply (two of three rounds in a First Day game, for the first two), played once.
const REPLY_WIDTH: usize = 2;

/// `search3`'s settling margin: a decision whose leader leads every other candidate by this
/// much in expected score (and by two standard errors) after the first halving phase ends there.
const SETTLE: f64 = 0.04;

/// `search4`'s indifference (`montecarlo::Options::indifference`): a decision ends after any
/// halving phase but the last once no other candidate can be better than the leader by this
/// much in expected score (at two standard errors of the paired differences). Most of its
/// decisions hold candidates that differ by a move or two and play alike; without it they were
/// never settled and spent their whole close budget (median player-turn 1.19 s against 0.75 s
/// with it, `docs/ai.md`).
const INDIFFERENCE: f64 = 0.01;

/// `search3` with a simulation budget: how much more of what is left of the player-turn a close
/// decision may spend than its share.
const CLOSE_STRETCH: f64 = 1.5;

/// `search3` with a thinking time: the part of the player-turn's time its decisions share out
/// as long as they are easy (a decision still close after its first phase may spend its share
/// of the whole time left).
const EASY_TIME: f64 = 2.0 / 3.0;

impl std::fmt::Debug for SearchPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPlayer")
            .field("budget", &self.budget)
            .field("stats", &self.stats)
            .finish()
    }
}

/// One candidate: the actions it plays from the decision point.
#[derive(Clone, Debug)]
struct Candidate {
    actions: Vec<Action>,
    explanation: Option<Explanation>,
}

/// The styles the candidate plans are drawn in: the heuristic's own, then variations.
fn styles() -> Vec<Style> {
    let d = Style::default();
    vec![
        d,
        Style { noise: 0.6, ..d },
        Style {
            aggression: 1.5,
            min_gain: 0.2,
            ..d
        },
        Style {
            aggression: 0.7,
            risk: 1.6,
            approach: 0.25,
            ..d
        },
        Style { noise: 1.2, ..d },
        Style {
            contact_cost: 0.8,
            aggression: 1.2,
            ..d
        },
        Style {
            risk: 0.5,
            approach: 0.5,
            ..d
        },
        Style {
            noise: 0.6,
            aggression: 1.3,
            ..d
        },
        Style { noise: 2.0, ..d },
        Style {
            min_gain: 1.5,
            risk: 1.3,
            ..d
        },
    ]
}

/// The styles of the level `search4`'s candidate plans: [`styles`], each keeping the entry hex
/// of the reinforcements due next game-turn clear (15.0, 15.5) and holding the line of
/// communications' end hex with a unit strong enough (`hold_end`, 17.5), then the heuristic's
/// own, the aggressive and the contact-seeking styles again with the set-ups that converge on
/// an isolated enemy from opposite sides (7.72) and support units obliged to attack (7.1), the
/// line's holders stood by (`hold_line`), and the heuristic's own style weighted on each third
/// of the enemy in turn (`focus`), with and without the converging and supporting set-ups.
fn search4_styles() -> Vec<Style> {
    let mut out: Vec<Style> = styles()
        .into_iter()
        .map(|st| Style {
            keep_entry: true,
            hold_end: true,
            ..st
        })
        .collect();
    for i in [0, 2, 5] {
        out.push(Style {
            converge: true,
            support: true,
            ..out[i]
        });
    }
    // the holders of the line of communications stood by before the enemy's last player-turn
    // (the same plan as the heuristic's own before it: dropped as a duplicate)
    out.push(Style {
        hold_line: true,
        ..out[0]
    });
    // the army's weight on one sector of the enemy at a time, each third in turn (docs/ai.md,
    // "One sector at a time"); then the same three with their set-ups converging on an isolated
    // enemy and supporting units obliged to attack ("The Grand Battle at the bar")
    for converge in [false, true] {
        for focus in 1..=3 {
            out.push(Style {
                focus,
                converge,
                support: converge,
                ..out[0]
            });
        }
    }
    out
}

/// The heuristic's style in the model `search4` (`extra`) makes of a player-turn, its rollouts
/// and the opponent's replies: the last player-turn of the side without a line of
/// communications strikes at the hexes whose loss cuts the line (the style's `strike_line`,
/// 17.5, 7.74), so that the French plans meet the attacks that cut it. Today's levels model
/// the heuristic's own style.
fn model_style(extra: bool, st: Style) -> Style {
    Style {
        strike_line: extra,
        ..st
    }
}

/// The heuristic's style for `search4`'s (`extra`) own combat choices: a defender's advance of
/// the side without a line of communications weighs the attack it obliges (the style's
/// `wary_advance`, 7.74, 7.1). Today's levels: the heuristic's own style.
fn combat_style(extra: bool) -> Style {
    Style {
        wary_advance: extra,
        ..Style::default()
    }
}

/// True when the side to act is choosing a defender's advance after the attacker's retreat
/// (7.74) and has no line of communications of its own (the Allies of the Battle of Nations).
fn defender_advance_without_line(info: &Info, g: &Game) -> bool {
    let ToAct::Side(me) = g.to_act() else {
        return false;
    };
    g.step() == Step::Advance && g.phasing() != me && info.loc.is_some_and(|(ls, _, _)| ls != me)
}

impl SearchPlayer {
    /// A search player with its own seed and budget.
    pub fn new(seed: u64, budget: Budget) -> SearchPlayer {
        SearchPlayer {
            seed,
            budget,
            inner: HeuristicPlayer::new(mix(seed, 1)),
            turn_key: None,
            phase_key: None,
            spent: Duration::ZERO,
            spent_sims: 0,
            decision_no: 0,
            stats: SearchStats::default(),
            last: None,
            last_search: None,
            workers: cores().clamp(1, 16),
            rollout_secs: 0.003,
            stop: None,
            learned: None,
            replies: 0,
            extra: false,
        }
    }

    /// Draws the candidate plans of the level `search4`: the entry hex kept clear in every
    /// style, and styles that converge on isolated enemy units and support units obliged to
    /// attack (`docs/ai.md`, "search4").
    pub fn with_more_candidates(mut self) -> SearchPlayer {
        self.extra = true;
        self
    }

    /// Searches the opponent's replies and spends its time where the decision is hard: the
    /// level `search3` (`docs/ai.md`, "The reply search").
    pub fn with_replies(mut self) -> SearchPlayer {
        self.replies = REPLY_STYLES.len();
        self
    }

    /// Evaluates the rollouts' ends with a learned evaluation over Napoleon at War's features
    /// (`features.rs`) instead of the hand-tuned one: the level `search2`. A side with weights
    /// of its own is evaluated by them.
    pub fn with_learned(mut self, weights: Arc<Weights>) -> SearchPlayer {
        self.learned = Some(weights);
        self
    }

    /// Uses `n` workers for the rollouts (default: one per core). Results with a simulation
    /// budget do not depend on it.
    pub fn with_workers(mut self, n: usize) -> SearchPlayer {
        self.workers = n.max(1);
        self
    }

    /// The statistics so far.
    pub fn stats(&self) -> SearchStats {
        self.stats.clone()
    }

    /// The last search in figures, for debugging and `docs/ai.md` (`searched 8 candidates with
    /// 740 rollouts in 751 ms: this one scores 61% against 55% for the heuristic's own
    /// choice`): `None` before the first search. [`Player::explain`] says the plan in words,
    /// without them.
    pub fn search_summary(&self) -> Option<String> {
        self.last_search.clone()
    }

    /// The share of the player-turn's budget for a decision at this step.
    fn share(&self, g: &Game, me: Side) -> f64 {
        if g.phasing() != me {
            return 0.04;
        }
        match g.step() {
            Step::Movement => 0.5,
            Step::Declare => 0.4,
            _ => {
                let left = g.combats().iter().filter(|c| !c.resolved).count().max(1) as f64;
                (0.6 / left).min(0.35)
            }
        }
    }

    /// True when the stop flag is set.
    fn stopped(&self) -> bool {
        is_set(self.stop.as_deref())
    }

    /// Runs the search for one decision and returns the chosen candidate's actions. Once the
    /// stop flag is set, the heuristic's own candidate, unsearched.
    fn search(&mut self, g: &Game, me: Side) -> Option<(Vec<Action>, Option<Explanation>, String)> {
        let start = Instant::now();
        let mut cands = candidates(
            g,
            self.seed,
            self.decision_no,
            self.stop.as_deref(),
            self.extra,
        );
        if self.stopped() {
            cands.truncate(1);
        }
        if cands.len() <= 1 {
            return cands
                .pop()
                .map(|c| (c.actions, c.explanation, String::new()));
        }
        let kind = DecisionKind::of(g, me) as usize;
        self.stats.kinds[kind].planning += start.elapsed();
        let share = self.share(g, me);
        // too little left for two rounds of rollouts: the heuristic's own choice
        let k = cands.len() as u32;
        let mut opts = Options::default();
        let stretch = (share * CLOSE_STRETCH).min(0.9);
        let (deadline, sims) = match self.budget {
            Budget::Time(t) => {
                let left = t.saturating_sub(self.spent + start.elapsed());
                let mut avail = left.mul_f64(share);
                if self.replies > 0 {
                    // an easy decision takes its share of the easy time; a close one its share
                    // of all that is left
                    opts.close_deadline = Some(Instant::now() + avail);
                    let easy = t.mul_f64(EASY_TIME);
                    let easy = easy.saturating_sub(self.spent + start.elapsed());
                    avail = easy.mul_f64(share).min(avail);
                }
                let close = opts
                    .close_deadline
                    .map_or(avail, |d| d.saturating_duration_since(Instant::now()));
                let planned = close.as_secs_f64() * self.workers as f64 / self.rollout_secs;
                if planned < 2.0 * k as f64 {
                    self.stats.kinds[kind].unsearched += 1;
                    cands.truncate(1);
                    return cands
                        .pop()
                        .map(|c| (c.actions, c.explanation, String::new()));
                }
                (Some(Instant::now() + avail), u32::MAX)
            }
            Budget::Sims(n) => {
                let left = n.saturating_sub(self.spent_sims);
                let sims = (left as f64 * share) as u32;
                if self.replies > 0 {
                    opts.close_sims = Some((left as f64 * stretch) as u32);
                }
                if sims < 2 * k {
                    self.stats.kinds[kind].unsearched += 1;
                    cands.truncate(1);
                    return cands
                        .pop()
                        .map(|c| (c.actions, c.explanation, String::new()));
                }
                (None, sims)
            }
        };
        self.decision_no += 1;
        self.stats.decisions += 1;
        let searched = matches!(g.step(), Step::Movement | Step::Declare) && g.phasing() == me;
        if self.extra {
            opts.indifference = Some(INDIFFERENCE);
        }
        if self.replies > 0 {
            opts.settle = Some(SETTLE);
            if searched {
                opts.replies = REPLY_WIDTH;
            }
        }
        let knowledge = Arc::new(NawKnowledge {
            info: info(g),
            learned: self.learned.clone(),
            replies: if opts.replies > 0 { self.replies } else { 0 },
            extra: self.extra,
            reply_cache: Mutex::default(),
        });
        let plans: Vec<Vec<Action>> = cands.iter().map(|c| c.actions.clone()).collect();
        let limits = Limits {
            sims,
            deadline,
            workers: self.workers,
            stop: self.stop.clone(),
        };
        let base_seed = mix(self.seed, self.decision_no);
        let verdict = montecarlo::search_with(&knowledge, g, me, &plans, base_seed, limits, &opts);
        let used = verdict.simulations;
        let elapsed = start.elapsed();
        // a stopped search says nothing of the rollouts' speed
        if used > 0 && !verdict.stopped {
            let per = elapsed.as_secs_f64() * self.workers as f64 / used as f64;
            // (a reply search's continuations are shorter than whole rollouts: its estimate
            // errs on the side of thinking less)
            self.rollout_secs = 0.7 * self.rollout_secs + 0.3 * per;
        }
        self.spent_sims += used;
        self.stats.simulations += used as u64;
        let ks = &mut self.stats.kinds[kind];
        ks.searched += 1;
        ks.simulations += used as u64;
        ks.time += elapsed;
        let best = verdict.best;
        let mean = verdict.means[best];
        let base = verdict.means[0];

        let why = format!(
            "{} {} candidates with {} rollouts in {} ms: this one scores {:.0}%{}",
            if verdict.stopped {
                "stopped (the game was left) after searching"
            } else {
                "searched"
            },
            cands.len(),
            used,
            elapsed.as_millis(),
            mean * 100.0,
            if best == 0 {
                " (the heuristic's own choice)".to_string()
            } else {
                format!(
                    " against {:.0}% for the heuristic's own choice",
                    base * 100.0
                )
            }
        );
        let c = cands.swap_remove(best);
        Some((c.actions, c.explanation, why))
    }
}

/// The candidates of a decision: whole-phase plans of the heuristic in every style for the
/// movement phase and the declarations, else the legal actions (the heuristic's first, at most
/// twelve); duplicates dropped. Once `stop` is set, no more plans are drawn than the one
/// already made. `extra`: the styles of `search4` ([`search4_styles`]) in place of [`styles`].
fn candidates(
    g: &Game,
    seed: u64,
    decision_no: u64,
    stop: Option<&AtomicBool>,
    extra: bool,
) -> Vec<Candidate> {
    let all = if extra { search4_styles() } else { styles() };
    let mut out: Vec<Candidate> = Vec::new();
    let push = |out: &mut Vec<Candidate>, actions: Vec<Action>, e: Option<Explanation>| {
        let mut key = actions.clone();
        key.sort_by_key(|a| format!("{a:?}"));
        let dup = out.iter().any(|c| {
            let mut k2 = c.actions.clone();
            k2.sort_by_key(|a| format!("{a:?}"));
            k2 == key
        });
        if !dup {
            out.push(Candidate {
                actions,
                explanation: e,
            });
        }
    };
    match g.step() {
        Step::Movement => {
            for (i, &st) in all.iter().enumerate() {
                if i > 0 && is_set(stop) {
                    break;
                }
                let mut h =
                    HeuristicPlayer::with_style(mix(seed, 100 + i as u64 + 1000 * decision_no), st);
                let (mut moves, e) = h.movement_plan(g);
                moves.push(Action::End);
                push(&mut out, moves, Some(e));
            }
        }
        Step::Declare => {
            for (i, &st) in all.iter().enumerate() {
                if i > 0 && is_set(stop) {
                    break;
                }
                let mut h =
                    HeuristicPlayer::with_style(mix(seed, 200 + i as u64 + 1000 * decision_no), st);
                let (mut acts, notes) = h.declaration_plan(g);
                acts.push(Action::End);
                let e = Explanation {
                    plan: String::new(),
                    attacks: notes,
                };
                push(&mut out, acts, Some(e));
            }
        }
        _ => {
            let info = info(g);
            let style = combat_style(extra);
            let first = crate::plan::choose_combat_step(&info, g, &[], &mut None, style);
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            if g.check(first).is_ok() {
                push(&mut out, vec![first], None);
                if style.wary_advance && defender_advance_without_line(&info, g) {
                    // the search's horizon (the start of our next player-turn) comes as soon as
                    // the advance is made: it cannot see the attack the advance obliges us to
                    // make (7.1, 5.13), which the heuristic's wary rule weighs
                    return out;
                }
            }
            for a in legal {
                if out.len() >= 12 {
                    break;
                }
                push(&mut out, vec![a], None);
            }
        }
    }
    out
}

/// Napoleon at War's plug-in for the generic search: the heuristic's plans as candidates,
/// the heuristic as the rollout policy of both sides, rollouts to the start of the searching
/// side's next player-turn, and the evaluation of `eval.rs`.
pub(crate) struct NawKnowledge {
    pub info: Arc<Info>,
    /// The learned evaluation in place of `eval.rs`, or `None` (today's levels).
    pub learned: Option<Arc<Weights>>,
    /// The opponent's replies offered to the reply search (the first of [`REPLY_STYLES`]);
    /// 0 for none (today's levels).
    pub replies: usize,
    /// The candidate styles of `search4` ([`search4_styles`]); `false` for today's levels.
    pub extra: bool,
    /// The replies already planned in this decision, by the position they answer (its state
    /// hash): the styles of [`REPLY_STYLES`] draw no noise, so a position's replies are the same
    /// in every rollout that reaches it (the rounds whose combats came out alike), and each is
    /// planned once.
    pub reply_cache: Mutex<HashMap<u64, Vec<Vec<Action>>>>,
}

impl Rollout<Game> for HeuristicPlayer {
    fn act(&mut self, g: &Game) -> Action {
        self.choose(g)
    }
}

impl Knowledge<Game> for NawKnowledge {
    type Policy = HeuristicPlayer;

    fn candidates(&self, g: &Game, _me: Side, seed: u64) -> Vec<Vec<Action>> {
        candidates(g, seed, 0, None, self.extra)
            .into_iter()
            .map(|c| c.actions)
            .collect()
    }

    fn policy(&self, _seat: Side, seed: u64) -> HeuristicPlayer {
        HeuristicPlayer::with_style(seed, model_style(self.extra, Style::default()))
    }

    fn evaluate(&self, g: &Game, me: Side) -> f64 {
        match &self.learned {
            None => evaluate(&self.info, g, me),
            Some(w) => evaluate_learned(&self.info, w.for_position(&g.scenario().id, me), g, me),
        }
    }

    /// The start of `me`'s next player-turn (its movement phase, or its declarations in a
    /// player-turn without movement, 14.62): the enemy's whole reply has been played.
    fn horizon_reached(&self, start: &Game, now: &Game, me: Side) -> bool {
        (now.turn(), now.phasing()) != (start.turn(), start.phasing())
            && now.phasing() == me
            && (now.step() == Step::Movement
                || (now.step() == Step::Declare && now.combats().is_empty()))
    }

    /// A combat choice (resolution, loss, retreat, advance): each candidate meets every face
    /// of the next die.
    fn stratify(&self, g: &Game) -> bool {
        g.step() != Step::Movement && g.step() != Step::Declare
    }

    /// The opponent's next phase that plans (its movement, or its declarations in a
    /// player-turn without movement), planned whole by the heuristic in the styles of
    /// [`REPLY_STYLES`], its own first; none for today's levels.
    fn replies(&self, start: &Game, now: &Game, me: Side, seed: u64) -> Option<Vec<Vec<Action>>> {
        if self.replies == 0
            || now.phasing() == me
            || (now.turn(), now.phasing()) == (start.turn(), start.phasing())
            || now.to_act() != ToAct::Side(now.phasing())
        {
            return None;
        }
        let key = now.state_hash();
        if let Some(out) = self.reply_cache.lock().ok()?.get(&key) {
            return Some(out.clone());
        }
        let all = styles();
        let mut out = Vec::with_capacity(self.replies);
        for (i, &st) in REPLY_STYLES.iter().take(self.replies).enumerate() {
            let mut h = HeuristicPlayer::with_style(
                mix(seed, 300 + i as u64),
                model_style(self.extra, all[st]),
            );
            let mut plan = match now.step() {
                Step::Movement => h.movement_plan(now).0,
                Step::Declare if now.combats().is_empty() => h.declaration_plan(now).0,
                _ => return None,
            };
            plan.push(Action::End);
            out.push(plan);
        }
        if let Ok(mut cache) = self.reply_cache.lock() {
            cache.insert(key, out.clone());
        }
        Some(out)
    }
}

impl Player for SearchPlayer {
    fn choose(&mut self, g: &Game) -> Action {
        let t0 = Instant::now();
        let me = match g.to_act() {
            ToAct::Side(s) => s,
            _ => g.phasing(),
        };
        if g.phasing() == me {
            let key = Some((g.turn(), g.phasing().0));
            if self.turn_key != key {
                self.turn_key = key;
                self.spent = Duration::ZERO;
                self.spent_sims = 0;
                self.stats.player_turns += 1;
                self.stats.turn_times.push(Duration::ZERO);
            }
        }
        let fresh_phase = match g.step() {
            Step::Movement | Step::Declare => {
                let key = (g.turn(), g.phasing().0, g.step() == Step::Movement);
                let k = (key.0 as u64) << 16 | (key.1 as u64) << 8 | key.2 as u64;
                let fresh = self.phase_key != Some(k);
                self.phase_key = Some(k);
                fresh
            }
            _ => true,
        };
        let a = if fresh_phase {
            match self.search(g, me) {
                Some((actions, expl, why)) => match g.step() {
                    Step::Movement | Step::Declare => {
                        let step = g.step();
                        let mut actions = actions;
                        if actions.last() == Some(&Action::End) {
                            actions.pop();
                        }
                        let mut e = expl.unwrap_or_default();
                        if step == Step::Declare {
                            e.plan = self.inner.explanation_ref().plan.clone();
                        }
                        if !why.is_empty() {
                            self.last_search = Some(why);
                        }
                        // the adopted plan is said by its first action
                        self.inner.adopt(g, actions, Some(e));
                        self.inner.choose(g)
                    }
                    _ => {
                        let a = actions.first().copied().unwrap_or(Action::End);
                        let a = if g.check(a).is_ok() {
                            a
                        } else {
                            self.inner.choose(g)
                        };
                        let info = info(g);
                        self.inner.set_last(Some(step_note(&info, g, a)));
                        if !why.is_empty() {
                            self.last_search = Some(why);
                        }
                        a
                    }
                },
                None => self.inner.choose(g),
            }
        } else {
            self.inner.choose(g)
        };
        let a = if g.check(a).is_ok() {
            a
        } else {
            let mut v = Vec::new();
            g.legal_actions(&mut v);
            v.first().copied().unwrap_or(Action::End)
        };
        let dt = t0.elapsed();
        self.stats.time += dt;
        if g.phasing() == me {
            // the time of the player-turn so far (its budget counts it all)
            self.spent += dt;
            self.stats.max_turn_time = self.stats.max_turn_time.max(self.spent);
            if let Some(t) = self.stats.turn_times.last_mut() {
                *t = self.spent;
            }
        }
        self.last = self.inner.explain();
        a
    }

    fn name(&self) -> String {
        let level = if self.extra {
            "search4"
        } else if self.replies > 0 {
            "search3"
        } else if self.learned.is_some() {
            "search2"
        } else {
            "search"
        };
        format!("{level}@{}", self.budget.text())
    }

    fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    fn explanation(&self) -> Option<Explanation> {
        self.inner.explanation()
    }

    fn search_stats(&self) -> Option<SearchStats> {
        Some(self.stats.clone())
    }

    fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `NawKnowledge::reply_cache` is exact only while the reply styles draw no noise: a plan is
    /// then a function of the position alone, whatever the seed.
    #[test]
    fn reply_styles_draw_no_noise() {
        let all = styles();
        for &st in &REPLY_STYLES {
            for extra in [false, true] {
                assert_eq!(model_style(extra, all[st]).noise, 0.0, "style {st}");
            }
        }
    }

    /// `search4`'s candidates hold each third of the enemy as a focus twice, plain and with the
    /// converging and supporting set-ups (docs/ai.md, "One sector at a time"), each on the
    /// heuristic's own style with the reinforcements' entry kept and the end hex held.
    #[test]
    fn search4_focuses_each_sector_plain_and_converging() {
        let all = search4_styles();
        for focus in 1..=3u8 {
            let on: Vec<&Style> = all.iter().filter(|s| s.focus == focus).collect();
            assert_eq!(on.len(), 2, "sector {focus}");
            assert!(on.iter().any(|s| !s.converge && !s.support));
            assert!(on.iter().any(|s| s.converge && s.support));
            for s in on {
                assert!(s.keep_entry && s.hold_end && s.noise == 0.0 && s.aggression == 1.0);
            }
        }
        assert!(styles().iter().all(|s| s.focus == 0));
    }
}
