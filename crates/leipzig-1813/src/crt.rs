//! The Combat Results Table (CRT; the rulebook's "Combat Results Table" and "How to use the
//! Combat Results Table", Combat (F), Fortress (A)): its results, the table as replaceable data
//! (`[crt]` of `data/leipzig.toml`, our reconstruction of the scan's garbled columns:
//! `docs/leipzig-1813.md`), the column a percentage falls in, and what a result does to a
//! defender in a fortress and to an attacker after a half exchange.

use serde::Deserialize;
use std::fmt;

/// What a result does to one side's stack (CRT, Explanation of Results; Combat (K)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// Untouched.
    None,
    /// Dispersed (`d`), retreating this many hexes first (0: no retreat); it may not move,
    /// attack or retreat before combat until the end of the same phase next turn (Combat (K)).
    Dispersed {
        /// Hexes the owner retreats it (the numeral after `d`).
        retreat: u8,
    },
    /// Scattered (`s`): broken down to divisions, each retreating its full allowance and
    /// ending alone, then dispersed (Combat (K)).
    Scattered,
    /// Destroyed (`x`).
    Destroyed,
}

impl Effect {
    fn code(self) -> String {
        match self {
            Effect::None => String::new(),
            Effect::Dispersed { retreat: 0 } => "d".into(),
            Effect::Dispersed { retreat } => format!("d{retreat}"),
            Effect::Scattered => "s".into(),
            Effect::Destroyed => "x".into(),
        }
    }
}

/// One cell of the CRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CombatResult {
    /// A result for each side (`As`, `AdDs`, `Dd1`, `Dx`, `-` when both are untouched).
    Sides {
        /// What happens to the attacking stack(s).
        attacker: Effect,
        /// What happens to the defending stack.
        defender: Effect,
    },
    /// `1/2ex`: the whole defending stack is eliminated and the attacker loses half as many
    /// divisions, fractions rounded up ([`half_exchange_attacker_loss`]).
    HalfExchange,
    /// `Auto`: the automatic Dx of 500% (CRT, Auto): during the movement phase the attacker
    /// may move over the stack ([`crate::odds::automatic_elimination`]); in the combat phase it
    /// is a Dx.
    Automatic,
}

impl CombatResult {
    /// No effect on either side (a replacement table's `-`).
    pub const NONE: CombatResult = CombatResult::Sides {
        attacker: Effect::None,
        defender: Effect::None,
    };

    /// What the result does to the attacker.
    pub fn attacker(self) -> Effect {
        match self {
            CombatResult::Sides { attacker, .. } => attacker,
            CombatResult::HalfExchange | CombatResult::Automatic => Effect::None,
        }
    }

    /// What the result does to the defender (a half exchange and Auto destroy it).
    pub fn defender(self) -> Effect {
        match self {
            CombatResult::Sides { defender, .. } => defender,
            CombatResult::HalfExchange | CombatResult::Automatic => Effect::Destroyed,
        }
    }

    /// Whether the defender is destroyed (Dx, Auto, 1/2ex).
    pub fn destroys_defender(self) -> bool {
        self.defender() == Effect::Destroyed
    }

    /// The result against units defending in a fortress (Fortress (A), TEC City-Fortress):
    /// only a Dx (and Auto, an automatic Dx) touches them, never a 1/2ex (which then costs the
    /// attacker nothing: half of no division, ruling L6); what the result does to the attacker
    /// stands.
    pub fn against_fortress(self) -> CombatResult {
        match self {
            CombatResult::Automatic => CombatResult::Automatic,
            CombatResult::HalfExchange => CombatResult::NONE,
            CombatResult::Sides { attacker, defender } => CombatResult::Sides {
                attacker,
                defender: if defender == Effect::Destroyed {
                    Effect::Destroyed
                } else {
                    Effect::None
                },
            },
        }
    }

    /// Whether the attacker may advance after it, given that the defender has left the hex
    /// (Combat (M)): never after a result that touches the attacker (Ax, As, AdDs; AsDs with
    /// them, ruling L5); a half exchange's survivors may.
    pub fn attacker_may_advance(self) -> bool {
        self.attacker() == Effect::None && self.defender() != Effect::None
    }

    /// Whether the attacking units of a combat may advance into the defender's hex after this
    /// result (Combat (M), CRT): only when they attacked across a river hexside (bridged or not)
    /// or a fortress, the result emptied the hex ([`CombatResult::against_fortress`] applied
    /// first for a fortress) and did not touch the attacker. After a retreat before combat
    /// they always may: that is the game's, with no result.
    pub fn attacker_may_advance_into(self, across_river: bool, fortress: bool) -> bool {
        let r = if fortress {
            self.against_fortress()
        } else {
            self
        };
        (across_river || fortress) && r.attacker_may_advance()
    }

    /// A rank of how good the result is for the attacker, used to check that a table never
    /// gets worse for him as the odds or the die rise (ruling L2): Ax, As, AsDs, AdDs, Dd1,
    /// Dd2, ..., Ds, 1/2ex, Dx, Auto.
    pub fn attacker_rank(self) -> u32 {
        let attacker = |e: Effect| match e {
            Effect::Destroyed => 0,
            Effect::Scattered => 1,
            Effect::Dispersed { .. } => 2,
            Effect::None => 3,
        };
        let defender = |e: Effect| match e {
            Effect::None => 0,
            Effect::Dispersed { retreat } => 1 + u32::from(retreat),
            Effect::Scattered => 100,
            Effect::Destroyed => 200,
        };
        match self {
            CombatResult::Automatic => 4000,
            CombatResult::HalfExchange => 3150,
            CombatResult::Sides {
                attacker: a,
                defender: d,
            } => attacker(a) * 1000 + defender(d),
        }
    }
}

impl fmt::Display for CombatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CombatResult::HalfExchange => f.write_str("1/2ex"),
            CombatResult::Automatic => f.write_str("Auto"),
            CombatResult::Sides {
                attacker: Effect::None,
                defender: Effect::None,
            } => f.write_str("-"),
            CombatResult::Sides { attacker, defender } => {
                if attacker != Effect::None {
                    write!(f, "A{}", attacker.code())?;
                }
                if defender != Effect::None {
                    write!(f, "D{}", defender.code())?;
                }
                Ok(())
            }
        }
    }
}

fn parse_effect(s: &str, at: &mut usize) -> Result<Effect, String> {
    let b = s.as_bytes();
    let c = *b
        .get(*at)
        .ok_or_else(|| format!("'{s}': a side letter without its effect (s, d, x)"))?;
    *at += 1;
    match c {
        b's' => Ok(Effect::Scattered),
        b'x' => Ok(Effect::Destroyed),
        b'd' => {
            let start = *at;
            while *at < b.len() && b[*at].is_ascii_digit() {
                *at += 1;
            }
            let retreat = if *at == start {
                0
            } else {
                s[start..*at]
                    .parse()
                    .map_err(|_| format!("'{s}': retreat too long"))?
            };
            Ok(Effect::Dispersed { retreat })
        }
        other => Err(format!(
            "'{s}': unknown effect '{}' (s scattered, d dispersed, x destroyed)",
            other as char
        )),
    }
}

/// Parses one cell in the table's notation: `-`, `As`, `Ax`, `AsDs`, `AdDs`, `Dd1`, `Ds`,
/// `Dx`, `1/2ex` (or `½ex`), `Auto`.
pub fn parse_result(cell: &str) -> Result<CombatResult, String> {
    let s = cell.trim();
    match s {
        "-" => return Ok(CombatResult::NONE),
        "1/2ex" | "½ex" | "1/2Ex" => return Ok(CombatResult::HalfExchange),
        "Auto" => return Ok(CombatResult::Automatic),
        "" => return Err("an empty cell (write '-' for no effect)".into()),
        _ => {}
    }
    let mut at = 0;
    let b = s.as_bytes();
    let mut attacker = Effect::None;
    let mut defender = Effect::None;
    if b[0] == b'A' {
        at = 1;
        attacker = parse_effect(s, &mut at)?;
    }
    if at < b.len() && b[at] == b'D' {
        at += 1;
        defender = parse_effect(s, &mut at)?;
    }
    if at != b.len() {
        return Err(format!(
            "'{s}': expected A<effect> then D<effect> (As, AdDs, Dd1, Dx, 1/2ex, Auto, -)"
        ));
    }
    Ok(CombatResult::Sides { attacker, defender })
}

/// The attacker's loss in a half exchange: half the divisions the defender lost, fractions
/// rounded up (CRT, Explanation of Results: 1/2ex).
pub fn half_exchange_attacker_loss(defender_divisions: u32) -> u32 {
    defender_divisions.div_ceil(2)
}

/// Why a CRT (the `[crt]` section) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("combat results table: {0}")]
pub struct CrtError(pub String);

/// The CRT as written in `[crt]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrtFile {
    /// Column percentages, strictly increasing; the first also takes every lower percentage.
    pub columns: Vec<u32>,
    /// Six rows (die 1 first), one cell per column.
    pub results: Vec<Vec<String>>,
}

/// The Combat Results Table: one d6, columns as percentages of the defence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crt {
    columns: Vec<u32>,
    /// `results[column][die - 1]`.
    results: Vec<[CombatResult; 6]>,
}

impl Crt {
    /// Validates a table as written: at least one column, percentages above 0 and strictly
    /// increasing, six rows of one well-formed cell per column.
    pub fn from_file(f: &CrtFile) -> Result<Crt, CrtError> {
        let err = |s: String| Err(CrtError(s));
        if let Err(why) = engine::tables::check_percent_columns(&f.columns) {
            return err(why);
        }
        if f.results.len() != 6 {
            return err(format!(
                "{} rows of results: expected 6 (one per face of the die, 1 first)",
                f.results.len()
            ));
        }
        let mut results = vec![[CombatResult::NONE; 6]; f.columns.len()];
        for (r, row) in f.results.iter().enumerate() {
            if row.len() != f.columns.len() {
                return err(format!(
                    "the row of die {} has {} cells for {} columns",
                    r + 1,
                    row.len(),
                    f.columns.len()
                ));
            }
            for (c, cell) in row.iter().enumerate() {
                results[c][r] = parse_result(cell).map_err(|e| {
                    CrtError(format!("die {}, column {}%: {e}", r + 1, f.columns[c]))
                })?;
            }
        }
        Ok(Crt {
            columns: f.columns.clone(),
            results,
        })
    }

    /// The number of columns.
    pub fn columns(&self) -> usize {
        self.columns.len()
    }

    /// A column's percentage (the first: that percentage or less).
    pub fn percent(&self, column: usize) -> u32 {
        self.columns[column]
    }

    /// The column a combat percentage falls in, rounded down to the nearest column in the
    /// defender's favour (Combat (F)); below the second column, the first ("60% or less").
    pub fn column(&self, percent: u32) -> usize {
        self.columns
            .iter()
            .rposition(|&c| c <= percent)
            .unwrap_or(0)
    }

    /// The column's name as printed (`160%`, `60% or less`).
    pub fn column_name(&self, column: usize) -> String {
        if column == 0 {
            format!("{}% or less", self.columns[0])
        } else {
            format!("{}%", self.columns[column])
        }
    }

    /// The result of a die (1..=6) in a column; `None` for a die off the table.
    pub fn result(&self, column: usize, die: u8) -> Option<CombatResult> {
        let d = usize::from(die).checked_sub(1)?;
        self.results.get(column)?.get(d).copied()
    }

    /// A column's six results, die 1 first.
    pub fn column_results(&self, column: usize) -> &[CombatResult; 6] {
        &self.results[column]
    }

    /// The chance of a result satisfying `pred` in a column, in sixths.
    pub fn sixths(&self, column: usize, pred: impl Fn(CombatResult) -> bool) -> u32 {
        self.results[column].iter().filter(|r| pred(**r)).count() as u32
    }
}
