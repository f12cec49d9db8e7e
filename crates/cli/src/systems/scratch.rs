//! `tabula scratch ...`: Scratch RPS (001_337b5a42e331e513.txt): `check`, `odds`,
//! `carrying`, `character validate|show`, `play`.

use serde::Serialize;
use std::path::PathBuf;
use tabula_engine::SystemId;
use tabula_engine::play::percent as pct;

use crate::common::{self, CliError, Ctx, PlayArgs};
use tabula_engine::scratch::character::{Carrying, PrintedCheck};
use tabula_engine::scratch::rolls::{self, AttackKind, Check};
use tabula_engine::scratch::rules::{MAX_CP_CAP, MAX_LEVEL_CAP};
use tabula_engine::scratch::table::{MAX_STRENGTH_BASE, check_rules, table_rules};
use tabula_engine::scratch::{Ability, Character, D20Method, LoadError, TableRules};

/// The scratch subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Make one roll: a d20 + level + modifier against a difficulty ("Rolls").
    Check {
        /// The ability level added (0 for rolls without an ability).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        level: i64,
        /// The difficulty (a number, or the target's defense).
        #[arg(long, allow_negative_numbers = true)]
        difficulty: i64,
        /// Other modifiers (cover -2, engage +2, swimming...).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        modifier: i64,
        /// The roll requires the ability: refused without at least one level
        /// ("Rolls": "requires healing ability").
        #[arg(long)]
        requires: bool,
        /// The roller is in cover: -2 to the roll ("Basic Actions", take cover).
        #[arg(long)]
        cover: bool,
        /// The roller engaged before this close range attack: +2 ("Basic
        /// Actions"); needs --attack naming a close range attack.
        #[arg(long)]
        engaged: bool,
        /// The attack the roll is for: basic, throw, shooting, blasting,
        /// knockout, fighting, wrestling-hold, hold, distract, surprise,
        /// intimidate, no-damage (decides what engage and cover allow).
        #[arg(long)]
        attack: Option<String>,
        /// The dice you rolled yourself (one d20, or d6s for --d20 d6-table|d6x4).
        #[arg(long, value_name = "V,V,...")]
        rolled: Option<String>,
        /// Seed the dice.
        #[arg(long)]
        seed: Option<u64>,
        /// How the twenty-sided die is rolled (R-SCR-6), any case: d20;
        /// d6-table (also table, lookup, lookup-table, d6-lookup, 6x6);
        /// d6x4 (also "d6 x 4", d6-x4, d6*4, d6-times-4, times4).
        #[arg(long, default_value = "d20")]
        d20: String,
    },
    /// The exact chance a roll succeeds; with --attack, of each damage outcome.
    Odds {
        /// The ability level added.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        level: i64,
        /// The difficulty.
        #[arg(long, allow_negative_numbers = true)]
        difficulty: i64,
        /// Other modifiers.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        modifier: i64,
        /// How the twenty-sided die is rolled (R-SCR-6), any case: d20;
        /// d6-table (also table, lookup, lookup-table, d6-lookup, 6x6);
        /// d6x4 (also "d6 x 4", d6-x4, d6*4, d6-times-4, times4).
        #[arg(long, default_value = "d20")]
        d20: String,
        /// The roller is in cover: -2 to the roll ("Basic Actions", take cover).
        #[arg(long)]
        cover: bool,
        /// The roller engaged before this close range attack: +2 ("Basic
        /// Actions"); needs --attack naming a close range attack.
        #[arg(long)]
        engaged: bool,
        /// An attack whose damage outcomes to give: basic, throw, shooting,
        /// blasting, knockout, fighting, wrestling-hold, hold, distract,
        /// surprise, intimidate, no-damage.
        #[arg(long)]
        attack: Option<String>,
        /// The attacker is injured (knockout 2, fighting one attack, no hold damage).
        #[arg(long)]
        injured: bool,
        /// Draw the chance of success against the difficulty to FILE (.svg or .png),
        /// each exact value labelled.
        #[arg(long, value_name = "FILE")]
        chart: Option<std::path::PathBuf>,
    },
    /// The carrying table for a strength ("Defenses").
    Carrying {
        /// The character's strength (0 or more).
        #[arg(long, allow_negative_numbers = true)]
        strength: i64,
    },
    /// Character files.
    #[command(subcommand)]
    Character(CharacterCommand),
    /// Play a table file.
    Play(PlayArgs),
    /// Play the table's encounter many times with each system policy and
    /// report win rates (95% intervals), rounds, who is taken out and what is left.
    Simulate(common::SimulateArgs),
}

/// `tabula scratch character ...`.
#[derive(Debug, clap::Subcommand)]
pub enum CharacterCommand {
    /// Make a new character step by step as the book teaches (prompts; answers
    /// one per line when stdin is not a terminal) and write its sheet.
    New(crate::build::NewArgs),
    /// Give one advancement command to a sheet file (`help` lists them).
    Advance(crate::build::AdvanceArgs),
    /// Check a character file against the rules; lists every broken rule.
    Validate(CharacterArgs),
    /// Show a character: levels, defenses, hit points, carrying, printed numbers.
    Show(CharacterArgs),
}

/// The options of `character validate|show`.
#[derive(Debug, clap::Args)]
pub struct CharacterArgs {
    /// The character file (TOML).
    pub file: PathBuf,
    /// The table's character points: they bind the sheet, which cannot raise
    /// them (R-SCR-7).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true)]
    pub cp: i64,
    /// The table's maximum level: it binds the sheet (R-SCR-7).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true)]
    pub max_level: i64,
    /// Strength without wrestling or swimming is this + toughness (R-SCR-1: 8).
    #[arg(long, default_value_t = 8, allow_negative_numbers = true)]
    pub strength_base: i64,
    /// Take cp, max_level and strength_base from this table file's [rules]
    /// instead (R-SCR-7).
    #[arg(long, conflicts_with_all = ["cp", "max_level", "strength_base"])]
    pub table: Option<PathBuf>,
}

fn method(text: &str) -> Result<D20Method, CliError> {
    text.parse::<D20Method>()
        .map_err(|e| CliError::BadInput(format!("--{e}")))
}

fn attack_kind(attack: Option<&str>) -> Result<Option<AttackKind>, CliError> {
    attack
        .map(|a| {
            AttackKind::parse(a).ok_or_else(|| {
                CliError::BadInput(format!(
                    "--attack {a:?}: use one of {}",
                    AttackKind::names()
                ))
            })
        })
        .transpose()
}

/// A number typed on the command line in `min..=max`, or a refusal naming it.
fn in_range(field: &str, value: i64, min: u32, max: u32) -> Result<u32, CliError> {
    u32::try_from(value)
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            CliError::BadInput(format!(
                "--{field} must be between {min} and {max}, not {value}"
            ))
        })
}

/// Run a scratch subcommand.
pub fn run(command: Command, ctx: Ctx) -> Result<(), CliError> {
    match command {
        Command::Check {
            level,
            difficulty,
            modifier,
            requires,
            cover,
            engaged,
            attack,
            rolled,
            seed,
            d20,
        } => {
            if requires && level < 1 {
                return Err(CliError::bad(rolls::requires_ability(level)));
            }
            let kind = attack_kind(attack.as_deref())?;
            check(
                level,
                difficulty,
                rolls::situational_modifier(modifier, cover, engaged, kind)
                    .map_err(CliError::bad)?,
                rolled,
                seed,
                &d20,
                ctx,
            )
        }
        Command::Odds {
            level,
            difficulty,
            modifier,
            d20,
            cover,
            engaged,
            attack,
            injured,
            chart,
        } => {
            let kind = attack_kind(attack.as_deref())?;
            if let Some(path) = &chart {
                let m = method(&d20)?;
                let modifier = rolls::situational_modifier(modifier, cover, engaged, kind)
                    .map_err(CliError::bad)?;
                rolls::check_inputs(level, difficulty, modifier).map_err(CliError::bad)?;
                let points: Vec<(i64, f64)> = (difficulty.saturating_sub(10)
                    ..=difficulty.saturating_add(10))
                    .filter(|&d| rolls::check_inputs(level, d, modifier).is_ok())
                    .map(|d| (d, rolls::roll_odds(level, d, modifier, m).probability))
                    .collect();
                crate::chart::odds_chart(
                    path,
                    &format!("Scratch RPS: ability level {level}, modifier {modifier:+}"),
                    "difficulty",
                    &points,
                )?;
            }
            odds(
                level,
                difficulty,
                rolls::situational_modifier(modifier, cover, engaged, kind)
                    .map_err(CliError::bad)?,
                &d20,
                kind,
                injured,
                ctx,
            )
        }
        Command::Carrying { strength } => {
            let strength = in_range("strength", strength, 0, u32::MAX)?;
            let c = Carrying::for_strength(strength);
            ctx.emit(&c, || carrying_text(&c))
        }
        Command::Character(CharacterCommand::New(args)) => {
            crate::build::new_character(SystemId::Scratch, &args, ctx)
        }
        Command::Character(CharacterCommand::Advance(args)) => {
            crate::build::advance_file(SystemId::Scratch, &args, ctx)
        }
        Command::Character(CharacterCommand::Validate(args)) => character(&args, false, ctx),
        Command::Character(CharacterCommand::Show(args)) => character(&args, true, ctx),
        Command::Play(args) => common::play::<tabula_engine::scratch::Scratch>(&args, ctx),
        Command::Simulate(a) => common::simulate::<tabula_engine::scratch::Scratch>(&a, ctx),
    }
}

#[derive(Serialize)]
struct CheckOut {
    success: bool,
    automatic: bool,
    dice: Vec<u32>,
    die: u32,
    method: D20Method,
    level: u32,
    modifier: i64,
    total: i64,
    difficulty: i64,
}

fn check(
    level: i64,
    difficulty: i64,
    modifier: i64,
    rolled: Option<String>,
    seed: Option<u64>,
    d20: &str,
    ctx: Ctx,
) -> Result<(), CliError> {
    let m = method(d20)?;
    let mut roller = common::roller_for(seed, rolled.as_deref());
    let result = rolls::check(level, difficulty, modifier, m, roller.as_mut());
    common::finish(roller.as_mut())?;
    let c: Check = result.map_err(CliError::bad)?;
    let out = CheckOut {
        success: c.success,
        automatic: c.automatic(),
        dice: c.roll.dice.clone(),
        die: c.roll.value,
        method: m,
        level: c.level,
        modifier: c.modifier,
        total: c.total,
        difficulty: c.difficulty,
    };
    ctx.emit(&out, || {
        format!(
            "rolled {} ({}){} + level {}{} = {} against difficulty {}: {}",
            out.die,
            out.dice
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if matches!(m, D20Method::D20) {
                String::new()
            } else {
                format!(" by {m}")
            },
            out.level,
            if out.modifier == 0 {
                String::new()
            } else {
                format!(" {:+}", out.modifier)
            },
            out.total,
            out.difficulty,
            if out.automatic {
                "automatic success (natural 20)"
            } else if out.success {
                "success"
            } else {
                "failure"
            }
        )
    })
}

#[derive(Serialize)]
struct DamageRow {
    damage: i64,
    probability: f64,
}

#[derive(Serialize)]
struct OddsOut {
    probability: f64,
    automatic: f64,
    level: i64,
    difficulty: i64,
    modifier: i64,
    method: D20Method,
    #[serde(skip_serializing_if = "Option::is_none")]
    attack: Option<AttackKind>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    damage: Vec<DamageRow>,
}

fn odds(
    level: i64,
    difficulty: i64,
    modifier: i64,
    d20: &str,
    attack: Option<AttackKind>,
    injured: bool,
    ctx: Ctx,
) -> Result<(), CliError> {
    let m = method(d20)?;
    rolls::check_inputs(level, difficulty, modifier).map_err(CliError::bad)?;
    let o = rolls::roll_odds(level, difficulty, modifier, m);
    let mut damage = Vec::new();
    if let Some(kind) = attack {
        let dist =
            rolls::damage_distribution(kind.profile(injured), level, difficulty, modifier, m)
                .map_err(CliError::bad)?;
        damage = dist
            .iter()
            .map(|(d, p)| DamageRow {
                damage: *d,
                probability: p,
            })
            .collect();
    }
    let out = OddsOut {
        probability: o.probability,
        automatic: o.automatic,
        level,
        difficulty,
        modifier,
        method: m,
        attack,
        damage,
    };
    ctx.emit(&out, || {
        let mut s = format!(
            "d20 + {level}{} against {difficulty}: {}, automatic {}",
            if modifier == 0 {
                String::new()
            } else {
                format!(" {modifier:+}")
            },
            pct(out.probability),
            pct(out.automatic)
        );
        for row in &out.damage {
            s.push_str(&format!(
                "\n  {} damage: {}",
                row.damage,
                pct(row.probability)
            ));
        }
        s
    })
}

fn carrying_text(c: &Carrying) -> String {
    format!(
        "strength {}: pack {} kg ({} lbs), carry {} kg ({} lbs), lift {} kg ({} lbs)",
        c.strength, c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
    )
}

#[derive(Serialize)]
struct Sheet {
    valid: bool,
    name: String,
    id: String,
    cp: u32,
    cp_spent: u64,
    max_level: u32,
    abilities: Vec<(Ability, u32)>,
    other_abilities: Vec<(String, u32)>,
    agility: u32,
    intelligence: u32,
    strength: u32,
    stamina: u32,
    max_hit_points: u32,
    carrying: Carrying,
    printed: Vec<PrintedCheck>,
    minions: Vec<Sheet>,
}

fn sheet(c: &Character, base: u32) -> Sheet {
    let d = c.defenses(base);
    Sheet {
        valid: true,
        name: c.name().into(),
        id: c.id().into(),
        cp: c.cp(),
        cp_spent: c.cp_spent(),
        max_level: c.max_level(),
        abilities: c.levels().iter().map(|(a, l)| (*a, *l)).collect(),
        other_abilities: c
            .other_abilities()
            .iter()
            .map(|(a, l)| (a.clone(), *l))
            .collect(),
        agility: d.agility,
        intelligence: d.intelligence,
        strength: d.strength,
        stamina: d.stamina,
        max_hit_points: d.max_hit_points,
        carrying: Carrying::for_strength(d.strength),
        printed: c.printed_checks(base),
        minions: c.minions().iter().map(|m| sheet(m, base)).collect(),
    }
}

fn sheet_text(s: &Sheet, c: &Character, indent: &str) -> String {
    let mut out = format!(
        "{indent}{} ({} agility, {} intelligence, {} strength, {} stamina): {}\n",
        s.name,
        s.agility,
        s.intelligence,
        s.strength,
        s.stamina,
        c.description()
    );
    for (a, l) in &s.abilities {
        let note = c
            .note(a.name())
            .map(|n| format!(": {n}"))
            .unwrap_or_default();
        out.push_str(&format!("{indent}  {l} {a}{note}\n"));
    }
    for (a, l) in &s.other_abilities {
        out.push_str(&format!("{indent}  {l} {a} (no rules in the book)\n"));
    }
    out.push_str(&format!(
        "{indent}  id {}; {} of {} CP, maximum level {}; {} hit points; {}\n",
        s.id,
        s.cp_spent,
        s.cp,
        s.max_level,
        s.max_hit_points,
        carrying_text(&s.carrying)
    ));
    if s.max_hit_points == 0 {
        out.push_str(&format!(
            "{indent}  no toughness: cannot perform actions during encounters (\"Toughness\")\n"
        ));
    }
    for p in &s.printed {
        if p.why.is_empty() {
            out.push_str(&format!(
                "{indent}  printed {} {}: matches\n",
                p.defense, p.printed
            ));
        } else {
            out.push_str(&format!(
                "{indent}  printed {} {}, computed {}: {}\n",
                p.defense, p.printed, p.computed, p.why
            ));
        }
    }
    for (m, ms) in c.minions().iter().zip(&s.minions) {
        out.push_str(&format!("{indent}  minion:\n"));
        out.push_str(&sheet_text(ms, m, &format!("{indent}    ")));
    }
    out
}

fn character(args: &CharacterArgs, show: bool, ctx: Ctx) -> Result<(), CliError> {
    let text = common::read_file(&args.file)?;
    let rules = match &args.table {
        Some(table) => {
            let t = common::read_file(table)?;
            table_rules(&t).map_err(|e| CliError::BadInput(format!("{}: {e}", table.display())))?
        }
        None => {
            let rules = TableRules {
                cp: in_range("cp", args.cp, 1, MAX_CP_CAP)?,
                max_level: in_range("max-level", args.max_level, 1, MAX_LEVEL_CAP)?,
                strength_base: in_range("strength-base", args.strength_base, 0, MAX_STRENGTH_BASE)?,
                ..TableRules::default()
            };
            check_rules(&rules).map_err(CliError::bad)?;
            rules
        }
    };
    let c = match Character::from_toml(&text, &rules) {
        Ok(c) => c,
        Err(e) => {
            if ctx.json {
                let problems: Vec<serde_json::Value> = match &e {
                    LoadError::Character(ce) => ce
                        .problems
                        .iter()
                        .map(|p| {
                            let mut v = serde_json::to_value(p).unwrap_or(serde_json::Value::Null);
                            if let Some(o) = v.as_object_mut() {
                                o.insert("message".into(), p.to_string().into());
                            }
                            v
                        })
                        .collect(),
                    LoadError::Toml(m) => vec![serde_json::json!({ "kind": "toml", "message": m })],
                };
                ctx.emit(
                    &serde_json::json!({ "valid": false, "problems": problems }),
                    String::new,
                )?;
            }
            return Err(CliError::BadInput(format!("{}: {e}", args.file.display())));
        }
    };
    let s = sheet(&c, rules.strength_base);
    if show {
        ctx.emit(&s, || sheet_text(&s, &c, "").trim_end().to_string())
    } else {
        ctx.emit(&s, || {
            format!("{}: {} is a legal character", args.file.display(), c.name())
        })
    }
}
