//! Issue 28: many tables' appends at once. On SQLite they are written by one
//! thread, several to a transaction; on PostgreSQL each in its own. Either
//! way every append is answered as if it were alone: of the writers racing
//! for one seq exactly one wins, the others hear the seq that won, and every
//! table's log is whole and in order.

use std::sync::Arc;

use crate::common;

use common::Db;
use serde_json::json;
use tabula_store::{NewEntry, NewLine, NewTable, Store, StoreError};

stories!(racing_writers_on_many_tables_each_get_a_true_answer);

/// Tables, writers racing per table, appends each writer tries.
const TABLES: usize = 24;
const WRITERS: usize = 3;
const TRIES: u64 = 12;

async fn racing_writers_on_many_tables_each_get_a_true_answer(db: Db) {
    let store: Arc<dyn Store> = db.store.clone();
    let mut ids = Vec::new();
    for i in 0..TABLES {
        let id = store
            .create_table(NewTable {
                system: "bastards".into(),
                name: format!("race {i}"),
                initial_state: json!({}),
                roller: Some(json!({"word": 0})),
                seats: vec![],
                campaign: None,
            })
            .await
            .unwrap();
        ids.push(id.to_string());
    }
    let mut tasks = Vec::new();
    for id in &ids {
        for writer in 0..WRITERS {
            let store = store.clone();
            let id = id.clone();
            tasks.push(tokio::spawn(async move {
                // Each writer appends `rows` rows at the seq it believes is
                // current, learning the current one from each conflict.
                let rows = 1 + writer as u64;
                let (mut at, mut won) = (0u64, Vec::new());
                for _ in 0..TRIES {
                    let entries = (0..rows)
                        .map(|i| NewEntry {
                            seat: format!("w{writer}"),
                            entry: json!({ "writer": writer, "row": i }),
                        })
                        .collect();
                    let lines = (0..rows)
                        .map(|i| NewLine {
                            seq: at + 1 + i,
                            seat: "gm".into(),
                            line: json!({ "writer": writer }),
                        })
                        .collect();
                    match store
                        .append_with_lines(
                            &id,
                            at,
                            entries,
                            Some(json!({ "word": at })),
                            None,
                            Some(lines),
                        )
                        .await
                    {
                        Ok(seq) => {
                            assert_eq!(seq, at + rows, "the seq after the append");
                            won.push((at + 1, rows));
                            at = seq;
                        }
                        Err(StoreError::Conflict { current }) => {
                            assert!(current > at, "a conflict names a seq past {at}: {current}");
                            at = current;
                        }
                        Err(e) => panic!("an append failed: {e}"),
                    }
                }
                (id, writer, won)
            }));
        }
    }
    let mut claimed: std::collections::HashMap<String, Vec<(u64, u64, usize)>> =
        std::collections::HashMap::new();
    for task in tasks {
        let (id, writer, won) = task.await.unwrap();
        for (first, rows) in won {
            claimed
                .entry(id.clone())
                .or_default()
                .push((first, rows, writer));
        }
    }
    for id in &ids {
        let mut runs = claimed.remove(id).unwrap_or_default();
        runs.sort_unstable();
        let loaded = store.load_table(id).await.unwrap().unwrap();
        // The winners' runs tile the log from 1, and each row is its writer's.
        let mut next = 1;
        for &(first, rows, writer) in &runs {
            assert_eq!(first, next, "table {id}: runs {runs:?}");
            for seq in first..first + rows {
                let e = &loaded.entries[(seq - 1) as usize];
                assert_eq!(e.seq, seq);
                assert_eq!(e.seat, format!("w{writer}"));
            }
            next = first + rows;
        }
        assert_eq!(
            loaded.entries.len() as u64,
            next - 1,
            "table {id}: no row but the winners'"
        );
        assert_eq!(loaded.lines_through, next - 1, "every row's line is kept");
        assert!(!runs.is_empty());
    }
}
