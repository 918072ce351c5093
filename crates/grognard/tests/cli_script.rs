//! The command line as a scripter uses it (issue 12): output piped into a reader that stops
//! early, records made from scenario files named by relative paths, games against the computer
//! resumed with their opponent, decisions handed to the computer with `act --computer`, and
//! its explanations kept in the record and shown by `replay`.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tempfile::TempDir;

fn grognard() -> Command {
    let mut c = Command::cargo_bin("grognard").expect("the binary is built");
    // never touch the user's data directory
    c.env(
        "XDG_DATA_HOME",
        std::env::temp_dir().join("grognard-test-data"),
    );
    c
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("grognard")
}

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/scenarios")
}

/// A new First Day record with `seed` in `dir`.
fn new_game(dir: &Path, seed: u64) -> PathBuf {
    let p = dir.join("game.json");
    grognard()
        .args(["new", "bon-first-day", "--seed", &seed.to_string(), "-o"])
        .arg(&p)
        .assert()
        .success();
    p
}

fn record(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
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
