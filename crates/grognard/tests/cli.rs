//! Drives the real `grognard` binary: a short game of the First Day, odds, replay and its
//! verification, simulations, maps, validation, the text game, and bad input of every kind.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::path::{Path, PathBuf};
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

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/scenarios")
}

/// A new First Day record with seed 7 in a temporary directory.
fn new_game(dir: &TempDir) -> PathBuf {
    let p = dir.path().join("game.json");
    grognard()
        .args(["new", "bon-first-day", "--seed", "7", "-o"])
        .arg(&p)
        .assert()
        .success()
        .stdout(contains("seed 7"))
        .stdout(contains("14.62"));
    p
}

fn act(record: &Path, actions: &[&str]) -> assert_cmd::assert::Assert {
    grognard().arg("act").arg(record).args(actions).assert()
}

fn json(record: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap()
}

fn show_json(record: &Path) -> serde_json::Value {
    let out = grognard()
        .args(["show", "--json"])
        .arg(record)
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn unit_hex(state: &serde_json::Value, id: &str) -> String {
    state["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .unwrap_or_else(|| panic!("no unit {id}"))["hex"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Asserts that running `cmd` fails with exit 1 and leaves `record` byte for byte as it was.
fn refused_unchanged(record: &Path, args: &[&str], stderr_has: &str) {
    let before = std::fs::read(record).unwrap();
    grognard()
        .args(args)
        .assert()
        .code(1)
        .stderr(contains(stderr_has));
    assert_eq!(
        std::fs::read(record).unwrap(),
        before,
        "the record changed after {args:?}"
    );
}

#[test]
fn scenarios_are_listed() {
    grognard()
        .arg("scenarios")
        .assert()
        .success()
        .stdout(contains("bon-first-day"))
        .stdout(contains("turns 1-5"))
        .stdout(contains("French vs Allied"));
    let out = grognard().args(["scenarios", "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &v.as_array().unwrap()[0];
    assert_eq!(first["id"], "bon-first-day");
    assert_eq!(first["first_turn"], 1);
    assert_eq!(first["last_turn"], 5);
    assert_eq!(first["sides"][0], "French");
}

#[test]
fn new_prints_the_record_and_the_seed() {
    let out = grognard()
        .args(["new", "bon-first-day", "--seed", "42"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "grognard-record/1");
    assert_eq!(v["seed"], 42);
    assert_eq!(v["rules"], "naw/1");
    assert!(String::from_utf8_lossy(&out.stderr).contains("seed 42"));
    // an existing file is not replaced without --force
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir);
    let ga = g.to_str().unwrap();
    act(&g, &["end"]).success();
    refused_unchanged(
        &g,
        &["new", "bon-first-day", "-o", ga],
        "already exists: pass --force",
    );
    grognard()
        .args(["new", "bon-first-day", "--force", "-o", ga])
        .assert()
        .success();
    assert_eq!(json(&g)["actions"].as_array().unwrap().len(), 0);
    // without --seed the clock gives one, and says which
    let out = grognard().args(["new", "bon-first-day"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("seed "));
}

#[test]
fn a_short_game_of_the_first_day() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir);

    // turn 1: the French have no movement phase (14.62) and nobody to attack
    grognard()
        .arg("show")
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("Game-turn 1 of 1-5"))
        .stdout(contains("French to act"))
        .stdout(contains("Demoralization"))
        .stdout(contains("French 0 of 100"))
        .stdout(contains("Allied 0 of 80"))
        .stdout(contains("FR.Prov6"))
        .stdout(contains("arrives turn 3 at 2915"));
    let s = show_json(&g);
    assert_eq!(s["step"], "declare");
    assert_eq!(s["legal"], serde_json::json!(["end"]));
    assert_eq!(
        s["legal_actions"],
        serde_json::json!([{"text": "end", "kind": "end"}])
    );
    act(&g, &["end"])
        .success()
        .stdout(contains("Allied player-turn, movement phase"));

    // the Allied movement phase: a unit's destinations
    grognard()
        .arg("moves")
        .arg(&g)
        .arg("PR.9")
        .assert()
        .success()
        .stdout(contains("2416     1 MP  2516-2416"))
        .stdout(contains("2715    1½ MP  2516-2615-2715"));
    let out = grognard()
        .args(["moves", "--json"])
        .arg(&g)
        .arg("2516") // by hex
        .output()
        .unwrap();
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(m["unit"], "PR.9");
    let d = m["destinations"].as_array().unwrap();
    let half = d.iter().find(|x| x["hex"] == "2715").unwrap();
    assert_eq!(half["cost"], 1.5);
    assert_eq!(half["path"], serde_json::json!(["2516", "2615", "2715"]));
    // the non-phasing player's unit cannot move, and says why
    grognard()
        .arg("moves")
        .arg(&g)
        .arg("FR.4")
        .assert()
        .success()
        .stdout(contains("cannot move: 5.11"));

    // a legal move
    act(&g, &["move PR.9 2416"])
        .success()
        .stdout(contains("move PR.9 2416"));
    assert_eq!(unit_hex(&show_json(&g), "PR.9"), "2416");

    // illegal moves: refused with their case, nothing written
    let ga = g.to_str().unwrap();
    refused_unchanged(&g, &["act", ga, "move PR.10 2514"], "refused: 5.32:");
    refused_unchanged(&g, &["act", ga, "move PR.10 2310"], "refused: 5.15:");
    refused_unchanged(&g, &["act", ga, "move PR.10 2316"], "refused: 5.12:");
    refused_unchanged(&g, &["act", ga, "move PR.9 2415"], "refused: 5.17:");
    refused_unchanged(&g, &["act", ga, "move FR.4 2317"], "refused: 5.11:");
    // several actions are all-or-nothing: the legal first one is not written either
    refused_unchanged(
        &g,
        &["act", ga, "move PR.10 2516", "move PR.11 2514"],
        "refused: 5.32:",
    );

    // undo takes the move back
    grognard()
        .arg("undo")
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("took back: move PR.9 2416"));
    assert_eq!(unit_hex(&show_json(&g), "PR.9"), "2516");

    // move again, end the phase, declare an attack on the town of 2316 (doubled: 10 v 16)
    act(&g, &["move PR.9 2416", "end"])
        .success()
        .stdout(contains("declaring attacks"));
    grognard()
        .arg("show")
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("PR.9 must attack (7.12)"))
        .stdout(contains("FR.26 must be attacked (7.11)"))
        .stdout(contains("attack PR.9 -> FR.26"));
    act(&g, &["attack PR.9 FR.26"]).success();
    grognard()
        .arg("show")
        .arg(&g)
        .assert()
        .success()
        .stdout(contains(
            "PR.9 (10) against FR.26 (16): 1-2; 2316: town doubles the defender (9.0)",
        ));
    let s = show_json(&g);
    assert_eq!(s["combats"][0]["odds"], "1-2");
    assert_eq!(s["combats"][0]["defence"], 16);
    act(&g, &["end"]).success();

    // resolve with a physical die: 4 at 1-2 is Ar
    act(&g, &["resolve FR.26", "--die", "4"])
        .success()
        .stdout(contains("roll 4 (entered by hand)"))
        .stdout(contains("[7.6]"))
        .stdout(contains("die 4, Ar"));
    let r = json(&g);
    let last = r["actions"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["do"], "roll 4");
    assert_eq!(last["manual"], true);

    // a die has been rolled: no taking back (5.14)
    refused_unchanged(&g, &["undo", ga], "refused: 5.14:");

    // the attacker retreats, and the record still verifies
    act(&g, &["retreat PR.9 2517"]).success();
    grognard()
        .args(["replay", "--verify"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("OK"));
}

#[test]
fn seeded_dice_roll_automatically() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir);
    act(
        &g,
        &[
            "end",
            "move PR.9 2416",
            "end",
            "attack PR.9 FR.26",
            "end",
            "resolve FR.26",
        ],
    )
    .success()
    .stdout(contains("(seeded dice)"))
    .stdout(contains("[7.6] PR.9 (10) against FR.26 (16) at 1-2"));
    let r = json(&g);
    let last = r["actions"].as_array().unwrap().last().unwrap().clone();
    assert!(last["do"].as_str().unwrap().starts_with("roll "));
    assert!(last.get("manual").is_none());
}

#[test]
fn an_unused_die_is_refused() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir);
    let ga = g.to_str().unwrap();
    refused_unchanged(&g, &["act", ga, "end", "--die", "3"], "no die was rolled");
    // a die face out of range is bad usage
    grognard()
        .args(["act", ga, "end", "--die", "7"])
        .assert()
        .code(2);
}

#[test]
fn odds_of_thirteen_against_four() {
    grognard()
        .args(["odds", "13", "4"])
        .assert()
        .success()
        .stdout(contains("13 against 4: 3-1"))
        .stdout(contains("Dr   83.3%"));
    let out = grognard()
        .args(["odds", "13", "4", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["column"], "3-1");
    let p = v["probabilities"].as_object().unwrap();
    let mut keys: Vec<&str> = p.keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, ["Ae", "Ar", "De", "Dr", "Ex"]);
    assert_eq!(p["Ae"], 0.0);
    assert!((p["Dr"].as_f64().unwrap() - 5.0 / 6.0).abs() < 1e-9);
    assert!((p["Ar"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-9);
    let sum: f64 = p.values().map(|x| x.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    // doubled by terrain: 13 against 8 is 1-1
    let out = grognard()
        .args(["odds", "13", "4", "--terrain", "doubled", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["column"], "1-1");
    grognard()
        .args(["odds", "13", "4", "--terrain", "swamp"])
        .assert()
        .code(2);
}

/// A record with a seeded roll: the game of `seeded_dice_roll_automatically` plus a retreat.
fn played(dir: &TempDir) -> PathBuf {
    let g = new_game(dir);
    act(
        &g,
        &[
            "end",
            "move PR.9 2416",
            "end",
            "attack PR.9 FR.26",
            "end",
            "resolve FR.26",
        ],
    )
    .success();
    g
}

#[test]
fn replay_and_verify() {
    let dir = TempDir::new().unwrap();
    let g = played(&dir);
    grognard()
        .args(["replay", "--verify"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("OK: 7 of 7 actions"));
    grognard()
        .arg("replay")
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("   2. Allied: move PR.9 2416"))
        .stdout(contains("   7. die: roll"))
        .stdout(contains("[7.6]"));
    grognard()
        .args(["replay", "--to", "2"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("Allied player-turn, movement phase"))
        .stdout(contains("Record: 2 actions"));

    // a die roll edited: the seeded dice disagree
    let mut r = json(&g);
    let roll = r["actions"][6]["do"].as_str().unwrap().to_string();
    let face: u8 = roll[5..].parse().unwrap();
    r["actions"][6]["do"] = format!("roll {}", face % 6 + 1).into();
    let bad = dir.path().join("die.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(contains("action 7 'roll"))
        .stderr(contains(format!("the seeded dice drew 'roll {face}' here")));

    // a move edited: the state hash disagrees
    let mut r = json(&g);
    r["actions"][1]["do"] = "move PR.9 2415".into();
    let bad = dir.path().join("move.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(contains("action 2 'move PR.9 2415'"))
        .stderr(contains("altered"));
    // stepping through names it too
    grognard()
        .arg("replay")
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(contains("action 2 'move PR.9 2415'"));

    // an illegal action edited in: refused with its case
    let mut r = json(&g);
    r["actions"][1]["do"] = "move PR.9 2310".into();
    let bad = dir.path().join("illegal.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(contains("action 2 'move PR.9 2310' is refused: 5.15"));
}

/// A sealed (online) game's record: `replay --verify` checks that its revealed seed and salt
/// make the commitment published when the game began.
#[test]
fn replay_verifies_a_sealed_games_commitment() {
    let dir = TempDir::new().unwrap();
    let g = played(&dir);
    let mut r = json(&g);
    let seed = r["seed"].as_u64().unwrap();
    let salt = "00112233445566778899aabbccddeeff";
    r["commitment"] = engine::commitment(seed, salt).into();
    r["salt"] = salt.into();
    let sealed = dir.path().join("sealed.json");
    std::fs::write(&sealed, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&sealed)
        .assert()
        .success()
        .stdout(contains("OK: 7 of 7 actions"))
        .stdout(contains(
            "make the commitment published when the game began",
        ));
    // a seed changed after the commitment was published
    let mut forged = r.clone();
    forged["seed"] = (seed ^ 1).into();
    let bad = dir.path().join("forged.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&forged).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(contains("do not match the commitment"));
    // a record taken while the game went on: no seed, no salt
    let mut open = r.clone();
    open.as_object_mut().unwrap().remove("seed");
    open.as_object_mut().unwrap().remove("salt");
    let early = dir.path().join("early.json");
    std::fs::write(&early, serde_json::to_string_pretty(&open).unwrap()).unwrap();
    grognard()
        .args(["replay", "--verify"])
        .arg(&early)
        .assert()
        .code(1)
        .stderr(contains("sealed"));
}

#[test]
fn sim_plays_games_in_parallel() {
    let dir = TempDir::new().unwrap();
    let plot = dir.path().join("sim.svg");
    grognard()
        .args([
            "sim",
            "bon-first-day",
            "--games",
            "4",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--plot",
        ])
        .arg(&plot)
        .assert()
        .success()
        .stdout(contains("4 games of bon-first-day"))
        .stdout(contains("French wins"))
        .stdout(contains("95% CI"))
        .stdout(contains("game length"));
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    let out = grognard()
        .args([
            "sim",
            "bon-first-day",
            "--games",
            "4",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 4);
    let total: u64 = ["French", "Allied", "draw"]
        .iter()
        .map(|k| v["results"][k]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 4);
    assert!(v["mean_actions"].as_f64().unwrap() > 0.0);
    // the same seed gives the same games
    let again = grognard()
        .args([
            "sim",
            "bon-first-day",
            "--games",
            "4",
            "--jobs",
            "1",
            "--seed",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(again.stdout, out.stdout);
    grognard()
        .args([
            "sim",
            "bon-first-day",
            "--games",
            "2",
            "--players",
            "random:genius",
        ])
        .assert()
        .code(1)
        .stderr(contains("unknown player 'genius'"));
}

#[test]
fn map_draws_svg_and_png() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("map.svg");
    grognard()
        .args(["map", "bon-first-day", "--numbers", "--svg"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(text.contains("FR.4"));
    // a record: units where they stand now
    let g = new_game(&dir);
    act(&g, &["end", "move PR.9 2416"]).success();
    let svg2 = dir.path().join("game.svg");
    let png = dir.path().join("game.png");
    grognard()
        .arg("map")
        .arg(&g)
        .arg("--svg")
        .arg(&svg2)
        .arg("--png")
        .arg(&png)
        .args(["--width", "400"])
        .assert()
        .success();
    assert!(std::fs::read_to_string(&svg2)
        .unwrap()
        .contains("game-turn 1"));
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    // an output is required
    grognard().args(["map", "bon-first-day"]).assert().code(2);
}

#[test]
fn show_draws_an_ascii_map() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir);
    grognard()
        .args(["show", "--map", "2316"])
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("Map around 2316"))
        .stdout(contains("FR.26"))
        .stdout(contains("Terrain: . clear"));
    grognard()
        .args(["show", "--map", "9999"])
        .arg(&g)
        .assert()
        .code(1)
        .stderr(contains("not on the map"));
    grognard()
        .args(["show", "--map", "23x6"])
        .arg(&g)
        .assert()
        .code(1)
        .stderr(contains("not a hex number"));
}

#[test]
fn validate_the_shipped_scenarios() {
    grognard()
        .arg("validate")
        .arg(scenarios_dir())
        .assert()
        .success()
        .stdout(contains("bon-first-day"))
        .stdout(contains("no problems"));
}

#[test]
fn validate_reports_every_problem() {
    let dir = TempDir::new().unwrap();
    let text = std::fs::read_to_string(scenarios_dir().join("bon-first-day.toml")).unwrap();
    let bad = text
        // FR.4 on the marsh of 0631
        .replacen("hex = \"2315\"", "hex = \"0631\"", 1)
        // FR.5 onto FR.6's hex
        .replacen("hex = \"2314\"", "hex = \"2313\"", 1)
        // RU.10's entry hex off the north edge
        .replacen(
            "arrive = { turn = 1, hex = \"0131\", edge = \"north\" }",
            "arrive = { turn = 1, hex = \"1531\", edge = \"north\" }",
            1,
        );
    assert_ne!(bad, text);
    std::fs::write(dir.path().join("broken.toml"), &bad).unwrap();
    grognard()
        .arg("validate")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(contains(
            "unit FR.4: set-up hex 0631 is marsh, where no unit may stand (9.0)",
        ))
        .stdout(contains(
            "unit FR.6: set-up hex 2313 already holds FR.5 (5.32)",
        ))
        .stdout(contains(
            "unit RU.10: entry hex 1531 is not on the North map edge",
        ))
        .stderr(contains("problem(s)"));
    // a syntax error is a problem too
    let file = dir.path().join("syntax.toml");
    std::fs::write(&file, "format = \"grognard-scenario/1\"\nid = [").unwrap();
    grognard()
        .arg("validate")
        .arg(&file)
        .assert()
        .code(1)
        .stdout(contains("syntax"));
    grognard()
        .arg("validate")
        .arg(dir.path().join("missing"))
        .assert()
        .code(1)
        .stderr(contains("does not exist"));
}

#[test]
fn play_reads_piped_commands() {
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("saved.json");
    grognard()
        .args(["play", "--seed", "3", "--save"])
        .arg(&save)
        .write_stdin("show\nquit\n")
        .assert()
        .success()
        .stdout(contains("Game-turn 1 of 1-5"))
        .stdout(contains("FR.Prov6"))
        .stdout(contains("Saved in"));
    assert_eq!(json(&save)["seed"], 3);

    // actions, refusals with their case, helpers, undo; the record saved after each action
    grognard()
        .args(["play", "--seed", "3", "--save"])
        .arg(&save)
        .write_stdin(
            "help\nend\nmove PR.9 2310\nmoves PR.9\nmove PR.9 2416\nmap 2416\nodds 13 4\nundo\nmove PR.9 2416\n",
        )
        .assert()
        .success()
        .stdout(contains("Commands:"))
        .stdout(contains("refused: 5.15:"))
        .stdout(contains("2416     1 MP"))
        .stdout(contains("Map around 2416"))
        .stdout(contains("13 against 4: 3-1"))
        .stdout(contains("took back: move PR.9 2416"))
        .stdout(contains("End of input"));
    let r = json(&save);
    let acts: Vec<&str> = r["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["do"].as_str().unwrap())
        .collect();
    assert_eq!(acts, ["end", "move PR.9 2416"]);

    // against the computer, which plays the Allies; resume the saved game
    let vs = dir.path().join("vs.json");
    grognard()
        .args([
            "play", "--vs", "random", "--side", "French", "--seed", "9", "--save",
        ])
        .arg(&vs)
        .write_stdin("end\nquit\n")
        .assert()
        .success()
        .stdout(contains("Allied (random):"));
    grognard()
        .args(["play", "--resume"])
        .arg(&vs)
        .arg("--save")
        .arg(&vs)
        .write_stdin("show\nquit\n")
        .assert()
        .success();
    grognard()
        .args(["play", "--vs", "random", "--side", "Saxon"])
        .write_stdin("quit\n")
        .assert()
        .code(1)
        .stderr(contains("the sides are French and Allied"));
}

#[test]
fn play_saves_in_the_data_directory_by_default() {
    let dir = TempDir::new().unwrap();
    grognard()
        .env("XDG_DATA_HOME", dir.path())
        .args(["play", "--seed", "4"])
        .write_stdin("end\nquit\n")
        .assert()
        .success();
    let saved = dir.path().join("grognard").join("last-game.json");
    assert_eq!(json(&saved)["actions"][0]["do"], "end");
}

#[test]
fn bad_records_are_refused_clearly_and_left_alone() {
    let dir = TempDir::new().unwrap();
    let g = played(&dir);
    let good = std::fs::read_to_string(&g).unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "truncated.json",
            good[..good.len() / 2].to_string(),
            "not a valid game record",
        ),
        (
            "garbage.json",
            "this is not json".into(),
            "not a valid game record",
        ),
        ("empty.json", String::new(), "empty"),
        (
            "format.json",
            good.replace("grognard-record/1", "grognard-record/9"),
            "not a game record: format",
        ),
        (
            "rules.json",
            good.replace("naw/1", "naw/0"),
            "rules 'naw/0'",
        ),
        (
            "scenario.json",
            good.replace("\"bon-first-day\"", "\"no-such-scenario\""),
            "no-such-scenario",
        ),
        (
            "digest.json",
            {
                let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
                v["scenario_digest"] = "0000000000000000".into();
                serde_json::to_string(&v).unwrap()
            },
            "the scenario has changed",
        ),
    ];
    for (name, text, msg) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, &text).unwrap();
        let ps = p.to_str().unwrap();
        for args in [
            vec!["show", ps],
            vec!["act", ps, "end"],
            vec!["undo", ps],
            vec!["moves", ps, "PR.9"],
            vec!["replay", "--verify", ps],
        ] {
            refused_unchanged(&p, &args, msg);
        }
    }
    grognard()
        .args(["show", "no-such-file.json"])
        .assert()
        .code(1)
        .stderr(contains("cannot read the record"));

    // unknown ids and bad hexes
    let ga = g.to_str().unwrap();
    refused_unchanged(&g, &["act", ga, "retreat XX.9 2517"], "not a unit id");
    refused_unchanged(&g, &["act", ga, "retreat PR.9 25x7"], "not a hex number");
    refused_unchanged(&g, &["act", ga, "retreat PR.9 4040"], "refused:");
    refused_unchanged(&g, &["act", ga, "fly PR.9"], "unknown action 'fly'");
    refused_unchanged(&g, &["moves", ga, "XX.9"], "not a unit id");
    refused_unchanged(&g, &["moves", ga, "0101"], "no unit stands in 0101");
    refused_unchanged(&g, &["moves", ga, "9999"], "not on the map");
    refused_unchanged(&g, &["act", ga], "no action given");
    grognard()
        .args(["new", "no-such-scenario"])
        .assert()
        .code(1)
        .stderr(contains("neither a shipped scenario"));
}

#[test]
fn usage_errors_exit_2_and_every_command_has_help() {
    grognard().assert().code(2);
    grognard().arg("fly").assert().code(2);
    grognard().args(["odds", "13"]).assert().code(2);
    grognard().args(["odds", "x", "4"]).assert().code(2);
    grognard().args(["sim", "bon-first-day"]).assert().code(2);
    for cmd in [
        "scenarios",
        "new",
        "show",
        "moves",
        "act",
        "undo",
        "odds",
        "replay",
        "sim",
        "map",
        "validate",
        "play",
    ] {
        grognard()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(contains("Usage: grognard").and(contains(cmd)));
    }
    grognard()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("grognard play"));
}
