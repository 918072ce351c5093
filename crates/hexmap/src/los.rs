//! Line of sight: which hexes a straight line between two hex centres passes through.

use crate::{Hex, Parity};

/// One step of a line between hex centres, strictly between its two ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LosStep {
    /// The line passes through the interior of this hex.
    Hex(Hex),
    /// The line runs exactly along the hexside between these two hexes (8.32).
    Hexside(Hex, Hex),
}

fn cube_round(q: f64, r: f64, s: f64) -> (i32, i32) {
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    (rq as i32, rr as i32)
}

/// The steps of the straight line from the centre of `from` to the centre of `to`, excluding
/// both ends (8.34: their own terrain never blocks). Each step is a hex the line crosses, or a
/// hexside the line runs along. Pure function of the two hexes: the same on every machine (the
/// arithmetic is exact-rounded IEEE, with fixed nudges to detect hexside-congruent lines).
///
/// This is the default parity ([`Parity::Even`]); [`line_of_sight_in`] takes the map's.
pub fn line_of_sight(from: Hex, to: Hex) -> Vec<LosStep> {
    line_of_sight_in(from, to, Parity::Even)
}

/// The steps of the straight line from the centre of `from` to the centre of `to` on a grid
/// of parity `p` (see [`line_of_sight`]).
pub fn line_of_sight_in(from: Hex, to: Hex, p: Parity) -> Vec<LosStep> {
    let mut out = Vec::new();
    let n = from.distance_in(to, p);
    if n < 2 {
        return out;
    }
    let (aq, ar, as_) = from.cube_in(p);
    let (bq, br, bs) = to.cube_in(p);
    const E: (f64, f64, f64) = (1e-6, 2e-6, -3e-6);
    for i in 1..n {
        let t = i as f64 / n as f64;
        let lerp = |a: i32, b: i32, e: f64| a as f64 + (b - a) as f64 * t + e;
        let pc = cube_round(lerp(aq, bq, E.0), lerp(ar, br, E.1), lerp(as_, bs, E.2));
        let m = cube_round(lerp(aq, bq, -E.0), lerp(ar, br, -E.1), lerp(as_, bs, -E.2));
        let hp = Hex::from_cube_in(pc.0, pc.1, p);
        let hm = Hex::from_cube_in(m.0, m.1, p);
        if hp == hm {
            out.push(LosStep::Hex(hp));
        } else {
            out.push(LosStep::Hexside(hp.min(hm), hp.max(hm)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().unwrap()
    }

    #[test]
    fn straight_row_passes_through_the_middle_hex() {
        assert_eq!(
            line_of_sight(h("1010"), h("1012")),
            vec![LosStep::Hex(h("1011"))]
        );
    }

    #[test]
    fn adjacent_and_same_hex_have_no_intervening_steps() {
        assert!(line_of_sight(h("1010"), h("1011")).is_empty());
        assert!(line_of_sight(h("1010"), h("1010")).is_empty());
    }

    #[test]
    fn range_two_off_axis_runs_along_a_hexside() {
        // Two rows down and one hex along: the line runs between two hexes (8.32).
        let a = h("1010");
        for b in a.neighbours().iter().flat_map(|n| n.neighbours()) {
            if a.distance(b) != 2 {
                continue;
            }
            let steps = line_of_sight(a, b);
            assert_eq!(steps.len(), 1);
            match steps[0] {
                LosStep::Hex(m) => {
                    assert_eq!(m.distance(a), 1);
                    assert_eq!(m.distance(b), 1);
                }
                LosStep::Hexside(p, q) => {
                    assert_eq!(p.distance(q), 1);
                    for x in [p, q] {
                        assert_eq!(x.distance(a), 1);
                        assert_eq!(x.distance(b), 1);
                    }
                }
            }
        }
    }

    #[test]
    fn symmetric() {
        let a = h("0505");
        for x in 1..12 {
            for y in 1..12 {
                let b = Hex::new(x, y);
                let mut f = line_of_sight(a, b);
                let mut r = line_of_sight(b, a);
                r.reverse();
                f.iter_mut().chain(r.iter_mut()).for_each(|s| {
                    if let LosStep::Hexside(p, q) = s {
                        *s = LosStep::Hexside((*p).min(*q), (*p).max(*q));
                    }
                });
                assert_eq!(f, r, "{a} -> {b}");
            }
        }
    }
}
