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
use crate::rules::{MAX_CP_CAP, MAX_LEVEL_CAP, TableRules};
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
    #[serde(default)]
    pub id: Option<String>,
    /// What the character is, in a line.
    #[serde(default)]
    pub description: String,
    /// The character points the sheet was built with. The table's `[rules]`
    /// bind every character (R-SCR-7): above the table's `cp` the sheet is
    /// refused; at or below it, the sheet is checked against this (it can only
    /// tighten). Default: the table's `cp`.
    #[serde(default)]
    pub cp: Option<i64>,
    /// The maximum level the sheet was built with: as `cp`, never above the
    /// table's `max_level` (R-SCR-7).
    #[serde(default)]
    pub max_level: Option<i64>,
    /// Ability name -> level, for the book's abilities.
    #[serde(default)]
    pub abilities: BTreeMap<String, i64>,
    /// Abilities the book mentions without rules (e.g. piloting): they cost CP
    /// and do nothing in an encounter.
    #[serde(default)]
    pub other_abilities: BTreeMap<String, i64>,
    /// Ability name -> what it represents ("stun gun").
    #[serde(default)]
    pub notes: BTreeMap<String, String>,
    /// The defenses the book prints, for comparison.
    #[serde(default)]
    pub printed: Option<Printed>,
    /// Minions given by command ability ("Support Abilities").
    #[serde(default)]
    pub minions: Vec<CharacterDraft>,
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
        /// The minion's name.
        minion: String,
    },
    /// A minion's own draft is broken.
    Minion {
        /// The minion's name.
        minion: String,
        /// What is broken.
        problem: Box<Problem>,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const A: &str = "(Scratch RPS, \"Abilities\")";
        const S: &str = "(Scratch RPS, \"Support Abilities\")";
        match self {
            Problem::EmptyName => write!(f, "name: a character needs a name"),
            Problem::BadName { error } => write!(f, "{error}"),
            Problem::AboveTableLimit {
                field,
                value,
                table,
            } => write!(
                f,
                "{field}: the sheet's {value} is above the table's {table}; a table's [rules] bind every character and a sheet cannot raise them {A}; R-SCR-7"
            ),
            Problem::BadId { id } => write!(f, "id: {id:?} must be letters, digits and '-' only"),
            Problem::UnknownAbility { name } => write!(
                f,
                "abilities.{name}: not an ability of the book (put it under [other_abilities] if the table adapts one) {A}"
            ),
            Problem::NegativeLevel { ability, level } => {
                write!(f, "abilities.{ability}: level {level} is below 0 {A}")
            }
            Problem::AboveMaxLevel {
                ability,
                level,
                max,
            } => write!(
                f,
                "abilities.{ability}: level {level} is above the maximum level {max} {A}"
            ),
            Problem::AboveCap { ability, level } => write!(
                f,
                "abilities.{ability}: level {level} is above Tabula's cap of {MAX_LEVEL_CAP}"
            ),
            Problem::OverBudget { spent, cp } => write!(
                f,
                "abilities: {spent} levels distributed but only {cp} CP to distribute {A}"
            ),
            Problem::NoAbilities => write!(
                f,
                "abilities: character points go to 1 or more abilities; none has a level {A}"
            ),
            Problem::BadLimit { field, value, max } => {
                write!(f, "{field}: {value} must be between 1 and {max}")
            }
            Problem::NoteWithoutAbility { name } => {
                write!(f, "notes.{name}: the character has no such ability")
            }
            Problem::TooManyMinions { count } => write!(
                f,
                "minions: {count} minions; command provides one or two {S}"
            ),
            Problem::MinionsWithoutCommand => {
                write!(f, "minions: only command ability provides minions {S}")
            }
            Problem::MinionCpAboveCommand { total, command } => write!(
                f,
                "minions: their total CP {total} is greater than the command level {command} {S}"
            ),
            Problem::MinionHasCommand { minion } => {
                write!(
                    f,
                    "minions.{minion}: minions cannot have command ability {S}"
                )
            }
            Problem::Minion { minion, problem } => write!(f, "minions.{minion}: {problem}"),
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
        if spent > u64::from(cp) {
            problems.push(Problem::OverBudget { spent, cp });
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
        for m in draft.minions.iter().take(MAX_MINIONS + 1) {
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
                    minion: label.clone(),
                });
            }
            if !m.minions.is_empty() {
                problems.push(Problem::MinionHasCommand {
                    minion: label.clone(),
                });
            }
            let built = Self::build(m, &minion_rules, &mut own);
            for p in own {
                // The budget is checked on the minions' total below.
                if !matches!(p, Problem::OverBudget { .. }) {
                    problems.push(Problem::Minion {
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

    /// The character-point budget it was validated against.
    pub fn cp(&self) -> u32 {
        self.sheet.cp
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
            minion: "Thug".into()
        }));
        let text = err.to_string();
        assert!(text.contains("abilities.shooting"), "{text}");
    }
}
