//! Command lines: the reference entries ([`COMMANDS`]) and the parser, in the
//! one command grammar of `tabula-core` ([`tabula_core::grammar`]).
//!
//! A line is split by [`tabula_core::grammar::words`]: `"double quotes"` group
//! a name with spaces (`invoke "Roof Runner" full`), `_` still stands for a
//! space. A name may also be typed unquoted when its words follow one another
//! and the whole name is written (`invoke Roof Runner full`), as the book's
//! names read. Every name is resolved against the names that fit where it is
//! typed, without regard to case and by unambiguous prefix
//! ([`tabula_core::names::resolve`]), so the [`Command`] carries the name as
//! the sheet writes it:
//!
//! - characters: every character at the table (decide refuses one the seat
//!   does not play);
//! - `invoke ELEMENT`, `talent NAME`, `roll with WEAPON`: the focal character's
//!   elements (Professions, Specializations, Qualities), Special Talents and
//!   weapons; `assist HELPER ELEMENT`: the helper's; `defend ELEMENT`: the
//!   defender's;
//! - `tn N except NAME, NAME`: the focal character's Injuries and Stresses;
//!   `similar-to ENTRY`: the target's Injuries; `injury|stress CHAR ... similar-to
//!   ENTRY` and `heal CHAR injury|stress WORDS`: that character's entries of
//!   that kind; `release CHAR ELEMENT`: its invoked elements;
//! - `advance CHAR side-specialization SIDE`, `change CHAR swap SIDE`, `change
//!   CHAR word PROFESSION`, `change CHAR quality OLD`: its Side Professions,
//!   Professions and Qualities.
//!
//! Where there is nothing to choose from yet (no check open, nothing invoked,
//! no entry of that kind), the name is passed on and
//! [`crate::table`]'s `decide` refuses it with the names it knows. Free text
//! (a framing, a goal, a declaration, a new entry's words, a new element's
//! name) is the rest of the line, its words joined by single spaces.

use crate::name_match::same_name;
use tabula_core::files::{NoSheets, SheetFiles, names_sheet_file};
use tabula_core::grammar::words;
use tabula_core::names::resolve;
use tabula_core::system::{CommandDoc, CommandParseError, Seat, find_command};

use crate::character::{Advance, Character, CycleChange};
use crate::command::Command;
use crate::harm::{HarmKind, Level, Track};
use crate::invoking::Nature;
use crate::state::State;

mod line;

use super::COMMANDS;
use line::*;

/// Read one command line given by `seat` (without the `seat:` prefix) against
/// `state`, resolving every name it holds (see the [module documentation](self)).
/// No sheet files come with the line: `add FILE.toml` is a
/// [`CommandParseError::Sheet`] naming the file (see [`parse_with`]).
///
/// # Errors
/// [`CommandParseError::Grammar`] for an unclosed quote;
/// [`CommandParseError::Unknown`] for a first word that is no command (listing
/// [`COMMANDS`]); [`CommandParseError::Arguments`] with the command's usage;
/// [`CommandParseError::Name`] for a name that fits nothing, or several, there,
/// listing the names that fit; [`CommandParseError::Sheet`] as [`parse_with`].
pub fn parse(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    parse_with(state, seat, line, &NoSheets)
}

/// [`parse`] with the character sheet files sent along with the line: the
/// GM's `add FILE.toml [as NAME] [to SEAT]` (a KIND ending in `.toml`,
/// [`names_sheet_file`]) reads `FILE.toml` from `sheets` and checks it with
/// the book's validating reader ([`crate::gm::read_sheet`]); the command
/// carries the sheet's text, which `decide` checks again. Issue 27, item 6
/// ([`crate::rules::RULE_GM_TOOLS`]).
///
/// # Errors
/// As [`parse`]; [`CommandParseError::Sheet`] naming the file when it was
/// not sent or cannot be read (one problem, naming the file) or is not a
/// legal Sapio character (every broken rule, each naming its field and
/// rule).
pub fn parse_with(
    state: &State,
    _seat: &Seat,
    line: &str,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let mut all = words(line)?;
    if all.is_empty() {
        return Err(CommandParseError::unknown_command("", COMMANDS));
    }
    let head = all.remove(0);
    let Some(doc) = find_command(COMMANDS, &head) else {
        return Err(CommandParseError::unknown_command(&head, COMMANDS));
    };
    let mut l = Line {
        doc,
        state,
        words: all,
        pos: 0,
    };
    let focal = state.check.as_ref().map(|c| c.focal);
    let focal_sheet = focal.and_then(|i| sheet_of(state, i));
    let cmd = match doc.name {
        "check" => check(&mut l)?,
        "confront" | "fight" | "luck-impulse" => two_characters(&mut l, doc)?,
        "begin-sequence" => Command::BeginSequence {
            goal: if l.at_end() {
                String::new()
            } else {
                l.text("the goal")?
            },
        },
        "release" => release(&mut l, state)?,
        "threaten" | "enter-fray" | "leave-fray" | "focal" | "luck-principle" => {
            one_character(&mut l, doc)?
        }
        "frame" => Command::Frame {
            text: l.text("the framing")?,
        },
        "tn" => tn(&mut l, focal_sheet)?,
        "invoke" => invoke(&mut l, focal_sheet)?,
        "assist" => assist(&mut l, state)?,
        "defend" => defend(&mut l, state)?,
        "talent" => talent(&mut l, focal_sheet)?,
        "luck" => Command::SpendLuck {
            amount: l.number("the Luck spent")?,
        },
        "declare" => declare(&mut l)?,
        "accept" | "reject" => Command::Rule {
            accept: doc.name == "accept",
        },
        "different" => Command::SimilarInjury { similar_to: None },
        "similar-to" => similar_to(&mut l, state)?,
        "end-session" => end_session(&mut l)?,
        "bonus" => Command::Bonus {
            dice: l.number("the bonus dice")?,
        },
        "roll" => roll(&mut l, focal_sheet)?,
        "injury" | "stress" => harm(&mut l, state, doc)?,
        "heal" => heal(&mut l, state)?,
        "adjust" => adjust(&mut l, state)?,
        "add" => add(&mut l, state, sheets)?,
        "remove" => Command::Remove {
            character: l.character()?,
        },
        "give-luck" => give_luck(&mut l)?,
        "advance" => advance(&mut l, state)?,
        "change" => change(&mut l, state)?,
        "end-sequence" => Command::EndSequence,
        _ => end(&mut l)?,
    };
    l.done()?;
    Ok(cmd)
}

/// `check`: the words after the command word.
fn check(l: &mut Line<'_>) -> Result<Command, CommandParseError> {
    let character = l.character()?;
    let tn = l.number("the TN")?;
    let ongoing = match l.words.get(l.pos) {
        None => false,
        Some(w) if w.eq_ignore_ascii_case("ongoing") => {
            l.pos += 1;
            true
        }
        Some(w) => return Err(l.bad(format!("{w:?}: expected `ongoing` or nothing"))),
    };
    Ok(Command::Check {
        character,
        tn,
        ongoing,
    })
}

/// `confront`: the words after the command word.
fn two_characters(l: &mut Line<'_>, doc: &CommandDoc) -> Result<Command, CommandParseError> {
    let a = l.character()?;
    let b = l.character()?;
    Ok(match doc.name {
        "confront" => Command::Confront {
            aggressor: a,
            defender: b,
        },
        "fight" => Command::Fight {
            aggressor: a,
            defender: b,
        },
        _ => Command::LuckImpulse {
            character: a,
            beneficiary: b,
        },
    })
}

/// `release`: the words after the command word.
fn release(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let character = l.character()?;
    let element = if l.at_end() {
        None
    } else {
        let locked: Vec<String> = state
            .characters
            .get(character)
            .map(|m| m.locked.iter().map(|k| k.element.clone()).collect())
            .unwrap_or_default();
        Some(l.whole_name("invoked element", &locked, usize::MAX)?)
    };
    Ok(Command::Release { character, element })
}

/// `threaten`: the words after the command word.
fn one_character(l: &mut Line<'_>, doc: &CommandDoc) -> Result<Command, CommandParseError> {
    let character = l.character()?;
    Ok(match doc.name {
        "threaten" => Command::Threaten { character },
        "enter-fray" => Command::EnterFray { character },
        "focal" => Command::Focal { character },
        "leave-fray" => Command::LeaveFray { character },
        _ => Command::LuckPrinciple { character },
    })
}

/// `tn`: the words after the command word.
fn tn(l: &mut Line<'_>, focal_sheet: Option<&Character>) -> Result<Command, CommandParseError> {
    let tn = l.number("the TN")?;
    let mut not_relevant = Vec::new();
    if !l.at_end() {
        if !l.words[l.pos].eq_ignore_ascii_case("except") {
            return Err(l.bad(format!(
                "{:?}: expected `except NAME, NAME` or nothing",
                l.words[l.pos]
            )));
        }
        l.pos += 1;
        let harm: Vec<String> = focal_sheet
            .map(|c| {
                let mut v = entries(c.injuries());
                v.extend(entries(c.stresses()));
                v
            })
            .unwrap_or_default();
        let list = l.text("the Injuries and Stresses")?;
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            not_relevant.push(pick("Injury or Stress", name, &harm)?);
        }
    }
    Ok(Command::Tn { tn, not_relevant })
}

/// `invoke`: the words after the command word.
fn invoke(l: &mut Line<'_>, focal_sheet: Option<&Character>) -> Result<Command, CommandParseError> {
    let (typed, fully) = element_and_use(l)?;
    let element = element_of(focal_sheet, &typed)?;
    Ok(Command::Invoke { element, fully })
}

/// `assist`: the words after the command word.
fn assist(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let helper = l.character()?;
    let typed = l.text("the element")?;
    Ok(Command::Help {
        helper,
        element: element_of(sheet_of(state, helper), &typed)?,
    })
}

/// `defend`: the words after the command word.
fn defend(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let defender = state.check.as_ref().and_then(|c| c.versus);
    let (typed, fully) = element_and_use(l)?;
    Ok(Command::Defend {
        element: element_of(defender.and_then(|d| sheet_of(state, d)), &typed)?,
        fully,
    })
}

/// `talent`: the words after the command word.
fn talent(l: &mut Line<'_>, focal_sheet: Option<&Character>) -> Result<Command, CommandParseError> {
    let names = focal_sheet.map(talents).unwrap_or_default();
    Ok(Command::Talent {
        name: l.whole_name("Special Talent", &names, usize::MAX)?,
    })
}

/// `declare`: the words after the command word.
fn declare(l: &mut Line<'_>) -> Result<Command, CommandParseError> {
    let w = l.word("principle or impulse")?;
    let nature = match w.to_ascii_lowercase().as_str() {
        "principle" => Nature::Principle,
        "impulse" | "worst-impulse" => Nature::WorstImpulse,
        _ => return Err(l.bad(format!("{w:?}: expected principle or impulse"))),
    };
    Ok(Command::Declare {
        nature,
        text: l.text("what the character does")?,
    })
}

/// `similar-to`: the words after the command word.
fn similar_to(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let existing: Vec<String> = state
        .pending_injury
        .as_ref()
        .and_then(|p| sheet_of(state, p.character))
        .map(|c| entries(c.injuries()))
        .unwrap_or_default();
    if l.at_end() {
        return Err(l.bad("the existing Injury is missing"));
    }
    Ok(Command::SimilarInjury {
        similar_to: Some(l.whole_name("Injury", &existing, usize::MAX)?),
    })
}

/// `end-session`: the words after the command word.
fn end_session(l: &mut Line<'_>) -> Result<Command, CommandParseError> {
    let w = l
        .word("consequential or inconsequential")
        .map_err(|_| l.bad("say whether the session was consequential or inconsequential"))?;
    let consequential = match w.to_ascii_lowercase().as_str() {
        "consequential" => true,
        "inconsequential" => false,
        _ => {
            return Err(l.bad(format!("{w:?}: expected consequential or inconsequential")));
        }
    };
    Ok(Command::EndSession { consequential })
}

/// `roll`: the words after the command word.
fn roll(l: &mut Line<'_>, focal_sheet: Option<&Character>) -> Result<Command, CommandParseError> {
    Ok(if l.at_end() {
        Command::Roll {
            weapon: None,
            target: None,
        }
    } else {
        let w = l.word("with")?;
        if !w.eq_ignore_ascii_case("with") {
            let rest = l.words.join(" ");
            return Err(l.bad(format!("{rest:?}: expected `with WEAPON [at TARGET]`")));
        }
        let at = l.find_word("at");
        let arms = focal_sheet.map(weapons).unwrap_or_default();
        let weapon = l.whole_name("weapon", &arms, at.unwrap_or(usize::MAX))?;
        let target = match at {
            Some(_) => {
                l.pos += 1;
                if l.at_end() {
                    return Err(l.bad("the target is missing after `at`"));
                }
                Some(l.character()?)
            }
            None => None,
        };
        Command::Roll {
            weapon: Some(weapon),
            target,
        }
    })
}

/// `injury`: the words after the command word.
fn harm(l: &mut Line<'_>, state: &State, doc: &CommandDoc) -> Result<Command, CommandParseError> {
    let character = l.character()?;
    let lw = l.word("the level")?;
    let level = Level::parse(&lw)
        .ok_or_else(|| l.bad(format!("{lw:?}: expected minor, moderate or severe")))?;
    let kind = if doc.name == "injury" {
        HarmKind::Injury
    } else {
        HarmKind::Stress
    };
    let similar_at = l.find_word("similar-to");
    let end = similar_at.unwrap_or(l.words.len());
    if l.pos >= end {
        return Err(l.bad("the words of the entry are missing"));
    }
    let name = l.words[l.pos..end].join(" ");
    l.pos = end;
    let similar_to = match similar_at {
        Some(_) => {
            l.pos += 1;
            if l.at_end() {
                return Err(l.bad("similar-to needs the existing entry"));
            }
            let existing = sheet_of(state, character)
                .map(|c| entries(track(c, kind)))
                .unwrap_or_default();
            Some(l.whole_name("entry", &existing, usize::MAX)?)
        }
        None => None,
    };
    Ok(Command::Harm {
        character,
        kind,
        level,
        name,
        similar_to,
    })
}

/// `heal`: the words after the command word.
fn heal(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let character = l.character()?;
    let kw = l.word("injury or stress")?;
    let kind = match kw.to_ascii_lowercase().as_str() {
        "injury" => HarmKind::Injury,
        "stress" => HarmKind::Stress,
        _ => return Err(l.bad(format!("{kw:?}: expected injury or stress"))),
    };
    let existing = sheet_of(state, character)
        .map(|c| entries(track(c, kind)))
        .unwrap_or_default();
    if l.at_end() {
        return Err(l.bad("the entry is missing"));
    }
    Ok(Command::Heal {
        character,
        kind,
        name: l.whole_name(
            if kind == HarmKind::Injury {
                "Injury"
            } else {
                "Stress"
            },
            &existing,
            usize::MAX,
        )?,
    })
}

/// `adjust`: the words after the command word.
fn adjust(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let names = state.names();
    let end = l.words.len().saturating_sub(2);
    let n = l.name_until("character", &names, end)?;
    let character = state
        .find(&n)
        .ok_or_else(|| l.bad(format!("no character {n:?}")))?;
    let typed = l.word("the value")?;
    let value = match crate::gm::Value::parse(&typed) {
        Some(v) => v,
        None => {
            let found = resolve(
                "value",
                &typed,
                crate::gm::Value::ALL.iter().map(|v| v.key()),
            )?;
            crate::gm::Value::parse(found)
                .ok_or_else(|| l.bad(format!("{typed:?} is not a value")))?
        }
    };
    let typed = l.word("the amount")?;
    let amount = crate::gm::Amount::parse(&typed).ok_or_else(|| {
        l.bad(format!(
            "the amount must be N, +N or -N (whole numbers), not {typed:?}"
        ))
    })?;
    Ok(Command::Adjust {
        character,
        value,
        amount,
    })
}

/// `add`: the words after the command word. A KIND ending in `.toml` is a
/// sheet file read from `sheets` ([`parse_with`]).
fn add(
    l: &mut Line<'_>,
    state: &State,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let kinds = crate::gm::kinds(state);
    let end = [l.find_word("as"), l.find_word("to")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(l.words.len());
    let file = l
        .words
        .get(l.pos..end)
        .map(|w| w.join(" "))
        .filter(|f| names_sheet_file(f));
    let kind = match &file {
        Some(f) => {
            l.pos = end;
            f.trim().to_string()
        }
        None => l.name_until("kind", &kinds, end)?,
    };
    let (mut name, mut to) = (None, None);
    while !l.at_end() {
        let kw = l.word("as or to")?.to_ascii_lowercase();
        let next = [l.find_word("as"), l.find_word("to")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(l.words.len());
        if l.pos >= next {
            return Err(l.bad(format!("a value is missing after `{kw}`")));
        }
        let value = l.words[l.pos..next].join(" ");
        l.pos = next;
        match kw.as_str() {
            "as" if name.is_none() => name = Some(value.trim().to_string()),
            "to" if to.is_none() => {
                let seats = crate::gm::player_seats(state);
                to = Some(if Seat::parse(&value).is_gm() {
                    "GM".to_string()
                } else {
                    pick("seat", &value, &seats)?
                });
            }
            _ => {
                return Err(l.bad(format!(
                    "{kw:?}: expected `as NAME` or `to SEAT`, once each"
                )));
            }
        }
    }
    let sheet = match file {
        None => None,
        Some(_) => Some(sheet_text(&kind, sheets)?),
    };
    Ok(Command::Add {
        kind,
        name,
        to,
        sheet,
    })
}

/// The text of the sheet file `file`, read from `sheets` and checked by the
/// book's validating reader ([`crate::gm::read_sheet`]).
///
/// # Errors
/// [`CommandParseError::Sheet`] naming `file`: not sent or unreadable (the
/// [`tabula_core::files::FileError`], one problem), or every broken rule.
fn sheet_text(file: &str, sheets: &dyn SheetFiles) -> Result<String, CommandParseError> {
    tabula_core::files::read_checked_sheet(sheets, file, |text| {
        crate::gm::read_sheet(text).map_err(|(_, problems)| problems)
    })
}

/// `give-luck`: the words after the command word.
fn give_luck(l: &mut Line<'_>) -> Result<Command, CommandParseError> {
    let character = l.character()?;
    Ok(Command::GiveLuck {
        character,
        amount: l.number("the Luck given")?,
    })
}

/// `advance`: the words after the command word.
fn advance(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let i = l.character()?;
    let kw = l.word("the advancement")?;
    let advance = match kw.to_ascii_lowercase().as_str() {
        "specialization" => Advance::ProfessionSpecialization {
            name: l.text("the Specialization")?,
        },
        "side-specialization" => {
            let sides = sheet_of(state, i).map(sides).unwrap_or_default();
            if sides.is_empty() {
                return Err(l.bad("the character has no Side Profession"));
            }
            let profession = l.name_until("Side Profession", &sides, usize::MAX)?;
            Advance::SideSpecialization {
                profession,
                name: l.text("the Specialization")?,
            }
        }
        "side-profession" => Advance::SideProfession {
            name: l.text("the Side Profession")?,
        },
        "quality" => Advance::Quality {
            name: l.text("the Quality")?,
        },
        "talent" | "special-talent" => {
            let rest = l.rest();
            Advance::SpecialTalent {
                talent: crate::advance::parse_talent(&rest).map_err(|e| l.bad(e))?,
            }
        }
        _ => {
            return Err(l.bad(format!(
                "{kw:?}: expected specialization, side-specialization, side-profession, quality or talent"
            )));
        }
    };
    Ok(Command::Advance {
        character: i,
        advance,
    })
}

/// `change`: the words after the command word.
fn change(l: &mut Line<'_>, state: &State) -> Result<Command, CommandParseError> {
    let i = l.character()?;
    let kw = l.word("word, swap or quality")?;
    let sheet = sheet_of(state, i);
    let change = match kw.to_ascii_lowercase().as_str() {
        "word" | "quality" => {
            let Some(to) = l.find_word("to") else {
                return Err(l.bad(if kw.eq_ignore_ascii_case("word") {
                    "expected `word PROFESSION to NEW`"
                } else {
                    "expected `quality OLD to NEW`"
                }));
            };
            let word = kw.eq_ignore_ascii_case("word");
            let (field, names) = if word {
                ("Profession", sheet.map(professions).unwrap_or_default())
            } else {
                (
                    "Quality",
                    sheet
                        .map(|c| c.sheet().qualities.clone())
                        .unwrap_or_default(),
                )
            };
            let from = l.whole_name(field, &names, to)?;
            l.pos = to + 1;
            let new = l.text("the new words")?;
            if word {
                CycleChange::ProfessionWord {
                    profession: from,
                    to: new,
                }
            } else {
                CycleChange::Quality { from, to: new }
            }
        }
        "swap" => {
            let sides = sheet.map(sides).unwrap_or_default();
            if l.at_end() {
                return Err(l.bad("the Side Profession is missing"));
            }
            CycleChange::Swap {
                side: l.whole_name("Side Profession", &sides, usize::MAX)?,
            }
        }
        _ => return Err(l.bad(format!("{kw:?}: expected word, swap or quality"))),
    };
    Ok(Command::Change {
        character: i,
        change,
    })
}

/// `end`: the words after the command word.
fn end(l: &mut Line<'_>) -> Result<Command, CommandParseError> {
    Ok(if l.at_end() {
        Command::End
    } else {
        let w = l.word("carry")?;
        if !w.eq_ignore_ascii_case("carry") {
            return Err(l.bad(format!("{w:?}: expected carry or nothing")));
        }
        Command::EndCarrying
    })
}
