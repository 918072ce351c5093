//! A small battle built in code for the game's tests: a 10 x 10 table of clear ground with a
//! wood at 0503, a village at 0607, a stream between 0408 and 0407 and a road from 0305; side 0
//! (Prussians, rear to the north, row 01) plays first against side 1 (French, rear row 10).
#![allow(dead_code)]

use engine::{Rules, ToAct};
use hex_miniatures::action::Formation;
use hex_miniatures::army::{Arm, Kind, Order};
use hex_miniatures::data::Tables;
use hex_miniatures::setup::{
    FormationSetup, GeneralSetup, Setup, Standing, Start, UnitSetup, WeatherKind,
};
use hex_miniatures::{Event, Game, Stage, UnitId};
use hexmap::{Dir, Hex};

pub fn hex(s: &str) -> Hex {
    s.parse().unwrap()
}

/// A battle of these units (id, side, kind, hex) and generals (id, side, hex), from 12:00 for
/// `turns` turns, clear weather, night at 18:00.
pub fn battle(
    units: &[(&str, u8, Kind, &str)],
    generals: &[(&str, u8, &str)],
    turns: u32,
) -> Setup {
    battle_on(Setup::skirmish(), units, generals, turns)
}

/// The same battle on another table (its map, terrain and slopes kept).
pub fn battle_on(
    mut s: Setup,
    units: &[(&str, u8, Kind, &str)],
    generals: &[(&str, u8, &str)],
    turns: u32,
) -> Setup {
    s.units = units
        .iter()
        .map(|&(id, side, kind, at)| UnitSetup {
            id: id.into(),
            side,
            nation: if side == 0 { "Prussian" } else { "French" }.into(),
            kind,
            base_units: kind.full_base_units(),
            command: Some(usize::from(side)),
            formation: if kind.arm() == Arm::Artillery {
                Formation::Unlimbered
            } else {
                Formation::Line
            },
            start: Start::Hex(hex(at)),
        })
        .collect();
    s.generals = generals
        .iter()
        .map(|&(id, side, at)| GeneralSetup {
            id: id.into(),
            side,
            senior: false,
            start: Start::Hex(hex(at)),
        })
        .collect();
    let commander = |side: u8| generals.iter().position(|g| g.1 == side);
    s.formations = vec![
        FormationSetup {
            id: "PB".into(),
            side: 0,
            commander: commander(0),
            parent: None,
            order: Standing::Free,
        },
        FormationSetup {
            id: "FB".into(),
            side: 1,
            commander: commander(1),
            parent: None,
            order: Standing::Free,
        },
    ];
    s.start_minute = 12 * 60;
    s.end_minute = 12 * 60 + 10 * turns;
    s.night_minute = 18 * 60;
    s.weather = WeatherKind::Clear;
    s.weather_start = None;
    s.objectives = Vec::new();
    s
}

pub fn game(s: Setup) -> Game {
    Game::from_setup(s, &Tables::shipped()).unwrap_or_else(|e| panic!("{e}"))
}

pub fn unit(g: &Game, id: &str) -> UnitId {
    g.unit_by_id(id).unwrap()
}

/// Applies an action by its text; panics with the refusal.
pub fn act(g: &mut Game, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|r| panic!("{text}: {r}"));
    g.apply(a).unwrap_or_else(|r| panic!("{text}: {r}"));
}

/// The refusal's case of an action by its text.
pub fn refused(g: &Game, text: &str) -> &'static str {
    let a = g.parse_action(text).unwrap();
    g.check(a).expect_err(text).case
}

/// Draws this number for the pending chance event (thousandths).
pub fn draw(g: &mut Game, n: u16) {
    assert!(matches!(g.to_act(), ToAct::Chance), "no chance pending");
    act(g, &format!("draw 0.{n:03}"));
}

/// Ends stages (drawing `n` for every chance event on the way) until the stage and phasing
/// side are reached; the events seen on the way.
pub fn until(g: &mut Game, side: u8, stage: Stage, n: u16) -> Vec<Event> {
    let mut seen = g.events().to_vec();
    for _ in 0..10_000 {
        if g.stage() == stage && g.phasing().0 == side && !matches!(g.to_act(), ToAct::Chance) {
            return seen;
        }
        match g.to_act() {
            ToAct::Over(_) => panic!("the battle ended before {stage:?}"),
            ToAct::Chance => {
                let mut v = Vec::new();
                g.legal_actions(&mut v);
                let a = if matches!(v[0], hex_miniatures::Action::Roll(_)) {
                    v[2]
                } else {
                    v[usize::from(n)]
                };
                g.apply(a).unwrap();
            }
            ToAct::Side(_) => {
                let a = g.parse_action("end").unwrap();
                g.apply(a)
                    .unwrap_or_else(|r| panic!("end at {:?}: {r}", g.stage()));
            }
        }
        seen.extend(g.events().iter().cloned());
    }
    panic!("never reached {stage:?}");
}

pub fn set(g: &mut Game, id: &str, order: Order, formation: Formation, facing: Dir) {
    let u = unit(g, id);
    let b = g.unit(u).bases;
    g.set_unit_for_test(u, order, b, formation, facing);
}
