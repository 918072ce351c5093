//! The Napoleonic Battles activation system through the registry (issue 14): a game of each
//! Battle of Nations scenario under `--rules napoleonic-battles` is created, played by random
//! players to its end, and resumed from its record with the same state hash.

use engine::dynamic::DynGame;
use engine::ToAct;
use systems::{Library, NapoleonicBattles};

const RULES: &str = "napoleonic-battles";
const SCENARIOS: [&str; 3] = ["bon-first-day", "bon-third-day", "bon-grand-battle"];

/// Plays a game to its end with the system's random players; returns the number of actions.
fn play_to_the_end(lib: &Library, g: &mut dyn DynGame, seed: u64) -> usize {
    let sys = lib.system(RULES).unwrap();
    let mut players = vec![
        sys.player("random", seed).unwrap(),
        sys.player("random", seed + 1).unwrap(),
    ];
    let r = ai::play_any(g, &mut players, 200_000);
    assert_eq!(r.refused, 0, "the random player chose a refused action");
    assert!(
        r.outcome.is_some(),
        "the game did not end in 200000 actions"
    );
    r.record.actions.len()
}

#[test]
fn every_battle_of_nations_scenario_plays_to_its_end_and_resumes_from_its_record() {
    let lib = Library::standard();
    for (i, id) in SCENARIOS.iter().enumerate() {
        let info = lib.scenario(id).unwrap();
        assert_eq!(
            info.system, "naw",
            "{id} is a Napoleon at War scenario file"
        );
        assert!(
            lib.rules_for(&info).contains(&RULES),
            "{id} is playable under {RULES}"
        );
        let mut g = lib.new_game(id, Some(RULES), 100 + i as u64).unwrap();
        assert_eq!(g.system(), RULES);
        assert_eq!(g.record().rules, napoleonic_battles::RULES_VERSION);
        assert_eq!(g.record().scenario, *id);
        assert_eq!(
            g.record().scenario_digest,
            engine::hash_text(lib.digest(id, Some(RULES)).unwrap())
        );
        let n = play_to_the_end(&lib, g.as_mut(), 7 + i as u64);
        assert!(matches!(g.to_act(), ToAct::Over(_)));
        let hash = g.state_hash();
        // the record, through its JSON text, resumes to the same state
        let text = g.record().to_json();
        let record = engine::Record::from_json(&text).unwrap();
        assert_eq!(record.actions.len(), n);
        let again = lib.resume(record).unwrap();
        assert_eq!(again.system(), RULES);
        assert_eq!(again.state_hash(), hash, "{id}: the resumed game differs");
        assert!(matches!(again.to_act(), ToAct::Over(_)));
        // and so does any prefix of it, to the same state as the game had then
        let mut cut = g.record().clone();
        cut.actions.truncate(n / 2);
        let half = lib.resume(cut.clone()).unwrap();
        let mut replayed = lib.new_game(id, Some(RULES), 100 + i as u64).unwrap();
        for r in &cut.actions {
            // a chance outcome by its text (as a physical die would give it)
            replayed.act(&r.text).unwrap();
        }
        assert_eq!(half.state_hash(), replayed.state_hash(), "{id}: half way");
    }
}

#[test]
fn a_record_of_another_supplement_or_system_does_not_resume() {
    let lib = Library::standard();
    let mut g = lib.new_game("bon-first-day", Some(RULES), 3).unwrap();
    let mut p = lib.system(RULES).unwrap().player("random", 1).unwrap();
    for _ in 0..30 {
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
    // the scenario digest names the supplement too: Napoleon at War's digest is refused
    let mut rec = g.record().clone();
    rec.scenario_digest = engine::hash_text(lib.digest("bon-first-day", None).unwrap());
    let e = lib.resume(rec).err().expect("refused");
    assert!(e.to_string().contains("digest"), "{e}");
    // a Napoleon at War record does not resume under this system
    let naw = lib.new_game("bon-first-day", None, 3).unwrap();
    assert_eq!(naw.record().rules, "naw/1");
    assert_eq!(lib.resume(naw.record().clone()).unwrap().system(), "naw");
}

#[test]
fn the_system_is_registered_once_with_its_components() {
    use engine::dynamic::System;
    let lib = Library::standard();
    let sys = lib.system(RULES).unwrap();
    assert_eq!(sys.name(), "Napoleonic Battles");
    assert_eq!(sys.components(), NapoleonicBattles.components());
    assert_eq!(sys.components(), &["leipzig"]);
    assert_eq!(sys.rules_version(), napoleonic_battles::RULES_VERSION);
    // (the systems registered after it: Leipzig 1813, the hex-miniatures rules)
    assert_eq!(
        lib.registry().ids()[..2],
        ["naw", RULES],
        "the registry lists both systems first"
    );
}
