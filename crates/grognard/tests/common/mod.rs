//! What the command-line tests share: the binary, with the user's data directory out of reach,
//! a new record, and a command's output.

#![allow(dead_code)] // each test file uses its own part

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The `grognard` binary, its data directory in the temporary directory (never the user's).
pub fn grognard() -> Command {
    let mut c = Command::cargo_bin("grognard").expect("the binary is built");
    c.env(
        "XDG_DATA_HOME",
        std::env::temp_dir().join("grognard-test-data"),
    );
    c
}

/// `grognard sim` of one First Day game between `players` (`A:B`) with `seed`.
pub fn sim_one_first_day(players: &str, seed: u64) -> Command {
    let mut c = grognard();
    c.args(["sim", "bon-first-day", "--games", "1", "--seed"])
        .arg(seed.to_string())
        .args(["--players", players]);
    c
}

/// The shipped scenario files.
pub fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/scenarios")
}

/// A new record `game.json` in `dir` of a shipped scenario (or a scenario file) with `seed`.
pub fn new_record(dir: &Path, scenario: &str, seed: u64) -> PathBuf {
    let p = dir.join("game.json");
    grognard()
        .args(["new", scenario, "--seed", &seed.to_string(), "-o"])
        .arg(&p)
        .assert()
        .success();
    p
}

/// The standard output of `grognard ARGS RECORD`, which must succeed.
pub fn stdout_of(args: &[&str], record: &Path) -> String {
    let out = grognard().args(args).arg(record).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// [`stdout_of`] read as JSON.
pub fn json_of(args: &[&str], record: &Path) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args, record)).unwrap()
}

/// The standard output of `grognard act RECORD ARGS`, which must succeed.
pub fn act_ok(record: &Path, args: &[&str]) -> String {
    let out = grognard()
        .arg("act")
        .arg(record)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "act {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A record file read as JSON.
pub fn record_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
