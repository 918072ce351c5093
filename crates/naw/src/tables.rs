//! The printed tables as data: the Combat Results Table (7.6) and the movement and combat
//! columns of the Terrain Effects Chart (9.0).

use hexmap::Terrain;

/// A combat result (7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CombatResult {
    /// Attacker eliminated.
    Ae,
    /// Attacker retreats one hex.
    Ar,
    /// Defender retreats one hex.
    Dr,
    /// Defender eliminated.
    De,
    /// Exchange: defenders eliminated, attacker loses at least as much printed strength.
    Ex,
}

impl CombatResult {
    /// All results, in table order of appearance.
    pub const ALL: [CombatResult; 5] = [
        CombatResult::Ae,
        CombatResult::Ar,
        CombatResult::Dr,
        CombatResult::De,
        CombatResult::Ex,
    ];

    /// The printed abbreviation.
    pub fn name(self) -> &'static str {
        match self {
            CombatResult::Ae => "Ae",
            CombatResult::Ar => "Ar",
            CombatResult::Dr => "Dr",
            CombatResult::De => "De",
            CombatResult::Ex => "Ex",
        }
    }

    /// A one-line explanation in our words.
    pub fn explain(self) -> &'static str {
        match self {
            CombatResult::Ae => "every attacking unit is eliminated (bombarding artillery excepted)",
            CombatResult::Ar => "every attacking unit retreats one hex",
            CombatResult::Dr => "every defending unit retreats one hex",
            CombatResult::De => "every defending unit is eliminated",
            CombatResult::Ex => {
                "the defenders are eliminated; the attacker loses units of at least equal printed strength"
            }
        }
    }
}

/// An odds column of the CRT, 0 = `1-5` .. 9 = `6-1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

/// The column names, in order.
pub const COLUMN_NAMES: [&str; 10] = [
    "1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1",
];

impl Column {
    /// The column for `attack` strength points against `defence` (7.0 and the project's ruling
    /// on ratios): rounded in the defender's favour, capped at 6-1 and 1-5 (7.6).
    pub fn of(attack: u32, defence: u32) -> Column {
        if defence == 0 {
            return Column(9);
        }
        if attack == 0 {
            return Column(0);
        }
        if attack >= defence {
            Column((3 + attack / defence).min(9) as u8)
        } else {
            let k = defence.div_ceil(attack);
            Column(5u32.saturating_sub(k) as u8)
        }
    }

    /// The printed name (`3-1`).
    pub fn name(self) -> &'static str {
        COLUMN_NAMES
            .get(self.0 as usize)
            .copied()
            .unwrap_or("(no such column)")
    }

    /// Parses a printed name.
    pub fn parse(s: &str) -> Option<Column> {
        COLUMN_NAMES
            .iter()
            .position(|&n| n == s.trim())
            .map(|i| Column(i as u8))
    }
}

use CombatResult::*;

/// The Combat Results Table (7.6): `CRT[die - 1][column]`.
pub const CRT: [[CombatResult; 10]; 6] = [
    [Ar, Ar, Dr, Dr, Dr, Dr, Dr, De, De, De],
    [Ar, Ar, Ar, Dr, Dr, Dr, Dr, Dr, De, De],
    [Ae, Ar, Ar, Ar, Dr, Dr, Dr, Dr, Dr, De],
    [Ae, Ar, Ar, Ar, Ar, Dr, Dr, Dr, Dr, Dr],
    [Ae, Ae, Ar, Ar, Ar, Ar, Dr, Dr, Ex, Ex],
    [Ae, Ae, Ae, Ar, Ar, Ar, Ar, Ex, Ex, Ex],
];

/// The result of a die on a column.
pub fn crt(column: Column, die: u8) -> CombatResult {
    CRT[(die.clamp(1, 6) - 1) as usize][column.0 as usize]
}

/// The probability of each result on a column, in [`CombatResult::ALL`] order.
pub fn probabilities(column: Column) -> [f64; 5] {
    let mut p = [0.0; 5];
    for die in 1..=6 {
        let r = crt(column, die);
        let i = CombatResult::ALL.iter().position(|&x| x == r).unwrap_or(0);
        p[i] += 1.0 / 6.0;
    }
    p
}

/// Half movement points to enter a hex of this terrain through a hexside with no road or
/// trail (9.0); `None` where entry is prohibited that way (marsh).
pub const fn entry_cost_half(t: Terrain) -> Option<u16> {
    match t {
        Terrain::Clear | Terrain::Town => Some(2),
        Terrain::Forest | Terrain::Rough => Some(4),
        Terrain::Marsh => None,
    }
}

/// True where a defender in the hex is doubled (9.0: rough, marsh, town).
pub const fn doubles_defender(t: Terrain) -> bool {
    matches!(t, Terrain::Rough | Terrain::Marsh | Terrain::Town)
}

/// True where the hex blocks line of sight (8.33: forest and town).
pub const fn blocks_sight(t: Terrain) -> bool {
    matches!(t, Terrain::Forest | Terrain::Town)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_7_0_thirteen_against_four_is_three_to_one() {
        assert_eq!(Column::of(13, 4).name(), "3-1");
    }

    #[test]
    fn ratios_round_in_the_defenders_favour() {
        assert_eq!(Column::of(5, 11).name(), "1-3");
        assert_eq!(Column::of(10, 10).name(), "1-1");
        assert_eq!(Column::of(9, 10).name(), "1-2");
        assert_eq!(Column::of(70, 10).name(), "6-1");
        assert_eq!(Column::of(1, 10).name(), "1-5");
        assert_eq!(Column::of(19, 10).name(), "1-1");
        assert_eq!(Column::of(20, 10).name(), "2-1");
    }

    #[test]
    fn crt_rows_sum_to_one() {
        for c in 0..10 {
            let p = probabilities(Column(c));
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert_eq!(crt(Column(9), 1), CombatResult::De);
        assert_eq!(crt(Column(0), 6), CombatResult::Ae);
    }

    #[test]
    fn column_names_round_trip() {
        for c in 0..10 {
            assert_eq!(Column::parse(Column(c).name()), Some(Column(c)));
        }
    }
}
