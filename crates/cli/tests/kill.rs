//! Issue 15, crash safety: a load generator gives commands to many tables
//! while `tabula serve` is killed with SIGKILL at random moments, 20 times, on
//! SQLite and on PostgreSQL. After each kill: every acknowledged command is in
//! the log, no command is half there, every table loads, and replaying each
//! log up to its snapshot gives the stored snapshot.

mod scale;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use std::time::Instant;

use hyper::StatusCode;
use serde_json::Value;

use scale::{Dice, SEATS, Server, Table, command, create_table, http};
use tabula_engine::{AnyTable, SystemId};
use tabula_store::Store;

/// Tables under load.
const TABLES: usize = 6;
/// Kills per backend.
const KILLS: usize = 20;

/// An acknowledged command: its table and the rows its answer named.
#[derive(Debug)]
struct Acked {
    table: usize,
    seat: &'static str,
    rows: Vec<u64>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
async fn kill_9_under_load_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("kill.db").display());
    let open_url = url.clone();
    kill_under_load(
        &url,
        dir.path(),
        move || {
            let url = open_url.clone();
            async move { tabula_store::open(&url).await.unwrap() }
        },
        0x5eed_0001,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow process-level test: `cargo test --workspace -- --include-ignored` (README; .ci/run) runs it"]
async fn kill_9_under_load_on_postgresql() {
    let Some((url, schema, in_schema)) = scale::pg_schema("kill").await else {
        return;
    };
    let (cleanup_url, cleanup_schema) = (url.clone(), schema.clone());
    scale::with_cleanup(
        async move {
            let dir = tempfile::tempdir().unwrap();
            kill_under_load(
                &in_schema,
                dir.path(),
                move || {
                    let (url, schema) = (url.clone(), schema.clone());
                    async move { tabula_store::open_with_schema(&url, &schema).await.unwrap() }
                },
                0x5eed_0002,
            )
            .await;
        },
        async move { scale::drop_schema(&cleanup_url, &cleanup_schema).await },
    )
    .await;
}

async fn kill_under_load<O, F>(url: &str, dir: &std::path::Path, open: O, seed: u64)
where
    O: Fn() -> F,
    F: Future<Output = Arc<dyn Store>>,
{
    let http = http();
    let mut dice = Dice::new(seed);
    let tables: Vec<Table> = {
        let server = Server::start(url, dir, "setup");
        let mut tables = Vec::new();
        for _ in 0..TABLES {
            tables.push(create_table(&http, &server.base()).await);
        }
        // One table starts near a snapshot, so the kills fall around one.
        let fill = (tabula_store::SNAPSHOT_EVERY - 8) as usize;
        let mut fillers = Vec::new();
        for (seat, _) in SEATS {
            let (http, base, t) = (http.clone(), server.base(), tables[0].clone());
            fillers.push(tokio::spawn(async move {
                for _ in 0..fill / SEATS.len() {
                    let (status, v) = command(&http, &base, &t, seat).await.unwrap();
                    assert_eq!(status, StatusCode::OK, "{v}");
                }
            }));
        }
        for f in fillers {
            f.await.unwrap();
        }
        server.kill9();
        tables
    };
    let tables = Arc::new(tables);
    let mut acked: Vec<Acked> = Vec::new();
    for round in 0..KILLS {
        let server = Server::start(url, dir, "server");
        let base = server.base();
        let stop = Arc::new(AtomicBool::new(false));
        let count = Arc::new(AtomicUsize::new(0));
        // Two seats per table give commands one after another until the
        // server is gone.
        let mut load = Vec::new();
        for (i, _) in tables.iter().enumerate() {
            for seat in [SEATS[(round + i) % 4].0, SEATS[(round + i + 1) % 4].0] {
                let (http, base, tables, stop, count) = (
                    http.clone(),
                    base.clone(),
                    tables.clone(),
                    stop.clone(),
                    count.clone(),
                );
                load.push(tokio::spawn(async move {
                    let mut mine = Vec::new();
                    // Bounded: at most this many commands per client per round.
                    for _ in 0..10_000 {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        match command(&http, &base, &tables[i], seat).await {
                            Ok((StatusCode::OK, v)) => {
                                mine.push(acked_of(i, seat, &v));
                                count.fetch_add(1, Ordering::Relaxed);
                            }
                            Ok((status, v)) => panic!("{seat} at table {i}: {status} {v}"),
                            // The server was killed mid-request: not acknowledged.
                            Err(_) => break,
                        }
                    }
                    mine
                }));
            }
        }
        // The kill comes at a random moment once the load is under way (the
        // first answer), at most 10 s after the start.
        let started = Instant::now();
        while count.load(Ordering::Relaxed) == 0 && started.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let warm = started.elapsed().as_millis();
        let pause = dice.between(10, 300);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        server.kill9();
        stop.store(true, Ordering::Relaxed);
        let before = acked.len();
        for l in load {
            acked.extend(l.await.unwrap());
        }
        eprintln!(
            "round {round}: first answer after {warm} ms, killed {pause} ms later, {} acknowledged",
            acked.len() - before
        );
        check(&open().await, &tables, &acked, round).await;
    }
    // The load went on across the kills, and long enough for snapshots.
    let store = open().await;
    let mut longest = 0;
    for t in tables.iter() {
        let loaded = store.load_table(&t.id).await.unwrap().unwrap();
        longest = longest.max(loaded.summary.seq);
    }
    store.close().await;
    assert!(
        acked.len() >= KILLS,
        "only {} commands acknowledged",
        acked.len()
    );
    eprintln!(
        "{KILLS} kills: {} commands acknowledged, longest log {longest} rows",
        acked.len()
    );
}

fn acked_of(table: usize, seat: &'static str, v: &Value) -> Acked {
    let rows: Vec<u64> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(rows.last().copied(), v["seq"].as_u64(), "{v}");
    Acked { table, seat, rows }
}

/// After a kill: every acknowledged command in the log, no command half
/// there, every table loads, every snapshot is its log's replay.
async fn check(store: &Arc<dyn Store>, tables: &[Table], acked: &[Acked], round: usize) {
    // A COMMIT the killed server sent just before it died may still land in
    // PostgreSQL a moment later (the database finishes it without the
    // client): wait until every table's log stands still (bounded).
    for _ in 0..50 {
        let mut before = Vec::new();
        for t in tables {
            before.push(store.load_table(&t.id).await.unwrap().unwrap().summary.seq);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mut after = Vec::new();
        for t in tables {
            after.push(store.load_table(&t.id).await.unwrap().unwrap().summary.seq);
        }
        if before == after {
            break;
        }
    }
    for (i, t) in tables.iter().enumerate() {
        let loaded = store.load_table(&t.id).await.unwrap().unwrap();
        let entries = &loaded.entries;
        // No half command: the log ends at a command's end.
        if let Some(last) = entries.last() {
            assert!(last.command_end, "round {round} table {i}: a half command");
            assert!(last.roller.is_some(), "round {round} table {i}: no roller");
        }
        for a in acked.iter().filter(|a| a.table == i) {
            for (k, &seq) in a.rows.iter().enumerate() {
                let entry = entries
                    .get(usize::try_from(seq).unwrap() - 1)
                    .unwrap_or_else(|| {
                        panic!("round {round} table {i}: acknowledged row {seq} lost")
                    });
                assert_eq!(entry.seq, seq);
                assert_eq!(entry.seat, a.seat, "round {round} table {i} row {seq}");
                assert_eq!(entry.command_end, k + 1 == a.rows.len());
            }
        }
        // The table loads as the server loads it, and as a full replay.
        let table = tabula_server::state::load(store.as_ref(), &t.id)
            .await
            .unwrap();
        assert_eq!(table.seq(), loaded.summary.seq);
        let rows: Vec<_> = entries
            .iter()
            .cloned()
            .map(tabula_server::state::raw_row)
            .collect();
        let roller = loaded.initial_roller.clone().unwrap();
        let replayed =
            AnyTable::restore(SystemId::Bastards, &loaded.initial_state, &roller, &rows).unwrap();
        assert_eq!(table.state(), replayed.state(), "round {round} table {i}");
        assert_eq!(table.roller(), replayed.roller());
        if let Some(snapshot) = &loaded.snapshot {
            let at = usize::try_from(snapshot.seq).unwrap();
            assert!(at <= rows.len());
            assert!(entries[at - 1].command_end);
            let upto = AnyTable::restore(
                SystemId::Bastards,
                &loaded.initial_state,
                &roller,
                &rows[..at],
            )
            .unwrap();
            assert_eq!(upto.state(), snapshot.state, "round {round} table {i}");
            assert_eq!(Some(upto.roller()), snapshot.roller);
            // And the table rebuilt from the stored snapshot is the replayed one.
            let from = AnyTable::restore_from_snapshot(
                SystemId::Bastards,
                &loaded.initial_state,
                &roller,
                Some((snapshot.seq, &snapshot.state)),
                &rows,
            )
            .unwrap();
            assert_eq!(from.state(), replayed.state(), "round {round} table {i}");
            assert_eq!(from.raw_rows_after(0), replayed.raw_rows_after(0));
        } else {
            assert!(
                (rows.len() as u64) < tabula_store::SNAPSHOT_EVERY,
                "round {round} table {i}: {} rows and no snapshot",
                rows.len()
            );
        }
    }
    store.close().await;
}
