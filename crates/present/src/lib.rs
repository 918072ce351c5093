//! Presentation: JSON views of a game for front ends (the command line's `--json` output and
//! the web server's API, `docs/api.md`).
//!
//! Every view is a plain serde type built from a rules system's public queries and the
//! [`engine::Session`]: this crate never decides legality (it asks the rules) and does no I/O.
//! The generic part (`generic.rs`: the log and the change of any system's game, over
//! [`engine::dynamic::DynGame`]) names no rules crate; each system's views live in a module of
//! their own (`naw_views.rs` for Napoleon at War, `nb_views.rs` for Napoleonic Battles,
//! `l1813_views.rs` for Leipzig 1813, `hm_views.rs` for the hex-miniatures rules).
//!
//! ```
//! let sc = scenarios::load("bon-first-day").unwrap();
//! let digest = sc.digest;
//! let s = engine::Session::new(naw::Game::new(sc), "bon-first-day", digest, 7);
//! let log = present::log_of(&s).unwrap();
//! let view = present::state_view(&s, Some("g_1"), &log);
//! assert_eq!(view.now.to_act, "French");
//! assert_eq!(view.legal, vec!["end".to_string()]);
//! ```

#![warn(missing_docs)]

mod generic;
mod hm_views;
mod l1813_views;
mod naw_charts;
pub mod naw_study;
mod naw_views;
mod nb_views;

pub use generic::*;
pub use hm_views::*;
pub use l1813_views::*;
pub use naw_charts::*;
pub use naw_views::*;
pub use nb_views::*;
