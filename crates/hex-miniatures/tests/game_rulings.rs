//! The game's rulings on what the text leaves open (HM24-HM39, `docs/rulings.md`) that the
//! other test files do not already pin.

mod common;
use common::*;
use engine::Rules;
use hex_miniatures::action::Formation;
use hex_miniatures::army::{Kind, Order};
use hex_miniatures::game::Loc;
use hex_miniatures::{Event, Stage};
use hexmap::Dir;

#[test]
fn hm27_a_routed_unit_exerts_no_zone_of_control() {
    let mut g = game(battle(
        &[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0101")],
        4,
    ));
    set(&mut g, "F1", Order::Routed, Formation::Line, Dir::SW);
    until(&mut g, 0, Stage::Movement, 500);
    // P1 may leave the routed battalion's side, and need not attack it
    act(&mut g, "move P1 0305");
}

#[test]
fn hm28_a_general_standing_alone_is_taken_by_an_enemy_passing_through() {
    let mut g = game(battle(
        &[
            ("PC", 0, Kind::LightCavalry, "0305"),
            ("F1", 1, Kind::Line, "1010"),
        ],
        &[("blue", 0, "0101"), ("red", 1, "0405")],
        4,
    ));
    until(&mut g, 0, Stage::Movement, 500);
    act(&mut g, "move PC 0405");
    assert_eq!(g.general(g.general_by_id("red").unwrap()).loc, Loc::Gone);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::GeneralCaptured { .. })));
}

#[test]
fn hm32_choices_may_be_taken_back_until_a_number_is_drawn() {
    let mut g = game(battle(
        &[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0101")],
        4,
    ));
    let before = g.undoable();
    act(&mut g, "end");
    assert_eq!(g.undoable(), before + 1);
    until(&mut g, 0, Stage::Attacks, 500);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 500);
    assert_eq!(g.undoable(), 0);
    assert_eq!(g.undo_refusal().case, "8.3.4");
}

#[test]
fn hm35_a_result_costs_the_attacking_group_one_base_unit_from_its_largest_unit() {
    let mut g = game(battle(
        &[
            ("P1", 0, Kind::Line, "0405"),
            ("P2", 0, Kind::Line, "0404"),
            ("F1", 1, Kind::Guard, "0505"),
        ],
        &[("blue", 0, "0101")],
        4,
    ));
    let p1 = unit(&g, "P1");
    g.set_unit_for_test(p1, Order::Ordered, 3, Formation::Line, Dir::SW);
    until(&mut g, 0, Stage::Attacks, 500);
    act(&mut g, "attack P1 0505");
    act(&mut g, "attack P2 0505");
    act(&mut g, "end");
    // 28 against 30 is 1:2: Ar below 0.150
    draw(&mut g, 0);
    let lost: Vec<u8> = ["P1", "P2"]
        .iter()
        .map(|u| g.unit(unit(&g, u)).bases)
        .collect();
    assert_eq!(lost, [3, 4]);
    assert_eq!(g.casualties()[0].0, 1);
    assert_eq!(g.unit(p1).order, Order::Routed);
}

#[test]
fn artillery_9_1_7_hm59_a_battery_that_fired_limbers_only_in_its_next_movement_stage() {
    let mut g = game(battle(
        &[
            ("PB1", 0, Kind::FootBattery, "0102"),
            ("F1", 1, Kind::Line, "0302"),
        ],
        &[],
        4,
    ));
    until(&mut g, 0, Stage::Artillery, 500);
    act(&mut g, "fire PB1 F1");
    // the battery's number: 0.000 does nothing
    draw(&mut g, 0);
    assert!(matches!(g.unit(unit(&g, "PB1")).loc, Loc::Map(_)));
    // the rest of the turn is the enemy's: the battery may not limber ([8.3.1], [9.1.7])
    until(&mut g, 1, Stage::Movement, 500);
    let limber = g.parse_action("form PB1 limbered").unwrap();
    assert!(g.check(limber).is_err());
    // its own next movement stage, in the next turn: it may
    until(&mut g, 0, Stage::Movement, 500);
    assert_eq!(g.turn(), 2);
    act(&mut g, "form PB1 limbered");
}
