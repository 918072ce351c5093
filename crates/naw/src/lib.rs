//! The *Napoleon at War* standard rules (SPI, 1975), cases 4.0-10.2, with the named
//! exclusive-rule hooks their games need (The Battle of Nations: 14.6, 15.0, 16.1, 17.0).
//!
//! A [`Game`] is built only from a validated [`Scenario`] and is always in a legal state. It
//! implements [`engine::Rules`]: every refusal carries the case that forbids the action.
//!
//! ```
//! use naw::{Game, Scenario};
//! use engine::{Rules, ToAct};
//! let map = r#"format = "grognard-map/1"
//! id = "m"
//! width = 3
//! height = 4
//! terrain = ["....", "....", "...."]
//! "#;
//! let sc = r#"format = "grognard-scenario/1"
//! id = "tiny"
//! title = "Tiny"
//! system = "naw"
//! map = "m"
//! first_turn = 1
//! last_turn = 2
//! sides = ["Blue", "Red"]
//! [[nations]]
//! id = "B"
//! name = "Blue"
//! side = "Blue"
//! [[nations]]
//! id = "R"
//! name = "Red"
//! side = "Red"
//! [[units]]
//! id = "B.1"
//! nation = "B"
//! designation = "1"
//! type = "infantry"
//! strength = 6
//! movement = 4
//! hex = "0101"
//! [[units]]
//! id = "R.1"
//! nation = "R"
//! designation = "1"
//! type = "infantry"
//! strength = 3
//! movement = 4
//! hex = "0304"
//! "#;
//! let scenario = Scenario::from_toml(sc, "tiny.toml", &|_| Ok(map.to_string())).unwrap();
//! let mut game = Game::new(scenario);
//! let a = game.parse_action("move B.1 0203").unwrap();
//! game.apply(a).unwrap();
//! assert_eq!(game.to_act(), ToAct::Side(engine::Side(0)));
//! ```

use engine::Side;

mod action;
mod combat;
mod event;
mod game;
mod movement;
pub mod scenario;
pub mod tables;
mod unitset;

pub use action::Action;
pub use combat::{CombatView, ObligationKind, OddsPreview, RetreatChoices, Rolled};
pub use event::{Blocker, Elimination, Event};
pub use game::{Game, LineCheck, Loc, Phase, Step, UnitView};
pub use movement::{fmt_half, step_cost, Destination};
pub use scenario::{Scenario, ScenarioError, UnitType};
pub use tables::{Column, CombatResult};
pub use unitset::UnitSet;

/// The opponent in Napoleon at War, a game of exactly two sides (the engine assumes no
/// number of seats).
pub trait Opponent {
    /// The other side.
    fn other(self) -> Side;
}

impl Opponent for Side {
    fn other(self) -> Side {
        Side(1 - self.0)
    }
}

/// The rules module and version written in records.
pub const RULES_VERSION: &str = "naw/1";

/// A unit, by its index in the scenario's unit list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize)]
pub struct UnitId(pub u8);
