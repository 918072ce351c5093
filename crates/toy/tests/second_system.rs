//! A second rules system, registered from this test crate, plays through the machinery with no
//! change outside the registry: the library, the arena, the generic log and change, replay.

use engine::dynamic::{redact, DynGame};
use engine::{Side, ToAct, Viewer};

#[test]
fn scouts_play_to_the_end_in_the_arena_and_replay() {
    let lib = toy::library();
    let info = lib.scenario("toy-skirmish").unwrap();
    assert_eq!((info.system.as_str(), info.sides.len()), ("toy", 2));
    for seed in 0..20 {
        let mut g = lib.new_game("toy-skirmish", None, seed).unwrap();
        let sys = lib.system("toy").unwrap();
        let mut players = vec![
            sys.player("first", 1).unwrap(),
            Box::new(ai::AnyRandom::new(seed)) as Box<dyn engine::dynamic::DynPlayer>,
        ];
        let r = ai::play_any(g.as_mut(), &mut players, 10_000);
        assert!(r.outcome.is_some(), "seed {seed}: the game ends");
        assert_eq!(r.refused, 0);
        // replay reproduces the state exactly, through the registry
        let again = lib.resume(r.record.clone()).unwrap();
        assert_eq!(again.state_hash(), g.state_hash());
        // the generic log narrates every action, typed events included
        let log = present::log_of_game(again.as_ref());
        assert_eq!(log.len(), r.record.actions.len());
        assert!(log
            .iter()
            .flat_map(|e| &e.events)
            .any(|e| e["kind"] == "thrown" && e["case"] == "T.3"));
    }
}

#[test]
fn two_dice_summed_are_drawn_by_their_weights() {
    let lib = toy::library();
    let mut sevens = 0;
    let mut twos = 0;
    let mut n = 0;
    for seed in 0..400 {
        let mut g = lib.new_game("toy-skirmish", None, seed).unwrap();
        g.act("end").unwrap();
        let a = g.roll().unwrap();
        n += 1;
        match a.text.as_str() {
            "throw 7" => sevens += 1,
            "throw 2" => twos += 1,
            _ => {}
        }
    }
    // 7 is six times as likely as 2 (6/36 against 1/36)
    assert!(
        sevens > 3 * twos.max(1),
        "sevens {sevens}, twos {twos} of {n}"
    );
}

#[test]
fn each_seat_sees_only_its_own_scouts_and_actions() {
    let lib = toy::library();
    let mut g = lib.new_game("toy-skirmish", None, 3).unwrap();
    let acted = g.act("scout RED_SCOUT_ONE").unwrap();
    let red = g.view(Viewer::Seat(Side(0))).to_string();
    let blue = g.view(Viewer::Seat(Side(1))).to_string();
    let crowd = g.view(Viewer::Spectator).to_string();
    assert!(red.contains("RED_SCOUT_ONE") && !red.contains("BLUE_SCOUT"));
    assert!(blue.contains("BLUE_SCOUT_ONE") && !blue.contains("RED_SCOUT"));
    assert!(!crowd.contains("SCOUT_"), "{crowd}");
    // an action's text is withheld from those who may not see its seat; events hide nothing
    let seen_by_blue =
        serde_json::to_string(&redact(g.as_ref(), &acted, Viewer::Seat(Side(1)))).unwrap();
    assert!(!seen_by_blue.contains("RED_SCOUT"), "{seen_by_blue}");
    let seen_by_red = redact(g.as_ref(), &acted, Viewer::Seat(Side(0)));
    assert_eq!(seen_by_red.text, "scout RED_SCOUT_ONE");
}

#[test]
fn take_back_follows_the_systems_own_rule() {
    let lib = toy::library();
    let mut g = lib.new_game("toy-skirmish", None, 5).unwrap();
    g.act("scout RED_SCOUT_ONE").unwrap();
    g.act("scout RED_SCOUT_TWO").unwrap();
    assert_eq!(g.undoable(), 2);
    g.truncate(1);
    assert_eq!(g.record().actions.len(), 1);
    g.act("end").unwrap();
    assert!(matches!(g.to_act(), ToAct::Chance));
    assert_eq!(g.undoable(), 0);
    assert_eq!(g.undo_refusal().case, "T.2");
    // a refusal of the toy's rules cites the toy's case
    let mut g = lib.new_game("toy-skirmish", None, 5).unwrap();
    assert_eq!(g.act("scout BLUE_SCOUT_ONE").unwrap_err().case, "T.1");
}

#[test]
fn a_generic_change_carries_what_changed() {
    let lib = toy::library();
    let mut g = lib.new_game("toy-skirmish", None, 9).unwrap();
    let before = g.view(Viewer::Seat(Side(0)));
    let before_units = before["units"].as_array().unwrap().clone();
    let a = g.act("scout RED_SCOUT_TWO").unwrap();
    let log = vec![present::AnyLogEntry::of(&a, &g.seats())];
    let now = g.view(Viewer::Seat(Side(0)));
    let c = present::change_of(0, &before_units, None, &now, &log, true);
    assert_eq!(c["units"].as_array().unwrap().len(), 1);
    assert_eq!(c["units"][0]["id"], "RED_SCOUT_TWO");
    assert_eq!(c["log"][0]["action"], "scout RED_SCOUT_TWO");
}

#[test]
fn a_scenario_of_another_system_is_refused_by_rules_that_do_not_declare_its_components() {
    let lib = toy::library();
    let e = lib.new_game("bon-first-day", Some("toy"), 1).err().unwrap();
    assert!(
        e.to_string()
            .contains("cannot play scenario 'bon-first-day'"),
        "{e}"
    );
    let _ = DynGame::seats(
        lib.new_game("bon-first-day", Some("naw"), 1)
            .unwrap()
            .as_ref(),
    );
}

#[test]
fn spectators_see_what_the_scenario_allows() {
    let mut lib = toy::library();
    lib.add_scenario(
        "toy-open",
        &toy::SCENARIO
            .replace("toy-skirmish", "toy-open")
            .replace("spectators = \"after\"", "spectators = \"all\""),
    );
    let mut open = lib.new_game("toy-open", None, 1).unwrap();
    open.act("scout RED_SCOUT_ONE").unwrap();
    let crowd = open.view(Viewer::Spectator).to_string();
    assert!(crowd.contains("RED_SCOUT_ONE") && crowd.contains("BLUE_SCOUT_ONE"));
    // a seat still sees only its own
    let blue = open.view(Viewer::Seat(Side(1))).to_string();
    assert!(!blue.contains("RED_SCOUT"));
    // and in the shipped scenario, onlookers see nothing until the end
    let mut closed = lib.new_game("toy-skirmish", None, 1).unwrap();
    closed.act("scout RED_SCOUT_ONE").unwrap();
    assert!(!closed
        .view(Viewer::Spectator)
        .to_string()
        .contains("SCOUT_"));
}
