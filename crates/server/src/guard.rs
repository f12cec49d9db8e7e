//! Middleware of [`crate::app`] that guards the server as a whole (issue 28):
//! the `Host`/`Origin` allow-list ([`check_host`]), the rate limits
//! ([`quotas`]) and the body limit of the routes that take a whole character
//! sheet ([`sheet_body_limit`]).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower::{Layer, ServiceExt};

use crate::error::AppError;
use crate::state::AppState;

/// The names a loopback server always answers for (with any port).
pub const LOOPBACK_HOSTS: &[&str] = &["127.0.0.1", "localhost", "[::1]"];

/// The host of a `Host` header value or of a URL's authority, without the
/// port and in lower case (`[::1]:7878` gives `[::1]`, `Tabula.Example:443`
/// gives `tabula.example`); `None` when it is empty or malformed.
pub fn host_of(authority: &str) -> Option<String> {
    let a = authority.trim();
    let host = if a.starts_with('[') {
        let end = a.find(']')?;
        let rest = &a[end + 1..];
        if !(rest.is_empty() || rest.strip_prefix(':').is_some_and(all_digits)) {
            return None;
        }
        &a[..=end]
    } else {
        match a.rsplit_once(':') {
            Some((h, port)) if all_digits(port) => h,
            Some(_) => return None,
            None => a,
        }
    };
    let ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.[]:".contains(&b));
    ok.then(|| host.to_ascii_lowercase())
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The host of an absolute `http://` or `https://` URL (an `Origin` header,
/// `--public-url`); `None` for anything else (`null` included).
pub fn url_host(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.contains('@') {
        return None;
    }
    host_of(authority)
}

/// True when `host` (as [`host_of`] gives it) is a loopback name or one of
/// `allowed`.
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    LOOPBACK_HOSTS.contains(&host) || allowed.iter().any(|a| a == host)
}

/// Refuse (403 `host-not-allowed`) a request whose `Host`, or `Origin` when
/// it has one, names a host outside [`crate::Settings::allowed_hosts`];
/// without a `Host` header (HTTP/1.0; no browser) only the `Origin` is
/// checked. Nothing is checked when `allowed_hosts` is `None`.
pub async fn check_host(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(allowed) = &state.settings().allowed_hosts else {
        return next.run(req).await;
    };
    let headers = req.headers();
    let host = headers.get(HOST).map(|v| v.to_str().ok().and_then(host_of));
    if let Some(host) = host {
        match host {
            Some(h) if host_allowed(&h, allowed) => {}
            Some(h) => return AppError::HostNotAllowed(h).into_response(),
            None => return AppError::HostNotAllowed("(malformed)".into()).into_response(),
        }
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let text = origin.to_str().unwrap_or("(malformed)");
        match url_host(text) {
            Some(h) if host_allowed(&h, allowed) => {}
            _ => return AppError::HostNotAllowed(text.chars().take(256).collect()).into_response(),
        }
    }
    next.run(req).await
}

/// What [`quotas`] counts a request as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// `POST /api/tables/ID/commands`, `/policy` or `/undo`.
    Command,
    /// `GET /api/tables/ID/ws`.
    WsConnect,
    /// Anything else (only its wrong tokens count).
    Other,
}

/// What `method path` counts as.
pub fn counted(method: &Method, path: &str) -> Counted {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        (&Method::POST, ["", "api", "tables", _, "commands" | "policy" | "undo"]) => {
            Counted::Command
        }
        (&Method::GET, ["", "api", "tables", _, "ws"]) => Counted::WsConnect,
        _ => Counted::Other,
    }
}

/// The rate limits of [`crate::quota`]: an address past its wrong tokens is
/// refused everything (429) until its wait is over; commands count per seat
/// (the bearer token's hash) and per address, WebSocket connects per address;
/// every 401 counts as a wrong token of its address.
pub async fn quotas(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let limits = state.limiters();
    let address = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let checked = (|| {
        if let Some(a) = address {
            limits.not_blocked(a)?;
        }
        match counted(req.method(), req.uri().path()) {
            Counted::Command => {
                let token = crate::auth::bearer(req.headers()).map(crate::auth::hash_token);
                limits.command(token.as_deref(), address)
            }
            Counted::WsConnect => address.map_or(Ok(()), |a| limits.ws_connect(a)),
            Counted::Other => Ok(()),
        }
    })();
    if let Err(e) = checked {
        return e.into_response();
    }
    let response = next.run(req).await;
    if response.status() == StatusCode::UNAUTHORIZED
        && let Some(a) = address
    {
        limits.wrong_token(a);
    }
    response
}

/// The largest request body of a route that takes a whole character sheet as
/// a JSON string (adding a character, the GM's edit, validating a sheet, a
/// draft from a sheet): 3 MiB, so a sheet of up to
/// [`tabula_store::MAX_SHEET_BYTES`] (1 MiB) fits however JSON escapes it. A
/// larger body is refused with 413 `body-too-large`; a sheet over 1 MiB in a
/// smaller body with 413 `sheet-too-large`. Every other route keeps
/// [`crate::MAX_BODY_BYTES`].
pub const MAX_SHEET_BODY_BYTES: usize = 3 << 20;

/// True for the paths (under `/api`) whose body is a whole sheet.
pub fn takes_a_sheet(path: &str) -> bool {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    matches!(
        parts.as_slice(),
        ["", "api", "campaigns", _, "characters"]
            | ["", "api", "campaigns", _, "characters", _, "sheet"]
            | ["", "api", "systems", _, "sheets", "validate"]
            | ["", "api", "systems", _, "builder", "from-sheet"]
    )
}

/// Give the routes of [`takes_a_sheet`] the body limit
/// [`MAX_SHEET_BODY_BYTES`]; the others pass unchanged.
pub async fn sheet_body_limit(req: Request, next: Next) -> Response {
    if takes_a_sheet(req.uri().path()) {
        match DefaultBodyLimit::max(MAX_SHEET_BODY_BYTES)
            .layer(next)
            .oneshot(req)
            .await
        {
            Ok(response) => response,
            Err(never) => match never {},
        }
    } else {
        next.run(req).await
    }
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins_read_without_their_ports() {
        assert_eq!(host_of("127.0.0.1:7878").as_deref(), Some("127.0.0.1"));
        assert_eq!(host_of("LocalHost").as_deref(), Some("localhost"));
        assert_eq!(host_of("[::1]:7878").as_deref(), Some("[::1]"));
        assert_eq!(host_of("[::1]").as_deref(), Some("[::1]"));
        assert_eq!(host_of("evil.example:x"), None);
        assert_eq!(host_of(""), None);
        assert_eq!(host_of("a b"), None);
        assert_eq!(
            url_host("https://Tabula.example/t/x#tok").as_deref(),
            Some("tabula.example")
        );
        assert_eq!(
            url_host("http://127.0.0.1:7878").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(url_host("null"), None);
        assert_eq!(url_host("ftp://x"), None);
        assert_eq!(url_host("http://user@evil.example"), None);
        assert!(host_allowed("localhost", &[]));
        assert!(!host_allowed("evil.example", &[]));
        assert!(host_allowed("tabula.example", &["tabula.example".into()]));
    }

    #[test]
    fn the_sheet_routes_are_the_four_that_take_a_sheet() {
        let id = "0123456789abcdef0123456789abcdef";
        assert!(takes_a_sheet(&format!("/api/campaigns/{id}/characters")));
        assert!(takes_a_sheet(&format!(
            "/api/campaigns/{id}/characters/{id}/sheet"
        )));
        assert!(takes_a_sheet("/api/systems/tiers/sheets/validate"));
        assert!(takes_a_sheet("/api/systems/tiers/builder/from-sheet"));
        assert!(!takes_a_sheet("/api/tables"));
        assert!(!takes_a_sheet(&format!("/api/tables/{id}/commands")));
        assert!(!takes_a_sheet(&format!("/api/campaigns/{id}/tables")));
    }
}
