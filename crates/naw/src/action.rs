//! Actions and their canonical text (`docs/actions.md`).

use crate::game::Game;
use crate::tables::Column;
use crate::{UnitId, UnitSet};
use engine::Refusal;
use hexmap::Hex;

/// One action of Napoleon at War. Each has one canonical text form that parses back to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `move UNIT HEX`: move a unit, or bring a reinforcement on, to a hex (5.0, 15.0).
    Move {
        /// The unit.
        unit: UnitId,
        /// Its destination.
        to: Hex,
    },
    /// `end`: end the movement phase, or finish declaring attacks.
    End,
    /// `attack UNIT TARGET`: `UNIT` attacks `TARGET`, joining the combat either is already in.
    Attack {
        /// The attacker.
        unit: UnitId,
        /// The defender.
        target: UnitId,
    },
    /// `resolve TARGET [at ODDS]`: resolve the combat whose first defender is `TARGET`,
    /// optionally at reduced odds (7.9).
    Resolve {
        /// The combat's first defender.
        target: UnitId,
        /// Reduced odds column.
        column: Option<Column>,
    },
    /// `roll N`: the die shows `N`.
    Roll(u8),
    /// `lose UNIT,UNIT`: the attacker's exchange losses (7.6).
    Lose {
        /// Units lost.
        units: UnitSet,
    },
    /// `retreat UNIT HEX`: retreat (or displace into) a hex (7.7, 7.8).
    Retreat {
        /// The unit.
        unit: UnitId,
        /// Where to.
        to: Hex,
    },
    /// `stand UNIT`: bombarding artillery declines to retreat (8.15).
    Stand {
        /// The artillery.
        unit: UnitId,
    },
    /// `advance UNIT HEX`: advance after combat (7.74).
    Advance {
        /// The unit.
        unit: UnitId,
        /// The vacated hex.
        to: Hex,
    },
    /// `hold`: decline to advance.
    Hold,
}

impl Action {
    /// The canonical text.
    pub fn text(&self, g: &Game) -> String {
        // built piece by piece: this runs for every recorded action
        let mut t = String::with_capacity(24);
        let id = |t: &mut String, u: &UnitId| {
            t.push_str(
                g.scenario()
                    .units
                    .get(u.0 as usize)
                    .map_or("?", |d| d.id.as_str()),
            );
        };
        match self {
            Action::Move { unit, to } => {
                t.push_str("move ");
                id(&mut t, unit);
                t.push(' ');
                push_hex(&mut t, *to);
            }
            Action::End => t.push_str("end"),
            Action::Attack { unit, target } => {
                t.push_str("attack ");
                id(&mut t, unit);
                t.push(' ');
                id(&mut t, target);
            }
            Action::Resolve { target, column } => {
                t.push_str("resolve ");
                id(&mut t, target);
                if let Some(c) = column {
                    t.push_str(" at ");
                    t.push_str(c.name());
                }
            }
            Action::Roll(f) => {
                use std::fmt::Write;
                let _ = write!(t, "roll {f}");
            }
            Action::Lose { units } => {
                t.push_str("lose ");
                for (k, u) in units.iter().enumerate() {
                    if k > 0 {
                        t.push(',');
                    }
                    id(&mut t, &u);
                }
            }
            Action::Retreat { unit, to } => {
                t.push_str("retreat ");
                id(&mut t, unit);
                t.push(' ');
                push_hex(&mut t, *to);
            }
            Action::Stand { unit } => {
                t.push_str("stand ");
                id(&mut t, unit);
            }
            Action::Advance { unit, to } => {
                t.push_str("advance ");
                id(&mut t, unit);
                t.push(' ');
                push_hex(&mut t, *to);
            }
            Action::Hold => t.push_str("hold"),
        }
        t
    }

    /// Parses action text in a game. Units are named by id or by the hex they stand in.
    pub fn parse(text: &str, g: &Game) -> Result<Action, Refusal> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |why: String| Err(Refusal::new("action", why));
        let unit = |w: &str| -> Result<UnitId, Refusal> {
            g.unit_named(w).map_err(|why| Refusal::new("action", why))
        };
        let hex = |w: &str| {
            w.parse::<Hex>()
                .map_err(|e| Refusal::new("action", e.to_string()))
        };
        let Some(&verb) = words.first() else {
            return bad("an empty action".into());
        };
        let arity = |n: usize, usage: &str| -> Result<(), Refusal> {
            if words.len() == n {
                Ok(())
            } else {
                Err(Refusal::new("action", format!("usage: {usage}")))
            }
        };
        Ok(match verb.to_ascii_lowercase().as_str() {
            "move" => {
                arity(3, "move UNIT HEX")?;
                Action::Move { unit: unit(words[1])?, to: hex(words[2])? }
            }
            "end" => {
                arity(1, "end")?;
                Action::End
            }
            "attack" => {
                arity(3, "attack UNIT TARGET")?;
                Action::Attack { unit: unit(words[1])?, target: unit(words[2])? }
            }
            "resolve" => {
                if words.len() != 2 && !(words.len() == 4 && words[2].eq_ignore_ascii_case("at")) {
                    return bad("usage: resolve TARGET [at ODDS]".into());
                }
                let t = unit(words[1])?;
                // any defender names its combat; the canonical form uses the first
                let first = g
                    .combats_raw()
                    .iter()
                    .find(|c| c.defenders.contains(t))
                    .and_then(|c| c.defenders.first())
                    .unwrap_or(t);
                let column = match words.get(3) {
                    None => None,
                    Some(w) => {
                        let c = Column::parse(w).ok_or_else(|| {
                            Refusal::new("action", format!("'{w}' is not an odds column (1-5 .. 6-1)"))
                        })?;
                        let now = g.current_column(first);
                        if Some(c) == now {
                            None
                        } else {
                            Some(c)
                        }
                    }
                };
                Action::Resolve { target: first, column }
            }
            "roll" => {
                arity(2, "roll N")?;
                match words[1].parse::<u8>() {
                    Ok(f) if (1..=6).contains(&f) => Action::Roll(f),
                    _ => return bad(format!("'{}' is not a die face 1..6", words[1])),
                }
            }
            "lose" => {
                if words.len() < 2 {
                    return bad("usage: lose UNIT[,UNIT...]".into());
                }
                let mut units = UnitSet::EMPTY;
                for w in words[1..].join(",").split(',').filter(|w| !w.is_empty()) {
                    units.insert(unit(w)?);
                }
                Action::Lose { units }
            }
            "retreat" => {
                arity(3, "retreat UNIT HEX")?;
                Action::Retreat { unit: unit(words[1])?, to: hex(words[2])? }
            }
            "stand" => {
                arity(2, "stand UNIT")?;
                Action::Stand { unit: unit(words[1])? }
            }
            "advance" => {
                arity(3, "advance UNIT HEX")?;
                Action::Advance { unit: unit(words[1])?, to: hex(words[2])? }
            }
            "hold" => {
                arity(1, "hold")?;
                Action::Hold
            }
            other => {
                return bad(format!(
                    "unknown action '{other}' (move, end, attack, resolve, roll, lose, retreat, stand, advance, hold)"
                ))
            }
        })
    }
}

/// Appends a hex number as its `Display` writes it (`0716`), without the formatting machinery.
fn push_hex(t: &mut String, h: Hex) {
    if (0..100).contains(&h.x) && (0..100).contains(&h.y) {
        for v in [h.x, h.y] {
            t.push((b'0' + (v / 10) as u8) as char);
            t.push((b'0' + (v % 10) as u8) as char);
        }
    } else {
        use std::fmt::Write;
        let _ = write!(t, "{h}");
    }
}

impl Game {
    /// The unit a word names: its id (ignoring case), or the hex it stands in. The one reading
    /// of a unit word for action text, the command line and the views.
    pub fn find_unit(&self, word: &str) -> Option<UnitId> {
        self.scenario()
            .unit_by_id(word)
            .or_else(|| word.parse::<Hex>().ok().and_then(|h| self.unit_at(h)))
    }

    /// The unit a word names ([`Game::find_unit`]), or why none does, in a player's words,
    /// with the ids the word may have meant: the ids it begins (`PR.1`: "did you mean PR.1_8
    /// or PR.1_4?"), else ids a letter or two away, or whose part after the nation is the
    /// word (`Pahl`: AU.Pahl). A prefix is never taken for the unit, even when only one id
    /// begins with it (`docs/actions.md`).
    pub fn unit_named(&self, word: &str) -> Result<UnitId, String> {
        if let Some(u) = self.find_unit(word) {
            return Ok(u);
        }
        if let Ok(h) = word.parse::<Hex>() {
            if !self.scenario().map.contains(h) {
                return Err(format!("no unit stands in {h}: it is not on the map"));
            }
            return Err(format!("no unit stands in {h}"));
        }
        let ids: Vec<&str> = self
            .scenario()
            .units
            .iter()
            .map(|d| d.id.as_str())
            .collect();
        let near = similar_ids(word, &ids);
        if near.is_empty() {
            let examples: Vec<&str> = ids.iter().take(3).copied().collect();
            return Err(format!(
                "'{word}' is not a unit id of {} (ids look like {})",
                self.scenario().id,
                examples.join(", ")
            ));
        }
        Err(format!("no unit {word}: did you mean {}?", or_list(&near)))
    }
}

/// The ids `word` may have meant, in the scenario's order (at most eight): those it is a
/// prefix of, ignoring case (only those where it ends a part of the id, `PR.1` of `PR.1_8`,
/// when there are such); else those a letter or two away (one for short words), or whose
/// part after the nation's dot is the word.
fn similar_ids<'a>(word: &str, ids: &[&'a str]) -> Vec<&'a str> {
    let w = word.to_ascii_lowercase();
    let lower: Vec<String> = ids.iter().map(|i| i.to_ascii_lowercase()).collect();
    let prefixed: Vec<(&str, bool)> = ids
        .iter()
        .zip(&lower)
        .filter(|(_, l)| l.len() > w.len() && l.starts_with(&w))
        // whole: the word ends where a part of the id ends (`PR.1` of `PR.1_8`, not of `PR.10`)
        .map(|(i, l)| (*i, !l.as_bytes()[w.len()].is_ascii_alphanumeric()))
        .collect();
    let whole = prefixed.iter().any(|p| p.1);
    let mut out: Vec<&str> = prefixed
        .iter()
        .filter(|p| p.1 || !whole)
        .map(|p| p.0)
        .collect();
    if out.is_empty() {
        let limit = if w.chars().count() >= 6 { 2 } else { 1 };
        out = ids
            .iter()
            .zip(&lower)
            .filter(|(_, l)| {
                edit_distance(&w, l) <= limit
                    || l.split_once('.').is_some_and(|(_, rest)| rest == w)
            })
            .map(|(i, _)| *i)
            .collect();
    }
    out.truncate(8);
    out
}

/// The Levenshtein distance of two strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != cb)).min(up + 1).min(row[j] + 1);
            diag = up;
        }
    }
    row[b.len()]
}

/// `A`, `A or B`, `A, B or C`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{edit_distance, similar_ids};

    #[test]
    fn ids_a_word_may_have_meant() {
        let ids = [
            "PR.1_8", "FR.4", "FR.44x", "PR.10", "PR.1_4", "AU.Pahl", "FR.5",
        ];
        assert_eq!(similar_ids("PR.1", &ids), ["PR.1_8", "PR.1_4"]);
        assert_eq!(similar_ids("FR.4", &ids[2..]), ["FR.44x"]);
        assert_eq!(similar_ids("pr.1_", &ids), ["PR.1_8", "PR.1_4"]);
        assert_eq!(similar_ids("FR4", &ids), ["FR.4"]);
        assert_eq!(similar_ids("pahl", &ids), ["AU.Pahl"]);
        assert!(similar_ids("XY.99", &ids).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
    }
}
