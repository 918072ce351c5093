//! Leipzig 1813 through the registry (issue 15): each of the eight scenarios is listed, created,
//! played by random players to its end, and resumed from its record with the same state hash;
//! a seat's view of a spring scenario holds none of the other side's hidden units.

use engine::dynamic::DynGame;
use engine::{Side, ToAct, Viewer};
use serde_json::Value;
use systems::Library;

const ID: &str = "leipzig-1813";

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
fn every_scenario_plays_to_its_end_and_resumes_from_its_record() {
    let lib = Library::standard();
    for n in 1..=8u64 {
        let id = format!("leipzig1813-{n}");
        let info = lib.scenario(&id).unwrap();
        assert_eq!(info.system, ID);
        let mut g = lib.new_game(&id, None, 100 + n).unwrap();
        assert_eq!(g.system(), ID);
        assert_eq!(g.record().rules, leipzig_1813::RULES_VERSION);
        assert_eq!(g.record().scenario, id);
        assert_eq!(g.seats(), vec!["French".to_string(), "Allies".to_string()]);
        assert_eq!(
            g.record().scenario_digest,
            engine::hash_text(lib.digest(&id, None).unwrap())
        );
        let played = play_to_the_end(&lib, g.as_mut(), 7 + n);
        assert!(matches!(g.to_act(), ToAct::Over(_)));
        let hash = g.state_hash();
        // the record, through its JSON text, resumes to the same state
        let text = g.record().to_json();
        let record = engine::Record::from_json(&text).unwrap();
        assert_eq!(record.actions.len(), played);
        let again = lib.resume(record).unwrap();
        assert_eq!(again.system(), ID);
        assert_eq!(again.state_hash(), hash, "{id}: the resumed game differs");
        // and a prefix of it, to the same state as the actions replayed by their texts
        let mut cut = g.record().clone();
        cut.actions.truncate(played / 2);
        let half = lib.resume(cut.clone()).unwrap();
        let mut replayed = lib.new_game(&id, None, 100 + n).unwrap();
        for r in &cut.actions {
            replayed.act(&r.text).unwrap();
        }
        assert_eq!(half.state_hash(), replayed.state_hash(), "{id}: half way");
    }
}

/// Every string anywhere in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The ids of the units of `side` a view lists.
fn unit_ids(view: &Value, side: &str) -> Vec<String> {
    view["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["side"] == side)
        .filter_map(|u| u["id"].as_str().map(String::from))
        .collect()
}

#[test]
fn in_the_spring_the_french_seat_sees_no_hidden_allied_unit() {
    let lib = Library::standard();
    let mut g = lib.new_game("leipzig1813-1", None, 5).unwrap();
    let sys = lib.system(ID).unwrap();
    let mut players = [
        sys.player("random", 1).unwrap(),
        sys.player("random", 2).unwrap(),
    ];
    let french = Viewer::Seat(Side(0));
    let mut checked = 0;
    for _ in 0..3000 {
        let referee = g.view(Viewer::Referee);
        let seen = g.view(french);
        let hidden: Vec<String> = referee["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["side"] == "Allies" && u["hidden_from"] == "French")
            .filter_map(|u| u["id"].as_str().map(String::from))
            .collect();
        let mut words = Vec::new();
        strings(&seen, &mut words);
        for id in &hidden {
            assert!(
                !words.contains(id),
                "the French view names the hidden Allied unit {id}"
            );
        }
        assert!(
            unit_ids(&seen, "Allies")
                .iter()
                .all(|u| !hidden.contains(u)),
            "a hidden unit is listed"
        );
        checked += hidden.len();
        // the legal actions of the Allied seat are not the French seat's to see
        if g.to_act() == ToAct::Side(Side(1)) {
            assert_eq!(seen["legal"], Value::Array(Vec::new()));
        }
        match g.to_act() {
            ToAct::Side(s) => {
                let a = players[usize::from(s.0)].choose(&*g);
                let acted = g.act(&a).unwrap();
                // events name no unit hidden from the French after the action
                let after = g.view(Viewer::Referee);
                let hidden_now: Vec<String> = after["units"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|u| u["hidden_from"] == "French")
                    .filter_map(|u| u["id"].as_str().map(String::from))
                    .collect();
                let mut said = Vec::new();
                for e in &acted.events {
                    strings(e, &mut said);
                }
                for id in &hidden_now {
                    assert!(
                        !said.contains(id),
                        "an event names {id}: {:?}",
                        acted.events
                    );
                }
            }
            ToAct::Chance => {
                g.roll().unwrap();
            }
            ToAct::Over(_) => break,
        }
    }
    assert!(checked > 0, "no Allied unit was ever hidden");
}
