//! Reading one command line ([`parse`]).

use super::*;

struct Line {
    cmd: String,
    words: Vec<String>,
    keys: BTreeMap<String, String>,
}

/// Split a line in the one command grammar: the command, its words, and its
/// `key=value` options (a quoted value may hold spaces: `to="Ice Cream Shop"`).
fn split(line: &str) -> Result<Line, CommandParseError> {
    let mut it = words(line)?.into_iter();
    let cmd = it.next().unwrap_or_default().to_ascii_lowercase();
    let mut ws = Vec::new();
    let mut keys = BTreeMap::new();
    for w in it {
        match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => {
                keys.insert(k.to_ascii_lowercase(), v.to_string());
            }
            _ => ws.push(w),
        }
    }
    Ok(Line {
        cmd,
        words: ws,
        keys,
    })
}

/// A Stat by name, any case, by unambiguous prefix (`str`, `SCH`).
///
/// # Errors
/// [`CommandParseError::Arguments`] when it is missing,
/// [`CommandParseError::Name`] listing the Stats when it fits none.
fn stat(cmd: &str, w: Option<&String>) -> Result<Stat, CommandParseError> {
    let w = w.ok_or_else(|| args(cmd, "a Stat is missing"))?;
    let found = resolve("Stat", w, Stat::ALL.iter().map(|s| s.key()))?;
    Stat::parse(found).ok_or_else(|| args(cmd, format!("{w:?} is not a Stat")))
}

fn num(cmd: &str, name: &str, w: Option<&str>) -> Result<u32, CommandParseError> {
    match w {
        None => Ok(0),
        Some(t) => t
            .parse::<u32>()
            .map_err(|_| args(cmd, format!("{name} must be a whole number, not {t:?}"))),
    }
}

fn word(cmd: &str, what: &str, w: Option<&String>) -> Result<String, CommandParseError> {
    w.cloned()
        .ok_or_else(|| args(cmd, format!("{what} is missing")))
}

fn pay(cmd: &str, w: Option<&String>) -> Result<Pay, CommandParseError> {
    match w.map(|x| x.to_ascii_lowercase()).as_deref() {
        None | Some("d3") => Ok(Pay::D3),
        Some("cp") => Ok(Pay::Cp),
        Some("d6") => Ok(Pay::D6),
        Some(o) => Err(args(cmd, format!("pay={o} (use d3, d6 or cp)"))),
    }
}

fn dice(l: &Line) -> Result<Purchase, CommandParseError> {
    for k in l.keys.keys() {
        if !["d6", "d3", "cp", "heal", "to", "pay", "health", "zone"].contains(&k.as_str()) {
            return Err(args(&l.cmd, format!("unknown key {k}=")));
        }
    }
    let key = |k: &str| l.keys.get(k).map(String::as_str);
    Ok(Purchase {
        d6: num(&l.cmd, "d6", key("d6"))?,
        d3: num(&l.cmd, "d3", key("d3"))?,
        combat_points: num(&l.cmd, "cp", key("cp"))?,
    })
}

/// Split words at a lone `on`: (before, after).
fn split_on(words: &[String]) -> (Vec<String>, Option<Vec<String>>) {
    match words.iter().position(|w| w.eq_ignore_ascii_case("on")) {
        Some(p) => (
            words.get(..p).map(<[_]>::to_vec).unwrap_or_default(),
            Some(words.get(p + 1..).map(<[_]>::to_vec).unwrap_or_default()),
        ),
        None => (words.to_vec(), None),
    }
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

/// Read one command line in the one command grammar
/// ([`tabula_core::grammar`]): `"double quotes"` group a name with spaces
/// (`act "Shield Up" on Cristy`), `_` still stands for a space, and every
/// name (characters, enemies, Stats, Actions, Items, roll uses, enemy kinds,
/// Zones) matches without regard to case and by unambiguous prefix, so the
/// command carries the name as the table writes it. Where a command takes
/// the rest of the line as a name, it may also be typed unquoted
/// (`item Fast Potion`).
///
/// # Errors
/// [`CommandParseError`]: an unknown command (listing the commands), wrong
/// arguments (with the usage from [`COMMANDS`]), a name that fits nothing or
/// several (listing the names that fit there), an unclosed quote.
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
    let l = split(line)?;
    if l.cmd.is_empty() {
        return Err(CommandParseError::unknown_command("", COMMANDS));
    }
    let Some(doc) = find_command(COMMANDS, &l.cmd) else {
        // "Phases": the GM plays the NPC allies, `GM: Steve move Yard`.
        if seat.is_gm() {
            let first = words(line)?.into_iter().next().unwrap_or_default();
            let ally = match resolve("character", &first, hero_names(s)) {
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
        let mut e = CommandParseError::unknown_command(&l.cmd, COMMANDS);
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
        return Err(e);
    };
    let c = doc.name;
    match c {
        "roll" | "compete" | "pvp" | "consent" | "super6" | "rest" => read_out_of_combat(s, &l, c),
        "fight" | "end-phase" | "end-combat" | "close" | "adjust" | "add" | "remove" => {
            read_table(s, &l, c, sheets)
        }
        "act" | "move" | "item" | "roleplay" => read_player_phase(s, &l, c),
        _ => read_enemy_side(s, &l, c),
    }
}

/// The commands out of combat: `roll`, `compete`, `pvp`, `consent`, `super6`, `rest`.
fn read_out_of_combat(s: &State, l: &Line, c: &str) -> Result<Command, CommandParseError> {
    let w = &l.words;
    match c {
        "roll" => {
            let goal =
                parse_goal(&word(c, "the Goal", w.get(1))?).map_err(|e| args(c, e.to_string()))?;
            Ok(Command::Roll {
                stat: stat(c, w.first())?,
                goal,
            })
        }
        "compete" | "pvp" => {
            let a = pick(
                "character",
                &word(c, "the first character", w.first())?,
                hero_names(s),
            )?;
            let sa = stat(c, w.get(1))?;
            let b = pick(
                "character",
                &word(c, "the second character", w.get(2))?,
                hero_names(s),
            )?;
            let sb = stat(c, w.get(3))?;
            Ok(if c == "pvp" {
                Command::Pvp {
                    actor: a,
                    actor_stat: sa,
                    defendant: b,
                    defendant_stat: sb,
                }
            } else {
                Command::Compete {
                    first: a,
                    first_stat: sa,
                    second: b,
                    second_stat: sb,
                }
            })
        }
        "consent" => Ok(Command::Consent {
            actor: pick(
                "character",
                &word(c, "the actor", w.first())?,
                hero_names(s),
            )?,
        }),
        "super6" => Ok(Command::Super6),
        "rest" => Ok(Command::Rest {
            hours: num(c, "hours", w.first().map(String::as_str))?,
        }),
        _ => Err(CommandParseError::unknown_command(c, COMMANDS)),
    }
}

/// The GM's table commands and tools: `fight`, `end-phase`, `end-combat`, `close`, `adjust`, `add`, `remove`.
fn read_table(
    s: &State,
    l: &Line,
    c: &str,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let w = &l.words;
    match c {
        "fight" => Ok(Command::Fight),
        "end-phase" => Ok(Command::EndPhase),
        "end-combat" => Ok(Command::EndCombat),
        "close" => Ok(Command::Close),
        "adjust" => {
            let character = pick(
                "character",
                &word(c, "the character", w.first())?,
                hero_names(s)
                    .chain(enemy_names(s))
                    .chain(std::iter::once(crate::gm::RESERVE)),
            )?;
            // `adjust reserve AMOUNT`: the pool's reserve is Health.
            let reserve = w.len() == 2
                && s.hero(&character).is_none()
                && s.enemy(&character).is_none()
                && tabula_core::names::same_name(&character, crate::gm::RESERVE);
            let value = if reserve {
                crate::gm::HeroValue::Health
            } else {
                let typed = word(c, "the value", w.get(1))?;
                match crate::gm::HeroValue::parse(&typed) {
                    Some(v) => v,
                    None => {
                        let key = resolve(
                            "value",
                            &typed,
                            crate::gm::HeroValue::ALL.iter().map(|v| v.key()),
                        )?;
                        crate::gm::HeroValue::parse(key)
                            .ok_or_else(|| args(c, format!("{typed:?} is not a value")))?
                    }
                }
            };
            let at = if reserve { 1 } else { 2 };
            let typed = word(c, "the amount", w.get(at))?;
            let amount = crate::gm::Amount::parse(&typed).ok_or_else(|| {
                args(
                    c,
                    format!("the amount must be N, +N or -N (whole numbers), not {typed:?}"),
                )
            })?;
            if w.len() > at + 1 {
                return Err(args(
                    c,
                    "adjust takes CHARACTER VALUE AMOUNT (or reserve AMOUNT)",
                ));
            }
            Ok(Command::Adjust {
                character,
                value,
                amount,
            })
        }
        "add" => {
            // add KIND [as NAME] [at ZONE], the keywords in any case.
            let mut kind: Vec<&str> = Vec::new();
            let mut name: Option<Vec<&str>> = None;
            let mut zone: Option<Vec<&str>> = None;
            let mut into = 0;
            for x in w {
                if x.eq_ignore_ascii_case("as") && name.is_none() {
                    name = Some(Vec::new());
                    into = 1;
                } else if x.eq_ignore_ascii_case("at") && zone.is_none() {
                    zone = Some(Vec::new());
                    into = 2;
                } else {
                    match into {
                        1 => name.get_or_insert_with(Vec::new).push(x),
                        2 => zone.get_or_insert_with(Vec::new).push(x),
                        _ => kind.push(x),
                    }
                }
            }
            if kind.is_empty() {
                return Err(args(c, "the character to add is missing"));
            }
            let (kind, sheet) = add_kind(s, &kind.join(" "), sheets)?;
            let name = match name {
                Some(n) if n.is_empty() => return Err(args(c, "the name after `as` is missing")),
                Some(n) => Some(n.join(" ").replace('_', " ")),
                None => None,
            };
            let zone = match zone {
                Some(z) if z.is_empty() => return Err(args(c, "the Zone after `at` is missing")),
                Some(z) => Some(pick("Zone", &z.join(" "), zone_names(s))?),
                None => None,
            };
            Ok(Command::Add {
                kind,
                sheet,
                name,
                zone,
            })
        }
        "remove" => {
            let typed = w.join(" ");
            if typed.is_empty() {
                return Err(args(c, "the character to remove is missing"));
            }
            Ok(Command::Remove {
                character: pick("character", &typed, hero_names(s).chain(enemy_names(s)))?,
            })
        }
        _ => Err(CommandParseError::unknown_command(c, COMMANDS)),
    }
}

/// The Player Phase: `act`, `move`, `item`, `roleplay`.
fn read_player_phase(s: &State, l: &Line, c: &str) -> Result<Command, CommandParseError> {
    let w = &l.words;
    match c {
        "act" => {
            let mut words = w.clone();
            let cover = words
                .last()
                .is_some_and(|x| x.eq_ignore_ascii_case("cover"));
            if cover {
                words.pop();
            }
            let (name, target) = split_on(&words);
            if name.is_empty() {
                return Err(args(c, "the Action is missing"));
            }
            let action = pick(
                "Action",
                &name.join(" "),
                s.catalog.actions.iter().map(|a| a.name.as_str()),
            )?;
            let target = match target.filter(|t| !t.is_empty()) {
                Some(t) => Some(action_target(s, &action, &t.join(" "))?),
                None => None,
            };
            Ok(Command::Act {
                action,
                target,
                cover,
            })
        }
        "move" => {
            let rest = w.join(" ");
            let path: Vec<String> = rest
                .split(['>', ','])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(|z| pick("Zone", z, zone_names(s)))
                .collect::<Result<_, _>>()?;
            if path.is_empty() {
                return Err(args(c, "the Zone is missing"));
            }
            Ok(Command::Move { path })
        }
        "item" => {
            let (name, target) = split_on(w);
            if name.is_empty() {
                return Err(args(c, "the Item is missing"));
            }
            Ok(Command::UseItem {
                item: pick(
                    "Item",
                    &name.join(" "),
                    s.catalog.items.iter().map(|i| i.name.as_str()),
                )?,
                target: match target.filter(|t| !t.is_empty()) {
                    Some(t) => Some(pick("player", &t.join(" "), hero_names(s))?),
                    None => None,
                },
            })
        }
        "roleplay" => {
            let st = stat(c, w.first())?;
            let d3 = num(c, "d3", Some(&word(c, "the number of d3", w.get(1))?))?;
            if w.get(2).is_some_and(|x| x.eq_ignore_ascii_case("vs")) {
                Ok(Command::RoleplayVs {
                    enemy: pick("enemy", &word(c, "the enemy", w.get(3))?, enemy_names(s))?,
                    stat: st,
                    d3,
                })
            } else {
                let goal = parse_goal(&word(c, "the Goal", w.get(2))?)
                    .map_err(|e| args(c, e.to_string()))?;
                Ok(Command::Roleplay { stat: st, d3, goal })
            }
        }
        _ => Err(CommandParseError::unknown_command(c, COMMANDS)),
    }
}

/// The GM's enemy side: `answer`, `spend`, `move-enemy`, `move-player`, `spawn`, `sink`, `emerge`, `ensnare`, `absorb` (the last, as before, for any other command of the list).
fn read_enemy_side(s: &State, l: &Line, c: &str) -> Result<Command, CommandParseError> {
    let w = &l.words;
    match c {
        "answer" => Ok(Command::Answer { raise: dice(l)? }),
        "spend" => {
            let (before, target) = split_on(w);
            let en = pick(
                "enemy",
                &word(c, "the enemy", before.first())?,
                enemy_names(s),
            )?;
            let use_name = before.get(1..).map(|x| x.join(" ")).unwrap_or_default();
            if use_name.is_empty() {
                return Err(args(c, "the roll use is missing (Bite, Block, ...)"));
            }
            let use_name = roll_use(s, &en, &use_name)?;
            Ok(Command::Spend {
                enemy: en,
                use_name,
                dice: dice(l)?,
                heal_d6: num(c, "heal", l.keys.get("heal").map(String::as_str))?,
                target: match target.filter(|t| !t.is_empty()) {
                    Some(t) => Some(any_target(s, &t.join(" "))?),
                    None => None,
                },
                to: match l.keys.get("to") {
                    Some(z) => Some(pick("Zone", z, zone_names(s))?),
                    None => None,
                },
            })
        }
        "move-enemy" | "move-player" => {
            let who = word(c, "who moves", w.first())?;
            let to = w.get(1..).map(|x| x.join(" ")).unwrap_or_default();
            if to.is_empty() {
                return Err(args(c, "the Zone is missing"));
            }
            let to = pick("Zone", &to, zone_names(s))?;
            let pay = pay(c, l.keys.get("pay"))?;
            Ok(if c == "move-enemy" {
                Command::MoveEnemy {
                    enemy: pick("enemy", &who, enemy_names(s))?,
                    to,
                    pay,
                }
            } else {
                Command::MovePlayer {
                    player: pick("player", &who, hero_names(s))?,
                    to,
                    pay,
                }
            })
        }
        "spawn" => {
            let name = word(c, "the name", w.first())?;
            let kind = w.get(1..).map(|x| x.join(" ")).unwrap_or_default();
            if kind.is_empty() {
                return Err(args(c, "the enemy kind is missing"));
            }
            let zone = l
                .keys
                .get("zone")
                .ok_or_else(|| args(c, "zone= is missing"))?;
            Ok(Command::Spawn {
                name,
                kind: pick(
                    "enemy kind",
                    &kind,
                    s.catalog.enemies.iter().map(|k| k.name.as_str()),
                )?,
                health: num(c, "health", l.keys.get("health").map(String::as_str))?,
                zone: pick("Zone", zone, zone_names(s))?,
            })
        }
        "sink" | "emerge" => {
            let en = pick("enemy", &word(c, "the enemy", w.first())?, enemy_names(s))?;
            let pay = pay(c, l.keys.get("pay"))?;
            Ok(if c == "sink" {
                Command::Sink { enemy: en, pay }
            } else {
                Command::Emerge { enemy: en, pay }
            })
        }
        "ensnare" => Ok(Command::Ensnare {
            enemy: pick("enemy", &word(c, "the enemy", w.first())?, enemy_names(s))?,
            player: pick("player", &word(c, "the player", w.get(1))?, hero_names(s))?,
            pay: pay(c, l.keys.get("pay"))?,
        }),
        _ => Ok(Command::Absorb {
            enemy: pick("enemy", &word(c, "the enemy", w.first())?, enemy_names(s))?,
            dice: dice(l)?,
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
