//! # tabula-tiers
//!
//! The rules of Tiers, the untitled d3/d6 tier system (002_631931fd73349179.txt),
//! system id `tiers`.
//!
//! Modules follow the book's chapters and the skeleton every book shares:
//!
//! | module | role | book chapters |
//! |---|---|---|
//! | [`rules`] | one `Rule` constant per cited section | every chapter |
//! | [`character`] | the character and its draft, validated | Character Creation (level, the four Stats with six tiers, SP, Roleplay Bonus, Health, AP, Items) |
//! | [`builder`] | creation as steps ([`tabula_core::CharacterBook`]) | Character Creation, in its order |
//! | [`advance`] | the sheets an encounter leaves and leveling up between encounters | Player Phase (healed after combat), Items, Death Rolls, Custom Rules; Leveling Up |
//! | [`table`] | [`Tiers`]: [`tabula_core::System`] and [`tabula_core::TextPlay`] | Combat, Phases |
//! | [`state`] | the table's state | Combat, Phases, Action Points, Zones, custom rules |
//! | [`command`] | the [`command::Command`] a seat gives | every chapter a command plays |
//! | [`event`] | the [`event::Event`] a command produces, every die in it | every chapter |
//! | [`decide`] | `decide`: the dispatch, then by phase (`out_of_combat`, `phases`, `player`, `enemy`) | Roleplaying, Phases, Combat, Enemy Behavior |
//! | [`evolve`] | `evolve` | every chapter |
//! | [`setup`] | a table from its file | Creating Combat, custom rules |
//! | [`legal`] | `legal_commands` and the seat's view | Phases, Action Points |
//! | [`text`] | the command-line parser, the log lines, the status, the `COMMANDS` reference | every chapter a command plays |
//! | [`sheet`](mod@sheet) | the sheets (`SheetDoc` and plain text), the GM's numbers hidden from the players | Character Creation, Enemies |
//! | [`policy`] | a reasonable player's and GM's choice ([`tabula_core::Policy`]): the NPC autopilot and encounter simulation | Combat, Enemy Behavior |
//! | [`odds`] | exact odds of a roll against a Goal, a Competing Roll, the damage of bought Rolls | Roleplaying, Competing Rolls, Buying Rolls |
//! | [`gm`], [`place`], [`cli`] | the GM's tools, placing a campaign's characters, the command line | Help for the GM |
//! | [`roleplay`] | d6 + Roleplay Bonus against a Goal, the in-combat d3 roll | Roleplaying, Suggested Difficulty Curve, Competing Rolls, PvP Rolls |
//! | [`content`] | table data: Actions and perks (R-TI-4), Items by speed, roll uses, enemy kinds, NPCs; the Sample Content | Sample Items, Describing Rolls, Enemies, Non-Player Characters |
//! | [`zones`] | Zones as a graph of touching and accessible areas | Zones |
//! | `combat` (private) | the players' side of combat | Actions, Movement, Items |
//! | `enemies` (private) | the GM's side of combat: roll uses, enemy movement, the sample enemies' rules | Describing Rolls, Enemies |
//!
//! It depends on `tabula-core` only.
//!
//! # Examples
//!
//! ```
//! use tabula_tiers::roleplay::{check, RollKind};
//! use tabula_core::{D3Mode, Scripted};
//! // "How to Roleplay": John rolls a 2 with a Roleplay Bonus of +1.
//! let out = check(RollKind::OutOfCombat, 1, 3, D3Mode::True, &mut Scripted::dice([2])).unwrap();
//! assert_eq!(out.roll.total, 3);
//! assert!(out.success);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advance;
pub mod builder;
pub mod character;
pub mod cli;
mod combat;
pub mod command;
pub mod content;
pub mod decide;
mod enemies;
pub mod event;
pub mod evolve;
pub mod gm;
pub mod legal;
pub mod odds;
pub mod place;
pub mod policy;
pub mod roleplay;
pub mod rules;
pub mod setup;
pub mod sheet;
pub mod state;
pub mod table;
pub mod text;
pub mod zones;

pub use table::Tiers;

/// The system id used on the command line and in table files.
pub const ID: &str = "tiers";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list); the book has no title in its text; RULINGS.md names it Tiers.
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "Tiers",
    seed: SEED,
    randomizer: "d6 and d3 plus a Roleplay Bonus against a Goal",
};
/// The seed file of the book.
pub const SEED: &str = rules::SEED;
