//! The hex-miniatures rules from the command line (issue 16): `scenarios` lists Möckern under
//! its system, `new moeckern-1813`, `show`, `act` (an action, a refusal citing the text's
//! section, the computer), `sim` and `replay --verify`. Drives the real `grognard` binary.

use predicates::str::contains;
use serde_json::Value;
use tempfile::TempDir;

mod common;
use common::{act_ok as act, grognard, json_of, new_record, record_json, stdout_of as stdout};

const SCENARIO: &str = "moeckern-1813";

#[test]
fn scenarios_list_moeckern_under_the_hex_miniatures_rules() {
    grognard()
        .arg("scenarios")
        .assert()
        .success()
        .stdout(contains("moeckern-1813"))
        .stdout(contains("hex-miniatures"))
        .stdout(contains("Prussians vs French"));
    let out = grognard().args(["scenarios", "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == SCENARIO)
        .expect("moeckern-1813 listed");
    assert_eq!(m["system"], "hex-miniatures");
    assert_eq!(m["rules"], serde_json::json!(["hex-miniatures"]));
    assert_eq!(m["last_turn"], 36);
}

#[test]
fn a_game_of_moeckern_from_new_to_replay() {
    let dir = TempDir::new().unwrap();
    let g = new_record(dir.path(), SCENARIO, 3);
    let rec = record_json(&g);
    assert!(
        rec["rules"]
            .as_str()
            .unwrap()
            .starts_with("hex-miniatures/"),
        "{}",
        rec["rules"]
    );
    assert_eq!(rec["scenario"], SCENARIO);
    // show: the system's text and JSON view
    let text = stdout(&["show"], &g);
    assert!(
        text.contains("moeckern-1813: turn 1 of 36 (12:00)"),
        "{text}"
    );
    assert!(text.contains("FR-21-2M-1"), "{text}");
    let v = json_of(&["show", "--json"], &g);
    assert_eq!(v["system"], "hex-miniatures");
    assert_eq!(v["to_act"], "Prussians");
    // Hiller's battalion comes on by the Halle road
    let out = act(&g, &["move PR-AG-1 0112"]);
    assert!(out.contains("PR-AG-1 comes on at 0112"), "{out}");
    // moving it again is refused with the text's section; nothing is written
    let before = std::fs::read(&g).unwrap();
    grognard()
        .arg("act")
        .arg(&g)
        .arg("move PR-AG-1 0212")
        .assert()
        .failure()
        .stderr(contains("refused: "))
        .stderr(contains("8.3.7"));
    grognard()
        .arg("act")
        .arg(&g)
        .arg("charge!")
        .assert()
        .failure()
        .stderr(contains("refused: action"));
    assert_eq!(
        std::fs::read(&g).unwrap(),
        before,
        "a refusal writes nothing"
    );
    // the computer plays the side to act
    let out = act(&g, &["--computer", "random"]);
    assert!(out.contains("(random): "), "{out}");
    grognard()
        .arg("act")
        .arg(&g)
        .args(["--computer", "expert"])
        .assert()
        .failure()
        .stderr(contains("available: random"));
    // the record replays exactly
    let n = record_json(&g)["actions"].as_array().unwrap().len();
    grognard()
        .args(["replay", "--verify"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains(format!("OK: {n} of {n} actions replay exactly")));
}

#[test]
fn sim_plays_moeckern_to_dusk_with_its_figures() {
    grognard()
        .args([
            "sim",
            SCENARIO,
            "--players",
            "random:random",
            "--games",
            "2",
            "--seed",
            "1",
        ])
        .assert()
        .success()
        .stdout(contains("2 games of moeckern-1813 (hex-miniatures)"))
        .stdout(contains("unfinished           0"))
        .stdout(contains("Prussians casualties %"))
        .stdout(contains("French hold the field"));
}
