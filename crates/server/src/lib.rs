//! # tabula-server
//!
//! The shared online table: HTTP and WebSocket over the Tabula engine, with
//! its tables kept in a [`tabula_store::Store`] (SQLite by default,
//! PostgreSQL for several servers). [`app`] builds the whole axum router from
//! an [`AppState`], so tests call it without a socket; [`serve::run`] is
//! `tabula serve`. docs/API.md lists every endpoint with its shapes.
//!
//! ## How a command travels
//!
//! Authenticate (the bearer token's SHA-256 hash names one seat of one
//! table; a wrong token, an unknown table and a malformed id get the same 401),
//! take the table's write lock (the table is loaded from the store on first
//! use and kept in memory; commands to one table are applied one at a time,
//! different tables in parallel), refuse a stale `expect_seq` (409), let the
//! engine decide (a refusal is a 422 carrying the rule and changes nothing),
//! append every row of the command and the roller state after it to the store
//! in one call (one transaction: a command is acknowledged only after its rows
//! and roller state are committed, so a crash can neither lose an acknowledged
//! command nor replay its dice; the store's seq check is the optimistic lock
//! between servers, and on a conflict the table is caught up and the command
//! decided again, at most [`MAX_CONFLICT_RETRIES`] times), then signal the
//! table's followers, each of which computes its own seat's view and lines.
//!
//! ## Several servers
//!
//! On PostgreSQL any number of `tabula serve` processes share one database
//! behind a load balancer, with no sticky sessions: any process takes a
//! command for any table (above), and each follows the store's feed of
//! appends ([`AppState::follow_store`], `LISTEN/NOTIFY`) to catch its tables up
//! and push other processes' moves to its own WebSockets. Every
//! [`tabula_store::SNAPSHOT_EVERY`] rows a command's append carries a
//! snapshot of the state, and a table loads from its latest snapshot and the
//! rows after it ([`state::load`]; the whole log only for an undo back past
//! the snapshot, [`state::load_whole`]).
//!
//! ## Secrets
//!
//! Tokens are 128 random bits from the operating system; the store keeps only
//! their SHA-256 hash; links carry them in the URL fragment, which browsers
//! never send. A seat reaches the table only through the engine's per-seat
//! projections ([`tabula_engine::AnyTable::view`], `log_for`, `lines_since`,
//! `legal`, `odds`, `status`); the journal rows and the roller state go to the
//! store and never to a response. The request log (tracing) records method,
//! path, table id, seat, seq, status and latency: never a header or a body.
//!
//! ## Caps
//!
//! [`MAX_BODY_BYTES`], [`MAX_COMMAND_BYTES`], [`MAX_ROLLED_VALUES`],
//! [`MAX_WS_MESSAGE_BYTES`], [`MAX_TABLES`], [`create::MAX_FILES`],
//! [`create::MAX_NAME_BYTES`]; the store adds its own per-entry caps.
//!
//! ## A hostile network (issue 28)
//!
//! [`listen::serve`] bounds a connection's request head and idle time and the
//! connections open at once (optionally over TLS, [`listen::Tls`]); [`app`]
//! adds the body timeout, the `Host`/`Origin` allow-list and the rate limits
//! ([`guard`], [`quota`]), `Cache-Control: no-store` and `nosniff` on every
//! answer; [`logging`] keeps tokens out of the log at every level. All bounds
//! are [`Settings`] fields.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod auth;
pub mod campaign;
pub mod character_routes;
pub mod create;
pub mod deletion;
pub mod encounters;
pub mod error;
pub mod examples;
pub mod guard;
pub mod listen;
pub mod logging;
mod patch;
pub mod quota;
pub mod routes;
pub mod serve;
pub mod state;
pub mod ws;

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, Request, header};
use axum::routing::{delete, get, post};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tracing::{Level, field};

pub use error::AppError;
pub use state::{AppState, Settings};
/// The longest command text accepted, in bytes (the engine's cap; a longer
/// `text` is refused with 422 `too-long`).
pub use tabula_engine::session::MAX_COMMAND_BYTES;

/// The largest request body, in bytes (1 MiB); a larger one is refused with
/// 413 before it is read.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// The most values in one command's `rolled` list (and each value's longest,
/// [`MAX_ROLLED_VALUE_BYTES`]); more is a 400.
pub const MAX_ROLLED_VALUES: usize = 1000;

/// The most character sheet files one command may carry in `sheets` (a GM's
/// `add FILE.toml`; issue 27, item 6); more is a 400. Their bytes count
/// toward [`MAX_BODY_BYTES`].
pub const MAX_COMMAND_SHEETS: usize = 4;

/// The longest single `rolled` value, in bytes (`"10"`, `"QH"`, `"2 of cups"`).
pub const MAX_ROLLED_VALUE_BYTES: usize = 32;

/// The largest WebSocket message or frame a client may send, in bytes (16 KiB);
/// a larger one closes the connection.
pub const MAX_WS_MESSAGE_BYTES: usize = 16 * 1024;

/// The most lines one `GET /log` page holds (500); a larger `limit` is a
/// 400, and a page without `limit` holds this many. Issue 28.
pub const MAX_LOG_PAGE: u32 = 500;

/// The most characters one page of `GET /api/campaigns/ID` holds (200); a
/// larger `characters_limit` is a 400. Issue 28: a campaign's answer holds a
/// page of sheets, never all of them.
pub const MAX_CHARACTERS_PAGE: u32 = 200;

/// The characters a page of `GET /api/campaigns/ID` holds without
/// `characters_limit` (50).
pub const DEFAULT_CHARACTERS_PAGE: u32 = 50;

/// The most bytes the sheets of one page of `GET /api/campaigns/ID` take
/// together (2 MiB): the page ends before the character whose sheet would
/// pass it (it holds one character at least, a sheet being at most 1 MiB), so
/// one answer holds at most about 3 MiB of sheets. Issue 28.
pub const MAX_CHARACTERS_PAGE_BYTES: u64 = 2 << 20;

/// How many lines a WebSocket reads from the store at a time when it sends a
/// follower lines it missed (the catch-up of `?after=SEQ`, or an update too
/// far behind the table's window of recent lines): [`MAX_LOG_PAGE`].
pub const WS_LINES_PAGE: u32 = MAX_LOG_PAGE;

/// The size the server keeps each WebSocket message it sends under, when it
/// can split it (a catch-up or an update with many lines goes as several
/// messages): 128 KiB, half of [`WS_MAX_WRITE_BUFFER_BYTES`], past which a
/// send would close the connection. Issue 28.
pub const WS_MESSAGE_TARGET_BYTES: usize = 128 * 1024;

/// How long a WebSocket without a bearer header has to send its token.
pub const WS_AUTH_TIMEOUT: Duration = Duration::from_secs(10);

/// The most tables one server holds: creating one more (counted in the store)
/// is refused with 503 `table-limit`, and so is opening one more in memory
/// when every table held is in use.
pub const MAX_TABLES: usize = 10_000;

/// How many times a command is decided again after losing the race to append
/// to another server on the same store (each time the table is caught up
/// first): 8. Past that the answer is 409 `stale`.
pub const MAX_CONFLICT_RETRIES: u32 = 8;

/// How long one WebSocket message may take to go out (the client reading too
/// slowly, or not at all): 10 seconds; then the connection is closed. With
/// [`WS_MAX_WRITE_BUFFER_BYTES`] this bounds what a client that never reads
/// costs the server.
pub const WS_SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// The most bytes queued for one WebSocket beyond what the operating system
/// took (256 KiB); a send past it fails and closes the connection.
pub const WS_MAX_WRITE_BUFFER_BYTES: usize = 256 * 1024;

/// The read buffer of one WebSocket (1 KiB: clients send only their token,
/// a message of about a hundred bytes, and pings; a larger message still
/// reads, in more than one call), so ten thousand idle connections cost
/// little memory (issue 28: 4 KiB before).
pub const WS_READ_BUFFER_BYTES: usize = 1024;

/// How many table moves a slow WebSocket may fall behind before it skips to
/// the newest (it then sends every missed line at once: nothing is lost).
pub const BROADCAST_CAPACITY: usize = 64;

/// The whole app: every route of docs/API.md over `state`, with the body limit
/// and the request log.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route(
            "/tables",
            post(routes::create_table).get(routes::list_tables),
        )
        .route("/examples", get(routes::list_examples))
        .route("/systems", get(routes::list_systems))
        .route("/tables/{id}", delete(deletion::delete_table))
        .route("/tables/{id}/view", get(routes::view))
        .route("/tables/{id}/legal", get(routes::legal))
        .route("/tables/{id}/log", get(routes::log))
        .route("/tables/{id}/odds", get(routes::odds))
        .route("/tables/{id}/status", get(routes::status))
        .route("/tables/{id}/seats", get(routes::seats))
        .route("/tables/{id}/commands", post(routes::command))
        .route("/tables/{id}/undo", post(routes::undo))
        .route("/tables/{id}/awaiting", get(routes::awaiting))
        .route("/tables/{id}/record", get(routes::record))
        .route("/tables/{id}/policy", post(routes::policy))
        .route("/tables/{id}/seats/{seat}/reissue", post(routes::reissue))
        .route("/tables/{id}/ws", get(ws::upgrade))
        .route("/tables/{id}/end", post(character_routes::end_table))
        .route(
            "/systems/{system}/builder",
            get(character_routes::new_draft).post(character_routes::change_draft),
        )
        .route(
            "/systems/{system}/builder/finish",
            post(character_routes::finish_draft),
        )
        .route(
            "/systems/{system}/builder/from-sheet",
            post(character_routes::draft_from_sheet),
        )
        .route(
            "/systems/{system}/sheets/validate",
            post(character_routes::validate_sheet),
        )
        .route(
            "/systems/{system}/advancement",
            get(character_routes::advancement),
        )
        .route(
            "/campaigns",
            post(character_routes::create_campaign).get(character_routes::list_campaigns),
        )
        .route("/campaigns/{id}", get(character_routes::show_campaign))
        .route(
            "/campaigns/{id}/seats/{seat}/reissue",
            post(character_routes::reissue_campaign_seat),
        )
        .route(
            "/campaigns/{id}/characters",
            post(character_routes::add_character),
        )
        .route(
            "/campaigns/{id}/characters/{cid}",
            get(character_routes::show_character),
        )
        .route(
            "/campaigns/{id}/characters/{cid}/sheet",
            get(character_routes::export_sheet).put(character_routes::edit_sheet),
        )
        .route(
            "/campaigns/{id}/characters/{cid}/advance",
            post(character_routes::advance),
        )
        .route("/campaigns/{id}/tables", post(character_routes::open_table))
        .route(
            "/campaigns/{id}/encounters",
            get(character_routes::encounters),
        );
    Router::new()
        .route("/healthz", get(routes::healthz))
        .route("/t/{id}", get(routes::page))
        .nest("/api", api)
        .fallback(routes::not_found)
        // Issue 28: inside the default limit, so the sheet routes' larger
        // limit wins on those routes.
        .layer(axum::middleware::from_fn(guard::sheet_body_limit))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // Issue 28: rate limits, after the host check.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::quotas,
        ))
        // Issue 28: DNS rebinding; before anything reads the request.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check_host,
        ))
        // Issue 28: a body that stops sending fails instead of holding the
        // connection.
        .layer(RequestBodyTimeoutLayer::new(state.settings().body_timeout))
        // Issue 28: answers carry tokens, hands and sheets: no cache keeps
        // them, and no browser guesses their type.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<_>| {
                    // Method and path only: never headers (tokens), the query
                    // or the body.
                    tracing::info_span!(
                        "request",
                        method = %req.method(),
                        path = %req.uri().path(),
                        table = field::Empty,
                        seat = field::Empty,
                        seq = field::Empty,
                    )
                })
                .on_request(())
                .on_response(DefaultOnResponse::new().level(Level::INFO))
                .on_failure(DefaultOnFailure::new().level(Level::ERROR)),
        )
        .with_state(state)
}
