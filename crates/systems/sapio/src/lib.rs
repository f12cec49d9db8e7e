//! # tabula-sapio
//!
//! The rules of The Sapio System v0.6 (004_f39b4146df158cae.txt), system id `sapio`,
//! with the rulings R-SA-1 to R-SA-12 of `RULINGS.md`.
//!
//! Modules follow the book:
//!
//! - [`spiral_dice`]: the twelve-faced Spiral Die (R-SA-1): Hits, Spares, Spirals.
//! - [`checks`]: building the pool (six dice at most, bonus dice past six lower the
//!   TN, R-SA-2), the TN and its Injury/Stress penalty (R-SA-7), success and extra
//!   Hits, net Spares and Spirals, Improbable Success (R-SA-3).
//! - [`odds`]: exact odds of a check.
//! - [`harm`]: Injuries and Stresses (R-SA-6), weapons (R-SA-4).
//!
//! - [`characters`]: the sheet, its validation, the starting build and advancement.
//! - [`builder`]: characters outside the table ([`tabula_core::CharacterBook`]):
//!   creation in the order of "Building a Starting Character", the sheets an
//!   encounter leaves ([`builder::lasting`]) and "Advancement" between sessions
//!   ([`builder::advance`]).
//! - [`invoking`]: building a check's pool from invoked elements, help, Luck,
//!   Principle and Worst Impulse (R-SA-8), Character versus Character (R-SA-5).
//! - [`table`]: the table as a decide/evolve [`tabula_core::System`] ([`Sapio`]):
//!   checks, Action Sequences, Luck, Injuries and Stresses, advancement.
//! - [`policy`]: the NPC autopilot and simulation policy ([`tabula_core::Policy`]):
//!   a fight played as an Action Sequence, pools built and Luck spent by the odds.
//! - [`commands`]: command lines in the one command grammar and their
//!   reference; [`sheet`]: `sheet [NAME]`, the character sheet in text.
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

pub mod builder;
pub mod characters;
pub mod checks;
pub mod cli;
pub mod commands;
pub mod gm;
pub mod harm;
pub mod invoking;
mod name_match;
pub mod odds;
pub mod place;
pub mod policy;
pub mod sheet;
pub mod spiral_dice;
pub mod table;
mod text;

pub use table::{Command, Event, Sapio, State};

use tabula_core::{
    AdvanceError, Advanced, BuildProblem, BuildRefusal, BuildView, CharacterBook, FieldValue,
    Roller, Seat, SheetAfter,
};

impl CharacterBook for Sapio {
    type Draft = builder::Draft;

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
        builder::lasting::sheets_after(state)
    }

    const ADVANCEMENT: &'static [tabula_core::system::CommandDoc] = builder::advance::ADVANCEMENT;

    /// Advancement in Sapio rolls no dice: `roller` is unused.
    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        _roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        builder::advance::advance(sheet, seat, line)
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
