//! Issue 27, item 8: what a campaign table was opened from (its table file and
//! uploaded sheets) is kept with the table, so the campaign can open it again.
//! Told to both backends (PostgreSQL when `TABULA_TEST_DATABASE_URL` is set).

use crate::common;

use common::{Db, seat};
use serde_json::json;
use tabula_store::{MAX_STATE_BYTES, NewTable, Role, StoreError};

stories!(
    a_source_is_kept_replaced_and_read_back,
    bad_sources_are_refused_and_nothing_is_written,
);

fn table() -> NewTable {
    NewTable {
        system: "tiers".into(),
        name: "Goblins".into(),
        initial_state: json!({"round": 0}),
        roller: None,
        seats: vec![seat("gm", Role::Gm, "hash-gm")],
        campaign: None,
    }
}

async fn a_source_is_kept_replaced_and_read_back(db: Db) {
    let store = db.store();
    let id = store.create_table(table()).await.unwrap();
    assert_eq!(store.table_source(&id).await.unwrap(), None);
    let first = json!({"table": "title = \"A\"", "files": {"npc.toml": "name = \"Npc\""}});
    store.set_table_source(&id, &first).await.unwrap();
    assert_eq!(store.table_source(&id).await.unwrap(), Some(first));
    let second = json!({"table": "title = \"B\"", "files": {}});
    store.set_table_source(&id, &second).await.unwrap();
    assert_eq!(store.table_source(&id).await.unwrap(), Some(second.clone()));
    assert_eq!(store.table_source("no-such-table").await.unwrap(), None);
    db.store.close().await;
    let store = db.reopen.open().await;
    assert_eq!(store.table_source(&id).await.unwrap(), Some(second));
}

async fn bad_sources_are_refused_and_nothing_is_written(db: Db) {
    let store = db.store();
    let id = store.create_table(table()).await.unwrap();
    assert!(matches!(
        store.set_table_source("no-such-table", &json!({})).await,
        Err(StoreError::NotFound)
    ));
    let big = json!({"table": "x".repeat(MAX_STATE_BYTES)});
    assert!(matches!(
        store.set_table_source(&id, &big).await,
        Err(StoreError::StateTooLarge { .. })
    ));
    assert_eq!(store.table_source(&id).await.unwrap(), None);
}
