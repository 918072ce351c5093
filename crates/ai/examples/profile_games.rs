//! Plays random games, for profiling (`perf record`): `profile_games [GAMES] [SCENARIO]`
//! (100 games of `bon-grand-battle` by default). Prints the time and the mean number of
//! actions per game, by kind.
use std::sync::Arc;
fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let id = args.next().unwrap_or_else(|| "bon-grand-battle".into());
    let sc = Arc::new(scenarios::load(&id).expect("shipped"));
    let t = std::time::Instant::now();
    let mut kinds = std::collections::BTreeMap::<String, u64>::new();
    // a digest of every state hash of every game: equal digests, equal games
    let mut digest = 0u64;
    for seed in 0..n {
        let mut a = ai::RandomPlayer::new(seed * 2);
        let mut b = ai::RandomPlayer::new(seed * 2 + 1);
        let r = std::hint::black_box(ai::play_game(sc.clone(), seed, [&mut a, &mut b]));
        for x in &r.record.actions {
            let h = u64::from_str_radix(x.hash.as_deref().unwrap_or("0"), 16).unwrap_or(0);
            digest = digest.rotate_left(5) ^ h;
            let k = x.text.split(' ').next().unwrap_or("").to_string();
            *kinds.entry(k).or_default() += 1;
        }
    }
    let el = t.elapsed();
    eprintln!(
        "{n} games of {id} in {el:?}: {:.3} ms a game, {:.0} games/s",
        el.as_secs_f64() * 1e3 / n as f64,
        n as f64 / el.as_secs_f64()
    );
    let total: u64 = kinds.values().sum();
    eprintln!(
        "actions per game: {:.1}; digest of every state hash: {digest:016x}",
        total as f64 / n as f64
    );
    for (k, v) in kinds {
        eprintln!("  {k:10} {:.1}", v as f64 / n as f64);
    }
}
