//! The *Napoleonic Battles* activation system (`../shared/seeds/5-...`), played on the Battle
//! of Nations components: alternating activations of formations under their commanders,
//! facing, melee with losses in strength points, morale and disorder, formation
//! demoralization. The design and every decision the rulebook leaves open are in
//! `docs/napoleonic-battles.md`.
//!
//! The system's rules are cited by the rulebook's section names (the module has no case
//! numbers): `// NB Melee phase procedures`, and so on; our rulings are `NB1`, `NB2`, ... in
//! `docs/rulings.md`.

//!
//! A [`Game`] is built from a Battle of Nations scenario and the system's [`Supplement`]
//! and implements [`engine::Rules`]; every refusal cites the rulebook section or ruling:
//!
//! ```
//! use engine::{Rules, Side, ToAct};
//! use napoleonic_battles::{Game, Supplement};
//! let sc = scenarios::load("bon-first-day").unwrap();
//! let mut g = Game::new(sc, Supplement::bon());
//! // NB Napoleon At Leipzig: the Allies have the initiative on turn 1
//! assert_eq!(g.to_act(), ToAct::Side(Side(1)));
//! g.apply(g.parse_action("pass").unwrap()).unwrap();
//! assert_eq!(g.to_act(), ToAct::Chance); // NB Turn End: a 6 ends the action phase
//! g.apply(g.parse_action("roll 3").unwrap()).unwrap();
//! let refused = g.check(g.parse_action("command FR.Murat FR.Macdonald").unwrap());
//! assert!(refused.is_err());
//! ```

#![warn(missing_docs)]

pub mod data;
pub mod melee;

mod action;
mod activation;
mod combat;
mod event;
mod game;
mod movement;

pub use action::{parse_dir, Action, LeaderId};
pub use activation::{MARCH_MP_PER_TURN, ORDER_RADIUS, UNIT_COMMAND_RANGE};
pub use data::Supplement;
pub use event::{ActivationKind, Event};
pub use game::{
    ActivationView, Bonus, Disorder, Game, LeaderLoc, LeaderView, Loc, MeleeView, Step, UnitView,
    RECOVERY_RADIUS,
};
pub use movement::{arc, Arc};

/// The rules version recorded in every game of this system.
pub const RULES_VERSION: &str = "napoleonic-battles/0.3";
