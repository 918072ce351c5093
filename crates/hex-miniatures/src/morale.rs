//! Morale: rallying disrupted and routed troops ([6.1], [6.2]) with their generals' help
//! ([6.3]), the general under fire ([17]) and the crisis of morale ([13], [19]).

use crate::army::{ArmyLine, Order};
use crate::prob::{chance_to_reach, Bands, Draw, Modifier, Prob};

/// The number a unit needs to rally, if it is not ordered: a disrupted or retiring unit its
/// national army table's morale, back to ordered ([6.1]); a routed one the routed threshold
/// (0.800), back to disrupted ([6.2]).
pub fn rally_threshold(line: &ArmyLine, order: Order, routed: Prob) -> Option<Prob> {
    match order {
        Order::Ordered => None,
        Order::Disordered | Order::Retiring => Some(line.rally),
        Order::Routed => Some(routed),
    }
}

/// The state a rally reaches: ordered from disrupted or retiring ([6.1]), disrupted from
/// routed ([6.2]).
pub fn rallied(order: Order) -> Order {
    match order {
        Order::Routed => Order::Disordered,
        _ => Order::Ordered,
    }
}

/// Whether a rally succeeds: the draw with the generals' bonus ([6.3]) matches or exceeds the
/// threshold ([6.1], [6.2]).
pub fn rallies(draw: Draw, generals: Modifier, threshold: Prob) -> bool {
    draw.reaches(generals, threshold)
}

/// The chance (thousandths) of a rally.
pub fn rally_chance(threshold: Prob, generals: Modifier) -> u32 {
    chance_to_reach(threshold, generals)
}

/// What becomes of a general under fire ([17]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeneralFate {
    /// Killed: removed.
    Killed,
    /// Wounded: carried from the field, removed.
    Wounded,
    /// Unhurt: his bonus counts this turn ([9.2]).
    Survives,
}

impl GeneralFate {
    /// Reads `killed`, `wounded`, `survives`.
    pub fn parse(s: &str) -> Result<GeneralFate, String> {
        match s {
            "killed" => Ok(GeneralFate::Killed),
            "wounded" => Ok(GeneralFate::Wounded),
            "survives" => Ok(GeneralFate::Survives),
            _ => Err(format!(
                "'{s}': a general's fate is killed, wounded or survives"
            )),
        }
    }
}

/// The fire a general stands in ([6.3], [9.2]: under artillery fire or in combat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnderFire {
    /// His troops are under artillery fire.
    Artillery,
    /// His troops are in combat.
    Combat,
}

/// The table of the general under fire ([17]): one column per kind of fire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralUnderFire {
    /// Under artillery fire.
    pub artillery: Bands<GeneralFate>,
    /// In combat.
    pub combat: Bands<GeneralFate>,
}

impl GeneralUnderFire {
    /// The column for a kind of fire.
    pub fn column(&self, fire: UnderFire) -> &Bands<GeneralFate> {
        match fire {
            UnderFire::Artillery => &self.artillery,
            UnderFire::Combat => &self.combat,
        }
    }

    /// His fate on a draw (no modifier: the test is his own).
    pub fn fate(&self, fire: UnderFire, draw: Draw) -> GeneralFate {
        self.column(fire).result(draw, 0)
    }
}

/// What a crisis of morale does to one unit ([13], [19]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Crisis {
    /// It routs ([9.8.1]'s rout, without the lost base unit).
    Rout,
    /// It retires.
    Retire,
    /// It is disrupted.
    Disrupt,
    /// No crisis: it fights on until the next level ([13]).
    FightsOn,
}

impl Crisis {
    /// Reads `rout`, `retire`, `disrupt`, `fights-on`.
    pub fn parse(s: &str) -> Result<Crisis, String> {
        match s {
            "rout" => Ok(Crisis::Rout),
            "retire" => Ok(Crisis::Retire),
            "disrupt" => Ok(Crisis::Disrupt),
            "fights-on" => Ok(Crisis::FightsOn),
            _ => Err(format!(
                "'{s}': a crisis result is rout, retire, disrupt or fights-on"
            )),
        }
    }
}

/// The crisis of morale table ([19]): one band table per casualty level, 15% then every 5%
/// ([3.2], [12]); a unit in sight of the action draws once when its army first reaches a
/// level ([13]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrisisTable {
    /// Levels in percent, increasing, each with its bands (results worst first, fights-on
    /// last).
    pub levels: Vec<(u32, Bands<Crisis>)>,
}

impl CrisisTable {
    /// The row of a level; above the last, the last (ruling HM10).
    pub fn row(&self, level: u32) -> Option<&Bands<Crisis>> {
        self.levels
            .iter()
            .rev()
            .find(|(l, _)| *l <= level)
            .map(|(_, b)| b)
    }

    /// What the crisis does to one unit at a level, with its generals' bonus (HM9).
    pub fn result(&self, level: u32, draw: Draw, generals: Modifier) -> Option<Crisis> {
        self.row(level).map(|b| b.result(draw, generals))
    }

    /// The chance (thousandths) that a unit suffers a crisis at a level.
    pub fn crisis_chance(&self, level: u32, generals: Modifier) -> u32 {
        self.row(level)
            .map_or(0, |b| b.chance(generals, |c| c != Crisis::FightsOn))
    }
}
