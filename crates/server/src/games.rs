//! Games in play: loading them from the store (replaying their actions), seats and tokens,
//! applying actions with the dice and the computer player that follow, undo and branching.
//!
//! Each game lives in a [`Slot`]: a mutex around its state (so two requests on one game
//! serialize), a broadcast channel for its WebSocket watchers, the whole state view once it
//! has been asked for, and a pending take-back request (online games).

use crate::error::{ApiError, ServerError};
use crate::store::{Committer, GameRow, Note, Store};
use engine::{Record, Recorded, Rules, Session, Side, ToAct};
use naw::{Game, Scenario};
use present::{EventEntry, LogEntry, StateChange, UnitEntry};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, OnceCell};

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
    /// The units as the last change left them (a change lists only the units that differ).
    pub units: Vec<UnitEntry>,
}

/// A take-back asked for in an online game, waiting for the opponent's consent (5.14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TakeBack {
    /// The side that asks.
    pub by: String,
    /// The actions that would be taken back, newest first.
    pub actions: Vec<String>,
    /// The record's length when it was asked (any new action cancels it).
    pub actions_recorded: usize,
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
    /// The whole state view (JSON) of the committed state, once someone has asked for it
    /// (cleared by every change, made again on demand).
    pub full: Mutex<Option<Arc<str>>>,
    /// The take-back waiting for the opponent's consent (online games; not stored: a restart
    /// forgets it).
    pub takeback: Mutex<Option<TakeBack>>,
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
    /// The computer's explanations by record position (0-based), to store.
    pub notes: Vec<Note>,
}

impl Live {
    /// Rebuilds a game from its record (verifying every die and state hash).
    pub fn resume(
        id: &str,
        sc: Arc<Scenario>,
        record: Record,
        notes: &[Note],
    ) -> Result<Live, ServerError> {
        let start = Game::from_arc(sc);
        let digest = start.scenario().digest;
        let corrupt = |e: engine::ReplayError| ServerError::Corrupt {
            id: id.to_string(),
            why: e.to_string(),
        };
        let mut log = present::log_of_record(&start, &record, None).map_err(corrupt)?;
        for (idx, text) in notes {
            if let Some(e) = log.get_mut(*idx) {
                e.events.insert(0, computer_event(text.clone()));
            }
        }
        let session = Session::resume(start, record, digest).map_err(corrupt)?;
        let units = present::units(&session.game);
        Ok(Live {
            session,
            log,
            player: None,
            units,
        })
    }

    /// The change from the state of `base` actions (whose units are `self.units`) to now; the
    /// units are remembered for the next change.
    pub fn change(&mut self, base: usize, with_legal: bool) -> StateChange {
        let now = present::units(&self.session.game);
        let c = present::state_change(
            &self.session,
            base,
            &self.units,
            &now,
            &self.log,
            with_legal,
        );
        self.units = now;
        c
    }

    /// The state view as JSON.
    pub fn state_json(&self, id: &str) -> Arc<str> {
        let v = present::state_view(&self.session, Some(id), &self.log);
        Arc::from(serde_json::to_string(&v).unwrap_or_else(|_| "{}".into()))
    }

    fn record_last(&mut self, before: &ToAct, applied: &mut Applied, note: Option<String>) {
        let n = self.session.record.actions.len();
        let text = self
            .session
            .record
            .actions
            .last()
            .map(|r| r.text.clone())
            .unwrap_or_default();
        let mut entry = present::log_entry(n, before, &text, &self.session.game);
        if let Some(note) = note {
            entry.events.insert(0, computer_event(note.clone()));
            applied.notes.push((n - 1, note));
        }
        applied.events.extend(entry.events.iter().cloned());
        applied.accepted.push(text);
        self.log.push(entry);
    }

    /// Applies a player's action text. Nothing changes when it is refused.
    pub fn act(&mut self, text: &str, applied: &mut Applied) -> Result<(), engine::Refusal> {
        let a = self.session.game.parse_action(text)?;
        let before = self.session.game.to_act();
        self.session.act(a)?;
        self.record_last(&before, applied, None);
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
                    self.record_last(&before, applied, None);
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
                    let note = format!(
                        "{} ({}) {text}{why}",
                        present::side_name(&self.session.game, s),
                        p.name()
                    );
                    self.record_last(&before, applied, Some(note));
                }
                _ => return,
            }
        }
    }
}

/// The log's event for a computer player's explanation.
fn computer_event(text: String) -> EventEntry {
    EventEntry {
        case: "computer".into(),
        text,
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

    /// Publishes a change: forgets the whole state view made before it and sends every
    /// watcher `{"type":"change","change":…,"events":[…]}` (`change` without `legal`).
    pub fn publish(&self, change: &StateChange, events: &[EventEntry]) {
        *self.full.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if self.tx.receiver_count() > 0 {
            #[derive(Serialize)]
            struct Msg<'a> {
                #[serde(rename = "type")]
                kind: &'static str,
                change: &'a StateChange,
                events: &'a [EventEntry],
            }
            let text = if change.legal.is_some() {
                let mut c = change.clone();
                c.legal = None;
                serde_json::to_string(&Msg {
                    kind: "change",
                    change: &c,
                    events,
                })
            } else {
                serde_json::to_string(&Msg {
                    kind: "change",
                    change,
                    events,
                })
            };
            if let Ok(t) = text {
                let _ = self.tx.send(Arc::from(t));
            }
        }
    }

    /// The pending take-back, if any.
    pub fn pending_takeback(&self) -> Option<TakeBack> {
        self.takeback
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Sets or clears the pending take-back and tells every watcher:
    /// `{"type":"takeback","takeback":{…}|null,"why":"…"}`.
    pub fn set_takeback(&self, t: Option<TakeBack>, why: &str) {
        let msg = serde_json::json!({"type": "takeback", "takeback": &t, "why": why});
        *self.takeback.lock().unwrap_or_else(|e| e.into_inner()) = t;
        let _ = self.tx.send(Arc::from(msg.to_string()));
    }
}

/// The WebSocket message for a whole state: `{"type":"state","state":…,"events":[],
/// "takeback":…}`.
pub fn ws_state_message(state: &str, takeback: Option<&TakeBack>) -> String {
    let t = serde_json::to_string(&takeback).unwrap_or_else(|_| "null".into());
    format!(r#"{{"type":"state","state":{state},"events":[],"takeback":{t}}}"#)
}

/// Serializes `head` (a struct) and adds `"change": <change>` to it.
pub fn with_change<T: Serialize>(head: &T, change: &StateChange) -> String {
    let mut s = serde_json::to_string(head).unwrap_or_else(|_| "{}".into());
    let c = serde_json::to_string(change).unwrap_or_else(|_| "null".into());
    if s.ends_with('}') {
        s.pop();
        if !s.ends_with('{') {
            s.push(',');
        }
        s.push_str("\"change\":");
        s.push_str(&c);
        s.push('}');
    }
    s
}

/// Every game the server has loaded, and the way to load one.
pub struct Games {
    store: Store,
    committer: Committer,
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
    /// Needs a Tokio runtime (it starts the committing task).
    pub fn new(store: Store, scenarios: Vec<(String, Arc<Scenario>)>) -> Games {
        Games {
            committer: Committer::start(store.clone()),
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
        let Some((_, actions, notes)) = self.store.load(&row.id).await? else {
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
        Ok(blocking(move || Live::resume(&id, sc, record, &notes)).await??)
    }

    fn new_slot(&self, row: GameRow, mode: Mode, scenario: Arc<Scenario>, live: Live) -> Slot {
        let (tx, _) = broadcast::channel(64);
        Slot {
            id: row.id.clone(),
            row,
            mode,
            scenario,
            live: tokio::sync::Mutex::new(Some(live)),
            full: Mutex::new(None),
            takeback: Mutex::new(None),
            tx,
        }
    }

    async fn load(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let Some((row, _, _)) = self.store.load(id).await? else {
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
        let slot = self.new_slot(row, mode, scenario, live);
        // a game left with dice to roll or the computer to act goes on
        let mut guard = slot.live.lock().await;
        self.run(&slot, &mut guard, false, |_, _| Ok(())).await?;
        drop(guard);
        Ok(Arc::new(slot))
    }

    /// The whole state view of the game (JSON), made when no one has asked for it since the
    /// last change.
    pub async fn full_state(&self, slot: &Slot) -> Result<Arc<str>, ApiError> {
        if let Some(s) = slot.full.lock().unwrap_or_else(|e| e.into_inner()).clone() {
            return Ok(s);
        }
        let mut guard = slot.live.lock().await;
        let live = self.ensure(slot, &mut guard).await?;
        let mut cache = slot.full.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = cache.clone() {
            return Ok(s);
        }
        let s = live.state_json(&slot.id);
        *cache = Some(s.clone());
        Ok(s)
    }

    /// Runs `change` on the game's state off the async threads, then the dice and the
    /// computer; commits every new action to the store; publishes the change (a new action
    /// cancels a pending take-back). On a refusal nothing changes; on a storage failure the
    /// state is reloaded from the store. The change lists the legal actions when `with_legal`.
    pub async fn run(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        with_legal: bool,
        change: impl FnOnce(&mut Live, &mut Applied) -> Result<(), ApiError> + Send + 'static,
    ) -> Result<(Applied, StateChange), ApiError> {
        let live = match guard.take() {
            Some(l) => l,
            None => self.load_live(&slot.row).await?,
        };
        let before = live.session.record.actions.len();
        let computer = slot.computer().map(|(s, spec)| (s, spec.to_string()));
        let seed = slot.row.seed;
        let (live, result) = blocking(move || {
            let mut live = live;
            let mut applied = Applied::default();
            let r = change(&mut live, &mut applied).map(|()| {
                live.advance(
                    computer.as_ref().map(|(s, spec)| (*s, spec.as_str())),
                    seed,
                    &mut applied,
                );
                let c = live.change(before, with_legal);
                (applied, c)
            });
            (live, r)
        })
        .await?;
        let (applied, c) = match result {
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
            if let Err(e) = self
                .committer
                .replace_tail(&slot.id, before, new, &applied.notes)
                .await
            {
                // the store holds the truth: reload from it on the next access
                return Err(e.into());
            }
            slot.publish(&c, &applied.events);
            if slot.pending_takeback().is_some() {
                slot.set_takeback(None, "a new action cancels the request to take back");
            }
        }
        *guard = Some(live);
        Ok((applied, c))
    }

    /// Takes back actions: `count` of them, all or none (5.14), and commits.
    pub async fn undo(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        count: usize,
        with_legal: bool,
    ) -> Result<(Vec<String>, StateChange), ApiError> {
        let live = match guard.take() {
            Some(l) => l,
            None => self.load_live(&slot.row).await?,
        };
        let (live, result) = blocking(move || {
            let mut live = live;
            let base = live.session.record.actions.len();
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
            let r = r.map(|undone| (undone, live.change(base, with_legal)));
            (live, r)
        })
        .await?;
        match result {
            Err(refusal) => {
                *guard = Some(live);
                Err(ApiError::refused(refusal))
            }
            Ok((undone, c)) => {
                let keep = live.session.record.actions.len();
                self.committer
                    .replace_tail(&slot.id, keep, &[], &[])
                    .await?;
                slot.publish(&c, &[]);
                *guard = Some(live);
                Ok((undone, c))
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
        let live = blocking(move || -> Result<(Live, Vec<Note>), ServerError> {
            let mut live = Live::resume(&id, sc2, record, &[])?;
            let mut applied = Applied::default();
            live.advance(
                computer.as_ref().map(|(s, spec)| (*s, spec.as_str())),
                seed,
                &mut applied,
            );
            live.units = present::units(&live.session.game);
            Ok((live, applied.notes))
        })
        .await?;
        let (live, notes) = live?;
        self.committer
            .create_game(&row, &live.session.record.actions, &notes)
            .await?;
        let slot = Arc::new(self.new_slot(row, mode, sc, live));
        let cell = Arc::new(OnceCell::new_with(Some(slot.clone())));
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(slot.id.clone(), cell);
        Ok(slot)
    }
}
