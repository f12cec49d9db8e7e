//! Issue 28, item 1: constant cost per command, whatever the log's length, for
//! reading the log and following a table. Each row's log line is described once
//! per seat when it is appended and kept in the store; `GET /log` pages those
//! lines (no replay), a follower's update carries only the new lines, and a
//! reconnect's catch-up comes in messages under the size the socket takes.
//!
//! The store is wrapped in a counter of what it hands back (log lines, journal
//! entries), so the tests check what a read costs in rows, not in time.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use axum::http::StatusCode;
use serde_json::{Value, json};

use tabula_engine::core::system::Seat;
use tabula_engine::{AnyTable, Dice};
use tabula_server::state::{describe_lines, load, load_whole};
use tabula_server::{AppState, MAX_LOG_PAGE, WS_MESSAGE_TARGET_BYTES};
use tabula_store::{
    CampaignId, CampaignPage, CampaignSeat, CampaignSummary, CharacterEvent, CharacterQuery,
    CharacterRecord, CharacterWrite, Feed, LinePage, LineQuery, LoadedCampaign, LoadedTable,
    NewCampaign, NewCharacter, NewCharacterEvent, NewEntry, NewLine, NewTable, SeatRecord, Store,
    StoreError, StoredEntry, TableId, TableSummary,
};

use common::{Client, Db, Table, connect, next, serve};

/// A store that counts the log lines, journal entries and campaign
/// characters it hands back (also used by `campaign_pages`).
#[derive(Debug)]
pub(crate) struct Counting {
    inner: Arc<dyn Store>,
    lines: AtomicU64,
    entries: AtomicU64,
    characters: AtomicU64,
}

impl Counting {
    pub(crate) fn new(inner: Arc<dyn Store>) -> Arc<Counting> {
        Arc::new(Counting {
            inner,
            lines: AtomicU64::new(0),
            entries: AtomicU64::new(0),
            characters: AtomicU64::new(0),
        })
    }

    /// The campaign characters (records with their sheets) handed back since
    /// the last call.
    pub(crate) fn take_characters(&self) -> u64 {
        self.characters.swap(0, Ordering::SeqCst)
    }

    /// (lines, entries) handed back since the last call.
    fn take(&self) -> (u64, u64) {
        (
            self.lines.swap(0, Ordering::SeqCst),
            self.entries.swap(0, Ordering::SeqCst),
        )
    }
}

#[async_trait]
impl Store for Counting {
    fn backend(&self) -> &'static str {
        self.inner.backend()
    }
    async fn create_table(&self, table: NewTable) -> Result<TableId, StoreError> {
        self.inner.create_table(table).await
    }
    async fn list_tables(&self) -> Result<Vec<TableSummary>, StoreError> {
        self.inner.list_tables().await
    }
    async fn count_tables(&self) -> Result<u64, StoreError> {
        self.inner.count_tables().await
    }
    async fn set_table_source(
        &self,
        id: &str,
        source: &serde_json::Value,
    ) -> Result<(), StoreError> {
        self.inner.set_table_source(id, source).await
    }
    async fn table_source(&self, id: &str) -> Result<Option<serde_json::Value>, StoreError> {
        self.inner.table_source(id).await
    }
    async fn load_table(&self, id: &str) -> Result<Option<LoadedTable>, StoreError> {
        let loaded = self.inner.load_table(id).await?;
        if let Some(t) = &loaded {
            self.entries
                .fetch_add(t.entries.len() as u64, Ordering::SeqCst);
        }
        Ok(loaded)
    }
    async fn load_table_tail(&self, id: &str) -> Result<Option<LoadedTable>, StoreError> {
        let loaded = self.inner.load_table_tail(id).await?;
        if let Some(t) = &loaded {
            self.entries
                .fetch_add(t.entries.len() as u64, Ordering::SeqCst);
        }
        Ok(loaded)
    }
    async fn seat_for_token(
        &self,
        id: &str,
        token_hash: &str,
    ) -> Result<Option<SeatRecord>, StoreError> {
        self.inner.seat_for_token(id, token_hash).await
    }
    async fn seats(&self, id: &str) -> Result<Vec<SeatRecord>, StoreError> {
        self.inner.seats(id).await
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
        self.inner
            .append_with_lines(id, expect_seq, entries, roller_after, snapshot_state, lines)
            .await
    }
    async fn put_lines(
        &self,
        id: &str,
        through: u64,
        lines: Vec<NewLine>,
    ) -> Result<(), StoreError> {
        self.inner.put_lines(id, through, lines).await
    }
    async fn log_lines(
        &self,
        id: &str,
        seat: &str,
        query: LineQuery,
    ) -> Result<LinePage, StoreError> {
        let page = self.inner.log_lines(id, seat, query).await?;
        self.lines
            .fetch_add(page.lines.len() as u64, Ordering::SeqCst);
        Ok(page)
    }
    async fn follow(&self) -> Result<Option<Feed>, StoreError> {
        self.inner.follow().await
    }
    async fn entries_after(&self, id: &str, after: u64) -> Result<Vec<StoredEntry>, StoreError> {
        let entries = self.inner.entries_after(id, after).await?;
        self.entries
            .fetch_add(entries.len() as u64, Ordering::SeqCst);
        Ok(entries)
    }
    async fn reissue_token(
        &self,
        id: &str,
        seat: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError> {
        self.inner.reissue_token(id, seat, token_hash).await
    }
    async fn create_campaign(&self, campaign: NewCampaign) -> Result<CampaignId, StoreError> {
        self.inner.create_campaign(campaign).await
    }
    async fn list_campaigns(&self) -> Result<Vec<CampaignSummary>, StoreError> {
        self.inner.list_campaigns().await
    }
    async fn load_campaign(&self, id: &str) -> Result<Option<LoadedCampaign>, StoreError> {
        let loaded = self.inner.load_campaign(id).await?;
        if let Some(c) = &loaded {
            self.characters
                .fetch_add(c.characters.len() as u64, Ordering::SeqCst);
        }
        Ok(loaded)
    }
    async fn campaign_page(
        &self,
        id: &str,
        query: &CharacterQuery,
    ) -> Result<Option<CampaignPage>, StoreError> {
        let page = self.inner.campaign_page(id, query).await?;
        if let Some(p) = &page {
            self.characters
                .fetch_add(p.characters.len() as u64, Ordering::SeqCst);
        }
        Ok(page)
    }
    async fn campaign_seat_for_token(
        &self,
        campaign: &str,
        token_hash: &str,
    ) -> Result<Option<CampaignSeat>, StoreError> {
        self.inner
            .campaign_seat_for_token(campaign, token_hash)
            .await
    }
    async fn campaign_token_hash(
        &self,
        campaign: &str,
        seat: &str,
    ) -> Result<Option<String>, StoreError> {
        self.inner.campaign_token_hash(campaign, seat).await
    }
    async fn reissue_campaign_token(
        &self,
        campaign: &str,
        seat: &str,
        token_hash: &str,
    ) -> Result<Option<Vec<(String, String)>>, StoreError> {
        self.inner
            .reissue_campaign_token(campaign, seat, token_hash)
            .await
    }
    async fn add_character(
        &self,
        campaign: &str,
        character: NewCharacter,
    ) -> Result<CharacterRecord, StoreError> {
        self.inner.add_character(campaign, character).await
    }
    async fn character(
        &self,
        campaign: &str,
        character: &str,
    ) -> Result<Option<CharacterRecord>, StoreError> {
        let found = self.inner.character(campaign, character).await?;
        if found.is_some() {
            self.characters.fetch_add(1, Ordering::SeqCst);
        }
        Ok(found)
    }
    async fn character_history(
        &self,
        campaign: &str,
        character: &str,
    ) -> Result<Vec<CharacterEvent>, StoreError> {
        self.inner.character_history(campaign, character).await
    }
    async fn append_character_event(
        &self,
        campaign: &str,
        character: &str,
        expect_seq: u64,
        event: NewCharacterEvent,
    ) -> Result<u64, StoreError> {
        self.inner
            .append_character_event(campaign, character, expect_seq, event)
            .await
    }
    async fn end_table(
        &self,
        table: &str,
        writes: Vec<CharacterWrite>,
    ) -> Result<bool, StoreError> {
        self.inner.end_table(table, writes).await
    }
    async fn delete_table(&self, id: &str) -> Result<(), StoreError> {
        self.inner.delete_table(id).await
    }
    async fn expire_tables(&self, cutoff_ms: i64) -> Result<Vec<String>, StoreError> {
        self.inner.expire_tables(cutoff_ms).await
    }
    async fn close(&self) {
        self.inner.close().await;
    }
}

/// How many rows the long table gets.
const ROWS: u64 = 10_000;

/// How many rows go to the store in one append while the table is filled.
const BATCH: u64 = 1_000;

/// Play the GM's `rest` on table `id` (loaded from `store`) until it holds at
/// least `rows` rows, appending in batches with every seat's lines (as the
/// server does for each command), or with none when `with_lines` is false (a
/// table written before lines were kept). Returns the table as played.
async fn fill(store: &dyn Store, id: &str, rows: u64, with_lines: bool) -> AnyTable {
    let mut table = load(store, id).await.expect("the table loads");
    let mut stored = table.seq();
    let mut lines = Vec::new();
    // Each `rest` adds at least one row: at most `rows` commands.
    for _ in 0..rows {
        if table.seq() >= rows {
            break;
        }
        let before = table.seq();
        table
            .submit_text(&Seat::Gm, "rest", Dice::Table)
            .expect("the GM may always rest");
        if with_lines {
            lines.extend(describe_lines(&table, before));
        }
        if table.seq() - stored >= BATCH || table.seq() >= rows {
            let raw = table.raw_rows_after(stored);
            let roller = raw.last().and_then(|r| r.roller.clone());
            let entries = raw
                .into_iter()
                .map(|r| NewEntry {
                    seat: r.seat,
                    entry: r.entry,
                })
                .collect();
            let described = with_lines.then(|| std::mem::take(&mut lines));
            // Each batch carries the snapshot the server would have written.
            let snapshot = Some(table.state());
            let seq = store
                .append_with_lines(id, stored, entries, roller, snapshot, described)
                .await
                .expect("the batch is stored");
            assert_eq!(seq, table.seq());
            stored = seq;
        }
    }
    assert!(table.seq() >= rows);
    table
}

fn lines_of(v: &Value) -> &Vec<Value> {
    v["lines"].as_array().expect("lines")
}

fn seqs(lines: &[Value]) -> Vec<u64> {
    lines.iter().map(|l| l["seq"].as_u64().unwrap()).collect()
}

/// Skip messages until one of type `kind` (at most `bound` messages).
async fn next_of(ws: &mut common::Socket, kind: &str, bound: usize) -> Value {
    for _ in 0..bound {
        let m = next(ws).await.expect("the socket stays open");
        if m["type"] == kind {
            return m;
        }
    }
    panic!("no {kind} message in {bound}");
}

/// A server over a fresh store of `db` that counts what it hands back, and a
/// new Sour Grapes example table on it: the counting store, the same as a
/// plain store, the server's state, a client of it, the table.
async fn counted_table(db: &Db) -> (Arc<Counting>, Arc<dyn Store>, AppState, Client, Table) {
    let counting = Counting::new(db.open().await);
    let store: Arc<dyn Store> = counting.clone();
    let state = AppState::new(store.clone());
    let c = Client::with_state(state.clone());
    let t: Table = c
        .create(json!({"system": "sour-grapes", "example": "table"}))
        .await;
    (counting, store, state, c, t)
}

async fn ten_thousand_rows(db: Db) {
    let (counting, store, state, c, t) = counted_table(&db).await;
    let played = fill(&*store, &t.id, ROWS, true).await;
    let seq = played.seq();

    // Four followers, one per seat, on a real socket.
    let base = serve(state.clone()).await;
    let mut followers = Vec::new();
    for i in 0..4 {
        let (key, _, token) = &t.seats[i % t.seats.len()];
        let mut ws = connect(&base, &t, token, i % 2 == 0, None).await;
        let hello = next(&mut ws).await.unwrap();
        assert_eq!(hello["type"], "hello");
        assert_eq!(hello["seq"], json!(seq));
        followers.push((key.clone(), ws));
    }

    // One more command: each follower's update carries only its new lines,
    // read from the recent window (no store read, no replay).
    counting.take();
    let a = c.command(&t, &t.gm(), "rest").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let now = a.json["seq"].as_u64().unwrap();
    assert!(now > seq);
    for (key, ws) in &mut followers {
        let update = next_of(ws, "update", 16).await;
        assert_eq!(update["seq"], json!(now), "{key}");
        let got = seqs(lines_of(&update));
        assert!(!got.is_empty(), "{key} sees the GM's rest");
        assert!(got.iter().all(|s| *s > seq && *s <= now), "{key}: {got:?}");
    }
    let (lines_read, entries_read) = counting.take();
    assert_eq!(entries_read, 0, "no journal row was read back");
    assert_eq!(lines_read, 0, "the updates came from the recent window");

    // GET /log?limit=50 reads 50 lines from the store: the newest.
    for (key, _, token) in &t.seats {
        counting.take();
        let log = c.get(&t.url("log?limit=50"), token).await;
        assert_eq!(log.status, StatusCode::OK, "{}", log.text);
        let lines = lines_of(&log.json);
        assert_eq!(lines.len(), 50, "{key}");
        assert_eq!(log.json["more"], true);
        assert_eq!(*seqs(lines).last().unwrap(), now, "{key}: the newest first");
        let (lines_read, entries_read) = counting.take();
        assert!(lines_read <= 50, "{key}: {lines_read} lines read");
        assert_eq!(entries_read, 0, "{key}: no journal row read");
        // The same lines the rules describe, for this seat.
        let seat = played_seat(key);
        let first = seqs(lines)[0];
        let described: Vec<Value> = tail_lines(&c, &t, &seat, first, now).await;
        assert_eq!(*lines, described, "{key}");
    }

    // Scrolling back: the 50 before the first, then `more` until the start.
    let gm = t.gm();
    let page = c.get(&t.url("log?limit=50"), &gm).await;
    let first = seqs(lines_of(&page.json))[0];
    counting.take();
    let older = c
        .get(&t.url(&format!("log?before={first}&limit=50")), &gm)
        .await;
    let older_seqs = seqs(lines_of(&older.json));
    assert_eq!(older_seqs.len(), 50);
    assert!(older_seqs.iter().all(|s| *s < first));
    assert_eq!(older.json["more"], true);
    assert!(counting.take().0 <= 50);
    let start = c.get(&t.url("log?after=0&limit=10"), &gm).await;
    assert_eq!(seqs(lines_of(&start.json)), (1..=10).collect::<Vec<_>>());
    assert_eq!(start.json["more"], true);
    let end = c
        .get(&t.url(&format!("log?after={}&limit=500", now - 3)), &gm)
        .await;
    assert_eq!(seqs(lines_of(&end.json)), vec![now - 2, now - 1, now]);
    assert_eq!(end.json["more"], false);

    // A limit past the cap is a clear 400.
    let over = c
        .get(&t.url(&format!("log?limit={}", MAX_LOG_PAGE + 1)), &gm)
        .await;
    assert_eq!(over.status, StatusCode::BAD_REQUEST, "{}", over.text);
    assert!(
        over.text.contains("limit must be 1 to 500"),
        "{}",
        over.text
    );
    let zero = c.get(&t.url("log?limit=0"), &gm).await;
    assert_eq!(zero.status, StatusCode::BAD_REQUEST);

    // A reconnect with ?after=0: the whole log, in several messages, each
    // under the target size, nothing lost or repeated, then updates again.
    let (_, _, token) = &t.seats[0];
    let mut ws = connect(&base, &t, token, true, Some(0)).await;
    assert_eq!(next(&mut ws).await.unwrap()["type"], "hello");
    let mut got = Vec::new();
    let mut messages = 0;
    // At most one message per line (bounded), until the log reaches `now`.
    for _ in 0..=now {
        let m = next(&mut ws).await.expect("the socket stays open");
        assert_eq!(m["type"], "log");
        assert!(m.to_string().len() <= WS_MESSAGE_TARGET_BYTES);
        messages += 1;
        got.extend(seqs(lines_of(&m)));
        if got.last() == Some(&now) {
            break;
        }
    }
    assert!(messages > 1, "a catch-up of {now} lines is split");
    assert_eq!(
        got,
        (1..=now).collect::<Vec<_>>(),
        "every line once, in order"
    );
    let a = c.command(&t, &gm, "rest").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let update = next_of(&mut ws, "update", 16).await;
    assert!(seqs(lines_of(&update)).iter().all(|s| *s > now), "{update}");
    drop(ws);
    restart_loads_the_snapshot(&counting, &t).await;
}

/// Issue 28, item 1: a restart (a new server on the same store) loads the long
/// table from its snapshot and the rows after it, reading no more than about
/// `SNAPSHOT_EVERY` journal rows, and answers as the whole log's replay does;
/// undos go back as far as before, the one past the snapshot loading the whole
/// log once.
async fn restart_loads_the_snapshot(counting: &Counting, t: &Table) {
    let gm = t.gm();
    let restarted = Counting::new(counting.inner.clone());
    let c = Client::with_state(AppState::new(restarted.clone()));
    let whole_view =
        |table: &AnyTable| serde_json::to_value(table.view(&Seat::Gm, &Seat::Gm).unwrap()).unwrap();
    let view = c.get(&t.url("view"), &gm).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    let (_, loaded_rows) = restarted.take();
    let seq = view.json["seq"].as_u64().unwrap();
    assert!(seq > ROWS);
    assert!(
        loaded_rows <= tabula_store::SNAPSHOT_EVERY,
        "{loaded_rows} rows read to load a table of {seq}"
    );
    let whole = load_whole(&*counting.inner, &t.id).await.unwrap();
    assert_eq!(view.json["view"], whole_view(&whole));

    // Undo, three times: the first ones within the rows loaded, then back past
    // the snapshot (the whole log is read once, then never again).
    let mut whole_reads = 0;
    for _ in 0..3 {
        let undo = c.command(t, &gm, "undo").await;
        assert_eq!(undo.status, StatusCode::OK, "{}", undo.text);
        let (_, rows_read) = restarted.take();
        if rows_read > ROWS {
            whole_reads += 1;
        }
        let view = c.get(&t.url("view"), &gm).await;
        let whole = load_whole(&*counting.inner, &t.id).await.unwrap();
        assert_eq!(view.json["seq"].as_u64().unwrap(), whole.seq());
        assert_eq!(view.json["view"], whole_view(&whole), "after an undo");
    }
    assert_eq!(
        whole_reads, 1,
        "the whole log is read once, for the undo past the snapshot"
    );
}

/// The engine's seat for a seat key of the example table.
fn played_seat(key: &str) -> Seat {
    if key == "gm" {
        Seat::Gm
    } else {
        Seat::Player(key.to_string())
    }
}

/// Seat `seat`'s lines of `from..=through` as the rules describe them, by
/// replaying the table as a fresh server loads it.
async fn tail_lines(c: &Client, t: &Table, seat: &Seat, from: u64, through: u64) -> Vec<Value> {
    let table = load_whole(&**c.state.store(), &t.id).await.unwrap();
    table
        .log_for(seat, from - 1)
        .into_iter()
        .filter(|l| l.seq <= through)
        .map(|l| serde_json::to_value(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_rows_read_and_followed_at_constant_cost() {
    ten_thousand_rows(Db::sqlite()).await;
}

/// A table whose rows were stored before lines were kept (an older database):
/// a server that loads it describes them once, and its log reads as the rules
/// describe it, for every seat.
async fn older_rows(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let t = c
        .create(json!({"system": "sour-grapes", "example": "table"}))
        .await;
    let played = fill(&*store, &t.id, 30, false).await;
    let seq = played.seq();
    let loaded = store.load_table(&t.id).await.unwrap().unwrap();
    assert_eq!(loaded.lines_through, 0, "no line was kept");

    // Another server (a restart) loads the table and fills its lines once.
    let counting = Counting::new(db.open().await);
    let c2 = Client::new(counting.clone());
    for (key, _, token) in &t.seats {
        let log = c2.get(&t.url("log"), token).await;
        assert_eq!(log.status, StatusCode::OK, "{}", log.text);
        let want: Vec<Value> = played
            .log_for(&played_seat(key), 0)
            .into_iter()
            .map(|l| serde_json::to_value(l).unwrap())
            .collect();
        assert!(!want.is_empty());
        assert_eq!(*lines_of(&log.json), want, "{key}");
        assert_eq!(log.json["more"], false);
    }
    let loaded = store.load_table(&t.id).await.unwrap().unwrap();
    assert_eq!(loaded.lines_through, seq, "described once, up to the end");

    // A third server reads them straight from the store: one load, no
    // describing again (the lines were there).
    let counting = Counting::new(db.open().await);
    let c3 = Client::new(counting.clone());
    let log = c3.get(&t.url("log?after=20"), &t.gm()).await;
    assert_eq!(seqs(lines_of(&log.json)), (21..=seq).collect::<Vec<_>>());
    let (lines_read, _) = counting.take();
    assert_eq!(lines_read, seq - 20);
}

story!(older_rows_are_described_once_on_load, super::older_rows);

/// Issue 28, "a long evening": a table played live past several snapshots
/// holds only the rows since its previous snapshot (its memory and an undo's
/// replay do not grow with the evening), as does a second server catching up
/// with it, and the GM's undos within them read nothing from the store and
/// leave the view the whole replay's. (An undo back past the rows held
/// loads the whole log once, as after a restart:
/// `restart_loads_the_snapshot` above, and the engine's
/// `a_table_that_forgets_the_rows_before_its_snapshots_is_the_whole_table`.)
async fn a_live_table_forgets_old_rows(db: Db) {
    let (counting, _, state, c, t) = counted_table(&db).await;
    let gm = t.gm();
    // A second server on the same store, catching up every ten commands.
    let other = Client::new(db.open().await);
    let every = tabula_store::SNAPSHOT_EVERY;
    let mut seq = 0;
    // Bounded: each `rest` adds at least one row.
    for i in 0..3 * every + 20 {
        let a = c.command(&t, &gm, "rest").await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        seq = a.json["seq"].as_u64().unwrap();
        let (first, last) = state.held_rows(&t.id).await.expect("the table is held");
        assert_eq!(last, seq);
        assert!(
            last - first < 2 * every + 10,
            "rows {first}..={last} held at seq {seq}"
        );
        if i % 10 == 9 {
            let status = other.get(&t.url("status"), &gm).await;
            assert_eq!(status.json["seq"], json!(seq));
        }
    }
    let (first, _) = state.held_rows(&t.id).await.expect("the table is held");
    assert!(first > every, "rows from {first} held after {seq} rows");
    let view = other.get(&t.url("view"), &gm).await;
    assert_eq!(view.json, c.get(&t.url("view"), &gm).await.json);
    let (first, last) = other.state.held_rows(&t.id).await.expect("held there too");
    assert_eq!(last, seq);
    assert!(
        first > every && last - first < 2 * every + 20,
        "the other server holds rows {first}..={last}"
    );

    let whole_view =
        |table: &AnyTable| serde_json::to_value(table.view(&Seat::Gm, &Seat::Gm).unwrap()).unwrap();
    for undo in 1..=3 {
        counting.take();
        let a = c.command(&t, &gm, "undo").await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let (_, rows_read) = counting.take();
        assert_eq!(rows_read, 0, "undo {undo}: within the rows held");
        let view = c.get(&t.url("view"), &gm).await;
        let whole = load_whole(&*counting.inner, &t.id).await.unwrap();
        assert_eq!(view.json["seq"].as_u64().unwrap(), whole.seq());
        assert_eq!(view.json["view"], whole_view(&whole), "after undo {undo}");
    }
}

crate::story!(
    a_live_table_forgets_the_rows_before_its_previous_snapshot,
    super::a_live_table_forgets_old_rows
);
