//! # tabula-sour-grapes
//!
//! The rules of Sour Grapes (000_05a1db5b88f54528.txt), system id `sour-grapes`.
//!
//! Modules follow the book's chapters and share the skeleton of every book crate:
//!
//! | module | role | the book's chapters |
//! |---|---|---|
//! | [`rules`] | the [`tabula_core::Rule`] constants | every chapter (R-SG-1..R-SG-12) |
//! | [`stats`] | the nine Stats, Actual and Current Stat Value, Injury, depleted-stat conditions | "Stats", "Stat Mechanics"; R-SG-3, R-SG-7, R-SG-10 |
//! | [`check`](mod@check) | the Check roll and its exact odds | "Check"; R-SG-1 |
//! | [`cards`] | action cards as data with fields A-F, the book's seven cards | "Cards", "Card Mechanics"; R-SG-2 |
//! | [`character`] | skills, the sheet as a TOML draft validated into a [`character::Character`], monsters | "Character Creation", "Skills" |
//! | [`builder`] | creation in the book's order ([`tabula_core::CharacterBook`]) | "Character Creation" |
//! | [`advance`] | the sheet an encounter leaves, the Experience table rule between sessions | "Experience", "Effects" |
//! | [`table`] | [`SourGrapes`] and its [`tabula_core::System`] / [`tabula_core::TextPlay`] impls | "Game Moments" |
//! | [`state`] | the table's state: participants, the moment, the turn, bets | "Game Moments", "Event", "Turn Mechanics" |
//! | [`command`] | the [`Command`] enum | "Game Moments" to "Experience" |
//! | [`event`] | the [`Event`] enum | "Game Moments" to "Experience" |
//! | `decide` | `decide`: the dispatch, then one file per moment (`free`, `situation`, `event`, `turn`, `experience`) and the shared `rolls` | "Spend" to "Injury, Exhaust & Damage"; R-SG-4..R-SG-12 |
//! | `evolve` | applying events | the same |
//! | [`setup`](mod@setup) | a table from its file | "Game Moments" |
//! | `legal` | the legal commands of a seat | the same |
//! | [`text`] | the command-line parser, the [`text::COMMANDS`] reference, log lines, the status | the same |
//! | [`sheet`](mod@sheet) | the character sheet at the table, as the book lays it out | "Stats", "Skills", "Cards" |
//! | [`policy`] | a reasonable player's and storyteller's choices ([`tabula_core::Policy`]) | the same |
//! | [`odds`](mod@odds) | the choices of the moment with their exact odds | "Check", "Card Mechanics" |
//! | [`gm`], [`place`], [`cli`] | the storyteller's tools, the place, the book's own CLI commands | GM tools |
//!
//! It depends on `tabula-core` only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advance;
pub mod builder;
pub mod cards;
pub mod character;
pub mod check;
pub mod cli;
pub mod command;
mod decide;
pub mod event;
mod evolve;
pub mod gm;
mod legal;
pub mod odds;
pub mod place;
pub mod policy;
pub mod rules;
pub mod setup;
pub mod sheet;
pub mod state;
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

pub use cards::{ActionCard, CardType};
pub use character::{Character, CharacterDraft};
pub use check::{CheckOutcome, CheckRoll, CheckSpec, check, odds};
pub use command::Command;
pub use event::Event;
pub use state::State;
pub use stats::{Condition, Stat, StatValue};
pub use table::SourGrapes;
