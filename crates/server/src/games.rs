//! Games in play: loading them from the store (replaying their actions), seats and tokens,
//! applying actions with the dice and the computer player that follow, undo and branching.
//!
//! A game is a [`DynGame`] from the server's [`Library`]: the server names no rules system.
//! Each game lives in a [`Slot`]: a mutex around its state (so two requests on one game
//! serialize), one broadcast channel per [`Viewer`] for its WebSocket watchers (a seat never
//! receives another seat's view), the whole state view per viewer once it has been asked for,
//! and a pending take-back request (online games). At most [`Games::capacity`] games stay in
//! memory: the least recently used idle ones are evicted and reload from the store, and a game
//! untouched for [`Games::idle`] goes even below that.
//!
//! Several servers may share one database. The state in memory knows the store's version of
//! the game it is ([`Live::version`]); a change is committed only over that version, so a
//! server whose copy is stale (another server changed the game since it loaded it) writes
//! nothing: it reloads the game, sends its watchers the whole state, and answers 409. On
//! PostgreSQL each server also hears the others' commits ([`Store::news`]) and brings the
//! games it holds up to date at once. A pending take-back request is one server's memory.

use crate::error::{ApiError, ServerError};
use crate::store::{Committer, GameRow, News, Note, Store, Version, WriteError};
use engine::dynamic::{Acted, DynGame, DynPlayer, System};
use engine::{mix, Record, Refusal, Side, ToAct, Viewer};
use present::{change_of, log_of_game, AnyLogEntry};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use systems::Library;
use tokio::sync::{broadcast, OnceCell};

/// How many games stay in memory by default.
pub const DEFAULT_LIVE_GAMES: usize = 300;

/// How long a game nobody uses stays in memory by default (see [`Games::set_idle`]).
pub const DEFAULT_IDLE: Duration = Duration::from_secs(600);

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

/// The default computer player of a system: the last of its players, which it lists weakest
/// first.
pub fn default_computer(system: &dyn System) -> String {
    system
        .players()
        .last()
        .cloned()
        .unwrap_or_else(|| "random".into())
}

/// The viewer a seat sees the game as: its own seat, or every seat's (hot-seat) as the referee.
pub fn viewer_of(seat: Option<Seat>) -> Viewer {
    match seat {
        None => Viewer::Spectator,
        Some(Seat::Both) => Viewer::Referee,
        Some(Seat::Side(s)) => Viewer::Seat(s),
    }
}

/// The units of a state view (its `units` list).
/// What a viewer last saw of the view's bulky parts: its units and its overlays.
type Remembered = (Vec<Value>, Option<Value>);

fn remembered_of(view: &Value) -> Remembered {
    (
        view.get("units")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        view.get("overlays").cloned(),
    )
}

/// A game in play, in memory.
pub struct Live {
    /// The record and the state.
    pub game: Box<dyn DynGame>,
    /// Its rules system (for its computer players).
    pub system: Arc<dyn System>,
    /// The log of every recorded action.
    pub log: Vec<AnyLogEntry>,
    /// Per log entry, who could read its text when it was made ([`readers`]): a past action
    /// hidden then stays hidden when the rules later let the viewer see that seat's doings
    /// (Reconnaissance ends), until the game is over. Made as the actions are taken and again
    /// by the replay that loads a game from the store.
    seen: Vec<u64>,
    /// The computer player, kept between requests so that a plan it made for a player-turn
    /// survives the human's retreats in the middle of it (made afresh after a restart or an
    /// undo, seeded from the game's seed and the record's length).
    pub player: Option<Box<dyn DynPlayer>>,
    /// Per viewer, the units and overlays of the view of a state (record length and state
    /// hash) it last saw: a change lists only the units that differ, and the overlays only
    /// when they differ.
    units: Vec<(Viewer, usize, u64, Remembered)>,
    /// The store's version of the game this state is (0 for a game made outside a store).
    version: Version,
}

/// What the dice and the computer did after an action.
#[derive(Debug, Default, Serialize)]
pub struct Applied {
    /// The accepted actions' texts, in order.
    pub accepted: Vec<String>,
    /// Their events, in order (the computer's explanations with case `computer`).
    pub events: Vec<Value>,
    /// The computer's explanations by record position (0-based), to store.
    pub notes: Vec<Note>,
    /// True when the computer's search was stopped because its game was abandoned: its
    /// choice was dropped and the game waits for the computer (resumed on the next request).
    pub stalled: bool,
}

/// One change as one viewer sees it.
#[derive(Debug, Default)]
pub struct Seen {
    /// The change (`docs/api.md`) as JSON text, made once and sent as it is.
    pub change: String,
    /// The texts of the actions it added, as the viewer may see them (empty when hidden).
    pub accepted: Vec<String>,
    /// Their events, as the viewer may see them.
    pub events: Vec<Value>,
}

/// The changes one change made, as each viewer that needs one sees it.
#[derive(Debug, Default)]
pub struct Changes {
    /// The change for the requester's viewer (with `legal` when asked for).
    pub reply: Seen,
    /// The change (without `legal`) for each viewer with watchers.
    pub watchers: Vec<(Viewer, Seen)>,
}

impl Live {
    /// A game in memory from a made game; `notes` are the computer's stored explanations.
    pub fn of(game: Box<dyn DynGame>, library: &Library, notes: &[Note]) -> Result<Live, String> {
        let system = library
            .system(game.system())
            .map_err(|e| e.to_string())?
            .clone();
        let log = log_of_game(&*game);
        // a new game has no actions; any it had were made before it was ours to watch, so
        // who could read them then is what the state says now
        let seen = log
            .iter()
            .map(|e| readers(&*game, side_named(&*game, &e.side)))
            .collect();
        Ok(Live::assemble(game, system, log, seen, notes))
    }

    /// A game in memory with its log, the computer's stored explanations put back in it.
    fn assemble(
        mut game: Box<dyn DynGame>,
        system: Arc<dyn System>,
        mut log: Vec<AnyLogEntry>,
        seen: Vec<u64>,
        notes: &[Note],
    ) -> Live {
        for (idx, text) in notes {
            if let Some(e) = log.get_mut(*idx) {
                e.events.insert(0, computer_event(text.clone()));
                // the record keeps what the computer said, without who and what (the stored
                // note is `SIDE (PLAYER) ACTION: WHY`)
                let why = text
                    .split_once(&format!(" {}: ", e.action))
                    .map(|(_, why)| why.to_string());
                if why.is_some() {
                    game.set_note(*idx, why);
                }
            }
        }
        Live {
            game,
            system,
            log,
            seen,
            player: None,
            units: Vec::new(),
            version: 0,
        }
    }

    /// Rebuilds a game from its record in one replay that also narrates the log: the game is
    /// made anew under the system the record names and each recorded action is taken again
    /// (a seeded die rolled again), and every replayed entry (text, physical die, state hash)
    /// must be the recorded one.
    pub fn resume(
        id: &str,
        library: &Library,
        record: Record,
        notes: &[Note],
    ) -> Result<Live, ServerError> {
        let corrupt = |why: String| ServerError::Corrupt {
            id: id.to_string(),
            why,
        };
        let system = library
            .registry()
            .for_record(&record)
            .map_err(|e| corrupt(e.to_string()))?
            .clone();
        let mut game = library
            .new_game(&record.scenario, Some(system.id()), record.seed)
            .map_err(|e| corrupt(e.to_string()))?;
        if game.record().scenario_digest != record.scenario_digest {
            return Err(corrupt(format!(
                "its scenario '{}' changed since the game was recorded",
                record.scenario
            )));
        }
        let seats = game.seats();
        let mut log = Vec::with_capacity(record.actions.len());
        let mut seen = Vec::with_capacity(record.actions.len());
        for (i, r) in record.actions.iter().enumerate() {
            let before = readers_to_act(&*game);
            let acted = match game.to_act() {
                ToAct::Chance if !r.manual => game.roll(),
                _ => game.act(&r.text).ok(),
            };
            let again = game.record().actions.last();
            let same = acted.is_some()
                && again.is_some_and(|x| {
                    x.text == r.text
                        && x.manual == r.manual
                        && (r.hash.is_none() || x.hash == r.hash)
                });
            let Some(acted) = acted.filter(|_| same) else {
                return Err(corrupt(format!(
                    "action {} ('{}') does not replay as recorded",
                    i + 1,
                    r.text
                )));
            };
            seen.push(before & readers(&*game, acted.seat));
            log.push(AnyLogEntry::of(&acted, &seats));
        }
        Ok(Live::assemble(game, system, log, seen, notes))
    }

    /// The store's version of the game this state is: a change is committed only over this
    /// version (another server may have changed the game since).
    pub fn version(&self) -> Version {
        self.version
    }

    /// The record's length.
    pub fn len(&self) -> usize {
        self.game.record().actions.len()
    }

    /// True before the first action.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole state view `viewer` may see, with the server's `id` and `log`.
    pub fn view(&self, viewer: Viewer, id: &str) -> Value {
        let mut v = self.game.view(viewer);
        if let Value::Object(m) = &mut v {
            m.insert("id".into(), Value::from(id));
            m.insert(
                "log".into(),
                serde_json::to_value(self.log_for(viewer, &self.log)).unwrap_or_default(),
            );
        }
        v
    }

    /// True when `viewer` may read the texts of every action (the record): the game is over,
    /// or the rules let it see what every seat does and it could read every past action when
    /// it was made.
    pub fn sees_all(&self, viewer: Viewer) -> bool {
        matches!(self.game.to_act(), ToAct::Over(_))
            || ((0..self.game.seats().len()).all(|s| self.game.visible(Side(s as u8), viewer))
                && self.seen.iter().all(|&m| may_read(m, viewer)))
    }

    /// Log entries as `viewer` may see them: an action of a seat whose doings the rules hide
    /// from the viewer now, or hid from it when the action was made, has an empty text and no
    /// computer's explanation (its events, which a system must keep free of hidden facts,
    /// stay). Once the game is over every text is shown.
    pub fn log_for(&self, viewer: Viewer, entries: &[AnyLogEntry]) -> Vec<AnyLogEntry> {
        if self.sees_all(viewer) {
            return entries.to_vec();
        }
        let seats = self.game.seats();
        let shown = |e: &AnyLogEntry| {
            let now = match seats.iter().position(|x| *x == e.side) {
                Some(i) => self.game.visible(Side(i as u8), viewer),
                None => true, // chance
            };
            let then =
                e.n.checked_sub(1)
                    .and_then(|i| self.seen.get(i))
                    .is_none_or(|&m| may_read(m, viewer));
            now && then
        };
        entries
            .iter()
            .map(|e| {
                if shown(e) {
                    return e.clone();
                }
                AnyLogEntry {
                    n: e.n,
                    side: e.side.clone(),
                    action: String::new(),
                    events: e
                        .events
                        .iter()
                        .filter(|x| x.get("kind").and_then(Value::as_str) != Some("computer"))
                        .cloned()
                        .collect(),
                }
            })
            .collect()
    }

    /// Remembers the units `viewer` sees now, unless already known: the base of its next
    /// change.
    pub fn remember(&mut self, viewer: Viewer) {
        let (n, h) = (self.len(), self.game.state_hash());
        if self
            .units
            .iter()
            .any(|(v, vn, vh, _)| *v == viewer && *vn == n && *vh == h)
        {
            return;
        }
        let units = remembered_of(&self.game.view_without_legal(viewer));
        self.units.retain(|(v, ..)| *v != viewer);
        self.units.push((viewer, n, h, units));
    }

    /// The changes from the state of `base` actions (whose units each viewer remembered) to
    /// now: for `reply` (with the legal actions when `with_legal`) and for each of `watched`
    /// (without them). The units are remembered for the next change.
    ///
    /// Each viewer's change is made once from the view without its legal actions and
    /// serialized once; the legal actions, most of a reply's bytes, go from the rules' typed
    /// form straight to text ([`DynGame::legal_json`]) into the reply alone.
    pub fn changes(
        &mut self,
        base: usize,
        reply: Viewer,
        with_legal: bool,
        watched: &[Viewer],
    ) -> Changes {
        let (n, h) = (self.len(), self.game.state_hash());
        let mut out = Changes::default();
        let mut viewers = vec![reply];
        viewers.extend(watched.iter().copied().filter(|v| *v != reply));
        let tail = &self.log[base.min(self.log.len())..];
        for viewer in viewers {
            let now = self.game.view_without_legal(viewer);
            let (before, before_overlays) = match self.units.iter().position(|(v, ..)| *v == viewer)
            {
                Some(i) => self.units.swap_remove(i).3,
                None => (Vec::new(), None),
            };
            let added = self.log_for(viewer, tail);
            let change =
                change_of(base, &before, before_overlays.as_ref(), &now, &added, false).to_string();
            let seen = |change: String| Seen {
                change,
                accepted: added.iter().map(|e| e.action.clone()).collect(),
                events: added
                    .iter()
                    .flat_map(|e| e.events.iter().cloned())
                    .collect(),
            };
            if watched.contains(&viewer) {
                out.watchers.push((viewer, seen(change.clone())));
            }
            if viewer == reply {
                let legal = if with_legal {
                    self.game.legal_json(viewer)
                } else {
                    String::new()
                };
                out.reply = seen(with_members(change, &legal));
            }
            self.units.push((viewer, n, h, remembered_of(&now)));
        }
        out
    }

    /// Logs an applied action; `before` is who could read an action of the seat that took it
    /// in the state it was taken in ([`readers_to_act`]).
    fn record(&mut self, acted: &Acted, applied: &mut Applied, note: Option<String>, before: u64) {
        self.seen.push(before & readers(&*self.game, acted.seat));
        let seats = self.game.seats();
        let mut entry = AnyLogEntry::of(acted, &seats);
        if let Some(note) = note {
            entry.events.insert(0, computer_event(note.clone()));
            applied.notes.push((acted.n.saturating_sub(1), note));
        }
        applied.events.extend(entry.events.iter().cloned());
        applied.accepted.push(acted.text.clone());
        self.log.push(entry);
    }

    /// Applies a player's action text. Nothing changes when it is refused.
    pub fn act(&mut self, text: &str, applied: &mut Applied) -> Result<(), Refusal> {
        let before = readers_to_act(&*self.game);
        let acted = self.game.act(text)?;
        self.record(&acted, applied, None, before);
        Ok(())
    }

    /// Takes back the last `count` actions, all or none, as the rules allow: the texts taken
    /// back, newest first.
    pub fn undo(&mut self, count: usize) -> Result<Vec<String>, Refusal> {
        if self.game.undoable() < count {
            return Err(self.game.undo_refusal());
        }
        let n = self.len();
        let undone = self.game.record().actions[n - count..]
            .iter()
            .rev()
            .map(|r| r.text.clone())
            .collect();
        self.game.truncate(n - count);
        self.log.truncate(n - count);
        self.seen.truncate(n - count);
        self.player = None;
        Ok(undone)
    }

    /// Lets the computer finish a step for a seat ("let the computer finish this step for
    /// me", such as a set-up's placements): the system's player `spec` chooses `seat`'s
    /// actions while `seat` is to act and the step stays the one it was (the state view's
    /// `turn`, `phase` and `step`), at most `limit` of them. Refused when `seat` is not to act.
    /// A refused choice (a player's bug) ends it there. What the computer says of its choices
    /// is recorded as the computer opponent's is (an event first in the action's log entry, and
    /// the record's note). The dice and the computer opponent follow as after any action
    /// ([`Live::advance`]).
    pub fn finish_step(
        &mut self,
        seat: Side,
        spec: &str,
        seed: u64,
        limit: usize,
        applied: &mut Applied,
    ) -> Result<(), String> {
        if self.game.to_act() != ToAct::Side(seat) {
            return Err("there is no step of yours to finish: it is not your turn to act".into());
        }
        let step = |g: &dyn DynGame| {
            let v = g.view_without_legal(Viewer::Referee);
            (v["turn"].clone(), v["phase"].clone(), v["step"].clone())
        };
        let start = step(&*self.game);
        let mut player = self
            .system
            .player(spec, mix(seed ^ 0x6669_6e69, self.len() as u64))?;
        for _ in 0..limit.min(ADVANCE_LIMIT) {
            if self.game.to_act() != ToAct::Side(seat) || step(&*self.game) != start {
                break;
            }
            let text = player.choose(&*self.game);
            let before = readers_to_act(&*self.game);
            let Ok(acted) = self.game.act(&text) else {
                tracing::warn!("the computer player {spec} chose a refused action {text}");
                break;
            };
            // what the computer says of its choice is recorded as the computer opponent's is
            // (an event, and the record's note): see [`Live::advance`]
            let note = explained(&mut *self.game, seat, &*player, &acted);
            self.record(&acted, applied, note, before);
        }
        Ok(())
    }

    /// Rolls the record's seeded dice at every chance event and lets the computer act while it
    /// is to act.
    ///
    /// `stop` is the game's abandonment flag ([`Slot::abandon`]): the computer's search stops
    /// when it is set, its choice is dropped and the advance ends with the computer to act
    /// (`applied.stalled`).
    pub fn advance(
        &mut self,
        computer: Option<(Side, &str)>,
        seed: u64,
        stop: &Arc<AtomicBool>,
        applied: &mut Applied,
    ) {
        for _ in 0..ADVANCE_LIMIT {
            match self.game.to_act() {
                ToAct::Chance => {
                    let Some(acted) = self.game.roll() else {
                        return;
                    };
                    self.record(&acted, applied, None, u64::MAX);
                }
                ToAct::Side(s) if computer.is_some_and(|c| c.0 == s) => {
                    let spec = computer.map_or("random", |c| c.1);
                    if self.player.is_none() {
                        let seed = mix(seed ^ 0x636f_6d70, self.len() as u64);
                        self.player = self.system.player(spec, seed).ok();
                    }
                    let Some(p) = self.player.as_mut() else {
                        return;
                    };
                    p.stop_on(stop.clone());
                    let text = p.choose(&*self.game);
                    let before = readers_to_act(&*self.game);
                    if stop.load(Ordering::SeqCst) {
                        // no one waits for this move: leave it to be thought afresh
                        self.player = None;
                        applied.stalled = true;
                        return;
                    }
                    let acted = match self.game.act(&text) {
                        Ok(a) => a,
                        Err(_) => {
                            // a player bug: take the first legal action so the game goes on
                            tracing::warn!(
                                "the computer player {spec} chose a refused action {text}"
                            );
                            let first = self.game.legal().first().map(|a| a.text.clone());
                            match first.map(|t| self.game.act(&t)) {
                                Some(Ok(a)) => a,
                                _ => return,
                            }
                        }
                    };
                    // the computer speaks when it has something to say (its plan once, with
                    // the phase's first action; a combat choice): no event otherwise. What it
                    // says is kept in the record too (`Recorded::note`).
                    let note = explained(&mut *self.game, s, &**p, &acted);
                    self.record(&acted, applied, note, before);
                }
                _ => return,
            }
        }
    }
}

/// What a computer player says of the action it just took, kept as the record's note and
/// returned as the event that heads the action's log entry (`"French (search) end: ..."`); `None`
/// when it says nothing (it speaks with a phase's first action, or a combat choice).
fn explained(
    game: &mut dyn DynGame,
    seat: Side,
    player: &dyn DynPlayer,
    acted: &Acted,
) -> Option<String> {
    let why = player.explain()?;
    let side = game
        .seats()
        .get(seat.0 as usize)
        .cloned()
        .unwrap_or_default();
    game.set_note(acted.n.saturating_sub(1), Some(why.clone()));
    Some(format!("{side} ({}) {}: {why}", player.name(), acted.text))
}

/// The bit of [`readers`] that stands for spectators (seats have the bits below it).
const SPECTATOR_BIT: u64 = 1 << 62;

/// Who may read the text of an action of `seat` (`None`: a chance outcome) in the game's
/// state now, by the rules' visibility (`DynGame::visible`): bit `i` for seat `i`,
/// [`SPECTATOR_BIT`] for spectators. The referee reads everything.
fn readers(game: &dyn DynGame, seat: Option<Side>) -> u64 {
    let Some(owner) = seat else {
        return u64::MAX;
    };
    let mut m = 0u64;
    for i in 0..game.seats().len().min(62) {
        if game.visible(owner, Viewer::Seat(Side(i as u8))) {
            m |= 1 << i;
        }
    }
    if game.visible(owner, Viewer::Spectator) {
        m |= SPECTATOR_BIT;
    }
    m
}

/// [`readers`] of an action of the seat to act now (everyone for a chance outcome).
fn readers_to_act(game: &dyn DynGame) -> u64 {
    match game.to_act() {
        ToAct::Side(s) => readers(game, Some(s)),
        _ => u64::MAX,
    }
}

/// The seat of a log entry's side name (`None` for chance).
fn side_named(game: &dyn DynGame, name: &str) -> Option<Side> {
    game.seats()
        .iter()
        .position(|x| x == name)
        .map(|i| Side(i as u8))
}

/// True when a [`readers`] mask lets `viewer` read the action.
fn may_read(mask: u64, viewer: Viewer) -> bool {
    match viewer {
        Viewer::Referee => true,
        Viewer::Seat(s) => s.0 >= 62 || mask & (1 << s.0) != 0,
        Viewer::Spectator => mask & SPECTATOR_BIT != 0,
    }
}

/// The log's event for a computer player's explanation.
fn computer_event(text: String) -> Value {
    serde_json::json!({"case": "computer", "kind": "computer", "text": text})
}

/// One game: its fixed facts, its state behind a mutex, and its watchers.
pub struct Slot {
    /// The game's id.
    pub id: String,
    /// Its row (mode, tokens, computer): fixed for the game's life.
    pub row: GameRow,
    /// How it is played.
    pub mode: Mode,
    /// Its seats' names, in seat order.
    pub seats: Vec<String>,
    /// The state; `None` after a failure, until it is reloaded from the store.
    pub live: tokio::sync::Mutex<Option<Live>>,
    /// The whole state view (JSON) of the committed state per viewer, once someone has asked
    /// for it (cleared by every change, made again on demand).
    pub full: Mutex<Vec<(Viewer, Arc<str>)>>,
    /// The take-back waiting for the opponent's consent (online games; not stored: a restart
    /// forgets it, and it is this server's alone: another server on the same database neither
    /// sees nor answers it).
    pub takeback: Mutex<Option<TakeBack>>,
    /// Messages for WebSocket watchers, one channel per viewer.
    pub channels: Mutex<Vec<(Viewer, broadcast::Sender<Arc<str>>)>>,
    /// The store's version of the state in memory, as last committed or loaded (read without
    /// the state's lock, to skip news of a version already held).
    version: AtomicU64,
    /// Requests of changes whose clients still wait for the reply ([`Slot::waiting`]).
    waiting: AtomicUsize,
    /// Set when no one waits for the game any more (no client waiting for a change, no
    /// watcher): the computer's search stops ([`Live::advance`]). Cleared by every change.
    abandon: Arc<AtomicBool>,
    /// True when the computer's search was stopped and its move is still to be made: the next
    /// request resumes it ([`Games::slot`]).
    stalled: AtomicBool,
}

/// A client waiting for a change to a game ([`Slot::waiting`]): when it is dropped before
/// [`Waiting::done`] (the client hung up) and no one else waits or watches, the game is
/// abandoned and the computer's search stops.
pub struct Waiting(Arc<Slot>);

impl Waiting {
    /// The change was answered.
    pub fn done(self) {
        self.0.waiting.fetch_sub(1, Ordering::SeqCst);
        std::mem::forget(self);
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::SeqCst);
        self.0.abandon_if_alone();
    }
}

impl Slot {
    /// Counts a client waiting for a change until the returned [`Waiting`] is done or
    /// dropped.
    pub fn waiting(self: &Arc<Slot>) -> Waiting {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        self.abandon.store(false, Ordering::SeqCst);
        Waiting(self.clone())
    }

    /// Stops the computer's search when no client waits for a change and no one watches: a
    /// search of an abandoned game goes on for nobody. Called when a waiting client hangs up
    /// and when a watcher leaves.
    pub fn abandon_if_alone(&self) {
        if self.waiting.load(Ordering::SeqCst) == 0 && self.watched().is_empty() {
            self.abandon.store(true, Ordering::SeqCst);
        }
    }

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

    /// The viewer of a request: a seat token's (401 when it is not one of this game's), or a
    /// spectator without one.
    pub fn viewer(&self, token: Option<&str>) -> Result<Viewer, ApiError> {
        match token {
            None => Ok(Viewer::Spectator),
            Some(t) => Ok(viewer_of(Some(self.seat(Some(t))?))),
        }
    }

    /// A seat's name (`both` for every seat).
    pub fn seat_name(&self, seat: Seat) -> String {
        match seat {
            Seat::Both => "both".into(),
            Seat::Side(s) => self.seats.get(s.0 as usize).cloned().unwrap_or_default(),
        }
    }

    /// A new watcher of `viewer`'s messages.
    pub fn subscribe(&self, viewer: Viewer) -> broadcast::Receiver<Arc<str>> {
        let mut ch = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, tx)) = ch.iter().find(|(v, _)| *v == viewer) {
            return tx.subscribe();
        }
        let (tx, rx) = broadcast::channel(64);
        ch.push((viewer, tx));
        rx
    }

    /// The viewers someone watches now.
    pub fn watched(&self) -> Vec<Viewer> {
        let ch = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        ch.iter()
            .filter(|(_, tx)| tx.receiver_count() > 0)
            .map(|(v, _)| *v)
            .collect()
    }

    /// True when nothing but the list of games holds it and nothing waits on it: it may be
    /// evicted.
    fn idle(&self) -> bool {
        self.watched().is_empty() && self.pending_takeback().is_none()
    }

    /// Publishes a change: forgets the whole state views made before it and sends each
    /// watcher `{"type":"change","change":…,"events":[…]}` as its viewer sees it.
    pub fn publish(&self, changes: &[(Viewer, Seen)], with_events: bool) {
        self.full.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let ch = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        for (viewer, seen) in changes {
            if let Some((_, tx)) = ch.iter().find(|(v, _)| v == viewer) {
                let events = if with_events { &seen.events[..] } else { &[] };
                let events = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
                let msg = format!(
                    r#"{{"type":"change","change":{},"events":{events}}}"#,
                    seen.change
                );
                let _ = tx.send(Arc::from(msg));
            }
        }
    }

    /// The store's version of the game in memory, as last committed or loaded.
    pub fn version(&self) -> Version {
        self.version.load(Ordering::SeqCst)
    }

    /// Forgets the whole state views made so far.
    fn clear_full(&self) {
        self.full.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The whole state view made for `viewer` since the last change, if any.
    fn cached(&self, viewer: Viewer) -> Option<Arc<str>> {
        self.full
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(v, _)| *v == viewer)
            .map(|(_, s)| s.clone())
    }

    /// The whole state view of `live` (this game's state) for `viewer`, made once per change;
    /// the units it shows are the base of the viewer's next change.
    fn full_view(&self, live: &mut Live, viewer: Viewer) -> Arc<str> {
        if let Some(s) = self.cached(viewer) {
            return s;
        }
        let view = live.view(viewer, &self.id);
        live.units.retain(|(v, ..)| *v != viewer);
        let (n, h) = (live.len(), live.game.state_hash());
        live.units.push((viewer, n, h, remembered_of(&view)));
        let s: Arc<str> = Arc::from(view.to_string());
        self.full
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((viewer, s.clone()));
        s
    }

    /// Sends the whole state of `live` to every watcher, as its viewer sees it (a `state`
    /// message): after the state was reloaded from the store.
    fn publish_state(&self, live: &mut Live) {
        let takeback = self.pending_takeback();
        for viewer in self.watched() {
            let state = self.full_view(live, viewer);
            let msg: Arc<str> = Arc::from(ws_state_message(&state, takeback.as_ref()));
            let ch = self.channels.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, tx)) = ch.iter().find(|(v, _)| *v == viewer) {
                let _ = tx.send(msg);
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
        let msg: Arc<str> = Arc::from(
            serde_json::json!({"type": "takeback", "takeback": &t, "why": why}).to_string(),
        );
        *self.takeback.lock().unwrap_or_else(|e| e.into_inner()) = t;
        let ch = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        for (_, tx) in ch.iter() {
            let _ = tx.send(msg.clone());
        }
    }
}

/// The WebSocket message for a whole state: `{"type":"state","state":…,"events":[],
/// "takeback":…}`.
pub fn ws_state_message(state: &str, takeback: Option<&TakeBack>) -> String {
    let t = serde_json::to_string(&takeback).unwrap_or_else(|_| "null".into());
    format!(r#"{{"type":"state","state":{state},"events":[],"takeback":{t}}}"#)
}

/// Serializes `head` (a struct) and adds `"change": <change>` (JSON text) to it.
pub fn with_change<T: Serialize>(head: &T, change: &str) -> String {
    let head = serde_json::to_string(head).unwrap_or_else(|_| "{}".into());
    with_members(head, &format!(r#""change":{change}"#))
}

/// A JSON object's text with more members (`"k":v,…`) added at its end.
pub fn with_members(mut object: String, members: &str) -> String {
    if members.is_empty() || !object.ends_with('}') {
        return object;
    }
    object.pop();
    if !object.ends_with('{') {
        object.push(',');
    }
    object.push_str(members);
    object.push('}');
    object
}

/// How a created game starts.
pub enum Start {
    /// A new game, made by the library.
    New(Box<dyn DynGame>),
    /// A branch: the first actions of another game's record, replayed once.
    Replay(Record),
}

struct Loaded {
    cell: Arc<OnceCell<Arc<Slot>>>,
    /// The tick of its last access (the least recently used goes first).
    used: u64,
    /// The time of its last access (a game untouched for the idle time goes).
    at: Instant,
}

impl Loaded {
    /// True when nothing but the list of games holds it and nothing waits on it: no request
    /// holds it, no one watches it, no take-back waits (or it is an attempt to load that
    /// no one waits for any more).
    fn evictable(&self) -> bool {
        Arc::strong_count(&self.cell) == 1
            && self
                .cell
                .get()
                .is_none_or(|s| Arc::strong_count(s) == 1 && s.idle())
    }
}

/// Every game the server has loaded, and the way to load one.
///
/// Two background tasks go with it, and stop when it is dropped: the idle sweep (a game
/// untouched for [`Games::idle`] leaves memory) and, on PostgreSQL, the news of other
/// servers' changes (a game held here that another server changed is reloaded, and its
/// watchers are sent the whole state).
pub struct Games {
    core: Arc<Core>,
    tasks: Vec<tokio::task::AbortHandle>,
}

/// What [`Games`] and its background tasks share.
struct Core {
    store: Store,
    committer: Committer,
    library: Library,
    capacity: usize,
    /// How long an untouched game stays in memory, in milliseconds.
    idle_ms: AtomicU64,
    /// Wakes the sweep when the idle time changes.
    idle_changed: tokio::sync::Notify,
    loaded: Mutex<(u64, HashMap<String, Loaded>)>,
    /// How many computer searches stopped because their game was abandoned.
    stopped_searches: AtomicU64,
}

impl Drop for Games {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// Runs blocking game work (replays, the computer player) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("the game's work failed: {e}")))
}

/// What a player is told when another server changed the game first.
const CONFLICT: &str = "another server changed this game first; reload";

/// The idle sweep: now and then (a quarter of the idle time, between 10 ms and a minute, and
/// whenever the idle time changes), evicts the games untouched for the idle time.
async fn sweep(core: Arc<Core>) {
    loop {
        let period = (core.idle() / 4).clamp(Duration::from_millis(10), Duration::from_secs(60));
        tokio::select! {
            _ = tokio::time::sleep(period) => {}
            _ = core.idle_changed.notified() => {}
        }
        core.sweep();
    }
}

/// Hears other servers' changes (PostgreSQL): each game held here at an older version is
/// brought up to date, off this task.
async fn hear(core: Arc<Core>, mut news: tokio::sync::mpsc::UnboundedReceiver<News>) {
    while let Some(n) = news.recv().await {
        match n {
            News::Changed(id, version) => {
                // this server's own commits, and news it already has, end here
                match core.held(&id) {
                    Some(slot) if slot.version() >= version => continue,
                    Some(_) => {}
                    // a game loading now is caught up once loaded; others are not here
                    None if !core.is_loaded(&id) => continue,
                    None => {}
                }
                tokio::spawn(core.clone().catch_up(id, Some(version)));
            }
            News::Missed => {
                for id in core.ids() {
                    tokio::spawn(core.clone().catch_up(id, None));
                }
            }
        }
    }
}

impl Games {
    /// Over a store and a library of rules systems and scenarios, keeping at most `capacity`
    /// games in memory (at least one), each for at most [`DEFAULT_IDLE`] untouched. Needs a
    /// Tokio runtime (it starts the committing task, the idle sweep and, on PostgreSQL, the
    /// listener of other servers' changes).
    pub fn new(store: Store, library: Library, capacity: usize) -> Games {
        let core = Arc::new(Core {
            committer: Committer::start(store.clone()),
            store,
            library,
            capacity: capacity.max(1),
            idle_ms: AtomicU64::new(DEFAULT_IDLE.as_millis() as u64),
            idle_changed: tokio::sync::Notify::new(),
            loaded: Mutex::new((0, HashMap::new())),
            stopped_searches: AtomicU64::new(0),
        });
        let mut tasks = vec![tokio::spawn(sweep(core.clone())).abort_handle()];
        if let Some(news) = core.store.news() {
            tasks.push(tokio::spawn(hear(core.clone(), news)).abort_handle());
        }
        Games { core, tasks }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.core.store
    }

    /// The rules systems and scenarios.
    pub fn library(&self) -> &Library {
        &self.core.library
    }

    /// The most games kept in memory.
    pub fn capacity(&self) -> usize {
        self.core.capacity
    }

    /// How long a game nobody uses stays in memory.
    pub fn idle(&self) -> Duration {
        self.core.idle()
    }

    /// Sets how long a game nobody uses stays in memory (at least a millisecond): a game no
    /// request has touched for that long, that no one watches and where no take-back waits,
    /// is dropped (it reloads from the store on its next request), however few games are
    /// loaded.
    pub fn set_idle(&self, idle: Duration) {
        let ms = idle.as_millis().clamp(1, u128::from(u64::MAX)) as u64;
        self.core.idle_ms.store(ms, Ordering::SeqCst);
        self.core.idle_changed.notify_one();
    }

    /// How many games are in memory now.
    pub fn loaded(&self) -> usize {
        self.core.lock().1.len()
    }

    /// True when the game `id` is in memory now.
    pub fn is_loaded(&self, id: &str) -> bool {
        self.core.is_loaded(id)
    }

    /// The game `id`, loaded from the store on first access (404 when there is none).
    ///
    /// A game whose computer stopped thinking when it was abandoned is resumed here: someone
    /// is back, so the computer makes its move (in a task of its own; the watchers are told).
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self.core.slot(id).await?;
        if slot.stalled.swap(false, Ordering::SeqCst) {
            let (core, s) = (self.core.clone(), slot.clone());
            tokio::spawn(async move {
                let mut guard = s.live.lock().await;
                s.abandon.store(false, Ordering::SeqCst);
                if let Err(e) = core
                    .run(&s, &mut guard, Viewer::Spectator, false, |_, _| Ok(()))
                    .await
                {
                    tracing::warn!("game {}: resuming the computer: {}", s.id, e.why);
                }
            });
        }
        Ok(slot)
    }

    /// How many computer searches stopped because their game was abandoned.
    pub fn stopped_searches(&self) -> u64 {
        self.core.stopped_searches.load(Ordering::SeqCst)
    }

    /// Makes sure the game's state is in memory (reloading it from the store after a failure)
    /// and returns it.
    pub async fn ensure<'g>(
        &self,
        slot: &Slot,
        guard: &'g mut Option<Live>,
    ) -> Result<&'g mut Live, ApiError> {
        self.core.ensure(slot, guard).await
    }

    /// The whole state view of the game (JSON) as `viewer` sees it, made when no one has
    /// asked for it since the last change.
    pub async fn full_state(&self, slot: &Slot, viewer: Viewer) -> Result<Arc<str>, ApiError> {
        if let Some(s) = slot.cached(viewer) {
            return Ok(s);
        }
        let mut guard = slot.live.lock().await;
        let live = self.core.ensure(slot, &mut guard).await?;
        Ok(slot.full_view(live, viewer))
    }

    /// Runs `change` on the game's state off the async threads, then the dice and the
    /// computer; commits every new action to the store; publishes the change to every
    /// watcher as its viewer sees it (a new action cancels a pending take-back). On a refusal
    /// nothing changes. When another server changed the game first (its version in the store
    /// is not the one of the state in memory) nothing is written: the game is reloaded from
    /// the store, its watchers are sent the whole state, and the answer is 409 (`conflict`).
    /// On another storage failure the state is reloaded from the store on the next access.
    /// The change answered is `viewer`'s, with the legal actions when `with_legal`.
    pub async fn run(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        viewer: Viewer,
        with_legal: bool,
        change: impl FnOnce(&mut Live, &mut Applied) -> Result<(), ApiError> + Send + 'static,
    ) -> Result<(Applied, Seen), ApiError> {
        self.core.run(slot, guard, viewer, with_legal, change).await
    }

    /// Takes back actions: `count` of them, all or none (the rules' limits), and commits
    /// (409 when another server changed the game first, as for [`Games::run`]). The change
    /// answered is `viewer`'s.
    pub async fn undo(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        count: usize,
        viewer: Viewer,
        with_legal: bool,
    ) -> Result<(Vec<String>, Seen), ApiError> {
        self.core.undo(slot, guard, count, viewer, with_legal).await
    }

    /// Creates a game from `row` and its game (new, or a branch's replay), lets the dice and
    /// the computer act, and stores it.
    pub async fn create(&self, row: GameRow, start: Start) -> Result<Arc<Slot>, ApiError> {
        self.core.create(row, start).await
    }
}

impl Core {
    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, HashMap<String, Loaded>)> {
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn idle(&self) -> Duration {
        Duration::from_millis(self.idle_ms.load(Ordering::SeqCst))
    }

    fn is_loaded(&self, id: &str) -> bool {
        self.lock().1.contains_key(id)
    }

    /// The game `id` when it is in memory and loaded.
    fn held(&self, id: &str) -> Option<Arc<Slot>> {
        self.lock().1.get(id).and_then(|l| l.cell.get().cloned())
    }

    /// The ids of the games in memory.
    fn ids(&self) -> Vec<String> {
        self.lock().1.keys().cloned().collect()
    }

    /// Evicts the least recently used idle games while more than the capacity are loaded.
    /// A game is idle when no request holds it, no one watches it and no take-back waits.
    fn evict(&self) {
        let mut guard = self.lock();
        let map = &mut guard.1;
        if map.len() <= self.capacity {
            return;
        }
        let mut idle: Vec<(u64, String)> = map
            .iter()
            .filter(|(_, l)| l.evictable())
            .map(|(id, l)| (l.used, id.clone()))
            .collect();
        idle.sort();
        let excess = map.len() - self.capacity;
        for (_, id) in idle.into_iter().take(excess) {
            map.remove(&id);
        }
    }

    /// Evicts every idle game untouched for the idle time, however few are loaded.
    fn sweep(&self) {
        let idle = self.idle();
        let now = Instant::now();
        self.lock()
            .1
            .retain(|_, l| now.saturating_duration_since(l.at) < idle || !l.evictable());
    }

    /// Forgets a failed attempt to load `id` (unknown ids must not pile up).
    fn forget_failed(&self, id: &str) {
        let mut guard = self.lock();
        if guard.1.get(id).is_some_and(|l| l.cell.get().is_none()) {
            guard.1.remove(id);
        }
    }

    async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if !valid_game_id(id) {
            return Err(ApiError::not_found(format!("there is no game '{id}'")));
        }
        let cell = {
            let mut guard = self.lock();
            guard.0 += 1;
            let tick = guard.0;
            let now = Instant::now();
            let l = guard.1.entry(id.to_string()).or_insert_with(|| Loaded {
                cell: Arc::default(),
                used: tick,
                at: now,
            });
            l.used = tick;
            l.at = now;
            l.cell.clone()
        };
        let r = cell.get_or_try_init(|| self.load(id)).await.cloned();
        drop(cell);
        if r.is_err() {
            self.forget_failed(id);
        } else {
            self.evict();
        }
        r
    }

    async fn ensure<'g>(
        &self,
        slot: &Slot,
        guard: &'g mut Option<Live>,
    ) -> Result<&'g mut Live, ApiError> {
        if guard.is_none() {
            let live = self.load_live(&slot.row).await?;
            slot.version.store(live.version, Ordering::SeqCst);
            *guard = Some(live);
        }
        guard
            .as_mut()
            .ok_or_else(|| ApiError::internal("the game could not be loaded"))
    }

    async fn load_live(&self, row: &GameRow) -> Result<Live, ApiError> {
        let Some(stored) = self.store.stored(&row.id).await? else {
            return Err(ApiError::not_found(format!(
                "there is no game '{}'",
                row.id
            )));
        };
        self.live_of(row, stored.actions, stored.notes, stored.version)
            .await
    }

    async fn live_of(
        &self,
        row: &GameRow,
        actions: Vec<engine::Recorded>,
        notes: Vec<Note>,
        version: Version,
    ) -> Result<Live, ApiError> {
        let record = Record {
            format: engine::RECORD_FORMAT.to_string(),
            scenario: row.scenario.clone(),
            scenario_digest: row.scenario_digest.clone(),
            rules: row.rules.clone(),
            seed: row.seed,
            actions,
            commitment: None,
            salt: None,
            players: Default::default(),
        };
        let id = row.id.clone();
        let library = self.library.clone();
        let mut live = blocking(move || Live::resume(&id, &library, record, &notes)).await??;
        live.version = version;
        Ok(live)
    }

    fn new_slot(&self, row: GameRow, mode: Mode, live: Live) -> Slot {
        Slot {
            id: row.id.clone(),
            row,
            mode,
            seats: live.game.seats(),
            version: AtomicU64::new(live.version),
            waiting: AtomicUsize::new(0),
            abandon: Arc::new(AtomicBool::new(false)),
            stalled: AtomicBool::new(false),
            live: tokio::sync::Mutex::new(Some(live)),
            full: Mutex::new(Vec::new()),
            takeback: Mutex::new(None),
            channels: Mutex::new(Vec::new()),
        }
    }

    async fn load(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        // one read of the store and one replay
        let Some(stored) = self.store.stored(id).await? else {
            return Err(ApiError::not_found(format!("there is no game '{id}'")));
        };
        let row = stored.row;
        let mode = Mode::parse(&row.mode).ok_or_else(|| {
            ApiError::from(ServerError::Corrupt {
                id: id.to_string(),
                why: format!("unknown mode '{}'", row.mode),
            })
        })?;
        let live = self
            .live_of(&row, stored.actions, stored.notes, stored.version)
            .await?;
        let slot = self.new_slot(row, mode, live);
        // a game left with dice to roll or the computer to act goes on (when another server
        // made it go on first, from the state that server left)
        let mut guard = slot.live.lock().await;
        for _ in 0..3 {
            let waits = guard.as_ref().is_some_and(|l| match l.game.to_act() {
                ToAct::Chance => true,
                ToAct::Side(s) => slot.computer().is_some_and(|c| c.0 == s),
                ToAct::Over(_) => false,
            });
            if !waits {
                break;
            }
            match self
                .run(&slot, &mut guard, Viewer::Spectator, false, |_, _| Ok(()))
                .await
            {
                Err(e) if e.status == axum::http::StatusCode::CONFLICT => continue,
                r => {
                    r?;
                    break;
                }
            }
        }
        drop(guard);
        Ok(Arc::new(slot))
    }

    /// Reloads the game from the store (the store holds the truth): its whole state views are
    /// forgotten, a pending take-back is cancelled (`why`), and its watchers are sent the
    /// whole state. When the store cannot be read, the state is left out (`None`): it is
    /// loaded again on the next access.
    async fn reload(&self, slot: &Slot, guard: &mut Option<Live>, why: &str) {
        slot.clear_full();
        *guard = None;
        match self.load_live(&slot.row).await {
            Ok(live) => {
                slot.version.store(live.version, Ordering::SeqCst);
                if slot.pending_takeback().is_some() {
                    slot.set_takeback(None, why);
                }
                let live = guard.insert(live);
                slot.publish_state(live);
            }
            Err(e) => tracing::warn!("game {}: reloading it failed: {}", slot.id, e.why),
        }
    }

    /// Commits a change of the game `live` (at `version`; see [`Store::replace_tail`]) and
    /// moves it and its slot to the new version; when the store does not take it, the game in
    /// memory is brought in line with the store ([`Core::refused`]).
    #[allow(clippy::too_many_arguments)]
    async fn commit(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        live: &mut Live,
        version: Version,
        keep: usize,
        new: &[engine::Recorded],
        notes: &[Note],
    ) -> Result<(), ApiError> {
        match self
            .committer
            .replace_tail(&slot.id, version, keep, new, notes)
            .await
        {
            Ok(v) => {
                live.version = v;
                slot.version.store(v, Ordering::SeqCst);
                Ok(())
            }
            Err(e) => Err(self.refused(slot, guard, e).await),
        }
    }

    /// The answer to a change the store did not commit, after bringing the game in memory in
    /// line with the store.
    async fn refused(&self, slot: &Slot, guard: &mut Option<Live>, e: WriteError) -> ApiError {
        match e {
            WriteError::Conflict(_) => {
                tracing::info!("game {}: another server changed it first", slot.id);
                self.reload(slot, guard, "another server changed the game")
                    .await;
                ApiError::conflict(CONFLICT)
            }
            WriteError::Store(e) => {
                // the outcome is unknown: the store holds the truth; reload from it on the
                // next access
                slot.clear_full();
                *guard = None;
                e.into()
            }
        }
    }

    /// Brings the game `id`, when it is in memory, up to `version` (`None`: the store's
    /// version now): reloads it from the store and sends its watchers the whole state. A game
    /// already there is left alone; one not in memory is not loaded.
    async fn catch_up(self: Arc<Core>, id: String, version: Option<Version>) {
        let Some(cell) = self.lock().1.get(&id).map(|l| l.cell.clone()) else {
            return;
        };
        // a load under way may have read the store before the change: wait for it
        let slot = match cell.get_or_try_init(|| self.load(&id)).await {
            Ok(s) => s.clone(),
            Err(_) => {
                drop(cell);
                self.forget_failed(&id);
                return;
            }
        };
        drop(cell);
        let version = match version {
            Some(v) => v,
            None => match self.store.version(&id).await {
                Ok(Some(v)) => v,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!("game {id}: reading its version: {e}");
                    return;
                }
            },
        };
        let mut guard = slot.live.lock().await;
        let held = guard.as_ref().map(|l| l.version);
        match held {
            Some(v) if v >= version => {}
            // not in memory and no one watching: loaded afresh on the next access
            None if slot.watched().is_empty() => slot.clear_full(),
            _ => {
                tracing::debug!("game {id}: version {version} from another server");
                self.reload(&slot, &mut guard, "the game changed on another server")
                    .await
            }
        }
    }

    async fn run(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        viewer: Viewer,
        with_legal: bool,
        change: impl FnOnce(&mut Live, &mut Applied) -> Result<(), ApiError> + Send + 'static,
    ) -> Result<(Applied, Seen), ApiError> {
        let live = match guard.take() {
            Some(l) => l,
            None => self.load_live(&slot.row).await?,
        };
        let before = live.len();
        let version = live.version;
        let computer = slot.computer().map(|(s, spec)| (s, spec.to_string()));
        let seed = slot.row.seed;
        let watched = slot.watched();
        let stop = slot.abandon.clone();
        let (mut live, result) = blocking(move || {
            let mut live = live;
            live.remember(viewer);
            for v in &watched {
                live.remember(*v);
            }
            let mut applied = Applied::default();
            let r = change(&mut live, &mut applied).map(|()| {
                live.advance(
                    computer.as_ref().map(|(s, spec)| (*s, spec.as_str())),
                    seed,
                    &stop,
                    &mut applied,
                );
                let c = live.changes(before, viewer, with_legal, &watched);
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
        let now = live.len();
        // `change` and the advance only ever append
        if now > before {
            let new = live.game.record().actions[before..].to_vec();
            self.commit(
                slot,
                guard,
                &mut live,
                version,
                before,
                &new,
                &applied.notes,
            )
            .await?;
            slot.publish(&c.watchers, true);
            if slot.pending_takeback().is_some() {
                slot.set_takeback(None, "a new action cancels the request to take back");
            }
        }
        if applied.stalled {
            tracing::debug!("game {}: the computer's search stopped: abandoned", slot.id);
            self.stopped_searches.fetch_add(1, Ordering::SeqCst);
            slot.stalled.store(true, Ordering::SeqCst);
        }
        *guard = Some(live);
        Ok((applied, c.reply))
    }

    async fn undo(
        &self,
        slot: &Slot,
        guard: &mut Option<Live>,
        count: usize,
        viewer: Viewer,
        with_legal: bool,
    ) -> Result<(Vec<String>, Seen), ApiError> {
        let live = match guard.take() {
            Some(l) => l,
            None => self.load_live(&slot.row).await?,
        };
        let version = live.version;
        let watched = slot.watched();
        let (mut live, result) = blocking(move || {
            let mut live = live;
            let base = live.len();
            live.remember(viewer);
            for v in &watched {
                live.remember(*v);
            }
            let r = live
                .undo(count)
                .map(|undone| (undone, live.changes(base, viewer, with_legal, &watched)));
            (live, r)
        })
        .await?;
        match result {
            Err(refusal) => {
                *guard = Some(live);
                Err(ApiError::refused(refusal))
            }
            Ok((undone, c)) => {
                let keep = live.len();
                self.commit(slot, guard, &mut live, version, keep, &[], &[])
                    .await?;
                slot.publish(&c.watchers, false);
                *guard = Some(live);
                Ok((undone, c.reply))
            }
        }
    }

    async fn create(&self, row: GameRow, start: Start) -> Result<Arc<Slot>, ApiError> {
        let mode = Mode::parse(&row.mode)
            .ok_or_else(|| ApiError::bad_request(format!("unknown mode '{}'", row.mode)))?;
        let computer = match (mode, row.computer_side, &row.computer) {
            (Mode::Computer, Some(s), Some(spec)) => Some((Side(s), spec.clone())),
            _ => None,
        };
        let seed = row.seed;
        let library = self.library.clone();
        let id = row.id.clone();
        let live = blocking(move || -> Result<(Live, Vec<Note>), ApiError> {
            let mut live = match start {
                Start::New(game) => Live::of(game, &library, &[]).map_err(ApiError::internal)?,
                Start::Replay(record) => Live::resume(&id, &library, record, &[])?,
            };
            let mut applied = Applied::default();
            // a new game's first moves are made for the client that waits for it
            let stop = Arc::new(AtomicBool::new(false));
            live.advance(
                computer.as_ref().map(|(s, spec)| (*s, spec.as_str())),
                seed,
                &stop,
                &mut applied,
            );
            Ok((live, applied.notes))
        })
        .await?;
        let (mut live, notes) = live?;
        live.version = self
            .committer
            .create_game(&row, &live.game.record().actions, &notes)
            .await
            .map_err(write_error)?;
        let slot = Arc::new(self.new_slot(row, mode, live));
        {
            let mut guard = self.lock();
            guard.0 += 1;
            let used = guard.0;
            let cell = Arc::new(OnceCell::new_with(Some(slot.clone())));
            let at = Instant::now();
            guard.1.insert(slot.id.clone(), Loaded { cell, used, at });
        }
        self.evict();
        Ok(slot)
    }
}

/// A change the store did not commit, as an answer (without touching any game in memory).
fn write_error(e: WriteError) -> ApiError {
    match e {
        WriteError::Conflict(_) => ApiError::conflict(CONFLICT),
        WriteError::Store(e) => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, game: &dyn DynGame) -> GameRow {
        GameRow {
            id: id.into(),
            scenario: game.record().scenario.clone(),
            scenario_digest: game.record().scenario_digest.clone(),
            rules: game.record().rules.clone(),
            seed: game.record().seed,
            mode: "hotseat".into(),
            created_at: 0,
            token_first: None,
            token_second: None,
            token_both: Some(token_hash("t")),
            computer: None,
            computer_side: None,
            branched_from: None,
            salt: None,
        }
    }

    /// Scouts (`crates/toy`), counting the whole-record replays its games make: `resume` and
    /// `log`.
    struct Counting(Arc<std::sync::atomic::AtomicUsize>);

    struct CountingGame(Box<dyn DynGame>, Arc<std::sync::atomic::AtomicUsize>);

    fn bump(c: &std::sync::atomic::AtomicUsize) {
        c.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    impl DynGame for CountingGame {
        fn system(&self) -> &'static str {
            self.0.system()
        }
        fn record(&self) -> &Record {
            self.0.record()
        }
        fn seats(&self) -> Vec<String> {
            self.0.seats()
        }
        fn to_act(&self) -> ToAct {
            self.0.to_act()
        }
        fn act(&mut self, text: &str) -> Result<Acted, Refusal> {
            self.0.act(text)
        }
        fn roll(&mut self) -> Option<Acted> {
            self.0.roll()
        }
        fn legal(&self) -> Vec<engine::dynamic::LegalAction> {
            self.0.legal()
        }
        fn view(&self, viewer: Viewer) -> Value {
            self.0.view(viewer)
        }
        fn log(&self) -> Vec<Acted> {
            bump(&self.1);
            self.0.log()
        }
        fn undoable(&self) -> usize {
            self.0.undoable()
        }
        fn visible(&self, owner: Side, viewer: Viewer) -> bool {
            self.0.visible(owner, viewer)
        }
        fn undo_refusal(&self) -> Refusal {
            self.0.undo_refusal()
        }
        fn truncate(&mut self, n: usize) {
            self.0.truncate(n)
        }
        fn state_hash(&self) -> u64 {
            self.0.state_hash()
        }
        fn query(
            &self,
            name: &str,
            arg: &str,
            viewer: Viewer,
        ) -> Result<Value, engine::dynamic::QueryError> {
            self.0.query(name, arg, viewer)
        }
        fn clone_box(&self) -> Box<dyn DynGame> {
            Box::new(CountingGame(self.0.clone_box(), self.1.clone()))
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self.0.as_any()
        }
    }

    impl System for Counting {
        fn id(&self) -> &'static str {
            toy::Toy.id()
        }
        fn name(&self) -> &'static str {
            toy::Toy.name()
        }
        fn rules_version(&self) -> &'static str {
            toy::Toy.rules_version()
        }
        fn scenario(
            &self,
            src: &engine::dynamic::ScenarioSource,
        ) -> Result<(engine::dynamic::ScenarioInfo, u64), engine::dynamic::SystemError> {
            toy::Toy.scenario(src)
        }
        fn map_view(
            &self,
            src: &engine::dynamic::ScenarioSource,
        ) -> Result<Value, engine::dynamic::SystemError> {
            toy::Toy.map_view(src)
        }
        fn new_game(
            &self,
            src: &engine::dynamic::ScenarioSource,
            seed: u64,
        ) -> Result<Box<dyn DynGame>, engine::dynamic::SystemError> {
            let g = toy::Toy.new_game(src, seed)?;
            Ok(Box::new(CountingGame(g, self.0.clone())))
        }
        fn resume(
            &self,
            src: &engine::dynamic::ScenarioSource,
            record: Record,
        ) -> Result<Box<dyn DynGame>, engine::dynamic::SystemError> {
            bump(&self.0);
            let g = toy::Toy.resume(src, record)?;
            Ok(Box::new(CountingGame(g, self.0.clone())))
        }
        fn players(&self) -> Vec<String> {
            toy::Toy.players()
        }
        fn player(&self, spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String> {
            toy::Toy.player(spec, seed)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn loading_a_game_replays_its_record_once() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("g.sqlite").display());
        let store = Store::open(&url).await.unwrap();
        let replays = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut registry = systems::registry();
        registry.register(Arc::new(Counting(replays.clone())));
        let mut lib = Library::new(registry);
        lib.add_scenario("toy-skirmish", toy::SCENARIO);
        let games = Games::new(store.clone(), lib.clone(), 10);
        let game = lib.new_game("toy-skirmish", None, 1).unwrap();
        let slot = games
            .create(row("g_once", &*game), Start::New(game))
            .await
            .unwrap();
        let mut guard = slot.live.lock().await;
        for _ in 0..3 {
            games
                .run(
                    &slot,
                    &mut guard,
                    Viewer::Referee,
                    false,
                    |live, applied| {
                        let first = live.game.legal()[0].text.clone();
                        live.act(&first, applied).map_err(ApiError::refused)
                    },
                )
                .await
                .unwrap();
        }
        let hash = guard.as_ref().unwrap().game.state_hash();
        let log = guard.as_ref().unwrap().log.clone();
        drop(guard);
        drop(slot);
        // a second server over the same store loads it from its record
        let other = Games::new(store, lib, 10);
        replays.store(0, std::sync::atomic::Ordering::SeqCst);
        let slot = other.slot("g_once").await.unwrap();
        let guard = slot.live.lock().await;
        let live = guard.as_ref().unwrap();
        assert_eq!(live.game.state_hash(), hash);
        assert_eq!(live.log, log);
        assert_eq!(live.len(), 3);
        assert_eq!(
            replays.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "no replay beyond the one that rebuilds the game"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_least_recently_used_idle_games_are_evicted_and_reload() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("g.sqlite").display());
        let store = Store::open(&url).await.unwrap();
        let lib = Library::standard();
        let games = Games::new(store, lib.clone(), 2);
        let ids = ["g_a", "g_b", "g_c"];
        for (i, id) in ids.iter().enumerate() {
            let game = lib.new_game("bon-first-day", None, i as u64).unwrap();
            let slot = games
                .create(row(id, &*game), Start::New(game))
                .await
                .unwrap();
            // one action each, committed
            let mut guard = slot.live.lock().await;
            games
                .run(
                    &slot,
                    &mut guard,
                    Viewer::Referee,
                    false,
                    |live, applied| live.act("end", applied).map_err(ApiError::refused),
                )
                .await
                .unwrap();
        }
        assert_eq!(games.loaded(), 2);
        assert!(
            !games.is_loaded("g_a"),
            "the least recently used goes first"
        );
        // a game in use or watched is never evicted
        let b = games.slot("g_b").await.unwrap();
        let _watching = b.subscribe(Viewer::Spectator);
        drop(b);
        // an evicted game reloads from the store, as it was
        let a = games.slot("g_a").await.unwrap();
        assert!(games.is_loaded("g_a") && games.is_loaded("g_b"));
        assert!(!games.is_loaded("g_c"));
        assert_eq!(a.live.lock().await.as_ref().unwrap().len(), 1);
        drop(a);
        let c = games.slot("g_c").await.unwrap();
        assert_eq!(c.live.lock().await.as_ref().unwrap().len(), 1);
        assert!(games.is_loaded("g_b"), "a watched game stays");
        assert!(!games.is_loaded("g_a"));
        assert_eq!(games.loaded(), 2);
    }
}
