//! R-SCR-9 on the server: a Scratch campaign carries its setting's rules
//! (`settings` when it is made); the book's own characters are imported,
//! advanced, seated at its tables and written back under them; the builder
//! takes them; on SQLite and PostgreSQL.

use crate::common;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use common::{Client, Db, Table};

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/scratch/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example file")
}

/// Room for Breakhelm X-19 (14 levels, 6 toughness) and Zimzambamalam (8
/// shooting).
const THE_BOOKS: &str = "[rules]\ncp = 14\nmax_level = 8\n";

const TABLE: &str = "[encounter]\nterrain = [\"level-ground\"]\n\n[[groups]]\nseat = \"gm\"\nside = \"outlaws\"\ncharacters = [\"breakhelm-x-19.toml\"]\n\n[[groups]]\nseat = \"alice\"\nside = \"hunters\"\ncharacters = [\"zimzambamalam.toml\"]\n";

async fn create(c: &Client, body: Value) -> common::Answer {
    c.call(Method::POST, "/api/campaigns", None, Some(&body))
        .await
}

fn token(created: &Value, seat: &str) -> String {
    created["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == seat)
        .and_then(|s| s["token"].as_str())
        .expect("a token")
        .to_string()
}

async fn r_scr_9_a_campaign_carries_its_settings_rules(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    // Settings the book does not take are refused, and make no campaign.
    for (system, settings) in [("scratch", "[rules]\ncp = 0\n"), ("tiers", THE_BOOKS)] {
        let a = create(
            &c,
            json!({"system": system, "name": "Broken", "players": [], "settings": settings}),
        )
        .await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
        assert_eq!(a.json["error"], "bad-settings", "{}", a.text);
    }
    assert!(store.list_campaigns().await.unwrap().is_empty());

    // Under the book's rules Breakhelm X-19 is refused.
    let plain = create(
        &c,
        json!({"system": "scratch", "name": "Average People", "players": []}),
    )
    .await;
    assert_eq!(plain.status, StatusCode::CREATED, "{}", plain.text);
    let a = c
        .post(
            &format!("/api/campaigns/{}/characters", plain.json["campaign"].as_str().unwrap()),
            &token(&plain.json, "gm"),
            &json!({"sheet": example("breakhelm-x-19.toml"), "file": "breakhelm-x-19.toml", "imported": true}),
        )
        .await;
    assert_eq!(a.json["error"], "bad-sheet", "{}", a.text);

    // A campaign set to room for the book's characters takes them.
    let made = create(
        &c,
        json!({"system": "scratch", "name": "Outlaws", "players": ["alice"], "settings": THE_BOOKS}),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let id = made.json["campaign"].as_str().expect("id").to_string();
    let gm = token(&made.json, "gm");
    let shown = c.get(&format!("/api/campaigns/{id}"), &gm).await;
    assert!(
        shown.json["settings"]
            .as_str()
            .unwrap_or_default()
            .contains("max_level = 8"),
        "{}",
        shown.text
    );
    for (file, owner) in [
        ("breakhelm-x-19.toml", "gm"),
        ("zimzambamalam.toml", "alice"),
    ] {
        let a = c
            .post(
                &format!("/api/campaigns/{id}/characters"),
                &gm,
                &json!({"sheet": example(file), "file": file, "owner": owner, "imported": true}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{file}: {}", a.text);
    }
    // Advancement within the setting.
    let zim = shown_character(&c, &id, &gm, "Zimzambamalam").await;
    let a = c
        .post(
            &format!("/api/campaigns/{id}/characters/{zim}/advance"),
            &gm,
            &json!({"command": "award-cp 2"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);

    // A table of the campaign uses its setting; its own other [rules] are refused.
    let a = c
        .post(
            &format!("/api/campaigns/{id}/tables"),
            &gm,
            &json!({"table": format!("[rules]\ncp = 20\n{TABLE}"), "seed": 1}),
        )
        .await;
    assert_eq!(a.json["error"], "bad-table", "{}", a.text);
    assert!(a.text.contains("R-SCR-9"), "{}", a.text);
    let a = c
        .post(
            &format!("/api/campaigns/{id}/tables"),
            &gm,
            &json!({"table": TABLE, "seed": 1}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let t = Table::from_created(&a.json);
    // Ending it writes the sheets back, checked under the setting.
    let a = c.call(Method::POST, &t.url("end"), Some(&gm), None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);

    // The builder takes the campaign's settings.
    let change = |settings: &str| {
        json!({
            "draft": {},
            "changes": [{"set": {"key": "abilities.shooting", "value": 6}}],
            "settings": settings,
        })
    };
    let a = c
        .call(
            Method::POST,
            "/api/systems/scratch/builder",
            None,
            Some(&change("")),
        )
        .await;
    assert!(!a.json["refusal"].is_null(), "{}", a.text);
    let a = c
        .call(
            Method::POST,
            "/api/systems/scratch/builder",
            None,
            Some(&change(THE_BOOKS)),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.json["refusal"].is_null(), "{}", a.text);
    store.close().await;
}

async fn shown_character(c: &Client, id: &str, gm: &str, name: &str) -> String {
    let a = c.get(&format!("/api/campaigns/{id}"), gm).await;
    a.json["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .find(|ch| ch["name"] == name)
        .and_then(|ch| ch["id"].as_str())
        .unwrap_or_else(|| panic!("no {name} in {}", a.text))
        .to_string()
}

story!(
    r_scr_9_settings,
    super::r_scr_9_a_campaign_carries_its_settings_rules
);
