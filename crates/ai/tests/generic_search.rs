//! The generic Monte Carlo search (`ai::montecarlo`) over a second rules system: the toy
//! *Scouts* with a trivial plug-in (every legal action a candidate, random rollouts to the end,
//! the result as the value). It plays legally, the same game for the same seed and simulation
//! budget whatever the number of workers, and beats random play.

use ai::montecarlo::{Knowledge, MonteCarloPlayer, Rollout};
use ai::{play_any, AnyRandom};
use engine::dynamic::{DynGame, DynPlayer, ScenarioSource, System};
use engine::{Dice, Rules, Side, ToAct};

/// Knows nothing of Scouts but the rules interface.
struct Trivial;

/// Uniformly random legal actions.
struct RandomPolicy(Dice);

impl Rollout<toy::Game> for RandomPolicy {
    fn act(&mut self, g: &toy::Game) -> toy::Action {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let i = self.0.draw(&vec![1; legal.len()]).unwrap_or(0);
        legal[i]
    }
}

impl Knowledge<toy::Game> for Trivial {
    type Policy = RandomPolicy;

    fn candidates(&self, g: &toy::Game, _me: Side, _seed: u64) -> Vec<Vec<toy::Action>> {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        legal.into_iter().map(|a| vec![a]).collect()
    }

    fn policy(&self, _seat: Side, seed: u64) -> RandomPolicy {
        RandomPolicy(Dice::new(seed))
    }

    fn evaluate(&self, g: &toy::Game, me: Side) -> f64 {
        match g.to_act() {
            ToAct::Over(o) => match o.winner {
                Some(w) if w == me => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            _ => 0.5,
        }
    }

    fn horizon_reached(&self, _start: &toy::Game, _now: &toy::Game, _me: Side) -> bool {
        false // a game of Scouts is short: play it out
    }
}

fn new_game(seed: u64) -> Box<dyn DynGame> {
    let src = ScenarioSource {
        name: "toy-skirmish",
        text: toy::SCENARIO,
        read: &|f| Err(format!("no file {f}")),
    };
    toy::Toy
        .new_game(&src, seed)
        .expect("the shipped toy scenario")
}

fn typed(g: &dyn DynGame) -> &toy::Game {
    &g.as_any()
        .downcast_ref::<toy::ToyGame>()
        .expect("a toy game")
        .session
        .game
}

/// The generic search as a player of the dynamic interface.
struct Searcher(MonteCarloPlayer<toy::Game, Trivial>);

impl DynPlayer for Searcher {
    fn choose(&mut self, game: &dyn DynGame) -> String {
        let g = typed(game);
        let a = self.0.choose(g).expect("a seat is to act");
        assert!(g.check(a).is_ok(), "the search chose an illegal action");
        g.action_text(a)
    }

    fn name(&self) -> String {
        "montecarlo".into()
    }
}

fn searcher(seed: u64, workers: usize) -> Box<dyn DynPlayer> {
    Box::new(Searcher(
        MonteCarloPlayer::new(Trivial, seed, 48).with_workers(workers),
    ))
}

#[test]
fn a_seeded_generic_search_plays_the_same_legal_game_whatever_the_workers() {
    let play = |workers: usize| {
        let mut g = new_game(3);
        let mut players = vec![searcher(11, workers), Box::new(AnyRandom::new(5)) as _];
        let rep = play_any(g.as_mut(), &mut players, 1_000);
        assert_eq!(rep.refused, 0, "a refused action");
        assert!(rep.outcome.is_some(), "the game did not end");
        rep.record.actions
    };
    assert_eq!(play(1), play(2));
}

#[test]
fn the_generic_search_beats_random_play_at_scouts() {
    let games = 16u64;
    let (mut won, mut lost) = (0, 0);
    for seed in 0..games {
        let mc_seat = (seed % 2) as usize;
        let mut players: Vec<Box<dyn DynPlayer>> = vec![
            Box::new(AnyRandom::new(seed + 100)),
            Box::new(AnyRandom::new(seed + 200)),
        ];
        players[mc_seat] = searcher(seed, 2);
        let mut g = new_game(seed);
        let rep = play_any(g.as_mut(), &mut players, 1_000);
        assert_eq!(rep.refused, 0);
        match rep.outcome.and_then(|o| o.winner) {
            Some(w) if w.0 as usize == mc_seat => won += 1,
            Some(_) => lost += 1,
            None => {}
        }
    }
    println!("the search won {won}, lost {lost} of {games}");
    assert!(
        won >= 3 * lost.max(1) && won * 2 > games,
        "won {won}, lost {lost}"
    );
}
