//! The draft's fields: their keys, when each is offered, and the choices
//! (Special Talent effects, magic, weapon levels).

use super::*;

/// One field of a draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Name,
    Player,
    Profession,
    Spec(usize),
    SideName(usize),
    SideSpec(usize, usize),
    Quality(usize),
    TalentName(usize),
    TalentText(usize),
    TalentEffect(usize),
    TalentAmount(usize),
    TalentMagic(usize),
    Principle,
    WorstImpulse,
    WeaponName(usize),
    WeaponLevel(usize),
    Luck,
}

pub(super) fn key_of(f: Field) -> String {
    match f {
        Field::Name => "name".into(),
        Field::Player => "player".into(),
        Field::Profession => "profession".into(),
        Field::Spec(j) => format!("profession.specializations.{j}"),
        Field::SideName(i) => format!("side_professions.{i}.name"),
        Field::SideSpec(i, j) => format!("side_professions.{i}.specializations.{j}"),
        Field::Quality(i) => format!("qualities.{i}"),
        Field::TalentName(i) => format!("special_talents.{i}.name"),
        Field::TalentText(i) => format!("special_talents.{i}.text"),
        Field::TalentEffect(i) => format!("special_talents.{i}.effect"),
        Field::TalentAmount(i) => format!("special_talents.{i}.amount"),
        Field::TalentMagic(i) => format!("special_talents.{i}.magic"),
        Field::Principle => "principle".into(),
        Field::WorstImpulse => "worst_impulse".into(),
        Field::WeaponName(i) => format!("weapons.{i}.name"),
        Field::WeaponLevel(i) => format!("weapons.{i}.level"),
        Field::Luck => "luck".into(),
    }
}

pub(super) fn index(s: &str) -> Option<usize> {
    // Digits only: no sign, no spaces; at most the table's list limit.
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 4 {
        return None;
    }
    s.parse().ok()
}

pub(super) fn parse_key(key: &str) -> Option<Field> {
    let parts: Vec<&str> = key.split('.').collect();
    Some(match parts.as_slice() {
        ["name"] => Field::Name,
        ["player"] => Field::Player,
        ["profession"] => Field::Profession,
        ["profession", "specializations", j] => Field::Spec(index(j)?),
        ["side_professions", i, "name"] => Field::SideName(index(i)?),
        ["side_professions", i, "specializations", j] => Field::SideSpec(index(i)?, index(j)?),
        ["qualities", i] => Field::Quality(index(i)?),
        ["special_talents", i, "name"] => Field::TalentName(index(i)?),
        ["special_talents", i, "text"] => Field::TalentText(index(i)?),
        ["special_talents", i, "effect"] => Field::TalentEffect(index(i)?),
        ["special_talents", i, "amount"] => Field::TalentAmount(index(i)?),
        ["special_talents", i, "magic"] => Field::TalentMagic(index(i)?),
        ["principle"] => Field::Principle,
        ["worst_impulse"] => Field::WorstImpulse,
        ["weapons", i, "name"] => Field::WeaponName(index(i)?),
        ["weapons", i, "level"] => Field::WeaponLevel(index(i)?),
        ["luck"] => Field::Luck,
        _ => return None,
    })
}

/// True when `f` is a field of `d` now (open slots included).
pub(super) fn offered(d: &Draft, f: Field) -> bool {
    let talent = |i: usize| d.special_talents.get(i);
    match f {
        Field::Name
        | Field::Player
        | Field::Profession
        | Field::Principle
        | Field::WorstImpulse => true,
        Field::Spec(j) => {
            j < d.specializations.len() || (j == d.specializations.len() && d.main_open())
        }
        Field::SideName(i) => {
            i < d.side_professions.len() || (i == d.side_professions.len() && d.sides_open())
        }
        Field::SideSpec(i, j) => d.side_professions.get(i).is_some_and(|s| {
            j < s.specializations.len()
                || (j == s.specializations.len()
                    && d.side_open()
                    && s.specializations.len() < MAX_ELEMENTS)
        }),
        Field::Quality(i) => {
            i < d.qualities.len() || (i == d.qualities.len() && d.qualities_open())
        }
        Field::TalentName(i) => {
            i < d.special_talents.len() || (i == d.special_talents.len() && d.talents_open())
        }
        Field::TalentText(i) | Field::TalentEffect(i) | Field::TalentMagic(i) => {
            talent(i).is_some()
        }
        Field::TalentAmount(i) => talent(i).is_some_and(|t| t.effect.is_some_and(has_amount)),
        Field::WeaponName(i) => {
            i < d.weapons.len() || (i == d.weapons.len() && d.weapons.len() < MAX_ELEMENTS)
        }
        Field::WeaponLevel(i) => i < d.weapons.len(),
        Field::Luck => d.luck.is_some(),
    }
}

// ---- Special Talent effects ----------------------------------------------

/// The kinds of [`TalentEffect`], as the builder offers them, with the book's
/// example of each ("Special Talents").
pub(crate) const EFFECTS: [(&str, &str, &str); 8] = [
    (
        "none",
        "No effect on a roll",
        "Something a character can always do, or an ability like Spellcaster: Special Talents do not have to add dice.",
    ),
    (
        "bonus-dice",
        "Bonus dice in a situation",
        "One with the Forest - This character adds a bonus die to all checks made within temperate wooded areas (a situation applicable less than a third of the time).",
    ),
    (
        "tn-cap",
        "The TN is never more than",
        "Hide in Plain Sight - The TN to hide for this character is never more than 4.",
    ),
    (
        "tn-reduction",
        "The TN is reduced",
        "A situation in which a character always reduces the TN for a check.",
    ),
    (
        "extra-hits",
        "Extra Hits on a success",
        "Deadly Aim - This character generates one additional Hit if they succeed in a check to shoot a bow.",
    ),
    (
        "extra-spares",
        "Automatic Spares",
        "Lucky in Love - This character adds two Spares to all checks related to romance or seduction.",
    ),
    (
        "extra-spirals",
        "Automatic Spirals",
        "A situation in which a character modifies the results of the roll with Spirals.",
    ),
    (
        "ignore-injury",
        "Ignore one Injury's TN increase",
        "Usually Bloody - This character may ignore the TN increase from a single Injury.",
    ),
];

pub(super) fn effect_name(e: Option<TalentEffect>) -> &'static str {
    match e {
        None => "none",
        Some(TalentEffect::BonusDice { .. }) => "bonus-dice",
        Some(TalentEffect::TnCap { .. }) => "tn-cap",
        Some(TalentEffect::TnReduction { .. }) => "tn-reduction",
        Some(TalentEffect::ExtraHits { .. }) => "extra-hits",
        Some(TalentEffect::ExtraSpares { .. }) => "extra-spares",
        Some(TalentEffect::ExtraSpirals { .. }) => "extra-spirals",
        Some(TalentEffect::IgnoreInjury) => "ignore-injury",
    }
}

/// The effect called `name` with the book's example amount.
pub(crate) fn effect_of(name: &str) -> Option<Option<TalentEffect>> {
    Some(match name {
        "none" => None,
        "bonus-dice" => Some(TalentEffect::BonusDice { dice: 1 }),
        "tn-cap" => Some(TalentEffect::TnCap { max: 4 }),
        "tn-reduction" => Some(TalentEffect::TnReduction { by: 1 }),
        "extra-hits" => Some(TalentEffect::ExtraHits { hits: 1 }),
        "extra-spares" => Some(TalentEffect::ExtraSpares { spares: 2 }),
        "extra-spirals" => Some(TalentEffect::ExtraSpirals { spirals: 1 }),
        "ignore-injury" => Some(TalentEffect::IgnoreInjury),
        _ => return None,
    })
}

pub(crate) fn has_amount(e: TalentEffect) -> bool {
    !matches!(e, TalentEffect::IgnoreInjury)
}

pub(super) fn amount_of(e: TalentEffect) -> u32 {
    match e {
        TalentEffect::BonusDice { dice } => dice,
        TalentEffect::TnCap { max } => max,
        TalentEffect::TnReduction { by } => by,
        TalentEffect::ExtraHits { hits } => hits,
        TalentEffect::ExtraSpares { spares } => spares,
        TalentEffect::ExtraSpirals { spirals } => spirals,
        TalentEffect::IgnoreInjury => 0,
    }
}

pub(crate) fn with_amount(e: TalentEffect, n: u32) -> TalentEffect {
    match e {
        TalentEffect::BonusDice { .. } => TalentEffect::BonusDice { dice: n },
        TalentEffect::TnCap { .. } => TalentEffect::TnCap { max: n },
        TalentEffect::TnReduction { .. } => TalentEffect::TnReduction { by: n },
        TalentEffect::ExtraHits { .. } => TalentEffect::ExtraHits { hits: n },
        TalentEffect::ExtraSpares { .. } => TalentEffect::ExtraSpares { spares: n },
        TalentEffect::ExtraSpirals { .. } => TalentEffect::ExtraSpirals { spirals: n },
        TalentEffect::IgnoreInjury => TalentEffect::IgnoreInjury,
    }
}

/// The amounts the sheet's check allows (`character::effect_problem`): a TN
/// cap 0 to 5, every other amount 1 to 3.
pub(super) fn amount_range(e: TalentEffect) -> (i64, i64) {
    match e {
        TalentEffect::TnCap { .. } => (0, 5),
        _ => (1, 3),
    }
}

pub(super) const MAGIC: [(&str, &str, &str); 3] = [
    (
        "from-words",
        "Read from its name and text",
        "Magical when its name or text speaks of magic, the divine or spells (Spellcaster).",
    ),
    (
        "magical",
        "Grants magical or divine abilities",
        "Needs a specific Quality too (Magically Trained, Magical, Annointed): R-SA-10.",
    ),
    (
        "not-magical",
        "Grants no magical or divine abilities",
        "Whatever its words say (a Spell Breaker immune to magic).",
    ),
];

pub(super) fn magic_name(m: Option<bool>) -> &'static str {
    match m {
        None => "from-words",
        Some(true) => "magical",
        Some(false) => "not-magical",
    }
}

pub(super) const LEVELS: [(&str, &str, &str); 3] = [
    (
        "minor",
        "Minor",
        "Knife, low draw weight bow and arrow, .22 caliber pistol.",
    ),
    (
        "moderate",
        "Moderate",
        "Sword, large dagger, spear, handgun, hunting rifle.",
    ),
    ("severe", "Severe", "Sniper rifle, shotgun, chainsaw."),
];

pub(super) fn options(list: &[(&str, &str, &str)]) -> Vec<ChoiceOption> {
    list.iter()
        .map(|(value, label, help)| ChoiceOption {
            value: (*value).into(),
            label: (*label).into(),
            help: (*help).into(),
        })
        .collect()
}

// ---- Problems --------------------------------------------------------------

/// The builder's key for a field path of the validator (`qualities[1]`,
/// `side_professions[0].name`), when the draft has such a field.
pub(super) fn key_for_path(d: &Draft, path: &str) -> Option<String> {
    let dotted = path.replace('[', ".").replace(']', "");
    let dotted = if dotted == "profession.name" {
        "profession".to_string()
    } else {
        dotted
    };
    parse_key(&dotted).filter(|&f| offered(d, f)).map(key_of)
}

pub(super) fn last_key(d: &Draft, list: &str) -> Option<String> {
    let f = match list {
        "profession.specializations" => Field::Spec(d.specializations.len().checked_sub(1)?),
        "side_professions" => Field::SideName(d.side_professions.len().checked_sub(1)?),
        "qualities" => Field::Quality(d.qualities.len().checked_sub(1)?),
        "special_talents" => Field::TalentName(d.special_talents.len().checked_sub(1)?),
        _ => {
            // The last Side Specialization.
            let (i, s) = d
                .side_professions
                .iter()
                .enumerate()
                .rfind(|(_, s)| !s.specializations.is_empty())?;
            Field::SideSpec(i, s.specializations.len() - 1)
        }
    };
    Some(key_of(f))
}

/// The open slot of a list, if it is offered.
pub(super) fn open_key(d: &Draft, list: &str) -> Option<String> {
    let f = match list {
        "profession.specializations" => Field::Spec(d.specializations.len()),
        "side_professions" => Field::SideName(d.side_professions.len()),
        "qualities" => Field::Quality(d.qualities.len()),
        "special_talents" => Field::TalentName(d.special_talents.len()),
        _ => {
            let s = d.side_professions.first()?;
            Field::SideSpec(0, s.specializations.len())
        }
    };
    offered(d, f).then(|| key_of(f))
}
