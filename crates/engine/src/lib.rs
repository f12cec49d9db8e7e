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

/// The books Tabula plays, in the order of their seed files: **the one list a
/// new book is added to** (issue 26; docs/ARCHITECTURE.md, "Adding a book").
/// Each line is `Variant => module = crate::Type`: the [`SystemId`] variant,
/// the name the crate is re-exported under, and the type implementing
/// [`tabula_core::System`], `TextPlay`, `Policy` and `CharacterBook`. Every
/// fact of a book (id, title, seed, commands, sheets) comes from its crate.
macro_rules! books {
    ($then:ident ! ( $($args:tt)* )) => {
        $then! {
            ($($args)*)
            SourGrapes => sour_grapes = tabula_sour_grapes::SourGrapes,
            Scratch => scratch = tabula_scratch::Scratch,
            Tiers => tiers = tabula_tiers::Tiers,
            Bastards => bastards = tabula_bastards::Bastards,
            Sapio => sapio = tabula_sapio::Sapio,
        }
    };
}

/// Run `$body` with `$S` the rule system type of `$system`.
macro_rules! dispatch {
    ($system:expr, $S:ident => $body:expr) => {
        books!(dispatch_arms!($system, $S, $body))
    };
}

/// [`dispatch!`]'s match, one arm per line of [`books!`].
macro_rules! dispatch_arms {
    (($system:expr, $S:ident, $body:expr) $($V:ident => $m:ident = $krate:ident :: $T:ident,)*) => {
        match $system {
            $(SystemId::$V => {
                type $S = $krate::$T;
                $body
            })*
        }
    };
}

/// The [`SystemId`] enum and the crates' re-exports, from [`books!`].
macro_rules! system_ids {
    (() $($V:ident => $m:ident = $krate:ident :: $T:ident,)*) => {
        $(pub use $krate as $m;)*

        /// One of the rule systems Tabula plays (`books!`'s list): its
        /// facts are the book's own ([`SystemId::facts`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum SystemId {
            $(
                #[doc = concat!("The book of `", stringify!($krate), "`.")]
                $V,
            )*
        }

        impl SystemId {
            /// Every book, in the order of their seed files.
            pub const ALL: [SystemId; [$(stringify!($V)),*].len()] = [$(SystemId::$V),*];
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
    Accepted, AnyTable, ChosenSettings, Dice, DiceSetting, LoadError, RawRow, SaveError, SaveFile,
    SetupFailure, TableSettings, split_table_settings, with_table_settings,
};
pub use session::{CommandError, LogLine};

pub use tabula_core as core;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tabula_core::system::{LogSymbols, TextPlay};

books!(system_ids!());

impl SystemId {
    /// The book's facts as its crate declares them ([`TextPlay::BOOK`]).
    pub fn book(self) -> tabula_core::rule::Book {
        dispatch!(self, S => <S as TextPlay>::BOOK)
    }

    /// The id typed on the command line: `sour-grapes`, `scratch`, `tiers`,
    /// `bastards`, `sapio`.
    pub fn id(self) -> &'static str {
        self.book().id
    }

    /// The book's title, the one every page, log and refusal shows (Tiers has
    /// none in its text; RULINGS.md names it).
    pub fn title(self) -> &'static str {
        self.book().title
    }

    /// The rulebook's seed file in `shared/seeds/`.
    pub fn seed(self) -> &'static str {
        self.book().seed
    }

    /// What the book rolls or draws, in a few words.
    pub fn randomizer(self) -> &'static str {
        self.book().randomizer
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
        let (campaign_settings, campaign_settings_example) = dispatch!(self, S => (
            <S as tabula_core::builder::CharacterBook>::CAMPAIGN_SETTINGS,
            <S as tabula_core::builder::CharacterBook>::CAMPAIGN_SETTINGS_EXAMPLE,
        ));
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
#[error("unknown system {0:?}; the systems are {ids}", ids = SystemId::ALL.map(SystemId::id).join(", "))]
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
            // The serde name is the book's own id.
            assert_eq!(
                serde_json::to_value(id).unwrap(),
                serde_json::json!(id.id())
            );
        }
        assert!("chess".parse::<SystemId>().is_err());
    }
}
