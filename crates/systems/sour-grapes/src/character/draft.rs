//! The sheet as written in TOML: [`CharacterDraft`] with public fields, before
//! [`Character::from_draft`] checks it.

use super::*;

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

pub(super) fn is_zero(n: &i64) -> bool {
    *n == 0
}

pub(super) fn is_false(b: &bool) -> bool {
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
