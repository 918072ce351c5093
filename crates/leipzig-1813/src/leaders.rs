//! The leaders (Leaders): ten a side, numbered by seniority as their counters are, each with an
//! offensive and a defensive bonus, the most he adds to the units he is stacked with. Only
//! Napoleon's (25) is printed; the others are ours, each with its reason in
//! `docs/leipzig-1813.md` (ruling L10).

use serde::Deserialize;

/// One leader as written in `[[leaders]]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leader {
    /// `French` or `Allied`.
    pub side: String,
    /// His counter's number, 1..=10, by seniority (the Designer's Notes).
    pub number: u8,
    /// Who we take him to be.
    pub name: String,
    /// The most he adds to an attack (Leaders (B)).
    pub offence: u32,
    /// The most he adds to a defence, before terrain multiplies it (Leaders (B)).
    pub defence: u32,
}

/// The two sides, as the data names them.
pub const SIDES: [&str; 2] = ["French", "Allied"];

/// How many leaders each side has (Leaders, General Rule).
pub const PER_SIDE: u8 = 10;
