//! The [`Scratch`] system: `System` and `TextPlay` (table files, typed commands,
//! descriptions of every event with every die).

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

use tabula_core::system::CommandDoc;
use tabula_core::{
    ChoiceOdds, CommandParseError, CommandSpec, Roller, RuleError, Seat, System, TextPlay,
};

use crate::abilities::{Ability, Terrain};
use crate::actions::{self, Action, Command};
use crate::character::{Character, CharacterDraft, HitPointState, LoadError};
use crate::encounter::{ActionKind, Combatant, Effect, Event, Group, Phase, State, TargetRoll};
use crate::rolls::Check;
use crate::rules::{D20Method, MAX_CHARACTERS, MAX_CP_CAP, MAX_LEVEL_CAP, TableRules};
use tabula_core::names::{NameError, check_name, check_seat_name};

/// Scratch RPS (001_337b5a42e331e513.txt) as a decide/evolve system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scratch;

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
struct SettingFile {
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
fn carry_crafted_bonuses(state: &mut State) {
    for i in 0..state.characters.len() {
        let wanted: Vec<(Ability, String)> = state
            .get(i)
            .map(|c| c.character.crafted().to_vec())
            .unwrap_or_default();
        for (ability, crafter) in wanted {
            let Some(j) = state
                .characters
                .iter()
                .position(|c| crate::encounter::names_match(&c.id, &crafter))
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
                    crate::encounter::CraftBonus {
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

/// One character as every seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharacterView {
    /// The id typed in commands.
    pub id: String,
    /// The name.
    pub name: String,
    /// The controlling seat.
    pub seat: String,
    /// The side.
    pub side: String,
    /// Hit points now.
    pub hit_points: u32,
    /// Maximum hit points.
    pub max_hit_points: u32,
    /// Stamina.
    pub stamina: u32,
    /// Healthy, injured, incapacitated.
    pub state: HitPointState,
    /// Agility now (states included).
    pub agility: i64,
    /// Intelligence now.
    pub intelligence: i64,
    /// Strength now.
    pub strength: i64,
    /// Every state it is in: delayed, panicked, evading, in cover, engaged,
    /// flying, escaped.
    pub states: Vec<String>,
    /// The leader's id, for a minion.
    pub minion_of: Option<String>,
}

/// What a seat sees: everything (Scratch RPS hides nothing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Preparation, turns, over.
    pub phase: Phase,
    /// The round.
    pub round: u32,
    /// The seat whose group's turn it is.
    pub turn_of: Option<String>,
    /// The character whose turn is on.
    pub active: Option<String>,
    /// The terrain.
    pub terrain: Vec<Terrain>,
    /// Cover available.
    pub cover: bool,
    /// Throwable objects available.
    pub throwable_objects: bool,
    /// Every character.
    pub characters: Vec<CharacterView>,
}

pub(crate) fn states_of(c: &Combatant) -> Vec<String> {
    let mut v = Vec::new();
    if c.delayed() {
        v.push("delayed".into());
    }
    if c.panicked() {
        v.push("panicked".into());
    }
    if let Some(e) = c.evading {
        v.push(match e.ability {
            Some(a) => format!("evading (+{} {a})", e.level),
            None => "evading".into(),
        });
    }
    if !c.held_by.is_empty() {
        v.push("held".into());
    }
    if c.in_cover {
        v.push("in cover".into());
    }
    if c.engaged_on_turn.is_some() {
        v.push("engaged".into());
    }
    if c.aloft {
        v.push("flying".into());
    }
    if c.escaped {
        v.push("escaped".into());
    }
    for (a, b) in &c.bonuses {
        v.push(format!(
            "+1 {a}{}",
            if b.usable {
                ""
            } else {
                " (not usable in a hurry)"
            }
        ));
    }
    v
}

/// The view of `state` (the same for every seat).
pub fn view_of(state: &State) -> View {
    View {
        phase: state.phase,
        round: state.round,
        turn_of: state
            .current_group()
            .and_then(|g| state.groups.get(g))
            .map(|g| g.seat.to_string()),
        active: state
            .active
            .and_then(|a| state.get(a))
            .map(|c| c.id.clone()),
        terrain: state.terrain.iter().copied().collect(),
        cover: state.cover,
        throwable_objects: state.throwable_objects,
        characters: state
            .characters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let d = c.base_defenses(&state.rules);
                CharacterView {
                    id: c.id.clone(),
                    name: c.character.name().into(),
                    seat: state.seat_of(i).map(|s| s.to_string()).unwrap_or_default(),
                    side: state.side_of(i).unwrap_or_default().into(),
                    hit_points: c.hit_points,
                    max_hit_points: d.max_hit_points,
                    stamina: d.stamina,
                    state: c.hp_state(&state.rules),
                    agility: state.agility(i),
                    intelligence: state.intelligence(i),
                    strength: state.strength(i),
                    states: states_of(c),
                    minion_of: c.leader.and_then(|l| state.get(l)).map(|l| l.id.clone()),
                }
            })
            .collect(),
    }
}

impl System for Scratch {
    const ID: &'static str = crate::ID;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn decide(
        state: &State,
        seat: &Seat,
        command: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        actions::decide(state, seat, command, roller)
    }

    fn evolve(state: &mut State, event: &Event) {
        state.apply(event);
    }

    fn view(state: &State, _seat: &Seat) -> View {
        view_of(state)
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        actions::legal_commands(state, seat)
    }
}

fn n(state: &State, i: usize) -> String {
    state
        .get(i)
        .map(|c| c.character.name().to_string())
        .unwrap_or_else(|| format!("#{i}"))
}

fn roll_text(state: &State, r: &TargetRoll, ability: Option<Ability>) -> String {
    let c: &Check = &r.check;
    let dice = if c.roll.dice.len() == 1 && c.roll.method == D20Method::D20 {
        format!("d20 {}", c.roll.value)
    } else {
        format!(
            "{} ({} by {:?})",
            c.roll.value,
            c.roll
                .dice
                .iter()
                .map(|d| format!("d6 {d}"))
                .collect::<Vec<_>>()
                .join(", "),
            c.roll.method.name()
        )
    };
    let ab = match (ability, c.level) {
        (Some(a), l) if l > 0 => format!(" + {a} {l}"),
        _ => String::new(),
    };
    let m = if c.modifier != 0 {
        format!(" {:+}", c.modifier)
    } else {
        String::new()
    };
    let verdict = if c.roll.automatic {
        "automatic success"
    } else if c.success {
        "success"
    } else {
        "failure"
    };
    if r.against == "difficulty" {
        return format!(
            "{dice}{ab}{m} = {} against difficulty {} ({}): {verdict}",
            c.total,
            c.difficulty,
            n(state, r.target)
        );
    }
    format!(
        "{dice}{ab}{m} = {} against {}'s {} {}: {verdict}",
        c.total,
        n(state, r.target),
        r.against,
        c.difficulty
    )
}

fn effect_text(state: &State, actor: usize, e: &Effect) -> String {
    match e {
        Effect::Damage {
            target,
            amount,
            hit_points,
        } => {
            let st = state
                .get(*target)
                .map(|c| {
                    crate::character::HitPointState::of(
                        *hit_points,
                        c.base_defenses(&state.rules).stamina,
                    )
                })
                .map(|s| s.to_string())
                .unwrap_or_default();
            format!(
                "{} takes {amount} damage: {hit_points} hit point{}, {st}",
                n(state, *target),
                if *hit_points == 1 { "" } else { "s" }
            )
        }
        Effect::HitPoints { target, hit_points } => {
            format!(
                "{} now has {hit_points} hit point{}",
                n(state, *target),
                if *hit_points == 1 { "" } else { "s" }
            )
        }
        Effect::Delayed { target, .. } if *target == actor => format!(
            "{} is delayed by their own attack until the end of their next turn",
            n(state, *target)
        ),
        Effect::Delayed { target, .. } => format!(
            "{} is delayed until the end of their next turn",
            n(state, *target)
        ),
        Effect::Panicked { target, .. } => format!(
            "{} is panicked until the end of their next turn",
            n(state, *target)
        ),
        Effect::Held { target, .. } => format!("{} is held (stops evading)", n(state, *target)),
        Effect::Evading { evading } => match evading.ability {
            Some(a) => format!(
                "{} evades: +{} {a} to agility and strength until his next turn",
                n(state, actor),
                evading.level
            ),
            None => format!(
                "{} evades (no movement ability: defenses unchanged)",
                n(state, actor)
            ),
        },
        Effect::Aloft => format!(
            "{} is flying: no close range attacks on him until his next turn",
            n(state, actor)
        ),
        Effect::Escaped => format!("{} escapes the encounter", n(state, actor)),
        Effect::Engaged => format!(
            "{} engages: +2 to close range attacks this turn, -2 agility until his next turn",
            n(state, actor)
        ),
        Effect::TookCover => format!(
            "{} takes cover: +2 agility, -2 to his rolls",
            n(state, actor)
        ),
        Effect::LeftCover => format!("{} leaves cover", n(state, actor)),
        Effect::Used { .. } => String::new(),
    }
}

fn seat_label(state: &State, g: usize) -> String {
    state
        .groups
        .get(g)
        .map(|g| format!("{} ({})", g.seat, g.side))
        .unwrap_or_default()
}

impl TextPlay for Scratch {
    const BOOK: tabula_core::rule::Book = crate::BOOK;

    type SetupError = SetupError;

    fn setup<F: tabula_core::files::SheetFiles + ?Sized>(
        text: &str,
        files: &F,
    ) -> Result<State, SetupError> {
        setup_table(text, files)
    }

    fn seats(state: &State) -> Vec<Seat> {
        tabula_core::system::seat_list(state.groups.iter().map(|g| g.seat.clone()))
    }

    fn default_seat(state: &State) -> Seat {
        match state.current_group().and_then(|g| state.groups.get(g)) {
            Some(g) => g.seat.clone(),
            None => Seat::Gm,
        }
    }

    const COMMANDS: &'static [CommandDoc] = crate::commands::COMMANDS;
    /// The GM may end the encounter early with `end-encounter` (issue 27,
    /// item 6); otherwise it ends by play (one side out).
    const END_COMMANDS: &'static [&'static str] = &["end-encounter"];
    const LOG_SYMBOLS: tabula_core::system::LogSymbols = tabula_core::system::LogSymbols::Plain;

    /// Issue 27, bug 8: a roll is credited to the seat whose character rolled
    /// (the actor of an action, the character the GM called a roll for, the
    /// crafter of a hurried craftsmanship bonus), whoever's command closed
    /// the step. "Turns": each person's initiative group holds the
    /// characters that person controls.
    fn event_seat(state: &State, event: &Event) -> Option<Seat> {
        let who = match event {
            Event::Rolled { character, .. } => *character,
            Event::Acted { actor, .. } => *actor,
            Event::Crafted {
                crafter,
                hurry: Some(_),
                ..
            } => *crafter,
            _ => return None,
        };
        state.seat_of(who).cloned()
    }

    fn parse_command(state: &State, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
        crate::commands::parse(state, seat, line)
    }

    fn sheet(state: &State, seat: &Seat, name: Option<&str>) -> Result<String, CommandParseError> {
        crate::commands::sheet(state, seat, name)
    }

    /// [`crate::sheet::sheet_doc`]: every sheet, whole, for every seat.
    fn sheet_doc(state: &State, seat: &Seat) -> tabula_core::sheet::SheetDoc {
        crate::sheet::sheet_doc(state, seat)
    }

    fn describe(state: &State, event: &Event) -> String {
        match event {
            Event::TerrainChanged { terrain, present } => {
                format!(
                    "terrain: {terrain} {}",
                    if *present { "added" } else { "removed" }
                )
            }
            Event::Crafted {
                crafter,
                target,
                ability,
                hurry,
                usable,
            } => {
                let roll = hurry
                    .as_ref()
                    .map(|c| {
                        format!(
                            " in a hurry: d20 {} + craftsmanship {} = {} against 10: {}",
                            c.roll.value,
                            c.level,
                            c.total,
                            if c.success { "success" } else { "failure" }
                        )
                    })
                    .unwrap_or_default();
                format!(
                    "{} gives {} a temporary +1 to {ability}{roll}{}",
                    n(state, *crafter),
                    n(state, *target),
                    if *usable {
                        ""
                    } else {
                        " (it cannot be used while in a hurry)"
                    }
                )
            }
            Event::Rolled { character, check } => {
                let r = TargetRoll {
                    target: *character,
                    against: "difficulty".into(),
                    check: check.clone(),
                };
                format!(
                    "{} rolls: {}",
                    n(state, *character),
                    roll_text(state, &r, check.ability)
                )
            }
            Event::Uncrafted { target, ability } => format!(
                "the temporary bonus to {}'s {ability} is removed",
                n(state, *target)
            ),
            Event::InitiativeRolled { rolls, order } => {
                let mut s = String::from("initiative:");
                for r in rolls {
                    s.push_str(&format!(
                        "\n    {}: d20 {}{}{} = {}{}",
                        seat_label(state, r.group),
                        r.roll.value,
                        if r.stealth > 0 {
                            format!(" + stealth {}", r.stealth)
                        } else {
                            String::new()
                        },
                        if r.detection > 0 {
                            format!(" + detection {}", r.detection)
                        } else {
                            String::new()
                        },
                        r.total,
                        if r.tie_breaks.is_empty() {
                            String::new()
                        } else {
                            format!(" (tie broken by {:?})", r.tie_breaks)
                        }
                    ));
                }
                s.push_str(&format!(
                    "\n    order: {}",
                    order
                        .iter()
                        .map(|g| seat_label(state, *g))
                        .collect::<Vec<_>>()
                        .join(", then ")
                ));
                s
            }
            Event::TurnStarted { character } => {
                format!("round {}: {}'s turn", state.round, n(state, *character))
            }
            Event::Acted {
                actor,
                action,
                ability,
                rolls,
                effects,
                ..
            } => {
                if rolls.is_empty() {
                    let lines: Vec<String> = effects
                        .iter()
                        .map(|e| effect_text(state, *actor, e))
                        .filter(|t| !t.is_empty())
                        .collect();
                    if !lines.is_empty() {
                        return lines.join("\n    ");
                    }
                }
                let mut s = format!("{} {}", n(state, *actor), verb(*action));
                for r in rolls {
                    s.push_str(&format!("\n    {}", roll_text(state, r, *ability)));
                }
                for e in effects {
                    let t = effect_text(state, *actor, e);
                    if !t.is_empty() {
                        s.push_str(&format!("\n    {t}"));
                    }
                }
                s
            }
            Event::TurnEnded { character } => {
                let mut s = format!("{}'s turn ends", n(state, *character));
                if state.phase == Phase::Over {
                    s.push_str(&format!(
                        "; the encounter is over ({} still standing)",
                        state
                            .sides_standing()
                            .into_iter()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                s
            }
            Event::Adjusted {
                character,
                value,
                from,
                to,
            } => {
                let mut s = format!(
                    "The GM sets {}'s {value} to {to} (was {from})",
                    n(state, *character)
                );
                if let Some(c) = state.get(*character) {
                    s.push_str(&format!(", {}", c.hp_state(&state.rules)));
                }
                s
            }
            Event::Removed { character } => {
                let mut s = format!("The GM takes {} out of the encounter", n(state, *character));
                if state.phase == Phase::Over {
                    s.push_str(&format!(
                        "; the encounter is over ({} still standing)",
                        state
                            .sides_standing()
                            .into_iter()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                s
            }
            Event::Added {
                kind,
                group,
                character,
            } => {
                let mut s = format!("The GM adds {}", character.name());
                if !crate::encounter::names_match(kind, character.name()) {
                    s.push_str(&format!(" ({kind})"));
                }
                s.push_str(&format!(
                    " to {}'s initiative group, at {} hit points",
                    seat_label(state, *group),
                    character.level(Ability::Toughness)
                ));
                let minions: Vec<&str> = character.minions().iter().map(|m| m.name()).collect();
                if !minions.is_empty() {
                    s.push_str(&format!(", with {}", minions.join(" and ")));
                }
                s
            }
            Event::EncounterEnded => format!(
                "The GM ends the encounter ({} still standing)",
                state
                    .sides_standing()
                    .into_iter()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    fn status(state: &State, seat: &Seat) -> String {
        let roster = state
            .characters
            .iter()
            .map(|c| {
                let d = c.base_defenses(&state.rules);
                let st = states_of(c);
                format!(
                    "{} {}/{} {}{}",
                    c.id,
                    c.hit_points,
                    d.max_hit_points,
                    c.hp_state(&state.rules),
                    if st.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", st.join(", "))
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        match state.phase {
            Phase::Preparation => format!("before the encounter: roll `initiative` ({roster})"),
            Phase::Over => format!(
                "the encounter is over: {} standing ({roster})",
                state
                    .sides_standing()
                    .into_iter()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Phase::Turns => {
                let g = state
                    .current_group()
                    .map(|g| seat_label(state, g))
                    .unwrap_or_default();
                let mut s = format!("round {}, {g}'s turn ({roster})", state.round);
                for o in action_odds(state, seat) {
                    let Some(c) = state.get(o.actor) else {
                        continue;
                    };
                    let odds: Vec<String> = o
                        .choices
                        .iter()
                        .map(|x| {
                            format!(
                                "{} {} {:.1}%{}",
                                x.verb,
                                x.roll.target,
                                x.roll.probability * 100.0,
                                damage_text(&x.roll.damage)
                            )
                        })
                        .collect();
                    s.push_str(&format!(
                        "\n   {}{}: {}",
                        c.id,
                        if state.active == Some(o.actor) {
                            " (turn on)"
                        } else {
                            ""
                        },
                        if odds.is_empty() {
                            "no rolls".to_string()
                        } else {
                            odds.join(", ")
                        }
                    ));
                }
                s
            }
        }
    }

    fn finished(state: &State) -> bool {
        state.phase == Phase::Over
    }

    /// [`action_odds`], one entry per action and target: the chance of its
    /// (first) roll at that target, with the damage split in the detail.
    fn odds(state: &State, seat: &Seat) -> Vec<ChoiceOdds> {
        let mut out = Vec::new();
        for o in action_odds(state, seat) {
            let Some(c) = state.get(o.actor) else {
                continue;
            };
            for x in o.choices {
                let what = match x.verb {
                    "heal" => "the healing roll reaches its difficulty",
                    "hold" => "the hold reaches the target's strength",
                    "fight" => "each fighting attack reaches the target's agility",
                    "shoot" => "the shot reaches the target's agility",
                    _ => "the roll reaches the target's defense",
                };
                let what = format!("{what} (d20 + level, a natural 20 always succeeds)");
                let detail = if x.roll.damage.iter().all(|(v, _)| *v == 0) {
                    what
                } else {
                    format!("{what}; damage{}", damage_text(&x.roll.damage))
                };
                out.push(ChoiceOdds {
                    choice: format!("{} {} {}", c.id, x.verb, x.roll.target),
                    probability: x.roll.probability.clamp(0.0, 1.0),
                    detail,
                });
            }
        }
        out
    }
}

/// One action a character may take now against one target, with the chance of
/// its roll and the damage split ([`actions::preview`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionOdds {
    /// The action as typed: `attack`, `hold`, `shoot`, `fight`, `knockout`, `heal`.
    pub verb: &'static str,
    /// The chance of the action's (first) roll at the target and the chance of
    /// each total damage to it.
    pub roll: actions::RollPreview,
}

/// The actions one character of the seat may take now, with their odds.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorOdds {
    /// The character's index.
    pub actor: usize,
    /// Each legal action at each target (heal at allies, the rest at enemies).
    pub choices: Vec<ActionOdds>,
}

/// The odds of every attack and action `seat`'s characters may take now (the
/// character whose turn is on, or each who may start one), against every
/// target: what `status` prints next to each choice and [`TextPlay::odds`]
/// offers. Empty when it is not the seat's group's turn.
///
/// Scratch RPS, "Rolls", "Basic Actions", "Attack Abilities", "Healing"
/// (001_337b5a42e331e513.txt); R-SCR-3, R-SCR-4, R-SCR-6.
pub fn action_odds(state: &State, seat: &Seat) -> Vec<ActorOdds> {
    let mut out = Vec::new();
    if state.phase != Phase::Turns {
        return out;
    }
    for a in actions::actors(state, seat) {
        if state.get(a).is_none() {
            continue;
        }
        let mut choices = Vec::new();
        let my_side = state.side_of(a);
        for (ti, t) in state.characters.iter().enumerate() {
            let ally = state.side_of(ti) == my_side;
            for tpl in [
                Action::Attack {
                    target: t.id.clone(),
                    with: None,
                },
                Action::Hold {
                    target: t.id.clone(),
                    with: None,
                },
                Action::Shoot {
                    target: t.id.clone(),
                },
                Action::Fight {
                    targets: vec![t.id.clone()],
                },
                Action::Knockout {
                    target: t.id.clone(),
                },
                Action::Heal {
                    target: t.id.clone(),
                },
            ] {
                if ally != matches!(tpl, Action::Heal { .. }) {
                    continue;
                }
                if let Some(p) = actions::preview(state, a, &tpl)
                    && let Some(first) = p.into_iter().next()
                {
                    choices.push(ActionOdds {
                        verb: verb_word(&tpl),
                        roll: first,
                    });
                }
            }
        }
        out.push(ActorOdds { actor: a, choices });
    }
    out
}

/// " [0: 35%, 2: 60%, 5: 5%]" for damaging actions, empty otherwise.
fn damage_text(d: &[(i64, f64)]) -> String {
    if d.iter().all(|(v, _)| *v == 0) {
        return String::new();
    }
    format!(
        " [{}]",
        d.iter()
            .map(|(v, p)| format!("{v}: {:.1}%", p * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn verb_word(a: &Action) -> &'static str {
    match a {
        Action::Attack { .. } => "attack",
        Action::Hold { .. } => "hold",
        Action::Shoot { .. } => "shoot",
        Action::Fight { .. } => "fight",
        Action::Knockout { .. } => "knockout",
        Action::Heal { .. } => "heal",
        _ => "",
    }
}

fn verb(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Attack => "makes a basic attack",
        ActionKind::Throw => "throws an object",
        ActionKind::Hold => "tries a hold",
        ActionKind::HoldWhileDelayed => "holds back while delayed (wrestling)",
        ActionKind::Distract => "tries to distract",
        ActionKind::Evade => "evades",
        ActionKind::Escape => "escapes",
        ActionKind::Engage => "engages",
        ActionKind::TakeCover => "takes cover",
        ActionKind::LeaveCover => "leaves cover",
        ActionKind::Shoot => "shoots",
        ActionKind::Blast => "blasts",
        ActionKind::Knockout => "tries a knockout",
        ActionKind::Fight => "fights",
        ActionKind::Surprise => "tries to surprise",
        ActionKind::Intimidate => "tries to intimidate",
        ActionKind::Heal => "uses healing",
    }
}
