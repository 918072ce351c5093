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
