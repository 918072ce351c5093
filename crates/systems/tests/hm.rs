//! The hex-miniatures rules through the registry (issue 16): `moeckern-1813` is listed and
//! created, played by random players to its end, and resumed from its record with the same
//! state hash; its views carry what the board draws.

use engine::dynamic::DynGame;
use engine::{ToAct, Viewer};
use systems::Library;

const ID: &str = "hex-miniatures";
const SCENARIO: &str = "moeckern-1813";

/// Plays a game to its end with the system's random players; returns the number of actions.
fn play_to_the_end(lib: &Library, g: &mut dyn DynGame, seed: u64) -> usize {
    let sys = lib.system(ID).unwrap();
    let mut players = vec![
        sys.player("random", seed).unwrap(),
        sys.player("random", seed + 1).unwrap(),
    ];
    let r = ai::play_any(g, &mut players, 400_000);
    assert_eq!(r.refused, 0, "the random player chose a refused action");
    assert!(
        r.outcome.is_some(),
        "the game did not end in 400000 actions"
    );
    r.record.actions.len()
}

#[test]
fn moeckern_is_created_played_to_its_end_and_resumed_from_its_record() {
    let lib = Library::standard();
    let info = lib.scenario(SCENARIO).unwrap();
    assert_eq!(info.system, ID);
    assert_eq!(lib.rules_for(&info), vec![ID]);
    let mut g = lib.new_game(SCENARIO, None, 5).unwrap();
    assert_eq!(g.system(), ID);
    assert_eq!(g.record().rules, hex_miniatures::RULES_VERSION);
    assert_eq!(g.record().scenario, SCENARIO);
    assert_eq!(
        g.record().scenario_digest,
        engine::hash_text(lib.digest(SCENARIO, None).unwrap())
    );
    assert_eq!(
        g.seats(),
        vec!["Prussians".to_string(), "French".to_string()]
    );
    let n = play_to_the_end(&lib, g.as_mut(), 11);
    assert!(matches!(g.to_act(), ToAct::Over(_)));
    let hash = g.state_hash();
    let text = g.record().to_json();
    let record = engine::Record::from_json(&text).unwrap();
    assert_eq!(record.actions.len(), n);
    let again = lib.resume(record).unwrap();
    assert_eq!(again.system(), ID);
    assert_eq!(again.state_hash(), hash, "the resumed game differs");
    assert!(matches!(again.to_act(), ToAct::Over(_)));
    // any prefix of the record resumes to the state the game had then
    let mut cut = g.record().clone();
    cut.actions.truncate(n / 2);
    let half = lib.resume(cut.clone()).unwrap();
    let mut replayed = lib.new_game(SCENARIO, None, 5).unwrap();
    for r in &cut.actions {
        replayed.act(&r.text).unwrap();
    }
    assert_eq!(half.state_hash(), replayed.state_hash(), "half way");
    // the end: an outcome with its case, and the arena's figures
    let v = again.view(Viewer::Referee);
    assert!(v["outcome"]["case"].is_string(), "{}", v["outcome"]);
    let facts = again.facts();
    assert!(facts.turn.is_some());
    assert!(facts
        .figures
        .iter()
        .any(|(k, _)| k == "Prussians casualties %"));
}

#[test]
fn the_state_view_carries_units_generals_messengers_weather_and_the_victory_table() {
    let lib = Library::standard();
    let g = lib.new_game(SCENARIO, None, 1).unwrap();
    let v = g.view(Viewer::Seat(engine::Side(0)));
    assert_eq!(v["system"], ID);
    assert_eq!(v["turn"], 1);
    assert_eq!(v["last_turn"], 36);
    assert_eq!(v["clock"], "12:00");
    let units = v["units"].as_array().unwrap();
    let unit = |id: &str| {
        units
            .iter()
            .find(|u| u["id"] == id)
            .unwrap_or_else(|| panic!("no {id}"))
    };
    // the 2nd Marine in Möckern, ordered, in line, with its base units
    let m = unit("FR-21-2M-1");
    assert_eq!(m["side"], "French");
    assert_eq!(m["status"], "map");
    assert_eq!(m["order"], "ordered");
    assert_eq!(m["formation"], "line");
    assert_eq!(m["bases"], 3);
    assert_eq!(m["type"], "infantry");
    assert_eq!(m["kind"], "grenadier");
    assert!(m["name"].as_str().unwrap().contains("Marine"));
    // Horn's brigade waits for 14:30
    assert_eq!(unit("PR-7-L-1")["status"], "waiting");
    assert_eq!(unit("PR-7-L-1")["arrival"]["turn"], 16);
    assert_eq!(unit("PR-7-L-1")["arrival"]["hex"], "0102");
    // the generals are counters of their own
    let yorck = unit("yorck");
    assert_eq!(
        (yorck["type"].as_str(), yorck["role"].as_str()),
        (Some("leader"), Some("general"))
    );
    assert_eq!(yorck["senior"], true);
    assert!(v["generals"].as_array().unwrap().len() == 17);
    assert!(v["messengers"].is_array());
    assert!(v["formations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["id"] == "PR-7" && f["commander"] == "horn"));
    assert_eq!(v["conditions"]["weather"], "clear");
    assert_eq!(v["conditions"]["night"], false);
    let armies = v["victory"]["armies"].as_array().unwrap();
    assert_eq!(armies.len(), 2);
    assert_eq!(armies[0]["lost"], 0);
    assert!(armies[1]["marks"].as_array().unwrap()[0]["level"] == 15);
    assert_eq!(v["victory"]["field"], "French");
    assert!(v["sight"]["French"].as_array().is_some());
    // legal actions are structured
    let legal = v["legal_actions"].as_array().unwrap();
    assert!(!legal.is_empty() || v["to_act"] == "chance");
}

#[test]
fn every_event_is_shown_with_its_case_kind_text_and_units_by_id() {
    let lib = Library::standard();
    let mut g = lib.new_game(SCENARIO, None, 2).unwrap();
    let mut p = lib.system(ID).unwrap().player("random", 3).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        match g.to_act() {
            ToAct::Side(_) => {
                let a = p.choose(&*g);
                g.act(&a).unwrap();
            }
            ToAct::Chance => {
                g.roll().unwrap();
            }
            ToAct::Over(_) => break,
        }
    }
    for entry in g.log() {
        for e in &entry.events {
            assert!(e["case"].is_string(), "{e}");
            assert!(e["kind"].is_string(), "{e}");
            assert!(!e["text"].as_str().unwrap().is_empty(), "{e}");
            if let Some(u) = e.get("unit") {
                assert!(u.is_string(), "a unit by id: {e}");
            }
            kinds.insert(e["kind"].as_str().unwrap().to_string());
        }
    }
    assert!(kinds.contains("moved"), "{kinds:?}");
    // the command line's text
    let t = g.query("text", "show", Viewer::Referee).unwrap();
    assert!(t.as_str().unwrap().contains("moeckern-1813: turn"), "{t}");
}
