//! Issue 28: no token in the log at any level. The log is `tabula serve`'s
//! ([`tabula_server::logging::init`]) at `RUST_LOG=trace`, captured across a
//! session with HTTP calls and WebSockets (token by header and by first
//! message) on 127.0.0.1. Its own test binary: the log is process-wide.

use crate::common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use tabula_server::listen::{self, ConnectionLimits, Plain};
use tabula_server::{AppState, Settings, app};

use common::{Db, Table, connect, next};

/// Where the log goes: a buffer the test reads.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `request` on a new connection; the answer's body as JSON.
async fn http(addr: std::net::SocketAddr, request: String) -> Value {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    let (_, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_reaches_the_log_at_trace() {
    let captured = Captured::default();
    let sink = captured.clone();
    tabula_server::logging::init(Some("trace"), move || sink.clone(), false)
        .expect("the only log of this test binary");

    let db = Db::sqlite();
    let settings = Settings::default();
    let limits = ConnectionLimits::from(&settings);
    let state = AppState::with_settings(db.open().await, settings);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app(state);
    tokio::spawn(async move {
        listen::serve(listener, router, limits, Plain, std::future::pending())
            .await
            .unwrap();
    });

    let body = r#"{"system": "sapio", "example": "table"}"#;
    let created = http(
        addr,
        format!(
            "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    let t = Table::from_created(&created);
    let base = format!("ws://{addr}");
    for (i, (_, _, token)) in t.seats.iter().enumerate() {
        // Every seat's token goes over the wire: by header, by first
        // message, and on an HTTP call.
        let mut ws = connect(&base, &t, token, i % 2 == 0, None).await;
        assert_eq!(next(&mut ws).await.unwrap()["type"], "hello");
        let view = http(
            addr,
            format!(
                "GET /api/tables/{}/view HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n",
                t.id
            ),
        )
        .await;
        assert_eq!(view["table"], t.id.as_str());
        let mut ws = connect(&base, &t, token, i % 2 != 0, None).await;
        assert_eq!(next(&mut ws).await.unwrap()["type"], "hello");
    }
    // A wrong token by first message too.
    let mut ws = connect(&base, &t, "0123456789abcdef0123456789abcdef", false, None).await;
    assert_eq!(next(&mut ws).await.unwrap()["type"], "error");
    tracing::trace!("end of the session");

    let log = String::from_utf8_lossy(&captured.0.lock().unwrap()).into_owned();
    assert!(
        log.contains("end of the session"),
        "TRACE events are captured"
    );
    assert!(
        log.contains("websocket follows"),
        "the server's log is captured"
    );
    for (seat, _, token) in &t.seats {
        assert!(
            !log.contains(token.as_str()),
            "{seat}'s token is in the log"
        );
        assert!(
            !log.contains(&hex::encode(token)),
            "{seat}'s token is in the log as hex"
        );
    }
    assert!(!log.contains("0123456789abcdef0123456789abcdef"));
}
