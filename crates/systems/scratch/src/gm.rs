//! The GM's tools: `adjust` a character's hit points mid-encounter and
//! `end-encounter` early (issue 27, item 6). The book names no rule for the
//! GM changing a tracked value, so both cite the table's own
//! [`rules::GM_TOOLS`].

use serde::{Deserialize, Serialize};
use std::fmt;

use tabula_core::{Refusal, RuleError, Seat};

use crate::encounter::{Event, Phase, State};
use crate::rules;

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
        return Err(RuleError::forbidden(
            rules::GM_TOOLS,
            format!("{character} is already out of the encounter"),
        ));
    }
    let mut out = vec![Event::Removed { character: i }];
    if state.active == Some(i) {
        out.push(Event::TurnEnded { character: i });
    }
    Ok(out)
}

/// The GM's tools among the legal commands: `adjust`, `remove` and
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
    out.push(CommandSpec::new(
        "end-encounter",
        "end the encounter now",
        vec![],
    ));
}
