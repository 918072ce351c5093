//! The study tools of the command line (issue 12): `hexsides`, `retreats`, `reach` and
//! `show --map HEX --radius N`, over a First Day game that reaches a retreat.

use predicates::str::contains;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

mod common;
use common::{grognard, json_of, stdout_of};

fn act(record: &Path, actions: &[&str]) {
    common::act_ok(record, actions);
}

/// The First Day, seed 7: the Allies attack FR.26 in Markkleeberg (2316) with PR.9 from 2416
/// and a physical 4 gives Ar: PR.9 must retreat.
fn retreating_game(dir: &TempDir) -> PathBuf {
    let p = common::new_record(dir.path(), "bon-first-day", 7);
    act(&p, &["end"]);
    act(&p, &["move PR.9 2416", "end"]);
    act(&p, &["attack PR.9 FR.26", "end"]);
    act(&p, &["resolve FR.26", "--die", "4"]);
    p
}

#[test]
fn hexsides_list_features_by_the_legend_and_their_crossing() {
    let dir = TempDir::new().unwrap();
    let g = retreating_game(&dir);
    // the bridge of 1218: road, river and bridge, crossed at the road's half point
    let out = grognard()
        .arg("hexsides")
        .arg(&g)
        .arg("1218")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1218 Town"), "{text}");
    assert!(
        text.contains("NE 1118  Road, River, Bridge    cross ½ MP, back ½ MP"),
        "{text}"
    );
    // a river without a bridge: no crossing (5.24)
    let out = grognard()
        .arg("hexsides")
        .arg(&g)
        .arg("0530")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("SW 0630  River                  cross prohibited (5.24)"),
        "{text}"
    );
    // JSON, with a radius: the area's hexes and every featured hexside once
    let out = grognard()
        .args(["hexsides", "--json", "--radius", "1"])
        .arg(&g)
        .arg("0518")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["centre"], "0518");
    assert_eq!(v["hexes"].as_array().unwrap().len(), 7);
    let sides = v["hexsides"].as_array().unwrap();
    let stream = sides
        .iter()
        .find(|s| s["hex"] == "0518" && s["to"] == "0517")
        .unwrap();
    assert_eq!(stream["features"][0]["id"], "stream");
    assert_eq!(stream["features"][0]["name"], "Stream");
    assert_eq!(stream["out"]["mp"], 3.0);
    let mut pairs: Vec<(String, String)> = sides
        .iter()
        .map(|s| {
            let (a, b) = (s["hex"].to_string(), s["to"].to_string());
            if a < b {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    let n = pairs.len();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), n, "a hexside listed twice");
    // bad input
    grognard()
        .arg("hexsides")
        .arg(&g)
        .arg("9999")
        .assert()
        .code(1)
        .stderr(contains("not on the map"));
    grognard()
        .args(["hexsides", "--radius", "40"])
        .arg(&g)
        .arg("1218")
        .assert()
        .code(1)
        .stderr(contains("at most 12"));
}

#[test]
fn retreats_of_a_retreating_unit_and_a_what_if() {
    let dir = TempDir::new().unwrap();
    let g = retreating_game(&dir);
    let out = grognard()
        .arg("retreats")
        .arg(&g)
        .arg("PR.9")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("PR.9 in 2416 is retreating (7.7)"), "{text}");
    assert!(
        text.contains("it may retreat into: 2517, 2516 (7.72)"),
        "{text}"
    );
    // the same as the legal retreats of the state view
    let out = grognard()
        .args(["show", "--json"])
        .arg(&g)
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut legal: Vec<String> = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str()?.strip_prefix("retreat PR.9 ").map(String::from))
        .collect();
    legal.sort();
    let out = grognard()
        .args(["retreats", "--json"])
        .arg(&g)
        .arg("2416") // by hex
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["unit"], "PR.9");
    assert_eq!(v["retreating"], true);
    let mut vacant: Vec<String> = v["vacant"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect();
    vacant.sort();
    assert_eq!(vacant, legal);
    assert!(v.get("eliminated").is_none());

    // a unit that is not retreating: a what-if, said so
    let out = grognard()
        .arg("retreats")
        .arg(&g)
        .arg("FR.26")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("FR.26 in 2316 is not retreating; if it had to retreat now (a what-if)"),
        "{text}"
    );
    // bad input
    grognard()
        .arg("retreats")
        .arg(&g)
        .arg("XX.1")
        .assert()
        .code(1)
        .stderr(contains("XX.1"));
}

#[test]
fn reach_of_the_enemy_next_turn() {
    let dir = TempDir::new().unwrap();
    let g = retreating_game(&dir);
    // the Allies are to act: the default side is the French, who move in game-turn 2
    let out = grognard().arg("reach").arg(&g).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("The French in their next movement phase (game-turn 2)"),
        "{text}"
    );
    assert!(text.contains("FR.4 from 2315, MA 4: "), "{text}");
    // the text sums a unit's reach up (the farthest hexes, at most six); --json lists it all
    let fr4_line = text.lines().find(|l| l.contains("FR.4 from")).unwrap();
    assert!(fr4_line.contains(" hexes, the farthest at "), "{fr4_line}");
    assert!(fr4_line.len() < 200, "{fr4_line}");
    assert!(text.contains("Within their reach"), "{text}");
    let out = grognard()
        .args(["reach", "--json"])
        .arg(&g)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["side"], "French");
    assert_eq!(v["turn"], 2);
    let fr4 = v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["unit"] == "FR.4")
        .unwrap();
    let hexes: Vec<&str> = fr4["reach"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["hex"].as_str().unwrap())
        .collect();
    // a neighbouring vacant hex, and never an occupied one
    assert!(hexes.contains(&"2214"), "{hexes:?}");
    assert!(!hexes.contains(&"2316") && !hexes.contains(&"2416"));
    assert!(fr4["could_attack"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u == "PR.9"));
    let threatened = v["threatened"].as_array().unwrap();
    let pr9 = threatened.iter().find(|t| t["unit"] == "PR.9").unwrap();
    assert_eq!(pr9["hex"], "2416");
    assert!(pr9["by"].as_array().unwrap().iter().any(|u| u == "FR.26"));

    // the Allies: later in this game-turn? no, their movement phase is over: game-turn 2
    let v: serde_json::Value = serde_json::from_slice(
        &grognard()
            .args(["reach", "--json", "--side", "allied"])
            .arg(&g)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(v["side"], "Allied");
    assert_eq!(v["turn"], 2);
    grognard()
        .args(["reach", "--side", "Swedes"])
        .arg(&g)
        .assert()
        .code(1)
        .stderr(contains("not a side of this game (French, Allied)"));
}

#[test]
fn show_map_cropped_with_hex_numbers_and_the_last_moves() {
    let dir = TempDir::new().unwrap();
    let g = retreating_game(&dir);
    act(&g, &["retreat PR.9 2517"]);
    let out = grognard()
        .args(["show", "--map", "2316", "--radius", "2"])
        .arg(&g)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Map within 2 hexes of 2316"), "{text}");
    // every hex number of the area is printed, the centre bracketed; none beyond it
    assert!(text.contains("[2316]"), "{text}");
    for h in ["2116", "2214", "2318", "2415", "2516", "2517"] {
        assert!(text.contains(h), "{h} missing:\n{text}");
    }
    assert!(
        !map_part(&text).contains("2319") && !map_part(&text).contains("2518"),
        "{text}"
    );
    // the moves of the Allied player-turn: PR.9 moved and retreated
    assert!(
        text.contains("Moves of this player-turn and the one before:"),
        "{text}"
    );
    assert!(
        text.contains("2. PR.9       2516 -> 2416  (move PR.9 2416)"),
        "{text}"
    );
    assert!(
        text.contains("PR.9       2416 -> 2517  (retreat PR.9 2517)"),
        "{text}"
    );
    // PR.9 (key a) stands marked in 2517; 2416 and 2516, which it left, are marked o
    let map = &text[text.find("Map within").unwrap()..];
    let line_of = |h: &str| {
        let lines: Vec<&str> = map.lines().collect();
        let i = lines.iter().position(|l| l.contains(h)).unwrap();
        let col = lines[i].find(h).unwrap();
        lines[i + 1][col..col + 6].to_string()
    };
    assert_eq!(line_of("2517").trim_end(), " .a *", "{text}");
    assert_eq!(line_of("2416").trim_end(), " .  o", "{text}");
    assert_eq!(line_of("2516").trim_end(), " .  o", "{text}");
    assert!(text.contains("Terrain: . Clear"), "{text}");

    // --last 1: only the retreat
    let text = stdout_of(&["show", "--map", "2316", "--last", "1"], &g);
    assert!(text.contains("Moves of the last 1 actions:"), "{text}");
    assert!(!text.contains("(move PR.9 2416)"), "{text}");

    // --json: one object, the state with the map's view
    let v = json_of(&["show", "--json", "--map", "2316", "--radius", "1"], &g);
    assert_eq!(v["map_around"]["centre"], "2316");
    assert_eq!(v["map_around"]["moves"][1]["to"], "2517");
    assert!(v["units"].is_array());

    // bad input
    grognard()
        .args(["show", "--radius", "2"])
        .arg(&g)
        .assert()
        .code(2);
    grognard()
        .args(["show", "--map", "2316", "--radius", "99"])
        .arg(&g)
        .assert()
        .code(1)
        .stderr(contains("at most 12"));
}

/// The cropped map's part of `show`'s output.
fn map_part(text: &str) -> &str {
    &text[text.find("Map within").unwrap()..]
}
