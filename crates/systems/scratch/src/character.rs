//! Characters: abilities with levels, character points, derived defenses, hit
//! points and carrying capacity.
//!
//! A [`CharacterDraft`] is what a TOML file says; it becomes a [`Character`] only
//! through [`Character::from_draft`], whose error lists every broken rule.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::abilities::Ability;
use crate::rules::{self, MAX_CP_CAP, MAX_LEVEL_CAP, TableRules};
use tabula_core::Rule;
use tabula_core::names::{NameError, check_name};

/// The most minions one character may have: "one or two minions" ("Support
/// Abilities", command).
pub const MAX_MINIONS: usize = 2;

/// The defenses a book prints next to a character's name, to compare with the
/// computed ones. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Printed {
    /// The printed agility.
    pub agility: Option<u32>,
    /// The printed intelligence.
    pub intelligence: Option<u32>,
    /// The printed strength.
    pub strength: Option<u32>,
    /// The printed stamina.
    pub stamina: Option<u32>,
}

/// A character as written in a TOML file: not necessarily legal.
///
/// ```toml
/// name = "Chokestar"
/// description = "bounty hunter who wears dark-colored gear"
/// [abilities]
/// wrestling = 2
/// stealth = 3
/// toughness = 3
/// [printed]
/// agility = 13
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDraft {
    /// The character's name (not empty).
    pub name: String,
    /// A short id typed in commands (letters, digits, `-`); default: the name in
    /// lower case with spaces as `-`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What the character is, in a line.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The character points the sheet was built with. The table's `[rules]`
    /// bind every character (R-SCR-7): above the table's `cp` the sheet is
    /// refused; at or below it, the sheet is checked against this (it can only
    /// tighten). Default: the table's `cp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i64>,
    /// The maximum level the sheet was built with: as `cp`, never above the
    /// table's `max_level` (R-SCR-7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_level: Option<i64>,
    /// Character points the GM awarded since the character was made (R-SCR-8,
    /// proposed): they add to the table's (or the sheet's lower) `cp` at every
    /// table, so a campaign character keeps what it earned while the table's
    /// `[rules]` still bind its creation budget and maximum level (R-SCR-7).
    /// 0..=[`MAX_CP_CAP`] (the whole budget too). Default 0. A minion has none:
    /// its CP are its leader's command level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awarded_cp: Option<i64>,
    /// Ability name -> level, for the book's abilities.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub abilities: BTreeMap<String, i64>,
    /// Abilities the book mentions without rules (e.g. piloting): they cost CP
    /// and do nothing in an encounter.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub other_abilities: BTreeMap<String, i64>,
    /// Ability name -> what it represents ("stun gun").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub notes: BTreeMap<String, String>,
    /// The defenses the book prints, for comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printed: Option<Printed>,
    /// Temporary craftsmanship bonuses the character carries from earlier
    /// encounters: they last "until he removes it or they are no longer
    /// traveling companions" ("Support Abilities"). A table applies each one
    /// whose crafter sits on the character's side; the others have ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crafted: Vec<CraftedBonus>,
    /// Minions given by command ability ("Support Abilities").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minions: Vec<CharacterDraft>,
}

/// A temporary +1 craftsmanship bonus written on the companion's sheet
/// ("Support Abilities"): `{ ability = "shooting", crafter = "flipfire" }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CraftedBonus {
    /// The ability it raises by 1 (one of the book's, at least level 1).
    pub ability: String,
    /// The id of the crafter who gave it (letters, digits, `-`; not the
    /// character itself).
    pub crafter: String,
}

/// One broken rule in a character draft. Each names its field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Problem {
    /// `name` is empty.
    EmptyName,
    /// `name` holds a control character or is too long.
    BadName {
        /// What is wrong with it.
        error: NameError,
    },
    /// `id` holds characters other than letters, digits and `-`, or is empty.
    BadId {
        /// The id given.
        id: String,
    },
    /// A key under `[abilities]` is not one of the book's abilities.
    UnknownAbility {
        /// The key.
        name: String,
    },
    /// A level below zero.
    NegativeLevel {
        /// The ability.
        ability: String,
        /// The level given.
        level: i64,
    },
    /// A level above the maximum level ("Abilities").
    AboveMaxLevel {
        /// The ability.
        ability: String,
        /// The level given.
        level: i64,
        /// The maximum level.
        max: u32,
    },
    /// A level above Tabula's cap.
    AboveCap {
        /// The ability.
        ability: String,
        /// The level given.
        level: i64,
    },
    /// More levels than character points ("Abilities": each CP gives one level).
    OverBudget {
        /// Levels distributed.
        spent: u64,
        /// Character points.
        cp: u32,
    },
    /// No ability has a level ("distributing character points between 1 or more
    /// abilities").
    NoAbilities,
    /// A sheet's own `cp` or `max_level` above the table's: a table's `[rules]`
    /// bind every character; a sheet cannot raise them (R-SCR-7).
    AboveTableLimit {
        /// `cp` or `max_level`.
        field: &'static str,
        /// The sheet's value.
        value: i64,
        /// The table's.
        table: u32,
    },
    /// A sheet's own `cp` or `max_level` below 1.
    BadLimit {
        /// `cp` or `max_level`.
        field: &'static str,
        /// The value given.
        value: i64,
        /// The cap.
        max: u32,
    },
    /// A `[notes]` key names no ability the character has.
    NoteWithoutAbility {
        /// The key.
        name: String,
    },
    /// More than two minions ("one or two minions").
    TooManyMinions {
        /// How many were given.
        count: usize,
    },
    /// Minions without command ability.
    MinionsWithoutCommand,
    /// The minions' total CP is above the command level.
    MinionCpAboveCommand {
        /// Total levels of the minions.
        total: u64,
        /// The command level.
        command: u32,
    },
    /// A minion has command ability ("they cannot have command ability").
    MinionHasCommand {
        /// The minion's place in `minions`, from 0.
        index: usize,
        /// The minion's name.
        minion: String,
    },
    /// A minion's own draft is broken.
    Minion {
        /// The minion's place in `minions`, from 0.
        index: usize,
        /// The minion's name.
        minion: String,
        /// What is broken.
        problem: Box<Problem>,
    },
    /// `awarded_cp` below 0, or the whole budget above [`MAX_CP_CAP`]
    /// (R-SCR-8, proposed).
    BadAwardedCp {
        /// The value given.
        value: i64,
        /// The most the budget may hold.
        max: u32,
    },
    /// A minion with `awarded_cp`: its CP are its leader's command level
    /// ("Support Abilities"; R-SCR-8, proposed).
    MinionAwardedCp {
        /// The minion's place in `minions`, from 0.
        index: usize,
        /// The minion's name.
        minion: String,
    },
    /// A `[[crafted]]` bonus on an ability the character does not have (or
    /// that is not one of the book's): "a temporary +1 bonus to an ability
    /// which is already at least level 1" ("Support Abilities").
    CraftedWithoutAbility {
        /// The ability written.
        ability: String,
    },
    /// Two `[[crafted]]` bonuses on one ability: "he cannot give a second
    /// temporary bonus to an ability which has a temporary bonus" ("Support
    /// Abilities").
    CraftedTwice {
        /// The ability.
        ability: String,
    },
    /// A `[[crafted]]` bonus whose crafter is not an id, or is the character
    /// itself (bonuses go to a traveling companion, "Support Abilities").
    BadCrafter {
        /// The crafter written.
        crafter: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.message(), self.cite())
    }
}

impl Problem {
    /// What is wrong, naming the key and the numbers, without the citation
    /// (`abilities.shooting: level 5 is above the maximum level 4`). `Display`
    /// adds the citation.
    pub fn message(&self) -> String {
        match self {
            Problem::EmptyName => "name: a character needs a name".into(),
            Problem::BadName { error } => error.to_string(),
            Problem::AboveTableLimit {
                field,
                value,
                table,
            } => format!(
                "{field}: the sheet's {value} is above the table's {table}; a table's [rules] bind every character and a sheet cannot raise them"
            ),
            Problem::BadId { id } => format!("id: {id:?} must be letters, digits and '-' only"),
            Problem::UnknownAbility { name } => format!(
                "abilities.{name}: not an ability of the book (put it under [other_abilities] if the table adapts one)"
            ),
            Problem::NegativeLevel { ability, level } => {
                format!("abilities.{ability}: level {level} is below 0")
            }
            Problem::AboveMaxLevel {
                ability,
                level,
                max,
            } => format!("abilities.{ability}: level {level} is above the maximum level {max}"),
            Problem::AboveCap { ability, level } => format!(
                "abilities.{ability}: level {level} is above Tabula's cap of {MAX_LEVEL_CAP}"
            ),
            Problem::OverBudget { spent, cp } => {
                format!("abilities: {spent} levels distributed but only {cp} CP to distribute")
            }
            Problem::NoAbilities => {
                "abilities: character points go to 1 or more abilities; none has a level".into()
            }
            Problem::BadLimit { field, value, max } => {
                format!("{field}: {value} must be between 1 and {max}")
            }
            Problem::NoteWithoutAbility { name } => {
                format!("notes.{name}: the character has no such ability")
            }
            Problem::TooManyMinions { count } => {
                format!("minions: {count} minions; command provides one or two")
            }
            Problem::MinionsWithoutCommand => {
                "minions: only command ability provides minions".into()
            }
            Problem::MinionCpAboveCommand { total, command } => format!(
                "minions: their total CP {total} is greater than the command level {command}"
            ),
            Problem::MinionHasCommand { minion, .. } => {
                format!("minions.{minion}: minions cannot have command ability")
            }
            Problem::Minion {
                minion, problem, ..
            } => format!("minions.{minion}: {problem}"),
            Problem::BadAwardedCp { value, max } => {
                format!("awarded_cp: {value} must be 0 or more, and the whole budget at most {max}")
            }
            Problem::MinionAwardedCp { minion, .. } => format!(
                "minions.{minion}.awarded_cp: a minion gets no CP of its own; its CP are its leader's command level"
            ),
            Problem::CraftedWithoutAbility { ability } => format!(
                "crafted.{ability}: a temporary bonus goes to an ability the character already has at level 1 or more"
            ),
            Problem::CraftedTwice { ability } => {
                format!("crafted.{ability}: an ability can hold only one temporary bonus")
            }
            Problem::BadCrafter { crafter } => format!(
                "crafted: crafter {crafter:?} must be the id of a traveling companion (letters, digits, '-'), not the character itself"
            ),
        }
    }

    /// The citation `Display` adds after [`Problem::message`].
    fn cite(&self) -> &'static str {
        const A: &str = " (Scratch RPS, \"Abilities\")";
        const S: &str = " (Scratch RPS, \"Support Abilities\")";
        match self {
            Problem::AboveTableLimit { .. } => " (Scratch RPS, \"Abilities\"); R-SCR-7",
            Problem::UnknownAbility { .. }
            | Problem::NegativeLevel { .. }
            | Problem::AboveMaxLevel { .. }
            | Problem::OverBudget { .. }
            | Problem::NoAbilities => A,
            Problem::TooManyMinions { .. }
            | Problem::MinionsWithoutCommand
            | Problem::MinionCpAboveCommand { .. }
            | Problem::MinionHasCommand { .. }
            | Problem::CraftedWithoutAbility { .. }
            | Problem::CraftedTwice { .. }
            | Problem::BadCrafter { .. } => S,
            Problem::MinionAwardedCp { .. } => {
                " (Scratch RPS, \"Support Abilities\"; R-SCR-8, proposed)"
            }
            Problem::BadAwardedCp { .. } => " (Scratch RPS, \"Abilities\"; R-SCR-8, proposed)",
            Problem::EmptyName
            | Problem::BadName { .. }
            | Problem::BadId { .. }
            | Problem::AboveCap { .. }
            | Problem::BadLimit { .. }
            | Problem::NoteWithoutAbility { .. }
            | Problem::Minion { .. } => "",
        }
    }
}

impl Problem {
    /// The rule the problem breaks: a section of the book, a ruling, or one of
    /// Tabula's own checks (names, caps). A minion's problem is its own.
    pub fn rule(&self) -> Rule {
        match self {
            Problem::EmptyName | Problem::NoteWithoutAbility { .. } => rules::CHARACTER,
            Problem::BadName { .. } | Problem::BadId { .. } => rules::NAMES,
            Problem::UnknownAbility { .. }
            | Problem::NegativeLevel { .. }
            | Problem::AboveMaxLevel { .. }
            | Problem::OverBudget { .. }
            | Problem::NoAbilities
            | Problem::BadLimit { .. } => rules::ABILITIES,
            Problem::AboveCap { .. } => rules::CAPS,
            Problem::AboveTableLimit { .. } => rules::TABLE_LIMITS,
            Problem::TooManyMinions { .. }
            | Problem::MinionsWithoutCommand
            | Problem::MinionCpAboveCommand { .. }
            | Problem::MinionHasCommand { .. }
            | Problem::MinionAwardedCp { .. }
            | Problem::CraftedWithoutAbility { .. }
            | Problem::CraftedTwice { .. }
            | Problem::BadCrafter { .. } => rules::SUPPORT_ABILITIES,
            Problem::BadAwardedCp { .. } => rules::ADVANCEMENT,
            Problem::Minion { problem, .. } => problem.rule(),
        }
    }
}

/// A draft that is not a legal character: the draft back, and every broken rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} is not a legal character: {}", if draft.name.is_empty() { "the draft" } else { &draft.name }, problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
pub struct CharacterError {
    /// The draft, unchanged.
    pub draft: Box<CharacterDraft>,
    /// Every broken rule, in file order.
    pub problems: Vec<Problem>,
}

/// A character file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file is not TOML of the character format (names the key or line).
    #[error("not a character file: {0}")]
    Toml(String),
    /// The file is read but breaks rules.
    #[error(transparent)]
    Character(#[from] CharacterError),
}

/// The derived defenses and hit points of a character ("Defenses", "Hit Points").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defenses {
    /// 10 + the highest of stealth, acrobatics, quickness, flying.
    pub agility: u32,
    /// 10 + the highest of detection, command, healing, craftsmanship.
    pub intelligence: u32,
    /// 10 + the higher of wrestling, swimming; without them base + toughness
    /// (R-SCR-1: base 8).
    pub strength: u32,
    /// Toughness / 2, rounded down.
    pub stamina: u32,
    /// Maximum hit points = toughness.
    pub max_hit_points: u32,
}

impl Defenses {
    /// Compute from a level lookup (which may include temporary bonuses) and the
    /// strength base (R-SCR-1: 8; the text: 7).
    ///
    /// "Defenses" (001_337b5a42e331e513.txt); R-SCR-1, R-SCR-2.
    pub fn from_levels(level: impl Fn(Ability) -> u32, strength_base: u32) -> Defenses {
        let best = |list: &[Ability]| list.iter().map(|a| level(*a)).max().unwrap_or(0);
        // Saturating: levels are capped (MAX_LEVEL_CAP), but this takes any lookup.
        let agility = 10u32.saturating_add(best(&[
            Ability::Stealth,
            Ability::Acrobatics,
            Ability::Quickness,
            Ability::Flying,
        ]));
        let intelligence = 10u32.saturating_add(best(&[
            Ability::Detection,
            Ability::Command,
            Ability::Healing,
            Ability::Craftsmanship,
        ]));
        let force = best(&[Ability::Wrestling, Ability::Swimming]);
        let toughness = level(Ability::Toughness);
        let strength = if force > 0 {
            10u32.saturating_add(force)
        } else {
            strength_base.saturating_add(toughness)
        };
        Defenses {
            agility,
            intelligence,
            strength,
            stamina: toughness / 2,
            max_hit_points: toughness,
        }
    }
}

/// A printed defense set beside the computed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrintedCheck {
    /// `agility`, `intelligence`, `strength` or `stamina`.
    pub defense: &'static str,
    /// What the book prints.
    pub printed: u32,
    /// What the rules compute.
    pub computed: u32,
    /// Why they differ (empty when they agree).
    pub why: String,
}

/// Healthy, injured or incapacitated ("Hit Points").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HitPointState {
    /// More hit points than stamina.
    Healthy,
    /// At least one hit point, but no more than stamina.
    Injured,
    /// Zero hit points: cannot perform actions.
    Incapacitated,
}

impl HitPointState {
    /// The state of a character with `hit_points` and `stamina`.
    ///
    /// "Hit Points" (001_337b5a42e331e513.txt).
    pub fn of(hit_points: u32, stamina: u32) -> HitPointState {
        if hit_points == 0 {
            HitPointState::Incapacitated
        } else if hit_points > stamina {
            HitPointState::Healthy
        } else {
            HitPointState::Injured
        }
    }
}

impl fmt::Display for HitPointState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HitPointState::Healthy => "healthy",
            HitPointState::Injured => "injured",
            HitPointState::Incapacitated => "incapacitated",
        })
    }
}

/// How much a character can pack, carry and lift ("Defenses"): 2, 5 and 10 kg
/// per strength point; pounds as the book's table rounds them (packs to the
/// pound, carrying to 5 lb, lifting to 10 lb, from 2.2 lb per kg).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carrying {
    /// The strength it is for.
    pub strength: u32,
    /// Pack long distance, kg.
    pub pack_kg: u32,
    /// Pack long distance, lb.
    pub pack_lb: u32,
    /// Carry a short distance, kg.
    pub carry_kg: u32,
    /// Carry a short distance, lb.
    pub carry_lb: u32,
    /// Lift in one place (or drag a short distance), kg.
    pub lift_kg: u32,
    /// Lift in one place, lb.
    pub lift_lb: u32,
}

impl Carrying {
    /// The carrying capacity for `strength` (the book's table for 10 to 20, the
    /// same rule beyond it). Saturates instead of overflowing.
    ///
    /// "Defenses" (001_337b5a42e331e513.txt), the carrying table.
    pub fn for_strength(strength: u32) -> Carrying {
        let s = u64::from(strength);
        let round_to = |kg: u64, step_lb: u64| -> u32 {
            // kg * 2.2 lb in tenths of a pound, rounded to the nearest step.
            let tenths = kg * 22;
            let step = step_lb * 10;
            u32::try_from((tenths + step / 2) / step * step_lb).unwrap_or(u32::MAX)
        };
        let kg = |per: u64| u32::try_from(s * per).unwrap_or(u32::MAX);
        Carrying {
            strength,
            pack_kg: kg(2),
            pack_lb: round_to(s * 2, 1),
            carry_kg: kg(5),
            carry_lb: round_to(s * 5, 5),
            lift_kg: kg(10),
            lift_lb: round_to(s * 10, 10),
        }
    }
}

/// What a legal character holds, as it is written out (the serde form of
/// [`Character`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Sheet {
    name: String,
    id: String,
    description: String,
    cp: u32,
    max_level: u32,
    levels: BTreeMap<Ability, u32>,
    other: BTreeMap<String, u32>,
    notes: BTreeMap<String, String>,
    printed: Option<Printed>,
    minions: Vec<Character>,
    /// CP awarded since creation (R-SCR-8, proposed).
    #[serde(default)]
    awarded_cp: u32,
    /// Temporary bonuses the sheet carries: ability and the crafter's id.
    #[serde(default)]
    crafted: Vec<(Ability, String)>,
    /// What the file itself said of `id`, `cp` and `max_level` (absent: the
    /// name's id and the table's limits), to write the sheet back.
    #[serde(default)]
    given: Given,
}

/// The optional values a sheet gave itself, as given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Given {
    id: Option<String>,
    cp: Option<u32>,
    max_level: Option<u32>,
}

/// A legal character: abilities with levels within its limits.
///
/// It never changes once built, so the sheet is shared: cloning a character
/// (every simulated encounter starts from a clone of the table's state) copies
/// a pointer and the level of each ability, not its strings and maps. It
/// serializes as its sheet.
#[derive(Clone, PartialEq, Eq)]
pub struct Character {
    sheet: Arc<Sheet>,
    /// The level of each ability, by its place in [`Ability::ALL`] (read on
    /// every roll and defense).
    table: [u32; ABILITIES],
}

/// How many abilities the book has.
const ABILITIES: usize = Ability::ALL.len();

impl Character {
    fn from_sheet(sheet: Sheet) -> Character {
        let mut table = [0; ABILITIES];
        for (a, level) in &sheet.levels {
            if let Some(slot) = table.get_mut(*a as usize) {
                *slot = *level;
            }
        }
        Character {
            sheet: Arc::new(sheet),
            table,
        }
    }
}

impl fmt::Debug for Character {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &*self.sheet;
        f.debug_struct("Character")
            .field("name", &s.name)
            .field("id", &s.id)
            .field("description", &s.description)
            .field("cp", &s.cp)
            .field("max_level", &s.max_level)
            .field("levels", &s.levels)
            .field("other", &s.other)
            .field("notes", &s.notes)
            .field("printed", &s.printed)
            .field("minions", &s.minions)
            .field("awarded_cp", &s.awarded_cp)
            .field("crafted", &s.crafted)
            .finish()
    }
}

impl Serialize for Character {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.sheet.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Character {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Sheet::deserialize(deserializer).map(Character::from_sheet)
    }
}

/// The default id of a name: lower case, spaces and other marks as `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// A sheet's own `cp` or `max_level` against the table's: never above it (the
/// table's `[rules]` bind every character, a sheet cannot raise them; R-SCR-7).
/// Absent, the table's; lower, a stricter limit the sheet asks to be checked
/// against (it can only tighten).
///
/// "Abilities" (001_337b5a42e331e513.txt); R-SCR-7.
fn limit(field: &'static str, value: Option<i64>, table: u32, problems: &mut Vec<Problem>) -> u32 {
    match value {
        None => table,
        Some(v) if v < 1 => {
            problems.push(Problem::BadLimit {
                field,
                value: v,
                max: table,
            });
            table
        }
        Some(v) if v > i64::from(table) => {
            problems.push(Problem::AboveTableLimit {
                field,
                value: v,
                table,
            });
            table
        }
        // 1..=table, so it fits.
        Some(v) => u32::try_from(v).unwrap_or(table),
    }
}

impl Character {
    /// Validate `draft` under the table's `rules`: its CP budget and maximum
    /// level bind the character (a sheet's own `cp` / `max_level` may only be
    /// lower; R-SCR-7).
    ///
    /// "Abilities", "Support Abilities" (command) (001_337b5a42e331e513.txt).
    ///
    /// # Errors
    /// [`CharacterError`] with the draft and every [`Problem`].
    pub fn from_draft(
        draft: CharacterDraft,
        rules: &TableRules,
    ) -> Result<Character, CharacterError> {
        let mut problems = Vec::new();
        let built = Self::build(&draft, rules, &mut problems);
        match built {
            Some(c) if problems.is_empty() => Ok(c),
            _ => Err(CharacterError {
                draft: Box::new(draft),
                problems,
            }),
        }
    }

    /// Read a TOML character file and validate it.
    ///
    /// # Errors
    /// [`LoadError::Toml`] naming the key, or [`LoadError::Character`].
    pub fn from_toml(text: &str, rules: &TableRules) -> Result<Character, LoadError> {
        let draft: CharacterDraft =
            toml::from_str(text).map_err(|e| LoadError::Toml(e.to_string()))?;
        Ok(Character::from_draft(draft, rules)?)
    }

    fn build(
        draft: &CharacterDraft,
        rules: &TableRules,
        problems: &mut Vec<Problem>,
    ) -> Option<Character> {
        match check_name("name", &draft.name) {
            Ok(()) => {}
            Err(NameError::Empty { .. }) => problems.push(Problem::EmptyName),
            Err(error) => problems.push(Problem::BadName { error }),
        }
        let id = match &draft.id {
            Some(id) => {
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                    problems.push(Problem::BadId { id: id.clone() });
                }
                id.to_ascii_lowercase()
            }
            None => slug(&draft.name),
        };
        let cp = limit("cp", draft.cp, rules.cp.min(MAX_CP_CAP), problems);
        let max_level = limit(
            "max_level",
            draft.max_level,
            rules.max_level.min(MAX_LEVEL_CAP),
            problems,
        );
        // R-SCR-8 (proposed): CP the GM awarded add to the creation budget.
        let awarded = match draft.awarded_cp {
            None => 0,
            Some(v) => match u32::try_from(v) {
                Ok(a) if a <= MAX_CP_CAP && cp.saturating_add(a) <= MAX_CP_CAP => a,
                _ => {
                    problems.push(Problem::BadAwardedCp {
                        value: v,
                        max: MAX_CP_CAP,
                    });
                    0
                }
            },
        };
        let budget = cp.saturating_add(awarded);
        let mut levels = BTreeMap::new();
        let mut other = BTreeMap::new();
        let mut spent: u64 = 0;
        let mut check = |name: &str, level: i64, problems: &mut Vec<Problem>| -> Option<u32> {
            if level < 0 {
                problems.push(Problem::NegativeLevel {
                    ability: name.to_string(),
                    level,
                });
                return None;
            }
            if level > i64::from(MAX_LEVEL_CAP) {
                problems.push(Problem::AboveCap {
                    ability: name.to_string(),
                    level,
                });
                return None;
            }
            if level > i64::from(max_level) {
                problems.push(Problem::AboveMaxLevel {
                    ability: name.to_string(),
                    level,
                    max: max_level,
                });
            }
            spent += level as u64;
            Some(level as u32)
        };
        for (name, level) in &draft.abilities {
            match Ability::parse(name) {
                None => problems.push(Problem::UnknownAbility { name: name.clone() }),
                Some(a) => {
                    if let Some(l) = check(name, *level, problems)
                        && l > 0
                    {
                        levels.insert(a, l);
                    }
                }
            }
        }
        for (name, level) in &draft.other_abilities {
            if let Some(l) = check(name, *level, problems)
                && l > 0
            {
                other.insert(name.to_ascii_lowercase(), l);
            }
        }
        if spent > u64::from(budget) {
            problems.push(Problem::OverBudget { spent, cp: budget });
        }
        if levels.is_empty() && other.is_empty() {
            problems.push(Problem::NoAbilities);
        }
        for key in draft.notes.keys() {
            let known = Ability::parse(key).is_some_and(|a| levels.contains_key(&a))
                || other.contains_key(&key.to_ascii_lowercase());
            if !known {
                problems.push(Problem::NoteWithoutAbility { name: key.clone() });
            }
        }
        // Temporary bonuses carried from earlier encounters ("Support Abilities").
        let mut crafted: Vec<(Ability, String)> = Vec::new();
        for b in &draft.crafted {
            match Ability::parse(&b.ability) {
                Some(a) if levels.contains_key(&a) => {
                    if crafted.iter().any(|(x, _)| *x == a) {
                        problems.push(Problem::CraftedTwice {
                            ability: b.ability.clone(),
                        });
                    } else {
                        crafted.push((a, b.crafter.to_ascii_lowercase()));
                    }
                }
                _ => problems.push(Problem::CraftedWithoutAbility {
                    ability: b.ability.clone(),
                }),
            }
            let plain = !b.crafter.is_empty()
                && b.crafter
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-');
            if !plain || b.crafter.eq_ignore_ascii_case(&id) {
                problems.push(Problem::BadCrafter {
                    crafter: b.crafter.clone(),
                });
            }
        }
        // Command and minions ("Support Abilities").
        let command = levels.get(&Ability::Command).copied().unwrap_or(0);
        if draft.minions.len() > MAX_MINIONS {
            problems.push(Problem::TooManyMinions {
                count: draft.minions.len(),
            });
        }
        if !draft.minions.is_empty() && command == 0 {
            problems.push(Problem::MinionsWithoutCommand);
        }
        let mut minions = Vec::new();
        let mut minion_cp: u64 = 0;
        for (index, m) in draft.minions.iter().take(MAX_MINIONS + 1).enumerate() {
            let mut own = Vec::new();
            // A minion is made with the leader's command level as its budget.
            let minion_rules = TableRules {
                cp: command.max(1),
                ..*rules
            };
            let label = if m.name.is_empty() {
                "(unnamed)".to_string()
            } else {
                m.name.clone()
            };
            if m.abilities
                .keys()
                .any(|k| Ability::parse(k) == Some(Ability::Command))
            {
                problems.push(Problem::MinionHasCommand {
                    index,
                    minion: label.clone(),
                });
            }
            if !m.minions.is_empty() {
                problems.push(Problem::MinionHasCommand {
                    index,
                    minion: label.clone(),
                });
            }
            if m.awarded_cp.is_some() {
                problems.push(Problem::MinionAwardedCp {
                    index,
                    minion: label.clone(),
                });
            }
            let plain = CharacterDraft {
                awarded_cp: None,
                ..m.clone()
            };
            let built = Self::build(&plain, &minion_rules, &mut own);
            for p in own {
                // The budget is checked on the minions' total below.
                if !matches!(p, Problem::OverBudget { .. }) {
                    problems.push(Problem::Minion {
                        index,
                        minion: label.clone(),
                        problem: Box::new(p),
                    });
                }
            }
            if let Some(c) = built {
                minion_cp += c.cp_spent();
                minions.push(c);
            }
        }
        if command > 0 && minion_cp > u64::from(command) {
            problems.push(Problem::MinionCpAboveCommand {
                total: minion_cp,
                command,
            });
        }
        let given_limit = |v: Option<i64>, table: u32| {
            v.and_then(|v| u32::try_from(v).ok())
                .filter(|v| (1..=table).contains(v))
        };
        Some(Character::from_sheet(Sheet {
            name: draft.name.trim().to_string(),
            id,
            description: draft.description.clone(),
            cp,
            max_level,
            levels,
            other,
            notes: draft.notes.clone(),
            printed: draft.printed.clone(),
            minions,
            awarded_cp: awarded,
            crafted,
            given: Given {
                id: draft.id.clone(),
                cp: given_limit(draft.cp, rules.cp.min(MAX_CP_CAP)),
                max_level: given_limit(draft.max_level, rules.max_level.min(MAX_LEVEL_CAP)),
            },
        }))
    }

    /// The character's name.
    pub fn name(&self) -> &str {
        &self.sheet.name
    }

    /// The id typed in commands.
    pub fn id(&self) -> &str {
        &self.sheet.id
    }

    /// The description.
    pub fn description(&self) -> &str {
        &self.sheet.description
    }

    /// The character-point budget it was validated against: the table's (or
    /// the sheet's lower) creation CP plus the CP awarded since (R-SCR-8,
    /// proposed).
    pub fn cp(&self) -> u32 {
        self.sheet.cp.saturating_add(self.sheet.awarded_cp)
    }

    /// The CP it was created with (the table's, or the sheet's lower `cp`).
    pub fn creation_cp(&self) -> u32 {
        self.sheet.cp
    }

    /// The CP the GM awarded since creation (R-SCR-8, proposed).
    pub fn awarded_cp(&self) -> u32 {
        self.sheet.awarded_cp
    }

    /// The temporary bonuses the sheet carries: each ability with its crafter's
    /// id ("Support Abilities"). A table applies those whose crafter is a
    /// companion there.
    pub fn crafted(&self) -> &[(Ability, String)] {
        &self.sheet.crafted
    }

    /// The sheet as a file says it ([`CharacterDraft`]): the values the file
    /// gave itself (`id`, `cp`, `max_level`) as given, levels of 0 left out,
    /// minions inline. Validating it under the same table's rules gives this
    /// character back.
    pub fn to_draft(&self) -> CharacterDraft {
        let s = &*self.sheet;
        CharacterDraft {
            name: s.name.clone(),
            id: s.given.id.clone(),
            description: s.description.clone(),
            cp: s.given.cp.map(i64::from),
            max_level: s.given.max_level.map(i64::from),
            awarded_cp: (s.awarded_cp > 0).then_some(i64::from(s.awarded_cp)),
            abilities: s
                .levels
                .iter()
                .map(|(a, l)| (a.name().to_string(), i64::from(*l)))
                .collect(),
            other_abilities: s
                .other
                .iter()
                .map(|(a, l)| (a.clone(), i64::from(*l)))
                .collect(),
            notes: s.notes.clone(),
            printed: s.printed.clone(),
            crafted: s
                .crafted
                .iter()
                .map(|(a, c)| CraftedBonus {
                    ability: a.name().to_string(),
                    crafter: c.clone(),
                })
                .collect(),
            minions: s.minions.iter().map(Character::to_draft).collect(),
        }
    }

    /// The maximum level it was validated against.
    pub fn max_level(&self) -> u32 {
        self.sheet.max_level
    }

    /// The level of `ability` (0 when the character does not have it).
    pub fn level(&self, ability: Ability) -> u32 {
        self.table.get(ability as usize).copied().unwrap_or(0)
    }

    /// True when the character has at least one level of `ability`.
    pub fn has(&self, ability: Ability) -> bool {
        self.level(ability) > 0
    }

    /// Every ability with its level, in the book's order.
    pub fn levels(&self) -> &BTreeMap<Ability, u32> {
        &self.sheet.levels
    }

    /// Abilities without rules in the book (piloting...), with levels.
    pub fn other_abilities(&self) -> &BTreeMap<String, u32> {
        &self.sheet.other
    }

    /// What an ability represents, if the file says.
    pub fn note(&self, ability: &str) -> Option<&str> {
        self.sheet.notes.get(ability).map(String::as_str)
    }

    /// Levels distributed (book abilities and others).
    pub fn cp_spent(&self) -> u64 {
        self.sheet
            .levels
            .values()
            .chain(self.sheet.other.values())
            .map(|v| u64::from(*v))
            .sum()
    }

    /// The minions command gives this character.
    pub fn minions(&self) -> &[Character] {
        &self.sheet.minions
    }

    /// The defenses from the character's own levels.
    pub fn defenses(&self, strength_base: u32) -> Defenses {
        Defenses::from_levels(|a| self.level(a), strength_base)
    }

    /// Each printed defense beside the computed one, with the reason they differ.
    ///
    /// "Defenses" (001_337b5a42e331e513.txt); R-SCR-1, R-SCR-2.
    pub fn printed_checks(&self, strength_base: u32) -> Vec<PrintedCheck> {
        let Some(p) = &self.sheet.printed else {
            return Vec::new();
        };
        let d = self.defenses(strength_base);
        let mut out = Vec::new();
        let mut push = |defense: &'static str, printed: Option<u32>, computed: u32, why: String| {
            if let Some(printed) = printed {
                out.push(PrintedCheck {
                    defense,
                    printed,
                    computed,
                    why: if printed == computed {
                        String::new()
                    } else {
                        why
                    },
                });
            }
        };
        push(
            "agility",
            p.agility,
            d.agility,
            "agility is 10 + the highest of stealth, acrobatics, quickness, flying (\"Defenses\"); the book's number does not follow it".into(),
        );
        let int_why = if self.has(Ability::Command) {
            format!(
                "R-SCR-2: intelligence is 10 + the highest of detection, command, healing, craftsmanship; the printed number ignores {} command",
                self.level(Ability::Command)
            )
        } else {
            "R-SCR-2: intelligence is 10 + the highest of detection, command, healing, craftsmanship; the book's number does not follow it".into()
        };
        push("intelligence", p.intelligence, d.intelligence, int_why);
        push(
            "strength",
            p.strength,
            d.strength,
            format!(
                "strength without wrestling or swimming is {strength_base} + toughness at this table; R-SCR-1 makes it 8 + toughness as every printed character has it"
            ),
        );
        push(
            "stamina",
            p.stamina,
            d.stamina,
            "stamina is toughness / 2 rounded down (\"Hit Points\")".into(),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_table_follows_the_order_of_every_ability() {
        for (i, a) in Ability::ALL.into_iter().enumerate() {
            assert_eq!(a as usize, i, "{a}");
        }
        let c = Character::from_toml(
            "name = \"X\"\n[abilities]\nshooting = 2\ncommand = 3\ntoughness = 1\n",
            &TableRules::default(),
        )
        .unwrap();
        for a in Ability::ALL {
            assert_eq!(c.level(a), c.levels().get(&a).copied().unwrap_or(0), "{a}");
        }
        // Serialized as the sheet, read back the same (level table included).
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.starts_with("{\"name\":\"X\""), "{json}");
        let back: Character = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.level(Ability::Command), 3);
    }

    #[test]
    fn carrying_table_matches_the_book() {
        // strength, pack kg, pack lb, carry kg, carry lb, lift kg, lift lb
        let book: [(u32, u32, u32, u32, u32, u32, u32); 11] = [
            (10, 20, 44, 50, 110, 100, 220),
            (11, 22, 48, 55, 120, 110, 240),
            (12, 24, 53, 60, 130, 120, 260),
            (13, 26, 57, 65, 145, 130, 290),
            (14, 28, 62, 70, 155, 140, 310),
            (15, 30, 66, 75, 165, 150, 330),
            (16, 32, 70, 80, 175, 160, 350),
            (17, 34, 75, 85, 185, 170, 370),
            (18, 36, 79, 90, 200, 180, 400),
            (19, 38, 84, 95, 210, 190, 420),
            (20, 40, 88, 100, 220, 200, 440),
        ];
        for (s, pk, pl, ck, cl, lk, ll) in book {
            let c = Carrying::for_strength(s);
            assert_eq!(
                (
                    c.pack_kg, c.pack_lb, c.carry_kg, c.carry_lb, c.lift_kg, c.lift_lb
                ),
                (pk, pl, ck, cl, lk, ll),
                "strength {s}"
            );
        }
        let huge = Carrying::for_strength(u32::MAX);
        assert_eq!(huge.lift_kg, u32::MAX);
    }

    #[test]
    fn seven_toughness_hit_point_states() {
        // "Hit Points": 7 toughness, stamina 3; healthy 4..=7, injured 1..=3, 0 incapacitated.
        let d = Defenses::from_levels(|a| if a == Ability::Toughness { 7 } else { 0 }, 8);
        assert_eq!(d.stamina, 3);
        assert_eq!(d.max_hit_points, 7);
        for hp in 4..=7 {
            assert_eq!(HitPointState::of(hp, d.stamina), HitPointState::Healthy);
        }
        for hp in 1..=3 {
            assert_eq!(HitPointState::of(hp, d.stamina), HitPointState::Injured);
        }
        assert_eq!(
            HitPointState::of(0, d.stamina),
            HitPointState::Incapacitated
        );
    }

    #[test]
    fn defenses_examples_from_the_text() {
        // "If a character has 2 levels of acrobatics and 3 levels of quickness, then his agility is 13."
        let d = Defenses::from_levels(
            |a| match a {
                Ability::Acrobatics => 2,
                Ability::Quickness => 3,
                _ => 0,
            },
            8,
        );
        assert_eq!(d.agility, 13);
        assert_eq!(d.intelligence, 10);
        assert_eq!(d.strength, 8);
        let text = Defenses::from_levels(|a| if a == Ability::Toughness { 3 } else { 0 }, 7);
        assert_eq!(text.strength, 10);
    }

    #[test]
    fn every_broken_rule_is_listed() {
        let draft = CharacterDraft {
            name: String::new(),
            abilities: BTreeMap::from([
                ("shooting".into(), 8),
                ("toughness".into(), 6),
                ("lasers".into(), 1),
                ("stealth".into(), -1),
            ]),
            notes: BTreeMap::from([("flying".into(), "wings".into())]),
            minions: vec![CharacterDraft {
                name: "Thug".into(),
                abilities: BTreeMap::from([("command".into(), 1)]),
                ..Default::default()
            }],
            ..Default::default()
        };
        let err = Character::from_draft(draft.clone(), &TableRules::default()).unwrap_err();
        assert_eq!(*err.draft, draft);
        let kinds: Vec<&Problem> = err.problems.iter().collect();
        assert!(kinds.contains(&&Problem::EmptyName));
        assert!(kinds.contains(&&Problem::UnknownAbility {
            name: "lasers".into()
        }));
        assert!(
            kinds
                .iter()
                .any(|p| matches!(p, Problem::NegativeLevel { .. }))
        );
        assert!(
            kinds
                .iter()
                .any(|p| matches!(p, Problem::AboveMaxLevel { level: 8, .. }))
        );
        assert!(
            kinds
                .iter()
                .any(|p| matches!(p, Problem::AboveMaxLevel { level: 6, .. }))
        );
        assert!(kinds.contains(&&Problem::OverBudget { spent: 14, cp: 10 }));
        assert!(kinds.contains(&&Problem::NoteWithoutAbility {
            name: "flying".into()
        }));
        assert!(kinds.contains(&&Problem::MinionsWithoutCommand));
        assert!(kinds.contains(&&Problem::MinionHasCommand {
            index: 0,
            minion: "Thug".into()
        }));
        let text = err.to_string();
        assert!(text.contains("abilities.shooting"), "{text}");
    }
}
