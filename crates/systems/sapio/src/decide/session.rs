//! The end-of-session step, advancement and ending the encounter
//! ("Advancement"; R-SA-9).

use super::*;
use crate::character::AdvanceError;
use crate::rules::{RULE_ADVANCEMENT, RULE_SEQUENCE, RULE_SESSION};

/// The living characters whose advancement is due at the end-of-session step,
/// as "Name (player)" ("Name (GM)" for a character without a player). The dead
/// advance no more. "Advancement"; R-SA-9.
pub fn due_advancements(state: &State) -> Vec<String> {
    if !state.session_over {
        return Vec::new();
    }
    state
        .present()
        .map(|(_, m)| m)
        .filter(|m| m.advancement_due && !m.character.dead())
        .map(|m| {
            format!(
                "{} ({})",
                m.character.name(),
                m.character.player().unwrap_or("GM")
            )
        })
        .collect()
}

/// `decide` for [`Command::EndSession`].
pub(super) fn end_session(
    state: &State,
    seat: &Seat,
    consequential: &bool,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    if state.sequence.is_some() {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "end the Action Sequence before the session",
        ));
    }
    if state.session_over {
        return Err(RuleError::new(
            RULE_SESSION,
            Refusal::WrongPhase,
            "the session has ended already; play resumes with the next check or Action Sequence",
        ));
    }
    Ok(vec![Event::SessionEnded {
        consequential: *consequential,
    }])
}

/// `decide` for [`Command::Advance`].
pub(super) fn advance(
    state: &State,
    seat: &Seat,
    character: &usize,
    advance: &Advance,
) -> Result<Vec<Event>, RuleError> {
    acts_for(state, seat, *character)?;
    between_sessions(state)?;
    let m = known(state, *character)?;
    if !m.advancement_due {
        return Err(RuleError::already_used(
            RULE_SESSION,
            "advancement",
            format!(
                "{} has no advancement to take: one advancement per character after a consequential session, at the GM's end-of-session step",
                m.character.name()
            ),
        ));
    }
    m.character
        .check_advance(advance)
        .map_err(advance_refusal)?;
    Ok(vec![Event::Advanced {
        character: *character,
        advance: advance.clone(),
    }])
}

/// `decide` for [`Command::Change`].
pub(super) fn change(
    state: &State,
    seat: &Seat,
    character: &usize,
    change: &CycleChange,
) -> Result<Vec<Event>, RuleError> {
    acts_for(state, seat, *character)?;
    between_sessions(state)?;
    known(state, *character)?
        .character
        .check_change(change)
        .map_err(advance_refusal)?;
    Ok(vec![Event::Changed {
        character: *character,
        change: change.clone(),
    }])
}

/// `decide` for [`Command::End`].
pub(super) fn end(state: &State, seat: &Seat) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let due = due_advancements(state);
    if !due.is_empty() {
        return Err(RuleError::new(
            RULE_SESSION,
            Refusal::WrongPhase,
            format!(
                "an advancement is still due for {}: after a consequential session the player may choose one; take it first (`advance CHARACTER ...`), or end with `end carry` to leave it due on the sheet, taken between sessions",
                due.join(", ")
            ),
        ));
    }
    Ok(vec![Event::EncounterEnded])
}

/// `decide` for [`Command::EndCarrying`].
pub(super) fn end_carrying(seat: &Seat) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    Ok(vec![Event::EncounterEnded])
}

/// The refusal of an advancement or cycle change the sheet does not allow,
/// under "Advancement" (`RULE_ADVANCEMENT`) with the error's own text, of the
/// kind the book distinguishes: a type taken already in this cycle ("The
/// player must select all types of advancement once before being able to
/// select the same one again") is [`Refusal::AlreadyUsed`]; a change with no
/// completed cycle left to spend ("Upon completion of an advancement cycle,
/// the player may additionally do one of the following things") is
/// [`Refusal::Spent`]; a Profession, Side Profession or Quality the sheet
/// does not have is [`Refusal::NotHeld`]; the rest stays
/// [`Refusal::Forbidden`].
fn advance_refusal(e: AdvanceError) -> RuleError {
    let message = e.to_string();
    match e {
        AdvanceError::CycleRule { .. } => {
            RuleError::already_used(RULE_ADVANCEMENT, "advancement type", message)
        }
        AdvanceError::NoCycleCompleted => {
            RuleError::spent(RULE_ADVANCEMENT, "completed advancement cycle", message)
        }
        AdvanceError::NoProfession { .. } => {
            RuleError::not_held(RULE_ADVANCEMENT, "Profession", message)
        }
        AdvanceError::NoSideProfession { .. } => {
            RuleError::not_held(RULE_ADVANCEMENT, "Side Profession", message)
        }
        AdvanceError::NoQuality { .. } => RuleError::not_held(RULE_ADVANCEMENT, "Quality", message),
        _ => RuleError::forbidden(RULE_ADVANCEMENT, message),
    }
}
