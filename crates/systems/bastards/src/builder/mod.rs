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

mod apply;
mod steps;

pub(crate) use apply::*;
pub(crate) use steps::*;

/// A sheet file that is not TOML of the sheet's shape (Tabula's sheet format,
/// `docs/systems/bastards.md`, "Character sheets (TOML)").
pub const RULE_SHEET: Rule = Rule::table("Character sheets");
/// The Fates of the four suits ("Suits").
pub const RULE_FATES: Rule = RULE_SUITS;
/// "Building A Scene": Reinforce and Involve give a Power Rating equal to the
/// highest Trait.
pub const RULE_SCENE: Rule = crate::rules::RULE_DRAMATIC;

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
    /// `Counter<Weapon>`: one per weapon named.
    pub counter: Vec<String>,
    /// `Florentine<Weapon>`: one per weapon named.
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
    type Setting = ();

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
        tabula_core::builder::set_checked(
            draft,
            key,
            value,
            |d, k, v| apply(d, k, Some(v)),
            problems,
        )
    }

    /// Take back a choice. Refused like `set` (draft unchanged) when taking it
    /// back breaks a rule: clearing a skill a Specialty needs, a Disadvantage
    /// whose XP is spent.
    fn clear(draft: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
        cleared(draft, key)
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
mod tests;
