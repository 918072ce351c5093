//! Leipzig 1813, the strategic game (`leipzig-1813`), registered: its rules (`leipzig_1813`),
//! its views (`present::L1813Presenter`) and its computer players (random legal play,
//! `ai::l1813`'s heuristic, and the generic search over `ai::l1813`'s knowledge).
//!
//! Its scenarios are the rules crate's data (`leipzig_1813::scenario::Scenario::leipzig(n)`):
//! the library lists them through stub files shipped in `crates/scenarios`
//! (`scenarios/leipzig1813-N.toml`, `system = "leipzig-1813"`, `map = "central-europe"`,
//! `scenario = N`), so that nothing generic names this system. A game's scenario digest covers
//! the stub, the scenario's and the reinforcement chart's text, the tables, the counters and
//! the map, so that a record made with other data does not replay.

use crate::typed::{Typed, TypedPlayer};
use engine::dynamic::{
    DynGame, DynPlayer, GameFacts, Hosted, ScenarioInfo, ScenarioSource, System, SystemError,
};
use engine::{Record, Session};
use leipzig_1813::data::Tables;
use leipzig_1813::europe::Europe;
use leipzig_1813::game::SEAT_NAMES;
use leipzig_1813::scenario::Scenario;
use leipzig_1813::units::Units;
use leipzig_1813::Game;
use present::L1813Presenter;
use serde::Deserialize;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The Leipzig 1813 rules system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Leipzig1813;

/// A hosted Leipzig 1813 game.
pub type L1813Game = Hosted<Game, L1813Presenter>;

/// The system's id.
pub const ID: &str = "leipzig-1813";

/// The map its scenarios are played on.
pub const MAP: &str = "central-europe";

/// The players it offers, weakest first (the start screen picks the last): `plans`, the fast
/// search over whole steps in styles, takes a few seconds a computer player-turn. The search
/// over single actions (`search`, `search@Nn`) is played when named but not offered: at its
/// budget a computer player-turn takes minutes (`docs/ai.md`, "Leipzig 1813 players").
const PLAYERS: &[&str] = &["random", "heuristic", "plans"];

/// A scenario stub: the library's entry for one of the rules crate's scenarios.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stub {
    format: String,
    id: String,
    system: String,
    map: String,
    /// The rules crate's scenario number, 1..=8.
    scenario: u8,
}

/// The shipped data, parsed once: the tables, the counters and the eight scenarios.
pub(crate) struct Data {
    pub(crate) tables: Arc<Tables>,
    pub(crate) units: Arc<Units>,
    pub(crate) europe: Arc<Europe>,
    pub(crate) scenarios: Vec<Arc<Scenario>>,
}

pub(crate) fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data {
        tables: Arc::new(Tables::leipzig()),
        units: Arc::new(Units::leipzig()),
        europe: Arc::new(Europe::central_europe()),
        scenarios: Scenario::all().into_iter().map(Arc::new).collect(),
    })
}

/// Reads a stub and finds its scenario.
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
    if stub.map != MAP {
        return Err(bad(format!(
            "map '{}': Leipzig 1813 is played on the '{MAP}' map",
            stub.map
        )));
    }
    let d = data();
    let sc = usize::from(stub.scenario)
        .checked_sub(1)
        .and_then(|i| d.scenarios.get(i))
        .ok_or_else(|| {
            bad(format!(
                "scenario {}: Leipzig 1813 has scenarios 1 to {}",
                stub.scenario,
                d.scenarios.len()
            ))
        })?;
    if stub.id != sc.id {
        return Err(bad(format!(
            "id '{}': scenario {} is '{}'",
            stub.id, stub.scenario, sc.id
        )));
    }
    Ok((sc.clone(), digest(src.text, sc)))
}

/// The digest of a game: the stub's text, the scenario's (with the reinforcement chart), the
/// tables', the counters' and the map's.
pub fn digest(stub: &str, sc: &Scenario) -> u64 {
    let d = data();
    let mut bytes = Vec::with_capacity(40);
    for x in [
        engine::hash_bytes(stub.as_bytes()),
        sc.digest,
        d.tables.digest,
        d.units.digest,
        engine::hash_bytes(Europe::MAP_TOML.as_bytes()),
    ] {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    engine::hash_bytes(&bytes)
}

/// The special rules a scenario switches on, named for a description.
fn special_rules(sc: &Scenario) -> Vec<String> {
    let r = &sc.rules;
    let mut v = Vec::new();
    if let Some(t) = r.reconnaissance_until {
        v.push(format!(
            "Allied units hidden from the French through turn {t}"
        ));
    }
    if let Some(g) = &r.saxon_garrison {
        v.push(format!(
            "the Saxon garrison of {} until turn {}",
            g.at, g.moves_from_turn
        ));
    }
    if let Some(g) = &r.gotha_march {
        v.push(format!("the march from {} on turn {}", g.at, g.turn));
    }
    if r.bavarian_defection.is_some() {
        v.push("the Bavarian defection".into());
    }
    if r.armistice.is_some() {
        v.push("the armistice".into());
    }
    if r.german_rebellion.is_some() {
        v.push("the German rebellion".into());
    }
    if r.austrian_intervention.is_some() {
        v.push("the Austrian intervention".into());
    }
    if r.northern_option.is_some() {
        v.push("the northern option".into());
    }
    v
}

fn info(src: &ScenarioSource, sc: &Scenario) -> ScenarioInfo {
    let counters = |side: &str| {
        let f = sc.setup_total(side);
        (f.infantry + f.cavalry + f.supply + f.depots) as usize + f.leaders.len()
    };
    let season = if sc.first_turn == 1 && sc.last_turn > 12 {
        "spring and summer"
    } else if sc.first_turn == 1 {
        "spring"
    } else {
        "summer"
    };
    let rules = special_rules(sc);
    ScenarioInfo {
        id: src.name.to_string(),
        title: format!("Leipzig 1813: {}", sc.title),
        system: ID.into(),
        components: MAP.into(),
        sides: SEAT_NAMES.iter().map(|s| s.to_string()).collect(),
        units: counters("French") + counters("Allied"),
        first_turn: sc.first_turn,
        last_turn: sc.last_turn,
        description: format!(
            "Leipzig 1813, scenario {}: {}. The {season} campaign of 1813 in weekly turns \
             ({} to {}) on the map of central Europe; the Allies deploy first, the French move \
             first.{}",
            sc.number,
            sc.title,
            sc.first_turn,
            sc.last_turn,
            if rules.is_empty() {
                String::new()
            } else {
                format!(" Special rules: {}.", rules.join("; "))
            }
        ),
    }
}

/// A new game of a scenario on the shipped tables.
fn game(sc: &Scenario) -> Result<Game, SystemError> {
    Game::new(sc, &data().tables).map_err(|e| SystemError::Scenario(e.to_string()))
}

fn hosted(s: Session<Game>) -> Box<dyn DynGame> {
    Box::new(L1813Game::new(ID, s, Arc::new(L1813Presenter)).with_facts(facts))
}

/// The game's figures for the arena (`grognard sim`): the game-turn, each side's victory
/// points, and the divisions and leaders each has lost in combat and by forced march.
fn facts(g: &Game) -> GameFacts {
    let vp = g.victory_points();
    let mut figures = Vec::new();
    for (i, name) in SEAT_NAMES.iter().enumerate() {
        figures.push((format!("{name} victory points"), f64::from(vp[i])));
    }
    for (i, name) in SEAT_NAMES.iter().enumerate() {
        let l = g.losses(i as u8);
        figures.push((format!("{name} lost in combat"), f64::from(l.combat)));
        figures.push((format!("{name} lost by forced march"), f64::from(l.march)));
    }
    GameFacts {
        turn: Some(g.turn()),
        figures,
    }
}

impl System for Leipzig1813 {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Leipzig 1813"
    }

    fn rules_version(&self) -> &'static str {
        leipzig_1813::RULES_VERSION
    }

    fn scenario(&self, src: &ScenarioSource) -> Result<(ScenarioInfo, u64), SystemError> {
        let (sc, d) = build(src)?;
        Ok((info(src, &sc), d))
    }

    fn map_view(&self, src: &ScenarioSource) -> Result<Value, SystemError> {
        build(src)?;
        Ok(serde_json::to_value(present::map_view(&data().europe.map)).unwrap_or_default())
    }

    fn new_game(&self, src: &ScenarioSource, seed: u64) -> Result<Box<dyn DynGame>, SystemError> {
        let (sc, d) = build(src)?;
        let s = Session::new(game(&sc)?, src.name, d, seed);
        Ok(hosted(s))
    }

    fn resume(
        &self,
        src: &ScenarioSource,
        record: Record,
    ) -> Result<Box<dyn DynGame>, SystemError> {
        let (sc, d) = build(src)?;
        let s = Session::resume(game(&sc)?, record, d)?;
        Ok(hosted(s))
    }

    /// `tables`: the Combat Results Table as reconstructed (`present::l1813_tables_view`).
    fn query(&self, name: &str, _arg: &str) -> Result<Value, engine::dynamic::QueryError> {
        match name {
            "tables" => Ok(present::l1813_tables_view(&data().tables)),
            _ => Err(engine::dynamic::QueryError::Unknown(name.to_string())),
        }
    }

    fn players(&self) -> Vec<String> {
        PLAYERS.iter().map(|s| s.to_string()).collect()
    }

    fn player(&self, spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String> {
        match spec.trim() {
            "random" => Ok(Box::new(
                crate::random::TypedRandom::<Game, L1813Presenter>::new(seed),
            )),
            // ai::l1813's heuristic: objectives, supply, forced marches at a small loss
            "heuristic" => Ok(Box::new(Typed::<Game, L1813Presenter, _>::new(
                ai::l1813::L1813Heuristic::new(seed),
            ))),
            // the generic search over ai::l1813's knowledge: whole steps in styles (`plans`,
            // `plans@8n`) or single actions (`search`, `search@500n`)
            other => match ai::l1813::L1813Player::from_spec(other, seed) {
                Ok(p) => Ok(Box::new(Typed::<Game, L1813Presenter, _>::new(p))),
                Err(_) => Err(format!(
                    "no computer player '{other}' for Leipzig 1813 (available: {}; plans@8n; and \
                     the search, slow: search, search@50n)",
                    PLAYERS.join(", ")
                )),
            },
        }
    }
}

impl TypedPlayer<Game> for ai::l1813::L1813Player {
    fn pick(&mut self, g: &Game) -> Option<leipzig_1813::Action> {
        Some(self.choose(g))
    }

    fn name(&self) -> String {
        ai::l1813::L1813Player::name(self)
    }

    fn explain(&self) -> Option<String> {
        ai::l1813::L1813Player::explain(self)
    }
}

impl TypedPlayer<Game> for ai::l1813::L1813Heuristic {
    fn pick(&mut self, g: &Game) -> Option<leipzig_1813::Action> {
        Some(self.choose(g))
    }

    fn name(&self) -> String {
        ai::l1813::L1813Heuristic::name(self)
    }

    fn explain(&self) -> Option<String> {
        ai::l1813::L1813Heuristic::explain(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Library;

    #[test]
    fn the_eight_scenarios_are_listed_with_their_titles() {
        let lib = Library::standard();
        for n in 1..=8u8 {
            let id = format!("leipzig1813-{n}");
            let s = lib.scenario(&id).unwrap();
            assert_eq!(s.system, ID);
            assert_eq!(s.components, MAP);
            assert_eq!(s.sides, vec!["French".to_string(), "Allies".to_string()]);
            assert!(s.title.starts_with("Leipzig 1813: "), "{}", s.title);
            assert_eq!(lib.rules_for(&s), vec![ID]);
        }
        let five = lib.scenario("leipzig1813-5").unwrap();
        assert_eq!(five.title, "Leipzig 1813: Historical Situation (summer)");
        assert_eq!((five.first_turn, five.last_turn), (24, 35));
    }

    #[test]
    fn a_bad_stub_is_refused_with_its_reason() {
        let mut lib = Library::standard();
        let stub = |n: &str, map: &str| {
            format!(
                "format = \"grognard-scenario/1\"\nid = \"leipzig1813-{n}\"\nsystem = \"{ID}\"\n\
                 map = \"{map}\"\nscenario = {n}\n"
            )
        };
        lib.add_scenario("nine", &stub("9", MAP));
        let e = lib.scenario("nine").err().unwrap().to_string();
        assert!(e.contains("scenarios 1 to 8"), "{e}");
        lib.add_scenario("elsewhere", &stub("2", "leipzig"));
        let e = lib.scenario("elsewhere").err().unwrap().to_string();
        assert!(e.contains("played on the 'central-europe' map"), "{e}");
        lib.add_scenario(
            "wrong-id",
            &stub("2", MAP).replace("leipzig1813-2", "leipzig1813-3"),
        );
        let e = lib.scenario("wrong-id").err().unwrap().to_string();
        assert!(e.contains("scenario 2 is 'leipzig1813-2'"), "{e}");
    }

    #[test]
    fn the_map_view_is_the_central_europe_map_with_its_places() {
        let lib = Library::standard();
        let v = lib.map_view("leipzig1813-5").unwrap();
        assert_eq!(v["id"], MAP);
        let places: Vec<&str> = v["places"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        for p in [
            "Leipzig",
            "Dresden",
            "Berlin",
            "Prague",
            "Breslau",
            "Magdeburg",
        ] {
            assert!(places.contains(&p), "{p} missing from {places:?}");
        }
    }

    #[test]
    fn its_computer_players_are_offered() {
        assert_eq!(Leipzig1813.players(), vec!["random", "heuristic", "plans"]);
        assert!(Leipzig1813.player("plans@2n", 1).is_ok());
        assert!(Leipzig1813.player("search@2n", 1).is_ok());
        let e = Leipzig1813.player("expert", 1).err().unwrap();
        assert!(
            e.contains("available: random, heuristic, plans; plans@8n; and the search"),
            "{e}"
        );
        let lib = Library::standard();
        let mut g = lib.new_game("leipzig1813-5", None, 5).unwrap();
        let mut p = Leipzig1813.player("search@2n", 2).unwrap();
        assert_eq!(p.name(), "search@2n");
        for _ in 0..3 {
            if let engine::ToAct::Side(_) = g.to_act() {
                let a = p.choose(&*g);
                g.act(&a).unwrap();
            }
        }
    }

    #[test]
    fn its_charts_are_the_combat_results_table() {
        let t = Leipzig1813.query("tables", "").unwrap();
        let cols = t["crt"]["columns"].as_array().unwrap();
        assert!(cols.iter().any(|c| c == "160%"), "{t}");
        assert_eq!(t["crt"]["rows"].as_array().unwrap().len(), 6);
    }

    #[test]
    fn digests_differ_by_scenario() {
        let lib = Library::standard();
        let a = lib.digest("leipzig1813-1", None).unwrap();
        let b = lib.digest("leipzig1813-5", None).unwrap();
        assert_ne!(a, b);
        assert_eq!(a, lib.digest("leipzig1813-1", None).unwrap());
    }
}
