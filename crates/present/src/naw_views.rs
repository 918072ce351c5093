//! The views of a Napoleon at War game (`naw`): the state view, the change, moves, odds, the
//! map, and [`NawPresenter`], the presentation the `systems` registry hosts it with.

use engine::dynamic::{LegalAction, Presenter, QueryError};
use engine::{Record, Refusal, ReplayError, Rules, Session, Side, ToAct, Viewer};
use hexmap::{Dir, Hex, Hexside, Map};
use naw::{Action, Game, Loc, Phase, Step, UnitId};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The whole state of a game as a front end shows it (`docs/api.md`, "The state view").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateView<'a> {
    /// The game's id on the server (absent outside a server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The scenario as the record names it (`bon-first-day`).
    pub scenario: String,
    /// The scenario's title.
    pub title: String,
    /// Where the game stands (shared with the change).
    #[serde(flatten)]
    pub now: Situation,
    /// The scenario's first game-turn.
    pub first_turn: u8,
    /// The scenario's last game-turn.
    pub last_turn: u8,
    /// The night game-turns (10.0).
    pub night_turns: Vec<u8>,
    /// Every unit of the scenario.
    pub units: Vec<UnitEntry>,
    /// The rules system (`naw`): the board picks its panels by it.
    pub system: String,
    /// Every legal action of the side to act, in canonical text.
    pub legal: Vec<String>,
    /// The same legal actions as structured data (unit, from, to, target, kind, text).
    pub legal_actions: Vec<LegalAction>,
    /// What the board may overlay, computed by the rules: zones of control, artillery reach.
    pub overlays: Overlays,
    /// What the set-up of the scenario caused (such as 14.62), before the first action.
    #[serde(default)]
    pub setup_events: Vec<EventEntry>,
    /// Every recorded action with the events it caused, oldest first (borrowed from the
    /// caller's log when the view is built, so that a long log is not copied).
    pub log: Cow<'a, [LogEntry]>,
}

/// Map overlays computed by the rules (the board draws them as told).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overlays {
    /// By side name: the hexes that side's units control (6.0; never across an unbridged
    /// river, 6.6).
    pub zoc: BTreeMap<String, Vec<String>>,
    /// By artillery unit id: the hexes it could bombard now (8.11, 8.31, 8.42).
    pub range: BTreeMap<String, Vec<String>>,
}

/// The overlays of a game.
pub fn overlays(g: &Game) -> Overlays {
    let map = &g.scenario().map;
    let mut o = Overlays::default();
    for s in 0..g.seats() {
        let side = Side(s as u8);
        let mut hexes = Vec::new();
        for x in 1..=map.width() {
            for y in 1..=map.height() {
                let h = Hex::new(x, y);
                if g.controlled_by(side, h) {
                    hexes.push(h.to_string());
                }
            }
        }
        o.zoc.insert(side_name(g, side).to_string(), hexes);
    }
    for u in g.unit_ids() {
        let r = g.bombard_range(u);
        if !r.is_empty() {
            o.range.insert(
                g.id(u).to_string(),
                r.iter().map(|h| h.to_string()).collect(),
            );
        }
    }
    o
}

/// A legal action as structured data.
pub fn legal_action(g: &Game, a: Action) -> LegalAction {
    let p = legal_parts(g, a);
    LegalAction {
        text: g.action_text(a),
        kind: p.kind.to_string(),
        unit: p.unit.map(|u| g.id(u).to_string()),
        from: p.from.map(|h| h.to_string()),
        to: p.to.map(|h| h.to_string()),
        target: p.target.map(|u| g.id(u).to_string()),
    }
}

/// What a [`LegalAction`] says of an action, before it is made text.
struct LegalParts {
    kind: &'static str,
    unit: Option<UnitId>,
    from: Option<Hex>,
    to: Option<Hex>,
    target: Option<UnitId>,
}

fn legal_parts(g: &Game, a: Action) -> LegalParts {
    let hex = |u: UnitId| g.hex_of(u);
    let (kind, unit, from, to, target) = match a {
        Action::Move { unit, to } => {
            let from = hex(unit).or_else(|| g.arrival(unit).map(|a| a.1));
            ("move", Some(unit), from, Some(to), None)
        }
        Action::End => ("end", None, None, None, None),
        Action::Attack { unit, target } => {
            ("attack", Some(unit), hex(unit), hex(target), Some(target))
        }
        Action::Resolve { target, .. } => ("resolve", None, None, hex(target), Some(target)),
        Action::Roll(_) => ("roll", None, None, None, None),
        Action::Lose { .. } => ("lose", None, None, None, None),
        Action::Retreat { unit, to } => ("retreat", Some(unit), hex(unit), Some(to), None),
        Action::Stand { unit } => ("stand", Some(unit), hex(unit), None, None),
        Action::Advance { unit, to } => ("advance", Some(unit), hex(unit), Some(to), None),
        Action::Hold => ("hold", None, None, None, None),
    };
    LegalParts {
        kind,
        unit,
        from,
        to,
        target,
    }
}

/// A legal action as [`LegalAction`] serializes it (the same keys in the same order), its
/// words borrowed from the game: a reply's hundreds of legal actions without a string each.
#[derive(Serialize)]
struct LegalRef<'a> {
    text: &'a str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "hex_text")]
    from: Option<Hex>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "hex_text")]
    to: Option<Hex>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
}

fn hex_text<S: serde::Serializer>(h: &Option<Hex>, s: S) -> Result<S::Ok, S::Error> {
    match h {
        Some(h) => s.collect_str(h),
        None => s.serialize_none(),
    }
}

/// The legal actions of the side to act as the JSON members `"legal":[…],"legal_actions":[…]`
/// of the state view, written straight from the rules' actions.
pub fn legal_members_of(g: &Game) -> String {
    #[derive(Serialize)]
    struct Legal<'a> {
        legal: &'a [String],
        legal_actions: Vec<LegalRef<'a>>,
    }
    let actions = legal(g);
    let texts: Vec<String> = actions.iter().map(|&a| g.action_text(a)).collect();
    let refs = actions
        .iter()
        .zip(&texts)
        .map(|(&a, text)| {
            let p = legal_parts(g, a);
            LegalRef {
                text,
                kind: p.kind,
                unit: p.unit.map(|u| g.id(u)),
                from: p.from,
                to: p.to,
                target: p.target.map(|u| g.id(u)),
            }
        })
        .collect();
    let text = serde_json::to_string(&Legal {
        legal: &texts,
        legal_actions: refs,
    })
    .unwrap_or_else(|_| "{}".into());
    // the members without the braces
    text[1..text.len() - 1].to_string()
}

/// The `odds` query: `attack,defence[,doubled]` → the odds view (the column and every result's
/// probability).
pub fn odds_query(arg: &str) -> Result<serde_json::Value, QueryError> {
    let mut it = arg.split(',').map(str::trim);
    let num = |x: Option<&str>, what: &str| -> Result<u32, QueryError> {
        x.filter(|v| !v.is_empty())
            .ok_or_else(|| QueryError::Bad(format!("give {what}=N")))?
            .parse()
            .map_err(|_| QueryError::Bad(format!("{what} is not a whole number")))
    };
    let attack = num(it.next(), "attack")?;
    let defence = num(it.next(), "defence")?;
    let doubled = matches!(it.next(), Some("true" | "1"));
    let v = odds_view(attack, defence, doubled)
        .ok_or_else(|| QueryError::Bad(format!("defence {defence} is too large")))?;
    Ok(serde_json::to_value(v).unwrap_or_default())
}

/// The presentation of Napoleon at War games for [`engine::dynamic::Hosted`].
#[derive(Clone, Copy, Debug, Default)]
pub struct NawPresenter;

impl Presenter<Game> for NawPresenter {
    fn view(&self, session: &Session<Game>, _viewer: Viewer) -> serde_json::Value {
        // Napoleon at War hides nothing: every viewer sees the whole board.
        serde_json::to_value(state_view(session, None, &[])).unwrap_or_default()
    }

    fn view_without_legal(&self, session: &Session<Game>, _viewer: Viewer) -> serde_json::Value {
        let mut v =
            serde_json::to_value(state_view_of(session, None, &[], false)).unwrap_or_default();
        engine::dynamic::take_legal(&mut v);
        v
    }

    fn legal_json(&self, session: &Session<Game>, _viewer: Viewer) -> String {
        // typed straight to text: the legal actions are most of a reply's bytes
        legal_members_of(&session.game)
    }

    fn event(&self, game: &Game, event: &naw::Event) -> serde_json::Value {
        serde_json::to_value(EventEntry::of(game, event)).unwrap_or_default()
    }

    fn legal_action(&self, game: &Game, a: Action) -> LegalAction {
        legal_action(game, a)
    }

    fn query(
        &self,
        session: &Session<Game>,
        name: &str,
        arg: &str,
        _viewer: Viewer,
    ) -> Result<serde_json::Value, QueryError> {
        let g = &session.game;
        match name {
            "moves" => {
                let u = g.unit_named(arg.trim()).map_err(QueryError::NotFound)?;
                Ok(serde_json::to_value(moves_view(g, u)).unwrap_or_default())
            }
            "odds" => odds_query(arg),
            "text" => text_query(session, arg),
            "hexsides" | "retreats" | "reach" | "map_around" => {
                crate::naw_study::query(session, name, arg)
            }
            "preview" => crate::naw_charts::preview_query(session, arg),
            other => Err(QueryError::Unknown(other.to_string())),
        }
    }
}

/// One army's demoralization count (17.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyEntry {
    /// The army's name.
    pub army: String,
    /// Its side.
    pub side: String,
    /// Strength points eliminated so far.
    pub losses: u32,
    /// The level this game-turn, if the army has one.
    pub level: Option<u32>,
}

/// One unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitEntry {
    /// Its id (`FR.4`).
    pub id: String,
    /// Its side's name.
    pub side: String,
    /// Its nation's id (`FR`).
    pub nation: String,
    /// Its designation as printed on the counter.
    pub designation: String,
    /// `infantry`, `cavalry` or `artillery`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Combat strength.
    pub strength: u16,
    /// Movement allowance.
    pub movement: u8,
    /// `map`, `waiting`, `eliminated`, or `displaced` (pushed out of `hex` and about to
    /// retreat, 7.81).
    pub status: String,
    /// The hex it stands in (or was displaced from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// Moved in this movement phase (5.17).
    pub moved: bool,
    /// In a declared combat of this combat phase.
    pub in_combat: bool,
    /// For a waiting reinforcement: when and where it may enter (15.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrival: Option<Arrival>,
}

/// When and where a reinforcement may enter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrival {
    /// The game-turn from which it may enter.
    pub turn: u8,
    /// Its entry hex.
    pub hex: String,
}

/// A declared combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatEntry {
    /// Attacking units (bombarding artillery included).
    pub attackers: Vec<String>,
    /// Bombarding artillery among the attackers (8.1).
    pub bombarding: Vec<String>,
    /// Defending units; the first names the combat (`resolve FIRST`).
    pub defenders: Vec<String>,
    /// Total attack strength.
    pub attack: u32,
    /// Total defence strength after terrain (9.0).
    pub defence: u32,
    /// The odds column (`3-1`).
    pub column: String,
    /// Why defenders are doubled, if they are.
    pub terrain: Vec<String>,
    /// The probability of every result at these odds (`Ae`, `Ar`, `Dr`, `De`, `Ex`).
    pub probabilities: BTreeMap<String, f64>,
    /// Resolved: its die has been rolled. From then on `attack`, `defence`, `terrain` and
    /// `column` are those it was resolved at (the column a reduced one, 7.9) and
    /// `probabilities` that column's.
    pub resolved: bool,
    /// The die, once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<u8>,
    /// The result (`Dr`), once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The column the strengths gave, when the combat was resolved at reduced odds (7.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced_from: Option<String>,
}

/// An obligation of the combat phase still open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Obligation {
    /// The unit.
    pub unit: String,
    /// `7.11` (must be attacked), `7.12` (must attack) or `8.41` (artillery must attack or
    /// bombard).
    pub case: String,
}

/// Something an action caused: its case, its kind, its facts (unit ids, hexes, the die) and a
/// sentence. Front ends read the facts; the sentence is for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventEntry {
    /// The rule case.
    pub case: String,
    /// What kind of event (`combat`, `eliminated`, ...; `computer` for a computer player's
    /// explanation).
    #[serde(default)]
    pub kind: String,
    /// What happened.
    pub text: String,
    /// The event's facts, by kind (`docs/api.md`).
    #[serde(flatten)]
    pub facts: serde_json::Map<String, serde_json::Value>,
}

impl EventEntry {
    /// An event with no facts beyond its sentence.
    pub fn plain(case: &str, kind: &str, text: impl Into<String>) -> EventEntry {
        EventEntry {
            case: case.to_string(),
            kind: kind.to_string(),
            text: text.into(),
            facts: serde_json::Map::new(),
        }
    }

    /// A Napoleon at War event in the game where it happened, unit numbers as ids.
    pub fn of(g: &Game, e: &naw::Event) -> EventEntry {
        use naw::Event as E;
        use serde_json::json;
        let id = |u: UnitId| json!(g.id(u));
        let ids = |s: &naw::UnitSet| json!(s.iter().map(|u| g.id(u)).collect::<Vec<_>>());
        let facts = match e {
            E::NoMovement { side } => json!({ "side": side_name(g, *side) }),
            E::Delayed { unit, hex, by } => {
                json!({ "unit": id(*unit), "hex": hex.to_string(), "by": by })
            }
            E::Entered { unit, hex } => json!({ "unit": id(*unit), "hex": hex.to_string() }),
            E::Combat {
                attackers,
                defenders,
                attack,
                defence,
                column,
                die,
                result,
            } => json!({
                "attackers": ids(attackers), "defenders": ids(defenders), "attack": attack,
                "defence": defence, "column": column.name(), "die": die, "result": result.name(),
            }),
            E::Displaced { unit, from, by } => {
                json!({ "unit": id(*unit), "from": from.to_string(), "by": id(*by) })
            }
            E::Advanced { unit, to } => json!({ "unit": id(*unit), "to": to.to_string() }),
            E::Eliminated { unit, why } => json!({ "unit": id(*unit), "why": why }),
            E::CutOff { unit, target } => {
                json!({ "unit": id(*unit), "hex": target.to_string() })
            }
            E::GameOver { winner, .. } => match g.line_of_communications_at_end() {
                // the check of 17.5 made at the end of the last game-turn
                Some(c) => json!({
                    "winner": winner.map(|w| side_name(g, w)),
                    "line_of_communications": line_entry(g, &c),
                }),
                None => json!({ "winner": winner.map(|w| side_name(g, w)) }),
            },
        };
        EventEntry {
            case: e.case().to_string(),
            kind: e.kind().to_string(),
            text: e.text(g),
            facts: match facts {
                serde_json::Value::Object(m) => m,
                _ => serde_json::Map::new(),
            },
        }
    }
}

/// One recorded action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Its position in the record, from 1.
    pub n: usize,
    /// Who took it: a side's name, or `chance` for a die.
    pub side: String,
    /// Its canonical text.
    pub action: String,
    /// What it caused.
    pub events: Vec<EventEntry>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeEntry {
    /// The winning side, or `None` for a draw.
    pub winner: Option<String>,
    /// The case that decided it.
    pub case: String,
    /// Why, in a sentence.
    pub why: String,
    /// The line-of-communications check made at the end of the last game-turn (17.5), when
    /// the game ended there and the scenario has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_of_communications: Option<LineEntry>,
}

/// The line-of-communications check of 17.5, from the rules' own query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineEntry {
    /// `17.5`.
    pub case: String,
    /// The side that traces.
    pub side: String,
    /// The hex the lines lead to (`2131`).
    pub hex: String,
    /// The units on the map that trace a line.
    pub traced: Vec<String>,
    /// The units cut off, which count as eliminated.
    pub cut_off: Vec<String>,
}

/// A line-of-communications check as its entry.
pub fn line_entry(g: &Game, c: &naw::LineCheck) -> LineEntry {
    let ids = |v: &[UnitId]| v.iter().map(|&u| g.id(u).to_string()).collect();
    LineEntry {
        case: "17.5".into(),
        side: side_name(g, c.side).to_string(),
        hex: c.hex.to_string(),
        traced: ids(&c.traced),
        cut_off: ids(&c.cut_off),
    }
}

/// The name of a side.
pub fn side_name(g: &Game, s: Side) -> &str {
    g.scenario()
        .sides
        .get(s.0 as usize)
        .map_or("?", |x| x.as_str())
}

/// Who acts, as the state view names it: a side's name, `chance` or `over`.
pub fn to_act_name(g: &Game) -> String {
    match g.to_act() {
        ToAct::Side(x) => side_name(g, x).to_string(),
        ToAct::Chance => "chance".into(),
        ToAct::Over(_) => "over".into(),
    }
}

/// The step's short name.
pub fn step_name(step: Step) -> &'static str {
    match step {
        Step::Movement => "movement",
        Step::Declare => "declare",
        Step::Choose => "choose",
        Step::Roll => "roll",
        Step::Losses => "losses",
        Step::Retreat => "retreat",
        Step::Advance => "advance",
        Step::Over => "over",
    }
}

/// The probabilities of an odds column keyed by result name (`Ae` .. `Ex`).
pub fn probability_map(p: &[f64; 5]) -> BTreeMap<String, f64> {
    naw::CombatResult::ALL
        .iter()
        .zip(p)
        .map(|(r, &x)| (r.name().to_string(), x))
        .collect()
}

/// The legal actions of the side to act (or the die faces at a chance event).
pub fn legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// The events of the game's last action.
pub fn events(g: &Game) -> Vec<EventEntry> {
    g.events().iter().map(|e| EventEntry::of(g, e)).collect()
}

/// The log entry of the `n`th action (from 1), `text`, taken when `before` was to act; `after`
/// is the state it made.
pub fn log_entry(n: usize, before: &ToAct, text: &str, after: &Game) -> LogEntry {
    LogEntry {
        n,
        side: match before {
            ToAct::Side(s) => side_name(after, *s).to_string(),
            ToAct::Chance => "chance".into(),
            ToAct::Over(_) => "over".into(),
        },
        action: text.to_string(),
        events: events(after),
    }
}

/// The log of a whole record, rebuilt by replaying it from `start` (which must be the state
/// the record starts from).
pub fn log_of_record(
    start: &Game,
    record: &Record,
    upto: Option<usize>,
) -> Result<Vec<LogEntry>, ReplayError> {
    let mut log = Vec::with_capacity(record.actions.len());
    engine::replay_with(
        start.clone(),
        record,
        start.scenario().digest,
        upto,
        |n, r, before, after| log.push(log_entry(n, before, &r.text, after)),
    )?;
    Ok(log)
}

/// The log of a session's record.
pub fn log_of(s: &Session<Game>) -> Result<Vec<LogEntry>, ReplayError> {
    log_of_record(s.start(), &s.record, None)
}

fn unit_status(g: &Game, u: UnitId) -> (&'static str, Option<Hex>) {
    match g.loc(u) {
        Loc::Map(h) => ("map", Some(h)),
        Loc::Waiting => ("waiting", None),
        Loc::Eliminated => ("eliminated", None),
        Loc::Lifted(h) => ("displaced", Some(h)),
    }
}

/// The units of a game.
pub fn units(g: &Game) -> Vec<UnitEntry> {
    let sc = g.scenario();
    g.units()
        .into_iter()
        .map(|v| {
            let d = sc.unit(v.unit);
            let (status, hex) = unit_status(g, v.unit);
            UnitEntry {
                id: d.id.clone(),
                side: side_name(g, d.side).to_string(),
                nation: sc
                    .nations
                    .get(d.nation as usize)
                    .map_or_else(String::new, |n| n.id.clone()),
                designation: d.designation.clone(),
                kind: d.kind.name().to_string(),
                strength: d.strength,
                movement: d.movement,
                status: status.to_string(),
                hex: hex.map(|h| h.to_string()),
                moved: v.moved,
                in_combat: v.in_combat,
                arrival: v.arrival.map(|(turn, hex)| Arrival {
                    turn,
                    hex: hex.to_string(),
                }),
            }
        })
        .collect()
}

/// The declared combats of a game with their odds.
pub fn combats(g: &Game) -> Vec<CombatEntry> {
    let ids = |v: &[UnitId]| v.iter().map(|&u| g.id(u).to_string()).collect::<Vec<_>>();
    g.combats()
        .iter()
        .map(|c| {
            // once rolled, the combat as it was resolved (7.6), at the column used (7.9)
            let odds = c.rolled.as_ref().map_or(&c.odds, |r| &r.odds);
            let column = c.rolled.as_ref().map_or(c.odds.column, |r| r.column);
            CombatEntry {
                attackers: ids(&c.attackers),
                bombarding: ids(&c.bombarding),
                defenders: ids(&c.defenders),
                attack: odds.attack,
                defence: odds.defence,
                column: column.name().to_string(),
                terrain: odds.terrain.clone(),
                probabilities: probability_map(&naw::tables::probabilities(column)),
                resolved: c.resolved || c.rolled.is_some(),
                die: c.rolled.as_ref().map(|r| r.die),
                result: c.rolled.as_ref().map(|r| r.result.name().to_string()),
                reduced_from: c
                    .rolled
                    .as_ref()
                    .filter(|r| r.column != r.odds.column)
                    .map(|r| r.odds.column.name().to_string()),
            }
        })
        .collect()
}

/// The state view of a session. `id` is the server's game id; `log` the entries of every
/// recorded action (from [`log_of`], or kept up to date action by action with [`log_entry`]).
pub fn state_view<'a>(s: &Session<Game>, id: Option<&str>, log: &'a [LogEntry]) -> StateView<'a> {
    state_view_of(s, id, log, true)
}

/// [`state_view`], its legal actions left empty unless `with_legal`.
fn state_view_of<'a>(
    s: &Session<Game>,
    id: Option<&str>,
    log: &'a [LogEntry],
    with_legal: bool,
) -> StateView<'a> {
    let g = &s.game;
    let sc = g.scenario();
    let legal = if with_legal { legal(g) } else { Vec::new() };
    StateView {
        id: id.map(str::to_string),
        scenario: s.record.scenario.clone(),
        title: sc.title.clone(),
        now: situation(s),
        first_turn: sc.first_turn,
        last_turn: sc.last_turn,
        night_turns: sc.night_turns.clone(),
        units: units(g),
        system: "naw".into(),
        legal: legal.iter().map(|&a| g.action_text(a)).collect(),
        legal_actions: legal.iter().map(|&a| legal_action(g, a)).collect(),
        overlays: overlays(g),
        setup_events: events(s.start()),
        log: Cow::Borrowed(log),
    }
}

/// What one change did to a game (an accepted action with the dice and the computer's actions
/// after it, or a take-back): the light form of the state view that acting replies and
/// WebSocket messages carry (`docs/api.md`, "The change").
///
/// A front end holding the state view of `base` actions applies it by replacing the small
/// fields, replacing the units listed in `units` (by id), keeping the log entries with
/// `n <= actions_recorded - log.len()` and appending `log`, and taking `legal` when it is
/// present. When its state is not the one of `base`, it fetches the whole state view instead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateChange {
    /// The `actions_recorded` of the state this change applies to.
    pub base: usize,
    /// Where the game stands now.
    #[serde(flatten)]
    pub now: Situation,
    /// The units whose entry changed, in the order of the state view.
    pub units: Vec<UnitEntry>,
    /// The log entries added by the change (none after a take-back).
    pub log: Vec<LogEntry>,
    /// Every legal action of the side to act, only when the client asked for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
}

/// The change from a state whose units were `before_units` and whose record held `base`
/// actions to the session's current state; `log` is the session's whole log (its entries past
/// the common part are the new ones), and the legal actions are listed when `with_legal`.
pub fn state_change(
    s: &Session<Game>,
    base: usize,
    before_units: &[UnitEntry],
    now_units: &[UnitEntry],
    log: &[LogEntry],
    with_legal: bool,
) -> StateChange {
    let g = &s.game;
    let n = s.record.actions.len();
    let kept = base.min(n);
    StateChange {
        base,
        now: situation(s),
        units: now_units
            .iter()
            .enumerate()
            .filter(|(i, u)| before_units.get(*i) != Some(*u))
            .map(|(_, u)| u.clone())
            .collect(),
        log: log
            .get(kept..)
            .map(<[LogEntry]>::to_vec)
            .unwrap_or_default(),
        legal: with_legal.then(|| legal(g).iter().map(|&a| g.action_text(a)).collect()),
    }
}

/// Where a game stands: the fields the state view and the change share (flattened into both).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Situation {
    /// The current game-turn.
    pub turn: u8,
    /// True in a night game-turn.
    pub night: bool,
    /// The phasing side's name.
    pub phasing: String,
    /// `movement` or `combat`.
    pub phase: String,
    /// `movement`, `declare`, `choose`, `roll`, `losses`, `retreat`, `advance` or `over`.
    pub step: String,
    /// A side's name, `chance` or `over`.
    pub to_act: String,
    /// How many actions the record holds (the `expect` of the next action).
    pub actions_recorded: usize,
    /// How many of the last actions may still be taken back (5.14).
    pub undoable: usize,
    /// The state hash (16 hex digits).
    pub state_hash: String,
    /// Losses against the demoralization level of every army (17.0).
    pub demoralization: Vec<ArmyEntry>,
    /// The combats declared in the current combat phase.
    pub combats: Vec<CombatEntry>,
    /// Open obligations while attacks are declared (7.11, 7.12, 8.41).
    pub obligations: Vec<Obligation>,
    /// How the game ended, once it has.
    pub outcome: Option<OutcomeEntry>,
}

/// Where the session's game stands.
pub fn situation(s: &Session<Game>) -> Situation {
    let g = &s.game;
    let sc = g.scenario();
    Situation {
        turn: g.turn(),
        night: g.is_night(),
        phasing: side_name(g, g.phasing()).to_string(),
        phase: match g.phase() {
            Phase::Movement => "movement",
            Phase::Combat => "combat",
        }
        .to_string(),
        step: step_name(g.step()).to_string(),
        to_act: to_act_name(g),
        actions_recorded: s.record.actions.len(),
        undoable: g.undoable().min(s.record.actions.len()),
        state_hash: engine::hash_text(g.state_hash()),
        demoralization: sc
            .armies
            .iter()
            .enumerate()
            .map(|(i, (name, side))| ArmyEntry {
                army: name.clone(),
                side: side_name(g, *side).to_string(),
                losses: g.losses().get(i).copied().unwrap_or(0),
                level: g.demoralization_level(i as u8),
            })
            .collect(),
        combats: combats(g),
        obligations: obligations(g),
        outcome: g.outcome().map(|o| OutcomeEntry {
            winner: o.winner.map(|w| side_name(g, w).to_string()),
            case: o.case.to_string(),
            why: o.why.clone(),
            line_of_communications: g.line_of_communications_at_end().map(|c| line_entry(g, &c)),
        }),
    }
}

fn obligations(g: &Game) -> Vec<Obligation> {
    if g.step() == Step::Declare {
        g.open_obligations()
            .into_iter()
            .map(|(u, kind)| Obligation {
                unit: g.id(u).to_string(),
                case: kind.case().to_string(),
            })
            .collect()
    } else {
        Vec::new()
    }
}

/// One legal destination of a unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DestinationEntry {
    /// The hex.
    pub hex: String,
    /// The cost of the cheapest path in movement points (halves as `1.5`).
    pub cost: f64,
    /// The cheapest path, from the unit's hex (or entry hex) to the destination.
    pub path: Vec<String>,
    /// The hex lies in an enemy zone of control: the move ends there (6.0), and the unit may
    /// not leave it in a later movement phase (5.13).
    #[serde(default)]
    pub zoc: bool,
}

/// Why a unit cannot move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WhyNot {
    /// The case that forbids it.
    pub case: String,
    /// Why, in a sentence.
    pub why: String,
}

/// A unit's legal destinations (`docs/api.md`, the moves view).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovesView {
    /// The unit's id.
    pub unit: String,
    /// Its movement allowance.
    pub movement: u8,
    /// Where it moves from: its hex, or its entry hex when waiting.
    pub from: Option<String>,
    /// Every legal destination, cheapest first.
    pub destinations: Vec<DestinationEntry>,
    /// Why it cannot move, when it has no destination.
    pub why_not: Option<WhyNot>,
}

/// A destination, its cost in half movement points and its cheapest path.
pub type Move = (Hex, u16, Vec<Hex>);

/// The legal destinations of a unit with cost and cheapest path (cheapest first), or the
/// reason it cannot move.
pub fn moves(g: &Game, u: UnitId) -> (Vec<Move>, Option<Refusal>) {
    let mut dests = Vec::new();
    g.destinations(u, &mut dests);
    let mut out: Vec<Move> = dests
        .iter()
        .map(|d| {
            let path = g.path(u, d.hex).map(|p| p.0).unwrap_or_default();
            (d.hex, d.cost_half, path)
        })
        .collect();
    out.sort_by_key(|x| (x.1, x.0));
    if !out.is_empty() {
        return (out, None);
    }
    // Why not, from the rules: the phase (14.62, 5.11), a zone of control (5.13, 10.2,
    // 16.1), or no destination open (5.0)
    (out, Some(g.why_no_destination(u)))
}

/// True when a unit moving into `h` enters a zone of control of its enemy (6.0).
fn in_enemy_zone(g: &Game, u: UnitId, h: Hex) -> bool {
    use naw::Opponent;
    g.controlled_by(g.side_of(u).other(), h)
}

/// The moves view of a unit.
pub fn moves_view(g: &Game, u: UnitId) -> MovesView {
    let (list, why) = moves(g, u);
    let from = match g.loc(u) {
        Loc::Map(h) => Some(h.to_string()),
        Loc::Waiting => g
            .units()
            .get(u.0 as usize)
            .and_then(|v| v.arrival)
            .map(|a| a.1.to_string()),
        _ => None,
    };
    MovesView {
        unit: g.id(u).to_string(),
        movement: g.scenario().unit(u).movement,
        from,
        destinations: list
            .into_iter()
            .map(|(h, c, p)| DestinationEntry {
                hex: h.to_string(),
                cost: c as f64 / 2.0,
                path: p.iter().map(|h| h.to_string()).collect(),
                zoc: in_enemy_zone(g, u, h),
            })
            .collect(),
        why_not: why.map(|r| WhyNot {
            case: r.case.to_string(),
            why: r.why,
        }),
    }
}

/// One hexside with features.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexsideEntry {
    /// One hex of the hexside (always on the map).
    pub a: String,
    /// The other hex (off the map for a hexside on the map's edge).
    pub b: String,
    /// The direction from `a` to `b`: `E`, `NE`, `NW`, `W`, `SW` or `SE`.
    pub dir: String,
    /// `road`, `trail`, `river`, `stream`, `bridge`, `slope`.
    pub features: Vec<String>,
}

/// A named place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceEntry {
    /// The name as printed.
    pub name: String,
    /// The hex it is drawn in.
    pub hex: String,
}

/// A map for drawing (`docs/api.md`, the map view).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapView {
    /// The map's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Rows (`XX`).
    pub width: i16,
    /// Hexes per row (`YY`).
    pub height: i16,
    /// Terrain names, one list per row `XX = 1..width`, each `YY = 1..height`.
    pub terrain: Vec<Vec<String>>,
    /// Every hexside that has a feature, once.
    pub hexsides: Vec<HexsideEntry>,
    /// Hexes with the slope symbol (5.26).
    pub slope_hexes: Vec<String>,
    /// Named places.
    pub places: Vec<PlaceEntry>,
    /// The map's legend: `terrain` (`id`, `name`, `code`, `fill`, `pattern` if any) and
    /// `features` (`id`, `name`, `stroke`, `width` and `dash` in hex widths, `style` unless
    /// `edge`), the ids used by `terrain` and `hexsides`.
    pub legend: hexmap::Legend,
    /// Which rows are shifted half a hex west: `even` or `odd`.
    pub parity: hexmap::Parity,
}

/// The map view of a map.
pub fn map_view(map: &Map) -> MapView {
    let terrain = (1..=map.width())
        .map(|x| {
            (1..=map.height())
                .map(|y| map.terrain_kind(Hex::new(x, y)).id.clone())
                .collect()
        })
        .collect();
    let mut hexsides = Vec::new();
    for h in map.hexes() {
        for d in Dir::ALL {
            let n = map.neighbour(h, d);
            // each hexside once: from the lower-numbered hex, or from the only on-map one
            if map.contains(n) && n < h {
                continue;
            }
            let f = map.hexside(h, d);
            if f == Hexside::NONE {
                continue;
            }
            hexsides.push(HexsideEntry {
                a: h.to_string(),
                b: n.to_string(),
                dir: d.name().to_string(),
                features: map.legend().feature_ids(f).map(String::from).collect(),
            });
        }
    }
    MapView {
        id: map.id.clone(),
        title: map.title.clone(),
        width: map.width(),
        height: map.height(),
        terrain,
        hexsides,
        slope_hexes: map
            .hexes()
            .filter(|&h| map.is_slope_hex(h))
            .map(|h| h.to_string())
            .collect(),
        places: map
            .places
            .iter()
            .map(|p| PlaceEntry {
                name: p.name.clone(),
                hex: p.hex.to_string(),
            })
            .collect(),
        legend: map.legend().clone(),
        parity: map.parity(),
    }
}

/// The odds of a combat and the probability of every result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OddsView {
    /// The attack strength.
    pub attack: u32,
    /// The defence strength the odds are computed against (doubled when asked).
    pub defence: u32,
    /// The odds column (`3-1`).
    pub column: String,
    /// The probability of every result (`Ae`, `Ar`, `Dr`, `De`, `Ex`).
    pub probabilities: BTreeMap<String, f64>,
}

/// The odds of `attack` strength points against `defence`, doubled by terrain when `doubled`
/// (9.0). `None` when doubling overflows.
pub fn odds_view(attack: u32, defence: u32, doubled: bool) -> Option<OddsView> {
    let eff = if doubled {
        defence.checked_mul(2)?
    } else {
        defence
    };
    let column = naw::Column::of(attack, eff);
    Some(OddsView {
        attack,
        defence: eff,
        column: column.name().to_string(),
        probabilities: probability_map(&naw::tables::probabilities(column)),
    })
}

/// A shipped scenario as listed for choosing a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioEntry {
    /// Its id (`bon-first-day`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// First game-turn.
    pub first_turn: u8,
    /// Last game-turn.
    pub last_turn: u8,
    /// The two sides, first to move first.
    pub sides: Vec<String>,
    /// How many units.
    pub units: usize,
    /// What it is about.
    pub description: String,
}

/// The list entry of a scenario.
pub fn scenario_entry(id: &str, sc: &naw::Scenario) -> ScenarioEntry {
    ScenarioEntry {
        id: id.to_string(),
        title: sc.title.clone(),
        first_turn: sc.first_turn,
        last_turn: sc.last_turn,
        sides: sc.sides.to_vec(),
        units: sc.units.len(),
        description: sc.description.trim().to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// The command line's text (the `text` query): the state, a unit's moves and a compact map, as
// `grognard show` and `grognard moves` print them.

/// What the current step asks for, in words.
pub fn step_text(step: Step) -> &'static str {
    match step {
        Step::Movement => "movement phase",
        Step::Declare => "combat phase: declaring attacks (7.1)",
        Step::Choose => "combat phase: choosing the next combat to resolve (7.0)",
        Step::Roll => "combat phase: the die is rolled (7.6)",
        Step::Losses => "combat phase: the attacker chooses exchange losses (7.6)",
        Step::Retreat => "combat phase: retreats (7.7)",
        Step::Advance => "combat phase: advance after combat (7.74)",
        Step::Over => "the game is over",
    }
}

/// Who acts, in words.
pub fn to_act_text(g: &Game) -> String {
    match g.to_act() {
        ToAct::Side(s) => format!("{} to act", side_name(g, s)),
        ToAct::Chance => "a die is to be rolled".into(),
        ToAct::Over(o) => match g.line_of_communications_at_end() {
            Some(c) => format!("game over: {} ({}); {}", o.why, o.case, line_brief(g, &c)),
            None => format!("game over: {} ({})", o.why, o.case),
        },
    }
}

/// The line-of-communications check in a few words: how many trace, which are cut off.
pub fn line_brief(g: &Game, c: &naw::LineCheck) -> String {
    let cut: Vec<&str> = c.cut_off.iter().map(|&u| g.id(u)).collect();
    format!(
        "line of communications to {} (17.5): {} {} units trace, {}",
        c.hex,
        c.traced.len(),
        side_name(g, c.side),
        if cut.is_empty() {
            "none is cut off".to_string()
        } else {
            format!("cut off and counted as eliminated: {}", cut.join(", "))
        }
    )
}

/// Words wrapped into lines of at most `width` characters, each indented by `indent`
/// spaces, ending in a new line.
fn wrap(words: &[String], width: usize, indent: usize) -> String {
    let mut out = " ".repeat(indent);
    let mut line = indent;
    for w in words {
        if line > indent && line + 1 + w.len() > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line = indent;
        } else if line > indent {
            out.push(' ');
            line += 1;
        }
        out.push_str(w);
        line += w.len();
    }
    out.push('\n');
    out
}

/// The reinforcements still to enter this game-turn and next (15.0), by side, game-turn and
/// entry hex; empty when none is due.
pub fn reinforcements_text(g: &Game) -> String {
    use std::fmt::Write;
    let now = g.turn();
    // (side, turn, hex) -> unit ids
    let mut due: BTreeMap<(u8, u8, Hex), Vec<&str>> = BTreeMap::new();
    for v in g.units() {
        if v.loc != Loc::Waiting {
            continue;
        }
        if let Some((turn, hex)) = v.arrival {
            if turn <= now + 1 {
                let side = g.side_of(v.unit).0;
                due.entry((side, turn.max(now), hex))
                    .or_default()
                    .push(g.id(v.unit));
            }
        }
    }
    let mut out = String::new();
    if due.is_empty() {
        return out;
    }
    out.push_str("Reinforcements (15.0):\n");
    for ((side, turn, hex), ids) in due {
        let when = if turn <= now {
            format!("due this game-turn ({now})")
        } else {
            format!("due next game-turn ({turn})")
        };
        let _ = writeln!(
            out,
            "  {} {when}, at {hex}: {}",
            side_name(g, Side(side)),
            ids.join(", ")
        );
    }
    out
}

/// One line: turn, phase, who acts.
pub fn headline(g: &Game) -> String {
    let sc = g.scenario();
    let night = if g.is_night() { ", night (10.0)" } else { "" };
    format!(
        "Game-turn {} of {}-{}{night}; {} player-turn, {}; {}",
        g.turn(),
        sc.first_turn,
        sc.last_turn,
        side_name(g, g.phasing()),
        step_text(g.step()),
        to_act_text(g)
    )
}

/// Where the game stands without who is to act: the game-turn, the phasing player and the
/// step (the terminal game prints the headline when this changes).
pub fn stage_text(g: &Game) -> String {
    let sc = g.scenario();
    let night = if g.is_night() { ", night (10.0)" } else { "" };
    format!(
        "Game-turn {} of {}-{}{night}; {} player-turn, {}",
        g.turn(),
        sc.first_turn,
        sc.last_turn,
        side_name(g, g.phasing()),
        step_text(g.step())
    )
}

/// The actions of Napoleon at War in a few lines, for the terminal game's `help`.
pub const ACTIONS_HELP: &str = "\
Actions (docs/actions.md); units by id (FR.4) or by the hex they stand in (2315):
  move UNIT HEX          move a unit, or bring a reinforcement on (5.0, 15.0)
  end                    end the movement phase, or finish declaring attacks
  attack UNIT TARGET     declare an attack; more attackers or defenders join the same combat
  resolve TARGET [at ODDS]  resolve a declared combat, optionally at reduced odds (7.9)
  lose UNIT[,UNIT...]    the attacker's losses after an exchange (7.6)
  retreat UNIT HEX       retreat a unit one hex (7.7)
  stand UNIT             bombarding artillery declines to retreat (8.15)
  advance UNIT HEX       advance after combat (7.74)
  hold                   decline to advance
";

/// The events of the game's last action as text, one per line, indented: `  [case] text`.
pub fn events_text(g: &Game) -> String {
    let mut out = String::new();
    for e in g.events() {
        out.push_str(&format!("  [{}] {}\n", e.case(), e.text(g)));
    }
    out
}

/// The demoralization line: losses against levels per army.
pub fn demoralization_text(g: &Game) -> String {
    let sc = g.scenario();
    let parts: Vec<String> = sc
        .armies
        .iter()
        .enumerate()
        .map(|(i, (name, _))| match g.demoralization_level(i as u8) {
            Some(l) => format!("{name} {} of {l}", g.losses()[i]),
            None => format!("{name} {} (no level)", g.losses()[i]),
        })
        .collect();
    format!(
        "Demoralization (17.0), strength lost against the level: {}",
        parts.join("; ")
    )
}

/// The declared combats, one per line.
pub fn combats_text(g: &Game) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let combats = g.combats();
    if combats.is_empty() {
        return out;
    }
    out.push_str("Combats declared:\n");
    for c in &combats {
        let names = |v: &[UnitId]| {
            v.iter()
                .map(|&u| {
                    if c.bombarding.contains(&u) {
                        format!("{} (bombarding)", g.id(u))
                    } else {
                        g.id(u).to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        // once rolled, the strengths as they stood at the roll
        let odds = c.rolled.as_ref().map_or(&c.odds, |r| &r.odds);
        let _ = write!(
            out,
            "  {} ({}) against {} ({}): {}",
            names(&c.attackers),
            odds.attack,
            names(&c.defenders),
            odds.defence,
            odds.column.name()
        );
        if !odds.terrain.is_empty() {
            let _ = write!(out, "; {}", odds.terrain.join("; "));
        }
        match &c.rolled {
            Some(r) if r.column != r.odds.column => {
                let _ = write!(
                    out,
                    " [resolved at {} (reduced from {}, 7.9): die {}, {}]",
                    r.column.name(),
                    r.odds.column.name(),
                    r.die,
                    r.result.name()
                );
            }
            Some(r) => {
                let _ = write!(
                    out,
                    " [resolved at {}: die {}, {}]",
                    r.column.name(),
                    r.die,
                    r.result.name()
                );
            }
            None if c.resolved => out.push_str(" [resolved]"),
            None => {}
        }
        out.push('\n');
    }
    out
}

/// The legal actions, moves and attacks grouped per unit.
pub fn legal_text(g: &Game) -> String {
    use std::fmt::Write;
    let actions = legal(g);
    let mut out = String::new();
    if actions.is_empty() {
        return out;
    }
    let mut moves: BTreeMap<UnitId, Vec<Hex>> = BTreeMap::new();
    let mut attacks: BTreeMap<UnitId, Vec<UnitId>> = BTreeMap::new();
    let mut others = Vec::new();
    for &a in &actions {
        match a {
            Action::Move { unit, to } => moves.entry(unit).or_default().push(to),
            Action::Attack { unit, target } => attacks.entry(unit).or_default().push(target),
            other => others.push(g.action_text(other)),
        }
    }
    let _ = writeln!(out, "Legal actions ({}):", actions.len());
    for (u, mut hexes) in moves {
        hexes.sort();
        let list: Vec<String> = hexes.iter().map(|h| h.to_string()).collect();
        let _ = writeln!(
            out,
            "  move {} to one of {} hexes: {}",
            g.id(u),
            list.len(),
            list.join(" ")
        );
    }
    for (u, targets) in attacks {
        let list: Vec<&str> = targets.iter().map(|&t| g.id(t)).collect();
        let _ = writeln!(out, "  attack {} -> {}", g.id(u), list.join(" | "));
    }
    if g.step() == Step::Roll {
        out.push_str("  roll 1..6\n");
    } else {
        for t in others {
            let _ = writeln!(out, "  {t}");
        }
    }
    out
}

/// The legal actions in brief, as `show` prints them: in a movement phase the units that may
/// move (with how many destinations each) and those held where they stand, pointing to
/// `grognard moves` for a unit's destinations; otherwise every action, grouped per unit as
/// [`legal_text`] does (declarations are few). `show --legal` prints [`legal_text`].
pub fn legal_summary_text(g: &Game) -> String {
    use std::fmt::Write;
    if g.step() != Step::Movement {
        return legal_text(g);
    }
    let actions = legal(g);
    let mut per_unit: BTreeMap<UnitId, usize> = BTreeMap::new();
    for &a in &actions {
        if let Action::Move { unit, .. } = a {
            *per_unit.entry(unit).or_default() += 1;
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Legal actions ({}): {} units may move, end ends the movement phase.",
        actions.len(),
        per_unit.len()
    );
    if !per_unit.is_empty() {
        let words: Vec<String> = g
            .unit_ids()
            .filter_map(|u| per_unit.get(&u).map(|n| format!("{} ({n})", g.id(u))))
            .collect();
        out.push_str("  may move (how many legal destinations):\n");
        out.push_str(&wrap(&words, 100, 4));
    }
    // the phasing side's units on the map that may not move, and why (5.13, 10.2, ...)
    let mut held = Vec::new();
    for u in g.unit_ids() {
        if g.side_of(u) != g.phasing() || per_unit.contains_key(&u) || g.hex_of(u).is_none() {
            continue;
        }
        let r = g.why_no_destination(u);
        if r.case != "5.17" {
            held.push(format!("{} ({})", g.id(u), r.case));
        }
    }
    if !held.is_empty() {
        out.push_str("  cannot move now (the case that holds them):\n");
        out.push_str(&wrap(&held, 100, 4));
    }
    out.push_str(
        "  `grognard moves RECORD UNIT` lists a unit's destinations; \
         `grognard show RECORD --legal` lists every legal action.\n",
    );
    out
}

/// The state as text for players: title, headline, demoralization, the record, the
/// reinforcements due, every unit, the declared combats, the open obligations, the legal
/// actions in brief ([`legal_summary_text`]; every one when `all_legal`) and the outcome
/// with the line-of-communications check (17.5).
pub fn state_text_with(s: &Session<Game>, all_legal: bool) -> String {
    use std::fmt::Write;
    let g = &s.game;
    let sc = g.scenario();
    let mut out = String::new();
    let _ = writeln!(out, "{} [{}]", sc.title, s.record.scenario);
    let _ = writeln!(out, "{}", headline(g));
    let _ = writeln!(out, "{}", demoralization_text(g));
    let _ = writeln!(
        out,
        "Record: {} actions, seed {}; {} may be taken back (5.14)",
        s.record.actions.len(),
        s.record.seed,
        g.undoable().min(s.record.actions.len())
    );
    if g.outcome().is_none() {
        out.push_str(&reinforcements_text(g));
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "{:<10} {:<7} {:<4} {:<12} {:<9} {:>3} {:>3}  status",
        "unit", "side", "nat", "designation", "type", "str", "MA"
    );
    for v in g.units() {
        let d = sc.unit(v.unit);
        let st = match v.loc {
            Loc::Map(h) => {
                let mut t = h.to_string();
                if v.moved {
                    t.push_str(" moved");
                }
                if v.in_combat {
                    t.push_str(" in combat");
                }
                t
            }
            Loc::Waiting => match v.arrival {
                Some((turn, hex)) => format!("arrives turn {turn} at {hex}"),
                None => "waiting".into(),
            },
            Loc::Eliminated => "eliminated".into(),
            Loc::Lifted(h) => format!("displaced from {h}"),
        };
        let _ = writeln!(
            out,
            "{:<10} {:<7} {:<4} {:<12} {:<9} {:>3} {:>3}  {st}",
            d.id,
            sc.sides[d.side.0 as usize],
            sc.nations[d.nation as usize].id,
            d.designation,
            d.kind.name(),
            d.strength,
            d.movement
        );
    }
    out.push('\n');
    out.push_str(&combats_text(g));
    if g.step() == Step::Declare {
        let ob = g.open_obligations();
        if !ob.is_empty() {
            let list: Vec<String> = ob
                .iter()
                .map(|&(u, case)| {
                    let what = if case == naw::ObligationKind::MustBeAttacked {
                        "must be attacked"
                    } else {
                        "must attack"
                    };
                    format!("{} {what} ({case})", g.id(u))
                })
                .collect();
            let _ = writeln!(out, "Open obligations: {}", list.join("; "));
        }
    }
    if all_legal {
        out.push_str(&legal_text(g));
    } else {
        out.push_str(&legal_summary_text(g));
    }
    if let Some(o) = g.outcome() {
        let _ = writeln!(out, "Outcome: {} ({})", o.why, o.case);
        if let Some(c) = g.line_of_communications_at_end() {
            let ids =
                |v: &[UnitId]| -> Vec<String> { v.iter().map(|&u| g.id(u).to_string()).collect() };
            let _ = writeln!(
                out,
                "Line of communications to {} (17.5), checked at the end of the last game-turn:",
                c.hex
            );
            let side = side_name(g, c.side);
            let _ = writeln!(out, "  {side} units that trace ({}):", c.traced.len());
            out.push_str(&wrap(&ids(&c.traced), 100, 4));
            let cut = ids(&c.cut_off);
            let _ = writeln!(out, "  cut off, counted as eliminated ({}):", cut.len());
            if cut.is_empty() {
                out.push_str("    none\n");
            } else {
                out.push_str(&wrap(&cut, 100, 4));
            }
        }
    }
    out
}

/// The state as text for players ([`state_text_with`], the legal actions in brief).
pub fn state_text(s: &Session<Game>) -> String {
    state_text_with(s, false)
}

/// The state as the command line's `show --json` prints it: the state view with its log
/// (`legal` the legal actions' texts, `legal_actions` the same as structured data, as the
/// server sends them) and each combat's `odds` (= `column`).
pub fn state_json(s: &Session<Game>) -> Result<serde_json::Value, ReplayError> {
    let log = log_of(s)?;
    let mut j = serde_json::to_value(state_view(s, None, &log)).unwrap_or_default();
    if let Some(cs) = j.get_mut("combats").and_then(|c| c.as_array_mut()) {
        for c in cs {
            if let Some(o) = c.as_object_mut() {
                let col = o.get("column").cloned().unwrap_or_default();
                o.insert("odds".into(), col);
            }
        }
    }
    Ok(j)
}

/// A unit named by id (case-insensitive) or by the hex it stands in, with the reason when
/// none is.
pub fn unit_named(g: &Game, word: &str) -> Result<UnitId, String> {
    // the rules' own reading, with the ids the word may have meant
    g.unit_named(word)
}

/// A hex that must be on the map, with the reason when it is not.
pub fn map_hex(g: &Game, word: &str) -> Result<Hex, String> {
    let h: Hex = word.parse().map_err(|e| format!("{e}"))?;
    if !g.scenario().map.contains(h) {
        return Err(format!(
            "{h} is not on the map (rows 01-{:02}, hexes 01-{:02})",
            g.scenario().map.width(),
            g.scenario().map.height()
        ));
    }
    Ok(h)
}

/// Why a unit cannot move, as one line: the case, then why.
pub fn cannot_move(g: &Game, u: UnitId) -> Option<String> {
    moves(g, u).1.map(|r| format!("{}: {}", r.case, r.why))
}

/// A unit's moves as text: where it is, then each destination with its cost and cheapest
/// path, marked `ZOC` where it lies in an enemy zone of control, or why it cannot move.
pub fn moves_text(g: &Game, u: UnitId) -> String {
    use std::fmt::Write;
    let (list, why) = moves(g, u);
    let d = g.scenario().unit(u);
    let mut out = String::new();
    let from = match g.loc(u) {
        Loc::Map(h) => format!("in {h}"),
        Loc::Waiting => match g.units()[u.0 as usize].arrival {
            Some((t, h)) => format!("entering at {h} (due turn {t}; 1 MP to enter, 15.3)"),
            None => "waiting".into(),
        },
        Loc::Eliminated => "eliminated".into(),
        Loc::Lifted(h) => format!("displaced from {h}"),
    };
    let _ = writeln!(
        out,
        "{} ({} {}, movement allowance {}) {from}",
        d.id,
        d.kind.name(),
        d.strength,
        d.movement
    );
    if let Some(r) = why {
        let _ = writeln!(out, "cannot move: {}: {}", r.case, r.why);
        return out;
    }
    let zoc = list
        .iter()
        .filter(|(h, _, _)| in_enemy_zone(g, u, *h))
        .count();
    let _ = writeln!(
        out,
        "{} legal destinations (cost in MP, cheapest path){}:",
        list.len(),
        if zoc > 0 {
            format!(
                "; ZOC marks the {zoc} in an enemy zone of control, where the move ends (6.0) \
                 and which the unit may not leave by moving (5.13)"
            )
        } else {
            String::new()
        }
    );
    for (h, c, p) in &list {
        let path: Vec<String> = p.iter().map(|h| h.to_string()).collect();
        let mark = if in_enemy_zone(g, u, *h) { "  ZOC" } else { "" };
        let _ = writeln!(
            out,
            "  {h}  {:>4} MP  {}{mark}",
            naw::fmt_half(*c),
            path.join("-")
        );
    }
    out
}

/// A unit's moves as the command line's `moves --json` prints them: the moves view with
/// `cannot_move`, the same `{case, why}` as `why_not`, when it cannot move.
pub fn moves_json(g: &Game, u: UnitId) -> serde_json::Value {
    let view = moves_view(g, u);
    let cannot = view.why_not.clone();
    let mut j = serde_json::to_value(view).unwrap_or_default();
    if let (Some(o), Some(w)) = (j.as_object_mut(), cannot) {
        o.insert(
            "cannot_move".into(),
            serde_json::to_value(w).unwrap_or_default(),
        );
    }
    j
}

/// A compact ASCII map: `rows` map rows by `cols` hexes around `centre`, west to the left,
/// with terrain letters and unit keys, and a legend.
pub fn ascii_map(g: &Game, centre: Hex, rows: i16, cols: i16) -> Result<String, String> {
    use std::fmt::Write;
    let sc = g.scenario();
    let map = &sc.map;
    if !map.contains(centre) {
        return Err(format!("{centre} is not on the map"));
    }
    let x0 = centre.x - rows / 2;
    let y_west = centre.y + cols / 2;
    // keys: first side A, B, ...; second side a, b, ...
    let mut keys: BTreeMap<UnitId, String> = BTreeMap::new();
    let mut count = [0usize; 2];
    let mut legend = Vec::new();
    for x in x0..x0 + rows {
        for y in (y_west - cols + 1..=y_west).rev() {
            let h = Hex::new(x, y);
            if !map.contains(h) {
                continue;
            }
            if let Some(u) = g.unit_at(h) {
                let side = g.side_of(u).0 as usize;
                let n = count[side];
                count[side] += 1;
                let base = if side == 0 { b'A' } else { b'a' };
                let mut k = ((base + (n % 26) as u8) as char).to_string();
                if n >= 26 {
                    k.push_str(&(n / 26).to_string());
                }
                let d = sc.unit(u);
                legend.push(format!(
                    "  {k:<3} {:<10} {:<7} {} {}-{} {}",
                    d.id,
                    sc.sides[side],
                    d.kind.name(),
                    d.strength,
                    d.movement,
                    h
                ));
                keys.insert(u, k);
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Map around {centre}: rows {:02}-{:02} (north at the top), hexes {:02} (west, left) to {:02} (east, right)",
        x0.max(1),
        (x0 + rows - 1).min(map.width()),
        y_west.min(map.height()),
        (y_west - cols + 1).max(1)
    );
    // header: YY of odd rows, each cell 6 wide; even rows shift half a cell west (left)
    let mut header = String::from("      ");
    for y in (y_west - cols + 1..=y_west).rev() {
        if (1..=map.height()).contains(&y) {
            let _ = write!(header, "   {y:02} ");
        } else {
            header.push_str("      ");
        }
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for x in x0..x0 + rows {
        if x < 1 || x > map.width() {
            continue;
        }
        let mut line = format!("{x:02}  ");
        // odd rows are half a hex east (right) of even rows
        line.push_str(if x % 2 == 1 { "   " } else { "" });
        for y in (y_west - cols + 1..=y_west).rev() {
            let h = Hex::new(x, y);
            if !map.contains(h) {
                line.push_str("      ");
                continue;
            }
            let t = map.terrain_kind(h).code;
            let mark = if h == centre { '>' } else { ' ' };
            let key = g
                .unit_at(h)
                .and_then(|u| keys.get(&u).cloned())
                .unwrap_or_default();
            let _ = write!(line, " {mark}{t} {key:<2}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push_str(
        "Terrain: . clear  f forest  r rough  m marsh  t town;  > marks the centre hex.\n\
         Even rows are drawn half a hex west of odd rows. Roads, rivers, streams and slopes are not \
         drawn here: `grognard map` draws the whole map.\n",
    );
    if legend.is_empty() {
        out.push_str("No units in this area.\n");
    } else {
        let _ = writeln!(
            out,
            "Units ({} upper case, {} lower case): key, id, side, type, strength-movement, hex",
            sc.sides[0], sc.sides[1]
        );
        for l in legend {
            let _ = writeln!(out, "{l}");
        }
    }
    Ok(out)
}

/// The odds of `attack` against `defence` (doubled by terrain, 9.0, when `doubled`) as text:
/// the column, the die row of the Combat Results Table, and every result's probability.
pub fn odds_text(attack: u32, defence: u32, doubled: bool) -> Option<String> {
    use std::fmt::Write;
    let eff = if doubled {
        defence.checked_mul(2)?
    } else {
        defence
    };
    let column = naw::Column::of(attack, eff);
    let p = naw::tables::probabilities(column);
    let mut out = String::new();
    let note = if doubled {
        format!(" ({defence} doubled by terrain, 9.0)")
    } else {
        String::new()
    };
    let _ = writeln!(out, "{attack} against {eff}{note}: {}", column.name());
    let row: Vec<String> = (1..=6)
        .map(|d| format!("{d}:{}", naw::tables::crt(column, d).name()))
        .collect();
    let _ = writeln!(out, "die   {}", row.join("  "));
    for (r, x) in naw::CombatResult::ALL.iter().zip(p) {
        let sixths = (x * 6.0).round() as u32;
        let _ = writeln!(
            out,
            "{}  {:>5.1}%  ({sixths} in 6)  {}",
            r.name(),
            x * 100.0,
            r.explain()
        );
    }
    Some(out)
}

/// The `text` query: the command line's rendering of a game. `arg` names what (words, with
/// `--json` for the JSON form where there is one):
///
/// - `` or `show`: the state as text ([`state_text`], the legal actions in brief);
///   `show --legal`: with every legal action; `show --json`: [`state_json`];
/// - `reinforcements`: the reinforcements due this game-turn and next;
/// - `headline`: one line, turn, phase and who acts ([`headline`]);
/// - `events`: the events of the last action (of the set-up before the first action);
/// - `map XXYY`: the ASCII map of 9 rows by 13 hexes around a hex ([`ascii_map`]);
/// - `moves UNIT`: a unit's destinations ([`moves_text`]); `moves UNIT --json`: [`moves_json`];
/// - `legal`: the legal actions grouped per unit; `combats`: the declared combats.
///
/// Text comes back as a JSON string, the JSON forms as JSON.
pub fn text_query(s: &Session<Game>, arg: &str) -> Result<serde_json::Value, QueryError> {
    let g = &s.game;
    let mut words: Vec<&str> = arg.split_whitespace().collect();
    let json = words.contains(&"--json");
    words.retain(|w| *w != "--json");
    let text = |t: String| Ok(serde_json::Value::String(t));
    match words.as_slice() {
        [] | ["show"] if json => {
            state_json(s).map_err(|e| QueryError::Bad(e.to_string()))
        }
        [] | ["show"] => text(state_text(s)),
        ["show", "--legal"] | ["--legal"] => text(state_text_with(s, true)),
        ["reinforcements"] => text(reinforcements_text(g)),
        ["headline"] => text(headline(g)),
        ["stage"] => text(stage_text(g)),
        ["help"] => text(ACTIONS_HELP.to_string()),
        ["events"] => text(events_text(g)),
        ["legal"] => text(legal_text(g)),
        ["combats"] => text(combats_text(g)),
        ["map", hex] => {
            let h = map_hex(g, hex).map_err(QueryError::Bad)?;
            ascii_map(g, h, 9, 13).map(serde_json::Value::String).map_err(QueryError::Bad)
        }
        ["moves", unit] => {
            let u = unit_named(g, unit).map_err(QueryError::NotFound)?;
            if json {
                Ok(moves_json(g, u))
            } else {
                text(moves_text(g, u))
            }
        }
        _ => Err(QueryError::Bad(format!(
            "the text query takes show [--legal], headline, stage, help, events, legal, combats, reinforcements, map XXYY or moves UNIT, not '{arg}'"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session<Game> {
        let sc = scenarios::load("bon-first-day").unwrap();
        let digest = sc.digest;
        Session::new(Game::new(sc), "bon-first-day", digest, 7)
    }

    /// The legal actions written straight from the rules are the state view's own (the same
    /// JSON; only the order of an object's keys may differ) through moves, declarations and
    /// what follows a fight.
    #[test]
    fn the_legal_members_are_the_state_views() {
        let mut s = session();
        let mut k = 7usize;
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..600 {
            match s.game.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    s.roll();
                    continue;
                }
                ToAct::Side(_) => {}
            }
            let mut view = serde_json::to_value(state_view(&s, None, &[])).unwrap();
            let object = |members: String| -> serde_json::Value {
                serde_json::from_str(&format!("{{{members}}}")).unwrap()
            };
            assert_eq!(
                object(legal_members_of(&s.game)),
                object(engine::dynamic::legal_members(&mut view))
            );
            let actions = legal(&s.game);
            for &a in &actions {
                kinds.insert(legal_parts(&s.game, a).kind);
            }
            // mostly the first actions (ending phases now and then), so that fights happen
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = actions[(k >> 33) % actions.len()];
            s.act(a).unwrap();
        }
        for kind in ["move", "end", "attack"] {
            assert!(kinds.contains(kind), "{kind} was compared: {kinds:?}");
        }
    }

    #[test]
    fn the_first_state_of_the_first_day() {
        let s = session();
        let v = state_view(&s, None, &[]);
        assert_eq!(v.now.turn, 1);
        assert_eq!(v.now.step, "declare");
        assert_eq!(v.now.to_act, "French");
        assert_eq!(v.legal, ["end"]);
        assert!(v.setup_events.iter().any(|e| e.case == "14.62"));
        assert!(v.units.iter().any(|u| u.arrival.is_some()));
        let j = serde_json::to_value(&v).unwrap();
        assert!(j.get("id").is_none());
        assert!(j["outcome"].is_null());
        let back: StateView = serde_json::from_value(j).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn the_log_follows_the_record() {
        let mut s = session();
        s.act_text("end").unwrap();
        s.act_text("move PR.9 2416").unwrap();
        let log = log_of(&s).unwrap();
        assert_eq!(log.len(), 2);
        assert_eq!(log[0].side, "French");
        assert_eq!(log[1].action, "move PR.9 2416");
        assert_eq!(log[1].side, "Allied");
        let v = state_view(&s, Some("g_x"), &log);
        assert_eq!(v.now.actions_recorded, 2);
        assert_eq!(v.now.undoable, 1);
    }

    #[test]
    fn moves_and_why_not() {
        let mut s = session();
        s.act_text("end").unwrap();
        let g = &s.game;
        let u = g.find_unit("2516").unwrap();
        let m = moves_view(g, u);
        assert_eq!(m.unit, "PR.9");
        let d = m.destinations.iter().find(|d| d.hex == "2715").unwrap();
        assert_eq!(d.cost, 1.5);
        assert_eq!(d.path, ["2516", "2615", "2715"]);
        let fr = g.find_unit("fr.4").unwrap();
        let m = moves_view(g, fr);
        assert_eq!(m.why_not.unwrap().case, "5.11");
    }

    #[test]
    fn the_map_and_the_odds() {
        let sc = scenarios::load("bon-first-day").unwrap();
        let m = map_view(&sc.map);
        assert_eq!(m.terrain.len(), m.width as usize);
        assert_eq!(m.terrain[0].len(), m.height as usize);
        assert!(m
            .hexsides
            .iter()
            .any(|h| h.features.contains(&"river".to_string())));
        let o = odds_view(13, 4, false).unwrap();
        assert_eq!(o.column, "3-1");
        assert_eq!(odds_view(13, 4, true).unwrap().column, "1-1");
        assert!(odds_view(1, u32::MAX, true).is_none());
    }
}
