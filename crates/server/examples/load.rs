//! Load generator for the Tabula server: create N Bastards tables of four seats,
//! let every seat follow its table over a WebSocket, drive commands at them from
//! concurrent clients for T seconds over real HTTP, and print commands/s and the
//! p50/p99/p99.9 latency of an accepted command. `--engine` measures the raw
//! engine instead (decide + evolve in memory, no I/O), for the ratio.
//!
//! ```text
//! cargo run --release -p tabula-server --example load -- --tables 100 --seconds 10
//! cargo run --release -p tabula-server --example load -- --tables 1 --database-url postgres://root@127.0.0.1:5432/test
//! cargo run --release -p tabula-server --example load -- --url http://127.0.0.1:7878 --url http://127.0.0.1:7879 --tables 100
//! cargo run --release -p tabula-server --example load -- --engine --tables 100
//! ```
//!
//! Without `--url` it serves the app itself on 127.0.0.1 (a free port) over
//! `--database-url` (default: a fresh SQLite file in a temporary directory; a
//! PostgreSQL URL gets a fresh schema, dropped afterwards). With several `--url`s
//! (several `tabula serve` processes on one PostgreSQL database; see
//! bench/load.sh) the tables are created on the first, and each seat's commands
//! and WebSocket go to the servers in turn. Each seat's command is a Fate Draw
//! (one row, cards from the table's seeded roller, so every command writes an
//! event and the roller state) and every command is pushed to the table's four
//! followers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{Method, Request, StatusCode, header};
use clap::Parser;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use tabula_engine::Dice;
use tabula_engine::core::system::Seat;
use tabula_server::create::{CreateRequest, prepare};
use tabula_server::{AppState, app};

/// The four seats of the bundled Bastards table and each one's command.
const SEATS: [(&str, &str); 4] = [
    ("gm", "fate investor Business Mind 3"),
    ("Stella", "fate Cynthia Business Mind 3"),
    ("Blaine", "fate Kodos Business Mind 3"),
    ("Pat", "fate Carlton Repair Mind 3"),
];

/// Drive commands at a Tabula server and measure them.
#[derive(Debug, Parser)]
struct Args {
    /// Target running servers (e.g. http://127.0.0.1:7878), given once per
    /// server, instead of serving the app in this process.
    #[arg(long)]
    url: Vec<String>,
    /// The database of the in-process server (default: a fresh SQLite file).
    #[arg(long)]
    database_url: Option<String>,
    /// Tables to create (four seats each).
    #[arg(long, default_value_t = 1)]
    tables: usize,
    /// Concurrent clients; each gives one command at a time, as the (table,
    /// seat) pairs it owns in turn. Default: one per seat, at most 64.
    #[arg(long)]
    clients: Option<usize>,
    /// How long to drive commands, in seconds.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// No WebSocket followers.
    #[arg(long)]
    no_follow: bool,
    /// Measure the raw engine (decide + evolve in memory, no I/O, one thread)
    /// instead of a server.
    #[arg(long)]
    engine: bool,
}

type Http = Client<HttpConnector, Full<Bytes>>;

async fn call(
    http: &Http,
    method: Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(StatusCode, Value), String> {
    let mut b = Request::builder().method(method).uri(url);
    if let Some(t) = token {
        b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let bytes = match body {
        Some(v) => {
            b = b.header(header::CONTENT_TYPE, "application/json");
            Bytes::from(v.to_string())
        }
        None => Bytes::new(),
    };
    let req = b.body(Full::new(bytes)).map_err(|e| e.to_string())?;
    let res = http.request(req).await.map_err(|e| e.to_string())?;
    let status = res.status();
    let body = res
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, serde_json::from_slice(&body).unwrap_or(Value::Null)))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(what: &str, tables: usize, clients: usize, elapsed: f64, lat: &mut [Duration]) {
    lat.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what} tables={tables} clients={clients} seconds={elapsed:.1} commands={} commands/s={:.0} p50={:.3}ms p99={:.3}ms p99.9={:.3}ms",
        lat.len(),
        lat.len() as f64 / elapsed,
        ms(percentile(lat, 0.50)),
        ms(percentile(lat, 0.99)),
        ms(percentile(lat, 0.999)),
    );
}

/// The raw engine: the same tables and commands, decided and evolved in
/// memory on one thread.
fn engine(args: &Args) -> Result<(), String> {
    let mut tables = Vec::new();
    for _ in 0..args.tables {
        let request = CreateRequest {
            system: "bastards".into(),
            example: Some("table".into()),
            ..CreateRequest::default()
        };
        tables.push(prepare(&request).map_err(|e| e.to_string())?.0);
    }
    let seats: Vec<(Seat, &str)> = SEATS.iter().map(|(s, c)| (Seat::parse(s), *c)).collect();
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let mut lat = Vec::new();
    let mut k = 0usize;
    while Instant::now() < deadline {
        let t = &mut tables[k % args.tables];
        let (seat, text) = &seats[(k / args.tables) % seats.len()];
        k += 1;
        let t0 = Instant::now();
        t.submit_text(seat, text, Dice::Table)
            .map_err(|e| e.to_string())?;
        lat.push(t0.elapsed());
    }
    let elapsed = started.elapsed().as_secs_f64();
    report("engine", args.tables, 1, elapsed, &mut lat);
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    if args.engine {
        return engine(&args);
    }
    let mut _dir = None;
    let mut pg_schema = None;
    let (bases, backend) = if args.url.is_empty() {
        let store = match &args.database_url {
            Some(url) if url.starts_with("postgres") => {
                let mut bits = [0u8; 8];
                getrandom::fill(&mut bits).map_err(|e| e.to_string())?;
                let schema = format!("tabula_load_{}", hex::encode(bits));
                pg_schema = Some((url.clone(), schema.clone()));
                tabula_store::open_with_schema(url, &schema).await
            }
            Some(url) => tabula_store::open(url).await,
            None => {
                let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
                let url = format!("sqlite://{}", dir.path().join("load.db").display());
                _dir = Some(dir);
                tabula_store::open(&url).await
            }
        }
        .map_err(|e| e.to_string())?;
        let backend = format!("in-process/{}", store.backend());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let state = AppState::new(store);
        tokio::spawn(state.clone().follow_store());
        let router = app(state);
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        (vec![format!("http://{addr}")], backend)
    } else {
        let bases: Vec<String> = args
            .url
            .iter()
            .map(|u| u.trim_end_matches('/').to_string())
            .collect();
        let backend = format!("servers={}", bases.len());
        (bases, backend)
    };
    let clients = args
        .clients
        .unwrap_or((args.tables * SEATS.len()).min(64))
        .max(1);
    let http: Http = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(clients * 2)
        .build_http();

    // The tables, and every seat's token at each.
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    for _ in 0..args.tables {
        let (status, v) = call(
            &http,
            Method::POST,
            &format!("{}/api/tables", bases[0]),
            None,
            Some(&json!({"system": "bastards", "example": "table"})),
        )
        .await?;
        if status != StatusCode::CREATED {
            return Err(format!("creating a table: {status} {v}"));
        }
        let id = v["table"].as_str().unwrap_or_default().to_string();
        let mut tokens = Vec::new();
        for (seat, _) in SEATS {
            let token = v["seats"]
                .as_array()
                .and_then(|s| s.iter().find(|s| s["seat"] == seat))
                .and_then(|s| s["token"].as_str())
                .ok_or_else(|| format!("no seat {seat} at the table"))?;
            tokens.push(token.to_string());
        }
        tables.push((id, tokens));
    }

    // Every seat follows its table (on the servers in turn) and counts updates.
    let updates = Arc::new(AtomicU64::new(0));
    let mut followers = Vec::new();
    if !args.no_follow {
        for (i, (id, tokens)) in tables.iter().enumerate() {
            for (s, token) in tokens.iter().enumerate() {
                let base = &bases[(i + s) % bases.len()];
                let mut req = format!("{}/api/tables/{id}/ws", base.replacen("http", "ws", 1))
                    .into_client_request()
                    .map_err(|e| e.to_string())?;
                req.headers_mut().insert(
                    "authorization",
                    format!("Bearer {token}")
                        .parse()
                        .map_err(|_| "a token header")?,
                );
                let (mut ws, _) = tokio_tungstenite::connect_async(req)
                    .await
                    .map_err(|e| e.to_string())?;
                let updates = updates.clone();
                followers.push(tokio::spawn(async move {
                    while let Some(Ok(m)) = ws.next().await {
                        if let Message::Text(t) = m
                            && t.as_str().contains("\"update\"")
                        {
                            updates.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }));
            }
        }
    }

    // Each client owns every `clients`-th (table, seat) pair.
    let pairs: Vec<(usize, usize)> = (0..args.tables)
        .flat_map(|t| (0..SEATS.len()).map(move |s| (t, s)))
        .collect();
    let tables = Arc::new(tables);
    let bases = Arc::new(bases);
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let mut workers = Vec::new();
    for c in 0..clients {
        let mine: Vec<(usize, usize)> = pairs.iter().copied().skip(c).step_by(clients).collect();
        let (http, tables, bases) = (http.clone(), tables.clone(), bases.clone());
        workers.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut errors = 0u64;
            let mut first_error = None;
            let mut k = 0usize;
            while Instant::now() < deadline && !mine.is_empty() {
                let (t, s) = mine[k % mine.len()];
                let base = &bases[(k + c) % bases.len()];
                k += 1;
                let (id, tokens) = &tables[t];
                let url = format!("{base}/api/tables/{id}/commands");
                let body = json!({"text": SEATS[s].1});
                let t0 = Instant::now();
                match call(&http, Method::POST, &url, Some(&tokens[s]), Some(&body)).await {
                    Ok((StatusCode::OK, _)) => lat.push(t0.elapsed()),
                    Ok((s, v)) => {
                        errors += 1;
                        first_error.get_or_insert(format!("{s} {v}"));
                    }
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert(e);
                    }
                }
            }
            (lat, errors, first_error)
        }));
    }
    let mut lat = Vec::new();
    let mut errors = 0;
    let mut first_error = None;
    for w in workers {
        let (l, e, f) = w.await.map_err(|e| e.to_string())?;
        lat.extend(l);
        errors += e;
        if first_error.is_none() {
            first_error = f;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    // Let the last pushes arrive.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let followers_n = followers.len();
    for f in followers {
        f.abort();
    }
    report(&backend, args.tables, clients, elapsed, &mut lat);
    println!(
        "  followers={followers_n} updates received={} errors={errors}",
        updates.load(Ordering::Relaxed)
    );
    if let Some(e) = first_error {
        println!("  first error: {e}");
    }
    if let Some((url, schema)) = pg_schema {
        let pool = sqlx::PgPool::connect(&url)
            .await
            .map_err(|e| e.to_string())?;
        sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .execute(&pool)
            .await
            .map_err(|e| e.to_string())?;
        pool.close().await;
    }
    Ok(())
}
