//! The map's open readings as the rules play them (`docs/central-europe-map.md`, "What a
//! reviewer should check" and "Pass-entry hexes"): rulings L47-L49.

mod common;
use common::*;
use leipzig_1813::europe::Europe;

#[test]
fn l47_tec_mountain_pass_an_adjacent_pass_hex_is_one_along_the_pass_road() {
    let g = game(1);
    let b = g.board();
    let europe = Europe::central_europe();
    let map = &europe.map;
    let pass = map.legend().feature("pass").expect("the pass road feature");
    let kind = |h: hexmap::Hex| map.terrain_kind(h).id.clone();
    let (mut along, mut beside) = (0, 0);
    for i in 0..b.len() {
        let h = b.hex_at(i);
        if kind(h) != "mountain-pass" {
            continue;
        }
        for (d, n) in b.neighbours(h) {
            if kind(n) != "mountain-pass" {
                continue;
            }
            let s = b.side(h, d);
            if s.river {
                continue;
            }
            if map.hexside(h, hexmap::Dir::ALL[d]).any(pass) {
                // Along the pass road: the adjacent pass hex costs 1.
                assert_eq!(s.cost, 1, "{h} to {n} along the road");
                along += 1;
            } else {
                // Side by side but on different roads (the eastern Erzgebirge): 5.
                assert_eq!(s.cost, 5, "{h} to {n} across passes");
                beside += 1;
            }
        }
    }
    assert!(along > 0 && beside > 0, "along {along}, beside {beside}");
}

#[test]
fn l48_dresden_is_a_fortress_in_every_scenario() {
    for n in 1..=8 {
        let g = game(n);
        let dresden = g.board().cities[2].expect("Dresden on the map");
        let info = g.board().hex(dresden);
        assert!(info.fortress, "scenario {n}");
        assert_eq!((info.defence, info.supplied_divisions), (3, 6));
    }
}

#[test]
fn l49_pontoon_sites_are_bridged_crossings() {
    let g = game(8);
    let b = g.board();
    let europe = Europe::central_europe();
    for town in ["Königstein", "Pirna", "Elster"] {
        let h = europe.place(town).unwrap();
        let bridged = b.neighbours(h).any(|(d, _)| {
            let s = b.side(h, d);
            // A bridge: a river hexside zones of control and retreats cross, at no extra MP.
            s.river && s.zoc && s.retreat && s.defence == 2 && s.min_percent == 160
        });
        assert!(bridged, "{town}: a bridge");
    }
}
