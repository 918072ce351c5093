//! Whole games between random players: the Battle of Nations scenarios.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::sync::Arc;

fn battle_of_nations(c: &mut Criterion) {
    let mut group = c.benchmark_group("random games");
    group.sample_size(20);
    for id in ["bon-first-day", "bon-grand-battle"] {
        let sc = Arc::new(scenarios::load(id).expect("shipped scenario"));
        let mut seed = 0;
        group.bench_function(id, |b| {
            b.iter(|| {
                seed += 1;
                let mut p0 = ai::RandomPlayer::new(seed * 2);
                let mut p1 = ai::RandomPlayer::new(seed * 2 + 1);
                black_box(ai::play_game(sc.clone(), seed, [&mut p0, &mut p1]).actions)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, battle_of_nations);
criterion_main!(benches);
