//! Several servers on one database (issue 11): a server that loaded a game before another
//! server changed it must never write over the other's acknowledged actions; on PostgreSQL
//! each server hears of the others' changes and tells its watchers.
//!
//! Every test runs on SQLite (two servers in one process over one file, as two processes
//! would be) and on PostgreSQL when `GROGNARD_TEST_POSTGRES` names one (`scripts/with-postgres`).

mod common;

use common::{assert_error, databases, start, Api, Db};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next message of a WebSocket (a generous bound: a missing message fails, a slow one
/// does not).
async fn next_message(ws: &mut Socket) -> Value {
    let m = tokio::time::timeout(Duration::from_secs(60), ws.next())
        .await
        .expect("a message in time")
        .expect("the socket is open")
        .expect("a message");
    let text = m.into_text().expect("text");
    serde_json::from_str::<Value>(&text).expect("JSON")
}

/// The next message with `type` "state" (skipping others), its state view.
async fn next_state(ws: &mut Socket) -> Value {
    loop {
        let m = next_message(ws).await;
        if m["type"] == "state" {
            return m["state"].clone();
        }
    }
}

/// A spectator's WebSocket on game `id` of a server, past its first (whole state) message.
async fn watch(srv: &server::Running, id: &str) -> (Socket, Value) {
    let url = format!("ws://{}/api/games/{id}/ws", srv.addr());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connects");
    let first = next_message(&mut ws).await;
    assert_eq!(first["type"], "state", "{first}");
    (ws, first["state"].clone())
}

/// The first legal move of a state view (a move, not `end`, so that two players' actions
/// differ).
fn a_move(state: &Value) -> String {
    state["legal"]
        .as_array()
        .expect("legal actions")
        .iter()
        .filter_map(Value::as_str)
        .find(|a| a.starts_with("move "))
        .expect("a legal move")
        .to_string()
}

/// A hot-seat game made on a server and played to the first phase with moves (the French
/// have none on the first turn of First Day): its id and token.
async fn game(api: &Api) -> (String, String) {
    let (id, t) = api.hotseat().await;
    api.ok(&id, &t, "end").await;
    (id, t)
}

/// The game's record as a third server, which has loaded nothing, reads it from the database.
async fn stored_record(db: &Db, id: &str) -> Value {
    let srv = start(db).await;
    let api = Api::new(srv.addr());
    let (s, record) = api.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200, "{record}");
    srv.stop().await;
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_server_is_refused_and_writes_nothing_over() {
    for db in databases() {
        let one = start(&db).await;
        let two = start(&db).await;
        let (api1, api2) = (Api::new(one.addr()), Api::new(two.addr()));
        let (id, t) = game(&api1).await;
        // server 2 loads the game; a spectator watches it there
        let stale = api2.state(&id).await;
        assert_eq!(stale["actions_recorded"], 1);
        let (mut ws, _) = watch(&two, &id).await;

        // server 1's player acts: acknowledged
        let mv = a_move(&stale);
        let acked = api1.ok(&id, &t, &mv).await;
        assert_eq!(acked["actions_recorded"], 2, "{}", db.name);

        // server 2's player acts from the state it saw (on PostgreSQL server 2 may already have
        // heard of the move: the client's `expect` makes the answer 409 either way)
        let body = if db.name == "postgres" {
            json!({"action": "end", "expect": 1})
        } else {
            json!({"action": "end"})
        };
        let refused = api2
            .post(&format!("/api/games/{id}/actions"), Some(&t), body)
            .await;
        assert_error(&refused, 409, "conflict", None);

        // the database holds server 1's acknowledged action, and only it
        let record = stored_record(&db, &id).await;
        let actions = record["actions"].as_array().unwrap();
        assert_eq!(actions.len(), 2, "{}: {record}", db.name);
        assert_eq!(actions[1]["do"], mv.as_str(), "{}", db.name);
        common::verify_record(&record);

        // server 2 serves the current state, to requests and to its watcher
        let now = api2.state(&id).await;
        assert_eq!(now["actions_recorded"], 2, "{}", db.name);
        assert_eq!(now["state_hash"], acked["state_hash"], "{}", db.name);
        let seen = next_state(&mut ws).await;
        assert_eq!(seen["actions_recorded"], 2, "{}", db.name);
        assert_eq!(seen["state_hash"], acked["state_hash"], "{}", db.name);

        // and its player goes on from there
        let next = api2.ok(&id, &t, "end").await;
        let n = next["actions_recorded"].as_u64().unwrap();
        assert!(n >= 3, "{next}");
        // server 1, stale in its turn on SQLite, is refused too (on PostgreSQL it has heard)
        if db.name == "sqlite" {
            let (s, v) = api1.act(&id, &t, "end").await;
            assert_eq!(s, 409, "{v}");
        }
        let record = stored_record(&db, &id).await;
        assert_eq!(
            record["actions"].as_array().unwrap().len() as u64,
            n,
            "{record}"
        );
        assert_eq!(record["actions"][1]["do"], mv.as_str());
        assert_eq!(record["actions"][2]["do"], "end");
        common::verify_record(&record);
        one.stop().await;
        two.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_take_back_is_refused() {
    for db in databases() {
        let one = start(&db).await;
        let two = start(&db).await;
        let (api1, api2) = (Api::new(one.addr()), Api::new(two.addr()));
        let (id, t) = game(&api1).await;
        let st = api1.state(&id).await;
        let mv = a_move(&st);
        api1.ok(&id, &t, &mv).await;
        // server 2 loads the game with its one move
        assert_eq!(api2.state(&id).await["actions_recorded"], 2);
        // server 1 takes the move back and plays another action in its place
        let (s, v) = api1
            .post(&format!("/api/games/{id}/undo"), Some(&t), json!({}))
            .await;
        assert_eq!(s, 200, "{v}");
        let acked = api1.ok(&id, &t, "end").await;
        // server 2's take-back (of a move that is no longer there) is refused
        let (s, v) = api2
            .post(&format!("/api/games/{id}/undo"), Some(&t), json!({}))
            .await;
        if db.name == "sqlite" {
            assert_error(&(s, v), 409, "conflict", None);
        } else {
            // on PostgreSQL server 2 may already stand on the new state: then the rules judge
            // a take-back of server 1's `end` (a proper take-back of the current record)
            assert!(s == 409 || s == 200 || s == 422, "{s} {v}");
        }
        let record = stored_record(&db, &id).await;
        let actions = record["actions"].as_array().unwrap();
        if s != 200 {
            assert_eq!(actions.len(), 2, "{record}");
            assert_eq!(actions[1]["do"], "end");
            assert_eq!(api2.state(&id).await["state_hash"], acked["state_hash"]);
        } else {
            assert_eq!(actions.len(), 1, "{record}");
        }
        one.stop().await;
        two.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_on_another_server_sees_a_move() {
    let Some(db) = databases().into_iter().find(|d| d.name == "postgres") else {
        eprintln!("note: fan-out between servers is PostgreSQL's: not tested without it");
        return;
    };
    let one = start(&db).await;
    let two = start(&db).await;
    let (api1, api2) = (Api::new(one.addr()), Api::new(two.addr()));
    let (id, t) = game(&api1).await;
    let (mut ws, first) = watch(&two, &id).await;
    assert_eq!(first["actions_recorded"], 1);

    // a move on server 1 reaches the watcher on server 2, which no one asks anything
    let mv = a_move(&api1.state(&id).await);
    let acked = api1.ok(&id, &t, &mv).await;
    let seen = next_state(&mut ws).await;
    assert_eq!(seen["actions_recorded"], 2, "{seen}");
    assert_eq!(seen["state_hash"], acked["state_hash"]);
    assert_eq!(api2.state(&id).await["state_hash"], acked["state_hash"]);
    // so does a take-back
    let (s, v) = api1
        .post(&format!("/api/games/{id}/undo"), Some(&t), json!({}))
        .await;
    assert_eq!(s, 200, "{v}");
    let seen = next_state(&mut ws).await;
    assert_eq!(seen["actions_recorded"], 1, "{seen}");

    // server 2's player acts on what server 2 now holds; its watcher gets the change (a
    // server ignores the news of its own commits)
    let next = api2.ok(&id, &t, "end").await;
    let n = next["actions_recorded"].as_u64().unwrap();
    let m = next_message(&mut ws).await;
    assert_eq!(m["type"], "change", "{m}");
    assert_eq!(m["change"]["actions_recorded"], n);
    // server 1 hears of it: a watcher there sees it at once or in a state message
    let (mut ws1, mut now) = watch(&one, &id).await;
    if now["actions_recorded"] != n {
        now = next_state(&mut ws1).await;
    }
    assert_eq!(now["actions_recorded"], n, "{now}");
    assert_eq!(now["state_hash"], next["state_hash"]);
    // and server 1's player acts on it; server 2's watcher sees that next, as a whole state
    let action = now["legal"][0]
        .as_str()
        .expect("a legal action")
        .to_string();
    let last = api1.ok(&id, &t, &action).await;
    let seen = next_state(&mut ws).await;
    assert_eq!(seen["actions_recorded"], last["actions_recorded"], "{seen}");
    assert_eq!(seen["state_hash"], last["state_hash"]);
    one.stop().await;
    two.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_conflicting_change_of_many_fails() {
    for db in databases() {
        let one = start(&db).await;
        let two = start(&db).await;
        let (api1, api2) = (Api::new(one.addr()), Api::new(two.addr()));
        // six games; server 2 loads them all; server 1 moves in one of them
        let mut games = Vec::new();
        for _ in 0..6 {
            let (id, t) = game(&api1).await;
            let st = api2.state(&id).await;
            games.push((id, t, a_move(&st)));
        }
        let (stale_id, stale_t, stale_mv) = games[2].clone();
        api1.ok(&stale_id, &stale_t, &stale_mv).await;
        // server 2's players all act at once: their changes are committed together where they
        // meet, and only the stale game's is refused
        let mut tasks = Vec::new();
        for (id, t, _) in &games {
            let (api, id, t) = (api2.clone(), id.clone(), t.clone());
            tasks.push(tokio::spawn(async move {
                api.post(
                    &format!("/api/games/{id}/actions"),
                    Some(&t),
                    json!({"action": "end"}),
                )
                .await
            }));
        }
        for (i, task) in tasks.into_iter().enumerate() {
            let (s, v) = task.await.unwrap();
            if i == 2 && db.name == "sqlite" {
                assert_error(&(s, v), 409, "conflict", None);
            } else if i == 2 {
                // PostgreSQL: server 2 may have heard of the move first (then `end` is
                // simply the next action)
                assert!(s == 409 || s == 200, "{s} {v}");
            } else {
                assert_eq!(s, 200, "game {i}: {v}");
            }
        }
        for (i, (id, _, mv)) in games.iter().enumerate() {
            let record = stored_record(&db, id).await;
            let texts: Vec<&str> = record["actions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["do"].as_str().unwrap())
                .collect();
            if i == 2 {
                assert_eq!(texts.get(1), Some(&mv.as_str()), "{record}");
            } else {
                assert_eq!(texts, ["end", "end"], "game {i}");
            }
        }
        one.stop().await;
        two.stop().await;
    }
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_sqlite_database_is_its_owners_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new").join("games.sqlite");
    let srv = server::start(
        server::Config {
            port: 0,
            database: format!("sqlite:{}", path.display()),
            ..server::Config::default()
        },
        systems::Library::standard(),
    )
    .await
    .expect("the server starts");
    let api = Api::new(srv.addr());
    let (id, t) = api.hotseat().await;
    api.ok(&id, &t, "end").await;
    for suffix in ["", "-wal", "-shm"] {
        let f = std::path::PathBuf::from(format!("{}{suffix}", path.display()));
        let mode = std::fs::metadata(&f)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{}", f.display());
    }
    srv.stop().await;
}

/// A new game's row for the store (hot-seat, no tokens that matter).
fn row_of(id: &str, game: &dyn engine::dynamic::DynGame) -> server::store::GameRow {
    server::store::GameRow {
        id: id.into(),
        scenario: game.record().scenario.clone(),
        scenario_digest: game.record().scenario_digest.clone(),
        rules: game.record().rules.clone(),
        seed: game.record().seed,
        mode: "hotseat".into(),
        created_at: 0,
        token_first: None,
        token_second: None,
        token_both: Some(server::games::token_hash("t")),
        computer: None,
        computer_side: None,
        branched_from: None,
        salt: None,
    }
}

/// An action as the store holds it.
fn recorded(text: &str) -> engine::Recorded {
    engine::Recorded {
        text: text.into(),
        manual: false,
        hash: None,
        note: None,
    }
}

/// An append of one action to `game` at `version` with `keep` actions before it.
fn append(game: &str, version: u64, keep: usize, text: &str) -> server::store::Change {
    server::store::Change {
        row: None,
        game: game.into(),
        version,
        keep,
        new: vec![recorded(text)],
        notes: Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conflicting_change_in_a_group_commit_fails_alone() {
    use server::store::{Committer, WriteError};
    for db in databases() {
        let store = server::Store::open(&db.url).await.unwrap();
        let lib = systems::Library::standard();
        let tag = server::games::random_hex(6).unwrap();
        let ids: Vec<String> = (0..3).map(|i| format!("g_group{i}{tag}")).collect();
        for id in &ids {
            let game = lib.new_game("bon-first-day", None, 1).unwrap();
            let v = store
                .create_game(&row_of(id, &*game), &[], &[])
                .await
                .unwrap();
            assert_eq!(v, 0);
        }
        // another server appends to the second game: version 1
        let v = store
            .replace_tail(&ids[1], 0, 0, &[recorded("end")], &[])
            .await
            .unwrap();
        assert_eq!(v, 1);

        // one transaction of three appends, the second from the old version
        let group: Vec<_> = ids.iter().map(|id| append(id, 0, 0, "end")).collect();
        let mut group = group;
        group[1].new = vec![recorded("stale")];
        let out = store.commit(&group).await.expect("the group commits");
        assert!(matches!(out[0], Ok(1)), "{out:?}");
        assert!(
            matches!(&out[1], Err(WriteError::Conflict(id)) if *id == ids[1]),
            "{out:?}"
        );
        assert!(matches!(out[2], Ok(1)), "{out:?}");
        for (i, id) in ids.iter().enumerate() {
            let s = store.stored(id).await.unwrap().expect("stored");
            assert_eq!(s.version, 1, "{}", db.name);
            assert_eq!(s.actions.len(), 1);
            assert_eq!(s.actions[0].text, "end", "game {i}");
        }

        // the same through the committer, the changes submitted at once
        let committer = Committer::start(store.clone());
        let mut group: Vec<_> = ids.iter().map(|id| append(id, 1, 1, "end")).collect();
        group[2].version = 0;
        let outs = futures_util::future::join_all(group.into_iter().map(|c| {
            let committer = committer.clone();
            async move { committer.submit(c).await }
        }))
        .await;
        assert!(matches!(outs[0], Ok(2)), "{outs:?}");
        assert!(matches!(outs[1], Ok(2)), "{outs:?}");
        assert!(matches!(outs[2], Err(WriteError::Conflict(_))), "{outs:?}");
        let lens: Vec<usize> = futures_util::future::join_all(
            ids.iter()
                .map(|id| async { store.stored(id).await.unwrap().unwrap().actions.len() }),
        )
        .await;
        assert_eq!(lens, [2, 2, 1]);
        // a take-back from an old version is refused as well
        let r = store.replace_tail(&ids[0], 1, 0, &[], &[]).await;
        assert!(matches!(r, Err(WriteError::Conflict(_))), "{r:?}");
        assert_eq!(
            store.stored(&ids[0]).await.unwrap().unwrap().actions.len(),
            2
        );
        store.close().await;
    }
}

/// Waits (within a generous bound) until `done` holds.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..6000 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{what}: not within a minute");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_nobody_uses_leave_memory() {
    use engine::Viewer;
    use server::games::{Games, Start, TakeBack};
    for db in databases() {
        let store = server::Store::open(&db.url).await.unwrap();
        let lib = systems::Library::standard();
        let games = Games::new(store, lib.clone(), 300);
        let tag = server::games::random_hex(6).unwrap();
        let ids: Vec<String> = (0..5).map(|i| format!("g_idle{i}{tag}")).collect();
        let mut slots = Vec::new();
        for id in &ids {
            let game = lib.new_game("bon-first-day", None, 3).unwrap();
            slots.push(
                games
                    .create(row_of(id, &*game), Start::New(game))
                    .await
                    .unwrap(),
            );
        }
        assert_eq!(games.loaded(), 5);
        // game 0 is watched, game 1 has a take-back waiting, game 2 is held by a request
        let watcher = slots[0].subscribe(Viewer::Spectator);
        slots[1].set_takeback(
            Some(TakeBack {
                by: "French".into(),
                actions: vec!["end".into()],
                actions_recorded: 1,
            }),
            "asked",
        );
        let held = slots[2].clone();
        slots.clear();
        games.set_idle(Duration::from_millis(50));
        until("the idle games go", || games.loaded() == 3).await;
        assert!(games.is_loaded(&ids[0]) && games.is_loaded(&ids[1]) && games.is_loaded(&ids[2]));
        // each goes once nothing keeps it
        drop(watcher);
        drop(held);
        games
            .slot(&ids[1])
            .await
            .unwrap()
            .set_takeback(None, "withdrawn");
        until("every game goes", || games.loaded() == 0).await;
        // and comes back from the store on its next request
        let s = games.slot(&ids[3]).await.unwrap();
        assert_eq!(s.live.lock().await.as_ref().unwrap().len(), 0);
        assert_eq!(games.loaded(), 1);
        drop(s);
        until("it goes again", || games.loaded() == 0).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_stored_without_a_version_gets_one() {
    for db in databases() {
        let one = start(&db).await;
        let api1 = Api::new(one.addr());
        let (id, t) = game(&api1).await;
        let mv = a_move(&api1.state(&id).await);
        one.stop().await;
        // as a database of a version of the server without versions holds it
        let store = server::Store::open(&db.url).await.unwrap();
        let forget = "DELETE FROM heads WHERE game_id = $1";
        match &store {
            server::Store::Sqlite(p) => {
                sqlx::query(forget).bind(&id).execute(p).await.unwrap();
            }
            server::Store::Postgres(p) => {
                sqlx::query(forget).bind(&id).execute(p).await.unwrap();
            }
        }
        store.close().await;
        let two = start(&db).await;
        let api2 = Api::new(two.addr());
        assert_eq!(api2.state(&id).await["actions_recorded"], 1);
        let acked = api2.ok(&id, &t, &mv).await;
        assert_eq!(acked["actions_recorded"], 2);
        two.stop().await;
        let record = stored_record(&db, &id).await;
        assert_eq!(record["actions"][1]["do"], mv.as_str());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_written_without_a_version_is_not_written_over() {
    for db in databases() {
        let one = start(&db).await;
        let two = start(&db).await;
        let (api1, api2) = (Api::new(one.addr()), Api::new(two.addr()));
        let (id, t) = game(&api1).await;
        let mv = a_move(&api2.state(&id).await);
        // a server that knows no versions (an older one, still running) appends a move
        let store = server::Store::open(&db.url).await.unwrap();
        let insert =
            "INSERT INTO actions (game_id, idx, text, manual, hash) VALUES ($1, 1, $2, 0, NULL)";
        match &store {
            server::Store::Sqlite(p) => {
                sqlx::query(insert)
                    .bind(&id)
                    .bind(&mv)
                    .execute(p)
                    .await
                    .unwrap();
            }
            server::Store::Postgres(p) => {
                sqlx::query(insert)
                    .bind(&id)
                    .bind(&mv)
                    .execute(p)
                    .await
                    .unwrap();
            }
        }
        // the next server to load the game gives it a new version for its two actions ...
        let loaded = store.stored(&id).await.unwrap().unwrap();
        assert_eq!(loaded.actions.len(), 2);
        store.close().await;
        // ... so server 2, which loaded it before, does not write over the move
        let (s, v) = api2.act(&id, &t, "end").await;
        assert_eq!(s, 409, "{v}");
        let record = stored_record(&db, &id).await;
        assert_eq!(record["actions"].as_array().unwrap().len(), 2, "{record}");
        assert_eq!(record["actions"][1]["do"], mv.as_str());
        assert_eq!(api2.state(&id).await["actions_recorded"], 2);
        one.stop().await;
        two.stop().await;
    }
}
