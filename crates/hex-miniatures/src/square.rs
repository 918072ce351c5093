//! Cavalry attacking infantry in square ([8.1.1], [9.3], [20]): the cavalry draws, and the
//! square's state (ordered or disrupted) picks the column. The text names the table but does
//! not print it: ours is data (`[square]`).

use crate::prob::{Bands, Draw, Modifier};

/// What a charge on a square comes to ([9.3.2], [9.3.3], [9.3.5]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SquareResult {
    /// The cavalry is disrupted by the square's fire; already disrupted, it loses a base unit
    /// and routs ([9.3.2]).
    Repulsed,
    /// The square holds and the cavalry stays in contact: it must charge again in each of
    /// its following combat phases until one side breaks ([9.3.5]).
    Holds,
    /// The square is broken: the whole battalion is removed ([9.3.3]).
    Broken,
}

impl SquareResult {
    /// Reads `repulsed`, `holds`, `broken`.
    pub fn parse(s: &str) -> Result<SquareResult, String> {
        match s {
            "repulsed" => Ok(SquareResult::Repulsed),
            "holds" => Ok(SquareResult::Holds),
            "broken" => Ok(SquareResult::Broken),
            _ => Err(format!(
                "'{s}': a square result is repulsed, holds or broken"
            )),
        }
    }
}

/// The square attack table ([20]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareTable {
    /// Against a square formed by ordered infantry.
    pub ordered: Bands<SquareResult>,
    /// Against a square formed by disrupted infantry.
    pub disordered: Bands<SquareResult>,
}

impl SquareTable {
    /// The column of a square by its infantry's state ([9.3.1]).
    pub fn column(&self, disordered: bool) -> &Bands<SquareResult> {
        if disordered {
            &self.disordered
        } else {
            &self.ordered
        }
    }

    /// The result of the cavalry's draw with its modifier (its generals less the square's:
    /// [9.2], ruling HM6).
    pub fn charge(&self, disordered: bool, draw: Draw, m: Modifier) -> SquareResult {
        self.column(disordered).result(draw, m)
    }

    /// The chance of each result (thousandths, adding up to 1000).
    pub fn chances(&self, disordered: bool, m: Modifier) -> Vec<(SquareResult, u32)> {
        self.column(disordered).weights(m)
    }
}
