//! `tabula sapio ...`: not built yet (issue 7). The system's rules land in
//! `crates/systems/sapio` and its subcommands here: `check`, `odds`,
//! `character validate|show`, `play`.

use crate::common::{CliError, Ctx};

/// The sapio subcommands (none yet).
#[derive(Debug, clap::Subcommand)]
pub enum Command {}

/// Run a sapio subcommand.
pub fn run(command: Command, _ctx: Ctx) -> Result<(), CliError> {
    match command {}
}
