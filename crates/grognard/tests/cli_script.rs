//! The command line as a scripter uses it (issue 12): output piped into a reader that stops
//! early, records made from scenario files named by relative paths, games against the computer
//! resumed with their opponent, decisions handed to the computer with `act --computer`, and
//! its explanations kept in the record and shown by `replay`.

use predicates::prelude::*;
use predicates::str::contains;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tempfile::TempDir;

mod common;
use common::{grognard, record_json as record, scenarios_dir};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("grognard")
}

/// A new First Day record with `seed` in `dir`.
fn new_game(dir: &Path, seed: u64) -> PathBuf {
    common::new_record(dir, "bon-first-day", seed)
}

/// No command panics when its reader has gone: `grognard show --json | head` ends quietly.
/// The reading end of the pipe is closed before the command writes a byte, so every one of
/// them meets the broken pipe.
#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let dir = TempDir::new().unwrap();
    let rec = new_game(dir.path(), 7);
    let rec = rec.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["show", "--json", rec],
        &["show", rec],
        &["moves", rec, "FR.4"],
        &["replay", rec],
        &["scenarios", "--json"],
        &["odds", "13", "4"],
        &["new", "bon-first-day", "--seed", "3"],
    ];
    for args in commands {
        let mut child = std::process::Command::new(bin())
            .args(*args)
            .env(
                "XDG_DATA_HOME",
                std::env::temp_dir().join("grognard-test-data"),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
        // quietly: nothing but what the command says on stderr anyway (`new`'s seed)
        assert!(
            err.trim().is_empty() || err.trim() == "seed 3",
            "{args:?}: {err}"
        );
    }
}

/// A record made from a scenario file named by a relative path opens from any directory:
/// `new` records the file's absolute path; a record naming a relative path finds the file
/// relative to the record's own directory; a file that is really gone is named in a clear
/// error.
#[test]
fn a_record_of_a_relative_scenario_path_opens_from_anywhere() {
    let home = TempDir::new().unwrap();
    let elsewhere = TempDir::new().unwrap();
    std::fs::copy(
        scenarios_dir().join("bon-first-day.toml"),
        home.path().join("my.toml"),
    )
    .unwrap();
    grognard()
        .current_dir(home.path())
        .args(["new", "./my.toml", "--seed", "5", "-o", "game.json"])
        .assert()
        .success();
    let rec = home.path().join("game.json");
    let named = record(&rec)["scenario"].as_str().unwrap().to_string();
    assert!(Path::new(&named).is_absolute(), "{named}");
    grognard()
        .current_dir(elsewhere.path())
        .arg("show")
        .arg(&rec)
        .assert()
        .success();
    grognard()
        .current_dir(elsewhere.path())
        .arg("act")
        .arg(&rec)
        .arg("end")
        .assert()
        .success();

    // so does the terminal game's
    grognard()
        .current_dir(home.path())
        .args([
            "play",
            "--scenario",
            "my.toml",
            "--seed",
            "5",
            "--save",
            "text.json",
        ])
        .write_stdin("quit\n")
        .assert()
        .success();
    let named = record(&home.path().join("text.json"))["scenario"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(Path::new(&named).is_absolute(), "{named}");

    // a record written before: the scenario named relative to the record's directory
    let mut old = record(&rec);
    old["scenario"] = "my.toml".into();
    let old_rec = home.path().join("old.json");
    std::fs::write(&old_rec, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    grognard()
        .current_dir(elsewhere.path())
        .args(["replay", "--verify"])
        .arg(&old_rec)
        .assert()
        .success()
        .stdout(contains("OK"));

    // moved together into another directory: found beside the record
    let moved = TempDir::new().unwrap();
    std::fs::rename(&rec, moved.path().join("game.json")).unwrap();
    std::fs::rename(home.path().join("my.toml"), moved.path().join("my.toml")).unwrap();
    grognard()
        .current_dir(elsewhere.path())
        .arg("show")
        .arg(moved.path().join("game.json"))
        .assert()
        .success();

    // really gone: the error names the file
    std::fs::remove_file(moved.path().join("my.toml")).unwrap();
    grognard()
        .current_dir(elsewhere.path())
        .arg("show")
        .arg(moved.path().join("game.json"))
        .assert()
        .code(1)
        .stderr(contains("my.toml"))
        .stderr(contains("is not found"))
        .stderr(predicates::str::contains("panicked").not());
}

fn replay_json(rec: &Path) -> serde_json::Value {
    let out = grognard()
        .args(["replay", "--json"])
        .arg(rec)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `act --computer SPEC` hands the decisions of the side to act to the computer, until another
/// side is to act (`--once`: one action); it prints what the computer said, the record keeps
/// it and `replay` shows it (text and JSON); an unknown player and a finished game are
/// refused clearly, the record untouched.
#[test]
fn act_hands_the_decision_to_the_computer() {
    let dir = TempDir::new().unwrap();
    let rec = new_game(dir.path(), 3);
    // 14.62: the French open in their combat phase; the computer decides for them
    let text = common::act_ok(&rec, &["--computer", "heuristic"]);
    assert!(text.contains("French (heuristic): "), "{text}");
    assert!(text.contains("  [computer] "), "{text}");
    let r = replay_json(&rec);
    let acts = r["actions"].as_array().unwrap();
    assert!(!acts.is_empty());
    assert!(
        acts.iter()
            .all(|a| a["side"] == "French" || a["side"] == "chance"),
        "{r}"
    );
    assert!(acts[0]["note"].is_string(), "{r}");
    assert!(
        r["headline"].as_str().unwrap().contains("Allied to act"),
        "{r}"
    );

    // the Allies' whole movement by the search: its plan said once, not by every move
    let n = acts.len();
    grognard()
        .arg("act")
        .arg(&rec)
        .args(["--computer", "search@300n"])
        .assert()
        .success()
        .stdout(contains("Allied (search@300n): move "));
    let r = replay_json(&rec);
    let allied: Vec<&serde_json::Value> = r["actions"].as_array().unwrap()[n..]
        .iter()
        .filter(|a| a["side"] == "Allied")
        .collect();
    let noted = allied.iter().filter(|a| a["note"].is_string()).count();
    assert!(
        allied.len() > 3 && noted >= 1 && noted < allied.len(),
        "{r}"
    );
    let plan = allied[0]["note"].as_str().unwrap();
    assert!(
        plan.starts_with("plan: ") && !plan.contains("rollouts"),
        "{plan}"
    );

    // one action only
    let before = record(&rec)["actions"].as_array().unwrap().len();
    grognard()
        .arg("act")
        .arg(&rec)
        .args(["--computer", "heuristic", "--once"])
        .assert()
        .success();
    let r = replay_json(&rec);
    let taken: Vec<&serde_json::Value> = r["actions"].as_array().unwrap()[before..]
        .iter()
        .filter(|a| a["side"] != "chance")
        .collect();
    assert_eq!(taken.len(), 1, "{r}");

    // the notes replay, verify, and show in the text replay; a note is no part of the check
    grognard()
        .args(["replay", "--verify"])
        .arg(&rec)
        .assert()
        .success()
        .stdout(contains("OK"));
    let mut edited = record(&rec);
    edited["actions"][0]["note"] = "a note written by hand".into();
    let edited_rec = dir.path().join("edited.json");
    std::fs::write(&edited_rec, edited.to_string()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&edited_rec)
        .assert()
        .success();
    grognard()
        .arg("replay")
        .arg(&edited_rec)
        .assert()
        .success()
        .stdout(contains("  [computer] a note written by hand"));
    grognard()
        .arg("replay")
        .arg(&rec)
        .assert()
        .success()
        .stdout(contains("  [computer] plan: "));

    // an unknown player: refused with the list, nothing written
    let kept = std::fs::read_to_string(&rec).unwrap();
    grognard()
        .arg("act")
        .arg(&rec)
        .args(["--computer", "grandmaster"])
        .assert()
        .code(1)
        .stderr(contains("unknown player 'grandmaster'"))
        .stderr(contains("random, heuristic, search"));
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), kept);
    // actions and --computer together: a usage error
    grognard()
        .arg("act")
        .arg(&rec)
        .args(["end", "--computer", "heuristic"])
        .assert()
        .code(2);
}

/// The computer decides every kind of decision, losses, retreats and advances included, for
/// whichever side is to act, to the end of the game; then it is refused, citing the case that
/// ended it. (The heuristic and random play take turns, so that exchanges happen: the
/// heuristic avoids them.)
#[test]
fn the_computer_plays_whole_games_through_act() {
    let dir = TempDir::new().unwrap();
    let kinds = ["): lose ", "): retreat ", "): advance ", "): resolve "];
    let mut said = String::new();
    for seed in 1..=8 {
        let sub = dir.path().join(format!("seed{seed}"));
        std::fs::create_dir(&sub).unwrap();
        let rec = new_game(&sub, seed);
        let mut over = false;
        for i in 0..600 {
            let spec = if i % 2 == 0 { "heuristic" } else { "random" };
            let out = grognard()
                .arg("act")
                .arg(&rec)
                .args(["--computer", spec])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr).to_string();
            if !out.status.success() {
                assert_eq!(out.status.code(), Some(1), "{err}");
                assert!(err.contains("the game is over"), "{err}");
                assert!(err.starts_with("refused: 17."), "{err}");
                over = true;
                break;
            }
            said.push_str(&String::from_utf8_lossy(&out.stdout));
        }
        assert!(over, "the game of seed {seed} did not end");
        grognard()
            .args(["replay", "--verify"])
            .arg(&rec)
            .assert()
            .success();
        if kinds.iter().all(|k| said.contains(k)) {
            return;
        }
    }
    for k in kinds {
        assert!(said.contains(k), "no '{k}' decision by the computer");
    }
}

/// A game against the computer remembers its opponent: `play --resume` goes on against the
/// same player and says who plays whom; explicit flags override; a record without players
/// (hot-seat, or written before) resumes hot-seat as it always did.
#[test]
fn play_resume_keeps_the_opponent() {
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("vs.json");
    grognard()
        .args([
            "play",
            "--scenario",
            "bon-first-day",
            "--seed",
            "3",
            "--vs",
            "heuristic",
            "--side",
            "Allied",
            "--save",
        ])
        .arg(&save)
        .write_stdin("quit\n")
        .assert()
        .success();
    let r = record(&save);
    assert_eq!(r["players"]["French"], "heuristic", "{r}");
    assert!(r["players"].get("Allied").is_none(), "{r}");
    // the computer's first action was explained, and the record kept it
    assert!(r["actions"][0]["note"].is_string(), "{r}");

    // resumed without flags: the computer still plays the French
    let out = grognard()
        .args(["play", "--resume"])
        .arg(&save)
        .arg("--save")
        .arg(&save)
        .write_stdin("end\nend\nquit\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("The computer (heuristic) plays French. You play Allied."),
        "{text}"
    );
    assert!(text.contains("French (heuristic): "), "{text}");
    assert_eq!(record(&save)["players"]["French"], "heuristic");

    // --vs none overrides: hot-seat, and the record says so from now on
    let out = grognard()
        .args(["play", "--vs", "none", "--resume"])
        .arg(&save)
        .arg("--save")
        .arg(&save)
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Hot-seat"));
    assert!(record(&save).get("players").is_none());

    // a record of before (no players): hot-seat, its bytes unchanged by resuming
    let old = new_game(dir.path(), 4);
    let kept = std::fs::read_to_string(&old).unwrap();
    let out = grognard()
        .args(["play", "--resume"])
        .arg(&old)
        .arg("--save")
        .arg(&old)
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Hot-seat"));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), kept);
}

/// `act --computer` and `replay --json` are the core's, for any rules system: the toy
/// *Scouts* is played to its end by its own computer player.
#[test]
fn any_system_hands_its_decisions_to_its_computer() {
    use grognard::core;
    let lib = toy::library();
    let dir = TempDir::new().unwrap();
    let g = dir.path().join("toy.json");
    core::new_with(&lib, "toy-skirmish", Some(5), None, Some(&g), false).unwrap();
    let e = core::act_computer_with(&lib, &g, "deep-blue", false, &[]).unwrap_err();
    assert!(e.to_string().contains("available: first"), "{e}");
    let mut over = None;
    for _ in 0..200 {
        match core::act_computer_with(&lib, &g, "first", false, &[]) {
            Ok(out) => assert!(out.contains(" (first): "), "{out}"),
            Err(e) => {
                over = Some(e);
                break;
            }
        }
    }
    let e = over.expect("the game ends");
    let r = e
        .downcast_ref::<grognard::util::Refused>()
        .expect("a refusal");
    assert!(
        r.refusal.why.contains("the game is over"),
        "{}",
        r.refusal.why
    );
    let v: serde_json::Value =
        serde_json::from_str(&core::replay_json_with(&lib, &g, None).unwrap()).unwrap();
    assert!(v["actions"].as_array().unwrap().len() > 2, "{v}");
    assert_eq!(v["seed"], "5");
}
