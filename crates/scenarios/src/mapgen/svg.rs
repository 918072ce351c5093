//! An SVG drawing of the generated map laid over its source geography, for people reviewing
//! the reconstruction (`gen-leipzig-map --svg FILE`).

use std::fmt::Write;

use hexmap::{Dir, Hex, Hexside};

use super::geom::{hex_to_km, KM_PER_XX, KM_PER_YY, ROW};
use super::Generated;

const PX: f64 = 40.0; // pixels per km
const X0: f64 = -11.6;
const Y1: f64 = 10.2;

fn px(x: f64, y: f64) -> (f64, f64) {
    ((x - X0) * PX, (Y1 - y) * PX)
}

/// The six corners of a hex on the ground (km east, km north), numbered as
/// [`hexmap::CORNERS`]: its drawing-frame corners (rows `ROW` apart, `y` south) carried onto
/// the ground's lattice, a `YY` step `KM_PER_YY` east-west and a row `KM_PER_XX` north-south.
fn corners(h: Hex) -> [(f64, f64); 6] {
    let (cx, cy) = hex_to_km(h);
    hexmap::CORNERS.map(|(x, y)| (cx + KM_PER_YY * x, cy - KM_PER_XX * y / ROW))
}

/// The two corners bounding the hexside of `h` in direction `d`.
fn side_corners(h: Hex, d: Dir) -> ((f64, f64), (f64, f64)) {
    let c = corners(h);
    let (i, j) = d.corners();
    (c[i], c[j])
}

/// Draws the map.
pub fn preview(g: &Generated) -> String {
    let map = &g.map;
    let mut s = String::new();
    let (w, h) = px(15.2, -12.2);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for hx in map.hexes() {
        let fill = &map.terrain_kind(hx).fill;
        let pts: Vec<String> = corners(hx)
            .iter()
            .map(|&(x, y)| {
                let (a, b) = px(x, y);
                format!("{a:.1},{b:.1}")
            })
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{fill}" stroke="#999" stroke-width="0.5"/>"##,
            pts.join(" ")
        );
        let (cx, cy) = hex_to_km(hx);
        let (a, b) = px(cx, cy);
        let _ = writeln!(
            s,
            r##"<text x="{a:.1}" y="{:.1}" font-size="6" text-anchor="middle" fill="#666">{hx}</text>"##,
            b - 7.0
        );
    }
    // hexside features
    for hx in map.hexes() {
        for d in Dir::ALL {
            let n = hx.neighbour(d);
            if map.contains(n) && n < hx {
                continue;
            }
            let f = map.hexside(hx, d);
            let (p, q) = side_corners(hx, d);
            let (p, q) = (px(p.0, p.1), px(q.0, q.1));
            if f.has(Hexside::RIVER) {
                let _ = writeln!(
                    s,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#1f5fbf" stroke-width="4"/>"##,
                    p.0, p.1, q.0, q.1
                );
            } else if f.has(Hexside::STREAM) {
                let _ = writeln!(
                    s,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#4fa0e0" stroke-width="2.5"/>"##,
                    p.0, p.1, q.0, q.1
                );
            }
            if f.has(Hexside::ROAD) {
                let (a, b) = hex_to_km(hx);
                let (c, e) = if map.contains(n) {
                    hex_to_km(n)
                } else {
                    let (c, e) = hex_to_km(n);
                    ((a + c) / 2.0, (b + e) / 2.0)
                };
                let (a, b) = px(a, b);
                let (c, e) = px(c, e);
                let _ = writeln!(
                    s,
                    r##"<line x1="{a:.1}" y1="{b:.1}" x2="{c:.1}" y2="{e:.1}" stroke="#7a4a1a" stroke-width="2"/>"##
                );
            }
            if f.has(Hexside::BRIDGE) {
                let m = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="black"/>"##,
                    m.0, m.1
                );
            }
        }
    }
    // the source polylines, thin
    let geo = &g.geography;
    for (lines, colour) in [
        (&geo.rivers, "#002080"),
        (&geo.streams, "#0060c0"),
        (&geo.roads, "#ff2020"),
    ] {
        for l in lines {
            let pts: Vec<String> = l
                .points
                .iter()
                .map(|p| {
                    let (a, b) = px(p[0], p[1]);
                    format!("{a:.1},{b:.1}")
                })
                .collect();
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="0.8" stroke-dasharray="3,2"/>"#,
                pts.join(" ")
            );
        }
    }
    for a in &geo.areas {
        let pts: Vec<String> = a
            .polygon
            .iter()
            .map(|p| {
                let (x, y) = px(p[0], p[1]);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="none" stroke="#303030" stroke-width="0.6" stroke-dasharray="1,2"/>"##,
            pts.join(" ")
        );
    }
    for p in &geo.places {
        let (a, b) = px(p.at[0], p.at[1]);
        let _ = writeln!(
            s,
            r#"<circle cx="{a:.1}" cy="{b:.1}" r="2" fill="black"/><text x="{:.1}" y="{:.1}" font-size="8">{}</text>"#,
            a + 3.0,
            b + 3.0,
            p.name
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_draw_the_same_hexside() {
        let close = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).abs() + (p.1 - q.1).abs() < 1e-9;
        for hx in [Hex::new(14, 18), Hex::new(15, 18), Hex::new(1, 1)] {
            for d in Dir::ALL {
                let (a, b) = side_corners(hx, d);
                let (c, e) = side_corners(hx.neighbour(d), d.opposite());
                assert!(close(a, e) && close(b, c), "{hx} {d:?}");
            }
        }
    }
}
