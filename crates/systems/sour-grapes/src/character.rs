//! The character sheet: nine stats, free-named skills, monsters, experience.
//!
//! Sour Grapes, "Character Creation", "Stats", "Skills", "Skill Mechanics",
//! "Monsters", "Experience" (000_05a1db5b88f54528.txt).
//!
//! A [`CharacterDraft`] (public fields, read from TOML) becomes a [`Character`]
//! only through [`Character::from_draft`], whose [`DraftError`] lists every broken
//! rule and hands the draft back.
//!
//! ```toml
//! name = "Example Player"
//! [stats]
//! agility = 5
//! might = 3          # "strength" is accepted too (R-SG-3)
//! resolve = { actual = 4, current = 2, injured = true }
//! # ... all nine
//! [[skills]]
//! name = "fencing"
//! rating = 3          # 1 (trained) to 5 (masterclass)
//! used = 0            # tokens already spent
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use tabula_core::names::{NameError, check_name};

use crate::stats::{Condition, MAX_STAT, Stat, StatValue};

/// Names compare as the core compares them, without allocating for ASCII
/// names (issue 26, item 6; this file held a copy of it before).
pub(crate) use tabula_core::names::same_name;

/// The highest skill rating, masterclass. Sour Grapes, "Skills".
pub const MAX_SKILL: u32 = 5;
/// The most skills one sheet may hold ("players should rarely have more than one
/// page"; a page of the book's sheet holds ten; Tabula caps at 40).
pub const MAX_SKILLS: usize = 40;
/// The longest name (character, skill, card), in characters: the core limit.
pub const MAX_NAME: usize = tabula_core::names::MAX_NAME_CHARS;
/// The largest Experience bonus on one card (easier or damage).
pub const MAX_CARD_BONUS: u32 = 5;
/// The most cards with Experience bonuses on one sheet.
pub const MAX_CARD_BONUSES: usize = 40;

/// An Experience bonus on one action card: the book's "smaller bonuses could be
/// modifying the requirements of an action card to cost less or deal more damage".
///
/// Sour Grapes, "Experience" (000_05a1db5b88f54528.txt).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardBonus {
    /// Successes taken off the card's numeric value (A), 0..=5.
    #[serde(default)]
    pub easier: u32,
    /// Points added to the damage the card deals, 0..=5.
    #[serde(default)]
    pub damage: u32,
}

/// The most experience points one character may hold.
pub const MAX_EXPERIENCE: u32 = 1_000;

/// A skill: a free name and a rating 1 (trained) to 5 (masterclass), used as free
/// tokens; `available` tokens remain until they recover.
///
/// Sour Grapes, "Skills" and "Skill Mechanics" (000_05a1db5b88f54528.txt).
/// Skills cannot be injured, negated or modified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skill {
    /// The skill's name, free text ("fencing", "Fast Talking").
    pub name: String,
    /// The rating, 1..=5.
    pub rating: u32,
    /// Tokens available now, 0..=rating.
    pub available: u32,
    /// The notes line of the book's skill sheet ("Name: ... Notes: ..."), free text.
    #[serde(default)]
    pub notes: String,
}

/// One stat as written in a TOML sheet: a number (Actual = Current) or a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StatEntry {
    /// `agility = 5`: Actual 5, Current 5, not injured.
    Value(i64),
    /// `resolve = { actual = 4, current = 2, injured = true }`.
    Full {
        /// The Actual Stat Value.
        actual: i64,
        /// The Current Stat Value (default: actual).
        current: Option<i64>,
        /// The Injury marker (default: false).
        #[serde(default)]
        injured: bool,
    },
}

/// One skill as written in a TOML sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillDraft {
    /// The skill's name.
    pub name: String,
    /// The rating, 1..=5.
    pub rating: i64,
    /// Tokens already spent (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub used: i64,
    /// Notes, free text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// An effect card in play on the character, written on the sheet so that it
/// lasts from one encounter to the next ("Effects are cards that are
/// continuously in play"; negative ones stay until their criteria are met).
///
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt); R-SG-9.
///
/// ```toml
/// effects = [{ card = "Intoxicated", tokens = 2 }]
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectEntry {
    /// The effect card's name (a card the table knows).
    pub card: String,
    /// Tokens left on the card, 0..=100 ([`crate::cards::MAX_EFFECT_TOKENS`]);
    /// left out: the tokens the card places when it comes into play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<i64>,
    /// The effect card itself, as a table file writes it (`[[card]]`), for a
    /// table's own card the book does not print (the example table's
    /// Bleeding): the sheet carries what the next table needs to keep it in
    /// play. Written by the sheet an encounter leaves; a table that defines a
    /// card of that name uses its own. Sour Grapes, "Effects" (effects are
    /// "continuously in play"), "Cards".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<crate::cards::CardDraft>,
}

impl EffectEntry {
    /// The effect's card: the sheet's definition when it carries a valid one
    /// of this name, else an effect known by its name only, staying until
    /// cured ([`crate::cards::ActionCard::named_effect`]).
    pub fn card_or_named(&self) -> crate::cards::ActionCard {
        self.definition
            .clone()
            .and_then(|d| crate::cards::ActionCard::from_draft(d, 0).ok())
            .filter(|c| c.effect.is_some() && crate::cards::same_key(&c.name, &self.card))
            .unwrap_or_else(|| crate::cards::ActionCard::named_effect(&self.card))
    }
}

/// A character sheet as read from TOML: not necessarily legal.
///
/// Fields left at their default are not written (`monster = false`, an empty
/// concept, no experience ...), so a sheet written back reads like one written
/// by hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterDraft {
    /// The character's name.
    #[serde(default)]
    pub name: String,
    /// True for a monster: the same sheet, run by the storyteller ("Monsters").
    #[serde(default, skip_serializing_if = "is_false")]
    pub monster: bool,
    /// Who they are, free text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub concept: String,
    /// Stat name -> entry; all nine are required.
    #[serde(default)]
    pub stats: BTreeMap<String, StatEntry>,
    /// The skills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SkillDraft>,
    /// Unspent experience points (the Experience table rule).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub experience: i64,
    /// Experience bonuses by card name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub card_bonuses: BTreeMap<String, CardBonus>,
    /// The action cards the character may play (card names; `None`: every
    /// card the table has). A table file's `cards` for the participant wins
    /// over it at that table. Sour Grapes, "Cards".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<String>>,
    /// Comparable skills agreed for this character: a card's skill (F) -> one
    /// of the character's skills ("Skills": "make a case for a skill being a
    /// comparable for another"). A table file may add more.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub comparable: BTreeMap<String, String>,
    /// Effects in play on the character, with their tokens ("Effects").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectEntry>,
}

/// One broken rule in a character draft.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// `name` is empty, too long, or holds a control character
    /// (`tabula_core::names::check_name`).
    #[error("{0}")]
    Name(NameError),
    /// A stat is missing: there are 9 Stats ("Stats").
    #[error("stats.{0}: missing (there are 9 Stats and each needs a value)")]
    MissingStat(Stat),
    /// A key under `[stats]` is not a stat.
    #[error(
        "stats.{0}: not a stat (Agility, Might/Strength, Knowledge, Perception, Prestige, Resolve, Spirit, Stamina, Vitality)"
    )]
    UnknownStat(String),
    /// Might given twice (as Might and Strength, R-SG-3).
    #[error("stats.{0}: given twice (Might and Strength are one stat, R-SG-3)")]
    DuplicateStat(Stat),
    /// The Actual Stat Value is outside 1..=10 ("Stats").
    #[error("stats.{stat}: Actual Stat Value must be 1 to 10, not {got}")]
    ActualOutOfRange {
        /// The stat.
        stat: Stat,
        /// The value given.
        got: i64,
    },
    /// The Current Stat Value is outside 0..=actual.
    #[error("stats.{stat}.current: must be 0 to the Actual Stat Value {actual}, not {got}")]
    CurrentOutOfRange {
        /// The stat.
        stat: Stat,
        /// The Actual Stat Value.
        actual: i64,
        /// The value given.
        got: i64,
    },
    /// A skill's name is empty, too long, or holds a control character.
    #[error("{error}")]
    SkillName {
        /// The index of the skill.
        index: usize,
        /// What is wrong with the name.
        error: NameError,
    },
    /// Two skills with the same name.
    #[error("skills[{index}].name: {name:?} is listed twice")]
    DuplicateSkill {
        /// The index of the second one.
        index: usize,
        /// The name.
        name: String,
    },
    /// A rating outside 1..=5 ("Skills are in values from 1 (trained) to 5 (masterclass)").
    #[error("skills[{index}].rating: {name:?} must be 1 (trained) to 5 (masterclass), not {got}")]
    SkillRating {
        /// The index.
        index: usize,
        /// The name.
        name: String,
        /// The rating given.
        got: i64,
    },
    /// Tokens used outside 0..=rating.
    #[error("skills[{index}].used: {name:?} may have 0 to its rating of tokens spent, not {got}")]
    SkillUsed {
        /// The index.
        index: usize,
        /// The name.
        name: String,
        /// The value given.
        got: i64,
    },
    /// More skills than one sheet holds.
    #[error("skills: at most {MAX_SKILLS} skills (\"rarely more than one page\"), not {0}")]
    TooManySkills(usize),
    /// Experience outside 0..=MAX_EXPERIENCE.
    #[error("experience: must be 0 to {MAX_EXPERIENCE}, not {0}")]
    Experience(i64),
    /// A card bonus above the cap, with an empty card name, or too many.
    #[error(
        "card_bonuses.{0}: a card name, with easier and damage 0 to {MAX_CARD_BONUS} (at most {MAX_CARD_BONUSES} cards)"
    )]
    CardBonus(String),
    /// A card name in `cards` is empty, too long, or holds a control character.
    #[error("{error}")]
    CardName {
        /// The index in `cards`.
        index: usize,
        /// What is wrong with the name.
        error: NameError,
    },
    /// A card listed twice in `cards`.
    #[error("cards[{index}]: {name:?} is listed twice")]
    DuplicateCard {
        /// The index of the second one.
        index: usize,
        /// The name.
        name: String,
    },
    /// More cards in `cards` than a table may define.
    #[error("cards: at most {MAX_CARDS} cards, not {0}", MAX_CARDS = crate::cards::MAX_CARDS)]
    TooManyCards(usize),
    /// An effect's card name is empty, too long, or holds a control character.
    #[error("{error}")]
    EffectName {
        /// The index in `effects`.
        index: usize,
        /// What is wrong with the name.
        error: NameError,
    },
    /// The same effect twice ("one" of each card in play on a character).
    #[error("effects[{index}]: {name:?} is in play twice")]
    DuplicateEffect {
        /// The index of the second one.
        index: usize,
        /// The card.
        name: String,
    },
    /// Tokens on an effect outside 0..=100.
    #[error("effects[{index}].tokens: {name:?} may hold 0 to {max} tokens, not {got}", max = crate::cards::MAX_EFFECT_TOKENS)]
    EffectTokens {
        /// The index in `effects`.
        index: usize,
        /// The card.
        name: String,
        /// The value given.
        got: i64,
    },
    /// The effect card a sheet carries is not a legal effect card of that
    /// name ("Cards", "Effects").
    #[error("effects[{index}].definition: {name:?}: {}", .problems.join("; "))]
    EffectDefinition {
        /// The index in `effects`.
        index: usize,
        /// The effect's name.
        name: String,
        /// What is wrong with the card.
        problems: Vec<String>,
    },
    /// More effects than a table may define cards.
    #[error("effects: at most {MAX_CARDS} effects, not {0}", MAX_CARDS = crate::cards::MAX_CARDS)]
    TooManyEffects(usize),
    /// A comparable names a skill badly (empty, too long, control characters).
    #[error("{0}")]
    ComparableName(NameError),
    /// A comparable points at a skill the character does not have.
    #[error("comparable.{from}: the character has no skill called {to:?} to use for {from}")]
    ComparableSkill {
        /// The card's skill.
        from: String,
        /// The skill named as its comparable.
        to: String,
    },
    /// More comparables than the skill page could hold.
    #[error("comparable: at most {MAX_SKILLS} comparables, not {0}")]
    TooManyComparables(usize),
}

impl Problem {
    /// The rule the problem breaks, as the builder and `character validate`
    /// cite it: "Character Creation" (the name), "Stats" (the nine Stats,
    /// 1-10), "Stat Mechanics" (Current, Injury), "Skills" (names, 1-5, the
    /// page, comparables), "Skill Mechanics" (tokens spent), "Experience",
    /// "Cards", "Effects" (R-SG-9).
    pub fn rule(&self) -> tabula_core::Rule {
        use crate::rules;
        match self {
            Problem::Name(_) => rules::CREATION,
            Problem::MissingStat(_)
            | Problem::UnknownStat(_)
            | Problem::ActualOutOfRange { .. } => rules::STATS,
            Problem::DuplicateStat(_) => rules::STATS.ruling("R-SG-3"),
            Problem::CurrentOutOfRange { .. } => rules::STAT_MECHANICS,
            Problem::SkillName { .. }
            | Problem::DuplicateSkill { .. }
            | Problem::SkillRating { .. }
            | Problem::TooManySkills(_)
            | Problem::ComparableName(_)
            | Problem::ComparableSkill { .. }
            | Problem::TooManyComparables(_) => rules::SKILL_SHEET,
            Problem::SkillUsed { .. } => rules::SKILLS,
            Problem::Experience(_) | Problem::CardBonus(_) => rules::EXPERIENCE,
            Problem::CardName { .. } | Problem::DuplicateCard { .. } | Problem::TooManyCards(_) => {
                rules::HAND
            }
            Problem::EffectName { .. }
            | Problem::DuplicateEffect { .. }
            | Problem::EffectTokens { .. }
            | Problem::EffectDefinition { .. }
            | Problem::TooManyEffects(_) => rules::EFFECTS,
        }
    }

    /// The field of the sheet the problem is about, as the builder names its
    /// fields: `name`, `stats.Agility`, `skills.2.rating`, `skills.2.used`,
    /// `experience`, `card_bonuses`, `cards`, `effects`, `comparable`; `None`
    /// for a key that is no stat, or too many skills.
    pub fn field(&self) -> Option<String> {
        Some(match self {
            Problem::Name(_) => "name".into(),
            Problem::MissingStat(s)
            | Problem::DuplicateStat(s)
            | Problem::ActualOutOfRange { stat: s, .. }
            | Problem::CurrentOutOfRange { stat: s, .. } => format!("stats.{}", s.name()),
            Problem::UnknownStat(_) | Problem::TooManySkills(_) => return None,
            Problem::SkillName { index, .. } | Problem::DuplicateSkill { index, .. } => {
                format!("skills.{index}.name")
            }
            Problem::SkillRating { index, .. } => format!("skills.{index}.rating"),
            Problem::SkillUsed { index, .. } => format!("skills.{index}.used"),
            Problem::Experience(_) => "experience".into(),
            Problem::CardBonus(_) => "card_bonuses".into(),
            Problem::CardName { .. } | Problem::DuplicateCard { .. } | Problem::TooManyCards(_) => {
                "cards".into()
            }
            Problem::EffectName { .. }
            | Problem::DuplicateEffect { .. }
            | Problem::EffectTokens { .. }
            | Problem::EffectDefinition { .. }
            | Problem::TooManyEffects(_) => "effects".into(),
            Problem::ComparableName(_)
            | Problem::ComparableSkill { .. }
            | Problem::TooManyComparables(_) => "comparable".into(),
        })
    }
}

/// A draft that broke rules: every problem, and the draft handed back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct DraftError {
    /// Every broken rule, in sheet order.
    pub problems: Vec<Problem>,
    /// The draft, unchanged.
    pub draft: Box<CharacterDraft>,
}

impl fmt::Display for DraftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.draft.name.is_empty() {
            "the character"
        } else {
            &self.draft.name
        };
        write!(f, "{name} breaks {} rule(s):", self.problems.len())?;
        for p in &self.problems {
            write!(f, "\n  - {p}")?;
        }
        Ok(())
    }
}

/// A character file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CharacterFileError {
    /// The TOML is malformed or a field has the wrong type.
    #[error("not a character sheet: {0}")]
    Toml(String),
    /// The sheet breaks rules.
    #[error(transparent)]
    Draft(#[from] DraftError),
}

/// The sheet's `cards`: names, each once, at most [`crate::cards::MAX_CARDS`].
/// Sour Grapes, "Cards". Whether the table knows them is checked at setup.
fn check_cards(draft: &CharacterDraft, problems: &mut Vec<Problem>) {
    let Some(cards) = &draft.cards else {
        return;
    };
    if cards.len() > crate::cards::MAX_CARDS {
        problems.push(Problem::TooManyCards(cards.len()));
    }
    for (index, c) in cards.iter().enumerate().take(crate::cards::MAX_CARDS) {
        if let Err(error) = check_name(&format!("cards[{index}]"), c) {
            problems.push(Problem::CardName { index, error });
        } else if cards[..index].iter().any(|k| crate::cards::same_key(k, c)) {
            problems.push(Problem::DuplicateCard {
                index,
                name: c.clone(),
            });
        }
    }
}

/// The sheet's `effects`: names, each once, tokens 0..=100. Sour Grapes,
/// "Effects"; R-SG-9.
fn check_effects(draft: &CharacterDraft, problems: &mut Vec<Problem>) {
    let effects = &draft.effects;
    if effects.len() > crate::cards::MAX_CARDS {
        problems.push(Problem::TooManyEffects(effects.len()));
    }
    for (index, e) in effects.iter().enumerate().take(crate::cards::MAX_CARDS) {
        if let Err(error) = check_name(&format!("effects[{index}].card"), &e.card) {
            problems.push(Problem::EffectName { index, error });
            continue;
        }
        if effects[..index]
            .iter()
            .any(|k| crate::cards::same_key(&k.card, &e.card))
        {
            problems.push(Problem::DuplicateEffect {
                index,
                name: e.card.clone(),
            });
            continue;
        }
        if let Some(t) = e.tokens
            && !(0..=i64::from(crate::cards::MAX_EFFECT_TOKENS)).contains(&t)
        {
            problems.push(Problem::EffectTokens {
                index,
                name: e.card.clone(),
                got: t,
            });
        }
        if let Some(d) = &e.definition {
            let mut wrong: Vec<String> =
                match crate::cards::ActionCard::from_draft(d.clone(), index) {
                    Ok(c) if c.effect.is_none() => {
                        vec!["it is no effect card (no `effect` data)".into()]
                    }
                    Ok(c) if !crate::cards::same_key(&c.name, &e.card) => {
                        vec![format!("the card is called {:?}", c.name)]
                    }
                    Ok(_) => Vec::new(),
                    Err(ps) => ps.into_iter().map(|p| p.to_string()).collect(),
                };
            if !wrong.is_empty() {
                wrong.truncate(8);
                problems.push(Problem::EffectDefinition {
                    index,
                    name: e.card.clone(),
                    problems: wrong,
                });
            }
        }
    }
}

/// The sheet's `comparable`: names, and each names one of the character's
/// skills. Sour Grapes, "Skills".
fn check_comparables(draft: &CharacterDraft, skills: &[Skill], problems: &mut Vec<Problem>) {
    if draft.comparable.len() > MAX_SKILLS {
        problems.push(Problem::TooManyComparables(draft.comparable.len()));
    }
    for (from, to) in draft.comparable.iter().take(MAX_SKILLS) {
        let mut named = true;
        for name in [from, to] {
            if let Err(e) = check_name("comparable", name) {
                problems.push(Problem::ComparableName(e));
                named = false;
            }
        }
        if named && !skills.iter().any(|k| same_name(&k.name, to)) {
            problems.push(Problem::ComparableSkill {
                from: from.clone(),
                to: to.clone(),
            });
        }
    }
}

/// A legal character (or monster): nine stats, skills, experience.
///
/// Sour Grapes, "Character Creation" (000_05a1db5b88f54528.txt). Built only by
/// [`Character::from_draft`]; the table changes it only through events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    name: String,
    monster: bool,
    concept: String,
    stats: [StatValue; 9],
    skills: Vec<Skill>,
    experience: u32,
    #[serde(default)]
    card_bonuses: BTreeMap<String, CardBonus>,
    /// The sheet's own list of action cards (`None`: every card the table has).
    #[serde(default)]
    cards: Option<Vec<String>>,
    /// The sheet's own comparable skills.
    #[serde(default)]
    comparable: BTreeMap<String, String>,
    /// Effects the sheet brings into play; the table takes them over at setup
    /// (they then live on the participant), so at a table this is empty.
    #[serde(default)]
    effects: Vec<EffectEntry>,
}

impl Character {
    /// Validate a draft. Sour Grapes, "Stats" (9 stats, 1-10), "Stat Mechanics"
    /// (Current 0 to Actual; a stat at zero may be healed, R-SG-13), "Skills"
    /// (1-5), R-SG-3.
    ///
    /// # Errors
    /// [`DraftError`] listing every broken rule, with the draft.
    pub fn from_draft(draft: CharacterDraft) -> Result<Character, DraftError> {
        let mut problems = Vec::new();
        if let Err(e) = check_name("name", &draft.name) {
            problems.push(Problem::Name(e));
        }
        let mut seen: [Option<StatValue>; 9] = [None; 9];
        for (key, entry) in &draft.stats {
            let Some(stat) = Stat::parse(key) else {
                problems.push(Problem::UnknownStat(key.clone()));
                continue;
            };
            if seen[stat.index()].is_some() {
                problems.push(Problem::DuplicateStat(stat));
                continue;
            }
            let (actual, current, injured) = match entry {
                StatEntry::Value(v) => (*v, *v, false),
                StatEntry::Full {
                    actual,
                    current,
                    injured,
                } => (*actual, current.unwrap_or(*actual), *injured),
            };
            let mut ok = true;
            if !(1..=i64::from(MAX_STAT)).contains(&actual) {
                problems.push(Problem::ActualOutOfRange { stat, got: actual });
                ok = false;
            } else if !(0..=actual).contains(&current) {
                problems.push(Problem::CurrentOutOfRange {
                    stat,
                    actual,
                    got: current,
                });
                ok = false;
            }
            // A stat at zero without the Injury marker is legal: the injury
            // happens when the stat reaches zero, and the storyteller's heal
            // removes it at any value, zero included (R-SG-13).
            // Mark as seen even when broken, so it is not also reported missing.
            seen[stat.index()] = Some(if ok {
                StatValue {
                    actual: actual as u32,
                    current: current as u32,
                    injured,
                }
            } else {
                StatValue::fresh(1)
            });
        }
        for stat in Stat::ALL {
            if seen[stat.index()].is_none() {
                problems.push(Problem::MissingStat(stat));
            }
        }
        if draft.skills.len() > MAX_SKILLS {
            problems.push(Problem::TooManySkills(draft.skills.len()));
        }
        let mut skills: Vec<Skill> = Vec::new();
        // Every name read so far, rated well or not, so a name given twice is
        // reported even when the first has a problem of its own.
        let mut named: Vec<&str> = Vec::new();
        for (index, s) in draft.skills.iter().enumerate().take(MAX_SKILLS) {
            if let Err(error) = check_name(&format!("skills[{index}].name"), &s.name) {
                problems.push(Problem::SkillName { index, error });
                continue;
            }
            let twice = named.iter().any(|k| same_name(k, &s.name));
            named.push(&s.name);
            if twice {
                problems.push(Problem::DuplicateSkill {
                    index,
                    name: s.name.clone(),
                });
                continue;
            }
            if !(1..=i64::from(MAX_SKILL)).contains(&s.rating) {
                problems.push(Problem::SkillRating {
                    index,
                    name: s.name.clone(),
                    got: s.rating,
                });
                continue;
            }
            if !(0..=s.rating).contains(&s.used) {
                problems.push(Problem::SkillUsed {
                    index,
                    name: s.name.clone(),
                    got: s.used,
                });
                continue;
            }
            skills.push(Skill {
                name: s.name.trim().to_string(),
                rating: s.rating as u32,
                available: (s.rating - s.used) as u32,
                notes: s.notes.clone(),
            });
        }
        if !(0..=i64::from(MAX_EXPERIENCE)).contains(&draft.experience) {
            problems.push(Problem::Experience(draft.experience));
        }
        if draft.card_bonuses.len() > MAX_CARD_BONUSES {
            problems.push(Problem::CardBonus(format!(
                "({} cards)",
                draft.card_bonuses.len()
            )));
        }
        for (card, b) in draft.card_bonuses.iter().take(MAX_CARD_BONUSES) {
            if check_name("card_bonuses", card).is_err()
                || b.easier > MAX_CARD_BONUS
                || b.damage > MAX_CARD_BONUS
            {
                problems.push(Problem::CardBonus(card.clone()));
            }
        }
        check_cards(&draft, &mut problems);
        check_effects(&draft, &mut problems);
        check_comparables(&draft, &skills, &mut problems);
        if !problems.is_empty() {
            return Err(DraftError {
                problems,
                draft: Box::new(draft),
            });
        }
        let stats = seen.map(|s| s.unwrap_or(StatValue::fresh(1)));
        Ok(Character {
            name: draft.name.trim().to_string(),
            monster: draft.monster,
            concept: draft.concept,
            stats,
            skills,
            experience: draft.experience as u32,
            card_bonuses: draft
                .card_bonuses
                .iter()
                .map(|(k, v)| (crate::cards::key(k), *v))
                .collect(),
            cards: draft
                .cards
                .map(|l| l.iter().map(|c| c.trim().to_string()).collect()),
            comparable: draft
                .comparable
                .iter()
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .collect(),
            effects: draft
                .effects
                .iter()
                .map(|e| EffectEntry {
                    card: e.card.trim().to_string(),
                    tokens: e.tokens,
                    definition: e.definition.clone(),
                })
                .collect(),
        })
    }

    /// Read and validate a TOML sheet.
    ///
    /// # Errors
    /// [`CharacterFileError`]: malformed TOML, or every broken rule.
    pub fn from_toml(text: &str) -> Result<Character, CharacterFileError> {
        let draft: CharacterDraft =
            toml::from_str(text).map_err(|e| CharacterFileError::Toml(e.to_string()))?;
        Ok(Character::from_draft(draft)?)
    }

    /// The sheet as a draft (for writing back to TOML).
    pub fn to_draft(&self) -> CharacterDraft {
        CharacterDraft {
            name: self.name.clone(),
            monster: self.monster,
            concept: self.concept.clone(),
            stats: Stat::ALL
                .iter()
                .map(|s| {
                    let v = self.stat(*s);
                    let entry = if v.current == v.actual && !v.injured {
                        StatEntry::Value(i64::from(v.actual))
                    } else {
                        StatEntry::Full {
                            actual: i64::from(v.actual),
                            current: Some(i64::from(v.current)),
                            injured: v.injured,
                        }
                    };
                    (s.name().to_ascii_lowercase(), entry)
                })
                .collect(),
            skills: self
                .skills
                .iter()
                .map(|k| SkillDraft {
                    name: k.name.clone(),
                    rating: i64::from(k.rating),
                    used: i64::from(k.rating - k.available),
                    notes: k.notes.clone(),
                })
                .collect(),
            experience: i64::from(self.experience),
            card_bonuses: self.card_bonuses.clone(),
            cards: self.cards.clone(),
            comparable: self.comparable.clone(),
            effects: self.effects.clone(),
        }
    }

    /// The sheet's own list of action cards (`None`: every card the table has).
    pub fn cards(&self) -> Option<&[String]> {
        self.cards.as_deref()
    }

    /// The sheet's own comparable skills: a card's skill -> the character's skill.
    pub fn comparable(&self) -> &BTreeMap<String, String> {
        &self.comparable
    }

    /// The effects the sheet brings into play (empty at a table, which takes
    /// them over at setup).
    pub fn effects(&self) -> &[EffectEntry] {
        &self.effects
    }

    /// Take the sheet's effects (the table puts them in play on the participant).
    pub(crate) fn take_effects(&mut self) -> Vec<EffectEntry> {
        std::mem::take(&mut self.effects)
    }

    /// The character's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True for a monster ("Monsters": the same sheet, run by the storyteller).
    pub fn is_monster(&self) -> bool {
        self.monster
    }

    /// Who they are, free text.
    pub fn concept(&self) -> &str {
        &self.concept
    }

    /// One stat.
    pub fn stat(&self, stat: Stat) -> StatValue {
        self.stats[stat.index()]
    }

    /// The skills.
    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// A skill by name (any case).
    pub fn skill(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| same_name(&s.name, name))
    }

    /// Unspent experience points.
    pub fn experience(&self) -> u32 {
        self.experience
    }

    /// The Experience bonus on a card (zero when none).
    pub fn card_bonus(&self, card: &str) -> CardBonus {
        self.card_bonuses
            .get(&crate::cards::key(card))
            .copied()
            .unwrap_or_default()
    }

    pub(crate) fn improve_card(&mut self, card: &str, damage: bool) {
        let b = self
            .card_bonuses
            .entry(crate::cards::key(card))
            .or_default();
        if damage {
            b.damage = (b.damage + 1).min(MAX_CARD_BONUS);
        } else {
            b.easier = (b.easier + 1).min(MAX_CARD_BONUS);
        }
    }

    /// The conditions applied now: one per depleted stat (R-SG-10).
    pub fn conditions(&self) -> Vec<Condition> {
        Stat::ALL
            .iter()
            .filter(|s| self.stat(**s).depleted())
            .map(|s| s.condition())
            .collect()
    }

    /// True when `condition` applies.
    pub fn has(&self, condition: Condition) -> bool {
        Stat::ALL
            .iter()
            .any(|s| s.condition() == condition && self.stat(*s).depleted())
    }

    /// Why `stat` cannot recover now, if it cannot: injured ("Stat Mechanics"),
    /// or Crippled / Feeble / Dying ("Stats").
    pub fn recovery_blocked(&self, stat: Stat) -> Option<String> {
        let v = self.stat(stat);
        if v.injured {
            return Some(format!(
                "{stat} is injured and does not recover until healed"
            ));
        }
        if self.has(Condition::Dying) {
            return Some("Dying: stats do not recover".into());
        }
        if stat.is_physical() && self.has(Condition::Crippled) {
            return Some("Crippled: Physical stats do not recover".into());
        }
        if stat.is_mental() && self.has(Condition::Feeble) {
            return Some("Feeble: Mental stats do not recover".into());
        }
        None
    }

    /// Damage multiplier for damage to `target` from a card whose Result stat is
    /// `from`: 2 when Frail (physical target), Despised (mental target) or Lost
    /// (Spirit attack) applies, else 1. Doubling does not stack (R-SG-7).
    pub fn damage_factor(&self, target: Stat, from: Option<Stat>) -> u32 {
        let doubled = (target.is_physical() && self.has(Condition::Frail))
            || (target.is_mental() && self.has(Condition::Despised))
            || (from == Some(Stat::Spirit) && self.has(Condition::Lost));
        if doubled { 2 } else { 1 }
    }

    // ---- changes, used only by the table's evolve ----

    pub(crate) fn stat_mut(&mut self, stat: Stat) -> &mut StatValue {
        &mut self.stats[stat.index()]
    }

    pub(crate) fn spend_tokens(&mut self, skill: &str, tokens: u32) {
        if let Some(s) = self.skills.iter_mut().find(|s| same_name(&s.name, skill)) {
            s.available = s.available.saturating_sub(tokens);
        }
    }

    pub(crate) fn recover_skill(&mut self, skill: &str, tokens: u32) {
        if let Some(s) = self.skills.iter_mut().find(|s| same_name(&s.name, skill)) {
            s.available = s.available.saturating_add(tokens).min(s.rating);
        }
    }

    pub(crate) fn recover_all_skills(&mut self) {
        for s in &mut self.skills {
            s.available = s.rating;
        }
    }

    /// This sheet fresh, under another name: every stat at its Actual Stat
    /// Value without an Injury marker, every skill token back, no effects on
    /// the sheet (the storyteller's `add`; see `crate::gm::add`).
    pub(crate) fn fresh_as(&self, name: &str) -> Character {
        let mut c = self.clone();
        c.name = name.to_string();
        for v in &mut c.stats {
            v.current = v.actual;
            v.injured = false;
        }
        c.recover_all_skills();
        c.effects.clear();
        c
    }

    pub(crate) fn set_experience(&mut self, points: u32) {
        self.experience = points.min(MAX_EXPERIENCE);
    }

    pub(crate) fn raise_skill(&mut self, name: &str) {
        match self.skills.iter_mut().find(|s| same_name(&s.name, name)) {
            Some(s) => {
                s.rating = (s.rating + 1).min(MAX_SKILL);
                s.available = (s.available + 1).min(s.rating);
            }
            None => {
                if self.skills.len() < MAX_SKILLS {
                    self.skills.push(Skill {
                        name: name.trim().to_string(),
                        rating: 1,
                        available: 1,
                        notes: String::new(),
                    });
                }
            }
        }
    }

    pub(crate) fn raise_stat(&mut self, stat: Stat) {
        let v = self.stat_mut(stat);
        if v.actual < MAX_STAT {
            v.actual += 1;
            v.current += 1;
        }
    }

    /// A text sheet, as `character show` prints it.
    pub fn sheet(&self) -> String {
        let mut out = format!(
            "{}{}\n",
            self.name,
            if self.monster { " (monster)" } else { "" }
        );
        if !self.concept.is_empty() {
            out.push_str(&format!("  {}\n", self.concept));
        }
        out.push_str("  Stat              Actual Current\n");
        for s in Stat::ALL {
            let v = self.stat(s);
            let nature = match s.nature() {
                crate::stats::Nature::Physical => "Physical",
                crate::stats::Nature::Mental => "Mental",
                crate::stats::Nature::Both => "Phys+Ment",
            };
            out.push_str(&format!(
                "  {:<11} {} {:>5} {:>7}  {:<9}{}{}\n",
                s.name(),
                s.abbreviation(),
                v.actual,
                v.current,
                nature,
                if v.injured { "  injured" } else { "" },
                if v.depleted() {
                    format!("  {}: {}", s.condition(), s.condition().effect())
                } else {
                    String::new()
                }
            ));
        }
        if self.skills.is_empty() {
            out.push_str("  Skills: none\n");
        } else {
            out.push_str("  Skills (tokens available / rating):\n");
            for k in &self.skills {
                out.push_str(&format!("    {} {}/{}", k.name, k.available, k.rating));
                if !k.notes.is_empty() {
                    out.push_str(&format!("  Notes: {}", k.notes));
                }
                out.push('\n');
            }
        }
        if !self.comparable.is_empty() {
            let pairs: Vec<String> = self
                .comparable
                .iter()
                .map(|(from, to)| format!("{to} for {from}"))
                .collect();
            out.push_str(&format!("  Comparable skills: {}\n", pairs.join(", ")));
        }
        match &self.cards {
            Some(cards) if cards.is_empty() => out.push_str("  Action cards: none\n"),
            Some(cards) => out.push_str(&format!("  Action cards: {}\n", cards.join(", "))),
            None => out.push_str("  Action cards: every card the table has\n"),
        }
        for e in &self.effects {
            match e.tokens {
                Some(t) => out.push_str(&format!("  Effect in play: {} ({t} tokens)\n", e.card)),
                None => out.push_str(&format!("  Effect in play: {}\n", e.card)),
            }
        }
        if self.experience > 0 {
            out.push_str(&format!("  Experience: {}\n", self.experience));
        }
        for (card, b) in &self.card_bonuses {
            out.push_str(&format!(
                "  Card bonus {card}: {} easier, +{} damage\n",
                b.easier, b.damage
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHEET: &str = include_str!("../../../../examples/sour-grapes/example-character.toml");

    /// Sour Grapes, "Stat Mechanics": the book's example stat sheet, with the
    /// Injured stat at Actual 4 and Current 2.
    #[test]
    fn book_example_sheet() {
        let c = Character::from_toml(SHEET).unwrap();
        assert_eq!(c.stat(Stat::Agility).actual, 5);
        assert_eq!(c.stat(Stat::Might).actual, 3);
        assert_eq!(c.stat(Stat::Perception).actual, 6);
        assert_eq!(c.stat(Stat::Vitality).actual, 6);
        let res = c.stat(Stat::Resolve);
        assert_eq!((res.actual, res.current, res.injured), (4, 2, true));
        assert!(c.recovery_blocked(Stat::Resolve).is_some());
        assert_eq!(c.skills().len(), 8);
        assert!(c.conditions().is_empty());
    }

    #[test]
    fn every_problem_is_listed() {
        let text = r#"
name = ""
[stats]
agility = 11
strength = 3
might = 3
luck = 2
perception = { actual = 4, current = 5 }
prestige = { actual = 2, current = 0 }
[[skills]]
name = "boxing"
rating = 6
[[skills]]
name = "Boxing"
rating = 2
"#;
        let err = match Character::from_toml(text) {
            Err(CharacterFileError::Draft(e)) => e,
            other => panic!("expected a draft error, got {other:?}"),
        };
        let p = &err.problems;
        assert!(p.iter().any(|p| matches!(p, Problem::Name(_))));
        assert!(p.contains(&Problem::ActualOutOfRange {
            stat: Stat::Agility,
            got: 11
        }));
        assert!(p.contains(&Problem::DuplicateStat(Stat::Might)));
        assert!(p.contains(&Problem::UnknownStat("luck".into())));
        assert!(p.contains(&Problem::MissingStat(Stat::Vitality)));
        assert!(p.iter().any(|x| matches!(
            x,
            Problem::CurrentOutOfRange {
                stat: Stat::Perception,
                ..
            }
        )));
        assert!(p.iter().any(|x| matches!(x, Problem::SkillRating { .. })));
        assert!(err.to_string().contains("stats.Vitality"));
    }

    #[test]
    fn draft_round_trip() {
        let c = Character::from_toml(SHEET).unwrap();
        let again = Character::from_draft(c.to_draft()).unwrap();
        assert_eq!(c, again);
    }
}

#[cfg(test)]
mod name_tests {
    use proptest::prelude::*;

    proptest! {
        /// Lookups by key agree with comparing the built keys.
        #[test]
        fn same_key_agrees_with_key(a in "[ _\\-AaBbİi]{0,8}", b in "[ _\\-AaBbİi]{0,8}") {
            prop_assert_eq!(
                crate::cards::same_key(&a, &b),
                crate::cards::key(&a) == crate::cards::key(&b)
            );
        }
    }
}
