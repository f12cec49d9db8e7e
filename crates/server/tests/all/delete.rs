//! Issue 28: the GM deletes a table (`DELETE /api/tables/ID`), and tables
//! nobody touched for the days set expire. Either way the table is gone from
//! the store and from memory, its sockets are told and closed, and a restart
//! does not bring it back. On both backends.

use crate::common;

use axum::http::{Method, StatusCode};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tabula_server::deletion::{DELETED_MESSAGE, EXPIRED_MESSAGE, now_ms};
use tabula_server::{AppState, Settings};
use tokio_tungstenite::tungstenite::Message;

use common::{Client, Db, Socket, Table, WAIT, connect, next, script, serve, split_line};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Play the first `n` lines of the example's script; the table's seq after.
async fn play(c: &Client, t: &Table, n: usize) -> u64 {
    let mut seq = 0;
    for line in script("bastards", "encounter.script").iter().take(n) {
        let (seat, text) = split_line(line);
        let seat = match seat {
            Some(s) => s.to_string(),
            None => c.get(&t.url("status"), &t.gm()).await.json["turn"]
                .as_str()
                .unwrap()
                .to_string(),
        };
        let a = c.command(t, &t.token(&seat), text).await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text);
        seq = a.json["seq"].as_u64().unwrap();
    }
    seq
}

/// The socket's messages up to its `deleted` one (presence notes skipped),
/// then its close code.
async fn told_deleted(ws: &mut Socket) -> (Value, Option<u16>) {
    let told = loop {
        let m = next(ws).await.expect("told before the close");
        if m["type"] != "presence" && m["type"] != "update" {
            break m;
        }
    };
    let code = loop {
        match tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            None | Some(Err(_)) => break None,
        }
    };
    (told, code)
}

async fn delete(c: &Client, t: &Table, token: &str) -> common::Answer {
    let uri = format!("/api/tables/{}", t.id);
    c.call(Method::DELETE, &uri, Some(token), None).await
}

async fn the_gm_deletes_a_table(db: Db) {
    let store = db.open().await;
    let state = AppState::new(store.clone());
    let base = serve(state.clone()).await;
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    let other = c
        .create(json!({"system": "bastards", "example": "table", "seed": 2}))
        .await;
    let seq = play(&c, &t, 3).await;
    assert!(seq > 0);
    let player = t.token(&t.players()[0]);
    let mut follower = connect(&base, &t, &player, true, None).await;
    assert_eq!(next(&mut follower).await.unwrap()["type"], "hello");

    // A player may not: 403, and nothing changes.
    let a = delete(&c, &t, &player).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    assert_eq!(a.json["error"], "forbidden");
    assert!(a.json["message"].as_str().unwrap().contains("only the GM"));
    let view = c.get(&t.url("view"), &t.gm()).await;
    assert_eq!(view.status, StatusCode::OK);
    assert_eq!(view.json["seq"], seq);
    assert!(store.load_table(&t.id).await.unwrap().is_some());

    // The GM deletes it: 204, no body.
    let a = delete(&c, &t, &t.gm()).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT, "{}", a.text);
    assert!(a.text.is_empty());
    // The open socket is told, then closed (1000).
    let (told, code) = told_deleted(&mut follower).await;
    assert_eq!(told, json!({"type": "deleted", "message": DELETED_MESSAGE}));
    assert_eq!(code, Some(1000));
    // Gone for everyone: every route answers as for an unknown table (401,
    // the one body that never tells whether a table exists).
    for token in [t.gm(), player.clone()] {
        let a = c.get(&t.url("view"), &token).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
        assert_eq!(a.json["error"], "unauthorized");
    }
    assert_eq!(
        delete(&c, &t, &t.gm()).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(store.load_table(&t.id).await.unwrap(), None);
    assert!(!state.held_tables().contains(&t.id), "dropped from memory");
    // The other table is untouched.
    assert_eq!(
        c.get(&other.url("view"), &other.gm()).await.status,
        StatusCode::OK
    );

    // A restart does not bring it back.
    store.close().await;
    let store = db.open().await;
    let c = Client::new(store.clone());
    assert_eq!(store.load_table(&t.id).await.unwrap(), None);
    assert_eq!(
        c.get(&t.url("view"), &t.gm()).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        c.get(&other.url("view"), &other.gm()).await.status,
        StatusCode::OK
    );
    store.close().await;
}

async fn untouched_tables_expire(db: Db) {
    let store = db.open().await;
    let state = AppState::new(store.clone());
    assert_eq!(state.settings().expire_after_days, Some(90));
    let base = serve(state.clone()).await;
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 3}))
        .await;
    play(&c, &t, 2).await;
    let mut follower = connect(&base, &t, &t.gm(), false, None).await;
    assert_eq!(next(&mut follower).await.unwrap()["type"], "hello");

    // Touched now: nothing expires now, nor 89 days on.
    assert!(state.expire_tables(now_ms()).await.unwrap().is_empty());
    assert!(
        state
            .expire_tables(now_ms() + 89 * DAY_MS)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(c.get(&t.url("view"), &t.gm()).await.status, StatusCode::OK);
    // With expiry off, not even a year on.
    let never = AppState::with_settings(
        store.clone(),
        Settings {
            expire_after_days: None,
            ..Settings::default()
        },
    );
    assert!(
        never
            .expire_tables(now_ms() + 365 * DAY_MS)
            .await
            .unwrap()
            .is_empty()
    );
    // 91 days on, it expires: gone from the store and memory, its socket told.
    let expired = state.expire_tables(now_ms() + 91 * DAY_MS).await.unwrap();
    assert_eq!(expired, vec![t.id.clone()]);
    let (told, code) = told_deleted(&mut follower).await;
    assert_eq!(told, json!({"type": "deleted", "message": EXPIRED_MESSAGE}));
    assert_eq!(code, Some(1000));
    assert_eq!(store.load_table(&t.id).await.unwrap(), None);
    assert!(!state.held_tables().contains(&t.id));
    assert_eq!(
        c.get(&t.url("view"), &t.gm()).await.status,
        StatusCode::UNAUTHORIZED
    );
    store.close().await;
}

story!(the_gm_deletes_a_table, super::the_gm_deletes_a_table);
story!(untouched_tables_expire, super::untouched_tables_expire);
