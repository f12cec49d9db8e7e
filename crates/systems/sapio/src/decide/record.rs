//! The GM records Injuries, Stresses and Luck ("Injuries and Stresses",
//! "Principles and Worst Impulses", "Luck").

use super::*;
use crate::rules::{RULE_INJURIES, RULE_LUCK, RULE_PRINCIPLES};

/// `decide` for [`Command::Harm`].
pub(super) fn harm(
    state: &State,
    seat: &Seat,
    character: &usize,
    kind: &HarmKind,
    level: &Level,
    name: &str,
    similar_to: &Option<String>,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let m = known(state, *character)?;
    let track = match kind {
        HarmKind::Injury => m.character.injuries(),
        HarmKind::Stress => m.character.stresses(),
    };
    let recording = track
        .plan(*kind, *level, name, similar_to.as_deref())
        .map_err(|e| harm_refusal(m, *kind, e))?;
    Ok(vec![Event::Harmed {
        character: *character,
        kind: *kind,
        recording,
    }])
}

/// `decide` for [`Command::Heal`].
pub(super) fn heal(
    state: &State,
    seat: &Seat,
    character: &usize,
    kind: &HarmKind,
    name: &str,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let m = known(state, *character)?;
    let track = match kind {
        HarmKind::Injury => m.character.injuries(),
        HarmKind::Stress => m.character.stresses(),
    };
    let at = track.find(name).ok_or_else(|| {
        unknown_among(
            RULE_INJURIES,
            &format!("{kind} of {}", m.character.name()),
            name,
            &track
                .entries()
                .iter()
                .map(|(_, n)| n.to_string())
                .collect::<Vec<_>>(),
        )
    })?;
    Ok(vec![Event::Healed {
        character: *character,
        kind: *kind,
        at,
        name: name.trim().to_string(),
    }])
}

/// `decide` for [`Command::LuckPrinciple`].
pub(super) fn luck_principle(
    state: &State,
    seat: &Seat,
    character: &usize,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    luck_room(state, *character, 1)?;
    Ok(vec![Event::LuckGained {
        character: *character,
        amount: 1,
        reason: LuckReason::Principle,
    }])
}

/// `decide` for [`Command::LuckImpulse`].
pub(super) fn luck_impulse(
    state: &State,
    seat: &Seat,
    character: &usize,
    beneficiary: &usize,
) -> Result<Vec<Event>, RuleError> {
    // The focal character chooses who was most inconvenienced.
    let focal_ok = state
        .check
        .as_ref()
        .is_some_and(|c| may_act(state, seat, c.focal));
    if !seat.is_gm() && !focal_ok {
        return Err(RuleError::new(
            RULE_PRINCIPLES,
            Refusal::NotPermitted,
            "the GM or the focal player names who gains the Luck",
        ));
    }
    known(state, *character)?;
    if character == beneficiary {
        return Err(RuleError::forbidden(
            RULE_PRINCIPLES,
            "the most inconvenienced *other* character gains the Luck",
        ));
    }
    luck_room(state, *beneficiary, 1)?;
    Ok(vec![Event::LuckGained {
        character: *beneficiary,
        amount: 1,
        reason: LuckReason::WorstImpulse,
    }])
}

/// `decide` for [`Command::GiveLuck`].
pub(super) fn give_luck(
    state: &State,
    seat: &Seat,
    character: &usize,
    amount: &u32,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    if *amount == 0 || *amount > 3 {
        return Err(RuleError::out_of_range(
            RULE_LUCK,
            "Luck given at once",
            1,
            3,
            i64::from(*amount),
        ));
    }
    luck_room(state, *character, *amount)?;
    Ok(vec![Event::LuckGained {
        character: *character,
        amount: *amount,
        reason: LuckReason::Gm,
    }])
}
