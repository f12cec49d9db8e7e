//! The sheet document (issue 26, item 2): every index card holds the values
//! of its sheet file, and another seat's pools and hand stay hidden (R-GB-12).
//! A Game of Bastards, "Character sheets (Index Cards)" (003_2dfeea144768d328.txt).

mod common;
use common::*;
use std::path::PathBuf;
use tabula_bastards::Bastards;
use tabula_core::roller::Seeded;
use tabula_core::sheet::{CharacterSheet, Item, Row, SheetDoc};
use tabula_core::system::{Seat, Table, TextPlay};

fn load(file: &str) -> Table<Bastards> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards");
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    Table::new(Bastards::setup(&text, &dir).unwrap())
}

fn sheet<'a>(doc: &'a SheetDoc, name: &str) -> &'a CharacterSheet {
    doc.characters.iter().find(|c| c.name == name).unwrap()
}

fn item<'a>(c: &'a CharacterSheet, label: &str) -> &'a Item {
    c.items()
        .find(|i| i.label() == label)
        .unwrap_or_else(|| panic!("{} has no {label}: {c}", c.name))
}

fn rows<'a>(c: &'a CharacterSheet, label: &str) -> &'a [Row] {
    match item(c, label) {
        Item::List { rows, .. } => rows,
        other => panic!("{label} is {other:?}"),
    }
}

/// Cynthia's sheet file (cynthia.toml): Hearts, Body 2, Spirit 3, Mind 2, Luck
/// 1, Technology 2, Business 3, Sword Combat 2, Toughness and Cunning
/// Linguist, a cane sword (+2, Sword Combat). Stella sees her pools and hand.
#[test]
fn the_owner_reads_every_value_of_the_sheet_file() {
    let mut t = load("table.toml");
    let mut r = Seeded::from_seed(3);
    submit(&mut t, "gm: begin", &mut r).unwrap();
    let s = t.state();
    let stella = Seat::Player("Stella".into());
    let doc = Bastards::sheet_doc(s, &stella);
    assert_eq!(doc.characters.len(), s.combatants.len());
    let c = sheet(&doc, "Cynthia");
    assert!(c.mine);
    assert_eq!(c.controller, Some(Seat::Player("Stella".into())));
    assert!(c.subtitle.starts_with("Fated, Hearts"), "{}", c.subtitle);
    for (t, n) in [("Body", "2"), ("Spirit", "3"), ("Mind", "2"), ("Luck", "1")] {
        assert_eq!(item(c, t), &Item::value(t, n));
    }
    let cyn = s.combatants.iter().find(|x| x.name == "Cynthia").unwrap();
    let body_max = cyn
        .character()
        .unwrap()
        .pool_max(tabula_bastards::character::Trait::Body);
    assert!(matches!(
        item(c, "BP (Body)"),
        Item::Track { current, max, .. } if *current == body_max && *max == body_max
    ));
    let raised = rows(c, "Raised skills");
    for (k, n) in [
        ("Technology", "2"),
        ("Business", "3"),
        ("Sword Combat", "2"),
    ] {
        assert!(
            raised.iter().any(|r| r.name == k && r.value == n),
            "{k} {n}: {raised:?}"
        );
    }
    let all = rows(c, "Skills");
    assert!(all.contains(&Row::new("Business", "3")), "{all:?}");
    assert!(all.contains(&Row::new("Athletics", "1")), "{all:?}");
    assert!(all.contains(&Row::new("Sword Combat", "2")), "{all:?}");
    let adv = rows(c, "Advantages");
    assert!(adv.iter().any(|r| r.name == "Toughness"), "{adv:?}");
    assert!(adv.iter().any(|r| r.name == "Cunning Linguist"), "{adv:?}");
    let inhand = rows(c, "In hand");
    assert!(
        inhand.iter().any(|r| r.name == "Cane sword"
            && r.value == "+2"
            && r.detail.contains("Sword Combat")),
        "{inhand:?}"
    );
    assert_eq!(item(c, "Hand"), &Item::cards("Hand", cyn.hand.clone(), 0));
    assert!(!cyn.hand.is_empty());
    // The table's facts.
    assert_eq!(doc.table[0], Item::value("Round", s.round));
    assert!(doc.table.iter().any(|i| i.label() == "Deck"));
    // The text renderer writes the values.
    let text = doc.to_text();
    assert!(text.contains("Business 3"), "{text}");
    assert!(text.contains("Body: 2"), "{text}");
}

/// R-GB-12: the Dealer reads Cynthia's Traits and skills (on the table) but
/// not her pools nor her hand's faces, in the document or its JSON.
#[test]
fn another_seat_reads_no_pool_and_no_hand_face_r_gb_12() {
    let mut t = load("table.toml");
    let mut r = Seeded::from_seed(5);
    submit(&mut t, "gm: begin", &mut r).unwrap();
    let s = t.state();
    let doc = Bastards::sheet_doc(s, &Seat::Gm);
    let c = sheet(&doc, "Cynthia");
    assert!(!c.mine);
    assert_eq!(item(c, "Spirit"), &Item::value("Spirit", "3"));
    for pool in ["BP (Body)", "SP (Spirit)", "MP (Mind)", "LP (Luck)"] {
        assert!(matches!(item(c, pool), Item::Hidden { .. }), "{pool}");
    }
    let cyn = s.combatants.iter().find(|x| x.name == "Cynthia").unwrap();
    assert_eq!(
        item(c, "Hand"),
        &Item::cards("Hand", vec![], cyn.hand.len())
    );
    let json = serde_json::to_string(c).unwrap();
    for card in &cyn.hand {
        let id = serde_json::to_string(card).unwrap();
        assert!(!json.contains(&id), "{card} in {json}");
    }
    assert!(!json.contains("\"current\""), "{json}");
    // The Dealer's own characters: pools shown.
    let inv = sheet(&doc, "The investor");
    assert!(inv.mine);
    assert!(matches!(item(inv, "BP (Body)"), Item::Track { .. }));
}
