//! The terminal game is the same for every rules system: whole games of the toy system
//! (Scouts, which has no `text` query, hidden units and two dice summed) played through
//! `play_lines`, hot-seat and against its `first` player, and the saved records replay
//! through the library.

#[allow(dead_code)]
use grognard::play;

use engine::{Record, ToAct};
use play::{play_lines, PlayArgs};
use std::path::Path;
use tempfile::TempDir;

fn args(save: &Path) -> PlayArgs {
    PlayArgs {
        text: true,
        port: None,
        database: None,
        scenario: Some("toy-skirmish".into()),
        seed: Some(5),
        vs: None,
        side: None,
        save: Some(save.to_path_buf()),
        resume: None,
    }
}

/// Plays `input` and returns what the game printed.
fn play(lib: &systems::Library, args: PlayArgs, input: &str) -> String {
    let mut out = Vec::new();
    play_lines(lib, args, input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The saved record replays through the library to a finished game.
fn replays_to_the_end(lib: &systems::Library, save: &Path) -> Record {
    let record = Record::from_json(&std::fs::read_to_string(save).unwrap()).unwrap();
    let g = lib.resume(record.clone()).unwrap();
    assert_eq!(g.system(), "toy");
    assert!(matches!(g.to_act(), ToAct::Over(_)), "{:?}", g.to_act());
    record
}

#[test]
fn a_hot_seat_game_of_another_system_plays_to_the_end() {
    let lib = toy::library();
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("toy.json");
    // the commands first (the generic renderings of a system without a text query), then
    // each turn: a scout of each seat (one of them refused: not the seat's own) and end
    let mut input = String::from(
        "help\nshow\nactions\nmoves RED_SCOUT_ONE\nmap 1\nodds\nodds 3 2\nundo\n\
         scout RED_SCOUT_ONE\nundo\nfly\n",
    );
    for _ in 0..8 {
        input.push_str("scout RED_SCOUT_ONE\nscout BLUE_SCOUT_ONE\nend\n");
    }
    let out = play(&lib, args(&save), &input);
    assert!(
        out.starts_with("Grognard: Scouts: a skirmish (seed 5)."),
        "{out}"
    );
    for expected in [
        "Actions: type one of the legal actions",
        "Commands:",
        "\"actions_recorded\": 0",
        "Legal actions (3):\n  scout RED_SCOUT_ONE\n  scout RED_SCOUT_TWO\n  end\n",
        "this rules system has no map",
        "this rules system has no combats",
        "this rules system has no odds",
        "refused: T.2: there is nothing to take back",
        "took back: scout RED_SCOUT_ONE",
        "refused: T.1: a seat moves only its own scouts (action 'scout BLUE_SCOUT_ONE')",
        "Red> scout RED_SCOUT_ONE\n  [T.1] Red moves a scout\n",
        "(seeded dice)\n  [T.3] the dice show",
        "Game over: the score is",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    // the prompt names the seat to act
    assert!(out.contains("Blue> "), "{out}");
    let record = replays_to_the_end(&lib, &save);
    assert_eq!(record.seed, 5);
    assert!(record
        .actions
        .iter()
        .any(|a| a.text == "scout BLUE_SCOUT_ONE"));
}

#[test]
fn a_game_against_a_computer_player_of_another_system() {
    let lib = toy::library();
    let dir = TempDir::new().unwrap();
    let save = dir.path().join("vs.json");
    let mut a = args(&save);
    a.vs = Some("first".into());
    a.side = Some("blue".into());
    let out = play(&lib, a, &"scout BLUE_SCOUT_TWO\nend\n".repeat(6));
    assert!(out.contains("The computer (first) plays Red."), "{out}");
    // Blue may not see which scout Red moved (T.5): the computer's action is hidden
    assert!(
        out.contains("Red (first): hidden\n  [T.1] Red moves a scout\n"),
        "{out}"
    );
    assert!(!out.contains("Red (first): scout"), "{out}");
    assert!(out.contains("Blue> scout BLUE_SCOUT_TWO"), "{out}");
    assert!(out.contains("Game over:"), "{out}");
    let record = replays_to_the_end(&lib, &save);
    // the computer played Red's scouts, the person Blue's
    assert!(record
        .actions
        .iter()
        .any(|a| a.text == "scout RED_SCOUT_ONE"));
    assert!(record
        .actions
        .iter()
        .any(|a| a.text == "scout BLUE_SCOUT_TWO"));

    // a saved game resumes and, finished, says so at once
    let mut a = args(&save);
    a.scenario = None;
    a.seed = None;
    a.resume = Some(save.clone());
    let out = play(&lib, a, "");
    assert!(out.contains("Game over:"), "{out}");

    // the sides are the system's seats
    let mut a = args(&dir.path().join("x.json"));
    a.vs = Some("first".into());
    a.side = Some("Green".into());
    let e = play_lines(&lib, a, "".as_bytes(), Vec::new()).unwrap_err();
    assert!(e.to_string().contains("the sides are Red and Blue"), "{e}");
    let mut a = args(&dir.path().join("y.json"));
    a.vs = Some("genius".into());
    let e = play_lines(&lib, a, "".as_bytes(), Vec::new()).unwrap_err();
    assert!(e.to_string().contains("unknown player 'genius'"), "{e}");
}
