//! `decide`: a command checked against the rules, then rolled into its events.
//! This file holds the dispatch (with the table's commands: terrain, the GM's
//! rolls and tools) and what the steps share; one file per step of the
//! encounter: `prepare` (initiative, crafting: "Turns",
//! "Support Abilities"), `turn` (whose turn, starting and ending it:
//! "Turns"), `plan` (every basic action and ability action checked: "Basic
//! Actions", the abilities) and `execute` (rolling it: "Rolls", "Hit Points").

use std::collections::BTreeMap;

use tabula_core::{Refusal, Roller, RuleError, Seat};

use crate::abilities::Ability;
use crate::character::HitPointState;
use crate::command::{Action, Command};
use crate::event::{ActionKind, Effect, Event, InitiativeRoll, Slot, TargetRoll, Unrepeatable};
use crate::rolls::{Check, roll_d20_for};
use crate::rules::{self, MAX_TIE_ROLLS};
use crate::state::{Evading, Phase, State};

mod prepare;
use prepare::*;
mod turn;
pub(crate) use turn::*;
mod plan;
pub(crate) use plan::*;
mod execute;
pub use execute::*;

/// Check `command` from `seat` and produce its events.
///
/// # Errors
/// A [`RuleError`] naming the rule that refuses it; nothing changes.
pub fn decide(
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    match command {
        Command::Initiative => initiative(state, seat, roller),
        Command::Terrain { terrain, present } => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    rules::MOVEMENT_ABILITIES,
                    Refusal::NotPermitted,
                    "only the GM changes the terrain",
                ));
            }
            if state.phase == Phase::Over {
                return Err(RuleError::new(
                    rules::TURNS,
                    Refusal::WrongPhase,
                    "the encounter is over",
                ));
            }
            if state.terrain.contains(terrain) == *present {
                return Err(RuleError::forbidden(
                    rules::MOVEMENT_ABILITIES,
                    format!(
                        "{terrain} is already {}",
                        if *present { "there" } else { "absent" }
                    ),
                ));
            }
            Ok(vec![Event::TerrainChanged {
                terrain: *terrain,
                present: *present,
            }])
        }
        Command::Craft {
            crafter,
            target,
            ability,
            hurry,
        } => craft(state, seat, crafter, target, *ability, *hurry, roller),
        Command::Uncraft {
            crafter,
            target,
            ability,
        } => {
            let (c, t) = craft_parties(state, seat, crafter, target)?;
            match state.get(t).and_then(|x| x.bonuses.get(ability)) {
                Some(b) if b.crafter == c => Ok(vec![Event::Uncrafted {
                    target: t,
                    ability: *ability,
                }]),
                _ => Err(RuleError::not_held(
                    rules::SUPPORT_ABILITIES,
                    "temporary bonus",
                    format!(
                        "{} gave {} no bonus to {ability}",
                        name(state, c),
                        name(state, t)
                    ),
                )),
            }
        }
        Command::Act { actor, action } => act(state, seat, actor, action, roller),
        Command::Adjust {
            character,
            value,
            amount,
        } => crate::gm::adjust(state, seat, character, *value, *amount),
        Command::EndEncounter => crate::gm::end_encounter(state, seat),
        Command::Remove { character } => crate::gm::remove(state, seat, character),
        Command::Add {
            kind,
            sheet: None,
            name,
            to,
        } => crate::gm::add(state, seat, kind, name.as_deref(), to.as_deref()),
        Command::Add {
            kind,
            sheet: Some(text),
            name,
            to,
        } => crate::gm::add_sheet(state, seat, kind, text, name.as_deref(), to.as_deref()),
        Command::Roll {
            character,
            ability,
            difficulty,
            requires,
        } => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    rules::ROLLS,
                    Refusal::NotPermitted,
                    "only the GM calls for a roll outside the actions",
                ));
            }
            crate::rolls::check_inputs(0, *difficulty, 0)?;
            let i = find(state, character)?;
            let Some(c) = state.get(i) else {
                return Err(unknown_character(state, character));
            };
            let level = ability.map(|a| c.level(a)).unwrap_or(0);
            if *requires && level == 0 {
                return Err(RuleError::not_held(
                    rules::ROLLS,
                    ability.map(|a| a.name()).unwrap_or("ability"),
                    format!(
                        "this roll requires {}; {} has no level of it and cannot attempt it",
                        ability.map(|a| a.name()).unwrap_or("an ability"),
                        c.character.name()
                    ),
                ));
            }
            let modifier = if c.in_cover { -2 } else { 0 };
            let what = format!(
                "{} against difficulty {difficulty}",
                ability.map_or("a roll", |a| a.name())
            );
            let roll = roll_d20_for(state.rules.d20, roller, c.character.name(), &what)?;
            let check = Check::resolve(roll, *ability, level, modifier, *difficulty);
            Ok(vec![Event::Rolled {
                character: i,
                check,
            }])
        }
    }
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
pub(crate) struct Plan {
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
pub(crate) struct TurnNow {
    turns: u32,
    regular_used: bool,
    bonus_used: bool,
    engaged_on_turn: Option<u32>,
}

impl TurnNow {
    pub(crate) fn of(state: &State, a: usize) -> TurnNow {
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
