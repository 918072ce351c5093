//! Generals and their orders ([7]): in person at once, by messenger at 5 hexes a turn and
//! understood on 0.150 ([7.1.2.1]), the rider back, a messenger captured ([7.1.2.2]), what
//! a standing order allows (HM29).

mod common;
use common::*;
use engine::Rules;
use hex_miniatures::army::Kind;
use hex_miniatures::setup::{FormationSetup, Setup, Standing};
use hex_miniatures::{Event, Game, Stage};

/// Yorck commands the corps PR; Steinmetz its brigade PR1, which holds P1.
fn corps(yorck: &str, steinmetz: &str, french: &[(&str, u8, Kind, &str)]) -> Game {
    let mut units = vec![("P1", 0, Kind::Line, "0305")];
    units.extend_from_slice(french);
    let mut s: Setup = battle(
        &units,
        &[
            ("yorck", 0, yorck),
            ("steinmetz", 0, steinmetz),
            ("red", 1, "1010"),
        ],
        6,
    );
    s.formations = vec![
        FormationSetup {
            id: "PR".into(),
            side: 0,
            commander: Some(0),
            parent: None,
            order: Standing::Free,
        },
        FormationSetup {
            id: "PR1".into(),
            side: 0,
            commander: Some(1),
            parent: Some(0),
            order: Standing::Free,
        },
        FormationSetup {
            id: "FB".into(),
            side: 1,
            commander: Some(2),
            parent: None,
            order: Standing::Free,
        },
    ];
    s.units[0].command = Some(1);
    for u in s.units.iter_mut().skip(1) {
        u.command = Some(2);
    }
    game(s)
}

fn order_of(g: &Game, f: &str) -> Standing {
    g.formation_order(g.formation_by_id(f).unwrap())
}

#[test]
fn orders_7_1_2_1_an_order_given_in_person_holds_at_once() {
    // Yorck stands with Steinmetz: his order to the brigade is given in person (Steinmetz
    // himself takes his brigade's orders from Yorck, [7.1], HM56)
    let mut g = corps("0305", "0305", &[("F1", 1, Kind::Line, "1010")]);
    act(&mut g, "order yorck PR1 hold");
    assert_eq!(order_of(&g, "PR1"), Standing::Hold);
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::OrderGiven {
            in_person: true,
            ..
        }
    )));
    // one order a stage
    assert_eq!(refused(&g, "order yorck PR1 free"), "7.1.2");
}

#[test]
fn orders_hm29_a_general_orders_only_the_formations_under_him() {
    let g = corps("0101", "0305", &[("F1", 1, Kind::Line, "1010")]);
    assert_eq!(refused(&g, "order steinmetz PR hold"), "7.1");
    // an objective is a named place, a town or a work: the village 0607
    assert_eq!(refused(&g, "order yorck PR1 0505"), "7.1.1");
}

#[test]
fn orders_7_1_2_1_a_messenger_s_order_is_understood_on_0_150() {
    for (n, understood) in [(149, false), (150, true)] {
        let mut g = corps("0101", "0305", &[("F1", 1, Kind::Line, "1010")]);
        act(&mut g, "order yorck PR1 0607");
        assert_eq!(order_of(&g, "PR1"), Standing::Free);
        assert_eq!(g.messengers().len(), 1);
        // his route: a hex nearer each step, to Steinmetz, the last
        let route = g.messenger_route(0);
        let far = g.setup().map.distance(hex("0101"), hex("0305"));
        assert_eq!(
            (route.len() as u32, route.last()),
            (far, Some(&hex("0305")))
        );
        // the end of the orders stage: he rides (four hexes) and draws
        act(&mut g, "end");
        draw(&mut g, n);
        assert!(g.events().iter().any(|e| matches!(
            e,
            Event::OrderDelivered { needed: 150, understood: u, .. } if *u == understood
        )));
        let want = if understood {
            Standing::Advance(hex("0607"))
        } else {
            Standing::Free
        };
        assert_eq!(order_of(&g, "PR1"), want, "draw {n}");
        // [7.1.2.1]: he rides back to report
        assert_eq!(g.messengers()[0].order, None);
    }
}

#[test]
fn orders_2_4_6_3_a_messenger_rides_five_hexes_a_turn() {
    let mut g = corps("0101", "1001", &[("F1", 1, Kind::Line, "1010")]);
    act(&mut g, "order yorck PR1 hold");
    act(&mut g, "end");
    let m = g.messengers()[0].clone();
    assert_eq!(g.setup().map.distance(hex("0101"), m.at), 5);
    assert_eq!(m.order, Some(Standing::Hold));
}

#[test]
fn orders_7_1_2_2_a_messenger_is_captured_by_an_enemy_passing_through() {
    let mut g = corps("0101", "1001", &[("FC", 1, Kind::LightCavalry, "0903")]);
    act(&mut g, "order yorck PR1 hold");
    act(&mut g, "end");
    let at = g.messengers()[0].at;
    until(&mut g, 1, Stage::Movement, 500);
    let fc = unit(&g, "FC");
    assert!(g.destinations(fc).contains(&at), "{at}");
    act(&mut g, &format!("move FC {at}"));
    assert!(g.messengers().is_empty());
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::MessengerCaptured {
            order: Some(Standing::Hold),
            ..
        }
    )));
}

#[test]
fn orders_hm29_holding_troops_do_not_move_into_an_enemy_zone_of_control() {
    let mut g = corps("0305", "0305", &[("F1", 1, Kind::Line, "0505")]);
    act(&mut g, "order yorck PR1 hold");
    act(&mut g, "end");
    assert_eq!(g.stage(), Stage::Movement);
    // 0405 is next to F1
    assert_eq!(refused(&g, "move P1 0405"), "7.1");
    act(&mut g, "move P1 0304");
}

#[test]
fn orders_hm29_advancing_troops_do_not_move_away_from_their_objective() {
    let mut g = corps("0305", "0305", &[("F1", 1, Kind::Line, "1010")]);
    act(&mut g, "order yorck PR1 0607");
    act(&mut g, "end");
    let map = &g.setup().map;
    let (start, goal) = (hex("0305"), hex("0607"));
    let away = map
        .neighbours(start)
        .into_iter()
        .find(|&n| map.contains(n) && map.distance(n, goal) > map.distance(start, goal))
        .unwrap();
    assert_eq!(refused(&g, &format!("move P1 {away}")), "7.1");
    act(&mut g, "move P1 0405");
}
