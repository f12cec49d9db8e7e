//! `tabula sour-grapes ...`: Check and its odds, character sheets, the book's
//! cards, and terminal play. Rules live in `crates/systems/sour-grapes`.

use std::path::PathBuf;
use tabula_engine::SystemId;
use tabula_engine::play::percent as pct;

use serde::Serialize;
use tabula_engine::core::RuleError;
use tabula_engine::sour_grapes::cards::book_cards;
use tabula_engine::sour_grapes::character::{Character, CharacterFileError};
use tabula_engine::sour_grapes::check::{self, CheckSpec};
use tabula_engine::sour_grapes::{ActionCard, SourGrapes};

use crate::common::{self, CliError, Ctx, PlayArgs, finish, read_file, roller_for};

/// The sour-grapes subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// A single Check: dice up to the stat, tokens from a skill; success when
    /// the successes are more than the difficulty (R-SG-1).
    Check {
        /// Dice to roll (d6; each 1 exhausts the stat by one).
        #[arg(long, allow_negative_numbers = true)]
        dice: i64,
        /// Skill tokens (each an automatic success).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        tokens: i64,
        /// The Difficulty threshold.
        #[arg(long, allow_negative_numbers = true)]
        difficulty: i64,
        /// The Current Stat Value: dice may not exceed it.
        #[arg(long, allow_negative_numbers = true)]
        stat: Option<i64>,
        /// The dice you rolled yourself, e.g. 6,2,1,1,5.
        #[arg(long)]
        rolled: Option<String>,
        /// Seed the dice.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact chance a Check succeeds, for every dice count 0..=stat, with the
    /// expected exhaustion and the fewest dice reaching --target.
    Odds {
        /// Dice asked about.
        #[arg(long, allow_negative_numbers = true)]
        dice: i64,
        /// Skill tokens.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        tokens: i64,
        /// The Difficulty.
        #[arg(long, allow_negative_numbers = true)]
        difficulty: i64,
        /// The Current Stat Value (the table runs 0..=stat; default: --dice).
        #[arg(long, allow_negative_numbers = true)]
        stat: Option<i64>,
        /// The chance to reach while exhausting least (0 to 1).
        #[arg(long, default_value_t = 0.75, allow_negative_numbers = true)]
        target: f64,
        /// Accepted for symmetry with `check`; odds roll nothing.
        #[arg(long, hide = true)]
        rolled: Option<String>,
        /// Accepted for symmetry with `check`; odds roll nothing.
        #[arg(long, hide = true)]
        seed: Option<u64>,
        /// Draw the chance of success against the dice risked to FILE (.svg or .png),
        /// each exact value labelled.
        #[arg(long, value_name = "FILE")]
        chart: Option<std::path::PathBuf>,
    },
    /// Character sheets.
    #[command(subcommand)]
    Character(CharacterCommand),
    /// The book's seven action cards (fields A-F).
    Cards,
    /// Play a table file at the terminal.
    Play(#[command(flatten)] PlayArgs),
    /// Play the table's encounter many times with each system policy and
    /// report win rates (95% intervals), rounds, who is taken out and what is left.
    Simulate(common::SimulateArgs),
}

/// `tabula sour-grapes character ...`.
#[derive(Debug, clap::Subcommand)]
pub enum CharacterCommand {
    /// Make a new character step by step as the book teaches (prompts; answers
    /// one per line when stdin is not a terminal) and write its sheet.
    New(crate::build::NewArgs),
    /// Give one advancement command to a sheet file (`help` lists them).
    Advance(crate::build::AdvanceArgs),
    /// Check a sheet against every rule; lists every problem.
    Validate {
        /// The TOML sheet.
        file: PathBuf,
    },
    /// Print a sheet.
    Show {
        /// The TOML sheet.
        file: PathBuf,
    },
}

#[derive(Serialize)]
struct CheckJson<'a> {
    success: bool,
    successes: u32,
    exhausted: u32,
    dice: &'a [u32],
    tokens: u32,
    difficulty: u32,
    ones: u32,
}

#[derive(Serialize)]
struct Validated<'a> {
    valid: bool,
    name: &'a str,
}

/// The numbers of a Check as typed (negative ones reach us, so the refusal can
/// name the parameter and its range), read into a [`CheckSpec`].
///
/// # Errors
/// Bad input naming the parameter: "--dice must be between 0 and 100, not -4".
fn spec_of(
    dice: i64,
    tokens: i64,
    difficulty: i64,
    stat: Option<i64>,
) -> Result<CheckSpec, CliError> {
    let read = |name: &str, v: i64, max: u32| -> Result<u32, CliError> {
        u32::try_from(v).ok().filter(|n| *n <= max).ok_or_else(|| {
            CliError::bad(RuleError::out_of_range(
                check::RULE,
                name,
                0,
                i64::from(max),
                v,
            ))
        })
    };
    Ok(CheckSpec {
        dice: read("--dice", dice, check::MAX_DICE)?,
        tokens: read("--tokens", tokens, check::MAX_TOKENS)?,
        difficulty: read("--difficulty", difficulty, check::MAX_DIFFICULTY)?,
        stat: stat
            .map(|s| read("--stat", s, check::MAX_DICE))
            .transpose()?,
    })
}

fn load(file: &std::path::Path) -> Result<Character, CliError> {
    let text = read_file(file)?;
    Character::from_toml(&text)
        .map_err(|e: CharacterFileError| CliError::BadInput(format!("{}: {e}", file.display())))
}

/// Run a sour-grapes subcommand.
///
/// # Errors
/// Bad input (exit 2) for refused checks and broken files.
pub fn run(command: Command, ctx: Ctx) -> Result<(), CliError> {
    match command {
        Command::Check {
            dice,
            tokens,
            difficulty,
            stat,
            rolled,
            seed,
        } => {
            let spec = spec_of(dice, tokens, difficulty, stat)?;
            let mut roller = roller_for(seed, rolled.as_deref());
            let out = check::check(spec, roller.as_mut()).map_err(CliError::bad)?;
            finish(roller.as_mut())?;
            let json = CheckJson {
                success: out.success,
                successes: out.successes,
                exhausted: out.exhausted,
                dice: &out.roll.dice,
                tokens: out.roll.tokens,
                difficulty: out.difficulty,
                ones: out.roll.ones,
            };
            ctx.emit(&json, || {
                format!(
                    "{} -> {} successes against difficulty {}: {} (needs more than {difficulty}, R-SG-1); the stat is exhausted by {}",
                    out.roll.shown(),
                    out.successes,
                    out.difficulty,
                    if out.success { "SUCCESS" } else { "FAILED" },
                    out.exhausted
                )
            })
        }
        Command::Odds {
            dice,
            tokens,
            difficulty,
            stat,
            target,
            chart,
            ..
        } => {
            if !(0.0..=1.0).contains(&target) {
                return Err(CliError::BadInput(format!(
                    "--target must be between 0 and 1, not {target}"
                )));
            }
            let spec = spec_of(dice, tokens, difficulty, Some(stat.unwrap_or(dice)))?;
            let o = check::odds(spec, target).map_err(CliError::bad)?;
            if let Some(path) = &chart {
                let points: Vec<(i64, f64)> = o
                    .choices
                    .iter()
                    .map(|c| (i64::from(c.dice), c.probability))
                    .collect();
                crate::chart::odds_chart(
                    path,
                    &format!("Sour Grapes: Difficulty {difficulty}, Skill tokens {tokens}"),
                    "dice risked",
                    &points,
                )?;
            }
            ctx.emit(&o, || {
                let mut s = format!(
                    "{dice} dice + {tokens} tokens against difficulty {difficulty}: {}, expected exhaustion {:.2}\n",
                    pct(o.probability),
                    o.expected_exhaustion
                );
                s.push_str(" dice  chance   expected exhaustion\n");
                for c in &o.choices {
                    s.push_str(&format!(
                        " {:>4}  {:>6}  {:.2}\n",
                        c.dice,
                        pct(c.probability),
                        c.expected_exhaustion
                    ));
                }
                match o.best_dice {
                    Some(n) => s.push_str(&format!(
                        "fewest dice for at least {}: {n} (expected exhaustion {:.2})",
                        pct(target),
                        f64::from(n) / 6.0
                    )),
                    None => s.push_str(&format!(
                        "no number of dice reaches {}",
                        pct(target)
                    )),
                }
                s
            })
        }
        Command::Character(CharacterCommand::New(args)) => {
            crate::build::new_character(SystemId::SourGrapes, &args, ctx)
        }
        Command::Character(CharacterCommand::Advance(args)) => {
            crate::build::advance_file(SystemId::SourGrapes, &args, ctx)
        }
        Command::Character(CharacterCommand::Validate { file }) => {
            let c = load(&file)?;
            ctx.emit(
                &Validated {
                    valid: true,
                    name: c.name(),
                },
                || {
                    format!(
                        "{}: {} is a legal Sour Grapes character",
                        file.display(),
                        c.name()
                    )
                },
            )
        }
        Command::Character(CharacterCommand::Show { file }) => {
            let c = load(&file)?;
            ctx.emit(&c, || c.sheet())
        }
        Command::Cards => {
            let cards: Vec<ActionCard> = book_cards();
            ctx.emit(&cards, || {
                cards
                    .iter()
                    .map(ActionCard::printed)
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        }
        Command::Play(args) => common::play::<SourGrapes>(&args, ctx),
        Command::Simulate(a) => common::simulate::<tabula_engine::sour_grapes::SourGrapes>(&a, ctx),
    }
}
