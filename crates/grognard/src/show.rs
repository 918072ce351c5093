//! Showing a game: the state as text or JSON, a unit's moves, and a compact ASCII map.

use crate::util::side_name;
use anyhow::{bail, Result};
use engine::{Rules, Session, ToAct};
use hexmap::Hex;
use naw::{fmt_half, Action, Game, Loc, Step, UnitId};
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

/// The legal actions of the side to act (or the die faces).
pub fn legal(g: &Game) -> Vec<Action> {
    present::legal(g)
}

/// The state as JSON: the state view of `docs/api.md` (built by the `present` crate, as the
/// server builds it), with the names this command has always printed as well:
/// `legal_actions` (= `legal`) and each combat's `odds` (= `column`).
pub fn state_json(s: &Session<Game>) -> Result<String> {
    let log = present::log_of(s)?;
    let view = present::state_view(s, None, &log);
    let mut j = serde_json::to_value(&view)?;
    if let Some(o) = j.as_object_mut() {
        let legal = o.get("legal").cloned().unwrap_or_default();
        o.insert("legal_actions".into(), legal);
    }
    if let Some(cs) = j.get_mut("combats").and_then(|c| c.as_array_mut()) {
        for c in cs {
            if let Some(o) = c.as_object_mut() {
                let col = o.get("column").cloned().unwrap_or_default();
                o.insert("odds".into(), col);
            }
        }
    }
    Ok(serde_json::to_string_pretty(&j)?)
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
    out.push_str(&legal_text(g));
    if let Some(o) = g.outcome() {
        let _ = writeln!(out, "Outcome: {} ({})", o.why, o.case);
    }
    out
}

/// A destination, its cost in half movement points and its cheapest path.
pub type Move = present::Move;

/// The legal destinations of a unit with cost and cheapest path, or the reason it cannot move.
pub fn moves(g: &Game, u: UnitId) -> (Vec<Move>, Option<String>) {
    let (list, why) = present::moves(g, u);
    let why = why.map(|r| {
        if r.case == "5.0" {
            r.why
        } else {
            format!("{}: {}", r.case, r.why)
        }
    });
    (list, why)
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

/// `moves` as JSON: the moves view of `docs/api.md`, with `cannot_move` (the reason as one
/// line) as this command has always printed it.
pub fn moves_json(g: &Game, u: UnitId) -> Result<String> {
    let (_, why) = moves(g, u);
    let view = present::moves_view(g, u);
    let mut j = serde_json::to_value(&view)?;
    if let (Some(o), Some(w)) = (j.as_object_mut(), why) {
        o.insert("cannot_move".into(), w.into());
    }
    Ok(serde_json::to_string_pretty(&j)?)
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
