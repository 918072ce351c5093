//! The heuristic with `search4`'s style options against the heuristic's own style, as both
//! sides, over seeded games (`docs/ai.md`, "search4"):
//! `cargo run --release -p ai --example style_options -- [GAMES] [SCENARIO] [OPTIONS]`, where
//! OPTIONS holds `c` (converge), `s` (support), `e` (keep_entry) or `none` (200 games of
//! `bon-first-day` with `cse` by default). Game `i` of either side is rolled from seed `i`, so
//! the two styles meet the same dice.
use ai::{HeuristicPlayer, Style};
use std::sync::Arc;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let id = args.next().unwrap_or_else(|| "bon-first-day".into());
    let options = args.next().unwrap_or_else(|| "cse".into());
    let Ok(sc) = scenarios::load(&id) else {
        eprintln!("no shipped scenario '{id}'");
        std::process::exit(2);
    };
    let sc = Arc::new(sc);
    let style = Style {
        converge: options.contains('c'),
        support: options.contains('s'),
        keep_entry: options.contains('e'),
        ..Style::default()
    };
    for side in 0..2 {
        let mut points = 0.0;
        for seed in 0..n {
            let mut a = HeuristicPlayer::with_style(seed * 2 + 7, style);
            let mut b = HeuristicPlayer::new(seed * 2 + 8);
            let r = if side == 0 {
                ai::play_game(sc.clone(), seed, [&mut a, &mut b])
            } else {
                ai::play_game(sc.clone(), seed, [&mut b, &mut a])
            };
            points += r.score[side];
        }
        println!(
            "{id}: the heuristic with '{options}' as {}: {points:.1} of {n} points, {:.1}%",
            sc.sides[side],
            100.0 * points / n as f64
        );
    }
}
