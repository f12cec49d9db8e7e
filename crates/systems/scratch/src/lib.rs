//! # tabula-scratch
//!
//! The rules of Scratch RPS (001_337b5a42e331e513.txt), system id `scratch`, with
//! the rulings R-SCR-1 to R-SCR-10 of `RULINGS.md`.
//!
//! Modules follow the book:
//! - [`character`]: abilities with levels, character points and the maximum
//!   level (the table's, binding every sheet: R-SCR-7), derived defenses ("Defenses"), stamina and hit points ("Hit Points"),
//!   carrying capacity, command's minions. A [`CharacterDraft`] (TOML) becomes a
//!   [`Character`] only through [`Character::from_draft`].
//! - [`rolls`]: d20 + ability level against a difficulty, the natural 20, the d6
//!   alternatives (R-SCR-6), exact odds of rolls and of damage.
//! - [`rules`]: the rule citations and the table's options.
//! - [`abilities`]: the book's abilities and terrain.
//! - [`encounter`]: an encounter's state, events and `evolve`: initiative
//!   groups, turns with one regular and one bonus action, hit points, and the
//!   states (delayed, panicked, held, evading, in cover, engaged, escaped).
//! - [`actions`]: the commands and `decide`: every basic action and ability
//!   action, and "what may this seat do now".
//! - [`commands`]: the command reference (`COMMANDS`), the parser of the one
//!   command grammar (quoted names, any case, unambiguous prefixes) and the
//!   character sheet in plain text.
//! - [`table`]: [`Scratch`], the `System` and `TextPlay` (table files,
//!   descriptions showing every die, a status with odds).
//! - [`sheet`](mod@sheet): the sheets as one description for every front end.
//! - [`builder`]: `CharacterBook` for [`Scratch`]: creation as the book
//!   teaches it (a [`builder::Draft`], steps, live budgets and defenses, the
//!   validator's own problems), and the sheet an encounter leaves.
//! - [`advancement`]: the advancement commands of the proposed ruling R-SCR-8
//!   (the GM awards CP; the player raises abilities within the maximum level).
//!
//! ```
//! use tabula_scratch::{Character, TableRules};
//! let boss = Character::from_toml(
//!     "name = \"The Boss\"\n[abilities]\nshooting = 2\ndetection = 1\ncommand = 4\ntoughness = 3\n",
//!     &TableRules::default(),
//! ).unwrap();
//! let d = boss.defenses(8);
//! // R-SCR-2: 10 + 4 command, not the printed 11.
//! assert_eq!((d.agility, d.intelligence, d.strength, d.stamina), (10, 14, 11, 1));
//! ```
//!
//! It depends on `tabula-core` only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod abilities;
pub mod character;
pub mod cli;
pub mod rolls;
pub mod rules;

pub use abilities::{Ability, Terrain};
pub use builder::Draft;
pub use character::{
    Carrying, Character, CharacterDraft, CharacterError, CraftedBonus, Defenses, HitPointState,
    LoadError, Problem,
};
pub use rules::{D20Method, TableRules};

/// The system id used on the command line and in table files.
pub const ID: &str = "scratch";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list).
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "Scratch RPS",
    seed: SEED,
    randomizer: "d20 + ability level against a defense",
};
/// The rulebook's seed file.
pub const SEED: &str = "001_337b5a42e331e513.txt";

pub mod actions;
pub mod advancement;
pub mod builder;
pub mod commands;
pub mod encounter;
pub mod gm;
pub mod place;
pub mod policy;
pub mod sheet;
pub mod table;

pub use actions::{Action, Command};
pub use encounter::{Event, Phase, State};
pub use table::{Scratch, SetupError, View};
