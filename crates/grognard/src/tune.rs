//! `grognard tune`: fits the weights of the learned evaluation (the level `search2`) to the
//! outcomes of self-play games, and writes them as data (`crates/ai/weights/naw.toml`).
//!
//! Napoleon at War's own (its features, and its computer players play the games: the
//! heuristic unless `--players` names another); the fit itself is the generic `ai::learn`.

use crate::show::load_scenario;
use ai::features::{NawFeatures, NAMES};
use ai::learn::{
    fit_signed, log_loss, self_play, Features, Linear, Sample, SideWeights, Weights, WeightsFile,
    WEIGHTS_FORMAT,
};
use ai::montecarlo::Rollout;
use ai::Player;
use anyhow::{bail, Result};
use engine::{Rules, Side};
use grognard::util::{mix, write_atomically};
use naw::Game;
use rayon::prelude::*;
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
/// seed when the player is (a simulation budget, not a thinking time).
pub fn samples(args: &TuneArgs) -> Result<(Vec<Sample>, Vec<Sample>)> {
    if ai::thinks_by_the_clock(&args.players) {
        bail!(
            "--players '{}' thinks by the clock: give the search a simulation budget \
             (e.g. search4@300n) so that the same seed gives the same weights",
            args.players
        );
    }
    let weights = match &args.weights {
        Some(p) => Some(Arc::new(
            Weights::read(p, NAMES)
                .map_err(|e| anyhow::anyhow!("--weights: {e}"))?
                .1,
        )),
        None => None,
    };
    ai::player(&args.players, 0).map_err(anyhow::Error::msg)?;
    let mut starts = Vec::new();
    for id in args
        .scenarios
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
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
        (i % 5 == 4, out)
    };
    let games: Vec<(bool, Vec<Sample>)> = match args.jobs {
        Some(j) => rayon::ThreadPoolBuilder::new()
            .num_threads(j.max(1))
            .build()?
            .install(|| jobs.par_iter().map(play).collect()),
        None => jobs.par_iter().map(play).collect(),
    };
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (h, v) in games {
        if h {
            held.extend(v);
        } else {
            train.extend(v);
        }
    }
    Ok((train, held))
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
    let (train, held) = samples(&args)?;
    let start = prior();
    let fitted = fit_signed(&start, &train, args.l2, 30, &NawFeatures.signs());
    let before = log_loss(&start, &held);
    let after = log_loss(&fitted, &held);
    let mut command = format!(
        "grognard tune --method {} --players {} --games {} --seed {} --scenarios {} --l2 {} \
         --version {}",
        args.method, args.players, args.games, args.seed, args.scenarios, args.l2, args.version
    );
    if let Some(w) = &args.weights {
        let _ = write!(command, " --weights {}", w.display());
    }
    let mut own_sides = args.own_sides.clone();
    own_sides.sort_unstable();
    own_sides.dedup();
    if !own_sides.is_empty() {
        let list: Vec<String> = own_sides.iter().map(u8::to_string).collect();
        let _ = write!(command, " --own-sides {}", list.join(","));
    }
    if let Some(o) = &args.out {
        let _ = write!(command, " --out {}", o.display());
    }
    // each side's own weights, fitted to its positions alone and pulled toward the common ones
    let mut sides = std::collections::BTreeMap::new();
    for &k in &own_sides {
        let of = |v: &[Sample]| -> Vec<Sample> {
            v.iter().filter(|s| s.side == Side(k)).cloned().collect()
        };
        let (t, h) = (of(&train), of(&held));
        let own = fit_signed(&fitted, &t, args.l2, 30, &NawFeatures.signs());
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
    let file = WeightsFile {
        format: WEIGHTS_FORMAT.into(),
        system: "naw".into(),
        version: args.version,
        method: args.method.clone(),
        command,
        seed: args.seed,
        games: (args.games * args.scenarios.split(',').count()) as u64,
        samples: train.len() as u64,
        held_out_log_loss: vec![round6(before), round6(after)],
        bias: fitted.bias,
        weights: fitted.by_name(NAMES),
        sides,
    };
    let mut r = String::new();
    let _ = writeln!(
        r,
        "fitted {} weights on {} positions ({} held out) of {} self-play games of {}",
        NAMES.len() + 1,
        train.len(),
        held.len(),
        file.games,
        args.players
    );
    let _ = writeln!(
        r,
        "held-out log-loss: {before:.4} with today's evaluation, {after:.4} fitted (ln 2 = 0.6931)"
    );
    for (k, s) in &file.sides {
        let _ = writeln!(
            r,
            "side {k}: held-out log-loss {:.4} with the common weights, {:.4} with its own",
            s.held_out_log_loss[0], s.held_out_log_loss[1]
        );
    }
    let mut columns = vec![(fitted.bias, fitted.by_name(NAMES))];
    let _ = write!(r, "  {:<22} {:>9}", "", "common");
    for (k, s) in &file.sides {
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
