//! # tabula-core
//!
//! The pieces every Tabula rule system shares:
//!
//! - [`roller`]: the one [`Roller`] trait with its sources, [`Seeded`]
//!   (ChaCha20, serializable so a table resumes the same stream), [`Fast`]
//!   (Xoshiro256++, for simulation), [`Manual`] (values
//!   typed in by people rolling physical dice or drawing physical cards) and
//!   [`Scripted`] (tests and the books' worked examples).
//! - [`dice`]: a die within explicit caps, pools, and the Tiers book's d3.
//! - [`notation`]: the dice notation players type at the table (`4d6kh3`,
//!   `(1d4 + 1) * 2`, `4d6ro<3kh3`, `1d6e6 + 2`, `10d6>=5`), parsed once into a
//!   tree with typed, positioned errors, rolled into an outcome tree, with exact
//!   odds.
//! - [`cards`]: the standard 52 + 2 Jokers, a shoe of N decks where every physical
//!   card keeps its own identity, with tarot suit names as aliases.
//! - [`odds`]: exact finite distributions (convolution, best-of-k, counts of
//!   successes, draws without replacement).
//! - [`files`]: capped reads of table and sheet files, from disk or uploaded.
//! - [`grammar`]: the one command grammar (words, quotes, `SEAT:` prefixes)
//!   every system, the terminal and the server read.
//! - [`usage`]: the one core parser: a typed line read against the usage
//!   line of its command's [`CommandDoc`], the one declaration of its syntax.
//! - [`names`]: the checks every typed name passes (no control characters, no `:`
//!   in a seat name) and case-blind matching.
//! - [`builder`]: character creation as each book teaches it (one
//!   description of the steps, budgets and choices for the terminal and the
//!   browser), the sheet an encounter leaves, advancement between sessions.
//! - [`sheet`]: one description of a character sheet ([`SheetDoc`]), which
//!   the text sheet, the command line and the web page each draw with one
//!   renderer.
//! - `testkit` (cargo feature `testkit`, for the books' tests): random
//!   legal walks, "the policy's choice is always accepted" and "replaying
//!   the log rebuilds the state", written once for every book.
//! - [`decided`]: the state after the events one command has decided so
//!   far, for every book's `decide`.
//! - [`rule`] and [`system`]: rule citations, the [`RuleError`] a refused command
//!   returns, and the decide/evolve [`System`] trait with its event log.
//!
//! A rule system crate depends on this crate only.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod builder;
pub mod cards;
pub mod decided;
pub mod dice;
pub mod files;
pub mod grammar;
pub mod names;
pub mod notation;
pub mod odds;
pub mod place;
pub mod policy;
pub mod roller;
pub mod rule;
pub mod sheet;
pub mod system;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod tool;
pub mod usage;

pub use builder::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook, FieldKind,
    FieldValue, SettingError, SheetAfter,
};
pub use cards::{Card, CardId, Face, Rank, Shoe, Suit};
pub use dice::{D3Mode, DiceError, Die};
pub use notation::{Expr, NotationError, RollOutcome};
pub use policy::{Awaiting, EncounterReport, ParticipantReport, Policy, Resource};
pub use roller::{Fast, Manual, RollError, Roller, Scripted, Seeded, Typed};
pub use rule::{Refusal, Rule, RuleError};
pub use sheet::{CharacterSheet, Item, Row, Section, SheetDoc};
pub use system::{
    ChoiceOdds, CommandDoc, CommandParseError, CommandSpec, EventLog, Giver, LogSymbols, Logged,
    ParamKind, ParamSpec, ParamSyntax, Seat, System, Table, TextPlay, seat_list,
};
pub use tool::{
    BookTools, Chart, ParamValues, Report, Rolled, Tool, ToolError, ToolKind, ToolParam,
};
