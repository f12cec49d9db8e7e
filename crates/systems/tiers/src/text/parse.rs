//! Reading one command line ([`parse`]): [`tabula_core::usage::read`]
//! matches the line against its command's usage in [`COMMANDS`] (the words,
//! `...` values, `[...]` and `(...)` parts and `key=value` words); this file
//! only builds the [`Command`] from the [`Reading`]: it resolves names against
//! the table, reads numbers, Stats, Goals and amounts, and reads `move`'s path
//! (Zones joined by `>` or `,`) inside its one value.

use tabula_core::usage::{self, Reading};

use super::*;

/// The `i`-th value `name` of the line (the reader has matched the usage, so
/// a value outside `[...]` is there).
///
/// # Errors
/// [`CommandParseError::Arguments`] "NAME is missing", with the usage.
fn value<'r>(r: &'r Reading<'_>, name: &str, i: usize) -> Result<&'r str, CommandParseError> {
    r.nth(name, i)
        .ok_or_else(|| r.problem(format!("{name} is missing")))
}

/// The `i`-th Stat `STAT` by name, any case, by unambiguous prefix (`str`,
/// `SCH`).
///
/// # Errors
/// [`CommandParseError::Arguments`] when it is missing,
/// [`CommandParseError::Name`] listing the Stats when it fits none.
fn stat(r: &Reading<'_>, i: usize) -> Result<Stat, CommandParseError> {
    let w = value(r, "STAT", i)?;
    let found = resolve("Stat", w, Stat::ALL.iter().map(|s| s.key()))?;
    Stat::parse(found).ok_or_else(|| r.problem(format!("{w:?} is not a Stat")))
}

/// The whole number `name` (a value or a `key=` word), 0 when left out.
fn num(r: &Reading<'_>, name: &str) -> Result<u32, CommandParseError> {
    Ok(r.number::<u32>(name)?.unwrap_or(0))
}

/// A Goal: a number or a difficulty ("Asking for Rolls", "Suggested
/// Difficulty Curve"; [`parse_goal`]).
fn goal(r: &Reading<'_>) -> Result<u32, CommandParseError> {
    parse_goal(value(r, "GOAL", 0)?).map_err(|e| r.problem(e.to_string()))
}

/// `pay=`: a d3 when left out (the usage names the choices each command
/// takes, so the reader refuses any other).
fn pay(r: &Reading<'_>) -> Result<Pay, CommandParseError> {
    match r.key("pay") {
        None | Some("d3") => Ok(Pay::D3),
        Some("cp") => Ok(Pay::Cp),
        Some("d6") => Ok(Pay::D6),
        Some(o) => Err(r.problem(format!("pay={o} (use d3, d6 or cp)"))),
    }
}

/// The Rolls and Combat Points bought: `d6=`, `d3=`, `cp=` (0 when left out).
fn dice(r: &Reading<'_>) -> Result<Purchase, CommandParseError> {
    Ok(Purchase {
        d6: num(r, "d6")?,
        d3: num(r, "d3")?,
        combat_points: num(r, "cp")?,
    })
}

/// Resolve `typed` among `names` ([`resolve`]) and return the name as the
/// table writes it.
fn pick<'a>(
    field: &str,
    typed: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<String, CommandParseError> {
    Ok(resolve(field, typed, names)?.to_string())
}

/// The characters still in the encounter (one the GM removed is not).
fn hero_names(s: &State) -> impl Iterator<Item = &str> {
    s.heroes.iter().filter(|h| !h.left).map(|h| h.name())
}

/// The enemies still in the encounter (one the GM removed is not).
fn enemy_names(s: &State) -> impl Iterator<Item = &str> {
    s.enemies
        .iter()
        .filter(|e| !e.left)
        .map(|e| e.name.as_str())
}

fn zone_names(s: &State) -> impl Iterator<Item = &str> {
    s.zones.names().iter().map(String::as_str)
}

/// A target that may be a character, an enemy or a Zone (a roll use's
/// target): every name at the table.
fn any_target(s: &State, typed: &str) -> Result<String, CommandParseError> {
    pick(
        "target",
        typed,
        hero_names(s).chain(enemy_names(s)).chain(zone_names(s)),
    )
}

/// The target of Action `action` (already resolved): first among the names
/// its effect is used on (an enemy for damage and Competing Rolls, a player
/// for healing and reductions, a Zone for movement; R-TI-4), so a prefix
/// needs only be unique there; a name of another kind at the table is kept
/// for the rules to refuse.
fn action_target(s: &State, action: &str, typed: &str) -> Result<String, CommandParseError> {
    let narrow = match s.catalog.action(action).map(|a| a.effect) {
        Some(ActionEffect::Damage | ActionEffect::Compete) => {
            Some(resolve("enemy", typed, enemy_names(s)))
        }
        Some(ActionEffect::Heal | ActionEffect::Reduce) => {
            Some(resolve("player", typed, hero_names(s)))
        }
        Some(ActionEffect::Move) => Some(resolve("Zone", typed, zone_names(s))),
        _ => None,
    };
    match narrow {
        Some(Ok(name)) => Ok(name.to_string()),
        Some(Err(e @ NameLookupError::Ambiguous { .. })) => Err(e.into()),
        // Another kind of name at the table, or else the narrow list.
        Some(Err(e)) => any_target(s, typed).map_err(|_| e.into()),
        None => any_target(s, typed),
    }
}

/// A roll use of enemy `enemy` (already resolved): first among the uses its
/// kind may make ("Describing Rolls", "Enemies"), so a prefix need only be
/// unique there; a use of another kind is kept for the rules to refuse.
fn roll_use(s: &State, enemy: &str, typed: &str) -> Result<String, CommandParseError> {
    let kind = s
        .enemy(enemy)
        .and_then(|i| s.enemies.get(i))
        .map(|e| e.kind.clone())
        .unwrap_or_default();
    let usable = s
        .catalog
        .uses
        .iter()
        .filter(|u| u.usable_by(&kind))
        .map(|u| u.name.as_str());
    match resolve("roll use", typed, usable) {
        Ok(name) => Ok(name.to_string()),
        Err(e @ NameLookupError::Ambiguous { .. }) => Err(e.into()),
        Err(e) => resolve(
            "roll use",
            typed,
            s.catalog.uses.iter().map(|u| u.name.as_str()),
        )
        .map(str::to_string)
        .map_err(|_| e.into()),
    }
}

/// Read one command line: the line is matched against its command's usage in
/// [`COMMANDS`] by [`tabula_core::usage::read`] (the one command grammar,
/// [`tabula_core::grammar`]: `"double quotes"` group a name with spaces,
/// `act "Shield Up" on Cristy`, and a value written `NAME...` in the usage
/// may be typed unquoted, `item Fast Potion`), then every name (characters,
/// enemies, Stats, Actions, Items, roll uses, enemy kinds, Zones) matches
/// without regard to case and by unambiguous prefix (`_` stands for a
/// space), so the command carries the name as the table writes it.
///
/// # Errors
/// [`CommandParseError`]: an unknown command (listing the commands), wrong
/// arguments (with the usage from [`COMMANDS`], naming what is missing or
/// unexpected), a name that fits nothing or several (listing the names that
/// fit there), an unclosed quote.
pub fn parse(s: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    parse_with(s, seat, line, &tabula_core::files::NoSheets)
}

/// [`parse`] with the sheet files sent along with the line: the GM's `add
/// FILE.toml [as NAME] [at ZONE]` reads FILE from `sheets`
/// ([`tabula_core::files::names_sheet_file`]; issue 27, item 6).
///
/// # Errors
/// As [`parse`]; [`CommandParseError::Sheet`] when the named file was not
/// sent or cannot be read (one problem naming the file), or is not a legal
/// character of this book (every broken rule, [`crate::gm::read_sheet`]).
pub fn parse_with(
    s: &State,
    seat: &Seat,
    line: &str,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let first = words(line)?.into_iter().next().unwrap_or_default();
    if first.is_empty() {
        return Err(CommandParseError::unknown_command("", COMMANDS));
    }
    if find_command(COMMANDS, &first).is_none() {
        return ally_or_unknown(s, seat, line, &first);
    }
    let r = usage::read(COMMANDS, line)?;
    let c = r.command.name;
    match c {
        "roll" | "compete" | "pvp" | "consent" | "super6" | "rest" => read_out_of_combat(s, &r, c),
        "fight" | "end-phase" | "end-combat" | "close" | "adjust" | "add" | "remove" => {
            read_table(s, &r, c, sheets)
        }
        "act" | "move" | "item" | "roleplay" => read_player_phase(s, &r, c),
        _ => read_enemy_side(s, &r, c),
    }
}

/// A line whose first word is no command: the GM giving an NPC ally's
/// command, or else an unknown command.
///
/// "Phases": the GM plays the NPC allies, `GM: Steve move Yard`. This stays a
/// step before [`usage::read`] because the usage language cannot say it: the
/// prefix is the GM's only (a player's line is never read so), it is a name
/// resolved against the table's characters by prefix, and the rest of the
/// line is read as that ally's own line (as its seat), whichever of its
/// commands it is.
fn ally_or_unknown(
    s: &State,
    seat: &Seat,
    line: &str,
    first: &str,
) -> Result<Command, CommandParseError> {
    if seat.is_gm() {
        let ally = match resolve("character", first, hero_names(s)) {
            Ok(a) => Some(a.to_string()),
            Err(e @ NameLookupError::Ambiguous { .. }) => return Err(e.into()),
            Err(NameLookupError::Unknown { .. }) => None,
        };
        if let Some(ally) = ally {
            let rest = rest_after_first(line);
            if rest.is_empty() {
                return Err(CommandParseError::Arguments {
                    command: ally,
                    problem: "the ally's command is missing".into(),
                    usage: "ALLY act|move|item|roleplay|roll|rest ...".into(),
                });
            }
            let does = parse(s, &Seat::Player(ally.clone()), rest)?;
            return Ok(Command::Ally {
                ally,
                does: Box::new(does),
            });
        }
    }
    let mut e = CommandParseError::unknown_command(&first.to_ascii_lowercase(), COMMANDS);
    if let CommandParseError::Unknown { known, .. } = &mut e {
        let allies: Vec<&str> = s
            .heroes
            .iter()
            .filter(|h| h.ally)
            .map(|h| h.name())
            .collect();
        if !allies.is_empty() {
            known.push_str(&format!(
                "; the GM plays an NPC ally with ALLY COMMAND ({})",
                allies.join(", ")
            ));
        }
    }
    Err(e)
}

/// The commands out of combat: `roll`, `compete`, `pvp`, `consent`, `super6`, `rest`.
fn read_out_of_combat(s: &State, r: &Reading<'_>, c: &str) -> Result<Command, CommandParseError> {
    match c {
        "roll" => Ok(Command::Roll {
            stat: stat(r, 0)?,
            goal: goal(r)?,
        }),
        "compete" => Ok(Command::Compete {
            first: pick("character", value(r, "CHARACTER", 0)?, hero_names(s))?,
            first_stat: stat(r, 0)?,
            second: pick("character", value(r, "CHARACTER", 1)?, hero_names(s))?,
            second_stat: stat(r, 1)?,
        }),
        "pvp" => Ok(Command::Pvp {
            actor: pick("character", value(r, "ACTOR", 0)?, hero_names(s))?,
            actor_stat: stat(r, 0)?,
            defendant: pick("character", value(r, "DEFENDANT", 0)?, hero_names(s))?,
            defendant_stat: stat(r, 1)?,
        }),
        "consent" => Ok(Command::Consent {
            actor: pick("character", value(r, "ACTOR", 0)?, hero_names(s))?,
        }),
        "super6" => Ok(Command::Super6),
        "rest" => Ok(Command::Rest {
            hours: num(r, "HOURS")?,
        }),
        _ => Err(CommandParseError::unknown_command(c, COMMANDS)),
    }
}

/// The GM's table commands and tools: `fight`, `end-phase`, `end-combat`, `close`, `adjust`, `add`, `remove`.
fn read_table(
    s: &State,
    r: &Reading<'_>,
    c: &str,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    match c {
        "fight" => Ok(Command::Fight),
        "end-phase" => Ok(Command::EndPhase),
        "end-combat" => Ok(Command::EndCombat),
        "close" => Ok(Command::Close),
        "adjust" => {
            // `adjust reserve AMOUNT`: the pool's reserve is Health.
            let (character, value) = if r.has(crate::gm::RESERVE) {
                (crate::gm::RESERVE.to_string(), crate::gm::HeroValue::Health)
            } else {
                let typed = r.get("CHARACTER").or_else(|| r.get("ENEMY"));
                let typed = typed.ok_or_else(|| r.problem("CHARACTER is missing"))?;
                let character = pick(
                    "character",
                    typed,
                    hero_names(s)
                        .chain(enemy_names(s))
                        .chain(std::iter::once(crate::gm::RESERVE)),
                )?;
                let typed = self::value(r, "VALUE", 0)?;
                let value = match crate::gm::HeroValue::parse(typed) {
                    Some(v) => v,
                    None => {
                        let key = resolve(
                            "value",
                            typed,
                            crate::gm::HeroValue::ALL.iter().map(|v| v.key()),
                        )?;
                        crate::gm::HeroValue::parse(key)
                            .ok_or_else(|| r.problem(format!("{typed:?} is not a value")))?
                    }
                };
                (character, value)
            };
            let typed = self::value(r, "AMOUNT", 0)?;
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
        "add" => {
            let (kind, sheet) = add_kind(s, value(r, "CHARACTER", 0)?, sheets)?;
            Ok(Command::Add {
                kind,
                sheet,
                name: r.get("NAME").map(|n| n.replace('_', " ")),
                zone: match r.get("ZONE") {
                    Some(z) => Some(pick("Zone", z, zone_names(s))?),
                    None => None,
                },
            })
        }
        "remove" => Ok(Command::Remove {
            character: pick(
                "character",
                value(r, "CHARACTER", 0)?,
                hero_names(s).chain(enemy_names(s)),
            )?,
        }),
        _ => Err(CommandParseError::unknown_command(c, COMMANDS)),
    }
}

/// The Player Phase: `act`, `move`, `item`, `roleplay`.
fn read_player_phase(s: &State, r: &Reading<'_>, c: &str) -> Result<Command, CommandParseError> {
    match c {
        "act" => {
            let action = pick(
                "Action",
                value(r, "ACTION", 0)?,
                s.catalog.actions.iter().map(|a| a.name.as_str()),
            )?;
            let target = match r.get("TARGET") {
                Some(t) => Some(action_target(s, &action, t)?),
                None => None,
            };
            Ok(Command::Act {
                action,
                target,
                cover: r.has("cover"),
            })
        }
        "move" => {
            // "Movement": the path is Zones joined by `>` (or `,`), each
            // touching the one before (`move Yard > Shop`, `move Yard>Shop`).
            let path: Vec<String> = value(r, "PATH", 0)?
                .split(['>', ','])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(|z| pick("Zone", z, zone_names(s)))
                .collect::<Result<_, _>>()?;
            if path.is_empty() {
                return Err(r.problem("PATH names no Zone"));
            }
            Ok(Command::Move { path })
        }
        "item" => Ok(Command::UseItem {
            item: pick(
                "Item",
                value(r, "ITEM", 0)?,
                s.catalog.items.iter().map(|i| i.name.as_str()),
            )?,
            target: match r.get("PLAYER") {
                Some(t) => Some(pick("player", t, hero_names(s))?),
                None => None,
            },
        }),
        "roleplay" => {
            let st = stat(r, 0)?;
            let d3 = num(r, "D3")?;
            match r.get("ENEMY") {
                Some(enemy) => Ok(Command::RoleplayVs {
                    enemy: pick("enemy", enemy, enemy_names(s))?,
                    stat: st,
                    d3,
                }),
                // `roleplay STAT D3 vs` reads `vs` as the Goal: say what
                // is missing instead.
                None if r.get("GOAL").is_some_and(|g| g.eq_ignore_ascii_case("vs")) => {
                    Err(r.problem("ENEMY is missing"))
                }
                None => Ok(Command::Roleplay {
                    stat: st,
                    d3,
                    goal: goal(r)?,
                }),
            }
        }
        _ => Err(CommandParseError::unknown_command(c, COMMANDS)),
    }
}

/// The GM's enemy side: `answer`, `spend`, `move-enemy`, `move-player`, `spawn`, `sink`, `emerge`, `ensnare`, `absorb` (the last, as before, for any other command of the list).
fn read_enemy_side(s: &State, r: &Reading<'_>, c: &str) -> Result<Command, CommandParseError> {
    match c {
        "answer" => Ok(Command::Answer { raise: dice(r)? }),
        "spend" => {
            let en = pick("enemy", value(r, "ENEMY", 0)?, enemy_names(s))?;
            let use_name = roll_use(s, &en, value(r, "USE", 0)?)?;
            Ok(Command::Spend {
                enemy: en,
                use_name,
                dice: dice(r)?,
                heal_d6: num(r, "heal")?,
                target: match r.get("TARGET") {
                    Some(t) => Some(any_target(s, t)?),
                    None => None,
                },
                to: match r.key("to") {
                    Some(z) => Some(pick("Zone", z, zone_names(s))?),
                    None => None,
                },
            })
        }
        "move-enemy" => Ok(Command::MoveEnemy {
            enemy: pick("enemy", value(r, "ENEMY", 0)?, enemy_names(s))?,
            to: pick("Zone", value(r, "ZONE", 0)?, zone_names(s))?,
            pay: pay(r)?,
        }),
        "move-player" => Ok(Command::MovePlayer {
            player: pick("player", value(r, "PLAYER", 0)?, hero_names(s))?,
            to: pick("Zone", value(r, "ZONE", 0)?, zone_names(s))?,
            pay: pay(r)?,
        }),
        "spawn" => {
            let zone = r.key("zone").ok_or_else(|| r.problem("zone= is missing"))?;
            Ok(Command::Spawn {
                name: value(r, "NAME", 0)?.to_string(),
                kind: pick(
                    "enemy kind",
                    value(r, "KIND", 0)?,
                    s.catalog.enemies.iter().map(|k| k.name.as_str()),
                )?,
                health: num(r, "health")?,
                zone: pick("Zone", zone, zone_names(s))?,
            })
        }
        "sink" => Ok(Command::Sink {
            enemy: pick("enemy", value(r, "ENEMY", 0)?, enemy_names(s))?,
            pay: pay(r)?,
        }),
        "emerge" => Ok(Command::Emerge {
            enemy: pick("enemy", value(r, "ENEMY", 0)?, enemy_names(s))?,
            pay: pay(r)?,
        }),
        "ensnare" => Ok(Command::Ensnare {
            enemy: pick("enemy", value(r, "ENEMY", 0)?, enemy_names(s))?,
            player: pick("player", value(r, "PLAYER", 0)?, hero_names(s))?,
            pay: pay(r)?,
        }),
        _ => Ok(Command::Absorb {
            enemy: pick("enemy", value(r, "ENEMY", 0)?, enemy_names(s))?,
            dice: dice(r)?,
        }),
    }
}

/// What `add` brings in: a kind the table knows ([`crate::gm::addable`], by
/// name), or an uploaded sheet `typed` names (`mira.toml`), read from
/// `sheets` and checked with the book's validating reader; then the kind is
/// the file's name as typed and the sheet's text goes with the command
/// (`decide` checks it again).
///
/// # Errors
/// [`CommandParseError::Sheet`] naming the file and every problem; a kind
/// that fits none or several ([`CommandParseError::Name`]).
fn add_kind(
    s: &State,
    typed: &str,
    sheets: &dyn SheetFiles,
) -> Result<(String, Option<String>), CommandParseError> {
    if tabula_core::files::names_sheet_file(typed) {
        let file = typed.trim().to_string();
        let text = tabula_core::files::read_checked_sheet(sheets, &file, crate::gm::read_sheet)?;
        return Ok((file, Some(text)));
    }
    let addable = crate::gm::addable(s);
    let kind = pick("character", typed, addable.iter().map(|ch| ch.name()))?;
    Ok((kind, None))
}

/// The line after its first word (quoted or not), trimmed.
fn rest_after_first(line: &str) -> &str {
    let t = line.trim_start();
    let end = if t.starts_with(['"', '\u{201c}', '\u{201d}']) {
        t.char_indices()
            .skip(1)
            .find(|(_, ch)| matches!(ch, '"' | '\u{201c}' | '\u{201d}'))
            .map_or(t.len(), |(i, ch)| i + ch.len_utf8())
    } else {
        t.find(char::is_whitespace).unwrap_or(t.len())
    };
    t.get(end..).unwrap_or("").trim()
}
