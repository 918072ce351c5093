//! The Battle of Nations exclusive-rule hooks: player sequence (14.6), reinforcements (15.0),
//! night withdrawal (16.1), demoralization and the line of communications (17.0).

mod common;
use common::*;
use engine::{Rules, ToAct};
use hexmap::{Hexside, Terrain};
use naw::scenario::{DemoralizationFile, LocFile};
use naw::{Game, Loc, Step};

/// Ends the phasing player's movement and (by day) his empty combat phase.
fn pass(g: &mut Game) {
    act(g, "end");
    if g.step() == Step::Declare {
        act(g, "end");
    }
}

/// Demoralization rows for the Blue and Red armies.
fn levels(rows: &[([u8; 2], u32, u32)]) -> Vec<DemoralizationFile> {
    rows.iter()
        .map(|&(turns, blue, red)| DemoralizationFile {
            turns,
            levels: [("Blue".to_string(), blue), ("Red".to_string(), red)]
                .into_iter()
                .collect(),
        })
        .collect()
}

fn loc_to(hex: &str) -> Option<LocFile> {
    Some(LocFile {
        side: "Blue".into(),
        army: "Blue".into(),
        hex: h(hex),
    })
}

fn outcome(g: &Game) -> engine::Outcome {
    match g.to_act() {
        ToAct::Over(o) => o,
        other => panic!("the game is not over: {other:?}"),
    }
}

// ---------------------------------------------------------------- 14.6 player sequence

#[test]
fn case_14_61_the_first_listed_side_is_first_player_every_game_turn() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    let mut g = b.game();
    for turn in 1..=3 {
        assert_eq!(g.turn(), turn);
        assert_eq!(g.phasing(), BLUE, "Blue moves first in game-turn {turn}");
        pass(&mut g);
        assert_eq!(g.phasing(), RED);
        assert_eq!(g.turn(), turn);
        pass(&mut g);
    }
    // The side listed first is the first player, whichever it is.
    let mut g = b.game_with(|f| f.sides = vec!["Red".into(), "Blue".into()]);
    assert_eq!(g.scenario().sides[0], "Red");
    assert!(accepted(&g, "move R.1 0908"));
    assert_eq!(refused(&g, "move B.1 0203"), "5.11");
    pass(&mut g);
    assert!(accepted(&g, "move B.1 0203"));
}

#[test]
fn case_14_62_no_movement_phase_for_the_named_side_in_the_first_game_turn() {
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0605");
    b.hooks.no_movement_first_turn = Some("Blue".into());
    let mut g = b.game();
    // Blue's first player-turn starts in the combat phase.
    assert_eq!((g.turn(), g.phasing(), g.step()), (1, BLUE, Step::Declare));
    assert_eq!(refused(&g, "move B.2 0203"), "14.62");
    // Units still move as a result of combat: 12 against 6 is 2-1, a 1 is Dr.
    acts(&mut g, &["attack B.1 R.1", "end", "resolve R.1", "roll 1"]);
    assert_eq!(g.step(), Step::Retreat);
    act(&mut g, "retreat R.1 0706");
    assert_eq!(at(&g, "R.1"), Some(h("0706")));
    assert!(accepted(&g, "advance B.1 0605"));
    act(&mut g, "hold");
    // Red has its movement phase; Blue has one again from game-turn 2.
    assert_eq!((g.phasing(), g.step()), (RED, Step::Movement));
    pass(&mut g);
    assert_eq!((g.turn(), g.phasing(), g.step()), (2, BLUE, Step::Movement));
    assert!(accepted(&g, "move B.2 0203"));

    // "First game-turn of any scenario": a scenario starting on turn 13 too.
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    b.first_turn = 13;
    b.last_turn = 20;
    b.hooks.no_movement_first_turn = Some("Blue".into());
    let mut g = b.game();
    assert_eq!((g.turn(), g.step()), (13, Step::Declare));
    assert_eq!(refused(&g, "move B.1 0203"), "14.62");
    act(&mut g, "end");
    assert!(accepted(&g, "move R.1 0908"));
    pass(&mut g);
    assert_eq!((g.turn(), g.step()), (14, Step::Movement));
    assert!(accepted(&g, "move B.1 0203"));
}

// ---------------------------------------------------------------- 15.0 reinforcements

/// A map with roads entering from the north edge at 0102, 0105 and 0108.
fn entry_map() -> Build {
    Build::new(10, 10)
        .road(&["0102", "0202", "0302"])
        .road(&["0105", "0205", "0305", "0405", "0505"])
        .road(&["0108", "0208", "0308"])
}

#[test]
fn case_15_0_reinforcements_arrive_on_their_turn_at_their_entry_hex() {
    let b = entry_map()
        .unit("B.1 inf 6-4 0909")
        .unit("B.9 inf 6-4 @2:0105:north")
        .unit("R.1 inf 6-4 0901");
    let mut g = b.game();
    assert_eq!(g.loc(uid(&g, "B.9")), Loc::Waiting);
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
    pass(&mut g);
    pass(&mut g);
    assert_eq!(g.turn(), 2);
    act(&mut g, "move B.9 0205");
    assert_eq!(at(&g, "B.9"), Some(h("0205")));
    assert!(g.events().iter().any(|e| e.case() == "15.1"));
}

#[test]
fn case_15_0_a_blocked_entry_delays_one_turn_then_the_nearest_unblocked_road_hex() {
    // R.1 at 0204 controls the entry hex 0105.
    let b = entry_map()
        .unit("B.1 inf 6-4 0909")
        .unit("B.9 inf 6-4 @2:0105:north")
        .unit("R.1 inf 6-4 0204");
    let mut g = b.game();
    pass(&mut g);
    pass(&mut g);
    assert_eq!(g.turn(), 2);
    assert!(g.events().iter().any(|e| e.case() == "15.0"));
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
    let view = |g: &Game| g.units()[uid(g, "B.9").0 as usize].arrival;
    assert_eq!(view(&g), Some((3, h("0105"))));
    pass(&mut g);
    pass(&mut g);
    // Turn 3: 0105 is still controlled; 0102 and 0108 are both three hexes away on the same
    // edge, and the lower hex number breaks the tie (our ruling).
    assert_eq!(g.turn(), 3);
    assert_eq!(view(&g), Some((3, h("0102"))));
    act(&mut g, "move B.9 0202");
    assert_eq!(at(&g, "B.9"), Some(h("0202")));
}

#[test]
fn case_15_0_an_enemy_unit_on_the_entry_hex_blocks_it() {
    let b = entry_map()
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0105");
    let g = b.game();
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
    assert_eq!(
        g.units()[uid(&g, "B.9").0 as usize].arrival,
        Some((2, h("0105")))
    );
}

#[test]
fn case_15_1_reinforcements_enter_at_any_time_in_the_movement_phase() {
    let b = entry_map()
        .unit("B.1 inf 6-4 0909")
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("B.8 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0901");
    let mut g = b.game();
    act(&mut g, "move B.8 0205");
    act(&mut g, "move B.1 0908");
    act(&mut g, "move B.9 0305");
    assert_eq!(at(&g, "B.9"), Some(h("0305")));
    // A reinforcement left off the map may still enter in a later movement phase (ruling).
    let mut g = b.game();
    pass(&mut g);
    pass(&mut g);
    assert_eq!(g.turn(), 2);
    act(&mut g, "move B.9 0205");
    assert_eq!(at(&g, "B.9"), Some(h("0205")));
}

#[test]
fn case_15_2_an_entered_reinforcement_moves_and_fights_freely() {
    let b = entry_map()
        .unit("B.9 inf 12-4 @1:0105:north")
        .unit("R.1 inf 6-4 0404");
    let mut g = b.game();
    // 0305 is adjacent to R.1 at 0404.
    act(&mut g, "move B.9 0305");
    act(&mut g, "end");
    assert_eq!(refused(&g, "end"), "7.12");
    acts(&mut g, &["attack B.9 R.1", "end", "resolve R.1", "roll 1"]);
    assert_eq!(g.step(), Step::Retreat);
}

#[test]
fn case_15_3_entering_costs_one_movement_point_and_may_pass_a_friend_on_the_entry_hex() {
    let b = Build::new(10, 10)
        .road(&["0105", "0205"])
        .unit("B.1 inf 6-4 0105")
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    let g = b.game();
    // The entry hex is occupied by a friend: B.9 may pass through but not stop there.
    assert_eq!(refused(&g, "move B.9 0105"), "5.32");
    // One MP to be placed, then a road hexside (half) to 0205.
    assert_eq!(cost(&g, "B.9", "0205"), Some(3));
    // 1 to be placed, 1/2 along the road, then 1 + 1 across clear: 3 1/2 of the allowance of 4.
    assert_eq!(cost(&g, "B.9", "0404"), Some(7));
    assert_eq!(refused(&g, "move B.9 0504"), "5.15");
    // An empty entry hex may be the end of the move.
    let b = Build::new(10, 10)
        .road(&["0105", "0205"])
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    let mut g = b.game();
    assert_eq!(cost(&g, "B.9", "0105"), Some(2));
    act(&mut g, "move B.9 0105");
    assert_eq!(at(&g, "B.9"), Some(h("0105")));
}

#[test]
fn case_15_4_units_never_leave_the_map_voluntarily_and_forced_off_are_eliminated() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0105")
        .unit("B.2 inf 24-4 0201")
        .unit("R.1 inf 4-4 0101");
    let mut g = b.game_with(|f| f.demoralization = levels(&[([1, 5], 100, 4)]));
    assert_eq!(refused(&g, "move B.1 0005"), "15.4");
    // R.1 in the corner: its only map neighbours 0102 and 0201 are in Blue's zone of control.
    // 24 against 4 is 6-1; a 4 is Dr, and R.1 could only retreat off the map.
    act(&mut g, "end");
    acts(&mut g, &["attack B.2 R.1", "end", "resolve R.1", "roll 4"]);
    assert!(gone(&g, "R.1"));
    assert_eq!(g.losses()[1], 4, "counted for demoralization");
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (Some(BLUE), "17.2"));
}

#[test]
fn case_15_5_no_entry_into_an_enemy_controlled_or_occupied_entry_hex() {
    let b = entry_map()
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0204");
    let g = b.game();
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
    // By our ruling a friendly unit on the entry hex does not delay the reinforcement; a
    // scenario may switch that off.
    let b = entry_map()
        .unit("B.1 inf 6-4 0105")
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    let g = b.game();
    assert!(accepted(&g, "move B.9 0205"));
    let mut strict = b;
    strict.hooks.friendly_occupied_entry_ok = false;
    let g = strict.game();
    assert_eq!(refused(&g, "move B.9 0205"), "15.0");
}

// ---------------------------------------------------------------- 16.1 night withdrawal

#[test]
fn case_16_1_night_withdrawal_lets_units_leave_but_not_enter_enemy_zones() {
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0909");
    b.night = vec![1];
    b.hooks.night_withdrawal = true;
    let g = b.game();
    assert!(g.is_night());
    // B.1 is in R.1's zone: it may leave, but not into another R.1-controlled hex (0506).
    assert!(accepted(&g, "move B.1 0404"));
    assert_eq!(refused(&g, "move B.1 0506"), "16.1");
    // B.2 may not enter R.1's zone (0604 is controlled by R.1).
    assert_eq!(refused(&g, "move B.2 0604"), "16.1");
    // Without the hook, 10.2 holds B.1 in place.
    b.hooks.night_withdrawal = false;
    let g = b.game();
    assert_eq!(refused(&g, "move B.1 0404"), "10.2");
}

// ---------------------------------------------------------------- 17.0 demoralization

#[test]
fn case_17_0_destroyed_units_count_toward_demoralization_from_the_start() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("B.2 inf 11-4 destroyed")
        .unit("R.1 inf 5-4 destroyed")
        .unit("R.2 inf 6-4 0909");
    let g = b.game_with(|f| f.demoralization = levels(&[([1, 5], 50, 50)]));
    assert_eq!(g.losses(), &[11, 5]);
    assert_eq!(g.loc(uid(&g, "B.2")), Loc::Eliminated);
}

#[test]
fn case_17_1_demoralization_levels_change_with_the_game_turn() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    let mut g =
        b.game_with(|f| f.demoralization = levels(&[([1, 2], 100, 80), ([3, 5], 110, 120)]));
    assert_eq!(g.demoralization_level(0), Some(100));
    assert_eq!(g.demoralization_level(1), Some(80));
    for _ in 0..2 {
        pass(&mut g);
        pass(&mut g);
    }
    assert_eq!(g.turn(), 3);
    assert_eq!(g.demoralization_level(0), Some(110));
    assert_eq!(g.demoralization_level(1), Some(120));
}

#[test]
fn case_17_2_a_demoralized_army_loses_at_once() {
    // 12 against 2 is 6-1; a 1 is De. Red's level is 2.
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("B.2 inf 12-4 0303")
        .unit("R.1 inf 2-4 0605")
        .unit("R.2 inf 2-4 0202");
    let mut g = b.game_with(|f| f.demoralization = levels(&[([1, 5], 100, 2)]));
    act(&mut g, "end");
    acts(&mut g, &["attack B.1 R.1", "attack B.2 R.2", "end"]);
    act(&mut g, "resolve R.1");
    assert!(!g.demoralized(RED));
    act(&mut g, "roll 1");
    assert!(gone(&g, "R.1"));
    // 17.1: Red's losses reached its level; Blue's did not
    assert!(g.demoralized(RED) && !g.demoralized(BLUE));
    // The game ends at the instant, with a combat still unresolved (ruling: checked after every
    // combat result).
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (Some(BLUE), "17.2"));
    assert_eq!(g.step(), Step::Over);
    assert_eq!(refused(&g, "resolve R.2"), "17.2");
}

#[test]
fn case_17_3_simultaneous_demoralization_goes_to_the_phasing_player() {
    // 20 against 5 is 4-1; a 6 is Ex: R.1 (5) is eliminated and B.1 (20) must go.
    let b = Build::new(10, 10)
        .unit("B.1 inf 20-4 0505")
        .unit("R.1 inf 5-4 0605");
    let mut g = b.game_with(|f| f.demoralization = levels(&[([1, 5], 20, 5)]));
    act(&mut g, "end");
    acts(&mut g, &["attack B.1 R.1", "end", "resolve R.1", "roll 6"]);
    assert!(gone(&g, "B.1") && gone(&g, "R.1"));
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (Some(BLUE), "17.3"));

    // The same with Red attacking in its own player-turn: Red wins.
    let b = Build::new(10, 10)
        .unit("B.1 inf 5-4 0505")
        .unit("R.1 inf 20-4 0707");
    let mut g = b.game_with(|f| f.demoralization = levels(&[([1, 5], 5, 20)]));
    pass(&mut g);
    act(&mut g, "move R.1 0605");
    act(&mut g, "end");
    acts(&mut g, &["attack R.1 B.1", "end", "resolve B.1", "roll 6"]);
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (Some(RED), "17.3"));
}

#[test]
fn case_17_4_no_demoralization_by_the_last_turn_is_a_draw() {
    let mut b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0202")
        .unit("R.1 inf 6-4 0909");
    b.last_turn = 2;
    let mut g = b.game_with(|f| f.demoralization = levels(&[([1, 2], 100, 100)]));
    for _ in 0..2 {
        pass(&mut g);
        pass(&mut g);
    }
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (None, "17.4"));
}

// ---------------------------------------------------------------- 17.5 line of communications

/// A one-turn night game (no combat) with a line of communications to `target`.
fn loc_game(b: Build, target: &str, blue_level: u32) -> Game {
    let mut b = b;
    b.first_turn = 1;
    b.last_turn = 1;
    b.night = vec![1];
    let target = target.to_string();
    let mut g = b.game_with(|f| {
        f.demoralization = levels(&[([1, 1], blue_level, 100)]);
        f.line_of_communications = loc_to(&target);
    });
    pass(&mut g);
    pass(&mut g);
    assert!(matches!(g.to_act(), ToAct::Over(_)));
    g
}

#[test]
fn case_17_5_units_that_cannot_trace_to_the_hex_count_as_eliminated() {
    // B.2 in the corner 0101: both its neighbours (0102, 0201) are controlled by Red.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 7-4 0101")
        .unit("R.1 inf 6-4 0103")
        .unit("R.2 inf 6-4 0302");
    let g = loc_game(b, "0510", 100);
    let cut: Vec<String> = g
        .cut_off_units(BLUE, h("0510"))
        .into_iter()
        .map(|u| g.id(u).to_string())
        .collect();
    assert_eq!(cut, vec!["B.2".to_string()]);
    assert_eq!(g.losses()[0], 7);
    assert!(g.events().iter().any(|e| e.case() == "17.5"));
    // Counted as eliminated, not removed.
    assert_eq!(at(&g, "B.2"), Some(h("0101")));
    assert_eq!(outcome(&g).case, "17.4");
}

#[test]
fn case_17_5_cut_off_units_can_demoralize_the_army() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 7-4 0101")
        .unit("R.1 inf 6-4 0103")
        .unit("R.2 inf 6-4 0302");
    let g = loc_game(b, "0510", 7);
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (Some(RED), "17.2"));
}

#[test]
fn case_17_5_not_through_an_enemy_controlled_hex_even_one_held_by_a_friend() {
    // B.3 stands in 0102, controlled by R.1; the path from B.2 may not pass through it.
    let b = Build::new(10, 10)
        .unit("B.2 inf 7-4 0101")
        .unit("B.3 inf 3-4 0102")
        .unit("R.1 inf 6-4 0103")
        .unit("R.2 inf 6-4 0302");
    let g = loc_game(b, "0510", 100);
    let cut: Vec<String> = g
        .cut_off_units(BLUE, h("0510"))
        .into_iter()
        .map(|u| g.id(u).to_string())
        .collect();
    // B.3 may start inside the enemy zone (ruling), but its neighbours 0201 and 0202 are
    // controlled by R.2 and R.1 as well.
    assert_eq!(cut, vec!["B.2".to_string(), "B.3".to_string()]);
    // Without R.1's zone over 0102 the path runs through B.3's hex.
    let b = Build::new(10, 10)
        .unit("B.2 inf 7-4 0101")
        .unit("B.3 inf 3-4 0102")
        .unit("R.2 inf 6-4 0302");
    let g = loc_game(b, "0510", 100);
    assert!(g.cut_off_units(BLUE, h("0510")).is_empty());
}

#[test]
fn ruling_17_5_the_line_may_start_inside_an_enemy_zone_of_control() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0404");
    let g = loc_game(b, "0510", 100);
    assert!(g.in_enemy_zoc(uid(&g, "B.1")));
    assert!(g.cut_off_units(BLUE, h("0510")).is_empty());
    assert_eq!(g.losses()[0], 0);
}

#[test]
fn ruling_17_5_the_line_follows_movement_prohibitions_rivers() {
    // A river without a bridge between B.1 (0501) and everything else in a one-row map.
    let b = Build::new(1, 10)
        .side("0101", "0102", Hexside::RIVER)
        .unit("B.1 inf 6-4 0101")
        .unit("B.2 inf 6-4 0105");
    let g = loc_game(b.clone(), "0110", 100);
    let cut: Vec<String> = g
        .cut_off_units(BLUE, h("0110"))
        .into_iter()
        .map(|u| g.id(u).to_string())
        .collect();
    assert_eq!(cut, vec!["B.1".to_string()]);
    // A bridge opens it.
    let b = b.side("0101", "0102", Hexside::BRIDGE);
    let g = loc_game(b, "0110", 100);
    assert!(g.cut_off_units(BLUE, h("0110")).is_empty());
}

#[test]
fn ruling_17_5_the_line_enters_marsh_only_along_a_road_in_its_own_direction() {
    // One row: B.1 0108, marsh 0109, the target 0110. The path goes 0108 -> 0109 -> 0110, so
    // the road must run on the 0108/0109 hexside (where the marsh is entered).
    let b = Build::new(1, 10)
        .terrain("0109", Terrain::Marsh)
        .road(&["0108", "0109"])
        .unit("B.1 inf 6-4 0108");
    let g = loc_game(b, "0110", 100);
    assert!(g.cut_off_units(BLUE, h("0110")).is_empty());
    // A road only on the far side (0109/0110) does not let the line into the marsh.
    let b = Build::new(1, 10)
        .terrain("0109", Terrain::Marsh)
        .road(&["0109", "0110"])
        .unit("B.1 inf 6-4 0108");
    let g = loc_game(b, "0110", 100);
    assert_eq!(g.cut_off_units(BLUE, h("0110")).len(), 1);
}

#[test]
fn ruling_17_5_units_off_the_map_are_not_traced() {
    let b = Build::new(10, 10)
        .road(&["0105", "0205"])
        .unit("B.1 inf 6-4 0505")
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    let g = loc_game(b, "0510", 100);
    assert_eq!(g.loc(uid(&g, "B.9")), Loc::Waiting);
    assert_eq!(g.losses()[0], 0);
}

#[test]
fn ruling_17_5_the_line_may_end_in_an_enemy_zone_of_control_but_not_on_an_enemy() {
    // One row: R.1 at 0101 controls 0102 only. The target 0102 lies in its zone, and B.1
    // (0105) reaches it through 0104 and 0103, which are free (our ruling on 17.5).
    let b = Build::new(1, 10)
        .unit("B.1 inf 6-4 0105")
        .unit("R.1 inf 6-4 0101");
    let g = loc_game(b.clone(), "0102", 100);
    assert!(g.controlled_by(RED, h("0102")));
    assert!(g.cut_off_units(BLUE, h("0102")).is_empty());
    // A target held by an enemy unit cannot be reached at all.
    let g = loc_game(b, "0101", 100);
    assert_eq!(g.cut_off_units(BLUE, h("0101")).len(), 1);
}

#[test]
fn ruling_17_1_levels_are_also_checked_when_the_game_turn_changes() {
    // Blue loses 6 in game-turn 1 (level 50); from game-turn 2 its level is 5.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 36-4 0605");
    let mut g = b.game_with(|f| f.demoralization = levels(&[([1, 1], 50, 50), ([2, 5], 5, 50)]));
    act(&mut g, "end");
    // 6 against 36 is 1-5, a 3 is Ae.
    acts(
        &mut g,
        &["attack B.1 R.1", "end", "resolve R.1", "roll 3", "hold"],
    );
    assert_eq!(g.losses(), &[6, 0]);
    assert_eq!(g.phasing(), RED);
    pass(&mut g);
    let o = outcome(&g);
    assert_eq!((o.winner, o.case), (Some(RED), "17.2"));
    assert_eq!(g.turn(), 2);
}

#[test]
fn ruling_14_62_reinforcements_due_in_the_lost_movement_phase_enter_next_turn() {
    let mut b = entry_map()
        .unit("B.9 inf 6-4 @1:0105:north")
        .unit("R.1 inf 6-4 0909");
    b.hooks.no_movement_first_turn = Some("Blue".into());
    let mut g = b.game();
    assert_eq!(g.step(), Step::Declare);
    assert_eq!(refused(&g, "move B.9 0205"), "14.62");
    act(&mut g, "end");
    pass(&mut g);
    assert_eq!((g.turn(), g.step()), (2, Step::Movement));
    act(&mut g, "move B.9 0205");
    assert_eq!(at(&g, "B.9"), Some(h("0205")));
}

#[test]
fn ruling_15_0_with_every_road_hex_of_the_edge_blocked_the_delay_goes_on() {
    // R.2, R.1 and R.3 control the three north-edge road hexes 0102, 0105 and 0108.
    let b = entry_map()
        .unit("B.1 inf 6-4 0909")
        .unit("B.9 inf 6-4 @2:0105:north")
        .unit("R.1 inf 6-4 0204")
        .unit("R.2 inf 6-4 0201")
        .unit("R.3 inf 6-4 0207");
    let mut g = b.game();
    let view = |g: &Game| g.units()[uid(g, "B.9").0 as usize].arrival;
    for turn in 2..=4 {
        pass(&mut g);
        pass(&mut g);
        assert_eq!(g.turn(), turn);
        assert_eq!(refused(&g, "move B.9 0205"), "15.0");
        assert_eq!(view(&g), Some((turn + 1, h("0105"))));
    }
}
