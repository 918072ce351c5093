//! Evaluations learned from play, over any rules system (this module names no rules crate).
//!
//! A rules system's knowledge implements [`Features`]: the feature vector of a position for a
//! side (quantities a player of that game would name), the final score of a finished game, and
//! the positions worth learning from. A [`Linear`] evaluation weighs the features and squashes
//! the sum to an expected score with the logistic function; its weights are data
//! ([`WeightsFile`], TOML), read at start and replaceable. The tuner fits them to the outcomes
//! of self-play games ([`self_play`], [`fit`]): a logistic regression of each sampled
//! position's final score on its features, that is temporal differences with λ = 1 (every
//! position learns from the game's end), regularised toward the starting weights. Everything
//! is deterministic for a seed: games are seeded from it and the sums run in a fixed order,
//! whatever the number of threads.

use crate::montecarlo::{mix, Rollout};
use engine::{Dice, Rules, Side, ToAct};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a rules system knows of its positions, for learning an evaluation.
pub trait Features<R>: Send + Sync {
    /// The names of the features, in the order [`Features::features`] writes them.
    fn names(&self) -> &'static [&'static str];
    /// Writes the feature vector of `g` for `me` into `out` (cleared first; one value per
    /// name).
    fn features(&self, g: &R, me: Side, out: &mut Vec<f64>);
    /// The score of `me` in a finished game (1 a win, 0 a loss, ½ a draw, or the system's own
    /// arena rule), `None` while it goes on.
    fn final_score(&self, g: &R, me: Side) -> Option<f64>;
    /// Where self-play samples: `Some(key)` in a stretch of play the evaluation is asked about
    /// (where a search's rollouts stop), `None` elsewhere; the first position of each new key
    /// is sampled (Napoleon at War: the start of each movement phase).
    fn sample_key(&self, g: &R) -> Option<u64>;
    /// The sign each feature's weight must have (one per name: 1 positive, −1 negative, 0
    /// either), by what the feature means to a player: a weight fitted with the other sign
    /// says that the side which wins in self-play also happens to do it, not that it helps,
    /// and would make the search seek it ([`fit_signed`]). All free by default.
    fn signs(&self) -> Vec<i8> {
        vec![0; self.names().len()]
    }
}

/// The weights of a linear evaluation as data: a TOML file, versioned, saying how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightsFile {
    /// Always `grognard-weights/1`.
    pub format: String,
    /// The rules system whose features these weigh (`naw`).
    pub system: String,
    /// Counts up each time the weights are refitted and committed.
    pub version: u32,
    /// How they were made (`outcomes`: logistic regression on self-play outcomes, `hand`).
    pub method: String,
    /// The command that reproduces them.
    pub command: String,
    /// The tuner's seed.
    pub seed: u64,
    /// Self-play games the fit used.
    pub games: u64,
    /// Positions the fit used.
    pub samples: u64,
    /// The mean log-loss of the starting and of the fitted weights on the held-out games
    /// (lower is better), as measured by the tuner.
    #[serde(default)]
    pub held_out_log_loss: Vec<f64>,
    /// The constant term of the logit.
    pub bias: f64,
    /// One weight per feature, by name; a feature missing here weighs 0.
    pub weights: BTreeMap<String, f64>,
    /// Weights of one side's own, by the side's number (`0` the scenario's first side): the
    /// evaluation of a position for that side uses them in place of the common ones above.
    /// Empty when the fit was common to every side.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sides: BTreeMap<String, SideWeights>,
    /// Weights of one scenario's own, by the scenario's id: the evaluation of a position of
    /// that scenario uses them (and their sides' own) in place of everything above. Empty when
    /// every scenario is evaluated alike.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scenarios: BTreeMap<String, ScenarioWeights>,
}

/// One scenario's own weights in a [`WeightsFile`], fitted to that scenario's games only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioWeights {
    /// Self-play games of the scenario the fit used.
    pub games: u64,
    /// Positions the fit used.
    pub samples: u64,
    /// The mean log-loss on the scenario's held-out positions of the starting weights and of
    /// the scenario's own.
    #[serde(default)]
    pub held_out_log_loss: Vec<f64>,
    /// The constant term of the logit.
    pub bias: f64,
    /// One weight per feature, by name; a feature missing here weighs 0.
    pub weights: BTreeMap<String, f64>,
    /// Weights of one side's own within the scenario, as [`WeightsFile::sides`].
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sides: BTreeMap<String, SideWeights>,
}

/// One side's own weights in a [`WeightsFile`], fitted to that side's positions only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideWeights {
    /// Positions of the side the fit used.
    pub samples: u64,
    /// The mean log-loss on the side's held-out positions of the common weights and of the
    /// side's own.
    #[serde(default)]
    pub held_out_log_loss: Vec<f64>,
    /// The constant term of the logit.
    pub bias: f64,
    /// One weight per feature, by name; a feature missing here weighs 0.
    pub weights: BTreeMap<String, f64>,
}

/// The format tag of [`WeightsFile`].
pub const WEIGHTS_FORMAT: &str = "grognard-weights/1";

impl WeightsFile {
    /// Parses a weights file.
    pub fn parse(text: &str) -> Result<WeightsFile, String> {
        let w: WeightsFile = toml::from_str(text).map_err(|e| format!("weights: {e}"))?;
        if w.format != WEIGHTS_FORMAT {
            return Err(format!(
                "weights: format '{}' is not '{WEIGHTS_FORMAT}'",
                w.format
            ));
        }
        Ok(w)
    }

    /// The file as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("weights serialize")
    }
}

/// A linear evaluation: `σ(bias + Σ wᵢ·xᵢ)`, the expected score of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// The constant term.
    pub bias: f64,
    /// One weight per feature, in the order of [`Features::names`].
    pub w: Vec<f64>,
}

impl Linear {
    /// The common weights of `file` in the order of `names`. A weight naming no feature is an
    /// error (weights from another version of the features); a feature with no weight weighs 0.
    pub fn from_file(file: &WeightsFile, names: &[&str]) -> Result<Linear, String> {
        Linear::from_map(file.bias, &file.weights, names, &file.system)
    }

    /// The weights of `by_name` in the order of `names` (see [`Linear::from_file`]).
    fn from_map(
        bias: f64,
        by_name: &BTreeMap<String, f64>,
        names: &[&str],
        system: &str,
    ) -> Result<Linear, String> {
        if let Some(k) = by_name.keys().find(|k| !names.contains(&k.as_str())) {
            return Err(format!("weights: '{k}' is not a feature of '{system}'"));
        }
        Ok(Linear {
            bias,
            w: names
                .iter()
                .map(|n| by_name.get(*n).copied().unwrap_or(0.0))
                .collect(),
        })
    }

    /// The weights by name, for a [`WeightsFile`].
    pub fn by_name(&self, names: &[&str]) -> BTreeMap<String, f64> {
        names
            .iter()
            .zip(&self.w)
            .map(|(n, w)| (n.to_string(), *w))
            .collect()
    }

    /// The logit of a feature vector.
    pub fn logit(&self, x: &[f64]) -> f64 {
        self.bias + self.w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>()
    }

    /// The expected score of a feature vector, in 0..=1.
    pub fn value(&self, x: &[f64]) -> f64 {
        sigmoid(self.logit(x))
    }
}

/// A learned evaluation as the search reads it: the common [`Linear`] weights, a side's own
/// where the file has them ([`WeightsFile::sides`]), and a scenario's own where the file has
/// them ([`WeightsFile::scenarios`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The weights of every side without its own.
    pub common: Linear,
    /// A side's own weights, by the side's number (`None`: the common ones).
    pub sides: Vec<Option<Linear>>,
    /// A scenario's own weights, by the scenario's id (their own `scenarios` are empty).
    pub scenarios: BTreeMap<String, Weights>,
}

impl Weights {
    /// The weights of `file` in the order of `names`: a weight naming no feature, or a side
    /// that is not a number, is an error.
    pub fn from_file(file: &WeightsFile, names: &[&str]) -> Result<Weights, String> {
        let mut w =
            Weights::from_parts(file.bias, &file.weights, &file.sides, names, &file.system)?;
        for (id, s) in &file.scenarios {
            let own = Weights::from_parts(s.bias, &s.weights, &s.sides, names, &file.system)
                .map_err(|e| format!("{e} (in scenario '{id}')"))?;
            w.scenarios.insert(id.clone(), own);
        }
        Ok(w)
    }

    /// The common weights and the sides' own of one level of a file.
    fn from_parts(
        bias: f64,
        weights: &BTreeMap<String, f64>,
        by_side: &BTreeMap<String, SideWeights>,
        names: &[&str],
        system: &str,
    ) -> Result<Weights, String> {
        let common = Linear::from_map(bias, weights, names, system)?;
        let mut sides: Vec<Option<Linear>> = Vec::new();
        for (k, s) in by_side {
            let i: u8 = k.parse().map_err(|_| {
                format!("weights: side '{k}' is not a side's number (0 the first side)")
            })?;
            let i = usize::from(i);
            if sides.len() <= i {
                sides.resize(i + 1, None);
            }
            sides[i] = Some(Linear::from_map(s.bias, &s.weights, names, system)?);
        }
        Ok(Weights {
            common,
            sides,
            scenarios: BTreeMap::new(),
        })
    }

    /// Reads a weights file from disk: the file as written, and its weights (see
    /// [`Weights::from_file`]).
    pub fn read(path: &std::path::Path, names: &[&str]) -> Result<(WeightsFile, Weights), String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let file = WeightsFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let w = Weights::from_file(&file, names).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((file, w))
    }

    /// The weights that evaluate positions for `me` in a scenario without its own.
    pub fn for_side(&self, me: Side) -> &Linear {
        match self.sides.get(usize::from(me.0)) {
            Some(Some(w)) => w,
            _ => &self.common,
        }
    }

    /// The weights that evaluate positions of the scenario `scenario` (its id) for `me`: the
    /// scenario's own where the file has them, else [`Weights::for_side`].
    pub fn for_position(&self, scenario: &str, me: Side) -> &Linear {
        self.scenarios.get(scenario).unwrap_or(self).for_side(me)
    }
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// One position learned from: its features for a side and that side's final score.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The side whose features and score these are.
    pub side: Side,
    /// The feature vector.
    pub x: Vec<f64>,
    /// The final score of the side (0..=1).
    pub y: f64,
}

/// Plays one game from `start` with `policy` for every seat (seeded per seat from `seed`),
/// chance events drawn by their weights from the dice of `seed`, and returns every sampled
/// position ([`Features::sample_key`]) for every seat with that seat's final score. A game cut
/// off at `max_actions` gives nothing.
pub fn self_play<R, P, F>(
    start: &R,
    seed: u64,
    policy: impl Fn(Side, u64) -> P,
    feats: &F,
    max_actions: usize,
) -> Vec<Sample>
where
    R: Rules,
    P: Rollout<R>,
    F: Features<R>,
{
    let mut g = start.clone();
    let mut dice = Dice::new(seed);
    let seats = g.seats();
    let mut players: Vec<P> = (0..seats)
        .map(|i| policy(Side(i as u8), mix(seed, 31 + i as u64)))
        .collect();
    let mut pending: Vec<(Side, Vec<f64>)> = Vec::new();
    let mut legal = Vec::new();
    let mut last_key: Option<u64> = None;
    for _ in 0..max_actions {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => match engine::draw_chance(&g, &mut dice) {
                Some(a) => g.apply_unchecked(a),
                None => break,
            },
            ToAct::Side(side) => {
                let key = feats.sample_key(&g);
                if key.is_some() && key != last_key {
                    for s in 0..seats {
                        let mut x = Vec::new();
                        feats.features(&g, Side(s as u8), &mut x);
                        pending.push((Side(s as u8), x));
                    }
                }
                last_key = key;
                let a = players[side.0 as usize].act(&g);
                if g.check(a).is_ok() {
                    g.apply_unchecked(a);
                } else {
                    legal.clear();
                    g.legal_actions(&mut legal);
                    match legal.first() {
                        Some(&x) => g.apply_unchecked(x),
                        None => break,
                    }
                }
            }
        }
    }
    if !matches!(g.to_act(), ToAct::Over(_)) {
        return Vec::new();
    }
    pending
        .into_iter()
        .filter_map(|(side, x)| feats.final_score(&g, side).map(|y| Sample { side, x, y }))
        .collect()
}

/// The mean log-loss (cross-entropy) of an evaluation on samples: lower is better; ln 2 ≈ 0.693
/// for an evaluation that always says ½.
pub fn log_loss(model: &Linear, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let eps = 1e-12;
    samples
        .iter()
        .map(|s| {
            let p = model.value(&s.x).clamp(eps, 1.0 - eps);
            -(s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// Fits a linear evaluation to samples: minimises the mean log-loss plus `l2/2 · |θ − θ₀|²`
/// (θ the bias and the weights, θ₀ those of `prior`) by Newton's method (at most `iterations`
/// steps, halved while a step does not lower the objective). Deterministic: every sum runs in
/// the samples' order.
pub fn fit(prior: &Linear, samples: &[Sample], l2: f64, iterations: usize) -> Linear {
    fit_masked(prior, samples, l2, iterations, &vec![true; prior.w.len()])
}

/// [`fit`] with each weight held to the sign given (`signs`, one per weight: 1, −1 or 0 for
/// either): a weight fitted with the wrong sign is set to 0 and the others refitted, until
/// none is wrong (an active set: at most one refit per weight).
pub fn fit_signed(
    prior: &Linear,
    samples: &[Sample],
    l2: f64,
    iterations: usize,
    signs: &[i8],
) -> Linear {
    let mut start = prior.clone();
    let mut free = vec![true; prior.w.len()];
    for (i, &s) in signs.iter().enumerate() {
        if s != 0 && start.w[i] * s as f64 <= 0.0 {
            start.w[i] = 0.0;
        }
    }
    loop {
        let m = fit_masked(&start, samples, l2, iterations, &free);
        let wrong: Vec<usize> = (0..m.w.len())
            .filter(|&i| free[i] && signs.get(i).is_some_and(|&s| m.w[i] * (s as f64) < 0.0))
            .collect();
        if wrong.is_empty() {
            return m;
        }
        for i in wrong {
            free[i] = false;
            start.w[i] = 0.0;
        }
    }
}

/// [`fit`] over the weights marked `free`; the others keep the prior's value.
fn fit_masked(
    prior: &Linear,
    samples: &[Sample],
    l2: f64,
    iterations: usize,
    free: &[bool],
) -> Linear {
    let d = prior.w.len() + 1;
    let is_free = |i: usize| i == 0 || free[i - 1];
    let theta0: Vec<f64> = std::iter::once(prior.bias)
        .chain(prior.w.iter().copied())
        .collect();
    let model_of = |t: &[f64]| Linear {
        bias: t[0],
        w: t[1..].to_vec(),
    };
    let objective = |t: &[f64]| {
        let reg: f64 = t.iter().zip(&theta0).map(|(a, b)| (a - b) * (a - b)).sum();
        log_loss(&model_of(t), samples) + 0.5 * l2 * reg
    };
    let n = samples.len().max(1) as f64;
    let mut theta = theta0.clone();
    let mut current = objective(&theta);
    for _ in 0..iterations {
        let m = model_of(&theta);
        let mut grad = vec![0.0; d];
        let mut hess = vec![vec![0.0; d]; d];
        for s in samples {
            let p = m.value(&s.x);
            let r = p - s.y;
            let v = p * (1.0 - p);
            let xi = |i: usize| if i == 0 { 1.0 } else { s.x[i - 1] };
            for i in 0..d {
                let a = xi(i);
                grad[i] += r * a / n;
                for j in 0..=i {
                    hess[i][j] += v * a * xi(j) / n;
                }
            }
        }
        for i in 0..d {
            grad[i] += l2 * (theta[i] - theta0[i]);
            hess[i][i] += l2 + 1e-9;
            for j in 0..i {
                hess[j][i] = hess[i][j];
            }
        }
        // the held weights do not move
        for i in (0..d).filter(|&i| !is_free(i)) {
            grad[i] = 0.0;
            for j in 0..d {
                hess[i][j] = 0.0;
                hess[j][i] = 0.0;
            }
            hess[i][i] = 1.0;
        }
        let Some(step) = solve(hess, grad) else { break };
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let cand: Vec<f64> = theta.iter().zip(&step).map(|(a, s)| a - t * s).collect();
            let o = objective(&cand);
            if o < current {
                theta = cand;
                improved = current - o > 1e-12;
                current = o;
                break;
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
    }
    model_of(&theta)
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-15 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            if f != 0.0 {
                for k in c..n {
                    a[r][k] -= f * a[c][k];
                }
                b[r] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_known_logistic_model() {
        // y = σ(0.5 + 2·x0 − 1·x1), soft labels: the fit finds the weights
        let truth = Linear {
            bias: 0.5,
            w: vec![2.0, -1.0],
        };
        let mut dice = Dice::new(3);
        let samples: Vec<Sample> = (0..400)
            .map(|_| {
                let x = vec![
                    dice.draw(&[1; 100]).unwrap() as f64 / 50.0 - 1.0,
                    dice.draw(&[1; 100]).unwrap() as f64 / 50.0 - 1.0,
                ];
                Sample {
                    side: Side(0),
                    y: truth.value(&x),
                    x,
                }
            })
            .collect();
        let prior = Linear {
            bias: 0.0,
            w: vec![0.0, 0.0],
        };
        let m = fit(&prior, &samples, 0.0, 50);
        assert!((m.bias - 0.5).abs() < 1e-4, "{m:?}");
        assert!((m.w[0] - 2.0).abs() < 1e-4, "{m:?}");
        assert!((m.w[1] + 1.0).abs() < 1e-4, "{m:?}");
        assert!(log_loss(&m, &samples) < log_loss(&prior, &samples));
        // a strong prior holds the weights near their start
        let held = fit(&prior, &samples, 100.0, 50);
        assert!(held.w[0].abs() < 0.1, "{held:?}");
        // a weight held to the wrong sign is 0, the other refitted
        let signed = fit_signed(&prior, &samples, 0.0, 50, &[0, 1]);
        assert_eq!(signed.w[1], 0.0);
        assert!(signed.w[0] > 1.0, "{signed:?}");
    }

    #[test]
    fn sigmoid_is_stable() {
        assert_eq!(sigmoid(0.0), 0.5);
        assert!(sigmoid(800.0) == 1.0 && sigmoid(-800.0) == 0.0);
        assert!((sigmoid(1.0) + sigmoid(-1.0) - 1.0).abs() < 1e-15);
    }
}
