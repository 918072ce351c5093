//! The registry of rules systems: the one place that maps a scenario file's `system` (and a
//! record's `rules`) to a rules crate with its presentation and computer players.
//!
//! Front ends (the server, the CLI's core, the arena) hold a [`Library`]: the registered
//! systems and the scenarios they can open. They reach every game through
//! [`engine::dynamic::DynGame`] and never name a rules crate. Adding a rules system is one
//! `register` line in [`registry`] (or, in a test, on a `Library` of its own).
//!
//! ```
//! let lib = systems::Library::standard();
//! let info = lib.scenario("bon-first-day").unwrap();
//! assert_eq!(info.system, "naw");
//! let mut g = lib.new_game("bon-first-day", None, 7).unwrap();
//! assert_eq!(g.seats(), vec!["French".to_string(), "Allied".to_string()]);
//! g.act("end").unwrap();
//! ```

#![warn(missing_docs)]

mod hm_system;
mod l1813_system;
mod naw_system;
mod nb_system;
mod random;
mod reference;
mod typed;

pub use hm_system::HexMiniatures;
pub use l1813_system::{L1813Game, Leipzig1813};
pub use naw_system::Naw;
pub use nb_system::{NapoleonicBattles, NbGame};

use engine::dynamic::{DynGame, Registry, ScenarioInfo, ScenarioSource, System, SystemError};
use engine::Record;
use serde_json::Value;
use std::sync::Arc;

/// Every rules system this program plays: Napoleon at War (`naw`), the Napoleonic Battles
/// activation system (`napoleonic-battles`) on the Battle of Nations components, Leipzig
/// 1813, the strategic game (`leipzig-1813`), and the hex-miniatures rules (`hex-miniatures`).
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.register(Arc::new(Naw));
    r.register(Arc::new(NapoleonicBattles));
    r.register(Arc::new(Leipzig1813));
    r.register(Arc::new(HexMiniatures));
    r
}

/// The registered systems and the scenarios they open: shipped ones (embedded), extra ones
/// added by id, and scenario files by path.
#[derive(Clone)]
pub struct Library {
    registry: Registry,
    extra: Vec<(String, String)>,
}

impl Library {
    /// The standard library: [`registry`] and the shipped scenarios.
    pub fn standard() -> Library {
        Library::new(registry())
    }

    /// A library over a registry of one's own (tests register systems of their own).
    pub fn new(registry: Registry) -> Library {
        Library {
            registry,
            extra: Vec::new(),
        }
    }

    /// Adds a scenario by id and text, as if it were shipped.
    pub fn add_scenario(&mut self, id: &str, text: &str) -> &mut Library {
        self.extra.retain(|(i, _)| i != id);
        self.extra.push((id.to_string(), text.to_string()));
        self
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The ids of the scenarios it ships (embedded and added), in order.
    pub fn scenario_ids(&self) -> Vec<String> {
        scenarios::SCENARIOS
            .iter()
            .map(|s| s.id.to_string())
            .chain(self.extra.iter().map(|(i, _)| i.clone()))
            .collect()
    }

    /// True when `spec` is a shipped (or added) scenario id rather than a path.
    pub fn ships(&self, spec: &str) -> bool {
        self.scenario_ids().iter().any(|i| i == spec)
    }

    fn source(&self, spec: &str) -> Result<scenarios::Source, SystemError> {
        if let Some((id, text)) = self.extra.iter().find(|(i, _)| i == spec) {
            return Ok(scenarios::Source {
                name: id.clone(),
                file: id.clone(),
                text: text.clone(),
                dir: None,
            });
        }
        scenarios::Source::find(spec).map_err(|e| SystemError::Scenario(e.to_string()))
    }

    fn with_source<T>(
        &self,
        spec: &str,
        rules: Option<&str>,
        f: impl FnOnce(&Arc<dyn System>, &ScenarioSource) -> Result<T, SystemError>,
    ) -> Result<T, SystemError> {
        let src = self.source(spec)?;
        let header = src.header().map_err(SystemError::Scenario)?;
        let info = ScenarioInfo {
            id: header.id,
            title: String::new(),
            system: header.system,
            components: header.components,
            sides: Vec::new(),
            units: 0,
            first_turn: 0,
            last_turn: 0,
            description: String::new(),
        };
        let system = self.registry.for_scenario(&info, rules)?;
        let read = |name: &str| src.read(name);
        let s = ScenarioSource {
            name: &src.name,
            text: &src.text,
            read: &read,
        };
        f(system, &s)
    }

    /// The facts of a scenario (by shipped id or path), as its own system reads it.
    pub fn scenario(&self, spec: &str) -> Result<ScenarioInfo, SystemError> {
        self.with_source(spec, None, |sys, src| sys.scenario(src).map(|x| x.0))
    }

    /// Every shipped scenario's facts, in order; one that fails to load is left out with its
    /// error.
    pub fn scenarios(&self) -> Vec<Result<ScenarioInfo, (String, SystemError)>> {
        self.scenario_ids()
            .into_iter()
            .map(|id| self.scenario(&id).map_err(|e| (id, e)))
            .collect()
    }

    /// The digest of a scenario as the system that would play it computes it.
    pub fn digest(&self, spec: &str, rules: Option<&str>) -> Result<u64, SystemError> {
        self.with_source(spec, rules, |sys, src| sys.scenario(src).map(|x| x.1))
    }

    /// The map view of a scenario (JSON).
    pub fn map_view(&self, spec: &str) -> Result<Value, SystemError> {
        self.with_source(spec, None, |sys, src| sys.map_view(src))
    }

    /// A new game of a scenario under its own system, or under `rules` where that system
    /// declares the scenario's components.
    pub fn new_game(
        &self,
        spec: &str,
        rules: Option<&str>,
        seed: u64,
    ) -> Result<Box<dyn DynGame>, SystemError> {
        self.with_source(spec, rules, |sys, src| sys.new_game(src, seed))
    }

    /// Resumes a recorded game under the system its `rules` names, verifying it.
    pub fn resume(&self, record: Record) -> Result<Box<dyn DynGame>, SystemError> {
        let system = self.registry.for_record(&record)?.clone();
        let spec = record.scenario.clone();
        let src = self.source(&spec)?;
        let read = |name: &str| src.read(name);
        let s = ScenarioSource {
            name: &src.name,
            text: &src.text,
            read: &read,
        };
        system.resume(&s, record)
    }

    /// The system of an id.
    pub fn system(&self, id: &str) -> Result<&Arc<dyn System>, SystemError> {
        self.registry.get(id)
    }

    /// The ids of the registered systems that can play a scenario: its own system first,
    /// then each that declares its components (chosen with `--rules` / `"rules"`), in the
    /// registry's order.
    pub fn rules_for(&self, info: &ScenarioInfo) -> Vec<&'static str> {
        let own = self
            .registry
            .systems()
            .iter()
            .filter(|s| s.id() == info.system);
        let others = self.registry.systems().iter().filter(|s| {
            s.id() != info.system && s.components().contains(&info.components.as_str())
        });
        own.chain(others).map(|s| s.id()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_scenario_names_a_registered_system() {
        let lib = Library::standard();
        for s in lib.scenarios() {
            let s = s.unwrap();
            assert!(lib.system(&s.system).is_ok(), "{}: {}", s.id, s.system);
        }
    }

    #[test]
    fn an_unknown_system_or_foreign_components_are_refused() {
        let lib = Library::standard();
        let e = lib
            .new_game("bon-first-day", Some("nosuch"), 1)
            .err()
            .unwrap();
        assert!(e.to_string().contains("no rules system 'nosuch'"), "{e}");
        let mut lib = Library::standard();
        lib.add_scenario(
            "odd",
            "format = \"grognard-scenario/1\"\nid = \"odd\"\nsystem = \"elsewhere\"\n",
        );
        let e = lib.scenario("odd").err().unwrap();
        assert!(e.to_string().contains("no rules system 'elsewhere'"), "{e}");
    }

    #[test]
    fn a_game_resumes_from_its_record_through_the_registry() {
        let lib = Library::standard();
        let mut g = lib.new_game("bon-first-day", None, 11).unwrap();
        g.act("end").unwrap();
        while g.roll().is_some() {}
        let rec = g.record().clone();
        let h = g.state_hash();
        let again = lib.resume(rec).unwrap();
        assert_eq!(again.state_hash(), h);
        assert_eq!(again.system(), "naw");
    }
}
