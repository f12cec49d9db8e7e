//! The one error type of the store.

/// Why a [`Store`](crate::Store) call failed. Match on it: [`StoreError::Conflict`]
/// and [`StoreError::NotFound`] are everyday answers a server turns into a retry or a
/// 404; the size and range variants are bad input (a 4xx); [`StoreError::Database`],
/// [`StoreError::Migration`] and [`StoreError::Corrupt`] are internal failures whose
/// text is for the server's logs only, never for a client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The table's seq was not the `expect_seq` given to
    /// [`Store::append`](crate::Store::append): someone appended first. Nothing was
    /// written; reload from `current` (the table's seq now) and decide again.
    #[error("the table's log has moved on to seq {current}")]
    Conflict {
        /// The table's seq when the append was refused.
        current: u64,
    },

    /// No table has this id.
    #[error("no such table")]
    NotFound,

    /// The table's encounter has ended ([`Store::end_table`](crate::Store::end_table)):
    /// its log is closed and nothing more is appended. Nothing was written.
    #[error("the table's encounter has ended; its log takes no more entries")]
    Ended,

    /// The URL given to [`open`](crate::open) names no backend or cannot be parsed, or
    /// the schema given to [`open_with_schema`](crate::open_with_schema) is not a
    /// plain name. The message never repeats the URL (it may hold a password).
    #[error("bad store URL: {0}")]
    BadUrl(String),

    /// The database failed: unreachable, busy past the timeout, closed, or refused a
    /// statement. The text is the driver's, for logs only.
    #[error("database error: {0}")]
    Database(String),

    /// The migrations could not be applied (e.g. the database was written by a newer
    /// Tabula, or an applied migration was changed). The text is for logs only.
    #[error("migration failed: {0}")]
    Migration(String),

    /// A stored row could not be read back (bad JSON, an unknown role, a negative
    /// seq). The text names the column, for logs only.
    #[error("corrupt row: {0}")]
    Corrupt(String),

    /// [`Store::append`](crate::Store::append) was given no entries: a command always
    /// writes at least one.
    #[error("an append needs at least one entry")]
    EmptyEntries,

    /// [`Store::append`](crate::Store::append) was given more than
    /// [`MAX_APPEND_ENTRIES`](crate::MAX_APPEND_ENTRIES) entries.
    #[error("{count} entries in one append, over the cap of {max}")]
    TooManyEntries {
        /// How many entries were given.
        count: usize,
        /// The cap, [`MAX_APPEND_ENTRIES`](crate::MAX_APPEND_ENTRIES).
        max: usize,
    },

    /// One entry's compact JSON is over [`MAX_ENTRY_BYTES`](crate::MAX_ENTRY_BYTES).
    #[error("entry {index} takes {bytes} bytes of JSON, over the cap of {max}")]
    EntryTooLarge {
        /// The entry's index in the append (0-based).
        index: usize,
        /// Its size as compact JSON, in bytes.
        bytes: usize,
        /// The cap, [`MAX_ENTRY_BYTES`](crate::MAX_ENTRY_BYTES).
        max: usize,
    },

    /// An initial state or roller state's compact JSON is over
    /// [`MAX_STATE_BYTES`](crate::MAX_STATE_BYTES).
    #[error("the {what} takes {bytes} bytes of JSON, over the cap of {max}")]
    StateTooLarge {
        /// Which one: `"initial state"`, `"initial roller"` or `"roller"`.
        what: &'static str,
        /// Its size as compact JSON, in bytes.
        bytes: usize,
        /// The cap, [`MAX_STATE_BYTES`](crate::MAX_STATE_BYTES).
        max: usize,
    },

    /// A log line's seq is not one of the entries it is written with (an append's
    /// new seqs, or `1..=through` for [`Store::put_lines`](crate::Store::put_lines)).
    #[error("a log line names seq {seq}, not one of {first}..={last}")]
    LineOutOfRange {
        /// The line's seq.
        seq: u64,
        /// The first seq a line may name.
        first: u64,
        /// The last seq a line may name.
        last: u64,
    },

    /// One log line's compact JSON is over [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES).
    #[error("the log line of seq {seq} takes {bytes} bytes of JSON, over the cap of {max}")]
    LineTooLarge {
        /// The line's seq.
        seq: u64,
        /// Its size as compact JSON, in bytes.
        bytes: usize,
        /// The cap, [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES).
        max: usize,
    },

    /// A seq (given, or one an append would create) is over `i64::MAX`, the most the
    /// databases can keep.
    #[error("seq {0} is past the largest the store keeps (i64::MAX)")]
    SeqOutOfRange(u64),

    /// A text field (a name, a seat, a token hash) holds the character U+0000, which
    /// PostgreSQL text cannot keep; refused by both backends alike. (Inside JSON values
    /// it is fine: JSON writes it as `\u0000`.)
    #[error("the {field} holds the character U+0000")]
    NulInText {
        /// Which field: `"system"`, `"name"`, `"seat"`, `"display name"` or
        /// `"token hash"`.
        field: &'static str,
    },

    /// The SQLite file is held by another process: a SQLite store belongs to one
    /// process (run several servers on PostgreSQL instead). `lock` is the lock file
    /// beside the database, `holder` what the other process wrote in it (its pid).
    #[error(
        "the SQLite database is in use by another process ({holder}; lock file {lock}): one SQLite file serves one tabula process; stop the other one, or use PostgreSQL to run several"
    )]
    Locked {
        /// The lock file's path.
        lock: String,
        /// Who holds it, as the holder wrote it (`pid 1234`), or `an unknown process`.
        holder: String,
    },

    /// Two seats of one [`NewTable`](crate::NewTable) or
    /// [`NewCampaign`](crate::NewCampaign) share this name.
    #[error("seat {0:?} appears twice at one table")]
    DuplicateSeat(String),

    /// No campaign has this id (looked up by a call that needs one, or named by a
    /// [`NewTable`](crate::NewTable)).
    #[error("no such campaign")]
    CampaignNotFound,

    /// The campaign has no character of this id (another campaign's character is
    /// never found), or [`end_table`](crate::Store::end_table) was given a write for
    /// a character not of the table's campaign.
    #[error("no such character in this campaign")]
    CharacterNotFound,

    /// A character's seq was not the `expect_seq` given: someone wrote to its history
    /// first. Nothing was written; reload the character from `current` and decide
    /// again.
    #[error("character {character}'s history has moved on to seq {current}")]
    CharacterConflict {
        /// The character whose seq was stale.
        character: crate::CharacterId,
        /// Its seq when the write was refused.
        current: u64,
    },

    /// A name (a campaign's, a seat's, a display name, a character's name or file,
    /// an owner) breaks the rules of names (`tabula_core::names`: 1 to 64 characters,
    /// no control characters, no `:` in a seat name); the error names the field.
    #[error(transparent)]
    BadName(#[from] tabula_core::names::NameError),

    /// A character's file name is not a plain file name: it holds `/` or `\`, has
    /// white space at either end, or is `.` or `..`.
    #[error(
        "character file {0:?} is not a plain file name (no / or \\, no white space at either end, not . or ..)"
    )]
    BadFileName(String),

    /// A character event's kind is empty, longer than
    /// [`MAX_EVENT_KIND_CHARS`](crate::MAX_EVENT_KIND_CHARS) characters, or holds a
    /// control character.
    #[error(
        "an event kind is 1 to {max} characters without control characters (this one has {chars})"
    )]
    BadEventKind {
        /// The kind's length in characters.
        chars: usize,
        /// The cap, [`MAX_EVENT_KIND_CHARS`](crate::MAX_EVENT_KIND_CHARS).
        max: usize,
    },

    /// A character sheet is over [`MAX_SHEET_BYTES`](crate::MAX_SHEET_BYTES).
    #[error("the sheet takes {bytes} bytes, over the cap of {max}")]
    SheetTooLarge {
        /// Its size in bytes.
        bytes: usize,
        /// The cap, [`MAX_SHEET_BYTES`](crate::MAX_SHEET_BYTES).
        max: usize,
    },

    /// A character's owner is not a seat of its campaign.
    #[error("{0:?} is not a seat of this campaign")]
    UnknownOwner(String),

    /// Another character of the campaign has this name (as
    /// `tabula_core::names::same_name` compares).
    #[error("the campaign already has a character named {0:?}")]
    DuplicateCharacterName(String),

    /// Another character of the campaign has this file name (without regard to
    /// case).
    #[error("the campaign already has a character in file {0:?}")]
    DuplicateCharacterFile(String),

    /// The campaign already holds [`MAX_CAMPAIGN_CHARACTERS`](crate::MAX_CAMPAIGN_CHARACTERS).
    #[error("a campaign holds at most {max} characters")]
    TooManyCharacters {
        /// The cap.
        max: u64,
    },

    /// The new character or sheet would take the campaign's current sheets past
    /// [`MAX_CAMPAIGN_SHEET_BYTES`](crate::MAX_CAMPAIGN_SHEET_BYTES) bytes together.
    #[error("the campaign's sheets would take {bytes} bytes; a campaign holds at most {max}")]
    CampaignTooLarge {
        /// What they would take, in bytes.
        bytes: u64,
        /// The cap, in bytes.
        max: u64,
    },

    /// The event would take a character's history past
    /// [`MAX_CHARACTER_EVENTS`](crate::MAX_CHARACTER_EVENTS).
    #[error("a character's history holds at most {max} events")]
    TooManyEvents {
        /// The cap.
        max: u64,
    },

    /// A [`NewTable`](crate::NewTable) names a campaign of another rule system.
    #[error("the campaign plays {campaign}, not {table}")]
    SystemMismatch {
        /// The campaign's system.
        campaign: String,
        /// The table's system.
        table: String,
    },

    /// [`delete_table`](crate::Store::delete_table) was asked to delete a table of a
    /// campaign whose encounter has ended: its lasting changes were written back to
    /// the campaign's characters, and it stays as the campaign's history. Nothing
    /// was deleted. Issue 28.
    #[error(
        "the table's encounter has ended and its lasting changes were written back to its campaign: it stays as the campaign's history and cannot be deleted"
    )]
    EndedCampaignTable,

    /// [`end_table`](crate::Store::end_table) was given writes for a table that
    /// belongs to no campaign.
    #[error("the table belongs to no campaign: it has no characters to write back")]
    NoCampaign,
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        StoreError::Database(error.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> Self {
        StoreError::Migration(error.to_string())
    }
}
