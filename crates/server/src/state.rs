//! The app's shared state: the store, the tables in play (loaded from the store
//! on first use and kept in memory), and the server's settings.
//!
//! One table is one [`Slot`]: the [`AnyTable`] behind a tokio `RwLock` (commands
//! take it for writing, so commands to one table are applied one at a time;
//! reads share it; different tables never wait for each other) and a broadcast
//! channel that carries only "the table moved" signals ([`Signal`]): every
//! WebSocket computes its own seat's view and lines, so no secret of one seat
//! ever sits in a message shared between seats.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::sync::{OwnedRwLockReadGuard, OwnedRwLockWriteGuard, RwLock, broadcast, watch};

use crate::patch::Shape;
use tabula_engine::core::system::Seat;
use tabula_engine::session::seat_key;
use tabula_engine::{AnyTable, RawRow, SystemId};
use tabula_store::{
    FeedEvent, LoadedTable, NewEntry, NewLine, Role, SNAPSHOT_EVERY, SeatRecord, Store, StoreError,
    StoredEntry,
};

use crate::auth;
use crate::error::{AppError, UNAUTHORIZED_MESSAGE};
use crate::{BROADCAST_CAPACITY, MAX_TABLES};

/// What a table's broadcast channel carries: never a view, a line or a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The table's journal moved to this seq (a command, an undo, or a reload
    /// after another server wrote).
    Advanced(u64),
    /// The GM reissued this seat's token (the seat key): connections of that
    /// seat close.
    Reissued(String),
    /// The encounter ended (its lasting changes were written back to the
    /// campaign): every connection is told; the table takes no more commands.
    Ended,
    /// A seat opened or closed the table on this server: every connection
    /// is told who has it open now (issue 27, item 3).
    Presence,
    /// The table was deleted (by its GM, or it expired): every connection is
    /// told this message and closes (issue 28).
    Deleted(&'static str),
}

/// One table in play (see the module docs). `table` is `None` until it is
/// loaded, and again after a store failure left it unsure (the next use
/// reloads it).
#[derive(Debug)]
pub struct Slot {
    pub(crate) table: Arc<RwLock<Option<AnyTable>>>,
    pub(crate) tx: broadcast::Sender<Signal>,
    /// The lines this server described for its latest appends (see
    /// [`RecentLines`]).
    pub(crate) recent: Mutex<RecentLines>,
    /// Each seat's view and sheets as text at one seq, made once for all of
    /// that seat's sockets (see [`SeatTexts`]).
    texts: Mutex<HashMap<String, TextsAt>>,
    /// How many times a seat's view and sheets were made for the followers
    /// ([`Slot::texts_made`]).
    texts_made: AtomicU64,
}

/// One seat's entry in a slot's text cache: the seat, the state it was made
/// at ([`AnyTable::state_seq`]), and the texts, made by the first socket that asks (a `OnceLock`, so
/// sockets of that seat asking at once wait for the one making it).
type TextsAt = (Seat, u64, Arc<OnceLock<Arc<SeatTexts>>>);

/// A text sent to followers, with its [`Shape`] (its pieces), so a socket
/// can tell whether and where it changed since what it sent last by keeping
/// only the last shape; cheap to clone (shared).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// The JSON text and its pieces ([`crate::patch`]).
    pub(crate) shape: Arc<Shape>,
}

impl Part {
    fn of(text: String) -> Part {
        Part {
            shape: Arc::new(Shape::of(Arc::from(text))),
        }
    }
}

impl From<&str> for Part {
    fn from(text: &str) -> Part {
        Part::of(text.to_string())
    }
}

impl std::ops::Deref for Part {
    type Target = str;
    fn deref(&self) -> &str {
        &self.shape.text
    }
}

/// One seat's view of itself ([`AnyTable::view_text`]) and its sheets
/// ([`AnyTable::sheet_doc`]) as JSON text at one state: both are functions
/// of the table's state and the seat alone (`Session::view_of`,
/// `TextPlay::sheet_doc`), and the state after a row is fixed once the
/// row is stored (an undo appends a row; a command's rows reach readers only
/// after they are stored), so every socket of the seat can be sent the same
/// texts (issue 28: made once per seat and state, not once per socket). An
/// entry is only ever given to sockets of its own seat.
#[derive(Debug)]
pub(crate) struct SeatTexts {
    /// The view; `None` when the table refused it.
    pub(crate) view: Option<Part>,
    /// The sheets; `None` when they could not be written.
    pub(crate) sheets: Option<Part>,
}

impl SeatTexts {
    fn of(table: &AnyTable, seat: &Seat) -> SeatTexts {
        SeatTexts {
            view: table.view_text(seat, seat).ok().map(Part::of),
            sheets: serde_json::to_string(&table.sheet_doc(seat))
                .ok()
                .map(Part::of),
        }
    }
}

impl Slot {
    fn new(table: Option<AnyTable>) -> Slot {
        let seq = table.as_ref().map_or(0, AnyTable::seq);
        Slot {
            table: Arc::new(RwLock::new(table)),
            tx: broadcast::channel(BROADCAST_CAPACITY).0,
            recent: Mutex::new(RecentLines::empty_at(seq)),
            texts: Mutex::new(HashMap::new()),
            texts_made: AtomicU64::new(0),
        }
    }

    /// Seat `seat`'s (key `key`) view and sheets as text as `table` stands
    /// (`table` is this slot's table, read under its lock): made by the
    /// first socket of the seat that asks at this state and shared by the
    /// others. The entry is keyed by [`AnyTable::state_seq`], so rows that
    /// change nothing in the rules' state (talk, free rolls) remake nothing.
    /// One entry per seat, replaced when the state moves.
    pub(crate) fn seat_texts(&self, table: &AnyTable, seat: &Seat, key: &str) -> Arc<SeatTexts> {
        let seq = table.state_seq();
        let cell = {
            let mut texts = self
                .texts
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match texts.get(key) {
                Some((s, at, cell)) if s == seat && *at == seq => Arc::clone(cell),
                _ => {
                    let cell = Arc::new(OnceLock::new());
                    texts.insert(key.to_string(), (seat.clone(), seq, Arc::clone(&cell)));
                    cell
                }
            }
        };
        Arc::clone(cell.get_or_init(|| {
            self.texts_made.fetch_add(1, Ordering::Relaxed);
            Arc::new(SeatTexts::of(table, seat))
        }))
    }

    /// Forget every seat's texts: the table was reloaded or caught up (kept
    /// texts are only ever of the table as this slot holds it).
    fn forget_texts(&self) {
        self.texts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    /// How many times this table's followers had a seat's view and sheets
    /// made (once per seat and seq however many sockets the seat has open;
    /// for tests and diagnostics).
    pub fn texts_made(&self) -> u64 {
        self.texts_made.load(Ordering::Relaxed)
    }

    /// The recent lines window, usable even if a holder panicked (every change
    /// leaves it whole).
    pub(crate) fn recent(&self) -> std::sync::MutexGuard<'_, RecentLines> {
        self.recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Follow this table: one [`Signal`] per move.
    pub fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.tx.subscribe()
    }
}

/// The most lines `RecentLines` keeps (of all seats together): 256, some
/// dozens of commands at a table of a few seats (a follower is rarely more
/// than one behind), so a table held in memory keeps tens of KiB of lines.
pub const RECENT_LINES: usize = 256;

/// A window of the log lines this server wrote with its latest appends, every
/// seat's, so a follower one command (or a few) behind gets its update from
/// memory: no replay, no store round trip. It covers the seqs `from + 1 ..= to`
/// (every line of every seat of those seqs is here); a follower further behind,
/// or a table moved by another server, reads the store's lines instead.
#[derive(Debug, Default)]
pub(crate) struct RecentLines {
    from: u64,
    to: u64,
    /// `(seq, seat key, line as JSON text)`, in seq order: written out
    /// once here, not once per follower that sends it.
    lines: std::collections::VecDeque<(u64, String, String)>,
}

impl RecentLines {
    /// A window that covers nothing, at seq `seq`.
    pub(crate) fn empty_at(seq: u64) -> RecentLines {
        RecentLines {
            from: seq,
            to: seq,
            lines: std::collections::VecDeque::new(),
        }
    }

    /// Add the lines of the seqs `before + 1 ..= after` (every seat's); a gap
    /// (`before` is not where the window ends) starts the window afresh.
    pub(crate) fn push(&mut self, before: u64, after: u64, lines: &[NewLine]) {
        if before != self.to {
            *self = RecentLines::empty_at(before);
        }
        let mut added: Vec<&NewLine> = lines
            .iter()
            .filter(|l| l.seq > before && l.seq <= after)
            .collect();
        added.sort_by_key(|l| l.seq);
        self.lines.extend(
            added
                .into_iter()
                .map(|l| (l.seq, l.seat.clone(), l.line.to_string())),
        );
        self.to = after;
        while self.lines.len() > RECENT_LINES {
            let Some((seq, _, _)) = self.lines.pop_front() else {
                break;
            };
            self.from = seq;
            while self.lines.front().is_some_and(|(s, _, _)| *s <= seq) {
                self.lines.pop_front();
            }
        }
    }

    /// Seat `key`'s lines with `after < seq <= through`, as JSON texts, when
    /// the window covers that range; `None` when it does not (read the store).
    pub(crate) fn texts(&self, key: &str, after: u64, through: u64) -> Option<Vec<String>> {
        if after < self.from || through > self.to {
            return None;
        }
        let start = self.lines.partition_point(|(seq, _, _)| *seq <= after);
        Some(
            self.lines
                .range(start..)
                .take_while(|(seq, _, _)| *seq <= through)
                .filter(|(_, seat, _)| seat == key)
                .map(|(_, _, line)| line.clone())
                .collect(),
        )
    }

    /// [`RecentLines::texts`] read back as JSON values.
    #[cfg(test)]
    pub(crate) fn lines(
        &self,
        key: &str,
        after: u64,
        through: u64,
    ) -> Option<Vec<serde_json::Value>> {
        self.texts(key, after, through).map(|texts| {
            texts
                .iter()
                .filter_map(|t| serde_json::from_str(t).ok())
                .collect()
        })
    }
}

/// Every seat's log lines of the rows `table` gained after `before`, as the
/// engine describes them ([`AnyTable::lines_since`]): whatever each seat may
/// see, and nothing for a row a seat may not see. Issue 28.
pub fn describe_lines(table: &AnyTable, before: u64) -> Vec<NewLine> {
    let target = table.seq();
    let mut lines = Vec::new();
    for seat in table.seats() {
        let key = seat_key(&seat);
        for line in table.lines_since(&seat, before) {
            if line.seq <= before || line.seq > target {
                continue;
            }
            if let Ok(value) = serde_json::to_value(&line) {
                lines.push(NewLine {
                    seq: line.seq,
                    seat: key.clone(),
                    line: value,
                });
            }
        }
    }
    lines
}

/// Every seat's log lines of the rows of `table` after `after`, described by
/// replaying its journal ([`AnyTable::log_for`]): for rows stored before lines
/// were kept.
fn replay_lines(table: &AnyTable, after: u64) -> Vec<NewLine> {
    let mut lines = Vec::new();
    for seat in table.seats() {
        let key = seat_key(&seat);
        for line in table.log_for(&seat, after) {
            if let Ok(value) = serde_json::to_value(&line) {
                lines.push(NewLine {
                    seq: line.seq,
                    seat: key.clone(),
                    line: value,
                });
            }
        }
    }
    lines
}

/// Settings of one server.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The SHA-256 hash (hex) of the create token; `None`: anyone who reaches
    /// the server may create tables.
    pub create_token_hash: Option<String>,
    /// Prepended to `/t/ID#TOKEN` in the links the server hands out (e.g.
    /// `http://127.0.0.1:7878`); empty: links are relative.
    pub base_url: String,
    /// The most tables this server holds ([`MAX_TABLES`] by default; see
    /// there).
    pub max_tables: usize,
    /// How long a client may take to send a request's head, and how long a
    /// kept-alive connection may wait idle for its next one (hyper runs one
    /// timer for both); then the connection is closed. Default
    /// [`HEADER_TIMEOUT`] (10 s). Issue 28.
    pub header_timeout: Duration,
    /// How long a request body may go without sending a byte; then the
    /// request fails and the connection is closed. Default [`BODY_TIMEOUT`]
    /// (30 s). Issue 28.
    pub body_timeout: Duration,
    /// The most connections open at once (WebSockets included); past it the
    /// server stops accepting until one closes. Default [`MAX_CONNECTIONS`];
    /// keep it below the process's open-file limit. Issue 28.
    pub max_connections: usize,
    /// The hosts this server answers for besides the loopback names
    /// (`127.0.0.1`, `localhost`, `[::1]`, any port): a request whose `Host`
    /// or `Origin` names another is refused with 403 `host-not-allowed`
    /// (DNS rebinding: a web page the operator visits cannot reach the API).
    /// Host names without the port, lower case (`tabula.example`). `None`:
    /// hosts are not checked (`tabula serve --bind` to a non-loopback address
    /// without `--public-url`, which says so in its log). Default: loopback
    /// only. Issue 28.
    pub allowed_hosts: Option<Vec<String>>,
    /// Rate limits and per-seat caps ([`crate::quota::Quotas`]). Issue 28.
    pub quotas: crate::quota::Quotas,
    /// Tables of no campaign that nobody touched (created, played, ended:
    /// [`tabula_store::TableSummary::touched_ms`]) for this many days are
    /// deleted, with their logs and links, by a task that looks every
    /// [`crate::deletion::EXPIRE_EVERY`]; `None`: tables never expire.
    /// Default [`EXPIRE_AFTER_DAYS`] (`tabula serve --expire-days N`, 0 for
    /// never). Issue 28.
    pub expire_after_days: Option<u32>,
}

/// The default [`Settings::expire_after_days`]: 90 days. Deleting is for
/// good, so long enough that a group meeting monthly that misses a session or
/// two keeps its table; strangers' tables are bounded by the table limit and
/// quotas meanwhile.
pub const EXPIRE_AFTER_DAYS: u32 = 90;

/// The default [`Settings::header_timeout`]: 10 seconds.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The default [`Settings::body_timeout`]: 30 seconds.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The default [`Settings::max_connections`]: 20,000 (one process holds
/// 10,000 idle WebSockets, issue 15, with room for the HTTP beside them).
pub const MAX_CONNECTIONS: usize = 20_000;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            create_token_hash: None,
            base_url: String::new(),
            max_tables: MAX_TABLES,
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            allowed_hosts: Some(Vec::new()),
            quotas: crate::quota::Quotas::default(),
            expire_after_days: Some(EXPIRE_AFTER_DAYS),
        }
    }
}

/// The state every handler shares; cheap to clone.
#[derive(Clone, Debug)]
pub struct AppState {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) settings: Settings,
    pub(crate) slots: Mutex<HashMap<String, Arc<Slot>>>,
    pub(crate) shutdown: watch::Sender<bool>,
    pub(crate) limiters: crate::quota::Limiters,
    /// Recently proven tokens ([`AppState::authenticate`]).
    pub(crate) tokens: Mutex<TokenCache>,
}

/// How long a proven token is trusted without asking the store again: a
/// token reissued by another process that shares the database (the `tabula
/// table links` command, a server on PostgreSQL whose notice is late) stops
/// working within this; one reissued or deleted through this server stops at
/// once (issue 28: a command costs no store round trip for its token).
pub const TOKEN_CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(1);

/// The most tokens kept proven at once; past it the cache starts afresh.
pub const TOKEN_CACHE_MAX: usize = 4096;

/// Proven tokens: (table id, token hash) to the seat and when it was proven.
pub(crate) type TokenCache = HashMap<(String, String), (SeatRecord, std::time::Instant)>;

/// A request's seat, proven by its token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authed {
    /// The table id.
    pub table: String,
    /// The seat as the engine knows it.
    pub seat: Seat,
    /// The seat's key: `gm` or the player's name.
    pub key: String,
    /// GM or player.
    pub role: Role,
}

impl AppState {
    /// The state of a server on `store`: creating tables is open to anyone,
    /// links are relative.
    pub fn new(store: Arc<dyn Store>) -> AppState {
        AppState::with_settings(store, Settings::default())
    }

    /// The state of a server on `store` with `settings`.
    pub fn with_settings(store: Arc<dyn Store>, settings: Settings) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                store,
                limiters: crate::quota::Limiters::new(settings.quotas.clone()),
                settings,
                slots: Mutex::new(HashMap::new()),
                shutdown: watch::channel(false).0,
                tokens: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The rate limiters and caps of [`Settings::quotas`].
    pub fn limiters(&self) -> &crate::quota::Limiters {
        &self.inner.limiters
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// Tell every WebSocket to close (1001, going away): called when the server
    /// begins a graceful shutdown, so open sockets do not hold it up.
    pub fn begin_shutdown(&self) {
        self.inner.shutdown.send_replace(true);
    }

    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    /// How many tables are held in memory now.
    pub fn loaded_tables(&self) -> usize {
        self.slots().len()
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        // A panic while holding this lock cannot leave the map half-changed
        // (every change is one insert or remove), so a poisoned lock is usable.
        self.inner
            .slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The seat whose token `token` is at table `id`.
    ///
    /// # Errors
    /// [`AppError::Unauthorized`] (one body for a malformed id, an unknown
    /// table and a wrong token); [`AppError::Internal`] when the store fails.
    pub async fn authenticate(&self, id: &str, token: Option<&str>) -> Result<Authed, AppError> {
        let unauthorized = AppError::Unauthorized(UNAUTHORIZED_MESSAGE);
        let Some(token) = token.and_then(auth::plausible) else {
            return Err(unauthorized);
        };
        if !auth::plausible_table_id(id) {
            return Err(unauthorized);
        }
        let hash = auth::hash_token(token);
        let key = (id.to_string(), hash);
        if let Some((record, at)) = self.token_cache().get(&key)
            && at.elapsed() < TOKEN_CACHE_TTL
        {
            return Ok(authed(id, record.clone()));
        }
        let record = self
            .store()
            .seat_for_token(id, &key.1)
            .await
            .map_err(AppError::store)?
            .ok_or(unauthorized)?;
        let mut cache = self.token_cache();
        if cache.len() >= TOKEN_CACHE_MAX {
            cache.clear();
        }
        cache.insert(key, (record.clone(), std::time::Instant::now()));
        drop(cache);
        Ok(authed(id, record))
    }

    fn token_cache(&self) -> std::sync::MutexGuard<'_, TokenCache> {
        self.inner
            .tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Forget the proven tokens of table `id` (of seat `key` only, when
    /// given): it was reissued or deleted.
    fn forget_tokens(&self, id: &str, key: Option<&str>) {
        self.token_cache()
            .retain(|(table, _), (record, _)| table != id || key.is_some_and(|k| record.seat != k));
    }

    /// The slot of table `id`, made (empty) on first use.
    ///
    /// # Errors
    /// [`AppError::TableLimit`] when [`Settings::max_tables`] tables are held
    /// and none is idle enough to let go.
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, AppError> {
        let max = self.inner.settings.max_tables;
        let mut slots = self.slots();
        if let Some(s) = slots.get(id) {
            return Ok(s.clone());
        }
        if slots.len() >= max {
            // Let go of a table nobody is using (no request, no socket).
            let idle = slots
                .iter()
                .find(|(_, s)| Arc::strong_count(s) == 1)
                .map(|(k, _)| k.clone());
            match idle {
                Some(k) => {
                    slots.remove(&k);
                }
                None => return Err(AppError::TableLimit { max }),
            }
        }
        let slot = Arc::new(Slot::new(None));
        slots.insert(id.to_string(), slot.clone());
        Ok(slot)
    }

    /// Hold a freshly created table in memory.
    pub(crate) fn insert(&self, id: &str, table: AnyTable) {
        let max = self.inner.settings.max_tables;
        let mut slots = self.slots();
        if slots.len() < max {
            slots.insert(id.to_string(), Arc::new(Slot::new(Some(table))));
        }
    }

    /// Table `id` for reading: loaded from the store on first use, and
    /// brought up to date first when the store holds rows this server has not
    /// seen (another server on the same database appended them).
    ///
    /// # Errors
    /// As [`AppState::slot`]; [`AppError::Internal`] when it cannot be loaded.
    pub async fn read(
        &self,
        id: &str,
    ) -> Result<(Arc<Slot>, OwnedRwLockReadGuard<Option<AnyTable>>), AppError> {
        let slot = self.slot(id)?;
        let guard = slot.table.clone().read_owned().await;
        if let Some(t) = guard.as_ref()
            && !self.behind(id, t.seq()).await?
        {
            return Ok((slot, guard));
        }
        drop(guard);
        let mut write = slot.table.clone().write_owned().await;
        self.catch_up(&slot, &mut write, id).await?;
        Ok((slot, OwnedRwLockWriteGuard::downgrade(write)))
    }

    /// Table `id` for reading as this server holds it (loaded on first use,
    /// not checked against the store): for a WebSocket woken by this table's
    /// own signal, which comes after the table moved.
    ///
    /// # Errors
    /// As [`AppState::read`].
    pub async fn read_cached(
        &self,
        id: &str,
    ) -> Result<(Arc<Slot>, OwnedRwLockReadGuard<Option<AnyTable>>), AppError> {
        let slot = self.slot(id)?;
        let guard = slot.table.clone().read_owned().await;
        if guard.is_some() {
            return Ok((slot, guard));
        }
        drop(guard);
        let mut write = slot.table.clone().write_owned().await;
        if write.is_none() {
            *write = Some(load(self.store().as_ref(), id).await?);
        }
        Ok((slot, OwnedRwLockWriteGuard::downgrade(write)))
    }

    /// Table `id` for a command, loaded from the store on first use: holding
    /// the guard, nothing else in this process changes the table. It is *not*
    /// checked against the store first (that would cost every command a round
    /// trip; on PostgreSQL the store's notices keep it current): a command
    /// decided on a copy another server has moved past is refused by the
    /// store's seq check, and `AppState::persist` catches the copy up so the
    /// command can be decided again; a refusal or a stale `expect_seq` is
    /// checked with [`AppState::catch_up`] before it is answered.
    ///
    /// # Errors
    /// As [`AppState::read`].
    pub async fn write(
        &self,
        id: &str,
    ) -> Result<(Arc<Slot>, OwnedRwLockWriteGuard<Option<AnyTable>>), AppError> {
        let slot = self.slot(id)?;
        let mut guard = slot.table.clone().write_owned().await;
        if guard.is_none() {
            *guard = Some(load(self.store().as_ref(), id).await?);
        }
        Ok((slot, guard))
    }

    /// Bring the table in `guard` up to date with the store (another server
    /// appended): the rows it lacks are replayed onto it (it is loaded whole
    /// when it is not loaded yet, or when the rows do not follow on). True when
    /// it moved; its followers then hear of the new seq.
    ///
    /// # Errors
    /// [`AppError::Internal`] when the store fails (the table is left as it
    /// was, or unloaded if it was half caught up).
    pub async fn catch_up(
        &self,
        slot: &Slot,
        guard: &mut Option<AnyTable>,
        id: &str,
    ) -> Result<bool, AppError> {
        let Some(t) = guard.as_mut() else {
            let t = load(self.store().as_ref(), id).await?;
            *slot.recent() = RecentLines::empty_at(t.seq());
            slot.forget_texts();
            *guard = Some(t);
            return Ok(true);
        };
        let before = t.seq();
        let newer = self
            .store()
            .entries_after(id, before)
            .await
            .map_err(AppError::store)?;
        if newer.is_empty() {
            return Ok(false);
        }
        let rows: Vec<RawRow> = newer.into_iter().map(raw_row).collect();
        match t.extend(&rows) {
            // Past a multiple of SNAPSHOT_EVERY, as the appending server's
            // snapshot: the older rows are forgotten here too (issue 28).
            Ok(()) if before / SNAPSHOT_EVERY != t.seq() / SNAPSHOT_EVERY => t.snapshot_kept(),
            Ok(()) => {}
            Err(e) => {
                tracing::warn!(table = id, error = %e, "catching up row by row failed; reloading");
                *guard = None;
                *guard = Some(load(self.store().as_ref(), id).await?);
            }
        }
        let seq = guard.as_ref().map_or(before, AnyTable::seq);
        // Another server described these rows: they are in the store only.
        *slot.recent() = RecentLines::empty_at(seq);
        slot.forget_texts();
        let _ = slot.tx.send(Signal::Advanced(seq));
        Ok(true)
    }

    /// True when the store holds rows of table `id` after `seq`.
    async fn behind(&self, id: &str, seq: u64) -> Result<bool, AppError> {
        let newer = self
            .store()
            .entries_after(id, seq)
            .await
            .map_err(AppError::store)?;
        Ok(!newer.is_empty())
    }

    /// Some server appended rows of table `id` up to `seq` (the store's
    /// notice): when this server holds the table and is behind, catch it up
    /// and wake its WebSockets. A table not held here is left alone (it is
    /// loaded fresh on first use).
    pub async fn heard(&self, id: &str, seq: u64) {
        let Some(slot) = self.slots().get(id).cloned() else {
            return;
        };
        {
            let guard = slot.table.read().await;
            match guard.as_ref() {
                Some(t) if t.seq() < seq => {}
                _ => return,
            }
        }
        let mut guard = slot.table.clone().write_owned().await;
        if guard.as_ref().is_some_and(|t| t.seq() < seq)
            && let Err(e) = self.catch_up(&slot, &mut guard, id).await
        {
            tracing::warn!(table = id, error = %e, "catching up after a notice");
        }
    }

    /// The slot of table `id` when this server holds it (never makes one).
    pub(crate) fn held_slot(&self, id: &str) -> Option<Arc<Slot>> {
        self.slots().get(id).cloned()
    }

    /// Table `id` is gone from the store: drop it from memory and tell its
    /// WebSockets `message` (they close). Nothing when it is not held here.
    pub(crate) fn forget(&self, id: &str, message: &'static str) {
        self.forget_tokens(id, None);
        if let Some(slot) = self.slots().remove(id) {
            let _ = slot.tx.send(Signal::Deleted(message));
        }
    }

    /// The ids of the tables held in memory.
    pub fn held_tables(&self) -> Vec<String> {
        self.slots().keys().cloned().collect()
    }

    /// The rows table `id` holds in memory, `(first, last)` seq (`first` is 1
    /// for a table holding its whole journal, [`AnyTable::first_held_seq`]),
    /// or `None` when it is not held here. For diagnostics and tests: a table
    /// played for a long evening holds a bounded number of rows (issue 28).
    pub async fn held_rows(&self, id: &str) -> Option<(u64, u64)> {
        let slot = self.slots().get(id).cloned()?;
        let table = slot.table.read().await;
        table.as_ref().map(|t| (t.first_held_seq(), t.seq()))
    }

    /// Follow the store's feed of appends (PostgreSQL; SQLite has none) until
    /// the server shuts down: each notice catches the table up
    /// ([`AppState::heard`]), on a task of its own so one busy table never
    /// holds up the others; a lost feed treats every table held as behind.
    pub async fn follow_store(self) {
        let mut feed = match self.store().follow().await {
            Ok(Some(feed)) => feed,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, "cannot follow the store: other servers' commands reach this one's tables only on their next use");
                return;
            }
        };
        let mut shutdown = self.shutdown_signal();
        loop {
            let event = tokio::select! {
                event = feed.next() => event,
                _ = shutdown.changed() => return,
            };
            match event {
                None => return,
                Some(FeedEvent::Appended { table, seq }) => {
                    let state = self.clone();
                    tokio::spawn(async move { state.heard(&table, seq).await });
                }
                Some(FeedEvent::Reissued { table, seat }) => self.reissued(&table, &seat),
                Some(FeedEvent::Ended { table }) => self.ended(&table),
                Some(FeedEvent::Deleted { table }) => {
                    self.forget(&table, crate::deletion::DELETED_MESSAGE);
                }
                Some(FeedEvent::Lost) => {
                    tracing::warn!(
                        "the store's feed was lost and is back: catching up every table"
                    );
                    for table in self.held_tables() {
                        let state = self.clone();
                        tokio::spawn(async move { state.heard(&table, u64::MAX).await });
                    }
                }
            }
        }
    }

    /// Write the rows `table` gained after `before` to the store, as one
    /// append, with the roller state after them (and a snapshot of the state
    /// when the log passes a multiple of [`SNAPSHOT_EVERY`]). On success every
    /// follower of the table hears of the new seq, and after a snapshot the
    /// table forgets the rows before its previous one
    /// ([`AnyTable::snapshot_kept`]).
    ///
    /// # Errors
    /// [`AppError::Stale`] when another server appended first: the table is
    /// caught up with the store (the command's rows are dropped) so the caller
    /// may decide again; [`AppError::TooLarge`] when the store refuses the
    /// entries' size (the table is reloaded: nothing changed);
    /// [`AppError::Internal`] on a store failure (the table is reloaded, or
    /// dropped from memory if that fails too).
    pub(crate) async fn persist(
        &self,
        slot: &Slot,
        guard: &mut Option<AnyTable>,
        id: &str,
        before: u64,
    ) -> Result<u64, AppError> {
        let Some(table) = guard.as_ref() else {
            return Err(AppError::Internal("persist without a table".into()));
        };
        let rows = table.raw_rows_after(before);
        let target = table.seq();
        let Some(last) = rows.last() else {
            return Ok(target);
        };
        let roller_after = last.roller.clone();
        let snapshot = (before / SNAPSHOT_EVERY != target / SNAPSHOT_EVERY).then(|| table.state());
        let snapshotted = snapshot.is_some();
        // Described once, here, for every seat: kept in the store with the rows
        // and in the slot's window for the followers. Issue 28.
        let lines = describe_lines(table, before);
        let entries: Vec<NewEntry> = rows
            .into_iter()
            .map(|r| NewEntry {
                seat: r.seat,
                entry: r.entry,
            })
            .collect();
        let result = self
            .store()
            .append_with_lines(
                id,
                before,
                entries,
                roller_after,
                snapshot,
                Some(lines.clone()),
            )
            .await;
        let error = match result {
            Ok(seq) if seq == target => {
                if snapshotted {
                    // The rows before the previous snapshot are the store's
                    // alone from now on (memory and undo bounded; issue 28).
                    if let Some(table) = guard.as_mut() {
                        table.snapshot_kept();
                    }
                }
                slot.recent().push(before, seq, &lines);
                let _ = slot.tx.send(Signal::Advanced(seq));
                return Ok(seq);
            }
            Ok(seq) => AppError::Internal(format!(
                "the store appended up to seq {seq}, the table is at {target}"
            )),
            Err(StoreError::Conflict { current }) => AppError::Stale { current },
            Err(StoreError::Ended) => AppError::Ended,
            Err(
                e @ (StoreError::EntryTooLarge { .. }
                | StoreError::TooManyEntries { .. }
                | StoreError::StateTooLarge { .. }
                | StoreError::LineTooLarge { .. }
                | StoreError::SeqOutOfRange(_)),
            ) => AppError::TooLarge(format!(
                "the command's log entries are too large to keep ({e}); nothing changed"
            )),
            Err(e) => AppError::store(e),
        };
        // The table in memory moved on but the store did not (or moved
        // elsewhere): go back to what the store holds.
        match load(self.store().as_ref(), id).await {
            Ok(t) => {
                let seq = t.seq();
                *slot.recent() = RecentLines::empty_at(seq);
                slot.forget_texts();
                *guard = Some(t);
                if seq != before {
                    let _ = slot.tx.send(Signal::Advanced(seq));
                }
            }
            Err(e) => {
                tracing::error!(table = id, error = %e, "reload after a failed append");
                *guard = None;
                slot.forget_texts();
            }
        }
        Err(error)
    }

    /// Tell table `id`'s followers that its encounter ended (here, or on
    /// another server: then through the store's feed).
    pub(crate) fn ended(&self, id: &str) {
        if let Some(slot) = self.slots().get(id) {
            let _ = slot.tx.send(Signal::Ended);
        }
    }

    /// Tell table `id`'s followers that `key`'s token was reissued (here, or
    /// on another server: then through the store's feed); those whose token
    /// no longer matches close.
    pub(crate) fn reissued(&self, id: &str, key: &str) {
        self.forget_tokens(id, Some(key));
        if let Some(slot) = self.slots().get(id) {
            let _ = slot.tx.send(Signal::Reissued(key.to_string()));
        }
    }
}

fn authed(id: &str, record: SeatRecord) -> Authed {
    let seat = match record.role {
        Role::Gm => Seat::Gm,
        Role::Player => Seat::Player(record.seat.clone()),
    };
    Authed {
        table: id.to_string(),
        seat,
        key: record.seat,
        role: record.role,
    }
}

/// The journal row the engine reads back from a stored entry.
pub fn raw_row(e: StoredEntry) -> RawRow {
    RawRow {
        seq: e.seq,
        seat: e.seat,
        entry: e.entry,
        command_end: e.command_end,
        roller: e.roller,
    }
}

/// Rebuild table `id` from the store: from its latest snapshot and the rows
/// from the snapshot's on when it can ([`Store::load_table_tail`],
/// [`AnyTable::restore_tail`]: at most about [`SNAPSHOT_EVERY`] rows read,
/// whatever the log's length; issue 28, item 1), else its initial state and
/// roller with every row replayed ([`load_whole`]).
///
/// # Errors
/// [`AppError::Unauthorized`] when the store has no such table (the caller was
/// authenticated a moment ago, so it was just removed); [`AppError::Internal`]
/// when the store fails or the rows do not replay.
pub async fn load(store: &dyn Store, id: &str) -> Result<AnyTable, AppError> {
    let loaded = store
        .load_table_tail(id)
        .await
        .map_err(AppError::store)?
        .ok_or(AppError::Unauthorized(UNAUTHORIZED_MESSAGE))?;
    if let Some(table) = from_snapshot(id, &loaded) {
        return Ok(table);
    }
    load_whole(store, id).await
}

/// The table of `loaded` (a [`Store::load_table_tail`] answer) rebuilt from
/// its snapshot and the rows from the snapshot's on, when it can be: it has a
/// snapshot, every row's log lines are stored (older rows are never described
/// again), and the rows after the snapshot replay without going back before it.
/// `None`: load the whole log instead. Issue 28, item 1.
fn from_snapshot(id: &str, loaded: &LoadedTable) -> Option<AnyTable> {
    let snapshot = loaded.snapshot.as_ref()?;
    if loaded.lines_through < loaded.summary.seq
        || loaded.entries.first().map(|e| e.seq) != Some(snapshot.seq)
    {
        return None;
    }
    let system: SystemId = loaded.summary.system.parse().ok()?;
    let roller = loaded.initial_roller.as_ref()?;
    let rows: Vec<RawRow> = loaded.entries.iter().cloned().map(raw_row).collect();
    match AnyTable::restore_tail(
        system,
        &loaded.initial_state,
        roller,
        (snapshot.seq, &snapshot.state),
        &rows,
    ) {
        Ok(t) if t.seq() == loaded.summary.seq => Some(t),
        Ok(_) => None,
        Err(e) => {
            tracing::info!(table = id, error = %e, "the snapshot does not load; replaying the whole log");
            None
        }
    }
}

/// Load table `id` from every row of its log, as [`load`] does when the
/// snapshot cannot be used, and before an undo back past the snapshot.
///
/// # Errors
/// As [`load`].
pub async fn load_whole(store: &dyn Store, id: &str) -> Result<AnyTable, AppError> {
    let loaded = store
        .load_table(id)
        .await
        .map_err(AppError::store)?
        .ok_or(AppError::Unauthorized(UNAUTHORIZED_MESSAGE))?;
    let system: SystemId = loaded
        .summary
        .system
        .parse()
        .map_err(|e| AppError::Internal(format!("table {id}: {e}")))?;
    let roller = loaded
        .initial_roller
        .clone()
        .ok_or_else(|| AppError::Internal(format!("table {id} has no initial roller")))?;
    let stored_seq = loaded.summary.seq;
    let lines_through = loaded.lines_through;
    let rows: Vec<RawRow> = loaded.entries.into_iter().map(raw_row).collect();
    let table = AnyTable::restore(system, &loaded.initial_state, &roller, &rows)
        .map_err(|e| AppError::Internal(format!("table {id} does not replay: {e}")))?;
    if lines_through < stored_seq && table.seq() == stored_seq {
        // Rows stored before their lines were kept (an older database): describe
        // them once, so the log is read from stored lines from now on. Issue 28.
        let lines = replay_lines(&table, lines_through);
        tracing::info!(
            table = id,
            from = lines_through,
            to = stored_seq,
            lines = lines.len(),
            "describing the log lines of older rows once"
        );
        store
            .put_lines(id, stored_seq, lines)
            .await
            .map_err(AppError::store)?;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn line(seq: u64, seat: &str) -> NewLine {
        NewLine {
            seq,
            seat: seat.into(),
            line: serde_json::json!({ "seq": seq, "seat": seat }),
        }
    }

    /// The lines of a command of `rows` rows after `before`: every seat sees
    /// each row, but "bo" sees no row whose seq is a multiple of `hide`.
    fn command(before: u64, rows: u64, hide: u64) -> Vec<NewLine> {
        let mut lines = Vec::new();
        for seat in ["gm", "ann", "bo"] {
            for seq in before + 1..=before + rows {
                if seat != "bo" || seq % hide != 0 {
                    lines.push(line(seq, seat));
                }
            }
        }
        lines
    }

    #[test]
    fn the_window_gives_a_seats_new_lines_and_nothing_it_does_not_cover() {
        let mut w = RecentLines::empty_at(10);
        w.push(10, 12, &command(10, 2, 3));
        w.push(12, 13, &command(12, 1, 3));
        let seqs = |v: Option<Vec<serde_json::Value>>| {
            v.map(|v| {
                v.iter()
                    .map(|l| l["seq"].as_u64().unwrap())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(seqs(w.lines("ann", 10, 13)), Some(vec![11, 12, 13]));
        assert_eq!(seqs(w.lines("bo", 10, 13)), Some(vec![11, 13]));
        assert_eq!(seqs(w.lines("bo", 12, 13)), Some(vec![13]));
        assert_eq!(seqs(w.lines("cy", 12, 13)), Some(vec![]));
        // Before the window, or past it: the store answers.
        assert_eq!(w.lines("ann", 9, 13), None);
        assert_eq!(w.lines("ann", 12, 14), None);
        // A gap starts the window afresh.
        w.push(20, 21, &command(20, 1, 3));
        assert_eq!(w.lines("ann", 13, 21), None);
        assert_eq!(seqs(w.lines("ann", 20, 21)), Some(vec![21]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the commands (contiguous or not, large or small), the
        /// window either says it does not cover a range or gives exactly the
        /// seat's lines of it, in seq order, and never holds more than its cap.
        #[test]
        fn the_window_is_exact_or_silent(
            commands in prop::collection::vec((0u64..3, 1u64..400, 2u64..5), 1..12),
            seat in prop::sample::select(vec!["gm", "ann", "bo", "cy"]),
            ask in (0u64..8000, 0u64..3000),
        ) {
            let mut w = RecentLines::empty_at(0);
            let mut all: Vec<NewLine> = Vec::new();
            let mut seq = 0;
            for (gap, rows, hide) in commands {
                seq += gap;
                let lines = command(seq, rows, hide);
                w.push(seq, seq + rows, &lines);
                all.extend(lines);
                seq += rows;
                prop_assert!(w.lines.len() <= RECENT_LINES);
            }
            let (after, len) = ask;
            let through = after + len;
            if let Some(got) = w.lines(seat, after, through) {
                let mut want: Vec<&NewLine> = all
                    .iter()
                    .filter(|l| l.seat == seat && l.seq > after && l.seq <= through)
                    .collect();
                want.sort_by_key(|l| l.seq);
                let want: Vec<serde_json::Value> = want.into_iter().map(|l| l.line.clone()).collect();
                prop_assert_eq!(got, want);
            }
            // The newest command is always covered.
            prop_assert!(w.lines(seat, seq.saturating_sub(1), seq).is_some());
        }
    }
}
