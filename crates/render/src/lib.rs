//! Draws a hex map and its counters as SVG, north up, in the manner of a printed wargame map,
//! and rasterises SVG to PNG.
//!
//! The drawing follows the geometry of [`hexmap`]: rows `XX` are horizontal lines of pointy-top
//! hexes running from north (top) to south, `YY = 01` is the east (right) edge, and even rows are
//! shifted half a hex west. Hex terrain fills each hex; rivers, streams, bridges and slopes are
//! drawn on the exact hexside between two hexes; roads and trails join the centres of the hexes a
//! road or trail hexside connects.
//!
//! ```
//! use hexmap::{Dir, Hex, Hexside, Map, Terrain};
//! use render::{nation_colours, Counter, Options, UnitKind};
//!
//! let mut map = Map::new("demo", 5, 6);
//! map.set_terrain(Hex::new(3, 3), Terrain::Town);
//! map.add_hexside(Hex::new(2, 2), Dir::SW, Hexside::RIVER);
//! let (fill, text) = nation_colours("FR");
//! let counters = vec![Counter {
//!     hex: Hex::new(3, 3),
//!     id: "FR.4".into(),
//!     designation: "4".into(),
//!     kind: UnitKind::Infantry,
//!     strength: 8,
//!     movement: 4,
//!     fill,
//!     text,
//! }];
//! let svg = render::svg(&map, &counters, &Options::default());
//! assert!(svg.starts_with("<svg"));
//! let png = render::png(&svg, 400).unwrap();
//! assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
//! ```

#![warn(missing_docs)]

mod draw;
mod palette;
mod raster;

pub use draw::svg;
pub use palette::{nation_colours, nation_name};
pub use raster::{png, RenderError};

use hexmap::Hex;
use serde::{Deserialize, Serialize};

/// The arm of a unit, shown by the NATO symbol in the middle of its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// Infantry: a box crossed by both diagonals.
    Infantry,
    /// Cavalry: a box crossed by one diagonal.
    Cavalry,
    /// Artillery: a box with a dot in the middle.
    Artillery,
}

impl UnitKind {
    /// Lower-case name (`infantry`, `cavalry`, `artillery`), as in scenario files.
    pub const fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Artillery => "artillery",
        }
    }
}

/// A unit counter to draw in a hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counter {
    /// The hex the counter stands in.
    pub hex: Hex,
    /// Unit id (`FR.4`), shown in the counter's tooltip. The part before the first `.` is taken
    /// as the nation id for the legend.
    pub id: String,
    /// Designation printed at the top of the counter (`4`, `II/Victor`).
    pub designation: String,
    /// The arm of the unit.
    pub kind: UnitKind,
    /// Combat strength, printed bottom left of the dash.
    pub strength: u16,
    /// Movement allowance, printed bottom right of the dash.
    pub movement: u16,
    /// Counter colour, any CSS colour (see [`nation_colours`]).
    pub fill: String,
    /// Colour of the counter's text and symbol, any CSS colour.
    pub text: String,
}

/// What to draw besides terrain and counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Print the `XXYY` number at the top of every hex.
    pub hex_numbers: bool,
    /// Print the map's place names.
    pub place_names: bool,
    /// The title above the map; `None` uses the map's own title.
    pub title: Option<String>,
    /// Hexes to tint and outline, each with a CSS colour (moves, attacks, a selection).
    pub highlight: Vec<(Hex, String)>,
    /// Pixels per hex, centre to centre along a row (default 36). Values that are not finite
    /// and positive fall back to the default.
    pub scale: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hex_numbers: true,
            place_names: true,
            title: None,
            highlight: Vec::new(),
            scale: DEFAULT_SCALE,
        }
    }
}

/// The default [`Options::scale`]: pixels from one hex centre to the next along a row.
pub const DEFAULT_SCALE: f64 = 36.0;
