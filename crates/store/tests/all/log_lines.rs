//! Issue 28: each entry's log line is kept per seat, written with the entry, and a
//! seat's log is read a page at a time with no replay. Told to both backends
//! (PostgreSQL when `TABULA_TEST_DATABASE_URL` is set).

use crate::common;

use common::{Db, seat};
use serde_json::{Value, json};
use tabula_store::{
    LineQuery, MAX_LINE_BYTES, MAX_LINES_PAGE, NewEntry, NewLine, NewTable, Role, Store, StoreError,
};

stories!(
    lines_are_written_with_their_entries_and_read_by_seat,
    pages_take_the_oldest_or_the_newest_and_say_whether_there_are_more,
    bad_lines_are_refused_and_nothing_is_written,
    a_stale_append_writes_no_line,
    an_append_without_lines_leaves_a_gap_that_put_lines_fills,
    a_reopened_store_has_its_lines_back,
);

fn table() -> NewTable {
    NewTable {
        system: "sour-grapes".into(),
        name: "Lines".into(),
        initial_state: json!({"round": 0}),
        roller: Some(json!({"word": 0})),
        seats: vec![
            seat("gm", Role::Gm, "hash-gm"),
            seat("ann", Role::Player, "hash-ann"),
            seat("bo", Role::Player, "hash-bo"),
        ],
        campaign: None,
    }
}

fn entry(seat: &str, n: u64) -> NewEntry {
    NewEntry {
        seat: seat.into(),
        entry: json!({ "n": n }),
    }
}

fn line(seq: u64, seat: &str) -> NewLine {
    NewLine {
        seq,
        seat: seat.into(),
        line: json!({"seq": seq, "text": format!("{seat} sees #{seq}")}),
    }
}

/// Every seat's line of `seq`, except `hidden_from`'s.
fn lines_of(seq: u64, hidden_from: Option<&str>) -> Vec<NewLine> {
    ["gm", "ann", "bo"]
        .into_iter()
        .filter(|s| Some(*s) != hidden_from)
        .map(|s| line(seq, s))
        .collect()
}

fn query(after: u64, through: u64, limit: u32, newest: bool) -> LineQuery {
    LineQuery {
        after,
        through,
        limit,
        newest,
    }
}

async fn seqs(store: &dyn Store, id: &str, seat: &str, q: LineQuery) -> (Vec<u64>, bool) {
    let page = store.log_lines(id, seat, q).await.unwrap();
    for l in &page.lines {
        assert_eq!(l.line["seq"], json!(l.seq), "a line comes back as written");
        assert_eq!(l.line["text"], json!(format!("{seat} sees #{}", l.seq)));
    }
    (page.lines.iter().map(|l| l.seq).collect(), page.more)
}

/// `n` one-entry commands with every seat's lines, except that `bo` sees no line
/// of every third entry (a whisper to others).
async fn table_with(store: &dyn Store, n: u64) -> String {
    let id = store.create_table(table()).await.unwrap();
    for seq in 1..=n {
        let hidden = (seq % 3 == 0).then_some("bo");
        let got = store
            .append_with_lines(
                &id,
                seq - 1,
                vec![entry("ann", seq)],
                Some(json!({"word": seq})),
                None,
                Some(lines_of(seq, hidden)),
            )
            .await
            .unwrap();
        assert_eq!(got, seq);
    }
    id
}

async fn lines_through(store: &dyn Store, id: &str) -> u64 {
    store.load_table(id).await.unwrap().unwrap().lines_through
}

async fn lines_are_written_with_their_entries_and_read_by_seat(db: Db) {
    let store = db.store();
    let id = table_with(store, 6).await;
    assert_eq!(lines_through(store, &id).await, 6);
    let all = query(0, u64::MAX, 100, false);
    assert_eq!(
        seqs(store, &id, "ann", all).await,
        (vec![1, 2, 3, 4, 5, 6], false)
    );
    // Bo has no line of 3 and 6: his seqs are not contiguous.
    assert_eq!(seqs(store, &id, "bo", all).await, (vec![1, 2, 4, 5], false));
    // Another seat, another table: nothing.
    assert_eq!(seqs(store, &id, "cy", all).await, (vec![], false));
    assert_eq!(
        seqs(store, "no-such-table", "ann", all).await,
        (vec![], false)
    );
    // `after` and `through` bound the range.
    assert_eq!(
        seqs(store, &id, "bo", query(2, 5, 100, false)).await,
        (vec![4, 5], false)
    );
    assert_eq!(
        seqs(store, &id, "gm", query(5, 5, 100, false)).await,
        (vec![], false)
    );
    // One command of two entries: lines of both, in one append.
    let got = store
        .append_with_lines(
            &id,
            6,
            vec![entry("gm", 7), entry("gm", 8)],
            None,
            None,
            Some(vec![line(8, "ann"), line(7, "ann"), line(7, "gm")]),
        )
        .await
        .unwrap();
    assert_eq!(got, 8);
    assert_eq!(
        seqs(store, &id, "ann", query(6, u64::MAX, 100, false)).await,
        (vec![7, 8], false)
    );
    assert_eq!(
        seqs(store, &id, "gm", query(6, u64::MAX, 100, false)).await,
        (vec![7], false)
    );
    assert_eq!(lines_through(store, &id).await, 8);
}

async fn pages_take_the_oldest_or_the_newest_and_say_whether_there_are_more(db: Db) {
    let store = db.store();
    let id = table_with(store, 12).await;
    // Ann: 1..=12. Oldest first.
    assert_eq!(
        seqs(store, &id, "ann", query(0, u64::MAX, 5, false)).await,
        (vec![1, 2, 3, 4, 5], true)
    );
    assert_eq!(
        seqs(store, &id, "ann", query(10, u64::MAX, 2, false)).await,
        (vec![11, 12], false)
    );
    // Newest first, given back in seq order; `more` says older ones remain.
    assert_eq!(
        seqs(store, &id, "ann", query(0, u64::MAX, 3, true)).await,
        (vec![10, 11, 12], true)
    );
    assert_eq!(
        seqs(store, &id, "ann", query(0, 9, 3, true)).await,
        (vec![7, 8, 9], true)
    );
    assert_eq!(
        seqs(store, &id, "ann", query(0, 3, 3, true)).await,
        (vec![1, 2, 3], false)
    );
    // Bo: 1 2 4 5 7 8 10 11. The newest 3 before 10.
    assert_eq!(
        seqs(store, &id, "bo", query(0, 9, 3, true)).await,
        (vec![5, 7, 8], true)
    );
    // A page never holds more than asked, nor more than the store's cap.
    assert_eq!(
        seqs(store, &id, "ann", query(0, u64::MAX, 0, false)).await,
        (vec![], false)
    );
    let page = store
        .log_lines(&id, "ann", query(0, u64::MAX, u32::MAX, false))
        .await
        .unwrap();
    assert!(page.lines.len() <= MAX_LINES_PAGE as usize);
    assert_eq!(page.lines.len(), 12);
}

async fn bad_lines_are_refused_and_nothing_is_written(db: Db) {
    let store = db.store();
    let id = table_with(store, 2).await;
    let append = |lines: Vec<NewLine>| {
        let id = id.clone();
        async move {
            store
                .append_with_lines(&id, 2, vec![entry("ann", 3)], None, None, Some(lines))
                .await
        }
    };
    assert_eq!(
        append(vec![line(3, "ann"), line(2, "ann")]).await,
        Err(StoreError::LineOutOfRange {
            seq: 2,
            first: 3,
            last: 3
        })
    );
    assert_eq!(
        append(vec![line(4, "ann")]).await,
        Err(StoreError::LineOutOfRange {
            seq: 4,
            first: 3,
            last: 3
        })
    );
    let big = NewLine {
        seq: 3,
        seat: "ann".into(),
        line: Value::String("x".repeat(MAX_LINE_BYTES)),
    };
    assert!(matches!(
        append(vec![big]).await,
        Err(StoreError::LineTooLarge { seq: 3, .. })
    ));
    assert_eq!(
        append(vec![line(3, "a\0b")]).await,
        Err(StoreError::NulInText { field: "seat" })
    );
    // A line given twice fails in the database: the entry is not written either.
    assert!(matches!(
        append(vec![line(3, "ann"), line(3, "ann")]).await,
        Err(StoreError::Database(_))
    ));
    let loaded = store.load_table(&id).await.unwrap().unwrap();
    assert_eq!(loaded.summary.seq, 2);
    assert_eq!(loaded.lines_through, 2);
    assert_eq!(
        seqs(store, &id, "ann", query(0, u64::MAX, 100, false)).await,
        (vec![1, 2], false)
    );
    // put_lines checks the same way.
    assert_eq!(
        store.put_lines(&id, 2, vec![line(3, "ann")]).await,
        Err(StoreError::LineOutOfRange {
            seq: 3,
            first: 1,
            last: 2
        })
    );
    assert_eq!(
        store.put_lines("no-such-table", 2, vec![]).await,
        Err(StoreError::NotFound)
    );
}

async fn a_stale_append_writes_no_line(db: Db) {
    let store = db.store();
    let id = table_with(store, 2).await;
    let stale = store
        .append_with_lines(
            &id,
            1,
            vec![entry("bo", 2)],
            None,
            None,
            Some(vec![line(2, "cy")]),
        )
        .await;
    assert_eq!(stale, Err(StoreError::Conflict { current: 2 }));
    assert_eq!(
        seqs(store, &id, "cy", query(0, u64::MAX, 100, false)).await,
        (vec![], false)
    );
}

async fn an_append_without_lines_leaves_a_gap_that_put_lines_fills(db: Db) {
    let store = db.store();
    let id = table_with(store, 2).await;
    // An append without lines (an older server): lines_through stays.
    store
        .append(&id, 2, vec![entry("ann", 3)], None)
        .await
        .unwrap();
    assert_eq!(lines_through(store, &id).await, 2);
    // A later append with lines does not hide the gap.
    store
        .append_with_lines(
            &id,
            3,
            vec![entry("ann", 4)],
            None,
            None,
            Some(lines_of(4, None)),
        )
        .await
        .unwrap();
    assert_eq!(lines_through(store, &id).await, 2);
    assert_eq!(
        seqs(store, &id, "ann", query(0, u64::MAX, 100, false)).await,
        (vec![1, 2, 4], false)
    );
    // The loader describes every entry after 2 again: stored lines are kept,
    // missing ones added, and the table is whole up to 4.
    let mut again = lines_of(3, Some("bo"));
    again.extend(lines_of(4, None));
    store.put_lines(&id, 4, again).await.unwrap();
    assert_eq!(lines_through(store, &id).await, 4);
    assert_eq!(
        seqs(store, &id, "ann", query(0, u64::MAX, 100, false)).await,
        (vec![1, 2, 3, 4], false)
    );
    assert_eq!(
        seqs(store, &id, "bo", query(0, u64::MAX, 100, false)).await,
        (vec![1, 2, 4], false)
    );
    // A put_lines through an older seq never moves lines_through back.
    store.put_lines(&id, 1, vec![]).await.unwrap();
    assert_eq!(lines_through(store, &id).await, 4);
    // An entry the log does not hold takes no line.
    assert!(store.put_lines(&id, 9, vec![line(9, "ann")]).await.is_err());
    assert_eq!(lines_through(store, &id).await, 4);
}

async fn a_reopened_store_has_its_lines_back(db: Db) {
    let id = table_with(db.store(), 4).await;
    db.store.close().await;
    let store = db.reopen.open().await;
    assert_eq!(
        seqs(&*store, &id, "bo", query(0, u64::MAX, 100, false)).await,
        (vec![1, 2, 4], false)
    );
    assert_eq!(lines_through(&*store, &id).await, 4);
}
