//! Night game-turns (10.0-10.2).

mod common;
use common::*;
use naw::Step;

/// B.1 and R.1 in contact, B.7 a battery in range of R.2; game-turn 1 is a night turn.
fn night() -> Build {
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("B.7 art 6-4 0803")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0805");
    b.night = vec![1];
    b
}

#[test]
fn case_10_0_night_game_turns_have_no_combat_phase() {
    let mut g = night().game();
    assert!(g.is_night());
    act(&mut g, "end");
    // Straight from Blue's movement phase to Red's.
    assert_eq!((g.turn(), g.phasing(), g.step()), (1, RED, Step::Movement));
    act(&mut g, "end");
    assert_eq!((g.turn(), g.phasing(), g.step()), (2, BLUE, Step::Movement));
    assert!(!g.is_night());
    // By day the same contact must be fought.
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Declare);
    assert_eq!(refused(&g, "end"), "7.12");
}

#[test]
fn case_10_1_adjacent_units_stay_in_place_and_artillery_does_not_bombard() {
    let mut g = night().game();
    assert_eq!(refused(&g, "attack B.7 R.2"), "5.14");
    act(&mut g, "end");
    assert_eq!(refused(&g, "attack B.7 R.2"), "5.14");
    assert_eq!(refused(&g, "attack B.1 R.1"), "5.14");
    act(&mut g, "end");
    assert_eq!(at(&g, "B.1"), Some(h("0505")));
    assert_eq!(at(&g, "R.1"), Some(h("0605")));
    assert_eq!(g.losses(), &[0, 0]);
}

#[test]
fn case_10_2_at_night_no_unit_enters_or_leaves_an_enemy_zone() {
    let g = night().game();
    // B.1 stays in R.1's zone.
    assert_eq!(refused(&g, "move B.1 0404"), "10.2");
    // B.2 may not enter a controlled hex (0604 is next to R.1)...
    assert_eq!(refused(&g, "move B.2 0604"), "10.2");
    // ...nor pass through one: every hex it reaches, and every hex on the way, is free.
    let u = uid(&g, "B.2");
    let mut dests = Vec::new();
    g.destinations(u, &mut dests);
    assert!(!dests.is_empty());
    for d in dests {
        let (path, _) = g.path(u, d.hex).unwrap();
        assert!(path.iter().all(|&x| !g.controlled_by(RED, x)), "{}", d.hex);
    }
}

#[test]
fn case_10_2_otherwise_night_movement_is_day_movement() {
    let day = {
        let mut b = night();
        b.night.clear();
        b.game()
    };
    let g = night().game();
    for to in ["0203", "0204", "0302", "0402", "0105"] {
        assert_eq!(cost(&g, "B.2", to), cost(&day, "B.2", to), "{to}");
    }
    assert_eq!(refused(&g, "move B.2 0207"), "5.15");
}

#[test]
fn ruling_reinforcements_due_on_a_night_turn_arrive_that_night() {
    let mut b = Build::new(10, 10)
        .road(&["0105", "0205", "0305"])
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    b.night = vec![1];
    let mut g = b.game();
    assert!(g.is_night());
    act(&mut g, "move B.9 0305");
    assert_eq!(at(&g, "B.9"), Some(h("0305")));
}
