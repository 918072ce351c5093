//! The board's static files (`web/`), embedded in the binary at build time (read from the
//! directory in debug builds, so the board can be edited while the server runs).

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::Embed)]
#[folder = "../../web"]
#[exclude = "dev/*"]
#[exclude = "node_modules/*"]
#[exclude = "test/*"]
#[exclude = "tests/*"]
struct Web;

/// Serves `web/` at `/` (`index.html` for `/`).
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    match Web::get(&path) {
        Some(file) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, file.metadata.mimetype().to_string()),
                (header::CACHE_CONTROL, "no-cache".to_string()),
            ],
            file.data.into_owned(),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no file /{path} here: the board is at /\n"),
        )
            .into_response(),
    }
}
