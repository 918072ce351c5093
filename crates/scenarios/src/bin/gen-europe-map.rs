//! Regenerates `crates/scenarios/maps/central-europe.toml`, the strategic game's map of 1813,
//! from `data/central-europe-geography.toml` (`docs/central-europe-map.md`).
//!
//! ```text
//! cargo run -p scenarios --bin gen-europe-map               # rewrite maps/central-europe.toml
//! cargo run -p scenarios --bin gen-europe-map -- --check    # fail if it is out of date
//! cargo run -p scenarios --bin gen-europe-map -- --svg F    # also draw a review preview
//! ```
//!
//! The file is written atomically: to a temporary file beside it, then renamed over it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

fn main() -> ExitCode {
    let mut check = false;
    let mut svg: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--check" => check = true,
            "--svg" => match args.next() {
                Some(p) => svg = Some(PathBuf::from(p)),
                None => {
                    eprintln!("gen-europe-map: --svg needs a file name");
                    return ExitCode::from(2);
                }
            },
            _ => {
                eprintln!("usage: gen-europe-map [--check] [--svg FILE]");
                return ExitCode::from(2);
            }
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/central-europe.toml");
    let text = scenarios::mapgen::europe::map_text();
    if let Some(p) = svg {
        if let Err(e) = std::fs::write(&p, scenarios::mapgen::europe::preview_svg()) {
            eprintln!("gen-europe-map: {}: {e}", p.display());
            return ExitCode::FAILURE;
        }
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if check {
        if old == text {
            println!("{} is up to date", path.display());
            return ExitCode::SUCCESS;
        }
        eprintln!("{} is out of date: run gen-europe-map", path.display());
        return ExitCode::FAILURE;
    }
    if old == text {
        println!("{} unchanged", path.display());
        return ExitCode::SUCCESS;
    }
    match write_atomically(&path, &text) {
        Ok(()) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen-europe-map: {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
