//! A second rules system served with no change to the server: Scouts (`crates/toy`), whose
//! units are hidden from the other seat. A toy game is played to its end through the API, and
//! no route or WebSocket message gives a seat the other seat's hidden scouts.

mod common;

use common::{assert_error, databases, start_with, Api};
use futures_util::StreamExt;
use serde_json::json;
use std::time::Duration;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: std::net::SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let q = token.map(|t| format!("?seat={t}")).unwrap_or_default();
    let url = format!("ws://{addr}/api/games/{id}/ws{q}");
    tokio_tungstenite::connect_async(url)
        .await
        .expect("connects")
        .0
}

/// Every message waiting on a socket (waits a little for the last ones).
async fn drain(ws: &mut Socket) -> Vec<String> {
    let mut out = Vec::new();
    while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_millis(300), ws.next()).await {
        out.push(m.into_text().expect("text").to_string());
    }
    out
}

/// Plays a hot-seat game to its end by the first legal action of each state view; returns the
/// number of actions played.
async fn play_to_the_end(api: &Api, id: &str, token: &str) -> usize {
    for played in 0..200 {
        let (s, state) = api.done_get(&format!("/api/games/{id}"), Some(token)).await;
        assert_eq!(s, 200, "{state}");
        if state["to_act"] == "over" {
            return played;
        }
        let a = state["legal"][0]
            .as_str()
            .expect("a legal action")
            .to_string();
        api.ok(id, token, &a).await;
    }
    panic!("the game did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_system_plays_to_its_end_through_the_api() {
    for db in databases() {
        let srv = start_with(&db, toy::library(), 10).await;
        let api = Api::new(srv.addr());
        let (_, list) = api.get("/api/scenarios").await;
        let toy = list
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == "toy-skirmish")
            .cloned()
            .expect("the toy scenario is listed");
        assert_eq!(toy["system"], "toy");
        assert_eq!(toy["sides"], json!(["Red", "Blue"]));
        assert!(list
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == "bon-first-day" && s["system"] == "naw"));
        let (s, p) = api.get("/api/players?system=toy").await;
        assert_eq!(s, 200, "{p}");
        assert_eq!(p["players"], json!(["first"]));
        assert_eq!(p["default"], "first");
        assert_error(
            &api.get("/api/rules?system=toy").await,
            404,
            "not_found",
            None,
        );
        // a scenario under a system that does not declare its components
        let (s, v) = api
            .post(
                "/api/games",
                None,
                json!({"scenario": "toy-skirmish", "rules": "naw"}),
            )
            .await;
        assert_eq!(s, 400, "{v}");
        let (id, v) = api
            .create(
                json!({"scenario": "toy-skirmish", "seed": 3, "mode": "hotseat", "rules": "toy"}),
            )
            .await;
        let t = v["seats"]["both"].as_str().unwrap().to_string();
        let (s, m) = api.get(&format!("/api/games/{id}/map")).await;
        assert_eq!((s, m["id"].clone()), (200, json!("track")), "{m}");
        let n = play_to_the_end(&api, &id, &t).await;
        assert!(n > 0);
        let state = api.state(&id).await;
        assert_eq!(state["system"], "toy");
        assert_eq!(state["to_act"], "over");
        assert_eq!(
            state["log"].as_array().unwrap().len(),
            state["actions_recorded"].as_u64().unwrap() as usize
        );
        assert!(state["log"][0]["events"][0]["kind"].is_string(), "{state}");
        // the record is everyone's at the end, and it replays
        let (s, rec) = api.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(s, 200, "{rec}");
        let r: engine::Record = serde_json::from_value(rec).unwrap();
        assert_eq!(r.rules, toy::RULES_VERSION);
        toy::library().resume(r).expect("the record replays");
        // against the computer
        let (id, v) = api
            .create(json!({"scenario": "toy-skirmish", "seed": 4, "mode": "computer", "computer_side": "Blue"}))
            .await;
        let t = v["seats"]["Red"].as_str().unwrap().to_string();
        let mut over = false;
        for _ in 0..100 {
            let (_, state) = api.done_get(&format!("/api/games/{id}"), Some(&t)).await;
            if state["to_act"] == "over" {
                over = true;
                break;
            }
            assert_eq!(state["to_act"], "Red", "{state}");
            let a = state["legal"][0].as_str().unwrap().to_string();
            let c = api.ok(&id, &t, &a).await;
            let s = c.to_string();
            // at the end everything is shown
            if c["to_act"] != "over" {
                assert!(
                    !s.contains("BLUE_SCOUT"),
                    "Red sees the computer's scouts: {s}"
                );
            }
        }
        assert!(over, "the game against the computer ends");
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_seat_sees_the_other_seats_hidden_units() {
    for db in databases() {
        let srv = start_with(&db, toy::library(), 10).await;
        let api = Api::new(srv.addr());
        let (id, v) = api
            .create(json!({"scenario": "toy-skirmish", "mode": "online"}))
            .await;
        let red = v["seats"]["Red"].as_str().unwrap().to_string();
        let blue = v["seats"]["Blue"].as_str().unwrap().to_string();
        let mut ws_red = connect(srv.addr(), &id, Some(&red)).await;
        let mut ws_blue = connect(srv.addr(), &id, Some(&blue)).await;
        let mut ws_none = connect(srv.addr(), &id, None).await;
        // a wrong token is refused
        let bad = format!("ws://{}/api/games/{id}/ws?seat=00", srv.addr());
        assert!(tokio_tungstenite::connect_async(bad).await.is_err());
        // what each seat received, all of it
        let mut seen: Vec<(&str, String)> = Vec::new();
        let mut n = 0;
        let mut over = false;
        for _ in 0..200 {
            let (_, st) = api.done_get(&format!("/api/games/{id}"), Some(&red)).await;
            over = st["to_act"] == "over";
            for (who, tok) in [
                ("red", Some(red.as_str())),
                ("blue", Some(blue.as_str())),
                ("none", None),
            ] {
                let (s, st) = api.done_get(&format!("/api/games/{id}"), tok).await;
                assert_eq!(s, 200, "{st}");
                seen.push((who, st.to_string()));
                let (_, q) = api
                    .done_get(&format!("/api/games/{id}/moves/RED_SCOUT_ONE"), tok)
                    .await;
                seen.push((who, q.to_string()));
                let (s, r) = api.done_get(&format!("/api/games/{id}/record"), tok).await;
                if over {
                    // at the end the record is everyone's
                    assert_eq!(s, 200, "{who}: {r}");
                } else {
                    assert_eq!(
                        s, 403,
                        "{who}: the record is withheld while the game goes on: {r}"
                    );
                    seen.push((who, r.to_string()));
                }
                let (_, rp) = api
                    .done_get(&format!("/api/games/{id}/replay/{n}"), tok)
                    .await;
                seen.push((who, rp.to_string()));
            }
            if over {
                break;
            }
            let (who, tok, st) = match st["to_act"].as_str() {
                Some("Red") => ("red", &red, st),
                Some("Blue") => {
                    let (_, st) = api.done_get(&format!("/api/games/{id}"), Some(&blue)).await;
                    ("blue", &blue, st)
                }
                other => panic!("at rest the game waits for a seat, not {other:?}"),
            };
            let a = st["legal"][0]
                .as_str()
                .expect("the acting seat sees its legal actions")
                .to_string();
            let (s, reply) = api
                .post(
                    &format!("/api/games/{id}/actions"),
                    Some(tok),
                    json!({"action": a, "legal": true}),
                )
                .await;
            assert_eq!(s, 200, "{reply}");
            n = reply["change"]["actions_recorded"].as_u64().unwrap() as usize;
            seen.push((who, reply.to_string()));
        }
        assert!(over, "the game ends");
        for m in drain(&mut ws_red).await {
            seen.push(("red", m));
        }
        for m in drain(&mut ws_blue).await {
            seen.push(("blue", m));
        }
        let none_msgs = drain(&mut ws_none).await;
        assert!(none_msgs.len() > 2, "the spectator watched: {none_msgs:?}");
        for m in none_msgs {
            seen.push(("none", m));
        }
        // before the end no one sees another's scouts; after it, everyone sees everything
        let (_, end) = api.done_get(&format!("/api/games/{id}"), None).await;
        assert!(end.to_string().contains("RED_SCOUT_ONE"), "{end}");
        let mut checked = 0;
        for (who, text) in &seen {
            if text.contains("\"to_act\":\"over\"") || text.contains("\"T.4\"") {
                continue;
            }
            checked += 1;
            if *who != "red" {
                assert!(
                    !text.contains("RED_SCOUT"),
                    "{who} sees a red scout: {text}"
                );
            }
            if *who != "blue" {
                assert!(
                    !text.contains("BLUE_SCOUT"),
                    "{who} sees a blue scout: {text}"
                );
            }
        }
        assert!(checked > 20, "only {checked} answers checked");
        // the seats' own views do show their own scouts
        assert!(seen
            .iter()
            .any(|(w, t)| *w == "red" && t.contains("RED_SCOUT_ONE")));
        assert!(seen
            .iter()
            .any(|(w, t)| *w == "blue" && t.contains("BLUE_SCOUT_ONE")));
        srv.stop().await;
    }
}
