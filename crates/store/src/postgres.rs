//! The PostgreSQL backend, for several stateless servers sharing one log. JSON is kept
//! in `json` columns (checked, kept verbatim) and read back as text; the
//! `(table_id, seq)` primary key of `entries` is the optimistic lock between servers.

use std::str::FromStr;

use async_trait::async_trait;
use serde_json::Value;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection};

use crate::common::{
    self, CAMPAIGN_COLUMNS, CHARACTER_COLUMNS, CHARACTER_FROM, CampaignSeatRow, CampaignSummaryRow,
    CharacterEventRow, CharacterRecordRow, EventRow, LineRow, LineRowOut, LoadRow, SeatRecordRow,
    SnapshotRow, StoredEntryRow, SummaryRow, seat_record, seq_from_db, seq_to_db, stored_entry,
};
use crate::{
    CampaignId, CampaignPage, CampaignSeat, CampaignSummary, CharacterEvent, CharacterQuery,
    CharacterRecord, CharacterWrite, LinePage, LineQuery, LoadedCampaign, LoadedTable, NewCampaign,
    NewCharacter, NewCharacterEvent, NewEntry, NewLine, NewTable, SeatRecord, Store, StoreError,
    StoredEntry, TableId, TableSummary,
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
     (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id), t.campaign_id, t.ended_ms, t.touched_ms";

/// The page of campaign `$1`'s characters that seat `$2` owns
/// (every one when NULL), after the one added at `$3`, in the order
/// added, at most `$4`: for [`Store::campaign_page`]'s sheets' sizes and its
/// characters alike.
const PAGE_OF_CHARACTERS: &str = "WHERE h.campaign_id = $1 AND (CAST($2 AS TEXT) IS NULL OR h.owner = $2) AND h.created_order > $3 \
     ORDER BY h.created_order LIMIT $4";

const ENTRY_COLUMNS: &str = "seq, seat, entry::text, at_ms, command_end, roller::text";

const EVENT_COLUMNS: &str = "seq, seat, kind, entry::text, sheet, at_ms";

impl PgStore {
    /// [`Store::load_table`] (`tail` false) or [`Store::load_table_tail`].
    async fn load(&self, id: &str, tail: bool) -> Result<Option<LoadedTable>, StoreError> {
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
        let snapshot: Option<SnapshotRow> = sqlx::query_as(
            "SELECT seq, state::text, roller::text FROM snapshots WHERE table_id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        // A tail load reads the rows from the snapshot's own row on (issue 28,
        // item 1); without a snapshot, every row.
        let from: i64 = match (&snapshot, tail) {
            (Some((seq, _, _)), true) => *seq,
            _ => 0,
        };
        let entries: Vec<StoredEntryRow> = sqlx::query_as(&format!(
            "SELECT {ENTRY_COLUMNS} FROM entries WHERE table_id = $1 AND seq >= $2 ORDER BY seq"
        ))
        .bind(id)
        .bind(from)
        .fetch_all(&mut *tx)
        .await?;
        let lines_through: i64 =
            sqlx::query_scalar("SELECT lines_through FROM tables WHERE id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(Some(LoadedTable {
            lines_through: seq_from_db(lines_through, "tables.lines_through")?,
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
        // No ping before each acquire (issue 28: it was a round trip per statement's
        // connection, four per command). A connection the server dropped fails its
        // next statement instead; sqlx closes it and the pool opens another.
        let pool = PgPoolOptions::new()
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(PgStore { pool })
    }

    /// `error` from an append that expected the table at seq `expect`: a
    /// unique violation after another process appended (its rows or their
    /// lines hold the keys: which one the statement reports first is not
    /// fixed) is [`StoreError::Conflict`] with the current seq; one with the
    /// table still at `expect` is the caller's own (a line given twice) and
    /// stays the database's error.
    async fn unique_to_conflict(
        &self,
        error: sqlx::Error,
        tx: sqlx::Transaction<'static, sqlx::Postgres>,
        id: &str,
        expect: i64,
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
        match current {
            Ok(current) if current == expect => error.into(),
            current => match current
                .map_err(StoreError::from)
                .and_then(|c| seq_from_db(c, "entries.seq"))
            {
                Ok(current) => StoreError::Conflict { current },
                Err(error) => error,
            },
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
        if let Some(campaign) = &row.campaign {
            let system: Option<String> =
                sqlx::query_scalar("SELECT system FROM campaigns WHERE id = $1")
                    .bind(campaign)
                    .fetch_optional(&mut *tx)
                    .await?;
            common::check_campaign_system(system, &row.system)?;
        }
        sqlx::query(
            "INSERT INTO tables \
             (id, system, name, initial_state, initial_roller, roller, created_ms, campaign_id, \
              touched_ms) \
             VALUES ($1, $2, $3, $4::json, $5::json, $5::json, $6, $7, $6)",
        )
        .bind(&row.id)
        .bind(&row.system)
        .bind(&row.name)
        .bind(&row.initial_state)
        .bind(&row.initial_roller)
        .bind(row.created_ms)
        .bind(&row.campaign)
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

    async fn set_table_source(&self, id: &str, source: &Value) -> Result<(), StoreError> {
        let text = common::encode_state(source, "table source")?;
        common::check_text(&text, "table source")?;
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let done = sqlx::query("UPDATE tables SET source = $2 WHERE id = $1")
            .bind(id)
            .bind(text)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn table_source(&self, id: &str) -> Result<Option<Value>, StoreError> {
        if !common::findable(&[id]) {
            return Ok(None);
        }
        let text: Option<Option<String>> =
            sqlx::query_scalar("SELECT source FROM tables WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        text.flatten()
            .map(|t| common::decode_json(&t, "tables.source"))
            .transpose()
    }

    async fn load_table(&self, id: &str) -> Result<Option<LoadedTable>, StoreError> {
        self.load(id, false).await
    }

    async fn load_table_tail(&self, id: &str) -> Result<Option<LoadedTable>, StoreError> {
        self.load(id, true).await
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

    async fn append_with_lines(
        &self,
        id: &str,
        expect_seq: u64,
        entries: Vec<NewEntry>,
        roller_after: Option<Value>,
        snapshot_state: Option<Value>,
        lines: Option<Vec<NewLine>>,
    ) -> Result<u64, StoreError> {
        let rows = common::prepare_append(
            expect_seq,
            entries,
            roller_after.as_ref(),
            snapshot_state.as_ref(),
        )?;
        let described = lines.is_some();
        let lines = common::prepare_lines(lines.unwrap_or_default(), expect_seq + 1, rows.last)?;
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self.pool.begin().await?;
        // An ended table's log is closed (`end_table`).
        let current: Option<(i64, Option<i64>)> = sqlx::query_as(
            "SELECT COALESCE((SELECT MAX(seq) FROM entries WHERE table_id = $1), 0), ended_ms \
             FROM tables WHERE id = $1 FOR UPDATE",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        common::check_append_head(current, rows.expect)?;
        // Another server may have read the same seq: the first to insert seq
        // expect + 1 wins, the other waits for its commit and then hits the key.
        //
        // One statement writes the rows, their lines and the table's roller
        // and notifies (delivered when, and only if, the transaction
        // commits): with BEGIN, the seq check and COMMIT, four round trips
        // per command whatever its rows (issue 28).
        let appended = sqlx::query(
            "WITH e AS ( \
               INSERT INTO entries (table_id, seq, seat, entry, at_ms, command_end, roller) \
               SELECT $1, u.seq, u.seat, u.entry::json, $2, u.command_end, u.roller::json \
               FROM UNNEST($3::bigint[], $4::text[], $5::text[], $6::bool[], $7::text[]) \
                 AS u(seq, seat, entry, command_end, roller) \
             ), l AS ( \
               INSERT INTO log_lines (table_id, seat, seq, line) \
               SELECT $1, v.seat, v.seq, v.line::json \
               FROM UNNEST($8::text[], $9::bigint[], $10::text[]) AS v(seat, seq, line) \
             ) \
             UPDATE tables SET roller = $11::json, lines_through = CASE \
               WHEN $12 AND lines_through = $13 THEN $14 ELSE lines_through END, \
               touched_ms = GREATEST(touched_ms, $2) \
             WHERE id = $1 \
             RETURNING pg_notify($15, $16)",
        )
        .bind(id)
        .bind(rows.at_ms)
        .bind(rows.entries.iter().map(|e| e.seq).collect::<Vec<i64>>())
        .bind(
            rows.entries
                .iter()
                .map(|e| e.seat.as_str())
                .collect::<Vec<&str>>(),
        )
        .bind(
            rows.entries
                .iter()
                .map(|e| e.entry.as_str())
                .collect::<Vec<&str>>(),
        )
        .bind(
            rows.entries
                .iter()
                .map(|e| e.command_end)
                .collect::<Vec<bool>>(),
        )
        .bind(
            rows.entries
                .iter()
                .map(|e| e.roller.as_deref())
                .collect::<Vec<Option<&str>>>(),
        )
        .bind(lines.iter().map(|l| l.seat.as_str()).collect::<Vec<&str>>())
        .bind(lines.iter().map(|l| l.seq).collect::<Vec<i64>>())
        .bind(lines.iter().map(|l| l.line.as_str()).collect::<Vec<&str>>())
        .bind(&rows.roller)
        .bind(described)
        .bind(rows.expect)
        .bind(seq_to_db(rows.last)?)
        .bind(crate::NOTIFY_CHANNEL)
        .bind(format!("{id} {}", rows.last))
        .execute(&mut *tx)
        .await;
        if let Err(error) = appended {
            return Err(self.unique_to_conflict(error, tx, id, rows.expect).await);
        }
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

    async fn put_lines(
        &self,
        id: &str,
        through: u64,
        lines: Vec<NewLine>,
    ) -> Result<(), StoreError> {
        let through_db = seq_to_db(through)?;
        let lines = common::prepare_lines(lines, 1, through)?;
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self.pool.begin().await?;
        let exists: Option<i64> =
            sqlx::query_scalar("SELECT lines_through FROM tables WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        if exists.is_none() {
            return Err(StoreError::NotFound);
        }
        insert_lines(&mut tx, id, &lines, true).await?;
        sqlx::query("UPDATE tables SET lines_through = $2 WHERE id = $1 AND lines_through < $2")
            .bind(id)
            .bind(through_db)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn log_lines(
        &self,
        id: &str,
        seat: &str,
        query: LineQuery,
    ) -> Result<LinePage, StoreError> {
        if !common::findable(&[id, seat]) || query.limit == 0 {
            return Ok(LinePage {
                lines: Vec::new(),
                more: false,
            });
        }
        let (after, through, fetch) = common::line_bounds(&query);
        let order = if query.newest { "DESC" } else { "ASC" };
        let rows: Vec<LineRowOut> = sqlx::query_as(&format!(
            "SELECT seq, line::text FROM log_lines \
             WHERE table_id = $1 AND seat = $2 AND seq > $3 AND seq <= $4 \
             ORDER BY seq {order} LIMIT $5"
        ))
        .bind(id)
        .bind(seat)
        .bind(after)
        .bind(through)
        .bind(fetch)
        .fetch_all(&self.pool)
        .await?;
        common::line_page(&query, rows)
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

    async fn reissue_campaign_token(
        &self,
        campaign: &str,
        seat: &str,
        token_hash: &str,
    ) -> Result<Option<Vec<(String, String)>>, StoreError> {
        common::check_text(token_hash, "token hash")?;
        if !common::findable(&[campaign, seat]) {
            return Ok(None);
        }
        let mut tx = self.pool.begin().await?;
        let old: Option<String> = sqlx::query_scalar(
            "SELECT token_hash FROM campaign_seats WHERE campaign_id = $1 AND seat = $2",
        )
        .bind(campaign)
        .bind(seat)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(old) = old else {
            return Ok(None);
        };
        sqlx::query(
            "UPDATE campaign_seats SET token_hash = $3 WHERE campaign_id = $1 AND seat = $2",
        )
        .bind(campaign)
        .bind(seat)
        .bind(token_hash)
        .execute(&mut *tx)
        .await?;
        let changed: Vec<(String, String)> = sqlx::query_as(
            "UPDATE seats SET token_hash = $3 \
             WHERE token_hash = $2 \
               AND table_id IN (SELECT id FROM tables WHERE campaign_id = $1) \
             RETURNING table_id, seat",
        )
        .bind(campaign)
        .bind(&old)
        .bind(token_hash)
        .fetch_all(&mut *tx)
        .await?;
        for (table, table_seat) in &changed {
            // Other servers close that seat's sockets holding the old token.
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(crate::NOTIFY_CHANNEL)
                .bind(format!("{table} reissue {table_seat}"))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(Some(changed))
    }

    async fn follow(&self) -> Result<Option<crate::Feed>, StoreError> {
        Ok(Some(crate::Feed::listen(&self.pool).await?))
    }

    async fn create_campaign(&self, campaign: NewCampaign) -> Result<CampaignId, StoreError> {
        let row = common::prepare_campaign(campaign)?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO campaigns (id, system, name, created_ms, settings) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&row.id)
        .bind(&row.system)
        .bind(&row.name)
        .bind(row.created_ms)
        .bind(&row.settings)
        .execute(&mut *tx)
        .await?;
        for seat in &row.seats {
            sqlx::query(
                "INSERT INTO campaign_seats \
                 (campaign_id, position, seat, role, display_name, token_hash) \
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

    async fn list_campaigns(&self) -> Result<Vec<CampaignSummary>, StoreError> {
        let rows: Vec<CampaignSummaryRow> = sqlx::query_as(&format!(
            "SELECT {CAMPAIGN_COLUMNS} FROM campaigns c ORDER BY c.created_order DESC"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(common::campaign_summary).collect()
    }

    async fn load_campaign(&self, id: &str) -> Result<Option<LoadedCampaign>, StoreError> {
        if !common::findable(&[id]) {
            return Ok(None);
        }
        // One snapshot for the summary, the seats, the characters and the tables.
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?;
        let Some((row, seats, tables)) = campaign_head(&mut tx, id).await? else {
            return Ok(None);
        };
        let characters: Vec<CharacterRecordRow> = sqlx::query_as(&format!(
            "SELECT {CHARACTER_COLUMNS} FROM {CHARACTER_FROM} \
             WHERE h.campaign_id = $1 ORDER BY h.created_order"
        ))
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        common::loaded_campaign(row, seats, characters, tables).map(Some)
    }

    async fn campaign_page(
        &self,
        id: &str,
        query: &CharacterQuery,
    ) -> Result<Option<CampaignPage>, StoreError> {
        let owner = query.owner.as_deref();
        let after = query.after.as_deref();
        if !common::findable(&[id]) {
            return Ok(None);
        }
        if !common::findable(&[owner.unwrap_or(""), after.unwrap_or("")]) {
            return Err(StoreError::CharacterNotFound);
        }
        // One read transaction: the page, the counts and the cursor agree.
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?;
        let Some((row, seats, tables)) = campaign_head(&mut tx, id).await? else {
            return Ok(None);
        };
        // The cursor's place in the order added (before every character when absent).
        let from: i64 = match after {
            None => i64::MIN,
            Some(after) => sqlx::query_scalar(
                "SELECT created_order FROM characters \
                 WHERE id = $1 AND campaign_id = $2 AND (CAST($3 AS TEXT) IS NULL OR owner = $3)",
            )
            .bind(after)
            .bind(id)
            .bind(owner)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::CharacterNotFound)?,
        };
        // Every character the seat may see, and those after the cursor.
        let (total, remaining): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE created_order > $3) FROM characters \
             WHERE campaign_id = $1 AND (CAST($2 AS TEXT) IS NULL OR owner = $2)",
        )
        .bind(id)
        .bind(owner)
        .bind(from)
        .fetch_one(&mut *tx)
        .await?;
        let mut limit = common::character_limit(query);
        if let (Some(max_bytes), true) = (query.max_bytes, limit > 0) {
            // The sheets' sizes only: the page ends where they pass the budget.
            let sizes: Vec<i64> = sqlx::query_scalar(&format!(
                "SELECT octet_length(e.sheet)::BIGINT FROM {CHARACTER_FROM} {PAGE_OF_CHARACTERS}"
            ))
            .bind(id)
            .bind(owner)
            .bind(from)
            .bind(limit)
            .fetch_all(&mut *tx)
            .await?;
            limit = common::sheets_fitting(&sizes, max_bytes);
        }
        let characters: Vec<CharacterRecordRow> = if limit == 0 {
            Vec::new()
        } else {
            sqlx::query_as(&format!(
                "SELECT {CHARACTER_COLUMNS} FROM {CHARACTER_FROM} {PAGE_OF_CHARACTERS}"
            ))
            .bind(id)
            .bind(owner)
            .bind(from)
            .bind(limit)
            .fetch_all(&mut *tx)
            .await?
        };
        tx.commit().await?;
        common::campaign_page(row, seats, tables, characters, total, remaining).map(Some)
    }

    async fn campaign_seat_for_token(
        &self,
        campaign: &str,
        token_hash: &str,
    ) -> Result<Option<CampaignSeat>, StoreError> {
        if !common::findable(&[campaign, token_hash]) {
            return Ok(None);
        }
        let row: Option<CampaignSeatRow> = sqlx::query_as(
            "SELECT campaign_id, seat, role, display_name FROM campaign_seats \
             WHERE campaign_id = $1 AND token_hash = $2 ORDER BY position LIMIT 1",
        )
        .bind(campaign)
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(common::campaign_seat).transpose()
    }

    async fn campaign_token_hash(
        &self,
        campaign: &str,
        seat: &str,
    ) -> Result<Option<String>, StoreError> {
        if !common::findable(&[campaign, seat]) {
            return Ok(None);
        }
        Ok(sqlx::query_scalar(
            "SELECT token_hash FROM campaign_seats WHERE campaign_id = $1 AND seat = $2",
        )
        .bind(campaign)
        .bind(seat)
        .fetch_optional(&self.pool)
        .await?)
    }

    async fn add_character(
        &self,
        campaign: &str,
        character: NewCharacter,
    ) -> Result<CharacterRecord, StoreError> {
        let row = common::prepare_character(character)?;
        if !common::findable(&[campaign]) {
            return Err(StoreError::CampaignNotFound);
        }
        let mut tx = self.pool.begin().await?;
        // The campaign's row lock: two servers adding to one campaign take turns, so
        // the checks below and the insert see one campaign.
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM campaigns WHERE id = $1 FOR NO KEY UPDATE")
                .bind(campaign)
                .fetch_optional(&mut *tx)
                .await?;
        if found.is_none() {
            return Err(StoreError::CampaignNotFound);
        }
        let owner: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM campaign_seats WHERE campaign_id = $1 AND seat = $2")
                .bind(campaign)
                .bind(&row.owner)
                .fetch_optional(&mut *tx)
                .await?;
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM characters WHERE campaign_id = $1")
                .bind(campaign)
                .fetch_one(&mut *tx)
                .await?;
        let same_name: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM characters WHERE campaign_id = $1 AND name_key = $2")
                .bind(campaign)
                .bind(&row.name_key)
                .fetch_optional(&mut *tx)
                .await?;
        let same_file: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM characters WHERE campaign_id = $1 AND file_key = $2")
                .bind(campaign)
                .bind(&row.file_key)
                .fetch_optional(&mut *tx)
                .await?;
        common::check_new_character(
            &row,
            owner.is_some(),
            count,
            same_name.is_some(),
            same_file.is_some(),
        )?;
        let others = sheet_bytes(&mut tx, campaign, "").await?;
        common::check_campaign_bytes(others, row.event.sheet.len())?;
        sqlx::query(
            "INSERT INTO characters \
             (id, campaign_id, name, name_key, file, file_key, owner, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&row.id)
        .bind(campaign)
        .bind(&row.name)
        .bind(&row.name_key)
        .bind(&row.file)
        .bind(&row.file_key)
        .bind(&row.owner)
        .bind(row.created_ms)
        .execute(&mut *tx)
        .await?;
        insert_event(&mut tx, &row.id, &row.event, row.created_ms).await?;
        tx.commit().await?;
        Ok(row.record(campaign))
    }

    async fn character(
        &self,
        campaign: &str,
        character: &str,
    ) -> Result<Option<CharacterRecord>, StoreError> {
        if !common::findable(&[campaign, character]) {
            return Ok(None);
        }
        let row: Option<CharacterRecordRow> = sqlx::query_as(&format!(
            "SELECT {CHARACTER_COLUMNS} FROM {CHARACTER_FROM} \
             WHERE h.id = $1 AND h.campaign_id = $2"
        ))
        .bind(character)
        .bind(campaign)
        .fetch_optional(&self.pool)
        .await?;
        row.map(common::character_record).transpose()
    }

    async fn character_history(
        &self,
        campaign: &str,
        character: &str,
    ) -> Result<Vec<CharacterEvent>, StoreError> {
        if !common::findable(&[campaign, character]) {
            return Err(StoreError::CharacterNotFound);
        }
        let mut tx = self
            .pool
            .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?;
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM characters WHERE id = $1 AND campaign_id = $2")
                .bind(character)
                .bind(campaign)
                .fetch_optional(&mut *tx)
                .await?;
        if found.is_none() {
            return Err(StoreError::CharacterNotFound);
        }
        let rows: Vec<CharacterEventRow> = sqlx::query_as(&format!(
            "SELECT {EVENT_COLUMNS} FROM character_events WHERE character_id = $1 ORDER BY seq"
        ))
        .bind(character)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.into_iter().map(common::character_event).collect()
    }

    async fn append_character_event(
        &self,
        campaign: &str,
        character: &str,
        expect_seq: u64,
        event: NewCharacterEvent,
    ) -> Result<u64, StoreError> {
        let row = common::prepare_event(expect_seq, event, 0)?;
        if !common::findable(&[campaign, character]) {
            return Err(StoreError::CharacterNotFound);
        }
        let mut tx = self.pool.begin().await?;
        write_event(&mut tx, campaign, character, &row, common::now_ms()).await?;
        tx.commit().await?;
        seq_from_db(row.seq, "character_events.seq")
    }

    async fn end_table(
        &self,
        table: &str,
        writes: Vec<CharacterWrite>,
    ) -> Result<bool, StoreError> {
        let rows = common::prepare_writes(writes)?;
        if !common::findable(&[table]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self.pool.begin().await?;
        let at_ms = common::now_ms();
        // The table's row lock: a second server ending the table waits here for the
        // first to commit (then finds ended_ms set and updates nothing) or roll back
        // (then ends it itself).
        let ended: Option<Option<String>> = sqlx::query_scalar(
            "UPDATE tables SET ended_ms = $1, touched_ms = GREATEST(touched_ms, $1) \
             WHERE id = $2 AND ended_ms IS NULL \
             RETURNING campaign_id",
        )
        .bind(at_ms)
        .bind(table)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(campaign) = ended else {
            let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM tables WHERE id = $1")
                .bind(table)
                .fetch_optional(&mut *tx)
                .await?;
            return if exists.is_some() {
                Ok(false)
            } else {
                Err(StoreError::NotFound)
            };
        };
        if !rows.is_empty() {
            let campaign = campaign.ok_or(StoreError::NoCampaign)?;
            for write in &rows {
                if !common::findable(&[&write.character]) {
                    return Err(StoreError::CharacterNotFound);
                }
                write_event(&mut tx, &campaign, &write.character, &write.event, at_ms).await?;
            }
        }
        // Other servers tell the table's open pages that the encounter ended.
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(crate::NOTIFY_CHANNEL)
            .bind(format!("{table} ended"))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn delete_table(&self, id: &str) -> Result<(), StoreError> {
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self.pool.begin().await?;
        // The table's row lock: an append (which takes it too) waits for the
        // deletion and then finds no table.
        let found: Option<(Option<String>, Option<i64>)> =
            sqlx::query_as("SELECT campaign_id, ended_ms FROM tables WHERE id = $1 FOR UPDATE")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        common::check_deletable(found)?;
        let ids = vec![id.to_string()];
        delete_tables(&mut tx, &ids).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn expire_tables(&self, cutoff_ms: i64) -> Result<Vec<TableId>, StoreError> {
        let mut tx = self.pool.begin().await?;
        // Locked rows are checked again once free: a table an append touched
        // meanwhile no longer matches and stays.
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM tables WHERE touched_ms < $1 AND campaign_id IS NULL \
             ORDER BY created_order FOR UPDATE",
        )
        .bind(cutoff_ms)
        .fetch_all(&mut *tx)
        .await?;
        if !ids.is_empty() {
            delete_tables(&mut tx, &ids).await?;
        }
        tx.commit().await?;
        Ok(ids)
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

/// Inserts event `row` of character `character` (known to exist) at `at_ms`.
async fn insert_event(
    tx: &mut sqlx::PgConnection,
    character: &str,
    row: &EventRow,
    at_ms: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO character_events (character_id, seq, seat, kind, entry, sheet, at_ms) \
         VALUES ($1, $2, $3, $4, $5::json, $6, $7)",
    )
    .bind(character)
    .bind(row.seq)
    .bind(&row.seat)
    .bind(&row.kind)
    .bind(&row.entry)
    .bind(&row.sheet)
    .bind(at_ms)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Appends event `row` to character `character` of campaign `campaign` inside a
/// transaction. The character's row lock (`FOR NO KEY UPDATE`) makes writers of one
/// character take turns, and the seq is read after it, by a statement of its own (so
/// it sees what the writer before committed): a stale `expect` is a clean
/// [`StoreError::CharacterConflict`], and the `(character_id, seq)` key stays the
/// last guard. Callers writing several characters lock them in id order.
///
/// # Errors
/// [`StoreError::CharacterNotFound`], [`StoreError::CharacterConflict`].
async fn write_event(
    tx: &mut sqlx::PgConnection,
    campaign: &str,
    character: &str,
    row: &EventRow,
    at_ms: i64,
) -> Result<(), StoreError> {
    // The campaign's row lock, as adding a character takes it: two servers
    // writing sheets of one campaign take turns, so its sheets' bytes are checked
    // on one campaign.
    sqlx::query("SELECT 1 FROM campaigns WHERE id = $1 FOR NO KEY UPDATE")
        .bind(campaign)
        .execute(&mut *tx)
        .await?;
    let found: Option<i32> = sqlx::query_scalar(
        "SELECT 1 FROM characters WHERE id = $1 AND campaign_id = $2 FOR NO KEY UPDATE",
    )
    .bind(character)
    .bind(campaign)
    .fetch_optional(&mut *tx)
    .await?;
    let current = match found {
        None => None,
        Some(_) => Some(
            sqlx::query_scalar(
                "SELECT COALESCE(MAX(seq), 0) FROM character_events WHERE character_id = $1",
            )
            .bind(character)
            .fetch_one(&mut *tx)
            .await?,
        ),
    };
    common::check_character_seq(character, current, row)?;
    let others = sheet_bytes(tx, campaign, character).await?;
    common::check_campaign_bytes(others, row.sheet.len())?;
    insert_event(tx, character, row, at_ms).await
}

/// The bytes of the current sheets of campaign `campaign`'s characters other than
/// `except` (`""`: all of them), for [`common::check_campaign_bytes`].
async fn sheet_bytes(
    tx: &mut sqlx::PgConnection,
    campaign: &str,
    except: &str,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(&format!(
        "SELECT COALESCE(SUM(octet_length(e.sheet)), 0)::BIGINT FROM {CHARACTER_FROM} \
         WHERE h.campaign_id = $1 AND h.id <> $2"
    ))
    .bind(campaign)
    .bind(except)
    .fetch_one(&mut *tx)
    .await?)
}

/// Inserts log lines of table `id` in statements of at most
/// [`common::LINES_PER_INSERT`] rows; with `keep_existing`, a line already stored
/// for its seat and seq is kept.
async fn insert_lines(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    id: &str,
    lines: &[LineRow],
    keep_existing: bool,
) -> Result<(), StoreError> {
    for chunk in lines.chunks(common::LINES_PER_INSERT) {
        let mut insert = sqlx::QueryBuilder::<sqlx::Postgres>::new(
            "INSERT INTO log_lines (table_id, seat, seq, line) ",
        );
        insert.push_values(chunk, |mut row, line| {
            row.push_bind(id)
                .push_bind(&line.seat)
                .push_bind(line.seq)
                .push_bind(&line.line)
                .push_unseparated("::json");
        });
        if keep_existing {
            insert.push(" ON CONFLICT (table_id, seat, seq) DO NOTHING");
        }
        insert.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// Deletes tables `ids` and everything of theirs, children first (the foreign
/// keys would cascade; spelled out), and notifies each as `"TABLE_ID deleted"`
/// (delivered at commit).
async fn delete_tables(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    ids: &[String],
) -> Result<(), StoreError> {
    for statement in [
        "DELETE FROM log_lines WHERE table_id = ANY($1)",
        "DELETE FROM snapshots WHERE table_id = ANY($1)",
        "DELETE FROM entries WHERE table_id = ANY($1)",
        "DELETE FROM seats WHERE table_id = ANY($1)",
        "DELETE FROM tables WHERE id = ANY($1)",
    ] {
        sqlx::query(statement).bind(ids).execute(&mut **tx).await?;
    }
    sqlx::query("SELECT pg_notify($1, id || ' deleted') FROM unnest($2::text[]) AS id")
        .bind(crate::NOTIFY_CHANNEL)
        .bind(ids)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A campaign's summary, seats and tables (the part of [`Store::load_campaign`]
/// and [`Store::campaign_page`] that does not depend on the characters), read
/// in the caller's transaction; `None` when there is no such campaign.
async fn campaign_head(
    tx: &mut sqlx::PgConnection,
    id: &str,
) -> Result<Option<(CampaignSummaryRow, Vec<CampaignSeatRow>, Vec<SummaryRow>)>, StoreError> {
    let row: Option<CampaignSummaryRow> = sqlx::query_as(&format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM campaigns c WHERE c.id = $1"
    ))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let seats: Vec<CampaignSeatRow> = sqlx::query_as(
        "SELECT campaign_id, seat, role, display_name FROM campaign_seats \
             WHERE campaign_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let tables: Vec<SummaryRow> = sqlx::query_as(&format!(
        "SELECT {SUMMARY_COLUMNS} FROM tables t \
             WHERE t.campaign_id = $1 ORDER BY t.created_order DESC"
    ))
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    Ok(Some((row, seats, tables)))
}
