//! NB Movement procedures, facing and zones of control; reaction face changes; NB Stacking
//! and SP limits; NB Strategic movement.

mod common;
use common::*;
use engine::{Rules, Side, ToAct};
use hexmap::Dir;
use napoleonic_battles::{arc, Action, Arc, Event, Game, Step};

fn moved_cost(g: &Game) -> u16 {
    g.events()
        .iter()
        .find_map(|e| match e {
            Event::Moved { cost_half, .. } => Some(*cost_half),
            _ => None,
        })
        .expect("a move")
}

/// French units (Victor's) and the Russians in 0414; the French activate Victor.
fn activated(french: &[U]) -> Game {
    let mut units: Vec<U> = french
        .iter()
        .map(|u| U(u.0, u.1, u.2, u.3, u.4, u.5))
        .collect();
    units.push(U("RU.3", "infantry", 6, 4, EUGEN, "0414"));
    let mut g = custom(3, &[], &units);
    play(&mut g, &FRENCH_GO);
    assert_eq!(g.step(), Step::Movement);
    g
}

#[test]
fn facing_three_front_two_flank_one_rear_hexsides() {
    for f in Dir::ALL {
        let arcs: Vec<Arc> = Dir::ALL.iter().map(|&d| arc(f, d)).collect();
        assert_eq!(arcs.iter().filter(|&&a| a == Arc::Front).count(), 3);
        assert_eq!(arcs.iter().filter(|&&a| a == Arc::Flank).count(), 2);
        assert_eq!(arcs.iter().filter(|&&a| a == Arc::Rear).count(), 1);
        assert_eq!(arc(f, f), Arc::Front);
        assert_eq!(arc(f, f.opposite()), Arc::Rear);
    }
}

#[test]
fn facing_starts_toward_the_nearest_enemy() {
    let g = activated(&[U("FR.4", "infantry", 6, 4, VICTOR, "0411")]);
    // 0414 lies west of 0411 (YY grows westward)
    assert_eq!(g.facing(uid(&g, "FR.4")), Dir::W);
    assert_eq!(g.facing(uid(&g, "RU.3")), Dir::E);
    assert!(g.enemy_front(0, hex("0413")));
}

#[test]
fn movement_halt_on_entering_an_enemy_front_hex_then_one_hexspine_of_turn() {
    let mut g = activated(&[U("FR.4", "infantry", 6, 4, VICTOR, "0411")]);
    play(&mut g, &["move FR.4 0412", "move FR.4 0413"]);
    assert!(g.events().iter().any(|e| matches!(e, Event::Halted { .. })));
    let r = refusal(&g, "move FR.4 0412");
    assert_eq!(r.case, "NB Movement");
    assert!(r.why.contains("halted"), "{}", r.why);
    // entered facing W: a turn of one hexspine (NW or SW) only
    assert_eq!(refusal(&g, "face 0413 E").case, "NB Movement");
    act(&mut g, "face 0413 NW");
    assert_eq!(refusal(&g, "face 0413 SW").case, "NB Movement", "once");
}

#[test]
fn movement_no_moving_from_one_enemy_front_hex_to_another() {
    let mut g = duel("0413", "0414");
    play(&mut g, &FRENCH_GO);
    let ne = nb(&g, "0414", Dir::NE);
    assert!(g.enemy_front(0, ne));
    let r = g
        .check(Action::Move {
            unit: uid(&g, "FR.4"),
            to: ne,
        })
        .unwrap_err();
    assert!(r.why.contains("ZOC to ZOC"), "{}", r.why);
}

#[test]
fn movement_infantry_pays_one_more_mp_to_leave_an_enemy_front_hex_cavalry_does_not() {
    for (kind, corps, officer, extra) in [
        ("infantry", VICTOR, "FR.Victor", 2),
        ("cavalry", LATOUR, "FR.LatourMaubourg", 0),
    ] {
        let mut g = custom(
            3,
            &[],
            &[
                U("FR.4", kind, 4, 4, corps, "0413"),
                U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
            ],
        );
        play(
            &mut g,
            &[
                "pass",
                "roll 1",
                &format!("command FR.Murat {officer}"),
                "go",
            ],
        );
        act(&mut g, "move FR.4 0412");
        // clear terrain 1 MP, at least 1 MP near the enemy, +1 MP for infantry
        assert_eq!(moved_cost(&g), 2 + extra, "{kind}");
    }
}

#[test]
fn movement_units_in_a_hex_share_one_facing() {
    let mut g = activated(&[
        U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
        U("FR.6", "infantry", 6, 4, VICTOR, "0410"),
    ]);
    act(&mut g, "face 0411 NW");
    act(&mut g, "move FR.6 0411");
    assert_eq!(
        g.facing(uid(&g, "FR.6")),
        Dir::NW,
        "it adopts the hex's facing"
    );
    assert_eq!(g.hex_facing(hex("0411")), Some(Dir::NW));
}

#[test]
fn movement_reaction_face_change_is_the_opponents_choice() {
    // FR.5 comes around the Russians' flank: the Russians may turn one hexspine to front it
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0413"),
            U("FR.5", "infantry", 6, 4, VICTOR, "0214"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0414"),
        ],
    );
    play(&mut g, &FRENCH_GO);
    let nw = nb(&g, "0414", Dir::NW);
    assert!(!g.enemy_front(0, nw), "a flank hex of the Russians");
    let from = g.loc(uid(&g, "FR.5"));
    let napoleonic_battles::Loc::Map(from) = from else {
        panic!()
    };
    assert!(
        g.scenario().map.distance(from, nw) == 1,
        "0214 is next to {nw}"
    );
    act(&mut g, &format!("move FR.5 {nw}"));
    assert_eq!(g.step(), Step::Reaction);
    assert_eq!(g.to_act(), ToAct::Side(Side(1)), "the Allies decide");
    let texts = g.legal_actions_text();
    assert!(texts.contains(&"hold 0414".to_string()), "{texts:?}");
    assert!(texts.contains(&"react 0414 NE".to_string()), "{texts:?}");
    act(&mut g, "react 0414 NE");
    // now in the Russians' front: the mover halts
    assert!(g.enemy_front(0, nw));
    assert!(g.events().iter().any(|e| matches!(e, Event::Halted { .. })));
    assert_eq!(g.to_act(), ToAct::Side(Side(0)));
    assert_eq!(refusal(&g, "move FR.5 0213").case, "NB Movement");
}

#[test]
fn stacking_infantry_and_cavalry_never_share_a_hex() {
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("FR.I", "cavalry", 4, 6, LATOUR, "0410"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0415"),
        ],
    );
    play(
        &mut g,
        &["pass", "roll 1", "command FR.Murat FR.LatourMaubourg", "go"],
    );
    assert_eq!(
        refusal(&g, "move FR.I 0411").case,
        "NB Stacking and SP limits"
    );
}

#[test]
fn stacking_infantry_is_limited_to_twelve_sp_and_a_bigger_unit_stands_alone() {
    let mut g = activated(&[
        U("FR.4", "infantry", 8, 4, VICTOR, "0411"),
        U("FR.5", "infantry", 5, 4, VICTOR, "0410"),
        U("FR.6", "infantry", 4, 4, VICTOR, "0409"),
        U("FR.8", "infantry", 14, 4, VICTOR, "0408"),
    ]);
    assert_eq!(
        refusal(&g, "move FR.5 0411").case,
        "NB Stacking and SP limits"
    );
    // NB Napoleon At Leipzig (extended to infantry): above the limit, only alone
    assert_eq!(refusal(&g, "move FR.8 0409").case, "NB Napoleon At Leipzig");
    act(&mut g, "move FR.6 0410"); // 5 + 4
}

#[test]
fn strategic_movement_far_from_the_enemy_ma_four_becomes_six() {
    let mut g = duel("0411", "2528");
    play(&mut g, &FRENCH_GO);
    for h in ["0412", "0411", "0412", "0411", "0412", "0411"] {
        act(&mut g, &format!("move FR.4 {h}"));
    }
    let r = refusal(&g, "move FR.4 0412");
    assert!(r.why.contains("movement points"), "{}", r.why);
}

#[test]
fn strategic_movement_not_within_four_hexes_of_the_enemy() {
    let mut g = activated(&[U("FR.4", "infantry", 6, 4, VICTOR, "0410")]);
    // the Russians in 0414 are 4 hexes away, and 0411 is within 3: the MA stays 4
    for h in ["0411", "0410", "0411", "0410"] {
        act(&mut g, &format!("move FR.4 {h}"));
    }
    assert!(refusal(&g, "move FR.4 0409")
        .why
        .contains("movement points"));
}

#[test]
fn strategic_movement_halves_the_stacking_limits() {
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("FR.6", "infantry", 6, 4, VICTOR, "0410"),
            U("RU.3", "infantry", 6, 4, EUGEN, "2528"),
        ],
    );
    play(&mut g, &FRENCH_GO);
    // four steps at the normal allowance; a fifth is strategic
    for h in ["0409", "0410", "0409", "0410"] {
        act(&mut g, &format!("move FR.6 {h}"));
    }
    let r = refusal(&g, "move FR.6 0411");
    assert_eq!(r.case, "NB Stacking and SP limits");
    assert!(r.why.contains("halved in strategic movement"), "{}", r.why);
    act(&mut g, "move FR.6 0409");
}

#[test]
fn tactical_movement_at_least_one_mp_a_hex_next_to_the_enemy_even_on_a_road() {
    // find a road a - b - c and a hex e next to c, two or more from b and three from a
    let g0 = custom(3, &[], &[U("FR.4", "infantry", 6, 4, VICTOR, "0411")]);
    let sc = g0.scenario();
    let road = sc.chart.road;
    let mut found = None;
    'search: for a in sc.map.hexes() {
        for d in Dir::ALL {
            if !sc.map.hexside(a, d).any(road) {
                continue;
            }
            let b = sc.map.neighbour(a, d);
            for d2 in Dir::ALL {
                let c = sc.map.neighbour(b, d2);
                if c == a || !sc.map.hexside(b, d2).any(road) || !sc.map.contains(c) {
                    continue;
                }
                for e in sc.map.neighbours(c) {
                    if sc.map.contains(e)
                        && sc.map.distance(e, b) >= 2
                        && sc.map.distance(e, a) >= 3
                        && sc.map.terrain_kind(e).id == "clear"
                    {
                        found = Some((a, b, c, e));
                        break 'search;
                    }
                }
            }
        }
    }
    let (a, b, c, e) = found.expect("a road on the Leipzig map");
    let (a, e) = (a.to_string(), e.to_string());
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, &a),
            U("RU.3", "infantry", 6, 4, EUGEN, &e),
        ],
    );
    play(&mut g, &FRENCH_GO);
    act(&mut g, &format!("move FR.4 {b}"));
    assert_eq!(moved_cost(&g), 1, "the road's half MP away from the enemy");
    if g.step() == Step::Reaction {
        let h = g.legal_actions_text()[0].clone();
        act(&mut g, &h);
    }
    act(&mut g, &format!("move FR.4 {c}"));
    assert_eq!(moved_cost(&g), 2, "next to the enemy: at least 1 MP");
}

#[test]
fn a_commander_moves_once_a_turn_with_an_activation_he_commands() {
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0411"),
            U("FR.20", "infantry", 6, 4, LAURISTON, "0410"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0415"),
        ],
    );
    play(&mut g, &FRENCH_GO);
    // he accompanies an activated unit (NB77): FR.4, not Lauriston's FR.20
    assert_eq!(refusal(&g, "lead FR.Murat 0410").case, "NB Action phase");
    play(&mut g, &["move FR.4 0412", "lead FR.Murat 0412"]);
    assert_eq!(
        refusal(&g, "lead FR.Murat 0411").case,
        "NB Action phase",
        "once a turn"
    );
    // the officer moves with his formation
    act(&mut g, "lead FR.Victor 0410");
    play(
        &mut g,
        &[
            "end",
            "end",
            "pass",
            "roll 1",
            "command FR.Murat FR.Lauriston",
            "go",
        ],
    );
    assert_eq!(refusal(&g, "lead FR.Murat 0409").case, "NB Action phase");
}

#[test]
fn leipzig_terrain_infantry_enters_swamp_off_the_road_cavalry_only_along_a_road() {
    // 0810 and 0811 are marsh, entered from the clear 0710 and 0711 through plain hexsides
    let mut g = custom(
        3,
        &[],
        &[
            U("FR.4", "infantry", 6, 4, VICTOR, "0710"),
            U("FR.I", "cavalry", 4, 6, LATOUR, "0711"),
            U("RU.3", "infantry", 6, 4, EUGEN, "0415"),
        ],
    );
    let sc = g.scenario();
    assert!(g.supplement().hex_class(sc, hex("0810")).swamp);
    assert!(g.supplement().hex_class(sc, hex("0811")).swamp);
    play(
        &mut g,
        &[
            "pass",
            "roll 1",
            "command FR.Murat FR.Victor",
            "command FR.Murat FR.LatourMaubourg",
            "go",
        ],
    );
    // NB73: infantry pays the data's 2 MP
    act(&mut g, "move FR.4 0810");
    assert_eq!(moved_cost(&g), 4, "2 MP, in half MP");
    assert_eq!(g.supplement().movement.infantry_swamp_mp, 2);
    let r = refusal(&g, "move FR.I 0811");
    assert_eq!(r.case, "NB Leipzig Terrain Effects");
    assert!(r.why.contains("road or trail"), "{}", r.why);
    // the original chart's prohibitions are refused in this system's words (0810/0910 is a
    // river hexside without a bridge)
    let r = refusal(&g, "move FR.4 0910");
    assert_eq!(r.case, "NB Movement");
    assert!(r.why.contains("only at a bridge"), "{}", r.why);
    assert!(!r.why.contains("5.24"), "{}", r.why);
    // the chart's words for it, and none where the original chart stands
    let t = g.supplement().movement_text("marsh").expect("swamp");
    assert!(t.starts_with("infantry 2 MP"), "{t}");
    assert_eq!(g.supplement().movement_text("forest"), None);
}
