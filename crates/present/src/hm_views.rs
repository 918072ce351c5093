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
/// with the generic members, and his rank, bonus and commands (formation ids, and their names
/// as `command_names`).
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
        "command_names": commands
            .iter()
            .map(|f| names.formations.get(f).cloned().unwrap_or_else(|| f.clone()))
            .collect::<Vec<_>>(),
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
/// each carries (none when riding back), to which formation, from which general ([7.1.2]), and
/// the `route` he has still to ride (his hex first, then the rules' `messenger_route`).
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
                // the ride still to go, from where he is to whom he rides ([7.1.2.1])
                "route": std::iter::once(m.at)
                    .chain(g.messenger_route(i))
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>(),
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

/// A legal action as structured data: its kind (the action's verb, `move` for a general's
/// `ride` too), the unit or general, the hex it acts from and the hex it goes to or acts against.
pub fn hm_legal_action(g: &Game, a: Action) -> LegalAction {
    let text = g.action_text(a);
    let kind = text.split_whitespace().next().unwrap_or("").to_string();
    let mut la = LegalAction {
        text,
        kind,
        ..LegalAction::default()
    };
    let hex = |u: UnitId| g.hex_of(u).map(|h| h.to_string());
    let ghex = |x: GeneralId| g.general(x).loc.hex().map(|h| h.to_string());
    match a {
        Action::Move { unit, to } => {
            la.unit = Some(unit_id(g, unit));
            la.from = hex(unit);
            la.to = Some(to.to_string());
        }
        Action::Ride { general, to } => {
            // the board moves a general as it moves a unit: select, click a shaded hex
            la.kind = "move".into();
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
/// The rules hide nothing from either seat (HM55: the text has no hidden units: what is out of sight
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

/// The hexes a unit (or a general) may go to now, for the board's shading (`docs/api.md`,
/// "moves"): `{"unit", "movement", "from", "destinations": [{"hex", "cost", "path"}], "why_not"}`.
/// The rules' own: a unit's reach with each hex's cost in hexes (the movement allowance's unit;
/// halves for a halved hex) and the path they take to it, from where it stands (or from its
/// entry hex) ([8.2]-[8.4], [18], HM29, HM36: `Game::reach_of`); a general's rides with their
/// distance in hexes ([2.4.6.3], HM28: `Game::ride_reach`). Only hexes of legal actions are
/// listed (nothing while a chance is pending). `why_not` is the rules' refusal of a move when
/// there is none.
pub fn hm_moves(g: &Game, word: &str) -> Result<Value, QueryError> {
    let legal = hm_legal(g);
    let dest = |hex: Hex, cost: f64, from: Option<Hex>, path: &[Hex]| {
        json!({
            "hex": hex.to_string(),
            "cost": cost,
            "path": from.iter().chain(path).map(|h| h.to_string()).collect::<Vec<_>>(),
        })
    };
    if let Some(u) = g.unit_by_id(word) {
        let v = g.unit(u);
        let from = v.loc.hex();
        let legal_to: Vec<Hex> = legal
            .iter()
            .filter_map(|a| match *a {
                Action::Move { unit, to } if unit == u => Some(to),
                _ => None,
            })
            .collect();
        let mut reach = g.reach_of(u);
        reach.retain(|r| legal_to.contains(&r.hex));
        reach.sort_by_key(|r| (r.cost, r.hex.to_string()));
        let dests: Vec<Value> = reach
            .iter()
            .map(|r| dest(r.hex, f64::from(r.cost) / 2.0, from, &r.path))
            .collect();
        let why_not = if dests.is_empty() {
            Some(unit_why_not(g, u))
        } else {
            None
        };
        let line = g
            .tables()
            .line(&g.setup().units[usize::from(u.0)].nation, g.kind_of(u));
        return Ok(json!({
            "unit": v.id,
            "movement": line.map_or(0, |l| l.movement),
            "from": from.map(|h| h.to_string()),
            "destinations": dests,
            "why_not": why_not,
        }));
    }
    if let Some(x) = g.general_by_id(word) {
        let v = g.general(x);
        let from = v.loc.hex();
        let legal_to: Vec<Hex> = legal
            .iter()
            .filter_map(|a| match *a {
                Action::Ride { general, to } if general == x => Some(to),
                _ => None,
            })
            .collect();
        let mut reach = g.ride_reach(x);
        reach.retain(|(h, _)| legal_to.contains(h));
        reach.sort_by_key(|&(h, d)| (d, h.to_string()));
        let dests: Vec<Value> = reach
            .iter()
            .map(|&(h, d)| dest(h, f64::from(d), from, &[h]))
            .collect();
        let why_not = if dests.is_empty() {
            let at = from.or_else(|| g.setup().map.hexes().next());
            let r = at.and_then(|to| g.check(Action::Ride { general: x, to }).err());
            Some(match r {
                Some(r) if r.case != "2.4.6.3" => json!({"case": r.case, "why": r.why}),
                _ => json!({
                    "case": "2.4.6.3",
                    "why": "no hex within his ride by open ground is open to him now",
                }),
            })
        } else {
            None
        };
        return Ok(json!({
            "unit": v.id,
            "movement": g.tables().command_movement,
            "from": from.map(|h| h.to_string()),
            "destinations": dests,
            "why_not": why_not,
        }));
    }
    Err(QueryError::NotFound(format!(
        "no unit or general '{word}' in this game"
    )))
}

/// Why a unit has no destination now: the rules' refusal of a move of it (asked with its own
/// hex, or any hex while it waits to arrive: a unit that may not move at all is refused for
/// that, [8.3.1], [8.3.7], [8.3.3], [6.1], [8.1.1], [9.1.7], [3.2]); when only the hex is
/// refused, no hex it might reach is open to it.
fn unit_why_not(g: &Game, u: UnitId) -> Value {
    let at = g.hex_of(u).or_else(|| g.setup().map.hexes().next());
    let refusal = at.and_then(|to| g.check(Action::Move { unit: u, to }).err());
    match refusal {
        Some(r) if !matches!(r.case, "8.5.2" | "8.3.5" | "8.3.2" | "18" | "7.1" | "8.2") => {
            json!({"case": r.case, "why": r.why})
        }
        _ => json!({
            "case": "8.3",
            "why": "no hex within its movement allowance is open to it now (its formation's orders, the enemy's zones of control, the ground)",
        }),
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
            "moves" => hm_moves(&session.game, arg.trim()),
            other => Err(QueryError::Unknown(other.to_string())),
        }
    }
}

// ---- charts --------------------------------------------------------------------------------

/// One chart as a grid the board draws as it is: a title, the case it cites, whether it is our
/// reconstruction, column headings, and rows of a label and cells of text.
fn chart(
    [id, title, case]: [&str; 3],
    reconstructed: bool,
    corner: &str,
    columns: Vec<String>,
    rows: Vec<(String, Vec<String>)>,
    note: &str,
) -> Value {
    json!({
        "id": id,
        "title": title,
        "case": case,
        "reconstructed": reconstructed,
        "corner": corner,
        "columns": columns,
        "rows": rows
            .into_iter()
            .map(|(label, cells)| json!({"label": label, "cells": cells}))
            .collect::<Vec<_>>(),
        "note": note,
    })
}

/// The lower bound of each of `results` in a band table (`""` for a result it lacks).
fn bounds<R: Copy + PartialEq>(b: &hex_miniatures::prob::Bands<R>, results: &[R]) -> Vec<String> {
    results
        .iter()
        .map(|&r| b.from_of(r).map_or_else(String::new, |p| p.to_string()))
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The charts (`GET /api/tables?system=hex-miniatures`): every table of the rules' data, as the
/// rules read it. `crt` and `tec` are the generic drawer's combat results table (one row per
/// band of 0.050 of the number, each column's result before modifiers) and terrain chart;
/// `charts` lists every table as a grid (`{id, title, case, reconstructed, corner, columns,
/// rows: [{label, cells}], note}`), in the text's order: the odds [22], the combat results
/// table [15] = [23], the column shifts and modifiers [9.4.1], the national army tables [16],
/// rallies and orders [6], [7], the general under fire [17], the terrain [18], the crisis of
/// morale [19], the square attack [20], the artillery [21], the victory table and margins
/// [12], [14], the weather tracks and the fog's time of day [24], and the light at dusk and
/// dawn [24]. A number's cell is the lower bound of its result (`0.450`).
pub fn hm_tables_view(t: &hex_miniatures::data::Tables) -> Value {
    use hex_miniatures::army::Kind;
    use hex_miniatures::artillery::{Battery, FireResult};
    use hex_miniatures::crt::CombatResult;
    use hex_miniatures::morale::{Crisis, GeneralFate};
    use hex_miniatures::prob::Prob;
    use hex_miniatures::square::SquareResult;
    use hex_miniatures::terrain::{Movement, Sight};

    let crt = &t.crt;
    let names: Vec<String> = (0..crt.columns())
        .map(|c| crt.ratio(c).to_string())
        .collect();
    let band_rows: Vec<Value> = (0..20u16)
        .map(|i| {
            let n = i * 50;
            json!({
                "die": f64::from(n) / 1000.0,
                "from": Prob(n).to_string(),
                "results": (0..crt.columns())
                    .map(|c| crt.bands(c).at(n).to_string())
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    let result_key = [
        ("Ar", "attacker routed: a base unit lost, the rest rout", "9.8.1"),
        ("Aw", "attacker retires, disrupted (already disrupted: a base unit lost and a rout)", "9.8.2"),
        ("Ad", "attacker disrupted and sent back a move (already disrupted: a base unit lost and a rout)", "9.8.3"),
        ("Dx", "both disrupted; a side already disrupted loses a base unit", "9.8.4"),
        ("Dd", "defender disrupted (already disrupted: a base unit lost and a rout)", "9.8.5"),
        ("Dw", "defender retires, disrupted (already disrupted: a base unit lost and a rout)", "9.8.6"),
        ("Dr", "defender routed: a base unit lost, the rest rout", "9.8.7"),
    ];
    let mut charts = Vec::new();

    // [22] the odds
    charts.push(chart(
        ["odds", "Odds table", "22"],
        true,
        "column",
        strings(&["attack at least", "defence"]),
        (0..crt.columns())
            .map(|c| {
                let r = crt.ratio(c);
                (r.to_string(), vec![r.attack.to_string(), r.defence.to_string()])
            })
            .collect(),
        "the attack's strength over the defence's, rounded down in the defender's favour; beyond either end the end column (HM4)",
    ));
    // [15] = [23] the combat results table
    charts.push(chart(
        ["crt", "Combat results table", "23"],
        true,
        "odds",
        CombatResult::ALL.iter().map(|r| r.to_string()).collect(),
        (0..crt.columns())
            .map(|c| (names[c].clone(), bounds(crt.bands(c), &CombatResult::ALL)))
            .collect(),
        "each result from the number shown to the next result's; the attacker draws (HM1, HM2)",
    ));
    // [9.4.1], [9.2] shifts and modifiers
    let c = &t.combat;
    let signed_prob = |m: i32| signed(m);
    charts.push(chart(
        ["shifts", "Column shifts and modifiers", "9.4.1"],
        false,
        "when",
        strings(&["effect"]),
        vec![
            (
                "two arms against one unit".into(),
                vec![format!("{:+} column", c.two_arms)],
            ),
            (
                "three arms".into(),
                vec![format!("{:+} columns", c.three_arms)],
            ),
            ("from a flank".into(), vec![format!("{:+} column", c.flank)]),
            (
                "from the rear".into(),
                vec![format!("{:+} columns", c.rear)],
            ),
            (
                "a general with the attackers (9.2)".into(),
                vec![signed_prob(c.general)],
            ),
            (
                "a senior commander (9.2)".into(),
                vec![signed_prob(c.senior_general)],
            ),
            (
                "a general with the defenders (HM6)".into(),
                vec![signed_prob(-c.general)],
            ),
            (
                "infantry attacking a square".into(),
                vec![signed_prob(c.infantry_against_square)],
            ),
        ],
        "shifts add and stop at the table's edge (HM5)",
    ));
    // [16] the national army tables
    for a in &t.armies {
        charts.push(chart(
            [&format!("army-{}", a.nation), &format!("National army table: {}", a.nation), "16"],
            true,
            "kind",
            strings(&["ordered", "disordered", "first contact", "movement", "rallies on"]),
            Kind::ALL
                .iter()
                .filter_map(|&k| {
                    a.line(k).map(|l| {
                        (
                            k.id().to_string(),
                            vec![
                                l.strength.to_string(),
                                l.disordered.to_string(),
                                l.first_contact.map_or_else(String::new, |f| f.to_string()),
                                l.movement.to_string(),
                                l.rally.to_string(),
                            ],
                        )
                    })
                })
                .collect(),
            "strength per base unit; movement in hexes; a routed unit rallies on the rallies table's figure",
        ));
    }
    // [6], [7] rallies and orders
    charts.push(chart(
        ["rally-orders", "Rallies and orders", "6, 7.1.2.1"],
        false,
        "number needed",
        strings(&["at least"]),
        vec![
            (
                "a routed unit stops (6.2)".into(),
                vec![t.rally_routed.to_string()],
            ),
            (
                "a disrupted unit rallies (6.1)".into(),
                vec!["its army table's".into()],
            ),
            (
                "an order by messenger is understood".into(),
                vec![t.orders.understood.to_string()],
            ),
            (
                "the same in restricted visibility (24, HM20)".into(),
                vec![t.orders.restricted.to_string()],
            ),
            (
                "a general's and a messenger's ride (2.4.6.3)".into(),
                vec![format!("{} hexes", t.command_movement)],
            ),
        ],
        "a general in the hex adds his bonus to a rally, not to an order (HM12)",
    ));
    // [17] the general under fire
    let fates = [
        GeneralFate::Killed,
        GeneralFate::Wounded,
        GeneralFate::Survives,
    ];
    let g = &t.general_under_fire;
    charts.push(chart(
        ["general-under-fire", "General under fire", "17"],
        true,
        "fire",
        strings(&["killed", "wounded", "survives"]),
        vec![
            ("artillery".into(), bounds(&g.artillery, &fates)),
            ("combat".into(), bounds(&g.combat, &fates)),
        ],
        "the general draws his own number, unmodified (HM21, HM24)",
    ));
    // [18] the terrain
    let arms = |v: &[Arm]| {
        v.iter()
            .map(|a| arm_name(*a))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut terrain_rows = Vec::new();
    for k in hex_miniatures::terrain::HEX_KINDS {
        let Some(h) = t.terrain.hex(k) else { continue };
        terrain_rows.push((
            k.to_string(),
            vec![
                match h.movement {
                    Movement::Normal => "normal",
                    Movement::Halved => "halved",
                    Movement::Prohibited => "prohibited",
                }
                .to_string(),
                match h.sight {
                    Sight::Open => "open",
                    Sight::Blocks => "blocks the hexes behind",
                }
                .to_string(),
                if h.defence > 1 {
                    format!(
                        "x{}{}",
                        h.defence,
                        if h.sheltered.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", arms(&h.sheltered))
                        }
                    )
                } else {
                    String::new()
                },
                if h.attacked != 0 {
                    signed(h.attacked)
                } else {
                    String::new()
                },
                if h.attacking != 0 {
                    signed(h.attacking)
                } else {
                    String::new()
                },
                if h.occupants.is_empty() {
                    "all".to_string()
                } else {
                    arms(&h.occupants)
                },
            ],
        ));
    }
    for (k, s) in &t.terrain.hexsides {
        terrain_rows.push((
            format!("{k} (hexside)"),
            vec![
                if s.crossable {
                    if s.disorders {
                        "crossing disrupts"
                    } else {
                        "no extra cost"
                    }
                } else {
                    "only at a bridge"
                }
                .to_string(),
                "open".into(),
                String::new(),
                String::new(),
                String::new(),
                if s.zoc {
                    String::new()
                } else {
                    "no zone of control across".into()
                },
            ],
        ));
    }
    charts.push(chart(
        ["terrain", "Terrain effects table", "18"],
        false,
        "terrain",
        strings(&["movement", "sight", "defender", "attacked", "attacking", "occupants"]),
        terrain_rows,
        "a slope's modifiers count across a slope hexside only: -0.100 to troops at its top attacked from below, +0.100 to troops attacking down it (HM39); from the top one sees a hex behind a town or forest (18); leaving a slope hex down a slope hexside costs a movement point more (8.4.6); a house shelters one battalion (3.1.4.2)",
    ));
    // [19] the crisis of morale
    let crises = [
        Crisis::Rout,
        Crisis::Retire,
        Crisis::Disrupt,
        Crisis::FightsOn,
    ];
    charts.push(chart(
        ["crisis", "Crisis of morale table", "19"],
        true,
        "casualties",
        strings(&["rout", "retire", "disrupt", "fights on", "crisis chance"]),
        t.crisis
            .levels
            .iter()
            .map(|(level, b)| {
                let mut cells = bounds(b, &crises);
                cells.push(format!("{}%", t.crisis.crisis_chance(*level, 0) / 10));
                (format!("{level}%"), cells)
            })
            .collect(),
        "each unit in sight of the action draws once when its army first reaches a level; above the last row the last row (HM10, HM22)",
    ));
    // [20] the square attack
    let sq = [
        SquareResult::Repulsed,
        SquareResult::Holds,
        SquareResult::Broken,
    ];
    charts.push(chart(
        ["square", "Square attack table", "20"],
        true,
        "square",
        strings(&["repulsed", "holds", "broken"]),
        vec![
            ("ordered".into(), bounds(&t.square.ordered, &sq)),
            ("disordered".into(), bounds(&t.square.disordered, &sq)),
        ],
        "the charging cavalry draws (HM21); a square that holds is charged again (9.3.5)",
    ));
    // [21] the artillery
    let fire = [
        FireResult::NoEffect,
        FireResult::Disrupted,
        FireResult::Loss,
        FireResult::LossDisrupted,
    ];
    let mut art = Vec::new();
    for (battery, name) in [(Battery::Foot, "foot"), (Battery::Horse, "horse")] {
        for (range, b) in t.artillery.rows(battery) {
            art.push((format!("{name}, {range} hexes"), bounds(b, &fire)));
        }
    }
    charts.push(chart(
        ["artillery", "Artillery table", "21"],
        true,
        "battery, range",
        strings(&[
            "no effect",
            "disrupted",
            "a base lost",
            "a base lost, disrupted",
        ]),
        art,
        "from 2 hexes; an adjacent battery fights in the exchange with a value of 1 (HM17)",
    ));
    // [12], [14] the victory table and the margins
    let [draw, marginal, major] = t.margins;
    charts.push(chart(
        ["victory", "Victory table and margins of victory", "12, 14"],
        false,
        "difference in casualties",
        strings(&["result"]),
        vec![
            (format!("up to {draw}%"), vec!["draw".into()]),
            (format!("up to {marginal}%"), vec!["marginal victory".into()]),
            (format!("up to {major}%"), vec!["major victory".into()]),
            (format!("over {major}%"), vec!["decisive victory".into()]),
            ("casualty marks".into(), vec![format!("{}% then every {}%", t.first_level, t.level_step)]),
        ],
        "the side holding every objective wins, by this margin if its casualties agree, else marginally (HM48)",
    ));
    // [24] the weather and the light
    let w = &t.weather;
    for (id, title, track) in [
        ("weather-fog", "Fog", &w.fog),
        ("weather-snow", "Snow and thunderstorms", &w.snow),
    ] {
        charts.push(chart(
            [id, title, "24"],
            false,
            "position",
            strings(&["visibility"]),
            (1..=track.positions.len() as u8)
                .map(|p| {
                    let label = if p == track.start {
                        format!("{p} (start)")
                    } else {
                        p.to_string()
                    };
                    (
                        label,
                        vec![track
                            .visibility(p)
                            .map_or_else(|| "clear".to_string(), |v| format!("{v} hexes"))],
                    )
                })
                .collect(),
            &format!(
                "each turn a die: {} or less, a position down; {} or more, a position up",
                track.down_to, track.up_from
            ),
        ));
    }
    charts.push(chart(
        ["fog-by-time", "The fog's die by time of day", "24"],
        false,
        "from",
        strings(&["modifier"]),
        w.fog_by_time
            .iter()
            .map(|(m, v)| (format_clock(*m), vec![format!("{v:+}")]))
            .collect(),
        "none before the first line (HM18)",
    ));
    let n = w.dusk.len() as u32;
    let mut light = Vec::new();
    for i in (1..=n).rev() {
        let m = i * TURN_MINUTES;
        light.push((
            format!("{m} minutes before night"),
            vec![w
                .before_night(m)
                .map_or_else(|| "unlimited".to_string(), |v| format!("{v} hexes"))],
        ));
    }
    light.push(("night".into(), vec!["0 hexes".into()]));
    for i in 1..=n {
        let m = i * TURN_MINUTES;
        light.push((
            format!("{m} minutes after dawn"),
            vec![w
                .after_dawn(m)
                .map_or_else(|| "unlimited".to_string(), |v| format!("{v} hexes"))],
        ));
    }
    charts.push(chart(
        ["light", "Dusk, night and dawn", "24"],
        false,
        "time",
        strings(&["visible range"]),
        light,
        "a turn reads the light at its start; the turn's visibility is the shorter of the weather's and the light's (HM41)",
    ));

    let tec: Vec<Value> = charts
        .iter()
        .find(|c| c["id"] == "terrain")
        .and_then(|c| c["rows"].as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|r| {
            let label = r["label"].as_str().unwrap_or("").to_string();
            let cells: Vec<String> = r["cells"]
                .as_array()
                .map(|v| {
                    v.iter()
                        .map(|x| x.as_str().unwrap_or("").to_string())
                        .collect()
                })
                .unwrap_or_default();
            let hexside = label.ends_with(" (hexside)");
            let terrain = label.trim_end_matches(" (hexside)").to_string();
            let combat = [cells.get(2), cells.get(3), cells.get(4)]
                .into_iter()
                .flatten()
                .zip(["defender", "attacked", "attacking"])
                .filter(|(c, _)| !c.is_empty())
                .map(|(c, w)| format!("{w} {c}"))
                .collect::<Vec<_>>()
                .join("; ");
            json!({
                "terrain": terrain,
                "kind": if hexside { "hexside" } else { "hex" },
                "name": terrain,
                "movement": cells.first().cloned().unwrap_or_default(),
                "sight": cells.get(1).cloned().unwrap_or_default(),
                "combat": if combat.is_empty() { "no effect".to_string() } else { combat },
                "case": "18",
            })
        })
        .collect();
    json!({
        "crt": {
            "columns": names,
            "rows": band_rows,
            "results": result_key
                .iter()
                .map(|(code, name, case)| json!({"code": code, "name": name, "case": case}))
                .collect::<Vec<_>>(),
            "case": "23",
        },
        "tec": {"rows": tec, "case": "18"},
        "charts": charts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hex_miniatures::data::Tables;

    /// Möckern at noon: the Prussians' first movement stage, every chance rolled.
    fn moeckern() -> Session<Game> {
        let g = Game::new(&Scenario::moeckern(), &Tables::shipped()).expect("the game");
        let mut s = Session::new(g, "moeckern-1813", 1, 1);
        while s.game.to_act() == ToAct::Chance {
            let a = s.game.chance_outcomes()[0].0;
            s.act(a).expect("a chance outcome");
        }
        s
    }

    fn hexes(v: &Value) -> Vec<String> {
        let mut out: Vec<String> = v["destinations"]
            .as_array()
            .expect("destinations")
            .iter()
            .map(|d| d["hex"].as_str().expect("a hex").to_string())
            .collect();
        out.sort();
        out
    }

    /// The moves query shades the hexes of the unit's legal moves, no more and no fewer (the
    /// rules' [8] as `Game::legal_actions` lists them); each with its path ending there.
    #[test]
    fn moves_are_the_units_legal_moves() {
        let s = moeckern();
        let g = &s.game;
        assert_eq!(g.stage(), Stage::Movement);
        let mut tried = 0;
        for u in (0..g.unit_count()).map(|i| UnitId(i as u8)) {
            let id = g.unit(u).id.clone();
            let v = hm_moves(g, &id).expect("a unit");
            let mut legal: Vec<String> = hm_legal(g)
                .into_iter()
                .filter_map(|a| match a {
                    Action::Move { unit, to } if unit == u => Some(to.to_string()),
                    _ => None,
                })
                .collect();
            legal.sort();
            assert_eq!(hexes(&v), legal, "{id}");
            let from = v["from"].clone();
            for d in v["destinations"].as_array().unwrap() {
                let path = d["path"].as_array().unwrap();
                assert_eq!(path.last(), Some(&d["hex"]));
                // the rules' cost, in hexes: at least half a hex (a road), at most the allowance
                let cost = d["cost"].as_f64().expect("a cost");
                assert!(
                    cost >= 0.5 && cost <= v["movement"].as_f64().unwrap() + 1.0,
                    "{id}: {cost}"
                );
                if !from.is_null() {
                    assert_eq!(
                        path.first(),
                        Some(&from),
                        "{id}: the path starts where it stands"
                    );
                }
            }
            if legal.is_empty() {
                assert!(v["why_not"]["case"].is_string(), "{id}: why not");
            } else {
                tried += 1;
                assert!(v["why_not"].is_null());
            }
        }
        assert!(tried > 0, "some unit may move at noon");
        // the Prussian battalion waiting at the Halle road comes on at its edge hex
        let v = hm_moves(g, "PR-AG-1").unwrap();
        assert!(hexes(&v).contains(&"0112".to_string()));
        assert!(v["from"].is_null());
    }

    /// A French unit in the Prussians' stage has no destination, and says why ([8.3.1]).
    #[test]
    fn the_other_sides_unit_cannot_move() {
        let s = moeckern();
        let v = hm_moves(&s.game, "FR-21-2M-1").unwrap();
        assert!(hexes(&v).is_empty());
        assert_eq!(v["why_not"]["case"], "8.3.1");
        assert_eq!(v["from"], "1012");
    }

    /// A unit that has moved says so, with the rules' case ([8.3.7]).
    #[test]
    fn a_unit_that_moved_says_why_it_may_not_move_again() {
        let mut s = moeckern();
        let u = s.game.unit_by_id("PR-AG-1").unwrap();
        let to = hm_legal(&s.game)
            .into_iter()
            .find(|a| matches!(a, Action::Move { unit, .. } if *unit == u))
            .expect("it may come on");
        s.act(to).expect("the move");
        let v = hm_moves(&s.game, "PR-AG-1").unwrap();
        assert!(hexes(&v).is_empty());
        assert_eq!(v["why_not"]["case"], "8.3.7");
    }

    /// An order sent by messenger: the messenger's entry gives the ride still to go, from his
    /// hex, as the rules will ride him ([7.1.2.1]).
    #[test]
    fn a_messenger_shows_his_route() {
        let mut s = moeckern();
        s.act(Action::End)
            .expect("the Prussians end their movement");
        let order = (0..400)
            .find_map(|_| {
                let legal = hm_legal(&s.game);
                let found = legal
                    .iter()
                    .copied()
                    .find(|a| s.game.action_text(*a).starts_with("order marmont FR-25C "));
                if found.is_none() {
                    let a = match s.game.to_act() {
                        ToAct::Chance => s.game.chance_outcomes()[0].0,
                        _ => *legal.iter().find(|a| matches!(a, Action::End))?,
                    };
                    s.act(a).ok()?;
                }
                found
            })
            .expect("Marmont may order the 25th light cavalry brigade");
        s.act(order).expect("the order");
        let m = &hm_messengers(&s.game)[0];
        let route = m["route"].as_array().expect("a route");
        assert_eq!(route.first(), Some(&m["hex"]), "from where he is");
        assert!(route.len() > 1, "far to ride");
        let rules: Vec<String> = s
            .game
            .messenger_route(0)
            .iter()
            .map(|h| h.to_string())
            .collect();
        assert_eq!(
            route[1..],
            rules.iter().map(|h| json!(h)).collect::<Vec<_>>()[..]
        );
    }

    /// Under fog the state view's conditions give the weather, the counter's position and the
    /// visible range the rules compute ([24]), and each side's sight is the rules' `sees`.
    #[test]
    fn fog_limits_the_sight_the_view_gives() {
        let mut setup = hex_miniatures::setup::Setup::skirmish();
        setup.weather = WeatherKind::Fog;
        setup.weather_start = Some(1);
        let g = Game::from_setup(setup, &Tables::shipped()).expect("the skirmish");
        let c = hm_conditions(&g);
        assert_eq!(c["weather"], "fog");
        assert_eq!(c["weather_position"], json!(g.weather_position()));
        assert_eq!(c["weather_visibility"], json!(g.weather_visibility()));
        assert_eq!(c["visibility"], json!(g.visibility()));
        assert!(g.visibility().is_some(), "fog limits sight");
        let sight = hm_sight(&g);
        for side in 0..2u8 {
            let listed: Vec<String> = sight[hm_side_name(&g, side)]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_str().unwrap().to_string())
                .collect();
            let sees: Vec<String> = g
                .setup()
                .map
                .hexes()
                .filter(|&h| g.sees(side, h))
                .map(|h| h.to_string())
                .collect();
            assert_eq!(listed, sees);
            assert!(
                listed.len() < g.setup().map.hexes().count(),
                "not every hex"
            );
        }
    }

    /// A general's rides are his destinations; a word naming nobody is a clear error.
    #[test]
    fn generals_ride_and_unknown_words_are_refused() {
        let s = moeckern();
        let g = &s.game;
        for x in (0..g.general_count()).map(|i| GeneralId(i as u8)) {
            let id = g.general(x).id.clone();
            let v = hm_moves(g, &id).expect("a general");
            let mut legal: Vec<String> = hm_legal(g)
                .into_iter()
                .filter_map(|a| match a {
                    Action::Ride { general, to } if general == x => Some(to.to_string()),
                    _ => None,
                })
                .collect();
            legal.sort();
            assert_eq!(hexes(&v), legal, "{id}");
            for d in v["destinations"].as_array().unwrap() {
                let cost = d["cost"].as_f64().expect("a distance");
                assert!((1.0..=f64::from(g.tables().command_movement)).contains(&cost));
            }
        }
        assert!(matches!(
            hm_moves(g, "nobody"),
            Err(QueryError::NotFound(_))
        ));
        let p = HmPresenter::new(&Scenario::moeckern());
        assert!(p.query(&s, "moves", " PR-AG-1 ", Viewer::Referee).is_ok());
    }
}
