//! The game: its state, actions, events and the `engine::Rules` implementation.
//!
//! A game-turn is a French player-turn then an Allied one (General Course of Play), each a
//! movement phase and a combat phase; the combat phase runs as the rulebook's segments: the
//! attacker declares his attacks and allocates supply, the defender may retreat before combat,
//! then allocates supply, and the combats are resolved in the order declared, a die each. Before
//! the first turn the Allies then the French place the units their charts give "within N hexes
//! of" a place (How to Use the Scenarios: the Allies deploy first); units "directly on" a place
//! are placed by the game.
//!
//! Seats: 0 the French, 1 the Allies. Units are named by a side letter and a serial (`F12`,
//! `A3`), hexes by `XXYY`. The action grammar:
//!
//! | text | when |
//! |---|---|
//! | `place F3 2316` | set-up and arriving reinforcements: a unit onto one of its hexes |
//! | `move F3 2316` | movement phase: a unit to a hex it can reach (its cheapest path) |
//! | `split F3 infantry-division` | movement phase: break a unit down (Stacking (E)) |
//! | `combine 2316 infantry-corps` | movement phase or set-up: build a unit up from the hex's |
//! | `march F3 double` / `triple` | movement phase: declare a forced march (Forced March) |
//! | `press F3` / `halt F3` | roll for a forced march, or stop on a subsidiary letter |
//! | `overrun 2316 2317` | movement phase: automatic elimination at 500% (CRT Auto) |
//! | `attack 2316 2317` | combat phase: the units of a hex attack an adjacent enemy hex |
//! | `aside F3` | combat phase, attacker: a unit of an attacking hex stays out of its attack (Stacking (D), L44) |
//! | `supply F7` | combat phase: allocate a supply unit to combat (Supply (C) I) |
//! | `retreat A3 1212` | combat phase, defender: retreat before combat (Combat (J)) |
//! | `retreat A3 1212` | after a combat, the retreating side: the route among equal ones (L45) |
//! | `advance 2316 2317` | after a combat: the attackers enter the hex it vacated (or `end`) |
//! | `armistice` | the campaign game: the French call the armistice before they move |
//! | `hide A3` | Allied movement phase while Reconnaissance holds, before any Allied unit moves: invert a revealed unit again (L46) |
//! | `exit F3` | French movement phase, spring scenarios: off the east edge (ESM); during the armistice an Allied unit off the east edge or Austria's edges, back in eight turns (L41) |
//! | `disband F3` | the German rebellion: the French remove a unit; in one's own movement phase, destroy one's supply unit (Supply (E), L42) |
//! | `end` | end the step |
//! | `roll 4` | a die (a chance event) |

use crate::board::Board;
use crate::crt::CombatResult;
use crate::data::Tables;
use crate::europe::{Area, Europe};
use crate::forced_march::{March, MarchChances, OnLetter};
use crate::scenario::{AustriaAccess, Force, Scenario};
use crate::units::{Arm, Units};
use engine::{GameEvent, Outcome, Refusal, Rules, Side, ToAct, Viewer};
use hexmap::Hex;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The two sides, by seat.
pub const SEAT_NAMES: [&str; 2] = ["French", "Allies"];
/// The side names the data uses, by seat.
pub(crate) const DATA_SIDES: [&str; 2] = ["French", "Allied"];
/// The letter of a side's unit names, by seat.
const SIDE_LETTER: [char; 2] = ['F', 'A'];

/// Why a game could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The scenario names what the counters or the map lack.
    #[error("scenario {0}: {1}")]
    Scenario(String, String),
}

/// Supply roles a supply unit or depot has been given this player-turn (Supply (C)).
pub mod supply_use {
    /// Allocated to combat (Supply (C) I).
    pub const ALLOCATED: u8 = 1;
    /// Supporting a stack (Supply (C) II).
    pub const STACKING: u8 = 2;
    /// Supporting a forced march (Supply (C) III).
    pub const MARCH: u8 = 4;
    /// Supported a combat that was fought: spent at the end of the combat phase.
    pub const FOUGHT: u8 = 8;
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Waiting to be placed (set-up, or an arriving reinforcement).
    Pending,
    /// On the map.
    OnMap,
    /// Destroyed (in combat, by a forced march, retreating where it may not).
    Eliminated,
    /// Gone without loss: combined into another unit, broken down, or a spent supply unit.
    Gone,
}

/// A unit's forced march this phase (Forced March).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarchState {
    /// No forced march.
    None,
    /// Declared, the die not yet rolled: the unit has its allowance before the roll.
    Unrolled(March),
    /// On a subsidiary table's letter: its owner rolls again (`press`) or stops (`halt`).
    Letter(March, char),
    /// Rolled and completed (or halted, or supported by supply, or free from Gotha).
    Done(March),
}

/// One counter in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Seat: 0 French, 1 Allies.
    pub side: u8,
    /// Its kind: an index into [`Units::kinds`].
    pub kind: u8,
    /// A leader's number (0 for other units).
    pub leader: u8,
    /// Its nationality: an index into its side's `nationalities`.
    pub nationality: u8,
    /// The number of its name (`F12`).
    pub serial: u16,
    /// Its hex (meaningful on the map).
    pub hex: Hex,
    /// Where it is.
    pub status: Status,
    /// For a pending unit: the set of hexes it may be placed in (an index of the game's sets).
    pub hexset: u16,
    /// Movement points left this phase.
    pub mp: u8,
    /// It has moved this phase.
    pub moved: bool,
    /// It entered an enemy zone of control that stops it (Zones of Control (A), (B)).
    pub stopped: bool,
    /// Dispersed until the end of this phase code (0: not dispersed; Combat (K)).
    pub dispersed_until: u32,
    /// To be dispersed at the end of this movement phase (a forced march's D).
    pub disperse_at_end: bool,
    /// Its forced march.
    pub march: MarchState,
    /// Began the game at Gotha (the spring scenarios' free march).
    pub gotha: bool,
    /// A unit of the Saxon garrison.
    pub saxon: bool,
    /// Reconnaissance: 0 hidden from the French, 1 revealed, 2 revealed by cavalry.
    pub revealed: u8,
    /// The supply roles it has this player-turn ([`supply_use`]).
    pub supply_use: u8,
    /// It left the map by the east edge (ESM).
    pub exited: bool,
    /// It stands aside from the attack declared from its hex this combat phase (Stacking (D),
    /// ruling L44).
    pub aside: bool,
}

impl Unit {
    /// On the map.
    pub fn on_map(&self) -> bool {
        self.status == Status::OnMap
    }
}

/// One declared combat (Combat (D), (G)): the units of one hex against one enemy hex, or,
/// from a fortress, against every adjacent enemy hex not across a river (Fortress (E)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Combat {
    /// The attacking hex.
    pub from: Hex,
    /// The defending hexes.
    pub targets: Vec<Hex>,
    /// The result, once resolved.
    pub result: Option<CombatResult>,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Placing the set-up (How to Use the Scenarios).
    Setup,
    /// The movement phase of the player-turn's side.
    Movement,
    /// Combat phase: the attacker declares attacks and allocates supply.
    Attack,
    /// Combat phase: the defender may retreat before combat (Combat (J)).
    Retreat,
    /// Combat phase: the defender allocates supply.
    DefenceSupply,
    /// Combat phase: the combats are resolved, a die each.
    Resolve,
    /// The game is over.
    Over,
}

/// An action (its text in the module's table). Units are named by index into
/// [`Game::units`], hexes by their number; kinds by index into [`Units::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place a pending unit.
    Place {
        /// The unit.
        unit: u16,
        /// The hex.
        hex: Hex,
    },
    /// Move a unit to a hex it can reach.
    Move {
        /// The unit.
        unit: u16,
        /// The destination.
        to: Hex,
    },
    /// Break a unit down into smaller ones of a kind (Stacking (E)).
    Split {
        /// The unit.
        unit: u16,
        /// The kind it breaks down into.
        into: u8,
    },
    /// Build a unit of a kind up from units of the hex (Stacking (E)).
    Combine {
        /// The hex.
        hex: Hex,
        /// The kind to build.
        kind: u8,
    },
    /// Declare a forced march (Forced March): double, or triple.
    March {
        /// The unit.
        unit: u16,
        /// Triple (infantry only) rather than double.
        triple: bool,
    },
    /// Roll for a forced march (the first table, or the subsidiary table of its letter).
    Press {
        /// The unit.
        unit: u16,
    },
    /// Stop a forced march on a subsidiary letter.
    Halt {
        /// The unit.
        unit: u16,
    },
    /// Eliminate an enemy hex automatically during movement (CRT Auto).
    Overrun {
        /// The hex of the attacking units.
        from: Hex,
        /// The enemy hex.
        to: Hex,
    },
    /// Declare an attack.
    Attack {
        /// The hex of the attacking units.
        from: Hex,
        /// The enemy hex attacked.
        to: Hex,
    },
    /// Keep a unit out of the attack declared from its hex (Stacking (D), ruling L44).
    Aside {
        /// The unit.
        unit: u16,
    },
    /// Allocate a supply unit or depot to combat.
    Supply {
        /// The supply unit.
        unit: u16,
    },
    /// Retreat a unit before combat.
    Retreat {
        /// The unit.
        unit: u16,
        /// Where it ends.
        to: Hex,
    },
    /// Advance the attacking units of a hex into the hex their combat vacated (Combat (M)).
    Advance {
        /// The attacking hex.
        from: Hex,
        /// The vacated hex.
        to: Hex,
    },
    /// The French call the armistice (Armistice, the campaign game).
    Armistice,
    /// The Allies invert a revealed unit again at the beginning of their movement phase
    /// (Reconnaissance, ruling L46).
    Hide {
        /// The unit.
        unit: u16,
    },
    /// Move a French unit off the east edge (ESM), or an Allied unit off the map during the
    /// armistice (ruling L41).
    Exit {
        /// The unit.
        unit: u16,
    },
    /// Remove a French unit from the map (German Rebellion), or destroy one's own supply unit
    /// in one's movement phase (Supply (E), ruling L42).
    Disband {
        /// The unit.
        unit: u16,
    },
    /// End the step.
    End,
    /// A die's face (a chance event).
    Roll(u8),
}

/// What an action caused, for the log: each with the rule that made it happen. Units are
/// named as in actions (`F12`), hexes by number. No event names the kind of a unit the French
/// may not see (Reconnaissance).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A unit was placed (set-up or reinforcement).
    Placed {
        /// The unit.
        unit: String,
        /// Where.
        hex: String,
    },
    /// A phase began.
    PhaseBegins {
        /// The game-turn.
        turn: u32,
        /// Whose player-turn.
        side: String,
        /// `movement` or `combat`.
        phase: String,
    },
    /// Reinforcements arrived, to be placed.
    Reinforcements {
        /// The side.
        side: String,
        /// The units.
        units: Vec<String>,
    },
    /// Reinforcements that could not arrive.
    ReinforcementsLost {
        /// The side.
        side: String,
        /// How many units.
        count: u32,
        /// Why.
        why: String,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        unit: String,
        /// From.
        from: String,
        /// To.
        to: String,
        /// MP spent.
        cost: u32,
    },
    /// Allied units the French may now examine (Reconnaissance).
    Revealed {
        /// The units.
        units: Vec<String>,
    },
    /// A unit broke down.
    Split {
        /// The unit.
        unit: String,
        /// What it became.
        into: Vec<String>,
    },
    /// Units combined into one.
    Combined {
        /// The units.
        units: Vec<String>,
        /// What they became.
        into: String,
    },
    /// A forced march was declared.
    MarchDeclared {
        /// The unit.
        unit: String,
        /// `double` or `triple`.
        march: String,
        /// Supported by a supply unit, or free: no roll.
        free: bool,
    },
    /// A forced march's roll.
    MarchRolled {
        /// The unit.
        unit: String,
        /// The table (`double`, `triple`) or the subsidiary letter.
        table: String,
        /// The die.
        die: u8,
        /// The entry: `-` proceed, `D` dispersed at the end, `X` destroyed, or a letter.
        entry: String,
    },
    /// A forced march stopped on a letter.
    MarchHalted {
        /// The unit.
        unit: String,
    },
    /// Enemy units eliminated automatically during movement.
    Overrun {
        /// The attacking hex.
        from: String,
        /// The enemy hex.
        to: String,
    },
    /// An attack was declared.
    AttackDeclared {
        /// The attacking hex.
        from: String,
        /// The defending hexes.
        targets: Vec<String>,
    },
    /// A unit stays out of the attack declared from its hex (Stacking (D)).
    StandsAside {
        /// The unit.
        unit: String,
    },
    /// A supply unit was allocated to combat.
    SupplyAllocated {
        /// The supply unit.
        unit: String,
    },
    /// A combat was resolved.
    CombatResolved {
        /// The attacking hex.
        from: String,
        /// The defending hexes.
        targets: Vec<String>,
        /// Attack strength.
        attack: u32,
        /// Defence strength.
        defence: u32,
        /// The percentage.
        percent: u32,
        /// The column.
        column: String,
        /// The die.
        die: u8,
        /// The result as it applied (`Dd1`, `1/2ex`...).
        result: String,
    },
    /// A declared combat was not fought.
    CombatVoid {
        /// The attacking hex.
        from: String,
        /// Why.
        why: String,
    },
    /// A unit was eliminated.
    Eliminated {
        /// The unit.
        unit: String,
        /// Where.
        hex: String,
    },
    /// A unit was dispersed.
    Dispersed {
        /// The unit.
        unit: String,
    },
    /// A unit retreated (after combat, or before it).
    Retreated {
        /// The unit.
        unit: String,
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// A unit advanced after combat.
    Advanced {
        /// The unit.
        unit: String,
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// A French unit left the map by the east edge (ESM).
    Exited {
        /// The unit.
        unit: String,
    },
    /// A supply unit or depot was spent.
    SupplySpent {
        /// The unit.
        unit: String,
        /// `combat`, `stacking` or `march`.
        role: String,
    },
    /// A stack stood out of supply at the end of its movement phase.
    StackOutOfSupply {
        /// Where.
        hex: String,
    },
    /// Dispersed units recovered.
    Recovered {
        /// The units.
        units: Vec<String>,
    },
    /// A city changed hands.
    CityTaken {
        /// The city.
        city: String,
        /// Its new holder.
        side: String,
    },
    /// A special rule took effect.
    SpecialRule {
        /// The rule.
        rule: String,
        /// What it did.
        text: String,
    },
    /// The game ended.
    GameOver {
        /// French victory points.
        french: u32,
        /// Allied victory points.
        allies: u32,
        /// The winner, if any.
        winner: Option<String>,
    },
}

impl GameEvent for Event {
    fn case(&self) -> &'static str {
        match self {
            Event::Placed { .. } => "How to Use the Scenarios",
            Event::PhaseBegins { .. } => "General Course of Play",
            Event::Reinforcements { .. } | Event::ReinforcementsLost { .. } => {
                "Reinforcement Chart"
            }
            Event::Moved { .. } => "Movement",
            Event::Revealed { .. } => "Reconnaissance",
            Event::Split { .. } | Event::Combined { .. } => "Stacking (E)",
            Event::MarchDeclared { .. } | Event::MarchRolled { .. } | Event::MarchHalted { .. } => {
                "Forced March"
            }
            Event::Overrun { .. } => "CRT Auto",
            Event::AttackDeclared { .. } => "Combat (A)",
            Event::SupplyAllocated { .. } => "Combat (I)",
            Event::StandsAside { .. } => "Stacking (D)",
            Event::CombatResolved { .. } => "CRT",
            Event::CombatVoid { .. } => "Supply (F)",
            Event::Eliminated { .. } => "CRT",
            Event::Dispersed { .. } => "Combat (K)",
            Event::Retreated { .. } => "Retreat Order of Preference",
            Event::Advanced { .. } => "Combat (M)",
            Event::Exited { .. } => "How to Win",
            Event::SupplySpent { role, .. } if role == "destroyed" => "Supply (E)",
            Event::SupplySpent { .. } => "Supply (C)",
            Event::StackOutOfSupply { .. } => "Stacking (B)",
            Event::Recovered { .. } => "Combat (K)",
            Event::CityTaken { .. } => "How to Win",
            Event::SpecialRule { .. } => "Special Game Rules",
            Event::GameOver { .. } => "How to Win",
        }
    }
}

/// A pending chance event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Chance {
    None,
    /// A forced march's roll for a unit.
    March(u16),
    /// The die of the next combat.
    Combat,
}

/// A force due to arrive: who, when, where, what.
#[derive(Clone, Debug)]
pub(crate) struct Arrival {
    pub side: u8,
    pub turn: u32,
    pub hexset: u16,
    pub force: Force,
    pub nationality: u8,
    /// The Allied city it arrives at (Berlin, Prague, Breslau: not while besieged).
    pub city: Option<u8>,
    pub needs_austria: bool,
}

/// What a game is built from, shared by every copy of it.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub scenario: Scenario,
    pub tables: Tables,
    pub units: Units,
    pub board: Board,
    /// Sets of hexes units may be placed in.
    pub hexsets: Vec<Vec<Hex>>,
    /// The scheduled reinforcements.
    pub arrivals: Vec<Arrival>,
    /// The east edge (Breslau's reinforcements while it is besieged).
    pub east_edge: u16,
    /// The special rules' hex sets.
    pub specials: crate::setup::SpecialSets,
    /// Kind indices: infantry division, cavalry division, supply, depot, leader.
    pub smallest: [u8; 5],
    pub digest: u64,
}

/// Losses in units of the Victory Point Schedule (divisions and leaders destroyed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Losses {
    /// Lost in combat (and retreats).
    pub combat: u32,
    /// Lost by forced march.
    pub march: u32,
}

impl Losses {
    /// Both together.
    pub fn total(&self) -> u32 {
        self.combat + self.march
    }
}

/// A game of Leipzig 1813.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) ctx: Arc<Ctx>,
    pub(crate) units: Vec<Unit>,
    pub(crate) turn: u32,
    pub(crate) player: u8,
    pub(crate) step: Step,
    pub(crate) setup_side: u8,
    pub(crate) chance: Chance,
    pub(crate) combats: Vec<Combat>,
    pub(crate) next_combat: usize,
    pub(crate) overrun: Vec<Hex>,
    pub(crate) city_owner: [u8; 5],
    pub(crate) losses: [Losses; 2],
    pub(crate) next_serial: [u16; 2],
    pub(crate) austria_intervened: Option<u32>,
    pub(crate) bavaria_defected: Option<u32>,
    pub(crate) berlin_taken: Option<u32>,
    pub(crate) rebellion_from: Option<u32>,
    pub(crate) removals_due: u32,
    /// An advance after combat the attacker may make now (Combat (M)): from, into.
    pub(crate) advance: Option<(Hex, Hex)>,
    /// French divisions, leaders and supply units moved off the east edge (ESM).
    pub(crate) exited: [u32; 3],
    /// The turn the French called the armistice.
    pub(crate) armistice_from: Option<u32>,
    /// What the combat being resolved still owes (L45).
    pub(crate) due: Vec<crate::battle::Due>,
    /// A retreat waiting for its owner's choice of route (L45).
    pub(crate) retreat_choice: Option<crate::battle::RetreatChoice>,
    /// Allied units off the map during the armistice (L41): unit, the turn it returns, the
    /// hex set it returns to.
    pub(crate) away: Vec<(u16, u32, u16)>,
    pub(crate) events: Vec<Event>,
    pub(crate) since_chance: usize,
    pub(crate) outcome: Option<Outcome>,
}

/// No city holder yet.
const NOBODY: u8 = 2;

fn refuse(case: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(case, why)
}

impl Game {
    /// A game of the scenario with the tables, on the shipped map and counters.
    pub fn new(scenario: &Scenario, tables: &Tables) -> Result<Game, GameError> {
        Game::with(
            scenario,
            tables,
            &Units::leipzig(),
            &crate::europe::Europe::central_europe(),
        )
    }

    /// A game of the scenario with these tables, counters and map.
    pub fn with(
        scenario: &Scenario,
        tables: &Tables,
        units: &Units,
        europe: &Europe,
    ) -> Result<Game, GameError> {
        crate::setup::build(scenario, tables, units, europe)
    }

    // ---- queries -------------------------------------------------------------------------

    /// The scenario played.
    pub fn scenario(&self) -> &Scenario {
        &self.ctx.scenario
    }

    /// The tables played with.
    pub fn tables(&self) -> &Tables {
        &self.ctx.tables
    }

    /// The counters' kinds.
    pub fn counters(&self) -> &Units {
        &self.ctx.units
    }

    /// The map with its rules effects.
    pub fn board(&self) -> &Board {
        &self.ctx.board
    }

    /// XXH3 of the scenario, the tables and the counters: a record replays only against
    /// these.
    pub fn digest(&self) -> u64 {
        self.ctx.digest
    }

    /// Every unit ever in play (eliminated and gone ones included), by index.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// A unit's name (`F12`).
    pub fn label(&self, u: usize) -> String {
        let unit = &self.units[u];
        format!("{}{}", SIDE_LETTER[usize::from(unit.side) % 2], unit.serial)
    }

    /// A unit's kind.
    pub fn kind(&self, u: &Unit) -> &crate::units::UnitKind {
        &self.ctx.units.kinds[usize::from(u.kind)]
    }

    /// A unit's arm.
    pub fn arm(&self, u: &Unit) -> Arm {
        self.kind(u).arm
    }

    /// A unit's nationality.
    pub fn nationality(&self, u: &Unit) -> &str {
        self.ctx
            .units
            .side(DATA_SIDES[usize::from(u.side) % 2])
            .and_then(|s| s.nationalities.get(usize::from(u.nationality)))
            .map_or("", String::as_str)
    }

    /// The units on the map at a hex.
    pub fn units_at(&self, h: Hex) -> Vec<usize> {
        (0..self.units.len())
            .filter(|&i| self.units[i].on_map() && self.units[i].hex == h)
            .collect()
    }

    /// The game-turn.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whose player-turn it is (seat).
    pub fn player(&self) -> u8 {
        self.player
    }

    /// The step.
    pub fn step(&self) -> Step {
        self.step
    }

    /// The declared combats of this combat phase.
    pub fn combats(&self) -> &[Combat] {
        &self.combats
    }

    /// A retreat after combat waiting for its owner's choice of route among equal ones
    /// (ruling L45).
    pub fn retreat_choice(&self) -> Option<&crate::battle::RetreatChoice> {
        self.retreat_choice.as_ref()
    }

    /// Losses by side (seat).
    pub fn losses(&self, side: u8) -> Losses {
        self.losses[usize::from(side) % 2]
    }

    /// Who holds each city of the schedule (`None`: nobody yet), [`crate::victory::CITIES`]
    /// order.
    pub fn city_holders(&self) -> [Option<u8>; 5] {
        self.city_owner.map(|o| (o != NOBODY).then_some(o))
    }

    /// Whether the Austrians have intervened (the campaign game), and on which turn.
    pub fn austria_intervened(&self) -> Option<u32> {
        self.austria_intervened
    }

    /// Whether Bavaria has defected, and on which turn.
    pub fn bavaria_defected(&self) -> Option<u32> {
        self.bavaria_defected
    }

    /// Whether a unit is dispersed (Combat (K)).
    pub fn is_dispersed(&self, u: &Unit) -> bool {
        u.dispersed_until != 0
    }

    /// Whether units may enter Austria now.
    pub fn austria_open(&self) -> bool {
        match self.ctx.scenario.rules.austria {
            AustriaAccess::Open => true,
            AustriaAccess::Closed => false,
            AustriaAccess::ClosedUntilIntervention => self.austria_intervened.is_some(),
        }
    }

    /// Whether the Reconnaissance rule is in force this turn.
    pub fn reconnaissance(&self) -> bool {
        self.ctx
            .scenario
            .rules
            .reconnaissance_until
            .is_some_and(|t| self.turn <= t)
    }

    /// Whether `side` may examine unit `u` (Reconnaissance: in the spring scenarios the French
    /// see Allied units only once revealed). Where a unit stands is always seen; what it is
    /// may not be.
    pub fn sees(&self, side: u8, u: usize) -> bool {
        let unit = &self.units[u];
        unit.side == side
            || unit.side == 0
            || !self.reconnaissance()
            || unit.revealed > 0
            || !unit.on_map()
            || self.outcome.is_some()
    }

    /// Whether a unit is of the Saxon garrison and still neutral (Saxon Garrison).
    pub fn saxon_locked(&self, u: &Unit) -> bool {
        u.saxon
            && self
                .ctx
                .scenario
                .rules
                .saxon_garrison
                .as_ref()
                .is_some_and(|g| self.turn < g.moves_from_turn)
    }

    /// Whether a unit is in supply now: stacked with or adjacent to a friendly supply unit or
    /// depot that is not dispersed (Supply (B)), or in a fortress (Supply (D)).
    pub fn in_supply(&self, u: usize) -> bool {
        let unit = &self.units[u];
        unit.on_map()
            && (self.ctx.board.hex(unit.hex).fortress
                || self.supply_near(unit.side, unit.hex, |_| true).is_some())
    }

    /// The first friendly supply unit or depot (not dispersed) stacked with or adjacent to a
    /// hex that `pick` accepts.
    pub(crate) fn supply_near(
        &self,
        side: u8,
        h: Hex,
        pick: impl Fn(&Unit) -> bool,
    ) -> Option<usize> {
        (0..self.units.len()).find(|&i| {
            let s = &self.units[i];
            s.on_map()
                && s.side == side
                && matches!(self.arm(s), Arm::Supply | Arm::Depot)
                && !self.is_dispersed(s)
                && (s.hex == h || self.ctx.board.adjacent(s.hex, h))
                && pick(s)
        })
    }

    /// The victory points each side has now (How to Win): cities held, enemy divisions and
    /// leaders destroyed, French groups off the east edge; once the game is over, besieged
    /// cities and half their defenders to the besieger (only at the end of the last turn).
    pub fn victory_points(&self) -> [u32; 2] {
        self.points(self.outcome.is_some())
    }

    /// The victory points, counting sieges (`at_end`) or not.
    pub(crate) fn points(&self, at_end: bool) -> [u32; 2] {
        let Some(row) = self.ctx.tables.victory(self.ctx.scenario.victory) else {
            return [0, 0];
        };
        let mut vp = [0u32; 2];
        for (c, name) in crate::victory::CITIES.iter().enumerate() {
            let Some(h) = self.ctx.board.cities[c] else {
                continue;
            };
            let pts = row.city(name);
            let holder = self.units_at(h).first().map(|&i| self.units[i].side);
            if let Some(s) = holder.filter(|_| at_end && self.ctx.board.hex(h).fortress) {
                if self.besieged(h) {
                    // How to Win: the besieger takes the city and half its defenders' points.
                    let e = usize::from(1 - s);
                    vp[e] += pts;
                    let divs: u32 = self
                        .units_at(h)
                        .iter()
                        .map(|&i| self.division_worth(&self.units[i]))
                        .sum();
                    vp[e] += row.besieged_units(divs);
                    continue;
                }
            }
            if self.city_owner[c] != NOBODY {
                vp[usize::from(self.city_owner[c])] += pts;
            }
        }
        for s in 0..2 {
            vp[1 - s] += row.division * self.losses[s].total();
        }
        // ESM: complete groups of six divisions, a leader and a supply unit.
        vp[0] += row.exit_points(self.exit_groups());
        vp
    }

    /// The turn the French called the armistice, if they have.
    pub fn armistice_called(&self) -> Option<u32> {
        self.armistice_from
    }

    /// Whether the armistice holds now: from its call through the complete game-turns it
    /// lasts (eleven), normal play resuming on the twelfth after the call (Armistice).
    pub fn armistice_active(&self) -> bool {
        match (self.armistice_from, &self.ctx.scenario.rules.armistice) {
            (Some(f), Some(a)) => self.turn <= f + a.turns,
            _ => false,
        }
    }

    /// Reconnaissance (ruling L46): whether the Allies may invert a revealed unit again now:
    /// theirs, on the map, revealed, in their movement phase while the rule holds, before any
    /// Allied unit has moved (the beginning of the phase).
    fn check_hide(&self, u: usize) -> Result<(), Refusal> {
        let Some(x) = self.units.get(u) else {
            return Err(refuse("action", "no such unit"));
        };
        if x.side != 1 || !x.on_map() || x.revealed == 0 {
            return Err(refuse(
                "Reconnaissance",
                "only revealed Allied units on the map are inverted again",
            ));
        }
        if !self.reconnaissance() || self.player != 1 || self.step != Step::Movement {
            return Err(refuse(
                "Reconnaissance",
                "the Allies invert revealed units at the beginning of their movement phase, while \
                 the rule holds",
            ));
        }
        let started = self
            .units
            .iter()
            .any(|u| u.side == 1 && u.on_map() && (u.moved || u.march != MarchState::None));
        if started {
            return Err(refuse(
                "Reconnaissance",
                "units are inverted again at the beginning of the movement phase, before any \
                 Allied unit moves",
            ));
        }
        Ok(())
    }

    fn check_armistice(&self) -> Result<(), Refusal> {
        let Some(a) = &self.ctx.scenario.rules.armistice else {
            return Err(refuse(
                "Armistice",
                "only the campaign game has the armistice",
            ));
        };
        if self.player != 0 || self.step != Step::Movement {
            return Err(refuse(
                "Armistice",
                "the French call it at the beginning of their player-turn",
            ));
        }
        if self.turn <= a.after_turn {
            return Err(refuse(
                "Armistice",
                format!("the armistice may be called after turn {}", a.after_turn),
            ));
        }
        if self.armistice_from.is_some() {
            return Err(refuse("Armistice", "the French call one armistice a game"));
        }
        let started = self
            .units
            .iter()
            .any(|u| u.side == 0 && u.on_map() && (u.moved || u.march != MarchState::None));
        if started {
            return Err(refuse(
                "Armistice",
                "the armistice is called before any French unit moves",
            ));
        }
        Ok(())
    }

    fn apply_armistice(&mut self) {
        self.armistice_from = Some(self.turn);
        let turns = self
            .ctx
            .scenario
            .rules
            .armistice
            .as_ref()
            .map_or(0, |a| a.turns);
        self.events.push(Event::SpecialRule {
            rule: "Armistice".into(),
            text: format!(
                "the French call an armistice: no zone of control, no combat, no crossing back \
                 over the line through turn {}",
                self.turn + turns
            ),
        });
        // Austrian Intervention 1: an armistice brings Austria in.
        if self.ctx.scenario.rules.austrian_intervention.is_some()
            && self.austria_intervened.is_none()
        {
            self.austria_intervened = Some(self.turn);
            self.events.push(Event::SpecialRule {
                rule: "Austrian Intervention".into(),
                text: "the armistice brings Austria into the war".into(),
            });
        }
    }

    /// The complete French groups moved off the east edge (ESM): six divisions, a leader and
    /// a supply unit each.
    pub fn exit_groups(&self) -> u32 {
        let [d, l, s] = self.exited;
        (d / 6).min(l).min(s)
    }

    /// What the French have moved off the east edge: divisions, leaders, supply units.
    pub fn exited(&self) -> [u32; 3] {
        self.exited
    }

    /// Whether a unit may leave the map now: a French unit by the east edge (ESM: in the
    /// movement phase, on an east edge hex, able to move, where the scenario scores it), or
    /// an Allied unit during the armistice ([`Game::may_leave_in_armistice`]).
    pub fn may_exit(&self, u: usize) -> bool {
        let x = &self.units[u];
        if x.side == 1 {
            return self.may_leave_in_armistice(u);
        }
        let scored = self
            .ctx
            .tables
            .victory(self.ctx.scenario.victory)
            .is_some_and(|r| r.esm.is_some());
        scored
            && x.side == 0
            && self.player == 0
            && self.step == Step::Movement
            && self.may_move(x)
            && self.ctx.hexsets[usize::from(self.ctx.east_edge)].contains(&x.hex)
    }

    /// Armistice (ruling L41): an Allied unit that may leave the map to come back on the
    /// other side of the French corridor eight game-turns later: during the armistice, in the
    /// Allied movement phase, able to move, on an east edge hex north-east of the line (it
    /// returns in Austria) or on an edge hex of Austria (it returns on the east edge north of
    /// Austria), Austria being at war.
    pub fn may_leave_in_armistice(&self, u: usize) -> bool {
        let x = &self.units[u];
        let sets = &self.ctx.hexsets;
        let on = |set: u16| {
            sets.get(usize::from(set))
                .is_some_and(|s| s.contains(&x.hex))
        };
        x.side == 1
            && self.player == 1
            && self.step == Step::Movement
            && self.armistice_active()
            && self.austria_open()
            && self.may_move(x)
            && ((on(self.ctx.east_edge) && self.ctx.board.hex(x.hex).zone == 1)
                || on(self.ctx.specials.austria_edge))
    }

    /// The Allied units off the map during the armistice: unit, the turn it returns.
    pub fn away(&self) -> Vec<(usize, u32)> {
        self.away
            .iter()
            .map(|&(u, t, _)| (usize::from(u), t))
            .collect()
    }

    fn apply_armistice_exit(&mut self, u: usize) {
        let back = self
            .ctx
            .scenario
            .rules
            .armistice
            .as_ref()
            .map_or(8, |a| a.reentry_after);
        let austria = self.ctx.board.hex(self.units[u].hex).austria;
        let (set, to) = if austria {
            (self.ctx.east_edge, "the east edge north of Austria")
        } else {
            (self.ctx.specials.austria_edge, "Austria")
        };
        self.units[u].status = Status::Gone;
        self.away.push((u as u16, self.turn + back, set));
        self.events.push(Event::SpecialRule {
            rule: "Armistice".into(),
            text: format!(
                "{} leaves the map; it returns in {to} on turn {}",
                self.label(u),
                self.turn + back
            ),
        });
        self.update_cities();
    }

    /// Allied units returning from off the map this turn (Armistice, L41): placed first, as
    /// reinforcements.
    fn return_from_away(&mut self) {
        let turn = self.turn;
        let due: Vec<(u16, u32, u16)> = self
            .away
            .iter()
            .copied()
            .filter(|&(_, t, _)| t == turn)
            .collect();
        if due.is_empty() {
            return;
        }
        self.away.retain(|&(_, t, _)| t != turn);
        let mut made = Vec::new();
        for (u, _, set) in due {
            let x = &mut self.units[usize::from(u)];
            x.status = Status::Pending;
            x.hexset = set;
            x.dispersed_until = 0;
            made.push(usize::from(u));
        }
        self.settle_arrivals(1, made);
    }

    fn apply_exit(&mut self, u: usize) {
        if self.units[u].side == 1 {
            self.apply_armistice_exit(u);
            return;
        }
        let x = &self.units[u];
        let k = match self.arm(x) {
            Arm::Infantry | Arm::Cavalry => 0,
            Arm::Leader => 1,
            _ => 2,
        };
        let n = if k == 2 {
            self.kind(x).worth
        } else {
            self.division_worth(x)
        };
        self.exited[k] += n;
        self.units[u].status = Status::Gone;
        self.units[u].exited = true;
        self.events.push(Event::Exited {
            unit: self.label(u),
        });
        self.update_cities();
    }

    /// What a unit counts in the schedule's "Div": its divisions (combat units) or 1 (a
    /// leader); supply units count nothing.
    pub(crate) fn division_worth(&self, u: &Unit) -> u32 {
        match self.arm(u) {
            Arm::Infantry | Arm::Cavalry => self.kind(u).worth,
            Arm::Leader => 1,
            _ => 0,
        }
    }

    /// Whether the units in a fortress hex are under siege (Fortress (F)): every adjacent hex
    /// holds enemy units or is controlled by the enemy and not by them. False for a hex that
    /// is no fortress or holds no unit.
    pub fn besieged(&self, h: Hex) -> bool {
        let b = &self.ctx.board;
        if !b.hex(h).fortress {
            return false;
        }
        let Some(side) = self.units_at(h).first().map(|&i| self.units[i].side) else {
            return false;
        };
        let (s, e) = (usize::from(side), usize::from(1 - side));
        let occ = self.occupancy();
        let zoc = self.zones_of_control();
        b.neighbours(h).all(|(_, n)| {
            let i = b.index(n).expect("on the map");
            occ.any[i][e] > 0 || (zoc[i][e] > 0 && zoc[i][s] == 0)
        })
    }

    /// The phase code of the current phase (dispersal lasts to the end of the same phase of
    /// the next game-turn, Combat (K)).
    pub(crate) fn phase_code(&self) -> u32 {
        let phase = match self.step {
            Step::Setup | Step::Movement => 0,
            _ => 1,
        };
        self.turn * 4 + u32::from(self.player) * 2 + phase
    }

    pub(crate) fn disperse(&mut self, u: usize) {
        let until = self.phase_code() + 4;
        self.units[u].dispersed_until = until;
        self.units[u].mp = 0;
        self.events.push(Event::Dispersed {
            unit: self.label(u),
        });
    }

    pub(crate) fn eliminate(&mut self, u: usize, by_march: bool) {
        let hex = self.units[u].hex;
        let side = usize::from(self.units[u].side);
        let w = self.division_worth(&self.units[u]);
        if by_march {
            self.losses[side].march += w;
        } else {
            self.losses[side].combat += w;
        }
        self.units[u].status = Status::Eliminated;
        self.events.push(Event::Eliminated {
            unit: self.label(u),
            hex: hex.to_string(),
        });
    }

    /// Creates a unit; returns its index.
    pub(crate) fn spawn(&mut self, side: u8, kind: u8, nationality: u8, leader: u8) -> usize {
        let s = usize::from(side);
        self.next_serial[s] += 1;
        self.units.push(Unit {
            side,
            kind,
            leader,
            nationality,
            serial: self.next_serial[s],
            hex: Hex::new(0, 0),
            status: Status::Pending,
            hexset: u16::MAX,
            mp: 0,
            moved: false,
            stopped: false,
            dispersed_until: 0,
            disperse_at_end: false,
            march: MarchState::None,
            gotha: false,
            saxon: false,
            revealed: 0,
            supply_use: 0,
            exited: false,
            aside: false,
        });
        self.units.len() - 1
    }

    /// A unit's movement allowance.
    pub fn allowance(&self, u: &Unit) -> u32 {
        self.kind(u).movement
    }

    /// The hexes a pending unit may be placed in now (not holding enemy units).
    pub fn placement_hexes(&self, u: usize) -> Vec<Hex> {
        let unit = &self.units[u];
        if unit.status != Status::Pending {
            return Vec::new();
        }
        let occ = self.occupancy();
        let arm = self.arm(unit);
        self.ctx
            .hexsets
            .get(usize::from(unit.hexset))
            .map(|set| {
                set.iter()
                    .copied()
                    .filter(|&h| {
                        let i = self.ctx.board.index(h).expect("on the map");
                        let info = self.ctx.board.hex(h);
                        occ.any[i][usize::from(1 - unit.side)] == 0
                            && !occ.locked[i]
                            && match arm {
                                Arm::Cavalry => info.cavalry,
                                Arm::Supply | Arm::Depot => info.supply,
                                _ => true,
                            }
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn pending_of(&self, side: u8) -> impl Iterator<Item = usize> + '_ {
        (0..self.units.len())
            .filter(move |&i| self.units[i].status == Status::Pending && self.units[i].side == side)
    }

    /// The hexes a unit can move to now with its cheapest cost (empty when it may not move).
    pub fn moves(&self, u: usize) -> Vec<(Hex, u32)> {
        if self.step != Step::Movement || !self.may_move(&self.units[u]) {
            return Vec::new();
        }
        let occ = self.occupancy();
        let zoc = self.zones_of_control();
        let home = self
            .must_withdraw(u)
            .then(|| self.home_distance(self.units[u].side));
        self.reach(u, &occ, &zoc)
            .into_iter()
            .filter(|s| s.prev.is_some())
            .filter(|s| home.as_ref().is_none_or(|d| self.withdraw_ok(u, s.hex, d)))
            .map(|s| (s.hex, u32::from(s.cost)))
            .collect()
    }

    /// The side to act in a player's step (not chance).
    fn actor(&self) -> u8 {
        match self.step {
            Step::Setup => self.setup_side,
            Step::Retreat | Step::DefenceSupply => 1 - self.player,
            Step::Resolve => self.retreat_choice.as_ref().map_or(self.player, |c| c.side),
            _ => self.player,
        }
    }

    /// A unit on a letter of a subsidiary table, waiting for its owner's choice.
    fn letter_pending(&self) -> Option<usize> {
        (0..self.units.len()).find(|&i| matches!(self.units[i].march, MarchState::Letter(..)))
    }

    // ---- unit breakdown ------------------------------------------------------------------

    /// The kinds a unit may break down into (Stacking (E): any kind below it on its chain).
    pub fn split_kinds(&self, u: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut k = self.kind(&self.units[u]);
        while let Some(b) = &k.breaks_into {
            let Some(i) = self.ctx.units.kinds.iter().position(|x| x.id == b.kind) else {
                break;
            };
            out.push(i as u8);
            k = &self.ctx.units.kinds[i];
        }
        out
    }

    /// Supply units of a side in play (on the map or waiting to arrive).
    pub fn supply_in_play(&self, side: u8) -> u32 {
        self.units
            .iter()
            .filter(|u| {
                u.side == side
                    && matches!(u.status, Status::OnMap | Status::Pending)
                    && self.arm(u) == Arm::Supply
            })
            .count() as u32
    }

    /// The supply units a side may have in play: its ten, less those eliminated in combat,
    /// which never reappear (Supply (E)).
    pub fn supply_limit(&self, side: u8) -> u32 {
        let lost = self
            .units
            .iter()
            .filter(|u| {
                u.side == side && u.status == Status::Eliminated && self.arm(u) == Arm::Supply
            })
            .count() as u32;
        self.ctx
            .units
            .side(DATA_SIDES[usize::from(side)])
            .map_or(10, |s| s.supply)
            .saturating_sub(lost)
    }

    fn check_split(&self, u: usize, into: u8) -> Result<(), Refusal> {
        let unit = &self.units[u];
        if !unit.on_map() || unit.side != self.actor() {
            return Err(refuse(
                "Stacking (E)",
                "only your own units on the map break down",
            ));
        }
        if self.is_dispersed(unit) {
            return Err(refuse(
                "Stacking (F)",
                "a dispersed unit may not be broken down",
            ));
        }
        if self.saxon_locked(unit) {
            return Err(refuse(
                "Saxon Garrison",
                "the Saxon garrison may not move before its turn",
            ));
        }
        if !self.split_kinds(u).contains(&into) {
            return Err(refuse(
                "Stacking (E)",
                format!("a {} does not break down into that", self.kind(unit).name),
            ));
        }
        if self.step == Step::Movement {
            if unit.moved || unit.march != MarchState::None {
                return Err(refuse(
                    "Stacking (E)",
                    "units break down at the start of the movement phase, before they move",
                ));
            }
            if unit.mp < 1 {
                return Err(refuse(
                    "Stacking (E)",
                    "breaking down costs 1 movement point",
                ));
            }
        }
        let (kind, n) = self.split_count(u, into);
        if self.ctx.units.kinds[usize::from(kind)].arm == Arm::Supply
            && self.supply_in_play(unit.side) + n > self.supply_limit(unit.side)
        {
            return Err(refuse(
                "Supply (E)",
                "a depot breaks down only while enough supply units are available (ten a side)",
            ));
        }
        Ok(())
    }

    /// How many units of `into` a unit breaks into.
    fn split_count(&self, u: usize, into: u8) -> (u8, u32) {
        let w = self.kind(&self.units[u]).worth;
        let iw = self.ctx.units.kinds[usize::from(into)].worth.max(1);
        (into, w / iw)
    }

    fn apply_split(&mut self, u: usize, into: u8) {
        let (kind, n) = self.split_count(u, into);
        let src = self.units[u].clone();
        let allowance = self.ctx.units.kinds[usize::from(kind)].movement;
        let spent = self.allowance(&src).saturating_sub(u32::from(src.mp));
        let mut names = Vec::new();
        for _ in 0..n {
            let i = self.spawn(src.side, kind, src.nationality, 0);
            let nu = &mut self.units[i];
            nu.hex = src.hex;
            nu.status = Status::OnMap;
            nu.gotha = src.gotha;
            nu.saxon = src.saxon;
            nu.revealed = src.revealed;
            // Stacking (E): the break-down costs each new unit 1 MP (none at set-up).
            nu.mp = if self.step == Step::Movement {
                allowance.saturating_sub(spent + 1).min(255) as u8
            } else {
                0
            };
            names.push(self.label(i));
        }
        self.units[u].status = Status::Gone;
        self.events.push(Event::Split {
            unit: self.label(u),
            into: names,
        });
    }

    /// The units of a hex that would combine into a unit of `kind` (Stacking (E)): same side
    /// and arm, smaller kinds of its chain, not dispersed, with a movement point left in the
    /// movement phase; `None` when they cannot make it exactly.
    pub fn combine_parts(&self, h: Hex, kind: u8) -> Option<Vec<usize>> {
        let target = self.ctx.units.kinds.get(usize::from(kind))?;
        target.breaks_into.as_ref()?;
        let side = self.actor();
        let mut cands: Vec<usize> = self
            .units_at(h)
            .into_iter()
            .filter(|&i| {
                let u = &self.units[i];
                let k = self.kind(u);
                u.side == side
                    && k.arm == target.arm
                    && k.worth < target.worth
                    && !self.is_dispersed(u)
                    && !self.saxon_locked(u)
                    && (self.step != Step::Movement || u.mp >= 1)
                    && self.chain_below(kind, u.kind)
            })
            .collect();
        // Largest first: with worths of 1 and 2 (and 6) this finds an exact sum when one exists.
        cands.sort_by_key(|&i| (std::cmp::Reverse(self.kind(&self.units[i]).worth), i));
        let mut left = target.worth;
        let mut parts = Vec::new();
        for i in cands {
            let w = self.kind(&self.units[i]).worth;
            if w <= left {
                left -= w;
                parts.push(i);
            }
            if left == 0 {
                break;
            }
        }
        (left == 0 && parts.len() >= 2).then_some(parts)
    }

    fn chain_below(&self, top: u8, k: u8) -> bool {
        let mut cur = &self.ctx.units.kinds[usize::from(top)];
        while let Some(b) = &cur.breaks_into {
            let Some(i) = self.ctx.units.kinds.iter().position(|x| x.id == b.kind) else {
                return false;
            };
            if i == usize::from(k) {
                return true;
            }
            cur = &self.ctx.units.kinds[i];
        }
        false
    }

    fn apply_combine(&mut self, h: Hex, kind: u8) {
        let Some(parts) = self.combine_parts(h, kind) else {
            return;
        };
        let first = self.units[parts[0]].clone();
        let moved = parts.iter().any(|&i| self.units[i].moved);
        let spent = parts
            .iter()
            .map(|&i| {
                self.allowance(&self.units[i])
                    .saturating_sub(u32::from(self.units[i].mp))
            })
            .max()
            .unwrap_or(0);
        let i = self.spawn(first.side, kind, first.nationality, 0);
        let allowance = self.ctx.units.kinds[usize::from(kind)].movement;
        let names: Vec<String> = parts.iter().map(|&p| self.label(p)).collect();
        let gotha = parts.iter().all(|&p| self.units[p].gotha);
        let revealed = parts
            .iter()
            .map(|&p| self.units[p].revealed)
            .min()
            .unwrap_or(0);
        for &p in &parts {
            self.units[p].status = Status::Gone;
        }
        let nu = &mut self.units[i];
        nu.hex = h;
        nu.status = Status::OnMap;
        nu.gotha = gotha;
        nu.revealed = revealed;
        nu.saxon = first.saxon;
        // Stacking (E): combining costs each unit 1 MP; built at the end of its movement it
        // moves no more; built before any has moved it keeps its allowance less that point.
        nu.mp = if self.step == Step::Movement && !moved {
            allowance.saturating_sub(spent + 1).min(255) as u8
        } else {
            0
        };
        nu.moved = moved;
        self.events.push(Event::Combined {
            units: names,
            into: self.label(i),
        });
    }

    // ---- checks --------------------------------------------------------------------------

    fn own_unit(&self, u: u16) -> Result<usize, Refusal> {
        let i = usize::from(u);
        match self.units.get(i) {
            Some(x) if x.side == self.actor() => Ok(i),
            Some(_) => Err(refuse("action", "that unit is not yours")),
            None => Err(refuse("action", "no such unit")),
        }
    }

    fn check_inner(&self, a: Action) -> Result<(), Refusal> {
        if let Some(o) = &self.outcome {
            return Err(refuse(o.case, "the game is over"));
        }
        if self.chance != Chance::None {
            return match a {
                Action::Roll(d) if (1..=6).contains(&d) => Ok(()),
                _ => Err(refuse("action", "a die is rolled now (roll 1..6)")),
            };
        }
        if let Action::Roll(_) = a {
            return Err(refuse("action", "no die is to be rolled now"));
        }
        if let Some(u) = self.letter_pending() {
            return match a {
                Action::Press { unit } | Action::Halt { unit } if usize::from(unit) == u => Ok(()),
                _ => Err(refuse(
                    "Forced March",
                    format!(
                        "{} is on a subsidiary table: press (roll again) or halt first",
                        self.label(u)
                    ),
                )),
            };
        }
        match self.step {
            Step::Setup => self.check_setup(a),
            Step::Movement => self.check_movement(a),
            Step::Attack => self.check_attack(a),
            Step::Retreat => self.check_retreat(a),
            Step::DefenceSupply => self.check_defence_supply(a),
            Step::Resolve if self.retreat_choice.is_some() => match a {
                Action::Retreat { unit, to } => self.check_retreat_choice(unit, to),
                _ => Err(refuse(
                    "Retreat Order of Preference",
                    "choose the route of the retreat first (retreat U HEX)",
                )),
            },
            Step::Resolve => match (self.advance, a) {
                (Some((f, t)), Action::Advance { from, to }) if (f, t) == (from, to) => Ok(()),
                (Some(_), Action::End) => Ok(()),
                (Some((f, t)), _) => Err(refuse(
                    "Combat (M)",
                    format!("advance from {f} into {t}, or end to stay"),
                )),
                (None, _) => Err(refuse("action", "nothing to do now")),
            },
            Step::Over => Err(refuse("action", "nothing to do now")),
        }
    }

    fn check_setup(&self, a: Action) -> Result<(), Refusal> {
        match a {
            Action::Place { unit, hex } => self.check_place(unit, hex),
            Action::Combine { hex, kind } => {
                if self.combine_parts(hex, kind).is_none() {
                    return Err(refuse(
                        "Stacking (E)",
                        "the units of that hex cannot make that unit",
                    ));
                }
                Ok(())
            }
            Action::End => {
                if self.pending_of(self.setup_side).next().is_some() {
                    return Err(refuse(
                        "How to Use the Scenarios",
                        "place every unit of your set-up first",
                    ));
                }
                Ok(())
            }
            _ => Err(refuse(
                "How to Use the Scenarios",
                "the set-up: place units (or combine them), then end",
            )),
        }
    }

    fn check_place(&self, unit: u16, hex: Hex) -> Result<(), Refusal> {
        let u = self.own_unit(unit)?;
        if self.units[u].status != Status::Pending {
            return Err(refuse("action", "that unit is not waiting to be placed"));
        }
        if !self.placement_hexes(u).contains(&hex) {
            let case = if self.step == Step::Setup {
                "How to Use the Scenarios"
            } else {
                "Reinforcement Chart"
            };
            return Err(refuse(
                case,
                format!("{} may not be placed in {hex}", self.label(u)),
            ));
        }
        Ok(())
    }

    fn check_movement(&self, a: Action) -> Result<(), Refusal> {
        if self.removals_due > 0 {
            return match a {
                Action::Disband { unit } if self.may_disband(usize::from(unit)) => Ok(()),
                _ => Err(refuse(
                    "German Rebellion",
                    format!(
                        "remove {} more division(s) from the map first (disband)",
                        self.removals_due
                    ),
                )),
            };
        }
        let pending = self.pending_of(self.player).next().is_some();
        if pending && !matches!(a, Action::Place { .. }) {
            return Err(refuse(
                "Reinforcement Chart",
                "place the arriving reinforcements first",
            ));
        }
        match a {
            Action::Place { unit, hex } => self.check_place(unit, hex),
            Action::Move { unit, to } => {
                let u = self.own_unit(unit)?;
                let x = &self.units[u];
                if !x.on_map() {
                    return Err(refuse("Movement", "that unit is not on the map"));
                }
                if self.is_dispersed(x) {
                    return Err(refuse("Combat (K)", "a dispersed unit may not move"));
                }
                if self.saxon_locked(x) {
                    return Err(refuse(
                        "Saxon Garrison",
                        "the Saxon garrison may not move before its turn",
                    ));
                }
                if x.stopped {
                    return Err(refuse(
                        "Zones of Control (A)",
                        "the unit entered an enemy zone of control and moves no further",
                    ));
                }
                if let MarchState::Unrolled(_) = x.march {
                    // allowed: it moves within its allowance before the roll
                }
                if self.moves(u).iter().any(|&(h, _)| h == to) {
                    Ok(())
                } else {
                    Err(refuse(
                        "Movement",
                        format!(
                            "{} cannot reach {to} with {} movement points (terrain, stacking, \
                             zones of control)",
                            self.label(u),
                            x.mp
                        ),
                    ))
                }
            }
            Action::Split { unit, into } => {
                let u = self.own_unit(unit)?;
                self.check_split(u, into)
            }
            Action::Combine { hex, kind } => {
                if self.combine_parts(hex, kind).is_none() {
                    return Err(refuse(
                        "Stacking (E)",
                        "the units of that hex cannot make that unit (same arm, not dispersed, \
                         1 MP left each, exactly its divisions)",
                    ));
                }
                Ok(())
            }
            Action::March { unit, triple } => self.check_march(unit, triple),
            Action::Press { unit } => {
                let u = self.own_unit(unit)?;
                match self.units[u].march {
                    MarchState::Unrolled(_) | MarchState::Letter(..) => Ok(()),
                    _ => Err(refuse(
                        "Forced March",
                        "that unit has no forced march waiting for its roll",
                    )),
                }
            }
            Action::Halt { unit } => {
                let u = self.own_unit(unit)?;
                match self.units[u].march {
                    MarchState::Letter(..) => Ok(()),
                    _ => Err(refuse(
                        "Forced March",
                        "a march stops only on a subsidiary table's letter",
                    )),
                }
            }
            Action::Overrun { from, to } => self.check_overrun(from, to),
            Action::Disband { unit } => {
                let u = self.own_unit(unit)?;
                self.check_destroy_supply(u)
            }
            Action::Armistice => self.check_armistice(),
            Action::Hide { unit } => self.check_hide(usize::from(unit)),
            Action::Exit { unit } => {
                let u = self.own_unit(unit)?;
                if self.may_exit(u) {
                    Ok(())
                } else {
                    Err(refuse(
                        if self.units[u].side == 1 {
                            "Armistice"
                        } else {
                            "How to Win"
                        },
                        if self.units[u].side == 1 {
                            "during the armistice Allied units leave by the east edge north-east \
                             of the line or by Austria's edges, with a movement point left"
                        } else {
                            "only French units that may move, on the east edge, leave the map \
                             there (ESM, the spring scenarios)"
                        },
                    ))
                }
            }
            Action::End => {
                // Armistice (ruling L41): each unit on the enemy side of the line that can
                // withdraw moves toward its own side in every movement phase.
                for i in 0..self.units.len() {
                    let u = &self.units[i];
                    if u.side == self.player
                        && !u.moved
                        && self.must_withdraw(i)
                        && !self.moves(i).is_empty()
                    {
                        return Err(refuse(
                            "Armistice",
                            format!(
                                "{} stands on the enemy side of the armistice line: withdraw it \
                                 toward your side (or into a fortress as a garrison of up to six \
                                 divisions)",
                                self.label(i)
                            ),
                        ));
                    }
                }
                for (i, u) in self.units.iter().enumerate() {
                    if let MarchState::Unrolled(m) = u.march {
                        let spent = m
                            .before_roll(self.allowance(u))
                            .saturating_sub(u32::from(u.mp));
                        if u.on_map() && u.side == self.player && spent > self.allowance(u) {
                            return Err(refuse(
                                "Forced March",
                                format!(
                                    "{} has marched past its allowance: roll for its march \
                                     (press)",
                                    self.label(i)
                                ),
                            ));
                        }
                    }
                }
                Ok(())
            }
            _ => Err(refuse(
                "General Course of Play",
                "the movement phase: move, split, combine, march, overrun, or end",
            )),
        }
    }

    fn check_march(&self, unit: u16, triple: bool) -> Result<(), Refusal> {
        let u = self.own_unit(unit)?;
        let x = &self.units[u];
        if !x.on_map() || self.is_dispersed(x) || self.saxon_locked(x) {
            return Err(refuse(
                "Forced March",
                "only a unit that may move may force march",
            ));
        }
        if x.moved || x.march != MarchState::None {
            return Err(refuse(
                "Forced March",
                "a forced march is announced before the unit moves",
            ));
        }
        let march = if triple { March::Triple } else { March::Double };
        let infantry = self.arm(x) == Arm::Infantry;
        if !march.allowed(infantry) && !self.gotha_free(x) {
            return Err(refuse(
                "Forced March",
                "only infantry may triple force march",
            ));
        }
        Ok(())
    }

    /// Supply (E): whether a supply unit may be destroyed by its owner now (`disband F7`, ruling
    /// L42): his own supply unit (not a depot) on the map, in his movement phase, not already
    /// spent by a forced march it supports. Destroyed, it returns to the pool of ten: it may
    /// come back as a reinforcement or from a depot.
    pub fn check_destroy_supply(&self, u: usize) -> Result<(), Refusal> {
        let Some(x) = self.units.get(u) else {
            return Err(refuse("action", "no such unit"));
        };
        if !x.on_map() || x.side != self.player || self.arm(x) != Arm::Supply {
            return Err(refuse(
                "Supply (E)",
                "only your own supply units on the map may be destroyed voluntarily",
            ));
        }
        if self.step != Step::Movement {
            return Err(refuse(
                "Supply (E)",
                "supply units are destroyed voluntarily at the end of their own movement phase",
            ));
        }
        if x.supply_use & supply_use::MARCH != 0 {
            return Err(refuse(
                "Supply (C)",
                "that supply unit supports a forced march: it is spent at the end of the phase",
            ));
        }
        Ok(())
    }

    fn apply_destroy_supply(&mut self, u: usize) {
        // Supply (E): gone without loss (not eliminated in combat): it may reappear.
        self.units[u].status = Status::Gone;
        self.events.push(Event::SupplySpent {
            unit: self.label(u),
            role: "destroyed".into(),
        });
    }

    /// The spring scenarios' free march: Gotha's units in the first French player-turn.
    pub fn gotha_free(&self, u: &Unit) -> bool {
        u.gotha
            && self
                .ctx
                .scenario
                .rules
                .gotha_march
                .as_ref()
                .is_some_and(|g| self.turn == g.turn && self.player == 0)
    }

    /// A supply unit that may support a forced march from `h` (Supply (C) III): friendly, not
    /// dispersed, stacked with or adjacent, not moved this phase.
    fn march_supply(&self, side: u8, h: Hex) -> Option<usize> {
        self.supply_near(side, h, |s| !s.moved)
    }

    /// The chance of each end of a forced march unit `u` would declare now (Forced March;
    /// Supply (C) III), as the rules would roll it: none when a friendly supply unit that has
    /// not moved this phase could support it from its hex or beside it, or when the march is
    /// the spring's free march from Gotha; the table's chances otherwise, its owner stopping or
    /// rolling on every letter as `on_letter` says. What its owner may know before declaring.
    pub fn march_chances(&self, u: usize, triple: bool, on_letter: OnLetter) -> MarchChances {
        let unit = &self.units[u];
        let march = if triple { March::Triple } else { March::Double };
        // the same test as the declaration's (Supply (C) III: a supply unit not moved)
        let supported = self.gotha_free(unit) || self.march_supply(unit.side, unit.hex).is_some();
        self.ctx
            .tables
            .forced_march
            .chances(march, supported, on_letter)
    }

    fn apply_march(&mut self, u: usize, triple: bool) {
        let march = if triple { March::Triple } else { March::Double };
        let allowance = self.allowance(&self.units[u]);
        let label = self.label(u);
        if self.gotha_free(&self.units[u]) {
            let mult = self
                .ctx
                .scenario
                .rules
                .gotha_march
                .as_ref()
                .map_or(3, |g| g.multiple);
            let m = if triple { mult.max(3) } else { 2 };
            self.units[u].mp = (allowance * m).min(255) as u8;
            self.units[u].march = MarchState::Done(march);
            self.events.push(Event::MarchDeclared {
                unit: label,
                march: if triple { "triple" } else { "double" }.into(),
                free: true,
            });
            return;
        }
        let side = self.units[u].side;
        let hex = self.units[u].hex;
        if let Some(s) = self.march_supply(side, hex) {
            // Supply (C) III: a supported march rolls on no table; the supply unit is spent at
            // the end of the movement phase.
            self.units[s].supply_use |= supply_use::MARCH;
            self.units[u].mp = march.total(allowance).min(255) as u8;
            self.units[u].march = MarchState::Done(march);
            self.events.push(Event::MarchDeclared {
                unit: label,
                march: if triple { "triple" } else { "double" }.into(),
                free: true,
            });
            return;
        }
        self.units[u].mp = march.before_roll(allowance).min(255) as u8;
        self.units[u].march = MarchState::Unrolled(march);
        self.events.push(Event::MarchDeclared {
            unit: label,
            march: if triple { "triple" } else { "double" }.into(),
            free: false,
        });
    }

    fn apply_march_roll(&mut self, u: usize, die: u8) {
        use crate::forced_march::MarchEntry;
        let unit = &self.units[u];
        let (march, letter) = match unit.march {
            MarchState::Unrolled(m) => (m, None),
            MarchState::Letter(m, c) => (m, Some(c)),
            _ => return,
        };
        let table = self.ctx.tables.forced_march.table(march);
        let entry = match letter {
            None => table.first(die),
            Some(c) => table.subsidiary(c, die),
        }
        .unwrap_or(MarchEntry::Proceed);
        self.events.push(Event::MarchRolled {
            unit: self.label(u),
            table: letter.map_or_else(
                || {
                    if march == March::Triple {
                        "triple".into()
                    } else {
                        "double".into()
                    }
                },
                |c| c.to_string(),
            ),
            die,
            entry: entry.to_string(),
        });
        let allowance = self.allowance(&self.units[u]);
        let extra = march.total(allowance) - march.before_roll(allowance);
        match entry {
            MarchEntry::Proceed => {
                let x = &mut self.units[u];
                x.mp = (u32::from(x.mp) + extra).min(255) as u8;
                x.march = MarchState::Done(march);
            }
            MarchEntry::Dispersed => {
                let x = &mut self.units[u];
                x.mp = (u32::from(x.mp) + extra).min(255) as u8;
                x.march = MarchState::Done(march);
                x.disperse_at_end = true;
            }
            MarchEntry::Destroyed => {
                self.units[u].march = MarchState::Done(march);
                self.eliminate(u, true);
            }
            MarchEntry::Subsidiary(c) => {
                self.units[u].march = MarchState::Letter(march, c);
            }
        }
    }

    // ---- legal actions -------------------------------------------------------------------

    fn legal_inner(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        if self.chance != Chance::None {
            out.extend((1..=6).map(Action::Roll));
            return;
        }
        if let Some(u) = self.letter_pending() {
            out.push(Action::Press { unit: u as u16 });
            out.push(Action::Halt { unit: u as u16 });
            return;
        }
        match self.step {
            Step::Setup => {
                let side = self.setup_side;
                let pending: Vec<usize> = self.pending_of(side).collect();
                for &u in &pending {
                    for h in self.placement_hexes(u) {
                        out.push(Action::Place {
                            unit: u as u16,
                            hex: h,
                        });
                    }
                }
                self.legal_build(out);
                if pending.is_empty() {
                    out.push(Action::End);
                }
            }
            Step::Movement => self.legal_movement(out),
            Step::Attack => self.legal_attack(out),
            Step::Retreat => self.legal_retreat(out),
            Step::DefenceSupply => {
                self.legal_supply(out);
                out.push(Action::End);
            }
            Step::Resolve if self.retreat_choice.is_some() => {
                if let Some(c) = &self.retreat_choice {
                    for &to in &c.options {
                        out.push(Action::Retreat {
                            unit: c.units[0],
                            to,
                        });
                    }
                }
            }
            Step::Resolve => {
                if let Some((from, to)) = self.advance {
                    out.push(Action::Advance { from, to });
                    out.push(Action::End);
                }
            }
            Step::Over => {}
        }
    }

    fn legal_build(&self, out: &mut Vec<Action>) {
        let side = self.actor();
        let mut hexes: Vec<Hex> = self
            .units
            .iter()
            .filter(|u| u.on_map() && u.side == side)
            .map(|u| u.hex)
            .collect();
        hexes.sort();
        hexes.dedup();
        let top: Vec<u8> = (0..self.ctx.units.kinds.len())
            .filter(|&k| {
                let kind = &self.ctx.units.kinds[k];
                kind.breaks_into.is_some() && kind.arm.is_combat()
            })
            .map(|k| k as u8)
            .collect();
        for h in hexes {
            for &k in &top {
                if self.combine_parts(h, k).is_some() {
                    out.push(Action::Combine { hex: h, kind: k });
                }
            }
        }
        // Units begin as the charts give them or combined (How to Use the Scenarios): no
        // break-down at set-up.
        if self.step == Step::Setup {
            return;
        }
        for u in 0..self.units.len() {
            let x = &self.units[u];
            if !x.on_map() || x.side != side {
                continue;
            }
            for k in self.split_kinds(u) {
                if self.check_split(u, k).is_ok() {
                    out.push(Action::Split {
                        unit: u as u16,
                        into: k,
                    });
                }
            }
        }
    }

    fn legal_movement(&self, out: &mut Vec<Action>) {
        let side = self.player;
        if self.removals_due > 0 {
            for u in 0..self.units.len() {
                if self.may_disband(u) {
                    out.push(Action::Disband { unit: u as u16 });
                }
            }
            return;
        }
        let pending: Vec<usize> = self.pending_of(side).collect();
        if !pending.is_empty() {
            for u in pending {
                for h in self.placement_hexes(u) {
                    out.push(Action::Place {
                        unit: u as u16,
                        hex: h,
                    });
                }
            }
            return;
        }
        let occ = self.occupancy();
        let zoc = self.zones_of_control();
        for u in 0..self.units.len() {
            let x = &self.units[u];
            if !self.may_move(x) {
                continue;
            }
            let home = self.must_withdraw(u).then(|| self.home_distance(x.side));
            for s in self.reach(u, &occ, &zoc) {
                if s.prev.is_some() && home.as_ref().is_none_or(|d| self.withdraw_ok(u, s.hex, d)) {
                    out.push(Action::Move {
                        unit: u as u16,
                        to: s.hex,
                    });
                }
            }
        }
        for u in 0..self.units.len() {
            let x = &self.units[u];
            if x.side != side || !x.on_map() {
                continue;
            }
            for triple in [false, true] {
                if self.check_march(u as u16, triple).is_ok() {
                    out.push(Action::March {
                        unit: u as u16,
                        triple,
                    });
                }
            }
            if matches!(x.march, MarchState::Unrolled(_)) {
                out.push(Action::Press { unit: u as u16 });
            }
        }
        self.legal_build(out);
        self.legal_overrun(out);
        for u in 0..self.units.len() {
            if self.units[u].side == side && self.check_destroy_supply(u).is_ok() {
                out.push(Action::Disband { unit: u as u16 });
            }
        }
        for u in 0..self.units.len() {
            if self.may_exit(u) {
                out.push(Action::Exit { unit: u as u16 });
            }
        }
        if self.check_armistice().is_ok() {
            out.push(Action::Armistice);
        }
        for u in 0..self.units.len() {
            if self.units[u].side == side && self.check_hide(u).is_ok() {
                out.push(Action::Hide { unit: u as u16 });
            }
        }
        if self.check_movement(Action::End).is_ok() {
            out.push(Action::End);
        }
    }

    // ---- applying ------------------------------------------------------------------------

    fn apply_inner(&mut self, a: Action) {
        self.events.clear();
        match a {
            Action::Roll(d) => {
                self.since_chance = 0;
                match self.chance {
                    Chance::March(u) => {
                        self.chance = Chance::None;
                        self.apply_march_roll(usize::from(u), d);
                    }
                    Chance::Combat => {
                        self.resolve_combat(d);
                    }
                    Chance::None => {}
                }
                return;
            }
            Action::Place { unit, hex } => {
                let u = usize::from(unit);
                self.units[u].status = Status::OnMap;
                self.units[u].hex = hex;
                self.units[u].hexset = u16::MAX;
                if self.step == Step::Movement {
                    self.units[u].mp = self.allowance(&self.units[u]).min(255) as u8;
                }
                self.events.push(Event::Placed {
                    unit: self.label(u),
                    hex: hex.to_string(),
                });
                self.update_cities();
            }
            Action::Move { unit, to } => self.apply_move(usize::from(unit), to),
            Action::Split { unit, into } => self.apply_split(usize::from(unit), into),
            Action::Combine { hex, kind } => self.apply_combine(hex, kind),
            Action::March { unit, triple } => self.apply_march(usize::from(unit), triple),
            Action::Press { unit } => {
                self.chance = Chance::March(unit);
            }
            Action::Halt { unit } => {
                let u = usize::from(unit);
                if let MarchState::Letter(m, _) = self.units[u].march {
                    self.units[u].march = MarchState::Done(m);
                }
                self.events.push(Event::MarchHalted {
                    unit: self.label(u),
                });
            }
            Action::Overrun { from, to } => self.apply_overrun(from, to),
            Action::Attack { from, to } => self.apply_attack(from, to),
            Action::Aside { unit } => {
                let u = usize::from(unit);
                self.units[u].aside = true;
                self.events.push(Event::StandsAside {
                    unit: self.label(u),
                });
            }
            Action::Supply { unit } => {
                let u = usize::from(unit);
                self.units[u].supply_use |= supply_use::ALLOCATED;
                self.events.push(Event::SupplyAllocated {
                    unit: self.label(u),
                });
            }
            Action::Retreat { to, .. } if self.retreat_choice.is_some() => {
                self.apply_retreat_choice(to)
            }
            Action::Retreat { unit, to } => self.apply_retreat_before_combat(usize::from(unit), to),
            Action::Disband { unit } if self.removals_due > 0 => {
                self.apply_disband(usize::from(unit))
            }
            Action::Disband { unit } => self.apply_destroy_supply(usize::from(unit)),
            Action::Advance { from, to } => self.apply_advance(from, to),
            Action::Exit { unit } => self.apply_exit(usize::from(unit)),
            Action::Armistice => self.apply_armistice(),
            Action::Hide { unit } => {
                let u = usize::from(unit);
                self.units[u].revealed = 0;
                self.events.push(Event::SpecialRule {
                    rule: "Reconnaissance".into(),
                    text: format!("{} is inverted again", self.label(u)),
                });
            }
            Action::End => self.apply_end(),
        }
        self.since_chance += 1;
    }

    fn apply_move(&mut self, u: usize, to: Hex) {
        let occ = self.occupancy();
        let zoc = self.zones_of_control();
        let steps = self.reach(u, &occ, &zoc);
        let Some(cost) = steps.iter().find(|s| s.hex == to).map(|s| s.cost) else {
            return;
        };
        let path = Game::path_to(&steps, to);
        let from = self.units[u].hex;
        let side = self.units[u].side;
        let cavalry = self.arm(&self.units[u]) == Arm::Cavalry;
        // Reconnaissance: French cavalry moving next to Allied units examines them at once.
        if side == 0 && cavalry && self.reconnaissance() {
            for &h in &path {
                self.reveal_around(h, 2);
            }
        }
        let x = &mut self.units[u];
        x.hex = to;
        x.mp = x.mp.saturating_sub(cost.min(255) as u8);
        x.moved = true;
        let i = self.ctx.board.index(to).expect("on the map");
        let z = zoc[i][usize::from(1 - side)];
        if z == crate::movement::ZOC_TOTAL || (z > 0 && !cavalry) {
            x.stopped = true;
        }
        self.events.push(Event::Moved {
            unit: self.label(u),
            from: from.to_string(),
            to: to.to_string(),
            cost: u32::from(cost),
        });
        self.update_cities();
    }

    /// Reveals the Allied units next to (or at) `h` to the French (Reconnaissance).
    pub(crate) fn reveal_around(&mut self, h: Hex, how: u8) {
        let mut names = Vec::new();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if u.on_map()
                && u.side == 1
                && u.revealed < how
                && (u.hex == h || self.ctx.board.adjacent(u.hex, h))
            {
                if u.revealed == 0 {
                    names.push(self.label(i));
                }
                self.units[i].revealed = how;
            }
        }
        if !names.is_empty() {
            self.events.push(Event::Revealed { units: names });
        }
    }

    /// Updates who last occupied each city (How to Win), and the northern option's trigger.
    pub(crate) fn update_cities(&mut self) {
        for c in 0..5 {
            let Some(h) = self.ctx.board.cities[c] else {
                continue;
            };
            let holder = self
                .units
                .iter()
                .find(|u| u.on_map() && u.hex == h && self.arm(u).is_combat())
                .map(|u| u.side);
            if let Some(s) = holder {
                if self.city_owner[c] != s {
                    self.city_owner[c] = s;
                    self.events.push(Event::CityTaken {
                        city: crate::victory::CITIES[c].into(),
                        side: SEAT_NAMES[usize::from(s)].into(),
                    });
                    if s == 0 && self.step != Step::Setup {
                        if let Some(n) = &self.ctx.scenario.rules.northern_option {
                            if n.trigger == crate::victory::CITIES[c] && self.berlin_taken.is_none()
                            {
                                self.berlin_taken = Some(self.turn);
                                self.events.push(Event::SpecialRule {
                                    rule: "Northern Option".into(),
                                    text: format!(
                                        "the French take {}: Allied reinforcements follow",
                                        n.trigger
                                    ),
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    fn apply_end(&mut self) {
        match self.step {
            Step::Setup => {
                if self.setup_side == 1 {
                    self.setup_side = 0;
                } else {
                    self.begin_play();
                }
            }
            Step::Movement => self.end_movement(),
            Step::Attack => self.end_attack(),
            Step::Retreat => {
                self.step = Step::DefenceSupply;
            }
            Step::DefenceSupply => {
                self.step = Step::Resolve;
                self.next_combat = 0;
                self.advance_resolution();
            }
            Step::Resolve => {
                // Combat (M): the attacker stays.
                self.advance = None;
                self.advance_resolution();
            }
            Step::Over => {}
        }
    }

    /// After the set-up: the first turn's French movement phase.
    pub(crate) fn begin_play(&mut self) {
        self.turn = self.ctx.scenario.first_turn;
        self.player = 0;
        self.update_cities();
        self.begin_movement();
    }

    /// The start of a player's movement phase: reinforcements, movement points,
    /// reconnaissance.
    pub(crate) fn begin_movement(&mut self) {
        self.step = Step::Movement;
        self.overrun.clear();
        self.combats.clear();
        self.events.push(Event::PhaseBegins {
            turn: self.turn,
            side: SEAT_NAMES[usize::from(self.player)].into(),
            phase: "movement".into(),
        });
        let p = self.player;
        for i in 0..self.units.len() {
            let a = self.allowance(&self.units[i]).min(255) as u8;
            let u = &mut self.units[i];
            if u.side == p && u.on_map() {
                u.mp = a;
                u.moved = false;
                u.stopped = false;
                u.march = MarchState::None;
                u.disperse_at_end = false;
            }
        }
        if self.reconnaissance() {
            if p == 1 {
                // Reconnaissance: the Allies may invert their revealed units again now, each by
                // choice (`hide`, L46); units off the map are hidden again at once.
                for u in self.units.iter_mut().filter(|u| u.side == 1 && !u.on_map()) {
                    u.revealed = 0;
                }
            } else {
                // French units beginning their movement next to Allied units examine them.
                let french: Vec<Hex> = self
                    .units
                    .iter()
                    .filter(|u| u.on_map() && u.side == 0)
                    .map(|u| u.hex)
                    .collect();
                for h in french {
                    self.reveal_around(h, 1);
                }
            }
        }
        self.special_rules_at_start();
        if p == 1 {
            self.return_from_away();
        }
        self.arrive_reinforcements();
    }

    fn end_movement(&mut self) {
        let p = self.player;
        for u in self.units.iter_mut().filter(|u| u.side == p) {
            if let MarchState::Unrolled(m) | MarchState::Letter(m, _) = u.march {
                u.march = MarchState::Done(m);
            }
        }
        // Forced March: a D result disperses the unit at the end of its march.
        for i in 0..self.units.len() {
            if self.units[i].disperse_at_end && self.units[i].on_map() {
                self.units[i].disperse_at_end = false;
                self.disperse(i);
            }
        }
        // Supply (C) III: supply units that supported forced marches are spent now; a depot
        // leaves a supply unit behind.
        for i in 0..self.units.len() {
            if self.units[i].side == p
                && self.units[i].on_map()
                && self.units[i].supply_use & supply_use::MARCH != 0
            {
                self.spend_supply(i, "march");
            }
        }
        self.check_stacks();
        self.recover(self.phase_code());
        self.step = Step::Attack;
        self.events.push(Event::PhaseBegins {
            turn: self.turn,
            side: SEAT_NAMES[usize::from(p)].into(),
            phase: "combat".into(),
        });
    }

    /// Stacking (B): every stack of combat units must be stacked with or next to a supply unit
    /// (one unit supports every stack it touches; it is spent at the end of the combat phase),
    /// but up to six divisions in a fortress (Fortress (B)). A stack out of supply is dispersed
    /// (our ruling L26: the rulebook forbids it and names no remedy).
    fn check_stacks(&mut self) {
        let p = self.player;
        let mut hexes: Vec<Hex> = self
            .units
            .iter()
            .filter(|u| u.on_map() && u.side == p && self.arm(u).is_combat())
            .map(|u| u.hex)
            .collect();
        hexes.sort();
        let mut stacks = Vec::new();
        for w in hexes.windows(2) {
            if w[0] == w[1] && stacks.last() != Some(&w[0]) {
                stacks.push(w[0]);
            }
        }
        for h in stacks {
            let combat: Vec<usize> = self
                .units_at(h)
                .into_iter()
                .filter(|&i| self.units[i].side == p && self.arm(&self.units[i]).is_combat())
                .collect();
            let info = self.ctx.board.hex(h);
            let divisions: u32 = combat
                .iter()
                .map(|&i| self.kind(&self.units[i]).worth)
                .sum();
            if info.fortress && divisions <= u32::from(info.supplied_divisions) {
                continue;
            }
            let used = self.supply_near(p, h, |s| {
                s.supply_use & (supply_use::STACKING | supply_use::ALLOCATED) != 0
                    && s.supply_use & supply_use::MARCH == 0
            });
            let any =
                used.or_else(|| self.supply_near(p, h, |s| s.supply_use & supply_use::MARCH == 0));
            match any {
                Some(s) => self.units[s].supply_use |= supply_use::STACKING,
                None => {
                    self.events
                        .push(Event::StackOutOfSupply { hex: h.to_string() });
                    for i in combat {
                        if !self.is_dispersed(&self.units[i]) {
                            self.disperse(i);
                        }
                    }
                }
            }
        }
    }

    /// Spends a supply unit: removed, a depot replaced by a supply unit (Supply (C)).
    pub(crate) fn spend_supply(&mut self, i: usize, role: &str) {
        let unit = self.units[i].clone();
        self.units[i].status = Status::Gone;
        self.events.push(Event::SupplySpent {
            unit: self.label(i),
            role: role.into(),
        });
        if self.arm(&unit) == Arm::Depot {
            let k = self.ctx.smallest[2];
            let n = self.spawn(unit.side, k, unit.nationality, 0);
            let x = &mut self.units[n];
            x.hex = unit.hex;
            x.status = Status::OnMap;
            x.revealed = unit.revealed;
            self.events.push(Event::Placed {
                unit: self.label(n),
                hex: unit.hex.to_string(),
            });
        }
    }

    /// Dispersed units whose dispersal ends with this phase recover (Combat (K)).
    pub(crate) fn recover(&mut self, code: u32) {
        let mut names = Vec::new();
        for i in 0..self.units.len() {
            if self.units[i].dispersed_until != 0 && self.units[i].dispersed_until <= code {
                self.units[i].dispersed_until = 0;
                if self.units[i].on_map() {
                    names.push(self.label(i));
                }
            }
        }
        if !names.is_empty() {
            self.events.push(Event::Recovered { units: names });
        }
    }

    /// The end of a combat phase: supply spent, dispersal ended, the next player-turn.
    pub(crate) fn end_combat_phase(&mut self) {
        let p = self.player;
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if !u.on_map() || !matches!(self.arm(u), Arm::Supply | Arm::Depot) {
                continue;
            }
            if u.supply_use & supply_use::FOUGHT != 0 {
                self.spend_supply(i, "combat");
            } else if u.supply_use & supply_use::STACKING != 0 && u.side == p {
                self.spend_supply(i, "stacking");
            }
        }
        for u in self.units.iter_mut() {
            u.supply_use = 0;
            u.aside = false;
        }
        self.recover(self.phase_code());
        self.combats.clear();
        if p == 0 {
            self.player = 1;
            self.begin_movement();
        } else {
            self.end_game_turn();
        }
    }

    fn end_game_turn(&mut self) {
        self.special_rules_at_end();
        if self.turn >= self.ctx.scenario.last_turn {
            let vp = self.points(true);
            let winner = match vp[0].cmp(&vp[1]) {
                std::cmp::Ordering::Greater => Some(Side(0)),
                std::cmp::Ordering::Less => Some(Side(1)),
                std::cmp::Ordering::Equal => None,
            };
            self.events.push(Event::GameOver {
                french: vp[0],
                allies: vp[1],
                winner: winner.map(|w| SEAT_NAMES[usize::from(w.0)].into()),
            });
            self.step = Step::Over;
            self.outcome = Some(Outcome {
                winner,
                case: "How to Win",
                why: format!("victory points: French {}, Allies {}", vp[0], vp[1]),
            });
            return;
        }
        self.turn += 1;
        self.player = 0;
        self.begin_movement();
    }

    /// Creates a force's units as pending placements in a hex set.
    pub(crate) fn create_force(
        &mut self,
        side: u8,
        force: &Force,
        nationality: u8,
        hexset: u16,
    ) -> Vec<usize> {
        let s = self.ctx.smallest;
        let mut made = Vec::new();
        let mut add = |g: &mut Game, kind: u8, leader: u8| {
            let i = g.spawn(side, kind, nationality, leader);
            g.units[i].hexset = hexset;
            made.push(i);
        };
        for _ in 0..force.infantry {
            add(self, s[0], 0);
        }
        for _ in 0..force.cavalry {
            add(self, s[1], 0);
        }
        let room = self
            .supply_limit(side)
            .saturating_sub(self.supply_in_play(side));
        for _ in 0..force.supply.min(room) {
            add(self, s[2], 0);
        }
        for _ in 0..force.depots {
            add(self, s[3], 0);
        }
        for &l in &force.leaders {
            add(self, s[4], l);
        }
        made
    }

    fn arrive_reinforcements(&mut self) {
        let p = self.player;
        let arrivals: Vec<Arrival> = self
            .ctx
            .arrivals
            .iter()
            .filter(|a| a.side == p && a.turn == self.turn)
            .cloned()
            .collect();
        for a in arrivals {
            if a.needs_austria && !self.austria_open() {
                continue;
            }
            // German Rebellion: every later French reinforcement is cancelled.
            if p == 0 && self.rebellion() {
                continue;
            }
            let mut set = a.hexset;
            if let Some(c) = a.city {
                let h = self.ctx.board.cities[usize::from(c)];
                if h.is_some_and(|h| self.besieged(h)) {
                    if crate::victory::CITIES[usize::from(c)] == "Breslau" {
                        set = self.ctx.east_edge;
                    } else {
                        self.events.push(Event::ReinforcementsLost {
                            side: SEAT_NAMES[usize::from(p)].into(),
                            count: a.force.infantry + a.force.cavalry + a.force.supply,
                            why: format!(
                                "{} is under siege",
                                crate::victory::CITIES[usize::from(c)]
                            ),
                        });
                        continue;
                    }
                }
            }
            let made = self.create_force(p, &a.force, a.nationality, set);
            self.settle_arrivals(p, made);
        }
    }

    /// Places arrivals that have one hex only, drops those with none, announces the rest.
    pub(crate) fn settle_arrivals(&mut self, side: u8, made: Vec<usize>) {
        let mut names = Vec::new();
        let mut lost = 0;
        for i in made {
            let hexes = self.placement_hexes(i);
            if hexes.is_empty() {
                // Reinforcement Chart: they never enter a hex of enemy units.
                self.units[i].status = Status::Gone;
                lost += 1;
            } else {
                names.push(self.label(i));
                if hexes.len() == 1 {
                    let u = &mut self.units[i];
                    u.status = Status::OnMap;
                    u.hex = hexes[0];
                    u.hexset = u16::MAX;
                }
                if self.step == Step::Movement {
                    self.units[i].mp = self.allowance(&self.units[i]).min(255) as u8;
                }
            }
        }
        if !names.is_empty() {
            self.events.push(Event::Reinforcements {
                side: SEAT_NAMES[usize::from(side)].into(),
                units: names,
            });
        }
        if lost > 0 {
            self.events.push(Event::ReinforcementsLost {
                side: SEAT_NAMES[usize::from(side)].into(),
                count: lost,
                why: "enemy units hold every hex of their entry".into(),
            });
        }
        self.update_cities();
    }

    // ---- text ----------------------------------------------------------------------------

    fn unit_by_label(&self, s: &str) -> Result<u16, Refusal> {
        let mut cs = s.chars();
        let side = match cs.next() {
            Some('F') | Some('f') => 0u8,
            Some('A') | Some('a') => 1u8,
            _ => return Err(refuse("action", format!("'{s}' is no unit (F12, A3)"))),
        };
        let n: u16 = cs
            .as_str()
            .parse()
            .map_err(|_| refuse("action", format!("'{s}' is no unit (F12, A3)")))?;
        self.units
            .iter()
            .position(|u| u.side == side && u.serial == n)
            .map(|i| i as u16)
            .ok_or_else(|| refuse("action", format!("no unit {s}")))
    }

    fn hex_of(s: &str) -> Result<Hex, Refusal> {
        s.parse::<Hex>()
            .map_err(|_| refuse("action", format!("'{s}' is no hex (XXYY)")))
    }

    fn kind_by_id(&self, s: &str) -> Result<u8, Refusal> {
        self.ctx
            .units
            .kinds
            .iter()
            .position(|k| k.id == s)
            .map(|i| i as u8)
            .ok_or_else(|| refuse("action", format!("'{s}' is no kind of unit")))
    }

    // ---- staging (tests and studies) -----------------------------------------------------

    /// Tests and studies only, outside the rules: removes every unit, ends the set-up, and
    /// puts the game at the start of `player`'s movement phase on `turn` (no reinforcement
    /// arrives, no special rule acts).
    #[doc(hidden)]
    pub fn stage_empty(&mut self, turn: u32, player: u8) {
        self.units.clear();
        self.next_serial = [0; 2];
        self.turn = turn;
        self.player = player % 2;
        self.step = Step::Movement;
        self.chance = Chance::None;
        self.combats.clear();
        self.overrun.clear();
        self.events.clear();
        self.removals_due = 0;
        self.away.clear();
        self.due.clear();
        self.retreat_choice = None;
        self.city_owner = [NOBODY; 5];
    }

    /// Tests and studies only: puts a unit of a kind (`infantry-corps`) on a hex, with its full
    /// allowance; returns its index. `None` for an unknown kind.
    #[doc(hidden)]
    pub fn stage_unit(&mut self, side: u8, kind: &str, hex: Hex) -> Option<usize> {
        let k = self.ctx.units.kinds.iter().position(|x| x.id == kind)? as u8;
        let i = self.spawn(side % 2, k, 0, 0);
        let a = self.allowance(&self.units[i]).min(255) as u8;
        let u = &mut self.units[i];
        u.status = Status::OnMap;
        u.hex = hex;
        u.mp = a;
        self.update_cities();
        Some(i)
    }

    /// Tests and studies only: puts leader `number` of a side on a hex.
    #[doc(hidden)]
    pub fn stage_leader(&mut self, side: u8, number: u8, hex: Hex) -> usize {
        let k = self.ctx.smallest[4];
        let i = self.spawn(side % 2, k, 0, number);
        let u = &mut self.units[i];
        u.status = Status::OnMap;
        u.hex = hex;
        u.mp = 8;
        i
    }

    /// Tests and studies only: mutable access to a unit (to disperse it, mark it revealed...).
    #[doc(hidden)]
    pub fn stage_unit_mut(&mut self, u: usize) -> &mut Unit {
        &mut self.units[u]
    }

    /// Tests and studies only: jumps to a step of the current player-turn.
    #[doc(hidden)]
    pub fn stage_step(&mut self, step: Step) {
        self.step = step;
    }

    /// Whether the German rebellion is under way (the campaign game).
    pub fn rebellion(&self) -> bool {
        crate::special::rebellion_on(self)
    }
}

impl Rules for Game {
    type Action = Action;
    type Event = Event;

    fn rules_version(&self) -> &'static str {
        crate::RULES_VERSION
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Side) -> &str {
        SEAT_NAMES[usize::from(seat.0) % 2]
    }

    fn to_act(&self) -> ToAct {
        if let Some(o) = &self.outcome {
            return ToAct::Over(o.clone());
        }
        if self.chance != Chance::None {
            return ToAct::Chance;
        }
        ToAct::Side(Side(self.actor()))
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_inner(out);
    }

    fn check(&self, a: Action) -> Result<(), Refusal> {
        self.check_inner(a)
    }

    fn apply_unchecked(&mut self, a: Action) {
        self.apply_inner(a);
    }

    fn events(&self) -> &[Event] {
        &self.events
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        if self.chance == Chance::None || self.outcome.is_some() {
            return Vec::new();
        }
        (1..=6).map(|d| (Action::Roll(d), 1)).collect()
    }

    fn action_text(&self, a: Action) -> String {
        let l = |u: u16| {
            if usize::from(u) < self.units.len() {
                self.label(usize::from(u))
            } else {
                format!("?{u}")
            }
        };
        let k = |k: u8| {
            self.ctx
                .units
                .kinds
                .get(usize::from(k))
                .map_or_else(|| format!("?{k}"), |x| x.id.clone())
        };
        match a {
            Action::Place { unit, hex } => format!("place {} {hex}", l(unit)),
            Action::Move { unit, to } => format!("move {} {to}", l(unit)),
            Action::Split { unit, into } => format!("split {} {}", l(unit), k(into)),
            Action::Combine { hex, kind } => format!("combine {hex} {}", k(kind)),
            Action::March { unit, triple } => format!(
                "march {} {}",
                l(unit),
                if triple { "triple" } else { "double" }
            ),
            Action::Press { unit } => format!("press {}", l(unit)),
            Action::Halt { unit } => format!("halt {}", l(unit)),
            Action::Overrun { from, to } => format!("overrun {from} {to}"),
            Action::Attack { from, to } => format!("attack {from} {to}"),
            Action::Supply { unit } => format!("supply {}", l(unit)),
            Action::Aside { unit } => format!("aside {}", l(unit)),
            Action::Retreat { unit, to } => format!("retreat {} {to}", l(unit)),
            Action::Disband { unit } => format!("disband {}", l(unit)),
            Action::Advance { from, to } => format!("advance {from} {to}"),
            Action::Exit { unit } => format!("exit {}", l(unit)),
            Action::Armistice => "armistice".into(),
            Action::Hide { unit } => format!("hide {}", l(unit)),
            Action::End => "end".into(),
            Action::Roll(d) => format!("roll {d}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, Refusal> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let a = match w.as_slice() {
            ["end"] => Action::End,
            ["armistice"] => Action::Armistice,
            ["roll", d] => Action::Roll(
                d.parse()
                    .ok()
                    .filter(|d| (1..=6).contains(d))
                    .ok_or_else(|| refuse("action", format!("'{d}' is no face of a die")))?,
            ),
            ["place", u, h] => Action::Place {
                unit: self.unit_by_label(u)?,
                hex: Game::hex_of(h)?,
            },
            ["move", u, h] => Action::Move {
                unit: self.unit_by_label(u)?,
                to: Game::hex_of(h)?,
            },
            ["split", u, k] => Action::Split {
                unit: self.unit_by_label(u)?,
                into: self.kind_by_id(k)?,
            },
            ["combine", h, k] => Action::Combine {
                hex: Game::hex_of(h)?,
                kind: self.kind_by_id(k)?,
            },
            ["march", u, m] => Action::March {
                unit: self.unit_by_label(u)?,
                triple: match *m {
                    "double" => false,
                    "triple" => true,
                    _ => {
                        return Err(refuse(
                            "action",
                            format!("'{m}': a march is double or triple"),
                        ))
                    }
                },
            },
            ["press", u] => Action::Press {
                unit: self.unit_by_label(u)?,
            },
            ["halt", u] => Action::Halt {
                unit: self.unit_by_label(u)?,
            },
            ["overrun", f, t] => Action::Overrun {
                from: Game::hex_of(f)?,
                to: Game::hex_of(t)?,
            },
            ["attack", f, t] => Action::Attack {
                from: Game::hex_of(f)?,
                to: Game::hex_of(t)?,
            },
            ["supply", u] => Action::Supply {
                unit: self.unit_by_label(u)?,
            },
            ["aside", u] => Action::Aside {
                unit: self.unit_by_label(u)?,
            },
            ["advance", f, t] => Action::Advance {
                from: Game::hex_of(f)?,
                to: Game::hex_of(t)?,
            },
            ["exit", u] => Action::Exit {
                unit: self.unit_by_label(u)?,
            },
            ["disband", u] => Action::Disband {
                unit: self.unit_by_label(u)?,
            },
            ["hide", u] => Action::Hide {
                unit: self.unit_by_label(u)?,
            },
            ["retreat", u, h] => Action::Retreat {
                unit: self.unit_by_label(u)?,
                to: Game::hex_of(h)?,
            },
            _ => {
                return Err(refuse(
                    "action",
                    format!(
                        "'{text}': expected place U HEX, move U HEX, split U KIND, combine HEX \
                         KIND, march U double|triple, press U, halt U, overrun HEX HEX, attack \
                         HEX HEX, aside U, supply U, retreat U HEX, advance HEX HEX, exit U, armistice, hide U, disband U, end, roll N"
                    ),
                ))
            }
        };
        Ok(a)
    }

    fn state_hash(&self) -> u64 {
        let mut h = engine::PortableHasher::new();
        self.units.hash(&mut h);
        self.turn.hash(&mut h);
        self.player.hash(&mut h);
        self.step.hash(&mut h);
        self.setup_side.hash(&mut h);
        self.chance.hash(&mut h);
        self.combats.hash(&mut h);
        self.next_combat.hash(&mut h);
        self.overrun.hash(&mut h);
        self.city_owner.hash(&mut h);
        self.losses.hash(&mut h);
        self.next_serial.hash(&mut h);
        self.austria_intervened.hash(&mut h);
        self.bavaria_defected.hash(&mut h);
        self.berlin_taken.hash(&mut h);
        self.rebellion_from.hash(&mut h);
        self.removals_due.hash(&mut h);
        self.advance.hash(&mut h);
        self.exited.hash(&mut h);
        self.armistice_from.hash(&mut h);
        self.due.hash(&mut h);
        self.retreat_choice.hash(&mut h);
        self.away.hash(&mut h);
        self.outcome.as_ref().map(|o| o.winner).hash(&mut h);
        h.finish()
    }

    fn undoable(&self) -> usize {
        // L29: every choice since the last die may be taken back, none before it.
        self.since_chance
    }

    fn undo_refusal(&self) -> Refusal {
        refuse(
            "L29",
            "a die has been rolled since: nothing before it may be taken back",
        )
    }

    fn visible(&self, owner: Side, viewer: Viewer) -> bool {
        // Reconnaissance: while it is in force the French may not examine Allied units (what
        // they are: where they stand is seen); `Game::sees` says which have been revealed.
        match viewer {
            Viewer::Seat(s) => {
                s == owner || owner.0 == 0 || !self.reconnaissance() || self.outcome.is_some()
            }
            Viewer::Referee => true,
            Viewer::Spectator => !self.reconnaissance() || self.outcome.is_some(),
        }
    }
}

/// The areas the special rules' forces arrive in (exposed for the presenter).
pub fn area_name(a: Area) -> &'static str {
    match a {
        Area::Austria => "Austria",
        Area::ArmisticeSouthwest => "south-west of the armistice line",
        Area::WestEdge => "the west edge",
        Area::EastEdge => "the east edge",
        Area::NorthEdgeEastOfElbe => "the north edge east of the Elbe",
        Area::NorthEdgeWestOfElbe => "the north edge west of the Elbe",
        Area::SouthEdgeWestOfAustria => "the south edge west of Austria",
    }
}
