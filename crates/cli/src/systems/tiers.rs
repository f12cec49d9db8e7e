//! `tabula tiers ...`: not built yet (issue 5). The system's rules land in
//! `crates/systems/tiers` and its subcommands here: `check`, `odds`,
//! `character validate|show`, `play`.

use crate::common::{CliError, Ctx};

/// The tiers subcommands (none yet).
#[derive(Debug, clap::Subcommand)]
pub enum Command {}

/// Run a tiers subcommand.
pub fn run(command: Command, _ctx: Ctx) -> Result<(), CliError> {
    match command {}
}
