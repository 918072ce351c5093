use hexmap::{Dir, Hex, Hexside, Map, Place, Terrain};
use render::{nation_colours, png, svg, Counter, Options, UnitKind};

fn counter(hex: Hex, id: &str, designation: &str, kind: UnitKind) -> Counter {
    let (fill, text) = nation_colours(id.split('.').next().unwrap());
    Counter {
        hex,
        id: id.into(),
        designation: designation.into(),
        kind,
        strength: 8,
        movement: 4,
        fill,
        text,
    }
}

fn parse(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("invalid XML: {e}\n{text}"))
}

fn count(doc: &roxmltree::Document<'_>, tag: &str) -> usize {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag)
        .count()
}

#[test]
fn full_map_is_valid_xml_with_one_polygon_per_hex() {
    let map = Map::new("t", 29, 31);
    let text = svg(&map, &[], &Options::default());
    let doc = parse(&text);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(count(&doc, "polygon"), 899);
    // the viewBox holds every hex corner, with a margin
    let vb: Vec<f64> = root
        .attribute("viewBox")
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    for p in doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polygon")
    {
        for xy in p.attribute("points").unwrap().split_whitespace() {
            let (x, y) = xy.split_once(',').unwrap();
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!(x > vb[0] + 5.0 && x < vb[0] + vb[2] - 5.0, "{x}");
            assert!(y > vb[1] + 5.0 && y < vb[1] + vb[3] - 5.0, "{y}");
        }
    }
    // hex numbers by default
    assert!(text.contains(">0101<") && text.contains(">2931<"));
    let bare = svg(
        &map,
        &[],
        &Options {
            hex_numbers: false,
            ..Options::default()
        },
    );
    assert!(!bare.contains(">0101<"));
}

#[test]
fn east_is_right_north_is_up() {
    let map = Map::new("t", 3, 3);
    let text = svg(&map, &[], &Options::default());
    let doc = parse(&text);
    let centre = |id: &str| -> (f64, f64) {
        let p = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap();
        let pts: Vec<(f64, f64)> = p
            .attribute("points")
            .unwrap()
            .split_whitespace()
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let n = pts.len() as f64;
        (
            pts.iter().map(|p| p.0).sum::<f64>() / n,
            pts.iter().map(|p| p.1).sum::<f64>() / n,
        )
    };
    let (a, b, c) = (centre("hex0101"), centre("hex0102"), centre("hex0201"));
    assert!(a.0 > b.0, "YY = 01 is east, to the right");
    assert!((a.1 - b.1).abs() < 0.01, "a row is horizontal");
    assert!((a.0 - b.0 - 36.0).abs() < 0.05, "centres one scale apart");
    assert!(c.1 > a.1, "XX grows south");
    assert!(c.0 < a.0, "even rows shifted west");
}

#[test]
fn rivers_roads_and_bridges_are_drawn() {
    let mut map = Map::new("t", 6, 6);
    let plain = svg(&map, &[], &Options::default());
    assert!(!plain.contains("id=\"hexsides-river\""));
    map.add_hexside(Hex::new(2, 2), Dir::W, Hexside::RIVER);
    map.add_hexside(
        Hex::new(2, 2),
        Dir::SW,
        Hexside::RIVER.with(Hexside::BRIDGE),
    );
    map.add_hexside(Hex::new(3, 3), Dir::E, Hexside::STREAM);
    map.add_hexside(Hex::new(3, 3), Dir::NE, Hexside::SLOPE);
    map.add_hexside(Hex::new(4, 4), Dir::W, Hexside::ROAD);
    map.add_hexside(Hex::new(1, 1), Dir::NE, Hexside::ROAD);
    map.add_hexside(Hex::new(5, 5), Dir::W, Hexside::TRAIL);
    let text = svg(&map, &[], &Options::default());
    let doc = parse(&text);
    let path = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no {id}"))
            .attribute("d")
            .unwrap()
            .to_string()
    };
    // two river hexsides, each drawn once
    assert_eq!(path("hexsides-river").matches('M').count(), 2);
    assert_eq!(path("hexsides-bridge").matches('M').count(), 1);
    assert_eq!(path("hexsides-stream").matches('M').count(), 1);
    // a road joining two hexes and a road leaving the map
    assert_eq!(path("hexsides-road").matches('M').count(), 2);
    assert_eq!(path("hexsides-trail").matches('M').count(), 1);
    assert!(path("hexsides-slope").matches('M').count() >= 1);
}

#[test]
fn text_is_escaped() {
    let mut map = Map::new("t", 4, 4);
    map.title = "Maps & <Plans>".into();
    map.places.push(Place {
        name: "A & B <C>".into(),
        hex: Hex::new(2, 2),
    });
    let c = counter(
        Hex::new(3, 3),
        "FR.<4>",
        "II & \"Victor\"",
        UnitKind::Cavalry,
    );
    let text = svg(&map, &[c], &Options::default());
    let doc = parse(&text);
    assert!(text.contains("A &amp; B &lt;C&gt;"));
    assert!(doc.descendants().any(|n| n.text() == Some("A & B <C>")));
    assert!(doc
        .descendants()
        .any(|n| n.text() == Some("II & \"Victor\"")));
    assert!(doc
        .descendants()
        .any(|n| n.text() == Some("Maps & <Plans>")));
}

#[test]
fn counters_show_their_text_and_tooltip() {
    let mut map = Map::new("t", 8, 8);
    map.set_terrain(Hex::new(2, 2), Terrain::Town);
    map.set_terrain(Hex::new(2, 3), Terrain::Forest);
    map.set_terrain(Hex::new(2, 4), Terrain::Rough);
    map.set_terrain(Hex::new(2, 5), Terrain::Marsh);
    let counters = vec![
        counter(Hex::new(3, 3), "FR.4", "4", UnitKind::Infantry),
        counter(Hex::new(4, 4), "PR.YC", "Yorck", UnitKind::Cavalry),
        counter(Hex::new(5, 5), "RU.A1", "Art 1", UnitKind::Artillery),
        // off the map: not drawn
        counter(Hex::new(50, 5), "AU.X", "gone", UnitKind::Infantry),
    ];
    let text = svg(&map, &counters, &Options::default());
    let doc = parse(&text);
    let groups: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("counter"))
        .collect();
    assert_eq!(groups.len(), 3);
    for (g, c) in groups.iter().zip(&counters) {
        let title = g.first_element_child().unwrap();
        assert_eq!(title.tag_name().name(), "title");
        assert!(title.text().unwrap().contains(&c.id));
        let texts: Vec<&str> = g.descendants().filter_map(|n| n.text()).collect();
        assert!(texts.contains(&c.designation.as_str()), "{texts:?}");
        assert!(texts.contains(&"8-4"), "{texts:?}");
    }
    assert!(!text.contains("gone"));
    // nations in the legend
    assert!(text.contains(">French<") && text.contains(">Prussian<"));
    // terrain patterns
    for p in ["url(#forest)", "url(#rough)", "url(#marsh)"] {
        assert!(text.contains(p), "{p}");
    }
    assert!(text.contains("id=\"buildings\""));
}

#[test]
fn highlights_and_title_option() {
    let map = Map::new("t", 4, 4);
    let opts = Options {
        title: Some("Turn 3".into()),
        highlight: vec![(Hex::new(2, 2), "#E69F00".into())],
        ..Options::default()
    };
    let text = svg(&map, &[], &opts);
    let doc = parse(&text);
    assert!(text.contains(">Turn 3<"));
    let hl = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("highlights"))
        .unwrap();
    assert_eq!(hl.children().filter(|n| n.is_element()).count(), 1);
    // highlights are paths, so the polygon count stays one per hex
    assert_eq!(count(&doc, "polygon"), 16);
}

#[test]
fn png_has_the_png_signature_and_asked_width() {
    let mut map = Map::new("t", 5, 5);
    map.add_hexside(Hex::new(2, 2), Dir::W, Hexside::RIVER);
    let text = svg(&map, &[], &Options::default());
    let bytes = png(&text, 300).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR width, big-endian, at offset 16
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 300);
    assert!(png(&text, 0).is_err());
    assert!(png("<svg", 100).is_err());
}

#[test]
fn resvg_parses_the_svg() {
    let map = Map::new("t", 29, 31);
    let text = svg(&map, &[], &Options::default());
    let tree =
        resvg::usvg::Tree::from_str(&text, &resvg::usvg::Options::default()).expect("usvg parses");
    assert!(tree.size().width() > tree.size().height());
}

#[test]
fn nation_colours_have_a_default() {
    for id in ["FR", "PR", "AU", "RU", "SW"] {
        assert_ne!(nation_colours(id), nation_colours("XX"), "{id}");
    }
    assert_eq!(nation_colours("XX"), nation_colours(""));
}

#[test]
fn a_custom_legend_and_odd_parity_are_drawn_from_the_map() {
    let text = r##"format = "grognard-map/1"
id = "strategic"
width = 3
height = 3
parity = "odd"
terrain = ["..^", "^^.", "..."]
[[legend.terrain]]
id = "open"
name = "Open country"
code = "."
fill = "#eeeedd"
[[legend.terrain]]
id = "mountain"
name = "Mountains"
code = "^"
fill = "#aa8866"
pattern = "hatching"
[[legend.features]]
id = "border"
name = "Border"
stroke = "#112233"
width = 0.05
dash = "0.1 0.05"
[hexsides]
border = ["0101/0202"]
"##;
    let map = Map::from_toml(text).unwrap();
    let svg = render::svg(&map, &[], &render::Options::default());
    let doc = parse(&svg);
    assert_eq!(count(&doc, "polygon"), 9);
    assert!(svg.contains(r##"fill="#aa8866""##) && svg.contains("id=\"mountain-marks\""));
    assert!(svg.contains("id=\"hexsides-border\"") && svg.contains(r##"stroke="#112233""##));
    assert!(svg.contains(">Mountains<") && svg.contains(">Border<"));
    // odd rows lie half a hex west of even rows
    let x_of = |id: &str| {
        let p = doc
            .descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap();
        let pts = p.attribute("points").unwrap();
        let xs: Vec<f64> = pts
            .split(' ')
            .map(|xy| xy.split(',').next().unwrap().parse().unwrap())
            .collect();
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    assert!(x_of("hex0101") < x_of("hex0201"));
}
