//! The combat odds and the Combat Results Table ([9.4.1], [15] and [23], the odds table
//! [22]), and the results it gives ([9.8.1]-[9.8.7]). The text names the table but does not
//! print it: ours is data (`[odds]`, `[crt]` of `data/hex-miniatures.toml`), reconstructed in
//! `docs/hex-miniatures.md` (rulings HM1-HM8).

use crate::prob::{Bands, Draw, Modifier};
use std::fmt;

/// A combat result ([9.8]): in the attacker's order from worst to best, as the text lists
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CombatResult {
    /// `Ar`, attacker routed ([9.8.1]): one base unit lost, the rest rout.
    Ar,
    /// `Aw`, attacker retires ([9.8.2]): disrupted and withdraws facing the enemy; already
    /// disrupted, one base unit lost and the rest rout.
    Aw,
    /// `Ad`, attacker disrupted ([9.8.3]); already disrupted, one base unit lost and a rout.
    Ad,
    /// `Dx`, disruption exchanged ([9.8.4]): both sides disrupted; a side already disrupted
    /// loses a base unit (the attacker holds its ground, the defender routs).
    Dx,
    /// `Dd`, defender disrupted ([9.8.5]); already disrupted, one base unit lost and a rout.
    Dd,
    /// `Dw`, defender retires ([9.8.6]).
    Dw,
    /// `Dr`, defender routed ([9.8.7]).
    Dr,
}

impl CombatResult {
    /// All seven, attacker's worst first.
    pub const ALL: [CombatResult; 7] = [
        CombatResult::Ar,
        CombatResult::Aw,
        CombatResult::Ad,
        CombatResult::Dx,
        CombatResult::Dd,
        CombatResult::Dw,
        CombatResult::Dr,
    ];

    /// Reads `Ar`, `Aw`, `Ad`, `Dx`, `Dd`, `Dw`, `Dr`.
    pub fn parse(s: &str) -> Result<CombatResult, String> {
        CombatResult::ALL
            .into_iter()
            .find(|r| r.to_string() == s)
            .ok_or_else(|| format!("'{s}': a combat result is Ar, Aw, Ad, Dx, Dd, Dw or Dr"))
    }

    /// Whether it touches the attacker (Ar, Aw, Ad, Dx).
    pub fn touches_attacker(self) -> bool {
        self <= CombatResult::Dx
    }

    /// Whether it touches the defender (Dx, Dd, Dw, Dr).
    pub fn touches_defender(self) -> bool {
        self >= CombatResult::Dx
    }
}

impl fmt::Display for CombatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CombatResult::Ar => "Ar",
            CombatResult::Aw => "Aw",
            CombatResult::Ad => "Ad",
            CombatResult::Dx => "Dx",
            CombatResult::Dd => "Dd",
            CombatResult::Dw => "Dw",
            CombatResult::Dr => "Dr",
        })
    }
}

/// An odds column ([22]): attack to defence, `a:d` with one side 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    /// The attacker's part.
    pub attack: u32,
    /// The defender's part.
    pub defence: u32,
}

impl Ratio {
    /// Reads `3:1`, `1:2` (one side must be 1).
    pub fn parse(s: &str) -> Result<Ratio, String> {
        let bad = || format!("'{s}': an odds column is written a:1 or 1:d");
        let (a, d) = s.trim().split_once(':').ok_or_else(bad)?;
        let attack: u32 = a.trim().parse().map_err(|_| bad())?;
        let defence: u32 = d.trim().parse().map_err(|_| bad())?;
        if attack == 0 || defence == 0 || (attack != 1 && defence != 1) {
            return Err(bad());
        }
        Ok(Ratio { attack, defence })
    }

    /// Whether `attack` strength against `defence` is at least these odds.
    pub fn reached_by(self, attack: u32, defence: u32) -> bool {
        u64::from(attack) * u64::from(self.defence) >= u64::from(defence) * u64::from(self.attack)
    }

    fn key(self) -> (u64, u64) {
        (u64::from(self.attack), u64::from(self.defence))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.attack, self.defence)
    }
}

/// The Combat Results Table ([15], [23]): one band table per odds column ([22]), read by the
/// attacker's random number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crt {
    columns: Vec<Ratio>,
    bands: Vec<Bands<CombatResult>>,
}

impl Crt {
    /// Builds the table from its columns (strictly increasing odds) and one band table per
    /// column whose results run in the attacker's order, worst first (ruling HM2).
    pub fn new(columns: Vec<Ratio>, bands: Vec<Bands<CombatResult>>) -> Result<Crt, String> {
        if columns.is_empty() {
            return Err("no odds columns".into());
        }
        if columns.len() != bands.len() {
            return Err(format!(
                "{} columns but {} band tables",
                columns.len(),
                bands.len()
            ));
        }
        for w in columns.windows(2) {
            let ((a0, d0), (a1, d1)) = (w[0].key(), w[1].key());
            if a0 * d1 >= a1 * d0 {
                return Err(format!(
                    "odds columns must increase: {} then {}",
                    w[0], w[1]
                ));
            }
        }
        for (c, b) in columns.iter().zip(&bands) {
            if b.results().windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!(
                    "column {c}: results must run Ar, Aw, Ad, Dx, Dd, Dw, Dr (each at most once)"
                ));
            }
        }
        Ok(Crt { columns, bands })
    }

    /// The number of columns.
    pub fn columns(&self) -> usize {
        self.columns.len()
    }

    /// A column's odds.
    pub fn ratio(&self, column: usize) -> Ratio {
        self.columns[column]
    }

    /// The index of a column by its name (`3:1`).
    pub fn column_named(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|r| r.to_string() == name)
    }

    /// A column's bands.
    pub fn bands(&self, column: usize) -> &Bands<CombatResult> {
        &self.bands[column]
    }

    /// The column of `attack` strength against `defence` ([9.4.1], [22]): the highest column
    /// the ratio reaches, rounded in the defender's favour (13 against 4 is 3.25, read on
    /// 3:1); below the first column, the first (ruling HM4). `None` when the defence is 0.
    pub fn column(&self, attack: u32, defence: u32) -> Option<usize> {
        if defence == 0 {
            return None;
        }
        Some(
            self.columns
                .iter()
                .rposition(|r| r.reached_by(attack, defence))
                .unwrap_or(0),
        )
    }

    /// A column moved `shift` columns right, held at the table's edges ([9.4.1], HM4).
    pub fn shifted(&self, column: usize, shift: i32) -> usize {
        (column as i64 + i64::from(shift)).clamp(0, self.columns.len() as i64 - 1) as usize
    }

    /// The result of a draw in a column with a modifier.
    pub fn result(&self, column: usize, draw: Draw, m: Modifier) -> CombatResult {
        self.bands[column].result(draw, m)
    }
}
