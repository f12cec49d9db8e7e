//! Issue 28: the GM deletes a table, and tables nobody touched for a while expire.
//! Told to both backends (PostgreSQL when `TABULA_TEST_DATABASE_URL` is set); the
//! rows left behind are counted in the database itself.

use crate::common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::{Db, Reopen, seat};
use serde_json::json;
use sqlx::Connection;
use tabula_store::{
    LineQuery, NewCampaign, NewEntry, NewLine, NewTable, Role, Store, StoreError, TableSummary,
};

stories!(
    deleting_a_table_removes_every_row_of_it_and_nothing_of_another,
    a_campaign_table_may_be_deleted_until_its_encounter_ends,
    expiry_deletes_only_tables_untouched_since_the_cutoff,
);

/// The tables of the store that hold rows of a table, and the column naming it.
const CHILDREN: [(&str, &str); 5] = [
    ("tables", "id"),
    ("seats", "table_id"),
    ("entries", "table_id"),
    ("log_lines", "table_id"),
    ("snapshots", "table_id"),
];

/// How many rows of table `id` each of [`CHILDREN`] holds, read with a plain
/// connection to the same database.
async fn rows_of(reopen: &Reopen, id: &str) -> Vec<i64> {
    let mut counts = Vec::new();
    match reopen {
        Reopen::Sqlite { url } => {
            let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
            for (table, column) in CHILDREN {
                let n: i64 = sqlx::query_scalar(&format!(
                    "SELECT COUNT(*) FROM {table} WHERE {column} = ?1"
                ))
                .bind(id)
                .fetch_one(&mut c)
                .await
                .unwrap();
                counts.push(n);
            }
            c.close().await.unwrap();
        }
        Reopen::Postgres { url, schema } => {
            let mut c = sqlx::PgConnection::connect(url).await.unwrap();
            for (table, column) in CHILDREN {
                let n: i64 = sqlx::query_scalar(&format!(
                    "SELECT COUNT(*) FROM {schema}.{table} WHERE {column} = $1"
                ))
                .bind(id)
                .fetch_one(&mut c)
                .await
                .unwrap();
                counts.push(n);
            }
            c.close().await.unwrap();
        }
    }
    counts
}

fn table(name: &str, system: &str, campaign: Option<&str>) -> NewTable {
    NewTable {
        system: system.into(),
        name: name.into(),
        initial_state: json!({"round": 0}),
        roller: Some(json!({"word": 0})),
        seats: vec![
            seat("gm", Role::Gm, &format!("{name}-gm")),
            seat("ann", Role::Player, &format!("{name}-ann")),
        ],
        campaign: campaign.map(str::to_string),
    }
}

/// `n` one-entry commands, each with both seats' lines, the last with a snapshot.
async fn play(store: &dyn Store, id: &str, n: u64) {
    for seq in 1..=n {
        let lines = ["gm", "ann"]
            .into_iter()
            .map(|s| NewLine {
                seq,
                seat: s.into(),
                line: json!({"seq": seq, "seat": s}),
            })
            .collect();
        let entry = NewEntry {
            seat: "gm".into(),
            entry: json!({"n": seq}),
        };
        let snapshot = (seq == n).then(|| json!({"round": seq}));
        let got = store
            .append_with_lines(
                id,
                seq - 1,
                vec![entry],
                Some(json!({"word": seq})),
                snapshot,
                Some(lines),
            )
            .await
            .unwrap();
        assert_eq!(got, seq);
    }
}

fn all_lines() -> LineQuery {
    LineQuery {
        after: 0,
        through: u64::MAX,
        limit: 1000,
        newest: false,
    }
}

async fn summary(store: &dyn Store, id: &str) -> TableSummary {
    store.load_table(id).await.unwrap().unwrap().summary
}

fn now_ms() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// Waits (a few milliseconds, never days) until the clock is past `ms`, and
/// returns the time then: a cutoff every table touched so far is before.
async fn clock_past(ms: i64) -> i64 {
    loop {
        let now = now_ms();
        if now > ms {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

async fn deleting_a_table_removes_every_row_of_it_and_nothing_of_another(db: Db) {
    let store = db.store();
    let gone = store
        .create_table(table("gone", "sour-grapes", None))
        .await
        .unwrap();
    let kept = store
        .create_table(table("kept", "sour-grapes", None))
        .await
        .unwrap();
    play(store, &gone, 3).await;
    play(store, &kept, 2).await;
    // tables, seats, entries, log lines, snapshots.
    assert_eq!(rows_of(&db.reopen, &gone).await, vec![1, 2, 3, 6, 1]);
    assert_eq!(rows_of(&db.reopen, &kept).await, vec![1, 2, 2, 4, 1]);
    let kept_before = store.load_table(&kept).await.unwrap().unwrap();

    store.delete_table(&gone).await.unwrap();

    assert_eq!(rows_of(&db.reopen, &gone).await, vec![0, 0, 0, 0, 0]);
    assert_eq!(rows_of(&db.reopen, &kept).await, vec![1, 2, 2, 4, 1]);
    assert_eq!(store.load_table(&gone).await.unwrap(), None);
    assert_eq!(store.seat_for_token(&gone, "gone-gm").await.unwrap(), None);
    assert!(
        store
            .log_lines(&gone, "gm", all_lines())
            .await
            .unwrap()
            .lines
            .is_empty()
    );
    assert_eq!(store.seats(&gone).await, Err(StoreError::NotFound));
    assert_eq!(store.count_tables().await.unwrap(), 1);
    let ids: Vec<String> = store
        .list_tables()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(ids, vec![kept.clone()]);
    // Once gone, always gone: again, or an append, finds nothing.
    assert_eq!(store.delete_table(&gone).await, Err(StoreError::NotFound));
    assert_eq!(
        store.delete_table("not-a-table").await,
        Err(StoreError::NotFound)
    );
    let entry = NewEntry {
        seat: "gm".into(),
        entry: json!({"n": 4}),
    };
    assert_eq!(
        store.append(&gone, 3, vec![entry], None).await,
        Err(StoreError::NotFound)
    );
    // The other table is as it was, and a reopened store agrees.
    assert_eq!(store.load_table(&kept).await.unwrap().unwrap(), kept_before);
    db.store.close().await;
    let reopened = db.reopen.open().await;
    assert_eq!(reopened.load_table(&gone).await.unwrap(), None);
    assert_eq!(
        reopened.load_table(&kept).await.unwrap().unwrap(),
        kept_before
    );
    reopened.close().await;
}

async fn a_campaign_table_may_be_deleted_until_its_encounter_ends(db: Db) {
    let store = db.store();
    let campaign = store
        .create_campaign(NewCampaign {
            system: "tiers".into(),
            name: "Iron Coast".into(),
            seats: vec![
                seat("gm", Role::Gm, "c-gm"),
                seat("ann", Role::Player, "c-ann"),
            ],
            settings: String::new(),
        })
        .await
        .unwrap();
    let open = store
        .create_table(table("open", "tiers", Some(&campaign)))
        .await
        .unwrap();
    let ended = store
        .create_table(table("ended", "tiers", Some(&campaign)))
        .await
        .unwrap();
    let alone = store
        .create_table(table("alone", "tiers", None))
        .await
        .unwrap();
    play(store, &open, 2).await;
    play(store, &ended, 2).await;
    assert!(store.end_table(&ended, Vec::new()).await.unwrap());
    assert!(store.end_table(&alone, Vec::new()).await.unwrap());

    // An ended encounter is the campaign's history: refused, nothing deleted.
    assert_eq!(
        store.delete_table(&ended).await,
        Err(StoreError::EndedCampaignTable)
    );
    assert_eq!(rows_of(&db.reopen, &ended).await, vec![1, 2, 2, 4, 1]);
    // An open one goes; the campaign stays, listing only the ended one.
    store.delete_table(&open).await.unwrap();
    assert_eq!(rows_of(&db.reopen, &open).await, vec![0, 0, 0, 0, 0]);
    let loaded = store.load_campaign(&campaign).await.unwrap().unwrap();
    let tables: Vec<&str> = loaded.tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(tables, vec![ended.as_str()]);
    assert_eq!(loaded.summary.tables, 1);
    assert_eq!(loaded.seats.len(), 2);
    // A table of no campaign goes, ended or not.
    store.delete_table(&alone).await.unwrap();
    assert_eq!(store.load_table(&alone).await.unwrap(), None);
}

async fn expiry_deletes_only_tables_untouched_since_the_cutoff(db: Db) {
    let store = db.store();
    let campaign = store
        .create_campaign(NewCampaign {
            system: "sour-grapes".into(),
            name: "Long Haul".into(),
            seats: vec![seat("gm", Role::Gm, "c-gm")],
            settings: String::new(),
        })
        .await
        .unwrap();
    let old = store
        .create_table(table("old", "sour-grapes", None))
        .await
        .unwrap();
    play(store, &old, 2).await;
    let played = store
        .create_table(table("played", "sour-grapes", None))
        .await
        .unwrap();
    let paused = store
        .create_table(table("paused", "sour-grapes", Some(&campaign)))
        .await
        .unwrap();
    let history = store
        .create_table(table("history", "sour-grapes", Some(&campaign)))
        .await
        .unwrap();
    assert!(store.end_table(&history, Vec::new()).await.unwrap());
    // A new table was touched when it was created.
    let s = summary(store, &played).await;
    assert_eq!(s.touched_ms, s.created_ms);
    let mut last = 0;
    for id in [&old, &played, &paused, &history] {
        last = last.max(summary(store, id).await.touched_ms);
    }
    let cutoff = clock_past(last).await;
    // After the cutoff: a new table, and a command at an older one.
    let fresh = store
        .create_table(table("fresh", "sour-grapes", None))
        .await
        .unwrap();
    play(store, &played, 1).await;
    let p = summary(store, &played).await;
    assert!(p.created_ms < cutoff && p.touched_ms >= cutoff, "{p:?}");
    assert!(summary(store, &fresh).await.touched_ms >= cutoff);

    assert_eq!(store.expire_tables(0).await.unwrap(), Vec::<String>::new());
    assert_eq!(
        store.expire_tables(cutoff).await.unwrap(),
        vec![old.clone()]
    );
    assert_eq!(rows_of(&db.reopen, &old).await, vec![0, 0, 0, 0, 0]);
    for id in [&played, &paused, &history, &fresh] {
        assert!(store.load_table(id).await.unwrap().is_some(), "{id} stays");
    }
    // Nothing left to expire at that cutoff; campaign tables never expire.
    assert_eq!(
        store.expire_tables(cutoff).await.unwrap(),
        Vec::<String>::new()
    );
    let later = clock_past(now_ms()).await;
    let mut expired = store.expire_tables(later).await.unwrap();
    expired.sort();
    let mut want = vec![played.clone(), fresh.clone()];
    want.sort();
    assert_eq!(expired, want);
    let left: Vec<String> = store
        .list_tables()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(left, vec![history, paused]);
}
