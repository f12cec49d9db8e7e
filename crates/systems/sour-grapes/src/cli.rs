//! Sour Grapes outside the table (000_05a1db5b88f54528.txt): the `check` and
//! `odds` tools with their parameters, the book's action cards as a reference
//! printout, and the character sheet of a character file. The command line
//! builds `tabula sour-grapes check|odds|cards|character show` from these.

use std::fmt::Write as _;

use serde::Serialize;
use tabula_core::Roller;
use tabula_core::rule::RuleError;
use tabula_core::sheet::{CharacterSheet, Item, Row, Section};
use tabula_core::tool::{
    BookTools, Chart, ParamValues, Report, Rolled, Tool, ToolError, ToolParam, percent as pct,
};

use crate::SourGrapes;
use crate::cards::{ActionCard, book_cards};
use crate::character::Character;
use crate::check::{self, CheckSpec};
use crate::stats::Stat;

impl BookTools for SourGrapes {
    fn tools() -> Vec<Tool> {
        let dice = |help| ToolParam::int("dice", help, 0, i64::from(check::MAX_DICE)).required();
        let tokens =
            |help| ToolParam::int("tokens", help, 0, i64::from(check::MAX_TOKENS)).default("0");
        let difficulty = |help| {
            ToolParam::int("difficulty", help, 0, i64::from(check::MAX_DIFFICULTY)).required()
        };
        vec![
            Tool::new(
                "check",
                "A single Check: dice up to the stat, tokens from a skill; success when the \
                 successes are more than the difficulty (R-SG-1).",
                run_check,
            )
            .param(dice("Dice to roll (d6; each 1 exhausts the stat by one)."))
            .param(tokens("Skill tokens (each an automatic success)."))
            .param(difficulty("The Difficulty threshold."))
            .param(ToolParam::int(
                "stat",
                "The Current Stat Value: dice may not exceed it.",
                0,
                i64::from(check::MAX_DICE),
            ))
            .rolls(Rolled {
                help: "The dice you rolled yourself, e.g. 6,2,1,1,5.",
                normalize: None,
            }),
            Tool::new(
                "odds",
                "The exact chance a Check succeeds, for every dice count 0..=stat, with the \
                 expected exhaustion and the fewest dice reaching --target (R-SG-1).",
                run_odds,
            )
            .param(dice("Dice asked about."))
            .param(tokens("Skill tokens."))
            .param(difficulty("The Difficulty."))
            .param(ToolParam::int(
                "stat",
                "The Current Stat Value (the table runs 0..=stat; default: --dice).",
                0,
                i64::from(check::MAX_DICE),
            ))
            .param(
                ToolParam::real(
                    "target",
                    "The chance to reach while exhausting least (0 to 1).",
                    0.0,
                    1.0,
                )
                .default("0.75"),
            )
            .param(
                ToolParam::text(
                    "rolled",
                    "Accepted for symmetry with `check`; odds roll nothing.",
                )
                .hidden(),
            )
            .param(
                ToolParam::text(
                    "seed",
                    "Accepted for symmetry with `check`; odds roll nothing.",
                )
                .hidden(),
            )
            .charts(),
            Tool::new(
                "cards",
                "The book's seven action cards (fields A-F), \"Cards\".",
                run_cards,
            ),
        ]
    }

    fn character_sheet(_settings: &str, sheet: &str) -> Result<CharacterSheet, String> {
        Character::from_toml(sheet)
            .map(|c| character_sheet(&c))
            .map_err(|e| e.to_string())
    }
}

/// The numbers of a Check as typed (negative ones reach us, so the refusal
/// names the parameter and its range), read into a [`CheckSpec`].
/// Sour Grapes, "Check" (000_05a1db5b88f54528.txt); R-SG-1.
///
/// # Errors
/// Bad input naming the parameter: "--dice must be between 0 and 100, not -4".
fn spec_of(v: &ParamValues, stat_default: bool) -> Result<CheckSpec, ToolError> {
    let read = |name: &str, max: u32| -> Result<Option<u32>, ToolError> {
        v.int(name)?
            .map(|n| {
                u32::try_from(n).ok().filter(|n| *n <= max).ok_or_else(|| {
                    ToolError::refused(RuleError::out_of_range(
                        check::RULE,
                        &format!("--{name}"),
                        0,
                        i64::from(max),
                        n,
                    ))
                })
            })
            .transpose()
    };
    let dice = read("dice", check::MAX_DICE)?.unwrap_or(0);
    let stat = read("stat", check::MAX_DICE)?;
    Ok(CheckSpec {
        dice,
        tokens: read("tokens", check::MAX_TOKENS)?.unwrap_or(0),
        difficulty: read("difficulty", check::MAX_DIFFICULTY)?.unwrap_or(0),
        stat: if stat_default {
            Some(stat.unwrap_or(dice))
        } else {
            stat
        },
    })
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

/// `check`: one Check. Sour Grapes, "Check" (000_05a1db5b88f54528.txt); R-SG-1.
fn run_check(v: &ParamValues, roller: &mut dyn Roller) -> Result<Report, ToolError> {
    let spec = spec_of(v, false)?;
    let out = check::check(spec, roller).map_err(ToolError::refused)?;
    let json = CheckJson {
        success: out.success,
        successes: out.successes,
        exhausted: out.exhausted,
        dice: &out.roll.dice,
        tokens: out.roll.tokens,
        difficulty: out.difficulty,
        ones: out.roll.ones,
    };
    let text = format!(
        "{} -> {} successes against difficulty {}: {} (needs more than {}, R-SG-1); the stat is exhausted by {}",
        out.roll.shown(),
        out.successes,
        out.difficulty,
        if out.success { "SUCCESS" } else { "FAILED" },
        spec.difficulty,
        out.exhausted
    );
    Report::of(&json, text)
}

/// `odds`: the exact chance of a Check per dice count. Sour Grapes, "Check",
/// "Stat Mechanics" (000_05a1db5b88f54528.txt); R-SG-1.
fn run_odds(v: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let target = v.real("target")?.unwrap_or(0.75);
    if !(0.0..=1.0).contains(&target) {
        return Err(ToolError::OutOfRange {
            flag: "--target".into(),
            min: "0".into(),
            max: "1".into(),
            got: target.to_string(),
        });
    }
    let spec = spec_of(v, true)?;
    let (dice, tokens, difficulty) = (spec.dice, spec.tokens, spec.difficulty);
    let o = check::odds(spec, target).map_err(ToolError::refused)?;
    let chart = v.has("chart").then(|| Chart {
        title: format!("Sour Grapes: Difficulty {difficulty}, Skill tokens {tokens}"),
        x_label: "dice risked".into(),
        points: o
            .choices
            .iter()
            .map(|c| (i64::from(c.dice), c.probability))
            .collect(),
    });
    let mut s = format!(
        "{dice} dice + {tokens} tokens against difficulty {difficulty}: {}, expected exhaustion {:.2}\n",
        pct(o.probability),
        o.expected_exhaustion
    );
    s.push_str(" dice  chance   expected exhaustion\n");
    for c in &o.choices {
        let _ = writeln!(
            s,
            " {:>4}  {:>6}  {:.2}",
            c.dice,
            pct(c.probability),
            c.expected_exhaustion
        );
    }
    match o.best_dice {
        Some(n) => {
            let _ = write!(
                s,
                "fewest dice for at least {}: {n} (expected exhaustion {:.2})",
                pct(target),
                f64::from(n) / 6.0
            );
        }
        None => {
            let _ = write!(s, "no number of dice reaches {}", pct(target));
        }
    }
    Ok(Report::of(&o, s)?.with_chart(chart))
}

/// `cards`: the book's seven action cards. Sour Grapes, "Cards"
/// (000_05a1db5b88f54528.txt).
fn run_cards(_: &ParamValues, _: &mut dyn Roller) -> Result<Report, ToolError> {
    let cards: Vec<ActionCard> = book_cards();
    let text = cards
        .iter()
        .map(ActionCard::printed)
        .collect::<Vec<_>>()
        .join("\n");
    Report::of(&cards, text)
}

/// A character file as the book's character sheet: concept, the six Stats
/// with Actual and Current, conditions, Skills with rating and tokens,
/// experience. Sour Grapes, "Stats", "Skills", "Experience"
/// (000_05a1db5b88f54528.txt); R-SG-13.
pub fn character_sheet(c: &Character) -> CharacterSheet {
    let subtitle = if c.is_monster() { "monster" } else { "" };
    let mut doc = CharacterSheet::new(c.name(), subtitle);
    if !c.concept().is_empty() {
        doc.push(Section::new("Concept").with(Item::note(c.concept())));
    }
    let mut stats = Section::new("Stats (Actual in pen, Current in pencil)");
    for st in Stat::ALL {
        let v = c.stat(st);
        let mut note = st.abbreviation().to_string();
        if v.injured {
            note.push_str(", injured");
        }
        stats.push(Item::Track {
            label: st.name().to_string(),
            current: i64::from(v.current),
            max: i64::from(v.actual),
            note,
        });
    }
    stats.push(Item::tags(
        "Conditions",
        c.conditions()
            .iter()
            .map(|k| format!("{k} ({})", k.effect())),
    ));
    doc.push(stats);
    let skills: Vec<Row> = c
        .skills()
        .iter()
        .map(|k| {
            let row = Row::new(k.name.clone(), format!("{}/{}", k.available, k.rating));
            if k.notes.is_empty() {
                row
            } else {
                row.detail(k.notes.clone())
            }
        })
        .collect();
    doc.push(
        Section::new("Skills")
            .with(Item::list("Skills (tokens available / rating)", skills))
            .with(Item::value("Experience", c.experience())),
    );
    if let Some(cards) = c.cards() {
        doc.push(Section::new("Cards").with(Item::tags("Action cards", cards.iter().cloned())));
    }
    doc
}
