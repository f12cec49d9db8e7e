//! The SQLite file's appender: one thread that owns a connection of its own
//! and writes every table's appends, several at a time in one transaction
//! (issue 28).
//!
//! Through sqlx, an append was five trips to the connection's worker thread
//! (`BEGIN IMMEDIATE`, the seq check, the rows, `COMMIT`, and the pool's ping
//! as the connection went back), each waking two threads: a profile of the
//! server at 100 tables put half its CPU in the SQLite thread, the wake-ups
//! and the commit. Here an append is one message to this thread and one
//! answer; the appends waiting when the thread wakes (up to [`MAX_BATCH`],
//! from any tables) share one transaction, so one commit and its WAL frames
//! serve all of them. Each runs in its own savepoint: one refused (a stale
//! seq, an ended table) changes nothing and does not stop the others.
//!
//! The thread holds the store's writer lock (`SqliteStore::writer`) around
//! each transaction, so the store's other writes, which go through sqlx,
//! queue behind it instead of in SQLite's sleeping busy handler.

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use crate::common::{AppendRows, LineRow, check_append_head};
use crate::{SQLITE_BUSY_TIMEOUT, StoreError};

/// Appends one transaction takes at most: a bound on how long the first of
/// them waits for the commit behind the others.
pub(crate) const MAX_BATCH: usize = 64;

/// WAL pages (4 KiB each) after which a commit copies the WAL back into the
/// file (SQLite's default is 1,000). A page written by many commits is copied
/// once per checkpoint, so fewer, larger checkpoints copy less: at 1,000 the
/// checkpoint was 11% of the server's CPU at 100 tables, and 10,000 took the
/// CPU per command from 0.61 to 0.51 ms (docs/BENCHMARKS.md). The WAL file
/// grows to about 40 MiB.
pub(crate) const WAL_AUTOCHECKPOINT: u32 = 10_000;

/// One append, checked and encoded ([`crate::common::prepare_append`],
/// [`crate::common::prepare_lines`]), with where its answer goes.
pub(crate) struct Job {
    /// The table.
    pub id: String,
    /// Its journal rows, new roller state and snapshot.
    pub rows: AppendRows,
    /// Its described log lines.
    pub lines: Vec<LineRow>,
    /// True when `lines` describe every row (the table's `lines_through`
    /// moves on with them).
    pub described: bool,
    /// The answer: the table's seq after the append, or why nothing changed.
    pub reply: tokio::sync::oneshot::Sender<Result<u64, StoreError>>,
}

/// The appender thread and the way to it.
pub(crate) struct Appender {
    /// `None` once stopped.
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Appender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appender").finish_non_exhaustive()
    }
}

impl Appender {
    /// Opens a connection to the (already migrated, WAL-mode) file at `path`
    /// with the store's settings (synchronous `NORMAL`, foreign keys on, the
    /// busy timeout) and starts the thread.
    ///
    /// # Errors
    /// [`StoreError::Database`] when the file cannot be opened or the thread
    /// cannot start.
    pub(crate) fn start(
        path: &Path,
        writer: Arc<tokio::sync::Mutex<()>>,
    ) -> Result<Appender, StoreError> {
        let conn = Connection::open(path).map_err(database)?;
        conn.busy_timeout(SQLITE_BUSY_TIMEOUT).map_err(database)?;
        conn.execute_batch(&format!(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
             PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT};"
        ))
        .map_err(database)?;
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("tabula-sqlite-appender".into())
            .spawn(move || run(conn, &rx, &writer))
            .map_err(|e| StoreError::Database(format!("cannot start the appender: {e}")))?;
        Ok(Appender {
            jobs: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Writes one append and waits for the answer.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] (no such table), [`StoreError::Ended`],
    /// [`StoreError::Conflict`] (the table is not at `rows.expect`), or
    /// [`StoreError::Database`] (the file failed, or the store is closed).
    /// Nothing is written on any error.
    pub(crate) async fn append(
        &self,
        id: &str,
        rows: AppendRows,
        lines: Vec<LineRow>,
        described: bool,
    ) -> Result<u64, StoreError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = Job {
            id: id.to_owned(),
            rows,
            lines,
            described,
            reply,
        };
        let sent = match lock(&self.jobs).as_ref() {
            Some(jobs) => jobs.send(job).is_ok(),
            None => false,
        };
        if !sent {
            return Err(closed());
        }
        answer.await.unwrap_or_else(|_| Err(closed()))
    }

    /// Stops the thread once the appends already sent are written, and waits
    /// for it (its connection is closed when it returns).
    pub(crate) async fn stop(&self) {
        lock(&self.jobs).take();
        let thread = lock(&self.thread).take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }
}

impl Drop for Appender {
    fn drop(&mut self) {
        lock(&self.jobs).take();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn closed() -> StoreError {
    StoreError::Database("the store is closed".into())
}

fn database(e: rusqlite::Error) -> StoreError {
    database_ref(&e)
}

/// The thread: take the appends waiting, write them in one transaction,
/// answer each; until every sender is gone.
fn run(mut conn: Connection, jobs: &mpsc::Receiver<Job>, writer: &tokio::sync::Mutex<()>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let results = {
            let _writer = writer.blocking_lock();
            write_batch(&mut conn, &batch)
        };
        for (job, result) in batch.into_iter().zip(results) {
            let _ = job.reply.send(result);
        }
    }
}

/// One transaction for `batch`, one savepoint per append: the answers, in
/// order. When the transaction itself fails, every append gets the error and
/// none is written.
fn write_batch(conn: &mut Connection, batch: &[Job]) -> Vec<Result<u64, StoreError>> {
    let everyone = |e: &rusqlite::Error| batch.iter().map(|_| Err(database_ref(e))).collect();
    let mut tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return everyone(&e),
    };
    if let [job] = batch {
        // Alone: no savepoint; a refusal rolls the transaction back.
        return vec![match write_one(&tx, job) {
            Ok(seq) => tx.commit().map(|()| seq).map_err(database),
            Err(e) => tx.rollback().map_or_else(|r| Err(database(r)), |()| Err(e)),
        }];
    }
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let sp = match tx.savepoint() {
            Ok(sp) => sp,
            Err(e) => return everyone(&e),
        };
        let result = write_one(&sp, job);
        // A refused append's savepoint is rolled back and released
        // (`finish`); if that fails, what the transaction holds is unknown, and
        // it is rolled back whole (dropping `tx`).
        let done = if result.is_ok() {
            sp.commit()
        } else {
            sp.finish()
        };
        if let Err(e) = done {
            return everyone(&e);
        }
        results.push(result);
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => everyone(&e),
    }
}

fn database_ref(e: &rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

/// The append of `job` inside the open transaction: the seq check, the rows,
/// their lines, the table's roller and touch, the snapshot.
fn write_one(conn: &Connection, job: &Job) -> Result<u64, StoreError> {
    let Job {
        id,
        rows,
        lines,
        described,
        ..
    } = job;
    // An ended table's log is closed (`end_table`).
    let current: Option<(i64, Option<i64>)> = conn
        .prepare_cached(
            "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE table_id = ?1), 0), ended_ms \
             FROM tables WHERE id = ?1",
        )
        .map_err(database)?
        .query_row(params![id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()
        .map_err(database)?;
    check_append_head(current, rows.expect)?;
    let mut insert = conn
        .prepare_cached(
            "INSERT INTO entries (table_id, seq, seat, entry, at_ms, command_end, roller) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .map_err(database)?;
    for e in &rows.entries {
        insert
            .execute(params![
                id,
                e.seq,
                e.seat,
                e.entry,
                rows.at_ms,
                e.command_end,
                e.roller
            ])
            .map_err(database)?;
    }
    let mut insert = conn
        .prepare_cached("INSERT INTO log_lines (table_id, seat, seq, line) VALUES (?1, ?2, ?3, ?4)")
        .map_err(database)?;
    for l in lines {
        insert
            .execute(params![id, l.seat, l.seq, l.line])
            .map_err(database)?;
    }
    let last = i64::try_from(rows.last).map_err(|_| StoreError::SeqOutOfRange(rows.last))?;
    conn.prepare_cached(
        "UPDATE tables SET roller = ?1, \
         lines_through = CASE WHEN ?2 AND lines_through = ?3 THEN ?4 ELSE lines_through END, \
         touched_ms = MAX(touched_ms, ?5) WHERE id = ?6",
    )
    .map_err(database)?
    .execute(params![
        rows.roller,
        described,
        rows.expect,
        last,
        rows.at_ms,
        id
    ])
    .map_err(database)?;
    if let Some(state) = &rows.snapshot {
        conn.prepare_cached(
            "INSERT INTO snapshots (table_id, seq, state, roller) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT (table_id) DO UPDATE \
             SET seq = excluded.seq, state = excluded.state, roller = excluded.roller",
        )
        .map_err(database)?
        .execute(params![id, last, state, rows.roller])
        .map_err(database)?;
    }
    Ok(rows.last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::{prepare_append, prepare_lines};
    use crate::{NewEntry, NewLine, NewTable, Store};
    use serde_json::json;

    /// A table named `name` with no seats and an empty state.
    fn bare_table(name: &str) -> NewTable {
        NewTable {
            system: "bastards".into(),
            name: name.into(),
            initial_state: json!({}),
            roller: None,
            seats: vec![],
            campaign: None,
        }
    }

    /// A migrated file with `n` tables, and a connection of the appender's kind.
    async fn tables(
        n: usize,
    ) -> (
        tempfile::TempDir,
        std::sync::Arc<dyn Store>,
        Connection,
        Vec<String>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tabula.db");
        let store = crate::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        let mut ids = Vec::new();
        for i in 0..n {
            let id = store
                .create_table(bare_table(&format!("table {i}")))
                .await
                .unwrap();
            ids.push(id.to_string());
        }
        let conn = Connection::open(&path).unwrap();
        conn.busy_timeout(SQLITE_BUSY_TIMEOUT).unwrap();
        (dir, store, conn, ids)
    }

    /// An append of `count` rows to `id` at `expect`, with one line per row,
    /// and the receiver of its answer (unused: `write_batch` is called
    /// directly).
    fn job(id: &str, expect: u64, count: usize) -> Job {
        let entries = (0..count)
            .map(|i| NewEntry {
                seat: "gm".into(),
                entry: json!({ "n": i }),
            })
            .collect();
        let rows = prepare_append(expect, entries, Some(&json!({"roller": expect})), None).unwrap();
        let lines = (0..count as u64)
            .map(|i| NewLine {
                seq: expect + 1 + i,
                seat: "gm".into(),
                line: json!({ "text": i }),
            })
            .collect();
        let lines = prepare_lines(lines, expect + 1, rows.last).unwrap();
        Job {
            id: id.into(),
            rows,
            lines,
            described: true,
            reply: tokio::sync::oneshot::channel().0,
        }
    }

    fn seq_of(conn: &Connection, id: &str) -> i64 {
        conn.query_row(
            "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE table_id = ?1",
            params![id],
            |r| r.get(0),
        )
        .unwrap()
    }

    fn lines_of(conn: &Connection, id: &str) -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM log_lines WHERE table_id = ?1",
            params![id],
            |r| r.get(0),
        )
        .unwrap()
    }

    /// One transaction of several tables' appends: each is answered as if it
    /// were alone; a refused one (stale seq, no such table, an ended table, a
    /// duplicate line) writes nothing, and the others land.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_batch_answers_each_append_as_if_it_were_alone() {
        let (_dir, store, mut conn, ids) = tables(4).await;
        store.end_table(&ids[3], vec![]).await.unwrap();
        let mut duplicate = job(&ids[2], 0, 2);
        let again = duplicate.lines[0].seq;
        duplicate.lines[1].seq = again;
        let batch = vec![
            job(&ids[0], 0, 3),
            job(&ids[1], 5, 1), // stale: the table is at 0
            job(&ids[0], 3, 2), // follows the first, in the same transaction
            job("00000000000000000000000000000000", 0, 1),
            job(&ids[3], 0, 1), // ended
            duplicate,          // a duplicate log line: the database's error
            job(&ids[1], 0, 1),
        ];
        let results = write_batch(&mut conn, &batch);
        assert!(matches!(results[0], Ok(3)), "{:?}", results[0]);
        assert!(
            matches!(results[1], Err(StoreError::Conflict { current: 0 })),
            "{:?}",
            results[1]
        );
        assert!(matches!(results[2], Ok(5)), "{:?}", results[2]);
        assert!(
            matches!(results[3], Err(StoreError::NotFound)),
            "{:?}",
            results[3]
        );
        assert!(
            matches!(results[4], Err(StoreError::Ended)),
            "{:?}",
            results[4]
        );
        assert!(
            matches!(&results[5], Err(StoreError::Database(m)) if m.contains("UNIQUE")),
            "{:?}",
            results[5]
        );
        assert!(matches!(results[6], Ok(1)), "{:?}", results[6]);
        assert_eq!(seq_of(&conn, &ids[0]), 5);
        assert_eq!(lines_of(&conn, &ids[0]), 5);
        assert_eq!(seq_of(&conn, &ids[1]), 1);
        assert_eq!(seq_of(&conn, &ids[2]), 0, "the refused append left nothing");
        assert_eq!(lines_of(&conn, &ids[2]), 0);
        assert_eq!(seq_of(&conn, &ids[3]), 0);
        // The store reads what the appender wrote, lines and all.
        let loaded = store.load_table(&ids[0]).await.unwrap().unwrap();
        assert_eq!(loaded.entries.len(), 5);
        assert_eq!(loaded.lines_through, 5);
        store.close().await;
    }

    /// Alone, a refused append rolls its transaction back and writes nothing.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_refused_append_alone_writes_nothing() {
        let (_dir, store, mut conn, ids) = tables(1).await;
        let results = write_batch(&mut conn, &[job(&ids[0], 2, 1)]);
        assert!(matches!(
            results[0],
            Err(StoreError::Conflict { current: 0 })
        ));
        let results = write_batch(&mut conn, &[job(&ids[0], 0, 2)]);
        assert!(matches!(results[0], Ok(2)));
        assert_eq!(seq_of(&conn, &ids[0]), 2);
        store.close().await;
    }

    /// `sqlite::memory:` is a private file the appender's connection shares:
    /// an append lands and reads back; once the store is closed an append is
    /// refused, not lost in a channel nobody reads.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_memory_store_appends_through_the_appender_too() {
        let store = crate::open("sqlite::memory:").await.unwrap();
        let id = store.create_table(bare_table("memory")).await.unwrap();
        let entries = vec![NewEntry {
            seat: "gm".into(),
            entry: json!({"n": 1}),
        }];
        assert_eq!(store.append(&id, 0, entries, None).await.unwrap(), 1);
        let loaded = store.load_table(&id).await.unwrap().unwrap();
        assert_eq!(loaded.entries.len(), 1);
        store.close().await;
        let entries = vec![NewEntry {
            seat: "gm".into(),
            entry: json!({"n": 2}),
        }];
        assert!(matches!(
            store.append(&id, 1, entries, None).await,
            Err(StoreError::Database(m)) if m.contains("closed")
        ));
    }
}
