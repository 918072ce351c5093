//! The set-up, the turn sequence, reinforcements and the end of the game (How to Use the
//! Scenarios, General Course of Play, the Reinforcement Chart, How to Win).

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use leipzig_1813::game::{Status, Step};
use leipzig_1813::{Action, Event};

/// Places every pending unit of the side to act on the first hex offered, then ends.
fn place_all(g: &mut leipzig_1813::Game) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        g.legal_actions(&mut buf);
        match buf.iter().find(|a| matches!(a, Action::Place { .. })) {
            Some(&a) => g.apply(a).unwrap(),
            None => break,
        }
    }
    g.apply(Action::End).unwrap();
}

#[test]
fn how_to_use_the_scenarios_the_allies_deploy_first_and_directly_on_units_stand_placed() {
    let mut g = game(1);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    assert_eq!(g.step(), Step::Setup);
    // The French spring units "directly on" their places are on the map already.
    let magdeburg = g
        .scenario()
        .setup
        .iter()
        .find(|p| p.side == "French")
        .unwrap()
        .hexes[0];
    assert_eq!(g.units_at(magdeburg).len(), 6 + 1 + 1 + 3);
    // An Allied unit is placed only within two hexes of its place.
    let u = (0..g.units().len())
        .find(|&i| g.units()[i].status == Status::Pending)
        .unwrap();
    let ok = g.placement_hexes(u);
    assert!(!ok.is_empty() && ok.len() <= 19);
    let far = hexmap::Hex::new(1, 1);
    assert!(!ok.contains(&far));
    let r = refusal(&g, &format!("place {} {far}", g.label(u)));
    assert_eq!(r.case, "How to Use the Scenarios");
    // The set-up ends only when every unit stands.
    assert_eq!(
        g.check(Action::End).unwrap_err().case,
        "How to Use the Scenarios"
    );
    place_all(&mut g);
    // Then the French (who may combine what stands together), then the French move first.
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
    assert_eq!(g.step(), Step::Setup);
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player(), g.step()), (1, 0, Step::Movement));
}

#[test]
fn how_to_use_the_scenarios_units_may_begin_combined() {
    let mut g = game(1);
    place_all(&mut g);
    let magdeburg = g
        .scenario()
        .setup
        .iter()
        .find(|p| p.side == "French")
        .unwrap()
        .hexes[0];
    let before = g.units_at(magdeburg).len();
    let t = format!("combine {magdeburg} infantry-army");
    act(&mut g, &t);
    // Six divisions became one army, at no cost in movement points.
    assert_eq!(g.units_at(magdeburg).len(), before - 5);
    let army = *g
        .units_at(magdeburg)
        .iter()
        .find(|&&i| g.kind(&g.units()[i]).id == "infantry-army")
        .unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!(g.units()[army].mp, 2);
}

#[test]
fn general_course_of_play_french_then_allied_player_turns_each_movement_then_combat() {
    let mut g = game(5);
    place_all(&mut g);
    place_all(&mut g);
    assert_eq!((g.turn(), g.player(), g.step()), (24, 0, Step::Movement));
    g.apply(Action::End).unwrap();
    assert_eq!(g.step(), Step::Attack);
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player(), g.step()), (24, 1, Step::Movement));
    assert_eq!(g.to_act(), ToAct::Side(Side(1)));
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player()), (25, 0));
}

#[test]
fn reinforcement_chart_units_arrive_on_their_turn_and_are_placed_first() {
    let mut g = game(5);
    place_all(&mut g);
    place_all(&mut g);
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    // Turn 24's Allied movement: then turn 25 brings the French their "1i, S" on the west edge.
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player()), (25, 0));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Reinforcements { side, .. } if side == "French")));
    let pending: Vec<usize> = (0..g.units().len())
        .filter(|&i| g.units()[i].status == Status::Pending && g.units()[i].side == 0)
        .collect();
    assert!(!pending.is_empty());
    // Nothing else until they are placed; they go on the west edge.
    assert_eq!(
        g.check(Action::End).unwrap_err().case,
        "Reinforcement Chart"
    );
    let west = g.board().size.1;
    assert!(g.placement_hexes(pending[0]).iter().all(|h| h.y == west));
}

#[test]
fn how_to_win_the_last_turn_ends_the_game_on_victory_points() {
    let mut g = staged(1);
    g.stage_empty(35, 1);
    let berlin = g.board().cities[0].unwrap();
    g.stage_unit(0, "infantry-division", berlin).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    let ToAct::Over(o) = g.to_act() else {
        panic!("the game goes on")
    };
    // Scenario 5: Berlin is worth 15 to the French, who hold it.
    assert_eq!(g.victory_points(), [15, 0]);
    assert_eq!(o.winner, Some(Side(0)));
    assert_eq!(o.case, "How to Win");
}

#[test]
fn saxon_garrison_may_not_move_nor_be_attacked_before_turn_three() {
    let mut g = game(1);
    place_all(&mut g);
    g.apply(Action::End).unwrap();
    let saxon = (0..g.units().len()).find(|&i| g.units()[i].saxon).unwrap();
    assert!(g.moves(saxon).is_empty());
    let h = g.units()[saxon].hex;
    let to = g.board().neighbours(h).next().unwrap().1;
    assert_eq!(
        refusal(&g, &format!("move {} {to}", g.label(saxon))).case,
        "Saxon Garrison"
    );
}

#[test]
fn reconnaissance_the_french_see_allied_units_only_once_revealed() {
    let mut g = game(1);
    place_all(&mut g);
    g.apply(Action::End).unwrap();
    let allied: Vec<usize> = (0..g.units().len())
        .filter(|&i| g.units()[i].side == 1 && g.units()[i].on_map())
        .collect();
    // Most stand far from any French unit: hidden from the French, seen by the Allies.
    assert!(allied.iter().any(|&i| !g.sees(0, i)));
    assert!(allied.iter().all(|&i| g.sees(1, i)));
    assert!(!g.visible(Side(1), engine::Viewer::Seat(Side(0))));
    assert!(g.visible(Side(0), engine::Viewer::Seat(Side(1))));
    // No reconnaissance in the summer.
    let s = game(5);
    assert!((0..s.units().len()).all(|i| s.sees(0, i)));
}

#[test]
fn reconnaissance_french_cavalry_moving_next_to_allied_units_reveals_them() {
    let mut g = game(1);
    let h = open_ground(&g, 4);
    g.stage_empty(1, 0);
    let cav = g.stage_unit(0, "cavalry-division", h).unwrap();
    let a = g
        .stage_unit(1, "infantry-division", steps(&g, h, 0, 3))
        .unwrap();
    assert!(!g.sees(0, a));
    let t = format!("move {} {}", g.label(cav), steps(&g, h, 0, 2));
    act(&mut g, &t);
    assert!(g.sees(0, a));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Revealed { .. })));
}

#[test]
fn how_to_win_esm_complete_french_groups_off_the_east_edge_score() {
    let mut g = game(1);
    g.stage_empty(2, 0);
    let b = g.board();
    let east = (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|h| h.y == 1 && !b.hex(*h).austria && b.hex(*h).kind == 0)
        .unwrap();
    let army = g.stage_unit(0, "infantry-army", east).unwrap();
    let l = g.stage_leader(0, 2, east);
    let s = g.stage_unit(0, "supply", east).unwrap();
    for u in [army, l] {
        let t = format!("exit {}", g.label(u));
        act(&mut g, &t);
    }
    // Partial groups earn nothing.
    assert_eq!(g.exit_groups(), 0);
    let t = format!("exit {}", g.label(s));
    act(&mut g, &t);
    assert_eq!(g.exit_groups(), 1);
    assert_eq!(g.victory_points()[0], 6);
    assert_eq!(g.units()[army].status, Status::Gone);
    // Not in the summer: the schedule gives no ESM there.
    let mut g = staged(0);
    let d = g.stage_unit(0, "infantry-division", east).unwrap();
    assert_eq!(
        refusal(&g, &format!("exit {}", g.label(d))).case,
        "How to Win"
    );
}

#[test]
fn l46_reconnaissance_the_allies_choose_which_revealed_units_to_invert_again() {
    let mut g = game(1);
    let h = open_ground(&g, 4);
    g.stage_empty(2, 1);
    let a = g.stage_unit(1, "infantry-division", h).unwrap();
    let b = g
        .stage_unit(1, "infantry-division", steps(&g, h, 0, 2))
        .unwrap();
    // Revealed in the French player-turn: they stay revealed until the Allies invert them.
    g.stage_unit_mut(a).revealed = 1;
    g.stage_unit_mut(b).revealed = 2;
    assert!(g.sees(0, a) && g.sees(0, b));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.contains(&Action::Hide { unit: a as u16 }));
    assert!(legal.contains(&Action::Hide { unit: b as u16 }));
    let t = format!("hide {}", g.label(a));
    act(&mut g, &t);
    assert!(!g.sees(0, a));
    assert_eq!(
        refusal(&g, &format!("hide {}", g.label(a))).case,
        "Reconnaissance"
    );
    // Only at the beginning of the phase: once an Allied unit has moved, b stays shown.
    let to = g.moves(a)[0].0;
    let t = format!("move {} {to}", g.label(a));
    act(&mut g, &t);
    assert_eq!(
        refusal(&g, &format!("hide {}", g.label(b))).case,
        "Reconnaissance"
    );
    assert!(g.sees(0, b));
    // Not in the summer, where nothing is hidden.
    let mut s = staged(1);
    let c = s.stage_unit(1, "infantry-division", h).unwrap();
    s.stage_unit_mut(c).revealed = 1;
    assert_eq!(
        refusal(&s, &format!("hide {}", s.label(c))).case,
        "Reconnaissance"
    );
}
