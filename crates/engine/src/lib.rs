//! # tabula-engine
//!
//! The facade over Tabula's rule systems: [`SystemId`] names each of the five
//! systems, each system crate is re-exported under its id, [`AnyTable`] is one
//! table interface over all five (commands as text or JSON, per-seat views and
//! logs, undo, odds), [`session`] holds the journal and the seat rules behind
//! it, and [`play`] is the terminal play driver every system shares (`tabula
//! <system> play TABLE`). The server reaches the systems only through
//! [`AnyTable`], so the terminal and the server cannot drift apart.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// Run `$body` with `$S` the rule system type of `$system` (one of the five).
macro_rules! dispatch {
    ($system:expr, $S:ident => $body:expr) => {
        match $system {
            SystemId::SourGrapes => {
                type $S = tabula_sour_grapes::SourGrapes;
                $body
            }
            SystemId::Scratch => {
                type $S = tabula_scratch::Scratch;
                $body
            }
            SystemId::Tiers => {
                type $S = tabula_tiers::Tiers;
                $body
            }
            SystemId::Bastards => {
                type $S = tabula_bastards::Bastards;
                $body
            }
            SystemId::Sapio => {
                type $S = tabula_sapio::Sapio;
                $body
            }
        }
    };
}

pub mod any;
pub mod characters;
pub mod play;
pub mod record;
pub mod reference;
pub mod session;
pub mod simulate;
pub mod talk;
pub mod tools;

pub use any::{
    Accepted, AnyTable, Dice, DiceSetting, LoadError, RawRow, SaveError, SaveFile, SetupFailure,
    TableSettings, split_table_settings,
};
pub use session::{CommandError, LogLine};

pub use tabula_bastards as bastards;
pub use tabula_core as core;
pub use tabula_sapio as sapio;
pub use tabula_scratch as scratch;
pub use tabula_sour_grapes as sour_grapes;
pub use tabula_tiers as tiers;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tabula_core::system::{LogSymbols, TextPlay};

/// One of the five rule systems Tabula plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SystemId {
    /// Sour Grapes (000_05a1db5b88f54528.txt).
    SourGrapes,
    /// Scratch RPS (001_337b5a42e331e513.txt).
    Scratch,
    /// Tiers, the untitled d3/d6 tier system (002_631931fd73349179.txt).
    Tiers,
    /// A Game of Bastards (003_2dfeea144768d328.txt).
    Bastards,
    /// The Sapio System v0.6 (004_f39b4146df158cae.txt).
    Sapio,
}

impl SystemId {
    /// All five, in the order of their seed files.
    pub const ALL: [SystemId; 5] = [
        SystemId::SourGrapes,
        SystemId::Scratch,
        SystemId::Tiers,
        SystemId::Bastards,
        SystemId::Sapio,
    ];

    /// The id typed on the command line: `sour-grapes`, `scratch`, `tiers`,
    /// `bastards`, `sapio`.
    pub fn id(self) -> &'static str {
        match self {
            SystemId::SourGrapes => "sour-grapes",
            SystemId::Scratch => "scratch",
            SystemId::Tiers => "tiers",
            SystemId::Bastards => "bastards",
            SystemId::Sapio => "sapio",
        }
    }

    /// The book's title, the one every page, log and refusal shows (Tiers has
    /// none in its text; RULINGS.md names it): [`tabula_core::rule::book_title`].
    pub fn title(self) -> &'static str {
        tabula_core::rule::book_title(self.id())
    }

    /// The rulebook's seed file in `shared/seeds/`.
    pub fn seed(self) -> &'static str {
        match self {
            SystemId::SourGrapes => "000_05a1db5b88f54528.txt",
            SystemId::Scratch => "001_337b5a42e331e513.txt",
            SystemId::Tiers => "002_631931fd73349179.txt",
            SystemId::Bastards => "003_2dfeea144768d328.txt",
            SystemId::Sapio => "004_f39b4146df158cae.txt",
        }
    }

    /// What the book rolls or draws, in a few words.
    pub fn randomizer(self) -> &'static str {
        match self {
            SystemId::SourGrapes => "d6 pools against a difficulty; action cards",
            SystemId::Scratch => "d20 + ability level against a defense",
            SystemId::Tiers => "d6 and d3 plus a Roleplay Bonus against a Goal",
            SystemId::Bastards => "a shoe of two 54-card decks; skill hands and Fate Draws",
            SystemId::Sapio => "pools of twelve-sided Spiral Dice against a TN",
        }
    }
}

/// What a page needs to know of a book without knowing the book: `GET
/// /api/systems` answers one of these per system, and the lobby, builder,
/// campaign and table pages read them instead of writing any book's name
/// (issue 26, item 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SystemFacts {
    /// [`SystemId::id`].
    pub id: &'static str,
    /// [`SystemId::title`], the one title every page shows.
    pub title: &'static str,
    /// [`SystemId::seed`], the rulebook's file.
    pub seed: &'static str,
    /// [`SystemId::randomizer`].
    pub randomizer: &'static str,
    /// The commands that end an encounter ([`TextPlay::END_COMMANDS`]).
    pub end_commands: &'static [&'static str],
    /// The symbols in the book's log lines ([`TextPlay::LOG_SYMBOLS`]).
    pub log_symbols: LogSymbols,
    /// What a campaign's settings text holds for this book (shown next to
    /// the campaign form), or `None` when the book takes none
    /// ([`SystemId::campaign_settings`]).
    pub campaign_settings: Option<&'static str>,
    /// An example of that settings text.
    pub campaign_settings_example: Option<&'static str>,
}

impl SystemId {
    /// The book's facts for a page ([`SystemFacts`]).
    pub fn facts(self) -> SystemFacts {
        let (end_commands, log_symbols) =
            dispatch!(self, S => (<S as TextPlay>::END_COMMANDS, <S as TextPlay>::LOG_SYMBOLS));
        let (campaign_settings, campaign_settings_example) = match self {
            // R-SCR-9: a Scratch RPS campaign carries its setting's rules.
            SystemId::Scratch => (
                Some(
                    "The [rules] a table takes (cp, max_level, strength_base, d20). The \
                     campaign's characters, its builder, advancement and every table it \
                     opens use them. Empty: the book's 10 CP and maximum level 4 (R-SCR-9).",
                ),
                Some("[rules]\ncp = 12\nmax_level = 5"),
            ),
            _ => (None, None),
        };
        SystemFacts {
            id: self.id(),
            title: self.title(),
            seed: self.seed(),
            randomizer: self.randomizer(),
            end_commands,
            log_symbols,
            campaign_settings,
            campaign_settings_example,
        }
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A system id that is not one of the five.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown system {0:?}; the systems are sour-grapes, scratch, tiers, bastards, sapio")]
pub struct UnknownSystem(pub String);

impl FromStr for SystemId {
    type Err = UnknownSystem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SystemId::ALL
            .into_iter()
            .find(|id| id.id() == s.trim())
            .ok_or_else(|| UnknownSystem(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for id in SystemId::ALL {
            assert_eq!(id.id().parse::<SystemId>(), Ok(id));
        }
        assert!("chess".parse::<SystemId>().is_err());
    }
}
