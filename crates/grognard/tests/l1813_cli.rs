//! Leipzig 1813 from the command line (issue 15): `scenarios` lists its eight scenarios with
//! their titles, `new leipzig1813-5` starts the summer historical one, `act` plays it (actions,
//! a refusal with its case, the computer), `replay --verify` checks its record, `sim` plays it
//! in the arena, and `map --png` draws the campaign map. Drives the real `grognard` binary.

use predicates::str::contains;
use serde_json::Value;
use tempfile::TempDir;

mod common;
use common::{act_ok as act, grognard, json_of, new_record, record_json, stdout_of as stdout};

const SYSTEM: &str = "leipzig-1813";

const TITLES: [&str; 8] = [
    "Historical Situation (spring)",
    "Increased French Effort",
    "Wider Alliance",
    "Increased French Effort and Wider Alliance",
    "Historical Situation (summer)",
    "No German Uprising",
    "No Austrian Involvement",
    "The Campaign",
];

#[test]
fn scenarios_lists_the_eight_with_their_titles() {
    let text = grognard().arg("scenarios").output().unwrap();
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    for (i, t) in TITLES.iter().enumerate() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("leipzig1813-{} ", i + 1)))
            .unwrap_or_else(|| panic!("leipzig1813-{} is not listed:\n{text}", i + 1));
        assert!(line.contains(t), "{line}");
        assert!(line.contains(SYSTEM), "{line}");
        assert!(line.contains("French vs Allies"), "{line}");
    }
    let out = grognard().args(["scenarios", "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let five = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "leipzig1813-5")
        .expect("scenario 5 listed");
    assert_eq!(five["system"], SYSTEM);
    assert_eq!(five["components"], "central-europe");
    assert_eq!(five["first_turn"], 24);
    assert_eq!(five["last_turn"], 35);
    assert_eq!(five["rules"], serde_json::json!([SYSTEM]));
    assert!(five["description"]
        .as_str()
        .unwrap()
        .contains("Bavarian defection"));
}

#[test]
fn a_summer_game_from_new_to_replay() {
    let dir = TempDir::new().unwrap();
    let g = new_record(dir.path(), "leipzig1813-5", 7);
    let rec = record_json(&g);
    assert!(rec["rules"]
        .as_str()
        .is_some_and(|r| r.starts_with("leipzig-1813/")));
    assert_eq!(rec["scenario"], "leipzig1813-5");
    assert_eq!(rec["seed"], 7);
    let view = json_of(&["show", "--json"], &g);
    assert_eq!(view["system"], SYSTEM);
    assert_eq!(view["turn"], 24);
    assert_eq!(view["step"], "setup");
    assert_eq!(view["to_act"], "Allies");
    let first = view["legal"][0].as_str().unwrap().to_string();
    assert!(first.starts_with("place "), "{first}");
    // an action, then a refusal citing its case
    let out = act(&g, &[&first]);
    assert!(out.contains("[How to Use the Scenarios]"), "{out}");
    let bad = grognard()
        .arg("act")
        .arg(&g)
        .args(["attack 0101 0102"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains(':'), "a refusal with its case: {err}");
    // the computer plays on for a while
    for _ in 0..40 {
        let out = grognard()
            .arg("act")
            .arg(&g)
            .args(["--computer", "random"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = stdout(&["show"], &g);
    assert!(text.contains("Historical Situation (summer)"), "{text}");
    assert!(text.contains("French:"), "{text}");
    grognard()
        .args(["replay", "--verify"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("OK: "));
    // a record changed by hand no longer verifies
    let mut rec = record_json(&g);
    let last = rec["actions"].as_array().unwrap().len() - 1;
    rec["actions"][last]["hash"] = Value::from("0000000000000000");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&rec).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&bad)
        .assert()
        .failure();
}

#[test]
fn sim_plays_a_scenario_to_its_end() {
    let run = || {
        grognard()
            .args([
                "sim",
                "leipzig1813-5",
                "--games",
                "1",
                "--seed",
                "3",
                "--json",
            ])
            .output()
            .unwrap()
    };
    let out = run();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["system"], SYSTEM);
    assert_eq!(r["games"], 1);
    assert_eq!(r["sides"], serde_json::json!(["French", "Allies"]));
    assert_eq!(r["results"]["unfinished"]["count"], 0);
    assert_eq!(r["refused"], 0);
    // the same seed, the same game
    assert_eq!(run().stdout, out.stdout);
}

#[test]
fn map_draws_the_campaign_map_with_its_places() {
    let dir = TempDir::new().unwrap();
    let png = dir.path().join("l5.png");
    let svg = dir.path().join("l5.svg");
    grognard()
        .args(["map", "leipzig1813-5", "--width", "600", "--png"])
        .arg(&png)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success()
        .stdout(contains("PNG map written"));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let text = std::fs::read_to_string(&svg).unwrap();
    for place in [
        "Leipzig",
        "Dresden",
        "Berlin",
        "Prague",
        "Breslau",
        "Magdeburg",
    ] {
        assert!(text.contains(place), "{place} is not named on the map");
    }
    // a game's map carries its counters
    let g = new_record(dir.path(), "leipzig1813-5", 2);
    let out = dir.path().join("game.svg");
    grognard()
        .args(["map"])
        .arg(&g)
        .arg("--svg")
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("F1"), "the French counters are drawn");
}
