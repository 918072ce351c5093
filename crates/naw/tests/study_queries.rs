//! The what-if queries of the study tools (`grognard reach`, `grognard retreats`): pinned
//! against the rules' own answers where the rules give one.

mod common;
use common::*;
use hexmap::Hexside;
use naw::{Game, Step};

fn hexes(v: &[naw::Destination]) -> Vec<(String, u16)> {
    let mut out: Vec<_> = v.iter().map(|d| (d.hex.to_string(), d.cost_half)).collect();
    out.sort();
    out
}

fn dests(g: &Game, id: &str) -> Vec<(String, u16)> {
    let mut v = Vec::new();
    g.destinations(uid(g, id), &mut v);
    hexes(&v)
}

#[test]
fn reach_is_the_movement_phase_to_come_as_the_rules_search_it() {
    // Red moves second: its next movement phase is later in this game-turn.
    let b = Build::new(6, 10)
        .unit("B.1 inf 6-4 0303")
        .unit("R.1 inf 6-4 0307")
        .unit("R.2 cav 4-6 0509")
        .side("0306", "0305", Hexside::STREAM);
    let g = b.game();
    assert_eq!(g.next_movement_turn(RED), Some(1));
    assert_eq!(g.next_movement_turn(BLUE), Some(1), "Blue is moving now");
    let r1 = hexes(&g.reach(uid(&g, "R.1"), 1));
    let r2 = hexes(&g.reach(uid(&g, "R.2"), 1));
    assert!(!r1.is_empty() && !r2.is_empty());
    // the phasing unit: the same as its destinations now
    assert_eq!(hexes(&g.reach(uid(&g, "B.1"), 1)), dests(&g, "B.1"));
    // Blue passes: Red's destinations are the reach computed before
    let mut g = g;
    acts(&mut g, &["end", "end"]);
    assert_eq!(g.step(), Step::Movement);
    assert_eq!(dests(&g, "R.1"), r1);
    assert_eq!(dests(&g, "R.2"), r2);
    // now Blue's next movement phase is the next game-turn
    assert_eq!(g.next_movement_turn(BLUE), Some(2));
}

#[test]
fn reach_stops_at_zones_of_control_and_holds_a_unit_in_one() {
    // R.1 at 0305 is held in B.1's zone (5.13): no reach at all.
    let b = Build::new(6, 10)
        .unit("B.1 inf 6-4 0304")
        .unit("R.1 inf 6-4 0305")
        .unit("R.2 inf 6-4 0308");
    let g = b.game();
    assert!(g.reach(uid(&g, "R.1"), 1).is_empty());
    // R.2 may enter B.1's zone (0205, 0405...) but not pass through it (6.0)
    let r2 = g.reach(uid(&g, "R.2"), 1);
    assert!(r2.iter().all(|d| d.hex != h("0303")));
    assert!(r2.iter().any(|d| d.hex == h("0306")));
}

#[test]
fn no_movement_phase_after_the_last_turn() {
    let mut b = Build::new(4, 4)
        .unit("B.1 inf 6-4 0101")
        .unit("R.1 inf 6-4 0404");
    b.last_turn = 1;
    let mut g = b.game();
    acts(&mut g, &["end", "end"]);
    assert_eq!(g.next_movement_turn(BLUE), None);
    assert_eq!(g.next_movement_turn(RED), Some(1));
}

#[test]
fn reach_targets_are_the_declarations_reach() {
    // B.1 could attack R.1 from 0304 but not across the river into R.2 (9.0); the artillery
    // at 0302 reaches two hexes (8.11).
    let b = Build::new(6, 10)
        .unit("B.1 inf 6-4 0303")
        .unit("B.2 art 3-4 0101")
        .unit("R.1 inf 6-4 0305")
        .unit("R.2 inf 6-4 0404")
        .side("0304", "0404", Hexside::RIVER);
    let g = b.game();
    let ids = |v: Vec<naw::UnitId>| {
        v.into_iter()
            .map(|u| g.id(u).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(g.reach_targets(uid(&g, "B.1"), h("0304"))), vec!["R.1"]);
    assert!(ids(g.reach_targets(uid(&g, "B.2"), h("0303"))).contains(&"R.1".to_string()));
    assert!(g.reach_targets(uid(&g, "B.1"), h("0101")).is_empty());
}

#[test]
fn retreat_choices_vacant_displacement_and_none() {
    // One row of hexes: R.1 at 0105 between B.1 (0106) and its friend R.2 (0104).
    let b = Build::new(1, 10)
        .unit("B.1 inf 6-4 0106")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0104");
    let g = b.game();
    let c = g.retreat_choices(uid(&g, "R.1")).unwrap();
    assert!(!c.retreating);
    assert!(c.vacant.is_empty());
    assert_eq!(c.displace, vec![(h("0104"), uid(&g, "R.2"))]);
    let c = g.retreat_choices(uid(&g, "R.2")).unwrap();
    assert_eq!(c.vacant, vec![h("0103")]);

    // B.2 at 0102 controls 0103: R.2 could not make way, so R.1 would be eliminated (7.82)
    let g = b.clone().unit("B.2 inf 6-4 0102").game();
    let c = g.retreat_choices(uid(&g, "R.1")).unwrap();
    assert!(c.vacant.is_empty() && c.displace.is_empty());
}

#[test]
fn retreat_choices_of_a_retreating_unit_are_its_legal_retreats() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0806")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    acts(&mut g, &["attack B.1 R.1", "end", "resolve R.1", "roll 1"]);
    assert_eq!(g.step(), Step::Retreat);
    let c = g.retreat_choices(uid(&g, "R.1")).unwrap();
    assert!(c.retreating);
    let mut legal: Vec<String> = legal_texts(&g)
        .into_iter()
        .filter_map(|t| t.strip_prefix("retreat R.1 ").map(String::from))
        .collect();
    legal.sort();
    let mut mine: Vec<String> = c.vacant.iter().map(|h| h.to_string()).collect();
    mine.sort();
    assert_eq!(mine, legal);
    assert!(!mine.contains(&"0706".to_string()));
}
