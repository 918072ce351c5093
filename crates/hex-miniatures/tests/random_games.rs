//! Random legal play carries a battle from its first turn to its end ([5.1.2], [5.1.3], [14]);
//! every generated action is accepted and its text parses back; chance comes from the
//! engine's seeded dice (`draw_chance`); a replay reproduces every state hash.

use engine::{draw_chance, Dice, Rules, ToAct};
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::Scenario;
use hex_miniatures::{Action, Game, Setup};

/// Plays random legal actions (and the dice's draws) until the game is over or `limit`
/// actions; returns the actions and the state hash after each.
fn play(start: &Game, seed: u64, limit: usize) -> (Game, Vec<Action>, Vec<u64>) {
    let mut g = start.clone();
    let mut dice = Dice::new(seed);
    let mut choose = Dice::new(seed ^ 0x9e37_79b9);
    let mut actions = Vec::new();
    let mut hashes = Vec::new();
    let mut buf = Vec::new();
    while actions.len() < limit {
        let a = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => draw_chance(&g, &mut dice).expect("a chance event has outcomes"),
            ToAct::Side(_) => {
                buf.clear();
                g.legal_actions(&mut buf);
                assert!(!buf.is_empty(), "no legal action at {:?}", g.stage());
                // favour `end` a little less than the moves so that units act
                let i = (choose.next_u64() % buf.len() as u64) as usize;
                if actions.len() % 7 == 0 {
                    for &b in buf.iter().step_by(1 + buf.len() / 20) {
                        assert!(
                            g.check(b).is_ok(),
                            "generated but refused: {}",
                            g.action_text(b)
                        );
                        let t = g.action_text(b);
                        assert_eq!(g.parse_action(&t).unwrap(), b, "{t}");
                    }
                }
                buf[i]
            }
        };
        g.apply(a)
            .unwrap_or_else(|r| panic!("{}: {r}", g.action_text(a)));
        actions.push(a);
        hashes.push(g.state_hash());
    }
    (g, actions, hashes)
}

fn replays(start: &Game, actions: &[Action], hashes: &[u64]) {
    let mut r = start.clone();
    for (i, a) in actions.iter().enumerate() {
        r.apply(*a).unwrap();
        assert_eq!(r.state_hash(), hashes[i], "replay diverged at action {i}");
    }
}

#[test]
fn random_skirmishes_finish_and_replay_exactly() {
    let t = Tables::shipped();
    let start = Game::from_setup(Setup::skirmish(), &t).unwrap();
    for seed in 0..6 {
        let (g, actions, hashes) = play(&start, seed, 200_000);
        assert!(
            matches!(g.to_act(), ToAct::Over(_)),
            "seed {seed}: not over after {} actions",
            actions.len()
        );
        replays(&start, &actions, &hashes);
    }
}

#[test]
fn a_random_moeckern_finishes_and_replays_exactly() {
    let t = Tables::shipped();
    let start = Game::new(&Scenario::moeckern(), &t).unwrap();
    let (g, actions, hashes) = play(&start, 1, 400_000);
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "not over after {} actions (turn {}, {:?})",
        actions.len(),
        g.turn(),
        g.stage()
    );
    replays(&start, &actions, &hashes);
}

#[test]
#[ignore]
fn stats() {
    use std::collections::BTreeMap;
    let t = Tables::shipped();
    let start = Game::new(&Scenario::moeckern(), &t).unwrap();
    let mut g = start.clone();
    let mut dice = Dice::new(3);
    let mut choose = Dice::new(5);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut n = 0;
    let mut buf = Vec::new();
    let mut texts: BTreeMap<String, usize> = BTreeMap::new();
    while !matches!(g.to_act(), ToAct::Over(_)) {
        let a = match g.to_act() {
            ToAct::Chance => draw_chance(&g, &mut dice).unwrap(),
            _ => {
                buf.clear();
                g.legal_actions(&mut buf);
                buf[(choose.next_u64() % buf.len() as u64) as usize]
            }
        };
        let w = g.action_text(a).split(' ').next().unwrap().to_string();
        *texts.entry(w).or_default() += 1;
        g.apply(a).unwrap();
        n += 1;
        for e in g.events() {
            let v = serde_json::to_value(e).unwrap();
            *kinds
                .entry(v["kind"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    println!(
        "{n} actions; {texts:?}\n{kinds:?}\n{:?}\n{:?}",
        g.casualties(),
        g.to_act()
    );
}
