//! Issue 10, defect 1: the number of units a scenario may hold. A unit's occupancy value is
//! its index plus one in a byte, so at most 255 units fit (ruling I3 in `docs/rulings.md`).

mod common;
use common::*;
use naw::scenario::MAX_UNITS;
use naw::Game;

/// `n` units, Blue in the northern rows and Red in the southern, on a clear 20 x 30 map.
fn crowd(n: usize) -> Build {
    let mut b = Build::new(20, 30);
    for i in 0..n {
        let (side, row) = if i % 2 == 0 {
            ("B", 1 + (i / 2) / 30)
        } else {
            ("R", 20 - (i / 2) / 30)
        };
        let col = 1 + (i / 2) % 30;
        b = b.unit(&format!("{side}.{i} inf 3-4 {row:02}{col:02}"));
    }
    b
}

#[test]
fn ruling_a_scenario_of_255_units_plays() {
    assert_eq!(MAX_UNITS, 255);
    let b = crowd(255);
    let mut g: Game = b.game();
    let last = g.scenario().unit_by_id("B.254").expect("the 255th unit");
    assert_eq!(g.unit_at(h("0508")), Some(last));
    play_random(&mut g, 7, 3000, |_, _| {});
}

#[test]
fn ruling_a_scenario_of_256_units_is_refused_citing_the_limit() {
    let b = crowd(256);
    let err = b
        .file()
        .validate("test.toml", b.map.clone(), 1)
        .expect_err("256 units are refused");
    assert!(
        err.0
            .iter()
            .any(|p| p.item == "units" && p.problem.contains("at most 255")),
        "{err}"
    );
}
