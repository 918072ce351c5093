//! The odds arithmetic of combat (Combat, Supply, Leaders, Fortress, the Terrain Effects Chart
//! and How to use the CRT): strengths halved out of supply unit by unit, the terrain's single
//! best multiplier, leader bonuses added after supply and terrain, the percentage rounded to a
//! column in the defender's favour, the river's 160% floor, the automatic elimination at 500%
//! during movement (not against cavalry) and the 500% bar on retreat before combat. Pure
//! functions over numbers: the game state that feeds them is the rules' (not yet written).

use crate::crt::{CombatResult, Crt};

/// A combat unit's strength in combat: its printed strength, halved (fractions dropped) when
/// it is not supplied, never below 1 (Supply (A), Combat (I): a 1-8 always fights with 1).
pub fn unit_strength(printed: u32, supplied: bool) -> u32 {
    if supplied {
        printed
    } else {
        (printed / 2).max(1)
    }
}

/// The strength of several units fighting together: each unit halved on its own when not
/// supplied, then added (Combat (I): two unsupplied 5-4s make 2 + 2 = 4, not half of 10).
pub fn units_strength(printed: &[u32], supplied: bool) -> u32 {
    printed
        .iter()
        .fold(0u32, |t, &p| t.saturating_add(unit_strength(p, supplied)))
}

/// What leaders stacked with units add to them: their bonuses together, at most the units'
/// strength as supply left it (Leaders (B); several leaders share the one limit, ruling L7).
/// Example (Leaders): Napoleon's 25 adds 18 to one 18-2 and all 25 to two.
pub fn leader_addition(bonuses: &[u32], units: u32) -> u32 {
    bonuses
        .iter()
        .fold(0u32, |t, &b| t.saturating_add(b))
        .min(units)
}

/// The attacking strength of one hex-group: its units' strength after supply plus its leaders'
/// offensive bonuses, added after supply (Combat (I), Leaders (B), Leaders (C): leaders alone
/// may not attack, so no units means 0).
pub fn attack_strength(printed: &[u32], supplied: bool, leader_offence: &[u32]) -> u32 {
    let units = units_strength(printed, supplied);
    units.saturating_add(leader_addition(leader_offence, units))
}

/// The defending strength of a hex: its units' strength after supply, multiplied by the
/// terrain's multiplier (1 when none), plus its leaders' defensive bonuses, which the terrain
/// multiplies too (Leaders (B), ruling L8): `m * (S + min(B, S))`. Units defending in a
/// fortress are supplied (Supply (D)): the caller passes `supplied` so. Leaders with no combat
/// unit defend with 1 (Leaders (C)), which the terrain multiplies (ruling L8); an empty hex
/// has no strength (0). Non-combat units alone pass their bracketed strength as `printed`
/// (Combat (L)).
pub fn defence_strength(
    printed: &[u32],
    supplied: bool,
    multiplier: u32,
    leader_defence: &[u32],
) -> u32 {
    let m = multiplier.max(1);
    if printed.is_empty() {
        return if leader_defence.is_empty() { 0 } else { m };
    }
    let units = units_strength(printed, supplied);
    m.saturating_mul(units.saturating_add(leader_addition(leader_defence, units)))
}

/// The attack as a percentage of the defence, fractions dropped (How to use the CRT: 100 times
/// the attack divided by the defence); `None` against no defence.
pub fn percent(attack: u32, defence: u32) -> Option<u32> {
    if defence == 0 {
        return None;
    }
    Some((u64::from(attack) * 100 / u64::from(defence)).min(u64::from(u32::MAX)) as u32)
}

/// Why an attack may not be made at these odds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsRefusal {
    /// No defending strength to compare with.
    #[error("Combat: there is no defender to attack")]
    NoDefender,
    /// Across a river hexside, bridged or not, below the chart's floor (TEC River hexside).
    #[error("TEC River hexside: an attack across a river must be at least {min}% (this one is {percent}%)")]
    BelowRiverMinimum {
        /// The attack's percentage.
        percent: u32,
        /// The floor.
        min: u32,
    },
}

/// A combat's odds: its strengths, percentage and CRT column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    /// Attacking strength.
    pub attack: u32,
    /// Defending strength.
    pub defence: u32,
    /// The attack as a percentage of the defence, fractions dropped.
    pub percent: u32,
    /// The CRT column it rounds down to (Combat (F)).
    pub column: usize,
}

/// The odds of an attack on the CRT. `min_percent` is the floor of the hexside crossed (a
/// river's 160%; 0 when none): the floor holds whatever terrain multiplier counts, the fortress's
/// tripling included (ruling L9).
pub fn odds(crt: &Crt, attack: u32, defence: u32, min_percent: u32) -> Result<Odds, OddsRefusal> {
    let p = percent(attack, defence).ok_or(OddsRefusal::NoDefender)?;
    if p < min_percent {
        return Err(OddsRefusal::BelowRiverMinimum {
            percent: p,
            min: min_percent,
        });
    }
    Ok(Odds {
        attack,
        defence,
        percent: p,
        column: crt.column(p),
    })
}

impl Crt {
    /// The lowest percentage whose column is automatic on every roll (500% in the printed
    /// table): the odds of an automatic elimination and of the bar on retreat before combat.
    pub fn automatic_percent(&self) -> Option<u32> {
        (0..self.columns())
            .find(|&c| {
                self.column_results(c)
                    .iter()
                    .all(|r| *r == CombatResult::Automatic)
            })
            .map(|c| self.percent(c))
    }
}

/// What the automatic elimination during movement is computed over (CRT Auto; How to use the
/// CRT; Supply (F)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovingAttack<'a> {
    /// The moving stack's attacking strength.
    pub attack: u32,
    /// The defending units' printed strengths.
    pub defender_printed: &'a [u32],
    /// Whether the defender could be supplied in the combat phase (a friendly supply unit
    /// stacked with or next to it, or a fortress): then its full printed strength counts,
    /// otherwise its halved strength, whether or not a supply unit would really be spent.
    pub defender_may_be_supplied: bool,
    /// The defending hex's terrain multiplier (1 when none).
    pub multiplier: u32,
    /// The defending leaders' defensive bonuses.
    pub leader_defence: &'a [u32],
    /// Whether a cavalry unit defends in the hex: then no automatic elimination (CRT Auto).
    pub defender_has_cavalry: bool,
}

/// Whether a moving stack eliminates a defending stack automatically during the movement phase
/// (CRT Auto): the attack reaches the table's automatic percentage (500%) against the
/// defender's strength as it could be in the combat phase, and no cavalry defends. The stack's
/// zone of control is then gone and the attacker may move over it at 1 MP more (TEC notes).
pub fn automatic_elimination(crt: &Crt, a: &MovingAttack<'_>) -> bool {
    let Some(auto) = crt.automatic_percent() else {
        return false;
    };
    if a.defender_has_cavalry {
        return false;
    }
    let d = defence_strength(
        a.defender_printed,
        a.defender_may_be_supplied,
        a.multiplier,
        a.leader_defence,
    );
    percent(a.attack, d).is_some_and(|p| p >= auto)
}

/// Whether the odds alone forbid a unit to retreat before combat (Combat (J) II and its note):
/// it is neither cavalry nor a leader and the attack reaches the table's automatic percentage
/// (500%) against the defenders' printed strengths (as if supplied), terrain counted.
pub fn retreat_before_combat_barred(
    crt: &Crt,
    attack: u32,
    defender_printed: &[u32],
    multiplier: u32,
    leader_defence: &[u32],
    cavalry_or_leader: bool,
) -> bool {
    if cavalry_or_leader {
        return false;
    }
    let Some(auto) = crt.automatic_percent() else {
        return false;
    };
    let d = defence_strength(defender_printed, true, multiplier, leader_defence);
    percent(attack, d).is_some_and(|p| p >= auto)
}
