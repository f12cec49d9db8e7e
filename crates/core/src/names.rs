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

/// True when two names are the same once [`normalize`]d: without regard to
/// case, surrounding white space, or `_` written for a space (`"stella"` and
/// `" Stella"`, `"Iron_Wolf"` and `"iron wolf"`).
///
/// Issue 26, item 6: this runs on every name lookup of `decide` and the
/// policies, so ASCII names are compared word by word without allocating;
/// other names go through [`normalize`] (Unicode lower-casing has context
/// rules, the Greek final sigma, that a word-by-word compare would not
/// follow). Both paths give the same answer (a property test below).
pub fn same_name(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    if !(a.is_ascii() && b.is_ascii()) {
        return normalize(a) == normalize(b);
    }
    let mut x = a
        .split(|c: char| c == '_' || c.is_whitespace())
        .filter(|w| !w.is_empty());
    let mut y = b
        .split(|c: char| c == '_' || c.is_whitespace())
        .filter(|w| !w.is_empty());
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) if p.eq_ignore_ascii_case(q) => {}
            _ => return false,
        }
    }
}

/// The form names are compared in: lower case, `_` read as a space, runs of
/// white space as one space, no white space at either end. `"  Iron_Wolf "`
/// becomes `"iron wolf"`.
pub fn normalize(name: &str) -> String {
    let lowered = name.to_lowercase().replace('_', " ");
    lowered.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The most candidate names an error lists (the rest are counted).
pub const MAX_LISTED: usize = 24;

/// A typed name matched none, or more than one, of the names that fit where it
/// was typed. Both variants carry those names so the player can pick one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NameLookupError {
    /// No name fits: not the same name, nor the start of one.
    #[error("there is no {field} called \"{got}\"{}", listing(field, candidates))]
    Unknown {
        /// What kind of name was expected (`character`, `Stat`, `card`, `seat`).
        field: String,
        /// The name typed.
        got: String,
        /// Every name that fits there (may be empty).
        candidates: Vec<String>,
    },
    /// The typed text is the start of several names and the same as none.
    #[error(
        "\"{got}\" could be the {field} {}: type more of the name",
        or_list(matches)
    )]
    Ambiguous {
        /// What kind of name was expected.
        field: String,
        /// The text typed.
        got: String,
        /// The names it is the start of.
        matches: Vec<String>,
    },
}

fn listing(field: &str, names: &[String]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let shown: Vec<&str> = names.iter().take(MAX_LISTED).map(String::as_str).collect();
    let more = names.len().saturating_sub(MAX_LISTED);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("; the {field} names here: {}{tail}", shown.join(", "))
}

fn or_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Find the name `typed` stands for among `candidates`: the one that is the
/// same name ([`same_name`]), else the only one that `typed` is the start of
/// (after [`normalize`]: `"stel"` finds `Stella`, `"iron_w"` finds `Iron Wolf`).
/// Returns the candidate as it is written there.
///
/// The one command grammar's name rule (`docs/COMMANDS.md`, "Names"): names of
/// seats, characters, cards, Stats, Skills, elements and Zones match without
/// regard to case and by unambiguous prefix.
///
/// # Errors
/// [`NameLookupError::Unknown`] listing every candidate when none fits;
/// [`NameLookupError::Ambiguous`] listing the matches when `typed` starts
/// several names and is none of them. `field` names the kind of name in both.
///
/// # Examples
/// ```
/// use tabula_core::names::{resolve, NameLookupError};
/// let names = ["Stella", "Stan", "Kodos"];
/// assert_eq!(resolve("character", "stel", names).unwrap(), "Stella");
/// assert!(matches!(resolve("character", "st", names), Err(NameLookupError::Ambiguous { .. })));
/// assert!(matches!(resolve("character", "Kang", names), Err(NameLookupError::Unknown { .. })));
/// ```
pub fn resolve<'c, I>(field: &str, typed: &str, candidates: I) -> Result<&'c str, NameLookupError>
where
    I: IntoIterator<Item = &'c str>,
{
    let want = normalize(typed);
    let all: Vec<&'c str> = candidates.into_iter().collect();
    if !want.is_empty() {
        if let Some(exact) = all.iter().find(|c| normalize(c) == want) {
            return Ok(exact);
        }
        let mut starts: Vec<&'c str> = Vec::new();
        for c in &all {
            if normalize(c).starts_with(&want) && !starts.iter().any(|s| same_name(s, c)) {
                starts.push(c);
            }
        }
        match starts.as_slice() {
            [one] => return Ok(one),
            [] => {}
            many => {
                return Err(NameLookupError::Ambiguous {
                    field: field.into(),
                    got: typed.trim().into(),
                    matches: many.iter().map(|s| s.to_string()).collect(),
                });
            }
        }
    }
    let mut listed: Vec<String> = Vec::new();
    for c in all {
        if !listed.iter().any(|l| same_name(l, c)) {
            listed.push(c.to_string());
        }
    }
    Err(NameLookupError::Unknown {
        field: field.into(),
        got: typed.trim().into(),
        candidates: listed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The allocation-free comparison agrees with comparing the
        /// normalized names, ASCII or not, with spaces, tabs and `_`
        /// anywhere (issue 26, item 6).
        #[test]
        fn same_name_agrees_with_normalize(a in "[ _\tAaBbΣσς]{0,8}", b in "[ _\tAaBbΣσς]{0,8}") {
            proptest::prop_assert_eq!(same_name(&a, &b), normalize(&a) == normalize(&b));
        }

        /// ASCII names only: the fast path, against the definition.
        #[test]
        fn ascii_same_name_agrees_with_normalize(a in "[ _\tAaBb-]{0,10}", b in "[ _\tAaBb-]{0,10}") {
            proptest::prop_assert_eq!(same_name(&a, &b), normalize(&a) == normalize(&b));
        }
    }

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
        assert!(same_name("Iron_Wolf", "iron  wolf"));
    }

    #[test]
    fn resolve_takes_the_same_name_before_a_prefix() {
        let names = ["Stan", "Stanley", "Kodos"];
        assert_eq!(resolve("character", "STAN", names).unwrap(), "Stan");
        assert_eq!(resolve("character", "stanl", names).unwrap(), "Stanley");
        let two = ["Iron Wolf", "Iron Maiden"];
        let err = resolve("character", "iron", two).unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"iron\" could be the character Iron Wolf or Iron Maiden: type more of the name"
        );
        assert_eq!(resolve("character", "iron_w", two).unwrap(), "Iron Wolf");
        let err = resolve("character", "Kang", names).unwrap_err();
        assert_eq!(
            err.to_string(),
            "there is no character called \"Kang\"; the character names here: Stan, Stanley, Kodos"
        );
        assert!(matches!(
            resolve("character", "  ", names),
            Err(NameLookupError::Unknown { .. })
        ));
    }
}
