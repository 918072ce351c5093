//! Showing a game: the state as text or JSON, a unit's moves, and a compact ASCII map.

use crate::util::{fmt_half, side_name};
use anyhow::{bail, Result};
use engine::{Rules, Session, ToAct};
use hexmap::Hex;
use naw::{Action, Game, Loc, Step, UnitId};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

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

/// The step's short name for JSON.
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

/// Who acts, in words.
pub fn to_act_text(g: &Game) -> String {
    match g.to_act() {
        ToAct::Side(s) => format!("{} to act", side_name(g, s)),
        ToAct::Chance => "a die is to be rolled".into(),
        ToAct::Over(o) => format!("game over: {} ({})", o.why, o.case),
    }
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

#[derive(Serialize)]
struct UnitJson {
    id: String,
    side: String,
    nation: String,
    designation: String,
    #[serde(rename = "type")]
    kind: &'static str,
    strength: u16,
    movement: u8,
    /// `map`, `waiting`, `eliminated` or `displaced`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arrival_turn: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arrival_hex: Option<String>,
    moved: bool,
    in_combat: bool,
}

#[derive(Serialize)]
struct ArmyJson {
    army: String,
    side: String,
    losses: u32,
    level: Option<u32>,
}

#[derive(Serialize)]
struct CombatJson {
    attackers: Vec<String>,
    bombarding: Vec<String>,
    defenders: Vec<String>,
    attack: u32,
    defence: u32,
    odds: &'static str,
    terrain: Vec<String>,
    probabilities: BTreeMap<&'static str, f64>,
    resolved: bool,
}

#[derive(Serialize)]
struct ObligationJson {
    unit: String,
    case: &'static str,
}

#[derive(Serialize)]
struct OutcomeJson {
    winner: Option<String>,
    case: &'static str,
    why: String,
}

#[derive(Serialize)]
struct StateJson {
    scenario: String,
    title: String,
    turn: u8,
    first_turn: u8,
    last_turn: u8,
    night: bool,
    phasing: String,
    phase: &'static str,
    step: &'static str,
    /// A side name, `chance` or `over`.
    to_act: String,
    actions_recorded: usize,
    undoable: usize,
    state_hash: String,
    demoralization: Vec<ArmyJson>,
    units: Vec<UnitJson>,
    combats: Vec<CombatJson>,
    obligations: Vec<ObligationJson>,
    legal_actions: Vec<String>,
    outcome: Option<OutcomeJson>,
}

/// The probabilities of a column, keyed by result name.
pub fn probability_map(p: &[f64; 5]) -> BTreeMap<&'static str, f64> {
    naw::CombatResult::ALL
        .iter()
        .zip(p)
        .map(|(r, &x)| (r.name(), x))
        .collect()
}

fn status(g: &Game, u: UnitId) -> (&'static str, Option<Hex>) {
    match g.loc(u) {
        Loc::Map(h) => ("map", Some(h)),
        Loc::Waiting => ("waiting", None),
        Loc::Eliminated => ("eliminated", None),
        Loc::Lifted(h) => ("displaced", Some(h)),
    }
}

/// The legal actions of the side to act (or the die faces).
pub fn legal(g: &Game) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// The state as JSON.
pub fn state_json(s: &Session<Game>) -> String {
    let g = &s.game;
    let sc = g.scenario();
    let units = g
        .units()
        .into_iter()
        .map(|v| {
            let d = sc.unit(v.unit);
            let (st, hex) = status(g, v.unit);
            UnitJson {
                id: d.id.clone(),
                side: sc.sides[d.side.0 as usize].clone(),
                nation: sc.nations[d.nation as usize].id.clone(),
                designation: d.designation.clone(),
                kind: d.kind.name(),
                strength: d.strength,
                movement: d.movement,
                status: st,
                hex: hex.map(|h| h.to_string()),
                arrival_turn: v.arrival.map(|a| a.0),
                arrival_hex: v.arrival.map(|a| a.1.to_string()),
                moved: v.moved,
                in_combat: v.in_combat,
            }
        })
        .collect();
    let ids = |v: &[UnitId]| v.iter().map(|&u| g.id(u).to_string()).collect::<Vec<_>>();
    let combats = g
        .combats()
        .iter()
        .map(|c| CombatJson {
            attackers: ids(&c.attackers),
            bombarding: ids(&c.bombarding),
            defenders: ids(&c.defenders),
            attack: c.odds.attack,
            defence: c.odds.defence,
            odds: c.odds.column.name(),
            terrain: c.odds.terrain.clone(),
            probabilities: probability_map(&c.odds.probabilities),
            resolved: c.resolved,
        })
        .collect();
    let obligations = if g.step() == Step::Declare {
        g.open_obligations()
            .into_iter()
            .map(|(u, case)| ObligationJson {
                unit: g.id(u).to_string(),
                case,
            })
            .collect()
    } else {
        Vec::new()
    };
    let j = StateJson {
        scenario: s.record.scenario.clone(),
        title: sc.title.clone(),
        turn: g.turn(),
        first_turn: sc.first_turn,
        last_turn: sc.last_turn,
        night: g.is_night(),
        phasing: side_name(g, g.phasing()).to_string(),
        phase: match g.phase() {
            naw::Phase::Movement => "movement",
            naw::Phase::Combat => "combat",
        },
        step: step_name(g.step()),
        to_act: match g.to_act() {
            ToAct::Side(x) => side_name(g, x).to_string(),
            ToAct::Chance => "chance".into(),
            ToAct::Over(_) => "over".into(),
        },
        actions_recorded: s.record.actions.len(),
        undoable: g.undoable().min(s.record.actions.len()),
        state_hash: engine::hash_text(g.state_hash()),
        demoralization: sc
            .armies
            .iter()
            .enumerate()
            .map(|(i, (name, side))| ArmyJson {
                army: name.clone(),
                side: sc.sides[side.0 as usize].clone(),
                losses: g.losses()[i],
                level: g.demoralization_level(i as u8),
            })
            .collect(),
        units,
        combats,
        obligations,
        legal_actions: legal(g).iter().map(|&a| g.action_text(a)).collect(),
        outcome: g.outcome().map(|o| OutcomeJson {
            winner: o.winner.map(|w| side_name(g, w).to_string()),
            case: o.case,
            why: o.why.clone(),
        }),
    };
    serde_json::to_string_pretty(&j).expect("the state serialises")
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
        let _ = write!(
            out,
            "  {} ({}) against {} ({}): {}",
            names(&c.attackers),
            c.odds.attack,
            names(&c.defenders),
            c.odds.defence,
            c.odds.column.name()
        );
        if !c.odds.terrain.is_empty() {
            let _ = write!(out, "; {}", c.odds.terrain.join("; "));
        }
        if c.resolved {
            out.push_str(" [resolved]");
        }
        out.push('\n');
    }
    out
}

/// The legal actions, moves and attacks grouped per unit.
pub fn legal_text(g: &Game) -> String {
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

/// The state as text for players.
pub fn state_text(s: &Session<Game>) -> String {
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
                    let what = if case == "7.11" {
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
    out.push_str(&legal_text(g));
    if let Some(o) = g.outcome() {
        let _ = writeln!(out, "Outcome: {} ({})", o.why, o.case);
    }
    out
}

/// One legal destination of a unit.
#[derive(Serialize)]
pub struct MoveJson {
    hex: String,
    cost: f64,
    path: Vec<String>,
}

/// A destination, its cost in half movement points and its cheapest path.
pub type Move = (Hex, u16, Vec<Hex>);

/// The legal destinations of a unit with cost and cheapest path, or the reason it cannot move.
pub fn moves(g: &Game, u: UnitId) -> (Vec<Move>, Option<String>) {
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
    // Why not: the refusal of a move to where the unit stands (the first checks are whether
    // it may move at all).
    let probe = match g.loc(u) {
        Loc::Map(h) => h,
        _ => g.units()[u.0 as usize]
            .arrival
            .map_or(Hex::new(1, 1), |a| a.1),
    };
    let why = match g.check(Action::Move { unit: u, to: probe }) {
        Err(r) if r.case != "5.16" && r.case != "5.32" => format!("{}: {}", r.case, r.why),
        _ => format!("{} has no legal destination", g.id(u)),
    };
    (out, Some(why))
}

/// `moves` as text.
pub fn moves_text(g: &Game, u: UnitId) -> String {
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
    if let Some(w) = why {
        let _ = writeln!(out, "cannot move: {w}");
        return out;
    }
    let _ = writeln!(
        out,
        "{} legal destinations (cost in MP, cheapest path):",
        list.len()
    );
    for (h, c, p) in &list {
        let path: Vec<String> = p.iter().map(|h| h.to_string()).collect();
        let _ = writeln!(out, "  {h}  {:>4} MP  {}", fmt_half(*c), path.join("-"));
    }
    out
}

/// `moves` as JSON.
pub fn moves_json(g: &Game, u: UnitId) -> String {
    #[derive(Serialize)]
    struct J {
        unit: String,
        movement: u8,
        from: Option<String>,
        destinations: Vec<MoveJson>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cannot_move: Option<String>,
    }
    let (list, why) = moves(g, u);
    let from = match g.loc(u) {
        Loc::Map(h) => Some(h.to_string()),
        Loc::Waiting => g.units()[u.0 as usize].arrival.map(|a| a.1.to_string()),
        _ => None,
    };
    let j = J {
        unit: g.id(u).to_string(),
        movement: g.scenario().unit(u).movement,
        from,
        destinations: list
            .into_iter()
            .map(|(h, c, p)| MoveJson {
                hex: h.to_string(),
                cost: c as f64 / 2.0,
                path: p.iter().map(|h| h.to_string()).collect(),
            })
            .collect(),
        cannot_move: why,
    };
    serde_json::to_string_pretty(&j).expect("serialises")
}

/// A compact ASCII map: `rows` map rows by `cols` hexes around `centre`, west to the left,
/// with terrain letters and unit keys, and a legend.
pub fn ascii_map(g: &Game, centre: Hex, rows: i16, cols: i16) -> Result<String> {
    let sc = g.scenario();
    let map = &sc.map;
    if !map.contains(centre) {
        bail!("{centre} is not on the map");
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
            let t = map.terrain(h).code();
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
