//! The sheet document (issue 26, item 2): each character's sheet holds the
//! values of its sheet file and the check being built is a table fact. The
//! Sapio System, "The Elements of a Character" (004_f39b4146df158cae.txt).

use std::path::PathBuf;

use tabula_core::Scripted;
use tabula_core::sheet::{CharacterSheet, Item, Row, SheetDoc};
use tabula_core::system::{Seat, Table, TextPlay};
use tabula_sapio::Sapio;

fn table() -> Table<Sapio> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio");
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Sapio::setup(&text, &dir).unwrap())
}

fn ok(t: &mut Table<Sapio>, who: &str, line: &str) {
    let s = Seat::parse(who);
    let cmd = Sapio::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&s, &cmd, &mut Scripted::default())
        .unwrap_or_else(|e| panic!("{line}: {e}"));
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

/// Wren's sheet file (roof-runner.toml): Roof Runner with Leaping, Night
/// Clerk, Agile and Perceptive, Hide in Plain Sight, her Principle and Worst
/// Impulse, Luck 1, clear Injury and Stress tracks.
#[test]
fn every_value_of_the_sheet_file_is_on_the_sheet() {
    let t = table();
    let doc = Sapio::sheet_doc(t.state(), &Seat::Player("Ana".into()));
    assert_eq!(doc.characters.len(), 4);
    let w = sheet(&doc, "Wren");
    assert!(w.mine);
    assert_eq!(w.controller, Some(Seat::Player("Ana".into())));
    assert_eq!(
        rows(w, "Main Profession"),
        &[Row::new("Roof Runner", "").detail("Leaping")]
    );
    assert_eq!(rows(w, "Side Professions"), &[Row::new("Night Clerk", "")]);
    let q: Vec<&str> = rows(w, "Qualities")
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(q, ["Agile", "Perceptive"]);
    let talents = rows(w, "Special Talents");
    assert_eq!(talents[0].name, "Hide in Plain Sight");
    assert!(
        talents[0].detail.contains("never more than 4"),
        "{talents:?}"
    );
    assert_eq!(
        item(w, "Principle"),
        &Item::value("Principle", "Violence is not the answer")
    );
    assert_eq!(
        item(w, "Worst Impulse"),
        &Item::value("Worst Impulse", "Stealing isn't a big deal")
    );
    assert_eq!(item(w, "Luck"), &Item::value("Luck", 1));
    assert_eq!(item(w, "Injuries"), &Item::track("Injuries", 0, 5));
    assert_eq!(item(w, "Stresses"), &Item::track("Stresses", 0, 5));
    assert_eq!(
        item(w, "Advancement due"),
        &Item::value("Advancement due", "no")
    );
    // Nothing is hidden in Sapio: the GM's document holds the same sheets.
    let gm = Sapio::sheet_doc(t.state(), &Seat::Gm);
    let gw = sheet(&gm, "Wren");
    assert!(!gw.mine);
    assert_eq!(gw.sections, w.sections);
    assert!(sheet(&gm, "Vance").mine);
    assert!(
        !gm.characters
            .iter()
            .flat_map(|c| c.items())
            .any(|i| matches!(i, Item::Hidden { .. }))
    );
}

/// The check being built is a table fact: its focal character, TN and pool so
/// far ("When you invoke a character element").
#[test]
fn the_check_and_its_pool_are_table_facts() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 3");
    ok(&mut t, "Ana", "invoke Roof Runner full");
    ok(&mut t, "Ana", "invoke Leaping");
    let doc = Sapio::sheet_doc(t.state(), &Seat::Player("Ben".into()));
    assert_eq!(doc.table[0], Item::value("Check", "#1: Wren focal, TN 3"));
    match &doc.table[1] {
        Item::Tags { label, tags } => {
            assert_eq!(label, "The pool so far");
            assert!(
                tags.iter().any(|t| t.starts_with("Profession Roof Runner")),
                "{tags:?}"
            );
            assert!(
                tags.contains(&"Specialization Leaping".to_string()),
                "{tags:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    let text = doc.to_text();
    assert!(text.contains("Luck: 1"), "{text}");
}
