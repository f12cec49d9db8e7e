//! Reading a table file.

use crate::name_match::same_name;
use serde::Deserialize;

use crate::character::{Character, DraftError};
use crate::state::State;
use crate::table::MAX_CHARACTERS;

/// A table file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Not TOML, or a field of the wrong type.
    #[error("table file: {0}")]
    Toml(String),
    /// A character file could not be read.
    #[error("characters[{index}]: cannot read {path}: {error}")]
    File {
        /// Index in `characters`.
        index: usize,
        /// The path.
        path: String,
        /// The I/O error.
        error: String,
    },
    /// A character file is not TOML of a character.
    #[error("characters[{index}] ({path}): {error}")]
    Sheet {
        /// Index in `characters`.
        index: usize,
        /// The path or `inline`.
        path: String,
        /// What is wrong.
        error: String,
    },
    /// A character breaks the rules.
    #[error("characters[{index}] ({path}): {error}")]
    Character {
        /// Index in `characters`.
        index: usize,
        /// The path or `inline`.
        path: String,
        /// Every broken rule.
        error: DraftError,
    },
    /// A table needs at least one character and at most [`MAX_CHARACTERS`].
    #[error("characters: a table needs 1 to {MAX_CHARACTERS} characters, not {0}")]
    Count(usize),
    /// Two characters share a name.
    #[error("characters: two characters are called {0:?}")]
    Duplicate(String),
    /// Each entry names a file or holds a sheet, not both or neither.
    #[error("characters[{0}]: give either `file` or `sheet`")]
    Entry(usize),
}

/// A table file (TOML): a title and the characters (files relative to the table
/// file, or inline sheets).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// The encounter's title.
    #[serde(default)]
    pub title: String,
    /// The characters.
    pub characters: Vec<TableCharacter>,
}

/// One character of a table file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCharacter {
    /// A character file, relative to the table file.
    #[serde(default)]
    pub file: Option<String>,
    /// An inline sheet.
    #[serde(default)]
    pub sheet: Option<crate::character::CharacterDraft>,
}

/// Build a table from a table file's text.
///
/// # Errors
/// [`SetupError`] naming the field or character.
pub fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, SetupError> {
    let file: TableFile = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    if file.characters.is_empty() || file.characters.len() > MAX_CHARACTERS {
        return Err(SetupError::Count(file.characters.len()));
    }
    let mut chars: Vec<Character> = Vec::new();
    for (index, entry) in file.characters.iter().enumerate() {
        let (path, draft) = match (&entry.file, &entry.sheet) {
            (Some(f), None) => {
                let t = files.read(f).map_err(|e| SetupError::File {
                    index,
                    path: f.clone(),
                    error: e.to_string(),
                })?;
                let d = toml::from_str(&t).map_err(|e| SetupError::Sheet {
                    index,
                    path: f.clone(),
                    error: e.to_string(),
                })?;
                (f.clone(), d)
            }
            (None, Some(s)) => ("inline".to_string(), s.clone()),
            _ => return Err(SetupError::Entry(index)),
        };
        let c = Character::from_draft(draft).map_err(|error| SetupError::Character {
            index,
            path: path.clone(),
            error,
        })?;
        if chars.iter().any(|x| same_name(x.name(), c.name())) {
            return Err(SetupError::Duplicate(c.name().to_string()));
        }
        chars.push(c);
    }
    Ok(State::new(&file.title, chars))
}
