//! The terrain effects table [18] (printed) with [3.1] and [8.4], and the weather and light
//! of [24] (printed examples); rulings HM7, HM14-HM16, HM18, HM19.

use hex_miniatures::army::Arm;
use hex_miniatures::data::Tables;
use hex_miniatures::terrain::{Sight, TerrainChart, HEX_KINDS};

fn chart() -> TerrainChart {
    Tables::shipped().terrain
}

#[test]
fn terrain_18_movement_normal_halved_doubled_on_roads_none_into_lakes() {
    let c = chart();
    assert_eq!(c.entry_cost("clear", false, &[]), Some(2));
    assert_eq!(c.entry_cost("town", false, &[]), Some(2));
    assert_eq!(c.entry_cost("fortified", false, &[]), Some(2));
    for k in ["forest", "rough", "slope"] {
        assert_eq!(c.entry_cost(k, false, &[]), Some(4), "{k}");
    }
    // [3.1.6.1]: along a road, half a hex whatever the other terrain; across it, the normal
    for k in ["clear", "forest", "town"] {
        assert_eq!(c.entry_cost(k, true, &[]), Some(1), "{k}");
    }
    assert_eq!(c.entry_cost("lake", false, &[]), None);
    assert_eq!(c.entry_cost("lake", true, &[]), None);
    assert_eq!(c.entry_cost("swamp", false, &[]), None);
}

#[test]
fn terrain_3_1_3_rivers_only_at_bridges_and_a_bridge_costs_nothing_more() {
    let c = chart();
    assert_eq!(c.entry_cost("clear", false, &["river"]), None);
    assert_eq!(c.entry_cost("clear", false, &["river", "bridge"]), Some(2));
    assert!(!c.crossing_disorders(&["river", "bridge"]));
    assert!(!c.hexsides["river"].zoc);
    assert!(c.hexsides["bridge"].zoc && c.hexsides["stream"].zoc);
}

#[test]
fn hm16_a_stream_costs_nothing_more_and_disrupts_the_troops_crossing() {
    let c = chart();
    assert_eq!(c.entry_cost("clear", false, &["stream"]), Some(2));
    assert!(c.crossing_disorders(&["stream"]));
    assert!(!c.crossing_disorders(&[]));
}

#[test]
fn hm14_a_unit_may_always_take_the_first_step_of_its_move() {
    // infantry (1 hex) into a forest (2 hexes' worth)
    assert!(TerrainChart::may_step(1, 0, 4));
    assert!(!TerrainChart::may_step(1, 2, 2));
    // light cavalry (3 hexes): two clear hexes then a halved one does not fit
    assert!(TerrainChart::may_step(3, 4, 2));
    assert!(!TerrainChart::may_step(3, 4, 4));
    // a road doubles the move
    assert!(TerrainChart::may_step(1, 1, 1));
}

#[test]
fn terrain_3_1_7_and_3_1_8_only_infantry_in_forest_and_rough_3_1_5_no_cavalry_in_works() {
    let c = chart();
    for k in ["forest", "rough"] {
        assert!(c.may_occupy(k, Arm::Infantry), "{k}");
        assert!(!c.may_occupy(k, Arm::Cavalry), "{k}");
        assert!(!c.may_occupy(k, Arm::Artillery), "{k}");
        assert!(c.may_occupy(k, Arm::Command), "{k}");
    }
    for k in ["fortified", "earthwork"] {
        assert!(c.may_occupy(k, Arm::Infantry) && c.may_occupy(k, Arm::Artillery));
        assert!(!c.may_occupy(k, Arm::Cavalry), "{k}");
    }
    // [3.1.4.2] a cavalry regiment may hold a village hex
    assert!(c.may_occupy("town", Arm::Cavalry));
    assert!(!c.may_occupy("lake", Arm::Infantry));
}

#[test]
fn terrain_18_defender_doubled_in_towns_and_fortifications_hm15_not_cavalry_in_a_town() {
    let c = chart();
    assert_eq!(c.defence_multiplier("town", Arm::Infantry), 2);
    assert_eq!(c.defence_multiplier("town", Arm::Cavalry), 1);
    assert_eq!(c.defence_multiplier("fortified", Arm::Infantry), 2);
    assert_eq!(c.defence_multiplier("fortified", Arm::Artillery), 2);
    assert_eq!(c.defence_multiplier("earthwork", Arm::Infantry), 2);
    for k in ["clear", "forest", "rough", "slope"] {
        assert_eq!(c.defence_multiplier(k, Arm::Infantry), 1, "{k}");
    }
}

#[test]
fn terrain_18_a_tenth_off_the_attackers_number_in_forest_rough_fortified_and_uphill() {
    let c = chart();
    for k in ["forest", "rough", "fortified"] {
        assert_eq!(c.combat_modifier(k, false, false), -100, "{k}");
    }
    for k in ["clear", "town", "earthwork"] {
        assert_eq!(c.combat_modifier(k, false, false), 0, "{k}");
    }
    // slope: the top attacked from below loses a tenth for the attacker; attacking down adds
    assert_eq!(c.combat_modifier("slope", false, false), 0);
    assert_eq!(c.combat_modifier("slope", true, false), -100);
    assert_eq!(c.combat_modifier("clear", false, true), 100);
}

#[test]
fn hm7_terrain_modifiers_never_add_up_for_one_side() {
    let c = chart();
    // a forest on a hilltop attacked from below: one tenth, not two
    assert_eq!(c.combat_modifier("forest", true, false), -100);
}

#[test]
fn hm19_the_two_fortified_lines_enclosed_works_block_sight_open_earthworks_do_not() {
    let c = chart();
    assert_eq!(c.hex("fortified").unwrap().sight, Sight::Blocks);
    assert_eq!(c.hex("earthwork").unwrap().sight, Sight::Open);
    for k in ["forest", "town", "slope"] {
        assert_eq!(c.hex(k).unwrap().sight, Sight::Blocks, "{k}");
    }
    for k in ["clear", "rough"] {
        assert_eq!(c.hex(k).unwrap().sight, Sight::Open, "{k}");
    }
    assert_eq!(c.hexes.len(), HEX_KINDS.len());
}

// ---- weather and light [24] ----

#[test]
fn weather_24_fog_starts_thick_and_drifts_down_on_1_2_up_on_5_6() {
    let w = Tables::shipped().weather;
    assert_eq!(w.fog.start, 1);
    assert_eq!(w.fog.visibility(1), Some(1));
    assert_eq!(w.fog.visibility(4), Some(4));
    assert_eq!(w.fog.visibility(5), None);
    assert_eq!(w.fog.next(3, 1, 0), 2);
    assert_eq!(w.fog.next(3, 2, 0), 2);
    assert_eq!(w.fog.next(3, 3, 0), 3);
    assert_eq!(w.fog.next(3, 4, 0), 3);
    assert_eq!(w.fog.next(3, 5, 0), 4);
    assert_eq!(w.fog.next(3, 6, 0), 4);
    // held on the track
    assert_eq!(w.fog.next(1, 1, 0), 1);
    assert_eq!(w.fog.next(5, 6, 0), 5);
    assert_eq!(w.fog.chances(3, 0), vec![(2, 2), (3, 2), (4, 2)]);
}

#[test]
fn weather_24_the_fog_clears_in_the_morning_and_falls_in_the_evening() {
    let w = Tables::shipped().weather;
    let at = |h: u32| w.fog_modifier(h * 60);
    assert_eq!(at(9), 0); // HM18: none before 10:00
    assert_eq!(at(10), 1);
    assert_eq!(at(11), 2);
    assert_eq!(at(12), 2);
    assert_eq!(at(13), 0);
    assert_eq!(at(14), -1);
    assert_eq!(at(15), -2);
    assert_eq!(at(17), -2);
    // +2 at noon: the counter rises on 3 and above
    assert_eq!(w.fog.next(2, 3, at(12)), 3);
}

#[test]
fn weather_24_snow_starts_clear_at_position_4() {
    let w = Tables::shipped().weather;
    assert_eq!(w.snow.start, 4);
    assert_eq!(w.snow.visibility(4), None);
    assert_eq!(w.snow.visibility(3), Some(3));
    assert_eq!(w.snow.next(4, 2, 0), 3);
}

#[test]
fn light_24_six_hexes_an_hour_before_night_one_fewer_each_ten_minutes_reversed_at_dawn() {
    let w = Tables::shipped().weather;
    for (min, hexes) in [(60, 6), (50, 5), (40, 4), (30, 3), (20, 2), (10, 1), (0, 0)] {
        assert_eq!(w.before_night(min), Some(hexes), "{min}");
    }
    assert_eq!(w.before_night(70), None);
    for (min, hexes) in [(10, 1), (20, 2), (60, 6)] {
        assert_eq!(w.after_dawn(min), Some(hexes), "{min}");
    }
    assert_eq!(w.after_dawn(70), None);
}
