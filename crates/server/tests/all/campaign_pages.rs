//! Issue 28, item 4: `GET /api/campaigns/ID` answers its characters a page at
//! a time (`?characters_after=CID&characters_limit=N`), in the order they were
//! added, with `characters_total` and `characters_next`. The store is wrapped
//! in a counter of the characters it hands back, so the tests check that a
//! page reads only its characters (rows, not time). On SQLite and PostgreSQL.

use crate::common;
use crate::log_pages::Counting;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use proptest::prelude::*;
use serde_json::{Value, json};

use tabula_server::{
    AppState, DEFAULT_CHARACTERS_PAGE, MAX_CHARACTERS_PAGE, MAX_CHARACTERS_PAGE_BYTES,
};
use tabula_store::Store;

use common::{Campaign, Client, Db};

/// A Tiers sheet (the book's John) named `name`.
fn sheet(name: &str) -> String {
    let john = std::fs::read_to_string(format!(
        "{}/../../examples/tiers/john.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the example sheet");
    john.replace("name = \"John\"", &format!("name = {name:?}"))
}

/// A Tiers campaign with the GM, alice and bob.
async fn campaign(c: &Client) -> Campaign {
    let a = c
        .call(
            Method::POST,
            "/api/campaigns",
            None,
            Some(&json!({"system": "tiers", "name": "Pages", "players": ["alice", "bob"]})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    Campaign::from_created(&a.json)
}

/// Add character `name` owned by `owner` (as the GM); its id.
async fn add(c: &Client, camp: &Campaign, name: &str, owner: &str) -> String {
    let a = c
        .post(
            &format!("/api/campaigns/{}/characters", camp.id),
            &camp.token("gm"),
            &json!({"sheet": sheet(name), "owner": owner}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.json["id"].as_str().expect("an id").to_string()
}

/// `GET /api/campaigns/ID?QUERY` as `seat`.
async fn show(c: &Client, camp: &Campaign, seat: &str, query: &str) -> common::Answer {
    c.get(
        &format!("/api/campaigns/{}{query}", camp.id),
        &camp.token(seat),
    )
    .await
}

fn ids(page: &Value) -> Vec<String> {
    page["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .map(|ch| ch["id"].as_str().expect("id").to_string())
        .collect()
}

/// Every page `seat` gets with `characters_limit=limit`, walked by
/// `characters_next` from the first; each page is checked (at most `limit`
/// characters, `characters_total` the same on each, the next cursor its
/// last character's id). Returns the ids in the order read and the total.
async fn walk(c: &Client, camp: &Campaign, seat: &str, limit: u32) -> (Vec<String>, u64) {
    let mut all = Vec::new();
    let mut total = None;
    let mut query = format!("?characters_limit={limit}");
    for _ in 0..10_000 {
        let a = show(c, camp, seat, &query).await;
        assert_eq!(a.status, StatusCode::OK, "{query}: {}", a.text);
        let page = ids(&a.json);
        assert!(page.len() <= limit as usize, "{query}: {}", a.text);
        let t = a.json["characters_total"].as_u64().expect("a total");
        assert_eq!(*total.get_or_insert(t), t, "the total moved");
        all.extend(page.iter().cloned());
        match a.json["characters_next"].as_str() {
            None => {
                assert!(a.json["characters_next"].is_null(), "{}", a.text);
                return (all, t);
            }
            Some(next) => {
                assert_eq!(Some(next), page.last().map(String::as_str), "{}", a.text);
                query = format!("?characters_after={next}&characters_limit={limit}");
            }
        }
    }
    panic!("the pages never ended");
}

/// A 400 `bad-request` whose message names `field`.
fn refused(a: &common::Answer, field: &str) {
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(a.json["error"], "bad-request", "{}", a.text);
    let message = a.json["message"].as_str().unwrap_or_default();
    assert!(message.contains(field), "{field} not named: {}", a.text);
}

async fn pages(db: Db) {
    let counting = Counting::new(db.open().await);
    let store: Arc<dyn Store> = counting.clone();
    let c = Client::with_state(AppState::new(store));
    let camp = campaign(&c).await;

    // No character yet: an empty page, nothing next.
    let a = show(&c, &camp, "gm", "").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["characters"], json!([]));
    assert_eq!(a.json["characters_total"], 0);
    assert!(a.json["characters_next"].is_null(), "{}", a.text);

    // 53 characters (past one default page): alice every third, bob every
    // fifth, the GM's NPCs the rest, interleaved.
    let n = DEFAULT_CHARACTERS_PAGE as usize + 3;
    let mut added = Vec::new();
    for i in 0..n {
        let owner = if i % 3 == 0 {
            "alice"
        } else if i % 5 == 0 {
            "bob"
        } else {
            "gm"
        };
        added.push((add(&c, &camp, &format!("Hero {i}"), owner).await, owner));
    }
    let everyone: Vec<String> = added.iter().map(|(id, _)| id.clone()).collect();
    let own = |seat: &str| -> Vec<String> {
        added
            .iter()
            .filter(|(_, o)| *o == seat)
            .map(|(id, _)| id.clone())
            .collect()
    };

    // The default page: the first 50 in the order added, the store asked for
    // those only.
    counting.take_characters();
    let a = show(&c, &camp, "gm", "").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(ids(&a.json), everyone[..DEFAULT_CHARACTERS_PAGE as usize]);
    assert_eq!(a.json["characters_total"], n);
    assert_eq!(a.json["characters_next"], json!(everyone[49]));
    assert_eq!(
        counting.take_characters(),
        u64::from(DEFAULT_CHARACTERS_PAGE)
    );
    // Each character as before: its sheet and the rules it breaks.
    let first = &a.json["characters"][0];
    assert_eq!(first["name"], "Hero 0");
    assert_eq!(first["owner"], "alice");
    assert_eq!(first["needs_edit"], json!([]));
    assert!(
        first["sheet"]
            .as_str()
            .unwrap_or_default()
            .contains("Hero 0")
    );

    // A small page reads only its own characters from the store.
    let a = show(&c, &camp, "gm", "?characters_limit=4").await;
    assert_eq!(ids(&a.json), everyone[..4]);
    assert_eq!(counting.take_characters(), 4);
    let a = show(
        &c,
        &camp,
        "gm",
        &format!("?characters_after={}&characters_limit=4", everyone[20]),
    )
    .await;
    assert_eq!(ids(&a.json), everyone[21..25]);
    assert_eq!(a.json["characters_next"], json!(everyone[24]));
    assert_eq!(counting.take_characters(), 4);
    // The last page: what is left, nothing next.
    let a = show(
        &c,
        &camp,
        "gm",
        &format!("?characters_after={}&characters_limit=10", everyone[n - 3]),
    )
    .await;
    assert_eq!(ids(&a.json), everyone[n - 2..]);
    assert!(a.json["characters_next"].is_null(), "{}", a.text);
    assert_eq!(counting.take_characters(), 2);
    // After the very last: an empty page, nothing next, the total as ever.
    let a = show(
        &c,
        &camp,
        "gm",
        &format!("?characters_after={}", everyone[n - 1]),
    )
    .await;
    assert_eq!(a.json["characters"], json!([]));
    assert!(a.json["characters_next"].is_null(), "{}", a.text);
    assert_eq!(a.json["characters_total"], n);
    // The largest page holds everyone here.
    let a = show(
        &c,
        &camp,
        "gm",
        &format!("?characters_limit={MAX_CHARACTERS_PAGE}"),
    )
    .await;
    assert_eq!(ids(&a.json), everyone);
    assert!(a.json["characters_next"].is_null(), "{}", a.text);
    counting.take_characters();

    // Walking by `characters_next` finds everyone once, in order, at every size.
    for limit in [1, 2, 7, 50, 53, 200] {
        let (seen, total) = walk(&c, &camp, "gm", limit).await;
        assert_eq!(seen, everyone, "limit {limit}");
        assert_eq!(total, n as u64);
    }

    // A player sees only its own characters, paged the same way.
    for seat in ["alice", "bob"] {
        let mine = own(seat);
        for limit in [1, 3, 200] {
            let (seen, total) = walk(&c, &camp, seat, limit).await;
            assert_eq!(seen, mine, "{seat}, limit {limit}");
            assert_eq!(total, mine.len() as u64);
        }
        let a = show(&c, &camp, seat, "?characters_limit=2").await;
        assert!(
            a.json["characters"]
                .as_array()
                .unwrap()
                .iter()
                .all(|ch| ch["owner"] == seat),
            "{}",
            a.text
        );
        counting.take_characters();
        let a = show(&c, &camp, seat, "?characters_limit=2").await;
        assert_eq!(ids(&a.json), mine[..2]);
        assert_eq!(counting.take_characters(), 2, "only {seat}'s page is read");
    }
    // Another seat's character is no cursor for a player (the same answer as
    // an unknown one, so it tells nothing); it is for the GM.
    let bobs = own("bob")[0].clone();
    refused(
        &show(&c, &camp, "alice", &format!("?characters_after={bobs}")).await,
        "characters_after",
    );
    assert_eq!(
        show(&c, &camp, "gm", &format!("?characters_after={bobs}"))
            .await
            .status,
        StatusCode::OK
    );

    // Bad values: 400 naming the field, nothing read.
    counting.take_characters();
    for query in [
        "?characters_limit=0",
        "?characters_limit=201",
        "?characters_limit=-1",
        "?characters_limit=ten",
        "?characters_limit=99999999999999999999999",
    ] {
        refused(&show(&c, &camp, "gm", query).await, "characters_limit");
    }
    for query in [
        "?characters_after=0123456789abcdef0123456789abcdef",
        "?characters_after=",
        "?characters_after=%00",
    ] {
        refused(&show(&c, &camp, "gm", query).await, "characters_after");
    }
    let a = show(&c, &camp, "gm", "?limit=5").await;
    refused(&a, "limit");
    assert_eq!(counting.take_characters(), 0);
    // A wrong token is still a 401, whatever the query.
    let a = c
        .get(
            &format!("/api/campaigns/{}?characters_limit=3", camp.id),
            "0123456789abcdef0123456789abcdef",
        )
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);

    // What the GM may open next reads no character.
    let a = c
        .get(
            &format!("/api/campaigns/{}/encounters", camp.id),
            &camp.token("gm"),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(counting.take_characters(), 0);

    // A character added between two pages comes last: the walk goes on
    // where it was and finds it.
    let a = show(&c, &camp, "gm", "?characters_limit=40").await;
    assert_eq!(counting.take_characters(), 40);
    let next = a.json["characters_next"].as_str().unwrap().to_string();
    let late = add(&c, &camp, "Latecomer", "bob").await;
    // Adding a character reads no other character's sheet.
    assert_eq!(counting.take_characters(), 0);
    let a = show(
        &c,
        &camp,
        "gm",
        &format!("?characters_after={next}&characters_limit=200"),
    )
    .await;
    let mut rest = everyone[40..].to_vec();
    rest.push(late);
    assert_eq!(ids(&a.json), rest);
    assert_eq!(a.json["characters_total"], n + 1);
    counting.take_characters();

    // Reissuing a seat's link reads no character either.
    let a = c
        .post(
            &format!("/api/campaigns/{}/seats/bob/reissue", camp.id),
            &camp.token("gm"),
            &json!({}),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(counting.take_characters(), 0);
}

story!(pages_walk_every_character_once, super::pages);

/// `sheet(name)` with comment lines until it takes about `bytes`.
fn padded(name: &str, bytes: usize) -> String {
    let mut s = sheet(name);
    let line = format!("# {}\n", "x".repeat(1021));
    while s.len() + line.len() <= bytes {
        s.push_str(&line);
    }
    s
}

/// Large sheets: a page ends where its sheets pass
/// `MAX_CHARACTERS_PAGE_BYTES` (one character at least), whatever
/// `characters_limit` says; `characters_next` still walks everyone.
async fn large_sheets(db: Db) {
    let counting = Counting::new(db.open().await);
    let store: Arc<dyn Store> = counting.clone();
    let c = Client::with_state(AppState::new(store));
    let camp = campaign(&c).await;
    // Five sheets of 900 KiB (4.4 MiB, under the campaign's 16 MiB): two fit
    // in a page's 2 MiB.
    let size = 900 * 1024;
    assert!(2 * size <= MAX_CHARACTERS_PAGE_BYTES as usize);
    assert!(3 * size > MAX_CHARACTERS_PAGE_BYTES as usize);
    let mut everyone = Vec::new();
    for i in 0..5 {
        let name = format!("Giant {i}");
        let a = c
            .post(
                &format!("/api/campaigns/{}/characters", camp.id),
                &camp.token("gm"),
                &json!({"sheet": padded(&name, size), "owner": "alice"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        everyone.push(a.json["id"].as_str().expect("an id").to_string());
    }
    counting.take_characters();
    let a = show(&c, &camp, "gm", "?characters_limit=200").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(ids(&a.json), everyone[..2]);
    assert_eq!(a.json["characters_next"], json!(everyone[1]));
    assert_eq!(a.json["characters_total"], 5);
    assert_eq!(
        counting.take_characters(),
        2,
        "only the page's sheets are read"
    );
    assert!(a.text.len() < 3 << 20, "{} bytes", a.text.len());
    for seat in ["gm", "alice"] {
        let (seen, total) = walk(&c, &camp, seat, 200).await;
        assert_eq!(seen, everyone, "{seat}");
        assert_eq!(total, 5);
    }
    // The last page: the last giant, nothing next.
    let a = show(
        &c,
        &camp,
        "alice",
        &format!("?characters_after={}&characters_limit=1", everyone[3]),
    )
    .await;
    assert_eq!(ids(&a.json), everyone[4..]);
    assert!(a.json["characters_next"].is_null(), "{}", a.text);
}

story!(
    a_page_of_large_sheets_ends_at_its_bytes,
    super::large_sheets
);

/// Walk a campaign whose characters have random owners with a random page
/// size, as every seat: each sees exactly its characters (the GM all), in
/// the order added, each once.
async fn random_walk(owners: Vec<u8>, limit: u32) {
    let db = Db::sqlite();
    let c = Client::new(db.open().await);
    let camp = campaign(&c).await;
    let seats = ["gm", "alice", "bob"];
    let mut added = Vec::new();
    for (i, o) in owners.iter().enumerate() {
        let owner = seats[usize::from(*o) % seats.len()];
        added.push((add(&c, &camp, &format!("Hero {i}"), owner).await, owner));
    }
    for seat in seats {
        let expected: Vec<String> = added
            .iter()
            .filter(|(_, o)| seat == "gm" || *o == seat)
            .map(|(id, _)| id.clone())
            .collect();
        let (seen, total) = walk(&c, &camp, seat, limit).await;
        assert_eq!(seen, expected, "{seat}, limit {limit}");
        assert_eq!(total, expected.len() as u64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 8,
        max_shrink_iters: 16,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// `characters_next` walks every character a seat may see, with no
    /// duplicate and no loss, whatever the owners and the page size.
    #[test]
    fn next_walks_every_visible_character_once(
        owners in proptest::collection::vec(0u8..3, 0..24),
        limit in 1u32..9,
    ) {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(random_walk(owners, limit));
    }
}
