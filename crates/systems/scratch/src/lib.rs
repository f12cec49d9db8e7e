//! # tabula-scratch
//!
//! The rules of Scratch RPS (001_337b5a42e331e513.txt), system id `scratch`, with
//! the rulings R-SCR-1 to R-SCR-10 of `RULINGS.md`.
//!
//! Modules follow the book (the shared skeleton of every book crate):
//!
//! | module | role | chapters |
//! |---|---|---|
//! | [`rules`] | the rule citations and the table's options | all; R-SCR-7, R-SCR-9 |
//! | [`character`] | abilities with levels, character points, the maximum level (the table's, binding every sheet: R-SCR-7), derived defenses, stamina and hit points, carrying capacity, command's minions; a [`CharacterDraft`] (TOML) becomes a [`Character`] only through [`Character::from_draft`] | "Abilities", "Defenses", "Hit Points", "Support Abilities" |
//! | [`builder`] | `CharacterBook` for [`Scratch`]: creation as steps (a [`builder::Draft`], live budgets and defenses, the validator's own problems), and the sheet an encounter leaves | "Abilities", the introduction |
//! | [`advance`] | the advancement commands of the proposed ruling R-SCR-8 (the GM awards CP; the player raises abilities within the maximum level) | "Abilities", "Toughness", "Movement Abilities"; R-SCR-8 |
//! | [`table`] | [`Scratch`]: the `System` and `TextPlay` impls, delegating to the modules below | "Turns" |
//! | [`state`] | an encounter's state: initiative groups, turns with one regular and one bonus action, hit points, and the states (delayed, panicked, held, evading, in cover, engaged, escaped) | "Turns", "Hit Points", "Basic Actions" |
//! | [`command`] | the [`Command`] and [`Action`] enums | "Turns", "Basic Actions", the abilities |
//! | [`event`] | the [`Event`] enum, each with every die | "Turns" |
//! | [`decide`] | `decide`: the dispatch, then `prepare` (initiative, crafting), `turn`, `plan` (every basic action and ability action checked) and `execute` (rolled) | "Turns", "Basic Actions", the abilities, "Rolls" |
//! | [`evolve`] | `evolve`: each event applied to the state | "Turns", "Hit Points" |
//! | [`setup`] | a table and its encounter from the table file and the character files, the `[rules]` | "Turns"; R-SCR-7, R-SCR-9 |
//! | [`legal`] | `legal_commands`: what may this seat do now | "Turns" |
//! | [`view`] | what every seat sees (Scratch RPS hides nothing) | "Turns" |
//! | [`text`] | the command-line parser, the log lines and the status (every die shown), the command reference `COMMANDS` | all |
//! | [`sheet`](mod@sheet) | the sheets as one description for every front end, and the text sheet | "Support Abilities", "Combat Example" |
//! | [`policy`] | the automatic players | "Turns", "Basic Actions" |
//! | [`odds`] | the odds of each action a seat may take now | "Rolls" |
//! | [`gm`], [`place`], [`cli`] | the GM's tools (`adjust`, `remove`, `add`, `end-encounter`), a campaign's characters placed into a table file, the `tabula scratch` tools | the table's own rules; "Combat", "Support Abilities" |
//! | [`rolls`] | d20 + ability level against a difficulty, the natural 20, the d6 alternatives (R-SCR-6), exact odds of rolls and of damage | "Rolls" |
//! | [`abilities`] | the book's abilities and terrain | "Abilities", "Movement Abilities" |
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

pub mod advance;
pub mod builder;
pub mod command;
pub mod decide;
pub mod event;
pub mod evolve;
pub mod gm;
pub mod legal;
pub mod odds;
pub mod place;
pub mod policy;
pub mod setup;
pub mod sheet;
pub mod state;
pub mod table;
pub mod text;
pub mod view;

pub use command::{Action, Command};
pub use event::Event;
pub use setup::SetupError;
pub use state::{Phase, State};
pub use table::Scratch;
pub use view::View;
