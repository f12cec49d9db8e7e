//! `decide`: which seat may give which [`Command`] now, and what it produces;
//! the dispatch to one file per phase.
//!
//! Every refusal names its rule ([`crate::rules`]) and changes nothing.

use crate::character::Stat;
use crate::combat::{act, check_free_to_move, check_path, use_item};
use crate::command::{Command, MAX_REROLLS, MAX_REST_HOURS, MAX_SPEND};
use crate::content::When;
use crate::enemies::{absorb, ensnare, move_enemy, move_player, shadow, spawn, spend};
use crate::event::Event;
use crate::evolve::{
    evolve_enemy, evolve_hero, evolve_mode, evolve_spent, touches_enemy, touches_hero,
};
use crate::gm::Purchase;
use crate::roleplay::{self, Contest, ContestResult, RollKind, RollProblem, RollResult, TieRule};
use crate::rules;
use crate::state::{Enemy, Hero, Mode, Outcome, Pending, Phase, State, Target, Turret};
use std::borrow::Cow;
use tabula_core::dice::check_pool;
use tabula_core::{Die, Refusal, RollError, Roller, RuleError, Seat};

mod after;
mod enemy;
mod out_of_combat;
mod phases;
mod player;
mod rolls;
mod seat;

pub(crate) use after::*;
pub(crate) use rolls::*;
pub(crate) use seat::*;

/// Decide a command. See [`Command`] for who may give which.
///
/// # Errors
/// A [`RuleError`] naming the rule that refuses it; nothing changes.
pub fn decide(s: &State, seat: &Seat, cmd: &Command, roller: &mut dyn Roller) -> R<Vec<Event>> {
    if let Command::Ally {
        ally,
        does: command,
    } = cmd
    {
        gm_only(&By::of(s, seat))?;
        let i = find_hero(s, ally)?;
        let h = hero(s, i)?;
        if !h.ally {
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                format!(
                    "{} is a player's character: only their player gives its commands",
                    h.name()
                ),
            ));
        }
        if !command.is_character_command() {
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                "an NPC ally may act, move, use an item, roleplay, roll or rest",
            ));
        }
        return decide_by(s, &By::Hero(i), command, roller);
    }
    decide_by(s, &By::of(s, seat), cmd, roller)
}

fn decide_by(s: &State, seat: &By, cmd: &Command, roller: &mut dyn Roller) -> R<Vec<Event>> {
    if s.closed {
        return Err(RuleError::new(
            rules::SEATS,
            Refusal::WrongPhase,
            "the session is closed",
        ));
    }
    if s.pending.is_some() && !matches!(cmd, Command::Answer { .. }) {
        return Err(RuleError::new(
            rules::ROLEPLAY_AGAINST_ENEMIES,
            Refusal::WrongPhase,
            "a Competing Roll against an enemy waits for the GM's `answer`",
        ));
    }
    let mut out = Vec::new();
    match cmd {
        Command::Roll { .. }
        | Command::Compete { .. }
        | Command::Consent { .. }
        | Command::Pvp { .. }
        | Command::Super6
        | Command::Rest { .. } => out_of_combat::decide(s, seat, cmd, roller, &mut out)?,
        Command::Fight
        | Command::EndPhase
        | Command::EndCombat
        | Command::Close
        | Command::Adjust { .. }
        | Command::Add { .. }
        | Command::Remove { .. } => phases::decide(s, seat, cmd, roller, &mut out)?,
        Command::Act { .. }
        | Command::Move { .. }
        | Command::UseItem { .. }
        | Command::Roleplay { .. }
        | Command::RoleplayVs { .. } => player::decide(s, seat, cmd, roller, &mut out)?,
        Command::Answer { .. }
        | Command::Spend { .. }
        | Command::MoveEnemy { .. }
        | Command::MovePlayer { .. }
        | Command::Spawn { .. }
        | Command::Sink { .. }
        | Command::Emerge { .. }
        | Command::Ensnare { .. }
        | Command::Absorb { .. } => enemy::decide(s, seat, cmd, roller, &mut out)?,
        Command::Ally { .. } => {
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                "an NPC ally's command holds one command of the ally",
            ));
        }
    }
    Ok(out)
}
