//! The Napoleonic Battles activation system served (issue 14): the scenario list tells which
//! systems play each scenario, a game is created with `"rules": "napoleonic-battles"` (hot-seat
//! and against the computer), its state view is the system's, actions and refusals go through
//! the API, and its record replays.

mod common;

use common::{assert_error, databases, play_random, start, verify_record, Api};
use serde_json::json;

const RULES: &str = "napoleonic-battles";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scenarios_name_the_systems_that_play_them() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (s, list) = api.get("/api/scenarios").await;
        assert_eq!(s, 200, "{list}");
        // the Battle of Nations scenarios (Leipzig 1813's are its own system's)
        for sc in list
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["id"].as_str().is_some_and(|i| i.starts_with("bon-")))
        {
            assert_eq!(sc["system"], "naw");
            assert_eq!(
                sc["rules"],
                json!([
                    {"id": "naw", "name": "Napoleon at War"},
                    {"id": RULES, "name": "Napoleonic Battles"},
                ]),
                "{sc}"
            );
        }
        // the system's charts: the melee table and the terrain chart
        let (s, t) = api.get(&format!("/api/tables?system={RULES}")).await;
        assert_eq!(s, 200, "{t}");
        assert!(!t["crt"]["columns"].as_array().unwrap().is_empty(), "{t}");
        assert_eq!(t["crt"]["case"], "NB Combat results tables");
        assert!(t["tec"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["terrain"] == "forest"));
        // the system's own computer players, and the start screen's levels it accepts
        let (s, p) = api.get(&format!("/api/players?system={RULES}")).await;
        assert_eq!(s, 200, "{p}");
        assert_eq!(p["players"], json!(["random", "heuristic", "search"]));
        assert_eq!(p["default"], "search");
        for l in p["levels"].as_array().unwrap() {
            let spec = l["spec"].as_str().unwrap();
            assert!(
                systems::Library::standard()
                    .system(RULES)
                    .unwrap()
                    .player(spec, 0)
                    .is_ok(),
                "{spec}"
            );
        }
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hot_seat_game_under_the_activation_system() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        // a system that cannot be named, and one that does not exist
        assert_error(
            &api.post(
                "/api/games",
                None,
                json!({"scenario": "bon-first-day", "rules": "nosuch"}),
            )
            .await,
            400,
            "bad_request",
            None,
        );
        let (id, v) = api
            .create(
                json!({"scenario": "bon-first-day", "seed": 5, "mode": "hotseat", "rules": RULES}),
            )
            .await;
        let t = v["seats"]["both"].as_str().unwrap().to_string();
        let state = api.state(&id).await;
        assert_eq!(state["system"], RULES);
        assert_eq!(state["scenario"], "bon-first-day");
        assert_eq!(state["turn"], 1);
        assert_eq!(state["to_act"], "Allied");
        assert_eq!(state["initiative"]["side"], "Allied");
        assert!(state["formations"].as_array().unwrap().len() > 10);
        let units = state["units"].as_array().unwrap();
        assert!(units.iter().any(|u| u["type"] == "leader"));
        assert!(units
            .iter()
            .filter(|u| u["status"] == "map" && u["type"] != "leader")
            .all(|u| u["facing"].is_u64()));
        assert!(state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "pass"));
        // the map is the Battle of Nations'
        let (s, m) = api.get(&format!("/api/games/{id}/map")).await;
        assert_eq!((s, m["id"].clone()), (200, json!("leipzig")), "{m}");
        // a refusal cites the rulebook's section; text that is no action is a bad request
        let r = api.act(&id, &t, "go").await;
        assert_error(&r, 422, "refused", None);
        assert!(
            r.1["error"]["case"].as_str().unwrap().starts_with("NB"),
            "{}",
            r.1
        );
        assert_error(
            &api.act(&id, &t, "charge!").await,
            400,
            "bad_request",
            Some("action"),
        );
        // the Allies pass: the die after the pass is rolled by the server
        let c = api.ok(&id, &t, "pass").await;
        let log = c["log"].as_array().unwrap();
        assert_eq!(log[0]["action"], "pass");
        assert_eq!(log[0]["events"][0]["case"], "NB Turn End");
        assert!(
            log.len() >= 2,
            "the die after the pass is in the change: {c}"
        );
        // random play through the API, then the state's log and the record agree
        let state = play_random(&api, &id, &t, 150, 11).await;
        let n = state["actions_recorded"].as_u64().unwrap() as usize;
        assert!(n > 50, "{n} actions");
        assert_eq!(state["log"].as_array().unwrap().len(), n);
        // a unit's moves
        let u = state["units"][0]["id"].as_str().unwrap().to_string();
        let (s, m) = api.get(&format!("/api/games/{id}/moves/{u}")).await;
        assert_eq!(s, 200, "{m}");
        assert!(m["destinations"].is_array(), "{m}");
        let (s, rec) = api.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(s, 200, "{rec}");
        assert!(rec["rules"]
            .as_str()
            .unwrap()
            .starts_with("napoleonic-battles/"));
        assert_eq!(verify_record(&rec), n);
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_under_the_activation_system() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        // a player the system does not have (Napoleon at War's search1) is refused
        assert_error(
            &api.post(
                "/api/games",
                None,
                json!({"scenario": "bon-first-day", "mode": "computer", "computer": "search1", "rules": RULES}),
            )
            .await,
            400,
            "bad_request",
            None,
        );
        // the computer (the system's random player) plays the Allies, who act first
        let (id, v) = api
            .create(json!({"scenario": "bon-first-day", "seed": 9, "mode": "computer", "computer": "random", "computer_side": "Allied", "rules": RULES}))
            .await;
        let t = v["seats"]["French"].as_str().unwrap().to_string();
        let mut played = 0;
        for _ in 0..60 {
            let (s, st) = api.done_get(&format!("/api/games/{id}"), Some(&t)).await;
            assert_eq!(s, 200, "{st}");
            assert_eq!(st["system"], RULES);
            if st["to_act"] == "over" {
                break;
            }
            assert_eq!(st["to_act"], "French", "the computer has played: {st}");
            let legal = st["legal"].as_array().unwrap();
            // pass when allowed, else the last legal action (a move, an end)
            let a = legal
                .iter()
                .find(|a| *a == "pass")
                .unwrap_or(&legal[legal.len() - 1])
                .as_str()
                .unwrap()
                .to_string();
            api.ok(&id, &t, &a).await;
            played += 1;
        }
        assert!(played > 0);
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_melee_is_previewed_with_its_shifts_before_the_die() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (id, v) = api
        .create(json!({"scenario": "bon-first-day", "seed": 3, "mode": "hotseat", "rules": RULES}))
        .await;
    let t = v["seats"]["both"].as_str().unwrap().to_string();
    // nothing to preview without an action; a refused action carries its case
    let (s, e) = api.get(&format!("/api/games/{id}/preview")).await;
    assert_eq!(s, 400, "{e}");
    assert_error(
        &api.get(&format!("/api/games/{id}/preview?action=go")).await,
        422,
        "refused",
        None,
    );
    assert_error(
        &api.get(&format!("/api/games/{id}/preview?action=charge%21"))
            .await,
        400,
        "bad_request",
        Some("action"),
    );
    // a legal action that is no melee: previewed without one
    let (s, p) = api
        .get(&format!("/api/games/{id}/preview?action=pass"))
        .await;
    assert_eq!((s, &p["melee"]), (200, &serde_json::Value::Null), "{p}");
    // random play (no passes, no march orders) to the first melee the rules allow
    let mut seed = 7u64;
    let mut state = api.state(&id).await;
    let melee = loop {
        let legal: Vec<String> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        assert!(state["to_act"] != "over", "no melee in a whole game");
        if let Some(m) = legal.iter().find(|a| a.starts_with("melee ")) {
            break m.clone();
        }
        let pool: Vec<&String> = legal
            .iter()
            .filter(|a| *a != "pass" && !a.starts_with("march "))
            .collect();
        let a = if pool.is_empty() {
            legal[common::pick(&mut seed, legal.len())].clone()
        } else {
            pool[common::pick(&mut seed, pool.len())].clone()
        };
        api.ok(&id, &t, &a).await;
        state = api.state(&id).await;
    };
    let n = state["actions_recorded"].clone();
    let hash = state["state_hash"].clone();
    let q = melee.replace(' ', "+");
    let (s, p) = api
        .get(&format!("/api/games/{id}/preview?action={q}"))
        .await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(p["action"], melee.as_str());
    let m = &p["melee"];
    assert!(m["attack"].is_string() && m["defence"].is_string(), "{m}");
    assert!(m["column"].is_string(), "{m}");
    assert!(m["shifts"].is_array(), "{m}");
    for sh in m["shifts"].as_array().unwrap() {
        assert!(sh["rule"].as_str().unwrap().starts_with("NB"), "{sh}");
        assert!(sh["by"].is_i64() && sh["why"].is_string(), "{sh}");
    }
    let sum: f64 = m["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["chance"].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9, "{m}");
    assert!(m["explain"].as_str().unwrap().contains(" against "), "{m}");
    // the preview took nothing and rolled nothing
    let after = api.state(&id).await;
    assert_eq!(after["actions_recorded"], n);
    assert_eq!(after["state_hash"], hash);
    // the command ranges the board shades: by leader, from the rules
    let ranges = after["overlays"]["range"].as_object().unwrap();
    assert!(!ranges.is_empty());
    for (leader, hexes) in ranges {
        let u = after["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == leader.as_str())
            .unwrap_or_else(|| panic!("{leader} is a leader of the view"));
        assert_eq!(u["type"], "leader");
        assert!(hexes.as_array().unwrap().contains(&u["hex"]), "{leader}");
    }
    srv.stop().await;
}
