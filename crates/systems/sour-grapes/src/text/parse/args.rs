//! What stays of the book's own reading once [`tabula_core::usage::read`] has
//! matched a line against its usage: the `KEY=VALUE` spelling of a keyword,
//! a name told from the numbers after it, the two bets of a line, the
//! targets' own words, and whole numbers with the book's range.

use tabula_core::CommandParseError;
use tabula_core::grammar::{self, quote};
use tabula_core::system::{CommandDoc, find_command};
use tabula_core::usage::Reading;

use super::COMMANDS;
use crate::state::Bet;

/// The line with every `KEY=VALUE` word whose `KEY` is a literal word of its
/// command's usage written out as the keyword and its value (`as="Tavern
/// Brute"` reads as `as "Tavern Brute"`).
///
/// A pre-step, because the usage language reads `key=VALUE` as a key word
/// of its own, never as another spelling of the keyword `key VALUE`: saying
/// both in each usage would write every `as`, `vs`, `with`, `to`, `success`
/// and `result` twice in `help`. This book has always taken both spellings
/// (`docs/COMMANDS.md`, the one command grammar).
///
/// # Errors
/// [`CommandParseError::Grammar`] for an unclosed quote or too many words.
pub(super) fn spell_out_keys(line: &str) -> Result<String, CommandParseError> {
    let words = grammar::words(line)?;
    let Some(doc) = words.first().and_then(|w| find_command(COMMANDS, w)) else {
        return Ok(line.to_string());
    };
    let keyword = |i: usize, w: &str| -> Option<(String, String)> {
        let (k, v) = w.split_once('=')?;
        (i > 0 && is_keyword(doc, k)).then(|| (k.to_string(), v.to_string()))
    };
    if !words
        .iter()
        .enumerate()
        .any(|(i, w)| keyword(i, w).is_some())
    {
        return Ok(line.to_string());
    }
    let mut out = Vec::with_capacity(words.len() + 2);
    for (i, w) in words.iter().enumerate() {
        match keyword(i, w) {
            Some((k, v)) => {
                out.push(k);
                out.push(quote(&v));
            }
            None => out.push(quote(w)),
        }
    }
    Ok(out.join(" "))
}

/// True when `word` is a literal (lower-case) word of `doc`'s usage other
/// than the command's own.
fn is_keyword(doc: &CommandDoc, word: &str) -> bool {
    !word.is_empty()
        && !doc.is_called(word)
        && doc
            .usage
            .split(|c: char| c.is_whitespace() || "[]()|".contains(c))
            .any(|u| u.eq_ignore_ascii_case(word) && u.bytes().all(|b| b.is_ascii_lowercase()))
}

/// The value `name` of the line, unless it is empty (`as ""`).
pub(super) fn text<'r>(r: &'r Reading<'_>, name: &str) -> Option<&'r str> {
    r.get(name).filter(|v| !v.trim().is_empty())
}

/// A name typed unquoted across several words and the numbers after it
/// (`keep Bleeding Out 2 1`, `giveback Fire Magic 2 as Rook`): the name
/// `name` and the values `numbers` (in usage order) as the line gave them,
/// with every leading value that is not a number moved back into the name.
///
/// The usage language has no numbers: it reads `CARD... DICE [TOKENS]` by
/// taking as few words for `CARD` as the rest allows, so `react Quick Dodge
/// 2` comes back as `CARD` `Quick`, `DICE` `Dodge`, `TOKENS` `2`. The words
/// are the line's, in order; only where the name ends is the book's call:
/// at the first number, as this book has always read it.
pub(super) fn name_and_numbers<'r>(
    name: Option<&'r str>,
    numbers: impl IntoIterator<Item = Option<&'r str>>,
) -> (String, Vec<&'r str>) {
    let mut name = name.unwrap_or_default().to_string();
    let mut nums: Vec<&str> = numbers.into_iter().flatten().collect();
    while let Some(first) = nums.first().copied().filter(|w| !looks_numeric(w)) {
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(first);
        nums.remove(0);
    }
    (name, nums)
}

/// The bets after `success` and after `result` (`success DICE [TOKENS]
/// [result DICE [TOKENS]]`); no bet for a word the line leaves out.
///
/// Both bets name their values `DICE` and `TOKENS` in the usage (what `help`
/// shows): each `DICE` of the line starts the bet of the next of those
/// words, in line order.
///
/// # Errors
/// [`CommandParseError::Arguments`] naming the bet's value when it is no
/// whole number 0 or more ([`num`]).
pub(super) fn bets(r: &Reading<'_>) -> Result<(Bet, Bet), CommandParseError> {
    let mut given: Vec<(&str, Option<&str>)> = Vec::new();
    for (name, v) in &r.values {
        match name.as_str() {
            "DICE" => given.push((v, None)),
            "TOKENS" => {
                if let Some(last) = given.last_mut() {
                    last.1 = Some(v);
                }
            }
            _ => {}
        }
    }
    let words = r
        .words
        .iter()
        .filter(|w| matches!(w.as_str(), "success" | "result"));
    let (mut success, mut result) = (Bet::default(), Bet::default());
    for (word, (dice, tokens)) in words.zip(given) {
        let bet = Bet {
            dice: num(r, &format!("{word} DICE"), Some(dice))?,
            tokens: opt_num(r, &format!("{word} TOKENS"), tokens)?,
        };
        if word == "success" {
            success = bet;
        } else {
            result = bet;
        }
    }
    Ok((success, result))
}

/// The whole number `text`, 0 or more, named `what` when it is missing or
/// is not one.
///
/// # Errors
/// [`CommandParseError::Arguments`]: "`what` is missing", "too large", "must
/// be 0 or more" or "must be a whole number 0 or more".
pub(super) fn num(
    r: &Reading<'_>,
    what: &str,
    text: Option<&str>,
) -> Result<u32, CommandParseError> {
    let Some(t) = text else {
        return Err(r.problem(format!("{what} is missing")));
    };
    t.parse::<u32>().map_err(|e| {
        r.problem(match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{what} is too large: {t} (at most {})", u32::MAX)
            }
            _ if looks_numeric(t) => format!("{what} must be 0 or more, not {t}"),
            _ => format!("{what} must be a whole number 0 or more, not {t:?}"),
        })
    })
}

/// [`num`], 0 when the line leaves it out.
///
/// # Errors
/// As [`num`].
pub(super) fn opt_num(
    r: &Reading<'_>,
    what: &str,
    text: Option<&str>,
) -> Result<u32, CommandParseError> {
    match text {
        None => Ok(0),
        some => num(r, what, some),
    }
}

/// A word that is a whole number, perhaps negative or too large (`-4`,
/// `99999999999`): it is read as a number, so a bad one is refused as one.
fn looks_numeric(w: &str) -> bool {
    let digits = w.strip_prefix('-').unwrap_or(w);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_ends_at_the_first_number() {
        let (name, nums) = name_and_numbers(Some("Quick"), [Some("Dodge"), Some("2")]);
        assert_eq!((name.as_str(), nums), ("Quick Dodge", vec!["2"]));
        let (name, nums) = name_and_numbers(Some("Fire"), [Some("Magic")]);
        assert_eq!((name.as_str(), nums), ("Fire Magic", vec![]));
        let (name, nums) = name_and_numbers(Some("Dodge"), [Some("-4"), None]);
        assert_eq!((name.as_str(), nums), ("Dodge", vec!["-4"]));
    }

    #[test]
    fn key_words_of_the_usage_are_written_out() {
        assert_eq!(
            spell_out_keys(r#"spend Stamina as="Example Player""#).unwrap(),
            r#"spend Stamina as "Example Player""#
        );
        assert_eq!(
            spell_out_keys("check Agility 2 VS=1").unwrap(),
            "check Agility 2 VS 1"
        );
        // Not a keyword of `stunt`: left as typed.
        assert_eq!(spell_out_keys("stunt as=x").unwrap(), "stunt as=x");
    }

    #[test]
    fn a_value_keeps_its_quoted_words() {
        let r =
            tabula_core::usage::read(crate::text::COMMANDS, r#"target "a b" c success 3"#).unwrap();
        assert_eq!(r.parts("TARGETS").unwrap(), ["a b", "c"]);
        let r = tabula_core::usage::read(crate::text::COMMANDS, "target success 3").unwrap();
        assert_eq!((r.get("TARGETS"), r.get("DICE")), (None, Some("3")));
    }
}
