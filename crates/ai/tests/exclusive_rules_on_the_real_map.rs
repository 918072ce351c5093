//! The Battle of Nations exclusive rules on the shipped scenarios and the rebuilt map.

use engine::{Rules, Side, ToAct};
use naw::{Game, Loc, Step};

fn game(id: &str) -> Game {
    Game::new(scenarios::load(id).expect("shipped scenario"))
}

fn act(g: &mut Game, t: &str) {
    let a = g.parse_action(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    g.apply(a).unwrap_or_else(|e| panic!("{t}: {e}"));
}

#[test]
fn case_14_61_and_14_62_french_first_without_movement_on_the_first_turn() {
    for id in ["bon-first-day", "bon-third-day", "bon-grand-battle"] {
        let g = game(id);
        assert_eq!(
            g.phasing(),
            Side(0),
            "{id}: the French are the first player"
        );
        assert_eq!(g.scenario().sides[0], "French");
        // 14.62: the French player-turn of the first game-turn opens with combat
        assert_ne!(g.step(), Step::Movement, "{id}");
        let fr4 = g.scenario().unit_by_id("FR.4").unwrap();
        let a = naw::Action::Move {
            unit: fr4,
            to: "2415".parse().unwrap(),
        };
        assert!(g.check(a).is_err());
    }
}

#[test]
fn case_15_1_reinforcements_enter_on_their_turn_at_their_hex() {
    let mut g = game("bon-first-day");
    // Turn 1: the French have no movement and, with nothing forced, end combat
    while g.phasing() == Side(0) {
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        if v.contains(&naw::Action::End) {
            act(&mut g, "end");
        } else {
            // resolve what the French must attack, rolling 3s
            let a = v[0];
            g.apply(a).unwrap();
            while g.to_act() == ToAct::Chance {
                act(&mut g, "roll 3");
            }
        }
    }
    // Allied movement, turn 1: Sacken's units (RU.10, RU.25, RU.Sack) are due at 0131
    assert_eq!(g.step(), Step::Movement);
    let ru10 = g.scenario().unit_by_id("RU.10").unwrap();
    assert_eq!(g.loc(ru10), Loc::Waiting);
    let mut d = Vec::new();
    g.destinations(ru10, &mut d);
    assert!(!d.is_empty(), "RU.10 can enter at 0131");
    let to = d[0].hex;
    act(&mut g, &format!("move RU.10 {to}"));
    assert_eq!(g.hex_of(ru10), Some(to));
    // a reinforcement due later cannot enter yet
    let ru7 = g.scenario().unit_by_id("RU.7").unwrap();
    let a = naw::Action::Move {
        unit: ru7,
        to: "0225".parse().unwrap(),
    };
    assert_eq!(g.check(a).unwrap_err().case, "15.0");
}

#[test]
fn case_17_1_demoralization_levels_follow_the_turn() {
    let g = game("bon-grand-battle");
    let sc = g.scenario();
    let fr = sc.armies.iter().position(|(a, _)| a == "French").unwrap() as u8;
    let al = sc.armies.iter().position(|(a, _)| a == "Allied").unwrap() as u8;
    assert_eq!(
        (
            sc.demoralization_level(fr, 1),
            sc.demoralization_level(al, 1)
        ),
        (Some(100), Some(80))
    );
    assert_eq!(
        (
            sc.demoralization_level(fr, 6),
            sc.demoralization_level(al, 11)
        ),
        (Some(110), Some(120))
    );
    assert_eq!(
        (
            sc.demoralization_level(fr, 20),
            sc.demoralization_level(al, 12)
        ),
        (Some(110), Some(160))
    );
    // third day: destroyed units already count (17.0)
    let t = game("bon-third-day");
    assert_eq!(t.losses()[fr as usize], 28);
    assert_eq!(t.losses()[al as usize], 36);
}

#[test]
fn case_17_5_the_french_can_trace_their_line_of_communications_at_the_start() {
    for id in ["bon-first-day", "bon-grand-battle"] {
        let g = game(id);
        let loc = g.scenario().loc.clone().expect("17.5 in the scenario");
        assert_eq!(loc.hex.to_string(), "2131");
        let cut = g.cut_off_units(loc.side, loc.hex);
        assert!(
            cut.is_empty(),
            "{id}: cut off at the start: {:?}",
            cut.iter().map(|&u| g.id(u)).collect::<Vec<_>>()
        );
    }
}

#[test]
fn shipped_scenarios_validate_and_corrupted_copies_are_rejected() {
    // Napoleon at War's (Leipzig 1813's stubs are read by their own system)
    for s in scenarios::SCENARIOS
        .iter()
        .filter(|s| s.text.contains("system = \"naw\""))
    {
        scenarios::load(s.id).unwrap_or_else(|e| panic!("{}: {e}", s.id));
    }
    let text = scenarios::scenario_text("bon-first-day").unwrap();
    let map = |_: &str| Ok(scenarios::map_text("leipzig").unwrap().to_string());
    // a unit on a marsh hex
    let m = naw::Scenario::from_toml(text, "bon-first-day", &map)
        .unwrap()
        .map;
    let marsh = m
        .hexes()
        .find(|&h| m.terrain(h) == hexmap::Terrain::Marsh)
        .expect("the map has marsh");
    let bad = text.replacen("hex = \"2315\"", &format!("hex = \"{marsh}\""), 1);
    let e = naw::Scenario::from_toml(&bad, "copy.toml", &map)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("copy.toml: unit FR.4") && e.contains("marsh"),
        "{e}"
    );
    // two units in one hex
    let bad = text.replacen("hex = \"2315\"", "hex = \"2314\"", 1);
    let e = naw::Scenario::from_toml(&bad, "copy.toml", &map)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("already holds FR.4") || e.contains("unit FR.5"),
        "{e}"
    );
    // an entry hex off its edge
    let bad = text.replacen(
        "hex = \"0131\", edge = \"north\"",
        "hex = \"1415\", edge = \"north\"",
        1,
    );
    assert_ne!(bad, text, "the first-day file has an entry at 0131");
    let e = naw::Scenario::from_toml(&bad, "copy.toml", &map)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("entry hex 1415 is not on the North map edge"),
        "{e}"
    );
}
