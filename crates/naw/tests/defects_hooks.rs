//! Issue 10, defect 3: a scenario file without `[hooks]` has the defaults of
//! `docs/formats.md`, and a delayed reinforcement (15.0) is told what blocked it.

mod common;
use common::*;
use hexmap::Map;
use naw::scenario::{Hooks, HooksFile};
use naw::Scenario;

const SCENARIO: &str = r#"
format = "grognard-scenario/1"
id = "no-hooks"
title = "No hooks"
system = "naw"
map = "test"
first_turn = 1
last_turn = 3
sides = ["Blue", "Red"]

[[nations]]
id = "B"
name = "Blue"
side = "Blue"

[[nations]]
id = "R"
name = "Red"
side = "Red"

[[units]]
id = "B.1"
nation = "B"
designation = "1"
type = "infantry"
strength = 6
movement = 4
hex = "0303"

[[units]]
id = "R.1"
nation = "R"
designation = "1"
type = "infantry"
strength = 6
movement = 4
hex = "0606"
"#;

fn load(text: &str) -> Scenario {
    let map = toml::to_string(&Map::new("test", 8, 8).to_file()).unwrap();
    Scenario::from_toml(text, "no-hooks.toml", &|_| Ok(map.clone())).expect("valid")
}

#[test]
fn ruling_15_0_a_scenario_without_hooks_has_the_documented_defaults() {
    let expected = Hooks {
        no_movement_first_turn: None,
        night_withdrawal: false,
        friendly_occupied_entry_ok: true,
    };
    assert_eq!(load(SCENARIO).hooks, expected);
    // an empty [hooks] table, and the Rust default, say the same
    let mut with_empty = SCENARIO.to_string();
    with_empty.push_str("\n[hooks]\n");
    assert_eq!(load(&with_empty).hooks, expected);
    assert!(HooksFile::default().friendly_occupied_entry_ok);
    assert_eq!(Hooks::default(), expected);
}

fn entry_map() -> Build {
    Build::new(10, 10).road(&["0105", "0205", "0305", "0405", "0505"])
}

/// The texts of the game's events, whatever their form.
fn delay_text(g: &naw::Game) -> String {
    format!("{:?}", g.events()).to_lowercase()
}

#[test]
fn ruling_15_0_a_delay_by_a_friend_says_a_friend_blocks() {
    let mut b = entry_map()
        .unit("B.1 inf 6-4 0105")
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    b.hooks.friendly_occupied_entry_ok = false;
    let g = b.game();
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
    let t = delay_text(&g);
    assert!(t.contains("friend") && !t.contains("enemy"), "{t}");
}

#[test]
fn ruling_15_0_a_delay_by_the_enemy_says_the_enemy_blocks() {
    let b = entry_map()
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0205");
    let g = b.game();
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
    let t = delay_text(&g);
    assert!(t.contains("enemy") && !t.contains("friend"), "{t}");
}
