//! The one error type of the web app ([`AppError`]) and the extractors that turn
//! bad requests into it ([`ApiJson`], [`ApiQuery`]).
//!
//! Every error answers JSON `{"error": KIND, "message": TEXT, ...}`. Bad input
//! is a 4xx with a message that says what to fix; an internal failure is a
//! generic 500 whose details go to the log only.

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use tabula_engine::CommandError;
use tabula_store::StoreError;

/// The message of every 401, the same for an unknown table, a malformed id, a
/// missing token and a wrong one, so an answer never tells whether a table
/// exists.
pub const UNAUTHORIZED_MESSAGE: &str =
    "this needs a seat's token for this table: send `Authorization: Bearer TOKEN`";

/// Why a request failed. [`IntoResponse`] turns it into the status and JSON
/// body listed on each variant (`error` is the kind, kebab-case).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// 401 `unauthorized`: no token, a wrong token, an unknown or malformed
    /// table id (one body for all, [`UNAUTHORIZED_MESSAGE`]), or a missing or
    /// wrong create token on `POST /api/tables`.
    #[error("{0}")]
    Unauthorized(&'static str),
    /// 403 `forbidden`: the seat is known but may not do this (a player asking
    /// for undo, a reissue, or another seat's view).
    #[error("{0}")]
    Forbidden(String),
    /// 403 `host-not-allowed`: the request's `Host` or `Origin` names a host
    /// this server does not answer for ([`crate::Settings::allowed_hosts`]):
    /// a web page of another site (DNS rebinding) cannot reach the API.
    /// Nothing changed. Issue 28.
    #[error(
        "this server does not answer for host {0:?}: open it at its own address (loopback, or the --public-url it was started with)"
    )]
    HostNotAllowed(String),
    /// 400 `bad-json`: the body is not JSON, or not the JSON this endpoint takes
    /// (serde's words name the field).
    #[error("{0}")]
    BadJson(String),
    /// 400 `bad-request`: a query parameter or a combination of fields is wrong.
    #[error("{0}")]
    BadRequest(String),
    /// 415 `unsupported-media-type`: a JSON body without
    /// `Content-Type: application/json`.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 413 `body-too-large`: the body is over [`crate::MAX_BODY_BYTES`].
    #[error("the request body is over {max} bytes")]
    BodyTooLarge {
        /// [`crate::MAX_BODY_BYTES`].
        max: usize,
    },
    /// 413 `sheet-too-large`: a character sheet is over
    /// [`tabula_store::MAX_SHEET_BYTES`] (1 MiB). Nothing changed. Issue 28.
    #[error("the sheet takes {bytes} bytes, over the cap of {max} bytes (1 MiB)")]
    SheetTooLarge {
        /// The sheet's size in bytes.
        bytes: usize,
        /// [`tabula_store::MAX_SHEET_BYTES`].
        max: usize,
    },
    /// 422 (403 for [`CommandError::GmOnly`] and [`CommandError::NotYourView`]):
    /// the engine refused the command; the body is the [`CommandError`] as
    /// JSON (for a rule: `rule`, `citation`, `kind`, `message`) plus `message`.
    /// Nothing changed.
    #[error("{0}")]
    Command(CommandError),
    /// 422 `bad-table`: the table file or a sheet could not be set up; the
    /// message names the field or file.
    #[error("{0}")]
    BadTable(String),
    /// 422 `unknown-system`: not one of the five system ids.
    #[error("{0}")]
    UnknownSystem(String),
    /// 422 `unknown-example`: no bundled example of that name; the message
    /// lists the system's examples.
    #[error("{0}")]
    UnknownExample(String),
    /// 422 `too-large`: an accepted command's log entries are over the store's
    /// caps; the command was taken back and nothing changed.
    #[error("{0}")]
    TooLarge(String),
    /// 422 (`bad-draft`, `refused`, `unfinished`, `bad-sheet`, `advance-refused`,
    /// `history`): the character builder, a sheet's validation or an
    /// advancement command refused; the body is the
    /// [`tabula_engine::characters::CharacterError`] as JSON (with `problems`
    /// or `rule`) plus `message`. Nothing changed.
    #[error("{0}")]
    Character(tabula_engine::characters::CharacterError),
    /// 409 `not-campaign`: the table was not opened from a campaign, so there
    /// is nothing to write back.
    #[error("{0}")]
    NotCampaign(String),
    /// 409 `ended`: the table's encounter has ended (its lasting changes were
    /// written back to the campaign); it takes no more commands. Nothing
    /// changed.
    #[error(
        "this encounter has ended and its lasting changes were written back to the campaign; it takes no more commands (open a new table from the campaign)"
    )]
    Ended,
    /// 409 `campaign-history`: the GM asked to delete a campaign's table whose
    /// encounter has ended: its lasting changes were written back, and it
    /// stays as the campaign's history. Nothing changed. Issue 28.
    #[error(
        "this encounter has ended and its lasting changes were written back to the campaign: the table stays as the campaign's history and cannot be deleted"
    )]
    CampaignHistory,
    /// 404 `not-found`: no such route, or (for the GM) no such seat.
    #[error("{0}")]
    NotFound(String),
    /// 409 `stale`: `expect_seq` is not the table's seq (or another server
    /// appended first); the body's `seq` is the table's seq now. Nothing
    /// changed.
    #[error(
        "the table is at seq {current}, not the expected seq; fetch the log after your seq and decide again"
    )]
    Stale {
        /// The table's seq now.
        current: u64,
    },
    /// 409 `campaign-table-limit`: the campaign has its maximum of tables
    /// whose encounters have not ended
    /// ([`crate::quota::Quotas::open_tables_per_campaign`]). Issue 28.
    #[error(
        "this campaign has {max} tables whose encounters have not ended, its maximum; end one first"
    )]
    CampaignTableLimit {
        /// The maximum.
        max: usize,
    },
    /// 429 `rate-limited` with `Retry-After` (seconds): too many commands, WebSocket
    /// connects or wrong tokens in a minute ([`crate::quota::Quotas`]). Nothing
    /// changed. Issue 28.
    #[error("too many {what}; try again in {retry_after_secs} s")]
    RateLimited {
        /// What was counted (`commands from this seat`, ...).
        what: &'static str,
        /// When to try again, in whole seconds (at least 1).
        retry_after_secs: u64,
    },
    /// 429 `too-many-sockets`: the seat has its maximum of WebSockets open
    /// ([`crate::quota::Quotas::sockets_per_seat`]). Issue 28.
    #[error("this seat has {max} WebSockets open, its maximum; close one first")]
    TooManySockets {
        /// The maximum.
        max: usize,
    },
    /// 503 `table-limit`: the server holds its maximum of tables
    /// ([`crate::Settings::max_tables`], by default [`crate::MAX_TABLES`]).
    #[error("this server holds its maximum of {max} tables; no new table can be created or opened")]
    TableLimit {
        /// The maximum.
        max: usize,
    },
    /// 503 `unavailable`: the store cannot be reached (`/healthz`).
    #[error("the store is not available")]
    Unavailable,
    /// 500 `internal`: logged with its details; the client sees a generic
    /// message.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// The HTTP status this error answers with.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) | AppError::HostNotAllowed(_) => StatusCode::FORBIDDEN,
            AppError::BadJson(_) | AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::BodyTooLarge { .. } | AppError::SheetTooLarge { .. } => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            AppError::Command(CommandError::GmOnly { .. } | CommandError::NotYourView { .. }) => {
                StatusCode::FORBIDDEN
            }
            AppError::Command(_)
            | AppError::BadTable(_)
            | AppError::UnknownSystem(_)
            | AppError::UnknownExample(_)
            | AppError::TooLarge(_)
            | AppError::Character(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::NotCampaign(_)
            | AppError::Ended
            | AppError::CampaignHistory
            | AppError::CampaignTableLimit { .. } => StatusCode::CONFLICT,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Stale { .. } => StatusCode::CONFLICT,
            AppError::RateLimited { .. } | AppError::TooManySockets { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            AppError::TableLimit { .. } | AppError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `error` field: a kebab-case kind a client can match.
    pub fn kind(&self) -> &'static str {
        match self {
            AppError::Unauthorized(_) => "unauthorized",
            AppError::Forbidden(_) => "forbidden",
            AppError::HostNotAllowed(_) => "host-not-allowed",
            AppError::BadJson(_) => "bad-json",
            AppError::BadRequest(_) => "bad-request",
            AppError::UnsupportedMediaType(_) => "unsupported-media-type",
            AppError::BodyTooLarge { .. } => "body-too-large",
            AppError::SheetTooLarge { .. } => "sheet-too-large",
            AppError::Command(_) => "refused",
            AppError::BadTable(_) => "bad-table",
            AppError::UnknownSystem(_) => "unknown-system",
            AppError::UnknownExample(_) => "unknown-example",
            AppError::TooLarge(_) => "too-large",
            AppError::Character(e) => character_kind(e),
            AppError::NotCampaign(_) => "not-campaign",
            AppError::Ended => "ended",
            AppError::CampaignHistory => "campaign-history",
            AppError::NotFound(_) => "not-found",
            AppError::Stale { .. } => "stale",
            AppError::RateLimited { .. } => "rate-limited",
            AppError::CampaignTableLimit { .. } => "campaign-table-limit",
            AppError::TooManySockets { .. } => "too-many-sockets",
            AppError::TableLimit { .. } => "table-limit",
            AppError::Unavailable => "unavailable",
            AppError::Internal(_) => "internal",
        }
    }

    /// The JSON body (what [`IntoResponse`] sends). Internal details never
    /// appear in it.
    pub fn body(&self) -> Value {
        match self {
            AppError::Command(e) => {
                let mut v = serde_json::to_value(e).unwrap_or_else(|_| json!({}));
                if let Value::Object(map) = &mut v {
                    map.entry("error").or_insert_with(|| json!("refused"));
                    map.entry("message").or_insert_with(|| json!(e.to_string()));
                    v
                } else {
                    json!({"error": "refused", "message": e.to_string()})
                }
            }
            AppError::Character(e) => {
                let mut v = serde_json::to_value(e).unwrap_or_else(|_| json!({}));
                if let Some(o) = v.as_object_mut() {
                    o.insert(
                        "detail".into(),
                        o.get("kind").cloned().unwrap_or(Value::Null),
                    );
                    o.insert("error".into(), self.kind().into());
                    o.insert("message".into(), self.to_string().into());
                    o.remove("kind");
                }
                v
            }
            AppError::Stale { current } => {
                json!({"error": self.kind(), "message": self.to_string(), "seq": current})
            }
            AppError::Internal(_) => json!({
                "error": self.kind(),
                "message": "internal error; it has been logged",
            }),
            _ => json!({"error": self.kind(), "message": self.to_string()}),
        }
    }

    /// An internal error from a store failure (logged, never echoed).
    pub fn store(e: StoreError) -> AppError {
        AppError::Internal(format!("store: {e}"))
    }
}

/// The `error` kind of a character error.
fn character_kind(e: &tabula_engine::characters::CharacterError) -> &'static str {
    use tabula_engine::characters::CharacterError as C;
    match e {
        C::Draft { .. } => "bad-draft",
        C::Refused(_) => "refused",
        C::Unfinished { .. } => "unfinished",
        C::Sheet { .. } => "bad-sheet",
        C::Advance(_) => "advance-refused",
        C::History(_) => "history",
        C::Settings { .. } => "bad-settings",
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        if let AppError::Internal(detail) = &self {
            tracing::error!(error = %detail, "internal error");
        }
        let mut response = (status, Json(self.body())).into_response();
        if let AppError::RateLimited {
            retry_after_secs, ..
        } = &self
        {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(*retry_after_secs),
            );
        }
        response
    }
}

/// A JSON body whose rejections are [`AppError`]s: malformed JSON or the wrong
/// shape is a 400 `bad-json` naming the problem, a body over
/// [`crate::MAX_BODY_BYTES`] a 413, a missing content type a 415.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(ApiJson(v)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

/// The [`AppError`] for a rejected JSON body.
pub(crate) fn json_rejection(rejection: JsonRejection) -> AppError {
    match rejection {
        JsonRejection::JsonSyntaxError(e) => {
            AppError::BadJson(format!("the body is not valid JSON: {}", e.body_text()))
        }
        JsonRejection::JsonDataError(e) => AppError::BadJson(format!(
            "the body is not the JSON this endpoint takes: {}",
            e.body_text()
        )),
        JsonRejection::MissingJsonContentType(_) => AppError::UnsupportedMediaType(
            "send the body as JSON with `Content-Type: application/json`".into(),
        ),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            AppError::BodyTooLarge {
                max: crate::MAX_BODY_BYTES,
            }
        }
        other => AppError::BadRequest(format!("the body could not be read: {}", other.body_text())),
    }
}

/// Query parameters whose rejection is a 400 `bad-request` naming the
/// parameter.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(ApiQuery(v)),
            Err(e) => Err(query_rejection(e)),
        }
    }
}

fn query_rejection(e: QueryRejection) -> AppError {
    AppError::BadRequest(format!("bad query parameters: {}", e.body_text()))
}
