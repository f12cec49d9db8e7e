//! # tabula-web
//!
//! The table's browser page, served by the `tabula` binary itself: the lobby
//! (`/`), the table page (`/t/{id}`, one per seat link), the character
//! builder (`/new/{system}`), a campaign's page (`/c/{id}`), the page's files under
//! `/assets/...` (the files of `web/` at the repository root, compiled into the
//! binary: there is no build step and nothing is read from disk), and a QR code
//! of a seat link (`/qr`).
//!
//! The page is plain HTML, CSS and ES modules. It gets everything through the
//! same HTTP and WebSocket API as any other client (`tabula-server`): it decides
//! no rule, rolls no die and never holds another seat's secret. A seat's token
//! rides in the link's fragment (`/t/ID#TOKEN`), which browsers never send to a
//! server; the page reads it and sends it as `Authorization: Bearer TOKEN`.
//!
//! Wiring into `tabula serve`: `axum::serve(listener, tabula_web::with_api(app(state)))`
//! ([`with_api`]: the page's routes first, every other request to the API's
//! router). [`routes`] also merges into any `Router<S>` that has no route of
//! its own at `/`, `/t/{id}`, `/new/{system}`, `/c/{id}`, `/assets/...` or `/qr`.
//!
//! Every answer of these routes carries a strict Content-Security-Policy
//! ([`CONTENT_SECURITY_POLICY`]: scripts, styles, images and connections from
//! this origin only; no inline script or style; no frames; the HTML pages
//! also name their host's `ws://`/`wss://` origin, [`page_policy`]), `nosniff`,
//! and `Referrer-Policy: no-referrer`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod assets;
mod qr;

use axum::Router;
use axum::body::Body;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

pub use assets::{Asset, asset, assets};
pub use qr::{MAX_QR_TEXT_BYTES, QrError, qr_svg};

/// The Content-Security-Policy of every page and file served here.
///
/// Scripts, styles, images and fetch/WebSocket connections come from this
/// origin only (`'self'` also allows `ws:`/`wss:` to the same host); images may
/// also be `data:` URLs; no inline script, no `eval`, no inline style, no
/// plugins, no frames, forms post only here, and no `<base>` tag.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The routes of the page, for any router state `S`:
///
/// | method | path | answer |
/// |---|---|---|
/// | GET | `/` | the lobby (`text/html`) |
/// | GET | `/t/{id}` | the table page (`text/html`); the seat's token stays in the fragment |
/// | GET | `/new/{system}` | the character builder of one book (`text/html`); `?campaign=ID#TOKEN` adds the character to a campaign |
/// | GET | `/c/{id}` | a campaign's page (`text/html`); the seat's campaign token stays in the fragment |
/// | GET | `/assets/{file}` | a file of `web/` (content type by extension; `ETag`, `Cache-Control: no-cache`); 404 for any other name |
/// | GET | `/qr?text=...` | a QR code of `text` (`image/svg+xml`); 400 when `text` is missing, empty or longer than [`MAX_QR_TEXT_BYTES`] |
/// | POST | `/qr` | the same for the request body (`text/plain`), so a link's token never appears in a URL |
///
/// Merge them into a router that has none of these paths
/// (`router.merge(tabula_web::routes())`; axum panics on a path both have), or
/// put them in front of one with [`with_api`].
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(lobby))
        .route("/t/{id}", get(table_page))
        .route("/new/{system}", get(builder_page))
        .route("/c/{id}", get(campaign_page))
        .route("/assets/{*file}", get(asset_file))
        .route("/qr", get(qr::get_qr).post(qr::post_qr))
}

/// The page in front of `api` (the server's `app(state)`): requests for the
/// page's paths ([`routes`]) are answered here, every other request (the API,
/// `/healthz`, the API's own 404) goes to `api` unchanged. This is what
/// `tabula serve` runs:
///
/// ```text
/// axum::serve(listener, tabula_web::with_api(tabula_server::app(state)))
/// ```
///
/// A route of `api` at one of the page's paths (a placeholder `/t/{id}`) is
/// shadowed by the page's.
pub fn with_api(api: Router) -> Router {
    routes().fallback_service(api)
}

/// Headers every answer of these routes carries.
fn secure(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

fn serve(file: &Asset, request: &HeaderMap) -> Response {
    let etag = file.etag();
    let matches = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(file.bytes));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(file.content_type()),
        );
        r
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    secure(response)
}

fn page(name: &str, request: &HeaderMap) -> Response {
    match asset(name) {
        Some(file) => serve(file, request),
        None => not_found(),
    }
}

/// The longest `Host` header named in a page's policy.
const MAX_HOST_BYTES: usize = 255;

/// [`CONTENT_SECURITY_POLICY`] for an HTML page reached at `host`: the same,
/// with the WebSocket origins of that host named as well (`ws://HOST
/// wss://HOST`), for browsers whose `'self'` does not cover `ws:`. A `Host`
/// that is not a plain `name[:port]` or `[v6]:port` is left out.
pub fn page_policy(host: Option<&str>) -> String {
    let ok = |h: &str| {
        !h.is_empty()
            && h.len() <= MAX_HOST_BYTES
            && h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
    };
    match host {
        Some(h) if ok(h) => CONTENT_SECURITY_POLICY.replace(
            "connect-src 'self'",
            &format!("connect-src 'self' ws://{h} wss://{h}"),
        ),
        _ => CONTENT_SECURITY_POLICY.to_string(),
    }
}

fn html_page(name: &str, request: &HeaderMap) -> Response {
    let mut r = page(name, request);
    let host = request.get(header::HOST).and_then(|v| v.to_str().ok());
    if let Ok(v) = HeaderValue::from_str(&page_policy(host)) {
        r.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    r
}

fn not_found() -> Response {
    secure((StatusCode::NOT_FOUND, "not found\n").into_response())
}

async fn lobby(request: HeaderMap) -> Response {
    html_page("index.html", &request)
}

async fn table_page(Path(_id): Path<String>, request: HeaderMap) -> Response {
    html_page("table.html", &request)
}

async fn builder_page(Path(_system): Path<String>, request: HeaderMap) -> Response {
    html_page("new.html", &request)
}

async fn campaign_page(Path(_id): Path<String>, request: HeaderMap) -> Response {
    html_page("campaign.html", &request)
}

async fn asset_file(Path(file): Path<String>, request: HeaderMap) -> Response {
    page(&file, &request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_names_its_hosts_websocket_origins_and_nothing_odd() {
        let p = page_policy(Some("127.0.0.1:7878"));
        assert!(p.contains("connect-src 'self' ws://127.0.0.1:7878 wss://127.0.0.1:7878;"));
        assert!(page_policy(Some("[::1]:7878")).contains("ws://[::1]:7878"));
        for odd in ["evil.com; script-src *", "a b", "x'y", "", &"a".repeat(300)] {
            assert_eq!(page_policy(Some(odd)), CONTENT_SECURITY_POLICY, "{odd:?}");
        }
        assert_eq!(page_policy(None), CONTENT_SECURITY_POLICY);
    }
}
