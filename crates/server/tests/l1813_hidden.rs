//! Leipzig 1813's hidden units through the server (issue 15): in a spring scenario the Allied
//! counters are inverted (Reconnaissance). A game played online with a token per seat: what the
//! French seat reads through the routes (the state, a unit's moves, the log) and receives on its
//! WebSocket names no Allied counter the French may not examine, gives none of their strengths
//! or kinds (an inverted counter is a `hidden` entry with no id), and no Allied action's text;
//! the Allied seat sees its own counters.

mod common;

use common::{databases, start, Api};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: std::net::SocketAddr, id: &str, token: &str) -> Socket {
    let url = format!("ws://{addr}/api/games/{id}/ws?seat={token}");
    tokio_tungstenite::connect_async(url)
        .await
        .expect("connects")
        .0
}

/// Every message waiting on a socket (waits a little for the last ones).
async fn drain(ws: &mut Socket) -> Vec<String> {
    let mut out = Vec::new();
    while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_millis(25), ws.next()).await {
        out.push(m.into_text().expect("text").to_string());
    }
    out
}

/// Every word (run of letters and digits) of every string of a JSON value.
fn words(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            for w in s.split(|c: char| !c.is_ascii_alphanumeric()) {
                if !w.is_empty() {
                    out.insert(w.to_string());
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| words(x, out)),
        Value::Object(m) => m.values().for_each(|x| words(x, out)),
        _ => {}
    }
}

/// The Allied counters the French may not examine now, as the Allied seat's own view marks
/// them (`hidden_from`).
fn secret_ids(allied_view: &Value) -> BTreeSet<String> {
    allied_view["units"]
        .as_array()
        .expect("units")
        .iter()
        .filter(|u| u["hidden_from"] == "French")
        .filter_map(|u| u["id"].as_str().map(String::from))
        .collect()
}

/// Checks one thing the French seat received against the counters secret now.
fn check(what: &str, received: &Value, secret: &BTreeSet<String>) {
    let mut w = BTreeSet::new();
    words(received, &mut w);
    let named: Vec<&String> = secret.intersection(&w).collect();
    assert!(
        named.is_empty(),
        "{what}: the French seat is told of hidden Allied counters {named:?}: {received}"
    );
}

/// The Allied entries of a French view: each an examined counter (with an id that is not
/// secret) or an inverted one (no id, kind or strength: only where it stands).
fn check_units(view: &Value, secret: &BTreeSet<String>) -> (usize, usize) {
    let (mut open, mut inverted) = (0, 0);
    for u in view["units"].as_array().expect("units") {
        if u["side"] != "Allies" {
            continue;
        }
        if u["hidden"] == true {
            for k in [
                "id",
                "type",
                "kind",
                "strength",
                "designation",
                "name",
                "nation",
            ] {
                assert!(u.get(k).is_none(), "an inverted counter carries `{k}`: {u}");
            }
            inverted += 1;
        } else {
            let id = u["id"].as_str().expect("an examined counter has its id");
            assert!(!secret.contains(id), "{id} is listed to the French: {u}");
            open += 1;
        }
    }
    (open, inverted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_french_seat_never_receives_a_hidden_allied_counter() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (id, v) = api
        .create(json!({"scenario": "leipzig1813-1", "mode": "online"}))
        .await;
    let french = v["seats"]["French"]
        .as_str()
        .expect("a French token")
        .to_string();
    let allies = v["seats"]["Allies"]
        .as_str()
        .expect("an Allied token")
        .to_string();
    let mut ws_french = connect(srv.addr(), &id, &french).await;
    let mut ws_allies = connect(srv.addr(), &id, &allies).await;
    let mut rng = 0x5eed_u64;
    let (mut inverted_seen, mut checked, mut moved) = (0, 0, 0);
    let mut logged = 0u64;
    for step in 0..500 {
        let (s, fv) = api
            .done_get(&format!("/api/games/{id}"), Some(&french))
            .await;
        assert_eq!(s, 200, "{fv}");
        let (s, av) = api
            .done_get(&format!("/api/games/{id}"), Some(&allies))
            .await;
        assert_eq!(s, 200, "{av}");
        let secret = secret_ids(&av);
        // the state, its log apart: a log entry is checked once, when it is new (an Allied
        // counter revealed then and inverted again since was named when the French saw it)
        let mut state = fv.clone();
        let log = state
            .as_object_mut()
            .and_then(|m| m.remove("log"))
            .unwrap_or_default();
        check("the state", &state, &secret);
        for e in log.as_array().into_iter().flatten() {
            if e["n"].as_u64().unwrap_or(0) > logged {
                check("a new log entry", e, &secret);
                logged = e["n"].as_u64().unwrap_or(0);
            }
        }
        let (_, inverted) = check_units(&fv, &secret);
        inverted_seen += inverted;
        checked += secret.len();
        // the Allied seat sees every counter of its own
        assert!(
            av["units"]
                .as_array()
                .unwrap()
                .iter()
                .all(|u| u["side"] != "Allies" || u["id"].is_string()),
            "the Allies see their own counters"
        );
        // the moves of a hidden counter are not the French seat's to ask for
        if let Some(one) = secret.iter().next() {
            let (s, q) = api
                .done_get(&format!("/api/games/{id}/moves/{one}"), Some(&french))
                .await;
            // (the answer names the counter only as the French asked: "no unit 'A1'")
            assert_eq!(s, 404, "the moves of {one}: {q}");
        }
        for m in drain(&mut ws_french).await {
            // (a ping is no JSON: its text is checked as it is)
            let m: Value = serde_json::from_str(&m).unwrap_or(Value::String(m));
            check("a WebSocket message", &m, &secret);
        }
        drain(&mut ws_allies).await;
        if fv["to_act"] == "over" {
            break;
        }
        // the seat to act plays a random legal action
        let (tok, view) = match fv["to_act"].as_str() {
            Some("French") => (&french, &fv),
            Some("Allies") => {
                // the French seat is not shown the Allied choices
                assert_eq!(
                    fv["legal"],
                    json!([]),
                    "the Allied legal actions reach the French"
                );
                (&allies, &av)
            }
            other => panic!("at rest the game waits for a seat, not {other:?} (step {step})"),
        };
        let legal = view["legal"].as_array().expect("legal actions");
        assert!(!legal.is_empty(), "the seat to act has legal actions");
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = usize::try_from((rng >> 33) % legal.len() as u64).unwrap_or(0);
        let a = legal[pick].as_str().unwrap().to_string();
        if a.starts_with("move") {
            moved += 1;
        }
        let (s, reply) = api
            .post(
                &format!("/api/games/{id}/actions"),
                Some(tok),
                json!({"action": a}),
            )
            .await;
        assert_eq!(s, 200, "{a}: {reply}");
        if tok == &french {
            // the reply's change, after the Allies' dice and so on
            let (_, av) = api
                .done_get(&format!("/api/games/{id}"), Some(&allies))
                .await;
            check("the reply to a French action", &reply, &secret_ids(&av));
        }
    }
    // the log as the French seat reads it: no Allied action's text
    let (_, fv) = api
        .done_get(&format!("/api/games/{id}"), Some(&french))
        .await;
    if fv["to_act"] != "over" {
        for e in fv["log"].as_array().unwrap() {
            if e["side"] == "Allies" {
                assert_eq!(e["action"], "", "an Allied action's text: {e}");
            }
        }
    }
    assert!(checked > 100, "only {checked} hidden counters were checked");
    assert!(
        inverted_seen > 0,
        "the French never saw an inverted counter"
    );
    assert!(moved > 0, "nobody moved");
    srv.stop().await;
}

/// The state of a game as a seat reads it.
async fn seat_state(api: &Api, id: &str, token: &str) -> Value {
    let (s, v) = api.done_get(&format!("/api/games/{id}"), Some(token)).await;
    assert_eq!(s, 200, "{v}");
    v
}

/// The seat's step finished by the computer (`POST /api/games/{id}/finish`).
async fn finish(api: &Api, id: &str, token: &str) -> (u16, Value) {
    api.post(&format!("/api/games/{id}/finish"), Some(token), json!({}))
        .await
}

/// "Let the computer finish this step for me": the Allied set-up of a spring game finished by
/// the system's heuristic for the Allied token (only that seat's own token may ask), then the
/// French one; the French step is not the Allies' to finish.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_finishes_a_seats_set_up_for_its_own_token_only() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (id, v) = api
        .create(json!({"scenario": "leipzig1813-1", "mode": "online"}))
        .await;
    let french = v["seats"]["French"].as_str().unwrap().to_string();
    let allies = v["seats"]["Allies"].as_str().unwrap().to_string();
    let av = seat_state(&api, &id, &allies).await;
    assert_eq!(
        (av["step"].as_str(), av["to_act"].as_str()),
        (Some("setup"), Some("Allies"))
    );
    // the French token may not finish the Allies' step; no token may finish anything
    let r = finish(&api, &id, &french).await;
    assert_eq!(r.0, 409, "{}", r.1);
    let (s, _) = api
        .post(&format!("/api/games/{id}/finish"), None, json!({}))
        .await;
    assert_eq!(s, 401);
    let r = api
        .post(
            &format!("/api/games/{id}/finish"),
            Some(&allies),
            json!({"player": "nobody"}),
        )
        .await;
    assert_eq!(r.0, 400, "{}", r.1);
    // the Allied set-up, finished by the computer: every placement the Allies' own
    let (s, r) = finish(&api, &id, &allies).await;
    assert_eq!(s, 200, "{r}");
    let accepted = r["accepted"].as_array().unwrap();
    assert!(accepted.len() > 10, "only {} actions: {r}", accepted.len());
    assert!(accepted
        .iter()
        .any(|a| a.as_str().unwrap().starts_with("place ")));
    let av = seat_state(&api, &id, &allies).await;
    assert_eq!(
        av["to_act"], "French",
        "the Allied step is over: {}",
        av["step"]
    );
    assert!(
        av["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["side"] != "Allies" || u["status"] != "waiting" || u["hex"].is_null()),
        "the Allies' counters are placed"
    );
    // the French reply names none of the Allied placements
    let fv = seat_state(&api, &id, &french).await;
    for e in fv["log"].as_array().unwrap() {
        if e["side"] == "Allies" {
            assert_eq!(e["action"], "", "an Allied placement's text: {e}");
        }
    }
    // now the French set-up, by the French token
    let r = finish(&api, &id, &allies).await;
    assert_eq!(r.0, 409, "{}", r.1);
    let (s, r) = finish(&api, &id, &french).await;
    assert_eq!(s, 200, "{r}");
    let fv = seat_state(&api, &id, &french).await;
    assert_ne!(fv["step"], "setup", "the French set-up is over");
    srv.stop().await;
}

/// A past hidden action stays hidden (issue 15): in the campaign scenario the Allied counters
/// are inverted through turn 15 (Reconnaissance). When the rule ends the French seat may see
/// what the Allies do from then on, but not the text of what they did while it was in force
/// (their set-up's placements, their moves): the log records who could read each action when
/// it was made, the record stays closed to the French until the game is over, and all of it
/// holds when the server reloads the game from the store (the replay that loads it
/// recomputes who could read what).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_hidden_when_made_stays_hidden_when_reconnaissance_ends() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (id, v) = api
        .create(json!({"scenario": "leipzig1813-8", "mode": "online"}))
        .await;
    let french = v["seats"]["French"].as_str().unwrap().to_string();
    let allies = v["seats"]["Allies"].as_str().unwrap().to_string();
    // the set-ups, by the computer
    for tok in [&allies, &french] {
        let (s, r) = finish(&api, &id, tok).await;
        assert_eq!(s, 200, "{r}");
    }
    // then every seat ends its steps (the first other legal action where it may not), until
    // reconnaissance ends and the Allies have acted a little in the open
    let mut open_allied = 0;
    for _ in 0..3000 {
        let fv = seat_state(&api, &id, &french).await;
        assert_ne!(
            fv["to_act"], "over",
            "the game ended before reconnaissance did"
        );
        let hidden = !fv["hidden"].is_null();
        let tok = match fv["to_act"].as_str() {
            Some("French") => &french,
            Some("Allies") => &allies,
            other => panic!("the game waits for {other:?}"),
        };
        if !hidden && tok == &allies {
            if open_allied >= 3 {
                break;
            }
            open_allied += 1;
        }
        let view = seat_state(&api, &id, tok).await;
        let legal: Vec<&str> = view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let a = if legal.contains(&"end") {
            "end"
        } else {
            legal[0]
        };
        let (s, r) = api.act(&id, tok, a).await;
        assert_eq!(s, 200, "{a}: {r}");
    }
    assert!(open_allied >= 3, "reconnaissance never ended");
    let check = |fv: &Value, av: &Value| {
        assert!(fv["hidden"].is_null(), "reconnaissance is over");
        let flog = fv["log"].as_array().unwrap();
        let alog = av["log"].as_array().unwrap();
        assert_eq!(flog.len(), alog.len());
        let (mut hidden_then, mut open_now) = (0, 0);
        for (f, a) in flog.iter().zip(alog) {
            if f["side"] != "Allies" {
                assert_eq!(f["action"], a["action"]);
                continue;
            }
            assert_ne!(a["action"], "", "the Allies read their own actions");
            let turn_of_action = f["action"] == "";
            if turn_of_action {
                hidden_then += 1;
            } else {
                assert_eq!(f["action"], a["action"]);
                open_now += 1;
            }
        }
        // the Allied set-up's placements (made hidden) are still hidden; the last actions
        // (made in the open) are read
        assert!(hidden_then > 50, "{hidden_then} hidden Allied actions");
        assert!(open_now >= 3, "{open_now} open Allied actions");
        let last_allied = flog.iter().rev().find(|e| e["side"] == "Allies").unwrap();
        assert_ne!(
            last_allied["action"], "",
            "an action made in the open is read"
        );
        let first_allied = flog.iter().find(|e| e["side"] == "Allies").unwrap();
        assert_eq!(
            first_allied["action"], "",
            "a set-up placement stays hidden"
        );
    };
    let fv = seat_state(&api, &id, &french).await;
    let av = seat_state(&api, &id, &allies).await;
    check(&fv, &av);
    // the record (every action's text) is not the French seat's before the game is over
    let (s, r) = api
        .done_get(&format!("/api/games/{id}/record"), Some(&french))
        .await;
    assert_eq!(s, 403, "{r}");
    // a server started anew over the same store replays the game: the same
    srv.stop().await;
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let fv2 = seat_state(&api, &id, &french).await;
    let av2 = seat_state(&api, &id, &allies).await;
    check(&fv2, &av2);
    assert_eq!(fv2["log"], fv["log"], "the French log survives the reload");
    srv.stop().await;
}
