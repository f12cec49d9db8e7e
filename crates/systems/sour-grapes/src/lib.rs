//! # tabula-sour-grapes
//!
//! The rules of Sour Grapes (000_05a1db5b88f54528.txt), system id `sour-grapes`.
//!
//! Modules follow the book's chapters:
//!
//! - [`stats`]: the nine Stats, Actual and Current Stat Value, Injury and the
//!   conditions of a depleted stat ("Stats", "Stat Mechanics"; R-SG-3, R-SG-7, R-SG-10).
//! - [`character`]: skills, the character sheet as a TOML draft validated into a
//!   [`character::Character`], monsters and the experience option.
//! - [`check`](mod@check): the Check roll and its exact odds ("Check"; R-SG-1).
//! - [`cards`]: action cards as data with fields A-F, the book's seven cards
//!   ("Cards", "Card Mechanics"; R-SG-2).
//! - [`table`]: the decide/evolve [`tabula_core::System`] for the game moments:
//!   Spend, Check, Situation and the Event with initiative and the eight-step turn
//!   ("Game Moments" to "Injury, Exhaust & Damage"; R-SG-4..R-SG-12).
//! - [`commands`]: every command once ([`commands::COMMANDS`]) and reading a
//!   command line with every name resolved.
//! - [`sheet`](mod@sheet): the character sheet at the table, as the book lays it out.
//! - [`text`]: terminal play ([`tabula_core::TextPlay`]).
//! - [`policy`]: a reasonable player's and storyteller's choices
//!   ([`tabula_core::Policy`]) for the autopilot and simulated encounters.
//! - [`builder`]: characters outside the table ([`tabula_core::CharacterBook`]):
//!   creation in the book's order, the sheet an encounter leaves, and the
//!   Experience table rule between sessions.
//!
//! It depends on `tabula-core` only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod builder;
pub mod cards;
pub mod character;
pub mod check;
pub mod cli;
pub mod commands;
pub mod gm;
pub mod place;
pub mod policy;
pub mod rules;
pub mod sheet;
pub mod stats;
pub mod table;
pub mod text;

/// The system id used on the command line and in table files.
pub const ID: &str = "sour-grapes";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list); "Sour Grapes" is the book's own title.
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "Sour Grapes",
    seed: SEED,
    randomizer: "d6 pools against a difficulty; action cards",
};
/// The rulebook's seed file.
pub const SEED: &str = "000_05a1db5b88f54528.txt";

/// The Sour Grapes rule system: implements [`tabula_core::System`],
/// [`tabula_core::TextPlay`] and [`tabula_core::CharacterBook`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SourGrapes;

pub use cards::{ActionCard, CardType};
pub use character::{Character, CharacterDraft};
pub use check::{CheckOutcome, CheckRoll, CheckSpec, check, odds};
pub use stats::{Condition, Stat, StatValue};
pub use table::{Command, Event, State};
