//! What both backends share: checking input against the caps before any SQL, turning
//! JSON and seqs into what the databases keep, and rows back into the public types.

use std::collections::HashSet;
use std::time::{SystemTime, UNIX_EPOCH};

use rand::RngExt;
use serde_json::Value;

use crate::{
    MAX_APPEND_ENTRIES, MAX_ENTRY_BYTES, MAX_STATE_BYTES, NewEntry, NewSeat, NewTable, Role,
    SeatRecord, Snapshot, StoreError, StoredEntry, TableId, TableSummary,
};

/// A fresh table id: 128 random bits as 32 lowercase hex chars.
pub(crate) fn new_table_id() -> TableId {
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

fn encode_state(value: &Value, what: &'static str) -> Result<String, StoreError> {
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
    pub id: TableId,
    pub system: String,
    pub name: String,
    pub initial_state: String,
    pub initial_roller: Option<String>,
    pub created_ms: i64,
    pub seats: Vec<SeatRow>,
}

/// Checks a new table against the caps and the seat-name rule, and encodes it.
pub(crate) fn prepare_table(table: NewTable) -> Result<TableRow, StoreError> {
    check_text(&table.system, "system")?;
    check_text(&table.name, "name")?;
    let initial_state = encode_state(&table.initial_state, "initial state")?;
    let initial_roller = encode_optional_state(table.roller.as_ref(), "initial roller")?;
    let mut names = HashSet::with_capacity(table.seats.len());
    let mut seats = Vec::with_capacity(table.seats.len());
    for (index, seat) in table.seats.into_iter().enumerate() {
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
    Ok(TableRow {
        id: new_table_id(),
        system: table.system,
        name: table.name,
        initial_state,
        initial_roller,
        created_ms: now_ms(),
        seats,
    })
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
    let role = Role::from_name(&role)
        .ok_or_else(|| StoreError::Corrupt(format!("seats.role is {role:?}")))?;
    Ok(SeatRecord {
        table_id,
        seat,
        role,
        display_name,
    })
}

/// A table summary as selected: id, system, name, created_ms, seq, seat count.
pub(crate) type SummaryRow = (String, String, String, i64, i64, i64);

pub(crate) fn summary(row: SummaryRow) -> Result<TableSummary, StoreError> {
    let (id, system, name, created_ms, seq, seats) = row;
    Ok(TableSummary {
        id,
        system,
        name,
        created_ms,
        seq: seq_from_db(seq, "entries.seq")?,
        seats: u32::try_from(seats)
            .map_err(|_| StoreError::Corrupt(format!("{seats} seats at one table")))?,
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
    String,
    Option<String>,
);

pub(crate) fn split_load_row(
    row: LoadRow,
) -> Result<(TableSummary, Value, Option<Value>), StoreError> {
    let (id, system, name, created_ms, seq, seats, initial_state, initial_roller) = row;
    let summary = summary((id, system, name, created_ms, seq, seats))?;
    let initial_state = decode_json(&initial_state, "tables.initial_state")?;
    let initial_roller = decode_optional_json(initial_roller.as_deref(), "tables.initial_roller")?;
    Ok((summary, initial_state, initial_roller))
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
    fn ids_are_32_lowercase_hex_and_differ() {
        let a = new_table_id();
        let b = new_table_id();
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
