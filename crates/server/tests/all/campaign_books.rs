//! Issue 29, acceptance: "A campaign of each book plays two encounters in a
//! row in which every lasting change the book names happens at least once
//! ... ending both without a refusal, on SQLite and PostgreSQL." Tiers and
//! Sour Grapes are in `campaign.rs`; here Scratch RPS, A Game of Bastards and
//! The Sapio System: each campaign imports the book's example characters,
//! opens a table from the campaign with the example table file, plays, ends
//! it, finds the lasting changes on the campaign's sheets, advances between
//! the encounters, and opens and ends a second table. Every history replays.

use crate::common;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use common::{Campaign, Client, Db, Table, character_named, split_line};
use std::sync::Arc;
use tabula_store::Store;

/// `examples/SYSTEM/NAME`.
fn example(system: &str, name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/{system}/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example file")
}

/// `POST /api/campaigns` (201), then each `(seat, file)` of `examples/SYSTEM/`
/// imported by that seat.
async fn campaign(
    c: &Client,
    system: &str,
    name: &str,
    players: &[&str],
    settings: Option<String>,
    characters: &[(&str, &str)],
) -> Campaign {
    let mut body = json!({"system": system, "name": name, "players": players});
    if let Some(s) = settings {
        body["settings"] = Value::String(s);
    }
    let a = c
        .call(Method::POST, "/api/campaigns", None, Some(&body))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let camp = Campaign::from_created(&a.json);
    for (seat, file) in characters {
        let a = c
            .post(
                &format!("/api/campaigns/{}/characters", camp.id),
                &camp.token(seat),
                &json!({"sheet": example(system, file), "file": file, "imported": true}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{seat} {file}: {}", a.text);
    }
    camp
}

/// The sheet text of the campaign's character `name`.
async fn sheet_of(c: &Client, camp: &Campaign, name: &str) -> String {
    character_named(c, camp, name).await["sheet"]
        .as_str()
        .expect("a sheet")
        .to_string()
}

/// A table opened from the campaign with table file `table` (201); each seat
/// plays with its campaign token.
async fn open_table(c: &Client, camp: &Campaign, table: &str) -> Table {
    let a = c
        .post(
            &format!("/api/campaigns/{}/tables", camp.id),
            &camp.token("gm"),
            &json!({"table": table, "seed": 1}),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let mut t = Table::from_created(&a.json);
    for seat in &mut t.seats {
        seat.2 = camp.token(&seat.0);
    }
    t
}

/// Play `lines` (`SEAT: COMMAND`; a line without a seat is for the seat whose
/// turn it is); every line must be accepted.
async fn play<S: AsRef<str>>(c: &Client, t: &Table, lines: &[S]) {
    for line in lines {
        let line = line.as_ref();
        let (seat, text) = split_line(line);
        let seat = match seat {
            Some(s) => s.to_string(),
            None => {
                let st = c.get(&t.url("status"), &t.gm()).await;
                st.json["turn"].as_str().unwrap_or("gm").to_string()
            }
        };
        let a = c.command(t, &t.token(&seat), text).await;
        assert_eq!(a.status, StatusCode::OK, "{line}: {}", a.text);
    }
}

/// A sheet's lines without comments or blank lines, sorted: the same entries
/// however the sheet was written out.
fn entries(sheet: &str) -> Vec<&str> {
    let mut v: Vec<&str> = sheet
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    v.sort_unstable();
    v
}

/// The first object anywhere in `v` whose `name` is `name` and that has `key`
/// (a combatant in a table's view).
fn named<'a>(v: &'a Value, name: &str, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) if m.get("name").is_some_and(|n| n == name) && m.contains_key(key) => {
            Some(v)
        }
        Value::Object(m) => m.values().find_map(|x| named(x, name, key)),
        Value::Array(a) => a.iter().find_map(|x| named(x, name, key)),
        _ => None,
    }
}

/// `POST /api/tables/ID/end` as the GM: no refusal.
async fn end(c: &Client, t: &Table) {
    let a = c
        .call(Method::POST, &t.url("end"), Some(&t.gm()), None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}

/// Advancement command `command` for the campaign's character `name` as `seat`
/// (200).
async fn advance(c: &Client, camp: &Campaign, name: &str, seat: &str, command: &str) -> Value {
    let ch = character_named(c, camp, name).await;
    let id = ch["id"].as_str().expect("id");
    let a = c
        .post(
            &format!("/api/campaigns/{}/characters/{id}/advance", camp.id),
            &camp.token(seat),
            &json!({ "command": command }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{name}: {command}: {}", a.text);
    a.json
}

/// The history of each character named in `only` (every character when
/// empty) replays to its stored sheet.
async fn every_history_replays(c: &Client, store: &Arc<dyn Store>, camp: &Campaign, only: &[&str]) {
    let a = c
        .get(&format!("/api/campaigns/{}", camp.id), &camp.token("gm"))
        .await;
    for ch in a.json["characters"].as_array().expect("characters") {
        if !only.is_empty() && !only.iter().any(|n| ch["name"] == *n) {
            continue;
        }
        let id = ch["id"].as_str().expect("id");
        let record = store
            .character(&camp.id, id)
            .await
            .expect("store")
            .expect("the character");
        tabula_server::campaign::replay(store.as_ref(), &camp.id, &record)
            .await
            .expect("the history replays");
    }
}

/// Scratch RPS, "Support Abilities" (craftsmanship bonuses last "until he
/// removes it or they are no longer traveling companions"), R-SCR-8 (the GM
/// awards CP, `awarded_cp`; `raise` spends one) and R-SCR-9 (the campaign's
/// setting rules): a campaign set to the example table's 14 CP / level 8
/// seats every book character. Encounter 1 is the book's example encounter:
/// hit points do not last, so each sheet comes back as imported. Between the
/// encounters the GM awards Flipfire a CP and she raises craftsmanship. At the
/// second table she crafts Zimzambamalam a bonus before the encounter: it is
/// written on his sheet and is back at a third table where they travel
/// together again.
async fn scratch_two_encounters(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = campaign(
        &c,
        "scratch",
        "Outlaws",
        &["alice", "bob"],
        Some(example("scratch", "campaign-rules.toml")),
        &[
            ("alice", "chokestar.toml"),
            ("bob", "flipfire.toml"),
            ("bob", "zimzambamalam.toml"),
            ("gm", "breakhelm-x-19.toml"),
            ("gm", "the-boss.toml"),
        ],
    )
    .await;
    let names = [
        "Chokestar",
        "Flipfire",
        "Zimzambamalam",
        "Breakhelm X-19",
        "The Boss",
    ];
    let mut imported = Vec::new();
    for name in names {
        imported.push(sheet_of(&c, &camp, name).await);
    }
    let table = example("scratch", "table.toml");

    // Encounter 1: the book's example encounter, damage done on every side.
    let t1 = open_table(&c, &camp, &table).await;
    // (`status` is the terminal's; the server has `GET .../status`.)
    let lines: Vec<String> = common::script("scratch", "encounter.script")
        .into_iter()
        .filter(|l| l != "status")
        .collect();
    play(&c, &t1, &lines).await;
    end(&c, &t1).await;
    for (name, before) in names.iter().zip(&imported) {
        let after = sheet_of(&c, &camp, name).await;
        assert!(!after.contains("hit_points"), "{name}: {after}");
        assert_eq!(
            entries(&after),
            entries(before),
            "{name}: hit points do not last"
        );
    }

    // Between the encounters: the GM awards a CP, Flipfire's player spends it.
    advance(&c, &camp, "Flipfire", "gm", "award-cp 1 for the rescue").await;
    advance(&c, &camp, "Flipfire", "bob", "raise craftsmanship").await;
    let flipfire = sheet_of(&c, &camp, "Flipfire").await;
    assert!(flipfire.contains("awarded_cp = 1"), "{flipfire}");
    assert!(flipfire.contains("craftsmanship = 1"), "{flipfire}");

    // Encounter 2: Flipfire crafts Zimzambamalam's toughness before it starts.
    let t2 = open_table(&c, &camp, &table).await;
    play(&c, &t2, &["bob: craft Flipfire Zimzambamalam toughness"]).await;
    end(&c, &t2).await;
    let zim = sheet_of(&c, &camp, "Zimzambamalam").await;
    assert!(zim.contains("crafted"), "{zim}");
    assert!(zim.contains("crafter = \"flipfire\""), "{zim}");
    assert_eq!(
        sheet_of(&c, &camp, "Flipfire").await,
        flipfire,
        "the crafter's sheet keeps her award and raise"
    );

    // Together again at a third table: the bonus is back.
    let t3 = open_table(&c, &camp, &table).await;
    let view = c.get(&t3.url("view"), &t3.token("bob")).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    let zim_there = named(&view.json, "Zimzambamalam", "states").expect("Zimzambamalam");
    assert_eq!(zim_there["states"], json!(["+1 toughness"]), "{zim_there}");
    end(&c, &t3).await;
    assert_eq!(sheet_of(&c, &camp, "Zimzambamalam").await, zim);
    // Every history replays, checked against the campaign's setting (R-SCR-9:
    // Zimzambamalam and Breakhelm X-19 are above the book's 10 CP / level 4).
    every_history_replays(&c, &store, &camp, &[]).await;
    store.close().await;
}

story!(
    scratch_a_campaign_keeps_awarded_cp_and_craftsmanship_bonuses_over_two_encounters,
    super::scratch_two_encounters
);

/// A Game of Bastards, "Lasting changes" (docs/systems/bastards.md decisions
/// 1-5: pools and Wildcards carry over, one empty pool starts the character
/// Desperate, R-GB-5; XP comes from the Dealer's `award` and is spent between
/// encounters, "Points & Costs"). Encounter 1 is the book's investor's office:
/// the investor's MP is emptied and written on his sheet. Between the
/// encounters the Dealer awards Kodos XP and Blaine spends one on Mind, and
/// no one is rested. The second table opens with the investor
/// Desperate (and Kodos, his BP emptied), and ends without a refusal; then the
/// Dealer's `recover` restores the investor.
async fn bastards_two_encounters(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = campaign(
        &c,
        "bastards",
        "Bastards",
        &["Stella", "Blaine", "Pat"],
        None,
        &[
            ("Stella", "cynthia.toml"),
            ("Blaine", "kodos.toml"),
            ("Pat", "carlton.toml"),
            ("gm", "investor.toml"),
        ],
    )
    .await;
    let table = example("bastards", "table.toml");

    // Encounter 1: the book's Opposition, played to the Dealer's `finish`.
    let t1 = open_table(&c, &camp, &table).await;
    play(&c, &t1, &common::script("bastards", "encounter.script")).await;
    end(&c, &t1).await;
    let investor = sheet_of(&c, &camp, "The investor").await;
    assert!(investor.contains("pools"), "{investor}");
    assert!(investor.contains("MP = 0"), "his MP emptied: {investor}");
    assert!(investor.contains("LP = 14"), "{investor}");
    let kodos = sheet_of(&c, &camp, "Kodos").await;
    assert!(kodos.contains("BP = 0"), "{kodos}");
    let cynthia = sheet_of(&c, &camp, "Cynthia").await;
    assert!(cynthia.contains("BP = 8"), "{cynthia}");
    assert!(cynthia.contains("name = \"Cane sword\""), "{cynthia}");

    // Between the encounters: XP awarded and spent.
    advance(&c, &camp, "Kodos", "gm", "award 2").await;
    advance(&c, &camp, "Kodos", "Blaine", "raise mind").await;
    let kodos = sheet_of(&c, &camp, "Kodos").await;
    assert!(kodos.contains("mind = 4"), "{kodos}");
    assert!(kodos.contains("earned_xp = 2"), "{kodos}");

    // Encounter 2 starts from the pools as they are: the investor is Desperate.
    let t2 = open_table(&c, &camp, &table).await;
    let view = c.get(&t2.url("view"), &t2.gm()).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    for (name, desperate) in [("The investor", true), ("Kodos", true), ("Cynthia", false)] {
        let there = named(&view.json, name, "desperate").expect(name);
        assert_eq!(there["desperate"], desperate, "{name}: {there}");
    }
    end(&c, &t2).await;
    assert!(
        sheet_of(&c, &camp, "The investor").await.contains("MP = 0"),
        "an encounter without play leaves the pools as they were"
    );
    assert_eq!(sheet_of(&c, &camp, "Kodos").await, kodos);

    // The Dealer restores the investor between sessions.
    advance(&c, &camp, "The investor", "gm", "recover all").await;
    let investor = sheet_of(&c, &camp, "The investor").await;
    assert!(!investor.contains("MP = 0"), "{investor}");
    every_history_replays(&c, &store, &camp, &[]).await;
    store.close().await;
}

story!(
    bastards_a_campaign_keeps_pools_and_xp_over_two_encounters,
    super::bastards_two_encounters
);

/// The Sapio System, "Lasting changes (`sheets_after`)": Injuries and
/// Stresses last ("Injuries and Stresses"), Luck spent is gone and gained is
/// kept ("Luck"), advancements taken at the end-of-session step last
/// ("Advancement"; R-SA-9). Encounter 1 is the book's rooftop chase: Wren is
/// injured (a Minor escalated to Moderate, R-SA-6), stressed and healed of
/// it, spends and gains Luck, and takes an advancement; Vance is wounded.
/// Between the encounters the GM heals one of Wren's Injuries and gives her
/// Luck, and Sable takes her due advancement. The second table opens from the
/// sheets and ends without a refusal; the Stresses and the Severe Injury given
/// there last past its end, and the GM's `heal` and `rest` clear them.
async fn sapio_two_encounters(db: Db) {
    let store = db.open().await;
    let c = Client::new(store.clone());
    let camp = campaign(
        &c,
        "sapio",
        "Rooftops",
        &["Ana", "Ben", "Cy"],
        None,
        &[
            ("Ana", "roof-runner.toml"),
            ("Ben", "arcane-knight.toml"),
            ("Cy", "desert-commando.toml"),
            ("gm", "enforcer.toml"),
        ],
    )
    .await;
    let table = example("sapio", "table.toml");

    let t1 = open_table(&c, &camp, &table).await;
    play(&c, &t1, &common::script("sapio", "encounter.script")).await;
    end(&c, &t1).await;
    // Injuries last (a Minor escalated to Moderate, R-SA-6; a weapon's hit),
    // the Stress healed at the table is gone, Luck is as play left it (1,
    // spent 1, gained 1 for her Principle), the advancement taken lasts, and
    // one still due stays due.
    let wren = sheet_of(&c, &camp, "Wren").await;
    assert!(
        wren.contains(r#"moderate = ["Large Dagger", "Cracked ribs"]"#),
        "{wren}"
    );
    assert!(!wren.contains("Winded"), "healed at the table: {wren}");
    assert!(wren.contains("luck = 1"), "{wren}");
    assert!(wren.contains("\"Durable\"]"), "{wren}");
    assert!(wren.contains(r#"advancements = ["quality"]"#), "{wren}");
    let vance = sheet_of(&c, &camp, "Vance").await;
    assert!(
        vance.contains(r#"moderate = ["Sword", "Hunting Rifle"]"#),
        "{vance}"
    );
    let sable = sheet_of(&c, &camp, "Sable").await;
    assert!(sable.contains("advancement_due = true"), "{sable}");
    assert!(
        sable.contains("luck = 3"),
        "given 1, spent 1, gained 1: {sable}"
    );
    let brannoc = sheet_of(&c, &camp, "Brannoc").await;
    assert!(brannoc.contains(r#""Pyromancy", "Swordplay""#), "{brannoc}");

    // Between the sessions: the GM heals an Injury and gives Luck; Sable
    // takes the advancement still due.
    advance(&c, &camp, "Wren", "gm", "heal injury \"Cracked ribs\"").await;
    advance(&c, &camp, "Wren", "gm", "give-luck 2").await;
    advance(&c, &camp, "Sable", "Cy", "advance specialization Tracking").await;
    let wren = sheet_of(&c, &camp, "Wren").await;
    assert!(!wren.contains("Cracked ribs"), "{wren}");
    assert!(wren.contains("Large Dagger"), "{wren}");
    assert!(wren.contains("luck = 3"), "{wren}");
    let sable = sheet_of(&c, &camp, "Sable").await;
    assert!(!sable.contains("advancement_due"), "{sable}");
    assert!(sable.contains("Tracking"), "{sable}");

    // Encounter 2 opens from the sheets; a Stress lasts past its end, and a
    // rest between sessions clears it.
    let t2 = open_table(&c, &camp, &table).await;
    play(
        &c,
        &t2,
        &[
            "GM: stress Wren minor Spooked",
            "GM: injury Vance severe \"Broken arm\"",
            "GM: stress Vance severe Terror",
        ],
    )
    .await;
    end(&c, &t2).await;
    let vance = sheet_of(&c, &camp, "Vance").await;
    assert!(vance.contains(r#"severe = "Broken arm""#), "{vance}");
    assert!(vance.contains(r#"severe = "Terror""#), "{vance}");
    advance(&c, &camp, "Vance", "gm", "heal injury \"Broken arm\"").await;
    advance(&c, &camp, "Vance", "gm", "rest").await;
    let vance = sheet_of(&c, &camp, "Vance").await;
    assert!(!vance.contains("Broken arm"), "{vance}");
    assert!(!vance.contains("Terror"), "{vance}");
    assert!(
        vance.contains("Hunting Rifle"),
        "the other Injuries stay: {vance}"
    );
    let wren = sheet_of(&c, &camp, "Wren").await;
    assert!(wren.contains("Spooked"), "{wren}");
    assert!(wren.contains("Large Dagger"), "{wren}");
    advance(&c, &camp, "Wren", "gm", "rest").await;
    let wren = sheet_of(&c, &camp, "Wren").await;
    assert!(!wren.contains("Spooked"), "{wren}");
    assert!(wren.contains("Large Dagger"), "Injuries stay: {wren}");
    every_history_replays(&c, &store, &camp, &[]).await;
    store.close().await;
}

story!(
    sapio_a_campaign_keeps_injuries_luck_and_advancements_over_two_encounters,
    super::sapio_two_encounters
);
