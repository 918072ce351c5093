//! The combat stage ([9]): the artillery's fire ([9.1], [21]), mandatory attacks ([9.4.2]),
//! cavalry first ([9]), squares ([9.3], [20]), batteries taken ([9.1.6]), the odds, shifts and
//! modifiers ([9.4.1]) and the results ([9.8]).

mod common;
use common::*;
use engine::{Rules, ToAct};
use hex_miniatures::action::Formation;
use hex_miniatures::army::{Kind, Order};
use hex_miniatures::game::Loc;
use hex_miniatures::{Event, Game, Stage};
use hexmap::Dir;

fn attacks(units: &[(&str, u8, Kind, &str)]) -> Game {
    let mut g = game(battle(units, &[("blue", 0, "0101"), ("red", 1, "1010")], 4));
    until(&mut g, 0, Stage::Attacks, 500);
    g
}

fn combat_event(g: &Game) -> Event {
    g.events()
        .iter()
        .find(|e| matches!(e, Event::Combat { .. } | Event::Charge { .. }))
        .cloned()
        .expect("a combat")
}

#[test]
fn combat_9_4_2_2_units_next_to_the_enemy_must_attack() {
    let mut g = attacks(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    assert_eq!(refused(&g, "end"), "9.4.2.2");
    act(&mut g, "attack P1 0505");
    assert_eq!(refused(&g, "attack P1 0505"), "9.4.2.4");
    act(&mut g, "end");
    assert!(matches!(g.to_act(), ToAct::Chance));
}

#[test]
fn combat_9_4_2_1_hm33_every_enemy_next_to_the_attackers_is_attacked_when_it_can_be() {
    // P1 touches both French battalions, P2 only F2: P1 must take F1
    let g = attacks(&[
        ("P1", 0, Kind::Line, "0405"),
        ("P2", 0, Kind::Line, "0406"),
        ("F1", 1, Kind::Line, "0505"),
        ("F2", 1, Kind::Line, "0506"),
    ]);
    assert_eq!(refused(&g, "attack P1 0506"), "9.4.2.1");
    let mut g = g;
    act(&mut g, "attack P1 0505");
    act(&mut g, "attack P2 0506");
    act(&mut g, "end");
}

#[test]
fn combat_9_4_1_the_odds_column_and_the_combined_arms_shift() {
    // Prussian line 5 x 4 = 20 and light cavalry 4 x 4 = 16 against French line 20: 36:20 is
    // 1:1, infantry with cavalry one column more, 2:1
    let mut g = attacks(&[
        ("P1", 0, Kind::Line, "0405"),
        ("PC", 0, Kind::LightCavalry, "0404"),
        ("F1", 1, Kind::Line, "0505"),
    ]);
    act(&mut g, "attack P1 0505");
    act(&mut g, "attack PC 0505");
    act(&mut g, "end");
    draw(&mut g, 500);
    let Event::Combat {
        attack,
        defence,
        column,
        ..
    } = combat_event(&g)
    else {
        panic!()
    };
    assert_eq!((attack, defence, column.as_str()), (36, 20, "2:1"));
}

#[test]
fn combat_9_4_1_hm34_an_attack_on_the_rear_moves_two_columns() {
    // F1 faces north-east (toward the Prussian rear); 0605 is behind it (SW)
    let mut g = attacks(&[("P1", 0, Kind::Line, "0605"), ("F1", 1, Kind::Line, "0505")]);
    set(&mut g, "F1", Order::Ordered, Formation::Line, Dir::NE);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 500);
    let Event::Combat { column, .. } = combat_event(&g) else {
        panic!()
    };
    assert_eq!(column, "3:1");
}

#[test]
fn combat_9_8_7_dr_costs_the_defender_a_base_and_it_routs_to_its_rear() {
    let mut g = attacks(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    // 1:1, Dr from 0.950
    draw(&mut g, 999);
    let f1 = g.unit(unit(&g, "F1"));
    assert_eq!((f1.order, f1.bases), (Order::Routed, 4));
    let Loc::Map(h) = f1.loc else { panic!() };
    // its move and a hex more, toward row 10
    assert_eq!(h.x, 7);
    assert_eq!(g.casualties()[1], (1, 5));
}

#[test]
fn combat_9_8_1_ar_costs_the_attacker_a_base_and_he_routs() {
    let mut g = attacks(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 0);
    let p1 = g.unit(unit(&g, "P1"));
    assert_eq!((p1.order, p1.bases), (Order::Routed, 4));
    let Loc::Map(h) = p1.loc else { panic!() };
    assert_eq!(h.x, 2, "toward the Prussian rear, row 1");
}

#[test]
fn charge_9_3_1_infantry_charged_by_cavalry_forms_square_and_holds_or_breaks() {
    for (n, fate) in [(100, "repulsed"), (700, "holds"), (960, "broken")] {
        let mut g = attacks(&[
            ("PC", 0, Kind::LightCavalry, "0404"),
            ("F1", 1, Kind::Line, "0504"),
        ]);
        act(&mut g, "attack PC 0504");
        act(&mut g, "end");
        draw(&mut g, n);
        let Event::Charge { result, .. } = combat_event(&g) else {
            panic!()
        };
        assert_eq!(result, fate);
        let f1 = g.unit(unit(&g, "F1"));
        let pc = g.unit(unit(&g, "PC"));
        match fate {
            // [9.3.2]
            "repulsed" => assert_eq!(
                (pc.order, f1.formation),
                (Order::Disordered, Formation::Square)
            ),
            "holds" => assert_eq!(
                (pc.order, f1.formation),
                (Order::Ordered, Formation::Square)
            ),
            // [9.3.3]: the whole battalion
            _ => {
                assert_eq!(f1.loc, Loc::Gone);
                assert_eq!(g.casualties()[1], (5, 5));
            }
        }
    }
}

#[test]
fn charge_9_3_2_disrupted_cavalry_repulsed_loses_a_base_and_routs() {
    let mut g = attacks(&[
        ("PC", 0, Kind::LightCavalry, "0704"),
        ("F1", 1, Kind::Line, "0804"),
    ]);
    set(&mut g, "PC", Order::Disordered, Formation::Line, Dir::SW);
    act(&mut g, "attack PC 0804");
    act(&mut g, "end");
    draw(&mut g, 0);
    let pc = g.unit(unit(&g, "PC"));
    assert_eq!((pc.order, pc.bases), (Order::Routed, 3));
    // its move and a hex more, four hexes toward row 1
    let Loc::Map(h) = pc.loc else { panic!() };
    assert_eq!(h.x, 3);
}

#[test]
fn square_9_4_1_infantry_firing_on_a_square_adds_0_100_and_the_square_uses_its_disordered_value() {
    let mut g = attacks(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    set(&mut g, "F1", Order::Ordered, Formation::Square, Dir::NE);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 500);
    let Event::Combat {
        defence,
        modifier,
        column,
        ..
    } = combat_event(&g)
    else {
        panic!()
    };
    // 20 against 5 x 2 = 10: 2:1
    assert_eq!((defence, modifier, column.as_str()), (10, 100, "2:1"));
}

#[test]
fn artillery_9_1_6_cavalry_takes_a_battery_standing_alone() {
    let mut g = attacks(&[
        ("PC", 0, Kind::LightCavalry, "0404"),
        ("FA", 1, Kind::FootBattery, "0504"),
    ]);
    act(&mut g, "attack PC 0504");
    act(&mut g, "end");
    assert_eq!(g.unit(unit(&g, "FA")).loc, Loc::Gone);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::BatteryCaptured { .. })));
}

#[test]
fn combat_9_cavalry_attacks_are_resolved_before_the_infantry_s() {
    let mut g = attacks(&[
        ("P1", 0, Kind::Line, "0402"),
        ("PC", 0, Kind::LightCavalry, "0408"),
        ("F1", 1, Kind::Line, "0502"),
        ("F2", 1, Kind::Line, "0508"),
    ]);
    act(&mut g, "attack P1 0502");
    act(&mut g, "attack PC 0508");
    act(&mut g, "end");
    draw(&mut g, 700);
    assert!(matches!(combat_event(&g), Event::Charge { .. }));
    draw(&mut g, 500);
    assert!(matches!(combat_event(&g), Event::Combat { .. }));
}

fn firing(units: &[(&str, u8, Kind, &str)]) -> Game {
    let mut g = game(battle(units, &[("blue", 0, "0101"), ("red", 1, "1010")], 4));
    until(&mut g, 0, Stage::Artillery, 500);
    g
}

#[test]
fn artillery_9_1_2_a_foot_battery_fires_from_2_to_6_hexes() {
    let g = firing(&[
        ("PA", 0, Kind::FootBattery, "0205"),
        ("F1", 1, Kind::Line, "0405"),
        ("F2", 1, Kind::Line, "0905"),
    ]);
    let mut h = g.clone();
    act(&mut h, "fire PA F1");
    draw(&mut h, 700);
    // foot, 2 hexes: L from 0.650
    assert_eq!(h.unit(unit(&h, "F1")).bases, 4);
    assert_eq!(refused(&g, "fire PA F2"), "21");
}

#[test]
fn artillery_9_1_3_troops_between_hide_the_target() {
    let g = firing(&[
        ("PA", 0, Kind::FootBattery, "0205"),
        ("P1", 0, Kind::Line, "0206"),
        ("F1", 1, Kind::Line, "0207"),
        ("F2", 1, Kind::Line, "0505"),
    ]);
    let mut h = g.clone();
    act(&mut h, "fire PA F2");
    assert_eq!(refused(&g, "fire PA F1"), "9.1.3");
}

#[test]
fn artillery_9_1_1_a_disrupted_battery_may_not_fire() {
    let mut g = firing(&[
        ("PA", 0, Kind::FootBattery, "0205"),
        ("F1", 1, Kind::Line, "0405"),
    ]);
    set(
        &mut g,
        "PA",
        Order::Disordered,
        Formation::Unlimbered,
        Dir::SW,
    );
    assert_eq!(refused(&g, "fire PA F1"), "9.1.1");
}

#[test]
fn generals_9_2_a_general_tests_under_fire_then_adds_0_100() {
    let mut g = game(battle(
        &[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0405"), ("red", 1, "1010")],
        4,
    ));
    until(&mut g, 0, Stage::Attacks, 500);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    // [17]: his test first (he survives from 0.050 in combat), then the combat's number
    draw(&mut g, 500);
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::GeneralTested {
            fate: "survives",
            ..
        }
    )));
    draw(&mut g, 500);
    let Event::Combat { modifier, .. } = combat_event(&g) else {
        panic!()
    };
    assert_eq!(modifier, 100);
}

#[test]
fn generals_17_a_general_killed_under_fire_is_gone_and_adds_nothing() {
    let mut g = game(battle(
        &[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0405"), ("red", 1, "1010")],
        4,
    ));
    until(&mut g, 0, Stage::Attacks, 500);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 0);
    assert_eq!(g.general(g.general_by_id("blue").unwrap()).loc, Loc::Gone);
    draw(&mut g, 500);
    let Event::Combat { modifier, .. } = combat_event(&g) else {
        panic!()
    };
    assert_eq!(modifier, 0);
}

#[test]
fn advance_8_7_4_one_victor_may_advance_into_the_vacated_hex_at_once() {
    let mut g = attacks(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 999);
    // the choice comes before any other combat ([8.7.4])
    assert!(matches!(g.to_act(), ToAct::Side(s) if s.0 == 0));
    assert_eq!(refused(&g, "attack P1 0505"), "8.7.4");
    let mut h = g.clone();
    act(&mut h, "advance P1");
    assert_eq!(h.unit(unit(&h, "P1")).loc, Loc::Map(hex("0505")));
    // or none advances
    act(&mut g, "end");
    assert_eq!(g.unit(unit(&g, "P1")).loc, Loc::Map(hex("0405")));
}

#[test]
fn advance_8_1_1_a_victorious_square_does_not_advance() {
    // a square cannot move ([8.1.1]), so it is no victor that may advance ([8.7.4])
    let mut g = attacks(&[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")]);
    set(&mut g, "P1", Order::Ordered, Formation::Square, Dir::E);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 999);
    assert!(g.units_at(hex("0505")).is_empty(), "the defender left");
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(
        !legal
            .iter()
            .any(|&a| g.action_text(a).starts_with("advance")),
        "no advance is offered"
    );
    assert_ne!(refused(&g, "advance P1"), "");
    assert_eq!(g.unit(unit(&g, "P1")).loc, Loc::Map(hex("0405")));
}

#[test]
fn lancers_2_4_4_5_strike_as_medium_cavalry_in_their_first_combat_of_a_contact() {
    // Prussian lancers, 4 squadrons: 5 each on first contact (4 after), against heavy cavalry
    // 6 x 4 = 24
    let mut g = attacks(&[
        ("PL", 0, Kind::Lancers, "0404"),
        ("FC", 1, Kind::HeavyCavalry, "0504"),
    ]);
    act(&mut g, "attack PL 0504");
    act(&mut g, "end");
    draw(&mut g, 800);
    let Event::Combat {
        attack, defence, ..
    } = combat_event(&g)
    else {
        panic!()
    };
    assert_eq!((attack, defence), (20, 24));
}

#[test]
fn terrain_18_hm39_troops_at_the_top_of_a_slope_take_0_100_off_the_attackers_number() {
    let mut s = battle(
        &[("P1", 0, Kind::Line, "0405"), ("F1", 1, Kind::Line, "0505")],
        &[("blue", 0, "0101")],
        4,
    );
    s.uphill = vec![(hex("0405"), hex("0505"))];
    let mut g = game(s);
    until(&mut g, 0, Stage::Attacks, 500);
    act(&mut g, "attack P1 0505");
    act(&mut g, "end");
    draw(&mut g, 500);
    let Event::Combat { modifier, .. } = combat_event(&g) else {
        panic!()
    };
    assert_eq!(modifier, -100);
}

#[test]
fn charge_9_3_5_cavalry_held_by_a_square_charges_again_in_the_square_s_combat_stage() {
    let mut g = attacks(&[
        ("PC", 0, Kind::LightCavalry, "0404"),
        ("F1", 1, Kind::Line, "0504"),
    ]);
    act(&mut g, "attack PC 0504");
    act(&mut g, "end");
    draw(&mut g, 700);
    // the French part: the square need not attack; the cavalry charges again
    until(&mut g, 1, Stage::Attacks, 500);
    act(&mut g, "end");
    assert!(matches!(g.to_act(), ToAct::Chance));
    draw(&mut g, 960);
    let Event::Charge { result, .. } = combat_event(&g) else {
        panic!()
    };
    assert_eq!(result, "broken");
    assert_eq!(g.unit(unit(&g, "F1")).loc, Loc::Gone);
}

#[test]
fn preview_9_4_1_the_odds_before_the_number_are_those_the_combat_reads() {
    let mut g = attacks(&[
        ("P1", 0, Kind::Line, "0405"),
        ("PC", 0, Kind::LightCavalry, "0404"),
        ("F1", 1, Kind::Line, "0505"),
    ]);
    let p = g
        .preview(hex("0505"), &[unit(&g, "P1"), unit(&g, "PC")])
        .unwrap();
    assert_eq!(
        (p.kind, p.column.as_deref(), p.strengths),
        ("crt", Some("2:1"), Some((36, 20)))
    );
    assert_eq!(p.chances.iter().map(|(_, w)| w).sum::<u32>(), 1000);
    let c = g.preview(hex("0505"), &[unit(&g, "PC")]).unwrap();
    assert_eq!(c.kind, "charge");
    act(&mut g, "attack P1 0505");
    act(&mut g, "attack PC 0505");
    act(&mut g, "end");
    draw(&mut g, 500);
    let Event::Combat { column, .. } = combat_event(&g) else {
        panic!()
    };
    assert_eq!(column, "2:1");
}
