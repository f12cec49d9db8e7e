//! Issue 28, "A long evening on a hostile network": the server's bounds, each
//! tested on 127.0.0.1 with short limits set in the test's settings. No
//! assertion depends on timing beyond a generous upper bound.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use tabula_server::listen::{self, ConnectionLimits, Plain};
use tabula_server::{AppState, Settings, app};

use common::Db;

/// Far above every short limit the tests set: a bound, never a measurement.
const GENEROUS: Duration = Duration::from_secs(15);

/// Serve `settings` over a fresh SQLite store on a free port of 127.0.0.1,
/// through [`listen::serve`] as `tabula serve` does.
async fn serve_with(settings: Settings) -> (SocketAddr, AppState, Db) {
    let db = Db::sqlite();
    let store = db.open().await;
    let limits = ConnectionLimits::from(&settings);
    let state = AppState::with_settings(store, settings);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app(state.clone());
    tokio::spawn(async move {
        listen::serve(listener, router, limits, Plain, std::future::pending())
            .await
            .unwrap();
    });
    (addr, state, db)
}

/// Send `request` on a new connection and read the answer to its end (the
/// request says `Connection: close`), within [`GENEROUS`].
async fn raw(addr: SocketAddr, request: &str) -> String {
    let mut s = tokio::time::timeout(GENEROUS, TcpStream::connect(addr))
        .await
        .expect("connects in time")
        .unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(GENEROUS, s.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// True when the server closes `s` (end of stream or a reset) within
/// [`GENEROUS`]; whatever it sends before closing is skipped.
async fn closed_by_server(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + GENEROUS;
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

const HEALTHZ: &str = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_time_out_and_healthz_still_answers() {
    let (addr, _state, _db) = serve_with(Settings {
        header_timeout: Duration::from_millis(200),
        max_connections: 50,
        ..Settings::default()
    })
    .await;
    // 200 requests whose head never ends: four times the connection cap.
    let mut held = Vec::new();
    for _ in 0..200 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .await
            .unwrap();
        held.push(s);
    }
    // The health check gets its turn as the half-sent ones time out.
    let answer = raw(addr, HEALTHZ).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // Every half-sent request is closed by the server.
    for s in &mut held {
        assert!(closed_by_server(s).await, "a half-sent request stays open");
    }
    // A connection that sends nothing at all is closed too.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    assert!(closed_by_server(&mut silent).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_stops_sending_times_out() {
    let (addr, _state, _db) = serve_with(Settings {
        body_timeout: Duration::from_millis(200),
        ..Settings::default()
    })
    .await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sys",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(GENEROUS, s.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the stalled body holds the connection open");
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 4"),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_cap_holds_new_connections_until_one_closes() {
    let (addr, _state, _db) = serve_with(Settings {
        max_connections: 2,
        ..Settings::default()
    })
    .await;
    // Two idle connections take both places (the header timeout is 10 s).
    let a = TcpStream::connect(addr).await.unwrap();
    let b = TcpStream::connect(addr).await.unwrap();
    // A third is queued, not served: no answer while they are held.
    let third = tokio::spawn(raw(addr, HEALTHZ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!third.is_finished(), "a third connection was served");
    drop(a);
    let answer = third.await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(b);
}

/// Send `req` to the app without a socket; the answer's status and headers.
async fn answer_headers(
    router: &axum::Router,
    req: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, axum::http::HeaderMap) {
    use tower::ServiceExt;
    let res = router.clone().oneshot(req).await.unwrap();
    (res.status(), res.headers().clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_answers_are_no_store_and_nosniff() {
    use axum::body::Body;
    use axum::http::{Request, header};
    let db = Db::sqlite();
    let c = common::Client::new(db.open().await);
    let t = c
        .create(serde_json::json!({"system": "sapio", "example": "table"}))
        .await;
    let create = Request::post("/api/tables")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"system": "sapio", "example": "table"}"#))
        .unwrap();
    let view = Request::get(t.url("view"))
        .header(header::AUTHORIZATION, format!("Bearer {}", t.gm()))
        .body(Body::empty())
        .unwrap();
    let wrong = Request::get(t.url("view"))
        .header(header::AUTHORIZATION, "Bearer nope")
        .body(Body::empty())
        .unwrap();
    let health = Request::get("/healthz").body(Body::empty()).unwrap();
    for (req, status) in [(create, 201), (view, 200), (wrong, 401), (health, 200)] {
        let what = req.uri().to_string();
        let (got, headers) = answer_headers(&c.app, req).await;
        assert_eq!(got.as_u16(), status, "{what}");
        assert_eq!(headers[header::CACHE_CONTROL], "no-store", "{what}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{what}");
    }
}

/// `sheet` padded with comment lines to about `bytes` bytes.
fn padded(sheet: &str, bytes: usize) -> String {
    let mut s = sheet.to_string();
    let line = format!("# {}\n", "x".repeat(1021));
    while s.len() + line.len() <= bytes {
        s.push_str(&line);
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sheets_up_to_1_mib_are_accepted_and_larger_is_a_413() {
    use axum::http::Method;
    use serde_json::json;
    let db = Db::sqlite();
    let c = common::Client::new(db.open().await);
    let a = c
        .call(
            Method::POST,
            "/api/campaigns",
            None,
            Some(&json!({"system": "tiers", "name": "Big Sheets", "players": ["John"]})),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    let id = a.json["campaign"].as_str().unwrap().to_string();
    let gm = a.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == "gm")
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let john = std::fs::read_to_string(format!(
        "{}/../../examples/tiers/john.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let url = format!("/api/campaigns/{id}/characters");
    // 1 MiB exactly (more than the 256 KiB that failed with a 500).
    let max = tabula_store::MAX_SHEET_BYTES;
    let big = padded(&john, max);
    assert!(big.len() > max - 1024 && big.len() <= max);
    let a = c
        .post(&url, &gm, &json!({"sheet": big, "file": "john.toml"}))
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    let cid = a.json["id"].as_str().unwrap_or_default().to_string();
    // The GM's edit of it, as large.
    let edited = padded(&john, max - 4096);
    let a = c
        .call(
            Method::PUT,
            &format!("{url}/{cid}/sheet"),
            Some(&gm),
            Some(&json!({ "sheet": edited })),
        )
        .await;
    assert_ne!(a.status.as_u16(), 500, "{}", a.text);
    assert_ne!(a.status.as_u16(), 413, "{}", a.text);
    // Over 1 MiB: 413 naming the sheet.
    let over = padded(&john, max + 2048);
    let a = c
        .post(&url, &gm, &json!({"sheet": over, "file": "x.toml"}))
        .await;
    assert_eq!(a.status.as_u16(), 413, "{}", a.text);
    assert_eq!(a.json["error"], "sheet-too-large", "{}", a.text);
    // A body over the sheet routes' limit: 413 before it is read.
    let huge = "x".repeat(tabula_server::guard::MAX_SHEET_BODY_BYTES + 1);
    let a = c.post(&url, &gm, &json!({ "sheet": huge })).await;
    assert_eq!(a.status.as_u16(), 413, "{}", a.text);
    assert_eq!(a.json["error"], "body-too-large", "{}", a.text);
    // Nothing of the refused ones was added.
    let a = c.get(&format!("/api/campaigns/{id}"), &gm).await;
    assert_eq!(
        a.json["characters"].as_array().map(Vec::len),
        Some(1),
        "{}",
        a.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_sites_host_or_origin_is_refused() {
    use axum::body::Body;
    use axum::http::{Request, header};
    let db = Db::sqlite();
    let store = db.open().await;
    let loopback = common::Client::new(store.clone());
    let public = common::Client::with_state(AppState::with_settings(
        store.clone(),
        Settings {
            allowed_hosts: Some(vec!["tabula.example".into()]),
            ..Settings::default()
        },
    ));
    let unchecked = common::Client::with_state(AppState::with_settings(
        store,
        Settings {
            allowed_hosts: None,
            ..Settings::default()
        },
    ));
    let ask = |method: &str, host: &str, origin: Option<&str>| {
        let mut b = Request::builder()
            .method(method)
            .uri("/api/tables")
            .header(header::HOST, host)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(o) = origin {
            b = b.header(header::ORIGIN, o);
        }
        b.body(Body::from(r#"{"system": "sapio", "example": "table"}"#))
            .unwrap()
    };
    // A page of another site rebinding its name to 127.0.0.1: neither lists
    // nor creates tables.
    for (method, host, origin) in [
        ("GET", "evil.example", None),
        ("POST", "evil.example:7878", None),
        ("POST", "127.0.0.1:7878", Some("http://evil.example")),
        ("POST", "127.0.0.1:7878", Some("null")),
        ("GET", "tabula.example", None),
    ] {
        let a = loopback.send(ask(method, host, origin)).await;
        assert_eq!(
            a.status.as_u16(),
            403,
            "{method} {host} {origin:?}: {}",
            a.text
        );
        assert_eq!(a.json["error"], "host-not-allowed");
    }
    let listed = loopback.send(ask("GET", "127.0.0.1:7878", None)).await;
    assert_eq!(listed.json["tables"].as_array().map(Vec::len), Some(0));
    // The loopback names, with any port, and the public URL's host.
    for (client, host, origin) in [
        (&loopback, "127.0.0.1:7878", None),
        (&loopback, "localhost", Some("http://localhost:7878")),
        (&loopback, "[::1]:7878", Some("http://[::1]:7878")),
        (&public, "Tabula.Example", Some("https://tabula.example")),
        (&public, "127.0.0.1", None),
        (&unchecked, "evil.example", None),
    ] {
        let a = client.send(ask("POST", host, origin)).await;
        assert_eq!(a.status.as_u16(), 201, "{host} {origin:?}: {}", a.text);
    }
    let a = public.send(ask("GET", "evil.example", None)).await;
    assert_eq!(a.status.as_u16(), 403, "{}", a.text);
}

/// The status code of a raw HTTP answer (`HTTP/1.1 429 ...`).
fn status_of(answer: &str) -> u16 {
    answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_past_a_seats_rate_are_429_with_retry_after() {
    use axum::body::Body;
    use axum::http::{Request, header};
    use tabula_server::quota::Quotas;
    let db = Db::sqlite();
    let state = AppState::with_settings(
        db.open().await,
        Settings {
            quotas: Quotas {
                commands_per_seat: 3,
                ..Quotas::default()
            },
            ..Settings::default()
        },
    );
    let c = common::Client::with_state(state);
    let t = c
        .create(serde_json::json!({"system": "sapio", "example": "table"}))
        .await;
    let command = |token: &str| {
        Request::post(t.url("commands"))
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(r#"{"text": "no such command"}"#))
            .unwrap()
    };
    for _ in 0..3 {
        let (status, _) = answer_headers(&c.app, command(&t.gm())).await;
        assert_ne!(status.as_u16(), 429);
    }
    let (status, headers) = answer_headers(&c.app, command(&t.gm())).await;
    assert_eq!(status.as_u16(), 429);
    let wait: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=61).contains(&wait), "{wait}");
    // Another seat has its own allowance.
    let player = t.token(&t.players()[0]);
    let (status, _) = answer_headers(&c.app, command(&player)).await;
    assert_ne!(status.as_u16(), 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_past_its_wrong_tokens_is_refused_even_the_right_one() {
    use tabula_server::quota::Quotas;
    let (addr, state, _db) = serve_with(Settings {
        quotas: Quotas {
            wrong_tokens_per_address: 3,
            ..Quotas::default()
        },
        ..Settings::default()
    })
    .await;
    let c = common::Client::with_state(state);
    let t = c
        .create(serde_json::json!({"system": "sapio", "example": "table"}))
        .await;
    let view = |token: &str| {
        format!(
            "GET /api/tables/{}/view HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n",
            t.id
        )
    };
    let wrong = "0123456789abcdef0123456789abcdef";
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(status_of(&raw(addr, &view(wrong)).await));
    }
    assert_eq!(
        statuses,
        [401, 401, 401, 401],
        "the limit counts, then blocks"
    );
    // Blocked: the right token learns nothing either.
    let answer = raw(addr, &view(&t.gm())).await;
    assert_eq!(status_of(&answer), 429, "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: "),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_connects_and_open_sockets_are_capped() {
    use tabula_server::quota::Quotas;
    let (addr, state, _db) = serve_with(Settings {
        quotas: Quotas {
            sockets_per_seat: 2,
            ws_connects_per_address: 30,
            ..Quotas::default()
        },
        ..Settings::default()
    })
    .await;
    let c = common::Client::with_state(state);
    let t = c
        .create(serde_json::json!({"system": "sapio", "example": "table"}))
        .await;
    let base = format!("ws://{addr}");
    // Two sockets of the GM's seat; a third is refused.
    let mut a = common::connect(&base, &t, &t.gm(), true, None).await;
    assert_eq!(common::next(&mut a).await.unwrap()["type"], "hello");
    let mut b = common::connect(&base, &t, &t.gm(), false, None).await;
    assert_eq!(common::next(&mut b).await.unwrap()["type"], "hello");
    let mut third = common::connect(&base, &t, &t.gm(), true, None).await;
    let refused = common::next(&mut third).await.unwrap();
    assert_eq!(refused["error"], "too-many-sockets", "{refused}");
    // Another seat has its own places.
    let player = t.token(&t.players()[0]);
    let mut p = common::connect(&base, &t, &player, true, None).await;
    assert_eq!(common::next(&mut p).await.unwrap()["type"], "hello");
    // One closes: its place comes back (once the server has seen it go).
    a.close(None).await.unwrap();
    let mut back = false;
    for _ in 0..20 {
        let mut again = common::connect(&base, &t, &t.gm(), true, None).await;
        if common::next(&mut again).await.unwrap()["type"] == "hello" {
            back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(back, "the closed socket's place did not come back");
    // Connects from this address are limited (30 a minute): a later one is a
    // 429 with Retry-After, before any upgrade.
    let url = format!("{base}/api/tables/{}/ws", t.id);
    let mut limited = false;
    for _ in 0..40 {
        match tokio_tungstenite::connect_async(url.as_str()).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
                assert_eq!(res.status().as_u16(), 429);
                assert!(res.headers().contains_key("retry-after"));
                limited = true;
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert!(limited, "40 connects in a row were all taken");
    drop((b, p));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaign_opens_at_most_its_cap_of_tables_not_ended() {
    use axum::http::Method;
    use serde_json::json;
    use tabula_server::quota::Quotas;
    let db = Db::sqlite();
    let c = common::Client::with_state(AppState::with_settings(
        db.open().await,
        Settings {
            quotas: Quotas {
                open_tables_per_campaign: 2,
                ..Quotas::default()
            },
            ..Settings::default()
        },
    ));
    let example = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/../../examples/tiers/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let a = c
        .call(
            Method::POST,
            "/api/campaigns",
            None,
            Some(&json!({"system": "tiers", "name": "Caps", "players": ["John", "Cristy"]})),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    let id = a.json["campaign"].as_str().unwrap().to_string();
    let gm = a.json["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == "gm")
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    for (owner, file) in [
        ("John", "john.toml"),
        ("Cristy", "cristy.toml"),
        ("gm", "steve.toml"),
    ] {
        let mut body = json!({"sheet": example(file), "file": file, "imported": true});
        if owner != "gm" {
            body["owner"] = json!(owner);
        }
        let a = c
            .post(&format!("/api/campaigns/{id}/characters"), &gm, &body)
            .await;
        assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    }
    let open = || async {
        c.post(
            &format!("/api/campaigns/{id}/tables"),
            &gm,
            &json!({"table": example("table.toml"), "seed": 1}),
        )
        .await
    };
    let first = open().await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.text);
    assert_eq!(open().await.status.as_u16(), 201);
    let third = open().await;
    assert_eq!(third.status.as_u16(), 409, "{}", third.text);
    assert_eq!(third.json["error"], "campaign-table-limit");
    // Ending one gives its place back.
    let table = first.json["table"].as_str().unwrap();
    let ended = c
        .post(&format!("/api/tables/{table}/end"), &gm, &json!({}))
        .await;
    assert!(ended.status.is_success(), "{}", ended.text);
    assert_eq!(open().await.status.as_u16(), 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_the_api_are_served_over_tls() {
    use std::sync::Arc;
    use tokio_rustls::rustls;
    let generated = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let tls = listen::Tls::from_pem(
        generated.cert.pem().as_bytes(),
        generated.signing_key.serialize_pem().as_bytes(),
    )
    .unwrap();
    let db = Db::sqlite();
    let settings = Settings::default();
    let limits = ConnectionLimits::from(&settings);
    let state = AppState::with_settings(db.open().await, settings);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app(state);
    tokio::spawn(async move {
        listen::serve(listener, router, limits, tls, std::future::pending())
            .await
            .unwrap();
    });
    let mut roots = rustls::RootCertStore::empty();
    roots.add(generated.cert.der().clone()).unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    for path in ["/healthz", "/t/0123456789abcdef0123456789abcdef"] {
        let tcp = TcpStream::connect(addr).await.unwrap();
        let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
        let mut s = tokio::time::timeout(GENEROUS, connector.connect(name, tcp))
            .await
            .expect("a handshake in time")
            .expect("the handshake succeeds");
        s.write_all(
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(GENEROUS, s.read_to_end(&mut answer))
            .await
            .expect("answered in time");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer}");
    }
    // Plain HTTP to the TLS port gets no HTTP answer.
    let answer = raw(addr, HEALTHZ).await;
    assert!(!answer.contains("200 OK"), "{answer}");
}
