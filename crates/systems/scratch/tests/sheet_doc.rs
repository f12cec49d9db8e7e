//! The sheets as one description ([`TextPlay::sheet_doc`]) at the book's
//! "Combat Example" table (001_337b5a42e331e513.txt): the sheet files'
//! ability levels, the hit points and defenses live, and every sheet for
//! every seat (Scratch RPS hides nothing).

use std::path::PathBuf;

use tabula_core::sheet::{CharacterSheet, Item, SheetDoc};
use tabula_core::{Scripted, Seat, Table, TextPlay};
use tabula_scratch::Scratch;

fn table() -> Table<Scratch> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch");
    let text = std::fs::read_to_string(dir.join("combat-example.toml")).unwrap();
    Table::new(Scratch::setup(&text, &dir).unwrap())
}

fn submit(t: &mut Table<Scratch>, who: &str, line: &str, dice: &[u32]) {
    let s = Seat::parse(who);
    let cmd = Scratch::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut roller = Scripted::dice(dice.iter().copied());
    t.submit(&s, &cmd, &mut roller)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
}

fn doc(t: &Table<Scratch>, seat: &str) -> SheetDoc {
    Scratch::sheet_doc(t.state(), &Seat::parse(seat))
}

fn character<'a>(d: &'a SheetDoc, name: &str) -> &'a CharacterSheet {
    d.characters.iter().find(|c| c.name == name).unwrap()
}

fn item<'a>(c: &'a CharacterSheet, label: &str) -> &'a Item {
    c.items()
        .find(|i| i.label() == label)
        .unwrap_or_else(|| panic!("{} has no {label}", c.name))
}

fn level(c: &CharacterSheet, ability: &str) -> String {
    match item(c, "Abilities") {
        Item::List { rows, .. } => rows
            .iter()
            .find(|r| r.name == ability)
            .map(|r| r.value.clone())
            .unwrap_or_else(|| panic!("{} has no {ability}", c.name)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_doc_holds_the_sheet_files_levels_and_defenses() {
    let t = table();
    let d = doc(&t, "chokestar-player");
    assert_eq!(d.characters.len(), 3);
    let choke = character(&d, "Chokestar");
    assert!(choke.mine);
    assert_eq!(choke.subtitle, "bounty hunters");
    // chokestar.toml: wrestling 2, stealth 3, toughness 3.
    assert_eq!(level(choke, "wrestling"), "2");
    assert_eq!(level(choke, "stealth"), "3");
    assert_eq!(level(choke, "toughness"), "3");
    match item(choke, "Abilities") {
        Item::List { rows, .. } => {
            let w = rows.iter().find(|r| r.name == "wrestling").unwrap();
            assert_eq!(w.detail, "non-lethal weapons expert with stun gun");
        }
        other => panic!("{other:?}"),
    }
    // Printed: 13 agility, 10 intelligence, 12 strength, 1 stamina.
    assert_eq!(item(choke, "Agility"), &Item::value("Agility", 13));
    assert_eq!(
        item(choke, "Intelligence"),
        &Item::value("Intelligence", 10)
    );
    assert_eq!(item(choke, "Strength"), &Item::value("Strength", 12));
    assert_eq!(item(choke, "Stamina"), &Item::value("Stamina", 1));
    match item(choke, "Hit points") {
        Item::Track {
            current, max, note, ..
        } => {
            assert_eq!((*current, *max), (3, 3));
            assert_eq!(note, "healthy");
        }
        other => panic!("{other:?}"),
    }
    let bh = character(&d, "Breakhelm X-19");
    assert!(!bh.mine);
    assert_eq!(bh.controller, Some(Seat::Gm));
    assert_eq!(level(bh, "shooting"), "4");
    assert_eq!(item(bh, "Id"), &Item::value("Id", "breakhelm"));
    assert_eq!(item(bh, "Maximum level"), &Item::value("Maximum level", 6));
    assert!(d.table.contains(&Item::value("Phase", "preparation")));
    assert!(d.table.contains(&Item::value("Turn of", "nobody yet")));
}

#[test]
fn hit_points_initiative_and_turn_are_live() {
    let mut t = table();
    // "Combat Example": Chokestar 13 + 6 stealth = 19, Flipfire 17, Breakhelm 14.
    submit(&mut t, "gm", "initiative", &[13, 17, 14]);
    submit(
        &mut t,
        "chokestar-player",
        "chokestar hold breakhelm",
        &[11],
    );
    submit(&mut t, "flipfire-player", "flipfire shoot breakhelm", &[7]);
    submit(&mut t, "gm", "breakhelm fight chokestar", &[14, 10]);
    let d = doc(&t, "flipfire-player");
    let choke = character(&d, "Chokestar");
    assert!(!choke.mine);
    match item(choke, "Hit points") {
        Item::Track {
            current, max, note, ..
        } => {
            assert_eq!((*current, *max), (1, 3));
            assert_eq!(note, "injured");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        item(choke, "Initiative group"),
        &Item::value("Initiative group", "chokestar-player (initiative 19)")
    );
    assert!(d.table.contains(&Item::value("Round", 2)));
    assert!(d.table.contains(&Item::value("Phase", "turns")));
    assert!(
        d.table
            .contains(&Item::value("Turn of", "chokestar-player"))
    );
    match d.table.iter().find(|i| i.label() == "Initiative groups") {
        Some(Item::List { rows, .. }) => {
            let order: Vec<(&str, &str)> = rows
                .iter()
                .map(|r| (r.name.as_str(), r.value.as_str()))
                .collect();
            assert_eq!(
                order,
                [
                    ("chokestar-player", "19"),
                    ("flipfire-player", "17"),
                    ("GM", "14")
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    let text = d.to_text();
    assert!(text.contains("Hit points: 1/3 (injured)"), "{text}");
}

#[test]
fn every_seat_reads_every_sheet() {
    // Nothing of a Scratch RPS sheet is hidden: the same sheets for every
    // seat but for which are `mine`.
    let t = table();
    let gm = doc(&t, "gm");
    let other = doc(&t, "flipfire-player");
    assert_eq!(gm.table, other.table);
    for (a, b) in gm.characters.iter().zip(&other.characters) {
        assert_eq!(a.sections, b.sections);
    }
    assert!(
        gm.characters
            .iter()
            .all(|c| c.items().all(|i| !matches!(i, Item::Hidden { .. })))
    );
    let json = serde_json::to_string(&other).unwrap();
    assert!(
        json.contains("retractable blades"),
        "the GM's character's notes"
    );
}
