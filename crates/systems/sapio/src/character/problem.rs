//! What a draft breaks ([`DraftProblem`], [`DraftError`]).

use super::*;
use crate::rules::{
    RULE_ADVANCEMENT, RULE_ELEMENTS, RULE_LUCK, RULE_MAGIC, RULE_MAGIC_UNPAIRED, RULE_PROFESSIONS,
    RULE_QUALITIES, RULE_SHEET, RULE_STARTING, RULE_TALENTS,
};

/// One broken rule in a character draft.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum DraftProblem {
    /// `name` is empty.
    #[error("name: a character needs a name")]
    NoName,
    /// `name` or `player` is not a name a table can show (control characters,
    /// too long, a ':' in a seat name).
    #[error("{problem}")]
    Name {
        /// What is wrong, naming the field.
        problem: NameError,
    },
    /// `player` names the GM's seat; a GM character leaves `player` out.
    #[error(
        "player: \"{player}\" is the GM's seat; leave `player` out for a character the GM plays"
    )]
    PlayerIsGm {
        /// The player given.
        player: String,
    },
    /// A text holds a control character.
    #[error("{field}: control characters are not allowed (found U+{code:04X})")]
    ControlCharacter {
        /// The field.
        field: String,
        /// The first control character, as its code point.
        code: u32,
    },
    /// A Quality the book forbids: "'Lucky' and 'Competent' are so generic that
    /// they could apply to anything, and therefore should not be used." R-SA-10.
    #[error("{field}: \"{quality}\" is so generic it could apply to anything and may not be a Quality [{rule}]", rule = RULE_QUALITIES)]
    TooGeneric {
        /// `qualities[i]`.
        field: String,
        /// The Quality.
        quality: String,
    },
    /// A Special Talent grants magical or divine abilities but no Quality of that
    /// kind is on the sheet. R-SA-10.
    #[error("{field}: the Special Talent \"{talent}\" grants magical or divine abilities, which also need a specific Quality (e.g. \"Magically Trained\", \"Magical\", \"Annointed\") [{rule}]", rule = RULE_MAGIC)]
    MagicWithoutQuality {
        /// `special_talents[i]`.
        field: String,
        /// The talent.
        talent: String,
    },
    /// A magical or divine Quality without a Special Talent that grants the
    /// abilities. R-SA-10.
    #[error("{field}: the Quality \"{quality}\" is for magical or divine abilities, which also need a Special Talent that grants them (e.g. \"Spellcaster\") [{rule}]", rule = RULE_MAGIC)]
    MagicQualityWithoutTalent {
        /// `qualities[i]`.
        field: String,
        /// The Quality.
        quality: String,
    },
    /// `unpaired` names no magic Quality or magic Special Talent of this
    /// sheet. R-SA-12.
    #[error("unpaired: \"{name}\" is no magic Quality or Special Talent on this sheet [{rule}]", rule = RULE_MAGIC_UNPAIRED)]
    UnpairedMark {
        /// The name given.
        name: String,
    },
    /// A text field is longer than [`MAX_TEXT`] characters.
    #[error("{field}: at most {MAX_TEXT} characters")]
    TooLong {
        /// The field.
        field: String,
    },
    /// A list holds more than [`MAX_ELEMENTS`] entries.
    #[error("{field}: at most {MAX_ELEMENTS} entries")]
    TooMany {
        /// The field.
        field: String,
    },
    /// A Profession is not one or two words. "Professions and Specializations".
    #[error("{field}: a Profession is two words or less, not {words} (\"{name}\") [{rule}]", rule = RULE_PROFESSIONS)]
    ProfessionWords {
        /// `profession.name` or `side_professions[i].name`.
        field: String,
        /// The name.
        name: String,
        /// Its number of words.
        words: usize,
    },
    /// An element name is empty.
    #[error("{field}: empty name [{rule}]", rule = RULE_ELEMENTS)]
    EmptyElement {
        /// The field.
        field: String,
    },
    /// Two elements share a name, so invoking one by name would be ambiguous.
    #[error("{field}: \"{name}\" is used twice; element names must differ [{rule}]", rule = RULE_ELEMENTS)]
    Duplicate {
        /// The field.
        field: String,
        /// The repeated name.
        name: String,
    },
    /// A required element is missing.
    #[error("{field}: a character needs {what} [{rule}]", rule = RULE_ELEMENTS)]
    Missing {
        /// The field.
        field: String,
        /// What is needed.
        what: String,
    },
    /// The count of an element does not match the starting build plus the
    /// advancements taken. "Building a Starting Character"; "Advancement".
    #[error("{field}: the starting build plus the advancements taken give {expected}, the sheet has {got} [{rule}]", rule = RULE_STARTING)]
    BuildCount {
        /// The field.
        field: String,
        /// What the starting build plus advancements give.
        expected: usize,
        /// What the sheet has.
        got: usize,
    },
    /// An advancement repeats a choice before the cycle is complete. "Advancement".
    #[error("advancements[{index}]: {choice} again before every type of advancement was taken once (the cycle rule) [{rule}]", rule = RULE_ADVANCEMENT)]
    CycleRule {
        /// Its index in `advancements`.
        index: usize,
        /// The repeated choice.
        choice: AdvanceChoice,
    },
    /// More cycle changes than completed cycles. "Advancement".
    #[error("cycle_changes: {changes} change(s) but only {completed} completed advancement cycle(s) [{rule}]", rule = RULE_ADVANCEMENT)]
    CycleChanges {
        /// Changes listed.
        changes: usize,
        /// Cycles completed.
        completed: u32,
    },
    /// Luck above the table cap.
    #[error("luck: at most {MAX_LUCK}, not {got} [{rule}]", rule = RULE_LUCK)]
    Luck {
        /// The Luck given.
        got: u32,
    },
    /// A Special Talent's effect is out of range.
    #[error("special_talents[{index}].effect: {problem} [{rule}]", rule = RULE_TALENTS)]
    TalentEffect {
        /// The talent's index.
        index: usize,
        /// What is wrong.
        problem: String,
    },
}

impl DraftProblem {
    /// The rule the problem breaks: the book's section (with its ruling), or
    /// [`RULE_SHEET`] for Tabula's own limits on a sheet.
    pub fn rule(&self) -> Rule {
        match self {
            DraftProblem::NoName
            | DraftProblem::Name { .. }
            | DraftProblem::PlayerIsGm { .. }
            | DraftProblem::ControlCharacter { .. }
            | DraftProblem::TooLong { .. }
            | DraftProblem::TooMany { .. } => RULE_SHEET,
            DraftProblem::TooGeneric { .. } => RULE_QUALITIES,
            DraftProblem::MagicWithoutQuality { .. }
            | DraftProblem::MagicQualityWithoutTalent { .. } => RULE_MAGIC,
            DraftProblem::UnpairedMark { .. } => RULE_MAGIC_UNPAIRED,
            DraftProblem::ProfessionWords { .. } => RULE_PROFESSIONS,
            DraftProblem::EmptyElement { .. }
            | DraftProblem::Duplicate { .. }
            | DraftProblem::Missing { .. } => RULE_ELEMENTS,
            DraftProblem::BuildCount { .. } => RULE_STARTING,
            DraftProblem::CycleRule { .. } | DraftProblem::CycleChanges { .. } => RULE_ADVANCEMENT,
            DraftProblem::Luck { .. } => RULE_LUCK,
            DraftProblem::TalentEffect { .. } => RULE_TALENTS,
        }
    }
}

/// A draft that is not a legal character: the draft back, and every broken rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} broken rule(s): {}", .problems.len(), .problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
pub struct DraftError {
    /// The draft as given.
    pub draft: Box<CharacterDraft>,
    /// Every broken rule.
    pub problems: Vec<DraftProblem>,
}
