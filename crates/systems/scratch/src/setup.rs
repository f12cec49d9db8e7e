//! Setting up a table: the table file and its characters, the `[rules]` that
//! bind them (R-SCR-7, R-SCR-9), the initiative groups ("Turns") and the
//! temporary bonuses the sheets carry ("Support Abilities").

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

use tabula_core::Seat;
use tabula_core::names::{NameError, check_name, check_seat_name};

use crate::abilities::{Ability, Terrain};
use crate::character::{Character, CharacterDraft, LoadError};
use crate::command::Action;
use crate::rules::{MAX_CHARACTERS, MAX_CP_CAP, MAX_LEVEL_CAP, TableRules};
use crate::state::{Combatant, Group, Phase, State};

/// The encounter part of a table file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterFile {
    /// Terrain names: obstacles, level-ground, room-to-fly, water, deep-water.
    #[serde(default)]
    pub terrain: Vec<String>,
    /// There is cover to take.
    #[serde(default)]
    pub cover: bool,
    /// Dangerous throwable objects are at hand.
    #[serde(default)]
    pub throwable_objects: bool,
}

/// One initiative group in a table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFile {
    /// The controlling seat (`gm` or a player's name).
    pub seat: String,
    /// The side (groups on one side are companions).
    pub side: String,
    /// Character files, relative to the table file (`"thug.toml"`, or
    /// `{ file = "thug.toml", id = "thug-a" }` to seat one file twice). A
    /// character's minions join the same group.
    pub characters: Vec<CharacterEntry>,
}

/// One character in a group of a table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CharacterEntry {
    /// A character file.
    File(String),
    /// A character file with the id it has at this table.
    WithId(CharacterRef),
}

/// A character file with an id for this table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterRef {
    /// The file, relative to the table file.
    pub file: String,
    /// The id at this table (letters, digits, `-`).
    pub id: Option<String>,
}

impl CharacterEntry {
    fn parts(&self) -> (&str, Option<&str>) {
        match self {
            CharacterEntry::File(f) => (f, None),
            CharacterEntry::WithId(r) => (&r.file, r.id.as_deref()),
        }
    }
}

/// A table file (TOML).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// The table's options.
    #[serde(default)]
    pub rules: TableRules,
    /// The encounter.
    #[serde(default)]
    pub encounter: EncounterFile,
    /// The initiative groups.
    #[serde(default)]
    pub groups: Vec<GroupFile>,
}

/// Settings text on one line (`cp = 12, max_level = 5, ...`), for messages.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A table file could not be set up. Each names the field or file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not TOML of the table format.
    #[error("not a table file: {0}")]
    Toml(String),
    /// A table opened from a campaign sets `[rules]` other than the
    /// campaign's setting (R-SCR-9).
    #[error(
        "rules: a table opened from this campaign uses its setting's rules (R-SCR-9): the campaign's are {}, the table's {}; leave [rules] out of the table file",
        one_line(setting),
        one_line(table)
    )]
    NotTheSetting {
        /// The table's `[rules]`, as settings text.
        table: String,
        /// The campaign's setting, as settings text.
        setting: String,
    },
    /// A rule option is out of range.
    #[error("rules.{field}: {value} must be between {min} and {max}")]
    Rule {
        /// The option.
        field: &'static str,
        /// Its value.
        value: u32,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// An unknown terrain name.
    #[error(
        "encounter.terrain: {0:?} is not a terrain (obstacles, level-ground, room-to-fly, water, deep-water)"
    )]
    Terrain(String),
    /// No groups.
    #[error("groups: a table needs at least one initiative group")]
    NoGroups,
    /// A group without characters.
    #[error(
        "groups.characters: seat {seat:?} has no characters; an initiative group holds the characters its person controls (\"Turns\")"
    )]
    EmptyGroup {
        /// The group's seat.
        seat: String,
    },
    /// Every group on one side: nobody to fight.
    #[error("groups.side: every group is on side {side:?}; an encounter needs at least two sides")]
    OneSide {
        /// The one side.
        side: String,
    },
    /// A seat or side name that is not a name (control characters, ':' in a
    /// seat, empty, too long).
    #[error("groups.{0}")]
    Name(NameError),
    /// Two groups with one seat.
    #[error("groups: seat {0:?} has two initiative groups; one per controlling person (\"Turns\")")]
    DuplicateSeat(String),
    /// A character file cannot be read.
    #[error("{file}: cannot read: {error}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        error: String,
    },
    /// A character file is broken.
    #[error("{file}: {error}")]
    Character {
        /// The file.
        file: String,
        /// What is broken.
        error: LoadError,
    },
    /// Two characters with one id.
    #[error("{file}: id {id:?} is taken by another character; give one an `id`")]
    DuplicateId {
        /// The file.
        file: String,
        /// The id.
        id: String,
    },
    /// An id that is a command word.
    #[error("{file}: id {id:?} is a command word; give the character another `id`")]
    ReservedId {
        /// The file.
        file: String,
        /// The id.
        id: String,
    },
    /// Too many characters (or groups).
    #[error("groups: more than {MAX_CHARACTERS} characters or groups")]
    TooManyCharacters,
}

/// Words that cannot be character ids (commands of the system or the driver).
pub const RESERVED: [&str; 15] = [
    "roll",
    "sheet",
    "initiative",
    "terrain",
    "craft",
    "uncraft",
    "help",
    "status",
    "view",
    "log",
    "undo",
    "quit",
    "exit",
    "end",
    "with",
];

/// Build the initial state from a table file.
///
/// # Errors
/// [`SetupError`] naming the field or file.
pub fn setup_table<F: tabula_core::files::SheetFiles + ?Sized>(
    text: &str,
    files: &F,
) -> Result<State, SetupError> {
    let file: TableFile = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    let r = file.rules;
    check_rules(&r)?;
    let listed: usize = file.groups.iter().map(|g| g.characters.len()).sum();
    if file.groups.len() > MAX_CHARACTERS || listed > MAX_CHARACTERS {
        return Err(SetupError::TooManyCharacters);
    }
    let mut groups = Vec::new();
    for g in &file.groups {
        let mut chars = Vec::new();
        for entry in &g.characters {
            let (path, id) = entry.parts();
            let text = files.read(path).map_err(|e| SetupError::Read {
                file: path.to_string(),
                error: e.to_string(),
            })?;
            let bad = |error: LoadError| SetupError::Character {
                file: path.to_string(),
                error,
            };
            let mut draft: CharacterDraft =
                toml::from_str(&text).map_err(|e| bad(LoadError::Toml(e.to_string())))?;
            if let Some(id) = id {
                draft.id = Some(id.to_string());
            }
            let c = Character::from_draft(draft, &r).map_err(|e| bad(LoadError::Character(e)))?;
            chars.push((path.to_string(), c));
        }
        groups.push((g.seat.clone(), g.side.clone(), chars));
    }
    build_state(r, &file.encounter, groups)
}

/// The largest `strength_base` a table may set (a cap; the book's are 7 and 8).
pub const MAX_STRENGTH_BASE: u32 = 20;

/// Check a table's options against their ranges.
///
/// # Errors
/// [`SetupError::Rule`] naming the option.
pub fn check_rules(r: &TableRules) -> Result<(), SetupError> {
    for (field, value, min, max) in [
        ("cp", r.cp, 1, MAX_CP_CAP),
        ("max_level", r.max_level, 1, MAX_LEVEL_CAP),
        ("strength_base", r.strength_base, 0, MAX_STRENGTH_BASE),
    ] {
        if value < min || value > max {
            return Err(SetupError::Rule {
                field,
                value,
                min,
                max,
            });
        }
    }
    Ok(())
}

/// The `[rules]` of a table file's text, checked: what binds every character
/// at that table (R-SCR-7). The rest of the file is read but not set up.
///
/// # Errors
/// [`SetupError::Toml`] or [`SetupError::Rule`].
pub fn table_rules(text: &str) -> Result<TableRules, SetupError> {
    let file: TableFile = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    check_rules(&file.rules)?;
    Ok(file.rules)
}

/// A campaign's setting (R-SCR-9): the `[rules]` a Scratch table takes, and
/// nothing else.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SettingFile {
    #[serde(default)]
    rules: TableRules,
}

/// The setting's rules of a campaign from its settings text: a `[rules]`
/// table as a table file writes it (`cp`, `max_level`, `strength_base`,
/// `d20`), each defaulting to the book's; empty text is the book's rules.
///
/// R-SCR-9: "A campaign carries its setting's rules (the `[rules]` a Scratch
/// table takes: CP, maximum level, d20 method, strength base)".
///
/// # Errors
/// [`SetupError::Toml`] for text that is not a `[rules]` table (an unknown
/// key included); [`SetupError::Rule`] for an option out of range.
pub fn setting_rules(text: &str) -> Result<TableRules, SetupError> {
    let file: SettingFile = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    check_rules(&file.rules)?;
    Ok(file.rules)
}

/// The settings text of `rules`: the `[rules]` table, every option written.
pub fn setting_text(rules: &TableRules) -> String {
    toml::to_string(&SettingFile { rules: *rules }).unwrap_or_default()
}

/// A table file's text opened from a campaign set to `setting` (R-SCR-9:
/// "every table opened from it uses them"): a table without `[rules]` takes
/// the setting's; one whose `[rules]` are the setting's is unchanged.
///
/// # Errors
/// [`SetupError::Toml`] for a text that is not a table file;
/// [`SetupError::Rule`] for an option out of range;
/// [`SetupError::NotTheSetting`] when the table's `[rules]` differ from the
/// setting's.
pub fn table_in_setting(text: &str, setting: &TableRules) -> Result<String, SetupError> {
    let mut doc: toml::Table = toml::from_str(text).map_err(|e| SetupError::Toml(e.to_string()))?;
    if doc.contains_key("rules") {
        let own = table_rules(text)?;
        if own != *setting {
            return Err(SetupError::NotTheSetting {
                table: setting_text(&own),
                setting: setting_text(setting),
            });
        }
        return Ok(text.to_string());
    }
    let rules = toml::Value::try_from(setting).map_err(|e| SetupError::Toml(e.to_string()))?;
    doc.insert("rules".to_string(), rules);
    Ok(doc.to_string())
}

/// Build the initial state from characters already validated: one entry per
/// initiative group (seat, side, and each character with the file it came from,
/// for errors). A character's minions join its group.
///
/// # Errors
/// [`SetupError`] naming the field or file.
#[allow(clippy::type_complexity)]
pub fn build_state(
    r: TableRules,
    encounter: &EncounterFile,
    groups: Vec<(String, String, Vec<(String, Character)>)>,
) -> Result<State, SetupError> {
    let mut terrain = BTreeSet::new();
    for t in &encounter.terrain {
        terrain.insert(Terrain::parse(t).ok_or_else(|| SetupError::Terrain(t.clone()))?);
    }
    if groups.is_empty() {
        return Err(SetupError::NoGroups);
    }
    for (seat, side, chars) in &groups {
        check_seat_name("seat", seat).map_err(SetupError::Name)?;
        check_name("side", side).map_err(SetupError::Name)?;
        if chars.is_empty() {
            return Err(SetupError::EmptyGroup { seat: seat.clone() });
        }
    }
    if let Some((_, first, _)) = groups.first()
        && groups
            .iter()
            .all(|(_, side, _)| tabula_core::names::same_name(side, first))
    {
        return Err(SetupError::OneSide {
            side: first.clone(),
        });
    }
    let mut state = State {
        rules: r,
        terrain,
        cover: encounter.cover,
        throwable_objects: encounter.throwable_objects,
        characters: Vec::new(),
        groups: Vec::new(),
        phase: Phase::Preparation,
        round: 0,
        order: Vec::new(),
        group_turn: 0,
        active: None,
        unrepeatable: BTreeSet::new(),
    };
    for (gi, (seat_name, side, chars)) in groups.into_iter().enumerate() {
        let seat = Seat::parse(&seat_name);
        // One side however it is capitalised: the first spelling.
        let side = state
            .groups
            .iter()
            .find(|g| tabula_core::names::same_name(&g.side, &side))
            .map_or(side, |g| g.side.clone());
        if state.groups.iter().any(|x| x.seat.same_seat(&seat)) {
            return Err(SetupError::DuplicateSeat(seat_name));
        }
        let mut members = Vec::new();
        for (path, c) in chars {
            let minions: Vec<Character> = c.minions().to_vec();
            let leader = state.characters.len();
            let mut add = |c: Character,
                           leader: Option<usize>,
                           state: &mut State|
             -> Result<(), SetupError> {
                if state.characters.len() >= MAX_CHARACTERS {
                    return Err(SetupError::TooManyCharacters);
                }
                let id = c.id().to_string();
                if RESERVED.contains(&id.as_str()) || Action::word_known(&id) {
                    return Err(SetupError::ReservedId {
                        file: path.clone(),
                        id,
                    });
                }
                if state.find(&id).is_some() {
                    return Err(SetupError::DuplicateId {
                        file: path.clone(),
                        id,
                    });
                }
                members.push(state.characters.len());
                state.characters.push(Combatant::new(c, gi, leader));
                Ok(())
            };
            add(c, None, &mut state)?;
            for m in minions {
                add(m, Some(leader), &mut state)?;
            }
        }
        state.groups.push(Group {
            seat,
            side,
            members,
            initiative: None,
        });
    }
    carry_crafted_bonuses(&mut state);
    Ok(state)
}

/// The temporary bonuses the sheets carry ([`Character::crafted`]) put back on
/// the table: each one whose crafter (by id) sits on the character's side, has
/// craftsmanship and has given fewer bonuses than his level, on an ability the
/// character has and that holds no other bonus. The others have ended: the
/// bonus "lasts until he removes it or they are no longer traveling
/// companions" ("Support Abilities"). Every character then starts at its full
/// hit points, bonuses included.
pub(super) fn carry_crafted_bonuses(state: &mut State) {
    for i in 0..state.characters.len() {
        let wanted: Vec<(Ability, String)> = state
            .get(i)
            .map(|c| c.character.crafted().to_vec())
            .unwrap_or_default();
        for (ability, crafter) in wanted {
            let Some(j) = state
                .characters
                .iter()
                .position(|c| crate::state::names_match(&c.id, &crafter))
            else {
                continue;
            };
            if j == i || state.side_of(i) != state.side_of(j) {
                continue;
            }
            let level = state
                .get(j)
                .map_or(0, |c| c.character.level(Ability::Craftsmanship));
            let given = state
                .characters
                .iter()
                .flat_map(|c| c.bonuses.values())
                .filter(|b| b.crafter == j)
                .count();
            if u32::try_from(given).map_or(true, |g| g >= level) {
                continue;
            }
            if let Some(c) = state.characters.get_mut(i)
                && c.character.level(ability) > 0
                && !c.bonuses.contains_key(&ability)
            {
                c.bonuses.insert(
                    ability,
                    crate::state::CraftBonus {
                        crafter: j,
                        usable: true,
                    },
                );
            }
        }
    }
    let rules = state.rules;
    for c in &mut state.characters {
        c.hit_points = c.max_hit_points(&rules);
    }
}
