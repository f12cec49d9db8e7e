//! [`decide`]: a command checked against the rules, as events ("Steps").
//!
//! Oppositions: initiative, the fourteen steps, skill hands with betting, damage,
//! Desperation, followers and extras, dramatic actions, and the Advantages.
//!
//! A Game of Bastards, "Steps" / "Opposition", "Skill Hands in Oppositions",
//! "Initiative", "Desperation", "Random Rules", "Advantages", "Optional Rules",
//! "Building A Scene" (003_2dfeea144768d328.txt); R-GB-2 .. R-GB-10.
//!
//! The fourteen steps map onto phases and commands: (1) the Draw Step is `begin`
//! (every hand drawn); initiative is chosen with `init`; (2) the acting character's
//! `draw` or `mulligan`; (3) the active phase: `discard`, `wield`, `wildcard` and
//! the quick Advantages; (4) `attack` (or `reinit`, `pickup`, `study`, `pass`...),
//! with raises counted from the margin (R-GB-4); (5) `play` face down, attacker then
//! defender; (6)-(8) `bet` / `call`, the affected side first, until both call;
//! (9) consequences, automatic; (10) the turn ends; (11) the next initiative acts;
//! (12) the round ends and restarts from the lowest initiative; (13) `end`; (14) all
//! cards are shuffled back into the deck.
//!
//! One file per phase of the table: `table` (begin, scene, end, finish),
//! `skill_check` (a Skill Check, with the Fate Draw it makes), `turn`
//! (initiative and the draw step), `exchange` (attack, play, bet, call),
//! `action` (reinit, wield, pickup, pass, use), `dramatic` (reinforce, involve,
//! appear, distance); and the book's chapters those steps share: `hand` (the
//! opposed hand and its consequences), `turns` and `round` ("Steps",
//! "Initiative"), `advantage` (Advantages used on their own), `out` (names,
//! who commands whom, and `Out`).

use std::borrow::Cow;

use tabula_core::cards::{Card, Shoe};
use tabula_core::names::check_name;
use tabula_core::roller::Roller;
use tabula_core::rule::{Refusal, Rule, RuleError};
use tabula_core::system::Seat;

use crate::advantages::Advantage;
use crate::character::{Character, Trait, Weapon};
use crate::command::*;
use crate::deck;
use crate::event::*;
use crate::fate::{self, SkillHand};
use crate::rules::*;
use crate::state::*;
use crate::values::{self, Total};

mod action;
mod advantage;
mod dramatic;
mod exchange;
mod hand;
mod out;
mod round;
mod skill_check;
mod table;
mod turn;
mod turns;

pub(crate) use advantage::*;
pub use hand::*;
pub use out::*;
pub(crate) use round::*;
pub use skill_check::*;
pub(crate) use turns::*;

/// Decide a command. See [`crate::Bastards`].
///
/// # Errors
/// A [`RuleError`] naming the rule; nothing changes.
pub fn decide(
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    if state.finished {
        return Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "the encounter is over",
        ));
    }
    let mut o = Out::new(state);
    match command {
        Command::Fate { .. } => skill_check::decide(&mut o, state, seat, command, roller)?,
        Command::Begin | Command::Scene | Command::End | Command::Finish => {
            table::decide(&mut o, state, seat, command, roller)?
        }
        Command::Init { .. }
        | Command::Mulligan
        | Command::Draw
        | Command::Discard { .. }
        | Command::Wildcard { .. } => turn::decide(&mut o, state, seat, command, roller)?,
        Command::Attack { .. }
        | Command::Play { .. }
        | Command::Bet { .. }
        | Command::BetWild
        | Command::Call => exchange::decide(&mut o, state, seat, command, roller)?,
        Command::Reinit { .. }
        | Command::Wield { .. }
        | Command::Pickup { .. }
        | Command::Pass
        | Command::Use { .. } => action::decide(&mut o, state, seat, command, roller)?,
        Command::Reinforce { .. }
        | Command::Involve { .. }
        | Command::Appear { .. }
        | Command::Distance { .. } => dramatic::decide(&mut o, state, seat, command, roller)?,
        Command::Adjust { who, value, amount } => {
            crate::gm::adjust(&mut o, state, seat, who, *value, *amount, roller)?;
        }
        Command::Add {
            kind,
            name,
            to,
            sheet,
        } => {
            let source = match sheet {
                Some(text) => crate::gm::Source::Sheet(text),
                None => crate::gm::Source::Kind(kind),
            };
            crate::gm::add(
                &mut o,
                state,
                seat,
                source,
                name.as_deref(),
                to.as_ref(),
                roller,
            )?;
        }
        Command::Remove { who } => crate::gm::remove(&mut o, state, seat, who)?,
    }
    Ok(o.into_events())
}
