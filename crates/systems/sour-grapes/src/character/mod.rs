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

mod draft;
mod problem;
#[cfg(test)]
mod tests;

pub use draft::{CharacterDraft, EffectEntry, SkillDraft, StatEntry};
use problem::*;
pub use problem::{CharacterFileError, DraftError, Problem};

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
        self.recovery_block(stat).map(|(_, why)| why)
    }

    /// [`Character::recovery_blocked`] with the condition that blocks, in the
    /// book's words, for a [`tabula_core::Refusal::Condition`]: `(condition,
    /// message)`, the condition `injured <Stat>`, `Dying`, `Crippled` or
    /// `Feeble`. Sour Grapes, "Stat Mechanics" and "Stats".
    pub fn recovery_block(&self, stat: Stat) -> Option<(String, String)> {
        let v = self.stat(stat);
        if v.injured {
            return Some((
                format!("injured {stat}"),
                format!("{stat} is injured and does not recover until healed"),
            ));
        }
        let blocking = [
            (Condition::Dying, true, "Dying: stats do not recover"),
            (
                Condition::Crippled,
                stat.is_physical(),
                "Crippled: Physical stats do not recover",
            ),
            (
                Condition::Feeble,
                stat.is_mental(),
                "Feeble: Mental stats do not recover",
            ),
        ];
        blocking
            .into_iter()
            .find(|(c, applies, _)| *applies && self.has(*c))
            .map(|(c, _, why)| (c.to_string(), why.to_string()))
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
