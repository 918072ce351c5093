//! What an action caused, typed: each event names its case and carries its facts, and
//! [`Event::text`] says it in a sentence for the log. Front ends read the fields, never the
//! sentence.

use crate::Opponent;
use crate::{Column, CombatResult, Game, UnitId, UnitSet};
use engine::{GameEvent, Side};
use hexmap::Hex;
use serde::Serialize;

/// Why a unit was eliminated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Elimination {
    /// An `Ae` result (7.6).
    AttackerEliminated,
    /// A `De` result (7.6).
    DefenderEliminated,
    /// The defenders of an `Ex` result (7.6).
    ExchangeDefender,
    /// Chosen as the attacker's exchange losses (7.6).
    ExchangeLoss,
    /// Displaced with nowhere to go (7.82).
    DisplacedNowhere,
    /// No hex open to its retreat (7.72).
    NoRetreat,
}

impl Elimination {
    /// The case that eliminates.
    pub const fn case(self) -> &'static str {
        match self {
            Elimination::DisplacedNowhere => "7.82",
            Elimination::NoRetreat => "7.72",
            _ => "7.6",
        }
    }

    /// The reason in a few words.
    pub const fn why(self) -> &'static str {
        match self {
            Elimination::AttackerEliminated => "Ae",
            Elimination::DefenderEliminated => "De",
            Elimination::ExchangeDefender => "Ex",
            Elimination::ExchangeLoss => "Ex: exchange losses",
            Elimination::DisplacedNowhere => "displaced with nowhere to go",
            Elimination::NoRetreat => "no hex is open to its retreat",
        }
    }
}

/// What blocked a reinforcement's entry hex (15.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocker {
    /// An enemy unit holds the hex or an enemy zone of control covers it.
    Enemy,
    /// A friendly unit stands in it (where the scenario forbids entering through friends).
    Friend,
}

/// Something an action caused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// 14.62: the side has no movement phase this game-turn.
    NoMovement {
        /// The side.
        side: Side,
    },
    /// 15.0: a reinforcement cannot enter and is delayed one game-turn.
    Delayed {
        /// The reinforcement.
        unit: UnitId,
        /// Its entry hex.
        hex: Hex,
        /// What blocked it.
        by: Blocker,
    },
    /// 15.1: a reinforcement entered the map.
    Entered {
        /// The unit.
        unit: UnitId,
        /// Where it ended its move.
        hex: Hex,
    },
    /// 7.6: a combat was resolved.
    Combat {
        /// The attackers (bombarding artillery included).
        attackers: UnitSet,
        /// The defenders.
        defenders: UnitSet,
        /// Total attack strength.
        attack: u32,
        /// Total defence strength after terrain.
        defence: u32,
        /// The column used.
        column: Column,
        /// The die.
        die: u8,
        /// The result.
        result: CombatResult,
    },
    /// 7.81: a friendly unit was displaced by a retreating one.
    Displaced {
        /// The displaced unit.
        unit: UnitId,
        /// The hex it was pushed out of.
        from: Hex,
        /// The retreating unit that displaced it.
        by: UnitId,
    },
    /// 7.74: a victorious unit advanced after combat.
    Advanced {
        /// The unit.
        unit: UnitId,
        /// The hex it advanced into.
        to: Hex,
    },
    /// A unit was eliminated (7.6, 7.72, 7.82).
    Eliminated {
        /// The unit.
        unit: UnitId,
        /// Why.
        why: Elimination,
    },
    /// 17.5: a unit cannot trace a line of communications and counts as eliminated.
    CutOff {
        /// The unit.
        unit: UnitId,
        /// The hex it could not reach.
        target: Hex,
    },
    /// The game ended (17.2, 17.3, 17.4).
    GameOver {
        /// The winner, `None` for a draw.
        winner: Option<Side>,
        /// The deciding case.
        case: &'static str,
    },
}

impl GameEvent for Event {
    fn case(&self) -> &'static str {
        match self {
            Event::NoMovement { .. } => "14.62",
            Event::Delayed { .. } => "15.0",
            Event::Entered { .. } => "15.1",
            Event::Combat { .. } => "7.6",
            Event::Displaced { .. } => "7.81",
            Event::Advanced { .. } => "7.74",
            Event::Eliminated { why, .. } => why.case(),
            Event::CutOff { .. } => "17.5",
            Event::GameOver { case, .. } => case,
        }
    }
}

impl Event {
    /// The event's case (`7.6`).
    pub fn case(&self) -> &'static str {
        GameEvent::case(self)
    }

    /// The kind's name as serialised (`combat`).
    pub const fn kind(&self) -> &'static str {
        match self {
            Event::NoMovement { .. } => "no_movement",
            Event::Delayed { .. } => "delayed",
            Event::Entered { .. } => "entered",
            Event::Combat { .. } => "combat",
            Event::Displaced { .. } => "displaced",
            Event::Advanced { .. } => "advanced",
            Event::Eliminated { .. } => "eliminated",
            Event::CutOff { .. } => "cut_off",
            Event::GameOver { .. } => "game_over",
        }
    }

    /// The event in a sentence for the log, in the game where it happened.
    pub fn text(&self, g: &Game) -> String {
        let sc = g.scenario();
        let id = |u: UnitId| sc.units.get(u.0 as usize).map_or("?", |d| d.id.as_str());
        let names = |s: &UnitSet| s.iter().map(id).collect::<Vec<_>>().join(", ");
        let side = |s: Side| sc.sides.get(s.0 as usize).map_or("?", |x| x.as_str());
        match *self {
            Event::NoMovement { side: s } => {
                format!("{} have no movement phase this turn", side(s))
            }
            Event::Delayed { unit, hex, by } => match by {
                Blocker::Enemy => format!("{} cannot enter at {hex}: the hex is held or controlled by the enemy; it is delayed one turn", id(unit)),
                Blocker::Friend => format!("{} cannot enter at {hex}: a friendly unit stands in the hex; it is delayed one turn", id(unit)),
            },
            Event::Entered { unit, .. } => format!("{} enters the map", id(unit)),
            Event::Combat {
                ref attackers,
                ref defenders,
                attack,
                defence,
                column,
                die,
                result,
            } => format!(
                "{} ({attack}) against {} ({defence}) at {}: die {die}, {} — {}",
                names(attackers),
                names(defenders),
                column.name(),
                result.name(),
                result.explain()
            ),
            Event::Displaced { unit, from, by } => {
                format!("{} is displaced from {from} by {} (7.81)", id(unit), id(by))
            }
            Event::Advanced { unit, to } => format!("{} advances into {to}", id(unit)),
            Event::Eliminated { unit, why } => {
                let strength = sc.units.get(unit.0 as usize).map_or(0, |d| d.strength);
                format!("{} ({strength}) is eliminated: {}", id(unit), why.why())
            }
            Event::CutOff { unit, target } => format!(
                "{} cannot trace a line of communications to {target} and counts as eliminated",
                id(unit)
            ),
            Event::GameOver { winner, case } => match (case, winner) {
                ("17.3", Some(w)) => format!(
                    "both armies are demoralized at once; the phasing player ({}) wins",
                    side(w)
                ),
                ("17.2", Some(w)) => format!(
                    "the {} army is demoralized; {} win",
                    side(w.other()),
                    side(w)
                ),
                _ => "neither army is demoralized at the end of the last game-turn: a draw".into(),
            },
        }
    }
}

impl Serialize for UnitSet {
    /// As the list of unit numbers.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(|u| u.0))
    }
}

impl Serialize for Column {
    /// As the printed column name (`3-1`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl Serialize for CombatResult {
    /// As the printed abbreviation (`De`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
