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

use hexmap::Hex;

/// The neighbour of `h` in direction `d` (0..6), if on the map.
pub fn step(g: &Game, h: Hex, d: usize) -> Option<Hex> {
    g.board()
        .neighbours(h)
        .find(|&(x, _)| x == d)
        .map(|(_, n)| n)
}

/// `k` steps from `h` in direction `d`.
pub fn steps(g: &Game, h: Hex, d: usize, k: usize) -> Hex {
    let mut at = h;
    for _ in 0..k {
        at = step(g, at, d).expect("on the map");
    }
    at
}

fn plain(g: &Game, h: Hex) -> bool {
    let b = g.board();
    let i = b.hex(h);
    b.contains(h)
        && i.kind == 0
        && !i.austria
        && i.city.is_none()
        && b.neighbours(h).count() == 6
        && (0..6).all(|d| {
            let s = b.side(h, d);
            !s.river && s.cost == 1 && s.zoc && s.retreat && s.defence == 1
        })
}

/// A clear hex whose every hex within `r` is clear, inland, with no feature on any hexside.
pub fn open_ground(g: &Game, r: u32) -> Hex {
    let b = g.board();
    let r16 = r as i16;
    (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| {
            let mut n = 0;
            for x in h.x - r16 - 1..=h.x + r16 + 1 {
                for y in h.y - r16 - 1..=h.y + r16 + 1 {
                    let c = Hex::new(x, y);
                    if b.distance(h, c) <= r {
                        if !plain(g, c) {
                            return false;
                        }
                        n += 1;
                    }
                }
            }
            n == 1 + 3 * (r * r + r)
        })
        .expect("some open ground")
}

/// Two clear hexes either side of an unbridged river hexside: (a, b, direction from a).
pub fn river_crossing(g: &Game) -> (Hex, Hex, usize) {
    let b = g.board();
    for i in 0..b.len() {
        let a = b.hex_at(i);
        for (d, n) in b.neighbours(a) {
            let s = b.side(a, d);
            if s.river
                && !s.zoc
                && b.hex(a).kind == 0
                && b.hex(n).kind == 0
                && !b.hex(a).austria
                && !b.hex(n).austria
            {
                return (a, n, d);
            }
        }
    }
    panic!("no unbridged river between clear hexes");
}

/// A fortress hex outside Austria.
pub fn fortress(g: &Game) -> Hex {
    let b = g.board();
    (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| b.hex(h).fortress && !b.hex(h).austria && b.neighbours(h).count() == 6)
        .expect("a fortress")
}

/// A game of scenario 5 (no reconnaissance, no Saxon garrison) emptied for a staged position,
/// at the start of `player`'s movement phase on turn 25.
pub fn staged(player: u8) -> Game {
    let mut g = game(5);
    g.stage_empty(25, player);
    g
}

/// Applies an action given as text, panicking with the refusal.
pub fn act(g: &mut Game, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|r| panic!("{text}: {r}"));
    g.apply(a).unwrap_or_else(|r| panic!("{text}: {r}"));
}

/// The refusal of an action given as text.
pub fn refusal(g: &Game, text: &str) -> engine::Refusal {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|r| panic!("{text}: {r}"));
    g.check(a).expect_err(text)
}
