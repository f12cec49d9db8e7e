//! The commands of an encounter and `decide`: every basic action and ability
//! action, checked against the rules, then rolled.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use tabula_core::{CommandSpec, ParamSpec, Refusal, Roller, RuleError, Seat};

use crate::abilities::{Ability, Terrain};
use crate::character::HitPointState;
use crate::encounter::{
    ActionKind, Effect, Evading, Event, InitiativeRoll, Phase, Slot, State, TargetRoll,
    Unrepeatable,
};
use crate::rolls::{Check, roll_d20_for};
use crate::rules::{self, MAX_TIE_ROLLS};

mod decide;
pub use decide::*;
mod turn;
use turn::*;
mod plan;
use plan::*;
mod execute;
pub use execute::*;
mod legal;
pub use legal::*;

/// A command a seat gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// Roll initiative for every group and begin the turns ("Turns").
    Initiative,
    /// The GM adds or removes a terrain ("Movement Abilities").
    Terrain {
        /// Which terrain.
        terrain: Terrain,
        /// Add (true) or remove.
        present: bool,
    },
    /// Give a companion a temporary +1 bonus, before the encounter ("Support
    /// Abilities", craftsmanship).
    Craft {
        /// The crafter's id.
        crafter: String,
        /// The companion's id.
        target: String,
        /// The ability (already at least level 1).
        ability: Ability,
        /// In a hurry: a craftsmanship roll of 10.
        hurry: bool,
    },
    /// Remove a temporary bonus the crafter gave, before the encounter.
    Uncraft {
        /// The crafter's id.
        crafter: String,
        /// The companion's id.
        target: String,
        /// The ability.
        ability: Ability,
    },
    /// The GM calls for a roll outside the actions: d20 + the ability's level
    /// (none: no ability) against a difficulty ("Rolls"). Takes no action.
    Roll {
        /// The character's id.
        character: String,
        /// The ability added, if any.
        ability: Option<Ability>,
        /// The difficulty, -1000..=1000.
        difficulty: i64,
        /// The roll requires the ability: refused without a level of it.
        requires: bool,
    },
    /// The GM sets or changes a character's hit points (`adjust CHARACTER
    /// VALUE AMOUNT`).
    ///
    /// "Hit Points" (001_337b5a42e331e513.txt); issue 27, item 6.
    Adjust {
        /// The character's id.
        character: String,
        /// The value.
        value: crate::gm::Value,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// The GM ends the encounter now.
    ///
    /// "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    EndEncounter,
    /// The GM takes a character out of the encounter (`remove CHARACTER`).
    ///
    /// "Basic Actions", "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    Remove {
        /// The character's id.
        character: String,
    },
    /// The GM adds a character to the encounter (`add KIND|FILE.toml [as
    /// NAME] [to SEAT]`, [`crate::gm::add`]; with `sheet`,
    /// [`crate::gm::add_sheet`]).
    ///
    /// "Turns", "Hit Points", "Abilities" (001_337b5a42e331e513.txt); R-SCR-7;
    /// issue 27, item 6.
    Add {
        /// The kind: a character at the table or a bundled sheet, by name;
        /// with `sheet`, the uploaded file's name as typed.
        kind: String,
        /// The text of the uploaded character sheet `kind` names (`add
        /// FILE.toml`), read again and validated by `decide`; absent (the
        /// default, so older JSON commands still read) for a known kind.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
        /// The newcomer's name (default the kind's).
        name: Option<String>,
        /// The seat whose initiative group it joins (default the GM's).
        to: Option<String>,
    },
    /// A character acts on its turn (starting its turn if it has not begun).
    Act {
        /// The character's id.
        actor: String,
        /// What it does.
        action: Action,
    },
}

/// What a character does on its turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Basic attack: close range normal attack, 1 damage ("Basic Actions").
    Attack {
        /// The target's id.
        target: String,
        /// Fighting, wrestling or knockout to add (R-SCR-5: default the highest).
        with: Option<Ability>,
    },
    /// Throw object: long range normal attack, 1 damage; needs a throwable object.
    Throw {
        /// The target's id.
        target: String,
    },
    /// Hold: close range force attack against strength; delays, stops evading.
    Hold {
        /// The target's id.
        target: String,
        /// Wrestling, detection or a movement ability in its terrain.
        with: Option<Ability>,
    },
    /// Distract: unrepeatable close range psychic attack; delays.
    Distract {
        /// The target's id.
        target: String,
        /// A movement ability in its terrain.
        with: Option<Ability>,
    },
    /// Evade: add a movement ability to agility and strength until the next turn.
    Evade {
        /// The movement ability (R-SCR-5: default the highest usable).
        with: Option<Ability>,
    },
    /// Escape: leave the encounter; needs an evade on the last turn.
    Escape,
    /// Engage (bonus): +2 close attacks this turn, -2 agility until the next.
    Engage,
    /// Take cover (bonus): +2 agility, -2 to rolls.
    TakeCover,
    /// Leave cover (free).
    LeaveCover,
    /// Shooting: long range, 2 damage (5 automatic, R-SCR-3).
    Shoot {
        /// The target's id.
        target: String,
    },
    /// Blasting: up to three different targets, 1 damage each.
    Blast {
        /// One to three different target ids.
        targets: Vec<String>,
    },
    /// Knockout: close range, 4 damage healthy / 2 injured; delays oneself.
    Knockout {
        /// The target's id.
        target: String,
    },
    /// Fighting: two basic attacks when healthy (one when injured).
    Fight {
        /// One or two target ids (one id: both attacks at it).
        targets: Vec<String>,
    },
    /// Surprise: unrepeatable long range psychic attack with stealth or detection;
    /// panics.
    Surprise {
        /// The target's id.
        target: String,
        /// Stealth or detection (R-SCR-5: default the highest).
        with: Option<Ability>,
    },
    /// Intimidate: unrepeatable long range psychic attack with command; panics.
    Intimidate {
        /// The target's id.
        target: String,
    },
    /// Healing: revive an incapacitated character or heal an injured one.
    Heal {
        /// The target's id.
        target: String,
    },
    /// Do nothing more: end the turn.
    End,
}

/// What a successful roll does to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnSuccess {
    Delay,
    Panic,
    Held,
    SetHp(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct PlannedRoll {
    target: usize,
    against: &'static str,
    level: u32,
    modifier: i64,
    difficulty: i64,
    normal: u32,
    automatic: u32,
    on_success: Vec<OnSuccess>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Plan {
    kind: ActionKind,
    slot: Slot,
    ability: Option<Ability>,
    rolls: Vec<PlannedRoll>,
    effects: Vec<Effect>,
    after: Vec<Effect>,
}

/// The chance of a planned roll, for "what may this seat do now".
#[derive(Clone, Debug, PartialEq)]
pub struct RollPreview {
    /// The target's id.
    pub target: String,
    /// The chance of success.
    pub probability: f64,
    /// The chance of each total damage this action deals to this target (all
    /// its rolls at the target together), damage ascending.
    pub damage: Vec<(i64, f64)>,
}

use crate::rolls::Range;

fn find(state: &State, id: &str) -> Result<usize, RuleError> {
    state.find(id).ok_or_else(|| unknown_character(state, id))
}

/// An unknown character name, refused with the valid choices (every
/// character's id).
pub fn unknown_character(state: &State, id: &str) -> RuleError {
    RuleError::unknown_among(
        rules::TABLE,
        "character",
        id,
        state.characters.iter().map(|c| c.id.as_str()),
    )
}

fn name(state: &State, i: usize) -> String {
    state
        .get(i)
        .map(|c| c.character.name().to_string())
        .unwrap_or_default()
}

/// The actor's own turn as the rules read it for his command: as it stands
/// when his turn is on, or as [`Event::TurnStarted`] leaves it (the turn
/// counter one higher, both actions free, no engage) when the command starts
/// his turn. `decide` reads the state through this instead of cloning it and
/// applying `TurnStarted`: the other fields that event changes (the actor's
/// evading and flying out of reach, the active character) are read only for
/// targets, never for the actor ("Turns", "Basic Actions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TurnNow {
    turns: u32,
    regular_used: bool,
    bonus_used: bool,
    engaged_on_turn: Option<u32>,
}

impl TurnNow {
    fn of(state: &State, a: usize) -> TurnNow {
        match state.get(a) {
            Some(c) if state.active == Some(a) => TurnNow {
                turns: c.turns,
                regular_used: c.regular_used,
                bonus_used: c.bonus_used,
                engaged_on_turn: c.engaged_on_turn,
            },
            Some(c) => TurnNow {
                turns: c.turns.saturating_add(1),
                regular_used: false,
                bonus_used: false,
                engaged_on_turn: None,
            },
            None => TurnNow {
                turns: 0,
                regular_used: false,
                bonus_used: false,
                engaged_on_turn: None,
            },
        }
    }
}
