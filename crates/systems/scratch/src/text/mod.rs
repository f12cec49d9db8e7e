//! Terminal play in text: the command-line parser ([`parse`](mod@parse)), the
//! log lines and the status ([`describe`](mod@describe)), and the command
//! reference ([`reference`](mod@reference): [`COMMANDS`]). The character sheet in plain text
//! is in [`crate::sheet`].
//!
//! Every command line is read by the one core parser,
//! [`tabula_core::usage::read`], against its command's usage in [`COMMANDS`]
//! (issue 26, item 1): the usage is the one declaration of a command's syntax,
//! for `help`, `docs/COMMANDS.md` and the parser alike. [`parse`](mod@parse)
//! only builds the command from what was read, resolving names and checking
//! numbers.

pub mod describe;
pub mod parse;
pub mod reference;

pub use describe::{describe, status};
pub use parse::{parse, parse_with};
pub use reference::COMMANDS;
