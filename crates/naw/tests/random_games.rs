//! Random legal games on generated maps: the engine's invariants hold at every step.

mod common;
use common::*;
use engine::{Rules, ToAct};
use naw::{Game, Loc, Step};
use proptest::prelude::*;

fn invariants(g: &Game) {
    let mut seen = std::collections::HashSet::new();
    let total: u32 = g.scenario().units.iter().map(|u| u.strength as u32).sum();
    let mut accounted = 0u32;
    for u in g.unit_ids() {
        let s = g.scenario().unit(u).strength as u32;
        match g.loc(u) {
            Loc::Map(h) => {
                assert!(seen.insert(h), "two units in {h}");
                assert_eq!(g.unit_at(h), Some(u));
                accounted += s;
            }
            Loc::Waiting | Loc::Lifted(_) => accounted += s,
            Loc::Eliminated => {}
        }
    }
    let lost: u32 = g.losses().iter().sum();
    // 17.5 adds cut-off units to losses at the end without removing them
    if !matches!(g.to_act(), ToAct::Over(_)) || g.scenario().loc.is_none() {
        assert_eq!(
            accounted + lost,
            total,
            "strength leaves play only by elimination"
        );
    }
}

fn run(seed: u64) {
    let sc = generated(seed, 12, 14, 40);
    let start = Game::new(sc);
    let mut g = start.clone();
    let mut hashes = Vec::new();
    let mut buf = Vec::new();
    let actions = play_random(&mut g, seed, 6000, |g, _| {
        invariants(g);
        hashes.push(g.state_hash());
        // every generated action is accepted
        buf.clear();
        g.legal_actions(&mut buf);
        for &a in buf.iter().take(40) {
            assert!(
                g.check(a).is_ok(),
                "generated but refused: {}",
                g.action_text(a)
            );
            // canonical text parses back to the same action
            let t = g.action_text(a);
            assert_eq!(g.parse_action(&t).unwrap(), a, "{t}");
        }
        if g.step() == Step::Movement {
            // one unit per hex at every phase end is implied by the occupancy invariant
        }
    });
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "seed {seed}: game did not finish in 6000 actions ({:?} turn {})",
        g.step(),
        g.turn()
    );
    // replay reproduces the state hash at every step
    let mut r = start;
    for (i, a) in actions.iter().enumerate() {
        r.apply(*a).unwrap();
        assert_eq!(r.state_hash(), hashes[i], "replay diverged at action {i}");
    }
}

#[test]
fn random_games_finish_and_keep_invariants() {
    for seed in 0..12 {
        run(seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]
    #[test]
    fn random_games_on_generated_maps(seed in any::<u64>()) {
        run(seed);
    }
}

/// Checking a move right after searching the unit's destinations reuses that search (the
/// usual pattern of a player picking among them): it must answer exactly as a cold check,
/// refusals (case and sentence) and paths included.
#[test]
fn checking_a_move_after_its_search_answers_as_a_cold_check() {
    for seed in 0..4 {
        let mut g = Game::new(generated(seed, 12, 14, 40));
        let hexes: Vec<_> = g.scenario().map.hexes().collect();
        let mut n = 0;
        play_random(&mut g, seed, 3000, |g, _| {
            n += 1;
            if g.step() != Step::Movement || n % 7 != 0 {
                return;
            }
            let mut dests = Vec::new();
            let movable: Vec<_> = g.unit_ids().filter(|&u| g.may_move(u)).collect();
            if movable.len() < 2 {
                return;
            }
            for (k, &u) in movable.iter().take(3).enumerate() {
                let other = movable[(k + 1) % movable.len()];
                for &to in &hexes {
                    let a = naw::Action::Move { unit: u, to };
                    // cold: the last search was another unit's
                    g.destinations(other, &mut dests);
                    let cold = (g.check(a), g.path(u, to));
                    g.destinations(u, &mut dests);
                    let warm_check = g.check(a);
                    g.destinations(u, &mut dests);
                    let warm_path = g.path(u, to);
                    assert_eq!(
                        cold,
                        (warm_check.clone(), warm_path),
                        "{}",
                        g.action_text(a)
                    );
                    assert_eq!(
                        warm_check.is_ok(),
                        dests.iter().any(|d| d.hex == to),
                        "{}",
                        g.action_text(a)
                    );
                }
            }
        });
    }
}
