//! The machinery every Grognard rules module shares.
//!
//! A rules module (Napoleon at War, later Leipzig 1813, the activation system, the miniatures
//! rules) implements [`Rules`]: who is to act, the legal actions, checking and applying an
//! action, the outcomes of a chance event, and a state hash. Everything else here is generic
//! over that trait: the seeded [`Dice`], the [`Record`] of a game (scenario + rules version +
//! seed + actions) and its [`replay`], so that saving, undo, replay, branching and verification
//! are the same code for every system.
//!
//! This crate does no I/O: records are serialised to and from strings by the caller.

mod dice;
pub mod dynamic;
mod hash;
mod record;
pub mod tables;

pub use dice::{mix, Dice, DIE_FACES};
pub use hash::PortableHasher;
pub use record::{
    commitment, replay, replay_with, CommitmentError, Record, Recorded, ReplayError, Session,
    RECORD_FORMAT,
};

use std::fmt;

/// A seat at the table: a side of the game by its index in the scenario's side list (0 acts
/// first). How many seats a game has is the rules system's to say ([`Rules::seats`]).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Side(pub u8);

/// Who looks at a game: what a view may show depends on it ([`Rules::visible`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The player of one seat: sees what that seat may know.
    Seat(Side),
    /// Someone who holds every seat (hot-seat), or a referee: sees what every seat may know,
    /// but never a future die.
    Referee,
    /// A spectator: sees what the scenario allows onlookers.
    Spectator,
}

/// Something an action caused, typed: front ends learn what happened from its fields, never
/// from English text.
pub trait GameEvent: Clone + fmt::Debug + serde::Serialize {
    /// The rule case that made it happen (`7.6`).
    fn case(&self) -> &'static str;
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// The case that decided it (`17.2`).
    pub case: &'static str,
    /// A sentence for players.
    pub why: String,
}

/// Who acts next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToAct {
    /// A player chooses one of the legal actions.
    Side(Side),
    /// A chance event: one of [`Rules::chance_outcomes`] happens, drawn by the record's dice.
    Chance,
    /// The game is over.
    Over(Outcome),
}

/// An action refused by the rules: the case that forbids it and a sentence a player
/// understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{case}: {why}")]
pub struct Refusal {
    /// The rule case, such as `5.13`, or `action` for text that is not an action at all.
    pub case: &'static str,
    /// What is wrong, in a player's words.
    pub why: String,
}

impl Refusal {
    /// A refusal citing `case`.
    pub fn new(case: &'static str, why: impl Into<String>) -> Refusal {
        Refusal {
            case,
            why: why.into(),
        }
    }
}

/// The interface every rules system offers. The CLI, the web server, the computer players
/// and the tests program against this (through [`dynamic::DynGame`] where they must not name
/// the rules system).
pub trait Rules: Clone {
    /// One action: a small value with one canonical text form.
    type Action: Copy + Eq + std::hash::Hash + fmt::Debug;

    /// What an action can cause, typed (each with its case).
    type Event: GameEvent;

    /// The rules module and its version, as written in records (`naw/1`).
    fn rules_version(&self) -> &'static str;

    /// How many seats play this game (two for Napoleon at War; nothing else assumes two).
    fn seats(&self) -> usize;

    /// The name of a seat (`French`).
    fn seat_name(&self, seat: Side) -> &str;

    /// Who acts next.
    fn to_act(&self) -> ToAct;

    /// Appends every legal action of the side to act (or every chance outcome) to `out`.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Checks an action without applying it.
    fn check(&self, a: Self::Action) -> Result<(), Refusal>;

    /// Applies an action that [`Rules::check`] accepted. Calling it with an unchecked action
    /// is a logic error: the state may become inconsistent (it never panics on bad input that
    /// came through `check`).
    fn apply_unchecked(&mut self, a: Self::Action);

    /// Checks then applies.
    fn apply(&mut self, a: Self::Action) -> Result<(), Refusal> {
        self.check(a)?;
        self.apply_unchecked(a);
        Ok(())
    }

    /// What the last applied action caused, oldest first (empty before the first action,
    /// except for what the set-up caused).
    fn events(&self) -> &[Self::Event];

    /// The outcomes of the pending chance event with their integer weights, in a fixed order
    /// (a die: six outcomes of weight 1; two dice summed: eleven outcomes weighted 1..6..1; a
    /// chit drawn from a cup: one outcome per kind, weighted by how many are in the cup). The
    /// record's [`Dice::draw`] picks one by these weights, so they are part of the rules
    /// version. Empty when no chance event is pending.
    fn chance_outcomes(&self) -> Vec<(Self::Action, u32)>;

    /// The canonical text of an action.
    fn action_text(&self, a: Self::Action) -> String;

    /// Parses action text (canonical or a documented alias) in the current state.
    fn parse_action(&self, text: &str) -> Result<Self::Action, Refusal>;

    /// A hash of the whole game state, equal on every machine for equal states.
    fn state_hash(&self) -> u64;

    /// How many of the most recent actions may still be taken back under the rules.
    fn undoable(&self) -> usize;

    /// Why the action before the last [`Rules::undoable`] ones may not be taken back, citing
    /// the rules system's own case (Napoleon at War: 5.14 once a die has been rolled).
    fn undo_refusal(&self) -> Refusal;

    /// Whether `viewer` may see everything about seat `owner`'s units and plans. Rules systems
    /// with hidden information (the strategic game hides units until they are found) say no,
    /// and their views withhold what may not be seen. Default: everything is open.
    fn visible(&self, _owner: Side, _viewer: Viewer) -> bool {
        true
    }
}

/// Draws the pending chance event's outcome from the record's dice by the outcomes' weights;
/// `None` when no chance event is pending.
pub fn draw_chance<R: Rules>(game: &R, dice: &mut Dice) -> Option<R::Action> {
    let outs = game.chance_outcomes();
    let weights: Vec<u32> = outs.iter().map(|&(_, w)| w).collect();
    dice.draw(&weights).map(|i| outs[i].0)
}

/// Hashes bytes with the portable XXH3 64-bit hash (a fixed algorithm, the same everywhere).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A state hash as 16 lower-case hex digits.
pub fn hash_text(h: u64) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut b = [0u8; 16];
    for (i, d) in b.iter_mut().enumerate() {
        *d = DIGITS[(h >> (60 - 4 * i)) as usize & 0xf];
    }
    // the bytes are ASCII hex digits
    String::from_utf8(b.to_vec()).expect("ASCII")
}

#[cfg(test)]
mod tests {
    #[test]
    fn hash_text_is_sixteen_lower_case_hex_digits() {
        for h in [0, 1, 0xa, 0xdead_beef, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(super::hash_text(h), format!("{h:016x}"));
        }
    }
}
