//! The turn ([5.1.2], [5.1.3]), rallies ([6]) and the states of units ([2.4.1]).

mod common;
use common::*;
use engine::{Rules, ToAct};
use hex_miniatures::action::Formation;
use hex_miniatures::army::{Kind, Order};
use hex_miniatures::{Event, Stage};
use hexmap::Dir;

fn two() -> hex_miniatures::Game {
    game(battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "0808")],
        &[("blue", 0, "0205"), ("red", 1, "0908")],
        2,
    ))
}

fn stages(events: &[Event], side: u8) -> Vec<Stage> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::StageBegan { side: s, stage } if *s == side => Some(*stage),
            _ => None,
        })
        .collect()
}

#[test]
fn sequence_5_1_2_a_player_turn_is_rally_orders_movement_combat_crisis() {
    let mut g = two();
    assert_eq!((g.turn(), g.phasing().0, g.stage()), (1, 0, Stage::Orders));
    let seen = until(&mut g, 1, Stage::Orders, 500);
    assert_eq!(
        stages(&seen, 0),
        [
            Stage::Rally,
            Stage::Orders,
            Stage::Movement,
            Stage::Artillery,
            Stage::Attacks,
            Stage::Resolution,
            Stage::Crisis
        ]
    );
    // [5.1.3]: the second army then takes the attacking stage
    assert_eq!(stages(&seen, 1), [Stage::Rally, Stage::Orders]);
}

#[test]
fn sequence_5_1_3_the_turn_ends_after_both_parts_and_the_clock_moves_ten_minutes() {
    let mut g = two();
    assert_eq!(g.minute(), 720);
    until(&mut g, 1, Stage::Orders, 500);
    assert_eq!((g.turn(), g.minute()), (1, 720));
    let seen = until(&mut g, 0, Stage::Orders, 500);
    assert_eq!((g.turn(), g.minute()), (2, 730));
    assert!(seen.iter().any(|e| matches!(
        e,
        Event::TurnBegan {
            turn: 2,
            minute: 730,
            ..
        }
    )));
}

#[test]
fn sequence_14_the_battle_ends_after_its_last_turn() {
    let mut g = two();
    let mut n = 0;
    while !matches!(g.to_act(), ToAct::Over(_)) {
        match g.to_act() {
            ToAct::Chance => draw(&mut g, 500),
            _ => act(&mut g, "end"),
        }
        n += 1;
        assert!(n < 1000);
    }
    assert_eq!(g.turn(), 2);
    let ToAct::Over(o) = g.to_act() else {
        unreachable!()
    };
    assert_eq!((o.case, o.winner), ("14", None));
    assert_eq!(refused(&g, "end"), "14");
}

/// Ends stages until a chance event is pending.
fn to_chance(g: &mut hex_miniatures::Game) {
    for _ in 0..100 {
        if matches!(g.to_act(), ToAct::Chance) {
            return;
        }
        act(g, "end");
    }
    panic!("no chance event");
}

#[test]
fn rally_6_1_a_disrupted_unit_rallies_on_its_morale_or_stays_disordered() {
    for (n, after) in [(549, Order::Disordered), (550, Order::Ordered)] {
        let mut g = two();
        set(&mut g, "F1", Order::Disordered, Formation::Line, Dir::NE);
        to_chance(&mut g);
        // [6]: the French rally in their own part of the turn
        assert_eq!((g.phasing().0, g.stage()), (1, Stage::Rally));
        draw(&mut g, n);
        assert_eq!(g.unit(unit(&g, "F1")).order, after, "draw {n}");
        assert!(g
            .events()
            .iter()
            .any(|e| matches!(e, Event::Rally { needed: 550, .. })));
    }
}

#[test]
fn rally_6_3_a_general_in_the_hex_adds_0_100() {
    let mut g = game(battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "0808")],
        &[("blue", 0, "0205"), ("red", 1, "0808")],
        2,
    ));
    set(&mut g, "F1", Order::Disordered, Formation::Line, Dir::NE);
    to_chance(&mut g);
    draw(&mut g, 450);
    assert_eq!(g.unit(unit(&g, "F1")).order, Order::Ordered);
}

#[test]
fn rally_6_2_a_routed_unit_needs_0_800_else_it_routs_on_toward_its_rear() {
    let mut g = two();
    set(&mut g, "F1", Order::Routed, Formation::Line, Dir::SW);
    to_chance(&mut g);
    draw(&mut g, 799);
    let f1 = g.unit(unit(&g, "F1"));
    assert_eq!(f1.order, Order::Routed);
    // it ran a hex toward the French rear (row 10)
    let hex_miniatures::game::Loc::Map(h) = f1.loc else {
        panic!("{:?}", f1.loc)
    };
    assert_eq!(h.x, 9);
    let mut g = two();
    set(&mut g, "F1", Order::Routed, Formation::Line, Dir::SW);
    to_chance(&mut g);
    draw(&mut g, 800);
    // [6.2]: rallied to disrupted, not to order
    assert_eq!(g.unit(unit(&g, "F1")).order, Order::Disordered);
}

#[test]
fn states_2_4_1_5_a_rout_off_its_own_edge_leaves_the_battle_and_counts() {
    let mut g = game(battle(
        &[("P1", 0, Kind::Line, "0305"), ("F1", 1, Kind::Line, "1008")],
        &[("blue", 0, "0205")],
        2,
    ));
    set(&mut g, "F1", Order::Routed, Formation::Line, Dir::SW);
    to_chance(&mut g);
    draw(&mut g, 0);
    assert_eq!(g.unit(unit(&g, "F1")).loc, hex_miniatures::game::Loc::Gone);
    assert_eq!(g.casualties()[1], (5, 5));
}
