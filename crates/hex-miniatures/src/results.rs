//! What a combat result does to each side's units ([9.8.1]-[9.8.7]): a base unit lost (one
//! victory point to the enemy, [12]), the state the units are left in and how they move.

use crate::army::Order;
use crate::crt::CombatResult;

/// A side of a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The phasing player's units ([9]).
    Attacker,
    /// The other player's.
    Defender,
}

/// How the units move after the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Movement {
    /// They stay where they are.
    Hold,
    /// They withdraw a full move facing the enemy ([9.8.3]).
    Withdraw,
    /// They retire: withdraw facing the enemy at full speed, and go on retiring each turn
    /// until rallied ([9.8.2], [9.8.6]).
    Retire,
    /// They rout: their normal move and one hex more at once, then their normal move each
    /// turn until a rally of 0.800 ([9.8.1], [2.4.1.5], [6.2]).
    Rout,
}

/// What a result does to one side's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// One base unit removed (and marked on the victory table).
    pub base_unit_lost: bool,
    /// The state the units are left in.
    pub order: Order,
    /// How they move.
    pub movement: Movement,
}

impl Effect {
    fn none(order: Order) -> Effect {
        Effect {
            base_unit_lost: false,
            order,
            movement: Movement::Hold,
        }
    }

    fn routed() -> Effect {
        Effect {
            base_unit_lost: true,
            order: Order::Routed,
            movement: Movement::Rout,
        }
    }
}

/// What `result` does to units of `side` that were in state `order` ([9.8]). Units already
/// disrupted (disordered, retiring or routed) that the result disrupts lose a base unit and
/// rout, except an attacker in a Dx, who holds ([9.8.4]). [9.8.6] says "attackers" already
/// disrupted rout after a Dw: it means the defenders (ruling HM23). An Ad disrupts the
/// attacker and sends him back a move; an Aw or Dw makes the side retire until rallied (HM23).
pub fn effect(result: CombatResult, side: Side, order: Order) -> Effect {
    use CombatResult::*;
    let touched = match side {
        Side::Attacker => result.touches_attacker(),
        Side::Defender => result.touches_defender(),
    };
    if !touched {
        return Effect::none(order);
    }
    let disrupted = order != Order::Ordered;
    match (result, side) {
        (Ar, _) | (Dr, _) => Effect::routed(),
        (Dx, Side::Attacker) if disrupted => Effect {
            base_unit_lost: true,
            order,
            movement: Movement::Hold,
        },
        _ if disrupted => Effect::routed(),
        (Aw, _) | (Dw, _) => Effect {
            base_unit_lost: false,
            order: Order::Retiring,
            movement: Movement::Retire,
        },
        (Ad, _) => Effect {
            base_unit_lost: false,
            order: Order::Disordered,
            movement: Movement::Withdraw,
        },
        _ => Effect {
            base_unit_lost: false,
            order: Order::Disordered,
            movement: Movement::Hold,
        },
    }
}
