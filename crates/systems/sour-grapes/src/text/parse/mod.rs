//! Command lines: every command of the table once ([`COMMANDS`]), and reading a
//! line into a [`Command`] with every name resolved ([`parse`]).
//!
//! The line follows the one command grammar of `tabula-core`
//! ([`tabula_core::grammar`], `docs/COMMANDS.md`) and is read by
//! [`tabula_core::usage::read`] against its command's usage in [`COMMANDS`]
//! (the line `help` prints): words separated by spaces, `"double quotes"`
//! group a name with spaces (`target "Tavern Brute" success 3`), `_` still
//! stands for a space. A value written `NAME...` in the usage may be a name
//! left unquoted across several words (`stunt Sand Strike`). Keywords
//! introduce the rest of a command: `as NAME` (the character acting), `with
//! SKILL`, `vs DIFFICULTY`, `success DICE [TOKENS]`, `result DICE [TOKENS]`,
//! `to TARGET`; each may also be written `KEY=VALUE` (`as="Tavern Brute"`).
//!
//! What this module adds to the reading: names of characters, Stats, Skills,
//! cards and effects match without regard to case and by unambiguous prefix
//! ([`tabula_core::names::resolve`]); an unknown or ambiguous name is refused
//! with the names that fit there. Cards also match by their key
//! (`sand-strike`, [`crate::cards::key`]). Numbers are whole numbers 0 or
//! more; a name is told from the numbers after it, targets are split at
//! commas (`args`, `names`). [`parse_with`] builds each moment's commands in
//! its own function.

use tabula_core::usage::{self, Reading};
use tabula_core::{CommandParseError, Seat};

use super::reference::COMMANDS;
use crate::cards::CardType;
use crate::command::Command;
use crate::state::{Pool, State};
use crate::stats::Stat;

mod args;
mod names;

use args::{bets, name_and_numbers, num, opt_num, spell_out_keys, text};
use names::Names;

/// Read one command line (without the seat prefix) given by `seat` at the table
/// `state`: the line by [`tabula_core::usage::read`] against the usage of its
/// command in [`COMMANDS`] (name or alias, any case), every name resolved to
/// the name the table writes (see the [module documentation](self)). The
/// steps and who gives what are in [`crate::table`].
///
/// # Errors
/// [`CommandParseError::Grammar`] for an unclosed quote;
/// [`CommandParseError::Unknown`] listing the commands;
/// [`CommandParseError::Arguments`] naming the argument, with the usage from
/// [`COMMANDS`]; [`CommandParseError::Name`] for a name that fits nothing or
/// several things there, listing them; [`CommandParseError::Sheet`] for
/// `add FILE.toml` (no sheet file comes with this line: [`parse_with`]).
pub fn parse(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    parse_with(state, seat, line, &tabula_core::files::NoSheets)
}

/// [`parse`] with the character sheet files sent along with the line: the
/// storyteller's `add FILE.toml [as NAME] [to SEAT]` reads its sheet from
/// `sheets` ([`crate::gm::read_upload`]; GM tools, issue 27, item 6).
///
/// # Errors
/// As [`parse`]; [`CommandParseError::Sheet`] when the named file was not
/// sent or is not a legal character of this book, listing every broken rule.
pub fn parse_with(
    state: &State,
    seat: &Seat,
    line: &str,
    sheets: &dyn tabula_core::files::SheetFiles,
) -> Result<Command, CommandParseError> {
    // `target success 3` names no targets: the reader keeps `success` the
    // usage's word rather than a target's name (`tabula_core::usage`).
    let line = spell_out_keys(line)?;
    let r = usage::read(COMMANDS, &line)?;
    let n = Names { s: state, seat };
    // `add`'s `as NAME` is the newcomer's name, not a character of the table.
    if r.command.name == "add" {
        return crate::gm::parse_add(state, &r, sheets);
    }
    let who = if r.has("as") {
        Some(n.acting(r.require("NAME")?)?)
    } else {
        None
    };
    let actor = n.actor(who.as_deref());
    let l = Line {
        r: &r,
        n,
        who,
        actor,
    };
    if let Some(cmd) = read_moment(&l)? {
        return Ok(cmd);
    }
    if let Some(cmd) = read_turn_step(&l)? {
        return Ok(cmd);
    }
    read_tool(&l)
}

/// A line being read: its reading, the names it resolves
/// against, the character it names with `as NAME` (`who`) or acts for
/// without it (`actor`).
struct Line<'a> {
    r: &'a Reading<'a>,
    n: Names<'a>,
    who: Option<String>,
    actor: Option<String>,
}

impl Line<'_> {
    /// The character named with `as NAME`, which the usage requires here.
    fn need_who(&self) -> Result<String, CommandParseError> {
        self.who
            .clone()
            .ok_or_else(|| self.r.problem("NAME is missing"))
    }

    /// The stat `STAT` of the line.
    fn stat(&self) -> Result<Stat, CommandParseError> {
        self.n.stat(self.r.require("STAT")?)
    }

    /// The stat or skill of `STAT|SKILL...`, as typed.
    fn stat_or_skill(&self) -> Option<&str> {
        text(self.r, "STAT").or_else(|| text(self.r, "SKILL"))
    }
}

/// The moments outside a turn: Spend, Check, the storyteller's give-back,
/// heal, rest and rejecting a card, the Situation, declaring an Event and
/// initiative; `None` for another command.
/// Sour Grapes, "Spend", "Check", "Situation", "Event" (000_05a1db5b88f54528.txt).
fn read_moment(l: &Line<'_>) -> Result<Option<Command>, CommandParseError> {
    let Line {
        r, n, who, actor, ..
    } = l;
    let cmd = match r.command.name {
        "spend" => Command::Spend {
            who: who.clone(),
            stat: l.stat()?,
        },
        "check" => Command::Check {
            who: who.clone(),
            stat: l.stat()?,
            dice: num(r, "DICE", r.get("DICE"))?,
            tokens: opt_num(r, "TOKENS", r.get("TOKENS"))?,
            skill: text(r, "SKILL")
                .map(|k| n.skill(actor.as_deref(), k))
                .transpose()?,
            difficulty: num(r, "DIFFICULTY", r.get("DIFFICULTY"))?,
        },
        "giveback" => {
            let who = l.need_who()?;
            let (typed, nums) = name_and_numbers(l.stat_or_skill(), [r.get("POINTS")]);
            let points = match nums.first() {
                None => 1,
                some => num(r, "POINTS", some.copied())?,
            };
            match n.pool(Some(&who), &typed, false)? {
                Pool::Stat(stat) => Command::GiveBack { who, stat, points },
                Pool::Skill(skill) => Command::TokensBack { who, skill, points },
            }
        }
        "reject" => Command::Reject { who: l.need_who()? },
        "heal" => Command::Heal {
            who: l.need_who()?,
            stat: l.stat()?,
        },
        "rest" => Command::Rest,
        "situation" => {
            let who = l.need_who()?;
            Command::Situation {
                difficulty: num(r, "DIFFICULTY", r.get("DIFFICULTY"))?,
                stat: l.stat()?,
                skill: text(r, "SKILL")
                    .map(|k| n.skill(Some(&who), k))
                    .transpose()?,
                who,
            }
        }
        "difficulty" => Command::Difficulty {
            value: num(r, "DIFFICULTY", r.get("DIFFICULTY"))?,
        },
        "final" => Command::Final {
            dice: num(r, "DICE", r.get("DICE"))?,
            tokens: opt_num(r, "TOKENS", r.get("TOKENS"))?,
        },
        "event" => Command::StartEvent,
        "initiative" => Command::Initiative {
            who: who.clone(),
            stat: l.stat()?,
            dice: num(r, "DICE", r.get("DICE"))?,
        },
        _ => return Ok(None),
    };
    Ok(Some(cmd))
}

/// The card or effect `slot` of the line and the bet after it (`CARD...
/// DICE [TOKENS]`), the name told from the numbers ([`name_and_numbers`]).
fn named_bet(l: &Line<'_>, slot: &str) -> Result<(String, crate::state::Bet), CommandParseError> {
    let r = l.r;
    let (name, nums) = name_and_numbers(r.get(slot), [r.get("DICE"), r.get("TOKENS")]);
    let bet = crate::state::Bet {
        dice: num(r, "DICE", nums.first().copied())?,
        tokens: opt_num(r, "TOKENS", nums.get(1).copied())?,
    };
    Ok((name, bet))
}

/// The steps of a turn: the free point and effects (Prep), the Stunt, the
/// Interrupt, Targeting & Betting, the Compliment and Divert, the Reaction;
/// `None` for another command.
/// Sour Grapes, "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn read_turn_step(l: &Line<'_>) -> Result<Option<Command>, CommandParseError> {
    let Line {
        r, n, who, actor, ..
    } = l;
    let cmd = match r.command.name {
        "recover" => {
            let typed = l.stat_or_skill().unwrap_or_default();
            Command::Recover {
                into: n.pool(n.controller().as_deref(), typed, false)?,
            }
        }
        "keep" => {
            let (effect, bet) = named_bet(l, "EFFECT")?;
            Command::Keep {
                effect: n.effect(n.controller().as_deref(), &effect)?,
                bet,
            }
        }
        "discard" => Command::Discard {
            effect: n.effect(n.controller().as_deref(), r.require("EFFECT")?)?,
        },
        "stunt" => Command::Stunt {
            card: n.card(
                n.controller().as_deref(),
                Some(CardType::Stunt),
                r.require("CARD")?,
            )?,
        },
        "end" => Command::EndTurn,
        "interrupt" => {
            let (card, bet) = named_bet(l, "CARD")?;
            Command::Interrupt {
                who: who.clone(),
                card: n.card(actor.as_deref(), Some(CardType::Interrupt), &card)?,
                bet,
            }
        }
        "react" => {
            let (card, bet) = named_bet(l, "CARD")?;
            Command::React {
                who: who.clone(),
                card: n.card(actor.as_deref(), Some(CardType::Reaction), &card)?,
                bet,
            }
        }
        "pass" => Command::Pass,
        "target" => {
            let (success, result) = bets(r)?;
            let targets = match r.get("TARGETS") {
                Some(_) => n.targets(r.parts("TARGETS").unwrap_or_default())?,
                None => Vec::new(),
            };
            Command::Target {
                targets,
                success,
                result,
            }
        }
        "compliment" => {
            let (success, result) = bets(r)?;
            Command::Compliment {
                who: who.clone(),
                card: n.card(
                    actor.as_deref(),
                    Some(CardType::Compliment),
                    r.require("CARD")?,
                )?,
                success,
                result,
            }
        }
        "divert" => {
            let (success, _) = bets(r)?;
            Command::Divert {
                who: who.clone(),
                card: n.card(actor.as_deref(), Some(CardType::Divert), r.require("CARD")?)?,
                success,
                to: n.character(r.require("TARGET")?)?,
            }
        }
        "take" => Command::Take { who: who.clone() },
        _ => return Ok(None),
    };
    Ok(Some(cmd))
}

/// Effects put on and taken off, ending the Event or the encounter, the
/// Experience rule and the storyteller's `adjust` and `remove`; an unknown
/// command otherwise.
/// Sour Grapes, "Effects", "Experience" (000_05a1db5b88f54528.txt); GM tools
/// (issue 27, item 6).
fn read_tool(l: &Line<'_>) -> Result<Command, CommandParseError> {
    let Line {
        r, n, who, actor, ..
    } = l;
    let cmd = match r.command.name {
        "afflict" => {
            let who = l.need_who()?;
            Command::Afflict {
                card: n.effect(None, r.require("EFFECT")?)?,
                who,
            }
        }
        "cure" => {
            let who = l.need_who()?;
            Command::Cure {
                effect: n.effect(Some(&who), r.require("EFFECT")?)?,
                who,
            }
        }
        "improve" => Command::Improve {
            who: who.clone(),
            card: n.card(actor.as_deref(), None, r.require("CARD")?)?,
            damage: r.has("damage"),
        },
        "end-event" => Command::EndEvent,
        "end-encounter" => Command::EndEncounter,
        "adjust" => {
            let typed = r.require("AMOUNT")?;
            Command::Adjust {
                who: n.character(r.require("NAME")?)?,
                stat: l.stat()?,
                amount: crate::gm::Amount::parse(typed).ok_or_else(|| {
                    r.problem(format!(
                        "the AMOUNT must be N, +N or -N (whole numbers), not {typed:?}"
                    ))
                })?,
            }
        }
        "remove" => Command::Remove {
            who: n.character(r.require("NAME")?)?,
        },
        "award" => Command::Award {
            who: l.need_who()?,
            points: num(r, "POINTS", r.get("POINTS"))?,
        },
        "raise" => Command::Raise {
            what: n.pool(
                actor.as_deref(),
                l.stat_or_skill().unwrap_or_default(),
                true,
            )?,
            who: who.clone(),
        },
        other => return Err(CommandParseError::unknown_command(other, COMMANDS)),
    };
    Ok(cmd)
}
