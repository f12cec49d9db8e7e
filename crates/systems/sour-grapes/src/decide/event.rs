//! The Event outside its turns: declaring and ending it, initiative and
//! the order it settles.
//!
//! Sour Grapes, "Event" (000_05a1db5b88f54528.txt); R-SG-8, R-SG-9.

use super::*;

/// The storyteller declares an Event between moments: every participant
/// rolls initiative next.
/// Sour Grapes, "Event" (000_05a1db5b88f54528.txt); R-SG-8.
pub(super) fn start_event(d: &mut Dec<'_>, seat: &Seat) -> Result<(), RuleError> {
    need_gm(seat, "declare an Event", rules::INITIATIVE)?;
    if !matches!(d.s().moment, Moment::Free) {
        return Err(RuleError::new(
            rules::INITIATIVE,
            Refusal::WrongPhase,
            "an Event starts between other moments",
        ));
    }
    let participants = d.s().participant_names();
    d.emit(Event::EventStarted { participants });
    Ok(())
}

/// The storyteller ends the running Event; a Controller's effects not rolled
/// for yet are discarded.
/// Sour Grapes, "Event", "Effects" (000_05a1db5b88f54528.txt); R-SG-9.
pub(super) fn end_event(d: &mut Dec<'_>, seat: &Seat) -> Result<(), RuleError> {
    need_gm(seat, "end the Event", rules::INITIATIVE)?;
    if d.s().event().is_none() {
        return Err(RuleError::new(
            rules::INITIATIVE,
            Refusal::WrongPhase,
            "no Event is running",
        ));
    }
    // A Controller who has not rolled for an effect yet loses it (R-SG-9).
    discard_unrolled_effects(d);
    d.emit(Event::EventEnded {
        reason: "the storyteller ended it".into(),
    });
    Ok(())
}

/// Initiative: a check with any chosen stat that exhausts nothing, plus a d20;
/// remaining ties roll again. Sour Grapes, "Event"; R-SG-8.
pub(super) fn initiative(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &Option<String>,
    stat: Stat,
    dice: u32,
) -> Result<(), RuleError> {
    let Some(e) = d.s().event().cloned() else {
        return Err(RuleError::new(
            rules::INITIATIVE,
            Refusal::WrongPhase,
            "no Event is running: the storyteller declares one with `event`",
        ));
    };
    if !e.order.is_empty() {
        return Err(RuleError::new(
            rules::INITIATIVE,
            Refusal::WrongPhase,
            "initiative is already settled",
        ));
    }
    // Without `as NAME`, the seat's first character still to roll.
    let pending_mine = d
        .s()
        .controlled_by(seat)
        .into_iter()
        .find(|n| e.initiative.get(n).is_some_and(Option::is_none));
    let who = match (who, pending_mine) {
        (None, Some(n)) => n,
        _ => actor(d.s(), seat, who, rules::INITIATIVE)?,
    };
    if e.initiative.get(&who).is_some_and(Option::is_some) {
        return Err(RuleError::already_used(
            rules::INITIATIVE,
            "Initiative",
            format!("{who} has rolled initiative"),
        ));
    }
    // Initiative is a check (R-SG-8), so R-SG-12 limits the stat. A participant
    // who may check with no stat at all (Dying, or Incapacitated and Panicked)
    // rolls no dice: the d20 alone (Tabula's decision, so an Event can start).
    if let Some((condition, why)) = d.s().check_block(&who, stat) {
        let allowed = d.s().check_stats(&who);
        if !allowed.is_empty() {
            return Err(RuleError::condition(
                rules::DEPLETED,
                &condition.to_string(),
                format!(
                    "{why}; {who} may make a case for {}",
                    allowed
                        .iter()
                        .map(|s| s.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if dice > 0 {
            return Err(RuleError::new(
                rules::DEPLETED,
                Refusal::OutOfRange {
                    field: "dice".into(),
                    min: 0,
                    max: 0,
                    got: i64::from(dice),
                },
                format!("{why}; {who} may make no check: initiative with 0 dice (the d20 alone)"),
            ));
        }
    }
    prepare_roll(
        d.s(),
        &who,
        stat,
        None,
        Bet { dice, tokens: 0 },
        rules::INITIATIVE,
    )?;
    if dice > 0 {
        d.roller.announce(
            &who,
            &format!("initiative ({stat})"),
            dice.min(crate::check::MAX_DICE),
            Die::D6,
        );
    }
    let roll = CheckRoll::roll(d.roller, dice, 0)?;
    let d20 = if d.s().options.initiative_d20 {
        d.roller.announce(&who, "initiative d20", 1, Die::D20);
        Some(d.roller.roll(Die::D20)?)
    } else {
        None
    };
    let total = roll.successes.saturating_add(d20.unwrap_or(0));
    d.emit(Event::InitiativeRolled {
        who,
        stat,
        roll,
        d20,
        total,
    });
    settle_initiative(d)
}

/// When every participant has rolled initiative, the order: highest total
/// first, ties rolling a d20 again, and the first turn begins. Sour Grapes,
/// "Event"; R-SG-8. Also after the storyteller's `remove` takes out the last
/// participant still to roll (GM tools).
pub(super) fn settle_initiative(d: &mut Dec<'_>) -> Result<(), RuleError> {
    let e = d.s().event().cloned();
    if let Some(e) = e
        && e.initiative.values().all(Option::is_some)
    {
        // Order: highest total first; ties roll a d20 again (R-SG-8).
        let mut keys: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for (name, t) in &e.initiative {
            keys.insert(name.clone(), vec![t.unwrap_or(0)]);
        }
        let table_order: Vec<String> = d.s().participant_names();
        for _ in 0..MAX_TIEBREAKS {
            let mut groups: BTreeMap<Vec<u32>, Vec<String>> = BTreeMap::new();
            for (n, k) in &keys {
                groups.entry(k.clone()).or_default().push(n.clone());
            }
            let tied: Vec<String> = groups
                .values()
                .filter(|g| g.len() > 1)
                .flatten()
                .cloned()
                .collect();
            if tied.is_empty() {
                break;
            }
            for n in tied {
                d.roller.announce(&n, "initiative tie-break", 1, Die::D20);
                let r = d.roller.roll(Die::D20)?;
                if let Some(k) = keys.get_mut(&n) {
                    k.push(r);
                }
            }
        }
        let mut order = table_order.clone();
        order.sort_by(|a, b| {
            let ka = keys.get(a).cloned().unwrap_or_default();
            let kb = keys.get(b).cloned().unwrap_or_default();
            kb.cmp(&ka)
        });
        let tiebreaks = keys
            .iter()
            .filter(|(_, k)| k.len() > 1)
            .map(|(n, k)| (n.clone(), k.iter().skip(1).copied().collect()))
            .collect();
        d.emit(Event::InitiativeSettled { order, tiebreaks });
        next_turn(d);
    }
    Ok(())
}
