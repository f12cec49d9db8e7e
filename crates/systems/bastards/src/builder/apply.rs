//! A value set on the draft: its kind checked, then applied (`force`), and a
//! choice taken back (`clear`).

use super::*;

pub(crate) fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.into(),
        message: message.into(),
    }
}

/// The value is of the field's kind: a number for a number, an offered option,
/// options each offered once, a text short enough.
pub(crate) fn check_kind(f: &FieldView, value: &FieldValue) -> Result<(), BuildRefusal> {
    let key = f.key.as_str();
    match (&f.kind, value) {
        (FieldKind::Int { .. }, FieldValue::Int(_)) => Ok(()),
        (FieldKind::Int { .. }, _) => Err(bad(key, "a whole number is wanted")),
        (FieldKind::Text { max_chars }, FieldValue::Text(t)) => {
            if t.chars().count() > *max_chars {
                Err(bad(key, format!("at most {max_chars} characters")))
            } else {
                Ok(())
            }
        }
        (FieldKind::Text { .. }, _) => Err(bad(key, "text is wanted")),
        (FieldKind::Choice { options }, FieldValue::Text(t)) => {
            if options.iter().any(|o| o.value == *t) {
                Ok(())
            } else {
                Err(bad(
                    key,
                    format!(
                        "{t:?} is not one of {}",
                        options
                            .iter()
                            .map(|o| o.value.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ))
            }
        }
        (FieldKind::Choice { .. }, _) => Err(bad(key, "one of the options is wanted")),
        (FieldKind::Multi { options, .. }, FieldValue::List(l)) => {
            for (i, v) in l.iter().enumerate() {
                if !options.iter().any(|o| o.value == *v) {
                    return Err(bad(key, format!("{v:?} is not one of the options")));
                }
                if l[..i].contains(v) {
                    return Err(bad(key, format!("{v:?} is picked twice")));
                }
            }
            Ok(())
        }
        (FieldKind::Multi { .. }, _) => Err(bad(key, "a list of options is wanted")),
    }
}

pub(crate) fn known(view: &BuildView) -> String {
    view.steps
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn as_text(v: Option<&FieldValue>) -> &str {
    match v {
        Some(FieldValue::Text(t)) => t.as_str(),
        _ => "",
    }
}

pub(crate) fn as_int(v: Option<&FieldValue>, default: i64) -> i64 {
    match v {
        Some(FieldValue::Int(n)) => *n,
        _ => default,
    }
}

pub(crate) fn slot(rest: &str) -> Option<(usize, &str)> {
    let (i, part) = rest.split_once('.').unwrap_or((rest, ""));
    Some((i.parse().ok()?, part))
}

/// Apply `value` (or clear, when `None`) to `key`, checking only the value's
/// kind and what the draft cannot hold (a count below 0, a skill named twice).
pub(crate) fn apply(
    d: &mut Draft,
    key: &str,
    value: Option<&FieldValue>,
) -> Result<(), BuildRefusal> {
    let view = view(d);
    let Some((_, f)) = view.field(key) else {
        return Err(BuildRefusal::UnknownField {
            key: key.into(),
            known: known(&view),
        });
    };
    if let Some(v) = value {
        check_kind(f, v)?;
    }
    let text = as_text(value).to_string();
    let empty = text.trim().is_empty();
    let suit = suit_of(d);
    if key == "name" {
        d.name = (!empty).then_some(text);
    } else if key == "player" {
        d.player = text;
    } else if key == "suit" {
        d.suit = (!empty).then_some(text);
    } else if let Some(t) = key.strip_prefix("traits.").and_then(Trait::parse) {
        let v = as_int(value, start(suit, t));
        *chosen_mut(d, t) = (v != start(suit, t)).then_some(v);
    } else if let Some(s) = key.strip_prefix("skills.").and_then(book_skill) {
        let v = as_int(value, 1);
        if v == 1 {
            d.skills.remove(s);
        } else {
            d.skills.insert(s.to_string(), v);
        }
    } else if let Some((i, part)) = key.strip_prefix("more_skills.").and_then(slot) {
        match part {
            "name" if empty => {
                if i < d.more_skills.len() {
                    d.more_skills.remove(i);
                }
            }
            "name" => {
                let name = text.trim().to_string();
                if let Some(b) = book_skill(&name) {
                    return Err(bad(
                        key,
                        format!("{b} is a skill of the book: set skills.{b} instead"),
                    ));
                }
                if let Some(j) = d
                    .more_skills
                    .iter()
                    .position(|m| same_name(&m.name, &name))
                    .filter(|j| *j != i)
                {
                    return Err(bad(
                        key,
                        format!("{name} is already more_skills.{j}: raise its rank there"),
                    ));
                }
                match d.more_skills.get_mut(i) {
                    Some(m) => {
                        let old = std::mem::replace(&mut m.name, name.clone());
                        for s in &mut d.specialties {
                            for k in &mut s.skills {
                                if same_name(k, &old) {
                                    *k = name.clone();
                                }
                            }
                        }
                    }
                    None => d.more_skills.push(MoreSkill { name, rank: 1 }),
                }
            }
            _ => {
                if let Some(m) = d.more_skills.get_mut(i) {
                    m.rank = as_int(value, 1);
                }
            }
        }
    } else if let Some((i, part)) = key.strip_prefix("specialties.").and_then(slot) {
        match part {
            "name" if empty => {
                if i < d.specialties.len() {
                    d.specialties.remove(i);
                }
            }
            "name" => match d.specialties.get_mut(i) {
                Some(s) => s.name = text,
                None => d.specialties.push(SpecialtyDraft {
                    name: text,
                    skills: Vec::new(),
                }),
            },
            _ => {
                if let Some(s) = d.specialties.get_mut(i) {
                    s.skills = match value {
                        Some(FieldValue::List(l)) => l.clone(),
                        _ => Vec::new(),
                    };
                }
            }
        }
    } else if key == "advantages" {
        d.advantages = match value {
            Some(FieldValue::List(l)) => l.clone(),
            _ => Vec::new(),
        };
    } else if key == "advantages.Counter" || key == "advantages.Florentine" {
        let weapons: Vec<String> = text
            .split(',')
            .map(|w| w.trim().to_string())
            .filter(|w| !w.is_empty())
            .collect();
        if key == "advantages.Counter" {
            d.counter = weapons;
        } else {
            d.florentine = weapons;
        }
    } else if key == "advantages.Toughness" || key == "advantages.Resolve" {
        let n = as_int(value, 0);
        if !(0..=MAX_LIST as i64).contains(&n) {
            return Err(bad(key, format!("times taken must be 0 to {MAX_LIST}")));
        }
        if key == "advantages.Toughness" {
            d.toughness = n;
        } else {
            d.resolve = n;
        }
    } else if let Some((i, _)) = key.strip_prefix("disadvantages.").and_then(slot) {
        if empty {
            if i < d.disadvantages.len() {
                d.disadvantages.remove(i);
            }
        } else if let Some(x) = d.disadvantages.get_mut(i) {
            *x = text;
        } else {
            d.disadvantages.push(text);
        }
    } else if let Some((i, part)) = key.strip_prefix("weapons.").and_then(slot) {
        if part == "name" && empty {
            if i < d.weapons.len() {
                d.weapons.remove(i);
            }
        } else if part == "name" && i == d.weapons.len() {
            d.weapons.push(Weapon {
                name: text,
                damage: 0,
                skill: "Unarmed Combat".into(),
                melee: true,
                ready: true,
            });
        } else if let Some(w) = d.weapons.get_mut(i) {
            match part {
                "name" => w.name = text,
                "damage" => w.damage = as_int(value, 0),
                "skill" if empty => w.skill = "Unarmed Combat".into(),
                "skill" => w.skill = text,
                "melee" => w.melee = text != "no",
                _ => w.ready = text != "no",
            }
        }
    } else if key == "armour.name" {
        if empty {
            d.armour = None;
        } else {
            let reduction = d.armour.as_ref().map_or(0, |a| a.reduction);
            d.armour = Some(Armour {
                name: text,
                reduction,
            });
        }
    } else if key == "armour.reduction"
        && let Some(a) = &mut d.armour
    {
        a.reduction = as_int(value, 0);
    }
    Ok(())
}

/// Take back `key` on a copy, then refuse (leaving `d` unchanged) when a
/// broken problem appears that the draft did not have (core's
/// [`tabula_core::builder::newly_broken`], as `set` checks it through
/// [`tabula_core::builder::set_checked`]).
pub(crate) fn cleared(d: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
    let mut next = d.clone();
    apply(&mut next, key, None)?;
    if let Some(problem) = tabula_core::builder::newly_broken(&problems(d), problems(&next)) {
        return Err(BuildRefusal::Broken {
            key: key.into(),
            problem,
        });
    }
    *d = next;
    Ok(())
}
