//! The views of a Leipzig 1813 game (`leipzig-1813`, the strategic game): the state view for
//! each viewer (units in stacks with their strength, movement points, dispersal, forced march
//! and supply; leaders with their bonuses; supply units and depots; the fortresses and their
//! sieges; the cities and the victory points; the turn, the phase and who acts; the special
//! rules in force), typed event facts with a sentence each, structured legal actions, a unit's
//! moves, the charts, the text of the command line, and [`L1813Presenter`], the presentation the
//! `systems` registry hosts the system with.
//!
//! Hidden units (Reconnaissance): while the rule is in force the French may see where an Allied
//! counter stands (an inverted counter) but not what it is, unless it has been revealed
//! (`Game::sees`). A viewer who may not see the Allies (`Rules::visible`) gets such a counter
//! as an entry with no id, kind or strength (`hidden`), and no entry at all for the Allied
//! counters off the map (waiting to be placed, or gone into another), whose coming and going
//! would name the counter placed. Events are the same for every viewer: an event names no unit
//! the French may not examine (its id becomes `null`, its sentence "an Allied unit"). The legal
//! actions of a seat go only to those who may see that seat.
//!
//! Everything here is read from the rules' public queries (`leipzig_1813::game::Game`): this
//! module decides nothing a rule decides.

use engine::dynamic::{LegalAction, Presenter, QueryError};
use engine::{Rules, Session, Side, ToAct, Viewer};
use hexmap::Hex;
use leipzig_1813::europe::Europe;
use leipzig_1813::game::{Action, Event, Game, MarchState, Status, Step, Unit};
use leipzig_1813::units::Arm;
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The system's id, as scenario lists, records and the board name it.
pub const L1813_SYSTEM: &str = "leipzig-1813";

/// The French seat.
const FRENCH: u8 = 0;
/// The Allied seat.
const ALLIES: u8 = 1;

/// The shipped map, for the places' names.
fn europe() -> &'static Europe {
    static E: OnceLock<Europe> = OnceLock::new();
    E.get_or_init(Europe::central_europe)
}

/// The name of a seat (`French`, `Allies`).
pub fn l1813_side_name(g: &Game, s: u8) -> String {
    g.seat_name(Side(s)).to_string()
}

/// The place printed at a hex, if any.
fn place_at(h: Hex) -> Option<&'static str> {
    europe()
        .map
        .places
        .iter()
        .find(|p| p.hex == h)
        .map(|p| p.name.as_str())
}

/// A hex with its place's name when it has one: `2627 (Dresden)`.
fn hex_words(h: &str) -> String {
    match h.parse::<Hex>().ok().and_then(place_at) {
        Some(p) => format!("{h} ({p})"),
        None => h.to_string(),
    }
}

/// Who acts, as the state view names it: a seat's name, `chance` or `over`.
pub fn l1813_to_act_name(g: &Game) -> String {
    match g.to_act() {
        ToAct::Side(x) => l1813_side_name(g, x.0),
        ToAct::Chance => "chance".into(),
        ToAct::Over(_) => "over".into(),
    }
}

/// The step's short name.
pub fn l1813_step_name(step: Step) -> &'static str {
    match step {
        Step::Setup => "setup",
        Step::Movement => "movement",
        Step::Attack => "attack",
        Step::Retreat => "retreat",
        Step::DefenceSupply => "defence_supply",
        Step::Resolve => "resolve",
        Step::Over => "over",
        #[allow(unreachable_patterns)]
        _ => "other",
    }
}

/// The phase of the player-turn a step belongs to: `setup`, `movement`, `combat` or `over`.
pub fn l1813_phase_name(step: Step) -> &'static str {
    match step {
        Step::Setup => "setup",
        Step::Movement => "movement",
        Step::Over => "over",
        _ => "combat",
    }
}

/// A step in words, for the command line.
pub fn l1813_step_text(step: Step) -> &'static str {
    match step {
        Step::Setup => "set-up: placing the units the charts give",
        Step::Movement => "movement phase",
        Step::Attack => "combat phase: declaring attacks and allocating supply",
        Step::Retreat => "combat phase: the defender may retreat before combat",
        Step::DefenceSupply => "combat phase: the defender allocates supply",
        Step::Resolve => "combat phase: resolving the combats",
        Step::Over => "the game is over",
        #[allow(unreachable_patterns)]
        _ => "",
    }
}

/// True when `viewer` may not see what the Allies' counters are (Reconnaissance,
/// `Rules::visible`).
fn allies_hidden_from(g: &Game, viewer: Viewer) -> bool {
    !g.visible(Side(ALLIES), viewer)
}

/// True when the French may not examine unit `u` (Reconnaissance): an unrevealed Allied
/// counter on the map, or, while the rule is in force, an Allied counter off it (waiting to be
/// placed, or gone into another).
pub fn l1813_secret(g: &Game, u: usize) -> bool {
    let unit = &g.units()[u];
    if unit.side != ALLIES || !g.reconnaissance() || matches!(g.to_act(), ToAct::Over(_)) {
        return false;
    }
    match unit.status {
        Status::OnMap => !g.sees(FRENCH, u),
        Status::Eliminated => false,
        _ => true,
    }
}

fn arm_name(a: Arm) -> &'static str {
    match a {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Supply => "supply",
        Arm::Depot => "depot",
        Arm::Leader => "leader",
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Pending => "waiting",
        Status::OnMap => "map",
        Status::Eliminated => "eliminated",
        Status::Gone => "gone",
    }
}

/// A forced march's state as JSON (`null` when none).
fn march_view(m: MarchState) -> Value {
    let name = |triple: bool| if triple { "triple" } else { "double" };
    match m {
        MarchState::None => Value::Null,
        MarchState::Unrolled(x) => json!({"march": name(is_triple(x)), "state": "declared"}),
        MarchState::Letter(x, l) => {
            json!({"march": name(is_triple(x)), "state": "letter", "letter": l.to_string()})
        }
        MarchState::Done(x) => json!({"march": name(is_triple(x)), "state": "done"}),
    }
}

fn is_triple(m: leipzig_1813::forced_march::March) -> bool {
    matches!(m, leipzig_1813::forced_march::March::Triple)
}

/// The supply roles a supply unit has this player-turn.
fn supply_roles(bits: u8) -> Vec<&'static str> {
    use leipzig_1813::game::supply_use as s;
    let mut v = Vec::new();
    for (b, n) in [
        (s::ALLOCATED, "combat"),
        (s::STACKING, "stacking"),
        (s::MARCH, "march"),
        (s::FOUGHT, "fought"),
    ] {
        if bits & b != 0 {
            v.push(n);
        }
    }
    v
}

/// A unit's designation on its counter: its printed values (`5-4`, `(1)-4`), a leader's
/// number and surname.
fn designation(g: &Game, u: &Unit) -> String {
    let k = g.kind(u);
    if k.arm == Arm::Leader {
        let name = leader_name(g, u);
        let short = name.split_whitespace().last().unwrap_or(&name).to_string();
        return format!("{} {short}", u.leader);
    }
    match k.arm {
        Arm::Supply => "supply".into(),
        Arm::Depot => "depot".into(),
        _ if k.defence_only => format!("({})-{}", k.strength, k.movement),
        _ => format!("{}-{}", k.strength, k.movement),
    }
}

fn data_side(u: &Unit) -> &'static str {
    leipzig_1813::leaders::SIDES[usize::from(u.side) % 2]
}

fn leader_name(g: &Game, u: &Unit) -> String {
    g.tables()
        .leader(data_side(u), u.leader)
        .map_or_else(|| format!("leader {}", u.leader), |l| l.name.clone())
}

/// The entry of one unit the viewer may examine: the generic counter's members (`id`, `side`,
/// `nation`, `designation`, `type`, `strength`, `movement`, `status`, `hex`, `markers`) and the
/// system's own (`kind`, `echelon`, `name`, `worth`, `mp`, `dispersed`, `march`, `supplied`,
/// `supply_use`, `moved`, `stopped`, `saxon`, `gotha`, a leader's `leader` with his bonuses,
/// `revealed` for an Allied counter the French have examined, and `hidden_from` for one they
/// may not).
pub fn l1813_unit_entry(g: &Game, u: usize) -> Value {
    let unit = &g.units()[u];
    let k = g.kind(unit);
    let dispersed = g.is_dispersed(unit);
    let mut markers = Vec::new();
    if dispersed {
        markers.push("dispersed");
    }
    if !matches!(unit.march, MarchState::None) {
        markers.push("forced_march");
    }
    if unit.moved {
        markers.push("moved");
    }
    if g.saxon_locked(unit) {
        markers.push("neutral");
    }
    let on_map = unit.status == Status::OnMap;
    // the garrison of a fortress under siege (Fortress and Siege), marked on its counters
    if on_map && g.besieged(unit.hex) {
        markers.push("besieged");
    }
    let supplied = on_map && g.in_supply(u);
    let leader = (k.arm == Arm::Leader).then(|| {
        let l = g.tables().leader(data_side(unit), unit.leader);
        json!({
            "number": unit.leader,
            "name": leader_name(g, unit),
            "offence": l.map_or(0, |l| l.offence),
            "defence": l.map_or(0, |l| l.defence),
        })
    });
    let secret = l1813_secret(g, u);
    json!({
        "id": g.label(u),
        "side": l1813_side_name(g, unit.side),
        "nation": g.nationality(unit),
        "designation": designation(g, unit),
        "type": arm_name(k.arm),
        "kind": k.id,
        "echelon": k.echelon,
        "name": k.name,
        "worth": k.worth,
        "strength": k.strength,
        "defence_only": k.defence_only,
        "movement": g.allowance(unit),
        "mp": if on_map { Value::from(unit.mp) } else { Value::Null },
        "status": status_name(unit.status),
        "hex": on_map.then(|| unit.hex.to_string()),
        "place": if on_map { place_at(unit.hex).map(Value::from).unwrap_or(Value::Null) } else { Value::Null },
        "markers": markers,
        "dispersed": dispersed,
        "march": march_view(unit.march),
        "supplied": supplied,
        "supply_use": supply_roles(unit.supply_use),
        "moved": unit.moved,
        "stopped": unit.stopped,
        "aside": unit.aside,
        "saxon": unit.saxon,
        "gotha": unit.gotha,
        "leader": leader,
        "revealed": unit.side == ALLIES && unit.revealed > 0,
        "hidden_from": if secret { Value::from(l1813_side_name(g, FRENCH)) } else { Value::Null },
    })
}

/// An Allied counter on the map the viewer may not examine: where it stands and nothing else
/// (an inverted counter).
fn inverted_entry(g: &Game, u: usize) -> Value {
    let unit = &g.units()[u];
    json!({
        "side": l1813_side_name(g, unit.side),
        "hidden": true,
        "status": "map",
        "hex": unit.hex.to_string(),
        "markers": [],
    })
}

/// The units `viewer` may see, in the game's order (the order counters came into play):
/// every counter on the map, waiting or eliminated (none gone into another), the Allies'
/// unexamined ones as inverted counters, or none off the map (Reconnaissance).
pub fn l1813_units(g: &Game, viewer: Viewer) -> Vec<Value> {
    let hide = allies_hidden_from(g, viewer);
    (0..g.units().len())
        .filter_map(|u| {
            let unit = &g.units()[u];
            if unit.status == Status::Gone {
                return None;
            }
            if hide && l1813_secret(g, u) {
                return (unit.status == Status::OnMap).then(|| inverted_entry(g, u));
            }
            Some(l1813_unit_entry(g, u))
        })
        .collect()
}

/// The cities of the Victory Point Schedule: name, hex, holder, the points they are worth in
/// this scenario, and whether a fortress there is under siege.
pub fn l1813_cities(g: &Game) -> Vec<Value> {
    let row = g.tables().victory(g.scenario().victory);
    let holders = g.city_holders();
    leipzig_1813::victory::CITIES
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let h = g.board().cities[i]?;
            Some(json!({
                "name": name,
                "hex": h.to_string(),
                "holder": holders[i].map(|s| l1813_side_name(g, s)),
                "points": row.map_or(0, |r| r.city(name)),
                "besieged": g.besieged(h),
            }))
        })
        .collect()
}

/// The fortresses of the map: name, hex, the side whose units hold it (if any) and whether
/// they are besieged (Fortress and Siege).
pub fn l1813_fortresses(g: &Game, viewer: Viewer) -> Vec<Value> {
    let hide = allies_hidden_from(g, viewer);
    europe()
        .map
        .places
        .iter()
        .filter(|p| g.board().contains(p.hex) && g.board().hex(p.hex).fortress)
        .map(|p| {
            let here = g.units_at(p.hex);
            let holder = here.first().map(|&u| g.units()[u].side);
            json!({
                "name": p.name,
                "hex": p.hex.to_string(),
                "holder": holder.map(|s| l1813_side_name(g, s)),
                "besieged": g.besieged(p.hex),
                // how many counters hold it, when the viewer may examine them
                "garrison": if hide && here.iter().any(|&u| l1813_secret(g, u)) { Value::Null } else { Value::from(here.len()) },
            })
        })
        .collect()
}

/// The victory points (How to Win): each side's points now, its losses (divisions and leaders
/// destroyed in combat and by forced march), the French groups' exits and the schedule's row.
pub fn l1813_victory(g: &Game) -> Value {
    let vp = g.victory_points();
    let mut points = Map::new();
    let mut losses = Map::new();
    for s in [FRENCH, ALLIES] {
        let name = l1813_side_name(g, s);
        points.insert(name.clone(), Value::from(vp[usize::from(s)]));
        let l = g.losses(s);
        losses.insert(
            name,
            json!({"combat": l.combat, "march": l.march, "total": l.total()}),
        );
    }
    let row = g.tables().victory(g.scenario().victory);
    json!({
        "points": points,
        "losses": losses,
        "per_division": row.map_or(0, |r| r.division),
        "cities": l1813_cities(g),
    })
}

/// The special rules in force and where they stand.
pub fn l1813_special(g: &Game) -> Value {
    let r = &g.scenario().rules;
    json!({
        "reconnaissance": g.reconnaissance(),
        "reconnaissance_until": r.reconnaissance_until,
        "austria_open": g.austria_open(),
        "austria_intervened": g.austria_intervened(),
        "bavaria_defected": g.bavaria_defected(),
        "german_rebellion": g.rebellion(),
        "saxon_garrison": r.saxon_garrison.as_ref().map(|s| json!({"at": s.at, "moves_from_turn": s.moves_from_turn})),
    })
}

/// The combats declared this combat phase: attacking hex, defending hexes, the result once
/// resolved.
pub fn l1813_battles(g: &Game) -> Vec<Value> {
    g.combats()
        .iter()
        .map(|c| {
            json!({
                "from": c.from.to_string(),
                "targets": c.targets.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
                "resolved": c.result.is_some(),
                "result": c.result.map(|r| r.to_string()),
            })
        })
        .collect()
}

/// The outcome, once the game is over.
pub fn l1813_outcome(g: &Game) -> Value {
    match g.to_act() {
        ToAct::Over(o) => json!({
            "winner": o.winner.map(|s| l1813_side_name(g, s.0)),
            "case": o.case,
            "why": o.why,
        }),
        _ => Value::Null,
    }
}

/// The legal actions of the seat to act.
pub fn l1813_legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    if matches!(g.to_act(), ToAct::Side(_)) {
        g.legal_actions(&mut v);
    }
    v
}

fn unit_label(g: &Game, u: u16) -> Option<String> {
    (usize::from(u) < g.units().len()).then(|| g.label(usize::from(u)))
}

fn unit_hex(g: &Game, u: u16) -> Option<String> {
    g.units()
        .get(usize::from(u))
        .filter(|x| x.on_map())
        .map(|x| x.hex.to_string())
}

/// A legal action as structured data: its kind, the unit, the hex it acts from and the hex it
/// goes to or acts against.
pub fn l1813_legal_action(g: &Game, a: Action) -> LegalAction {
    let text = g.action_text(a);
    let kind = text.split_whitespace().next().unwrap_or("").to_string();
    let mut la = LegalAction {
        text,
        kind,
        ..LegalAction::default()
    };
    match a {
        Action::Place { unit, hex } => {
            la.unit = unit_label(g, unit);
            la.to = Some(hex.to_string());
        }
        Action::Move { unit, to } | Action::Retreat { unit, to } => {
            la.unit = unit_label(g, unit);
            la.from = unit_hex(g, unit);
            la.to = Some(to.to_string());
        }
        Action::Split { unit, .. }
        | Action::March { unit, .. }
        | Action::Press { unit }
        | Action::Halt { unit }
        | Action::Supply { unit }
        | Action::Aside { unit }
        | Action::Hide { unit }
        | Action::Exit { unit }
        | Action::Disband { unit } => {
            la.unit = unit_label(g, unit);
            la.from = unit_hex(g, unit);
        }
        Action::Combine { hex, .. } => {
            la.from = Some(hex.to_string());
        }
        // a hex's attack on a hex: `from` and `to` (the board offers it with its odds)
        Action::Overrun { from, to } | Action::Attack { from, to } => {
            la.from = Some(from.to_string());
            la.to = Some(to.to_string());
        }
        // the attackers' advance: offered as a button with their hex (not a hex's attack)
        Action::Advance { from, .. } => {
            la.from = Some(from.to_string());
        }
        Action::End | Action::Roll(_) | Action::Armistice => {}
        #[allow(unreachable_patterns)]
        _ => {}
    }
    la
}

/// The state view `viewer` may see (`docs/api.md`, "The state view", with the system's own
/// members `victory`, `fortresses`, `battles`, `special`, `units_count`, `hidden` and
/// `retreat_choice`). Legal
/// actions are listed only when `with_legal` and the viewer may see the seat to act.
pub fn l1813_state_view(s: &Session<Game>, viewer: Viewer, with_legal: bool) -> Value {
    let g = &s.game;
    let sc = g.scenario();
    let shows_actor = match g.to_act() {
        ToAct::Side(x) => g.visible(x, viewer),
        _ => false,
    };
    let legal = if with_legal && shows_actor {
        l1813_legal(g)
    } else {
        Vec::new()
    };
    let legal_actions: Vec<LegalAction> = legal.iter().map(|&a| l1813_legal_action(g, a)).collect();
    let units = l1813_units(g, viewer);
    let hidden = allies_hidden_from(g, viewer);
    json!({
        "system": L1813_SYSTEM,
        "scenario": s.record.scenario,
        "title": format!("Leipzig 1813: {}", sc.title),
        "number": sc.number,
        "turn": g.turn(),
        "first_turn": sc.first_turn,
        "last_turn": sc.last_turn,
        "night_turns": [],
        "night": false,
        "phasing": l1813_side_name(g, g.player()),
        "phase": l1813_phase_name(g.step()),
        "step": l1813_step_name(g.step()),
        "to_act": l1813_to_act_name(g),
        "actions_recorded": s.record.actions.len(),
        "undoable": g.undoable().min(s.record.actions.len()),
        "state_hash": engine::hash_text(g.state_hash()),
        "units_count": units.len(),
        "units": units,
        "hidden": if hidden { Value::from(l1813_side_name(g, ALLIES)) } else { Value::Null },
        "victory": l1813_victory(g),
        "fortresses": l1813_fortresses(g, viewer),
        "battles": l1813_battles(g),
        "special": l1813_special(g),
        "demoralization": [],
        "combats": [],
        "obligations": [],
        "outcome": l1813_outcome(g),
        "legal": legal.iter().map(|&a| g.action_text(a)).collect::<Vec<_>>(),
        "legal_actions": legal_actions,
        "retreat_choice": if shows_actor { l1813_retreat_choice(g, viewer) } else { Value::Null },
        "overlays": {},
        "setup_events": s.start().events().iter().map(|e| l1813_event(s.start(), e)).collect::<Vec<_>>(),
    })
}

/// A retreat after combat waiting for its owner's choice of route among equal ones (ruling
/// L45, `Game::retreat_choice`): the side, the units retreating together (those the viewer may
/// examine), the equal ends the order of preference leaves, and whether it is a scattered unit;
/// null when none waits. The board highlights the ends to be clicked (`retreat A3 HEX`).
pub fn l1813_retreat_choice(g: &Game, viewer: Viewer) -> Value {
    let Some(c) = g.retreat_choice() else {
        return Value::Null;
    };
    let hide = allies_hidden_from(g, viewer);
    let units: Vec<String> = c
        .units
        .iter()
        .map(|&u| usize::from(u))
        .filter(|&u| u < g.units().len() && !(hide && l1813_secret(g, u)))
        .map(|u| g.label(u))
        .collect();
    json!({
        "side": l1813_side_name(g, c.side),
        "units": units,
        "ends": c.options.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
        "ends_named": c.options.iter().map(|h| hex_words(&h.to_string())).collect::<Vec<_>>(),
        "scatter": c.scatter,
    })
}

// ---- events --------------------------------------------------------------------------------

/// The index of a unit named as actions name it (`F12`).
fn unit_named(g: &Game, label: &str) -> Option<usize> {
    (0..g.units().len()).find(|&u| g.label(u) == label)
}

/// A unit's name in an event: its label, or `None` when the French may not examine it.
fn shown(g: &Game, label: &str) -> Option<String> {
    match unit_named(g, label) {
        Some(u) if l1813_secret(g, u) => None,
        _ => Some(label.to_string()),
    }
}

/// A unit in words: `F12 (French infantry corps (5-4))`, or `an Allied unit`.
fn unit_words(g: &Game, label: &str) -> String {
    match unit_named(g, label) {
        Some(u) if l1813_secret(g, u) => "an Allied unit".into(),
        Some(u) => {
            let unit = &g.units()[u];
            let k = g.kind(unit);
            if k.arm == Arm::Leader {
                format!("{label} ({})", leader_name(g, unit))
            } else {
                format!("{label} ({} {})", g.nationality(unit), k.name)
            }
        }
        None => label.to_string(),
    }
}

fn units_words(g: &Game, labels: &[String]) -> String {
    let named: Vec<String> = labels
        .iter()
        .filter(|l| shown(g, l).is_some())
        .map(|l| unit_words(g, l))
        .collect();
    let secret = labels.len() - named.len();
    let mut parts = named;
    if secret > 0 {
        parts.push(format!(
            "{secret} Allied unit{}",
            if secret == 1 { "" } else { "s" }
        ));
    }
    parts.join(", ")
}

fn shown_list(g: &Game, labels: &[String]) -> Vec<String> {
    labels.iter().filter_map(|l| shown(g, l)).collect()
}

/// An event in words (nothing the French may not examine).
pub fn l1813_event_text(g: &Game, e: &Event) -> String {
    match e {
        Event::Placed { unit, hex } => format!("{} placed at {}", unit_words(g, unit), hex_words(hex)),
        Event::PhaseBegins { turn, side, phase } => {
            format!("Turn {turn}: the {side} {phase} phase begins")
        }
        Event::Reinforcements { side, units } => {
            format!("{side} reinforcements arrive: {}", units_words(g, units))
        }
        Event::ReinforcementsLost { side, count, why } => {
            format!("{count} {side} reinforcement units cannot arrive: {why}")
        }
        Event::Moved {
            unit,
            from,
            to,
            cost,
        } => format!(
            "{} moved from {} to {} ({cost} MP)",
            unit_words(g, unit),
            hex_words(from),
            hex_words(to)
        ),
        Event::Revealed { units } => format!("Revealed to the French: {}", units_words(g, units)),
        Event::Split { unit, into } => format!(
            "{} broke down into {}",
            unit_words(g, unit),
            units_words(g, into)
        ),
        Event::Combined { units, into } => format!(
            "{} combined into {}",
            units_words(g, units),
            unit_words(g, into)
        ),
        Event::MarchDeclared { unit, .. }
        | Event::MarchRolled { unit, .. }
        | Event::MarchHalted { unit }
            if shown(g, unit).is_none() =>
        {
            "An Allied unit makes a forced march".into()
        }
        Event::SupplySpent { unit, .. } if shown(g, unit).is_none() => {
            "An Allied counter is spent".into()
        }
        Event::MarchDeclared { unit, march, free } => format!(
            "{} declares a {march} forced march{}",
            unit_words(g, unit),
            if *free { " (no roll)" } else { "" }
        ),
        Event::MarchRolled {
            unit,
            table,
            die,
            entry,
        } => format!(
            "{}: forced march roll {die} on the {table} table: {}",
            unit_words(g, unit),
            match entry.as_str() {
                "-" => "proceeds".to_string(),
                "D" => "dispersed at the end of the phase".to_string(),
                "X" => "destroyed".to_string(),
                l => format!("roll again on table {l}, or halt"),
            }
        ),
        Event::MarchHalted { unit } => format!("{} halts its forced march", unit_words(g, unit)),
        Event::Overrun { from, to } => format!(
            "The units at {} overrun {} (500% or more)",
            hex_words(from),
            hex_words(to)
        ),
        Event::AttackDeclared { from, targets } => format!(
            "Attack from {} on {}",
            hex_words(from),
            targets
                .iter()
                .map(|t| hex_words(t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::SupplyAllocated { unit } => {
            format!("{} allocated to combat", unit_words(g, unit))
        }
        Event::CombatResolved {
            from,
            targets,
            attack,
            defence,
            percent,
            column,
            die,
            result,
        } => format!(
            "Combat {} against {}: {attack} to {defence} ({percent}%, the {column} column), die {die}: {result}",
            hex_words(from),
            targets
                .iter()
                .map(|t| hex_words(t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::CombatVoid { from, why } => {
            format!("The attack from {} is not fought: {why}", hex_words(from))
        }
        Event::Eliminated { unit, hex } => {
            format!("{} eliminated at {}", unit_words(g, unit), hex_words(hex))
        }
        Event::Dispersed { unit } => format!("{} dispersed", unit_words(g, unit)),
        Event::Retreated { unit, from, to } => format!(
            "{} retreats from {} to {}",
            unit_words(g, unit),
            hex_words(from),
            hex_words(to)
        ),
        Event::SupplySpent { unit, role } => {
            format!("{} spent ({role})", unit_words(g, unit))
        }
        Event::StackOutOfSupply { hex } => {
            format!("The stack at {} is out of supply", hex_words(hex))
        }
        Event::Recovered { units } => format!("Recovered: {}", units_words(g, units)),
        Event::CityTaken { city, side } => format!("{city} taken by the {side}"),
        Event::SpecialRule { rule, text } => format!("{rule}: {text}"),
        Event::GameOver {
            french,
            allies,
            winner,
        } => format!(
            "The game is over: French {french} victory points, Allies {allies}; {}",
            winner
                .as_ref()
                .map_or_else(|| "a draw".to_string(), |w| format!("the {w} win"))
        ),
        Event::StandsAside { unit } => {
            format!("{} stands aside from its hex's attack", unit_words(g, unit))
        }
        Event::Advanced { unit, from, to } => format!(
            "{} advances from {} into {}",
            unit_words(g, unit),
            hex_words(from),
            hex_words(to)
        ),
        Event::Exited { unit } => format!("{} leaves the map", unit_words(g, unit)),
        // (an event the rules add later: its kind only, never a unit's name, which could be
        // one the French may not examine)
        #[allow(unreachable_patterns)]
        _ => serde_json::to_value(e)
            .ok()
            .and_then(|v| v.get("kind").and_then(Value::as_str).map(|k| k.replace('_', " ")))
            .unwrap_or_else(|| "an event".to_string()),
    }
}

/// An event as JSON: `case`, `kind`, `text` and its facts, with the units the French may not
/// examine left out (`unit: null`, lists without them, `hidden` counting them).
pub fn l1813_event(g: &Game, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or_else(|_| json!({}));
    if let Value::Object(m) = &mut v {
        let mut hidden = 0usize;
        for key in ["unit", "into"] {
            if let Some(Value::String(label)) = m.get(key).cloned() {
                if shown(g, &label).is_none() {
                    m.insert(key.into(), Value::Null);
                    hidden += 1;
                }
            }
        }
        for key in ["units", "into"] {
            if let Some(Value::Array(list)) = m.get(key).cloned() {
                let labels: Vec<String> = list
                    .iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect();
                let kept = shown_list(g, &labels);
                hidden += labels.len() - kept.len();
                m.insert(key.into(), Value::from(kept));
            }
        }
        if hidden > 0 {
            m.insert("hidden".into(), Value::from(hidden));
            // what the counter is, told by what it did: a supply role, a forced march's kind
            // (only infantry triples), the table rolled on
            if m.get("unit") == Some(&Value::Null) {
                for key in ["role", "march", "table"] {
                    m.remove(key);
                }
            }
        }
        m.insert("case".into(), Value::from(engine::GameEvent::case(e)));
        m.insert("text".into(), Value::from(l1813_event_text(g, e)));
    }
    v
}

// ---- queries -------------------------------------------------------------------------------

/// The hexes a unit can move to now, with their cost (`docs/api.md`, "moves"): nothing of a
/// unit the viewer may not examine.
pub fn l1813_moves(g: &Game, word: &str, viewer: Viewer) -> Result<Value, QueryError> {
    let u = unit_named(g, word)
        .filter(|&u| !(allies_hidden_from(g, viewer) && l1813_secret(g, u)))
        .ok_or_else(|| QueryError::NotFound(format!("no unit '{word}' in this game")))?;
    let unit = &g.units()[u];
    let dests: Vec<Value> = g
        .moves(u)
        .into_iter()
        .map(|(h, cost)| json!({"hex": h.to_string(), "cost": cost, "path": [h.to_string()]}))
        .collect();
    Ok(json!({
        "unit": g.label(u),
        "movement": unit.mp,
        "from": unit.on_map().then(|| unit.hex.to_string()),
        "destinations": dests,
        "why_not": Value::Null,
    }))
}

/// The charts (`GET /api/tables?system=leipzig-1813`): the Combat Results Table by column and
/// die, and the Terrain Effects Chart.
pub fn l1813_tables_view(t: &leipzig_1813::data::Tables) -> Value {
    let crt = &t.crt;
    let columns: Vec<String> = (0..crt.columns()).map(|c| crt.column_name(c)).collect();
    let rows: Vec<Value> = (1..=6u8)
        .map(|die| {
            json!({
                "die": die,
                "results": (0..crt.columns())
                    .map(|c| crt.result(c, die).map_or_else(String::new, |r| format!("{r}")))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "crt": {"columns": columns, "rows": rows, "case": "CRT"},
        "tec": {"rows": l1813_tec_rows(&t.terrain), "case": "TEC"},
    })
}

/// The Terrain Effects Chart as the board's hover card and charts drawer read it: a row per hex
/// kind and hexside feature of the map's legend (their ids), its movement and combat effects in
/// words, from the rules' own chart (`leipzig_1813::terrain::TerrainChart`).
fn l1813_tec_rows(t: &leipzig_1813::terrain::TerrainChart) -> Vec<Value> {
    use leipzig_1813::terrain::{HEXSIDE_KINDS, HEX_KINDS};
    let name = |k: &str| {
        let k = k.replace('-', " ");
        let mut c = k.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    };
    let mut rows = Vec::new();
    for k in HEX_KINDS {
        let Some(e) = t.hex(k) else { continue };
        let mut mv = vec![format!("{} MP to enter", e.mp)];
        if let Some(off) = e.mp_off_pass {
            mv.push(format!("{off} MP off the pass road"));
        }
        if !e.cavalry {
            mv.push("no cavalry".into());
        }
        if !e.supply {
            mv.push("no supply units".into());
        }
        let mut cb = vec![if e.defence > 1 {
            format!("defence ×{}", e.defence)
        } else {
            "no effect".into()
        }];
        if e.only_dx {
            cb.push("only Dx results count".into());
        }
        if e.supplied_divisions > 0 {
            cb.push(format!(
                "{} divisions supplied without a supply unit",
                e.supplied_divisions
            ));
        }
        rows.push(json!({"terrain": k, "kind": "hex", "name": name(k),
            "movement": mv.join("; "), "combat": cb.join("; "), "case": "TEC"}));
    }
    for k in HEXSIDE_KINDS {
        let Some(e) = t.hexside(k) else { continue };
        let mut mv = vec![if e.extra_mp > 0 {
            format!("+{} MP to cross", e.extra_mp)
        } else {
            "no extra cost".into()
        }];
        if !e.retreat {
            mv.push("no retreat across".into());
        }
        let mut cb = vec![if e.defence > 1 {
            format!("defence ×{} across it", e.defence)
        } else {
            "no effect".into()
        }];
        if e.min_percent > 0 {
            cb.push(format!("no attack across it below {}%", e.min_percent));
        }
        if !e.zoc {
            cb.push("no zone of control across it".into());
        }
        rows.push(json!({"terrain": k, "kind": "hexside", "name": name(k),
            "movement": mv.join("; "), "combat": cb.join("; "), "case": "TEC"}));
    }
    rows
}

// ---- text ----------------------------------------------------------------------------------

/// One line on the game's state: turn, step, who acts, the victory points.
pub fn l1813_headline(g: &Game) -> String {
    let vp = g.victory_points();
    format!(
        "Leipzig 1813, {}: turn {} ({}-{}), {} player-turn, {}; {} to act; victory points French {}, Allies {}",
        g.scenario().title,
        g.turn(),
        g.scenario().first_turn,
        g.scenario().last_turn,
        l1813_side_name(g, g.player()),
        l1813_step_text(g.step()),
        l1813_to_act_name(g),
        vp[0],
        vp[1]
    )
}

/// The state as text for the command line (everything: the CLI is a referee's view).
pub fn l1813_state_text(s: &Session<Game>) -> String {
    let g = &s.game;
    let mut out = String::new();
    let _ = writeln!(out, "{}", l1813_headline(g));
    if let ToAct::Over(o) = g.to_act() {
        let _ = writeln!(out, "Over: {} ({})", o.why, o.case);
    }
    for side in [FRENCH, ALLIES] {
        let _ = writeln!(out, "\n{}:", l1813_side_name(g, side));
        let mut by_hex: std::collections::BTreeMap<Hex, Vec<usize>> = Default::default();
        let mut waiting = 0;
        let mut lost = 0;
        for (u, unit) in g.units().iter().enumerate() {
            if unit.side != side {
                continue;
            }
            match unit.status {
                Status::OnMap => by_hex.entry(unit.hex).or_default().push(u),
                Status::Pending => waiting += 1,
                Status::Eliminated => lost += 1,
                Status::Gone => {}
            }
        }
        for (h, us) in by_hex {
            let list: Vec<String> = us
                .iter()
                .map(|&u| {
                    let unit = &g.units()[u];
                    let mut t = format!("{} {}", g.label(u), designation(g, unit));
                    if g.is_dispersed(unit) {
                        t.push_str(" dispersed");
                    }
                    if l1813_secret(g, u) {
                        t.push_str(" (hidden)");
                    }
                    t
                })
                .collect();
            let _ = writeln!(out, "  {}: {}", hex_words(&h.to_string()), list.join(", "));
        }
        if waiting > 0 {
            let _ = writeln!(out, "  waiting to be placed: {waiting}");
        }
        if lost > 0 {
            let _ = writeln!(out, "  eliminated: {lost}");
        }
    }
    let legal = l1813_legal(g);
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
pub fn l1813_text_query(s: &Session<Game>, arg: &str) -> Result<Value, QueryError> {
    match arg.trim() {
        "show" => Ok(Value::from(l1813_state_text(s))),
        "show --legal" => {
            let mut t = l1813_state_text(s);
            let g = &s.game;
            let legal = l1813_legal(g);
            if !legal.is_empty() {
                let _ = writeln!(t, "\nEvery legal action:");
                for a in legal {
                    let _ = writeln!(t, "  {}", g.action_text(a));
                }
            }
            Ok(Value::from(t))
        }
        "headline" => Ok(Value::from(l1813_headline(&s.game))),
        "show --json" => {
            let mut t = serde_json::to_string_pretty(&l1813_state_view(s, Viewer::Referee, true))
                .unwrap_or_default();
            t.push('\n');
            Ok(Value::from(t))
        }
        other => Err(QueryError::Unknown(format!("text {other}"))),
    }
}

// ---- preview -------------------------------------------------------------------------------

/// The printed strengths and the leaders (name, bonus) of `side` at `h` as the rules count
/// them in a combat (`Game::attacking_force`, `Game::defending_force`: Combat (B), (L),
/// Stacking (D) and L44, Leaders (C)).
fn force_at(g: &Game, side: u8, h: Hex, attacking: bool) -> (Vec<u32>, Vec<(String, u32)>) {
    let f = if attacking {
        g.attacking_force(side, h)
    } else {
        g.defending_force(side, h)
    };
    let leaders = f
        .leader_units
        .iter()
        .zip(&f.leaders)
        .map(|(&u, &bonus)| (leader_name(g, &g.units()[u]), bonus))
        .collect();
    (f.printed, leaders)
}

/// True when a supply unit or depot of `side` stands at or next to `h`, `allocated` only those
/// allocated to combat (Supply (C), Combat (I)).
fn supply_at_hand(g: &Game, side: u8, h: Hex, allocated: bool) -> bool {
    use leipzig_1813::game::supply_use;
    g.units().iter().any(|s| {
        s.on_map()
            && s.side == side
            && matches!(g.kind(s).arm, Arm::Supply | Arm::Depot)
            && !g.is_dispersed(s)
            && (s.hex == h || g.board().adjacent(s.hex, h))
            && (!allocated || s.supply_use & supply_use::ALLOCATED != 0)
    })
}

/// The odds of an attack from `from` on `to` (an attack declaration or an overrun), as the
/// rules' odds arithmetic computes them (`leipzig_1813::odds`): the attacking and defending
/// strengths with and without supply (Supply (A), Combat (I): halved unit by unit), the
/// terrain's multiplier of each defending hex (TEC, Fortress (B): tripled), the leaders'
/// bonuses added after supply and terrain (Leaders (B)), the percentage rounded down to its
/// column for the defender (Combat (F)) and the river's floor (TEC River hexside), with the
/// column's six results (only Dx results against a fortress, Fortress (D)). Units in a
/// fortress are supplied (Supply (D)). A defender the viewer may not examine
/// (Reconnaissance) leaves the defence unknown: only the attack is given.
pub fn l1813_attack_preview(g: &Game, from: Hex, to: Hex, viewer: Viewer) -> Value {
    let side = g
        .units_at(from)
        .first()
        .map_or(g.player(), |&u| g.units()[u].side);
    let enemy = 1 - side;
    let b = g.board();
    let targets = g.attack_targets(from, to);
    let (a_printed, a_leaders) = force_at(g, side, from, true);
    let a_bonus: Vec<u32> = a_leaders.iter().map(|l| l.1).collect();
    let a_fort = b.hex(from).fortress;
    let hidden = allies_hidden_from(g, viewer)
        && targets
            .iter()
            .any(|&t| g.units_at(t).iter().any(|&u| l1813_secret(g, u)));
    let crt = &g.tables().crt;
    let mut defenders = Vec::new();
    let mut min = 0u32;
    let mut fortress = false;
    for &t in &targets {
        let s = b.between(from, t).unwrap_or_default();
        min = min.max(u32::from(s.min_percent));
        fortress |= b.hex(t).fortress;
        let (printed, leaders) = force_at(g, enemy, t, false);
        defenders.push((t, s, printed, leaders));
    }
    let attack_of = |sup: bool| leipzig_1813::odds::attack_strength(&a_printed, sup, &a_bonus);
    let defence_of = |sup: bool| -> u32 {
        defenders
            .iter()
            .map(|(t, s, printed, leaders)| {
                let bonus: Vec<u32> = leaders.iter().map(|l| l.1).collect();
                let sup = sup || b.hex(*t).fortress;
                leipzig_1813::odds::defence_strength(printed, sup, u32::from(s.defence), &bonus)
            })
            .sum()
    };
    let a_cases: &[bool] = if a_fort { &[true] } else { &[true, false] };
    let d_cases: &[bool] = if targets.iter().all(|&t| b.hex(t).fortress) {
        &[true]
    } else {
        &[true, false]
    };
    let mut cases = Vec::new();
    for &a_sup in a_cases {
        let attack = attack_of(a_sup);
        for &d_sup in d_cases {
            if hidden {
                cases.push(
                    json!({"attacker_supplied": a_sup, "defender_supplied": d_sup,
                    "attack": attack, "defence": Value::Null}),
                );
                continue;
            }
            let defence = defence_of(d_sup);
            let v = match leipzig_1813::odds::odds(crt, attack, defence, min) {
                Ok(o) => {
                    let results: Vec<String> = (1..=6u8)
                        .map(|die| {
                            crt.result(o.column, die).map_or_else(String::new, |r| {
                                if fortress {
                                    r.against_fortress().to_string()
                                } else {
                                    r.to_string()
                                }
                            })
                        })
                        .collect();
                    json!({"attacker_supplied": a_sup, "defender_supplied": d_sup,
                        "attack": attack, "defence": defence, "percent": o.percent,
                        "column": crt.column_name(o.column), "results": results})
                }
                Err(e) => json!({"attacker_supplied": a_sup, "defender_supplied": d_sup,
                    "attack": attack, "defence": defence,
                    "percent": leipzig_1813::odds::percent(attack, defence),
                    "column": Value::Null, "refused": e.to_string()}),
            };
            cases.push(v);
        }
    }
    let leaders_json = |ls: &[(String, u32)]| -> Vec<Value> {
        ls.iter()
            .map(|(n, b)| json!({"name": n, "bonus": b}))
            .collect()
    };
    json!({
        "from": from.to_string(),
        "targets": targets.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "attacker": l1813_side_name(g, side),
        "attack_printed": a_printed,
        "attack_leaders": leaders_json(&a_leaders),
        "attacker_in_fortress": a_fort,
        "attacker_supply_at_hand": a_fort || supply_at_hand(g, side, from, false),
        "attacker_supply_allocated": a_fort || supply_at_hand(g, side, from, true),
        "hidden": hidden,
        "defenders": defenders.iter().map(|(t, s, printed, leaders)| json!({
            "hex": t.to_string(),
            "place": place_at(*t),
            "fortress": b.hex(*t).fortress,
            "multiplier": s.defence.max(1),
            "river": s.river,
            "printed": if hidden { Value::Null } else { json!(printed) },
            "leaders": if hidden { Value::Null } else { json!(leaders_json(leaders)) },
            "supply_at_hand": b.hex(*t).fortress || supply_at_hand(g, enemy, *t, false),
        })).collect::<Vec<_>>(),
        "min_percent": min,
        "fortress": fortress,
        "cases": cases,
        "case": "Combat (F)",
    })
}

/// What a break-down or a build-up would make, asked of the rules by applying it to a copy of
/// the game (Stacking (E)): the units it takes and the units it makes, with the movement
/// points they would have left.
fn l1813_regroup_preview(g: &Game, a: Action) -> Value {
    let parts: Vec<usize> = match a {
        Action::Split { unit, .. } => vec![usize::from(unit)],
        Action::Combine { hex, kind } => g.combine_parts(hex, kind).unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut copy = g.clone();
    let before = copy.units().len();
    copy.apply_unchecked(a);
    let made: Vec<Value> = (before..copy.units().len())
        .map(|u| {
            let unit = &copy.units()[u];
            json!({"id": copy.label(u), "name": copy.kind(unit).name,
                "designation": designation(&copy, unit), "mp": unit.mp})
        })
        .collect();
    let taken: Vec<Value> = parts
        .iter()
        .map(|&u| {
            let unit = &g.units()[u];
            json!({"id": g.label(u), "name": g.kind(unit).name,
                "designation": designation(g, unit), "mp": unit.mp})
        })
        .collect();
    json!({"taken": taken, "made": made, "case": "Stacking (E)"})
}

/// The `preview` query (`GET /api/games/{id}/preview?action=TEXT`): what a legal action of
/// the seat to act would make, without taking it. An attack or an overrun: its odds
/// ([`l1813_attack_preview`], as `odds`); a break-down or a build-up: the units it takes and
/// makes (as `regroup`); any other legal action: both null. A refused action is refused with
/// its case; a viewer who may not see the seat to act is told there is nothing to preview.
pub fn l1813_preview(s: &Session<Game>, text: &str, viewer: Viewer) -> Result<Value, QueryError> {
    let g = &s.game;
    let ToAct::Side(actor) = g.to_act() else {
        return Err(QueryError::Bad(
            "there is nothing to preview: no side is to act".to_string(),
        ));
    };
    if !g.visible(actor, viewer) {
        return Err(QueryError::Bad(
            "there is nothing to preview: the side to act is not yours to see".to_string(),
        ));
    }
    let a = g.parse_action(text).map_err(QueryError::Refused)?;
    g.check(a).map_err(QueryError::Refused)?;
    let (odds, regroup) = match a {
        Action::Attack { from, to } | Action::Overrun { from, to } => {
            (l1813_attack_preview(g, from, to, viewer), Value::Null)
        }
        Action::Split { .. } | Action::Combine { .. } => (Value::Null, l1813_regroup_preview(g, a)),
        _ => (Value::Null, Value::Null),
    };
    Ok(json!({"action": g.action_text(a), "odds": odds, "regroup": regroup}))
}

/// The presentation of Leipzig 1813 games for [`engine::dynamic::Hosted`].
#[derive(Clone, Copy, Debug, Default)]
pub struct L1813Presenter;

impl Presenter<Game> for L1813Presenter {
    fn view(&self, session: &Session<Game>, viewer: Viewer) -> Value {
        l1813_state_view(session, viewer, true)
    }

    fn view_without_legal(&self, session: &Session<Game>, viewer: Viewer) -> Value {
        let mut v = l1813_state_view(session, viewer, false);
        engine::dynamic::take_legal(&mut v);
        v
    }

    fn event(&self, game: &Game, event: &Event) -> Value {
        l1813_event(game, event)
    }

    fn legal_action(&self, game: &Game, a: Action) -> LegalAction {
        l1813_legal_action(game, a)
    }

    fn query(
        &self,
        session: &Session<Game>,
        name: &str,
        arg: &str,
        viewer: Viewer,
    ) -> Result<Value, QueryError> {
        match name {
            "moves" => l1813_moves(&session.game, arg.trim(), viewer),
            "text" => l1813_text_query(session, arg),
            "preview" => l1813_preview(session, arg.trim(), viewer),
            other => Err(QueryError::Unknown(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leipzig_1813::data::Tables;
    use leipzig_1813::scenario::Scenario;

    /// A spring game after the Allies' set-up (their first placements, then `end` when legal).
    fn spring() -> Session<Game> {
        let sc = Scenario::leipzig(1).expect("scenario 1");
        let g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        let mut s = Session::new(g, "leipzig1813-1", 1, 1);
        for _ in 0..500 {
            if s.game.to_act() != ToAct::Side(Side(ALLIES)) {
                break;
            }
            let legal = l1813_legal(&s.game);
            let a = legal
                .iter()
                .copied()
                .find(|&a| matches!(a, Action::Place { .. }))
                .unwrap_or(legal[0]);
            s.act(a).expect("a legal action");
        }
        s
    }

    #[test]
    fn reconnaissance_the_french_see_inverted_counters_and_events_name_none() {
        let s = spring();
        let g = &s.game;
        assert!(g.reconnaissance());
        let french = l1813_state_view(&s, Viewer::Seat(Side(FRENCH)), true);
        let inverted: Vec<&Value> = french["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["hidden"] == true)
            .collect();
        assert!(!inverted.is_empty());
        for u in &inverted {
            assert!(u.get("id").is_none() && u.get("strength").is_none(), "{u}");
            assert!(u["hex"].is_string(), "where it stands is seen: {u}");
        }
        assert_eq!(french["hidden"], "Allies");
        assert_eq!(
            french["units_count"],
            french["units"].as_array().unwrap().len()
        );
        // the Allies see their own, marked as hidden from the French
        let allies = l1813_state_view(&s, Viewer::Seat(Side(ALLIES)), true);
        assert!(allies["units"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["hidden_from"] == "French" && u["id"].is_string()));
        assert_eq!(allies["hidden"], Value::Null);
        // a placement's event names no hidden counter, in its facts or its sentence
        let placed = Event::Placed {
            unit: g.label(
                (0..g.units().len())
                    .find(|&u| l1813_secret(g, u) && g.units()[u].on_map())
                    .unwrap(),
            ),
            hex: "0101".into(),
        };
        let e = l1813_event(g, &placed);
        assert_eq!(e["unit"], Value::Null);
        assert_eq!(e["hidden"], 1);
        assert!(
            e["text"].as_str().unwrap().starts_with("an Allied unit"),
            "{e}"
        );
        let spent = Event::SupplySpent {
            unit: g.label((0..g.units().len()).find(|&u| l1813_secret(g, u)).unwrap()),
            role: "stacking".into(),
        };
        let e = l1813_event(g, &spent);
        assert!(e.get("role").is_none(), "{e}");
        assert_eq!(e["text"], "An Allied counter is spent");
    }

    #[test]
    fn the_seat_to_act_alone_sees_its_legal_actions() {
        let sc = Scenario::leipzig(1).expect("scenario 1");
        let g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        let s = Session::new(g, "leipzig1813-1", 1, 1);
        assert_eq!(s.game.to_act(), ToAct::Side(Side(ALLIES)));
        let french = l1813_state_view(&s, Viewer::Seat(Side(FRENCH)), true);
        assert_eq!(french["legal"], json!([]));
        let allies = l1813_state_view(&s, Viewer::Seat(Side(ALLIES)), true);
        assert!(!allies["legal"].as_array().unwrap().is_empty());
        let la = &allies["legal_actions"][0];
        assert_eq!(la["kind"], "place");
        assert!(la["unit"].is_string() && la["to"].is_string(), "{la}");
    }
    #[test]
    fn the_view_says_who_stands_aside_and_waits_for_no_retreat_route_at_the_start() {
        let sc = Scenario::leipzig(1).expect("scenario 1");
        let g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        let s = Session::new(g, "leipzig1813-1", 1, 1);
        let v = l1813_state_view(&s, Viewer::Seat(Side(ALLIES)), true);
        // no retreat waits for its owner's route (L45) before any combat
        assert_eq!(v["retreat_choice"], Value::Null);
        // every unit the seat may examine says whether it stands aside (L44)
        let units = v["units"].as_array().unwrap();
        assert!(units.iter().all(|u| u["aside"] == json!(false)), "{v}");
    }

    #[test]
    fn a_besieged_fortress_s_counters_are_marked_besieged() {
        // Fortress (F): a French division in Dresden, an Allied division on every hex around
        let sc = Scenario::leipzig(5).expect("scenario 5");
        let mut g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        g.stage_empty(25, FRENCH);
        let dresden: Hex = "2627".parse().unwrap();
        assert!(g.board().hex(dresden).fortress);
        let f = g.stage_unit(FRENCH, "infantry-division", dresden).unwrap();
        let around: Vec<Hex> = g.board().neighbours(dresden).map(|x| x.1).collect();
        for h in &around {
            g.stage_unit(ALLIES, "infantry-division", *h).unwrap();
        }
        assert!(g.besieged(dresden));
        let entry = l1813_unit_entry(&g, f);
        assert!(
            entry["markers"]
                .as_array()
                .unwrap()
                .contains(&json!("besieged")),
            "{entry}"
        );
        // the besiegers are not besieged
        let outside = (0..g.units().len()).find(|&u| u != f).unwrap();
        let e = l1813_unit_entry(&g, outside);
        assert!(!e["markers"]
            .as_array()
            .unwrap()
            .contains(&json!("besieged")));
    }

    #[test]
    fn the_terrain_chart_has_a_row_for_every_kind_of_the_maps_legend() {
        use leipzig_1813::terrain::{HEXSIDE_KINDS, HEX_KINDS};
        let t = Tables::leipzig();
        let v = l1813_tables_view(&t);
        let rows = v["tec"]["rows"].as_array().unwrap();
        for (kinds, kind) in [(&HEX_KINDS[..], "hex"), (&HEXSIDE_KINDS[..], "hexside")] {
            for k in kinds {
                let r = rows
                    .iter()
                    .find(|r| r["terrain"] == *k && r["kind"] == kind)
                    .unwrap_or_else(|| panic!("no row for {kind} {k}: {v}"));
                assert!(r["movement"].as_str().is_some_and(|m| !m.is_empty()));
                assert!(r["combat"].as_str().is_some_and(|m| !m.is_empty()));
            }
        }
        // a city-fortress triples the defence and lets only a Dx touch it (TEC, Fortress (A))
        let f = rows
            .iter()
            .find(|r| r["terrain"] == "city-fortress")
            .unwrap();
        let want = t.terrain.hex("city-fortress").unwrap();
        assert!(f["combat"]
            .as_str()
            .unwrap()
            .contains(&format!("defence ×{}", want.defence)));
        assert_eq!(
            want.only_dx,
            f["combat"].as_str().unwrap().contains("only Dx")
        );
    }

    /// A staged duel on open ground (every hex within two clear, no hexside feature): French
    /// units of `att` at `h`, Allied units of `def` next to it; the French movement phase of
    /// a summer turn.
    fn duel(att: &[&str], def: &[&str]) -> (Session<Game>, Hex, Hex) {
        let sc = Scenario::leipzig(5).expect("scenario 5");
        let mut g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        g.stage_empty(25, FRENCH);
        let b = g.board();
        let plain = |h: Hex| {
            let i = b.hex(h);
            b.contains(h)
                && i.kind == 0
                && !i.austria
                && i.city.is_none()
                && !i.fortress
                && b.neighbours(h).count() == 6
                && (0..6).all(|d| {
                    let s = b.side(h, d);
                    !s.river && s.defence <= 1
                })
        };
        let (h, n) = (0..b.len())
            .map(|i| b.hex_at(i))
            .find_map(|h| {
                let n = b.neighbours(h).map(|x| x.1).next()?;
                (plain(h) && plain(n) && b.neighbours(h).all(|(_, x)| plain(x))).then_some((h, n))
            })
            .expect("open ground");
        for k in att {
            g.stage_unit(FRENCH, k, h).expect("a kind");
        }
        for k in def {
            g.stage_unit(ALLIES, k, n).expect("a kind");
        }
        (Session::new(g, "leipzig1813-5", 1, 1), h, n)
    }

    #[test]
    fn the_attack_preview_gives_the_odds_the_rules_resolve() {
        // a corps and Napoleon against a corps: the rules' own odds, unsupplied both sides (no
        // supply unit anywhere), are the preview's case without supply
        let (mut s, h, n) = duel(&["infantry-corps"], &["infantry-corps"]);
        s.game.stage_leader(FRENCH, 1, h);
        s.act(Action::End).expect("the movement ends");
        assert_eq!(s.game.step(), Step::Attack);
        let text = format!("attack {h} {n}");
        // the legal action is a hex's attack on a hex, which the board offers with its odds
        let la = l1813_legal_action(&s.game, s.game.parse_action(&text).unwrap());
        assert_eq!(
            (
                la.kind.as_str(),
                la.from.as_deref(),
                la.to.as_deref(),
                la.target.as_deref()
            ),
            (
                "attack",
                Some(h.to_string().as_str()),
                Some(n.to_string().as_str()),
                None
            )
        );
        let v = l1813_preview(&s, &text, Viewer::Seat(Side(FRENCH))).expect("a preview");
        let o = &v["odds"];
        assert_eq!(o["targets"], json!([n.to_string()]));
        assert_eq!(o["attack_printed"], json!([5]));
        let napoleon = s
            .game
            .tables()
            .leader("French", 1)
            .expect("Napoleon")
            .offence;
        assert!(napoleon >= 5);
        assert_eq!(o["attack_leaders"][0]["bonus"], napoleon, "{o}");
        assert_eq!(o["attacker_supply_at_hand"], false);
        let case = |a: bool, d: bool| {
            o["cases"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["attacker_supplied"] == a && c["defender_supplied"] == d)
                .cloned()
                .expect("the case")
        };
        // supplied: 5 and Napoleon's bonus (at most the units' 5: Leaders (B)) = 10 against
        // 5; unsupplied: 2 and 2 = 4 against 2
        assert_eq!(
            (
                case(true, true)["attack"].clone(),
                case(true, true)["defence"].clone()
            ),
            (json!(10), json!(5))
        );
        assert_eq!(
            (
                case(false, false)["attack"].clone(),
                case(false, false)["defence"].clone()
            ),
            (json!(4), json!(2))
        );
        // nothing was applied
        assert_eq!(s.game.step(), Step::Attack);
        // the die: the rules' resolution has the preview's unsupplied numbers
        s.act(s.game.parse_action(&text).unwrap()).unwrap();
        for _ in 0..6 {
            if s.game.to_act() == ToAct::Chance {
                break;
            }
            s.act(Action::End).unwrap();
        }
        assert_eq!(s.game.to_act(), ToAct::Chance);
        s.act(Action::Roll(4)).unwrap();
        let fought = s
            .game
            .events()
            .iter()
            .find_map(|e| match e {
                Event::CombatResolved {
                    attack,
                    defence,
                    percent,
                    column,
                    ..
                } => Some((*attack, *defence, *percent, column.clone())),
                _ => None,
            })
            .expect("the combat was resolved");
        let c = case(false, false);
        assert_eq!(
            (
                json!(fought.0),
                json!(fought.1),
                json!(fought.2),
                json!(fought.3)
            ),
            (
                c["attack"].clone(),
                c["defence"].clone(),
                c["percent"].clone(),
                c["column"].clone()
            )
        );
    }

    #[test]
    fn the_preview_rounds_for_the_defender_and_previews_only_a_legal_action_a_viewer_may_see() {
        // 5 against 3 (an infantry corps against a cavalry corps): 166%, the 160%
        // column (Combat (F), the rulebook's 167% example)
        let (mut s, h, n) = duel(&["infantry-corps"], &["cavalry-corps"]);
        s.act(Action::End).unwrap();
        let v = l1813_preview(&s, &format!("attack {h} {n}"), Viewer::Referee).unwrap();
        let sup = v["odds"]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["attacker_supplied"] == true && c["defender_supplied"] == true)
            .cloned()
            .unwrap();
        assert_eq!(
            (sup["percent"].clone(), sup["column"].clone()),
            (json!(166), json!("160%"))
        );
        assert_eq!(sup["results"].as_array().unwrap().len(), 6);
        // a refused action is refused with its case; an action of a seat the viewer may not
        // see is not previewed
        assert!(matches!(
            l1813_preview(&s, &format!("attack {n} {h}"), Viewer::Referee),
            Err(QueryError::Refused(_))
        ));
        assert!(l1813_preview(&s, "end", Viewer::Seat(Side(FRENCH))).is_ok());
        let spring = spring();
        if let ToAct::Side(x) = spring.game.to_act() {
            if x.0 == ALLIES {
                assert!(l1813_preview(&spring, "end", Viewer::Seat(Side(FRENCH))).is_err());
            }
        }
    }

    #[test]
    fn the_regroup_preview_names_the_units_taken_and_made_with_their_movement_points() {
        let (s, h, _) = duel(
            &["infantry-division", "infantry-division"],
            &["cavalry-division"],
        );
        let g = &s.game;
        let combine = l1813_legal(g)
            .into_iter()
            .find(|a| matches!(a, Action::Combine { .. }))
            .expect("the divisions may build up");
        let v = l1813_preview(&s, &g.action_text(combine), Viewer::Seat(Side(FRENCH))).unwrap();
        let r = &v["regroup"];
        assert_eq!(r["taken"].as_array().unwrap().len(), 2, "{r}");
        assert_eq!(r["made"].as_array().unwrap().len(), 1, "{r}");
        assert_eq!(r["case"], "Stacking (E)");
        // the game is unchanged, and the preview's made unit is what the rules make
        let mut after = s.game.clone();
        after.apply(combine).unwrap();
        let made = after.units().len() - 1;
        assert_eq!(r["made"][0]["mp"], json!(after.units()[made].mp));
        assert_eq!(g.units_at(h).len(), 2);
    }

    #[test]
    fn the_preview_does_not_tell_the_french_an_inverted_defenders_strength() {
        // a spring turn (Reconnaissance in force): a French corps next to an Allied corps the
        // French have not examined
        let sc = Scenario::leipzig(1).expect("scenario 1");
        let mut g = Game::new(&sc, &Tables::leipzig()).expect("a game");
        g.stage_empty(3, FRENCH);
        let (h, n) = {
            let b = g.board();
            (0..b.len())
                .map(|i| b.hex_at(i))
                .find_map(|h| {
                    let i = b.hex(h);
                    if i.kind != 0 || i.austria || i.fortress || i.city.is_some() {
                        return None;
                    }
                    b.neighbours(h)
                        .find(|&(d, x)| {
                            let s = b.side(h, d);
                            let j = b.hex(x);
                            !s.river && j.kind == 0 && !j.austria && !j.fortress && j.city.is_none()
                        })
                        .map(|(_, x)| (h, x))
                })
                .expect("two clear hexes side by side")
        };
        g.stage_unit(FRENCH, "infantry-corps", h).unwrap();
        let a = g.stage_unit(ALLIES, "infantry-corps", n).unwrap();
        g.stage_unit_mut(a).revealed = 0;
        g.stage_step(Step::Attack);
        assert!(g.reconnaissance());
        assert!(l1813_secret(&g, a), "the Allied corps is inverted");
        let s = Session::new(g, "leipzig1813-1", 1, 1);
        let text = format!("attack {h} {n}");
        let french = l1813_preview(&s, &text, Viewer::Seat(Side(FRENCH))).expect("a preview");
        assert_eq!(french["odds"]["hidden"], true, "{french}");
        assert!(french["odds"]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["defence"].is_null() && c.get("column").is_none()));
        assert!(french["odds"]["defenders"][0]["printed"].is_null());
        let referee = l1813_preview(&s, &text, Viewer::Referee).unwrap();
        assert_eq!(referee["odds"]["hidden"], false);
        assert_eq!(referee["odds"]["defenders"][0]["printed"], json!([5]));
    }
}
