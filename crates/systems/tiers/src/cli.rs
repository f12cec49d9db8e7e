//! Tiers outside the table (002_631931fd73349179.txt): the `check` and `odds`
//! tools with their parameters, the book's Sample Content as a reference
//! printout (`content`), and the character sheet of a character file. The
//! command line builds `tabula tiers ...` from these.

use std::fmt::Write as _;

use serde::Serialize;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section};
use tabula_core::system::ParamKind;
use tabula_core::tool::{
    BookTools, Chart, ParamValues, Report, Rolled, Tool, ToolError, ToolKind, ToolParam,
    percent as pct,
};
use tabula_core::{D3Mode, Roller};

use crate::Tiers;
use crate::character::{Character, Stat};
use crate::odds;
use crate::roleplay::{self, Contest, Difficulty, RollKind, TieRule, parse_goal};

/// The Goal: a number or a name from the Suggested Difficulty Curve.
fn goal_param(help: &'static str) -> ToolParam {
    ToolParam {
        kind: ToolKind::Value(ParamKind::NumberOrName {
            min: 0,
            max: i64::from(roleplay::MAX_NUMBER),
            names: Difficulty::ALL
                .iter()
                .map(|d| d.name().to_string())
                .collect(),
        }),
        ..ToolParam::text("goal", help)
    }
}

impl BookTools for Tiers {
    fn tools() -> Vec<Tool> {
        let cap = i64::from(roleplay::MAX_NUMBER);
        let count = |name, help| ToolParam::int(name, help, 0, i64::from(u32::MAX)).value_name("N");
        vec![
            Tool::new(
                "check",
                "Roll against a Goal: d6 + bonus out of combat, or N d3 + bonus with --d3 N \
                 (\"Roleplay Bonus\", \"Roleplaying in Combat\").",
                run_check,
            )
            .param(
                ToolParam::int(
                    "bonus",
                    "The Roleplay Bonus (or any flat modifier, negative for a Hinder) added to \
                     the dice; -10000..=10000.",
                    -cap,
                    cap,
                )
                .default("0"),
            )
            .param(
                ToolParam::file(
                    "character",
                    "Take the bonus from this character file's Roleplay Bonus (with --stat).",
                )
                .value_name("FILE"),
            )
            .param(ToolParam {
                kind: ToolKind::Value(ParamKind::Choice {
                    options: Stat::ALL.iter().map(|s| s.name().to_string()).collect(),
                }),
                ..ToolParam::text(
                    "stat",
                    "The Stat whose Roleplay Bonus is added (with --character).",
                )
            })
            .param(
                goal_param(
                    "The Goal: a number or a difficulty (very-easy, easy, kind-of-hard, hard, \
                     extremely-hard, heroic, almost-impossible).",
                )
                .required(),
            )
            .param(count(
                "d3",
                "In combat: roll N d3 (1 AP each) instead of one d6.",
            ))
            .param(ToolParam::switch(
                "halved-d6",
                "Roll each d3 as a d6 halved, rounding up (the book's \"Dice\" fallback).",
            ))
            .rolls(Rolled {
                help: "The dice you rolled yourself, comma-separated (d6 faces when --halved-d6).",
                normalize: None,
            }),
            Tool::new(
                "odds",
                "The exact chance of a check (or a Competing Roll, or bought-Roll damage).",
                run_odds,
            )
            .param(
                ToolParam::int(
                    "bonus",
                    "The Roleplay Bonus (or any flat modifier, negative for a Hinder) added to \
                     the dice.",
                    -cap,
                    cap,
                )
                .default("0"),
            )
            .param(goal_param(
                "The Goal (number or difficulty name); needed unless --versus-bonus or \
                 --damage-*.",
            ))
            .param(count("d3", "In combat: N d3 instead of one d6."))
            .param(
                ToolParam::int(
                    "versus-bonus",
                    "A Competing Roll against someone with this bonus (probability: you win).",
                    -cap,
                    cap,
                )
                .value_name("B"),
            )
            .param(count(
                "versus-d3",
                "The opponent rolls N d3 (in combat; an enemy's free 1d3 is --versus-d3 1).",
            ))
            .param(ToolParam::switch(
                "defendant",
                "A PvP Roll: you are the Defendant and win ties.",
            ))
            .param(count(
                "damage-d6",
                "Damage of bought Rolls: this many d6 (probability: at least --goal damage).",
            ))
            .param(count("damage-d3", "Damage of bought Rolls: this many d3."))
            .param(count("cp", "Combat Points added to the damage.").default("0"))
            .param(
                ToolParam::text(
                    "rolled",
                    "Accepted for symmetry with check (the odds do not depend on dice rolled).",
                )
                .hidden(),
            )
            .param(ToolParam::text("seed", "Accepted for symmetry with check.").hidden())
            .charts(),
            Tool::new(
                "content",
                "The book's Sample Content: Items, roll uses, enemies, NPCs.",
                run_content,
            ),
        ]
    }

    fn character_sheet(_settings: &str, sheet: &str) -> Result<CharacterSheet, String> {
        Character::from_toml(sheet)
            .map(|c| character_sheet(&c))
            .map_err(|e| e.to_string())
    }
}

fn kind_of(d3: Option<u32>) -> RollKind {
    match d3 {
        None => RollKind::OutOfCombat,
        Some(n) => RollKind::InCombat { d3: n },
    }
}

/// A bonus within the crate's cap, or a refusal naming the flag.
fn bonus(v: &ParamValues, flag: &str) -> Result<Option<i64>, ToolError> {
    let cap = i64::from(roleplay::MAX_NUMBER);
    match v.int(flag)? {
        Some(b) if !(-cap..=cap).contains(&b) => Err(ToolError::OutOfRange {
            flag: format!("--{flag}"),
            min: format!("-{cap}"),
            max: cap.to_string(),
            got: b.to_string(),
        }),
        b => Ok(b),
    }
}

/// The bonus: `--bonus`, or the Roleplay Bonus of `--stat` on `--character`
/// ("Roleplay Bonus").
fn bonus_of(v: &ParamValues) -> Result<i64, ToolError> {
    let b = bonus(v, "bonus")?.unwrap_or(0);
    match (v.get("character"), v.get("stat")) {
        (None, None) => Ok(b),
        (Some(_), None) => Err(ToolError::invalid("--stat", "--character needs --stat")),
        (None, Some(_)) => Err(ToolError::invalid(
            "--character",
            "--stat needs --character",
        )),
        (Some(file), Some(stat)) => {
            if v.get("bonus").is_some_and(|t| t != "0") {
                return Err(ToolError::invalid(
                    "--bonus",
                    "--bonus cannot be used with --character",
                ));
            }
            let st = Stat::parse(stat).ok_or_else(|| {
                ToolError::invalid(
                    "--stat",
                    format!("--stat {stat:?} is not a Stat (strength, skill, support, scharisma)"),
                )
            })?;
            let text = tabula_core::files::read_text_capped(
                std::path::Path::new(file),
                tabula_core::files::MAX_FILE_BYTES,
            )
            .map_err(|e| ToolError::invalid("--character", e))?;
            let ch = Character::from_toml(&text)
                .map_err(|e| ToolError::invalid("--character", format!("{file}: {e}")))?;
            Ok(i64::from(ch.roleplay_bonus(st)))
        }
    }
}

/// `check`: a roll against a Goal. Tiers, "Roleplay Bonus", "Roleplaying in
/// Combat", "Dice" (002_631931fd73349179.txt).
fn run_check(v: &ParamValues, roller: &mut dyn Roller) -> Result<Report, ToolError> {
    let goal = parse_goal(v.get("goal").unwrap_or_default())
        .map_err(|e| ToolError::invalid("--goal", e))?;
    let bonus = bonus_of(v)?;
    let mode = if v.has("halved-d6") {
        D3Mode::HalvedD6
    } else {
        D3Mode::True
    };
    let out = roleplay::check(kind_of(v.count("d3")?), bonus, goal, mode, roller)
        .map_err(|e| ToolError::invalid("--d3", e))?;
    let text = format!(
        "{} against Goal {}{}: {}",
        out.roll.describe(),
        out.goal,
        out.difficulty
            .map(|d| format!(" ({})", d.name()))
            .unwrap_or_default(),
        if out.success { "success" } else { "failure" }
    );
    Report::of(&out, text)
}

#[derive(Serialize)]
struct DamageOdds {
    probability: f64,
    at_least: u32,
    mean: f64,
    range: (i64, i64),
    distribution: Vec<(i64, f64)>,
}

/// `odds`: the exact chance of a check, a Competing Roll or a PvP Roll, or
/// the damage of bought Rolls. Tiers, "Roleplay Bonus", "Competing Rolls",
/// "Buying Rolls" (002_631931fd73349179.txt).
fn run_odds(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let goal = v
        .get("goal")
        .map(parse_goal)
        .transpose()
        .map_err(|e| ToolError::invalid("--goal", e))?;
    let d3 = v.count("d3")?;
    let (damage_d6, damage_d3) = (v.count("damage-d6")?, v.count("damage-d3")?);
    let cp = v.count("cp")?.unwrap_or(0);
    let versus_d3 = v.count("versus-d3")?;
    if damage_d6.is_some() || damage_d3.is_some() {
        let (d6, d3) = (damage_d6.unwrap_or(0), damage_d3.unwrap_or(0));
        let d = odds::damage(d6, d3, cp).map_err(|e| ToolError::invalid("--damage-d6", e))?;
        let at_least = goal.unwrap_or(0);
        let out = DamageOdds {
            probability: d.p_at_least(i64::from(at_least)),
            at_least,
            mean: d.mean(),
            range: d.range(),
            distribution: d.iter().map(|(v, p)| (*v, p)).collect(),
        };
        let mut text = format!(
            "damage {d6}d6 + {d3}d3 + {cp} CP: mean {:.3}, range {}..{}; at least {}: {}",
            out.mean,
            out.range.0,
            out.range.1,
            at_least,
            pct(out.probability)
        );
        for (v, p) in &out.distribution {
            let _ = write!(text, "\n  {v:>4}  {:>6}", pct(*p));
        }
        return Report::of(&out, text);
    }
    let kind = kind_of(d3);
    let b = bonus(v, "bonus")?.unwrap_or(0);
    if let Some(vb) = bonus(v, "versus-bonus")? {
        let mine = odds::total(kind, b).map_err(|e| ToolError::invalid("--bonus", e))?;
        let theirs = odds::total(kind_of(versus_d3), vb)
            .map_err(|e| ToolError::invalid("--versus-bonus", e))?;
        let contest = if v.has("defendant") {
            Contest::Pvp {
                first_defends: true,
            }
        } else {
            Contest::Competing {
                tie: TieRule::NothingHappens,
            }
        };
        let out = odds::contest_odds(&mine, &theirs, contest)
            .map_err(|e| ToolError::invalid("--versus-bonus", e))?;
        let text = format!(
            "you win {}, they win {}, tie {}",
            pct(out.probability),
            pct(out.second),
            pct(out.tie)
        );
        return Report::of(&out, text);
    }
    let goal = goal.ok_or_else(|| {
        ToolError::invalid(
            "--goal",
            "odds needs --goal (or --versus-bonus, or --damage-d6/--damage-d3)",
        )
    })?;
    let out = odds::check(kind, b, goal).map_err(|e| ToolError::invalid("--goal", e))?;
    let dice = match d3 {
        None => "d6".to_string(),
        Some(n) => format!("{n}d3"),
    };
    let chart = v.has("chart").then(|| Chart {
        title: format!("Tiers: {dice} {b:+} against each Goal"),
        x_label: "Goal".into(),
        points: (1..=goal.saturating_add(8).max(12))
            .filter_map(|g| {
                odds::check(kind, b, g)
                    .ok()
                    .map(|o| (i64::from(g), o.probability))
            })
            .collect(),
    });
    let text = format!(
        "{dice} {} {} against Goal {}: {} (mean {:.3})",
        if b < 0 { '-' } else { '+' },
        b.unsigned_abs(),
        goal,
        pct(out.probability),
        out.mean
    );
    Ok(Report::of(&out, text)?.with_chart(chart))
}

/// `content`: the book's Sample Content. Tiers, "Sample Content"
/// (002_631931fd73349179.txt).
fn run_content(_: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let c = crate::content::Catalog::sample().map_err(|e| ToolError::Failure(e.to_string()))?;
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
    Report::of(&c, lines.join("\n"))
}

/// A character file as the book's character sheet: level, SP, Health and AP,
/// each Stat with its SP, tiers and Roleplay Bonus, Items. Tiers, "Character
/// Creation", "Stats", "Roleplay Bonus" (002_631931fd73349179.txt); R-TI-3.
pub fn character_sheet(ch: &Character) -> CharacterSheet {
    let mut doc = CharacterSheet::new(ch.name(), format!("Level {}", ch.level()));
    doc.push(
        Section::new("Character")
            .with(Item::value("Level", ch.level()))
            .with(Item::value("SP", ch.total_sp()))
            .with(Item::track(
                "Health",
                i64::from(ch.base_max_health()),
                i64::from(ch.base_max_health()),
            ))
            .with(Item::value("AP", ch.max_ap())),
    );
    let stats: Vec<Row> = Stat::ALL
        .iter()
        .map(|&s| {
            Row::new(s.name(), format!("{} SP", ch.stat(s).total())).detail(format!(
                "tiers {:?}, Roleplay Bonus +{}",
                ch.stat(s).tiers(),
                ch.roleplay_bonus(s)
            ))
        })
        .collect();
    doc.push(Section::new("Stats").with(Item::list("Stats (SP, tiers)", stats)));
    doc.push(Section::new("Items").with(Item::tags("Items", ch.items().iter().cloned())));
    doc
}
