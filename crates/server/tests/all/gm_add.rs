//! Issue 27, item 6: the GM adds a participant "from an uploaded sheet".
//! `POST /commands` with `{"text": "add FILE.toml as NAME", "sheets":
//! {"FILE.toml": TEXT}}` in every book: the newcomer joins with the sheet's
//! character, a player may not, a file not sent or a broken sheet is refused
//! naming the file and changes nothing, more than `MAX_COMMAND_SHEETS` files
//! is a 400 naming `sheets`, and a restart (replay of the journal, no file)
//! keeps the newcomer.

use crate::common;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tabula_engine::SystemId;
use tabula_server::{AppState, MAX_COMMAND_SHEETS};

use common::{Client, Db, Table};

/// The opening lines that bring each book's table to a moment where the GM
/// may `add` (the browser test's `gm_openings`).
fn openings(system: &str) -> &'static [&'static str] {
    match system {
        "sour-grapes" => &["event"],
        "scratch" => &["initiative"],
        "tiers" => &["fight", "end-phase"],
        "sapio" => &["check Wren 3"],
        "bastards" => &["begin"],
        _ => &[],
    }
}

/// The example sheet each book uploads, and its text.
fn upload(system: &str) -> (&'static str, String) {
    let file = match system {
        "sour-grapes" => "rook.toml",
        "scratch" => "thug.toml",
        "tiers" => "cristy.toml",
        "bastards" => "kodos.toml",
        _ => "enforcer.toml",
    };
    let text = std::fs::read_to_string(format!(
        "{}/../../examples/{system}/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example sheet");
    (file, text)
}

/// The names on the GM's sheets.
async fn names(c: &Client, t: &Table) -> Vec<String> {
    let v = c.get(&t.url("view"), &t.gm()).await;
    assert_eq!(v.status, StatusCode::OK, "{}", v.text);
    v.json["sheets"]["characters"]
        .as_array()
        .expect("sheets")
        .iter()
        .filter_map(|c| c["name"].as_str().map(String::from))
        .collect()
}

async fn post(c: &Client, t: &Table, token: &str, body: Value) -> common::Answer {
    c.post(&t.url("commands"), token, &body).await
}

#[tokio::test]
async fn every_book_adds_a_participant_from_an_uploaded_sheet() {
    let db = Db::sqlite();
    let state = AppState::new(db.open().await);
    let c = Client::with_state(state);
    let mut joined = Vec::new();
    for id in SystemId::ALL {
        let system = id.id();
        let t: Table = c
            .create(json!({"system": system, "example": "table", "seed": 3}))
            .await;
        for line in openings(system) {
            let a = c.command(&t, &t.gm(), line).await;
            assert_eq!(a.status, StatusCode::OK, "{system} {line}: {}", a.text);
        }
        let (file, text) = upload(system);
        let at_first = names(&c, &t).await;
        let seq = |a: &common::Answer| a.json["seq"].as_u64();
        let now = c.get(&t.url("view"), &t.gm()).await.json["seq"].as_u64();

        // A file the line names but the request did not send.
        let a = post(
            &c,
            &t,
            &t.gm(),
            json!({"text": format!("add {file} as Visitor")}),
        )
        .await;
        assert_ne!(a.status, StatusCode::OK, "{system}: {}", a.text);
        assert!(
            a.text.contains(file),
            "{system}: the refusal names the file: {}",
            a.text
        );
        // A broken sheet: refused, naming the file.
        let broken = json!({"text": "add broken.toml as Visitor",
                            "sheets": {"broken.toml": "name = \"Visitor\"\nthis is not toml ="}});
        let a = post(&c, &t, &t.gm(), broken).await;
        assert_ne!(a.status, StatusCode::OK, "{system}: {}", a.text);
        assert!(a.text.contains("broken.toml"), "{system}: {}", a.text);
        // Too many files.
        let many: serde_json::Map<String, Value> = (0..=MAX_COMMAND_SHEETS)
            .map(|i| (format!("s{i}.toml"), json!(text.clone())))
            .collect();
        let a = post(
            &c,
            &t,
            &t.gm(),
            json!({"text": format!("add s0.toml as Visitor"), "sheets": many}),
        )
        .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{system}: {}", a.text);
        assert!(a.text.contains("sheets"), "{system}: {}", a.text);
        // A player may not.
        let player = t.token(&t.players()[0]);
        let body = json!({"text": format!("add {file} as Visitor"), "sheets": {file: text}});
        let a = post(&c, &t, &player, body.clone()).await;
        assert_ne!(
            a.status,
            StatusCode::OK,
            "{system}: a player adds: {}",
            a.text
        );
        // Nothing changed so far.
        assert_eq!(names(&c, &t).await, at_first, "{system}");
        assert_eq!(
            c.get(&t.url("view"), &t.gm()).await.json["seq"].as_u64(),
            now,
            "{system}: no row was written by the refusals"
        );

        // The GM's, with the file: the newcomer joins.
        let a = post(&c, &t, &t.gm(), body).await;
        assert_eq!(a.status, StatusCode::OK, "{system}: {}", a.text);
        assert!(seq(&a) > now, "{system}");
        let after = names(&c, &t).await;
        assert_eq!(after.len(), at_first.len() + 1, "{system}: {after:?}");
        assert!(after.iter().any(|n| n == "Visitor"), "{system}: {after:?}");
        joined.push((system, t, after));
    }
    // A restart replays each journal, which holds the whole character.
    drop(c);
    let c = Client::with_state(AppState::new(db.open().await));
    for (system, t, after) in joined {
        assert_eq!(names(&c, &t).await, after, "{system}: after a restart");
    }
}
