//! Between sessions: the Experience table rule and the storyteller's care of
//! a saved sheet, as advancement commands.
//!
//! Sour Grapes, "Experience", "Stat Mechanics", "Effects"
//! (000_05a1db5b88f54528.txt). The book has no experience of its own: "you
//! can create table rules around experience. Every 'Level' could be a point
//! to modify a stat or skill of their choice. Smaller bonuses could be
//! modifying the requirements of an action card to cost less or deal more
//! damage. At the end of Chapter moments hand out enough of these points".
//!
//! Each command is the table's own command ([`crate::command::Command`]) given
//! at a table of one: the sheet's character, between moments, with the
//! Experience rule on and the book's cards. So the rules, the refusals and
//! their citations are exactly the table's; `as NAME` may be left out.

use std::collections::BTreeMap;

use tabula_core::system::{CommandDoc, Giver, find_command};
use tabula_core::{AdvanceError, Advanced, Roller, Seat, System, grammar};

use crate::cards::{CardType, book_cards, same_key};

use crate::builder::{file_problems, sheet_toml};
use crate::character::{Character, EffectEntry};
use crate::command::Command;
use crate::rules;
use crate::state::{ActiveEffect, Moment, Participant, Pool, State, TableOptions};
use crate::{SourGrapes, text};

pub mod lasting;

/// The advancement commands, for `help` and the reference. The storyteller
/// awards points, heals, calls a rest and cures; a player spends their
/// character's points.
pub const ADVANCEMENT: &[CommandDoc] = &[
    CommandDoc::new(
        "award",
        &[],
        "award POINTS",
        "Experience: hand out points at the end of a chapter, enough to prepare for the next (1 to 100 at a time, 1,000 held at most)",
        Giver::Gm,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "raise",
        &[],
        "raise STAT|SKILL",
        "Experience: one point raises a stat by one (Actual and Current, up to 10) or a skill by one (up to 5, masterclass); a new skill starts at 1",
        Giver::Player,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "improve",
        &[],
        "improve CARD easier|damage",
        "Experience: one point makes an action card need one success less, or deal one more damage (at most 5 each per card)",
        Giver::Player,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "heal",
        &[],
        "heal STAT",
        "remove the Injury marker from a stat (\"it is up to the story teller to determine what needs to happen to remove an injury\")",
        Giver::Gm,
        rules::STAT_MECHANICS,
    ),
    CommandDoc::new(
        "rest",
        &[],
        "rest",
        "a rest away from the activity: exhausted stats that are not injured, and skill tokens, recover",
        Giver::Gm,
        rules::STAT_MECHANICS,
    ),
    CommandDoc::new(
        "cure",
        &[],
        "cure EFFECT",
        "take an effect out of play once \"a specific action has occurred\"",
        Giver::Gm,
        rules::EFFECTS,
    ),
];

/// A table of one: `character` played by `seat` (the storyteller's seat
/// plays it as a monster would be), between moments, the Experience rule on,
/// the book's cards and the sheet's effects in play.
fn table_of_one(mut character: Character, seat: &Seat) -> (State, Vec<EffectEntry>) {
    let entries = character.take_effects();
    let mut cards = book_cards();
    for e in &entries {
        if !cards.iter().any(|c| same_key(&c.name, &e.card)) {
            cards.push(e.card_or_named());
        }
    }
    let effects = entries
        .iter()
        .filter_map(|e| {
            let c = cards.iter().find(|c| same_key(&c.name, &e.card))?;
            Some(ActiveEffect {
                card: c.name.clone(),
                tokens: e
                    .tokens
                    .and_then(|t| u32::try_from(t).ok())
                    .unwrap_or_else(|| c.effect.map_or(0, |s| s.tokens)),
            })
        })
        .collect();
    let hand = cards
        .iter()
        .filter(|c| c.kind != CardType::Effect)
        .map(|c| c.name.clone())
        .collect();
    let state = State {
        title: String::new(),
        options: TableOptions {
            initiative_d20: true,
            experience: true,
        },
        cards,
        participants: vec![Participant {
            character,
            seat: if seat.is_gm() { Seat::Gm } else { seat.clone() },
            cards: hand,
            effects,
            comparable: BTreeMap::new(),
        }],
        moment: Moment::Free,
        over: false,
        rounds: 0,
        left: Vec::new(),
        added: Vec::new(),
    };
    (state, entries)
}

/// What one command did, in the book's words, with the numbers.
fn summary(before: &Character, after: &Character, cmd: &Command) -> String {
    let xp = |c: &Character| c.experience();
    match cmd {
        Command::Award { points, .. } => format!(
            "{} is awarded {points} experience point(s): {} -> {}",
            after.name(),
            xp(before),
            xp(after)
        ),
        Command::Raise {
            what: Pool::Stat(s),
            ..
        } => format!(
            "{s} {} -> {} for 1 experience point ({} left)",
            before.stat(*s).actual,
            after.stat(*s).actual,
            xp(after)
        ),
        Command::Raise {
            what: Pool::Skill(k),
            ..
        } => format!(
            "{k} {} -> {} for 1 experience point ({} left)",
            before.skill(k).map_or(0, |s| s.rating),
            after.skill(k).map_or(0, |s| s.rating),
            xp(after)
        ),
        Command::Improve { card, damage, .. } => {
            let (b, a) = (before.card_bonus(card), after.card_bonus(card));
            if *damage {
                format!(
                    "{card} deals {} more damage (was {}) for 1 experience point ({} left)",
                    a.damage,
                    b.damage,
                    xp(after)
                )
            } else {
                format!(
                    "{card} needs {} success(es) less (was {}) for 1 experience point ({} left)",
                    a.easier,
                    b.easier,
                    xp(after)
                )
            }
        }
        Command::Heal { stat, .. } => format!(
            "{}'s {stat} injury is healed (Current {}, Actual {})",
            after.name(),
            after.stat(*stat).current,
            after.stat(*stat).actual
        ),
        Command::Rest => {
            let back: Vec<String> = crate::stats::Stat::ALL
                .into_iter()
                .filter(|s| after.stat(*s).current != before.stat(*s).current)
                .map(|s| {
                    format!(
                        "{s} {} -> {}",
                        before.stat(s).current,
                        after.stat(s).current
                    )
                })
                .collect();
            format!(
                "{} rests: {}; skill tokens recover",
                after.name(),
                if back.is_empty() {
                    "no stat was exhausted or could recover".to_string()
                } else {
                    back.join(", ")
                }
            )
        }
        Command::Cure { effect, .. } => format!("{}'s {effect} leaves play", after.name()),
        _ => String::new(),
    }
}

/// Give one advancement command from `seat` to a saved sheet: the table's
/// own command at a table of one (see the [module documentation](self)).
///
/// # Errors
/// [`AdvanceError::Sheet`] for a sheet that does not validate;
/// [`AdvanceError::Parse`] for a line that is no advancement command or names
/// no stat, skill, card or effect of the sheet; [`AdvanceError::Refused`] with
/// the table's rule (a player's `award`, no experience points, a stat already
/// 10, a stat that is not injured ...). Nothing changes.
pub fn advance(
    sheet: &str,
    seat: &Seat,
    line: &str,
    roller: &mut dyn Roller,
) -> Result<Advanced, AdvanceError> {
    let character = Character::from_toml(sheet).map_err(|e| AdvanceError::Sheet {
        problems: file_problems(e),
    })?;
    let parse = |message: String| AdvanceError::parse(message, ADVANCEMENT);
    let words = grammar::words(line).map_err(|e| parse(e.to_string()))?;
    let Some(first) = words.first() else {
        return Err(parse("give an advancement command".into()));
    };
    let Some(doc) = find_command(ADVANCEMENT, first) else {
        return Err(parse(format!(
            "{first:?} is not an advancement command ({})",
            ADVANCEMENT
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let named = words.iter().skip(1).any(|w| {
        w.eq_ignore_ascii_case("as")
            || w.split_once('=')
                .is_some_and(|(k, _)| k.eq_ignore_ascii_case("as"))
    });
    // The acting character is named only where the table's usage has `as
    // NAME` (`rest` names none: the line is read against its usage).
    let takes_as = find_command(text::COMMANDS, first).is_some_and(|d| d.usage.contains("as NAME"));
    let line = if named || !takes_as {
        line.to_string()
    } else {
        format!("{line} as {}", grammar::quote(character.name()))
    };
    let (state, entries) = table_of_one(character, seat);
    let cmd = text::parse::parse(&state, seat, &line).map_err(|e| AdvanceError::Parse {
        message: e.to_string(),
        usage: doc.usage.to_string(),
    })?;
    let events =
        SourGrapes::decide(&state, seat, &cmd, roller).map_err(|e| AdvanceError::Refused {
            rule: e.rule,
            message: e.message,
        })?;
    let mut after = state.clone();
    for e in &events {
        SourGrapes::evolve(&mut after, e);
    }
    let (Some(was), Some(now)) = (state.participants.first(), after.participants.first()) else {
        return Err(parse("the sheet has no character".into()));
    };
    // The sheet's effects as written, less those the command took out of play.
    let mut out = now.character.to_draft();
    out.effects = entries
        .into_iter()
        .filter(|e| now.effects.iter().any(|x| same_key(&x.card, &e.card)))
        .collect();
    let text = sheet_toml(&out);
    Character::from_toml(&text).map_err(|e| AdvanceError::Sheet {
        problems: file_problems(e),
    })?;
    Ok(Advanced {
        summary: summary(&was.character, &now.character, &cmd),
        sheet: text,
    })
}
