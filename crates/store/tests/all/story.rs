//! One story of a table's life, written once over `dyn Store` and told to both
//! backends: SQLite always (a fresh temporary file per test), PostgreSQL when
//! `TABULA_TEST_DATABASE_URL` is set (a fresh schema per test, dropped afterwards even
//! when the test fails). Without the variable the PostgreSQL tests say once that they
//! were skipped, and pass.

use crate::common;

use std::sync::Arc;

use common::{Db, seat};
use serde_json::{Value, json};
use sqlx::Connection;
use tabula_store::{
    FeedEvent, LoadedTable, MAX_ENTRY_BYTES, MAX_STATE_BYTES, NewEntry, NewTable, Role, SeatRecord,
    Snapshot, Store, StoreError,
};

stories!(
    tables_are_created_listed_and_counted,
    a_token_finds_its_seat_and_no_other,
    commands_append_and_read_back_in_order,
    a_stale_append_is_a_conflict_and_changes_nothing,
    of_two_racing_appends_exactly_one_wins,
    a_reissued_token_retires_the_old_one,
    a_reopened_store_has_everything_back,
    caps_and_bad_input_are_refused,
    a_snapshot_is_written_with_its_entries_and_replaced,
    the_feed_hears_every_append,
);

// ---------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------

fn friday() -> NewTable {
    NewTable {
        system: "sour-grapes".into(),
        name: "Friday".into(),
        initial_state: json!({"round": 0, "names": ["Ann", "Bo"]}),
        roller: Some(json!({"seed": [1, 2, 3], "word": 0})),
        seats: vec![
            seat("gm", Role::Gm, "hash-gm"),
            seat("ann", Role::Player, "hash-ann"),
            seat("bo", Role::Player, "hash-bo"),
        ],
        campaign: None,
    }
}

fn entry(seat: &str, value: Value) -> NewEntry {
    NewEntry {
        seat: seat.into(),
        entry: value,
    }
}

fn record(table_id: &str, seat: &str, role: Role) -> SeatRecord {
    SeatRecord {
        table_id: table_id.into(),
        seat: seat.into(),
        role,
        display_name: format!("{seat} (shown)"),
    }
}

/// Two commands on a fresh Friday table: ann rolls (two entries, roller word 1),
/// the GM narrates (one entry, roller word 2). Returns the table's id.
async fn friday_with_two_commands(store: &dyn Store) -> String {
    let id = store.create_table(friday()).await.unwrap();
    let seq = store
        .append(
            &id,
            0,
            vec![
                entry("ann", json!({"rolled": [3, 5]})),
                entry("ann", json!({"kept": 5})),
            ],
            Some(json!({"seed": [1, 2, 3], "word": 1})),
        )
        .await
        .unwrap();
    assert_eq!(seq, 2);
    let seq = store
        .append(
            &id,
            2,
            vec![entry("gm", json!({"said": "the door opens"}))],
            Some(json!({"seed": [1, 2, 3], "word": 2})),
        )
        .await
        .unwrap();
    assert_eq!(seq, 3);
    id
}

/// Checks `id` is exactly the Friday table after `friday_with_two_commands`.
async fn assert_friday_after_two_commands(store: &dyn Store, id: &str) {
    let table = store.load_table(id).await.unwrap().expect("the table");
    assert_eq!(table.summary.id, id);
    assert_eq!(table.summary.system, "sour-grapes");
    assert_eq!(table.summary.name, "Friday");
    assert_eq!(table.summary.seq, 3);
    assert_eq!(table.summary.seats, 3);
    assert_eq!(table.initial_state, friday().initial_state);
    assert_eq!(table.initial_roller, friday().roller);
    assert_eq!(
        table.seats,
        [
            record(id, "gm", Role::Gm),
            record(id, "ann", Role::Player),
            record(id, "bo", Role::Player),
        ]
    );
    let seqs: Vec<u64> = table.entries.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 2, 3]);
    let seats: Vec<&str> = table.entries.iter().map(|e| e.seat.as_str()).collect();
    assert_eq!(seats, ["ann", "ann", "gm"]);
    let values: Vec<&Value> = table.entries.iter().map(|e| &e.entry).collect();
    assert_eq!(
        values,
        [
            &json!({"rolled": [3, 5]}),
            &json!({"kept": 5}),
            &json!({"said": "the door opens"}),
        ]
    );
    let ends: Vec<bool> = table.entries.iter().map(|e| e.command_end).collect();
    assert_eq!(ends, [false, true, true]);
    let rollers: Vec<Option<&Value>> = table.entries.iter().map(|e| e.roller.as_ref()).collect();
    assert_eq!(
        rollers,
        [
            None,
            Some(&json!({"seed": [1, 2, 3], "word": 1})),
            Some(&json!({"seed": [1, 2, 3], "word": 2})),
        ]
    );
    // One command, one time.
    assert_eq!(table.entries[0].at_ms, table.entries[1].at_ms);
    assert!(table.entries[0].at_ms >= table.summary.created_ms);
    assert_eq!(
        table.current_roller(),
        Some(&json!({"seed": [1, 2, 3], "word": 2}))
    );
}

// ---------------------------------------------------------------------------------
// The story.
// ---------------------------------------------------------------------------------

async fn tables_are_created_listed_and_counted(db: Db) {
    let store = db.store();
    assert_eq!(store.count_tables().await.unwrap(), 0);
    assert!(store.list_tables().await.unwrap().is_empty());

    let first = store.create_table(friday()).await.unwrap();
    let mut second_table = friday();
    second_table.name = "Saturday".into();
    second_table.system = "tiers".into();
    second_table.roller = None;
    second_table.seats.truncate(1);
    let second = store.create_table(second_table).await.unwrap();
    let third = store
        .create_table(NewTable {
            system: "scratch".into(),
            name: "Empty".into(),
            initial_state: json!(null),
            roller: None,
            seats: vec![],
            campaign: None,
        })
        .await
        .unwrap();

    for id in [&first, &second, &third] {
        assert_eq!(id.len(), 32, "{id}");
        assert!(
            id.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')),
            "{id}"
        );
    }
    assert_ne!(first, second);

    assert_eq!(store.count_tables().await.unwrap(), 3);
    let list = store.list_tables().await.unwrap();
    let ids: Vec<&str> = list.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, [&third, &second, &first], "newest first");
    let names: Vec<&str> = list.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Empty", "Saturday", "Friday"]);
    let seats: Vec<u32> = list.iter().map(|t| t.seats).collect();
    assert_eq!(seats, [0, 1, 3]);
    assert!(list.iter().all(|t| t.seq == 0));
    assert_eq!(list[1].system, "tiers");
    assert!(list[0].created_ms >= list[2].created_ms);
    assert!(
        list[2].created_ms > 1_600_000_000_000,
        "milliseconds since 1970"
    );

    assert_eq!(
        store.seats(&first).await.unwrap(),
        [
            record(&first, "gm", Role::Gm),
            record(&first, "ann", Role::Player),
            record(&first, "bo", Role::Player),
        ]
    );
    assert_eq!(store.seats(&third).await.unwrap(), []);
    assert_eq!(
        store.seats("0123456789abcdef0123456789abcdef").await,
        Err(StoreError::NotFound)
    );

    let loaded = store.load_table(&third).await.unwrap().expect("the table");
    assert_eq!(loaded.initial_state, json!(null));
    assert_eq!(loaded.initial_roller, None);
    assert_eq!(loaded.current_roller(), None);
    assert!(loaded.seats.is_empty() && loaded.entries.is_empty());
    let loaded = store.load_table(&first).await.unwrap().expect("the table");
    assert_eq!(loaded.current_roller(), friday().roller.as_ref());
    assert_eq!(loaded.summary, list[2]);
    assert_eq!(store.load_table("no-such-table").await.unwrap(), None);
}

async fn a_token_finds_its_seat_and_no_other(db: Db) {
    let store = db.store();
    let one = store.create_table(friday()).await.unwrap();
    // Another table whose seats reuse the same names and even the same hashes.
    let two = store.create_table(friday()).await.unwrap();

    assert_eq!(
        store.seat_for_token(&one, "hash-ann").await.unwrap(),
        Some(record(&one, "ann", Role::Player))
    );
    assert_eq!(
        store.seat_for_token(&two, "hash-ann").await.unwrap(),
        Some(record(&two, "ann", Role::Player))
    );
    assert_eq!(
        store.seat_for_token(&one, "hash-gm").await.unwrap(),
        Some(record(&one, "gm", Role::Gm))
    );
    assert_eq!(
        store.seat_for_token(&one, "hash-nobody").await.unwrap(),
        None
    );
    assert_eq!(store.seat_for_token(&one, "").await.unwrap(), None);
    assert_eq!(
        store.seat_for_token("nope", "hash-ann").await.unwrap(),
        None
    );

    // A hash only one table knows.
    let mut lone = friday();
    lone.seats = vec![seat("cy", Role::Player, "hash-only-at-three")];
    let three = store.create_table(lone).await.unwrap();
    assert_eq!(
        store
            .seat_for_token(&three, "hash-only-at-three")
            .await
            .unwrap(),
        Some(record(&three, "cy", Role::Player))
    );
    assert_eq!(
        store
            .seat_for_token(&one, "hash-only-at-three")
            .await
            .unwrap(),
        None
    );
}

async fn commands_append_and_read_back_in_order(db: Db) {
    let store = db.store();
    let id = friday_with_two_commands(store).await;
    assert_friday_after_two_commands(store, &id).await;

    let after_one = store.entries_after(&id, 1).await.unwrap();
    let seqs: Vec<u64> = after_one.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [2, 3]);
    let all = store.entries_after(&id, 0).await.unwrap();
    assert_eq!(all, store.load_table(&id).await.unwrap().unwrap().entries);
    assert!(store.entries_after(&id, 3).await.unwrap().is_empty());
    assert!(store.entries_after(&id, 99).await.unwrap().is_empty());
    assert_eq!(
        store.entries_after("no-such-table", 0).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(
        store.entries_after(&id, u64::MAX).await,
        Err(StoreError::SeqOutOfRange(u64::MAX))
    );

    // A command with no roller state stores none, and that is the current state.
    assert_eq!(
        store
            .append(&id, 3, vec![entry("bo", json!("pass"))], None)
            .await,
        Ok(4)
    );
    let table = store.load_table(&id).await.unwrap().unwrap();
    assert_eq!(table.summary.seq, 4);
    assert_eq!(table.entries[3].roller, None);
    assert!(table.entries[3].command_end);
    assert_eq!(table.current_roller(), None);
    let listed = store.list_tables().await.unwrap();
    assert_eq!(listed[0].seq, 4);

    // JSON of every shape comes back as it went in.
    let odd = json!({"u64": u64::MAX, "neg": -7, "float": 0.1, "s": "é\u{0}\"", "n": null,
                     "deep": [[[{"a": []}]]], "big": i64::MIN});
    assert_eq!(
        store
            .append(&id, 4, vec![entry("gm", odd.clone())], None)
            .await,
        Ok(5)
    );
    let back = store.entries_after(&id, 4).await.unwrap();
    assert_eq!(back[0].entry, odd);
}

async fn a_stale_append_is_a_conflict_and_changes_nothing(db: Db) {
    let store = db.store();
    let id = friday_with_two_commands(store).await;
    let before = store.load_table(&id).await.unwrap();

    for stale in [0, 1, 2, 4, 1000] {
        assert_eq!(
            store
                .append(
                    &id,
                    stale,
                    vec![entry("bo", json!("late")), entry("bo", json!("later"))],
                    Some(json!("a roller that must not be kept")),
                )
                .await,
            Err(StoreError::Conflict { current: 3 }),
            "expect_seq {stale}"
        );
    }
    assert_eq!(store.load_table(&id).await.unwrap(), before);
    assert_friday_after_two_commands(store, &id).await;

    assert_eq!(
        store
            .append("no-such-table", 0, vec![entry("bo", json!(1))], None)
            .await,
        Err(StoreError::NotFound)
    );
    // The right seq still works afterwards.
    assert_eq!(
        store
            .append(&id, 3, vec![entry("bo", json!("on time"))], None)
            .await,
        Ok(4)
    );
}

async fn of_two_racing_appends_exactly_one_wins(db: Db) {
    let id = db.store().create_table(friday()).await.unwrap();
    let mut winners = Vec::new();
    for round in 0..8u64 {
        let racers: Vec<_> = ["ann", "bo"]
            .into_iter()
            .map(|who| {
                let store = Arc::clone(&db.store);
                let id = id.clone();
                tokio::spawn(async move {
                    let result = store
                        .append(
                            &id,
                            round,
                            vec![entry(who, json!({"round": round}))],
                            Some(json!({"by": who, "round": round})),
                        )
                        .await;
                    (who, result)
                })
            })
            .collect();
        let mut won = Vec::new();
        for racer in racers {
            let (who, result) = racer.await.expect("the racer finishes");
            match result {
                Ok(seq) => {
                    assert_eq!(seq, round + 1);
                    won.push(who);
                }
                Err(StoreError::Conflict { current }) => assert_eq!(current, round + 1),
                Err(other) => panic!("round {round}: {who} failed: {other}"),
            }
        }
        assert_eq!(won.len(), 1, "round {round}: winners {won:?}");
        winners.push(won[0]);
    }

    let table = db.store().load_table(&id).await.unwrap().unwrap();
    assert_eq!(table.summary.seq, 8);
    let seats: Vec<&str> = table.entries.iter().map(|e| e.seat.as_str()).collect();
    assert_eq!(seats, winners, "only the winners' entries are in the log");
    for (round, stored) in table.entries.iter().enumerate() {
        assert_eq!(stored.seq, round as u64 + 1);
        assert_eq!(
            stored.roller,
            Some(json!({"by": winners[round], "round": round}))
        );
    }
    assert_eq!(
        table.current_roller(),
        Some(&json!({"by": winners[7], "round": 7}))
    );
}

async fn a_reissued_token_retires_the_old_one(db: Db) {
    let store = db.store();
    let one = store.create_table(friday()).await.unwrap();
    let two = store.create_table(friday()).await.unwrap();

    assert_eq!(
        store.reissue_token(&one, "ann", "hash-ann-2").await,
        Ok(true)
    );
    assert_eq!(store.seat_for_token(&one, "hash-ann").await.unwrap(), None);
    assert_eq!(
        store.seat_for_token(&one, "hash-ann-2").await.unwrap(),
        Some(record(&one, "ann", Role::Player))
    );
    // The other table's ann keeps her link.
    assert_eq!(
        store.seat_for_token(&two, "hash-ann").await.unwrap(),
        Some(record(&two, "ann", Role::Player))
    );
    // The other seats keep theirs.
    assert_eq!(
        store.seat_for_token(&one, "hash-bo").await.unwrap(),
        Some(record(&one, "bo", Role::Player))
    );

    assert_eq!(store.reissue_token(&one, "nobody", "h").await, Ok(false));
    assert_eq!(
        store.reissue_token("no-such-table", "ann", "h").await,
        Ok(false)
    );
    assert_eq!(store.seat_for_token(&one, "h").await.unwrap(), None);
}

async fn a_reopened_store_has_everything_back(db: Db) {
    let Db { store, reopen } = db;
    let id = friday_with_two_commands(&*store).await;
    assert_eq!(store.reissue_token(&id, "bo", "hash-bo-2").await, Ok(true));
    let before_list = store.list_tables().await.unwrap();
    let before = store.load_table(&id).await.unwrap();
    store.close().await;
    assert!(matches!(
        store.count_tables().await,
        Err(StoreError::Database(_))
    ));
    drop(store);

    let store = reopen.open().await;
    assert_eq!(store.list_tables().await.unwrap(), before_list);
    assert_eq!(store.load_table(&id).await.unwrap(), before);
    assert_friday_after_two_commands(&*store, &id).await;
    assert_eq!(
        store.seat_for_token(&id, "hash-bo-2").await.unwrap(),
        Some(record(&id, "bo", Role::Player))
    );
    assert_eq!(store.seat_for_token(&id, "hash-bo").await.unwrap(), None);
    // And the log goes on from where it was.
    assert_eq!(
        store
            .append(&id, 3, vec![entry("gm", json!("again"))], None)
            .await,
        Ok(4)
    );
    // Opening a second time runs no migration twice.
    let again = reopen.open().await;
    assert_eq!(again.count_tables().await, Ok(1));
}

async fn caps_and_bad_input_are_refused(db: Db) {
    let store = db.store();
    let id = store.create_table(friday()).await.unwrap();

    // A JSON string of n chars is n + 2 bytes: this one is exactly one byte over.
    let over = json!("x".repeat(MAX_ENTRY_BYTES - 1));
    assert_eq!(
        store
            .append(
                &id,
                0,
                vec![entry("ann", json!(1)), entry("ann", over)],
                None
            )
            .await,
        Err(StoreError::EntryTooLarge {
            index: 1,
            bytes: MAX_ENTRY_BYTES + 1,
            max: MAX_ENTRY_BYTES,
        })
    );
    assert_eq!(
        store.append(&id, 0, vec![], None).await,
        Err(StoreError::EmptyEntries)
    );
    assert_eq!(
        store
            .append(&id, u64::MAX, vec![entry("ann", json!(1))], None)
            .await,
        Err(StoreError::SeqOutOfRange(u64::MAX))
    );
    assert!(
        store.entries_after(&id, 0).await.unwrap().is_empty(),
        "nothing written"
    );

    // Exactly at the cap is fine.
    let at_cap = json!("x".repeat(MAX_ENTRY_BYTES - 2));
    assert_eq!(
        store
            .append(&id, 0, vec![entry("ann", at_cap.clone())], None)
            .await,
        Ok(1)
    );
    assert_eq!(store.entries_after(&id, 0).await.unwrap()[0].entry, at_cap);

    // Two seats with one name: refused, nothing created.
    let mut twice = friday();
    twice.seats.push(seat("ann", Role::Player, "hash-other"));
    assert_eq!(
        store.create_table(twice).await,
        Err(StoreError::DuplicateSeat("ann".into()))
    );
    assert_eq!(store.count_tables().await, Ok(1));

    // U+0000: fine inside JSON, refused in text fields, never a match as a key (the
    // same on both backends: PostgreSQL text cannot hold it).
    let nul = json!({"say": "a\u{0}b"});
    assert_eq!(
        store
            .append(&id, 1, vec![entry("ann", nul.clone())], Some(nul.clone()))
            .await,
        Ok(2)
    );
    assert_eq!(store.entries_after(&id, 1).await.unwrap()[0].entry, nul);
    assert_eq!(
        store
            .append(&id, 2, vec![entry("a\u{0}", json!(1))], None)
            .await,
        Err(StoreError::NulInText { field: "seat" })
    );
    for (field, change) in [
        (
            "system",
            (|t: &mut NewTable| t.system.push('\0')) as fn(&mut NewTable),
        ),
        ("name", |t| t.name.push('\0')),
        ("seat", |t| t.seats[1].seat.push('\0')),
        ("display name", |t| t.seats[1].display_name.push('\0')),
        ("token hash", |t| t.seats[1].token_hash.push('\0')),
    ] {
        let mut table = friday();
        change(&mut table);
        assert_eq!(
            store.create_table(table).await,
            Err(StoreError::NulInText { field }),
            "{field}"
        );
    }
    assert_eq!(
        store.reissue_token(&id, "ann", "h\u{0}").await,
        Err(StoreError::NulInText {
            field: "token hash"
        })
    );
    let nul_id = format!("{id}\u{0}");
    assert_eq!(store.load_table(&nul_id).await, Ok(None));
    assert_eq!(store.seats(&nul_id).await, Err(StoreError::NotFound));
    assert_eq!(
        store.entries_after(&nul_id, 0).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(
        store
            .append(&nul_id, 2, vec![entry("ann", json!(1))], None)
            .await,
        Err(StoreError::NotFound)
    );
    assert_eq!(store.seat_for_token(&id, "hash-ann\u{0}").await, Ok(None));
    assert_eq!(store.reissue_token(&id, "ann\u{0}", "h").await, Ok(false));
    assert_eq!(store.count_tables().await, Ok(1));

    // URLs and schemas.
    for url in ["mysql://x", "tabula.db", "", "http://x"] {
        assert!(
            matches!(tabula_store::open(url).await, Err(StoreError::BadUrl(_))),
            "{url}"
        );
    }
    assert!(matches!(
        tabula_store::open_with_schema("sqlite::memory:", "x").await,
        Err(StoreError::BadUrl(_))
    ));
    assert!(matches!(
        tabula_store::open_with_schema("postgres://nobody@127.0.0.1:1/x", "no; drop").await,
        Err(StoreError::BadUrl(_))
    ));
}

/// The in-memory SQLite store (one connection, kept open) works like a file, and
/// its Debug shows no URL.
#[tokio::test]
async fn sqlite_in_memory_keeps_its_data_between_calls() {
    let store = tabula_store::open("sqlite::memory:").await.unwrap();
    let id = friday_with_two_commands(&*store).await;
    assert_friday_after_two_commands(&*store, &id).await;
    assert!(format!("{store:?}").starts_with("SqliteStore"));
}

/// `sqlite://name` is a file relative to the working directory, created if missing.
#[tokio::test]
async fn sqlite_creates_a_missing_file_in_wal_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    assert!(!path.exists());
    let store = tabula_store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    store.create_table(friday()).await.unwrap();
    assert!(path.exists());
    store.close().await;
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    // Tokens are never stored, only the hashes the caller gave.
    let hashes: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM seats ORDER BY position")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(hashes, ["hash-gm", "hash-ann", "hash-bo"]);
}

async fn a_snapshot_is_written_with_its_entries_and_replaced(db: Db) {
    let Db { store, reopen } = db;
    let id = store.create_table(friday()).await.unwrap();
    assert_eq!(store.load_table(&id).await.unwrap().unwrap().snapshot, None);
    let one = vec![entry("gm", json!("a")), entry("gm", json!("b"))];
    assert_eq!(
        store
            .append_with_snapshot(&id, 0, one, Some(json!({"r": 1})), Some(json!({"at": 2})))
            .await,
        Ok(2)
    );
    let expected = Snapshot {
        seq: 2,
        state: json!({"at": 2}),
        roller: Some(json!({"r": 1})),
    };
    assert_eq!(
        store.load_table(&id).await.unwrap().unwrap().snapshot,
        Some(expected.clone())
    );
    // An append without one keeps the older snapshot.
    store
        .append(&id, 2, vec![entry("gm", json!("c"))], Some(json!({"r": 2})))
        .await
        .unwrap();
    assert_eq!(
        store.load_table(&id).await.unwrap().unwrap().snapshot,
        Some(expected)
    );
    // A conflicting append writes no snapshot either.
    assert_eq!(
        store
            .append_with_snapshot(
                &id,
                1,
                vec![entry("gm", json!("x"))],
                None,
                Some(json!({"at": "never"}))
            )
            .await,
        Err(StoreError::Conflict { current: 3 })
    );
    // An oversized snapshot refuses the whole append.
    let big = json!("x".repeat(MAX_STATE_BYTES));
    assert!(matches!(
        store
            .append_with_snapshot(&id, 3, vec![entry("gm", json!("d"))], None, Some(big))
            .await,
        Err(StoreError::StateTooLarge {
            what: "snapshot",
            ..
        })
    ));
    assert_eq!(store.load_table(&id).await.unwrap().unwrap().summary.seq, 3);
    // The next one replaces it, and survives a reopen.
    store
        .append_with_snapshot(
            &id,
            3,
            vec![entry("gm", json!("d"))],
            None,
            Some(json!({"at": 4})),
        )
        .await
        .unwrap();
    drop(store);
    let store = reopen.open().await;
    assert_eq!(
        store.load_table(&id).await.unwrap().unwrap().snapshot,
        Some(Snapshot {
            seq: 4,
            state: json!({"at": 4}),
            roller: None
        })
    );
    // A tail load reads the rows from the snapshot's own on, and is otherwise
    // the whole load's answer (issue 28, item 1).
    store
        .append(&id, 4, vec![entry("gm", json!("e"))], None)
        .await
        .unwrap();
    let whole = store.load_table(&id).await.unwrap().unwrap();
    let tail = store.load_table_tail(&id).await.unwrap().unwrap();
    let seqs: Vec<u64> = tail.entries.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [4, 5]);
    assert_eq!(tail.entries[..], whole.entries[3..]);
    assert_eq!(
        LoadedTable {
            entries: whole.entries.clone(),
            ..tail
        },
        whole
    );
    // Without a snapshot, a tail load is the whole log.
    let other = store.create_table(friday()).await.unwrap();
    store
        .append(&other, 0, vec![entry("gm", json!("a"))], None)
        .await
        .unwrap();
    assert_eq!(
        store.load_table_tail(&other).await.unwrap(),
        store.load_table(&other).await.unwrap()
    );
    assert_eq!(store.load_table_tail("no-such-table").await.unwrap(), None);
}

async fn the_feed_hears_every_append(db: Db) {
    let Db { store, reopen } = db;
    let Some(mut feed) = store.follow().await.unwrap() else {
        // SQLite: one process, nobody else to hear from.
        assert_eq!(store.backend(), "sqlite");
        return;
    };
    // Another "process": a second store on the same database.
    let other = reopen.open().await;
    let id = other.create_table(friday()).await.unwrap();
    other
        .append(
            &id,
            0,
            vec![entry("gm", json!(1)), entry("gm", json!(2))],
            None,
        )
        .await
        .unwrap();
    // A refused append notifies nothing.
    assert!(
        other
            .append(&id, 0, vec![entry("gm", json!(3))], None)
            .await
            .is_err()
    );
    other
        .append(&id, 2, vec![entry("gm", json!(3))], None)
        .await
        .unwrap();
    let mut heard = Vec::new();
    while heard.len() < 2 {
        let event = tokio::time::timeout(std::time::Duration::from_secs(10), feed.next())
            .await
            .expect("a notice within 10 s")
            .expect("the feed goes on");
        if let FeedEvent::Appended { table, seq } = event
            && table == id
        {
            heard.push(seq);
        }
    }
    assert_eq!(heard, [2, 3]);
    other.close().await;
    // Closing waits for the feed's connection, which the feed gives back as it ends.
    let closing = tokio::spawn(async move { store.close().await });
    assert_eq!(feed.next().await, None);
    drop(feed);
    closing.await.unwrap();
}
