//! The legend of a map: which terrain kinds fill its hexes and which features its hexsides
//! carry, with how each is named, written and drawn. The legend gives no kind any meaning for
//! play: a rules system looks the kinds up by id.

use serde::{Deserialize, Serialize};

/// The most terrain kinds a legend may hold (a hex stores its terrain in one byte).
pub const MAX_TERRAINS: usize = 256;

/// The most hexside features a legend may hold (a hexside stores its features in 32 bits).
pub const MAX_FEATURES: usize = 32;

/// One kind of hex terrain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainKind {
    /// Identifier, unique in the legend (`clear`): what rules systems look up.
    pub id: String,
    /// Name for people (`Clear`).
    pub name: String,
    /// The one-character code of the terrain rows of the map file.
    pub code: char,
    /// Fill colour: `#rgb`, `#rrggbb` or a CSS colour name.
    pub fill: String,
    /// A pattern drawn over the fill (`trees`, `hatching`, `tufts`, `buildings`; a renderer
    /// draws the fill alone for a pattern it does not know).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

/// How a hexside feature is laid on the map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeatureStyle {
    /// Along the hexside itself (a river, a border).
    #[default]
    Edge,
    /// Through the hexside from hex centre to hex centre (a road, a trail).
    Route,
    /// A short bar across the hexside's middle (a bridge, a pass).
    Crossing,
    /// Along the hexside with ticks across it (a slope, an escarpment).
    Hachured,
}

/// One kind of hexside feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureKind {
    /// Identifier, unique among the legend's features (`river`).
    pub id: String,
    /// Name for people (`River`).
    pub name: String,
    /// Stroke colour: `#rgb`, `#rrggbb` or a CSS colour name.
    pub stroke: String,
    /// Stroke width in hex widths (the distance between neighbouring hex centres).
    pub width: f64,
    /// Dash pattern in hex widths (`"0.12 0.07"`): lengths of dash and gap, repeated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dash: Option<String>,
    /// How it is laid ([`FeatureStyle::Edge`] when not given).
    #[serde(default, skip_serializing_if = "is_default_style")]
    pub style: FeatureStyle,
}

fn is_default_style(s: &FeatureStyle) -> bool {
    *s == FeatureStyle::Edge
}

// Widths are finite (validated), so equality is an equivalence.
impl Eq for FeatureKind {}

/// The terrain kinds and hexside features of a map, in order: a hex's terrain is an index
/// into `terrain`, and feature `i` of `features` is bit `i` of a [`crate::Hexside`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Legend {
    /// Terrain kinds; the first fills a new map.
    pub terrain: Vec<TerrainKind>,
    /// Hexside features, at most [`MAX_FEATURES`].
    #[serde(default)]
    pub features: Vec<FeatureKind>,
}

impl Default for Legend {
    fn default() -> Legend {
        Legend::standard()
    }
}

impl TerrainKind {
    /// A terrain kind from its parts (see the fields).
    pub fn new(id: &str, name: &str, code: char, fill: &str, pattern: Option<&str>) -> TerrainKind {
        TerrainKind {
            id: id.into(),
            name: name.into(),
            code,
            fill: fill.into(),
            pattern: pattern.map(String::from),
        }
    }
}

impl FeatureKind {
    /// A hexside feature kind from its parts (see the fields).
    pub fn new(
        id: &str,
        name: &str,
        stroke: &str,
        width: f64,
        dash: Option<&str>,
        style: FeatureStyle,
    ) -> FeatureKind {
        FeatureKind {
            id: id.into(),
            name: name.into(),
            stroke: stroke.into(),
            width,
            dash: dash.map(String::from),
            style,
        }
    }
}

fn terrain(id: &str, name: &str, code: char, fill: &str, pattern: Option<&str>) -> TerrainKind {
    TerrainKind::new(id, name, code, fill, pattern)
}

fn feature(
    id: &str,
    name: &str,
    stroke: &str,
    width: f64,
    dash: Option<&str>,
    style: FeatureStyle,
) -> FeatureKind {
    FeatureKind::new(id, name, stroke, width, dash, style)
}

impl Legend {
    /// The legend of a map file that has none: the kinds of the Napoleon at War maps, in the
    /// order of [`crate::Terrain`]'s and [`crate::Hexside`]'s named constants. Codes
    /// `. f r m t`; features `road trail river stream bridge slope`.
    pub fn standard() -> Legend {
        use FeatureStyle::*;
        Legend {
            terrain: vec![
                terrain("clear", "Clear", '.', "#F4EFD9", None),
                terrain("forest", "Forest", 'f', "#9FD3B5", Some("trees")),
                terrain("rough", "Rough", 'r', "#E2CCA3", Some("hatching")),
                terrain("marsh", "Marsh", 'm', "#CBE6EE", Some("tufts")),
                terrain("town", "Town", 't', "#E9D6CF", Some("buildings")),
            ],
            features: vec![
                feature("road", "Road", "#9C5A1A", 0.1, None, Route),
                feature("trail", "Trail", "#9C5A1A", 0.055, Some("0.12 0.07"), Route),
                feature("river", "River", "#0072B2", 0.15, None, Edge),
                feature("stream", "Stream", "#3A9AD9", 0.07, None, Edge),
                feature("bridge", "Bridge", "#1F1F1F", 0.19, None, Crossing),
                feature("slope", "Slope", "#6B4423", 0.035, None, Hachured),
            ],
        }
    }

    /// True for the [`Legend::standard`] legend (a map file with it needs no legend).
    pub fn is_standard(&self) -> bool {
        *self == Legend::standard()
    }

    /// The index of the terrain kind with this id.
    pub fn terrain_index(&self, id: &str) -> Option<crate::Terrain> {
        self.terrain
            .iter()
            .position(|t| t.id == id)
            .map(|i| crate::Terrain(i as u8))
    }

    /// The index of the terrain kind with this one-character code.
    pub fn terrain_of_code(&self, code: char) -> Option<crate::Terrain> {
        self.terrain
            .iter()
            .position(|t| t.code == code)
            .map(|i| crate::Terrain(i as u8))
    }

    /// The terrain kind of an index (`None` past the legend's end).
    pub fn terrain_kind(&self, t: crate::Terrain) -> Option<&TerrainKind> {
        self.terrain.get(t.0 as usize)
    }

    /// The bit of the feature with this id, if the legend has it.
    pub fn feature(&self, id: &str) -> Option<crate::Hexside> {
        self.features
            .iter()
            .position(|f| f.id == id)
            .map(crate::Hexside::bit)
    }

    /// The ids of the features in `s`, in legend order.
    pub fn feature_ids(&self, s: crate::Hexside) -> impl Iterator<Item = &str> + '_ {
        self.features
            .iter()
            .enumerate()
            .filter(move |(i, _)| s.has(crate::Hexside::bit(*i)))
            .map(|(_, f)| f.id.as_str())
    }

    /// The bits of every feature of the legend.
    pub fn all_features(&self) -> crate::Hexside {
        crate::Hexside(match self.features.len() {
            n if n >= 32 => u32::MAX,
            n => (1u32 << n) - 1,
        })
    }

    /// Checks the legend: at least one terrain, at most [`MAX_TERRAINS`] terrains and
    /// [`MAX_FEATURES`] features, ids well formed and not repeated, codes printable and not
    /// repeated, colours, widths and dashes well formed. The error is `(item, problem)`.
    pub fn check(&self) -> Result<(), (String, String)> {
        let e = |item: String, problem: String| Err((item, problem));
        if self.terrain.is_empty() {
            return e(
                "legend.terrain".into(),
                "at least one terrain is needed".into(),
            );
        }
        if self.terrain.len() > MAX_TERRAINS {
            return e(
                "legend.terrain".into(),
                format!("{} terrains; at most {MAX_TERRAINS}", self.terrain.len()),
            );
        }
        if self.features.len() > MAX_FEATURES {
            return e(
                "legend.features".into(),
                format!(
                    "{} features; a hexside holds at most {MAX_FEATURES}",
                    self.features.len()
                ),
            );
        }
        for (i, t) in self.terrain.iter().enumerate() {
            let item = format!("legend terrain '{}'", t.id);
            check_id(&t.id).or_else(|p| e(item.clone(), p))?;
            if self.terrain[..i].iter().any(|o| o.id == t.id) {
                return e(item, "the id is used twice".into());
            }
            if t.code.is_whitespace() || t.code.is_control() || t.code == '"' || t.code == '\\' {
                return e(
                    item,
                    format!("code {:?} is not a printable character", t.code),
                );
            }
            if let Some(o) = self.terrain[..i].iter().find(|o| o.code == t.code) {
                return e(
                    item,
                    format!("code '{}' is also the code of '{}'", t.code, o.id),
                );
            }
            check_colour(&t.fill).or_else(|p| e(item.clone(), p))?;
            if let Some(p) = &t.pattern {
                check_id(p).or_else(|p| e(item.clone(), format!("pattern: {p}")))?;
            }
        }
        for (i, f) in self.features.iter().enumerate() {
            let item = format!("legend feature '{}'", f.id);
            check_id(&f.id).or_else(|p| e(item.clone(), p))?;
            if self.features[..i].iter().any(|o| o.id == f.id) {
                return e(item, "the id is used twice".into());
            }
            check_colour(&f.stroke).or_else(|p| e(item.clone(), p))?;
            if !(f.width.is_finite() && f.width > 0.0 && f.width <= 1.0) {
                return e(item, format!("width {} is not within (0, 1]", f.width));
            }
            if let Some(d) = &f.dash {
                let ok = !d.trim().is_empty()
                    && d.split([' ', ',']).filter(|s| !s.is_empty()).all(|s| {
                        s.parse::<f64>()
                            .is_ok_and(|v| v.is_finite() && (0.0..=10.0).contains(&v))
                    });
                if !ok {
                    return e(
                        item,
                        format!("dash '{d}' is not a list of lengths such as \"0.12 0.07\""),
                    );
                }
            }
        }
        Ok(())
    }
}

/// An id: lower-case letters, digits, `-` and `_`, starting with a letter, at most 32 long.
fn check_id(id: &str) -> Result<(), String> {
    let ok = id.len() <= 32
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{id}' is not an id (lower-case letters, digits, - and _, starting with a letter)"
        ))
    }
}

/// A colour: `#rgb`, `#rrggbb` or a name of letters.
fn check_colour(c: &str) -> Result<(), String> {
    let ok = match c.strip_prefix('#') {
        Some(hex) => {
            (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit())
        }
        None => !c.is_empty() && c.len() <= 32 && c.chars().all(|c| c.is_ascii_alphabetic()),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("'{c}' is not a colour (#rgb, #rrggbb or a name)"))
    }
}
