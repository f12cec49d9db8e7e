//! The story of a campaign, written once over `dyn Store` and told to both backends
//! (see `common`): its seats, its characters and their histories, its tables, and an
//! encounter's lasting changes written back exactly once when its table ends.

use crate::common;

use std::sync::Arc;

use common::{Db, seat};
use serde_json::{Value, json};
use tabula_store::{
    CampaignSeat, CharacterQuery, CharacterRecord, CharacterWrite, MAX_CAMPAIGN_SHEET_BYTES,
    MAX_CHARACTER_ENTRY_BYTES, MAX_CHARACTER_EVENTS, MAX_EVENT_KIND_CHARS, MAX_SHEET_BYTES,
    NewCampaign, NewCharacter, NewCharacterEvent, NewEntry, NewTable, Role, Store, StoreError,
};

stories!(
    a_campaigns_sheets_stay_within_their_bytes,
    campaigns_are_created_listed_and_loaded,
    a_campaign_token_finds_its_seat_and_no_other,
    characters_are_added_with_their_first_event,
    duplicates_strangers_and_bad_input_are_refused,
    a_history_replays_in_order_and_a_stale_event_is_a_conflict,
    of_two_racing_character_events_exactly_one_wins,
    tables_belong_to_a_campaign_of_their_system,
    ending_a_table_writes_back_exactly_once,
    a_conflict_rolls_the_whole_ending_back,
    of_two_servers_ending_one_table_exactly_one_writes,
    a_reopened_store_has_its_campaigns_back,
    a_reissued_campaign_token_opens_nothing_anymore,
    a_campaign_page_reads_only_its_characters,
);

// ---------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------

/// The Tiers campaign "Iron Coast": a GM and two players.
fn iron_coast() -> NewCampaign {
    NewCampaign {
        system: "tiers".into(),
        name: "Iron Coast".into(),
        seats: vec![
            seat("gm", Role::Gm, "hash-gm"),
            seat("ann", Role::Player, "hash-ann"),
            seat("bo", Role::Player, "hash-bo"),
        ],
        settings: String::new(),
    }
}

fn event(seat: &str, kind: &str, entry: Value, sheet: &str) -> NewCharacterEvent {
    NewCharacterEvent {
        seat: seat.into(),
        kind: kind.into(),
        entry,
        sheet: sheet.into(),
    }
}

fn sheet(name: &str, hp: u32) -> String {
    format!("name = \"{name}\"\nhp = {hp}\n")
}

fn new_character(name: &str, file: &str, owner: &str) -> NewCharacter {
    NewCharacter {
        name: name.into(),
        file: file.into(),
        owner: owner.into(),
        event: event(
            owner,
            "created",
            json!({"by": "the book"}),
            &sheet(name, 10),
        ),
    }
}

/// A table of campaign `campaign` (a Tiers encounter).
fn encounter(campaign: Option<&str>) -> NewTable {
    NewTable {
        system: "tiers".into(),
        name: "The Wreck".into(),
        initial_state: json!({"round": 0}),
        roller: None,
        seats: vec![
            seat("gm", Role::Gm, "hash-gm"),
            seat("ann", Role::Player, "hash-ann"),
        ],
        campaign: campaign.map(str::to_string),
    }
}

fn write(character: &str, expect_seq: u64, hp: u32) -> CharacterWrite {
    CharacterWrite {
        character: character.into(),
        expect_seq,
        event: event(
            "gm",
            "encounter",
            json!({"lasting": {"hp": hp}}),
            &sheet("someone", hp),
        ),
    }
}

/// Iron Coast with Kodos (ann's) and the Harbourmaster (the GM's). Returns the
/// campaign id and the two characters.
async fn iron_coast_with_two(store: &dyn Store) -> (String, CharacterRecord, CharacterRecord) {
    let campaign = store.create_campaign(iron_coast()).await.unwrap();
    let kodos = store
        .add_character(&campaign, new_character("Kodos", "kodos.toml", "ann"))
        .await
        .unwrap();
    let harbour = store
        .add_character(
            &campaign,
            new_character("The Harbourmaster", "harbour.toml", "gm"),
        )
        .await
        .unwrap();
    (campaign, kodos, harbour)
}

fn campaign_seat(campaign: &str, seat: &str, role: Role) -> CampaignSeat {
    CampaignSeat {
        campaign: campaign.into(),
        seat: seat.into(),
        role,
        display_name: format!("{seat} (shown)"),
    }
}

// ---------------------------------------------------------------------------------
// The story.
// ---------------------------------------------------------------------------------

async fn campaigns_are_created_listed_and_loaded(db: Db) {
    let store = db.store();
    assert!(store.list_campaigns().await.unwrap().is_empty());
    let first = store.create_campaign(iron_coast()).await.unwrap();
    let second = store
        .create_campaign(NewCampaign {
            system: "sapio".into(),
            name: "Empty".into(),
            seats: vec![],
            settings: String::new(),
        })
        .await
        .unwrap();
    for id in [&first, &second] {
        assert_eq!(id.len(), 32, "{id}");
        assert!(
            id.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')),
            "{id}"
        );
    }
    assert_ne!(first, second);

    let list = store.list_campaigns().await.unwrap();
    let ids: Vec<&str> = list.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, [&second, &first], "newest first");
    assert_eq!(list[1].name, "Iron Coast");
    assert_eq!(list[1].system, "tiers");
    assert_eq!(
        (list[1].seats, list[1].characters, list[1].tables),
        (3, 0, 0)
    );
    assert_eq!(
        (list[0].seats, list[0].characters, list[0].tables),
        (0, 0, 0)
    );
    assert!(list[1].created_ms > 1_600_000_000_000);

    let loaded = store.load_campaign(&first).await.unwrap().expect("it");
    assert_eq!(loaded.summary, list[1]);
    assert_eq!(
        loaded.seats,
        [
            campaign_seat(&first, "gm", Role::Gm),
            campaign_seat(&first, "ann", Role::Player),
            campaign_seat(&first, "bo", Role::Player),
        ]
    );
    assert!(loaded.characters.is_empty() && loaded.tables.is_empty());
    assert_eq!(store.load_campaign("no-such-campaign").await, Ok(None));
    assert_eq!(store.load_campaign(&format!("{first}\0")).await, Ok(None));
    // A campaign is not a table, nor a table a campaign.
    assert_eq!(store.load_table(&first).await, Ok(None));
    assert_eq!(store.count_tables().await, Ok(0));
}

async fn a_campaign_token_finds_its_seat_and_no_other(db: Db) {
    let store = db.store();
    let one = store.create_campaign(iron_coast()).await.unwrap();
    let two = store.create_campaign(iron_coast()).await.unwrap();
    let table = store.create_table(encounter(None)).await.unwrap();

    assert_eq!(
        store.campaign_seat_for_token(&one, "hash-ann").await,
        Ok(Some(campaign_seat(&one, "ann", Role::Player)))
    );
    assert_eq!(
        store.campaign_seat_for_token(&two, "hash-gm").await,
        Ok(Some(campaign_seat(&two, "gm", Role::Gm)))
    );
    assert_eq!(
        store.campaign_seat_for_token(&one, "hash-nobody").await,
        Ok(None)
    );
    assert_eq!(
        store.campaign_seat_for_token(&table, "hash-ann").await,
        Ok(None),
        "a table's seat is not a campaign's"
    );
    assert_eq!(
        store.campaign_seat_for_token(&one, "hash-ann\0").await,
        Ok(None)
    );

    // The hash a server copies to the same seat of a table it opens.
    assert_eq!(
        store.campaign_token_hash(&one, "bo").await,
        Ok(Some("hash-bo".into()))
    );
    assert_eq!(store.campaign_token_hash(&one, "cy").await, Ok(None));
    assert_eq!(store.campaign_token_hash("nope", "bo").await, Ok(None));
    assert_eq!(store.campaign_token_hash(&one, "bo\0").await, Ok(None));
}

async fn characters_are_added_with_their_first_event(db: Db) {
    let store = db.store();
    let (campaign, kodos, harbour) = iron_coast_with_two(store).await;

    assert_eq!(kodos.campaign, campaign);
    assert_eq!(kodos.name, "Kodos");
    assert_eq!(kodos.file, "kodos.toml");
    assert_eq!(kodos.owner, "ann", "a player's character");
    assert_eq!(harbour.owner, "gm", "a non-player character");
    assert_eq!(kodos.sheet, sheet("Kodos", 10));
    assert_eq!(kodos.seq, 1);
    assert_eq!(kodos.updated_ms, kodos.created_ms);
    assert_eq!(kodos.id.len(), 32);
    assert_ne!(kodos.id, harbour.id);

    // What add_character answered is what is stored.
    assert_eq!(
        store.character(&campaign, &kodos.id).await,
        Ok(Some(kodos.clone()))
    );
    let history = store.character_history(&campaign, &kodos.id).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].seq, 1);
    assert_eq!(history[0].seat, "ann");
    assert_eq!(history[0].kind, "created");
    assert_eq!(history[0].entry, json!({"by": "the book"}));
    assert_eq!(history[0].sheet, kodos.sheet);
    assert_eq!(history[0].at_ms, kodos.created_ms);

    let loaded = store.load_campaign(&campaign).await.unwrap().unwrap();
    assert_eq!(loaded.characters, [kodos.clone(), harbour.clone()]);
    assert_eq!(loaded.summary.characters, 2);

    // Another campaign never finds them.
    let other = store.create_campaign(iron_coast()).await.unwrap();
    assert_eq!(store.character(&other, &kodos.id).await, Ok(None));
    assert_eq!(
        store.character_history(&other, &kodos.id).await,
        Err(StoreError::CharacterNotFound)
    );
    assert_eq!(
        store.character_history(&campaign, "no-such").await,
        Err(StoreError::CharacterNotFound)
    );
    assert_eq!(
        store.character(&campaign, &format!("{}\0", kodos.id)).await,
        Ok(None)
    );
    // The same name and file are free in another campaign.
    let kodos_too = store
        .add_character(&other, new_character("Kodos", "kodos.toml", "bo"))
        .await
        .unwrap();
    assert_eq!(kodos_too.owner, "bo");
}

async fn duplicates_strangers_and_bad_input_are_refused(db: Db) {
    let store = db.store();
    let (campaign, _, _) = iron_coast_with_two(store).await;

    // Names compare as names do (case, `_` for a space, white space at either end).
    for name in ["kodos", "KODOS", " Kodos ", "the_harbourmaster"] {
        assert!(
            matches!(
                store
                    .add_character(&campaign, new_character(name, "new.toml", "bo"))
                    .await,
                Err(StoreError::DuplicateCharacterName(n)) if n == name
            ),
            "{name}"
        );
    }
    for file in ["kodos.toml", "Kodos.TOML", "HARBOUR.toml"] {
        assert_eq!(
            store
                .add_character(&campaign, new_character("Newcomer", file, "bo"))
                .await,
            Err(StoreError::DuplicateCharacterFile(file.into())),
            "{file}"
        );
    }
    assert_eq!(
        store
            .add_character(&campaign, new_character("Newcomer", "new.toml", "cy"))
            .await,
        Err(StoreError::UnknownOwner("cy".into()))
    );
    assert_eq!(
        store
            .add_character("no-such", new_character("Newcomer", "new.toml", "bo"))
            .await,
        Err(StoreError::CampaignNotFound)
    );
    assert_eq!(
        store
            .add_character("x\0", new_character("Newcomer", "new.toml", "bo"))
            .await,
        Err(StoreError::CampaignNotFound)
    );

    // Bad names, files, kinds and sizes, refused before the database.
    let long = "x".repeat(65);
    for (name, file, owner) in [
        ("", "new.toml", "bo"),
        (long.as_str(), "new.toml", "bo"),
        ("Kid\u{1b}[2J", "new.toml", "bo"),
        ("Newcomer", "", "bo"),
        ("Newcomer", "new.toml", "b:o"),
    ] {
        assert!(
            matches!(
                store
                    .add_character(&campaign, new_character(name, file, owner))
                    .await,
                Err(StoreError::BadName(_))
            ),
            "{name:?} {file:?} {owner:?}"
        );
    }
    for file in ["../etc/passwd", "a\\b.toml", " new.toml", "..", "."] {
        assert_eq!(
            store
                .add_character(&campaign, new_character("Newcomer", file, "bo"))
                .await,
            Err(StoreError::BadFileName(file.into())),
            "{file}"
        );
    }
    let with = |change: fn(&mut NewCharacterEvent)| {
        let mut character = new_character("Newcomer", "new.toml", "bo");
        change(&mut character.event);
        character
    };
    for (change, refused) in [
        (
            (|e: &mut NewCharacterEvent| e.kind.clear()) as fn(&mut NewCharacterEvent),
            StoreError::BadEventKind { chars: 0, max: 32 },
        ),
        (
            |e| e.kind = "k".repeat(MAX_EVENT_KIND_CHARS + 1),
            StoreError::BadEventKind { chars: 33, max: 32 },
        ),
        (
            |e| e.sheet = "x".repeat(MAX_SHEET_BYTES + 1),
            StoreError::SheetTooLarge {
                bytes: MAX_SHEET_BYTES + 1,
                max: MAX_SHEET_BYTES,
            },
        ),
        (
            // Issue 28: a character event may carry a whole sheet; its cap is
            // MAX_CHARACTER_ENTRY_BYTES (was MAX_ENTRY_BYTES).
            |e| e.entry = json!("x".repeat(MAX_CHARACTER_ENTRY_BYTES - 1)),
            StoreError::EntryTooLarge {
                index: 0,
                bytes: MAX_CHARACTER_ENTRY_BYTES + 1,
                max: MAX_CHARACTER_ENTRY_BYTES,
            },
        ),
        (
            |e| e.sheet.push('\0'),
            StoreError::NulInText { field: "sheet" },
        ),
        (
            |e| e.seat.push('\0'),
            StoreError::NulInText { field: "seat" },
        ),
    ] {
        assert_eq!(
            store.add_character(&campaign, with(change)).await,
            Err(refused.clone()),
            "{refused}"
        );
    }
    // Exactly at the caps is fine.
    let mut at_caps = new_character("Newcomer", "new.toml", "bo");
    at_caps.event.kind = "k".repeat(MAX_EVENT_KIND_CHARS);
    at_caps.event.sheet = "x".repeat(MAX_SHEET_BYTES);
    at_caps.name = "n".repeat(64);
    let added = store.add_character(&campaign, at_caps).await.unwrap();
    assert_eq!(added.sheet.len(), MAX_SHEET_BYTES);

    // Nothing refused was written.
    let loaded = store.load_campaign(&campaign).await.unwrap().unwrap();
    let names: Vec<&str> = loaded.characters.iter().map(|c| c.name.as_str()).collect();
    let long_name = "n".repeat(64);
    assert_eq!(names, ["Kodos", "The Harbourmaster", long_name.as_str()]);

    // A campaign's names and seats follow the rules of names too.
    let mut bad = iron_coast();
    bad.name = String::new();
    assert!(matches!(
        store.create_campaign(bad).await,
        Err(StoreError::BadName(_))
    ));
    let mut bad = iron_coast();
    bad.seats[1].seat = "ann: the bold".into();
    assert!(matches!(
        store.create_campaign(bad).await,
        Err(StoreError::BadName(_))
    ));
    let mut bad = iron_coast();
    bad.seats.push(seat("ann", Role::Player, "hash-other"));
    assert_eq!(
        store.create_campaign(bad).await,
        Err(StoreError::DuplicateSeat("ann".into()))
    );
    let mut bad = iron_coast();
    bad.seats[0].token_hash.push('\0');
    assert_eq!(
        store.create_campaign(bad).await,
        Err(StoreError::NulInText {
            field: "token hash"
        })
    );
    assert_eq!(store.list_campaigns().await.unwrap().len(), 1);
}

async fn a_history_replays_in_order_and_a_stale_event_is_a_conflict(db: Db) {
    let store = db.store();
    let (campaign, kodos, harbour) = iron_coast_with_two(store).await;
    let id = kodos.id.as_str();

    assert_eq!(
        store
            .append_character_event(
                &campaign,
                id,
                1,
                event("ann", "advanced", json!({"tier": 2}), &sheet("Kodos", 12)),
            )
            .await,
        Ok(2)
    );
    assert_eq!(
        store
            .append_character_event(
                &campaign,
                id,
                2,
                event("gm", "wounded", json!({"hp": -4}), &sheet("Kodos", 8)),
            )
            .await,
        Ok(3)
    );

    let history = store.character_history(&campaign, id).await.unwrap();
    let seqs: Vec<u64> = history.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 2, 3]);
    let kinds: Vec<&str> = history.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["created", "advanced", "wounded"]);
    let seats: Vec<&str> = history.iter().map(|e| e.seat.as_str()).collect();
    assert_eq!(seats, ["ann", "ann", "gm"]);
    let sheets: Vec<String> = history.iter().map(|e| e.sheet.clone()).collect();
    assert_eq!(
        sheets,
        [sheet("Kodos", 10), sheet("Kodos", 12), sheet("Kodos", 8)]
    );
    assert!(history.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));

    let now = store.character(&campaign, id).await.unwrap().unwrap();
    assert_eq!(now.seq, 3);
    assert_eq!(now.sheet, sheet("Kodos", 8), "the last event's sheet");
    assert_eq!(now.updated_ms, history[2].at_ms);
    assert_eq!(now.created_ms, kodos.created_ms);

    // Stale: nothing written, the seq to reload from.
    for stale in [0, 1, 2, 4, 99] {
        assert_eq!(
            store
                .append_character_event(
                    &campaign,
                    id,
                    stale,
                    event("gm", "late", json!(null), "late")
                )
                .await,
            Err(StoreError::CharacterConflict {
                character: id.into(),
                current: 3
            }),
            "{stale}"
        );
    }
    assert_eq!(store.character(&campaign, id).await.unwrap(), Some(now));
    assert_eq!(
        store.character_history(&campaign, id).await.unwrap(),
        history
    );
    // The other character's history is its own.
    assert_eq!(
        store
            .character(&campaign, &harbour.id)
            .await
            .unwrap()
            .unwrap()
            .seq,
        1
    );

    // Unknown character, another campaign, caps.
    assert_eq!(
        store
            .append_character_event(&campaign, "no-such", 0, event("gm", "x", json!(1), ""))
            .await,
        Err(StoreError::CharacterNotFound)
    );
    let other = store.create_campaign(iron_coast()).await.unwrap();
    assert_eq!(
        store
            .append_character_event(&other, id, 3, event("gm", "x", json!(1), ""))
            .await,
        Err(StoreError::CharacterNotFound)
    );
    assert_eq!(
        store
            .append_character_event(
                &campaign,
                id,
                MAX_CHARACTER_EVENTS,
                event("gm", "x", json!(1), "")
            )
            .await,
        Err(StoreError::TooManyEvents {
            max: MAX_CHARACTER_EVENTS
        })
    );
    assert_eq!(
        store
            .append_character_event(&campaign, id, u64::MAX, event("gm", "x", json!(1), ""))
            .await,
        Err(StoreError::TooManyEvents {
            max: MAX_CHARACTER_EVENTS
        })
    );
    // JSON of every shape comes back as it went in.
    let odd = json!({"u64": u64::MAX, "float": 0.1, "s": "é\u{0}\"", "deep": [[{"a": []}]]});
    assert_eq!(
        store
            .append_character_event(&campaign, id, 3, event("gm", "odd", odd.clone(), ""))
            .await,
        Ok(4)
    );
    let history = store.character_history(&campaign, id).await.unwrap();
    assert_eq!(history[3].entry, odd);
    assert_eq!(history[3].sheet, "");
}

async fn of_two_racing_character_events_exactly_one_wins(db: Db) {
    let (campaign, kodos, _) = iron_coast_with_two(db.store()).await;
    let mut winners = Vec::new();
    for round in 1..=8u64 {
        let racers: Vec<_> = ["ann", "gm"]
            .into_iter()
            .map(|who| {
                let store = Arc::clone(&db.store);
                let (campaign, id) = (campaign.clone(), kodos.id.clone());
                tokio::spawn(async move {
                    let sheet = format!("{who} {round}");
                    let result = store
                        .append_character_event(
                            &campaign,
                            &id,
                            round,
                            event(who, "race", json!(round), &sheet),
                        )
                        .await;
                    (who, result)
                })
            })
            .collect();
        let mut won = Vec::new();
        for racer in racers {
            let (who, result) = racer.await.expect("the racer finishes");
            match result {
                Ok(seq) => {
                    assert_eq!(seq, round + 1);
                    won.push(who);
                }
                Err(StoreError::CharacterConflict { current, .. }) => {
                    assert_eq!(current, round + 1)
                }
                Err(other) => panic!("round {round}: {who} failed: {other}"),
            }
        }
        assert_eq!(won.len(), 1, "round {round}: winners {won:?}");
        winners.push(won[0]);
    }
    let history = db
        .store()
        .character_history(&campaign, &kodos.id)
        .await
        .unwrap();
    let seats: Vec<&str> = history[1..].iter().map(|e| e.seat.as_str()).collect();
    assert_eq!(seats, winners, "only the winners' events are kept");
    let seqs: Vec<u64> = history.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=9).collect::<Vec<_>>());
    let now = db
        .store()
        .character(&campaign, &kodos.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(now.sheet, format!("{} 8", winners[7]));
}

async fn tables_belong_to_a_campaign_of_their_system(db: Db) {
    let store = db.store();
    let campaign = store.create_campaign(iron_coast()).await.unwrap();
    let lone = store.create_table(encounter(None)).await.unwrap();
    let first = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    let second = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();

    let mut sour = encounter(Some(&campaign));
    sour.system = "sour-grapes".into();
    assert_eq!(
        store.create_table(sour).await,
        Err(StoreError::SystemMismatch {
            campaign: "tiers".into(),
            table: "sour-grapes".into()
        })
    );
    assert_eq!(
        store.create_table(encounter(Some("no-such"))).await,
        Err(StoreError::CampaignNotFound)
    );
    assert_eq!(
        store.create_table(encounter(Some("no\0such"))).await,
        Err(StoreError::CampaignNotFound)
    );
    assert_eq!(
        store.count_tables().await,
        Ok(3),
        "nothing refused was kept"
    );

    let list = store.list_tables().await.unwrap();
    let campaigns: Vec<Option<&str>> = list.iter().map(|t| t.campaign.as_deref()).collect();
    assert_eq!(
        campaigns,
        [Some(campaign.as_str()), Some(campaign.as_str()), None]
    );
    assert!(list.iter().all(|t| t.ended_ms.is_none()));
    let table = store.load_table(&first).await.unwrap().unwrap();
    assert_eq!(table.summary.campaign.as_deref(), Some(campaign.as_str()));
    assert_eq!(
        store
            .load_table(&lone)
            .await
            .unwrap()
            .unwrap()
            .summary
            .campaign,
        None
    );

    let loaded = store.load_campaign(&campaign).await.unwrap().unwrap();
    let ids: Vec<&str> = loaded.tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, [&second, &first], "newest first, only its own");
    assert_eq!(loaded.summary.tables, 2);
    assert_eq!(loaded.tables[1], table.summary);

    // A table's summary reads the same from JSON written before campaigns.
    let old = json!({"id": "x", "system": "tiers", "name": "n", "created_ms": 1, "seq": 0,
                     "seats": 0});
    let summary: tabula_store::TableSummary = serde_json::from_value(old).unwrap();
    assert_eq!((summary.campaign, summary.ended_ms), (None, None));
}

async fn ending_a_table_writes_back_exactly_once(db: Db) {
    let store = db.store();
    let (campaign, kodos, harbour) = iron_coast_with_two(store).await;
    let table = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    store
        .append(
            &table,
            0,
            vec![NewEntry {
                seat: "gm".into(),
                entry: json!("the wreck groans"),
            }],
            None,
        )
        .await
        .unwrap();

    let writes = vec![
        write(&kodos.id, 1, 7),
        write(&harbour.id, 1, 3),
        // Two events for one character, in order.
        write(&kodos.id, 2, 6),
    ];
    assert_eq!(store.end_table(&table, writes.clone()).await, Ok(true));

    let summary = store.load_table(&table).await.unwrap().unwrap().summary;
    let ended = summary.ended_ms.expect("ended");
    assert!(ended >= summary.created_ms);
    let kodos_now = store
        .character(&campaign, &kodos.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kodos_now.seq, 3);
    assert_eq!(kodos_now.sheet, sheet("someone", 6));
    assert_eq!(kodos_now.updated_ms, ended, "written with the ending");
    let history = store.character_history(&campaign, &kodos.id).await.unwrap();
    let lasting: Vec<&Value> = history.iter().map(|e| &e.entry).collect();
    assert_eq!(
        lasting,
        [
            &json!({"by": "the book"}),
            &json!({"lasting": {"hp": 7}}),
            &json!({"lasting": {"hp": 6}}),
        ]
    );
    assert_eq!(
        store
            .character(&campaign, &harbour.id)
            .await
            .unwrap()
            .unwrap()
            .seq,
        2
    );

    // Again (another server, a retried request): false, and nothing written, even
    // with writes that would fit.
    let before = store.load_campaign(&campaign).await.unwrap();
    assert_eq!(store.end_table(&table, writes).await, Ok(false));
    assert_eq!(
        store.end_table(&table, vec![write(&kodos.id, 3, 1)]).await,
        Ok(false)
    );
    assert_eq!(store.load_campaign(&campaign).await.unwrap(), before);
    let listed = store.list_tables().await.unwrap();
    assert_eq!(listed[0].ended_ms, Some(ended), "ended once, at the first");
    let loaded = before.unwrap();
    assert_eq!(loaded.tables[0].ended_ms, Some(ended));
    // Its log is closed: an append is refused and writes nothing.
    let seq = store.load_table(&table).await.unwrap().unwrap().summary.seq;
    let late = store
        .append(
            &table,
            seq,
            vec![NewEntry {
                seat: "gm".into(),
                entry: json!({"late": true}),
            }],
            None,
        )
        .await;
    assert_eq!(late, Err(StoreError::Ended));

    // A table of no campaign ends with no writes, and takes none.
    let lone = store.create_table(encounter(None)).await.unwrap();
    assert_eq!(
        store.end_table(&lone, vec![write(&kodos.id, 3, 1)]).await,
        Err(StoreError::NoCampaign)
    );
    assert_eq!(
        store
            .load_table(&lone)
            .await
            .unwrap()
            .unwrap()
            .summary
            .ended_ms,
        None,
        "not ended by a refused call"
    );
    assert_eq!(store.end_table(&lone, vec![]).await, Ok(true));
    assert_eq!(store.end_table(&lone, vec![]).await, Ok(false));

    assert_eq!(
        store.end_table("no-such-table", vec![]).await,
        Err(StoreError::NotFound)
    );
    assert_eq!(
        store.end_table("no\0such", vec![]).await,
        Err(StoreError::NotFound)
    );
}

async fn a_conflict_rolls_the_whole_ending_back(db: Db) {
    let store = db.store();
    let (campaign, kodos, harbour) = iron_coast_with_two(store).await;
    let table = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    // Between the encounter's reading and its ending, the Harbourmaster moved on.
    store
        .append_character_event(
            &campaign,
            &harbour.id,
            1,
            event("gm", "advanced", json!(1), "moved on"),
        )
        .await
        .unwrap();
    let before = store.load_campaign(&campaign).await.unwrap();

    assert_eq!(
        store
            .end_table(
                &table,
                vec![write(&kodos.id, 1, 7), write(&harbour.id, 1, 3)]
            )
            .await,
        Err(StoreError::CharacterConflict {
            character: harbour.id.clone(),
            current: 2
        })
    );
    // Kodos's event (written first) went back with the rest; the table is open.
    assert_eq!(store.load_campaign(&campaign).await.unwrap(), before);
    assert_eq!(
        store
            .load_table(&table)
            .await
            .unwrap()
            .unwrap()
            .summary
            .ended_ms,
        None
    );

    // A character of another campaign, or none: the same.
    let other = store.create_campaign(iron_coast()).await.unwrap();
    let stranger = store
        .add_character(&other, new_character("Stranger", "s.toml", "bo"))
        .await
        .unwrap();
    for missing in [stranger.id.as_str(), "no-such", "no\0such"] {
        assert_eq!(
            store
                .end_table(&table, vec![write(&kodos.id, 1, 7), write(missing, 1, 3)])
                .await,
            Err(StoreError::CharacterNotFound),
            "{missing:?}"
        );
    }
    // Bad input is refused before anything, naming the write.
    let mut big = write(&harbour.id, 2, 3);
    big.event.entry = json!("x".repeat(MAX_CHARACTER_ENTRY_BYTES));
    assert!(matches!(
        store
            .end_table(&table, vec![write(&kodos.id, 1, 7), big])
            .await,
        Err(StoreError::EntryTooLarge { index: 1, .. })
    ));
    assert_eq!(store.load_campaign(&campaign).await.unwrap(), before);
    assert_eq!(
        store
            .load_table(&table)
            .await
            .unwrap()
            .unwrap()
            .summary
            .ended_ms,
        None
    );

    // Decided again from the current seqs, it ends.
    assert_eq!(
        store
            .end_table(
                &table,
                vec![write(&kodos.id, 1, 7), write(&harbour.id, 2, 3)]
            )
            .await,
        Ok(true)
    );
    let seqs: Vec<u64> = store
        .load_campaign(&campaign)
        .await
        .unwrap()
        .unwrap()
        .characters
        .iter()
        .map(|c| c.seq)
        .collect();
    assert_eq!(seqs, [2, 3]);
}

async fn of_two_servers_ending_one_table_exactly_one_writes(db: Db) {
    let Db { store, reopen } = db;
    let (campaign, kodos, harbour) = iron_coast_with_two(&*store).await;
    // A second server: another store on the same database.
    let other = reopen.open().await;
    for round in 0..4u64 {
        let table = store
            .create_table(encounter(Some(&campaign)))
            .await
            .unwrap();
        let seq = 1 + round * 2;
        let racers: Vec<_> = [Arc::clone(&store), Arc::clone(&other)]
            .into_iter()
            .map(|server| {
                let table = table.clone();
                // Each server writes both characters, in its own order.
                let writes = vec![
                    write(&kodos.id, seq, 5),
                    write(&harbour.id, seq, 5),
                    write(&kodos.id, seq + 1, 4),
                    write(&harbour.id, seq + 1, 4),
                ];
                tokio::spawn(async move { server.end_table(&table, writes).await })
            })
            .collect();
        let mut answers = Vec::new();
        for racer in racers {
            answers.push(racer.await.expect("the racer finishes"));
        }
        answers.sort_by_key(|answer| answer.clone().ok());
        // The loser finds the table ended before it writes anything.
        assert_eq!(answers, [Ok(false), Ok(true)], "round {round}");
        for id in [&kodos.id, &harbour.id] {
            let history = store.character_history(&campaign, id).await.unwrap();
            assert_eq!(history.len() as u64, seq + 2, "round {round}: written once");
        }
    }
    other.close().await;
}

async fn a_reopened_store_has_its_campaigns_back(db: Db) {
    let Db { store, reopen } = db;
    let (campaign, kodos, _) = iron_coast_with_two(&*store).await;
    let table = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    store
        .end_table(&table, vec![write(&kodos.id, 1, 9)])
        .await
        .unwrap();
    let open = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    let before = store.load_campaign(&campaign).await.unwrap();
    let before_list = store.list_campaigns().await.unwrap();
    let before_history = store.character_history(&campaign, &kodos.id).await.unwrap();
    store.close().await;
    drop(store);

    let store = reopen.open().await;
    assert_eq!(store.load_campaign(&campaign).await.unwrap(), before);
    assert_eq!(store.list_campaigns().await.unwrap(), before_list);
    assert_eq!(
        store.character_history(&campaign, &kodos.id).await.unwrap(),
        before_history
    );
    assert_eq!(
        store.campaign_seat_for_token(&campaign, "hash-ann").await,
        Ok(Some(campaign_seat(&campaign, "ann", Role::Player)))
    );
    // The ended table stays ended; the open one can still end, and histories go on.
    assert_eq!(store.end_table(&table, vec![]).await, Ok(false));
    assert_eq!(
        store.end_table(&open, vec![write(&kodos.id, 2, 8)]).await,
        Ok(true)
    );
    assert_eq!(
        store
            .character(&campaign, &kodos.id)
            .await
            .unwrap()
            .unwrap()
            .seq,
        3
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Whatever seqs the writers expect, a history stays `1..=n` without gaps, an
    /// event is written exactly when its expected seq is the character's, and the
    /// current sheet is always the last event's.
    #[test]
    fn a_history_has_no_gaps_whatever_the_writers_expect(
        expects in proptest::collection::vec(0u64..6, 1..24)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let store = tabula_store::open("sqlite::memory:").await.unwrap();
            let (campaign, kodos, _) = iron_coast_with_two(&*store).await;
            let mut seq = 1u64;
            for (n, expect) in expects.into_iter().enumerate() {
                let sheet = format!("sheet {n}");
                let result = store
                    .append_character_event(
                        &campaign,
                        &kodos.id,
                        expect,
                        event("gm", "step", json!(n), &sheet),
                    )
                    .await;
                if expect == seq {
                    seq += 1;
                    assert_eq!(result, Ok(seq));
                } else {
                    assert_eq!(
                        result,
                        Err(StoreError::CharacterConflict {
                            character: kodos.id.clone(),
                            current: seq
                        })
                    );
                }
                let history = store.character_history(&campaign, &kodos.id).await.unwrap();
                let seqs: Vec<u64> = history.iter().map(|e| e.seq).collect();
                assert_eq!(seqs, (1..=seq).collect::<Vec<_>>());
                let now = store.character(&campaign, &kodos.id).await.unwrap().unwrap();
                assert_eq!(now.seq, seq);
                assert_eq!(Some(&now.sheet), history.last().map(|e| &e.sheet));
            }
        });
    }
}

async fn a_reissued_campaign_token_opens_nothing_anymore(db: Db) {
    let store = db.store();
    let campaign = store.create_campaign(iron_coast()).await.unwrap();
    let other = store.create_campaign(iron_coast()).await.unwrap();
    let first = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    let second = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    let others = store.create_table(encounter(Some(&other))).await.unwrap();
    // A table seat whose link the GM already reissued keeps its own hash.
    assert_eq!(
        store.reissue_token(&second, "gm", "hash-gm-2").await,
        Ok(true)
    );

    let changed = store
        .reissue_campaign_token(&campaign, "ann", "hash-ann-new")
        .await
        .unwrap()
        .expect("ann is a seat");
    let mut changed_tables: Vec<&str> = changed.iter().map(|(t, _)| t.as_str()).collect();
    changed_tables.sort_unstable();
    let mut want = vec![first.as_str(), second.as_str()];
    want.sort_unstable();
    assert_eq!(changed_tables, want);
    assert!(changed.iter().all(|(_, s)| s == "ann"), "{changed:?}");

    // The old hash opens neither the campaign nor its tables; the new one does.
    assert_eq!(
        store.campaign_seat_for_token(&campaign, "hash-ann").await,
        Ok(None)
    );
    assert_eq!(
        store
            .campaign_seat_for_token(&campaign, "hash-ann-new")
            .await,
        Ok(Some(campaign_seat(&campaign, "ann", Role::Player)))
    );
    for table in [&first, &second] {
        assert_eq!(store.seat_for_token(table, "hash-ann").await.unwrap(), None);
        assert!(
            store
                .seat_for_token(table, "hash-ann-new")
                .await
                .unwrap()
                .is_some()
        );
    }
    // The GM's seats, another campaign and its table are untouched.
    assert_eq!(
        store.campaign_token_hash(&campaign, "gm").await,
        Ok(Some("hash-gm".into()))
    );
    assert!(
        store
            .seat_for_token(&first, "hash-gm")
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .seat_for_token(&second, "hash-gm-2")
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(
        store.campaign_token_hash(&other, "ann").await,
        Ok(Some("hash-ann".into()))
    );
    assert!(
        store
            .seat_for_token(&others, "hash-ann")
            .await
            .unwrap()
            .is_some()
    );

    // No such seat or campaign: nothing changes.
    assert_eq!(
        store.reissue_campaign_token(&campaign, "cy", "h").await,
        Ok(None)
    );
    assert_eq!(
        store.reissue_campaign_token("no-such", "ann", "h").await,
        Ok(None)
    );
    assert!(matches!(
        store.reissue_campaign_token(&campaign, "ann", "h\0").await,
        Err(StoreError::NulInText { .. })
    ));
    assert_eq!(
        store.campaign_token_hash(&campaign, "ann").await,
        Ok(Some("hash-ann-new".into()))
    );
}

/// Issue 28: a campaign's current sheets take at most
/// [`MAX_CAMPAIGN_SHEET_BYTES`] together; a new character or a new sheet past
/// it is refused and nothing is written. A sheet that shrinks is always taken.
async fn a_campaigns_sheets_stay_within_their_bytes(db: Db) {
    let store = db.store();
    let (campaign, _, _) = iron_coast_with_two(store).await;
    let before = store.load_campaign(&campaign).await.unwrap().unwrap();
    let held: usize = before.characters.iter().map(|c| c.sheet.len()).sum();
    let max = usize::try_from(MAX_CAMPAIGN_SHEET_BYTES).unwrap();
    // Fill the campaign with big sheets up to its cap.
    let big = MAX_SHEET_BYTES - 64;
    let mut free = max - held;
    let mut n = 0;
    while free >= big {
        let name = format!("Filler {n}");
        let mut c = new_character(&name, &format!("filler-{n}.toml"), "bo");
        c.event.sheet = format!(
            "name = \"{name}\"\n# {}\n",
            "x".repeat(big - name.len() - 13)
        );
        assert_eq!(c.event.sheet.len(), big);
        store
            .add_character(&campaign, c)
            .await
            .expect("within the cap");
        free -= big;
        n += 1;
    }
    let mut over = new_character("One Too Many", "over.toml", "bo");
    over.event.sheet = "x".repeat(free + 1);
    assert_eq!(
        store.add_character(&campaign, over).await,
        Err(StoreError::CampaignTooLarge {
            bytes: MAX_CAMPAIGN_SHEET_BYTES + 1,
            max: MAX_CAMPAIGN_SHEET_BYTES
        })
    );
    // A sheet of an existing character that grows past the cap is refused too.
    let kodos = before.characters[0].clone();
    let grow = NewCharacterEvent {
        sheet: "y".repeat(kodos.sheet.len() + free + 1),
        ..event("bo", "edited", json!({}), "")
    };
    assert!(matches!(
        store
            .append_character_event(&campaign, &kodos.id, kodos.seq, grow)
            .await,
        Err(StoreError::CampaignTooLarge { .. })
    ));
    let shrink = event("bo", "edited", json!({}), "name = \"Kodos\"\n");
    assert_eq!(
        store
            .append_character_event(&campaign, &kodos.id, kodos.seq, shrink)
            .await,
        Ok(kodos.seq + 1)
    );
    let after = store.load_campaign(&campaign).await.unwrap().unwrap();
    assert_eq!(after.characters.len(), before.characters.len() + n);
    assert!(
        after
            .characters
            .iter()
            .map(|c| c.sheet.len())
            .sum::<usize>()
            <= max,
        "the cap holds"
    );
}

/// `campaign_page` (issue 28): the summary, seats and tables with one page of
/// the characters, in the order added, after a cursor, for one owner or all;
/// the counts agree with the whole campaign; a bad cursor is `CharacterNotFound`.
async fn a_campaign_page_reads_only_its_characters(db: Db) {
    let store = db.store();
    let campaign = store.create_campaign(iron_coast()).await.unwrap();
    // Another campaign's characters never show.
    let other = store.create_campaign(iron_coast()).await.unwrap();
    let stranger = store
        .add_character(&other, new_character("Stranger", "stranger.toml", "ann"))
        .await
        .unwrap();
    let table = store
        .create_table(encounter(Some(&campaign)))
        .await
        .unwrap();
    let mut added = Vec::new();
    for i in 0..7 {
        let owner = if i % 2 == 0 { "ann" } else { "gm" };
        let c = store
            .add_character(
                &campaign,
                new_character(&format!("Hero {i}"), &format!("hero-{i}.toml"), owner),
            )
            .await
            .unwrap();
        added.push(c);
    }
    let whole = store.load_campaign(&campaign).await.unwrap().unwrap();
    let query = |owner: Option<&str>, after: Option<&str>, limit: u32| CharacterQuery {
        owner: owner.map(str::to_string),
        after: after.map(str::to_string),
        limit,
        max_bytes: None,
    };

    // The first page: what the whole campaign says, and three characters.
    let page = store
        .campaign_page(&campaign, &query(None, None, 3))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.summary, whole.summary);
    assert_eq!(page.seats, whole.seats);
    assert_eq!(page.tables, whole.tables);
    assert_eq!(page.tables[0].id, table);
    assert_eq!(page.characters, whole.characters[..3]);
    assert_eq!(page.total, 7);
    assert!(page.more);
    // After the third: the next three; after the sixth: the last, no more.
    let page = store
        .campaign_page(&campaign, &query(None, Some(&added[2].id), 3))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.characters, whole.characters[3..6]);
    assert!(page.more);
    let page = store
        .campaign_page(&campaign, &query(None, Some(&added[5].id), 3))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.characters, whole.characters[6..]);
    assert!(!page.more);
    // A page of none: the campaign alone, and whether characters follow.
    let page = store
        .campaign_page(&campaign, &query(None, None, 0))
        .await
        .unwrap()
        .unwrap();
    assert!(page.characters.is_empty());
    assert_eq!((page.total, page.more), (7, true));
    let page = store
        .campaign_page(&campaign, &query(None, Some(&added[6].id), 0))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((page.total, page.more), (7, false));

    // One owner's: only ann's, counted alone, paged by her own characters.
    let anns: Vec<&CharacterRecord> = whole
        .characters
        .iter()
        .filter(|c| c.owner == "ann")
        .collect();
    let page = store
        .campaign_page(&campaign, &query(Some("ann"), None, 2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.characters.iter().collect::<Vec<_>>(), anns[..2]);
    assert_eq!((page.total, page.more), (4, true));
    let page = store
        .campaign_page(&campaign, &query(Some("ann"), Some(&anns[1].id), 5))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.characters.iter().collect::<Vec<_>>(), anns[2..]);
    assert!(!page.more);
    // A seat with no character: an empty page.
    let page = store
        .campaign_page(&campaign, &query(Some("bo"), None, 5))
        .await
        .unwrap()
        .unwrap();
    assert!(page.characters.is_empty());
    assert_eq!((page.total, page.more), (0, false));

    // A budget of bytes: the sheets that fit, at least one, `more` as ever.
    let size = whole.characters[0].sheet.len() as u64;
    assert!(
        whole
            .characters
            .iter()
            .all(|c| c.sheet.len() as u64 == size)
    );
    for (max_bytes, fit) in [(0, 1), (size, 1), (3 * size, 3), (3 * size + 1, 3)] {
        let page = store
            .campaign_page(
                &campaign,
                &CharacterQuery {
                    max_bytes: Some(max_bytes),
                    ..query(None, Some(&added[0].id), 5)
                },
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(page.characters, whole.characters[1..1 + fit], "{max_bytes}");
        assert_eq!((page.total, page.more), (7, true));
    }
    let page = store
        .campaign_page(
            &campaign,
            &CharacterQuery {
                max_bytes: Some(u64::MAX),
                ..query(Some("ann"), None, 0)
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert!(page.characters.is_empty(), "a limit of 0 reads none");

    // Bad cursors: another owner's, another campaign's, unknown, with U+0000.
    for (owner, after) in [
        (Some("ann"), added[1].id.as_str()),
        (None, stranger.id.as_str()),
        (None, "0123456789abcdef0123456789abcdef"),
        (None, ""),
        (None, "a\0b"),
    ] {
        assert_eq!(
            store
                .campaign_page(&campaign, &query(owner, Some(after), 3))
                .await,
            Err(StoreError::CharacterNotFound),
            "{owner:?} after {after:?}"
        );
    }
    // No such campaign.
    assert_eq!(
        store
            .campaign_page("0123456789abcdef0123456789abcdef", &query(None, None, 3))
            .await,
        Ok(None)
    );
    assert_eq!(
        store.campaign_page("a\0b", &query(None, None, 3)).await,
        Ok(None)
    );
}
