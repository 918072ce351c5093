//! Test helpers: small hand-made scenarios, generated maps and random play.
#![allow(dead_code)]

use engine::{Dice, Rules, Side, ToAct};
use hexmap::{Dir, Hex, Hexside, Map, Terrain};
use naw::scenario::{HooksFile, NationFile, ScenarioFile, UnitFile, UnitType};
use naw::{Action, Game, Scenario};

/// Parses a hex number.
pub fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

/// A unit line for [`Build`]: `"B.1 inf 6-4 0203"`, `"R.2 cav 4-6 0405"`, `"B.3 art 3-4 0101"`,
/// or with `@T:HEX:EDGE` instead of a hex for a reinforcement.
#[derive(Clone)]
pub struct Build {
    pub map: Map,
    pub units: Vec<UnitFile>,
    pub first_turn: u8,
    pub last_turn: u8,
    pub night: Vec<u8>,
    pub hooks: HooksFile,
}

impl Build {
    /// A clear map of `w` rows by `h` hexes.
    pub fn new(w: i16, hgt: i16) -> Build {
        Build {
            map: Map::new("test", w, hgt),
            units: Vec::new(),
            first_turn: 1,
            last_turn: 5,
            night: Vec::new(),
            hooks: HooksFile {
                friendly_occupied_entry_ok: true,
                ..HooksFile::default()
            },
        }
    }

    /// Sets hex terrain.
    pub fn terrain(mut self, hex: &str, t: Terrain) -> Build {
        self.map.set_terrain(h(hex), t);
        self
    }

    /// Adds a hexside feature between two adjacent hexes.
    pub fn side(mut self, a: &str, b: &str, f: Hexside) -> Build {
        let d = h(a).direction_to(h(b)).expect("adjacent");
        self.map.add_hexside(h(a), d, f);
        self
    }

    /// Adds a road along a chain of hexes.
    pub fn road(mut self, hexes: &[&str]) -> Build {
        for w in hexes.windows(2) {
            let d = h(w[0]).direction_to(h(w[1])).expect("adjacent");
            self.map.add_hexside(h(w[0]), d, Hexside::ROAD);
        }
        self
    }

    /// Adds a unit: `"B.1 inf 6-4 0203"` (B = first side, R = second side).
    pub fn unit(mut self, line: &str) -> Build {
        let w: Vec<&str> = line.split_whitespace().collect();
        let (s, m) = w[2].split_once('-').unwrap();
        let kind = match w[1] {
            "inf" => UnitType::Infantry,
            "cav" => UnitType::Cavalry,
            _ => UnitType::Artillery,
        };
        let nation = w[0].split('.').next().unwrap().to_string();
        let mut u = UnitFile {
            id: w[0].to_string(),
            nation,
            designation: w[0].split('.').nth(1).unwrap().to_string(),
            kind,
            strength: s.parse().unwrap(),
            movement: m.parse().unwrap(),
            army: String::new(),
            corps: String::new(),
            hex: None,
            arrive: None,
            destroyed: false,
        };
        if let Some(r) = w[3].strip_prefix('@') {
            let p: Vec<&str> = r.split(':').collect();
            let edge = match p[2] {
                "north" => hexmap::Edge::North,
                "south" => hexmap::Edge::South,
                "east" => hexmap::Edge::East,
                _ => hexmap::Edge::West,
            };
            u.arrive = Some(naw::scenario::Arrival {
                turn: p[0].parse().unwrap(),
                hex: h(p[1]),
                edge,
            });
        } else if w[3] == "destroyed" {
            u.destroyed = true;
        } else {
            u.hex = Some(h(w[3]));
        }
        self.units.push(u);
        self
    }

    /// The scenario file.
    pub fn file(&self) -> ScenarioFile {
        ScenarioFile {
            format: "grognard-scenario/1".into(),
            id: "test".into(),
            title: "Test".into(),
            system: "naw".into(),
            map: "test".into(),
            first_turn: self.first_turn,
            last_turn: self.last_turn,
            night_turns: self.night.clone(),
            sides: vec!["Blue".into(), "Red".into()],
            description: String::new(),
            hooks: self.hooks.clone(),
            nations: vec![
                NationFile {
                    id: "B".into(),
                    name: "Blue".into(),
                    side: "Blue".into(),
                    army: None,
                },
                NationFile {
                    id: "R".into(),
                    name: "Red".into(),
                    side: "Red".into(),
                    army: None,
                },
            ],
            demoralization: Vec::new(),
            line_of_communications: None,
            units: self.units.clone(),
        }
    }

    /// The validated scenario.
    pub fn scenario(&self) -> Scenario {
        self.file()
            .validate("test.toml", self.map.clone(), 1)
            .expect("valid test scenario")
    }

    /// A new game.
    pub fn game(&self) -> Game {
        Game::new(self.scenario())
    }
}

/// Parses and applies action text, panicking on refusal.
pub fn act(g: &mut Game, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(a).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// Applies action text and returns the refusal's case.
pub fn refused(g: &Game, text: &str) -> String {
    let a = match g.parse_action(text) {
        Ok(a) => a,
        Err(e) => return e.case.to_string(),
    };
    match g.check(a) {
        Ok(()) => panic!("{text} was accepted"),
        Err(e) => e.case.to_string(),
    }
}

/// The hex of a unit by id.
pub fn at(g: &Game, id: &str) -> Option<Hex> {
    g.hex_of(g.scenario().unit_by_id(id).unwrap())
}

/// A random map with every kind of terrain and hexside, and units of both sides.
pub fn generated(seed: u64, w: i16, hgt: i16, n_units: usize) -> Scenario {
    let mut d = Dice::new(seed);
    let mut r = |n: u64| d.next_u64() % n;
    let mut b = Build::new(w, hgt);
    b.last_turn = 6;
    b.night = vec![3];
    b.hooks.night_withdrawal = r(2) == 0;
    b.hooks.no_movement_first_turn = (r(2) == 0).then(|| "Blue".to_string());
    let hexes: Vec<Hex> = b.map.hexes().collect();
    for &x in &hexes {
        let t = match r(20) {
            0..=11 => Terrain::Clear,
            12..=14 => Terrain::Forest,
            15..=16 => Terrain::Rough,
            17 => Terrain::Marsh,
            _ => Terrain::Town,
        };
        b.map.set_terrain(x, t);
        if r(10) == 0 {
            b.map.set_slope_hex(x, true);
        }
        for dd in [Dir::E, Dir::SE, Dir::SW] {
            let f = match r(30) {
                0..=2 => Hexside::ROAD,
                3 => Hexside::RIVER,
                4 => Hexside::RIVER.with(Hexside::BRIDGE).with(Hexside::ROAD),
                5 => Hexside::STREAM,
                6 => Hexside::STREAM.with(Hexside::ROAD),
                7 => Hexside::TRAIL,
                8 => Hexside::SLOPE,
                _ => Hexside::NONE,
            };
            b.map.add_hexside(x, dd, f);
        }
    }
    // roads along the edges so reinforcements can enter
    for y in 1..hgt {
        b.map.add_hexside(Hex::new(1, y), Dir::W, Hexside::ROAD);
        b.map.add_hexside(Hex::new(w, y), Dir::W, Hexside::ROAD);
    }
    let mut used = std::collections::HashSet::new();
    for i in 0..n_units {
        let side = if i % 2 == 0 { "B" } else { "R" };
        let kind = match r(10) {
            0..=6 => "inf",
            7..=8 => "cav",
            _ => "art",
        };
        let s = 2 + r(14);
        let m = if kind == "cav" { 6 } else { 4 };
        let id = format!("{side}.{i}");
        if i % 10 == 9 {
            let edge_row = if side == "B" { 1 } else { w };
            let y = 1 + r(hgt as u64 - 1) as i16;
            let edge = if side == "B" { "north" } else { "south" };
            b = b.unit(&format!(
                "{id} {kind} {s}-{m} @{}:{}:{edge}",
                1 + r(5),
                Hex::new(edge_row, y)
            ));
            continue;
        }
        // Blue in the northern half, Red in the southern, with a contact zone
        loop {
            let x = if side == "B" {
                1 + r(w as u64 / 2 + 1)
            } else {
                w as u64 / 2 + r(w as u64 / 2 + 1)
            };
            let hx = Hex::new(x as i16, 1 + r(hgt as u64) as i16);
            if b.map.contains(hx) && b.map.terrain(hx) != Terrain::Marsh && used.insert(hx) {
                b = b.unit(&format!("{id} {kind} {s}-{m} {hx}"));
                break;
            }
        }
    }
    let mut f = b.file();
    f.demoralization = vec![naw::scenario::DemoralizationFile {
        turns: [1, 6],
        levels: [("Blue".to_string(), 60), ("Red".to_string(), 60)]
            .into_iter()
            .collect(),
    }];
    f.validate("generated", b.map.clone(), seed)
        .expect("generated scenario is valid")
}

/// Plays random legal actions until the game ends (or `limit` actions). Calls `each` after
/// every action. Returns the actions taken.
pub fn play_random(
    g: &mut Game,
    seed: u64,
    limit: usize,
    mut each: impl FnMut(&Game, Action),
) -> Vec<Action> {
    let mut dice = Dice::new(seed);
    let mut pick = Dice::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut buf = Vec::new();
    let mut taken = Vec::new();
    for _ in 0..limit {
        let a = match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => Action::Roll(dice.roll()),
            ToAct::Side(_) => {
                buf.clear();
                g.legal_actions(&mut buf);
                assert!(!buf.is_empty(), "no legal action at {:?}", g.step());
                // favour ending movement sometimes so games progress
                buf[(pick.next_u64() % buf.len() as u64) as usize]
            }
        };
        g.apply(a)
            .unwrap_or_else(|e| panic!("generated action {} refused: {e}", g.action_text(a)));
        taken.push(a);
        each(g, a);
    }
    taken
}

/// The side of the first player.
pub const BLUE: Side = Side(0);
/// The side of the second player.
pub const RED: Side = Side(1);

impl Build {
    /// Marks a hex as a slope hex (5.26).
    pub fn slope_hex(mut self, hex: &str) -> Build {
        self.map.set_slope_hex(h(hex), true);
        self
    }

    /// A new game from the scenario file after `edit` (demoralization rows, line of
    /// communications, hooks, sides...).
    pub fn game_with(&self, edit: impl FnOnce(&mut ScenarioFile)) -> Game {
        let mut f = self.file();
        edit(&mut f);
        Game::new(
            f.validate("test.toml", self.map.clone(), 1)
                .expect("valid test scenario"),
        )
    }
}

/// The unit with this id.
pub fn uid(g: &Game, id: &str) -> naw::UnitId {
    g.scenario()
        .unit_by_id(id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

/// True when the unit has been eliminated.
pub fn gone(g: &Game, id: &str) -> bool {
    g.loc(uid(g, id)) == naw::Loc::Eliminated
}

/// The odds column (`3-1`) of the declared combat that includes `target`.
pub fn column(g: &Game, target: &str) -> String {
    g.current_column(uid(g, target))
        .expect("a declared combat")
        .name()
        .to_string()
}

/// The odds of the declared combat that includes `target`: (attack, defence, column).
pub fn odds(g: &Game, target: &str) -> (u32, u32, String) {
    let t = uid(g, target);
    let c = g
        .combats()
        .into_iter()
        .find(|c| c.defenders.contains(&t))
        .expect("a declared combat");
    (
        c.odds.attack,
        c.odds.defence,
        c.odds.column.name().to_string(),
    )
}

/// The cost in half movement points of a legal move, or `None`.
pub fn cost(g: &Game, id: &str, to: &str) -> Option<u16> {
    g.path(uid(g, id), h(to)).map(|(_, c)| c)
}

/// Applies several actions in turn.
pub fn acts(g: &mut Game, texts: &[&str]) {
    for t in texts {
        act(g, t);
    }
}

/// True when the action text is accepted in the current state.
pub fn accepted(g: &Game, text: &str) -> bool {
    g.parse_action(text).is_ok_and(|a| g.check(a).is_ok())
}

/// Every legal action's canonical text.
pub fn legal_texts(g: &Game) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v.into_iter().map(|a| g.action_text(a)).collect()
}

/// Whose decision it is.
pub fn to_act(g: &Game) -> ToAct {
    g.to_act()
}
