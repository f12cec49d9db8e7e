//! Characters outside the table: [`tabula_core::CharacterBook`] for The Sapio
//! System, creation in the order of "Building a Starting Character", the sheet
//! an encounter leaves ([`lasting`]) and "Advancement" between sessions
//! ([`advance`]).
//!
//! The Sapio System, "Character Elements", "Professions and Specializations",
//! "Qualities", "Special Talents", "Principles and Worst Impulses", "Building a
//! Starting Character", "Advancement", "Weapons and causing Injury", "Luck"
//! (004_f39b4146df158cae.txt); R-SA-9, R-SA-10.
//!
//! The creation steps, in the book's order:
//!
//! | step | fields | the book's limits |
//! |---|---|---|
//! | 1. Concept | `name`, `player` | (Tabula's: a name a table can show; no player: a GM character) |
//! | 2. Pick a Profession | `profession` | two words or less |
//! | 3. Pick one Specialization under that Profession | `profession.specializations.N` | one (plus one per advancement taken) |
//! | 4. Pick a Side Profession, but no Specializations (yet) | `side_professions.N.name` (`side_professions.N.specializations.M` on an advanced sheet) | one, two words or less |
//! | 5. Pick two Qualities | `qualities.N` | two; not "Lucky" or "Competent" (R-SA-10) |
//! | 6. Pick one Special Talent | `special_talents.N.name`, `.text`, `.effect`, `.amount`, `.magic` | one; magic needs its Quality (R-SA-10) |
//! | 7. Principle and Worst Impulse | `principle`, `worst_impulse` | a word to a phrase each |
//! | 8. Weapons | `weapons.N.name`, `weapons.N.level` | optional; Minor, Moderate or Severe |
//! | 9. Luck | `luck` (only on a sheet that holds Luck) | a starting character has none |
//!
//! A list field `KEY.LEN` (one past the last) is the open slot that adds an
//! entry, offered while the book's count is not reached.
//!
//! Every problem comes from [`Character::from_draft`], the check `tabula sapio
//! character validate` runs, on the sheet [`Draft::to_sheet`] writes; a value
//! that adds a broken problem is refused citing the same rule
//! ([`DraftProblem::rule`]). Merely unfinished: a choice not made yet, a count
//! not reached, and a magic Quality or Special Talent whose other half still
//! has an open slot (R-SA-10: the pair is made across two steps).
//!
//! # Examples
//!
//! ```
//! use tabula_core::{BuildRefusal, CharacterBook, FieldValue};
//! use tabula_sapio::Sapio;
//! use tabula_sapio::builder::Draft;
//! // The book's Roof Runner, in the order of "Building a Starting Character".
//! let mut d = Draft::default();
//! for (key, value) in [
//!     ("name", "Wren"),
//!     ("profession", "Roof Runner"),
//!     ("profession.specializations.0", "Leaping"),
//!     ("side_professions.0.name", "Night Clerk"),
//!     ("qualities.0", "Agile"),
//!     ("qualities.1", "Perceptive"),
//!     ("special_talents.0.name", "Weather Sense"),
//!     ("principle", "Violence is not the answer"),
//!     ("worst_impulse", "Stealing isn't a big deal"),
//! ] {
//!     Sapio::set(&mut d, key, &FieldValue::Text(value.into())).unwrap();
//! }
//! assert!(Sapio::build_view(&d).complete);
//! // "Lucky" may not be a Quality (R-SA-10): refused, the draft unchanged.
//! let before = d.clone();
//! let lucky = FieldValue::Text("Lucky".into());
//! assert!(matches!(Sapio::set(&mut d, "qualities.1", &lucky), Err(BuildRefusal::Broken { .. })));
//! assert_eq!(d, before);
//! assert!(Sapio::validate(&Sapio::finish(&d).unwrap()).is_ok());
//! ```

use serde::{Deserialize, Serialize};

use tabula_core::builder::{
    Budget, ChoiceOption, Derived, FieldKind, FieldView, MAX_TEXT_CHARS, StepView,
};
use tabula_core::names::MAX_NAME_CHARS;
use tabula_core::{BuildProblem, BuildRefusal, BuildView, FieldValue, Rule};

use crate::ID;
use crate::characters::{
    AdvanceKind, Character, CharacterDraft, CycleChangeKind, DraftProblem, EXAMPLE_QUALITIES,
    MAX_ELEMENTS, MAX_LUCK, ProfessionDraft, RULE_LUCK, RULE_MAGIC, RULE_PRINCIPLES,
    RULE_PROFESSIONS, RULE_QUALITIES, RULE_SHEET, RULE_STARTING, Talent, TalentEffect, Weapon,
    is_magic_quality,
};
use crate::harm::{Level, RULE_WEAPONS, Track};

pub mod advance;
pub mod lasting;

/// "Character Elements": first come up with a concept, then translate it into
/// elements.
pub const RULE_CONCEPT: Rule = Rule::book(crate::BOOK, "Character Elements");

/// The most characters of a Special Talent's text the builder takes (the
/// sheet allows more, see [`crate::characters::MAX_TEXT`]; a draft read from
/// such a sheet keeps it).
pub const MAX_TALENT_TEXT: usize = MAX_TEXT_CHARS;

/// A Sapio character being made: the book's sheet with every choice optional
/// until made. `Default` is the empty draft. The play-state fields (Luck,
/// advancements, Injuries, Stresses, death) are kept from a sheet read back and
/// are not chosen at creation.
///
/// As JSON: the fields below; absent fields take their default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Draft {
    /// The character's name.
    pub name: Option<String>,
    /// The player (seat) who plays them; `None` for a GM character.
    pub player: Option<String>,
    /// The Main Profession, two words or less.
    pub profession: Option<String>,
    /// The Main Profession's Specializations.
    pub specializations: Vec<String>,
    /// Side Professions with their Specializations.
    pub side_professions: Vec<ProfessionDraft>,
    /// Qualities.
    pub qualities: Vec<String>,
    /// Special Talents.
    pub special_talents: Vec<Talent>,
    /// The Principle.
    pub principle: Option<String>,
    /// The Worst Impulse.
    pub worst_impulse: Option<String>,
    /// Weapons with their base injury level.
    pub weapons: Vec<Weapon>,
    /// Luck held, kept from a sheet in play (`None`: none, and no field).
    pub luck: Option<u32>,
    /// Advancements taken, kept from a sheet.
    pub advancements: Vec<AdvanceKind>,
    /// Completed-cycle changes made, kept from a sheet.
    pub cycle_changes: Vec<CycleChangeKind>,
    /// An advancement is due, kept from a sheet.
    pub advancement_due: bool,
    /// Injuries carried, kept from a sheet.
    pub injuries: Track,
    /// Stresses carried, kept from a sheet.
    pub stresses: Track,
    /// Killed, kept from a sheet.
    pub dead: bool,
    /// The magic half gained alone by advancement that waits for its pair,
    /// kept from a sheet (R-SA-12).
    pub unpaired: Option<String>,
}

/// How many of each element the starting build plus the advancements taken
/// give ("Building a Starting Character", "Advancement"), as
/// [`Character::from_draft`] counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Specializations of the Main Profession: 1 + one per such advancement.
    pub main_specs: usize,
    /// Specializations of the Side Professions: one per such advancement.
    pub side_specs: usize,
    /// A completed-cycle swap was made: the Specializations are counted
    /// together (they followed their Professions).
    pub swapped: bool,
    /// Side Professions: 1 + one per such advancement.
    pub sides: usize,
    /// Qualities: 2 + one per such advancement.
    pub qualities: usize,
    /// Special Talents: 1 + one per such advancement.
    pub talents: usize,
}

impl Draft {
    /// The sheet this draft writes, legal or not: a choice not made is empty.
    pub fn to_sheet(&self) -> CharacterDraft {
        CharacterDraft {
            name: self.name.clone().unwrap_or_default(),
            player: self.player.clone(),
            profession: ProfessionDraft {
                name: self.profession.clone().unwrap_or_default(),
                specializations: self.specializations.clone(),
            },
            side_professions: self.side_professions.clone(),
            qualities: self.qualities.clone(),
            special_talents: self.special_talents.clone(),
            principle: self.principle.clone().unwrap_or_default(),
            worst_impulse: self.worst_impulse.clone().unwrap_or_default(),
            luck: self.luck.unwrap_or(0),
            weapons: self.weapons.clone(),
            advancements: self.advancements.clone(),
            cycle_changes: self.cycle_changes.clone(),
            advancement_due: self.advancement_due,
            injuries: self.injuries.clone(),
            stresses: self.stresses.clone(),
            dead: self.dead,
            unpaired: self.unpaired.clone(),
        }
    }

    /// The draft a sheet is: empty texts are choices not made; Luck 0 is no
    /// Luck field.
    pub fn from_sheet(s: CharacterDraft) -> Draft {
        let some = |t: String| Some(t).filter(|t| !t.is_empty());
        Draft {
            name: some(s.name),
            player: s.player,
            profession: some(s.profession.name),
            specializations: s.profession.specializations,
            side_professions: s.side_professions,
            qualities: s.qualities,
            special_talents: s.special_talents,
            principle: some(s.principle),
            worst_impulse: some(s.worst_impulse),
            weapons: s.weapons,
            luck: Some(s.luck).filter(|&l| l > 0),
            advancements: s.advancements,
            cycle_changes: s.cycle_changes,
            advancement_due: s.advancement_due,
            injuries: s.injuries,
            stresses: s.stresses,
            dead: s.dead,
            unpaired: s.unpaired,
        }
    }

    /// What the starting build plus the advancements taken give.
    pub fn counts(&self) -> Counts {
        let n = |k: AdvanceKind| self.advancements.iter().filter(|a| **a == k).count();
        Counts {
            main_specs: 1usize.saturating_add(n(AdvanceKind::ProfessionSpecialization)),
            side_specs: n(AdvanceKind::SideSpecialization),
            swapped: self.cycle_changes.contains(&CycleChangeKind::Swap),
            sides: 1usize.saturating_add(n(AdvanceKind::SideProfession)),
            qualities: 2usize.saturating_add(n(AdvanceKind::Quality)),
            talents: 1usize.saturating_add(n(AdvanceKind::SpecialTalent)),
        }
    }

    fn side_spec_total(&self) -> usize {
        self.side_professions
            .iter()
            .fold(0usize, |n, s| n.saturating_add(s.specializations.len()))
    }

    /// The Main Profession takes another Specialization now.
    fn main_open(&self) -> bool {
        let c = self.counts();
        let room = self.specializations.len() < MAX_ELEMENTS;
        if c.swapped {
            room && self
                .specializations
                .len()
                .saturating_add(self.side_spec_total())
                < c.main_specs.saturating_add(c.side_specs)
        } else {
            room && self.specializations.len() < c.main_specs
        }
    }

    /// The Side Professions take another Specialization now.
    fn side_open(&self) -> bool {
        let c = self.counts();
        if c.swapped {
            self.specializations
                .len()
                .saturating_add(self.side_spec_total())
                < c.main_specs.saturating_add(c.side_specs)
        } else {
            self.side_spec_total() < c.side_specs
        }
    }

    fn sides_open(&self) -> bool {
        self.side_professions.len() < self.counts().sides.min(MAX_ELEMENTS)
    }

    fn qualities_open(&self) -> bool {
        self.qualities.len() < self.counts().qualities.min(MAX_ELEMENTS)
    }

    fn talents_open(&self) -> bool {
        self.special_talents.len() < self.counts().talents.min(MAX_ELEMENTS)
    }
}

/// One field of a draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Player,
    Profession,
    Spec(usize),
    SideName(usize),
    SideSpec(usize, usize),
    Quality(usize),
    TalentName(usize),
    TalentText(usize),
    TalentEffect(usize),
    TalentAmount(usize),
    TalentMagic(usize),
    Principle,
    WorstImpulse,
    WeaponName(usize),
    WeaponLevel(usize),
    Luck,
}

fn key_of(f: Field) -> String {
    match f {
        Field::Name => "name".into(),
        Field::Player => "player".into(),
        Field::Profession => "profession".into(),
        Field::Spec(j) => format!("profession.specializations.{j}"),
        Field::SideName(i) => format!("side_professions.{i}.name"),
        Field::SideSpec(i, j) => format!("side_professions.{i}.specializations.{j}"),
        Field::Quality(i) => format!("qualities.{i}"),
        Field::TalentName(i) => format!("special_talents.{i}.name"),
        Field::TalentText(i) => format!("special_talents.{i}.text"),
        Field::TalentEffect(i) => format!("special_talents.{i}.effect"),
        Field::TalentAmount(i) => format!("special_talents.{i}.amount"),
        Field::TalentMagic(i) => format!("special_talents.{i}.magic"),
        Field::Principle => "principle".into(),
        Field::WorstImpulse => "worst_impulse".into(),
        Field::WeaponName(i) => format!("weapons.{i}.name"),
        Field::WeaponLevel(i) => format!("weapons.{i}.level"),
        Field::Luck => "luck".into(),
    }
}

fn index(s: &str) -> Option<usize> {
    // Digits only: no sign, no spaces; at most the table's list limit.
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 4 {
        return None;
    }
    s.parse().ok()
}

fn parse_key(key: &str) -> Option<Field> {
    let parts: Vec<&str> = key.split('.').collect();
    Some(match parts.as_slice() {
        ["name"] => Field::Name,
        ["player"] => Field::Player,
        ["profession"] => Field::Profession,
        ["profession", "specializations", j] => Field::Spec(index(j)?),
        ["side_professions", i, "name"] => Field::SideName(index(i)?),
        ["side_professions", i, "specializations", j] => Field::SideSpec(index(i)?, index(j)?),
        ["qualities", i] => Field::Quality(index(i)?),
        ["special_talents", i, "name"] => Field::TalentName(index(i)?),
        ["special_talents", i, "text"] => Field::TalentText(index(i)?),
        ["special_talents", i, "effect"] => Field::TalentEffect(index(i)?),
        ["special_talents", i, "amount"] => Field::TalentAmount(index(i)?),
        ["special_talents", i, "magic"] => Field::TalentMagic(index(i)?),
        ["principle"] => Field::Principle,
        ["worst_impulse"] => Field::WorstImpulse,
        ["weapons", i, "name"] => Field::WeaponName(index(i)?),
        ["weapons", i, "level"] => Field::WeaponLevel(index(i)?),
        ["luck"] => Field::Luck,
        _ => return None,
    })
}

/// True when `f` is a field of `d` now (open slots included).
fn offered(d: &Draft, f: Field) -> bool {
    let talent = |i: usize| d.special_talents.get(i);
    match f {
        Field::Name
        | Field::Player
        | Field::Profession
        | Field::Principle
        | Field::WorstImpulse => true,
        Field::Spec(j) => {
            j < d.specializations.len() || (j == d.specializations.len() && d.main_open())
        }
        Field::SideName(i) => {
            i < d.side_professions.len() || (i == d.side_professions.len() && d.sides_open())
        }
        Field::SideSpec(i, j) => d.side_professions.get(i).is_some_and(|s| {
            j < s.specializations.len()
                || (j == s.specializations.len()
                    && d.side_open()
                    && s.specializations.len() < MAX_ELEMENTS)
        }),
        Field::Quality(i) => {
            i < d.qualities.len() || (i == d.qualities.len() && d.qualities_open())
        }
        Field::TalentName(i) => {
            i < d.special_talents.len() || (i == d.special_talents.len() && d.talents_open())
        }
        Field::TalentText(i) | Field::TalentEffect(i) | Field::TalentMagic(i) => {
            talent(i).is_some()
        }
        Field::TalentAmount(i) => talent(i).is_some_and(|t| t.effect.is_some_and(has_amount)),
        Field::WeaponName(i) => {
            i < d.weapons.len() || (i == d.weapons.len() && d.weapons.len() < MAX_ELEMENTS)
        }
        Field::WeaponLevel(i) => i < d.weapons.len(),
        Field::Luck => d.luck.is_some(),
    }
}

// ---- Special Talent effects ----------------------------------------------

/// The kinds of [`TalentEffect`], as the builder offers them, with the book's
/// example of each ("Special Talents").
const EFFECTS: [(&str, &str, &str); 8] = [
    (
        "none",
        "No effect on a roll",
        "Something a character can always do, or an ability like Spellcaster: Special Talents do not have to add dice.",
    ),
    (
        "bonus-dice",
        "Bonus dice in a situation",
        "One with the Forest - This character adds a bonus die to all checks made within temperate wooded areas (a situation applicable less than a third of the time).",
    ),
    (
        "tn-cap",
        "The TN is never more than",
        "Hide in Plain Sight - The TN to hide for this character is never more than 4.",
    ),
    (
        "tn-reduction",
        "The TN is reduced",
        "A situation in which a character always reduces the TN for a check.",
    ),
    (
        "extra-hits",
        "Extra Hits on a success",
        "Deadly Aim - This character generates one additional Hit if they succeed in a check to shoot a bow.",
    ),
    (
        "extra-spares",
        "Automatic Spares",
        "Lucky in Love - This character adds two Spares to all checks related to romance or seduction.",
    ),
    (
        "extra-spirals",
        "Automatic Spirals",
        "A situation in which a character modifies the results of the roll with Spirals.",
    ),
    (
        "ignore-injury",
        "Ignore one Injury's TN increase",
        "Usually Bloody - This character may ignore the TN increase from a single Injury.",
    ),
];

fn effect_name(e: Option<TalentEffect>) -> &'static str {
    match e {
        None => "none",
        Some(TalentEffect::BonusDice { .. }) => "bonus-dice",
        Some(TalentEffect::TnCap { .. }) => "tn-cap",
        Some(TalentEffect::TnReduction { .. }) => "tn-reduction",
        Some(TalentEffect::ExtraHits { .. }) => "extra-hits",
        Some(TalentEffect::ExtraSpares { .. }) => "extra-spares",
        Some(TalentEffect::ExtraSpirals { .. }) => "extra-spirals",
        Some(TalentEffect::IgnoreInjury) => "ignore-injury",
    }
}

/// The effect called `name` with the book's example amount.
fn effect_of(name: &str) -> Option<Option<TalentEffect>> {
    Some(match name {
        "none" => None,
        "bonus-dice" => Some(TalentEffect::BonusDice { dice: 1 }),
        "tn-cap" => Some(TalentEffect::TnCap { max: 4 }),
        "tn-reduction" => Some(TalentEffect::TnReduction { by: 1 }),
        "extra-hits" => Some(TalentEffect::ExtraHits { hits: 1 }),
        "extra-spares" => Some(TalentEffect::ExtraSpares { spares: 2 }),
        "extra-spirals" => Some(TalentEffect::ExtraSpirals { spirals: 1 }),
        "ignore-injury" => Some(TalentEffect::IgnoreInjury),
        _ => return None,
    })
}

fn has_amount(e: TalentEffect) -> bool {
    !matches!(e, TalentEffect::IgnoreInjury)
}

fn amount_of(e: TalentEffect) -> u32 {
    match e {
        TalentEffect::BonusDice { dice } => dice,
        TalentEffect::TnCap { max } => max,
        TalentEffect::TnReduction { by } => by,
        TalentEffect::ExtraHits { hits } => hits,
        TalentEffect::ExtraSpares { spares } => spares,
        TalentEffect::ExtraSpirals { spirals } => spirals,
        TalentEffect::IgnoreInjury => 0,
    }
}

fn with_amount(e: TalentEffect, n: u32) -> TalentEffect {
    match e {
        TalentEffect::BonusDice { .. } => TalentEffect::BonusDice { dice: n },
        TalentEffect::TnCap { .. } => TalentEffect::TnCap { max: n },
        TalentEffect::TnReduction { .. } => TalentEffect::TnReduction { by: n },
        TalentEffect::ExtraHits { .. } => TalentEffect::ExtraHits { hits: n },
        TalentEffect::ExtraSpares { .. } => TalentEffect::ExtraSpares { spares: n },
        TalentEffect::ExtraSpirals { .. } => TalentEffect::ExtraSpirals { spirals: n },
        TalentEffect::IgnoreInjury => TalentEffect::IgnoreInjury,
    }
}

/// The amounts the sheet's check allows (`characters::effect_problem`): a TN
/// cap 0 to 5, every other amount 1 to 3.
fn amount_range(e: TalentEffect) -> (i64, i64) {
    match e {
        TalentEffect::TnCap { .. } => (0, 5),
        _ => (1, 3),
    }
}

const MAGIC: [(&str, &str, &str); 3] = [
    (
        "from-words",
        "Read from its name and text",
        "Magical when its name or text speaks of magic, the divine or spells (Spellcaster).",
    ),
    (
        "magical",
        "Grants magical or divine abilities",
        "Needs a specific Quality too (Magically Trained, Magical, Annointed): R-SA-10.",
    ),
    (
        "not-magical",
        "Grants no magical or divine abilities",
        "Whatever its words say (a Spell Breaker immune to magic).",
    ),
];

fn magic_name(m: Option<bool>) -> &'static str {
    match m {
        None => "from-words",
        Some(true) => "magical",
        Some(false) => "not-magical",
    }
}

const LEVELS: [(&str, &str, &str); 3] = [
    (
        "minor",
        "Minor",
        "Knife, low draw weight bow and arrow, .22 caliber pistol.",
    ),
    (
        "moderate",
        "Moderate",
        "Sword, large dagger, spear, handgun, hunting rifle.",
    ),
    ("severe", "Severe", "Sniper rifle, shotgun, chainsaw."),
];

fn options(list: &[(&str, &str, &str)]) -> Vec<ChoiceOption> {
    list.iter()
        .map(|(value, label, help)| ChoiceOption {
            value: (*value).into(),
            label: (*label).into(),
            help: (*help).into(),
        })
        .collect()
}

// ---- Problems --------------------------------------------------------------

/// The builder's key for a field path of the validator (`qualities[1]`,
/// `side_professions[0].name`), when the draft has such a field.
fn key_for_path(d: &Draft, path: &str) -> Option<String> {
    let dotted = path.replace('[', ".").replace(']', "");
    let dotted = if dotted == "profession.name" {
        "profession".to_string()
    } else {
        dotted
    };
    parse_key(&dotted).filter(|&f| offered(d, f)).map(key_of)
}

fn last_key(d: &Draft, list: &str) -> Option<String> {
    let f = match list {
        "profession.specializations" => Field::Spec(d.specializations.len().checked_sub(1)?),
        "side_professions" => Field::SideName(d.side_professions.len().checked_sub(1)?),
        "qualities" => Field::Quality(d.qualities.len().checked_sub(1)?),
        "special_talents" => Field::TalentName(d.special_talents.len().checked_sub(1)?),
        _ => {
            // The last Side Specialization.
            let (i, s) = d
                .side_professions
                .iter()
                .enumerate()
                .rfind(|(_, s)| !s.specializations.is_empty())?;
            Field::SideSpec(i, s.specializations.len() - 1)
        }
    };
    Some(key_of(f))
}

/// The open slot of a list, if it is offered.
fn open_key(d: &Draft, list: &str) -> Option<String> {
    let f = match list {
        "profession.specializations" => Field::Spec(d.specializations.len()),
        "side_professions" => Field::SideName(d.side_professions.len()),
        "qualities" => Field::Quality(d.qualities.len()),
        "special_talents" => Field::TalentName(d.special_talents.len()),
        _ => {
            let s = d.side_professions.first()?;
            Field::SideSpec(0, s.specializations.len())
        }
    };
    offered(d, f).then(|| key_of(f))
}

/// One [`DraftProblem`] of [`Character::from_draft`] as a [`BuildProblem`]:
/// the rule, the message, the builder's field, and whether it is merely
/// unfinished.
pub fn build_problem(d: &Draft, p: &DraftProblem) -> BuildProblem {
    let mut unfinished = false;
    let field = match p {
        DraftProblem::NoName => {
            unfinished = d.name.is_none();
            Some("name".to_string())
        }
        DraftProblem::Name { problem } => {
            let f = match problem {
                tabula_core::names::NameError::Empty { field }
                | tabula_core::names::NameError::TooLong { field, .. }
                | tabula_core::names::NameError::ControlCharacter { field, .. }
                | tabula_core::names::NameError::Colon { field } => field,
            };
            Some(if f == "player" { "player" } else { "name" }.to_string())
        }
        DraftProblem::PlayerIsGm { .. } => Some("player".into()),
        DraftProblem::ControlCharacter { field, .. }
        | DraftProblem::TooLong { field }
        | DraftProblem::EmptyElement { field }
        | DraftProblem::Duplicate { field, .. }
        | DraftProblem::TooGeneric { field, .. } => key_for_path(d, field),
        DraftProblem::ProfessionWords { field, .. } => {
            if field == "profession.name" {
                unfinished = d.profession.is_none();
            }
            key_for_path(d, field)
        }
        DraftProblem::TooMany { .. }
        | DraftProblem::UnpairedMark { .. }
        | DraftProblem::CycleRule { .. }
        | DraftProblem::CycleChanges { .. } => None,
        DraftProblem::MagicWithoutQuality { field, .. } => {
            // R-SA-10: the Quality may still come in an open slot.
            if d.qualities_open() {
                unfinished = true;
                open_key(d, "qualities")
            } else {
                key_for_path(d, &format!("{field}.name"))
            }
        }
        DraftProblem::MagicQualityWithoutTalent { field, .. } => {
            // R-SA-10: the Special Talent may still come in an open slot.
            if d.talents_open() {
                unfinished = true;
                open_key(d, "special_talents")
            } else {
                key_for_path(d, field)
            }
        }
        DraftProblem::Missing { field, .. } => match field.as_str() {
            "principle" => {
                unfinished = d.principle.is_none();
                Some(field.clone())
            }
            "worst_impulse" => {
                unfinished = d.worst_impulse.is_none();
                Some(field.clone())
            }
            list => {
                unfinished = true;
                open_key(d, list)
            }
        },
        DraftProblem::BuildCount {
            field,
            expected,
            got,
        } => {
            let list = match field.as_str() {
                "side_professions[].specializations" => "side",
                "specializations (all Professions)" => "profession.specializations",
                other => other,
            };
            if got < expected {
                unfinished = true;
                open_key(d, list).or_else(|| {
                    if list == "profession.specializations" {
                        open_key(d, "side")
                    } else {
                        None
                    }
                })
            } else {
                last_key(d, list).or_else(|| last_key(d, "side"))
            }
        }
        DraftProblem::Luck { .. } => Some("luck".into()),
        DraftProblem::TalentEffect { index, .. } => {
            key_for_path(d, &format!("special_talents[{index}].amount"))
        }
    };
    BuildProblem {
        field,
        rule: p.rule(),
        message: p.to_string(),
        unfinished,
    }
}

/// Every problem of `d`: the [`DraftProblem`]s of [`Character::from_draft`] on
/// [`Draft::to_sheet`], each with the builder's field and whether it is merely
/// unfinished.
pub fn problems(d: &Draft) -> Vec<BuildProblem> {
    match Character::from_draft(d.to_sheet()) {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(|p| build_problem(d, p)).collect(),
    }
}

// ---- The view ----------------------------------------------------------------

fn text_field(
    f: Field,
    label: &str,
    help: &str,
    max_chars: usize,
    value: Option<&str>,
    required: bool,
) -> FieldView {
    FieldView {
        key: key_of(f),
        label: label.into(),
        help: help.into(),
        kind: FieldKind::Text { max_chars },
        value: value.map(|v| FieldValue::Text(v.to_string())),
        required,
    }
}

fn choice_field(
    f: Field,
    label: &str,
    help: &str,
    list: &[(&str, &str, &str)],
    value: &str,
) -> FieldView {
    FieldView {
        key: key_of(f),
        label: label.into(),
        help: help.into(),
        kind: FieldKind::Choice {
            options: options(list),
        },
        value: Some(FieldValue::Text(value.into())),
        required: false,
    }
}

fn step(id: &str, title: &str, help: &str, rule: Rule, fields: Vec<FieldView>) -> StepView {
    StepView {
        id: id.into(),
        title: title.into(),
        help: help.into(),
        rule,
        fields,
        done: false,
    }
}

fn concept_step(d: &Draft) -> StepView {
    step(
        "concept",
        "1. Concept",
        "First come up with a concept for a character that fits into the setting of your game, as presented by the GM: what type of person might be enjoyable to play. Then translate their description into elements.",
        RULE_CONCEPT,
        vec![
            text_field(
                Field::Name,
                "Name",
                "What your character is called (at most 64 characters).",
                MAX_NAME_CHARS,
                d.name.as_deref(),
                true,
            ),
            text_field(
                Field::Player,
                "Player",
                "The seat that plays the character at a table; leave it empty for a character the GM plays.",
                MAX_NAME_CHARS,
                Some(d.player.as_deref().unwrap_or("")),
                false,
            ),
        ],
    )
}

fn profession_step(d: &Draft) -> StepView {
    step(
        "profession",
        "2. Pick a Profession",
        "A Main Profession is the package of skills your character possesses, like \"Shopkeeper\", \"Arcane Knight\" or \"Desert Commando\". It should be two or less words and encapsulate what you want your character to be good at. Invoked, it adds two dice when fully applicable, one when partially.",
        RULE_STARTING,
        vec![text_field(
            Field::Profession,
            "Main Profession",
            "Two words or less, e.g. Roof Runner.",
            MAX_TEXT_CHARS,
            d.profession.as_deref(),
            true,
        )],
    )
}

fn specializations_step(d: &Draft) -> StepView {
    let c = d.counts();
    let mut fields = Vec::new();
    for (j, s) in d.specializations.iter().enumerate() {
        fields.push(text_field(
            Field::Spec(j),
            &format!("Specialization {}", j + 1),
            "A single skill or topic within the Main Profession (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(s),
            true,
        ));
    }
    if d.main_open() {
        fields.push(text_field(
            Field::Spec(d.specializations.len()),
            if d.specializations.is_empty() {
                "Specialization"
            } else {
                "Another Specialization"
            },
            "A single skill or area of expertise your character excels at, e.g. Leaping, Quick Escapes, Wilderness Survival, Pyromancy. Invoked when applicable, it adds a die.",
            MAX_TEXT_CHARS,
            None,
            !c.swapped,
        ));
    }
    step(
        "specializations",
        "3. Pick one Specialization under that Profession",
        "A Specialization is a single skill or topic within a Profession that your character excels at. When you imagined your character concept, you probably envisioned them doing something: those are perfect candidates.",
        RULE_STARTING,
        fields,
    )
}

fn sides_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    let side_open = d.side_open();
    for (i, side) in d.side_professions.iter().enumerate() {
        fields.push(text_field(
            Field::SideName(i),
            &format!("Side Profession {}", i + 1),
            "Two words or less (clear it to drop it with its Specializations).",
            MAX_TEXT_CHARS,
            Some(&side.name),
            true,
        ));
        for (j, s) in side.specializations.iter().enumerate() {
            fields.push(text_field(
                Field::SideSpec(i, j),
                &format!("{}: Specialization {}", side.name.trim(), j + 1),
                "A Specialization an advancement gave under this Side Profession.",
                MAX_TEXT_CHARS,
                Some(s),
                true,
            ));
        }
        if side_open && side.specializations.len() < MAX_ELEMENTS {
            fields.push(text_field(
                Field::SideSpec(i, side.specializations.len()),
                &format!("{}: another Specialization", side.name.trim()),
                "The advancements taken give a Specialization under a Side Profession not yet written.",
                MAX_TEXT_CHARS,
                None,
                false,
            ));
        }
    }
    if d.sides_open() {
        fields.push(text_field(
            Field::SideName(d.side_professions.len()),
            if d.side_professions.is_empty() {
                "Side Profession"
            } else {
                "Another Side Profession"
            },
            "Something else your character is good at, two words or less: what their upbringing gave them, a hobby, their job (a Roof Runner may work as a Night Clerk). Invoked, it adds one die.",
            MAX_TEXT_CHARS,
            None,
            true,
        ));
    }
    step(
        "side-professions",
        "4. Pick a Side Profession, but no Specializations (yet)",
        "A Side Profession functions just like a Main Profession, but contributes only one die to the pool when invoked. Its Specializations come with advancement.",
        RULE_STARTING,
        fields,
    )
}

fn qualities_step(d: &Draft) -> StepView {
    let examples = EXAMPLE_QUALITIES.join(", ");
    let mut fields = Vec::new();
    for (i, q) in d.qualities.iter().enumerate() {
        fields.push(text_field(
            Field::Quality(i),
            &format!("Quality {}", i + 1),
            "A (usually positive) descriptor of your character (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(q),
            true,
        ));
    }
    if d.qualities_open() {
        fields.push(text_field(
            Field::Quality(d.qualities.len()),
            &format!("Quality {}", d.qualities.len().saturating_add(1)),
            &format!(
                "An adjective that defines your character even outside their skill set. The book's examples: {examples}. Not so broad it could apply anywhere (\"Lucky\" and \"Competent\" are refused). The starred ones (Magically Trained, Magical, Annointed) go with a magical Special Talent."
            ),
            MAX_TEXT_CHARS,
            None,
            true,
        ));
    }
    step(
        "qualities",
        "5. Pick two Qualities",
        "Qualities are traits that define your character: strong, smart, beautiful, eloquent, or just plain slippery. One Quality may be invoked for a check, adding a die. In a setting with magical or divine abilities, characters possessing these abilities must take both a specific Quality and a Special Talent to use them.",
        RULE_STARTING,
        fields,
    )
}

fn talents_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    for (i, t) in d.special_talents.iter().enumerate() {
        fields.push(text_field(
            Field::TalentName(i),
            &format!("Special Talent {}", i + 1),
            "Its name (clear it to drop the Special Talent).",
            MAX_TEXT_CHARS,
            Some(&t.name),
            true,
        ));
        fields.push(text_field(
            Field::TalentText(i),
            &format!("{}: what it does", t.name.trim()),
            "In a sentence, e.g. \"This character always knows what the weather will be tomorrow\".",
            MAX_TALENT_TEXT,
            Some(&t.text),
            false,
        ));
        fields.push(choice_field(
            Field::TalentEffect(i),
            &format!("{}: effect on a roll", t.name.trim()),
            "How it changes a roll when you call it out, if it does.",
            &EFFECTS,
            effect_name(t.effect),
        ));
        if let Some(e) = t.effect.filter(|e| has_amount(*e)) {
            let (min, max) = amount_range(e);
            fields.push(FieldView {
                key: key_of(Field::TalentAmount(i)),
                label: format!("{}: how much", t.name.trim()),
                help: match e {
                    TalentEffect::TnCap { .. } => "The TN is never more than this (0 to 5).",
                    _ => {
                        "How many dice, Hits, Spares or Spirals, or how much the TN drops (1 to 3)."
                    }
                }
                .into(),
                kind: FieldKind::Int { min, max },
                value: Some(FieldValue::Int(i64::from(amount_of(e)))),
                required: false,
            });
        }
        fields.push(choice_field(
            Field::TalentMagic(i),
            &format!("{}: magical or divine", t.name.trim()),
            "Magical or divine abilities need both a specific Quality and a Special Talent (R-SA-10).",
            &MAGIC,
            magic_name(t.magic),
        ));
    }
    if d.talents_open() {
        fields.push(text_field(
            Field::TalentName(d.special_talents.len()),
            if d.special_talents.is_empty() {
                "Special Talent"
            } else {
                "Another Special Talent"
            },
            "A way to \"break the rules\": something your character can always do (Weather Sense, Small Contraption), bonus dice in an uncommon situation (One with the Forest), a lower TN (Hide in Plain Sight, Usually Bloody), changed results (Deadly Aim, Lucky in Love), or a supernatural ability (Teleportation, Spellcaster).",
            MAX_TEXT_CHARS,
            None,
            true,
        ));
    }
    step(
        "special-talents",
        "6. Pick one Special Talent",
        "Special Talents are unique abilities that differentiate your character from others with similar Professions and Qualities. They are not invoked like elements and only apply when your character is focal. The GM works with you on what the setting permits.",
        RULE_STARTING,
        fields,
    )
}

fn principles_step(d: &Draft) -> StepView {
    step(
        "principles",
        "7. Principle and Worst Impulse",
        "Each a word to a phrase: the Principle is the character's better nature, the Worst Impulse their vice, flaw or bad habit. Sacrificing for one or overindulging the other adds a bonus die; trouble from them earns Luck.",
        RULE_PRINCIPLES,
        vec![
            text_field(
                Field::Principle,
                "Principle",
                "The idea your character gravitates to when helping others, e.g. \"Violence is not the answer\".",
                MAX_TEXT_CHARS,
                d.principle.as_deref(),
                true,
            ),
            text_field(
                Field::WorstImpulse,
                "Worst Impulse",
                "The vice that inevitably results in trouble, e.g. \"Stealing isn't a big deal\".",
                MAX_TEXT_CHARS,
                d.worst_impulse.as_deref(),
                true,
            ),
        ],
    )
}

fn weapons_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    for (i, w) in d.weapons.iter().enumerate() {
        fields.push(text_field(
            Field::WeaponName(i),
            &format!("Weapon {}", i + 1),
            "The weapon (clear it to drop it).",
            MAX_TEXT_CHARS,
            Some(&w.name),
            true,
        ));
        fields.push(choice_field(
            Field::WeaponLevel(i),
            &format!("{}: base injury level", w.name.trim()),
            "The Injury a hit deals before extra Hits upgrade it.",
            &LEVELS,
            match w.level {
                Level::Minor => "minor",
                Level::Moderate => "moderate",
                Level::Severe => "severe",
            },
        ));
    }
    if d.weapons.len() < MAX_ELEMENTS {
        fields.push(text_field(
            Field::WeaponName(d.weapons.len()),
            "Another weapon",
            "A weapon your character carries (its level starts Minor; set it next). Leave empty when done.",
            MAX_TEXT_CHARS,
            Some(""),
            false,
        ));
    }
    step(
        "weapons",
        "8. Weapons",
        "Weapons have a base injury level: when a character gains a weapon, note whether this level is Minor, Moderate, or Severe. A character needs none.",
        RULE_WEAPONS,
        fields,
    )
}

fn luck_step(d: &Draft) -> StepView {
    let mut fields = Vec::new();
    if let Some(l) = d.luck {
        fields.push(FieldView {
            key: key_of(Field::Luck),
            label: "Luck".into(),
            help: "Luck held from play (clear it for none).".into(),
            kind: FieldKind::Int {
                min: 0,
                max: i64::from(MAX_LUCK),
            },
            value: Some(FieldValue::Int(i64::from(l))),
            required: false,
        });
    }
    step(
        "luck",
        "9. Luck",
        "Luck is gained in play, for enhancing the story through your choices (between 1 and 3 a session); a starting character has none. Spend it one for one for bonus dice.",
        RULE_LUCK,
        fields,
    )
}

fn budgets(d: &Draft) -> Vec<Budget> {
    let c = d.counts();
    let n = |x: usize| i64::try_from(x).unwrap_or(i64::MAX);
    let mut out = Vec::new();
    if c.swapped {
        out.push(Budget {
            name: "Specializations".into(),
            total: n(c.main_specs.saturating_add(c.side_specs)),
            spent: n(d.specializations.len().saturating_add(d.side_spec_total())),
            rule: RULE_STARTING,
        });
    } else {
        out.push(Budget {
            name: "Specializations (Main Profession)".into(),
            total: n(c.main_specs),
            spent: n(d.specializations.len()),
            rule: RULE_STARTING,
        });
        if c.side_specs > 0 || d.side_spec_total() > 0 {
            out.push(Budget {
                name: "Specializations (Side Professions)".into(),
                total: n(c.side_specs),
                spent: n(d.side_spec_total()),
                rule: RULE_STARTING,
            });
        }
    }
    for (name, total, spent) in [
        ("Side Professions", c.sides, d.side_professions.len()),
        ("Qualities", c.qualities, d.qualities.len()),
        ("Special Talents", c.talents, d.special_talents.len()),
    ] {
        out.push(Budget {
            name: name.into(),
            total: n(total),
            spent: n(spent),
            rule: RULE_STARTING,
        });
    }
    out
}

fn derived(d: &Draft) -> Vec<Derived> {
    let mut out = Vec::new();
    let prof = d.profession.as_deref().unwrap_or("").trim();
    out.push(Derived {
        name: "Main Profession".into(),
        value: if prof.is_empty() {
            "not chosen".into()
        } else {
            format!("{prof}: 2 dice fully applicable, 1 partially")
        },
        rule: RULE_PROFESSIONS,
    });
    let sides: Vec<&str> = d.side_professions.iter().map(|s| s.name.trim()).collect();
    out.push(Derived {
        name: "Side Professions".into(),
        value: if sides.is_empty() {
            "none yet".into()
        } else {
            format!("{}: 1 die each", sides.join(", "))
        },
        rule: RULE_PROFESSIONS,
    });
    let specs: Vec<&str> = d
        .specializations
        .iter()
        .chain(d.side_professions.iter().flat_map(|s| &s.specializations))
        .map(|s| s.trim())
        .collect();
    out.push(Derived {
        name: "Specializations".into(),
        value: if specs.is_empty() {
            "none yet".into()
        } else {
            format!("{}: +1 die each, with their Profession", specs.join(", "))
        },
        rule: RULE_PROFESSIONS,
    });
    out.push(Derived {
        name: "Qualities".into(),
        value: if d.qualities.is_empty() {
            "none yet".into()
        } else {
            format!("{}: one per check, +1 die", d.qualities.join(", "))
        },
        rule: RULE_QUALITIES,
    });
    let magic_q: Vec<&str> = d
        .qualities
        .iter()
        .filter(|q| is_magic_quality(q))
        .map(|q| q.trim())
        .collect();
    let magic_t: Vec<&str> = d
        .special_talents
        .iter()
        .filter(|t| t.grants_magic())
        .map(|t| t.name.trim())
        .collect();
    out.push(Derived {
        name: "Magic".into(),
        value: match (magic_q.is_empty(), magic_t.is_empty()) {
            (true, true) => "none".into(),
            (false, false) => format!(
                "Quality {} with Special Talent {}",
                magic_q.join(", "),
                magic_t.join(", ")
            ),
            (false, true) => format!(
                "Quality {} still needs a Special Talent that grants magic",
                magic_q.join(", ")
            ),
            (true, false) => format!(
                "Special Talent {} still needs a magical Quality",
                magic_t.join(", ")
            ),
        },
        rule: RULE_MAGIC,
    });
    if let Some(u) = &d.unpaired
        && (magic_q.is_empty() || magic_t.is_empty())
    {
        out.push(Derived {
            name: "Unpaired".into(),
            value: format!(
                "{} was gained alone by advancement and gives nothing until its pair is gained",
                u.trim()
            ),
            rule: crate::characters::RULE_MAGIC_UNPAIRED,
        });
    }
    out.push(Derived {
        name: "Largest dice pool".into(),
        value: "6: 1, +2 Profession, +1 Specialization, +1 Quality, +bonus dice".into(),
        rule: Rule::book(crate::BOOK, "Using The Spiral Dice"),
    });
    if !d.advancements.is_empty() {
        let cycle = crate::characters::cycles(&d.advancements).unwrap_or_default();
        out.push(Derived {
            name: "Advancements".into(),
            value: format!(
                "{} taken, {} cycle(s) complete, {} change(s) made",
                d.advancements.len(),
                cycle.completed,
                d.cycle_changes.len()
            ),
            rule: crate::characters::RULE_ADVANCEMENT,
        });
    }
    if d.advancement_due {
        out.push(Derived {
            name: "Advancement due".into(),
            value: "one, after a consequential session".into(),
            rule: crate::table::RULE_SESSION,
        });
    }
    for (name, t) in [("Injuries", &d.injuries), ("Stresses", &d.stresses)] {
        if !t.is_clear() {
            let mut v: Vec<String> = t
                .entries()
                .iter()
                .map(|(b, n)| format!("{} {n}", b.level))
                .collect();
            if t.debilitated {
                v.push("debilitated".into());
            }
            out.push(Derived {
                name: name.into(),
                value: v.join(", "),
                rule: crate::harm::RULE_INJURIES,
            });
        }
    }
    if d.dead {
        out.push(Derived {
            name: "Dead".into(),
            value: "killed: damage past Severe".into(),
            rule: RULE_WEAPONS,
        });
    }
    out
}

/// Everything a front end shows of `d`: the book's steps in order, the counts
/// the starting build gives, derived values and every problem.
pub fn build_view(d: &Draft) -> BuildView {
    BuildView {
        system: ID.into(),
        steps: vec![
            concept_step(d),
            profession_step(d),
            specializations_step(d),
            sides_step(d),
            qualities_step(d),
            talents_step(d),
            principles_step(d),
            weapons_step(d),
            luck_step(d),
        ],
        budgets: budgets(d),
        derived: derived(d),
        problems: problems(d),
        next: None,
        complete: false,
    }
    .settle()
}

// ---- Changing a draft --------------------------------------------------------

fn known_keys(d: &Draft) -> String {
    build_view(d)
        .steps
        .iter()
        .flat_map(|s| s.fields.iter().map(|f| f.key.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn field(d: &Draft, key: &str) -> Result<Field, BuildRefusal> {
    parse_key(key)
        .filter(|&f| offered(d, f))
        .ok_or_else(|| BuildRefusal::UnknownField {
            key: key.into(),
            known: known_keys(d),
        })
}

fn bad(key: &str, message: impl Into<String>) -> BuildRefusal {
    BuildRefusal::BadValue {
        key: key.into(),
        message: message.into(),
    }
}

fn want_text(key: &str, v: &FieldValue, max: usize) -> Result<String, BuildRefusal> {
    match v {
        FieldValue::Text(t) if t.chars().count() <= max => Ok(t.clone()),
        FieldValue::Text(_) => Err(bad(key, format!("at most {max} characters"))),
        _ => Err(bad(key, "text is expected")),
    }
}

fn want_choice(
    key: &str,
    v: &FieldValue,
    list: &[(&'static str, &'static str, &'static str)],
) -> Result<&'static str, BuildRefusal> {
    let FieldValue::Text(t) = v else {
        return Err(bad(key, "one of the options is expected"));
    };
    list.iter()
        .map(|(value, _, _)| *value)
        .find(|value| value == t)
        .ok_or_else(|| {
            bad(
                key,
                format!(
                    "{t:?} is not an option ({})",
                    list.iter()
                        .map(|(v, _, _)| *v)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// Put `t` at `j` of `list`, or add it when `j` is the open slot.
fn put(list: &mut Vec<String>, j: usize, t: String) {
    match list.get_mut(j) {
        Some(slot) => *slot = t,
        None => list.push(t),
    }
}

/// Set `key` to `value` checking only the value's kind (text within its
/// length, an offered option, a number the field can hold): the draft may
/// break the book's rules afterwards. On a refusal `d` is unchanged.
///
/// # Errors
/// [`BuildRefusal::UnknownField`], [`BuildRefusal::BadValue`].
pub fn force(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    let f = field(d, key)?;
    let mut n = d.clone();
    match f {
        Field::Name => n.name = Some(want_text(key, value, MAX_NAME_CHARS)?),
        Field::Player => {
            let t = want_text(key, value, MAX_NAME_CHARS)?;
            n.player = Some(t).filter(|t| !t.is_empty());
        }
        Field::Profession => n.profession = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Field::Spec(j) => put(
            &mut n.specializations,
            j,
            want_text(key, value, MAX_TEXT_CHARS)?,
        ),
        Field::SideName(i) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match n.side_professions.get_mut(i) {
                Some(s) => s.name = t,
                None => n.side_professions.push(ProfessionDraft {
                    name: t,
                    specializations: Vec::new(),
                }),
            }
        }
        Field::SideSpec(i, j) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            if let Some(s) = n.side_professions.get_mut(i) {
                put(&mut s.specializations, j, t);
            }
        }
        Field::Quality(i) => put(&mut n.qualities, i, want_text(key, value, MAX_TEXT_CHARS)?),
        Field::TalentName(i) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match n.special_talents.get_mut(i) {
                Some(s) => s.name = t,
                None => n.special_talents.push(Talent {
                    name: t,
                    ..Talent::default()
                }),
            }
        }
        Field::TalentText(i) => {
            let t = want_text(key, value, MAX_TALENT_TEXT)?;
            if let Some(s) = n.special_talents.get_mut(i) {
                s.text = t;
            }
        }
        Field::TalentEffect(i) => {
            let name = want_choice(key, value, &EFFECTS)?;
            if let Some(s) = n.special_talents.get_mut(i)
                && effect_name(s.effect) != name
            {
                s.effect = effect_of(name).unwrap_or(None);
            }
        }
        Field::TalentAmount(i) => {
            let FieldValue::Int(a) = value else {
                return Err(bad(key, "a whole number is expected"));
            };
            let a = u32::try_from(*a).map_err(|_| bad(key, "a whole number 0 or more"))?;
            if let Some(s) = n.special_talents.get_mut(i)
                && let Some(e) = s.effect
            {
                s.effect = Some(with_amount(e, a));
            }
        }
        Field::TalentMagic(i) => {
            let name = want_choice(key, value, &MAGIC)?;
            if let Some(s) = n.special_talents.get_mut(i) {
                s.magic = match name {
                    "magical" => Some(true),
                    "not-magical" => Some(false),
                    _ => None,
                };
            }
        }
        Field::Principle => n.principle = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Field::WorstImpulse => n.worst_impulse = Some(want_text(key, value, MAX_TEXT_CHARS)?),
        Field::WeaponName(i) => {
            let t = want_text(key, value, MAX_TEXT_CHARS)?;
            match n.weapons.get_mut(i) {
                Some(w) => w.name = t,
                // The open slot: empty text adds nothing.
                None if t.is_empty() => {}
                None => n.weapons.push(Weapon {
                    name: t,
                    level: Level::Minor,
                }),
            }
        }
        Field::WeaponLevel(i) => {
            let name = want_choice(key, value, &LEVELS)?;
            if let Some(w) = n.weapons.get_mut(i) {
                w.level = Level::parse(name).unwrap_or(Level::Minor);
            }
        }
        Field::Luck => {
            let FieldValue::Int(l) = value else {
                return Err(bad(key, "a whole number is expected"));
            };
            n.luck = Some(u32::try_from(*l).map_err(|_| bad(key, "a whole number 0 or more"))?);
        }
    }
    *d = n;
    Ok(())
}

/// Set `key` to `value`, refusing a value that breaks a rule `validate` would
/// report: a broken (not merely unfinished) problem the draft did not have
/// before, for the same field and rule.
///
/// # Errors
/// As [`force`], and [`BuildRefusal::Broken`] with the problem; `d` is then
/// unchanged.
pub fn set(d: &mut Draft, key: &str, value: &FieldValue) -> Result<(), BuildRefusal> {
    tabula_core::builder::set_checked(d, key, value, force, problems)
}

/// Take back the choice of `key`: a name, Profession, Principle or Worst
/// Impulse not chosen; a list entry dropped (a Side Profession with its
/// Specializations, a Special Talent whole); a talent's text, effect or magic
/// back to none; a weapon's level back to Minor; no Luck.
///
/// # Errors
/// [`BuildRefusal::UnknownField`].
pub fn clear(d: &mut Draft, key: &str) -> Result<(), BuildRefusal> {
    let f = field(d, key)?;
    let drop = |list: &mut Vec<String>, j: usize| {
        if j < list.len() {
            list.remove(j);
        }
    };
    match f {
        Field::Name => d.name = None,
        Field::Player => d.player = None,
        Field::Profession => d.profession = None,
        Field::Spec(j) => drop(&mut d.specializations, j),
        Field::SideName(i) => {
            if i < d.side_professions.len() {
                d.side_professions.remove(i);
            }
        }
        Field::SideSpec(i, j) => {
            if let Some(s) = d.side_professions.get_mut(i) {
                drop(&mut s.specializations, j);
            }
        }
        Field::Quality(i) => drop(&mut d.qualities, i),
        Field::TalentName(i) => {
            if i < d.special_talents.len() {
                d.special_talents.remove(i);
            }
        }
        Field::TalentText(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.text.clear();
            }
        }
        Field::TalentEffect(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.effect = None;
            }
        }
        Field::TalentAmount(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.effect = t
                    .effect
                    .and_then(|e| effect_of(effect_name(Some(e))).flatten());
            }
        }
        Field::TalentMagic(i) => {
            if let Some(t) = d.special_talents.get_mut(i) {
                t.magic = None;
            }
        }
        Field::Principle => d.principle = None,
        Field::WorstImpulse => d.worst_impulse = None,
        Field::WeaponName(i) => {
            if i < d.weapons.len() {
                d.weapons.remove(i);
            }
        }
        Field::WeaponLevel(i) => {
            if let Some(w) = d.weapons.get_mut(i) {
                w.level = Level::Minor;
            }
        }
        Field::Luck => d.luck = None,
    }
    Ok(())
}

// ---- Sheets --------------------------------------------------------------

/// A sheet as TOML (the format `tabula sapio character validate` reads and
/// table files load with `file = ...`). Never fails on a sheet's values.
pub fn write_sheet(sheet: &CharacterDraft) -> String {
    toml::to_string(sheet).unwrap_or_default()
}

/// The sheet TOML `d` writes, legal or not.
pub fn draft_sheet(d: &Draft) -> String {
    write_sheet(&d.to_sheet())
}

fn file_problem(message: String) -> BuildProblem {
    BuildProblem {
        field: None,
        rule: RULE_SHEET,
        message,
        unfinished: false,
    }
}

/// What `tabula sapio character validate` says of `sheet` (the same
/// [`crate::characters::parse_character`]): the character's name, or every
/// problem; TOML that is not a sheet as one problem.
///
/// # Errors
/// Every problem.
pub fn validate(sheet: &str) -> Result<String, Vec<BuildProblem>> {
    let draft: CharacterDraft = toml::from_str(sheet)
        .map_err(|e| vec![file_problem(format!("not a character file: {e}"))])?;
    match Character::from_draft(draft) {
        Ok(c) => Ok(c.name().to_string()),
        Err(e) => {
            let d = Draft::from_sheet(*e.draft);
            Err(e.problems.iter().map(|p| build_problem(&d, p)).collect())
        }
    }
}

/// The draft a saved sheet is.
///
/// # Errors
/// One problem when the text is not a sheet (TOML, or a field of the wrong kind).
pub fn draft_from_sheet(sheet: &str) -> Result<Draft, Vec<BuildProblem>> {
    toml::from_str::<CharacterDraft>(sheet)
        .map(Draft::from_sheet)
        .map_err(|e| vec![file_problem(format!("not a character file: {e}"))])
}
