//! Advancements and cycle changes, and why one is refused ("Advancement").

use super::*;
use crate::rules::{
    RULE_ADVANCEMENT, RULE_ELEMENTS, RULE_MAGIC, RULE_MAGIC_UNPAIRED, RULE_PROFESSIONS,
    RULE_QUALITIES, RULE_TALENTS,
};

/// An advancement chosen after a consequential session. "Advancement".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Advance {
    /// Learn a new Specialization within the Profession.
    ProfessionSpecialization {
        /// The Specialization.
        name: String,
    },
    /// Learn a new Specialization within a Side Profession.
    SideSpecialization {
        /// The Side Profession.
        profession: String,
        /// The Specialization.
        name: String,
    },
    /// Gain a new Side Profession.
    SideProfession {
        /// Two words or less.
        name: String,
    },
    /// Gain an additional Quality.
    Quality {
        /// The Quality.
        name: String,
    },
    /// Gain an additional Special Talent.
    SpecialTalent {
        /// The talent.
        talent: Talent,
    },
}

impl fmt::Display for Advance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Advance::ProfessionSpecialization { name } => {
                write!(f, "learns the Specialization {name} in their Profession")
            }
            Advance::SideSpecialization { profession, name } => {
                write!(f, "learns the Specialization {name} in {profession}")
            }
            Advance::SideProfession { name } => write!(f, "gains the Side Profession {name}"),
            Advance::Quality { name } => write!(f, "gains the Quality {name}"),
            Advance::SpecialTalent { talent } => {
                write!(f, "gains the Special Talent {}", talent.name)?;
                match talent.effect {
                    Some(e) => write!(f, " ({e})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl fmt::Display for CycleChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CycleChange::ProfessionWord { profession, to } => {
                write!(f, "changes a word of {profession}: now {to}")
            }
            CycleChange::Swap { side } => {
                write!(f, "swaps {side} with the Main Profession")
            }
            CycleChange::Quality { from, to } => write!(f, "changes the Quality {from} to {to}"),
        }
    }
}

impl Advance {
    /// Its kind on the sheet.
    pub fn kind(&self) -> AdvanceKind {
        match self {
            Advance::ProfessionSpecialization { .. } => AdvanceKind::ProfessionSpecialization,
            Advance::SideSpecialization { .. } => AdvanceKind::SideSpecialization,
            Advance::SideProfession { .. } => AdvanceKind::SideProfession,
            Advance::Quality { .. } => AdvanceKind::Quality,
            Advance::SpecialTalent { .. } => AdvanceKind::SpecialTalent,
        }
    }

    pub(crate) fn name(&self) -> &str {
        match self {
            Advance::ProfessionSpecialization { name }
            | Advance::SideSpecialization { name, .. }
            | Advance::SideProfession { name }
            | Advance::Quality { name } => name,
            Advance::SpecialTalent { talent } => &talent.name,
        }
    }
}

/// A change allowed on completing an advancement cycle. "Advancement".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CycleChange {
    /// Change a single word in one of their Professions.
    ProfessionWord {
        /// The Profession as it is now.
        profession: String,
        /// The Profession after the change (one word differs).
        to: String,
    },
    /// Swap a Side Profession with the Main Profession.
    Swap {
        /// The Side Profession that becomes Main.
        side: String,
    },
    /// Change a Quality to something else.
    Quality {
        /// The Quality now.
        from: String,
        /// The new Quality.
        to: String,
    },
}

/// Why an advancement or cycle change is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AdvanceError {
    /// The cycle rule: every type must be taken once before one repeats.
    #[error("{choice} was already taken in this advancement cycle; take every other type first [{rule}]", rule = RULE_ADVANCEMENT)]
    CycleRule {
        /// The repeated choice.
        choice: AdvanceChoice,
    },
    /// No completed cycle left to spend on a change.
    #[error("a change needs a completed advancement cycle not yet used [{rule}]", rule = RULE_ADVANCEMENT)]
    NoCycleCompleted,
    /// Too many advancements on one sheet (a table cap).
    #[error("at most {MAX_ELEMENTS} advancements [{rule}]", rule = RULE_ADVANCEMENT)]
    TooMany,
    /// Empty or too long a name.
    #[error("the new element needs a name of 1 to {MAX_TEXT} characters [{rule}]", rule = RULE_ELEMENTS)]
    Name,
    /// The name is already on the sheet.
    #[error("\"{name}\" is already on the sheet [{rule}]", rule = RULE_ELEMENTS)]
    Exists {
        /// The name.
        name: String,
    },
    /// A Profession is two words or less.
    #[error("\"{name}\": a Profession is two words or less [{rule}]", rule = RULE_PROFESSIONS)]
    Words {
        /// The name.
        name: String,
    },
    /// Only a single word of a Profession may change.
    #[error("change a single word of the Profession, keeping the others [{rule}]", rule = RULE_ADVANCEMENT)]
    OneWord,
    /// No such Side Profession.
    #[error("there is no Side Profession called \"{name}\" [{rule}]", rule = RULE_ADVANCEMENT)]
    NoSideProfession {
        /// The name.
        name: String,
    },
    /// No such Profession.
    #[error("there is no Profession called \"{name}\" [{rule}]", rule = RULE_ADVANCEMENT)]
    NoProfession {
        /// The name.
        name: String,
    },
    /// No such Quality.
    #[error("there is no Quality called \"{name}\" [{rule}]", rule = RULE_ADVANCEMENT)]
    NoQuality {
        /// The name.
        name: String,
    },
    /// "Lucky" and "Competent" may not be Qualities. "Qualities"; R-SA-10.
    #[error("\"{name}\" is so generic it could apply to anything and may not be a Quality [{rule}]", rule = RULE_QUALITIES)]
    TooGeneric {
        /// The Quality.
        name: String,
    },
    /// A magical or divine Special Talent needs a Quality of that kind on the
    /// sheet first (R-SA-10).
    #[error("the Special Talent \"{talent}\" grants magical or divine abilities, which also need a specific Quality (e.g. \"Magically Trained\") on the sheet [{rule}]", rule = RULE_MAGIC)]
    MagicNeedsQuality {
        /// The talent.
        talent: String,
    },
    /// A magical or divine Quality needs a Special Talent that grants the
    /// abilities on the sheet first (R-SA-10).
    #[error("the Quality \"{quality}\" is for magical or divine abilities, which also need a Special Talent that grants them (e.g. \"Spellcaster\") on the sheet [{rule}]", rule = RULE_MAGIC)]
    QualityNeedsMagic {
        /// The Quality.
        quality: String,
    },
    /// A magic half gained alone waits for its pair already: one half comes
    /// alone at a time. R-SA-12.
    #[error("\"{waiting}\" waits for its pair already (marked unpaired): the next magic Quality or Special Talent must complete it [{rule}]", rule = RULE_MAGIC_UNPAIRED)]
    UnpairedWaiting {
        /// The half that waits.
        waiting: String,
    },
    /// A talent effect out of range.
    #[error("special talent effect: {problem} [{rule}]", rule = RULE_TALENTS)]
    Effect {
        /// What is wrong.
        problem: String,
    },
}

impl AdvanceError {
    /// The rule the refusal cites.
    pub fn rule(&self) -> Rule {
        match self {
            AdvanceError::CycleRule { .. }
            | AdvanceError::NoCycleCompleted
            | AdvanceError::TooMany
            | AdvanceError::OneWord
            | AdvanceError::NoSideProfession { .. }
            | AdvanceError::NoProfession { .. }
            | AdvanceError::NoQuality { .. } => RULE_ADVANCEMENT,
            AdvanceError::Name | AdvanceError::Exists { .. } => RULE_ELEMENTS,
            AdvanceError::Words { .. } => RULE_PROFESSIONS,
            AdvanceError::TooGeneric { .. } => RULE_QUALITIES,
            AdvanceError::MagicNeedsQuality { .. } | AdvanceError::QualityNeedsMagic { .. } => {
                RULE_MAGIC
            }
            AdvanceError::UnpairedWaiting { .. } => RULE_MAGIC_UNPAIRED,
            AdvanceError::Effect { .. } => RULE_TALENTS,
        }
    }
}
