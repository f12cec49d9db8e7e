//! A campaign plays two encounters in a row on the server (issue "Characters
//! and campaigns", acceptance): the second table starts with what the first
//! left (Items used up, a level gained between the encounters), and so does a
//! third after the server restarts. Every character's history replays to its
//! sheet. On SQLite and PostgreSQL.

use crate::common;

use axum::http::StatusCode;
use serde_json::{Value, json};

use common::{Campaign, Client, Db, Table, character_named, split_line};

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/tiers/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example file")
}

async fn open_table(c: &Client, camp: &Campaign) -> Table {
    let a = c
        .post(
            &format!("/api/campaigns/{}/tables", camp.id),
            &camp.token("gm"),
            &json!({"table": example("table.toml"), "seed": 1}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let mut t = Table::from_created(&a.json);
    // Each seat plays with its campaign token.
    for seat in &mut t.seats {
        seat.2 = camp.token(&seat.0);
    }
    t
}

/// `METHOD /api/tables/ID/ROUTE` as `seat` of table `t`, with no body.
async fn at_table(
    c: &Client,
    t: &Table,
    method: axum::http::Method,
    route: &str,
    seat: &str,
) -> common::Answer {
    c.call(
        method,
        &format!("/api/tables/{}/{route}", t.id),
        Some(&t.token(seat)),
        None,
    )
    .await
}

/// What the table shows John of himself.
async fn johns_sheet_at(c: &Client, t: &Table) -> String {
    let a = c
        .get(&format!("/api/tables/{}/view", t.id), &t.token("John"))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["view"].to_string()
}

/// The Tiers campaign "Goblin Summer": the GM, John and Cristy.
async fn goblin_summer(c: &Client) -> Campaign {
    let a = c
        .call(
            axum::http::Method::POST,
            "/api/campaigns",
            None,
            Some(
                &json!({"system": "tiers", "name": "Goblin Summer", "players": ["John", "Cristy"]}),
            ),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    Campaign::from_created(&a.json)
}

/// Each player adds their character (John, Cristy); the GM adds Steve, an NPC ally.
async fn add_the_party(c: &Client, camp: &Campaign) {
    for (seat, file) in [
        ("John", "john.toml"),
        ("Cristy", "cristy.toml"),
        ("gm", "steve.toml"),
    ] {
        let a = c
            .post(
                &format!("/api/campaigns/{}/characters", camp.id),
                &camp.token(seat),
                &json!({"sheet": example(file), "file": file, "imported": true}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{seat}: {}", a.text);
    }
}

async fn two_encounters(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());

    // The GM makes the campaign with John's and Cristy's players.
    let camp = goblin_summer(&c).await;

    // Each player adds their character; the GM adds Steve, an NPC ally.
    add_the_party(&c, &camp).await;
    // A player cannot add a character for someone else, nor read another's.
    let a = c
        .post(
            &format!("/api/campaigns/{}/characters", camp.id),
            &camp.token("John"),
            &json!({"sheet": example("john.toml"), "owner": "Cristy", "file": "x.toml"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    let seen = c
        .get(&format!("/api/campaigns/{}", camp.id), &camp.token("John"))
        .await;
    assert_eq!(
        seen.json["characters"].as_array().map(Vec::len),
        Some(1),
        "{}",
        seen.text
    );
    assert!(
        !seen.text.contains("\"name\":\"Cristy\""),
        "John sees only his own: {}",
        seen.text
    );

    let john_before = character_named(&c, &camp, "John").await;
    assert!(
        john_before["sheet"]
            .as_str()
            .unwrap_or_default()
            .contains("Fast Potion")
    );

    // Encounter 1: the book's goblin fight, played to its end.
    let t1 = open_table(&c, &camp).await;
    // John's page follows the table live: it hears the end (the
    // script's last command finishes the encounter, which ends the table).
    let base = common::serve(c.state.clone()).await;
    let mut john_ws = common::connect(&base, &t1, &t1.token("John"), true, None).await;
    assert_eq!(
        common::next(&mut john_ws).await.expect("hello")["type"],
        "hello"
    );
    for line in common::script("tiers", "encounter.script") {
        let (seat, text) = split_line(&line);
        let seat = seat.unwrap_or("gm");
        let a = c.command(&t1, &t1.token(seat), text).await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text);
    }
    let ended = at_table(&c, &t1, axum::http::Method::POST, "end", "gm").await;
    assert_eq!(ended.status, StatusCode::OK, "{}", ended.text);
    let john_after = character_named(&c, &camp, "John").await;
    let sheet = john_after["sheet"].as_str().unwrap_or_default();
    assert!(
        !sheet.contains("Fast Potion"),
        "the potion John drank is gone: {sheet}"
    );
    assert_eq!(john_after["seq"], 2, "one encounter event: {john_after}");
    let mut told = None;
    for _ in 0..1000 {
        let m = common::next(&mut john_ws)
            .await
            .expect("the socket stays open");
        if m["type"] == "ended" {
            told = Some(m);
            break;
        }
    }
    let told = told.expect("John's socket is told the encounter ended");
    assert!(
        told["message"]
            .as_str()
            .unwrap_or_default()
            .contains("ended"),
        "{told}"
    );
    // Ending again writes nothing more.
    let again = at_table(&c, &t1, axum::http::Method::POST, "end", "gm").await;
    assert_eq!(again.json["already"], true, "{}", again.text);
    assert_eq!(character_named(&c, &camp, "John").await["seq"], 2);
    // A player may not end it.
    let a = at_table(&c, &t1, axum::http::Method::POST, "end", "John").await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    // The ended table takes no more commands: nothing would be written back.
    let seq_before = at_table(&c, &t1, axum::http::Method::GET, "status", "gm").await;
    let late = at_table(&c, &t1, axum::http::Method::POST, "undo", "gm").await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
    assert_eq!(late.json["error"], "ended", "{}", late.text);
    let seq_after = at_table(&c, &t1, axum::http::Method::GET, "status", "gm").await;
    assert_eq!(
        seq_before.json["seq"], seq_after.json["seq"],
        "nothing changed"
    );

    // Between the encounters: the GM grants a level, John places his 4 SP.
    let jid = john_after["id"].as_str().expect("id").to_string();
    let adv = |cmd: &'static str, seat: &'static str| {
        let c = c.clone();
        let url = format!("/api/campaigns/{}/characters/{jid}/advance", camp.id);
        let token = camp.token(seat);
        async move { c.post(&url, &token, &json!({"command": cmd})).await }
    };
    let refused = adv("level-up", "John").await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a player cannot grant levels: {}",
        refused.text
    );
    assert_eq!(refused.json["error"], "advance-refused", "{}", refused.text);
    let up = adv("level-up", "gm").await;
    assert_eq!(up.status, StatusCode::OK, "{}", up.text);
    let placed = adv("increase strength 4", "John").await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let john_now = character_named(&c, &camp, "John").await;
    assert_eq!(john_now["seq"], 4);

    // Encounter 2 starts from the sheet as it is now.
    let t2 = open_table(&c, &camp).await;
    let shown = johns_sheet_at(&c, &t2).await;
    assert!(!shown.contains("Fast Potion"), "{shown}");
    let sheet_now = john_now["sheet"].as_str().unwrap_or_default().to_string();
    assert!(sheet_now.contains("level = 2"), "{sheet_now}");

    // The history replays to the stored sheet.
    let record = store
        .character(&camp.id, &jid)
        .await
        .expect("store")
        .expect("John");
    tabula_server::campaign::replay(store.as_ref(), &camp.id, &record)
        .await
        .expect("John's history replays");
    let history = c
        .get(
            &format!("/api/campaigns/{}/characters/{jid}", camp.id),
            &camp.token("John"),
        )
        .await;
    let kinds: Vec<&str> = history.json["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|h| h["kind"].as_str())
        .collect();
    assert_eq!(
        kinds,
        ["imported", "encounter", "advanced", "advanced"],
        "{}",
        history.text
    );

    // The server restarts: everything is back, and a third table starts the same.
    drop(c);
    store.close().await;
    let store = db.open().await;
    let c = Client::new(store.clone());
    let john_restarted = character_named(&c, &camp, "John").await;
    assert_eq!(john_restarted["sheet"], john_now["sheet"]);
    assert_eq!(john_restarted["seq"], 4);
    let t3 = open_table(&c, &camp).await;
    assert_eq!(
        johns_sheet_at(&c, &t3).await,
        shown,
        "the third table starts as the second did"
    );
    let exported = c
        .get(
            &format!("/api/campaigns/{}/characters/{jid}/sheet", camp.id),
            &camp.token("John"),
        )
        .await;
    assert_eq!(exported.text, sheet_now);
    store.close().await;
}

story!(two_encounters_in_a_row_and_a_restart, super::two_encounters);

/// A lost link: the GM reissues John's campaign token. The old token opens
/// neither the campaign nor the table the campaign opened; the new one opens
/// both, at John's seat. Only the GM may, and only for a seat there is.
async fn a_reissued_link_replaces_the_old_everywhere(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = goblin_summer(&c).await;
    add_the_party(&c, &camp).await;
    let t = open_table(&c, &camp).await;
    let old = camp.token("John");
    let route = |seat: &str| format!("/api/campaigns/{}/seats/{seat}/reissue", camp.id);

    let refused = c.post(&route("John"), &old, &json!({})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    let unknown = c
        .post(&route("Nobody"), &camp.token("gm"), &json!({}))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.text);
    assert_eq!(
        c.get(&format!("/api/campaigns/{}", camp.id), &old)
            .await
            .status,
        StatusCode::OK,
        "refusals changed nothing"
    );

    // Seat names compare as they do everywhere: "john" is John.
    let a = c.post(&route("john"), &camp.token("gm"), &json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["seat"], "John");
    assert_eq!(a.json["role"], "player");
    let new = a.json["token"].as_str().expect("token").to_string();
    assert_ne!(new, old);
    assert!(
        a.json["link"]
            .as_str()
            .unwrap_or_default()
            .ends_with(&format!("/c/{}#{new}", camp.id)),
        "{}",
        a.text
    );

    let campaign_page = format!("/api/campaigns/{}", camp.id);
    let table_view = format!("/api/tables/{}/view", t.id);
    assert_eq!(
        c.get(&campaign_page, &old).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        c.get(&table_view, &old).await.status,
        StatusCode::UNAUTHORIZED
    );
    let seen = c.get(&campaign_page, &new).await;
    assert_eq!(seen.status, StatusCode::OK, "{}", seen.text);
    assert_eq!(seen.json["seat"], "John");
    let view = c.get(&table_view, &new).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    // Cristy's and the GM's links are untouched.
    assert_eq!(
        c.get(&campaign_page, &camp.token("Cristy")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        c.get(&table_view, &camp.token("gm")).await.status,
        StatusCode::OK
    );
    store.close().await;
}

story!(
    a_reissued_link,
    super::a_reissued_link_replaces_the_old_everywhere
);

/// Reissued from the table's GM panel, a campaign seat's new link is its
/// campaign link: the old token opens neither the campaign nor the table, the
/// new one opens both (issue 27, bug 2: a table-only token locked the player
/// out of the campaign's "Open the table").
async fn a_table_reissue_of_a_campaign_seat_is_the_campaigns(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = goblin_summer(&c).await;
    add_the_party(&c, &camp).await;
    let t = open_table(&c, &camp).await;
    let old = camp.token("John");
    let a = c
        .post(
            &format!("/api/tables/{}/seats/John/reissue", t.id),
            &camp.token("gm"),
            &json!({}),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let new = a.json["token"].as_str().expect("token").to_string();
    assert_ne!(new, old);
    assert!(
        a.json["link"]
            .as_str()
            .unwrap_or_default()
            .ends_with(&format!("/c/{}#{new}", camp.id)),
        "the campaign's link: {}",
        a.text
    );
    let campaign_page = format!("/api/campaigns/{}", camp.id);
    let table_view = format!("/api/tables/{}/view", t.id);
    for page in [&campaign_page, &table_view] {
        assert_eq!(
            c.get(page, &old).await.status,
            StatusCode::UNAUTHORIZED,
            "{page}"
        );
        let seen = c.get(page, &new).await;
        assert_eq!(seen.status, StatusCode::OK, "{page}: {}", seen.text);
    }
    // The campaign lists its table for John's new link.
    let seen = c.get(&campaign_page, &new).await;
    assert!(seen.text.contains(&t.id), "{}", seen.text);
    store.close().await;
}

story!(
    a_table_reissue_of_a_campaign_seat,
    super::a_table_reissue_of_a_campaign_seat_is_the_campaigns
);

/// The GM edits a sheet (what the book leaves to the GM: Items given or
/// taken): recorded as an `edited` event whose changes replay; a player may
/// not, a rename or an illegal sheet is refused and changes nothing.
async fn the_gm_edits_a_sheet(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = goblin_summer(&c).await;
    add_the_party(&c, &camp).await;
    let john = character_named(&c, &camp, "John").await;
    let jid = john["id"].as_str().expect("id").to_string();
    let url = format!("/api/campaigns/{}/characters/{jid}/sheet", camp.id);
    let before = john["sheet"].as_str().expect("sheet").to_string();
    let edited = before.replace("\"Turret\"", "\"Turret\", \"Goblin ear\"");
    assert_ne!(edited, before, "the example carries a Turret");
    let put = |token: String, sheet: String| {
        let c = c.clone();
        let url = url.clone();
        async move {
            c.call(
                axum::http::Method::PUT,
                &url,
                Some(&token),
                Some(&json!({ "sheet": sheet })),
            )
            .await
        }
    };

    let a = put(camp.token("John"), edited.clone()).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    let a = put(
        camp.token("gm"),
        edited.replace("name = \"John\"", "name = \"Jon\""),
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = put(camp.token("gm"), edited.replace("level = 1", "level = 0")).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert_eq!(
        character_named(&c, &camp, "John").await["seq"],
        1,
        "refusals change nothing"
    );

    let a = put(camp.token("gm"), edited.clone()).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.text.contains("Goblin ear"), "{}", a.text);
    let again = put(camp.token("gm"), edited.clone()).await;
    assert_eq!(again.json["changes"], json!([]), "{}", again.text);
    let shown = c
        .get(
            &format!("/api/campaigns/{}/characters/{jid}", camp.id),
            &camp.token("John"),
        )
        .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    let kinds: Vec<&str> = shown.json["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["imported", "edited"], "{}", shown.text);
    assert!(
        shown.json["sheet"]
            .as_str()
            .unwrap_or_default()
            .contains("Goblin ear")
    );
    store.close().await;
}

story!(the_gm_edits, super::the_gm_edits_a_sheet);

fn sour_grapes(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/sour-grapes/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example file")
}

/// The Sour Grapes campaign "Firefoot's": the GM, Sam (the book's example
/// character) and Ana (Rook).
async fn firefoots(c: &Client) -> Campaign {
    let a = c
        .call(
            axum::http::Method::POST,
            "/api/campaigns",
            None,
            Some(
                &json!({"system": "sour-grapes", "name": "Firefoot's", "players": ["Sam", "Ana"]}),
            ),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let camp = Campaign::from_created(&a.json);
    for (seat, file) in [("Sam", "example-character.toml"), ("Ana", "rook.toml")] {
        let a = c
            .post(
                &format!("/api/campaigns/{}/characters", camp.id),
                &camp.token(seat),
                &json!({"sheet": sour_grapes(file), "file": file, "imported": true}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{seat}: {}", a.text);
    }
    camp
}

/// A second table of Firefoot's: the two player characters and the Tavern
/// Brute, with no card of the table's own (no Bleeding).
const MORNING_AFTER: &str = r#"
title = "The morning after"
[[participant]]
file = "example-character.toml"
seat = "Sam"
[[participant]]
file = "rook.toml"
seat = "Ana"
[[participant]]
file = "tavern-brute.toml"
"#;

async fn open_sg_table(c: &Client, camp: &Campaign, table: &str) -> Table {
    let mut files = serde_json::Map::new();
    for f in ["tavern-brute.toml", "drunk-sailor.toml"] {
        files.insert(f.into(), Value::String(sour_grapes(f)));
    }
    let a = c
        .post(
            &format!("/api/campaigns/{}/tables", camp.id),
            &camp.token("gm"),
            &json!({"table": table, "files": files, "seed": 1}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let mut t = Table::from_created(&a.json);
    for seat in &mut t.seats {
        seat.2 = camp.token(&seat.0);
    }
    t
}

async fn play(c: &Client, t: &Table, lines: &[&str]) {
    for line in lines {
        let (seat, text) = split_line(line);
        let seat = seat.unwrap_or("gm");
        let a = c.command(t, &t.token(seat), text).await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text);
    }
}

/// Issue 29 (R-SG-13, "Effects"): a Sour Grapes campaign plays two encounters
/// in a row in each of which a stat spent to zero is healed at zero by the
/// storyteller; both end without a refusal and write back. The first leaves
/// the table's own Bleeding on the sheet, and the second table, whose file
/// does not define Bleeding, opens with it in play. Between the encounters a
/// stat left injured at zero is healed by `advance heal`. Histories replay.
async fn sour_grapes_two_encounters(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = firefoots(&c).await;

    // Encounter 1: Prestige spent to zero (injured), healed at zero; Bleeding.
    let t1 = open_sg_table(&c, &camp, &sour_grapes("table.toml")).await;
    play(
        &c,
        &t1,
        &[
            "Sam: spend Prestige",
            "Sam: spend Prestige",
            "gm: heal Prestige as \"Example Player\"",
            "gm: afflict Bleeding as \"Example Player\"",
            "Ana: spend Spirit",
            "Ana: spend Spirit",
            "Ana: spend Spirit",
            "Ana: spend Spirit",
            "gm: end-encounter",
        ],
    )
    .await;
    let ended = at_table(&c, &t1, axum::http::Method::POST, "end", "gm").await;
    assert_eq!(ended.status, StatusCode::OK, "{}", ended.text);
    // (`end-encounter` already ended it and wrote back: `already`.)
    let hero = character_named(&c, &camp, "Example Player").await;
    let sheet = hero["sheet"].as_str().unwrap_or_default();
    assert!(
        sheet.contains("prestige = { actual = 2, current = 0 }"),
        "{sheet}"
    );
    assert!(
        sheet.contains("Bleeding") && sheet.contains("definition"),
        "{sheet}"
    );
    assert_eq!(hero["seq"], 2);
    assert_eq!(hero["needs_edit"], json!([]), "{hero}");

    // Between sessions: Rook's Spirit, injured at zero, is healed; a rest
    // brings back what can come back.
    let rook = character_named(&c, &camp, "Rook").await;
    let rid = rook["id"].as_str().expect("id").to_string();
    let healed = c
        .post(
            &format!("/api/campaigns/{}/characters/{rid}/advance", camp.id),
            &camp.token("gm"),
            &json!({"command": "heal Spirit"}),
        )
        .await;
    assert_eq!(healed.status, StatusCode::OK, "{}", healed.text);
    let hid = hero["id"].as_str().expect("id").to_string();
    let rested = c
        .post(
            &format!("/api/campaigns/{}/characters/{hid}/advance", camp.id),
            &camp.token("gm"),
            &json!({"command": "rest"}),
        )
        .await;
    assert_eq!(rested.status, StatusCode::OK, "{}", rested.text);
    assert!(
        rested.text.contains("Prestige 0 -> 2"),
        "the healed stat recovers: {}",
        rested.text
    );

    // Encounter 2, on a table file without Bleeding: it opens, Bleeding is in
    // play; Prestige is spent to zero and healed at zero again.
    let t2 = open_sg_table(&c, &camp, MORNING_AFTER).await;
    let view = c
        .get(&format!("/api/tables/{}/view", t2.id), &t2.token("Sam"))
        .await;
    assert!(view.text.contains("Bleeding"), "{}", view.text);
    play(
        &c,
        &t2,
        &[
            "Sam: spend Prestige",
            "Sam: spend Prestige",
            "gm: heal Prestige as \"Example Player\"",
            "gm: end-encounter",
        ],
    )
    .await;
    let ended = at_table(&c, &t2, axum::http::Method::POST, "end", "gm").await;
    assert_eq!(ended.status, StatusCode::OK, "{}", ended.text);
    let hero = character_named(&c, &camp, "Example Player").await;
    assert_eq!(hero["seq"], 4, "{hero}");
    for id in [&hid, &rid] {
        let record = store
            .character(&camp.id, id)
            .await
            .expect("store")
            .expect("character");
        tabula_server::campaign::replay(store.as_ref(), &camp.id, &record)
            .await
            .expect("the history replays");
    }
    store.close().await;
}

story!(
    r_sg_13_a_campaign_heals_at_zero_in_two_encounters_in_a_row,
    super::sour_grapes_two_encounters
);

/// Issue 29, item 14 (A Game of Bastards, "Points & Costs": "Disadvantages
/// may be taken only at character creation"): the GM's edit that adds a
/// Disadvantage to Kodos after creation is allowed (the GM's right), and the
/// answer, the `edited` event in the history and its summary name the rule it
/// steps past. An edit within the rules records none.
async fn an_edit_past_the_rules_says_which(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let a = c
        .call(
            axum::http::Method::POST,
            "/api/campaigns",
            None,
            Some(&json!({"system": "bastards", "name": "Bastards", "players": ["Ana"]})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.json["campaign"].as_str().expect("id").to_string();
    let gm = a.json["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == "gm")
        .and_then(|s| s["token"].as_str())
        .expect("gm token")
        .to_string();
    let kodos = std::fs::read_to_string(format!(
        "{}/../../examples/bastards/kodos.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("kodos");
    let added = c
        .post(
            &format!("/api/campaigns/{id}/characters"),
            &gm,
            &json!({"sheet": kodos, "file": "kodos.toml", "imported": true}),
        )
        .await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text);
    let kid = added.json["id"].as_str().expect("id").to_string();
    let url = format!("/api/campaigns/{id}/characters/{kid}/sheet");
    let edited = kodos.replace(
        "disadvantages = [\"Intense: puts people off\"]",
        "disadvantages = [\"Intense: puts people off\", \"Greedy\"]",
    );
    assert_ne!(edited, kodos);
    let a = c
        .call(
            axum::http::Method::PUT,
            &url,
            Some(&gm),
            Some(&json!({ "sheet": edited })),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "the GM's right: {}", a.text);
    let past = a.json["steps_past"].as_array().expect("steps_past").clone();
    assert_eq!(past.len(), 1, "{}", a.text);
    assert_eq!(past[0]["rule"]["section"], "Points & Costs", "{}", a.text);
    assert!(
        past[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Greedy"),
        "{}",
        a.text
    );
    let shown = c
        .get(&format!("/api/campaigns/{id}/characters/{kid}"), &gm)
        .await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    let history = shown.json["history"].as_array().expect("history").clone();
    let last = history.last().expect("an event");
    assert_eq!(last["kind"], "edited");
    assert_eq!(last["event"]["steps_past"], json!(past), "{}", shown.text);
    assert!(
        last["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("steps past: the Disadvantage \"Greedy\" is added after creation"),
        "{last}"
    );
    // An edit within the rules (a weapon's name) steps past nothing.
    let renamed = edited.replace("name = \"Wrench\"", "name = \"Big wrench\"");
    assert_ne!(renamed, edited);
    let a = c
        .call(
            axum::http::Method::PUT,
            &url,
            Some(&gm),
            Some(&json!({ "sheet": renamed })),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.json.get("steps_past").is_none(), "{}", a.text);
    let record = store
        .character(&id, &kid)
        .await
        .expect("store")
        .expect("Kodos");
    tabula_server::campaign::replay(store.as_ref(), &id, &record)
        .await
        .expect("the history replays");
    store.close().await;
}

story!(
    points_and_costs_an_edit_adding_a_disadvantage_says_the_rule_it_steps_past,
    super::an_edit_past_the_rules_says_which
);

/// Issue 29 (every book): an encounter that left a sheet breaking a rule is
/// recorded (here forced through the store as `end_encounter` records it);
/// the campaign marks the character as needing the GM's edit, a new table
/// names it instead of a bare setup error, advancement is refused, the
/// history replays; the GM's edit clears it and the next table opens.
async fn a_sheet_that_needs_the_gms_edit(db: Db) {
    use tabula_engine::SystemId;
    use tabula_engine::characters::{CampaignSheet, sheets_changes};
    use tabula_engine::core::builder::SheetAfter;

    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = firefoots(&c).await;
    let hero = character_named(&c, &camp, "Example Player").await;
    let hid = hero["id"].as_str().expect("id").to_string();
    let before = hero["sheet"].as_str().expect("sheet").to_string();
    let forced = before.replace("agility = 5", "agility = 11");
    assert_ne!(forced, before);
    let found = sheets_changes(
        SystemId::SourGrapes,
        vec![SheetAfter {
            name: "Example Player".into(),
            sheet: forced.clone(),
        }],
        "t0",
        "a forced fight",
        &[CampaignSheet {
            id: hid.clone(),
            name: "Example Player".into(),
            sheet: before.clone(),
        }],
    );
    let (_, sheet, event) = &found[0];
    store
        .append_character_event(
            &camp.id,
            &hid,
            1,
            tabula_store::NewCharacterEvent {
                seat: "gm".into(),
                kind: event.kind().into(),
                entry: serde_json::to_value(event).expect("json"),
                sheet: sheet.clone(),
            },
        )
        .await
        .expect("written");

    let hero = character_named(&c, &camp, "Example Player").await;
    let needs = hero["needs_edit"].as_array().expect("needs_edit").clone();
    assert!(!needs.is_empty(), "{hero}");
    assert_eq!(needs[0]["rule"]["section"], "Stats", "{hero}");
    let shown = c
        .get(
            &format!("/api/campaigns/{}/characters/{hid}", camp.id),
            &camp.token("Sam"),
        )
        .await;
    let last = shown.json["history"]
        .as_array()
        .and_then(|h| h.last().cloned())
        .expect("history");
    assert!(
        last["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("needs the GM's edit: stats.Agility"),
        "{last}"
    );
    let record = store
        .character(&camp.id, &hid)
        .await
        .expect("store")
        .expect("hero");
    tabula_server::campaign::replay(store.as_ref(), &camp.id, &record)
        .await
        .expect("the history replays");
    // No table opens with it, and the answer says who needs the edit.
    let a = c
        .post(
            &format!("/api/campaigns/{}/tables", camp.id),
            &camp.token("gm"),
            &json!({"table": MORNING_AFTER, "files": {"tavern-brute.toml": sour_grapes("tavern-brute.toml")}}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(
        a.text
            .to_lowercase()
            .contains("example player needs the gm's edit: stats.agility"),
        "{}",
        a.text
    );
    // The GM's edit fixes it.
    let fixed = c
        .call(
            axum::http::Method::PUT,
            &format!("/api/campaigns/{}/characters/{hid}/sheet", camp.id),
            Some(&camp.token("gm")),
            Some(&json!({ "sheet": before })),
        )
        .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.text);
    let hero = character_named(&c, &camp, "Example Player").await;
    assert_eq!(hero["needs_edit"], json!([]), "{hero}");
    open_sg_table(&c, &camp, MORNING_AFTER).await;
    store.close().await;
}

story!(
    ending_keeps_a_sheet_that_needs_the_gms_edit_and_the_campaign_says_so,
    super::a_sheet_that_needs_the_gms_edit
);
