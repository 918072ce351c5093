//! The API of `docs/api.md` end to end, over a real listener on 127.0.0.1, against SQLite
//! (and PostgreSQL when `GROGNARD_TEST_POSTGRES` is set).

mod common;

use common::{assert_error, databases, start, Api};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A POST written whole on a connection of its own, then its answer read to the end.
async fn raw_answer(addr: std::net::SocketAddr, path: &str, token: &str, body: &str) -> String {
    let mut tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Authorization: Bearer {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tcp.write_all(head.as_bytes())
        .await
        .expect("the head is sent");
    // the server may answer and close before it has read the body: what is left unsent does
    // not matter
    let _ = tcp.write_all(body.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tcp.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenarios_rules_odds_and_the_board() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (s, v) = api.get("/api/scenarios").await;
    assert_eq!(s, 200);
    let list = v.as_array().unwrap();
    // the three Battle of Nations scenarios, then Leipzig 1813's eight and the hex-miniatures
    // rules' Möckern
    assert_eq!(list.len(), 12);
    assert_eq!(list[0]["id"], "bon-first-day");
    assert_eq!(list[0]["sides"], json!(["French", "Allied"]));
    assert!(list[0]["description"].as_str().unwrap().len() > 10);

    let (s, v) = api.get("/api/rules").await;
    assert_eq!(s, 200);
    let rules = v.as_array().unwrap();
    assert!(rules.len() > 100, "{} cases", rules.len());
    assert!(rules.iter().any(|c| c["case"] == "5.13"));
    assert!(rules.iter().any(|c| c["case"] == "CRT"));

    let (s, v) = api.get("/api/odds?attack=13&defence=4&doubled=false").await;
    assert_eq!(s, 200);
    assert_eq!(v["column"], "3-1");
    assert!((v["probabilities"]["Dr"].as_f64().unwrap() - 5.0 / 6.0).abs() < 1e-9);
    assert_eq!(v["probabilities"]["Ae"], 0.0);
    let (_, v) = api.get("/api/odds?attack=13&defence=4&doubled=true").await;
    assert_eq!(v["column"], "1-1");
    assert_error(
        &api.get("/api/odds?attack=x&defence=4").await,
        400,
        "bad_request",
        None,
    );
    assert_error(
        &api.get("/api/odds?defence=4").await,
        400,
        "bad_request",
        None,
    );
    assert_error(
        &api.get("/api/odds?attack=1&defence=4294967295&doubled=true")
            .await,
        400,
        "bad_request",
        None,
    );

    // the board is served at /
    let r = api.http.get(format!("{}/", api.base)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    // unknown API paths and methods answer JSON errors
    assert_error(&api.get("/api/nothing").await, 404, "not_found", None);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_each_mode() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());

        // hot-seat: one token for both sides
        let (id, v) = api
            .create(json!({"scenario": "bon-first-day", "seed": 7, "mode": "hotseat"}))
            .await;
        assert!(id.starts_with("g_"));
        assert_eq!(v["seats"].as_object().unwrap().len(), 1);
        let t = v["seats"]["both"].as_str().unwrap();
        assert_eq!(t.len(), 32);
        assert_eq!(
            v["links"]["both"],
            format!("/#game={id}&seat={t}&side=both")
        );
        let st = api.state(&id).await;
        assert_eq!(st["id"], id.as_str());
        assert_eq!(st["to_act"], "French");
        assert_eq!(st["step"], "declare");
        assert_eq!(st["legal"], json!(["end"]));
        assert_eq!(st["actions_recorded"], 0);
        assert_eq!(st["night_turns"], json!([6, 12, 18]));
        assert!(st["outcome"].is_null());
        assert!(st["setup_events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["case"] == "14.62"));
        let waiting = st["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["status"] == "waiting")
            .unwrap();
        assert!(waiting["arrival"]["turn"].as_u64().is_some());
        // the first player acts for both sides
        api.ok(&id, t, "end").await;
        let c2 = api.ok(&id, t, "move PR.9 2416").await;
        assert_eq!(c2["actions_recorded"], 2);
        assert_eq!(c2["base"], 1);
        // the change lists only what changed: the unit that moved, the new log entry
        assert_eq!(c2["units"].as_array().unwrap().len(), 1, "{c2}");
        assert_eq!(c2["units"][0]["id"], "PR.9");
        assert_eq!(c2["units"][0]["hex"], "2416");
        assert_eq!(c2["log"].as_array().unwrap().len(), 1);
        assert!(c2.get("legal").is_none(), "legal only when asked");
        let s2 = api.state(&id).await;
        assert_eq!(s2["actions_recorded"], 2);
        assert_eq!(s2["log"][1]["side"], "Allied");
        assert_eq!(s2["log"][1]["action"], "move PR.9 2416");
        assert_eq!(s2["state_hash"], c2["state_hash"]);

        // the map of the game
        let (s, m) = api.get(&format!("/api/games/{id}/map")).await;
        assert_eq!(s, 200);
        let h = m["height"].as_u64().unwrap() as usize;
        assert_eq!(
            m["terrain"].as_array().unwrap().len(),
            m["width"].as_u64().unwrap() as usize
        );
        assert_eq!(m["terrain"][0].as_array().unwrap().len(), h);
        assert!(m["hexsides"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["features"].as_array().unwrap().contains(&json!("road"))));
        assert!(!m["places"].as_array().unwrap().is_empty());

        // against the computer, which plays the first side and so acts at once
        let (cid, v) = api
            .create(
                json!({"scenario": "bon-first-day", "seed": 3, "mode": "computer",
                           "computer_side": "French", "computer": "heuristic"}),
            )
            .await;
        assert_eq!(v["seats"].as_object().unwrap().len(), 1);
        let ct = v["seats"]["Allied"].as_str().unwrap().to_string();
        let st = api.state(&cid).await;
        assert_eq!(st["to_act"], "Allied");
        assert!(st["actions_recorded"].as_u64().unwrap() >= 1);
        assert_eq!(st["log"][0]["side"], "French");
        // the human's own move is taken back as in any game
        api.ok(&cid, &ct, "move PR.9 2416").await;
        let (s, v) = api
            .post(&format!("/api/games/{cid}/undo"), Some(&ct), json!({}))
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["undone"], "move PR.9 2416");
        assert!(v.get("also_undone").is_none(), "{v}");
        // the human ends his movement and declarations; the computer plays its turn, the dice
        // are rolled, and the reply carries all of it with the computer's explanations
        let (s, v) = api.act(&cid, &ct, "end").await;
        assert_eq!(s, 200, "{v}");
        let (s, v) = api.act(&cid, &ct, "end").await;
        assert_eq!(s, 200, "{v}");
        let accepted = v["accepted"].as_array().unwrap();
        assert!(accepted.len() > 1, "{v}");
        assert!(v["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["case"] == "computer"));
        let to_act = v["change"]["to_act"].as_str().unwrap();
        // the computer's explanations stay in the log of the state view: its plan said once a
        // phase (with the phase's first action), not repeated by every action carrying it out
        let st = api.state(&cid).await;
        let french: Vec<&Value> = st["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["side"] == "French")
            .collect();
        let explained = french
            .iter()
            .filter(|e| e["events"][0]["case"] == "computer")
            .count();
        assert!(explained > 0 && explained < french.len(), "{}", st["log"]);
        let plans = french
            .iter()
            .filter(|e| {
                e["events"][0]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains(": plan: "))
            })
            .count();
        assert!(plans <= 1, "the plan said {plans} times: {}", st["log"]);
        // the exported record keeps what the computer said and names the computer
        let (s, rec) = api.get(&format!("/api/games/{cid}/record")).await;
        assert_eq!(s, 200, "{rec}");
        let notes = rec["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["note"].is_string())
            .count();
        assert_eq!(notes, explained, "{rec}");
        assert_eq!(rec["players"]["French"], "heuristic", "{rec}");
        assert!(to_act == "Allied" || to_act == "over", "{to_act}");
        // taking back now reaches past the computer's actions to the human's, all or nothing
        let (s, u) = api
            .post(&format!("/api/games/{cid}/undo"), Some(&ct), json!({}))
            .await;
        if s == 200 {
            assert_eq!(u["undone"], "end");
            assert!(!u["also_undone"].as_array().unwrap().is_empty(), "{u}");
        } else {
            // a die rolled since (5.14), or the human's player-turn begun (5.17)
            assert_error(&(s, u.clone()), 422, "refused", None);
            let case = u["error"]["case"].as_str().unwrap_or_default();
            assert!(case == "5.14" || case == "5.17", "{u}");
        }
        // the computer's side has no token
        let (s, _) = api
            .post(
                "/api/games",
                None,
                json!({"scenario": "bon-first-day", "mode": "computer", "computer": "nobody"}),
            )
            .await;
        assert_eq!(s, 400);

        // online: a token for each side, each acting only for its own
        let (oid, v) = api
            .create(json!({"scenario": "bon-first-day", "mode": "online"}))
            .await;
        let fr = v["seats"]["French"].as_str().unwrap().to_string();
        let al = v["seats"]["Allied"].as_str().unwrap().to_string();
        assert_ne!(fr, al);
        assert!(v["links"]["Allied"].as_str().unwrap().contains(&al));
        assert_error(&api.act(&oid, &al, "end").await, 409, "conflict", None);
        api.ok(&oid, &fr, "end").await;
        assert_error(
            &api.act(&oid, &fr, "move PR.9 2416").await,
            409,
            "conflict",
            None,
        );
        api.ok(&oid, &al, "move PR.9 2416").await;
        // only the side that acted takes back
        assert_error(
            &api.post(&format!("/api/games/{oid}/undo"), Some(&fr), json!({}))
                .await,
            409,
            "conflict",
            None,
        );
        // online, a take-back needs the opponent's consent: the undo asks (202)
        let (s, v) = api
            .post(&format!("/api/games/{oid}/undo"), Some(&al), json!({}))
            .await;
        assert_eq!(s, 202, "{v}");
        assert_eq!(v["requested"]["by"], "Allied");
        let (s, v) = api
            .post(
                &format!("/api/games/{oid}/takeback"),
                Some(&fr),
                json!({"accept": true}),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["undone"], "move PR.9 2416");
        assert_eq!(v["change"]["actions_recorded"], 1);

        // a scenario that does not exist, a mode that does not
        assert_error(
            &api.post("/api/games", None, json!({"scenario": "waterloo"}))
                .await,
            404,
            "not_found",
            None,
        );
        assert_error(
            &api.post(
                "/api/games",
                None,
                json!({"scenario": "bon-first-day", "mode": "solitaire"}),
            )
            .await,
            400,
            "bad_request",
            None,
        );
        // a scenario by path is not offered over the network
        assert_error(
            &api.post("/api/games", None, json!({"scenario": "/etc/passwd"}))
                .await,
            404,
            "not_found",
            None,
        );
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_refusals_and_errors() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, t) = api.hotseat().await;
        let path = format!("/api/games/{id}/actions");

        // legal, with expect
        let (s, v) = api
            .post(&path, Some(&t), json!({"action": "end", "expect": 0}))
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["accepted"], json!(["end"]));
        assert_eq!(v["change"]["to_act"], "Allied");

        // refused by the rules: 422 with the case, and nothing changes
        let hash = v["change"]["state_hash"].clone();
        assert_error(
            &api.act(&id, &t, "move PR.10 2514").await,
            422,
            "refused",
            Some("5.32"),
        );
        assert_error(
            &api.act(&id, &t, "move PR.10 2310").await,
            422,
            "refused",
            Some("5.15"),
        );
        assert_error(
            &api.act(&id, &t, "move FR.4 2317").await,
            422,
            "refused",
            Some("5.11"),
        );
        // not an action at all: 400 with case "action"
        assert_error(
            &api.act(&id, &t, "fly PR.9 2416").await,
            400,
            "bad_request",
            Some("action"),
        );
        assert_error(
            &api.act(&id, &t, "move XX.1 2416").await,
            400,
            "bad_request",
            Some("action"),
        );
        assert_error(
            &api.act(&id, &t, "").await,
            400,
            "bad_request",
            Some("action"),
        );
        assert_eq!(api.state(&id).await["state_hash"], hash);

        // tokens
        assert_error(
            &api.post(&path, None, json!({"action": "move PR.9 2416"}))
                .await,
            401,
            "unauthorized",
            None,
        );
        assert_error(
            &api.post(
                &path,
                Some("0123456789abcdef0123456789abcdef"),
                json!({"action": "end"}),
            )
            .await,
            401,
            "unauthorized",
            None,
        );
        let (s, _) = api
            .http
            .post(format!("{}{path}", api.base))
            .header("content-type", "application/json")
            .header("authorization", "Basic abc")
            .body(json!({"action": "end"}).to_string())
            .send()
            .await
            .map(|r| (r.status().as_u16(), ()))
            .unwrap();
        assert_eq!(s, 401);
        // another game's token is no token here
        let (_, t2) = api.hotseat().await;
        assert_error(&api.act(&id, &t2, "end").await, 401, "unauthorized", None);

        // stale expect: someone acted first
        assert_error(
            &api.post(
                &path,
                Some(&t),
                json!({"action": "move PR.9 2416", "expect": 0}),
            )
            .await,
            409,
            "conflict",
            None,
        );

        // malformed bodies
        assert_error(
            &api.post_raw(&path, Some(&t), "{\"action\":".into()).await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.post_raw(&path, Some(&t), "[1,2]".into()).await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.post(&path, Some(&t), json!({"act": "end"})).await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.post(&path, Some(&t), json!({"action": 7})).await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.post(&path, Some(&t), json!({"action": "end", "expect": -1}))
                .await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.post_raw(&path, Some(&t), String::new()).await,
            400,
            "bad_request",
            None,
        );
        // a huge body: refused before it is read (sent whole first, then the answer read, so
        // that the server's closing the connection on the unread body cannot cut the answer
        // off mid-request, as a client still writing may see)
        let huge = format!("{{\"action\": \"{}\"}}", "a".repeat(100_000));
        let answer = raw_answer(srv.addr(), &path, &t, &huge).await;
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer:.200}");
        assert!(answer.contains("\"too_large\""), "{answer:.400}");
        // an over-long action
        let long = "move ".to_string() + &"x".repeat(1000);
        assert_error(&api.act(&id, &t, &long).await, 400, "bad_request", None);

        // unknown games and units
        assert_error(
            &api.get("/api/games/g_0123456789").await,
            404,
            "not_found",
            None,
        );
        assert_error(
            &api.get("/api/games/nonsense").await,
            404,
            "not_found",
            None,
        );
        assert_error(
            &api.act("g_00000000", &t, "end").await,
            404,
            "not_found",
            None,
        );
        assert_error(
            &api.get(&format!("/api/games/{id}/moves/XX.99")).await,
            404,
            "not_found",
            None,
        );
        assert_error(
            &api.get("/api/games/g_123/ws").await,
            404,
            "not_found",
            None,
        );

        // moves: by id and by hex, and why not
        let (s, m) = api.get(&format!("/api/games/{id}/moves/PR.9")).await;
        assert_eq!(s, 200);
        assert_eq!(m["unit"], "PR.9");
        assert!(m["why_not"].is_null());
        let d = m["destinations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["hex"] == "2715")
            .unwrap()
            .clone();
        assert_eq!(d["cost"], 1.5);
        assert_eq!(d["path"], json!(["2516", "2615", "2715"]));
        let (_, m2) = api.get(&format!("/api/games/{id}/moves/2516")).await;
        assert_eq!(m2["unit"], "PR.9");
        let (_, m) = api.get(&format!("/api/games/{id}/moves/FR.4")).await;
        assert_eq!(m["destinations"], json!([]));
        assert_eq!(m["why_not"]["case"], "5.11");

        // the record
        let (s, r) = api.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(s, 200);
        assert_eq!(r["format"], "grognard-record/1");
        assert_eq!(r["seed"], 7);
        assert_eq!(r["actions"][0]["do"], "end");
        assert_eq!(common::verify_record(&r), 1);
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_branch_and_replay() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, t) = api.hotseat().await;
        let undo = format!("/api/games/{id}/undo");
        assert_error(
            &api.post(&undo, Some(&t), json!({})).await,
            422,
            "refused",
            Some("5.14"),
        );
        assert_error(
            &api.post(&undo, None, json!({})).await,
            401,
            "unauthorized",
            None,
        );
        api.ok(&id, &t, "end").await;
        api.ok(&id, &t, "move PR.9 2416").await;
        let (s, v) = api.post(&undo, Some(&t), json!({})).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["undone"], "move PR.9 2416");
        assert_eq!(v["change"]["actions_recorded"], 1);
        // the record in the database lost it too: a fresh load agrees (the branch below reads it)
        api.ok(&id, &t, "move PR.9 2416").await;
        api.ok(&id, &t, "end").await;
        api.ok(&id, &t, "attack PR.9 FR.26").await;
        api.ok(&id, &t, "end").await;
        // resolving rolls the record's seeded die: no taking back after it (5.14)
        let (s, v) = api.act(&id, &t, "resolve FR.26").await;
        assert_eq!(s, 200, "{v}");
        let accepted = v["accepted"].as_array().unwrap();
        assert_eq!(accepted[0], "resolve FR.26");
        assert!(accepted[1].as_str().unwrap().starts_with("roll "));
        assert!(v["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["case"] == "7.6"));
        assert_error(
            &api.post(&undo, Some(&t), json!({})).await,
            422,
            "refused",
            Some("5.14"),
        );
        let n = v["change"]["actions_recorded"].as_u64().unwrap();
        let full = api.state(&id).await;
        assert_eq!(full["log"].as_array().unwrap().len() as u64, n);
        let roll = &full["log"][n as usize - 1];
        assert_eq!(roll["side"], "chance");

        // replay: the state after the first n actions
        let (s, r1) = api.get(&format!("/api/games/{id}/replay/1")).await;
        assert_eq!(s, 200);
        assert_eq!(r1["actions_recorded"], 1);
        assert_eq!(r1["to_act"], "Allied");
        assert_eq!(r1["log"].as_array().unwrap().len(), 1);
        let (_, r0) = api.get(&format!("/api/games/{id}/replay/0")).await;
        assert_eq!(r0["to_act"], "French");
        let (_, rn) = api.get(&format!("/api/games/{id}/replay/{n}")).await;
        assert_eq!(rn["state_hash"], v["change"]["state_hash"]);
        assert_error(
            &api.get(&format!("/api/games/{id}/replay/{}", n + 1)).await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.get(&format!("/api/games/{id}/replay/x")).await,
            400,
            "bad_request",
            None,
        );

        // branch at 2: a new hot-seat game with the first two actions, played on its own
        let (s, b) = api
            .post(&format!("/api/games/{id}/branch"), None, json!({"at": 2}))
            .await;
        assert_eq!(s, 201, "{b}");
        let bid = b["id"].as_str().unwrap().to_string();
        assert_ne!(bid, id);
        let bt = b["seats"]["both"].as_str().unwrap().to_string();
        let bs = api.state(&bid).await;
        assert_eq!(bs["actions_recorded"], 2);
        assert_eq!(
            bs["state_hash"],
            api.get(&format!("/api/games/{id}/replay/2")).await.1["state_hash"]
        );
        api.ok(&bid, &bt, "move PR.10 2415").await;
        assert_eq!(api.state(&id).await["actions_recorded"], n);
        // the original's token does not act in the branch
        assert_error(&api.act(&bid, &t, "end").await, 401, "unauthorized", None);
        // branching just before a die: the branch rolls it, and rolls the same face
        let (_, b2) = api
            .post(
                &format!("/api/games/{id}/branch"),
                None,
                json!({"at": n - 1}),
            )
            .await;
        let b2s = api.state(b2["id"].as_str().unwrap()).await;
        assert_eq!(b2s["actions_recorded"], n);
        assert_eq!(b2s["state_hash"], v["change"]["state_hash"]);
        assert_error(
            &api.post(
                &format!("/api/games/{id}/branch"),
                None,
                json!({"at": n + 5}),
            )
            .await,
            400,
            "bad_request",
            None,
        );
        srv.stop().await;
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next_message(ws: &mut Socket) -> Value {
    let m = tokio::time::timeout(Duration::from_secs(30), ws.next())
        .await
        .expect("a message in time")
        .expect("the socket is open")
        .expect("a message");
    let text = m.into_text().expect("text");
    serde_json::from_str::<Value>(&text).expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_sees_another_clients_action() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, t) = api.hotseat().await;
        let url = format!("ws://{}/api/games/{id}/ws", srv.addr());
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connects");
        let first = next_message(&mut ws).await;
        assert_eq!(first["type"], "state");
        assert_eq!(first["state"]["actions_recorded"], 0);
        assert_eq!(first["events"], json!([]));
        // another client acts
        api.ok(&id, &t, "end").await;
        let m = next_message(&mut ws).await;
        assert_eq!(m["type"], "change");
        assert_eq!(m["change"]["base"], 0);
        assert_eq!(m["change"]["actions_recorded"], 1);
        assert_eq!(m["change"]["to_act"], "Allied");
        assert!(m["events"].is_array(), "{m}");
        // even when the acting client asks for the legal actions, watchers get none
        let (s, _) = api
            .post(
                &format!("/api/games/{id}/actions"),
                Some(&t),
                json!({"action": "move PR.9 2416", "legal": true}),
            )
            .await;
        assert_eq!(s, 200);
        let m = next_message(&mut ws).await;
        assert_eq!(m["change"]["actions_recorded"], 2);
        assert!(m["change"].get("legal").is_none(), "{m}");
        // an undo is a change too
        api.post(&format!("/api/games/{id}/undo"), Some(&t), json!({}))
            .await;
        let m = next_message(&mut ws).await;
        assert_eq!(m["change"]["actions_recorded"], 1);
        assert_eq!(m["change"]["base"], 2);
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_requests_serialize() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, t) = api.hotseat().await;
        api.ok(&id, &t, "end").await;
        // the same move, twice at once, both having seen one action
        for round in 0..5 {
            let n = api.state(&id).await["actions_recorded"].as_u64().unwrap();
            let unit = ["PR.9", "PR.10", "PR.11", "RU.3", "RU.4"][round];
            let m = api.get(&format!("/api/games/{id}/moves/{unit}")).await.1;
            let Some(dest) = m["destinations"]
                .as_array()
                .and_then(|d| d.first())
                .cloned()
            else {
                continue;
            };
            let action = format!("move {unit} {}", dest["hex"].as_str().unwrap());
            let with_expect = round % 2 == 0;
            let go = |api: Api, id: String, t: String, action: String| async move {
                let body = if with_expect {
                    json!({"action": action, "expect": n})
                } else {
                    json!({"action": action})
                };
                api.post(&format!("/api/games/{id}/actions"), Some(&t), body)
                    .await
            };
            let a = tokio::spawn(go(api.clone(), id.clone(), t.clone(), action.clone()));
            let b = tokio::spawn(go(api.clone(), id.clone(), t.clone(), action.clone()));
            let (ra, rb) = (a.await.unwrap(), b.await.unwrap());
            let oks = [&ra, &rb].iter().filter(|r| r.0 == 200).count();
            assert_eq!(oks, 1, "{action}: {ra:?} {rb:?}");
            let loser = if ra.0 == 200 { &rb } else { &ra };
            assert!(
                loser.0 == 409 || loser.0 == 422,
                "the loser gets 409 or 422: {loser:?}"
            );
            let st = api.state(&id).await;
            assert_eq!(st["actions_recorded"].as_u64().unwrap(), n + 1);
        }
        let (_, r) = api.get(&format!("/api/games/{id}/record")).await;
        let n = common::verify_record(&r);
        // a second server over the same database sees the same record
        let srv2 = start(&db).await;
        let api2 = Api::new(srv2.addr());
        let (_, r2) = api2.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(r2, r);
        assert_eq!(r2["actions"].as_array().unwrap().len(), n);
        srv2.stop().await;
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_replays_its_games() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, t) = api.hotseat().await;
        let last = common::play_random(&api, &id, &t, 120, 11).await;
        let (cid, v) = api
            .create(json!({"scenario": "bon-first-day", "seed": 4, "mode": "computer", "computer": "heuristic"}))
            .await;
        let ct = v["seats"]["French"].as_str().unwrap().to_string();
        let cst = api.ok(&cid, &ct, "end").await;
        let c_before = api.state(&cid).await;
        srv.stop().await;

        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let again = api.state(&id).await;
        assert_eq!(again["state_hash"], last["state_hash"]);
        assert_eq!(again["actions_recorded"], last["actions_recorded"]);
        assert_eq!(again["log"], last["log"]);
        let c_again = api.state(&cid).await;
        assert_eq!(c_again["state_hash"], cst["state_hash"]);
        // the computer's explanations are stored with its actions
        assert_eq!(c_again["log"], c_before["log"]);
        assert!(c_again["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["events"][0]["case"] == "computer"));
        // and the record read back from the store keeps them as notes, without who and what
        let (s, rec) = api.get(&format!("/api/games/{cid}/record")).await;
        assert_eq!(s, 200, "{rec}");
        let note = rec["actions"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|a| a["note"].as_str())
            .unwrap_or_else(|| panic!("no note: {rec}"));
        assert!(!note.starts_with("Allied ("), "{note}");
        // and play goes on, tokens still valid
        let more = common::play_random(&api, &id, &t, 10, 5).await;
        assert!(more["actions_recorded"].as_u64() >= last["actions_recorded"].as_u64());
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn online_take_back_needs_the_opponents_consent() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, v) = api
            .create(json!({"scenario": "bon-first-day", "mode": "online"}))
            .await;
        let fr = v["seats"]["French"].as_str().unwrap().to_string();
        let al = v["seats"]["Allied"].as_str().unwrap().to_string();
        let undo = format!("/api/games/{id}/undo");
        let tb = format!("/api/games/{id}/takeback");
        let url = format!("ws://{}/api/games/{id}/ws", srv.addr());
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connects");
        let first = next_message(&mut ws).await;
        assert_eq!(first["takeback"], Value::Null);
        api.ok(&id, &fr, "end").await;
        assert_eq!(next_message(&mut ws).await["type"], "change");
        api.ok(&id, &al, "move PR.9 2416").await;
        assert_eq!(next_message(&mut ws).await["type"], "change");

        // nothing asked yet: nothing to answer
        assert_error(
            &api.post(&tb, Some(&fr), json!({"accept": true})).await,
            409,
            "conflict",
            None,
        );
        // the Allied player asks; the French player sees it and declines: the move stands
        let (s, v) = api.post(&undo, Some(&al), json!({})).await;
        assert_eq!(s, 202, "{v}");
        assert_eq!(v["requested"]["actions"], json!(["move PR.9 2416"]));
        let m = next_message(&mut ws).await;
        assert_eq!(m["type"], "takeback");
        assert_eq!(m["takeback"]["by"], "Allied");
        assert_eq!(api.get(&tb).await.1["takeback"]["by"], "Allied");
        // the asker cannot consent for the opponent; a missing answer is 400; no token 401
        assert_error(
            &api.post(&tb, Some(&al), json!({"accept": true})).await,
            409,
            "conflict",
            None,
        );
        assert_error(
            &api.post(&tb, Some(&fr), json!({})).await,
            400,
            "bad_request",
            None,
        );
        assert_error(
            &api.post(&tb, None, json!({"accept": true})).await,
            401,
            "unauthorized",
            None,
        );
        let (s, v) = api.post(&tb, Some(&fr), json!({"accept": false})).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["takeback"], "declined");
        let m = next_message(&mut ws).await;
        assert_eq!(m["takeback"], Value::Null);
        assert_eq!(m["why"], "declined");
        assert_eq!(api.state(&id).await["actions_recorded"], 2);

        // asked again, then a new action cancels the request
        let (s, _) = api.post(&undo, Some(&al), json!({})).await;
        assert_eq!(s, 202);
        assert_eq!(next_message(&mut ws).await["type"], "takeback");
        api.ok(&id, &al, "move PR.10 2415").await;
        assert_eq!(next_message(&mut ws).await["type"], "change");
        let m = next_message(&mut ws).await;
        assert_eq!(m["type"], "takeback");
        assert_eq!(m["takeback"], Value::Null);
        assert_error(
            &api.post(&tb, Some(&fr), json!({"accept": true})).await,
            409,
            "conflict",
            None,
        );

        // asked again and accepted: the move is taken back, and everyone sees the change
        let (s, _) = api.post(&undo, Some(&al), json!({})).await;
        assert_eq!(s, 202);
        assert_eq!(next_message(&mut ws).await["type"], "takeback");
        let (s, v) = api
            .post(&tb, Some(&fr), json!({"accept": true, "legal": true}))
            .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["undone"], "move PR.10 2415");
        assert_eq!(v["change"]["actions_recorded"], 2);
        assert!(v["change"]["legal"].is_array());
        let m = next_message(&mut ws).await;
        assert_eq!(m["type"], "change");
        assert_eq!(m["change"]["actions_recorded"], 2);
        let m = next_message(&mut ws).await;
        assert_eq!(m["why"], "accepted");
        // the asker may also withdraw a request
        let (s, _) = api.post(&undo, Some(&al), json!({})).await;
        assert_eq!(s, 202);
        let (s, v) = api.post(&tb, Some(&al), json!({"accept": false})).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["takeback"], "withdrawn");

        // past a die, asking is refused by the rules at once (5.14)
        api.ok(&id, &al, "end").await;
        api.ok(&id, &al, "attack PR.9 FR.26").await;
        api.ok(&id, &al, "end").await;
        api.ok(&id, &al, "resolve FR.26").await;
        let st = api.state(&id).await;
        let last = st["log"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["side"], "chance", "{last}");
        assert_error(
            &api.post(&undo, Some(&al), json!({})).await,
            422,
            "refused",
            Some("5.14"),
        );
        assert_eq!(api.get(&tb).await.1["takeback"], Value::Null);
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_tells_its_side_and_the_players_are_listed() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        let (id, v) = api
            .create(json!({"scenario": "bon-first-day", "mode": "online"}))
            .await;
        for side in ["French", "Allied"] {
            let t = v["seats"][side].as_str().unwrap();
            let link = v["links"][side].as_str().unwrap();
            assert!(link.ends_with(&format!("&side={side}")), "{link}");
            let r = Api::done_get(&api, &format!("/api/games/{id}/seat"), Some(t)).await;
            assert_eq!(r.0, 200, "{}", r.1);
            assert_eq!(r.1["side"], side);
            assert_eq!(r.1["mode"], "online");
        }
        assert_error(
            &api.get(&format!("/api/games/{id}/seat")).await,
            401,
            "unauthorized",
            None,
        );
        assert_error(
            &Api::done_get(&api, &format!("/api/games/{id}/seat"), Some("0123")).await,
            401,
            "unauthorized",
            None,
        );
        let (hid, ht) = api.hotseat().await;
        let r = Api::done_get(&api, &format!("/api/games/{hid}/seat"), Some(&ht)).await;
        assert_eq!(r.1["side"], "both");
        let (_, c) = api
            .create(json!({"scenario": "bon-first-day", "mode": "computer", "computer": "random"}))
            .await;
        assert!(c["links"]["French"]
            .as_str()
            .unwrap()
            .ends_with("&side=French"));

        let (s, p) = api.get("/api/players").await;
        assert_eq!(s, 200);
        let players: Vec<&str> = p["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert!(players.contains(&"random") && players.contains(&"heuristic"));
        assert_eq!(p["default"], *players.last().unwrap());
        // every level the start screen offers is a player the server accepts
        for l in p["levels"].as_array().unwrap() {
            let spec = l["spec"].as_str().unwrap();
            let (s, v) = api
                .post(
                    "/api/games",
                    None,
                    json!({"scenario": "bon-first-day", "mode": "computer", "computer": spec, "computer_side": "French"}),
                )
                .await;
            assert_eq!(s, 201, "{spec}: {v}");
        }
        srv.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declaration_previewed_and_the_charts_as_data() {
    let db = &databases()[0];
    let srv = start(db).await;
    let api = Api::new(srv.addr());

    // the charts: the CRT (7.6) and the TEC (9.0) as the rules hold them
    let (s, v) = api.get("/api/tables").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["crt"]["columns"].as_array().unwrap().len(), 10);
    assert_eq!(v["crt"]["rows"][5]["results"][0], "Ae");
    assert!(v["tec"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["terrain"] == "stream" && r["kind"] == "hexside"));
    assert_error(
        &api.get("/api/tables?system=nothing").await,
        404,
        "not_found",
        None,
    );

    // the sequence of e2e/tests/03-combat: PR.9 steps next to FR.26, the Allies declare
    let (id, t) = api.hotseat().await;
    for a in ["end", "move PR.9 2416", "end"] {
        api.ok(&id, &t, a).await;
    }
    let before = api.state(&id).await;
    let path = format!("/api/games/{id}/preview?action=attack%20PR.9+FR.26");
    let (s, v) = api.done_get(&path, Some(&t)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["action"], "attack PR.9 FR.26");
    assert_eq!(v["combat"]["attackers"], json!(["PR.9"]));
    assert_eq!(v["combat"]["defenders"], json!(["FR.26"]));
    assert!(v["combat"]["probabilities"]["Dr"].is_number());
    // nothing was done: the same state, and declaring makes exactly the previewed combat
    let after = api.state(&id).await;
    assert_eq!(before["state_hash"], after["state_hash"]);
    let change = api.ok(&id, &t, "attack PR.9 FR.26").await;
    assert_eq!(change["combats"][0], v["combat"]);

    // refusals carry their case; a missing action is a bad request
    let (s, r) = api
        .done_get(
            &format!("/api/games/{id}/preview?action=move+PR.9+2415"),
            Some(&t),
        )
        .await;
    assert_eq!(s, 422, "{r}");
    assert_error(&(s, r.clone()), 422, "refused", None);
    assert!(r["error"]["case"].is_string(), "{r}");
    assert_error(
        &api.done_get(&format!("/api/games/{id}/preview"), Some(&t))
            .await,
        400,
        "bad_request",
        None,
    );
    srv.stop().await;
}
