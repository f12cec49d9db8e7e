//! Terminal play: reading command lines ([`parse`]), describing events and the
//! status line (`describe.rs`), the command reference ([`COMMANDS`],
//! `reference.rs`).
//!
//! Lines are read by [`tabula_core::usage::read`] against the usage of
//! their command in [`COMMANDS`], the one declaration of its syntax (also
//! what `help` and `docs/COMMANDS.md` print), in the one command grammar
//! ([`tabula_core::grammar`]): names with spaces are typed in double quotes
//! (`act "Shield Up" on Cristy`, `to="Ice Cream Shop"`), and a value the
//! usage writes `NAME...` may be typed as it is (`item Fast Potion`).
//! [`parse`] then builds the command, matching names without regard to case
//! and by unambiguous prefix (`_` stands for a space: `Shield_Up`).
//!
//! Every command, with its usage and rule, is listed once in
//! [`COMMANDS`]; the GM gives an NPC ally's command by
//! putting the ally's name first (`GM: Steve move Yard`).

use crate::character::Stat;
use crate::command::{Command, Pay};
use crate::content::ActionEffect;
use crate::event::Event;
use crate::gm::Purchase;
use crate::roleplay::{ContestResult, TieRule, parse_goal};
use crate::state::{Mode, Outcome, Phase, State, Target};
use tabula_core::files::SheetFiles;
use tabula_core::grammar::words;
use tabula_core::names::{NameLookupError, resolve};
use tabula_core::system::find_command;
use tabula_core::{CommandParseError, Seat};

/// Words that start a command (and may not name an NPC ally): every name and
/// alias of [`COMMANDS`], and the driver's words.
const DRIVER_WORDS: [&str; 8] = [
    "help", "status", "view", "sheet", "log", "undo", "quit", "exit",
];

/// True when `word` starts a command (any case): a command or alias of
/// [`COMMANDS`], or a word of the driver (`help`, `sheet`, ...).
pub fn is_command(word: &str) -> bool {
    let w = word.trim();
    find_command(COMMANDS, w).is_some() || DRIVER_WORDS.iter().any(|d| d.eq_ignore_ascii_case(w))
}

mod describe;
mod parse;
mod reference;

pub use describe::{describe, describe_for, event_for, status};
pub use parse::{parse, parse_with};
pub use reference::COMMANDS;
