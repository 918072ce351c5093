//! What an action caused, typed, each with the rulebook section (or our ruling) behind it.

use crate::action::LeaderId;
use engine::{GameEvent, Side};
use hexmap::Hex;
use naw::UnitId;
use serde::Serialize;

/// How an activation was made (NB Action phase - activations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivationKind {
    /// By a commander's command point(s): automatic.
    Command,
    /// By an officer's initiative roll.
    Officer,
    /// By a lead unit's initiative roll.
    Unit,
    /// By a received march order, executed automatically.
    MarchOrder,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A game turn began.
    TurnBegan {
        /// The turn.
        turn: u8,
        /// A night turn.
        night: bool,
    },
    /// A side rolled 2d6 for the initiative.
    InitiativeRolled {
        /// The side.
        side: Side,
        /// The dice.
        roll: u8,
        /// The overall commander's command rating added.
        bonus: u8,
    },
    /// A side has the initiative this turn.
    Initiative {
        /// The side.
        side: Side,
        /// Why (`rolled`, `tie`, `first turn`).
        why: &'static str,
    },
    /// A reinforcement was placed on its entry hex.
    Arrived {
        /// The unit.
        unit: UnitId,
        /// Its entry hex.
        hex: Hex,
    },
    /// A reinforcement could not enter (its entry hex is held by the enemy): it waits.
    Delayed {
        /// The unit.
        unit: UnitId,
    },
    /// A leader came on the map.
    LeaderArrived {
        /// The leader.
        leader: LeaderId,
        /// Where.
        hex: Hex,
    },
    /// A side passed.
    Passed {
        /// The side.
        side: Side,
    },
    /// The die rolled after a pass.
    PassRoll {
        /// The die.
        die: u8,
        /// The action phase ended.
        ended: bool,
    },
    /// The action phase ended.
    ActionPhaseEnded,
    /// An activation succeeded: these units act this impulse.
    Activated {
        /// The side.
        side: Side,
        /// How.
        how: ActivationKind,
        /// The officers activated (none for a unit activation).
        officers: Vec<LeaderId>,
        /// The units.
        units: Vec<UnitId>,
    },
    /// An initiative roll.
    InitiativeAttempt {
        /// The die (0 for an automatic success).
        die: u8,
        /// The most the die could show to succeed.
        need: u8,
        /// It succeeded.
        success: bool,
    },
    /// An attempt failed: these units are Spent for the turn.
    Spent {
        /// The units.
        units: Vec<UnitId>,
    },
    /// An officer wrote an order after a failure (NB50).
    OrderWritten {
        /// The officer.
        officer: LeaderId,
        /// Its destination.
        to: Hex,
    },
    /// A march order was sent.
    MarchOrderSent {
        /// The officer.
        officer: LeaderId,
        /// Its destination.
        to: Hex,
        /// The turn it arrives.
        arrives: u8,
    },
    /// A commander lent his command rating to an officer for the turn (NB75).
    RatingLent {
        /// The commander.
        commander: LeaderId,
        /// The officer.
        officer: LeaderId,
        /// The rating lent.
        rating: u8,
    },
    /// An officer set his order aside.
    OrderSetAside {
        /// The officer.
        officer: LeaderId,
    },
    /// A unit moved one hex.
    Moved {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
        /// Movement points spent, halves.
        cost_half: u16,
    },
    /// A unit halted on entering an enemy front hex.
    Halted {
        /// The unit.
        unit: UnitId,
        /// Where.
        hex: Hex,
    },
    /// The units of a hex changed facing.
    Faced {
        /// The hex.
        hex: Hex,
        /// The hexside now faced (`E`, `NE`, ...).
        dir: &'static str,
    },
    /// A reaction face change.
    Reacted {
        /// The hex.
        hex: Hex,
        /// The hexside now faced.
        dir: &'static str,
    },
    /// A leader moved.
    LeaderMoved {
        /// The leader.
        leader: LeaderId,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// A leader displaced to a friendly hex when the enemy took his hex (NB56).
    LeaderDisplaced {
        /// The leader.
        leader: LeaderId,
        /// Where to.
        to: Hex,
    },
    /// A melee was declared.
    MeleeDeclared {
        /// Attacking hex.
        from: Hex,
        /// Defending hex.
        to: Hex,
        /// Attack strength, halves.
        attack_halves: u32,
        /// Defence strength, halves.
        defence_halves: u32,
        /// The column after shifts (`150%`).
        column: String,
        /// The shifts, each `+1 why`.
        shifts: Vec<String>,
    },
    /// Defending cavalry retreated before infantry's melee.
    Evaded {
        /// The hex.
        hex: Hex,
    },
    /// The melee dice.
    MeleeResolved {
        /// The to-hit roll.
        roll: u8,
        /// The result as the table writes it.
        result: String,
    },
    /// A morale check.
    MoraleCheck {
        /// The hex checked.
        hex: Hex,
        /// The morale used.
        morale: i8,
        /// The die.
        die: u8,
        /// Passed.
        passed: bool,
    },
    /// A unit became disordered.
    Disordered {
        /// The unit.
        unit: UnitId,
    },
    /// A unit lost one SP.
    Lost {
        /// The unit.
        unit: UnitId,
        /// SP left.
        left: u16,
    },
    /// A unit was eliminated.
    Eliminated {
        /// The unit.
        unit: UnitId,
    },
    /// A stack stepped back.
    Retreated {
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// A stack had no retreat: one more SP and disorder.
    NoRetreat {
        /// The hex.
        hex: Hex,
    },
    /// A unit advanced into the won hex.
    Advanced {
        /// The unit.
        unit: UnitId,
        /// The hex.
        to: Hex,
    },
    /// A leader fell.
    LeaderCasualty {
        /// The leader.
        leader: LeaderId,
    },
    /// A rally roll.
    Rally {
        /// The unit.
        unit: UnitId,
        /// The die.
        die: u8,
        /// The morale needed (after the leader's modifier).
        need: i8,
        /// Rallied.
        rallied: bool,
    },
    /// A recovery roll in the last night turn.
    Recovery {
        /// The unit.
        unit: UnitId,
        /// The die.
        die: u8,
        /// It recovered an SP.
        recovered: bool,
    },
    /// A unit back from elimination was placed by its owner (NB Recovery; NB78): it returns
    /// with 1 SP, in good order.
    Placed {
        /// The unit.
        unit: UnitId,
        /// The hex it returned in.
        hex: Hex,
    },
    /// A formation became demoralized (from next turn).
    FormationDemoralized {
        /// Its index in the supplement.
        formation: usize,
        /// Its name.
        name: String,
    },
    /// An army became demoralized.
    ArmyDemoralized {
        /// Its index.
        army: usize,
    },
    /// The game ended.
    GameOver {
        /// The winner, if any.
        winner: Option<Side>,
        /// Victory points of each side.
        points: [u16; 2],
    },
}

impl GameEvent for Event {
    fn case(&self) -> &'static str {
        use Event::*;
        match self {
            TurnBegan { .. } | InitiativeRolled { .. } | Initiative { .. } => "NB Sequence of Play",
            Arrived { .. } | Delayed { .. } | LeaderArrived { .. } => "NB Sequence of Play",
            Passed { .. } | PassRoll { .. } | ActionPhaseEnded => "NB Turn End",
            Activated { .. } | InitiativeAttempt { .. } | Spent { .. } => "NB Action phase",
            OrderWritten { .. } | OrderSetAside { .. } => "NB50",
            RatingLent { .. } => "NB75",
            MarchOrderSent { .. } => "NB Action phase",
            Moved { .. } | Halted { .. } | Faced { .. } | LeaderMoved { .. } => "NB Movement",
            Reacted { .. } => "NB Movement",
            LeaderDisplaced { .. } => "NB56",
            MeleeDeclared { .. } | MeleeResolved { .. } | Advanced { .. } => {
                "NB Melee phase procedures"
            }
            Evaded { .. } => "NB Melee phase procedures",
            Retreated { .. } | NoRetreat { .. } => "NB Movement",
            LeaderCasualty { .. } => "NB Combat results tables",
            Lost { .. } | Eliminated { .. } => "NB Steps and losses",
            MoraleCheck { .. } | Disordered { .. } | Rally { .. } => "NB Morale and disorder rules",
            Recovery { .. } | Placed { .. } => "NB Recovery",
            FormationDemoralized { .. } | ArmyDemoralized { .. } => "NB Formation demoralization",
            GameOver { .. } => "NB Formation demoralization",
        }
    }
}
