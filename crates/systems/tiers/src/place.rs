//! A campaign's characters placed into a Tiers table file (issue 27, item 8;
//! the plan is [`tabula_core::place`]).
//!
//! - The player slots are the `[[players]]` entries: the party, whose Stat
//!   Points make the PSP that sizes the enemies' Health ("Creating Combat",
//!   002_631931fd73349179.txt). `[[allies]]` (NPCs such as the book's Steve,
//!   not in the party), the Zones and the enemies are kept.
//! - A placed player is `file` (the campaign's sheet) and the `zone` of the
//!   slot it fills. A Tiers seat is the character's name (the table file has
//!   no seat field), so the campaign's seat does not appear in the file.
//! - The enemies' Health stays as the file gives it: the GM adjusts it for a
//!   party of another PSP (the book's "Enemy Health" is the GM's to place).

use tabula_core::files::SheetFiles;
use tabula_core::place::{self, PlaceError, Placed};

/// The array of the party in a table file.
const KEY: &str = "players";

/// The table file `table` with `players` placed (see the module).
///
/// # Errors
/// [`PlaceError`] naming the field.
pub fn place<F: SheetFiles + ?Sized>(
    table: &str,
    _files: &F,
    players: &[Placed],
) -> Result<String, PlaceError> {
    let mut file = place::parse(table)?;
    let entries = place::take_entries(&mut file, KEY)?;
    let entries = place::replace_slots(
        KEY,
        entries,
        players,
        |_, _| Ok(true),
        |template, p| {
            let mut t = toml::Table::new();
            t.insert("file".into(), p.file.clone().into());
            if let Some(zone) = template.get("zone") {
                t.insert("zone".into(), zone.clone());
            }
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

    /// `examples/tiers/NAME`.
    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../../examples/tiers/{name}",
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
        for name in ["john.toml", "cristy.toml"] {
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
            renamed(&example("john.toml"), "Ivo", None),
        );
        files.0.insert(
            "mara.toml".into(),
            renamed(&example("cristy.toml"), "Mara", None),
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
        let state = <crate::Tiers as TextPlay>::setup(&text, &files)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let debug = format!("{state:?}");
        assert!(debug.contains("\"Ivo\""), "Ivo is at the table");
        assert!(debug.contains("\"Mara\""), "Mara is at the table");
        assert!(!debug.contains("\"John\""), "John is not at the table");
        assert!(!debug.contains("\"Cristy\""), "Cristy is not at the table");
        assert!(debug.contains("Steve"), "the NPC Steve is kept");
        let seats = <crate::Tiers as TextPlay>::seats(&state);
        assert!(seats.contains(&Seat::Player("Ivo".into())), "{seats:?}");
        assert!(seats.contains(&Seat::Player("Mara".into())), "{seats:?}");
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
