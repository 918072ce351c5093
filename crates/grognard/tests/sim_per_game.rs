//! `grognard sim --json` lists every game (its seed, winner, score and last game-turn), so two
//! runs with the same seed can be compared game by game.

mod common;

use common::grognard;

fn sim_json(seed: &str) -> serde_json::Value {
    sim_part(seed, 3, 0)
}

/// `games` games of the run of `seed` from the index `first` (`--first-game`).
fn sim_part(seed: &str, games: usize, first: usize) -> serde_json::Value {
    let out = grognard()
        .args(["sim", "bon-first-day", "--games", &games.to_string()])
        .args(["--first-game", &first.to_string(), "--jobs", "2"])
        .args(["--seed", seed, "--players", "heuristic:random", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn sim_json_lists_every_game_with_its_seed_and_score() {
    let v = sim_json("5");
    let games = v["per_game"].as_array().expect("per_game is a list");
    assert_eq!(games.len(), 3);
    let mut french = 0.0;
    let mut allied = 0.0;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"].as_u64(), Some(i as u64));
        // the game's seed is the run's seed mixed with its index, as the watch example takes it
        assert_eq!(g["seed"].as_u64(), Some(grognard::util::mix(5, i as u64)));
        let score = g["score"].as_array().unwrap();
        let (f, a) = (score[0].as_f64().unwrap(), score[1].as_f64().unwrap());
        assert!((f + a - 1.0).abs() < 1e-9, "game {i}: scores {f} and {a}");
        match g["winner"].as_str() {
            Some("French") => assert_eq!(f, 1.0),
            Some("Allied") => assert_eq!(a, 1.0),
            Some(other) => panic!("game {i}: winner {other}"),
            None => assert!(g["case"].as_str().is_some()),
        }
        let turn = g["turn_ended"].as_u64().unwrap();
        assert!(
            turn >= v["first_turn"].as_u64().unwrap() && turn <= v["last_turn"].as_u64().unwrap(),
            "game {i}: ended on turn {turn}"
        );
        assert_eq!(g["strength_lost"].as_array().unwrap().len(), 2);
        french += f;
        allied += a;
    }
    // the rows add up to the run's totals
    assert!((v["scores"]["French"]["points"].as_f64().unwrap() - french).abs() < 1e-9);
    assert!((v["scores"]["Allied"]["points"].as_f64().unwrap() - allied).abs() < 1e-9);
    // the same seed plays the same games, row for row
    assert_eq!(sim_json("5")["per_game"], v["per_game"]);
}

/// A run played in parts plays the whole run's games, row for row, each row under its index in
/// the whole run; a part says where it starts.
#[test]
fn sim_first_game_plays_part_of_a_run() {
    let whole = sim_json("5");
    let part = sim_part("5", 2, 1);
    assert_eq!(part["first_game"].as_u64(), Some(1));
    assert!(
        whole.get("first_game").is_none(),
        "a whole run names no first game"
    );
    let rows = part["per_game"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["game"].as_u64(), Some(1));
    assert_eq!(&part["per_game"][0], &whole["per_game"][1]);
    assert_eq!(&part["per_game"][1], &whole["per_game"][2]);
}

/// A searching player's thinking is broken down by kind of decision, and the kinds add up to
/// its simulations.
#[test]
fn sim_json_breaks_the_search_down_by_kind_of_decision() {
    let out = common::sim_one_first_day("search@100n:heuristic", 7)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["thinking"]["French"];
    let kinds = t["decisions"].as_object().expect("decisions by kind");
    let names: Vec<&str> = kinds.keys().map(String::as_str).collect();
    assert_eq!(names, ["declare", "defender", "movement", "own_combat"]);
    assert!(kinds["movement"]["searched"].as_u64().unwrap() >= 1, "{t}");
    let sims: f64 = kinds
        .values()
        .map(|k| k["searched"].as_f64().unwrap() * k["simulations_per_searched"].as_f64().unwrap())
        .sum();
    let total =
        t["simulations_per_player_turn"].as_f64().unwrap() * t["player_turns"].as_f64().unwrap();
    assert!(
        (sims - total).abs() < 1e-6 * total.max(1.0),
        "{sims} against {total}: {t}"
    );
    assert!(
        v["thinking"].get("Allied").is_none(),
        "the heuristic does not search"
    );
}
