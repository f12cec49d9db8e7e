//! A campaign's characters placed into a Sapio System table file (issue 27,
//! item 8; the plan is [`tabula_core::place`]).
//!
//! - A player slot is a `[[characters]]` entry whose sheet names a `player`:
//!   a character without one is the GM's ("Characters",
//!   004_f39b4146df158cae.txt; Tabula's table file, docs/systems/sapio.md).
//! - A placed character is `file` (the campaign's sheet). The table file has
//!   no seat field: the seat that plays a character is its sheet's `player`,
//!   so a campaign sheet should name its owner there. The GM's characters
//!   are kept.

use tabula_core::files::SheetFiles;
use tabula_core::place::{self, PlaceError, Placed};

/// The array of characters in a table file.
const KEY: &str = "characters";

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
            match place::string(e, &field, "file")? {
                Some(f) => Ok(
                    place::sheet_string(files, &format!("{field}.file"), &f, "player")?
                        .is_some_and(|p| !place::is_gm_name(&p)),
                ),
                None => Ok(e
                    .get("sheet")
                    .and_then(|s| s.get("player"))
                    .and_then(|p| p.as_str())
                    .is_some_and(|p| !place::is_gm_name(p))),
            }
        },
        |_template, p| {
            let mut t = toml::Table::new();
            t.insert("file".into(), p.file.clone().into());
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

    /// `examples/sapio/NAME`.
    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../../examples/sapio/{name}",
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
        for name in ["roof-runner.toml", "arcane-knight.toml"] {
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
            renamed(&example("roof-runner.toml"), "Ivo", Some("Lee")),
        );
        files.0.insert(
            "mara.toml".into(),
            renamed(&example("arcane-knight.toml"), "Mara", Some("Kim")),
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
        let state = <crate::Sapio as TextPlay>::setup(&text, &files)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let debug = format!("{state:?}");
        assert!(debug.contains("\"Ivo\""), "Ivo is at the table");
        assert!(debug.contains("\"Mara\""), "Mara is at the table");
        assert!(!debug.contains("\"Wren\""), "Wren is not at the table");
        assert!(
            !debug.contains("\"Brannoc\""),
            "Brannoc is not at the table"
        );
        assert!(!debug.contains("\"Sable\""), "Sable is not at the table");
        assert!(debug.contains("Vance"), "the NPC Vance is kept");
        assert_eq!(
            <crate::Sapio as TextPlay>::seats(&state),
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
