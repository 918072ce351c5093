//! The computer players of the hex-miniatures rules (`ai::hm`) on Möckern 1813: every action
//! the heuristic chooses is legal, the same seed gives the same game, and the heuristic does
//! better than random play.

use ai::hm::HmHeuristic;
use engine::{draw_chance, Dice, Rules, ToAct};
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::Scenario;
use hex_miniatures::Game;

fn moeckern() -> Game {
    Game::new(&Scenario::moeckern(), &Tables::shipped()).expect("Möckern sets up")
}

/// A seat: the heuristic or uniformly random legal actions.
enum Seat {
    Heuristic(HmHeuristic),
    Random(Dice),
}

/// Plays Möckern to its end or `max` actions of the players; every chosen action must be
/// legal. Returns the game and the actions' texts.
fn play(seats: &mut [Seat; 2], seed: u64, max: usize) -> (Game, Vec<String>) {
    let mut g = moeckern();
    let mut dice = Dice::new(seed);
    let mut texts = Vec::new();
    let mut acted = 0;
    let mut legal = Vec::new();
    while acted < max {
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = draw_chance(&g, &mut dice).expect("a chance outcome");
                g.apply_unchecked(a);
            }
            ToAct::Side(s) => {
                let a = match &mut seats[usize::from(s.0)] {
                    Seat::Heuristic(p) => p.choose(&g).expect("the heuristic chooses"),
                    Seat::Random(d) => {
                        legal.clear();
                        g.legal_actions(&mut legal);
                        legal[d.draw(&vec![1; legal.len()]).unwrap_or(0)]
                    }
                };
                if let Err(r) = g.check(a) {
                    panic!("an illegal '{}': {r:?}", g.action_text(a));
                }
                texts.push(g.action_text(a));
                g.apply_unchecked(a);
                acted += 1;
            }
        }
    }
    (g, texts)
}

fn heuristics(seed: u64) -> [Seat; 2] {
    [
        Seat::Heuristic(HmHeuristic::new(seed)),
        Seat::Heuristic(HmHeuristic::new(seed + 1)),
    ]
}

/// A side's margin: objectives held minus the enemy's, then the enemy's losses in percent less
/// its own.
fn margin(g: &Game, side: u8) -> f64 {
    let held = g.objective_holders();
    let ours = held.iter().filter(|&&(_, s)| s == side).count() as f64;
    let theirs = held.len() as f64 - ours;
    let cas = g.casualties();
    let pct = |s: usize| f64::from(cas[s].0) * 100.0 / f64::from(cas[s].1.max(1));
    let (me, them) = (usize::from(side), usize::from(1 - side));
    (ours - theirs) * 10.0 + pct(them) - pct(me)
}

#[test]
fn the_heuristic_plays_only_legal_actions_and_moves_its_army() {
    let (g, texts) = play(&mut heuristics(1), 7, 600);
    assert!(texts.len() >= 100, "{} actions", texts.len());
    assert!(g.turn() > 1, "turn {}", g.turn());
    assert!(texts.iter().any(|t| t.starts_with("move ")), "{texts:?}");
    assert!(texts.iter().any(|t| t.starts_with("order ")), "{texts:?}");
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let (a, ta) = play(&mut heuristics(3), 11, 300);
    let (b, tb) = play(&mut heuristics(3), 11, 300);
    assert_eq!(ta, tb);
    assert_eq!(a.state_hash(), b.state_hash());
}

fn heuristic_vs_random(games: u64, max: usize) -> (u32, f64) {
    let mut better = 0;
    let mut total = 0.0;
    for i in 0..games {
        // the heuristic takes each side in turn
        let h = (i % 2) as u8;
        let mut seats = if h == 0 {
            [
                Seat::Heuristic(HmHeuristic::new(i)),
                Seat::Random(Dice::new(i + 100)),
            ]
        } else {
            [
                Seat::Random(Dice::new(i + 100)),
                Seat::Heuristic(HmHeuristic::new(i)),
            ]
        };
        let (g, _) = play(&mut seats, 1000 + i, max);
        let m = margin(&g, h);
        total += m;
        if m > 0.0 {
            better += 1;
        }
    }
    (better, total / games as f64)
}

#[test]
fn the_heuristic_does_better_than_random_play() {
    let (better, mean) = heuristic_vs_random(2, 1500);
    assert!(
        better >= 1 && mean > 0.0,
        "{better} of 2, mean margin {mean}"
    );
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn the_heuristic_beats_random_over_whole_games() {
    let (better, mean) = heuristic_vs_random(10, usize::MAX);
    assert!(better >= 8, "{better} of 10, mean margin {mean}");
}
