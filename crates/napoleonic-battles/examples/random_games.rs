//! Plays seeded random games under the Napoleonic Battles system, for profiling and instruction
//! counts (`valgrind --tool=callgrind`): `random_games [GAMES] [SCENARIO]` (50 games of
//! `bon-first-day` by default). The player is the random tests' one (`tests/common`): a kind of
//! action first, then one of that kind; chance events drawn by their weights from seeded dice.
//! Prints the time, the mean number of actions a game and a digest of every state hash of every
//! game (equal digests, equal games).

use engine::Rules;

#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(50);
    let id = args.next().unwrap_or_else(|| "bon-first-day".into());
    let start = common::game(&id);
    let t = std::time::Instant::now();
    let mut actions = 0usize;
    let mut digest = 0u64;
    for seed in 0..n {
        let mut g = start.clone();
        let taken = common::play_random(&mut g, seed, 1_000_000, |g, _| {
            digest = digest.rotate_left(5) ^ g.state_hash();
        });
        actions += std::hint::black_box(taken.len());
    }
    let el = t.elapsed();
    eprintln!(
        "{n} games of {id} in {el:?}: {:.3} ms a game, {:.0} games/s",
        el.as_secs_f64() * 1e3 / n as f64,
        n as f64 / el.as_secs_f64()
    );
    eprintln!(
        "actions per game: {:.1}; digest of every state hash: {digest:016x}",
        actions as f64 / n as f64
    );
}
