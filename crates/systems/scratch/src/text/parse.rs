//! Typed commands: every line is read by the one core parser,
//! [`tabula_core::usage::read`], against the usage of its command in
//! [`COMMANDS`] (issue 26, item 1); this module only builds the [`Command`]
//! from the [`Reading`], resolving every name in it against the table and
//! checking its numbers.
//!
//! Names of characters, abilities and terrains match without regard to case,
//! with `_` or `-` for a space, and by unambiguous prefix (`"the boss"`,
//! `the_boss`, `the-boss` and `"The B"` all name The Boss, id `the-boss`). A
//! character answers to its id and its name; a name that fits nothing is
//! refused with the names that fit there.

use tabula_core::files::{NoSheets, SheetFiles};
use tabula_core::grammar::words;
use tabula_core::names::{NameLookupError, normalize, resolve};
use tabula_core::system::{CommandDoc, find_command};
use tabula_core::usage::{self, Reading};
use tabula_core::{CommandParseError, Seat};

use super::reference::{ACTION_WORDS, COMMANDS};
use crate::abilities::{Ability, Terrain};
use crate::command::{Action, Command};
use crate::state::State;

/// The error for wrong arguments of `command`, with its usage from [`COMMANDS`].
pub(crate) fn args_err(command: &str, problem: impl Into<String>) -> CommandParseError {
    CommandParseError::arguments_for(COMMANDS, command, problem)
}

/// The form character, ability and terrain names compare in: [`normalize`]d,
/// with `-` read as a space too (`the-boss` is `The Boss`, `level ground` is
/// `level-ground`).
pub fn key(name: &str) -> String {
    normalize(&name.replace('-', " "))
}

/// How a character is named in a list of candidates: its name, or its id
/// when another character has the same name.
pub(crate) fn label(state: &State, i: usize) -> String {
    let Some(c) = state.get(i) else {
        return String::new();
    };
    let name = c.character.name();
    let twins = state
        .characters
        .iter()
        .filter(|o| key(o.character.name()) == key(name))
        .count();
    if twins > 1 {
        c.id.clone()
    } else {
        name.to_string()
    }
}

/// Find the character `typed` names among `fits` (indices): the one whose id,
/// then the one whose name, is the same name ([`key`]); else the only one
/// whose id or name `typed` is the start of. Returns its index.
///
/// # Errors
/// [`NameLookupError::Unknown`] listing the characters of `fits`;
/// [`NameLookupError::Ambiguous`] listing the ones `typed` could be.
pub fn resolve_character(
    state: &State,
    field: &str,
    typed: &str,
    fits: &[usize],
) -> Result<usize, NameLookupError> {
    let want = key(typed);
    let id_key = |i: &usize| state.get(*i).map(|c| key(&c.id)).unwrap_or_default();
    let name_key = |i: &usize| {
        state
            .get(*i)
            .map(|c| key(c.character.name()))
            .unwrap_or_default()
    };
    if !want.is_empty() {
        if let Some(i) = fits.iter().find(|i| id_key(i) == want) {
            return Ok(*i);
        }
        let named: Vec<usize> = fits
            .iter()
            .copied()
            .filter(|i| name_key(i) == want)
            .collect();
        let starts: Vec<usize> = if named.is_empty() {
            fits.iter()
                .copied()
                .filter(|i| id_key(i).starts_with(&want) || name_key(i).starts_with(&want))
                .collect()
        } else {
            named
        };
        match starts.as_slice() {
            [one] => return Ok(*one),
            [] => {}
            many => {
                return Err(NameLookupError::Ambiguous {
                    field: field.into(),
                    got: typed.trim().into(),
                    matches: many.iter().map(|i| label(state, *i)).collect(),
                });
            }
        }
    }
    Err(NameLookupError::Unknown {
        field: field.into(),
        got: typed.trim().into(),
        candidates: fits.iter().map(|i| label(state, *i)).collect(),
    })
}

pub(crate) fn everyone(state: &State) -> Vec<usize> {
    (0..state.characters.len()).collect()
}

/// The id of the character `typed` names (any character at the table).
fn character_id(state: &State, field: &str, typed: &str) -> Result<String, CommandParseError> {
    let i = resolve_character(state, field, typed, &everyone(state))?;
    Ok(state.get(i).map(|c| c.id.clone()).unwrap_or_default())
}

/// Read an ability name: any case, by unambiguous prefix ("Abilities").
///
/// # Errors
/// [`CommandParseError::Name`] listing the abilities.
pub fn ability_arg(text: &str) -> Result<Ability, CommandParseError> {
    let keys: Vec<String> = Ability::ALL.iter().map(|a| key(a.name())).collect();
    let found = resolve("ability", &key(text), keys.iter().map(String::as_str)).map_err(|e| {
        // List the abilities as the book writes them.
        match e {
            NameLookupError::Unknown { field, .. } => NameLookupError::Unknown {
                field,
                got: text.trim().into(),
                candidates: Ability::ALL.iter().map(|a| a.name().to_string()).collect(),
            },
            NameLookupError::Ambiguous { field, matches, .. } => NameLookupError::Ambiguous {
                field,
                got: text.trim().into(),
                matches,
            },
        }
    })?;
    Ability::ALL
        .into_iter()
        .find(|a| key(a.name()) == found)
        .ok_or_else(|| {
            CommandParseError::Name(NameLookupError::Unknown {
                field: "ability".into(),
                got: text.into(),
                candidates: Vec::new(),
            })
        })
}

/// Read a terrain name: any case, `-`, `_` or a space between its words, by
/// unambiguous prefix ("Movement Abilities").
///
/// # Errors
/// [`CommandParseError::Name`] listing the terrains.
pub fn terrain_arg(text: &str) -> Result<Terrain, CommandParseError> {
    let names: Vec<&str> = Terrain::ALL.iter().map(|t| t.name()).collect();
    let keys: Vec<String> = names.iter().map(|n| key(n)).collect();
    let found =
        resolve("terrain", &key(text), keys.iter().map(String::as_str)).map_err(|e| match e {
            NameLookupError::Unknown { field, .. } => NameLookupError::Unknown {
                field,
                got: text.trim().into(),
                candidates: names.iter().map(|n| n.to_string()).collect(),
            },
            NameLookupError::Ambiguous { field, matches, .. } => NameLookupError::Ambiguous {
                field,
                got: text.trim().into(),
                matches,
            },
        })?;
    Terrain::ALL
        .into_iter()
        .find(|t| key(t.name()) == found)
        .ok_or_else(|| {
            CommandParseError::Name(NameLookupError::Unknown {
                field: "terrain".into(),
                got: text.into(),
                candidates: Vec::new(),
            })
        })
}

/// Read a difficulty: a whole number; one past the integer range is refused
/// as out of range, naming the parameter (the caps: -1000..=1000).
fn difficulty_arg(text: &str) -> Result<i64, CommandParseError> {
    let max = crate::rolls::MAX_NUMBER;
    match text.parse::<i64>() {
        Ok(v) => Ok(v),
        Err(_) => {
            let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
            if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                Err(args_err(
                    "roll",
                    format!("difficulty {text} is out of range: too large (-{max} to {max})"),
                ))
            } else {
                Err(args_err(
                    "roll",
                    format!("difficulty {text:?} is not a number"),
                ))
            }
        }
    }
}

impl Action {
    /// True when `word` is an action word (or an alias of one), any case.
    pub fn word_known(word: &str) -> bool {
        action_doc(word).is_some()
    }
}

/// The [`COMMANDS`] entry of action word `word`, if it is one.
fn action_doc(word: &str) -> Option<&'static CommandDoc> {
    find_command(COMMANDS, word).filter(|d| ACTION_WORDS.contains(&d.name))
}

/// The action a reading of `[CHARACTER] ACTION ...` names, with every target
/// resolved to a character id and the ability (`with ABILITY`; evade's
/// `[with] ABILITY`) read ("Basic Actions", "Attack Abilities").
fn action(state: &State, r: &Reading<'_>) -> Result<Action, CommandParseError> {
    let with = r.get("ABILITY").map(ability_arg).transpose()?;
    let target = || character_id(state, "target", r.require("TARGET")?);
    // blast: one to three targets; fight: one or two (the usage says how many).
    let targets = || -> Result<Vec<String>, CommandParseError> {
        (0..)
            .map_while(|i| r.nth("TARGET", i))
            .map(|t| character_id(state, "target", t))
            .collect()
    };
    Ok(match r.command.name {
        "attack" => Action::Attack {
            target: target()?,
            with,
        },
        "hold" => Action::Hold {
            target: target()?,
            with,
        },
        "distract" => Action::Distract {
            target: target()?,
            with,
        },
        "surprise" => Action::Surprise {
            target: target()?,
            with,
        },
        "evade" => Action::Evade { with },
        "throw" => Action::Throw { target: target()? },
        "shoot" => Action::Shoot { target: target()? },
        "knockout" => Action::Knockout { target: target()? },
        "intimidate" => Action::Intimidate { target: target()? },
        "heal" => Action::Heal { target: target()? },
        "blast" => Action::Blast {
            targets: targets()?,
        },
        "fight" => Action::Fight {
            targets: targets()?,
        },
        "escape" => Action::Escape,
        "engage" => Action::Engage,
        "cover" => Action::TakeCover,
        "leave-cover" => Action::LeaveCover,
        "end" => Action::End,
        other => return Err(r.problem(format!("{other} is not an action"))),
    })
}

/// The unknown-command error for a line whose first word is no command,
/// listing the commands and the characters (`candidates`).
fn unknown(got: &str, candidates: &[String]) -> CommandParseError {
    let known: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    CommandParseError::Unknown {
        got: got.to_string(),
        known: format!(
            "{}, or a character ({})",
            known.join(", "),
            candidates.join(", ")
        ),
    }
}

/// The id of the acting character typed before an action word; a name that
/// fits no character is an unknown command (the line may have meant one).
fn actor_id(state: &State, typed: &str) -> Result<String, CommandParseError> {
    match resolve_character(state, "character", typed, &everyone(state)) {
        Ok(i) => Ok(state.get(i).map(|c| c.id.clone()).unwrap_or_default()),
        Err(NameLookupError::Unknown { candidates, .. }) => Err(unknown(typed, &candidates)),
        Err(e) => Err(e.into()),
    }
}

/// The error for a line [`usage::read`] finds no command in, as the book
/// words it: when the first word is a character, its second word is no
/// action (listing the actions); else the first word is neither a command
/// nor a character (listing both).
fn no_command(state: &State, line: &str, e: CommandParseError) -> CommandParseError {
    if !matches!(e, CommandParseError::Unknown { .. }) {
        return e;
    }
    let Ok(all) = words(line) else {
        return e;
    };
    let Some(first) = all.first() else {
        return e;
    };
    if let Err(e) = actor_id(state, first) {
        return e;
    }
    match all.get(1) {
        Some(second) => CommandParseError::Unknown {
            got: second.clone(),
            known: ACTION_WORDS.join(", "),
        },
        None => CommandParseError::Arguments {
            command: "act".into(),
            problem: "an action is missing".into(),
            usage: "CHARACTER ACTION [TARGET...] [with ABILITY]".into(),
        },
    }
}

/// Read one command line (without the seat prefix) with
/// [`tabula_core::usage::read`], resolving every character, ability and
/// terrain name in it; no sheet file comes with it ([`parse_with`] with
/// [`NoSheets`]).
///
/// # Errors
/// [`CommandParseError`]: an unknown command (listing the commands and the
/// characters), wrong arguments (with the usage from [`COMMANDS`]), a name
/// that fits nothing or several (listing the names), an unclosed quote;
/// [`CommandParseError::Sheet`] for the GM's `add FILE.toml`, naming the file.
pub fn parse(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    parse_with(state, seat, line, &NoSheets)
}

/// [`parse`] with the character sheet files sent along with the line: the
/// GM's `add FILE.toml [as NAME] [to SEAT]` reads `FILE.toml` from `sheets`
/// ([`tabula_core::files::names_sheet_file`]; issue 27, item 6).
///
/// # Errors
/// As [`parse`]; [`CommandParseError::Sheet`] when the GM's `add` names a
/// sheet file that was not sent, cannot be read, or is not a legal character
/// at this table (every broken rule, each naming its field or rule).
pub fn parse_with(
    state: &State,
    seat: &Seat,
    line: &str,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let r = usage::read(COMMANDS, line).map_err(|e| no_command(state, line, e))?;
    match r.command.name {
        "initiative" => Ok(Command::Initiative),
        "roll" => roll(state, &r),
        "adjust" => adjust(state, &r),
        "remove" => Ok(Command::Remove {
            character: character_id(state, "character", r.require("CHARACTER")?)?,
        }),
        "add" => crate::gm::parse_add(state, seat, &r, &words(line)?, sheets),
        "end-encounter" => Ok(Command::EndEncounter),
        "terrain" => Ok(Command::Terrain {
            terrain: terrain_arg(r.require("TERRAIN")?)?,
            present: r.has("add"),
        }),
        "craft" | "uncraft" => craft(state, &r),
        _ => {
            // An action. Without a CHARACTER before it, the actor is implied:
            // the character whose turn is on, or the only one this seat may
            // act with.
            let actor = match r.get("CHARACTER") {
                Some(typed) => actor_id(state, typed)?,
                None => {
                    let who = crate::legal::actors(state, seat);
                    let [a] = who.as_slice() else {
                        return Err(r.problem("name the character first (CHARACTER ACTION ...)"));
                    };
                    state.get(*a).map(|c| c.id.clone()).unwrap_or_default()
                }
            };
            let action = action(state, &r)?;
            Ok(Command::Act { actor, action })
        }
    }
}

/// True when `word` is one of the [`COMMANDS`] (a name or an alias, any
/// case): a character cannot be called that.
pub fn is_command_word(word: &str) -> bool {
    find_command(COMMANDS, word).is_some()
}

/// `adjust CHARACTER VALUE AMOUNT` (issue 27, item 6): the value by its word
/// or an unambiguous prefix, the amount `N`, `+N` or `-N`.
fn adjust(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let character = character_id(state, "character", r.require("CHARACTER")?)?;
    let value = r.require("VALUE")?;
    let value = match crate::gm::Value::parse(value) {
        Some(v) => v,
        None => {
            let found = resolve(
                "value",
                value,
                crate::gm::Value::ALL.iter().map(|v| v.key()),
            )?;
            crate::gm::Value::parse(found)
                .ok_or_else(|| r.problem(format!("{value:?} is not a value")))?
        }
    };
    let amount = r.require("AMOUNT")?;
    let amount = crate::gm::Amount::parse(amount).ok_or_else(|| {
        r.problem(format!(
            "the amount must be N, +N or -N (whole numbers), not {amount:?}"
        ))
    })?;
    Ok(Command::Adjust {
        character,
        value,
        amount,
    })
}

/// `roll CHARACTER [ABILITY] DIFFICULTY [requires]` ("Rolls").
fn roll(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let ability = r.get("ABILITY").map(ability_arg).transpose()?;
    let difficulty = difficulty_arg(r.require("DIFFICULTY")?)?;
    Ok(Command::Roll {
        character: character_id(state, "character", r.require("CHARACTER")?)?,
        ability,
        difficulty,
        requires: r.has("requires"),
    })
}

/// `craft CRAFTER COMPANION ABILITY [hurry]`, `uncraft CRAFTER COMPANION
/// ABILITY` ("Support Abilities").
fn craft(state: &State, r: &Reading<'_>) -> Result<Command, CommandParseError> {
    let ability = ability_arg(r.require("ABILITY")?)?;
    let crafter = character_id(state, "crafter", r.require("CRAFTER")?)?;
    let target = character_id(state, "companion", r.require("COMPANION")?)?;
    Ok(if r.command.name == "craft" {
        Command::Craft {
            crafter,
            target,
            ability,
            hurry: r.has("hurry"),
        }
    } else {
        Command::Uncraft {
            crafter,
            target,
            ability,
        }
    })
}
