//! The battalion order of battle of Möckern (`data/moeckern-oob.toml`) against the research
//! (`shared/research/moeckern-1813.md`) and the hex-miniatures rules' conventions ([2.4]):
//! every unit belongs to a formation of its side, its base units follow the stated convention,
//! its type and quality are among the documented strings, it arrives within the battle's
//! hours by a known edge or place, and the totals agree with the research's figures.

use std::collections::BTreeSet;

use hexmap::Map;
use scenarios::mapgen::moeckern;
use toml::Value;

fn oob() -> Value {
    toml::from_str(moeckern::OOB).expect("data/moeckern-oob.toml parses")
}

fn list<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    v[key].as_array().unwrap_or_else(|| panic!("no [[{key}]]"))
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{v:?}: no string '{key}'"))
}

fn int(v: &Value, key: &str) -> i64 {
    v.get(key).and_then(Value::as_integer).unwrap_or(0)
}

/// Minutes after midnight of `HH:MM`.
fn minutes(t: &str) -> i64 {
    let (h, m) = t.split_once(':').unwrap_or_else(|| panic!("time '{t}'"));
    h.parse::<i64>().unwrap() * 60 + m.parse::<i64>().unwrap()
}

fn units_of<'a>(o: &'a Value, side: &str) -> Vec<&'a Value> {
    list(o, "unit")
        .iter()
        .filter(|u| s(u, "side") == side)
        .collect()
}

fn men(us: &[&Value]) -> i64 {
    us.iter().map(|u| int(u, "men")).sum()
}

#[test]
fn every_unit_belongs_to_a_formation_of_its_side() {
    let o = oob();
    let sides: BTreeSet<&str> = list(&o, "side").iter().map(|x| s(x, "id")).collect();
    assert_eq!(sides, BTreeSet::from(["french", "prussian"]));
    let forms = list(&o, "formation");
    for f in forms {
        assert!(sides.contains(s(f, "side")));
        let parent = s(f, "parent");
        if !parent.is_empty() {
            let p = forms.iter().find(|p| s(p, "id") == parent);
            let p = p.unwrap_or_else(|| panic!("{}: no parent {parent}", s(f, "id")));
            assert_eq!(s(p, "side"), s(f, "side"));
        }
    }
    let mut ids = BTreeSet::new();
    for u in list(&o, "unit").iter().chain(list(&o, "general")) {
        assert!(ids.insert(s(u, "id")), "id {} twice", s(u, "id"));
        let f = forms
            .iter()
            .find(|f| s(f, "id") == s(u, "formation"))
            .unwrap_or_else(|| panic!("{}: no formation {}", s(u, "id"), s(u, "formation")));
        assert_eq!(s(f, "side"), s(u, "side"), "{}", s(u, "id"));
        assert!(!s(u, "source").trim().is_empty(), "{}", s(u, "id"));
    }
    // every formation has units or is a command above some, and its commander is a general of
    // its side
    for f in forms {
        let id = s(f, "id");
        let used = list(&o, "unit").iter().any(|u| s(u, "formation") == id)
            || forms.iter().any(|c| s(c, "parent") == id);
        assert!(used, "{id} is empty");
        let c = s(f, "commander");
        assert!(
            list(&o, "general")
                .iter()
                .any(|g| s(g, "side") == s(f, "side") && s(g, "name").contains(c)),
            "{id}: no general '{c}'"
        );
    }
}

#[test]
fn arrivals_fall_within_the_battles_hours_by_a_known_edge_or_place() {
    let o = oob();
    let b = &o["battle"];
    let (start, end) = (minutes(s(b, "start")), minutes(s(b, "end")));
    assert_eq!((start, end), (12 * 60, 18 * 60), "noon to dusk (research)");
    let map = Map::from_toml(moeckern::COMMITTED).unwrap();
    let geo = moeckern::geography();
    let known = |at: &str| {
        map.places.iter().any(|p| p.name == at) || geo.roads.iter().any(|r| r.name == at)
    };
    for u in list(&o, "unit").iter().chain(list(&o, "general")) {
        let id = s(u, "id");
        let t = minutes(s(u, "arrives"));
        assert!(
            (start..end).contains(&t),
            "{id} arrives at {}",
            s(u, "arrives")
        );
        assert_eq!(t % int(b, "turn_minutes"), 0, "{id}: not on a turn");
        let entry = s(u, "entry");
        assert!(
            ["set-up", "north", "south", "east", "west"].contains(&entry),
            "{id}: entry {entry}"
        );
        if entry == "set-up" {
            assert_eq!(t, start, "{id}: set up at the start");
        }
        assert!(
            known(s(u, "at")),
            "{id}: unknown place or road '{}'",
            s(u, "at")
        );
    }
    // a unit coming in by an edge comes by a place within two hexes of it, or a road reaching it
    let g = moeckern::generate_detailed();
    let near_edge = |h: hexmap::Hex, edge: &str| match edge {
        "north" => h.x <= 2,
        "south" => h.x >= map.width() - 1,
        "east" => h.y <= 2,
        _ => h.y >= map.height() - 1,
    };
    for u in list(&o, "unit").iter().chain(list(&o, "general")) {
        let (entry, at) = (s(u, "entry"), s(u, "at"));
        if entry == "set-up" {
            continue;
        }
        let ok = match map.places.iter().find(|p| p.name == at) {
            Some(p) => near_edge(p.hex, entry),
            None => g.roads.iter().find(|r| r.name == at).is_some_and(|r| {
                r.hexes
                    .iter()
                    .any(|&h| map.contains(h) && near_edge(h, entry))
            }),
        };
        assert!(ok, "{}: {at} is not by the {entry} edge", s(u, "id"));
    }
    // Marmont's corps stands on the table at noon; Yorck's comes in (research's timeline)
    assert!(units_of(&o, "french")
        .iter()
        .all(|u| s(u, "entry") == "set-up"));
    assert!(units_of(&o, "prussian")
        .iter()
        .all(|u| s(u, "entry") != "set-up"));
    // Horn and Hünerbein are brought over from Lindenthal after 14:00
    for f in ["PR-7", "PR-8"] {
        for u in list(&o, "unit").iter().filter(|u| s(u, "formation") == f) {
            assert!(minutes(s(u, "arrives")) >= 14 * 60);
            assert_eq!(s(u, "at"), "Lindenthal");
        }
    }
}

#[test]
fn base_units_types_and_qualities_follow_the_conventions() {
    // [2.4.3.1] 100-125 men a base, 5 a full battalion; [2.4.4] a squadron a base, 3-4 a
    // regiment; [2.4.5.1] one piece a battery of 8-10 guns
    let o = oob();
    let per = int(&o["battle"], "men_per_base");
    assert!((100..=125).contains(&per));
    let rounded = |m: i64| (m + per / 2) / per;
    for u in list(&o, "unit") {
        let (id, bases, m) = (s(u, "id"), int(u, "bases"), int(u, "men"));
        let (ty, q) = (s(u, "type"), s(u, "quality"));
        match s(u, "arm") {
            "infantry" => {
                assert_eq!(bases, rounded(m).clamp(1, 5), "{id}");
                assert!(
                    ["line", "light", "grenadier", "jager", "marine", "landwehr"].contains(&ty),
                    "{id}: {ty}"
                );
                assert!(
                    ["guard", "grenadier", "line", "landwehr"].contains(&q),
                    "{id}: {q}"
                );
            }
            "cavalry" => {
                let sq = int(u, "squadrons");
                assert!((1..=5).contains(&sq), "{id}");
                assert_eq!(bases, rounded(m).clamp(1, sq), "{id}");
                assert!(
                    [
                        "hussar",
                        "uhlan",
                        "dragoon",
                        "chevauleger",
                        "jager-zu-pferd",
                        "national-cavalry",
                        "landwehr-cavalry"
                    ]
                    .contains(&ty),
                    "{id}: {ty}"
                );
                assert!(["heavy", "medium", "light"].contains(&q), "{id}: {q}");
            }
            "artillery" => {
                assert_eq!(bases, 1, "{id}");
                assert!((6..=10).contains(&int(u, "guns")), "{id}");
                assert!(
                    ["foot-12pdr", "foot-6pdr", "foot-3pdr", "horse-6pdr"].contains(&ty),
                    "{id}: {ty}"
                );
                assert_eq!(q, &ty[..q.len()], "{id}: {q} against {ty}");
            }
            a => panic!("{id}: arm {a}"),
        }
        assert!(
            ["stated", "recalled", "decided"].contains(&s(u, "evidence")),
            "{id}"
        );
    }
}

#[test]
fn the_prussian_totals_agree_with_the_research() {
    let o = oob();
    let pr = units_of(&o, "prussian");
    // about 20,000 [15] or 21,000 [24]: the table's force, without staff, pioneers and
    // train, is within 10 % under the lower figure
    let total = men(&pr);
    assert!((18_000..=21_000).contains(&total), "{total}");
    // infantry about 12,000 before the battle [9]
    let inf: Vec<&Value> = pr
        .iter()
        .copied()
        .filter(|u| s(u, "arm") == "infantry")
        .collect();
    let i = men(&inf);
    assert!((10_800..=13_200).contains(&i), "{i}");
    // the Landwehr: 13,000 in August, 2,000 after Möckern [9]
    let lw = men(&inf
        .iter()
        .copied()
        .filter(|u| s(u, "quality") == "landwehr")
        .collect::<Vec<_>>());
    assert!((2_000..=6_000).contains(&lw), "{lw}");
    // the 7th and 8th Brigades marched with 22 1/2 battalions and 9 squadrons [29] (the half
    // is the Guard Jäger's two companies; the 12th Reserve's 2nd battalion is with Hiller)
    let of = |f: &str| -> Vec<&Value> {
        pr.iter()
            .copied()
            .filter(|u| s(u, "formation") == f)
            .collect()
    };
    let bns: f64 = ["PR-7", "PR-8"]
        .iter()
        .flat_map(|f| of(f))
        .filter(|u| s(u, "arm") == "infantry")
        .map(|u| if s(u, "id") == "PR-7-GJ" { 0.5 } else { 1.0 })
        .sum::<f64>()
        + 1.0;
    assert_eq!(bns, 22.5);
    let sq: i64 = ["PR-7", "PR-8"]
        .iter()
        .flat_map(|f| of(f))
        .map(|u| int(u, "squadrons"))
        .sum();
    assert_eq!(sq, 9);
    // the Mecklenburg-Strelitz Hussars: 4 squadrons of 120 and 60 volunteer Jäger [26, 27]
    let h = pr.iter().find(|u| s(u, "id") == "PR-2-H").unwrap();
    assert_eq!((int(h, "squadrons"), int(h, "men")), (4, 4 * 120 + 60));
    // the reserve artillery's seven batteries [29]
    assert_eq!(of("PR-RA").len(), 7);
}

#[test]
fn the_french_totals_agree_with_the_research() {
    let o = oob();
    let fr = units_of(&o, "french");
    // 17,000 [15] to about 20,000 [6]: the table's force (without the engineers) is within
    // 10 % under the lower figure
    let total = men(&fr);
    assert!((15_300..=20_000).contains(&total), "{total}");
    // the September return [17]: 14 battalions a division, 8 squadrons
    for d in ["FR-20", "FR-21", "FR-22"] {
        let n = fr
            .iter()
            .filter(|u| s(u, "formation") == d && s(u, "arm") == "infantry")
            .count();
        assert_eq!(n, 14, "{d}");
    }
    let sq: i64 = fr.iter().map(|u| int(u, "squadrons")).sum();
    assert_eq!(sq, 8);
    // about 85 guns [6]; 80 in the great battery [9]
    let guns: i64 = fr.iter().map(|u| int(u, "guns")).sum();
    assert!((80..=90).contains(&guns), "{guns}");
    // the 2nd Marine held the village [12]
    assert!(fr
        .iter()
        .filter(|u| s(u, "name").contains("2e Marine"))
        .all(|u| s(u, "at") == "Möckern"));
    // infantry battalions average fewer than the September 365 [17]
    let inf: Vec<&Value> = fr
        .iter()
        .copied()
        .filter(|u| s(u, "arm") == "infantry")
        .collect();
    assert!(men(&inf) < 365 * inf.len() as i64);
}
