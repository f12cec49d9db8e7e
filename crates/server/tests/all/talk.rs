//! Table talk, the free roller and the terminal's command line over HTTP and
//! live sockets (issue 27, items 1, 2 and 5): a `say` reaches every seat, a
//! whisper only its speaker, its listener and the GM (in no other seat's
//! fetch or WebSocket message), both survive a server restart, a roll names
//! who rolled on every seat, and `help`, `sheet`, `status` answer in the
//! browser as in `play`.

use crate::common;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tabula_server::AppState;

use common::{Client, Db, Socket, Table, connect, next, serve};

/// Messages until one reports `seq`.
async fn until_seq(ws: &mut Socket, seq: u64) -> String {
    let mut out = String::new();
    loop {
        let m = next(ws).await.expect("the socket stays open");
        out.push_str(&m.to_string());
        if m["seq"].as_u64().unwrap_or(0) >= seq {
            return out;
        }
    }
}

/// Everything `token`'s seat can fetch of table `t`, as one text.
async fn fetchable(c: &Client, t: &Table, token: &str) -> String {
    let mut out = String::new();
    for what in [
        "view", "legal", "status", "odds", "log", "awaiting", "seats",
    ] {
        let a = c.get(&t.url(what), token).await;
        out.push_str(&a.text);
    }
    out
}

async fn say(c: &Client, t: &Table, seat: &str, text: &str) -> Value {
    let a = c.command(t, &t.token(seat), text).await;
    assert_eq!(a.status, StatusCode::OK, "{seat}: {text}: {}", a.text);
    a.json
}

async fn talk_story(db: Db) {
    let state = AppState::new(db.open().await);
    let base = serve(state.clone()).await;
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    let players = t.players();
    let (stella, blaine) = (players[0].clone(), players[1].clone());
    let mut gm_ws = connect(&base, &t, &t.gm(), true, None).await;
    let mut stella_ws = connect(&base, &t, &t.token(&stella), true, None).await;
    let mut blaine_ws = connect(&base, &t, &t.token(&blaine), true, None).await;
    for ws in [&mut gm_ws, &mut stella_ws, &mut blaine_ws] {
        until_seq(ws, 0).await;
    }

    say(&c, &t, &stella, "say We should talk to the investor.").await;
    let whisper = say(&c, &t, &stella, "whisper gm I palm the ledger-9f2").await;
    let seq = whisper["seq"].as_u64().unwrap();
    let roll = say(&c, &t, &blaine, "roll 2d6 + 1 # test").await;
    let rolled = &roll["events"][0];
    assert_eq!(rolled["kind"], "roll");
    assert_eq!(rolled["seat"], blaine.as_str());
    let seq_roll = roll["seq"].as_u64().unwrap();
    assert_eq!(seq_roll, seq + 1);

    // Live: the say and the roll reach all three; the whisper the GM and Stella.
    let gm_got = until_seq(&mut gm_ws, seq_roll).await;
    let stella_got = until_seq(&mut stella_ws, seq_roll).await;
    let blaine_got = until_seq(&mut blaine_ws, seq_roll).await;
    for got in [&gm_got, &stella_got, &blaine_got] {
        assert!(got.contains("We should talk to the investor."));
        assert!(got.contains(&format!("{blaine} rolls 2d6 (")), "{got}");
    }
    assert!(gm_got.contains("ledger-9f2"));
    assert!(stella_got.contains("ledger-9f2"));
    assert!(!blaine_got.contains("ledger-9f2"), "{blaine_got}");
    assert!(
        !fetchable(&c, &t, &t.token(&blaine))
            .await
            .contains("ledger-9f2")
    );

    // A refusal names the rule and changes nothing.
    let a = c.command(&t, &t.token(&blaine), "narrate I rule now").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(a.text.contains("only the GM may narrate"), "{}", a.text);

    // The terminal's command line: `help`, `?`, `sheet`, `status`, `odds`.
    for (line, kind) in [
        ("help", "help"),
        ("?", "help"),
        ("/help", "help"),
        ("sheet", "sheet"),
        ("status", "status"),
        ("odds", "odds"),
    ] {
        let a = c.command(&t, &t.token(&stella), line).await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text);
        assert_eq!(a.json["driver"]["type"], kind, "{line}: {}", a.text);
        assert!(a.json["events"].as_array().unwrap().is_empty());
    }
    let sheet = c.command(&t, &t.token(&stella), "sheet").await;
    assert!(
        sheet.json["driver"]["text"]
            .as_str()
            .unwrap()
            .contains("Cynthia"),
        "{}",
        sheet.text
    );
    let help = c.command(&t, &t.token(&stella), "help").await;
    assert!(
        !help.json["driver"]["commands"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // `log` reads the seat's stored lines: the whisper is not Blaine's.
    let a = c.command(&t, &t.token(&blaine), "log").await;
    assert_eq!(a.json["driver"]["type"], "log", "{}", a.text);
    assert!(
        a.text.contains("We should talk to the investor."),
        "{}",
        a.text
    );
    assert!(!a.text.contains("ledger-9f2"), "{}", a.text);
    let a = c.command(&t, &t.token(&stella), "/log").await;
    assert!(a.text.contains("ledger-9f2"), "{}", a.text);
    let a = c.command(&t, &t.token(&stella), "/nonsense").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = c.command(&t, &t.token(&stella), "undo").await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);

    // A restart: the talk is still there, as each seat may see it.
    drop(c);
    let state = AppState::new(db.open().await);
    let c = Client::with_state(state);
    let log = |seat: String| {
        let c = &c;
        let t = &t;
        async move { c.get(&t.url("log"), &seat).await.text }
    };
    let gm_log = log(t.gm()).await;
    let stella_log = log(t.token(&stella)).await;
    let blaine_log = log(t.token(&blaine)).await;
    for l in [&gm_log, &stella_log, &blaine_log] {
        assert!(l.contains("We should talk to the investor."));
        assert!(l.contains("for “test”"));
    }
    assert!(gm_log.contains("ledger-9f2"));
    assert!(stella_log.contains("ledger-9f2"));
    assert!(!blaine_log.contains("ledger-9f2"));

    // The record of the night: the talk and rolls with who made them, and
    // nothing another seat may not see (issue 27, item 7).
    let blaine_record = c.get(&t.url("record"), &t.token(&blaine)).await;
    assert_eq!(blaine_record.status, StatusCode::OK);
    let text = &blaine_record.text;
    assert!(text.contains("We should talk to the investor."), "{text}");
    assert!(
        text.contains(&format!("**{blaine}**: {blaine} rolls 2d6 (")),
        "{text}"
    );
    assert!(text.contains("for “test”"), "{text}");
    assert!(!text.contains("ledger"), "{text}");
    let gm_record = c.get(&t.url("record?format=html"), &t.gm()).await;
    assert_eq!(gm_record.status, StatusCode::OK);
    assert!(gm_record.text.starts_with("<!doctype html>"));
    assert!(gm_record.text.contains("ledger-9f2"));
    let bad = c.get(&t.url("record?format=pdf"), &t.gm()).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    let nobody = c.get(&t.url("record"), "not-a-token").await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
}

story!(
    talk_reaches_exactly_its_seats_live_and_after_a_restart,
    super::talk_story
);

/// The next message of type `kind` (others skipped).
async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let m = next(ws).await.expect("the socket stays open");
        if m["type"] == kind {
            return m;
        }
    }
}

/// Who has the table open (issue 27, item 3): the hello says who is here; a
/// seat's first socket and its last closing tell every follower; `GET /seats`
/// says it too.
async fn presence_story(db: Db) {
    let state = AppState::new(db.open().await);
    let base = serve(state.clone()).await;
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    let stella = t.players()[0].clone();
    let mut gm_ws = connect(&base, &t, &t.gm(), true, None).await;
    let hello = next_of(&mut gm_ws, "hello").await;
    assert_eq!(hello["online"], json!(["gm"]));
    let mut stella_ws = connect(&base, &t, &t.token(&stella), true, None).await;
    let hello = next_of(&mut stella_ws, "hello").await;
    assert_eq!(hello["online"], json!([stella.clone(), "gm"]));
    let m = next_of(&mut gm_ws, "presence").await;
    assert_eq!(m["online"], json!([stella.clone(), "gm"]));
    let seats = c.get(&t.url("seats"), &t.gm()).await.json;
    let here: Vec<&str> = seats["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["online"] == true)
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(here, ["gm", stella.as_str()]);
    drop(stella_ws);
    let m = next_of(&mut gm_ws, "presence").await;
    assert_eq!(m["online"], json!(["gm"]));
}

story!(who_has_the_table_open_is_told_live, super::presence_story);

/// Issue 30, item 3: the dice settings a table is created with (`POST
/// /api/tables` with `dice_dialect` and `dice`, the lobby's "Dice notation"
/// and "Players' own dice") win over the table file's, reach every seat's
/// view, rule the free roller (`roll 8d6!` explodes at a Roll20 table and
/// says so; a d20 table refuses it) and the typed dice, and survive a
/// restart. A setting that is none is refused naming the field, and no
/// table is made.
async fn chosen_dice_settings_story(db: Db) {
    let state = AppState::new(db.open().await);
    let c = Client::with_state(state.clone());
    let t = c
        .create(json!({
            "system": "bastards", "example": "table", "seed": 4,
            "dice_dialect": "roll20", "dice": "table",
        }))
        .await;
    let stella = t.players()[0].clone();
    for token in [t.gm(), t.token(&stella)] {
        let v = c.get(&t.url("view"), &token).await;
        assert_eq!(v.json["dice_dialect"], "roll20", "{}", v.text);
        assert_eq!(v.json["dice"], "table", "{}", v.text);
    }
    let rolled = say(&c, &t, &stella, "roll 8d6! # fire").await;
    let line = rolled["events"][0]["text"].as_str().unwrap().to_string();
    assert!(line.contains("(roll20)"), "{line}");
    assert!(line.contains("“fire”"), "{line}");
    let a = c
        .post(
            &t.url("commands"),
            &t.token(&stella),
            &json!({"text": "roll 1d6", "rolled": ["6"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(a.text.contains("dice = \\\"table\\\""), "{}", a.text);

    // A restart: the settings come back with the table.
    let state = AppState::new(db.open().await);
    let c = Client::with_state(state);
    let v = c.get(&t.url("view"), &t.gm()).await;
    assert_eq!(
        (v.json["dice_dialect"].as_str(), v.json["dice"].as_str()),
        (Some("roll20"), Some("table")),
        "{}",
        v.text
    );
    let again = say(&c, &t, "gm", "roll 2d6!!").await;
    assert!(
        again["events"][0]["text"]
            .as_str()
            .unwrap()
            .contains("(roll20)")
    );

    // The default is d20's meaning and each seat's own dice; `8d6!` is not
    // d20's.
    let plain = c
        .create(json!({"system": "bastards", "example": "table", "seed": 4}))
        .await;
    let v = c.get(&plain.url("view"), &plain.gm()).await;
    assert_eq!(
        (v.json["dice_dialect"].as_str(), v.json["dice"].as_str()),
        (Some("d20"), Some("players"))
    );
    let a = c.command(&plain, &plain.gm(), "roll 8d6!").await;
    assert_ne!(a.status, StatusCode::OK, "{}", a.text);

    for (field, value) in [("dice_dialect", "avrae"), ("dice", "mine")] {
        let mut body = json!({"system": "bastards", "example": "table"});
        body[field] = json!(value);
        let a = c
            .call(axum::http::Method::POST, "/api/tables", None, Some(&body))
            .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
        assert!(a.text.contains(field), "{field}: {}", a.text);
    }
}

story!(
    a_table_created_with_dice_settings_keeps_them,
    super::chosen_dice_settings_story
);
