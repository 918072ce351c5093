//! Monte Carlo search at the root over any rules system: candidates (whole action sequences)
//! scored by rollouts to a horizon, compared on common dice and whittled down by sequential
//! halving, on every core, within a simulation count or a deadline.
//!
//! The machinery names no rules crate: it needs only [`engine::Rules`] (who acts, legal
//! actions, check, apply, [`Rules::chance_outcomes`] with their weights) and a per-system
//! plug-in, [`Knowledge`], which proposes the candidates, plays the rollouts, says where a
//! rollout stops and evaluates the position there. Napoleon at War's plug-in is the heuristic
//! and its evaluation (`search.rs`); a test plays the toy system with a trivial one.
//!
//! [`search_with`] adds opt-in refinements ([`Options`]): the opponent's replies searched at
//! its next decision (a plug-in offers them with [`Knowledge::replies`]; a candidate is then
//! worth the reply worst for it), and a decision's time spent where it is hard (an easy one
//! ends after its first halving phase, a close one may spend more).
//!
//! ```
//! # use ai::montecarlo::{search, Limits};
//! # fn doc<R, K>(k: std::sync::Arc<K>, g: &R, me: engine::Side)
//! # where
//! #     R: engine::Rules + Send + Sync + 'static,
//! #     R::Action: Send + Sync,
//! #     K: ai::montecarlo::Knowledge<R>,
//! # {
//! // the plug-in's candidates, scored with 200 rollouts on every core
//! let plans = k.candidates(g, me, 1);
//! let verdict = search(&k, g, me, &plans, 7, Limits::sims(200));
//! let best = &plans[verdict.best];
//! # let _ = best;
//! # }
//! ```

use engine::{Dice, Rules, Side, ToAct};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A rollout policy: chooses an action for whichever seat is to act.
pub trait Rollout<R: Rules> {
    /// One action of the seat to act in `g` (the search checks it and falls back to the first
    /// legal action when the rules refuse it).
    fn act(&mut self, g: &R) -> R::Action;
}

/// What the search needs to know about a rules system: its plug-in.
pub trait Knowledge<R: Rules>: Send + Sync + 'static {
    /// The rollout policy of one seat in one rollout.
    type Policy: Rollout<R>;
    /// The candidates of the decision at `g` for `me`: action sequences from `g` (a whole
    /// phase, or one action), the default choice first (it wins ties). `seed` varies per
    /// decision.
    fn candidates(&self, g: &R, me: Side, seed: u64) -> Vec<Vec<R::Action>>;
    /// The rollout policy of `seat` for one rollout, seeded.
    fn policy(&self, seat: Side, seed: u64) -> Self::Policy;
    /// The value of `g` for `me`, in 0..=1 (the expected score: 1 a certain win).
    fn evaluate(&self, g: &R, me: Side) -> f64;
    /// True when a rollout that started at `start` should stop at `now` (checked whenever a
    /// seat is to act) and be evaluated.
    fn horizon_reached(&self, start: &R, now: &R, me: Side) -> bool;
    /// True when the first chance event after each candidate should be stratified over its
    /// outcomes (round `r` takes the outcome at `r` of the weights' total), so that every
    /// candidate meets each outcome in proportion: worth it when the decision is about that
    /// very event (a combat choice before its die).
    fn stratify(&self, _g: &R) -> bool {
        false
    }
    /// The most actions a rollout plays before it is evaluated regardless.
    fn max_rollout(&self) -> usize {
        4_000
    }
    /// The opponent's reply candidates, for a search that expects a real opponent
    /// ([`Options::replies`]). Asked at each seat's decision of a rollout (from `start`, the
    /// searched position, now at `now`) until it answers `Some`: `None` while `now` is not the
    /// opponent's decision to search, `Some(replies)` there (action sequences from `now`, the
    /// opponent's default first, their order the same from one position to the next: reply
    /// *j* of every round is compared with reply *j* of the others); fewer than two replies:
    /// no branching. `seed` varies per round. The default offers none: a plug-in without
    /// replies searches exactly as before.
    fn replies(&self, _start: &R, _now: &R, _me: Side, _seed: u64) -> Option<Vec<Vec<R::Action>>> {
        None
    }
}

/// How much one search may spend.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Simulations (rollouts) in all; ignored with a deadline.
    pub sims: u32,
    /// Stop at this instant (each candidate is still played once).
    pub deadline: Option<Instant>,
    /// Worker threads (the searching thread and the search's pool).
    pub workers: usize,
    /// Stop as soon as this flag is set, from any thread (its game was abandoned): checked
    /// wherever the deadline is and after every action of a rollout, even in the first round
    /// that a deadline lets finish. The verdict then stands on the rounds completed (none:
    /// the first candidate). A flag that is never set changes nothing.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A simulation budget on every core: the same seed gives the same result.
    pub fn sims(n: u32) -> Limits {
        Limits {
            sims: n,
            deadline: None,
            workers: cores(),
            stop: None,
        }
    }

    /// The same limits, stopped as soon as `flag` is set.
    pub fn stop_on(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.stop = Some(flag);
        self
    }
}

/// True when a stop flag is given and set.
pub(crate) fn is_set(flag: Option<&AtomicBool>) -> bool {
    flag.is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Opt-in refinements of [`search_with`] ([`search`] uses none of them).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The reply search, on when above zero: every rollout of a candidate plays the candidate and
    /// the chance events and policies that follow up to the opponent's decision
    /// ([`Knowledge::replies`]), then continues once per reply from that same position with the
    /// same dice; a candidate is worth the value of the reply worst for it, the least over
    /// replies of the mean over rounds. The number is how many continuations a round is
    /// expected to play (a simulation budget is shared out in rounds of that many simulations
    /// each); every continuation played counts as one simulation (a reply equal to an earlier
    /// one of its round is not played again).
    pub replies: usize,
    /// Time where the decision is hard: after the first halving phase the search ends when the
    /// leader leads every other live candidate by at least this much in value (0..=1) and by
    /// two standard errors of the paired differences over the rounds played (common dice).
    pub settle: Option<f64>,
    /// The budget of a decision still close after its first phase (not settled): simulations
    /// in all, in place of [`Limits::sims`] (more than it).
    pub close_sims: Option<u32>,
    /// The deadline of a decision still close after its first phase, in place of
    /// [`Limits::deadline`] (later than it).
    pub close_deadline: Option<Instant>,
    /// Time not spent on choices that hardly matter: after every halving phase but the last,
    /// the search also ends when no other live candidate can be better than the leader by this
    /// much (0..=1), that is when each one's paired difference from the leader over the rounds
    /// played (at least [`INDIFFERENT_ROUNDS`] of them), plus this much, reaches two standard
    /// errors. The leader is then within this much of the best with high confidence, whether
    /// the others are clearly worse ([`Options::settle`]) or about as good.
    pub indifference: Option<f64>,
}

/// The fewest rounds on which [`Options::indifference`] judges a candidate against the leader
/// (fewer give too rough an estimate of the spread).
pub const INDIFFERENT_ROUNDS: usize = 8;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The index of the chosen candidate.
    pub best: usize,
    /// Each candidate's mean value (0 when unplayed).
    pub means: Vec<f64>,
    /// Each candidate's rollouts.
    pub visits: Vec<u32>,
    /// Rollouts played in all.
    pub simulations: u32,
    /// True when the search was stopped by its flag ([`Limits::stop`]) before its budget was
    /// spent.
    pub stopped: bool,
    /// True when the search ended after its first phase on a clear leader ([`Options::settle`]).
    pub settled: bool,
}

/// The number of cores.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// The search's own thread pool, one thread per core but one (the searching thread is the
/// other): a search uses every core even when the caller runs it from a pool of one thread
/// (`grognard sim --jobs 1`); searches running at once share it.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let n = cores().saturating_sub(1).max(1);
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("ai-search-{i}"))
            .build()
            .unwrap_or_else(|_| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .expect("a thread pool of one thread")
            })
    })
}

/// splitmix64 of a pair: seeds for rounds and rollout policies.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A finished game's value for `me`: 1 won, 0 lost, ½ drawn; `None` while it goes on. What
/// every system's evaluation returns at the end.
pub fn final_value<R: Rules>(g: &R, me: Side) -> Option<f64> {
    match g.to_act() {
        ToAct::Over(o) => Some(outcome_value(&o, me)),
        _ => None,
    }
}

/// An outcome's value for `me`: 1 won, 0 lost, ½ drawn.
pub fn outcome_value(o: &engine::Outcome, me: Side) -> f64 {
    match o.winner {
        Some(w) if w == me => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// The rollouts a spec `NAME@Nn` names (N above 0), `None` for any other spec: how every
/// system's search players take a simulation budget.
pub fn rollouts_of(spec: &str, name: &str) -> Option<u32> {
    spec.trim()
        .strip_prefix(name)
        .and_then(|s| s.strip_prefix('@'))
        .and_then(|n| n.strip_suffix('n'))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n > 0)
}

/// One phase of a search, shared with the workers.
struct Job<R: Rules, K> {
    knowledge: Arc<K>,
    g: R,
    /// The live candidates: (index, actions).
    plans: Vec<(usize, Vec<R::Action>)>,
    me: Side,
    base_seed: u64,
    /// The first round number of this phase.
    round: u64,
    /// Rounds to play (a simulation budget), or play until `deadline`.
    rounds: Option<u64>,
    deadline: Option<Instant>,
    /// Stop at once when set (even in the round that `first` would complete).
    stop: Option<Arc<AtomicBool>>,
    workers: u64,
    stratify: bool,
    /// The reply search ([`Options::replies`]).
    replies: bool,
    /// Each worker completes one round whatever the time (the first phase: without it there
    /// is nothing to compare); later phases stop at the deadline even mid-round.
    first: bool,
}

impl<R: Rules, K: Knowledge<R>> Job<R, K> {
    /// Worker `w` plays rounds `w`, `w + workers`, ...: each round evaluates every live
    /// candidate on the same dice. Returns (round, candidate, value). With a deadline, a round
    /// cut short by it is dropped whole (its candidates would not have met the same dice), so
    /// a decision overruns its time by one rollout at most, except in the first phase's first
    /// round. A set stop flag ends the work at once, mid-rollout, and drops that round too.
    /// With the reply search a rollout gives one value per reply (one when it did not branch).
    fn work(&self, w: u64) -> Vec<(u64, usize, Vec<f64>, u32)> {
        let mut acc = Vec::new();
        let mut r = w;
        let stop = self.stop.as_deref();
        let past = |d: Option<Instant>| is_set(stop) || d.is_some_and(|d| Instant::now() >= d);
        loop {
            let must = self.first && r == w && !is_set(stop);
            match self.rounds {
                Some(n) if r >= n => break,
                _ if !must && past(self.deadline) => break,
                _ => {}
            }
            let seed = mix(self.base_seed, self.round + r);
            let mut row = Vec::with_capacity(self.plans.len());
            for (c, actions) in &self.plans {
                if (!must && past(self.deadline)) || is_set(stop) {
                    return acc;
                }
                let stratum = self.stratify.then_some(r);
                let v = if self.replies {
                    rollout_replies(
                        &*self.knowledge,
                        &self.g,
                        actions,
                        self.me,
                        seed,
                        stratum,
                        stop,
                    )
                } else {
                    rollout_or_stop(
                        &*self.knowledge,
                        &self.g,
                        actions,
                        self.me,
                        seed,
                        stratum,
                        stop,
                    )
                    .map(|v| (vec![v], 1))
                };
                let Some((v, played)) = v else {
                    return acc;
                };
                row.push((r, *c, v, played));
            }
            acc.extend(row);
            r += self.workers;
            if r > 1_000_000 {
                break;
            }
        }
        acc
    }
}

/// Scores `plans` (candidates from `g`, the default first) for `me` by rollouts on common dice
/// with sequential halving (log₂ k phases, the worse half dropped after each), and returns the
/// best survivor (the first candidate wins ties). Round `r` of every candidate plays the same
/// seed, derived from `seed`; the rounds are shared between the workers and summed in round
/// order, so a simulation budget gives the same verdict whatever the number of workers.
///
/// A set stop flag ([`Limits::stop`]) ends the search as soon as every worker has seen it
/// (within one action of a rollout): the rounds completed stand, an unfinished round is
/// dropped, and with no round completed the first candidate is chosen.
pub fn search<R, K>(
    knowledge: &Arc<K>,
    g: &R,
    me: Side,
    plans: &[Vec<R::Action>],
    seed: u64,
    limits: Limits,
) -> Verdict
where
    R: Rules + Send + Sync + 'static,
    R::Action: Send + Sync,
    K: Knowledge<R>,
{
    search_with(knowledge, g, me, plans, seed, limits, &Options::default())
}

/// [`search`] with opt-in refinements ([`Options`]): the opponent's replies searched, and the
/// time of a decision spent where it is hard. With the default options it is [`search`].
///
/// With the reply search a candidate's value is the least over replies of its mean over rounds
/// (the reply worst for it), not the mean over rounds of the least per round: one rollout after
/// a reply is a noisy sample, and the least of noisy samples favours no reply but the luckiest
/// dice (it would mark every candidate down by its noise, the noisiest most); a reply's mean
/// over the common rounds is an estimate of what that reply does to the candidate, the same
/// dice for every candidate and every reply. It treats the opponent as choosing one way to
/// reply (a style) before my plan's dice are known, a slightly optimistic model of an
/// opponent who sees them.
pub fn search_with<R, K>(
    knowledge: &Arc<K>,
    g: &R,
    me: Side,
    plans: &[Vec<R::Action>],
    seed: u64,
    limits: Limits,
    opts: &Options,
) -> Verdict
where
    R: Rules + Send + Sync + 'static,
    R::Action: Send + Sync,
    K: Knowledge<R>,
{
    let k = plans.len();
    // per candidate, per reply: (sum, rounds); one reply when the search does not branch
    let mut slots: Vec<Vec<(f64, u32)>> = vec![Vec::new(); k];
    let mut n = vec![0u32; k];
    let mean = |slots: &[Vec<(f64, u32)>], c: usize| {
        slots[c]
            .iter()
            .map(|&(s, m)| s / m.max(1) as f64)
            .min_by(|a, b| a.total_cmp(b))
            .unwrap_or(0.0)
    };
    let mut deadline = limits.deadline;
    let stop = limits.stop.clone();
    let stopped = || is_set(stop.as_deref());
    let mut sims = if deadline.is_some() {
        u32::MAX
    } else {
        limits.sims
    };
    let width = opts.replies.max(1) as u32;
    let mut settled = false;
    let stratify = knowledge.stratify(g);
    let phases = (k as f64).log2().ceil().max(1.0) as u32;
    let mut alive: Vec<usize> = (0..k).collect();
    let mut used = 0u32;
    let mut round = 0u64;
    // every round played so far, for the indifference test (it judges on all of them)
    let mut rounds_all: Vec<(u64, usize, Vec<f64>, u32)> = Vec::new();
    for phase in 0..phases {
        if k == 0 || stopped() || (phase > 0 && deadline.is_some_and(|d| Instant::now() >= d)) {
            break;
        }
        let phase_sims = if opts.close_sims.is_some() && phase > 0 {
            (sims.saturating_sub(used) / (phases - phase)).max(alive.len() as u32)
        } else {
            (sims / phases).max(alive.len() as u32)
        };
        let phase_deadline = deadline.map(|d| {
            let now = Instant::now();
            let left = d.saturating_duration_since(now);
            now + left / (phases - phase)
        });
        let rounds = (phase_sims / (alive.len() as u32 * width)).max(1);
        let workers = limits.workers.min(rounds as usize).max(1);
        let job = Arc::new(Job {
            knowledge: knowledge.clone(),
            g: g.clone(),
            plans: alive.iter().map(|&c| (c, plans[c].clone())).collect(),
            me,
            base_seed: seed,
            round,
            rounds: deadline.is_none().then_some(rounds as u64),
            deadline: phase_deadline,
            stop: stop.clone(),
            workers: workers as u64,
            stratify,
            replies: opts.replies > 0,
            first: phase == 0,
        });
        // root parallelism: the other workers run in the search's pool, this thread plays
        // worker 0 and then waits for them (a plain wait, so that a caller's own thread pool
        // never lends this thread to other work meanwhile)
        let (tx, rx) = std::sync::mpsc::channel();
        for w in 1..workers as u64 {
            let (job, tx) = (job.clone(), tx.clone());
            pool().spawn(move || {
                let _ = tx.send(job.work(w));
            });
        }
        drop(tx);
        let mut results = vec![job.work(0)];
        results.extend(rx.iter());
        // summed in round order: the result does not depend on how the rounds were shared
        let mut all: Vec<(u64, usize, Vec<f64>, u32)> = results.into_iter().flatten().collect();
        all.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, c, v, played) in &all {
            add(&mut slots[*c], v);
            n[*c] += 1;
            used += played;
        }
        if opts.indifference.is_some() {
            rounds_all.extend(all.iter().cloned());
        }
        round += 1_000_000;
        if stopped() {
            // what was played stands; halving on a cut phase would judge on too little
            break;
        }
        if let Some(delta) = opts.indifference {
            if phase + 1 < phases
                && alive.len() > 1
                && near_best(&rounds_all, &slots, &alive, delta)
            {
                settled = true;
                break;
            }
        }
        if phase == 0 && phase + 1 < phases && alive.len() > 1 {
            if let Some(gap) = opts.settle {
                if clear_leader(&all, &slots, &alive, gap) {
                    settled = true;
                    break;
                }
            }
            // still close: the rest of the search may spend the close budget
            if let Some(d) = opts.close_deadline {
                deadline = Some(d);
            }
            if let Some(s) = opts.close_sims {
                if limits.deadline.is_none() {
                    sims = s;
                }
            }
        }
        if phase + 1 < phases && alive.len() > 1 {
            alive.sort_by(|&a, &b| mean(&slots, b).total_cmp(&mean(&slots, a)).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
            alive.sort();
        }
    }
    // the best of the survivors; the default (candidate 0) wins ties
    let bonus = |c: usize| if c == 0 { 1e-3 } else { 0.0 };
    let best = *alive
        .iter()
        .max_by(|&&a, &&b| {
            (mean(&slots, a) + bonus(a))
                .total_cmp(&(mean(&slots, b) + bonus(b)))
                .then(b.cmp(&a))
        })
        .unwrap_or(&0);
    Verdict {
        best,
        means: (0..k).map(|c| mean(&slots, c)).collect(),
        visits: n,
        simulations: used,
        stopped: stopped(),
        settled,
    }
}

/// Adds one round's values (one per reply) to a candidate's sums per reply. A round that did
/// not branch counts its one value for every reply (whatever the reply, that was the game); a
/// round with fewer replies than the others counts its last for the rest, and a reply first
/// met later starts from the sums of the last reply before it.
fn add(slots: &mut Vec<(f64, u32)>, v: &[f64]) {
    if v.is_empty() {
        return;
    }
    while slots.len() < v.len() {
        let last = slots.last().copied().unwrap_or((0.0, 0));
        slots.push(last);
    }
    for (j, s) in slots.iter_mut().enumerate() {
        s.0 += v[j.min(v.len() - 1)];
        s.1 += 1;
    }
}

/// A candidate's value against the reply worst for it (the least mean over its reply slots)
/// and that reply's slot.
fn worst_reply(slots: &[Vec<(f64, u32)>], c: usize) -> (f64, usize) {
    let mut j = 0;
    let mut best = f64::INFINITY;
    for (i, &(s, m)) in slots[c].iter().enumerate() {
        let x = s / m.max(1) as f64;
        if x < best {
            best = x;
            j = i;
        }
    }
    (best, j)
}

/// The best live candidate by its value against its worst reply (the lower index on a tie).
fn live_leader(slots: &[Vec<(f64, u32)>], alive: &[usize]) -> Option<usize> {
    alive.iter().copied().max_by(|&a, &b| {
        worst_reply(slots, a)
            .0
            .total_cmp(&worst_reply(slots, b).0)
            .then(b.cmp(&a))
    })
}

/// True when the best live candidate (by its value, the least over replies) leads every other
/// live candidate by at least `gap` and by two standard errors of their paired differences
/// over the rounds of `all` (each round's value taken at the reply worst for the candidate).
fn clear_leader(
    all: &[(u64, usize, Vec<f64>, u32)],
    slots: &[Vec<(f64, u32)>],
    alive: &[usize],
    gap: f64,
) -> bool {
    let worst = |c: usize| worst_reply(slots, c);
    let Some(lead) = live_leader(slots, alive) else {
        return false;
    };
    let value = |c: usize, v: &[f64]| v[worst(c).1.min(v.len().saturating_sub(1))];
    let mut by_round: std::collections::BTreeMap<u64, Vec<(usize, f64)>> = Default::default();
    for (r, c, v, _) in all {
        if !v.is_empty() {
            by_round.entry(*r).or_default().push((*c, value(*c, v)));
        }
    }
    alive.iter().filter(|&&c| c != lead).all(|&c| {
        let d: Vec<f64> = by_round
            .values()
            .filter_map(|row| {
                let a = row.iter().find(|x| x.0 == lead)?.1;
                let b = row.iter().find(|x| x.0 == c)?.1;
                Some(a - b)
            })
            .collect();
        if d.len() < 2 {
            return false;
        }
        let (m, se) = mean_se(&d);
        m >= gap && m >= 2.0 * se
    })
}

/// The paired differences between the leader `lead` and candidate `c` over the rounds of
/// `all` where both were played, each round's value taken at the reply worst for its candidate
/// over all the rounds (`worst`).
fn paired(
    all: &[(u64, usize, Vec<f64>, u32)],
    lead: usize,
    c: usize,
    worst: impl Fn(usize) -> usize,
) -> Vec<f64> {
    let value = |c: usize, v: &[f64]| v[worst(c).min(v.len().saturating_sub(1))];
    let mut by_round: std::collections::BTreeMap<u64, [Option<f64>; 2]> = Default::default();
    for (r, x, v, _) in all {
        if v.is_empty() || (*x != lead && *x != c) {
            continue;
        }
        let e = by_round.entry(*r).or_default();
        e[usize::from(*x == c)] = Some(value(*x, v));
    }
    by_round
        .values()
        .filter_map(|p| Some(p[0]? - p[1]?))
        .collect()
}

/// The mean and the standard error of the mean of `d` (at least two values).
fn mean_se(d: &[f64]) -> (f64, f64) {
    let m = d.iter().sum::<f64>() / d.len() as f64;
    let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (d.len() - 1) as f64;
    (m, (var / d.len() as f64).sqrt())
}

/// True when no live candidate can be better than the best live one by `delta` or more, at two
/// standard errors of their paired differences over the rounds of `all` ([`Options::indifference`]):
/// for each, mean difference + `delta` > 2 standard errors, on [`INDIFFERENT_ROUNDS`] rounds
/// or more.
fn near_best(
    all: &[(u64, usize, Vec<f64>, u32)],
    slots: &[Vec<(f64, u32)>],
    alive: &[usize],
    delta: f64,
) -> bool {
    let worst = |c: usize| worst_reply(slots, c);
    let Some(lead) = live_leader(slots, alive) else {
        return false;
    };
    alive.iter().filter(|&&c| c != lead).all(|&c| {
        let d = paired(all, lead, c, |x| worst(x).1);
        if d.len() < INDIFFERENT_ROUNDS {
            return false;
        }
        let (m, se) = mean_se(&d);
        m + delta > 2.0 * se
    })
}

/// Applies one chance event: the outcome at `stratum` of the weights' total when given (then
/// spent), else drawn by the dice by weight.
fn roll<R: Rules>(s: &mut R, dice: &mut Dice, stratum: &mut Option<u64>) {
    let outs = s.chance_outcomes();
    if outs.is_empty() {
        return;
    }
    let a = match stratum.take() {
        Some(r) => {
            let total: u64 = outs.iter().map(|o| o.1 as u64).sum();
            let mut x = r % total.max(1);
            let mut pick = outs[0].0;
            for (a, w) in &outs {
                if x < *w as u64 {
                    pick = *a;
                    break;
                }
                x -= *w as u64;
            }
            pick
        }
        None => match engine::draw_chance(s, dice) {
            Some(a) => a,
            None => return,
        },
    };
    s.apply_unchecked(a);
}

/// Plays `actions` from `g` (chance events drawn as they come), then every seat by the
/// plug-in's rollout policies with dice drawn from the chance outcomes, until the game ends,
/// the horizon is reached or the action bound; returns the evaluation for `me`.
pub fn rollout<R: Rules, K: Knowledge<R>>(
    k: &K,
    g: &R,
    actions: &[R::Action],
    me: Side,
    seed: u64,
    stratum: Option<u64>,
) -> f64 {
    rollout_or_stop(k, g, actions, me, seed, stratum, None).unwrap_or(0.5)
}

/// One action of the seat to act by its rollout policy; where the rules refuse it, the first
/// legal action instead. False when there is no legal action at all (the rollout ends).
#[inline]
fn play_policy<R: Rules, P: Rollout<R>>(p: &mut P, s: &mut R, legal: &mut Vec<R::Action>) -> bool {
    let a = p.act(s);
    if s.check(a).is_ok() {
        s.apply_unchecked(a);
        return true;
    }
    legal.clear();
    s.legal_actions(legal);
    match legal.first() {
        Some(&x) => {
            s.apply_unchecked(x);
            true
        }
        None => false,
    }
}

/// [`rollout`], abandoned (`None`) as soon as `stop` is set: checked before every action.
fn rollout_or_stop<R: Rules, K: Knowledge<R>>(
    k: &K,
    g: &R,
    actions: &[R::Action],
    me: Side,
    seed: u64,
    stratum: Option<u64>,
    stop: Option<&AtomicBool>,
) -> Option<f64> {
    let mut s = g.clone();
    let mut dice = Dice::new(seed);
    let mut first_die = stratum;
    for a in actions {
        if is_set(stop) {
            return None;
        }
        while s.to_act() == ToAct::Chance {
            roll(&mut s, &mut dice, &mut first_die);
        }
        if s.check(*a).is_err() {
            break;
        }
        s.apply_unchecked(*a);
    }
    let mut players: Vec<K::Policy> = (0..g.seats())
        .map(|i| k.policy(Side(i as u8), mix(seed, 11 + i as u64)))
        .collect();
    let mut legal = Vec::new();
    for _ in 0..k.max_rollout() {
        if is_set(stop) {
            return None;
        }
        match s.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => roll(&mut s, &mut dice, &mut first_die),
            ToAct::Side(side) => {
                if k.horizon_reached(g, &s, me) {
                    break;
                }
                let Some(p) = players.get_mut(side.0 as usize) else {
                    break;
                };
                if !play_policy(p, &mut s, &mut legal) {
                    break;
                }
            }
        }
    }
    Some(k.evaluate(&s, me))
}

/// Plays `actions` from the present position (chance events drawn before each), stopping at
/// the first the rules refuse; `None` when `stop` is set.
fn play_actions<R: Rules>(
    s: &mut R,
    dice: &mut Dice,
    first_die: &mut Option<u64>,
    actions: &[R::Action],
    stop: Option<&AtomicBool>,
) -> Option<()> {
    for a in actions {
        if is_set(stop) {
            return None;
        }
        while s.to_act() == ToAct::Chance {
            roll(s, dice, first_die);
        }
        if s.check(*a).is_err() {
            break;
        }
        s.apply_unchecked(*a);
    }
    Some(())
}

/// How a stretch of a rollout ended.
enum Stretch<A> {
    /// At the end (the game's, the horizon or the action bound): evaluate.
    End,
    /// At the opponent's decision, with its replies.
    Branch(Vec<Vec<A>>),
    /// Stopped by the flag.
    Stopped,
}

/// Plays on from `s` by the policies and the dice, at most `*steps` more actions, until the end
/// or, when `reply_seed` is given, the opponent's decision with two replies or more.
#[allow(clippy::too_many_arguments)]
fn play_on<R: Rules, K: Knowledge<R>>(
    k: &K,
    g: &R,
    s: &mut R,
    dice: &mut Dice,
    first_die: &mut Option<u64>,
    players: &mut [K::Policy],
    me: Side,
    steps: &mut usize,
    reply_seed: Option<u64>,
    stop: Option<&AtomicBool>,
) -> Stretch<R::Action> {
    let mut legal = Vec::new();
    let mut ask = reply_seed.is_some();
    while *steps > 0 {
        *steps -= 1;
        if is_set(stop) {
            return Stretch::Stopped;
        }
        match s.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => roll(s, dice, first_die),
            ToAct::Side(side) => {
                if k.horizon_reached(g, s, me) {
                    break;
                }
                if ask {
                    if let Some(replies) = k.replies(g, s, me, reply_seed.unwrap_or(0)) {
                        ask = false;
                        if replies.len() >= 2 {
                            *steps += 1;
                            return Stretch::Branch(replies);
                        }
                    }
                }
                let Some(p) = players.get_mut(side.0 as usize) else {
                    break;
                };
                if !play_policy(p, s, &mut legal) {
                    break;
                }
            }
        }
    }
    Stretch::End
}

/// A rollout of the reply search ([`Options::replies`]): `actions` and what follows, as in
/// [`rollout`], up to the opponent's decision ([`Knowledge::replies`]); from there, once per
/// reply on a copy of that position and of its dice (the same dice for every reply), the
/// reply's actions and then the policies, fresh and seeded alike for every reply, to the end.
/// One value per reply (a reply equal to an earlier one is not played again), or one value
/// when the rollout ended before the opponent's decision, and the continuations played.
/// `None` when `stop` is set.
fn rollout_replies<R: Rules, K: Knowledge<R>>(
    k: &K,
    g: &R,
    actions: &[R::Action],
    me: Side,
    seed: u64,
    stratum: Option<u64>,
    stop: Option<&AtomicBool>,
) -> Option<(Vec<f64>, u32)> {
    let mut s = g.clone();
    let mut dice = Dice::new(seed);
    let mut first_die = stratum;
    play_actions(&mut s, &mut dice, &mut first_die, actions, stop)?;
    let policies = |salt: u64| -> Vec<K::Policy> {
        (0..g.seats())
            .map(|i| k.policy(Side(i as u8), mix(seed, salt + i as u64)))
            .collect()
    };
    let mut players = policies(11);
    let mut steps = k.max_rollout();
    let replies = match play_on(
        k,
        g,
        &mut s,
        &mut dice,
        &mut first_die,
        &mut players,
        me,
        &mut steps,
        Some(mix(seed, 17)),
        stop,
    ) {
        Stretch::Stopped => return None,
        Stretch::End => return Some((vec![k.evaluate(&s, me)], 1)),
        Stretch::Branch(replies) => replies,
    };
    let mut values: Vec<f64> = Vec::with_capacity(replies.len());
    let mut played = 0;
    for (j, reply) in replies.iter().enumerate() {
        if let Some(i) = replies[..j].iter().position(|r| r == reply) {
            values.push(values[i]);
            continue;
        }
        let mut t = s.clone();
        let mut d = dice.clone();
        let mut fd = first_die;
        let mut left = steps;
        play_actions(&mut t, &mut d, &mut fd, reply, stop)?;
        let mut players = policies(1_011);
        match play_on(
            k,
            g,
            &mut t,
            &mut d,
            &mut fd,
            &mut players,
            me,
            &mut left,
            None,
            stop,
        ) {
            Stretch::Stopped => return None,
            _ => values.push(k.evaluate(&t, me)),
        }
        played += 1;
    }
    Some((values, played))
}

/// A computer player of any rules system: at each decision it searches the plug-in's
/// candidates with a simulation budget and plays the chosen one action by action (re-checking
/// each; a refused or interrupted plan is searched afresh).
pub struct MonteCarloPlayer<R: Rules, K> {
    knowledge: Arc<K>,
    seed: u64,
    sims: u32,
    workers: usize,
    decision_no: u64,
    /// The rest of the chosen plan and the seat it is for.
    pending: Vec<R::Action>,
    pending_seat: Option<Side>,
    simulations: u64,
    /// Set when the game is abandoned: decisions are then taken without searching.
    stop: Option<Arc<AtomicBool>>,
}

impl<R, K> MonteCarloPlayer<R, K>
where
    R: Rules + Send + Sync + 'static,
    R::Action: Send + Sync,
    K: Knowledge<R>,
{
    /// A player with a plug-in, a seed and a simulation budget per decision.
    pub fn new(knowledge: K, seed: u64, sims: u32) -> Self {
        MonteCarloPlayer {
            knowledge: Arc::new(knowledge),
            seed,
            sims,
            workers: cores(),
            decision_no: 0,
            pending: Vec::new(),
            pending_seat: None,
            simulations: 0,
            stop: None,
        }
    }

    /// Stops searching as soon as `flag` is set (from any thread): a search under way returns
    /// at once with what it has played (none: the first candidate), and later decisions take
    /// the first candidate without searching.
    pub fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Uses `n` workers (the result does not depend on it).
    pub fn with_workers(mut self, n: usize) -> Self {
        self.workers = n.max(1);
        self
    }

    /// Rollouts played so far.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// Chooses an action for the seat to act (`None` when no seat is to act or none is legal).
    pub fn choose(&mut self, g: &R) -> Option<R::Action> {
        let ToAct::Side(me) = g.to_act() else {
            return None;
        };
        if self.pending_seat == Some(me) && !self.pending.is_empty() {
            let a = self.pending.remove(0);
            if g.check(a).is_ok() {
                return Some(a);
            }
        }
        self.pending.clear();
        self.decision_no += 1;
        let seed = mix(self.seed, self.decision_no);
        let mut plans = self.knowledge.candidates(g, me, seed);
        plans.retain(|p| p.first().is_some_and(|a| g.check(*a).is_ok()));
        let best = if plans.len() > 1 && !is_set(self.stop.as_deref()) {
            let limits = Limits {
                sims: self.sims,
                deadline: None,
                workers: self.workers,
                stop: self.stop.clone(),
            };
            let v = search(&self.knowledge, g, me, &plans, seed, limits);
            self.simulations += v.simulations as u64;
            v.best
        } else {
            0
        };
        match plans.into_iter().nth(best) {
            Some(mut p) => {
                let a = p.remove(0);
                self.pending = p;
                self.pending_seat = Some(me);
                Some(a)
            }
            None => {
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                legal.into_iter().next()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_spec_names_its_rollouts() {
        assert_eq!(rollouts_of("search@200n", "search"), Some(200));
        assert_eq!(rollouts_of(" plans@8n ", "plans"), Some(8));
        assert_eq!(rollouts_of("plans@0n", "plans"), None);
        assert_eq!(rollouts_of("search@2s", "search"), None);
        assert_eq!(rollouts_of("plans@8n", "search"), None);
        assert_eq!(rollouts_of("search", "search"), None);
    }

    #[test]
    fn an_outcome_is_worth_one_to_its_winner_and_half_in_a_draw() {
        let o = |winner| engine::Outcome {
            winner,
            case: "",
            why: String::new(),
        };
        assert_eq!(outcome_value(&o(Some(Side(1))), Side(1)), 1.0);
        assert_eq!(outcome_value(&o(Some(Side(0))), Side(1)), 0.0);
        assert_eq!(outcome_value(&o(None), Side(0)), 0.5);
    }
}
