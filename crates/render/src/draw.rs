//! The SVG drawing of a map.

use crate::palette::*;
use crate::{nation_name, Counter, Options, UnitKind, DEFAULT_SCALE};
use hexmap::{Dir, FeatureKind, FeatureStyle, Hex, Hexside, Legend, Map, Parity, Terrain, CORNERS};
use std::collections::HashMap;
use std::fmt::{self, Write};

/// Circumradius of a hex one unit across its flats (hexmap's geometry).
const R: f64 = hexmap::CIRCUMRADIUS;

const SANS: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
const SERIF: &str = "DejaVu Serif, Georgia, Times New Roman, serif";

/// A number for SVG output: at most two decimals, no trailing zeros.
#[derive(Clone, Copy)]
struct N(f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = if self.0.is_finite() { self.0 } else { 0.0 };
        let s = format!("{v:.2}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if s == "-0" || s.is_empty() { "0" } else { s })
    }
}

/// Escapes text for XML content or a quoted attribute, dropping characters XML 1.0 forbids.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\t' | '\n' | '\r' => o.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => o.push(c),
        }
    }
    o
}

/// Maps hex units to pixels.
struct Frame {
    s: f64,
    parity: Parity,
    ox: f64,
    oy: f64,
}

impl Frame {
    fn pt(&self, (x, y): (f64, f64)) -> (f64, f64) {
        (self.ox + x * self.s, self.oy + y * self.s)
    }

    fn centre(&self, h: Hex) -> (f64, f64) {
        self.pt(h.centre_in(self.parity))
    }

    fn corner(&self, h: Hex, i: usize) -> (f64, f64) {
        let (x, y) = h.centre_in(self.parity);
        self.pt((x + CORNERS[i].0, y + CORNERS[i].1))
    }

    /// The two ends of the hexside of `h` in direction `d`.
    fn side(&self, h: Hex, d: Dir) -> ((f64, f64), (f64, f64)) {
        let (a, b) = d.corners();
        (self.corner(h, a), self.corner(h, b))
    }
}

/// Appends the outline of a hex of circumradius `r` pixels centred on `(cx, cy)` as a closed
/// path.
fn hex_path(o: &mut String, (cx, cy): (f64, f64), r: f64) {
    for (i, (x, y)) in CORNERS.iter().enumerate() {
        let _ = write!(
            o,
            "{}{},{} ",
            if i == 0 { "M" } else { "L" },
            N(cx + x / R * r),
            N(cy + y / R * r)
        );
    }
    o.push('Z');
}

/// The pattern names of the legend that this renderer draws over a terrain's fill, with the
/// id of their `<pattern>` in the SVG's `defs` (`buildings` is drawn as shapes, not a pattern).
const PATTERNS: [(&str, &str); 3] = [
    ("trees", "forest"),
    ("hatching", "rough"),
    ("tufts", "marsh"),
];

/// The fill of the marks of a legend pattern this renderer knows.
fn pattern_marks(pattern: Option<&str>) -> Option<String> {
    let p = pattern?;
    PATTERNS
        .iter()
        .find(|(name, _)| *name == p)
        .map(|(_, id)| format!("url(#{id})"))
}

/// The stroke attributes of a hexside feature, its widths in hex widths scaled by `s`.
fn feature_stroke(k: &FeatureKind, s: f64) -> String {
    let mut a = format!(
        r#"stroke="{}" stroke-width="{}""#,
        esc(&k.stroke),
        N(k.width * s)
    );
    match &k.dash {
        Some(d) => {
            let v: Vec<String> = d
                .split([' ', ','])
                .filter_map(|x| x.parse::<f64>().ok())
                .map(|x| N(x * s).to_string())
                .collect();
            let _ = write!(a, r#" stroke-dasharray="{}""#, v.join(" "));
        }
        None if k.style != FeatureStyle::Crossing => {
            a.push_str(r#" stroke-linecap="round" stroke-linejoin="round""#)
        }
        None => {}
    }
    a
}

/// The order features are laid in, bottom to top: by style, then the legend's later features
/// under its earlier ones (standard legend: slopes, streams, rivers, bridges, trails, roads).
fn feature_order(l: &Legend) -> Vec<usize> {
    let mut v = Vec::new();
    for st in [
        FeatureStyle::Hachured,
        FeatureStyle::Edge,
        FeatureStyle::Crossing,
        FeatureStyle::Route,
    ] {
        v.extend(
            (0..l.features.len())
                .rev()
                .filter(|&i| l.features[i].style == st),
        );
    }
    v
}

/// Buildings of a town hex, as rectangles `(x, y, w, h)` in hex units around the centre.
const BUILDINGS: [(f64, f64, f64, f64); 7] = [
    (-0.27, -0.20, 0.17, 0.12),
    (-0.06, -0.25, 0.12, 0.17),
    (0.10, -0.17, 0.17, 0.11),
    (-0.30, -0.03, 0.12, 0.16),
    (-0.12, -0.03, 0.22, 0.12),
    (0.14, 0.00, 0.13, 0.17),
    (-0.14, 0.14, 0.24, 0.10),
];

/// The sizes of the parts of the drawing, in pixels.
struct Layout {
    s: f64,
    margin: f64,
    title_h: f64,
    map_h: f64,
    legend_x: f64,
    legend_w: f64,
}

/// Draws `map` north up with `counters` on it, as a standalone SVG document.
///
/// Layers, bottom to top: terrain (a `<polygon>` per hex, outlined in grey; patterns for forest,
/// rough and marsh, buildings in towns), slope-hex symbols, hexside features on the exact edge
/// (slope hachures, streams, rivers, bridges), trails and roads from hex centre to hex centre,
/// highlights, hex numbers, counters (each a `<g class="counter">` with a `<title>` tooltip),
/// place names; then the title and a legend to the right of the map. The `viewBox` holds the
/// whole map with a margin; all text is escaped.
pub fn svg(map: &Map, counters: &[Counter], opts: &Options) -> String {
    let s = if opts.scale.is_finite() && opts.scale > 0.0 {
        opts.scale
    } else {
        DEFAULT_SCALE
    };

    // Bounds of the map in hex units.
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for h in map.hexes() {
        let (x, y) = map.centre(h);
        x0 = x0.min(x - 0.5);
        x1 = x1.max(x + 0.5);
        y0 = y0.min(y - R);
        y1 = y1.max(y + R);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }

    let nations = nations_present(counters);
    let margin = 0.6 * s;
    let lay = Layout {
        s,
        margin,
        title_h: 1.7 * s,
        map_h: (y1 - y0) * s,
        legend_x: margin + (x1 - x0) * s + 0.7 * s,
        legend_w: 6.4 * s,
    };
    let (legend_svg, legend_h) = legend(map, &lay, &nations);
    let width = lay.legend_x + lay.legend_w + margin;
    let height = margin + lay.title_h + lay.map_h.max(legend_h) + margin;
    let f = Frame {
        s,
        parity: map.parity(),
        ox: margin - x0 * s,
        oy: margin + lay.title_h - y0 * s,
    };

    let mut o = String::with_capacity(400 * map.hexes().count() + 2000);
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{SANS}">"#,
        w = N(width),
        h = N(height)
    );
    o.push('\n');
    let title = opts.title.clone().unwrap_or_else(|| map.title.clone());
    let _ = writeln!(o, "<title>{}</title>", esc(&title));
    defs(&mut o, s);
    let _ = writeln!(
        o,
        r#"<rect x="0" y="0" width="{}" height="{}" fill="{PAPER}"/>"#,
        N(width),
        N(height)
    );

    terrain(&mut o, map, &f);
    features(&mut o, map, &f);
    highlights(&mut o, map, &f, &opts.highlight);
    if opts.hex_numbers {
        hex_numbers(&mut o, map, &f);
    }
    draw_counters(&mut o, map, &f, counters);
    if opts.place_names {
        places(&mut o, map, &f);
    }
    title_block(&mut o, map, &lay, &title);
    o.push_str(&legend_svg);
    o.push_str("</svg>\n");
    o
}

/// Patterns of the marks (trees, hatching, tufts) of the terrains drawn with a texture. They have
/// no background, so the solid terrain colour under them shows no tile seams.
fn defs(o: &mut String, s: f64) {
    o.push_str("<defs>\n");
    // Forest: scattered tree crowns.
    let p = 0.5 * s;
    let _ = write!(
        o,
        r#"<pattern id="forest" patternUnits="userSpaceOnUse" width="{p}" height="{p}"><g fill="{FOREST_TREE}" fill-opacity="0.75">"#,
        p = N(p)
    );
    for (x, y, r) in [(0.25, 0.25, 0.085), (0.75, 0.72, 0.085), (0.74, 0.2, 0.06)] {
        let _ = write!(
            o,
            r#"<circle cx="{}" cy="{}" r="{}"/>"#,
            N(x * p),
            N(y * p),
            N(r * s)
        );
    }
    o.push_str("</g></pattern>\n");
    // Rough: brown diagonal hatching.
    let p = 0.2 * s;
    let _ = writeln!(
        o,
        r#"<pattern id="rough" patternUnits="userSpaceOnUse" width="{p}" height="{p}"><path d="M0,{p} L{p},0 M{a},{b} L{b},{a} M{c},{d} L{d},{c}" stroke="{ROUGH_HATCH}" stroke-width="{w}" stroke-opacity="0.7"/></pattern>"#,
        p = N(p),
        a = N(-0.25 * p),
        b = N(0.25 * p),
        c = N(0.75 * p),
        d = N(1.25 * p),
        w = N(0.025 * s)
    );
    // Marsh: tufts of grass over water lines.
    let (pw, ph) = (0.5 * s, 0.3 * s);
    let _ = write!(
        o,
        r#"<pattern id="marsh" patternUnits="userSpaceOnUse" width="{w}" height="{h}"><path d=""#,
        w = N(pw),
        h = N(ph)
    );
    for (bx, by) in [(0.05, 0.4), (0.55, 0.9)] {
        let (x, y) = (bx * pw, by * ph);
        let l = 0.2 * s;
        let _ = write!(
            o,
            "M{},{} h{} M{},{} v{} M{},{} l{},{} M{},{} l{},{} ",
            N(x),
            N(y),
            N(l),
            N(x + l / 2.0),
            N(y),
            N(-0.09 * s),
            N(x + l / 2.0 - 0.04 * s),
            N(y),
            N(-0.04 * s),
            N(-0.07 * s),
            N(x + l / 2.0 + 0.04 * s),
            N(y),
            N(0.04 * s),
            N(-0.07 * s)
        );
    }
    let _ = writeln!(
        o,
        r#"" stroke="{MARSH_TUFT}" stroke-width="{}" stroke-linecap="round" fill="none"/></pattern>"#,
        N(0.025 * s)
    );
    o.push_str("</defs>\n");
}

fn terrain(o: &mut String, map: &Map, f: &Frame) {
    // One polygon per hex in its terrain colour.
    o.push_str("<g id=\"terrain\">\n");
    for h in map.hexes() {
        let _ = write!(o, r#"<polygon id="hex{h}" points=""#);
        for i in 0..6 {
            let (x, y) = f.corner(h, i);
            let _ = write!(o, "{}{},{}", if i == 0 { "" } else { " " }, N(x), N(y));
        }
        let _ = writeln!(o, r#"" fill="{}"/>"#, esc(&map.terrain_kind(h).fill));
    }
    o.push_str("</g>\n");

    // Marks over textured terrain, one path per terrain.
    for (i, kind) in map.legend().terrain.iter().enumerate() {
        let Some(marks) = pattern_marks(kind.pattern.as_deref()) else {
            continue;
        };
        let mut d = String::new();
        for h in map.hexes().filter(|&h| map.terrain(h) == Terrain(i as u8)) {
            hex_path(&mut d, f.centre(h), R * f.s);
        }
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{}-marks" fill="{marks}" d="{d}"/>"#,
                kind.id
            );
        }
    }

    // Hex outlines, each edge once.
    let _ = write!(
        o,
        r#"<path id="hex-outlines" fill="none" stroke="{HEX_LINE}" stroke-width="{}" stroke-linecap="round" d=""#,
        N(0.025 * f.s)
    );
    for h in map.hexes() {
        for d in Dir::ALL {
            let n = map.neighbour(h, d);
            if map.contains(n) && n < h {
                continue;
            }
            let (a, b) = f.side(h, d);
            let _ = write!(o, "M{},{} L{},{} ", N(a.0), N(a.1), N(b.0), N(b.1));
        }
    }
    o.push_str("\"/>\n");

    // Town buildings.
    let _ = write!(o, r#"<path id="buildings" fill="{TOWN_BUILDING}" d=""#);
    let built = |h: Hex| map.terrain_kind(h).pattern.as_deref() == Some("buildings");
    for h in map.hexes().filter(|&h| built(h)) {
        let (cx, cy) = f.centre(h);
        for (x, y, w, hh) in BUILDINGS {
            let _ = write!(
                o,
                "M{},{} h{} v{} h{} Z ",
                N(cx + x * f.s),
                N(cy + y * f.s),
                N(w * f.s),
                N(hh * f.s),
                N(-w * f.s)
            );
        }
    }
    o.push_str("\"/>\n");

    // Slope-hex symbols: a hachured arc.
    let _ = write!(
        o,
        r#"<path id="slope-hexes" fill="none" stroke="{SLOPE}" stroke-width="{}" stroke-linecap="round" d=""#,
        N(0.03 * f.s)
    );
    for h in map.hexes().filter(|&h| map.is_slope_hex(h)) {
        let (cx, cy) = f.centre(h);
        let (ax, ay) = (cx, cy + 0.2 * f.s);
        let r = 0.26 * f.s;
        let ang = |deg: f64| deg.to_radians();
        let (sx, sy) = (ax + r * ang(200.0).cos(), ay + r * ang(200.0).sin());
        let (ex, ey) = (ax + r * ang(340.0).cos(), ay + r * ang(340.0).sin());
        let _ = write!(
            o,
            "M{},{} A{},{} 0 0 1 {},{} ",
            N(sx),
            N(sy),
            N(r),
            N(r),
            N(ex),
            N(ey)
        );
        for deg in [215.0, 240.0, 270.0, 300.0, 325.0] {
            let (c, si) = (ang(deg).cos(), ang(deg).sin());
            let _ = write!(
                o,
                "M{},{} L{},{} ",
                N(ax + r * c),
                N(ay + r * si),
                N(ax + (r + 0.08 * f.s) * c),
                N(ay + (r + 0.08 * f.s) * si)
            );
        }
    }
    o.push_str("\"/>\n");
}

/// Hexside features, each drawn as its legend says: along the hexside, hachured, as a bar
/// across it, or from hex centre to hex centre (to the map edge at the edge).
fn features(o: &mut String, map: &Map, f: &Frame) {
    let legend = map.legend();
    let mut paths = vec![String::new(); legend.features.len()];
    let s = f.s;
    let seg = |p: &mut String, a: (f64, f64), b: (f64, f64)| {
        let _ = write!(p, "M{},{} L{},{} ", N(a.0), N(a.1), N(b.0), N(b.1));
    };
    for h in map.hexes() {
        for d in Dir::ALL {
            let n = map.neighbour(h, d);
            // each hexside once
            if map.contains(n) && n < h {
                continue;
            }
            let side = map.hexside(h, d);
            if side == Hexside::NONE {
                continue;
            }
            let (a, b) = f.side(h, d);
            let m = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let c = f.centre(h);
            let cn = f.centre(n);
            let (ux, uy) = ((cn.0 - c.0) / s, (cn.1 - c.1) / s);
            for (i, kind) in legend.features.iter().enumerate() {
                if !side.has(Hexside::bit(i)) {
                    continue;
                }
                let p = &mut paths[i];
                match kind.style {
                    FeatureStyle::Edge => seg(p, a, b),
                    FeatureStyle::Hachured => {
                        seg(p, a, b);
                        // hachures across the edge
                        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
                        let len = (ex * ex + ey * ey).sqrt();
                        let (nx, ny) = (-ey / len * 0.09 * s, ex / len * 0.09 * s);
                        for t in [0.2, 0.4, 0.6, 0.8] {
                            let (px, py) = (a.0 + ex * t, a.1 + ey * t);
                            seg(p, (px - nx, py - ny), (px + nx, py + ny));
                        }
                    }
                    FeatureStyle::Crossing => {
                        let k = 0.2 * s;
                        seg(
                            p,
                            (m.0 - ux * k, m.1 - uy * k),
                            (m.0 + ux * k, m.1 + uy * k),
                        );
                    }
                    FeatureStyle::Route => {
                        // centre to centre; at the map edge, to the edge
                        seg(p, c, if map.contains(n) { cn } else { m });
                    }
                }
            }
        }
    }
    for i in feature_order(legend) {
        let d = paths[i].trim();
        if !d.is_empty() {
            let kind = &legend.features[i];
            let _ = writeln!(
                o,
                r#"<path id="hexsides-{}" fill="none" {} d="{d}"/>"#,
                kind.id,
                feature_stroke(kind, s)
            );
        }
    }
}

fn highlights(o: &mut String, map: &Map, f: &Frame, list: &[(Hex, String)]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        r#"<g id="highlights" fill-opacity="0.3" stroke-width="{}" stroke-linejoin="round">"#,
        N(0.07 * f.s)
    );
    for (h, colour) in list.iter().filter(|(h, _)| map.contains(*h)) {
        let mut d = String::new();
        hex_path(&mut d, f.centre(*h), R * f.s * 0.9);
        let c = esc(colour);
        let _ = writeln!(o, r#"<path fill="{c}" stroke="{c}" d="{d}"/>"#);
    }
    o.push_str("</g>\n");
}

fn hex_numbers(o: &mut String, map: &Map, f: &Frame) {
    let _ = writeln!(
        o,
        r#"<g id="hex-numbers" font-size="{}" fill="{HEX_NUMBER}" text-anchor="middle">"#,
        N(0.135 * f.s)
    );
    for h in map.hexes() {
        let (cx, cy) = f.centre(h);
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}">{h}</text>"#,
            N(cx),
            N(cy - 0.37 * f.s)
        );
    }
    o.push_str("</g>\n");
}

/// One counter centred on `(cx, cy)`, `0.72 * s` pixels square, as a group of class `class`
/// with a tooltip.
fn counter(o: &mut String, c: &Counter, (cx, cy): (f64, f64), s: f64, class: &str) {
    let side = 0.72 * s;
    let (x, y) = (cx - side / 2.0, cy - side / 2.0);
    let fill = esc(&c.fill);
    let text = esc(&c.text);
    let _ = writeln!(
        o,
        r#"<g class="{class}" id="{class}-{}"><title>{}</title>"#,
        esc(&c.id),
        esc(&format!(
            "{} ({}): {} {}-{} in {}",
            c.id,
            c.designation,
            c.kind.name(),
            c.strength,
            c.movement,
            c.hex
        ))
    );
    // shadow, body
    let _ = writeln!(
        o,
        r#"<rect x="{}" y="{}" width="{w}" height="{w}" rx="{r}" fill="black" fill-opacity="0.35"/><rect x="{}" y="{}" width="{w}" height="{w}" rx="{r}" fill="{fill}" stroke="{INK}" stroke-width="{}"/>"#,
        N(x + 0.045 * s),
        N(y + 0.045 * s),
        N(x),
        N(y),
        N(0.02 * s),
        w = N(side),
        r = N(0.04 * s),
    );
    // unit symbol
    let (bw, bh) = (0.34 * s, 0.2 * s);
    let (bx, by) = (cx - bw / 2.0, cy - 0.05 * s - bh / 2.0);
    let _ = write!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{text}" stroke-width="{}"/>"#,
        N(bx),
        N(by),
        N(bw),
        N(bh),
        N(0.025 * s)
    );
    o.push_str(&symbol(c.kind, (bx, by, bw, bh), &text, s));
    o.push('\n');
    // designation above, strength-movement below
    let chars = c.designation.chars().count().max(1) as f64;
    let fs = (0.15 * s).min(0.66 * s / (0.62 * chars));
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}" fill="{text}" text-anchor="middle">{}</text>"#,
        N(cx),
        N(by - 0.035 * s),
        N(fs),
        esc(&c.designation)
    );
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" fill="{text}" text-anchor="middle">{}-{}</text></g>"#,
        N(cx),
        N(cy + 0.29 * s),
        N(0.2 * s),
        c.strength,
        c.movement
    );
}

/// The NATO symbol inside the box `(x, y, w, h)`.
fn symbol(kind: UnitKind, (x, y, w, h): (f64, f64, f64, f64), colour: &str, s: f64) -> String {
    let sw = N(0.022 * s);
    match kind {
        UnitKind::Infantry => format!(
            r#"<path d="M{},{} L{},{} M{},{} L{},{}" stroke="{colour}" stroke-width="{sw}" fill="none"/>"#,
            N(x),
            N(y),
            N(x + w),
            N(y + h),
            N(x),
            N(y + h),
            N(x + w),
            N(y)
        ),
        UnitKind::Cavalry => format!(
            r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="{sw}" fill="none"/>"#,
            N(x),
            N(y + h),
            N(x + w),
            N(y)
        ),
        UnitKind::Artillery => format!(
            r#"<circle cx="{}" cy="{}" r="{}" fill="{colour}"/>"#,
            N(x + w / 2.0),
            N(y + h / 2.0),
            N(0.045 * s)
        ),
    }
}

fn draw_counters(o: &mut String, map: &Map, f: &Frame, counters: &[Counter]) {
    if counters.is_empty() {
        return;
    }
    o.push_str("<g id=\"counters\">\n");
    let mut stacked: HashMap<Hex, usize> = HashMap::new();
    for c in counters.iter().filter(|c| map.contains(c.hex)) {
        let k = stacked.entry(c.hex).or_insert(0);
        let off = *k as f64 * 0.07 * f.s;
        *k += 1;
        let (cx, cy) = f.centre(c.hex);
        counter(o, c, (cx + off, cy - off), f.s, "counter");
    }
    o.push_str("</g>\n");
}

fn places(o: &mut String, map: &Map, f: &Frame) {
    if map.places.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        r#"<g id="places" font-family="{SERIF}" font-weight="bold" font-style="italic" font-size="{}" fill="{INK}" text-anchor="middle" stroke="{PAPER}" stroke-width="{}" stroke-linejoin="round" paint-order="stroke">"#,
        N(0.22 * f.s),
        N(0.07 * f.s)
    );
    for p in map.places.iter().filter(|p| map.contains(p.hex)) {
        let (cx, cy) = f.centre(p.hex);
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}">{}</text>"#,
            N(cx),
            N(cy + 0.53 * f.s),
            esc(&p.name)
        );
    }
    o.push_str("</g>\n");
}

fn title_block(o: &mut String, map: &Map, lay: &Layout, title: &str) {
    let s = lay.s;
    let _ = writeln!(
        o,
        r#"<text id="map-title" x="{}" y="{}" font-family="{SERIF}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"#,
        N(lay.margin),
        N(lay.margin + 0.75 * s),
        N(0.7 * s),
        esc(title)
    );
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}" fill="{HEX_NUMBER}">{}</text>"#,
        N(lay.margin),
        N(lay.margin + 1.3 * s),
        N(0.3 * s),
        esc(&format!(
            "Map \u{201c}{}\u{201d}: {} rows (XX, north to south) \u{d7} {} hexes (YY, east to west). North is up.",
            map.id,
            map.width(),
            map.height()
        ))
    );
}

/// The nations of the counters, by id prefix, with the counter colours in use, in order of
/// first appearance.
fn nations_present(counters: &[Counter]) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = Vec::new();
    for c in counters {
        let nation = c.id.split('.').next().unwrap_or("").to_string();
        let name = nation_name(&nation)
            .map(str::to_string)
            .unwrap_or_else(|| nation.clone());
        if name.is_empty() || v.iter().any(|(n, f, _)| *n == name && *f == c.fill) {
            continue;
        }
        v.push((name, c.fill.clone(), c.text.clone()));
    }
    v
}

const ROW: f64 = 0.62;

/// The legend, boxed, to the right of the map, and its height in pixels.
fn legend(map: &Map, lay: &Layout, nations: &[(String, String, String)]) -> (String, f64) {
    let s = lay.s;
    let x = lay.legend_x;
    let top = lay.margin + lay.title_h;
    let mut body = String::new();
    let o = &mut body;
    let fs = 0.27 * s;
    let sx = x + 0.6 * s; // swatch centre
    let tx = x + 1.2 * s; // text start
    let mut y = top + 0.75 * s;
    let label = |o: &mut String, y: f64, t: &str| {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
            N(tx),
            N(y + 0.1 * s),
            N(fs),
            esc(t)
        );
    };
    let heading = |o: &mut String, y: &mut f64, t: &str| {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"#,
            N(x + 0.25 * s),
            N(*y + 0.1 * s),
            N(0.3 * s),
            esc(t)
        );
        *y += 0.55 * s;
    };
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-family="{SERIF}" font-size="{}" font-weight="bold" fill="{INK}">Legend</text>"#,
        N(x + 0.25 * s),
        N(y + 0.12 * s),
        N(0.4 * s)
    );
    y += ROW * s;

    heading(o, &mut y, "Terrain");
    for kind in &map.legend().terrain {
        let mut d = String::new();
        hex_path(&mut d, (sx, y), R * s * 0.5);
        let _ = writeln!(
            o,
            r#"<path d="{d}" fill="{}" stroke="{HEX_LINE}" stroke-width="{}"/>"#,
            esc(&kind.fill),
            N(0.025 * s)
        );
        if let Some(marks) = pattern_marks(kind.pattern.as_deref()) {
            let _ = writeln!(o, r#"<path d="{d}" fill="{marks}"/>"#);
        }
        if kind.pattern.as_deref() == Some("buildings") {
            let mut b = String::new();
            for (bx, by, bw, bh) in BUILDINGS {
                let _ = write!(
                    b,
                    "M{},{} h{} v{} h{} Z ",
                    N(sx + bx * s * 0.5),
                    N(y + by * s * 0.5),
                    N(bw * s * 0.5),
                    N(bh * s * 0.5),
                    N(-bw * s * 0.5)
                );
            }
            let _ = writeln!(o, r#"<path d="{b}" fill="{TOWN_BUILDING}"/>"#);
        }
        label(o, y, &kind.name);
        y += ROW * s;
    }
    // slope hex symbol, where the map has slope hexes
    if map.hexes().any(|h| map.is_slope_hex(h)) {
        let r = 0.2 * s;
        let (ax, ay) = (sx, y + 0.12 * s);
        let mut d = String::new();
        let p = |deg: f64, rr: f64| {
            let a = f64::to_radians(deg);
            (ax + rr * a.cos(), ay + rr * a.sin())
        };
        let (s0, s1) = (p(200.0, r), p(340.0, r));
        let _ = write!(
            d,
            "M{},{} A{},{} 0 0 1 {},{} ",
            N(s0.0),
            N(s0.1),
            N(r),
            N(r),
            N(s1.0),
            N(s1.1)
        );
        for deg in [215.0, 240.0, 270.0, 300.0, 325.0] {
            let (a, b) = (p(deg, r), p(deg, r + 0.07 * s));
            let _ = write!(d, "M{},{} L{},{} ", N(a.0), N(a.1), N(b.0), N(b.1));
        }
        let _ = writeln!(
            o,
            r#"<path d="{d}" fill="none" stroke="{SLOPE}" stroke-width="{}" stroke-linecap="round"/>"#,
            N(0.03 * s)
        );
        label(o, y, "Slope hex");
        y += ROW * s;
    }

    if !map.legend().features.is_empty() {
        heading(o, &mut y, "Hexsides");
    }
    let (l0, l1) = (sx - 0.4 * s, sx + 0.4 * s);
    for kind in &map.legend().features {
        let mut d = String::new();
        match kind.style {
            FeatureStyle::Crossing => {
                let _ = write!(
                    d,
                    "M{},{} L{},{}",
                    N(sx),
                    N(y - 0.2 * s),
                    N(sx),
                    N(y + 0.2 * s)
                );
            }
            style => {
                let _ = write!(d, "M{},{} L{},{} ", N(l0), N(y), N(l1), N(y));
                if style == FeatureStyle::Hachured {
                    for t in [0.2, 0.4, 0.6, 0.8] {
                        let px = l0 + (l1 - l0) * t;
                        let _ = write!(
                            d,
                            "M{},{} L{},{} ",
                            N(px),
                            N(y - 0.09 * s),
                            N(px),
                            N(y + 0.09 * s)
                        );
                    }
                }
            }
        }
        let _ = writeln!(
            o,
            r#"<path d="{}" fill="none" {}/>"#,
            d.trim(),
            feature_stroke(kind, s)
        );
        label(o, y, &kind.name);
        y += ROW * s;
    }

    heading(o, &mut y, "Units");
    for k in [UnitKind::Infantry, UnitKind::Cavalry, UnitKind::Artillery] {
        let (bw, bh) = (0.5 * s, 0.3 * s);
        let b = (sx - bw / 2.0, y - bh / 2.0, bw, bh);
        let _ = writeln!(
            o,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="white" stroke="{INK}" stroke-width="{}"/>{}"#,
            N(b.0),
            N(b.1),
            N(bw),
            N(bh),
            N(0.025 * s),
            symbol(k, b, INK, s * 1.3)
        );
        let mut name = k.name().to_string();
        name[..1].make_ascii_uppercase();
        label(o, y, &name);
        y += ROW * s;
    }
    // a sample counter, explained
    {
        let (fill, text) = ("#FFFFFF".to_string(), INK.to_string());
        let c = Counter {
            hex: Hex::default(),
            id: "sample".into(),
            designation: "4".into(),
            kind: UnitKind::Infantry,
            strength: 8,
            movement: 4,
            fill,
            text,
        };
        let cy = y + 0.35 * s;
        counter(o, &c, (sx, cy), s, "legend-counter");
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" fill="{INK}">designation</text>"#,
            N(tx),
            N(cy - 0.12 * s),
            N(0.24 * s)
        );
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" fill="{INK}">strength-movement</text>"#,
            N(tx),
            N(cy + 0.27 * s),
            N(0.24 * s)
        );
        y += 1.3 * s;
    }
    if !nations.is_empty() {
        heading(o, &mut y, "Nations");
        for (name, fill, text) in nations {
            let _ = writeln!(
                o,
                r#"<rect x="{}" y="{}" width="{w}" height="{w}" fill="{}" stroke="{INK}" stroke-width="{}"/><rect x="{}" y="{}" width="{i}" height="{i}" fill="{}"/>"#,
                N(sx - 0.2 * s),
                N(y - 0.2 * s),
                esc(fill),
                N(0.02 * s),
                N(sx - 0.06 * s),
                N(y - 0.06 * s),
                esc(text),
                w = N(0.4 * s),
                i = N(0.12 * s),
            );
            label(o, y, name);
            y += ROW * s;
        }
    }
    // north arrow
    {
        let (ax, ay) = (sx, y + 0.2 * s);
        let _ = writeln!(
            o,
            r#"<path d="M{},{} L{},{} L{},{} L{},{} Z" fill="{INK}"/><text x="{}" y="{}" font-size="{}" font-weight="bold" fill="{INK}">North</text>"#,
            N(ax),
            N(ay - 0.5 * s),
            N(ax + 0.2 * s),
            N(ay + 0.3 * s),
            N(ax),
            N(ay + 0.15 * s),
            N(ax - 0.2 * s),
            N(ay + 0.3 * s),
            N(tx),
            N(ay + 0.05 * s),
            N(0.3 * s)
        );
        y = ay + 0.3 * s;
    }
    let h = y + 0.4 * s - top;
    let mut out = String::with_capacity(body.len() + 200);
    let _ = writeln!(
        out,
        r#"<g id="legend"><rect x="{}" y="{}" width="{}" height="{}" fill="white" stroke="{HEX_LINE}" stroke-width="{}"/>"#,
        N(x),
        N(top),
        N(lay.legend_w),
        N(h),
        N(0.03 * s)
    );
    out.push_str(&body);
    out.push_str("</g>\n");
    (out, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every hexside is drawn on the edge halfway between the two hex centres, perpendicular to
    /// the line joining them, and both hexes agree on where it is.
    #[test]
    fn hexsides_lie_between_neighbouring_centres() {
        for (parity, h) in [Parity::Even, Parity::Odd]
            .into_iter()
            .flat_map(|p| [(p, Hex::new(3, 5)), (p, Hex::new(4, 5))])
        {
            let f = Frame {
                s: 1.0,
                parity,
                ox: 0.0,
                oy: 0.0,
            };
            for d in Dir::ALL {
                let n = h.neighbour_in(d, parity);
                let (a, b) = f.side(h, d);
                let (c, cn) = (h.centre_in(parity), n.centre_in(parity));
                let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                let want = ((c.0 + cn.0) / 2.0, (c.1 + cn.1) / 2.0);
                assert!((mid.0 - want.0).abs() < 1e-9, "{h} {d:?}");
                assert!((mid.1 - want.1).abs() < 1e-9, "{h} {d:?}");
                let dot = (b.0 - a.0) * (cn.0 - c.0) + (b.1 - a.1) * (cn.1 - c.1);
                assert!(dot.abs() < 1e-9, "{h} {d:?}");
                // centres one unit apart, the edge one circumradius long
                let dist = ((cn.0 - c.0).powi(2) + (cn.1 - c.1).powi(2)).sqrt();
                assert!((dist - 1.0).abs() < 1e-9);
                let (a2, b2) = f.side(n, d.opposite());
                assert!((a.0 - b2.0).abs() < 1e-9 && (a.1 - b2.1).abs() < 1e-9);
                assert!((b.0 - a2.0).abs() < 1e-9 && (b.1 - a2.1).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn east_is_right_and_north_is_up() {
        let (xe, _) = Hex::new(5, 1).centre();
        let (xw, _) = Hex::new(5, 2).centre();
        assert!(xe > xw);
        let (_, yn) = Hex::new(1, 1).centre();
        let (_, ys) = Hex::new(2, 1).centre();
        assert!(yn < ys);
    }

    #[test]
    fn numbers_and_escapes() {
        assert_eq!(N(1.0).to_string(), "1");
        assert_eq!(N(1.256).to_string(), "1.26");
        assert_eq!(N(-0.001).to_string(), "0");
        assert_eq!(N(f64::NAN).to_string(), "0");
        assert_eq!(
            esc("A & B <C> \"d\" 'e'\u{1}"),
            "A &amp; B &lt;C&gt; &quot;d&quot; &apos;e&apos;"
        );
    }
}
