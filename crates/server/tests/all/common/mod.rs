//! What the server's tests share: a fresh store per test (a SQLite file in a
//! temporary directory; a PostgreSQL schema of its own when
//! `TABULA_TEST_DATABASE_URL` is set), and a client that calls the app without
//! a socket.
#![allow(dead_code)]

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use futures_util::{FutureExt, SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tower::ServiceExt;

use tabula_server::{AppState, app};
use tabula_store::Store;

/// The variable naming the PostgreSQL server to test on.
pub const PG_VAR: &str = "TABULA_TEST_DATABASE_URL";

/// Where a test's store lives; it can be opened again (a server restart).
pub enum Db {
    /// A SQLite file in a temporary directory (removed with the value).
    Sqlite {
        /// The directory.
        _dir: tempfile::TempDir,
        /// `sqlite://DIR/tabula.db`.
        url: String,
    },
    /// A schema of its own in the PostgreSQL database.
    Postgres {
        /// The server's URL.
        url: String,
        /// `tabula_server_test_<random>`.
        schema: String,
    },
}

impl Db {
    /// A fresh SQLite file.
    pub fn sqlite() -> Db {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("tabula.db").display());
        Db::Sqlite { _dir: dir, url }
    }

    /// Open (or reopen) the store.
    pub async fn open(&self) -> Arc<dyn Store> {
        match self {
            Db::Sqlite { url, .. } => tabula_store::open(url).await,
            Db::Postgres { url, schema } => tabula_store::open_with_schema(url, schema).await,
        }
        .expect("the test store opens")
    }

    /// The backend's name.
    pub fn backend(&self) -> &'static str {
        match self {
            Db::Sqlite { .. } => "sqlite",
            Db::Postgres { .. } => "postgres",
        }
    }
}

/// Run `story` on a fresh SQLite file.
pub async fn on_sqlite<F, Fut>(story: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()>,
{
    story(Db::sqlite()).await;
}

/// Run `story` on a fresh PostgreSQL schema when [`PG_VAR`] is set (the schema
/// is dropped afterwards, even when the story fails); else say it was skipped.
pub async fn on_postgres<F, Fut>(name: &str, story: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()>,
{
    let Ok(url) = std::env::var(PG_VAR) else {
        eprintln!("{name}: PostgreSQL skipped ({PG_VAR} is not set)");
        return;
    };
    let mut bits = [0u8; 8];
    getrandom::fill(&mut bits).expect("randomness");
    let schema = format!("tabula_server_test_{}", hex::encode(bits));
    let db = Db::Postgres {
        url: url.clone(),
        schema: schema.clone(),
    };
    let result = AssertUnwindSafe(story(db)).catch_unwind().await;
    let pool = sqlx::PgPool::connect(&url)
        .await
        .expect("a plain connection to drop the test schema");
    sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .execute(&pool)
        .await
        .expect("the test schema drops");
    pool.close().await;
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// One story on both backends: `story!(name, body_fn)` makes `name_sqlite` and
/// `name_postgres` tests calling `body_fn(db).await`.
#[macro_export]
macro_rules! story {
    ($name:ident, $body:path) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                $crate::common::on_sqlite($body).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                $crate::common::on_postgres(stringify!($name), $body).await;
            }
        }
    };
}

/// The app over a store, called without a socket.
#[derive(Clone)]
pub struct Client {
    /// The router.
    pub app: Router,
    /// Its state.
    pub state: AppState,
}

/// An answer: status and JSON body (`Value::Null` when the body is not JSON;
/// then `text` holds it).
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// The body as JSON.
    pub json: Value,
    /// The body as text.
    pub text: String,
}

impl Client {
    /// A client of a new app over `store`.
    pub fn new(store: Arc<dyn Store>) -> Client {
        Client::with_state(AppState::new(store))
    }

    /// A client of a new app over `state`.
    pub fn with_state(state: AppState) -> Client {
        Client {
            app: app(state.clone()),
            state,
        }
    }

    /// Send `req`.
    pub async fn send(&self, req: Request<Body>) -> Answer {
        let res = self
            .app
            .clone()
            .oneshot(req)
            .await
            .expect("the router never fails");
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .expect("a body");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer { status, json, text }
    }

    /// `method uri` with an optional bearer token and JSON body.
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        let mut b = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let req = match body {
            Some(v) => b
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(v.to_string())),
            None => b.body(Body::empty()),
        }
        .expect("a request");
        self.send(req).await
    }

    /// GET with a token.
    pub async fn get(&self, uri: &str, token: &str) -> Answer {
        self.call(Method::GET, uri, Some(token), None).await
    }

    /// POST JSON with a token.
    pub async fn post(&self, uri: &str, token: &str, body: &Value) -> Answer {
        self.call(Method::POST, uri, Some(token), Some(body)).await
    }

    /// Create a table (`POST /api/tables`); panics unless 201.
    pub async fn create(&self, body: Value) -> Table {
        let a = self
            .call(Method::POST, "/api/tables", None, Some(&body))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        Table::from_created(&a.json)
    }

    /// Send a command's text as the seat of `token`.
    pub async fn command(&self, table: &Table, token: &str, text: &str) -> Answer {
        self.post(
            &format!("/api/tables/{}/commands", table.id),
            token,
            &json!({ "text": text }),
        )
        .await
    }
}

/// A created table: its id and each seat's token.
#[derive(Clone, Debug)]
pub struct Table {
    /// The id.
    pub id: String,
    /// The system id.
    pub system: String,
    /// (seat key, role, token), the GM first.
    pub seats: Vec<(String, String, String)>,
}

impl Table {
    /// From the 201 body.
    pub fn from_created(v: &Value) -> Table {
        Table {
            id: v["table"].as_str().expect("an id").to_string(),
            system: v["system"].as_str().expect("a system").to_string(),
            seats: v["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .map(|s| {
                    (
                        s["seat"].as_str().expect("seat").to_string(),
                        s["role"].as_str().expect("role").to_string(),
                        s["token"].as_str().expect("token").to_string(),
                    )
                })
                .collect(),
        }
    }

    /// The token of `seat` (case-insensitive; `gm` for the GM).
    pub fn token(&self, seat: &str) -> String {
        self.seats
            .iter()
            .find(|(s, _, _)| s.eq_ignore_ascii_case(seat))
            .map(|(_, _, t)| t.clone())
            .unwrap_or_else(|| panic!("no seat {seat} at {:?}", self.seats))
    }

    /// The GM's token.
    pub fn gm(&self) -> String {
        self.token("gm")
    }

    /// The players' seat keys.
    pub fn players(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter(|(_, r, _)| r == "player")
            .map(|(s, _, _)| s.clone())
            .collect()
    }

    /// `/api/tables/ID/what`.
    pub fn url(&self, what: &str) -> String {
        format!("/api/tables/{}/{what}", self.id)
    }
}

/// Split a play line `Seat: command` into (seat, command); `None` seat for a
/// line without a prefix.
pub fn split_line(line: &str) -> (Option<&str>, &str) {
    match line.split_once(':') {
        Some((seat, cmd)) => (Some(seat.trim()), cmd.trim()),
        None => (None, line.trim()),
    }
}

/// The lines of a bundled script, without comments and blank lines.
pub fn script(system: &str, name: &str) -> Vec<String> {
    let system = system.parse().expect("a system id");
    tabula_server::examples::file(system, name)
        .expect("a bundled script")
        .text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

// ---------------------------------------------------------------------------------
// WebSockets on a real port of 127.0.0.1.
// ---------------------------------------------------------------------------------

/// A test's WebSocket to a table.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub const WAIT: Duration = Duration::from_secs(10);

/// Serve `state` on a free port of 127.0.0.1.
pub async fn serve(state: AppState) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app(state)).await.unwrap();
    });
    format!("ws://{addr}")
}

/// Connect to table `t` as the seat of `token`: by the bearer header, or by
/// the first message.
pub async fn connect(
    base: &str,
    t: &Table,
    token: &str,
    header: bool,
    after: Option<u64>,
) -> Socket {
    let mut url = format!("{base}/api/tables/{}/ws", t.id);
    if let Some(a) = after {
        url.push_str(&format!("?after={a}"));
    }
    let mut req = url.into_client_request().unwrap();
    if header {
        req.headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    let (mut ws, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(req))
        .await
        .expect("connect in time")
        .expect("the upgrade succeeds");
    if !header {
        ws.send(Message::text(json!({"token": token}).to_string()))
            .await
            .unwrap();
    }
    ws
}

/// The next JSON message (pings skipped); `None` when the socket closed.
pub async fn next(ws: &mut Socket) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a message in time")?;
        match msg {
            Ok(Message::Text(t)) => return Some(serde_json::from_str(t.as_str()).unwrap()),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// A campaign: its id and its tokens by seat (`POST /api/campaigns`'s answer).
pub struct Campaign {
    /// The campaign's id.
    pub id: String,
    /// `(seat, token)` for every seat.
    pub tokens: Vec<(String, String)>,
}

impl Campaign {
    /// The campaign `POST /api/campaigns` answered with `created`.
    pub fn from_created(created: &Value) -> Campaign {
        Campaign {
            id: created["campaign"].as_str().expect("id").to_string(),
            tokens: created["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .map(|s| {
                    (
                        s["seat"].as_str().unwrap_or_default().to_string(),
                        s["token"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect(),
        }
    }

    /// The token of `seat` (any case).
    pub fn token(&self, seat: &str) -> String {
        self.tokens
            .iter()
            .find(|(s, _)| s.eq_ignore_ascii_case(seat))
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("no seat {seat}"))
    }
}

/// The campaign's character `name`, as the GM sees it.
pub async fn character_named(c: &Client, camp: &Campaign, name: &str) -> Value {
    let a = c
        .get(&format!("/api/campaigns/{}", camp.id), &camp.token("gm"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .find(|ch| ch["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no {name} in {}", a.text))
}
