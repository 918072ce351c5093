//! The crisis of morale ([13], [19]), the victory at dusk ([14]; HM48), the weather and the
//! light ([11], [24]).

mod common;
use common::*;
use engine::{Rules, ToAct};
use hex_miniatures::army::{Kind, Order};
use hex_miniatures::data::Tables;
use hex_miniatures::setup::{Objective, Setup};
use hex_miniatures::{Event, Game, Stage};

fn two_on_two(turns: u32) -> Setup {
    battle(
        &[
            ("P1", 0, Kind::Line, "0305"),
            ("F1", 1, Kind::Line, "0805"),
            ("F2", 1, Kind::Line, "0807"),
        ],
        &[("blue", 0, "0101"), ("red", 1, "1010")],
        turns,
    )
}

#[test]
fn crisis_13_an_army_passing_a_level_tests_each_unit_in_sight_once() {
    let mut g = game(two_on_two(4));
    // 2 of 10 base units: 20% (HM22: one test at the highest level reached)
    g.set_losses_for_test(1, 2);
    while g.stage() != Stage::Crisis {
        act(&mut g, "end");
    }
    assert!(matches!(g.to_act(), ToAct::Chance));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::CrisisOfMorale { side: 1, level: 20 })));
    // level 20: rout below 0.020
    draw(&mut g, 0);
    assert_eq!(g.unit(unit(&g, "F1")).order, Order::Routed);
    draw(&mut g, 999);
    assert_eq!(g.unit(unit(&g, "F2")).order, Order::Ordered);
    assert_eq!(g.crisis_level()[1], Some(20));
    // the level is not tested again
    // (the routed battalion rallies on 0.900 instead of running off the table)
    let seen = until(&mut g, 0, Stage::Orders, 900);
    assert!(!seen
        .iter()
        .any(|e| matches!(e, Event::CrisisOfMorale { side: 1, .. })));
}

#[test]
fn victory_14_the_margin_of_the_casualties_decides_at_dusk() {
    let mut g = game(two_on_two(1));
    g.set_losses_for_test(1, 2);
    for _ in 0..100 {
        match g.to_act() {
            ToAct::Over(o) => {
                // 0% against 20%: more than 10, up to 25: a major victory
                assert_eq!(o.winner.map(|s| s.0), Some(0));
                assert!(g.events().iter().any(|e| matches!(
                    e,
                    Event::Over {
                        margin: "major",
                        ..
                    }
                )));
                return;
            }
            ToAct::Chance => draw(&mut g, 999),
            ToAct::Side(_) => act(&mut g, "end"),
        }
    }
    panic!("not over");
}

#[test]
fn victory_hm48_the_holder_of_every_objective_wins_at_least_marginally() {
    let mut s = two_on_two(1);
    s.objectives = vec![Objective {
        name: "the village".into(),
        hexes: vec![hex("0607")],
        held: 1,
    }];
    let mut g = game(s);
    g.set_losses_for_test(1, 2);
    for _ in 0..100 {
        match g.to_act() {
            ToAct::Over(o) => {
                assert_eq!(o.winner.map(|s| s.0), Some(1));
                assert!(g.events().iter().any(|e| matches!(
                    e,
                    Event::Over {
                        margin: "marginal",
                        ..
                    }
                )));
                return;
            }
            ToAct::Chance => draw(&mut g, 999),
            ToAct::Side(_) => act(&mut g, "end"),
        }
    }
    panic!("not over");
}

fn dusk() -> Game {
    // the skirmish: 17:00 to 18:20, night at 18:00, fog at 4 hexes
    Game::from_setup(Setup::skirmish(), &Tables::shipped()).unwrap()
}

#[test]
fn light_24_an_hour_before_night_the_light_reaches_six_hexes_then_one_less_a_turn() {
    let g = dusk();
    assert_eq!((g.light(), g.weather_visibility()), (Some(6), Some(4)));
    assert_eq!(g.visibility(), Some(4));
    let mut s = two_on_two(9);
    s.start_minute = 17 * 60 - 10;
    s.end_minute = s.start_minute + 90;
    let mut g = game(s);
    let mut lights = Vec::new();
    while !matches!(g.to_act(), ToAct::Over(_)) {
        if lights.len() < usize::from(g.turn()) {
            lights.push(g.light());
        }
        match g.to_act() {
            ToAct::Chance => draw(&mut g, 999),
            _ => act(&mut g, "end"),
        }
    }
    assert_eq!(
        lights,
        [
            None,
            Some(6),
            Some(5),
            Some(4),
            Some(3),
            Some(2),
            Some(1),
            Some(0),
            Some(0)
        ]
    );
}

#[test]
fn night_11_2_1_no_combat_at_night() {
    let mut s = battle(
        &[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0101")],
        2,
    );
    s.start_minute = 18 * 60;
    s.end_minute = 18 * 60 + 20;
    let mut g = game(s);
    assert!(g.night());
    let seen = until(&mut g, 1, Stage::Movement, 500);
    assert!(!seen.iter().any(|e| matches!(
        e,
        Event::StageBegan {
            stage: Stage::Attacks | Stage::Artillery,
            ..
        }
    )));
}

#[test]
fn night_11_2_2_no_entering_an_enemy_zone_of_control_at_night() {
    let mut s = battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0101")],
        2,
    );
    s.start_minute = 18 * 60;
    s.end_minute = 18 * 60 + 20;
    let mut g = game(s);
    until(&mut g, 0, Stage::Movement, 500);
    assert!(!g.destinations(unit(&g, "P1")).contains(&hex("0405")));
}

#[test]
fn weather_24_the_fog_counter_drifts_with_the_die_at_the_end_of_the_turn() {
    let mut g = dusk();
    // fog at position 4; after 15:00 the die takes 2: a 6 reads 4 (it stays), a 1 moves it down
    for (die, pos) in [(6, 4), (1, 3)] {
        let mut h = g.clone();
        for _ in 0..200 {
            match h.to_act() {
                ToAct::Chance => {
                    let mut v = Vec::new();
                    h.legal_actions(&mut v);
                    if matches!(v[0], hex_miniatures::Action::Roll(_)) {
                        act(&mut h, &format!("roll {die}"));
                        break;
                    }
                    draw(&mut h, 999);
                }
                _ => act(&mut h, "end"),
            }
        }
        assert_eq!(h.weather_position(), pos, "die {die}");
    }
    act(&mut g, "end");
}

#[test]
fn orders_24_hm20_under_restricted_visibility_a_messenger_needs_0_334() {
    // the skirmish is fought in fog and dusk; a second Prussian formation under the first
    let mut s = Setup::skirmish();
    s.generals.push(hex_miniatures::setup::GeneralSetup {
        id: "green".into(),
        side: 0,
        senior: false,
        start: hex_miniatures::setup::Start::Hex(hex("0305")),
    });
    s.formations.push(hex_miniatures::setup::FormationSetup {
        id: "PB2".into(),
        side: 0,
        commander: Some(2),
        parent: Some(0),
        order: hex_miniatures::setup::Standing::Free,
    });
    let mut g = Game::from_setup(s, &Tables::shipped()).unwrap();
    act(&mut g, "order blue PB2 hold");
    act(&mut g, "end");
    draw(&mut g, 333);
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::OrderDelivered {
            needed: 334,
            understood: false,
            ..
        }
    )));
}
