//! Benchmarks of the Napoleonic Battles system on the First Day: legal-action generation in the
//! opening position, applying an action, and whole seeded random games (the random tests'
//! player: a kind of action, then one of that kind; chance events drawn by their weights).

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use engine::{Rules, ToAct};

#[path = "../tests/common/mod.rs"]
mod common;

/// The First Day at its first choice of a side: the opening chance events drawn from seed 0.
fn opening() -> napoleonic_battles::Game {
    let mut g = common::game("bon-first-day");
    let mut dice = engine::Dice::new(0);
    while g.to_act() == ToAct::Chance {
        let a = engine::draw_chance(&g, &mut dice).expect("a chance event");
        g.apply(a).expect("a drawn chance event is legal");
    }
    assert!(matches!(g.to_act(), ToAct::Side(_)));
    g
}

fn opening_benches(c: &mut Criterion) {
    let g = opening();
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    assert!(!acts.is_empty());
    c.bench_function("legal actions, First Day opening", |b| {
        b.iter(|| {
            acts.clear();
            black_box(&g).legal_actions(&mut acts);
            black_box(acts.len())
        })
    });
    let all = acts.clone();
    let mut i = 0;
    c.bench_function("check and apply one legal action, First Day opening", |b| {
        b.iter_batched_ref(
            || {
                i = (i + 1) % all.len();
                (g.clone(), all[i])
            },
            |(g, a)| {
                g.apply(*a).expect("a generated action is legal");
            },
            BatchSize::SmallInput,
        )
    });
    c.bench_function("clone of the First Day (the setup of the above)", |b| {
        b.iter(|| black_box(g.clone()))
    });
}

fn random_games(c: &mut Criterion) {
    let start = common::game("bon-first-day");
    let mut seed = 0;
    let mut group = c.benchmark_group("random games");
    group.sample_size(10);
    group.bench_function("whole random First Day", |b| {
        b.iter(|| {
            seed += 1;
            let mut g = start.clone();
            let n = common::play_random(&mut g, seed, 1_000_000, |_, _| {}).len();
            black_box(n)
        })
    });
    group.finish();
}

criterion_group!(benches, opening_benches, random_games);
criterion_main!(benches);
