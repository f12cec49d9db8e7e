//! Changing a draft: `set`, `force`, `clear`, every refusal naming its
//! field.

use super::*;

pub(super) fn known_keys(d: &Draft) -> String {
    build_view(d)
        .steps
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn field(d: &Draft, key: &str) -> Result<Field, BuildRefusal> {
    parse_key(key)
        .filter(|&f| offered(d, f))
        .ok_or_else(|| BuildRefusal::UnknownField {
            key: key.into(),
            known: known_keys(d),
        })
}

pub(super) fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.into(),
        message: message.into(),
    }
}

pub(super) fn want_text(key: &str, v: &FieldValue, max: usize) -> Result<String, BuildRefusal> {
    match v {
        FieldValue::Text(t) if t.chars().count() <= max => Ok(t.clone()),
        FieldValue::Text(_) => Err(bad(key, format!("at most {max} characters"))),
        _ => Err(bad(key, "text is expected")),
    }
}

pub(super) fn want_choice(
    key: &str,
    v: &FieldValue,
    list: &[(&'static str, &'static str, &'static str)],
) -> Result<&'static str, BuildRefusal> {
    let FieldValue::Text(t) = v else {
        return Err(bad(key, "one of the options is expected"));
    };
    list.iter()
        .map(|(value, _, _)| *value)
        .find(|value| value == t)
        .ok_or_else(|| {
            bad(
                key,
                format!(
                    "{t:?} is not an option ({})",
                    list.iter()
                        .map(|(v, _, _)| *v)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// Put `t` at `j` of `list`, or add it when `j` is the open slot.
pub(super) fn put(list: &mut Vec<String>, j: usize, t: String) {
    match list.get_mut(j) {
        Some(slot) => *slot = t,
        None => list.push(t),
    }
}

/// Set `key` to `value` checking only the value's kind (text within its
/// length, an offered option, a number the field can hold): the draft may
/// break the book's rules afterwards. On a refusal `d` is unchanged.
///
/// # Errors
/// [`BuildRefusal::UnknownField`], [`BuildRefusal::BadValue`].
pub fn force(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    let f = field(d, key)?;
    let mut n = d.clone();
    match f {
        Field::Name => n.name = Some(want_text(key, value, MAX_NAME_CHARS)?),
        Field::Player => {
            let t = want_text(key, value, MAX_NAME_CHARS)?;
            n.player = Some(t).filter(|t| !t.is_empty());
        }
        Field::Profession => n.profession = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Field::Spec(j) => put(
            &mut n.specializations,
            j,
            want_text(key, value, MAX_TEXT_CHARS)?,
        ),
        Field::SideName(i) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match n.side_professions.get_mut(i) {
                Some(s) => s.name = t,
                None => n.side_professions.push(ProfessionDraft {
                    name: t,
                    specializations: Vec::new(),
                }),
            }
        }
        Field::SideSpec(i, j) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            if let Some(s) = n.side_professions.get_mut(i) {
                put(&mut s.specializations, j, t);
            }
        }
        Field::Quality(i) => put(&mut n.qualities, i, want_text(key, value, MAX_TEXT_CHARS)?),
        Field::TalentName(i) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match n.special_talents.get_mut(i) {
                Some(s) => s.name = t,
                None => n.special_talents.push(Talent {
                    name: t,
                    ..Talent::default()
                }),
            }
        }
        Field::TalentText(i) => {
            let t = want_text(key, value, MAX_TALENT_TEXT)?;
            if let Some(s) = n.special_talents.get_mut(i) {
                s.text = t;
            }
        }
        Field::TalentEffect(i) => {
            let name = want_choice(key, value, &EFFECTS)?;
            if let Some(s) = n.special_talents.get_mut(i)
                && effect_name(s.effect) != name
            {
                s.effect = effect_of(name).unwrap_or(None);
            }
        }
        Field::TalentAmount(i) => {
            let FieldValue::Int(a) = value else {
                return Err(bad(key, "a whole number is expected"));
            };
            let a = u32::try_from(*a).map_err(|_| bad(key, "a whole number 0 or more"))?;
            if let Some(s) = n.special_talents.get_mut(i)
                && let Some(e) = s.effect
            {
                s.effect = Some(with_amount(e, a));
            }
        }
        Field::TalentMagic(i) => {
            let name = want_choice(key, value, &MAGIC)?;
            if let Some(s) = n.special_talents.get_mut(i) {
                s.magic = match name {
                    "magical" => Some(true),
                    "not-magical" => Some(false),
                    _ => None,
                };
            }
        }
        Field::Principle => n.principle = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Field::WorstImpulse => n.worst_impulse = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Field::WeaponName(i) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match n.weapons.get_mut(i) {
                Some(w) => w.name = t,
                // The open slot: empty text adds nothing.
                None if t.is_empty() => {}
                None => n.weapons.push(Weapon {
                    name: t,
                    level: Level::Minor,
                }),
            }
        }
        Field::WeaponLevel(i) => {
            let name = want_choice(key, value, &LEVELS)?;
            if let Some(w) = n.weapons.get_mut(i) {
                w.level = Level::parse(name).unwrap_or(Level::Minor);
            }
        }
        Field::Luck => {
            let FieldValue::Int(l) = value else {
                return Err(bad(key, "a whole number is expected"));
            };
            n.luck = Some(u32::try_from(*l).map_err(|_| bad(key, "a whole number 0 or more"))?);
        }
    }
    *d = n;
    Ok(())
}

/// Set `key` to `value`, refusing a value that breaks a rule `validate` would
/// report: a broken (not merely unfinished) problem the draft did not have
/// before, for the same field and rule.
///
/// # Errors
/// As [`force`], and [`BuildRefusal::Broken`] with the problem; `d` is then
/// unchanged.
pub fn set(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    tabula_core::builder::set_checked(d, key, value, force, problems)
}

/// Take back the choice of `key`: a name, Profession, Principle or Worst
/// Impulse not chosen; a list entry dropped (a Side Profession with its
/// Specializations, a Special Talent whole); a talent's text, effect or magic
/// back to none; a weapon's level back to Minor; no Luck.
///
/// # Errors
/// [`BuildRefusal::UnknownField`].
pub fn clear(d: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
    let f = field(d, key)?;
    let drop = |list: &mut Vec<String>, j: usize| {
        if j < list.len() {
            list.remove(j);
        }
    };
    match f {
        Field::Name => d.name = None,
        Field::Player => d.player = None,
        Field::Profession => d.profession = None,
        Field::Spec(j) => drop(&mut d.specializations, j),
        Field::SideName(i) => {
            if i < d.side_professions.len() {
                d.side_professions.remove(i);
            }
        }
        Field::SideSpec(i, j) => {
            if let Some(s) = d.side_professions.get_mut(i) {
                drop(&mut s.specializations, j);
            }
        }
        Field::Quality(i) => drop(&mut d.qualities, i),
        Field::TalentName(i) => {
            if i < d.special_talents.len() {
                d.special_talents.remove(i);
            }
        }
        Field::TalentText(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.text.clear();
            }
        }
        Field::TalentEffect(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.effect = None;
            }
        }
        Field::TalentAmount(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.effect = t
                    .effect
                    .and_then(|e| effect_of(effect_name(Some(e))).flatten());
            }
        }
        Field::TalentMagic(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.magic = None;
            }
        }
        Field::Principle => d.principle = None,
        Field::WorstImpulse => d.worst_impulse = None,
        Field::WeaponName(i) => {
            if i < d.weapons.len() {
                d.weapons.remove(i);
            }
        }
        Field::WeaponLevel(i) => {
            if let Some(w) = d.weapons.get_mut(i) {
                w.level = Level::Minor;
            }
        }
        Field::Luck => d.luck = None,
    }
    Ok(())
}
