//! # tabula-bastards
//!
//! The rules of A Game of Bastards (003_2dfeea144768d328.txt), system id `bastards`.
//!
//! | module | role | the book's chapters |
//! |---|---|---|
//! | [`rules`] | the table's [`Rule`](tabula_core::rule::Rule) citations and limits | "Steps", "Core Mechanic", "Initiative", "Combat", ... |
//! | [`values`], [`deck`] | card values, suit order, the shoe; drawing with Jokers and Wildcards | "Combat" (card values), "Shuffling", "Jokers – Unbound by Fate"; R-GB-1 .. R-GB-3 |
//! | [`fate`], [`chance`] | Skill Hands against the Dealer's Fate Draw, the simple opposed hand; exact odds | "Skill Hand", "Core Mechanic"; R-GB-6, R-GB-11 |
//! | [`character`], [`advantages`] | the sheet and its validating constructor; the 31 Advantages | "Character Building Rules", "Skills", "Specialties", "Advantages" |
//! | [`builder`] | creation step by step ([`tabula_core::builder::CharacterBook`]) | "Character Building Rules" |
//! | [`advance`] | what an encounter leaves on a sheet, and spending XP | issue 16 |
//! | [`table`] | [`Bastards`]: [`System`](tabula_core::system::System) and [`TextPlay`](tabula_core::system::TextPlay), delegating to the modules below | |
//! | [`state`], [`command`], [`event`] | the table's state, commands and events | "Steps" / "Opposition" |
//! | [`decide`] | `decide`, one file per phase (`table`, `skill_check`, `turn`, `exchange`, `action`, `dramatic`) and the chapters they share (`hand`, `turns`, `round`, `advantage`, `out`) | "Steps", "Skill Hands in Oppositions", "Initiative", "Desperation", "Advantages", "Building A Scene" |
//! | [`evolve`] | `evolve`, by kind of event | |
//! | [`setup`] | the table file read into a [`State`] | "Building A Scene", "Optional Rules" |
//! | [`legal`], [`view`] | what a seat may do now; what it may see | R-GB-12 |
//! | [`text`] | status, events in words, the command-line parser, the command reference | R-GB-12 |
//! | [`sheet`] | the index card ([`tabula_core::sheet::SheetDoc`]) | |
//! | [`policy`] | the autopilot and simulation policy ([`tabula_core::policy::Policy`]) | |
//! | [`odds`] | odds in the betting step | R-GB-11, R-GB-12 |
//! | [`gm`], [`place`], [`cli`] | the GM's tools, placing a campaign's characters, the CLI tools | |
//!
//! Hidden information (R-GB-12): [`System::view`](tabula_core::system::System::view), [`TextPlay::status`](tabula_core::system::TextPlay::status) and
//! [`TextPlay::describe`](tabula_core::system::TextPlay::describe) show only what the book puts on the table plus, for the
//! asking seat, its own hands and its own characters' pools. `describe` is for a
//! shared log (everyone); [`Bastards::describe_for`] is one seat's log line.
//!
//! It depends on `tabula-core` only.
//!
//! # Examples
//!
//! Carlton's repair ("Skill Hand"): Mind 3, Repair 2 against the Dealer's three
//! cards.
//!
//! ```
//! use tabula_bastards::fate::{check, SkillHand};
//! use tabula_core::roller::Scripted;
//!
//! let hand = SkillHand { trait_score: 3, rank: 2, modifier: 0, specialty: 0 };
//! let mut cards = Scripted::values(["9S", "4C", "JH", "2D", "7S"]);
//! let result = check(hand, &mut cards)?;
//! assert!(result.success);
//! assert_eq!((result.player_total, result.dealer_total), (12, 11));
//! let odds = tabula_bastards::chance::skill_hand(hand)?;
//! assert!(odds.probability > 0.5);
//! # Ok::<(), tabula_core::rule::RuleError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advance;
pub mod advantages;
pub mod builder;
pub mod chance;
pub mod character;
pub mod cli;
pub mod command;
pub mod decide;
pub mod deck;
pub mod event;
pub mod evolve;
pub mod fate;
pub mod gm;
pub mod legal;
pub mod odds;
pub mod place;
pub mod policy;
pub mod rules;
pub mod setup;
pub mod sheet;
pub mod state;
pub mod table;
pub mod text;
pub mod values;
pub mod view;

/// The system id used on the command line and in table files.
pub const ID: &str = "bastards";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list).
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "A Game of Bastards",
    seed: values::SEED,
    randomizer: "a shoe of two 54-card decks; skill hands and Fate Draws",
};

pub use command::Command;
pub use event::Event;
pub use state::State;
pub use table::Bastards;
pub use view::View;
