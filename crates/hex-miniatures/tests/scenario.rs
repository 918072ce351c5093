//! The Möckern scenario (`moeckern-1813`) as the rules read it, and the rulings HM40-HM49 that
//! made it (`docs/rulings.md`, `docs/moeckern-map.md` "The scenario").

use engine::Side;
use hex_miniatures::army::{Arm, Kind};
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::{
    Formation, Scenario, ScenarioError, Start, WeatherStart, FEATURE_MEANINGS, MOECKERN_MAP_TOML,
    MOECKERN_OOB_TOML, MOECKERN_TOML,
};
use hex_miniatures::terrain::{HEXSIDE_KINDS, HEX_KINDS};
use hex_miniatures::victory::Margin;
use hexmap::{Dir, Edge, Hex, Map};
use proptest::prelude::*;
use std::collections::BTreeMap;

const PR: Side = Side(0);
const FR: Side = Side(1);

fn hex(s: &str) -> Hex {
    s.parse().unwrap()
}

fn s() -> Scenario {
    Scenario::moeckern()
}

/// The shipped scenario with its own file edited.
fn edited(f: impl Fn(&str) -> String) -> Result<Scenario, ScenarioError> {
    Scenario::from_toml(
        &f(MOECKERN_TOML),
        MOECKERN_MAP_TOML,
        MOECKERN_OOB_TOML,
        &Tables::shipped(),
    )
}

/// The shipped scenario with its order of battle edited.
fn oob_edited(f: impl Fn(&str) -> String) -> Result<Scenario, ScenarioError> {
    Scenario::from_toml(
        MOECKERN_TOML,
        MOECKERN_MAP_TOML,
        &f(MOECKERN_OOB_TOML),
        &Tables::shipped(),
    )
}

fn refused(r: Result<Scenario, ScenarioError>, expect: &str) {
    match r {
        Ok(_) => panic!("accepted; expected a refusal with '{expect}'"),
        Err(e) => assert!(
            e.to_string().contains(expect),
            "expected '{expect}' in:\n{e}"
        ),
    }
}

fn unit<'a>(s: &'a Scenario, id: &str) -> &'a hex_miniatures::scenario::Unit {
    &s.units[s.unit_index(id).unwrap_or_else(|| panic!("no unit {id}"))]
}

fn set_up_hex(s: &Scenario, id: &str) -> Hex {
    match unit(s, id).start {
        Start::SetUp(h) => h,
        _ => panic!("{id} is not set up"),
    }
}

#[test]
fn the_shipped_scenario_is_valid_and_its_digest_covers_its_three_files() {
    let a = s();
    assert_eq!(a.id, "moeckern-1813");
    assert_eq!(a.map.id, "moeckern");
    assert_eq!((a.map.width(), a.map.height()), (16, 15));
    assert_eq!(a.units.len(), 122);
    assert_eq!(a.generals.len(), 17);
    let other = edited(|t| t.replace("Yorck against Marmont", "Yorck and Marmont")).unwrap();
    assert_ne!(a.digest, other.digest);
    let oob = oob_edited(|t| t.replacen("men = 400", "men = 401", 1)).unwrap();
    assert_ne!(a.digest, oob.digest);
}

#[test]
fn hm40_the_prussians_play_first_each_army_reads_its_nations_table_and_routs_to_its_rear() {
    let a = s();
    assert_eq!(a.sides[0].id, "prussian");
    assert_eq!(a.sides[1].id, "french");
    assert_eq!((a.nation(PR), a.nation(FR)), ("Prussian", "French"));
    assert_eq!(
        (a.sides[0].rear, a.sides[1].rear),
        (Edge::North, Edge::South)
    );
    // Contingents read their army's table: Württemberg horse and the Spanish battalion.
    for id in ["FR-25C-CL", "FR-25C-J", "FR-21-JN"] {
        assert_eq!(unit(&a, id).side, FR);
    }
    refused(
        edited(|t| t.replace("nation = \"French\"", "nation = \"Saxon\"")),
        "no national army table for 'Saxon'",
    );
    refused(
        edited(|t| t.replace("rear = \"south\"", "rear = \"down\"")),
        "rear 'down' is no table edge",
    );
}

#[test]
fn hm41_noon_to_night_at_18_00_in_36_turns_of_10_minutes() {
    let a = s();
    assert_eq!(a.turns(), 36);
    assert_eq!(a.clock(1), "12:00");
    assert_eq!(a.clock(4), "12:30");
    assert_eq!(a.clock(36), "17:50");
    assert!((1..=36).all(|turn| !a.is_night(turn)), "no night turn");
    assert!(a.is_night(37));
}

#[test]
fn hm41_the_light_full_until_17_00_then_six_hexes_down_to_one_at_17_50() {
    let a = s();
    let t = Tables::shipped();
    for turn in 1..=30 {
        assert_eq!(a.light(turn, &t), None, "turn {turn} ({})", a.clock(turn));
    }
    let dusk: Vec<Option<u8>> = (31..=36).map(|turn| a.light(turn, &t)).collect();
    assert_eq!(
        dusk,
        vec![Some(6), Some(5), Some(4), Some(3), Some(2), Some(1)]
    );
    assert_eq!(a.light(37, &t), Some(0));
    assert_eq!(a.weather, WeatherStart::Clear);
}

#[test]
fn weather_24_a_scenario_may_start_with_a_drifting_counter() {
    let fog = edited(|t| {
        t.replace(
            "kind = \"clear\"",
            "kind = \"track\"\ntrack = \"fog\"\nposition = 1",
        )
    })
    .unwrap();
    assert!(matches!(
        fog.weather,
        WeatherStart::Track { position: 1, .. }
    ));
    refused(
        edited(|t| {
            t.replace(
                "kind = \"clear\"",
                "kind = \"track\"\ntrack = \"snow\"\nposition = 9",
            )
        }),
        "weather.position 9: the track has positions 1 to 4",
    );
    refused(
        edited(|t| t.replace("kind = \"clear\"", "kind = \"hail\"")),
        "weather.kind 'hail'",
    );
}

#[test]
fn hm42_every_terrain_and_feature_of_the_legend_maps_onto_the_rules() {
    let map = Map::from_toml(MOECKERN_MAP_TOML).unwrap();
    let a = s();
    let t = Tables::shipped();
    for k in &map.legend().terrain {
        let kind = a
            .hex_terrain
            .get(&k.id)
            .unwrap_or_else(|| panic!("{} unmapped", k.id));
        assert!(HEX_KINDS.contains(&kind.as_str()), "{} -> {kind}", k.id);
        assert!(t.terrain.hex(kind).is_some());
    }
    for f in &map.legend().features {
        let m = a
            .hexside_terrain
            .get(&f.id)
            .unwrap_or_else(|| panic!("{} unmapped", f.id));
        assert!(
            HEXSIDE_KINDS.contains(&m.as_str()) || FEATURE_MEANINGS.contains(&m.as_str()),
            "{} -> {m}",
            f.id
        );
    }
    let expect: BTreeMap<&str, &str> = [
        ("clear", "clear"),
        ("woods", "forest"),
        ("rough", "rough"),
        ("meadow", "rough"),
        ("slope", "slope"),
        ("village", "town"),
        ("walled", "fortified"),
        ("redoubt", "fortified"),
    ]
    .into_iter()
    .collect();
    let got: BTreeMap<&str, &str> = a
        .hex_terrain
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(got, expect);
    assert_eq!(a.hexside_terrain["wall"], "none");
    assert_eq!(a.hexside_terrain["lane"], "trail");
}

#[test]
fn hm42_a_missing_or_unknown_mapping_is_refused() {
    refused(
        edited(|t| t.replace("meadow = \"rough\"\n", "")),
        "the map's terrain 'meadow' has no [18] kind",
    );
    refused(
        edited(|t| t.replace("meadow = \"rough\"", "meadow = \"marsh\"")),
        "terrain.hexes.meadow: 'marsh' is no hex kind",
    );
    refused(
        edited(|t| t.replace("wall = \"none\"\n", "")),
        "the map's feature 'wall' has no meaning",
    );
    refused(
        edited(|t| t.replace("wall = \"none\"", "wall = \"moat\"")),
        "terrain.hexsides.wall: 'moat'",
    );
    refused(
        edited(|t| t.replace("[terrain.hexes]\n", "[terrain.hexes]\nswamp = \"rough\"\n")),
        "terrain.hexes.swamp: no such terrain",
    );
}

#[test]
fn hm42_meadow_plays_as_rough_ground_infantry_only_and_the_walls_add_nothing_to_the_fortified_village(
) {
    let a = s();
    let t = Tables::shipped();
    let meadow = hex("0514");
    assert_eq!(a.map.terrain_kind(meadow).id, "meadow");
    assert_eq!(a.hex_kind(meadow), "rough");
    assert!(t.terrain.may_occupy(a.hex_kind(meadow), Arm::Infantry));
    assert!(!t.terrain.may_occupy(a.hex_kind(meadow), Arm::Cavalry));
    assert!(!t.terrain.may_occupy(a.hex_kind(meadow), Arm::Artillery));
    // The walled village is a fortified hex: doubled, -0.100 when attacked, blocks sight.
    let village = hex("0911");
    assert_eq!(a.hex_kind(village), "fortified");
    assert_eq!(t.terrain.defence_multiplier("fortified", Arm::Infantry), 2);
    // A wall hexside carries nothing the rules read: the same step as without it.
    let out = hex("0810");
    assert!(a
        .map
        .legend()
        .feature_ids(a.map.hexside_between(out, village))
        .any(|f| f == "wall"));
    assert_eq!(
        a.hexside(out, village),
        hex_miniatures::scenario::SideTerrain::default()
    );
    assert_eq!(a.step_cost(&t.terrain, out, village), Some(2));
}

#[test]
fn movement_3_1_6_8_4_2_8_4_3_roads_lanes_rivers_and_the_bridge() {
    let a = s();
    let t = Tables::shipped();
    // The Halle road: half a hex a step.
    assert!(a.hexside(hex("0211"), hex("0312")).road);
    assert_eq!(a.step_cost(&t.terrain, hex("0211"), hex("0312")), Some(1));
    // A lane climbing into a slope hex costs a clear hex, not the slope's halving ([8.4.3]).
    assert!(a.hexside(hex("1110"), hex("1209")).trail);
    assert_eq!(a.hex_kind(hex("1209")), "slope");
    assert_eq!(a.step_cost(&t.terrain, hex("1110"), hex("1209")), Some(2));
    assert_eq!(a.step_cost(&t.terrain, hex("1109"), hex("1209")), Some(4));
    // The Elster only at the manor's bridge.
    assert!(a.hexside(hex("0913"), hex("0914")).river);
    assert_eq!(a.step_cost(&t.terrain, hex("0913"), hex("0914")), None);
    let b = a.hexside(hex("1012"), hex("1013"));
    assert!(b.river && b.bridge);
    assert!(a.step_cost(&t.terrain, hex("1012"), hex("1013")).is_some());
    // The Rietzschke is a stream: crossed, it disrupts.
    let st = a.hexside(hex("1302"), hex("1303"));
    assert!(st.stream);
    assert!(t.terrain.crossing_disorders(&st.kinds()));
    // Not adjacent, or off the table: no step.
    assert_eq!(a.step_cost(&t.terrain, hex("0101"), hex("0303")), None);
    assert_eq!(a.step_cost(&t.terrain, hex("0101"), hex("0001")), None);
}

#[test]
fn hm49_each_slope_hexside_has_a_top_the_heights_face_and_the_terrace_over_the_meadows() {
    let a = s();
    // The foot of the heights: from the plain up into the slope hex.
    assert!(a.climbs(hex("1008"), hex("1109")));
    assert!(a.descends(hex("1109"), hex("1008")));
    // The terrace edge: from the meadow below up onto the terrace.
    assert!(a.climbs(hex("1113"), hex("1112")));
    assert!(a.descends(hex("0112"), hex("0113")));
    // The manor lies on the river bank, under the terrace edge that runs through the village.
    assert!(a.climbs(hex("1012"), hex("1011")));
    // Every slope hexside climbs one way and descends the other.
    let mut n = 0;
    for h in a.map.hexes() {
        for d in Dir::ALL {
            let o = a.map.neighbour(h, d);
            if a.map.contains(o) && a.hexside(h, o).slope {
                n += 1;
                assert!(
                    a.climbs(h, o) != a.climbs(o, h),
                    "slope hexside {h}/{o} has no top"
                );
                assert_eq!(a.climbs(h, o), a.descends(o, h));
            }
        }
    }
    assert!(n > 0);
    // No slope, no climb.
    assert!(!a.climbs(hex("0505"), hex("0605")));
}

#[test]
fn hm43_every_unit_type_of_the_order_of_battle_plays_as_a_kind_of_its_nations_table() {
    let a = s();
    let t = Tables::shipped();
    for u in &a.units {
        assert!(
            t.line(a.nation(u.side), u.kind).is_some(),
            "{}: {}",
            u.id,
            u.kind
        );
    }
    let kind = |id: &str| unit(&a, id).kind;
    assert_eq!(kind("FR-21-2M-1"), Kind::Grenadier); // marines: veterans
    assert_eq!(kind("PR-7-GJ"), Kind::Guard); // the Guard Jäger
    assert_eq!(kind("PR-2-1-3"), Kind::Light); // a light (fusilier) battalion
    assert_eq!(kind("FR-20-32L-1"), Kind::Light);
    assert_eq!(kind("PR-1-LW5-1"), Kind::Militia); // Landwehr
    assert_eq!(kind("PR-RC-BU"), Kind::Lancers); // the Brandenburg Uhlans
    assert_eq!(kind("PR-RC-LD"), Kind::MediumCavalry); // dragoons
    assert_eq!(kind("PR-RC-EPNC"), Kind::LightCavalry); // the national cavalry
    assert_eq!(kind("PR-8-LWC"), Kind::LightCavalry); // Landwehr cavalry: no lancer shock
    assert_eq!(kind("FR-25C-CL"), Kind::LightCavalry); // Württemberg chevau-légers
    assert_eq!(kind("FR-25C-J"), Kind::LightCavalry); // Jäger zu Pferd
    assert_eq!(kind("PR-RA-foot-12pdr-1"), Kind::FootBattery);
    assert_eq!(kind("PR-RA-foot-3pdr-1"), Kind::FootBattery);
    assert_eq!(kind("PR-RA-horse-6pdr-3"), Kind::HorseBattery);
    // The kind is the quality's class of the text, refined only where the rules have a finer
    // kind: light infantry, uhlans.
    for u in &a.units {
        let arm = match u.kind.arm() {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            _ => "artillery",
        };
        let refined = matches!(u.type_.as_str(), "light" | "uhlan");
        let classified = oob_quality(&u.id);
        if !refined {
            assert_eq!(
                Kind::classify(arm, &classified),
                Some(u.kind),
                "{} ({} {})",
                u.id,
                u.type_,
                classified
            );
        }
    }
}

/// A unit's `quality` as the order of battle writes it.
fn oob_quality(id: &str) -> String {
    let v: toml::Value = toml::from_str(MOECKERN_OOB_TOML).unwrap();
    v["unit"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"].as_str() == Some(id))
        .and_then(|u| u["quality"].as_str())
        .unwrap()
        .to_string()
}

#[test]
fn hm43_a_type_without_a_kind_or_a_kind_the_nation_lacks_is_refused() {
    refused(
        oob_edited(|t| t.replacen("type = \"uhlan\"", "type = \"cossack\"", 1)),
        "'cavalry cossack light' has no kind in [kinds]",
    );
    refused(
        edited(|t| {
            t.replace(
                "\"infantry line line\" = \"line\"",
                "\"infantry line line\" = \"musketeer\"",
            )
        }),
        "'musketeer' is no unit kind",
    );
    // The French table has no militia.
    refused(
        edited(|t| {
            t.replace(
                "\"infantry marine grenadier\" = \"grenadier\"",
                "\"infantry marine grenadier\" = \"militia\"",
            )
        }),
        "the French army table has no militia",
    );
    refused(
        edited(|t| {
            t.replace(
                "\"infantry marine grenadier\" = \"grenadier\"",
                "\"infantry marine grenadier\" = \"light-cavalry\"",
            )
        }),
        "arm 'infantry' but its kind light-cavalry is Cavalry",
    );
}

#[test]
fn units_2_4_base_units_squadrons_and_guns() {
    let a = s();
    for u in &a.units {
        assert!(u.base_units >= 1, "{}", u.id);
        match u.kind.arm() {
            Arm::Infantry => assert!(u.base_units <= 5, "{}", u.id),
            Arm::Cavalry => assert!(u.base_units <= u.squadrons.unwrap(), "{}", u.id),
            Arm::Artillery => {
                assert_eq!(u.base_units, 1, "{}", u.id);
                assert!(u.guns.is_some());
            }
            Arm::Command => unreachable!(),
        }
    }
    refused(
        oob_edited(|t| t.replacen("bases = 3", "bases = 7", 1)),
        "7 base units",
    );
    // The victory table's totals ([3.2]): the whole order of battle, and the Prussians
    // recounted as they arrive.
    let total = |side| a.base_units(side);
    assert_eq!(
        total(PR),
        a.units
            .iter()
            .filter(|u| u.side == PR)
            .map(|u| u32::from(u.base_units))
            .sum::<u32>()
    );
    assert_eq!(a.base_units_by(FR, 1), a.base_units(FR));
    assert!(a.base_units_by(PR, 1) < a.base_units_by(PR, 4));
    assert!(a.base_units_by(PR, 16) == a.base_units(PR));
    assert!(a.base_units_by(PR, 15) < a.base_units(PR));
}

#[test]
fn hm44_set_up_units_stand_deployed_and_arrivals_come_on_in_march_order() {
    let a = s();
    for u in &a.units {
        let set_up = matches!(u.start, Start::SetUp(_));
        let expect = match (u.kind.arm(), set_up) {
            (Arm::Artillery, true) => Formation::Unlimbered,
            (Arm::Artillery, false) => Formation::Limbered,
            (Arm::Infantry, false) => Formation::Column,
            _ => Formation::Line,
        };
        assert_eq!(u.formation, expect, "{}", u.id);
        assert!(u.formation.fits(u.kind.arm()));
    }
    refused(
        edited(|t| t.replace("infantry = \"column\"", "infantry = \"square\"")),
        "formation.arriving.infantry: 'square' is no formation infantry may start in",
    );
    refused(
        edited(|t| t.replacen("cavalry = \"line\"", "cavalry = \"limbered\"", 1)),
        "formation.set-up.cavalry: 'limbered'",
    );
    // HM25: cavalry is always in line
    refused(
        edited(|t| t.replacen("cavalry = \"line\"", "cavalry = \"column\"", 1)),
        "formation.set-up.cavalry: 'column' is no formation cavalry may start in",
    );
}

#[test]
fn hm45_yorck_and_marmont_are_the_senior_commanders() {
    let a = s();
    let senior: Vec<&str> = a
        .generals
        .iter()
        .filter(|g| g.senior)
        .map(|g| g.id.as_str())
        .collect();
    assert_eq!(senior, vec!["yorck", "marmont"]);
    refused(
        edited(|t| {
            t.replace(
                "senior = [\"yorck\", \"marmont\"]",
                "senior = [\"napoleon\"]",
            )
        }),
        "generals.senior: no general 'napoleon'",
    );
}

#[test]
fn generals_2_4_6_command_the_units_of_their_commands() {
    let a = s();
    let g = |id: &str| a.general_index(id).unwrap();
    let u = |id: &str| a.unit_index(id).unwrap();
    // The corps commander's orders reach every unit of his corps.
    for (i, x) in a.units.iter().enumerate() {
        let corps = if x.side == PR {
            g("yorck")
        } else {
            g("marmont")
        };
        assert!(a.commands_unit(corps, i), "{}", x.id);
    }
    assert!(a.commands_unit(g("horn"), u("PR-7-L-1")));
    assert!(!a.commands_unit(g("horn"), u("PR-8-B-1")));
    assert!(!a.commands_unit(g("yorck"), u("FR-21-2M-1")));
    assert!(a.commands_unit(g("lagrange"), u("FR-21-2M-1")));
    // Every command has a commander of its side; every general a command of his side.
    for c in &a.commands {
        assert_eq!(a.generals[c.commander].side, c.side, "{}", c.id);
    }
    for x in &a.generals {
        assert_eq!(a.commands[x.command].side, x.side, "{}", x.id);
    }
    refused(
        oob_edited(|t| t.replacen("commander = \"Horn\"", "commander = \"Blücher\"", 1)),
        "formation 'PR-7': no general 'Blücher'",
    );
}

#[test]
fn hm46_arrivals_come_on_their_turn_by_the_edge_hexes_of_their_road_or_place() {
    let a = s();
    let arrival = |id: &str| match &unit(&a, id).start {
        Start::Arrives(x) => x.clone(),
        _ => panic!("{id} is set up"),
    };
    let hiller = arrival("PR-AG-1");
    assert_eq!((hiller.turn, hiller.at.as_str()), (1, "Halle road"));
    assert_eq!(hiller.hexes[0], hex("0112"));
    assert!(
        a.hexside(hex("0112"), a.map.neighbour(hex("0112"), Dir::NW))
            .road
    );
    let steinmetz = arrival("PR-1-1");
    assert_eq!((steinmetz.turn, steinmetz.at.as_str()), (4, "Redoubts"));
    let horn = arrival("PR-7-L-1");
    assert_eq!((horn.turn, horn.at.as_str()), (16, "Lindenthal"));
    let ra = arrival("PR-RA-foot-12pdr-1");
    assert_eq!(ra.turn, 7);
    for u in &a.units {
        match &u.start {
            Start::Arrives(x) => {
                assert_eq!(u.side, PR, "{}", u.id);
                assert_eq!(x.edge, Edge::North);
                assert!(!x.hexes.is_empty());
                for h in &x.hexes {
                    assert!(a.map.edges_of(*h).contains(&Edge::North), "{}: {h}", u.id);
                }
            }
            Start::SetUp(_) => assert_eq!(u.side, FR, "{}", u.id),
        }
    }
    refused(
        oob_edited(|t| t.replacen("arrives = \"12:30\"", "arrives = \"12:35\"", 1)),
        "12:35 is not the start of a turn",
    );
    refused(
        oob_edited(|t| t.replacen("arrives = \"12:30\"", "arrives = \"18:00\"", 1)),
        "18:00 is not the start of a turn",
    );
    refused(
        edited(|t| t.replace("\"Redoubts\" = [\"0106\", ", "\"Redoubts\" = [\"0506\", ")),
        "'0506' is not a hex on the table's edge",
    );
    refused(
        edited(|t| t.replace("\"Halle road\" = [\"0112\", \"0111\", \"0110\"]\n", "")),
        "no entry hexes for 'Halle road'",
    );
}

#[test]
fn hm47_the_french_set_up_one_battalion_or_regiment_and_one_battery_a_hex_on_ground_they_may_hold()
{
    let a = s();
    let t = Tables::shipped();
    let mut troops = BTreeMap::new();
    let mut guns = BTreeMap::new();
    for u in a.units.iter().filter(|u| u.side == FR) {
        let h = set_up_hex(&a, &u.id);
        assert!(
            t.terrain.may_occupy(a.hex_kind(h), u.kind.arm()),
            "{} in {h}",
            u.id
        );
        let slot = if u.kind.arm() == Arm::Artillery {
            &mut guns
        } else {
            &mut troops
        };
        assert!(slot.insert(h, u.id.clone()).is_none(), "{h} twice");
    }
    // The 2nd Marine holds the walled village ([12] of the research), every walled hex.
    let walled: Vec<Hex> = a
        .map
        .hexes()
        .filter(|&h| a.map.terrain_kind(h).id == "walled")
        .collect();
    for h in &walled {
        assert!(
            troops.get(h).is_some_and(|u| u.starts_with("FR-21-2M")),
            "{h}"
        );
    }
    // The great battery stands on the heights' slope, a battalion with each battery.
    for u in a.units.iter().filter(|u| u.side == FR) {
        if u.kind.arm() == Arm::Artillery && u.id != "FR-20-A2" && u.id != "FR-21-A2" {
            let h = set_up_hex(&a, &u.id);
            if a.map.distance(h, hex("1308")) <= 2 {
                assert_eq!(a.hex_kind(h), "slope", "{}", u.id);
                assert!(troops.contains_key(&h), "{} unsupported", u.id);
            }
        }
    }
    // A battalion holds the Lindenthal wood's edge.
    assert_eq!(a.hex_kind(set_up_hex(&a, "FR-22-23L-1")), "forest");
    // French generals stand at their places.
    let marmont = &a.generals[a.general_index("marmont").unwrap()];
    assert_eq!(marmont.start, Start::SetUp(hex("1308")));
}

#[test]
fn hm47_a_set_up_the_rules_forbid_is_refused() {
    // Cavalry in the walled village ([18]: fortified hexes hold infantry and artillery).
    refused(
        edited(|t| t.replace("FR-25C-J = \"0101\"", "FR-25C-J = \"0911\"")),
        "a light-cavalry may not hold 0911",
    );
    // Two battalions in one hex ([2.4.1.3]).
    refused(
        edited(|t| t.replace("FR-21-2M-2 = \"1011\"", "FR-21-2M-2 = \"1012\"")),
        "1012 already holds 'FR-21-2M-1'",
    );
    // A unit without a hex, a hex for an arriving unit, an unknown unit.
    refused(
        edited(|t| t.replace("FR-RA-H = \"0207\"\n", "")),
        "unit 'FR-RA-H' is set up but [set-up] gives it no hex",
    );
    refused(
        edited(|t| t.replace("[set-up]\n", "[set-up]\nPR-AG-1 = \"0505\"\n")),
        "set-up.PR-AG-1: it arrives, it is not set up",
    );
    refused(
        edited(|t| t.replace("[set-up]\n", "[set-up]\nFR-99 = \"0505\"\n")),
        "set-up.FR-99: no such unit or general",
    );
}

#[test]
fn hm48_possession_of_the_field_the_walled_village_and_the_great_batterys_height() {
    let a = s();
    let t = Tables::shipped();
    let moeckern = &a.objectives[0];
    assert_eq!(moeckern.name, "Möckern");
    let mut walled: Vec<Hex> = a
        .map
        .hexes()
        .filter(|&h| a.map.terrain_kind(h).id == "walled")
        .collect();
    walled.sort();
    let mut hexes = moeckern.hexes.clone();
    hexes.sort();
    assert_eq!(hexes, walled);
    assert!(a.objectives.iter().all(|o| o.held == FR));
    assert_eq!(a.objectives[1].hexes, vec![hex("1308")]);
    // The field is held by the side holding every objective hex.
    assert_eq!(a.holder_of_the_field(|_| FR), Some(FR));
    assert_eq!(
        a.holder_of_the_field(|h| if h == hex("1308") { FR } else { PR }),
        None
    );
    // Yorck takes the field at the cost of more casualties: still his victory, a marginal one.
    let v = a.verdict(&t, [(300, 900), (150, 700)], Some(PR));
    assert_eq!((v.winner, v.margin), (Some(0), Margin::Marginal));
    // Holding the field and fewer casualties: the margin of [14].
    let v = a.verdict(&t, [(90, 900), (280, 700)], Some(PR));
    assert_eq!((v.winner, v.margin), (Some(0), Margin::Decisive));
    // Nobody holds it all: the casualties alone.
    let v = a.verdict(&t, [(300, 900), (150, 700)], None);
    assert_eq!((v.winner, v.margin), (Some(1), Margin::Major));
    let v = a.verdict(&t, [(100, 1000), (100, 1000)], None);
    assert_eq!((v.winner, v.margin), (None, Margin::Draw));
    refused(
        edited(|t| t.replace("hexes = [\"1308\"]", "hexes = [\"1799\"]")),
        "'1799' is not a hex of the table",
    );
    refused(
        edited(|t| t.replacen("held = \"french\"", "held = \"saxon\"", 1)),
        "no side 'saxon'",
    );
}

#[test]
fn a_bad_file_is_refused_with_every_problem_never_a_panic() {
    refused(
        edited(|t| t.replace(super_format(), "format = \"other/1\"")),
        "format 'other/1'",
    );
    refused(edited(|_| "not toml [".into()), "scenario:");
    refused(
        Scenario::from_toml(MOECKERN_TOML, "x", MOECKERN_OOB_TOML, &Tables::shipped()),
        "scenario map:",
    );
    refused(
        Scenario::from_toml(MOECKERN_TOML, MOECKERN_MAP_TOML, "[", &Tables::shipped()),
        "order of battle:",
    );
    refused(
        edited(|t| t.replace("end = \"18:00\"", "end = \"18:05\"")),
        "is not a whole number of 10-minute turns",
    );
    refused(
        edited(|t| t.replace("night = \"18:00\"", "night = \"25:00\"")),
        "time.night: '25:00' is not a time",
    );
    // Several problems at once: each on its line.
    let e = edited(|t| {
        t.replace("meadow = \"rough\"\n", "")
            .replace("FR-RA-H = \"0207\"\n", "")
    })
    .unwrap_err();
    assert!(e.0.len() >= 2, "{e}");
}

fn super_format() -> &'static str {
    "format = \"grognard-hex-miniatures-scenario/1\""
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any line of the scenario file or the order of battle left out: a scenario or a clear
    /// refusal, never a panic.
    #[test]
    fn a_file_with_a_line_missing_never_panics(which in 0usize..2, line in 0usize..2600) {
        let cut = |t: &str| -> String {
            t.lines()
                .enumerate()
                .filter(|(i, _)| *i != line % t.lines().count())
                .map(|(_, l)| l)
                .collect::<Vec<_>>()
                .join("\n")
        };
        let r = if which == 0 { edited(cut) } else { oob_edited(cut) };
        if let Err(e) = r {
            prop_assert!(!e.0.is_empty() && e.0.iter().all(|l| !l.is_empty()));
        }
    }
}
