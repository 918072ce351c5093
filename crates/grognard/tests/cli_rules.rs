//! The rules' facts as the command line says them (issue 12): why a unit cannot move (14.62,
//! 5.13), a rolled combat's column, taking back a retreat, `show` in brief, unit ids that are
//! not quite ids, zones of control among a unit's destinations, the line of communications at
//! the end (17.5) and the reinforcements due. Drives the real `grognard` binary.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

mod common;
use common::{act_ok as act, grognard, stdout_of as stdout};

/// A new record of a shipped scenario (or a scenario file) with seed 7.
fn new_game(dir: &TempDir, scenario: &str) -> PathBuf {
    common::new_record(dir.path(), scenario, 7)
}

fn moves(record: &Path, unit: &str, json: bool) -> String {
    let mut c = grognard();
    c.arg("moves").arg(record).arg(unit);
    if json {
        c.arg("--json");
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "moves {unit}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn show_json(record: &Path) -> Value {
    serde_json::from_str(&stdout(&["show", "--json"], record)).unwrap()
}

/// The First Day after PR.9 attacked FR.26 in the Allies' first combat phase, the die (given)
/// rolled: `at` reduces the odds (7.9).
fn after_the_die(dir: &TempDir, at: Option<&str>, die: &str) -> PathBuf {
    let g = new_game(dir, "bon-first-day");
    let resolve = match at {
        Some(c) => format!("resolve FR.26 at {c}"),
        None => "resolve FR.26".to_string(),
    };
    act(
        &g,
        &[
            "end",
            "move PR.9 2416",
            "end",
            "attack PR.9 FR.26",
            "end",
            &resolve,
            "--die",
            die,
        ],
    );
    g
}

#[test]
fn moves_under_14_62_say_the_french_have_no_movement_phase() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir, "bon-first-day");
    let text = moves(&g, "FR.4", false);
    assert!(text.contains("cannot move: 14.62:"), "{text}");
    assert!(
        text.contains("the French have no movement phase in game-turn 1"),
        "{text}"
    );
    assert!(text.contains("(4.1)"), "{text}");
    assert!(!text.contains("declar"), "{text}");
    assert!(!text.contains("destinations"), "{text}");
    let j: Value = serde_json::from_str(&moves(&g, "FR.4", true)).unwrap();
    assert_eq!(j["why_not"]["case"], "14.62");
    assert_eq!(j["destinations"], serde_json::json!([]));
    // a move named anyway is refused for the same reason, not with the declaring step's words
    grognard()
        .args(["act"])
        .arg(&g)
        .arg("move FR.4 2316")
        .assert()
        .code(1)
        .stderr(contains(
            "refused: 14.62: move FR.4 2316: the French have no movement phase",
        ))
        .stderr(contains("declared").not());
}

#[test]
fn a_unit_held_in_an_enemy_zone_of_control_says_5_13_with_case_and_why() {
    let dir = TempDir::new().unwrap();
    // PR.9 drives FR.26 out of 2316 and advances into it, next to FR.4 (2315)
    let g = after_the_die(&dir, None, "1");
    act(&g, &["retreat FR.26 2216", "advance PR.9 2316"]);
    let text = moves(&g, "FR.4", false);
    assert!(
        text.contains("cannot move: 5.13: FR.4 is in an enemy zone of control"),
        "{text}"
    );
    let j: Value = serde_json::from_str(&moves(&g, "FR.4", true)).unwrap();
    assert_eq!(j["cannot_move"]["case"], "5.13", "{j}");
    assert_eq!(j["cannot_move"], j["why_not"], "{j}");
    // show names the units held where they stand
    let show = stdout(&["show"], &g);
    assert!(show.contains("FR.4 (5.13)"), "{show}");
    // a unit that may move has no cannot_move
    let j: Value = serde_json::from_str(&moves(&g, "FR.5", true)).unwrap();
    assert!(j.get("cannot_move").is_none(), "{j}");
}

#[test]
fn a_combat_rolled_at_reduced_odds_shows_the_column_used_and_is_resolved() {
    let dir = TempDir::new().unwrap();
    let g = after_the_die(&dir, Some("1-3"), "2");
    let s = show_json(&g);
    let c = &s["combats"][0];
    assert_eq!(c["column"], "1-3", "{c}");
    assert_eq!(c["odds"], "1-3", "{c}");
    assert_eq!(c["resolved"], true, "{c}");
    assert_eq!(c["reduced_from"], "1-2", "{c}");
    assert_eq!(c["die"], 2, "{c}");
    assert_eq!(c["result"], "Ar", "{c}");
    // the probabilities are the column's it was resolved at: 1-3 has no Ex
    assert_eq!(c["probabilities"]["Ex"], 0.0, "{c}");
    let text = stdout(&["show"], &g);
    assert!(
        text.contains("[resolved at 1-3 (reduced from 1-2, 7.9): die 2, Ar]"),
        "{text}"
    );
}

#[test]
fn a_retreat_is_taken_back_to_the_die_and_the_die_stands() {
    let dir = TempDir::new().unwrap();
    let g = after_the_die(&dir, None, "1");
    act(&g, &["retreat FR.26 2216"]);
    assert_eq!(show_json(&g)["undoable"], 1);
    grognard()
        .arg("undo")
        .arg(&g)
        .assert()
        .success()
        .stdout(contains("took back: retreat FR.26 2216"));
    let s = show_json(&g);
    assert_eq!(s["step"], "retreat");
    assert_eq!(s["combats"][0]["die"], 1);
    // the die itself stands (5.14), and the refusal says so
    grognard()
        .arg("undo")
        .arg(&g)
        .assert()
        .code(1)
        .stderr(contains("refused: 5.14: the die has been rolled"));
    // a player-turn's actions stand once the next has begun, with its own reason
    act(&g, &["retreat FR.26 2216", "advance PR.9 2316"]);
    grognard()
        .arg("undo")
        .arg(&g)
        .assert()
        .code(1)
        .stderr(contains(
            "refused: 5.17: the French player-turn of game-turn 2 has begun",
        ));
}

#[test]
fn show_sums_up_the_legal_actions_and_legal_lists_them_all() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir, "bon-first-day");
    act(&g, &["end", "end", "end"]);
    let text = stdout(&["show"], &g);
    assert!(text.contains("units may move"), "{text}");
    assert!(text.contains("FR.5 (25)"), "{text}");
    assert!(text.contains("grognard moves RECORD UNIT"), "{text}");
    assert!(!text.contains("move FR.5 to one of"), "{text}");
    assert!(text.lines().count() < 130, "{} lines", text.lines().count());
    let all = stdout(&["show", "--legal"], &g);
    assert!(all.contains("move FR.5 to one of 25 hexes"), "{all}");
    assert!(show_json(&g)["legal"].as_array().unwrap().len() > 2000);
}

#[test]
fn unit_ids_that_are_not_ids_get_suggestions() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir, "bon-grand-battle");
    grognard()
        .arg("moves")
        .arg(&g)
        .arg("PR.1")
        .assert()
        .code(1)
        .stderr(contains("no unit PR.1: did you mean PR.1_8 or PR.1_4?"));
    // the same in an action, and a prefix of one unit is not taken for it
    let before = std::fs::read(&g).unwrap();
    grognard()
        .arg("act")
        .arg(&g)
        .arg("attack PR.1_ FR.4")
        .assert()
        .code(1)
        .stderr(contains("no unit PR.1_: did you mean PR.1_8 or PR.1_4?"));
    assert_eq!(std::fs::read(&g).unwrap(), before);
    // a typo, and a designation without its nation
    grognard()
        .arg("moves")
        .arg(&g)
        .arg("FR4")
        .assert()
        .code(1)
        .stderr(contains("did you mean FR.4?"));
    grognard()
        .arg("moves")
        .arg(&g)
        .arg("pahl")
        .assert()
        .code(1)
        .stderr(contains("did you mean AU.Pahl?"));
    // case never mattered
    assert!(moves(&g, "fr.4", false).starts_with("FR.4 "));
}

#[test]
fn moves_mark_destinations_in_an_enemy_zone_of_control() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir, "bon-first-day");
    act(&g, &["end"]);
    let text = moves(&g, "PR.9", false);
    assert!(text.contains("  2416     1 MP  2516-2416  ZOC\n"), "{text}");
    assert!(text.contains("  2517     1 MP  2516-2517\n"), "{text}");
    assert!(text.contains("ZOC marks the"), "{text}");
    let j: Value = serde_json::from_str(&moves(&g, "PR.9", true)).unwrap();
    let dest = |h: &str| {
        j["destinations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["hex"] == h)
            .cloned()
            .unwrap()
    };
    assert_eq!(dest("2416")["zoc"], true);
    assert_eq!(dest("2517")["zoc"], false);
}

/// The First Day with FR.4 set up in the corner hex 0101 and PR.9 at 0202, whose zone of
/// control covers both of the corner's neighbours: FR.4 is cut off from 2131 (17.5).
fn cut_off_scenario(dir: &TempDir) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/scenarios/bon-first-day.toml"),
    )
    .unwrap();
    let place = |text: &str, id: &str, from: &str, to: &str| {
        let i = text.find(&format!("id = \"{id}\"")).unwrap();
        let j = i + text[i..].find(&format!("hex = \"{from}\"")).unwrap();
        format!("{}hex = \"{to}\"{}", &text[..j], &text[j + 12..])
    };
    let text = place(&text, "FR.4", "2315", "0101");
    let text = place(&text, "PR.9", "2516", "0202");
    let text = text.replacen("id = \"bon-first-day\"", "id = \"cut-off\"", 1);
    let p = dir.path().join("cut-off.toml");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_outcome_lists_who_traces_to_2131_and_who_is_cut_off() {
    let dir = TempDir::new().unwrap();
    let sc = cut_off_scenario(&dir);
    let g = new_game(&dir, sc.to_str().unwrap());
    // every phase ended, five game-turns
    let ends = vec!["end"; 19];
    let out = act(&g, &ends);
    assert!(
        out.contains("line of communications to 2131 (17.5): 36 French units trace, cut off and counted as eliminated: FR.4"),
        "{out}"
    );
    let s = show_json(&g);
    let loc = &s["outcome"]["line_of_communications"];
    assert_eq!(loc["case"], "17.5", "{s}");
    assert_eq!(loc["hex"], "2131");
    assert_eq!(loc["cut_off"], serde_json::json!(["FR.4"]));
    let traced = loc["traced"].as_array().unwrap();
    assert_eq!(traced.len(), 36);
    assert!(traced.contains(&Value::from("FR.5")));
    // the game-over event carries it too
    let last = s["log"].as_array().unwrap().last().unwrap().clone();
    let over = last["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "game_over")
        .cloned()
        .unwrap();
    assert_eq!(
        over["line_of_communications"]["cut_off"],
        serde_json::json!(["FR.4"])
    );
    let text = stdout(&["show"], &g);
    assert!(
        text.contains(
            "Line of communications to 2131 (17.5), checked at the end of the last game-turn:"
        ),
        "{text}"
    );
    assert!(
        text.contains("  French units that trace (36):\n    FR.5 FR.6"),
        "{text}"
    );
    assert!(
        text.contains("  cut off, counted as eliminated (1):\n    FR.4\n"),
        "{text}"
    );
}

#[test]
fn show_reminds_the_reinforcements_due_this_turn_and_next() {
    let dir = TempDir::new().unwrap();
    let g = new_game(&dir, "bon-first-day");
    act(&g, &["end"]);
    let text = stdout(&["show"], &g);
    assert!(
        text.contains("Reinforcements (15.0):\n  Allied due this game-turn (1), at 0131: RU.10, RU.25, RU.Sack\n"),
        "{text}"
    );
    // turn 2: those not brought on are still due; the Guards and the Russians of turn 3 next
    act(&g, &["end", "end"]);
    let text = stdout(&["show"], &g);
    assert!(
        text.contains("  Allied due this game-turn (2), at 0131: RU.10, RU.25, RU.Sack\n"),
        "{text}"
    );
    assert!(
        text.contains("  Allied due next game-turn (3), at 2915: PR.1Gd, RU.1Gd, RU.2Gd\n"),
        "{text}"
    );
    let start = text.find("Reinforcements (15.0):").unwrap();
    let section = &text[start..start + text[start..].find("\n\n").unwrap()];
    assert!(!section.contains("FR.9"), "turn 5 is not next: {section}");
}
