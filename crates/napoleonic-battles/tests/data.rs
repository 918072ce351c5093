//! The supplement `data/bon.toml`: it parses, fits all three Battle of Nations scenarios, and
//! says what `docs/napoleonic-battles.md` says: leaders, their starts and the overall
//! commanders (NB Action phase, NB Sequence of Play, NB Turn End), morale (NB Napoleon At
//! Leipzig), cavalry classes, terrain classes (NB Leipzig Terrain Effects), formation and army
//! demoralization (NB Formation demoralization, NB Leipzig formation demoralization levels).

use engine::Side;
use napoleonic_battles::data::{CavalryClass, LeaderAt, Rank, Supplement};
use std::collections::BTreeMap;

fn scenario(id: &str) -> naw::Scenario {
    scenarios::load(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

const SCENARIOS: [&str; 3] = ["bon-first-day", "bon-grand-battle", "bon-third-day"];

fn leader(s: &Supplement, id: &str) -> usize {
    s.leaders
        .iter()
        .position(|l| l.id == id)
        .unwrap_or_else(|| panic!("no leader {id}"))
}

fn unit(sc: &naw::Scenario, id: &str) -> naw::UnitId {
    sc.unit_by_id(id).unwrap_or_else(|| panic!("no unit {id}"))
}

#[test]
fn the_embedded_supplement_parses() {
    let s = Supplement::from_toml(Supplement::BON_TOML).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s, Supplement::bon());
}

#[test]
fn the_supplement_fits_every_battle_of_nations_scenario() {
    let s = Supplement::bon();
    for id in SCENARIOS {
        s.check(&scenario(id))
            .unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

#[test]
fn the_digest_is_the_text_s() {
    let s = Supplement::bon();
    assert_eq!(
        s.digest,
        engine::hash_bytes(Supplement::BON_TOML.as_bytes())
    );
    let other = Supplement::from_toml(&format!("{}\n# a comment\n", Supplement::BON_TOML)).unwrap();
    assert_ne!(other.digest, s.digest);
}

// ---- formations and leaders ----

#[test]
fn every_corps_of_the_order_of_battle_is_a_formation() {
    let s = Supplement::bon();
    for id in SCENARIOS {
        let sc = scenario(id);
        for (i, u) in sc.units.iter().enumerate() {
            let f = s.formation_of(&sc, naw::UnitId(i as u8));
            assert_eq!(s.formations[f].corps, u.corps, "{}", u.id);
        }
    }
    assert_eq!(s.formations.len(), 41);
}

#[test]
fn every_formation_has_one_officer_but_the_leipzig_garrison() {
    // Ruling NB3: the garrison, commanded by nobody of rank, moves by unit initiative only.
    let s = Supplement::bon();
    for (i, f) in s.formations.iter().enumerate() {
        let officers = s
            .leaders
            .iter()
            .filter(|l| l.rank == Rank::Corps && l.formations.contains(&i))
            .count();
        let expect = usize::from(f.corps != "Leipzig Garrison (Margaron)");
        assert_eq!(officers, expect, "{}", f.corps);
        assert_eq!(s.officer_of(i).is_some(), expect == 1);
    }
}

#[test]
fn langeron_commands_his_three_corps() {
    let s = Supplement::bon();
    let l = &s.leaders[leader(&s, "RU.Langeron")];
    let corps: Vec<&str> = l
        .formations
        .iter()
        .map(|&f| s.formations[f].corps.as_str())
        .collect();
    assert_eq!(
        corps,
        [
            "III Russian Corps (Langeron)",
            "IX Russian Corps (Langeron)",
            "X Russian Corps (Langeron)"
        ]
    );
}

#[test]
fn ratings_are_on_the_rulebook_s_scale() {
    // Command 0-4 (Napoleon 4), initiative 1-6, an army commander's range 4 hexes
    // (NB Action phase), a corps officer's 3 + his command (the NLB notes); leaders move 10.
    let s = Supplement::bon();
    for l in &s.leaders {
        assert!(l.command <= 4, "{}", l.id);
        assert!((1..=6).contains(&l.initiative), "{}", l.id);
        assert_eq!(l.movement, 10, "{}", l.id);
        match l.rank {
            Rank::Army => {
                assert_eq!(l.range, 4, "{}", l.id);
                assert!(l.formations.is_empty(), "{}", l.id);
            }
            Rank::Corps => assert_eq!(l.range, 3 + l.command, "{}", l.id),
        }
    }
    let n = &s.leaders[leader(&s, "FR.Napoleon")];
    assert_eq!((n.command, n.initiative), (4, 6));
    let b = &s.leaders[leader(&s, "PR.Blucher")];
    assert_eq!((b.command, b.initiative), (3, 6));
    let sch = &s.leaders[leader(&s, "AU.Schwarzenberg")];
    assert_eq!((sch.command, sch.initiative), (2, 2));
}

#[test]
fn french_cavalry_corps_officers_command_1() {
    // The rulebook's NLB notes: French cavalry corps commanders have command 1.
    let s = Supplement::bon();
    for (i, f) in s.formations.iter().enumerate() {
        if f.corps.contains("Cavalry Corps (") {
            let o = s.officer_of(i).unwrap();
            assert_eq!(s.leaders[o].command, 1, "{}", s.leaders[o].id);
        }
    }
}

#[test]
fn every_chain_of_command_ends_at_a_sides_overall_commander() {
    let s = Supplement::bon();
    let tops = [leader(&s, "FR.Napoleon"), leader(&s, "AU.Schwarzenberg")];
    for (i, l) in s.leaders.iter().enumerate() {
        let mut cur = i;
        for _ in 0..10 {
            match s.leaders[cur].superior {
                Some(x) => cur = x,
                None => break,
            }
        }
        assert!(
            tops.contains(&cur),
            "{} ends at {}",
            l.id,
            s.leaders[cur].id
        );
        if l.rank == Rank::Corps {
            let sup = l.superior.expect("every officer has a superior");
            assert_eq!(s.leaders[sup].rank, Rank::Army, "{}", l.id);
        }
    }
}

// ---- where leaders start (NB Turn End) ----

#[test]
fn schwarzenberg_starts_in_2513_on_the_16th() {
    let s = Supplement::bon();
    for id in ["bon-first-day", "bon-grand-battle"] {
        let sc = scenario(id);
        let st = s.leader_starts(&sc);
        let at = st
            .iter()
            .find(|x| x.0 == leader(&s, "AU.Schwarzenberg"))
            .unwrap()
            .1;
        assert_eq!(at, LeaderAt::Hex("2513".parse().unwrap()), "{id}");
        // "with combat units": his hex holds one at the start.
        assert!(sc
            .units
            .iter()
            .any(|u| u.start == naw::scenario::Start::Hex("2513".parse().unwrap())));
    }
}

#[test]
fn napoleon_arrives_on_turn_2_with_murat_on_the_16th() {
    let s = Supplement::bon();
    for id in ["bon-first-day", "bon-grand-battle"] {
        let sc = scenario(id);
        let st = s.leader_starts(&sc);
        let at = st
            .iter()
            .find(|x| x.0 == leader(&s, "FR.Napoleon"))
            .unwrap()
            .1;
        assert_eq!(
            at,
            LeaderAt::WithLeader {
                turn: 2,
                leader: leader(&s, "FR.Murat")
            }
        );
        assert_eq!(at.turn(&sc), 2);
    }
}

#[test]
fn every_other_leader_starts_with_a_unit_of_his_command() {
    let s = Supplement::bon();
    for id in SCENARIOS {
        let sc = scenario(id);
        for (l, at) in s.leader_starts(&sc) {
            let ld = &s.leaders[l];
            if let LeaderAt::WithUnit(u) = at {
                let f = s.formation_of(&sc, u);
                assert!(
                    !matches!(sc.unit(u).start, naw::scenario::Start::Destroyed),
                    "{id}: {} with a destroyed unit",
                    ld.id
                );
                if ld.rank == Rank::Corps {
                    assert!(ld.formations.contains(&f), "{id}: {}", ld.id);
                }
                assert_eq!(
                    s.leader_side(&sc, l),
                    Some(sc.unit(u).side),
                    "{id}: {} with an enemy",
                    ld.id
                );
            }
        }
    }
}

#[test]
fn every_officer_whose_formation_is_in_a_scenario_is_in_it() {
    let s = Supplement::bon();
    for id in SCENARIOS {
        let sc = scenario(id);
        let starts = s.leader_starts(&sc);
        for f in s.formations_in(&sc) {
            // A formation wholly destroyed before the scenario (Pajol's on the third day)
            // brings no officer.
            let alive = sc.units.iter().any(|u| {
                u.corps == s.formations[f].corps
                    && !matches!(u.start, naw::scenario::Start::Destroyed)
            });
            if let (Some(o), true) = (s.officer_of(f), alive) {
                assert!(starts.iter().any(|x| x.0 == o), "{id}: {}", s.leaders[o].id);
            }
        }
    }
}

#[test]
fn leaders_arrive_with_their_arriving_formations() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let st = s.leader_starts(&sc);
    let at = |id: &str| st.iter().find(|x| x.0 == leader(&s, id)).unwrap().1;
    assert_eq!(at("RU.Sacken").turn(&sc), 1);
    assert_eq!(at("RU.Langeron").turn(&sc), 3);
    assert_eq!(at("FR.Reynier").turn(&sc), 7);
    assert_eq!(at("AU.Colloredo").turn(&sc), 11);
    assert_eq!(at("SW.Bernadotte").turn(&sc), 12);
    assert_eq!(at("PR.Bulow").turn(&sc), 12);
    assert_eq!(at("RU.Bennigsen").turn(&sc), 12);
    // No unit, no leader: the Army of the North's are not in the first day.
    let fd = scenario("bon-first-day");
    let fst = s.leader_starts(&fd);
    for id in ["SW.Bernadotte", "PR.Bulow", "RU.Bennigsen", "FR.Reynier"] {
        assert!(!fst.iter().any(|x| x.0 == leader(&s, id)), "{id}");
    }
}

#[test]
fn the_overall_commanders_hold_the_initiative_bonus() {
    // NB Sequence of Play: 2d6 + the overall commander's command rating.
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let (fr, al) = (Side(0), Side(1));
    assert_eq!(sc.sides[0], "French");
    assert_eq!(
        s.overall_commander(&sc, al, 1),
        Some(leader(&s, "AU.Schwarzenberg"))
    );
    // Napoleon is off the map on turn 1 (the Allies hold the initiative then anyway).
    assert_eq!(
        s.overall_commander(&sc, fr, 1),
        Some(leader(&s, "FR.Murat"))
    );
    assert_eq!(
        s.overall_commander(&sc, fr, 2),
        Some(leader(&s, "FR.Napoleon"))
    );
    let td = scenario("bon-third-day");
    assert_eq!(
        s.overall_commander(&td, fr, 13),
        Some(leader(&s, "FR.Napoleon"))
    );
    let succession = s.overall_commanders(&sc, fr);
    assert_eq!(succession[0], leader(&s, "FR.Napoleon"));
    assert!(succession.len() >= 2);
}

// ---- morale (NB Napoleon At Leipzig) ----

#[test]
fn morale_by_nationality_as_napoleon_at_leipzig_gives_it() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let m = |id: &str| s.morale(&sc, unit(&sc, id));
    // French Old Guard and Guard cavalry 4.
    assert_eq!((m("FR.1Gd"), m("FR.2Gd"), m("FR.Gd")), (4, 4, 4));
    // Other French and the Poles 3 (Young Guard, the line, Poniatowski's, the Polish lancers).
    for id in [
        "FR.1YGd", "FR.4", "FR.26", "FR.27", "FR.IV", "FR.Prov6", "FR.32",
    ] {
        assert_eq!(m(id), 3, "{id}");
    }
    // Italians and German allies 2.
    for id in ["FR.15", "FR.38", "FR.39", "FR.24"] {
        assert_eq!(m(id), 2, "{id}");
    }
    // Russians and the Prussian Guard 3.
    for id in ["RU.5", "RU.1Gd", "RU.Sack", "PR.1Gd"] {
        assert_eq!(m(id), 3, "{id}");
    }
    // Other Prussians, Austrians, Swedes 2.
    for id in ["PR.9", "PR.1_4", "AU.Gren", "AU.1Gr", "AU.Pahl", "SW.1"] {
        assert_eq!(m(id), 2, "{id}");
    }
}

#[test]
fn old_guard_infantry_alone_earns_the_dot_shift() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let dots: Vec<&str> = (0..sc.units.len())
        .map(|i| naw::UnitId(i as u8))
        .filter(|&u| s.old_guard(&sc, u))
        .map(|u| sc.unit(u).id.as_str())
        .collect();
    assert_eq!(dots, ["FR.1Gd", "FR.2Gd"]);
}

#[test]
fn cavalry_is_heavy_or_light_and_infantry_neither() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let c = |id: &str| s.cavalry_class(&sc, unit(&sc, id));
    assert_eq!(c("FR.4"), None);
    assert_eq!(c("FR.Gd"), Some(CavalryClass::Heavy));
    assert_eq!(c("FR.I"), Some(CavalryClass::Heavy));
    assert_eq!(c("FR.IV"), Some(CavalryClass::Light));
    assert_eq!(c("RU.Sack"), Some(CavalryClass::Light));
    // Every cavalry counter of ours has a class named in the data (they all move 6: NB17).
    for (i, u) in sc.units.iter().enumerate() {
        if u.kind == naw::UnitType::Cavalry {
            assert_eq!(u.movement, 6, "{}", u.id);
            assert!(s.cavalry_class(&sc, naw::UnitId(i as u8)).is_some());
        }
    }
}

#[test]
fn cavalry_class_follows_speed_where_the_data_names_none() {
    // Heavy at speed 6, light at 7 (NB Napoleon At Leipzig).
    let text = Supplement::BON_TOML.replace("\"FR.V\" = \"heavy\"\n", "");
    let s = Supplement::from_toml(&text).unwrap();
    let mut sc = scenario("bon-grand-battle");
    let v = unit(&sc, "FR.V");
    assert_eq!(s.cavalry_class(&sc, v), Some(CavalryClass::Heavy));
    sc.units[v.0 as usize].movement = 7;
    assert_eq!(s.cavalry_class(&sc, v), Some(CavalryClass::Light));
}

// ---- terrain (NB Leipzig Terrain Effects) ----

#[test]
fn terrain_classes_of_the_leipzig_legend() {
    let s = Supplement::bon();
    let c = |id: &str| s.terrain(id);
    assert_eq!(c("clear"), Default::default());
    assert!(c("forest").obstructed && !c("forest").village && !c("forest").swamp);
    assert!(c("rough").obstructed);
    assert!(c("marsh").obstructed && c("marsh").swamp);
    assert!(c("town").obstructed && c("town").village);
    for id in ["clear", "forest", "rough", "marsh", "town"] {
        assert!(!c(id).fortified, "{id}");
    }
    // Hexside features change no hex's class.
    for id in ["road", "trail", "river", "stream", "bridge", "slope"] {
        assert_eq!(s.feature(id), Default::default(), "{id}");
    }
}

#[test]
fn nothing_on_our_map_is_fortified() {
    // Ruling NB33.
    let s = Supplement::bon();
    assert!(s.fortified_hexes().is_empty());
    let sc = scenario("bon-grand-battle");
    let leipzig = "1418".parse().unwrap();
    let id = &sc.map.legend().terrain[sc.map.terrain(leipzig).0 as usize].id;
    assert_eq!(s.hex_class(&sc, leipzig), s.terrain(id));
}

#[test]
fn a_hex_the_data_fortifies_is_fortified_and_obstructed() {
    let text = Supplement::BON_TOML.replace("fortified_hexes = []", "fortified_hexes = [\"1418\"]");
    let s = Supplement::from_toml(&text).unwrap();
    let sc = scenario("bon-grand-battle");
    s.check(&sc).unwrap();
    let c = s.hex_class(&sc, "1418".parse().unwrap());
    assert!(c.fortified && c.obstructed);
    let off = Supplement::BON_TOML.replace("fortified_hexes = []", "fortified_hexes = [\"9999\"]");
    let e = Supplement::from_toml(&off).unwrap().check(&sc).unwrap_err();
    assert!(e.to_string().contains("off the map"), "{e}");
}

// ---- formation and army demoralization ----

/// Recomputes every loss limit from the rulebook's levels kept in the data, with our SP
/// (the Grand Battle holds every unit): the arithmetic of docs/napoleonic-battles.md.
#[test]
fn loss_limits_are_the_rulebook_s_levels_scaled_to_our_strength_points() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let src = s.demoralization_source();
    let sp = |corps: &str| -> f64 {
        let f = s.formations.iter().position(|f| f.corps == corps).unwrap();
        f64::from(s.formation_strength(&sc, f))
    };
    let share = f64::from(src.share_percent) / 100.0;
    let (lo, hi) = (
        f64::from(src.clamp_percent[0]) / 100.0,
        f64::from(src.clamp_percent[1]) / 100.0,
    );
    let mut k: BTreeMap<&str, f64> = BTreeMap::new();
    for a in src.rulebook_levels.iter().map(|l| l.army.as_str()) {
        let ours: f64 = src
            .rulebook_levels
            .iter()
            .filter(|l| l.army == a)
            .flat_map(|l| l.corps.iter())
            .map(|c| sp(c))
            .sum();
        let theirs: f64 = src
            .rulebook_levels
            .iter()
            .filter(|l| l.army == a)
            .map(|l| f64::from(l.level))
            .sum();
        k.insert(a, share * ours / theirs);
    }
    let mut covered = Vec::new();
    for l in &src.rulebook_levels {
        let group: f64 = l.corps.iter().map(|c| sp(c)).sum();
        for c in &l.corps {
            let raw = f64::from(l.level) * k[l.army.as_str()] * sp(c) / group;
            let want = (raw + 0.5)
                .floor()
                .max((sp(c) * lo).ceil())
                .min((sp(c) * hi).floor());
            let f = s.formations.iter().find(|f| &f.corps == c).unwrap();
            assert_eq!(f64::from(f.loss_limit), want, "{c} ({})", l.rulebook);
            covered.push(c.clone());
        }
    }
    for f in &s.formations {
        if !covered.contains(&f.corps) {
            let want = (sp(&f.corps) * share + 0.5).floor();
            assert_eq!(f64::from(f.loss_limit), want, "{}", f.corps);
        }
    }
    // The rulebook's army totals: Grand Army 220, Bohemia 110, Silesia 55.
    let total = |a: &str| -> u16 {
        src.rulebook_levels
            .iter()
            .filter(|l| l.army == a)
            .map(|l| l.level)
            .sum()
    };
    assert_eq!(
        (
            total("Grand Army"),
            total("Army of Bohemia"),
            total("Army of Silesia")
        ),
        (220, 110, 55)
    );
}

#[test]
fn a_loss_limit_lies_between_a_quarter_and_three_quarters_of_the_formation() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    for (i, f) in s.formations.iter().enumerate() {
        let sp = s.formation_strength(&sc, i);
        let l = u32::from(f.loss_limit);
        assert!(4 * l >= sp && 4 * l <= 3 * sp, "{}: {l} of {sp}", f.corps);
    }
}

#[test]
fn victory_points_for_a_demoralized_formation_are_half_its_limit() {
    let s = Supplement::bon();
    for f in &s.formations {
        let want = u32::from(f.loss_limit).div_ceil(2).max(2);
        assert_eq!(u32::from(f.victory_points), want, "{}", f.corps);
    }
    for a in &s.armies {
        assert_eq!(a.victory_points, 10, "{}", a.name);
    }
}

#[test]
fn an_army_s_loss_limit_is_its_formations_sum_and_disintegration_above_it() {
    let s = Supplement::bon();
    for id in SCENARIOS {
        let sc = scenario(id);
        for (a, army) in s.armies.iter().enumerate() {
            let sum: u32 = s
                .formations_in(&sc)
                .into_iter()
                .filter(|&f| s.formations[f].army == a)
                .map(|f| u32::from(s.formations[f].loss_limit))
                .sum();
            assert_eq!(s.army_loss_limit(&sc, a), sum, "{id} {}", army.name);
            let d = s.army_disintegration(&sc, a);
            assert_eq!(d, (sum * 134).div_ceil(100));
            assert!(sum == 0 || d > sum);
        }
    }
    let g = &s.armies[0];
    assert_eq!(g.name, "Grand Army");
    let all: u16 = s
        .formations
        .iter()
        .filter(|f| f.army == 0)
        .map(|f| f.loss_limit)
        .sum();
    assert_eq!(g.loss_limit, all);
}

/// Ruling NB41: every formation's loss limit is the activation system's Leipzig level scaled at
/// 45% (NB26-NB28), not The Battle of Nations' 17.1 (a whole side's sudden death at about a
/// third of its SP): each army is demoralized at 43-47% of its SP in every scenario, above the
/// classic game's levels, and disintegrates above that.
#[test]
fn loss_limits_are_the_activation_system_s_not_the_battle_of_nations_17_1() {
    let s = Supplement::bon();
    let src = s.demoralization_source();
    assert_eq!(src.share_percent, 45, "NB41: the share stays 45%");
    assert_eq!(src.clamp_percent, [25, 75]);
    // 17.1's levels for the French and the Allies by day: turns 1-5, 6-11, 12-20
    let classic = |side: u8, turn: u8| -> u32 {
        match (side, turn) {
            (0, 1..=5) => 100,
            (0, _) => 110,
            (_, 1..=5) => 80,
            (_, 6..=11) => 120,
            _ => 160,
        }
    };
    for id in SCENARIOS {
        let sc = scenario(id);
        let mut side_limit = [0u32; 2];
        for a in 0..s.armies.len() {
            let fs: Vec<usize> = s
                .formations_in(&sc)
                .into_iter()
                .filter(|&f| s.formations[f].army == a)
                .collect();
            if fs.is_empty() {
                continue;
            }
            let sp: u32 = fs.iter().map(|&f| s.formation_strength(&sc, f)).sum();
            let limit = s.army_loss_limit(&sc, a);
            let share = f64::from(limit) / f64::from(sp);
            assert!(
                (0.43..=0.47).contains(&share),
                "{id} {}: {limit} of {sp} SP ({share:.3})",
                s.armies[a].name
            );
            assert!(s.army_disintegration(&sc, a) > limit);
            let side = s.army_side(&sc, a).unwrap().0;
            side_limit[usize::from(side)] += limit;
        }
        for side in 0..2u8 {
            assert!(
                side_limit[usize::from(side)] > classic(side, sc.first_turn),
                "{id}: side {side}'s armies break above 17.1's level"
            );
        }
    }
}

#[test]
fn armies_fight_for_their_sides() {
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    for (i, u) in sc.units.iter().enumerate() {
        let a = s.army_of(&sc, naw::UnitId(i as u8));
        assert_eq!(s.army_side(&sc, a), Some(u.side), "{}", u.id);
    }
}

// ---- bad input ----

#[test]
fn bad_supplements_are_refused_with_every_problem() {
    let e = Supplement::from_toml("format = 3").unwrap_err();
    assert!(!e.to_string().is_empty());
    let text = Supplement::BON_TOML
        .replace("initiative = 6", "initiative = 9")
        .replace(
            "formations = [\"II Corps (Victor)\"]",
            "formations = [\"II Corps (Victorious)\"]",
        );
    let e = Supplement::from_toml(&text).unwrap_err();
    assert!(e.0.iter().any(|p| p.contains("initiative 9")), "{e}");
    assert!(
        e.0.iter().any(|p| p.contains("II Corps (Victorious)")),
        "{e}"
    );
}

#[test]
fn a_scenario_with_a_corps_the_data_lacks_is_refused() {
    let s = Supplement::bon();
    let mut sc = scenario("bon-first-day");
    sc.units[0].corps = "XX Corps (Nobody)".into();
    let e = s.check(&sc).unwrap_err();
    assert!(e.to_string().contains("XX Corps (Nobody)"), "{e}");
}

#[test]
fn the_reserve_belongs_to_the_army_of_bohemia() {
    // Ruling NB31: the rulebook counts Konstantine's Guard and Reserve in the Army of Bohemia.
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    for id in ["RU.1Gd", "PR.1Gd", "AU.1Gr", "AU.Pahl"] {
        let u = unit(&sc, id);
        assert_eq!(sc.unit(u).oob_army, "Reserve Army");
        assert_eq!(s.armies[s.army_of(&sc, u)].name, "Army of Bohemia", "{id}");
    }
}

/// Every leader's start in each scenario, as `docs/napoleonic-battles.md` prints it.
fn start_table() -> String {
    let s = Supplement::bon();
    let scs: Vec<naw::Scenario> = SCENARIOS.iter().map(|id| scenario(id)).collect();
    let mut out =
        String::from("| leader | first day | grand battle | third day |\n|---|---|---|---|\n");
    for (i, l) in s.leaders.iter().enumerate() {
        let cells: Vec<String> = scs
            .iter()
            .map(|sc| {
                let at = s.leader_starts(sc).into_iter().find(|x| x.0 == i);
                match at.map(|x| x.1) {
                    None => "–".to_string(),
                    Some(LeaderAt::Hex(h)) => format!("in {h}"),
                    Some(LeaderAt::Arrives { turn, hex }) => format!("turn {turn} at {hex}"),
                    Some(LeaderAt::WithLeader { turn, leader }) => {
                        format!("turn {turn} with {}", s.leaders[leader].name)
                    }
                    Some(LeaderAt::WithUnit(u)) => match sc.unit(u).start {
                        naw::scenario::Start::Hex(h) => format!("with {} in {h}", sc.unit(u).id),
                        naw::scenario::Start::Arrives(a) => {
                            format!("turn {} with {} at {}", a.turn, sc.unit(u).id, a.hex)
                        }
                        naw::scenario::Start::Destroyed => "–".to_string(),
                    },
                }
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", l.name, cells.join(" | ")));
    }
    out
}

#[test]
fn the_documented_starts_are_the_data_s() {
    let doc = include_str!("../../../docs/napoleonic-battles.md");
    let table = start_table();
    if std::env::var_os("PRINT_STARTS").is_some() {
        println!("{table}");
    }
    assert!(
        doc.contains(&table),
        "docs/napoleonic-battles.md lacks the start table:\n{table}"
    );
}

#[test]
fn the_documented_leaders_and_limits_are_the_data_s() {
    let doc = include_str!("../../../docs/napoleonic-battles.md");
    let s = Supplement::bon();
    for l in &s.leaders {
        let rank = match l.rank {
            Rank::Army => "army",
            Rank::Corps => "corps",
        };
        let row = format!(
            "| {} | {} | {rank} | {} | {} | {} |",
            l.id, l.name, l.command, l.initiative, l.range
        );
        assert!(doc.contains(&row), "the doc lacks {row}");
    }
    for f in &s.formations {
        let start = format!("\n| {} | {} |", f.corps, s.armies[f.army].name);
        let end = format!("| {} | {} |\n", f.loss_limit, f.victory_points);
        let at = doc
            .find(&start)
            .unwrap_or_else(|| panic!("the doc lacks {}", f.corps));
        let line = &doc[at + 1..];
        let line = &line[..=line.find('\n').unwrap()];
        assert!(line.ends_with(&end), "{line}");
    }
}

#[test]
fn a_supplement_missing_any_one_line_parses_or_is_refused_never_panics() {
    let sc = scenario("bon-grand-battle");
    let lines: Vec<&str> = Supplement::BON_TOML.lines().collect();
    for i in 0..lines.len() {
        let mut cut = lines.clone();
        cut.remove(i);
        if let Ok(s) = Supplement::from_toml(&cut.join("\n")) {
            let _ = s.check(&sc);
            let _ = s.leader_starts(&sc);
        }
    }
}

#[test]
fn a_leader_of_a_nation_the_scenario_lacks_is_refused() {
    let text = Supplement::BON_TOML.replace(
        "nation = \"SW\"\nrank = \"army\"",
        "nation = \"DK\"\nrank = \"army\"",
    );
    let s = Supplement::from_toml(&text).unwrap();
    let e = s.check(&scenario("bon-grand-battle")).unwrap_err();
    assert!(e.to_string().contains("no nation 'DK'"), "{e}");
}

#[test]
fn a_melee_crosses_what_the_map_draws_between_the_hexes() {
    use napoleonic_battles::data::Crossing;
    let s = Supplement::bon();
    let sc = scenario("bon-grand-battle");
    let h = |x: &str| -> hexmap::Hex { x.parse().unwrap() };
    // The Lindenau causeway's bridge over the Elster.
    let c = s.crossing(&sc, h("1421"), h("1422"));
    assert!(c.river_bridge && !c.stream && !c.up_slope);
    assert_eq!(c, s.crossing(&sc, h("1422"), h("1421")));
    // A stream hexside of the map.
    let st = sc
        .map
        .hexes()
        .flat_map(|a| sc.map.hexes().map(move |b| (a, b)))
        .find(|&(a, b)| sc.map.hexside_between(a, b).any(sc.chart.stream))
        .expect("the map has streams");
    let c = s.crossing(&sc, st.0, st.1);
    assert!(c.stream && !c.river_bridge);
    // Open ground, and hexes that are not neighbours.
    assert_eq!(s.crossing(&sc, h("0101"), h("0102")), Crossing::default());
    assert_eq!(s.crossing(&sc, h("1421"), h("0101")), Crossing::default());
}

#[test]
fn the_swamp_cost_is_data_and_a_zero_one_is_refused() {
    // NB73: the embedded cost, and a replacement that would make the swamp free is refused
    assert_eq!(Supplement::bon().movement.infantry_swamp_mp, 2);
    let text = Supplement::BON_TOML.replace("infantry_swamp_mp = 2", "infantry_swamp_mp = 0");
    assert_ne!(text, Supplement::BON_TOML);
    let e = Supplement::from_toml(&text).unwrap_err().to_string();
    assert!(e.contains("infantry_swamp_mp"), "{e}");
    let text = Supplement::BON_TOML.replace("infantry_swamp_mp = 2", "infantry_swamp_mp = 3");
    assert_eq!(
        Supplement::from_toml(&text)
            .unwrap()
            .movement
            .infantry_swamp_mp,
        3
    );
}
