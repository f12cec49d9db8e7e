//! What the builder shows: each step of "Building a Starting Character"
//! with its fields, the budgets, the derived values and the problems.

use super::*;
use crate::rules::{
    RULE_CONCEPT, RULE_LUCK, RULE_MAGIC, RULE_PRINCIPLES, RULE_PROFESSIONS, RULE_QUALITIES,
    RULE_STARTING, RULE_WEAPONS,
};

/// One [`DraftProblem`] of [`Character::from_draft`] as a [`BuildProblem`]:
/// the rule, the message, the builder's field, and whether it is merely
/// unfinished.
pub fn build_problem(d: &Draft, p: &DraftProblem) -> BuildProblem {
    let mut unfinished = false;
    let field = match p {
        DraftProblem::NoName => {
            unfinished = d.name.is_none();
            Some("name".to_string())
        }
        DraftProblem::Name { problem } => {
            let f = match problem {
                tabula_core::names::NameError::Empty { field }
                | tabula_core::names::NameError::TooLong { field, .. }
                | tabula_core::names::NameError::ControlCharacter { field, .. }
                | tabula_core::names::NameError::Colon { field } => field,
            };
            Some(if f == "player" { "player" } else { "name" }.to_string())
        }
        DraftProblem::PlayerIsGm { .. } => Some("player".into()),
        DraftProblem::ControlCharacter { field, .. }
        | DraftProblem::TooLong { field }
        | DraftProblem::EmptyElement { field }
        | DraftProblem::Duplicate { field, .. }
        | DraftProblem::TooGeneric { field, .. } => key_for_path(d, field),
        DraftProblem::ProfessionWords { field, .. } => {
            if field == "profession.name" {
                unfinished = d.profession.is_none();
            }
            key_for_path(d, field)
        }
        DraftProblem::TooMany { .. }
        | DraftProblem::UnpairedMark { .. }
        | DraftProblem::CycleRule { .. }
        | DraftProblem::CycleChanges { .. } => None,
        DraftProblem::MagicWithoutQuality { field, .. } => {
            // R-SA-10: the Quality may still come in an open slot.
            if d.qualities_open() {
                unfinished = true;
                open_key(d, "qualities")
            } else {
                key_for_path(d, &format!("{field}.name"))
            }
        }
        DraftProblem::MagicQualityWithoutTalent { field, .. } => {
            // R-SA-10: the Special Talent may still come in an open slot.
            if d.talents_open() {
                unfinished = true;
                open_key(d, "special_talents")
            } else {
                key_for_path(d, field)
            }
        }
        DraftProblem::Missing { field, .. } => match field.as_str() {
            "principle" => {
                unfinished = d.principle.is_none();
                Some(field.clone())
            }
            "worst_impulse" => {
                unfinished = d.worst_impulse.is_none();
                Some(field.clone())
            }
            list => {
                unfinished = true;
                open_key(d, list)
            }
        },
        DraftProblem::BuildCount {
            field,
            expected,
            got,
        } => {
            let list = match field.as_str() {
                "side_professions[].specializations" => "side",
                "specializations (all Professions)" => "profession.specializations",
                other => other,
            };
            if got < expected {
                unfinished = true;
                open_key(d, list).or_else(|| {
                    if list == "profession.specializations" {
                        open_key(d, "side")
                    } else {
                        None
                    }
                })
            } else {
                last_key(d, list).or_else(|| last_key(d, "side"))
            }
        }
        DraftProblem::Luck { .. } => Some("luck".into()),
        DraftProblem::TalentEffect { index, .. } => {
            key_for_path(d, &format!("special_talents[{index}].amount"))
        }
    };
    BuildProblem {
        field,
        rule: p.rule(),
        message: p.to_string(),
        unfinished,
    }
}

/// Every problem of `d`: the [`DraftProblem`]s of [`Character::from_draft`] on
/// [`Draft::to_sheet`], each with the builder's field and whether it is merely
/// unfinished.
pub fn problems(d: &Draft) -> Vec<BuildProblem> {
    match Character::from_draft(d.to_sheet()) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(|p| build_problem(d, p)).collect(),
    }
}

// ---- The view ----------------------------------------------------------------

pub(super) fn text_field(
    f: Field,
    label: &str,
    help: &str,
    max_chars: usize,
    value: Option<&str>,
    required: bool,
) -> FieldView {
    FieldView {
        key: key_of(f),
        label: label.into(),
        help: help.into(),
        kind: FieldKind::Text { max_chars },
        value: value.map(|v| FieldValue::Text(v.to_string())),
        required,
    }
}

pub(super) fn choice_field(
    f: Field,
    label: &str,
    help: &str,
    list: &[(&str, &str, &str)],
    value: &str,
) -> FieldView {
    FieldView {
        key: key_of(f),
        label: label.into(),
        help: help.into(),
        kind: FieldKind::Choice {
            options: options(list),
        },
        value: Some(FieldValue::Text(value.into())),
        required: false,
    }
}

pub(super) fn step(
    id: &str,
    title: &str,
    help: &str,
    rule: Rule,
    fields: Vec<FieldView>,
) -> StepView {
    StepView {
        id: id.into(),
        title: title.into(),
        help: help.into(),
        rule,
        fields,
        done: false,
    }
}

pub(super) fn concept_step(d: &Draft) -> StepView {
    step(
        "concept",
        "1. Concept",
        "First come up with a concept for a character that fits into the setting of your game, as presented by the GM: what type of person might be enjoyable to play. Then translate their description into elements.",
        RULE_CONCEPT,
        vec![
            text_field(
                Field::Name,
                "Name",
                "What your character is called (at most 64 characters).",
                MAX_NAME_CHARS,
                d.name.as_deref(),
                true,
            ),
            text_field(
                Field::Player,
                "Player",
                "The seat that plays the character at a table; leave it empty for a character the GM plays.",
                MAX_NAME_CHARS,
                Some(d.player.as_deref().unwrap_or("")),
                false,
            ),
        ],
    )
}

pub(super) fn profession_step(d: &Draft) -> StepView {
    step(
        "profession",
        "2. Pick a Profession",
        "A Main Profession is the package of skills your character possesses, like \"Shopkeeper\", \"Arcane Knight\" or \"Desert Commando\". It should be two or less words and encapsulate what you want your character to be good at. Invoked, it adds two dice when fully applicable, one when partially.",
        RULE_STARTING,
        vec![text_field(
            Field::Profession,
            "Main Profession",
            "Two words or less, e.g. Roof Runner.",
            MAX_TEXT_CHARS,
            d.profession.as_deref(),
            true,
        )],
    )
}

pub(super) fn specializations_step(d: &Draft) -> StepView {
    let c = d.counts();
    let mut fields = Vec::new();
    for (j, s) in d.specializations.iter().enumerate() {
        fields.push(text_field(
            Field::Spec(j),
            &format!("Specialization {}", j + 1),
            "A single skill or topic within the Main Profession (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(s),
            true,
        ));
    }
    if d.main_open() {
        fields.push(text_field(
            Field::Spec(d.specializations.len()),
            if d.specializations.is_empty() {
                "Specialization"
            } else {
                "Another Specialization"
            },
            "A single skill or area of expertise your character excels at, e.g. Leaping, Quick Escapes, Wilderness Survival, Pyromancy. Invoked when applicable, it adds a die.",
            MAX_TEXT_CHARS,
            None,
            !c.swapped,
        ));
    }
    step(
        "specializations",
        "3. Pick one Specialization under that Profession",
        "A Specialization is a single skill or topic within a Profession that your character excels at. When you imagined your character concept, you probably envisioned them doing something: those are perfect candidates.",
        RULE_STARTING,
        fields,
    )
}

pub(super) fn sides_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    let side_open = d.side_open();
    for (i, side) in d.side_professions.iter().enumerate() {
        fields.push(text_field(
            Field::SideName(i),
            &format!("Side Profession {}", i + 1),
            "Two words or less (clear it to drop it with its Specializations).",
            MAX_TEXT_CHARS,
            Some(&side.name),
            true,
        ));
        for (j, s) in side.specializations.iter().enumerate() {
            fields.push(text_field(
                Field::SideSpec(i, j),
                &format!("{}: Specialization {}", side.name.trim(), j + 1),
                "A Specialization an advancement gave under this Side Profession.",
                MAX_TEXT_CHARS,
                Some(s),
                true,
            ));
        }
        if side_open && side.specializations.len() < MAX_ELEMENTS {
            fields.push(text_field(
                Field::SideSpec(i, side.specializations.len()),
                &format!("{}: another Specialization", side.name.trim()),
                "The advancements taken give a Specialization under a Side Profession not yet written.",
                MAX_TEXT_CHARS,
                None,
                false,
            ));
        }
    }
    if d.sides_open() {
        fields.push(text_field(
            Field::SideName(d.side_professions.len()),
            if d.side_professions.is_empty() {
                "Side Profession"
            } else {
                "Another Side Profession"
            },
            "Something else your character is good at, two words or less: what their upbringing gave them, a hobby, their job (a Roof Runner may work as a Night Clerk). Invoked, it adds one die.",
            MAX_TEXT_CHARS,
            None,
            true,
        ));
    }
    step(
        "side-professions",
        "4. Pick a Side Profession, but no Specializations (yet)",
        "A Side Profession functions just like a Main Profession, but contributes only one die to the pool when invoked. Its Specializations come with advancement.",
        RULE_STARTING,
        fields,
    )
}

pub(super) fn qualities_step(d: &Draft) -> StepView {
    let examples = EXAMPLE_QUALITIES.join(", ");
    let mut fields = Vec::new();
    for (i, q) in d.qualities.iter().enumerate() {
        fields.push(text_field(
            Field::Quality(i),
            &format!("Quality {}", i + 1),
            "A (usually positive) descriptor of your character (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(q),
            true,
        ));
    }
    if d.qualities_open() {
        fields.push(text_field(
            Field::Quality(d.qualities.len()),
            &format!("Quality {}", d.qualities.len().saturating_add(1)),
            &format!(
                "An adjective that defines your character even outside their skill set. The book's examples: {examples}. Not so broad it could apply anywhere (\"Lucky\" and \"Competent\" are refused). The starred ones (Magically Trained, Magical, Annointed) go with a magical Special Talent."
            ),
            MAX_TEXT_CHARS,
            None,
            true,
        ));
    }
    step(
        "qualities",
        "5. Pick two Qualities",
        "Qualities are traits that define your character: strong, smart, beautiful, eloquent, or just plain slippery. One Quality may be invoked for a check, adding a die. In a setting with magical or divine abilities, characters possessing these abilities must take both a specific Quality and a Special Talent to use them.",
        RULE_STARTING,
        fields,
    )
}

pub(super) fn talents_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    for (i, t) in d.special_talents.iter().enumerate() {
        fields.push(text_field(
            Field::TalentName(i),
            &format!("Special Talent {}", i + 1),
            "Its name (clear it to drop the Special Talent).",
            MAX_TEXT_CHARS,
            Some(&t.name),
            true,
        ));
        fields.push(text_field(
            Field::TalentText(i),
            &format!("{}: what it does", t.name.trim()),
            "In a sentence, e.g. \"This character always knows what the weather will be tomorrow\".",
            MAX_TALENT_TEXT,
            Some(&t.text),
            false,
        ));
        fields.push(choice_field(
            Field::TalentEffect(i),
            &format!("{}: effect on a roll", t.name.trim()),
            "How it changes a roll when you call it out, if it does.",
            &EFFECTS,
            effect_name(t.effect),
        ));
        if let Some(e) = t.effect.filter(|e| has_amount(*e)) {
            let (min, max) = amount_range(e);
            fields.push(FieldView {
                key: key_of(Field::TalentAmount(i)),
                label: format!("{}: how much", t.name.trim()),
                help: match e {
                    TalentEffect::TnCap { .. } => "The TN is never more than this (0 to 5).",
                    _ => {
                        "How many dice, Hits, Spares or Spirals, or how much the TN drops (1 to 3)."
                    }
                }
                .into(),
                kind: FieldKind::Int { min, max },
                value: Some(FieldValue::Int(i64::from(amount_of(e)))),
                required: false,
            });
        }
        fields.push(choice_field(
            Field::TalentMagic(i),
            &format!("{}: magical or divine", t.name.trim()),
            "Magical or divine abilities need both a specific Quality and a Special Talent (R-SA-10).",
            &MAGIC,
            magic_name(t.magic),
        ));
    }
    if d.talents_open() {
        fields.push(text_field(
            Field::TalentName(d.special_talents.len()),
            if d.special_talents.is_empty() {
                "Special Talent"
            } else {
                "Another Special Talent"
            },
            "A way to \"break the rules\": something your character can always do (Weather Sense, Small Contraption), bonus dice in an uncommon situation (One with the Forest), a lower TN (Hide in Plain Sight, Usually Bloody), changed results (Deadly Aim, Lucky in Love), or a supernatural ability (Teleportation, Spellcaster).",
            MAX_TEXT_CHARS,
            None,
            true,
        ));
    }
    step(
        "special-talents",
        "6. Pick one Special Talent",
        "Special Talents are unique abilities that differentiate your character from others with similar Professions and Qualities. They are not invoked like elements and only apply when your character is focal. The GM works with you on what the setting permits.",
        RULE_STARTING,
        fields,
    )
}

pub(super) fn principles_step(d: &Draft) -> StepView {
    step(
        "principles",
        "7. Principle and Worst Impulse",
        "Each a word to a phrase: the Principle is the character's better nature, the Worst Impulse their vice, flaw or bad habit. Sacrificing for one or overindulging the other adds a bonus die; trouble from them earns Luck.",
        RULE_PRINCIPLES,
        vec![
            text_field(
                Field::Principle,
                "Principle",
                "The idea your character gravitates to when helping others, e.g. \"Violence is not the answer\".",
                MAX_TEXT_CHARS,
                d.principle.as_deref(),
                true,
            ),
            text_field(
                Field::WorstImpulse,
                "Worst Impulse",
                "The vice that inevitably results in trouble, e.g. \"Stealing isn't a big deal\".",
                MAX_TEXT_CHARS,
                d.worst_impulse.as_deref(),
                true,
            ),
        ],
    )
}

pub(super) fn weapons_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    for (i, w) in d.weapons.iter().enumerate() {
        fields.push(text_field(
            Field::WeaponName(i),
            &format!("Weapon {}", i + 1),
            "The weapon (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(&w.name),
            true,
        ));
        fields.push(choice_field(
            Field::WeaponLevel(i),
            &format!("{}: base injury level", w.name.trim()),
            "The Injury a hit deals before extra Hits upgrade it.",
            &LEVELS,
            match w.level {
                Level::Minor => "minor",
                Level::Moderate => "moderate",
                Level::Severe => "severe",
            },
        ));
    }
    if d.weapons.len() < MAX_ELEMENTS {
        fields.push(text_field(
            Field::WeaponName(d.weapons.len()),
            "Another weapon",
            "A weapon your character carries (its level starts Minor; set it next). Leave empty when done.",
            MAX_TEXT_CHARS,
            Some(""),
            false,
        ));
    }
    step(
        "weapons",
        "8. Weapons",
        "Weapons have a base injury level: when a character gains a weapon, note whether this level is Minor, Moderate, or Severe. A character needs none.",
        RULE_WEAPONS,
        fields,
    )
}

pub(super) fn luck_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    if let Some(l) = d.luck {
        fields.push(FieldView {
            key: key_of(Field::Luck),
            label: "Luck".into(),
            help: "Luck held from play (clear it for none).".into(),
            kind: FieldKind::Int {
                min: 0,
                max: i64::from(MAX_LUCK),
            },
            value: Some(FieldValue::Int(i64::from(l))),
            required: false,
        });
    }
    step(
        "luck",
        "9. Luck",
        "Luck is gained in play, for enhancing the story through your choices (between 1 and 3 a session); a starting character has none. Spend it one for one for bonus dice.",
        RULE_LUCK,
        fields,
    )
}

pub(super) fn budgets(d: &Draft) -> Vec<Budget> {
    let c = d.counts();
    let n = |x: usize| i64::try_from(x).unwrap_or(i64::MAX);
    let mut out = Vec::new();
    if c.swapped {
        out.push(Budget {
            name: "Specializations".into(),
            total: n(c.main_specs.saturating_add(c.side_specs)),
            spent: n(d.specializations.len().saturating_add(d.side_spec_total())),
            rule: RULE_STARTING,
        });
    } else {
        out.push(Budget {
            name: "Specializations (Main Profession)".into(),
            total: n(c.main_specs),
            spent: n(d.specializations.len()),
            rule: RULE_STARTING,
        });
        if c.side_specs > 0 || d.side_spec_total() > 0 {
            out.push(Budget {
                name: "Specializations (Side Professions)".into(),
                total: n(c.side_specs),
                spent: n(d.side_spec_total()),
                rule: RULE_STARTING,
            });
        }
    }
    for (name, total, spent) in [
        ("Side Professions", c.sides, d.side_professions.len()),
        ("Qualities", c.qualities, d.qualities.len()),
        ("Special Talents", c.talents, d.special_talents.len()),
    ] {
        out.push(Budget {
            name: name.into(),
            total: n(total),
            spent: n(spent),
            rule: RULE_STARTING,
        });
    }
    out
}

pub(super) fn derived(d: &Draft) -> Vec<Derived> {
    let mut out = Vec::new();
    let prof = d.profession.as_deref().unwrap_or("").trim();
    out.push(Derived {
        name: "Main Profession".into(),
        value: if prof.is_empty() {
            "not chosen".into()
        } else {
            format!("{prof}: 2 dice fully applicable, 1 partially")
        },
        rule: RULE_PROFESSIONS,
    });
    let sides: Vec<&str> = d.side_professions.iter().map(|s| s.name.trim()).collect();
    out.push(Derived {
        name: "Side Professions".into(),
        value: if sides.is_empty() {
            "none yet".into()
        } else {
            format!("{}: 1 die each", sides.join(", "))
        },
        rule: RULE_PROFESSIONS,
    });
    let specs: Vec<&str> = d
        .specializations
        .iter()
        .chain(d.side_professions.iter().flat_map(|s| &s.specializations))
        .map(|s| s.trim())
        .collect();
    out.push(Derived {
        name: "Specializations".into(),
        value: if specs.is_empty() {
            "none yet".into()
        } else {
            format!("{}: +1 die each, with their Profession", specs.join(", "))
        },
        rule: RULE_PROFESSIONS,
    });
    out.push(Derived {
        name: "Qualities".into(),
        value: if d.qualities.is_empty() {
            "none yet".into()
        } else {
            format!("{}: one per check, +1 die", d.qualities.join(", "))
        },
        rule: RULE_QUALITIES,
    });
    let magic_q: Vec<&str> = d
        .qualities
        .iter()
        .filter(|q| is_magic_quality(q))
        .map(|q| q.trim())
        .collect();
    let magic_t: Vec<&str> = d
        .special_talents
        .iter()
        .filter(|t| t.grants_magic())
        .map(|t| t.name.trim())
        .collect();
    out.push(Derived {
        name: "Magic".into(),
        value: match (magic_q.is_empty(), magic_t.is_empty()) {
            (true, true) => "none".into(),
            (false, false) => format!(
                "Quality {} with Special Talent {}",
                magic_q.join(", "),
                magic_t.join(", ")
            ),
            (false, true) => format!(
                "Quality {} still needs a Special Talent that grants magic",
                magic_q.join(", ")
            ),
            (true, false) => format!(
                "Special Talent {} still needs a magical Quality",
                magic_t.join(", ")
            ),
        },
        rule: RULE_MAGIC,
    });
    if let Some(u) = &d.unpaired
        && (magic_q.is_empty() || magic_t.is_empty())
    {
        out.push(Derived {
            name: "Unpaired".into(),
            value: format!(
                "{} was gained alone by advancement and gives nothing until its pair is gained",
                u.trim()
            ),
            rule: crate::rules::RULE_MAGIC_UNPAIRED,
        });
    }
    out.push(Derived {
        name: "Largest dice pool".into(),
        value: "6: 1, +2 Profession, +1 Specialization, +1 Quality, +bonus dice".into(),
        rule: Rule::book(crate::BOOK, "Using The Spiral Dice"),
    });
    if !d.advancements.is_empty() {
        let cycle = crate::character::cycles(&d.advancements).unwrap_or_default();
        out.push(Derived {
            name: "Advancements".into(),
            value: format!(
                "{} taken, {} cycle(s) complete, {} change(s) made",
                d.advancements.len(),
                cycle.completed,
                d.cycle_changes.len()
            ),
            rule: crate::rules::RULE_ADVANCEMENT,
        });
    }
    if d.advancement_due {
        out.push(Derived {
            name: "Advancement due".into(),
            value: "one, after a consequential session".into(),
            rule: crate::rules::RULE_SESSION,
        });
    }
    for (name, t) in [("Injuries", &d.injuries), ("Stresses", &d.stresses)] {
        if !t.is_clear() {
            let mut v: Vec<String> = t
                .entries()
                .iter()
                .map(|(b, n)| format!("{} {n}", b.level))
                .collect();
            if t.debilitated {
                v.push("debilitated".into());
            }
            out.push(Derived {
                name: name.into(),
                value: v.join(", "),
                rule: crate::rules::RULE_INJURIES,
            });
        }
    }
    if d.dead {
        out.push(Derived {
            name: "Dead".into(),
            value: "killed: damage past Severe".into(),
            rule: RULE_WEAPONS,
        });
    }
    out
}

/// Everything a front end shows of `d`: the book's steps in order, the counts
/// the starting build gives, derived values and every problem.
pub fn build_view(d: &Draft) -> BuildView {
    BuildView {
        system: ID.into(),
        steps: vec![
            concept_step(d),
            profession_step(d),
            specializations_step(d),
            sides_step(d),
            qualities_step(d),
            talents_step(d),
            principles_step(d),
            weapons_step(d),
            luck_step(d),
        ],
        budgets: budgets(d),
        derived: derived(d),
        problems: problems(d),
        next: None,
        complete: false,
    }
    .settle()
}
