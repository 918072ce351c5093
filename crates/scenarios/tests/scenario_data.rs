//! Checks the data of the three shipped Battle of Nations scenarios against the exclusive rules
//! (14.1-14.5 initial deployment, 15.5 reinforcement chart, 15.56 game length, 17.1
//! demoralization levels, 17.5 line of communications) with the corrections recorded in
//! `docs/bon-errata.md`. The files are read as plain TOML (`toml::Value`), independently of the
//! scenario loader.

use std::collections::{BTreeMap, BTreeSet};

use toml::Value;

const FIRST_DAY: &str = include_str!("../scenarios/bon-first-day.toml");
const THIRD_DAY: &str = include_str!("../scenarios/bon-third-day.toml");
const GRAND_BATTLE: &str = include_str!("../scenarios/bon-grand-battle.toml");

/// The corrected initial deployment chart (14.1-14.5): unit id, strength-type, first-day hex
/// ("absent" for a reinforcement), third-day hex ("destroyed" for a unit out of play).
const CHART: &str = "
FR.4      8-4   2315   1914
FR.5      8-4   2314   2015
FR.6      8-4   2313   2016
FR.8      8-4   0518   1214
FR.11     7-4   0614   1315
FR.12     4-4   0917   1726
FR.15     5-4   0817   1725
FR.38     4-4   0717   1624
FR.10     7-4   2312   1812
FR.16     7-4   2311   1813
FR.19     7-4   2210   1814
FR.20     11-4  0819   1013
FR.21     11-4  0921   destroyed
FR.22     11-4  1018   1014
FR.26     8-4   2316   destroyed
FR.27     6-4   0310   1918
FR.51     5-4   1712   1716
FR.52     5-4   1811   1816
FR.53     5-4   1810   1817
FR.31     8-4   0809   1609
FR.35     8-4   0709   1610
FR.36     7-4   0708   1710
FR.39     7-4   0607   1811
FR.Prov6  6-4   1522   1125
FR.Prov4  4-4   1918   destroyed
FR.1Gd    15-4  1715   1615
FR.2Gd    15-4  1714   1715
FR.1YGd   16-4  1913   1421
FR.2YGd   15-4  1813   1714
FR.3YGd   15-4  1914   1521
FR.4YGd   16-4  1814   1614
FR.Gd     8-6c  1713   1713
FR.I      6-6c  1915   1613
FR.II     4-6c  0507   1410
FR.III    5-6c  1322   1216
FR.IV     3-6c  2115   1717
FR.V      5-6c  2012   destroyed
FR.9      8-4   absent 1215
FR.32     8-4   absent 1217
FR.24     7-4   absent 1113
FR.14     7-4   absent 1212
PR.AvGd   8-4   0529   destroyed
PR.1_8    8-4   0429   0918
PR.2      5-4   0330   0817
PR.7      8-4   0230   0919
PR.8      6-4   0131   0921
PR.9      10-4  2516   2612
PR.10     10-4  2515   2613
PR.11     10-4  2615   2614
PR.12     10-4  2614   2615
PR.3      12-4  absent 0607
PR.4      11-4  absent 0507
PR.5      12-4  absent 0406
PR.6      11-4  absent 0405
PR.1_4    4-6c  absent 0809
PR.1Gd    8-4   absent 2611
AU.1/II   8-4   2720   2317
AU.2/II   12-4  2619   destroyed
AU.2/III  9-4   2029   2422
AU.3/III  9-4   2030   2424
AU.2/IV   12-4  2605   2306
AU.3/IV   12-4  2504   2406
AU.Gren   12-4  2820   2318
AU.DioB   12-4  2920   2319
AU.Res    5-6c  2303   2003
AU.1Gr    12-4  2912   2510
AU.2Gr    12-4  2913   2509
AU.Pahl   6-6c  2511   2609
AU.2/I    10-4  absent 2105
AU.3/I    10-4  absent 2205
RU.5      6-4   2710   2507
RU.14     5-4   2709   destroyed
RU.3      6-4   2514   2508
RU.4      6-4   2513   destroyed
RU.10     7-4   absent 1119
RU.25     7-4   absent 1018
RU.Sack   6-6c  absent 1019
RU.7      7-4   absent 0717
RU.18     5-4   absent destroyed
RU.9      5-4   absent 0715
RU.15     6-4   absent 0716
RU.8      6-4   absent 0615
RU.22     7-4   absent 0616
RU.11     8-4   absent 0718
RU.17     9-4   absent 0617
RU.StPr   6-6c  absent 0518
RU.21     8-4   absent 0409
RU.24     7-4   absent 0309
RU.26     7-4   absent 0308
RU.27     7-4   absent 0207
RU.1Gd    11-4  absent 2511
RU.2Gd    11-4  absent 2512
RU.16     12-4  absent 2506
RU.13     9-4   absent 2505
RU.12     14-4  absent 2604
RU.6      14-4  absent 2603
SW.1      9-4   absent 0314
SW.2      8-4   absent 0315
SW.3      8-4   absent 0215
";

/// The reinforcement chart (15.5) as corrected in `docs/bon-errata.md`: turn, entry hex, edge,
/// units.
const REINFORCEMENTS: &[(i64, &str, &str, &[&str])] = &[
    (1, "0131", "north", &["RU.10", "RU.25", "RU.Sack"]),
    (
        3,
        "0125",
        "north",
        &[
            "RU.7", "RU.18", "RU.9", "RU.15", "RU.8", "RU.22", "RU.11", "RU.17", "RU.StPr",
        ],
    ),
    (3, "2915", "south", &["PR.1Gd", "RU.1Gd", "RU.2Gd"]),
    (5, "0117", "north", &["FR.9"]),
    (7, "0117", "north", &["FR.32", "FR.24", "FR.14"]),
    (11, "2901", "south", &["AU.2/I", "AU.3/I"]),
    (
        12,
        "0103",
        "north",
        &[
            "PR.3", "PR.4", "PR.5", "PR.6", "PR.1_4", "RU.21", "RU.24", "RU.26", "RU.27",
        ],
    ),
    (12, "2901", "south", &["RU.16", "RU.13", "RU.12", "RU.6"]),
    (12, "0117", "north", &["SW.1", "SW.2", "SW.3"]),
];

/// The units listed "destroyed" in the third-day deployment.
const THIRD_DAY_DESTROYED: &[&str] = &[
    "FR.21", "FR.26", "FR.Prov4", "FR.V", "PR.AvGd", "AU.2/II", "RU.14", "RU.4", "RU.18",
];

/// The order of battle: army, corps, units.
const ORDER_OF_BATTLE: &[(&str, &str, &[&str])] = &[
    ("Grand Army", "II Corps (Victor)", &["FR.4", "FR.5", "FR.6"]),
    ("Grand Army", "III Corps (Ney)", &["FR.8", "FR.9", "FR.11"]),
    (
        "Grand Army",
        "IV Corps (Bertrand)",
        &["FR.12", "FR.15", "FR.38"],
    ),
    (
        "Grand Army",
        "V Corps (Lauriston)",
        &["FR.10", "FR.16", "FR.19"],
    ),
    (
        "Grand Army",
        "VI Corps (Marmont)",
        &["FR.20", "FR.21", "FR.22"],
    ),
    (
        "Grand Army",
        "VII Corps (Reynier)",
        &["FR.24", "FR.14", "FR.32"],
    ),
    (
        "Grand Army",
        "VIII Corps (Poniatowski)",
        &["FR.26", "FR.27"],
    ),
    (
        "Grand Army",
        "IX Corps (Augereau)",
        &["FR.51", "FR.52", "FR.53"],
    ),
    (
        "Grand Army",
        "XI Corps (Macdonald)",
        &["FR.31", "FR.35", "FR.36", "FR.39"],
    ),
    (
        "Grand Army",
        "Leipzig Garrison (Margaron)",
        &["FR.Prov6", "FR.Prov4"],
    ),
    ("Grand Army", "Old Guard (Drouot)", &["FR.1Gd", "FR.2Gd"]),
    ("Grand Army", "Young Guard I Corps", &["FR.1YGd", "FR.3YGd"]),
    (
        "Grand Army",
        "Young Guard II Corps",
        &["FR.2YGd", "FR.4YGd"],
    ),
    ("Grand Army", "Guard Cavalry Corps", &["FR.Gd"]),
    ("Grand Army", "I Cavalry Corps (Latour-Maubourg)", &["FR.I"]),
    ("Grand Army", "II Cavalry Corps (Sebastiani)", &["FR.II"]),
    ("Grand Army", "III Cavalry Corps (Arrighi)", &["FR.III"]),
    ("Grand Army", "IV Cavalry Corps (Sokolnicki)", &["FR.IV"]),
    ("Grand Army", "V Cavalry Corps (Pajol)", &["FR.V"]),
    (
        "Army of the North",
        "I Swedish Corps (Steding)",
        &["SW.1", "SW.2", "SW.3"],
    ),
    (
        "Army of the North",
        "II Russian Corps (Winzingerode)",
        &["RU.21", "RU.24", "RU.26", "RU.27"],
    ),
    (
        "Army of the North",
        "IV Prussian Corps (Bülow)",
        &["PR.3", "PR.4", "PR.5", "PR.6", "PR.1_4"],
    ),
    (
        "Army of Silesia",
        "I Prussian Corps (Yorck)",
        &["PR.AvGd", "PR.1_8", "PR.2", "PR.7", "PR.8"],
    ),
    (
        "Army of Silesia",
        "XI Russian Corps (Sacken)",
        &["RU.10", "RU.25", "RU.Sack"],
    ),
    (
        "Army of Silesia",
        "III Russian Corps (Langeron)",
        &["RU.7", "RU.18"],
    ),
    (
        "Army of Silesia",
        "IX Russian Corps (Langeron)",
        &["RU.9", "RU.15"],
    ),
    (
        "Army of Silesia",
        "X Russian Corps (Langeron)",
        &["RU.8", "RU.22"],
    ),
    (
        "Army of Silesia",
        "VIII Russian Corps (St. Priest)",
        &["RU.11", "RU.17", "RU.StPr"],
    ),
    (
        "Army of Bohemia",
        "I Austrian Corps (Colloredo)",
        &["AU.2/I", "AU.3/I"],
    ),
    (
        "Army of Bohemia",
        "II Austrian Corps (Meerveldt)",
        &["AU.1/II", "AU.2/II"],
    ),
    (
        "Army of Bohemia",
        "III Austrian Corps (Gyulai)",
        &["AU.2/III", "AU.3/III"],
    ),
    (
        "Army of Bohemia",
        "IV Austrian Corps (Klenau)",
        &["AU.2/IV", "AU.3/IV"],
    ),
    (
        "Army of Bohemia",
        "Reserve Austrian Corps (Hesse-Homburg)",
        &["AU.Gren", "AU.DioB", "AU.Res"],
    ),
    (
        "Army of Bohemia",
        "I Russian Corps (Gortschakoff)",
        &["RU.5", "RU.14"],
    ),
    (
        "Army of Bohemia",
        "II Russian Corps (Eugen)",
        &["RU.3", "RU.4"],
    ),
    (
        "Army of Bohemia",
        "II Prussian Corps (Kleist)",
        &["PR.9", "PR.10", "PR.11", "PR.12"],
    ),
    (
        "Reserve Army",
        "III Austrian Grenadier Corps",
        &["AU.1Gr", "AU.2Gr"],
    ),
    (
        "Reserve Army",
        "V Russian Guard Corps",
        &["RU.1Gd", "RU.2Gd", "PR.1Gd"],
    ),
    ("Reserve Army", "Cavalry Corps", &["AU.Pahl"]),
    ("Army of Poland", "Advance Guard", &["RU.16", "RU.13"]),
    ("Army of Poland", "Corps (Dochtorov)", &["RU.12", "RU.6"]),
];

/// One row of `CHART`.
struct ChartRow {
    id: &'static str,
    strength: i64,
    movement: i64,
    cavalry: bool,
    first_day: Option<&'static str>,
    third_day: Option<&'static str>,
}

fn chart() -> Vec<ChartRow> {
    CHART
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&'static str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 4, "bad chart line {l:?}");
            let cavalry = f[1].ends_with('c');
            let (s, m) = f[1].trim_end_matches('c').split_once('-').unwrap();
            ChartRow {
                id: f[0],
                strength: s.parse().unwrap(),
                movement: m.parse().unwrap(),
                cavalry,
                first_day: (f[2] != "absent").then_some(f[2]),
                third_day: (f[3] != "destroyed").then_some(f[3]),
            }
        })
        .collect()
}

fn parse(name: &str, text: &str) -> Value {
    text.parse::<Value>()
        .unwrap_or_else(|e| panic!("{name}: not valid TOML: {e}"))
}

fn scenarios() -> Vec<(&'static str, Value)> {
    vec![
        ("bon-first-day", parse("bon-first-day", FIRST_DAY)),
        ("bon-third-day", parse("bon-third-day", THIRD_DAY)),
        ("bon-grand-battle", parse("bon-grand-battle", GRAND_BATTLE)),
    ]
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("missing string {key:?} in {v:?}"))
}

fn int_of(v: &Value, key: &str) -> i64 {
    v.get(key)
        .and_then(Value::as_integer)
        .unwrap_or_else(|| panic!("missing integer {key:?} in {v:?}"))
}

fn units(doc: &Value) -> &Vec<Value> {
    doc.get("units")
        .and_then(Value::as_array)
        .expect("units array")
}

fn unit_map(doc: &Value) -> BTreeMap<String, &Value> {
    units(doc)
        .iter()
        .map(|u| (str_of(u, "id").to_string(), u))
        .collect()
}

fn is_destroyed(u: &Value) -> bool {
    u.get("destroyed").and_then(Value::as_bool) == Some(true)
}

#[test]
fn headers() {
    let expected = [
        ("bon-first-day", 1, 5),
        ("bon-third-day", 13, 20),
        ("bon-grand-battle", 1, 20),
    ];
    for ((name, doc), (id, first, last)) in scenarios().iter().zip(expected) {
        assert_eq!(str_of(doc, "format"), "grognard-scenario/1", "{name}");
        assert_eq!(str_of(doc, "id"), id, "{name}");
        assert_eq!(str_of(doc, "system"), "naw", "{name}");
        assert_eq!(str_of(doc, "map"), "leipzig", "{name}");
        assert!(!str_of(doc, "title").is_empty(), "{name}");
        assert!(!str_of(doc, "description").trim().is_empty(), "{name}");
        assert_eq!(int_of(doc, "first_turn"), first, "{name}");
        assert_eq!(int_of(doc, "last_turn"), last, "{name}");
        let nights: Vec<i64> = doc["night_turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_integer().unwrap())
            .collect();
        assert_eq!(nights, [6, 12, 18], "{name}: 15.56");
        let sides: Vec<&str> = doc["sides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(sides, ["French", "Allied"], "{name}: 14.61");
        let hooks = &doc["hooks"];
        assert_eq!(
            str_of(hooks, "no_movement_first_turn"),
            "French",
            "{name}: 14.62"
        );
        assert_eq!(
            hooks["night_withdrawal"].as_bool(),
            Some(true),
            "{name}: 16.1"
        );
        assert_eq!(
            hooks["friendly_occupied_entry_ok"].as_bool(),
            Some(true),
            "{name}"
        );
        let loc = &doc["line_of_communications"];
        assert_eq!(str_of(loc, "side"), "French", "{name}: 17.5");
        assert_eq!(str_of(loc, "army"), "French", "{name}: 17.5");
        assert_eq!(str_of(loc, "hex"), "2131", "{name}: 17.5");
    }
}

#[test]
fn nations() {
    for (name, doc) in scenarios() {
        let got: Vec<(String, String, String, String)> = doc["nations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                (
                    str_of(n, "id").into(),
                    str_of(n, "name").into(),
                    str_of(n, "side").into(),
                    str_of(n, "army").into(),
                )
            })
            .collect();
        let want = [
            ("FR", "French", "French", "French"),
            ("PR", "Prussian", "Allied", "Allied"),
            ("AU", "Austrian", "Allied", "Allied"),
            ("RU", "Russian", "Allied", "Allied"),
            ("SW", "Swedish", "Allied", "Allied"),
        ];
        let want: Vec<(String, String, String, String)> = want
            .iter()
            .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
            .collect();
        assert_eq!(got, want, "{name}");
        for u in units(&doc) {
            let nation = str_of(u, "nation");
            assert!(
                want.iter().any(|w| w.0 == nation),
                "{name}: unit {} has undeclared nation {nation}",
                str_of(u, "id")
            );
        }
    }
}

#[test]
fn unit_counts_per_nation() {
    let want: [(&str, [usize; 5]); 3] = [
        ("bon-first-day", [38, 10, 12, 18, 0]),
        ("bon-third-day", [41, 15, 14, 26, 3]),
        ("bon-grand-battle", [41, 15, 14, 26, 3]),
    ];
    for ((name, doc), (wname, counts)) in scenarios().iter().zip(want) {
        assert_eq!(*name, wname);
        for (nation, n) in ["FR", "PR", "AU", "RU", "SW"].iter().zip(counts) {
            let got = units(doc)
                .iter()
                .filter(|u| str_of(u, "nation") == *nation)
                .count();
            assert_eq!(got, n, "{name}: {nation} units");
        }
    }
}

#[test]
fn ids_unique_and_well_formed() {
    for (name, doc) in scenarios() {
        let mut seen = BTreeSet::new();
        for u in units(&doc) {
            let id = str_of(u, "id");
            assert!(seen.insert(id.to_string()), "{name}: id {id} repeated");
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-/_".contains(c)),
                "{name}: bad character in id {id}"
            );
            let nation = str_of(u, "nation");
            let designation = str_of(u, "designation");
            let (prefix, rest) = id.split_once('.').unwrap();
            assert_eq!(prefix, nation, "{name}: {id}");
            // The id is the designation, or the designation plus the strength where the nation
            // repeats a designation (FR Prov 6-4 / 4-4, PR 1 8-4 / 4-6c).
            let strength = int_of(u, "strength");
            let ok = rest == designation
                || rest == format!("{designation}{strength}")
                || rest == format!("{designation}_{strength}");
            assert!(
                ok,
                "{name}: id {id} does not match designation {designation}"
            );
        }
    }
}

#[test]
fn every_unit_matches_the_deployment_chart() {
    let chart = chart();
    assert_eq!(chart.len(), 99);
    for (name, doc) in scenarios() {
        let map = unit_map(&doc);
        for row in &chart {
            let Some(u) = map.get(row.id) else {
                // Only the First Day leaves units out: those arriving after turn 5.
                assert_eq!(name, "bon-first-day", "{} missing", row.id);
                continue;
            };
            assert_eq!(int_of(u, "strength"), row.strength, "{name}: {}", row.id);
            assert_eq!(int_of(u, "movement"), row.movement, "{name}: {}", row.id);
            let ty = if row.cavalry { "cavalry" } else { "infantry" };
            assert_eq!(str_of(u, "type"), ty, "{name}: {}", row.id);
            let hex = u.get("hex").and_then(Value::as_str);
            if name == "bon-third-day" {
                assert_eq!(hex, row.third_day, "{name}: {} set-up hex", row.id);
                assert_eq!(
                    is_destroyed(u),
                    row.third_day.is_none(),
                    "{name}: {}",
                    row.id
                );
            } else {
                assert_eq!(hex, row.first_day, "{name}: {} set-up hex", row.id);
            }
        }
        for id in map.keys() {
            assert!(
                chart.iter().any(|r| r.id == id),
                "{name}: unit {id} not in the chart"
            );
        }
    }
}

#[test]
fn exactly_one_placement_each() {
    for (name, doc) in scenarios() {
        for u in units(&doc) {
            let id = str_of(u, "id");
            let has_hex = u.get("hex").is_some();
            let has_arrive = u.get("arrive").is_some();
            let destroyed = is_destroyed(u);
            let n = [has_hex, has_arrive, destroyed]
                .iter()
                .filter(|b| **b)
                .count();
            assert_eq!(
                n, 1,
                "{name}: {id} needs exactly one of hex / arrive / destroyed"
            );
            if name == "bon-third-day" {
                assert!(
                    !has_arrive,
                    "{name}: {id}: no reinforcements on the third day"
                );
            } else {
                assert!(!destroyed, "{name}: {id}: nothing starts destroyed");
            }
            if let Some(d) = u.get("destroyed") {
                assert!(
                    d.as_bool().is_some(),
                    "{name}: {id}: destroyed must be a boolean"
                );
            }
        }
    }
}

fn check_hex(name: &str, id: &str, hex: &str) {
    assert!(
        hex.len() == 4 && hex.chars().all(|c| c.is_ascii_digit()),
        "{name}: {id}: bad hex {hex}"
    );
    let x: u32 = hex[..2].parse().unwrap();
    let y: u32 = hex[2..].parse().unwrap();
    assert!(
        (1..=29).contains(&x) && (1..=31).contains(&y),
        "{name}: {id}: {hex} off the map"
    );
}

#[test]
fn set_up_hexes_distinct_and_on_the_map() {
    for (name, doc) in scenarios() {
        let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
        for u in units(&doc) {
            let id = str_of(u, "id");
            if let Some(hex) = u.get("hex").and_then(Value::as_str) {
                check_hex(name, id, hex);
                if let Some(other) = seen.insert(hex, id) {
                    panic!("{name}: {id} and {other} both set up in {hex}");
                }
            }
        }
    }
}

#[test]
fn reinforcements_follow_the_corrected_chart() {
    let mut want: BTreeMap<String, (i64, &str, &str)> = BTreeMap::new();
    for (turn, hex, edge, ids) in REINFORCEMENTS {
        for id in *ids {
            assert!(
                want.insert(id.to_string(), (*turn, hex, edge)).is_none(),
                "{id} twice"
            );
        }
    }
    // The chart's reinforcements are exactly the "absent" units of the deployment chart.
    let absent: BTreeSet<String> = chart()
        .iter()
        .filter(|r| r.first_day.is_none())
        .map(|r| r.id.to_string())
        .collect();
    assert_eq!(absent, want.keys().cloned().collect::<BTreeSet<_>>());
    // Everything is in by Game-Turn 12, so the Third Day (13-20) has no reinforcements.
    assert!(want.values().all(|(t, _, _)| *t <= 12));

    for (name, doc) in scenarios() {
        let last = int_of(&doc, "last_turn");
        let mut got: BTreeMap<String, (i64, String, String)> = BTreeMap::new();
        for u in units(&doc) {
            if let Some(a) = u.get("arrive") {
                let id = str_of(u, "id");
                let hex = str_of(a, "hex");
                let edge = str_of(a, "edge");
                check_hex(name, id, hex);
                let expected_edge = if hex.starts_with("01") {
                    "north"
                } else {
                    "south"
                };
                assert!(
                    hex.starts_with("01") || hex.starts_with("29"),
                    "{name}: {id}"
                );
                assert_eq!(edge, expected_edge, "{name}: {id}: edge of {hex}");
                got.insert(id.into(), (int_of(a, "turn"), hex.into(), edge.into()));
            }
        }
        let expected: BTreeMap<String, (i64, String, String)> = match name {
            "bon-third-day" => BTreeMap::new(),
            _ => want
                .iter()
                .filter(|(_, (t, _, _))| *t <= last)
                .map(|(id, (t, h, e))| (id.clone(), (*t, h.to_string(), e.to_string())))
                .collect(),
        };
        assert_eq!(got, expected, "{name}: reinforcements");
    }
}

#[test]
fn first_day_reinforcements_by_turn() {
    let doc = parse("bon-first-day", FIRST_DAY);
    let mut per_turn: BTreeMap<(i64, String), usize> = BTreeMap::new();
    for u in units(&doc) {
        if let Some(a) = u.get("arrive") {
            *per_turn
                .entry((int_of(a, "turn"), str_of(a, "hex").to_string()))
                .or_default() += 1;
        }
    }
    let want: BTreeMap<(i64, String), usize> = [
        ((1, "0131".to_string()), 3),
        ((3, "0125".to_string()), 9),
        ((3, "2915".to_string()), 3),
        ((5, "0117".to_string()), 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(per_turn, want);
}

#[test]
fn reinforcement_groups_match_their_armies() {
    // The errata groups (docs/bon-errata.md): the Guards at 2915 belong to the Reserve Army,
    // the turn-12 units at 0103 to the Army of the North, those at 2901 to the Army of Poland.
    let doc = parse("bon-grand-battle", GRAND_BATTLE);
    for u in units(&doc) {
        let Some(a) = u.get("arrive") else { continue };
        let army = str_of(u, "army");
        let want = match (int_of(a, "turn"), str_of(a, "hex")) {
            (1, "0131") | (3, "0125") => "Army of Silesia",
            (3, "2915") => "Reserve Army",
            (5 | 7, "0117") => "Grand Army",
            (11, "2901") => "Army of Bohemia",
            (12, "0103") | (12, "0117") => "Army of the North",
            (12, "2901") => "Army of Poland",
            other => panic!("unexpected arrival {other:?}"),
        };
        assert_eq!(army, want, "{}", str_of(u, "id"));
    }
}

#[test]
fn third_day_destroyed_units() {
    let doc = parse("bon-third-day", THIRD_DAY);
    let got: BTreeSet<&str> = units(&doc)
        .iter()
        .filter(|u| is_destroyed(u))
        .map(|u| str_of(u, "id"))
        .collect();
    let want: BTreeSet<&str> = THIRD_DAY_DESTROYED.iter().copied().collect();
    assert_eq!(got, want);
    // They count toward demoralization (17.0): 28 French and 36 Allied strength points.
    let lost = |side_french: bool| -> i64 {
        units(&doc)
            .iter()
            .filter(|u| is_destroyed(u) && (str_of(u, "nation") == "FR") == side_french)
            .map(|u| int_of(u, "strength"))
            .sum()
    };
    assert_eq!(lost(true), 28);
    assert_eq!(lost(false), 36);
}

#[test]
fn demoralization_table_is_17_1() {
    // 17.1: (first turn, last turn, French, Allied).
    let table = [(1, 5, 100, 80), (6, 11, 110, 120), (12, 20, 110, 160)];
    for (name, doc) in scenarios() {
        let first = int_of(&doc, "first_turn");
        let last = int_of(&doc, "last_turn");
        let want: Vec<(i64, i64, i64, i64)> = table
            .iter()
            .filter(|(a, b, _, _)| *b >= first && *a <= last)
            .map(|(a, b, f, al)| ((*a).max(first), (*b).min(last), *f, *al))
            .collect();
        let got: Vec<(i64, i64, i64, i64)> = doc["demoralization"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let turns = d["turns"].as_array().unwrap();
                assert_eq!(turns.len(), 2, "{name}");
                let levels = d["levels"].as_table().unwrap();
                assert_eq!(levels.len(), 2, "{name}: levels for French and Allied only");
                (
                    turns[0].as_integer().unwrap(),
                    turns[1].as_integer().unwrap(),
                    int_of(&d["levels"], "French"),
                    int_of(&d["levels"], "Allied"),
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
        // No gaps: the entries cover first..=last in order.
        let mut next = first;
        for (a, b, _, _) in &got {
            assert_eq!(*a, next, "{name}: gap before turn {a}");
            next = b + 1;
        }
        assert_eq!(next, last + 1, "{name}: table ends early");
    }
}

#[test]
fn order_of_battle() {
    let mut want: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for (army, corps, ids) in ORDER_OF_BATTLE {
        for id in *ids {
            assert!(
                want.insert(id, (army, corps)).is_none(),
                "{id} in two corps"
            );
        }
    }
    assert_eq!(want.len(), 99, "every unit belongs to one corps");
    for (name, doc) in scenarios() {
        for u in units(&doc) {
            let id = str_of(u, "id");
            let (army, corps) = want
                .get(id)
                .unwrap_or_else(|| panic!("{name}: {id} not in the order of battle"));
            assert_eq!(str_of(u, "army"), *army, "{name}: {id}");
            assert_eq!(str_of(u, "corps"), *corps, "{name}: {id}");
        }
    }
}

#[test]
fn scenarios_agree_with_each_other() {
    let first = parse("bon-first-day", FIRST_DAY);
    let third = parse("bon-third-day", THIRD_DAY);
    let grand = parse("bon-grand-battle", GRAND_BATTLE);
    let (f, t, g) = (unit_map(&first), unit_map(&third), unit_map(&grand));
    assert_eq!(
        t.keys().collect::<Vec<_>>(),
        g.keys().collect::<Vec<_>>(),
        "the Third Day and the Grand Battle hold the same units"
    );
    for (id, gu) in &g {
        for key in ["nation", "designation", "type", "army", "corps"] {
            assert_eq!(str_of(gu, key), str_of(t[id], key), "{id}: {key}");
        }
        for key in ["strength", "movement"] {
            assert_eq!(int_of(gu, key), int_of(t[id], key), "{id}: {key}");
        }
        match f.get(id) {
            // The First Day is the Grand Battle cut at turn 5.
            Some(fu) => assert_eq!(fu, gu, "{id} differs between First Day and Grand Battle"),
            None => assert!(
                int_of(&gu["arrive"], "turn") > 5,
                "{id} left out of the First Day"
            ),
        }
    }
}
