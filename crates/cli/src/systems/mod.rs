//! One module per rule system: its `tabula <system> ...` subcommands. Each module
//! only parses flags, calls its system crate and prints.

pub mod bastards;
pub mod sapio;
pub mod scratch;
pub mod sour_grapes;
pub mod tiers;
