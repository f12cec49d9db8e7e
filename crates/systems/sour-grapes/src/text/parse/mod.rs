//! Command lines: every command of the table once ([`COMMANDS`]), and reading a
//! line into a [`Command`] with every name resolved ([`parse`]).
//!
//! The line follows the one command grammar of `tabula-core`
//! ([`tabula_core::grammar`], `docs/COMMANDS.md`): words separated by spaces,
//! `"double quotes"` group a name with spaces (`target "Tavern Brute" success
//! 3`), `_` still stands for a space. Names of characters, Stats, Skills, cards
//! and effects match without regard to case and by unambiguous prefix
//! ([`tabula_core::names::resolve`]); an unknown or ambiguous name is refused
//! with the names that fit there. Cards also match by their key (`sand-strike`,
//! [`crate::cards::key`]). A name left unquoted across several words still
//! reads as one name where the command expects one (`stunt Sand Strike`).
//!
//! Keywords introduce the rest of a command: `as NAME` (the character acting),
//! `with SKILL`, `vs DIFFICULTY` (or `difficulty`), `success DICE [TOKENS]`,
//! `result DICE [TOKENS]`, `to NAME`; each may also be written `KEY=VALUE`
//! (`as="Tavern Brute"`).
//!
//! The words of a line are split in `args`, its names resolved in `names`;
//! [`parse_with`] reads each moment's commands in its own function.

use tabula_core::{CommandParseError, Seat};

use super::reference::COMMANDS;
use crate::cards::CardType;
use crate::command::Command;
use crate::state::{Pool, State};
use crate::stats::Stat;

mod args;
mod names;

pub(crate) use args::Args;
use args::split;
use names::Names;

/// Read one command line (without the seat prefix) given by `seat` at the table
/// `state`: the words by the one grammar, the command by [`COMMANDS`] (name or
/// alias, any case), every name resolved to the name the table writes (see the
/// [module documentation](self)). The steps and who gives what are in
/// [`crate::table`].
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
    let a = split(line)?;
    let n = Names { s: state, seat };
    // `add`'s `as NAME` is the newcomer's name, not a character of the table.
    if a.doc.name == "add" {
        return crate::gm::parse_add(state, &a, sheets);
    }
    let who = match a.kw_text("as") {
        Some(w) => Some(n.acting(&w)?),
        None if a.kw("as").is_some() => return Err(a.err("say who after `as`")),
        None => None,
    };
    let actor = n.actor(who.as_deref());
    let (name, nums) = a.name_and_numbers();
    let l = Line {
        a: &a,
        n,
        who,
        actor,
        name,
        nums,
    };
    if let Some(cmd) = read_moment(&l)? {
        return Ok(cmd);
    }
    if let Some(cmd) = read_turn_step(&l)? {
        return Ok(cmd);
    }
    read_tool(&l)
}

/// A line being read: its words, the names it resolves against, the
/// character it names with `as NAME` (`who`) or acts for without it
/// (`actor`), its leading name and the numbers after it.
struct Line<'a> {
    a: &'a Args,
    n: Names<'a>,
    who: Option<String>,
    actor: Option<String>,
    name: String,
    nums: &'a [String],
}

impl Line<'_> {
    /// The character named with `as NAME`, which the command needs: refused
    /// saying `what` without it.
    fn need_who(&self, what: &str) -> Result<String, CommandParseError> {
        self.who.clone().ok_or_else(|| self.a.err(what.to_string()))
    }

    /// The stat named by `typed`; refused when nothing is named.
    fn stat(&self, typed: &str) -> Result<Stat, CommandParseError> {
        if typed.trim().is_empty() {
            Err(self.a.err("name a stat"))
        } else {
            self.n.stat(typed)
        }
    }
}

/// The moments outside a turn: Spend, Check, the storyteller's give-back,
/// heal, rest and rejecting a card, the Situation, declaring an Event and
/// initiative; `None` for another command.
/// Sour Grapes, "Spend", "Check", "Situation", "Event" (000_05a1db5b88f54528.txt).
fn read_moment(l: &Line<'_>) -> Result<Option<Command>, CommandParseError> {
    let Line {
        a,
        n,
        who,
        actor,
        name,
        nums,
    } = l;
    let need_who = |what: &str| l.need_who(what);
    let stat = |typed: &str| l.stat(typed);
    let cmd = match a.doc.name {
        "spend" => Command::Spend {
            who: who.clone(),
            stat: stat(name)?,
        },
        "check" => {
            let difficulty = a
                .kw("vs")
                .or_else(|| a.kw("difficulty"))
                .ok_or_else(|| a.err("the difficulty is missing (vs D)"))?;
            Command::Check {
                who: who.clone(),
                stat: stat(name)?,
                dice: a.num("dice", nums.first())?,
                tokens: a.opt_num("tokens", nums.get(1))?,
                skill: a
                    .kw_text("with")
                    .map(|k| n.skill(actor.as_deref(), &k))
                    .transpose()?,
                difficulty: a.num("difficulty", difficulty.first())?,
            }
        }
        "giveback" => {
            let who = need_who("say who: as NAME")?;
            let points = match nums.first() {
                None => 1,
                some => a.num("points", some)?,
            };
            if name.is_empty() {
                return Err(a.err("name a stat or skill"));
            }
            match n.pool(Some(&who), name, false)? {
                Pool::Stat(stat) => Command::GiveBack { who, stat, points },
                Pool::Skill(skill) => Command::TokensBack { who, skill, points },
            }
        }
        "reject" => Command::Reject {
            who: need_who("say whose card: as NAME")?,
        },
        "heal" => Command::Heal {
            who: need_who("say who: as NAME")?,
            stat: stat(name)?,
        },
        "rest" => Command::Rest,
        "situation" => {
            let who = need_who("say who works it: as NAME")?;
            let stat_words = a
                .positional
                .get(1..)
                .map(|w| w.join(" "))
                .unwrap_or_default();
            Command::Situation {
                difficulty: a.num("difficulty", a.positional.first())?,
                stat: stat(&stat_words)?,
                skill: a
                    .kw_text("with")
                    .map(|k| n.skill(Some(&who), &k))
                    .transpose()?,
                who,
            }
        }
        "difficulty" => Command::Difficulty {
            value: a.num("difficulty", a.positional.first())?,
        },
        "final" => Command::Final {
            dice: a.num("dice", nums.first())?,
            tokens: a.opt_num("tokens", nums.get(1))?,
        },
        "event" => Command::StartEvent,
        "initiative" => Command::Initiative {
            who: who.clone(),
            stat: stat(name)?,
            dice: a.num("dice", nums.first())?,
        },
        _ => return Ok(None),
    };
    Ok(Some(cmd))
}

/// The steps of a turn: the free point and effects (Prep), the Stunt, the
/// Interrupt, Targeting & Betting, the Compliment and Divert, the Reaction;
/// `None` for another command.
/// Sour Grapes, "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn read_turn_step(l: &Line<'_>) -> Result<Option<Command>, CommandParseError> {
    let Line {
        a,
        n,
        who,
        actor,
        name,
        nums,
    } = l;
    let cmd = match a.doc.name {
        "recover" => {
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name a stat or skill"));
            }
            Command::Recover {
                into: n.pool(n.controller().as_deref(), &typed, false)?,
            }
        }
        "keep" => {
            if name.is_empty() {
                return Err(a.err("name the effect"));
            }
            Command::Keep {
                effect: n.effect(n.controller().as_deref(), name)?,
                bet: a.bet_of(nums)?,
            }
        }
        "discard" => {
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name the effect"));
            }
            Command::Discard {
                effect: n.effect(n.controller().as_deref(), &typed)?,
            }
        }
        "stunt" => {
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name the card"));
            }
            Command::Stunt {
                card: n.card(n.controller().as_deref(), Some(CardType::Stunt), &typed)?,
            }
        }
        "end" => Command::EndTurn,
        "interrupt" | "react" => {
            if name.is_empty() {
                return Err(a.err("name the card"));
            }
            let (kind, bet) = (
                if a.doc.name == "react" {
                    CardType::Reaction
                } else {
                    CardType::Interrupt
                },
                a.bet_of(nums)?,
            );
            let card = n.card(actor.as_deref(), Some(kind), name)?;
            if kind == CardType::Reaction {
                Command::React {
                    who: who.clone(),
                    card,
                    bet,
                }
            } else {
                Command::Interrupt {
                    who: who.clone(),
                    card,
                    bet,
                }
            }
        }
        "pass" => Command::Pass,
        "target" => Command::Target {
            targets: n.targets(&a.positional)?,
            success: a.bet("success")?,
            result: a.bet("result")?,
        },
        "compliment" => {
            if name.is_empty() {
                return Err(a.err("name the card"));
            }
            Command::Compliment {
                who: who.clone(),
                card: n.card(actor.as_deref(), Some(CardType::Compliment), name)?,
                success: a.bet("success")?,
                result: a.bet("result")?,
            }
        }
        "divert" => {
            if name.is_empty() {
                return Err(a.err("name the card"));
            }
            let to = a
                .kw_text("to")
                .ok_or_else(|| a.err("the new target is missing (to NAME)"))?;
            Command::Divert {
                who: who.clone(),
                card: n.card(actor.as_deref(), Some(CardType::Divert), name)?,
                success: a.bet("success")?,
                to: n.character(&to)?,
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
        a, n, who, actor, ..
    } = l;
    let need_who = |what: &str| l.need_who(what);
    let stat = |typed: &str| l.stat(typed);
    let cmd = match a.doc.name {
        "afflict" => {
            let who = need_who("say who: as NAME")?;
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name the effect"));
            }
            Command::Afflict {
                card: n.effect(None, &typed)?,
                who,
            }
        }
        "cure" => {
            let who = need_who("say who: as NAME")?;
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name the effect"));
            }
            Command::Cure {
                effect: n.effect(Some(&who), &typed)?,
                who,
            }
        }
        "improve" => {
            let Some((last, card)) = a.positional.split_last() else {
                return Err(a.err("name a card and easier or damage"));
            };
            let damage = match last.to_ascii_lowercase().as_str() {
                "damage" => true,
                "easier" => false,
                _ => return Err(a.err("end with easier or damage")),
            };
            let typed = card.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name the card"));
            }
            Command::Improve {
                who: who.clone(),
                card: n.card(actor.as_deref(), None, &typed)?,
                damage,
            }
        }
        "end-event" => Command::EndEvent,
        "end-encounter" => Command::EndEncounter,
        "adjust" => {
            let words = &a.positional;
            let [names @ .., typed_stat, typed_amount] = words.as_slice() else {
                return Err(a.err("write adjust NAME STAT AMOUNT"));
            };
            if names.is_empty() {
                return Err(a.err("say whose stat: adjust NAME STAT AMOUNT"));
            }
            let who = n.character(&names.join(" "))?;
            let stat = stat(typed_stat)?;
            let amount = crate::gm::Amount::parse(typed_amount).ok_or_else(|| {
                a.err(format!(
                    "the amount must be N, +N or -N (whole numbers), not {typed_amount:?}"
                ))
            })?;
            Command::Adjust { who, stat, amount }
        }
        "remove" => {
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("say who leaves: remove NAME"));
            }
            Command::Remove {
                who: n.character(&typed)?,
            }
        }
        "award" => Command::Award {
            who: need_who("say who: as NAME")?,
            points: a.num("points", a.positional.first())?,
        },
        "raise" => {
            let typed = a.positional.join(" ");
            if typed.trim().is_empty() {
                return Err(a.err("name a stat or skill"));
            }
            Command::Raise {
                what: n.pool(actor.as_deref(), &typed, true)?,
                who: who.clone(),
            }
        }
        other => return Err(CommandParseError::unknown_command(other, COMMANDS)),
    };
    Ok(cmd)
}
