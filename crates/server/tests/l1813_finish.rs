//! "Let the computer finish this step for me" (`POST /api/games/{id}/finish`) records what the
//! computer says of its choices as the computer opponent's moves do: an event of case
//! `computer` first in the log entry of the action it explains, and the record's note on that
//! action (shown by `grognard replay` and the board's log). Played on Leipzig 1813, whose
//! computer players explain each step's plan.

mod common;

use common::{databases, start, Api};
use serde_json::{json, Value};

/// The seat's view of the game.
async fn seat_state(api: &Api, id: &str, token: &str) -> Value {
    let (s, v) = api.done_get(&format!("/api/games/{id}"), Some(token)).await;
    assert_eq!(s, 200, "{v}");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_finished_by_the_computer_records_its_explanations() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (id, v) = api
        .create(json!({"scenario": "leipzig1813-5", "mode": "online"}))
        .await;
    let allies = v["seats"]["Allies"].as_str().unwrap().to_string();
    // the Allied set-up, finished by the computer
    let (s, r) = api
        .post(&format!("/api/games/{id}/finish"), Some(&allies), json!({}))
        .await;
    assert_eq!(s, 200, "{r}");
    let accepted = r["accepted"].as_array().unwrap();
    assert!(accepted.len() > 1, "{r}");
    // the answer's events carry what the computer said, naming the seat and its player
    let said: Vec<&str> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["case"] == "computer")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(!said.is_empty(), "no explanation among the events: {r}");
    assert!(
        said.iter().all(|t| t.starts_with("Allies (heuristic) ")),
        "{said:?}"
    );
    // the seat's log keeps them, each first in the entry of the action it explains, and not on
    // every action (the plan is said once a step)
    let st = seat_state(&api, &id, &allies).await;
    let mine: Vec<&Value> = st["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["side"] == "Allies")
        .collect();
    let explained = mine
        .iter()
        .filter(|e| e["events"][0]["case"] == "computer")
        .count();
    assert!(
        explained > 0 && explained < mine.len(),
        "{explained} of {}: {}",
        mine.len(),
        st["log"]
    );
    // the exported record keeps them as notes, one for each explained action
    let (s, rec) = api.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200, "{rec}");
    let notes: Vec<&str> = rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["note"].as_str())
        .collect();
    assert_eq!(notes.len(), explained, "{rec}");
    assert!(notes.iter().all(|n| !n.is_empty()), "{notes:?}");
}
