//! Position evaluation: the expected arena score of a side, from the losses as the
//! demoralization levels stand, the units that are trapped where they stand, and the line of
//! communications as the end of the game draws near.

use crate::board::Board;
use crate::info::Info;
use crate::loc::cut_strength;
use crate::tactics::{can_retreat, Values, SCALE, WIN};
use engine::Side;
use naw::{Game, UnitId};

/// Temperature of the mapping from worth to expected score.
const TEMPERATURE: f64 = 0.25 * SCALE;

/// The expected arena score of `me` in `g`: 1 a certain win, 0 a certain loss.
pub(crate) fn evaluate(info: &Info, g: &Game, me: Side) -> f64 {
    if let Some(o) = g.outcome() {
        let s = crate::score(o, crate::side_losses(g), info.tiebreak);
        return s[me.0 as usize];
    }
    let vals = Values::new(info, g, me);
    let b = Board::from_game(info, g);
    let worth = worth_on(info, g, &vals, &b);
    if worth >= WIN {
        return 1.0;
    }
    if worth <= -WIN {
        return 0.0;
    }
    0.5 + 0.5 * (worth / TEMPERATURE).tanh()
}

/// The logit of [`evaluate`] for a game that goes on: `2·worth / TEMPERATURE`, clamped where
/// the worth is a certain win or loss, so that `σ(logit)` is today's evaluation (a feature of
/// the learned evaluation, `features.rs`).
/// `cut` is the strength the line of communications would cut off, when already known.
pub(crate) fn logit_on(info: &Info, g: &Game, vals: &Values, b: &Board, cut: Option<u32>) -> f64 {
    let w = worth_cut(info, g, vals, b, cut).clamp(-WIN, WIN);
    2.0 * w / TEMPERATURE
}

/// The worth behind [`evaluate`] (`vals` for the evaluating side, `b` the game's board): the
/// losses as the levels stand, a quarter of the strength in contact that cannot retreat, and
/// the strength the line of communications would cut off, weighted by the turns left.
pub(crate) fn worth_on(info: &Info, g: &Game, vals: &Values, b: &Board) -> f64 {
    worth_cut(info, g, vals, b, None)
}

/// [`worth_on`] with the strength the line of communications would cut off, when known.
fn worth_cut(info: &Info, g: &Game, vals: &Values, b: &Board, cut: Option<u32>) -> f64 {
    let mut l = vals.losses;
    // units in contact with no way out are likely lost in the next combat phase
    let mut trapped = [0u32; 2];
    for i in 0..info.strength.len() {
        let u = UnitId(i as u8);
        let Some(p) = b.at(u) else { continue };
        let s = info.side[i];
        if b.controlled(Side(1 - s.0), p) && !can_retreat(info, b, s, p) {
            trapped[s.0 as usize] += info.strength[i];
        }
    }
    for s in 0..2 {
        l[s] += trapped[s] / 4;
    }
    let turns_left = g.scenario().last_turn.saturating_sub(g.turn());
    let mut worth = vals.worth(l);
    if let Some((ls, _, _)) = info.loc {
        let w = match turns_left {
            0 => 0.85,
            1 => 0.45,
            2 => 0.2,
            _ => 0.05,
        };
        let cut = cut.unwrap_or_else(|| cut_strength(info, b, ls));
        if cut > 0 {
            let mut lc = l;
            lc[ls.0 as usize] += cut;
            worth = (1.0 - w) * worth + w * vals.worth(lc);
        }
    }
    worth
}
