//! Terminal play in text: the command-line parser ([`parse`](mod@parse)), the
//! log lines and the status ([`describe`](mod@describe)), and the command
//! reference ([`reference`](mod@reference): [`COMMANDS`]). The character sheet in plain text
//! is in [`crate::sheet`].

pub mod describe;
pub mod parse;
pub mod reference;

pub use describe::{describe, status};
pub use parse::{parse, parse_with};
pub use reference::COMMANDS;
