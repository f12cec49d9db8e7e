//! Characters: Professions, Specializations, Side Professions, Qualities, Special
//! Talents, Principle and Worst Impulse, Luck, weapons; the starting build and
//! advancement.
//!
//! The Sapio System, "Characters in Sapio", "Building a Starting Character",
//! "Advancement", "Weapons and causing Injury" (004_f39b4146df158cae.txt).
//!
//! A [`CharacterDraft`] (TOML, public fields) becomes a [`Character`] only through
//! [`Character::from_draft`], whose [`DraftError`] lists every broken rule.

use crate::name_match::same_name;
use serde::{Deserialize, Serialize};
use std::fmt;
use tabula_core::Rule;
use tabula_core::names::{NameError, check_name, check_seat_name};
use tabula_core::system::Seat;

use crate::harm::{Level, Track};

/// "The Elements of a Character".
pub const RULE_ELEMENTS: Rule = Rule::book(crate::BOOK, "The Elements of a Character");
/// "Professions and Specializations": two words or less.
pub const RULE_PROFESSIONS: Rule = Rule::book(crate::BOOK, "Professions and Specializations");
/// "Qualities": not so broad they could apply anywhere; "Lucky" and "Competent"
/// are refused. R-SA-10.
pub const RULE_QUALITIES: Rule = Rule::book(crate::BOOK, "Qualities").ruling("R-SA-10");
/// Magical or divine abilities need both a specific Quality and a Special Talent.
/// "Building a Starting Character" (the footnote on the starred Qualities); R-SA-10.
pub const RULE_MAGIC: Rule =
    Rule::book(crate::BOOK, "Building a Starting Character").ruling("R-SA-10");
/// A magic Quality and its magic Special Talent may be gained one advancement
/// apart: the first alone is kept, marked unpaired, and gives nothing until
/// the pair is complete. "Advancement", "Building a Starting Character";
/// R-SA-12.
pub const RULE_MAGIC_UNPAIRED: Rule = Rule::book(crate::BOOK, "Advancement").ruling("R-SA-12");
/// "Special Talents".
pub const RULE_TALENTS: Rule = Rule::book(crate::BOOK, "Special Talents");
/// "Principles and Worst Impulses".
pub const RULE_PRINCIPLES: Rule = Rule::book(crate::BOOK, "Principles and Worst Impulses");
/// "Building a Starting Character".
pub const RULE_STARTING: Rule = Rule::book(crate::BOOK, "Building a Starting Character");
/// "Advancement": the cycle rule and the changes a completed cycle allows.
pub const RULE_ADVANCEMENT: Rule = Rule::book(crate::BOOK, "Advancement");
/// "Luck".
pub const RULE_LUCK: Rule = Rule::book(crate::BOOK, "Luck");
/// Tabula's own limits on a sheet (names a table can show, no control
/// characters, text lengths and list sizes, TOML that reads).
pub const RULE_SHEET: Rule = Rule::table("Character sheets");

/// The longest name or phrase accepted (a table limit).
pub const MAX_TEXT: usize = 200;
/// The most elements of one kind a character may list (a table limit).
pub const MAX_ELEMENTS: usize = 40;
/// The most Luck a character may hold (a table limit; the book gives 1 to 3 a session).
pub const MAX_LUCK: u32 = 99;
/// The Qualities the book names as too generic: "'Lucky' and 'Competent' are so
/// generic that they could apply to anything, and therefore should not be used."
/// Refused as Qualities (R-SA-10).
pub const TOO_GENERIC_QUALITIES: [&str; 2] = ["Lucky", "Competent"];
/// The book's example Qualities ("Example Qualities").
pub const EXAMPLE_QUALITIES: [&str; 35] = [
    "Strong",
    "Battle-hardened",
    "Towering",
    "Heavy",
    "Imposing",
    "Inconspicuous",
    "Durable",
    "Tough",
    "Unflappable",
    "Agile",
    "Quick",
    "Dextrous",
    "Lithe",
    "Sneaky",
    "Strong-willed",
    "Stoic",
    "Empathetic",
    "Perceptive",
    "Intuitive",
    "Knowledgeable",
    "Smart",
    "Kind",
    "Friendly",
    "Likeable",
    "Crafty",
    "Creative",
    "Inventive",
    "Magnetic",
    "Charismatic",
    "Charming",
    "Gorgeous",
    "Scary",
    "Magically Trained",
    "Magical",
    "Annointed",
];

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
fn lower_words(s: &str) -> impl Iterator<Item = String> + '_ {
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
fn control_char(s: &str, allow_newlines: bool) -> Option<char> {
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

/// A legal Sapio character. Built only by [`Character::from_draft`]; changed only
/// by the table's events (invocations lock nothing here: see [`crate::invoking`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    sheet: CharacterDraft,
}

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

impl Character {
    /// Validate a draft. Checks every rule and returns all that are broken.
    ///
    /// # Errors
    /// [`DraftError`] listing every [`DraftProblem`].
    pub fn from_draft(draft: CharacterDraft) -> Result<Character, DraftError> {
        let mut p = Vec::new();
        let d = &draft;
        if d.name.trim().is_empty() {
            p.push(DraftProblem::NoName);
        } else if let Err(problem) = check_name("name", &d.name) {
            p.push(DraftProblem::Name { problem });
        }
        if let Some(player) = &d.player {
            if let Err(problem) = check_seat_name("player", player) {
                p.push(DraftProblem::Name { problem });
            } else if Seat::parse(player).is_gm() {
                p.push(DraftProblem::PlayerIsGm {
                    player: player.clone(),
                });
            }
        }
        let long = |p: &mut Vec<DraftProblem>, field: &str, s: &str| {
            if s.chars().count() > MAX_TEXT {
                p.push(DraftProblem::TooLong {
                    field: field.to_string(),
                });
            }
        };
        // Control characters anywhere a sheet's text reaches a screen.
        {
            let mut texts: Vec<(String, &str, bool)> = vec![
                ("principle".into(), &d.principle, false),
                ("worst_impulse".into(), &d.worst_impulse, false),
                ("profession.name".into(), &d.profession.name, false),
            ];
            for (j, x) in d.profession.specializations.iter().enumerate() {
                texts.push((format!("profession.specializations[{j}]"), x, false));
            }
            for (i, side) in d.side_professions.iter().enumerate() {
                texts.push((format!("side_professions[{i}].name"), &side.name, false));
                for (j, x) in side.specializations.iter().enumerate() {
                    texts.push((
                        format!("side_professions[{i}].specializations[{j}]"),
                        x,
                        false,
                    ));
                }
            }
            for (i, q) in d.qualities.iter().enumerate() {
                texts.push((format!("qualities[{i}]"), q, false));
            }
            for (i, t) in d.special_talents.iter().enumerate() {
                texts.push((format!("special_talents[{i}].name"), &t.name, false));
                texts.push((format!("special_talents[{i}].text"), &t.text, true));
            }
            for (i, w) in d.weapons.iter().enumerate() {
                texts.push((format!("weapons[{i}].name"), &w.name, false));
            }
            for (field, track) in [("injuries", &d.injuries), ("stresses", &d.stresses)] {
                for (b, name) in track.entries() {
                    texts.push((
                        format!("{field}.{}", b.level.to_string().to_lowercase()),
                        name,
                        false,
                    ));
                }
            }
            for (field, text, newlines) in texts {
                if let Some(c) = control_char(text, newlines) {
                    p.push(DraftProblem::ControlCharacter {
                        field,
                        code: c as u32,
                    });
                }
            }
        }
        long(&mut p, "principle", &d.principle);
        long(&mut p, "worst_impulse", &d.worst_impulse);
        for (i, t) in d.special_talents.iter().enumerate() {
            long(&mut p, &format!("special_talents[{i}].name"), &t.name);
            if t.text.chars().count() > 4 * MAX_TEXT {
                p.push(DraftProblem::TooLong {
                    field: format!("special_talents[{i}].text"),
                });
            }
        }
        for (field, n) in [
            ("side_professions", d.side_professions.len()),
            ("qualities", d.qualities.len()),
            ("special_talents", d.special_talents.len()),
            ("weapons", d.weapons.len()),
            ("advancements", d.advancements.len()),
            ("cycle_changes", d.cycle_changes.len()),
            (
                "profession.specializations",
                d.profession.specializations.len(),
            ),
        ] {
            if n > MAX_ELEMENTS {
                p.push(DraftProblem::TooMany {
                    field: field.into(),
                });
            }
        }
        // Professions: two words or less.
        let mut profs: Vec<(String, &ProfessionDraft)> =
            vec![("profession".to_string(), &d.profession)];
        for (i, s) in d.side_professions.iter().enumerate() {
            profs.push((format!("side_professions[{i}]"), s));
        }
        let mut names: Vec<(String, String)> = Vec::new();
        for (field, prof) in &profs {
            let w = words(&prof.name);
            if w == 0 || w > 2 {
                p.push(DraftProblem::ProfessionWords {
                    field: format!("{field}.name"),
                    name: prof.name.clone(),
                    words: w,
                });
            }
            names.push((format!("{field}.name"), prof.name.trim().to_lowercase()));
            if prof.specializations.len() > MAX_ELEMENTS {
                p.push(DraftProblem::TooMany {
                    field: format!("{field}.specializations"),
                });
            }
            for (j, s) in prof.specializations.iter().enumerate() {
                let f = format!("{field}.specializations[{j}]");
                if s.trim().is_empty() {
                    p.push(DraftProblem::EmptyElement { field: f.clone() });
                }
                if s.chars().count() > MAX_TEXT {
                    p.push(DraftProblem::TooLong { field: f.clone() });
                }
                names.push((f, s.trim().to_lowercase()));
            }
        }
        for (i, q) in d.qualities.iter().enumerate() {
            let f = format!("qualities[{i}]");
            if q.trim().is_empty() {
                p.push(DraftProblem::EmptyElement { field: f.clone() });
            }
            if q.chars().count() > MAX_TEXT {
                p.push(DraftProblem::TooLong { field: f.clone() });
            }
            names.push((f, q.trim().to_lowercase()));
        }
        for (i, t) in d.special_talents.iter().enumerate() {
            if t.name.trim().is_empty() {
                p.push(DraftProblem::EmptyElement {
                    field: format!("special_talents[{i}].name"),
                });
            }
            if let Some(problem) = t.effect.and_then(effect_problem) {
                p.push(DraftProblem::TalentEffect { index: i, problem });
            }
        }
        for (field, track) in [("injuries", &d.injuries), ("stresses", &d.stresses)] {
            for (b, name) in track.entries() {
                if name.trim().is_empty() || name.chars().count() > crate::harm::MAX_ENTRY_CHARS {
                    p.push(DraftProblem::TooLong {
                        field: format!("{field}.{}", b.level.to_string().to_lowercase()),
                    });
                }
            }
        }
        for (i, w) in d.weapons.iter().enumerate() {
            long(&mut p, &format!("weapons[{i}].name"), &w.name);
            if w.name.trim().is_empty() {
                p.push(DraftProblem::EmptyElement {
                    field: format!("weapons[{i}].name"),
                });
            }
        }
        for (i, (f, n)) in names.iter().enumerate() {
            if !n.is_empty() && names[..i].iter().any(|(_, m)| m == n) {
                p.push(DraftProblem::Duplicate {
                    field: f.clone(),
                    name: n.clone(),
                });
            }
        }
        // "Lucky" and "Competent" may not be Qualities ("Qualities"; R-SA-10).
        for (i, q) in d.qualities.iter().enumerate() {
            if is_too_generic(q) {
                p.push(DraftProblem::TooGeneric {
                    field: format!("qualities[{i}]"),
                    quality: q.trim().to_string(),
                });
            }
        }
        // Magic needs both a specific Quality and a Special Talent (R-SA-10);
        // a half gained alone by advancement may wait for the other, marked
        // `unpaired` (R-SA-12): never at creation, so only when an advancement
        // of its kind was taken.
        let magic_qualities: Vec<usize> = (0..d.qualities.len())
            .filter(|&i| is_magic_quality(&d.qualities[i]))
            .collect();
        let magic_talents: Vec<usize> = (0..d.special_talents.len())
            .filter(|&i| d.special_talents[i].grants_magic())
            .collect();
        let marked = |name: &str, kind: AdvanceKind| {
            d.unpaired
                .as_deref()
                .is_some_and(|u| same_name(u.trim(), name.trim()))
                && d.advancements.contains(&kind)
        };
        if let Some(u) = &d.unpaired {
            let names_magic = magic_qualities
                .iter()
                .any(|&i| same_name(d.qualities[i].trim(), u.trim()))
                || magic_talents
                    .iter()
                    .any(|&i| same_name(d.special_talents[i].name.trim(), u.trim()));
            if !names_magic {
                p.push(DraftProblem::UnpairedMark {
                    name: u.trim().to_string(),
                });
            }
        }
        if magic_qualities.is_empty() {
            for &i in &magic_talents {
                if marked(&d.special_talents[i].name, AdvanceKind::SpecialTalent) {
                    continue;
                }
                p.push(DraftProblem::MagicWithoutQuality {
                    field: format!("special_talents[{i}]"),
                    talent: d.special_talents[i].name.trim().to_string(),
                });
            }
        }
        if magic_talents.is_empty() {
            for &i in &magic_qualities {
                if marked(&d.qualities[i], AdvanceKind::Quality) {
                    continue;
                }
                p.push(DraftProblem::MagicQualityWithoutTalent {
                    field: format!("qualities[{i}]"),
                    quality: d.qualities[i].trim().to_string(),
                });
            }
        }
        // The elements every character has.
        let mut missing = |field: &str, what: &str, ok: bool| {
            if !ok {
                p.push(DraftProblem::Missing {
                    field: field.into(),
                    what: what.into(),
                });
            }
        };
        missing(
            "side_professions",
            "a Side Profession",
            !d.side_professions.is_empty(),
        );
        missing("qualities", "a Quality", !d.qualities.is_empty());
        missing(
            "special_talents",
            "a Special Talent",
            !d.special_talents.is_empty(),
        );
        missing("principle", "a Principle", !d.principle.trim().is_empty());
        missing(
            "worst_impulse",
            "a Worst Impulse",
            !d.worst_impulse.trim().is_empty(),
        );
        // The starting build plus advancements.
        let n = |k: AdvanceKind| d.advancements.iter().filter(|a| **a == k).count();
        let side_specs: usize = d
            .side_professions
            .iter()
            .map(|s| s.specializations.len())
            .sum();
        let swapped = d.cycle_changes.contains(&CycleChangeKind::Swap);
        let mut count = |field: &str, expected: usize, got: usize| {
            if expected != got {
                p.push(DraftProblem::BuildCount {
                    field: field.into(),
                    expected,
                    got,
                });
            }
        };
        if swapped {
            count(
                "specializations (all Professions)",
                1 + n(AdvanceKind::ProfessionSpecialization) + n(AdvanceKind::SideSpecialization),
                d.profession.specializations.len() + side_specs,
            );
        } else {
            count(
                "profession.specializations",
                1 + n(AdvanceKind::ProfessionSpecialization),
                d.profession.specializations.len(),
            );
            count(
                "side_professions[].specializations",
                n(AdvanceKind::SideSpecialization),
                side_specs,
            );
        }
        count(
            "side_professions",
            1 + n(AdvanceKind::SideProfession),
            d.side_professions.len(),
        );
        count("qualities", 2 + n(AdvanceKind::Quality), d.qualities.len());
        count(
            "special_talents",
            1 + n(AdvanceKind::SpecialTalent),
            d.special_talents.len(),
        );
        match cycles(&d.advancements) {
            Ok(st) => {
                if d.cycle_changes.len() > st.completed as usize {
                    p.push(DraftProblem::CycleChanges {
                        changes: d.cycle_changes.len(),
                        completed: st.completed,
                    });
                }
            }
            Err((index, choice)) => p.push(DraftProblem::CycleRule { index, choice }),
        }
        if d.luck > MAX_LUCK {
            p.push(DraftProblem::Luck { got: d.luck });
        }
        if p.is_empty() {
            Ok(Character { sheet: draft })
        } else {
            Err(DraftError {
                draft: Box::new(draft),
                problems: p,
            })
        }
    }

    /// The sheet, as it would be written back to a file.
    pub fn sheet(&self) -> &CharacterDraft {
        &self.sheet
    }

    /// The name.
    pub fn name(&self) -> &str {
        self.sheet.name.trim()
    }

    /// The player who plays the character, if any.
    pub fn player(&self) -> Option<&str> {
        self.sheet.player.as_deref()
    }

    /// Luck held.
    pub fn luck(&self) -> u32 {
        self.sheet.luck
    }

    /// The Injury track.
    pub fn injuries(&self) -> &Track {
        &self.sheet.injuries
    }

    /// The Stress track.
    pub fn stresses(&self) -> &Track {
        &self.sheet.stresses
    }

    /// True when a second Severe Injury or Stress has debilitated the character.
    pub fn debilitated(&self) -> bool {
        self.sheet.injuries.debilitated || self.sheet.stresses.debilitated
    }

    /// True when a weapon killed the character (R-SA-4).
    pub fn dead(&self) -> bool {
        self.sheet.dead
    }

    /// Debilitated or dead: the character takes no action.
    pub fn out_of_action(&self) -> bool {
        self.debilitated() || self.dead()
    }

    /// Find a Profession by name (case-insensitive): `Some(true)` for the Main
    /// Profession, `Some(false)` for a Side Profession; with its canonical name.
    pub fn find_profession(&self, name: &str) -> Option<(bool, &str)> {
        let t = name.trim();
        if same_name(self.sheet.profession.name.trim(), t) {
            return Some((true, self.sheet.profession.name.trim()));
        }
        self.sheet
            .side_professions
            .iter()
            .find(|s| same_name(s.name.trim(), t))
            .map(|s| (false, s.name.trim()))
    }

    /// The Profession a Specialization is under, and the Specialization's canonical name.
    pub fn find_specialization(&self, name: &str) -> Option<(&str, &str)> {
        let t = name.trim();
        std::iter::once(&self.sheet.profession)
            .chain(self.sheet.side_professions.iter())
            .find_map(|p| {
                p.specializations
                    .iter()
                    .find(|s| same_name(s.trim(), t))
                    .map(|s| (p.name.trim(), s.trim()))
            })
    }

    /// A Quality's canonical name.
    pub fn find_quality(&self, name: &str) -> Option<&str> {
        let t = name.trim();
        self.sheet
            .qualities
            .iter()
            .find(|q| same_name(q.trim(), t))
            .map(|q| q.trim())
    }

    /// A Special Talent by name.
    pub fn find_talent(&self, name: &str) -> Option<&Talent> {
        let t = name.trim();
        self.sheet
            .special_talents
            .iter()
            .find(|s| same_name(s.name.trim(), t))
    }

    /// A weapon by name.
    pub fn find_weapon(&self, name: &str) -> Option<&Weapon> {
        let t = name.trim();
        self.sheet
            .weapons
            .iter()
            .find(|w| same_name(w.name.trim(), t))
    }

    /// Every element that may be invoked (Professions, Specializations, Qualities).
    pub fn elements(&self) -> Vec<String> {
        let s = &self.sheet;
        let mut out = vec![s.profession.name.trim().to_string()];
        out.extend(
            s.profession
                .specializations
                .iter()
                .map(|x| x.trim().to_string()),
        );
        for side in &s.side_professions {
            out.push(side.name.trim().to_string());
            out.extend(side.specializations.iter().map(|x| x.trim().to_string()));
        }
        out.extend(s.qualities.iter().map(|x| x.trim().to_string()));
        out
    }

    /// Where the advancement cycle stands.
    pub fn cycle(&self) -> CycleState {
        cycles(&self.sheet.advancements).unwrap_or_default()
    }

    /// Completed-cycle changes still available.
    pub fn cycle_changes_left(&self) -> u32 {
        self.cycle()
            .completed
            .saturating_sub(self.sheet.cycle_changes.len() as u32)
    }

    /// Check an advancement against the cycle rule and the sheet.
    ///
    /// # Errors
    /// [`AdvanceError`] naming the rule.
    pub fn check_advance(&self, adv: &Advance) -> Result<(), AdvanceError> {
        let kind = adv.kind();
        let st = self.cycle();
        if st.current.contains(&kind.choice()) {
            return Err(AdvanceError::CycleRule {
                choice: kind.choice(),
            });
        }
        if self.sheet.advancements.len() >= MAX_ELEMENTS {
            return Err(AdvanceError::TooMany);
        }
        let name = adv.name();
        if name.trim().is_empty()
            || name.chars().count() > MAX_TEXT
            || control_char(name, false).is_some()
        {
            return Err(AdvanceError::Name);
        }
        let exists = self.elements().iter().any(|e| same_name(e, name.trim()))
            || self.find_talent(name).is_some();
        if exists {
            return Err(AdvanceError::Exists {
                name: name.trim().to_string(),
            });
        }
        match adv {
            Advance::SideSpecialization { profession, .. } => {
                match self.find_profession(profession) {
                    Some((false, _)) => Ok(()),
                    _ => Err(AdvanceError::NoSideProfession {
                        name: profession.clone(),
                    }),
                }
            }
            Advance::SideProfession { name } if words(name) > 2 => {
                Err(AdvanceError::Words { name: name.clone() })
            }
            Advance::SpecialTalent { talent } => {
                if let Some(problem) = talent.effect.and_then(effect_problem) {
                    return Err(AdvanceError::Effect { problem });
                }
                if control_char(&talent.text, true).is_some() {
                    return Err(AdvanceError::Name);
                }
                // R-SA-12: a magic Talent may come alone, to wait for its
                // Quality, unless a half waits already.
                if talent.grants_magic() && !self.has_magic_quality() {
                    self.one_half_alone()?;
                }
                Ok(())
            }
            Advance::Quality { name } => {
                if is_too_generic(name) {
                    return Err(AdvanceError::TooGeneric {
                        name: name.trim().to_string(),
                    });
                }
                // R-SA-12: a magic Quality may come alone, to wait for its
                // Talent, unless a half waits already.
                if is_magic_quality(name) && !self.has_magic_talent() {
                    self.one_half_alone()?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// R-SA-12: a magic half gained alone waits for its pair; a second half
    /// alone while one waits is refused.
    fn one_half_alone(&self) -> Result<(), AdvanceError> {
        match &self.sheet.unpaired {
            Some(waiting) => Err(AdvanceError::UnpairedWaiting {
                waiting: waiting.trim().to_string(),
            }),
            None => Ok(()),
        }
    }

    /// The magic Quality or Special Talent gained alone by advancement that
    /// waits for its pair and gives nothing meanwhile, if `name` is it: marked
    /// `unpaired` and the pair not complete. R-SA-12.
    pub fn is_unpaired(&self, name: &str) -> bool {
        self.sheet
            .unpaired
            .as_deref()
            .is_some_and(|u| same_name(u.trim(), name.trim()))
            && !(self.has_magic_quality() && self.has_magic_talent())
    }

    /// True when a Quality of the kind magic needs is on the sheet (R-SA-10).
    pub fn has_magic_quality(&self) -> bool {
        self.sheet.qualities.iter().any(|q| is_magic_quality(q))
    }

    /// True when a Special Talent granting magical or divine abilities is on the
    /// sheet (R-SA-10).
    pub fn has_magic_talent(&self) -> bool {
        self.sheet.special_talents.iter().any(Talent::grants_magic)
    }

    /// A new Quality (gained, or replacing `replacing`): not "Lucky" or
    /// "Competent", and the magic pair kept (R-SA-10).
    fn check_new_quality(&self, name: &str, replacing: Option<&str>) -> Result<(), AdvanceError> {
        if is_too_generic(name) {
            return Err(AdvanceError::TooGeneric {
                name: name.trim().to_string(),
            });
        }
        if is_magic_quality(name) && !self.has_magic_talent() {
            return Err(AdvanceError::QualityNeedsMagic {
                quality: name.trim().to_string(),
            });
        }
        if let Some(old) = replacing
            && is_magic_quality(old)
            && !is_magic_quality(name)
            && self.has_magic_talent()
        {
            let others = self
                .sheet
                .qualities
                .iter()
                .filter(|q| !same_name(q, old))
                .any(|q| is_magic_quality(q));
            if !others {
                return Err(AdvanceError::MagicNeedsQuality {
                    talent: self
                        .sheet
                        .special_talents
                        .iter()
                        .find(|t| t.grants_magic())
                        .map(|t| t.name.trim().to_string())
                        .unwrap_or_default(),
                });
            }
        }
        Ok(())
    }

    /// Apply an advancement (checked by [`Character::check_advance`]). A magic
    /// Quality or Special Talent gained without its pair is marked `unpaired`;
    /// the other half completes the pair and clears the mark (R-SA-12).
    pub fn apply_advance(&mut self, adv: &Advance) {
        let magic_half = match adv {
            Advance::Quality { name } => {
                Some(name.trim().to_string()).filter(|n| is_magic_quality(n))
            }
            Advance::SpecialTalent { talent } => {
                Some(talent.name.trim().to_string()).filter(|_| talent.grants_magic())
            }
            _ => None,
        };
        self.push_advance(adv);
        if let Some(name) = magic_half {
            let paired = self.has_magic_quality() && self.has_magic_talent();
            self.sheet.unpaired = if paired { None } else { Some(name) };
        }
    }

    fn push_advance(&mut self, adv: &Advance) {
        let s = &mut self.sheet;
        match adv {
            Advance::ProfessionSpecialization { name } => {
                s.profession.specializations.push(name.trim().to_string())
            }
            Advance::SideSpecialization { profession, name } => {
                if let Some(p) = s
                    .side_professions
                    .iter_mut()
                    .find(|p| same_name(p.name.trim(), profession.trim()))
                {
                    p.specializations.push(name.trim().to_string());
                }
            }
            Advance::SideProfession { name } => s.side_professions.push(ProfessionDraft {
                name: name.trim().to_string(),
                specializations: Vec::new(),
            }),
            Advance::Quality { name } => s.qualities.push(name.trim().to_string()),
            Advance::SpecialTalent { talent } => s.special_talents.push(talent.clone()),
        }
        s.advancements.push(adv.kind());
        // The advancement a consequential session gave is taken. R-SA-9.
        s.advancement_due = false;
    }

    /// Check a completed-cycle change.
    ///
    /// # Errors
    /// [`AdvanceError`] naming the rule.
    pub fn check_change(&self, change: &CycleChange) -> Result<(), AdvanceError> {
        if self.cycle_changes_left() == 0 {
            return Err(AdvanceError::NoCycleCompleted);
        }
        match change {
            CycleChange::ProfessionWord { profession, to } => {
                if self.find_profession(profession).is_none() {
                    return Err(AdvanceError::NoProfession {
                        name: profession.clone(),
                    });
                }
                let w = words(to);
                if w == 0
                    || w > 2
                    || to.chars().count() > MAX_TEXT
                    || control_char(to, false).is_some()
                {
                    return Err(AdvanceError::Words { name: to.clone() });
                }
                // Exactly one word changes.
                let old: Vec<String> = profession
                    .split_whitespace()
                    .map(str::to_lowercase)
                    .collect();
                let new: Vec<String> = to.split_whitespace().map(str::to_lowercase).collect();
                let changed = old.len() == new.len()
                    && old.iter().zip(&new).filter(|(a, b)| a != b).count() == 1;
                if !changed {
                    return Err(AdvanceError::OneWord);
                }
                Ok(())
            }
            CycleChange::Swap { side } => match self.find_profession(side) {
                Some((false, _)) => Ok(()),
                _ => Err(AdvanceError::NoSideProfession { name: side.clone() }),
            },
            CycleChange::Quality { from, to } => {
                if self.find_quality(from).is_none() {
                    return Err(AdvanceError::NoQuality { name: from.clone() });
                }
                if to.trim().is_empty()
                    || to.chars().count() > MAX_TEXT
                    || control_char(to, false).is_some()
                {
                    return Err(AdvanceError::Name);
                }
                self.check_new_quality(to, Some(from))?;
                if self.elements().iter().any(|e| same_name(e, to.trim())) {
                    return Err(AdvanceError::Exists {
                        name: to.trim().to_string(),
                    });
                }
                Ok(())
            }
        }
    }

    /// Apply a completed-cycle change (checked by [`Character::check_change`]).
    pub fn apply_change(&mut self, change: &CycleChange) {
        let s = &mut self.sheet;
        match change {
            CycleChange::ProfessionWord { profession, to } => {
                let t = profession.trim();
                if same_name(s.profession.name.trim(), t) {
                    s.profession.name = to.trim().to_string();
                } else if let Some(p) = s
                    .side_professions
                    .iter_mut()
                    .find(|p| same_name(p.name.trim(), t))
                {
                    p.name = to.trim().to_string();
                }
                s.cycle_changes.push(CycleChangeKind::ProfessionWord);
            }
            CycleChange::Swap { side } => {
                if let Some(p) = s
                    .side_professions
                    .iter_mut()
                    .find(|p| same_name(p.name.trim(), side.trim()))
                {
                    std::mem::swap(p, &mut s.profession);
                }
                s.cycle_changes.push(CycleChangeKind::Swap);
            }
            CycleChange::Quality { from, to } => {
                if let Some(q) = s
                    .qualities
                    .iter_mut()
                    .find(|q| same_name(q.trim(), from.trim()))
                {
                    *q = to.trim().to_string();
                }
                // An unpaired Quality changed away no longer waits (R-SA-12).
                if s.unpaired
                    .as_deref()
                    .is_some_and(|u| same_name(u.trim(), from.trim()))
                {
                    s.unpaired = None;
                }
                s.cycle_changes.push(CycleChangeKind::Quality);
            }
        }
    }

    /// Mutable access for the table's events (Luck, Injuries, Stresses).
    pub(crate) fn sheet_mut(&mut self) -> &mut CharacterDraft {
        &mut self.sheet
    }
}

fn effect_problem(e: TalentEffect) -> Option<String> {
    let in_range = |v: u32, lo: u32, hi: u32, what: &str| {
        (v < lo || v > hi).then(|| format!("{what} must be {lo} to {hi}, not {v}"))
    };
    match e {
        TalentEffect::BonusDice { dice } => in_range(dice, 1, 3, "dice"),
        TalentEffect::TnCap { max } => in_range(max, 0, 5, "max"),
        TalentEffect::TnReduction { by } => in_range(by, 1, 3, "by"),
        TalentEffect::ExtraHits { hits } => in_range(hits, 1, 3, "hits"),
        TalentEffect::ExtraSpares { spares } => in_range(spares, 1, 3, "spares"),
        TalentEffect::ExtraSpirals { spirals } => in_range(spirals, 1, 3, "spirals"),
        TalentEffect::IgnoreInjury => None,
    }
}

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

/// Read a character file (TOML).
///
/// # Errors
/// [`SheetError::Toml`] for unreadable TOML (naming the field), or
/// [`SheetError::Rules`] with every broken rule.
pub fn parse_character(text: &str) -> Result<Character, SheetError> {
    let draft: CharacterDraft =
        toml::from_str(text).map_err(|e| SheetError::Toml(e.to_string()))?;
    Character::from_draft(draft).map_err(SheetError::Rules)
}

/// A character file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// Not TOML, or a field of the wrong type or unknown.
    #[error("{0}")]
    Toml(String),
    /// Legal TOML, broken rules.
    #[error(transparent)]
    Rules(DraftError),
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn roof_runner() -> CharacterDraft {
        toml::from_str(include_str!("../../../../examples/sapio/roof-runner.toml")).unwrap()
    }

    #[test]
    fn the_roof_runner_is_a_legal_starting_character() {
        let c = Character::from_draft(roof_runner()).unwrap();
        assert_eq!(c.sheet().profession.name, "Roof Runner");
        assert_eq!(
            c.find_specialization("leaping"),
            Some(("Roof Runner", "Leaping"))
        );
        assert_eq!(c.sheet().principle, "Violence is not the answer");
        assert_eq!(c.sheet().worst_impulse, "Stealing isn't a big deal");
    }

    #[test]
    fn every_broken_rule_is_listed() {
        let mut d = roof_runner();
        d.name = String::new();
        d.profession.name = "Gas Station Clerk".into();
        d.qualities = vec!["Agile".into(), "Agile".into(), "Quick".into()];
        d.principle = String::new();
        d.advancements = vec![AdvanceKind::Quality, AdvanceKind::Quality];
        d.luck = 1000;
        let e = Character::from_draft(d).unwrap_err();
        let has = |f: &dyn Fn(&DraftProblem) -> bool| e.problems.iter().any(f);
        assert!(has(&|p| matches!(p, DraftProblem::NoName)));
        assert!(has(&|p| matches!(
            p,
            DraftProblem::ProfessionWords { words: 3, .. }
        )));
        assert!(has(&|p| matches!(p, DraftProblem::Duplicate { .. })));
        assert!(has(
            &|p| matches!(p, DraftProblem::Missing { field, .. } if field == "principle")
        ));
        assert!(has(&|p| matches!(
            p,
            DraftProblem::CycleRule { index: 1, .. }
        )));
        assert!(has(
            &|p| matches!(p, DraftProblem::BuildCount { field, .. } if field == "qualities")
        ));
        assert!(has(&|p| matches!(p, DraftProblem::Luck { got: 1000 })));
        assert_eq!(e.draft.luck, 1000);
    }

    #[test]
    fn starting_build_counts() {
        let mut d = roof_runner();
        d.side_professions[0]
            .specializations
            .push("Cash Register".into());
        d.special_talents.push(Talent {
            name: "Weather Sense".into(),
            ..Talent::default()
        });
        let e = Character::from_draft(d).unwrap_err();
        assert_eq!(e.problems.len(), 2, "{e}");
    }

    /// "Qualities": "'Lucky' and 'Competent' ... should not be used"; R-SA-10
    /// makes them errors, on the sheet, in advancement and in a cycle change.
    #[test]
    fn lucky_and_competent_are_refused_as_qualities() {
        let mut d = roof_runner();
        d.qualities[1] = "lucky".into();
        let e = Character::from_draft(d).unwrap_err();
        assert!(
            e.problems.iter().any(|p| matches!(
                p,
                DraftProblem::TooGeneric { field, quality } if field == "qualities[1]" && quality == "lucky"
            )),
            "{e}"
        );
        assert!(e.to_string().contains("R-SA-10"), "{e}");
        let mut c = Character::from_draft(roof_runner()).unwrap();
        assert_eq!(
            c.check_advance(&Advance::Quality {
                name: "Competent".into()
            }),
            Err(AdvanceError::TooGeneric {
                name: "Competent".into()
            })
        );
        // A completed cycle may change a Quality, but not to "Lucky".
        for adv in [
            Advance::Quality {
                name: "Durable".into(),
            },
            Advance::ProfessionSpecialization {
                name: "Quick Escapes".into(),
            },
            Advance::SideProfession {
                name: "Bike Courier".into(),
            },
            Advance::SpecialTalent {
                talent: Talent {
                    name: "Weather Sense".into(),
                    ..Talent::default()
                },
            },
        ] {
            c.check_advance(&adv).unwrap();
            c.apply_advance(&adv);
        }
        assert!(matches!(
            c.check_change(&CycleChange::Quality {
                from: "Agile".into(),
                to: "LUCKY".into()
            }),
            Err(AdvanceError::TooGeneric { .. })
        ));
    }

    fn spellcaster() -> Talent {
        Talent {
            name: "Spellcaster".into(),
            text: "This character can cast magical spells".into(),
            ..Talent::default()
        }
    }

    /// "In a setting with magical or divine abilities, characters possessing these
    /// abilities must take both a specific Quality and a Special Talent to use
    /// them" (the footnote of "Building a Starting Character"); R-SA-10.
    #[test]
    fn magic_needs_its_quality_and_special_talent_pair() {
        // The Talent without the Quality.
        let mut d = roof_runner();
        d.special_talents[0] = spellcaster();
        let e = Character::from_draft(d).unwrap_err();
        assert!(
            e.problems.iter().any(|p| matches!(
                p,
                DraftProblem::MagicWithoutQuality { field, .. } if field == "special_talents[0]"
            )),
            "{e}"
        );
        // The Quality without the Talent.
        let mut d = roof_runner();
        d.qualities[1] = "Magically Trained".into();
        let e = Character::from_draft(d).unwrap_err();
        assert!(
            e.problems.iter().any(|p| matches!(
                p,
                DraftProblem::MagicQualityWithoutTalent { field, .. } if field == "qualities[1]"
            )),
            "{e}"
        );
        // Both: legal (the book's Arcane Knight).
        let mut d = roof_runner();
        d.qualities[1] = "Magical".into();
        d.special_talents[0] = spellcaster();
        let c = Character::from_draft(d).unwrap();
        // A talent may say it is not magic, whatever its words.
        let mut d = roof_runner();
        d.special_talents[0] = Talent {
            name: "Spell Breaker".into(),
            text: "Immune to magic".into(),
            magic: Some(false),
            ..Talent::default()
        };
        Character::from_draft(d).unwrap();
        // Advancement may gain one half alone (R-SA-12, which replaces the
        // refusal of a lone half here: see
        // `r_sa_12_one_magic_half_waits_at_a_time`); the last magic Quality
        // stays while a magic Talent remains.
        let plain = Character::from_draft(roof_runner()).unwrap();
        assert_eq!(
            plain.check_advance(&Advance::SpecialTalent {
                talent: Talent {
                    name: "Blessing".into(),
                    magic: Some(true),
                    ..Talent::default()
                }
            }),
            Ok(())
        );
        assert_eq!(
            plain.check_advance(&Advance::Quality {
                name: "Annointed".into()
            }),
            Ok(())
        );
        assert!(
            c.check_advance(&Advance::SpecialTalent {
                talent: Talent {
                    name: "Divine Ward".into(),
                    ..Talent::default()
                }
            })
            .is_ok()
        );
        assert_eq!(
            c.check_new_quality("Stoic", Some("Magical")),
            Err(AdvanceError::MagicNeedsQuality {
                talent: "Spellcaster".into()
            })
        );
    }

    /// R-SA-12: a magic half gained alone is marked unpaired and gives
    /// nothing; while it waits, a second lone half is refused; its pair clears
    /// the mark; changing the waiting Quality away clears it too.
    #[test]
    fn r_sa_12_one_magic_half_waits_at_a_time() {
        let mut c = Character::from_draft(roof_runner()).unwrap();
        c.apply_advance(&Advance::Quality {
            name: "Magical".into(),
        });
        assert_eq!(c.sheet().unpaired.as_deref(), Some("Magical"));
        assert!(c.is_unpaired("magical"));
        assert!(!c.is_unpaired("Agile"));
        Character::from_draft(c.sheet().clone()).unwrap();
        // Complete the cycle with elements that are not magic.
        for adv in [
            Advance::ProfessionSpecialization {
                name: "Quick Escapes".into(),
            },
            Advance::SideProfession {
                name: "Bike Courier".into(),
            },
            Advance::SpecialTalent {
                talent: Talent {
                    name: "Weather Sense".into(),
                    ..Talent::default()
                },
            },
        ] {
            c.check_advance(&adv).unwrap();
            c.apply_advance(&adv);
        }
        assert_eq!(c.sheet().unpaired.as_deref(), Some("Magical"));
        // Another magic Quality alone while Magical waits is refused.
        let annointed = Advance::Quality {
            name: "Annointed".into(),
        };
        let e = c.check_advance(&annointed).unwrap_err();
        assert_eq!(
            e,
            AdvanceError::UnpairedWaiting {
                waiting: "Magical".into()
            }
        );
        assert_eq!(e.rule().ruling, Some("R-SA-12"));
        // The waiting Quality changed to a plain one no longer waits.
        let mut changed = c.clone();
        let to = CycleChange::Quality {
            from: "Magical".into(),
            to: "Stoic".into(),
        };
        changed.check_change(&to).unwrap();
        changed.apply_change(&to);
        assert_eq!(changed.sheet().unpaired, None);
        Character::from_draft(changed.sheet().clone()).unwrap();
        // The Talent completes the pair and clears the mark.
        let spell = Advance::SpecialTalent {
            talent: Talent {
                name: "Spellcaster".into(),
                text: "This character can cast magical spells".into(),
                ..Talent::default()
            },
        };
        c.check_advance(&spell).unwrap();
        c.apply_advance(&spell);
        assert_eq!(c.sheet().unpaired, None);
        assert!(!c.is_unpaired("Magical"));
        Character::from_draft(c.sheet().clone()).unwrap();
    }

    #[test]
    fn names_with_control_characters_or_a_gm_player_are_refused() {
        let mut d = roof_runner();
        d.name = "Wr\u{1b}[2Jen".into();
        d.player = Some("GM".into());
        d.qualities[0] = "Ag\u{7}ile".into();
        let e = Character::from_draft(d).unwrap_err();
        let has = |f: &dyn Fn(&DraftProblem) -> bool| e.problems.iter().any(f);
        assert!(has(&|p| matches!(p, DraftProblem::Name { .. })), "{e}");
        assert!(
            has(&|p| matches!(p, DraftProblem::PlayerIsGm { .. })),
            "{e}"
        );
        assert!(
            has(
                &|p| matches!(p, DraftProblem::ControlCharacter { field, .. } if field == "qualities[0]")
            ),
            "{e}"
        );
        let mut d = roof_runner();
        d.player = Some("Ana: the first".into());
        let e = Character::from_draft(d).unwrap_err();
        assert!(e.to_string().contains("player"), "{e}");
    }

    #[test]
    fn advancement_cycle_and_changes() {
        let mut c = Character::from_draft(roof_runner()).unwrap();
        let q = Advance::Quality {
            name: "Durable".into(),
        };
        c.check_advance(&q).unwrap();
        c.apply_advance(&q);
        let q2 = Advance::Quality {
            name: "Likeable".into(),
        };
        assert!(matches!(
            c.check_advance(&q2),
            Err(AdvanceError::CycleRule { .. })
        ));
        assert_eq!(
            c.check_change(&CycleChange::Swap {
                side: "Night Clerk".into()
            }),
            Err(AdvanceError::NoCycleCompleted)
        );
        for adv in [
            Advance::ProfessionSpecialization {
                name: "Quick Escapes".into(),
            },
            Advance::SideSpecialization {
                profession: "Night Clerk".into(),
                name: "Haggling".into(),
            },
            Advance::SpecialTalent {
                talent: Talent {
                    name: "Weather Sense".into(),
                    text: "always knows tomorrow's weather".into(),
                    effect: None,
                    magic: None,
                },
            },
        ] {
            c.check_advance(&adv).unwrap();
            c.apply_advance(&adv);
        }
        assert_eq!(c.cycle().completed, 1);
        c.check_advance(&q2).unwrap();
        let swap = CycleChange::Swap {
            side: "Night Clerk".into(),
        };
        c.check_change(&swap).unwrap();
        c.apply_change(&swap);
        assert_eq!(c.sheet().profession.name, "Night Clerk");
        assert_eq!(c.sheet().profession.specializations, vec!["Haggling"]);
        assert_eq!(c.cycle_changes_left(), 0);
        // The advanced sheet still validates from its file form.
        Character::from_draft(c.sheet().clone()).unwrap();
        let word = CycleChange::ProfessionWord {
            profession: "Roof Runner".into(),
            to: "Roof Dancer".into(),
        };
        assert_eq!(c.check_change(&word), Err(AdvanceError::NoCycleCompleted));
    }
}
