//! Names typed by people: seat names, character names, table titles.
//!
//! A name reaches terminals, log lines and (later) web pages, so it may not carry
//! control characters (a terminal escape code in a character's name would rewrite
//! another player's screen). A seat name may not contain `:`, which separates the
//! seat from the command in a play line (`Stella: draw 2`). Names compare without
//! regard to case (`stella` is `Stella`), see [`same_name`].

use serde::{Deserialize, Serialize};

/// The longest name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Why a name was refused. Every variant names the field it was read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NameError {
    /// The name is empty (or only white space).
    #[error("{field}: a name may not be empty")]
    Empty {
        /// The field the name was read from (`seat`, `character name`, ...).
        field: String,
    },
    /// The name is longer than [`MAX_NAME_CHARS`].
    #[error("{field}: a name may be at most {max} characters (this one has {got})")]
    TooLong {
        /// The field.
        field: String,
        /// Its length in characters.
        got: usize,
        /// [`MAX_NAME_CHARS`].
        max: usize,
    },
    /// The name holds a control character (a terminal escape code, a newline).
    #[error("{field}: a name may not contain control characters (found U+{code:04X})")]
    ControlCharacter {
        /// The field.
        field: String,
        /// The first control character found, as its code point.
        code: u32,
    },
    /// A seat name holds `:`, which separates the seat from the command in a line.
    #[error("{field}: a seat name may not contain ':' (it separates the seat from the command)")]
    Colon {
        /// The field.
        field: String,
    },
}

/// Check a name read from `field` (for the error message): not empty, at most
/// [`MAX_NAME_CHARS`] characters, no control characters.
///
/// # Errors
/// [`NameError`] naming `field` and what is wrong.
///
/// # Examples
/// ```
/// use tabula_core::names::{check_name, NameError};
/// assert!(check_name("character name", "Stella").is_ok());
/// assert!(matches!(
///     check_name("character name", "Stel\u{1b}[2Jla"),
///     Err(NameError::ControlCharacter { .. })
/// ));
/// ```
pub fn check_name(field: &str, name: &str) -> Result<(), NameError> {
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(NameError::Empty {
            field: field.into(),
        });
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(NameError::ControlCharacter {
            field: field.into(),
            code: c as u32,
        });
    }
    let got = name.chars().count();
    if got > MAX_NAME_CHARS {
        return Err(NameError::TooLong {
            field: field.into(),
            got,
            max: MAX_NAME_CHARS,
        });
    }
    Ok(())
}

/// Check a seat name: everything [`check_name`] checks, and no `:`.
///
/// # Errors
/// [`NameError`] naming `field` and what is wrong.
pub fn check_seat_name(field: &str, name: &str) -> Result<(), NameError> {
    check_name(field, name)?;
    if name.contains(':') {
        return Err(NameError::Colon {
            field: field.into(),
        });
    }
    Ok(())
}

/// True when two names are the same without regard to case or surrounding white
/// space (`"stella"` and `" Stella"`).
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_refuse_control_characters_colons_and_emptiness() {
        assert!(check_name("name", "Breakhelm X-19").is_ok());
        assert!(matches!(
            check_name("name", "  "),
            Err(NameError::Empty { .. })
        ));
        assert!(matches!(
            check_name("name", "a\nb"),
            Err(NameError::ControlCharacter { code: 10, .. })
        ));
        assert!(matches!(
            check_seat_name("seat", "gm:x"),
            Err(NameError::Colon { .. })
        ));
        assert!(check_name("name", "Stella: fine as a character").is_ok());
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert!(matches!(
            check_name("name", &long),
            Err(NameError::TooLong { .. })
        ));
        let err = check_name("character name", "").unwrap_err().to_string();
        assert!(err.starts_with("character name:"), "{err}");
    }

    #[test]
    fn names_match_without_regard_to_case() {
        assert!(same_name("stella", "Stella"));
        assert!(same_name(" KODOS ", "Kodos"));
        assert!(!same_name("Kodos", "Kang"));
    }
}
