//! Typed commands: the parser that reads a command line in the one command
//! grammar ([`tabula_core::grammar`]) and resolves every name in it; the
//! commands it knows are listed in [`COMMANDS`].
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

    /// Read an action: `WORD [TARGET...] [with ABILITY]`. Targets are kept as
    /// typed; [`crate::Scratch`]'s parser resolves them to ids.
    ///
    /// # Errors
    /// [`CommandParseError`] naming the argument.
    pub fn parse(words: &[&str]) -> Result<Action, CommandParseError> {
        let Some((w, rest)) = words.split_first() else {
            return Err(CommandParseError::Arguments {
                command: "act".into(),
                problem: "an action is missing".into(),
                usage: "CHARACTER ACTION [TARGET...] [with ABILITY]".into(),
            });
        };
        let Some(d) = action_doc(w) else {
            return Err(CommandParseError::Unknown {
                got: (*w).to_string(),
                known: ACTION_WORDS.join(", "),
            });
        };
        let w = d.name;
        let (args, with) = match rest.iter().position(|x| x.eq_ignore_ascii_case("with")) {
            Some(i) => {
                let after = rest.get(i + 1..).unwrap_or(&[]);
                let [ab] = after else {
                    return Err(args_err(w, "`with` takes one ability"));
                };
                (rest.get(..i).unwrap_or(&[]), Some(ability_arg(ab)?))
            }
            None => (rest, None),
        };
        let one = || -> Result<String, CommandParseError> {
            match args {
                [t] => Ok(t.to_string()),
                _ => Err(args_err(w, format!("takes one target, got {}", args.len()))),
            }
        };
        let none = || -> Result<(), CommandParseError> {
            if args.is_empty() {
                Ok(())
            } else {
                Err(args_err(w, "takes no target"))
            }
        };
        let no_with = |a: Action| -> Result<Action, CommandParseError> {
            if with.is_some() {
                Err(args_err(w, "takes no `with`"))
            } else {
                Ok(a)
            }
        };
        match w {
            "attack" => Ok(Action::Attack {
                target: one()?,
                with,
            }),
            "hold" => Ok(Action::Hold {
                target: one()?,
                with,
            }),
            "distract" => Ok(Action::Distract {
                target: one()?,
                with,
            }),
            "surprise" => Ok(Action::Surprise {
                target: one()?,
                with,
            }),
            "evade" => {
                if args.len() > 1 || (args.len() == 1 && with.is_some()) {
                    return Err(args_err(w, "takes at most one movement ability"));
                }
                let evade_with = match (args, with) {
                    ([ab], None) => Some(ability_arg(ab)?),
                    _ => with,
                };
                Ok(Action::Evade { with: evade_with })
            }
            "throw" => no_with(Action::Throw { target: one()? }),
            "shoot" => no_with(Action::Shoot { target: one()? }),
            "knockout" => no_with(Action::Knockout { target: one()? }),
            "intimidate" => no_with(Action::Intimidate { target: one()? }),
            "heal" => no_with(Action::Heal { target: one()? }),
            "blast" => {
                if args.is_empty() || args.len() > 3 {
                    return Err(args_err(w, "takes one to three targets"));
                }
                no_with(Action::Blast {
                    targets: args.iter().map(|s| s.to_string()).collect(),
                })
            }
            "fight" => {
                if args.is_empty() || args.len() > 2 {
                    return Err(args_err(w, "takes one or two targets"));
                }
                no_with(Action::Fight {
                    targets: args.iter().map(|s| s.to_string()).collect(),
                })
            }
            "escape" => none().and_then(|_| no_with(Action::Escape)),
            "engage" => none().and_then(|_| no_with(Action::Engage)),
            "cover" => none().and_then(|_| no_with(Action::TakeCover)),
            "leave-cover" => none().and_then(|_| no_with(Action::LeaveCover)),
            _ => none().and_then(|_| no_with(Action::End)),
        }
    }
}

/// The [`COMMANDS`] entry of action word `word`, if it is one.
fn action_doc(word: &str) -> Option<&'static CommandDoc> {
    find_command(COMMANDS, word).filter(|d| ACTION_WORDS.contains(&d.name))
}

/// The action with every target resolved to a character id.
fn resolve_targets(state: &State, action: Action) -> Result<Action, CommandParseError> {
    let t = |s: String| character_id(state, "target", &s);
    let ts = |v: Vec<String>| -> Result<Vec<String>, CommandParseError> {
        v.into_iter()
            .map(|s| character_id(state, "target", &s))
            .collect()
    };
    Ok(match action {
        Action::Attack { target, with } => Action::Attack {
            target: t(target)?,
            with,
        },
        Action::Hold { target, with } => Action::Hold {
            target: t(target)?,
            with,
        },
        Action::Distract { target, with } => Action::Distract {
            target: t(target)?,
            with,
        },
        Action::Surprise { target, with } => Action::Surprise {
            target: t(target)?,
            with,
        },
        Action::Throw { target } => Action::Throw { target: t(target)? },
        Action::Shoot { target } => Action::Shoot { target: t(target)? },
        Action::Knockout { target } => Action::Knockout { target: t(target)? },
        Action::Intimidate { target } => Action::Intimidate { target: t(target)? },
        Action::Heal { target } => Action::Heal { target: t(target)? },
        Action::Blast { targets } => Action::Blast {
            targets: ts(targets)?,
        },
        Action::Fight { targets } => Action::Fight {
            targets: ts(targets)?,
        },
        other => other,
    })
}

/// Read one command line (without the seat prefix) in the one command
/// grammar, resolving every character, ability and terrain name in it; no
/// sheet file comes with it ([`parse_with`] with [`NoSheets`]).
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
    let owned = words(line)?;
    let words: Vec<&str> = owned.iter().map(String::as_str).collect();
    let Some(first) = words.first() else {
        return Err(CommandParseError::unknown_command("", COMMANDS));
    };
    if let Some(d) = find_command(COMMANDS, first) {
        let args = words.get(1..).unwrap_or(&[]);
        match d.name {
            "initiative" => {
                if !args.is_empty() {
                    return Err(args_err("initiative", "takes nothing after it"));
                }
                return Ok(Command::Initiative);
            }
            "roll" => return parse_roll(state, args),
            "adjust" => return parse_adjust(state, args),
            "remove" => {
                let [character] = args else {
                    return Err(args_err("remove", "write remove CHARACTER"));
                };
                return Ok(Command::Remove {
                    character: character_id(state, "character", character)?,
                });
            }
            "add" => return crate::gm::parse_add(state, seat, args, sheets),
            "end-encounter" => {
                if !args.is_empty() {
                    return Err(args_err("end-encounter", "takes nothing after it"));
                }
                return Ok(Command::EndEncounter);
            }
            "terrain" => {
                let [change, t] = args else {
                    return Err(args_err("terrain", "write terrain add|remove TERRAIN"));
                };
                let present = match change.to_ascii_lowercase().as_str() {
                    "add" => true,
                    "remove" => false,
                    other => return Err(args_err("terrain", format!("{other:?}: add or remove"))),
                };
                let terrain = terrain_arg(t)?;
                return Ok(Command::Terrain { terrain, present });
            }
            "craft" | "uncraft" => return parse_craft(state, d.name, args),
            _ => {
                // An action; the actor is implied: the character whose turn is
                // on, or the only one this seat may act with.
                let who = crate::legal::actors(state, seat);
                let [a] = who.as_slice() else {
                    return Err(args_err(
                        d.name,
                        "name the character first (CHARACTER ACTION ...)",
                    ));
                };
                let actor = state.get(*a).map(|c| c.id.clone()).unwrap_or_default();
                let action = resolve_targets(state, Action::parse(&words)?)?;
                return Ok(Command::Act { actor, action });
            }
        }
    }
    let actor = match resolve_character(state, "character", first, &everyone(state)) {
        Ok(i) => state.get(i).map(|c| c.id.clone()).unwrap_or_default(),
        Err(NameLookupError::Unknown { candidates, .. }) => {
            let known: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
            return Err(CommandParseError::Unknown {
                got: (*first).to_string(),
                known: format!(
                    "{}, or a character ({})",
                    known.join(", "),
                    candidates.join(", ")
                ),
            });
        }
        Err(e) => return Err(e.into()),
    };
    let action = resolve_targets(state, Action::parse(words.get(1..).unwrap_or(&[]))?)?;
    Ok(Command::Act { actor, action })
}

/// True when `word` is one of the [`COMMANDS`] (a name or an alias, any
/// case): a character cannot be called that.
pub fn is_command_word(word: &str) -> bool {
    find_command(COMMANDS, word).is_some()
}

/// `roll CHARACTER [ABILITY] DIFFICULTY [requires]`.
/// `adjust CHARACTER VALUE AMOUNT` (issue 27, item 6).
fn parse_adjust(state: &State, args: &[&str]) -> Result<Command, CommandParseError> {
    let [character, value, amount] = args else {
        return Err(args_err("adjust", "write adjust CHARACTER VALUE AMOUNT"));
    };
    let character = character_id(state, "character", character)?;
    let value = match crate::gm::Value::parse(value) {
        Some(v) => v,
        None => {
            let found = resolve(
                "value",
                value,
                crate::gm::Value::ALL.iter().map(|v| v.key()),
            )?;
            crate::gm::Value::parse(found)
                .ok_or_else(|| args_err("adjust", format!("{value:?} is not a value")))?
        }
    };
    let amount = crate::gm::Amount::parse(amount).ok_or_else(|| {
        args_err(
            "adjust",
            format!("the amount must be N, +N or -N (whole numbers), not {amount:?}"),
        )
    })?;
    Ok(Command::Adjust {
        character,
        value,
        amount,
    })
}

fn parse_roll(state: &State, args: &[&str]) -> Result<Command, CommandParseError> {
    let mut rest: Vec<&str> = args.to_vec();
    let requires = rest
        .last()
        .is_some_and(|w| w.eq_ignore_ascii_case("requires"));
    if requires {
        rest.pop();
    }
    let (character, ability, difficulty) = match rest.as_slice() {
        [c, d] => (c, None, d),
        [c, a, d] => (c, Some(ability_arg(a)?), d),
        _ => {
            return Err(args_err(
                "roll",
                "write roll CHARACTER [ABILITY] DIFFICULTY [requires]",
            ));
        }
    };
    let difficulty = difficulty_arg(difficulty)?;
    Ok(Command::Roll {
        character: character_id(state, "character", character)?,
        ability,
        difficulty,
        requires,
    })
}

/// `craft CRAFTER COMPANION ABILITY [hurry]`, `uncraft CRAFTER COMPANION ABILITY`.
fn parse_craft(state: &State, name: &str, args: &[&str]) -> Result<Command, CommandParseError> {
    let craft = name == "craft";
    let (c, t, a, hurry) = match args {
        [c, t, a] => (c, t, a, false),
        [c, t, a, h] if craft && h.eq_ignore_ascii_case("hurry") => (c, t, a, true),
        [_, _, _, ..] => return Err(args_err(name, "too many arguments")),
        _ => {
            return Err(args_err(
                name,
                "name the crafter, the companion and the ability",
            ));
        }
    };
    let ability = ability_arg(a)?;
    let crafter = character_id(state, "crafter", c)?;
    let target = character_id(state, "companion", t)?;
    Ok(if craft {
        Command::Craft {
            crafter,
            target,
            ability,
            hurry,
        }
    } else {
        Command::Uncraft {
            crafter,
            target,
            ability,
        }
    })
}
