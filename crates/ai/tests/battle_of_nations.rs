//! Whole Battle of Nations games between random legal players reach a legal result.

use ai::{play_game, RandomPlayer};
use engine::{replay, Rules, ToAct};
use std::sync::Arc;

fn random_games(id: &str, seeds: std::ops::Range<u64>) {
    let sc = Arc::new(scenarios::load(id).expect("shipped scenario loads"));
    for seed in seeds {
        let mut a = RandomPlayer::new(seed * 2 + 1);
        let mut b = RandomPlayer::new(seed * 2 + 2);
        let r = play_game(sc.clone(), seed, [&mut a, &mut b]);
        assert_ne!(r.outcome.case, "4.0", "{id} seed {seed}: game cut off");
        assert!(
            ["17.2", "17.3", "17.4"].contains(&r.outcome.case),
            "{:?}",
            r.outcome
        );
        // the record replays to the same end
        let (g, _) = replay(naw::Game::from_arc(sc.clone()), &r.record, sc.digest, None)
            .unwrap_or_else(|e| panic!("{id} seed {seed}: {e}"));
        assert!(matches!(g.to_act(), ToAct::Over(_)));
        assert_eq!(
            engine::hash_text(g.state_hash()),
            r.record.actions.last().unwrap().hash.clone().unwrap()
        );
    }
}

#[test]
fn first_day_random_games_end_legally() {
    random_games("bon-first-day", 0..12);
}

#[test]
fn third_day_random_games_end_legally() {
    random_games("bon-third-day", 0..8);
}

#[test]
fn grand_battle_random_games_end_legally() {
    random_games("bon-grand-battle", 0..12);
}
