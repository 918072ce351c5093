//! Games played into poor light: one to dusk and into the night, one under fog ([9.1.3],
//! [11.2], [24], [7.1.2.1]; HM13, HM20). Each turn the test checks, in the Prussian stages,
//! what the rules say of poor light: what a side sees, what a battery may fire at, what a
//! messenger's order needs, and where a unit may move.

mod common;

use common::*;
use engine::{Rules, ToAct};
use hex_miniatures::army::Kind;
use hex_miniatures::setup::{FormationSetup, Setup, Standing, WeatherKind};
use hex_miniatures::{Event, Game, Stage};
use hexmap::Hex;

/// What one turn showed the Prussians.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Turn {
    minute: u32,
    visibility: Option<u8>,
    night: bool,
    /// Whether they see F1 ([24]: within the visible range of a unit or general).
    sees_far: bool,
    /// Whether P2 may step next to F2 (into its zone of control; [11.2.2]).
    may_close: bool,
    /// Whether the artillery stage came (a target seen in range) and whether the battery
    /// might fire on F1 then, or the case refusing it.
    artillery: Option<Result<(), &'static str>>,
    /// What the messenger's order needed (thousandths), if one was delivered.
    needed: Option<u16>,
}

/// An open table (every hex clear): the Prussian foot battery PB1 with F3 two hexes off and
/// F1 further; P2 two hexes from F2; blue commands the corps PB (every Prussian unit, free)
/// and green its brigade PB2, four hexes from blue, so blue's messenger reaches him in the
/// stage he rides.
fn table(start: u32, turns: u32, weather: WeatherKind, position: Option<u8>) -> Setup {
    let mut s = battle(
        &[
            ("PB1", 0, Kind::FootBattery, "0102"),
            ("P2", 0, Kind::Line, "0808"),
            ("F1", 1, Kind::Line, "0107"),
            ("F3", 1, Kind::Line, "0302"),
            ("F2", 1, Kind::Line, "1008"),
        ],
        &[
            ("blue", 0, "0101"),
            ("green", 0, "0501"),
            ("red", 1, "1010"),
        ],
        turns,
    );
    let clear = s.map.legend().terrain_index("clear").unwrap();
    let hexes: Vec<Hex> = s.map.hexes().collect();
    for h in hexes {
        s.map.set_terrain(h, clear);
        s.map.set_slope_hex(h, false);
    }
    s.formations.push(FormationSetup {
        id: "PB2".into(),
        side: 0,
        commander: Some(1),
        parent: Some(0),
        order: Standing::Free,
    });
    s.start_minute = start;
    s.end_minute = start + 10 * turns;
    s.night_minute = 18 * 60;
    s.weather = weather;
    s.weather_start = position;
    s
}

/// The distance from the nearest Prussian unit or general to a hex.
fn nearest_prussian(g: &Game, to: Hex) -> u32 {
    let map = &g.setup().map;
    let units = (0..g.unit_count())
        .map(|i| hex_miniatures::UnitId(i as u8))
        .filter(|&u| g.side_of(u) == 0)
        .filter_map(|u| g.hex_of(u));
    let generals = (0..g.general_count())
        .map(|i| hex_miniatures::GeneralId(i as u8))
        .filter(|&x| g.general(x).side == 0)
        .filter_map(|x| g.hex_of_general(x));
    units
        .chain(generals)
        .map(|h| map.distance(h, to))
        .min()
        .unwrap()
}

/// Plays the battle to its end: the Prussians send one order a turn by messenger and move
/// nobody, the French do nothing; every number drawn is 0.500, the weather die `die(minute)`.
fn play(mut g: Game, die: impl Fn(u32) -> u8) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for _ in 0..5000 {
        // the events of the last action
        for e in g.events() {
            if let Event::OrderDelivered { needed, .. } = e {
                turns.last_mut().expect("a turn").needed = Some(*needed);
            }
        }
        match g.to_act() {
            ToAct::Over(_) => return turns,
            ToAct::Chance => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                if matches!(v[0], hex_miniatures::Action::Roll(_)) {
                    let n = die(g.minute());
                    act(&mut g, &format!("roll {n}"));
                } else {
                    draw(&mut g, 500);
                }
            }
            ToAct::Side(_) if g.phasing().0 == 0 => match g.stage() {
                Stage::Orders => {
                    let pb2 = g.formation_by_id("PB2").unwrap();
                    let next = match g.formation_order(pb2) {
                        Standing::Hold => "free",
                        _ => "hold",
                    };
                    turns.push(Turn {
                        minute: g.minute(),
                        visibility: g.visibility(),
                        night: g.night(),
                        ..Turn::default()
                    });
                    act(&mut g, &format!("order blue PB2 {next}"));
                    act(&mut g, "end");
                }
                Stage::Movement => {
                    let t = turns.last_mut().expect("a turn");
                    let f1 = g.hex_of(unit(&g, "F1")).unwrap();
                    t.sees_far = g.sees(0, f1);
                    // F1 stands where only the battery (five hexes off) is near enough
                    let d = nearest_prussian(&g, f1);
                    assert_eq!(
                        t.sees_far,
                        g.visibility().is_none_or(|v| d <= u32::from(v)),
                        "sight at {}",
                        g.minute()
                    );
                    t.may_close = g.destinations(unit(&g, "P2")).contains(&hex("0908"));
                    act(&mut g, "end");
                }
                Stage::Artillery => {
                    let t = turns.last_mut().expect("a turn");
                    let fire = g.parse_action("fire PB1 F1").unwrap();
                    t.artillery = Some(g.check(fire).map_err(|r| r.case));
                    act(&mut g, "end");
                }
                _ => act(&mut g, "end"),
            },
            ToAct::Side(_) => act(&mut g, "end"),
        }
    }
    panic!("the battle did not end");
}

#[test]
fn poor_light_24_11_2_a_game_played_from_day_through_dusk_into_the_night() {
    // 16:40 to 18:20, night at 18:00, a clear day
    let g = game(table(16 * 60 + 40, 10, WeatherKind::Clear, None));
    let map = &g.setup().map;
    let far = map.distance(hex("0102"), hex("0107"));
    assert_eq!(far, 5);
    assert_eq!(map.distance(hex("0102"), hex("0302")), 2);
    let turns = play(g, |_| 3);
    let vis: Vec<Option<u8>> = turns.iter().map(|t| t.visibility).collect();
    // [24]: unlimited until an hour before night, then 6 hexes down to 1, then night (0)
    assert_eq!(
        vis,
        [
            None,
            None,
            Some(6),
            Some(5),
            Some(4),
            Some(3),
            Some(2),
            Some(1),
            Some(0),
            Some(0)
        ]
    );
    for t in &turns {
        let lit = |n: u32| t.visibility.is_none_or(|v| n <= u32::from(v));
        // what is seen: F1 five hexes off while the light reaches it
        assert_eq!(t.sees_far, lit(far), "{t:?}");
        // the artillery stage comes while F3 (two hexes off) is seen, never at night
        // ([11.2.1]); the battery may fire on F1 only while it is seen ([9.1.3], [24])
        let expected = if t.night || !lit(2) {
            None
        } else if lit(far) {
            Some(Ok(()))
        } else {
            Some(Err("24"))
        };
        assert_eq!(t.artillery, expected, "{t:?}");
        // a messenger's order needs 0.150 in full light, 0.334 once the light fails
        // ([7.1.2.1], [24]; HM13, HM20)
        let needed = if t.visibility.is_none() { 150 } else { 334 };
        assert_eq!(t.needed, Some(needed), "{t:?}");
        // dusk does not slow a move; at night no unit enters an enemy zone of control
        // ([11.2.2])
        assert_eq!(t.may_close, !t.night, "{t:?}");
    }
    assert_eq!(turns.iter().filter(|t| t.night).count(), 2);
}

#[test]
fn poor_light_24_a_game_played_under_fog_that_lifts() {
    // noon, fog at 2 hexes; between 11:00 and 13:00 the die takes +2 ([24], HM18): a 1 or a
    // 2 leaves the counter where it is, a 3 or more lifts it a position
    let g = game(table(12 * 60, 5, WeatherKind::Fog, Some(2)));
    let far = g.setup().map.distance(hex("0102"), hex("0107"));
    let turns = play(g, |minute| if minute < 12 * 60 + 10 { 1 } else { 6 });
    let vis: Vec<Option<u8>> = turns.iter().map(|t| t.visibility).collect();
    assert_eq!(vis, [Some(2), Some(2), Some(3), Some(4), None]);
    for t in &turns {
        let seen = |n: u32| t.visibility.is_none_or(|v| n <= u32::from(v));
        assert!(!t.night);
        assert_eq!(t.sees_far, seen(far), "{t:?}");
        // F3 two hexes off is seen through the fog: the battery's stage comes, and it may
        // fire on F1 only once the fog has lifted enough to see it ([9.1.3], [24])
        let expected = if seen(far) { Ok(()) } else { Err("24") };
        assert_eq!(t.artillery, Some(expected), "{t:?}");
        // fog is restricted visibility for messengers ([24]; HM20)
        let needed = if t.visibility.is_none() { 150 } else { 334 };
        assert_eq!(t.needed, Some(needed), "{t:?}");
        // fog does not stop a move into an enemy zone of control (only night does, [11.2.2])
        assert!(t.may_close, "{t:?}");
    }
}
