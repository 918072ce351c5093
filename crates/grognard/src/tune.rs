//! `grognard tune`: fits the weights of the learned evaluation (the level `search2`) to the
//! outcomes of self-play games, and writes them as data (`crates/ai/weights/naw.toml`).
//!
//! Napoleon at War's own (its features, and its computer players play the games: the
//! heuristic unless `--players` names another); the fit itself is the generic `ai::learn`.

use crate::show::load_scenario;
use ai::features::{NawFeatures, NAMES};
use ai::learn::{
    fit_signed, log_loss, self_play, Features, Linear, Sample, ScenarioWeights, SideWeights,
    Weights, WeightsFile, WEIGHTS_FORMAT,
};
use ai::montecarlo::Rollout;
use ai::Player;
use anyhow::{bail, Result};
use engine::{Rules, Side};
use grognard::util::{mix, write_atomically};
use naw::Game;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

/// The options of `grognard tune`.
pub struct TuneArgs {
    pub method: String,
    /// The player spec of every seat of the self-play games (`heuristic`, `search4@300n`, ...).
    pub players: String,
    pub games: usize,
    pub seed: u64,
    pub scenarios: String,
    pub l2: f64,
    pub jobs: Option<usize>,
    pub version: u32,
    pub out: Option<PathBuf>,
    /// A weights file the learned levels playing the games read (`--weights`).
    pub weights: Option<PathBuf>,
    /// The sides, by number, that get weights of their own (`--own-sides`).
    pub own_sides: Vec<u8>,
    /// Each scenario gets weights of its own, written into a copy of the weights the games
    /// are played with (`--own-scenarios`).
    pub own_scenarios: bool,
}

/// The positions of one self-play game: of which scenario (its index in `--scenarios`),
/// whether held out, and the samples.
pub struct Played {
    pub scenario: usize,
    pub held: bool,
    pub samples: Vec<Sample>,
}

/// The starting weights: today's evaluation (`base` = 1, everything else 0).
fn prior() -> Linear {
    let mut w = vec![0.0; NAMES.len()];
    w[0] = 1.0;
    Linear { bias: 0.0, w }
}

/// A seat of a self-play game: any computer player, as the learner's rollout policy.
struct Seat(Box<dyn Player>);

impl Rollout<Game> for Seat {
    fn act(&mut self, g: &Game) -> naw::Action {
        self.0.choose(g)
    }
}

/// Self-play games: `games` per scenario, by the player `players` on both sides; the
/// positions of every fifth game are held out of the fit and measure it. Deterministic for a
/// seed when the player is (a simulation budget, not a thinking time). Returns the
/// scenarios' ids and the games.
pub fn samples(args: &TuneArgs) -> Result<(Vec<String>, Vec<Played>)> {
    if ai::thinks_by_the_clock(&args.players) {
        bail!(
            "--players '{}' thinks by the clock: give the search a simulation budget \
             (e.g. search4@300n) so that the same seed gives the same weights",
            args.players
        );
    }
    let weights = match &args.weights {
        Some(p) => Some(Arc::new(read_weights(p)?.1)),
        None => None,
    };
    ai::player(&args.players, 0).map_err(anyhow::Error::msg)?;
    let ids = scenario_ids(&args.scenarios);
    let unshipped = ids.iter().find(|id| !shipped(id));
    if let (true, Some(id)) = (args.own_scenarios, unshipped) {
        bail!(
            "--own-scenarios: '{id}' is not a shipped scenario (the learned levels read a \
             scenario's own weights by its id: give the id of a shipped scenario)"
        );
    }
    let mut starts = Vec::new();
    for id in &ids {
        starts.push(Game::from_arc(Arc::new(load_scenario(id)?)));
    }
    if starts.is_empty() {
        bail!("--scenarios names no scenario");
    }
    let seats = starts.iter().map(|g| g.seats()).min().unwrap_or(0);
    if let Some(k) = args.own_sides.iter().find(|&&k| usize::from(k) >= seats) {
        bail!(
            "--own-sides: side {k} is not one of the scenarios' sides (0 to {}; 0 the first)",
            seats.saturating_sub(1)
        );
    }
    let jobs: Vec<(usize, usize)> = (0..starts.len())
        .flat_map(|s| (0..args.games).map(move |i| (s, i)))
        .collect();
    let play = |&(s, i): &(usize, usize)| {
        let seed = mix(args.seed, (s as u64) << 32 | i as u64);
        let out = self_play(
            &starts[s],
            seed,
            |_, sd| {
                Seat(ai::player_with(&args.players, sd, weights.clone()).expect("checked above"))
            },
            &NawFeatures,
            1_000_000,
        );
        Played {
            scenario: s,
            held: i % 5 == 4,
            samples: out,
        }
    };
    let games: Vec<Played> = match args.jobs {
        Some(j) => rayon::ThreadPoolBuilder::new()
            .num_threads(j.max(1))
            .build()?
            .install(|| jobs.par_iter().map(play).collect()),
        None => jobs.par_iter().map(play).collect(),
    };
    Ok((ids, games))
}

/// Reads the weights file of `--weights`: the file as written and its weights. A scenario's
/// own weights must name a shipped scenario (weights nobody would read are a mistake).
pub fn read_weights(p: &std::path::Path) -> Result<(WeightsFile, Weights)> {
    let (file, w) = Weights::read(p, NAMES).map_err(|e| anyhow::anyhow!("--weights: {e}"))?;
    if let Some(id) = file.scenarios.keys().find(|id| !shipped(id)) {
        bail!(
            "--weights: {}: scenario '{id}' is not a shipped scenario",
            p.display()
        );
    }
    Ok((file, w))
}

/// Whether `id` is a shipped scenario's.
fn shipped(id: &str) -> bool {
    scenarios::SCENARIOS.iter().any(|s| s.id == id)
}

/// The ids of `--scenarios`, in order.
fn scenario_ids(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// One fit: the common weights of the games' positions and the listed sides' own.
struct Fit {
    train: usize,
    held: usize,
    /// Held-out log-loss of today's evaluation and of the fitted weights.
    before: f64,
    after: f64,
    fitted: Linear,
    sides: BTreeMap<String, SideWeights>,
}

/// Fits the games for which `keep` holds: the common weights from today's evaluation, then
/// each of `own_sides`' own pulled toward them.
fn fit_games(games: &[Played], keep: impl Fn(&Played) -> bool, own_sides: &[u8], l2: f64) -> Fit {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for p in games.iter().filter(|p| keep(p)) {
        if p.held {
            held.extend(p.samples.iter().cloned());
        } else {
            train.extend(p.samples.iter().cloned());
        }
    }
    let start = prior();
    let signs = NawFeatures.signs();
    let fitted = fit_signed(&start, &train, l2, 30, &signs);
    // each side's own weights, fitted to its positions alone and pulled toward the common ones
    let mut sides = BTreeMap::new();
    for &k in own_sides {
        let of = |v: &[Sample]| -> Vec<Sample> {
            v.iter().filter(|s| s.side == Side(k)).cloned().collect()
        };
        let (t, h) = (of(&train), of(&held));
        let own = fit_signed(&fitted, &t, l2, 30, &signs);
        sides.insert(
            k.to_string(),
            SideWeights {
                samples: t.len() as u64,
                held_out_log_loss: vec![round6(log_loss(&fitted, &h)), round6(log_loss(&own, &h))],
                bias: own.bias,
                weights: own.by_name(NAMES),
            },
        );
    }
    Fit {
        train: train.len(),
        held: held.len(),
        before: log_loss(&start, &held),
        after: log_loss(&fitted, &held),
        fitted,
        sides,
    }
}

/// A fit's lines of the report: its log-losses and a column of weights for the common ones
/// and each side's own.
fn report_fit(r: &mut String, fit: &Fit) {
    let _ = writeln!(
        r,
        "held-out log-loss: {:.4} with today's evaluation, {:.4} fitted (ln 2 = 0.6931)",
        fit.before, fit.after
    );
    for (k, s) in &fit.sides {
        let _ = writeln!(
            r,
            "side {k}: held-out log-loss {:.4} with the common weights, {:.4} with its own",
            s.held_out_log_loss[0], s.held_out_log_loss[1]
        );
    }
    let mut columns = vec![(fit.fitted.bias, fit.fitted.by_name(NAMES))];
    let _ = write!(r, "  {:<22} {:>9}", "", "common");
    for (k, s) in &fit.sides {
        let _ = write!(r, " {:>9}", format!("side {k}"));
        columns.push((s.bias, s.weights.clone()));
    }
    let _ = writeln!(r);
    let _ = write!(r, "  {:<22}", "bias");
    for (b, _) in &columns {
        let _ = write!(r, " {b:>9.3}");
    }
    let _ = writeln!(r);
    for n in NAMES {
        let _ = write!(r, "  {n:<22}");
        for (_, w) in &columns {
            let _ = write!(r, " {:>9.3}", w[*n]);
        }
        let _ = writeln!(r);
    }
}

/// Runs the tuner and returns its report; writes the weights file when `out` is given.
pub fn tune(args: TuneArgs) -> Result<String> {
    if args.method != "outcomes" {
        bail!(
            "unknown method '{}' (available: outcomes, the logistic regression of self-play \
             outcomes on the features)",
            args.method
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut own_sides = args.own_sides.clone();
    own_sides.sort_unstable();
    own_sides.dedup();
    // the file the scenarios' own weights are written into: the one the games are played with
    let base = if args.own_scenarios {
        Some(match &args.weights {
            Some(p) => read_weights(p)?.0,
            None => WeightsFile::parse(ai::features::NAW_WEIGHTS).map_err(anyhow::Error::msg)?,
        })
    } else {
        None
    };
    let (ids, games) = samples(&args)?;
    let mut command = format!(
        "grognard tune --method {} --players {} --games {} --seed {} --scenarios {} --l2 {} \
         --version {}",
        args.method, args.players, args.games, args.seed, args.scenarios, args.l2, args.version
    );
    if let Some(w) = &args.weights {
        let _ = write!(command, " --weights {}", w.display());
    }
    if !own_sides.is_empty() {
        let list: Vec<String> = own_sides.iter().map(u8::to_string).collect();
        let _ = write!(command, " --own-sides {}", list.join(","));
    }
    if args.own_scenarios {
        command.push_str(" --own-scenarios");
    }
    if let Some(o) = &args.out {
        let _ = write!(command, " --out {}", o.display());
    }
    let mut r = String::new();
    let file = match base {
        None => {
            let fit = fit_games(&games, |_| true, &own_sides, args.l2);
            let _ = writeln!(
                r,
                "fitted {} weights on {} positions ({} held out) of {} self-play games of {}",
                NAMES.len() + 1,
                fit.train,
                fit.held,
                games.len(),
                args.players
            );
            report_fit(&mut r, &fit);
            WeightsFile {
                format: WEIGHTS_FORMAT.into(),
                system: "naw".into(),
                version: args.version,
                method: args.method.clone(),
                command,
                seed: args.seed,
                games: games.len() as u64,
                samples: fit.train as u64,
                held_out_log_loss: vec![round6(fit.before), round6(fit.after)],
                bias: fit.fitted.bias,
                weights: fit.fitted.by_name(NAMES),
                sides: fit.sides,
                scenarios: BTreeMap::new(),
            }
        }
        // each scenario's own weights are fitted to its games alone; the rest of the file (the
        // common weights and the sides' own, with how they were made) is kept as it was
        Some(mut file) => {
            for (s, id) in ids.iter().enumerate() {
                let fit = fit_games(&games, |p| p.scenario == s, &own_sides, args.l2);
                let _ = writeln!(
                    r,
                    "{id}: fitted {} weights on {} positions ({} held out) of {} self-play games \
                     of {}",
                    NAMES.len() + 1,
                    fit.train,
                    fit.held,
                    args.games,
                    args.players
                );
                report_fit(&mut r, &fit);
                file.scenarios.insert(
                    id.clone(),
                    ScenarioWeights {
                        games: args.games as u64,
                        samples: fit.train as u64,
                        held_out_log_loss: vec![round6(fit.before), round6(fit.after)],
                        bias: fit.fitted.bias,
                        weights: fit.fitted.by_name(NAMES),
                        sides: fit.sides,
                    },
                );
            }
            file.version = args.version;
            file.command = command;
            file.seed = args.seed;
            file
        }
    };
    if let Some(o) = &args.out {
        write_atomically(o, file.to_toml().as_bytes())?;
        let _ = writeln!(r, "wrote {}", o.display());
    }
    Ok(r)
}

/// Rounds to six decimals, for the file.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}
