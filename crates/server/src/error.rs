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
    /// The configuration does not hold together (a public URL that is not one, ...).
    #[error("{0}")]
    Config(String),
}

impl ServerError {
    /// What failed, in words a player understands: never the database's own message (that
    /// goes to the log).
    fn plain(&self) -> &'static str {
        match self {
            ServerError::Database(e) => database_trouble(e),
            ServerError::Io { .. } => "the server could not reach a file it needs",
            ServerError::NoDataDir | ServerError::DatabaseUrl(_) | ServerError::Config(_) => {
                "the server is not set up right"
            }
            ServerError::Data(_) => "the server could not finish the work of this request",
            ServerError::Corrupt { .. } => {
                "this game's saved record no longer replays on this server"
            }
            ServerError::Random(_) => "the server could not draw the random numbers it needs",
        }
    }
}

/// The trouble a database error means for a player: busy, read-only, full, out of reach, or
/// failed.
fn database_trouble(e: &sqlx::Error) -> &'static str {
    const BUSY: &str = "the games' database is busy";
    const READ_ONLY: &str = "the games' database cannot be written to";
    const FULL: &str = "the server's disk is full";
    const AWAY: &str = "the server cannot reach its games' database";
    const FAILED: &str = "the games' database failed";
    match e {
        sqlx::Error::PoolTimedOut => BUSY,
        sqlx::Error::PoolClosed | sqlx::Error::WorkerCrashed => AWAY,
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::Protocol(_) => AWAY,
        sqlx::Error::Database(d) => {
            let code = d.code().unwrap_or_default();
            let message = d.message().to_ascii_lowercase();
            // SQLite's (extended) result codes are numbers, PostgreSQL's SQLSTATEs are not
            if let Ok(n) = code.parse::<u32>() {
                match n & 0xff {
                    5 | 6 => BUSY,
                    8 => READ_ONLY,
                    13 => FULL,
                    10 | 14 => AWAY,
                    _ => FAILED,
                }
            } else if code.starts_with("40") || code.starts_with("55") || code == "57014" {
                // serialization failure, deadlock, lock not available, statement timeout
                BUSY
            } else if code.starts_with("53") {
                FULL
            } else if code.starts_with("08") || code.starts_with("57") {
                AWAY
            } else if code == "25006" {
                READ_ONLY
            } else if message.contains("locked") || message.contains("busy") {
                BUSY
            } else {
                FAILED
            }
        }
        _ => FAILED,
    }
}

/// A short random number naming one failure, in the reply and in the log line with its
/// detail, so an operator finds the one from the other.
fn incident() -> String {
    let mut b = [0u8; 4];
    if getrandom::fill(&mut b).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        b = t.to_be_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// An error answered to a request: `{"error": {"status", "kind", "case", "why"}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// `bad_request`, `unauthorized`, `forbidden`, `not_found`, `conflict`, `refused`,
    /// `too_large`, `unsupported_media_type`, `rate_limited` or `internal`.
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

    /// 403: the request is not allowed from where it came (another web site) or to this
    /// viewer.
    pub fn forbidden(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", why)
    }

    /// 415: a change whose body is not declared JSON (`Content-Type: application/json`).
    pub fn unsupported_media_type(why: impl Into<String>) -> ApiError {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            why,
        )
    }

    /// 429: too many requests of one kind from one client; the reply carries `Retry-After`.
    pub fn rate_limited(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", why)
    }

    /// 500 for a failure whose detail is for the operator only: logs `detail` with a new
    /// error number and answers `what` failed, in a player's words, with that number.
    pub fn incident(what: &str, detail: &dyn std::fmt::Display) -> ApiError {
        let id = incident();
        tracing::error!(error = %id, "{detail}");
        ApiError::internal(format!(
            "{what}; nothing was changed: try again in a moment (if it keeps failing, tell the \
             server's operator: error {id})"
        ))
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
    /// A 500 that says what failed in a player's words (the games' database is busy, ...)
    /// with an error number; the detail (the database's own message) goes to the log with
    /// that number, never into the reply.
    fn from(e: ServerError) -> ApiError {
        ApiError::incident(e.plain(), &e)
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
