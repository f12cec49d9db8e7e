//! What both backends share: checking input against the caps before any SQL, turning
//! JSON and seqs into what the databases keep, and rows back into the public types.

use std::collections::HashSet;
use std::time::{SystemTime, UNIX_EPOCH};

use rand::RngExt;
use serde_json::Value;

use tabula_core::names::{check_name, check_seat_name, normalize};

use crate::{
    CampaignPage, CampaignSeat, CampaignSummary, CharacterEvent, CharacterQuery, CharacterRecord,
    CharacterWrite, LinePage, LineQuery, LoadedCampaign, MAX_APPEND_ENTRIES,
    MAX_CAMPAIGN_CHARACTERS, MAX_CAMPAIGN_SHEET_BYTES, MAX_CHARACTER_ENTRY_BYTES,
    MAX_CHARACTER_EVENTS, MAX_CHARACTERS_PAGE, MAX_ENTRY_BYTES, MAX_EVENT_KIND_CHARS,
    MAX_LINE_BYTES, MAX_LINES_PAGE, MAX_SHEET_BYTES, MAX_STATE_BYTES, NewCampaign, NewCharacter,
    NewCharacterEvent, NewEntry, NewLine, NewSeat, NewTable, Role, SeatRecord, Snapshot,
    StoreError, StoredEntry, StoredLine, TableSummary,
};

/// A fresh id (of a table, a campaign, a character): 128 random bits as 32 lowercase
/// hex chars.
pub(crate) fn new_id() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// Now, in milliseconds since the Unix epoch (0 for a clock before 1970).
pub(crate) fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// A seq as the databases keep it.
pub(crate) fn seq_to_db(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::SeqOutOfRange(seq))
}

/// A stored seq (or count) back to `u64`; negative means a corrupt row.
pub(crate) fn seq_from_db(value: i64, column: &str) -> Result<u64, StoreError> {
    u64::try_from(value).map_err(|_| StoreError::Corrupt(format!("{column} is {value}")))
}

/// The answer to an append whose table was read as `head`: its latest seq
/// and when it ended (`None`: no such table), against the seq the append
/// expects, `expect` (both backends' optimistic lock). Ok when the append
/// may go on.
///
/// # Errors
/// [`StoreError::NotFound`], [`StoreError::Ended`], or
/// [`StoreError::Conflict`] with the table's seq.
pub(crate) fn check_append_head(
    head: Option<(i64, Option<i64>)>,
    expect: i64,
) -> Result<(), StoreError> {
    let Some((current, ended_ms)) = head else {
        return Err(StoreError::NotFound);
    };
    if ended_ms.is_some() {
        return Err(StoreError::Ended);
    }
    if current != expect {
        return Err(StoreError::Conflict {
            current: seq_from_db(current, "entries.seq")?,
        });
    }
    Ok(())
}

pub(crate) fn encode_state(value: &Value, what: &'static str) -> Result<String, StoreError> {
    let text = serde_json::to_string(value)
        .map_err(|e| StoreError::Corrupt(format!("{what} does not serialize: {e}")))?;
    if text.len() > MAX_STATE_BYTES {
        return Err(StoreError::StateTooLarge {
            what,
            bytes: text.len(),
            max: MAX_STATE_BYTES,
        });
    }
    Ok(text)
}

fn encode_optional_state(
    value: Option<&Value>,
    what: &'static str,
) -> Result<Option<String>, StoreError> {
    value.map(|value| encode_state(value, what)).transpose()
}

/// Refuses text PostgreSQL cannot keep (U+0000), on both backends alike.
pub(crate) fn check_text(value: &str, field: &'static str) -> Result<(), StoreError> {
    if value.contains('\0') {
        Err(StoreError::NulInText { field })
    } else {
        Ok(())
    }
}

/// Whether lookup keys could match anything stored: a key holding U+0000 cannot (and
/// PostgreSQL would refuse it as a parameter), so the lookup finds nothing.
pub(crate) fn findable(keys: &[&str]) -> bool {
    keys.iter().all(|key| !key.contains('\0'))
}

/// A stored JSON text back to a value.
pub(crate) fn decode_json(text: &str, column: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}

fn decode_optional_json(text: Option<&str>, column: &str) -> Result<Option<Value>, StoreError> {
    text.map(|text| decode_json(text, column)).transpose()
}

/// A seat as it will be inserted.
pub(crate) struct SeatRow {
    pub position: i32,
    pub seat: String,
    pub role: &'static str,
    pub display_name: String,
    pub token_hash: String,
}

/// A [`NewTable`] checked and encoded, ready to insert.
pub(crate) struct TableRow {
    pub id: String,
    pub system: String,
    pub name: String,
    pub initial_state: String,
    pub initial_roller: Option<String>,
    pub created_ms: i64,
    pub seats: Vec<SeatRow>,
    /// The campaign it belongs to (already known to be findable).
    pub campaign: Option<String>,
}

/// Checks a new table against the caps and the seat-name rule, and encodes it.
///
/// # Errors
/// As [`Store::create_table`](crate::Store::create_table)'s checks before the
/// database; [`StoreError::CampaignNotFound`] for a campaign id holding U+0000.
pub(crate) fn prepare_table(table: NewTable) -> Result<TableRow, StoreError> {
    check_text(&table.system, "system")?;
    check_text(&table.name, "name")?;
    if let Some(campaign) = &table.campaign
        && !findable(&[campaign])
    {
        return Err(StoreError::CampaignNotFound);
    }
    let initial_state = encode_state(&table.initial_state, "initial state")?;
    let initial_roller = encode_optional_state(table.roller.as_ref(), "initial roller")?;
    Ok(TableRow {
        id: new_id(),
        system: table.system,
        name: table.name,
        initial_state,
        initial_roller,
        created_ms: now_ms(),
        seats: prepare_seats(table.seats)?,
        campaign: table.campaign,
    })
}

/// Checks seats (no U+0000, no name twice) and numbers them.
fn prepare_seats(new_seats: Vec<NewSeat>) -> Result<Vec<SeatRow>, StoreError> {
    let mut names = HashSet::with_capacity(new_seats.len());
    let mut seats = Vec::with_capacity(new_seats.len());
    for (index, seat) in new_seats.into_iter().enumerate() {
        let NewSeat {
            seat,
            role,
            display_name,
            token_hash,
        } = seat;
        check_text(&seat, "seat")?;
        check_text(&display_name, "display name")?;
        check_text(&token_hash, "token hash")?;
        if !names.insert(seat.clone()) {
            return Err(StoreError::DuplicateSeat(seat));
        }
        let position = i32::try_from(index)
            .map_err(|_| StoreError::Database(format!("{index} seats is too many")))?;
        seats.push(SeatRow {
            position,
            seat,
            role: role.as_str(),
            display_name,
            token_hash,
        });
    }
    Ok(seats)
}

/// An entry as it will be inserted.
pub(crate) struct EntryRow {
    pub seq: i64,
    pub seat: String,
    pub entry: String,
    pub command_end: bool,
    pub roller: Option<String>,
}

/// One append checked and encoded, ready to insert.
pub(crate) struct AppendRows {
    /// The seq the table must be at.
    pub expect: i64,
    /// The seq the table will be at.
    pub last: u64,
    pub at_ms: i64,
    /// The table's new current roller state.
    pub roller: Option<String>,
    pub entries: Vec<EntryRow>,
    /// The state after the last entry, to keep as the table's snapshot.
    pub snapshot: Option<String>,
}

/// Checks an append against the caps and the seq range, and encodes it, numbering the
/// entries `expect_seq + 1..`.
pub(crate) fn prepare_append(
    expect_seq: u64,
    entries: Vec<NewEntry>,
    roller_after: Option<&Value>,
    snapshot_state: Option<&Value>,
) -> Result<AppendRows, StoreError> {
    if entries.is_empty() {
        return Err(StoreError::EmptyEntries);
    }
    if entries.len() > MAX_APPEND_ENTRIES {
        return Err(StoreError::TooManyEntries {
            count: entries.len(),
            max: MAX_APPEND_ENTRIES,
        });
    }
    let expect = seq_to_db(expect_seq)?;
    // At most i64::MAX + 4096: no u64 overflow.
    let last = expect_seq + entries.len() as u64;
    seq_to_db(last)?;
    let roller = encode_optional_state(roller_after, "roller")?;
    let snapshot = encode_optional_state(snapshot_state, "snapshot")?;
    let count = entries.len();
    let mut rows = Vec::with_capacity(count);
    for (index, NewEntry { seat, entry }) in entries.into_iter().enumerate() {
        check_text(&seat, "seat")?;
        let entry = serde_json::to_string(&entry)
            .map_err(|e| StoreError::Corrupt(format!("entry {index} does not serialize: {e}")))?;
        if entry.len() > MAX_ENTRY_BYTES {
            return Err(StoreError::EntryTooLarge {
                index,
                bytes: entry.len(),
                max: MAX_ENTRY_BYTES,
            });
        }
        let command_end = index + 1 == count;
        rows.push(EntryRow {
            seq: seq_to_db(expect_seq + 1 + index as u64)?,
            seat,
            entry,
            command_end,
            roller: if command_end { roller.clone() } else { None },
        });
    }
    Ok(AppendRows {
        expect,
        last,
        at_ms: now_ms(),
        roller,
        entries: rows,
        snapshot,
    })
}

/// A log line as it will be inserted.
pub(crate) struct LineRow {
    pub seq: i64,
    pub seat: String,
    pub line: String,
}

/// How many lines one INSERT statement writes at most (4 parameters each, far
/// under both databases' parameter limits).
pub(crate) const LINES_PER_INSERT: usize = 1000;

/// Checks log lines against their seq range `first..=last`, the seat-name rule
/// and the size cap, and encodes them.
pub(crate) fn prepare_lines(
    lines: Vec<NewLine>,
    first: u64,
    last: u64,
) -> Result<Vec<LineRow>, StoreError> {
    let mut rows = Vec::with_capacity(lines.len());
    for NewLine { seq, seat, line } in lines {
        if seq < first || seq > last {
            return Err(StoreError::LineOutOfRange { seq, first, last });
        }
        check_text(&seat, "seat")?;
        let line = serde_json::to_string(&line)
            .map_err(|e| StoreError::Corrupt(format!("line {seq} does not serialize: {e}")))?;
        if line.len() > MAX_LINE_BYTES {
            return Err(StoreError::LineTooLarge {
                seq,
                bytes: line.len(),
                max: MAX_LINE_BYTES,
            });
        }
        rows.push(LineRow {
            seq: seq_to_db(seq)?,
            seat,
            line,
        });
    }
    Ok(rows)
}

/// A [`LineQuery`] as the databases take it: `after`, `through` (both clamped to
/// `i64::MAX`), and the number of rows to fetch (the page's size plus one, to
/// know whether there are more).
pub(crate) fn line_bounds(query: &LineQuery) -> (i64, i64, i64) {
    let clamp = |seq: u64| i64::try_from(seq).unwrap_or(i64::MAX);
    let limit = query.limit.min(MAX_LINES_PAGE);
    (
        clamp(query.after),
        clamp(query.through),
        i64::from(limit) + 1,
    )
}

/// A row of `log_lines` as selected: seq, line JSON.
pub(crate) type LineRowOut = (i64, String);

/// Fetched rows (one more than the page's size when there are more, newest first
/// when the query took the newest) back to a page in seq order.
pub(crate) fn line_page(query: &LineQuery, rows: Vec<LineRowOut>) -> Result<LinePage, StoreError> {
    let limit = query.limit.min(MAX_LINES_PAGE) as usize;
    let more = rows.len() > limit;
    let mut lines = rows
        .into_iter()
        .take(limit)
        .map(|(seq, line)| {
            Ok(StoredLine {
                seq: seq_from_db(seq, "log_lines.seq")?,
                line: decode_json(&line, "log_lines.line")?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    if query.newest {
        lines.reverse();
    }
    Ok(LinePage { lines, more })
}

/// A row of `snapshots` as selected: seq, state JSON, roller JSON.
pub(crate) type SnapshotRow = (i64, String, Option<String>);

pub(crate) fn snapshot(row: SnapshotRow) -> Result<Snapshot, StoreError> {
    let (seq, state, roller) = row;
    Ok(Snapshot {
        seq: seq_from_db(seq, "snapshots.seq")?,
        state: decode_json(&state, "snapshots.state")?,
        roller: decode_optional_json(roller.as_deref(), "snapshots.roller")?,
    })
}

/// A row of `entries` as selected: seq, seat, entry JSON, at_ms, command_end, roller
/// JSON.
pub(crate) type StoredEntryRow = (i64, String, String, i64, bool, Option<String>);

pub(crate) fn stored_entry(row: StoredEntryRow) -> Result<StoredEntry, StoreError> {
    let (seq, seat, entry, at_ms, command_end, roller) = row;
    Ok(StoredEntry {
        seq: seq_from_db(seq, "entries.seq")?,
        seat,
        entry: decode_json(&entry, "entries.entry")?,
        at_ms,
        command_end,
        roller: decode_optional_json(roller.as_deref(), "entries.roller")?,
    })
}

/// A row of `seats` as selected: table_id, seat, role, display_name.
pub(crate) type SeatRecordRow = (String, String, String, String);

pub(crate) fn seat_record(row: SeatRecordRow) -> Result<SeatRecord, StoreError> {
    let (table_id, seat, role, display_name) = row;
    Ok(SeatRecord {
        table_id,
        seat,
        role: role_from_db(&role, "seats.role")?,
        display_name,
    })
}

/// A table summary as selected: id, system, name, created_ms, seq, seat count,
/// campaign_id, ended_ms, touched_ms.
pub(crate) type SummaryRow = (
    String,
    String,
    String,
    i64,
    i64,
    i64,
    Option<String>,
    Option<i64>,
    i64,
);

/// A count back to `u32`; negative or huge means a corrupt row.
/// A seat's role as stored in `column` (`gm` or `player`); anything else is
/// [`StoreError::Corrupt`] naming the column.
fn role_from_db(role: &str, column: &str) -> Result<Role, StoreError> {
    Role::from_name(role).ok_or_else(|| StoreError::Corrupt(format!("{column} is {role:?}")))
}

fn count_from_db(value: i64, what: &str) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("{value} {what}")))
}

pub(crate) fn summary(row: SummaryRow) -> Result<TableSummary, StoreError> {
    let (id, system, name, created_ms, seq, seats, campaign, ended_ms, touched_ms) = row;
    Ok(TableSummary {
        id,
        system,
        name,
        created_ms,
        touched_ms,
        seq: seq_from_db(seq, "entries.seq")?,
        seats: count_from_db(seats, "seats at one table")?,
        campaign,
        ended_ms,
    })
}

/// A table as selected for loading: its summary, then initial_state and
/// initial_roller JSON.
pub(crate) type LoadRow = (
    String,
    String,
    String,
    i64,
    i64,
    i64,
    Option<String>,
    Option<i64>,
    i64,
    String,
    Option<String>,
);

pub(crate) fn split_load_row(
    row: LoadRow,
) -> Result<(TableSummary, Value, Option<Value>), StoreError> {
    let (
        id,
        system,
        name,
        created_ms,
        seq,
        seats,
        campaign,
        ended_ms,
        touched_ms,
        initial_state,
        initial_roller,
    ) = row;
    let summary = summary((
        id, system, name, created_ms, seq, seats, campaign, ended_ms, touched_ms,
    ))?;
    let initial_state = decode_json(&initial_state, "tables.initial_state")?;
    let initial_roller = decode_optional_json(initial_roller.as_deref(), "tables.initial_roller")?;
    Ok((summary, initial_state, initial_roller))
}

/// A [`NewCampaign`] checked, ready to insert.
pub(crate) struct CampaignRow {
    pub id: String,
    pub system: String,
    pub name: String,
    pub created_ms: i64,
    pub seats: Vec<SeatRow>,
    pub settings: String,
}

/// Checks a new campaign: its name and its seats' names and display names follow
/// the rules of names (`tabula_core::names`), no seat twice, no U+0000.
pub(crate) fn prepare_campaign(campaign: NewCampaign) -> Result<CampaignRow, StoreError> {
    check_text(&campaign.system, "system")?;
    check_name("campaign name", &campaign.name)?;
    check_text(&campaign.settings, "settings")?;
    if campaign.settings.len() > MAX_SHEET_BYTES {
        return Err(StoreError::SheetTooLarge {
            bytes: campaign.settings.len(),
            max: MAX_SHEET_BYTES,
        });
    }
    for seat in &campaign.seats {
        check_seat_name("seat", &seat.seat)?;
        check_name("display name", &seat.display_name)?;
    }
    Ok(CampaignRow {
        id: new_id(),
        system: campaign.system,
        name: campaign.name,
        created_ms: now_ms(),
        seats: prepare_seats(campaign.seats)?,
        settings: campaign.settings,
    })
}

/// A character event checked and encoded, ready to insert (its `at_ms` is the
/// transaction's).
pub(crate) struct EventRow {
    /// The seq the character must be at.
    pub expect: i64,
    /// The event's seq: `expect + 1`.
    pub seq: i64,
    pub seat: String,
    pub kind: String,
    pub entry: String,
    pub sheet: String,
}

/// Checks an event kind: 1 to [`MAX_EVENT_KIND_CHARS`] characters, none a control
/// character.
fn check_kind(kind: &str) -> Result<(), StoreError> {
    let chars = kind.chars().count();
    if chars == 0 || chars > MAX_EVENT_KIND_CHARS || kind.chars().any(char::is_control) {
        return Err(StoreError::BadEventKind {
            chars,
            max: MAX_EVENT_KIND_CHARS,
        });
    }
    Ok(())
}

/// Checks a character event against the caps (`index` names it in an
/// [`StoreError::EntryTooLarge`]) and numbers it `expect_seq + 1`.
pub(crate) fn prepare_event(
    expect_seq: u64,
    event: NewCharacterEvent,
    index: usize,
) -> Result<EventRow, StoreError> {
    if expect_seq >= MAX_CHARACTER_EVENTS {
        return Err(StoreError::TooManyEvents {
            max: MAX_CHARACTER_EVENTS,
        });
    }
    let NewCharacterEvent {
        seat,
        kind,
        entry,
        sheet,
    } = event;
    check_text(&seat, "seat")?;
    check_kind(&kind)?;
    let entry = serde_json::to_string(&entry)
        .map_err(|e| StoreError::Corrupt(format!("entry {index} does not serialize: {e}")))?;
    if entry.len() > MAX_CHARACTER_ENTRY_BYTES {
        return Err(StoreError::EntryTooLarge {
            index,
            bytes: entry.len(),
            max: MAX_CHARACTER_ENTRY_BYTES,
        });
    }
    if sheet.len() > MAX_SHEET_BYTES {
        return Err(StoreError::SheetTooLarge {
            bytes: sheet.len(),
            max: MAX_SHEET_BYTES,
        });
    }
    check_text(&sheet, "sheet")?;
    // Below MAX_CHARACTER_EVENTS: both fit i64.
    Ok(EventRow {
        expect: seq_to_db(expect_seq)?,
        seq: seq_to_db(expect_seq + 1)?,
        seat,
        kind,
        entry,
        sheet,
    })
}

/// One [`CharacterWrite`] of [`Store::end_table`](crate::Store::end_table), checked.
pub(crate) struct WriteRow {
    pub character: String,
    pub event: EventRow,
}

/// Checks [`Store::end_table`](crate::Store::end_table)'s writes (at most
/// [`MAX_APPEND_ENTRIES`], each as an event) and puts them in the order they are
/// written: by character id, keeping the given order of one character's writes, so
/// two transactions lock characters in one order and never deadlock.
pub(crate) fn prepare_writes(writes: Vec<CharacterWrite>) -> Result<Vec<WriteRow>, StoreError> {
    if writes.len() > MAX_APPEND_ENTRIES {
        return Err(StoreError::TooManyEntries {
            count: writes.len(),
            max: MAX_APPEND_ENTRIES,
        });
    }
    let mut rows = writes
        .into_iter()
        .enumerate()
        .map(|(index, write)| {
            let CharacterWrite {
                character,
                expect_seq,
                event,
            } = write;
            Ok(WriteRow {
                character,
                event: prepare_event(expect_seq, event, index)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    rows.sort_by(|a, b| a.character.cmp(&b.character));
    Ok(rows)
}

/// A [`NewCharacter`] checked, ready to insert.
pub(crate) struct CharacterRow {
    pub id: String,
    pub name: String,
    /// The form names are compared in (`tabula_core::names::normalize`).
    pub name_key: String,
    pub file: String,
    /// The file name in lower case.
    pub file_key: String,
    pub owner: String,
    pub created_ms: i64,
    /// The first event (seq 1).
    pub event: EventRow,
}

/// Checks a file name: a name (`check_name`), no path separator, no white space at
/// either end, not `.` or `..`.
fn check_file(file: &str) -> Result<(), StoreError> {
    check_name("character file", file)?;
    if file.contains(['/', '\\']) || file.trim() != file || file == "." || file == ".." {
        return Err(StoreError::BadFileName(file.to_string()));
    }
    Ok(())
}

/// Checks a new character (names, file, owner, its first event).
pub(crate) fn prepare_character(character: NewCharacter) -> Result<CharacterRow, StoreError> {
    let NewCharacter {
        name,
        file,
        owner,
        event,
    } = character;
    check_name("character name", &name)?;
    check_file(&file)?;
    check_seat_name("owner", &owner)?;
    let event = prepare_event(0, event, 0)?;
    Ok(CharacterRow {
        id: new_id(),
        name_key: normalize(&name),
        name,
        file_key: file.to_lowercase(),
        file,
        owner,
        created_ms: now_ms(),
        event,
    })
}

impl CharacterRow {
    /// The character as [`Store::add_character`](crate::Store::add_character) stored
    /// it in campaign `campaign`.
    pub(crate) fn record(self, campaign: &str) -> CharacterRecord {
        CharacterRecord {
            id: self.id,
            campaign: campaign.to_string(),
            name: self.name,
            file: self.file,
            owner: self.owner,
            sheet: self.event.sheet,
            seq: 1,
            created_ms: self.created_ms,
            updated_ms: self.created_ms,
        }
    }
}

/// Checks the campaign a new table names: `system` is the campaign's system as
/// selected (`None`: no such campaign), `table_system` the table's.
pub(crate) fn check_campaign_system(
    system: Option<String>,
    table_system: &str,
) -> Result<(), StoreError> {
    match system {
        None => Err(StoreError::CampaignNotFound),
        Some(campaign) if campaign != table_system => Err(StoreError::SystemMismatch {
            campaign,
            table: table_system.to_string(),
        }),
        Some(_) => Ok(()),
    }
}

/// Checks that the campaign's current sheets stay within
/// [`MAX_CAMPAIGN_SHEET_BYTES`] when a sheet of `new` bytes joins the `others`
/// bytes of the campaign's other characters' current sheets (as selected inside
/// the writing transaction).
pub(crate) fn check_campaign_bytes(others: i64, new: usize) -> Result<(), StoreError> {
    let bytes = u64::try_from(others)
        .unwrap_or(0)
        .saturating_add(u64::try_from(new).unwrap_or(u64::MAX));
    if bytes > MAX_CAMPAIGN_SHEET_BYTES {
        return Err(StoreError::CampaignTooLarge {
            bytes,
            max: MAX_CAMPAIGN_SHEET_BYTES,
        });
    }
    Ok(())
}

/// Checks a new character against what its campaign holds, as selected inside the
/// adding transaction: whether its owner is a seat, how many characters there are,
/// whether one has its name key, whether one has its file key.
pub(crate) fn check_new_character(
    row: &CharacterRow,
    owner_is_a_seat: bool,
    characters: i64,
    name_taken: bool,
    file_taken: bool,
) -> Result<(), StoreError> {
    if !owner_is_a_seat {
        return Err(StoreError::UnknownOwner(row.owner.clone()));
    }
    if u64::try_from(characters).unwrap_or(u64::MAX) >= MAX_CAMPAIGN_CHARACTERS {
        return Err(StoreError::TooManyCharacters {
            max: MAX_CAMPAIGN_CHARACTERS,
        });
    }
    if name_taken {
        return Err(StoreError::DuplicateCharacterName(row.name.clone()));
    }
    if file_taken {
        return Err(StoreError::DuplicateCharacterFile(row.file.clone()));
    }
    Ok(())
}

/// Checks the seq of character `character` as selected inside the writing
/// transaction (`None`: no such character in the campaign) against the event's
/// expected seq.
pub(crate) fn check_character_seq(
    character: &str,
    current: Option<i64>,
    row: &EventRow,
) -> Result<(), StoreError> {
    let Some(current) = current else {
        return Err(StoreError::CharacterNotFound);
    };
    if current != row.expect {
        return Err(StoreError::CharacterConflict {
            character: character.to_string(),
            current: seq_from_db(current, "character_events.seq")?,
        });
    }
    Ok(())
}

/// A campaign from its rows, as selected by a load.
pub(crate) fn loaded_campaign(
    summary_row: CampaignSummaryRow,
    seats: Vec<CampaignSeatRow>,
    characters: Vec<CharacterRecordRow>,
    tables: Vec<SummaryRow>,
) -> Result<LoadedCampaign, StoreError> {
    Ok(LoadedCampaign {
        summary: campaign_summary(summary_row)?,
        seats: seats
            .into_iter()
            .map(campaign_seat)
            .collect::<Result<_, _>>()?,
        characters: characters
            .into_iter()
            .map(character_record)
            .collect::<Result<_, _>>()?,
        tables: tables.into_iter().map(summary).collect::<Result<_, _>>()?,
    })
}

/// The most characters a [`CharacterQuery`] reads, as the database's `LIMIT`.
pub(crate) fn character_limit(query: &CharacterQuery) -> i64 {
    i64::from(query.limit.min(MAX_CHARACTERS_PAGE))
}

/// How many of the sheets whose sizes (in bytes, in page order) are `sizes`
/// fit within `max_bytes` together; at least one when there is one.
pub(crate) fn sheets_fitting(sizes: &[i64], max_bytes: u64) -> i64 {
    let mut total: u64 = 0;
    let mut fit: i64 = 0;
    for size in sizes {
        let size = u64::try_from(*size).unwrap_or(0);
        let after = total.saturating_add(size);
        if fit > 0 && after > max_bytes {
            break;
        }
        total = after;
        fit += 1;
    }
    fit
}

/// A campaign with a page of its characters from its rows, as selected by
/// `campaign_page`: `total` the characters the query may see, `remaining` those
/// of them after its cursor.
pub(crate) fn campaign_page(
    summary_row: CampaignSummaryRow,
    seats: Vec<CampaignSeatRow>,
    tables: Vec<SummaryRow>,
    characters: Vec<CharacterRecordRow>,
    total: i64,
    remaining: i64,
) -> Result<CampaignPage, StoreError> {
    let characters: Vec<CharacterRecord> = characters
        .into_iter()
        .map(character_record)
        .collect::<Result<_, _>>()?;
    let page = i64::try_from(characters.len()).unwrap_or(i64::MAX);
    Ok(CampaignPage {
        summary: campaign_summary(summary_row)?,
        seats: seats
            .into_iter()
            .map(campaign_seat)
            .collect::<Result<_, _>>()?,
        tables: tables.into_iter().map(summary).collect::<Result<_, _>>()?,
        characters,
        total: u64::from(count_from_db(total, "characters in one campaign")?),
        more: remaining > page,
    })
}

/// A campaign's summary columns (the same on both backends), of `campaigns c`.
pub(crate) const CAMPAIGN_COLUMNS: &str = "c.id, c.system, c.name, c.created_ms, \
     (SELECT COUNT(*) FROM campaign_seats s WHERE s.campaign_id = c.id), \
     (SELECT COUNT(*) FROM characters h WHERE h.campaign_id = c.id), \
     (SELECT COUNT(*) FROM tables t WHERE t.campaign_id = c.id), c.settings";

/// A character's columns with its last event's (the same on both backends), of
/// [`CHARACTER_FROM`]; read as a [`CharacterRecordRow`].
pub(crate) const CHARACTER_COLUMNS: &str =
    "h.id, h.campaign_id, h.name, h.file, h.owner, e.sheet, e.seq, e.at_ms, h.created_ms";

/// A character (`h`) joined with its last event (`e`): every character has one, the
/// first is written with it.
pub(crate) const CHARACTER_FROM: &str = "characters h JOIN character_events e \
     ON e.character_id = h.id \
     AND e.seq = (SELECT MAX(m.seq) FROM character_events m WHERE m.character_id = h.id)";

/// A campaign summary as selected: id, system, name, created_ms, seat, character
/// and table counts.
pub(crate) type CampaignSummaryRow = (String, String, String, i64, i64, i64, i64, String);

pub(crate) fn campaign_summary(row: CampaignSummaryRow) -> Result<CampaignSummary, StoreError> {
    let (id, system, name, created_ms, seats, characters, tables, settings) = row;
    Ok(CampaignSummary {
        id,
        system,
        name,
        created_ms,
        seats: count_from_db(seats, "seats in one campaign")?,
        characters: count_from_db(characters, "characters in one campaign")?,
        tables: count_from_db(tables, "tables in one campaign")?,
        settings,
    })
}

/// A row of `campaign_seats` as selected: campaign_id, seat, role, display_name.
pub(crate) type CampaignSeatRow = (String, String, String, String);

pub(crate) fn campaign_seat(row: CampaignSeatRow) -> Result<CampaignSeat, StoreError> {
    let (campaign, seat, role, display_name) = row;
    Ok(CampaignSeat {
        campaign,
        seat,
        role: role_from_db(&role, "campaign_seats.role")?,
        display_name,
    })
}

/// A character as selected with its last event: id, campaign_id, name, file, owner,
/// the last event's sheet, seq and at_ms, created_ms.
pub(crate) type CharacterRecordRow = (
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
    i64,
    i64,
);

pub(crate) fn character_record(row: CharacterRecordRow) -> Result<CharacterRecord, StoreError> {
    let (id, campaign, name, file, owner, sheet, seq, updated_ms, created_ms) = row;
    Ok(CharacterRecord {
        id,
        campaign,
        name,
        file,
        owner,
        sheet,
        seq: seq_from_db(seq, "character_events.seq")?,
        created_ms,
        updated_ms,
    })
}

/// A row of `character_events` as selected: seq, seat, kind, entry JSON, sheet,
/// at_ms.
pub(crate) type CharacterEventRow = (i64, String, String, String, String, i64);

pub(crate) fn character_event(row: CharacterEventRow) -> Result<CharacterEvent, StoreError> {
    let (seq, seat, kind, entry, sheet, at_ms) = row;
    Ok(CharacterEvent {
        seq: seq_from_db(seq, "character_events.seq")?,
        seat,
        kind,
        entry: decode_json(&entry, "character_events.entry")?,
        sheet,
        at_ms,
    })
}

/// Checks a PostgreSQL schema name: 1 to 63 of `[a-z0-9_]`, not starting with a digit.
pub(crate) fn check_schema_name(schema: &str) -> Result<(), StoreError> {
    let mut chars = schema.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_');
    let rest_ok = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if first_ok && rest_ok && schema.len() <= 63 {
        Ok(())
    } else {
        Err(StoreError::BadUrl(format!(
            "schema {schema:?} is not 1 to 63 of a-z, 0-9, _ (not starting with a digit)"
        )))
    }
}

/// Whether a table found as `(campaign_id, ended_ms)` (or not found) may be
/// deleted ([`Store::delete_table`](crate::Store::delete_table)).
///
/// # Errors
/// [`StoreError::NotFound`] when it was not found;
/// [`StoreError::EndedCampaignTable`] for a campaign's ended table.
pub(crate) fn check_deletable(
    found: Option<(Option<String>, Option<i64>)>,
) -> Result<(), StoreError> {
    match found {
        None => Err(StoreError::NotFound),
        Some((Some(_), Some(_))) => Err(StoreError::EndedCampaignTable),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(bytes: usize) -> NewEntry {
        NewEntry {
            seat: "gm".into(),
            entry: Value::String("x".repeat(bytes)),
        }
    }

    #[test]
    fn a_page_holds_the_sheets_that_fit_and_at_least_one() {
        assert_eq!(sheets_fitting(&[], 10), 0);
        assert_eq!(sheets_fitting(&[50], 10), 1, "one sheet always");
        assert_eq!(sheets_fitting(&[4, 6, 1], 10), 2, "exactly the budget fits");
        assert_eq!(
            sheets_fitting(&[4, 7, 1], 10),
            1,
            "the page ends at the first past it"
        );
        assert_eq!(sheets_fitting(&[1, 1, 1], 10), 3);
        assert_eq!(sheets_fitting(&[i64::MAX, i64::MAX], u64::MAX), 2);
    }

    #[test]
    fn ids_are_32_lowercase_hex_and_differ() {
        let a = new_id();
        let b = new_id();
        assert_eq!(a.len(), 32);
        assert!(
            a.chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_ne!(a, b);
    }

    #[test]
    fn append_numbers_entries_and_marks_the_command_end() {
        let rows =
            prepare_append(4, vec![entry(1), entry(1)], Some(&json!({"s": 1})), None).unwrap();
        assert_eq!(rows.expect, 4);
        assert_eq!(rows.last, 6);
        let seqs: Vec<i64> = rows.entries.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [5, 6]);
        assert!(!rows.entries[0].command_end && rows.entries[0].roller.is_none());
        assert!(rows.entries[1].command_end);
        assert_eq!(rows.entries[1].roller.as_deref(), Some(r#"{"s":1}"#));
    }

    #[test]
    fn the_entry_cap_is_exact() {
        // A JSON string of n chars takes n + 2 bytes.
        assert!(prepare_append(0, vec![entry(MAX_ENTRY_BYTES - 2)], None, None).is_ok());
        assert_eq!(
            prepare_append(0, vec![entry(1), entry(MAX_ENTRY_BYTES - 1)], None, None).err(),
            Some(StoreError::EntryTooLarge {
                index: 1,
                bytes: MAX_ENTRY_BYTES + 1,
                max: MAX_ENTRY_BYTES
            })
        );
    }

    #[test]
    fn appends_are_capped_in_count_and_range() {
        assert_eq!(
            prepare_append(0, vec![], None, None).err(),
            Some(StoreError::EmptyEntries)
        );
        let many = vec![entry(0); MAX_APPEND_ENTRIES + 1];
        assert!(matches!(
            prepare_append(0, many, None, None),
            Err(StoreError::TooManyEntries { .. })
        ));
        let top = i64::MAX as u64;
        assert_eq!(
            prepare_append(top + 1, vec![entry(0)], None, None).err(),
            Some(StoreError::SeqOutOfRange(top + 1))
        );
        assert_eq!(
            prepare_append(top, vec![entry(0)], None, None).err(),
            Some(StoreError::SeqOutOfRange(top + 1))
        );
        assert!(prepare_append(top - 1, vec![entry(0)], None, None).is_ok());
    }

    #[test]
    fn states_are_capped() {
        let big = Value::String("x".repeat(MAX_STATE_BYTES));
        assert!(matches!(
            prepare_append(0, vec![entry(0)], Some(&big), None),
            Err(StoreError::StateTooLarge { what: "roller", .. })
        ));
        let table = NewTable {
            system: "s".into(),
            name: "n".into(),
            initial_state: big,
            roller: None,
            seats: vec![],
            campaign: None,
        };
        assert!(matches!(
            prepare_table(table),
            Err(StoreError::StateTooLarge {
                what: "initial state",
                ..
            })
        ));
    }

    #[test]
    fn stored_seqs_and_roles_are_checked() {
        assert!(matches!(
            seq_from_db(-1, "entries.seq"),
            Err(StoreError::Corrupt(_))
        ));
        let row = ("t".into(), "a".into(), "admin".into(), "A".into());
        assert!(matches!(seat_record(row), Err(StoreError::Corrupt(_))));
    }

    fn new_event(kind: &str, sheet_bytes: usize) -> NewCharacterEvent {
        NewCharacterEvent {
            seat: "gm".into(),
            kind: kind.into(),
            entry: json!({"hp": 3}),
            sheet: "x".repeat(sheet_bytes),
        }
    }

    #[test]
    fn an_event_is_numbered_after_its_expected_seq_up_to_the_cap() {
        let row = prepare_event(4, new_event("advanced", 0), 0).unwrap();
        assert_eq!((row.expect, row.seq), (4, 5));
        assert_eq!(row.entry, r#"{"hp":3}"#);
        let last = prepare_event(MAX_CHARACTER_EVENTS - 1, new_event("k", 0), 0).unwrap();
        assert_eq!(last.seq, MAX_CHARACTER_EVENTS as i64);
        for full in [MAX_CHARACTER_EVENTS, u64::MAX] {
            assert_eq!(
                prepare_event(full, new_event("k", 0), 0).err(),
                Some(StoreError::TooManyEvents {
                    max: MAX_CHARACTER_EVENTS
                })
            );
        }
    }

    #[test]
    fn event_kinds_and_sheets_are_capped_exactly() {
        let at_cap = "k".repeat(MAX_EVENT_KIND_CHARS);
        assert!(prepare_event(0, new_event(&at_cap, MAX_SHEET_BYTES), 0).is_ok());
        // Characters, not bytes: 32 two-byte letters are fine.
        assert!(prepare_event(0, new_event(&"é".repeat(32), 0), 0).is_ok());
        for (kind, chars) in [
            ("", 0),
            (&*"k".repeat(33), 33),
            (
                "a
b", 3,
            ),
        ] {
            assert_eq!(
                prepare_event(0, new_event(kind, 0), 0).err(),
                Some(StoreError::BadEventKind {
                    chars,
                    max: MAX_EVENT_KIND_CHARS
                }),
                "{kind:?}"
            );
        }
        assert_eq!(
            prepare_event(0, new_event("k", MAX_SHEET_BYTES + 1), 0).err(),
            Some(StoreError::SheetTooLarge {
                bytes: MAX_SHEET_BYTES + 1,
                max: MAX_SHEET_BYTES
            })
        );
        let mut big = new_event("k", 0);
        // Issue 28: a character event's entry may carry a whole sheet, so its
        // cap is MAX_CHARACTER_ENTRY_BYTES (was MAX_ENTRY_BYTES).
        big.entry = Value::String("x".repeat(MAX_CHARACTER_ENTRY_BYTES - 1));
        assert!(matches!(
            prepare_event(0, big, 7),
            Err(StoreError::EntryTooLarge { index: 7, .. })
        ));
    }

    #[test]
    fn file_names_are_plain_names() {
        for good in ["kodos.toml", "Kodos Two.toml", "a", "..x", "é.toml"] {
            assert_eq!(check_file(good), Ok(()), "{good}");
        }
        for bad in ["a/b", "/etc/passwd", "a\\b", " a", "a ", ".", ".."] {
            assert_eq!(
                check_file(bad),
                Err(StoreError::BadFileName(bad.into())),
                "{bad}"
            );
        }
        assert!(matches!(check_file(""), Err(StoreError::BadName(_))));
        assert!(matches!(
            check_file(&"x".repeat(65)),
            Err(StoreError::BadName(_))
        ));
    }

    #[test]
    fn a_character_is_keyed_by_its_name_and_file_as_they_compare() {
        let row = prepare_character(NewCharacter {
            name: "  Iron_Wolf ".into(),
            file: "Iron-Wolf.TOML".into(),
            owner: "ann".into(),
            event: new_event("created", 10),
        })
        .unwrap();
        assert_eq!(row.name_key, "iron wolf");
        assert_eq!(row.file_key, "iron-wolf.toml");
        assert_eq!(row.name, "  Iron_Wolf ", "kept as given");
        assert_eq!((row.event.expect, row.event.seq), (0, 1));
        let record = row.record("c");
        assert_eq!((record.seq, record.campaign.as_str()), (1, "c"));
        assert_eq!(record.created_ms, record.updated_ms);
    }

    #[test]
    fn a_campaigns_sheets_take_at_most_their_cap_of_bytes() {
        let max = MAX_CAMPAIGN_SHEET_BYTES as i64;
        assert_eq!(check_campaign_bytes(max - 10, 10), Ok(()));
        assert_eq!(
            check_campaign_bytes(max - 10, 11),
            Err(StoreError::CampaignTooLarge {
                bytes: MAX_CAMPAIGN_SHEET_BYTES + 1,
                max: MAX_CAMPAIGN_SHEET_BYTES
            })
        );
        assert_eq!(check_campaign_bytes(0, 0), Ok(()));
        assert!(
            check_campaign_bytes(i64::MAX, usize::MAX).is_err(),
            "no overflow"
        );
    }

    #[test]
    fn a_campaign_holds_at_most_its_cap_of_characters() {
        let row = prepare_character(NewCharacter {
            name: "Kodos".into(),
            file: "kodos.toml".into(),
            owner: "ann".into(),
            event: new_event("created", 0),
        })
        .unwrap();
        let cap = MAX_CAMPAIGN_CHARACTERS as i64;
        assert_eq!(
            check_new_character(&row, true, cap - 1, false, false),
            Ok(())
        );
        assert_eq!(
            check_new_character(&row, true, cap, false, false),
            Err(StoreError::TooManyCharacters {
                max: MAX_CAMPAIGN_CHARACTERS
            })
        );
        assert_eq!(
            check_new_character(&row, false, cap, true, true),
            Err(StoreError::UnknownOwner("ann".into())),
            "the owner is checked first"
        );
        assert_eq!(
            check_new_character(&row, true, 0, true, true),
            Err(StoreError::DuplicateCharacterName("Kodos".into()))
        );
        assert_eq!(
            check_new_character(&row, true, 0, false, true),
            Err(StoreError::DuplicateCharacterFile("kodos.toml".into()))
        );
    }

    #[test]
    fn an_ending_takes_at_most_the_append_cap_of_writes() {
        let writes = vec![
            CharacterWrite {
                character: "c".into(),
                expect_seq: 1,
                event: new_event("k", 0),
            };
            MAX_APPEND_ENTRIES + 1
        ];
        assert!(matches!(
            prepare_writes(writes),
            Err(StoreError::TooManyEntries { .. })
        ));
    }

    proptest::proptest! {
        /// The writes of an ending are put in character-id order (one lock order for
        /// every transaction), and one character's writes keep the order given.
        #[test]
        fn writes_are_ordered_by_character_keeping_each_ones_order(
            picks in proptest::collection::vec((0u8..4, 0u64..1000), 0..40)
        ) {
            let writes: Vec<CharacterWrite> = picks
                .iter()
                .map(|&(who, seq)| CharacterWrite {
                    character: format!("c{who}"),
                    expect_seq: seq,
                    event: new_event("k", 0),
                })
                .collect();
            let rows = prepare_writes(writes).unwrap();
            proptest::prop_assert_eq!(rows.len(), picks.len());
            for pair in rows.windows(2) {
                proptest::prop_assert!(pair[0].character <= pair[1].character);
            }
            for who in 0u8..4 {
                let name = format!("c{who}");
                let given: Vec<i64> = picks
                    .iter()
                    .filter(|(w, _)| *w == who)
                    .map(|&(_, seq)| seq as i64)
                    .collect();
                let kept: Vec<i64> = rows
                    .iter()
                    .filter(|row| row.character == name)
                    .map(|row| row.event.expect)
                    .collect();
                proptest::prop_assert_eq!(kept, given);
            }
        }
    }

    #[test]
    fn schema_names_are_plain() {
        for good in ["tabula", "_x", "tabula_test_0a1b", &"a".repeat(63)] {
            assert!(check_schema_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "1abc",
            "Tabula",
            "a-b",
            "a;drop",
            "a b",
            &"a".repeat(64),
        ] {
            assert!(check_schema_name(bad).is_err(), "{bad}");
        }
    }
}
