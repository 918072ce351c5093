//! Rewrites `maps/moeckern.toml` (the hex-miniatures table of Möckern, 16 October 1813) from
//! `data/moeckern-geography.toml`:
//!
//! ```text
//! cargo run -p scenarios --bin gen-moeckern-map                 # rewrite the map
//! cargo run -p scenarios --bin gen-moeckern-map -- --check      # fail if it is out of date
//! cargo run -p scenarios --bin gen-moeckern-map -- --svg F      # also draw a review preview
//! ```
//!
//! The file is written atomically (`scenarios::mapgen::generator`).

fn main() -> std::process::ExitCode {
    scenarios::mapgen::generator::run(
        "gen-moeckern-map",
        "maps/moeckern.toml",
        scenarios::mapgen::moeckern::map_text,
        scenarios::mapgen::moeckern::preview_svg,
    )
}
