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

use tabula_core::grammar;
use tabula_core::names::{NameLookupError, resolve, same_name};
use tabula_core::system::{CommandDoc, Giver, find_command};
use tabula_core::{CommandParseError, Seat};

use crate::cards::CardType;
use crate::rules;
use crate::stats::Stat;
use crate::table::{Bet, Command, Pool, State};

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

/// The words that start a keyword argument.
const KEYWORDS: [&str; 8] = [
    "as",
    "with",
    "vs",
    "success",
    "result",
    "to",
    "on",
    "difficulty",
];

/// A command line split into words: the command, positional words and keyword
/// arguments.
pub(crate) struct Args {
    doc: &'static CommandDoc,
    /// The words before the first keyword.
    pub(crate) positional: Vec<String>,
    keywords: Vec<(&'static str, Vec<String>)>,
}

fn keyword(word: &str) -> Option<&'static str> {
    KEYWORDS
        .iter()
        .find(|k| k.eq_ignore_ascii_case(word))
        .copied()
}

fn split(line: &str) -> Result<Args, CommandParseError> {
    let words = grammar::words(line)?;
    let mut it = words.into_iter();
    let first = it.next().unwrap_or_default();
    let doc = find_command(COMMANDS, &first)
        .ok_or_else(|| CommandParseError::unknown_command(&first, COMMANDS))?;
    let mut positional = Vec::new();
    let mut keywords: Vec<(&'static str, Vec<String>)> = Vec::new();
    for w in it {
        if let Some(k) = keyword(&w) {
            keywords.push((k, Vec::new()));
            continue;
        }
        // `KEY=VALUE` is the keyword and its first value in one word.
        if let Some((k, v)) = w.split_once('=')
            && let Some(k) = keyword(k)
        {
            keywords.push((k, vec![v.to_string()]));
            continue;
        }
        match keywords.last_mut() {
            Some((_, v)) => v.push(w),
            None => positional.push(w),
        }
    }
    Ok(Args {
        doc,
        positional,
        keywords,
    })
}

impl Args {
    pub(crate) fn err(&self, problem: impl Into<String>) -> CommandParseError {
        CommandParseError::arguments(self.doc, problem)
    }

    pub(crate) fn kw(&self, k: &str) -> Option<&[String]> {
        self.keywords
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.as_slice())
    }

    /// The words after keyword `k` as one name (several words unquoted join
    /// with spaces); `None` when the keyword is absent or has no words.
    pub(crate) fn kw_text(&self, k: &str) -> Option<String> {
        self.kw(k)
            .map(|v| v.join(" "))
            .filter(|s| !s.trim().is_empty())
    }

    /// Leading non-numeric positional words (a card or stat name), joined,
    /// and the numbers after them.
    fn name_and_numbers(&self) -> (String, &[String]) {
        let at = self
            .positional
            .iter()
            .position(|w| looks_numeric(w))
            .unwrap_or(self.positional.len());
        (self.positional[..at].join(" "), &self.positional[at..])
    }

    fn num(&self, what: &str, text: Option<&String>) -> Result<u32, CommandParseError> {
        let Some(t) = text else {
            return Err(self.err(format!("{what} is missing")));
        };
        t.parse::<u32>().map_err(|e| {
            self.err(match e.kind() {
                std::num::IntErrorKind::PosOverflow => {
                    format!("{what} is too large: {t} (at most {})", u32::MAX)
                }
                _ if looks_numeric(t) => format!("{what} must be 0 or more, not {t}"),
                _ => format!("{what} must be a whole number 0 or more, not {t:?}"),
            })
        })
    }

    fn opt_num(&self, what: &str, text: Option<&String>) -> Result<u32, CommandParseError> {
        match text {
            None => Ok(0),
            some => self.num(what, some),
        }
    }

    /// The bet after keyword `k`: `k DICE [TOKENS]`; no bet when absent.
    fn bet(&self, k: &str) -> Result<Bet, CommandParseError> {
        match self.kw(k) {
            None => Ok(Bet::default()),
            Some(v) => Ok(Bet {
                dice: self.num(&format!("{k} dice"), v.first())?,
                tokens: self.opt_num(&format!("{k} tokens"), v.get(1))?,
            }),
        }
    }

    /// The bet of positional numbers: `DICE [TOKENS]`.
    fn bet_of(&self, nums: &[String]) -> Result<Bet, CommandParseError> {
        Ok(Bet {
            dice: self.num("dice", nums.first())?,
            tokens: self.opt_num("tokens", nums.get(1))?,
        })
    }
}

/// A word that is a whole number, perhaps negative or too large (`-4`,
/// `99999999999`): it is read as a number, so a bad one is refused as one.
fn looks_numeric(w: &str) -> bool {
    let digits = w.strip_prefix('-').unwrap_or(w);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Resolve `typed` among `preferred` (the names that fit here: exact, case-blind,
/// or an unambiguous prefix). A name of `rest` written out in full is taken
/// too, so `decide` can refuse it saying why (another seat's character, a card
/// of another type); a prefix never reaches into `rest`. Unknown: the error
/// lists `preferred` (or resolves among `rest` when `preferred` is empty).
fn resolve_in(
    field: &str,
    typed: &str,
    preferred: &[String],
    rest: &[String],
) -> Result<String, NameLookupError> {
    if preferred.is_empty() {
        return resolve(field, typed, rest.iter().map(String::as_str)).map(String::from);
    }
    match resolve(field, typed, preferred.iter().map(String::as_str)) {
        Ok(n) => Ok(n.to_string()),
        Err(e @ NameLookupError::Unknown { .. }) => {
            rest.iter().find(|r| same_name(r, typed)).cloned().ok_or(e)
        }
        Err(e) => Err(e),
    }
}

/// The state and seat a line is read against: every name resolves against the
/// names that fit where it is typed.
struct Names<'a> {
    s: &'a State,
    seat: &'a Seat,
}

impl Names<'_> {
    fn everyone(&self) -> Vec<String> {
        self.s.participant_names()
    }

    fn mine(&self) -> Vec<String> {
        self.s.controlled_by(self.seat)
    }

    /// A character anyone may name (a target, `to NAME`, the storyteller's
    /// `as NAME`).
    fn character(&self, typed: &str) -> Result<String, CommandParseError> {
        Ok(resolve_in("character", typed, &self.everyone(), &[])?)
    }

    /// `as NAME` of a command a seat gives for its own character: the seat's
    /// characters first (the storyteller: every character), then the rest (so
    /// `decide` refuses another seat's character with the seat rule).
    fn acting(&self, typed: &str) -> Result<String, CommandParseError> {
        if self.seat.is_gm() {
            return self.character(typed);
        }
        Ok(resolve_in(
            "character",
            typed,
            &self.mine(),
            &self.everyone(),
        )?)
    }

    /// The character a command from this seat acts for when it names none:
    /// the Controller when the seat plays it, else the seat's one character.
    fn actor(&self, who: Option<&str>) -> Option<String> {
        if let Some(w) = who {
            return Some(w.to_string());
        }
        let mine = self.mine();
        if let Some(t) = self.s.turn()
            && mine.iter().any(|m| m == &t.controller)
        {
            return Some(t.controller.clone());
        }
        match mine.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    fn controller(&self) -> Option<String> {
        self.s.turn().map(|t| t.controller.clone())
    }

    /// A stat: its name, its abbreviation (`AGI`), `Strength` for Might
    /// (R-SG-3), or an unambiguous prefix.
    fn stat(&self, typed: &str) -> Result<Stat, CommandParseError> {
        if let Some(st) = Stat::parse(typed) {
            return Ok(st);
        }
        let names = stat_words();
        let n = resolve("Stat", typed, names.iter().map(String::as_str))?;
        Ok(Stat::parse(n).unwrap_or(Stat::Might))
    }

    /// The skills `who` may name: their own and the comparables the table
    /// agreed (a card's skill standing for one of theirs).
    fn skills_of(&self, who: Option<&str>) -> Vec<String> {
        let Some(p) = who.and_then(|w| self.s.participant(w)) else {
            return Vec::new();
        };
        p.character
            .skills()
            .iter()
            .map(|k| k.name.clone())
            .chain(p.comparable.keys().cloned())
            .collect()
    }

    /// A skill of `who`; when the character is not known here, the name as typed
    /// (`decide` refuses it with the character's skills).
    fn skill(&self, who: Option<&str>, typed: &str) -> Result<String, CommandParseError> {
        let skills = self.skills_of(who);
        if skills.is_empty() {
            return Ok(typed.trim().to_string());
        }
        Ok(resolve_in("Skill", typed, &skills, &[])?)
    }

    /// A stat or a skill of `who` (`recover`, `giveback`, `raise`). With
    /// `new_skill`, a name that is no stat and none of their skills is a new
    /// skill (`raise`, "Experience").
    fn pool(
        &self,
        who: Option<&str>,
        typed: &str,
        new_skill: bool,
    ) -> Result<Pool, CommandParseError> {
        if let Some(st) = Stat::parse(typed) {
            return Ok(Pool::Stat(st));
        }
        let skills = self.skills_of(who);
        if let Some(k) = skills.iter().find(|k| same_name(k, typed)) {
            return Ok(Pool::Skill(k.clone()));
        }
        let mut names = stat_words();
        names.extend(skills);
        match resolve("Stat or Skill", typed, names.iter().map(String::as_str)) {
            Ok(n) => Ok(Stat::parse(n).map_or_else(|| Pool::Skill(n.to_string()), Pool::Stat)),
            Err(NameLookupError::Unknown { .. }) if new_skill || who.is_none() => {
                Ok(Pool::Skill(typed.trim().to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A card `who` would play: by its key (`sand-strike`), else by name among
    /// their cards of `kind` (any kind with `None`), then among the table's
    /// cards (which `decide` may refuse them, saying why).
    fn card(
        &self,
        who: Option<&str>,
        kind: Option<CardType>,
        typed: &str,
    ) -> Result<String, CommandParseError> {
        if let Some(c) = self.s.card(typed) {
            return Ok(c.name.clone());
        }
        let fits = |k: CardType| kind.is_none_or(|want| want == k);
        let hand: Vec<String> = who
            .and_then(|w| self.s.participant(w))
            .map(|p| {
                p.cards
                    .iter()
                    .filter_map(|c| self.s.card(c))
                    .filter(|c| fits(c.kind))
                    .map(|c| c.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let table: Vec<String> = self.s.cards.iter().map(|c| c.name.clone()).collect();
        let field = kind.map_or_else(|| "card".to_string(), |k| format!("{k} card"));
        Ok(resolve_in(&field, typed, &hand, &table)?)
    }

    /// An effect: by its key, else among the effects in play on `who` (when
    /// given), then among the table's effect cards.
    fn effect(&self, who: Option<&str>, typed: &str) -> Result<String, CommandParseError> {
        if let Some(c) = self.s.card(typed) {
            return Ok(c.name.clone());
        }
        let on: Vec<String> = who
            .and_then(|w| self.s.participant(w))
            .map(|p| p.effects.iter().map(|e| e.card.clone()).collect())
            .unwrap_or_default();
        let all: Vec<String> = self
            .s
            .cards
            .iter()
            .filter(|c| c.effect.is_some())
            .map(|c| c.name.clone())
            .collect();
        Ok(resolve_in("effect", typed, &on, &all)?)
    }

    /// Targets: names separated by commas, or each a (quoted) word of its own;
    /// unquoted words of one name join (`target Tavern Brute success 3`).
    fn targets(&self, words: &[String]) -> Result<Vec<String>, CommandParseError> {
        let joined = words.join(" ");
        if joined.contains(',') {
            return joined
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| self.character(n))
                .collect();
        }
        if joined.trim().is_empty() {
            return Ok(Vec::new());
        }
        match self.character(&joined) {
            Ok(n) => Ok(vec![n]),
            Err(e) if words.len() > 1 => {
                let each: Result<Vec<String>, _> =
                    words.iter().map(|w| self.character(w)).collect();
                each.map_err(|_| e)
            }
            Err(e) => Err(e),
        }
    }
}

/// The nine stat names and `Strength` (R-SG-3), as a name may be typed.
fn stat_words() -> Vec<String> {
    Stat::ALL
        .iter()
        .map(|s| s.name().to_string())
        .chain(std::iter::once("Strength".to_string()))
        .collect()
}

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
    let need_who = |what: &str| who.clone().ok_or_else(|| a.err(what.to_string()));
    let stat = |typed: &str| {
        if typed.trim().is_empty() {
            Err(a.err("name a stat"))
        } else {
            n.stat(typed)
        }
    };
    let cmd = match a.doc.name {
        "spend" => Command::Spend {
            who: who.clone(),
            stat: stat(&name)?,
        },
        "check" => {
            let difficulty = a
                .kw("vs")
                .or_else(|| a.kw("difficulty"))
                .ok_or_else(|| a.err("the difficulty is missing (vs D)"))?;
            Command::Check {
                who: who.clone(),
                stat: stat(&name)?,
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
            match n.pool(Some(&who), &name, false)? {
                Pool::Stat(stat) => Command::GiveBack { who, stat, points },
                Pool::Skill(skill) => Command::TokensBack { who, skill, points },
            }
        }
        "reject" => Command::Reject {
            who: need_who("say whose card: as NAME")?,
        },
        "heal" => Command::Heal {
            who: need_who("say who: as NAME")?,
            stat: stat(&name)?,
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
            stat: stat(&name)?,
            dice: a.num("dice", nums.first())?,
        },
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
                effect: n.effect(n.controller().as_deref(), &name)?,
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
            let card = n.card(actor.as_deref(), Some(kind), &name)?;
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
                card: n.card(actor.as_deref(), Some(CardType::Compliment), &name)?,
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
                card: n.card(actor.as_deref(), Some(CardType::Divert), &name)?,
                success: a.bet("success")?,
                to: n.character(&to)?,
            }
        }
        "take" => Command::Take { who: who.clone() },
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
