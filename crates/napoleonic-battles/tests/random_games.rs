//! Random legal play carries each Battle of Nations scenario from its start to its end, every
//! generated action is accepted and its text parses back, and a replay reproduces every state
//! hash (NB Sequence of Play; the engine's determinism).

mod common;
use common::*;
use engine::{Rules, ToAct};
use napoleonic_battles::Game;

fn run(id: &str, seed: u64, limit: usize) -> (Game, usize) {
    let start = game(id);
    let mut g = start.clone();
    let mut hashes = Vec::new();
    let mut buf = Vec::new();
    let mut n = 0usize;
    let actions = play_random(&mut g, seed, limit, |g, _| {
        hashes.push(g.state_hash());
        n += 1;
        if n.is_multiple_of(5) {
            buf.clear();
            g.legal_actions(&mut buf);
            for &a in buf.iter().step_by(1 + buf.len() / 30) {
                assert!(
                    g.check(a).is_ok(),
                    "generated but refused: {}",
                    g.action_text(a)
                );
                let t = g.action_text(a);
                assert_eq!(g.parse_action(&t).unwrap(), a, "{t}");
            }
        }
    });
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "{id} seed {seed}: not over after {} actions (turn {}, {:?})",
        actions.len(),
        g.turn(),
        g.step()
    );
    let mut r = start;
    for (i, a) in actions.iter().enumerate() {
        r.apply(*a).unwrap();
        assert_eq!(r.state_hash(), hashes[i], "replay diverged at action {i}");
    }
    (g, actions.len())
}

#[test]
fn random_first_days_finish_and_replay_exactly() {
    for seed in 0..3 {
        run("bon-first-day", seed, 200_000);
    }
}

/// The digest of every state hash of the first five random First Days (the example
/// `random_games`' digest, over 5 games instead of its 50): equal digests, equal games. A change
/// of the rules or of the state changes it, and with it `RULES_VERSION`; record the new digest
/// here and in `docs/performance.md` (the 50 games' digest) with the reason.
#[test]
fn random_first_days_are_pinned_by_their_digest() {
    let start = game("bon-first-day");
    let mut digest = 0u64;
    for seed in 0..5 {
        let mut g = start.clone();
        play_random(&mut g, seed, 1_000_000, |g, _| {
            digest = digest.rotate_left(5) ^ g.state_hash();
        });
    }
    assert_eq!(
        format!("{digest:016x}"),
        "60075f320bb24205",
        "rules version {}",
        napoleonic_battles::RULES_VERSION
    );
}

#[test]
fn random_third_days_finish_and_replay_exactly() {
    for seed in 0..2 {
        run("bon-third-day", seed, 300_000);
    }
}

#[test]
fn a_random_grand_battle_finishes_and_replays_exactly() {
    run("bon-grand-battle", 7, 600_000);
}
