//! `grognard ladder` (the rating ladder) and the pinned level `search1` on the command line.

mod common;

use common::grognard;
use serde_json::Value;

fn ladder_json(args: &[&str]) -> Value {
    let out = grognard()
        .args(["ladder", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn a_small_ladder_rates_every_level_and_is_reproducible() {
    let args = [
        "--players",
        "random,heuristic",
        "--scenarios",
        "bon-first-day,bon-grand-battle",
        "--games",
        "1",
        "--seed",
        "4",
    ];
    let r = ladder_json(&args);
    // two scenarios, each level on each side once
    assert_eq!(r["games"], 4);
    assert_eq!(r["played"].as_array().unwrap().len(), 4);
    assert_eq!(r["anchor"], "heuristic");
    assert_eq!(r["anchor_elo"], 1000.0);
    let ratings = r["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    for x in ratings {
        assert_eq!(x["games"], 4);
        assert!(x["elo"].as_f64().unwrap().is_finite());
        assert!(x["by_scenario"]["bon-grand-battle"].is_number());
    }
    // best first; the heuristic sweeps random on these two scenarios
    assert_eq!(ratings[0]["level"], "heuristic");
    assert_eq!(ratings[0]["ci95"], 0.0);
    assert!(ratings[1]["elo"].as_f64().unwrap() < 1000.0);
    assert_eq!(r["pairwise"].as_array().unwrap().len(), 2);
    // the same seed, the same games
    let again = ladder_json(&args);
    assert_eq!(r["played"], again["played"]);

    let text = grognard().args(["ladder"]).args(args).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("heuristic anchored at 1000"), "{text}");
    assert!(text.contains("pairwise"), "{text}");
    assert!(text.contains("anchor"), "{text}");
}

#[test]
fn a_ladder_refuses_bad_levels_and_anchors() {
    for bad in [
        vec!["--players", "random,nobody", "--games", "1"],
        vec!["--players", "random", "--games", "1"],
        vec!["--players", "random,random", "--games", "1"],
        vec!["--players", "random,heuristic", "--games", "0"],
        vec![
            "--players",
            "random,heuristic",
            "--games",
            "1",
            "--anchor",
            "search=0",
        ],
        vec![
            "--players",
            "random,heuristic",
            "--games",
            "1",
            "--anchor",
            "x",
        ],
        vec![
            "--players",
            "random,heuristic",
            "--games",
            "1",
            "--scenarios",
            "nowhere",
        ],
    ] {
        let out = grognard().arg("ladder").args(&bad).output().unwrap();
        assert!(!out.status.success(), "{bad:?} was accepted");
        assert!(!out.stderr.is_empty(), "{bad:?}: no message");
    }
}

#[test]
fn sim_plays_the_pinned_level_search1() {
    common::sim_one_first_day("search1@20n:heuristic", 2)
        .assert()
        .success()
        .stdout(predicates::str::contains("French (search1@20n)"));
}
