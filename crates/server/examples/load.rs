//! Load generator for the Tabula server: create N tables, drive commands at them
//! from C concurrent clients for T seconds over real HTTP, and print commands/s
//! and the p50/p99 latency of an accepted command.
//!
//! ```text
//! cargo run --release -p tabula-server --example load -- --tables 100 --seconds 15
//! cargo run --release -p tabula-server --example load -- --tables 1 --database-url postgres://root@127.0.0.1:5432/test
//! cargo run --release -p tabula-server --example load -- --url http://127.0.0.1:7878 --tables 10
//! ```
//!
//! Without `--url` it serves the app itself on 127.0.0.1 (a free port) over
//! `--database-url` (default: a fresh SQLite file in a temporary directory;
//! a PostgreSQL URL gets a fresh schema, dropped afterwards). Each command is
//! the seat's own (default: Stella's Fate Draw at the bundled Bastards table,
//! which draws cards through the seeded roller, so every command writes an
//! event and the roller state).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{Method, Request, StatusCode, header};
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

use tabula_server::{AppState, app};

/// Drive commands at a Tabula server and measure them.
#[derive(Debug, Parser)]
struct Args {
    /// Target a running server (e.g. http://127.0.0.1:7878) instead of serving
    /// the app in this process.
    #[arg(long)]
    url: Option<String>,
    /// The database of the in-process server (default: a fresh SQLite file).
    #[arg(long)]
    database_url: Option<String>,
    /// Tables to create.
    #[arg(long, default_value_t = 1)]
    tables: usize,
    /// Concurrent clients (each sends one command at a time, to the tables in
    /// turn).
    #[arg(long, default_value_t = 8)]
    clients: usize,
    /// How long to drive commands, in seconds.
    #[arg(long, default_value_t = 15)]
    seconds: u64,
    /// The system of the tables.
    #[arg(long, default_value = "bastards")]
    system: String,
    /// The bundled example table.
    #[arg(long, default_value = "table")]
    example: String,
    /// The seat that sends the commands.
    #[arg(long, default_value = "Stella")]
    seat: String,
    /// The command text.
    #[arg(long, default_value = "fate Cynthia Business Mind 3")]
    command: String,
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

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut _dir = None;
    let mut pg_schema = None;
    let (base, backend) = match &args.url {
        Some(url) => (url.trim_end_matches('/').to_string(), "remote".to_string()),
        None => {
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
            let backend = store.backend().to_string();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(|e| e.to_string())?;
            let addr = listener.local_addr().map_err(|e| e.to_string())?;
            let router = app(AppState::new(store));
            tokio::spawn(async move {
                let _ = axum::serve(listener, router).await;
            });
            (format!("http://{addr}"), backend)
        }
    };
    let http: Http = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(args.clients.max(1) * 2)
        .build_http();

    // The tables, and the seat's token at each.
    let mut tables = Vec::new();
    for _ in 0..args.tables {
        let (status, v) = call(
            &http,
            Method::POST,
            &format!("{base}/api/tables"),
            None,
            Some(&json!({"system": args.system, "example": args.example})),
        )
        .await?;
        if status != StatusCode::CREATED {
            return Err(format!("creating a table: {status} {v}"));
        }
        let id = v["table"].as_str().unwrap_or_default().to_string();
        let token = v["seats"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["seat"] == args.seat.as_str()))
            .and_then(|s| s["token"].as_str())
            .ok_or_else(|| format!("no seat {} at the table", args.seat))?
            .to_string();
        tables.push((format!("{base}/api/tables/{id}/commands"), token));
    }
    let tables = Arc::new(tables);
    let body = Arc::new(json!({"text": args.command}));

    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let mut workers = Vec::new();
    for c in 0..args.clients {
        let http = http.clone();
        let tables = tables.clone();
        let body = body.clone();
        workers.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut errors = 0u64;
            let mut first_error = None;
            let mut k = c;
            while Instant::now() < deadline {
                let (url, token) = &tables[k % tables.len()];
                k += 1;
                let t0 = Instant::now();
                match call(&http, Method::POST, url, Some(token), Some(&body)).await {
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
    lat.sort();
    println!(
        "backend={backend} tables={} clients={} seconds={:.1} commands={} errors={} commands/s={:.0} p50={:.2}ms p99={:.2}ms",
        args.tables,
        args.clients,
        elapsed,
        lat.len(),
        errors,
        lat.len() as f64 / elapsed,
        percentile(&lat, 0.50).as_secs_f64() * 1000.0,
        percentile(&lat, 0.99).as_secs_f64() * 1000.0,
    );
    if let Some(e) = first_error {
        println!("first error: {e}");
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
