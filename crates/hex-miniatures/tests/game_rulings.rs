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
