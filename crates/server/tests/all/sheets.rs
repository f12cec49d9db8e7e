//! Issue 26, items 2 and 3: the page draws every book from what the engine
//! says. `GET /api/systems` gives each book's facts (title, end commands, log
//! symbols, campaign settings), and `GET /view` carries the seat's `sheets`,
//! the book's one description of its character sheets, with the seat's own
//! characters marked `mine` and nothing of another seat's hand.

use crate::common;

use axum::http::StatusCode;
use serde_json::{Value, json};

use common::{Client, Db, Table};
use tabula_engine::SystemId;

/// Every string inside `v`, for "does this JSON hold that text".
fn texts(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        Value::Object(o) => o.values().for_each(|x| texts(x, out)),
        _ => {}
    }
}

/// The sheet called `name` in a view answer's `sheets`.
fn sheet<'a>(view: &'a Value, name: &str) -> &'a Value {
    view["sheets"]["characters"]
        .as_array()
        .expect("the sheets' characters")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no sheet for {name} in {}", view["sheets"]))
}

#[tokio::test]
async fn systems_lists_every_book_with_its_facts() {
    let db = Db::sqlite();
    let c = Client::new(db.open().await);
    let a = c.get("/api/systems", "").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let systems = a.json["systems"].as_array().expect("systems");
    assert_eq!(systems.len(), SystemId::ALL.len());
    for (s, id) in systems.iter().zip(SystemId::ALL) {
        assert_eq!(s["id"], id.id());
        assert_eq!(s["title"], id.title());
        assert_eq!(s["seed"], id.seed());
    }
    let by = |id: &str| systems.iter().find(|s| s["id"] == id).expect("the book");
    assert_eq!(by("bastards")["end_commands"], json!(["finish"]));
    assert_eq!(by("bastards")["log_symbols"], "cards");
    assert_eq!(by("sapio")["log_symbols"], "spiral-dice");
    assert_eq!(by("tiers")["end_commands"], json!(["end-combat", "close"]));
    assert_eq!(
        by("tiers")["title"],
        "Tiers",
        "one title for Tiers everywhere"
    );
    // R-SCR-9: only Scratch RPS takes a campaign's settings.
    assert!(by("scratch")["campaign_settings"].is_string());
    assert!(by("bastards")["campaign_settings"].is_null());
}

/// Every book's bundled table: each player's view carries sheets, its own
/// characters are `mine`, and every other seat's view of them leaves out the
/// cards of its hand.
#[tokio::test]
async fn every_book_sends_each_seat_its_sheets() {
    // The database (and its directory) lives as long as the test.
    let db = Db::sqlite();
    let c = Client::new(db.open().await);
    for id in SystemId::ALL {
        let t: Table = c
            .create(json!({"system": id.id(), "example": "table", "seed": 1}))
            .await;
        let gm = c.get(&t.url("view"), &t.gm()).await;
        assert_eq!(gm.status, StatusCode::OK, "{id}: {}", gm.text);
        let all = gm.json["sheets"]["characters"]
            .as_array()
            .unwrap_or_else(|| panic!("{id}: the GM's sheets: {}", gm.json["sheets"]));
        assert!(!all.is_empty(), "{id}: the GM sees every character's sheet");
        for p in t.players() {
            let v = c.get(&t.url("view"), &t.token(&p)).await;
            assert_eq!(v.status, StatusCode::OK, "{id} {p}: {}", v.text);
            let chars = v.json["sheets"]["characters"].as_array().expect("sheets");
            assert_eq!(chars.len(), all.len(), "{id} {p}: every character's sheet");
            let mine: Vec<&Value> = chars.iter().filter(|c| c["mine"] == true).collect();
            assert!(!mine.is_empty(), "{id}: {p} plays a character");
            for m in &mine {
                assert_eq!(
                    m["controller"]["player"].as_str().map(str::to_lowercase),
                    Some(p.to_lowercase()),
                    "{id}: {p}'s own sheet names {p}"
                );
                assert!(
                    !m["sections"].as_array().expect("sections").is_empty(),
                    "{id}: {p}'s sheet holds sections"
                );
            }
            // Another seat's hand: no faces, only a count.
            for other in chars.iter().filter(|c| c["mine"] != true) {
                let mut cards = Vec::new();
                for s in other["sections"].as_array().expect("sections") {
                    for i in s["items"].as_array().expect("items") {
                        if i["kind"] == "cards"
                            && i["label"]
                                .as_str()
                                .is_some_and(|l| l.to_lowercase().contains("hand"))
                        {
                            cards.extend(i["cards"].as_array().cloned().unwrap_or_default());
                        }
                    }
                }
                assert!(
                    cards.is_empty(),
                    "{id}: {p} sees {}'s hand: {cards:?}",
                    other["name"]
                );
            }
            let _ = sheet(&v.json, mine[0]["name"].as_str().expect("a name"));
            let mut words = Vec::new();
            texts(&v.json["sheets"], &mut words);
            assert!(
                words.iter().any(|w| !w.is_empty()),
                "{id}: the sheets say something"
            );
        }
    }
}
