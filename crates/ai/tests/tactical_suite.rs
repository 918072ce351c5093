//! The tactical suite (issue 13, `ai::suite`, `docs/ai.md` "The tactical suite"): every
//! position loads and brings the side under test to its decision; its checks mean something (a
//! good line written by hand passes them, a blunder fails one); the runner plays and reports.
//! Today's levels are not asked to pass: the suite measures them (`grognard suite`).

use ai::suite::{self, Kind, Until, POSITIONS};

fn map(name: &str) -> Option<String> {
    scenarios::map_text(name).map(str::to_string)
}

#[test]
fn there_are_ten_positions_or_more_with_both_kinds() {
    assert!(POSITIONS.len() >= 10, "{}", POSITIONS.len());
    assert!(POSITIONS.iter().any(|p| p.kind == Kind::Avoid));
    assert!(POSITIONS.iter().any(|p| p.kind == Kind::Take));
    let mut ids: Vec<&str> = POSITIONS.iter().map(|p| p.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), POSITIONS.len(), "ids are unique");
}

#[test]
fn every_position_loads_and_reaches_its_decision() {
    for p in POSITIONS {
        let g = p.game(&map).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert!(!p.checks.is_empty(), "{}", p.id);
        // the scenario file is the one the position names, and it says its id
        assert!(
            p.text.contains(&format!("id = \"suite-{}\"", p.id)),
            "{}",
            p.id
        );
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p.file);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), p.text, "{}", p.id);
        if p.until == Until::Choice {
            assert_ne!(g.step(), naw::Step::Movement, "{}", p.id);
        }
    }
}

#[test]
fn a_good_line_passes_and_a_blunder_fails_every_position() {
    let mut wrong = Vec::new();
    for p in POSITIONS {
        let g = p.game(&map).unwrap();
        match p.play_line(&g, p.good) {
            Err(e) => wrong.push(format!("{}: good line: {e}", p.id)),
            Ok(t) => {
                for (c, r) in p.judge(&t) {
                    if let Err(e) = r {
                        wrong.push(format!("{}: good line fails '{}': {e}", p.id, c.describe()));
                    }
                }
            }
        }
        match p.play_line(&g, p.blunder) {
            Err(e) => wrong.push(format!("{}: blunder: {e}", p.id)),
            Ok(t) => {
                if p.judge(&t).iter().all(|(_, r)| r.is_ok()) {
                    wrong.push(format!("{}: the blunder passes every check", p.id));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_runner_reports_every_position_for_every_level() {
    let levels = ["random", "heuristic"];
    let r = suite::run(&levels, &[1, 2], &map).unwrap();
    assert_eq!(r.rows.len(), POSITIONS.len());
    for row in &r.rows {
        assert_eq!(row.outcomes.len(), levels.len());
        for o in &row.outcomes {
            assert_eq!(o.runs, 2);
            assert_eq!(o.passed, o.passes == 2, "{}: {o:?}", row.id);
            assert_eq!(o.passed, o.failed.is_empty(), "{}: {o:?}", row.id);
            assert!(
                !o.actions.is_empty(),
                "{}: {} took no action",
                row.id,
                o.level
            );
        }
    }
    let t = r.table();
    assert!(t.contains("score"), "{t}");
    for p in POSITIONS {
        assert!(t.contains(p.id), "{t}");
    }
    // the same seed, the same report
    let again = suite::run(&levels, &[1, 2], &map).unwrap();
    assert_eq!(again.table(), t);
    assert!(suite::run(&["nobody"], &[1], &map).is_err());
    assert!(suite::run(&levels, &[], &map).is_err());
}
