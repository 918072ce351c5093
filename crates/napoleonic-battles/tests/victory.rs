//! NB Formation demoralization and the victory phase: a formation at its loss limit is
//! demoralized from the next turn (-1 morale), the enemy scores its victory points, an army's
//! disintegration ends the game.

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use napoleonic_battles::{Event, Game, Supplement};

/// II Corps' loss limit cut to 1 SP (so the Grand Army's, in a scenario with only II Corps,
/// is 1 and it disintegrates at 2).
fn fragile() -> Supplement {
    let text = Supplement::BON_TOML.replace(
        "loss_limit = 12    # 24 SP; II Victor",
        "loss_limit = 1    # 24 SP; II Victor",
    );
    assert_ne!(text, Supplement::BON_TOML);
    Supplement::from_toml(&text).expect("the changed supplement")
}

fn attack(fr_sp: u16, to_hit: u8) -> Game {
    let mut g = custom_with(
        fragile(),
        3,
        &[],
        &[
            U("FR.4", "infantry", fr_sp, 4, VICTOR, "0413"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
        ],
    );
    play(&mut g, &FRENCH_GO);
    act(&mut g, "end");
    play(
        &mut g,
        &["melee 0413 0414", &format!("roll {to_hit}"), "roll 1"],
    );
    // retreats, if any, to the first hex offered
    while g.step() == napoleonic_battles::Step::Retreat {
        let t = g.legal_actions_text();
        act(&mut g, &t[0]);
    }
    g
}

#[test]
fn formation_demoralization_is_found_in_the_victory_phase_and_bites_next_turn() {
    // 100%, 4: 1/1m — II Corps loses 1 SP, its limit
    let mut g = attack(6, 4);
    let f = g.supplement().formation_of(g.scenario(), uid(&g, "FR.4"));
    assert_eq!(g.formation_lost(f), 1);
    assert!(!g.formation_demoralized(f), "only in the victory phase");
    play(&mut g, &["end", "pass", "roll 6"]);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::FormationDemoralized { formation, .. } if *formation == f)));
    assert_eq!(g.turn(), 2);
    assert!(g.formation_demoralized(f));
    assert_eq!(g.morale(uid(&g, "FR.4")), 2, "-1 morale from the next turn");
    // the Allies score II Corps' points and the Grand Army's
    let p = g.points();
    let want =
        g.supplement().formations[f].victory_points + g.supplement().armies[0].victory_points;
    assert_eq!((p[0], p[1]), (0, want));
}

#[test]
fn an_armys_disintegration_is_its_sides_defeat() {
    // 25% (2 SP against 6), 1: 2r1mL/0 — the French lose 2 SP: past 134% of 1
    let mut g = attack(2, 1);
    play(&mut g, &["end", "pass", "roll 6"]);
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(o.winner, Some(Side(1)), "{}", o.why),
        t => panic!("{t:?}"),
    }
}

#[test]
fn recovery_in_the_last_night_turn_one_sp_below_the_units_initiative() {
    for (die, sp) in [(2, 3), (3, 2)] {
        // 4 SP against 6: 66%, the 50% column; 1: 2r1mL/0 — FR.4 loses 2 SP
        let mut g = custom(
            3,
            &[2],
            &[
                U("FR.4", "infantry", 4, 4, VICTOR, "0413"),
                U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
            ],
        );
        play(&mut g, &FRENCH_GO);
        act(&mut g, "end");
        play(&mut g, &["melee 0413 0414", "roll 1", "roll 1"]);
        while g.step() == napoleonic_battles::Step::Retreat {
            let t = g.legal_actions_text();
            act(&mut g, &t[0]);
        }
        let u = uid(&g, "FR.4");
        assert_eq!(g.sp(u), 2);
        play(&mut g, &["end", "pass", "roll 6"]);
        // turn 2 is the night: both pass, then recovery
        play(&mut g, &["roll 2", "roll 12", "pass", "roll 1", "pass"]);
        assert_eq!(g.to_act(), ToAct::Chance, "a recovery roll");
        act(&mut g, &format!("roll {die}"));
        assert_eq!(g.sp(u), sp, "die {die} against initiative 3");
        assert_eq!(g.turn(), 3);
    }
}

#[test]
fn leaders_retreat_with_their_hex() {
    // 100%, 6: 1/2r1mL — the Russians retreat with their leaders (one falls)
    let mut g = duel("0413", "0414");
    play(&mut g, &FRENCH_GO);
    act(&mut g, "end");
    play(&mut g, &["melee 0413 0414", "roll 6", "roll 1"]);
    let t = g.legal_actions_text();
    act(&mut g, &t[0]);
    let napoleonic_battles::Loc::Map(h) = g.loc(uid(&g, "RU.3")) else {
        panic!()
    };
    let eugen = g.leader_by_id("RU.Eugen").unwrap();
    assert_eq!(g.leader_loc(eugen), napoleonic_battles::LeaderLoc::Map(h));
}

#[test]
fn lone_leaders_go_to_the_nearest_friendly_hex_when_the_enemy_enters() {
    let mut g = duel("0411", "0414");
    // the French leave their leaders in 0411
    play(&mut g, &FRENCH_GO);
    play(&mut g, &["move FR.4 0410", "end", "end"]);
    let victor = g.leader_by_id("FR.Victor").unwrap();
    assert_eq!(
        g.leader_loc(victor),
        napoleonic_battles::LeaderLoc::Map(hex("0411"))
    );
    play(&mut g, &["command RU.Wittgenstein RU.Eugen", "go"]);
    play(
        &mut g,
        &["move RU.3 0413", "move RU.3 0412", "move RU.3 0411"],
    );
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::LeaderDisplaced { leader, .. } if *leader == victor)));
    assert_eq!(
        g.leader_loc(victor),
        napoleonic_battles::LeaderLoc::Map(hex("0410"))
    );
}

/// FR.4 (2 SP) melees RU.3 (6 SP) on the 25% column and rolls 2: `2r1m/0`, eliminated on
/// turn 1; turn 2 is the night, whose recovery rolls `die`.
fn eliminated_then_night(die: u8) -> Game {
    let mut g = custom(
        3,
        &[2],
        &[
            U("FR.4", "infantry", 2, 4, VICTOR, "0413"),
            U("FR.6", "infantry", 6, 4, VICTOR, "0411"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
        ],
    );
    play(&mut g, &FRENCH_GO);
    act(&mut g, "end");
    play(&mut g, &["melee 0413 0414", "roll 2", "roll 1"]);
    let u = uid(&g, "FR.4");
    assert_eq!(g.loc(u), napoleonic_battles::Loc::Eliminated);
    assert!(!g.permanently_eliminated(u), "in the recovery box");
    play(&mut g, &["end", "pass", "roll 6"]);
    play(&mut g, &["roll 2", "roll 12", "pass", "roll 1", "pass"]);
    assert_eq!(g.to_act(), ToAct::Chance, "a recovery roll");
    act(&mut g, &format!("roll {die}"));
    g
}

#[test]
fn recovery_an_eliminated_unit_returns_with_one_sp_within_two_hexes_of_its_officer() {
    // die 2, below initiative 3: it recovers, and the French place it
    let mut g = eliminated_then_night(2);
    let u = uid(&g, "FR.4");
    assert_eq!(g.step(), napoleonic_battles::Step::Place);
    assert_eq!(g.to_act(), ToAct::Side(Side(0)), "its owner places it");
    assert_eq!(g.unit_to_place(), Some(u));
    let victor = g.leader_by_id("FR.Victor").unwrap();
    let napoleonic_battles::LeaderLoc::Map(vh) = g.leader_loc(victor) else {
        panic!("Victor is off the map")
    };
    // the legal actions are the placements into every hex within 2 of Victor that neither
    // holds nor touches the enemy (NB Napoleon At Leipzig: not next to the enemy at night)
    let map = &g.scenario().map;
    let ru = hex("0414");
    let mut want: Vec<String> = Vec::new();
    for x in 1..=9 {
        for y in 8..=19 {
            let h = hexmap::Hex::new(x, y);
            let ok = map.contains(h) && map.distance(h, vh) <= 2 && map.distance(h, ru) > 1;
            let text = format!("place FR.4 {h}");
            let a = g.parse_action(&text).unwrap();
            assert_eq!(g.check(a).is_ok(), ok, "{text}: {:?}", g.check(a));
            if ok {
                want.push(text);
            }
        }
    }
    let mut got = g.legal_actions_text();
    assert_eq!(got.len(), want.len(), "{got:?}");
    got.sort();
    want.sort();
    assert_eq!(
        got, want,
        "only the placements are legal, every one of them"
    );
    // the owner picks a hex, not the nearest to the officer
    let far = g
        .placement_hexes(u)
        .into_iter()
        .max_by_key(|&h| (map.distance(h, vh), h))
        .unwrap();
    assert_eq!(map.distance(far, vh), 2);
    act(&mut g, &format!("place FR.4 {far}"));
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::Placed { unit, hex } if *unit == u && *hex == far)));
    assert_eq!(g.loc(u), napoleonic_battles::Loc::Map(far));
    assert_eq!(g.sp(u), 1, "one step: 1 SP in our SP-loss game");
    assert_eq!(g.disorder(u), napoleonic_battles::Disorder::Good);
    let f = g.supplement().formation_of(g.scenario(), u);
    assert_eq!(g.formation_lost(f), 1, "one of the two SP lost is back");
    assert_eq!(g.turn(), 3, "the victory phase followed");
}

#[test]
fn recovery_placement_refusals_cite_the_rule() {
    let g = eliminated_then_night(2);
    let victor = g.leader_by_id("FR.Victor").unwrap();
    let napoleonic_battles::LeaderLoc::Map(vh) = g.leader_loc(victor) else {
        panic!("Victor is off the map")
    };
    let map = &g.scenario().map;
    let three = map.neighbour(
        map.neighbour(map.neighbour(vh, hexmap::Dir::W), hexmap::Dir::W),
        hexmap::Dir::W,
    );
    let r = refusal(&g, &format!("place FR.4 {three}"));
    assert_eq!(r.case, "NB Recovery", "{r}");
    assert!(r.why.contains("within 2 hexes"), "{r}");
    // next to RU.3 in 0414 (0413 is Victor's own hex)
    let r = refusal(&g, &format!("place FR.4 {vh}"));
    assert_eq!(r.case, "NB Napoleon At Leipzig", "{r}");
    let r = refusal(&g, "place FR.4 0414");
    assert_eq!(r.case, "NB78", "{r}");
    let r = refusal(&g, "place FR.6 0410");
    assert_eq!(r.case, "NB Recovery", "{r}");
    assert!(r.why.contains("FR.4 is"), "{r}");
    let r = refusal(&g, "pass");
    assert_eq!(r.case, "NB Recovery", "{r}");
    assert!(r.why.contains("place FR.4"), "{r}");
    // and outside the placement step
    let d = duel("0413", "0416");
    let r = refusal(&d, "place FR.4 0410");
    assert_eq!(r.case, "NB Recovery", "{r}");
}

#[test]
fn recovery_a_placement_may_be_taken_back_until_the_next_die() {
    let mut g = eliminated_then_night(2);
    let before = g.state_hash();
    let hexes = g.placement_hexes(uid(&g, "FR.4"));
    act(&mut g, &format!("place FR.4 {}", hexes[0]));
    // NB58: a choice since the last die
    assert_eq!(g.undoable(), 1);
    let mut r = eliminated_then_night(2);
    assert_eq!(r.state_hash(), before);
    act(&mut r, &format!("place FR.4 {}", hexes[hexes.len() - 1]));
    assert_ne!(
        r.state_hash(),
        g.state_hash(),
        "the owner's choice is in the state"
    );
}

#[test]
fn recovery_an_eliminated_unit_that_fails_is_permanently_eliminated() {
    // die 3, not below initiative 3
    let g = eliminated_then_night(3);
    let u = uid(&g, "FR.4");
    assert_eq!(g.loc(u), napoleonic_battles::Loc::Eliminated);
    assert!(g.permanently_eliminated(u));
    assert_eq!(g.turn(), 3);
}

#[test]
fn recovery_units_destroyed_before_the_scenario_are_permanently_eliminated() {
    let g = game("bon-third-day");
    let destroyed: Vec<_> = g
        .unit_ids()
        .filter(|&u| matches!(g.scenario().unit(u).start, naw::scenario::Start::Destroyed))
        .collect();
    assert!(!destroyed.is_empty(), "the third day starts with losses");
    assert!(destroyed.iter().all(|&u| g.permanently_eliminated(u)));
}
