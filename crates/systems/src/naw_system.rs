//! Napoleon at War (`naw`) registered: its rules (`naw`), its views (`present`), its computer
//! players (`ai`).

use engine::dynamic::{
    DynGame, DynPlayer, Hosted, ScenarioInfo, ScenarioSource, System, SystemError,
};
use engine::{Record, Rules, Session};
use naw::{Game, Scenario};
use present::NawPresenter;
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The Napoleon at War rules system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Naw;

/// A hosted Napoleon at War game.
pub type NawGame = Hosted<Game, NawPresenter>;

fn build(src: &ScenarioSource) -> Result<Scenario, SystemError> {
    Scenario::from_toml(src.text, src.name, src.read)
        .map_err(|e| SystemError::Scenario(e.to_string()))
}

fn info(src: &ScenarioSource, sc: &Scenario) -> ScenarioInfo {
    ScenarioInfo {
        id: src.name.to_string(),
        title: sc.title.clone(),
        system: "naw".into(),
        components: sc.map.id.clone(),
        sides: sc.sides.to_vec(),
        units: sc.units.len(),
        first_turn: sc.first_turn.into(),
        last_turn: sc.last_turn.into(),
        description: sc.description.trim().to_string(),
    }
}

impl System for Naw {
    fn id(&self) -> &'static str {
        "naw"
    }

    fn name(&self) -> &'static str {
        "Napoleon at War"
    }

    fn rules_version(&self) -> &'static str {
        naw::RULES_VERSION
    }

    fn scenario(&self, src: &ScenarioSource) -> Result<(ScenarioInfo, u64), SystemError> {
        let sc = build(src)?;
        Ok((info(src, &sc), sc.digest))
    }

    fn map_view(&self, src: &ScenarioSource) -> Result<Value, SystemError> {
        let sc = build(src)?;
        Ok(serde_json::to_value(present::map_view(&sc.map)).unwrap_or_default())
    }

    fn new_game(&self, src: &ScenarioSource, seed: u64) -> Result<Box<dyn DynGame>, SystemError> {
        let sc = build(src)?;
        let digest = sc.digest;
        let s = Session::new(Game::new(sc), src.name, digest, seed);
        Ok(Box::new(NawGame::new("naw", s, Arc::new(NawPresenter))))
    }

    fn resume(
        &self,
        src: &ScenarioSource,
        record: Record,
    ) -> Result<Box<dyn DynGame>, SystemError> {
        let sc = build(src)?;
        let digest = sc.digest;
        let s = Session::resume(Game::new(sc), record, digest)?;
        Ok(Box::new(NawGame::new("naw", s, Arc::new(NawPresenter))))
    }

    fn players(&self) -> Vec<String> {
        ai::PLAYERS.iter().map(|s| s.to_string()).collect()
    }

    fn player(&self, spec: &str, seed: u64) -> Result<Box<dyn DynPlayer>, String> {
        Ok(Box::new(NawPlayer(ai::player(spec, seed)?)))
    }

    /// The rules reference of `crates/naw/rules-reference.toml`: every case of the standard
    /// and the exclusive rules in our words, then the charts (`TEC`, `CRT`), in rulebook
    /// order, as `[{"case","title","text"}]`.
    fn reference(&self) -> Option<Value> {
        crate::reference::parse(include_str!("../../naw/rules-reference.toml"))
    }

    /// `odds` of `attack,defence[,doubled]`: the Combat Results Table's column and the
    /// results' probabilities.
    fn query(&self, name: &str, arg: &str) -> Result<Value, engine::dynamic::QueryError> {
        use engine::dynamic::QueryError;
        match name {
            "odds" => present::odds_query(arg),
            "tables" => Ok(serde_json::to_value(present::tables_view()).unwrap_or_default()),
            _ => Err(QueryError::Unknown(name.to_string())),
        }
    }
}

/// A Napoleon at War computer player over the object-safe game.
struct NawPlayer(Box<dyn ai::Player>);

impl DynPlayer for NawPlayer {
    fn choose(&mut self, game: &dyn DynGame) -> String {
        match game.as_any().downcast_ref::<NawGame>() {
            Some(h) => {
                let g = &h.session.game;
                g.action_text(self.0.choose(g))
            }
            // not a Napoleon at War game: the first legal action keeps an arena going
            None => game
                .legal()
                .first()
                .map(|a| a.text.clone())
                .unwrap_or_default(),
        }
    }

    fn name(&self) -> String {
        self.0.name()
    }

    fn explain(&self) -> Option<String> {
        self.0.explain()
    }

    fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.0.stop_on(flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::ToAct;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    /// The stop flag reaches the search through the object-safe player: with an hour to think
    /// and the flag already set (its game abandoned), `choose` returns a legal action (the
    /// two-minute wait is a liveness bound, not a measure of speed).
    #[test]
    fn a_stopped_search_returns_through_the_dynamic_player() {
        let lib = crate::Library::standard();
        let mut g = lib.new_game("bon-first-day", None, 3).expect("a game");
        let mut h = Naw.player("heuristic", 1).expect("the heuristic");
        // to the first movement phase: a decision with many candidate plans
        let movement = |g: &dyn DynGame| {
            g.as_any()
                .downcast_ref::<NawGame>()
                .is_some_and(|n| n.session.game.step() == naw::Step::Movement)
        };
        while !(movement(&*g) && matches!(g.to_act(), ToAct::Side(_))) {
            match g.to_act() {
                ToAct::Chance => {
                    g.roll().expect("a die");
                }
                ToAct::Side(_) => {
                    let a = h.choose(&*g);
                    g.act(&a).expect("a legal action");
                }
                ToAct::Over(o) => panic!("the game ended: {o:?}"),
            }
        }
        let mut p = Naw.player("search@3599s", 2).expect("the search");
        let flag = Arc::new(AtomicBool::new(false));
        p.stop_on(flag.clone());
        flag.store(true, Ordering::Relaxed);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let a = p.choose(&*g);
            let _ = tx.send((g.act(&a).is_ok(), a));
        });
        let (legal, a) = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("a stopped search returns");
        assert!(legal, "a refused action: {a}");
    }
}
