//! `tabula sapio ...`: The Sapio System (004_f39b4146df158cae.txt): `check`, `odds`,
//! `character validate|show`, `play`.

use std::path::PathBuf;
use tabula_engine::SystemId;
use tabula_engine::play::percent as pct;

use crate::common::{self, CliError, Ctx};
use tabula_engine::sapio::characters::{self, Character, SheetError};
use tabula_engine::sapio::checks::{self, PoolSpec};
use tabula_engine::sapio::odds;
use tabula_engine::sapio::spiral_dice::normalize_face;

/// A count typed on the command line (dice, a TN, a penalty): a whole number, 0
/// or more. A negative number reaches this parser (the arguments allow hyphen
/// values) and is refused by name; a number past the integer range is refused as
/// too large, never wrapped.
fn count(text: &str) -> Result<u32, String> {
    let t = text.trim();
    match t.parse::<i128>() {
        Ok(n) if n < 0 => Err(format!(
            "{n} is negative; a count of dice or a TN is 0 or more"
        )),
        Ok(n) => u32::try_from(n).map_err(|_| format!("{t} is too large (at most {})", u32::MAX)),
        Err(_)
            if t.trim_start_matches(['-', '+'])
                .chars()
                .all(|c| c.is_ascii_digit())
                && !t.is_empty() =>
        {
            Err(format!("{t} is too large or too small for a count"))
        }
        Err(_) => Err(format!("{t:?} is not a whole number")),
    }
}

/// The sapio subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Roll a check: N Spiral Dice built already, bonus dice (past six they lower
    /// the TN, R-SA-2), against TN T; Improbable Success is taken (R-SA-3).
    Check {
        /// Dice built from the steps before bonus dice (1 to 6).
        #[arg(long, allow_hyphen_values = true, value_parser = count)]
        pool: u32,
        /// The GM's TN (1 to 5; 0 for a roll only for Spares and Spirals).
        #[arg(long, allow_hyphen_values = true, value_parser = count)]
        tn: u32,
        /// Bonus dice (Special Talents, help, Luck, Principle / Worst Impulse).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = count)]
        bonus: u32,
        /// The largest applicable Injury/Stress penalty (0, 1 Moderate, 2 Severe; R-SA-7).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = count)]
        penalty: u32,
        /// The faces you rolled, e.g. `H,HH,S,blank` (labels @ S SS HS H HH HH@ H@ blank,
        /// or 1 to 12; also `*` for Hit, `Y` for Spare).
        #[arg(long)]
        rolled: Option<String>,
        /// Seed the dice.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact chance a check succeeds (Improbable Success included), with the
    /// distribution of extra Hits and of net Spares / Spirals.
    Odds {
        /// Dice built from the steps before bonus dice (1 to 6).
        #[arg(long, allow_hyphen_values = true, value_parser = count)]
        pool: u32,
        /// The GM's TN (1 to 5).
        #[arg(long, allow_hyphen_values = true, value_parser = count)]
        tn: u32,
        /// Bonus dice.
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = count)]
        bonus: u32,
        /// The largest applicable Injury/Stress penalty (0, 1, 2; R-SA-7).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = count)]
        penalty: u32,
        /// Draw the chance of success against the pool size (1 to 6) to FILE (.svg or .png),
        /// each exact value labelled.
        #[arg(long, value_name = "FILE")]
        chart: Option<std::path::PathBuf>,
    },
    /// Character files: validate or show.
    #[command(subcommand)]
    Character(CharacterCommand),
    /// Play a table file at the terminal (or a script with --script).
    Play(common::PlayArgs),
    /// Play the table's encounter many times with each system policy and
    /// report win rates (95% intervals), rounds, who is taken out and what is left.
    Simulate(common::SimulateArgs),
}

/// `tabula sapio character ...`.
#[derive(Debug, clap::Subcommand)]
pub enum CharacterCommand {
    /// Make a new character step by step as the book teaches (prompts; answers
    /// one per line when stdin is not a terminal) and write its sheet.
    New(crate::build::NewArgs),
    /// Give one advancement command to a sheet file (`help` lists them).
    Advance(crate::build::AdvanceArgs),
    /// Check a character file against every rule; list every broken one.
    Validate {
        /// The character file (TOML), e.g. examples/sapio/roof-runner.toml.
        file: PathBuf,
    },
    /// Show a character sheet.
    Show {
        /// The character file (TOML).
        file: PathBuf,
    },
}

fn load(file: &std::path::Path) -> Result<Character, CliError> {
    let text = common::read_file(file)?;
    characters::parse_character(&text).map_err(|e| match e {
        SheetError::Toml(m) => CliError::BadInput(format!("{}: {m}", file.display())),
        SheetError::Rules(r) => CliError::BadInput(format!(
            "{}: {} broken rule(s):\n  {}",
            file.display(),
            r.problems.len(),
            r.problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("\n  ")
        )),
    })
}

#[derive(serde::Serialize)]
struct Validated<'a> {
    valid: bool,
    name: &'a str,
}

fn show(c: &Character) -> String {
    let s = c.sheet();
    let mut out = c.name().to_string();
    if let Some(p) = c.player() {
        out.push_str(&format!(" (played by {p})"));
    }
    out.push_str(&format!(
        "\nProfession: {} [{}]",
        s.profession.name,
        s.profession.specializations.join(", ")
    ));
    for side in &s.side_professions {
        out.push_str(&format!(
            "\nSide Profession: {} [{}]",
            side.name,
            side.specializations.join(", ")
        ));
    }
    out.push_str(&format!("\nQualities: {}", s.qualities.join(", ")));
    for t in &s.special_talents {
        out.push_str(&format!("\nSpecial Talent: {} - {}", t.name, t.text));
        if let Some(e) = t.effect {
            out.push_str(&format!(" ({e})"));
        }
    }
    out.push_str(&format!(
        "\nPrinciple: {}\nWorst Impulse: {}\nLuck: {}",
        s.principle, s.worst_impulse, s.luck
    ));
    for w in &s.weapons {
        out.push_str(&format!("\nWeapon: {} ({})", w.name, w.level));
    }
    for (label, track) in [("Injuries", &s.injuries), ("Stresses", &s.stresses)] {
        let e: Vec<String> = track
            .entries()
            .iter()
            .map(|(b, n)| format!("{n} ({})", b.level))
            .collect();
        if !e.is_empty() {
            out.push_str(&format!("\n{label}: {}", e.join(", ")));
        }
    }
    let cyc = c.cycle();
    out.push_str(&format!(
        "\nAdvancements: {} taken, {} cycle(s) complete",
        s.advancements.len(),
        cyc.completed
    ));
    out
}

/// Run a sapio subcommand.
pub fn run(command: Command, ctx: Ctx) -> Result<(), CliError> {
    match command {
        Command::Character(CharacterCommand::New(args)) => {
            crate::build::new_character(SystemId::Sapio, &args, ctx)
        }
        Command::Character(CharacterCommand::Advance(args)) => {
            crate::build::advance_file(SystemId::Sapio, &args, ctx)
        }
        Command::Character(CharacterCommand::Validate { file }) => {
            let c = load(&file)?;
            let v = Validated {
                valid: true,
                name: c.name(),
            };
            ctx.emit(&v, || {
                format!("{}: a legal character ({})", file.display(), c.name())
            })
        }
        Command::Character(CharacterCommand::Show { file }) => {
            let c = load(&file)?;
            ctx.emit(c.sheet(), || show(&c))
        }
        Command::Play(args) => common::play::<tabula_engine::sapio::Sapio>(&args, ctx),
        Command::Simulate(a) => common::simulate::<tabula_engine::sapio::Sapio>(&a, ctx),
        Command::Check {
            pool,
            tn,
            bonus,
            penalty,
            rolled,
            seed,
        } => {
            let spec = PoolSpec {
                built: pool,
                bonus,
                tn,
                penalty,
                ..PoolSpec::default()
            };
            let rolled = rolled.map(|list| {
                list.split(',')
                    .map(normalize_face)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(",")
            });
            let mut roller = common::roller_for(seed, rolled.as_deref());
            let report = checks::check(&spec, roller.as_mut()).map_err(CliError::bad)?;
            common::finish(roller.as_mut())?;
            ctx.emit(&report, || {
                let mut s = report.roll.describe();
                for p in &report.prompts {
                    s.push_str(&format!("\n  - {p}"));
                }
                s
            })
        }
        Command::Odds {
            pool,
            tn,
            bonus,
            penalty,
            chart,
        } => {
            if let Some(path) = &chart {
                let mut points = Vec::new();
                for built in 1..=6u32 {
                    let spec = PoolSpec {
                        built,
                        bonus,
                        tn,
                        penalty,
                        ..PoolSpec::default()
                    };
                    let r = odds::odds(&spec).map_err(CliError::bad)?;
                    points.push((i64::from(built), r.probability));
                }
                crate::chart::odds_chart(
                    path,
                    &format!(
                        "The Sapio System: against TN {tn}, {bonus} bonus dice, penalty {penalty}"
                    ),
                    "dice built into the pool",
                    &points,
                )?;
            }
            let spec = PoolSpec {
                built: pool,
                bonus,
                tn,
                penalty,
                ..PoolSpec::default()
            };
            let r = odds::odds(&spec).map_err(CliError::bad)?;
            ctx.emit(&r, || {
                let mut s = format!(
                    "{} dice vs TN {}: {} (Improbable Success adds {})\nnet Spares {}, net Spirals {}\nextra Hits on success:",
                    r.pool.dice, r.pool.tn, pct(r.probability), pct(r.improbable_part), pct(r.p_net_spares), pct(r.p_net_spirals)
                );
                for e in &r.extra_hits {
                    s.push_str(&format!("\n  +{}: {}", e.extra, pct(e.p)));
                }
                s
            })
        }
    }
}
