//! # tabula-sapio
//!
//! The rules of The Sapio System v0.6 (004_f39b4146df158cae.txt), system id `sapio`,
//! with the rulings R-SA-1 to R-SA-12 of `RULINGS.md`.
//!
//! Modules follow the shared skeleton of the book crates (issue 26, item 5)
//! and the book's chapters:
//!
//! | module | role | chapters of the book |
//! |---|---|---|
//! | [`rules`] | every [`tabula_core::Rule`] constant the crate cites | every chapter below |
//! | [`character`] | the character, its sheet and validation, the draft | "The Elements of a Character", "Professions and Specializations", "Qualities", "Special Talents", "Principles and Worst Impulses" |
//! | [`builder`] | creation as steps ([`tabula_core::CharacterBook`]) | "Building a Starting Character" |
//! | [`advance`] | advancement between sessions; the sheets an encounter leaves ([`advance::lasting`]) | "Advancement", "Injuries and Stresses", "Luck" |
//! | [`table`] | [`Sapio`], its [`tabula_core::System`] and [`tabula_core::TextPlay`] impls, the table limits | "Action Sequences", "Players in the Action Sequence" |
//! | [`state`] | the table's state: characters, locks, the Action Sequence | |
//! | [`command`] | the [`Command`] enum | |
//! | [`event`] | the [`Event`] enum | |
//! | `decide` | `decide`, by phase: `check`, `pool`, `roll`, `record`, `sequence`, `session` | "When to Roll", "Invoking an Element", "Luck", "Action Sequences", "Injuries and Stresses", "Advancement" |
//! | `evolve` | `evolve`: each event applied to the table | |
//! | [`setup`] | reading a table file | |
//! | [`legal`] | `legal_commands`: what a seat may do now | |
//! | [`text`] | the status line and the odds in front of a seat; [`text::parse`](mod@text::parse) (the command-line parser), `describe` (log lines), [`text::COMMANDS`] (the reference) | |
//! | [`sheet`] | the character sheet (`sheet [NAME]`, `SheetDoc`) | |
//! | [`policy`] | the NPC autopilot and simulation policy ([`tabula_core::Policy`]): a fight played as an Action Sequence, pools built and Luck spent by the odds | |
//! | [`odds`] | exact odds of a check | "When to Roll", "Special Situations when Rolling" |
//! | [`gm`], [`place`], [`cli`] | the GM's tools, placing sheets at a table, the command line | |
//! | [`spiral_dice`] | the twelve-faced Spiral Die: Hits, Spares, Spirals (R-SA-1) | "Using The Spiral Dice" |
//! | [`checks`] | building the pool (six dice at most, bonus dice past six lower the TN, R-SA-2), the TN and its Injury/Stress penalty (R-SA-7), success and extra Hits, net Spares and Spirals, Improbable Success (R-SA-3) | "When to Roll", "Special Situations when Rolling" |
//! | [`invoking`] | a check's pool from invoked elements, help, Luck, Principle and Worst Impulse (R-SA-8), Character versus Character (R-SA-5) | "Invoking an Element", "Character versus Character" |
//! | [`harm`] | Injuries and Stresses (R-SA-6), weapons (R-SA-4) | "Injuries and Stresses", "Weapons and causing Injury" |
//!
//!
//! It depends on `tabula-core` only.
//!
//! # Examples
//!
//! A one-shot check of three dice against TN 2, with the faces typed in:
//!
//! ```
//! use tabula_core::Scripted;
//! use tabula_sapio::checks::{check, Net, PoolSpec};
//!
//! let spec = PoolSpec { built: 3, tn: 2, ..PoolSpec::default() };
//! let report = check(&spec, &mut Scripted::values(["H", "HH@", "S"])).unwrap();
//! assert!(report.roll.success);
//! assert_eq!(report.roll.extra_hits, 1);
//! assert_eq!(report.roll.net, Net::Even);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod advance;
pub mod builder;
pub mod character;
pub mod checks;
pub mod cli;
pub mod command;
mod decide;
pub mod event;
mod evolve;
pub mod gm;
pub mod harm;
pub mod invoking;
pub mod legal;
mod name_match;
pub mod odds;
pub mod place;
pub mod policy;
pub mod rules;
pub mod setup;
pub mod sheet;
pub mod spiral_dice;
pub mod state;
pub mod table;
pub mod text;

pub use command::Command;
pub use decide::due_advancements;
pub use event::Event;
pub use state::State;
pub use table::Sapio;

use tabula_core::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook, FieldValue,
    Roller, Seat, SheetAfter,
};

impl CharacterBook for Sapio {
    type Draft = builder::Draft;
    type Setting = ();

    fn place<F: tabula_core::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        crate::place::place(table, files, players)
    }

    fn build_view(draft: &Self::Draft) -> BuildView {
        builder::build_view(draft)
    }

    fn set(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        builder::set(draft, key, value)
    }

    fn clear(draft: &mut Self::Draft, key: &str) -> Result<(), BuildRefusal> {
        builder::clear(draft, key)
    }

    fn force(draft: &mut Self::Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        builder::force(draft, key, value)
    }

    fn draft_sheet(draft: &Self::Draft) -> String {
        builder::draft_sheet(draft)
    }

    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
        builder::validate(sheet)
    }

    fn draft_from_sheet(sheet: &str) -> Result<Self::Draft, Vec<BuildProblem>> {
        builder::draft_from_sheet(sheet)
    }

    fn sheets_after(state: &Self::State) -> Vec<SheetAfter> {
        advance::lasting::sheets_after(state)
    }

    const ADVANCEMENT: &'static [tabula_core::system::CommandDoc] = advance::ADVANCEMENT;

    /// Advancement in Sapio rolls no dice: `roller` is unused.
    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        _roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        advance::advance(sheet, seat, line)
    }
}

/// The system id used on the command line and in table files.
pub const ID: &str = "sapio";

/// The book as every citation and the engine know it (issue 26: a new book
/// is its own crate and one line of the engine's list).
pub const BOOK: tabula_core::rule::Book = tabula_core::rule::Book {
    id: ID,
    title: "The Sapio System",
    seed: SEED,
    randomizer: "pools of twelve-sided Spiral Dice against a TN",
};
/// The rulebook's seed file.
pub const SEED: &str = "004_f39b4146df158cae.txt";
