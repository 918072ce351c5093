//! Combat as played (Combat, Supply, Leaders, Fortress and Siege, the CRT, Retreat Order of
//! Preference): declarations, supply allocation, retreat before combat, the die, and results
//! carried out; the automatic elimination at 500% during movement.

mod common;
use common::*;
use engine::{Rules, ToAct};
use hexmap::Hex;
use leipzig_1813::game::{Status, Step};
use leipzig_1813::{Action, Event, Game};

/// A French attacker at `h`, an Allied defender next to it: both given by kind.
fn duel(att: &[&str], def: &[&str]) -> (Game, Hex, Hex) {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let n = steps(&g, h, 0, 1);
    for k in att {
        g.stage_unit(0, k, h).unwrap();
    }
    for k in def {
        g.stage_unit(1, k, n).unwrap();
    }
    (g, h, n)
}

/// From the movement phase to the die: attack, no retreat, no defensive supply.
fn fight(g: &mut Game, from: Hex, to: Hex, supply: &[usize], die: u8) {
    if g.step() == Step::Movement {
        g.apply(Action::End).unwrap();
    }
    let t = format!("attack {from} {to}");
    act(g, &t);
    for &s in supply {
        g.apply(Action::Supply { unit: s as u16 }).unwrap();
    }
    g.apply(Action::End).unwrap();
    assert_eq!(g.step(), Step::Retreat);
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    assert_eq!(g.to_act(), ToAct::Chance);
    g.apply(Action::Roll(die)).unwrap();
}

/// The owners choose the first of the equal routes of every retreat waiting for them (L45).
fn choose_first_retreats(g: &mut Game) {
    while g.retreat_choice().is_some() {
        let mut buf = Vec::new();
        g.legal_actions(&mut buf);
        g.apply(buf[0]).unwrap();
    }
}

fn resolved(g: &Game) -> (u32, u32, u32, String, String) {
    g.events()
        .iter()
        .find_map(|e| match e {
            Event::CombatResolved {
                attack,
                defence,
                percent,
                column,
                result,
                ..
            } => Some((*attack, *defence, *percent, column.clone(), result.clone())),
            _ => None,
        })
        .expect("a combat was resolved")
}

#[test]
fn combat_i_unsupplied_units_fight_at_half_strength_and_dx_destroys() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-division"]);
    fight(&mut g, h, n, &[], 3);
    // 5 halved to 2 against 2 halved to 1: 200%, die 3: Dx.
    assert_eq!(
        resolved(&g),
        (2, 1, 200, "200%".to_string(), "Dx".to_string())
    );
    assert!(g.units_at(n).is_empty());
    assert_eq!(g.losses(1).combat, 1);
}

#[test]
fn supply_c_i_an_allocated_supply_unit_gives_full_strength_and_is_spent() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-division"]);
    let s = g.stage_unit(0, "supply", steps(&g, h, 3, 1)).unwrap();
    fight(&mut g, h, n, &[s], 1);
    // 5 against 1: 500%, Auto (L4: in the combat phase, a Dx).
    let (a, d, p, _, r) = resolved(&g);
    assert_eq!((a, d, p, r.as_str()), (5, 1, 500, "Auto"));
    assert!(g.units_at(n).is_empty());
    // The combat phase is over: the supply unit is spent.
    assert_eq!(g.units()[s].status, Status::Gone);
    assert_eq!(g.player(), 1);
}

#[test]
fn leaders_b_napoleon_adds_eighteen_to_one_army() {
    let (mut g, h, n) = duel(&["infantry-army"], &["infantry-army"]);
    g.stage_leader(0, 1, h);
    let s = g.stage_unit(0, "supply", h).unwrap();
    fight(&mut g, h, n, &[s], 6);
    // 18 + 18 of Napoleon's 25 against an unsupplied army's 9.
    let (a, d, ..) = resolved(&g);
    assert_eq!((a, d), (36, 9));
}

#[test]
fn combat_d_the_units_of_one_hex_attack_once() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-division"]);
    g.stage_unit(1, "infantry-division", steps(&g, h, 1, 1))
        .unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    let r = refusal(&g, &format!("attack {h} {}", steps(&g, h, 1, 1)));
    assert_eq!(r.case, "Combat (D)");
}

#[test]
fn tec_river_hexside_no_attack_across_a_river_below_160_percent() {
    let mut g = staged(0);
    let (a, b, _) = river_crossing(&g);
    g.stage_unit(0, "infantry-corps", a).unwrap();
    g.stage_unit(1, "infantry-division", b).unwrap();
    g.apply(Action::End).unwrap();
    // 2 against 1 doubled: 100%.
    assert_eq!(
        refusal(&g, &format!("attack {a} {b}")).case,
        "TEC River hexside"
    );
}

#[test]
fn combat_j_retreat_before_combat_disperses_and_spends_no_supply() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-division"]);
    let s = g.stage_unit(0, "supply", steps(&g, h, 3, 1)).unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    g.apply(Action::Supply { unit: s as u16 }).unwrap();
    g.apply(Action::End).unwrap();
    let d = g.units_at(n)[0];
    let ends = g.retreat_before_combat_hexes(d);
    assert!(!ends.is_empty());
    // Its full allowance: five hexes of clear ground, or as far as it may go.
    let to = ends[0];
    let t = format!("retreat {} {to}", g.label(d));
    act(&mut g, &t);
    assert!(g.is_dispersed(&g.units()[d]));
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    // Supply (F): nothing was fought, the supply unit stays.
    assert_eq!(g.units()[s].status, Status::OnMap);
    assert!(g
        .events()
        .iter()
        .any(|e| matches!(e, Event::CombatVoid { .. })));
}

#[test]
fn combat_j_ii_infantry_attacked_at_500_percent_may_not_retreat_but_cavalry_may() {
    let (mut g, h, n) = duel(
        &["infantry-army"],
        &["infantry-division", "cavalry-division"],
    );
    let s = g.stage_unit(0, "supply", h).unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    g.apply(Action::Supply { unit: s as u16 }).unwrap();
    g.apply(Action::End).unwrap();
    let here = g.units_at(n);
    let inf = *here
        .iter()
        .find(|&&i| g.kind(&g.units()[i]).id == "infantry-division")
        .unwrap();
    let cav = *here
        .iter()
        .find(|&&i| g.kind(&g.units()[i]).id == "cavalry-division")
        .unwrap();
    // 18 (supplied) against 2 + 1 printed: 600%.
    assert!(!g.may_retreat_before_combat(inf));
    assert!(g.may_retreat_before_combat(cav));
    let to = hexmap::Hex::new(1, 1);
    assert_eq!(
        refusal(&g, &format!("retreat {} {to}", g.label(inf))).case,
        "Combat (J)"
    );
}

#[test]
fn combat_j_i_a_surrounded_unit_may_not_retreat() {
    let mut g = staged(0);
    let h = open_ground(&g, 4);
    let n = steps(&g, h, 0, 1);
    let d = g.stage_unit(1, "cavalry-division", n).unwrap();
    g.stage_unit(0, "cavalry-division", h).unwrap();
    g.stage_unit(0, "cavalry-division", steps(&g, n, 0, 1))
        .unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    g.apply(Action::End).unwrap();
    assert!(g.retreat_before_combat_hexes(d).is_empty());
}

#[test]
fn crt_dd1_disperses_and_retreats_one_hex_toward_the_own_edge() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-corps"]);
    // 2 against 2: 100%, die 4: Dd1.
    fight(&mut g, h, n, &[], 4);
    assert_eq!(resolved(&g).4, "Dd1");
    let c = (0..g.units().len())
        .find(|&i| g.units()[i].side == 1)
        .unwrap();
    let u = &g.units()[c];
    assert!(g.is_dispersed(u));
    assert!(g.board().adjacent(u.hex, n));
    // Retreat Order of Preference (B): the Allies go toward the north, south or east edge.
    assert!(g.board().from_home_edge(1, u.hex) < g.board().from_home_edge(1, n));
}

#[test]
fn crt_ds_scatters_the_stack_into_divisions_each_alone_and_dispersed() {
    let (mut g, h, n) = duel(&["cavalry-corps"], &["infantry-corps"]);
    let s = g.stage_unit(0, "supply", h).unwrap();
    // 3 against 2: 150%, the 140% column: Ds on every die.
    fight(&mut g, h, n, &[s], 2);
    assert_eq!(resolved(&g).4, "Ds");
    choose_first_retreats(&mut g);
    let allied: Vec<usize> = (0..g.units().len())
        .filter(|&i| g.units()[i].side == 1 && g.units()[i].on_map())
        .filter(|&i| g.board().distance(g.units()[i].hex, n) <= 5)
        .collect();
    assert_eq!(allied.len(), 2);
    for &i in &allied {
        let u = &g.units()[i];
        assert_eq!(g.kind(u).id, "infantry-division");
        assert!(g.is_dispersed(u));
        assert_ne!(u.hex, n);
        assert_eq!(g.units_at(u.hex).len(), 1, "alone");
    }
}

#[test]
fn crt_half_exchange_the_attacker_loses_half_the_defenders_divisions_rounded_up() {
    let (mut g, h, n) = duel(&["infantry-army"], &["infantry-corps"]);
    let s = g.stage_unit(1, "supply", steps(&g, n, 0, 1)).unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::Supply { unit: s as u16 }).unwrap();
    g.apply(Action::End).unwrap();
    // 9 against 5: 180%, die 4: 1/2ex.
    g.apply(Action::Roll(4)).unwrap();
    assert_eq!(resolved(&g).4, "1/2ex");
    assert!(g.units_at(n).iter().all(|&i| g.units()[i].side != 1));
    assert_eq!(g.losses(1).combat, 2);
    assert_eq!(g.losses(0).combat, 1);
    // The army broke down: five divisions remain.
    assert_eq!(g.units_at(h).len(), 5);
}

#[test]
fn fortress_a_units_in_a_fortress_are_tripled_and_only_a_dx_touches_them() {
    let mut g = staged(0);
    let f = fortress(&g);
    let (_, n) = g
        .board()
        .neighbours(f)
        .find(|&(d, n)| !g.board().side(f, d).river && g.board().hex(n).kind == 0)
        .unwrap();
    g.stage_unit(1, "infantry-division", f).unwrap();
    g.stage_unit(0, "infantry-army", n).unwrap();
    fight(&mut g, n, f, &[], 1);
    // 9 against 2 (supplied in the fortress) tripled: 150%, die 1: Ds, which touches nothing.
    let (a, d, p, _, r) = resolved(&g);
    assert_eq!((a, d, p, r.as_str()), (9, 6, 150, "-"));
    assert_eq!(g.units_at(f).len(), 1);
}

#[test]
fn crt_auto_a_moving_stack_eliminates_at_500_percent_but_not_cavalry() {
    let (mut g, h, n) = duel(&["infantry-army"], &["infantry-division"]);
    let t = format!("overrun {h} {n}");
    act(&mut g, &t);
    assert!(g.units_at(n).is_empty());
    // Moving over the eliminated units' hex costs 1 MP more.
    let army = g.units_at(h)[0];
    assert_eq!(
        g.moves(army).into_iter().find(|&(x, _)| x == n),
        Some((n, 2))
    );
    let (g, h, n) = duel(&["infantry-army"], &["cavalry-division"]);
    assert_eq!(refusal(&g, &format!("overrun {h} {n}")).case, "CRT Auto");
    // Against a defender that could be supplied, its full strength counts: 18 against 2 is
    // 900%, still enough; against a corps (5) it is not.
    let (mut g, h, n) = duel(&["infantry-army"], &["infantry-corps"]);
    g.stage_unit(1, "supply", steps(&g, n, 0, 1)).unwrap();
    assert_eq!(refusal(&g, &format!("overrun {h} {n}")).case, "CRT Auto");
}

#[test]
fn combat_m_the_attackers_may_advance_into_a_hex_vacated_by_a_retreat_before_combat() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-division"]);
    g.apply(Action::End).unwrap();
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    g.apply(Action::End).unwrap();
    let d = g.units_at(n)[0];
    let to = g.retreat_before_combat_hexes(d)[0];
    let t = format!("retreat {} {to}", g.label(d));
    act(&mut g, &t);
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    // The attacker chooses: advance, or end to stay.
    let mut stay = g.clone();
    stay.apply(Action::End).unwrap();
    assert_eq!(stay.units_at(n).len(), 0);
    let t = format!("advance {h} {n}");
    act(&mut g, &t);
    assert_eq!(g.units_at(n).len(), 1);
    assert!(g.units_at(h).is_empty());
}

#[test]
fn combat_m_no_advance_after_an_attack_on_clear_ground_only_across_a_river() {
    let (mut g, h, n) = duel(&["infantry-corps"], &["infantry-division"]);
    fight(&mut g, h, n, &[], 3);
    // Dx on clear ground: the hex is empty, but no advance is offered.
    assert!(g.units_at(n).is_empty());
    assert!(g.check(Action::Advance { from: h, to: n }).is_err());
    let mut g = staged(0);
    let (a, b, _) = river_crossing(&g);
    g.stage_unit(0, "infantry-army", a).unwrap();
    g.stage_unit(1, "infantry-division", b).unwrap();
    // 9 against 1 doubled: 450%, the 400% column, die 1: Dx; across the river, an advance.
    fight(&mut g, a, b, &[], 1);
    assert!(g.units_at(b).is_empty());
    assert!(g.check(Action::Advance { from: a, to: b }).is_ok());
}

#[test]
fn supply_e_supply_units_eliminated_in_combat_never_reappear() {
    let (mut g, h, n) = duel(&["infantry-army"], &["infantry-division"]);
    let s = g.stage_unit(1, "supply", n).unwrap();
    g.stage_unit(0, "supply", h).unwrap();
    assert_eq!(g.supply_limit(1), 10);
    let t = format!("overrun {h} {n}");
    // Both could be supplied: 18 against 2.
    act(&mut g, &t);
    assert_eq!(g.units()[s].status, Status::Eliminated);
    assert_eq!(g.supply_limit(1), 9);
}

#[test]
fn fortress_e_units_in_a_fortress_attack_every_adjacent_enemy_hex_together() {
    let mut g = staged(0);
    let f = fortress(&g);
    let open: Vec<Hex> = g
        .board()
        .neighbours(f)
        .filter(|&(d, n)| !g.board().side(f, d).river && g.board().hex(n).kind != 3)
        .map(|(_, n)| n)
        .collect();
    assert!(open.len() >= 2);
    g.stage_unit(0, "infantry-army", f).unwrap();
    g.stage_unit(1, "infantry-division", open[0]).unwrap();
    g.stage_unit(1, "infantry-division", open[1]).unwrap();
    g.apply(Action::End).unwrap();
    let t = format!("attack {f} {}", open[0]);
    act(&mut g, &t);
    let mut targets = g.combats()[0].targets.clone();
    targets.sort();
    let mut want = vec![open[0], open[1]];
    want.sort();
    assert_eq!(targets, want);
}

#[test]
fn fortress_f_units_in_a_fortress_are_besieged_when_the_enemy_holds_or_controls_every_hex_around() {
    let mut g = staged(0);
    let f = fortress(&g);
    g.stage_unit(1, "infantry-division", f).unwrap();
    assert!(!g.besieged(f));
    let around: Vec<Hex> = g.board().neighbours(f).map(|(_, n)| n).collect();
    g.stage_unit(0, "infantry-division", around[0]).unwrap();
    assert!(!g.besieged(f));
    for &n in &around[1..] {
        g.stage_unit(0, "infantry-division", n).unwrap();
    }
    assert!(g.besieged(f));
    // An Allied unit outside disputes the control of the hexes next to it.
    let mut g2 = g.clone();
    let free = around[0];
    let i = g2.units_at(free)[0];
    g2.stage_unit_mut(i).status = Status::Gone;
    let beyond = g2
        .board()
        .neighbours(free)
        .map(|(_, n)| n)
        .find(|n| !around.contains(n) && *n != f)
        .unwrap();
    g2.stage_unit(1, "cavalry-division", beyond).unwrap();
    assert!(!g2.besieged(f));
}

#[test]
fn l43_fortress_e_units_in_a_fortress_fight_supplied_whatever_their_number() {
    let mut g = staged(0);
    let f = fortress(&g);
    let (_, n) = g
        .board()
        .neighbours(f)
        .find(|&(d, n)| !g.board().side(f, d).river && g.board().hex(n).kind == 0)
        .unwrap();
    // Eight Allied divisions in the fortress, no supply unit anywhere.
    for _ in 0..4 {
        g.stage_unit(1, "infantry-corps", f).unwrap();
    }
    g.stage_unit(0, "infantry-army", n).unwrap();
    fight(&mut g, n, f, &[], 1);
    // Four 5-4s at full strength, tripled: 60 (halved they would be 24).
    let (a, d, ..) = resolved(&g);
    assert_eq!((a, d), (9, 60));
}

#[test]
fn l43_fortress_b_more_than_six_divisions_in_a_fortress_need_a_supply_unit_to_stack() {
    for (corps, out) in [(3, false), (4, true)] {
        let mut g = staged(0);
        let f = fortress(&g);
        for _ in 0..corps {
            g.stage_unit(0, "infantry-corps", f).unwrap();
        }
        g.apply(Action::End).unwrap();
        let short = g
            .events()
            .iter()
            .any(|e| matches!(e, Event::StackOutOfSupply { .. }));
        assert_eq!(short, out, "{corps} corps");
    }
}

#[test]
fn l44_stacking_d_units_of_an_attacking_stack_may_stand_aside() {
    let (mut g, h, n) = duel(
        &["infantry-corps", "infantry-division"],
        &["infantry-corps"],
    );
    let (corps, div) = (0, 1);
    // A supply unit keeps the stack supplied (Stacking (B)); none is allocated to the combat.
    g.stage_unit(0, "supply", h).unwrap();
    g.apply(Action::End).unwrap();
    // Only once its hex's attack is declared.
    let aside = |g: &Game, u: usize| format!("aside {}", g.label(u));
    assert_eq!(refusal(&g, &aside(&g, div)).case, "Stacking (D)");
    let t = format!("attack {h} {n}");
    act(&mut g, &t);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.contains(&Action::Aside { unit: div as u16 }));
    let t = aside(&g, div);
    act(&mut g, &t);
    // The last combat unit attacks.
    assert_eq!(refusal(&g, &aside(&g, corps)).case, "Combat (A)");
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    g.apply(Action::End).unwrap();
    // The corps alone, unsupplied: 2 against 2, 100%; die 1: As.
    g.apply(Action::Roll(1)).unwrap();
    let (a, d, _, _, r) = resolved(&g);
    assert_eq!((a, d, r.as_str()), (2, 2, "As"));
    // The division took no part: it stands where it was, not dispersed.
    let x = &g.units()[div];
    assert_eq!(x.hex, h);
    assert!(!g.is_dispersed(x));
    assert!(g.units()[corps].status != Status::OnMap || g.units()[corps].hex != h);
}

#[test]
fn l45_retreat_order_of_preference_the_owner_chooses_among_equal_routes() {
    let (mut g, h, n) = duel(&["cavalry-corps"], &["infantry-corps"]);
    let s = g.stage_unit(0, "supply", h).unwrap();
    // 3 against 2: the 140% column, Ds: each Allied division retreats its allowance.
    fight(&mut g, h, n, &[s], 2);
    assert_eq!(resolved(&g).4, "Ds");
    let c = g
        .retreat_choice()
        .expect("equal routes: the Allies choose")
        .clone();
    assert_eq!(g.to_act(), ToAct::Side(engine::Side(1)));
    assert!(c.options.len() >= 2);
    let unit = c.units[0];
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let want: Vec<Action> = c
        .options
        .iter()
        .map(|&to| Action::Retreat { unit, to })
        .collect();
    assert_eq!(legal, want);
    // Only the order of preference's equal ends.
    let wrong = Action::Retreat { unit, to: n };
    assert_eq!(
        g.check(wrong).unwrap_err().case,
        "Retreat Order of Preference"
    );
    assert_eq!(
        g.check(Action::End).unwrap_err().case,
        "Retreat Order of Preference"
    );
    // The owner takes the last of them, not the first the game used to pick.
    let to = *c.options.last().unwrap();
    let t = format!("retreat {} {to}", g.label(usize::from(unit)));
    act(&mut g, &t);
    let u = &g.units()[usize::from(unit)];
    assert_eq!(u.hex, to);
    assert!(g.is_dispersed(u));
    choose_first_retreats(&mut g);
    assert!(g.retreat_choice().is_none());
}

#[test]
fn l45_a_dispersed_stack_retreats_together_where_its_owner_chooses() {
    let mut g = staged(1);
    let h = open_ground(&g, 4);
    // A French stack on an even column: three hexes lie one step nearer the west edge.
    let n = g
        .board()
        .neighbours(h)
        .map(|(_, n)| n)
        .find(|n| n.x % 2 == 0 && n.y < h.y)
        .expect("a neighbour on an even column east of h");
    let corps = g.stage_unit(0, "infantry-corps", n).unwrap();
    let s = g.stage_unit(0, "supply", n).unwrap();
    g.stage_unit(1, "infantry-corps", h).unwrap();
    // 2 against 2, unsupplied: 100%, die 4: Dd1.
    fight(&mut g, h, n, &[], 4);
    assert_eq!(resolved(&g).4, "Dd1");
    let c = g.retreat_choice().expect("equal routes").clone();
    assert_eq!(g.to_act(), ToAct::Side(engine::Side(0)));
    let mut units = c.units.clone();
    units.sort();
    assert_eq!(units, vec![corps as u16, s as u16]);
    assert!(c.options.len() >= 2, "{:?}", c.options);
    let to = *c.options.last().unwrap();
    let t = format!("retreat {} {to}", g.label(usize::from(c.units[0])));
    act(&mut g, &t);
    for u in [corps, s] {
        assert_eq!(g.units()[u].hex, to);
        assert!(g.is_dispersed(&g.units()[u]));
    }
}

#[test]
fn l44_tec_river_hexside_standing_aside_may_not_bring_a_river_attack_under_160_percent() {
    let mut g = staged(0);
    let (a, b, _) = river_crossing(&g);
    let army = g.stage_unit(0, "infantry-army", a).unwrap();
    let div = g.stage_unit(0, "infantry-division", a).unwrap();
    g.stage_unit(0, "supply", a).unwrap();
    g.stage_unit(1, "infantry-corps", b).unwrap();
    g.stage_unit(1, "supply", b).unwrap();
    g.apply(Action::End).unwrap();
    // 20 against a supplied corps doubled, 10: 200%.
    let t = format!("attack {a} {b}");
    act(&mut g, &t);
    // Without the army: 2 against 10.
    assert_eq!(
        refusal(&g, &format!("aside {}", g.label(army))).case,
        "TEC River hexside"
    );
    // Without the division: 18 against 10, 180%.
    let t = format!("aside {}", g.label(div));
    act(&mut g, &t);
}
