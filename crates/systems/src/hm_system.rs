//! The hex-miniatures rules (`hex-miniatures`), registered: its rules (`hex_miniatures`), its
//! views (`present::HmPresenter`) and its computer players.
//!
//! Its scenario is the rules crate's data (`hex_miniatures::scenario::Scenario::moeckern()`,
//! reading three files of `crates/scenarios`): the library lists it through a stub shipped in
//! `crates/scenarios` (`scenarios/moeckern-1813.toml`, `system = "hex-miniatures"`, `map =
//! "moeckern"`, `scenario = "moeckern-1813"`), so that nothing generic names this system. A
//! game's scenario digest covers the stub, the scenario's three files and the rules' tables, so
//! that a record made with other data does not replay.

use crate::typed::{Typed, TypedPlayer};
use engine::dynamic::{
    DynGame, DynPlayer, GameFacts, Hosted, ScenarioInfo, ScenarioSource, System, SystemError,
};
use engine::{Record, Session, Side};
use hex_miniatures::data::Tables;
use hex_miniatures::scenario::{Scenario, Start};
use hex_miniatures::Game;
use present::HmPresenter;
use serde::Deserialize;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The hex-miniatures rules system.
#[derive(Clone, Copy, Debug, Default)]
pub struct HexMiniatures;

/// A hosted hex-miniatures game.
pub type HmGame = Hosted<Game, HmPresenter>;

/// The system's id.
pub const ID: &str = "hex-miniatures";

/// The players it offers, weakest first.
const PLAYERS: &[&str] = &["random", "heuristic", "search"];

/// A scenario stub: the library's entry for one of the rules crate's scenarios.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stub {
    format: String,
    id: String,
    system: String,
    map: String,
    /// The rules crate's scenario id (`moeckern-1813`).
    scenario: String,
}

/// The shipped data, parsed once: the tables and the scenarios.
pub(crate) struct Data {
    pub(crate) tables: Arc<Tables>,
    pub(crate) scenarios: Vec<Arc<Scenario>>,
}

pub(crate) fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data {
        tables: Arc::new(Tables::shipped()),
        scenarios: vec![Arc::new(Scenario::moeckern())],
    })
}

/// Reads a stub and finds its scenario, with the game's digest.
fn build(src: &ScenarioSource) -> Result<(Arc<Scenario>, u64), SystemError> {
    let bad = |why: String| SystemError::Scenario(format!("{}: {why}", src.name));
    let stub: Stub = toml::from_str(src.text).map_err(|e| bad(e.to_string()))?;
    if stub.format != "grognard-scenario/1" {
        return Err(bad(format!(
            "format '{}': expected 'grognard-scenario/1'",
            stub.format
        )));
    }
    if stub.system != ID {
        return Err(bad(format!(
            "system '{}': this is the '{ID}' system",
            stub.system
        )));
    }
    let d = data();
    let sc = d
        .scenarios
        .iter()
        .find(|s| s.id == stub.scenario)
        .ok_or_else(|| {
            bad(format!(
                "scenario '{}': the hex-miniatures rules have {}",
                stub.scenario,
                d.scenarios
                    .iter()
                    .map(|s| format!("'{}'", s.id))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    if stub.map != sc.map.id {
        return Err(bad(format!(
            "map '{}': '{}' is played on the '{}' map",
            stub.map, sc.id, sc.map.id
        )));
    }
    if stub.id != sc.id {
        return Err(bad(format!(
            "id '{}': the stub names scenario '{}'",
            stub.id, sc.id
        )));
    }
    Ok((sc.clone(), digest(src.text, sc, &d.tables)))
}

/// The digest of a game: the stub's text, the scenario's (its file, map and order of battle)
/// and the tables'.
pub fn digest(stub: &str, sc: &Scenario, tables: &Tables) -> u64 {
    let mut bytes = Vec::with_capacity(24);
    for x in [
        engine::hash_bytes(stub.as_bytes()),
        sc.digest,
        tables.digest,
    ] {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    engine::hash_bytes(&bytes)
}

/// A new game of a scenario under the shipped tables.
fn game(src: &ScenarioSource, sc: &Scenario) -> Result<Game, SystemError> {
    Game::new(sc, &data().tables)
        .map_err(|e| SystemError::Scenario(format!("{}: the game cannot be set up: {e}", src.name)))
}

fn hosted(s: Session<Game>, sc: &Scenario) -> Box<dyn DynGame> {
    Box::new(HmGame::new(ID, s, Arc::new(HmPresenter::new(sc))).with_facts(facts))
}

/// The game's figures for the arena (`grognard sim`): the turn, and per side the base units
/// lost, their share of the army in percent, and whether it holds the field (1 or 0).
fn facts(g: &Game) -> GameFacts {
    let cas = g.casualties();
    let mut figures = Vec::new();
    for s in 0..2u8 {
        let name = engine::Rules::seat_name(g, Side(s)).to_string();
        let (lost, total) = cas[usize::from(s)];
        figures.push((format!("{name} base units lost"), f64::from(lost)));
        figures.push((
            format!("{name} casualties %"),
            if total == 0 {
                0.0
            } else {
                f64::from(lost) * 100.0 / f64::from(total)
            },
        ));
        figures.push((
            format!("{name} hold the field"),
            if g.holder_of_the_field() == Some(s) {
                1.0
            } else {
                0.0
            },
        ));
    }
    GameFacts {
        turn: Some(u32::from(g.turn())),
        figures,
    }
}

fn info(src: &ScenarioSource, sc: &Scenario) -> ScenarioInfo {
    let count = |side: Side| sc.units.iter().filter(|u| u.side == side).count();
    let set_up = |side: Side| {
        sc.units
            .iter()
            .filter(|u| u.side == side && matches!(u.start, Start::SetUp(_)))
            .count()
    };
    let (a, b) = (Side(0), Side(1));
    ScenarioInfo {
        id: src.name.to_string(),
        title: sc.title.clone(),
        system: ID.into(),
        components: sc.map.id.clone(),
        sides: sc.sides.iter().map(|s| s.name.clone()).collect(),
        units: sc.units.len() + sc.generals.len(),
        first_turn: 1,
        last_turn: sc.turns(),
        description: format!(
            "{} The hex-miniatures rules: {} turns of {} minutes ({} to {}); the {} field {} \
             battalions, regiments and batteries ({} on the table at the start), the {} {} ({} \
             at the start).",
            sc.description.trim(),
            sc.turns(),
            sc.time.turn_minutes,
            sc.clock(1),
            hex_miniatures::scenario::format_clock(
                sc.time.start + sc.turns() * sc.time.turn_minutes
            ),
            sc.sides[0].name,
            count(a),
            set_up(a),
            sc.sides[1].name,
            count(b),
            set_up(b),
        ),
    }
}

impl System for HexMiniatures {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Hex miniatures"
    }

    fn rules_version(&self) -> &'static str {
        hex_miniatures::RULES_VERSION
    }

    fn scenario(&self, src: &ScenarioSource) -> Result<(ScenarioInfo, u64), SystemError> {
        let (sc, d) = build(src)?;
        Ok((info(src, &sc), d))
    }

    fn map_view(&self, src: &ScenarioSource) -> Result<Value, SystemError> {
        let (sc, _) = build(src)?;
        Ok(serde_json::to_value(present::map_view(&sc.map)).unwrap_or_default())
    }

    fn new_game(&self, src: &ScenarioSource, seed: u64) -> Result<Box<dyn DynGame>, SystemError> {
        let (sc, d) = build(src)?;
        let s = Session::new(game(src, &sc)?, src.name, d, seed);
        Ok(hosted(s, &sc))
    }

    fn resume(
        &self,
        src: &ScenarioSource,
        record: Record,
    ) -> Result<Box<dyn DynGame>, SystemError> {
        let (sc, d) = build(src)?;
        let s = Session::resume(game(src, &sc)?, record, d)?;
        Ok(hosted(s, &sc))
    }

    /// `tables`: every table of the rules' data as the charts drawer draws them
    /// (`present::hm_tables_view`).
    fn query(&self, name: &str, _arg: &str) -> Result<Value, engine::dynamic::QueryError> {
        match name {
            "tables" => Ok(present::hm_tables_view(&data().tables)),
            _ => Err(engine::dynamic::QueryError::Unknown(name.to_string())),
        }
    }

    fn players(&self) -> Vec<String> {
        PLAYERS.iter().map(|s| s.to_string()).collect()
    }

    fn player(&self, spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String> {
        match spec.trim() {
            "random" => Ok(Box::new(
                crate::random::TypedRandom::<Game, HmPresenter>::new(seed),
            )),
            "heuristic" => Ok(Box::new(Typed::<Game, HmPresenter, _>::new(
                ai::hm::HmHeuristic::new(seed),
            ))),
            // the generic search over ai::hm's knowledge (`search`, `search@200n`)
            other => match ai::hm::HmSearch::from_spec(other, seed) {
                Ok(p) => Ok(Box::new(Typed::<Game, HmPresenter, _>::new(p))),
                Err(_) => Err(format!(
                    "no computer player '{other}' for the hex-miniatures rules (available: {}; \
                     search@Nn for the search with N rollouts a stage)",
                    PLAYERS.join(", ")
                )),
            },
        }
    }
}

impl TypedPlayer<Game> for ai::hm::HmHeuristic {
    fn pick(&mut self, g: &Game) -> Option<hex_miniatures::Action> {
        self.choose(g)
    }

    fn name(&self) -> String {
        "heuristic".into()
    }

    fn explain(&self) -> Option<String> {
        ai::hm::HmHeuristic::explain(self)
    }
}

impl TypedPlayer<Game> for ai::hm::HmSearch {
    fn pick(&mut self, g: &Game) -> Option<hex_miniatures::Action> {
        self.choose(g)
    }

    fn name(&self) -> String {
        ai::hm::HmSearch::name(self)
    }

    fn explain(&self) -> Option<String> {
        ai::hm::HmSearch::explain(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Library;

    #[test]
    fn moeckern_is_listed_with_its_sides_and_turns() {
        let lib = Library::standard();
        let s = lib.scenario("moeckern-1813").unwrap();
        assert_eq!(s.system, ID);
        assert_eq!(s.components, "moeckern");
        assert_eq!(s.sides, vec!["Prussians".to_string(), "French".to_string()]);
        assert_eq!((s.first_turn, s.last_turn), (1, 36));
        assert_eq!(s.units, 122 + 17);
        assert!(s.title.starts_with("Möckern"), "{}", s.title);
        assert!(
            s.description.contains("12:00 to 18:00"),
            "{}",
            s.description
        );
        assert_eq!(lib.rules_for(&s), vec![ID]);
    }

    #[test]
    fn a_bad_stub_is_refused_with_its_reason() {
        let mut lib = Library::standard();
        let stub = |id: &str, map: &str, sc: &str| {
            format!(
                "format = \"grognard-scenario/1\"\nid = \"{id}\"\nsystem = \"{ID}\"\n\
                 map = \"{map}\"\nscenario = \"{sc}\"\n"
            )
        };
        lib.add_scenario("x", &stub("x", "moeckern", "waterloo"));
        let e = lib.scenario("x").err().unwrap().to_string();
        assert!(
            e.contains("the hex-miniatures rules have 'moeckern-1813'"),
            "{e}"
        );
        lib.add_scenario("y", &stub("moeckern-1813", "leipzig", "moeckern-1813"));
        let e = lib.scenario("y").err().unwrap().to_string();
        assert!(e.contains("played on the 'moeckern' map"), "{e}");
        lib.add_scenario("z", &stub("other", "moeckern", "moeckern-1813"));
        let e = lib.scenario("z").err().unwrap().to_string();
        assert!(e.contains("names scenario 'moeckern-1813'"), "{e}");
    }

    #[test]
    fn the_map_view_is_the_moeckern_table_with_its_places() {
        let lib = Library::standard();
        let v = lib.map_view("moeckern-1813").unwrap();
        assert_eq!(v["id"], "moeckern");
        let places: Vec<&str> = v["places"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        for p in ["Möckern", "Wahren", "Lindenthal", "Klein-Wiederitzsch"] {
            assert!(places.contains(&p), "{p} missing from {places:?}");
        }
    }

    #[test]
    fn the_tables_query_gives_every_table_of_the_crate() {
        let v = HexMiniatures.query("tables", "").unwrap();
        let t = Tables::shipped();
        let ids: Vec<&str> = v["charts"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["id"].as_str())
            .collect();
        let mut want = vec![
            "odds",
            "crt",
            "shifts",
            "rally-orders",
            "general-under-fire",
            "terrain",
            "crisis",
            "square",
            "artillery",
            "victory",
            "weather-fog",
            "weather-snow",
            "fog-by-time",
            "light",
        ];
        let armies: Vec<String> = t
            .armies
            .iter()
            .map(|a| format!("army-{}", a.nation))
            .collect();
        want.extend(armies.iter().map(String::as_str));
        for id in &want {
            assert!(ids.contains(id), "{id} missing from {ids:?}");
        }
        // the CRT: every column, a row per 0.050 of the number, the text's results
        assert_eq!(
            v["crt"]["columns"].as_array().unwrap().len(),
            t.crt.columns()
        );
        assert_eq!(v["crt"]["rows"].as_array().unwrap().len(), 20);
        assert_eq!(v["crt"]["rows"][0]["results"][0], "Ar");
        assert_eq!(v["crt"]["results"].as_array().unwrap().len(), 7);
        // the terrain chart names every kind of hex and hexside
        let tec = v["tec"]["rows"].as_array().unwrap();
        assert_eq!(
            tec.len(),
            hex_miniatures::terrain::HEX_KINDS.len() + t.terrain.hexsides.len()
        );
        // every chart's rows have a cell for each column, and none is empty of rows
        for c in v["charts"].as_array().unwrap() {
            let cols = c["columns"].as_array().unwrap().len();
            let rows = c["rows"].as_array().unwrap();
            assert!(!rows.is_empty(), "{}", c["id"]);
            for r in rows {
                assert_eq!(r["cells"].as_array().unwrap().len(), cols, "{}", c["id"]);
            }
        }
        // the light: dusk from 6 hexes, night, dawn back to 6
        let light = v["charts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "light")
            .unwrap();
        let cells: Vec<&str> = light["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cells"][0].as_str().unwrap())
            .collect();
        assert_eq!(cells.first(), Some(&"6 hexes"));
        assert!(cells.contains(&"0 hexes"));
        assert_eq!(cells.last(), Some(&"6 hexes"));
    }

    #[test]
    fn the_digest_covers_the_stub_the_scenario_and_the_tables() {
        let lib = Library::standard();
        let d = lib.digest("moeckern-1813", None).unwrap();
        assert_eq!(d, lib.digest("moeckern-1813", None).unwrap());
        let sc = Scenario::moeckern();
        let t = Tables::shipped();
        let stub = scenarios::scenario_text("moeckern-1813").unwrap();
        assert_eq!(d, digest(stub, &sc, &t));
        let other = Tables::from_toml(&format!("{}\n# changed\n", Tables::TOML)).unwrap();
        assert_ne!(digest(stub, &sc, &other), d);
    }
}
