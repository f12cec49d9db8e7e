//! `tabula bastards ...`: A Game of Bastards (003_2dfeea144768d328.txt). Skill Hands
//! against the Dealer's Fate Draw (`check`), their exact odds (`odds`), the chance
//! that a given card wins an opposed hand (`card-odds`).

use tabula_engine::SystemId;
use tabula_engine::bastards::{chance, deck, fate};
use tabula_engine::core::cards::CardSpec;
use tabula_engine::core::rule::{Refusal, RuleError};
use tabula_engine::play::percent as pct;

use std::path::PathBuf;

use tabula_engine::bastards::Bastards;
use tabula_engine::bastards::character::{Character, SheetError};

use crate::common::{self, CliError, Ctx, PlayArgs, finish, read_file, roller_for};

/// The bastards subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// A Skill Hand against the Dealer's Fate Draw (R-GB-6): draw rank cards and add
    /// the Trait; the Dealer draws 6 - Trait and adds the Difficulty Modifier.
    Check {
        /// The Trait added to your card (Body, Spirit, Mind or Luck score), 1..=20.
        #[arg(long = "trait", value_name = "T", allow_negative_numbers = true)]
        trait_score: i64,
        /// Your rank in the skill: the cards you draw (at least 1), 0..=20.
        #[arg(long, allow_negative_numbers = true)]
        rank: i64,
        /// The Difficulty Modifier added to the Dealer's card, 0..=20.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        modifier: i64,
        /// A Specialty's rank, added to your total, 0..=20.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        specialty: i64,
        /// The cards you drew yourself, yours first then the Dealer's, e.g.
        /// 9S,4C,JH,2D,7S (a Joker is followed by its replacement).
        #[arg(long, value_name = "CARDS")]
        rolled: Option<String>,
        /// Seed the shuffle.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact chance that a Skill Hand beats the Dealer's Fate Draw (R-GB-11).
    Odds {
        /// The Trait added to your card, 1..=20.
        #[arg(long = "trait", value_name = "T", allow_negative_numbers = true)]
        trait_score: i64,
        /// Your rank in the skill, 0..=20.
        #[arg(long, allow_negative_numbers = true)]
        rank: i64,
        /// The Difficulty Modifier, 0..=20.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        modifier: i64,
        /// A Specialty's rank, 0..=20.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        specialty: i64,
        /// Draw the chance of success against the Trait (1 to 20) to FILE (.svg or .png),
        /// each exact value labelled.
        #[arg(long, value_name = "FILE")]
        chart: Option<std::path::PathBuf>,
    },
    /// Character sheets: validate or show.
    #[command(subcommand)]
    Character(CharacterCommand),
    /// Play a table file at the terminal (or a script).
    Play(PlayArgs),
    /// Play the table's encounter many times with each system policy and
    /// report win rates (95% intervals), rounds, who is taken out and what is left.
    Simulate(common::SimulateArgs),
    /// The exact chance that a given card wins an opposed hand against an opponent
    /// who draws some cards and plays the best.
    CardOdds {
        /// The card you play, e.g. QH.
        #[arg(long)]
        card: String,
        /// Your bonus (the Trait added), -100..=100.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        bonus: i64,
        /// Cards the opponent draws, 1..=20.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        opponent_draws: i64,
        /// The opponent's bonus, -100..=100.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        opponent_bonus: i64,
        /// You are the defender (an identical-suit tie is yours).
        #[arg(long)]
        defending: bool,
    },
}

/// `tabula bastards character ...`.
#[derive(Debug, clap::Subcommand)]
pub enum CharacterCommand {
    /// Make a new character step by step as the book teaches (prompts; answers
    /// one per line when stdin is not a terminal) and write its sheet.
    New(crate::build::NewArgs),
    /// Give one advancement command to a sheet file (`help` lists them).
    Advance(crate::build::AdvanceArgs),
    /// Check a sheet against every rule; lists every broken rule.
    Validate {
        /// The sheet (TOML).
        file: PathBuf,
    },
    /// Show a sheet.
    Show {
        /// The sheet (TOML).
        file: PathBuf,
    },
}

#[derive(serde::Serialize)]
struct ValidateOut {
    valid: bool,
    problems: Vec<String>,
}

fn load(file: &std::path::Path) -> Result<Result<Character, SheetError>, CliError> {
    Ok(Character::from_toml(&read_file(file)?))
}

#[derive(serde::Serialize)]
struct CardOddsOut {
    probability: f64,
    card: String,
    bonus: i64,
    opponent_draws: i64,
    opponent_bonus: i64,
    defending: bool,
}

/// The flags of `check` and `odds`, by the field the crate names in a range error.
const HAND_FLAGS: [(&str, &str); 4] = [
    ("Trait", "--trait"),
    ("rank", "--rank"),
    ("Difficulty Modifier", "--modifier"),
    ("Specialty", "--specialty"),
];

/// The flags of `card-odds`, by the field the crate names in a range error.
const CARD_ODDS_FLAGS: [(&str, &str); 3] = [
    ("bonus", "--bonus"),
    ("opponent bonus", "--opponent-bonus"),
    ("opponent draws", "--opponent-draws"),
];

/// A refusal from the crate as bad input; a number out of range is named by the
/// flag it was typed with (`--opponent-bonus: opponent bonus must be ...`).
fn flag_error(e: RuleError, flags: &[(&str, &str)]) -> CliError {
    if let Refusal::OutOfRange { field, .. } = &e.kind
        && let Some((_, flag)) = flags.iter().find(|(f, _)| f == field)
    {
        return CliError::bad(format!("{flag}: {e}"));
    }
    CliError::bad(e)
}

/// Run a bastards subcommand.
pub fn run(command: Command, ctx: Ctx) -> Result<(), CliError> {
    match command {
        Command::Character(CharacterCommand::New(args)) => {
            crate::build::new_character(SystemId::Bastards, &args, ctx)
        }
        Command::Character(CharacterCommand::Advance(args)) => {
            crate::build::advance_file(SystemId::Bastards, &args, ctx)
        }
        Command::Character(CharacterCommand::Validate { file }) => {
            let problems: Vec<String> = match load(&file)? {
                Ok(_) => Vec::new(),
                Err(SheetError::Rules(e)) => e.problems.iter().map(ToString::to_string).collect(),
                Err(e) => vec![e.to_string()],
            };
            let out = ValidateOut {
                valid: problems.is_empty(),
                problems: problems.clone(),
            };
            ctx.emit(&out, || {
                if problems.is_empty() {
                    format!("{}: valid", file.display())
                } else {
                    format!(
                        "{}: {} broken rule(s)\n  {}",
                        file.display(),
                        problems.len(),
                        problems.join("\n  ")
                    )
                }
            })?;
            if problems.is_empty() {
                Ok(())
            } else {
                Err(CliError::bad(format!(
                    "{} is not a legal character",
                    file.display()
                )))
            }
        }
        Command::Character(CharacterCommand::Show { file }) => {
            let c = load(&file)?.map_err(|e| CliError::bad(format!("{}: {e}", file.display())))?;
            ctx.emit(&c, || c.sheet())
        }
        Command::Play(args) => common::play::<Bastards>(&args, ctx),
        Command::Simulate(a) => common::simulate::<tabula_engine::bastards::Bastards>(&a, ctx),
        Command::Check {
            trait_score,
            rank,
            modifier,
            specialty,
            rolled,
            seed,
        } => {
            let hand = fate::SkillHand {
                trait_score,
                rank,
                modifier,
                specialty,
            };
            let mut roller = roller_for(seed, rolled.as_deref());
            let res = fate::check(hand, roller.as_mut()).map_err(|e| flag_error(e, &HAND_FLAGS))?;
            finish(roller.as_mut())?;
            ctx.emit(&res, || {
                // R-GB-3: a Joker is shown as it is drawn, with who gains its
                // Wildcard; the draw is finished with a replacement card.
                let show = |steps: &[deck::DrawStep], holder: &str| {
                    steps
                        .iter()
                        .map(|s| match s {
                            deck::DrawStep::Card(c) => c.to_string(),
                            deck::DrawStep::Joker(c) => {
                                format!("{c} ({holder} a Wildcard; a replacement is drawn)")
                            }
                            deck::DrawStep::Reshuffle => "(discards reshuffled)".into(),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                format!(
                    "You drew {} and play {} + {} = {}\nThe Dealer drew {} and plays {} + {} = {} ({})\n{} by {}",
                    show(&res.player_draw, "you gain"),
                    res.player_card,
                    hand.player_bonus(),
                    res.player_total,
                    show(&res.dealer_draw, "the Dealer gains"),
                    res.dealer_card,
                    hand.modifier,
                    res.dealer_total,
                    res.difficulty,
                    if res.success { "Success" } else { "Failure" },
                    res.margin.abs()
                )
            })
        }
        Command::Odds {
            trait_score,
            rank,
            modifier,
            specialty,
            chart,
        } => {
            if let Some(path) = &chart {
                let mut points = Vec::new();
                for t in 1..=20 {
                    let hand = fate::SkillHand {
                        trait_score: t,
                        rank,
                        modifier,
                        specialty,
                    };
                    let o = chance::skill_hand(hand).map_err(|e| flag_error(e, &HAND_FLAGS))?;
                    points.push((t, o.probability));
                }
                crate::chart::odds_chart(
                    path,
                    &format!(
                        "A Game of Bastards: Skill Hand, rank {rank}, Difficulty Modifier {modifier}"
                    ),
                    "Trait",
                    &points,
                )?;
            }
            let hand = fate::SkillHand {
                trait_score,
                rank,
                modifier,
                specialty,
            };
            let odds = chance::skill_hand(hand).map_err(|e| flag_error(e, &HAND_FLAGS))?;
            ctx.emit(&odds, || {
                format!(
                    "You draw {}, the Dealer draws {} (+{}, {}): {} ({} of {})",
                    odds.player_draws,
                    odds.dealer_draws,
                    modifier,
                    odds.difficulty,
                    pct(odds.probability),
                    odds.successes,
                    odds.outcomes
                )
            })
        }
        Command::CardOdds {
            card,
            bonus,
            opponent_draws,
            opponent_bonus,
            defending,
        } => {
            let face = match card.parse::<CardSpec>().map_err(CliError::bad)? {
                CardSpec::Face(f) => f,
                CardSpec::AnyJoker => {
                    return Err(CliError::bad(
                        "a Joker is never played: it becomes a Wildcard (R-GB-3)",
                    ));
                }
            };
            let probability =
                chance::card_wins(face, bonus, opponent_draws, opponent_bonus, defending)
                    .map_err(|e| flag_error(e, &CARD_ODDS_FLAGS))?;
            let out = CardOddsOut {
                probability,
                card: face.to_string(),
                bonus,
                opponent_draws,
                opponent_bonus,
                defending,
            };
            ctx.emit(&out, || {
                format!("{face} + {bonus} wins {}", pct(probability))
            })
        }
    }
}
