//! The Sapio System outside the table (004_f39b4146df158cae.txt): the `check`
//! and `odds` tools with their parameters, and the character sheet of a
//! character file. The command line builds `tabula sapio ...` from these.

use std::fmt::Write as _;

use tabula_core::Roller;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section};
use tabula_core::tool::{
    BookTools, Chart, ParamValues, Report, Rolled, Tool, ToolError, ToolParam, percent as pct,
};

use crate::Sapio;
use crate::character::{self, Character};
use crate::checks::{self, PoolSpec};
use crate::odds;
use crate::spiral_dice::normalize_face;

fn pool_params(tool: Tool, tn_help: &'static str, penalty_help: &'static str) -> Tool {
    tool.param(
        ToolParam::int(
            "pool",
            "Dice built from the steps before bonus dice (1 to 6).",
            1,
            6,
        )
        .required(),
    )
    .param(ToolParam::int("tn", tn_help, 0, 5).required())
    .param(
        ToolParam::int(
            "bonus",
            "Bonus dice (Special Talents, help, Luck, Principle / Worst Impulse).",
            0,
            i64::from(u32::MAX),
        )
        .default("0"),
    )
    .param(ToolParam::int("penalty", penalty_help, 0, 2).default("0"))
}

impl BookTools for Sapio {
    fn tools() -> Vec<Tool> {
        vec![
            pool_params(
                Tool::new(
                    "check",
                    "Roll a check: N Spiral Dice built already, bonus dice (past six they lower \
                     the TN, R-SA-2), against TN T; Improbable Success is taken (R-SA-3).",
                    run_check,
                ),
                "The GM's TN (1 to 5; 0 for a roll only for Spares and Spirals).",
                "The largest applicable Injury/Stress penalty (0, 1 Moderate, 2 Severe; R-SA-7).",
            )
            .rolls(Rolled {
                help: "The faces you rolled, e.g. `H,HH,S,blank` (labels @ S SS HS H HH HH@ H@ \
                       blank, or 1 to 12; also `*` for Hit, `Y` for Spare).",
                normalize: Some(normalize_face),
            }),
            pool_params(
                Tool::new(
                    "odds",
                    "The exact chance a check succeeds (Improbable Success included), with the \
                     distribution of extra Hits and of net Spares / Spirals (R-SA-2, R-SA-3).",
                    run_odds,
                ),
                "The GM's TN (1 to 5).",
                "The largest applicable Injury/Stress penalty (0, 1, 2; R-SA-7).",
            )
            .charts(),
        ]
    }

    fn character_sheet(_settings: &str, sheet: &str) -> Result<CharacterSheet, String> {
        character::parse_character(sheet)
            .map(|c| character_sheet(&c))
            .map_err(|e| e.to_string())
    }
}

/// The pool as typed: counts, 0 or more (the book's ranges are checked by
/// [`checks::check`] and [`odds::odds`], naming the rule).
fn spec(v: &ParamValues, built: Option<u32>) -> Result<PoolSpec, ToolError> {
    let pool = v.count("pool")?.unwrap_or(0);
    Ok(PoolSpec {
        built: built.unwrap_or(pool),
        bonus: v.count("bonus")?.unwrap_or(0),
        tn: v.count("tn")?.unwrap_or(0),
        penalty: v.count("penalty")?.unwrap_or(0),
        ..PoolSpec::default()
    })
}

/// `check`: one roll of Spiral Dice. The Sapio System, "Rolling Dice",
/// "Improbable Success" (004_f39b4146df158cae.txt); R-SA-2, R-SA-3, R-SA-7.
fn run_check(v: &ParamValues, roller: &mut dyn Roller) -> Result<Report, ToolError> {
    let spec = spec(v, None)?;
    let report = checks::check(&spec, roller).map_err(|e| ToolError::invalid("--pool", e))?;
    let mut s = report.roll.describe();
    for p in &report.prompts {
        let _ = write!(s, "\n  - {p}");
    }
    Report::of(&report, s)
}

/// `odds`: the exact chance of a check. The Sapio System, "Rolling Dice",
/// "Improbable Success" (004_f39b4146df158cae.txt); R-SA-2, R-SA-3, R-SA-7.
fn run_odds(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let sp = spec(v, None)?;
    let r = odds::odds(&sp).map_err(|e| ToolError::invalid("--pool", e))?;
    let chart = if v.has("chart") {
        let mut points = Vec::new();
        for built in 1..=6u32 {
            let o =
                odds::odds(&spec(v, Some(built))?).map_err(|e| ToolError::invalid("--pool", e))?;
            points.push((i64::from(built), o.probability));
        }
        Some(Chart {
            title: format!(
                "The Sapio System: against TN {}, {} bonus dice, penalty {}",
                sp.tn, sp.bonus, sp.penalty
            ),
            x_label: "dice built into the pool".into(),
            points,
        })
    } else {
        None
    };
    let mut s = format!(
        "{} dice vs TN {}: {} (Improbable Success adds {})\nnet Spares {}, net Spirals {}\nextra Hits on success:",
        r.pool.dice,
        r.pool.tn,
        pct(r.probability),
        pct(r.improbable_part),
        pct(r.p_net_spares),
        pct(r.p_net_spirals)
    );
    for e in &r.extra_hits {
        let _ = write!(s, "\n  +{}: {}", e.extra, pct(e.p));
    }
    Ok(Report::of(&r, s)?.with_chart(chart))
}

/// A character file as the book's character sheet: Profession and side
/// Professions with Specializations, Qualities, Special Talents, Principle,
/// Worst Impulse, Luck, weapons, Injuries and Stresses, advancements. The
/// Sapio System, "Character Creation", "Harm", "Advancement"
/// (004_f39b4146df158cae.txt); R-SA-9, R-SA-10.
pub fn character_sheet(c: &Character) -> CharacterSheet {
    let s = c.sheet();
    let mut doc = CharacterSheet::new(c.name(), "");
    if let Some(p) = c.player() {
        doc.push(Section::new("Player").with(Item::value("Played by", p)));
    }
    let mut professions = vec![
        Row::new(s.profession.name.clone(), "Profession")
            .detail(s.profession.specializations.join(", ")),
    ];
    professions.extend(s.side_professions.iter().map(|side| {
        Row::new(side.name.clone(), "Side Profession").detail(side.specializations.join(", "))
    }));
    doc.push(
        Section::new("Professions").with(Item::list("Professions (Specializations)", professions)),
    );
    doc.push(
        Section::new("Qualities and Talents")
            .with(Item::tags("Qualities", s.qualities.iter().cloned()))
            .with(Item::list(
                "Special Talents",
                s.special_talents
                    .iter()
                    .map(|t| {
                        let mut detail = t.text.clone();
                        if let Some(e) = t.effect {
                            let _ = write!(detail, " ({e})");
                        }
                        Row::new(t.name.clone(), "").detail(detail)
                    })
                    .collect(),
            )),
    );
    doc.push(
        Section::new("Drives")
            .with(Item::value("Principle", &s.principle))
            .with(Item::value("Worst Impulse", &s.worst_impulse))
            .with(Item::value("Luck", s.luck)),
    );
    let mut harm = Section::new("Gear and harm").with(Item::list(
        "Weapons",
        s.weapons
            .iter()
            .map(|w| Row::new(w.name.clone(), w.level.to_string()))
            .collect(),
    ));
    for (label, track) in [("Injuries", &s.injuries), ("Stresses", &s.stresses)] {
        harm.push(Item::list(
            label,
            track
                .entries()
                .iter()
                .map(|(b, n)| Row::new(n.to_string(), b.level.to_string()))
                .collect(),
        ));
    }
    doc.push(harm);
    doc.push(
        Section::new("Advancement")
            .with(Item::value("Advancements taken", s.advancements.len()))
            .with(Item::value("Cycles complete", c.cycle().completed)),
    );
    doc
}
