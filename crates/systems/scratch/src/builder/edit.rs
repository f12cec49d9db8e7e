//! Setting and clearing a draft's fields by key.

use super::*;

pub(super) fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.to_string(),
        message: message.into(),
    }
}

pub(super) fn int(key: &str, value: &FieldValue) -> Result<i64, BuildRefusal> {
    match value {
        FieldValue::Int(n) => Ok(*n),
        other => Err(bad(key, format!("a whole number, not {other}"))),
    }
}

pub(super) fn text(key: &str, value: &FieldValue) -> Result<String, BuildRefusal> {
    match value {
        FieldValue::Text(t) if t.chars().count() <= MAX_TEXT_CHARS => Ok(t.clone()),
        FieldValue::Text(_) => Err(bad(key, format!("at most {MAX_TEXT_CHARS} characters"))),
        other => Err(bad(key, format!("text, not {other}"))),
    }
}

/// Apply `value` to the field `rel` (a key relative to `d`; `key` is the whole
/// key, for messages). Only the value's kind is checked.
pub(super) fn apply_at(
    d: &mut Draft,
    rel: &str,
    key: &str,
    value: &FieldValue,
) -> Result<(), BuildRefusal> {
    if let Some(rest) = rel.strip_prefix("minions.") {
        let (i, sub) = rest.split_once('.').ok_or_else(|| unknown_field(key))?;
        let i: usize = i.parse().map_err(|_| unknown_field(key))?;
        let m = d.minions.get_mut(i).ok_or_else(|| unknown_field(key))?;
        return apply_at(m, sub, key, value);
    }
    if let Some(a) = rel.strip_prefix("abilities.") {
        let v = int(key, value)?;
        d.abilities.insert(a.to_string(), v);
        if v <= 0 {
            d.notes.remove(a);
        }
        return Ok(());
    }
    if let Some(a) = rel.strip_prefix("notes.") {
        let t = text(key, value)?;
        if t.trim().is_empty() {
            d.notes.remove(a);
        } else {
            d.notes.insert(a.to_string(), t);
        }
        return Ok(());
    }
    if let Some(rest) = rel.strip_prefix("other.") {
        let (i, what) = rest.split_once('.').ok_or_else(|| unknown_field(key))?;
        let i: usize = i.parse().map_err(|_| unknown_field(key))?;
        if i > d.other.len() || i >= MAX_OTHER_ABILITIES.max(d.other.len()) {
            return Err(unknown_field(key));
        }
        match what {
            "name" => {
                let t = text(key, value)?.trim().to_string();
                if t.is_empty() {
                    return Err(bad(
                        key,
                        "an ability needs a name (clear the field to take the ability back)",
                    ));
                }
                if t.chars().any(char::is_control) {
                    return Err(bad(key, "a name without control characters"));
                }
                if let Some(a) = Ability::parse(&t) {
                    return Err(bad(
                        key,
                        format!(
                            "{a} is one of the book's abilities: give it a level in its own step"
                        ),
                    ));
                }
                if d.other
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && same_name(&o.name, &t))
                {
                    return Err(bad(
                        key,
                        format!("{t} is already another ability of this character"),
                    ));
                }
                match d.other.get_mut(i) {
                    Some(o) => o.name = t,
                    None => d.other.push(OtherAbility {
                        name: t,
                        ..OtherAbility::default()
                    }),
                }
            }
            "level" => {
                let v = int(key, value)?;
                match d.other.get_mut(i) {
                    Some(o) => {
                        o.level = Some(v);
                        if v <= 0 {
                            o.note = None;
                        }
                    }
                    // Level 0 in the empty slot takes nothing: no ability to name.
                    None if v == 0 => {}
                    None => d.other.push(OtherAbility {
                        level: Some(v),
                        ..OtherAbility::default()
                    }),
                }
            }
            "note" => {
                let t = text(key, value)?;
                let o = d.other.get_mut(i).ok_or_else(|| unknown_field(key))?;
                o.note = (!t.trim().is_empty()).then_some(t);
            }
            _ => return Err(unknown_field(key)),
        }
        return Ok(());
    }
    match rel {
        "name" => d.name = text(key, value)?,
        "id" => d.id = Some(text(key, value)?),
        "description" => {
            let t = text(key, value)?;
            d.description = (!t.is_empty()).then_some(t);
        }
        "cp" => d.cp = Some(int(key, value)?),
        "max_level" => d.max_level = Some(int(key, value)?),
        "minions" => {
            let n = int(key, value)?;
            let n = usize::try_from(n)
                .ok()
                .filter(|n| *n as i64 <= MAX_MINION_COUNT)
                .ok_or_else(|| {
                    bad(
                        key,
                        format!("a number of minions from 0 to {MAX_MINION_COUNT}"),
                    )
                })?;
            d.minions.resize_with(n, Draft::default);
        }
        _ => return Err(unknown_field(key)),
    }
    Ok(())
}

pub(super) fn unknown_field(key: &str) -> BuildRefusal {
    BuildRefusal::UnknownField {
        key: key.to_string(),
        known: String::new(),
    }
}

pub(super) fn unknown(d: &Draft, key: &str) -> BuildRefusal {
    BuildRefusal::UnknownField {
        key: key.to_string(),
        known: field_keys(d).join(", "),
    }
}

/// Clear the field `rel` of `d`.
pub(super) fn clear_at(d: &mut Draft, rel: &str) {
    if let Some(rest) = rel.strip_prefix("minions.") {
        if let Some((i, sub)) = rest.split_once('.')
            && let Ok(i) = i.parse::<usize>()
            && let Some(m) = d.minions.get_mut(i)
        {
            clear_at(m, sub);
        }
        return;
    }
    if let Some(a) = rel.strip_prefix("abilities.") {
        d.abilities.remove(a);
        d.notes.remove(a);
        return;
    }
    if let Some(a) = rel.strip_prefix("notes.") {
        d.notes.remove(a);
        return;
    }
    if let Some(rest) = rel.strip_prefix("other.") {
        if let Some((i, what)) = rest.split_once('.')
            && let Ok(i) = i.parse::<usize>()
            && i < d.other.len()
        {
            match what {
                "name" => {
                    d.other.remove(i);
                }
                "level" => {
                    if let Some(o) = d.other.get_mut(i) {
                        o.level = None;
                        o.note = None;
                    }
                }
                _ => {
                    if let Some(o) = d.other.get_mut(i) {
                        o.note = None;
                    }
                }
            }
        }
        return;
    }
    match rel {
        "name" => d.name.clear(),
        "id" => d.id = None,
        "description" => d.description = None,
        "cp" => d.cp = None,
        "max_level" => d.max_level = None,
        "minions" => d.minions.clear(),
        _ => {}
    }
}

/// Apply after checking the key is a field now.
pub(super) fn apply(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    if !field_keys(d).iter().any(|k| k == key) {
        return Err(unknown(d, key));
    }
    apply_at(d, key, key, value)
}
