//! What one `GET /api/tables/ID/log?limit=50` costs at a table of 100 rows and
//! at one of 10,000 (issue 28: constant cost whatever the log's length), through
//! the whole router on a SQLite file, beside what the same page cost before the
//! lines were stored: the journal replayed for the seat (`AnyTable::log_for`).
//!
//! Run with `cargo bench -p tabula-server --bench log_page`.

use std::hint::black_box;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tower::ServiceExt;

use tabula_engine::core::system::Seat;
use tabula_engine::{AnyTable, Dice};
use tabula_server::state::{describe_lines, load};
use tabula_server::{AppState, app};
use tabula_store::{NewEntry, Store};

/// A table of the bundled Sour Grapes example, played by the GM's `rest` to
/// `rows` rows through the engine and stored in batches with every seat's
/// lines, as the server stores each command. Returns its id, the GM's token and
/// the table as played.
async fn table_of(state: &AppState, rows: u64) -> (String, String, AnyTable) {
    let created = call(
        state,
        Method::POST,
        "/api/tables",
        None,
        Some(json!({"system": "sour-grapes", "example": "table"})),
    )
    .await;
    let id = created["table"].as_str().expect("an id").to_string();
    let gm = created["seats"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["seat"] == "gm"))
        .and_then(|s| s["token"].as_str())
        .expect("the GM's token")
        .to_string();
    let store: &dyn Store = &**state.store();
    let mut table = load(store, &id).await.expect("the table loads");
    let mut stored = 0;
    let mut lines = Vec::new();
    for _ in 0..rows {
        if table.seq() >= rows {
            break;
        }
        let before = table.seq();
        table
            .submit_text(&Seat::Gm, "rest", Dice::Table)
            .expect("the GM may rest");
        lines.extend(describe_lines(&table, before));
        if table.seq() - stored >= 1000 || table.seq() >= rows {
            let raw = table.raw_rows_after(stored);
            let roller = raw.last().and_then(|r| r.roller.clone());
            let entries = raw
                .into_iter()
                .map(|r| NewEntry {
                    seat: r.seat,
                    entry: r.entry,
                })
                .collect();
            stored = store
                .append_with_lines(
                    &id,
                    stored,
                    entries,
                    roller,
                    None,
                    Some(std::mem::take(&mut lines)),
                )
                .await
                .expect("stored");
        }
    }
    (id, gm, table)
}

async fn call(
    state: &AppState,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Value {
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
    let res = app(state.clone()).oneshot(req).await.expect("an answer");
    assert!(
        matches!(res.status(), StatusCode::OK | StatusCode::CREATED),
        "{}",
        res.status()
    );
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .expect("a body");
    serde_json::from_slice(&bytes).expect("JSON")
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let store: Arc<dyn Store> = rt
        .block_on(tabula_store::open(&url))
        .expect("the store opens");
    let state = AppState::new(store);
    let mut group = c.benchmark_group("log_page");
    for rows in [100u64, 10_000] {
        let (id, gm, played) = rt.block_on(table_of(&state, rows));
        let uri = format!("/api/tables/{id}/log?limit=50");
        let page = rt.block_on(call(&state, Method::GET, &uri, Some(&gm), None));
        assert_eq!(page["lines"].as_array().map(Vec::len), Some(50));
        group.bench_function(format!("GET /log?limit=50 at {rows} rows"), |b| {
            b.iter(|| rt.block_on(call(&state, Method::GET, &uri, Some(&gm), None)));
        });
        let after = played.seq() - 50;
        group.bench_function(format!("replay log_for (before) at {rows} rows"), |b| {
            b.iter(|| black_box(played.log_for(&Seat::Gm, after)));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
