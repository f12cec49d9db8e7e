//! The sheet as written in a file: Professions, Special Talents and their
//! effects, weapons, advancement history ("Characters in Sapio").

use super::*;

/// A Profession as written in a file: its name and its Specializations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfessionDraft {
    /// Two words or less, e.g. "Roof Runner".
    pub name: String,
    /// Skills within the Profession, e.g. "Leaping".
    #[serde(default)]
    pub specializations: Vec<String>,
}

/// How a Special Talent changes a roll, when it does. "Special Talents".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum TalentEffect {
    /// Bonus dice in its situation (One with the Forest: 1).
    BonusDice {
        /// 1 to 3.
        dice: u32,
    },
    /// The TN is never more than this (Hide in Plain Sight: 4).
    TnCap {
        /// 0 to 5.
        max: u32,
    },
    /// The TN is reduced by this much.
    TnReduction {
        /// 1 to 3.
        by: u32,
    },
    /// Extra Hits if the check succeeds (Deadly Aim: 1).
    ExtraHits {
        /// 1 to 3.
        hits: u32,
    },
    /// Automatic Spares (Lucky in Love: 2).
    ExtraSpares {
        /// 1 to 3.
        spares: u32,
    },
    /// Automatic Spirals.
    ExtraSpirals {
        /// 1 to 3.
        spirals: u32,
    },
    /// Ignore the TN increase from a single Injury (Usually Bloody).
    IgnoreInjury,
}

impl fmt::Display for TalentEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TalentEffect::BonusDice { dice } => write!(f, "+{dice} bonus dice in its situation"),
            TalentEffect::TnCap { max } => write!(f, "the TN is never more than {max}"),
            TalentEffect::TnReduction { by } => write!(f, "the TN is reduced by {by}"),
            TalentEffect::ExtraHits { hits } => write!(f, "+{hits} Hits on a success"),
            TalentEffect::ExtraSpares { spares } => write!(f, "+{spares} Spares"),
            TalentEffect::ExtraSpirals { spirals } => write!(f, "+{spirals} Spirals"),
            TalentEffect::IgnoreInjury => {
                f.write_str("ignores the TN increase from a single Injury")
            }
        }
    }
}

/// A Special Talent: its name, its text, and how it changes a roll (if it does).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Talent {
    /// The name, e.g. "Hide in Plain Sight".
    pub name: String,
    /// What it does, in words.
    #[serde(default)]
    pub text: String,
    /// How it changes a roll when the player calls it out for a check.
    #[serde(default)]
    pub effect: Option<TalentEffect>,
    /// Whether it grants magical or divine abilities (R-SA-10). Left out, the name
    /// and text decide: a word starting with "magic" or "divine", or "spell(s)",
    /// "spellcaster", "spellcasting" (see [`Talent::grants_magic`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magic: Option<bool>,
}

/// The lowercase words of a text (letters and digits).
pub(super) fn lower_words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

impl Talent {
    /// True when the talent grants magical or divine abilities: its `magic` field,
    /// or else its name or text speaks of magic, the divine or spells. R-SA-10;
    /// "Special Talents" ("Spellcaster - This character can cast magical spells").
    pub fn grants_magic(&self) -> bool {
        self.magic.unwrap_or_else(|| {
            let magical = |w: String| {
                w.starts_with("magic")
                    || w.starts_with("divine")
                    || w == "spell"
                    || w == "spells"
                    || w.starts_with("spellcast")
            };
            lower_words(&self.name).any(magical) || lower_words(&self.text).any(magical)
        })
    }
}

/// True when a Quality is of the kind magic needs: the book's starred Qualities
/// "Magically Trained", "Magical", "Annointed", or any Quality with a word starting
/// with "magic", "divine", "anoint" or "annoint". "Building a Starting Character"
/// (the starred example Qualities); R-SA-10.
pub fn is_magic_quality(quality: &str) -> bool {
    lower_words(quality).any(|w| {
        w.starts_with("magic")
            || w.starts_with("divine")
            || w.starts_with("anoint")
            || w.starts_with("annoint")
    })
}

/// True when a Quality is one the book forbids as too generic. "Qualities"; R-SA-10.
pub fn is_too_generic(quality: &str) -> bool {
    TOO_GENERIC_QUALITIES.iter().any(|g| same_name(g, quality))
}

/// The first control character of a text, if any (a terminal escape code in a
/// sheet would rewrite another player's screen).
pub(super) fn control_char(s: &str, allow_newlines: bool) -> Option<char> {
    s.chars()
        .find(|c| c.is_control() && !(allow_newlines && (*c == '\n' || *c == '\t')))
}

/// A weapon and its base injury level. "Weapons and causing Injury".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// The weapon, e.g. "Knife".
    pub name: String,
    /// Minor, Moderate or Severe.
    pub level: Level,
}

/// One advancement taken, as recorded on the sheet. "Advancement".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdvanceKind {
    /// A new Specialization within the (Main) Profession.
    ProfessionSpecialization,
    /// A new Specialization within a Side Profession.
    SideSpecialization,
    /// A new Side Profession (counts as the same choice as a Side Specialization).
    SideProfession,
    /// An additional Quality.
    Quality,
    /// An additional Special Talent.
    SpecialTalent,
}

/// The four choices of the advancement cycle: "The player must select all types of
/// advancement once before being able to select the same one again."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdvanceChoice {
    /// Learn a new Specialization within their Profession.
    Profession,
    /// A new Specialization within a Side Profession, or a new Side Profession.
    Side,
    /// Gain an additional Quality.
    Quality,
    /// Gain an additional Special Talent.
    SpecialTalent,
}

impl AdvanceKind {
    /// Which of the four choices this is.
    pub fn choice(self) -> AdvanceChoice {
        match self {
            AdvanceKind::ProfessionSpecialization => AdvanceChoice::Profession,
            AdvanceKind::SideSpecialization | AdvanceKind::SideProfession => AdvanceChoice::Side,
            AdvanceKind::Quality => AdvanceChoice::Quality,
            AdvanceKind::SpecialTalent => AdvanceChoice::SpecialTalent,
        }
    }
}

impl fmt::Display for AdvanceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AdvanceChoice::Profession => "a Specialization within the Profession",
            AdvanceChoice::Side => "a Side Specialization or Side Profession",
            AdvanceChoice::Quality => "a Quality",
            AdvanceChoice::SpecialTalent => "a Special Talent",
        })
    }
}

/// One of the three changes a completed advancement cycle allows. "Advancement".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CycleChangeKind {
    /// Change a single word in one of their Professions.
    ProfessionWord,
    /// Swap a Side Profession with the Main Profession (Specializations follow).
    Swap,
    /// Change a Quality to something else.
    Quality,
}

/// Where each advancement cycle stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleState {
    /// Cycles completed.
    pub completed: u32,
    /// The choices taken in the cycle under way.
    pub current: Vec<AdvanceChoice>,
}

/// Run the cycle rule over a history of advancements. Returns the cycle state, or
/// the index and choice of the first advancement that repeats a choice before the
/// cycle was complete.
pub fn cycles(history: &[AdvanceKind]) -> Result<CycleState, (usize, AdvanceChoice)> {
    let mut st = CycleState::default();
    for (i, k) in history.iter().enumerate() {
        let c = k.choice();
        if st.current.contains(&c) {
            return Err((i, c));
        }
        st.current.push(c);
        if st.current.len() == 4 {
            st.completed += 1;
            st.current.clear();
        }
    }
    Ok(st)
}

/// A character sheet as written in a TOML file: not necessarily legal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDraft {
    /// The character's name.
    pub name: String,
    /// The player (seat) who plays them; `None` for a GM character.
    #[serde(default)]
    pub player: Option<String>,
    /// The Main Profession and its Specializations.
    pub profession: ProfessionDraft,
    /// Side Professions and their Specializations.
    #[serde(default)]
    pub side_professions: Vec<ProfessionDraft>,
    /// Qualities.
    #[serde(default)]
    pub qualities: Vec<String>,
    /// Special Talents.
    #[serde(default)]
    pub special_talents: Vec<Talent>,
    /// The Principle: the character's better nature.
    #[serde(default)]
    pub principle: String,
    /// The Worst Impulse: the character's vice.
    #[serde(default)]
    pub worst_impulse: String,
    /// Luck held.
    #[serde(default)]
    pub luck: u32,
    /// Weapons with their base injury level.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Advancements taken, in order (empty for a starting character).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advancements: Vec<AdvanceKind>,
    /// Changes made on completing advancement cycles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycle_changes: Vec<CycleChangeKind>,
    /// The GM marked the last session consequential and the character has not
    /// taken its advancement yet ("After a consequential session, the player may
    /// choose from one of the following options"; R-SA-9: one at a time, not
    /// carried into the next session's play). "Advancement".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub advancement_due: bool,
    /// Injuries carried.
    #[serde(default, skip_serializing_if = "Track::is_clear")]
    pub injuries: Track,
    /// Stresses carried.
    #[serde(default, skip_serializing_if = "Track::is_clear")]
    pub stresses: Track,
    /// Killed: a weapon's damage went past Severe ("Severe -> Death").
    /// "Weapons and causing Injury"; R-SA-4.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dead: bool,
    /// The magic Quality or magic Special Talent gained alone by advancement,
    /// whose other half has not come yet: kept, and giving nothing (not
    /// invoked, not called out) until the pair is complete. Its name as on
    /// the sheet; `None` when no half waits. "Advancement"; R-SA-10, R-SA-12.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unpaired: Option<String>,
}
