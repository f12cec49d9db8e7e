//! Making a Fated the way the book teaches it: [`CharacterBook`] for
//! [`Bastards`].
//!
//! A Game of Bastards, "Character Building Rules" (003_2dfeea144768d328.txt):
//! "i. Suits", "ii. Points & Costs", then the headings "iii. Traits" ..
//! "vii. Disadvantages", whose rules are in "Suits", "Points & Costs",
//! "Skills", "Specialties" and "Advantages"; R-GB-5, R-GB-8, R-GB-10.
//!
//! The [`Draft`] is the sheet with every choice optional until made. Its
//! problems are [`Character::from_draft`]'s (the check `tabula bastards
//! character validate` runs) on the sheet [`CharacterBook::draft_sheet`]
//! writes; only what is merely not done yet (no name, no Suit, fewer than the
//! two starting Advantages, a Specialty without its two skills) is marked
//! unfinished. [`CharacterBook::set`] refuses a value that adds a broken
//! problem, citing [`DraftProblem::rule`].
//!
//! Keys (stable): `name`, `player`, `suit`, `traits.Body` (`Spirit`, `Mind`,
//! `Luck`), `skills.Athletics` (each of [`SKILLS`]), `more_skills.N.name` /
//! `more_skills.N.rank` (`<Weapon> Combat`, `Craft <Type>`, skills the Dealer
//! allows), `specialties.N.name` / `specialties.N.skills`, `advantages`,
//! `advantages.Counter`, `advantages.Florentine`, `advantages.Toughness`,
//! `advantages.Resolve`, `disadvantages.N`, `weapons.N.name` (`.damage`,
//! `.skill`, `.melee`, `.ready`), `armour.name`, `armour.reduction`. A list
//! shows each entry and one empty entry (value `""`) to add another; setting an
//! entry's name to `""` (or clearing it) removes it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tabula_core::builder::{
    AdvanceError, Advanced, Budget, BuildProblem, BuildRefusal, BuildView, CharacterBook,
    ChoiceOption, Derived, FieldKind, FieldValue, FieldView, MAX_TEXT_CHARS, SheetAfter, StepView,
};
use tabula_core::cards::Suit;
use tabula_core::names::{MAX_NAME_CHARS, same_name};
use tabula_core::roller::Roller;
use tabula_core::rule::Rule;
use tabula_core::system::{CommandDoc, Seat};

use crate::Bastards;
use crate::advantages::{Advantage, MAX_STACK};
use crate::character::{
    Armour, Character, CharacterDraft, DraftProblem, FREE_ADVANTAGES, MAX_LIST, MAX_RANK,
    MAX_TRAIT, Pools, RULE_ADVANTAGES, RULE_CHARTS, RULE_NAMES, RULE_POINTS, RULE_SKILLS,
    RULE_SPECIALTIES, RULE_SUITS, SKILLS, SUB_SKILLS, SheetError, SpecialtyDraft, Trait, Weapon,
    is_skill,
};
use crate::fate::RULE_SKILL_HAND;

/// A sheet file that is not TOML of the sheet's shape (Tabula's sheet format,
/// `docs/systems/bastards.md`, "Character sheets (TOML)").
pub const RULE_SHEET: Rule = Rule::table("Character sheets");
/// The Fates of the four suits ("Suits").
pub const RULE_FATES: Rule = RULE_SUITS;
/// "Building A Scene": Reinforce and Involve give a Power Rating equal to the
/// highest Trait.
pub const RULE_SCENE: Rule = crate::opposition::RULE_DRAMATIC;

/// A skill beyond the thirteen of [`SKILLS`]: `<Weapon> Combat`, `Craft
/// <Type>`, or one the Dealer allows (written to `custom_skills`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoreSkill {
    /// Its name, e.g. `Sword Combat`, `Craft Metal`, `Repair`.
    pub name: String,
    /// Its rank (every skill starts at 1; 1..=10).
    pub rank: i64,
}

/// A character being made (the engine stores it as JSON). Every field is
/// optional until chosen; [`Draft::default`] is the empty draft.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Draft {
    /// The character's name.
    pub name: Option<String>,
    /// The player's seat; empty for one of the Dealer's characters.
    pub player: String,
    /// The Suit as the book names it (`Clubs`, `Hearts`, `Spades`, `Diamonds`).
    pub suit: Option<String>,
    /// Body chosen; `None` is the starting rank (1, 2 for Clubs).
    pub body: Option<i64>,
    /// Spirit chosen; `None` is the starting rank (1, 2 for Hearts).
    pub spirit: Option<i64>,
    /// Mind chosen; `None` is the starting rank (1, 2 for Spades).
    pub mind: Option<i64>,
    /// Luck chosen; `None` is the starting rank (1, 2 for Diamonds).
    pub luck: Option<i64>,
    /// Ranks of the book's skills ([`SKILLS`]) other than 1.
    pub skills: BTreeMap<String, i64>,
    /// Further skills with their ranks.
    pub more_skills: Vec<MoreSkill>,
    /// Specialties: a name and the two skills.
    pub specialties: Vec<SpecialtyDraft>,
    /// Advantages without a weapon or a count, by their book names.
    pub advantages: Vec<String>,
    /// Counter<Weapon>: one per weapon named.
    pub counter: Vec<String>,
    /// Florentine<Weapon>: one per weapon named.
    pub florentine: Vec<String>,
    /// Times Toughness is taken (0..=5).
    pub toughness: i64,
    /// Times Resolve is taken (0..=5).
    pub resolve: i64,
    /// Disadvantages (the book lists none: a description each).
    pub disadvantages: Vec<String>,
    /// Weapons (R-GB-10: table data).
    pub weapons: Vec<Weapon>,
    /// Armour (R-GB-10: table data).
    pub armour: Option<Armour>,
    /// XP earned in play (0 for a new character; kept from an imported sheet).
    pub earned_xp: i64,
    /// Wildcards held (0 for a new character; kept from an imported sheet).
    pub wildcards: u32,
    /// Pools carried (full for a new character; kept from an imported sheet).
    pub pools: Pools,
}

fn suit_of(d: &Draft) -> Option<Suit> {
    d.suit.as_deref().and_then(Suit::parse)
}

/// The rank a Trait starts at: 1, the Suit's 2 ("Suits", "Points & Costs").
fn start(suit: Option<Suit>, t: Trait) -> i64 {
    if suit.map(Trait::of_suit) == Some(t) {
        2
    } else {
        1
    }
}

fn chosen(d: &Draft, t: Trait) -> Option<i64> {
    match t {
        Trait::Body => d.body,
        Trait::Spirit => d.spirit,
        Trait::Mind => d.mind,
        Trait::Luck => d.luck,
    }
}

fn chosen_mut(d: &mut Draft, t: Trait) -> &mut Option<i64> {
    match t {
        Trait::Body => &mut d.body,
        Trait::Spirit => &mut d.spirit,
        Trait::Mind => &mut d.mind,
        Trait::Luck => &mut d.luck,
    }
}

/// A Trait's score in the draft.
fn trait_score(d: &Draft, t: Trait) -> i64 {
    chosen(d, t).unwrap_or_else(|| start(suit_of(d), t))
}

fn book_skill(name: &str) -> Option<&'static str> {
    SKILLS.iter().copied().find(|s| same_name(s, name))
}

/// The rank of a skill in the draft (book skills default to 1).
fn rank(d: &Draft, name: &str) -> Option<i64> {
    if let Some(b) = book_skill(name) {
        return Some(d.skills.get(b).copied().unwrap_or(1));
    }
    d.more_skills
        .iter()
        .find(|m| same_name(&m.name, name))
        .map(|m| m.rank)
}

/// The sheet a draft is (the TOML [`CharacterBook::draft_sheet`] writes).
pub fn to_sheet(d: &Draft) -> CharacterDraft {
    let mut skills = d.skills.clone();
    let mut custom_skills = Vec::new();
    for m in &d.more_skills {
        let name = m.name.trim().to_string();
        if !is_skill(&name, &[]) {
            custom_skills.push(name.clone());
        }
        skills.insert(name, m.rank);
    }
    let mut advantages = d.advantages.clone();
    advantages.extend(d.counter.iter().map(|w| format!("Counter<{w}>")));
    advantages.extend(d.florentine.iter().map(|w| format!("Florentine<{w}>")));
    for (a, n) in [("Toughness", d.toughness), ("Resolve", d.resolve)] {
        for _ in 0..n.clamp(0, MAX_LIST as i64) {
            advantages.push(a.to_string());
        }
    }
    CharacterDraft {
        name: d.name.clone().unwrap_or_default(),
        player: d.player.clone(),
        suit: d.suit.clone().unwrap_or_default(),
        body: trait_score(d, Trait::Body),
        spirit: trait_score(d, Trait::Spirit),
        mind: trait_score(d, Trait::Mind),
        luck: trait_score(d, Trait::Luck),
        custom_skills,
        advantages,
        disadvantages: d.disadvantages.clone(),
        earned_xp: d.earned_xp,
        wildcards: d.wildcards,
        pools: d.pools,
        armour: d.armour.clone(),
        skills,
        specialties: d.specialties.clone(),
        weapons: d.weapons.clone(),
    }
}

/// The draft a sheet is, without checking it (unknown Advantages are left out).
pub fn from_sheet(s: &CharacterDraft) -> Draft {
    let suit = Suit::parse(&s.suit);
    let mut d = Draft {
        name: Some(s.name.clone()).filter(|n| !n.trim().is_empty()),
        player: s.player.clone(),
        suit: suit.map(|x| x.to_string()),
        disadvantages: s.disadvantages.clone(),
        weapons: s.weapons.clone(),
        armour: s.armour.clone(),
        earned_xp: s.earned_xp,
        wildcards: s.wildcards,
        pools: s.pools,
        specialties: s.specialties.clone(),
        ..Draft::default()
    };
    for (t, v) in Trait::ALL
        .into_iter()
        .zip([s.body, s.spirit, s.mind, s.luck])
    {
        *chosen_mut(&mut d, t) = (v != start(suit, t)).then_some(v);
    }
    let rank_in = |name: &str| {
        s.skills
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name.trim()))
            .map(|(_, r)| *r)
    };
    for c in &s.custom_skills {
        if book_skill(c).is_none() && !d.more_skills.iter().any(|m| same_name(&m.name, c)) {
            d.more_skills.push(MoreSkill {
                name: c.trim().to_string(),
                rank: rank_in(c).unwrap_or(1),
            });
        }
    }
    for (k, r) in &s.skills {
        if let Some(b) = book_skill(k) {
            if *r != 1 {
                d.skills.insert(b.to_string(), *r);
            }
        } else if !d.more_skills.iter().any(|m| same_name(&m.name, k)) {
            d.more_skills.push(MoreSkill {
                name: k.trim().to_string(),
                rank: *r,
            });
        }
    }
    for text in &s.advantages {
        match Advantage::parse(text) {
            Some(Advantage::Counter(w)) => d.counter.push(w),
            Some(Advantage::Florentine(w)) => d.florentine.push(w),
            Some(Advantage::Toughness) => d.toughness += 1,
            Some(Advantage::Resolve) => d.resolve += 1,
            Some(a) => d.advantages.push(a.name().to_string()),
            None => {}
        }
    }
    d
}

/// The builder key a problem is about, in draft `d` (best effort; `None`
/// when it is about the whole sheet, like the XP spent).
fn locate(d: &Draft, p: &DraftProblem) -> Option<String> {
    use DraftProblem as P;
    let more = |name: &str, part: &str| {
        d.more_skills
            .iter()
            .rposition(|m| m.name.trim().eq_ignore_ascii_case(name.trim()))
            .map(|i| format!("more_skills.{i}.{part}"))
    };
    let spec = |name: &str, part: &str| {
        d.specialties
            .iter()
            .rposition(|s| s.name == *name)
            .map(|i| format!("specialties.{i}.{part}"))
    };
    match p {
        P::NoName => Some("name".into()),
        P::BadName(e) => {
            let text = e.to_string();
            if text.starts_with("name:") {
                Some("name".into())
            } else if text.starts_with("player:") {
                Some("player".into())
            } else if text.starts_with("armour.") {
                Some("armour.name".into())
            } else {
                None
            }
        }
        P::TooFewAdvantages { .. } => Some("advantages".into()),
        P::RepeatedDisadvantage(t) => d
            .disadvantages
            .iter()
            .rposition(|x| x == t)
            .map(|i| format!("disadvantages.{i}")),
        P::RepeatedSpecialty(n) => spec(n, "name"),
        P::SpecialtyShape(n) | P::SpecialtyRankTooLow { name: n, .. } => spec(n, "skills"),
        P::RepeatedSkill(n) => more(n, "name"),
        P::UnknownSkill(n) => more(n, "name").or_else(|| {
            d.specialties
                .iter()
                .position(|s| s.skills.iter().any(|k| k == n))
                .map(|i| format!("specialties.{i}.skills"))
        }),
        P::RankOutOfRange { skill, .. } => match book_skill(skill) {
            Some(b) => Some(format!("skills.{b}")),
            None => more(skill, "rank"),
        },
        P::UnknownSuit(_) => Some("suit".into()),
        P::TraitOutOfRange { field, .. } => Trait::parse(field).map(|t| format!("traits.{t}")),
        P::UnknownAdvantage(t) | P::RepeatedAdvantage(t) | P::TooManyStacks(t) => {
            let head = t
                .split(['<', '(', ' '])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            Some(match head.as_str() {
                "counter" => "advantages.Counter".into(),
                "florentine" => "advantages.Florentine".into(),
                "toughness" => "advantages.Toughness".into(),
                "resolve" => "advantages.Resolve".into(),
                _ => "advantages".into(),
            })
        }
        P::Overspent { .. } | P::PoolOutOfRange { .. } => None,
        P::OverCap { field, .. } => match field.as_str() {
            "advantages" => Some("advantages".into()),
            _ => None,
        },
        P::GearOutOfRange { field, .. } => {
            if field == "armour.reduction" {
                return Some(field.clone());
            }
            let name = field
                .strip_prefix("weapons.")
                .and_then(|f| f.strip_suffix(".damage"))?;
            d.weapons
                .iter()
                .position(|w| w.name == name)
                .map(|i| format!("weapons.{i}.damage"))
        }
    }
}

/// True when the problem only says the draft is not done yet.
fn unfinished(d: &Draft, p: &DraftProblem) -> bool {
    match p {
        DraftProblem::NoName => true,
        DraftProblem::UnknownSuit(s) => s.is_empty() && d.suit.is_none(),
        DraftProblem::TooFewAdvantages { .. } => true,
        DraftProblem::SpecialtyShape(n) => d
            .specialties
            .iter()
            .any(|s| s.name == *n && s.skills.len() < 2),
        _ => false,
    }
}

fn problem(p: &DraftProblem, field: Option<String>, unfinished: bool) -> BuildProblem {
    BuildProblem {
        field,
        rule: p.rule(),
        message: p.message(),
        unfinished,
    }
}

/// Every problem of a draft: [`Character::from_draft`]'s on its sheet, each
/// marked unfinished or broken.
pub fn problems(d: &Draft) -> Vec<BuildProblem> {
    match Character::from_draft(to_sheet(d)) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .problems
            .iter()
            .map(|p| problem(p, locate(d, p), unfinished(d, p)))
            .collect(),
    }
}

/// The problems of a sheet file as `character validate` reports them.
pub(crate) fn sheet_problems(e: SheetError) -> Vec<BuildProblem> {
    match e {
        SheetError::Toml(message) => vec![BuildProblem {
            field: None,
            rule: RULE_SHEET,
            message,
            unfinished: false,
        }],
        SheetError::Rules(e) => {
            let d = from_sheet(&e.draft);
            e.problems
                .iter()
                .map(|p| problem(p, locate(&d, p), false))
                .collect()
        }
    }
}

/// The Fate of a suit ("Suits").
fn fate(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "Kranos",
        Suit::Hearts => "Loressa",
        Suit::Spades => "Aiyala",
        Suit::Diamonds => "Esme, the Smiling Lady",
    }
}

fn suit_help(suit: Suit) -> &'static str {
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

fn trait_help(t: Trait) -> &'static str {
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

fn suit_label(suit: Suit) -> String {
    format!("{suit} ({})", suit.tarot_name())
}

/// The book's sub-skills listed under a skill ("Skills").
fn skill_help(skill: &str) -> String {
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
fn skills_at_two(d: &Draft) -> Vec<(String, i64)> {
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
fn fitting_sub_skills(d: &Draft) -> Vec<String> {
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
fn room(cur: i64, left: i64, cap: i64, min: i64) -> i64 {
    cur.saturating_add(left.max(0)).min(cap).max(min)
}

fn int(min: i64, max: i64) -> FieldKind {
    FieldKind::Int { min, max }
}

fn text(max_chars: usize) -> FieldKind {
    FieldKind::Text { max_chars }
}

fn field(
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

fn txt(s: &str) -> Option<FieldValue> {
    Some(FieldValue::Text(s.to_string()))
}

fn step(id: &str, title: &str, help: &str, rule: Rule, fields: Vec<FieldView>) -> StepView {
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
fn plain_advantages() -> impl Iterator<Item = Advantage> {
    Advantage::PLAIN
        .into_iter()
        .filter(|a| !matches!(a, Advantage::Toughness | Advantage::Resolve))
}

fn advantage_count(d: &Draft) -> i64 {
    ((d.advantages.len() + d.counter.len() + d.florentine.len()) as i64)
        .saturating_add(d.toughness.max(0))
        .saturating_add(d.resolve.max(0))
}

fn yes_no(help_yes: &str, help_no: &str) -> FieldKind {
    FieldKind::Choice {
        options: vec![
            ChoiceOption::new("yes", help_yes),
            ChoiceOption::new("no", help_no),
        ],
    }
}

/// The suit of a Trait ("Suits").
fn suit_of_trait(t: Trait) -> Suit {
    match t {
        Trait::Body => Suit::Clubs,
        Trait::Spirit => Suit::Hearts,
        Trait::Mind => Suit::Spades,
        Trait::Luck => Suit::Diamonds,
    }
}

fn yn(b: bool) -> Option<FieldValue> {
    txt(if b { "yes" } else { "no" })
}

/// Every creation step with its fields as the draft stands.
fn steps(d: &Draft, left: i64) -> Vec<StepView> {
    let suit = suit_of(d);
    let mut out = Vec::new();
    out.push(step(
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
    ));
    out.push(step(
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
    ));
    out.push(step(
        "points",
        "ii. Points & Costs",
        "Every character starts with a 1 in each trait (2 in their chosen suit), 1 in each skill, and 10 XP. Increasing a trait, gaining an advantage, upping a skill, or gaining a specialty costs 1 XP. The two starting Advantages are free.",
        RULE_POINTS,
        Vec::new(),
    ));
    out.push(step(
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
    ));
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
    out.push(step(
        "skills",
        "iv. Skills",
        "Every skill starts at rank 1; upping a skill costs 1 XP a rank. In a Skill Hand you draw your rank in cards and add the Trait; in an Opposition you bet up to your ranks in cards.",
        RULE_SKILLS,
        skill_fields,
    ));
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
    out.push(step(
        "specialties",
        "v. Specialties",
        "A synergistic bonus between two skills at rank 2 or above. A player may spend 1 point to gain a Specialty between any two skills at rank 2 or above. The rank of the specialty is equal to the lower of the two skills involved, and is added to any fate draw involving it.",
        RULE_SPECIALTIES,
        spec_fields,
    ));
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
    out.push(step(
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
    ));
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
    out.push(step(
        "disadvantages",
        "vii. Disadvantages",
        "Disadvantages may be taken only at character creation – the character gains 1 XP for each disadvantage.",
        RULE_POINTS,
        dis_fields,
    ));
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
    out.push(step(
        "gear",
        "The Charts (weapons and armour)",
        "The book's charts of weapons, armour and costs are empty: weapons and armour are what the table agrees (a name, a damage bonus, armour's reduction). Optional.",
        RULE_CHARTS,
        gear,
    ));
    out
}

fn derived(d: &Draft, spent: i64, total: i64) -> Vec<Derived> {
    let suit = suit_of(d);
    let mut out = Vec::new();
    if let Some(s) = suit {
        out.push(Derived {
            name: "Patron Fate".into(),
            value: fate(s).into(),
            rule: RULE_FATES,
        });
    }
    for t in Trait::ALL {
        let score = trait_score(d, t);
        let max = score.saturating_mul(5);
        out.push(Derived {
            name: t.pool_name().into(),
            value: match d.pools.get(t) {
                Some(now) => format!("{now} of {max}"),
                None => max.to_string(),
            },
            rule: crate::character::RULE_POOLS,
        });
    }
    for t in Trait::ALL {
        let score = trait_score(d, t);
        out.push(Derived {
            name: format!("Fate Draw off {t}"),
            value: format!(
                "+{score} to your card; the Dealer draws {}",
                (6 - score.clamp(0, 6)).max(1)
            ),
            rule: RULE_SKILL_HAND,
        });
    }
    let highest = Trait::ALL
        .into_iter()
        .map(|t| trait_score(d, t))
        .max()
        .unwrap_or(1);
    out.push(Derived {
        name: "Power Rating of your Reinforce / Involve".into(),
        value: highest.to_string(),
        rule: RULE_SCENE,
    });
    for s in &d.specialties {
        if let [a, b] = s.skills.as_slice() {
            let (ra, rb) = (rank(d, a).unwrap_or(0), rank(d, b).unwrap_or(0));
            out.push(Derived {
                name: format!("Specialty {}", s.name),
                value: format!("rank {} ({a} {ra} x {b} {rb})", ra.min(rb)),
                rule: RULE_SPECIALTIES,
            });
        }
    }
    if d.toughness > 0 {
        out.push(Derived {
            name: "Damage to BP reduced by".into(),
            value: d.toughness.to_string(),
            rule: RULE_ADVANTAGES,
        });
    }
    if d.resolve > 0 {
        out.push(Derived {
            name: "Damage to SP reduced by".into(),
            value: d.resolve.to_string(),
            rule: RULE_ADVANTAGES,
        });
    }
    out.push(Derived {
        name: "XP left".into(),
        value: total.saturating_sub(spent).to_string(),
        rule: RULE_POINTS,
    });
    out
}

/// The view of a draft (see [`CharacterBook::build_view`]).
pub fn view(d: &Draft) -> BuildView {
    let sheet = to_sheet(d);
    let spent = sheet.xp_spent();
    let total = sheet.xp_available();
    let left = total.saturating_sub(spent);
    BuildView {
        system: crate::ID.into(),
        steps: steps(d, left),
        budgets: vec![
            Budget {
                name: "XP".into(),
                total,
                spent,
                rule: RULE_POINTS,
            },
            Budget {
                name: "Free Advantages".into(),
                total: FREE_ADVANTAGES as i64,
                spent: advantage_count(d).clamp(0, FREE_ADVANTAGES as i64),
                rule: RULE_ADVANTAGES,
            },
        ],
        derived: derived(d, spent, total),
        problems: problems(d),
        next: None,
        complete: false,
    }
    .settle()
}

fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.into(),
        message: message.into(),
    }
}

/// The value is of the field's kind: a number for a number, an offered option,
/// options each offered once, a text short enough.
fn check_kind(f: &FieldView, value: &FieldValue) -> Result<(), BuildRefusal> {
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

fn known(view: &BuildView) -> String {
    view.steps
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn as_text(v: Option<&FieldValue>) -> &str {
    match v {
        Some(FieldValue::Text(t)) => t.as_str(),
        _ => "",
    }
}

fn as_int(v: Option<&FieldValue>, default: i64) -> i64 {
    match v {
        Some(FieldValue::Int(n)) => *n,
        _ => default,
    }
}

fn slot(rest: &str) -> Option<(usize, &str)> {
    let (i, part) = rest.split_once('.').unwrap_or((rest, ""));
    Some((i.parse().ok()?, part))
}

/// Apply `value` (or clear, when `None`) to `key`, checking only the value's
/// kind and what the draft cannot hold (a count below 0, a skill named twice).
fn apply(d: &mut Draft, key: &str, value: Option<&FieldValue>) -> Result<(), BuildRefusal> {
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

/// Apply, then refuse (leaving `d` unchanged) when a broken problem appears
/// that the draft did not have.
fn checked(d: &mut Draft, key: &str, value: Option<&FieldValue>) -> Result<(), BuildRefusal> {
    let before = problems(d);
    let mut next = d.clone();
    apply(&mut next, key, value)?;
    if let Some(p) = problems(&next)
        .into_iter()
        .find(|p| !p.unfinished && !before.contains(p))
    {
        return Err(BuildRefusal::Broken {
            key: key.into(),
            problem: p,
        });
    }
    *d = next;
    Ok(())
}

/// The sheet as TOML.
pub fn write_sheet(s: &CharacterDraft) -> String {
    toml::to_string(s).unwrap_or_else(|e| format!("# the sheet could not be written: {e}\n"))
}

/// "Disadvantages may be taken only at character creation – the character
/// gains 1 XP for each disadvantage." A Game of Bastards, "Points & Costs"
/// (003_2dfeea144768d328.txt).
pub const RULE_DISADVANTAGES_AT_CREATION: Rule = Rule {
    ruling: None,
    ..crate::character::RULE_POINTS
};

impl CharacterBook for Bastards {
    type Draft = Draft;

    fn place<F: tabula_core::files::SheetFiles + ?Sized>(
        table: &str,
        files: &F,
        players: &[tabula_core::place::Placed],
    ) -> Result<String, tabula_core::place::PlaceError> {
        crate::place::place(table, files, players)
    }

    fn build_view(draft: &Draft) -> BuildView {
        view(draft)
    }

    fn set(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        checked(draft, key, Some(value))
    }

    /// Take back a choice. Refused like `set` (draft unchanged) when taking it
    /// back breaks a rule: clearing a skill a Specialty needs, a Disadvantage
    /// whose XP is spent.
    fn clear(draft: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
        checked(draft, key, None)
    }

    fn force(draft: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
        apply(draft, key, Some(value))
    }

    fn draft_sheet(draft: &Draft) -> String {
        write_sheet(&to_sheet(draft))
    }

    /// [`Character::from_toml`], the check `tabula bastards character validate`
    /// runs.
    fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
        Character::from_toml(sheet)
            .map(|c| c.name().to_string())
            .map_err(sheet_problems)
    }

    /// A sheet that validates, as a draft; the draft writes the same character
    /// back.
    fn draft_from_sheet(sheet: &str) -> Result<Draft, Vec<BuildProblem>> {
        let c = Character::from_toml(sheet).map_err(sheet_problems)?;
        let d = from_sheet(&c.to_draft());
        match Character::from_draft(to_sheet(&d)) {
            Ok(back) if back.same_sheet(&c) => Ok(d),
            _ => Err(vec![BuildProblem {
                field: None,
                rule: RULE_SHEET,
                message: format!(
                    "{} cannot be edited step by step (the steps do not write it back the same)",
                    c.name()
                ),
                unfinished: false,
            }]),
        }
    }

    fn sheets_after(state: &crate::State) -> Vec<SheetAfter> {
        crate::advance::sheets_after(state)
    }

    /// A Disadvantage on `new` that `old` lacks: "Disadvantages may be taken
    /// only at character creation" ("Points & Costs"). A GM's edit may add
    /// one (the GM's right); the history says which rule it steps past.
    fn steps_past(old: &str, new: &str) -> Vec<BuildProblem> {
        let (Ok(old), Ok(new)) = (Character::from_toml(old), Character::from_toml(new)) else {
            return Vec::new();
        };
        let mut before: Vec<&String> = old.disadvantages().iter().collect();
        let mut out = Vec::new();
        for (i, d) in new.disadvantages().iter().enumerate() {
            if let Some(at) = before.iter().position(|b| same_name(b, d)) {
                before.remove(at);
                continue;
            }
            out.push(BuildProblem {
                field: Some(format!("disadvantages.{i}")),
                rule: RULE_DISADVANTAGES_AT_CREATION,
                message: format!(
                    "the Disadvantage {d:?} is added after creation (\"Disadvantages may be taken only at character creation\")"
                ),
                unfinished: false,
            });
        }
        out
    }

    const ADVANCEMENT: &'static [CommandDoc] = crate::advance::ADVANCEMENT;

    fn advance(
        sheet: &str,
        seat: &Seat,
        line: &str,
        roller: &mut dyn Roller,
    ) -> Result<Advanced, AdvanceError> {
        crate::advance::advance(sheet, seat, line, roller)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_draft_asks_for_a_name_a_suit_and_two_advantages() {
        let v = view(&Draft::default());
        assert!(!v.complete);
        assert_eq!(v.next.as_deref(), Some("name"));
        assert!(v.problems.iter().all(|p| p.unfinished), "{:?}", v.problems);
        let xp = &v.budgets[0];
        assert_eq!((xp.total, xp.spent), (10, 0));
    }

    /// A draft read back from JSON may hold anything: the view and the sheet
    /// never panic, and the extremes are problems.
    #[test]
    fn absurd_numbers_in_a_stored_draft_are_problems_not_panics() {
        let d = Draft {
            name: Some("X".into()),
            suit: Some("Clubs".into()),
            body: Some(i64::MAX),
            spirit: Some(i64::MIN),
            toughness: i64::MAX,
            resolve: i64::MAX,
            earned_xp: i64::MIN,
            wildcards: u32::MAX,
            skills: BTreeMap::from([("Athletics".to_string(), i64::MAX)]),
            more_skills: vec![MoreSkill {
                name: "Sword Combat".into(),
                rank: i64::MIN,
            }],
            weapons: vec![Weapon {
                name: "Sword".into(),
                damage: i64::MAX,
                skill: "Sword Combat".into(),
                melee: true,
                ready: true,
            }],
            pools: Pools {
                bp: Some(i64::MAX),
                ..Pools::default()
            },
            ..Draft::default()
        };
        let v = view(&d);
        assert!(!v.complete);
        assert!(v.problems.iter().any(|p| !p.unfinished));
        let sheet = <Bastards as CharacterBook>::draft_sheet(&d);
        assert!(<Bastards as CharacterBook>::validate(&sheet).is_err());
    }

    #[test]
    fn a_trait_at_its_start_is_not_stored() {
        let mut d = Draft::default();
        apply(&mut d, "traits.Spirit", Some(&FieldValue::Int(1))).unwrap();
        assert_eq!(d.spirit, None);
        apply(&mut d, "suit", Some(&FieldValue::Text("Hearts".into()))).unwrap();
        assert_eq!(trait_score(&d, Trait::Spirit), 2);
    }
}
