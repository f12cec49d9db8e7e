//! `tabula scratch ...`: not built yet (issue 4). The system's rules land in
//! `crates/systems/scratch` and its subcommands here: `check`, `odds`,
//! `character validate|show`, `play`.

use crate::common::{CliError, Ctx};

/// The scratch subcommands (none yet).
#[derive(Debug, clap::Subcommand)]
pub enum Command {}

/// Run a scratch subcommand.
pub fn run(command: Command, _ctx: Ctx) -> Result<(), CliError> {
    match command {}
}
