//! The server's story, on SQLite always and on PostgreSQL when
//! `TABULA_TEST_DATABASE_URL` is set: create a Bastards table from the bundled
//! example, two players play an Opposition through the API and each sees only
//! its own hand; bad input gets a clear 4xx and changes nothing; a player's
//! token acts for nobody else; a restart brings every table back with the same
//! dice stream; physical dice over the wire; two servers on one store.

use crate::common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};

use common::{Client, Db, Table, script, split_line};
use tabula_engine::core::Seeded;
use tabula_engine::{AnyTable, Dice, SystemId};
use tabula_server::{AppState, Settings};

/// The seat a script line is for: its prefix, else whose turn it is.
async fn seat_of(c: &Client, t: &Table, line: &str) -> (String, String) {
    let (seat, text) = split_line(line);
    let seat = match seat {
        Some(s) => s.to_string(),
        None => {
            let st = c.get(&t.url("status"), &t.gm()).await;
            st.json["turn"].as_str().expect("a turn").to_string()
        }
    };
    (seat, text.to_string())
}

/// Play `lines` as their seats; every line must be accepted.
async fn play(c: &Client, t: &Table, lines: &[String]) -> Vec<Value> {
    let mut answers = Vec::new();
    for line in lines {
        let (seat, text) = seat_of(c, t, line).await;
        let a = c.command(t, &t.token(&seat), &text).await;
        assert_eq!(a.status, StatusCode::OK, "{seat}: {text} -> {}", a.text);
        answers.push(a.json);
    }
    answers
}

/// The combatant named `name` in a Bastards view.
fn combatant<'a>(view: &'a Value, name: &str) -> &'a Value {
    view["view"]["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no combatant {name}"))
}

/// Each player's view shows its own hand and no other hand.
async fn each_sees_only_its_own_hand(c: &Client, t: &Table) {
    let stella = c.get(&t.url("view"), &t.token("Stella")).await;
    let blaine = c.get(&t.url("view"), &t.token("Blaine")).await;
    assert_eq!(stella.status, StatusCode::OK);
    assert!(combatant(&stella.json, "Cynthia")["hand"].is_array());
    assert!(combatant(&blaine.json, "Kodos")["hand"].is_array());
    for other in ["Kodos", "The investor", "Bodyguard", "Thugs"] {
        assert!(
            combatant(&stella.json, other)["hand"].is_null(),
            "Stella sees {other}'s hand"
        );
    }
    for other in ["Cynthia", "The investor", "Bodyguard", "Thugs"] {
        assert!(
            combatant(&blaine.json, other)["hand"].is_null(),
            "Blaine sees {other}'s hand"
        );
    }
    // Neither view holds a card of the other's hand (by its id).
    let ids = |v: &Value| -> Vec<u64> {
        v["hand"]
            .as_array()
            .map(|h| h.iter().filter_map(|c| c["id"].as_u64()).collect())
            .unwrap_or_default()
    };
    let gm = c.get(&t.url("view?seat=Stella"), &t.gm()).await;
    assert_eq!(gm.status, StatusCode::OK, "{}", gm.text);
    let cynthia = ids(combatant(&stella.json, "Cynthia"));
    let kodos = ids(combatant(&blaine.json, "Kodos"));
    let blaine_text = blaine.json.to_string();
    let stella_text = stella.json.to_string();
    for id in &cynthia {
        assert!(!kodos.contains(id));
        assert!(
            !blaine_text.contains(&format!("\"id\":{id},"))
                && !blaine_text.contains(&format!("\"id\":{id}}}"))
        );
    }
    for id in &kodos {
        assert!(
            !stella_text.contains(&format!("\"id\":{id},"))
                && !stella_text.contains(&format!("\"id\":{id}}}"))
        );
    }
}

async fn bastards_opposition(db: Db) {
    let c = Client::new(db.open().await);
    let health = c.call(Method::GET, "/healthz", None, None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.json["store"], db.backend());
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    assert_eq!(t.system, "bastards");
    let seats: Vec<&str> = t.seats.iter().map(|(s, _, _)| s.as_str()).collect();
    assert_eq!(seats, ["gm", "Stella", "Blaine", "Pat"]);
    let lines = script("bastards", "encounter.script");
    // Up to the initiative cards: everyone holds a hand.
    let begun = lines
        .iter()
        .position(|l| l == "gm: init Thugs lowest")
        .expect("the init line")
        + 1;
    play(&c, &t, &lines[..begun]).await;
    each_sees_only_its_own_hand(&c, &t).await;
    // The whole Opposition, as the book's example plays it.
    let answers = play(&c, &t, &lines[begun..]).await;
    assert!(answers.iter().all(|a| a["seq"].as_u64().is_some()));
    each_sees_only_its_own_hand(&c, &t).await;
    let status = c.get(&t.url("status"), &t.token("Stella")).await;
    assert_eq!(status.json["seat"], "Stella");
    let log = c.get(&t.url("log?after=0"), &t.token("Stella")).await;
    let n = log.json["lines"].as_array().unwrap().len() as u64;
    assert_eq!(n, log.json["seq"].as_u64().unwrap());
    let tail = c
        .get(&t.url(&format!("log?after={}", n - 2)), &t.token("Stella"))
        .await;
    assert_eq!(tail.json["lines"].as_array().unwrap().len(), 2);
}
story!(
    bastards_opposition_through_the_api,
    super::bastards_opposition
);

/// What a table looks like to its GM: to prove that nothing changed.
async fn snapshot(c: &Client, t: &Table) -> (u64, Value, Value) {
    let v = c.get(&t.url("view"), &t.gm()).await;
    let log = c.get(&t.url("log"), &t.gm()).await;
    (
        v.json["seq"].as_u64().unwrap(),
        v.json["view"].clone(),
        log.json["lines"].clone(),
    )
}

async fn bad_input(db: Db) {
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    play(&c, &t, &script("bastards", "encounter.script")[..1]).await;
    let stella = t.token("Stella");
    let before = snapshot(&c, &t).await;

    // Malformed JSON: 400 with serde's words.
    let req = Request::builder()
        .method(Method::POST)
        .uri(t.url("commands"))
        .header(header::AUTHORIZATION, format!("Bearer {stella}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"text\": "))
        .unwrap();
    let a = c.send(req).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(a.json["error"], "bad-json");
    assert!(
        a.json["message"]
            .as_str()
            .unwrap()
            .contains("not valid JSON")
    );
    // The wrong shape: 400 naming the field.
    let a = c
        .post(&t.url("commands"), &stella, &json!({"txt": "draw"}))
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert!(
        a.json["message"].as_str().unwrap().contains("txt"),
        "{}",
        a.text
    );
    // Neither text nor command.
    let a = c.post(&t.url("commands"), &stella, &json!({})).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    // No content type: 415.
    let req = Request::builder()
        .method(Method::POST)
        .uri(t.url("commands"))
        .header(header::AUTHORIZATION, format!("Bearer {stella}"))
        .body(Body::from("{\"text\": \"draw\"}"))
        .unwrap();
    assert_eq!(c.send(req).await.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A 10 MB body: 413, before it is read.
    let big = format!("{{\"text\": \"{}\"}}", "x".repeat(10 * 1024 * 1024));
    let req = Request::builder()
        .method(Method::POST)
        .uri(t.url("commands"))
        .header(header::AUTHORIZATION, format!("Bearer {stella}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(big.clone()))
        .unwrap();
    let a = c.send(req).await;
    assert_eq!(
        a.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        &a.text[..a.text.len().min(200)]
    );
    assert_eq!(a.json["error"], "body-too-large");
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/tables")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(big))
        .unwrap();
    assert_eq!(c.send(req).await.status, StatusCode::PAYLOAD_TOO_LARGE);
    // A command text over the engine's cap: 422 too-long.
    let long = "draw ".repeat(tabula_server::MAX_COMMAND_BYTES);
    let a = c.command(&t, &stella, &long).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert_eq!(a.json["error"], "too-long");
    // A command for another seat's character: 422 with the rule.
    let a = c.command(&t, &stella, "fate Kodos Technology Mind 3").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert_eq!(a.json["error"], "rule", "{}", a.text);
    assert!(a.json["rule"].is_object(), "{}", a.text);
    assert!(
        a.json["message"].as_str().unwrap().contains("Blaine"),
        "{}",
        a.text
    );
    // A GM-only command from a player: 422 with the rule.
    let a = c.command(&t, &stella, "begin").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    // An unknown command: 422 listing the commands.
    let a = c.command(&t, &stella, "fly away").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(
        a.json["message"]
            .as_str()
            .unwrap()
            .contains("unknown command"),
        "{}",
        a.text
    );
    // Not this system's command JSON: 422 naming the problem.
    let a = c
        .post(
            &t.url("commands"),
            &stella,
            &json!({"command": {"Fly": {"to": "moon"}}}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert_eq!(a.json["error"], "json");
    // A stale seq: 409 with the seq now.
    let a = c
        .post(
            &t.url("commands"),
            &t.gm(),
            &json!({"text": "begin", "expect_seq": before.0 + 5}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    assert_eq!(a.json["error"], "stale");
    assert_eq!(a.json["seq"], before.0);
    // Too many or too long rolled values: 400.
    let a = c
        .post(
            &t.url("commands"),
            &stella,
            &json!({"text": "draw", "rolled": vec!["6"; 5000]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    // Bad query parameters: 400.
    let a = c.get(&t.url("log?after=minus-one"), &stella).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(a.json["error"], "bad-request");
    // An unknown route: 404 JSON.
    let a = c.get("/api/nothing", &stella).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.json["error"], "not-found");
    // Nothing changed.
    assert_eq!(snapshot(&c, &t).await, before);

    // Broken table files: 422 naming the field or file; no table is created.
    let count = c.state.store().count_tables().await.unwrap();
    let broken = [
        (
            json!({"system": "chess", "example": "table"}),
            "unknown-system",
            "chess",
        ),
        (
            json!({"system": "bastards", "example": "nope"}),
            "unknown-example",
            "table",
        ),
        (
            json!({"system": "bastards", "example": "../../etc/passwd"}),
            "unknown-example",
            "table",
        ),
        (
            json!({"system": "bastards", "table": "[[fated]]\nfile = \"kodos.toml\"\n"}),
            "bad-table",
            "kodos.toml",
        ),
        (
            json!({"system": "bastards", "table": "title = 5\n", "files": {}}),
            "bad-table",
            "title",
        ),
        (
            json!({"system": "bastards", "table": "[[followers]]\nname = \"B\"\npower = \"three\"\n"}),
            "bad-table",
            "power",
        ),
        (
            json!({"system": "bastards", "example": "table", "table": "title = \"x\""}),
            "bad-request",
            "exactly one",
        ),
        (
            json!({"system": "bastards", "example": "kodos"}),
            "bad-table",
            "bastards",
        ),
    ];
    for (body, kind, names) in broken {
        let a = c.call(Method::POST, "/api/tables", None, Some(&body)).await;
        assert!(a.status.is_client_error(), "{body}: {}", a.text);
        assert_eq!(a.json["error"], kind, "{body}: {}", a.text);
        assert!(
            a.json["message"].as_str().unwrap().contains(names),
            "{body}: {}",
            a.text
        );
    }
    assert_eq!(c.state.store().count_tables().await.unwrap(), count);

    // An uploaded table reads only the uploaded files (never the disk).
    let (table_text, files) = tabula_server::examples::table(SystemId::Bastards, "table").unwrap();
    let created = c
        .call(
            Method::POST,
            "/api/tables",
            None,
            Some(&json!({"system": "bastards", "table": table_text, "files": files.0, "name": "Upload"})),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(created.json["name"], "Upload");
    let a = c
        .call(
            Method::POST,
            "/api/tables",
            None,
            Some(&json!({"system": "bastards", "table": "[[fated]]\nfile = \"/etc/passwd\"\n"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(
        a.json["message"]
            .as_str()
            .unwrap()
            .contains("/etc/passwd: no such file"),
        "{}",
        a.text
    );
}
story!(
    bad_input_gets_a_clear_4xx_and_changes_nothing,
    super::bad_input
);

async fn tokens(db: Db) {
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    let other = c
        .create(json!({"system": "bastards", "example": "table"}))
        .await;
    let stella = t.token("Stella");
    let reads = ["view", "legal", "log", "odds", "status", "seats"];

    // Missing, wrong, another table's, and a malformed or unknown table id:
    // the same 401 body, which never tells whether the table exists.
    let mut bodies = Vec::new();
    for what in reads {
        bodies.push(c.call(Method::GET, &t.url(what), None, None).await);
        bodies.push(
            c.get(&t.url(what), "0123456789abcdef0123456789abcdef")
                .await,
        );
        bodies.push(c.get(&t.url(what), &other.token("Stella")).await);
        bodies.push(
            c.get(&format!("/api/tables/{}/{what}", "f".repeat(32)), &stella)
                .await,
        );
        bodies.push(c.get(&format!("/api/tables/nope/{what}"), &stella).await);
    }
    for (what, body) in [
        ("commands", Some(json!({"text": "begin"}))),
        ("undo", None),
        ("seats/Stella/reissue", None),
    ] {
        let url = t.url(what);
        bodies.push(c.call(Method::POST, &url, None, body.as_ref()).await);
        bodies.push(
            c.call(Method::POST, &url, Some("wrong"), body.as_ref())
                .await,
        );
        bodies.push(
            c.call(Method::POST, &url, Some(&other.gm()), body.as_ref())
                .await,
        );
    }
    let first = bodies[0].json.clone();
    assert_eq!(first["error"], "unauthorized");
    for b in &bodies {
        assert_eq!(b.status, StatusCode::UNAUTHORIZED, "{}", b.text);
        assert_eq!(b.json, first);
    }

    // A player acts as itself only.
    for seat in ["Blaine", "gm", "Pat"] {
        let a = c.get(&t.url(&format!("view?seat={seat}")), &stella).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
        assert_eq!(a.json["error"], "not-your-view");
    }
    let a = c
        .call(Method::POST, &t.url("undo"), Some(&stella), None)
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    assert_eq!(a.json["error"], "gm-only");
    let a = c
        .call(
            Method::POST,
            &t.url("seats/Blaine/reissue"),
            Some(&stella),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let a = c.command(&t, &stella, "fate Kodos Technology Mind 3").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    let a = c.command(&t, &stella, "gm: begin").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    let a = c.command(&t, &stella, "begin").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    for what in reads {
        let a = c.get(&t.url(what), &stella).await;
        assert_eq!(a.status, StatusCode::OK);
        assert_eq!(a.json["seat"], "Stella", "{what}: {}", a.text);
    }
    assert_eq!(c.get(&t.url("view"), &t.gm()).await.json["seq"], 0);

    // The GM sees any seat's view, undoes, and reissues a token: the old one
    // stops working at once, the new one works.
    let a = c.get(&t.url("view?seat=stella"), &t.gm()).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["of"], "Stella");
    let a = c
        .call(
            Method::POST,
            &t.url("seats/stella/reissue"),
            Some(&t.gm()),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["seat"], "Stella");
    let fresh = a.json["token"].as_str().unwrap().to_string();
    assert!(
        a.json["link"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/t/{}#{fresh}", t.id))
    );
    assert_ne!(fresh, stella);
    assert_eq!(
        c.get(&t.url("view"), &stella).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(c.get(&t.url("view"), &fresh).await.status, StatusCode::OK);
    let a = c
        .call(
            Method::POST,
            &t.url("seats/Nobody/reissue"),
            Some(&t.gm()),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
}
story!(a_player_token_acts_for_no_other_seat, super::tokens);

async fn restart(db: Db) {
    let lines = script("bastards", "encounter.script");
    let half = lines.len() / 2;
    let (id, tokens) = {
        let store = db.open().await;
        let c = Client::new(store.clone());
        let t = c
            .create(json!({"system": "bastards", "example": "table", "seed": 1}))
            .await;
        play(&c, &t, &lines[..half]).await;
        store.close().await;
        (t.id.clone(), t.clone())
    };
    // Everything dropped; a new server on the same database.
    let store = db.open().await;
    let c = Client::new(store.clone());
    let listed = tabula_server::create::list(store.as_ref()).await.unwrap();
    assert!(listed.iter().any(|s| s.id == id));
    let before = c.get(&tokens.url("status"), &tokens.gm()).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    let answers = play(&c, &tokens, &lines[half..]).await;

    // The same table played without a restart, straight on the engine.
    let (text, files) = tabula_server::examples::table(SystemId::Bastards, "table").unwrap();
    let mut local =
        AnyTable::setup(SystemId::Bastards, text, &files, Seeded::from_seed(1)).unwrap();
    let mut local_answers = Vec::new();
    for line in &lines {
        let (seat, cmd) = split_line(line);
        let seat = match seat {
            Some(s) => local.resolve_seat(s).unwrap(),
            None => local.default_seat(),
        };
        let a = local.submit_text(&seat, cmd, Dice::Table).unwrap();
        local_answers.push(serde_json::to_value(a).unwrap());
    }
    // The first command after the restart rolled (drew) what an uninterrupted
    // table drew, and so did every later one.
    assert_eq!(answers, local_answers[half..].to_vec());
    // And the stored table is the uninterrupted table.
    let reloaded = tabula_server::state::load(store.as_ref(), &id)
        .await
        .unwrap();
    assert_eq!(reloaded.state(), local.state());
    assert_eq!(reloaded.roller(), local.roller());
}
story!(
    a_restart_brings_tables_back_with_the_same_dice,
    super::restart
);

async fn physical_dice(db: Db) {
    let c = Client::new(db.open().await);
    // Short values: "need 1 more d6", and nothing changes.
    let t = c
        .create(json!({"system": "tiers", "example": "table"}))
        .await;
    let john = t.token("John");
    let before = snapshot(&c, &t).await;
    let a = c
        .post(
            &t.url("commands"),
            &john,
            &json!({"text": "roll skill very-easy", "rolled": []}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(
        a.json["message"]
            .as_str()
            .unwrap()
            .contains("need 1 more d6"),
        "{}",
        a.text
    );
    let a = c
        .post(
            &t.url("commands"),
            &john,
            &json!({"text": "roll skill very-easy", "rolled": ["9"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    let a = c
        .post(
            &t.url("commands"),
            &john,
            &json!({"text": "roll skill very-easy", "rolled": ["6", "6"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert_eq!(snapshot(&c, &t).await, before);
    let a = c
        .post(
            &t.url("commands"),
            &john,
            &json!({"text": "roll skill very-easy", "rolled": ["6"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.json["events"].to_string().contains('6'));

    // Scratch's Combat Example with the book's dice, sent over the wire: each
    // command first without dice (the refusal says how many it needs), then
    // with exactly those.
    let t = c
        .create(json!({"system": "scratch", "example": "combat-example"}))
        .await;
    let dice: Vec<String> = tabula_server::examples::file(SystemId::Scratch, "combat-example.dice")
        .unwrap()
        .text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut next = 0;
    for line in script("scratch", "combat-example.script") {
        let (seat, text) = seat_of(&c, &t, &line).await;
        let tok = t.token(&seat);
        let mut rolled: Vec<String> = Vec::new();
        loop {
            let a = c
                .post(
                    &t.url("commands"),
                    &tok,
                    &json!({"text": text, "rolled": rolled}),
                )
                .await;
            if a.status == StatusCode::OK {
                break;
            }
            assert_eq!(
                a.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{line}: {}",
                a.text
            );
            let message = a.json["message"].as_str().unwrap();
            // "need 2 more d20": add that many (initiative ties included).
            assert!(message.contains("need"), "{line}: {message}");
            let need: usize = message
                .split_whitespace()
                .filter_map(|w| w.parse::<usize>().ok())
                .sum();
            assert!(need > 0 && next + need <= dice.len(), "{line}: {message}");
            rolled.extend(dice[next..next + need].iter().cloned());
            next += need;
        }
    }
    assert_eq!(next, dice.len(), "every die of the book's example was used");
}
story!(physical_dice_over_the_wire, super::physical_dice);

/// Issue 28, items 2, 3 and 6 over the wire: Stella's `rolled` cards go to
/// Cynthia's Skill Hand only, never to the Dealer's Fate Draw; the log and
/// the stored entries say they were typed; a table file with `dice =
/// "table"` refuses a player's `rolled`.
async fn typed_values(db: Db) {
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "bastards", "example": "table"}))
        .await;
    let stella = t.token("Stella");
    let fate = "fate Cynthia Business Mind 3";
    let before = snapshot(&c, &t).await;
    let a = c
        .post(
            &t.url("commands"),
            &stella,
            &json!({"text": fate, "rolled": ["2C", "3C", "4C", "5C"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    let message = a.json["message"].as_str().unwrap();
    assert!(message.contains("The Dealer's Fate Draw"), "{message}");
    assert!(!message.contains("left in the deck"), "{message}");
    assert_eq!(snapshot(&c, &t).await, before);
    let a = c
        .post(
            &t.url("commands"),
            &stella,
            &json!({"text": fate, "rolled": ["2C", "3C", "4C"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    for line in a.json["events"].as_array().unwrap() {
        assert_eq!(line["typed"], true, "{line}");
        assert!(
            line["text"]
                .as_str()
                .unwrap()
                .ends_with("(typed by Stella)")
        );
    }
    let log = c.get(&t.url("log"), &t.gm()).await;
    assert!(
        log.json["lines"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["typed"] == true),
        "{}",
        log.text
    );

    let (text, _) = tabula_server::examples::file(SystemId::Bastards, "table.toml")
        .map(|f| (f.text.to_string(), ()))
        .unwrap();
    let files: serde_json::Map<String, Value> = [
        "cynthia.toml",
        "kodos.toml",
        "investor.toml",
        "carlton.toml",
    ]
    .iter()
    .map(|n| {
        let f = tabula_server::examples::file(SystemId::Bastards, n).unwrap();
        (n.to_string(), Value::String(f.text.to_string()))
    })
    .collect();
    let t = c
        .create(json!({
            "system": "bastards",
            "table": format!("dice = \"table\"\n{text}"),
            "files": files,
        }))
        .await;
    let a = c
        .post(
            &t.url("commands"),
            &t.token("Stella"),
            &json!({"text": fate, "rolled": ["2C", "3C", "4C"]}),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(
        a.json["message"]
            .as_str()
            .unwrap()
            .contains("dice = \"table\""),
        "{}",
        a.text
    );
    let a = c.command(&t, &t.token("Stella"), fate).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}
story!(typed_values_over_the_wire, super::typed_values);

async fn undo(db: Db) {
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "bastards", "example": "table"}))
        .await;
    let first = c
        .command(&t, &t.token("Stella"), "fate Cynthia Business Mind 3")
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let a = c
        .call(
            Method::POST,
            &t.url("undo"),
            Some(&t.gm()),
            Some(&json!({"expect_seq": 0})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    let a = c
        .call(Method::POST, &t.url("undo"), Some(&t.gm()), None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["events"][0]["kind"], "undo");
    // The same command again draws the same cards (undo never rerolls).
    let again = c
        .command(&t, &t.token("Stella"), "fate Cynthia Business Mind 3")
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(
        first.json["events"][0]["event"],
        again.json["events"][0]["event"]
    );
    // Nothing left to undo after two undos.
    assert_eq!(
        c.call(Method::POST, &t.url("undo"), Some(&t.gm()), None)
            .await
            .status,
        StatusCode::OK
    );
    let a = c
        .call(Method::POST, &t.url("undo"), Some(&t.gm()), None)
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert_eq!(a.json["error"], "nothing-to-undo");
}
story!(undo_is_the_gms_and_never_rerolls, super::undo);

async fn policy(db: Db) {
    // The policy plays a participant's step for the seat that gives it, and
    // for no other seat; whose step it is is public.
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "scratch", "example": "table"}))
        .await;
    let a = c.get(&t.url("awaiting"), &t.gm()).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["awaiting"][0]["seat"], "gm", "{}", a.text);
    let first = c.command(&t, &t.gm(), "initiative").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let mut played = 0;
    for _ in 0..40 {
        let a = c.get(&t.url("awaiting"), &t.gm()).await;
        let Some(next) = a.json["awaiting"]
            .as_array()
            .and_then(|x| x.first())
            .cloned()
        else {
            break;
        };
        let Some(participant) = next["participant"].as_str() else {
            break;
        };
        let giver = next["seat"].as_str().unwrap().to_string();
        let token = if giver == "gm" {
            t.gm()
        } else {
            t.token(&giver)
        };
        // Another seat may not have the policy play it.
        let other = t
            .players()
            .into_iter()
            .map(|p| t.token(&p))
            .chain([t.gm()])
            .find(|tok| *tok != token)
            .unwrap();
        let refused = c
            .post(
                &t.url("policy"),
                &other,
                &json!({"participant": participant}),
            )
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert_eq!(refused.json["error"], "not-awaited", "{}", refused.text);
        let seq = a.json["seq"].as_u64().unwrap();
        let ok = c
            .post(
                &t.url("policy"),
                &token,
                &json!({"participant": participant, "expect_seq": seq}),
            )
            .await;
        assert_eq!(ok.status, StatusCode::OK, "{participant}: {}", ok.text);
        assert!(!ok.json["events"].as_array().unwrap().is_empty());
        played += 1;
    }
    assert!(played > 3, "the policy played {played} steps");
    // A name that is no participant is refused, naming the participants.
    let bad = c
        .post(&t.url("policy"), &t.gm(), &json!({"participant": "Nobody"}))
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("participant"), "{}", bad.text);
}
story!(
    the_policy_plays_a_step_for_the_seat_that_gives_it,
    super::policy
);

async fn two_servers(db: Db) {
    // Two servers on one store. Each brings its copy of a table up to date
    // before it reads or decides, so neither answers from a stale table.
    let a = Client::new(db.open().await);
    let b = Client::new(db.open().await);
    let t = a
        .create(json!({"system": "bastards", "example": "table", "seed": 1}))
        .await;
    assert_eq!(b.get(&t.url("status"), &t.gm()).await.json["seq"], 0);
    let r = a
        .command(&t, &t.token("Stella"), "fate Cynthia Business Mind 3")
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(b.get(&t.url("status"), &t.gm()).await.json["seq"], 1);
    let r = b.command(&t, &t.gm(), "begin").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = a
        .command(&t, &t.token("Stella"), "init Cynthia lowest")
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // Racing: both servers give commands at once. Every answer is 200: the
    // loser of the store's seq check catches up and decides again. The stored
    // log replays into the table both servers then hold.
    let mut tasks = Vec::new();
    for (i, line) in [
        "Blaine: init Kodos lowest",
        "gm: init investor lowest",
        "gm: init Bodyguard lowest",
        "gm: init Thugs lowest",
    ]
    .into_iter()
    .enumerate()
    {
        let c = if i % 2 == 0 { a.clone() } else { b.clone() };
        let t = t.clone();
        tasks.push(tokio::spawn(async move {
            let (seat, text) = split_line(line);
            let seat = seat.unwrap();
            let r = c.command(&t, &t.token(seat), text).await;
            assert_eq!(r.status, StatusCode::OK, "{line}: {}", r.text);
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let va = a.get(&t.url("view"), &t.gm()).await;
    let vb = b.get(&t.url("view"), &t.gm()).await;
    assert_eq!(va.json, vb.json);
    let stored = tabula_server::state::load(a.state.store().as_ref(), &t.id)
        .await
        .unwrap();
    assert_eq!(va.json["seq"].as_u64().unwrap(), stored.seq());
}
story!(two_servers_on_one_store, super::two_servers);

async fn racing(db: Db) {
    // Commands to one table race with the same expect_seq: exactly one of each
    // seat wins. The first to land moves the table; the other seat's command
    // was behind only by that row and the rules still take it (issue 27, bug
    // 14); each seat's second is behind by its own row: 409.
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "sour-grapes", "example": "table"}))
        .await;
    let mut tasks = Vec::new();
    for seat in ["Sam", "Ana", "Sam", "Ana"] {
        let c = c.clone();
        let t = t.clone();
        tasks.push(tokio::spawn(async move {
            c.post(
                &t.url("commands"),
                &t.token(seat),
                &json!({"text": "spend Stamina", "expect_seq": 0}),
            )
            .await
            .status
        }));
    }
    let mut ok = 0;
    for task in tasks {
        match task.await.unwrap() {
            StatusCode::OK => ok += 1,
            s => assert_eq!(s, StatusCode::CONFLICT),
        }
    }
    assert_eq!(ok, 2);
    // Different tables in parallel, many commands each: all land, in order.
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let c = c.clone();
        tasks.push(tokio::spawn(async move {
            let t = c
                .create(json!({"system": "sour-grapes", "example": "table"}))
                .await;
            for _ in 0..5 {
                let a = c.command(&t, &t.gm(), "rest").await;
                assert_eq!(a.status, StatusCode::OK, "{}", a.text);
            }
            c.get(&t.url("status"), &t.gm()).await.json["seq"]
                .as_u64()
                .unwrap()
        }));
    }
    for task in tasks {
        assert!(task.await.unwrap() >= 5);
    }
}
story!(commands_to_one_table_go_one_at_a_time, super::racing);

/// POST /commands with `expect_seq` as `seat`.
async fn send_at(c: &Client, t: &Table, seat: &str, text: &str, seq: u64) -> (StatusCode, Value) {
    let a = c
        .post(
            &t.url("commands"),
            &t.token(seat),
            &json!({"text": text, "expect_seq": seq}),
        )
        .await;
    (a.status, a.json)
}

async fn answering_at_once(db: Db) {
    // Issue 27, bug 14: two seats answer the same Sour Grapes step (each its
    // character's initiative at the start of an Event, "Initiative") having
    // seen the same seq. Both land: the second was behind only by the other
    // seat's row, and the rules accept it on the table as it is now.
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "sour-grapes", "example": "table", "seed": 1}))
        .await;
    let lines: Vec<String> = script("sour-grapes", "encounter.script")
        .into_iter()
        .take_while(|l| !l.contains("initiative"))
        .collect();
    assert!(
        lines.last().is_some_and(|l| l.contains("afflict")),
        "{lines:?}"
    );
    play(&c, &t, &lines).await;
    let seen = c.get(&t.url("status"), &t.gm()).await.json["seq"]
        .as_u64()
        .unwrap();
    let (s, sam) = send_at(&c, &t, "Sam", "initiative Agility 5", seen).await;
    assert_eq!(s, StatusCode::OK, "{sam}");
    let (s, ana) = send_at(&c, &t, "Ana", "initiative Perception 7", seen).await;
    assert_eq!(
        s,
        StatusCode::OK,
        "Ana's answer, sent at the same seq: {ana}"
    );
    let (sam_seq, ana_seq) = (sam["seq"].as_u64().unwrap(), ana["seq"].as_u64().unwrap());
    assert!(ana_seq > sam_seq);
    // A seat's own earlier command moved the table: still 409, nothing changes.
    let before = snapshot(&c, &t).await;
    let (s, e) = send_at(&c, &t, "Sam", "initiative Agility 5", seen).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"], "stale", "{e}");
    assert_eq!(snapshot(&c, &t).await, before);
    // Behind only by another seat's rows, but the rules refuse it now (Sam's
    // character has its initiative): 409 `stale`, not a refusal; nothing
    // changes.
    let (s, e) = send_at(&c, &t, "Sam", "initiative Agility 5", sam_seq).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"], "stale", "{e}");
    assert_eq!(snapshot(&c, &t).await, before);
    // An `expect_seq` ahead of the table is stale too.
    let brute = "initiative Might 5 as \"Tavern Brute\"";
    let (s, e) = send_at(&c, &t, "gm", brute, ana_seq + 1).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(snapshot(&c, &t).await, before);
    // An undo is no other seat's answer: a seq from before it is stale, even
    // for a command the rules would take.
    let u = c
        .post(&t.url("undo"), &t.gm(), &json!({"expect_seq": ana_seq}))
        .await;
    assert_eq!(u.status, StatusCode::OK, "{}", u.text);
    let undone = u.json["seq"].as_u64().unwrap();
    let before = snapshot(&c, &t).await;
    let (s, e) = send_at(&c, &t, "Ana", "initiative Perception 7", ana_seq).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(snapshot(&c, &t).await, before);
    let (s, e) = send_at(&c, &t, "Ana", "initiative Perception 7", undone).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    // The GM, behind by Ana's new answer only, answers for an NPC: accepted.
    let (s, e) = send_at(&c, &t, "gm", brute, undone).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let log = c.get(&t.url("log"), &t.gm()).await.text;
    assert!(log.contains("Tavern Brute"), "{log}");
}
story!(
    seats_answering_the_same_step_at_once_both_land,
    super::answering_at_once
);

#[tokio::test]
async fn a_create_token_closes_table_creation_and_the_table_limit_holds() {
    let db = Db::sqlite();
    let store = db.open().await;
    let settings = Settings {
        create_token_hash: Some(tabula_server::auth::hash_token("s3cret")),
        base_url: "http://tabula.example".into(),
        max_tables: 2,
        ..Settings::default()
    };
    let c = Client::with_state(AppState::with_settings(store, settings));
    let body = json!({"system": "sapio", "example": "table"});
    let a = c.call(Method::POST, "/api/tables", None, Some(&body)).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    let a = c
        .call(Method::POST, "/api/tables", Some("wrong"), Some(&body))
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    for _ in 0..2 {
        let a = c
            .call(Method::POST, "/api/tables", Some("s3cret"), Some(&body))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        let link = a.json["seats"][0]["link"].as_str().unwrap();
        assert!(link.starts_with("http://tabula.example/t/"), "{link}");
        let token = a.json["seats"][0]["token"].as_str().unwrap();
        assert!(link.ends_with(&format!("#{token}")));
    }
    // The lobby's list: closed like creation, and never a token.
    let a = c.call(Method::GET, "/api/tables", None, None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    let a = c
        .call(Method::GET, "/api/tables", Some("s3cret"), None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let tables = a.json["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    assert!(
        tables
            .iter()
            .all(|t| t["system"] == "sapio" && t["id"].is_string())
    );
    assert!(!a.text.contains("token"), "{}", a.text);
    let a = c
        .call(Method::POST, "/api/tables", Some("s3cret"), Some(&body))
        .await;
    assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{}", a.text);
    assert_eq!(a.json["error"], "table-limit");
    assert!(
        a.json["message"]
            .as_str()
            .unwrap()
            .contains("maximum of 2 tables")
    );
}

/// Issue 27, bug 6: Tiers' `roll` takes "a number or a difficulty" (Tiers,
/// "Asking for Rolls", "Suggested Difficulty Curve"), so the legal spec the
/// page draws its form from offers the Goal as a number or one of the curve's
/// names, not a number box; a name the spec offers is accepted as sent.
#[tokio::test]
async fn the_tiers_goal_is_offered_as_a_number_or_a_difficulty() {
    let db = Db::sqlite();
    let c = Client::new(db.open().await);
    let t = c
        .create(json!({"system": "tiers", "example": "table", "seed": 1}))
        .await;
    let john = t.token("John");
    let legal = c.get(&t.url("legal"), &john).await;
    assert_eq!(legal.status, StatusCode::OK, "{}", legal.text);
    let roll = legal.json["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "roll")
        .unwrap_or_else(|| panic!("roll is offered: {}", legal.text))
        .clone();
    let goal = roll["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "goal")
        .unwrap_or_else(|| panic!("roll has a goal: {roll}"))
        .clone();
    assert_eq!(goal["kind"]["kind"], "number-or-name", "{goal}");
    assert_eq!(goal["kind"]["min"], 0, "{goal}");
    assert_eq!(
        goal["kind"]["names"],
        json!([
            "very-easy",
            "easy",
            "kind-of-hard",
            "hard",
            "extremely-hard",
            "heroic",
            "almost-impossible"
        ]),
        "{goal}"
    );
    let a = c.command(&t, &john, "roll skill very-easy").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

#[tokio::test]
async fn the_examples_and_the_page_are_served_without_files() {
    let db = Db::sqlite();
    let c = Client::new(db.open().await);
    let a = c.call(Method::GET, "/api/examples", None, None).await;
    assert_eq!(a.status, StatusCode::OK);
    let systems: Vec<&str> = a.json["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["system"].as_str().unwrap())
        .collect();
    assert_eq!(
        systems,
        ["sour-grapes", "scratch", "tiers", "bastards", "sapio"]
    );
    // The lobby offers the table files only, never a character sheet as a
    // table (issue 27, bug 10).
    let tables: Vec<(String, Vec<String>)> = a.json["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let names = e["tables"].as_array().unwrap();
            (
                e["system"].as_str().unwrap().to_string(),
                names
                    .iter()
                    .map(|n| n.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let want: Vec<(String, Vec<String>)> = [
        ("sour-grapes", vec!["table"]),
        ("scratch", vec!["combat-example", "table"]),
        ("tiers", vec!["table"]),
        ("bastards", vec!["indirect", "table"]),
        ("sapio", vec!["table"]),
    ]
    .into_iter()
    .map(|(s, n)| (s.to_string(), n.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(tables, want);
    let page = c
        .call(Method::GET, &format!("/t/{}", "a".repeat(32)), None, None)
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("location.hash"));
}

async fn store_down(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let t = c
        .create(json!({"system": "sapio", "example": "table"}))
        .await;
    store.close().await;
    // The store is gone: a generic 500 (the details go to the log only) and
    // an unhealthy /healthz; nothing panics.
    let a = c.get(&t.url("view"), &t.gm()).await;
    assert_eq!(a.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", a.text);
    assert_eq!(
        a.json,
        json!({"error": "internal", "message": "internal error; it has been logged"})
    );
    let h = c.call(Method::GET, "/healthz", None, None).await;
    assert_eq!(h.status, StatusCode::SERVICE_UNAVAILABLE);
    let a = c
        .call(
            Method::POST,
            "/api/tables",
            None,
            Some(&json!({"system": "sapio", "example": "table"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(!a.text.to_lowercase().contains("sql"), "{}", a.text);
}
story!(a_failing_store_is_a_generic_500, super::store_down);
