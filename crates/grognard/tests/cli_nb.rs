//! The Napoleonic Battles activation system from the command line (issue 14): `scenarios`
//! says which rules systems can play each scenario, `new --rules napoleonic-battles`, `show`,
//! `act` (actions, refusals citing the rulebook's sections, the computer), `undo` (refused
//! past a die, NB58; a choice since taken back), `replay --verify` and `sim --rules`. Drives the real `grognard` binary.

use predicates::str::contains;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

mod common;
use common::{act_ok as act, grognard, json_of, record_json, stdout_of as stdout};

const RULES: &str = "napoleonic-battles";

/// A new record of a shipped scenario under the activation system.
fn new_nb(dir: &Path, scenario: &str, seed: u64) -> PathBuf {
    let p = dir.join("nb.json");
    grognard()
        .args([
            "new",
            scenario,
            "--rules",
            RULES,
            "--seed",
            &seed.to_string(),
            "-o",
        ])
        .arg(&p)
        .assert()
        .success()
        .stdout(contains("[NB Sequence of Play]"))
        .stdout(contains("Allied has the initiative"));
    p
}

#[test]
fn scenarios_say_which_systems_play_them() {
    grognard()
        .arg("scenarios")
        .assert()
        .success()
        .stdout(contains("bon-first-day"))
        .stdout(contains(
            "also playable with --rules napoleonic-battles (Napoleonic Battles)",
        ));
    let out = grognard().args(["scenarios", "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // the Battle of Nations scenarios (Leipzig 1813's are its own system's)
    for s in v
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["components"] == "leipzig")
    {
        assert_eq!(s["system"], "naw");
        assert_eq!(s["rules"], serde_json::json!(["naw", RULES]), "{}", s["id"]);
    }
}

#[test]
fn a_game_under_the_activation_system_from_new_to_replay() {
    let dir = TempDir::new().unwrap();
    let g = new_nb(dir.path(), "bon-first-day", 7);
    let rec = record_json(&g);
    assert!(
        rec["rules"]
            .as_str()
            .unwrap()
            .starts_with("napoleonic-battles/"),
        "{}",
        rec["rules"]
    );
    assert_eq!(rec["scenario"], "bon-first-day");
    // show: the system's own text and JSON view
    let text = stdout(&["show"], &g);
    assert!(text.contains("Turn 1, Allied has the initiative"), "{text}");
    assert!(text.contains("Formations (SP lost / loss limit)"), "{text}");
    let v = json_of(&["show", "--json"], &g);
    assert_eq!(v["system"], RULES);
    assert_eq!(v["to_act"], "Allied");
    assert!(v["legal"].as_array().unwrap().iter().any(|a| a == "pass"));
    // an action the rules refuse: the rulebook's section, nothing written
    let before = std::fs::read(&g).unwrap();
    grognard()
        .arg("act")
        .arg(&g)
        .arg("go")
        .assert()
        .failure()
        .stderr(contains("refused: NB "));
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
    // the Allies pass: the die after the pass is rolled from the record's seed
    let out = act(&g, &["pass"]);
    assert!(out.contains("[NB Turn End] Allied passes"), "{out}");
    assert!(out.contains("The die after the pass shows"), "{out}");
    // nothing may be taken back past a die (the system's refusal, NB58)
    grognard()
        .arg("undo")
        .arg(&g)
        .assert()
        .failure()
        .stderr(contains("NB58"));
    // a choice since the last die may be: a unit initiative designated, then taken back
    let v = json_of(&["show", "--json"], &g);
    let u = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|a| a.starts_with("unit "))
        .expect("a unit initiative after the pass");
    {
        let before = std::fs::read(&g).unwrap();
        act(&g, &[u]);
        grognard()
            .arg("undo")
            .arg(&g)
            .assert()
            .success()
            .stdout(contains(format!("took back: {u}")));
        assert_eq!(
            record_json(&g),
            serde_json::from_slice::<Value>(&before).unwrap()
        );
    }
    // the computer plays the side to act (the system's random player)
    let out = act(&g, &["--computer", "random"]);
    assert!(out.contains("(random): "), "{out}");
    // a computer player the system does not have
    grognard()
        .arg("act")
        .arg(&g)
        .args(["--computer", "expert"])
        .assert()
        .failure()
        .stderr(contains("available: random, heuristic, search"));
    // a unit's moves, as the presenter's moves query
    let v = json_of(&["show", "--json"], &g);
    let some_unit = v["units"][0]["id"].as_str().unwrap().to_string();
    let out = grognard()
        .arg("moves")
        .arg(&g)
        .arg(&some_unit)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(m["destinations"].is_array(), "{m}");
    // the record replays exactly
    let n = record_json(&g)["actions"].as_array().unwrap().len();
    grognard()
        .args(["replay", "--verify"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains(format!("OK: {n} of {n} actions replay exactly")));
    let out = stdout(&["replay"], &g);
    assert!(out.contains("Allied: pass"), "{out}");
}

#[test]
fn a_whole_game_by_the_computer_verifies() {
    let dir = TempDir::new().unwrap();
    let g = new_nb(dir.path(), "bon-first-day", 11);
    for _ in 0..10_000 {
        let r = record_json(&g);
        let out = grognard()
            .arg("act")
            .arg(&g)
            .args(["--computer", "random"])
            .output()
            .unwrap();
        if !out.status.success() {
            // the game is over: the computer has nothing to decide
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("the game is over"), "{err}");
            assert_eq!(record_json(&g), r);
            break;
        }
    }
    let text = stdout(&["show"], &g);
    assert!(text.contains("Game over"), "{text}");
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
fn sim_plays_under_the_rules_asked_for() {
    let out = grognard()
        .args([
            "sim",
            "bon-first-day",
            "--rules",
            RULES,
            "--games",
            "2",
            "--seed",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["system"], RULES);
    assert_eq!(r["games"], 2);
    assert_eq!(r["sides"], serde_json::json!(["French", "Allied"]));
    assert_eq!(r["players"], serde_json::json!(["random", "random"]));
    assert_eq!(r["results"]["unfinished"]["count"], 0);
    assert_eq!(r["refused"], 0);
    // the same seed, the same games
    let again = grognard()
        .args([
            "sim",
            "bon-first-day",
            "--rules",
            RULES,
            "--games",
            "2",
            "--seed",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.stdout, again.stdout);
    grognard()
        .args([
            "sim",
            "bon-first-day",
            "--rules",
            RULES,
            "--games",
            "1",
            "--seed",
            "2",
        ])
        .assert()
        .success()
        .stdout(contains("1 games of bon-first-day (napoleonic-battles)"));
    // refusals: an unknown system, a player the system lacks, Napoleon at War's chart and parts
    grognard()
        .args(["sim", "bon-first-day", "--rules", "nosuch", "--games", "1"])
        .assert()
        .failure()
        .stderr(contains("no rules system 'nosuch'"));
    grognard()
        .args([
            "sim",
            "bon-first-day",
            "--rules",
            RULES,
            "--games",
            "1",
            "--players",
            "expert:random",
        ])
        .assert()
        .failure()
        .stderr(contains("available: random, heuristic, search"));
    grognard()
        .args([
            "sim",
            "bon-first-day",
            "--rules",
            RULES,
            "--games",
            "1",
            "--plot",
            "x.svg",
        ])
        .assert()
        .failure()
        .stderr(contains("--plot"));
    // a run in parts is Napoleon at War's arena's
    grognard()
        .args(["sim", "bon-first-day", "--rules", RULES, "--games", "1"])
        .args(["--first-game", "3"])
        .assert()
        .failure()
        .stderr(contains("--first-game"));
}

#[test]
fn new_under_the_rules_of_a_scenario_file() {
    let dir = TempDir::new().unwrap();
    let file = common::scenarios_dir().join("bon-third-day.toml");
    let p = dir.path().join("third.json");
    grognard()
        .args(["new"])
        .arg(&file)
        .args(["--rules", RULES, "--seed", "3", "-o"])
        .arg(&p)
        .assert()
        .success();
    let rec = record_json(&p);
    assert!(
        rec["rules"]
            .as_str()
            .unwrap()
            .starts_with("napoleonic-battles/"),
        "{}",
        rec["rules"]
    );
    let v = json_of(&["show", "--json"], &p);
    assert_eq!(v["turn"], 13);
    assert_eq!(v["system"], RULES);
}
