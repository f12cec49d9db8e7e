//! The PostgreSQL backend, for several stateless servers sharing one log. JSON is kept
//! in `json` columns (checked, kept verbatim) and read back as text; the
//! `(table_id, seq)` primary key of `entries` is the optimistic lock between servers.

use std::str::FromStr;

use async_trait::async_trait;
use serde_json::Value;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

use crate::common::{
    self, LoadRow, SeatRecordRow, SnapshotRow, StoredEntryRow, SummaryRow, seat_record,
    seq_from_db, seq_to_db, stored_entry,
};
use crate::{
    LoadedTable, NewEntry, NewTable, SeatRecord, Store, StoreError, StoredEntry, TableId,
    TableSummary,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The store in a PostgreSQL database (in one schema of it).
pub(crate) struct PgStore {
    pool: PgPool,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("connections", &self.pool.size())
            .finish_non_exhaustive()
    }
}

const SUMMARY_COLUMNS: &str = "t.id, t.system, t.name, t.created_ms, \
     COALESCE((SELECT MAX(e.seq) FROM entries e WHERE e.table_id = t.id), 0), \
     (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id)";

const ENTRY_COLUMNS: &str = "seq, seat, entry::text, at_ms, command_end, roller::text";

impl PgStore {
    /// Connects to a `postgres:` URL (in `schema`, created if missing, when given) and
    /// migrates.
    pub(crate) async fn open(url: &str, schema: Option<&str>) -> Result<PgStore, StoreError> {
        let mut options =
            PgConnectOptions::from_str(url).map_err(|e| StoreError::BadUrl(e.to_string()))?;
        if let Some(schema) = schema {
            common::check_schema_name(schema)?;
            let mut admin = options.connect().await?;
            let created = sqlx::query(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                .execute(&mut admin)
                .await;
            match created {
                // Two servers creating it at once: the loser's clash is harmless.
                Err(sqlx::Error::Database(db)) if db.is_unique_violation() => {}
                other => {
                    other?;
                }
            }
            admin.close().await?;
            options = options.options([("search_path", schema)]);
        }
        let pool = PgPoolOptions::new().connect_with(options).await?;
        MIGRATOR.run(&pool).await?;
        Ok(PgStore { pool })
    }

    /// A failed entry insert: a `(table_id, seq)` clash (another server appended first
    /// and committed) is a [`StoreError::Conflict`] at the log's seq now, anything else
    /// a database error.
    async fn unique_to_conflict(
        &self,
        error: sqlx::Error,
        tx: sqlx::Transaction<'static, sqlx::Postgres>,
        id: &str,
    ) -> StoreError {
        let unique = matches!(&error, sqlx::Error::Database(db) if db.is_unique_violation());
        if !unique {
            return error.into();
        }
        if let Err(error) = tx.rollback().await {
            return error.into();
        }
        let current: Result<i64, sqlx::Error> =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE table_id = $1")
                .bind(id)
                .fetch_one(&self.pool)
                .await;
        match current
            .map_err(StoreError::from)
            .and_then(|c| seq_from_db(c, "entries.seq"))
        {
            Ok(current) => StoreError::Conflict { current },
            Err(error) => error,
        }
    }
}

#[async_trait]
impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn create_table(&self, table: NewTable) -> Result<TableId, StoreError> {
        let row = common::prepare_table(table)?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO tables \
             (id, system, name, initial_state, initial_roller, roller, created_ms) \
             VALUES ($1, $2, $3, $4::json, $5::json, $5::json, $6)",
        )
        .bind(&row.id)
        .bind(&row.system)
        .bind(&row.name)
        .bind(&row.initial_state)
        .bind(&row.initial_roller)
        .bind(row.created_ms)
        .execute(&mut *tx)
        .await?;
        for seat in &row.seats {
            sqlx::query(
                "INSERT INTO seats (table_id, position, seat, role, display_name, token_hash) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&row.id)
            .bind(seat.position)
            .bind(&seat.seat)
            .bind(seat.role)
            .bind(&seat.display_name)
            .bind(&seat.token_hash)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(row.id)
    }

    async fn list_tables(&self) -> Result<Vec<TableSummary>, StoreError> {
        let rows: Vec<SummaryRow> = sqlx::query_as(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM tables t ORDER BY t.created_order DESC"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(common::summary).collect()
    }

    async fn count_tables(&self) -> Result<u64, StoreError> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tables")
            .fetch_one(&self.pool)
            .await?;
        seq_from_db(count, "COUNT(tables)")
    }

    async fn load_table(&self, id: &str) -> Result<Option<LoadedTable>, StoreError> {
        if !common::findable(&[id]) {
            return Ok(None);
        }
        // One snapshot for the summary, the seats and the entries.
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?;
        let row: Option<LoadRow> = sqlx::query_as(&format!(
            "SELECT {SUMMARY_COLUMNS}, t.initial_state::text, t.initial_roller::text \
             FROM tables t WHERE t.id = $1"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (summary, initial_state, initial_roller) = common::split_load_row(row)?;
        let seats: Vec<SeatRecordRow> = sqlx::query_as(
            "SELECT table_id, seat, role, display_name FROM seats \
             WHERE table_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let entries: Vec<StoredEntryRow> = sqlx::query_as(&format!(
            "SELECT {ENTRY_COLUMNS} FROM entries WHERE table_id = $1 ORDER BY seq"
        ))
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let snapshot: Option<SnapshotRow> = sqlx::query_as(
            "SELECT seq, state::text, roller::text FROM snapshots WHERE table_id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(LoadedTable {
            snapshot: snapshot.map(common::snapshot).transpose()?,
            summary,
            initial_state,
            initial_roller,
            seats: seats
                .into_iter()
                .map(seat_record)
                .collect::<Result<_, _>>()?,
            entries: entries
                .into_iter()
                .map(stored_entry)
                .collect::<Result<_, _>>()?,
        }))
    }

    async fn seat_for_token(
        &self,
        id: &str,
        token_hash: &str,
    ) -> Result<Option<SeatRecord>, StoreError> {
        if !common::findable(&[id, token_hash]) {
            return Ok(None);
        }
        let row: Option<SeatRecordRow> = sqlx::query_as(
            "SELECT table_id, seat, role, display_name FROM seats \
             WHERE table_id = $1 AND token_hash = $2 ORDER BY position LIMIT 1",
        )
        .bind(id)
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(seat_record).transpose()
    }

    async fn seats(&self, id: &str) -> Result<Vec<SeatRecord>, StoreError> {
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        // The table's row and its seats in one statement, so "no table" and "no seats"
        // differ: a missing table gives no row at all.
        let rows: Vec<(
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        )> = sqlx::query_as(
            "SELECT s.table_id, s.seat, s.role, s.display_name FROM tables t \
                 LEFT JOIN seats s ON s.table_id = t.id \
                 WHERE t.id = $1 ORDER BY s.position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        if rows.is_empty() {
            return Err(StoreError::NotFound);
        }
        rows.into_iter()
            .filter_map(|row| match row {
                (Some(table_id), Some(seat), Some(role), Some(display_name)) => {
                    Some(seat_record((table_id, seat, role, display_name)))
                }
                _ => None,
            })
            .collect()
    }

    async fn append_with_snapshot(
        &self,
        id: &str,
        expect_seq: u64,
        entries: Vec<NewEntry>,
        roller_after: Option<Value>,
        snapshot_state: Option<Value>,
    ) -> Result<u64, StoreError> {
        let rows = common::prepare_append(
            expect_seq,
            entries,
            roller_after.as_ref(),
            snapshot_state.as_ref(),
        )?;
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self.pool.begin().await?;
        let current: Option<i64> = sqlx::query_scalar(
            "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE table_id = $1), 0) \
             FROM tables WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(current) = current else {
            return Err(StoreError::NotFound);
        };
        if current != rows.expect {
            return Err(StoreError::Conflict {
                current: seq_from_db(current, "entries.seq")?,
            });
        }
        // Another server may have read the same seq: the first to insert seq
        // expect + 1 wins, the other waits for its commit and then hits the key.
        for entry in &rows.entries {
            let inserted = sqlx::query(
                "INSERT INTO entries (table_id, seq, seat, entry, at_ms, command_end, roller) \
                 VALUES ($1, $2, $3, $4::json, $5, $6, $7::json)",
            )
            .bind(id)
            .bind(entry.seq)
            .bind(&entry.seat)
            .bind(&entry.entry)
            .bind(rows.at_ms)
            .bind(entry.command_end)
            .bind(&entry.roller)
            .execute(&mut *tx)
            .await;
            if let Err(error) = inserted {
                return Err(self.unique_to_conflict(error, tx, id).await);
            }
        }
        sqlx::query("UPDATE tables SET roller = $1::json WHERE id = $2")
            .bind(&rows.roller)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if let Some(state) = &rows.snapshot {
            sqlx::query(
                "INSERT INTO snapshots (table_id, seq, state, roller) \
                 VALUES ($1, $2, $3::json, $4::json) \
                 ON CONFLICT (table_id) DO UPDATE \
                 SET seq = excluded.seq, state = excluded.state, roller = excluded.roller",
            )
            .bind(id)
            .bind(seq_to_db(rows.last)?)
            .bind(state)
            .bind(&rows.roller)
            .execute(&mut *tx)
            .await?;
        }
        // Delivered to every listener when (and only if) the transaction commits.
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(crate::NOTIFY_CHANNEL)
            .bind(format!("{id} {}", rows.last))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(rows.last)
    }

    async fn entries_after(&self, id: &str, after: u64) -> Result<Vec<StoredEntry>, StoreError> {
        let after = seq_to_db(after)?;
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?;
        let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM tables WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Err(StoreError::NotFound);
        }
        let rows: Vec<StoredEntryRow> = sqlx::query_as(&format!(
            "SELECT {ENTRY_COLUMNS} FROM entries WHERE table_id = $1 AND seq > $2 ORDER BY seq"
        ))
        .bind(id)
        .bind(after)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.into_iter().map(stored_entry).collect()
    }

    async fn reissue_token(
        &self,
        id: &str,
        seat: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError> {
        common::check_text(token_hash, "token hash")?;
        if !common::findable(&[id, seat]) {
            return Ok(false);
        }
        let mut tx = self.pool.begin().await?;
        let done =
            sqlx::query("UPDATE seats SET token_hash = $1 WHERE table_id = $2 AND seat = $3")
                .bind(token_hash)
                .bind(id)
                .bind(seat)
                .execute(&mut *tx)
                .await?;
        let found = done.rows_affected() > 0;
        if found {
            // Other servers close that seat's sockets holding the old token.
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(crate::NOTIFY_CHANNEL)
                .bind(format!("{id} reissue {seat}"))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(found)
    }

    async fn follow(&self) -> Result<Option<crate::Feed>, StoreError> {
        Ok(Some(crate::Feed::listen(&self.pool).await?))
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
