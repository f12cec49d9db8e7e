//! Issue 27, item 8: "The next encounter: the campaign page offers the
//! bundled tables of its book and the tables used before, with the
//! campaign's characters placed in them." `GET /api/campaigns/ID/encounters`
//! and `POST /api/campaigns/ID/tables` with `example` or `again`, in every
//! book, on SQLite and PostgreSQL.

use crate::common;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use common::{Campaign, Client, Db};

/// `examples/SYSTEM/NAME`.
fn example(system: &str, name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/{system}/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example file")
}

/// A sheet with its character's name (the first `name =` line) and its
/// `player` (when it has one) changed: a campaign's own character.
fn renamed(sheet: &str, name: &str, player: &str) -> String {
    let mut named = false;
    sheet
        .lines()
        .map(|l| {
            if !named && l.starts_with("name =") {
                named = true;
                format!("name = {name:?}")
            } else if l.starts_with("player =") {
                format!("player = {player:?}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One book: its id, the campaign's settings, the two example sheets the
/// campaign's characters are made from, the seats (Tiers seats a character
/// by its name), and the example's player characters that must be gone.
struct Book {
    system: &'static str,
    settings: Option<&'static str>,
    sheets: [&'static str; 2],
    seats: [&'static str; 2],
    gone: &'static [&'static str],
}

const BOOKS: [Book; 5] = [
    Book {
        system: "sour-grapes",
        settings: None,
        sheets: ["example-character.toml", "rook.toml"],
        seats: ["Lee", "Kim"],
        gone: &["Example Player", "Rook"],
    },
    Book {
        system: "scratch",
        settings: Some("campaign-rules.toml"),
        sheets: ["chokestar.toml", "flipfire.toml"],
        seats: ["Lee", "Kim"],
        gone: &["Chokestar", "Flipfire", "Zimzambamalam"],
    },
    Book {
        system: "tiers",
        settings: None,
        sheets: ["john.toml", "cristy.toml"],
        seats: ["Ivo", "Mara"],
        gone: &["John", "Cristy"],
    },
    Book {
        system: "bastards",
        settings: None,
        sheets: ["cynthia.toml", "kodos.toml"],
        seats: ["Lee", "Kim"],
        gone: &["Cynthia", "Kodos", "Carlton"],
    },
    Book {
        system: "sapio",
        settings: None,
        sheets: ["roof-runner.toml", "arcane-knight.toml"],
        seats: ["Lee", "Kim"],
        gone: &["Wren", "Brannoc", "Sable"],
    },
];

/// A campaign of `book` whose two players own Ivo and Mara.
async fn campaign(c: &Client, book: &Book) -> Campaign {
    let mut body = json!({"system": book.system, "name": "Next", "players": book.seats});
    if let Some(s) = book.settings {
        body["settings"] = Value::String(example(book.system, s));
    }
    let a = c
        .call(Method::POST, "/api/campaigns", None, Some(&body))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let camp = Campaign::from_created(&a.json);
    for ((seat, sheet), (name, file)) in book
        .seats
        .iter()
        .zip(book.sheets)
        .zip([("Ivo", "ivo.toml"), ("Mara", "mara.toml")])
    {
        let a = c
            .post(
                &format!("/api/campaigns/{}/characters", camp.id),
                &camp.token(seat),
                &json!({"sheet": renamed(&example(book.system, sheet), name, seat), "file": file, "imported": true}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{seat} {name}: {}", a.text);
    }
    camp
}

/// `POST /api/campaigns/ID/tables` as `seat`.
async fn open(c: &Client, camp: &Campaign, seat: &str, body: &Value) -> common::Answer {
    c.post(
        &format!("/api/campaigns/{}/tables", camp.id),
        &camp.token(seat),
        body,
    )
    .await
}

/// The table's view as the GM, as text.
async fn view(c: &Client, camp: &Campaign, created: &Value) -> String {
    let id = created["table"].as_str().expect("a table id");
    let a = c
        .get(&format!("/api/tables/{id}/view"), &camp.token("gm"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // The GM's legal commands are left out: `add` offers the book's bundled
    // sheets by name (issue 27), which are not at the table.
    let mut v = a.json.clone();
    if let Some(view) = v.get_mut("view").and_then(Value::as_object_mut) {
        view.remove("may");
        view.remove("legal");
    }
    v.to_string()
}

/// The table's `dice` and `dice_dialect` as its view reports them.
async fn settings(c: &Client, camp: &Campaign, created: &Value) -> (String, String) {
    let id = created["table"].as_str().expect("a table id");
    let a = c
        .get(&format!("/api/tables/{id}/view"), &camp.token("gm"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let text = |k: &str| a.json[k].as_str().unwrap_or_default().to_string();
    (text("dice"), text("dice_dialect"))
}

/// Every book: the encounters list the bundled tables; the GM opens the
/// bundled example with the campaign's characters placed (the example's
/// player characters gone, its NPCs kept); the table is then listed as an
/// earlier table and opens again; a player may list but not open (403);
/// unknown names are refused, naming them. The first table is opened with
/// `dice_dialect = "roll20"` and `dice = "table"` chosen, and opens again
/// with them.
async fn every_book_opens_the_next_encounter(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    for book in &BOOKS {
        let camp = campaign(&c, book).await;
        let url = format!("/api/campaigns/{}/encounters", camp.id);
        let a = c.get(&url, &camp.token(book.seats[0])).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let bundled = a.json["bundled"].as_array().expect("bundled");
        assert!(
            bundled.iter().any(|b| b["example"] == "table"),
            "{}: {}",
            book.system,
            a.text
        );
        assert_eq!(a.json["earlier"], json!([]));

        // A player cannot open a table.
        let a = open(&c, &camp, book.seats[0], &json!({"example": "table"})).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);

        // Issue 30, item 3: the dice settings chosen with the request.
        let a = open(
            &c,
            &camp,
            "gm",
            &json!({"example": "table", "seed": 1, "dice_dialect": "roll20", "dice": "table"}),
        )
        .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}: {}", book.system, a.text);
        let first = a.json.clone();
        assert_eq!(
            settings(&c, &camp, &first).await,
            ("table".into(), "roll20".into()),
            "{}",
            book.system
        );
        let seats: Vec<&str> = first["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .filter_map(|s| s["seat"].as_str())
            .collect();
        for s in book.seats {
            assert!(seats.contains(&s), "{}: {seats:?}", book.system);
        }
        let v = view(&c, &camp, &first).await;
        assert!(v.contains("\"Ivo\""), "{}: {v}", book.system);
        assert!(v.contains("\"Mara\""), "{}: {v}", book.system);
        for g in book.gone {
            assert!(
                !v.contains(&format!("\"{g}\"")),
                "{}: {g} in {v}",
                book.system
            );
        }

        // The table is offered again, and opens again.
        let a = c.get(&url, &camp.token("gm")).await;
        let earlier = a.json["earlier"].as_array().expect("earlier").clone();
        assert_eq!(earlier.len(), 1, "{}", a.text);
        assert_eq!(earlier[0]["table"], first["table"]);
        let a = open(
            &c,
            &camp,
            "gm",
            &json!({"again": first["table"], "seed": 2}),
        )
        .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}: {}", book.system, a.text);
        let v = view(&c, &camp, &a.json).await;
        assert!(v.contains("\"Ivo\"") && v.contains("\"Mara\""), "{v}");
        // Opened again, it keeps the settings it was opened with.
        assert_eq!(
            settings(&c, &camp, &a.json).await,
            ("table".into(), "roll20".into()),
            "{}",
            book.system
        );

        // Refusals name what is wrong; nothing opens.
        let a = open(&c, &camp, "gm", &json!({"example": "nowhere"})).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
        assert!(a.text.contains("nowhere"), "{}", a.text);
        let a = open(&c, &camp, "gm", &json!({"again": "0123"})).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
        let a = open(
            &c,
            &camp,
            "gm",
            &json!({"example": "table", "again": first["table"]}),
        )
        .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
        let a = c.get(&url, &camp.token("gm")).await;
        assert_eq!(a.json["earlier"].as_array().map(Vec::len), Some(2));
    }
    store.close().await;
}

story!(
    every_book_opens_the_next_encounter_from_a_bundled_or_earlier_table,
    super::every_book_opens_the_next_encounter
);
