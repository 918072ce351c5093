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
