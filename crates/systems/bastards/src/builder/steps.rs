//! The creation steps in the book's order ("Character Building Rules": "Suits",
//! "Points & Costs", "Skills", "Specialties", "Advantages"), with their help.

use super::*;

/// The Fate of a suit ("Suits").
pub(crate) fn fate(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "Kranos",
        Suit::Hearts => "Loressa",
        Suit::Spades => "Aiyala",
        Suit::Diamonds => "Esme, the Smiling Lady",
    }
}

pub(crate) fn suit_help(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => {
            "Body begins at rank 2. Tied to the Fate Kranos, destined to live a rigorous life; Body is added to physical damage, physical attacks, raw power, agility and endurance."
        }
        Suit::Hearts => {
            "Spirit begins at rank 2. Tied to the Fate Loressa, someone of conviction and passion; Spirit is added to fear and sanity, inciting and leading, and Desperate hands."
        }
        Suit::Spades => {
            "Mind begins at rank 2. A nod to the Fate Aiyala, quick-witted and aware; Mind is added to intellectual skills, trickery and influence, reflexive (defense) hands and mental contests."
        }
        Suit::Diamonds => {
            "Luck begins at rank 2. Touched by Esme, the Smiling Lady; Luck is added to skill rolls more dumb luck than know-how, and Diamonds Advantages use it on other hands."
        }
    }
}

pub(crate) fn trait_help(t: Trait) -> &'static str {
    match t {
        Trait::Body => {
            "Physical capabilities, from brute strength to agility and endurance; added to physical damage and attacks. Pool BP = Body x 5."
        }
        Trait::Spirit => {
            "Resolve, determination, raw willpower; added to fear, sanity, inciting and leading, and Desperate hands. Pool SP = Spirit x 5."
        }
        Trait::Mind => {
            "Intellect and reflexes; added to intellectual skills, trickery, defense hands and mental contests. Pool MP = Mind x 5."
        }
        Trait::Luck => {
            "Chance, the mark of the Fates; added to dumb-luck rolls and used by Diamonds Advantages. Pool LP = Luck x 5."
        }
    }
}

pub(crate) fn suit_label(suit: Suit) -> String {
    format!("{suit} ({})", suit.tarot_name())
}

/// The book's sub-skills listed under a skill ("Skills").
pub(crate) fn skill_help(skill: &str) -> String {
    let parent = if skill.ends_with(" Combat") {
        "Weapon Combat"
    } else {
        skill
    };
    let subs: Vec<String> = SUB_SKILLS
        .iter()
        .filter(|(_, p, _)| *p == parent)
        .map(|(n, _, x)| format!("{n} (x {x})"))
        .collect();
    if subs.is_empty() {
        "A skill of the book; every skill starts at rank 1.".into()
    } else {
        format!("The book lists: {}.", subs.join(", "))
    }
}

/// Skills at rank 2 or more (the Specialty gate), book skills first.
pub(crate) fn skills_at_two(d: &Draft) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = SKILLS
        .iter()
        .map(|s| (s.to_string(), rank(d, s).unwrap_or(1)))
        .filter(|(_, r)| *r >= 2)
        .collect();
    out.extend(
        d.more_skills
            .iter()
            .filter(|m| m.rank >= 2)
            .map(|m| (m.name.trim().to_string(), m.rank)),
    );
    out
}

/// The book's listed Specialties whose two skills the draft has at rank 2+.
pub(crate) fn fitting_sub_skills(d: &Draft) -> Vec<String> {
    SUB_SKILLS
        .iter()
        .filter(|(_, a, b)| {
            rank(d, a).is_some_and(|r| r >= 2) && rank(d, b).is_some_and(|r| r >= 2)
        })
        .map(|(n, a, b)| format!("{n} ({a} x {b})"))
        .collect()
}

/// The largest value a number may take now: `cur` plus the XP left, at most
/// `cap`, never below `min`.
pub(crate) fn room(cur: i64, left: i64, cap: i64, min: i64) -> i64 {
    cur.saturating_add(left.max(0)).min(cap).max(min)
}

pub(crate) fn int(min: i64, max: i64) -> FieldKind {
    FieldKind::Int { min, max }
}

pub(crate) fn text(max_chars: usize) -> FieldKind {
    FieldKind::Text { max_chars }
}

pub(crate) fn field(
    key: impl Into<String>,
    label: impl Into<String>,
    help: impl Into<String>,
    kind: FieldKind,
    value: Option<FieldValue>,
    required: bool,
) -> FieldView {
    FieldView {
        key: key.into(),
        label: label.into(),
        help: help.into(),
        kind,
        value,
        required,
    }
}

pub(crate) fn txt(s: &str) -> Option<FieldValue> {
    Some(FieldValue::Text(s.to_string()))
}

pub(crate) fn step(
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

/// The Advantages the `advantages` choice lists: every one without a weapon
/// or a count, in the book's order.
pub(crate) fn plain_advantages() -> impl Iterator<Item = Advantage> {
    Advantage::PLAIN
        .into_iter()
        .filter(|a| !matches!(a, Advantage::Toughness | Advantage::Resolve))
}

pub(crate) fn advantage_count(d: &Draft) -> i64 {
    ((d.advantages.len() + d.counter.len() + d.florentine.len()) as i64)
        .saturating_add(d.toughness.max(0))
        .saturating_add(d.resolve.max(0))
}

pub(crate) fn yes_no(help_yes: &str, help_no: &str) -> FieldKind {
    FieldKind::Choice {
        options: vec![
            ChoiceOption::new("yes", help_yes),
            ChoiceOption::new("no", help_no),
        ],
    }
}

/// The suit of a Trait ("Suits").
pub(crate) fn suit_of_trait(t: Trait) -> Suit {
    match t {
        Trait::Body => Suit::Clubs,
        Trait::Spirit => Suit::Hearts,
        Trait::Mind => Suit::Spades,
        Trait::Luck => Suit::Diamonds,
    }
}

pub(crate) fn yn(b: bool) -> Option<FieldValue> {
    txt(if b { "yes" } else { "no" })
}

/// Every creation step with its fields as the draft stands, in the book's
/// order ("Character Building Rules"); `left` is the XP left to spend.
pub(crate) fn steps(d: &Draft, left: i64) -> Vec<StepView> {
    vec![
        name_step(d),
        suit_step(d),
        points_step(),
        traits_step(d, left),
        skills_step(d, left),
        specialties_step(d),
        advantages_step(d, left),
        disadvantages_step(d),
        gear_step(d),
    ]
}

/// The name and the player (seat): the book asks only for an index card; the
/// table's own rule on names ([`RULE_NAMES`]).
fn name_step(d: &Draft) -> StepView {
    step(
        "name",
        "Name",
        "Name your Fated and the player who plays them (the book asks only for an index card).",
        RULE_NAMES,
        vec![
            field(
                "name",
                "Name",
                "The character's name, as the table will call them.",
                text(MAX_NAME_CHARS),
                d.name.as_deref().and_then(txt),
                true,
            ),
            field(
                "player",
                "Player",
                "The player (seat) who plays this character; leave empty for one of the Dealer's characters.",
                text(MAX_NAME_CHARS),
                txt(&d.player),
                false,
            ),
        ],
    )
}

/// i. Suits: the Suit, whose Trait begins at rank 2 ("Suits", [`RULE_SUITS`]).
fn suit_step(d: &Draft) -> StepView {
    step(
        "suit",
        "i. Suits",
        "Every player begins by choosing a Suit – Clubs, Hearts, Spades, or Diamonds (Tarot: Swords, Cups, Staves, Coins). Each Trait starts at rank 1 – excluding the trait indicated by the character's Suit, which begins at rank 2.",
        RULE_SUITS,
        vec![field(
            "suit",
            "Suit",
            "Your ties to the four Fates; the Suit's Trait begins at rank 2.",
            FieldKind::Choice {
                options: [Suit::Clubs, Suit::Hearts, Suit::Spades, Suit::Diamonds]
                    .into_iter()
                    .map(|s| ChoiceOption {
                        value: s.to_string(),
                        label: suit_label(s),
                        help: suit_help(s).into(),
                    })
                    .collect(),
            },
            d.suit.as_deref().and_then(txt),
            true,
        )],
    )
}

/// ii. Points & Costs: the starting ranks and the 10 XP, no field ("Points &
/// Costs", [`RULE_POINTS`]; R-GB-8).
fn points_step() -> StepView {
    step(
        "points",
        "ii. Points & Costs",
        "Every character starts with a 1 in each trait (2 in their chosen suit), 1 in each skill, and 10 XP. Increasing a trait, gaining an advantage, upping a skill, or gaining a specialty costs 1 XP. The two starting Advantages are free.",
        RULE_POINTS,
        Vec::new(),
    )
}

/// iii. Traits: each Trait from its start up to what the XP left buys
/// ("Points & Costs", [`RULE_POINTS`]).
fn traits_step(d: &Draft, left: i64) -> StepView {
    let suit = suit_of(d);
    step(
        "traits",
        "iii. Traits",
        "Raise Body, Spirit, Mind and Luck for 1 XP a rank. Each Trait's pool is Trait x 5 (BP, SP, MP, LP); a Fate Draw off a Trait faces 6 minus the Trait in the Dealer's cards.",
        RULE_POINTS,
        Trait::ALL
            .into_iter()
            .map(|t| {
                let min = start(suit, t);
                let cur = trait_score(d, t);
                let s = suit_of_trait(t);
                field(
                    format!("traits.{t}"),
                    format!("{t} ({} / {})", s, s.tarot_name()),
                    trait_help(t),
                    int(min, room(cur, left, MAX_TRAIT, min)),
                    Some(FieldValue::Int(cur)),
                    false,
                )
            })
            .collect(),
    )
}

/// iv. Skills: every book skill's rank, the other skills (`<Weapon> Combat`,
/// `Craft <Type>`, the Dealer's) and a field to add one ("Skills",
/// [`RULE_SKILLS`]).
fn skills_step(d: &Draft, left: i64) -> StepView {
    let mut skill_fields: Vec<FieldView> = SKILLS
        .iter()
        .map(|s| {
            let cur = rank(d, s).unwrap_or(1);
            field(
                format!("skills.{s}"),
                *s,
                skill_help(s),
                int(1, room(cur, left, MAX_RANK, 1)),
                Some(FieldValue::Int(cur)),
                false,
            )
        })
        .collect();
    for (i, m) in d.more_skills.iter().enumerate() {
        skill_fields.push(field(
            format!("more_skills.{i}.name"),
            "Another skill",
            "A <Weapon> Combat or Craft <Type> skill, or one the Dealer allows; clear it to remove it.",
            text(MAX_NAME_CHARS),
            txt(&m.name),
            true,
        ));
        skill_fields.push(field(
            format!("more_skills.{i}.rank"),
            format!("{} rank", m.name.trim()),
            skill_help(m.name.trim()),
            int(1, room(m.rank, left, MAX_RANK, 1)),
            Some(FieldValue::Int(m.rank)),
            false,
        ));
    }
    if d.more_skills.len() < MAX_LIST {
        skill_fields.push(field(
            format!("more_skills.{}.name", d.more_skills.len()),
            "Add a skill",
            "<Weapon(type) or Unarmed> Combat (Sword Combat, Knife Combat) and Craft(Type) (Craft Metal) are skills of the book; any other needs the Dealer's leave (like Carlton's Repair).",
            text(MAX_NAME_CHARS),
            txt(""),
            false,
        ));
    }
    step(
        "skills",
        "iv. Skills",
        "Every skill starts at rank 1; upping a skill costs 1 XP a rank. In a Skill Hand you draw your rank in cards and add the Trait; in an Opposition you bet up to your ranks in cards.",
        RULE_SKILLS,
        skill_fields,
    )
}

/// v. Specialties: each Specialty's name and two skills at rank 2 or more,
/// and a field to add one ("Specialties", [`RULE_SPECIALTIES`]).
fn specialties_step(d: &Draft) -> StepView {
    let gate = skills_at_two(d);
    let options: Vec<ChoiceOption> = gate
        .iter()
        .map(|(n, r)| ChoiceOption {
            value: n.clone(),
            label: format!("{n} ({r})"),
            help: format!("rank {r}"),
        })
        .collect();
    let mut spec_fields = Vec::new();
    for (i, s) in d.specialties.iter().enumerate() {
        spec_fields.push(field(
            format!("specialties.{i}.name"),
            "Specialty",
            "A specific action or realm of study (\"Acting\", \"Biology\"); clear it to remove it.",
            text(MAX_NAME_CHARS),
            txt(&s.name),
            true,
        ));
        let mut opts = options.clone();
        for k in &s.skills {
            if !opts.iter().any(|o| o.value == *k) {
                opts.push(ChoiceOption::new(k.clone(), "below rank 2"));
            }
        }
        spec_fields.push(field(
            format!("specialties.{i}.skills"),
            format!("{}: its two skills", s.name),
            "Two skills at rank 2 or above; the Specialty's rank is the lower of the two.",
            FieldKind::Multi {
                options: opts,
                min: 2,
                max: 2,
            },
            (!s.skills.is_empty()).then(|| FieldValue::List(s.skills.clone())),
            true,
        ));
    }
    if gate.len() >= 2 && d.specialties.len() < MAX_LIST {
        let fits = fitting_sub_skills(d);
        spec_fields.push(field(
            format!("specialties.{}.name", d.specialties.len()),
            "Add a Specialty",
            if fits.is_empty() {
                "Name a Specialty between two of your skills at rank 2 or above (1 XP).".to_string()
            } else {
                format!(
                    "Name a Specialty (1 XP). The book lists some that fit your skills: {}.",
                    fits.join(", ")
                )
            },
            text(MAX_NAME_CHARS),
            txt(""),
            false,
        ));
    }
    step(
        "specialties",
        "v. Specialties",
        "A synergistic bonus between two skills at rank 2 or above. A player may spend 1 point to gain a Specialty between any two skills at rank 2 or above. The rank of the specialty is equal to the lower of the two skills involved, and is added to any fate draw involving it.",
        RULE_SPECIALTIES,
        spec_fields,
    )
}

/// vi. Advantages: the plain ones, Counter and Florentine by weapon,
/// Toughness and Resolve by count; two free, then 1 XP each ("Advantages",
/// [`RULE_ADVANTAGES`]; R-GB-8).
fn advantages_step(d: &Draft, left: i64) -> StepView {
    let count = advantage_count(d);
    let plain = d.advantages.len() as i64;
    let free_left = (FREE_ADVANTAGES as i64 - count).max(0);
    let stack_max = |cur: i64| {
        cur.saturating_add(left.max(0).saturating_add(free_left))
            .min(MAX_STACK as i64)
            .max(0)
    };
    let plain_opts: Vec<ChoiceOption> = plain_advantages()
        .map(|a| ChoiceOption {
            value: a.name().to_string(),
            label: format!("{} ({}, {})", a.name(), a.suit(), a.kind()),
            help: a.summary().into(),
        })
        .collect();
    let plain_max = plain
        .saturating_add(free_left)
        .saturating_add(left.max(0))
        .clamp(0, plain_opts.len() as i64) as usize;
    let others = count.saturating_sub(plain);
    let counter = Advantage::Counter(String::new());
    let florentine = Advantage::Florentine(String::new());
    step(
        "advantages",
        "vi. Advantages",
        "Characters start the game with 2 advantages; each further one costs 1 XP. If a character has a 0 in the trait pool indicated by the suit, they cannot use advantages of that suit.",
        RULE_ADVANTAGES,
        vec![
            field(
                "advantages",
                "Advantages",
                "Pick your Advantages (the first two are free).",
                FieldKind::Multi {
                    options: plain_opts,
                    min: (FREE_ADVANTAGES as i64 - others).max(0) as usize,
                    max: plain_max,
                },
                (!d.advantages.is_empty()).then(|| FieldValue::List(d.advantages.clone())),
                count < FREE_ADVANTAGES as i64,
            ),
            field(
                "advantages.Counter",
                "Counter<Weapon> (Spades, Defensive): the chosen weapon",
                format!(
                    "{} Name the weapon; several, separated by commas, are one Advantage each. Empty: not taken.",
                    counter.summary()
                ),
                text(MAX_TEXT_CHARS),
                txt(&d.counter.join(", ")),
                false,
            ),
            field(
                "advantages.Florentine",
                "Florentine<Weapon> (Spades, Offensive): the chosen weapon",
                format!(
                    "{} Name the weapon; several, separated by commas, are one Advantage each. Empty: not taken.",
                    florentine.summary()
                ),
                text(MAX_TEXT_CHARS),
                txt(&d.florentine.join(", ")),
                false,
            ),
            field(
                "advantages.Toughness",
                "Toughness (Clubs, Utility): times taken",
                Advantage::Toughness.summary(),
                int(0, stack_max(d.toughness)),
                Some(FieldValue::Int(d.toughness)),
                false,
            ),
            field(
                "advantages.Resolve",
                "Resolve (Hearts, Utility): times taken",
                Advantage::Resolve.summary(),
                int(0, stack_max(d.resolve)),
                Some(FieldValue::Int(d.resolve)),
                false,
            ),
        ],
    )
}

/// vii. Disadvantages: each one, +1 XP, and a field to add one ("Points &
/// Costs", [`RULE_POINTS`]).
fn disadvantages_step(d: &Draft) -> StepView {
    let mut dis_fields: Vec<FieldView> = d
        .disadvantages
        .iter()
        .enumerate()
        .map(|(i, t)| {
            field(
                format!("disadvantages.{i}"),
                "Disadvantage",
                "+1 XP; clear it to remove it.",
                text(MAX_TEXT_CHARS),
                txt(t),
                false,
            )
        })
        .collect();
    if d.disadvantages.len() < MAX_LIST {
        dis_fields.push(field(
            format!("disadvantages.{}", d.disadvantages.len()),
            "Add a Disadvantage",
            "Describe a flaw, hindrance or enemy (the book lists none); the Dealer agrees to it. +1 XP.",
            text(MAX_TEXT_CHARS),
            txt(""),
            false,
        ));
    }
    step(
        "disadvantages",
        "vii. Disadvantages",
        "Disadvantages may be taken only at character creation – the character gains 1 XP for each disadvantage.",
        RULE_POINTS,
        dis_fields,
    )
}

/// The Charts: weapons and armour as the table agrees them ("The Charts",
/// [`RULE_CHARTS`]; R-GB-10).
fn gear_step(d: &Draft) -> StepView {
    let mut gear = Vec::new();
    for (i, w) in d.weapons.iter().enumerate() {
        gear.push(field(
            format!("weapons.{i}.name"),
            "Weapon",
            "Clear it to remove the weapon. The first weapon is in hand when an encounter starts.",
            text(MAX_NAME_CHARS),
            txt(&w.name),
            true,
        ));
        gear.push(field(
            format!("weapons.{i}.damage"),
            format!("{}: damage bonus", w.name),
            "Added to the damage of a successful attack with it (the Dealer sets it).",
            int(0, 20),
            Some(FieldValue::Int(w.damage)),
            false,
        ));
        gear.push(field(
            format!("weapons.{i}.skill"),
            format!("{}: skill", w.name),
            "The skill it is used with, e.g. Sword Combat.",
            text(MAX_NAME_CHARS),
            txt(&w.skill),
            false,
        ));
        gear.push(field(
            format!("weapons.{i}.melee"),
            format!("{}: melee weapon", w.name),
            "Counter, Savage, Wild Swing and Disarm need a melee weapon.",
            yes_no("a melee weapon", "a ranged weapon"),
            yn(w.melee),
            false,
        ));
        gear.push(field(
            format!("weapons.{i}.ready"),
            format!("{}: readily accessible", w.name),
            "Drawing a readily accessible weapon (a sheathed sword) needs no action; one in a backpack does (\"Random Rules\").",
            yes_no("readily accessible", "packed away"),
            yn(w.ready),
            false,
        ));
    }
    if d.weapons.len() < MAX_LIST {
        gear.push(field(
            format!("weapons.{}.name", d.weapons.len()),
            "Add a weapon",
            "A weapon's name; its damage bonus and skill follow.",
            text(MAX_NAME_CHARS),
            txt(""),
            false,
        ));
    }
    gear.push(field(
        "armour.name",
        "Armour",
        "The armour worn, if any; empty for none.",
        text(MAX_NAME_CHARS),
        txt(d.armour.as_ref().map_or("", |a| a.name.as_str())),
        false,
    ));
    if let Some(a) = &d.armour {
        gear.push(field(
            "armour.reduction",
            format!("{}: reduction", a.name),
            "Damage to BP it removes (the Dealer sets it).",
            int(0, 20),
            Some(FieldValue::Int(a.reduction)),
            false,
        ));
    }
    step(
        "gear",
        "The Charts (weapons and armour)",
        "The book's charts of weapons, armour and costs are empty: weapons and armour are what the table agrees (a name, a damage bonus, armour's reduction). Optional.",
        RULE_CHARTS,
        gear,
    )
}
