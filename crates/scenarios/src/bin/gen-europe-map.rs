//! Regenerates `crates/scenarios/maps/central-europe.toml`, the strategic game's map of 1813,
//! from `data/central-europe-geography.toml` (`docs/central-europe-map.md`).
//!
//! ```text
//! cargo run -p scenarios --bin gen-europe-map               # rewrite maps/central-europe.toml
//! cargo run -p scenarios --bin gen-europe-map -- --check    # fail if it is out of date
//! cargo run -p scenarios --bin gen-europe-map -- --svg F    # also draw a review preview
//! ```
//!
//! The file is written atomically (`scenarios::mapgen::generator`).

fn main() -> std::process::ExitCode {
    scenarios::mapgen::generator::run(
        "gen-europe-map",
        "maps/central-europe.toml",
        scenarios::mapgen::europe::map_text,
        scenarios::mapgen::europe::preview_svg,
    )
}
