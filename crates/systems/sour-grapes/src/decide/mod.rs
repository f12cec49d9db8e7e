//! Deciding a command: [`decide`] finds the command's moment and hands it to
//! the function of its phase, one file each: the Free moment's Spend,
//! Check, stat tools and effects in `free`, the Situation in `situation`,
//! the Event and initiative in `event`, the Experience rule in
//! `experience`, the turn's steps in `turn`; `rolls` is shared by them all
//! (and by [`crate::legal`]).
//!
//! Sour Grapes, "Game Moments", "Spend", "Check", "Situation", "Event",
//! "Experience" (000_05a1db5b88f54528.txt); R-SG-1, R-SG-8.

use std::collections::BTreeMap;

use tabula_core::{Die, Refusal, Roller, Rule, RuleError, Seat};

use crate::SourGrapes;
use crate::cards::{
    ActionCard, CardType, CardValue, EffectRule, Keep, Outcome, StarRule, same_key,
};
use crate::character::{Character, MAX_EXPERIENCE, same_name};
use crate::check::{CheckRoll, MAX_DIFFICULTY, passes};
use crate::command::Command;
use crate::event::{Event, Purpose};
use crate::rules;
use crate::state::*;
use crate::stats::{Condition, Stat};

mod event;
mod experience;
mod free;
pub(crate) mod rolls;
mod situation;
mod turn;

use event::*;
use experience::*;
use free::*;
use rolls::*;
use situation::*;
use turn::*;

/// Check a command against the rules and produce its events.
/// Sour Grapes, "Game Moments" (000_05a1db5b88f54528.txt) and the sections cited below.
pub(crate) fn decide(d: &mut Dec<'_>, seat: &Seat, cmd: &Command) -> Result<(), RuleError> {
    if d.s().over {
        return Err(RuleError::new(
            rules::MOMENTS,
            Refusal::WrongPhase,
            "the encounter is over",
        ));
    }
    match cmd {
        Command::Spend { who, stat } => spend(d, seat, who, *stat)?,
        Command::Check {
            who,
            stat,
            dice,
            tokens,
            skill,
            difficulty,
        } => {
            let bet = Bet {
                dice: *dice,
                tokens: *tokens,
            };
            make_check(d, seat, who, *stat, bet, skill, *difficulty)?;
        }
        Command::GiveBack { who, stat, points } => give_back(d, seat, who, *stat, *points)?,
        Command::TokensBack { who, skill, points } => tokens_back(d, seat, who, skill, *points)?,
        Command::Reject { who } => reject(d, seat, who)?,
        Command::Heal { who, stat } => heal(d, seat, who, *stat)?,
        Command::Rest => rest(d, seat)?,
        Command::Situation {
            who,
            stat,
            skill,
            difficulty,
        } => start_situation(d, seat, who, *stat, skill, *difficulty)?,
        Command::Difficulty { value } => change_difficulty(d, seat, *value)?,
        Command::Final { dice, tokens } => {
            let bet = Bet {
                dice: *dice,
                tokens: *tokens,
            };
            final_check(d, seat, bet)?;
        }
        Command::StartEvent => start_event(d, seat)?,
        Command::Initiative { who, stat, dice } => initiative(d, seat, who, *stat, *dice)?,
        Command::EndEvent => end_event(d, seat)?,
        _ => effects_experience_and_gm_tools(d, seat, cmd)?,
    }
    Ok(())
}

/// The commands of [`decide`] that put effects on and off, the Experience
/// rule's, and the storyteller's tools; the turn's steps go on to
/// `turn_command`. Sour Grapes, "Effects", "Experience"
/// (000_05a1db5b88f54528.txt); GM tools (issue 27, item 6).
fn effects_experience_and_gm_tools(
    d: &mut Dec<'_>,
    seat: &Seat,
    cmd: &Command,
) -> Result<(), RuleError> {
    match cmd {
        Command::Cure { who, effect } => cure(d, seat, who, effect)?,
        Command::Afflict { who, card } => afflict(d, seat, who, card)?,
        Command::Award { who, points } => award(d, seat, who, *points)?,
        Command::Raise { who, what } => raise(d, seat, who, what)?,
        Command::Improve { who, card, damage } => improve(d, seat, who, card, *damage)?,
        Command::Adjust { who, stat, amount } => {
            need_gm(seat, "adjust a character's stats", crate::gm::GM_TOOLS)?;
            let who = who_known(d.s(), who, rules::STAT_MECHANICS)?;
            let e = crate::gm::adjust(d.s(), &who, *stat, *amount)?;
            d.emit(e);
        }
        Command::Add {
            kind,
            name,
            seat: to,
            sheet,
        } => {
            need_gm(seat, "add a character", crate::gm::GM_TOOLS)?;
            let e = crate::gm::add(d.s(), kind, sheet.as_deref(), name.as_deref(), to.as_ref())?;
            d.emit(e);
        }
        Command::Remove { who } => {
            need_gm(seat, "remove a character", crate::gm::GM_TOOLS)?;
            let who = who_known(d.s(), who, crate::gm::GM_TOOLS)?;
            let e = crate::gm::remove(d.s(), &who)?;
            d.emit(e);
            // The last participant still to roll initiative left: the order.
            if d.s().event().is_some_and(|e| e.order.is_empty()) {
                settle_initiative(d)?;
            }
        }
        Command::EndEncounter => {
            need_gm(seat, "end the encounter", rules::MOMENTS)?;
            d.emit(Event::EncounterEnded);
        }
        _ => turn_command(d, seat, cmd)?,
    }
    Ok(())
}
