//! An arena for measuring the computer players against each other with the arena score (a win
//! 1, a draw ½, on the First Day a draw broken by the strength each side eliminated), with 95%
//! Wilson intervals. Not a criterion benchmark: run it as
//!
//! ```text
//! cargo bench -p ai --bench tournament -- bon-first-day heuristic:random 100 [seed] [jobs]
//! ```
//!
//! Game `i` uses the same seeds as `grognard sim --seed S` (the game seed `mix(S, i)`, the
//! players' seeds `mix(gs, 1)` and `mix(gs, 2)`), so the two agree game for game.

use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// `grognard sim`'s seed mixer (splitmix64 of the pair).
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Search statistics over all games: simulations, player-turns, the longest player-turn (s),
/// thinking time (s).
static THINK: std::sync::Mutex<(u64, u64, f64, f64)> = std::sync::Mutex::new((0, 0, 0.0, 0.0));

/// One game: scores, winner, strength lost per side, last game-turn, seconds, game-turns played.
type Outcome = ([f64; 2], Option<u8>, [u32; 2], u8, f64, f64);

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.len() < 3 {
        eprintln!("usage: tournament SCENARIO A:B GAMES [SEED] [JOBS]");
        return;
    }
    let sc = Arc::new(scenarios::load(&args[0]).expect("a shipped scenario"));
    let (pa, pb) = args[1].split_once(':').expect("players A:B");
    let games: usize = args[2].parse().expect("games");
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let jobs: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);
    ai::player(pa, 0).expect("player A");
    ai::player(pb, 0).expect("player B");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .expect("pool");
    let t = Instant::now();
    let results: Vec<Outcome> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|i| {
                let gs = mix(seed, i as u64);
                let mut p0 = ai::player(pa, mix(gs, 1)).expect("checked");
                let mut p1 = ai::player(pb, mix(gs, 2)).expect("checked");
                let t0 = Instant::now();
                let r = ai::play_game(sc.clone(), gs, [p0.as_mut(), p1.as_mut()]);
                for p in [&p0, &p1] {
                    if let Some(st) = p.search_stats() {
                        let mut t = THINK.lock().unwrap_or_else(|e| e.into_inner());
                        t.0 += st.simulations;
                        t.1 += st.player_turns;
                        t.2 = t.2.max(st.max_turn_time.as_secs_f64());
                        t.3 += st.time.as_secs_f64();
                    }
                }
                let secs = t0.elapsed().as_secs_f64();
                if std::env::var("TRACE")
                    .ok()
                    .and_then(|t| t.parse::<usize>().ok())
                    == Some(i)
                {
                    trace(&sc, &r);
                }
                let turns = (r.turns - sc.first_turn + 1) as f64;
                if std::env::var("VERBOSE").is_ok() {
                    eprintln!(
                        "game {i}: {:?} {} losses {:?} turn {} score {:?} ({secs:.1}s)",
                        r.outcome.winner, r.outcome.case, r.side_losses, r.turns, r.score
                    );
                }
                (
                    r.score,
                    r.outcome.winner.map(|w| w.0),
                    r.side_losses,
                    r.turns,
                    secs,
                    turns,
                )
            })
            .collect()
    });
    let n = results.len() as f64;
    println!(
        "{games} games of {}: {} ({pa}) against {} ({pb}), seed {seed}, {:.1}s",
        sc.id,
        sc.sides[0],
        sc.sides[1],
        t.elapsed().as_secs_f64()
    );
    for side in 0..2 {
        let s: f64 = results.iter().map(|r| r.0[side]).sum();
        let wins = results.iter().filter(|r| r.1 == Some(side as u8)).count();
        let (lo, hi) = wilson(s, n);
        println!(
            "  {:<8} score {:>6.1}/{games} = {:>5.1}%  (95% Wilson {:.1}% - {:.1}%), {wins} wins by demoralization",
            sc.sides[side],
            s,
            100.0 * s / n,
            100.0 * lo,
            100.0 * hi
        );
    }
    let draws = results.iter().filter(|r| r.1.is_none()).count();
    let l0: f64 = results.iter().map(|r| r.2[0] as f64).sum::<f64>() / n;
    let l1: f64 = results.iter().map(|r| r.2[1] as f64).sum::<f64>() / n;
    let secs: f64 = results.iter().map(|r| r.4).sum::<f64>();
    let turns: f64 = results.iter().map(|r| r.5).sum::<f64>();
    println!(
        "  draws {draws}; mean strength lost: {} {l0:.1}, {} {l1:.1}; {:.2}s per game-turn",
        sc.sides[0],
        sc.sides[1],
        secs / turns
    );
    let t = THINK.lock().unwrap_or_else(|e| e.into_inner());
    if t.1 > 0 {
        println!(
            "  search: {} player-turns, {:.0} simulations and {:.2}s thinking per player-turn, longest player-turn {:.2}s",
            t.1,
            t.0 as f64 / t.1 as f64,
            t.3 / t.1 as f64,
            t.2
        );
    }
}

/// Prints a game action by action with its events (`TRACE=i`).
fn trace(sc: &Arc<naw::Scenario>, r: &ai::GameReport) {
    use engine::Rules;
    let mut g = naw::Game::from_arc(sc.clone());
    for rec in &r.record.actions {
        let a = g.parse_action(&rec.text).expect("recorded action");
        let who = format!(
            "t{} {} {:?}",
            g.turn(),
            sc.sides[g.phasing().0 as usize],
            g.step()
        );
        g.apply(a).expect("recorded action applies");
        let ev: Vec<String> = g
            .events()
            .iter()
            .map(|e| format!("[{}] {}", e.case, e.text))
            .collect();
        eprintln!("{who}: {} {}", rec.text, ev.join(" "));
    }
    if let Some(l) = &sc.loc {
        for u in g.unit_ids() {
            if let Some(h) = g.hex_of(u) {
                if h.distance(l.hex) <= 4 {
                    eprintln!("  near {}: {} at {h}", l.hex, g.id(u));
                }
            }
        }
    }
}
