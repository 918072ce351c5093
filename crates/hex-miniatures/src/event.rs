//! What an action caused, typed, each with the section of the text (or our ruling) behind it.

use crate::action::{Formation, GeneralId, UnitId};
use crate::army::Order;
use crate::setup::Standing;
use engine::GameEvent;
use hexmap::Hex;
use serde::Serialize;

/// The stage of a player-turn ([5.1.2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// (a) Disruption and rout removal: the phasing army's rallies ([6]).
    Rally,
    /// (b) Orders ([7]).
    Orders,
    /// (c) Movement ([8]).
    Movement,
    /// (d) Combat, first step: the phasing army's artillery fires ([9.1]).
    Artillery,
    /// (d) Combat: the attacks are declared ([9.4.2]).
    Attacks,
    /// (d) Combat: the attacks are resolved, cavalry's first ([9]).
    Resolution,
    /// (e) Crisis of morale ([10], [13]).
    Crisis,
    /// The end of the turn: the weather die ([5.1.3], [24]).
    TurnEnd,
    /// The battle is over ([14]).
    Over,
}

/// What made a unit lose a base unit, move or change state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A combat result ([9.8]).
    Combat,
    /// A battery's fire ([9.1.2]).
    Fire,
    /// A charge on a square ([9.3]).
    Square,
    /// A crisis of morale ([13]).
    Crisis,
    /// A failed rally ([6.1], [6.2]).
    Rally,
    /// Troops passing through ([6.1], [6.2], [8.6.2.1]).
    PassedThrough,
    /// Crossing a stream ([3.1.3.4]).
    Stream,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A turn begins ([5.1.3]): its number (1 first) and the time.
    TurnBegan {
        /// The turn.
        turn: u16,
        /// Minute of the day.
        minute: u32,
        /// The visible range this turn (none: unlimited).
        visibility: Option<u8>,
        /// A night turn ([11.2]).
        night: bool,
    },
    /// A stage of a player-turn begins ([5.1.2]).
    StageBegan {
        /// The phasing side.
        side: u8,
        /// The stage.
        stage: Stage,
    },
    /// A rally was tried ([6.1], [6.2]).
    Rally {
        /// The unit.
        unit: UnitId,
        /// The number drawn.
        draw: u16,
        /// The generals' bonus.
        bonus: i32,
        /// The number it needed.
        needed: u16,
        /// Its state after.
        order: Order,
    },
    /// An order was given ([7.1.2]).
    OrderGiven {
        /// The general.
        general: GeneralId,
        /// The formation.
        formation: u8,
        /// The order.
        order: Standing,
        /// In person (takes effect at once), or by a messenger.
        in_person: bool,
    },
    /// A messenger reached the formation and drew ([7.1.2.1]).
    OrderDelivered {
        /// The formation.
        formation: u8,
        /// The order.
        order: Standing,
        /// The number drawn.
        draw: u16,
        /// The number it needed.
        needed: u16,
        /// Understood (the formation now has it) or not.
        understood: bool,
    },
    /// A messenger was captured ([7.1.2.2]).
    MessengerCaptured {
        /// The side that lost him.
        side: u8,
        /// Where.
        hex: Hex,
        /// The order he carried (none on his way back).
        order: Option<Standing>,
    },
    /// A unit moved ([8.2]) or entered the table ([3.2]).
    Moved {
        /// The unit.
        unit: UnitId,
        /// From (none: it entered).
        from: Option<Hex>,
        /// To.
        to: Hex,
    },
    /// A general rode ([2.4.6.3]).
    Rode {
        /// The general.
        general: GeneralId,
        /// From (none: he entered).
        from: Option<Hex>,
        /// To.
        to: Hex,
    },
    /// A unit turned (HM26).
    Faced {
        /// The unit.
        unit: UnitId,
        /// The hexside faced (`E`, `NE`...).
        dir: &'static str,
    },
    /// A unit changed formation ([8.1], [9.1.3], [9.3.1]).
    Formed {
        /// The unit.
        unit: UnitId,
        /// The new formation.
        formation: Formation,
    },
    /// A unit's state changed.
    StateChanged {
        /// The unit.
        unit: UnitId,
        /// The new state.
        order: Order,
        /// Why.
        cause: Cause,
    },
    /// A unit lost a base unit ([9.8], [12]).
    BaseLost {
        /// The unit.
        unit: UnitId,
        /// Base units left.
        left: u8,
        /// Why.
        cause: Cause,
    },
    /// A victor advanced into the hex its combat vacated ([8.7.4]).
    Advanced {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// A unit withdrew, retired or routed ([9.8], [2.4.1.5]).
    Withdrew {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Hex,
        /// To (none: off the table or no way out, removed).
        to: Option<Hex>,
    },
    /// A unit left the battle: destroyed, captured, routed off the table ([2.4.1.5],
    /// [2.4.5.3], [9.1.6], [9.3.3]); its base units count for the enemy.
    Removed {
        /// The unit.
        unit: UnitId,
        /// Base units it took with it.
        bases: u8,
    },
    /// A general under fire took his test ([6.3], [9.2], [17]).
    GeneralTested {
        /// The general.
        general: GeneralId,
        /// The number drawn.
        draw: u16,
        /// `killed`, `wounded` or `survives`.
        fate: &'static str,
    },
    /// A general was captured (HM28).
    GeneralCaptured {
        /// The general.
        general: GeneralId,
    },
    /// A battery fired ([9.1.2], [21]).
    Fired {
        /// The battery.
        battery: UnitId,
        /// The target.
        target: UnitId,
        /// The range.
        range: u8,
        /// The number drawn.
        draw: u16,
        /// Its modifier.
        modifier: i32,
        /// `-`, `D`, `L`, `LD`.
        result: String,
    },
    /// An attack was resolved on the combat results table ([9.4.1], [23]).
    Combat {
        /// The hex attacked.
        target: Hex,
        /// The attackers.
        attackers: Vec<UnitId>,
        /// The defenders.
        defenders: Vec<UnitId>,
        /// The strengths (the defence after terrain).
        attack: u32,
        /// The defence.
        defence: u32,
        /// The column read (`3:1`).
        column: String,
        /// The modifier to the number.
        modifier: i32,
        /// The number drawn.
        draw: u16,
        /// The result (`Dr`).
        result: String,
    },
    /// Cavalry charged a square ([9.3], [20]).
    Charge {
        /// The hex of the square.
        target: Hex,
        /// The cavalry.
        attackers: Vec<UnitId>,
        /// The square.
        square: UnitId,
        /// The number drawn.
        draw: u16,
        /// Its modifier.
        modifier: i32,
        /// `repulsed`, `holds`, `broken`.
        result: &'static str,
    },
    /// Cavalry took a battery standing alone ([9.1.6]).
    BatteryCaptured {
        /// The battery.
        battery: UnitId,
    },
    /// An army's casualties reached a level of the victory table for the first time: its
    /// units in sight of the action test ([13]).
    CrisisOfMorale {
        /// The side.
        side: u8,
        /// The level in percent.
        level: u32,
    },
    /// A unit's crisis test ([13], [19]).
    CrisisTest {
        /// The unit.
        unit: UnitId,
        /// The number drawn.
        draw: u16,
        /// `rout`, `retire`, `disrupt`, `fights-on`.
        result: &'static str,
    },
    /// The weather counter moved ([24]).
    Weather {
        /// The die.
        die: u8,
        /// The counter's position now.
        position: u8,
        /// The visible range it gives (none: clear).
        visibility: Option<u8>,
    },
    /// The battle ended ([14]).
    Over {
        /// The winner (none: a draw).
        winner: Option<u8>,
        /// `draw`, `marginal`, `major`, `decisive`.
        margin: &'static str,
    },
}

impl GameEvent for Event {
    fn case(&self) -> &'static str {
        match self {
            Event::TurnBegan { .. } => "5.1.3",
            Event::StageBegan { .. } => "5.1.2",
            Event::Rally { .. } => "6.1",
            Event::OrderGiven { .. } => "7.1.2",
            Event::OrderDelivered { .. } => "7.1.2.1",
            Event::MessengerCaptured { .. } => "7.1.2.2",
            Event::Moved { .. } => "8.2",
            Event::Rode { .. } => "2.4.6.3",
            Event::Faced { .. } => "HM26",
            Event::Formed { .. } => "8.1",
            Event::StateChanged { cause, .. } | Event::BaseLost { cause, .. } => match cause {
                Cause::Combat => "9.8",
                Cause::Fire => "9.1.2",
                Cause::Square => "9.3",
                Cause::Crisis => "13",
                Cause::Rally => "6.1",
                Cause::PassedThrough => "6.2",
                Cause::Stream => "3.1.3.4",
            },
            Event::Withdrew { .. } => "9.8",
            Event::Advanced { .. } => "8.7.4",
            Event::Removed { .. } => "2.4.1.5",
            Event::GeneralTested { .. } => "17",
            Event::GeneralCaptured { .. } => "HM28",
            Event::Fired { .. } => "9.1.2",
            Event::Combat { .. } => "9.4.1",
            Event::Charge { .. } => "9.3",
            Event::BatteryCaptured { .. } => "9.1.6",
            Event::CrisisOfMorale { .. } | Event::CrisisTest { .. } => "13",
            Event::Weather { .. } => "24",
            Event::Over { .. } => "14",
        }
    }
}
