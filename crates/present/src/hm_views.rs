//! The views of a hex-miniatures game (`hex-miniatures`, battalions on 200 m hexes): the state
//! view (units with their state of order, formation and square, facing and base units; the
//! generals; the messengers carrying orders; the formations' standing orders; the weather, the
//! light and what each side sees; the victory table's casualties and crisis levels; the
//! objectives and who holds them), typed event facts with a sentence each, structured legal
//! actions, the text of the command line, and [`HmPresenter`], the presentation the `systems`
//! registry hosts the system with.
//!
//! Everything here is read from the rules' public queries (`hex_miniatures::Game`) and the
//! scenario's names: this module decides nothing a rule decides.

use engine::dynamic::{LegalAction, Presenter, QueryError};
use engine::{Rules, Session, Side, ToAct, Viewer};
use hex_miniatures::army::{Arm, Order};
use hex_miniatures::game::Loc;
use hex_miniatures::scenario::{format_clock, Scenario};
use hex_miniatures::setup::{Standing, WeatherKind, TURN_MINUTES};
use hex_miniatures::{Action, Event, Game, GeneralId, Stage, UnitId};
use hexmap::Hex;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

/// The system's id, as scenario lists, records and the board name it.
pub const HM_SYSTEM: &str = "hex-miniatures";

/// The names the scenario gives what the game knows by id: units, generals and formations.
#[derive(Clone, Debug, Default)]
pub struct HmNames {
    units: BTreeMap<String, String>,
    generals: BTreeMap<String, String>,
    formations: BTreeMap<String, String>,
    places: BTreeMap<Hex, String>,
}

impl HmNames {
    /// The names of a scenario.
    pub fn of(sc: &Scenario) -> HmNames {
        HmNames {
            units: sc
                .units
                .iter()
                .map(|u| (u.id.clone(), u.name.clone()))
                .collect(),
            generals: sc
                .generals
                .iter()
                .map(|g| (g.id.clone(), g.name.clone()))
                .collect(),
            formations: sc
                .commands
                .iter()
                .map(|c| (c.id.clone(), c.name.clone()))
                .collect(),
            places: sc
                .map
                .places
                .iter()
                .map(|p| (p.hex, p.name.clone()))
                .collect(),
        }
    }
}

/// The name of a side (seat).
pub fn hm_side_name(g: &Game, s: u8) -> String {
    g.seat_name(Side(s)).to_string()
}

/// Who acts, as the state view names it: a side's name, `chance` or `over`.
pub fn hm_to_act_name(g: &Game) -> String {
    match g.to_act() {
        ToAct::Side(x) => hm_side_name(g, x.0),
        ToAct::Chance => "chance".into(),
        ToAct::Over(_) => "over".into(),
    }
}

/// The stage's short name (`rally`, `orders`, `movement`, ...).
pub fn hm_stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Rally => "rally",
        Stage::Orders => "orders",
        Stage::Movement => "movement",
        Stage::Artillery => "artillery",
        Stage::Attacks => "attacks",
        Stage::Resolution => "resolution",
        Stage::Crisis => "crisis",
        Stage::TurnEnd => "turn_end",
        Stage::Over => "over",
    }
}

/// A stage in words, with its section of the text.
pub fn hm_stage_text(stage: Stage) -> &'static str {
    match stage {
        Stage::Rally => "disruption and rout removal: rallies ([6])",
        Stage::Orders => "orders ([7])",
        Stage::Movement => "movement ([8])",
        Stage::Artillery => "combat: artillery fire ([9.1])",
        Stage::Attacks => "combat: declaring attacks ([9.4.2])",
        Stage::Resolution => "combat: resolving the attacks ([9])",
        Stage::Crisis => "crisis of morale ([13])",
        Stage::TurnEnd => "end of the turn: the weather ([24])",
        Stage::Over => "the battle is over ([14])",
    }
}

/// A unit's state of order, as the view names it.
pub fn hm_order_name(o: Order) -> &'static str {
    match o {
        Order::Ordered => "ordered",
        Order::Disordered => "disordered",
        Order::Retiring => "retiring",
        Order::Routed => "routed",
    }
}

/// A standing order in words: `hold`, `at discretion`, `advance on 1308`.
pub fn hm_standing_text(s: Standing) -> String {
    match s {
        Standing::Free => "at discretion".into(),
        Standing::Hold => "hold".into(),
        Standing::Advance(h) => format!("advance on {h}"),
    }
}

fn standing_view(s: Standing) -> Value {
    match s {
        Standing::Free => json!({"order": "free"}),
        Standing::Hold => json!({"order": "hold"}),
        Standing::Advance(h) => json!({"order": "advance", "hex": h.to_string()}),
    }
}

fn arm_name(a: Arm) -> &'static str {
    match a {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Artillery => "artillery",
        Arm::Command => "general",
    }
}

fn loc_view(loc: Loc) -> (&'static str, Option<String>) {
    match loc {
        Loc::Map(h) => ("map", Some(h.to_string())),
        Loc::Waiting => ("waiting", None),
        Loc::Gone => ("eliminated", None),
    }
}

/// The facing of hexmap's direction names as the board's index (E, NE, NW, W, SW, SE).
fn facing_index(name: &str) -> Option<usize> {
    ["E", "NE", "NW", "W", "SW", "SE"]
        .iter()
        .position(|d| d.eq_ignore_ascii_case(name))
}

/// Where and when a waiting unit or general comes on: the turn and its first entry hex (the
/// board's `arrival`).
fn arrival(g: &Game, start: &hex_miniatures::setup::Start, loc: Loc) -> Value {
    match (start, loc) {
        (hex_miniatures::setup::Start::Arrives { minute, entry }, Loc::Waiting) => json!({
            "turn": minute.saturating_sub(g.setup().start_minute) / TURN_MINUTES + 1,
            "hex": entry.first().map(|h| h.to_string()),
        }),
        _ => Value::Null,
    }
}

fn unit_id(g: &Game, u: UnitId) -> String {
    g.unit_name(u).to_string()
}

fn general_id(g: &Game, x: GeneralId) -> String {
    g.general(x).id
}

fn formation_id(g: &Game, f: u8) -> String {
    g.setup()
        .formations
        .get(usize::from(f))
        .map_or_else(|| format!("formation {f}"), |x| x.id.clone())
}

/// The side whose view is asked (`None` for a spectator or the referee).
fn viewer_side(viewer: Viewer) -> Option<u8> {
    match viewer {
        Viewer::Seat(s) => Some(s.0),
        _ => None,
    }
}

/// The entry of one unit: the generic counter's members (`id`, `side`, `nation`,
/// `designation`, `type`, `strength`, `movement`, `status`, `hex`, `facing`, `markers`) and the
/// system's own (`kind`, `name`, `formation`, `order`, `bases`, `full_bases`, `command`,
/// `moved`, `seen_by_enemy`).
pub fn hm_unit_entry(g: &Game, names: &HmNames, u: UnitId) -> Value {
    let v = g.unit(u);
    let setup = &g.setup().units[usize::from(u.0)];
    let (status, hex) = loc_view(v.loc);
    let mut markers: Vec<&str> = Vec::new();
    if v.order != Order::Ordered {
        markers.push(hm_order_name(v.order));
    }
    if v.formation.name() == "square" {
        markers.push("square");
    }
    if v.formation.name() == "column" {
        markers.push("column");
    }
    if v.formation.name() == "limbered" {
        markers.push("limbered");
    }
    let line = g.tables().line(&setup.nation, setup.kind);
    let movement = line.map_or(0, |l| l.movement);
    let enemy = 1 - v.side;
    let seen = matches!(v.loc, Loc::Map(_)) && g.sees_unit(enemy, u);
    json!({
        "id": v.id,
        "side": hm_side_name(g, v.side),
        "nation": setup.nation,
        "designation": format!("{} {}", v.kind, v.bases),
        "type": arm_name(setup.kind.arm()),
        "kind": v.kind,
        "name": names.units.get(&v.id).cloned().unwrap_or_else(|| v.id.clone()),
        "strength": v.strength,
        "movement": movement,
        "status": status,
        "hex": hex,
        "facing": facing_index(v.facing),
        "markers": markers,
        "formation": v.formation.name(),
        "order": hm_order_name(v.order),
        "bases": v.bases,
        "full_bases": setup.base_units,
        "command": setup.command.map(|c| formation_id(g, c as u8)),
        "moved": v.moved,
        "arrival": arrival(g, &setup.start, v.loc),
        "seen_by_enemy": seen,
    })
}

/// A general's entry: a round counter (the generic board's `leader` type, `role` `general`)
/// with the generic members, and his rank, bonus and commands.
pub fn hm_general_entry(g: &Game, names: &HmNames, x: GeneralId) -> Value {
    let v = g.general(x);
    let (status, hex) = loc_view(v.loc);
    let commands: Vec<String> = g
        .setup()
        .formations
        .iter()
        .filter(|f| f.commander == Some(usize::from(x.0)))
        .map(|f| f.id.clone())
        .collect();
    let name = names
        .generals
        .get(&v.id)
        .cloned()
        .unwrap_or_else(|| v.id.clone());
    json!({
        "id": v.id,
        "side": hm_side_name(g, v.side),
        "nation": g.setup().units.iter().find(|u| u.side == v.side).map_or("", |u| u.nation.as_str()),
        "designation": surname(&name),
        "type": "leader",
        "role": "general",
        "name": name,
        "strength": 0,
        "movement": g.tables().command_movement,
        "status": status,
        "hex": hex,
        "markers": if v.senior { vec!["senior"] } else { Vec::<&str>::new() },
        "senior": v.senior,
        "bonus": if v.senior { g.tables().combat.senior_general } else { g.tables().combat.general },
        "commands": commands,
        "arrival": arrival(g, &g.setup().generals[usize::from(x.0)].start, v.loc),
    })
}

fn surname(name: &str) -> String {
    name.split_whitespace()
        .last()
        .unwrap_or(name)
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

/// The messengers on the table as round counters (`leader` type, `role` `messenger`): the order
/// each carries (none when riding back), to which formation, from which general ([7.1.2]).
pub fn hm_messengers(g: &Game) -> Vec<Value> {
    g.messengers()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "id": format!("messenger-{}", i + 1),
                "side": hm_side_name(g, m.side),
                "nation": "",
                "designation": match m.order { Some(_) => "order", None => "back" },
                "type": "leader",
                "role": "messenger",
                "strength": 0,
                "movement": g.tables().orders.messenger_movement,
                "status": "map",
                "hex": m.at.to_string(),
                "markers": ["messenger"],
                "from": general_id(g, m.from),
                "formation": formation_id(g, m.formation),
                "order": m.order.map(standing_view),
                "order_text": m.order.map(hm_standing_text),
            })
        })
        .collect()
}

/// The formations with their commander and standing order ([7.1]).
pub fn hm_formations(g: &Game, names: &HmNames) -> Vec<Value> {
    g.setup()
        .formations
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let order = g.formation_order(i as u8);
            json!({
                "id": f.id,
                "name": names.formations.get(&f.id).cloned().unwrap_or_else(|| f.id.clone()),
                "side": hm_side_name(g, f.side),
                "commander": f.commander.map(|c| general_id(g, GeneralId(c as u8))),
                "parent": f.parent.map(|p| formation_id(g, p as u8)),
                "order": standing_view(order),
                "order_text": hm_standing_text(order),
            })
        })
        .collect()
}

/// The weather, the light and the turn's visible range ([24]), the clock and night ([11.2]).
pub fn hm_conditions(g: &Game) -> Value {
    json!({
        "clock": format_clock(g.minute()),
        "weather": match g.setup().weather {
            WeatherKind::Clear => "clear",
            WeatherKind::Fog => "fog",
            WeatherKind::Snow => "snow",
            WeatherKind::Storm => "storm",
        },
        "weather_position": g.weather_position(),
        "weather_visibility": g.weather_visibility(),
        "light": g.light(),
        "visibility": g.visibility(),
        "night": g.night(),
    })
}

/// The victory table ([3.2], [12]): each army's base units lost and total, the share, its
/// casualty marks and the highest level reached and tested ([13]); the objectives with their
/// holders and the holder of the field ([14]).
pub fn hm_victory(g: &Game, names: &HmNames) -> Value {
    let t = g.tables();
    let cas = g.casualties();
    let crisis = g.crisis_level();
    let armies: Vec<Value> = (0..2u8)
        .map(|s| {
            let (lost, total) = cas[usize::from(s)];
            json!({
                "side": hm_side_name(g, s),
                "lost": lost,
                "total": total,
                "percent": if total == 0 { 0.0 } else { f64::from(lost) * 100.0 / f64::from(total) },
                "marks": hex_miniatures::victory::marks(total, t.first_level, t.level_step)
                    .into_iter()
                    .map(|(level, bases)| json!({"level": level, "bases": bases}))
                    .collect::<Vec<_>>(),
                "crisis_tested": crisis[usize::from(s)],
            })
        })
        .collect();
    let holders: Vec<Value> = g
        .objective_holders()
        .into_iter()
        .map(|(h, s)| {
            json!({
                "hex": h.to_string(),
                "place": names.places.get(&h),
                "holder": hm_side_name(g, s),
            })
        })
        .collect();
    json!({
        "armies": armies,
        "objectives": holders,
        "field": g.holder_of_the_field().map(|s| hm_side_name(g, s)),
        "margins": t.margins,
    })
}

/// What each side sees this turn ([24], [18]): the hexes, when the visible range is limited
/// (`None` when sight is unlimited but for terrain: every hex is then listed too).
pub fn hm_sight(g: &Game) -> Value {
    let mut m = Map::new();
    for s in 0..2u8 {
        let hexes: Vec<String> = g
            .setup()
            .map
            .hexes()
            .filter(|&h| g.sees(s, h))
            .map(|h| h.to_string())
            .collect();
        m.insert(hm_side_name(g, s), Value::from(hexes));
    }
    Value::Object(m)
}

/// The outcome, once the battle is over.
pub fn hm_outcome(g: &Game) -> Value {
    match g.to_act() {
        ToAct::Over(o) => json!({
            "winner": o.winner.map(|s| hm_side_name(g, s.0)),
            "case": o.case,
            "why": o.why,
        }),
        _ => Value::Null,
    }
}

/// The legal actions of the seat to act.
pub fn hm_legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    if matches!(g.to_act(), ToAct::Side(_)) {
        g.legal_actions(&mut v);
    }
    v
}

/// A legal action as structured data: its kind, the unit or general, the hex it acts from and
/// the hex it goes to or acts against.
pub fn hm_legal_action(g: &Game, a: Action) -> LegalAction {
    let text = g.action_text(a);
    let kind = text.split_whitespace().next().unwrap_or("").to_string();
    let mut la = LegalAction {
        text,
        kind,
        ..LegalAction::default()
    };
    let hex = |u: UnitId| g.hex_of(u).map(|h| h.to_string());
    let ghex = |x: GeneralId| match g.general(x).loc {
        Loc::Map(h) => Some(h.to_string()),
        _ => None,
    };
    match a {
        Action::Move { unit, to } => {
            la.unit = Some(unit_id(g, unit));
            la.from = hex(unit);
            la.to = Some(to.to_string());
        }
        Action::Ride { general, to } => {
            la.unit = Some(general_id(g, general));
            la.from = ghex(general);
            la.to = Some(to.to_string());
        }
        Action::Face { unit, .. } | Action::Form { unit, .. } | Action::Advance { unit } => {
            la.unit = Some(unit_id(g, unit));
            la.from = hex(unit);
        }
        Action::Fire { battery, target } => {
            la.unit = Some(unit_id(g, battery));
            la.from = hex(battery);
            la.target = hex(target);
        }
        Action::Attack { unit, target } => {
            la.unit = Some(unit_id(g, unit));
            la.from = hex(unit);
            la.target = Some(target.to_string());
        }
        Action::Order { general, order, .. } => {
            la.unit = Some(general_id(g, general));
            la.from = ghex(general);
            if let Standing::Advance(h) = order {
                la.target = Some(h.to_string());
            }
        }
        Action::Draw(_) | Action::Roll(_) | Action::End => {}
    }
    la
}

/// The state view `viewer` may see (`docs/api.md`, "The state view", with the system's own
/// members `clock`, `conditions`, `generals`, `messengers`, `formations`, `victory`, `sight`).
/// The rules hide nothing from either seat (the text has no hidden units: what is out of sight
/// may not be fired on, [9.1.3]); `sight` says what each side sees, and each unit whether the
/// enemy sees it. Legal actions are listed only when `with_legal`.
pub fn hm_state_view(
    s: &Session<Game>,
    names: &HmNames,
    viewer: Viewer,
    with_legal: bool,
) -> Value {
    let g = &s.game;
    let legal = if with_legal { hm_legal(g) } else { Vec::new() };
    let legal_actions: Vec<LegalAction> = legal.iter().map(|&a| hm_legal_action(g, a)).collect();
    let mut units: Vec<Value> = (0..g.unit_count())
        .map(|u| hm_unit_entry(g, names, UnitId(u as u8)))
        .collect();
    units.extend((0..g.general_count()).map(|x| hm_general_entry(g, names, GeneralId(x as u8))));
    let messengers = hm_messengers(g);
    units.extend(messengers.iter().cloned());
    let generals: Vec<Value> = (0..g.general_count())
        .map(|x| hm_general_entry(g, names, GeneralId(x as u8)))
        .collect();
    json!({
        "system": HM_SYSTEM,
        "scenario": s.record.scenario,
        "title": g.setup().id,
        "turn": g.turn(),
        "first_turn": 1,
        "last_turn": g.turns(),
        "clock": format_clock(g.minute()),
        "night_turns": [],
        "night": g.night(),
        "phasing": hm_side_name(g, g.phasing().0),
        "phase": hm_stage_name(g.stage()),
        "step": hm_stage_name(g.stage()),
        "to_act": hm_to_act_name(g),
        "viewer_side": viewer_side(viewer).map(|x| hm_side_name(g, x)),
        "actions_recorded": s.record.actions.len(),
        "undoable": g.undoable().min(s.record.actions.len()),
        "state_hash": engine::hash_text(g.state_hash()),
        "units": units,
        "generals": generals,
        "messengers": messengers,
        "formations": hm_formations(g, names),
        "conditions": hm_conditions(g),
        "victory": hm_victory(g, names),
        "sight": hm_sight(g),
        "demoralization": [],
        "combats": [],
        "obligations": [],
        "outcome": hm_outcome(g),
        "legal": legal.iter().map(|&a| g.action_text(a)).collect::<Vec<_>>(),
        "legal_actions": legal_actions,
        "overlays": {},
        "setup_events": s.start().events().iter().map(|e| hm_event(s.start(), e)).collect::<Vec<_>>(),
    })
}

// ---- events --------------------------------------------------------------------------------

fn prob(n: u16) -> String {
    format!("0.{n:03}")
}

fn signed(m: i32) -> String {
    if m >= 0 {
        format!("+0.{m:03}")
    } else {
        format!("-0.{:03}", -m)
    }
}

/// An event in one sentence.
pub fn hm_event_text(g: &Game, e: &Event) -> String {
    let u = |x: UnitId| unit_id(g, x);
    let gen = |x: GeneralId| general_id(g, x);
    let side = |s: u8| hm_side_name(g, s);
    match e {
        Event::TurnBegan {
            turn,
            minute,
            visibility,
            night,
        } => format!(
            "Turn {turn} begins at {}{}{}.",
            format_clock(*minute),
            match visibility {
                Some(v) => format!("; sight {v} hex{}", if *v == 1 { "" } else { "es" }),
                None => String::new(),
            },
            if *night { "; night: no combat" } else { "" }
        ),
        Event::StageBegan { side: s, stage } => {
            format!("The {}: {}.", side(*s), hm_stage_text(*stage))
        }
        Event::Rally {
            unit,
            draw,
            bonus,
            needed,
            order,
        } => format!(
            "{} draws {}{} against {} to rally: now {}.",
            u(*unit),
            prob(*draw),
            if *bonus != 0 {
                format!(" ({} by its general)", signed(*bonus))
            } else {
                String::new()
            },
            prob(*needed),
            hm_order_name(*order)
        ),
        Event::OrderGiven {
            general,
            formation,
            order,
            in_person,
        } => format!(
            "{} orders {}: {}{}.",
            gen(*general),
            formation_id(g, *formation),
            hm_standing_text(*order),
            if *in_person {
                " (in person)"
            } else {
                " (a messenger rides)"
            }
        ),
        Event::OrderDelivered {
            formation,
            order,
            draw,
            needed,
            understood,
        } => format!(
            "A messenger reaches {} with the order '{}': {} against {}, {}.",
            formation_id(g, *formation),
            hm_standing_text(*order),
            prob(*draw),
            prob(*needed),
            if *understood {
                "understood"
            } else {
                "not understood"
            }
        ),
        Event::MessengerCaptured { side: s, hex, .. } => {
            format!("A {} messenger is captured at {hex}.", side(*s))
        }
        Event::Moved { unit, from, to } => match from {
            Some(f) => format!("{} moves from {f} to {to}.", u(*unit)),
            None => format!("{} comes on at {to}.", u(*unit)),
        },
        Event::Rode { general, from, to } => match from {
            Some(f) => format!("{} rides from {f} to {to}.", gen(*general)),
            None => format!("{} arrives at {to}.", gen(*general)),
        },
        Event::Advanced { unit, from, to } => {
            format!("{} advances from {from} into {to}.", u(*unit))
        }
        Event::Faced { unit, dir } => format!("{} faces {dir}.", u(*unit)),
        Event::Formed { unit, formation } => {
            format!("{} forms {}.", u(*unit), formation.name())
        }
        Event::StateChanged { unit, order, .. } => {
            format!("{} is now {}.", u(*unit), hm_order_name(*order))
        }
        Event::BaseLost { unit, left, .. } => {
            format!("{} loses a base unit ({left} left).", u(*unit))
        }
        Event::Withdrew { unit, from, to } => match to {
            Some(t) => format!("{} falls back from {from} to {t}.", u(*unit)),
            None => format!("{} leaves the table from {from}.", u(*unit)),
        },
        Event::Removed { unit, bases } => format!(
            "{} is removed from play ({bases} base unit{} to the victory table).",
            u(*unit),
            if *bases == 1 { "" } else { "s" }
        ),
        Event::GeneralTested {
            general,
            draw,
            fate,
        } => format!(
            "{} under fire draws {}: {fate}.",
            gen(*general),
            prob(*draw)
        ),
        Event::GeneralCaptured { general } => format!("{} is captured.", gen(*general)),
        Event::Fired {
            battery,
            target,
            range,
            draw,
            modifier,
            result,
        } => format!(
            "{} fires on {} at {range} hexes: {}{}, {result}.",
            u(*battery),
            u(*target),
            prob(*draw),
            if *modifier != 0 {
                format!(" {}", signed(*modifier))
            } else {
                String::new()
            }
        ),
        Event::Combat {
            target,
            attackers,
            attack,
            defence,
            column,
            modifier,
            draw,
            result,
            ..
        } => {
            format!(
            "{} attack{} {target}: {attack} against {defence}, column {column}, {}{}: {result}.",
            attackers.iter().map(|&x| u(x)).collect::<Vec<_>>().join(", "),
            if attackers.len() == 1 { "s" } else { "" },
            prob(*draw),
            if *modifier != 0 {
                format!(" {}", signed(*modifier))
            } else {
                String::new()
            }
        )
        }
        Event::Charge {
            target,
            attackers,
            square,
            draw,
            modifier,
            result,
        } => format!(
            "{} charge{} the square of {} at {target}: {}{}, {result}.",
            attackers
                .iter()
                .map(|&x| u(x))
                .collect::<Vec<_>>()
                .join(", "),
            if attackers.len() == 1 { "s" } else { "" },
            u(*square),
            prob(*draw),
            if *modifier != 0 {
                format!(" {}", signed(*modifier))
            } else {
                String::new()
            }
        ),
        Event::BatteryCaptured { battery } => format!("{} is captured.", u(*battery)),
        Event::CrisisOfMorale { side: s, level } => format!(
            "The {} have lost {level}% of their army: a crisis of morale.",
            side(*s)
        ),
        Event::CrisisTest { unit, draw, result } => {
            format!("{} draws {}: {result}.", u(*unit), prob(*draw))
        }
        Event::Weather {
            die,
            position,
            visibility,
        } => format!(
            "The weather die shows {die}: position {position}, {}.",
            match visibility {
                Some(v) => format!("sight {v} hex{}", if *v == 1 { "" } else { "es" }),
                None => "clear".into(),
            }
        ),
        Event::Over { winner, margin } => match winner {
            Some(w) => format!(
                "The battle is over: a {margin} victory for the {}.",
                side(*w)
            ),
            None => format!("The battle is over: a {margin}."),
        },
    }
}

/// The unit members of an event's facts, named by id as actions name them.
const UNIT_KEYS: [&str; 4] = ["unit", "battery", "target", "square"];

/// An event as JSON: `case`, `kind`, `text` and its facts, units and generals named by id.
pub fn hm_event(g: &Game, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or_else(|_| json!({}));
    if let Value::Object(m) = &mut v {
        for k in UNIT_KEYS {
            if let Some(n) = m.get(k).and_then(Value::as_u64) {
                if !matches!(e, Event::Combat { .. } | Event::Charge { .. }) || k != "target" {
                    m.insert(k.into(), Value::from(unit_id(g, UnitId(n as u8))));
                }
            }
        }
        for k in ["attackers", "defenders"] {
            if let Some(Value::Array(a)) = m.get(k).cloned() {
                let ids: Vec<Value> = a
                    .iter()
                    .filter_map(Value::as_u64)
                    .map(|n| Value::from(unit_id(g, UnitId(n as u8))))
                    .collect();
                m.insert(k.into(), Value::from(ids));
            }
        }
        for k in ["general", "from"] {
            if let Some(n) = m.get(k).and_then(Value::as_u64) {
                m.insert(k.into(), Value::from(general_id(g, GeneralId(n as u8))));
            }
        }
        if let Some(n) = m.get("formation").and_then(Value::as_u64) {
            m.insert("formation".into(), Value::from(formation_id(g, n as u8)));
        }
        if let Some(n) = m.get("side").and_then(Value::as_u64) {
            m.insert("side".into(), Value::from(hm_side_name(g, n as u8)));
        }
        if let Some(n) = m.get("winner").and_then(Value::as_u64) {
            m.insert("winner".into(), Value::from(hm_side_name(g, n as u8)));
        }
        m.insert("case".into(), Value::from(engine::GameEvent::case(e)));
        m.insert("text".into(), Value::from(hm_event_text(g, e)));
    }
    v
}

// ---- text ----------------------------------------------------------------------------------

/// One line on the game's state: the clock, the stage, who acts, the casualties.
pub fn hm_headline(g: &Game) -> String {
    let cas = g.casualties();
    let pct = |(l, t): (u32, u32)| (l * 100).checked_div(t).unwrap_or(0);
    format!(
        "{}: turn {} of {} ({}), {}: {}; {} to act; casualties {} {}/{} ({}%), {} {}/{} ({}%){}",
        g.setup().id,
        g.turn(),
        g.turns(),
        format_clock(g.minute()),
        hm_side_name(g, g.phasing().0),
        hm_stage_text(g.stage()),
        hm_to_act_name(g),
        hm_side_name(g, 0),
        cas[0].0,
        cas[0].1,
        pct(cas[0]),
        hm_side_name(g, 1),
        cas[1].0,
        cas[1].1,
        pct(cas[1]),
        match g.visibility() {
            Some(v) => format!("; sight {v} hexes"),
            None => String::new(),
        }
    )
}

/// The state as text for the command line (everything: the CLI is a referee's view).
pub fn hm_state_text(s: &Session<Game>) -> String {
    let g = &s.game;
    let mut out = String::new();
    let _ = writeln!(out, "{}", hm_headline(g));
    if let ToAct::Over(o) = g.to_act() {
        let _ = writeln!(out, "Over: {} ({})", o.why, o.case);
    }
    for side in 0..2u8 {
        let _ = writeln!(out, "\n{}:", hm_side_name(g, side));
        let mut waiting = 0;
        let mut gone = 0;
        for u in (0..g.unit_count()).map(|u| UnitId(u as u8)) {
            if g.side_of(u) != side {
                continue;
            }
            let v = g.unit(u);
            match v.loc {
                Loc::Map(h) => {
                    let _ = writeln!(
                        out,
                        "  {h} {} {} {} bases {}, {}, facing {}",
                        v.id,
                        v.kind,
                        v.bases,
                        hm_order_name(v.order),
                        v.formation.name(),
                        v.facing
                    );
                }
                Loc::Waiting => waiting += 1,
                Loc::Gone => gone += 1,
            }
        }
        let generals: Vec<String> = (0..g.general_count())
            .map(|x| g.general(GeneralId(x as u8)))
            .filter(|x| x.side == side)
            .filter_map(|x| match x.loc {
                Loc::Map(h) => Some(format!("{} {h}", x.id)),
                _ => None,
            })
            .collect();
        if !generals.is_empty() {
            let _ = writeln!(out, "  generals: {}", generals.join(", "));
        }
        let riders = g.messengers().iter().filter(|m| m.side == side).count();
        if riders > 0 {
            let _ = writeln!(out, "  messengers riding: {riders}");
        }
        if waiting > 0 {
            let _ = writeln!(out, "  still to arrive: {waiting}");
        }
        if gone > 0 {
            let _ = writeln!(out, "  removed from play: {gone}");
        }
    }
    let legal = hm_legal(g);
    if !legal.is_empty() {
        let texts: Vec<String> = legal.iter().take(12).map(|&a| g.action_text(a)).collect();
        let _ = writeln!(
            out,
            "\nLegal ({}): {}{}",
            legal.len(),
            texts.join(", "),
            if legal.len() > 12 { ", ..." } else { "" }
        );
    }
    out
}

/// The `text` query of the command line: `show`, `show --legal`, `show --json`, `headline`.
pub fn hm_text_query(s: &Session<Game>, names: &HmNames, arg: &str) -> Result<Value, QueryError> {
    match arg.trim() {
        "show" => Ok(Value::from(hm_state_text(s))),
        "show --legal" => {
            let mut t = hm_state_text(s);
            let g = &s.game;
            let legal = hm_legal(g);
            if !legal.is_empty() {
                let _ = writeln!(t, "\nEvery legal action:");
                for a in legal {
                    let _ = writeln!(t, "  {}", g.action_text(a));
                }
            }
            Ok(Value::from(t))
        }
        "headline" => Ok(Value::from(hm_headline(&s.game))),
        "show --json" => {
            let mut t =
                serde_json::to_string_pretty(&hm_state_view(s, names, Viewer::Referee, true))
                    .unwrap_or_default();
            t.push('\n');
            Ok(Value::from(t))
        }
        other => Err(QueryError::Unknown(format!("text {other}"))),
    }
}

/// The presentation of hex-miniatures games for [`engine::dynamic::Hosted`], with the names its
/// scenario gives units, generals and formations.
#[derive(Clone, Debug, Default)]
pub struct HmPresenter {
    names: Arc<HmNames>,
}

impl HmPresenter {
    /// The presenter of a scenario's games.
    pub fn new(sc: &Scenario) -> HmPresenter {
        HmPresenter {
            names: Arc::new(HmNames::of(sc)),
        }
    }
}

impl Presenter<Game> for HmPresenter {
    fn view(&self, session: &Session<Game>, viewer: Viewer) -> Value {
        hm_state_view(session, &self.names, viewer, true)
    }

    fn view_without_legal(&self, session: &Session<Game>, viewer: Viewer) -> Value {
        let mut v = hm_state_view(session, &self.names, viewer, false);
        engine::dynamic::take_legal(&mut v);
        v
    }

    fn event(&self, game: &Game, event: &Event) -> Value {
        hm_event(game, event)
    }

    fn legal_action(&self, game: &Game, a: Action) -> LegalAction {
        hm_legal_action(game, a)
    }

    fn query(
        &self,
        session: &Session<Game>,
        name: &str,
        arg: &str,
        _viewer: Viewer,
    ) -> Result<Value, QueryError> {
        match name {
            "text" => hm_text_query(session, &self.names, arg),
            other => Err(QueryError::Unknown(other.to_string())),
        }
    }
}
