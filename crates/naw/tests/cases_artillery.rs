//! Artillery (8.0-8.52): bombardment, combined attacks, line of sight, adjacent attacks,
//! defence.

mod common;
use common::*;
use engine::{Rules, ToAct};
use hexmap::{line_of_sight, Hexside, LosStep, Terrain};
use naw::{Game, Step};

fn declare(b: &Build, attacks: &[&str]) -> Game {
    let mut g = b.game();
    act(&mut g, "end");
    for a in attacks {
        act(&mut g, &format!("attack {a}"));
    }
    act(&mut g, "end");
    g
}

fn resolve_with(g: &mut Game, target: &str, die: u8) {
    act(g, &format!("resolve {target}"));
    act(g, &format!("roll {die}"));
}

/// Blue artillery at 0503, two hexes from R.1 at 0505 (the hex between is 0504).
fn battery(art: u32, def: u32) -> Build {
    Build::new(10, 10)
        .unit(&format!("B.7 art {art}-4 0503"))
        .unit(&format!("R.1 inf {def}-4 0505"))
}

fn declare_start(b: &Build) -> Game {
    let mut g = b.game();
    act(&mut g, "end");
    g
}

// ---------------------------------------------------------------- 8.0

#[test]
fn case_8_0_artillery_bombards_from_two_hexes_and_is_spared_its_results() {
    let mut g = declare(&battery(1, 6), &["B.7 R.1"]);
    assert_eq!(g.combats()[0].bombarding.len(), 1);
    // 1 against 6 is 1-5, a 3 is Ae: the bombarding battery is untouched.
    resolve_with(&mut g, "R.1", 3);
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
    assert_eq!(g.losses(), &[0, 0]);
    // Adjacent, it must attack.
    let b = Build::new(10, 10)
        .unit("B.7 art 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let g = declare_start(&b);
    assert_eq!(refused(&g, "end"), "8.41");
}

// ---------------------------------------------------------------- 8.1 bombardment

#[test]
fn case_8_11_artillery_reaches_two_hexes_and_is_never_forced_to_bombard() {
    let g = declare_start(&battery(6, 6));
    assert!(g.open_obligations().is_empty());
    assert!(accepted(&g, "end"));
    assert!(accepted(&g, "attack B.7 R.1"));
    let b = Build::new(10, 10)
        .unit("B.7 art 6-4 0503")
        .unit("R.1 inf 6-4 0506");
    assert_eq!(refused(&declare_start(&b), "attack B.7 R.1"), "8.11");
}

#[test]
fn case_8_12_range_counts_the_target_hex_not_the_firing_hex() {
    // 0504 is one, 0505 two.
    assert_eq!(h("0503").distance(h("0505")), 2);
    let g = declare(&battery(6, 6), &["B.7 R.1"]);
    assert_eq!(g.combats().len(), 1);
}

#[test]
fn case_8_13_bombarding_artillery_alone_attacks_one_hex() {
    let b = battery(6, 6).unit("R.2 inf 6-4 0404");
    let mut g = declare_start(&b);
    act(&mut g, "attack B.7 R.1");
    assert_eq!(refused(&g, "attack B.7 R.2"), "8.13");
}

#[test]
fn case_8_14_bombarding_artillery_is_never_destroyed_or_retreated_by_its_own_attack() {
    // Ex at 6-1 (a 6): the defender is eliminated and the battery owes nothing.
    let mut g = declare(&battery(12, 2), &["B.7 R.1"]);
    resolve_with(&mut g, "R.1", 6);
    assert!(gone(&g, "R.1"));
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
    assert_eq!(g.losses(), &[0, 2]);
    // Ae at 1-5 (a 3): nothing happens to it either.
    let mut g = declare(&battery(1, 6), &["B.7 R.1"]);
    resolve_with(&mut g, "R.1", 3);
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
}

#[test]
fn case_8_15_bombarding_artillery_may_choose_to_take_an_attacker_retreat() {
    // 6 against 6 is 1-1, a 4 is Ar.
    let mut g = declare(&battery(6, 6), &["B.7 R.1"]);
    resolve_with(&mut g, "R.1", 4);
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(g.to_act(), ToAct::Side(BLUE));
    assert!(legal_texts(&g).contains(&"stand B.7".to_string()));
    let mut g2 = g.clone();
    act(&mut g, "stand B.7");
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
    act(&mut g2, "retreat B.7 0502");
    assert_eq!(at(&g2, "B.7"), Some(h("0502")));
    // Only bombarding artillery has the choice.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 4);
    assert_eq!(refused(&g, "stand B.1"), "8.15");
}

// ---------------------------------------------------------------- 8.2 combined attack

#[test]
fn case_8_21_artillery_attacks_alone_with_other_batteries_or_with_adjacent_units() {
    let g = declare(&battery(3, 2), &["B.7 R.1"]);
    assert_eq!(odds(&g, "R.1"), (3, 2, "1-1".to_string()));
    let b = battery(3, 2).unit("B.8 art 4-4 0507");
    // 0507 -> 0505 is two hexes.
    let g = declare(&b, &["B.7 R.1", "B.8 R.1"]);
    assert_eq!(odds(&g, "R.1"), (7, 2, "3-1".to_string()));
    let b = b.unit("B.1 inf 5-4 0506");
    let g = declare(&b, &["B.1 R.1", "B.7 R.1", "B.8 R.1"]);
    assert_eq!(g.combats().len(), 1);
    assert_eq!(odds(&g, "R.1"), (12, 2, "6-1".to_string()));
}

#[test]
fn case_8_22_in_a_multi_hex_combat_artillery_need_reach_only_one_defender() {
    // B.1 (0505) attacks R.1 (0605) and R.2 (0604); the battery at 0602 reaches only R.2.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.7 art 4-4 0602")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let mut g = declare_start(&b);
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "attack B.1 R.2");
    assert_eq!(refused(&g, "attack B.7 R.1"), "8.11");
    act(&mut g, "attack B.7 R.2");
    act(&mut g, "end");
    assert_eq!(g.combats().len(), 1);
    assert_eq!(odds(&g, "R.1"), (10, 6, "1-1".to_string()));
}

#[test]
fn case_8_23_in_a_combined_attack_only_the_adjacent_units_suffer() {
    // 1 + 1 against 6 is 1-3, a 6 is Ae: B.1 dies, the battery does not.
    let b = battery(1, 6).unit("B.1 inf 1-4 0506");
    let mut g = declare(&b, &["B.1 R.1", "B.7 R.1"]);
    assert_eq!(column(&g, "R.1"), "1-3");
    resolve_with(&mut g, "R.1", 6);
    assert!(gone(&g, "B.1"));
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
    // Ex at 6-1: only B.1 may pay.
    let b = battery(8, 2).unit("B.1 inf 4-4 0506");
    let mut g = declare(&b, &["B.1 R.1", "B.7 R.1"]);
    resolve_with(&mut g, "R.1", 6);
    assert!(gone(&g, "B.1") && gone(&g, "R.1"));
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
    assert_eq!(g.losses(), &[4, 2]);
}

// ---------------------------------------------------------------- 8.3 line of sight

#[test]
fn case_8_31_blocking_terrain_between_stops_a_bombardment() {
    let b = battery(6, 6).terrain("0504", Terrain::Forest);
    assert_eq!(refused(&declare_start(&b), "attack B.7 R.1"), "8.31");
}

#[test]
fn case_8_32_a_line_along_a_hexside_is_blocked_only_if_both_hexes_block() {
    // From 0805 to 0605 the line runs between 0705 and 0706.
    assert_eq!(
        line_of_sight(h("0805"), h("0605")),
        vec![LosStep::Hexside(h("0705"), h("0706"))]
    );
    let b = Build::new(10, 10)
        .unit("B.7 art 6-4 0805")
        .unit("R.1 inf 6-4 0605");
    let one = b.clone().terrain("0705", Terrain::Forest);
    assert!(accepted(&declare_start(&one), "attack B.7 R.1"));
    let both = one.terrain("0706", Terrain::Town);
    assert_eq!(refused(&declare_start(&both), "attack B.7 R.1"), "8.31");
}

#[test]
fn case_8_33_only_forest_and_town_block() {
    for t in [Terrain::Forest, Terrain::Town] {
        let b = battery(6, 6).terrain("0504", t);
        assert_eq!(refused(&declare_start(&b), "attack B.7 R.1"), "8.31");
    }
    let b = battery(6, 6).terrain("0504", Terrain::Rough);
    assert!(accepted(&declare_start(&b), "attack B.7 R.1"));
    let b = battery(6, 6)
        .slope_hex("0504")
        .side("0504", "0505", Hexside::SLOPE)
        .side("0503", "0504", Hexside::SLOPE);
    assert!(accepted(&declare_start(&b), "attack B.7 R.1"));
    let b = battery(6, 6).terrain("0504", Terrain::Marsh);
    assert!(accepted(&declare_start(&b), "attack B.7 R.1"));
}

#[test]
fn case_8_34_the_firing_and_target_hexes_never_block() {
    let b = battery(6, 6)
        .terrain("0503", Terrain::Forest)
        .terrain("0505", Terrain::Town);
    assert!(accepted(&declare_start(&b), "attack B.7 R.1"));
}

#[test]
fn case_8_35_artillery_fires_over_units_of_either_side() {
    // A friend in between (it attacks R.1 too, being adjacent).
    let b = battery(6, 6).unit("B.1 inf 6-4 0504");
    let g = declare(&b, &["B.1 R.1", "B.7 R.1"]);
    assert_eq!(g.combats()[0].bombarding.len(), 1);
    // An enemy in between, across a river from the battery so that its zone does not reach it.
    let b = battery(6, 6)
        .side("0503", "0504", Hexside::RIVER)
        .unit("R.2 inf 6-4 0504");
    let g = declare_start(&b);
    assert!(!g.in_enemy_zoc(uid(&g, "B.7")));
    assert!(accepted(&g, "attack B.7 R.1"));
}

// ---------------------------------------------------------------- 8.4 adjacent attacks

#[test]
fn case_8_41_artillery_in_an_enemy_zone_must_attack_and_may_not_bombard() {
    let b = Build::new(10, 10)
        .unit("B.7 art 6-4 0505")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0503");
    let g = declare_start(&b);
    assert_eq!(refused(&g, "end"), "8.41");
    // R.2 is two hexes off: in range, but the battery is engaged.
    assert_eq!(refused(&g, "attack B.7 R.2"), "8.42");
    let g = declare(&b, &["B.7 R.1"]);
    assert!(g.combats()[0].bombarding.is_empty());
}

#[test]
fn case_8_42_engaged_artillery_attacks_every_adjacent_enemy_it_chooses_but_none_further() {
    let b = Build::new(10, 10)
        .unit("B.7 art 6-4 0505")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604")
        .unit("R.3 inf 3-4 0705");
    let mut g = declare_start(&b);
    act(&mut g, "attack B.7 R.1");
    act(&mut g, "attack B.7 R.2");
    assert_eq!(refused(&g, "attack B.7 R.3"), "8.42");
}

#[test]
fn case_8_43_engaged_artillery_suffers_every_result() {
    // 1 against 6 is 1-5, a 3 is Ae.
    let b = Build::new(10, 10)
        .unit("B.7 art 1-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = declare(&b, &["B.7 R.1"]);
    resolve_with(&mut g, "R.1", 3);
    assert!(gone(&g, "B.7"));
    // Ar (1-5, a 1): it must retreat; it may not stand.
    let mut g = declare(&b, &["B.7 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(refused(&g, "stand B.7"), "8.15");
    act(&mut g, "retreat B.7 0404");
}

#[test]
fn case_8_44_terrain_does_not_prevent_adjacent_artillery_attacks() {
    for t in [Terrain::Forest, Terrain::Town] {
        let b = Build::new(10, 10)
            .terrain("0605", t)
            .unit("B.7 art 6-4 0505")
            .unit("R.1 inf 6-4 0605");
        let g = declare(&b, &["B.7 R.1"]);
        assert_eq!(g.combats().len(), 1);
    }
}

#[test]
fn case_8_45_artillery_bombards_across_an_unbridged_river() {
    // Adjacent across the river: no zone of control, so it bombards at range 1.
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::RIVER)
        .unit("B.7 art 6-4 0505")
        .unit("B.1 inf 6-4 0506")
        .unit("R.1 inf 6-4 0605");
    let g = declare(&b, &["B.7 R.1", "B.1 R.1"]);
    assert_eq!(g.combats()[0].bombarding.len(), 1);
    // Infantry may not attack across the river.
    let b = b.side("0506", "0605", Hexside::RIVER);
    let mut g = declare_start(&b);
    assert_eq!(refused(&g, "attack B.1 R.1"), "9.0");
    act(&mut g, "attack B.7 R.1");
    // At range 2 across a river too.
    let b = battery(6, 6).side("0504", "0505", Hexside::RIVER);
    assert!(accepted(&declare_start(&b), "attack B.7 R.1"));
}

// ---------------------------------------------------------------- 8.5 defence

#[test]
fn case_8_51_artillery_never_adds_to_a_defence_and_bombards_only_in_its_own_phase() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 3-4 0605")
        .unit("R.7 art 9-4 0805");
    let mut g = b.game();
    act(&mut g, "end");
    assert_eq!(refused(&g, "attack R.7 B.1"), "7.0");
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "end");
    assert_eq!(odds(&g, "R.1"), (6, 3, "2-1".to_string()));
}

#[test]
fn case_8_52_attacked_artillery_suffers_like_any_unit_even_when_bombarded() {
    // De on a battery bombarded by a battery: 12 against 2, a 1.
    let b = Build::new(10, 10)
        .unit("B.7 art 12-4 0503")
        .unit("R.7 art 2-4 0505");
    let mut g = declare(&b, &["B.7 R.7"]);
    resolve_with(&mut g, "R.7", 1);
    assert!(gone(&g, "R.7"));
    // Dr: 6 against 6, a 1.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.7 art 6-4 0605");
    let mut g = declare(&b, &["B.1 R.7"]);
    resolve_with(&mut g, "R.7", 1);
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(refused(&g, "stand R.7"), "8.15");
    act(&mut g, "retreat R.7 0706");
}

// ---------------------------------------------------------------- rulings

#[test]
fn ruling_bombarding_artillery_counts_neither_way_for_hexside_doubling() {
    // B.1 attacks across a stream; the battery fires from elsewhere: still doubled.
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::STREAM)
        .unit("B.1 inf 6-4 0505")
        .unit("B.7 art 6-4 0805")
        .unit("R.1 inf 5-4 0605");
    let g = declare(&b, &["B.1 R.1", "B.7 R.1"]);
    assert_eq!(odds(&g, "R.1"), (12, 10, "1-1".to_string()));
    // A battery adjacent across an unbridged river is outside the defender's zone, so it
    // bombards; the river hexside does not double the defender.
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::RIVER)
        .unit("B.7 art 6-4 0505")
        .unit("R.1 inf 5-4 0605");
    let g = declare(&b, &["B.7 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 5);
}

#[test]
fn ruling_artillery_that_bombarded_does_not_advance() {
    // Battery and B.1 against R.1, De: only B.1 may advance.
    let b = battery(12, 2).unit("B.1 inf 6-4 0506");
    let mut g = declare(&b, &["B.1 R.1", "B.7 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(legal_texts(&g), vec!["advance B.1 0505", "hold"]);
    // Alone, it leaves the hex empty and the combat is over.
    let mut g = declare(&battery(12, 2), &["B.7 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(g.phasing(), RED);
}

#[test]
fn ruling_engaged_artillery_may_not_attack_across_an_unbridged_river() {
    // In R.1's zone, the battery is treated as infantry: R.2 across the river is out of reach.
    let b = Build::new(10, 10)
        .side("0505", "0604", Hexside::RIVER)
        .unit("B.7 art 6-4 0505")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0604");
    let mut g = declare_start(&b);
    act(&mut g, "attack B.7 R.1");
    assert_eq!(refused(&g, "attack B.7 R.2"), "9.0");
}

#[test]
fn ruling_an_exchange_short_of_adjacent_strength_takes_every_adjacent_attacker() {
    // Battery 10 + B.1 1 against 2: 5-1, a 5 is Ex. B.1 alone cannot make up 2: it goes, the
    // battery stays.
    let b = battery(10, 2).unit("B.1 inf 1-4 0506");
    let mut g = declare(&b, &["B.1 R.1", "B.7 R.1"]);
    assert_eq!(column(&g, "R.1"), "5-1");
    resolve_with(&mut g, "R.1", 5);
    assert!(gone(&g, "B.1") && gone(&g, "R.1"));
    assert_eq!(at(&g, "B.7"), Some(h("0503")));
    assert_eq!(g.losses(), &[1, 2]);
}

#[test]
fn ruling_an_enemy_unit_in_a_friendly_zone_may_be_attacked_by_bombardment_alone() {
    // B.1 (0505) touches R.1 (0605) and R.2 (0604). B.1 attacks R.2; the battery at 0805
    // takes R.1.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.7 art 6-4 0805")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let g = declare(&b, &["B.1 R.2", "B.7 R.1"]);
    assert_eq!(g.combats().len(), 2);
}

#[test]
fn ruling_one_free_battery_cannot_answer_for_two_enemy_units() {
    // R.1 touches only B.1, R.2 only B.2. B.1 and B.5 attack R.3, so R.1 cannot join them (B.5
    // is not adjacent to it); likewise B.6 and B.2 against R.4 leave R.2 outside. The battery
    // B.7 reaches both R.1 and R.2, but bombarding alone it fires at one hex (8.13): the second
    // of these pairings strands an obligation and is refused.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0205")
        .unit("B.5 inf 6-4 0206")
        .unit("B.2 inf 6-4 0805")
        .unit("B.6 inf 6-4 0907")
        .unit("B.7 art 6-4 0505")
        .unit("R.1 inf 3-4 0305")
        .unit("R.3 inf 3-4 0106")
        .unit("R.2 inf 3-4 0705")
        .unit("R.4 inf 3-4 0906");
    let mut g = declare_start(&b);
    acts(
        &mut g,
        &["attack B.1 R.3", "attack B.5 R.3", "attack B.6 R.4"],
    );
    assert_eq!(refused(&g, "attack B.2 R.4"), "7.11");
    // The battery may still answer for one of them, B.2 taking R.2 and B.6 R.4 alone.
    let mut g = declare_start(&b);
    acts(
        &mut g,
        &[
            "attack B.1 R.3",
            "attack B.5 R.3",
            "attack B.2 R.2",
            "attack B.6 R.4",
        ],
    );
    act(&mut g, "attack B.7 R.1");
    assert!(accepted(&g, "end"));
}
