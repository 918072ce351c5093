//! Plays random Grand Battle games, for profiling (`perf record`).
use std::sync::Arc;
fn main() {
    let sc = Arc::new(scenarios::load("bon-grand-battle").expect("shipped"));
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let t = std::time::Instant::now();
    for seed in 0..n {
        let mut a = ai::RandomPlayer::new(seed * 2);
        let mut b = ai::RandomPlayer::new(seed * 2 + 1);
        std::hint::black_box(ai::play_game(sc.clone(), seed, [&mut a, &mut b]));
    }
    eprintln!("{n} games in {:?}", t.elapsed());
}
