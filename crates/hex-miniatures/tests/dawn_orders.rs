//! Dawn in the visibility table ([24]; HM53) and the scenario's initial orders ([7.1.1]; HM54).

mod common;

use common::*;
use engine::{Rules, ToAct};
use hex_miniatures::army::Kind;
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::{
    Scenario, ScenarioError, MOECKERN_MAP_TOML, MOECKERN_OOB_TOML, MOECKERN_TOML,
};
use hex_miniatures::setup::Standing;
use hex_miniatures::{Action, Game};

fn edited(f: impl Fn(&str) -> String) -> Result<Scenario, ScenarioError> {
    Scenario::from_toml(
        &f(MOECKERN_TOML),
        MOECKERN_MAP_TOML,
        MOECKERN_OOB_TOML,
        &Tables::shipped(),
    )
}

fn refused(r: Result<Scenario, ScenarioError>, expect: &str) {
    match r {
        Ok(_) => panic!("accepted; expected a refusal with '{expect}'"),
        Err(e) => assert!(
            e.to_string().contains(expect),
            "expected '{expect}' in:\n{e}"
        ),
    }
}

#[test]
fn dawn_24_hm53_the_light_grows_over_the_hour_after_dawn() {
    let w = Tables::shipped().weather;
    // night before dawn and at it; 10 minutes after, 1 hex; an hour after, 6; then unlimited
    let light: Vec<Option<u8>> = (0..=8)
        .map(|i| w.light_at(5 * 60 + 50 + 10 * i, Some(6 * 60), 18 * 60))
        .collect();
    assert_eq!(
        light,
        vec![
            Some(0),
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(6),
            None
        ]
    );
    // dusk is as before, and with no dawn the morning is full day
    assert_eq!(w.light_at(17 * 60, Some(6 * 60), 18 * 60), Some(6));
    assert_eq!(w.light_at(5 * 60, None, 18 * 60), None);
    assert_eq!(w.light_at(18 * 60, None, 18 * 60), Some(0));
    // a short winter's day: the hour after dawn and the hour before night overlap, the
    // shorter counts
    assert_eq!(w.light_at(8 * 60 + 30, Some(8 * 60), 9 * 60), Some(3));
}

#[test]
fn dawn_24_hm53_a_battle_before_light_begins_with_night_turns() {
    let units = [("P1", 0, Kind::Line, "0302"), ("F1", 1, Kind::Line, "0309")];
    let mut s = battle(&units, &[], 10);
    s.start_minute = 5 * 60 + 50;
    s.end_minute = s.start_minute + 100;
    s.dawn_minute = Some(6 * 60);
    let mut g = game(s);
    let mut seen = Vec::new();
    while seen.len() < 10 {
        if seen.last().map(|(t, _, _)| *t) != Some(g.turn()) {
            seen.push((g.turn(), g.light(), g.night()));
        }
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                let a = v[v.len() / 2];
                g.apply(a).unwrap();
            }
            ToAct::Side(_) => g.apply(Action::End).unwrap(),
        }
    }
    let light: Vec<Option<u8>> = seen.iter().map(|(_, l, _)| *l).collect();
    assert_eq!(
        light,
        vec![
            Some(0),
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(6),
            None,
            None
        ]
    );
    // the turns before light are night turns ([11.2]); the rest day
    let night: Vec<bool> = seen.iter().map(|(_, _, n)| *n).collect();
    assert_eq!(&night[..3], &[true, true, false]);
}

#[test]
fn dawn_24_hm53_a_scenario_names_its_dawn_and_a_dawn_after_night_is_refused() {
    let t = Tables::shipped();
    let early =
        edited(|s| s.replace("night = \"18:00\"", "night = \"18:00\"\ndawn = \"11:40\"")).unwrap();
    assert_eq!(early.time.dawn, Some(11 * 60 + 40));
    // noon is twenty minutes after dawn: 2 hexes, then the light grows
    assert_eq!(early.light(1, &t), Some(2));
    assert_eq!(early.light(5, &t), Some(6));
    assert_eq!(early.light(6, &t), None);
    assert!(!early.is_night(1));
    let g = Game::new(&early, &t).unwrap();
    assert_eq!(g.light(), Some(2));
    assert_eq!(Scenario::moeckern().time.dawn, None);
    refused(
        edited(|s| s.replace("night = \"18:00\"", "night = \"18:00\"\ndawn = \"18:30\"")),
        "time.dawn 18:30 falls after the night",
    );
}

#[test]
fn orders_7_1_1_hm54_moeckern_s_formations_start_with_their_noon_orders() {
    let s = Scenario::moeckern();
    let g = Game::new(&s, &Tables::shipped()).unwrap();
    let order = |id: &str| g.formation_order(g.formation_by_id(id).unwrap());
    let place = |name: &str| {
        s.map
            .places
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.hex)
            .unwrap()
    };
    assert_eq!(order("PR-AG"), Standing::Advance(place("Möckern")));
    assert_eq!(order("PR-1"), Standing::Advance(place("Great battery")));
    assert_eq!(order("PR-2"), Standing::Advance(place("Great battery")));
    assert_eq!(order("PR-7"), Standing::Advance(place("Lindenthal")));
    assert_eq!(order("PR-RC"), Standing::Hold);
    assert_eq!(order("PR-RA"), Standing::Free);
    for f in ["FR", "FR-20", "FR-21", "FR-22", "FR-25C", "FR-RA"] {
        assert_eq!(order(f), Standing::Hold, "{f}");
    }
    // every order's place is one an order may name in the game
    for (i, c) in s.commands.iter().enumerate() {
        if let Standing::Advance(h) = c.order {
            assert!(g.objectives().contains(&h), "{}: {h}", c.id);
        }
        assert_eq!(g.formation_order(i as u8), c.order);
    }
    // a general changes them in the orders stage ([7.1.2]): messengers.rs, HM29
}

#[test]
fn orders_7_1_1_hm54_a_bad_initial_order_is_refused() {
    refused(
        edited(|s| s.replace("\"PR-RC\" = \"hold\"", "\"PR-XX\" = \"hold\"")),
        "orders: no formation 'PR-XX'",
    );
    refused(
        edited(|s| s.replace("\"PR-RC\" = \"hold\"", "\"PR-RC\" = \"advance Leipzig\"")),
        "orders.PR-RC = 'advance Leipzig'",
    );
    refused(
        edited(|s| s.replace("\"PR-RC\" = \"hold\"", "\"PR-RC\" = \"charge\"")),
        "an order is hold, free or 'advance PLACE'",
    );
}
