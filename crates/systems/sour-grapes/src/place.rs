//! A campaign's characters placed into a Sour Grapes table file (issue 27,
//! item 8; the plan is [`tabula_core::place`]).
//!
//! - A player slot is a `[[participant]]` a player plays: its `seat` is given
//!   and is not the storyteller's, or it has no `seat` and its character is
//!   not a monster (the seat then defaults to the character's name; a monster
//!   is the storyteller's). Sour Grapes, "Character Creation" and "Monsters"
//!   (000_05a1db5b88f54528.txt); Tabula's table file, docs/systems/sour-grapes.md.
//! - A placed participant is `file` (the campaign's sheet) and `seat` (the
//!   campaign seat). The example's `cards`, `comparable` and `effects` were
//!   the table's agreement for the example's character and are not carried
//!   over: the placed character plays the cards its sheet lists (`cards`),
//!   else every action card of the table ("Cards"), with the comparables its
//!   sheet records ("Skills": the table agrees them per character), and
//!   the effects its sheet carries ("Effects": they last between encounters).

use tabula_core::files::SheetFiles;
use tabula_core::place::{self, PlaceError, Placed};

use crate::character::{Character, CharacterDraft};

/// The array of player and storyteller characters in a table file.
const KEY: &str = "participant";

/// The table file `table` with `players` placed (see the module).
///
/// # Errors
/// [`PlaceError`] naming the field.
pub fn place<F: SheetFiles + ?Sized>(
    table: &str,
    files: &F,
    players: &[Placed],
) -> Result<String, PlaceError> {
    let mut file = place::parse(table)?;
    let entries = place::take_entries(&mut file, KEY)?;
    let entries = place::replace_slots(
        KEY,
        entries,
        players,
        |i, e| is_player(files, i, e),
        |_template, p| {
            let mut t = toml::Table::new();
            t.insert("file".into(), p.file.clone().into());
            t.insert("seat".into(), p.seat.to_string().into());
            Ok(t)
        },
    )?;
    place::write(file, KEY, entries)
}

/// True when participant `i` is a player's (see the module).
fn is_player<F: SheetFiles + ?Sized>(
    files: &F,
    i: usize,
    e: &toml::Table,
) -> Result<bool, PlaceError> {
    let field = format!("{KEY}[{i}]");
    if let Some(seat) = place::string(e, &field, "seat")? {
        return Ok(!place::is_gm_name(&seat));
    }
    let sheet = |file: &str, error: String| PlaceError::Sheet {
        field: format!("{field}.file"),
        file: file.to_string(),
        error,
    };
    let character = match (place::string(e, &field, "file")?, e.get("sheet")) {
        (Some(f), _) => {
            let text = files.read(&f).map_err(|x| sheet(&f, x.to_string()))?;
            Character::from_toml(&text).map_err(|x| sheet(&f, x.to_string()))?
        }
        (None, Some(v)) => {
            let draft: CharacterDraft =
                v.clone()
                    .try_into()
                    .map_err(|x: toml::de::Error| PlaceError::Field {
                        field: format!("{field}.sheet"),
                        message: x.to_string(),
                    })?;
            Character::from_draft(draft).map_err(|x| PlaceError::Field {
                field: format!("{field}.sheet"),
                message: x.to_string(),
            })?
        }
        (None, None) => {
            return Err(PlaceError::Field {
                field,
                message: "give exactly one of `file` or `sheet`".into(),
            });
        }
    };
    Ok(!character.is_monster())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::files::InMemoryFiles;
    use tabula_core::{Seat, TextPlay};

    /// `examples/sour-grapes/NAME`.
    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../../examples/sour-grapes/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("an example file")
    }

    /// A sheet with its character's name (the first `name =` line) and,
    /// when given, its `player` changed: a campaign's own character.
    fn renamed(sheet: &str, name: &str, player: Option<&str>) -> String {
        let mut named = false;
        sheet
            .lines()
            .map(|l| {
                if !named && l.starts_with("name =") {
                    named = true;
                    format!("name = {name:?}")
                } else if let Some(p) = player.filter(|_| l.starts_with("player =")) {
                    format!("player = {p:?}")
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Issue 27, item 8: two campaign characters placed into the bundled
    /// example set up with the campaign's sheets; the example's player
    /// characters are gone, its NPCs stay.
    #[test]
    fn two_campaign_characters_take_the_example_players_places() {
        let mut files = InMemoryFiles::default();
        for name in ["example-character.toml", "rook.toml"] {
            files.0.insert(name.to_string(), example(name));
        }
        let table = example("table.toml");
        // The example's other sheets (its NPCs).
        for line in table.lines().filter(|l| l.contains(".toml\"")) {
            for part in line.split('"').filter(|p| p.ends_with(".toml")) {
                files
                    .0
                    .entry(part.to_string())
                    .or_insert_with(|| example(part));
            }
        }
        files.0.insert(
            "ivo.toml".into(),
            renamed(&example("example-character.toml"), "Ivo", None),
        );
        files.0.insert(
            "mara.toml".into(),
            renamed(&example("rook.toml"), "Mara", None),
        );
        let players = [
            Placed {
                seat: Seat::Player("Lee".into()),
                file: "ivo.toml".into(),
            },
            Placed {
                seat: Seat::Player("Kim".into()),
                file: "mara.toml".into(),
            },
        ];
        let text = place(&table, &files, &players).expect("placed");
        let state = <crate::SourGrapes as TextPlay>::setup(&text, &files)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let debug = format!("{state:?}");
        assert!(debug.contains("\"Ivo\""), "Ivo is at the table");
        assert!(debug.contains("\"Mara\""), "Mara is at the table");
        assert!(
            !debug.contains("\"Example Player\""),
            "Example Player is not at the table"
        );
        assert!(!debug.contains("\"Rook\""), "Rook is not at the table");
        assert!(
            debug.contains("Tavern Brute"),
            "the NPC Tavern Brute is kept"
        );
        assert!(
            debug.contains("Drunk Sailor"),
            "the NPC Drunk Sailor is kept"
        );
        assert_eq!(
            <crate::SourGrapes as TextPlay>::seats(&state),
            vec![
                Seat::Gm,
                Seat::Player("Lee".into()),
                Seat::Player("Kim".into())
            ]
        );
    }

    /// No campaign character, or a table without player slots: refused,
    /// naming what is wrong.
    #[test]
    fn nothing_to_place_is_refused() {
        let files = InMemoryFiles::default();
        assert_eq!(
            place(&example("table.toml"), &files, &[]),
            Err(PlaceError::NoCharacters)
        );
        assert!(matches!(
            place("title = [", &files, &[]),
            Err(PlaceError::Toml(_))
        ));
    }
}
