//! Movement: prohibitions (5.1), terrain (5.2), friendly units (5.3) and the movement column of
//! the Terrain Effects Chart (9.0). Costs are in half movement points (our ruling).

mod common;
use common::*;
use engine::Rules;
use hexmap::{Hexside, Terrain};
use naw::Step;

// ---------------------------------------------------------------- 5.1 prohibitions

#[test]
fn case_5_11_units_move_only_in_their_own_movement_phase() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    let mut g = b.game();
    assert_eq!(refused(&g, "move R.1 0908"), "5.11");
    act(&mut g, "move B.1 0504");
    act(&mut g, "end");
    // Blue's combat phase: no movement.
    assert_eq!(g.step(), Step::Declare);
    assert_eq!(refused(&g, "move B.2 0203"), "5.11");
    act(&mut g, "end");
    // Red's movement phase: Blue's units stay.
    assert_eq!(g.phasing(), RED);
    assert_eq!(refused(&g, "move B.2 0203"), "5.11");
    act(&mut g, "move R.1 0908");
    assert_eq!(at(&g, "R.1"), Some(h("0908")));
}

#[test]
fn case_5_12_never_into_an_enemy_unit() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0705");
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0705"), "5.12");
}

#[test]
fn case_5_13_may_not_leave_enemy_zoc() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0605");
    let g = b.game();
    assert!(g.in_enemy_zoc(uid(&g, "B.1")));
    assert_eq!(refused(&g, "move B.1 0404"), "5.13");
    // Not even to another hex of the same zone.
    assert_eq!(refused(&g, "move B.1 0506"), "5.13");
    assert!(accepted(&g, "move B.2 0203"));
}

#[test]
fn case_5_14_no_combat_in_the_movement_phase_and_the_die_is_irreversible() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    assert_eq!(refused(&g, "attack B.1 R.1"), "5.14");
    act(&mut g, "end");
    acts(&mut g, &["attack B.1 R.1", "end", "resolve R.1"]);
    assert!(g.undoable() > 0, "declarations may still be taken back");
    act(&mut g, "roll 2");
    assert_eq!(
        g.undoable(),
        0,
        "once the die is thrown nothing before it is taken back"
    );
}

#[test]
fn case_5_15_movement_allowance_limits_and_does_not_accumulate() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0501")
        .unit("B.2 cav 4-6 0301")
        .unit("R.1 inf 6-4 0909");
    let mut g = b.game();
    assert_eq!(cost(&g, "B.1", "0505"), Some(8));
    assert_eq!(refused(&g, "move B.1 0506"), "5.15");
    assert_eq!(cost(&g, "B.2", "0307"), Some(12));
    assert_eq!(refused(&g, "move B.2 0308"), "5.15");
    // B.1 does not move in game-turn 1; in game-turn 2 its allowance is still 4.
    for _ in 0..2 {
        act(&mut g, "end");
        act(&mut g, "end");
    }
    assert_eq!(g.turn(), 2);
    assert_eq!(refused(&g, "move B.1 0506"), "5.15");
}

#[test]
fn case_5_16_movement_is_hex_by_hex() {
    // B.1 is shut in by rivers on all six hexsides.
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    for n in ["0504", "0506", "0404", "0405", "0604", "0605"] {
        b = b.side("0505", n, Hexside::RIVER);
    }
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0504"), "5.24");
    assert_eq!(refused(&g, "move B.1 0503"), "5.24");
    // Every legal move is a chain of adjacent hexes.
    let (path, c) = g.path(uid(&g, "B.2"), h("0205")).unwrap();
    assert_eq!(c, 6);
    assert_eq!(path.first(), Some(&h("0202")));
    assert_eq!(path.last(), Some(&h("0205")));
    assert!(path.windows(2).all(|w| w[0].distance(w[1]) == 1));
}

#[test]
fn case_5_17_a_moved_unit_may_not_move_again() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0909");
    let mut g = b.game();
    act(&mut g, "move B.1 0504");
    assert_eq!(refused(&g, "move B.1 0503"), "5.17");
    // Taking a move back is an undo, which the engine allows until a die is rolled.
    assert!(g.undoable() >= 1);
}

// ---------------------------------------------------------------- 5.2 terrain

#[test]
fn case_5_21_clear_hexes_cost_one_movement_point() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0909");
    let g = b.game();
    let mut dests = Vec::new();
    g.destinations(uid(&g, "B.1"), &mut dests);
    assert!(!dests.is_empty());
    for d in &dests {
        assert_eq!(
            d.cost_half as u32,
            2 * h("0505").distance(d.hex),
            "{}",
            d.hex
        );
    }
}

#[test]
fn case_5_22_road_to_road_costs_half_a_point_whatever_the_hex() {
    let b = Build::new(10, 12)
        .road(&[
            "0501", "0502", "0503", "0504", "0505", "0506", "0507", "0508", "0509",
        ])
        .terrain("0503", Terrain::Forest)
        .terrain("0504", Terrain::Rough)
        .terrain("0505", Terrain::Town)
        .unit("B.1 inf 6-4 0501")
        .unit("R.1 inf 6-4 0909");
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0503"), Some(2));
    assert_eq!(cost(&g, "B.1", "0509"), Some(8));
    // Off the road the clear hex costs a full point.
    assert_eq!(refused(&g, "move B.1 0510"), "5.15");
}

#[test]
fn case_5_23_trail_to_trail_costs_one_point_whatever_the_hex() {
    let b = Build::new(10, 10)
        .side("0501", "0502", Hexside::TRAIL)
        .terrain("0502", Terrain::Forest)
        .terrain("0402", Terrain::Forest)
        .unit("B.1 inf 6-4 0501")
        .unit("R.1 inf 6-4 0909");
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0502"), Some(2));
    // 0402 is forest reached off the trail: 1 (0401 or the trail to 0502) + 2.
    assert_eq!(cost(&g, "B.1", "0402"), Some(6));
}

#[test]
fn case_5_24_rivers_are_crossed_only_at_bridges_at_no_extra_cost() {
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0909");
    for n in ["0504", "0506", "0404", "0405", "0604", "0605"] {
        b = b.side("0505", n, Hexside::RIVER);
    }
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0504"), "5.24");
    let b = b.side("0505", "0504", Hexside::BRIDGE);
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0504"), Some(2));
    // The other river hexsides still hold: 0506 is reached round by the bridge.
    assert_eq!(cost(&g, "B.1", "0506"), Some(8));
}

#[test]
fn case_5_25_a_stream_costs_two_more_and_into_forest_four() {
    // One row, so that no way round the streams exists.
    let b = Build::new(1, 10)
        .side("0105", "0104", Hexside::STREAM)
        .side("0105", "0106", Hexside::STREAM)
        .terrain("0106", Terrain::Forest)
        .unit("B.1 inf 6-4 0105");
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0104"), Some(6));
    // The rulebook's example: through a stream into forest is four movement points.
    assert_eq!(cost(&g, "B.1", "0106"), Some(8));
}

#[test]
fn case_5_26_a_slope_costs_one_more_leaving_a_slope_hex_only() {
    // One row, so that no way round the slope exists.
    let b = Build::new(1, 10)
        .slope_hex("0105")
        .side("0105", "0104", Hexside::SLOPE)
        .unit("B.1 inf 6-4 0105")
        .unit("B.2 inf 6-4 0103");
    let g = b.game();
    // From the slope hex through the slope hexside into clear: 1 + 1.
    assert_eq!(cost(&g, "B.1", "0104"), Some(4));
    // From clear into the slope hex: no extra point (0103 -> 0104 -> 0105 is 1 + 1).
    let mut g2 = g.clone();
    act(&mut g2, "move B.1 0106");
    assert_eq!(cost(&g2, "B.2", "0105"), Some(4));
}

// ---------------------------------------------------------------- 5.3 friendly units

#[test]
fn case_5_31_friendly_units_are_passed_through_at_no_cost() {
    let b = Build::new(1, 10)
        .unit("B.1 inf 6-4 0101")
        .unit("B.2 inf 6-4 0102")
        .unit("B.3 inf 6-4 0103");
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0104"), Some(6));
}

#[test]
fn case_5_32_no_phase_ends_with_two_units_in_a_hex() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0501")
        .unit("B.2 inf 6-4 0502")
        .unit("R.1 inf 6-4 0909");
    let mut g = b.game();
    assert_eq!(refused(&g, "move B.1 0502"), "5.32");
    act(&mut g, "move B.1 0503");
    act(&mut g, "end");
    let mut seen = std::collections::HashSet::new();
    for u in g.unit_ids() {
        if let Some(x) = g.hex_of(u) {
            assert!(seen.insert(x));
        }
    }
}

#[test]
fn case_5_33_any_number_of_units_may_pass_through_one_hex() {
    // A one-row map: every move west passes 0104.
    let b = Build::new(1, 12)
        .unit("B.1 inf 6-4 0101")
        .unit("B.3 inf 6-4 0102")
        .unit("B.4 inf 6-4 0103")
        .unit("B.2 inf 6-4 0104");
    let mut g = b.game();
    act(&mut g, "move B.4 0107");
    act(&mut g, "move B.3 0106");
    act(&mut g, "move B.1 0105");
    assert_eq!(at(&g, "B.1"), Some(h("0105")));
    assert_eq!(at(&g, "B.2"), Some(h("0104")));
}

#[test]
fn case_5_34_friendly_zones_of_control_never_inhibit_friendly_movement() {
    // B.2 controls 0503 and 0504, which B.1 crosses.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0501")
        .unit("B.2 inf 6-4 0603")
        .unit("R.1 inf 6-4 0909");
    let g = b.game();
    assert!(g.controlled_by(BLUE, h("0503")));
    assert_eq!(cost(&g, "B.1", "0505"), Some(8));
}

// ---------------------------------------------------------------- 9.0 movement column

#[test]
fn case_9_0_clear_hex_one_point() {
    let b = Build::new(10, 10).unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(2));
}

#[test]
fn case_9_0_forest_hex_two_points() {
    let b = Build::new(10, 10)
        .terrain("0504", Terrain::Forest)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(4));
}

#[test]
fn case_9_0_rough_hex_two_points() {
    let b = Build::new(10, 10)
        .terrain("0504", Terrain::Rough)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(4));
}

#[test]
fn case_9_0_slope_hexside_one_more_from_a_slope_hex() {
    let b = Build::new(1, 10)
        .slope_hex("0105")
        .side("0105", "0104", Hexside::SLOPE)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0104"), Some(4));
    // A slope hexside left from a hex without the symbol costs nothing more.
    let b = Build::new(1, 10)
        .side("0105", "0104", Hexside::SLOPE)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0104"), Some(2));
}

#[test]
fn case_9_0_road_hex_half_a_point_through_a_road_hexside() {
    let b = Build::new(10, 10)
        .road(&["0505", "0504"])
        .terrain("0504", Terrain::Forest)
        .unit("B.1 inf 6-4 0505");
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0504"), Some(1));
    // A road hex entered off the road costs its other terrain.
    let b = Build::new(10, 10)
        .road(&["0503", "0504"])
        .terrain("0504", Terrain::Forest)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(4));
}

#[test]
fn case_9_0_trail_hex_one_point_through_a_trail_hexside() {
    let b = Build::new(10, 10)
        .side("0505", "0504", Hexside::TRAIL)
        .terrain("0504", Terrain::Rough)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(2));
}

#[test]
fn case_9_0_marsh_hex_entered_only_along_a_road() {
    let b = Build::new(10, 10)
        .terrain("0504", Terrain::Marsh)
        .unit("B.1 inf 6-4 0505");
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0504"), "9.0");
    // A trail is not a road.
    let g = b.clone().side("0505", "0504", Hexside::TRAIL).game();
    assert_eq!(refused(&g, "move B.1 0504"), "9.0");
    let g = b.road(&["0505", "0504"]).game();
    assert_eq!(cost(&g, "B.1", "0504"), Some(1));
}

#[test]
fn case_9_0_town_hex_one_point() {
    let b = Build::new(10, 10)
        .terrain("0504", Terrain::Town)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(2));
}

#[test]
fn case_9_0_river_hexside_only_at_bridges() {
    let b = Build::new(1, 10)
        .side("0105", "0104", Hexside::RIVER)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(refused(&b.game(), "move B.1 0104"), "5.24");
    // A road over the river without a bridge does not cross it either.
    let b2 = b.clone().road(&["0105", "0104"]);
    assert_eq!(refused(&b2.game(), "move B.1 0104"), "5.24");
    let b3 = b.side("0105", "0104", Hexside::BRIDGE);
    assert_eq!(cost(&b3.game(), "B.1", "0104"), Some(2));
}

#[test]
fn case_9_0_stream_hexside_two_more_points() {
    let b = Build::new(1, 10)
        .side("0105", "0104", Hexside::STREAM)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0104"), Some(6));
}

#[test]
fn case_9_0_bridge_hexside_no_additional_point() {
    let b = Build::new(10, 10)
        .side("0505", "0504", Hexside::STREAM.with(Hexside::BRIDGE))
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(2));
}

#[test]
fn case_9_0_movement_effects_are_cumulative_rough_through_a_stream_is_four() {
    let b = Build::new(1, 10)
        .side("0105", "0104", Hexside::STREAM)
        .terrain("0104", Terrain::Rough)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0104"), Some(8));
}

// ---------------------------------------------------------------- rulings

#[test]
fn ruling_movement_points_are_counted_in_halves() {
    // Two road hexsides and two clear hexes: 1/2 + 1/2 + 1 + 1 = 3 points, 6 halves; a 4-MP
    // unit then has 1 point left for one more clear hex.
    let b = Build::new(10, 10)
        .road(&["0501", "0502", "0503"])
        .unit("B.1 inf 6-4 0501");
    let g = b.game();
    assert_eq!(cost(&g, "B.1", "0503"), Some(2));
    assert_eq!(cost(&g, "B.1", "0506"), Some(8));
}

#[test]
fn ruling_5_22_a_road_crosses_a_stream_at_half_a_point() {
    let b = Build::new(10, 10)
        .road(&["0505", "0504"])
        .side("0505", "0504", Hexside::STREAM)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(1));
}

#[test]
fn ruling_5_23_a_trail_crosses_a_stream_at_one_point() {
    let b = Build::new(10, 10)
        .side("0505", "0504", Hexside::TRAIL.with(Hexside::STREAM))
        .terrain("0504", Terrain::Forest)
        .unit("B.1 inf 6-4 0505");
    assert_eq!(cost(&b.game(), "B.1", "0504"), Some(2));
}

#[test]
fn ruling_5_26_the_slope_point_is_paid_whatever_hex_is_entered() {
    let b = Build::new(1, 10)
        .slope_hex("0105")
        .side("0105", "0106", Hexside::SLOPE)
        .terrain("0106", Terrain::Forest)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0106"), Some(6));
    // Roads and trails have their fixed cost, slope or not.
    let b = Build::new(1, 10)
        .slope_hex("0105")
        .side("0105", "0106", Hexside::SLOPE)
        .road(&["0105", "0106"])
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0106"), Some(1));
    let b = Build::new(1, 10)
        .slope_hex("0105")
        .side("0105", "0106", Hexside::SLOPE.with(Hexside::TRAIL))
        .terrain("0106", Terrain::Forest)
        .unit("B.1 inf 6-4 0105");
    assert_eq!(cost(&b.game(), "B.1", "0106"), Some(2));
}

#[test]
fn ruling_5_32_a_move_ends_in_a_vacant_hex() {
    // Even a unit passing through a friend may not stop on it, not even for the end of the
    // phase to sort out: the move itself is refused.
    let b = Build::new(1, 10)
        .unit("B.1 inf 6-4 0101")
        .unit("B.2 inf 6-4 0103");
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0103"), "5.32");
    let mut dests = Vec::new();
    g.destinations(uid(&g, "B.1"), &mut dests);
    assert!(dests.iter().all(|d| g.unit_at(d.hex).is_none()));
    assert!(dests.iter().any(|d| d.hex == h("0104")));
}

#[test]
fn ruling_a_hex_shut_off_by_enemy_zones_cites_6_0_and_by_terrain_5_24() {
    // Two rows: R.1 at 0205 controls 0105 and 0106; every way west passes them.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-6 0101")
        .unit("R.1 inf 6-4 0205");
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0108"), "6.0");
}
