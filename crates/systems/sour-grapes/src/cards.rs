//! Action cards as data: fields A-F, the five action types and effects.
//!
//! Sour Grapes, "Cards", "Card Mechanics", "Stunt", "Interrupt", "Compliment",
//! "Divert", "Reactions", "Effects" (000_05a1db5b88f54528.txt); R-SG-2, R-SG-5,
//! R-SG-6, R-SG-9.
//!
//! A table reads its cards from TOML (`[[card]]`, see `data/book-cards.toml`):
//! the book's seven ([`book_cards`]) plus any the table adds.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::stats::Stat;

/// The most cards one table may define.
pub const MAX_CARDS: usize = 200;
/// The largest printed value (field A).
pub const MAX_VALUE: u32 = 100;
/// The most tokens an effect may hold.
pub const MAX_EFFECT_TOKENS: u32 = 100;

/// The type of an action (field E), plus Effect cards.
///
/// Sour Grapes, "Event": "There are 5 Action Cards (Stunt, Interrupt, Compliment,
/// Divert, React)"; "Effects".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardType {
    /// The action being performed by the Controller.
    Stunt,
    /// Halts the stunt.
    Interrupt,
    /// Modifies the stunt.
    Compliment,
    /// Redirects the stunt towards another target.
    Divert,
    /// A target reacting to the stunt.
    Reaction,
    /// A card continuously in play.
    Effect,
}

impl fmt::Display for CardType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CardType::Stunt => "Stunt",
            CardType::Interrupt => "Interrupt",
            CardType::Compliment => "Compliment",
            CardType::Divert => "Divert",
            CardType::Reaction => "Reaction",
            CardType::Effect => "Effect",
        })
    }
}

/// How a `*` value (field A) is determined, read from the card's notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StarRule {
    /// Shove: the Divert must beat the attacker's Current Agility (R-SG-6).
    AttackerAgility,
    /// Dodge: the Reaction must beat the Stunt's success count (R-SG-5).
    BeatStunt,
    /// The card is never rolled for success (Intoxicated): the notes say what it does.
    Notes,
}

/// Field A: the value needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardValue {
    /// At least this many successes (R-SG-2).
    Needs(u32),
    /// `*`: see the rule.
    Star(StarRule),
}

impl fmt::Display for CardValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardValue::Needs(n) => write!(f, "{n}"),
            CardValue::Star(_) => f.write_str("*"),
        }
    }
}

/// What a card does when it succeeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Deal damage equal to the Result roll to the Target stat of each receiver (Attack).
    Damage,
    /// Deal fixed damage to a stat of the one whose action is halted (Sand Strike).
    FixedDamage {
        /// Points of damage.
        points: u32,
        /// The stat damaged.
        stat: Stat,
    },
    /// A Compliment whose Result roll is additional damage to its Target stat (Flame Weapon).
    ExtraDamage,
    /// A negative Compliment: its Result roll is taken off the Stunt's damage
    /// ("Used to modify the Stunt in a positive or negative way").
    LessDamage,
    /// A Divert: the stunt goes to a new target (Shove).
    Redirect,
    /// A Reaction that gets out of the way (Dodge).
    Evade,
    /// A Stunt that puts the card into play as an Effect on its player (Trained Breathing).
    ApplyEffect,
    /// Nothing beyond the effect's own rule (Intoxicated).
    None,
}

/// How an effect stays in play, checked at the start of its holder's turn (step 1).
///
/// Sour Grapes, "Turn Mechanics" (Prep) and "Effects"; R-SG-9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Keep {
    /// May simply be discarded at the start of the turn.
    Discard,
    /// Roll the card's Success against its value to keep it, or discard (R-SG-9).
    Roll,
    /// Holds tokens; one is removed at the start of each turn; at none it is discarded.
    Countdown,
    /// Cannot be discarded "until a specific action has occurred": it leaves by
    /// its own round countdown or when the storyteller removes it (`cure`).
    Stays,
}

/// The rule an effect changes while in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EffectRule {
    /// Nothing Tabula enforces (the table reads the notes).
    None,
    /// Each 1 rolled on `roll` may exhaust `exhaust` instead (Trained Breathing).
    OnesExhaustInstead {
        /// The stat whose rolls are covered.
        roll: Stat,
        /// The stat exhausted instead.
        exhaust: Stat,
    },
    /// Skill tokens and points of `stat` may not be used in the same roll (Intoxicated).
    NoTokensWith {
        /// The stat.
        stat: Stat,
    },
}

/// An effect's data on its card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectSpec {
    /// How it stays in play.
    pub keep: Keep,
    /// Tokens placed on it (countdown effects).
    #[serde(default)]
    pub tokens: u32,
    /// The rule it changes.
    #[serde(default = "no_rule")]
    pub rule: EffectRule,
    /// What it does when a "New Round" is announced ("some Actions, Effects and
    /// Cards take effect in the beginning of a Round").
    #[serde(default)]
    pub round_start: Option<RoundStart>,
}

/// What an effect does at the beginning of each Round.
///
/// Sour Grapes, "Event" (Rounds). None of the book's seven cards has one; a
/// table's own cards may (e.g. a bleeding wound).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundStart {
    /// Damage dealt to the holder's `stat` (0 for none), R-SG-10.
    #[serde(default)]
    pub damage: u32,
    /// The stat damaged.
    pub stat: Option<Stat>,
    /// Remove one of the effect's tokens; at none it is discarded.
    #[serde(default)]
    pub countdown: bool,
}

fn no_rule() -> EffectRule {
    EffectRule::None
}

/// An action card: fields A-F and how Tabula applies it.
///
/// Sour Grapes, "Cards" (000_05a1db5b88f54528.txt); R-SG-2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCard {
    /// A: the value needed.
    pub value: CardValue,
    /// The card's name.
    pub name: String,
    /// The flavour line.
    pub flavour: String,
    /// B: the stat rolled for success (`None` for N/A).
    pub success: Option<Stat>,
    /// C: the stat rolled for the Result (`None` for N/A).
    pub result: Option<Stat>,
    /// D: the stat the Result lands on (`None` for N/A).
    pub target: Option<Stat>,
    /// E: the type.
    pub kind: CardType,
    /// F: the skill usable as free tokens for any roll of the card.
    pub skill: Option<String>,
    /// The notes.
    pub notes: String,
    /// What it does when it succeeds.
    pub outcome: Outcome,
    /// Its effect data, for cards that stay in play.
    pub effect: Option<EffectSpec>,
    /// The most targets a Stunt may declare (Attack: "to one Target"); `None`
    /// for no limit.
    pub max_targets: Option<u32>,
}

/// A card as written in TOML, not necessarily legal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDraft {
    /// A: a number or `*`.
    pub value: String,
    /// The name.
    pub name: String,
    /// The flavour line.
    #[serde(default)]
    pub flavour: String,
    /// B: a stat or `N/A`.
    #[serde(default)]
    pub success: String,
    /// C: a stat or `N/A`.
    #[serde(default)]
    pub result: String,
    /// D: a stat or `N/A`.
    #[serde(default)]
    pub target: String,
    /// E: the type.
    #[serde(rename = "type")]
    pub kind: CardType,
    /// F: the skill, empty for none.
    #[serde(default)]
    pub skill: String,
    /// Notes.
    #[serde(default)]
    pub notes: String,
    /// For a `*` value: how it is determined.
    pub star: Option<StarRule>,
    /// What it does when it succeeds.
    pub outcome: Outcome,
    /// Effect data.
    pub effect: Option<EffectSpec>,
    /// The most targets (Attack: 1).
    pub max_targets: Option<u32>,
}

/// One broken rule in a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[non_exhaustive]
pub enum CardProblem {
    /// The name is empty, too long, or holds a control character.
    #[error("card {0}: {1}")]
    Name(usize, tabula_core::names::NameError),
    /// Field A is neither a number 0..=100 nor `*`.
    #[error("{0}: value (A) must be a number 0 to {MAX_VALUE} or \"*\", not {1:?}")]
    Value(String, String),
    /// `*` without a `star` rule, or `star` on a numbered card.
    #[error(
        "{0}: a \"*\" value needs `star` (attacker-agility, beat-stunt, notes) and a number must not have one"
    )]
    Star(String),
    /// A stat field that is neither a stat nor N/A.
    #[error("{card}: {field} must be a stat or N/A, not {got:?}")]
    Stat {
        /// The card.
        card: String,
        /// `success`, `result` or `target`.
        field: &'static str,
        /// The text given.
        got: String,
    },
    /// A card that must be rolled has no Success stat.
    #[error("{0}: a {1} needs a Success stat (B)")]
    NoSuccess(String, CardType),
    /// Damage or extra-damage without Result and Target stats.
    #[error("{0}: a damage card needs Result (C) and Target (D) stats")]
    DamageStats(String),
    /// An outcome that does not fit the card type.
    #[error("{0}: outcome {1} does not fit a {2}")]
    OutcomeType(String, String, CardType),
    /// An effect card or apply-effect stunt without effect data, or too many tokens.
    #[error(
        "{0}: needs `effect` data (keep, tokens 0 to {MAX_EFFECT_TOKENS}, rule; round_start damage 0 to {MAX_VALUE} with a stat)"
    )]
    Effect(String),
    /// `max_targets` of 0: the Stunt could never be targeted.
    #[error("{0}: max_targets must be 1 or more (or left out for no limit)")]
    MaxTargets(String),
    /// Two cards with the same name.
    #[error("{0}: two cards have this name")]
    Duplicate(String),
    /// Too many cards.
    #[error("a table may define at most {MAX_CARDS} cards, not {0}")]
    TooMany(usize),
}

fn stat_field(
    text: &str,
    card: &str,
    field: &'static str,
    problems: &mut Vec<CardProblem>,
) -> Option<Stat> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("n/a") {
        return None;
    }
    let s = Stat::parse(t);
    if s.is_none() {
        problems.push(CardProblem::Stat {
            card: card.to_string(),
            field,
            got: t.to_string(),
        });
    }
    s
}

impl ActionCard {
    /// Validate a card draft.
    ///
    /// # Errors
    /// Every broken rule of the card.
    pub fn from_draft(d: CardDraft, index: usize) -> Result<ActionCard, Vec<CardProblem>> {
        let mut problems = Vec::new();
        let name = d.name.trim().to_string();
        if let Err(e) = tabula_core::names::check_name("name", &d.name) {
            problems.push(CardProblem::Name(index, e));
        }
        let value = match (d.value.trim(), d.star) {
            ("*", Some(rule)) => Some(CardValue::Star(rule)),
            ("*", None) => {
                problems.push(CardProblem::Star(name.clone()));
                None
            }
            (v, star) => match v.parse::<u32>() {
                Ok(n) if n <= MAX_VALUE && star.is_none() => Some(CardValue::Needs(n)),
                Ok(n) if n <= MAX_VALUE => {
                    problems.push(CardProblem::Star(name.clone()));
                    None
                }
                _ => {
                    problems.push(CardProblem::Value(name.clone(), v.to_string()));
                    None
                }
            },
        };
        let success = stat_field(&d.success, &name, "success", &mut problems);
        let result = stat_field(&d.result, &name, "result", &mut problems);
        let target = stat_field(&d.target, &name, "target", &mut problems);
        let blank = d.success.trim().is_empty() || d.success.trim().eq_ignore_ascii_case("n/a");
        if d.kind != CardType::Effect && blank {
            problems.push(CardProblem::NoSuccess(name.clone(), d.kind));
        }
        let fits = match d.outcome {
            Outcome::Damage => d.kind == CardType::Stunt,
            Outcome::FixedDamage { .. } => d.kind == CardType::Interrupt,
            Outcome::ExtraDamage | Outcome::LessDamage => d.kind == CardType::Compliment,
            Outcome::Redirect => d.kind == CardType::Divert,
            Outcome::Evade => d.kind == CardType::Reaction,
            Outcome::ApplyEffect => d.kind == CardType::Stunt,
            Outcome::None => true,
        };
        if !fits {
            problems.push(CardProblem::OutcomeType(
                name.clone(),
                format!("{:?}", d.outcome),
                d.kind,
            ));
        }
        if matches!(d.outcome, Outcome::Damage | Outcome::ExtraDamage)
            && (result.is_none() || target.is_none())
            || d.outcome == Outcome::LessDamage && result.is_none()
        {
            problems.push(CardProblem::DamageStats(name.clone()));
        }
        let needs_effect = d.kind == CardType::Effect || d.outcome == Outcome::ApplyEffect;
        let effect_ok = match d.effect {
            Some(e) => {
                e.tokens <= MAX_EFFECT_TOKENS
                    && e.round_start.is_none_or(|r| {
                        r.damage <= MAX_VALUE && (r.damage == 0 || r.stat.is_some())
                    })
            }
            None => !needs_effect,
        };
        if !effect_ok {
            problems.push(CardProblem::Effect(name.clone()));
        }
        if d.max_targets == Some(0) {
            problems.push(CardProblem::MaxTargets(name.clone()));
        }
        match value {
            Some(value) if problems.is_empty() => Ok(ActionCard {
                value,
                name,
                flavour: d.flavour,
                success,
                result,
                target,
                kind: d.kind,
                skill: Some(d.skill.trim().to_string()).filter(|s| !s.is_empty()),
                notes: d.notes,
                outcome: d.outcome,
                effect: d.effect,
                max_targets: d.max_targets,
            }),
            _ => Err(problems),
        }
    }

    /// The card as a table file writes it (`[[card]]`): reads back, through
    /// [`ActionCard::from_draft`], as this card. A sheet carries a table's own
    /// effect card this way (Sour Grapes, "Effects"; see
    /// `crate::advance::lasting`).
    pub fn to_draft(&self) -> CardDraft {
        let na = |s: Option<Stat>| s.map_or("N/A".to_string(), |s| s.name().to_string());
        let (value, star) = match self.value {
            CardValue::Needs(n) => (n.to_string(), None),
            CardValue::Star(rule) => ("*".to_string(), Some(rule)),
        };
        CardDraft {
            value,
            name: self.name.clone(),
            flavour: self.flavour.clone(),
            success: na(self.success),
            result: na(self.result),
            target: na(self.target),
            kind: self.kind,
            skill: self.skill.clone().unwrap_or_default(),
            notes: self.notes.clone(),
            star,
            outcome: self.outcome,
            effect: self.effect,
            max_targets: self.max_targets,
        }
    }

    /// An effect card known by its name only: it stays in play until cured
    /// ("until a specific action has occurred") and changes no rule. What a
    /// table (or a table of one, between sessions) puts in play for an effect
    /// on a sheet that neither the table nor the sheet defines (a sheet written
    /// before sheets carried their effects' cards). Sour Grapes, "Effects".
    pub fn named_effect(name: &str) -> ActionCard {
        ActionCard {
            value: CardValue::Star(StarRule::Notes),
            name: name.trim().to_string(),
            flavour: String::new(),
            success: None,
            result: None,
            target: None,
            kind: CardType::Effect,
            skill: None,
            notes: "a table's own effect, known by its name only: it stays until cured".into(),
            outcome: Outcome::None,
            effect: Some(EffectSpec {
                keep: Keep::Stays,
                tokens: 0,
                rule: EffectRule::None,
                round_start: None,
            }),
            max_targets: None,
        }
    }

    /// True for a Physical action: it uses a Physical stat in its Success or
    /// Result (Perception is both). Sour Grapes, "Stats"; R-SG-12.
    pub fn is_physical(&self) -> bool {
        [self.success, self.result]
            .into_iter()
            .flatten()
            .any(Stat::is_physical)
    }

    /// True for a Mental action: it uses a Mental stat in its Success or Result
    /// (Perception is both). Sour Grapes, "Stats"; R-SG-12.
    pub fn is_mental(&self) -> bool {
        [self.success, self.result]
            .into_iter()
            .flatten()
            .any(Stat::is_mental)
    }

    /// The card as the book prints it (fields A-F and notes), one block of text.
    pub fn printed(&self) -> String {
        let na = |s: Option<Stat>| s.map_or("N/A".to_string(), |s| s.name().to_string());
        format!(
            "[{}] {} ({}) - {}\n    Success {} | Result {} | Target {} | Skill: {}\n    Notes: {}",
            self.value,
            self.name,
            self.kind,
            self.flavour,
            na(self.success),
            na(self.result),
            na(self.target),
            self.skill.as_deref().unwrap_or("none"),
            self.notes
        )
    }
}

#[derive(Deserialize)]
struct CardFile {
    #[serde(default)]
    card: Vec<CardDraft>,
}

/// Read `[[card]]` entries from TOML.
///
/// # Errors
/// Malformed TOML, or every broken card rule (as text lines).
pub fn cards_from_toml(text: &str) -> Result<Vec<ActionCard>, Vec<String>> {
    let file: CardFile = toml::from_str(text).map_err(|e| vec![e.to_string()])?;
    validate_cards(file.card)
}

/// Validate a list of card drafts.
///
/// # Errors
/// Every broken rule, as text lines naming the card and field.
pub fn validate_cards(drafts: Vec<CardDraft>) -> Result<Vec<ActionCard>, Vec<String>> {
    if drafts.len() > MAX_CARDS {
        return Err(vec![CardProblem::TooMany(drafts.len()).to_string()]);
    }
    let mut cards: Vec<ActionCard> = Vec::new();
    let mut errors = Vec::new();
    for (i, d) in drafts.into_iter().enumerate() {
        match ActionCard::from_draft(d, i) {
            Ok(c) => {
                if cards.iter().any(|k| key(&k.name) == key(&c.name)) {
                    errors.push(CardProblem::Duplicate(c.name).to_string());
                } else {
                    cards.push(c);
                }
            }
            Err(ps) => errors.extend(ps.into_iter().map(|p| p.to_string())),
        }
    }
    if errors.is_empty() {
        Ok(cards)
    } else {
        Err(errors)
    }
}

/// The book's seven cards: Attack, Sand Strike, Flame Weapon, Shove, Dodge,
/// Trained Breathing, Intoxicated.
pub fn book_cards() -> Vec<ActionCard> {
    cards_from_toml(include_str!("../data/book-cards.toml")).unwrap_or_default()
}

/// A name as a lookup key: lower case, spaces, `-` and `_` removed
/// (`sand-strike`, `Sand Strike` and `sandstrike` are one card).
pub fn key(name: &str) -> String {
    key_chars(name).collect()
}

/// The characters of [`key`]`(name)`, without building it.
fn key_chars(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
}

/// True when `a` and `b` have the same [`key`]: one card. Builds no string
/// (lookups run on every step of a simulation).
pub fn same_key(a: &str, b: &str) -> bool {
    a == b || key_chars(a).eq(key_chars(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seven_book_cards() {
        let cards = book_cards();
        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Attack",
                "Sand Strike",
                "Flame Weapon",
                "Shove",
                "Dodge",
                "Trained Breathing",
                "Intoxicated"
            ]
        );
        let attack = &cards[0];
        assert_eq!(attack.value, CardValue::Needs(1));
        assert_eq!(
            attack.result,
            Some(Stat::Might),
            "Strength is Might (R-SG-3)"
        );
        assert_eq!(cards[3].value, CardValue::Star(StarRule::AttackerAgility));
        assert_eq!(cards[6].effect.map(|e| e.tokens), Some(4));
    }

    #[test]
    fn broken_card_lists_problems() {
        let text = r#"
[[card]]
value = "x"
name = "Bad"
success = "Luck"
type = "stunt"
outcome = "evade"
"#;
        let errs = cards_from_toml(text).unwrap_err();
        assert!(errs.iter().any(|e| e.contains("value (A)")));
        assert!(errs.iter().any(|e| e.contains("success must be a stat")));
        assert!(errs.iter().any(|e| e.contains("does not fit")));
    }
}
