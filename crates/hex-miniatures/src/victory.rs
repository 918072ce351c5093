//! The victory table ([3.2], [12]): the casualty marks at 15% and every 5% after, the
//! levels an army's losses have reached (for the crisis of morale, [13]), and the margins of
//! victory when the battle ends before an army breaks ([14]).

/// The base units an army must lose to reach a casualty level ([3.2]: "how many are needed
/// to reach"): the level's share of its total, rounded up.
pub fn mark(total: u32, level: u32) -> u32 {
    (u64::from(total) * u64::from(level)).div_ceil(100) as u32
}

/// The victory table's marks for an army of `total` base units: every level from `first`
/// (15%) by `step` (5%) up to 100%, each with its base units ([3.2]).
pub fn marks(total: u32, first: u32, step: u32) -> Vec<(u32, u32)> {
    let step = step.max(1);
    (first..=100)
        .step_by(step as usize)
        .map(|l| (l, mark(total, l)))
        .collect()
}

/// The highest casualty level an army's losses have reached (`lost` of `total` base units,
/// reinforcements counted in the total, [13]): `None` below the first (ruling HM8).
pub fn level_reached(lost: u32, total: u32, first: u32, step: u32) -> Option<u32> {
    if total == 0 {
        return None;
    }
    marks(total, first, step)
        .into_iter()
        .rev()
        .find(|&(_, m)| lost >= m)
        .map(|(l, _)| l)
}

/// The level at which an army must test for a crisis of morale at the end of a move ([13]),
/// given the highest level it has already tested: its losses have reached a level above it
/// for the first time. Several marks passed in one move make one test, at the highest (ruling
/// HM22); a level passed again after reinforcements lowered the share is not tested again.
pub fn crisis_due(
    highest_tested: Option<u32>,
    lost: u32,
    total: u32,
    first: u32,
    step: u32,
) -> Option<u32> {
    let reached = level_reached(lost, total, first, step)?;
    match highest_tested {
        Some(h) if reached <= h => None,
        _ => Some(reached),
    }
}

/// The margin of victory ([14]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Margin {
    /// A difference of 5% or less.
    Draw,
    /// More than 5%, up to 10%.
    Marginal,
    /// More than 10%, up to 25%.
    Major,
    /// More than 25%.
    Decisive,
}

/// Who won, when the battle ended before an army broke ([14]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The margin.
    pub margin: Margin,
    /// The winner (0 the first army, 1 the second), `None` for a draw: the army with the
    /// smaller share of casualties.
    pub winner: Option<u8>,
}

/// The margin of victory from each army's losses and total in base units ([14]), compared
/// exactly: a difference of exactly 5%, 10% or 25% falls in the lower band (ruling HM11).
/// `bounds` are the three limits in percent (5, 10, 25). An army of no troops counts as no
/// casualties.
pub fn verdict(first: (u32, u32), second: (u32, u32), bounds: [u32; 3]) -> Verdict {
    let share = |(lost, total): (u32, u32)| -> (i128, i128) {
        if total == 0 {
            (0, 1)
        } else {
            (i128::from(lost), i128::from(total))
        }
    };
    let (l1, t1) = share(first);
    let (l2, t2) = share(second);
    // difference in percent = 100 * (l1/t1 - l2/t2) = 100 * num / den
    let num = l1 * t2 - l2 * t1;
    let den = t1 * t2;
    let over = |b: u32| 100 * num.abs() > i128::from(b) * den;
    let margin = if over(bounds[2]) {
        Margin::Decisive
    } else if over(bounds[1]) {
        Margin::Major
    } else if over(bounds[0]) {
        Margin::Marginal
    } else {
        Margin::Draw
    };
    let winner = match margin {
        Margin::Draw => None,
        _ if num < 0 => Some(0),
        _ => Some(1),
    };
    Verdict { margin, winner }
}
