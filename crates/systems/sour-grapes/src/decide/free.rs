//! Between moments (the Free moment): Spend, a single Check, and the
//! storyteller's stat tools (give-back, tokens back, heal, rest), rejecting a
//! card and putting effects on and off.
//!
//! Sour Grapes, "Spend", "Check", "Stat Mechanics", "Skill Mechanics",
//! "Effects" (000_05a1db5b88f54528.txt); R-SG-1, R-SG-9, R-SG-10.

use super::*;

/// Spend: exhaust a point of a stat without a roll; a player spends for
/// their own character, the storyteller dictates it to anyone (`as NAME`).
/// Nothing to spend from a depleted stat.
/// Sour Grapes, "Spend" (000_05a1db5b88f54528.txt).
pub(super) fn spend(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &Option<String>,
    stat: Stat,
) -> Result<(), RuleError> {
    let who = if seat.is_gm() {
        match who {
            Some(w) => who_known(d.s(), w, rules::SPEND)?,
            None => {
                return Err(RuleError::forbidden(
                    rules::SPEND,
                    "say who spends: `as NAME`",
                ));
            }
        }
    } else {
        actor(d.s(), seat, who, rules::SPEND)?
    };
    let cur = d
        .s()
        .participant(&who)
        .map_or(0, |p| p.character.stat(stat).current);
    if cur == 0 {
        return Err(RuleError::spent(
            rules::SPEND,
            &format!("{stat} points"),
            format!("{who}'s {stat} is depleted: nothing to spend"),
        ));
    }
    d.emit(Event::Spent { who, stat });
    Ok(())
}

/// Check: outside an Event, dice up to the stat's Current value plus skill
/// tokens against the difficulty (+2 when Dazed); a success needs more
/// successes than the difficulty. Depleted-stat conditions forbid some
/// checks. Inside a Situation the tokens are held until it ends.
/// Sour Grapes, "Check", "Stats", "Skill Mechanics" (000_05a1db5b88f54528.txt);
/// R-SG-1, R-SG-12.
pub(super) fn make_check(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &Option<String>,
    stat: Stat,
    bet: Bet,
    skill: &Option<String>,
    difficulty: u32,
) -> Result<(), RuleError> {
    if matches!(d.s().moment, Moment::Event(_)) {
        return Err(RuleError::new(
            rules::MOMENTS,
            Refusal::WrongPhase,
            "inside an Event, actions are cards",
        ));
    }
    let who = actor(d.s(), seat, who, rules::CHECK)?;
    if difficulty > MAX_DIFFICULTY {
        return Err(RuleError::out_of_range(
            rules::CHECK,
            "difficulty",
            0,
            i64::from(MAX_DIFFICULTY),
            i64::from(difficulty),
        ));
    }
    if let Some((condition, why)) = d.s().check_block(&who, stat) {
        return Err(RuleError::condition(
            rules::DEPLETED,
            &condition.to_string(),
            why,
        ));
    }
    let in_situation = matches!(d.s().moment, Moment::Situation(_));
    let diff = difficulty.saturating_add(dazed(d.s(), &who));
    roll_for(
        d,
        Purpose::Check,
        &who,
        None,
        stat,
        skill.as_deref(),
        bet,
        Some(diff.saturating_add(1)),
        in_situation,
    )?;
    Ok(())
}

/// The storyteller gives exhausted points of a stat back (a reward), up to
/// what is exhausted, unless a condition keeps the stat from recovering.
/// Sour Grapes, "Spend", "Stat Mechanics" (000_05a1db5b88f54528.txt); R-SG-13.
pub(super) fn give_back(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &str,
    stat: Stat,
    points: u32,
) -> Result<(), RuleError> {
    need_gm(seat, "give exhausted points back", rules::SPEND)?;
    let who = who_known(d.s(), who, rules::SPEND)?;
    let c = d.s().participant(&who).map(|p| p.character.clone());
    if let Some(c) = c {
        if let Some((condition, why)) = c.recovery_block(stat) {
            return Err(RuleError::condition(rules::STAT_MECHANICS, &condition, why));
        }
        let ex = c.stat(stat).exhausted();
        if points == 0 || points > ex.min(MAX_POINTS) {
            return Err(RuleError::out_of_range(
                rules::SPEND,
                "points",
                1,
                i64::from(ex),
                i64::from(points),
            ));
        }
    }
    d.emit(Event::GivenBack { who, stat, points });
    Ok(())
}

/// The storyteller gives spent skill tokens back, up to those spent.
/// Sour Grapes, "Skill Mechanics" (000_05a1db5b88f54528.txt); R-SG-4.
pub(super) fn tokens_back(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &str,
    skill: &str,
    points: u32,
) -> Result<(), RuleError> {
    need_gm(seat, "give skill tokens back", rules::SKILLS)?;
    let who = who_known(d.s(), who, rules::SKILLS)?;
    let Some(k) = d
        .s()
        .participant(&who)
        .and_then(|p| p.character.skill(skill).cloned())
    else {
        return Err(unknown_skill(d.s(), rules::SKILLS, &who, skill));
    };
    let spent = k.rating - k.available;
    if points == 0 || points > spent {
        return Err(RuleError::out_of_range(
            rules::SKILLS,
            "tokens",
            1,
            i64::from(spent),
            i64::from(points),
        ));
    }
    d.emit(Event::TokensBack {
        who,
        skill: k.name,
        points,
    });
    Ok(())
}

/// The storyteller removes the Injury marker from an injured stat.
/// Sour Grapes, "Stat Mechanics" (000_05a1db5b88f54528.txt); R-SG-13.
pub(super) fn heal(d: &mut Dec<'_>, seat: &Seat, who: &str, stat: Stat) -> Result<(), RuleError> {
    need_gm(seat, "remove an injury", rules::STAT_MECHANICS)?;
    let who = who_known(d.s(), who, rules::STAT_MECHANICS)?;
    let injured = d
        .s()
        .participant(&who)
        .is_some_and(|p| p.character.stat(stat).injured);
    if !injured {
        return Err(RuleError::forbidden(
            rules::STAT_MECHANICS,
            format!("{who}'s {stat} is not injured"),
        ));
    }
    d.emit(Event::Healed { who, stat });
    Ok(())
}

/// A short rest between moments: every stat that is not injured, and every
/// skill token, recovers.
/// Sour Grapes, "Stat Mechanics" (000_05a1db5b88f54528.txt).
pub(super) fn rest(d: &mut Dec<'_>, seat: &Seat) -> Result<(), RuleError> {
    need_gm(seat, "call a rest", rules::STAT_MECHANICS)?;
    if !matches!(d.s().moment, Moment::Free) {
        return Err(RuleError::new(
            rules::STAT_MECHANICS,
            Refusal::WrongPhase,
            "rest after the Situation or Event is over",
        ));
    }
    let who = d.s().participant_names();
    d.emit(Event::Rested { who });
    Ok(())
}

/// The storyteller rejects a card offered in the open step (3 or 5) as
/// invalid: it is taken back unrolled.
/// Sour Grapes, "Turn Mechanics" (000_05a1db5b88f54528.txt).
pub(super) fn reject(d: &mut Dec<'_>, seat: &Seat, who: &str) -> Result<(), RuleError> {
    need_gm(seat, "reject a card", rules::TURN)?;
    let who = who_known(d.s(), who, rules::TURN)?;
    let Some(t) = d.s().turn() else {
        return Err(RuleError::new(
            rules::TURN,
            Refusal::WrongPhase,
            "no turn is running",
        ));
    };
    let offered = t
        .interrupts
        .iter()
        .chain(&t.compliments)
        .chain(&t.diverts)
        .any(|p| p.by == who);
    if !offered || !matches!(t.step, Step::Interrupt | Step::Support) {
        return Err(RuleError::forbidden(
            rules::TURN,
            format!("{who} has no card offered in the open step"),
        ));
    }
    d.emit(Event::Rejected { who });
    Ok(())
}

/// The storyteller removes an effect in play whose condition is met.
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt).
pub(super) fn cure(d: &mut Dec<'_>, seat: &Seat, who: &str, effect: &str) -> Result<(), RuleError> {
    need_gm(seat, "remove an effect", rules::EFFECTS)?;
    let who = who_known(d.s(), who, rules::EFFECTS)?;
    let card = find_card(d.s(), effect)?;
    let has = d
        .s()
        .participant(&who)
        .is_some_and(|p| p.effects.iter().any(|e| same_key(&e.card, &card.name)));
    if !has {
        return Err(RuleError::not_held(
            rules::EFFECTS,
            &card.name,
            format!("{who} has no {} in play", card.name),
        ));
    }
    d.emit(Event::EffectRemoved {
        who,
        effect: card.name.clone(),
    });
    Ok(())
}

/// The storyteller puts an effect card in play on a character (once each),
/// with its tokens.
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt).
pub(super) fn afflict(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &str,
    card: &str,
) -> Result<(), RuleError> {
    need_gm(seat, "put an effect in play", rules::EFFECTS)?;
    let who = who_known(d.s(), who, rules::EFFECTS)?;
    let c = find_card(d.s(), card)?;
    let Some(spec) = c.effect else {
        return Err(RuleError::forbidden(
            rules::EFFECTS,
            format!("{} is not an effect", c.name),
        ));
    };
    if d.s()
        .participant(&who)
        .is_some_and(|p| p.effects.iter().any(|e| same_key(&e.card, &c.name)))
    {
        return Err(RuleError::forbidden(
            rules::EFFECTS,
            format!("{who} already has {}", c.name),
        ));
    }
    d.emit(Event::EffectAdded {
        who,
        effect: c.name.clone(),
        tokens: spec.tokens,
    });
    Ok(())
}
