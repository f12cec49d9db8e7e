//! Characters outside the table: [`tabula_core::CharacterBook`] for The Sapio
//! System, creation in the order of "Building a Starting Character", the sheet
//! an encounter leaves ([`crate::advance::lasting`]) and "Advancement" between
//! sessions ([`crate::advance`]).
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

use crate::rules::RULE_SHEET;
use serde::{Deserialize, Serialize};

use tabula_core::builder::{
    Budget, ChoiceOption, Derived, FieldKind, FieldView, MAX_TEXT_CHARS, StepView,
};
use tabula_core::names::MAX_NAME_CHARS;
use tabula_core::{BuildProblem, BuildRefusal, BuildView, FieldValue, Rule};

use crate::ID;
use crate::character::{
    AdvanceKind, Character, CharacterDraft, CycleChangeKind, DraftProblem, EXAMPLE_QUALITIES,
    MAX_ELEMENTS, MAX_LUCK, ProfessionDraft, Talent, TalentEffect, Weapon, is_magic_quality,
};
use crate::harm::{Level, Track};

mod edit;
pub(crate) mod fields;
mod view;

pub use edit::{clear, force, set};
use fields::*;
pub use view::{build_problem, build_view, problems};

/// The most characters of a Special Talent's text the builder takes (the
/// sheet allows more, see [`crate::character::MAX_TEXT`]; a draft read from
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
/// [`crate::character::parse_character`]): the character's name, or every
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
