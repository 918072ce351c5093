//! Renders a made-up Leipzig-like sample map with counters of every nation to
//! `test-artifacts/render-sample.svg` and `.png` at the workspace root (or to the directory given
//! as the first argument).
//!
//! ```text
//! cargo run -p render --example sample [OUT_DIR] [WIDTH_PX]
//! ```

use hexmap::{Dir, Hex, Hexside, Map, Place, Terrain};
use render::{nation_colours, Counter, Options, UnitKind};
use std::path::PathBuf;

fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

/// Adds `f` on every hexside between a hex for which `inside` holds and one for which it does
/// not, where `keep` holds for the inside hex: a continuous line of hexsides.
fn boundary(map: &mut Map, f: Hexside, inside: impl Fn(Hex) -> bool, keep: impl Fn(Hex) -> bool) {
    let hexes: Vec<Hex> = map.hexes().collect();
    for a in hexes {
        if !inside(a) || !keep(a) {
            continue;
        }
        for d in Dir::ALL {
            let b = a.neighbour(d);
            if map.contains(b) && !inside(b) {
                map.add_hexside(a, d, f);
            }
        }
    }
}

/// A road (or trail) from `from` to `to`, hex by hex, bridging rivers and streams.
fn road(map: &mut Map, from: Hex, to: Hex, f: Hexside) {
    let mut cur = from;
    while cur != to {
        let (tx, ty) = to.centre();
        let next = cur
            .neighbours()
            .into_iter()
            .filter(|&n| n.distance(to) < cur.distance(to))
            .min_by(|a, b| {
                let da = (a.centre().0 - tx).powi(2) + (a.centre().1 - ty).powi(2);
                let db = (b.centre().0 - tx).powi(2) + (b.centre().1 - ty).powi(2);
                da.total_cmp(&db)
            })
            .unwrap();
        let d = cur.direction_to(next).unwrap();
        let mut add = f;
        if map
            .hexside(cur, d)
            .any(Hexside::RIVER.with(Hexside::STREAM))
        {
            add = add.with(Hexside::BRIDGE);
        }
        map.add_hexside(cur, d, add);
        cur = next;
    }
}

fn blob(map: &mut Map, centre: Hex, r: u32, t: Terrain, salt: u32) {
    let hexes: Vec<Hex> = map.hexes().collect();
    for x in hexes {
        let d = x.distance(centre);
        let noise = (x.x as u32 * 7919 + x.y as u32 * 104_729 + salt * 31) % 5;
        if d < r || (d == r && noise < 3) {
            map.set_terrain(x, t);
        }
    }
}

fn sample_map() -> Map {
    let mut m = Map::new("sample", 29, 31);
    m.title = "Leipzig, October 1813 (sample drawing, not the game map)".into();
    // forests, rough ground, marshes
    blob(&mut m, h("0508"), 3, Terrain::Forest, 1);
    blob(&mut m, h("2524"), 3, Terrain::Forest, 2);
    blob(&mut m, h("1926"), 2, Terrain::Forest, 3);
    blob(&mut m, h("0926"), 2, Terrain::Rough, 4);
    blob(&mut m, h("2506"), 2, Terrain::Rough, 5);
    for x in 14..=27 {
        for y in [20, 21] {
            let hx = Hex::new(x, y + (x % 3 == 0) as i16);
            if (x + y) % 3 != 0 {
                m.set_terrain(hx, Terrain::Marsh);
            }
        }
    }
    // Leipzig and villages
    for t in ["1418", "1417", "1419", "1318", "1518", "1319", "1519"] {
        m.set_terrain(h(t), Terrain::Town);
    }
    let villages = [
        ("Möckern", "0817"),
        ("Wachau", "2214"),
        ("Probstheida", "1914"),
        ("Lindenau", "1423"),
        ("Markkleeberg", "2318"),
        ("Liebertwolkwitz", "2310"),
        ("Schönefeld", "1213"),
        ("Taucha", "0904"),
        ("Connewitz", "1919"),
    ];
    for (_, hx) in villages {
        m.set_terrain(h(hx), Terrain::Town);
    }
    // the Elster and Pleisse west of the town, the Parthe (a stream) to the north-east
    let elster = |x: Hex| x.y >= 21 + ((x.x / 4) % 2) - (x.x > 20) as i16;
    boundary(&mut m, Hexside::RIVER, elster, |_| true);
    let pleisse = |x: Hex| x.y >= 19 + (x.x % 5 == 0) as i16;
    boundary(
        &mut m,
        Hexside::RIVER,
        |x| pleisse(x) && !elster(x),
        |x| x.x >= 16,
    );
    let parthe = |x: Hex| x.x <= 11 + (x.y / 5) % 2;
    boundary(&mut m, Hexside::STREAM, parthe, |x| x.y <= 17 && x.y >= 3);
    // a ridge south-east of the town
    for y in 9..=15 {
        m.add_hexside(Hex::new(21, y), Dir::NE, Hexside::SLOPE);
        m.add_hexside(Hex::new(21, y), Dir::NW, Hexside::SLOPE);
    }
    for s in ["2012", "2013", "2110"] {
        m.set_slope_hex(h(s), true);
    }
    // roads out of Leipzig, and a trail
    let leipzig = h("1418");
    for end in [
        "0118", "0101", "1401", "2901", "2918", "2931", "1431", "0131",
    ] {
        road(&mut m, leipzig, h(end), Hexside::ROAD);
    }
    road(&mut m, h("1914"), h("2310"), Hexside::TRAIL);
    road(&mut m, h("0817"), h("0904"), Hexside::TRAIL);
    // names
    m.places.push(Place {
        name: "Leipzig".into(),
        hex: leipzig,
    });
    for (n, hx) in villages {
        m.places.push(Place {
            name: n.into(),
            hex: h(hx),
        });
    }
    m
}

fn unit(hex: &str, id: &str, designation: &str, kind: UnitKind, sm: (u16, u16)) -> Counter {
    let (fill, text) = nation_colours(id.split('.').next().unwrap());
    Counter {
        hex: h(hex),
        id: id.into(),
        designation: designation.into(),
        kind,
        strength: sm.0,
        movement: sm.1,
        fill,
        text,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-artifacts"));
    let width: u32 = args.next().and_then(|w| w.parse().ok()).unwrap_or(2400);
    let map = sample_map();
    let counters = vec![
        unit("2315", "FR.2", "II Victor", UnitKind::Infantry, (8, 4)),
        unit("2213", "FR.5", "V Lauriston", UnitKind::Infantry, (7, 4)),
        unit("1916", "FR.C1", "I Cav", UnitKind::Cavalry, (4, 6)),
        unit("1815", "FR.G", "Guard Art", UnitKind::Artillery, (6, 3)),
        unit("0917", "FR.6", "VI Marmont", UnitKind::Infantry, (8, 4)),
        unit("0817", "PR.1", "I Yorck", UnitKind::Infantry, (9, 4)),
        unit("0716", "PR.C", "Res Cav", UnitKind::Cavalry, (5, 6)),
        unit("2511", "AU.K", "Klenau", UnitKind::Infantry, (7, 4)),
        unit("2614", "RU.W", "Wittgenstein", UnitKind::Infantry, (8, 4)),
        unit("2615", "RU.A", "Art Res", UnitKind::Artillery, (5, 3)),
        unit("0805", "SW.B", "Bernadotte", UnitKind::Infantry, (6, 4)),
    ];
    let opts = Options {
        highlight: vec![
            (h("2314"), "#E69F00".into()),
            (h("2414"), "#E69F00".into()),
            (h("2413"), "#CC79A7".into()),
        ],
        ..Options::default()
    };
    let svg = render::svg(&map, &counters, &opts);
    std::fs::create_dir_all(&dir).expect("create output directory");
    std::fs::write(dir.join("render-sample.svg"), &svg).expect("write SVG");
    let png = render::png(&svg, width).expect("rasterise");
    let out = dir.join("render-sample.png");
    std::fs::write(&out, png).expect("write PNG");
    println!("wrote {}", out.display());
}
