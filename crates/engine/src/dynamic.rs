//! The object-safe face of a game and of a rules system, for the front ends that must not name
//! a rules crate (the server, the CLI's core, the arena, the board).
//!
//! A rules system implements [`Rules`] (typed, fast, for its own tests and computer players)
//! and a [`Presenter`] (its JSON views). [`Hosted`] joins the two into a [`DynGame`]; a
//! [`System`] makes such games from scenarios and records, and a [`Registry`] maps a system's
//! id (a scenario file's `system`) to it. Adding a rules system is one more `System` in the
//! registry: nothing above this module changes.

use crate::{Record, Refusal, ReplayError, Rules, Session, Side, ToAct, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// One legal action as structured data (the chessground `dests` idea): a board highlights
/// from it without parsing the action grammar.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalAction {
    /// The action's canonical text, what the client sends back.
    pub text: String,
    /// Its kind (`move`, `attack`, `end`, ...), the system's own vocabulary.
    pub kind: String,
    /// The unit that acts, if one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The hex it acts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The hex it goes to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The unit or hex it acts against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// What one applied action was, for the log and the clients.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Acted {
    /// Its position in the record, from 1.
    pub n: usize,
    /// The seat that took it; `None` for a chance outcome.
    pub seat: Option<Side>,
    /// Its canonical text.
    pub text: String,
    /// True for a chance outcome read from a physical die.
    pub manual: bool,
    /// What it caused: each event as JSON with at least `case`, `kind` and `text`.
    pub events: Vec<Value>,
}

/// Why a system-specific query failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The system has no query of that name.
    #[error("this rules system has no query '{0}'")]
    Unknown(String),
    /// The argument names nothing in this game (a unit, a hex).
    #[error("{0}")]
    NotFound(String),
    /// The argument is malformed.
    #[error("{0}")]
    Bad(String),
    /// The argument is an action the rules refuse (a preview of an illegal action).
    #[error("{}: {}", .0.case, .0.why)]
    Refused(Refusal),
}

/// A game's figures for the arena's statistics, as its rules system counts them
/// ([`DynGame::facts`]): the game-turn and named figures such as each side's strength lost or
/// formations demoralized.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameFacts {
    /// The game-turn (the last one played, when the game is over); `None` when the system
    /// does not say.
    pub turn: Option<u32>,
    /// Named figures (`"French SP lost"`), in the system's order; the same names for every
    /// game of a scenario, so an arena can average them.
    pub figures: Vec<(String, f64)>,
}

/// A game in play, whatever its rules system: what the server, the CLI and the arena hold.
pub trait DynGame: Send + Sync {
    /// The rules system's id (`naw`).
    fn system(&self) -> &'static str;
    /// The record so far.
    fn record(&self) -> &Record;
    /// The seats' names, in seat order.
    fn seats(&self) -> Vec<String>;
    /// Who acts next.
    fn to_act(&self) -> ToAct;
    /// Parses and applies a player's action (or a physical die's outcome) and records it.
    fn act(&mut self, text: &str) -> Result<Acted, Refusal>;
    /// At a chance event, draws and applies the outcome from the record's dice.
    fn roll(&mut self) -> Option<Acted>;
    /// The legal actions of the seat to act, structured.
    fn legal(&self) -> Vec<LegalAction>;
    /// What `viewer` may see of the game, as the system's JSON state view.
    fn view(&self, viewer: Viewer) -> Value;
    /// The state view without its legal actions (`legal`, `legal_actions`): what a change is
    /// made from, when the legal actions travel apart ([`DynGame::legal_json`]). The default
    /// takes them out of [`DynGame::view`].
    fn view_without_legal(&self, viewer: Viewer) -> Value {
        let mut v = self.view(viewer);
        take_legal(&mut v);
        v
    }
    /// The legal actions of the state view `viewer` may see, as the JSON members
    /// `"legal":[…],"legal_actions":[…]` (those the view has), ready to be spliced into an
    /// object. The default takes them from [`DynGame::view`].
    fn legal_json(&self, viewer: Viewer) -> String {
        legal_members(&mut self.view(viewer))
    }
    /// What a recorded action caused, replayed from the record (for the log of a loaded
    /// game): one entry per action, oldest first.
    fn log(&self) -> Vec<Acted>;
    /// How many of the last actions the rules still let a player take back.
    fn undoable(&self) -> usize;
    /// The rules' refusal when no more may be taken back.
    fn undo_refusal(&self) -> Refusal;
    /// Cuts the game back to its first `n` actions (the caller checks the rules' limits).
    fn truncate(&mut self, n: usize);
    /// Keeps `note` (what the computer player that chose it said) with the recorded action at
    /// `index` (from 0), or clears it: a comment of the record ([`crate::Recorded::note`]), no
    /// part of the state. A game that keeps no record ignores it.
    fn set_note(&mut self, _index: usize, _note: Option<String>) {}
    /// Sets the record's computer players by seat name ([`Record::players`]). A game that
    /// keeps no record ignores it.
    fn set_players(&mut self, _players: std::collections::BTreeMap<String, String>) {}
    /// The state hash, equal on every machine for equal states.
    fn state_hash(&self) -> u64;
    /// The game's figures for the arena's statistics (the game-turn, losses, ...): what the
    /// system's [`Hosted::with_facts`] gives; the default says nothing.
    fn facts(&self) -> GameFacts {
        GameFacts::default()
    }
    /// A system-specific question (`moves` of a unit, `odds` of a combat) answered as JSON.
    fn query(&self, name: &str, arg: &str, viewer: Viewer) -> Result<Value, QueryError>;
    /// Whether `viewer` may see what seat `owner` does (its units, its actions' texts): the
    /// rules system's [`Rules::visible`].
    fn visible(&self, owner: Side, viewer: Viewer) -> bool;
    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The game as `Any`, for a system's own plug-ins (its computer players) to downcast to
    /// the [`Hosted`] they know.
    fn as_any(&self) -> &dyn Any;
}

/// A rules system's presentation: its JSON views, computed from its own public queries.
pub trait Presenter<R: Rules>: Send + Sync + 'static {
    /// The state view `viewer` may see (hidden information withheld).
    fn view(&self, session: &Session<R>, viewer: Viewer) -> Value;
    /// [`DynGame::view_without_legal`]: the default takes the legal actions out of
    /// [`Presenter::view`]; a system whose legal actions are costly to present skips them.
    fn view_without_legal(&self, session: &Session<R>, viewer: Viewer) -> Value {
        let mut v = self.view(session, viewer);
        take_legal(&mut v);
        v
    }
    /// [`DynGame::legal_json`]: the default takes them from [`Presenter::view`].
    fn legal_json(&self, session: &Session<R>, viewer: Viewer) -> String {
        legal_members(&mut self.view(session, viewer))
    }
    /// An event as JSON with at least `case`, `kind` and `text`.
    fn event(&self, game: &R, event: &R::Event) -> Value;
    /// A legal action as structured data. The default gives its text and its first word as
    /// the kind.
    fn legal_action(&self, game: &R, a: R::Action) -> LegalAction {
        let text = game.action_text(a);
        let kind = text.split_whitespace().next().unwrap_or("").to_string();
        LegalAction {
            text,
            kind,
            ..LegalAction::default()
        }
    }
    /// A system-specific query. The default knows none.
    fn query(
        &self,
        _session: &Session<R>,
        name: &str,
        _arg: &str,
        _viewer: Viewer,
    ) -> Result<Value, QueryError> {
        Err(QueryError::Unknown(name.to_string()))
    }
}

/// The keys of a state view that hold its legal actions.
pub const LEGAL_KEYS: [&str; 2] = ["legal", "legal_actions"];

/// Takes the legal actions ([`LEGAL_KEYS`]) out of a state view: what they were.
pub fn take_legal(view: &mut Value) -> Vec<(&'static str, Value)> {
    let Value::Object(m) = view else {
        return Vec::new();
    };
    LEGAL_KEYS
        .iter()
        .filter_map(|k| m.remove(*k).map(|v| (*k, v)))
        .collect()
}

/// The legal actions of a state view as JSON object members (`"legal":[…],…`), taken out of
/// it; empty when it has none.
pub fn legal_members(view: &mut Value) -> String {
    take_legal(view)
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A [`Session`] of a typed rules system with its presentation: a [`DynGame`].
pub struct Hosted<R: Rules, P> {
    /// The typed game.
    pub session: Session<R>,
    /// Its presentation.
    pub presenter: Arc<P>,
    system: &'static str,
    facts: Option<fn(&R) -> GameFacts>,
}

impl<R: Rules, P> Clone for Hosted<R, P> {
    fn clone(&self) -> Self {
        Hosted {
            session: self.session.clone(),
            presenter: self.presenter.clone(),
            system: self.system,
            facts: self.facts,
        }
    }
}

impl<R: Rules, P: Presenter<R>> Hosted<R, P> {
    /// Hosts a session under a system id.
    pub fn new(system: &'static str, session: Session<R>, presenter: Arc<P>) -> Self {
        Hosted {
            session,
            presenter,
            system,
            facts: None,
        }
    }

    /// The same game with the system's figures for the arena ([`DynGame::facts`]), read from
    /// the typed game by `facts`.
    pub fn with_facts(mut self, facts: fn(&R) -> GameFacts) -> Self {
        self.facts = Some(facts);
        self
    }

    fn acted(&self, seat: Option<Side>, manual: bool) -> Acted {
        let g = &self.session.game;
        let last = self.session.record.actions.last();
        Acted {
            n: self.session.record.actions.len(),
            seat,
            text: last.map_or_else(String::new, |r| r.text.clone()),
            manual,
            events: g
                .events()
                .iter()
                .map(|e| self.presenter.event(g, e))
                .collect(),
        }
    }
}

impl<R, P> DynGame for Hosted<R, P>
where
    R: Rules + Send + Sync + 'static,
    P: Presenter<R>,
{
    fn system(&self) -> &'static str {
        self.system
    }

    fn record(&self) -> &Record {
        &self.session.record
    }

    fn seats(&self) -> Vec<String> {
        let g = &self.session.game;
        (0..g.seats())
            .map(|i| g.seat_name(Side(i as u8)).to_string())
            .collect()
    }

    fn to_act(&self) -> ToAct {
        self.session.game.to_act()
    }

    fn act(&mut self, text: &str) -> Result<Acted, Refusal> {
        let seat = match self.session.game.to_act() {
            ToAct::Side(s) => Some(s),
            _ => None,
        };
        self.session.act_text(text)?;
        Ok(self.acted(seat, seat.is_none()))
    }

    fn roll(&mut self) -> Option<Acted> {
        self.session.roll()?;
        Some(self.acted(None, false))
    }

    fn legal(&self) -> Vec<LegalAction> {
        let g = &self.session.game;
        if !matches!(g.to_act(), ToAct::Side(_)) {
            return Vec::new();
        }
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        v.into_iter()
            .map(|a| self.presenter.legal_action(g, a))
            .collect()
    }

    fn view(&self, viewer: Viewer) -> Value {
        self.presenter.view(&self.session, viewer)
    }

    fn view_without_legal(&self, viewer: Viewer) -> Value {
        self.presenter.view_without_legal(&self.session, viewer)
    }

    fn legal_json(&self, viewer: Viewer) -> String {
        self.presenter.legal_json(&self.session, viewer)
    }

    fn log(&self) -> Vec<Acted> {
        let rec = &self.session.record;
        let mut out = Vec::with_capacity(rec.actions.len());
        let mut g = self.session.start().clone();
        let mut dice = crate::Dice::new(rec.seed);
        // the record was verified when the session was made: one more replay, narrating
        let _ = crate::record::replay_steps(
            &mut g,
            &mut dice,
            rec,
            0,
            rec.actions.len(),
            &mut |n, r, before, after: &R| {
                out.push(Acted {
                    n,
                    seat: match before {
                        ToAct::Side(s) => Some(*s),
                        _ => None,
                    },
                    text: r.text.clone(),
                    manual: r.manual,
                    events: after
                        .events()
                        .iter()
                        .map(|e| self.presenter.event(after, e))
                        .collect(),
                });
            },
        );
        out
    }

    fn undoable(&self) -> usize {
        self.session
            .game
            .undoable()
            .min(self.session.record.actions.len())
    }

    fn undo_refusal(&self) -> Refusal {
        self.session.game.undo_refusal()
    }

    fn truncate(&mut self, n: usize) {
        self.session.truncate(n);
    }

    fn set_note(&mut self, index: usize, note: Option<String>) {
        if let Some(r) = self.session.record.actions.get_mut(index) {
            r.note = note;
        }
    }

    fn set_players(&mut self, players: std::collections::BTreeMap<String, String>) {
        self.session.record.players = players;
    }

    fn state_hash(&self) -> u64 {
        self.session.game.state_hash()
    }

    fn facts(&self) -> GameFacts {
        self.facts
            .map_or_else(GameFacts::default, |f| f(&self.session.game))
    }

    fn query(&self, name: &str, arg: &str, viewer: Viewer) -> Result<Value, QueryError> {
        self.presenter.query(&self.session, name, arg, viewer)
    }

    fn visible(&self, owner: Side, viewer: Viewer) -> bool {
        self.session.game.visible(owner, viewer)
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An applied action as `viewer` may see it: the text of an action by a seat whose doings the
/// viewer may not see is withheld (`hidden`). Events are the same for every viewer: a rules
/// system with hidden information puts no hidden fact in an event.
pub fn redact(game: &dyn DynGame, acted: &Acted, viewer: Viewer) -> Acted {
    match acted.seat {
        Some(s) if !game.visible(s, viewer) => Acted {
            text: "hidden".into(),
            ..acted.clone()
        },
        _ => acted.clone(),
    }
}

/// A scenario as a system sees it before it is built: its id, its file's text and a way to
/// read the files it names (its map).
pub struct ScenarioSource<'a> {
    /// The shipped id or the path the scenario was named by.
    pub name: &'a str,
    /// The scenario file's text.
    pub text: &'a str,
    /// Reads a file the scenario names (a map id), returning its text.
    pub read: &'a dyn Fn(&str) -> Result<String, String>,
}

/// Facts about a scenario for lists and menus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioInfo {
    /// The scenario's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The rules system its file names.
    pub system: String,
    /// The components it is played with (the game box: `battle-of-nations`), which lets
    /// another system that declares them play it (`--rules`).
    pub components: String,
    /// The seats' names.
    pub sides: Vec<String>,
    /// How many units the scenario has.
    pub units: usize,
    /// Its first and last game-turns.
    pub first_turn: u32,
    /// Its last game-turn.
    pub last_turn: u32,
    /// A short description.
    pub description: String,
}

/// Why a game could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SystemError {
    /// The scenario file is invalid for this system.
    #[error("{0}")]
    Scenario(String),
    /// The record does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// No system of that id is registered.
    #[error("no rules system '{0}' (registered: {1})")]
    UnknownSystem(String, String),
    /// The system cannot play the scenario's components.
    #[error("the rules system '{system}' cannot play scenario '{scenario}' (its components are '{components}')")]
    Components {
        /// The system asked for.
        system: String,
        /// The scenario.
        scenario: String,
        /// Its components.
        components: String,
    },
}

/// A computer player over the object-safe interface.
pub trait DynPlayer: Send {
    /// Chooses the text of one of the legal actions of the seat to act.
    fn choose(&mut self, game: &dyn DynGame) -> String;
    /// A name for reports.
    fn name(&self) -> String;
    /// A sentence explaining the last choice, for the log.
    fn explain(&self) -> Option<String> {
        None
    }
    /// Asks the player to stop thinking as soon as `flag` is set, from any thread: a host sets
    /// it when the player's game is abandoned (its client left, the server shuts down), so that
    /// a long search does not go on for nobody. Once it is set, a [`choose`](DynPlayer::choose)
    /// under way or to come returns as soon as it can with a legal action that is cheap to
    /// find (a search stopped before any verdict takes its heuristic's choice or its first
    /// candidate). The player never clears the flag. The default ignores it: right for players
    /// that return at once anyway (random, heuristic); a flag that is never set changes
    /// nothing, so a search with a simulation budget chooses as it would without one.
    fn stop_on(&mut self, _flag: Arc<AtomicBool>) {}
}

/// A rules system: makes games from scenarios and records, with its players.
pub trait System: Send + Sync {
    /// Its id, as scenario files and records name it (`naw`).
    fn id(&self) -> &'static str;
    /// Its name for people (`Napoleon at War`).
    fn name(&self) -> &'static str;
    /// The rules module and version written in records (`naw/1`).
    fn rules_version(&self) -> &'static str;
    /// The components (game boxes) whose scenarios it can play besides its own.
    fn components(&self) -> &[&'static str] {
        &[]
    }
    /// Builds the scenario and returns its info and its digest.
    fn scenario(&self, src: &ScenarioSource) -> Result<(ScenarioInfo, u64), SystemError>;
    /// The map view of a scenario (JSON), for the board.
    fn map_view(&self, src: &ScenarioSource) -> Result<Value, SystemError>;
    /// A new game of a scenario with the record's seed.
    fn new_game(&self, src: &ScenarioSource, seed: u64) -> Result<Box<dyn DynGame>, SystemError>;
    /// Resumes a recorded game, verifying it.
    fn resume(&self, src: &ScenarioSource, record: Record)
        -> Result<Box<dyn DynGame>, SystemError>;
    /// The computer players' specs, weakest first.
    fn players(&self) -> Vec<String>;
    /// A computer player by spec.
    fn player(&self, spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String>;
    /// The rules reference (cases in our words) as JSON, if the system ships one.
    fn reference(&self) -> Option<Value> {
        None
    }
    /// A question that needs no game (`odds` of a ratio), answered as JSON.
    fn query(&self, name: &str, _arg: &str) -> Result<Value, QueryError> {
        Err(QueryError::Unknown(name.to_string()))
    }
}

/// The rules systems a program knows, by id: the one place a system is registered.
#[derive(Clone, Default)]
pub struct Registry {
    systems: Vec<Arc<dyn System>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds a system (a later one of the same id replaces the earlier).
    pub fn register(&mut self, s: Arc<dyn System>) -> &mut Registry {
        self.systems.retain(|x| x.id() != s.id());
        self.systems.push(s);
        self
    }

    /// The system of an id.
    pub fn get(&self, id: &str) -> Result<&Arc<dyn System>, SystemError> {
        self.systems
            .iter()
            .find(|s| s.id() == id)
            .ok_or_else(|| SystemError::UnknownSystem(id.to_string(), self.ids().join(", ")))
    }

    /// The ids of every registered system.
    pub fn ids(&self) -> Vec<&'static str> {
        self.systems.iter().map(|s| s.id()).collect()
    }

    /// Every registered system.
    pub fn systems(&self) -> &[Arc<dyn System>] {
        &self.systems
    }

    /// The system that plays a record (its `rules` field names `id/version`).
    pub fn for_record(&self, record: &Record) -> Result<&Arc<dyn System>, SystemError> {
        self.systems
            .iter()
            .find(|s| s.rules_version() == record.rules)
            .ok_or_else(|| SystemError::UnknownSystem(record.rules.clone(), self.ids().join(", ")))
    }

    /// The system to play a scenario with: `rules` when given (it must be the scenario's own
    /// system or declare the scenario's components), else the scenario file's own.
    pub fn for_scenario(
        &self,
        info: &ScenarioInfo,
        rules: Option<&str>,
    ) -> Result<&Arc<dyn System>, SystemError> {
        let Some(id) = rules else {
            return self.get(&info.system);
        };
        let s = self.get(id)?;
        if s.id() == info.system || s.components().contains(&info.components.as_str()) {
            Ok(s)
        } else {
            Err(SystemError::Components {
                system: id.to_string(),
                scenario: info.id.clone(),
                components: info.components.clone(),
            })
        }
    }
}
