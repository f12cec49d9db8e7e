//! The Situation: announced by the storyteller, its difficulty moving, its
//! final check.
//!
//! Sour Grapes, "Situation" (000_05a1db5b88f54528.txt); R-SG-1, R-SG-12.

use super::*;

/// The storyteller announces a Situation between moments: who works it, the
/// stat (and skill) of its final check, the difficulty it starts at.
/// Sour Grapes, "Situation" (000_05a1db5b88f54528.txt).
pub(super) fn start_situation(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &str,
    stat: Stat,
    skill: &Option<String>,
    difficulty: u32,
) -> Result<(), RuleError> {
    need_gm(seat, "announce a Situation", rules::SITUATION)?;
    if !matches!(d.s().moment, Moment::Free) {
        return Err(RuleError::new(
            rules::SITUATION,
            Refusal::WrongPhase,
            "a Situation starts between other moments",
        ));
    }
    let who = who_known(d.s(), who, rules::SITUATION)?;
    if difficulty > MAX_DIFFICULTY {
        return Err(RuleError::out_of_range(
            rules::SITUATION,
            "difficulty",
            0,
            i64::from(MAX_DIFFICULTY),
            i64::from(difficulty),
        ));
    }
    d.emit(Event::SituationStarted {
        who,
        stat,
        skill: skill.clone(),
        difficulty,
    });
    Ok(())
}

/// The storyteller raises or lowers the running Situation's difficulty.
/// Sour Grapes, "Situation" (000_05a1db5b88f54528.txt).
pub(super) fn change_difficulty(d: &mut Dec<'_>, seat: &Seat, value: u32) -> Result<(), RuleError> {
    need_gm(seat, "change the Situation's difficulty", rules::SITUATION)?;
    let Moment::Situation(sit) = &d.s().moment else {
        return Err(RuleError::new(
            rules::SITUATION,
            Refusal::WrongPhase,
            "no Situation is running",
        ));
    };
    if value > MAX_DIFFICULTY {
        return Err(RuleError::out_of_range(
            rules::SITUATION,
            "difficulty",
            0,
            i64::from(MAX_DIFFICULTY),
            i64::from(value),
        ));
    }
    let from = sit.difficulty;
    d.emit(Event::DifficultyChanged { from, to: value });
    Ok(())
}

/// The Situation's final check, rolled by the seat that plays its character
/// against the difficulty reached (+2 when Dazed); a character who may make
/// no such check ends it failed, unrolled (`final 0`).
/// Sour Grapes, "Situation" (000_05a1db5b88f54528.txt); R-SG-1, R-SG-12.
pub(super) fn final_check(d: &mut Dec<'_>, seat: &Seat, bet: Bet) -> Result<(), RuleError> {
    let Moment::Situation(sit) = d.s().moment.clone() else {
        return Err(RuleError::new(
            rules::SITUATION,
            Refusal::WrongPhase,
            "no Situation is running",
        ));
    };
    // The final check is rolled by the seat that plays the character
    // (the storyteller for a monster): a seat acts only for its own.
    let seat_ok = d
        .s()
        .participant(&sit.who)
        .is_some_and(|p| p.seat.same_seat(seat));
    if !seat_ok {
        return Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            format!(
                "the final check is {}'s: {seat} does not play {}",
                sit.who, sit.who
            ),
        ));
    }
    let diff = sit.difficulty.saturating_add(dazed(d.s(), &sit.who));
    // R-SG-12: a character who may not make the final check (Dying, or
    // its stat is one their condition forbids) cannot produce a value
    // larger than the difficulty: the Situation ends failed, unrolled.
    if let Some((condition, why)) = d.s().check_block(&sit.who, sit.stat) {
        if bet.dice > 0 || bet.tokens > 0 {
            return Err(RuleError::condition(
                rules::DEPLETED,
                &condition.to_string(),
                format!(
                    "{why}; the final check cannot be made: `final 0` ends the Situation as failed"
                ),
            ));
        }
        d.emit(Event::SituationEnded {
            who: sit.who,
            success: false,
        });
        return Ok(());
    }
    let r = roll_for(
        d,
        Purpose::SituationFinal,
        &sit.who,
        None,
        sit.stat,
        sit.skill.as_deref(),
        bet,
        Some(diff.saturating_add(1)),
        true,
    )?;
    d.emit(Event::SituationEnded {
        who: sit.who,
        success: passes(r.successes, diff),
    });
    Ok(())
}
