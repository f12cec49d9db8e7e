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

use tabula_core::system::{CommandDoc, Giver};
use tabula_core::{CommandParseError, Seat};

use crate::cards::CardType;
use crate::rules;
use crate::stats::Stat;
use crate::table::{Command, Pool, State};

mod args;
mod names;

pub(crate) use args::Args;
use args::split;
use names::Names;

/// Every command of a Sour Grapes table, once, in the order of the book's game
/// moments: the source of `help`, of the parser's usage messages and of
/// `docs/COMMANDS.md`. `as NAME` names the character acting when a seat plays
/// several (the storyteller, `gm`, acts for anyone with it).
pub const COMMANDS: &[CommandDoc] = &[
    CommandDoc::new(
        "spend",
        &[],
        "spend STAT [as NAME]",
        "Spend: exhaust a point of a stat without a roll (the storyteller may dictate it)",
        Giver::Player,
        rules::SPEND,
    ),
    CommandDoc::new(
        "check",
        &[],
        "check STAT DICE [TOKENS] vs DIFFICULTY [with SKILL] [as NAME]",
        "Check: dice up to the stat's Current value plus skill tokens; a success needs more successes than the Difficulty",
        Giver::Player,
        rules::CHECK,
    ),
    CommandDoc::new(
        "giveback",
        &["give-back"],
        "giveback STAT|SKILL [POINTS] as NAME",
        "give exhausted stat points or spent skill tokens back (a reward)",
        Giver::Gm,
        rules::SPEND,
    ),
    CommandDoc::new(
        "adjust",
        &[],
        "adjust NAME STAT AMOUNT",
        "the storyteller sets (N) or changes (+N, -N) a stat's Current Stat Value, 0 to its Actual Stat Value; at zero it is injured",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "add",
        &[],
        "add KIND|FILE.toml [as NAME] [to SEAT]",
        "the storyteller brings a character into the encounter: a fresh copy of a table's character, of a book's sheet or of an uploaded sheet file (a taken name gets \" 2\"); played by the storyteller unless `to SEAT`",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "remove",
        &[],
        "remove NAME",
        "the storyteller takes a character out of the encounter, with its cards and effects (not while it has a part in the turn in progress or the Situation)",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "heal",
        &[],
        "heal STAT as NAME",
        "remove the Injury marker from a stat",
        Giver::Gm,
        rules::STAT_MECHANICS,
    ),
    CommandDoc::new(
        "rest",
        &[],
        "rest",
        "a short rest away from the activity: exhausted stats that are not injured, and skill tokens, recover",
        Giver::Gm,
        rules::STAT_MECHANICS,
    ),
    CommandDoc::new(
        "situation",
        &[],
        "situation DIFFICULTY STAT [with SKILL] as NAME",
        "announce a Situation: a difficulty that rises and falls, ending in a final check",
        Giver::Gm,
        rules::SITUATION,
    ),
    CommandDoc::new(
        "difficulty",
        &[],
        "difficulty DIFFICULTY",
        "raise or lower the Situation's difficulty",
        Giver::Gm,
        rules::SITUATION,
    ),
    CommandDoc::new(
        "final",
        &[],
        "final DICE [TOKENS]",
        "the Situation's final check against the difficulty reached",
        Giver::Player,
        rules::SITUATION,
    ),
    CommandDoc::new(
        "event",
        &[],
        "event",
        "declare an Event: initiative, then rounds of turns",
        Giver::Gm,
        rules::EVENT,
    ),
    CommandDoc::new(
        "initiative",
        &[],
        "initiative STAT DICE [as NAME]",
        "roll initiative: a check with any stat the player makes a case for, exhausting nothing, plus a d20",
        Giver::Player,
        rules::INITIATIVE,
    ),
    CommandDoc::new(
        "recover",
        &[],
        "recover STAT|SKILL",
        "step 1, Prep: the Controller's free point back into an exhausted, uninjured stat or a skill",
        Giver::Any,
        rules::PREP,
    ),
    CommandDoc::new(
        "keep",
        &[],
        "keep EFFECT DICE [TOKENS]",
        "step 1, Prep: roll for an effect to keep it; on a failure it is discarded",
        Giver::Any,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "discard",
        &[],
        "discard EFFECT",
        "step 1, Prep: discard an effect",
        Giver::Any,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "stunt",
        &[],
        "stunt CARD",
        "step 2: the Controller lays down a Stunt",
        Giver::Any,
        rules::STUNT,
    ),
    CommandDoc::new(
        "end",
        &["end-turn"],
        "end",
        "end the turn without a Stunt (effects not rolled for are discarded)",
        Giver::Any,
        rules::TURN,
    ),
    CommandDoc::new(
        "interrupt",
        &[],
        "interrupt CARD DICE [TOKENS] [as NAME]",
        "step 3: another player offers an Interrupt, rolled when the step closes; a success ends the turn",
        Giver::Player,
        rules::INTERRUPT,
    ),
    CommandDoc::new(
        "pass",
        &[],
        "pass",
        "close the open step (3 or 5): the offered cards roll",
        Giver::Any,
        rules::TURN,
    ),
    CommandDoc::new(
        "target",
        &[],
        "target [NAME[, NAME]...] success DICE [TOKENS] [result DICE [TOKENS]]",
        "step 4, Targeting & Betting: the targets, and dice and tokens placed on Success and Result, not rolled",
        Giver::Any,
        rules::BETTING,
    ),
    CommandDoc::new(
        "compliment",
        &[],
        "compliment CARD success DICE [TOKENS] [result DICE [TOKENS]] [as NAME]",
        "step 5: offer a Compliment that modifies the Stunt",
        Giver::Player,
        rules::COMPLIMENT,
    ),
    CommandDoc::new(
        "divert",
        &[],
        "divert CARD success DICE [TOKENS] to NAME [as NAME]",
        "step 5: offer a Divert that redirects the Stunt to another receiver",
        Giver::Player,
        rules::DIVERT,
    ),
    CommandDoc::new(
        "reject",
        &[],
        "reject as NAME",
        "reject a card offered in the open step as invalid: it is taken back unrolled",
        Giver::Gm,
        rules::TURN,
    ),
    CommandDoc::new(
        "react",
        &[],
        "react CARD DICE [TOKENS] [as NAME]",
        "step 7: a receiver plays a Reaction; it must beat the Stunt's successes",
        Giver::Player,
        rules::REACTION,
    ),
    CommandDoc::new(
        "take",
        &[],
        "take [as NAME]",
        "step 7: a receiver takes the Stunt without a Reaction",
        Giver::Player,
        rules::REACTION,
    ),
    CommandDoc::new(
        "afflict",
        &[],
        "afflict EFFECT as NAME",
        "put an effect card in play on a character",
        Giver::Gm,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "cure",
        &[],
        "cure EFFECT as NAME",
        "remove an effect whose condition has been met",
        Giver::Gm,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "end-event",
        &[],
        "end-event",
        "end the Event",
        Giver::Gm,
        rules::EVENT,
    ),
    CommandDoc::new(
        "award",
        &[],
        "award POINTS as NAME",
        "Experience: award experience points at a chapter's end",
        Giver::Gm,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "raise",
        &[],
        "raise STAT|SKILL [as NAME]",
        "Experience: spend a point to raise a stat or a skill by one (a new skill starts at 1)",
        Giver::Player,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "improve",
        &[],
        "improve CARD easier|damage [as NAME]",
        "Experience: spend a point on a card: one success less needed, or one more damage",
        Giver::Player,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "end-encounter",
        &[],
        "end-encounter",
        "end the encounter",
        Giver::Gm,
        rules::MOMENTS,
    ),
];

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
