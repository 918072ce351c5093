//! The arithmetic of one combat between cavalry or infantry ([9.4.1]): the odds column from
//! the strengths, the column shifts for combined arms, flank and rear, the defender doubled by
//! terrain ([9.6], [18]), the modifiers to the random number (generals [9.2], terrain [18],
//! infantry firing into a square [9.4.1]) and the chance of each result.

use crate::crt::{CombatResult, Crt};
use crate::prob::{Draw, Modifier};

/// Through which of the defender's sides the attack strikes ([9.4.1]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Direction {
    /// Its front: no shift.
    #[default]
    Front,
    /// A flank: one column.
    Flank,
    /// Its rear: two columns.
    Rear,
}

/// The column shifts and modifiers of `[shifts]` and `[modifiers]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatRules {
    /// Columns for an attack by two arms on one unit ([9.4.1]: 1).
    pub two_arms: i32,
    /// Columns for an attack by all three arms ([9.4.1]: 2).
    pub three_arms: i32,
    /// Columns for an attack from a flank ([9.4.1]: 1).
    pub flank: i32,
    /// Columns for an attack from the rear ([9.4.1]: 2).
    pub rear: i32,
    /// Added to the random number by a general who survived his test ([9.2]: +0.100).
    pub general: Modifier,
    /// By Napoleon or another key commander ([9.2]: +0.200).
    pub senior_general: Modifier,
    /// By infantry attacking infantry in square ([9.4.1]: +0.100).
    pub infantry_against_square: Modifier,
}

impl CombatRules {
    /// The generals' bonus of one side: each surviving general's added (ruling HM6).
    pub fn generals(&self, generals: u32, senior: u32) -> Modifier {
        self.general * generals as i32 + self.senior_general * senior as i32
    }
}

/// What the arithmetic needs to know of one combat; the game fills it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CombatSituation {
    /// The attackers' total strength ([9.4.1], [9.10.2]; [`crate::army::strength`]).
    pub attack: u32,
    /// The defenders' total strength, before terrain.
    pub defence: u32,
    /// How many arms (infantry, cavalry, artillery) the attack combines on one unit: 1, 2, 3.
    pub arms: u8,
    /// Where the attack strikes.
    pub direction: Direction,
    /// The terrain multiplier of the defender (1, or 2 in a town or fortification: [18]).
    pub defence_multiplier: u32,
    /// Surviving generals with the attackers (ordinary, senior).
    pub attacker_generals: (u32, u32),
    /// Surviving generals with the defenders (ordinary, senior).
    pub defender_generals: (u32, u32),
    /// The terrain's modifier to the attacker's number ([18]: -0.100 against troops in a
    /// forest, rough, fortified or at the top of a slope; +0.100 for troops attacking down
    /// a slope): [`crate::terrain::TerrainChart::combat_modifier`].
    pub terrain: Modifier,
    /// Infantry attacking infantry in square ([9.4.1]).
    pub infantry_against_square: bool,
}

/// One reason the column moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shift {
    /// Two or three arms combined ([9.4.1]).
    CombinedArms(u8),
    /// From a flank or the rear ([9.4.1]).
    Direction(Direction),
}

/// The odds of one combat, before the die.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assessment {
    /// The defence after terrain.
    pub defence: u32,
    /// The column of the strengths alone.
    pub base_column: usize,
    /// The shifts applied, each with its columns.
    pub shifts: Vec<(Shift, i32)>,
    /// The column read, after the shifts, held at the table's edges.
    pub column: usize,
    /// The modifier to the attacker's random number, all reasons summed.
    pub modifier: Modifier,
}

/// Assesses a combat ([9.4.1]): `None` when there is no defence to compare with.
/// Shifts add (combined arms with direction, ruling HM5); generals on both sides count, the
/// defender's taken off the attacker's number (HM6).
pub fn assess(crt: &Crt, rules: &CombatRules, s: &CombatSituation) -> Option<Assessment> {
    let defence = s.defence.saturating_mul(s.defence_multiplier.max(1));
    let base_column = crt.column(s.attack, defence)?;
    let mut shifts = Vec::new();
    match s.arms {
        2 => shifts.push((Shift::CombinedArms(2), rules.two_arms)),
        a if a >= 3 => shifts.push((Shift::CombinedArms(3), rules.three_arms)),
        _ => {}
    }
    match s.direction {
        Direction::Front => {}
        Direction::Flank => shifts.push((Shift::Direction(Direction::Flank), rules.flank)),
        Direction::Rear => shifts.push((Shift::Direction(Direction::Rear), rules.rear)),
    }
    let total: i32 = shifts.iter().map(|(_, n)| n).sum();
    let column = crt.shifted(base_column, total);
    let mut modifier = rules.generals(s.attacker_generals.0, s.attacker_generals.1)
        - rules.generals(s.defender_generals.0, s.defender_generals.1)
        + s.terrain;
    if s.infantry_against_square {
        modifier += rules.infantry_against_square;
    }
    Some(Assessment {
        defence,
        base_column,
        shifts,
        column,
        modifier,
    })
}

impl Assessment {
    /// The result of the attacker's draw.
    pub fn result(&self, crt: &Crt, draw: Draw) -> CombatResult {
        crt.result(self.column, draw, self.modifier)
    }

    /// The chance of each result in thousandths (they add up to 1000), attacker's worst
    /// first: for the board's odds and the computer players.
    pub fn chances(&self, crt: &Crt) -> Vec<(CombatResult, u32)> {
        crt.bands(self.column).weights(self.modifier)
    }
}
