//! The special rules as played (Saxon Garrison, Bavarian Defection, Austrian Intervention,
//! German Rebellion, the Northern Option) and the take-back limit (L29).

mod common;
use common::*;
use engine::Rules;
use leipzig_1813::game::Status;
use leipzig_1813::{Action, Event, Game};

/// Ends steps until the given turn's `player` movement phase begins.
fn until(g: &mut Game, turn: u32, player: u8) {
    while !(g.turn() == turn
        && g.player() == player
        && g.step() == leipzig_1813::game::Step::Movement)
    {
        // Place what arrives where it first may.
        let mut buf = Vec::new();
        g.legal_actions(&mut buf);
        // Units bound to withdraw in an armistice (L41) move first.
        let a = buf
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Place { .. } | Action::Disband { .. }))
            .or_else(|| buf.contains(&Action::End).then_some(Action::End))
            .unwrap_or(buf[0]);
        g.apply(a).unwrap();
    }
}

#[test]
fn l27_saxon_garrison_exerts_no_zone_of_control_until_it_may_move() {
    let mut g = game(1);
    g.stage_empty(2, 0);
    let h = open_ground(&g, 3);
    let s = g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit_mut(s).saxon = true;
    let n = g.board().index(steps(&g, h, 0, 1)).unwrap();
    assert_eq!(g.zones_of_control()[n][0], 0);
    g.stage_empty(3, 0);
    let s = g.stage_unit(0, "infantry-division", h).unwrap();
    g.stage_unit_mut(s).saxon = true;
    assert_eq!(g.zones_of_control()[n][0], 1);
}

#[test]
fn l29_every_action_since_the_last_die_may_be_taken_back() {
    let mut g = staged(0);
    let h = open_ground(&g, 3);
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    let t = format!("march {} double", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.undoable(), 1);
    let t = format!("press {}", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.undoable(), 2);
    g.apply(Action::Roll(1)).unwrap();
    assert_eq!(g.undoable(), 0);
    assert_eq!(g.undo_refusal().case, "L29");
}

#[test]
fn bavarian_defection_the_allies_receive_the_bavarians_when_the_french_fall_behind() {
    let mut g = staged(1);
    let berlin = g.board().cities[0].unwrap();
    g.stage_unit(1, "infantry-division", berlin).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    // End of turn 25: French 0, Allies 15.
    assert_eq!(g.bavaria_defected(), Some(25));
    until(&mut g, 26, 1);
    let bavarians: Vec<usize> = (0..g.units().len())
        .filter(|&i| g.units()[i].side == 1 && g.nationality(&g.units()[i]) == "Bavarian")
        .collect();
    // Six infantry divisions, two cavalry, one supply unit, on the south edge.
    assert_eq!(bavarians.len(), 9);
    let south = g.board().size.0;
    assert!(bavarians
        .iter()
        .all(|&i| g.placement_hexes(i).iter().all(|h| h.x == south)));
}

#[test]
fn austrian_intervention_french_combat_losses_twice_the_allies_bring_austria_in() {
    let mut g = game(8);
    g.stage_empty(6, 1);
    let h = open_ground(&g, 4);
    g.stage_unit(1, "infantry-army", h).unwrap();
    let n = steps(&g, h, 0, 1);
    g.stage_unit(0, "infantry-division", n).unwrap();
    let s = g.stage_unit(1, "supply", h).unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    g.apply(Action::Supply { unit: s as u16 }).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::Roll(1)).unwrap();
    assert_eq!(g.losses(0).combat, 1);
    assert_eq!(g.austria_intervened(), Some(6));
    assert!(g.austria_open());
    until(&mut g, 7, 1);
    let austrians = (0..g.units().len())
        .filter(|&i| g.units()[i].side == 1 && g.nationality(&g.units()[i]) == "Austrian")
        .count();
    // Fourteen infantry, two cavalry, a supply unit and leaders 1 and 6 around Prague.
    assert_eq!(austrians, 19);
}

#[test]
fn l32_no_intervention_while_the_french_have_lost_nothing() {
    let mut g = game(8);
    g.stage_empty(6, 1);
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!(g.austria_intervened(), None);
    assert!(!g.austria_open());
}

#[test]
fn german_rebellion_cancels_french_reinforcements_and_removes_two_divisions_a_turn() {
    let mut g = game(8);
    g.stage_empty(14, 1);
    let h = open_ground(&g, 3);
    g.stage_unit(0, "infantry-corps", h).unwrap();
    let d = g.stage_unit(0, "infantry-division", h).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player()), (15, 0));
    assert!(g.rebellion());
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::SpecialRule { rule, .. } if rule == "German Rebellion")));
    assert_eq!(g.check(Action::End).unwrap_err().case, "German Rebellion");
    let t = format!("disband {}", g.label(d));
    act(&mut g, &t);
    assert_eq!(g.units()[d].status, Status::Gone);
    // One more division is due: the corps goes (it counts two).
    assert!(g.check(Action::End).is_err());
    // No French reinforcement arrived on turn 15.
    assert!(!g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Reinforcements { side, .. } if side == "French")));
}

#[test]
fn northern_option_the_allies_then_the_french_receive_forces_after_berlin_falls() {
    let mut g = staged(0);
    let berlin = g.board().cities[0].unwrap();
    g.stage_unit(0, "infantry-division", berlin).unwrap();
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::SpecialRule { rule, .. } if rule == "Northern Option")));
    until(&mut g, 26, 1);
    let north: Vec<usize> = (0..g.units().len())
        .filter(|&i| {
            g.units()[i].status == Status::Pending && g.placement_hexes(i).iter().all(|h| h.x == 1)
        })
        .collect();
    // Two infantry divisions and one cavalry on the north edge east of the Elbe.
    assert_eq!(north.len(), 3);
}

#[test]
fn armistice_no_zones_no_combat_no_recrossing_and_austria_intervenes() {
    let mut g = game(8);
    g.stage_empty(3, 0);
    assert_eq!(g.check(Action::Armistice).unwrap_err().case, "Armistice");
    g.stage_empty(5, 0);
    // A French unit on its side of the line, next to the line; an Allied unit beside it.
    let b = g.board();
    let (h, n) = (0..b.len())
        .map(|i| b.hex_at(i))
        .filter(|&h| b.hex(h).zone == 0 && b.hex(h).kind == 0)
        .find_map(|h| {
            b.neighbours(h)
                .find(|&(d, n)| b.hex(n).zone == 1 && b.hex(n).kind == 0 && b.side(h, d).cost == 1)
                .map(|(_, n)| (h, n))
        })
        .unwrap();
    let f = g.stage_unit(0, "cavalry-division", h).unwrap();
    let a = g
        .stage_unit(1, "infantry-division", steps(&g, n, 0, 2))
        .unwrap();
    assert!(g.moves(f).iter().any(|&(x, _)| x == n));
    act(&mut g, "armistice");
    assert_eq!(g.armistice_called(), Some(5));
    assert!(g.armistice_active());
    // Austrian Intervention 1.
    assert_eq!(g.austria_intervened(), Some(5));
    assert!(g.zones_of_control().iter().all(|z| *z == [0, 0]));
    // No crossing back over the line.
    assert!(g.moves(f).iter().all(|&(x, _)| g.board().hex(x).zone == 0));
    // No combat.
    let _ = a;
    assert_eq!(refusal(&g, "armistice").case, "Armistice");
    g.apply(Action::End).unwrap();
    assert_eq!(
        g.check(Action::Attack { from: h, to: n }).unwrap_err().case,
        "Armistice"
    );
    // It lasts eleven complete turns after its own.
    g.stage_empty(16, 0);
    assert!(g.armistice_active());
    g.stage_empty(17, 0);
    assert!(!g.armistice_active());
}

#[test]
fn german_rebellion_1_an_armistice_averts_it() {
    let mut g = game(8);
    g.stage_empty(14, 1);
    let h = open_ground(&g, 3);
    g.stage_unit(0, "infantry-corps", h).unwrap();
    g.stage_empty(5, 0);
    act(&mut g, "armistice");
    g.stage_empty(14, 1);
    g.stage_unit(0, "infantry-corps", h).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player()), (15, 0));
    assert!(!g.rebellion());
}

/// A clear hex on the Allied side of the armistice line, `k` hexes from the French side.
fn allied_side_hex(g: &Game, k: u16) -> hexmap::Hex {
    let b = g.board();
    (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| {
            let i = b.hex(h);
            i.zone == 1
                && i.kind == 0
                && b.neighbours(h).count() == 6
                && (0..b.len())
                    .map(|j| b.hex_at(j))
                    .filter(|&x| b.hex(x).zone == 0)
                    .map(|x| b.distance(h, x))
                    .min()
                    == Some(u32::from(k))
        })
        .expect("a clear hex across the line")
}

#[test]
fn l41_armistice_units_across_the_line_withdraw_toward_their_side() {
    let mut g = game(8);
    g.stage_empty(5, 0);
    let h = allied_side_hex(&g, 4);
    let f = g.stage_unit(0, "infantry-division", h).unwrap();
    act(&mut g, "armistice");
    assert!(g.must_withdraw(f));
    // Every move brings it nearer its side (or into a fortress as a garrison).
    let b = g.board();
    let near = |x: hexmap::Hex| {
        (0..b.len())
            .map(|j| b.hex_at(j))
            .filter(|&y| b.hex(y).zone == 0)
            .map(|y| b.distance(x, y))
            .min()
            .unwrap()
    };
    let moves = g.moves(f);
    assert!(!moves.is_empty());
    assert!(moves
        .iter()
        .all(|&(x, _)| near(x) < near(h) || b.hex(x).fortress));
    // It may not stay where it is.
    assert_eq!(refusal(&g, "end").case, "Armistice");
    let to = moves
        .iter()
        .map(|&(x, _)| x)
        .min_by_key(|&x| near(x))
        .unwrap();
    let t = format!("move {} {to}", g.label(f));
    act(&mut g, &t);
    g.check(Action::End).unwrap();
}

#[test]
fn l41_armistice_fortresses_across_the_line_keep_six_divisions() {
    let mut g = game(8);
    g.stage_empty(5, 0);
    let b = g.board();
    let fort = (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| b.hex(h).fortress && b.hex(h).zone == 1)
        .expect("a fortress on the Allied side");
    let corps: Vec<usize> = (0..4)
        .map(|_| g.stage_unit(0, "infantry-corps", fort).unwrap())
        .collect();
    act(&mut g, "armistice");
    // Eight divisions: the surplus leaves, toward the French side.
    assert!(corps.iter().all(|&c| g.must_withdraw(c)));
    assert_eq!(refusal(&g, "end").case, "Armistice");
    let to = g.moves(corps[0])[0].0;
    let t = format!("move {} {to}", g.label(corps[0]));
    act(&mut g, &t);
    // Six left: they stay for the armistice.
    assert!(corps[1..]
        .iter()
        .all(|&c| !g.must_withdraw(c) && g.moves(c).is_empty()));
    // Another division may not join them.
    assert!(g.moves(corps[0]).iter().all(|&(x, _)| x != fort));
}

#[test]
fn l41_armistice_allied_units_leave_by_the_east_edge_and_return_in_austria() {
    let mut g = game(8);
    g.stage_empty(5, 0);
    let b = g.board();
    let edge = (0..b.len())
        .map(|i| b.hex_at(i))
        .find(|&h| h.y == 1 && b.hex(h).zone == 1 && !b.hex(h).austria && b.hex(h).kind == 0)
        .expect("an east edge hex north of Austria");
    let a = g.stage_unit(1, "infantry-division", edge).unwrap();
    // Not before the armistice.
    g.stage_step(leipzig_1813::game::Step::Movement);
    act(&mut g, "armistice");
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!((g.turn(), g.player()), (5, 1));
    let t = format!("exit {}", g.label(a));
    act(&mut g, &t);
    assert_eq!(g.units()[a].status, Status::Gone);
    assert_eq!(g.away(), vec![(a, 13)]);
    until(&mut g, 13, 1);
    assert!(g.away().is_empty());
    let u = &g.units()[a];
    match u.status {
        Status::OnMap => assert!(g.board().hex(u.hex).austria),
        Status::Pending => assert!(g
            .placement_hexes(a)
            .iter()
            .all(|&h| g.board().hex(h).austria)),
        s => panic!("{s:?}"),
    }
    // A French unit never leaves this way.
    let mut g = game(8);
    g.stage_empty(5, 0);
    let f = g.stage_unit(0, "infantry-division", edge).unwrap();
    act(&mut g, "armistice");
    assert!(!g.may_exit(f));
}
