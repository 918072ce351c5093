//! The architecture document's invariants (`docs/architecture.md`), checked on the source as
//! rust-analyzer's tidy tests do: the machinery above the rules names no rules crate.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Every line of the files under `paths` (relative to the workspace) that contains one of
/// `bad`, comment lines and unit-test modules (from `#[cfg(test)]` on) excepted.
fn offending(paths: &[&str], ext: &str, bad: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for p in paths {
        let p = root().join(p);
        let mut fs = Vec::new();
        if p.is_file() {
            fs.push(p);
        } else {
            assert!(p.is_dir(), "{} is gone: update this test", p.display());
            files(&p, ext, &mut fs);
        }
        for f in fs {
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("#[cfg(test)]") {
                    break;
                }
                if code.starts_with("//") || code.starts_with('#') || code.starts_with('*') {
                    continue;
                }
                if bad.iter().any(|b| line.contains(b)) {
                    found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn the_machinery_names_no_rules_crate() {
    let bad = offending(
        &[
            "crates/engine/src",
            "crates/server/src",
            "crates/present/src/generic.rs",
            "crates/ai/src/any.rs",
            "crates/ai/src/montecarlo.rs",
            "crates/ai/src/ladder.rs",
            "crates/ai/src/learn.rs",
            "crates/systems/src/typed.rs",
            "crates/grognard/src/lib.rs",
            "crates/grognard/src/core.rs",
            "crates/grognard/src/util.rs",
            "crates/grognard/src/play.rs",
        ],
        "rs",
        &[
            "naw::",
            "use naw",
            "toy::",
            "napoleonic_battles",
            "leipzig_1813",
            "hex_miniatures",
        ],
    );
    assert!(
        bad.is_empty(),
        "a generic part names a rules crate:\n{}",
        bad.join("\n")
    );
    let deps = offending(
        &["crates/engine/Cargo.toml", "crates/server/Cargo.toml"],
        "toml",
        &[
            "naw",
            "napoleonic-battles",
            "leipzig-1813",
            "hex-miniatures",
        ],
    );
    assert!(
        deps.is_empty(),
        "a generic crate depends on a rules crate:\n{}",
        deps.join("\n")
    );
}

#[test]
fn rules_crates_depend_on_no_front_end_or_player() {
    // a rules crate is asked by the server, the board, the CLI and the computer players; it
    // never reaches back into them
    let bad = offending(
        &[
            "crates/naw/Cargo.toml",
            "crates/napoleonic-battles/Cargo.toml",
            "crates/leipzig-1813/Cargo.toml",
            "crates/hex-miniatures/Cargo.toml",
        ],
        "toml",
        &[
            "present",
            "systems.workspace",
            "server",
            "ai.workspace",
            "grognard",
        ],
    );
    assert!(
        bad.is_empty(),
        "a rules crate depends on a front end or a player:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_engine_cites_no_rule_case() {
    // take-back limits and chance refusals come from the rules systems: 5.14, 5.17 and 4.0
    // are Napoleon at War's cases
    let bad = offending(
        &["crates/engine/src"],
        "rs",
        &["\"5.14\"", "\"4.0\"", "\"5.17\""],
    );
    assert!(
        bad.is_empty(),
        "the engine cites a rule case:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_generic_board_names_no_system() {
    // web/js is the generic board; Napoleon at War's panels live in web/systems/naw
    let bad = offending(
        &["web/js"],
        "js",
        &[
            "systems/naw",
            "systems/napoleonic-battles",
            "systems/leipzig-1813",
            "systems/hex-miniatures",
            "'7.11'",
            "'8.41'",
            "'7.12'",
        ],
    );
    assert!(
        bad.is_empty(),
        "the generic board knows a system:\n{}",
        bad.join("\n")
    );
}

#[test]
fn hexmap_holds_no_terrain_effects() {
    // terrain meanings belong to a rules crate; hexmap stores what its map's legend names
    let bad = offending(
        &["crates/hexmap/src"],
        "rs",
        &["is_unbridged_river", "doubles_defender", "blocks_sight"],
    );
    assert!(
        bad.is_empty(),
        "hexmap carries a game's chart:\n{}",
        bad.join("\n")
    );
}
