//! Movement ([8]): allowances ([2.4], [16]), zones of control ([4]), terrain ([18], [3.1]),
//! formations ([8.1], [9.1.7]), stacking ([2.4.1.3], [8.5.2]), reinforcements ([3.2]), generals
//! ([2.4.6.3]).

mod common;
use common::*;
use engine::Rules;
use hex_miniatures::action::Formation;
use hex_miniatures::army::{Kind, Order};
use hex_miniatures::setup::Start;
use hex_miniatures::{Event, Game, Stage};
use hexmap::{Dir, Hexside};

/// Side 0's movement stage of turn 1.
fn moving(units: &[(&str, u8, Kind, &str)]) -> Game {
    let mut g = game(battle(units, &[("blue", 0, "0101"), ("red", 1, "1010")], 4));
    until(&mut g, 0, Stage::Movement, 500);
    g
}

#[test]
fn movement_2_4_3_3_infantry_moves_a_hex_a_turn() {
    let mut g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "0909")]);
    assert_eq!(refused(&g, "move P1 0505"), "8.3.5");
    act(&mut g, "move P1 0405");
    // [8.3.7]: once moved, it moves no further
    assert_eq!(refused(&g, "move P1 0505"), "8.3.7");
}

#[test]
fn movement_2_4_4_5_light_cavalry_moves_three_hexes_heavy_two() {
    let mut g = game(battle(
        &[
            ("PC", 0, Kind::LightCavalry, "0305"),
            ("PH", 0, Kind::HeavyCavalry, "0308"),
            ("F1", 1, Kind::Line, "1010"),
        ],
        &[("blue", 0, "0101")],
        2,
    ));
    until(&mut g, 0, Stage::Movement, 500);
    let far = |u: &str| {
        let u = unit(&g, u);
        let from = g.hex_of(u).unwrap();
        g.destinations(u)
            .iter()
            .map(|&h| g.setup().map.distance(from, h))
            .max()
            .unwrap()
    };
    assert_eq!((far("PC"), far("PH")), (3, 2));
}

#[test]
fn zoc_8_3_3_a_unit_in_an_enemy_zone_of_control_may_not_leave_it() {
    // 0405 and 0505 are adjacent
    let g = moving(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    assert_eq!(refused(&g, "move P1 0305"), "8.3.3");
}

#[test]
fn zoc_4_units_stop_on_entering_an_enemy_zone_of_control() {
    // light cavalry three hexes from the French line: it may enter 0405 (next to 0505) but
    // not run on past it to 0406 or 0506
    let g = moving(&[
        ("PC", 0, Kind::LightCavalry, "0305"),
        ("F1", 1, Kind::Line, "0505"),
    ]);
    let d = g.destinations(unit(&g, "PC"));
    assert!(d.contains(&hex("0405")));
    assert!(
        !d.contains(&hex("0505")),
        "[8.3.2]: never into an enemy's hex"
    );
    assert_eq!(refused(&g, "move PC 0505"), "8.3.2");
}

#[test]
fn terrain_18_only_infantry_enters_woods() {
    // the wood is 0503
    let g = moving(&[
        ("PC", 0, Kind::LightCavalry, "0403"),
        ("P1", 0, Kind::Line, "0402"),
        ("F1", 1, Kind::Line, "1010"),
    ]);
    assert_eq!(refused(&g, "move PC 0503"), "18");
    assert!(g.destinations(unit(&g, "P1")).contains(&hex("0503")));
}

#[test]
fn terrain_3_1_6_a_road_doubles_movement() {
    let mut s = battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")],
        &[("blue", 0, "0101")],
        2,
    );
    // 0305 - 0404 - 0504 along a road
    s.map.add_hexside(hex("0404"), Dir::SE, Hexside::ROAD);
    let mut g = game(s);
    until(&mut g, 0, Stage::Movement, 500);
    act(&mut g, "move P1 0504");
}

#[test]
fn terrain_3_1_3_4_hm16_a_stream_costs_nothing_more_and_disrupts() {
    // the stream runs between 0408 and 0407
    let mut g = moving(&[("P1", 0, Kind::Line, "0408"), ("F1", 1, Kind::Line, "1010")]);
    act(&mut g, "move P1 0407");
    assert_eq!(g.unit(unit(&g, "P1")).order, Order::Disordered);
}

#[test]
fn stacking_2_4_1_3_one_battalion_and_one_battery_to_a_hex() {
    let g = moving(&[
        ("P1", 0, Kind::Line, "0305"),
        ("P2", 0, Kind::Line, "0405"),
        ("PA", 0, Kind::FootBattery, "0304"),
        ("F1", 1, Kind::Line, "1010"),
    ]);
    assert_eq!(refused(&g, "move P1 0405"), "8.5.2");
    // a limbered battery may join a battalion's hex
    let mut g = g;
    set(&mut g, "PA", Order::Ordered, Formation::Limbered, Dir::SW);
    act(&mut g, "move PA 0305");
}

#[test]
fn formation_8_1_1_a_square_cannot_move() {
    let mut g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")]);
    set(&mut g, "P1", Order::Ordered, Formation::Square, Dir::SW);
    assert_eq!(refused(&g, "move P1 0405"), "8.1.1");
    act(&mut g, "form P1 line");
    // HM25: the change is the unit's move
    assert_eq!(refused(&g, "move P1 0405"), "8.3.7");
}

#[test]
fn formation_hm25_a_column_moves_a_hex_more() {
    let mut g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")]);
    set(&mut g, "P1", Order::Ordered, Formation::Column, Dir::SW);
    act(&mut g, "move P1 0505");
}

#[test]
fn formation_9_1_7_an_unlimbered_battery_does_not_move_limbering_takes_the_move() {
    let mut g = moving(&[
        ("PA", 0, Kind::FootBattery, "0305"),
        ("F1", 1, Kind::Line, "1010"),
    ]);
    assert_eq!(refused(&g, "move PA 0405"), "9.1.7");
    act(&mut g, "form PA limbered");
    assert_eq!(refused(&g, "move PA 0405"), "8.3.7");
    assert_eq!(refused(&g, "form PA unlimbered"), "8.1");
}

#[test]
fn facing_hm26_a_unit_turns_once_a_stage() {
    let mut g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")]);
    act(&mut g, "face P1 E");
    assert_eq!(g.unit(unit(&g, "P1")).facing, "E");
    assert_eq!(refused(&g, "face P1 W"), "HM26");
    // turning is not the move
    act(&mut g, "move P1 0405");
}

#[test]
fn movement_8_3_1_only_the_phasing_side_moves() {
    let g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")]);
    assert_eq!(refused(&g, "move F1 0909"), "8.3.1");
}

#[test]
fn reinforcements_3_2_enter_by_their_edge_from_their_time_and_join_the_total() {
    let mut s = battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")],
        &[("blue", 0, "0101")],
        4,
    );
    let mut r = s.units[0].clone();
    r.id = "P9".into();
    r.start = Start::Arrives {
        minute: 12 * 60 + 10,
        entry: vec![hex("0106")],
    };
    s.units.push(r);
    let mut g = game(s);
    until(&mut g, 0, Stage::Movement, 500);
    assert_eq!(refused(&g, "move P9 0106"), "3.2");
    until(&mut g, 1, Stage::Movement, 500);
    until(&mut g, 0, Stage::Movement, 500);
    assert_eq!(g.casualties()[0].1, 5);
    act(&mut g, "move P9 0106");
    assert_eq!(g.casualties()[0].1, 10);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Moved { from: None, .. })));
}

#[test]
fn generals_2_4_6_3_ride_five_hexes() {
    let g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")]);
    let mut h = g.clone();
    act(&mut h, "ride blue 0601");
    assert_eq!(refused(&g, "ride blue 0701"), "2.4.6.3");
}

#[test]
fn stacking_6_1_8_6_2_1_a_disordered_unit_may_join_a_friend_and_disrupts_it() {
    let mut g = moving(&[
        ("P1", 0, Kind::Line, "0305"),
        ("P2", 0, Kind::Line, "0405"),
        ("F1", 1, Kind::Line, "1010"),
    ]);
    set(&mut g, "P1", Order::Disordered, Formation::Line, Dir::SW);
    act(&mut g, "move P1 0405");
    assert_eq!(g.unit(unit(&g, "P2")).order, Order::Disordered);
    assert_eq!(g.units_at(hex("0405")).len(), 2);
}

#[test]
fn reach_8_2_hm36_each_destination_with_its_cost_and_path_and_a_general_s_rides_with_theirs() {
    let g = moving(&[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1010")]);
    let u = unit(&g, "P1");
    let reach = g.reach_of(u);
    let hexes: Vec<_> = reach.iter().map(|r| r.hex).collect();
    assert_eq!(hexes, g.destinations(u));
    let map = &g.setup().map;
    for r in &reach {
        // the path ends at the hex, starts next to the unit, and costs at most its allowance
        assert_eq!(r.path.last(), Some(&r.hex));
        assert_eq!(map.distance(hex("0305"), r.path[0]), 1);
        assert!(r.cost >= 1, "{r:?}");
    }
    // a general rides up to 5 hexes, each hex with its distance
    let blue = g.general_by_id("blue").unwrap();
    let rides = g.ride_reach(blue);
    let from = g.hex_of_general(blue).unwrap();
    assert!(!rides.is_empty());
    for &(h, d) in &rides {
        assert!((1..=5).contains(&d), "{h} {d}");
        assert_eq!(u32::from(d), map.distance(from, h), "{h}");
    }
    assert!(rides.iter().any(|&(h, _)| h == hex("0601")));
}
