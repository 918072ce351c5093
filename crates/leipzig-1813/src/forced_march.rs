//! The Forced March Tables (Forced March; Supply (C) III): the double march (all units) and the
//! triple march (infantry only), each a first roll and lettered subsidiary tables, as
//! replaceable data (`[forced_march]` of `data/leipzig.toml`), and the chance of each way a
//! march can end.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// A forced march's multiple of the normal allowance (Forced March).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum March {
    /// Twice the allowance: any unit.
    Double,
    /// Three times the allowance: infantry only.
    Triple,
}

impl March {
    /// Whether a unit may attempt this march (Forced March: only infantry triple).
    pub fn allowed(self, infantry: bool) -> bool {
        self == March::Double || infantry
    }

    /// Movement points spent before the die is rolled: the allowance for a double march, twice
    /// it for a triple (Forced March, Procedure; the example's 2-5 moves 10 first).
    pub fn before_roll(self, allowance: u32) -> u32 {
        match self {
            March::Double => allowance,
            March::Triple => 2 * allowance,
        }
    }

    /// The most movement points the whole march may spend (less is allowed).
    pub fn total(self, allowance: u32) -> u32 {
        match self {
            March::Double => 2 * allowance,
            March::Triple => 3 * allowance,
        }
    }
}

/// One entry of a forced march table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarchEntry {
    /// `-`: no effect, the unit may finish its march.
    Proceed,
    /// `D`: the unit finishes its march and is then dispersed.
    Dispersed,
    /// `X`: the unit is destroyed.
    Destroyed,
    /// A letter (`J`...`N`): the owner may stop the march where the unit stands, with no
    /// effect, or roll again on that subsidiary table.
    Subsidiary(char),
}

impl fmt::Display for MarchEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarchEntry::Proceed => f.write_str("-"),
            MarchEntry::Dispersed => f.write_str("D"),
            MarchEntry::Destroyed => f.write_str("X"),
            MarchEntry::Subsidiary(c) => write!(f, "{c}"),
        }
    }
}

fn parse_entry(s: &str) -> Result<MarchEntry, String> {
    match s.trim() {
        "-" => Ok(MarchEntry::Proceed),
        "D" => Ok(MarchEntry::Dispersed),
        "X" => Ok(MarchEntry::Destroyed),
        t => {
            let mut cs = t.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => Ok(MarchEntry::Subsidiary(c)),
                _ => Err(format!(
                    "'{t}': expected '-', 'D', 'X' or a subsidiary table's capital letter"
                )),
            }
        }
    }
}

/// How a forced march ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarchEnd {
    /// The unit completes its march unharmed.
    Completes,
    /// The unit completes its march and is dispersed at its end.
    Dispersed,
    /// The unit is destroyed (before it finishes).
    Destroyed,
    /// The owner stopped the march on a lettered result (the unit stays where the die found
    /// it, unharmed).
    Halted,
}

/// What the owner does on a lettered result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnLetter {
    /// Always roll the subsidiary table.
    Roll,
    /// Always stop the march.
    Halt,
}

/// The chance of each way a march ends, in 36ths (two dice at most).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MarchChances {
    /// Completes unharmed.
    pub completes: u32,
    /// Completes, then dispersed.
    pub dispersed: u32,
    /// Destroyed.
    pub destroyed: u32,
    /// Halted by the owner on a lettered result.
    pub halted: u32,
}

impl MarchChances {
    /// The 36ths of one end.
    pub fn of(&self, end: MarchEnd) -> u32 {
        match end {
            MarchEnd::Completes => self.completes,
            MarchEnd::Dispersed => self.dispersed,
            MarchEnd::Destroyed => self.destroyed,
            MarchEnd::Halted => self.halted,
        }
    }

    /// The probability of one end.
    pub fn probability(&self, end: MarchEnd) -> f64 {
        f64::from(self.of(end)) / 36.0
    }

    fn add(&mut self, end: MarchEnd, n: u32) {
        match end {
            MarchEnd::Completes => self.completes += n,
            MarchEnd::Dispersed => self.dispersed += n,
            MarchEnd::Destroyed => self.destroyed += n,
            MarchEnd::Halted => self.halted += n,
        }
    }
}

/// One forced march table as written: the first roll and the lettered subsidiary tables.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarchTableFile {
    /// Six entries, die 1 first.
    pub first: Vec<String>,
    /// Each letter's six entries, die 1 first.
    #[serde(default)]
    pub subsidiary: BTreeMap<String, Vec<String>>,
}

/// Both tables as written (`[forced_march]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForcedMarchFile {
    /// The double allowance table.
    pub double: MarchTableFile,
    /// The triple allowance table.
    pub triple: MarchTableFile,
}

/// One validated forced march table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarchTable {
    first: [MarchEntry; 6],
    subsidiary: BTreeMap<char, [MarchEntry; 6]>,
}

fn six(name: &str, v: &[String], letters: bool) -> Result<[MarchEntry; 6], String> {
    if v.len() != 6 {
        return Err(format!(
            "{name}: {} entries, expected 6 (die 1 first)",
            v.len()
        ));
    }
    let mut out = [MarchEntry::Proceed; 6];
    for (i, s) in v.iter().enumerate() {
        let e = parse_entry(s).map_err(|e| format!("{name}, die {}: {e}", i + 1))?;
        if !letters && matches!(e, MarchEntry::Subsidiary(_)) {
            return Err(format!(
                "{name}, die {}: a subsidiary table leads to no further table",
                i + 1
            ));
        }
        out[i] = e;
    }
    Ok(out)
}

impl MarchTable {
    /// Validates a table: six entries a roll, every letter of the first roll has its
    /// subsidiary table, every subsidiary table is named by one capital letter, is reached and
    /// leads to no further letter.
    pub fn from_file(name: &str, f: &MarchTableFile) -> Result<MarchTable, String> {
        let first = six(&format!("{name} first roll"), &f.first, true)?;
        let mut subsidiary = BTreeMap::new();
        for (k, v) in &f.subsidiary {
            let mut cs = k.chars();
            let c = match (cs.next(), cs.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => c,
                _ => {
                    return Err(format!(
                        "{name}: subsidiary table '{k}' must be named by one capital letter"
                    ))
                }
            };
            if !first.contains(&MarchEntry::Subsidiary(c)) {
                return Err(format!(
                    "{name}: subsidiary table {c} is never reached by the first roll"
                ));
            }
            subsidiary.insert(c, six(&format!("{name} table {c}"), v, false)?);
        }
        for e in first {
            if let MarchEntry::Subsidiary(c) = e {
                if !subsidiary.contains_key(&c) {
                    return Err(format!(
                        "{name}: the first roll leads to table {c}, which is missing"
                    ));
                }
            }
        }
        Ok(MarchTable { first, subsidiary })
    }

    /// The first roll's entry for a die (1..=6).
    pub fn first(&self, die: u8) -> Option<MarchEntry> {
        self.first.get(usize::from(die).checked_sub(1)?).copied()
    }

    /// A subsidiary table's entry for a die (1..=6).
    pub fn subsidiary(&self, letter: char, die: u8) -> Option<MarchEntry> {
        self.subsidiary
            .get(&letter)?
            .get(usize::from(die).checked_sub(1)?)
            .copied()
    }

    /// The letters of the subsidiary tables.
    pub fn letters(&self) -> impl Iterator<Item = char> + '_ {
        self.subsidiary.keys().copied()
    }

    /// The chance of each end of a march on this table, the owner stopping or rolling on every
    /// letter as `on_letter` says.
    pub fn chances(&self, on_letter: OnLetter) -> MarchChances {
        self.chances_by(|_| on_letter)
    }

    /// The chance of each end of a march on this table, the owner deciding letter by letter
    /// (rolling on J but stopping on K, say).
    pub fn chances_by(&self, on_letter: impl Fn(char) -> OnLetter) -> MarchChances {
        let end = |e: MarchEntry| match e {
            MarchEntry::Proceed => MarchEnd::Completes,
            MarchEntry::Dispersed => MarchEnd::Dispersed,
            MarchEntry::Destroyed => MarchEnd::Destroyed,
            MarchEntry::Subsidiary(_) => MarchEnd::Halted,
        };
        let mut c = MarchChances::default();
        for e in self.first {
            match e {
                MarchEntry::Subsidiary(l) if on_letter(l) == OnLetter::Roll => {
                    for s in self.subsidiary[&l] {
                        c.add(end(s), 1);
                    }
                }
                _ => c.add(end(e), 6),
            }
        }
        c
    }
}

/// Both forced march tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedMarchTables {
    /// Double allowance, all units.
    pub double: MarchTable,
    /// Triple allowance, infantry only.
    pub triple: MarchTable,
}

impl ForcedMarchTables {
    /// Validates both tables.
    pub fn from_file(f: &ForcedMarchFile) -> Result<ForcedMarchTables, String> {
        Ok(ForcedMarchTables {
            double: MarchTable::from_file("double", &f.double)?,
            triple: MarchTable::from_file("triple", &f.triple)?,
        })
    }

    /// A march's table.
    pub fn table(&self, march: March) -> &MarchTable {
        match march {
            March::Double => &self.double,
            March::Triple => &self.triple,
        }
    }

    /// The chance of each end of a march. A march supported by a supply unit rolls on no table
    /// (Supply (C) III): it always completes, as does the first French march from Gotha in the
    /// spring scenarios and the campaign (its special rule).
    pub fn chances(&self, march: March, supported: bool, on_letter: OnLetter) -> MarchChances {
        if supported {
            return MarchChances {
                completes: 36,
                ..MarchChances::default()
            };
        }
        self.table(march).chances(on_letter)
    }
}
