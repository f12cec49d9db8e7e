//! `tabula sour-grapes ...`: not built yet (issue 3). The system's rules land in
//! `crates/systems/sour-grapes` and its subcommands here: `check`, `odds`,
//! `character validate|show`, `play`.

use crate::common::{CliError, Ctx};

/// The sour-grapes subcommands (none yet).
#[derive(Debug, clap::Subcommand)]
pub enum Command {}

/// Run a sour-grapes subcommand.
pub fn run(command: Command, _ctx: Ctx) -> Result<(), CliError> {
    match command {}
}
