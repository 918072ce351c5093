//! The Napoleonic Battles activation system (`napoleonic-battles`) registered: its rules
//! (`napoleonic_battles`), its views (`present::NbPresenter`), its computer players (random
//! legal play: `ai::AnyRandom`'s choices, drawn from the typed game; `ai::nb`'s heuristic and
//! search).
//!
//! It plays the Battle of Nations scenarios (components `leipzig`), whose files name `naw`:
//! a player chooses it with `--rules napoleonic-battles` (`"rules"` over the API). A game's
//! scenario digest covers both the scenario file and the system's supplement
//! (`Supplement::digest`), so that a record made with other data does not replay.

use crate::typed::{Typed, TypedPlayer};
use engine::dynamic::{
    DynGame, DynPlayer, GameFacts, Hosted, ScenarioInfo, ScenarioSource, System, SystemError,
};
use engine::{Record, Session};
use napoleonic_battles::data::Supplement;
use napoleonic_battles::Game;
use naw::Scenario;
use present::NbPresenter;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The Napoleonic Battles rules system.
#[derive(Clone, Copy, Debug, Default)]
pub struct NapoleonicBattles;

/// A hosted Napoleonic Battles game.
pub type NbGame = Hosted<Game, NbPresenter>;

/// The system's id.
pub const ID: &str = "napoleonic-battles";

/// The components this system plays: the Battle of Nations (its map and units, `leipzig`).
const COMPONENTS: &[&str] = &["leipzig"];

/// The players it offers, weakest first.
const PLAYERS: &[&str] = &["random", "heuristic", "search"];

/// The embedded supplement, parsed once.
fn supplement() -> Arc<Supplement> {
    static SUP: OnceLock<Arc<Supplement>> = OnceLock::new();
    SUP.get_or_init(|| Arc::new(Supplement::bon())).clone()
}

/// The scenario read by the shared components' model, checked against the supplement (every
/// unit's corps has a formation, every leader's formation and start exist).
fn build(src: &ScenarioSource) -> Result<(Scenario, Arc<Supplement>), SystemError> {
    let sc = Scenario::from_toml(src.text, src.name, src.read)
        .map_err(|e| SystemError::Scenario(e.to_string()))?;
    let sup = supplement();
    sup.check(&sc).map_err(|e| {
        SystemError::Scenario(format!(
            "the Napoleonic Battles data does not fit scenario '{}': {e}",
            src.name
        ))
    })?;
    Ok((sc, sup))
}

/// The digest of a game under this system: the scenario file's and the supplement's.
pub fn digest(sc: &Scenario, sup: &Supplement) -> u64 {
    let mut bytes = Vec::with_capacity(16);
    bytes.extend_from_slice(&sc.digest.to_le_bytes());
    bytes.extend_from_slice(&sup.digest.to_le_bytes());
    engine::hash_bytes(&bytes)
}

fn info(src: &ScenarioSource, sc: &Scenario) -> ScenarioInfo {
    ScenarioInfo {
        id: src.name.to_string(),
        title: sc.title.clone(),
        system: ID.into(),
        components: sc.map.id.clone(),
        sides: sc.sides.to_vec(),
        units: sc.units.len(),
        first_turn: sc.first_turn.into(),
        last_turn: sc.last_turn.into(),
        description: sc.description.trim().to_string(),
    }
}

fn hosted(s: Session<Game>) -> Box<dyn DynGame> {
    Box::new(NbGame::new(ID, s, Arc::new(NbPresenter)).with_facts(facts))
}

/// The game's figures for the arena (`grognard sim`): the game-turn, and per side the SP its
/// units on the map or gone have lost, its formations demoralized and whether its army has
/// disintegrated (1 or 0).
fn facts(g: &Game) -> GameFacts {
    let sc = g.scenario();
    let sup = g.supplement();
    let mut figures = Vec::new();
    for (i, name) in sc.sides.iter().enumerate() {
        let side = engine::Side(i as u8);
        let lost: u32 = g
            .unit_ids()
            .filter(|&u| sc.unit(u).side == side && g.loc(u) != napoleonic_battles::Loc::Waiting)
            .map(|u| u32::from(sc.unit(u).strength.saturating_sub(g.sp(u))))
            .sum();
        figures.push((format!("{name} SP lost"), f64::from(lost)));
    }
    for (i, name) in sc.sides.iter().enumerate() {
        let side = engine::Side(i as u8);
        let demoralized = sup
            .formations_in(sc)
            .into_iter()
            .filter(|&f| {
                sup.army_side(sc, sup.formations[f].army) == Some(side)
                    && g.formation_demoralized(f)
            })
            .count();
        figures.push((format!("{name} formations demoralized"), demoralized as f64));
    }
    // NB25 (the data's ruling): an army past its disintegration level loses the game.
    for (i, name) in sc.sides.iter().enumerate() {
        let side = engine::Side(i as u8);
        let broken = (0..sup.armies.len()).any(|a| {
            let limit = sup.army_disintegration(sc, a);
            let lost: u32 = sup
                .formations_in(sc)
                .into_iter()
                .filter(|&f| sup.formations[f].army == a)
                .map(|f| u32::from(g.formation_lost(f)))
                .sum();
            sup.army_side(sc, a) == Some(side) && limit > 0 && lost >= limit
        });
        figures.push((
            format!("{name} army disintegrated"),
            if broken { 1.0 } else { 0.0 },
        ));
    }
    GameFacts {
        turn: Some(u32::from(g.turn())),
        figures,
    }
}

impl System for NapoleonicBattles {
    fn id(&self) -> &'static str {
        ID
    }

    fn name(&self) -> &'static str {
        "Napoleonic Battles"
    }

    fn rules_version(&self) -> &'static str {
        napoleonic_battles::RULES_VERSION
    }

    fn components(&self) -> &[&'static str] {
        COMPONENTS
    }

    fn scenario(&self, src: &ScenarioSource) -> Result<(ScenarioInfo, u64), SystemError> {
        let (sc, sup) = build(src)?;
        let d = digest(&sc, &sup);
        Ok((info(src, &sc), d))
    }

    fn map_view(&self, src: &ScenarioSource) -> Result<Value, SystemError> {
        let (sc, _) = build(src)?;
        Ok(serde_json::to_value(present::map_view(&sc.map)).unwrap_or_default())
    }

    fn new_game(&self, src: &ScenarioSource, seed: u64) -> Result<Box<dyn DynGame>, SystemError> {
        let (sc, sup) = build(src)?;
        let d = digest(&sc, &sup);
        let s = Session::new(Game::with(Arc::new(sc), sup), src.name, d, seed);
        Ok(hosted(s))
    }

    fn resume(
        &self,
        src: &ScenarioSource,
        record: Record,
    ) -> Result<Box<dyn DynGame>, SystemError> {
        let (sc, sup) = build(src)?;
        let d = digest(&sc, &sup);
        let s = Session::resume(Game::with(Arc::new(sc), sup), record, d)?;
        Ok(hosted(s))
    }

    fn players(&self) -> Vec<String> {
        PLAYERS.iter().map(|s| s.to_string()).collect()
    }

    /// The rules reference of `crates/napoleonic-battles/rules-reference.toml`: every section
    /// of the activation system in our words (by the section names refusals cite, `NB
    /// Movement`), the melee table and terrain chart we designed, and the rulings refusals
    /// cite (`NB77`), in that order, as `[{"case","title","text"}]`.
    fn reference(&self) -> Option<Value> {
        crate::reference::parse(include_str!(
            "../../napoleonic-battles/rules-reference.toml"
        ))
    }

    /// `tables`: the melee table and the terrain chart (`present::nb_tables_view`).
    fn query(&self, name: &str, _arg: &str) -> Result<Value, engine::dynamic::QueryError> {
        match name {
            "tables" => Ok(present::nb_tables_view(&supplement())),
            _ => Err(engine::dynamic::QueryError::Unknown(name.to_string())),
        }
    }

    fn player(&self, spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String> {
        match spec.trim() {
            "random" => Ok(Box::new(
                crate::random::TypedRandom::<Game, NbPresenter>::new(seed),
            )),
            // the heuristic and the search (`search@1000n`, `search@1.5s`): `ai::nb`
            other => match ai::nb::player(other, seed) {
                Ok(p) => Ok(Box::new(Typed::<Game, NbPresenter, _>::new(p))),
                Err(_) => Err(format!(
                    "no computer player '{other}' for Napoleonic Battles (available: {}; \
                     search takes a budget: search@1000n, search@1.5s)",
                    PLAYERS.join(", ")
                )),
            },
        }
    }
}

impl TypedPlayer<Game> for ai::nb::NbPlayer {
    fn pick(&mut self, g: &Game) -> Option<napoleonic_battles::Action> {
        Some(self.choose(g))
    }

    fn name(&self) -> String {
        ai::nb::NbPlayer::name(self)
    }

    fn explain(&self) -> Option<String> {
        ai::nb::NbPlayer::explain(self)
    }

    fn stop_on(&mut self, flag: Arc<std::sync::atomic::AtomicBool>) {
        ai::nb::NbPlayer::stop_on(self, flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Library;
    use engine::ToAct;

    #[test]
    fn it_plays_the_battle_of_nations_components_only_when_asked() {
        let lib = Library::standard();
        let info = lib.scenario("bon-first-day").unwrap();
        assert_eq!(lib.rules_for(&info), vec!["naw", ID]);
        // the scenario's own system stays naw
        let g = lib.new_game("bon-first-day", None, 1).unwrap();
        assert_eq!(g.system(), "naw");
        let g = lib.new_game("bon-first-day", Some(ID), 1).unwrap();
        assert_eq!(g.system(), ID);
        assert_eq!(g.record().rules, napoleonic_battles::RULES_VERSION);
        assert_eq!(g.seats(), vec!["French".to_string(), "Allied".to_string()]);
    }

    #[test]
    fn the_digest_covers_the_scenario_and_the_supplement() {
        let lib = Library::standard();
        let naw_digest = lib.digest("bon-first-day", None).unwrap();
        let nb = lib.digest("bon-first-day", Some(ID)).unwrap();
        assert_ne!(naw_digest, nb);
        let sc = scenarios::load("bon-first-day").unwrap();
        let sup = Supplement::bon();
        assert_eq!(nb, digest(&sc, &sup));
        // another supplement (its text differs by a comment) gives another digest
        let other =
            Supplement::from_toml(&format!("{}\n# changed\n", Supplement::BON_TOML)).unwrap();
        assert_ne!(digest(&sc, &other), nb);
        let g = lib.new_game("bon-first-day", Some(ID), 3).unwrap();
        assert_eq!(g.record().scenario_digest, engine::hash_text(nb));
    }

    #[test]
    fn its_rules_reference_is_served_with_every_section_refusals_cite() {
        let r = NapoleonicBattles.reference().expect("the reference parses");
        let cases: Vec<&str> = r
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|c| c["case"].as_str())
            .collect();
        for c in [
            "NB Sequence of Play",
            "NB Movement",
            "NB Melee table",
            "NB77",
        ] {
            assert!(cases.contains(&c), "{c} missing");
        }
        // a refusal's case is an entry (the rules crate's test checks every one it cites)
        let lib = Library::standard();
        let mut g = lib.new_game("bon-first-day", Some(ID), 1).unwrap();
        let e = g.act("command FR.Murat FR.Macdonald").unwrap_err();
        assert!(cases.contains(&e.case), "{}", e.case);
        // and Napoleon at War's, through the same parser
        let naw = crate::Naw.reference().expect("naw's reference");
        assert!(naw.as_array().is_some_and(|a| a.len() > 100));
    }

    #[test]
    fn its_computer_players_are_offered() {
        // (ai::nb's levels since the computer players came: random, heuristic, search)
        assert_eq!(
            NapoleonicBattles.players(),
            vec!["random", "heuristic", "search"]
        );
        let e = NapoleonicBattles.player("expert", 1).err().unwrap();
        assert!(e.contains("available: random, heuristic, search"), "{e}");
        assert!(NapoleonicBattles.player("search@1s", 1).is_ok());
        let lib = Library::standard();
        let mut g = lib.new_game("bon-first-day", Some(ID), 5).unwrap();
        let mut p = NapoleonicBattles.player("random", 2).unwrap();
        for _ in 0..20 {
            match g.to_act() {
                ToAct::Side(_) => {
                    let a = p.choose(&*g);
                    g.act(&a).unwrap();
                }
                ToAct::Chance => {
                    g.roll().unwrap();
                }
                ToAct::Over(_) => break,
            }
        }
    }
}
