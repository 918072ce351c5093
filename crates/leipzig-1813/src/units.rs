//! The counters (The Playing Pieces; Stacking and Unit Breakdown (E)): every kind of unit with
//! its printed strength and movement allowance, what it breaks down into, and each side's
//! nationalities and counter limits, as replaceable data (`data/units.toml`).
//!
//! A chart counts divisions: an infantry corps is worth two, an army six (the rulebook's six
//! 2-5s that combine into an 18-2, Stacking (E); ruling L16), a cavalry corps two; a depot is
//! worth two supply units (Supply, Procedure). Break-downs keep that worth, not the printed
//! strength: three 5-4s are 15 points against the army's 18 (L16).

use crate::data::DataError;
use serde::Deserialize;

/// The file's format tag.
pub const FORMAT: &str = "grognard-leipzig-1813-units/1";

/// What a counter is (The Playing Pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arm {
    /// Infantry divisions, corps and armies: partial zones of control.
    Infantry,
    /// Cavalry divisions and corps: total zones of control.
    Cavalry,
    /// A supply unit (Supply).
    Supply,
    /// A depot, two supply units in one (Supply, Procedure).
    Depot,
    /// A leader (Leaders).
    Leader,
}

impl Arm {
    /// A combat unit: counts for stacking and exerts a zone of control (Stacking (A)).
    pub fn is_combat(self) -> bool {
        matches!(self, Arm::Infantry | Arm::Cavalry)
    }
}

/// One step of a break-down: one counter of this kind becomes `count` counters of `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Breakdown {
    /// The kind one step down.
    pub kind: String,
    /// How many of it.
    pub count: u32,
}

/// A kind of counter with its printed values, the same for both sides (Stacking (E)).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitKind {
    /// Identifier (`infantry-corps`).
    pub id: String,
    /// Name for people, with the printed values (`infantry corps (5-4)`).
    pub name: String,
    /// Infantry, cavalry, supply, depot or leader.
    pub arm: Arm,
    /// `division`, `corps` or `army` for combat units.
    #[serde(default)]
    pub echelon: Option<String>,
    /// The printed combat strength (a leader's strength alone, Leaders (C)).
    pub strength: u32,
    /// The strength is printed in parentheses: used only in defence, alone (Combat (L)).
    #[serde(default)]
    pub defence_only: bool,
    /// The printed movement allowance.
    pub movement: u32,
    /// How many of its arm's smallest counter it stands for: divisions, or supply units.
    pub worth: u32,
    /// The kind one step down, if it breaks down (Stacking (E)).
    #[serde(default)]
    pub breaks_into: Option<Breakdown>,
}

/// One side's nationalities and counter limits.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideCounters {
    /// `French` or `Allied`.
    pub name: String,
    /// The nationalities of its counters (The Playing Pieces, Unit Origin).
    pub nationalities: Vec<String>,
    /// Supply units it has at most in play (Supply (E): ten a colour).
    pub supply: u32,
    /// Its leaders (Leaders: ten a side).
    pub leaders: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    kind: Vec<UnitKind>,
    side: Vec<SideCounters>,
}

/// The counters: every kind and each side's limits, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Units {
    /// Every kind, as the file lists them.
    pub kinds: Vec<UnitKind>,
    /// The two sides, French first.
    pub sides: Vec<SideCounters>,
    /// XXH3 of the file's text (for a game's scenario digest).
    pub digest: u64,
}

impl Units {
    /// The shipped counters file.
    pub const UNITS_TOML: &'static str = include_str!("../data/units.toml");

    /// The shipped counters.
    pub fn leipzig() -> Units {
        Units::from_toml(Units::UNITS_TOML).expect("the shipped data/units.toml is valid")
    }

    /// Reads and validates a counters file; every problem is reported, one a line.
    pub fn from_toml(text: &str) -> Result<Units, DataError> {
        let f: File =
            toml::from_str(text).map_err(|e| DataError(vec![format!("units data: {e}")]))?;
        let mut errs = Vec::new();
        if f.format != FORMAT {
            errs.push(format!("units: format '{}': expected '{FORMAT}'", f.format));
        }
        for (i, k) in f.kind.iter().enumerate() {
            if f.kind[..i].iter().any(|o| o.id == k.id) {
                errs.push(format!("unit kind '{}' is given twice", k.id));
            }
            if k.worth == 0 {
                errs.push(format!("unit kind '{}': worth must be at least 1", k.id));
            }
            if k.arm.is_combat() != k.echelon.is_some() {
                errs.push(format!(
                    "unit kind '{}': combat units (and only they) have an echelon",
                    k.id
                ));
            }
            if let Some(e) = &k.echelon {
                if !["division", "corps", "army"].contains(&e.as_str()) {
                    errs.push(format!(
                        "unit kind '{}': echelon '{e}' is none of division, corps, army",
                        k.id
                    ));
                }
            }
            if k.arm.is_combat() == k.defence_only {
                errs.push(format!(
                    "unit kind '{}': only non-combat units print their strength in parentheses \
                     (Combat (L))",
                    k.id
                ));
            }
            if let Some(b) = &k.breaks_into {
                match f.kind.iter().find(|o| o.id == b.kind) {
                    None => errs.push(format!(
                        "unit kind '{}' breaks into '{}', which is no kind",
                        k.id, b.kind
                    )),
                    Some(into) => {
                        if b.count < 2 {
                            errs.push(format!(
                                "unit kind '{}': a break-down gives at least two counters",
                                k.id
                            ));
                        }
                        let same_arm =
                            into.arm == k.arm || (k.arm == Arm::Depot && into.arm == Arm::Supply);
                        if !same_arm {
                            errs.push(format!(
                                "unit kind '{}' ({:?}) breaks into '{}' ({:?}): another arm",
                                k.id, k.arm, into.id, into.arm
                            ));
                        }
                        // Stacking (E), L16: a break-down keeps what the charts count.
                        if into.worth.saturating_mul(b.count) != k.worth {
                            errs.push(format!(
                                "unit kind '{}' (worth {}) breaks into {} x '{}' (worth {} \
                                 each): the worth must be kept (Stacking (E))",
                                k.id, k.worth, b.count, into.id, into.worth
                            ));
                        }
                    }
                }
            } else if k.worth != 1 {
                errs.push(format!(
                    "unit kind '{}' is worth {} but breaks into nothing",
                    k.id, k.worth
                ));
            }
        }
        for arm in [Arm::Infantry, Arm::Cavalry, Arm::Supply, Arm::Leader] {
            let smallest = f
                .kind
                .iter()
                .filter(|k| k.arm == arm && k.worth == 1)
                .count();
            if smallest != 1 {
                errs.push(format!(
                    "units: {arm:?} needs exactly one smallest kind (worth 1), found {smallest}"
                ));
            }
        }
        let names: Vec<&str> = f.side.iter().map(|s| s.name.as_str()).collect();
        if names != crate::leaders::SIDES {
            errs.push(format!(
                "units: sides {names:?}: expected {:?}",
                crate::leaders::SIDES
            ));
        }
        for s in &f.side {
            if s.nationalities.is_empty() {
                errs.push(format!("units: side {} has no nationality", s.name));
            }
            for (i, n) in s.nationalities.iter().enumerate() {
                if s.nationalities[..i].contains(n) {
                    errs.push(format!("units: side {}: nationality {n} twice", s.name));
                }
            }
        }
        if !errs.is_empty() {
            return Err(DataError(errs));
        }
        Ok(Units {
            kinds: f.kind,
            sides: f.side,
            digest: engine::hash_bytes(text.as_bytes()),
        })
    }

    /// A kind by its id.
    pub fn kind(&self, id: &str) -> Option<&UnitKind> {
        self.kinds.iter().find(|k| k.id == id)
    }

    /// The smallest kind of an arm (worth 1): the infantry division, the cavalry division, the
    /// supply unit (for depots too), the leader.
    pub fn smallest(&self, arm: Arm) -> &UnitKind {
        let arm = if arm == Arm::Depot { Arm::Supply } else { arm };
        self.kinds
            .iter()
            .find(|k| k.arm == arm && k.worth == 1)
            .expect("validated: one smallest kind per arm")
    }

    /// A side's counters by name.
    pub fn side(&self, name: &str) -> Option<&SideCounters> {
        self.sides.iter().find(|s| s.name == name)
    }

    /// What a counter becomes broken down all the way (Stacking (E): an army directly into six
    /// divisions): the smallest kind and how many. `None` for an unknown kind.
    pub fn full_breakdown(&self, id: &str) -> Option<(&UnitKind, u32)> {
        let mut k = self.kind(id)?;
        let mut n = 1u32;
        // Each step gives at least two counters of a smaller worth, so this ends.
        while let Some(b) = &k.breaks_into {
            k = self.kind(&b.kind)?;
            n = n.saturating_mul(b.count);
        }
        Some((k, n))
    }

    /// The break-down steps from one kind down to another, both included (`[army, corps,
    /// division]`). Stacking (E) lets a unit break down (or combine) over several steps at
    /// once; what that costs in movement points is the game's. `None` if `to` is not below
    /// `from`.
    pub fn steps(&self, from: &str, to: &str) -> Option<Vec<&UnitKind>> {
        let mut k = self.kind(from)?;
        let mut path = vec![k];
        while k.id != to {
            k = self.kind(&k.breaks_into.as_ref()?.kind)?;
            path.push(k);
        }
        Some(path)
    }
}
