//! Orders carried by messengers ([7.1.2.1], [24]): an order given in person is always
//! understood; one carried by a messenger is understood on 0.150 and above, or on 0.334 and
//! above when the turn's visibility is restricted.

use crate::prob::{chance_to_reach, Draw, Prob};

/// The thresholds of `[orders]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orders {
    /// The number a messenger's order needs to be understood ([7.1.2.1]: 0.150).
    pub understood: Prob,
    /// The same under restricted visibility ([24]: 0.334).
    pub restricted: Prob,
    /// How far a general or messenger moves a turn, in hexes ([2.4.6.3]: 5).
    pub messenger_movement: u8,
}

/// How an order reaches its troops ([7.1.2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carried {
    /// In person by the commander or a general: understood without question.
    InPerson,
    /// By a messenger, under clear or restricted visibility.
    Messenger {
        /// Whether the turn's visibility is restricted (weather, dusk, night or dawn: ruling
        /// HM13).
        restricted: bool,
    },
}

impl Orders {
    /// The number a messenger's order needs; `None` in person (no draw).
    pub fn threshold(&self, how: Carried) -> Option<Prob> {
        match how {
            Carried::InPerson => None,
            Carried::Messenger { restricted: false } => Some(self.understood),
            Carried::Messenger { restricted: true } => Some(self.restricted),
        }
    }

    /// Whether the order is understood; `draw` is ignored in person. No modifier: the
    /// generals' bonus is for combat and rallies ([6.3], [9.2]; ruling HM12).
    pub fn understood(&self, how: Carried, draw: Draw) -> bool {
        self.threshold(how).is_none_or(|t| draw.reaches(0, t))
    }

    /// The chance (thousandths) that the order is understood.
    pub fn chance(&self, how: Carried) -> u32 {
        self.threshold(how).map_or(1000, |t| chance_to_reach(t, 0))
    }
}
