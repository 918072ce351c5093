//! The search player's speed: simulations (rollouts) per second on the Grand Battle opening,
//! the Allied movement phase of game-turn 1, on one worker thread and on every core; and the
//! heuristic's planning of that movement phase, which every rollout repeats. Then the same on
//! the First Day's last French movement phase, whose rollouts plan around the line of
//! communications (17.5) and cost the most.

use ai::{Budget, HeuristicPlayer, Player, SearchPlayer};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::{Rules, Side, ToAct};
use naw::{Game, Step};
use std::sync::Arc;

/// The Grand Battle after the French player-turn of game-turn 1, played by the heuristic.
fn opening() -> Game {
    played_to("bon-grand-battle", 1, Side(1))
}

/// A scenario played by the heuristic to `side`'s movement phase of game-turn `turn`.
fn played_to(scenario: &str, turn: u8, side: Side) -> Game {
    let sc = Arc::new(scenarios::load(scenario).expect("shipped scenario"));
    let mut g = Game::from_arc(sc);
    let mut h = HeuristicPlayer::new(1);
    let mut dice = engine::Dice::new(1);
    while !(g.turn() == turn && g.phasing() == side && g.step() == Step::Movement) {
        match g.to_act() {
            ToAct::Chance => g
                .apply(engine::draw_chance(&g, &mut dice).expect("a chance event"))
                .expect("die"),
            ToAct::Side(_) => {
                let a = h.choose(&g);
                g.apply(a).expect("legal");
            }
            ToAct::Over(_) => unreachable!("the game does not end before game-turn {turn}"),
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
    // The First Day's last French movement phase: every rollout plans the French guard of the
    // line and the Allied strike at it (17.5). The watches over the line that the rollouts
    // build are cached per thread, so after the first iteration this is the search's steady
    // state, in which most positions at the last player-turns have been met before.
    let last = played_to("bon-first-day", 5, Side(0));
    let mut group = c.benchmark_group("line of communications");
    group.sample_size(10);
    group.bench_function("first day, plan the last French movement", |b| {
        b.iter(|| {
            let mut h = HeuristicPlayer::new(3);
            black_box(h.choose(&last))
        })
    });
    let budget = 200;
    let mut pilot = SearchPlayer::new(7, Budget::Sims(budget));
    pilot.choose(&last);
    let sims = pilot.stats().simulations;
    group.throughput(Throughput::Elements(sims));
    group.bench_function(
        format!("first day, last French movement, {sims} simulations, every core"),
        |b| {
            b.iter(|| {
                let mut s = SearchPlayer::new(7, Budget::Sims(budget));
                black_box(s.choose(&last))
            })
        },
    );
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
