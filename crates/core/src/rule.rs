//! Rule citations and the error a refused command returns.
//!
//! Every refusal names the rule that refused it: the system, the seed file and
//! section of the rulebook, and the ruling id from `RULINGS.md` when one applies.
//! A refused command changes nothing (see [`crate::system::Table::submit`]).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::roller::RollError;

/// A rulebook as Tabula knows it: the facts every citation of it carries.
/// Each rule-system crate declares its one `BOOK` constant (and
/// [`crate::system::TextPlay::BOOK`] gives it to the engine), so no list of
/// books is written anywhere else (issue 26: adding a book touches its own
/// crate and one line of the engine's list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Book {
    /// The system id typed on the command line (`sour-grapes`, `bastards`).
    pub id: &'static str,
    /// The title a player knows it by (`A Game of Bastards`).
    pub title: &'static str,
    /// The rulebook's seed file (`003_2dfeea144768d328.txt`).
    pub seed: &'static str,
    /// What the book rolls or draws, in a few words.
    pub randomizer: &'static str,
}

impl Book {
    /// Tabula itself, for the table's own rules (caps, seats).
    pub const TABULA: Book = Book {
        id: "core",
        title: "Tabula",
        seed: "",
        randomizer: "",
    };
}

/// A citation of one rule: where in which book (and which ruling) it comes from.
///
/// All fields are static text so citations cost nothing to build; rule system
/// crates declare them as constants next to the code that applies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// The system id (`sour-grapes`, `scratch`, `tiers`, `bastards`, `sapio`), or
    /// `core` for table-wide rules such as dice caps.
    pub system: &'static str,
    /// The book's title (`Sour Grapes`), or `Tabula` for the table's own rules.
    pub title: &'static str,
    /// The seed file the rule comes from, e.g. `000_05a1db5b88f54528.txt`; empty for
    /// rules of Tabula itself (caps, turn order of the table).
    pub seed: &'static str,
    /// The section of the book, in the book's own words, e.g. `"Check"`.
    pub section: &'static str,
    /// The ruling id in `RULINGS.md` that settles the point, e.g. `R-SG-1`.
    pub ruling: Option<&'static str>,
}

impl Rule {
    /// A citation of a section of `book`.
    pub const fn book(book: Book, section: &'static str) -> Self {
        Rule {
            system: book.id,
            title: book.title,
            seed: book.seed,
            section,
            ruling: None,
        }
    }

    /// The same citation with a ruling id added.
    pub const fn ruling(self, id: &'static str) -> Self {
        Rule {
            ruling: Some(id),
            ..self
        }
    }

    /// A rule of Tabula itself (caps, seats, table mechanics), not of a book.
    pub const fn table(section: &'static str) -> Self {
        Rule::book(Book::TABULA, section)
    }

    /// The title of the book the rule is from, as a player knows it (`Sour
    /// Grapes`, `Scratch RPS`, `Tiers`, `A Game of Bastards`, `The Sapio
    /// System`), or `Tabula` for the table's own rules.
    pub fn title(&self) -> &'static str {
        self.title
    }
}

/// What a player reads: the book by title and the section, then the ruling
/// (`Sour Grapes, "Check"; R-SG-1`). The seed file stays in the JSON form
/// (the `seed` field), where tools read it.
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, \"{}\"", self.title(), self.section)?;
        if let Some(r) = self.ruling {
            write!(f, "; {r}")?;
        }
        Ok(())
    }
}

/// What kind of refusal a [`RuleError`] is, for callers that react to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Refusal {
    /// The seat may not give this command now (another seat's turn or step).
    NotYourTurn,
    /// The command belongs to another phase or step of the turn structure.
    WrongPhase,
    /// The seat may never give this command (a player trying a GM command).
    NotPermitted,
    /// A number is outside what the rule allows.
    OutOfRange {
        /// The field or parameter, in the book's words.
        field: String,
        /// The smallest allowed value.
        min: i64,
        /// The largest allowed value.
        max: i64,
        /// The value that was given.
        got: i64,
    },
    /// A name (character, stat, card, zone...) that the table does not know.
    Unknown {
        /// What kind of thing was named.
        field: String,
        /// The name given.
        name: String,
    },
    /// The character has too little of what the command spends: a pool,
    /// tokens, Action Points, XP, Health, Luck, cards in hand (issue 26,
    /// item 6: `Forbidden` split where the books distinguish).
    Spent {
        /// What runs short, in the book's words (`Action Points`, `Skill tokens`).
        resource: String,
    },
    /// Done as often as the rule allows already: once per turn, round or
    /// encounter, a slot that is used, an advancement taken.
    AlreadyUsed {
        /// What was used, in the book's words (`Reaction`, `Stunt`).
        what: String,
    },
    /// The character does not have what the command names: a card not in
    /// its hand, a Skill, ability, Trait, Advantage or item it lacks.
    NotHeld {
        /// What it lacks, in the book's words (`the 9 of Spades`, `Skill Stealth`).
        what: String,
    },
    /// The character's condition forbids it: incapacitated, out of the
    /// encounter, an injured or Exhausted Stat, removed.
    Condition {
        /// The condition, in the book's words (`incapacitated`, `injured Perception`).
        condition: String,
    },
    /// The rule forbids the command in the present state in a way none of
    /// the kinds above names (a target out of reach, a combination the book
    /// rules out). The message says which.
    Forbidden,
    /// The dice or cards could not be produced (manual values missing or out of range).
    Roll(RollError),
}

/// A command was refused. Names the rule, says why in words a player understands,
/// and guarantees that nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message} [{rule}]")]
pub struct RuleError {
    /// The rule that refused the command.
    pub rule: Rule,
    /// The kind of refusal, to match on.
    pub kind: Refusal,
    /// A sentence for the player, e.g. "Perception is injured and cannot be rolled".
    pub message: String,
}

impl RuleError {
    /// A refusal of `kind` under `rule`, with a message for the player.
    pub fn new(rule: Rule, kind: Refusal, message: impl Into<String>) -> Self {
        RuleError {
            rule,
            kind,
            message: message.into(),
        }
    }

    /// Shorthand for a [`Refusal::Forbidden`] refusal.
    pub fn forbidden(rule: Rule, message: impl Into<String>) -> Self {
        Self::new(rule, Refusal::Forbidden, message)
    }

    /// A [`Refusal::Spent`] refusal: too little of `resource`.
    pub fn spent(rule: Rule, resource: &str, message: impl Into<String>) -> Self {
        Self::new(
            rule,
            Refusal::Spent {
                resource: resource.to_string(),
            },
            message,
        )
    }

    /// A [`Refusal::AlreadyUsed`] refusal: `what` is used up for now.
    pub fn already_used(rule: Rule, what: &str, message: impl Into<String>) -> Self {
        Self::new(
            rule,
            Refusal::AlreadyUsed {
                what: what.to_string(),
            },
            message,
        )
    }

    /// A [`Refusal::NotHeld`] refusal: the character lacks `what`.
    pub fn not_held(rule: Rule, what: &str, message: impl Into<String>) -> Self {
        Self::new(
            rule,
            Refusal::NotHeld {
                what: what.to_string(),
            },
            message,
        )
    }

    /// A [`Refusal::Condition`] refusal: `condition` forbids it.
    pub fn condition(rule: Rule, condition: &str, message: impl Into<String>) -> Self {
        Self::new(
            rule,
            Refusal::Condition {
                condition: condition.to_string(),
            },
            message,
        )
    }

    /// Shorthand for a [`Refusal::OutOfRange`] refusal; the message is generated.
    pub fn out_of_range(rule: Rule, field: &str, min: i64, max: i64, got: i64) -> Self {
        Self::new(
            rule,
            Refusal::OutOfRange {
                field: field.to_string(),
                min,
                max,
                got,
            },
            format!("{field} must be between {min} and {max}, not {got}"),
        )
    }

    /// Shorthand for a [`Refusal::Unknown`] refusal; the message is generated.
    pub fn unknown(rule: Rule, field: &str, name: &str) -> Self {
        Self::new(
            rule,
            Refusal::Unknown {
                field: field.to_string(),
                name: name.to_string(),
            },
            format!("there is no {field} called \"{name}\""),
        )
    }

    /// A [`Refusal::Unknown`] refusal whose message lists the names that fit
    /// there, so the player can pick one.
    pub fn unknown_among<'a, I>(rule: Rule, field: &str, name: &str, candidates: I) -> Self
    where
        I: IntoIterator<Item = &'a str>,
    {
        let names: Vec<&str> = candidates.into_iter().collect();
        let mut err = Self::unknown(rule, field, name);
        if !names.is_empty() {
            err.message = format!(
                "{}; the {field} names here: {}",
                err.message,
                names.join(", ")
            );
        }
        err
    }

    /// A refusal because the roller could not produce a die or card.
    pub fn roll(err: RollError) -> Self {
        let message = err.to_string();
        Self::new(Rule::table("Rolling"), Refusal::Roll(err), message)
    }
}

impl From<RollError> for RuleError {
    fn from(err: RollError) -> Self {
        RuleError::roll(err)
    }
}

/// Deserialization helper kept for symmetry: citations are never read back from
/// files, but views that embed them are deserialized in tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleText {
    /// The citation rendered with [`Rule`]'s `Display`.
    pub cited: String,
}

impl From<Rule> for RuleText {
    fn from(r: Rule) -> Self {
        RuleText {
            cited: r.to_string(),
        }
    }
}
