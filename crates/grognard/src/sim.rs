//! `grognard sim`: many games between computer players, in parallel, with statistics.

use crate::show::load_scenario;
use anyhow::{anyhow, bail, Result};
use grognard::core::{median, pct, sim_any_rules, sim_any_text, wilson, wilson_interval, Rate};
use grognard::util::{mix, time_seed, write_atomically};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use systems::Library;

/// The options of `grognard sim`.
pub struct SimArgs {
    pub scenario: String,
    /// Another registered rules system that declares the scenario's components (`--rules`).
    pub rules: Option<String>,
    pub games: usize,
    pub players: String,
    pub jobs: Option<usize>,
    pub seed: Option<u64>,
    /// The index of the first game played (`--first-game`): game `i` of the run has the seed
    /// `mix(seed, first_game + i)`.
    pub first_game: usize,
    pub json: bool,
    pub plot: Option<PathBuf>,
    /// A weights file the learned levels read in place of the embedded one (`--weights`).
    pub weights: Option<PathBuf>,
}

/// What one game came to.
struct Summary {
    /// The game's own seed.
    seed: u64,
    winner: Option<u8>,
    case: &'static str,
    /// Some army was demoralized (17.2, 17.3).
    demoralized: bool,
    actions: usize,
    turns: u8,
    /// The arena score of each side.
    score: [f64; 2],
    /// Strength eliminated per side.
    side_losses: [u32; 2],
    /// Each player's search statistics, for searching players.
    search: [Option<ai::SearchStats>; 2],
}

/// An arena score over the games with its 95% Wilson score interval: a win counts 1, a draw ½
/// (on the First Day a draw goes to the side that eliminated more strength).
#[derive(Serialize, Clone, Copy)]
pub struct Score {
    pub points: f64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// What a searching player did over all its games.
#[derive(Serialize, Clone)]
struct Thinking {
    player_turns: u64,
    simulations_per_player_turn: f64,
    seconds_per_player_turn: f64,
    /// The median player-turn's thinking time (issue 13's bound: at most 1 s).
    median_player_turn_seconds: f64,
    longest_player_turn_seconds: f64,
    /// By kind of decision (`movement`, `declare`, `own_combat`, `defender`): what the budget
    /// gave each (`--json` only).
    decisions: BTreeMap<&'static str, KindThinking>,
}

/// What a searching player did with one kind of decision over all its games.
#[derive(Serialize, Clone, Copy)]
struct KindThinking {
    /// Decisions searched.
    searched: u64,
    /// Decisions with several candidates left to the heuristic for want of budget.
    unsearched: u64,
    /// Rollouts a searched decision.
    simulations_per_searched: f64,
    /// Milliseconds a searched decision, drawing the candidates included.
    ms_per_searched: f64,
    /// Milliseconds drawing the candidates, a decision with several.
    planning_ms_per_decision: f64,
}

/// Sums the players' statistics of one kind of decision.
fn kind_thinking(stats: &[&ai::SearchStats], k: usize) -> KindThinking {
    let mut sum = ai::KindStats::default();
    for s in stats {
        sum += &s.kinds[k];
    }
    let per = |v: f64, n: u64| if n == 0 { 0.0 } else { v / n as f64 };
    KindThinking {
        searched: sum.searched,
        unsearched: sum.unsearched,
        simulations_per_searched: per(sum.simulations as f64, sum.searched),
        ms_per_searched: per(sum.time.as_secs_f64() * 1e3, sum.searched),
        planning_ms_per_decision: per(
            sum.planning.as_secs_f64() * 1e3,
            sum.searched + sum.unsearched,
        ),
    }
}

/// One game of the run, for paired comparisons: two runs with the same seed and players play
/// the same games, so a change's effect can be listed game by game.
#[derive(Serialize, Clone, PartialEq, Debug)]
struct GameRow {
    /// The game's index in the run (`first_game..first_game + games`).
    game: usize,
    /// The game's own seed, `mix(seed, game)`: the seed of its dice and of its players.
    seed: u64,
    /// The winning side's name, or `None` for a draw.
    winner: Option<String>,
    /// The deciding case (17.2 demoralization, 17.3 both, 17.4 draw at the end).
    case: &'static str,
    /// The game-turn the game ended on.
    turn_ended: u8,
    /// Whether some army was demoralized (17.2, 17.3).
    demoralized: bool,
    /// The arena score of each side, in the scenario's order of sides.
    score: [f64; 2],
    /// Strength eliminated per side, in the scenario's order of sides.
    strength_lost: [u32; 2],
}

#[derive(Serialize)]
struct Report {
    scenario: String,
    games: usize,
    players: [String; 2],
    /// The weights file the learned levels read, with its version, when not the embedded one.
    #[serde(skip_serializing_if = "Option::is_none")]
    weights: Option<String>,
    seed: u64,
    /// The index of the run's first game (`--first-game`), when not 0.
    #[serde(skip_serializing_if = "is_zero")]
    first_game: usize,
    first_turn: u8,
    last_turn: u8,
    /// Wins per side name, and `draw`.
    results: BTreeMap<String, Rate>,
    /// The arena score per side name.
    scores: BTreeMap<String, Score>,
    /// Whether a draw goes to the side that eliminated more strength (the First Day).
    tiebreak: bool,
    /// Mean strength eliminated per side name.
    mean_strength_lost: BTreeMap<String, f64>,
    /// Per side name, what its player's search did (searching players only).
    thinking: BTreeMap<String, Thinking>,
    mean_actions: f64,
    mean_turns: f64,
    min_actions: usize,
    max_actions: usize,
    /// Games by deciding case (17.2 demoralization, 17.3 both, 17.4 draw at the end).
    outcomes: BTreeMap<String, usize>,
    /// Games ended by demoralization, by game-turn.
    demoralization_turns: BTreeMap<u8, usize>,
    /// Of those, by the side that broke.
    demoralized: BTreeMap<String, usize>,
    /// Every game, in the order of its index (`--json` only).
    per_game: Vec<GameRow>,
}

/// Runs the simulation: Napoleon at War's arena with its statistics, or for another rules
/// system the generic arena over the library ([`sim_any_rules`]).
pub fn sim(lib: &Library, a: SimArgs) -> Result<()> {
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let info = lib.scenario(&a.scenario)?;
    let system = a.rules.clone().unwrap_or_else(|| info.system.clone());
    if system != "naw" || info.system != "naw" {
        if a.plot.is_some() {
            bail!("--plot draws Napoleon at War's arena statistics only");
        }
        if a.weights.is_some() {
            bail!("--weights is read by Napoleon at War's learned levels only");
        }
        if a.first_game != 0 {
            bail!("--first-game plays part of Napoleon at War's arena runs only");
        }
        let players: Vec<&str> = a.players.split(':').collect();
        let players = if a.players == "random:random" {
            // the default: every seat the system's weakest player
            let weakest = lib.system(&system)?.players().first().cloned();
            vec![weakest.unwrap_or_default(); info.sides.len()]
        } else {
            players.iter().map(|p| p.to_string()).collect()
        };
        let players: Vec<&str> = players.iter().map(|p| p.as_str()).collect();
        let r = sim_any_rules(
            lib,
            &a.scenario,
            Some(&system),
            a.games,
            &players,
            a.seed.unwrap_or_else(time_seed),
        )?;
        if a.json {
            println!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            print!("{}", sim_any_text(&r, &r.sides));
        }
        return Ok(());
    }
    let sc = Arc::new(load_scenario(&a.scenario)?);
    let (pa, pb) = a
        .players
        .split_once(':')
        .ok_or_else(|| anyhow!("--players takes A:B, such as random:random"))?;
    let weights = match &a.weights {
        Some(p) => {
            let (file, w) = crate::tune::read_weights(p)?;
            Some((
                Arc::new(w),
                format!("{} (version {})", p.display(), file.version),
            ))
        }
        None => None,
    };
    let learned = weights.as_ref().map(|(w, _)| w.clone());
    // check the specs once before starting
    for spec in [pa, pb] {
        ai::player(spec, 0).map_err(|e| anyhow!("--players: {e}"))?;
    }
    let seed = a.seed.unwrap_or_else(time_seed);
    // a player thinking by the clock gets the machine to itself: one game at a time
    let clock = ai::thinks_by_the_clock(pa) || ai::thinks_by_the_clock(pb);
    let jobs = a.jobs.unwrap_or(if clock { 1 } else { 0 });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| anyhow!("cannot start {jobs} worker threads: {e}"))?;
    let pb_target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(a.games as u64), pb_target);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let names = [pa.to_string(), pb.to_string()];
    let summaries: Vec<Summary> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let gs = mix(seed, (a.first_game + i) as u64);
                let player = |k: usize| {
                    ai::player_with(&names[k], mix(gs, k as u64 + 1), learned.clone())
                        .expect("checked above")
                };
                let (mut p0, mut p1) = (player(0), player(1));
                let r = ai::play_game(sc.clone(), gs, [p0.as_mut(), p1.as_mut()]);
                bar.inc(1);
                Summary {
                    seed: gs,
                    winner: r.outcome.winner.map(|w| w.0),
                    case: r.outcome.case,
                    demoralized: r.demoralized.contains(&true),
                    actions: r.actions,
                    turns: r.turns,
                    score: r.score,
                    side_losses: r.side_losses,
                    search: [p0.search_stats(), p1.search_stats()],
                }
            })
            .collect()
    });
    bar.finish_and_clear();

    let n = summaries.len();
    let mut results = BTreeMap::new();
    for (i, side) in sc.sides.iter().enumerate() {
        let k = summaries
            .iter()
            .filter(|s| s.winner == Some(i as u8))
            .count();
        results.insert(side.clone(), wilson(k, n));
    }
    let draws = summaries.iter().filter(|s| s.winner.is_none()).count();
    results.insert("draw".into(), wilson(draws, n));
    let mut outcomes = BTreeMap::new();
    let mut demoralization_turns = BTreeMap::new();
    let mut demoralized = BTreeMap::new();
    for s in &summaries {
        *outcomes.entry(s.case.to_string()).or_insert(0) += 1;
        if s.demoralized {
            *demoralization_turns.entry(s.turns).or_insert(0) += 1;
            if let Some(w) = s.winner {
                let loser = sc.sides[1 - w as usize].clone();
                *demoralized.entry(loser).or_insert(0) += 1;
            }
        }
    }
    let mut scores = BTreeMap::new();
    let mut mean_strength_lost = BTreeMap::new();
    let mut thinking = BTreeMap::new();
    for (i, side) in sc.sides.iter().enumerate() {
        let points: f64 = summaries.iter().map(|s| s.score[i]).sum();
        let (rate, ci95) = wilson_interval(points, n);
        scores.insert(side.clone(), Score { points, rate, ci95 });
        let lost = summaries
            .iter()
            .map(|s| s.side_losses[i] as f64)
            .sum::<f64>()
            / n as f64;
        mean_strength_lost.insert(side.clone(), lost);
        let stats: Vec<&ai::SearchStats> = summaries
            .iter()
            .filter_map(|s| s.search[i].as_ref())
            .collect();
        let turns: u64 = stats.iter().map(|t| t.player_turns).sum();
        if turns > 0 {
            let sims: u64 = stats.iter().map(|t| t.simulations).sum();
            let secs: f64 = stats.iter().map(|t| t.time.as_secs_f64()).sum();
            let longest = stats
                .iter()
                .map(|t| t.max_turn_time.as_secs_f64())
                .fold(0.0, f64::max);
            let mut times: Vec<f64> = stats
                .iter()
                .flat_map(|t| t.turn_times.iter().map(|d| d.as_secs_f64()))
                .collect();
            times.sort_by(f64::total_cmp);
            thinking.insert(
                side.clone(),
                Thinking {
                    player_turns: turns,
                    simulations_per_player_turn: sims as f64 / turns as f64,
                    seconds_per_player_turn: secs / turns as f64,
                    median_player_turn_seconds: median(&times),
                    longest_player_turn_seconds: longest,
                    decisions: ai::DecisionKind::ALL
                        .iter()
                        .enumerate()
                        .map(|(k, kind)| (kind.name(), kind_thinking(&stats, k)))
                        .collect(),
                },
            );
        }
    }
    let report = Report {
        scenario: sc.id.clone(),
        games: n,
        players: names.clone(),
        weights: weights.map(|(_, d)| d),
        seed,
        first_game: a.first_game,
        first_turn: sc.first_turn,
        last_turn: sc.last_turn,
        results,
        scores,
        tiebreak: ai::TIEBREAK_SCENARIOS.contains(&sc.id.as_str()),
        mean_strength_lost,
        thinking,
        mean_actions: summaries.iter().map(|s| s.actions as f64).sum::<f64>() / n as f64,
        mean_turns: summaries.iter().map(|s| s.turns as f64).sum::<f64>() / n as f64,
        min_actions: summaries.iter().map(|s| s.actions).min().unwrap_or(0),
        max_actions: summaries.iter().map(|s| s.actions).max().unwrap_or(0),
        outcomes,
        demoralization_turns,
        demoralized,
        per_game: per_game_rows(&summaries, &sc.sides, a.first_game),
    };
    if let Some(p) = &a.plot {
        write_atomically(p, plot_svg(&report, &sc.sides).as_bytes())?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report_text(&report, &sc.sides));
        if let Some(p) = &a.plot {
            println!("chart written to {}", p.display());
        }
    }
    Ok(())
}

/// Serde's test for leaving a report's first game out when the run starts at game 0.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The games of a run, one row each, in the order of their index (the first `first`).
fn per_game_rows(summaries: &[Summary], sides: &[String], first: usize) -> Vec<GameRow> {
    summaries
        .iter()
        .enumerate()
        .map(|(i, s)| GameRow {
            game: first + i,
            seed: s.seed,
            winner: s.winner.and_then(|w| sides.get(w as usize).cloned()),
            case: s.case,
            turn_ended: s.turns,
            demoralized: s.demoralized,
            score: s.score,
            strength_lost: s.side_losses,
        })
        .collect()
}

fn report_text(r: &Report, sides: &[String; 2]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games of {}: {} ({}) against {} ({}), seed {}",
        r.games, r.scenario, sides[0], r.players[0], sides[1], r.players[1], r.seed
    );
    if r.first_game != 0 {
        let _ = writeln!(
            out,
            "games {} to {} of the seed",
            r.first_game,
            r.first_game + r.games - 1
        );
    }
    if let Some(w) = &r.weights {
        let _ = writeln!(out, "the learned levels read the weights {w}");
    }
    for key in [sides[0].as_str(), sides[1].as_str(), "draw"] {
        let x = r.results[key];
        let label = if key == "draw" {
            "draws".to_string()
        } else {
            format!("{key} wins")
        };
        out.push_str(&x.line(&label));
    }
    let _ = writeln!(
        out,
        "  arena score (win 1, draw {}):",
        if r.tiebreak {
            "to the side that eliminated more strength, ½ if equal"
        } else {
            "½"
        }
    );
    for side in sides {
        let x = r.scores[side];
        let _ = writeln!(
            out,
            "    {side:<14} {:>7.1}  {:>6}  (95% CI {} - {}), strength lost {:.1} on average",
            x.points,
            pct(x.rate),
            pct(x.ci95[0]),
            pct(x.ci95[1]),
            r.mean_strength_lost[side]
        );
    }
    for (side, t) in &r.thinking {
        let _ = writeln!(
            out,
            "  {side} search: {:.0} simulations and {:.2} s per player-turn, median player-turn {:.2} s, longest {:.2} s ({} player-turns)",
            t.simulations_per_player_turn,
            t.seconds_per_player_turn,
            t.median_player_turn_seconds,
            t.longest_player_turn_seconds,
            t.player_turns
        );
    }
    let _ = writeln!(
        out,
        "  game length: {:.1} actions on average ({} - {}), {:.2} game-turns",
        r.mean_actions, r.min_actions, r.max_actions, r.mean_turns
    );
    let cases: Vec<String> = r
        .outcomes
        .iter()
        .map(|(c, k)| format!("{c}: {k}"))
        .collect();
    let _ = writeln!(out, "  decided by: {}", cases.join(", "));
    if r.demoralization_turns.is_empty() {
        let _ = writeln!(out, "  no army was demoralized");
    } else {
        let turns: Vec<String> = r
            .demoralization_turns
            .iter()
            .map(|(t, k)| format!("turn {t}: {k}"))
            .collect();
        let _ = writeln!(out, "  demoralization by game-turn: {}", turns.join(", "));
        let who: Vec<String> = r
            .demoralized
            .iter()
            .map(|(s, k)| format!("{s} {k}"))
            .collect();
        let _ = writeln!(out, "  armies demoralized: {}", who.join(", "));
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A hand-written SVG: outcome rates with their 95% intervals, and demoralization turns.
fn plot_svg(r: &Report, sides: &[String; 2]) -> String {
    let (w, h) = (760.0, 360.0);
    let (top, bottom) = (76.0, 300.0);
    let ph = bottom - top;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#FBF8EE"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="20" y="24" font-size="16">{} games of {}: {} vs {}</text>"#,
        r.games,
        esc(&r.scenario),
        esc(&r.players[0]),
        esc(&r.players[1])
    );
    // left: outcomes, as rates with whiskers
    let _ = writeln!(
        s,
        r#"<text x="40" y="48">Outcomes (share of games, 95% Wilson interval)</text>"#
    );
    let colours = ["#0072B2", "#00775A", "#999999"];
    let keys = [sides[0].clone(), sides[1].clone(), "draw".to_string()];
    let x0 = 60.0;
    let _ = writeln!(
        s,
        r##"<line x1="{x0}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#333"/>"##,
        x0 + 300.0
    );
    for tick in 0..=4 {
        let y = bottom - ph * tick as f64 / 4.0;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#555">{}%</text><line x1="{x0}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/>"##,
            x0 - 6.0,
            y + 4.0,
            tick * 25,
            x0 + 300.0
        );
    }
    for (i, k) in keys.iter().enumerate() {
        let rate = r.results[k];
        let bx = x0 + 20.0 + i as f64 * 95.0;
        let bh = ph * rate.rate;
        let _ = writeln!(
            s,
            r#"<rect x="{bx}" y="{}" width="60" height="{bh}" fill="{}"><title>{}: {} of {}</title></rect>"#,
            bottom - bh,
            colours[i],
            esc(k),
            rate.count,
            r.games
        );
        let (lo, hi) = (bottom - ph * rate.ci95[0], bottom - ph * rate.ci95[1]);
        let cx = bx + 30.0;
        let _ = writeln!(
            s,
            r##"<path d="M{cx} {lo}V{hi}M{} {lo}H{}M{} {hi}H{}" stroke="#000" fill="none"/>"##,
            cx - 8.0,
            cx + 8.0,
            cx - 8.0,
            cx + 8.0
        );
        let label = if k == "draw" {
            "draws".to_string()
        } else {
            format!("{k} wins")
        };
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" text-anchor="middle">{}</text><text x="{cx}" y="{}" text-anchor="middle">{}</text>"#,
            bottom + 16.0,
            esc(&label),
            bottom + 32.0,
            pct(rate.rate)
        );
    }
    // right: demoralization turns histogram
    let x1 = 430.0;
    let _ = writeln!(
        s,
        r#"<text x="{x1}" y="48">Demoralization (17.2) by game-turn</text>"#
    );
    let _ = writeln!(
        s,
        r##"<line x1="{x1}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#333"/>"##,
        x1 + 300.0
    );
    if r.demoralization_turns.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="middle" fill="#555">no army was demoralized</text>"##,
            x1 + 150.0,
            top + ph / 2.0
        );
    } else {
        let max = *r.demoralization_turns.values().max().unwrap_or(&1) as f64;
        let first = r.first_turn;
        let last = r.last_turn.max(first);
        let span = (last - first + 1) as f64;
        let bw = (300.0 / span).min(60.0);
        for t in first..=last {
            let k = r.demoralization_turns.get(&t).copied().unwrap_or(0);
            let bx = x1 + (t - first) as f64 * bw;
            let bh = ph * k as f64 / max;
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{}" height="{bh}" fill="#D55E00"><title>turn {t}: {k} games</title></rect>"##,
                bx + 2.0,
                bottom - bh,
                bw - 4.0
            );
            if span <= 12.0 || t % 2 == 0 {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="middle">{t}</text>"#,
                    bx + bw / 2.0,
                    bottom + 16.0
                );
            }
            if k > 0 {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="middle">{k}</text>"#,
                    bx + bw / 2.0,
                    bottom - bh - 4.0
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">game-turn</text>"#,
            x1 + 150.0,
            bottom + 34.0
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The options of `grognard ladder`.
pub struct LadderArgs {
    /// The levels, comma-separated player specs.
    pub players: String,
    /// The scenarios, comma-separated.
    pub scenarios: String,
    /// Games per pairing, scenario and side.
    pub games: usize,
    pub jobs: Option<usize>,
    pub seed: Option<u64>,
    /// `SPEC=ELO`: the level whose rating is fixed (default `heuristic=1000` when the heuristic
    /// plays, else the first level at 0).
    pub anchor: Option<String>,
    /// Virtual draws per pairing.
    pub prior: f64,
    pub json: bool,
}

/// The ladder's arena over the library: Napoleon at War's games played as `sim` plays them
/// (its arena score, the First Day's tie-break included, and the same seeds: a ladder game is
/// the `sim` game of its seed), another system's through the generic arena.
struct LibArena<'a> {
    lib: &'a Library,
    /// Per scenario id: its system, and the scenario when the system is Napoleon at War.
    scenarios: BTreeMap<String, (String, Option<Arc<naw::Scenario>>)>,
}

impl ai::ladder::Arena for LibArena<'_> {
    fn check(&self, spec: &str) -> std::result::Result<(), String> {
        for (id, (system, _)) in &self.scenarios {
            let sys = self.lib.system(system).map_err(|e| e.to_string())?;
            sys.player(spec, 0).map_err(|e| format!("{id}: {e}"))?;
        }
        Ok(())
    }

    fn thinks_by_the_clock(&self, spec: &str) -> bool {
        ai::thinks_by_the_clock(spec)
    }

    fn play(
        &self,
        scenario: &str,
        players: [&str; 2],
        seed: u64,
    ) -> std::result::Result<[f64; 2], String> {
        let (system, typed) = self
            .scenarios
            .get(scenario)
            .ok_or_else(|| format!("no scenario '{scenario}' in this ladder"))?;
        if let Some(sc) = typed {
            let mut p0 = ai::player(players[0], mix(seed, 1))?;
            let mut p1 = ai::player(players[1], mix(seed, 2))?;
            return Ok(ai::play_game(sc.clone(), seed, [p0.as_mut(), p1.as_mut()]).score);
        }
        let sys = self.lib.system(system).map_err(|e| e.to_string())?.clone();
        let arena = ai::ladder::DynArena {
            new_game: |s: &str, seed| self.lib.new_game(s, None, seed).map_err(|e| e.to_string()),
            player: |spec: &str, seed| sys.player(spec, seed),
            max_actions: 1_000_000,
        };
        arena.play(scenario, players, seed)
    }
}

/// One level in the ladder's report.
#[derive(Serialize)]
struct LadderLevel {
    level: String,
    games: usize,
    points: f64,
    score: f64,
    elo: f64,
    /// The half-width of the 95% confidence interval, relative to the anchor.
    ci95: f64,
    /// The score on each scenario.
    by_scenario: BTreeMap<String, f64>,
}

/// Two levels' games against each other.
#[derive(Serialize)]
struct LadderPairing {
    level: String,
    opponent: String,
    games: usize,
    points: f64,
}

/// One game of the ladder.
#[derive(Serialize)]
struct LadderGame {
    scenario: String,
    players: [String; 2],
    round: usize,
    seed: u64,
    score: [f64; 2],
}

#[derive(Serialize)]
struct LadderReport {
    players: Vec<String>,
    scenarios: Vec<String>,
    games_per_pairing_scenario_and_side: usize,
    games: usize,
    seed: u64,
    /// The level whose rating is fixed, and its rating.
    anchor: String,
    anchor_elo: f64,
    /// Virtual draws added per pairing.
    prior: f64,
    method: &'static str,
    seconds: f64,
    /// Best first.
    ratings: Vec<LadderLevel>,
    pairwise: Vec<LadderPairing>,
    played: Vec<LadderGame>,
}

const LADDER_METHOD: &str = "maximum-likelihood Bradley-Terry on the Elo scale (draws ½, virtual draws per pairing as a prior), 95% intervals from the likelihood's curvature relative to the anchor";

/// Runs the rating ladder ([`ai::ladder`]): every two levels on every scenario as both sides.
pub fn ladder(lib: &Library, a: LadderArgs) -> Result<()> {
    let list = |s: &str| -> Vec<String> {
        s.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    };
    let players = list(&a.players);
    let scenario_ids = list(&a.scenarios);
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    if !(a.prior >= 0.0 && a.prior.is_finite()) {
        bail!("--prior must be 0 or more");
    }
    let mut scenarios = BTreeMap::new();
    for id in &scenario_ids {
        let info = lib.scenario(id)?;
        let typed = if info.system == "naw" {
            Some(Arc::new(load_scenario(id)?))
        } else {
            None
        };
        if info.sides.len() != 2 {
            bail!("{id}: the ladder rates two-sided scenarios");
        }
        scenarios.insert(id.clone(), (info.system.clone(), typed));
    }
    let (anchor, anchor_elo) = match &a.anchor {
        Some(x) => {
            let (spec, elo) = x
                .rsplit_once('=')
                .ok_or_else(|| anyhow!("--anchor takes SPEC=ELO, such as heuristic=1000"))?;
            let elo: f64 = elo
                .trim()
                .parse()
                .map_err(|_| anyhow!("--anchor: '{elo}' is not a rating"))?;
            let i = players
                .iter()
                .position(|p| p == spec.trim())
                .ok_or_else(|| anyhow!("--anchor: '{spec}' is not one of --players"))?;
            (i, elo)
        }
        None => match players.iter().position(|p| p == "heuristic") {
            Some(i) => (i, 1000.0),
            None => (0, 0.0),
        },
    };
    let arena = LibArena { lib, scenarios };
    let seed = a.seed.unwrap_or_else(time_seed);
    let plan = ai::ladder::Plan {
        players: players.clone(),
        scenarios: scenario_ids.clone(),
        games: a.games,
        seed,
    };
    let total = ai::ladder::fixtures(&plan).len();
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total as u64), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = std::time::Instant::now();
    let played = ai::ladder::play(&arena, &plan, a.jobs.unwrap_or(0), &|_| bar.inc(1))
        .map_err(|e| anyhow!("{e}"))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let results: Vec<ai::ladder::GameScore> = played.iter().map(|p| p.game_score()).collect();
    let opt = ai::ladder::RatingOptions {
        anchor,
        anchor_elo,
        prior: a.prior,
    };
    let r = ai::ladder::rate(players.len(), &results, opt).map_err(|e| anyhow!("{e}"))?;
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&x, &y| r.ratings[y].elo.total_cmp(&r.ratings[x].elo));
    let ratings = order
        .iter()
        .map(|&i| {
            let x = r.ratings[i];
            let by_scenario = scenario_ids
                .iter()
                .enumerate()
                .map(|(s, id)| {
                    let (mut pts, mut n) = (0.0, 0usize);
                    for p in played.iter().filter(|p| p.fixture.scenario == s) {
                        for seat in 0..2 {
                            if p.fixture.seats[seat] == i {
                                pts += p.score[seat];
                                n += 1;
                            }
                        }
                    }
                    (id.clone(), if n == 0 { 0.0 } else { pts / n as f64 })
                })
                .collect();
            LadderLevel {
                level: players[i].clone(),
                games: x.games,
                points: x.points,
                score: x.rate(),
                elo: x.elo,
                ci95: x.ci95,
                by_scenario,
            }
        })
        .collect();
    let mut pairwise = Vec::new();
    for &i in &order {
        for &j in &order {
            let p = r.pairwise[i][j];
            if p.games > 0 {
                pairwise.push(LadderPairing {
                    level: players[i].clone(),
                    opponent: players[j].clone(),
                    games: p.games,
                    points: p.points,
                });
            }
        }
    }
    let report = LadderReport {
        players: players.clone(),
        scenarios: scenario_ids.clone(),
        games_per_pairing_scenario_and_side: a.games,
        games: played.len(),
        seed,
        anchor: players[anchor].clone(),
        anchor_elo,
        prior: a.prior,
        method: LADDER_METHOD,
        seconds,
        ratings,
        pairwise,
        played: played
            .iter()
            .map(|p| LadderGame {
                scenario: scenario_ids[p.fixture.scenario].clone(),
                players: [
                    players[p.fixture.seats[0]].clone(),
                    players[p.fixture.seats[1]].clone(),
                ],
                round: p.fixture.round,
                seed: p.fixture.seed,
                score: p.score,
            })
            .collect(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", ladder_text(&report));
    }
    Ok(())
}

fn ladder_text(r: &LadderReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ladder of {} levels on {}: {} game{} per pairing, scenario and side ({} games), seed {}, {:.0} s",
        r.players.len(),
        r.scenarios.join(", "),
        r.games_per_pairing_scenario_and_side,
        if r.games_per_pairing_scenario_and_side == 1 { "" } else { "s" },
        r.games,
        r.seed,
        r.seconds
    );
    let _ = writeln!(
        out,
        "Elo: maximum-likelihood Bradley-Terry, a draw ½, 95% intervals from the likelihood's curvature; {} virtual draw{} per pairing; {} anchored at {}",
        r.prior,
        if r.prior == 1.0 { "" } else { "s" },
        r.anchor,
        r.anchor_elo
    );
    let w = r.players.iter().map(|p| p.len()).max().unwrap_or(5).max(5);
    let _ = write!(
        out,
        "\n  {:<w$}  {:>5}  {:>6}  {:>6}  {:>6}",
        "level", "games", "score", "Elo", "± CI"
    );
    for s in &r.scenarios {
        let _ = write!(out, "  {:>w2$}", s, w2 = s.len().max(6));
    }
    out.push('\n');
    for x in &r.ratings {
        let ci = if x.level == r.anchor {
            "anchor".to_string()
        } else {
            format!("±{:.0}", x.ci95)
        };
        let _ = write!(
            out,
            "  {:<w$}  {:>5}  {:>6}  {:>6.0}  {:>6}",
            x.level,
            x.games,
            pct(x.score),
            x.elo,
            ci
        );
        for s in &r.scenarios {
            let _ = write!(out, "  {:>w2$}", pct(x.by_scenario[s]), w2 = s.len().max(6));
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\npairwise: the row level's points / games against the column level (score %)"
    );
    let levels: Vec<&str> = r.ratings.iter().map(|x| x.level.as_str()).collect();
    let cw = levels.iter().map(|l| l.len()).max().unwrap_or(5).max(16);
    let _ = write!(out, "  {:<w$}", "");
    for l in &levels {
        let _ = write!(out, "  {l:>cw$}");
    }
    out.push('\n');
    for row in &levels {
        let _ = write!(out, "  {row:<w$}");
        for col in &levels {
            let cell = match r
                .pairwise
                .iter()
                .find(|p| p.level == *row && p.opponent == *col)
            {
                Some(p) => format!(
                    "{}/{} ({:.0}%)",
                    p.points,
                    p.games,
                    100.0 * p.points / p.games as f64
                ),
                None => "-".to_string(),
            };
            let _ = write!(out, "  {cell:>cw$}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(seed: u64, winner: Option<u8>, turns: u8, score: [f64; 2]) -> Summary {
        Summary {
            seed,
            winner,
            case: if winner.is_some() { "17.2" } else { "17.4" },
            demoralized: winner.is_some(),
            actions: 10,
            turns,
            score,
            side_losses: [3, 4],
            search: [None, None],
        }
    }

    #[test]
    fn per_game_rows_name_the_winner_and_keep_the_order_from_the_first_game() {
        let sides = ["French".to_string(), "Allied".to_string()];
        let rows = per_game_rows(
            &[
                summary(7, Some(1), 5, [0.0, 1.0]),
                summary(9, None, 6, [0.5, 0.5]),
                summary(11, Some(0), 3, [1.0, 0.0]),
            ],
            &sides,
            4,
        );
        type Seen<'a> = (usize, u64, Option<&'a str>, u8, [f64; 2]);
        let seen: Vec<Seen> = rows
            .iter()
            .map(|r| (r.game, r.seed, r.winner.as_deref(), r.turn_ended, r.score))
            .collect();
        assert_eq!(
            seen,
            vec![
                (4, 7, Some("Allied"), 5, [0.0, 1.0]),
                (5, 9, None, 6, [0.5, 0.5]),
                (6, 11, Some("French"), 3, [1.0, 0.0]),
            ]
        );
        assert_eq!(rows[1].case, "17.4");
        assert_eq!(rows[0].strength_lost, [3, 4]);
    }
}
