//! Random legal games of every scenario: played to their end from a seed, every generated
//! action accepted and its text parsed back, every game replayed exactly from its texts.

mod common;
use common::*;
use engine::{Rules, ToAct};

fn run(n: u8, seed: u64) {
    let start = game(n);
    let mut g = start.clone();
    let mut hashes = Vec::new();
    let mut buf = Vec::new();
    let actions = play_random(&mut g, seed, 200_000, |g| {
        hashes.push(g.state_hash());
        buf.clear();
        g.legal_actions(&mut buf);
        for &a in buf.iter().step_by(buf.len() / 20 + 1) {
            assert!(
                g.check(a).is_ok(),
                "generated but refused: {}",
                g.action_text(a)
            );
            let t = g.action_text(a);
            assert_eq!(g.parse_action(&t).unwrap(), a, "{t}");
        }
    });
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "scenario {n} seed {seed}: not over after {} actions (turn {})",
        actions.len(),
        g.turn()
    );
    // The replay from the texts reproduces every state.
    let mut r = start;
    for (i, t) in actions.iter().enumerate() {
        assert_eq!(
            r.state_hash(),
            hashes[i],
            "scenario {n} seed {seed}: step {i}"
        );
        let a = r.parse_action(t).unwrap();
        r.apply(a).unwrap();
    }
    assert_eq!(r.state_hash(), g.state_hash());
}

#[test]
fn every_scenario_plays_to_its_end_from_a_seed_and_replays_exactly() {
    for n in 1..=8u8 {
        run(n, u64::from(n) * 7919);
    }
}
