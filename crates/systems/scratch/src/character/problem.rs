//! What makes a draft not a legal character: one [`Problem`] per broken rule,
//! each naming its key and its rule; the errors of building and loading.

use super::*;

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
