//! SVG to PNG with resvg.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// Why an SVG could not be turned into a PNG.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The SVG text did not parse or has no usable size.
    #[error("SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// The requested width is zero, or the image would be too large to allocate.
    #[error("cannot make a {width} x {height} pixel image")]
    Size {
        /// Requested width in pixels.
        width: u32,
        /// Height in pixels that the SVG's aspect ratio gives.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("PNG encoding: {0}")]
    Encode(String),
}

/// The system fonts, loaded once per process.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        // Generic families resolve to fonts that are commonly installed on Linux.
        let faces: Vec<String> = db
            .faces()
            .flat_map(|f| f.families.iter().map(|(n, _)| n.clone()))
            .collect();
        let pick = |want: [&str; 3]| {
            want.iter()
                .find(|w| faces.iter().any(|f| f == *w))
                .map(|w| w.to_string())
        };
        if let Some(name) = pick(["DejaVu Sans", "Liberation Sans", "Noto Sans"]) {
            db.set_sans_serif_family(name);
        }
        if let Some(name) = pick(["DejaVu Serif", "Liberation Serif", "Noto Serif"]) {
            db.set_serif_family(name);
        }
        Arc::new(db)
    })
    .clone()
}

/// Rasterises SVG text to a PNG `width_px` pixels wide, keeping the SVG's aspect ratio.
///
/// Text uses the system fonts (loaded once per process); with no fonts installed, shapes still
/// render and text is left out.
///
/// ```
/// let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="red"/></svg>"#;
/// let png = render::png(svg, 100).unwrap();
/// assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
/// assert!(render::png("not svg", 100).is_err());
/// ```
pub fn png(svg: &str, width_px: u32) -> Result<Vec<u8>, RenderError> {
    rasterise(svg, width_px, fonts())
}

fn rasterise(
    svg: &str,
    width_px: u32,
    fontdb: Arc<usvg::fontdb::Database>,
) -> Result<Vec<u8>, RenderError> {
    let opt = usvg::Options {
        fontdb,
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt)?;
    let size = tree.size();
    let scale = width_px as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    let mut pixmap = if width_px == 0 {
        None
    } else {
        tiny_skia::Pixmap::new(width_px, height)
    }
    .ok_or(RenderError::Size {
        width: width_px,
        height,
    })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_without_fonts() {
        let map = hexmap::Map::new("t", 3, 3);
        let svg = crate::svg(&map, &[], &crate::Options::default());
        let empty = Arc::new(usvg::fontdb::Database::new());
        let bytes = rasterise(&svg, 200, empty).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
}
