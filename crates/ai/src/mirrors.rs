//! The players' own copies of rules knowledge, kept for speed (dense tables read on every step
//! of the planners and the rollouts), exposed only so that `tests/mirrors.rs` can pin each
//! against the rules' public queries on real positions. Not an interface for players.

use crate::board::{Board, Reach};
use crate::info::{info, BLOCKED, NONE};
use engine::Side;
use hexmap::{Dir, Hex};
use naw::{Game, UnitId};

/// Every hex and direction with the copied terrain step cost in half movement points (`None`
/// where the copy blocks the step): the planners' copy of `naw`'s step cost (5.2, 9.0).
pub fn step_costs(g: &Game) -> Vec<(Hex, Dir, Option<u16>)> {
    let info = info(g);
    let mut out = Vec::with_capacity(info.n * 6);
    for i in 0..info.n {
        for d in Dir::ALL {
            let k = d.index();
            let c = (info.nb[i][k] != NONE && info.step[i][k] != BLOCKED)
                .then_some(info.step[i][k] as u16);
            out.push((info.hex(i), d, c));
        }
    }
    out
}

/// Every hex with the copied answer to "does `side` exert a zone of control here" (6.0, 6.6),
/// from the planning board of `g`.
pub fn zones_of_control(g: &Game, side: Side) -> Vec<(Hex, bool)> {
    let info = info(g);
    let b = Board::from_game(&info, g);
    (0..info.n)
        .map(|i| (info.hex(i), b.controlled(side, i)))
        .collect()
}

/// Every hex with the unit the planning board puts there.
pub fn occupants(g: &Game) -> Vec<(Hex, Option<UnitId>)> {
    let info = info(g);
    let b = Board::from_game(&info, g);
    (0..info.n).map(|i| (info.hex(i), b.unit_at(i))).collect()
}

/// The copied defence of `defenders` against `attackers` where they stand (7.4, 9.0: terrain
/// doubling, streams and bridges, slopes).
pub fn defence(g: &Game, attackers: &[UnitId], defenders: &[UnitId]) -> u32 {
    let info = info(g);
    let b = Board::from_game(&info, g);
    let placed = crate::tactics::placed(&b, attackers);
    crate::tactics::defence(&info, &b, &placed, defenders)
}

/// The copied movement search (5.1-5.3, 6.0, 15.3) for a unit as the planners run it for the
/// enemy's next movement phase: every hex where it could end its move with the cheapest cost,
/// sorted; `None` when the copy finds it cannot move.
pub fn reach(g: &Game, u: UnitId) -> Option<Vec<(Hex, u16)>> {
    let info = info(g);
    let b = Board::from_game(&info, g);
    let m = crate::loc::next_mover(&info, g, &b, u, g.side_of(u), g.turn())?;
    let mut out = Vec::new();
    Reach::default().run(&info, &b, m, &mut out);
    let mut v: Vec<(Hex, u16)> = out
        .into_iter()
        .map(|(i, c)| (info.hex(i as usize), c))
        .collect();
    v.sort();
    Some(v)
}
