//! The rating ladder: computer players (levels, by spec) play each other on a set of scenarios
//! as both sides, and are rated on the Elo scale with confidence intervals.
//!
//! Generic over the rules systems: the games are played by an [`Arena`] (for any system,
//! [`DynArena`] over [`engine::dynamic`] games and [`play_any`]; a system may bring its own,
//! with its own arena score), and the rating needs only who met whom and the points.
//!
//! **The schedule** ([`fixtures`]): every two levels meet on every scenario, each level playing
//! each side, `games` times (a *round*). A game's seed is derived from the base seed, the
//! scenario and the two specs, not from the levels' positions in the list: adding a level to a
//! ladder leaves the games of the others as they were. Games between players with simulation
//! budgets are played in parallel; a game with a player that thinks by the clock is played
//! alone, after the others, so that its strength does not depend on the load.
//!
//! **The rating** ([`rate`]): the maximum-likelihood Bradley-Terry model on the Elo scale, as
//! Ordo and BayesElo fit it: the expected score of *i* against *j* is
//! `1 / (1 + 10^((Rj - Ri) / 400))`, a draw counts half a point (fractional scores enter the
//! likelihood as `s·ln p + (1 - s)·ln(1 - p)`), and `prior` virtual draws between every two
//! levels that met (BayesElo's prior) keep a pairing won every time finite. The ratings are
//! fitted by Newton's method on the log-likelihood, one level fixed at the anchor's Elo; the
//! 95% confidence interval of each is ±1.96 standard errors from the curvature of the
//! log-likelihood at its maximum (the inverse of the observed information), relative to the
//! anchor (whose own interval is 0).

use crate::any::play_any;
use engine::dynamic::{DynGame, DynPlayer};
use rayon::prelude::*;

/// Where the ladder's games are played: a rules system's games, its players and the arena
/// score of a finished game.
pub trait Arena: Sync {
    /// Checks a player spec (`Err` says why, naming the available players).
    fn check(&self, spec: &str) -> Result<(), String>;
    /// True when the player of `spec` thinks by the clock: its games are played one at a time.
    fn thinks_by_the_clock(&self, _spec: &str) -> bool {
        false
    }
    /// Plays one game of `scenario` from `seed`, `players[0]` on its first side: the arena score
    /// of each side (a win 1, a loss 0, a draw ½, or the system's own tie-break; the two add
    /// up to 1).
    fn play(&self, scenario: &str, players: [&str; 2], seed: u64) -> Result<[f64; 2], String>;
}

/// The generic arena: games made by `new_game(scenario, seed)`, players by
/// `player(spec, seed)`, played by [`play_any`] (two seats), scored a win 1, a draw or a game
/// cut off at `max_actions` ½ each.
pub struct DynArena<G, P> {
    /// Makes a game of a scenario with a seed for its record's dice.
    pub new_game: G,
    /// Makes a player of a spec with a seed of its own.
    pub player: P,
    /// The bound on a game's actions.
    pub max_actions: usize,
}

impl<G, P> Arena for DynArena<G, P>
where
    G: Fn(&str, u64) -> Result<Box<dyn DynGame>, String> + Sync,
    P: Fn(&str, u64) -> Result<Box<dyn DynPlayer>, String> + Sync,
{
    fn check(&self, spec: &str) -> Result<(), String> {
        (self.player)(spec, 0).map(|_| ())
    }

    fn play(&self, scenario: &str, players: [&str; 2], seed: u64) -> Result<[f64; 2], String> {
        let mut g = (self.new_game)(scenario, seed)?;
        if g.seats().len() != 2 {
            return Err(format!(
                "{scenario}: the ladder rates two-seat games ({} seats)",
                g.seats().len()
            ));
        }
        let mut ps = vec![
            (self.player)(players[0], mix(seed, 1))?,
            (self.player)(players[1], mix(seed, 2))?,
        ];
        let r = play_any(g.as_mut(), &mut ps, self.max_actions);
        Ok(match r.outcome.and_then(|o| o.winner) {
            Some(w) if w.0 == 0 => [1.0, 0.0],
            Some(_) => [0.0, 1.0],
            None => [0.5, 0.5],
        })
    }
}

pub use engine::mix;

/// What a ladder plays.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The levels, by player spec.
    pub players: Vec<String>,
    /// The scenarios.
    pub scenarios: Vec<String>,
    /// Games per pairing, scenario and side (rounds).
    pub games: usize,
    /// The base seed.
    pub seed: u64,
}

/// One game of a ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The scenario, an index into [`Plan::scenarios`].
    pub scenario: usize,
    /// The levels on the first and the second side, indices into [`Plan::players`].
    pub seats: [usize; 2],
    /// The round, from 0.
    pub round: usize,
    /// The game's seed.
    pub seed: u64,
}

/// A game played: its fixture and each side's arena score.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// The game.
    pub fixture: Fixture,
    /// The arena score of the first and the second side.
    pub score: [f64; 2],
}

/// The games of a plan: for every scenario, every two levels, each on each side, `games`
/// rounds. The seed of a game depends on the base seed, the scenario, the two specs in seat
/// order and the round only.
pub fn fixtures(plan: &Plan) -> Vec<Fixture> {
    let mut out = Vec::new();
    let n = plan.players.len();
    for (s, scenario) in plan.scenarios.iter().enumerate() {
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                for round in 0..plan.games {
                    let key = format!(
                        "{scenario}\n{}\n{}\n{round}",
                        plan.players[i].trim(),
                        plan.players[j].trim()
                    );
                    out.push(Fixture {
                        scenario: s,
                        seats: [i, j],
                        round,
                        seed: mix(plan.seed, engine::hash_bytes(key.as_bytes())),
                    });
                }
            }
        }
    }
    out
}

/// Plays a plan's games: those between players with simulation budgets on `jobs` threads at
/// once (0: every core), then those with a player that thinks by the clock one at a time.
/// `progress` is called after each game. The games come back in [`fixtures`] order, and the
/// same plan gives the same scores whatever `jobs` is (for players whose budgets are
/// simulations).
pub fn play<A: Arena + ?Sized>(
    arena: &A,
    plan: &Plan,
    jobs: usize,
    progress: &(dyn Fn(&Played) + Sync),
) -> Result<Vec<Played>, String> {
    if plan.players.len() < 2 {
        return Err("a ladder needs two players at least".into());
    }
    if plan.scenarios.is_empty() {
        return Err("a ladder needs a scenario".into());
    }
    for (i, p) in plan.players.iter().enumerate() {
        arena.check(p)?;
        if plan.players[..i].iter().any(|q| q.trim() == p.trim()) {
            return Err(format!("'{p}' is listed twice"));
        }
    }
    let all = fixtures(plan);
    let clock: Vec<bool> = plan
        .players
        .iter()
        .map(|p| arena.thinks_by_the_clock(p))
        .collect();
    let by_clock = |f: &Fixture| clock[f.seats[0]] || clock[f.seats[1]];
    let one = |f: &Fixture| -> Result<Played, String> {
        let players = [
            plan.players[f.seats[0]].as_str(),
            plan.players[f.seats[1]].as_str(),
        ];
        let score = arena.play(&plan.scenarios[f.scenario], players, f.seed)?;
        let p = Played { fixture: *f, score };
        progress(&p);
        Ok(p)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start {jobs} worker threads: {e}"))?;
    // the games in fixture order: the parallel ones as rayon collects them (in order), then
    // the clock games, put back in their places
    let (clocked, parallel): (Vec<usize>, Vec<usize>) =
        (0..all.len()).partition(|&k| by_clock(&all[k]));
    let mut played: Vec<(usize, Played)> = pool.install(|| {
        parallel
            .par_iter()
            .map(|&k| one(&all[k]).map(|p| (k, p)))
            .collect::<Result<_, _>>()
    })?;
    for k in clocked {
        played.push((k, one(&all[k])?));
    }
    played.sort_by_key(|(k, _)| *k);
    let played: Vec<Played> = played.into_iter().map(|(_, p)| p).collect();
    Ok(played)
}

/// One game's result for the rating: `first` scored `score` (1 a win, ½ a draw) against
/// `second`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameScore {
    /// A level, by index.
    pub first: usize,
    /// Its opponent.
    pub second: usize,
    /// The first's points, 0..=1 (the second's are `1 - score`).
    pub score: f64,
}

impl Played {
    /// The game as a result between its two levels (the first side's score).
    pub fn game_score(&self) -> GameScore {
        GameScore {
            first: self.fixture.seats[0],
            second: self.fixture.seats[1],
            score: self.score[0],
        }
    }
}

/// How the ratings are fixed and regularised.
#[derive(Clone, Copy, Debug)]
pub struct RatingOptions {
    /// The level whose rating is fixed.
    pub anchor: usize,
    /// Its rating.
    pub anchor_elo: f64,
    /// Virtual draws added between every two levels that met (BayesElo's prior): with 0 a
    /// pairing won every time has no finite maximum.
    pub prior: f64,
}

impl Default for RatingOptions {
    /// Level 0 at 0, one virtual draw per pairing.
    fn default() -> RatingOptions {
        RatingOptions {
            anchor: 0,
            anchor_elo: 0.0,
            prior: 1.0,
        }
    }
}

/// One level's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Games played.
    pub games: usize,
    /// Points scored (a win 1, a draw ½).
    pub points: f64,
    /// The rating on the Elo scale.
    pub elo: f64,
    /// The half-width of its 95% confidence interval, relative to the anchor (0 for the
    /// anchor).
    pub ci95: f64,
}

impl Rating {
    /// The score rate, points per game (0 with no game).
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points / self.games as f64
        }
    }
}

/// Two levels' games against each other.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pairing {
    /// Games between them.
    pub games: usize,
    /// The row level's points in them.
    pub points: f64,
}

/// Every level's rating and the pairwise scores.
#[derive(Clone, Debug)]
pub struct Ratings {
    /// By level, in the order given.
    pub ratings: Vec<Rating>,
    /// `pairwise[i][j]`: level `i`'s games and points against level `j`.
    pub pairwise: Vec<Vec<Pairing>>,
    /// The options the ratings were fitted with.
    pub options: RatingOptions,
}

/// Elo points per natural unit of the logistic's argument (400 / ln 10).
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The expected score of a level rated `elo_a` against one rated `elo_b`.
pub fn expected(elo_a: f64, elo_b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((elo_b - elo_a) / 400.0))
}

/// Rates `n` levels from their games (see the module's doc): fails when a level is not
/// connected to the anchor by games (its rating would be undetermined) or a score is out of
/// 0..=1.
pub fn rate(n: usize, games: &[GameScore], opt: RatingOptions) -> Result<Ratings, String> {
    if opt.anchor >= n {
        return Err(format!(
            "the anchor {} is not one of {n} levels",
            opt.anchor
        ));
    }
    let mut pairwise = vec![vec![Pairing::default(); n]; n];
    for g in games {
        if g.first >= n || g.second >= n || g.first == g.second {
            return Err(format!(
                "a game between levels {} and {}",
                g.first, g.second
            ));
        }
        if !(0.0..=1.0).contains(&g.score) {
            return Err(format!("a score of {} (0 to 1)", g.score));
        }
        let (a, b) = (g.first, g.second);
        pairwise[a][b].games += 1;
        pairwise[a][b].points += g.score;
        pairwise[b][a].games += 1;
        pairwise[b][a].points += 1.0 - g.score;
    }
    // the data with the prior: games `nn` and points `w` per ordered pair
    let mut nn = vec![vec![0.0; n]; n];
    let mut w = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let p = pairwise[i][j];
            if p.games > 0 {
                nn[i][j] = p.games as f64 + opt.prior;
                w[i][j] = p.points + opt.prior / 2.0;
            }
        }
    }
    // connected to the anchor
    let mut seen = vec![false; n];
    let mut stack = vec![opt.anchor];
    seen[opt.anchor] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if !seen[j] && nn[i][j] > 0.0 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!(
            "level {i} is not connected to the anchor by games: its rating is undetermined"
        ));
    }
    let loglik = |t: &[f64]| -> f64 {
        let mut l = 0.0;
        for i in 0..n {
            for j in 0..n {
                if nn[i][j] > 0.0 && w[i][j] > 0.0 {
                    l += w[i][j] * log_sigmoid(t[i] - t[j]);
                }
            }
        }
        l
    };
    // the free levels (all but the anchor) and the observed information over them
    let free: Vec<usize> = (0..n).filter(|&i| i != opt.anchor).collect();
    let information = |t: &[f64]| -> Vec<Vec<f64>> {
        let mut m = vec![vec![0.0; free.len()]; free.len()];
        for (a, &i) in free.iter().enumerate() {
            for j in 0..n {
                if j == i || nn[i][j] == 0.0 {
                    continue;
                }
                let p = sigmoid(t[i] - t[j]);
                let c = nn[i][j] * p * (1.0 - p);
                m[a][a] += c;
                if let Some(b) = free.iter().position(|&x| x == j) {
                    m[a][b] -= c;
                }
            }
        }
        m
    };
    let mut t = vec![0.0; n];
    for _ in 0..200 {
        let grad: Vec<f64> = free
            .iter()
            .map(|&i| {
                (0..n)
                    .filter(|&j| j != i && nn[i][j] > 0.0)
                    .map(|j| w[i][j] - nn[i][j] * sigmoid(t[i] - t[j]))
                    .sum()
            })
            .collect();
        let step = solve(information(&t), grad)?;
        let l0 = loglik(&t);
        let mut k = 1.0;
        let mut moved = 0.0f64;
        for _ in 0..60 {
            let mut t1 = t.clone();
            for (a, &i) in free.iter().enumerate() {
                t1[i] += k * step[a];
            }
            if loglik(&t1) >= l0 - 1e-12 {
                moved = step.iter().map(|s| (k * s).abs()).fold(0.0, f64::max);
                t = t1;
                break;
            }
            k /= 2.0;
        }
        if moved < 1e-10 {
            break;
        }
    }
    let m = information(&t);
    let mut ci = vec![0.0; n];
    for (a, &i) in free.iter().enumerate() {
        let mut e = vec![0.0; free.len()];
        e[a] = 1.0;
        let col = solve(m.clone(), e)?;
        ci[i] = 1.959_963_984_540_054 * col[a].max(0.0).sqrt() * ELO;
    }
    let ratings = (0..n)
        .map(|i| {
            let (games, points) = pairwise[i]
                .iter()
                .fold((0, 0.0), |(g, p), x| (g + x.games, p + x.points));
            Rating {
                games,
                points,
                elo: opt.anchor_elo + (t[i] - t[opt.anchor]) * ELO,
                ci95: ci[i],
            }
        })
        .collect();
    Ok(Ratings {
        ratings,
        pairwise,
        options: opt,
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln sigmoid(x)`, exact for large |x|.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Solves `m x = b` for a symmetric positive definite `m` (Gaussian elimination with partial
/// pivoting).
fn solve(mut m: Vec<Vec<f64>>, mut b: Vec<f64>) -> Result<Vec<f64>, String> {
    let k = b.len();
    for c in 0..k {
        let p = (c..k)
            .max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))
            .unwrap_or(c);
        if m[p][c].abs() < 1e-300 {
            return Err("the ratings are undetermined (a singular information matrix)".into());
        }
        m.swap(c, p);
        b.swap(c, p);
        for r in c + 1..k {
            let f = m[r][c] / m[c][c];
            if f != 0.0 {
                for x in c..k {
                    m[r][x] -= f * m[c][x];
                }
                b[r] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; k];
    for r in (0..k).rev() {
        let s: f64 = (r + 1..k).map(|c| m[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / m[r][r];
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_solves() {
        let x = solve(vec![vec![4.0, 1.0], vec![1.0, 3.0]], vec![1.0, 2.0]).unwrap();
        assert!((x[0] - 1.0 / 11.0).abs() < 1e-12 && (x[1] - 7.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn log_sigmoid_is_stable() {
        assert!((log_sigmoid(0.0) - 0.5f64.ln()).abs() < 1e-15);
        assert!(log_sigmoid(800.0) <= 0.0 && log_sigmoid(800.0) > -1e-300);
        assert!((log_sigmoid(-800.0) + 800.0).abs() < 1e-9);
    }
}
