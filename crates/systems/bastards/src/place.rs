//! A campaign's characters placed into an A Game of Bastards table file
//! (issue 27, item 8; the plan is [`tabula_core::place`]).
//!
//! - A player slot is a `[[fated]]` entry a player controls: its
//!   `controller` is given and is not the Dealer's, or it has none and its
//!   sheet's `player` names a player (the default controller is the sheet's
//!   player, else the Dealer). Fated characters are the players' and the
//!   Dealer's named characters; Followers and Extras are the Dealer's
//!   ("Opposition", 003_2dfeea144768d328.txt; Tabula's table file,
//!   docs/systems/bastards.md).
//! - A placed Fated is `file` (the campaign's sheet) and `controller` (the
//!   campaign seat), keeping the slot's other settings (`present = false`: the
//!   character waits for an Appearance). The Dealer's Fated, the Followers
//!   and the Extras are kept.

use tabula_core::files::SheetFiles;
use tabula_core::place::{self, PlaceError, Placed};

/// The array of Fated characters in a table file.
const KEY: &str = "fated";

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
        |i, e| {
            let field = format!("{KEY}[{i}]");
            if let Some(c) = place::string(e, &field, "controller")? {
                return Ok(!place::is_gm_name(&c));
            }
            match place::string(e, &field, "file")? {
                Some(f) => Ok(
                    place::sheet_string(files, &format!("{field}.file"), &f, "player")?
                        .is_some_and(|p| !place::is_gm_name(&p)),
                ),
                // An inline sheet: its `player`.
                None => Ok(e
                    .get("sheet")
                    .and_then(|s| s.get("player"))
                    .and_then(|p| p.as_str())
                    .is_some_and(|p| !place::is_gm_name(p))),
            }
        },
        |template, p| {
            let mut t = template.clone();
            t.remove("sheet");
            t.insert("file".into(), p.file.clone().into());
            t.insert("controller".into(), p.seat.to_string().into());
            Ok(t)
        },
    )?;
    place::write(file, KEY, entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::files::InMemoryFiles;
    use tabula_core::{Seat, TextPlay};

    /// `examples/bastards/NAME`.
    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../../examples/bastards/{name}",
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
        for name in ["cynthia.toml", "kodos.toml"] {
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
            renamed(&example("cynthia.toml"), "Ivo", None),
        );
        files.0.insert(
            "mara.toml".into(),
            renamed(&example("kodos.toml"), "Mara", None),
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
        let state = <crate::Bastards as TextPlay>::setup(&text, &files)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let debug = format!("{state:?}");
        assert!(debug.contains("\"Ivo\""), "Ivo is at the table");
        assert!(debug.contains("\"Mara\""), "Mara is at the table");
        assert!(
            !debug.contains("\"Cynthia\""),
            "Cynthia is not at the table"
        );
        assert!(!debug.contains("\"Kodos\""), "Kodos is not at the table");
        assert!(
            !debug.contains("\"Carlton\""),
            "Carlton is not at the table"
        );
        assert!(debug.contains("Bodyguard"), "the NPC Bodyguard is kept");
        assert_eq!(
            <crate::Bastards as TextPlay>::seats(&state),
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
