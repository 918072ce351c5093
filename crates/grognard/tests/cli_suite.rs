//! `grognard suite` as a user runs it (issue 13): the tactical positions played by the levels
//! asked for, a table of pass or fail with the scores and why each failure failed, the same
//! in JSON, and an unknown level refused with the list of the known ones.

use predicates::str::contains;

mod common;
use common::grognard;

#[test]
fn the_suite_reports_every_position_for_every_level() {
    let out = grognard()
        .args([
            "suite",
            "--players",
            "random,heuristic",
            "--seeds",
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
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["levels"], serde_json::json!(["random", "heuristic"]));
    let positions = v["positions"].as_array().unwrap();
    assert!(positions.len() >= 10, "{} positions", positions.len());
    let mut ids = std::collections::BTreeSet::new();
    for p in positions {
        assert!(
            ids.insert(p["id"].as_str().unwrap().to_string()),
            "twice: {}",
            p["id"]
        );
        assert!(p["kind"] == "avoid" || p["kind"] == "take", "{}", p["kind"]);
        assert!(!p["checks"].as_array().unwrap().is_empty(), "{}", p["id"]);
        let results = p["results"].as_array().unwrap();
        assert_eq!(results.len(), 2, "{}", p["id"]);
        for r in results {
            assert!(r["passed"].is_boolean());
            // a failure says why
            if r["passed"] == false {
                assert!(!r["failed"].as_array().unwrap().is_empty(), "{r}");
            }
        }
    }
    assert!(ids.contains("pocket-leutzsch") && ids.contains("free-3-1"));

    // the same run as a table: a row per position, the scores, the failures explained
    let text = grognard()
        .args(["suite", "--players", "random,heuristic", "--seeds", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("pocket-leutzsch"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("score")), "{text}");
    assert!(
        text.contains("heuristic fails:") || !text.contains("FAIL"),
        "{text}"
    );

    grognard()
        .args(["suite", "--players", "nobody"])
        .assert()
        .failure()
        .stderr(contains("unknown player 'nobody'"))
        .stderr(contains("heuristic"));
}
