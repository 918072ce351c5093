//! The search player's speed: simulations (rollouts) per second on the Grand Battle opening,
//! the Allied movement phase of game-turn 1, on one worker thread and on every core; and the
//! heuristic's planning of that movement phase, which every rollout repeats.

use ai::{Budget, HeuristicPlayer, Player, SearchPlayer};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::{Rules, Side, ToAct};
use naw::{Game, Step};
use std::sync::Arc;

/// The Grand Battle after the French player-turn of game-turn 1, played by the heuristic.
fn opening() -> Game {
    let sc = Arc::new(scenarios::load("bon-grand-battle").expect("shipped scenario"));
    let mut g = Game::from_arc(sc);
    let mut h = HeuristicPlayer::new(1);
    let mut dice = engine::Dice::new(1);
    while !(g.phasing() == Side(1) && g.step() == Step::Movement) {
        match g.to_act() {
            ToAct::Chance => g
                .apply(engine::draw_chance(&g, &mut dice).expect("a chance event"))
                .expect("die"),
            ToAct::Side(_) => {
                let a = h.choose(&g);
                g.apply(a).expect("legal");
            }
            ToAct::Over(_) => unreachable!("the opening does not end the game"),
        }
    }
    g
}

fn search(c: &mut Criterion) {
    let g = opening();
    let budget = 400;
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for workers in [1, rayon::current_num_threads()] {
        // the movement decision spends its share of the player-turn's simulations
        let mut pilot = SearchPlayer::new(7, Budget::Sims(budget)).with_workers(workers);
        pilot.choose(&g);
        let sims = pilot.stats().simulations;
        group.throughput(Throughput::Elements(sims));
        group.bench_function(
            format!("grand battle opening, {sims} simulations, {workers} worker(s)"),
            |b| {
                b.iter(|| {
                    let mut s = SearchPlayer::new(7, Budget::Sims(budget)).with_workers(workers);
                    black_box(s.choose(&g))
                })
            },
        );
    }
    group.finish();
    let mut group = c.benchmark_group("heuristic");
    group.bench_function("grand battle opening, plan the Allied movement", |b| {
        b.iter(|| {
            let mut h = HeuristicPlayer::new(3);
            black_box(h.choose(&g))
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
