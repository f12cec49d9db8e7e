//! [`Character::from_draft`]: every rule of a legal character checked at once
//! ("Building a Starting Character", "Qualities", "Special Talents"; R-SA-10,
//! R-SA-12).

use super::*;

pub(super) fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

impl Character {
    /// Validate a draft. Checks every rule and returns all that are broken,
    /// in this order: the names (`name_and_player`), control characters
    /// (`control_characters`), text lengths and list sizes (`sizes`), the
    /// elements (`elements`), Qualities and magic (`qualities_and_magic`),
    /// the elements every character has (`missing_elements`) and the build
    /// with its advancements and Luck (`build_counts`).
    ///
    /// # Errors
    /// [`DraftError`] listing every [`DraftProblem`].
    pub fn from_draft(draft: CharacterDraft) -> Result<Character, DraftError> {
        let mut p = Vec::new();
        let d = &draft;
        name_and_player(d, &mut p);
        control_characters(d, &mut p);
        sizes(d, &mut p);
        elements(d, &mut p);
        qualities_and_magic(d, &mut p);
        missing_elements(d, &mut p);
        build_counts(d, &mut p);
        if p.is_empty() {
            Ok(Character { sheet: draft })
        } else {
            Err(DraftError {
                draft: Box::new(draft),
                problems: p,
            })
        }
    }
}

/// The character's name is one a table can show, and its player a seat
/// name that is not the GM's ([`RULE_SHEET`](crate::rules::RULE_SHEET), Tabula's own).
fn name_and_player(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    if d.name.trim().is_empty() {
        p.push(DraftProblem::NoName);
    } else if let Err(problem) = check_name("name", &d.name) {
        p.push(DraftProblem::Name { problem });
    }
    if let Some(player) = &d.player {
        if let Err(problem) = check_seat_name("player", player) {
            p.push(DraftProblem::Name { problem });
        } else if Seat::parse(player).is_gm() {
            p.push(DraftProblem::PlayerIsGm {
                player: player.clone(),
            });
        }
    }
}

/// `s` in `field` is at most [`MAX_TEXT`] characters ([`RULE_SHEET`](crate::rules::RULE_SHEET)).
fn long(p: &mut Vec<DraftProblem>, field: &str, s: &str) {
    if s.chars().count() > MAX_TEXT {
        p.push(DraftProblem::TooLong {
            field: field.to_string(),
        });
    }
}

/// No control characters anywhere a sheet's text reaches a screen (a
/// Special Talent's text may hold line breaks; [`RULE_SHEET`](crate::rules::RULE_SHEET)).
fn control_characters(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    let mut texts: Vec<(String, &str, bool)> = vec![
        ("principle".into(), &d.principle, false),
        ("worst_impulse".into(), &d.worst_impulse, false),
        ("profession.name".into(), &d.profession.name, false),
    ];
    for (j, x) in d.profession.specializations.iter().enumerate() {
        texts.push((format!("profession.specializations[{j}]"), x, false));
    }
    for (i, side) in d.side_professions.iter().enumerate() {
        texts.push((format!("side_professions[{i}].name"), &side.name, false));
        for (j, x) in side.specializations.iter().enumerate() {
            texts.push((
                format!("side_professions[{i}].specializations[{j}]"),
                x,
                false,
            ));
        }
    }
    for (i, q) in d.qualities.iter().enumerate() {
        texts.push((format!("qualities[{i}]"), q, false));
    }
    for (i, t) in d.special_talents.iter().enumerate() {
        texts.push((format!("special_talents[{i}].name"), &t.name, false));
        texts.push((format!("special_talents[{i}].text"), &t.text, true));
    }
    for (i, w) in d.weapons.iter().enumerate() {
        texts.push((format!("weapons[{i}].name"), &w.name, false));
    }
    for (field, track) in [("injuries", &d.injuries), ("stresses", &d.stresses)] {
        for (b, name) in track.entries() {
            texts.push((
                format!("{field}.{}", b.level.to_string().to_lowercase()),
                name,
                false,
            ));
        }
    }
    for (field, text, newlines) in texts {
        if let Some(c) = control_char(text, newlines) {
            p.push(DraftProblem::ControlCharacter {
                field,
                code: c as u32,
            });
        }
    }
}

/// The Principle, the Worst Impulse and the Special Talents within the text
/// limits, and no list longer than [`MAX_ELEMENTS`] ([`RULE_SHEET`](crate::rules::RULE_SHEET)).
fn sizes(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    long(p, "principle", &d.principle);
    long(p, "worst_impulse", &d.worst_impulse);
    for (i, t) in d.special_talents.iter().enumerate() {
        long(p, &format!("special_talents[{i}].name"), &t.name);
        if t.text.chars().count() > 4 * MAX_TEXT {
            p.push(DraftProblem::TooLong {
                field: format!("special_talents[{i}].text"),
            });
        }
    }
    for (field, n) in [
        ("side_professions", d.side_professions.len()),
        ("qualities", d.qualities.len()),
        ("special_talents", d.special_talents.len()),
        ("weapons", d.weapons.len()),
        ("advancements", d.advancements.len()),
        ("cycle_changes", d.cycle_changes.len()),
        (
            "profession.specializations",
            d.profession.specializations.len(),
        ),
    ] {
        if n > MAX_ELEMENTS {
            p.push(DraftProblem::TooMany {
                field: field.into(),
            });
        }
    }
}

/// The elements one by one: Professions of two words or less
/// ([`RULE_PROFESSIONS`](crate::rules::RULE_PROFESSIONS)), no empty or overlong Specialization, Quality,
/// Special Talent, track entry or weapon, a Special Talent's effect in its
/// range ([`RULE_TALENTS`](crate::rules::RULE_TALENTS)), and no element named twice ([`RULE_ELEMENTS`](crate::rules::RULE_ELEMENTS)).
fn elements(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    let mut profs: Vec<(String, &ProfessionDraft)> =
        vec![("profession".to_string(), &d.profession)];
    for (i, s) in d.side_professions.iter().enumerate() {
        profs.push((format!("side_professions[{i}]"), s));
    }
    let mut names: Vec<(String, String)> = Vec::new();
    for (field, prof) in &profs {
        let w = words(&prof.name);
        if w == 0 || w > 2 {
            p.push(DraftProblem::ProfessionWords {
                field: format!("{field}.name"),
                name: prof.name.clone(),
                words: w,
            });
        }
        names.push((format!("{field}.name"), prof.name.trim().to_lowercase()));
        if prof.specializations.len() > MAX_ELEMENTS {
            p.push(DraftProblem::TooMany {
                field: format!("{field}.specializations"),
            });
        }
        for (j, s) in prof.specializations.iter().enumerate() {
            let f = format!("{field}.specializations[{j}]");
            if s.trim().is_empty() {
                p.push(DraftProblem::EmptyElement { field: f.clone() });
            }
            if s.chars().count() > MAX_TEXT {
                p.push(DraftProblem::TooLong { field: f.clone() });
            }
            names.push((f, s.trim().to_lowercase()));
        }
    }
    for (i, q) in d.qualities.iter().enumerate() {
        let f = format!("qualities[{i}]");
        if q.trim().is_empty() {
            p.push(DraftProblem::EmptyElement { field: f.clone() });
        }
        if q.chars().count() > MAX_TEXT {
            p.push(DraftProblem::TooLong { field: f.clone() });
        }
        names.push((f, q.trim().to_lowercase()));
    }
    for (i, t) in d.special_talents.iter().enumerate() {
        if t.name.trim().is_empty() {
            p.push(DraftProblem::EmptyElement {
                field: format!("special_talents[{i}].name"),
            });
        }
        if let Some(problem) = t.effect.and_then(effect_problem) {
            p.push(DraftProblem::TalentEffect { index: i, problem });
        }
    }
    for (field, track) in [("injuries", &d.injuries), ("stresses", &d.stresses)] {
        for (b, name) in track.entries() {
            if name.trim().is_empty() || name.chars().count() > crate::harm::MAX_ENTRY_CHARS {
                p.push(DraftProblem::TooLong {
                    field: format!("{field}.{}", b.level.to_string().to_lowercase()),
                });
            }
        }
    }
    for (i, w) in d.weapons.iter().enumerate() {
        long(p, &format!("weapons[{i}].name"), &w.name);
        if w.name.trim().is_empty() {
            p.push(DraftProblem::EmptyElement {
                field: format!("weapons[{i}].name"),
            });
        }
    }
    for (i, (f, n)) in names.iter().enumerate() {
        if !n.is_empty() && names[..i].iter().any(|(_, m)| m == n) {
            p.push(DraftProblem::Duplicate {
                field: f.clone(),
                name: n.clone(),
            });
        }
    }
}

/// "Lucky" and "Competent" may not be Qualities ([`RULE_QUALITIES`](crate::rules::RULE_QUALITIES),
/// R-SA-10); magic needs both a specific Quality and a Special Talent
/// ([`RULE_MAGIC`](crate::rules::RULE_MAGIC), R-SA-10); a half gained alone by advancement may wait
/// for the other, marked `unpaired` ([`RULE_MAGIC_UNPAIRED`](crate::rules::RULE_MAGIC_UNPAIRED), R-SA-12):
/// never at creation, so only when an advancement of its kind was taken.
fn qualities_and_magic(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    for (i, q) in d.qualities.iter().enumerate() {
        if is_too_generic(q) {
            p.push(DraftProblem::TooGeneric {
                field: format!("qualities[{i}]"),
                quality: q.trim().to_string(),
            });
        }
    }
    let magic_qualities: Vec<usize> = (0..d.qualities.len())
        .filter(|&i| is_magic_quality(&d.qualities[i]))
        .collect();
    let magic_talents: Vec<usize> = (0..d.special_talents.len())
        .filter(|&i| d.special_talents[i].grants_magic())
        .collect();
    let marked = |name: &str, kind: AdvanceKind| {
        d.unpaired
            .as_deref()
            .is_some_and(|u| same_name(u.trim(), name.trim()))
            && d.advancements.contains(&kind)
    };
    if let Some(u) = &d.unpaired {
        let names_magic = magic_qualities
            .iter()
            .any(|&i| same_name(d.qualities[i].trim(), u.trim()))
            || magic_talents
                .iter()
                .any(|&i| same_name(d.special_talents[i].name.trim(), u.trim()));
        if !names_magic {
            p.push(DraftProblem::UnpairedMark {
                name: u.trim().to_string(),
            });
        }
    }
    if magic_qualities.is_empty() {
        for &i in &magic_talents {
            if marked(&d.special_talents[i].name, AdvanceKind::SpecialTalent) {
                continue;
            }
            p.push(DraftProblem::MagicWithoutQuality {
                field: format!("special_talents[{i}]"),
                talent: d.special_talents[i].name.trim().to_string(),
            });
        }
    }
    if magic_talents.is_empty() {
        for &i in &magic_qualities {
            if marked(&d.qualities[i], AdvanceKind::Quality) {
                continue;
            }
            p.push(DraftProblem::MagicQualityWithoutTalent {
                field: format!("qualities[{i}]"),
                quality: d.qualities[i].trim().to_string(),
            });
        }
    }
}

/// The elements every character has: a Side Profession, a Quality, a
/// Special Talent, a Principle and a Worst Impulse ([`RULE_STARTING`](crate::rules::RULE_STARTING),
/// [`RULE_PRINCIPLES`](crate::rules::RULE_PRINCIPLES)).
fn missing_elements(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    let mut missing = |field: &str, what: &str, ok: bool| {
        if !ok {
            p.push(DraftProblem::Missing {
                field: field.into(),
                what: what.into(),
            });
        }
    };
    missing(
        "side_professions",
        "a Side Profession",
        !d.side_professions.is_empty(),
    );
    missing("qualities", "a Quality", !d.qualities.is_empty());
    missing(
        "special_talents",
        "a Special Talent",
        !d.special_talents.is_empty(),
    );
    missing("principle", "a Principle", !d.principle.trim().is_empty());
    missing(
        "worst_impulse",
        "a Worst Impulse",
        !d.worst_impulse.trim().is_empty(),
    );
}

/// The starting build plus advancements: one Specialization, one Side
/// Profession, two Qualities and one Special Talent, each advancement
/// adding its element (after a swap the Specializations count together);
/// the cycle rule and no more cycle changes than completed cycles
/// ([`RULE_STARTING`](crate::rules::RULE_STARTING), [`RULE_ADVANCEMENT`](crate::rules::RULE_ADVANCEMENT)); Luck at most [`MAX_LUCK`]
/// ([`RULE_LUCK`](crate::rules::RULE_LUCK)).
fn build_counts(d: &CharacterDraft, p: &mut Vec<DraftProblem>) {
    let n = |k: AdvanceKind| d.advancements.iter().filter(|a| **a == k).count();
    let side_specs: usize = d
        .side_professions
        .iter()
        .map(|s| s.specializations.len())
        .sum();
    let swapped = d.cycle_changes.contains(&CycleChangeKind::Swap);
    let mut count = |field: &str, expected: usize, got: usize| {
        if expected != got {
            p.push(DraftProblem::BuildCount {
                field: field.into(),
                expected,
                got,
            });
        }
    };
    if swapped {
        count(
            "specializations (all Professions)",
            1 + n(AdvanceKind::ProfessionSpecialization) + n(AdvanceKind::SideSpecialization),
            d.profession.specializations.len() + side_specs,
        );
    } else {
        count(
            "profession.specializations",
            1 + n(AdvanceKind::ProfessionSpecialization),
            d.profession.specializations.len(),
        );
        count(
            "side_professions[].specializations",
            n(AdvanceKind::SideSpecialization),
            side_specs,
        );
    }
    count(
        "side_professions",
        1 + n(AdvanceKind::SideProfession),
        d.side_professions.len(),
    );
    count("qualities", 2 + n(AdvanceKind::Quality), d.qualities.len());
    count(
        "special_talents",
        1 + n(AdvanceKind::SpecialTalent),
        d.special_talents.len(),
    );
    match cycles(&d.advancements) {
        Ok(st) => {
            if d.cycle_changes.len() > st.completed as usize {
                p.push(DraftProblem::CycleChanges {
                    changes: d.cycle_changes.len(),
                    completed: st.completed,
                });
            }
        }
        Err((index, choice)) => p.push(DraftProblem::CycleRule { index, choice }),
    }
    if d.luck > MAX_LUCK {
        p.push(DraftProblem::Luck { got: d.luck });
    }
}

pub(super) fn effect_problem(e: TalentEffect) -> Option<String> {
    let in_range = |v: u32, lo: u32, hi: u32, what: &str| {
        (v < lo || v > hi).then(|| format!("{what} must be {lo} to {hi}, not {v}"))
    };
    match e {
        TalentEffect::BonusDice { dice } => in_range(dice, 1, 3, "dice"),
        TalentEffect::TnCap { max } => in_range(max, 0, 5, "max"),
        TalentEffect::TnReduction { by } => in_range(by, 1, 3, "by"),
        TalentEffect::ExtraHits { hits } => in_range(hits, 1, 3, "hits"),
        TalentEffect::ExtraSpares { spares } => in_range(spares, 1, 3, "spares"),
        TalentEffect::ExtraSpirals { spirals } => in_range(spirals, 1, 3, "spirals"),
        TalentEffect::IgnoreInjury => None,
    }
}
