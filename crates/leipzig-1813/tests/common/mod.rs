//! Helpers shared by the game's tests: building a scenario's game, seeded random play.
#![allow(dead_code)]

use engine::{draw_chance, Dice, Rules, ToAct};
use leipzig_1813::data::Tables;
use leipzig_1813::scenario::Scenario;
use leipzig_1813::{Action, Game};

/// A shipped scenario's game with the shipped tables.
pub fn game(n: u8) -> Game {
    Game::new(&Scenario::leipzig(n).unwrap(), &Tables::leipzig()).unwrap()
}

/// Plays seeded random legal actions (ending a step a third of the times it may, so that
/// games finish) until the game is over or `limit` actions; returns the actions' texts.
pub fn play_random(g: &mut Game, seed: u64, limit: usize, each: impl FnMut(&Game)) -> Vec<String> {
    play_random_ending(g, seed, limit, 3, each)
}

/// As [`play_random`], ending a step one time in `end_one_in` that it may.
pub fn play_random_ending(
    g: &mut Game,
    seed: u64,
    limit: usize,
    end_one_in: u32,
    mut each: impl FnMut(&Game),
) -> Vec<String> {
    let mut dice = Dice::new(seed);
    let mut choose = Dice::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for _ in 0..limit {
        each(g);
        let a = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => draw_chance(g, &mut dice).expect("a die"),
            ToAct::Side(_) => {
                buf.clear();
                g.legal_actions(&mut buf);
                if buf.is_empty() {
                    let pending: Vec<String> = (0..g.units().len())
                        .filter(|&i| g.units()[i].status == leipzig_1813::game::Status::Pending)
                        .map(|i| format!("{} {:?}", g.label(i), g.placement_hexes(i)))
                        .collect();
                    panic!(
                        "no legal action: a dead end at turn {} step {:?} player {}; pending {pending:?}; end: {:?}",
                        g.turn(),
                        g.step(),
                        g.player(),
                        g.check(Action::End)
                    );
                }
                let mut w = vec![1u32; end_one_in.max(1) as usize];
                w[0] = 0;
                w.push(1);
                let end_now = choose.draw(&w) == Some(w.len() - 1);
                if buf.contains(&Action::End) && end_now {
                    Action::End
                } else {
                    let w = vec![1u32; buf.len()];
                    buf[choose.draw(&w).unwrap()]
                }
            }
        };
        out.push(g.action_text(a));
        g.apply(a)
            .unwrap_or_else(|r| panic!("{}: {r}", g.action_text(a)));
    }
    out
}
