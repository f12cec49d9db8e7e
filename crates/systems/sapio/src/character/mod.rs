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

/// "The Elements of a Character".
pub const RULE_ELEMENTS: Rule = Rule::book(crate::BOOK, "The Elements of a Character");
/// "Professions and Specializations": two words or less.
pub const RULE_PROFESSIONS: Rule = Rule::book(crate::BOOK, "Professions and Specializations");
/// "Qualities": not so broad they could apply anywhere; "Lucky" and "Competent"
/// are refused. R-SA-10.
pub const RULE_QUALITIES: Rule = Rule::book(crate::BOOK, "Qualities").ruling("R-SA-10");
/// Magical or divine abilities need both a specific Quality and a Special Talent.
/// "Building a Starting Character" (the footnote on the starred Qualities); R-SA-10.
pub const RULE_MAGIC: Rule =
    Rule::book(crate::BOOK, "Building a Starting Character").ruling("R-SA-10");
/// A magic Quality and its magic Special Talent may be gained one advancement
/// apart: the first alone is kept, marked unpaired, and gives nothing until
/// the pair is complete. "Advancement", "Building a Starting Character";
/// R-SA-12.
pub const RULE_MAGIC_UNPAIRED: Rule = Rule::book(crate::BOOK, "Advancement").ruling("R-SA-12");
/// "Special Talents".
pub const RULE_TALENTS: Rule = Rule::book(crate::BOOK, "Special Talents");
/// "Principles and Worst Impulses".
pub const RULE_PRINCIPLES: Rule = Rule::book(crate::BOOK, "Principles and Worst Impulses");
/// "Building a Starting Character".
pub const RULE_STARTING: Rule = Rule::book(crate::BOOK, "Building a Starting Character");
/// "Advancement": the cycle rule and the changes a completed cycle allows.
pub const RULE_ADVANCEMENT: Rule = Rule::book(crate::BOOK, "Advancement");
/// "Luck".
pub const RULE_LUCK: Rule = Rule::book(crate::BOOK, "Luck");
/// Tabula's own limits on a sheet (names a table can show, no control
/// characters, text lengths and list sizes, TOML that reads).
pub const RULE_SHEET: Rule = Rule::table("Character sheets");

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
