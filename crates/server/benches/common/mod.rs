//! What the server benches share: a long table stored as the server stores it,
//! and one request through the whole router.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

use tabula_engine::core::system::Seat;
use tabula_engine::{AnyTable, Dice};
use tabula_server::state::{describe_lines, load};
use tabula_server::{AppState, app};
use tabula_store::{NewEntry, Store};

/// A server state on a fresh SQLite file in a temporary directory, and the
/// two-thread runtime the benches drive it with; the directory lives as long
/// as this value.
pub struct SqliteBench {
    /// The runtime to `block_on` the server's futures with.
    pub rt: tokio::runtime::Runtime,
    /// The server's state over the file.
    pub state: AppState,
    _dir: tempfile::TempDir,
}

/// A [`SqliteBench`].
pub fn sqlite_bench() -> SqliteBench {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let store = rt
        .block_on(tabula_store::open(&url))
        .expect("the store opens");
    SqliteBench {
        rt,
        state: AppState::new(store),
        _dir: dir,
    }
}

/// A table of the bundled Sour Grapes example, played by the GM's `rest` to
/// `rows` rows through the engine and stored in batches with every seat's
/// lines, as the server stores each command. With `snapshots`, each batch but
/// the last carries the state after it, and the last batch holds the 99 rows
/// after the latest snapshot (the most a server leaves after one, as it
/// writes one every `SNAPSHOT_EVERY` = 100 rows). Returns its id, the GM's
/// token and the table as played.
pub async fn table_of(state: &AppState, rows: u64, snapshots: bool) -> (String, String, AnyTable) {
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
        // With snapshots, a batch ends where the last 99 rows begin.
        let cut = rows.saturating_sub(99);
        let at_cut = snapshots && stored < cut && table.seq() >= cut;
        if table.seq() - stored >= 1000 || table.seq() >= rows || at_cut {
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
                    (snapshots && table.seq() <= cut.max(1)).then(|| table.state()),
                    Some(std::mem::take(&mut lines)),
                )
                .await
                .expect("stored");
        }
    }
    (id, gm, table)
}

/// One request through the whole router; the answer's JSON (200 or 201 only).
pub async fn call(
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
