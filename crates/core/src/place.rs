//! The next encounter of a campaign (issue 27, item 8): a book places a
//! campaign's player characters into one of its table files
//! ([`crate::builder::CharacterBook::place`]).
//!
//! Every book follows the same plan, written once here:
//!
//! - The table file's *player slots* are its entries a player plays (each book
//!   says how it tells them from the GM's: a seat, a sheet's `player`, a
//!   `[[players]]` list). Every other entry (NPCs, monsters, allies, enemies)
//!   and every other setting of the file is kept.
//! - The campaign's characters fill the slots in order, the i-th character
//!   taking the i-th slot's settings (its Zone, side, presence); a character
//!   past the last slot takes the last slot's settings; slots past the last
//!   character are dropped (Tabula's decision: the example's player
//!   characters never sit beside the campaign's).
//! - The placed characters stand where the first slot stood, in the
//!   campaign's order.
//!
//! The text returned is the table file rewritten as TOML (its comments are
//! not kept); its sheets are named by the campaign characters' file names.

use crate::Seat;
use crate::files::SheetFiles;

/// One campaign character to place: the seat that owns it and the file name
/// its sheet is known by at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The campaign seat that plays it.
    pub seat: Seat,
    /// Its sheet's file name (the campaign's `file`).
    pub file: String,
}

/// Why a table file could not take a campaign's characters. Nothing is
/// changed; each variant names the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// The table file is not TOML.
    #[error("the table file is not TOML: {0}")]
    Toml(String),
    /// A field does not have the shape the book's table file gives it.
    #[error("{field}: {message}")]
    Field {
        /// The field (`participant[2].seat`).
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A sheet an entry names could not be read (to tell a player's
    /// character from the GM's).
    #[error("{field}: cannot read {file}: {error}")]
    Sheet {
        /// The field (`characters[1].file`).
        field: String,
        /// The file name.
        file: String,
        /// What went wrong.
        error: String,
    },
    /// There is no character to place.
    #[error("there is no player character to place: add one to the campaign first")]
    NoCharacters,
    /// The table file has no player slot to take the campaign's characters.
    #[error("{0}: the table file has no player character to replace")]
    NoSlot(String),
}

/// Read a table file's text.
///
/// # Errors
/// [`PlaceError::Toml`].
pub fn parse(text: &str) -> Result<toml::Table, PlaceError> {
    text.parse::<toml::Table>()
        .map_err(|e| PlaceError::Toml(e.to_string()))
}

/// The array of tables `key` of `file`, taken out of it (empty when absent).
///
/// # Errors
/// [`PlaceError::Field`] when `key` is not an array of tables.
pub fn take_entries(file: &mut toml::Table, key: &str) -> Result<Vec<toml::Table>, PlaceError> {
    match file.remove(key) {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                toml::Value::Table(t) => Ok(t),
                _ => Err(PlaceError::Field {
                    field: format!("{key}[{i}]"),
                    message: "not a table".into(),
                }),
            })
            .collect(),
        Some(_) => Err(PlaceError::Field {
            field: key.to_string(),
            message: "not an array of tables".into(),
        }),
    }
}

/// The string field `key` of `entry` (`None` when absent).
///
/// # Errors
/// [`PlaceError::Field`] naming `field.key` when it is not a string.
pub fn string(entry: &toml::Table, field: &str, key: &str) -> Result<Option<String>, PlaceError> {
    match entry.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(PlaceError::Field {
            field: format!("{field}.{key}"),
            message: "not a string".into(),
        }),
    }
}

/// The string `key` at the top of the sheet file `file` (a sheet's `player`),
/// read through `files`; `None` when absent.
///
/// # Errors
/// [`PlaceError::Sheet`] when the file cannot be read or is not TOML.
pub fn sheet_string<F: SheetFiles + ?Sized>(
    files: &F,
    field: &str,
    file: &str,
    key: &str,
) -> Result<Option<String>, PlaceError> {
    let sheet = |error: String| PlaceError::Sheet {
        field: field.to_string(),
        file: file.to_string(),
        error,
    };
    let text = files.read(file).map_err(|e| sheet(e.to_string()))?;
    let t = text
        .parse::<toml::Table>()
        .map_err(|e| sheet(e.to_string()))?;
    Ok(t.get(key).and_then(|v| v.as_str()).map(str::to_string))
}

/// True when a seat name (a `seat`, `controller` or sheet `player`) is the
/// GM's: empty, or a name [`Seat::parse`] reads as the GM.
pub fn is_gm_name(name: &str) -> bool {
    name.trim().is_empty() || Seat::parse(name).is_gm()
}

/// Rebuild `entries` with the player slots (where `is_slot` says so) replaced
/// by `units` (a character each, or Scratch RPS's group of one seat's
/// characters), as the module says: the entries `make` builds from a slot's
/// template and a unit stand where the first slot stood; the other entries
/// keep their order.
///
/// # Errors
/// [`PlaceError::NoCharacters`] for no unit; [`PlaceError::NoSlot`] naming
/// `key` when no entry is a slot; any error of `is_slot` or `make`.
pub fn replace_slots<T, P, M>(
    key: &str,
    entries: Vec<toml::Table>,
    units: &[T],
    mut is_slot: P,
    mut make: M,
) -> Result<Vec<toml::Table>, PlaceError>
where
    P: FnMut(usize, &toml::Table) -> Result<bool, PlaceError>,
    M: FnMut(&toml::Table, &T) -> Result<toml::Table, PlaceError>,
{
    if units.is_empty() {
        return Err(PlaceError::NoCharacters);
    }
    let mut slots = Vec::new();
    let mut kept = Vec::new();
    let mut first = None;
    for (i, e) in entries.into_iter().enumerate() {
        if is_slot(i, &e)? {
            first.get_or_insert(kept.len());
            slots.push(e);
        } else {
            kept.push(e);
        }
    }
    let Some(first) = first else {
        return Err(PlaceError::NoSlot(key.to_string()));
    };
    let mut placed = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let Some(template) = slots.get(i).or(slots.last()) else {
            return Err(PlaceError::NoSlot(key.to_string()));
        };
        placed.push(make(template, unit)?);
    }
    let mut kept = kept.into_iter();
    let mut out: Vec<toml::Table> = kept.by_ref().take(first).collect();
    out.extend(placed);
    out.extend(kept);
    Ok(out)
}

/// `file` with `entries` as its array of tables `key`, as TOML text.
///
/// # Errors
/// [`PlaceError::Toml`] when the table cannot be written (never for a table
/// read from TOML).
pub fn write(
    mut file: toml::Table,
    key: &str,
    entries: Vec<toml::Table>,
) -> Result<String, PlaceError> {
    file.insert(
        key.to_string(),
        toml::Value::Array(entries.into_iter().map(toml::Value::Table).collect()),
    );
    toml::to_string(&file).map_err(|e| PlaceError::Toml(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, slot: bool) -> toml::Table {
        let mut t = toml::Table::new();
        t.insert("name".into(), name.into());
        t.insert("slot".into(), slot.into());
        t
    }

    fn names(entries: &[toml::Table]) -> Vec<&str> {
        entries
            .iter()
            .filter_map(|e| e.get("name").and_then(toml::Value::as_str))
            .collect()
    }

    fn run(entries: Vec<toml::Table>, units: &[&str]) -> Result<Vec<toml::Table>, PlaceError> {
        replace_slots(
            "x",
            entries,
            units,
            |_, e| Ok(e.get("slot").and_then(toml::Value::as_bool) == Some(true)),
            |template, unit| {
                let mut t = toml::Table::new();
                t.insert("name".into(), (*unit).into());
                t.insert("from".into(), template["name"].clone());
                Ok(t)
            },
        )
    }

    /// The placed characters stand where the first slot stood; extra slots
    /// are dropped, extra characters take the last slot's settings.
    #[test]
    fn characters_fill_the_slots_in_order() {
        let entries = vec![
            entry("npc1", false),
            entry("pc1", true),
            entry("npc2", false),
            entry("pc2", true),
        ];
        let out = run(entries.clone(), &["a"]).unwrap();
        assert_eq!(names(&out), ["npc1", "a", "npc2"]);
        assert_eq!(out[1]["from"].as_str(), Some("pc1"));
        let out = run(entries, &["a", "b", "c"]).unwrap();
        assert_eq!(names(&out), ["npc1", "a", "b", "c", "npc2"]);
        let from: Vec<_> = out[1..4].iter().map(|e| e["from"].as_str()).collect();
        assert_eq!(from, [Some("pc1"), Some("pc2"), Some("pc2")]);
    }

    #[test]
    fn no_character_or_no_slot_is_refused() {
        assert_eq!(
            run(vec![entry("pc", true)], &[]),
            Err(PlaceError::NoCharacters)
        );
        assert_eq!(
            run(vec![entry("npc", false)], &["a"]),
            Err(PlaceError::NoSlot("x".into()))
        );
    }
}
