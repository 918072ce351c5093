//! The actions of the hex-miniatures game and their canonical text.
//!
//! | text | meaning | stage |
//! |---|---|---|
//! | `draw 0.734` | the pending random number is 0.734 (chance, [2.3]) | any |
//! | `roll 4` | the weather die shows 4 (chance, [24]) | end of a turn |
//! | `end` | end the stage (orders, movement, artillery fire, attacks) | |
//! | `order G F hold` / `order G F free` / `order G F HEX` | general `G` orders formation `F` to hold, to act at discretion, or to advance on `HEX` ([7.1.2]) | orders |
//! | `move U HEX` | unit `U` moves to `HEX` (a whole move, [8.2]); a waiting unit enters the table | movement |
//! | `ride G HEX` | general `G` rides to `HEX` ([2.4.6.3]) | movement |
//! | `face U DIR` | unit `U` turns to face the hexside `DIR` (`E`, `NE`, `NW`, `W`, `SW`, `SE`) | movement |
//! | `form U line` / `column` / `square` / `limbered` / `unlimbered` | a formation change ([8.1], [9.1.7]) | movement |
//! | `fire B U` | battery `B` fires on unit `U` ([9.1]) | artillery fire |
//! | `attack U HEX` | unit `U` attacks the hex `HEX` ([9.4]) | attacks |
//! | `advance U` / `end` | a victor advances into the hex its combat vacated, or none does ([8.7.4]) | resolution |

use crate::setup::Standing;
use hexmap::{Dir, Hex};

/// A fighting unit, by its index in the setup's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, Default)]
pub struct UnitId(pub u8);

/// A general, by his index in the setup's generals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, Default)]
pub struct GeneralId(pub u8);

/// A formation ([8.1], [9.1.7]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Formation {
    /// Infantry or cavalry in line (cavalry is always in line).
    Line,
    /// Infantry in column: the formation of manoeuvre (HM25: a hex more of movement).
    Column,
    /// Infantry in square ([8.1.1]): may not move, fights with its disordered value.
    Square,
    /// A battery limbered: it may move, not fire ([9.1.7]).
    Limbered,
    /// A battery unlimbered: it may fire, not move.
    Unlimbered,
}

impl Formation {
    /// Its text.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    /// Reads its text.
    pub fn parse(s: &str) -> Option<Formation> {
        [
            Formation::Line,
            Formation::Column,
            Formation::Square,
            Formation::Limbered,
            Formation::Unlimbered,
        ]
        .into_iter()
        .find(|f| f.name() == s)
    }
}

/// One action. Each has one canonical text (`Rules::action_text`) that parses back to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `draw 0.734`: the pending random number, in thousandths ([2.3]).
    Draw(u16),
    /// `roll N`: the weather die ([24]).
    Roll(u8),
    /// `end`: end the stage.
    End,
    /// `order G F ...`: a general's order to a formation ([7.1.2]).
    Order {
        /// The general giving it.
        general: GeneralId,
        /// The formation (index in the setup's formations).
        formation: u8,
        /// The order.
        order: Standing,
    },
    /// `move U HEX`: a unit's whole move ([8.2]).
    Move {
        /// The unit.
        unit: UnitId,
        /// Where it ends.
        to: Hex,
    },
    /// `ride G HEX`: a general's move ([2.4.6.3]).
    Ride {
        /// The general.
        general: GeneralId,
        /// Where he ends.
        to: Hex,
    },
    /// `face U DIR`: a unit turns ([8.2]; HM26).
    Face {
        /// The unit.
        unit: UnitId,
        /// The hexside it faces.
        dir: Dir,
    },
    /// `form U F`: a formation change ([8.1], [9.1.7]).
    Form {
        /// The unit.
        unit: UnitId,
        /// The new formation.
        formation: Formation,
    },
    /// `fire B U`: a battery fires on a unit ([9.1]).
    Fire {
        /// The battery.
        battery: UnitId,
        /// The target.
        target: UnitId,
    },
    /// `advance U`: a victor advances into the hex its combat vacated ([8.7.4]).
    Advance {
        /// The unit.
        unit: UnitId,
    },
    /// `attack U HEX`: a unit joins the attack on a hex ([9.4]).
    Attack {
        /// The attacker.
        unit: UnitId,
        /// The hex attacked.
        target: Hex,
    },
}

/// A direction's text.
pub fn dir_name(d: Dir) -> &'static str {
    d.name()
}

/// Reads a direction's text.
pub fn parse_dir(s: &str) -> Option<Dir> {
    Dir::ALL
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(s))
}
