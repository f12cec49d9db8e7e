//! The GM's tools: `adjust` a character's Luck mid-encounter (issue 27,
//! item 6). Luck is the one count the book tracks per character ("Luck": "At
//! the GM's discretion"); Injuries and Stresses are words and levels, which
//! the GM already records and erases with `injury`, `stress` and `heal`.

use serde::{Deserialize, Serialize};
use std::fmt;

use tabula_core::{Refusal, RuleError, Seat};

use crate::characters::{MAX_LUCK, RULE_LUCK};
use crate::table::{Event, RULE_SEATS, State};

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
    let Some(m) = state.characters.get(character) else {
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
