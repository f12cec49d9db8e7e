//! # tabula-store
//!
//! Where Tabula's shared online table keeps its tables: who sits at each one, and the
//! event log that rebuilds it. The server holds one [`Store`] as `Arc<dyn Store>`
//! and never sees SQL (DESIGN.md, "Scale"; STYLE.md habit 12).
//!
//! Two backends behind the one trait, picked by [`open`] from the URL's scheme:
//!
//! - **SQLite** (`sqlite://tabula.db`), the embedded default: the file is created if
//!   missing, in WAL mode, with foreign keys on and a busy timeout of
//!   [`SQLITE_BUSY_TIMEOUT`], so one process serves many tables. Appends are
//!   written by one thread with a connection of its own, the appends of several
//!   tables that arrive together in one transaction (issue 28); everything else
//!   goes through sqlx.
//! - **PostgreSQL** (`postgres://...` or `postgresql://...`), for several stateless
//!   servers sharing one log. [`open_with_schema`] keeps the store in a schema of its
//!   own (tests use one fresh schema per run).
//!
//! Each backend has its own migrations (`migrations/sqlite`, `migrations/postgres`),
//! run by [`open`].
//!
//! ## The log and its lock
//!
//! A table's log is a list of entries numbered `1, 2, 3...` (`seq`); a table's seq is
//! the seq of its last entry, 0 while the log is empty. [`Store::append`] writes one
//! command's entries only if the caller still knows the table's current seq
//! (`expect_seq`), and the `(table_id, seq)` key is unique in the database, so two
//! servers racing to append to one table cannot both succeed: the loser gets
//! [`StoreError::Conflict`] with the seq to reload from.
//!
//! This crate knows nothing of the rules: states, entries and roller states are
//! opaque [`serde_json::Value`]s handed over by the engine, and tokens arrive already
//! hashed (the store never sees a token).
//!
//! ## Snapshots
//!
//! [`Store::append_with_snapshot`] may write, in the same transaction as the entries,
//! the state the table reached with them ([`Snapshot`]: seq, state, roller). A table
//! keeps only its newest snapshot; [`Store::load_table`] returns it beside the whole
//! log, so a loader may skip replaying the rows it covers. A snapshot is a cache of the
//! log, never the truth: replaying the log up to its seq must give its state.
//!
//! ## Log lines
//!
//! [`Store::append_with_lines`] writes, in the same transaction as the entries,
//! each entry's log line as every seat may see it ([`NewLine`]: opaque JSON the
//! engine described once, when the entry was appended; a seat that may not see an
//! entry has no line for it). [`Store::log_lines`] reads a page of one seat's
//! lines, the oldest or the newest of a seq range, with one query: reading a log
//! never replays the rules, whatever its length. [`LoadedTable::lines_through`]
//! says up to which seq every entry's lines are stored; the entries after it
//! (written before lines were kept) are described by the loader and written
//! once with [`Store::put_lines`].
//!
//! ## Campaigns and characters
//!
//! A campaign ([`Store::create_campaign`]) plays one rule system with its seats (the
//! GM and the players, token hashes only, as at a table) and its characters. A
//! character ([`Store::add_character`]) is owned by one seat of its campaign (a
//! player's, or the GM's for a non-player character), has a name and a file name
//! (the name a table file uses for its sheet, e.g. `kodos.toml`), each unique in
//! the campaign, and an append-only history: events numbered `1, 2, 3...`, each with
//! the sheet after it; the last event's sheet is the current sheet. Appending to a
//! history takes the same optimistic lock as a table's log
//! ([`Store::append_character_event`], [`StoreError::CharacterConflict`]).
//!
//! A table may belong to a campaign ([`NewTable::campaign`]): an encounter.
//! [`Store::end_table`] ends it and writes its lasting changes back to the
//! characters in one transaction, exactly once however many servers try. Sheets and
//! events are opaque to the store, like states and entries.
//!
//! ## Several processes
//!
//! A SQLite file belongs to one process: [`open`] takes an exclusive lock on a file
//! beside it (`NAME.lock`) and a second process is refused with
//! [`StoreError::Locked`]. PostgreSQL takes any number of processes; each learns of
//! the appends the others make from [`Store::follow`] (PostgreSQL `LISTEN/NOTIFY`,
//! sent in the append's transaction, so a notice means the rows are committed).
//!
//! ## Caps
//!
//! One entry's JSON is at most [`MAX_ENTRY_BYTES`], one append at most
//! [`MAX_APPEND_ENTRIES`] entries, an initial state or roller state at most
//! [`MAX_STATE_BYTES`]; a sheet at most [`MAX_SHEET_BYTES`], an event kind at most
//! [`MAX_EVENT_KIND_CHARS`] characters, a campaign at most [`MAX_CAMPAIGN_CHARACTERS`]
//! characters, a history at most [`MAX_CHARACTER_EVENTS`] events. Beyond that a call
//! is refused with a typed error (the size caps before touching the database).
//!
//! # Examples
//!
//! ```
//! use serde_json::json;
//! use tabula_store::{NewEntry, NewSeat, NewTable, Role, StoreError};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), StoreError> {
//! let store = tabula_store::open("sqlite::memory:").await?;
//! let id = store
//!     .create_table(NewTable {
//!         system: "sour-grapes".into(),
//!         name: "Friday".into(),
//!         initial_state: json!({"round": 0}),
//!         roller: Some(json!({"seed": 7})),
//!         seats: vec![NewSeat {
//!             seat: "gm".into(),
//!             role: Role::Gm,
//!             display_name: "Ann".into(),
//!             token_hash: "hash-of-ann's-token".into(),
//!         }],
//!         campaign: None,
//!     })
//!     .await?;
//!
//! let entry = NewEntry { seat: "gm".into(), entry: json!({"round": 1}) };
//! assert_eq!(store.append(&id, 0, vec![entry.clone()], None).await?, 1);
//! // A second server that still believes the log is empty is refused.
//! assert!(matches!(
//!     store.append(&id, 0, vec![entry], None).await,
//!     Err(StoreError::Conflict { current: 1 })
//! ));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod appender;
mod common;
mod error;
mod feed;
mod lock;
mod postgres;
mod sqlite;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

pub use error::StoreError;
pub use feed::{FEED_RETRY, Feed, FeedEvent, NOTIFY_CHANNEL};

/// A table's id: 32 lowercase hexadecimal characters (128 random bits), generated by
/// [`Store::create_table`]. Ids from callers are taken as they come: an unknown or
/// malformed id simply finds nothing.
pub type TableId = String;

/// The most bytes one entry may take as compact JSON (`serde_json::to_string`):
/// 256 KiB. [`Store::append`] refuses a larger entry with
/// [`StoreError::EntryTooLarge`] and writes nothing.
pub const MAX_ENTRY_BYTES: usize = 256 * 1024;

/// A campaign's id: 32 lowercase hexadecimal characters (128 random bits), generated
/// by [`Store::create_campaign`]. Like a [`TableId`], a malformed id finds nothing.
pub type CampaignId = String;

/// A character's id: 32 lowercase hexadecimal characters (128 random bits), generated
/// by [`Store::add_character`]. Unique in the whole store; a character is always
/// looked up with its campaign, so another campaign's character is never found.
pub type CharacterId = String;

/// The most bytes of one character sheet (TOML text): 1 MiB, the cap of every sheet
/// file read (`tabula_core::files::MAX_FILE_BYTES`). More is refused with
/// [`StoreError::SheetTooLarge`].
pub const MAX_SHEET_BYTES: usize = tabula_core::files::MAX_FILE_BYTES as usize;

/// The most bytes one character event's entry may take as compact JSON: twice
/// [`MAX_SHEET_BYTES`] and 64 KiB, so an event that carries a whole sheet
/// (created, imported) takes any sheet up to [`MAX_SHEET_BYTES`] however its
/// JSON escapes it. Larger is refused with [`StoreError::EntryTooLarge`].
/// Issue 28 (a sheet over 256 KiB, the cap of a table's log entry, failed).
pub const MAX_CHARACTER_ENTRY_BYTES: usize = 2 * MAX_SHEET_BYTES + 64 * 1024;

/// The most characters of a character event's kind: 32. More (or none, or a control
/// character) is refused with [`StoreError::BadEventKind`].
pub const MAX_EVENT_KIND_CHARS: usize = 32;

/// The most characters one campaign may hold: 10,000. One more is refused with
/// [`StoreError::TooManyCharacters`].
pub const MAX_CAMPAIGN_CHARACTERS: u64 = 10_000;

/// The most bytes a campaign's current sheets may take together: 16 MiB (sixteen
/// sheets at [`MAX_SHEET_BYTES`], hundreds of real ones). A campaign is loaded
/// whole to be shown or to open a table, so this bounds what one read holds in
/// memory (issue 28: 400 characters of 248 KiB made one GET 97 MiB). A new
/// character or a new sheet that would take it past this is refused with
/// [`StoreError::CampaignTooLarge`].
pub const MAX_CAMPAIGN_SHEET_BYTES: u64 = 16 << 20;

/// The most events one character's history may hold: 100,000 (so its seq is at most
/// this). One more is refused with [`StoreError::TooManyEvents`].
pub const MAX_CHARACTER_EVENTS: u64 = 100_000;

/// The most entries one [`Store::append`] may write (one command's events): 4096.
/// More is refused with [`StoreError::TooManyEntries`].
pub const MAX_APPEND_ENTRIES: usize = 4096;

/// The most bytes, as compact JSON, of a table's initial state or of a roller state
/// (at creation or after a command): 4 MiB. More is refused with
/// [`StoreError::StateTooLarge`].
pub const MAX_STATE_BYTES: usize = 4 * 1024 * 1024;

/// How many entries a table's log grows between two [`Snapshot`]s the server writes:
/// 100. An append that takes the log past a multiple of it carries a snapshot, so a
/// load replays at most about this many entries (plus the last command's).
pub const SNAPSHOT_EVERY: u64 = 100;

/// How long a SQLite connection waits for another writer to finish before giving up
/// with [`StoreError::Database`]: 5 seconds.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// What a seat may do at a table. Serialized as `"gm"` or `"player"`, and stored the
/// same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The game master: runs the table, sees what the book lets the GM see.
    Gm,
    /// A player.
    Player,
}

impl Role {
    /// The stored and serialized name: `"gm"` or `"player"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Gm => "gm",
            Role::Player => "player",
        }
    }

    /// The role named `"gm"` or `"player"` (exactly, lowercase); `None` for anything
    /// else.
    pub fn from_name(name: &str) -> Option<Role> {
        match name {
            "gm" => Some(Role::Gm),
            "player" => Some(Role::Player),
            _ => None,
        }
    }
}

/// One seat of a table about to be created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSeat {
    /// The seat's name at its table (what entries name as their author), unique within
    /// the table: a repeat is refused with [`StoreError::DuplicateSeat`].
    pub seat: String,
    /// What the seat may do.
    pub role: Role,
    /// The name shown to the others at the table.
    pub display_name: String,
    /// The hash of the seat's secret token, computed by the caller: the store never
    /// sees the token itself. Compared by exact string equality.
    pub token_hash: String,
}

/// A table about to be created by [`Store::create_table`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewTable {
    /// The rule system's id, as the engine names it (e.g. `"sour-grapes"`).
    pub system: String,
    /// The table's name, shown in lists.
    pub name: String,
    /// The state before the first entry, as the engine serializes it; at most
    /// [`MAX_STATE_BYTES`] as JSON.
    pub initial_state: serde_json::Value,
    /// The roller's state before the first entry (`None` when the table has no stored
    /// roller, e.g. manual dice); at most [`MAX_STATE_BYTES`] as JSON. Also the
    /// table's current roller state until the first append.
    pub roller: Option<serde_json::Value>,
    /// The seats, in the order [`Store::seats`] and [`LoadedTable::seats`] give them
    /// back; may be empty.
    pub seats: Vec<NewSeat>,
    /// The campaign the table belongs to (an encounter of it), or `None` for a table
    /// of its own. The campaign must exist and be of the same `system`. Absent in
    /// JSON means `None`.
    #[serde(default)]
    pub campaign: Option<CampaignId>,
}

/// One line of [`Store::list_tables`]: a table without its log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSummary {
    /// The table's id (32 lowercase hex chars).
    pub id: TableId,
    /// The rule system's id.
    pub system: String,
    /// The table's name.
    pub name: String,
    /// When the table was created, in milliseconds since the Unix epoch (UTC), by the
    /// clock of the server that created it.
    pub created_ms: i64,
    /// The seq of the table's last entry; 0 while its log is empty. At most
    /// `i64::MAX`.
    pub seq: u64,
    /// How many seats the table has.
    pub seats: u32,
    /// The campaign the table belongs to, if any ([`NewTable::campaign`]).
    #[serde(default)]
    pub campaign: Option<CampaignId>,
    /// When the table was ended by [`Store::end_table`] (its lasting changes written
    /// back to its campaign's characters), in milliseconds since the Unix epoch (UTC);
    /// `None` while it is not.
    #[serde(default)]
    pub ended_ms: Option<i64>,
    /// When the table was last touched, in milliseconds since the Unix epoch (UTC):
    /// created, a command appended to its log, or its encounter ended (whichever is
    /// latest). Reading the table, following it or reissuing a link does not touch
    /// it. [`Store::expire_tables`] deletes the tables not touched since a cutoff.
    /// Issue 28. 0 when absent in JSON.
    #[serde(default)]
    pub touched_ms: i64,
}

/// A seat of an existing table, without its token hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The table the seat belongs to.
    pub table_id: TableId,
    /// The seat's name at its table.
    pub seat: String,
    /// What the seat may do.
    pub role: Role,
    /// The name shown to the others at the table.
    pub display_name: String,
}

/// One entry of a command about to be appended by [`Store::append`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewEntry {
    /// The seat that gave the command (not checked against the table's seats).
    pub seat: String,
    /// The entry (an event, as the engine serializes it); at most [`MAX_ENTRY_BYTES`]
    /// as compact JSON.
    pub entry: serde_json::Value,
}

/// One entry of a table's log, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEntry {
    /// Its place in the table's log: 1 for the first entry, then +1 each, no gaps.
    pub seq: u64,
    /// The seat that gave the command.
    pub seat: String,
    /// The entry as appended (the same JSON text on both backends, key order kept).
    pub entry: serde_json::Value,
    /// When it was appended, in milliseconds since the Unix epoch (UTC), by the clock of
    /// the server that appended it; the same for every entry of one command.
    pub at_ms: i64,
    /// Whether it is the last entry of its command.
    pub command_end: bool,
    /// On a command's last entry, the roller state after that command (`None` when the
    /// append was given none); always `None` on the other entries.
    pub roller: Option<serde_json::Value>,
}

/// One seat's log line of one entry, written with the entry by
/// [`Store::append_with_lines`] (or afterwards by [`Store::put_lines`]): what the
/// seat may see of it, described once by the rules, so reading the log never replays
/// them. Opaque JSON to the store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewLine {
    /// The entry's seq (one of the append's, for [`Store::append_with_lines`]).
    pub seq: u64,
    /// The seat that sees this line (the seat's name at its table).
    pub seat: String,
    /// The line as the engine describes it; at most [`MAX_LINE_BYTES`] as compact
    /// JSON.
    pub line: serde_json::Value,
}

/// The most bytes one log line may take as compact JSON: twice [`MAX_ENTRY_BYTES`]
/// and 64 KiB (a line holds its entry as the seat sees it, and its text). More is
/// refused with [`StoreError::LineTooLarge`].
pub const MAX_LINE_BYTES: usize = 2 * MAX_ENTRY_BYTES + 64 * 1024;

/// The most lines one [`Store::log_lines`] page holds: 1000. A larger `limit` is
/// read as this.
pub const MAX_LINES_PAGE: u32 = 1000;

/// Which of a seat's stored lines [`Store::log_lines`] reads: those with `after <
/// seq <= through`, at most `limit` of them, the oldest of the range
/// (`newest: false`) or the newest (`newest: true`), always given back in seq order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineQuery {
    /// Only lines with a seq above this (0: from the first).
    pub after: u64,
    /// Only lines with a seq at most this (`u64::MAX`: to the last).
    pub through: u64,
    /// The most lines to read: 1 to [`MAX_LINES_PAGE`] (0 reads none; more reads
    /// [`MAX_LINES_PAGE`]).
    pub limit: u32,
    /// Take the newest `limit` lines of the range instead of the oldest.
    pub newest: bool,
}

/// One stored log line: [`Store::log_lines`]'s answer is a page of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredLine {
    /// The entry's seq.
    pub seq: u64,
    /// The line as written (the same JSON text on both backends, key order kept).
    pub line: serde_json::Value,
}

/// A page of one seat's log lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinePage {
    /// The lines, in seq order.
    pub lines: Vec<StoredLine>,
    /// Whether the range holds more lines than the page: older ones before the
    /// page's first when the query took the newest, newer ones after its last
    /// otherwise.
    pub more: bool,
}

/// Everything needed to rebuild a table: [`Store::load_table`]'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadedTable {
    /// The table's summary (its `seq` is the last entry's seq, 0 for an empty log).
    pub summary: TableSummary,
    /// The state before the first entry.
    pub initial_state: serde_json::Value,
    /// The roller state before the first entry.
    pub initial_roller: Option<serde_json::Value>,
    /// The seats, in creation order.
    pub seats: Vec<SeatRecord>,
    /// The whole log, in seq order `1..=summary.seq` ([`Store::load_table`]);
    /// from `snapshot.seq` on when a snapshot exists and the table was read
    /// with [`Store::load_table_tail`].
    pub entries: Vec<StoredEntry>,
    /// The table's newest snapshot, if one was written (its `seq` is at most
    /// `summary.seq`).
    pub snapshot: Option<Snapshot>,
    /// The seq up to which every entry's log lines are stored
    /// ([`Store::append_with_lines`], [`Store::put_lines`]): when it is below
    /// `summary.seq`, the lines of the later entries may be missing (the entries
    /// predate stored lines, or were appended without them) and the loader should
    /// describe them with [`Store::put_lines`]. 0 when absent in JSON.
    #[serde(default)]
    pub lines_through: u64,
}

/// The state of a table right after entry `seq`, written by
/// [`Store::append_with_snapshot`] with the entries that reached it, so a loader need
/// not replay entries `1..=seq`. Opaque JSON, as the engine serializes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The seq of the last entry the state includes (at least 1).
    pub seq: u64,
    /// The state after entry `seq`; at most [`MAX_STATE_BYTES`] as JSON.
    pub state: serde_json::Value,
    /// The roller state after entry `seq` (the `roller_after` of its append).
    pub roller: Option<serde_json::Value>,
}

impl LoadedTable {
    /// The roller state to resume with: the roller stored with the last command end,
    /// or [`LoadedTable::initial_roller`] while the log is empty.
    pub fn current_roller(&self) -> Option<&serde_json::Value> {
        match self.entries.last() {
            Some(last) => last.roller.as_ref(),
            None => self.initial_roller.as_ref(),
        }
    }
}

/// A campaign about to be created by [`Store::create_campaign`]: one rule system, its
/// seats (the GM and the players, who keep their seats from one table to the next).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewCampaign {
    /// The rule system's id, as the engine names it (e.g. `"tiers"`); every table of
    /// the campaign is of this system.
    pub system: String,
    /// The campaign's name: 1 to [`MAX_NAME_CHARS`](tabula_core::names::MAX_NAME_CHARS)
    /// characters, no control characters (`tabula_core::names::check_name`).
    pub name: String,
    /// The seats, in the order [`LoadedCampaign::seats`] gives them back; may be
    /// empty. Each `seat` is a seat name (`tabula_core::names::check_seat_name`: 1 to
    /// 64 characters, no control characters, no `:`), unique within the campaign;
    /// each `display_name` a name as for `name`.
    pub seats: Vec<NewSeat>,
    /// The campaign's setting: the rules its book lets a setting change, as TOML
    /// text the engine checked (Scratch RPS's `[rules]`, R-SCR-9); empty for the
    /// book's own rules. Opaque to the store; at most [`MAX_SHEET_BYTES`] bytes.
    pub settings: String,
}

/// One line of [`Store::list_campaigns`]: a campaign without its characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignSummary {
    /// The campaign's id (32 lowercase hex chars).
    pub id: CampaignId,
    /// The rule system's id.
    pub system: String,
    /// The campaign's name.
    pub name: String,
    /// When the campaign was created, in milliseconds since the Unix epoch (UTC).
    pub created_ms: i64,
    /// How many seats it has.
    pub seats: u32,
    /// How many characters it has (at most [`MAX_CAMPAIGN_CHARACTERS`]).
    pub characters: u32,
    /// How many tables belong to it (ended or not).
    pub tables: u32,
    /// Its setting's rules as TOML text ([`NewCampaign::settings`]); empty for
    /// the book's own rules.
    pub settings: String,
}

/// A seat of an existing campaign, without its token hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignSeat {
    /// The campaign the seat belongs to.
    pub campaign: CampaignId,
    /// The seat's name in its campaign (`gm` or the player's name).
    pub seat: String,
    /// What the seat may do.
    pub role: Role,
    /// The name shown to the others.
    pub display_name: String,
}

/// Everything about a campaign: [`Store::load_campaign`]'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadedCampaign {
    /// The campaign's summary.
    pub summary: CampaignSummary,
    /// Its seats, in creation order.
    pub seats: Vec<CampaignSeat>,
    /// Its characters with their current sheets, in the order they were added.
    pub characters: Vec<CharacterRecord>,
    /// Its tables, newest first.
    pub tables: Vec<TableSummary>,
}

/// The most characters one [`Store::campaign_page`] page holds: 1000. A larger
/// `limit` is read as this.
pub const MAX_CHARACTERS_PAGE: u32 = 1000;

/// Which of a campaign's characters [`Store::campaign_page`] reads: those added
/// after `after` (owned by `owner` when given), at most `limit` of them, in the
/// order they were added (a stable order: a character keeps its place, and one
/// added later comes after every character already there).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterQuery {
    /// Only the characters this seat owns (a player's own); `None`: every
    /// character (the GM's view).
    pub owner: Option<String>,
    /// Only the characters added after this one (its id; it must be a character
    /// of the campaign, and of `owner` when given); `None`: from the first.
    pub after: Option<CharacterId>,
    /// The most characters to read: 0 reads none (the campaign without its
    /// sheets), more than [`MAX_CHARACTERS_PAGE`] reads [`MAX_CHARACTERS_PAGE`].
    pub limit: u32,
    /// The most bytes the page's sheets take together (`None`: no bound but
    /// `limit`): the page ends before the character whose sheet would take
    /// it past this, yet holds at least one character (a sheet is at most
    /// [`MAX_SHEET_BYTES`]). Only the sheets' sizes are read to decide.
    pub max_bytes: Option<u64>,
}

/// A campaign with one page of its characters: [`Store::campaign_page`]'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignPage {
    /// The campaign's summary (its `characters` counts every character).
    pub summary: CampaignSummary,
    /// Its seats, in creation order.
    pub seats: Vec<CampaignSeat>,
    /// Its tables, newest first.
    pub tables: Vec<TableSummary>,
    /// The page: at most the query's `limit` characters with their current
    /// sheets, in the order they were added.
    pub characters: Vec<CharacterRecord>,
    /// How many characters the query's `owner` has in the campaign (every
    /// character without an owner), whatever the page.
    pub total: u64,
    /// Whether characters the query may see follow the page's last (for an
    /// empty page: the cursor).
    pub more: bool,
}

/// One event of a character's history, about to be written: what happened to the
/// sheet (an advancement, an encounter's lasting harm, an import) and the sheet
/// after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewCharacterEvent {
    /// The seat that made the change (not checked against the campaign's seats, as
    /// a table entry's seat is not).
    pub seat: String,
    /// What kind of event: 1 to [`MAX_EVENT_KIND_CHARS`] characters, no control
    /// characters (e.g. `"created"`, `"imported"`, `"advanced"`, `"encounter"`).
    pub kind: String,
    /// The event itself, opaque to the store (as the rules serialize it); at most
    /// [`MAX_ENTRY_BYTES`] as compact JSON.
    pub entry: serde_json::Value,
    /// The character's sheet (TOML text, opaque to the store) after the event; it
    /// becomes the current sheet. At most [`MAX_SHEET_BYTES`] bytes.
    pub sheet: String,
}

/// A character about to be added to a campaign by [`Store::add_character`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewCharacter {
    /// The character's name: 1 to 64 characters, no control characters
    /// (`tabula_core::names::check_name`), unique in its campaign as
    /// `tabula_core::names::same_name` compares names (case, `_` for a space and
    /// surrounding white space aside).
    pub name: String,
    /// The file name a table file uses for the sheet (e.g. `kodos.toml`): a name as
    /// for `name`, without `/`, `\` or white space at either end, not `.` or `..`;
    /// unique in its campaign without regard to case.
    pub file: String,
    /// The seat that owns the character: a player's seat, or the GM's for a
    /// non-player character. Must be a seat of the campaign.
    pub owner: String,
    /// The first event of its history (seq 1, e.g. kind `"created"` or
    /// `"imported"`); its `sheet` is the character's sheet.
    pub event: NewCharacterEvent,
}

/// A character of a campaign, with its current sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterRecord {
    /// The character's id (32 lowercase hex chars).
    pub id: CharacterId,
    /// The campaign it belongs to.
    pub campaign: CampaignId,
    /// Its name.
    pub name: String,
    /// The file name table files use for its sheet.
    pub file: String,
    /// The seat that owns it.
    pub owner: String,
    /// The current sheet: the sheet of its last event.
    pub sheet: String,
    /// The seq of its last event (1 to [`MAX_CHARACTER_EVENTS`]).
    pub seq: u64,
    /// When it was added, in milliseconds since the Unix epoch (UTC).
    pub created_ms: i64,
    /// When its last event was written, in milliseconds since the Unix epoch (UTC).
    pub updated_ms: i64,
}

/// One event of a character's history, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterEvent {
    /// Its place in the history: 1 for the first event, then +1 each, no gaps.
    pub seq: u64,
    /// The seat that made the change.
    pub seat: String,
    /// What kind of event.
    pub kind: String,
    /// The event as written (the same JSON text on both backends, key order kept).
    pub entry: serde_json::Value,
    /// The sheet after the event.
    pub sheet: String,
    /// When it was written, in milliseconds since the Unix epoch (UTC), by the clock
    /// of the server that wrote it.
    pub at_ms: i64,
}

/// One event [`Store::end_table`] writes back to a character of the table's campaign,
/// if the character's seq is still `expect_seq`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterWrite {
    /// The character (of the table's campaign).
    pub character: CharacterId,
    /// The seq the character must be at (its history's last event when the
    /// encounter read the sheet); the event gets `expect_seq + 1`.
    pub expect_seq: u64,
    /// The event.
    pub event: NewCharacterEvent,
}

/// Where tables and their logs are kept: one trait, a SQLite and a PostgreSQL backend
/// (both from [`open`]). Object safe, so a server holds `Arc<dyn Store>`; every method
/// is safe to call from many tasks at once.
///
/// Errors common to every method: [`StoreError::Database`] when the database fails
/// (unreachable, busy past the timeout, a constraint the caller could not have
/// foreseen) and [`StoreError::Corrupt`] when a stored row cannot be read back.
#[async_trait]
pub trait Store: Send + Sync + std::fmt::Debug {
    /// Which backend: `"sqlite"` or `"postgres"`, for logs.
    fn backend(&self) -> &'static str;

    /// Creates a table and its seats in one transaction and returns its new id (32
    /// lowercase hex chars, 128 random bits). Its log starts empty (seq 0) and its
    /// current roller state is `table.roller`.
    ///
    /// # Errors
    /// [`StoreError::DuplicateSeat`] when two seats share a name;
    /// [`StoreError::StateTooLarge`] when the initial state or roller is over
    /// [`MAX_STATE_BYTES`]; [`StoreError::NulInText`] when a text field holds U+0000;
    /// [`StoreError::CampaignNotFound`] when `table.campaign` names no campaign;
    /// [`StoreError::SystemMismatch`] when the campaign is of another system.
    /// Nothing is written then.
    async fn create_table(&self, table: NewTable) -> Result<TableId, StoreError>;

    /// Every table, newest first (by creation order, not by clock).
    async fn list_tables(&self) -> Result<Vec<TableSummary>, StoreError>;

    /// How many tables there are.
    async fn count_tables(&self) -> Result<u64, StoreError>;

    /// Keep what table `id` was opened from (issue 27, item 8: a campaign's
    /// earlier table offered again): any JSON, capped at [`MAX_STATE_BYTES`];
    /// a second call replaces the first.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no table has this id;
    /// [`StoreError::StateTooLarge`] when `source` is too large. Nothing is
    /// written then.
    async fn set_table_source(
        &self,
        id: &str,
        source: &serde_json::Value,
    ) -> Result<(), StoreError>;

    /// What table `id` was opened from ([`Store::set_table_source`]), or
    /// `None` (no such table, or nothing kept).
    async fn table_source(&self, id: &str) -> Result<Option<serde_json::Value>, StoreError>;

    /// The whole table (summary, initial state and roller, seats in creation order,
    /// every entry in seq order), or `None` when no table has this id.
    async fn load_table(&self, id: &str) -> Result<Option<LoadedTable>, StoreError>;

    /// [`Store::load_table`] without the rows the table's snapshot covers
    /// (issue 28, item 1: loading a long table reads at most
    /// [`SNAPSHOT_EVERY`] rows and a bit, whatever the log's length): when the
    /// table has a snapshot, `entries` start at the snapshot's own row
    /// (`snapshot.seq`, whose roller is the roller at the snapshot) and run to
    /// `summary.seq`; without one, they are the whole log. Everything else is
    /// as [`Store::load_table`] answers.
    async fn load_table_tail(&self, id: &str) -> Result<Option<LoadedTable>, StoreError>;

    /// The seat of table `id` whose token hash is exactly `token_hash`, or `None`
    /// (unknown table, or no such seat at this table: another table's seat never
    /// matches). If several seats share a hash, the first in creation order.
    async fn seat_for_token(
        &self,
        id: &str,
        token_hash: &str,
    ) -> Result<Option<SeatRecord>, StoreError>;

    /// The seats of table `id`, in creation order.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no table has this id.
    async fn seats(&self, id: &str) -> Result<Vec<SeatRecord>, StoreError>;

    /// Appends one command's entries to table `id`, in one transaction, if the
    /// table's current seq is `expect_seq`: they get seqs `expect_seq + 1 ..=
    /// expect_seq + entries.len()`, all the same `at_ms` (now), the last one
    /// `command_end = true` and `roller = roller_after`; `roller_after` also becomes
    /// the table's current roller state (`None` stores none). Returns the new seq.
    ///
    /// # Errors
    /// - [`StoreError::Conflict`] when the table's seq is not `expect_seq` (another
    ///   server or task appended first; `current` is the seq to reload from). Two
    ///   racing appends with the same `expect_seq` never both succeed. Nothing is
    ///   written.
    /// - [`StoreError::NotFound`] when no table has this id.
    /// - [`StoreError::EmptyEntries`], [`StoreError::TooManyEntries`] (over
    ///   [`MAX_APPEND_ENTRIES`]), [`StoreError::EntryTooLarge`] (over
    ///   [`MAX_ENTRY_BYTES`]), [`StoreError::StateTooLarge`] (`roller_after` over
    ///   [`MAX_STATE_BYTES`]), [`StoreError::SeqOutOfRange`] (a seq past
    ///   `i64::MAX`), [`StoreError::NulInText`] (a seat name holding U+0000), all
    ///   checked before the database is touched.
    async fn append(
        &self,
        id: &str,
        expect_seq: u64,
        entries: Vec<NewEntry>,
        roller_after: Option<serde_json::Value>,
    ) -> Result<u64, StoreError> {
        self.append_with_snapshot(id, expect_seq, entries, roller_after, None)
            .await
    }

    /// [`Store::append`], and when `snapshot_state` is given, in the same transaction,
    /// the table's [`Snapshot`] becomes `{seq: the new seq, state: snapshot_state,
    /// roller: roller_after}` (replacing any older one). On PostgreSQL the append also
    /// notifies [`NOTIFY_CHANNEL`] with `"TABLE_ID NEW_SEQ"` (delivered at commit).
    ///
    /// # Errors
    /// As [`Store::append`], and [`StoreError::StateTooLarge`] when `snapshot_state`
    /// is over [`MAX_STATE_BYTES`] (nothing is written then).
    async fn append_with_snapshot(
        &self,
        id: &str,
        expect_seq: u64,
        entries: Vec<NewEntry>,
        roller_after: Option<serde_json::Value>,
        snapshot_state: Option<serde_json::Value>,
    ) -> Result<u64, StoreError> {
        self.append_with_lines(id, expect_seq, entries, roller_after, snapshot_state, None)
            .await
    }

    /// [`Store::append_with_snapshot`], and when `lines` is given, in the same
    /// transaction, the entries' log lines: every line of every seat for these
    /// entries (a seat that may not see an entry has no line for it, so `Some` of an
    /// empty list is allowed). Given lines also move the table's
    /// [`LoadedTable::lines_through`] to the new seq, if it was at `expect_seq`
    /// (so a gap left by an append without lines stays visible). `None` writes no
    /// line and leaves `lines_through` where it was.
    ///
    /// # Errors
    /// As [`Store::append_with_snapshot`], and, checked before the database is
    /// touched: [`StoreError::LineOutOfRange`] when a line's seq is not one of the
    /// append's, [`StoreError::LineTooLarge`] when one is over [`MAX_LINE_BYTES`],
    /// [`StoreError::NulInText`] when a line's seat holds U+0000; a line given twice
    /// for one seat and seq fails with [`StoreError::Database`]. Nothing is written
    /// then.
    async fn append_with_lines(
        &self,
        id: &str,
        expect_seq: u64,
        entries: Vec<NewEntry>,
        roller_after: Option<serde_json::Value>,
        snapshot_state: Option<serde_json::Value>,
        lines: Option<Vec<NewLine>>,
    ) -> Result<u64, StoreError>;

    /// Stores log lines of entries already in the log (a table whose entries
    /// predate stored lines, described once by its loader), in one transaction:
    /// a line already stored for its seat and seq is kept as it was. Then the
    /// table's [`LoadedTable::lines_through`] becomes `through` if it was lower.
    /// The caller gives every line of every entry up to `through`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no table has this id;
    /// [`StoreError::LineOutOfRange`] when a line's seq is 0 or over `through`;
    /// [`StoreError::LineTooLarge`], [`StoreError::NulInText`] as for
    /// [`Store::append_with_lines`]; [`StoreError::Database`] when a line names an
    /// entry the log does not hold. Nothing is written then.
    async fn put_lines(
        &self,
        id: &str,
        through: u64,
        lines: Vec<NewLine>,
    ) -> Result<(), StoreError>;

    /// A page of seat `seat`'s stored log lines of table `id` ([`LineQuery`]): at
    /// most `limit` lines, read with one query. An unknown table or seat has no
    /// lines (the caller checked the seat).
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when a stored line is not JSON.
    async fn log_lines(
        &self,
        id: &str,
        seat: &str,
        query: LineQuery,
    ) -> Result<LinePage, StoreError>;

    /// The appends (and token reissues) processes make, as they commit: a [`Feed`] on PostgreSQL
    /// (its own connection, `LISTEN`ing on [`NOTIFY_CHANNEL`]), `None` on SQLite
    /// (one process: nobody else appends).
    ///
    /// # Errors
    /// [`StoreError::Database`] when the listening connection cannot be opened.
    async fn follow(&self) -> Result<Option<Feed>, StoreError>;

    /// The entries of table `id` with seq greater than `after`, in seq order (empty
    /// when `after` is the current seq or beyond).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no table has this id;
    /// [`StoreError::SeqOutOfRange`] when `after` is over `i64::MAX`.
    async fn entries_after(&self, id: &str, after: u64) -> Result<Vec<StoredEntry>, StoreError>;

    /// Replaces the token hash of seat `seat` at table `id` (the GM reissues a link,
    /// so the old link stops working). Returns `false`, changing nothing, when there
    /// is no such seat (or no such table). On PostgreSQL a reissue also notifies
    /// [`NOTIFY_CHANNEL`] with `"TABLE_ID reissue SEAT"` (at commit).
    ///
    /// # Errors
    /// [`StoreError::NulInText`] when `token_hash` holds U+0000.
    async fn reissue_token(
        &self,
        id: &str,
        seat: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError>;

    /// Creates a campaign and its seats in one transaction and returns its new id (32
    /// lowercase hex chars, 128 random bits). It starts with no characters and no
    /// tables.
    ///
    /// # Errors
    /// [`StoreError::BadName`] when the name, a seat name or a display name breaks
    /// the rules of names ([`NewCampaign`]); [`StoreError::DuplicateSeat`] when two
    /// seats share a name; [`StoreError::NulInText`] when the system or a token hash
    /// holds U+0000. Nothing is written then.
    async fn create_campaign(&self, campaign: NewCampaign) -> Result<CampaignId, StoreError>;

    /// Every campaign, newest first (by creation order, not by clock).
    async fn list_campaigns(&self) -> Result<Vec<CampaignSummary>, StoreError>;

    /// The whole campaign (summary, seats in creation order, characters with their
    /// current sheets in the order they were added, tables newest first), or `None`
    /// when no campaign has this id. One consistent read.
    async fn load_campaign(&self, id: &str) -> Result<Option<LoadedCampaign>, StoreError>;

    /// Campaign `id` with one page of its characters ([`CharacterQuery`]), or
    /// `None` when no campaign has this id. One consistent read; the characters
    /// read are the page's only, so what it holds is bounded by `limit`
    /// sheets (each at most [`MAX_SHEET_BYTES`]).
    ///
    /// # Errors
    /// [`StoreError::CharacterNotFound`] when `after` is no character of the
    /// campaign (or not `owner`'s, when an owner is given), or `owner` or
    /// `after` holds U+0000.
    async fn campaign_page(
        &self,
        id: &str,
        query: &CharacterQuery,
    ) -> Result<Option<CampaignPage>, StoreError>;

    /// The seat of campaign `campaign` whose token hash is exactly `token_hash`, or
    /// `None` (unknown campaign, or no such seat in it: another campaign's seat, or a
    /// table's, never matches). If several seats share a hash, the first in creation
    /// order.
    async fn campaign_seat_for_token(
        &self,
        campaign: &str,
        token_hash: &str,
    ) -> Result<Option<CampaignSeat>, StoreError>;

    /// The token hash of seat `seat` of campaign `campaign`, or `None` (no such
    /// campaign or seat). A server opening a table of the campaign gives the table's
    /// seat the same hash, so one token (one link) serves the campaign and its
    /// tables.
    async fn campaign_token_hash(
        &self,
        campaign: &str,
        seat: &str,
    ) -> Result<Option<String>, StoreError>;

    /// Replaces the token hash of seat `seat` of campaign `campaign` (the GM
    /// reissues a lost or leaked link), and with it the hash of every table seat
    /// the campaign's tables copied from it (the table seats of the campaign's
    /// tables whose hash was the seat's old one), in one transaction: the old
    /// link then opens neither the campaign nor any of its tables. Returns each
    /// table seat changed as `(table id, seat)`, or `None`, changing nothing, when
    /// the campaign has no such seat. On PostgreSQL each changed table seat is
    /// notified on [`NOTIFY_CHANNEL`] as `"TABLE_ID reissue SEAT"` (at commit), as
    /// [`Store::reissue_token`] does.
    ///
    /// # Errors
    /// [`StoreError::NulInText`] when `token_hash` holds U+0000.
    async fn reissue_campaign_token(
        &self,
        campaign: &str,
        seat: &str,
        token_hash: &str,
    ) -> Result<Option<Vec<(String, String)>>, StoreError>;

    /// Adds a character to campaign `campaign`, with the first event of its history
    /// (seq 1, `at_ms` now), in one transaction, and returns it as stored.
    ///
    /// # Errors
    /// - [`StoreError::CampaignNotFound`] when no campaign has this id.
    /// - [`StoreError::UnknownOwner`] when `owner` is not a seat of the campaign.
    /// - [`StoreError::DuplicateCharacterName`] /
    ///   [`StoreError::DuplicateCharacterFile`] when another character of the campaign
    ///   has the same name (as `same_name` compares) / file (without regard to case).
    /// - [`StoreError::TooManyCharacters`] when the campaign already holds
    ///   [`MAX_CAMPAIGN_CHARACTERS`].
    /// - Checked before the database is touched: [`StoreError::BadName`] (name, file
    ///   or owner), [`StoreError::BadFileName`], [`StoreError::BadEventKind`],
    ///   [`StoreError::EntryTooLarge`] (index 0), [`StoreError::SheetTooLarge`],
    ///   [`StoreError::NulInText`] (the event's seat or the sheet).
    ///
    /// Nothing is written on any error.
    async fn add_character(
        &self,
        campaign: &str,
        character: NewCharacter,
    ) -> Result<CharacterRecord, StoreError>;

    /// Character `character` of campaign `campaign` with its current sheet, or `None`
    /// (no such character in this campaign).
    async fn character(
        &self,
        campaign: &str,
        character: &str,
    ) -> Result<Option<CharacterRecord>, StoreError>;

    /// The whole history of character `character` of campaign `campaign`, in seq
    /// order `1..=seq` (replaying it in this order rebuilds the current sheet: the
    /// last event's sheet).
    ///
    /// # Errors
    /// [`StoreError::CharacterNotFound`] when the campaign has no such character.
    async fn character_history(
        &self,
        campaign: &str,
        character: &str,
    ) -> Result<Vec<CharacterEvent>, StoreError>;

    /// Appends one event to the history of character `character` of campaign
    /// `campaign`, if the character's seq is still `expect_seq`: the event gets seq
    /// `expect_seq + 1` and `at_ms` now, and its sheet becomes the current sheet.
    /// Returns the new seq. Two racing appends with the same `expect_seq` never both
    /// succeed (the `(character, seq)` key, as for a table's log).
    ///
    /// # Errors
    /// - [`StoreError::CharacterConflict`] when the character's seq is not
    ///   `expect_seq` (`current` is the seq to reload from). Nothing is written.
    /// - [`StoreError::CharacterNotFound`] when the campaign has no such character.
    /// - Checked before the database is touched: [`StoreError::TooManyEvents`] (the
    ///   event would be past [`MAX_CHARACTER_EVENTS`]), [`StoreError::BadEventKind`],
    ///   [`StoreError::EntryTooLarge`] (index 0), [`StoreError::SheetTooLarge`],
    ///   [`StoreError::NulInText`].
    async fn append_character_event(
        &self,
        campaign: &str,
        character: &str,
        expect_seq: u64,
        event: NewCharacterEvent,
    ) -> Result<u64, StoreError>;

    /// Ends table `table` and writes its lasting changes back to its campaign's
    /// characters, exactly once, in ONE transaction: if the table is already ended,
    /// returns `Ok(false)` and writes nothing; otherwise appends every write (in the
    /// order given for one character, each checked against its `expect_seq` as
    /// [`Store::append_character_event`] does), sets the table's `ended_ms` to now
    /// and returns `Ok(true)`. Of several servers ending one table at once, exactly
    /// one gets `true`. A table of no campaign can be ended with no writes.
    ///
    /// The store does not refuse later appends to an ended table's log: the server
    /// decides what an ended table still takes.
    ///
    /// On PostgreSQL an ending notifies [`NOTIFY_CHANNEL`] with `"TABLE_ID ended"`
    /// (at commit).
    ///
    /// # Errors
    /// Any error writes nothing (the table stays open, no character changes):
    /// - [`StoreError::NotFound`] when no table has this id.
    /// - [`StoreError::CharacterConflict`] when a write's `expect_seq` is stale,
    ///   naming the character.
    /// - [`StoreError::CharacterNotFound`] when a write names a character that is not
    ///   of the table's campaign; [`StoreError::NoCampaign`] when there are writes and
    ///   the table belongs to no campaign.
    /// - Checked before the database is touched: [`StoreError::TooManyEntries`] (more
    ///   than [`MAX_APPEND_ENTRIES`] writes), and per write as
    ///   [`Store::append_character_event`] (an [`StoreError::EntryTooLarge`] names the
    ///   write's index).
    async fn end_table(&self, table: &str, writes: Vec<CharacterWrite>)
    -> Result<bool, StoreError>;

    /// Deletes table `id` (the GM deletes it) with everything the store keeps of
    /// it, in one transaction: its seats (so its links stop working), its log, its
    /// log lines and its snapshot. Nothing of another table changes.
    ///
    /// A table of a campaign may be deleted while its encounter has not ended: its
    /// lasting changes were never written back, so the campaign's characters are
    /// untouched and the campaign simply no longer lists it. An ended one stays as
    /// the campaign's history ([`StoreError::EndedCampaignTable`]). A table of no
    /// campaign may always be deleted, ended or not.
    ///
    /// On PostgreSQL a deletion notifies [`NOTIFY_CHANNEL`] with `"TABLE_ID
    /// deleted"` (at commit), so every server drops the table. Issue 28.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when no table has this id;
    /// [`StoreError::EndedCampaignTable`] as above. Nothing is deleted then.
    async fn delete_table(&self, id: &str) -> Result<(), StoreError>;

    /// Deletes, as [`Store::delete_table`] does and in one transaction, every table
    /// not touched ([`TableSummary::touched_ms`]) before `cutoff_ms` (milliseconds
    /// since the Unix epoch: a table touched exactly at the cutoff stays), and
    /// returns their ids. Tables of a campaign never expire, ended or not: an
    /// ended one is the campaign's history, and an open one may be an encounter
    /// paused between sessions longer than the expiry (the campaign's GM deletes
    /// it by hand). On PostgreSQL each deleted table is notified as `"TABLE_ID
    /// deleted"`. Issue 28.
    async fn expire_tables(&self, cutoff_ms: i64) -> Result<Vec<TableId>, StoreError>;

    /// Closes the connection pool, waiting for connections in use to be returned
    /// (for a clean shutdown). Every later call fails with [`StoreError::Database`].
    async fn close(&self);
}

/// Opens the store at `url` and runs its migrations, picking the backend by scheme:
///
/// - `sqlite:` (e.g. `sqlite://tabula.db`, a path relative to the working directory,
///   or `sqlite:///var/lib/tabula.db`; `sqlite::memory:` for a store that lives as long
///   as the returned value, kept in a private file in a temporary directory that
///   is removed with it, so that its two connections see one database): the file is created if missing, opened in WAL mode with
///   foreign keys on and a busy timeout of [`SQLITE_BUSY_TIMEOUT`]. Writes are synced
///   with `synchronous = NORMAL`: a committed append survives the process crashing; a
///   power cut may lose the last few.
/// - `postgres:` or `postgresql:` (a libpq-style URL): the tables live in the
///   connection's default schema (usually `public`; see [`open_with_schema`]).
///
/// The scheme is matched case-insensitively. Several servers may open the same
/// PostgreSQL database at once; migrations take a lock.
///
/// # Errors
/// [`StoreError::BadUrl`] for another scheme or a URL the driver cannot parse (the
/// message never repeats the URL, which may hold a password);
/// [`StoreError::Database`] when the database cannot be reached or created;
/// [`StoreError::Migration`] when the schema cannot be brought up to date (e.g. a
/// database written by a newer Tabula).
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    match backend_of(url)? {
        Backend::Sqlite => Ok(Arc::new(sqlite::SqliteStore::open(url).await?)),
        Backend::Postgres => Ok(Arc::new(postgres::PgStore::open(url, None).await?)),
    }
}

/// Opens a PostgreSQL store whose tables live in schema `schema` (created if missing,
/// then made the connections' `search_path`), and runs its migrations there. Several
/// Tabula deployments (or test runs) can thus share one database without seeing each
/// other.
///
/// `schema` must be 1 to 63 characters of lowercase ASCII letters, digits and `_`,
/// not starting with a digit (so it never needs quoting).
///
/// # Errors
/// [`StoreError::BadUrl`] when `url` is not a `postgres:`/`postgresql:` URL or
/// `schema` is not a name as above; otherwise as [`open`].
pub async fn open_with_schema(url: &str, schema: &str) -> Result<Arc<dyn Store>, StoreError> {
    match backend_of(url)? {
        Backend::Sqlite => Err(StoreError::BadUrl(
            "a schema applies to PostgreSQL only, not to a sqlite: URL".into(),
        )),
        Backend::Postgres => Ok(Arc::new(postgres::PgStore::open(url, Some(schema)).await?)),
    }
}

enum Backend {
    Sqlite,
    Postgres,
}

fn backend_of(url: &str) -> Result<Backend, StoreError> {
    let scheme = url
        .split_once(':')
        .map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("sqlite") => Ok(Backend::Sqlite),
        Some("postgres" | "postgresql") => Ok(Backend::Postgres),
        _ => Err(StoreError::BadUrl(
            "the URL must start with sqlite:, postgres: or postgresql:".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>(_: &T) {}

    /// A server may open the store inside a spawned task.
    #[test]
    fn opening_is_a_send_future() {
        assert_send(&open("sqlite::memory:"));
        assert_send(&open_with_schema("postgres://x", "x"));
    }

    #[test]
    fn the_scheme_picks_the_backend() {
        assert!(matches!(backend_of("sqlite://t.db"), Ok(Backend::Sqlite)));
        assert!(matches!(backend_of("SQLite::memory:"), Ok(Backend::Sqlite)));
        assert!(matches!(
            backend_of("postgres://h/d"),
            Ok(Backend::Postgres)
        ));
        assert!(matches!(
            backend_of("postgresql://h/d"),
            Ok(Backend::Postgres)
        ));
        for bad in ["mysql://h/d", "t.db", "", "sqlite"] {
            assert!(
                matches!(backend_of(bad), Err(StoreError::BadUrl(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_bad_url_message_never_repeats_the_url() {
        let Err(StoreError::BadUrl(message)) = backend_of("mysql://user:secret@h/d") else {
            panic!("not a bad URL");
        };
        assert!(!message.contains("secret"));
    }

    /// A table sent as JSON before campaigns existed still reads: no campaign.
    #[test]
    fn a_new_table_without_a_campaign_reads_as_none() {
        let table: NewTable = serde_json::from_value(serde_json::json!({
            "system": "tiers", "name": "n", "initial_state": null, "roller": null,
            "seats": []
        }))
        .unwrap();
        assert_eq!(table.campaign, None);
    }

    #[test]
    fn roles_have_one_name_each_way() {
        for role in [Role::Gm, Role::Player] {
            assert_eq!(Role::from_name(role.as_str()), Some(role));
            assert_eq!(
                serde_json::to_value(role).unwrap(),
                serde_json::Value::String(role.as_str().into())
            );
        }
        assert_eq!(Role::from_name("GM"), None);
    }
}
