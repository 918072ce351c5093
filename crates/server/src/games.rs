//! Games in play: loading them from the store (replaying their actions), seats and tokens,
//! applying actions with the dice and the computer player that follow, undo and branching.
//!
//! Each game lives in a [`Slot`]: a mutex around its state (so two requests on one game
//! serialize), a broadcast channel for its WebSocket watchers and the latest state view.

use crate::error::{ApiError, ServerError};
use crate::store::{GameRow, Store};
use engine::{Record, Recorded, Rules, Session, Side, ToAct};
use naw::{Game, Scenario};
use present::{EventEntry, LogEntry};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, watch, OnceCell};

/// The most actions the dice and the computer may take after one request (no legal game comes
/// near it; it only bounds a bug).
const ADVANCE_LIMIT: usize = 200_000;

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two players at one screen: one token acts for both sides.
    Hotseat,
    /// One player against the computer: only the human side has a token.
    Computer,
    /// Two players, each with a token and a link of their own.
    Online,
}

impl Mode {
    /// Its name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Hotseat => "hotseat",
            Mode::Computer => "computer",
            Mode::Online => "online",
        }
    }

    /// The mode of a name.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "hotseat" => Some(Mode::Hotseat),
            "computer" => Some(Mode::Computer),
            "online" => Some(Mode::Online),
            _ => None,
        }
    }
}

/// What a seat token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Act for both sides (hot-seat).
    Both,
    /// Act for one side.
    Side(Side),
}

impl Seat {
    /// True when the seat may act for side `s`.
    pub fn covers(self, s: Side) -> bool {
        match self {
            Seat::Both => true,
            Seat::Side(x) => x == s,
        }
    }
}

/// A fresh random value as lower-case hex: `bytes` bytes from the operating system.
pub fn random_hex(bytes: usize) -> Result<String, ServerError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| ServerError::Random(e.to_string()))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// The hash of a seat token as stored (SHA-256, hex).
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compares two strings in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// True for text shaped like a game id (`g_` and hex digits).
pub fn valid_game_id(id: &str) -> bool {
    id.len() <= 64
        && id
            .strip_prefix("g_")
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// SplitMix64 of `a` and `b`: the computer player's seed from the game's seed and the record's
/// length, so that its choices are a function of the record (the same after a restart).
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The default computer player: the last of [`ai::PLAYERS`], which lists them weakest first.
pub fn default_computer() -> &'static str {
    ai::PLAYERS.last().copied().unwrap_or("random")
}

/// A game in play, in memory.
pub struct Live {
    /// The record and the state.
    pub session: Session<Game>,
    /// The log of every recorded action.
    pub log: Vec<LogEntry>,
    /// The computer player, kept between requests so that a plan it made for a player-turn
    /// survives the human's retreats in the middle of it (made afresh after a restart or an
    /// undo, seeded from the game's seed and the record's length).
    pub player: Option<Box<dyn ai::Player>>,
}

/// One game: its fixed facts, its state behind a mutex, and its watchers.
pub struct Slot {
    /// The game's id.
    pub id: String,
    /// Its row (mode, tokens, computer): fixed for the game's life.
    pub row: GameRow,
    /// How it is played.
    pub mode: Mode,
    /// Its scenario.
    pub scenario: Arc<Scenario>,
    /// The state; `None` after a failure, until it is reloaded from the store.
    pub live: tokio::sync::Mutex<Option<Live>>,
    /// The latest committed state view (JSON), for readers that need not wait.
    pub latest: watch::Sender<Arc<str>>,
    /// Messages for WebSocket watchers.
    pub tx: broadcast::Sender<Arc<str>>,
}

/// What the dice and the computer did after an action.
#[derive(Debug, Default, Serialize)]
pub struct Applied {
    /// The accepted actions' texts, in order.
    pub accepted: Vec<String>,
    /// Their events, in order (the computer's explanations with case `computer`).
    pub events: Vec<EventEntry>,
}

impl Live {
    /// Rebuilds a game from its record (verifying every die and state hash).
    pub fn resume(id: &str, sc: Arc<Scenario>, record: Record) -> Result<Live, ServerError> {
        let start = Game::from_arc(sc);
        let digest = start.scenario().digest;
        let corrupt = |e: engine::ReplayError| ServerError::Corrupt {
            id: id.to_string(),
            why: e.to_string(),
        };
        let log = present::log_of_record(&start, &record, None).map_err(corrupt)?;
        let session = Session::resume(start, record, digest).map_err(corrupt)?;
        Ok(Live {
            session,
            log,
            player: None,
        })
    }

    /// The state view as JSON.
    pub fn state_json(&self, id: &str) -> Arc<str> {
        let v = present::state_view(&self.session, Some(id), &self.log);
        Arc::from(serde_json::to_string(&v).unwrap_or_else(|_| "{}".into()))
    }

    fn record_last(&mut self, before: &ToAct, applied: &mut Applied) {
        let n = self.session.record.actions.len();
        let text = self
            .session
            .record
            .actions
            .last()
            .map(|r| r.text.clone())
            .unwrap_or_default();
        let entry = present::log_entry(n, before, &text, &self.session.game);
        applied.events.extend(entry.events.iter().cloned());
        applied.accepted.push(text);
        self.log.push(entry);
    }

    /// Applies a player's action text. Nothing changes when it is refused.
    pub fn act(&mut self, text: &str, applied: &mut Applied) -> Result<(), engine::Refusal> {
        let a = self.session.game.parse_action(text)?;
        let before = self.session.game.to_act();
        self.session.act(a)?;
        self.record_last(&before, applied);
        Ok(())
    }

    /// Rolls the record's seeded dice at every chance event and lets the computer act while it
    /// is to act.
    pub fn advance(&mut self, computer: Option<(Side, &str)>, seed: u64, applied: &mut Applied) {
        for _ in 0..ADVANCE_LIMIT {
            let before = self.session.game.to_act();
            match before {
                ToAct::Chance => {
                    if self.session.roll().is_none() {
                        return;
                    }
                    self.record_last(&before, applied);
                }
                ToAct::Side(s) if computer.is_some_and(|c| c.0 == s) => {
                    let spec = computer.map_or("random", |c| c.1);
                    if self.player.is_none() {
                        let seed =
                            mix(seed ^ 0x636f_6d70, self.session.record.actions.len() as u64);
                        self.player = ai::player(spec, seed).ok();
                    }
                    let Some(p) = self.player.as_mut() else {
                        return;
                    };
                    let a = p.choose(&self.session.game);
                    if self.session.act(a).is_err() {
                        // a player bug: take the first legal action so the game goes on
                        tracing::warn!(
                            "the computer player {spec} chose a refused action {}",
                            self.session.game.action_text(a)
                        );
                        let mut v = Vec::new();
                        self.session.game.legal_actions(&mut v);
                        match v.first() {
                            Some(&first) if self.session.act(first).is_ok() => {}
                            _ => return,
                        }
                    }
                    let text = self
                        .session
                        .record
                        .actions
                        .last()
                        .map(|r| r.text.clone())
                        .unwrap_or_default();
                    let why = p.explain().map(|e| format!(": {e}")).unwrap_or_default();
                    applied.events.push(EventEntry {
                        case: "computer".into(),
                        text: format!(
                            "{} ({}) {text}{why}",
                            present::side_name(&self.session.game, s),
                            p.name()
                        ),
                    });
                    self.record_last(&before, applied);
                }
                _ => return,
            }
        }
    }
}

impl Slot {
    /// The computer's side and spec, in computer mode.
    pub fn computer(&self) -> Option<(Side, &str)> {
        match (self.mode, self.row.computer_side, &self.row.computer) {
            (Mode::Computer, Some(s), Some(spec)) => Some((Side(s), spec.as_str())),
            _ => None,
        }
    }

    /// The seat a bearer token holds, or 401.
    pub fn seat(&self, token: Option<&str>) -> Result<Seat, ApiError> {
        let Some(token) = token else {
            return Err(ApiError::unauthorized(
                "this needs a seat token: Authorization: Bearer <token>",
            ));
        };
        let h = token_hash(token.trim());
        let is = |stored: &Option<String>| stored.as_deref().is_some_and(|s| same(s, &h));
        if is(&self.row.token_both) {
            Ok(Seat::Both)
        } else if is(&self.row.token_first) {
            Ok(Seat::Side(Side(0)))
        } else if is(&self.row.token_second) {
            Ok(Seat::Side(Side(1)))
        } else {
            Err(ApiError::unauthorized(
                "that seat token is not one of this game's",
            ))
        }
    }

    /// Publishes a change: the latest state and a message to every watcher.
    pub fn publish(&self, state: Arc<str>, events: &[EventEntry]) {
        if self.tx.receiver_count() > 0 {
            let events = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
            let _ = self.tx.send(Arc::from(ws_message(&state, &events)));
        }
        self.latest.send_replace(state);
    }
}

/// The WebSocket message for a state: `{"type":"state","state":…,"events":[…]}`.
pub fn ws_message(state: &str, events_json: &str) -> String {
    format!(r#"{{"type":"state","state":{state},"events":{events_json}}}"#)
}

/// Serializes `head` (a struct) and adds `"state": <state JSON>` to it.
pub fn with_state<T: Serialize>(head: &T, state: &str) -> String {
    let mut s = serde_json::to_string(head).unwrap_or_else(|_| "{}".into());
    if s.ends_with('}') {
        s.pop();
        if !s.ends_with('{') {
            s.push(',');
        }
        s.push_str("\"state\":");
        s.push_str(state);
        s.push('}');
    }
    s
}

/// Every game the server has loaded, and the way to load one.
pub struct Games {
    store: Store,
    scenarios: Vec<(String, Arc<Scenario>)>,
    loaded: Mutex<HashMap<String, Arc<OnceCell<Arc<Slot>>>>>,
}

/// Runs blocking game work (replays, the computer player) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("the game's work failed: {e}")))
}

impl Games {
    /// Over a store, with the shipped scenarios.
    pub fn new(store: Store, scenarios: Vec<(String, Arc<Scenario>)>) -> Games {
        Games {
            store,
            scenarios,
            loaded: Mutex::new(HashMap::new()),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A shipped scenario.
    pub fn scenario(&self, id: &str) -> Option<&Arc<Scenario>> {
        self.scenarios.iter().find(|(i, _)| i == id).map(|(_, s)| s)
    }

    /// The shipped scenarios, in order.
    pub fn scenarios(&self) -> &[(String, Arc<Scenario>)] {
        &self.scenarios
    }

    /// The game `id`, loaded from the store on first access (404 when there is none).
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if !valid_game_id(id) {
            return Err(ApiError::not_found(format!("there is no game '{id}'")));
        }
        let cell = {
            let mut map = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(id.to_string()).or_default().clone()
        };
        let r = cell.get_or_try_init(|| self.load(id)).await.cloned();
        if r.is_err() {
            // forget the failed attempt (unknown ids must not pile up)
            let mut map = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
            if map.get(id).is_some_and(|c| c.get().is_none()) {
                map.remove(id);
            }
        }
        r
    }

    /// Makes sure the game's state is in memory (reloading it from the store after a failure)
    /// and returns it.
    pub async fn ensure<'g>(
        &self,
        slot: &Slot,
        guard: &'g mut Option<Live>,
    ) -> Result<&'g mut Live, ApiError> {
        if guard.is_none() {
            *guard = Some(self.load_live(&slot.row).await?);
        }
        guard
            .as_mut()
            .ok_or_else(|| ApiError::internal("the game could not be loaded"))
    }

    async fn load_live(&self, row: &GameRow) -> Result<Live, ApiError> {
        let Some((_, actions)) = self.store.load(&row.id).await? else {
            return Err(ApiError::not_found(format!(
                "there is no game '{}'",
                row.id
            )));
        };
        let sc = self.scenario(&row.scenario).cloned().ok_or_else(|| {
            ApiError::from(ServerError::Corrupt {
                id: row.id.clone(),
                why: format!("its scenario '{}' is not shipped any more", row.scenario),
            })
        })?;
        let record = Record {
            format: engine::RECORD_FORMAT.to_string(),
            scenario: row.scenario.clone(),
            scenario_digest: row.scenario_digest.clone(),
            rules: row.rules.clone(),
            seed: row.seed,
            actions,
        };
        let id = row.id.clone();
        Ok(blocking(move || Live::resume(&id, sc, record)).await??)
    }

    async fn load(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let Some((row, _)) = self.store.load(id).await? else {
            return Err(ApiError::not_found(format!("there is no game '{id}'")));
        };
        let mode = Mode::parse(&row.mode).ok_or_else(|| {
            ApiError::from(ServerError::Corrupt {
                id: id.to_string(),
                why: format!("unknown mode '{}'", row.mode),
            })
        })?;
        let scenario = self.scenario(&row.scenario).cloned().ok_or_else(|| {
            ApiError::from(ServerError::Corrupt {
                id: id.to_string(),
                why: format!("its scenario '{}' is not shipped any more", row.scenario),
            })
        })?;
        let live = self.load_live(&row).await?;
        let (latest, _) = watch::channel(live.state_json(id));
        let (tx, _) = broadcast::channel(16);
        let slot = Slot {
            id: id.to_string(),
            row,
            mode,
            scenario,
            live: tokio::sync::Mutex::new(Some(live)),
            latest,
            tx,
        };
        // a game left with dice to roll or the computer to act goes on
        let mut guard = slot.live.lock().await;
        self.run(&slot, &mut guard, |_, _| Ok(())).await?;
        drop(guard);
        Ok(Arc::new(slot))
    }

    /// Runs `change` on the game's state off the async threads, then the dice and the
    /// computer; commits every new action to the store; publishes the new state. On a refusal
    /// nothing changes; on a storage failure the state is reloaded from the store.
    pub async fn run(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        change: impl FnOnce(&mut Live, &mut Applied) -> Result<(), ApiError> + Send + 'static,
    ) -> Result<(Applied, Arc<str>), ApiError> {
        let live = match guard.take() {
            Some(l) => l,
            None => self.load_live(&slot.row).await?,
        };
        let before = live.session.record.actions.len();
        let computer = slot.computer().map(|(s, spec)| (s, spec.to_string()));
        let seed = slot.row.seed;
        let id = slot.id.clone();
        let (live, result) = blocking(move || {
            let mut live = live;
            let mut applied = Applied::default();
            let r = change(&mut live, &mut applied).map(|()| {
                live.advance(
                    computer.as_ref().map(|(s, spec)| (*s, spec.as_str())),
                    seed,
                    &mut applied,
                );
                let state = live.state_json(&id);
                (applied, state)
            });
            (live, r)
        })
        .await?;
        let (applied, state) = match result {
            Ok(x) => x,
            Err(e) => {
                *guard = Some(live);
                return Err(e);
            }
        };
        let now = live.session.record.actions.len();
        // `change` and the advance only ever append
        if now > before {
            let new = &live.session.record.actions[before..];
            if let Err(e) = self.store.replace_tail(&slot.id, before, new).await {
                // the store holds the truth: reload from it on the next access
                return Err(e.into());
            }
            slot.publish(state.clone(), &applied.events);
        }
        *guard = Some(live);
        Ok((applied, state))
    }

    /// Takes back actions: `count` of them, all or none (5.14), and commits.
    pub async fn undo(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        count: usize,
    ) -> Result<(Vec<String>, Arc<str>), ApiError> {
        let live = match guard.take() {
            Some(l) => l,
            None => self.load_live(&slot.row).await?,
        };
        let id = slot.id.clone();
        let (live, result) = blocking(move || {
            let mut live = live;
            let r = (|| {
                if live.session.game.undoable() < count {
                    return Err(engine::Refusal::new(
                        "5.14",
                        "a die has been rolled since: the move can no longer be taken back",
                    ));
                }
                let mut undone = Vec::new();
                for _ in 0..count {
                    undone.push(live.session.undo()?);
                    live.log.pop();
                }
                live.player = None;
                Ok(undone)
            })();
            let r = r.map(|undone| (undone, live.state_json(&id)));
            (live, r)
        })
        .await?;
        match result {
            Err(refusal) => {
                *guard = Some(live);
                Err(ApiError::refused(refusal))
            }
            Ok((undone, state)) => {
                let keep = live.session.record.actions.len();
                self.store.replace_tail(&slot.id, keep, &[]).await?;
                slot.publish(state.clone(), &[]);
                *guard = Some(live);
                Ok((undone, state))
            }
        }
    }

    /// Creates a game from `row` and its first actions (a branch copies them), lets the dice
    /// and the computer act, and stores it.
    pub async fn create(
        &self,
        row: GameRow,
        actions: Vec<Recorded>,
    ) -> Result<Arc<Slot>, ApiError> {
        let mode = Mode::parse(&row.mode)
            .ok_or_else(|| ApiError::bad_request(format!("unknown mode '{}'", row.mode)))?;
        let sc = self.scenario(&row.scenario).cloned().ok_or_else(|| {
            ApiError::not_found(format!("there is no scenario '{}'", row.scenario))
        })?;
        let record = Record {
            format: engine::RECORD_FORMAT.to_string(),
            scenario: row.scenario.clone(),
            scenario_digest: row.scenario_digest.clone(),
            rules: row.rules.clone(),
            seed: row.seed,
            actions,
        };
        let computer = match (mode, row.computer_side, &row.computer) {
            (Mode::Computer, Some(s), Some(spec)) => Some((Side(s), spec.clone())),
            _ => None,
        };
        let id = row.id.clone();
        let seed = row.seed;
        let sc2 = sc.clone();
        let live = blocking(move || -> Result<(Live, Arc<str>), ServerError> {
            let mut live = Live::resume(&id, sc2, record)?;
            let mut applied = Applied::default();
            live.advance(
                computer.as_ref().map(|(s, spec)| (*s, spec.as_str())),
                seed,
                &mut applied,
            );
            let state = live.state_json(&id);
            Ok((live, state))
        })
        .await?;
        let (live, state) = live?;
        self.store
            .create_game(&row, &live.session.record.actions)
            .await?;
        let (latest, _) = watch::channel(state);
        let (tx, _) = broadcast::channel(16);
        let slot = Arc::new(Slot {
            id: row.id.clone(),
            row,
            mode,
            scenario: sc,
            live: tokio::sync::Mutex::new(Some(live)),
            latest,
            tx,
        });
        let cell = Arc::new(OnceCell::new_with(Some(slot.clone())));
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(slot.id.clone(), cell);
        Ok(slot)
    }
}
