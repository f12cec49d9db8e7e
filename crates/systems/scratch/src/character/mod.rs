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

mod problem;
pub use problem::*;
mod defenses;
pub use defenses::*;
#[cfg(test)]
mod tests;

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

/// The character's name is a name ("Names"), and its id (given, or the
/// name's [`slug`]) is lower-case letters, digits and `-`. Returns the id.
fn checked_id(draft: &CharacterDraft, problems: &mut Vec<Problem>) -> String {
    match check_name("name", &draft.name) {
        Ok(()) => {}
        Err(NameError::Empty { .. }) => problems.push(Problem::EmptyName),
        Err(error) => problems.push(Problem::BadName { error }),
    }
    match &draft.id {
        Some(id) => {
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                problems.push(Problem::BadId { id: id.clone() });
            }
            id.to_ascii_lowercase()
        }
        None => slug(&draft.name),
    }
}

/// The sheet's CP and maximum level under the table's (R-SCR-7, [`limit`]),
/// and the CP the GM awarded (R-SCR-8, proposed), within the caps. Returns
/// `(cp, max_level, awarded)`.
fn checked_limits(
    draft: &CharacterDraft,
    rules: &TableRules,
    problems: &mut Vec<Problem>,
) -> (u32, u32, u32) {
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
    (cp, max_level, awarded)
}

/// The ability levels ("Abilities"): each of the book's abilities or the
/// sheet's own, none negative, above the cap or above `max_level`; one CP a
/// level, no more than `budget` in all; at least one ability; a note only
/// for an ability the character has. Returns the book's abilities and the
/// sheet's own, each with a level above 0.
fn checked_levels(
    draft: &CharacterDraft,
    max_level: u32,
    budget: u32,
    problems: &mut Vec<Problem>,
) -> (BTreeMap<Ability, u32>, BTreeMap<String, u32>) {
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
    (levels, other)
}

/// Temporary bonuses carried from earlier encounters ("Support Abilities",
/// craftsmanship): each on an ability the character has, once per ability,
/// from a crafter named by a plain id other than the character's own `id`.
/// Returns each ability with its crafter's id.
fn checked_crafted(
    draft: &CharacterDraft,
    levels: &BTreeMap<Ability, u32>,
    id: &str,
    problems: &mut Vec<Problem>,
) -> Vec<(Ability, String)> {
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
        if !plain || b.crafter.eq_ignore_ascii_case(id) {
            problems.push(Problem::BadCrafter {
                crafter: b.crafter.clone(),
            });
        }
    }
    crafted
}

/// Command and minions ("Support Abilities"): one or two minions, only with
/// command; each built with the leader's `command` level as its budget,
/// without command, minions of its own or awarded CP; their CP together no
/// more than the command level. Returns the minions that could be built.
fn built_minions(
    draft: &CharacterDraft,
    command: u32,
    rules: &TableRules,
    problems: &mut Vec<Problem>,
) -> Vec<Character> {
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
        let built = Character::build(&plain, &minion_rules, &mut own);
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
    minions
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

    /// Build the character `draft` describes under `rules`, pushing every
    /// broken rule onto `problems` in the sheet's order: name and id, the
    /// limits (R-SCR-7, R-SCR-8), the ability levels and budget
    /// ("Abilities"), the crafted bonuses and the minions ("Support
    /// Abilities").
    fn build(
        draft: &CharacterDraft,
        rules: &TableRules,
        problems: &mut Vec<Problem>,
    ) -> Option<Character> {
        let id = checked_id(draft, problems);
        let (cp, max_level, awarded) = checked_limits(draft, rules, problems);
        let budget = cp.saturating_add(awarded);
        let (levels, other) = checked_levels(draft, max_level, budget, problems);
        let crafted = checked_crafted(draft, &levels, &id, problems);
        let command = levels.get(&Ability::Command).copied().unwrap_or(0);
        let minions = built_minions(draft, command, rules, problems);
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
