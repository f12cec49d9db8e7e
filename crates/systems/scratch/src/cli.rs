//! Scratch RPS outside the table (001_337b5a42e331e513.txt): the `check`,
//! `odds` and `carrying` tools with their parameters, the table's rules a
//! character file is checked under (R-SCR-7), and the character sheet of a
//! character file. The command line builds `tabula scratch ...` from these.

use std::fmt::Write as _;

use serde::Serialize;
use tabula_core::Roller;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section};
use tabula_core::system::ParamKind;
use tabula_core::tool::{
    BookTools, Chart, ParamValues, Report, Rolled, Tool, ToolError, ToolKind, ToolParam,
    percent as pct,
};

use crate::character::Carrying;
use crate::rolls::{self, AttackKind, MAX_NUMBER};
use crate::rules::{MAX_CP_CAP, MAX_LEVEL_CAP};
use crate::setup::{MAX_STRENGTH_BASE, check_rules, setting_rules, setting_text, table_rules};
use crate::{Character, D20Method, Scratch, TableRules};

/// How the twenty-sided die is rolled (R-SCR-6).
const D20_HELP: &str = "How the twenty-sided die is rolled (R-SCR-6), any case: d20; d6-table \
    (also table, lookup, lookup-table, d6-lookup, 6x6); d6x4 (also \"d6 x 4\", d6-x4, d6*4, \
    d6-times-4, times4).";
const COVER_HELP: &str = "The roller is in cover: -2 to the roll (\"Basic Actions\", take cover).";
const ENGAGED_HELP: &str = "The roller engaged before this close range attack: +2 (\"Basic \
    Actions\"); needs --attack naming a close range attack.";

fn attack_param(help: &'static str) -> ToolParam {
    ToolParam {
        kind: ToolKind::Value(ParamKind::Choice {
            options: AttackKind::ALL
                .iter()
                .map(|a| a.name().to_string())
                .collect(),
        }),
        ..ToolParam::text("attack", help)
    }
}

impl BookTools for Scratch {
    fn tools() -> Vec<Tool> {
        let n = MAX_NUMBER;
        let level = |help| ToolParam::int("level", help, 0, n).default("0");
        let difficulty = |help| ToolParam::int("difficulty", help, -n, n).required();
        let modifier = |help| ToolParam::int("modifier", help, -n, n).default("0");
        vec![
            Tool::new(
                "check",
                "Make one roll: a d20 + level + modifier against a difficulty (\"Rolls\").",
                run_check,
            )
            .param(level(
                "The ability level added (0 for rolls without an ability).",
            ))
            .param(difficulty(
                "The difficulty (a number, or the target's defense).",
            ))
            .param(modifier(
                "Other modifiers (cover -2, engage +2, swimming...).",
            ))
            .param(ToolParam::switch(
                "requires",
                "The roll requires the ability: refused without at least one level (\"Rolls\": \
                 \"requires healing ability\").",
            ))
            .param(ToolParam::switch("cover", COVER_HELP))
            .param(ToolParam::switch("engaged", ENGAGED_HELP))
            .param(attack_param(
                "The attack the roll is for (decides what engage and cover allow).",
            ))
            .param(ToolParam::text("d20", D20_HELP).default("d20"))
            .rolls(Rolled {
                help: "The dice you rolled yourself (one d20, or d6s for --d20 d6-table|d6x4).",
                normalize: None,
            }),
            Tool::new(
                "odds",
                "The exact chance a roll succeeds; with --attack, of each damage outcome \
                 (\"Rolls\", \"Attacks\").",
                run_odds,
            )
            .param(level("The ability level added."))
            .param(difficulty("The difficulty."))
            .param(modifier("Other modifiers."))
            .param(ToolParam::text("d20", D20_HELP).default("d20"))
            .param(ToolParam::switch("cover", COVER_HELP))
            .param(ToolParam::switch("engaged", ENGAGED_HELP))
            .param(attack_param("An attack whose damage outcomes to give."))
            .param(ToolParam::switch(
                "injured",
                "The attacker is injured (knockout 2, fighting one attack, no hold damage).",
            ))
            .charts(),
            Tool::new(
                "carrying",
                "The carrying table for a strength (\"Defenses\").",
                run_carrying,
            )
            .param(
                ToolParam::int(
                    "strength",
                    "The character's strength (0 or more).",
                    0,
                    i64::from(u32::MAX),
                )
                .required(),
            ),
        ]
    }

    fn character_params() -> Vec<ToolParam> {
        vec![
            ToolParam::int(
                "cp",
                "The table's character points (default 10): they bind the sheet, which cannot \
                 raise them (R-SCR-7).",
                1,
                i64::from(MAX_CP_CAP),
            ),
            ToolParam::int(
                "max-level",
                "The table's maximum level (default 4): it binds the sheet (R-SCR-7).",
                1,
                i64::from(MAX_LEVEL_CAP),
            ),
            ToolParam::int(
                "strength-base",
                "Strength without wrestling or swimming is this + toughness (R-SCR-1: 8).",
                0,
                i64::from(MAX_STRENGTH_BASE),
            ),
            ToolParam::file(
                "table",
                "Take cp, max_level and strength_base from this table file's [rules] instead \
                 (R-SCR-7).",
            ),
        ]
    }

    /// The table's rules a sheet is checked under: `--table`'s `[rules]`, or
    /// `--cp`, `--max-level`, `--strength-base` (R-SCR-7, R-SCR-9).
    fn character_settings(v: &ParamValues) -> Result<String, ToolError> {
        let given = ["cp", "max-level", "strength-base"]
            .into_iter()
            .find(|f| v.has(f));
        if let Some(table) = v.get("table") {
            if let Some(f) = given {
                return Err(ToolError::Invalid {
                    flag: format!("--{f}"),
                    message: format!("--{f} cannot be used with --table (R-SCR-7)"),
                    rule: None,
                });
            }
            let text = tabula_core::files::read_text_capped(
                std::path::Path::new(table),
                tabula_core::files::MAX_FILE_BYTES,
            )
            .map_err(|e| ToolError::Invalid {
                flag: "--table".into(),
                message: e.to_string(),
                rule: None,
            })?;
            let rules = table_rules(&text).map_err(|e| ToolError::Invalid {
                flag: "--table".into(),
                message: format!("{table}: {e}"),
                rule: None,
            })?;
            return Ok(setting_text(&rules));
        }
        if given.is_none() {
            return Ok(String::new());
        }
        let d = TableRules::default();
        let rules = TableRules {
            cp: in_range(v, "cp", d.cp, 1, MAX_CP_CAP)?,
            max_level: in_range(v, "max-level", d.max_level, 1, MAX_LEVEL_CAP)?,
            strength_base: in_range(v, "strength-base", d.strength_base, 0, MAX_STRENGTH_BASE)?,
            ..d
        };
        check_rules(&rules).map_err(|e| ToolError::Invalid {
            flag: "--cp".into(),
            message: e.to_string(),
            rule: None,
        })?;
        Ok(setting_text(&rules))
    }

    fn character_sheet(settings: &str, sheet: &str) -> Result<CharacterSheet, String> {
        let rules = if settings.trim().is_empty() {
            TableRules::default()
        } else {
            setting_rules(settings).map_err(|e| e.to_string())?
        };
        let c = Character::from_toml(sheet, &rules).map_err(|e| e.to_string())?;
        Ok(character_sheet(&c, rules.strength_base))
    }
}

/// A number typed on the command line in `min..=max` (`default` when not
/// given), or a refusal naming it.
fn in_range(
    v: &ParamValues,
    flag: &str,
    default: u32,
    min: u32,
    max: u32,
) -> Result<u32, ToolError> {
    let Some(value) = v.int(flag)? else {
        return Ok(default);
    };
    u32::try_from(value)
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| ToolError::OutOfRange {
            flag: format!("--{flag}"),
            min: min.to_string(),
            max: max.to_string(),
            got: value.to_string(),
        })
}

/// How the d20 is rolled, R-SCR-6.
fn method(v: &ParamValues) -> Result<D20Method, ToolError> {
    v.get("d20")
        .unwrap_or("d20")
        .parse::<D20Method>()
        .map_err(|e| ToolError::Invalid {
            flag: "--d20".into(),
            message: format!("--{e}"),
            rule: None,
        })
}

/// The attack named by `--attack`, "Attacks".
fn attack_kind(v: &ParamValues) -> Result<Option<AttackKind>, ToolError> {
    v.get("attack")
        .map(|a| {
            AttackKind::parse(a).ok_or_else(|| ToolError::Invalid {
                flag: "--attack".into(),
                message: format!("--attack {a:?}: use one of {}", AttackKind::names()),
                rule: None,
            })
        })
        .transpose()
}

/// The level, difficulty and situational modifier of a roll ("Rolls",
/// "Basic Actions": cover -2, engage +2).
fn inputs(v: &ParamValues) -> Result<(i64, i64, i64, Option<AttackKind>), ToolError> {
    let level = v.int("level")?.unwrap_or(0);
    let difficulty = v.need_int("difficulty")?;
    let kind = attack_kind(v)?;
    let modifier = rolls::situational_modifier(
        v.int("modifier")?.unwrap_or(0),
        v.has("cover"),
        v.has("engaged"),
        kind,
    )
    .map_err(ToolError::refused)?;
    Ok((level, difficulty, modifier, kind))
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

/// `check`: one roll. Scratch RPS, "Rolls" (001_337b5a42e331e513.txt); R-SCR-6.
fn run_check(v: &ParamValues, roller: &mut dyn Roller) -> Result<Report, ToolError> {
    let level = v.int("level")?.unwrap_or(0);
    if v.has("requires") && level < 1 {
        return Err(ToolError::refused(rolls::requires_ability(level)));
    }
    let (level, difficulty, modifier, _) = inputs(v)?;
    let m = method(v)?;
    let c = rolls::check(level, difficulty, modifier, m, roller).map_err(ToolError::refused)?;
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
    let text = format!(
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
    );
    Report::of(&out, text)
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

/// `odds`: the exact chance of a roll and of each damage outcome. Scratch
/// RPS, "Rolls", "Attacks" (001_337b5a42e331e513.txt); R-SCR-6.
fn run_odds(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let (level, difficulty, modifier, attack) = inputs(v)?;
    let m = method(v)?;
    rolls::check_inputs(level, difficulty, modifier).map_err(ToolError::refused)?;
    let chart = v.has("chart").then(|| Chart {
        title: format!("Scratch RPS: ability level {level}, modifier {modifier:+}"),
        x_label: "difficulty".into(),
        points: (difficulty.saturating_sub(10)..=difficulty.saturating_add(10))
            .filter(|&d| rolls::check_inputs(level, d, modifier).is_ok())
            .map(|d| (d, rolls::roll_odds(level, d, modifier, m).probability))
            .collect(),
    });
    let o = rolls::roll_odds(level, difficulty, modifier, m);
    let mut damage = Vec::new();
    if let Some(kind) = attack {
        let dist = rolls::damage_distribution(
            kind.profile(v.has("injured")),
            level,
            difficulty,
            modifier,
            m,
        )
        .map_err(|e| ToolError::Invalid {
            flag: "--attack".into(),
            message: e.to_string(),
            rule: None,
        })?;
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
        let _ = write!(s, "\n  {} damage: {}", row.damage, pct(row.probability));
    }
    Ok(Report::of(&out, s)?.with_chart(chart))
}

fn carrying_text(c: &Carrying) -> String {
    format!(
        "strength {}: pack {} kg ({} lbs), carry {} kg ({} lbs), lift {} kg ({} lbs)",
        c.strength, c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
    )
}

/// `carrying`: the carrying table. Scratch RPS, "Defenses"
/// (001_337b5a42e331e513.txt).
fn run_carrying(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let strength = in_range(v, "strength", 0, 0, u32::MAX)?;
    let c = Carrying::for_strength(strength);
    Report::of(&c, carrying_text(&c))
}

/// A character file as the book's character sheet: abilities with levels
/// and notes, the defenses, hit points, carrying, CP spent, the printed
/// numbers checked, and minions. Scratch RPS, "Character Creation",
/// "Defenses", "Toughness" (001_337b5a42e331e513.txt); R-SCR-1, R-SCR-7.
pub fn character_sheet(c: &Character, strength_base: u32) -> CharacterSheet {
    let d = c.defenses(strength_base);
    let mut doc = CharacterSheet::new(c.name(), c.description());
    let mut abilities: Vec<Row> = c
        .levels()
        .iter()
        .map(|(a, l)| {
            let row = Row::new(a.to_string(), l.to_string());
            match c.note(a.name()) {
                Some(n) => row.detail(n),
                None => row,
            }
        })
        .collect();
    abilities.extend(
        c.other_abilities()
            .iter()
            .map(|(a, l)| Row::new(a.clone(), l.to_string()).detail("no rules in the book")),
    );
    doc.push(
        Section::new("Abilities")
            .with(Item::list("Abilities (level)", abilities))
            .with(Item::value(
                "Character points",
                format!("{} of {} spent", c.cp_spent(), c.cp()),
            ))
            .with(Item::value("Maximum level", c.max_level()))
            .with(Item::value("id", c.id())),
    );
    let mut defenses = Section::new("Defenses")
        .with(Item::value("Agility", d.agility))
        .with(Item::value("Intelligence", d.intelligence))
        .with(Item::value("Strength", d.strength))
        .with(Item::value("Stamina", d.stamina))
        .with(Item::value("Hit points", d.max_hit_points))
        .with(Item::value(
            "Carrying",
            carrying_text(&Carrying::for_strength(d.strength)),
        ));
    if d.max_hit_points == 0 {
        defenses.push(Item::note(
            "no toughness: cannot perform actions during encounters (\"Toughness\")",
        ));
    }
    for p in c.printed_checks(strength_base) {
        defenses.push(Item::note(if p.why.is_empty() {
            format!("printed {} {}: matches", p.defense, p.printed)
        } else {
            format!(
                "printed {} {}, computed {}: {}",
                p.defense, p.printed, p.computed, p.why
            )
        }));
    }
    doc.push(defenses);
    for m in c.minions() {
        let ms = character_sheet(m, strength_base);
        let mut s = Section::new(format!("Minion: {}", ms.name));
        for sec in ms.sections {
            s.items.extend(sec.items);
        }
        doc.push(s);
    }
    doc
}
