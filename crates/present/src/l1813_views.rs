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
        | Action::Supply { unit } => {
            la.unit = unit_label(g, unit);
            la.from = unit_hex(g, unit);
        }
        Action::Combine { hex, .. } => {
            la.from = Some(hex.to_string());
        }
        Action::Overrun { from, to } | Action::Attack { from, to } => {
            la.from = Some(from.to_string());
            la.target = Some(to.to_string());
        }
        Action::End | Action::Roll(_) => {}
        #[allow(unreachable_patterns)]
        _ => {}
    }
    la
}

/// The state view `viewer` may see (`docs/api.md`, "The state view", with the system's own
/// members `victory`, `fortresses`, `battles`, `special`, `units_count` and `hidden`). Legal
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
        "overlays": {},
        "setup_events": s.start().events().iter().map(|e| l1813_event(s.start(), e)).collect::<Vec<_>>(),
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
        #[allow(unreachable_patterns)]
        _ => format!("{e:?}"),
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
    })
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
}
