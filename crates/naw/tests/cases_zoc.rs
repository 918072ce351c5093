//! Zones of control (6.0-6.6).

mod common;
use common::*;
use hexmap::Hexside;
use naw::Opponent;
use naw::{Game, Step};

/// Every legal destination is reached by a path whose intermediate hexes are not controlled by
/// the enemy (6.0: a unit stops on entering an enemy-controlled hex).
fn no_path_crosses_enemy_zones(g: &Game, id: &str) {
    let u = uid(g, id);
    let enemy = g.side_of(u).other();
    let mut dests = Vec::new();
    g.destinations(u, &mut dests);
    for d in dests {
        let (path, _) = g.path(u, d.hex).unwrap();
        for &x in &path[1..path.len() - 1] {
            assert!(
                !g.controlled_by(enemy, x),
                "{id} to {} passes {x}, an enemy-controlled hex",
                d.hex
            );
        }
    }
}

#[test]
fn case_6_0_a_unit_entering_an_enemy_zone_stops() {
    // Two rows: R.1 at 0205 controls 0105, 0106, 0204 and 0206.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-6 0101")
        .unit("R.1 inf 6-4 0205");
    let g = b.game();
    // B.1 may enter the zone...
    assert_eq!(cost(&g, "B.1", "0105"), Some(8));
    // ...but not go on through it, though it has the points.
    assert_eq!(refused(&g, "move B.1 0107"), "6.0");
    no_path_crosses_enemy_zones(&g, "B.1");
}

#[test]
fn case_6_1_zones_act_in_every_phase_and_friends_do_not_negate_them() {
    // The non-phasing player's zone stops the phasing player's units, and a friendly unit
    // standing in the controlled hex does not cancel it.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-6 0101")
        .unit("B.2 inf 6-4 0105")
        .unit("R.1 inf 6-4 0205");
    let g = b.game();
    assert!(g.controlled_by(RED, h("0105")));
    assert_eq!(refused(&g, "move B.1 0107"), "6.0");

    // In the combat phase the phasing player's zones bind the defender's retreat: B.2 is not
    // in the combat, yet its zone closes 0706 to R.1.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0806")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    acts(&mut g, &["attack B.1 R.1", "end", "resolve R.1", "roll 1"]);
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(refused(&g, "retreat R.1 0706"), "7.72");
    act(&mut g, "retreat R.1 0705");
}

#[test]
fn case_6_2_entering_an_enemy_zone_costs_nothing_extra() {
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-4 0101")
        .unit("R.1 inf 6-4 0205");
    let g = b.game();
    // 0101 -> 0105 is four clear hexes; the last is controlled: still 4 points.
    assert_eq!(cost(&g, "B.1", "0105"), Some(8));
}

#[test]
fn case_6_3_leaving_an_enemy_zone_by_advance_or_by_removing_the_enemy() {
    // B.1 at 0104 is in the zones of R.1 (0105) and R.2 (0203).
    let b = Build::new(2, 10)
        .unit("B.1 inf 12-4 0104")
        .unit("B.2 inf 12-4 0202")
        .unit("R.1 inf 2-4 0105")
        .unit("R.2 inf 2-4 0203");
    let mut g = b.game();
    assert_eq!(refused(&g, "move B.1 0103"), "5.13");
    act(&mut g, "end");
    // 12 against 2 is 6-1: a 1 is De.
    acts(&mut g, &["attack B.1 R.1", "attack B.2 R.2", "end"]);
    acts(&mut g, &["resolve R.1", "roll 1"]);
    assert!(gone(&g, "R.1"));
    // The advance takes B.1 out of R.2's zone.
    act(&mut g, "advance B.1 0105");
    assert!(!g.in_enemy_zoc(uid(&g, "B.1")));

    // Or both enemies are removed and B.1, which held its ground, moves next turn.
    let mut g = b.game();
    act(&mut g, "end");
    acts(&mut g, &["attack B.1 R.1", "attack B.2 R.2", "end"]);
    acts(
        &mut g,
        &[
            "resolve R.1",
            "roll 1",
            "hold",
            "resolve R.2",
            "roll 1",
            "hold",
        ],
    );
    // Red has nothing left on the map.
    acts(&mut g, &["end", "end"]);
    assert_eq!((g.turn(), g.phasing()), (2, BLUE));
    assert!(accepted(&g, "move B.1 0103"));
}

#[test]
fn case_6_4_zones_of_control_are_mutual() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    assert!(g.in_enemy_zoc(uid(&g, "B.1")));
    assert!(g.in_enemy_zoc(uid(&g, "R.1")));
    act(&mut g, "end");
    let open: Vec<(String, &str)> = g
        .open_obligations()
        .into_iter()
        .map(|(u, c)| (g.id(u).to_string(), c.case()))
        .collect();
    assert_eq!(
        open,
        vec![("B.1".to_string(), "7.12"), ("R.1".to_string(), "7.11")]
    );
}

#[test]
fn case_6_5_a_hex_may_be_controlled_by_both_sides_with_no_added_effect() {
    // 0404 is controlled by R.1 (0505) and by B.2 (0304).
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0402")
        .unit("B.2 inf 6-4 0304")
        .unit("R.1 inf 6-4 0505");
    let g = b.game();
    assert!(g.controlled_by(BLUE, h("0404")));
    assert!(g.controlled_by(RED, h("0404")));
    // B.1 enters it for the usual cost and stops there.
    assert_eq!(cost(&g, "B.1", "0404"), Some(4));
    no_path_crosses_enemy_zones(&g, "B.1");
}

#[test]
fn case_6_6_zones_do_not_extend_across_an_unbridged_river() {
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::RIVER)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let g = b.game();
    assert!(!g.in_enemy_zoc(uid(&g, "B.1")));
    assert!(accepted(&g, "move B.1 0404"));
    // No combat is owed across the river either.
    let mut g2 = g.clone();
    act(&mut g2, "end");
    assert!(g2.open_obligations().is_empty());
    // A bridge carries the zone.
    let g = b.side("0505", "0605", Hexside::BRIDGE).game();
    assert!(g.in_enemy_zoc(uid(&g, "B.1")));
    assert_eq!(refused(&g, "move B.1 0404"), "5.13");
}

#[test]
fn case_6_6_streams_do_not_stop_zones() {
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::STREAM)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let g = b.game();
    assert!(g.in_enemy_zoc(uid(&g, "B.1")));
}

#[test]
fn case_5_13_why_a_unit_cannot_move_at_all_is_told_apart_from_no_open_destination() {
    // B.1 at 0104 stands in R.1's zone (0105): it cannot move anywhere (5.13); B.2 may move.
    let b = Build::new(2, 10)
        .unit("B.1 inf 12-4 0104")
        .unit("B.2 inf 12-4 0202")
        .unit("R.1 inf 2-4 0105");
    let mut g = b.game();
    let why = g.why_immobile(uid(&g, "B.1")).expect("B.1 is held");
    assert_eq!(why.case, "5.13");
    assert_eq!(g.why_immobile(uid(&g, "B.2")), None);
    // once moved, a unit may not move again this phase (5.17)
    act(&mut g, "move B.2 0201");
    let case = g.why_immobile(uid(&g, "B.2")).map(|r| r.case);
    assert_eq!(case, Some(refused(&g, "move B.2 0202").as_str()));
    // an enemy unit cannot be moved by this side at all
    assert!(g.why_immobile(uid(&g, "R.1")).is_some());
}
