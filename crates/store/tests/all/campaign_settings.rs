//! A campaign carries its setting's rules (R-SCR-9: Scratch RPS's `[rules]`),
//! kept as TOML text with the campaign on both backends (see `common`).

use crate::common;

use common::{Db, seat};
use tabula_store::{MAX_SHEET_BYTES, NewCampaign, Role, StoreError};

stories!(r_scr_9_a_campaign_keeps_its_settings,);

const SETTINGS: &str = "[rules]\ncp = 12\nmax_level = 5\n";

async fn r_scr_9_a_campaign_keeps_its_settings(db: Db) {
    let store = db.store();
    let set = store
        .create_campaign(NewCampaign {
            system: "scratch".into(),
            name: "Slightly More Powerful".into(),
            seats: vec![seat("gm", Role::Gm, "hash-gm")],
            settings: SETTINGS.into(),
        })
        .await
        .unwrap();
    let plain = store
        .create_campaign(NewCampaign {
            system: "scratch".into(),
            name: "Average People".into(),
            seats: vec![],
            settings: String::new(),
        })
        .await
        .unwrap();
    let loaded = store.load_campaign(&set).await.unwrap().unwrap();
    assert_eq!(loaded.summary.settings, SETTINGS);
    let loaded = store.load_campaign(&plain).await.unwrap().unwrap();
    assert_eq!(loaded.summary.settings, "", "empty: the book's own rules");
    let list = store.list_campaigns().await.unwrap();
    let got: Vec<(&str, &str)> = list
        .iter()
        .map(|c| (c.name.as_str(), c.settings.as_str()))
        .collect();
    assert_eq!(
        got,
        [("Average People", ""), ("Slightly More Powerful", SETTINGS)]
    );
    // Text the store cannot keep, or too much of it, is refused; nothing is made.
    let nul = store
        .create_campaign(NewCampaign {
            system: "scratch".into(),
            name: "Nul".into(),
            seats: vec![],
            settings: "[rules]\0".into(),
        })
        .await;
    assert!(matches!(nul, Err(StoreError::NulInText { .. })), "{nul:?}");
    let big = store
        .create_campaign(NewCampaign {
            system: "scratch".into(),
            name: "Big".into(),
            seats: vec![],
            settings: "#".repeat(MAX_SHEET_BYTES + 1),
        })
        .await;
    assert!(
        matches!(big, Err(StoreError::SheetTooLarge { .. })),
        "{big:?}"
    );
    assert_eq!(store.list_campaigns().await.unwrap().len(), 2);
    // A reopened store has them back.
    let store = db.reopen.open().await;
    let loaded = store.load_campaign(&set).await.unwrap().unwrap();
    assert_eq!(loaded.summary.settings, SETTINGS);
}
