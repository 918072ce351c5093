//! The fitted transform between kilometres on the ground and hexes of the Battle of Nations map,
//! and the small amount of plane geometry the rasteriser needs.
//!
//! Ground coordinates are kilometres east (`x`) and north (`y`) of the Altes Rathaus on the
//! Leipzig Markt. The fit (`shared/research/leipzig-geography.md`, a least-squares fit of nine
//! set-up hexes to the places the units stood) is
//!
//! ```text
//! x = 0.823 * (18.41 - YY')      y = 0.728 * (13.50 - XX)      YY' = YY + 0.5 on even XX
//! ```
//!
//! In *grid coordinates* `(u, v) = (YY', XX)` the hex centres form a lattice whose rows are one
//! unit apart; scaling `v` by `sqrt(3)/2` makes it a regular hex lattice, where the hex holding a
//! point is simply the nearest centre.

use hexmap::Hex;

/// Kilometres per step of `YY` (east-west, one hex across).
pub const KM_PER_YY: f64 = 0.823;
/// The fractional `YY'` of the Markt.
pub const YY_AT_MARKT: f64 = 18.41;
/// Kilometres per step of `XX` (north-south, one row).
pub const KM_PER_XX: f64 = 0.728;
/// The fractional `XX` of the Markt.
pub const XX_AT_MARKT: f64 = 13.50;

/// Height of a row in a regular hex lattice whose hexes are one unit across.
pub const ROW: f64 = 0.866_025_403_784_438_6;

/// The ground position (km east, km north of the Markt) of a hex centre.
pub fn hex_to_km(h: Hex) -> (f64, f64) {
    let (u, v) = hex_to_grid(h);
    (KM_PER_YY * (YY_AT_MARKT - u), KM_PER_XX * (XX_AT_MARKT - v))
}

/// Grid coordinates `(YY', XX)` of a ground position.
pub fn km_to_grid(x: f64, y: f64) -> (f64, f64) {
    (YY_AT_MARKT - x / KM_PER_YY, XX_AT_MARKT - y / KM_PER_XX)
}

/// Grid coordinates `(YY', XX)` of a hex centre.
pub fn hex_to_grid(h: Hex) -> (f64, f64) {
    let shift = if h.x % 2 == 0 { 0.5 } else { 0.0 };
    (h.y as f64 + shift, h.x as f64)
}

/// The hex (possibly off the map) whose area holds a ground position: the nearest centre in the
/// regular lattice. Ties go to the lower row, then the lower `YY`.
pub fn hex_at_km(x: f64, y: f64) -> Hex {
    let (u, v) = km_to_grid(x, y);
    let r0 = v.floor() as i16;
    let mut best = (f64::INFINITY, Hex::new(0, 0));
    for r in r0 - 1..=r0 + 2 {
        let shift = if r % 2 == 0 { 0.5 } else { 0.0 };
        let k = (u - shift).round() as i16;
        for yy in k - 1..=k + 1 {
            let du = u - (yy as f64 + shift);
            let dv = (v - r as f64) * ROW;
            let d = du * du + dv * dv;
            if d < best.0 {
                best = (d, Hex::new(r, yy));
            }
        }
    }
    best.1
}

/// A point of the ground plane, in km.
pub type Pt = [f64; 2];

/// Twice the signed area of the triangle `p q r` (positive when counter-clockwise).
fn orient(p: Pt, q: Pt, r: Pt) -> f64 {
    (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
}

/// True when segment `p q` (a piece of a river) crosses segment `a b` (joining two hex centres).
/// Touching counts on one side only (a zero orientation is treated as positive), so a polyline
/// passing exactly through a point of `a b` is counted once, never twice or not at all.
pub fn crosses(p: Pt, q: Pt, a: Pt, b: Pt) -> bool {
    let side = |o: f64| o >= 0.0;
    side(orient(a, b, p)) != side(orient(a, b, q)) && side(orient(p, q, a)) != side(orient(p, q, b))
}

/// Distance from point `p` to segment `a b`.
pub fn dist_to_segment(p: Pt, a: Pt, b: Pt) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
    };
    let c = [a[0] + t * d[0], a[1] + t * d[1]];
    ((p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2)).sqrt()
}

/// Even-odd point-in-polygon test (the polygon is closed implicitly).
pub fn inside(p: Pt, poly: &[Pt]) -> bool {
    let mut c = false;
    let n = poly.len();
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                c = !c;
            }
        }
    }
    c
}

/// The hexes a polyline passes through, in order, as a chain of adjacent hexes (off-map hexes
/// included). The line is sampled every 10 m; where two samples land in hexes that are not
/// adjacent (the line passed exactly through a corner) the gap is filled with the hex line.
/// Then corners are cut: a hex whose two chain neighbours are themselves adjacent is dropped,
/// unless a vertex of the polyline lies in it (the road really goes there).
pub fn trace(points: &[Pt]) -> Vec<Hex> {
    let mut chain: Vec<Hex> = Vec::new();
    let mut pinned: Vec<Hex> = points.iter().map(|p| hex_at_km(p[0], p[1])).collect();
    pinned.sort();
    let push = |h: Hex, chain: &mut Vec<Hex>| {
        if let Some(&last) = chain.last() {
            if last == h {
                return;
            }
            if last.distance(h) > 1 {
                for m in hex_line(last, h) {
                    if chain.last() != Some(&m) {
                        chain.push(m);
                    }
                }
                return;
            }
        }
        chain.push(h);
    };
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        let n = ((len / 0.01).ceil() as usize).max(1);
        for i in 0..=n {
            let t = i as f64 / n as f64;
            let p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            push(hex_at_km(p[0], p[1]), &mut chain);
        }
    }
    if points.len() == 1 {
        push(hex_at_km(points[0][0], points[0][1]), &mut chain);
    }
    // cut corners until nothing changes
    loop {
        let mut changed = false;
        let mut i = 1;
        while i + 1 < chain.len() {
            let (a, b, c) = (chain[i - 1], chain[i], chain[i + 1]);
            if a == c {
                // out and straight back: drop the excursion
                chain.drain(i..i + 2);
                changed = true;
            } else if a.distance(c) == 1 && pinned.binary_search(&b).is_err() {
                chain.remove(i);
                changed = true;
            } else {
                i += 1;
            }
        }
        if !changed {
            break;
        }
    }
    chain
}

/// The hexes on the straight hex line from `a` to `b`, excluding `a`, including `b`.
fn hex_line(a: Hex, b: Hex) -> Vec<Hex> {
    let n = a.distance(b) as i32;
    let (aq, ar, _) = a.cube();
    let (bq, br, _) = b.cube();
    (1..=n)
        .map(|i| {
            let t = i as f64 / n as f64;
            // nudge off exact ties deterministically
            let q = aq as f64 + (bq - aq) as f64 * t + 1e-6;
            let r = ar as f64 + (br - ar) as f64 * t + 2e-6;
            let (q, r) = cube_round(q, r);
            Hex::from_cube(q, r)
        })
        .collect()
}

fn cube_round(q: f64, r: f64) -> (i32, i32) {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    (rq as i32, rr as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markt_is_in_1418() {
        assert_eq!(hex_at_km(0.0, 0.0), Hex::new(14, 18));
    }

    #[test]
    fn every_hex_centre_maps_back_to_its_hex() {
        for x in -1..32 {
            for y in -1..34 {
                let h = Hex::new(x, y);
                let (kx, ky) = hex_to_km(h);
                assert_eq!(hex_at_km(kx, ky), h);
                // and points a little way off the centre too
                assert_eq!(hex_at_km(kx + 0.2, ky + 0.15), h, "{h}");
                assert_eq!(hex_at_km(kx - 0.2, ky - 0.15), h, "{h}");
            }
        }
    }

    #[test]
    fn traces_are_chains_of_adjacent_hexes() {
        let line = [[-10.0, -5.0], [3.0, 7.0], [12.0, -9.5], [12.1, -9.4]];
        let c = trace(&line);
        assert!(c.windows(2).all(|w| w[0].distance(w[1]) == 1), "{c:?}");
        assert_eq!(c[0], hex_at_km(-10.0, -5.0));
        assert_eq!(*c.last().unwrap(), hex_at_km(12.1, -9.4));
    }

    #[test]
    fn crossing_is_counted_once_at_a_shared_vertex() {
        let a = [0.0, -1.0];
        let b = [0.0, 1.0];
        // a polyline crossing a b exactly at its vertex (0, 0)
        let p = [-1.0, 0.5];
        let v = [0.0, 0.0];
        let q = [1.0, -0.5];
        let n = crosses(p, v, a, b) as u8 + crosses(v, q, a, b) as u8;
        assert_eq!(n, 1);
    }

    #[test]
    fn point_in_polygon() {
        let sq = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        assert!(inside([1.0, 1.0], &sq));
        assert!(!inside([3.0, 1.0], &sq));
    }
}
