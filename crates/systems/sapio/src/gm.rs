//! The GM's tools (issue 27, item 6): `adjust` a character's Luck
//! mid-encounter, `add` a character to the encounter and `remove` one from
//! it. Luck is the one count the book tracks per character ("Luck": "At the
//! GM's discretion"); Injuries and Stresses are words and levels, which the
//! GM already records and erases with `injury`, `stress` and `heal`. The book
//! has no rule for a character joining or leaving a scene: `add` and
//! `remove` cite the table's own [`RULE_GM_TOOLS`] (see
//! `docs/systems/sapio.md`, "GM tools").

use crate::rules::{RULE_GM_TOOLS, RULE_LUCK, RULE_SEATS, RULE_SHEET, RULE_VERSUS};
use serde::{Deserialize, Serialize};
use std::fmt;

use tabula_core::{CommandSpec, ParamSpec, Refusal, Rule, RuleError, Seat};

use crate::character::{Character, CharacterDraft, MAX_LUCK, SheetError};
use crate::event::Event;
use crate::harm::Track;
use crate::name_match::same_name;
use crate::state::State;
use crate::table::MAX_CHARACTERS;

/// The book's bundled character sheets (`examples/sapio/*.toml`, the table
/// file left out), by the file's name without `.toml`: the kinds `add`
/// offers besides the characters at the table.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "arcane-knight",
        include_str!("../../../../examples/sapio/arcane-knight.toml"),
    ),
    (
        "desert-commando",
        include_str!("../../../../examples/sapio/desert-commando.toml"),
    ),
    (
        "enforcer",
        include_str!("../../../../examples/sapio/enforcer.toml"),
    ),
    (
        "roof-runner",
        include_str!("../../../../examples/sapio/roof-runner.toml"),
    ),
];

/// A value of a character the GM may `adjust`.
///
/// The Sapio System, "Luck" (004_f39b4146df158cae.txt); issue 27, item 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// Luck held, 0 to [`MAX_LUCK`] (at least the Luck spent on the open
    /// check, when the character is its focal character).
    Luck,
}

impl Value {
    /// Every value, in the order `adjust` lists them.
    pub const ALL: [Value; 1] = [Value::Luck];

    /// The word typed for it.
    pub fn key(self) -> &'static str {
        match self {
            Value::Luck => "luck",
        }
    }

    /// Read a value by its word (any case).
    pub fn parse(text: &str) -> Option<Value> {
        let t = text.trim().to_ascii_lowercase();
        Value::ALL.into_iter().find(|v| v.key() == t)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Luck => "Luck",
        })
    }
}

/// The amount of an `adjust` (`N`, `+N`, `-N`), read as every book reads it.
pub use tabula_core::grammar::Amount;

/// The GM's `adjust`: set or change a character's Luck ("Luck": given "at the
/// GM's discretion"), within 0 (or the Luck already spent on the open check,
/// for its focal character) to [`MAX_LUCK`].
///
/// The Sapio System, "Luck" (004_f39b4146df158cae.txt); issue 27, item 6.
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]), an unknown character, or a result
/// out of range ([`Refusal::OutOfRange`], an i64 overflow included); nothing
/// changes.
pub fn adjust(
    state: &State,
    seat: &Seat,
    character: usize,
    value: Value,
    amount: Amount,
) -> Result<Vec<Event>, RuleError> {
    if !seat.is_gm() {
        return Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotPermitted,
            "only the GM adjusts a character's values",
        ));
    }
    let Some(m) = state.member(character) else {
        return Err(RuleError::unknown_among(
            RULE_SEATS,
            "character",
            &character.to_string(),
            state.names().iter().map(String::as_str),
        ));
    };
    let current = m.character.luck();
    let spent = state
        .check
        .as_ref()
        .filter(|c| c.focal == character)
        .map_or(0, |c| c.luck);
    let (min, max) = (i64::from(spent), i64::from(MAX_LUCK));
    let out = |got: i64| {
        RuleError::new(
            RULE_LUCK,
            Refusal::OutOfRange {
                field: value.key().into(),
                min,
                max,
                got,
            },
            if spent > 0 {
                format!(
                    "{value} must stay between {min} (the Luck spent on this check) and {max}, not {got}"
                )
            } else {
                format!("{value} must stay between 0 and {max}, not {got}")
            },
        )
    };
    let to = match amount.apply(i64::from(current)) {
        None => return Err(out(i64::MAX)),
        Some(n) if (min..=max).contains(&n) => u32::try_from(n).map_err(|_| out(n))?,
        Some(n) => return Err(out(n)),
    };
    Ok(vec![Event::Adjusted {
        character,
        value,
        from: current,
        to,
    }])
}

/// Refuse a seat that is not the GM's.
fn gm_only(seat: &Seat, what: &str) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_GM_TOOLS,
            Refusal::NotPermitted,
            format!("only the GM {what}"),
        ))
    }
}

/// What `add` takes as KIND, in order: the bundled sheets ([`BUNDLED`]), then
/// every character at the table (removed ones too: a copy of them may come
/// back), each name once.
pub fn kinds(state: &State) -> Vec<String> {
    let mut out: Vec<String> = BUNDLED.iter().map(|(k, _)| k.to_string()).collect();
    for m in &state.characters {
        let n = m.character.name().trim();
        if !out.iter().any(|k| same_name(k, n)) {
            out.push(n.to_string());
        }
    }
    out
}

/// The sheet a KIND names, before it joins: a bundled sheet as written, or
/// the table's character as it stands now.
fn template(state: &State, kind: &str) -> Option<CharacterDraft> {
    if let Some((_, text)) = BUNDLED.iter().find(|(k, _)| same_name(k, kind)) {
        return toml::from_str(text).ok();
    }
    state
        .characters
        .iter()
        .find(|m| same_name(m.character.name(), kind))
        .map(|m| m.character.sheet().clone())
}

/// The player seats at the table (the `player` of some character's sheet).
pub fn player_seats(state: &State) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in &state.characters {
        if let Some(p) = m.character.player()
            && !out.iter().any(|o| same_name(o, p))
        {
            out.push(p.trim().to_string());
        }
    }
    out
}

/// `base`, or `base 2`, `base 3`, ... : the first name no character at the
/// table has (removed ones included, so the log never names two alike).
fn unique_name(state: &State, base: &str) -> String {
    let taken = |n: &str| {
        state
            .characters
            .iter()
            .any(|m| same_name(m.character.name(), n))
    };
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|k: usize| format!("{base} {k}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// The GM's `add KIND [as NAME] [to SEAT]`: a character joins the encounter.
/// KIND is a bundled sheet ([`BUNDLED`]) or a character at the table (a copy:
/// a second Vance). The newcomer joins as a character fresh to the scene: its
/// Injury and Stress tracks are clear, it is alive, no advancement is due,
/// nothing of it is invoked; its Luck, elements and advancements are the
/// sheet's. It joins the table, not an Action Sequence under way: like any
/// character, it takes part when the GM threatens it or it enters the fray at
/// the start of a round ("Action Sequences in Play"). It is played by `to`'s
/// player seat, or by the GM (no `player`). A name the table has already gets
/// " 2", " 3", ... The event carries the whole sheet, so replaying the log
/// needs no file.
///
/// [`RULE_GM_TOOLS`]; "Action Sequences in Play" (004_f39b4146df158cae.txt);
/// issue 27, item 6.
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]); a full table ([`Refusal::OutOfRange`],
/// [`MAX_CHARACTERS`]); an unknown KIND or seat ([`Refusal::Unknown`], listing
/// them); a NAME the sheet rules refuse ([`Refusal::Forbidden`]). Nothing
/// changes.
pub fn add(
    state: &State,
    seat: &Seat,
    kind: &str,
    name: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<Event>, RuleError> {
    may_add(state, seat)?;
    let Some(draft) = template(state, kind) else {
        return Err(RuleError::unknown_among(
            RULE_GM_TOOLS,
            "kind",
            kind.trim(),
            kinds(state).iter().map(String::as_str),
        ));
    };
    join(state, draft, name, to)
}

/// The GM's `add FILE.toml [as NAME] [to SEAT]`: the character of an
/// uploaded sheet (`text`, the file `file` as the line named it) joins the
/// encounter exactly as a bundled sheet does ([`add`]: fresh tracks, `to`'s
/// seat or the GM, " 2" on a taken name, the whole sheet in the event). The
/// sheet is read by the book's own validating reader
/// ([`crate::character::parse_character`], the one `tabula sapio character
/// validate` and a table file's `file = "..."` use), here again even though
/// the parser read it: a command sent as JSON cannot skip the sheet's rules.
///
/// [`RULE_GM_TOOLS`]; the sheet's rules ("The Elements of a Character",
/// "Starting Characters", R-SA-10, ...: each problem names its own);
/// issue 27, item 6.
///
/// # Errors
/// As [`add`] (the GM's seat and a full table first); a sheet that is not a
/// legal character ([`Refusal::Forbidden`] under the first broken rule, the
/// message naming the file and listing every broken rule). Nothing changes.
pub fn add_sheet(
    state: &State,
    seat: &Seat,
    file: &str,
    text: &str,
    name: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<Event>, RuleError> {
    may_add(state, seat)?;
    let character = read_sheet(text).map_err(|(rule, problems)| {
        RuleError::forbidden(
            rule,
            format!(
                "sheet {:?} is not a legal character: {}",
                file.trim(),
                problems.join("; ")
            ),
        )
    })?;
    join(state, character.sheet().clone(), name, to)
}

/// An uploaded sheet read by the book's validating reader
/// ([`crate::character::parse_character`]): the character, or the rule of
/// the first problem and every problem in words, each naming its field or
/// rule (unreadable TOML is one problem, under [`RULE_SHEET`]).
///
/// # Errors
/// `(rule, problems)`, at least one problem.
pub fn read_sheet(text: &str) -> Result<Character, (Rule, Vec<String>)> {
    crate::character::parse_character(text).map_err(|e| match e {
        SheetError::Toml(message) => (RULE_SHEET, vec![message]),
        SheetError::Rules(e) => (
            e.problems.first().map_or(RULE_SHEET, |p| p.rule()),
            e.problems.iter().map(ToString::to_string).collect(),
        ),
    })
}

/// The GM's seat and room at the table, which every `add` needs.
fn may_add(state: &State, seat: &Seat) -> Result<(), RuleError> {
    gm_only(seat, "adds a character to the encounter")?;
    if state.characters.len() >= MAX_CHARACTERS {
        return Err(RuleError::out_of_range(
            RULE_GM_TOOLS,
            "characters at the table",
            1,
            MAX_CHARACTERS as i64,
            state.characters.len().saturating_add(1) as i64,
        ));
    }
    Ok(())
}

/// `draft` joins as [`add`] says: `to`'s seat (or the GM), `name` (or the
/// sheet's) made unique, fresh tracks, checked again as a legal character.
fn join(
    state: &State,
    mut draft: CharacterDraft,
    name: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<Event>, RuleError> {
    let player = match to.map(str::trim) {
        None => None,
        Some(t) if Seat::parse(t).is_gm() => None,
        Some(t) => {
            let seats = player_seats(state);
            match seats.iter().find(|s| same_name(s, t)) {
                Some(s) => Some(s.clone()),
                None => {
                    return Err(RuleError::unknown_among(
                        RULE_SEATS,
                        "seat",
                        t,
                        seats.iter().map(String::as_str),
                    ));
                }
            }
        }
    };
    let base = name
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(draft.name.trim())
        .to_string();
    draft.name = unique_name(state, &base);
    draft.player = player;
    draft.injuries = Track::default();
    draft.stresses = Track::default();
    draft.dead = false;
    draft.advancement_due = false;
    let newcomer = Character::from_draft(draft)
        .map_err(|e| RuleError::forbidden(RULE_GM_TOOLS, e.to_string()))?;
    Ok(vec![Event::Added { newcomer }])
}

/// The GM's `remove CHARACTER`: a GM character leaves the encounter. It
/// keeps its sheet (the sheets the encounter leaves write its Injuries and
/// Luck back) and leaves any Action Sequence; when every participant still
/// in action has then been focal, the round ends ("Action Sequences in
/// Play"). It leaves between turns: not while a check is being built (its
/// focal character, helpers and defender are in the middle of a roll) nor
/// while a framed turn waits for its focal character, and a fight's
/// aggressor or defender not before the fight's sequence ends (R-SA-5). A
/// player's character is not the GM's to remove, and the last character
/// stays.
///
/// [`RULE_GM_TOOLS`]; "Action Sequences in Play", "Character versus
/// Character" (004_f39b4146df158cae.txt); issue 27, item 6.
///
/// # Errors
/// Not the GM ([`Refusal::NotPermitted`]); no such character, or one
/// removed already ([`Refusal::Unknown`]); a check open or a framed turn
/// ([`Refusal::WrongPhase`]); a player's character, a fighter, the last
/// character ([`Refusal::Forbidden`]). Nothing changes.
pub fn remove(state: &State, seat: &Seat, character: usize) -> Result<Vec<Event>, RuleError> {
    gm_only(seat, "removes a character from the encounter")?;
    let Some(m) = state.member(character) else {
        return Err(RuleError::unknown_among(
            RULE_GM_TOOLS,
            "character",
            &format!("#{character}"),
            state.names().iter().map(String::as_str),
        ));
    };
    let name = m.character.name();
    if let Some(p) = m.character.player() {
        return Err(RuleError::forbidden(
            RULE_GM_TOOLS,
            format!("{name} is {p}'s character: the GM removes only the GM's characters"),
        ));
    }
    if state.check.is_some() {
        return Err(RuleError::new(
            RULE_GM_TOOLS,
            Refusal::WrongPhase,
            "a check is being built: a character leaves between turns, once it is rolled",
        ));
    }
    if state.sequence.as_ref().is_some_and(|s| s.framed) {
        return Err(RuleError::new(
            RULE_GM_TOOLS,
            Refusal::WrongPhase,
            "the turn is framed and waits for its focal character: a character leaves between turns",
        ));
    }
    if let Some((a, d)) = state.sequence.as_ref().and_then(|s| s.fight)
        && (a == character || d == character)
    {
        return Err(RuleError::forbidden(
            RULE_VERSUS,
            format!("{name} is in the fight: end the Action Sequence first"),
        ));
    }
    if state.present().count() <= 1 {
        return Err(RuleError::forbidden(
            RULE_GM_TOOLS,
            format!("{name} is the last character at the table"),
        ));
    }
    Ok(vec![Event::Removed { character }])
}

/// The characters `remove` takes now: the GM's characters present, outside a
/// fight under way, between turns, while another character stays.
pub fn removable(state: &State) -> Vec<String> {
    if state.check.is_some()
        || state.pending_injury.is_some()
        || state.sequence.as_ref().is_some_and(|s| s.framed)
        || state.present().count() <= 1
    {
        return Vec::new();
    }
    let fight = state.sequence.as_ref().and_then(|s| s.fight);
    state
        .present()
        .filter(|(i, m)| {
            m.character.player().is_none() && fight.is_none_or(|(a, d)| *i != a && *i != d)
        })
        .map(|(_, m)| m.character.name().to_string())
        .collect()
}

/// `add` and `remove` among the GM's legal commands, when legal.
pub(crate) fn legal(state: &State, seat: &Seat, out: &mut Vec<CommandSpec>) {
    if !seat.is_gm() || state.over || state.pending_injury.is_some() {
        return;
    }
    if state.characters.len() < MAX_CHARACTERS {
        let mut params = vec![
            ParamSpec::choice_or_sheet("kind", kinds(state)),
            ParamSpec::text("as name").keyword("as"),
        ];
        let seats = player_seats(state);
        if !seats.is_empty() {
            params.push(ParamSpec::choice("to seat", seats).keyword("to"));
        }
        out.push(CommandSpec::new(
            "add",
            "a character joins the encounter (a bundled sheet or a copy of one at the table)",
            params,
        ));
    }
    let gone = removable(state);
    if !gone.is_empty() {
        out.push(CommandSpec::new(
            "remove",
            "a GM character leaves the encounter",
            vec![ParamSpec::choice("character", gone)],
        ));
    }
}
