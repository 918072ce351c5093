//! Errors: [`ApiError`], what a request gets back (`docs/api.md`, "Errors"), and
//! [`ServerError`], why the server could not start or reach its database.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use engine::Refusal;
use serde::Serialize;

/// Why the server could not start, or a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database URL is neither `sqlite:PATH` nor `postgres://...`.
    #[error("unsupported database '{0}': use sqlite:PATH or postgres://USER@HOST/DB")]
    DatabaseUrl(String),
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A file or socket operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
    /// No data directory for the default database.
    #[error("no data directory for the database (set XDG_DATA_HOME or HOME, or pass --database)")]
    NoDataDir,
    /// A shipped scenario or the rules reference does not load (a build problem).
    #[error("shipped data: {0}")]
    Data(String),
    /// A stored game no longer replays.
    #[error("game {id}: {why}")]
    Corrupt {
        /// The game.
        id: String,
        /// Why.
        why: String,
    },
    /// The operating system's random source failed.
    #[error("no random numbers: {0}")]
    Random(String),
}

/// An error answered to a request: `{"error": {"status", "kind", "case", "why"}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// `bad_request`, `unauthorized`, `forbidden`, `not_found`, `conflict`, `refused`,
    /// `too_large` or `internal`.
    pub kind: &'static str,
    /// The rule case for refusals (`5.13`), `action` for text that is not an action.
    pub case: Option<String>,
    /// What is wrong, in a player's words.
    pub why: String,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, why: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            case: None,
            why: why.into(),
        }
    }

    /// 400: malformed request.
    pub fn bad_request(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", why)
    }

    /// 401: missing or wrong seat token.
    pub fn unauthorized(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", why)
    }

    /// 404: no such game, unit, scenario or page.
    pub fn not_found(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", why)
    }

    /// 409: someone acted first, or it is not this seat's turn.
    pub fn conflict(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", why)
    }

    /// 413: the body is too large.
    pub fn too_large(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", why)
    }

    /// 500: the server failed (the database, most likely); nothing was changed.
    pub fn internal(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", why)
    }

    /// A refusal of the rules: 422 with its case, or 400 for text that is not an action.
    pub fn refused(r: Refusal) -> ApiError {
        let (status, kind) = if r.case == "action" {
            (StatusCode::BAD_REQUEST, "bad_request")
        } else {
            (StatusCode::UNPROCESSABLE_ENTITY, "refused")
        };
        ApiError {
            status,
            kind,
            case: Some(r.case.to_string()),
            why: r.why,
        }
    }

    /// The JSON body.
    pub fn body(&self) -> String {
        #[derive(Serialize)]
        struct Inner<'a> {
            status: u16,
            kind: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            case: Option<&'a str>,
            why: &'a str,
        }
        #[derive(Serialize)]
        struct Outer<'a> {
            error: Inner<'a>,
        }
        serde_json::to_string(&Outer {
            error: Inner {
                status: self.status.as_u16(),
                kind: self.kind,
                case: self.case.as_deref(),
                why: &self.why,
            },
        })
        .unwrap_or_else(|_| "{\"error\":{}}".into())
    }
}

impl From<ServerError> for ApiError {
    fn from(e: ServerError) -> ApiError {
        tracing::error!("{e}");
        ApiError::internal(format!("the server failed: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            self.body(),
        )
            .into_response()
    }
}
