//! The storyteller's (GM's) tools (issue 27, item 6): `adjust` a character's
//! Current Stat Value mid-encounter, `add` a character and `remove` one. The
//! book leaves recovery "up to the story teller" ("Skill Mechanics") but names
//! no rule for setting a stat, nor for a participant joining or leaving an
//! Event, so the commands cite the table's own [`GM_TOOLS`] (and "Stat
//! Mechanics" for a stat's range). What the table decided where the book is
//! silent is in `docs/systems/sour-grapes.md`, "GM tools".

use tabula_core::builder::BuildProblem;
use tabula_core::files::{SheetFiles, names_sheet_file};
use tabula_core::names::{check_name, check_seat_name, resolve, same_name};
use tabula_core::usage::Reading;
use tabula_core::{CommandParseError, CommandSpec, ParamSpec, Refusal, Rule, RuleError, Seat};

use crate::cards::{CardType, book_cards, same_key};
use crate::character::Character;
use crate::command::Command;
use crate::event::Event;
use crate::rules;
use crate::state::{MAX_PARTICIPANTS, Moment, Participant, State};
use crate::stats::Stat;

/// The GM's tools: the table's own citation (issue 27, item 6).
pub const GM_TOOLS: Rule = Rule::table("GM tools (issue 27, item 6)");

/// The amount of an `adjust` (`N`, `+N`, `-N`), read as every book reads it.
pub use tabula_core::grammar::Amount;

/// The storyteller's `adjust`: set or change `who`'s Current Stat Value of
/// `stat`, within 0 to its Actual Stat Value. Lowered, it is exhausted as a
/// spend or damage exhausts it: at zero the stat is injured and its condition
/// applies (R-SG-10, R-SG-13; a Vitality at zero is Dying, and the Event ends
/// at the next turn when a side is all Dying, as after damage). Raised, it
/// recovers only where the book lets it recover (not an injured stat, not
/// under Crippled, Dazed or a zero Vitality; the storyteller `heal`s the
/// injury first).
///
/// Sour Grapes, "Stat Mechanics", "Stats" (000_05a1db5b88f54528.txt); R-SG-10,
/// R-SG-13; issue 27, item 6.
///
/// # Errors
/// An unknown character, a stat that may not recover, or a result out of
/// range ([`Refusal::OutOfRange`], an i64 overflow included); nothing changes.
pub(crate) fn adjust(s: &State, who: &str, stat: Stat, amount: Amount) -> Result<Event, RuleError> {
    let Some(p) = s.participant(who) else {
        return Err(RuleError::unknown(GM_TOOLS, "character", who));
    };
    let v = p.character.stat(stat);
    let (current, max) = (v.current, v.actual);
    let out = |got: i64| {
        RuleError::new(
            rules::STAT_MECHANICS,
            Refusal::OutOfRange {
                field: stat.name().into(),
                min: 0,
                max: i64::from(max),
                got,
            },
            format!(
                "{who}'s {stat} must stay between 0 and its Actual Stat Value {max}, not {got}"
            ),
        )
    };
    let to = match amount.apply(i64::from(current)) {
        None => return Err(out(i64::MAX)),
        Some(n) => match u32::try_from(n) {
            Ok(t) if t <= max => t,
            _ => return Err(out(n)),
        },
    };
    if to > current
        && let Some((condition, why)) = p.character.recovery_block(stat)
    {
        return Err(RuleError::condition(rules::STAT_MECHANICS, &condition, why));
    }
    Ok(Event::Adjusted {
        who: who.to_string(),
        stat,
        from: current,
        to,
    })
}

/// The book's character sheets bundled with the crate
/// (`examples/sour-grapes/*.toml`, character sheets only): kinds the
/// storyteller may `add` at any table, file name and text.
pub const BUNDLED_SHEETS: [(&str, &str); 4] = [
    (
        "example-character.toml",
        include_str!("../../../../examples/sour-grapes/example-character.toml"),
    ),
    (
        "rook.toml",
        include_str!("../../../../examples/sour-grapes/rook.toml"),
    ),
    (
        "tavern-brute.toml",
        include_str!("../../../../examples/sour-grapes/tavern-brute.toml"),
    ),
    (
        "drunk-sailor.toml",
        include_str!("../../../../examples/sour-grapes/drunk-sailor.toml"),
    ),
];

/// The bundled sheets as characters (every one validates; a test checks it).
pub fn bundled() -> Vec<Character> {
    BUNDLED_SHEETS
        .iter()
        .filter_map(|(_, text)| Character::from_toml(text).ok())
        .collect()
}

/// Every kind `add` takes, by name: the table's characters (those at the
/// table, then those who left it), then the bundled sheets whose name no
/// character of the table has.
pub fn kinds(s: &State) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let table = s.participants.iter().chain(&s.left);
    for c in table.map(|p| p.character.clone()).chain(bundled()) {
        if !out.iter().any(|n| same_name(n, c.name())) {
            out.push(c.name().to_string());
        }
    }
    out
}

/// True when a character at the table, or one that left it, is called `name`.
fn taken(s: &State, name: &str) -> bool {
    s.participants
        .iter()
        .chain(&s.left)
        .any(|p| same_name(p.character.name(), name))
}

/// `name`, or when it is taken `name 2`, `name 3`, ... (the first free one).
pub fn free_name(s: &State, name: &str) -> String {
    let name = name.trim();
    if !taken(s, name) {
        return name.to_string();
    }
    (2..=MAX_PARTICIPANTS.saturating_mul(2).saturating_add(2))
        .map(|i| format!("{name} {i}"))
        .find(|n| !taken(s, n))
        .unwrap_or_else(|| format!("{name} {}", s.participants.len() + s.left.len() + 2))
}

/// The seats `add ... to SEAT` offers: the storyteller, then every player seat
/// of the table.
pub fn seats(s: &State) -> Vec<String> {
    let mut out = vec![Seat::Gm.to_string()];
    for p in s.participants.iter().chain(&s.left) {
        let name = p.seat.to_string();
        if !out.iter().any(|n| same_name(n, &name)) {
            out.push(name);
        }
    }
    out
}

/// Every broken rule of an uploaded character sheet at this table, each
/// naming its field and rule, or its character: the sheet read as
/// `tabula sour-grapes character validate` and the table file's `file =
/// "..."` sheets read it ([`Character::from_toml`],
/// [`crate::builder::validate`]); then, as the table file's sheets are dealt
/// (`text::setup`, "Cards"), each card it lists must be an action card of the
/// table or of the book.
///
/// Sour Grapes, "Character Creation", "Stats", "Skills", "Cards"
/// (000_05a1db5b88f54528.txt); GM tools (issue 27, item 6).
///
/// # Errors
/// Every problem found (at least one).
pub fn uploaded(s: &State, text: &str) -> Result<Character, Vec<BuildProblem>> {
    let c = Character::from_toml(text).map_err(crate::builder::file_problems)?;
    let book = book_cards();
    let problems: Vec<BuildProblem> = c
        .cards()
        .unwrap_or_default()
        .iter()
        .filter_map(|name| {
            let card = s
                .cards
                .iter()
                .chain(&book)
                .find(|k| same_key(&k.name, name));
            let message = match card {
                None => format!("cards: no card called {name:?} at this table or in the book"),
                Some(k) if k.kind == CardType::Effect => {
                    format!("cards: {} is an effect, not an action card", k.name)
                }
                Some(_) => return None,
            };
            Some(BuildProblem {
                field: Some("cards".into()),
                rule: rules::HAND,
                message,
                unfinished: false,
            })
        })
        .collect();
    if problems.is_empty() {
        Ok(c)
    } else {
        Err(problems)
    }
}

/// The uploaded sheet `file` read from `sheets` and checked ([`uploaded`]):
/// its text, for [`Command::Add`] to carry.
///
/// # Errors
/// [`CommandParseError::Sheet`]: the file not sent or unreadable (one problem
/// naming the file), or every broken rule of the sheet.
pub fn read_upload(
    s: &State,
    file: &str,
    sheets: &dyn SheetFiles,
) -> Result<String, CommandParseError> {
    tabula_core::files::read_checked_sheet(sheets, file, |text| uploaded(s, text))
}

/// `add KIND|FILE.toml [as NAME] [to SEAT]`, built from the line's reading
/// ([`tabula_core::usage::read`]): the kind among [`kinds`] (any
/// case, unambiguous prefix), or a word ending in `.toml`
/// ([`names_sheet_file`]): a character sheet file read from `sheets`
/// ([`read_upload`]); the name as typed; the seat among the table's (`gm` or
/// a player seat, any case) or a new player seat (`decide` refuses it).
///
/// GM tools (issue 27, item 6).
///
/// # Errors
/// [`CommandParseError::Arguments`] for a missing kind, name or seat;
/// [`CommandParseError::Name`] for a kind that fits none or several;
/// [`CommandParseError::Sheet`] for a sheet file not sent or broken.
pub(crate) fn parse_add(
    state: &State,
    r: &Reading<'_>,
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    let typed = r
        .get("KIND")
        .or_else(|| r.get("FILE.toml"))
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| r.problem("KIND is missing"))?;
    let (kind, sheet) = if names_sheet_file(typed) {
        let file = typed.trim().to_string();
        let text = read_upload(state, &file, sheets)?;
        (file, Some(text))
    } else {
        let kinds = kinds(state);
        let kind = resolve("kind", typed, kinds.iter().map(String::as_str))?;
        (kind.to_string(), None)
    };
    let given = |name: &str| match r.get(name).map(str::trim) {
        Some("") => Err(r.problem(format!("{name} is missing"))),
        other => Ok(other),
    };
    let name = given("NAME")?.map(String::from);
    let seat = given("SEAT")?.map(|t| {
        let typed_seat = seats(state)
            .into_iter()
            .find(|s| same_name(s, t))
            .unwrap_or_else(|| t.to_string());
        state.seat(&Seat::parse(&typed_seat))
    });
    Ok(Command::Add {
        kind,
        name,
        seat,
        sheet,
    })
}

/// What `add` copies: the table's participant of that name (its cards and
/// comparables come too), else the uploaded sheet's character (`sheet`, the
/// TOML text, validated again: [`uploaded`]), else the bundled sheet.
fn base_of(
    s: &State,
    kind: &str,
    sheet: Option<&str>,
) -> Result<(Character, Option<Participant>), RuleError> {
    if let Some(text) = sheet {
        return match uploaded(s, text) {
            Ok(c) => Ok((c, None)),
            Err(ps) => Err(RuleError::new(
                ps.first().map_or(rules::CREATION, |p| p.rule),
                Refusal::Forbidden,
                format!(
                    "the sheet {} is not a legal character of Sour Grapes: {}",
                    kind.trim(),
                    ps.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            )),
        };
    }
    let from_table = s
        .participants
        .iter()
        .chain(&s.left)
        .find(|p| same_name(p.character.name(), kind))
        .cloned();
    if let Some(p) = from_table {
        return Ok((p.character.clone(), Some(p)));
    }
    match bundled().into_iter().find(|c| same_name(c.name(), kind)) {
        Some(c) => Ok((c, None)),
        None => {
            let kinds = kinds(s);
            Err(RuleError::unknown_among(
                GM_TOOLS,
                "kind",
                kind.trim(),
                kinds.iter().map(String::as_str),
            ))
        }
    }
}

/// The storyteller's `add`: a new participant, a fresh copy of `kind` (a
/// character of the table, else a bundled sheet): every stat at its Actual
/// Stat Value without injuries, every skill token, no effects ("Stat
/// Mechanics", "Skill Mechanics": what a rested character has). Its action
/// cards are dealt as the table deals a sheet's ("Cards"; `text::setup`): a
/// table character's copy holds the same cards and comparables; a bundled
/// sheet holds the cards its sheet lists (a book card the table lacks comes
/// with it), or every action card of the table. Played by `seat` (default:
/// the storyteller). Its name is `name` or the kind's, with ` 2` (` 3`, ...)
/// when taken. With `sheet` (an uploaded sheet's TOML text, `kind` its file)
/// the copy is of that sheet's character, read and checked again
/// ([`uploaded`]), dealt as a bundled sheet is; the event names the file. In an Event it rolls initiative while the order is not
/// settled, else it joins at the end of the order (Tabula's decision: the
/// book is silent; docs/systems/sour-grapes.md, GM tools).
///
/// GM tools (issue 27, item 6); Sour Grapes, "Cards", "Event"
/// (000_05a1db5b88f54528.txt).
///
/// # Errors
/// An unknown kind ([`Refusal::Unknown`], listing the kinds), a bad name or
/// seat, or an uploaded sheet that breaks rules ([`Refusal::Forbidden`],
/// every broken rule named, citing the first), a full table
/// ([`Refusal::OutOfRange`]); nothing changes.
pub(crate) fn add(
    s: &State,
    kind: &str,
    sheet: Option<&str>,
    name: Option<&str>,
    seat: Option<&Seat>,
) -> Result<Event, RuleError> {
    if s.participants.len() >= MAX_PARTICIPANTS {
        return Err(RuleError::out_of_range(
            GM_TOOLS,
            "participants",
            1,
            i64::try_from(MAX_PARTICIPANTS).unwrap_or(i64::MAX),
            i64::try_from(s.participants.len().saturating_add(1)).unwrap_or(i64::MAX),
        ));
    }
    let (base, from_table) = base_of(s, kind, sheet)?;
    let wanted = name.unwrap_or(base.name());
    if let Err(e) = check_name("name", wanted) {
        return Err(RuleError::forbidden(GM_TOOLS, e.to_string()));
    }
    let new_name = free_name(s, wanted);
    let seat = match seat {
        None => Seat::Gm,
        Some(Seat::Gm) => Seat::Gm,
        Some(other) => {
            if let Err(e) = check_seat_name("seat", &other.to_string()) {
                return Err(RuleError::forbidden(GM_TOOLS, e.to_string()));
            }
            // Only a seat the table has: a new seat has no link to play it.
            let known = seats(s);
            if !known.iter().any(|n| same_name(n, &other.to_string())) {
                return Err(RuleError::unknown_among(
                    GM_TOOLS,
                    "seat",
                    &other.to_string(),
                    known.iter().map(String::as_str),
                ));
            }
            s.seat(other)
        }
    };
    let character = base.fresh_as(&new_name);
    let mut new_cards = Vec::new();
    let (hand, comparable) = match from_table {
        Some(p) => (p.cards, p.comparable),
        None => {
            let hand = match character.cards() {
                Some(list) => {
                    let book = book_cards();
                    let mut hand = Vec::new();
                    for c in list {
                        let known = s
                            .cards
                            .iter()
                            .chain(&new_cards)
                            .find(|k| same_key(&k.name, c))
                            .cloned();
                        let card = match known {
                            Some(k) => Some(k),
                            None => {
                                let b = book.iter().find(|k| same_key(&k.name, c)).cloned();
                                if let Some(b) = &b {
                                    new_cards.push(b.clone());
                                }
                                b
                            }
                        };
                        if let Some(k) = card.filter(|k| k.kind != CardType::Effect)
                            && !hand.contains(&k.name)
                        {
                            hand.push(k.name);
                        }
                    }
                    hand
                }
                None => s
                    .cards
                    .iter()
                    .filter(|k| k.kind != CardType::Effect)
                    .map(|k| k.name.clone())
                    .collect(),
            };
            (hand, character.comparable().clone())
        }
    };
    Ok(Event::Joined {
        participant: Box::new(Participant {
            character,
            seat,
            cards: hand,
            effects: Vec::new(),
            comparable,
        }),
        cards: new_cards,
        sheet: sheet.map(|_| kind.trim().to_string()),
    })
}

/// Why `who` cannot leave now, if it cannot: the table's last character; the
/// character of the running Situation, or one whose skill tokens the
/// Situation holds (they come back when it ends, "Skill Mechanics"); one with
/// a part in the turn in progress (the Controller, a target or receiver, a
/// card offered or played: placed dice and tokens are committed and roll,
/// R-SG-11). It may leave once that is over.
fn cannot_leave(s: &State, who: &str) -> Option<String> {
    if s.participants.len() <= 1 {
        return Some(format!(
            "{who} is the table's last character: a table needs at least one"
        ));
    }
    match &s.moment {
        Moment::Situation(sit) => {
            if same_name(&sit.who, who) {
                return Some(format!(
                    "the Situation is {who}'s: it ends with the final check (or `end-encounter`)"
                ));
            }
            if sit
                .held
                .get(who)
                .is_some_and(|k| k.values().any(|n| *n > 0))
            {
                return Some(format!(
                    "the Situation holds {who}'s skill tokens until it ends: {who} may leave then"
                ));
            }
        }
        Moment::Event(e) => {
            if let Some(t) = &e.turn {
                let is = |n: &String| same_name(n, who);
                let offered = t
                    .interrupts
                    .iter()
                    .chain(&t.compliments)
                    .chain(&t.diverts)
                    .chain(t.compliment.iter())
                    .chain(t.reactions.values().flatten())
                    .any(|p| is(&p.by) || p.to.as_ref().is_some_and(is));
                let part = if is(&t.controller) {
                    Some("the Controller")
                } else if t.targets.iter().any(is) || t.receivers.iter().any(is) {
                    Some("a target of the Stunt")
                } else if offered || t.reactions.keys().any(is) {
                    Some("playing a card")
                } else {
                    None
                };
                if let Some(part) = part {
                    return Some(format!(
                        "{who} is {part} in the turn in progress ({}): {who} may leave when the turn ends",
                        t.step.title()
                    ));
                }
            }
        }
        Moment::Free => {}
    }
    None
}

/// The storyteller's `remove`: `who` leaves the encounter with its action
/// cards (its own: Sour Grapes has no deck, "Cards") and the effects on it,
/// and leaves the initiative order; it is kept out of play for the sheets the
/// encounter leaves. While it rolls initiative, its leaving may settle the
/// order. It cannot leave while it has a part in the turn in progress, in the
/// running Situation, or as the last character (see the refusals).
///
/// GM tools (issue 27, item 6); Sour Grapes, "Event", "Turn Mechanics"
/// (000_05a1db5b88f54528.txt); R-SG-11.
///
/// # Errors
/// [`Refusal::Forbidden`] saying why it cannot leave now; nothing changes.
pub(crate) fn remove(s: &State, who: &str) -> Result<Event, RuleError> {
    if let Some(why) = cannot_leave(s, who) {
        return Err(RuleError::forbidden(GM_TOOLS, why));
    }
    Ok(Event::Left {
        who: who.to_string(),
    })
}

/// The storyteller's tools among its legal commands, in every moment while
/// the encounter runs: `giveback` and `heal` (the table accepts them in every
/// moment), `adjust`, `add`, and `remove` with the characters that may leave
/// now.
pub(crate) fn legal(s: &State, out: &mut Vec<CommandSpec>) {
    if s.over || s.participants.is_empty() {
        return;
    }
    let names = s.participant_names();
    let stats = || Stat::ALL.iter().map(|st| st.name().to_string());
    if matches!(s.moment, Moment::Event(_)) {
        // Offered outside Events with the moment's commands (`crate::legal`).
        out.push(CommandSpec::new(
            "giveback",
            "give exhausted points (or skill tokens) back",
            vec![
                ParamSpec::choice("stat", stats()),
                ParamSpec::int("points", 1, 10).optional(),
                ParamSpec::choice("as", names.clone())
                    .keyword("as")
                    .required(),
            ],
        ));
        out.push(CommandSpec::new(
            "heal",
            "remove an injury",
            vec![
                ParamSpec::choice("stat", stats()),
                ParamSpec::choice("as", names.clone())
                    .keyword("as")
                    .required(),
            ],
        ));
    }
    out.push(CommandSpec::new(
        "adjust",
        "set (N) or change (+N, -N) a stat's Current Stat Value",
        vec![
            ParamSpec::choice("character", names.clone()),
            ParamSpec::choice("value", stats()),
            ParamSpec::text("amount"),
        ],
    ));
    if s.participants.len() < MAX_PARTICIPANTS {
        out.push(CommandSpec::new(
            "add",
            "bring a character into the encounter: a fresh copy of a table's character or a book's sheet",
            vec![
                ParamSpec::choice_or_sheet("kind", kinds(s)),
                ParamSpec::text("as").keyword("as"),
                ParamSpec::choice("to", seats(s)).keyword("to"),
            ],
        ));
    }
    let leaving: Vec<String> = names
        .into_iter()
        .filter(|n| cannot_leave(s, n).is_none())
        .collect();
    if !leaving.is_empty() {
        out.push(CommandSpec::new(
            "remove",
            "take a character out of the encounter (its cards and effects leave with it)",
            vec![ParamSpec::choice("character", leaving)],
        ));
    }
}
