//! The record of actions the Leipzig 1813 browser test of a retreat's route replays
//! (`e2e/tests/data/l1813-retreat.json`), found in games of two heuristic computer players and
//! written again after a rules change by one command (from the workspace's root):
//!
//! ```text
//! L1813_E2E_DATA=e2e/tests/data cargo test -p systems --test l1813_e2e_data -- --ignored
//! ```
//!
//! (without `L1813_E2E_DATA` the record is printed). It holds the scenario, the seed and the
//! actions of the seats only: the server rolls the dice from the seed, as here
//! (`DynGame::roll` after every action), so the same actions reach the same position.
//!
//! - `l1813-retreat.json`: the actions up to a combat's result after which a retreating stack's
//!   owner chooses its route among equal ends (Retreat Order of Preference, ruling L45): the
//!   state then waits for `retreat A3 HEX`, which the browser test makes by clicking one of the
//!   highlighted ends.

use engine::dynamic::DynGame;
use engine::ToAct;
use serde_json::{json, Value};
use systems::L1813Game;
use systems::Library;

const SYSTEM: &str = "leipzig-1813";
/// The scenarios and seeds tried, in order.
const TRIES: &[(&str, u64)] = &[
    ("leipzig1813-5", 1),
    ("leipzig1813-5", 2),
    ("leipzig1813-1", 1),
    ("leipzig1813-5", 3),
    ("leipzig1813-1", 2),
    ("leipzig1813-5", 4),
    ("leipzig1813-1", 3),
    ("leipzig1813-5", 5),
];
/// No game of the search goes beyond this many actions.
const MAX_ACTIONS: usize = 40_000;

/// The typed game behind a hosted one.
fn typed(g: &dyn DynGame) -> &leipzig_1813::Game {
    &g.as_any()
        .downcast_ref::<L1813Game>()
        .expect("a Leipzig 1813 game")
        .session
        .game
}

/// Rolls every pending chance.
fn roll(g: &mut dyn DynGame) {
    while g.to_act() == ToAct::Chance {
        if g.roll().is_none() {
            break;
        }
    }
}

/// Plays heuristic against heuristic from the scenario with the seed until a retreat's route
/// waits for its owner among at least two ends: the seats' actions so far, with the choice.
fn find(lib: &Library, scenario: &str, seed: u64) -> Option<(Vec<String>, Value)> {
    let sys = lib.system(SYSTEM).unwrap();
    let mut g = lib.new_game(scenario, None, seed).unwrap();
    let mut players = [
        sys.player("heuristic", seed).unwrap(),
        sys.player("heuristic", seed + 1).unwrap(),
    ];
    let mut actions = Vec::new();
    roll(g.as_mut());
    while actions.len() < MAX_ACTIONS {
        let ToAct::Side(s) = g.to_act() else {
            return None;
        };
        if let Some(c) = typed(g.as_ref()).retreat_choice() {
            let routes: Vec<String> = g
                .legal()
                .into_iter()
                .filter(|a| a.kind == "retreat")
                .map(|a| a.text)
                .collect();
            if c.options.len() >= 2 && routes.len() >= 2 {
                let view = g.view(engine::Viewer::Referee);
                return Some((
                    actions,
                    json!({
                        "side": view["to_act"],
                        "step": view["step"],
                        "routes": routes,
                        "choice": view["retreat_choice"],
                    }),
                ));
            }
        }
        let text = players[usize::from(s.0)].choose(g.as_ref());
        g.act(&text)
            .unwrap_or_else(|r| panic!("'{text}' refused: {r:?}"));
        actions.push(text);
        roll(g.as_mut());
    }
    None
}

#[test]
#[ignore = "writes the browser tests' records: run by the command in the module's documentation"]
fn write_the_browser_tests_records() {
    let lib = Library::standard();
    let (scenario, seed, actions, at) = TRIES
        .iter()
        .find_map(|&(sc, seed)| find(&lib, sc, seed).map(|(a, v)| (sc, seed, a, v)))
        .expect("a retreat's route chosen by its owner in one of the games tried");
    let rules = lib
        .new_game(scenario, None, seed)
        .unwrap()
        .record()
        .rules
        .clone();
    let record = json!({
        "about": format!(
            "{scenario} under {SYSTEM} (rules version {rules}), seed {seed}: the actions of two \
             heuristic players up to a combat after which the {} choose a retreat's route among \
             equal ends (ruling L45): one of `routes` is made on the board. Seats' actions only: \
             the server rolls the dice from the seed. Written by `L1813_E2E_DATA=e2e/tests/data \
             cargo test -p systems --test l1813_e2e_data -- --ignored`.",
            at["side"].as_str().unwrap_or("?")
        ),
        "scenario": scenario,
        "seed": seed,
        "rules": rules,
        "actions": actions,
        "side": at["side"],
        "step": at["step"],
        "routes": at["routes"],
        "choice": at["choice"],
    });
    let text = serde_json::to_string_pretty(&record).unwrap() + "\n";
    match std::env::var("L1813_E2E_DATA") {
        Ok(dir) => {
            // a relative directory is the workspace root's (the command is run from there)
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
            std::fs::write(root.join(dir).join("l1813-retreat.json"), text).unwrap()
        }
        Err(_) => println!("{text}"),
    }
}
