//! The slope's movement point and the view from the top ([8.4.6], [18] Slope; HM50, HM51), and
//! the shelter of a house ([3.1.4.1], [3.1.4.2], [3.1.5]; HM52), on a small table and on
//! Möckern's village and walled hexes.

mod common;

use common::*;
use hex_miniatures::action::Formation;
use hex_miniatures::army::{Kind, Order};
use hex_miniatures::scenario::Scenario;
use hex_miniatures::setup::Setup;
use hex_miniatures::{Game, Stage, UnitId};
use hexmap::{Dir, Hex, Hexside};

/// A knoll at 0505: a slope hex with a slope hexside all round.
fn knoll(mut s: Setup) -> Setup {
    let top = hex("0505");
    s.map.set_slope_hex(top, true);
    for d in Dir::ALL {
        s.map.add_hexside(top, d, Hexside::SLOPE);
    }
    s
}

fn prussian_movement(g: &mut Game) {
    until(g, 0, Stage::Movement, 500);
}

#[test]
fn slope_8_4_6_hm51_leaving_a_slope_hex_down_its_slope_costs_a_point_more() {
    let units = [
        ("PC", 0, Kind::LightCavalry, "0505"),
        ("F1", 1, Kind::Line, "0110"),
    ];
    // light cavalry moves 3 hexes; off the knoll every first step costs 2 hexes' worth
    let mut g = game(knoll(battle(&units, &[], 4)));
    prussian_movement(&mut g);
    let map = &g.setup().map;
    let top = hex("0505");
    let dest = g.destinations(unit(&g, "PC"));
    let far = dest.iter().map(|&h| map.distance(top, h)).max();
    assert_eq!(far, Some(2), "{dest:?}");
    // without the knoll the same regiment rides 3 hexes
    let mut plain = game(battle(&units, &[], 4));
    prussian_movement(&mut plain);
    let dest = plain.destinations(unit(&plain, "PC"));
    assert_eq!(dest.iter().map(|&h| map.distance(top, h)).max(), Some(3));
}

#[test]
fn slope_8_4_6_hm51_climbing_into_a_slope_hex_costs_nothing_more() {
    // two hexes below the knoll, 0507: up to the top (2 + 2 halves) and no more
    let units = [
        ("PC", 0, Kind::LightCavalry, "0507"),
        ("F1", 1, Kind::Line, "0110"),
    ];
    let mut g = game(knoll(battle(&units, &[], 4)));
    prussian_movement(&mut g);
    let dest = g.destinations(unit(&g, "PC"));
    assert!(dest.contains(&hex("0505")), "{dest:?}");
    // and on Möckern's map the scenario's step costs say the same: out of the slope hex 1110
    // down its slope hexside into the clear 1009, a hex more; up again, the slope's own cost
    let s = Scenario::moeckern();
    let t = hex_miniatures::data::Tables::shipped();
    assert!(s.hexside(hex("1110"), hex("1009")).slope);
    assert_eq!(s.step_cost(&t.terrain, hex("1110"), hex("1009")), Some(4));
    assert_eq!(s.step_cost(&t.terrain, hex("1009"), hex("1110")), Some(4));
    assert_eq!(s.step_cost(&t.terrain, hex("1009"), hex("1010")), Some(2));
}

#[test]
fn slope_18_hm50_from_the_top_one_sees_a_hex_behind_a_town() {
    // the column 06 is a straight line: the town at 0607, the viewer at 0609
    let units = [("P1", 0, Kind::Line, "0609"), ("F1", 1, Kind::Line, "0110")];
    let g = game(battle(&units, &[], 4));
    assert_eq!(g.hex_kind(hex("0607")), "town");
    assert!(!g.at_the_top(hex("0609")));
    assert!(
        !g.sees(0, hex("0606")),
        "the town hides the hexes behind it"
    );
    let mut s = battle(&units, &[], 4);
    s.map.set_slope_hex(hex("0609"), true);
    let g = game(s);
    assert!(g.at_the_top(hex("0609")));
    assert!(
        g.sees(0, hex("0606")),
        "from the top, the hex behind the town"
    );
    assert!(!g.sees(0, hex("0605")), "but not the one after it");
}

#[test]
fn slope_18_hm50_from_the_top_the_slope_below_does_not_block_from_below_it_does() {
    // the rough ground of the legend plays as slope here: 0607 and 0608 are slope hexes
    let units = [("P1", 0, Kind::Line, "0608"), ("F1", 1, Kind::Line, "0110")];
    let mut s = battle(&units, &[], 4);
    let rough = s.map.legend().terrain_index("rough").unwrap();
    s.hex_kinds[rough.0 as usize] = "slope".into();
    s.map.set_terrain(hex("0604"), rough);
    s.map.set_terrain(hex("0607"), rough);
    s.map.set_terrain(hex("0608"), rough);
    let g = game(s.clone());
    assert!(g.at_the_top(hex("0608")));
    // from the slope at 0608: over the slope hex 0607 and the one behind it, 0606
    assert!(g.sees(0, hex("0605")));
    // nor does the slope at 0604: from the top, every slope is below
    assert!(g.sees(0, hex("0602")));
    // from the plain below, 0610, the slope at 0608 hides the hexes behind it
    let units = [("P1", 0, Kind::Line, "0610"), ("F1", 1, Kind::Line, "0110")];
    let mut below = battle(&units, &[], 4);
    below.map = s.map.clone();
    below.hex_kinds = s.hex_kinds.clone();
    let g = game(below);
    assert!(!g.at_the_top(hex("0610")));
    assert!(!g.sees(0, hex("0606")));
}

/// A battle on Möckern's table with these units.
fn on_moeckern(units: &[(&str, u8, Kind, &str)]) -> Game {
    let base = Setup::from_scenario(&Scenario::moeckern());
    let mut s = battle_on(base, units, &[], 4);
    // the order of battle's nations: side 0 Prussian, side 1 French, as `battle` sets them
    s.objectives.clear();
    game(s)
}

fn defence(g: &Game, target: &str, attackers: &[&str]) -> u32 {
    let att: Vec<UnitId> = attackers.iter().map(|a| unit(g, a)).collect();
    let p = g.preview(hex(target), &att).expect("an attack");
    p.strengths.expect("the combat results table").1
}

#[test]
fn houses_3_1_4_2_hm52_a_village_house_shelters_one_battalion() {
    // Möckern's map: 0311 is a village hex, 0411 beside it open ground
    let g = on_moeckern(&[("P1", 0, Kind::Line, "0411"), ("F1", 1, Kind::Line, "0311")]);
    assert_eq!(g.hex_kind(hex("0311")), "town");
    let f1 = g.unit(unit(&g, "F1")).strength;
    assert_eq!(defence(&g, "0311", &["P1"]), 2 * f1);
    // a second battalion, disordered, come into the hex: the house holds only one of them
    let mut g = on_moeckern(&[
        ("P1", 0, Kind::Line, "0411"),
        ("F1", 1, Kind::Line, "0311"),
        ("F2", 1, Kind::Line, "0311"),
    ]);
    set(&mut g, "F2", Order::Disordered, Formation::Line, Dir::NE);
    let (a, b) = (
        g.unit(unit(&g, "F1")).strength,
        g.unit(unit(&g, "F2")).strength,
    );
    assert!(a > b);
    assert_eq!(defence(&g, "0311", &["P1"]), 2 * a + b);
    // a regiment of horse may hold the village, but not its buildings
    let g = on_moeckern(&[
        ("P1", 0, Kind::Line, "0411"),
        ("FC", 1, Kind::LightCavalry, "0311"),
    ]);
    let fc = g.unit(unit(&g, "FC")).strength;
    assert_eq!(defence(&g, "0311", &["P1"]), fc);
}

#[test]
fn houses_3_1_5_hm52_a_walled_hex_shelters_a_battalion_and_a_battery_a_rout_takes_none() {
    // Möckern's walled village, 0812, with 0712 before it
    let g = on_moeckern(&[
        ("P1", 0, Kind::Line, "0712"),
        ("F1", 1, Kind::Grenadier, "0812"),
        ("FA", 1, Kind::FootBattery, "0812"),
    ]);
    assert_eq!(g.hex_kind(hex("0812")), "fortified");
    let f1 = g.unit(unit(&g, "F1")).strength;
    // the battery fights the exchange with a value of 1 ([9.1.6]), doubled behind the walls
    assert_eq!(defence(&g, "0812", &["P1"]), 2 * f1 + 2);
    // a routed battalion defends as 1 and is not under a roof ([8.8.3])
    let mut g = on_moeckern(&[
        ("P1", 0, Kind::Line, "0712"),
        ("F1", 1, Kind::Grenadier, "0812"),
    ]);
    set(&mut g, "F1", Order::Routed, Formation::Line, Dir::NE);
    assert_eq!(defence(&g, "0812", &["P1"]), 1);
    // no horse in the walled buildings ([18], HM19)
    let g = on_moeckern(&[
        ("PC", 0, Kind::LightCavalry, "0712"),
        ("F1", 1, Kind::Line, "0110"),
    ]);
    assert!(!g.destinations(unit(&g, "PC")).contains(&Hex::new(8, 12)));
}

#[test]
fn slope_8_4_6_18_climbing_the_elster_terrace_from_the_meadows_costs_a_slope_hex() {
    // Möckern's terrace bank is a line of slope hexes above the terrace edge (the map's
    // `[[bank]]`): climbing into one from the meadows costs a halved hex (4 halves, [18]) and
    // nothing more ([8.4.6]); going down costs the meadow's halved hex and a point more (HM51)
    let s = Scenario::moeckern();
    let chart = &hex_miniatures::data::Tables::shipped().terrain;
    // (most of the terrace edge runs along the Elster; below Wahren the meadow 0513 lies on
    // this side of the river, under the bank's 0412)
    let (meadow, bank) = (hex("0513"), hex("0412"));
    assert!(s.map.is_slope_hex(bank) && s.hex_kind(bank) == "slope");
    assert_eq!(s.hex_kind(meadow), "rough");
    assert!(s.climbs(meadow, bank));
    assert_eq!(s.step_cost(chart, meadow, bank), Some(4));
    assert_eq!(s.step_cost(chart, bank, meadow), Some(4 + 2));
    // along the bank, from one slope hex into another, no point more
    assert_eq!(s.step_cost(chart, hex("0412"), hex("0512")), Some(4));
    // the game reads the same: a battalion in column (2 hexes) climbing out of the meadow
    // stops on the bank, where on clear ground it would have gone a hex further
    let mut g = on_moeckern(&[("P1", 0, Kind::Line, "0513"), ("F1", 1, Kind::Line, "0505")]);
    set(&mut g, "P1", Order::Ordered, Formation::Column, Dir::ALL[0]);
    until(&mut g, 0, Stage::Movement, 500);
    let dest = g.destinations(unit(&g, "P1"));
    assert!(dest.contains(&bank), "{dest:?}");
    assert!(!dest.contains(&hex("0411")), "{dest:?}");
}
