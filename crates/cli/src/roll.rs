//! `tabula roll NOTATION`: free dice notation at the table.

use serde::Serialize;

use crate::common::{self, CliError, Ctx};
use tabula_engine::core::notation::{Expr, RollOutcome};

/// The options of `tabula roll`.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// The dice to roll: NdS, + and - terms, keep/drop (4d6kh3, 2d20kl1, 4d6dl1),
    /// count successes (10d6>=5).
    #[arg(allow_hyphen_values = true)]
    pub notation: String,
    /// Seed the dice: the same seed gives the same roll.
    #[arg(long, conflicts_with = "rolled")]
    pub seed: Option<u64>,
    /// Use the values you rolled yourself, left to right, e.g. --rolled 6,2,1.
    #[arg(long, value_name = "V,V,...")]
    pub rolled: Option<String>,
}

#[derive(Serialize)]
struct RollReport<'a> {
    notation: String,
    #[serde(flatten)]
    outcome: &'a RollOutcome,
}

/// Parse, roll and print.
///
/// # Errors
/// Bad input for notation errors, manual values out of range, missing or left
/// over.
pub fn run(args: &RollArgs, ctx: Ctx) -> Result<(), CliError> {
    let expr = Expr::parse(&args.notation).map_err(CliError::bad)?;
    let mut roller = common::roller_for(args.seed, args.rolled.as_deref());
    let outcome = expr.roll(roller.as_mut()).map_err(CliError::bad)?;
    common::finish(roller.as_mut())?;
    let report = RollReport {
        notation: expr.to_string(),
        outcome: &outcome,
    };
    ctx.emit(&report, || outcome.to_string())
}
