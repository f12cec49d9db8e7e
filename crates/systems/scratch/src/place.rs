//! A campaign's characters placed into a Scratch RPS table file (issue 27,
//! item 8; the plan is [`tabula_core::place`]).
//!
//! - A player slot is a `[[groups]]` entry whose `seat` is not the GM's: a
//!   group is one seat's characters, and groups on one side are companions
//!   (Scratch RPS, "Combat" and "Support Abilities": "traveling companions",
//!   001_337b5a42e331e513.txt; Tabula's table file,
//!   docs/systems/scratch.md).
//! - The campaign's characters are placed one group per seat, in the
//!   campaign's order, each group holding that seat's characters (`file`
//!   names) and taking the `side` of the slot it fills. The GM's groups (the
//!   villains), `[rules]` and `[encounter]` are kept.

use tabula_core::files::SheetFiles;
use tabula_core::place::{self, PlaceError, Placed};

/// The array of groups in a table file.
const KEY: &str = "groups";

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
    // One group per seat, in the order the seats first come.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for p in players {
        let seat = p.seat.to_string();
        match groups.iter_mut().find(|(s, _)| *s == seat) {
            Some((_, files)) => files.push(p.file.clone()),
            None => groups.push((seat, vec![p.file.clone()])),
        }
    }
    let entries = place::replace_slots(
        KEY,
        entries,
        &groups,
        |i, e| {
            let field = format!("{KEY}[{i}]");
            let seat = place::string(e, &field, "seat")?.ok_or(PlaceError::Field {
                field: format!("{field}.seat"),
                message: "missing".into(),
            })?;
            Ok(!place::is_gm_name(&seat))
        },
        |template, (seat, files)| {
            let mut t = toml::Table::new();
            t.insert("seat".into(), seat.clone().into());
            if let Some(side) = template.get("side") {
                t.insert("side".into(), side.clone());
            }
            t.insert(
                "characters".into(),
                toml::Value::Array(files.iter().cloned().map(toml::Value::from).collect()),
            );
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

    /// `examples/scratch/NAME`.
    fn example(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../../examples/scratch/{name}",
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
        for name in ["chokestar.toml", "flipfire.toml"] {
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
            renamed(&example("chokestar.toml"), "Ivo", None),
        );
        files.0.insert(
            "mara.toml".into(),
            renamed(&example("flipfire.toml"), "Mara", None),
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
        let state = <crate::Scratch as TextPlay>::setup(&text, &files)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let debug = format!("{state:?}");
        assert!(debug.contains("\"Ivo\""), "Ivo is at the table");
        assert!(debug.contains("\"Mara\""), "Mara is at the table");
        assert!(
            !debug.contains("\"Chokestar\""),
            "Chokestar is not at the table"
        );
        assert!(
            !debug.contains("\"Flipfire\""),
            "Flipfire is not at the table"
        );
        assert!(
            !debug.contains("\"Zimzambamalam\""),
            "Zimzambamalam is not at the table"
        );
        assert!(
            debug.contains("Breakhelm X-19"),
            "the NPC Breakhelm X-19 is kept"
        );
        assert_eq!(
            <crate::Scratch as TextPlay>::seats(&state),
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
