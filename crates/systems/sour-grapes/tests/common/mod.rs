//! Shared helpers for the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tabula_core::{Roller, Seat, Table, TextPlay};
use tabula_sour_grapes::SourGrapes;
use tabula_sour_grapes::state::State;

pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sour-grapes")
}

pub fn example_table() -> Table<SourGrapes> {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(SourGrapes::setup(&text, &dir).unwrap())
}

/// A table from inline TOML, with sheets inline.
pub fn table_from(text: &str) -> Table<SourGrapes> {
    Table::new(SourGrapes::setup(text, &examples()).unwrap())
}

/// Split `[SEAT:] COMMAND` the way the play driver does: a prefix naming a seat
/// of the table (any case, quotes allowed). A one-word prefix that is no seat
/// here still gives that seat (the driver refuses it before `decide`; the
/// tests check that `decide` refuses it too).
pub fn seat_and_body(state: &State, line: &str) -> (Seat, String) {
    let seats = SourGrapes::seats(state);
    if let Some((seat, rest)) = tabula_core::grammar::seat_prefix(line, &seats) {
        return (seat, rest.to_string());
    }
    match line.split_once(':') {
        Some((seat, rest)) if !seat.trim().is_empty() && !seat.trim().contains(' ') => {
            (Seat::parse(seat), rest.trim().to_string())
        }
        _ => (SourGrapes::default_seat(state), line.to_string()),
    }
}

/// Give one line; panics with the refusal when it is refused.
pub fn give(table: &mut Table<SourGrapes>, line: &str, roller: &mut dyn Roller) {
    try_give(table, line, roller).unwrap_or_else(|e| panic!("{line}: {e}"));
}

/// Give one line; the refusal as text.
pub fn try_give(
    table: &mut Table<SourGrapes>,
    line: &str,
    roller: &mut dyn Roller,
) -> Result<(), String> {
    let (seat, body) = seat_and_body(table.state(), line);
    let cmd = SourGrapes::parse_command(table.state(), &seat, &body).map_err(|e| e.to_string())?;
    table
        .submit(&seat, &cmd, roller)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

pub const TWO_SHEETS: &str = r#"
title = "test"
initiative_d20 = false

[[participant]]
seat = "Sam"
cards = ["Attack", "Dodge", "Shove", "Trained Breathing", "Sand Strike", "Flame Weapon"]
[participant.sheet]
name = "Hero"
[participant.sheet.stats]
agility = 5
might = 3
knowledge = 4
perception = 7
prestige = 5
resolve = 4
spirit = 3
stamina = 4
vitality = 6
[[participant.sheet.skills]]
name = "Swords"
rating = 2
[[participant.sheet.skills]]
name = "Athletics"
rating = 2
[[participant.sheet.skills]]
name = "Fast Talking"
rating = 2
[[participant.sheet.skills]]
name = "lock-pick"
rating = 2
[[participant.sheet.skills]]
name = "Judo"
rating = 2

[[participant]]
cards = ["Attack", "Dodge"]
[participant.sheet]
name = "Ogre"
monster = true
[participant.sheet.stats]
agility = 2
might = { actual = 5, current = 0, injured = true }
knowledge = 1
perception = 2
prestige = 1
resolve = 2
spirit = 1
stamina = 5
vitality = 8
"#;
