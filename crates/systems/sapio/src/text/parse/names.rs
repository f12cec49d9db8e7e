//! The names, numbers and free text of a [`Reading`], resolved against the
//! table (see the [parent module](super)).

use super::*;
use crate::harm::Track;
use crate::name_match::same_name;

/// A character at the table typed as `typed`: its index ([`resolve`]: the
/// same name, else a unique prefix).
pub(super) fn character(
    state: &State,
    r: &Reading<'_>,
    typed: &str,
) -> Result<usize, CommandParseError> {
    let names = state.names();
    let n = resolve("character", typed, names.iter().map(String::as_str))?;
    state
        .find(n)
        .ok_or_else(|| r.problem(format!("no character {n:?}")))
}

/// The value `name` as a whole number.
pub(super) fn number(r: &Reading<'_>, name: &str) -> Result<u32, CommandParseError> {
    let t = r.require(name)?;
    t.trim()
        .parse::<u32>()
        .map_err(|_| r.problem(format!("{name}: {t:?} is not a whole number")))
}

/// The value `name` as free text, trimmed; refused when it is only spaces.
pub(super) fn text(r: &Reading<'_>, name: &str) -> Result<String, CommandParseError> {
    let t = r.require(name)?.trim();
    if t.is_empty() {
        Err(r.problem(format!("{name} is missing")))
    } else {
        Ok(t.to_string())
    }
}

/// Two values typed one after the other, each of one or more words
/// (`confront AGGRESSOR... DEFENDER...`, `assist HELPER... ELEMENT...`,
/// `release CHARACTER... [ELEMENT...]`, `side-specialization SIDE... NAME...`):
/// the first as typed and the second, if any.
///
/// Where the first ends the usage language cannot say: only the names at
/// the table know it. [`read`] gives the first value its first word and the
/// second the rest; as the book's names read, the first is instead the
/// longest run of the words that is one of `candidates` in full, else that
/// first word (resolved by prefix by the caller).
pub(super) fn name_then_rest(
    r: &Reading<'_>,
    first: &str,
    second: &str,
    candidates: &[String],
) -> Result<(String, Option<String>), CommandParseError> {
    let head = r.require(first)?;
    let Some(tail) = r.get(second) else {
        return Ok((head.to_string(), None));
    };
    let words: Vec<&str> = tail.split_whitespace().collect();
    for k in (1..=words.len()).rev() {
        let run = format!("{head} {}", words[..k].join(" "));
        if candidates.iter().any(|c| same_name(c, &run)) {
            let rest = words[k..].join(" ");
            return Ok((run, (!rest.is_empty()).then_some(rest)));
        }
    }
    Ok((head.to_string(), Some(tail.to_string())))
}

/// Refuse a value whose last word is the keyword `keyword` with nothing
/// after it (`roll with Sword at`): [`read`] keeps such a word as part of
/// the name before it, where the book says the `missing` value after it is
/// missing (a line never silently does less than it says).
pub(super) fn no_last_word(
    r: &Reading<'_>,
    value: &str,
    keyword: &str,
    missing: &str,
) -> Result<(), CommandParseError> {
    let last = value.split_whitespace().next_back();
    if last.is_some_and(|w| w.eq_ignore_ascii_case(keyword)) {
        Err(r.problem(format!("{missing} is missing after `{keyword}`")))
    } else {
        Ok(())
    }
}

/// `typed` resolved among `candidates` ([`resolve`]: the same name, else a
/// unique prefix); with no candidates, `typed` as written (`_` read as a space)
/// for `decide` to judge.
pub(super) fn pick(
    field: &str,
    typed: &str,
    candidates: &[String],
) -> Result<String, CommandParseError> {
    if candidates.is_empty() {
        return Ok(typed.replace('_', " ").trim().to_string());
    }
    Ok(
        resolve(field, typed, candidates.iter().map(String::as_str))?
            .trim()
            .to_string(),
    )
}

/// An element of `c` typed whole: resolved among its elements; a Special
/// Talent, the Principle or the Worst Impulse typed in full is passed on, so
/// `decide` says why it is no element ("Invoking an Element", R-SA-8).
pub(super) fn element_of(c: Option<&Character>, typed: &str) -> Result<String, CommandParseError> {
    let elements = c.map(Character::elements).unwrap_or_default();
    match pick("element", typed, &elements) {
        Err(e) => {
            let other = c.is_some_and(|c| {
                let d = c.sheet();
                d.special_talents.iter().any(|t| same_name(&t.name, typed))
                    || same_name(&d.principle, typed)
                    || same_name(&d.worst_impulse, typed)
            });
            if other {
                Ok(typed.trim().to_string())
            } else {
                Err(e)
            }
        }
        ok => ok,
    }
}

pub(super) fn sheet_of(state: &State, i: usize) -> Option<&Character> {
    state.characters.get(i).map(|m| &m.character)
}

pub(super) fn entries(track: &Track) -> Vec<String> {
    track.entries().iter().map(|(_, n)| n.to_string()).collect()
}

pub(super) fn track(c: &Character, kind: HarmKind) -> &Track {
    match kind {
        HarmKind::Injury => c.injuries(),
        HarmKind::Stress => c.stresses(),
    }
}

pub(super) fn talents(c: &Character) -> Vec<String> {
    c.sheet()
        .special_talents
        .iter()
        .map(|t| t.name.trim().to_string())
        .collect()
}

pub(super) fn weapons(c: &Character) -> Vec<String> {
    c.sheet()
        .weapons
        .iter()
        .map(|w| w.name.trim().to_string())
        .collect()
}

pub(super) fn professions(c: &Character) -> Vec<String> {
    std::iter::once(&c.sheet().profession)
        .chain(c.sheet().side_professions.iter())
        .map(|p| p.name.trim().to_string())
        .collect()
}

pub(super) fn sides(c: &Character) -> Vec<String> {
    c.sheet()
        .side_professions
        .iter()
        .map(|p| p.name.trim().to_string())
        .collect()
}
