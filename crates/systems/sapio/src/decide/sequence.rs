//! Action Sequences: beginning, joining, framing, the focal character,
//! leaving, ending, and the end of a round ("Action Sequences in Play").

use super::*;
use crate::rules::{RULE_SEQUENCE, RULE_VERSUS};

/// The turn bookkeeping of an Action Sequence, all that ending a round reads
/// of it: the round, turns framed, whether a turn waits for its focal
/// character, and each participant with whether it has been focal this round.
struct Turns {
    round: u32,
    turns: u32,
    framed: bool,
    participants: Vec<(usize, bool)>,
}

/// The round that ends once `events` are applied to `state`: `Some(round)`
/// when, in the state [`Sapio::evolve`](crate::evolve::evolve) would make, an Action Sequence is
/// under way, no check is open, no framed turn waits for its focal
/// character, a turn has been framed this round, and every participant still
/// in action (at least one) has been focal. Found without evolving a copy of
/// the whole table: only the sequence's turn bookkeeping, whether a check is
/// open and who is out of action enter it, and this follows exactly what
/// `evolve` does to those for each event. Out of action only ever begins (a second Severe, death: no
/// event undoes either), so the characters the events take out are all
/// that change there. "Action Sequences in Play": "The round ends and a new
/// round begins when all characters have been focal once."
///
/// Not [`tabula_core::decided::Decided`]: that gives the whole table after
/// the events, which `decide` would read after nearly every command, so the
/// table would be copied each time (the copy this function replaced). The
/// policy tests check it against `Decided`'s table (`tests/policy.rs`,
/// `decide_ends_rounds_as_a_full_evolve_says`).
pub(crate) fn round_end_after(state: &State, events: &[Event]) -> Option<u32> {
    let mut seq = state.sequence.as_ref().map(|s| Turns {
        round: s.round,
        turns: s.turns,
        framed: s.framed,
        participants: s
            .participants
            .iter()
            .map(|p| (p.character, p.focal_done))
            .collect(),
    });
    let mut check_open = state.check.is_some();
    let mut taken_out: Vec<usize> = Vec::new();
    for e in events {
        match e {
            Event::CheckCalled { .. } => {
                check_open = true;
                if let Some(s) = &mut seq {
                    s.framed = false;
                }
            }
            Event::SequenceBegun { .. } => {
                seq = Some(Turns {
                    round: 1,
                    turns: 0,
                    framed: false,
                    participants: Vec::new(),
                });
            }
            Event::Joined { character, .. } => {
                if let Some(s) = &mut seq
                    && !s.participants.iter().any(|(c, _)| c == character)
                {
                    s.participants.push((*character, false));
                }
            }
            Event::TurnFramed { .. } => {
                if let Some(s) = &mut seq {
                    s.framed = true;
                    s.turns = s.turns.saturating_add(1);
                }
            }
            Event::Rolled { check, .. } => {
                if let Some(s) = &mut seq
                    && let Some(p) = s.participants.iter_mut().find(|(c, _)| *c == check.focal)
                {
                    p.1 = true;
                }
                check_open = false;
            }
            Event::RoundEnded { .. } => {
                if let Some(s) = &mut seq {
                    s.round = s.round.saturating_add(1);
                    s.turns = 0;
                    s.framed = false;
                    for p in &mut s.participants {
                        p.1 = false;
                    }
                }
            }
            Event::Left { character } | Event::Removed { character } => {
                if let Some(s) = &mut seq {
                    s.participants.retain(|(c, _)| c != character);
                }
            }
            Event::SequenceEnded => seq = None,
            Event::EncounterEnded => check_open = false,
            Event::Harmed {
                character,
                recording,
                ..
            } if matches!(recording.placement, harm::Placement::Debilitated) => {
                taken_out.push(*character);
            }
            Event::Killed { character, .. } => taken_out.push(*character),
            _ => {}
        }
    }
    let s = seq?;
    let active = |c: usize| {
        !taken_out.contains(&c)
            && state
                .member(c)
                .is_some_and(|m| !m.character.out_of_action())
    };
    let mut any_active = false;
    for (c, focal_done) in &s.participants {
        if active(*c) {
            if !focal_done {
                return None;
            }
            any_active = true;
        }
    }
    (!check_open && !s.framed && s.turns > 0 && any_active).then_some(s.round)
}

/// `decide` for [`Command::Fight`].
pub(super) fn fight(
    state: &State,
    seat: &Seat,
    aggressor: &usize,
    defender: &usize,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    if state.sequence.is_some() {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "an Action Sequence is already under way",
        ));
    }
    not_debilitated(state, *aggressor)?;
    not_debilitated(state, *defender)?;
    if aggressor == defender {
        return Err(RuleError::forbidden(
            RULE_VERSUS,
            "a character cannot fight themself",
        ));
    }
    Ok(vec![
        Event::SequenceBegun {
            goal: format!(
                "{} fights {}",
                state.name(*aggressor),
                state.name(*defender)
            ),
            fight: Some((*aggressor, *defender)),
        },
        Event::Joined {
            character: *aggressor,
            threatened: true,
        },
        Event::Joined {
            character: *defender,
            threatened: true,
        },
    ])
}

/// `decide` for [`Command::BeginSequence`].
pub(super) fn begin_sequence(
    state: &State,
    seat: &Seat,
    goal: &str,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    if state.sequence.is_some() {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "an Action Sequence is already under way",
        ));
    }
    Ok(vec![Event::SequenceBegun {
        goal: clip(goal),
        fight: None,
    }])
}

/// `decide` for [`Command::Threaten`].
pub(super) fn join(
    state: &State,
    seat: &Seat,
    cmd: &Command,
    character: &usize,
) -> Result<Vec<Event>, RuleError> {
    let threatened = matches!(cmd, Command::Threaten { .. });
    if threatened {
        gm_only(seat)?;
    } else {
        acts_for(state, seat, *character)?;
    }
    let s = state.sequence.as_ref().ok_or_else(|| {
        RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "no Action Sequence is under way",
        )
    })?;
    if s.turns > 0 {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "characters are threatened or enter the fray at the beginning of a round, before its first turn",
        ));
    }
    not_debilitated(state, *character)?;
    if let Some(p) = state.participant(*character) {
        if threatened && !p.threatened {
            return Ok(vec![Event::Joined {
                character: *character,
                threatened,
            }]);
        }
        return Err(RuleError::forbidden(
            RULE_SEQUENCE,
            format!("{} already takes part", state.name(*character)),
        ));
    }
    Ok(vec![Event::Joined {
        character: *character,
        threatened,
    }])
}

/// `decide` for [`Command::Frame`].
pub(super) fn frame(state: &State, seat: &Seat, text: &str) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    let s = state.sequence.as_ref().ok_or_else(|| {
        RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "frame is for Action Sequences; outside one the GM calls a check",
        )
    })?;
    if s.participants.is_empty() {
        return Err(RuleError::forbidden(
            RULE_SEQUENCE,
            "nobody takes part yet: threaten characters or let them enter the fray",
        ));
    }
    if s.framed {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "this turn is framed already; the players choose the focal character",
        ));
    }
    Ok(vec![Event::TurnFramed {
        round: s.round,
        text: clip(text),
    }])
}

/// `decide` for [`Command::Focal`].
pub(super) fn focal(
    state: &State,
    seat: &Seat,
    character: &usize,
) -> Result<Vec<Event>, RuleError> {
    acts_for(state, seat, *character)?;
    let s = state.sequence.as_ref().ok_or_else(|| {
        RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "no Action Sequence is under way",
        )
    })?;
    if !s.framed {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "the GM frames the turn first",
        ));
    }
    let p = state.participant(*character).ok_or_else(|| {
        RuleError::forbidden(
            RULE_SEQUENCE,
            format!(
                "{} does not take part in this sequence",
                state.name(*character)
            ),
        )
    })?;
    if p.focal_done {
        return Err(RuleError::already_used(
            RULE_SEQUENCE,
            "focal turn",
            format!(
                "{} has been focal this round already; each participant is focal once a round",
                state.name(*character)
            ),
        ));
    }
    not_debilitated(state, *character)?;
    let mut versus = None;
    if let Some((a, d)) = s.fight {
        if s.round == 1 && s.turns == 1 && *character != a {
            return Err(RuleError::forbidden(
                RULE_VERSUS,
                format!(
                    "in a fight the aggressor, {}, is focal first",
                    state.name(a)
                ),
            ));
        }
        if *character == a {
            versus = Some(d);
        } else if *character == d {
            versus = Some(a);
        }
    }
    Ok(vec![Event::CheckCalled {
        check: OpenCheck::new(state.next_check, *character, None, false, versus),
    }])
}

/// `decide` for [`Command::LeaveFray`].
pub(super) fn leave_fray(
    state: &State,
    seat: &Seat,
    character: &usize,
) -> Result<Vec<Event>, RuleError> {
    acts_for(state, seat, *character)?;
    let s = state.sequence.as_ref().ok_or_else(|| {
        RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "no Action Sequence is under way",
        )
    })?;
    if s.turns > 0 || state.check.is_some() {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "a character may leave the fray only at the beginning of a round",
        ));
    }
    match state.participant(*character) {
        None => Err(RuleError::forbidden(
            RULE_SEQUENCE,
            format!("{} does not take part", state.name(*character)),
        )),
        Some(p) if p.threatened => Err(RuleError::condition(
            RULE_SEQUENCE,
            "threatened",
            format!(
                "{} is threatened and must take a turn this round",
                state.name(*character)
            ),
        )),
        Some(_) => Ok(vec![Event::Left {
            character: *character,
        }]),
    }
}

/// `decide` for [`Command::EndSequence`].
pub(super) fn end_sequence(state: &State, seat: &Seat) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    no_check(state)?;
    if state.sequence.is_none() {
        return Err(RuleError::new(
            RULE_SEQUENCE,
            Refusal::WrongPhase,
            "no Action Sequence is under way",
        ));
    }
    Ok(vec![Event::SequenceEnded])
}
