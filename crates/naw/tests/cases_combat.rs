//! Combat (7.0-7.9) and the combat column of the Terrain Effects Chart (9.0).
//!
//! The CRT (7.6), die by column: at 1-1 a 1 is Dr and a 4 Ar; at 1-5 a 3 is Ae; at 2-1 a 1 is
//! Dr; at 6-1 a 1 is De, a 4 Dr and a 6 Ex; at 5-1 a 5 is Ex; at 3-1 a 6 is Ar.

mod common;
use common::*;
use engine::{Rules, ToAct};
use hexmap::{Hexside, Terrain};
use naw::{Game, Loc, Step};

/// Ends the movement phase and declares `attacks` ("B.1 R.1"), then ends declarations.
fn declare(b: &Build, attacks: &[&str]) -> Game {
    let mut g = b.game();
    act(&mut g, "end");
    for a in attacks {
        act(&mut g, &format!("attack {a}"));
    }
    act(&mut g, "end");
    g
}

/// Resolves the combat of `target` at its odds with a given die.
fn resolve_with(g: &mut Game, target: &str, die: u8) {
    act(g, &format!("resolve {target}"));
    act(g, &format!("roll {die}"));
}

fn ids(g: &Game, v: &[naw::UnitId]) -> Vec<String> {
    v.iter().map(|&u| g.id(u).to_string()).collect()
}

// ---------------------------------------------------------------- 7.0 general

#[test]
fn case_7_0_combat_between_adjacent_units_is_mandatory_and_the_phasing_player_attacks() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Declare);
    assert_eq!(refused(&g, "end"), "7.12");
    // The non-phasing player does not attack.
    assert_eq!(refused(&g, "attack R.1 B.1"), "7.0");
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Choose);
}

#[test]
fn case_7_0_thirteen_against_four_is_three_to_one() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 13-4 0505")
        .unit("R.1 inf 4-4 0605");
    let g = declare(&b, &["B.1 R.1"]);
    assert_eq!(odds(&g, "R.1"), (13, 4, "3-1".to_string()));
}

#[test]
fn case_7_0_declared_combats_are_resolved_in_any_order() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("B.2 inf 12-4 0202")
        .unit("R.1 inf 2-4 0605")
        .unit("R.2 inf 2-4 0302");
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.2"]);
    let mut legal = legal_texts(&g);
    legal.retain(|t| !t.contains(" at "));
    assert_eq!(legal, vec!["resolve R.1", "resolve R.2"]);
    // The second declared first.
    resolve_with(&mut g, "R.2", 1);
    assert!(gone(&g, "R.2"));
    act(&mut g, "hold");
    assert_eq!(g.step(), Step::Choose);
    resolve_with(&mut g, "R.1", 1);
    act(&mut g, "hold");
    assert!(gone(&g, "R.1"));
    assert_eq!(g.phasing(), RED);
}

// ---------------------------------------------------------------- 7.1 which units attack

#[test]
fn case_7_11_every_enemy_unit_in_a_friendly_zone_must_be_attacked() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    assert_eq!(refused(&g, "end"), "7.11");
    act(&mut g, "attack B.1 R.2");
    assert!(accepted(&g, "end"));
}

#[test]
fn case_7_12_every_phasing_unit_in_an_enemy_zone_must_attack() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0506")
        .unit("R.1 inf 6-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    assert_eq!(refused(&g, "end"), "7.12");
    act(&mut g, "attack B.2 R.1");
    assert!(accepted(&g, "end"));
}

#[test]
fn case_7_13_a_hex_may_be_attacked_from_all_six_sides_and_by_artillery_in_range() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 1-4 0504")
        .unit("B.2 inf 2-4 0506")
        .unit("B.3 inf 3-4 0404")
        .unit("B.4 inf 4-4 0405")
        .unit("B.5 inf 5-4 0604")
        .unit("B.6 inf 6-4 0605")
        .unit("B.7 art 7-4 0503")
        .unit("R.1 inf 4-4 0505");
    let mut g = b.game();
    act(&mut g, "end");
    for i in 1..=7 {
        act(&mut g, &format!("attack B.{i} R.1"));
    }
    act(&mut g, "end");
    assert_eq!(g.combats().len(), 1);
    assert_eq!(odds(&g, "R.1"), (28, 4, "6-1".to_string()));
}

#[test]
fn case_7_14_no_unit_attacks_or_is_attacked_twice() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0506")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0606");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "attack B.2 R.2");
    assert_eq!(refused(&g, "attack B.1 R.1"), "7.14");
    // B.2 already attacks R.2 and R.1 is already attacked by B.1.
    assert_eq!(refused(&g, "attack B.2 R.1"), "7.14");
    act(&mut g, "end");
    resolve_with(&mut g, "R.1", 1);
    // A resolved combat is not fought again.
    act(&mut g, "retreat R.1 0705");
    act(&mut g, "hold");
    assert_eq!(refused(&g, "resolve R.1"), "7.14");
}

#[test]
fn case_7_15_units_attack_only_adjacent_enemies() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 6-4 0705");
    let mut g = b.game();
    act(&mut g, "end");
    assert_eq!(refused(&g, "attack B.1 R.1"), "7.15");
}

// ---------------------------------------------------------------- 7.2 multi-unit, multi-hex

#[test]
fn case_7_21_a_unit_in_several_enemy_zones_attacks_all_not_otherwise_engaged() {
    // B.1 is adjacent to R.1 and R.2.
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    assert_eq!(refused(&g, "end"), "7.11");
    act(&mut g, "attack B.1 R.2");
    act(&mut g, "end");
    assert_eq!(g.combats().len(), 1);
    // One combined defence: 12 against 3 + 3 is 2-1.
    assert_eq!(odds(&g, "R.2"), (12, 6, "2-1".to_string()));

    // With B.2 engaging R.2, B.1 need attack only R.1.
    let b = b.unit("B.2 inf 6-4 0603");
    let g = declare(&b, &["B.2 R.2", "B.1 R.1"]);
    assert_eq!(g.combats().len(), 2);
}

#[test]
fn case_7_22_units_in_several_hexes_combine_against_one_hex() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 4-4 0506")
        .unit("R.1 inf 5-4 0605");
    let g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    let c = &g.combats()[0];
    assert_eq!(ids(&g, &c.attackers), vec!["B.1", "B.2"]);
    assert_eq!(odds(&g, "R.1"), (10, 5, "2-1".to_string()));
}

// ---------------------------------------------------------------- 7.3 - 7.5

#[test]
fn case_7_3_a_units_strength_is_never_divided() {
    // B.1 attacking two defenders counts its 6 once, against both together.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let g = declare(&b, &["B.1 R.1", "B.1 R.2"]);
    assert_eq!(g.combats().len(), 1);
    assert_eq!(odds(&g, "R.1"), (6, 6, "1-1".to_string()));
    // A defender attacked from two hexes is one combat, its strength counted once.
    let b2 = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0506")
        .unit("R.1 inf 3-4 0605");
    let g = declare(&b2, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(g.combats().len(), 1);
    assert_eq!(odds(&g, "R.1"), (12, 3, "4-1".to_string()));
    // It may not be split between two combats.
    let b = b.unit("B.2 inf 6-4 0603");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.2 R.2");
    act(&mut g, "attack B.1 R.1");
    assert_eq!(refused(&g, "attack B.1 R.2"), "7.14");
}

#[test]
fn case_7_4_a_5_on_rough_defends_as_10_and_across_a_stream_still_10() {
    let b = Build::new(10, 10)
        .terrain("0605", Terrain::Rough)
        .unit("B.1 inf 10-4 0505")
        .unit("R.1 inf 5-4 0605");
    let g = declare(&b, &["B.1 R.1"]);
    assert_eq!(odds(&g, "R.1"), (10, 10, "1-1".to_string()));
    let g = declare(&b.side("0505", "0605", Hexside::STREAM), &["B.1 R.1"]);
    assert_eq!(odds(&g, "R.1"), (10, 10, "1-1".to_string()));
}

#[test]
fn case_7_5_diversionary_attacks_at_poor_odds_free_strength_for_good_odds() {
    // B.1 and B.2 are each adjacent to both R.1 and R.2.
    let b = Build::new(10, 10)
        .unit("B.1 inf 2-4 0506")
        .unit("B.2 inf 12-4 0706")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 2-4 0606");
    let g = declare(&b, &["B.1 R.1", "B.2 R.2"]);
    assert_eq!(column(&g, "R.1"), "1-3");
    assert_eq!(column(&g, "R.2"), "6-1");
}

// ---------------------------------------------------------------- 7.6 results

fn duel(attack: u32, defence: u32) -> Build {
    Build::new(10, 10)
        .unit(&format!("B.1 inf {attack}-4 0505"))
        .unit(&format!("R.1 inf {defence}-4 0605"))
}

#[test]
fn case_7_6_ae_eliminates_the_attackers() {
    let mut g = declare(&duel(1, 6), &["B.1 R.1"]);
    assert_eq!(column(&g, "R.1"), "1-5");
    resolve_with(&mut g, "R.1", 3);
    assert!(gone(&g, "B.1"));
    assert_eq!(g.losses(), &[1, 0]);
    // The victorious defender may advance into the vacated hex (our ruling: either side).
    assert_eq!(g.step(), Step::Advance);
    assert_eq!(g.to_act(), ToAct::Side(RED));
    act(&mut g, "advance R.1 0505");
    assert_eq!(at(&g, "R.1"), Some(h("0505")));
}

#[test]
fn case_7_6_de_eliminates_the_defenders() {
    let mut g = declare(&duel(12, 2), &["B.1 R.1"]);
    assert_eq!(column(&g, "R.1"), "6-1");
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1"));
    assert_eq!(g.losses(), &[0, 2]);
    assert_eq!(at(&g, "B.1"), Some(h("0505")));
}

#[test]
fn case_7_6_ex_defenders_go_and_the_attacker_loses_printed_strength() {
    // R.1, printed 2, defends on rough as 4: 20 against 4 is 5-1, a 5 is Ex. The attacker
    // owes 2 printed points: any one of his units will do, and only one.
    let b = Build::new(10, 10)
        .terrain("0605", Terrain::Rough)
        .unit("B.1 inf 2-4 0505")
        .unit("B.2 inf 3-4 0506")
        .unit("B.3 inf 15-4 0604")
        .unit("B.4 inf 5-4 0202")
        .unit("R.1 inf 2-4 0605");
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.1", "B.3 R.1"]);
    assert_eq!(odds(&g, "R.1"), (20, 4, "5-1".to_string()));
    resolve_with(&mut g, "R.1", 5);
    assert!(gone(&g, "R.1"));
    assert_eq!(g.step(), Step::Losses);
    assert_eq!(
        legal_texts(&g),
        vec!["lose B.1", "lose B.2", "lose B.3"],
        "inclusion-minimal choices (ruling)"
    );
    assert_eq!(refused(&g, "lose B.1,B.2"), "7.6");
    // Only units of this attack.
    assert_eq!(refused(&g, "lose B.4"), "7.6");
    act(&mut g, "lose B.1");
    assert!(gone(&g, "B.1"));
    assert_eq!(g.losses(), &[2, 2]);
    assert_eq!(g.step(), Step::Advance);
}

#[test]
fn case_7_6_ar_the_attackers_retreat() {
    let mut g = declare(&duel(6, 6), &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 4);
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(g.to_act(), ToAct::Side(BLUE));
    act(&mut g, "retreat B.1 0404");
    assert_eq!(at(&g, "B.1"), Some(h("0404")));
    assert!(!g.in_enemy_zoc(uid(&g, "B.1")));
    // The defender may take the vacated hex.
    assert_eq!(g.to_act(), ToAct::Side(RED));
    act(&mut g, "hold");
    assert_eq!(at(&g, "R.1"), Some(h("0605")));
}

#[test]
fn case_7_6_dr_the_defenders_retreat() {
    let mut g = declare(&duel(6, 6), &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(g.to_act(), ToAct::Side(RED));
    act(&mut g, "retreat R.1 0706");
    assert_eq!(at(&g, "R.1"), Some(h("0706")));
}

#[test]
fn case_7_6_results_follow_the_printed_table() {
    use naw::tables::crt;
    use naw::{Column, CombatResult::*};
    let row =
        |die: u8| -> Vec<naw::CombatResult> { (0..10).map(|c| crt(Column(c), die)).collect() };
    assert_eq!(row(1), vec![Ar, Ar, Dr, Dr, Dr, Dr, Dr, De, De, De]);
    assert_eq!(row(2), vec![Ar, Ar, Ar, Dr, Dr, Dr, Dr, Dr, De, De]);
    assert_eq!(row(3), vec![Ae, Ar, Ar, Ar, Dr, Dr, Dr, Dr, Dr, De]);
    assert_eq!(row(4), vec![Ae, Ar, Ar, Ar, Ar, Dr, Dr, Dr, Dr, Dr]);
    assert_eq!(row(5), vec![Ae, Ae, Ar, Ar, Ar, Ar, Dr, Dr, Ex, Ex]);
    assert_eq!(row(6), vec![Ae, Ae, Ae, Ar, Ar, Ar, Ar, Ex, Ex, Ex]);
}

// ---------------------------------------------------------------- 7.7 retreat and advance

#[test]
fn case_7_71_the_owner_retreats_each_unit_one_hex_out_of_enemy_zones() {
    let mut g = declare(&duel(6, 6), &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(g.to_act(), ToAct::Side(RED));
    let mut options = legal_texts(&g);
    options.sort();
    assert_eq!(
        options,
        vec!["retreat R.1 0606", "retreat R.1 0705", "retreat R.1 0706"]
    );
    assert_eq!(refused(&g, "retreat R.1 0805"), "7.71");
    assert_eq!(refused(&g, "retreat B.1 0404"), "7.71");
    act(&mut g, "retreat R.1 0705");
    assert!(!g.in_enemy_zoc(uid(&g, "R.1")));
}

#[test]
fn case_7_72_no_retreat_into_prohibited_or_enemy_controlled_hexes_else_eliminated() {
    // R.1's neighbours: 0604 and 0506 in B.1's zone, 0606 marsh, 0705 across a river.
    let b = duel(6, 6)
        .terrain("0606", Terrain::Marsh)
        .side("0605", "0705", Hexside::RIVER);
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(refused(&g, "retreat R.1 0604"), "7.72");
    assert_eq!(refused(&g, "retreat R.1 0606"), "7.72");
    assert_eq!(refused(&g, "retreat R.1 0705"), "7.72");
    assert_eq!(legal_texts(&g), vec!["retreat R.1 0706"]);
    // With 0706 in B.2's zone too, nowhere is open: R.1 is eliminated.
    let b = b.unit("B.2 inf 6-4 0806");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1"));
    assert_eq!(g.losses(), &[0, 6]);
    assert_eq!(g.step(), Step::Advance);
    act(&mut g, "advance B.1 0605");
}

#[test]
fn case_7_73_a_vacant_hex_before_displacing_a_friend() {
    // R.1's open hexes: 0606 (R.2), 0705 (R.3) and 0706, vacant.
    let b = duel(6, 6).unit("R.2 inf 6-4 0606").unit("R.3 inf 6-4 0705");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(refused(&g, "retreat R.1 0606"), "7.82");
    assert_eq!(legal_texts(&g), vec!["retreat R.1 0706"]);
    // B.2 closes 0706: now R.1 displaces a friend.
    let b = b.unit("B.2 inf 6-4 0806");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    let mut options = legal_texts(&g);
    options.sort();
    assert_eq!(options, vec!["retreat R.1 0606", "retreat R.1 0705"]);
    act(&mut g, "retreat R.1 0606");
    assert_eq!(at(&g, "R.1"), Some(h("0606")));
    assert_eq!(g.loc(uid(&g, "R.2")), Loc::Lifted(h("0606")));
}

#[test]
fn case_7_74_one_victorious_participant_may_advance_whatever_the_zones() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("B.3 inf 12-4 0604")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0706")
        .unit("R.3 inf 6-4 0704");
    let mut g = declare(&b, &["B.1 R.1", "B.3 R.3"]);
    resolve_with(&mut g, "R.1", 1);
    act(&mut g, "retreat R.1 0606");
    assert_eq!(g.step(), Step::Advance);
    // The option comes at once, before any other combat.
    assert_eq!(refused(&g, "resolve R.3"), "7.74");
    // B.3 is adjacent but fought another combat; 0606 was not vacated.
    assert_eq!(refused(&g, "advance B.3 0605"), "7.74");
    assert_eq!(refused(&g, "advance B.1 0606"), "7.74");
    // Never forced.
    assert!(accepted(&g, "hold"));
    // Into the zones of R.1 and R.2.
    act(&mut g, "advance B.1 0605");
    assert_eq!(at(&g, "B.1"), Some(h("0605")));
    assert!(g.in_enemy_zoc(uid(&g, "B.1")));
    // Having advanced, B.1 attacks no more this phase: declarations are over.
    assert_eq!(g.step(), Step::Choose);
    assert_eq!(refused(&g, "attack B.1 R.2"), "7.0");
}

#[test]
fn case_7_74_an_advance_can_cut_off_a_later_retreat() {
    // R.4 (0706) could retreat to 0705 or 0606; once B.1 stands in 0605 both are controlled.
    let b = Build::new(10, 10)
        .unit("B.1 inf 12-4 0505")
        .unit("B.4 inf 12-4 0806")
        .unit("R.1 inf 2-4 0605")
        .unit("R.4 inf 6-4 0706");
    let mut g = declare(&b, &["B.1 R.1", "B.4 R.4"]);
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1"));
    let mut held = g.clone();
    act(&mut g, "advance B.1 0605");
    resolve_with(&mut g, "R.4", 1);
    assert!(gone(&g, "R.4"), "no retreat left");
    // Had B.1 held, R.4 would have got away.
    act(&mut held, "hold");
    resolve_with(&mut held, "R.4", 1);
    assert_eq!(held.step(), Step::Retreat);
    act(&mut held, "retreat R.4 0606");
}

#[test]
fn case_7_75_only_one_unit_advances_even_when_two_hexes_are_vacated() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 24-4 0505")
        .unit("B.2 inf 24-4 0705")
        .unit("R.1 inf 2-4 0605")
        .unit("R.2 inf 2-4 0604");
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.1", "B.1 R.2"]);
    assert_eq!(g.combats().len(), 1);
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1") && gone(&g, "R.2"));
    let mut options = legal_texts(&g);
    options.sort();
    assert_eq!(
        options,
        vec![
            "advance B.1 0604",
            "advance B.1 0605",
            "advance B.2 0604",
            "advance B.2 0605",
            "hold"
        ]
    );
    act(&mut g, "advance B.2 0604");
    // The advance is over: Red's player-turn has begun and 0605 stays empty.
    assert_eq!((g.phasing(), g.step()), (RED, Step::Movement));
    assert_eq!(g.unit_at(h("0605")), None);
}

// ---------------------------------------------------------------- 7.8 displacement

#[test]
fn case_7_81_a_retreating_unit_displaces_an_uninvolved_friend() {
    // Two rows. R.1 (0105) can go only to 0104, where R.2 stands.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-4 0205")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0104");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(legal_texts(&g), vec!["retreat R.1 0104"]);
    act(&mut g, "retreat R.1 0104");
    assert_eq!(at(&g, "R.1"), Some(h("0104")));
    assert_eq!(g.loc(uid(&g, "R.2")), Loc::Lifted(h("0104")));
    assert_eq!(g.to_act(), ToAct::Side(RED));
    // The displaced unit retreats as if from combat: not into an enemy zone.
    assert_eq!(refused(&g, "retreat R.2 0204"), "7.72");
    assert_eq!(refused(&g, "retreat R.1 0103"), "7.81");
    act(&mut g, "retreat R.2 0203");
    assert_eq!(at(&g, "R.2"), Some(h("0203")));
}

#[test]
fn case_7_82_the_retreating_unit_dies_rather_than_the_displaced_one() {
    // As in 7.81, but B.2 (0202) closes R.2's only ways out (0103, 0203).
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-4 0205")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0104");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1"));
    assert_eq!(at(&g, "R.2"), Some(h("0104")));
}

#[test]
fn case_7_82_displacement_may_chain() {
    // R.1 -> 0104 (R.2); R.2 cannot cross the river to 0203, so -> 0103 (R.3); R.3 -> 0102.
    let b = Build::new(2, 10)
        .side("0104", "0203", Hexside::RIVER)
        .unit("B.1 inf 6-4 0205")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0104")
        .unit("R.3 inf 6-4 0103");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    act(&mut g, "retreat R.1 0104");
    assert_eq!(legal_texts(&g), vec!["retreat R.2 0103"]);
    act(&mut g, "retreat R.2 0103");
    assert_eq!(g.loc(uid(&g, "R.3")), Loc::Lifted(h("0103")));
    act(&mut g, "retreat R.3 0102");
    assert_eq!(
        [at(&g, "R.1"), at(&g, "R.2"), at(&g, "R.3")],
        [Some(h("0104")), Some(h("0103")), Some(h("0102"))]
    );
}

#[test]
fn ruling_7_82_a_unit_may_be_displaced_twice_in_one_phase() {
    // R.1 (0105, held by B.1's zone on 0106 and 0204) can only go to 0104, R.3's hex; R.2
    // (0102, held by B.2's zone on 0101 and 0202) can only go to 0103. R.3 takes part in no
    // combat, so each may displace it in turn.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-4 0205")
        .unit("B.2 inf 6-4 0201")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0102")
        .unit("R.3 inf 6-4 0104");
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.2"]);
    // 1-1, a 1 is Dr.
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(legal_texts(&g), vec!["retreat R.1 0104"]);
    act(&mut g, "retreat R.1 0104");
    // First displacement: R.3 to 0103 (0203 was open too).
    let mut options = legal_texts(&g);
    options.sort();
    assert_eq!(options, vec!["retreat R.3 0103", "retreat R.3 0203"]);
    act(&mut g, "retreat R.3 0103");
    act(&mut g, "hold");
    resolve_with(&mut g, "R.2", 1);
    assert_eq!(legal_texts(&g), vec!["retreat R.2 0103"]);
    act(&mut g, "retreat R.2 0103");
    // Second displacement of R.3 in the same phase: to the one vacant hex open to it.
    assert_eq!(g.loc(uid(&g, "R.3")), Loc::Lifted(h("0103")));
    assert_eq!(legal_texts(&g), vec!["retreat R.3 0203"]);
    act(&mut g, "retreat R.3 0203");
    assert_eq!(
        [at(&g, "R.1"), at(&g, "R.2"), at(&g, "R.3")],
        [Some(h("0104")), Some(h("0103")), Some(h("0203"))]
    );
}

#[test]
fn ruling_7_81_uninvolved_means_not_in_an_unresolved_combat() {
    // B.2 (0204) attacks R.2; R.1's only way out is R.2's hex 0104.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-4 0205")
        .unit("B.2 inf 6-4 0204")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0104");
    // R.2's combat not yet resolved: it cannot be displaced, so R.1 is eliminated.
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.2"]);
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1"));
    // R.2's combat resolved first (Ar: B.2 has nowhere to go and is eliminated): now R.2 may
    // be displaced.
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.2"]);
    resolve_with(&mut g, "R.2", 4);
    assert!(gone(&g, "B.2"));
    act(&mut g, "hold");
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(legal_texts(&g), vec!["retreat R.1 0104"]);
    act(&mut g, "retreat R.1 0104");
    act(&mut g, "retreat R.2 0103");
    assert_eq!(at(&g, "R.2"), Some(h("0103")));
}

#[test]
fn ruling_7_82_displaced_units_cannot_fire_because_every_combat_is_declared_first() {
    // After the die, no declaration is possible at all, so a displaced unit (artillery or
    // not) that had not been declared never attacks that phase.
    let b = Build::new(2, 10)
        .unit("B.1 inf 6-4 0205")
        .unit("R.1 inf 6-4 0105")
        .unit("R.2 inf 6-4 0104");
    let mut g = declare(&b, &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    act(&mut g, "retreat R.1 0104");
    act(&mut g, "retreat R.2 0103");
    assert_eq!(refused(&g, "attack B.1 R.1"), "7.74");
}

// ---------------------------------------------------------------- 7.9 voluntary reduction

#[test]
fn case_7_9_a_5_to_1_reduced_to_3_to_1() {
    let mut g = declare(&duel(10, 2), &["B.1 R.1"]);
    assert_eq!(column(&g, "R.1"), "5-1");
    // Odds may only be lowered.
    assert_eq!(refused(&g, "resolve R.1 at 6-1"), "7.9");
    act(&mut g, "resolve R.1 at 3-1");
    // A 6 at 5-1 would be Ex; at 3-1 it is Ar.
    act(&mut g, "roll 6");
    assert_eq!(g.step(), Step::Retreat);
    assert_eq!(g.to_act(), ToAct::Side(BLUE));
    assert_eq!(at(&g, "R.1"), Some(h("0605")));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, naw::Event::Combat { column, .. } if column.name() == "3-1")));
}

// ---------------------------------------------------------------- 9.0 combat column

fn defence_of(b: Build) -> u32 {
    let g = declare(&b, &["B.1 R.1"]);
    odds(&g, "R.1").1
}

#[test]
fn case_9_0_clear_hex_no_effect() {
    assert_eq!(defence_of(duel(6, 5)), 5);
}

#[test]
fn case_9_0_forest_hex_no_effect_on_combat() {
    assert_eq!(defence_of(duel(6, 5).terrain("0605", Terrain::Forest)), 5);
}

#[test]
fn case_9_0_rough_hex_doubles_the_defender() {
    assert_eq!(defence_of(duel(6, 5).terrain("0605", Terrain::Rough)), 10);
}

#[test]
fn case_9_0_town_hex_doubles_the_defender() {
    assert_eq!(defence_of(duel(6, 5).terrain("0605", Terrain::Town)), 10);
}

#[test]
fn case_9_0_road_and_trail_depend_on_the_other_terrain() {
    let b = duel(6, 5).road(&["0605", "0606"]);
    assert_eq!(defence_of(b.clone()), 5);
    assert_eq!(defence_of(b.terrain("0605", Terrain::Town)), 10);
    let b = duel(6, 5).side("0605", "0505", Hexside::TRAIL);
    assert_eq!(defence_of(b), 5);
}

#[test]
fn case_9_0_marsh_hex_doubles_the_defender() {
    // R.1 walks into the marsh along the road in game-turn 1; B.1 comes up in game-turn 2.
    let b = Build::new(10, 10)
        .terrain("0605", Terrain::Marsh)
        .road(&["0606", "0605"])
        .unit("B.1 inf 6-4 0303")
        .unit("R.1 inf 5-4 0606");
    let mut g = b.game();
    acts(&mut g, &["end", "end", "move R.1 0605", "end", "end"]);
    assert_eq!(g.turn(), 2);
    acts(&mut g, &["move B.1 0505", "end", "attack B.1 R.1", "end"]);
    assert_eq!(odds(&g, "R.1").1, 10);
}

#[test]
fn case_9_0_slope_doubles_only_when_every_attack_comes_up_slope_hexsides_from_slope_hexes() {
    let b = duel(6, 5)
        .slope_hex("0505")
        .side("0505", "0605", Hexside::SLOPE);
    assert_eq!(defence_of(b.clone()), 10);
    // A slope hexside crossed from a hex without the symbol does not count.
    let b2 = duel(6, 5).side("0505", "0605", Hexside::SLOPE);
    assert_eq!(defence_of(b2), 5);
    // Another attacker across a plain hexside spoils it.
    let b3 = b.unit("B.2 inf 3-4 0506");
    let g = declare(&b3, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 5);
}

#[test]
fn case_9_0_river_hexside_attacks_only_across_bridges() {
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::RIVER)
        .unit("B.1 inf 6-4 0505")
        .unit("R.1 inf 5-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    assert_eq!(refused(&g, "attack B.1 R.1"), "9.0");
    let b = b.side("0505", "0605", Hexside::BRIDGE);
    let g = declare(&b, &["B.1 R.1"]);
    // ...and the bridge doubles the defender.
    assert_eq!(odds(&g, "R.1").1, 10);
}

#[test]
fn case_9_0_stream_hexside_doubles_when_every_attack_crosses_one() {
    let b = duel(6, 5).side("0505", "0605", Hexside::STREAM);
    assert_eq!(defence_of(b.clone()), 10);
    let b = b.unit("B.2 inf 3-4 0506");
    let g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 5);
    let b = b.side("0506", "0605", Hexside::STREAM);
    let g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 10);
}

#[test]
fn case_9_0_bridge_hexside_doubles_when_every_attack_crosses_a_bridge() {
    let bridge = Hexside::RIVER.with(Hexside::BRIDGE);
    let b = duel(6, 5).side("0505", "0605", bridge);
    assert_eq!(defence_of(b.clone()), 10);
    let b = b.unit("B.2 inf 3-4 0506");
    let g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 5);
}

#[test]
fn case_9_0_combat_effects_are_not_cumulative() {
    // Rough, a stream and a bridge at once: still merely doubled.
    let b = duel(6, 5)
        .terrain("0605", Terrain::Town)
        .side("0505", "0605", Hexside::STREAM)
        .unit("B.2 inf 3-4 0506")
        .side("0506", "0605", Hexside::RIVER.with(Hexside::BRIDGE));
    let g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 10);
}

// ---------------------------------------------------------------- rulings

#[test]
fn ruling_ratios_round_in_the_defenders_favour_and_are_capped() {
    for (a, d, col) in [
        (5, 11, "1-3"),
        (9, 10, "1-2"),
        (19, 10, "1-1"),
        (20, 10, "2-1"),
        (70, 10, "6-1"),
        (1, 10, "1-5"),
    ] {
        let g = declare(&duel(a, d), &["B.1 R.1"]);
        assert_eq!(column(&g, "R.1"), col, "{a} against {d}");
    }
}

#[test]
fn ruling_mixing_stream_and_bridge_hexsides_still_doubles() {
    let b = duel(6, 5)
        .side("0505", "0605", Hexside::STREAM)
        .unit("B.2 inf 3-4 0506")
        .side("0506", "0605", Hexside::RIVER.with(Hexside::BRIDGE));
    let g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    assert_eq!(odds(&g, "R.1").1, 10);
}

#[test]
fn ruling_a_road_over_a_stream_is_still_a_stream_hexside_for_combat() {
    let b = duel(6, 5)
        .side("0505", "0605", Hexside::STREAM)
        .road(&["0505", "0605"]);
    assert_eq!(defence_of(b), 10);
}

#[test]
fn ruling_each_defending_hex_is_doubled_on_its_own() {
    // R.1 on rough (3 -> 6) and R.2 on clear (3) in one combat: 9.
    let b = Build::new(10, 10)
        .terrain("0605", Terrain::Rough)
        .unit("B.1 inf 18-4 0505")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let g = declare(&b, &["B.1 R.1", "B.1 R.2"]);
    assert_eq!(odds(&g, "R.1"), (18, 9, "2-1".to_string()));
}

#[test]
fn ruling_every_attacker_of_a_combat_engages_every_defending_hex() {
    // B.1 is adjacent to R.1 and R.2; B.2 to R.1 and R.3.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0506")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604")
        .unit("R.3 inf 3-4 0606");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "attack B.1 R.2");
    // B.2 cannot join: it is not adjacent to R.2.
    assert_eq!(refused(&g, "attack B.2 R.1"), "7.2");
    act(&mut g, "attack B.2 R.3");
    assert!(accepted(&g, "end"));
    // Adding a defender that one of the attackers cannot reach is refused the same way.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0506")
        .unit("B.3 inf 6-4 0603")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0604");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    act(&mut g, "attack B.2 R.1");
    assert_eq!(refused(&g, "attack B.1 R.2"), "7.2");
}

#[test]
fn ruling_a_declaration_that_would_strand_an_obligation_is_refused() {
    // R.2 (0606) touches only B.2 (0506); once B.1 and B.2 attack R.1 together, R.2 could join
    // that combat only if B.1 were adjacent to it: it is not, so the declaration is refused.
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0506")
        .unit("R.1 inf 3-4 0605")
        .unit("R.2 inf 3-4 0606");
    let mut g = b.game();
    act(&mut g, "end");
    act(&mut g, "attack B.1 R.1");
    assert_eq!(refused(&g, "attack B.2 R.1"), "7.11");
    act(&mut g, "attack B.2 R.2");
    assert!(accepted(&g, "end"));
}

#[test]
fn ruling_all_combats_are_declared_before_any_die() {
    let b = Build::new(10, 10)
        .unit("B.1 inf 6-4 0505")
        .unit("B.2 inf 6-4 0202")
        .unit("R.1 inf 6-4 0605")
        .unit("R.2 inf 6-4 0909");
    let mut g = b.game();
    act(&mut g, "end");
    // A resolution before the declarations are closed is refused.
    act(&mut g, "attack B.1 R.1");
    assert_eq!(refused(&g, "resolve R.1"), "7.0");
    act(&mut g, "end");
    // And no declaration after.
    assert_eq!(refused(&g, "attack B.2 R.2"), "7.0");
}

#[test]
fn ruling_exchange_losses_are_automatic_when_only_one_choice_is_minimal() {
    // 12 against 2 is 6-1 and a 6 is Ex: B.1 alone attacked, so B.1 goes without a question.
    let mut g = declare(&duel(12, 2), &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 6);
    assert!(gone(&g, "B.1") && gone(&g, "R.1"));
    assert_eq!(g.losses(), &[12, 2]);
    assert_eq!((g.phasing(), g.step()), (RED, Step::Movement));
    // 8 + 4 against 2, a 6: {B.2} (4) covers 2 and so does {B.1} (8): the attacker chooses.
    let b = duel(8, 2).unit("B.2 inf 4-4 0506");
    let mut g = declare(&b, &["B.1 R.1", "B.2 R.1"]);
    resolve_with(&mut g, "R.1", 6);
    assert_eq!(g.step(), Step::Losses);
    assert_eq!(legal_texts(&g), vec!["lose B.1", "lose B.2"]);
}

#[test]
fn ruling_the_retreat_choice_belongs_to_the_owner_and_waits_for_him() {
    // Dr: Red chooses; nothing else happens until Red has retreated.
    let mut g = declare(&duel(6, 6), &["B.1 R.1"]);
    resolve_with(&mut g, "R.1", 1);
    assert_eq!(g.to_act(), ToAct::Side(RED));
    assert_eq!(refused(&g, "hold"), "7.71");
}

#[test]
fn ruling_an_advance_obeys_the_terrain_prohibitions_of_movement() {
    // R.1 walks along the road into the marsh at 0605 in game-turn 1; B.1 comes up in
    // game-turn 2 and eliminates it (24 against 2 doubled is 6-1, a 1 is De).
    let base = Build::new(10, 10)
        .terrain("0605", Terrain::Marsh)
        .road(&["0606", "0605"])
        .unit("R.1 inf 2-4 0606");
    let play = |b: Build, to: &str| {
        let mut g = b.game();
        acts(&mut g, &["end", "end", "move R.1 0605", "end", "end"]);
        acts(
            &mut g,
            &[&format!("move B.1 {to}"), "end", "attack B.1 R.1", "end"],
        );
        resolve_with(&mut g, "R.1", 1);
        assert!(gone(&g, "R.1"));
        g
    };
    // Attacking from 0505, off the road: B.1 may not advance into the marsh.
    let g = play(base.clone().unit("B.1 inf 24-4 0303"), "0505");
    assert_eq!((g.phasing(), g.step()), (RED, Step::Movement));
    // Attacking along the road from 0606: it may.
    let mut g = play(base.unit("B.1 inf 24-4 0608"), "0606");
    assert_eq!(legal_texts(&g), vec!["advance B.1 0605", "hold"]);
    act(&mut g, "advance B.1 0605");
}

#[test]
fn ruling_7_74_no_advance_across_an_unbridged_river() {
    // Around R.1 (0605): a river on the hexsides to 0505 (a battery) and 0604 (B.2), clear
    // ground to 0506 (B.1). Infantry never attacks across the river (9.0), so the only unit of
    // a combat that can stand across an unbridged river from the hex it vacates is a battery
    // that bombarded across it (8.45): an advance across the river cannot arise in play, and
    // the battery does not advance.
    let b = Build::new(10, 10)
        .side("0505", "0605", Hexside::RIVER)
        .side("0604", "0605", Hexside::RIVER)
        .unit("B.7 art 6-4 0505")
        .unit("B.1 inf 6-4 0506")
        .unit("B.2 inf 6-4 0604")
        .unit("R.1 inf 2-4 0605");
    let mut g = b.game();
    act(&mut g, "end");
    assert_eq!(refused(&g, "attack B.2 R.1"), "9.0");
    acts(&mut g, &["attack B.7 R.1", "attack B.1 R.1", "end"]);
    // 12 against 2 is 6-1, a 1 is De.
    resolve_with(&mut g, "R.1", 1);
    assert!(gone(&g, "R.1"));
    assert_eq!(legal_texts(&g), vec!["advance B.1 0605", "hold"]);
    assert_eq!(refused(&g, "advance B.7 0605"), "7.74");
    assert_eq!(refused(&g, "advance B.2 0605"), "7.74");
    act(&mut g, "advance B.1 0605");
    assert_eq!(at(&g, "B.1"), Some(h("0605")));
}

/// Every order of retreats and displacements the owner may choose from `g`, depth first:
/// panics if a state repeats along one line of play (an endless chain); returns the longest
/// line's length.
fn longest_retreat_line(
    g: &Game,
    path: &mut Vec<u64>,
    seen: &mut std::collections::HashMap<u64, usize>,
) -> usize {
    if g.step() != Step::Retreat {
        return 0;
    }
    let key = g.state_hash();
    assert!(
        !path.contains(&key),
        "a chain of displacement came back to a position it had left: {}",
        legal_texts(g).join(", ")
    );
    if let Some(&n) = seen.get(&key) {
        return n;
    }
    path.push(key);
    let mut best = 0;
    for text in legal_texts(g) {
        let mut next = g.clone();
        act(&mut next, &text);
        best = best.max(1 + longest_retreat_line(&next, path, seen));
    }
    path.pop();
    seen.insert(key, best);
    best
}

#[test]
fn ruling_7_82_a_chain_of_displacement_never_pushes_a_unit_out_of_the_same_hex_twice() {
    // A packed red block beside B.1: whatever the die and whatever order of retreats the
    // owner chooses, every chain ends, within one retreat per red unit.
    let mut b = Build::new(8, 8).unit("B.1 inf 4-4 0104");
    let mut n = 0;
    for x in 2..=4 {
        for y in 2..=6 {
            n += 1;
            b = b.unit(&format!("R.{n} inf 1-4 {x:02}{y:02}"));
        }
    }
    let start = b.game();
    let mut g = start.clone();
    act(&mut g, "end");
    // B.1 must attack every red unit beside it (7.11), in one combat
    let mut targets = Vec::new();
    for text in legal_texts(&g) {
        if let Some(rest) = text.strip_prefix("attack B.1 ") {
            targets.push(rest.to_string());
        }
    }
    assert!(!targets.is_empty());
    for t in &targets {
        act(&mut g, &format!("attack B.1 {t}"));
    }
    act(&mut g, "end");
    let mut retreats = 0;
    for die in 1..=6 {
        let mut r = g.clone();
        resolve_with(&mut r, &targets[0], die);
        if r.step() == Step::Retreat {
            retreats += 1;
            let longest = longest_retreat_line(&r, &mut Vec::new(), &mut Default::default());
            assert!(
                longest <= n,
                "a line of {longest} retreats for {n} red units"
            );
        }
    }
    assert!(retreats > 0, "no die made the red units retreat");
}
