//! Malformed input never panics: action texts, arbitrary action values, scenario files.

mod common;
use common::*;
use engine::Rules;
use naw::{Action, Column, Game, Scenario, UnitId, UnitSet};
use proptest::prelude::*;

fn game() -> Game {
    Build::new(8, 8)
        .road(&["0801", "0701", "0601"])
        .unit("B.1 inf 6-4 0303")
        .unit("B.2 art 3-4 0203")
        .unit("R.1 inf 4-4 0404")
        .unit("R.2 cav 3-6 @2:0801:south")
        .game()
}

fn games_in_every_step() -> Vec<Game> {
    let mut out = vec![game()];
    let mut g = game();
    play_random(&mut g, 3, 400, |g, _| out.push(g.clone()));
    out
}

fn arb_action() -> impl Strategy<Value = Action> {
    let unit = any::<u8>().prop_map(UnitId);
    let hex = (any::<i8>(), any::<i8>()).prop_map(|(x, y)| hexmap::Hex::new(x as i16, y as i16));
    prop_oneof![
        (unit.clone(), hex.clone()).prop_map(|(unit, to)| Action::Move { unit, to }),
        Just(Action::End),
        (unit.clone(), unit.clone()).prop_map(|(unit, target)| Action::Attack { unit, target }),
        (unit.clone(), proptest::option::of(0u8..12)).prop_map(|(target, c)| Action::Resolve {
            target,
            column: c.map(Column)
        }),
        any::<u8>().prop_map(Action::Roll),
        proptest::collection::vec(any::<u8>(), 0..5).prop_map(|v| Action::Lose {
            units: UnitSet::of(v.into_iter().map(UnitId))
        }),
        (unit.clone(), hex.clone()).prop_map(|(unit, to)| Action::Retreat { unit, to }),
        unit.clone().prop_map(|unit| Action::Stand { unit }),
        (unit, hex).prop_map(|(unit, to)| Action::Advance { unit, to }),
        Just(Action::Hold),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn action_text_never_panics(text in "\\PC{0,40}", words in proptest::collection::vec("(move|attack|resolve|roll|lose|retreat|advance|stand|hold|end|at|B\\.1|R\\.1|B\\.2|0303|0404|9999|3-1|7|,|x)", 0..6)) {
        let games = games_in_every_step();
        for g in games.iter().step_by(37) {
            for t in [text.clone(), words.join(" ")] {
                if let Ok(a) = g.parse_action(&t) {
                    let mut g2 = g.clone();
                    if g2.check(a).is_ok() {
                        g2.apply_unchecked(a);
                    }
                }
            }
        }
    }

    #[test]
    fn arbitrary_actions_are_checked_without_panic(actions in proptest::collection::vec(arb_action(), 1..20)) {
        let games = games_in_every_step();
        for g in games.iter().step_by(23) {
            let mut g = g.clone();
            for &a in &actions {
                if let Err(e) = g.check(a) {
                    prop_assert!(!e.case.is_empty() && !e.why.is_empty());
                } else {
                    g.apply_unchecked(a);
                }
            }
        }
    }

    #[test]
    fn mutated_scenario_files_give_errors_not_panics(cut in 0usize..2000, junk in "\\PC{0,12}") {
        let b = Build::new(6, 6).unit("B.1 inf 6-4 0303").unit("R.1 inf 4-4 @2:0601:south");
        let text = toml::to_string(&b.file()).unwrap();
        let map = b.map.to_toml();
        let cut = cut.min(text.len());
        let mut bad = text.clone();
        if bad.is_char_boundary(cut) {
            bad.insert_str(cut, &junk);
        }
        let _ = Scenario::from_toml(&bad, "bad.toml", &|_| Ok(map.clone()));
        let truncated: String = text.chars().take(cut).collect();
        let _ = Scenario::from_toml(&truncated, "bad.toml", &|_| Ok(map.clone()));
        let _ = Scenario::from_toml(&text, "bad.toml", &|_| Ok(junk.clone()));
    }
}

#[test]
fn corrupted_scenarios_are_rejected_naming_the_problem() {
    let b = Build::new(6, 6)
        .terrain("0303", hexmap::Terrain::Marsh)
        .unit("B.1 inf 6-4 0303")
        .unit("B.2 inf 6-4 0404")
        .unit("R.1 inf 4-4 0404")
        .unit("R.2 inf 4-4 @2:0303:south");
    let err = b
        .file()
        .validate("bad.toml", b.map.clone(), 0)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bad.toml: unit B.1") && err.contains("marsh"),
        "{err}"
    );
    assert!(
        err.contains("unit R.1") && err.contains("already holds B.2"),
        "{err}"
    );
    assert!(
        err.contains("unit R.2") && err.contains("not on the South map edge"),
        "{err}"
    );
    assert!(err.contains("not a road hex"), "{err}");
}
