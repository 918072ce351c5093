//! Leipzig: Napoleon vs Europe 1813 (SPI, 1971, second edition with the Moves 14 errata), the
//! strategic game of the spring and summer campaigns: its rules crate. It owns the game's
//! tables as replaceable data, their pure arithmetic, and the game itself ([`Game`], its
//! [`Action`]s and [`Event`]s, `engine::Rules`).
//!
//! - [`game`]: the state, the set-up, the turn sequence, movement with break-down and
//!   build-up, forced march, supply, combat and the special rules, as `engine::Rules` (seats 0
//!   the French, 1 the Allies; the action grammar is in the module's documentation).
//! - [`board`]: the map's terrain effects as the rules read them, hex by hex.
//! - [`crt`]: the Combat Results Table (our reconstruction of the scan's garbled columns) and
//!   its results: scatter, dispersal with retreats, destruction, the half exchange, Auto.
//! - [`odds`]: strengths out of supply, terrain, leader bonuses, the percentage and its
//!   column, the river's floor, the automatic elimination at 500% and the bar on retreat
//!   before combat.
//! - [`forced_march`]: both forced march tables with their subsidiary rolls and the chance of
//!   each end of a march.
//! - [`leaders`]: ten leaders a side with their offensive and defensive bonuses.
//! - [`terrain`]: the Terrain Effects Chart for the central Europe map's legend kinds.
//! - [`victory`]: the Victory Point Schedule.
//! - [`data`]: the data file (`data/leipzig.toml`) that holds all of them.
//! - [`units`]: the counters (`data/units.toml`): printed values, break-downs, each side's
//!   nationalities and limits.
//! - [`europe`]: the central Europe map as the scenarios read it: places by the rulebook's
//!   names, radii, Austria, the armistice line's sides, the edges' entry stretches.
//! - [`scenario`]: the eight scenarios (`data/scenarios/N.toml`) with the reinforcement chart
//!   (`data/reinforcements.toml`) and their special rules, resolved on the map.
//!
//! The rulebook numbers no cases: the code cites its sections and lettered cases (`Combat
//! (F)`, `Supply (A)`, `Leaders (B)`, `TEC River hexside`, `CRT Auto`) and our rulings `L1`...
//! (`docs/rulings.md`); `docs/leipzig-1813.md` gives every figure its reason.
//!
//! ```
//! use leipzig_1813::data::Tables;
//! use leipzig_1813::odds::{attack_strength, defence_strength, odds};
//!
//! let t = Tables::leipzig();
//! // How to use the CRT: a supplied 5-4 against a supplied 3-7 is 166%, the 160% column.
//! let o = odds(&t.crt, attack_strength(&[5], true, &[]), defence_strength(&[3], true, 1, &[]), 0)
//!     .unwrap();
//! assert_eq!(t.crt.column_name(o.column), "160%");
//! // Leaders: Napoleon (25) adds 18 to one 18-2, all 25 to two.
//! let napoleon = t.leader("French", 1).unwrap().offence;
//! assert_eq!(attack_strength(&[18], true, &[napoleon]), 36);
//! assert_eq!(attack_strength(&[18, 18], true, &[napoleon]), 61);
//! ```
//!
//! A game: the Allies place their set-up first, then the French move first.
//!
//! ```
//! use engine::{Rules, Side, ToAct};
//! use leipzig_1813::{data::Tables, scenario::Scenario, Game};
//!
//! let g = Game::new(&Scenario::leipzig(1).unwrap(), &Tables::leipzig()).unwrap();
//! assert_eq!(g.seat_name(Side(0)), "French");
//! assert_eq!(g.to_act(), ToAct::Side(Side(1)));
//! ```

mod battle;
pub mod board;
pub mod crt;
pub mod data;
pub mod europe;
pub mod forced_march;
pub mod game;
pub mod leaders;
mod movement;
pub mod odds;
pub mod scenario;
pub mod seen;
mod setup;
mod special;
pub mod terrain;
pub mod units;
pub mod victory;

pub use battle::{HexForce, RetreatChoice};
pub use game::{Action, Event, Game, GameError};
pub use movement::{ZOC_NONE, ZOC_PARTIAL, ZOC_TOTAL};

/// The rules version a game record names.
pub const RULES_VERSION: &str = "leipzig-1813/0.3";
