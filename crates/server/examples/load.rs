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
//!
//! For the side-by-side benchmark against boardgame.io (`bench/vs_boardgameio.sh`):
//! `--serve` runs only the server (the same site `tabula serve` runs, with the
//! rate limits of issue 28 raised far above the load: `tabula serve` takes
//! flags for the command limits but not for WebSocket connects per address)
//! and prints `serving on http://ADDR`; `--prefill N` plays N
//! commands at every table before the followers connect and the measure
//! starts; `--followers N` follows each table with N WebSockets (the seats'
//! tokens in turn; default one per seat); `--pid PID` reads that server's CPU
//! (utime + stime of /proc/PID/stat) over the measured window and its RSS at
//! its end. Every run also prints the followers' latency (from a command's
//! send to a follower's update carrying its seq). `--undos N` has the first
//! table's GM give its command and take it back N times after the prefill,
//! and prints the undos' latency (an undo's cost against the log's length).

/// The allocator `tabula serve` uses (crates/cli/src/main.rs), so that the
/// measured server is the shipped one.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Only serve (on `--bind`, over `--database-url`) until SIGTERM or
    /// Ctrl-C, with the rate limits raised; prints `serving on http://ADDR`.
    #[arg(long)]
    serve: bool,
    /// The address `--serve` binds.
    #[arg(long, default_value = "127.0.0.1:0")]
    bind: std::net::SocketAddr,
    /// Commands played at every table (seats in turn, as the measure sends
    /// them) before the followers connect and the measure starts.
    #[arg(long, default_value_t = 0)]
    prefill: usize,
    /// After the prefill, the GM of the first table gives a command and
    /// takes it back with `undo`, this many times, and the undos' latency
    /// (and the server's CPU over them, with `--pid`) is printed: an undo's
    /// cost against the log's length (issue 28).
    #[arg(long, default_value_t = 0)]
    undos: usize,
    /// WebSocket followers per table (the seats' tokens in turn). Default:
    /// one per seat.
    #[arg(long)]
    followers: Option<usize>,
    /// A server process whose CPU (utime + stime) over the measured window
    /// and RSS at its end are reported.
    #[arg(long)]
    pid: Option<u32>,
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

/// The GM of `table` (on `base`) gives its command and takes it back with
/// `undo`, `n` times; prints the undos' p50 and p99 latency and, with `pid`,
/// the server's CPU per command-and-undo pair.
async fn undos(
    http: &Http,
    base: &str,
    table: &(String, Vec<String>),
    n: usize,
    pid: Option<u32>,
) -> Result<(), String> {
    let (id, tokens) = table;
    let url = format!("{base}/api/tables/{id}/commands");
    let cpu_before = pid.map(proc_usage).transpose()?;
    let mut latencies = Vec::with_capacity(n);
    for _ in 0..n {
        for text in [SEATS[0].1, "undo"] {
            let t0 = Instant::now();
            let body = json!({ "text": text });
            match call(http, Method::POST, &url, Some(&tokens[0]), Some(&body)).await? {
                (StatusCode::OK, _) => {}
                (s, v) => return Err(format!("{text}: {s} {v}")),
            }
            if text == "undo" {
                latencies.push(t0.elapsed());
            }
        }
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let cpu = match (pid, cpu_before) {
        (Some(pid), Some((before, _))) => format!(
            " cpu per command and undo={:.3}ms",
            (proc_usage(pid)?.0 - before) * 1000.0 / n as f64
        ),
        _ => String::new(),
    };
    println!(
        "  undos: {n}, each after a command: p50={:.3}ms p99={:.3}ms{cpu}",
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
    );
    Ok(())
}

/// The CPU seconds (utime + stime) and RSS bytes of process `pid`.
fn proc_usage(pid: u32) -> Result<(f64, u64), String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| e.to_string())?;
    // The command name (field 2) may hold spaces: count from its closing ')'.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or_default();
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the whole line (utime, stime) are 11 and 12 here.
    let ticks: u64 = fields
        .get(11..13)
        .ok_or("a short /proc/PID/stat")?
        .iter()
        .map(|f| f.parse::<u64>().unwrap_or(0))
        .sum();
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    let rss_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    // USER_HZ is 100 on every Linux the benchmark runs on.
    Ok((ticks as f64 / 100.0, rss_kib * 1024))
}

/// Serve the app as `tabula serve` does (same site, host check and
/// connection limits), with the rate limits raised above any benchmark.
async fn serve_only(args: &Args) -> Result<(), String> {
    use tabula_server::listen::{self, ConnectionLimits, Plain};
    use tabula_server::quota::Quotas;
    let mut _dir = None;
    let url = match &args.database_url {
        Some(url) => url.clone(),
        None => {
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let url = format!("sqlite://{}", dir.path().join("serve.db").display());
            _dir = Some(dir);
            url
        }
    };
    let store = tabula_store::open(&url).await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(args.bind)
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let many = 1_000_000_000;
    let settings = tabula_server::Settings {
        base_url: format!("http://{addr}"),
        quotas: Quotas {
            commands_per_seat: many,
            commands_per_address: many,
            ws_connects_per_address: many,
            ..Quotas::default()
        },
        ..tabula_server::Settings::default()
    };
    let limits = ConnectionLimits::from(&settings);
    let state = AppState::with_settings(store.clone(), settings);
    tokio::spawn(state.clone().follow_store());
    let guard =
        axum::middleware::from_fn_with_state(state.clone(), tabula_server::guard::check_host);
    let site = tabula_web::with_api(app(state.clone())).layer(guard);
    println!("serving on http://{addr} ({})", store.backend());
    let stop = async move {
        tabula_server::serve::shutdown_signal().await;
        state.begin_shutdown();
    };
    listen::serve(listener, site, limits, Plain, stop)
        .await
        .map_err(|e| e.to_string())?;
    store.close().await;
    Ok(())
}

/// Send `count` commands at every table (or until `deadline`) from
/// `clients` concurrent clients, each owning every `clients`-th (table,
/// seat) pair and sending one command at a time; the accepted commands'
/// (table, seq, send time, latency), the errors and the first error.
async fn drive(
    http: &Http,
    bases: &Arc<Vec<String>>,
    tables: &Arc<Vec<(String, Vec<String>)>>,
    clients: usize,
    count: Option<usize>,
    deadline: Instant,
) -> Result<(Vec<Sent>, u64, Option<String>), String> {
    let pairs: Vec<(usize, usize)> = (0..tables.len())
        .flat_map(|t| (0..SEATS.len()).map(move |s| (t, s)))
        .collect();
    // With a count, each pair sends its share of its table's commands.
    let quota = |s: usize| count.map(|n| n / SEATS.len() + usize::from(s < n % SEATS.len()));
    let mut workers = Vec::new();
    for c in 0..clients {
        let mine: Vec<(usize, usize)> = pairs
            .iter()
            .copied()
            .skip(c)
            .step_by(clients)
            .filter(|&(_, s)| quota(s) != Some(0))
            .collect();
        let (http, tables, bases) = (http.clone(), tables.clone(), bases.clone());
        let left: Vec<Option<usize>> = mine.iter().map(|&(_, s)| quota(s)).collect();
        workers.push(tokio::spawn(async move {
            let mut mine = mine;
            let mut left = left;
            let mut sent = Vec::new();
            let mut errors = 0u64;
            let mut first_error = None;
            let mut k = 0usize;
            while Instant::now() < deadline && !mine.is_empty() {
                let i = k % mine.len();
                let (t, s) = mine[i];
                let base = &bases[(k + c) % bases.len()];
                k += 1;
                let (id, tokens) = &tables[t];
                let url = format!("{base}/api/tables/{id}/commands");
                let body = json!({"text": SEATS[s].1});
                let t0 = Instant::now();
                match call(&http, Method::POST, &url, Some(&tokens[s]), Some(&body)).await {
                    Ok((StatusCode::OK, v)) => sent.push(Sent {
                        table: t,
                        seq: v["seq"].as_u64().unwrap_or(0),
                        at: t0,
                        latency: t0.elapsed(),
                    }),
                    Ok((s, v)) => {
                        errors += 1;
                        first_error.get_or_insert(format!("{s} {v}"));
                    }
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert(e);
                    }
                }
                if let Some(n) = left[i].as_mut() {
                    *n -= 1;
                    if *n == 0 {
                        mine.remove(i);
                        left.remove(i);
                    }
                }
            }
            (sent, errors, first_error)
        }));
    }
    let mut sent = Vec::new();
    let mut errors = 0;
    let mut first_error = None;
    for w in workers {
        let (l, e, f) = w.await.map_err(|e| e.to_string())?;
        sent.extend(l);
        errors += e;
        if first_error.is_none() {
            first_error = f;
        }
    }
    Ok((sent, errors, first_error))
}

/// An accepted command: its table, the seq it made, when it was sent and how
/// long its answer took.
struct Sent {
    table: usize,
    seq: u64,
    at: Instant,
    latency: Duration,
}

/// What one follower saw: its table and each update's (seq, arrival).
type Seen = Arc<std::sync::Mutex<Vec<(u64, Instant)>>>;

/// Each follower's latency for each command: from its send to the first
/// update of that follower carrying its seq or a later one.
fn follower_latencies(sent: &[Sent], followers: &[(usize, Seen)]) -> Vec<Duration> {
    let mut out = Vec::new();
    for (table, seen) in followers {
        let seen = seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for c in sent.iter().filter(|c| c.table == *table) {
            let i = seen.partition_point(|(seq, _)| *seq < c.seq);
            if let Some((_, at)) = seen.get(i) {
                out.push(at.saturating_duration_since(c.at));
            }
        }
    }
    out
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
    if args.serve {
        return serve_only(&args).await;
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

    let tables = Arc::new(tables);
    let bases = Arc::new(bases);

    // Fill every table first (no followers yet).
    if args.prefill > 0 {
        let filled = Instant::now();
        let far = filled + Duration::from_secs(24 * 3600);
        let (sent, errors, first) =
            drive(&http, &bases, &tables, clients, Some(args.prefill), far).await?;
        println!(
            "  prefill: {} commands in {:.1} s, errors={errors}{}",
            sent.len(),
            filled.elapsed().as_secs_f64(),
            first
                .map(|e| format!(" first error: {e}"))
                .unwrap_or_default()
        );
    }

    if args.undos > 0 {
        undos(&http, &bases[0], &tables[0], args.undos, args.pid).await?;
    }

    // Every seat follows its table (on the servers in turn) and counts updates.
    let updates = Arc::new(AtomicU64::new(0));
    // The bytes of the updates received (issue 28: an update sends what changed).
    let update_bytes = Arc::new(AtomicU64::new(0));
    let mut followers = Vec::new();
    let mut seen: Vec<(usize, Seen)> = Vec::new();
    let per_table = if args.no_follow {
        0
    } else {
        args.followers.unwrap_or(SEATS.len())
    };
    for (i, (id, tokens)) in tables.iter().enumerate() {
        for f in 0..per_table {
            let s = f % tokens.len();
            let token = &tokens[s];
            let base = &bases[(i + f) % bases.len()];
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
            let update_bytes = update_bytes.clone();
            let mine: Seen = Arc::default();
            seen.push((i, mine.clone()));
            followers.push(tokio::spawn(async move {
                while let Some(Ok(m)) = ws.next().await {
                    if let Message::Text(t) = m
                        && t.as_str().contains("\"update\"")
                    {
                        let at = Instant::now();
                        updates.fetch_add(1, Ordering::Relaxed);
                        update_bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
                        if let Ok(v) = serde_json::from_str::<Value>(t.as_str())
                            && v["type"] == "update"
                            && let Some(seq) = v["seq"].as_u64()
                        {
                            mine.lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .push((seq, at));
                        }
                    }
                }
            }));
        }
    }

    let before = args.pid.map(proc_usage).transpose()?;
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let started = Instant::now();
    let (sent, errors, first_error) =
        drive(&http, &bases, &tables, clients, None, deadline).await?;
    let elapsed = started.elapsed().as_secs_f64();
    let after = args.pid.map(proc_usage).transpose()?;
    // Let the last pushes arrive.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let followers_n = followers.len();
    for f in followers {
        f.abort();
    }
    let mut lat: Vec<Duration> = sent.iter().map(|c| c.latency).collect();
    report(&backend, args.tables, clients, elapsed, &mut lat);
    let received = updates.load(Ordering::Relaxed);
    println!(
        "  followers={followers_n} updates received={received} errors={errors} bytes per update={}",
        update_bytes.load(Ordering::Relaxed) / received.max(1)
    );
    if followers_n > 0 {
        let mut fl = follower_latencies(&sent, &seen);
        fl.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "  follower latency: samples={} p50={:.3}ms p99={:.3}ms",
            fl.len(),
            ms(percentile(&fl, 0.50)),
            ms(percentile(&fl, 0.99)),
        );
    }
    if let (Some((cpu0, _)), Some((cpu1, rss))) = (before, after) {
        let per = if sent.is_empty() {
            0.0
        } else {
            (cpu1 - cpu0) * 1000.0 / sent.len() as f64
        };
        println!(
            "  server: cpu={:.2}s cpu/command={per:.3}ms rss={:.1}MiB",
            cpu1 - cpu0,
            rss as f64 / (1024.0 * 1024.0)
        );
    }
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
