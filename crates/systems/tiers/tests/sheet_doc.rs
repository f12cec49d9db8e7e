//! The sheets as one description ([`TextPlay::sheet_doc`]) at the example
//! table (`examples/tiers/table.toml`): the sheet files' values (Stats with
//! tiers, Roleplay Bonus, total SP, Items), Health and AP live, the Actions
//! open with their AP cost, and the GM's numbers hidden from the players
//! (Tiers, "Enemy Health", "Buying Rolls"; 002_631931fd73349179.txt).

mod common;

use common::*;
use tabula_core::sheet::{CharacterSheet, Item, SheetDoc};
use tabula_core::{Seat, Table, TextPlay};
use tabula_tiers::Tiers;

fn table() -> Table<Tiers> {
    Table::new(example_state(false))
}

fn doc(t: &Table<Tiers>, seat: &str) -> SheetDoc {
    Tiers::sheet_doc(t.state(), &Seat::parse(seat))
}

fn character<'a>(d: &'a SheetDoc, name: &str) -> &'a CharacterSheet {
    d.characters.iter().find(|c| c.name == name).unwrap()
}

fn item<'a>(c: &'a CharacterSheet, label: &str) -> &'a Item {
    c.items()
        .find(|i| i.label() == label)
        .unwrap_or_else(|| panic!("{} has no {label}", c.name))
}

/// The (value, detail) of the row `name` of the list `label`.
fn row(c: &CharacterSheet, label: &str, name: &str) -> Option<(String, String)> {
    match item(c, label) {
        Item::List { rows, .. } => rows
            .iter()
            .find(|r| r.name == name)
            .map(|r| (r.value.clone(), r.detail.clone())),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_doc_holds_the_sheet_files_values() {
    let t = table();
    let d = doc(&t, "John");
    let john = character(&d, "John");
    assert!(john.mine);
    assert_eq!(john.subtitle, "level 1");
    // john.toml: strength [6, 1], skill [3]; total SP 16; Roleplay Bonus
    // Strength +2, Skill +1 (the book's examples).
    assert_eq!(
        row(john, "Stats (SP, tiers 1-6)", "Strength"),
        Some(("7 SP".into(), "tiers 6 1 0 0 0 0".into()))
    );
    assert_eq!(
        row(john, "Stats (SP, tiers 1-6)", "Skill"),
        Some(("3 SP".into(), "tiers 3 0 0 0 0 0".into()))
    );
    assert_eq!(
        row(john, "Roleplay Bonus", "Strength"),
        Some(("+2".into(), String::new()))
    );
    assert_eq!(
        row(john, "Roleplay Bonus", "Skill"),
        Some(("+1".into(), String::new()))
    );
    assert_eq!(item(john, "Total SP"), &Item::value("Total SP", 16));
    match item(john, "Items") {
        Item::Tags { tags, .. } => assert!(tags.contains(&"Fast Potion".to_string())),
        other => panic!("{other:?}"),
    }
    // Strength tier 2 opens Heavy Blow (3 AP); Dash needs Skill tier 2.
    let (ap, detail) = row(john, "Actions", "Heavy Blow").unwrap();
    assert_eq!(ap, "3 AP");
    assert!(detail.starts_with("Strength tier 2"), "{detail}");
    assert_eq!(row(john, "Actions", "Dash"), None);
    let cristy = character(&d, "Cristy");
    assert!(!cristy.mine);
    assert!(row(cristy, "Actions", "Dash").is_some());
    let steve = character(&d, "Steve");
    assert_eq!(steve.controller, Some(Seat::Gm));
    assert!(steve.subtitle.ends_with("NPC ally"));
    // PSP = John 16 + Cristy 20.
    assert!(
        d.table
            .contains(&Item::value("Party Stat Points (PSP)", 36))
    );
}

#[test]
fn health_and_ap_are_live() {
    let mut t = table();
    let max = t.state().heroes[0].max_health;
    ok(&mut t, "GM: fight", &[]);
    ok(&mut t, "GM: spend Gob Bite d3=1 on John", &[3]);
    ok(&mut t, "GM: end-phase", &[]);
    ok(&mut t, "John: item Fast Potion", &[]);
    let d = doc(&t, "Cristy");
    let john = character(&d, "John");
    match item(john, "Health") {
        Item::Track {
            current, max: m, ..
        } => {
            assert_eq!(*current, 24);
            assert_eq!(*m, i64::from(max));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        item(john, "Action Points (AP)"),
        &Item::track("Action Points (AP)", 5, 6)
    );
    assert!(d.table.contains(&Item::value("Phase", "Player Phase")));
    assert!(d.table.contains(&Item::value("Round", 1)));
}

#[test]
fn a_player_does_not_read_the_gms_numbers() {
    let t = table();
    let gm = doc(&t, "gm");
    let john = doc(&t, "John");
    // The GM reads Gob's Health (5 of 5) and the pool (PSP 36 / 2 on an Easy
    // combat, 2 of it in reserve); John does not.
    let gob_gm = character(&gm, "Gob");
    assert_eq!(item(gob_gm, "Health"), &Item::track("Health", 5, 5));
    assert!(gm.table.iter().any(|i| i.label() == "Enemy Health pool"
        && matches!(i, Item::Value { value, .. } if value.starts_with("18 (reserve 2)"))));
    assert!(gm.table.iter().any(|i| matches!(i, Item::Value { label, value } if label == "Rolls left" && value.starts_with("2d6, 3d3"))));
    let gob = character(&john, "Gob");
    assert!(matches!(item(gob, "Health"), Item::Hidden { .. }));
    for label in ["Enemy Health pool", "Rolls left", "Combat difficulty"] {
        let i = john.table.iter().find(|i| i.label() == label).unwrap();
        assert!(matches!(i, Item::Hidden { .. }), "{label}: {i:?}");
    }
    // Nothing of it in the JSON a player's page reads.
    let json = serde_json::to_string(&john).unwrap();
    assert!(!json.contains("reserve"), "{json}");
    assert!(!json.contains("2d6, 3d3"), "{json}");
    assert!(!json.contains("\"current\":5,\"max\":5"), "{json}");
    assert!(!json.contains("Easy"), "{json}");
    // The heroes are open to every seat.
    assert_eq!(
        character(&john, "Cristy").sections,
        character(&gm, "Cristy").sections
    );
}
