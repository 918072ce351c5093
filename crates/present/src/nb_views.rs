//! The views of a Napoleonic Battles game (`napoleonic-battles`, the activation system on the
//! Battle of Nations components): the state view (units in stacks with facing, strength points
//! and disorder, leaders, the initiative, the formations and their losses, the activation in
//! progress, the leaders' command ranges as `overlays`), typed event facts with a sentence each,
//! structured legal actions, a unit's moves, the `preview` of a melee before its die (strengths,
//! base column, every shift with its rule, the final column and each result's chance), the text
//! of the command line, and [`NbPresenter`], the presentation the `systems` registry hosts the
//! system with.
//!
//! Everything here is read from the rules' public queries (`napoleonic_battles::Game` and its
//! `Supplement`): this module decides nothing a rule decides.

use engine::dynamic::{LegalAction, Presenter, QueryError};
use engine::{Rules, Session, Side, ToAct, Viewer};
use hexmap::Hex;
use napoleonic_battles::data::Rank;
use napoleonic_battles::melee::{Column as MeleeColumn, MeleeResult};
use napoleonic_battles::{Action, Bonus, Disorder, Event, Game, LeaderId, LeaderLoc, Loc, Step};
use naw::UnitId;
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// The system's id, as scenario lists, records and the board name it.
pub const NB_SYSTEM: &str = "napoleonic-battles";

/// The name of a side.
pub fn nb_side_name(g: &Game, s: Side) -> &str {
    g.scenario()
        .sides
        .get(usize::from(s.0))
        .map_or("?", |x| x.as_str())
}

/// Who acts, as the state view names it: a side's name, `chance` or `over`.
pub fn nb_to_act_name(g: &Game) -> String {
    match g.to_act() {
        ToAct::Side(x) => nb_side_name(g, x).to_string(),
        ToAct::Chance => "chance".into(),
        ToAct::Over(_) => "over".into(),
    }
}

/// The step's short name (`choose`, `movement`, `melee`, ...).
pub fn nb_step_name(step: Step) -> &'static str {
    match step {
        Step::InitiativeRoll => "initiative_roll",
        Step::Choose => "choose",
        Step::PassRoll => "pass_roll",
        Step::Designate => "designate",
        Step::ActivationRoll => "activation_roll",
        Step::WriteOrder => "write_order",
        Step::Movement => "movement",
        Step::Reaction => "reaction",
        Step::Melee => "melee",
        Step::Evade => "evade",
        Step::ToHit => "to_hit",
        Step::MoraleDie => "morale_die",
        Step::Losses => "losses",
        Step::Retreat => "retreat",
        Step::Advance => "advance",
        Step::Rally => "rally",
        Step::Recovery => "recovery",
        Step::Place => "place",
        Step::Over => "over",
    }
}

/// The phase of the game-turn a step belongs to (NB Sequence of Play): `initiative`,
/// `action`, `victory` or `over`.
pub fn nb_phase_name(step: Step) -> &'static str {
    match step {
        Step::InitiativeRoll => "initiative",
        Step::Recovery | Step::Place => "victory",
        Step::Over => "over",
        _ => "action",
    }
}

/// A step in words, for the command line.
pub fn nb_step_text(step: Step) -> &'static str {
    match step {
        Step::InitiativeRoll => "initiative phase: the dice for the initiative",
        Step::Choose => "action phase: choosing an activation or passing",
        Step::PassRoll => "action phase: the die after a pass",
        Step::Designate => "action phase: designating the activation",
        Step::ActivationRoll => "action phase: the initiative roll of the activation",
        Step::WriteOrder => "action phase: the failed officer may write an order",
        Step::Movement => "impulse: movement",
        Step::Reaction => "impulse: reaction face changes",
        Step::Melee => "impulse: melee",
        Step::Evade => "impulse: defending cavalry evades or stands",
        Step::ToHit => "impulse: the melee's to-hit die",
        Step::MoraleDie => "impulse: the melee's morale die",
        Step::Losses => "impulse: allocating melee losses",
        Step::Retreat => "impulse: a retreat",
        Step::Advance => "impulse: advance after melee",
        Step::Rally => "impulse: rally",
        Step::Recovery => "victory phase: night recovery",
        Step::Place => "victory phase: night recovery, placing a unit back from elimination",
        Step::Over => "the game is over",
    }
}

fn hex_text(h: Hex) -> String {
    h.to_string()
}

fn leader_loc(g: &Game, l: LeaderId) -> (&'static str, Option<Hex>) {
    match g.leader_loc(l) {
        LeaderLoc::Map(h) => ("map", Some(h)),
        LeaderLoc::Waiting => ("waiting", None),
        LeaderLoc::Casualty => ("eliminated", None),
        LeaderLoc::Absent => ("absent", None),
    }
}

/// The leaders a scenario has (those not absent from it), in the supplement's order.
pub fn nb_leaders(g: &Game) -> Vec<LeaderId> {
    (0..g.supplement().leaders.len())
        .map(|i| LeaderId(i as u8))
        .filter(|&l| g.leader_loc(l) != LeaderLoc::Absent)
        .collect()
}

/// A leader's short name for a counter: his surname (`Napoleon`, `Schwarzenberg`).
fn leader_short(name: &str) -> String {
    name.split_whitespace()
        .last()
        .unwrap_or(name)
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

fn disorder_name(d: Disorder) -> &'static str {
    match d {
        Disorder::Good => "good",
        Disorder::Disordered => "disordered",
        Disorder::ThisImpulse => "disordered_this_impulse",
    }
}

fn bonus_name(b: Bonus) -> Option<&'static str> {
    match b {
        Bonus::None => None,
        Bonus::Plus2 => Some("+2"),
        Bonus::Auto => Some("auto"),
    }
}

/// The entry of one unit: the generic counter's fields (`id`, `side`, `nation`,
/// `designation`, `type`, `strength` = SP left, `movement`, `status`, `hex`, `facing` 0-5 in
/// the order E, NE, NW, W, SW, SE, `markers`) and the system's own (`sp`, `full`,
/// `disorder`, `morale`, `formation`, `acted`, `spent`, `active`, `arrival`).
pub fn nb_unit_entry(g: &Game, u: UnitId) -> Value {
    let sc = g.scenario();
    let d = sc.unit(u);
    let v = g.unit(u);
    let (status, hex) = match v.loc {
        Loc::Map(h) => ("map", Some(h)),
        Loc::Waiting => ("waiting", None),
        Loc::Eliminated => ("eliminated", None),
    };
    let mut markers = Vec::new();
    match v.disorder {
        Disorder::Good => {}
        Disorder::Disordered => markers.push("disordered"),
        Disorder::ThisImpulse => markers.push("disordered"),
    }
    if v.spent {
        markers.push("spent");
    } else if v.active {
        markers.push("active");
    } else if v.acted && status == "map" {
        markers.push("acted");
    }
    let sup = g.supplement();
    let f = sup.formation_of(sc, u);
    let arrival = match d.start {
        naw::scenario::Start::Arrives(a) if status == "waiting" => {
            json!({"turn": a.turn, "hex": hex_text(a.hex)})
        }
        _ => Value::Null,
    };
    json!({
        "id": d.id,
        "side": nb_side_name(g, d.side),
        "nation": sc.nations.get(usize::from(d.nation)).map_or("", |n| n.id.as_str()),
        "designation": d.designation,
        "type": d.kind.name(),
        "strength": v.sp,
        "full": d.strength,
        "sp": v.sp,
        "movement": d.movement,
        "status": status,
        "hex": hex.map(hex_text),
        "facing": if status == "map" { Value::from(g.facing(u) as u8) } else { Value::Null },
        "markers": markers,
        "disorder": disorder_name(v.disorder),
        "morale": g.morale(u),
        "formation": sup.formations.get(f).map(|x| x.name.clone()),
        "acted": v.acted,
        "spent": v.spent,
        "active": v.active,
        "moved": false,
        "in_combat": false,
        "arrival": arrival,
    })
}

/// The entry of one leader, as a round counter of the generic board (`type` `leader`): his
/// id, side, nation, surname, place, and his ratings (`rank` `army` or `corps`, `command`,
/// `initiative`, `range`), the formations he commands, whether he has acted or is Spent this
/// turn, his initiative bonus, written order, march order and command points spent (NB Action
/// phase).
pub fn nb_leader_entry(g: &Game, l: LeaderId) -> Value {
    let sup = g.supplement();
    let d = &sup.leaders[usize::from(l.0)];
    let (status, hex) = leader_loc(g, l);
    let side = g.leader_side(l).map(|s| nb_side_name(g, s).to_string());
    let (bonus, order) = g.officer_order(l);
    let state = g.leader(l);
    let mut markers: Vec<String> = Vec::new();
    if state.as_ref().is_some_and(|x| x.spent) {
        markers.push("spent".into());
    } else if state.as_ref().is_some_and(|x| x.acted) {
        markers.push("acted".into());
    }
    if let Some(b) = bonus_name(bonus) {
        markers.push(b.to_string());
    }
    if order.is_some() {
        markers.push("order".into());
    }
    if state.as_ref().is_some_and(|x| x.march.is_some()) {
        markers.push("march".into());
    }
    let formations: Vec<String> = d
        .formations
        .iter()
        .filter_map(|&f| sup.formations.get(f).map(|x| x.name.clone()))
        .collect();
    json!({
        "id": d.id,
        "side": side,
        "nation": d.nation,
        "designation": leader_short(&d.name),
        "name": d.name,
        "type": "leader",
        "strength": 0,
        "movement": d.movement,
        "status": status,
        "hex": hex.map(hex_text),
        "facing": Value::Null,
        "markers": markers,
        "rank": match d.rank { Rank::Army => "army", Rank::Corps => "corps" },
        "command": d.command,
        "initiative": d.initiative,
        "range": d.range,
        "formations": formations,
        "bonus": bonus_name(bonus),
        "order": order.map(hex_text),
        "march": state.as_ref().and_then(|x| x.march).map(|(turn, to)| json!({"turn": turn, "to": hex_text(to)})),
        "acted": state.as_ref().is_some_and(|x| x.acted),
        "spent": state.as_ref().is_some_and(|x| x.spent),
        "moved": state.as_ref().is_some_and(|x| x.moved),
        "command_points_used": state.as_ref().map_or(0, |x| x.command_points_used),
    })
}

/// Every unit's entry, then every leader's (those the scenario has), in a fixed order.
pub fn nb_units(g: &Game) -> Vec<Value> {
    g.unit_ids()
        .map(|u| nb_unit_entry(g, u))
        .chain(nb_leaders(g).into_iter().map(|l| nb_leader_entry(g, l)))
        .collect()
}

/// The formations of the scenario (those with units in it): name, army, side, officer, SP
/// lost against the loss limit, demoralized (NB Formation demoralization), how many of its
/// units are on the map, have acted and are Spent this turn, whether its officer has acted or
/// is Spent (`officer_acted`, `officer_spent`), and `ready` when its officer may still try to
/// activate it (NB Action phase).
pub fn nb_formations(g: &Game) -> Vec<Value> {
    let sc = g.scenario();
    let sup = g.supplement();
    let ready: Vec<LeaderId> = (0..sc.sides.len())
        .flat_map(|s| g.ready_officers(Side(s as u8)))
        .collect();
    sup.formations_in(sc)
        .into_iter()
        .map(|f| {
            let def = &sup.formations[f];
            let units: Vec<UnitId> = g
                .unit_ids()
                .filter(|&u| sup.formation_of(sc, u) == f)
                .collect();
            let on_map: Vec<UnitId> = units
                .iter()
                .copied()
                .filter(|&u| matches!(g.loc(u), Loc::Map(_)))
                .collect();
            let count = |p: &dyn Fn(UnitId) -> bool| on_map.iter().filter(|&&u| p(u)).count();
            let officer = sup.officer_of(f);
            let officer_state = officer.and_then(|o| g.leader(LeaderId(o as u8)));
            let side = sup
                .army_side(sc, def.army)
                .map(|s| nb_side_name(g, s).to_string());
            json!({
                "index": f,
                "name": def.name,
                "corps": def.corps,
                "army": sup.armies.get(def.army).map(|a| a.name.clone()),
                "side": side,
                "officer": officer.map(|o| sup.leaders[o].id.clone()),
                "lost": g.formation_lost(f),
                "loss_limit": def.loss_limit,
                "demoralized": g.formation_demoralized(f),
                "units": units.len(),
                "on_map": on_map.len(),
                "acted": count(&|u| g.unit(u).acted),
                "spent": count(&|u| g.unit(u).spent),
                "active": count(&|u| g.unit(u).active),
                "ready": officer.is_some_and(|o| ready.contains(&LeaderId(o as u8))),
                "officer_spent": officer_state.as_ref().is_some_and(|x| x.spent),
                "officer_acted": officer_state.as_ref().is_some_and(|x| x.acted),
            })
        })
        .collect()
}

/// The armies of the scenario: name, side, their formations' SP lost against the army's loss
/// limit and disintegration level in this scenario (NB Formation demoralization).
pub fn nb_armies(g: &Game) -> Vec<Value> {
    let sc = g.scenario();
    let sup = g.supplement();
    let formations = sup.formations_in(sc);
    (0..sup.armies.len())
        .filter(|&a| formations.iter().any(|&f| sup.formations[f].army == a))
        .map(|a| {
            let lost: u32 = formations
                .iter()
                .filter(|&&f| sup.formations[f].army == a)
                .map(|&f| u32::from(g.formation_lost(f)))
                .sum();
            json!({
                "name": sup.armies[a].name,
                "side": sup.army_side(sc, a).map(|s| nb_side_name(g, s).to_string()),
                "lost": lost,
                "loss_limit": sup.army_loss_limit(sc, a),
                "disintegration": sup.army_disintegration(sc, a),
            })
        })
        .collect()
}

/// The initiative: who has it this turn, who acts now, each side's initiative bonus (its
/// overall commander's command rating when he is on the map) and victory points.
pub fn nb_initiative(g: &Game) -> Value {
    let sides = &g.scenario().sides;
    let mut bonus = Map::new();
    let mut points = Map::new();
    let p = g.points();
    for (i, s) in sides.iter().enumerate() {
        bonus.insert(s.clone(), Value::from(g.initiative_bonus(Side(i as u8))));
        points.insert(s.clone(), Value::from(p.get(i).copied().unwrap_or(0)));
    }
    json!({
        "side": nb_side_name(g, g.initiative()),
        "acting": nb_side_name(g, g.acting()),
        "bonus": bonus,
        "points": points,
    })
}

/// The activation of the current impulse: its side, how it was made, the commander spending
/// command points, the officers, the lead unit of a unit activation, its units and the
/// destination an order binds it to (`null` when none is under way).
pub fn nb_activation(g: &Game) -> Value {
    let Some(a) = g.activation() else {
        return Value::Null;
    };
    json!({
        "side": nb_side_name(g, a.side),
        "how": a.how,
        "commander": a.commander.map(|l| lname(g, l)),
        "officers": a.officers.iter().map(|&l| lname(g, l)).collect::<Vec<_>>(),
        "lead": a.lead.map(|u| uname(g, u)),
        "units": a.units.iter().map(|&u| uname(g, u)).collect::<Vec<_>>(),
        "order": a.order.map(hex_text),
    })
}

/// The melee in progress: its two hexes, the units on each side, the column, the SP of loss
/// and the hexes of retreat each side still owes, and the side retreating now (`null` when
/// no melee is under way).
pub fn nb_melee(g: &Game) -> Value {
    let Some(m) = g.melee() else {
        return Value::Null;
    };
    json!({
        "from": hex_text(m.from),
        "to": hex_text(m.to),
        "attackers": m.attackers.iter().map(|&u| uname(g, u)).collect::<Vec<_>>(),
        "defenders": m.defenders.iter().map(|&u| uname(g, u)).collect::<Vec<_>>(),
        "column": m.column,
        "loss": {"attacker": m.loss[0], "defender": m.loss[1]},
        "retreat": {"attacker": m.retreat[0], "defender": m.retreat[1]},
        "retreating": m.retreating.map(|(side, hex)| json!({"side": nb_side_name(g, side), "hex": hex_text(hex)})),
    })
}

/// The unit back from elimination its owner is to place now (NB Recovery; NB78): the unit,
/// its side, its formation's officer and his hex, and the hexes it may be placed in (those of
/// the legal `place` actions, nearest the officer first); `null` in every other step.
pub fn nb_placing(g: &Game) -> Value {
    let Some(u) = g.unit_to_place() else {
        return Value::Null;
    };
    let sc = g.scenario();
    let sup = g.supplement();
    let officer = sup
        .officer_of(sup.formation_of(sc, u))
        .map(|o| LeaderId(o as u8));
    json!({
        "unit": uname(g, u),
        "side": nb_side_name(g, sc.unit(u).side),
        "officer": officer.map(|l| lname(g, l)),
        "officer_hex": officer.and_then(|l| leader_loc(g, l).1).map(hex_text),
        "radius": napoleonic_battles::RECOVERY_RADIUS,
        "hexes": g.placement_hexes(u).into_iter().map(hex_text).collect::<Vec<_>>(),
    })
}

/// How the game ended, once it has.
pub fn nb_outcome(g: &Game) -> Value {
    match g.outcome() {
        Some(o) => json!({
            "winner": o.winner.map(|w| nb_side_name(g, w).to_string()),
            "case": o.case,
            "why": o.why,
        }),
        None => Value::Null,
    }
}

/// The legal actions of the side to act (or the outcomes at a chance event).
pub fn nb_legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// A legal action as structured data for the board: a unit's or leader's one-hex move is a
/// `move` of that `unit` `to` the hex (the board's moves); a retreat names the first unit of
/// the retreating stack and the hex, an advance its unit and the won hex; a face change names
/// its hex (`from`) and the hexside (`target`); a melee its two hexes; a loss its unit; the
/// rest their verb.
pub fn nb_legal_action(g: &Game, a: Action) -> LegalAction {
    let text = g.action_text(a);
    let mut la = LegalAction {
        kind: text.split_whitespace().next().unwrap_or("").to_string(),
        text,
        ..LegalAction::default()
    };
    let hex_of = |u: UnitId| match g.loc(u) {
        Loc::Map(h) => Some(hex_text(h)),
        _ => None,
    };
    match a {
        Action::Move { unit, to } => {
            la.unit = Some(g.unit_name(unit).to_string());
            la.from = hex_of(unit);
            la.to = Some(hex_text(to));
        }
        Action::Lead { leader, to } => {
            la.kind = "move".into();
            la.unit = Some(g.leader_name(leader).to_string());
            la.from = match g.leader_loc(leader) {
                LeaderLoc::Map(h) => Some(hex_text(h)),
                _ => None,
            };
            la.to = Some(hex_text(to));
        }
        Action::Face { hex, dir } | Action::React { hex, dir } => {
            la.from = Some(hex_text(hex));
            la.target = Some(dir.name().to_string());
        }
        Action::Hold { hex } => {
            // not the board's `hold` (decline an advance): a declined reaction
            la.kind = "hold-reaction".into();
            la.from = Some(hex_text(hex));
        }
        Action::Melee { from, to } => {
            la.from = Some(hex_text(from));
            la.to = Some(hex_text(to));
        }
        Action::Unit { lead } | Action::Include { unit: lead } | Action::Exclude { unit: lead } => {
            la.unit = Some(g.unit_name(lead).to_string());
            la.from = hex_of(lead);
        }
        Action::Lose { unit } => {
            la.unit = Some(g.unit_name(unit).to_string());
            la.from = hex_of(unit);
        }
        Action::Advance { unit } => {
            // into the hex the melee won (the board's advance: a unit and a hex)
            la.unit = Some(g.unit_name(unit).to_string());
            la.from = hex_of(unit);
            la.to = g.melee().map(|m| hex_text(m.to));
        }
        Action::Retreat { to } => {
            // the retreating stack steps as one: the board moves it by its first unit
            if let Some((_, from)) = g.melee().and_then(|m| m.retreating) {
                la.unit = g.units_at(from).first().map(|&u| uname(g, u));
                la.from = Some(hex_text(from));
            }
            la.to = Some(hex_text(to));
        }
        Action::Initiative { officer } | Action::SetAside { officer } => {
            la.unit = Some(g.leader_name(officer).to_string());
        }
        Action::Command { commander, officer } | Action::Lend { commander, officer } => {
            la.unit = Some(g.leader_name(commander).to_string());
            la.target = Some(g.leader_name(officer).to_string());
        }
        Action::Order { officer, to } => {
            la.unit = Some(g.leader_name(officer).to_string());
            la.to = Some(hex_text(to));
        }
        Action::March {
            commander,
            officer,
            to,
        } => {
            la.unit = Some(g.leader_name(commander).to_string());
            la.target = Some(g.leader_name(officer).to_string());
            la.to = Some(hex_text(to));
        }
        Action::Place { unit, to } => {
            // the board's move of a unit into a hex, from no hex: it comes back from the
            // eliminated units (NB Recovery)
            la.kind = "move".into();
            la.unit = Some(g.unit_name(unit).to_string());
            la.to = Some(hex_text(to));
        }
        Action::Roll(_)
        | Action::Pass
        | Action::Go
        | Action::NoOrder
        | Action::End
        | Action::Evade
        | Action::Stand => {}
    }
    la
}

/// The state view of a session (`docs/api.md`, "The state view", with the system's own
/// members `initiative`, `formations`, `armies`, `activation`, `melee`, `placing`). Legal
/// actions are listed only when `with_legal`.
pub fn nb_state_view(s: &Session<Game>, with_legal: bool) -> Value {
    let g = &s.game;
    let sc = g.scenario();
    let legal = if with_legal { nb_legal(g) } else { Vec::new() };
    let legal_actions: Vec<LegalAction> = legal.iter().map(|&a| nb_legal_action(g, a)).collect();
    json!({
        "system": NB_SYSTEM,
        "scenario": s.record.scenario,
        "title": sc.title,
        "turn": g.turn(),
        "first_turn": sc.first_turn,
        "last_turn": sc.last_turn,
        "night_turns": sc.night_turns,
        "night": sc.is_night(g.turn()),
        "phasing": nb_side_name(g, g.acting()),
        "phase": nb_phase_name(g.step()),
        "step": nb_step_name(g.step()),
        "to_act": nb_to_act_name(g),
        "actions_recorded": s.record.actions.len(),
        "undoable": g.undoable().min(s.record.actions.len()),
        "state_hash": engine::hash_text(g.state_hash()),
        "initiative": nb_initiative(g),
        "activation": nb_activation(g),
        "melee": nb_melee(g),
        "placing": nb_placing(g),
        "formations": nb_formations(g),
        "armies": nb_armies(g),
        "units": nb_units(g),
        "demoralization": [],
        "combats": [],
        "obligations": [],
        "outcome": nb_outcome(g),
        "legal": legal.iter().map(|&a| g.action_text(a)).collect::<Vec<_>>(),
        "legal_actions": legal_actions,
        "overlays": nb_overlays(g),
        "setup_events": s.start().events().iter().map(|e| nb_event(s.start(), e)).collect::<Vec<_>>(),
    })
}

/// What the rules compute for the board to draw (`overlays`): `range`, by leader id, the hexes
/// within each leader's command range on the map (`Game::command_range`: the distance by
/// which a commander reaches an officer and an officer his formation's units, NB Action
/// phase), which the board shades when the leader is selected or pointed at; and, while a
/// recovered unit waits to be placed, by its id the hexes it may be placed in (NB Recovery).
pub fn nb_overlays(g: &Game) -> Value {
    let mut range = Map::new();
    // the unit to place: the hexes it may be placed in, shaded when it is selected
    if let Some(u) = g.unit_to_place() {
        range.insert(
            uname(g, u),
            Value::from(
                g.placement_hexes(u)
                    .into_iter()
                    .map(hex_text)
                    .collect::<Vec<_>>(),
            ),
        );
    }
    for l in nb_leaders(g) {
        let hexes = g.command_range(l);
        if !hexes.is_empty() {
            range.insert(
                lname(g, l),
                Value::from(hexes.into_iter().map(hex_text).collect::<Vec<_>>()),
            );
        }
    }
    json!({ "range": range })
}

/// A melee table result in words, for a player: `the attacker loses 1 SP; the defender loses
/// 2 SP, retreats 1 hex and checks morale`.
pub fn nb_result_words(r: &MeleeResult) -> String {
    fn side(who: &str, loss: u8, retreat: u8, morale: bool, leader: bool) -> String {
        let mut parts = Vec::new();
        parts.push(if loss == 0 {
            "loses nothing".to_string()
        } else {
            format!("loses {loss} SP")
        });
        if retreat > 0 {
            parts.push(format!(
                "retreats {retreat} hex{}",
                if retreat == 1 { "" } else { "es" }
            ));
        }
        if morale {
            parts.push("checks morale".into());
        }
        if leader {
            parts.push("may lose a leader".into());
        }
        let last = parts.pop().unwrap_or_default();
        if parts.is_empty() {
            format!("the {who} {last}")
        } else {
            format!("the {who} {} and {last}", parts.join(", "))
        }
    }
    format!(
        "{}; {}",
        side(
            "attacker",
            r.attacker_loss,
            r.attacker_retreat,
            r.attacker_morale_check,
            r.attacker_leader_loss
        ),
        side(
            "defender",
            r.defender_loss,
            r.defender_retreat,
            r.defender_morale_check,
            r.defender_leader_loss
        )
    )
}

/// The odds of a melee from `from` into `to` before its die (NB Melee phase procedures), from
/// the rules' own assessment (`Game::melee_odds`, `melee::assess`): both strengths, the
/// percentage rounded down in the defender's favour, the base column, every column shift with
/// the rule that gives it and why, the final column, and the chance of each result on it
/// (each roll with its weight, from the melee table's data), with the chances of a retreat,
/// a morale check and a leader loss for each side and the expected SP losses.
pub fn nb_melee_preview(g: &Game, from: Hex, to: Hex) -> Result<Value, QueryError> {
    let odds = g.melee_odds(from, to).map_err(QueryError::Refused)?;
    let t = &g.supplement().melee;
    let acting = g.acting();
    let attackers: Vec<String> = g
        .units_at(from)
        .into_iter()
        .filter(|&u| g.unit(u).active && g.scenario().unit(u).side == acting)
        .map(|u| uname(g, u))
        .collect();
    let defenders: Vec<String> = g.units_at(to).into_iter().map(|u| uname(g, u)).collect();
    let shifts: Vec<Value> = odds
        .shifts
        .iter()
        .map(|sh| json!({"by": sh.by, "rule": sh.rule, "why": sh.why}))
        .collect();
    let column = match odds.column {
        MeleeColumn::Table(c) => Some(c),
        MeleeColumn::Off => None,
    };
    let weights = t.roll_weights();
    let total: u32 = weights.iter().map(|w| w.1).sum();
    let results: Vec<Value> = match column {
        Some(c) => weights
            .iter()
            .map(|&(roll, w)| {
                let r = t.result(c, roll);
                json!({
                    "roll": roll,
                    "weight": w,
                    "chance": f64::from(w) / f64::from(total),
                    "result": r.to_string(),
                    "text": nb_result_words(r),
                })
            })
            .collect(),
        None => Vec::new(),
    };
    let chances = column.map(|c| {
        let (a, d) = t.expected_losses(c);
        json!({
            "defender_retreats": t.chance(c, |r| r.defender_retreat > 0),
            "attacker_retreats": t.chance(c, |r| r.attacker_retreat > 0),
            "defender_morale_check": t.chance(c, |r| r.defender_morale_check),
            "attacker_morale_check": t.chance(c, |r| r.attacker_morale_check),
            "defender_leader_loss": t.chance(c, |r| r.defender_leader_loss),
            "attacker_leader_loss": t.chance(c, |r| r.attacker_leader_loss),
            "expected_loss": {"attacker": a, "defender": d},
        })
    });
    Ok(json!({
        "from": hex_text(from),
        "to": hex_text(to),
        "attackers": attackers,
        "defenders": defenders,
        "attack": half_text(odds.attack_halves),
        "defence": half_text(odds.defence_halves),
        "percent": odds.percent,
        "base": odds.base.map(|b| t.column_name(b)),
        "shifts": shifts,
        "column": column.map(|c| t.column_name(c)),
        "dice": t.dice(),
        "results": results,
        "chances": chances,
        "explain": odds.explain(t),
        "case": "NB Melee phase procedures",
    }))
}

/// The `preview` query (`GET /api/games/{id}/preview?action=TEXT`): what a legal action of
/// the side to act would do, without taking it. A `melee` is shown with its odds before the
/// die ([`nb_melee_preview`]: strengths, base column, every shift with its rule, the final
/// column and the chance of each result); any other legal action with `melee: null`. A
/// refused action is refused with its case; nothing is applied and no die is rolled.
pub fn nb_preview(s: &Session<Game>, text: &str) -> Result<Value, QueryError> {
    let g = &s.game;
    if matches!(g.to_act(), ToAct::Chance | ToAct::Over(_)) {
        return Err(QueryError::Bad(
            "there is nothing to preview: no side is to act".to_string(),
        ));
    }
    let a = g.parse_action(text).map_err(QueryError::Refused)?;
    g.check(a).map_err(QueryError::Refused)?;
    let melee = match a {
        Action::Melee { from, to } => nb_melee_preview(g, from, to)?,
        _ => Value::Null,
    };
    Ok(json!({"action": g.action_text(a), "melee": melee}))
}

fn uname(g: &Game, u: UnitId) -> String {
    g.unit_name(u).to_string()
}

fn lname(g: &Game, l: LeaderId) -> String {
    g.leader_name(l).to_string()
}

fn list(g: &Game, us: &[UnitId]) -> String {
    us.iter()
        .map(|&u| g.unit_name(u))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An event's sentence.
pub fn nb_event_text(g: &Game, e: &Event) -> String {
    let side = |s: &Side| nb_side_name(g, *s).to_string();
    match e {
        Event::TurnBegan { turn, night } => {
            format!(
                "Game-turn {turn} begins{}",
                if *night { " (night)" } else { "" }
            )
        }
        Event::InitiativeRolled {
            side: s,
            roll,
            bonus,
        } => format!(
            "{} rolls {roll} for the initiative, +{bonus} for the overall commander: {}",
            side(s),
            u16::from(*roll) + u16::from(*bonus)
        ),
        Event::Initiative { side: s, why } => {
            format!("{} has the initiative this turn ({why})", side(s))
        }
        Event::Arrived { unit, hex } => format!("{} arrives at {hex}", uname(g, *unit)),
        Event::Delayed { unit } => format!(
            "{} cannot arrive: its entry hex is held by the enemy",
            uname(g, *unit)
        ),
        Event::LeaderArrived { leader, hex } => {
            format!("{} arrives at {hex}", lname(g, *leader))
        }
        Event::Passed { side: s } => format!("{} passes", side(s)),
        Event::PassRoll { die, ended } => {
            if *ended {
                format!("The die after the pass shows {die}: the action phase ends")
            } else {
                format!("The die after the pass shows {die}: the action phase goes on")
            }
        }
        Event::ActionPhaseEnded => "The action phase ends".into(),
        Event::Activated {
            side: s,
            how,
            officers,
            units,
        } => {
            let how = match how {
                napoleonic_battles::ActivationKind::Command => "by command",
                napoleonic_battles::ActivationKind::Officer => "on its officer's initiative",
                napoleonic_battles::ActivationKind::Unit => "by unit initiative",
                napoleonic_battles::ActivationKind::MarchOrder => "by march order",
            };
            let who = if officers.is_empty() {
                String::new()
            } else {
                format!(
                    " under {}",
                    officers
                        .iter()
                        .map(|&o| g.leader_name(o))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            format!(
                "{} activates {} unit{}{who} {how}: {}",
                side(s),
                units.len(),
                if units.len() == 1 { "" } else { "s" },
                list(g, units)
            )
        }
        Event::InitiativeAttempt { die, need, success } => {
            if *die == 0 {
                "The activation succeeds automatically".into()
            } else {
                format!(
                    "Initiative roll {die} against {need} or less: {}",
                    if *success { "success" } else { "failure" }
                )
            }
        }
        Event::Spent { units } => format!("Spent for the turn: {}", list(g, units)),
        Event::OrderWritten { officer, to } => {
            format!(
                "{} writes an order: his formation marches to {to}",
                lname(g, *officer)
            )
        }
        Event::MarchOrderSent {
            officer,
            to,
            arrives,
        } => format!(
            "A march order to {to} is sent to {}; it arrives on turn {arrives}",
            lname(g, *officer)
        ),
        Event::RatingLent {
            commander,
            officer,
            rating,
        } => format!(
            "{} lends his rating of {rating} to {} for this turn",
            lname(g, *commander),
            lname(g, *officer)
        ),
        Event::OrderSetAside { officer } => {
            format!("{} sets his order aside", lname(g, *officer))
        }
        Event::Moved {
            unit,
            from,
            to,
            cost_half,
        } => format!(
            "{} moves {from} to {to} ({} MP)",
            uname(g, *unit),
            half_text(u32::from(*cost_half))
        ),
        Event::Halted { unit, hex } => {
            format!("{} halts in {hex}, in an enemy's front", uname(g, *unit))
        }
        Event::Faced { hex, dir } => format!("The units in {hex} face {dir}"),
        Event::Reacted { hex, dir } => format!("The units in {hex} turn to face {dir} in reaction"),
        Event::LeaderMoved { leader, from, to } => {
            format!("{} rides {from} to {to}", lname(g, *leader))
        }
        Event::LeaderDisplaced { leader, to } => {
            format!("{} is displaced to {to}", lname(g, *leader))
        }
        Event::MeleeDeclared {
            from,
            to,
            attack_halves,
            defence_halves,
            column,
            shifts,
        } => {
            let mut t = format!(
                "Melee from {from} into {to}: {} against {}, column {column}",
                half_text(*attack_halves),
                half_text(*defence_halves)
            );
            if !shifts.is_empty() {
                let _ = write!(t, " ({})", shifts.join("; "));
            }
            t
        }
        Event::Evaded { hex } => format!("The cavalry in {hex} retreats before the melee"),
        Event::MeleeResolved { roll, result } => format!("To-hit roll {roll}: {result}"),
        Event::MoraleCheck {
            hex,
            morale,
            die,
            passed,
        } => format!(
            "Morale check in {hex}: {die} against {morale}: {}",
            if *passed { "passed" } else { "failed" }
        ),
        Event::Disordered { unit } => format!("{} is disordered", uname(g, *unit)),
        Event::Lost { unit, left } => format!("{} loses 1 SP ({left} left)", uname(g, *unit)),
        Event::Eliminated { unit } => format!("{} is eliminated", uname(g, *unit)),
        Event::Retreated { from, to } => format!("The stack in {from} retreats to {to}"),
        Event::NoRetreat { hex } => {
            format!("The stack in {hex} cannot retreat: one more SP lost, and disorder")
        }
        Event::Advanced { unit, to } => format!("{} advances into {to}", uname(g, *unit)),
        Event::LeaderCasualty { leader } => format!("{} has fallen", lname(g, *leader)),
        Event::Rally {
            unit,
            die,
            need,
            rallied,
        } => format!(
            "{} rolls {die} to rally (needs {need} or less): {}",
            uname(g, *unit),
            if *rallied {
                "rallied"
            } else {
                "still disordered"
            }
        ),
        Event::Recovery {
            unit,
            die,
            recovered,
        } => format!(
            "{} rolls {die} in the night: {}",
            uname(g, *unit),
            if *recovered {
                "recovers 1 SP"
            } else {
                "no recovery"
            }
        ),
        Event::Placed { unit, hex } => format!(
            "{} is back from elimination: its owner places it in {hex} with 1 SP",
            uname(g, *unit)
        ),
        Event::FormationDemoralized { name, .. } => {
            format!("{name} is demoralized from next turn")
        }
        Event::ArmyDemoralized { army } => format!(
            "The {} is demoralized from next turn",
            g.supplement()
                .armies
                .get(*army)
                .map_or("army", |a| a.name.as_str())
        ),
        Event::GameOver { winner, points } => {
            let p = format!("victory points {}-{}", points[0], points[1]);
            match winner {
                Some(w) => format!("The game is over: {} wins ({p})", side(w)),
                None => format!("The game is over: a draw ({p})"),
            }
        }
    }
}

/// A number of half points as text (`5`, `5.5`).
fn half_text(h: u32) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// An event as JSON: `case`, `kind`, `text` and its facts, units and leaders by their ids,
/// sides by their names.
pub fn nb_event(g: &Game, e: &Event) -> Value {
    use engine::GameEvent;
    let mut facts = match serde_json::to_value(e) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let unit = |v: &Value| -> Value {
        v.as_u64()
            .map_or(Value::Null, |i| Value::from(uname(g, UnitId(i as u8))))
    };
    let leader = |v: &Value| -> Value {
        v.as_u64()
            .map_or(Value::Null, |i| Value::from(lname(g, LeaderId(i as u8))))
    };
    let side = |v: &Value| -> Value {
        v.as_u64().map_or(Value::Null, |i| {
            Value::from(nb_side_name(g, Side(i as u8)).to_string())
        })
    };
    for (k, v) in facts.iter_mut() {
        *v = match k.as_str() {
            "unit" => unit(v),
            "units" => Value::Array(
                v.as_array()
                    .map_or(Vec::new(), |a| a.iter().map(unit).collect()),
            ),
            "leader" | "officer" | "commander" => leader(v),
            "officers" => Value::Array(
                v.as_array()
                    .map_or(Vec::new(), |a| a.iter().map(leader).collect()),
            ),
            "side" | "winner" => side(v),
            _ => continue,
        };
    }
    facts.insert("case".into(), Value::from(e.case()));
    facts.insert("text".into(), Value::from(nb_event_text(g, e)));
    if !facts.contains_key("kind") {
        facts.insert("kind".into(), Value::from("event"));
    }
    Value::Object(facts)
}

/// The unit or leader a word names (its id, case-insensitive).
fn piece_named(g: &Game, word: &str) -> Option<Result<UnitId, LeaderId>> {
    if let Some(u) = g.scenario().unit_by_id(word) {
        return Some(Ok(u));
    }
    g.leader_by_id(word).map(Err)
}

/// A unit's (or leader's) legal one-hex moves now, as the board's moves: each adjacent hex it
/// may enter with the movement points it costs (`cost`, from the rules' `step_check`), and why
/// it may not move when it has none.
pub fn nb_moves(g: &Game, word: &str) -> Result<Value, QueryError> {
    let piece = piece_named(g, word)
        .ok_or_else(|| QueryError::NotFound(format!("no unit or leader '{word}'")))?;
    let legal = nb_legal(g);
    let mut dests = Vec::new();
    let from = match piece {
        Ok(u) => match g.loc(u) {
            Loc::Map(h) => Some(h),
            _ => None,
        },
        Err(l) => match g.leader_loc(l) {
            LeaderLoc::Map(h) => Some(h),
            _ => None,
        },
    };
    for a in &legal {
        let to = match (*a, piece) {
            (Action::Move { unit, to }, Ok(u)) if unit == u => to,
            (Action::Lead { leader, to }, Err(l)) if leader == l => to,
            _ => continue,
        };
        let cost = match piece {
            Ok(u) => g.step_check(u, to).map_or(0.0, |h| f64::from(h) / 2.0),
            Err(_) => 1.0,
        };
        dests.push(json!({"hex": hex_text(to), "cost": cost, "path": [hex_text(to)]}));
    }
    let why_not = if dests.is_empty() {
        Some(json!({
            "case": "NB Movement",
            "why": match g.step() {
                Step::Movement => "it may not move now: it is not in the activation, or has no movement left, or no hex around it may be entered",
                _ => "units move only in the movement step of their activation",
            },
        }))
    } else {
        None
    };
    Ok(json!({
        "unit": word,
        "from": from.map(hex_text),
        "destinations": dests,
        "why_not": why_not,
    }))
}

/// One line saying where the game stands.
pub fn nb_headline(g: &Game) -> String {
    let turn = g.turn();
    let night = if g.scenario().is_night(turn) {
        " (night)"
    } else {
        ""
    };
    match g.to_act() {
        ToAct::Over(o) => format!(
            "Game over on turn {turn}: {} ({}: {})",
            o.winner.map_or("a draw".to_string(), |w| format!(
                "{} wins",
                nb_side_name(g, w)
            )),
            o.case,
            o.why
        ),
        to_act => format!(
            "Turn {turn}{night}, {} has the initiative; {}; {} to act",
            nb_side_name(g, g.initiative()),
            nb_step_text(g.step()),
            match to_act {
                ToAct::Side(s) => nb_side_name(g, s).to_string(),
                _ => "a die is".to_string(),
            }
        ),
    }
}

/// The state as text, for the command line's `show`.
pub fn nb_state_text(s: &Session<Game>) -> String {
    let g = &s.game;
    let sc = g.scenario();
    let mut out = String::new();
    let _ = writeln!(out, "{} [{}]", sc.title, s.record.scenario);
    let _ = writeln!(out, "{}", nb_headline(g));
    let p = g.points();
    let _ = writeln!(
        out,
        "Victory points: {}",
        sc.sides
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{n} {}", p.get(i).copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(out, "\nFormations (SP lost / loss limit):");
    for f in nb_formations(g) {
        let _ = writeln!(
            out,
            "  {:<8} {:<34} {:>3}/{:<3} {}{}{}",
            f["side"].as_str().unwrap_or("?"),
            f["name"].as_str().unwrap_or("?"),
            f["lost"],
            f["loss_limit"],
            if f["demoralized"] == true {
                " demoralized"
            } else {
                ""
            },
            if f["spent"].as_u64().unwrap_or(0) > 0 {
                format!(" spent {}", f["spent"])
            } else {
                String::new()
            },
            if f["ready"] == true { " ready" } else { "" },
        );
    }
    let _ = writeln!(
        out,
        "\nOn the map (hex: units with SP, facing, disorder; leaders):"
    );
    let mut hexes: Vec<Hex> = g
        .unit_ids()
        .filter_map(|u| match g.loc(u) {
            Loc::Map(h) => Some(h),
            _ => None,
        })
        .chain(
            nb_leaders(g)
                .into_iter()
                .filter_map(|l| match g.leader_loc(l) {
                    LeaderLoc::Map(h) => Some(h),
                    _ => None,
                }),
        )
        .collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        let units: Vec<String> = g
            .units_at(h)
            .into_iter()
            .map(|u| {
                let v = g.unit(u);
                let mut t = format!("{} {}SP {}", g.unit_name(u), v.sp, v.facing);
                if v.disorder != Disorder::Good {
                    t.push_str(" disordered");
                }
                if v.spent {
                    t.push_str(" spent");
                } else if v.active {
                    t.push_str(" active");
                }
                t
            })
            .collect();
        let leaders: Vec<&str> = g
            .leaders_at(h)
            .into_iter()
            .map(|l| g.leader_name(l))
            .collect();
        let _ = writeln!(
            out,
            "  {h}: {}{}",
            units.join(", "),
            if leaders.is_empty() {
                String::new()
            } else {
                format!(" [{}]", leaders.join(", "))
            }
        );
    }
    let placing = nb_placing(g);
    if !placing.is_null() {
        let _ = writeln!(
            out,
            "\nBack from elimination, to be placed by {} within {} hexes of {} in {}: {} (place {} HEX)",
            placing["side"].as_str().unwrap_or("?"),
            placing["radius"],
            placing["officer"].as_str().unwrap_or("?"),
            placing["officer_hex"].as_str().unwrap_or("?"),
            placing["unit"].as_str().unwrap_or("?"),
            placing["unit"].as_str().unwrap_or("?"),
        );
    }
    let legal = nb_legal(g);
    if matches!(g.to_act(), ToAct::Side(_)) {
        let _ = writeln!(out, "\nLegal actions ({}):", legal.len());
        let texts: Vec<String> = legal.iter().map(|a| g.action_text(*a)).collect();
        out.push_str(&legal_summary(&texts, 40, 4));
    }
    out
}

/// The legal actions as lines: every one when there are at most `all` of them, else grouped by
/// their verb (in the order the verbs first come), each verb with its count and its first
/// `each` actions, so a position with hundreds of march orders still shows every kind of action.
fn legal_summary(texts: &[String], all: usize, each: usize) -> String {
    let mut out = String::new();
    if texts.len() <= all {
        for t in texts {
            let _ = writeln!(out, "  {t}");
        }
        return out;
    }
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for t in texts {
        let verb = t.split_whitespace().next().unwrap_or("");
        match groups.iter_mut().find(|(v, _)| *v == verb) {
            Some((_, g)) => g.push(t),
            None => groups.push((verb, vec![t])),
        }
    }
    for (verb, g) in &groups {
        if g.len() <= each + 1 {
            let _ = writeln!(out, "  {}", g.join(", "));
        } else {
            let _ = writeln!(
                out,
                "  {}, ... and {} more {verb} actions",
                g[..each].join(", "),
                g.len() - each
            );
        }
    }
    let _ = writeln!(out, "  (every one of them: show --json)");
    out
}

/// The `text` query of the command line: `show`, `show --json`, `headline`.
pub fn nb_text_query(s: &Session<Game>, arg: &str) -> Result<Value, QueryError> {
    match arg.trim() {
        "show" => Ok(Value::from(nb_state_text(s))),
        "headline" => Ok(Value::from(nb_headline(&s.game))),
        "show --json" => {
            let mut t = serde_json::to_string_pretty(&nb_state_view(s, true)).unwrap_or_default();
            t.push('\n');
            Ok(Value::from(t))
        }
        other => Err(QueryError::Unknown(format!("text {other}"))),
    }
}

/// The presentation of Napoleonic Battles games for [`engine::dynamic::Hosted`].
#[derive(Clone, Copy, Debug, Default)]
pub struct NbPresenter;

impl Presenter<Game> for NbPresenter {
    fn view(&self, session: &Session<Game>, _viewer: Viewer) -> Value {
        // the system hides nothing: every viewer sees the whole board
        nb_state_view(session, true)
    }

    fn view_without_legal(&self, session: &Session<Game>, _viewer: Viewer) -> Value {
        let mut v = nb_state_view(session, false);
        engine::dynamic::take_legal(&mut v);
        v
    }

    fn event(&self, game: &Game, event: &Event) -> Value {
        nb_event(game, event)
    }

    fn legal_action(&self, game: &Game, a: Action) -> LegalAction {
        nb_legal_action(game, a)
    }

    fn query(
        &self,
        session: &Session<Game>,
        name: &str,
        arg: &str,
        _viewer: Viewer,
    ) -> Result<Value, QueryError> {
        match name {
            "moves" => nb_moves(&session.game, arg.trim()),
            "preview" => nb_preview(session, arg.trim()),
            "text" => nb_text_query(session, arg),
            other => Err(QueryError::Unknown(other.to_string())),
        }
    }
}

/// What a terrain class means to this system, in a few words (from the supplement's data).
fn class_text(c: &napoleonic_battles::data::TerrainClass) -> String {
    let mut v = Vec::new();
    if c.obstructed {
        v.push("obstructed: stacking limits halved");
    }
    if c.village {
        v.push("village");
    }
    if c.fortified {
        v.push("fortified");
    }
    if c.swamp {
        v.push("swamp");
    }
    if v.is_empty() {
        "open ground".to_string()
    } else {
        v.join("; ")
    }
}

/// The system's charts as the board's `tables` (`GET /api/tables?system=napoleonic-battles`):
/// the melee table (`crt`: its columns, one row per to-hit roll, each cell in the notation of
/// `data/bon.toml`, `attacker/defender` losses with `r` retreats, `m` morale checks and `L`
/// leader losses), and the terrain chart (`tec`): each terrain's and hexside's movement cost,
/// the original game's (Napoleon at War's chart, which this system moves by), and what it is
/// to this system (its terrain class in the supplement).
pub fn nb_tables_view(sup: &napoleonic_battles::Supplement) -> Value {
    let t = &sup.melee;
    let columns: Vec<String> = (0..t.columns()).map(|c| t.column_name(c)).collect();
    let rows: Vec<Value> = (t.lowest_roll()..=t.highest_roll())
        .map(|roll| {
            json!({
                "die": roll,
                "results": (0..t.columns()).map(|c| t.result(c, roll).to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let naw = crate::tables_view();
    let tec: Vec<Value> = naw
        .tec
        .rows
        .iter()
        .map(|r| {
            let class = if r.kind == "hex" {
                sup.terrain(r.terrain)
            } else {
                sup.feature(r.terrain)
            };
            json!({
                "terrain": r.terrain,
                "kind": r.kind,
                "name": r.name,
                // the original game's costs, but this system's own where it differs (NB73)
                "movement": if r.kind == "hex" {
                    sup.movement_text(r.terrain).unwrap_or_else(|| r.movement.clone())
                } else {
                    r.movement.clone()
                },
                "combat": class_text(&class),
                "case": "NB Leipzig Terrain Effects",
            })
        })
        .collect();
    json!({
        "crt": {
            "columns": columns,
            "rows": rows,
            "results": [
                {"code": "a/d", "name": "SP lost by the attacker / by the defender", "case": "NB Steps and losses"},
                {"code": "rN", "name": "retreat N hexes", "case": "NB Combat results tables"},
                {"code": "m", "name": "a morale check: disordered if it fails", "case": "NB Morale and disorder rules"},
                {"code": "L", "name": "the highest-ranking leader in the hex may fall", "case": "NB Combat results tables"},
            ],
            "case": "NB Combat results tables",
        },
        "tec": {
            "rows": tec,
            "note": "movement costs are the original game's; melee shifts for terrain are given with each melee's odds",
            "case": "NB Leipzig Terrain Effects",
        },
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn many_legal_actions_are_summarised_by_verb() {
        let mut texts: Vec<String> = vec!["pass".into(), "command A B".into(), "lend A B".into()];
        texts.extend((0..50).map(|i| format!("march A B {i:04}")));
        let s = super::legal_summary(&texts, 40, 4);
        assert!(s.contains("  pass\n"), "{s}");
        assert!(s.contains("command A B"), "{s}");
        assert!(
            s.contains("march A B 0000, march A B 0001, march A B 0002, march A B 0003, ... and 46 more march actions"),
            "{s}"
        );
        assert!(s.lines().count() < 10, "{s}");
        let few: Vec<String> = texts[..3].to_vec();
        assert_eq!(
            super::legal_summary(&few, 40, 4),
            "  pass\n  command A B\n  lend A B\n"
        );
    }

    use super::*;
    use napoleonic_battles::data::Supplement;

    fn session(id: &str, seed: u64) -> Session<Game> {
        let sc = scenarios::load(id).unwrap();
        let digest = sc.digest;
        Session::new(Game::new(sc, Supplement::bon()), id, digest, seed)
    }

    fn unit<'a>(v: &'a Value, id: &str) -> &'a Value {
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == id)
            .unwrap_or_else(|| panic!("no unit {id}"))
    }

    /// Plays uniformly random legal actions (dice from the record) until `stop` holds.
    fn play_until(s: &mut Session<Game>, seed: u64, stop: impl Fn(&Game) -> bool) {
        let mut rng = engine::Dice::new(seed);
        for _ in 0..20_000 {
            if stop(&s.game) {
                return;
            }
            match s.game.to_act() {
                ToAct::Chance => {
                    s.roll().unwrap();
                }
                ToAct::Side(_) => {
                    let legal = nb_legal(&s.game);
                    let i = rng.draw(&vec![1; legal.len()]).unwrap();
                    let text = s.game.action_text(legal[i]);
                    s.act_text(&text).unwrap();
                }
                ToAct::Over(_) => panic!("the game ended first"),
            }
        }
        panic!("never reached");
    }

    #[test]
    fn the_charts_are_the_supplements() {
        let sup = Supplement::bon();
        let v = nb_tables_view(&sup);
        let t = &sup.melee;
        assert_eq!(v["crt"]["columns"].as_array().unwrap().len(), t.columns());
        let rows = v["crt"]["rows"].as_array().unwrap();
        assert_eq!(
            rows.len(),
            usize::from(t.highest_roll() - t.lowest_roll() + 1)
        );
        assert_eq!(rows[0]["die"], t.lowest_roll());
        assert_eq!(
            rows[0]["results"][0],
            t.result(0, t.lowest_roll()).to_string()
        );
        let tec = v["tec"]["rows"].as_array().unwrap();
        let forest = tec
            .iter()
            .find(|r| r["terrain"] == "forest")
            .expect("forest");
        assert_eq!(forest["kind"], "hex");
        assert_eq!(
            forest["combat"].as_str().unwrap().contains("obstructed"),
            sup.terrain("forest").obstructed
        );
        let clear = tec.iter().find(|r| r["terrain"] == "clear").expect("clear");
        assert_eq!(clear["combat"], "open ground");
        // NB73: the marsh row gives this system's movement, not the original game's (9.0)
        let marsh = tec.iter().find(|r| r["terrain"] == "marsh").expect("marsh");
        assert_eq!(
            marsh["movement"].as_str(),
            sup.movement_text("marsh").as_deref()
        );
        assert!(!marsh["movement"].as_str().unwrap().contains("9.0"));
    }

    #[test]
    fn the_first_state_of_the_first_day() {
        let s = session("bon-first-day", 1);
        let g = &s.game;
        let v = nb_state_view(&s, true);
        assert_eq!(v["system"], NB_SYSTEM);
        assert_eq!(v["turn"], 1);
        assert_eq!(v["phase"], "action");
        assert_eq!(v["step"], "choose");
        // NB Napoleon At Leipzig: the Allies have the initiative on the first turn
        assert_eq!(v["to_act"], "Allied");
        assert_eq!(v["initiative"]["side"], "Allied");
        assert_eq!(v["initiative"]["points"]["French"], 0);
        assert_eq!(v["activation"], Value::Null);
        assert_eq!(v["melee"], Value::Null);
        assert_eq!(v["outcome"], Value::Null);
        assert_eq!(v["state_hash"], engine::hash_text(g.state_hash()).as_str());
        // every unit of the scenario, then its leaders
        let units = v["units"].as_array().unwrap();
        let sc = g.scenario();
        assert_eq!(units.len(), sc.units.len() + nb_leaders(g).len());
        for (i, d) in sc.units.iter().enumerate() {
            let u = &units[i];
            assert_eq!(u["id"], d.id.as_str());
            assert_eq!(u["full"], d.strength);
            assert_eq!(u["strength"], d.strength, "no SP lost yet");
            if u["status"] == "map" {
                let f = u["facing"].as_u64().expect("a facing");
                assert_eq!(f, g.facing(UnitId(i as u8)) as u64);
                assert!(f < 6);
            } else {
                assert_eq!(u["facing"], Value::Null);
            }
            assert_eq!(u["disorder"], "good");
        }
        // leaders are round counters: Napoleon arrives with Murat on turn 2
        let nap = unit(&v, "FR.Napoleon");
        assert_eq!(nap["type"], "leader");
        assert_eq!(nap["status"], "waiting");
        assert_eq!(nap["rank"], "army");
        assert_eq!(nap["side"], "French");
        let schw = units
            .iter()
            .find(|u| u["type"] == "leader" && u["status"] == "map" && u["side"] == "Allied")
            .expect("an Allied leader on the map");
        assert!(schw["hex"].is_string());
        assert!(schw["command"].is_u64() && schw["initiative"].is_u64());
        // the formations with their loss limits, from the supplement
        let sup = g.supplement();
        let fs = v["formations"].as_array().unwrap();
        assert_eq!(fs.len(), sup.formations_in(sc).len());
        for f in fs {
            let def = &sup.formations[f["index"].as_u64().unwrap() as usize];
            assert_eq!(f["loss_limit"], def.loss_limit);
            assert_eq!(f["lost"], 0);
            assert_eq!(f["demoralized"], false);
            assert_eq!(f["spent"], 0);
        }
        // the set-up's events: the turn, the initiative, the arrivals
        let setup = v["setup_events"].as_array().unwrap();
        assert_eq!(setup[0]["kind"], "turn_began");
        let init = setup.iter().find(|e| e["kind"] == "initiative").unwrap();
        assert_eq!(init["side"], "Allied");
        assert_eq!(init["case"], "NB Sequence of Play");
        assert!(init["text"]
            .as_str()
            .unwrap()
            .contains("Allied has the initiative"));
        // the legal actions, as texts and structured
        let legal = v["legal"].as_array().unwrap();
        let la = v["legal_actions"].as_array().unwrap();
        assert_eq!(legal.len(), la.len());
        assert!(legal.iter().any(|a| a == "pass"));
        let unit_act = la
            .iter()
            .find(|a| a["kind"] == "unit")
            .expect("unit initiative");
        assert!(unit_act["unit"].is_string() && unit_act["from"].is_string());
        let march = la.iter().find(|a| a["kind"] == "march");
        if let Some(m) = march {
            assert!(m["unit"].is_string() && m["target"].is_string() && m["to"].is_string());
        }
        // without legal actions
        let bare = nb_state_view(&s, false);
        assert_eq!(bare["legal"], json!([]));
    }

    #[test]
    fn an_activation_its_moves_and_their_events() {
        let mut s = session("bon-first-day", 5);
        play_until(&mut s, 9, |g| {
            g.step() == Step::Movement
                && nb_legal(g).iter().any(|a| matches!(a, Action::Move { .. }))
        });
        let g = &s.game;
        let v = nb_state_view(&s, true);
        assert_eq!(v["step"], "movement");
        let act = &v["activation"];
        let side = act["side"].as_str().unwrap();
        assert_eq!(v["to_act"], side);
        let active: Vec<&str> = act["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap())
            .collect();
        assert!(!active.is_empty());
        for id in &active {
            let u = unit(&v, id);
            assert_eq!(u["active"], true);
            assert!(u["markers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m == "active"));
        }
        // a move, structured: the unit, its hex and the hex it enters
        let m = nb_legal(g)
            .into_iter()
            .find_map(|a| match a {
                Action::Move { unit, to } => Some((unit, to)),
                _ => None,
            })
            .unwrap();
        let la = nb_legal_action(g, Action::Move { unit: m.0, to: m.1 });
        assert_eq!(la.kind, "move");
        assert_eq!(la.unit.as_deref(), Some(g.unit_name(m.0)));
        assert_eq!(la.to, Some(m.1.to_string()));
        let from = match g.loc(m.0) {
            Loc::Map(h) => h,
            _ => panic!("on the map"),
        };
        assert_eq!(la.from, Some(from.to_string()));
        // the moves query lists the same hexes, with the cost the rules charge
        let q = nb_moves(g, g.unit_name(m.0)).unwrap();
        let dests: Vec<&str> = q["destinations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["hex"].as_str().unwrap())
            .collect();
        let legal_to: Vec<String> = nb_legal(g)
            .into_iter()
            .filter_map(|a| match a {
                Action::Move { unit, to } if unit == m.0 => Some(to.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(dests, legal_to);
        let cost = q["destinations"][0]["cost"].as_f64().unwrap();
        let to0: Hex = dests[0].parse().unwrap();
        assert_eq!(cost, f64::from(g.step_check(m.0, to0).unwrap()) / 2.0);
        assert!(q["why_not"].is_null());
        assert!(nb_moves(g, "nobody").is_err());
        // the move's event: unit by id, hexes as XXYY, its case and a sentence
        let text = g.action_text(Action::Move { unit: m.0, to: m.1 });
        s.act_text(&text).unwrap();
        let g = &s.game;
        let e = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::Moved { .. }))
            .expect("a Moved event");
        let j = nb_event(g, e);
        assert_eq!(j["kind"], "moved");
        assert_eq!(j["case"], "NB Movement");
        assert_eq!(j["unit"], g.unit_name(m.0));
        assert_eq!(j["from"], from.to_string());
        assert_eq!(j["to"], m.1.to_string());
        assert!(j["text"].as_str().unwrap().contains(&m.1.to_string()));
        let v = nb_state_view(&s, false);
        assert_eq!(unit(&v, g.unit_name(m.0))["hex"], m.1.to_string());
    }

    #[test]
    fn losses_spent_formations_and_the_end_are_shown_as_the_rules_keep_them() {
        let mut s = session("bon-first-day", 2);
        // to the first loss of an SP
        play_until(&mut s, 3, |g| {
            g.unit_ids()
                .any(|u| g.sp(u) < g.scenario().unit(u).strength)
        });
        let g = &s.game;
        let v = nb_state_view(&s, false);
        for u in g.unit_ids() {
            let e = unit(&v, g.unit_name(u));
            assert_eq!(e["sp"], g.sp(u));
            assert_eq!(e["strength"], g.sp(u));
            assert_eq!(e["spent"], g.unit(u).spent);
            let disordered = g.disorder(u) != Disorder::Good;
            assert_eq!(
                e["markers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m == "disordered"),
                disordered
            );
        }
        let sup = g.supplement();
        for f in v["formations"].as_array().unwrap() {
            let i = f["index"].as_u64().unwrap() as usize;
            assert_eq!(f["lost"], g.formation_lost(i));
            let spent = g
                .unit_ids()
                .filter(|&u| {
                    sup.formation_of(g.scenario(), u) == i
                        && matches!(g.loc(u), Loc::Map(_))
                        && g.unit(u).spent
                })
                .count();
            assert_eq!(f["spent"], spent);
        }
        // to the end: the outcome and the headline say who won
        play_until(&mut s, 4, |g| g.outcome().is_some());
        let v = nb_state_view(&s, true);
        assert_eq!(v["to_act"], "over");
        assert_eq!(v["step"], "over");
        assert_eq!(v["legal"], json!([]));
        let o = &v["outcome"];
        assert!(o["why"].is_string() && o["case"].is_string());
        assert!(nb_headline(&s.game).starts_with("Game over"));
        let text = nb_state_text(&s);
        assert!(text.contains("Formations"));
    }

    #[test]
    fn command_ranges_are_the_rules_distance_and_reach_every_officer_a_commander_may_command() {
        let s = session("bon-first-day", 1);
        let g = &s.game;
        let v = nb_state_view(&s, true);
        let range = v["overlays"]["range"]
            .as_object()
            .expect("ranges by leader");
        let sup = g.supplement();
        for l in nb_leaders(g) {
            let id = g.leader_name(l);
            match g.leader_loc(l) {
                LeaderLoc::Map(h) => {
                    let hexes: Vec<&str> = range[id]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_str().unwrap())
                        .collect();
                    let want: Vec<String> = g
                        .command_range(l)
                        .into_iter()
                        .map(|x| x.to_string())
                        .collect();
                    assert_eq!(hexes, want, "{id}");
                    // his own hex, and every hex within his range's distance, no farther
                    let r = u32::from(sup.leaders[usize::from(l.0)].range);
                    assert!(hexes.contains(&h.to_string().as_str()));
                    for x in &hexes {
                        let x: Hex = x.parse().unwrap();
                        assert!(g.scenario().map.distance(h, x) <= r);
                    }
                    let full = (3 * r * (r + 1) + 1) as usize;
                    assert!(hexes.len() <= full, "{id}: {} > {full}", hexes.len());
                }
                _ => assert!(range.get(id).is_none(), "{id} is off the map"),
            }
        }
        // every officer a commander may spend a command point on stands in his range
        let mut commands = 0;
        for a in nb_legal(g) {
            if let Action::Command { commander, officer } = a {
                let LeaderLoc::Map(oh) = g.leader_loc(officer) else {
                    panic!("an officer off the map")
                };
                assert!(g.command_range(commander).contains(&oh));
                commands += 1;
            }
        }
        assert!(commands > 0, "a command is legal on the first turn");
    }

    #[test]
    fn an_officer_s_range_grows_by_a_lent_rating() {
        let mut s = session("bon-first-day", 1);
        let lend = nb_legal(&s.game)
            .into_iter()
            .find_map(|a| match a {
                Action::Lend { commander, officer } => Some((commander, officer)),
                _ => None,
            })
            .expect("a commander may lend his rating on the first turn");
        let (c, o) = lend;
        let g = &s.game;
        let sup = g.supplement();
        let span = u32::from(sup.leaders[usize::from(o.0)].range)
            + u32::from(sup.leaders[usize::from(c.0)].command);
        let before = g.command_range(o).len();
        let LeaderLoc::Map(oh) = g.leader_loc(o) else {
            panic!("the officer is on the map")
        };
        let text = g.action_text(Action::Lend {
            commander: c,
            officer: o,
        });
        s.act_text(&text).unwrap();
        let g = &s.game;
        let after = g.command_range(o);
        assert!(after.len() > before, "{text}: {before} -> {}", after.len());
        let want: Vec<Hex> = g
            .scenario()
            .map
            .hexes()
            .filter(|&x| g.scenario().map.distance(oh, x) <= span)
            .collect();
        assert_eq!(
            after, want,
            "{text}: the officer's span is his range plus the rating lent"
        );
        // every unit his activation would take stands in the range the board shades
        for u in g.officer_units(o) {
            let Loc::Map(h) = g.loc(u) else { panic!() };
            assert!(after.contains(&h));
        }
        let v = nb_state_view(&s, false);
        assert_eq!(
            v["overlays"]["range"][g.leader_name(o)]
                .as_array()
                .unwrap()
                .len(),
            after.len()
        );
    }

    #[test]
    fn a_melee_preview_shows_strengths_shifts_column_and_chances_and_changes_nothing() {
        let mut s = session("bon-first-day", 3);
        play_until(&mut s, 5, |g| {
            g.step() == Step::Melee
                && nb_legal(g)
                    .iter()
                    .any(|a| matches!(a, Action::Melee { .. }))
        });
        let g = &s.game;
        let hash = g.state_hash();
        let n = s.record.actions.len();
        let (from, to) = nb_legal(g)
            .into_iter()
            .find_map(|a| match a {
                Action::Melee { from, to } => Some((from, to)),
                _ => None,
            })
            .unwrap();
        let text = format!("melee {from} {to}");
        let v = nb_preview(&s, &text).unwrap();
        assert_eq!(v["action"], text);
        let m = &v["melee"];
        let odds = g.melee_odds(from, to).unwrap();
        let t = &g.supplement().melee;
        assert_eq!(m["attack"], half_text(odds.attack_halves));
        assert_eq!(m["defence"], half_text(odds.defence_halves));
        assert_eq!(m["percent"], json!(odds.percent));
        assert_eq!(m["base"], json!(odds.base.map(|b| t.column_name(b))));
        let shifts = m["shifts"].as_array().unwrap();
        assert_eq!(shifts.len(), odds.shifts.len());
        for (j, sh) in shifts.iter().zip(&odds.shifts) {
            assert_eq!(j["by"], sh.by);
            assert_eq!(j["rule"], sh.rule);
            assert_eq!(j["why"], sh.why.as_str());
        }
        let MeleeColumn::Table(c) = odds.column else {
            panic!("a legal melee is on the table")
        };
        assert_eq!(m["column"], t.column_name(c));
        assert_eq!(m["explain"], odds.explain(t));
        // one result per roll, its chance from the roll's weight, summing to one
        let results = m["results"].as_array().unwrap();
        assert_eq!(results.len(), t.roll_weights().len());
        let sum: f64 = results.iter().map(|r| r["chance"].as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-9);
        for r in results {
            let roll = r["roll"].as_u64().unwrap() as u8;
            assert_eq!(r["result"], t.result(c, roll).to_string());
            assert!(r["text"].as_str().unwrap().starts_with("the attacker "));
        }
        let ch = &m["chances"];
        assert_eq!(
            ch["defender_retreats"].as_f64().unwrap(),
            t.chance(c, |r| r.defender_retreat > 0)
        );
        assert!(!m["attackers"].as_array().unwrap().is_empty());
        assert!(!m["defenders"].as_array().unwrap().is_empty());
        // nothing was taken, no die rolled
        assert_eq!(s.game.state_hash(), hash);
        assert_eq!(s.record.actions.len(), n);
        // another legal action: no melee; a refused one: its case; not an action: `action`
        let end = nb_preview(&s, "end").unwrap();
        assert_eq!(end["melee"], Value::Null);
        match nb_preview(&s, &format!("melee {to} {from}")) {
            Err(QueryError::Refused(r)) => assert!(r.case.starts_with("NB"), "{r:?}"),
            other => panic!("not refused: {other:?}"),
        }
        assert!(
            matches!(nb_preview(&s, "fly away"), Err(QueryError::Refused(r)) if r.case == "action")
        );
        // through the presenter's query, as the server asks it
        let q = NbPresenter
            .query(&s, "preview", &text, Viewer::Seat(Side(0)))
            .unwrap();
        assert_eq!(q, v);
    }

    #[test]
    fn result_words_say_each_side_s_part() {
        let r = napoleonic_battles::melee::parse_result("1/2r1mL").unwrap();
        assert_eq!(
            nb_result_words(&r),
            "the attacker loses 1 SP; the defender loses 2 SP, retreats 1 hex, checks morale and may lose a leader"
        );
        let r = napoleonic_battles::melee::parse_result("0/0").unwrap();
        assert_eq!(
            nb_result_words(&r),
            "the attacker loses nothing; the defender loses nothing"
        );
    }

    /// A test game on the Leipzig map's clear ground: Victor's FR.4 (2 SP) and FR.6 against
    /// Eugen's RU.3, three turns, turn 2 a night.
    fn night_session() -> Session<Game> {
        let mut t = String::from(
            "format = \"grognard-scenario/1\"\nid = \"nb-test\"\ntitle = \"test\"\n\
             system = \"naw\"\nmap = \"leipzig\"\nfirst_turn = 1\nlast_turn = 3\n\
             night_turns = [2]\nsides = [\"French\", \"Allied\"]\n\
             [[nations]]\nid = \"FR\"\nname = \"French\"\nside = \"French\"\narmy = \"French\"\n\
             [[nations]]\nid = \"RU\"\nname = \"Russian\"\nside = \"Allied\"\narmy = \"Allied\"\n",
        );
        for (id, sp, corps, army, hex) in [
            ("FR.4", 2, "II Corps (Victor)", "Grand Army", "0413"),
            ("FR.6", 6, "II Corps (Victor)", "Grand Army", "0411"),
            (
                "RU.3",
                6,
                "II Russian Corps (Eugen)",
                "Army of Bohemia",
                "0414",
            ),
        ] {
            let nation = &id[..2];
            t += &format!(
                "[[units]]\nid = \"{id}\"\nnation = \"{nation}\"\ndesignation = \"{id}\"\n\
                 type = \"infantry\"\nstrength = {sp}\nmovement = 4\narmy = \"{army}\"\n\
                 corps = \"{corps}\"\nhex = \"{hex}\"\n"
            );
        }
        let sc = naw::Scenario::from_toml(&t, "nb-test.toml", &|m| {
            scenarios::map_text(m)
                .map(str::to_string)
                .ok_or_else(|| "no map".to_string())
        })
        .unwrap();
        let digest = sc.digest;
        Session::new(Game::new(sc, Supplement::bon()), "nb-test", digest, 1)
    }

    #[test]
    fn a_recovered_unit_is_placed_by_its_owner_on_a_hex_the_board_offers() {
        let mut s = night_session();
        // FR.4 melees at 25% and rolls 2 (2r1m/0): eliminated; turn 2 is the night, whose
        // recovery roll of 2 is below its initiative 3 (NB Recovery)
        for t in [
            "pass",
            "roll 1",
            "command FR.Murat FR.Victor",
            "go",
            "end",
            "melee 0413 0414",
            "roll 2",
            "roll 1",
            "end",
            "pass",
            "roll 6",
            "roll 2",
            "roll 12",
            "pass",
            "roll 1",
            "pass",
            "roll 2",
        ] {
            s.act_text(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        }
        let v = nb_state_view(&s, true);
        assert_eq!(v["step"], "place");
        assert_eq!(v["phase"], "victory");
        assert_eq!(v["to_act"], "French", "the owner places it");
        let p = &v["placing"];
        assert_eq!(p["unit"], "FR.4");
        assert_eq!(p["officer"], "FR.Victor");
        assert_eq!(p["radius"], 2);
        let hexes: Vec<&str> = p["hexes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        assert!(hexes.len() > 3, "{hexes:?}");
        // the legal actions are the board's moves of FR.4 into those hexes, from no hex
        let legal = v["legal_actions"].as_array().unwrap();
        assert_eq!(legal.len(), hexes.len());
        for (a, h) in legal.iter().zip(&hexes) {
            assert_eq!(a["kind"], "move", "{a}");
            assert_eq!(a["unit"], "FR.4", "{a}");
            assert_eq!(a["to"], *h, "{a}");
            assert!(a.get("from").is_none_or(Value::is_null), "{a}");
            assert_eq!(a["text"], format!("place FR.4 {h}"));
        }
        // selecting FR.4 shades the same hexes (overlays.range, by unit id)
        assert_eq!(v["overlays"]["range"]["FR.4"], p["hexes"]);
        let text = nb_state_text(&s);
        assert!(text.contains("Back from elimination"), "{text}");
        assert!(text.contains("place FR.4 "), "{text}");
        // a click on the farthest hex
        let far = hexes[hexes.len() - 1];
        s.act_text(&format!("place FR.4 {far}")).unwrap();
        let placed = s
            .game
            .events()
            .iter()
            .map(|e| nb_event(&s.game, e))
            .find(|e| e["kind"] == "placed")
            .expect("a placed event");
        assert_eq!(placed["case"], "NB Recovery");
        assert_eq!(placed["unit"], "FR.4");
        assert_eq!(placed["hex"], far);
        assert!(placed["text"].as_str().unwrap().contains(far), "{placed}");
        let v = nb_state_view(&s, false);
        assert_eq!(unit(&v, "FR.4")["hex"], far);
        assert_eq!(unit(&v, "FR.4")["sp"], 1);
        assert!(v["placing"].is_null());
        assert_eq!(v["turn"], 3);
    }

    #[test]
    fn every_event_of_a_game_has_its_case_kind_text_and_named_facts() {
        let mut s = session("bon-first-day", 8);
        let mut rng = engine::Dice::new(1);
        let mut kinds = std::collections::BTreeSet::new();
        while s.game.outcome().is_none() {
            match s.game.to_act() {
                ToAct::Chance => {
                    s.roll().unwrap();
                }
                ToAct::Side(_) => {
                    let legal = nb_legal(&s.game);
                    let i = rng.draw(&vec![1; legal.len()]).unwrap();
                    let t = s.game.action_text(legal[i]);
                    s.act_text(&t).unwrap();
                }
                ToAct::Over(_) => break,
            }
            for e in s.game.events() {
                let j = nb_event(&s.game, e);
                assert!(!j["case"].as_str().unwrap().is_empty());
                assert!(!j["text"].as_str().unwrap().is_empty());
                let kind = j["kind"].as_str().unwrap().to_string();
                // units, leaders and sides by their names, never by number
                for k in ["unit", "leader", "officer", "commander", "side", "winner"] {
                    assert!(!j[k].is_number(), "{kind}: {k} is a number: {j}");
                }
                for k in ["units", "officers"] {
                    if let Some(a) = j[k].as_array() {
                        assert!(a.iter().all(Value::is_string), "{kind}: {j}");
                    }
                }
                kinds.insert(kind);
            }
        }
        for k in [
            "turn_began",
            "initiative",
            "activated",
            "moved",
            "game_over",
        ] {
            assert!(kinds.contains(k), "no {k} event in a whole game: {kinds:?}");
        }
    }
}
