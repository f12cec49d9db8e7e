//! The Experience table rule: points awarded by the storyteller, spent
//! between moments on a stat, a skill or a card.
//!
//! Sour Grapes, "Experience" (000_05a1db5b88f54528.txt).

use super::*;

/// The storyteller awards experience points (the Experience table option),
/// up to the most a sheet holds.
/// Sour Grapes, "Experience" (000_05a1db5b88f54528.txt).
pub(super) fn award(d: &mut Dec<'_>, seat: &Seat, who: &str, points: u32) -> Result<(), RuleError> {
    need_gm(seat, "award experience", rules::EXPERIENCE)?;
    if !d.s().options.experience {
        return Err(RuleError::forbidden(
            rules::EXPERIENCE,
            "this table does not use the Experience rule (experience = true)",
        ));
    }
    let who = who_known(d.s(), who, rules::EXPERIENCE)?;
    let have = d
        .s()
        .participant(&who)
        .map_or(0, |p| p.character.experience());
    let room = MAX_POINTS.min(MAX_EXPERIENCE.saturating_sub(have));
    if points == 0 || points > room {
        return Err(RuleError::out_of_range(
            rules::EXPERIENCE,
            "points",
            1,
            i64::from(room),
            i64::from(points),
        ));
    }
    d.emit(Event::Awarded { who, points });
    Ok(())
}

/// Between moments, a point of experience raises a stat (to 10 at most) or a
/// skill by one (to masterclass, 5; a new skill starts at 1 while the page
/// has room).
/// Sour Grapes, "Experience", "Skills" (000_05a1db5b88f54528.txt).
pub(super) fn raise(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &Option<String>,
    what: &Pool,
) -> Result<(), RuleError> {
    if !d.s().options.experience {
        return Err(RuleError::forbidden(
            rules::EXPERIENCE,
            "this table does not use the Experience rule (experience = true)",
        ));
    }
    if !matches!(d.s().moment, Moment::Free) {
        return Err(RuleError::new(
            rules::EXPERIENCE,
            Refusal::WrongPhase,
            "points are spent between moments (at chapter ends)",
        ));
    }
    let who = actor(d.s(), seat, who, rules::EXPERIENCE)?;
    let Some(p) = d.s().participant(&who) else {
        return Ok(());
    };
    if p.character.experience() == 0 {
        return Err(RuleError::spent(
            rules::EXPERIENCE,
            "experience points",
            format!("{who} has no experience points"),
        ));
    }
    match what {
        Pool::Stat(st) if p.character.stat(*st).actual >= crate::stats::MAX_STAT => {
            return Err(RuleError::forbidden(
                rules::STATS,
                format!("{st} is already 10"),
            ));
        }
        Pool::Skill(k) => {
            if let Err(e) = tabula_core::names::check_name("skill", k) {
                return Err(RuleError::forbidden(rules::SKILLS, e.to_string()));
            }
            match p.character.skill(k) {
                Some(s) if s.rating >= crate::character::MAX_SKILL => {
                    return Err(RuleError::forbidden(
                        rules::SKILLS,
                        format!("{} is already masterclass (5)", s.name),
                    ));
                }
                None if p.character.skills().len() >= crate::character::MAX_SKILLS => {
                    return Err(RuleError::forbidden(
                        rules::SKILLS,
                        "the skill page is full",
                    ));
                }
                _ => {}
            }
        }
        Pool::Stat(_) => {}
    }
    d.emit(Event::Raised {
        who,
        what: what.clone(),
    });
    Ok(())
}

/// Between moments, a point of experience on one of the character's own
/// cards: one success less needed, or one more damage, up to the most per
/// card.
/// Sour Grapes, "Experience" (000_05a1db5b88f54528.txt); issue 27, bug 1.
pub(super) fn improve(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &Option<String>,
    card: &str,
    damage: bool,
) -> Result<(), RuleError> {
    if !d.s().options.experience {
        return Err(RuleError::forbidden(
            rules::EXPERIENCE,
            "this table does not use the Experience rule (experience = true)",
        ));
    }
    if !matches!(d.s().moment, Moment::Free) {
        return Err(RuleError::new(
            rules::EXPERIENCE,
            Refusal::WrongPhase,
            "points are spent between moments (at chapter ends)",
        ));
    }
    let who = actor(d.s(), seat, who, rules::EXPERIENCE)?;
    let c = find_card(d.s(), card)?;
    let Some(p) = d.s().participant(&who) else {
        return Ok(());
    };
    // A card bonus is on one of the character's own cards (issue 27,
    // bug 1): the cards the participant may play at this table.
    if !p
        .cards
        .iter()
        .any(|k| crate::cards::key(k) == crate::cards::key(&c.name))
    {
        return Err(RuleError::not_held(
            rules::EXPERIENCE,
            &c.name,
            format!(
                "{who} does not hold {}: experience improves one of the character's own cards ({})",
                c.name,
                p.cards.join(", ")
            ),
        ));
    }
    if p.character.experience() == 0 {
        return Err(RuleError::spent(
            rules::EXPERIENCE,
            "experience points",
            format!("{who} has no experience points"),
        ));
    }
    let b = p.character.card_bonus(&c.name);
    let (now, useful) = if damage {
        (
            b.damage,
            matches!(c.outcome, Outcome::Damage | Outcome::ExtraDamage),
        )
    } else {
        (
            b.easier,
            matches!(c.value, CardValue::Needs(n) if n > b.easier),
        )
    };
    if !useful || now >= crate::character::MAX_CARD_BONUS {
        return Err(RuleError::forbidden(
            rules::EXPERIENCE,
            format!(
                "{} cannot be made {} (a numeric value above the bonus, or a damage card; at most {} per card)",
                c.name,
                if damage {
                    "to deal more damage"
                } else {
                    "easier"
                },
                crate::character::MAX_CARD_BONUS
            ),
        ));
    }
    d.emit(Event::Improved {
        who,
        card: c.name.clone(),
        damage,
    });
    Ok(())
}
