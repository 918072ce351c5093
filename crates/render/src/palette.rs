//! Colours: a palette built on Okabe and Ito's colour-blind-safe set. Terrains also differ by
//! pattern, so no information rests on hue alone.

/// Counter colours of a nation: `(fill, text)` as CSS colours, for the nation ids of the
/// scenarios (`FR`, `PR`, `AU`, `RU`, `SW`); any other id gets a neutral grey.
///
/// ```
/// assert_eq!(render::nation_colours("FR").0, "#0072B2");
/// assert_eq!(render::nation_colours("??"), render::nation_colours(""));
/// ```
pub fn nation_colours(nation_id: &str) -> (String, String) {
    let (fill, text) = match nation_id {
        // Okabe-Ito blue, white text (contrast 5.1:1)
        "FR" => ("#0072B2", "#FFFFFF"),
        // Prussian black-grey
        "PR" => ("#2B2B2B", "#FFFFFF"),
        // Austrian white, cream
        "AU" => ("#F3EBD3", "#1A1A1A"),
        // Okabe-Ito bluish green, darkened for white text (5.4:1)
        "RU" => ("#00775A", "#FFFFFF"),
        // Okabe-Ito yellow
        "SW" => ("#F0E442", "#1A1A1A"),
        _ => ("#BBBBBB", "#1A1A1A"),
    };
    (fill.to_string(), text.to_string())
}

/// The name of a nation id known to [`nation_colours`] (`FR` is `French`).
pub fn nation_name(nation_id: &str) -> Option<&'static str> {
    Some(match nation_id {
        "FR" => "French",
        "PR" => "Prussian",
        "AU" => "Austrian",
        "RU" => "Russian",
        "SW" => "Swedish",
        _ => return None,
    })
}

// Terrain fills and hexside strokes come from the map's legend (hexmap::Legend::standard
// holds the Napoleon at War colours); the marks of patterns and the slope-hex symbol are here.
pub(crate) const PAPER: &str = "#FBF8EE";
pub(crate) const FOREST_TREE: &str = "#00775A";
pub(crate) const ROUGH_HATCH: &str = "#8A6230";
pub(crate) const MARSH_TUFT: &str = "#1E7F8C";
pub(crate) const TOWN_BUILDING: &str = "#A8432A";
pub(crate) const HEX_LINE: &str = "#8E8A80";
pub(crate) const HEX_NUMBER: &str = "#5E5A52";
pub(crate) const SLOPE: &str = "#6B4423";
pub(crate) const INK: &str = "#1A1A1A";
