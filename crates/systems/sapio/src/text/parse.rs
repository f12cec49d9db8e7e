//! Command lines: every line is read by the one core parser,
//! [`tabula_core::usage::read`], against its command's usage in
//! [`COMMANDS`] (issue 26, item 1), and the [`Command`] is built from the
//! [`Reading`]: names resolved against the table, numbers checked, and the
//! book's own syntax inside one value (the `tn ... except` comma list, a
//! talent's `key=value` words) read here.
//!
//! A line's words are split by [`tabula_core::grammar::words`]: `"double
//! quotes"` group a name with spaces (`invoke "Roof Runner" full`), `_` still
//! stands for a space. A name may also be typed unquoted (`NAME...` in the
//! usage) when its words follow one another (`invoke Roof Runner full`), as
//! the book's names read. Every name is resolved against the names that fit
//! where it is typed, without regard to case and by unambiguous prefix
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
//! name) is a value's words joined by single spaces.
//!
//! Two things the usage language cannot say stay here, each at its spot:
//! where two unquoted names typed one after the other split
//! (`names::name_then_rest`: only the names at the table know), and a
//! keyword typed last with nothing after it (`roll with Sword at`), which the
//! reader keeps as part of the name before it (`names::no_last_word`).

use tabula_core::files::{NoSheets, SheetFiles, names_sheet_file};
use tabula_core::names::resolve;
use tabula_core::system::{CommandParseError, Seat};
use tabula_core::usage::{Reading, read};

use crate::character::{Advance, Character, CycleChange};
use crate::command::Command;
use crate::harm::{HarmKind, Level};
use crate::invoking::Nature;
use crate::state::State;

mod names;

use super::COMMANDS;
use names::*;

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
    let r = read(COMMANDS, line)?;
    let focal_sheet = state.check.as_ref().and_then(|c| sheet_of(state, c.focal));
    let one = |name: &str| character(state, &r, r.require(name)?);
    Ok(match r.command.name {
        "check" => Command::Check {
            character: one("CHARACTER")?,
            tn: number(&r, "TN")?,
            ongoing: r.has("ongoing"),
        },
        "confront" | "fight" | "luck-impulse" => two_characters(state, &r)?,
        "begin-sequence" => Command::BeginSequence {
            goal: match r.get("GOAL") {
                None => String::new(),
                Some(_) => text(&r, "GOAL")?,
            },
        },
        "release" => release(state, &r)?,
        "threaten" => Command::Threaten {
            character: one("CHARACTER")?,
        },
        "enter-fray" => Command::EnterFray {
            character: one("CHARACTER")?,
        },
        "leave-fray" => Command::LeaveFray {
            character: one("CHARACTER")?,
        },
        "focal" => Command::Focal {
            character: one("CHARACTER")?,
        },
        "luck-principle" => Command::LuckPrinciple {
            character: one("CHARACTER")?,
        },
        "remove" => Command::Remove {
            character: one("CHARACTER")?,
        },
        "frame" => Command::Frame {
            text: text(&r, "TEXT")?,
        },
        "tn" => tn(&r, focal_sheet)?,
        "invoke" => Command::Invoke {
            element: element_of(focal_sheet, r.require("ELEMENT")?)?,
            fully: fully(&r),
        },
        "assist" => assist(state, &r)?,
        "defend" => {
            let defender = state.check.as_ref().and_then(|c| c.versus);
            Command::Defend {
                element: element_of(
                    defender.and_then(|d| sheet_of(state, d)),
                    r.require("ELEMENT")?,
                )?,
                fully: fully(&r),
            }
        }
        "talent" => Command::Talent {
            name: pick(
                "Special Talent",
                r.require("NAME")?,
                &focal_sheet.map(talents).unwrap_or_default(),
            )?,
        },
        "luck" => Command::SpendLuck {
            amount: number(&r, "N")?,
        },
        "bonus" => Command::Bonus {
            dice: number(&r, "N")?,
        },
        "declare" => Command::Declare {
            nature: if r.has("principle") {
                Nature::Principle
            } else {
                Nature::WorstImpulse
            },
            text: text(&r, "TEXT")?,
        },
        "accept" | "reject" => Command::Rule {
            accept: r.command.name == "accept",
        },
        "different" => Command::SimilarInjury { similar_to: None },
        "similar-to" => similar_to(state, &r)?,
        "end-session" => Command::EndSession {
            consequential: r.has("consequential"),
        },
        "roll" => roll(state, &r, focal_sheet)?,
        "injury" | "stress" => harm(state, &r)?,
        "heal" => heal(state, &r)?,
        "adjust" => adjust(state, &r)?,
        "add" => add(state, &r, sheets)?,
        "give-luck" => Command::GiveLuck {
            character: one("CHARACTER")?,
            amount: number(&r, "N")?,
        },
        "advance" => advance(state, &r)?,
        "change" => change(state, &r)?,
        "end-sequence" => Command::EndSequence,
        _ => {
            if r.has("carry") {
                Command::EndCarrying
            } else {
                Command::End
            }
        }
    })
}

/// How a Profession applies: `full`/`fully` (the default) or
/// `partial`/`partly` ("Professions and Specializations"; for `defend`,
/// R-SA-11).
fn fully(r: &Reading<'_>) -> bool {
    !(r.has("partial") || r.has("partly"))
}

/// `confront`, `fight` (R-SA-11, "Character versus Character") and
/// `luck-impulse` ("Principles and Worst Impulses"): two characters.
fn two_characters(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let (first, second) = match r.command.name {
        "luck-impulse" => ("CHARACTER", "OTHER"),
        _ => ("AGGRESSOR", "DEFENDER"),
    };
    let (a, b) = name_then_rest(r, first, second, &state.names())?;
    let b = b.ok_or_else(|| r.problem(format!("{second} is missing")))?;
    let (a, b) = (character(state, r, &a)?, character(state, r, &b)?);
    Ok(match r.command.name {
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

/// `release CHARACTER [ELEMENT]`: an ongoing task ends, or one invoked
/// element is free again ("Ongoing tasks", R-SA-8).
fn release(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let (who, element) = name_then_rest(r, "CHARACTER", "ELEMENT", &state.names())?;
    let character = character(state, r, &who)?;
    let element = match element {
        None => None,
        Some(typed) => {
            let locked: Vec<String> = state
                .characters
                .get(character)
                .map(|m| m.locked.iter().map(|k| k.element.clone()).collect())
                .unwrap_or_default();
            Some(pick("invoked element", &typed, &locked)?)
        }
    };
    Ok(Command::Release { character, element })
}

/// `tn N [except NAME, NAME]`: the TN, and the focal character's Injuries
/// and Stresses the GM rules not relevant, a comma list in one value
/// ("Injuries and Stresses as penalties").
fn tn(r: &Reading<'_>, focal_sheet: Option<&Character>) -> Result<Command, CommandParseError> {
    let tn = number(r, "N")?;
    let mut not_relevant = Vec::new();
    if let Some(list) = r.get("NAMES") {
        let harm: Vec<String> = focal_sheet
            .map(|c| {
                let mut v = entries(c.injuries());
                v.extend(entries(c.stresses()));
                v
            })
            .unwrap_or_default();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            not_relevant.push(pick("Injury or Stress", name, &harm)?);
        }
    }
    Ok(Command::Tn { tn, not_relevant })
}

/// `assist HELPER ELEMENT` ("Receiving Help"): the helper's element.
fn assist(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let (helper, element) = name_then_rest(r, "HELPER", "ELEMENT", &state.names())?;
    let helper = character(state, r, &helper)?;
    let element = element.ok_or_else(|| r.problem("ELEMENT is missing"))?;
    Ok(Command::Help {
        helper,
        element: element_of(sheet_of(state, helper), element.trim())?,
    })
}

/// `similar-to ENTRY` (R-SA-6): one of the target's Injuries.
fn similar_to(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let existing: Vec<String> = state
        .pending_injury
        .as_ref()
        .and_then(|p| sheet_of(state, p.character))
        .map(|c| entries(c.injuries()))
        .unwrap_or_default();
    Ok(Command::SimilarInjury {
        similar_to: Some(pick("Injury", r.require("ENTRY")?, &existing)?),
    })
}

/// `roll [with WEAPON [at TARGET]]` ("Weapons and causing Injury").
fn roll(
    state: &State,
    r: &Reading<'_>,
    focal_sheet: Option<&Character>,
) -> Result<Command, CommandParseError> {
    let Some(typed) = r.get("WEAPON") else {
        return Ok(Command::Roll {
            weapon: None,
            target: None,
        });
    };
    no_last_word(r, typed, "at", "TARGET")?;
    let arms = focal_sheet.map(weapons).unwrap_or_default();
    Ok(Command::Roll {
        weapon: Some(pick("weapon", typed, &arms)?),
        target: r
            .get("TARGET")
            .map(|t| character(state, r, t))
            .transpose()?,
    })
}

/// `injury|stress CHARACTER LEVEL WORDS [similar-to ENTRY]` (R-SA-6).
fn harm(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let character = character(state, r, r.require("CHARACTER")?)?;
    let level = r
        .which(&["minor", "moderate", "severe"])
        .and_then(Level::parse)
        .ok_or_else(|| r.problem("the level is missing"))?;
    let kind = if r.command.name == "injury" {
        HarmKind::Injury
    } else {
        HarmKind::Stress
    };
    let name = r.require("WORDS")?;
    no_last_word(r, name, "similar-to", "ENTRY")?;
    let similar_to = match r.get("ENTRY") {
        Some(typed) => {
            let existing = sheet_of(state, character)
                .map(|c| entries(track(c, kind)))
                .unwrap_or_default();
            Some(pick("entry", typed, &existing)?)
        }
        None => None,
    };
    Ok(Command::Harm {
        character,
        kind,
        level,
        name: name.to_string(),
        similar_to,
    })
}

/// `heal CHARACTER injury|stress WORDS` ("Injuries and Stresses").
fn heal(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let character = character(state, r, r.require("CHARACTER")?)?;
    let (kind, field) = if r.has("injury") {
        (HarmKind::Injury, "Injury")
    } else {
        (HarmKind::Stress, "Stress")
    };
    let existing = sheet_of(state, character)
        .map(|c| entries(track(c, kind)))
        .unwrap_or_default();
    Ok(Command::Heal {
        character,
        kind,
        name: pick(field, r.require("WORDS")?, &existing)?,
    })
}

/// `adjust CHARACTER VALUE AMOUNT`: the GM sets or changes a value
/// ([`crate::rules::RULE_LUCK`]).
fn adjust(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let character = character(state, r, r.require("CHARACTER")?)?;
    let typed = r.require("VALUE")?;
    let value = match crate::gm::Value::parse(typed) {
        Some(v) => v,
        None => {
            let found = resolve(
                "value",
                typed,
                crate::gm::Value::ALL.iter().map(|v| v.key()),
            )?;
            crate::gm::Value::parse(found)
                .ok_or_else(|| r.problem(format!("{typed:?} is not a value")))?
        }
    };
    let typed = r.require("AMOUNT")?;
    let amount = crate::gm::Amount::parse(typed).ok_or_else(|| {
        r.problem(format!(
            "the amount must be N, +N or -N (whole numbers), not {typed:?}"
        ))
    })?;
    Ok(Command::Adjust {
        character,
        value,
        amount,
    })
}

/// `add KIND|FILE.toml [as NAME] [to SEAT]` ([`crate::rules::RULE_GM_TOOLS`]).
/// A KIND ending in `.toml` is a sheet file read from `sheets`
/// ([`parse_with`]).
fn add(
    state: &State,
    r: &Reading<'_>,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let typed = r.require("KIND")?;
    no_last_word(r, typed, "as", "NAME")?;
    no_last_word(r, typed, "to", "SEAT")?;
    let name = r.get("NAME");
    if let Some(n) = name {
        no_last_word(r, n, "to", "SEAT")?;
    }
    let to = r.get("SEAT");
    if let Some(s) = to {
        no_last_word(r, s, "as", "NAME")?;
    }
    let file = names_sheet_file(typed);
    let kind = if file {
        typed.trim().to_string()
    } else {
        pick("kind", typed, &crate::gm::kinds(state))?
    };
    let to = match to {
        None => None,
        Some(s) if Seat::parse(s).is_gm() => Some("GM".to_string()),
        Some(s) => Some(pick("seat", s, &crate::gm::player_seats(state))?),
    };
    let sheet = if file {
        Some(sheet_text(&kind, sheets)?)
    } else {
        None
    };
    Ok(Command::Add {
        kind,
        name: name.map(|n| n.trim().to_string()),
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

/// The `key=value` words of a Special Talent taken by advancement
/// ("Special Talents"; [`crate::advance::parse_talent`]).
const TALENT_KEYS: [&str; 4] = ["effect", "amount", "text", "magic"];

/// `advance CHARACTER ...`: one advancement after a consequential session
/// ("Advancement", R-SA-9).
fn advance(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let i = character(state, r, r.require("CHARACTER")?)?;
    let talent = r.has("talent") || r.has("special-talent");
    if !talent && !r.keys.is_empty() {
        return Err(r.problem("effect=, amount=, text= and magic= go with talent NAME"));
    }
    let advance = if talent {
        let mut words = vec![r.require("NAME")?.to_string()];
        for key in TALENT_KEYS {
            if let Some(v) = r.key(key) {
                words.push(format!("{key}={v}"));
            }
        }
        Advance::SpecialTalent {
            talent: crate::advance::parse_talent(&words).map_err(|e| r.problem(e))?,
        }
    } else if r.has("side-specialization") {
        let sides = sheet_of(state, i).map(sides).unwrap_or_default();
        if sides.is_empty() {
            return Err(r.problem("the character has no Side Profession"));
        }
        let (side, name) = name_then_rest(r, "SIDE", "NAME", &sides)?;
        let name = name.ok_or_else(|| r.problem("NAME is missing"))?;
        Advance::SideSpecialization {
            profession: pick("Side Profession", &side, &sides)?,
            name: name.trim().to_string(),
        }
    } else {
        let name = text(r, "NAME")?;
        if r.has("specialization") {
            Advance::ProfessionSpecialization { name }
        } else if r.has("side-profession") {
            Advance::SideProfession { name }
        } else {
            Advance::Quality { name }
        }
    };
    Ok(Command::Advance {
        character: i,
        advance,
    })
}

/// `change CHARACTER ...`: a change on completing an advancement cycle
/// ("Advancement").
fn change(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let i = character(state, r, r.require("CHARACTER")?)?;
    let sheet = sheet_of(state, i);
    let change = if r.has("swap") {
        let sides = sheet.map(sides).unwrap_or_default();
        CycleChange::Swap {
            side: pick("Side Profession", r.require("SIDE")?, &sides)?,
        }
    } else if r.has("word") {
        let names = sheet.map(professions).unwrap_or_default();
        CycleChange::ProfessionWord {
            profession: pick("Profession", r.require("PROFESSION")?, &names)?,
            to: text(r, "NEW")?,
        }
    } else {
        let names = sheet
            .map(|c| c.sheet().qualities.clone())
            .unwrap_or_default();
        CycleChange::Quality {
            from: pick("Quality", r.require("OLD")?, &names)?,
            to: text(r, "NEW")?,
        }
    };
    Ok(Command::Change {
        character: i,
        change,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sapio;
    use tabula_core::system::TextPlay;

    /// Two characters with two-word names, playing the same sheet.
    fn iron() -> State {
        let one = |name: &str, player: &str| {
            format!(
                "[[characters]]\nsheet = {{ name = \"{name}\", player = \"{player}\", qualities = [\"Strong\", \"Quick\"], principle = \"p\", worst_impulse = \"w\", profession = {{ name = \"Ship Pilot\", specializations = [\"Evasion\"] }}, side_professions = [{{ name = \"Ship Cook\" }}], special_talents = [{{ name = \"Steady\" }}] }}\n"
            )
        };
        let text = one("Iron Wolf", "Ana") + &one("Iron Maiden", "Ben");
        Sapio::setup(&text, &tabula_core::files::NoSheets).unwrap()
    }

    fn read(s: &State, line: &str) -> Result<Command, CommandParseError> {
        parse(s, &Seat::Gm, line)
    }

    /// Two unquoted names one after the other split where the table's names
    /// do (`names::name_then_rest`), quoted or not.
    #[test]
    fn two_unquoted_names_split_by_the_names_at_the_table() {
        let s = iron();
        let want = Command::Confront {
            aggressor: 0,
            defender: 1,
        };
        for line in [
            "confront Iron Wolf Iron Maiden",
            "confront \"Iron Wolf\" \"Iron Maiden\"",
            "confront Iron_Wolf iron m",
            "confront iron_w Iron Maiden",
        ] {
            assert_eq!(read(&s, line).unwrap(), want, "{line}");
        }
        assert_eq!(
            read(&s, "assist Iron Maiden Ship Cook").unwrap(),
            Command::Help {
                helper: 1,
                element: "Ship Cook".into()
            }
        );
        assert_eq!(
            read(&s, "release Iron Wolf").unwrap(),
            Command::Release {
                character: 0,
                element: None
            }
        );
        let e = read(&s, "confront Iron Wolf").unwrap_err().to_string();
        assert!(e.contains("DEFENDER is missing"), "{e}");
        assert_eq!(
            read(
                &s,
                "advance Iron Wolf side-specialization Ship Cook Galley Fires"
            )
            .unwrap(),
            Command::Advance {
                character: 0,
                advance: Advance::SideSpecialization {
                    profession: "Ship Cook".into(),
                    name: "Galley Fires".into()
                }
            }
        );
    }

    /// A keyword typed last with nothing after it is refused, naming what is
    /// missing (`names::no_last_word`); `add` takes `as` and `to` in either
    /// order.
    #[test]
    fn a_last_keyword_is_refused_and_add_takes_as_and_to_in_either_order() {
        let s = iron();
        for (line, missing) in [
            ("roll with Knife at", "TARGET is missing"),
            (
                "injury \"Iron Wolf\" minor Cut similar-to",
                "ENTRY is missing",
            ),
            ("add enforcer as", "NAME is missing"),
            ("add enforcer as Bo to", "SEAT is missing"),
            ("add enforcer to Ana as", "NAME is missing"),
        ] {
            let e = read(&s, line).unwrap_err().to_string();
            assert!(e.contains(missing), "{line}: {e}");
        }
        let want = Command::Add {
            kind: "enforcer".into(),
            name: Some("Night Owl".into()),
            to: Some("Ana".into()),
            sheet: None,
        };
        assert_eq!(read(&s, "add enforcer as Night Owl to ana").unwrap(), want);
        assert_eq!(read(&s, "add enforcer to Ana as Night Owl").unwrap(), want);
    }

    /// The words the old parser took beside the usage's first spelling:
    /// `fully`/`partly`, `worst-impulse`, `special-talent`, `magic=true`.
    #[test]
    fn other_spellings_still_read() {
        let s = iron();
        assert!(matches!(
            read(&s, "declare worst-impulse I grab it").unwrap(),
            Command::Declare {
                nature: Nature::WorstImpulse,
                ..
            }
        ));
        let Command::Advance {
            advance: Advance::SpecialTalent { talent },
            ..
        } = read(
            &s,
            "advance Iron Wolf special-talent Weather Sense magic=true text=\"Knows rain\"",
        )
        .unwrap()
        else {
            panic!()
        };
        assert_eq!(talent.name, "Weather Sense");
        assert_eq!(talent.text, "Knows rain");
        assert_eq!(talent.magic, Some(true));
        let e = read(&s, "advance Iron Wolf quality Brave magic=yes")
            .unwrap_err()
            .to_string();
        assert!(e.contains("go with talent"), "{e}");
    }
}
