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

mod setup;
pub use setup::*;
mod view;
pub use view::*;
mod odds;
mod play;
pub use odds::*;

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
