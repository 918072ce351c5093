//! A golden game: the same scenario, seed and choices give the same states on every machine.
//! If this test fails after a deliberate rules change, every saved game's hashes change too:
//! say so in the commit and bump the rules version.

use engine::{Dice, Rules, ToAct};

fn play(id: &str, seed: u64) -> (usize, u64) {
    let sc = scenarios::load(id).expect("shipped scenario");
    let mut g = naw::Game::new(sc);
    let mut dice = Dice::new(seed);
    let mut choice = Dice::new(seed + 1);
    let mut buf = Vec::new();
    let mut n = 0;
    while n < 100_000 {
        let a = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => naw::Action::Roll(dice.roll()),
            ToAct::Side(_) => {
                buf.clear();
                g.legal_actions(&mut buf);
                buf[(choice.next_u64() % buf.len() as u64) as usize]
            }
        };
        g.apply(a).expect("legal");
        n += 1;
    }
    (n, g.state_hash())
}

#[test]
fn golden_first_day_game() {
    let (n, h) = play("bon-first-day", 1813);
    assert_eq!(
        (n, engine::hash_text(h)),
        (434, "9c3860e1b77e068e".to_string()),
        "actions and final state hash"
    );
}
