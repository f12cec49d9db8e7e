//! The sheets as one description ([`TextPlay::sheet_doc`]): the values of the
//! example table's sheet files, live at the table, for every seat (Sour
//! Grapes hides nothing of a sheet: "Character Creation", "Cards";
//! 000_05a1db5b88f54528.txt).

mod common;

use common::*;
use tabula_core::sheet::{CharacterSheet, Item, SheetDoc};
use tabula_core::{Seat, Seeded, System, TextPlay};
use tabula_sour_grapes::SourGrapes;

fn doc(table: &tabula_core::Table<SourGrapes>, seat: &str) -> SheetDoc {
    SourGrapes::sheet_doc(table.state(), &Seat::parse(seat))
}

fn character<'a>(doc: &'a SheetDoc, name: &str) -> &'a CharacterSheet {
    doc.characters
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no sheet for {name}"))
}

fn item<'a>(c: &'a CharacterSheet, label: &str) -> &'a Item {
    c.items()
        .find(|i| i.label() == label)
        .unwrap_or_else(|| panic!("{} has no {label}", c.name))
}

#[test]
fn the_doc_holds_the_sheet_files_values() {
    let table = example_table();
    let d = doc(&table, "Sam");
    assert_eq!(d.characters.len(), 4);
    let ex = character(&d, "Example Player");
    assert!(ex.mine);
    assert_eq!(ex.controller, Some(Seat::Player("Sam".into())));
    // example-character.toml: Agility 5; Resolve Actual 4, Current 2, Injured.
    match item(ex, "Agility") {
        Item::Track { current, max, .. } => assert_eq!((*current, *max), (5, 5)),
        other => panic!("Agility: {other:?}"),
    }
    match item(ex, "Resolve") {
        Item::Track {
            current, max, note, ..
        } => {
            assert_eq!((*current, *max), (2, 4));
            assert!(note.contains("injured"), "{note}");
        }
        other => panic!("Resolve: {other:?}"),
    }
    // Skills: fencing rating 3, all tokens available.
    match item(ex, "Skills (tokens available / rating)") {
        Item::List { rows, .. } => {
            let fencing = rows.iter().find(|r| r.name == "fencing").unwrap();
            assert_eq!(fencing.value, "3/3");
            assert!(fencing.detail.starts_with("0 exhausted"));
        }
        other => panic!("Skills: {other:?}"),
    }
    // The table file's cards and comparables.
    match item(ex, "Action cards") {
        Item::List { rows, .. } => {
            let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
            assert_eq!(names, ["Attack", "Dodge", "Shove", "Trained Breathing"]);
        }
        other => panic!("cards: {other:?}"),
    }
    match item(ex, "Comparable skills") {
        Item::List { rows, .. } => {
            assert!(
                rows.iter()
                    .any(|r| r.name == "Swords" && r.value == "as fencing")
            );
        }
        other => panic!("comparable: {other:?}"),
    }
    let sailor = character(&d, "Drunk Sailor");
    assert!(!sailor.mine);
    match item(sailor, "Effects in play") {
        Item::List { rows, .. } => assert_eq!(rows[0].name, "Intoxicated"),
        other => panic!("effects: {other:?}"),
    }
    assert!(
        d.table
            .contains(&Item::value("Moment", "free (Spends and Checks)"))
    );
}

#[test]
fn live_values_follow_the_table() {
    let mut table = example_table();
    let mut roller = Seeded::from_seed(1);
    give(
        &mut table,
        "gm: spend Stamina as \"Example Player\"",
        &mut roller,
    );
    give(&mut table, "gm: event", &mut roller);
    give(&mut table, "Sam: initiative Agility 5", &mut roller);
    let d = doc(&table, "gm");
    let ex = character(&d, "Example Player");
    assert!(!ex.mine, "the storyteller does not play Sam's character");
    match item(ex, "Stamina") {
        Item::Track { current, max, .. } => assert_eq!((*current, *max), (3, 4)),
        other => panic!("Stamina: {other:?}"),
    }
    assert!(d.table.contains(&Item::value("Moment", "Event")));
    let init = d.table.iter().find(|i| i.label() == "Initiative").unwrap();
    match init {
        Item::List { rows, .. } => {
            let rook = rows.iter().find(|r| r.name == "Rook").unwrap();
            assert_eq!(rook.value, "not rolled yet");
            let ex = rows.iter().find(|r| r.name == "Example Player").unwrap();
            assert!(ex.value.parse::<u32>().is_ok(), "{}", ex.value);
        }
        other => panic!("initiative: {other:?}"),
    }
    let text = d.to_text();
    assert!(text.contains("Now: initiative"), "{text}");
}

#[test]
fn every_seat_reads_every_sheet_and_its_cards() {
    // Nothing of a Sour Grapes sheet is hidden: Ana's document holds Sam's
    // character's cards by name, the same sheet as Sam's own but for `mine`.
    let table = example_table();
    let sam = doc(&table, "Sam");
    let ana = doc(&table, "Ana");
    let mut a = character(&ana, "Example Player").clone();
    assert!(!a.mine);
    a.mine = true;
    assert_eq!(&a, character(&sam, "Example Player"));
    assert!(
        !ana.characters
            .iter()
            .any(|c| c.items().any(|i| matches!(i, Item::Hidden { .. })))
    );
    let json = serde_json::to_string(&ana).unwrap();
    assert!(json.contains("Trained Breathing"), "{json}");
}

/// Issue 26, item 1: the forms offer the skills a check may name (the
/// character's own and the table's comparables, "Skills"), under the same
/// parameter name.
#[test]
fn check_offers_the_characters_skills() {
    use tabula_core::ParamKind;
    let table = example_table();
    let legal = SourGrapes::legal_commands(table.state(), &Seat::parse("Sam"));
    let check = legal.iter().find(|c| c.name == "check").unwrap();
    let with = check
        .params
        .iter()
        .find(|p| p.name == "skill (with)")
        .unwrap();
    match &with.kind {
        ParamKind::Choice { options } => {
            assert!(options.iter().any(|o| o == "fencing"), "{options:?}");
            assert!(options.iter().any(|o| o == "Swords"), "{options:?}");
            assert!(!options.iter().any(|o| o == "Ninjitsu"), "Rook's skill");
        }
        other => panic!("{other:?}"),
    }
}

/// The cards on the table in a turn, with their bets, for every seat: the
/// example script's first turn up to Rook's Compliment ("Event",
/// "Targeting & Betting").
#[test]
fn the_turns_cards_are_on_the_table() {
    let mut table = example_table();
    let mut roller = Seeded::from_seed(1);
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    for line in script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take_while(|l| !l.starts_with("gm: divert"))
    {
        give(&mut table, line, &mut roller);
    }
    let d = doc(&table, "Sam");
    assert!(d.table.contains(&Item::value("Controller", "Rook")));
    assert!(d.table.contains(&Item::value("Stunt", "Attack")));
    assert!(d.table.contains(&Item::value(
        "Stunt bets",
        "Success 3 dice + 1 tokens, Result 3 dice + 1 tokens"
    )));
    match d.table.iter().find(|i| i.label() == "Cards in play") {
        Some(Item::List { rows, .. }) => {
            assert_eq!(rows[0].name, "Flame Weapon");
            assert_eq!(rows[0].value, "Compliment");
            assert_eq!(
                rows[0].detail,
                "by Rook, Success 4 dice + 0 tokens, Result 3 dice + 0 tokens"
            );
        }
        other => panic!("{other:?}"),
    }
}
