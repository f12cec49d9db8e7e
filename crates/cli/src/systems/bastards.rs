//! `tabula bastards ...`: not built yet (issue 6). The system's rules land in
//! `crates/systems/bastards` and its subcommands here: `check`, `odds`,
//! `character validate|show`, `play`.

use crate::common::{CliError, Ctx};

/// The bastards subcommands (none yet).
#[derive(Debug, clap::Subcommand)]
pub enum Command {}

/// Run a bastards subcommand.
pub fn run(command: Command, _ctx: Ctx) -> Result<(), CliError> {
    match command {}
}
