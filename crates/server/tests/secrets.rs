//! Online play that strangers can trust (issue 11): dice nobody can foresee and everybody can
//! verify, what a computer player may cost, and a change that runs to its end when its client
//! hangs up.

mod common;

use common::{assert_error, databases, start, start_with, Api, Db};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// The seed the server keeps for a game (what only the server may know while it goes on).
async fn stored_seed(db: &Db, id: &str) -> (u64, Option<String>) {
    let store = server::Store::open(&db.url).await.expect("the store opens");
    let (row, ..) = store.load(id).await.expect("loads").expect("the game");
    store.close().await;
    (row.seed, row.salt)
}

/// Plays up to `steps` random legal actions of a two-seat game, each by the seat to act with
/// its own token (`seats`: side name to token); returns every response body seen.
async fn play_online(api: &Api, id: &str, seats: &Value, steps: usize) -> Vec<String> {
    let mut seen = Vec::new();
    let mut seed = 99u64;
    for _ in 0..steps {
        let (s, open) = api.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, 200, "{open}");
        seen.push(open.to_string());
        let side = open["to_act"].as_str().unwrap().to_string();
        if side == "over" {
            break;
        }
        let t = seats[&side].as_str().expect("the seat to act").to_string();
        let (s, state) = api.done_get(&format!("/api/games/{id}"), Some(&t)).await;
        assert_eq!(s, 200, "{state}");
        seen.push(state.to_string());
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        let a = legal[common::pick(&mut seed, legal.len())]
            .as_str()
            .unwrap()
            .to_string();
        let (s, v) = api
            .post(
                &format!("/api/games/{id}/actions"),
                Some(&t),
                json!({"action": a}),
            )
            .await;
        assert_eq!(s, 200, "{a}: {v}");
        seen.push(v.to_string());
    }
    seen
}

/// Fails before the fix: the record gave the seed to anyone, so a player could replay it
/// locally with the seeded dice and read the next roll.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_public_response_foretells_an_online_games_dice() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        // a client may not choose an online game's seed
        let refused = api
            .post(
                "/api/games",
                None,
                json!({"scenario": "bon-first-day", "mode": "online", "seed": 7}),
            )
            .await;
        assert_error(&refused, 400, "bad_request", None);
        assert!(refused.1.to_string().contains("secret"), "{}", refused.1);

        let (id, created) = api
            .create(json!({"scenario": "bon-first-day", "mode": "online"}))
            .await;
        let commitment = created["commitment"].as_str().expect("a commitment");
        assert_eq!(commitment.len(), 64, "SHA-256 in hex: {created}");
        let tokens: Vec<String> = created["seats"]
            .as_object()
            .unwrap()
            .values()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let mut public = vec![created.to_string()];
        public.extend(play_online(&api, &id, &created["seats"], 40).await);
        for path in ["", "/record", "/map", "/takeback", "/replay/3"] {
            let (s, v) = api.get(&format!("/api/games/{id}{path}")).await;
            assert_eq!(s, 200, "{path}: {v}");
            public.push(v.to_string());
        }
        for t in &tokens {
            let (_, v) = api
                .done_get(&format!("/api/games/{id}/seat"), Some(t))
                .await;
            public.push(v.to_string());
        }
        let (seed, salt) = stored_seed(&db, &id).await;
        let salt = salt.expect("an online game is sealed");
        assert_eq!(engine::commitment(seed, &salt), commitment);
        for body in &public {
            assert!(
                !body.contains(&seed.to_string()) && !body.contains(&salt),
                "{}: a public response holds the seed or the salt: {body:.300}",
                db.name
            );
        }
        // the record is published without its seed, with the commitment, and cannot be
        // replayed to read the next roll
        let (_, record) = api.get(&format!("/api/games/{id}/record")).await;
        assert!(record.get("seed").is_none(), "{record:.300}");
        assert_eq!(record["commitment"], commitment);
        let err = engine::Record::from_json(&record.to_string()).unwrap_err();
        assert!(err.contains("sealed"), "{err}");

        // a branch of the unfinished game rolls dice of its own: a fresh seed, the rolls so
        // far kept as given
        let (s, b) = api
            .post(&format!("/api/games/{id}/branch"), None, json!({}))
            .await;
        assert_eq!(s, 201, "{b}");
        let bid = b["id"].as_str().unwrap();
        let (_, brecord) = api.get(&format!("/api/games/{bid}/record")).await;
        let branch_seed = brecord["seed"].as_u64().expect("a branch is an open game");
        assert_ne!(
            branch_seed, seed,
            "{}: the branch keeps the secret seed",
            db.name
        );
        assert!(brecord.get("commitment").is_none());
        common::verify_record(&brecord);
        srv.stop().await;
    }
}

/// A sealed game's record, once the game is over, reveals the seed and the salt, and they make
/// the commitment published at the start: every roll is checked to be the committed dice's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_online_record_proves_its_dice() {
    let db = databases().remove(0);
    let srv = start_with(&db, toy::library(), 10).await;
    let api = Api::new(srv.addr());
    let (id, created) = api
        .create(json!({"scenario": "toy-skirmish", "mode": "online"}))
        .await;
    let commitment = created["commitment"].as_str().unwrap().to_string();
    // Scouts hides its units: the record is withheld until the end
    let (s, _) = api.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(s, 403);
    let (s, _) = api
        .post(&format!("/api/games/{id}/branch"), None, json!({}))
        .await;
    assert_eq!(s, 403, "a branch would show the hidden units");
    play_online(&api, &id, &created["seats"], 400).await;
    let (s, state) = api.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, 200);
    assert_eq!(state["to_act"], "over", "{state:.300}");
    let (s, text) = {
        let r = reqwest::get(format!("http://{}/api/games/{id}/record", srv.addr()))
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    };
    assert_eq!(s, 200, "{text}");
    let record = engine::Record::from_json(&text).expect("a finished record parses");
    assert_eq!(record.commitment.as_deref(), Some(commitment.as_str()));
    assert_eq!(record.verify_commitment(), Ok(true));
    toy::library()
        .resume(record.clone())
        .expect("the record replays with its revealed seed");
    // a record whose seed was changed after the fact fails its commitment
    let mut forged = record.clone();
    forged.seed ^= 1;
    assert!(matches!(
        forged.verify_commitment(),
        Err(engine::CommitmentError::Mismatch { .. })
    ));
    assert!(toy::library().resume(forged).is_err());
    srv.stop().await;
}

/// Games against the computer: sealed when the server draws the seed (the computer's choices,
/// seeded from it, cannot be previewed); open when the player chose the seed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_game_is_sealed_unless_its_player_chose_the_seed() {
    let db = databases().remove(0);
    let srv = start(&db).await;
    let api = Api::new(srv.addr());
    let (id, created) = api
        .create(json!({"scenario": "bon-first-day", "mode": "computer", "computer": "random"}))
        .await;
    assert!(created["commitment"].is_string(), "{created}");
    let (_, record) = api.get(&format!("/api/games/{id}/record")).await;
    assert!(record.get("seed").is_none());
    let (id, created) = api
        .create(
            json!({"scenario": "bon-first-day", "mode": "computer", "computer": "random",
            "seed": "18446744073709551615"}),
        )
        .await;
    assert!(created.get("commitment").is_none(), "{created}");
    let (_, record) = api.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(
        record["seed"],
        json!(u64::MAX),
        "a seed given as a string keeps every digit"
    );
    let bad = api
        .post(
            "/api/games",
            None,
            json!({"scenario": "bon-first-day", "seed": "18446744073709551616"}),
        )
        .await;
    assert_error(&bad, 400, "bad_request", None);
    assert!(bad.1.to_string().contains("whole number"), "{}", bad.1);
    srv.stop().await;
}

/// Fails before the fix: any player spec was accepted, `search@3599s` included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_published_computer_levels_are_accepted() {
    let db = databases().remove(0);
    let srv = start(&db).await;
    let api = Api::new(srv.addr());
    for spec in ["search@3599s", "search@100000n", "search@3s"] {
        let r = api
            .post(
                "/api/games",
                None,
                json!({"scenario": "bon-first-day", "mode": "computer", "computer": spec}),
            )
            .await;
        assert_error(&r, 400, "bad_request", None);
        assert!(r.1.to_string().contains("search@1s"), "{}", r.1);
    }
    let (_, players) = api.get("/api/players").await;
    for level in players["levels"].as_array().unwrap() {
        api.create(json!({"scenario": "bon-first-day", "mode": "computer",
            "computer": level["spec"]}))
            .await;
    }
    srv.stop().await;
}

/// Fails before the fix: a client that hangs up after sending its action dropped the request's
/// work midway (the action lost, or committed while the cached views and the watchers were
/// not told, so every later `expect` got 409).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_whose_client_hangs_up_is_committed_and_published() {
    for db in databases() {
        let srv = start(&db).await;
        let api = Api::new(srv.addr());
        // the computer plays the side that does not act first, and thinks about a second
        let (probe, _) = api
            .create(json!({"scenario": "bon-first-day", "seed": 3}))
            .await;
        let first = api.state(&probe).await["to_act"]
            .as_str()
            .unwrap()
            .to_string();
        let (_, list) = api.get("/api/scenarios").await;
        let sides = list
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == "bon-first-day")
            .map(|s| s["sides"].clone())
            .unwrap();
        let other = sides
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .find(|x| *x != first)
            .unwrap()
            .to_string();
        let (id, created) = api
            .create(json!({"scenario": "bon-first-day", "mode": "computer",
                "computer": "search@1s", "computer_side": other}))
            .await;
        let token = created["seats"][&first]
            .as_str()
            .expect("my seat")
            .to_string();
        let before = api.state(&id).await;
        let n = before["actions_recorded"].as_u64().unwrap();
        let (mut ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", srv.addr()))
                .await
                .expect("a watcher connects");
        let _state = ws.next().await;
        // send the action and hang up at once
        act_and_hang_up(
            srv.addr(),
            &id,
            &token,
            &json!({"action": "end", "expect": n}),
        )
        .await;
        // the watcher is told of the change, and the state view is the committed one
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("the watcher hears of the change")
            .expect("a message")
            .expect("not an error");
        let msg: Value = serde_json::from_str(msg.to_text().unwrap()).unwrap();
        assert_eq!(msg["type"], "change", "{msg:.300}");
        let mut state = api.state(&id).await;
        for _ in 0..600 {
            if state["to_act"] == first.as_str() || state["to_act"] == "over" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            state = api.state(&id).await;
        }
        let now = state["actions_recorded"].as_u64().unwrap();
        assert!(
            now > n + 1,
            "{}: the action and the computer's reply: {now}",
            db.name
        );
        // the board's next action, sent with what it was shown, is not refused as stale
        let store = server::Store::open(&db.url).await.unwrap();
        let (_, actions, _) = store.load(&id).await.unwrap().unwrap();
        store.close().await;
        assert_eq!(
            actions.len() as u64,
            now,
            "the view is the committed record"
        );
        let legal = state["legal"][0].as_str().unwrap().to_string();
        let (s, v) = api
            .post(
                &format!("/api/games/{id}/actions"),
                Some(&token),
                json!({"action": legal, "expect": now}),
            )
            .await;
        assert_eq!(s, 200, "{}: {v}", db.name);
        srv.stop().await;
    }
}

/// "Online with a friend" reaches a friend: a server that knows the address players reach it
/// at hands out absolute seat links under it; a server on loopback only relative ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_links_use_the_address_a_friend_can_reach() {
    let db = databases().remove(0);
    let srv = server::start(
        server::Config {
            port: 0,
            database: db.url.clone(),
            public_url: Some("https://games.example.org".into()),
            ..server::Config::default()
        },
        systems::Library::standard(),
    )
    .await
    .expect("starts");
    let api = Api::new(srv.addr());
    let (id, created) = api
        .create(json!({"scenario": "bon-first-day", "mode": "online"}))
        .await;
    for (side, link) in created["links"].as_object().unwrap() {
        assert_eq!(
            created["urls"][side].as_str().unwrap(),
            format!("https://games.example.org{}", link.as_str().unwrap())
        );
        assert!(link
            .as_str()
            .unwrap()
            .starts_with(&format!("/#game={id}&seat=")));
    }
    srv.stop().await;
    let srv = start(&db).await;
    let api = Api::new(srv.addr());
    let (_, created) = api.create(json!({"scenario": "bon-first-day"})).await;
    assert!(created.get("urls").is_none(), "{created}");
    srv.stop().await;
}

/// Sends an action over a bare connection and hangs up without reading the reply.
async fn act_and_hang_up(addr: std::net::SocketAddr, id: &str, token: &str, body: &Value) {
    let body = body.to_string();
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST /api/games/{id}/actions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Authorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(req.as_bytes()).await.unwrap();
    tcp.flush().await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(tcp);
}

/// Fails before the fix: the computer's search went on after its client left, for nobody.
/// Now a search whose game no one waits on or watches stops, its move is not made, and the
/// next visitor finds the computer thinking again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_search_stops_and_resumes_when_someone_is_back() {
    let db = databases().remove(0);
    let srv = start(&db).await;
    let api = Api::new(srv.addr());
    // the human (French) acts first; the computer thinks for about two seconds a player-turn
    let (id, created) = api
        .create(json!({"scenario": "bon-first-day", "mode": "computer",
            "computer": "search@2s", "computer_side": "Allied"}))
        .await;
    let token = created["seats"]["French"]
        .as_str()
        .expect("my seat")
        .to_string();
    assert_eq!(api.state(&id).await["to_act"], "French");
    act_and_hang_up(srv.addr(), &id, &token, &json!({"action": "end"})).await;
    let games = srv.app().games();
    for _ in 0..600 {
        if games.stopped_searches() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(games.stopped_searches(), 1, "the search stopped");
    // the player's action is committed; the computer's move is not made yet
    let store = server::Store::open(&db.url).await.unwrap();
    let (_, actions, _) = store.load(&id).await.unwrap().unwrap();
    store.close().await;
    assert_eq!(actions.len(), 1, "only the player's action");
    // someone is back: the computer thinks again and moves, and the watcher is told
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", srv.addr()))
            .await
            .expect("a watcher connects");
    let mut state = api.state(&id).await;
    for _ in 0..600 {
        if state["to_act"] == "French" && state["actions_recorded"].as_u64() > Some(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        state = api.state(&id).await;
    }
    assert_eq!(state["to_act"], "French", "{state:.300}");
    assert!(state["actions_recorded"].as_u64().unwrap() > 1);
    let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
        .await
        .expect("the watcher hears")
        .expect("a message")
        .expect("not an error");
    assert!(msg.to_text().unwrap().contains("\"type\""));
    srv.stop().await;
}
