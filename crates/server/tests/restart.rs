//! Crash safety: the real `grognard serve` as a child process, killed with SIGKILL in the middle
//! of play and started again over the same database. Every action that was acknowledged must
//! still be there, and the game must go on.

mod common;

use common::{databases, Api};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// The `grognard` binary of this build profile, built first if need be.
fn grognard_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    // target/<profile>/deps/restart-HASH
    let profile_dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>")
        .to_path_buf();
    let target_dir = profile_dir.parent().expect("target").to_path_buf();
    let release = profile_dir.file_name().is_some_and(|n| n == "release");
    // the workspace's manifest (popping path components, not resolving `..` through links)
    let mut manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.pop();
    manifest.pop();
    manifest.push("Cargo.toml");
    let mut build = Command::new(env!("CARGO"));
    build
        .args([
            "build",
            "--quiet",
            "-p",
            "grognard",
            "--bin",
            "grognard",
            "--manifest-path",
        ])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir);
    if release {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "building grognard failed");
    let bin = profile_dir.join(format!("grognard{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.exists(), "{} exists", bin.display());
    bin
}

/// `grognard serve --port 0 --database URL`: the child and the address it printed.
fn spawn(bin: &PathBuf, db: &str, data: &std::path::Path) -> (Child, std::net::SocketAddr) {
    let mut child = Command::new(bin)
        .args(["serve", "--port", "0", "--database", db])
        .env("XDG_DATA_HOME", data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("grognard serve starts");
    let out = child.stdout.take().expect("its output");
    let mut lines = BufReader::new(out).lines();
    let first = lines
        .next()
        .expect("a first line")
        .expect("readable output");
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in '{first}'"));
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("an address");
    // keep reading (and dropping) its output so it never blocks on a full pipe
    std::thread::spawn(move || for _ in lines.by_ref() {});
    (child, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_sigkill() {
    let bin = tokio::task::spawn_blocking(grognard_binary).await.unwrap();
    for db in databases() {
        let data = tempfile::tempdir().unwrap();
        let (mut child, addr) = spawn(&bin, &db.url, data.path());
        let api = Api::new(addr);
        let (id, t) = api.hotseat().await;
        let (cid, v) = api
            .create(json!({"scenario": "bon-first-day", "seed": 8, "mode": "computer", "computer": "random"}))
            .await;
        let ct = v["seats"]["French"].as_str().unwrap().to_string();

        // play, remembering every state the server acknowledged; fire a last request and kill
        // the server while it may still be working on it
        let acked = common::play_random(&api, &id, &t, 60, 3).await;
        let c_acked = api.ok(&cid, &ct, "end").await;
        let n = acked["actions_recorded"].as_u64().unwrap();
        let legal = acked["legal"][0].as_str().unwrap().to_string();
        let in_flight = {
            let api = api.clone();
            let (id, t) = (id.clone(), t.clone());
            tokio::spawn(async move {
                api.post(
                    &format!("/api/games/{id}/actions"),
                    Some(&t),
                    json!({"action": legal, "expect": n}),
                )
                .await
            })
        };
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        child.kill().expect("SIGKILL");
        child.wait().expect("it is gone");
        let last: Option<Value> = match in_flight.await {
            Ok((200, v)) => Some(v["change"].clone()),
            _ => None,
        };

        // start again over the same database
        let (mut child, addr) = spawn(&bin, &db.url, data.path());
        let api = Api::new(addr);
        let st = api.state(&id).await;
        let now = st["actions_recorded"].as_u64().unwrap();
        match &last {
            // the last request was acknowledged: it is there
            Some(l) => assert_eq!(st["state_hash"], l["state_hash"], "{}", db.name),
            // it was not: the game is as acknowledged before, or the request's commit landed
            None => {
                assert!(now == n || now == n + 1, "{now} actions, {n} acknowledged");
                if now == n {
                    assert_eq!(st["state_hash"], acked["state_hash"]);
                }
            }
        }
        let (_, record) = api.get(&format!("/api/games/{id}/record")).await;
        let (_, before_kill) = (0, &acked["log"]);
        for (i, e) in before_kill.as_array().unwrap().iter().enumerate() {
            assert_eq!(record["actions"][i]["do"], e["action"], "action {}", i + 1);
        }
        common::verify_record(&record);
        let c = api.state(&cid).await;
        assert_eq!(c["state_hash"], c_acked["state_hash"]);
        // the game goes on
        let more = common::play_random(&api, &id, &t, 5, 9).await;
        assert!(more["actions_recorded"].as_u64().unwrap() >= now);
        let (s, _) = api.act(&cid, &ct, "end").await;
        assert!(s == 200 || s == 422, "{s}");
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
