//! The core of the `grognard` command line, over [`systems::Library`]: every command that
//! works for any registered rules system (`new`, `show`, `moves`, `act`, `undo`, `replay`,
//! `scenarios`, the arena of `sim` for other systems) takes the library it plays from, so a
//! test can hand it a library with systems of its own; so does the terminal game ([`play`]).
//! This part names no rules crate; the binary adds what is Napoleon at War's own (`odds`
//! text, `map`, the arena statistics).

pub mod core;
pub mod play;
pub mod util;
