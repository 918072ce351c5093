//! Benchmarks of the rules engine: a unit's legal destinations, legal-action generation, and
//! whole random games on a generated 29 x 31 map with about 100 units.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::Rules;

#[path = "../tests/common/mod.rs"]
mod common;

fn destinations(c: &mut Criterion) {
    // a generated game that starts in a movement phase
    let g = (0..)
        .map(|seed| naw::Game::new(common::generated(seed, 29, 31, 100)))
        .find(|g| g.step() == naw::Step::Movement)
        .expect("some seed starts with movement");
    // the first player's units with somewhere to go
    let mut out = Vec::new();
    let units: Vec<naw::UnitId> = g
        .unit_ids()
        .filter(|&u| {
            g.destinations(u, &mut out);
            !out.is_empty()
        })
        .collect();
    assert!(!units.is_empty());
    let mut i = 0;
    c.bench_function("destinations of one unit (29x31, 100 units)", |b| {
        b.iter(|| {
            i = (i + 1) % units.len();
            g.destinations(black_box(units[i]), &mut out);
            black_box(out.len())
        })
    });
    let mut acts = Vec::new();
    c.bench_function("legal actions, movement phase (29x31, 100 units)", |b| {
        b.iter(|| {
            acts.clear();
            g.legal_actions(&mut acts);
            black_box(acts.len())
        })
    });
}

fn random_games(c: &mut Criterion) {
    let sc = std::sync::Arc::new(common::generated(11, 29, 31, 100));
    let mut seed = 0;
    let mut group = c.benchmark_group("random games");
    group.sample_size(10);
    group.bench_function("whole random game (29x31, 100 units, 6 turns)", |b| {
        b.iter(|| {
            seed += 1;
            let mut g = naw::Game::from_arc(sc.clone());
            let n = common::play_random(&mut g, seed, 1_000_000, |_, _| {}).len();
            black_box(n)
        })
    });
    group.finish();
}

criterion_group!(benches, destinations, random_games);
criterion_main!(benches);
