//! What a draft can break ([`Problem`], with its rule and field) and the checks
//! of cards, effects and comparables.

use super::*;

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
pub(super) fn check_cards(draft: &CharacterDraft, problems: &mut Vec<Problem>) {
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
pub(super) fn check_effects(draft: &CharacterDraft, problems: &mut Vec<Problem>) {
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
pub(super) fn check_comparables(
    draft: &CharacterDraft,
    skills: &[Skill],
    problems: &mut Vec<Problem>,
) {
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
