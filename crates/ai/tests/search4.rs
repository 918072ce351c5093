//! The level `search4` (issue 13, `docs/ai.md` "search4"): its new candidate plans each take
//! the suite position they were made for, at a fixed budget and seed (so the same on any
//! machine), where `search3` with the same budget fails; and the heuristic alone, whose plans
//! `search4`'s styles vary, still fails them (its own style is unchanged).

use ai::suite::{self, POSITIONS};

fn map(name: &str) -> Option<String> {
    scenarios::map_text(name).map(str::to_string)
}

/// Plays one position with one level and seed; `Ok` when every check passes, else why not.
fn play(position: &str, level: &str, seed: u64) -> Result<(), String> {
    let p = POSITIONS
        .iter()
        .find(|p| p.id == position)
        .unwrap_or_else(|| panic!("no position {position}"));
    let g = p.game(&map)?;
    let mut player = ai::player(level, seed)?;
    let t = p.play(&g, player.as_mut(), seed)?;
    let failed: Vec<String> = p
        .judge(&t)
        .into_iter()
        .filter_map(|(c, r)| r.err().map(|e| format!("{}: {e}", c.describe())))
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}

/// `free-3-1`: the plans that converge on an isolated enemy (the style's `converge`) bring
/// AU.3 and AU.4 to opposite sides of FR.12 and attack it at 3-1, where every Dr kills (7.72).
#[test]
fn search4_takes_the_free_3_1() {
    for seed in [1, 2] {
        play("free-3-1", "search4@600n", seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(play("free-3-1", "search3@600n", 1).is_err());
    assert!(play("free-3-1", "heuristic", 1).is_err());
}

/// `ar-kill`: the plans that support a unit obliged to attack (the style's `support`, 7.1)
/// bring RU.10 to RU.8's target: 4-1, where no Ar is rolled, instead of 1-1 alone with no
/// retreat, where an Ar kills it (7.72).
#[test]
fn search4_supports_the_unit_obliged_to_attack() {
    for seed in [1, 2] {
        play("ar-kill", "search4@600n", seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(play("ar-kill", "search3@600n", 1).is_err());
    assert!(play("ar-kill", "heuristic", 1).is_err());
}

/// `entry-hex`: every plan of `search4` keeps Cröbern clear the turn before the Prussian Guard
/// enters there (15.0, 15.5 with `friendly_occupied_entry_ok = false`), with every seed the
/// suite plays.
#[test]
fn search4_keeps_the_entry_hex_clear() {
    for seed in 1..=5 {
        play("entry-hex", "search4@600n", seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    assert!(play("entry-hex", "heuristic", 1).is_err());
}

/// The whole suite with `search4` at a fixed budget and two seeds: every position passed.
#[test]
fn search4_passes_the_whole_suite() {
    let r = suite::run(&["search4@600n"], &[1, 2], &map).unwrap();
    let failed: Vec<String> = r
        .rows
        .iter()
        .filter(|row| !row.outcomes[0].passed)
        .map(|row| format!("{}: {:?}", row.id, row.outcomes[0].failed))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `search4` is a level of its own, listed before `search` (the server's default, last).
#[test]
fn search4_is_listed_before_the_default() {
    let i = ai::PLAYERS.iter().position(|&p| p == "search4").unwrap();
    assert_eq!(ai::PLAYERS.last(), Some(&"search"));
    assert!(i + 1 < ai::PLAYERS.len());
    assert!(ai::player("search4@100n", 1).is_ok());
    assert!(ai::thinks_by_the_clock("search4"));
    assert!(!ai::thinks_by_the_clock("search4@100n"));
    assert_eq!(
        ai::player("search4@100n", 1).unwrap().name(),
        "search4@100n"
    );
}

/// The last game-turn: FR.9 (8 SP) holds 2131, the end of the French line of communications
/// (17.5), and three Allied units (22 SP) can come next to it in the Allied player-turn that
/// follows: an attack at 2-1 drives FR.9 off two times in three (7.6) and an advance into 2131
/// (7.74) cuts every French unit off. FR.10, FR.11 and FR.12 are free to move.
const HOLD_LINE: &str = r#"
format = "grognard-scenario/1"
id = "test-hold-line"
title = "Test: the end of the line held by a weak unit"
system = "naw"
map = "leipzig"
first_turn = 5
last_turn = 5
night_turns = [6]
sides = ["French", "Allied"]
units = [
  { id = "FR.9", nation = "FR", designation = "9", type = "infantry", strength = 8, movement = 4, hex = "2131" },
  { id = "FR.10", nation = "FR", designation = "10", type = "infantry", strength = 7, movement = 4, hex = "1929" },
  { id = "FR.11", nation = "FR", designation = "11", type = "infantry", strength = 8, movement = 4, hex = "1928" },
  { id = "FR.12", nation = "FR", designation = "12", type = "infantry", strength = 8, movement = 4, hex = "1827" },
  { id = "AU.Cav", nation = "AU", designation = "Cav", type = "cavalry", strength = 6, movement = 6, hex = "2427" },
  { id = "AU.1", nation = "AU", designation = "1", type = "infantry", strength = 8, movement = 4, hex = "2327" },
  { id = "AU.2", nation = "AU", designation = "2", type = "infantry", strength = 8, movement = 4, hex = "2328" },
]

[hooks]
night_withdrawal = true

[[nations]]
id = "FR"
name = "French"
side = "French"

[[nations]]
id = "AU"
name = "Austrian"
side = "Allied"

[[demoralization]]
turns = [5, 5]
levels = { French = 60, Allied = 60 }

[line_of_communications]
side = "French"
army = "French"
hex = "2131"
"#;

/// The French movement phase of `text` (a scenario: [`HOLD_LINE`]) as the heuristic plays it in
/// `style`: where each French unit ends.
fn hold_line_plan(text: &str, style: ai::Style) -> Vec<(String, String)> {
    use engine::Rules;
    let resolve = |name: &str| map(name).ok_or_else(|| format!("no map {name}"));
    let sc = naw::Scenario::from_toml(text, "hold-line.toml", &resolve).unwrap();
    let mut g = naw::Game::new(sc);
    let mut p = ai::HeuristicPlayer::with_style(1, style);
    while g.step() == naw::Step::Movement && g.phasing() == engine::Side(0) {
        let a = ai::Player::choose(&mut p, &g);
        g.apply(a).unwrap();
    }
    g.units()
        .into_iter()
        .filter(|u| u.id.starts_with("FR"))
        .map(|u| {
            let h = g.hex_of(u.unit).map(|h| h.to_string()).unwrap_or_default();
            (u.id.clone(), h)
        })
        .collect()
}

/// `hold_line` (the styles of `search4`): on the last game-turn a friend comes next to the weak
/// holder of the line's end, so that fewer Allied units can attack it (7.74, 17.5); the
/// heuristic's own style leaves it alone.
#[test]
fn hold_line_stands_by_the_end_of_the_line() {
    let end: hexmap::Hex = "2131".parse().unwrap();
    let beside = |plan: &[(String, String)]| {
        plan.iter()
            .filter(|(id, h)| {
                id != "FR.9" && h.parse::<hexmap::Hex>().is_ok_and(|h| h.distance(end) == 1)
            })
            .count()
    };
    let held = hold_line_plan(
        HOLD_LINE,
        ai::Style {
            hold_line: true,
            ..ai::Style::default()
        },
    );
    let plain = hold_line_plan(HOLD_LINE, ai::Style::default());
    eprintln!("hold_line: {held:?}\nplain: {plain:?}");
    assert!(held.iter().any(|(id, h)| id == "FR.9" && h == "2131"));
    assert!(beside(&held) > beside(&plain), "{held:?} against {plain:?}");
}

/// `hold_line` when the holder of the line's end is in contact: FR.9 on 2131 must attack AU.1
/// (16 SP) on 2231 (7.1), alone at 1-2, where four faces in six are an `Ar` (7.6) that lets
/// AU.1 advance into 2131 (7.74) and cut every French unit off before the game ends (17.5):
/// the plan brings more French units next to AU.1 than the heuristic's own style does (which
/// sends them against the other Austrians).
#[test]
fn hold_line_supports_the_holder_obliged_to_attack() {
    let text = HOLD_LINE
        .replace(r#"hex = "2327" }"#, r#"hex = "2231" }"#)
        .replace(r#"hex = "1929""#, r#"hex = "2129""#)
        .replace(r#"hex = "1928""#, r#"hex = "2229""#)
        .replace(r#"hex = "1827""#, r#"hex = "2029""#)
        .replace(
            r#"strength = 8, movement = 4, hex = "2231""#,
            r#"strength = 16, movement = 4, hex = "2231""#,
        );
    assert!(text.contains(r#"strength = 16, movement = 4, hex = "2231""#));
    let foe: hexmap::Hex = "2231".parse().unwrap();
    let beside = |plan: &[(String, String)]| {
        plan.iter()
            .filter(|(_, h)| h.parse::<hexmap::Hex>().is_ok_and(|h| h.distance(foe) == 1))
            .count()
    };
    let held = hold_line_plan(
        &text,
        ai::Style {
            hold_line: true,
            ..ai::Style::default()
        },
    );
    let plain = hold_line_plan(&text, ai::Style::default());
    eprintln!("hold_line: {held:?}\nplain: {plain:?}");
    assert!(beside(&held) > beside(&plain), "{held:?} against {plain:?}");
}
