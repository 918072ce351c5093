//! Leipzig 1813's heuristic player: its choices are legal, it is deterministic by seed, it
//! plays a whole scenario to its end, and it does better than random play.

use ai::l1813::{L1813Heuristic, L1813Search};
use engine::{Dice, Rules, Side, ToAct};
use leipzig_1813::data::Tables;
use leipzig_1813::scenario::Scenario;
use leipzig_1813::{Action, Game};

fn new_game(n: u8) -> Game {
    let sc = Scenario::leipzig(n).expect("a scenario");
    Game::new(&sc, &Tables::leipzig()).expect("a game")
}

/// Who plays a seat.
enum Seat {
    Heuristic(L1813Heuristic),
    Random(Dice),
}

impl Seat {
    fn choose(&mut self, g: &Game) -> Action {
        match self {
            Seat::Heuristic(h) => h.choose(g),
            Seat::Random(d) => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                let i = d.draw(&vec![1; v.len()]).unwrap_or(0);
                v.get(i).copied().unwrap_or(Action::End)
            }
        }
    }
}

/// Plays `g` for at most `turns` game-turns (or to its end), every choice checked; returns the
/// actions taken and the game.
fn play(mut g: Game, seats: &mut [Seat; 2], seed: u64, turns: u32) -> (Vec<Action>, Game) {
    let mut dice = Dice::new(seed);
    let mut log = Vec::new();
    let last = g.turn() + turns;
    for _ in 0..200_000 {
        if g.turn() >= last {
            break;
        }
        match g.to_act() {
            ToAct::Side(Side(s)) => {
                let a = seats[usize::from(s % 2)].choose(&g);
                g.check(a)
                    .unwrap_or_else(|e| panic!("{} illegal: {e:?}", g.action_text(a)));
                g.apply_unchecked(a);
                log.push(a);
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
                log.push(a);
            }
            ToAct::Over(_) => break,
        }
    }
    (log, g)
}

fn heuristic(seed: u64) -> Seat {
    Seat::Heuristic(L1813Heuristic::new(seed))
}

#[test]
fn the_heuristic_plays_a_whole_scenario_to_its_end_with_legal_choices() {
    let (_, g) = play(new_game(5), &mut [heuristic(1), heuristic(2)], 7, 100);
    assert!(
        matches!(g.to_act(), ToAct::Over(_)),
        "the game ended (turn {})",
        g.turn()
    );
}

#[test]
fn the_heuristic_is_deterministic_by_seed() {
    let a = play(new_game(5), &mut [heuristic(3), heuristic(4)], 11, 3).0;
    let b = play(new_game(5), &mut [heuristic(3), heuristic(4)], 11, 3).0;
    assert_eq!(a, b);
}

#[test]
fn the_heuristic_does_better_than_random_play() {
    // a few short games, the heuristic on each seat in turn: its victory point margin summed
    let mut margin = 0i64;
    for seed in 0..4u64 {
        for h in 0..2usize {
            let mut seats = if h == 0 {
                [heuristic(seed), Seat::Random(Dice::new(seed + 100))]
            } else {
                [Seat::Random(Dice::new(seed + 100)), heuristic(seed)]
            };
            let (_, g) = play(new_game(5), &mut seats, seed, 3);
            let vp = g.victory_points();
            margin += i64::from(vp[h]) - i64::from(vp[1 - h]);
        }
    }
    eprintln!("heuristic margin over random: {margin}");
    assert!(margin > 0, "heuristic margin over random: {margin}");
}

#[test]
fn the_search_over_the_heuristic_chooses_legal_actions() {
    // the set-up by the heuristic (its rollouts would run through the whole set-up)
    let mut g = new_game(5);
    let mut dice = Dice::new(2);
    let mut seats = [heuristic(8), heuristic(9)];
    while g.step() == leipzig_1813::game::Step::Setup {
        let a = match g.to_act() {
            ToAct::Side(Side(s)) => seats[usize::from(s % 2)].choose(&g),
            _ => engine::draw_chance(&g, &mut dice).expect("an outcome"),
        };
        g.apply_unchecked(a);
    }
    let mut p = L1813Search::new(2, 5);
    for _ in 0..15 {
        match g.to_act() {
            ToAct::Side(_) => {
                let a = p.choose(&g);
                g.check(a).expect("a legal action");
                g.apply_unchecked(a);
            }
            ToAct::Chance => {
                let a = engine::draw_chance(&g, &mut dice).expect("an outcome");
                g.apply_unchecked(a);
            }
            ToAct::Over(_) => break,
        }
    }
}
