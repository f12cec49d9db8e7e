//! Characters: Professions, Specializations, Side Professions, Qualities, Special
//! Talents, Principle and Worst Impulse, Luck, weapons; the starting build and
//! advancement.
//!
//! The Sapio System, "Characters in Sapio", "Building a Starting Character",
//! "Advancement", "Weapons and causing Injury" (004_f39b4146df158cae.txt).
//!
//! A [`CharacterDraft`] (TOML, public fields) becomes a [`Character`] only through
//! [`Character::from_draft`], whose [`DraftError`] lists every broken rule.

use crate::name_match::same_name;
use serde::{Deserialize, Serialize};
use std::fmt;
use tabula_core::Rule;
use tabula_core::names::{NameError, check_name, check_seat_name};
use tabula_core::system::Seat;

use crate::harm::{Level, Track};

/// The longest name or phrase accepted (a table limit).
pub const MAX_TEXT: usize = 200;
/// The most elements of one kind a character may list (a table limit).
pub const MAX_ELEMENTS: usize = 40;
/// The most Luck a character may hold (a table limit; the book gives 1 to 3 a session).
pub const MAX_LUCK: u32 = 99;
/// The Qualities the book names as too generic: "'Lucky' and 'Competent' are so
/// generic that they could apply to anything, and therefore should not be used."
/// Refused as Qualities (R-SA-10).
pub const TOO_GENERIC_QUALITIES: [&str; 2] = ["Lucky", "Competent"];
/// The book's example Qualities ("Example Qualities").
pub const EXAMPLE_QUALITIES: [&str; 35] = [
    "Strong",
    "Battle-hardened",
    "Towering",
    "Heavy",
    "Imposing",
    "Inconspicuous",
    "Durable",
    "Tough",
    "Unflappable",
    "Agile",
    "Quick",
    "Dextrous",
    "Lithe",
    "Sneaky",
    "Strong-willed",
    "Stoic",
    "Empathetic",
    "Perceptive",
    "Intuitive",
    "Knowledgeable",
    "Smart",
    "Kind",
    "Friendly",
    "Likeable",
    "Crafty",
    "Creative",
    "Inventive",
    "Magnetic",
    "Charismatic",
    "Charming",
    "Gorgeous",
    "Scary",
    "Magically Trained",
    "Magical",
    "Annointed",
];

mod advance;
mod draft;
mod elements;
mod problem;
#[cfg(test)]
mod tests;
mod validate;

pub use advance::*;
use draft::control_char;
pub use draft::*;
pub use problem::*;
use validate::{effect_problem, words};

/// A legal Sapio character. Built only by [`Character::from_draft`]; changed only
/// by the table's events (invocations lock nothing here: see [`crate::invoking`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    sheet: CharacterDraft,
}

/// Read a character file (TOML).
///
/// # Errors
/// [`SheetError::Toml`] for unreadable TOML (naming the field), or
/// [`SheetError::Rules`] with every broken rule.
pub fn parse_character(text: &str) -> Result<Character, SheetError> {
    let draft: CharacterDraft =
        toml::from_str(text).map_err(|e| SheetError::Toml(e.to_string()))?;
    Character::from_draft(draft).map_err(SheetError::Rules)
}

/// A character file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// Not TOML, or a field of the wrong type or unknown.
    #[error("{0}")]
    Toml(String),
    /// Legal TOML, broken rules.
    #[error(transparent)]
    Rules(DraftError),
}
