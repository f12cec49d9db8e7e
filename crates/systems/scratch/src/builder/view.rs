//! The builder's view of a draft: its fields by step, the derived defenses,
//! hit points and carrying, and the CP and level budgets ("Abilities",
//! "Defenses", "Hit Points").

use super::*;

pub(super) fn int_field(
    key: String,
    label: String,
    help: &str,
    min: i64,
    max: i64,
    value: Option<i64>,
) -> FieldView {
    FieldView {
        key,
        label,
        help: help.to_string(),
        kind: FieldKind::Int {
            min,
            max: max.max(min),
        },
        value: value.map(FieldValue::Int),
        required: false,
    }
}

pub(super) fn text_field(
    key: String,
    label: String,
    help: &str,
    value: Option<&str>,
    required: bool,
) -> FieldView {
    FieldView {
        key,
        label,
        help: help.to_string(),
        kind: FieldKind::Text {
            max_chars: MAX_TEXT_CHARS,
        },
        value: value.map(|v| FieldValue::Text(v.to_string())),
        required,
    }
}

/// The fields of one ability (its level, and its note once it has a level).
/// `room` is what the budget leaves for it above its level now.
pub(super) fn ability_fields(
    d: &Draft,
    (prefix, label): (&str, &str),
    a: Ability,
    max_level: i64,
    room: i64,
    out: &mut Vec<FieldView>,
) {
    let now = d.level(a);
    let cur = now.map(counted).unwrap_or(0);
    let max = max_level
        .min(i64::from(MAX_LEVEL_CAP))
        .min(cur.saturating_add(room))
        .max(0);
    out.push(int_field(
        format!("{prefix}abilities.{}", a.name()),
        format!("{label}{}", a.name()),
        ability_help(a),
        0,
        max,
        now,
    ));
    if now.is_some_and(|l| l > 0) {
        out.push(text_field(
            format!("{prefix}notes.{}", a.name()),
            format!("{label}{}: what it represents", a.name()),
            note_help(a),
            d.notes.get(a.name()).map(String::as_str),
            false,
        ));
    }
}

/// Levels and notes the sheet holds that no ability field shows (an imported
/// sheet's unknown ability, a note on an ability it lacks): shown so they can
/// be mended or cleared. `shown` are the abilities offered.
pub(super) fn stray_fields(d: &Draft, prefix: &str, shown: &[Ability], out: &mut Vec<FieldView>) {
    for (k, v) in &d.abilities {
        if !shown.iter().any(|a| a.name() == k) {
            out.push(int_field(
                format!("{prefix}abilities.{k}"),
                format!("{k} (not offered here: clear it)"),
                "Not one of the book's abilities here; the setting's own abilities go in their own slots.",
                0,
                0,
                Some(*v),
            ));
        }
    }
    for (k, v) in &d.notes {
        let has = shown
            .iter()
            .any(|a| a.name() == k && d.level(*a).is_some_and(|l| l > 0));
        if !has {
            out.push(text_field(
                format!("{prefix}notes.{k}"),
                format!("note on {k} (no such ability: clear it)"),
                "A note goes with an ability the character has.",
                Some(v),
                false,
            ));
        }
    }
}

/// Every step of the book for `d`, in order.
pub(super) fn steps(d: &Draft) -> Vec<StepView> {
    let n = numbers(d);
    let r = d.rules();
    let left = n.budget.saturating_sub(n.spent);
    let mut steps = Vec::new();
    let mut step = |id: &str, title: String, help: &str, rule: Rule, fields: Vec<FieldView>| {
        steps.push(StepView {
            id: id.to_string(),
            title,
            help: help.to_string(),
            rule,
            fields,
            done: false,
        });
    };
    step(
        "character",
        "1. The character".into(),
        "A Scratch RPS character looks something like this: \"Zimzambamalam (10 agility, 10 intelligence, 10 strength, 1 stamina): a master of magic\", then one line per ability, \"8 shooting: destroys enemies with bolts of lightning from his fingertips\".",
        rules::CHARACTER,
        vec![
            text_field(
                "name".into(),
                "Name".into(),
                "What the character is called.",
                (!d.name.is_empty()).then_some(d.name.as_str()),
                true,
            ),
            text_field(
                "id".into(),
                "Id".into(),
                "A short id typed in commands (letters, digits, '-'); leave it out to use the name's.",
                d.id.as_deref(),
                false,
            ),
            text_field(
                "description".into(),
                "Description".into(),
                "What the character is, in a line: \"a master of magic\", \"an enforcer in a white suit\".",
                d.description.as_deref(),
                false,
            ),
        ],
    );
    let highest = d
        .abilities
        .iter()
        .filter(|(k, _)| Ability::parse(k).is_some())
        .map(|(_, v)| counted(*v))
        .chain(d.other.iter().filter_map(|o| o.level).map(counted))
        .max()
        .unwrap_or(0);
    let awarded = n.budget.saturating_sub(limit(d.cp, r.cp));
    step(
        "limits",
        "2. Character points and maximum level".into(),
        "Characters are created by distributing character points (CP) between 1 or more abilities: each CP gives one ability level, and no ability can receive more levels than the maximum level. The book's characters were made with 10 CP and a maximum level of 4, \"good limits for making characters that are like average people\". A table's [rules] bind every character (R-SCR-7): choose lower numbers only if your table gives fewer.",
        rules::TABLE_LIMITS,
        vec![
            int_field(
                "cp".into(),
                "Character points (CP)".into(),
                "Each CP gives the character one ability level (the book: 10).",
                n.spent.saturating_sub(awarded).clamp(1, i64::from(r.cp)),
                i64::from(r.cp),
                d.cp,
            ),
            int_field(
                "max_level".into(),
                "Maximum level".into(),
                "No ability can receive more levels than this (the book: 4).",
                highest.clamp(1, i64::from(r.max_level)),
                i64::from(r.max_level),
                d.max_level,
            ),
        ],
    );
    let mut shown: Vec<Ability> = Vec::new();
    for (i, (id, title, help, rule, abilities)) in SECTIONS.iter().enumerate() {
        let mut fields = Vec::new();
        for a in *abilities {
            ability_fields(d, ("", ""), *a, n.max_level, left, &mut fields);
            shown.push(*a);
        }
        step(id, format!("{}. {title}", i + 3), help, *rule, fields);
    }
    let mut fields = Vec::new();
    for (i, o) in d.other.iter().enumerate() {
        let cur = o.level.map(counted).unwrap_or(0);
        fields.push(text_field(
            format!("other.{i}.name"),
            format!("Other ability {}: name", i + 1),
            "Its name in your setting (\"piloting\"); not one of the book's abilities.",
            (!o.name.is_empty()).then_some(o.name.as_str()),
            false,
        ));
        fields.push(int_field(
            format!("other.{i}.level"),
            format!("Other ability {}: level", i + 1),
            "It costs CP like any ability and has no rules in an encounter.",
            0,
            n.max_level.min(cur.saturating_add(left)),
            o.level,
        ));
        if o.level.is_some_and(|l| l > 0) {
            fields.push(text_field(
                format!("other.{i}.note"),
                format!("Other ability {}: what it represents", i + 1),
                "What it stands for in the setting.",
                o.note.as_deref(),
                false,
            ));
        }
    }
    if d.other.len() < MAX_OTHER_ABILITIES {
        let i = d.other.len();
        fields.push(text_field(
            format!("other.{i}.name"),
            format!("Other ability {}: name", i + 1),
            "Its name in your setting (\"piloting\"); not one of the book's abilities.",
            None,
            false,
        ));
        fields.push(int_field(
            format!("other.{i}.level"),
            format!("Other ability {}: level", i + 1),
            "It costs CP like any ability and has no rules in an encounter.",
            0,
            n.max_level.min(left),
            None,
        ));
    }
    stray_fields(d, "", &shown, &mut fields);
    step(
        "other",
        "8. Other abilities".into(),
        "Scratch RPS abilities can be loosely interpreted or adapted to a wide variety of settings; Chokestar was created with 2 CP to piloting ability. Abilities the book does not list cost CP and have no rules in an encounter.",
        rules::ABILITIES,
        fields,
    );
    let mut fields = Vec::new();
    if n.command > 0 || !d.minions.is_empty() {
        let count = i64::try_from(d.minions.len()).unwrap_or(i64::MAX);
        let most = if n.command > 0 {
            n.command.min(MAX_MINIONS as i64)
        } else {
            0
        };
        fields.push(int_field(
            "minions".into(),
            "Number of minions".into(),
            "Command provides one or two minions; each needs at least one CP of the command level.",
            0,
            most,
            (!d.minions.is_empty()).then_some(count),
        ));
        let mleft = n.command.saturating_sub(n.minion_spent);
        for (i, m) in d.minions.iter().enumerate() {
            let prefix = format!("minions.{i}.");
            fields.push(text_field(
                format!("{prefix}name"),
                format!("Minion {}: name", i + 1),
                "Each minion is a character of its own (\"Thugs\").",
                (!m.name.is_empty()).then_some(m.name.as_str()),
                true,
            ));
            fields.push(text_field(
                format!("{prefix}description"),
                format!("Minion {}: description", i + 1),
                "\"concealing blunt weapons under their long overcoats\"",
                m.description.as_deref(),
                false,
            ));
            let mut own = Vec::new();
            let max_level = limit(m.max_level, r.max_level);
            let label = format!("Minion {}: ", i + 1);
            for a in Ability::ALL.into_iter().filter(|a| *a != Ability::Command) {
                ability_fields(m, (&prefix, &label), a, max_level, mleft, &mut own);
            }
            let offered: Vec<Ability> = Ability::ALL
                .into_iter()
                .filter(|a| *a != Ability::Command)
                .collect();
            stray_fields(m, &prefix, &offered, &mut own);
            fields.extend(own);
        }
    }
    step(
        "minions",
        "9. Minions".into(),
        "Command is an ability that provides a character with one or two minions. The total CP of these minions is no greater than the character's command ability level, and they cannot have command ability.",
        rules::SUPPORT_ABILITIES,
        fields,
    );
    steps
}

/// Every field key of the draft now.
pub(super) fn field_keys(d: &Draft) -> Vec<String> {
    steps(d)
        .into_iter()
        .flat_map(|s| s.fields.into_iter().map(|f| f.key))
        .collect()
}

/// The book's sheet heading: `Name (A agility, I intelligence, S strength, T
/// stamina): description`.
pub(super) fn heading(name: &str, description: &str, d: &Defenses) -> String {
    let mut s = format!(
        "{} ({} agility, {} intelligence, {} strength, {} stamina)",
        if name.is_empty() {
            "(no name yet)"
        } else {
            name
        },
        d.agility,
        d.intelligence,
        d.strength,
        d.stamina
    );
    if !description.is_empty() {
        s.push_str(": ");
        s.push_str(description);
    }
    s
}

/// The defenses a draft's levels give (levels the validator refuses count 0).
pub(super) fn defenses(d: &Draft) -> Defenses {
    let level = |a: Ability| -> u32 {
        d.level(a)
            .map(counted)
            .and_then(|l| u32::try_from(l).ok())
            .unwrap_or(0)
    };
    Defenses::from_levels(level, d.rules().strength_base)
}

pub(super) fn derived(d: &Draft, n: &Numbers) -> Vec<Derived> {
    let def = defenses(d);
    let mut out = Vec::new();
    let mut push = |name: &str, value: String, rule: Rule| {
        out.push(Derived {
            name: name.to_string(),
            value,
            rule,
        });
    };
    push(
        "Sheet",
        heading(&d.name, d.description.as_deref().unwrap_or(""), &def),
        rules::CHARACTER,
    );
    push("Agility", def.agility.to_string(), rules::DEFENSES);
    push(
        "Intelligence",
        def.intelligence.to_string(),
        rules::PRINTED_DEFENSES,
    );
    push("Strength", def.strength.to_string(), rules::STRENGTH);
    push("Stamina", def.stamina.to_string(), rules::HIT_POINTS);
    push(
        "Maximum hit points",
        def.max_hit_points.to_string(),
        rules::HIT_POINTS,
    );
    let hp = def.max_hit_points;
    let st = def.stamina;
    let bands = if hp == 0 {
        "incapacitated at 0 (no toughness: cannot perform actions during encounters)".to_string()
    } else if hp > st {
        let injured = if st >= 1 {
            format!(
                "injured {}",
                if st == 1 {
                    "1".to_string()
                } else {
                    format!("1-{st}")
                }
            )
        } else {
            "never injured".to_string()
        };
        let healthy = if st + 1 == hp {
            hp.to_string()
        } else {
            format!("{}-{hp}", st + 1)
        };
        format!("healthy {healthy}, {injured}, incapacitated 0")
    } else {
        format!("{:?}", HitPointState::of(hp, st))
    };
    push("Hit points", bands, rules::HIT_POINTS);
    let c = Carrying::for_strength(def.strength);
    push(
        "Carrying",
        format!(
            "pack {} kg ({} lbs), carry {} kg ({} lbs), lift {} kg ({} lbs)",
            c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
        ),
        rules::DEFENSES,
    );
    let count = d
        .abilities
        .iter()
        .filter(|(k, v)| Ability::parse(k).is_some() && counted(**v) > 0)
        .count()
        + d.other
            .iter()
            .filter(|o| o.level.is_some_and(|l| counted(l) > 0))
            .count();
    let fewest = if n.max_level > 0 {
        (n.budget + n.max_level - 1) / n.max_level
    } else {
        0
    };
    let mut advice = format!(
        "{count} abilities; characters typically have between three and six. Spending all {} CP within level {} takes at least {fewest}.",
        n.budget, n.max_level
    );
    if def.max_hit_points == 0 {
        advice.push_str(" No toughness: all characters have toughness, and one without it may not perform actions during encounters.");
    }
    push("Abilities", advice, rules::ABILITIES);
    if n.command > 0 || !d.minions.is_empty() {
        for m in &d.minions {
            push(
                "Minion",
                heading(
                    &m.name,
                    m.description.as_deref().unwrap_or(""),
                    &defenses(m),
                ),
                rules::SUPPORT_ABILITIES,
            );
        }
    }
    out
}

pub(super) fn budgets(n: &Numbers, d: &Draft) -> Vec<Budget> {
    let mut out = vec![Budget {
        name: "Character Points (CP)".into(),
        total: n.budget,
        spent: n.spent,
        rule: rules::ABILITIES,
    }];
    if n.command > 0 || !d.minions.is_empty() {
        out.push(Budget {
            name: "Minion CP (command level)".into(),
            total: n.command,
            spent: n.minion_spent,
            rule: rules::SUPPORT_ABILITIES,
        });
    }
    out
}
