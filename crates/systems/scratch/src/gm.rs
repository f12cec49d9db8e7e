//! The GM's tools: `adjust` a character's hit points mid-encounter,
//! `remove` one, `add` one (a known kind, or an uploaded sheet file: `add
//! FILE.toml`, whose parser is here too) and `end-encounter` early (issue 27,
//! item 6). The book names no rule for the GM changing a tracked value or the
//! cast, so they cite the table's own [`rules::GM_TOOLS`].

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

use tabula_core::CommandParseError;
use tabula_core::builder::BuildProblem;
use tabula_core::files::{SheetFiles, names_sheet_file};
use tabula_core::names::check_name;
use tabula_core::names::{NameLookupError, resolve};
use tabula_core::usage::Reading;
use tabula_core::{Refusal, RuleError, Seat};

use crate::character::{Character, CharacterDraft, slug};
use crate::command::Command;
use crate::event::Event;
use crate::rules::{self, TableRules};
use crate::state::{Phase, State, seats_match};
use crate::text::parse::key;

/// A value of a character the GM may `adjust`: the book tracks it at the
/// table and it changes during play.
///
/// "Hit Points" (001_337b5a42e331e513.txt); issue 27, item 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// Hit points, 0 to the character's maximum (its toughness with its
    /// bonuses, "Hit Points").
    HitPoints,
}

impl Value {
    /// Every value, in the order `adjust` lists them.
    pub const ALL: [Value; 1] = [Value::HitPoints];

    /// The word typed for it.
    pub fn key(self) -> &'static str {
        match self {
            Value::HitPoints => "hit-points",
        }
    }

    /// Read `hit-points`, `hp` (any case, `_` or a space for `-`).
    pub fn parse(text: &str) -> Option<Value> {
        match text
            .trim()
            .to_ascii_lowercase()
            .replace(['_', ' '], "-")
            .as_str()
        {
            "hit-points" | "hp" | "hitpoints" => Some(Value::HitPoints),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::HitPoints => "hit points",
        })
    }
}

/// The amount of an `adjust` (`N`, `+N`, `-N`), read as every book reads it.
pub use tabula_core::grammar::Amount;

fn gm_only(seat: &Seat, what: &str) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(RuleError::new(
            rules::GM_TOOLS,
            Refusal::NotPermitted,
            format!("only the GM {what}"),
        ))
    }
}

fn during_turns(state: &State) -> Result<(), RuleError> {
    match state.phase {
        Phase::Turns => Ok(()),
        Phase::Preparation => Err(RuleError::new(
            rules::TURNS,
            Refusal::WrongPhase,
            "the encounter has not begun (roll initiative first)",
        )),
        Phase::Over => Err(RuleError::new(
            rules::TURNS,
            Refusal::WrongPhase,
            "the encounter is over",
        )),
    }
}

/// The GM's `adjust`: set or change a character's hit points during the
/// turns, within 0 to its maximum. At 0 the character is incapacitated, as
/// damage makes it ("Hit Points": it cannot perform actions): its turn, if
/// on, ends, and when at most one side can still act the encounter is over
/// ("Turns"). Raised above 0, an incapacitated character takes turns again (a
/// correction the GM makes).
///
/// "Hit Points", "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]), not during the turns
/// ([`Refusal::WrongPhase`]), an unknown character ([`Refusal::Unknown`], with
/// the ids), a result out of range ([`Refusal::OutOfRange`], an i64 overflow
/// included). Nothing changes.
pub fn adjust(
    state: &State,
    seat: &Seat,
    character: &str,
    value: Value,
    amount: Amount,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat, "adjusts a character's values")?;
    during_turns(state)?;
    let Some(i) = state.find(character) else {
        return Err(RuleError::new(
            rules::GM_TOOLS,
            Refusal::Unknown {
                field: "character".into(),
                name: character.into(),
            },
            format!(
                "no character {character:?} (the characters: {})",
                state.ids()
            ),
        ));
    };
    let Some(c) = state.get(i) else {
        return Err(RuleError::unknown(rules::GM_TOOLS, "character", character));
    };
    let (current, max) = match value {
        Value::HitPoints => (c.hit_points, c.max_hit_points(&state.rules)),
    };
    let range = |got: i64| {
        RuleError::new(
            rules::HIT_POINTS,
            Refusal::OutOfRange {
                field: value.key().into(),
                min: 0,
                max: i64::from(max),
                got,
            },
            format!("{value} must stay between 0 and {max}, not {got}"),
        )
    };
    let to = match amount.apply(i64::from(current)) {
        None => return Err(range(i64::MAX)),
        Some(n) => match u32::try_from(n) {
            Ok(t) if t <= max => t,
            _ => return Err(range(n)),
        },
    };
    let mut out = vec![Event::Adjusted {
        character: i,
        value,
        from: current,
        to,
    }];
    if to == 0 && state.active == Some(i) {
        out.push(Event::TurnEnded { character: i });
    }
    Ok(out)
}

/// The GM's `end-encounter`: the encounter is over now, whoever still stands.
///
/// "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]), or not during the turns
/// ([`Refusal::WrongPhase`]: not begun, or already over).
pub fn end_encounter(state: &State, seat: &Seat) -> Result<Vec<Event>, RuleError> {
    gm_only(seat, "ends the encounter")?;
    during_turns(state)?;
    Ok(vec![Event::EncounterEnded])
}

/// The GM's `remove`: a character leaves the encounter, as one who escaped
/// leaves it ("Basic Actions", escape: it takes no more actions and cannot be
/// attacked); its turn, if on, ends, and when at most one side can still act
/// the encounter is over ("Turns"). It keeps its hit points; Scratch RPS has
/// no cards to return.
///
/// "Basic Actions", "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
///
/// # Errors
/// Not the GM, not during the turns, an unknown character, or one already out
/// of the encounter (escaped or removed); nothing changes.
pub fn remove(state: &State, seat: &Seat, character: &str) -> Result<Vec<Event>, RuleError> {
    gm_only(seat, "removes a character from the encounter")?;
    during_turns(state)?;
    let Some(i) = state.find(character) else {
        return Err(RuleError::new(
            rules::GM_TOOLS,
            Refusal::Unknown {
                field: "character".into(),
                name: character.into(),
            },
            format!(
                "no character {character:?} (the characters: {})",
                state.ids()
            ),
        ));
    };
    if state.get(i).is_some_and(|c| c.escaped) {
        return Err(RuleError::condition(
            rules::GM_TOOLS,
            "out of the encounter",
            format!("{character} is already out of the encounter"),
        ));
    }
    let mut out = vec![Event::Removed { character: i }];
    if state.active == Some(i) {
        out.push(Event::TurnEnded { character: i });
    }
    Ok(out)
}

/// The GM's tools among the legal commands: `adjust`, `remove`, `add` and
/// `end-encounter`, during the turns.
pub(crate) fn legal(state: &State, seat: &Seat, out: &mut Vec<tabula_core::CommandSpec>) {
    use tabula_core::{CommandSpec, ParamSpec};
    if !seat.is_gm() || state.phase != Phase::Turns {
        return;
    }
    if !state.characters.is_empty() {
        out.push(CommandSpec::new(
            "adjust",
            "set (N) or change (+N, -N) a character's hit points",
            vec![
                ParamSpec::choice("character", state.characters.iter().map(|c| c.id.clone())),
                ParamSpec::choice("value", Value::ALL.iter().map(|v| v.key())),
                ParamSpec::text("amount"),
            ],
        ));
    }
    let present: Vec<String> = state
        .characters
        .iter()
        .filter(|c| !c.escaped)
        .map(|c| c.id.clone())
        .collect();
    if !present.is_empty() {
        out.push(CommandSpec::new(
            "remove",
            "take a character out of the encounter",
            vec![ParamSpec::choice("character", present)],
        ));
    }
    let kinds = legal_kinds(state);
    if !kinds.is_empty() && state.characters.len() < rules::MAX_CHARACTERS {
        out.push(CommandSpec::new(
            "add",
            "add a character to the encounter (a sheet at the table or one of the book's), in a seat's initiative group (default the GM's)",
            vec![
                ParamSpec::choice_or_sheet("kind", kinds),
                // `add KIND|FILE.toml [as NAME] [to SEAT]`.
                ParamSpec::text("as name").keyword("as"),
                ParamSpec::choice("to seat", state.groups.iter().map(|g| seat_word(&g.seat)))
                    .keyword("to"),
            ],
        ));
    }
    out.push(CommandSpec::new(
        "end-encounter",
        "end the encounter now",
        vec![],
    ));
}

/// The book's character sheets bundled with the crate (`examples/scratch`),
/// which the GM may `add` at any table: Breakhelm X-19, Chokestar and
/// Flipfire ("Combat Example"), The Boss and a Thug ("Support Abilities",
/// command) and Zimzambamalam (the introduction). Each is a file's text.
pub const BUNDLED: [&str; 6] = [
    include_str!("../../../../examples/scratch/breakhelm-x-19.toml"),
    include_str!("../../../../examples/scratch/chokestar.toml"),
    include_str!("../../../../examples/scratch/flipfire.toml"),
    include_str!("../../../../examples/scratch/the-boss.toml"),
    include_str!("../../../../examples/scratch/thug.toml"),
    include_str!("../../../../examples/scratch/zimzambamalam.toml"),
];

/// The bundled sheets read once, as drafts (not yet checked against any
/// table's rules).
fn bundled() -> &'static [CharacterDraft] {
    static DRAFTS: OnceLock<Vec<CharacterDraft>> = OnceLock::new();
    DRAFTS.get_or_init(|| {
        BUNDLED
            .iter()
            .filter_map(|text| toml::from_str::<CharacterDraft>(text).ok())
            .collect()
    })
}

/// One kind of character the GM may `add`: its name and its sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// The name it is chosen by (the sheet's name).
    pub name: String,
    /// The sheet, as a file would say it.
    pub draft: CharacterDraft,
    /// True for a character the table loaded (legal under the table's rules
    /// already); false for a bundled sheet.
    pub at_the_table: bool,
}

/// Every kind the GM may name in `add`: each character at the table (its
/// sheet as loaded, minions included), then each bundled sheet ([`BUNDLED`])
/// whose name is not one of them. Names compare as typed names do
/// ([`crate::text::parse::key`]).
pub fn kinds(state: &State) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for c in &state.characters {
        if seen.insert(key(c.character.name())) {
            out.push(Kind {
                name: c.character.name().to_string(),
                draft: c.character.to_draft(),
                at_the_table: true,
            });
        }
    }
    for d in bundled() {
        if seen.insert(key(&d.name)) {
            out.push(Kind {
                name: d.name.clone(),
                draft: d.clone(),
                at_the_table: false,
            });
        }
    }
    out
}

/// The names of the kinds that are legal at this table now: the table's
/// characters, and the bundled sheets its rules allow (R-SCR-7).
pub fn legal_kinds(state: &State) -> Vec<String> {
    kinds(state)
        .into_iter()
        .filter(|k| k.at_the_table || Character::from_draft(k.draft.clone(), &state.rules).is_ok())
        .map(|k| k.name)
        .collect()
}

/// How a seat is typed after `to`: `gm`, or the player's seat name.
pub fn seat_word(seat: &Seat) -> String {
    match seat {
        Seat::Gm => "gm".to_string(),
        Seat::Player(p) => p.clone(),
    }
}

/// True when `candidate` is taken as a character's name or id at the table,
/// or by one of `chosen` (names already given in this `add`).
fn taken(state: &State, chosen: &[String], candidate: &str) -> bool {
    let want = key(candidate);
    let id = key(&slug(candidate));
    let clash = |name: &str, id_of: &str| {
        let (n, i) = (key(name), key(id_of));
        n == want || i == want || n == id || i == id
    };
    state
        .characters
        .iter()
        .any(|c| clash(c.character.name(), &c.id))
        || chosen.iter().any(|c| clash(c, &slug(c)))
}

/// `base`, or else `base 2`, `base 3`... the first that no character at the
/// table (nor one of `chosen`) is called.
fn free_name(state: &State, chosen: &[String], base: &str) -> String {
    if !taken(state, chosen, base) {
        return base.to_string();
    }
    // Each character blocks at most two candidates (its name and its id), so
    // one of these is free.
    let last = 2 * (state.characters.len() + chosen.len()) + 2;
    (2..=last)
        .map(|n| format!("{base} {n}"))
        .find(|c| !taken(state, chosen, c))
        .unwrap_or_else(|| format!("{base} {}", last + 1))
}

/// The GM's `add`: a character joins the encounter during the turns.
///
/// - KIND is a character at the table or a bundled sheet ([`kinds`]); `as
///   NAME` names the newcomer (default the kind's name). A name in use gets
///   `NAME 2`, `NAME 3`...; its id is the name's (`thug-2`). Its minions
///   ("Support Abilities", command) join with it, named the same way.
/// - `to SEAT` puts it in that seat's initiative group, on that group's side;
///   by default the GM's own group.
/// - The sheet must be legal under the table's rules (CP, maximum level:
///   "Abilities", R-SCR-7); it joins at full hit points (its toughness, "Hit
///   Points") with no temporary bonuses (none are added or removed during an
///   encounter, "Support Abilities": craftsmanship).
/// - The book rolls initiative once per group at the beginning of the
///   encounter ("Turns") and says nothing of latecomers, so the newcomer
///   takes its group's place in the order (no roll) and has a turn on each of
///   its group's turns from now on: this round too if its group has not
///   finished its turn ([`rules::GM_TOOLS`]).
///
/// The event carries the whole character, so replay reads no file.
///
/// "Turns", "Hit Points", "Abilities", "Support Abilities"
/// (001_337b5a42e331e513.txt); R-SCR-7; issue 27, item 6.
///
/// # Errors
/// Not the GM, not during the turns, an unknown kind or seat (listing the
/// choices), no group for the GM without `to`, a name that is a command word
/// or not a name, a sheet the table's rules refuse (naming the broken rule),
/// or the table full ([`rules::MAX_CHARACTERS`]); nothing changes.
pub fn add(
    state: &State,
    seat: &Seat,
    kind: &str,
    name: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat, "adds a character to the encounter")?;
    during_turns(state)?;
    let all = kinds(state);
    let Some(k) = all.iter().find(|k| key(&k.name) == key(kind)) else {
        return Err(RuleError::unknown_among(
            rules::GM_TOOLS,
            "kind",
            kind,
            all.iter().map(|k| k.name.as_str()),
        ));
    };
    admit(state, &k.name, k.draft.clone(), name, to)
}

/// An uploaded character sheet's text, read by the book's validating reader
/// under the table's rules: the one `tabula scratch character validate` and
/// a table file's sheets use (TOML of the character format, CP and maximum
/// level within the table's, "Abilities", R-SCR-7; minions, "Support
/// Abilities"). A text longer than [`tabula_core::files::MAX_FILE_BYTES`]
/// is refused unread.
///
/// "Abilities", "Support Abilities" (001_337b5a42e331e513.txt); R-SCR-7;
/// issue 27, item 6.
///
/// # Errors
/// Every broken rule, in file order, each naming its field or rule (at
/// least one).
pub fn read_sheet(text: &str, table: &TableRules) -> Result<Character, Vec<BuildProblem>> {
    let max = tabula_core::files::MAX_FILE_BYTES;
    if u64::try_from(text.len()).map_or(true, |n| n > max) {
        return Err(vec![BuildProblem {
            field: None,
            rule: rules::CAPS,
            message: format!("the sheet is larger than {max} bytes"),
            unfinished: false,
        }]);
    }
    crate::builder::validate_character(text, table)
}

/// The GM's `add FILE.toml [as NAME] [to SEAT]`: the character of an
/// uploaded sheet (its `text`, sent as `file`) joins the encounter exactly as
/// a copy of a known kind does in [`add`] (same naming, seat, rules, full hit
/// points, no temporary bonuses, a guest not written back to a campaign).
/// The sheet is read again here with [`read_sheet`], so a command sent as
/// JSON cannot bring in a character the table's rules refuse. The event's
/// kind is the character's name on the sheet (as a bundled sheet's kind is
/// its name); the file name is not kept.
///
/// "Turns", "Hit Points", "Abilities", "Support Abilities"
/// (001_337b5a42e331e513.txt); R-SCR-7; issue 27, item 6.
///
/// # Errors
/// As [`add`]; a sheet that is not a legal character at this table is
/// refused naming the file and every broken rule (the first one's rule is
/// the refusal's); nothing changes.
pub fn add_sheet(
    state: &State,
    seat: &Seat,
    file: &str,
    text: &str,
    name: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat, "adds a character to the encounter")?;
    during_turns(state)?;
    let character = read_sheet(text, &state.rules).map_err(|problems| {
        let rule = problems.first().map_or(rules::ABILITIES, |p| p.rule);
        RuleError::forbidden(
            rule,
            format!(
                "the sheet {file:?} is not a legal character at this table (cp {}, max_level {}): {}",
                state.rules.cp,
                state.rules.max_level,
                problems
                    .iter()
                    .map(|p| p.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )
    })?;
    admit(state, character.name(), character.to_draft(), name, to)
}

/// The rest of [`add`] and [`add_sheet`] once the sheet is known: the group,
/// the names, the room at the table and the table's rules.
fn admit(
    state: &State,
    kind: &str,
    mut draft: CharacterDraft,
    name: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<Event>, RuleError> {
    let group = match to {
        Some(to) => {
            let wanted = Seat::parse(to.trim());
            state
                .groups
                .iter()
                .position(|g| seats_match(&g.seat, &wanted))
                .ok_or_else(|| {
                    let seats: Vec<String> =
                        state.groups.iter().map(|g| seat_word(&g.seat)).collect();
                    RuleError::unknown_among(
                        rules::TURNS,
                        "seat",
                        to,
                        seats.iter().map(String::as_str),
                    )
                })?
        }
        None => state
            .groups
            .iter()
            .position(|g| g.seat.is_gm())
            .ok_or_else(|| {
                RuleError::forbidden(
                    rules::TURNS,
                    format!(
                        "the GM has no initiative group here: name the group it joins (to SEAT: {})",
                        state
                            .groups
                            .iter()
                            .map(|g| seat_word(&g.seat))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?,
    };
    let mut chosen = Vec::new();
    let wanted = name.map_or(draft.name.as_str(), str::trim).to_string();
    check_name("name", &wanted).map_err(|e| RuleError::forbidden(rules::NAMES, e.to_string()))?;
    draft.name = free_name(state, &chosen, &wanted);
    chosen.push(draft.name.clone());
    for m in &mut draft.minions {
        m.name = free_name(state, &chosen, &m.name);
        m.id = None;
        chosen.push(m.name.clone());
    }
    draft.id = None;
    draft.crafted.clear();
    for n in &chosen {
        let id = slug(n);
        if crate::setup::RESERVED.contains(&id.as_str()) || crate::text::parse::is_command_word(&id)
        {
            return Err(RuleError::forbidden(
                rules::NAMES,
                format!("{n:?} is a command word and cannot name a character"),
            ));
        }
    }
    let room = rules::MAX_CHARACTERS.saturating_sub(state.characters.len());
    if chosen.len() > room {
        return Err(RuleError::forbidden(
            rules::CAPS,
            format!(
                "a table seats at most {} characters ({} now)",
                rules::MAX_CHARACTERS,
                state.characters.len()
            ),
        ));
    }
    let character = Character::from_draft(draft, &state.rules).map_err(|e| {
        let rule = e.problems.first().map_or(rules::ABILITIES, |p| p.rule());
        RuleError::forbidden(
            rule,
            format!(
                "{} is not legal at this table (cp {}, max_level {}): {}",
                kind,
                state.rules.cp,
                state.rules.max_level,
                e.problems
                    .iter()
                    .map(|p| p.message())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )
    })?;
    Ok(vec![Event::Added {
        kind: kind.to_string(),
        group,
        character,
    }])
}

/// `add KIND|FILE.toml [as NAME] [to SEAT]` (issue 27, item 6), from its
/// [`Reading`] (`all`: the line's words): the kind is
/// resolved among [`kinds`] (any case, `-` or `_` for a space, an
/// unambiguous prefix), the seat among the initiative groups' seats; the
/// name is kept as typed. A KIND ending in `.toml` ([`names_sheet_file`])
/// names a sheet file: for the GM it is read from `sheets` and checked with
/// [`read_sheet`], and its text goes in the command (a player's
/// `add` reads nothing: `decide` refuses it).
pub(crate) fn parse_add(
    state: &State,
    seat: &Seat,
    r: &Reading<'_>,
    all: &[String],
    sheets: &dyn SheetFiles,
) -> Result<Command, CommandParseError> {
    add_keywords_once(r, all)?;
    let kind = match r.get("FILE.toml") {
        Some(file) => file,
        None => r.require("KIND")?,
    };
    let name = r.get("NAME").map(str::to_string);
    let to = r.get("SEAT").map(str::to_string);
    if names_sheet_file(kind) {
        let file = kind.trim().to_string();
        let sheet = if seat.is_gm() {
            Some(read_sheet_file(state, &file, sheets)?)
        } else {
            None
        };
        let to = to.map(|typed| add_seat(state, typed)).transpose()?;
        return Ok(Command::Add {
            kind: file,
            sheet,
            name,
            to,
        });
    }
    let kinds = kinds(state);
    let keys: Vec<String> = kinds.iter().map(|k| key(&k.name)).collect();
    let found =
        resolve("kind", &key(kind), keys.iter().map(String::as_str)).map_err(|e| match e {
            NameLookupError::Unknown { field, .. } => NameLookupError::Unknown {
                field,
                got: kind.trim().into(),
                candidates: kinds.iter().map(|k| k.name.clone()).collect(),
            },
            NameLookupError::Ambiguous { field, matches, .. } => NameLookupError::Ambiguous {
                field,
                got: kind.trim().into(),
                matches: kinds
                    .iter()
                    .filter(|k| matches.contains(&key(&k.name)))
                    .map(|k| k.name.clone())
                    .collect(),
            },
        })?;
    let kind = kinds
        .iter()
        .find(|k| key(&k.name) == found)
        .map(|k| k.name.clone())
        .unwrap_or_else(|| (*kind).to_string());
    let to = to.map(|typed| add_seat(state, typed)).transpose()?;
    Ok(Command::Add {
        kind,
        sheet: None,
        name,
        to,
    })
}

/// `as` and `to` are `add`'s keywords wherever they stand, once each, so that
/// names of several words go unquoted (`add The Boss as Big Boss`). The usage
/// language cannot say that a value of several words holds neither (`KIND...`
/// and `NAME...` would read `add thug as a as b` as the name `a as b`, `add
/// thug as` as the kind `thug as`), so this refuses a keyword the reading
/// took into a value, naming the value it leaves out.
fn add_keywords_once(r: &Reading<'_>, all: &[String]) -> Result<(), CommandParseError> {
    const KEYWORDS: [(&str, &str); 2] = [("as", "NAME"), ("to", "SEAT")];
    let args = all.get(1..).unwrap_or_default();
    let slot_of = |w: &str| {
        KEYWORDS
            .iter()
            .find(|(k, _)| w.eq_ignore_ascii_case(k))
            .map(|(_, s)| *s)
    };
    for (kw, slot) in KEYWORDS {
        let at: Vec<usize> = (0..args.len())
            .filter(|i| args.get(*i).is_some_and(|w| w.eq_ignore_ascii_case(kw)))
            .collect();
        match at.as_slice() {
            [] => {}
            [_] if r.has(kw) => {}
            [0] => return Err(r.problem("KIND is missing")),
            [i] => {
                let before = i.checked_sub(1).and_then(|b| args.get(b));
                let missing = before.and_then(|w| slot_of(w)).unwrap_or(slot);
                return Err(r.problem(format!("{missing} is missing")));
            }
            _ => return Err(r.problem(format!("{kw:?} is given twice"))),
        }
    }
    Ok(())
}

/// The seat typed after `add ... to`, resolved among the initiative groups'
/// seats (as typed when none fits: `decide` refuses it with the seats).
fn add_seat(state: &State, typed: String) -> Result<String, CommandParseError> {
    let seats: Vec<String> = state.groups.iter().map(|g| seat_word(&g.seat)).collect();
    let keys: Vec<String> = seats.iter().map(|s| key(s)).collect();
    let found =
        resolve("seat", &key(&typed), keys.iter().map(String::as_str)).map_err(|e| match e {
            NameLookupError::Unknown { field, .. } => NameLookupError::Unknown {
                field,
                got: typed.trim().into(),
                candidates: seats.clone(),
            },
            other => other,
        })?;
    Ok(seats.into_iter().find(|s| key(s) == found).unwrap_or(typed))
}

/// The text of the sheet file `file` from `sheets`, when it is a legal
/// character at this table ([`read_sheet`]).
///
/// # Errors
/// [`CommandParseError::Sheet`] naming `file`: the file's read error as one
/// problem, or every broken rule of the sheet.
fn read_sheet_file(
    state: &State,
    file: &str,
    sheets: &dyn SheetFiles,
) -> Result<String, CommandParseError> {
    tabula_core::files::read_checked_sheet(sheets, file, |text| read_sheet(text, &state.rules))
}
