//! The command line's core over a library with a second rules system (the toy *Scouts*): a
//! game is started, played, taken back, shown and verified through the same functions the
//! binary's commands call, with no change for the system.

use grognard::core;
use grognard::util::Refused;
use tempfile::TempDir;

#[test]
fn a_toy_game_through_the_core() {
    let lib = toy::library();
    let dir = TempDir::new().unwrap();
    let g = dir.path().join("toy.json");
    let out = core::new_with(&lib, "toy-skirmish", Some(5), None, Some(&g), false).unwrap();
    assert!(out.contains("New game of Scouts: a skirmish"), "{out}");
    assert!(out.contains("Red to act"), "{out}");
    // an existing record is not replaced without force
    let e = core::new_with(&lib, "toy-skirmish", Some(5), None, Some(&g), false).unwrap_err();
    assert!(e.to_string().contains("already exists"), "{e}");

    // a refused action: its case, nothing written
    let before = std::fs::read(&g).unwrap();
    let e = core::act_with(&lib, &g, &["fly".into()], &[]).unwrap_err();
    assert!(e.downcast_ref::<Refused>().is_some(), "{e}");
    assert_eq!(std::fs::read(&g).unwrap(), before);

    // a scout, taken back, then again and the turn's end: the dice are thrown by the seed
    let out = core::act_with(&lib, &g, &["scout RED_SCOUT_ONE".into()], &[]).unwrap();
    assert!(out.contains("[T.1]"), "{out}");
    let out = core::undo_with(&lib, &g).unwrap();
    assert!(out.contains("took back: scout RED_SCOUT_ONE"), "{out}");
    let out = core::act_with(&lib, &g, &["scout RED_SCOUT_ONE".into(), "end".into()], &[]).unwrap();
    assert!(out.contains("(seeded dice)"), "{out}");
    assert!(out.contains("[T.3]"), "{out}");
    assert!(out.contains("Blue to act"), "{out}");

    // a physical die that this system does not know (`roll N`) is refused; nothing written
    let before = std::fs::read(&g).unwrap();
    let e = core::act_with(&lib, &g, &["end".into()], &[4]).unwrap_err();
    assert!(e.downcast_ref::<Refused>().is_some(), "{e}");
    assert_eq!(std::fs::read(&g).unwrap(), before);

    // show: no text query, so the JSON state view (as --json)
    let shown = core::show_with(&lib, &g, true, None).unwrap();
    let v: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(v["system"], "toy");
    assert_eq!(v["to_act"], "Blue");
    assert_eq!(v["legal"][0], "scout BLUE_SCOUT_ONE");
    assert_eq!(core::show_with(&lib, &g, false, None).unwrap(), shown);
    // the toy draws no text map
    assert!(core::show_with(&lib, &g, false, Some("0101")).is_err());

    // a die has been thrown: nothing to take back (the toy's own case)
    let before = std::fs::read(&g).unwrap();
    let e = core::undo_with(&lib, &g).unwrap_err();
    let r = e.downcast_ref::<Refused>().expect("a refusal");
    assert_eq!(r.refusal.case, "T.2");
    assert_eq!(std::fs::read(&g).unwrap(), before);

    // replay and verify
    let out = core::replay_with(&lib, &g, true, None).unwrap();
    assert!(out.starts_with("OK: 3 of 3 actions"), "{out}");
    let out = core::replay_with(&lib, &g, false, None).unwrap();
    assert!(out.contains("   1. Red: scout RED_SCOUT_ONE"), "{out}");
    assert!(out.contains("   3. die: throw"), "{out}");
    let out = core::replay_with(&lib, &g, false, Some(1)).unwrap();
    assert!(out.contains("\"actions_recorded\": 1"), "{out}");

    // an altered record is refused
    let mut r: serde_json::Value = serde_json::from_slice(&before).unwrap();
    r["actions"][0]["do"] = "scout RED_SCOUT_TWO".into();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    let e = core::replay_with(&lib, &bad, true, None).unwrap_err();
    assert!(e.to_string().contains("action 1"), "{e}");

    // the Napoleon at War library does not know the toy's rules
    let e = core::show_with(&systems::Library::standard(), &g, false, None).unwrap_err();
    assert!(e.to_string().contains("rules 'toy/1'"), "{e}");
}

#[test]
fn the_toy_arena_reports_wins_per_seat() {
    let lib = toy::library();
    let r = core::sim_any(&lib, "toy-skirmish", 4, &["first", "first"], 9).unwrap();
    assert_eq!(r.system, "toy");
    let total: usize = ["Red", "Blue", "draw", "unfinished"]
        .iter()
        .map(|k| r.results[*k].count)
        .sum();
    assert_eq!(total, 4);
    assert_eq!(r.results["unfinished"].count, 0);
    let text = core::sim_any_text(&r, &["Red".into(), "Blue".into()]);
    assert!(text.contains("Red wins"), "{text}");
    assert!(core::sim_any(&lib, "toy-skirmish", 1, &["first"], 9).is_err());
}

#[test]
fn the_generic_arena_reports_game_turns_and_the_systems_figures() {
    // a system that gives no facts (the toy): no game-turns, no figures
    let toy = core::sim_any(&toy::library(), "toy-skirmish", 2, &["first", "first"], 9).unwrap();
    assert_eq!(toy.mean_turns, None);
    assert!(toy.figures.is_empty());
    assert!(!core::sim_any_text(&toy, &toy.sides).contains("game-turns"));
    // the activation system gives the last game-turn and each side's losses
    let lib = systems::Library::standard();
    let r = core::sim_any_rules(
        &lib,
        "bon-first-day",
        Some("napoleonic-battles"),
        2,
        &["heuristic", "heuristic"],
        1,
    )
    .unwrap();
    assert_eq!(r.mean_turns, Some(5.0), "the First Day runs its five turns");
    assert_eq!(r.turns_range, Some([5, 5]));
    let names: Vec<&str> = r.figures.iter().map(|f| f.0.as_str()).collect();
    for name in [
        "French SP lost",
        "Allied SP lost",
        "French formations demoralized",
        "Allied army disintegrated",
    ] {
        assert!(names.contains(&name), "{names:?}");
    }
    assert!(r.figures.iter().any(|f| f.1 > 0.0), "{:?}", r.figures);
    let text = core::sim_any_text(&r, &r.sides);
    assert!(
        text.contains("game-turns: 5.0 on average (shortest 5, longest 5)"),
        "{text}"
    );
    assert!(text.contains("French SP lost: "), "{text}");
}
