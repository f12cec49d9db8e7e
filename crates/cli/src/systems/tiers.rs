//! `tabula tiers ...`: Tiers, the d3/d6 tier system (002_631931fd73349179.txt).
//!
//! - `check --bonus B --goal G` (out of combat: d6 + B) or `check --d3 N --bonus B
//!   --goal G` (in combat: N d3 + B); `--rolled` takes the dice you rolled.
//! - `odds` with the same flags (exact), plus `--versus-bonus` for a Competing
//!   Roll and `--damage-d6/--damage-d3/--cp` for the damage of bought Rolls.
//! - `character validate FILE`, `character show FILE`.
//! - `play TABLE [--script F] [--seed N] [--manual] [--strict] [--save F] [--resume F]`.
//! - `content`: the book's Sample Content (Items, roll uses, enemies, NPCs).

use serde::Serialize;
use std::path::PathBuf;
use tabula_engine::SystemId;
use tabula_engine::play::percent as pct;

use crate::common::{self, CliError, Ctx, PlayArgs, finish, read_file, roller_for};
use tabula_engine::core::D3Mode;
use tabula_engine::tiers::character::{Character, CharacterFileError, Stat};
use tabula_engine::tiers::odds;
use tabula_engine::tiers::roleplay::{self, Contest, RollKind, TieRule, parse_goal};

/// The tiers subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Roll against a Goal: d6 + bonus out of combat, or N d3 + bonus with --d3 N.
    Check(CheckArgs),
    /// The exact chance of a check (or a Competing Roll, or bought-Roll damage).
    Odds(OddsArgs),
    /// Validate or show a character file.
    #[command(subcommand)]
    Character(CharacterCommand),
    /// Play a table file at the terminal (or run a script).
    Play(PlayArgs),
    /// Play the table's encounter many times with each system policy and
    /// report win rates (95% intervals), rounds, who is taken out and what is left.
    Simulate(common::SimulateArgs),
    /// The book's Sample Content: Items, roll uses, enemies, NPCs.
    Content,
}

/// Read a whole number of any size: Ok(n), or Err naming what is wrong (too
/// large or too small for any integer, or not a number).
fn whole(text: &str) -> Result<i128, String> {
    let t = text.trim();
    t.parse::<i128>().map_err(|_| {
        let digits = t.strip_prefix('-').unwrap_or(t);
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            if t.starts_with('-') {
                format!("{t} is too small (out of range)")
            } else {
                format!("{t} is too large (out of range)")
            }
        } else {
            format!("{t:?} is not a whole number")
        }
    })
}

/// A count (dice, Combat Points): a whole number, 0 or more.
fn count(text: &str) -> Result<u32, String> {
    let n = whole(text)?;
    if n < 0 {
        return Err(format!("must be 0 or more, not {n}"));
    }
    u32::try_from(n).map_err(|_| format!("{n} is too large (at most {})", u32::MAX))
}

/// A bonus or modifier: a whole number, negative for a Hinder.
fn modifier(text: &str) -> Result<i64, String> {
    let n = whole(text)?;
    i64::try_from(n).map_err(|_| {
        if n < 0 {
            format!("{n} is too small (out of range)")
        } else {
            format!("{n} is too large (out of range)")
        }
    })
}

/// A bonus within the crate's cap, or a refusal naming the flag.
fn within(flag: &str, bonus: i64) -> Result<i64, CliError> {
    let cap = i64::from(roleplay::MAX_NUMBER);
    if (-cap..=cap).contains(&bonus) {
        Ok(bonus)
    } else {
        Err(CliError::BadInput(format!(
            "{flag} must be between -{cap} and {cap}, not {bonus}"
        )))
    }
}

/// `tabula tiers check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The Roleplay Bonus (or any flat modifier, negative for a Hinder) added
    /// to the dice; -10000..=10000.
    #[arg(
        long,
        default_value_t = 0,
        conflicts_with = "character",
        allow_negative_numbers = true,
        value_parser = modifier
    )]
    pub bonus: i64,
    /// Take the bonus from this character file's Roleplay Bonus (with --stat).
    #[arg(long, value_name = "FILE", requires = "stat")]
    pub character: Option<PathBuf>,
    /// The Stat whose Roleplay Bonus is added (with --character).
    #[arg(long, requires = "character")]
    pub stat: Option<String>,
    /// The Goal: a number or a difficulty (very-easy, easy, kind-of-hard, hard,
    /// extremely-hard, heroic, almost-impossible).
    #[arg(long, allow_hyphen_values = true)]
    pub goal: String,
    /// In combat: roll N d3 (1 AP each) instead of one d6.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = count)]
    pub d3: Option<u32>,
    /// Roll each d3 as a d6 halved, rounding up (the book's "Dice" fallback).
    #[arg(long)]
    pub halved_d6: bool,
    /// The dice you rolled yourself, comma-separated (d6 faces when --halved-d6).
    #[arg(long, value_name = "V,V,...")]
    pub rolled: Option<String>,
    /// Seed the dice.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// `tabula tiers odds`.
#[derive(Debug, clap::Args)]
pub struct OddsArgs {
    /// The Roleplay Bonus (or any flat modifier, negative for a Hinder) added
    /// to the dice.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = modifier)]
    pub bonus: i64,
    /// The Goal (number or difficulty name); needed unless --versus-bonus or --damage-*.
    #[arg(long, allow_hyphen_values = true)]
    pub goal: Option<String>,
    /// In combat: N d3 instead of one d6.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = count)]
    pub d3: Option<u32>,
    /// A Competing Roll against someone with this bonus (probability: you win).
    #[arg(long, value_name = "B", allow_negative_numbers = true, value_parser = modifier)]
    pub versus_bonus: Option<i64>,
    /// The opponent rolls N d3 (in combat; an enemy's free 1d3 is --versus-d3 1).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = count)]
    pub versus_d3: Option<u32>,
    /// A PvP Roll: you are the Defendant and win ties.
    #[arg(long)]
    pub defendant: bool,
    /// Damage of bought Rolls: this many d6 (probability: at least --goal damage).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = count)]
    pub damage_d6: Option<u32>,
    /// Damage of bought Rolls: this many d3.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = count)]
    pub damage_d3: Option<u32>,
    /// Combat Points added to the damage.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true,
        value_parser = count
    )]
    pub cp: u32,
    /// Accepted for symmetry with check (the odds do not depend on dice rolled).
    #[arg(long, hide = true)]
    pub rolled: Option<String>,
    /// Accepted for symmetry with check.
    #[arg(long, hide = true)]
    pub seed: Option<u64>,
    /// Draw the chance of success against the Goal to FILE (.svg or .png),
    /// each exact value labelled.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<std::path::PathBuf>,
}

/// `tabula tiers character ...`.
#[derive(Debug, clap::Subcommand)]
pub enum CharacterCommand {
    /// Make a new character step by step as the book teaches (prompts; answers
    /// one per line when stdin is not a terminal) and write its sheet.
    New(crate::build::NewArgs),
    /// Give one advancement command to a sheet file (`help` lists them).
    Advance(crate::build::AdvanceArgs),
    /// Check a character file against every rule of Character Creation.
    Validate {
        /// The character file (TOML).
        file: PathBuf,
    },
    /// Show a character: SP per tier, Roleplay Bonuses, Health, AP, Items.
    Show {
        /// The character file (TOML).
        file: PathBuf,
    },
}

/// Run a tiers subcommand.
pub fn run(command: Command, ctx: Ctx) -> Result<(), CliError> {
    match command {
        Command::Check(a) => check(a, ctx),
        Command::Odds(a) => odds_cmd(a, ctx),
        Command::Character(c) => character(c, ctx),
        Command::Play(a) => common::play::<tabula_engine::tiers::Tiers>(&a, ctx),
        Command::Simulate(a) => common::simulate::<tabula_engine::tiers::Tiers>(&a, ctx),
        Command::Content => content(ctx),
    }
}

fn kind_of(d3: Option<u32>) -> RollKind {
    match d3 {
        None => RollKind::OutOfCombat,
        Some(n) => RollKind::InCombat { d3: n },
    }
}

/// The bonus: `--bonus`, or the Roleplay Bonus of `--stat` on `--character`.
fn bonus_of(
    bonus: i64,
    character: Option<&std::path::Path>,
    stat: Option<&str>,
) -> Result<i64, CliError> {
    let (Some(file), Some(stat)) = (character, stat) else {
        return Ok(bonus);
    };
    let st = Stat::parse(stat).ok_or_else(|| {
        CliError::BadInput(format!(
            "--stat {stat:?} is not a Stat (strength, skill, support, scharisma)"
        ))
    })?;
    let ch = load(file)?.map_err(|e| CliError::BadInput(format!("{}: {e}", file.display())))?;
    Ok(i64::from(ch.roleplay_bonus(st)))
}

fn check(a: CheckArgs, ctx: Ctx) -> Result<(), CliError> {
    let goal = parse_goal(&a.goal).map_err(CliError::bad)?;
    let bonus = bonus_of(
        within("--bonus", a.bonus)?,
        a.character.as_deref(),
        a.stat.as_deref(),
    )?;
    let mode = if a.halved_d6 {
        D3Mode::HalvedD6
    } else {
        D3Mode::True
    };
    let mut roller = roller_for(a.seed, a.rolled.as_deref());
    let out = roleplay::check(kind_of(a.d3), bonus, goal, mode, roller.as_mut())
        .map_err(CliError::bad)?;
    finish(roller.as_mut())?;
    ctx.emit(&out, || {
        format!(
            "{} against Goal {}{}: {}",
            out.roll.describe(),
            out.goal,
            out.difficulty
                .map(|d| format!(" ({})", d.name()))
                .unwrap_or_default(),
            if out.success { "success" } else { "failure" }
        )
    })
}

#[derive(Serialize)]
struct DamageOdds {
    probability: f64,
    at_least: u32,
    mean: f64,
    range: (i64, i64),
    distribution: Vec<(i64, f64)>,
}

fn odds_cmd(a: OddsArgs, ctx: Ctx) -> Result<(), CliError> {
    let goal = a
        .goal
        .as_deref()
        .map(parse_goal)
        .transpose()
        .map_err(CliError::bad)?;
    if a.damage_d6.is_some() || a.damage_d3.is_some() {
        let d = odds::damage(a.damage_d6.unwrap_or(0), a.damage_d3.unwrap_or(0), a.cp)
            .map_err(CliError::bad)?;
        let at_least = goal.unwrap_or(0);
        let out = DamageOdds {
            probability: d.p_at_least(i64::from(at_least)),
            at_least,
            mean: d.mean(),
            range: d.range(),
            distribution: d.iter().map(|(v, p)| (*v, p)).collect(),
        };
        return ctx.emit(&out, || {
            let mut lines = vec![format!(
                "damage {}d6 + {}d3 + {} CP: mean {:.3}, range {}..{}; at least {}: {}",
                a.damage_d6.unwrap_or(0),
                a.damage_d3.unwrap_or(0),
                a.cp,
                out.mean,
                out.range.0,
                out.range.1,
                at_least,
                pct(out.probability)
            )];
            for (v, p) in &out.distribution {
                lines.push(format!("  {v:>4}  {:>6}", pct(*p)));
            }
            lines.join("\n")
        });
    }
    let kind = kind_of(a.d3);
    within("--bonus", a.bonus)?;
    if let Some(vb) = a.versus_bonus {
        within("--versus-bonus", vb)?;
        let mine = odds::total(kind, a.bonus).map_err(CliError::bad)?;
        let theirs = odds::total(kind_of(a.versus_d3), vb).map_err(CliError::bad)?;
        let contest = if a.defendant {
            Contest::Pvp {
                first_defends: true,
            }
        } else {
            Contest::Competing {
                tie: TieRule::NothingHappens,
            }
        };
        let out = odds::contest_odds(&mine, &theirs, contest).map_err(CliError::bad)?;
        return ctx.emit(&out, || {
            format!(
                "you win {}, they win {}, tie {}",
                pct(out.probability),
                pct(out.second),
                pct(out.tie)
            )
        });
    }
    let goal = goal.ok_or_else(|| {
        CliError::BadInput(
            "odds needs --goal (or --versus-bonus, or --damage-d6/--damage-d3)".into(),
        )
    })?;
    let out = odds::check(kind, a.bonus, goal).map_err(CliError::bad)?;
    if let Some(path) = &a.chart {
        let points: Vec<(i64, f64)> = (1..=goal.saturating_add(8).max(12))
            .filter_map(|g| {
                odds::check(kind, a.bonus, g)
                    .ok()
                    .map(|o| (i64::from(g), o.probability))
            })
            .collect();
        crate::chart::odds_chart(
            path,
            &format!(
                "Tiers: {} {:+} against each Goal",
                match a.d3 {
                    None => "d6".to_string(),
                    Some(n) => format!("{n}d3"),
                },
                a.bonus
            ),
            "Goal",
            &points,
        )?;
    }
    ctx.emit(&out, || {
        format!(
            "{} {} {} against Goal {}: {} (mean {:.3})",
            match a.d3 {
                None => "d6".to_string(),
                Some(n) => format!("{n}d3"),
            },
            if a.bonus < 0 { '-' } else { '+' },
            a.bonus.unsigned_abs(),
            goal,
            pct(out.probability),
            out.mean
        )
    })
}

#[derive(Serialize)]
struct Validated {
    valid: bool,
    problems: Vec<String>,
}

fn load(file: &std::path::Path) -> Result<Result<Character, CharacterFileError>, CliError> {
    let text = read_file(file)?;
    Ok(Character::from_toml(&text))
}

#[derive(Serialize)]
struct Shown<'a> {
    character: &'a Character,
    roleplay_bonus: Vec<(Stat, u32)>,
    total_sp: u32,
    max_health: u32,
    max_ap: u32,
}

fn character(c: CharacterCommand, ctx: Ctx) -> Result<(), CliError> {
    match c {
        CharacterCommand::New(args) => crate::build::new_character(SystemId::Tiers, &args, ctx),
        CharacterCommand::Advance(args) => crate::build::advance_file(SystemId::Tiers, &args, ctx),
        CharacterCommand::Validate { file } => match load(&file)? {
            Ok(ch) => {
                let out = Validated {
                    valid: true,
                    problems: vec![],
                };
                ctx.emit(&out, || {
                    format!("{}: valid ({})", file.display(), ch.name())
                })
            }
            Err(e) => {
                let problems = match &e {
                    CharacterFileError::Toml(m) => vec![m.clone()],
                    CharacterFileError::Rules(d) => d
                        .problems
                        .iter()
                        .map(|p| format!("{p} [{}]", p.rule()))
                        .collect(),
                };
                let out = Validated {
                    valid: false,
                    problems,
                };
                if ctx.json {
                    ctx.emit(&out, String::new)?;
                    return Err(CliError::BadInput(format!(
                        "{} is not valid",
                        file.display()
                    )));
                }
                Err(CliError::BadInput(format!(
                    "{} is not valid:\n  {}",
                    file.display(),
                    out.problems.join("\n  ")
                )))
            }
        },
        CharacterCommand::Show { file } => {
            let ch =
                load(&file)?.map_err(|e| CliError::BadInput(format!("{}: {e}", file.display())))?;
            let out = Shown {
                character: &ch,
                roleplay_bonus: Stat::ALL
                    .iter()
                    .map(|&s| (s, ch.roleplay_bonus(s)))
                    .collect(),
                total_sp: ch.total_sp(),
                max_health: ch.base_max_health(),
                max_ap: ch.max_ap(),
            };
            ctx.emit(&out, || {
                let mut lines = vec![format!(
                    "{} (level {}): {} SP, max Health {}, max AP {}",
                    ch.name(),
                    ch.level(),
                    out.total_sp,
                    out.max_health,
                    out.max_ap
                )];
                for s in Stat::ALL {
                    let t = ch.stat(s).tiers();
                    lines.push(format!(
                        "  {:<10} {:>2} SP  tiers {:?}  Roleplay Bonus +{}",
                        s.name(),
                        ch.stat(s).total(),
                        t,
                        ch.roleplay_bonus(s)
                    ));
                }
                if !ch.items().is_empty() {
                    lines.push(format!("  Items: {}", ch.items().join(", ")));
                }
                lines.join("\n")
            })
        }
    }
}

fn content(ctx: Ctx) -> Result<(), CliError> {
    let c = tabula_engine::tiers::content::Catalog::sample()
        .map_err(|e| CliError::Failure(e.to_string()))?;
    ctx.emit(&c, || {
        let mut lines = vec!["Sample Items:".to_string()];
        for i in &c.items {
            lines.push(format!("  {} ({} AP): {}", i.name, i.ap(), i.description));
        }
        lines.push("Roll uses (Describing Rolls):".into());
        for u in &c.uses {
            lines.push(format!("  {}: {}", u.name, u.description));
        }
        lines.push("Enemies:".into());
        for e in &c.enemies {
            lines.push(format!("  {}: {}", e.name, e.description));
        }
        lines.push("Non-Player Characters:".into());
        for n in &c.npcs {
            lines.push(format!("  {}: {}", n.name, n.who));
        }
        lines.join("\n")
    })
}
