//! Calling a check and setting its TN ("When to Roll", "Character versus
//! Character").

use super::*;
use crate::rules::{RULE_INJURIES, RULE_SEQUENCE, RULE_VERSUS};

/// `decide` for [`Command::Check`].
pub(super) fn check(
    state: &State,
    seat: &Seat,
    character: &usize,
    tn: &u32,
    ongoing: &bool,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    if state.sequence.is_some() {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "in an Action Sequence the GM frames the turn and the players choose the focal character",
        ));
    }
    not_debilitated(state, *character)?;
    if *tn == 0 || *tn > MAX_TN {
        return Err(RuleError::out_of_range(
            crate::rules::RULE_WHEN_TO_ROLL,
            "TN",
            1,
            5,
            i64::from(*tn),
        ));
    }
    Ok(vec![Event::CheckCalled {
        check: OpenCheck::new(state.next_check, *character, Some(*tn), *ongoing, None),
    }])
}

/// `decide` for [`Command::Confront`].
pub(super) fn confront(
    state: &State,
    seat: &Seat,
    aggressor: &usize,
    defender: &usize,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    if state.sequence.is_some() {
        return Err(RuleError::new(
            RULE_VERSUS,
            Refusal::WrongPhase,
            "a confrontation happens outside an Action Sequence; use fight to start one",
        ));
    }
    not_debilitated(state, *aggressor)?;
    known(state, *defender)?;
    if aggressor == defender {
        return Err(RuleError::forbidden(
            RULE_VERSUS,
            "a character cannot confront themself",
        ));
    }
    Ok(vec![Event::CheckCalled {
        check: OpenCheck::new(state.next_check, *aggressor, None, false, Some(*defender)),
    }])
}

/// `decide` for [`Command::Tn`].
pub(super) fn tn(
    state: &State,
    seat: &Seat,
    tn: &u32,
    not_relevant: &[String],
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let c = open_check(state)?;
    if c.versus.is_some() {
        return Err(RuleError::forbidden(
            RULE_VERSUS,
            "against a defender the TN starts at 1 and the defender raises it",
        ));
    }
    if *tn == 0 || *tn > MAX_TN {
        return Err(RuleError::out_of_range(
            crate::rules::RULE_WHEN_TO_ROLL,
            "TN",
            1,
            5,
            i64::from(*tn),
        ));
    }
    if not_relevant.len() > 10 {
        return Err(RuleError::out_of_range(
            RULE_INJURIES,
            "entries ruled not relevant",
            0,
            10,
            not_relevant.len() as i64,
        ));
    }
    Ok(vec![Event::TnSet {
        tn: *tn,
        not_relevant: not_relevant.iter().map(|s| clip(s)).collect(),
    }])
}
