//! The command line every map generator binary shares (`gen-leipzig-map`, `gen-europe-map`, ...):
//! `[--check] [--svg FILE]`. It rewrites a committed map file from its generator, atomically (a
//! temporary file beside it, then renamed over it), or with `--check` fails if the committed
//! file is out of date; `--svg` also writes the generator's review drawing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Runs a generator binary named `name` over the process's arguments: `map` (relative to this
/// crate, e.g. `maps/leipzig.toml`) is rewritten from `text()`, and `--svg FILE` gets `svg()`.
pub fn run(name: &str, map: &str, text: fn() -> String, svg: fn() -> String) -> ExitCode {
    let mut check = false;
    let mut svg_path: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--check" => check = true,
            "--svg" => match args.next() {
                Some(p) => svg_path = Some(PathBuf::from(p)),
                None => {
                    eprintln!("{name}: --svg needs a file name");
                    return ExitCode::from(2);
                }
            },
            _ => {
                eprintln!("usage: {name} [--check] [--svg FILE]");
                return ExitCode::from(2);
            }
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(map);
    let text = text();
    if let Some(p) = svg_path {
        if let Err(e) = std::fs::write(&p, svg()) {
            eprintln!("{name}: {}: {e}", p.display());
            return ExitCode::FAILURE;
        }
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if check {
        if old == text {
            println!("{} is up to date", path.display());
            return ExitCode::SUCCESS;
        }
        eprintln!("{} is out of date: run {name}", path.display());
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
            eprintln!("{name}: {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
