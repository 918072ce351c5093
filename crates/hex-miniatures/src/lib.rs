//! The hex-miniatures rules (`../shared/seeds/3-hex-miniatures-rules.txt`, "the text"): the
//! Napoleon at War system brought down to battalions, cavalry regiments and batteries on a hex
//! table of 200 m a hex and 10 minutes a turn. It owns the rules' tables as replaceable data,
//! the pure arithmetic over them, the scenario ([`scenario`]) and the game ([`Game`], with its
//! [`Action`]s and [`Event`]s, implementing `engine::Rules`): the five-stage player-turn of
//! [5.1.2] ([`game`]), movement ([8]), combat ([9]), orders and messengers ([7]), the crisis
//! of morale ([13]), weather and light ([24]) and the victory at dusk ([14]).
//!
//! The text draws a random number between 0 and 1 and states three-decimal thresholds; we
//! draw one of a thousand equally likely numbers ([`prob`]), an explicit chance event.
//!
//! - [`crt`], [`combat`]: the odds table [22], the combat results table [15] = [23] as
//!   reconstructed, and one combat's column, shifts, modifiers and chances ([9.4.1]).
//! - [`army`]: unit kinds, states and the national army tables [16] as reconstructed.
//! - [`morale`]: rallies ([6]), the general under fire [17] and the crisis of morale [19].
//! - [`orders`]: orders carried by messengers ([7.1.2.1], [24]).
//! - [`results`]: what each result does to each side ([9.8]).
//! - [`artillery`]: fire by range [21]; [`square`]: cavalry against squares [20].
//! - [`terrain`]: the terrain effects table [18]; [`weather`]: fog, snow and the light [24].
//! - [`victory`]: the victory table's casualty marks [12] and the margins of victory [14].
//! - [`data`]: the data file (`data/hex-miniatures.toml`) that holds all of them.
//!
//! The code cites the text's sections (`[9.4.1]`) and our rulings `HM1`... (`docs/rulings.md`);
//! `docs/hex-miniatures.md` gives every reconstructed figure its reason.
//!
//! ```
//! use hex_miniatures::combat::{assess, CombatSituation, Direction};
//! use hex_miniatures::crt::CombatResult;
//! use hex_miniatures::data::Tables;
//! use hex_miniatures::prob::Draw;
//!
//! let t = Tables::shipped();
//! // [9.4.1]: thirteen against four is 3.25 to 1, read on 3:1; infantry with cavalry on one
//! // unit moves it a column, to 4:1.
//! let s = CombatSituation { attack: 13, defence: 4, arms: 2, ..CombatSituation::default() };
//! let a = assess(&t.crt, &t.combat, &s).unwrap();
//! assert_eq!(t.crt.ratio(a.base_column).to_string(), "3:1");
//! assert_eq!(t.crt.ratio(a.column).to_string(), "4:1");
//! let chances = a.chances(&t.crt);
//! assert_eq!(chances.iter().map(|(_, w)| w).sum::<u32>(), 1000);
//! assert_eq!(a.result(&t.crt, Draw::new(999).unwrap()), CombatResult::Dr);
//! // A general's +0.100 with the attackers, flank attack: one more column and the bonus.
//! let s = CombatSituation { direction: Direction::Flank, attacker_generals: (1, 0), ..s };
//! let a = assess(&t.crt, &t.combat, &s).unwrap();
//! assert_eq!((t.crt.ratio(a.column).to_string(), a.modifier), ("5:1".to_string(), 100));
//! ```

pub mod action;
pub mod army;
pub mod artillery;
pub mod combat;
mod command;
pub mod crt;
pub mod data;
pub mod event;
mod fight;
pub mod game;
pub mod morale;
mod movement;
pub mod orders;
pub mod prob;
pub mod results;
pub mod scenario;
pub mod setup;
pub mod square;
pub mod terrain;
mod text;
pub mod victory;
pub mod weather;

pub use action::{Action, Formation, GeneralId, UnitId};
pub use event::{Event, Stage};
pub use fight::Preview;
pub use game::Game;
pub use movement::Reachable;
pub use setup::Setup;

/// The rules version a game record names.
pub const RULES_VERSION: &str = "hex-miniatures/0.4";
