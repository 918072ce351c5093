//! Regenerates `crates/scenarios/maps/leipzig.toml` from the geography and override data files.
//!
//! ```text
//! cargo run -p scenarios --bin gen-leipzig-map               # rewrite maps/leipzig.toml
//! cargo run -p scenarios --bin gen-leipzig-map -- --check    # fail if it is out of date
//! cargo run -p scenarios --bin gen-leipzig-map -- --svg F    # also draw a review preview
//! ```
//!
//! The file is written atomically (`scenarios::mapgen::generator`).

fn main() -> std::process::ExitCode {
    scenarios::mapgen::generator::run(
        "gen-leipzig-map",
        "maps/leipzig.toml",
        scenarios::mapgen::leipzig_map_text,
        scenarios::mapgen::leipzig_preview_svg,
    )
}
