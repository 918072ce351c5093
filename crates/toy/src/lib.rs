//! *Scouts*, a minimal rules system that exists to test the machinery: nothing outside the
//! registry may need to change for it. It has what the next real systems bring and Napoleon at
//! War lacks: hidden units (each seat sees only its own scouts), a chance event of two dice
//! summed, typed events that carry no hidden fact, and a take-back rule of its own (`T.2`).
//!
//! The game: two seats, Red and Blue, each with two scouts on a track of squares 0..=5. On its
//! turn a seat moves any of its scouts one square forward (`scout ID`), then ends the turn
//! (`end`); then two dice are thrown (`throw N`, N = 2..12): on 8 or more the seat whose
//! turn it was scores a point for each of its scouts on square 5. After the last turn the
//! higher score wins.

use engine::dynamic::{
    DynGame, DynPlayer, Hosted, Presenter, ScenarioInfo, ScenarioSource, System, SystemError,
};
use engine::{GameEvent, Outcome, Record, Refusal, Rules, Session, Side, ToAct, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;

/// The rules version written in records.
pub const RULES_VERSION: &str = "toy/1";

/// The shipped scenario.
pub const SCENARIO: &str = r#"format = "grognard-scenario/1"
id = "toy-skirmish"
title = "Scouts: a skirmish"
system = "toy"
turns = 3
sides = ["Red", "Blue"]
scouts = [["RED_SCOUT_ONE", "RED_SCOUT_TWO"], ["BLUE_SCOUT_ONE", "BLUE_SCOUT_TWO"]]
spectators = "after"
"#;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    id: String,
    title: String,
    system: String,
    turns: u8,
    sides: [String; 2],
    scouts: [[String; 2]; 2],
    /// What onlookers see (T.5): `after` the game (the default), or `all` of it as it is
    /// played.
    #[serde(default)]
    spectators: Spectators,
}

/// What a scenario lets spectators see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Spectators {
    /// Nothing hidden until the game is over.
    #[default]
    After,
    /// Everything, as it is played.
    All,
}

/// An action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Move scout `0..4` (seat * 2 + index) one square.
    Scout(u8),
    /// End the turn.
    End,
    /// Two dice showing this sum.
    Throw(u8),
}

/// What an action caused. No event names a scout or its square: they are hidden.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// T.1: a seat moved a scout (which one is hidden).
    Scouted {
        /// The seat.
        seat: Side,
    },
    /// T.3: the dice were thrown.
    Thrown {
        /// Their sum.
        sum: u8,
        /// Points scored.
        points: u8,
    },
    /// T.4: the game ended.
    Over {
        /// The winner, if any.
        winner: Option<Side>,
    },
}

impl GameEvent for Event {
    fn case(&self) -> &'static str {
        match self {
            Event::Scouted { .. } => "T.1",
            Event::Thrown { .. } => "T.3",
            Event::Over { .. } => "T.4",
        }
    }
}

/// A game of Scouts.
#[derive(Clone, Debug)]
pub struct Game {
    file: Arc<File>,
    turn: u8,
    seat: u8,
    throwing: bool,
    squares: [u8; 4],
    score: [u8; 2],
    moved: u8,
    events: Vec<Event>,
    outcome: Option<Outcome>,
}

impl Game {
    fn new(file: Arc<File>) -> Game {
        Game {
            file,
            turn: 1,
            seat: 0,
            throwing: false,
            squares: [0; 4],
            score: [0; 2],
            moved: 0,
            events: Vec::new(),
            outcome: None,
        }
    }

    fn id(&self, i: u8) -> &str {
        &self.file.scouts[i as usize / 2][i as usize % 2]
    }
}

impl Rules for Game {
    type Action = Action;
    type Event = Event;

    fn rules_version(&self) -> &'static str {
        RULES_VERSION
    }
    fn seats(&self) -> usize {
        2
    }
    fn seat_name(&self, seat: Side) -> &str {
        &self.file.sides[seat.0 as usize % 2]
    }
    fn to_act(&self) -> ToAct {
        match (&self.outcome, self.throwing) {
            (Some(o), _) => ToAct::Over(o.clone()),
            (None, true) => ToAct::Chance,
            (None, false) => ToAct::Side(Side(self.seat)),
        }
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        if self.throwing {
            out.extend((2..=12).map(Action::Throw));
            return;
        }
        for i in 0..2 {
            let u = self.seat * 2 + i;
            if self.squares[u as usize] < 5 {
                out.push(Action::Scout(u));
            }
        }
        out.push(Action::End);
    }
    fn check(&self, a: Action) -> Result<(), Refusal> {
        if self.outcome.is_some() {
            return Err(Refusal::new("T.4", "the game is over"));
        }
        match (self.throwing, a) {
            (true, Action::Throw(n)) if (2..=12).contains(&n) => Ok(()),
            (true, _) => Err(Refusal::new("T.3", "the dice are thrown now (throw 2..12)")),
            (false, Action::Throw(_)) => {
                Err(Refusal::new("T.3", "the dice are thrown after a turn ends"))
            }
            (false, Action::Scout(u)) if u / 2 != self.seat => {
                Err(Refusal::new("T.1", "a seat moves only its own scouts"))
            }
            (false, Action::Scout(u)) if self.squares[u as usize] >= 5 => {
                Err(Refusal::new("T.1", "a scout on square 5 goes no further"))
            }
            (false, _) => Ok(()),
        }
    }
    fn apply_unchecked(&mut self, a: Action) {
        self.events.clear();
        match a {
            Action::Scout(u) => {
                self.squares[u as usize] += 1;
                self.moved += 1;
                self.events.push(Event::Scouted {
                    seat: Side(self.seat),
                });
            }
            Action::End => {
                self.throwing = true;
                self.moved = 0;
            }
            Action::Throw(n) => {
                self.throwing = false;
                let s = self.seat as usize;
                let points = if n >= 8 {
                    self.squares[2 * s..2 * s + 2]
                        .iter()
                        .filter(|&&q| q == 5)
                        .count() as u8
                } else {
                    0
                };
                self.score[s] += points;
                self.events.push(Event::Thrown { sum: n, points });
                if self.seat == 1 {
                    if self.turn >= self.file.turns {
                        let winner = match self.score[0].cmp(&self.score[1]) {
                            std::cmp::Ordering::Greater => Some(Side(0)),
                            std::cmp::Ordering::Less => Some(Side(1)),
                            std::cmp::Ordering::Equal => None,
                        };
                        self.events.push(Event::Over { winner });
                        self.outcome = Some(Outcome {
                            winner,
                            case: "T.4",
                            why: format!("the score is {}-{}", self.score[0], self.score[1]),
                        });
                        return;
                    }
                    self.turn += 1;
                }
                self.seat = 1 - self.seat;
            }
        }
    }
    fn events(&self) -> &[Event] {
        &self.events
    }
    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        if !self.throwing || self.outcome.is_some() {
            return Vec::new();
        }
        // T.3: two dice summed, 2..12 weighted 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1
        (2..=12u8)
            .map(|n| (Action::Throw(n), 6 - (7i32 - n as i32).unsigned_abs()))
            .collect()
    }
    fn action_text(&self, a: Action) -> String {
        match a {
            Action::Scout(u) => format!("scout {}", self.id(u)),
            Action::End => "end".into(),
            Action::Throw(n) => format!("throw {n}"),
        }
    }
    fn parse_action(&self, text: &str) -> Result<Action, Refusal> {
        let w: Vec<&str> = text.split_whitespace().collect();
        match w.as_slice() {
            ["end"] => Ok(Action::End),
            ["scout", id] => (0..4u8)
                .find(|&u| self.id(u) == *id)
                .map(Action::Scout)
                .ok_or_else(|| Refusal::new("action", format!("no scout '{id}'"))),
            ["throw", n] => n
                .parse()
                .map(Action::Throw)
                .map_err(|_| Refusal::new("action", format!("'{n}' is not a sum of two dice"))),
            _ => Err(Refusal::new(
                "action",
                format!("'{text}': scout ID, end, throw N"),
            )),
        }
    }
    fn state_hash(&self) -> u64 {
        let mut b = vec![self.turn, self.seat, self.throwing as u8, self.moved];
        b.extend_from_slice(&self.squares);
        b.extend_from_slice(&self.score);
        b.push(
            self.outcome
                .as_ref()
                .map_or(9, |o| o.winner.map_or(2, |w| w.0)),
        );
        engine::hash_bytes(&b)
    }
    fn undoable(&self) -> usize {
        // T.2: only the scouts moved this turn may be taken back
        self.moved as usize
    }
    fn undo_refusal(&self) -> Refusal {
        Refusal::new("T.2", "only scouts moved this turn may be taken back")
    }
    fn visible(&self, owner: Side, viewer: Viewer) -> bool {
        // T.5: a seat sees only its own scouts; onlookers see what the scenario allows
        match viewer {
            Viewer::Seat(s) => s == owner || self.outcome.is_some(),
            Viewer::Referee => true,
            Viewer::Spectator => self.file.spectators == Spectators::All || self.outcome.is_some(),
        }
    }
}

/// The views of Scouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToyPresenter;

impl Presenter<Game> for ToyPresenter {
    fn view(&self, s: &Session<Game>, viewer: Viewer) -> Value {
        let g = &s.game;
        let units: Vec<Value> = (0..4u8)
            .map(|u| {
                let seat = Side(u / 2);
                if g.visible(seat, viewer) {
                    json!({"id": g.id(u), "side": g.seat_name(seat), "square": g.squares[u as usize]})
                } else {
                    json!({"hidden": true, "side": g.seat_name(seat)})
                }
            })
            .collect();
        let acting = match g.to_act() {
            ToAct::Side(x) => Some(x),
            _ => None,
        };
        let legal: Vec<String> = match acting {
            Some(x) if g.visible(x, viewer) => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                v.into_iter().map(|a| g.action_text(a)).collect()
            }
            _ => Vec::new(),
        };
        json!({
            "system": "toy",
            "scenario": s.record.scenario,
            "title": g.file.title,
            "turn": g.turn,
            "to_act": match g.to_act() { ToAct::Side(x) => g.seat_name(x).to_string(), ToAct::Chance => "chance".into(), ToAct::Over(_) => "over".into() },
            "score": g.score,
            "actions_recorded": s.record.actions.len(),
            "state_hash": engine::hash_text(g.state_hash()),
            "units": units,
            "legal": legal,
        })
    }

    fn event(&self, game: &Game, e: &Event) -> Value {
        let text = match e {
            Event::Scouted { seat } => format!("{} moves a scout", game.seat_name(*seat)),
            Event::Thrown { sum, points } => format!("the dice show {sum}: {points} point(s)"),
            Event::Over { .. } => "the game is over".into(),
        };
        let mut v = serde_json::to_value(e).unwrap_or_default();
        if let Value::Object(m) = &mut v {
            m.insert("case".into(), json!(e.case()));
            m.insert("text".into(), json!(text));
        }
        v
    }
}

/// A hosted game of Scouts.
pub type ToyGame = Hosted<Game, ToyPresenter>;

/// The Scouts rules system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Toy;

fn parse(src: &ScenarioSource) -> Result<Arc<File>, SystemError> {
    let f: File = toml::from_str(src.text)
        .map_err(|e| SystemError::Scenario(format!("{}: {e}", src.name)))?;
    if f.format != "grognard-scenario/1" || f.system != "toy" || f.turns == 0 {
        return Err(SystemError::Scenario(format!(
            "{}: not a Scouts scenario",
            src.name
        )));
    }
    Ok(Arc::new(f))
}

impl System for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }
    fn name(&self) -> &'static str {
        "Scouts (a test system)"
    }
    fn rules_version(&self) -> &'static str {
        RULES_VERSION
    }
    fn scenario(&self, src: &ScenarioSource) -> Result<(ScenarioInfo, u64), SystemError> {
        let f = parse(src)?;
        let info = ScenarioInfo {
            id: f.id.clone(),
            title: f.title.clone(),
            system: "toy".into(),
            components: "scouts".into(),
            sides: f.sides.to_vec(),
            units: 4,
            first_turn: 1,
            last_turn: f.turns.into(),
            description: "A test of the machinery.".into(),
        };
        Ok((info, engine::hash_bytes(src.text.as_bytes())))
    }
    fn map_view(&self, _src: &ScenarioSource) -> Result<Value, SystemError> {
        Ok(json!({"id": "track", "title": "A track of six squares", "width": 6, "height": 1}))
    }
    fn new_game(&self, src: &ScenarioSource, seed: u64) -> Result<Box<dyn DynGame>, SystemError> {
        let f = parse(src)?;
        let digest = engine::hash_bytes(src.text.as_bytes());
        let s = Session::new(Game::new(f), src.name, digest, seed);
        Ok(Box::new(ToyGame::new("toy", s, Arc::new(ToyPresenter))))
    }
    fn resume(
        &self,
        src: &ScenarioSource,
        record: Record,
    ) -> Result<Box<dyn DynGame>, SystemError> {
        let f = parse(src)?;
        let digest = engine::hash_bytes(src.text.as_bytes());
        let s = Session::resume(Game::new(f), record, digest)?;
        Ok(Box::new(ToyGame::new("toy", s, Arc::new(ToyPresenter))))
    }
    fn players(&self) -> Vec<String> {
        vec!["first".into()]
    }
    fn player(&self, spec: &str, _seed: u64) -> Result<Box<dyn DynPlayer>, String> {
        match spec {
            "first" => Ok(Box::new(First)),
            other => Err(format!("unknown player '{other}' (available: first)")),
        }
    }
}

/// A player that takes the first legal action (a scout while it can, then `end`).
struct First;

impl DynPlayer for First {
    fn choose(&mut self, game: &dyn DynGame) -> String {
        game.legal()
            .first()
            .map(|a| a.text.clone())
            .unwrap_or_default()
    }
    fn name(&self) -> String {
        "first".into()
    }
}

/// The standard library with Scouts registered and its scenario shipped as `toy-skirmish`.
pub fn library() -> systems::Library {
    let mut r = systems::registry();
    r.register(Arc::new(Toy));
    let mut lib = systems::Library::new(r);
    lib.add_scenario("toy-skirmish", SCENARIO);
    lib
}
