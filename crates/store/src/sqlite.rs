//! The embedded SQLite backend: one file, WAL mode, writers serialized by
//! `BEGIN IMMEDIATE` (so a write transaction never has to upgrade a read lock) and a
//! busy timeout.

use std::str::FromStr;

use async_trait::async_trait;
use serde_json::Value;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::common::{
    self, CAMPAIGN_COLUMNS, CHARACTER_COLUMNS, CHARACTER_FROM, CampaignSeatRow, CampaignSummaryRow,
    CharacterEventRow, CharacterRecordRow, EventRow, LineRow, LineRowOut, LoadRow, SeatRecordRow,
    SnapshotRow, StoredEntryRow, SummaryRow, seat_record, seq_from_db, seq_to_db, stored_entry,
};
use crate::{
    CampaignId, CampaignPage, CampaignSeat, CampaignSummary, CharacterEvent, CharacterQuery,
    CharacterRecord, CharacterWrite, LinePage, LineQuery, LoadedCampaign, LoadedTable, NewCampaign,
    NewCharacter, NewCharacterEvent, NewEntry, NewLine, NewTable, SQLITE_BUSY_TIMEOUT, SeatRecord,
    Store, StoreError, StoredEntry, TableId, TableSummary,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// Connections kept to one file: readers run side by side in WAL mode.
const MAX_CONNECTIONS: u32 = 8;

/// The store in one SQLite file.
pub(crate) struct SqliteStore {
    pool: SqlitePool,
    /// The file's one-process lock (`None` in memory, and after `close`).
    lock: std::sync::Mutex<Option<std::sync::Arc<crate::lock::FileLock>>>,
    /// One write transaction at a time, queued here rather than in SQLite's
    /// busy handler, which sleeps and retries (up to 100 ms a try): with 64
    /// tables' commands at once, writers waited there for hundreds of
    /// milliseconds (issue 28). SQLite is one process (`lock`), so this
    /// covers every writer.
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// The thread that writes every append ([`crate::appender`]).
    appender: crate::appender::Appender,
    /// The temporary directory of a `sqlite::memory:` store, removed with it.
    temporary: std::sync::Mutex<Option<tempfile::TempDir>>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("connections", &self.pool.size())
            .finish_non_exhaustive()
    }
}

const SUMMARY_COLUMNS: &str = "t.id, t.system, t.name, t.created_ms, \
     COALESCE((SELECT MAX(e.seq) FROM entries e WHERE e.table_id = t.id), 0), \
     (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id), t.campaign_id, t.ended_ms, t.touched_ms";

/// The page of campaign `?1`'s characters that seat `?2` owns
/// (every one when NULL), after the one added at `?3`, in the order
/// added, at most `?4`: for [`Store::campaign_page`]'s sheets' sizes and its
/// characters alike.
const PAGE_OF_CHARACTERS: &str = "WHERE h.campaign_id = ?1 AND (?2 IS NULL OR h.owner = ?2) AND h.created_order > ?3 \
     ORDER BY h.created_order LIMIT ?4";

/// Everything of table `?1`, children first (the foreign keys would cascade;
/// spelled out so a deletion never rests on a pragma).
const DELETE_TABLE: [&str; 5] = [
    "DELETE FROM log_lines WHERE table_id = ?1",
    "DELETE FROM snapshots WHERE table_id = ?1",
    "DELETE FROM entries WHERE table_id = ?1",
    "DELETE FROM seats WHERE table_id = ?1",
    "DELETE FROM tables WHERE id = ?1",
];

const EVENT_COLUMNS: &str = "seq, seat, kind, entry, sheet, at_ms";

impl SqliteStore {
    /// Opens (creating if missing) the file named by a `sqlite:` URL and migrates it.
    pub(crate) async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let lower = url.to_ascii_lowercase();
        let in_memory = lower.contains(":memory:") || lower.contains("mode=memory");
        // In memory: a private temporary file, removed when the store goes, so
        // that the appender's own connection sees the same database (an
        // in-memory database is one connection's alone).
        let temporary = if in_memory {
            Some(
                tempfile::Builder::new()
                    .prefix("tabula-memory-")
                    .tempdir()
                    .map_err(|e| {
                        StoreError::Database(format!("cannot make a temporary directory: {e}"))
                    })?,
            )
        } else {
            None
        };
        let options = match &temporary {
            Some(dir) => SqliteConnectOptions::new().filename(dir.path().join("tabula.db")),
            None => SqliteConnectOptions::from_str(url)
                .map_err(|e| StoreError::BadUrl(e.to_string()))?,
        }
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(SQLITE_BUSY_TIMEOUT)
        // As the appender's connection: a rare write through sqlx must not
        // checkpoint at SQLite's default of 1,000 pages either.
        .pragma(
            "wal_autocheckpoint",
            crate::appender::WAL_AUTOCHECKPOINT.to_string(),
        );
        // Before the first connection: a second process must not even migrate.
        let lock = Some(crate::lock::lock(options.get_filename())?);
        create_private(options.get_filename())?;
        let pool = SqlitePoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            // A file on this machine: nothing can drop the connection, so no ping
            // before each acquire (issue 28).
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        MIGRATOR.run(&pool).await?;
        let writer = std::sync::Arc::new(tokio::sync::Mutex::new(()));
        let appender = crate::appender::Appender::start(options.get_filename(), writer.clone())?;
        Ok(SqliteStore {
            pool,
            lock: std::sync::Mutex::new(lock),
            writer,
            appender,
            temporary: std::sync::Mutex::new(temporary),
        })
    }
}

/// Creates the database file `path` when it is missing, readable and writable
/// by its owner only (mode 0600 on Unix): the tables' tokens' hashes, hands and
/// sheets are no business of other local users. SQLite gives the `-wal` and
/// `-shm` files it makes beside it the database file's mode, so they are 0600
/// too. An existing file keeps the mode it has. Issue 28.
///
/// # Errors
/// [`StoreError::Database`] naming the file when it cannot be created.
fn create_private(path: &std::path::Path) -> Result<(), StoreError> {
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.mode(0o600);
    }
    match open.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::Database(format!(
            "cannot create the database file {}: {e}",
            path.display()
        ))),
    }
}

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn create_table(&self, table: NewTable) -> Result<TableId, StoreError> {
        let row = common::prepare_table(table)?;
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        if let Some(campaign) = &row.campaign {
            let system: Option<String> =
                sqlx::query_scalar("SELECT system FROM campaigns WHERE id = ?1")
                    .bind(campaign)
                    .fetch_optional(&mut *tx)
                    .await?;
            common::check_campaign_system(system, &row.system)?;
        }
        sqlx::query(
            "INSERT INTO tables \
             (id, created_order, system, name, initial_state, initial_roller, roller, created_ms, \
              campaign_id, touched_ms) \
             VALUES (?1, (SELECT COALESCE(MAX(created_order), 0) + 1 FROM tables), \
                     ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?6)",
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
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
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
        let done = sqlx::query("UPDATE tables SET source = ?2 WHERE id = ?1")
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
            sqlx::query_scalar("SELECT source FROM tables WHERE id = ?1")
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
             WHERE table_id = ?1 AND token_hash = ?2 ORDER BY position LIMIT 1",
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
        let mut tx = self.pool.begin().await?;
        let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM tables WHERE id = ?1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Err(StoreError::NotFound);
        }
        let rows: Vec<SeatRecordRow> = sqlx::query_as(
            "SELECT table_id, seat, role, display_name FROM seats \
             WHERE table_id = ?1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.into_iter().map(seat_record).collect()
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
        // One message to the appender thread, which writes it (with any other
        // tables' appends waiting) in one `BEGIN IMMEDIATE` transaction: the
        // seq check, the rows, their lines, the roller, the snapshot (issue 28).
        self.appender.append(id, rows, lines, described).await
    }

    async fn entries_after(&self, id: &str, after: u64) -> Result<Vec<StoredEntry>, StoreError> {
        let after = seq_to_db(after)?;
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        let mut tx = self.pool.begin().await?;
        let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM tables WHERE id = ?1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Err(StoreError::NotFound);
        }
        let rows: Vec<StoredEntryRow> = sqlx::query_as(
            "SELECT seq, seat, entry, at_ms, command_end, roller FROM entries \
             WHERE table_id = ?1 AND seq > ?2 ORDER BY seq",
        )
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
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let exists: Option<i64> =
            sqlx::query_scalar("SELECT lines_through FROM tables WHERE id = ?1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        if exists.is_none() {
            return Err(StoreError::NotFound);
        }
        insert_lines(&mut tx, id, &lines, true).await?;
        sqlx::query("UPDATE tables SET lines_through = ?2 WHERE id = ?1 AND lines_through < ?2")
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
            "SELECT seq, line FROM log_lines \
             WHERE table_id = ?1 AND seat = ?2 AND seq > ?3 AND seq <= ?4 \
             ORDER BY seq {order} LIMIT ?5"
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
        let done =
            sqlx::query("UPDATE seats SET token_hash = ?1 WHERE table_id = ?2 AND seat = ?3")
                .bind(token_hash)
                .bind(id)
                .bind(seat)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() > 0)
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
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let old: Option<String> = sqlx::query_scalar(
            "SELECT token_hash FROM campaign_seats WHERE campaign_id = ?1 AND seat = ?2",
        )
        .bind(campaign)
        .bind(seat)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(old) = old else {
            return Ok(None);
        };
        sqlx::query(
            "UPDATE campaign_seats SET token_hash = ?3 WHERE campaign_id = ?1 AND seat = ?2",
        )
        .bind(campaign)
        .bind(seat)
        .bind(token_hash)
        .execute(&mut *tx)
        .await?;
        let changed: Vec<(String, String)> = sqlx::query_as(
            "UPDATE seats SET token_hash = ?3 \
             WHERE token_hash = ?2 \
               AND table_id IN (SELECT id FROM tables WHERE campaign_id = ?1) \
             RETURNING table_id, seat",
        )
        .bind(campaign)
        .bind(&old)
        .bind(token_hash)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(changed))
    }

    async fn follow(&self) -> Result<Option<crate::Feed>, StoreError> {
        Ok(None)
    }

    async fn create_campaign(&self, campaign: NewCampaign) -> Result<CampaignId, StoreError> {
        let row = common::prepare_campaign(campaign)?;
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "INSERT INTO campaigns (id, created_order, system, name, created_ms, settings) \
             VALUES (?1, (SELECT COALESCE(MAX(created_order), 0) + 1 FROM campaigns), \
                     ?2, ?3, ?4, ?5)",
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
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
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
        // One read transaction: one snapshot of the campaign.
        let mut tx = self.pool.begin().await?;
        let Some((row, seats, tables)) = campaign_head(&mut tx, id).await? else {
            return Ok(None);
        };
        let characters: Vec<CharacterRecordRow> = sqlx::query_as(&format!(
            "SELECT {CHARACTER_COLUMNS} FROM {CHARACTER_FROM} \
             WHERE h.campaign_id = ?1 ORDER BY h.created_order"
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
        let mut tx = self.pool.begin().await?;
        let Some((row, seats, tables)) = campaign_head(&mut tx, id).await? else {
            return Ok(None);
        };
        // The cursor's place in the order added (before every character when absent).
        let from: i64 = match after {
            None => i64::MIN,
            Some(after) => sqlx::query_scalar(
                "SELECT created_order FROM characters \
                 WHERE id = ?1 AND campaign_id = ?2 AND (?3 IS NULL OR owner = ?3)",
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
            "SELECT COUNT(*), COALESCE(SUM(created_order > ?3), 0) FROM characters \
             WHERE campaign_id = ?1 AND (?2 IS NULL OR owner = ?2)",
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
                "SELECT LENGTH(CAST(e.sheet AS BLOB)) FROM {CHARACTER_FROM} {PAGE_OF_CHARACTERS}"
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
             WHERE campaign_id = ?1 AND token_hash = ?2 ORDER BY position LIMIT 1",
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
            "SELECT token_hash FROM campaign_seats WHERE campaign_id = ?1 AND seat = ?2",
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
        // IMMEDIATE: the checks below and the insert see one campaign.
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM campaigns WHERE id = ?1")
            .bind(campaign)
            .fetch_optional(&mut *tx)
            .await?;
        if found.is_none() {
            return Err(StoreError::CampaignNotFound);
        }
        let owner: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM campaign_seats WHERE campaign_id = ?1 AND seat = ?2")
                .bind(campaign)
                .bind(&row.owner)
                .fetch_optional(&mut *tx)
                .await?;
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM characters WHERE campaign_id = ?1")
                .bind(campaign)
                .fetch_one(&mut *tx)
                .await?;
        let same_name: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM characters WHERE campaign_id = ?1 AND name_key = ?2")
                .bind(campaign)
                .bind(&row.name_key)
                .fetch_optional(&mut *tx)
                .await?;
        let same_file: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM characters WHERE campaign_id = ?1 AND file_key = ?2")
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
             (id, campaign_id, created_order, name, name_key, file, file_key, owner, created_ms) \
             VALUES (?1, ?2, (SELECT COALESCE(MAX(created_order), 0) + 1 FROM characters), \
                     ?3, ?4, ?5, ?6, ?7, ?8)",
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
             WHERE h.id = ?1 AND h.campaign_id = ?2"
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
        let mut tx = self.pool.begin().await?;
        let found: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM characters WHERE id = ?1 AND campaign_id = ?2")
                .bind(character)
                .bind(campaign)
                .fetch_optional(&mut *tx)
                .await?;
        if found.is_none() {
            return Err(StoreError::CharacterNotFound);
        }
        let rows: Vec<CharacterEventRow> = sqlx::query_as(&format!(
            "SELECT {EVENT_COLUMNS} FROM character_events WHERE character_id = ?1 ORDER BY seq"
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
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
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
        // IMMEDIATE: of two calls, the second sees the first's ended_ms.
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let at_ms = common::now_ms();
        let ended: Option<Option<String>> = sqlx::query_scalar(
            "UPDATE tables SET ended_ms = ?1, touched_ms = MAX(touched_ms, ?1) \
             WHERE id = ?2 AND ended_ms IS NULL \
             RETURNING campaign_id",
        )
        .bind(at_ms)
        .bind(table)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(campaign) = ended else {
            let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM tables WHERE id = ?1")
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
        tx.commit().await?;
        Ok(true)
    }

    async fn delete_table(&self, id: &str) -> Result<(), StoreError> {
        if !common::findable(&[id]) {
            return Err(StoreError::NotFound);
        }
        // IMMEDIATE: no append slips in between the check and the deletes.
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let found: Option<(Option<String>, Option<i64>)> =
            sqlx::query_as("SELECT campaign_id, ended_ms FROM tables WHERE id = ?1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        common::check_deletable(found)?;
        for statement in DELETE_TABLE {
            sqlx::query(statement).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn expire_tables(&self, cutoff_ms: i64) -> Result<Vec<TableId>, StoreError> {
        let _writer = self.writer.lock().await;
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM tables WHERE touched_ms < ?1 AND campaign_id IS NULL \
             ORDER BY created_order",
        )
        .bind(cutoff_ms)
        .fetch_all(&mut *tx)
        .await?;
        for id in &ids {
            for statement in DELETE_TABLE {
                sqlx::query(statement).bind(id).execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
        Ok(ids)
    }

    async fn close(&self) {
        self.appender.stop().await;
        self.pool.close().await;
        self.lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        self.temporary
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
    }
}

impl SqliteStore {
    /// [`Store::load_table`] (`tail` false) or [`Store::load_table_tail`].
    async fn load(&self, id: &str, tail: bool) -> Result<Option<LoadedTable>, StoreError> {
        if !common::findable(&[id]) {
            return Ok(None);
        }
        // One read transaction: the summary, seats and entries are one snapshot.
        let mut tx = self.pool.begin().await?;
        let row: Option<LoadRow> = sqlx::query_as(&format!(
            "SELECT {SUMMARY_COLUMNS}, t.initial_state, t.initial_roller \
             FROM tables t WHERE t.id = ?1"
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
             WHERE table_id = ?1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let snapshot: Option<SnapshotRow> =
            sqlx::query_as("SELECT seq, state, roller FROM snapshots WHERE table_id = ?1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        // A tail load reads the rows from the snapshot's own row on (issue 28,
        // item 1); without a snapshot, every row.
        let from: i64 = match (&snapshot, tail) {
            (Some((seq, _, _)), true) => *seq,
            _ => 0,
        };
        let entries: Vec<StoredEntryRow> = sqlx::query_as(
            "SELECT seq, seat, entry, at_ms, command_end, roller FROM entries \
             WHERE table_id = ?1 AND seq >= ?2 ORDER BY seq",
        )
        .bind(id)
        .bind(from)
        .fetch_all(&mut *tx)
        .await?;
        let lines_through: i64 =
            sqlx::query_scalar("SELECT lines_through FROM tables WHERE id = ?1")
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
}

/// Inserts event `row` of character `character` (known to exist) at `at_ms`.
async fn insert_event(
    tx: &mut sqlx::SqliteConnection,
    character: &str,
    row: &EventRow,
    at_ms: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO character_events (character_id, seq, seat, kind, entry, sheet, at_ms) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
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
/// `BEGIN IMMEDIATE` transaction (which holds the file's write lock, so the seq read
/// cannot change before the insert).
///
/// # Errors
/// [`StoreError::CharacterNotFound`], [`StoreError::CharacterConflict`].
async fn write_event(
    tx: &mut sqlx::SqliteConnection,
    campaign: &str,
    character: &str,
    row: &EventRow,
    at_ms: i64,
) -> Result<(), StoreError> {
    let current: Option<i64> = sqlx::query_scalar(
        "SELECT COALESCE((SELECT MAX(seq) FROM character_events WHERE character_id = ?1), 0) \
         FROM characters WHERE id = ?1 AND campaign_id = ?2",
    )
    .bind(character)
    .bind(campaign)
    .fetch_optional(&mut *tx)
    .await?;
    common::check_character_seq(character, current, row)?;
    let others = sheet_bytes(tx, campaign, character).await?;
    common::check_campaign_bytes(others, row.sheet.len())?;
    insert_event(tx, character, row, at_ms).await
}

/// The bytes of the current sheets of campaign `campaign`'s characters other than
/// `except` (`""`: all of them), for [`common::check_campaign_bytes`].
async fn sheet_bytes(
    tx: &mut sqlx::SqliteConnection,
    campaign: &str,
    except: &str,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(&format!(
        "SELECT COALESCE(SUM(LENGTH(CAST(e.sheet AS BLOB))), 0) FROM {CHARACTER_FROM} \
         WHERE h.campaign_id = ?1 AND h.id <> ?2"
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
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    id: &str,
    lines: &[LineRow],
    keep_existing: bool,
) -> Result<(), StoreError> {
    for chunk in lines.chunks(common::LINES_PER_INSERT) {
        let mut insert = sqlx::QueryBuilder::<sqlx::Sqlite>::new(
            "INSERT INTO log_lines (table_id, seat, seq, line) ",
        );
        insert.push_values(chunk, |mut row, line| {
            row.push_bind(id)
                .push_bind(&line.seat)
                .push_bind(line.seq)
                .push_bind(&line.line);
        });
        if keep_existing {
            insert.push(" ON CONFLICT (table_id, seat, seq) DO NOTHING");
        }
        insert.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// A campaign's summary, seats and tables (the part of [`Store::load_campaign`]
/// and [`Store::campaign_page`] that does not depend on the characters), read
/// in the caller's transaction; `None` when there is no such campaign.
async fn campaign_head(
    tx: &mut sqlx::SqliteConnection,
    id: &str,
) -> Result<Option<(CampaignSummaryRow, Vec<CampaignSeatRow>, Vec<SummaryRow>)>, StoreError> {
    let row: Option<CampaignSummaryRow> = sqlx::query_as(&format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM campaigns c WHERE c.id = ?1"
    ))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let seats: Vec<CampaignSeatRow> = sqlx::query_as(
        "SELECT campaign_id, seat, role, display_name FROM campaign_seats \
             WHERE campaign_id = ?1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let tables: Vec<SummaryRow> = sqlx::query_as(&format!(
        "SELECT {SUMMARY_COLUMNS} FROM tables t \
             WHERE t.campaign_id = ?1 ORDER BY t.created_order DESC"
    ))
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    Ok(Some((row, seats, tables)))
}
