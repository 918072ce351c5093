//! Artillery fire by range ([9.1.2], [21]): a foot or horse battery fires on one visible unit
//! at a range in hexes; the table, by range, gives what the fire does. The text names the
//! table but does not print it: ours is data (`[artillery.foot]`, `[artillery.horse]`).

use crate::prob::{Bands, Draw, Modifier};
use std::fmt;

/// What a battery's fire does to its target ([9.1.2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FireResult {
    /// No effect (`-`).
    NoEffect,
    /// The target is disrupted (`D`, as the CRT's Dd: already disrupted, it loses a base unit
    /// and routs, [9.8.5]).
    Disrupted,
    /// The target loses one base unit (`L`), counted in the victory table ([12]).
    Loss,
    /// It loses one base unit and is disrupted (`LD`).
    LossDisrupted,
}

impl FireResult {
    /// Reads `-`, `D`, `L`, `LD`.
    pub fn parse(s: &str) -> Result<FireResult, String> {
        match s {
            "-" => Ok(FireResult::NoEffect),
            "D" => Ok(FireResult::Disrupted),
            "L" => Ok(FireResult::Loss),
            "LD" => Ok(FireResult::LossDisrupted),
            _ => Err(format!("'{s}': a fire result is -, D, L or LD")),
        }
    }

    /// The base units it removes.
    pub fn losses(self) -> u8 {
        matches!(self, FireResult::Loss | FireResult::LossDisrupted) as u8
    }

    /// Whether it disrupts the target.
    pub fn disrupts(self) -> bool {
        matches!(self, FireResult::Disrupted | FireResult::LossDisrupted)
    }
}

impl fmt::Display for FireResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FireResult::NoEffect => "-",
            FireResult::Disrupted => "D",
            FireResult::Loss => "L",
            FireResult::LossDisrupted => "LD",
        })
    }
}

/// A battery's kind for the table ([2.4.5.2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Battery {
    /// Foot artillery: the greater effect.
    Foot,
    /// Horse artillery: the lesser effect.
    Horse,
}

/// The artillery table ([21]): for each kind of battery, one band table per range in hexes,
/// from the nearest range it fires at to its longest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtilleryTable {
    /// Foot batteries: (range, bands), ranges increasing by one.
    pub foot: Vec<(u8, Bands<FireResult>)>,
    /// Horse batteries.
    pub horse: Vec<(u8, Bands<FireResult>)>,
}

impl ArtilleryTable {
    /// The ranges of a battery.
    pub fn rows(&self, b: Battery) -> &[(u8, Bands<FireResult>)] {
        match b {
            Battery::Foot => &self.foot,
            Battery::Horse => &self.horse,
        }
    }

    /// The bands at a range; `None` out of the battery's range (it may not fire).
    pub fn at_range(&self, b: Battery, range: u8) -> Option<&Bands<FireResult>> {
        self.rows(b)
            .iter()
            .find(|(r, _)| *r == range)
            .map(|(_, t)| t)
    }

    /// The battery's longest range.
    pub fn max_range(&self, b: Battery) -> u8 {
        self.rows(b).iter().map(|(r, _)| *r).max().unwrap_or(0)
    }

    /// The result of a draw at a range with a modifier (generals [9.2], terrain [18],
    /// [9.1.3]); `None` out of range.
    pub fn fire(&self, b: Battery, range: u8, draw: Draw, m: Modifier) -> Option<FireResult> {
        self.at_range(b, range).map(|t| t.result(draw, m))
    }

    /// The chance of each result at a range with a modifier (thousandths, adding up to 1000).
    pub fn chances(&self, b: Battery, range: u8, m: Modifier) -> Option<Vec<(FireResult, u32)>> {
        self.at_range(b, range).map(|t| t.weights(m))
    }
}
