//! The game moments outside a turn: Spend, Check, Situation, declaring an Event
//! and initiative, effects put on by the storyteller, experience.
//!
//! Sour Grapes, "Game Moments", "Spend", "Check", "Situation", "Event",
//! "Experience" (000_05a1db5b88f54528.txt); R-SG-1, R-SG-8.

use super::rolls::*;
use super::turn::*;
use super::*;

/// Check a command against the rules and produce its events.
/// Sour Grapes, "Game Moments" (000_05a1db5b88f54528.txt) and the sections cited below.
pub(super) fn decide(d: &mut Dec<'_>, seat: &Seat, cmd: &Command) -> Result<(), RuleError> {
    if d.s().over {
        return Err(RuleError::new(
            rules::MOMENTS,
            Refusal::WrongPhase,
            "the encounter is over",
        ));
    }
    match cmd {
        Command::Spend { who, stat } => {
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
                .map_or(0, |p| p.character.stat(*stat).current);
            if cur == 0 {
                return Err(RuleError::spent(
                    rules::SPEND,
                    &format!("{stat} points"),
                    format!("{who}'s {stat} is depleted: nothing to spend"),
                ));
            }
            d.emit(Event::Spent { who, stat: *stat });
        }
        Command::Check {
            who,
            stat,
            dice,
            tokens,
            skill,
            difficulty,
        } => {
            if matches!(d.s().moment, Moment::Event(_)) {
                return Err(RuleError::new(
                    rules::MOMENTS,
                    Refusal::WrongPhase,
                    "inside an Event, actions are cards",
                ));
            }
            let who = actor(d.s(), seat, who, rules::CHECK)?;
            if *difficulty > MAX_DIFFICULTY {
                return Err(RuleError::out_of_range(
                    rules::CHECK,
                    "difficulty",
                    0,
                    i64::from(MAX_DIFFICULTY),
                    i64::from(*difficulty),
                ));
            }
            if let Some((condition, why)) = d.s().check_block(&who, *stat) {
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
                *stat,
                skill.as_deref(),
                Bet {
                    dice: *dice,
                    tokens: *tokens,
                },
                Some(diff.saturating_add(1)),
                in_situation,
            )?;
        }
        Command::GiveBack { who, stat, points } => {
            need_gm(seat, "give exhausted points back", rules::SPEND)?;
            let who = who_known(d.s(), who, rules::SPEND)?;
            let c = d.s().participant(&who).map(|p| p.character.clone());
            if let Some(c) = c {
                if let Some((condition, why)) = c.recovery_block(*stat) {
                    return Err(RuleError::condition(rules::STAT_MECHANICS, &condition, why));
                }
                let ex = c.stat(*stat).exhausted();
                if *points == 0 || *points > ex.min(MAX_POINTS) {
                    return Err(RuleError::out_of_range(
                        rules::SPEND,
                        "points",
                        1,
                        i64::from(ex),
                        i64::from(*points),
                    ));
                }
            }
            d.emit(Event::GivenBack {
                who,
                stat: *stat,
                points: *points,
            });
        }
        Command::TokensBack { who, skill, points } => {
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
            if *points == 0 || *points > spent {
                return Err(RuleError::out_of_range(
                    rules::SKILLS,
                    "tokens",
                    1,
                    i64::from(spent),
                    i64::from(*points),
                ));
            }
            d.emit(Event::TokensBack {
                who,
                skill: k.name,
                points: *points,
            });
        }
        Command::Reject { who } => {
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
        }
        Command::Heal { who, stat } => {
            need_gm(seat, "remove an injury", rules::STAT_MECHANICS)?;
            let who = who_known(d.s(), who, rules::STAT_MECHANICS)?;
            let injured = d
                .s()
                .participant(&who)
                .is_some_and(|p| p.character.stat(*stat).injured);
            if !injured {
                return Err(RuleError::forbidden(
                    rules::STAT_MECHANICS,
                    format!("{who}'s {stat} is not injured"),
                ));
            }
            d.emit(Event::Healed { who, stat: *stat });
        }
        Command::Rest => {
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
        }
        Command::Situation {
            who,
            stat,
            skill,
            difficulty,
        } => {
            need_gm(seat, "announce a Situation", rules::SITUATION)?;
            if !matches!(d.s().moment, Moment::Free) {
                return Err(RuleError::new(
                    rules::SITUATION,
                    Refusal::WrongPhase,
                    "a Situation starts between other moments",
                ));
            }
            let who = who_known(d.s(), who, rules::SITUATION)?;
            if *difficulty > MAX_DIFFICULTY {
                return Err(RuleError::out_of_range(
                    rules::SITUATION,
                    "difficulty",
                    0,
                    i64::from(MAX_DIFFICULTY),
                    i64::from(*difficulty),
                ));
            }
            d.emit(Event::SituationStarted {
                who,
                stat: *stat,
                skill: skill.clone(),
                difficulty: *difficulty,
            });
        }
        Command::Difficulty { value } => {
            need_gm(seat, "change the Situation's difficulty", rules::SITUATION)?;
            let Moment::Situation(sit) = &d.s().moment else {
                return Err(RuleError::new(
                    rules::SITUATION,
                    Refusal::WrongPhase,
                    "no Situation is running",
                ));
            };
            if *value > MAX_DIFFICULTY {
                return Err(RuleError::out_of_range(
                    rules::SITUATION,
                    "difficulty",
                    0,
                    i64::from(MAX_DIFFICULTY),
                    i64::from(*value),
                ));
            }
            let from = sit.difficulty;
            d.emit(Event::DifficultyChanged { from, to: *value });
        }
        Command::Final { dice, tokens } => {
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
                if *dice > 0 || *tokens > 0 {
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
                Bet {
                    dice: *dice,
                    tokens: *tokens,
                },
                Some(diff.saturating_add(1)),
                true,
            )?;
            d.emit(Event::SituationEnded {
                who: sit.who,
                success: passes(r.successes, diff),
            });
        }
        Command::StartEvent => {
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
        }
        Command::Initiative { who, stat, dice } => initiative(d, seat, who, *stat, *dice)?,
        Command::EndEvent => {
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
        }
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
        Command::Cure { who, effect } => {
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
        }
        Command::Afflict { who, card } => {
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
        }
        Command::Award { who, points } => {
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
            if *points == 0 || *points > room {
                return Err(RuleError::out_of_range(
                    rules::EXPERIENCE,
                    "points",
                    1,
                    i64::from(room),
                    i64::from(*points),
                ));
            }
            d.emit(Event::Awarded {
                who,
                points: *points,
            });
        }
        Command::Raise { who, what } => {
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
        }
        Command::Improve { who, card, damage } => {
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
            let (now, useful) = if *damage {
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
                        if *damage {
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
                damage: *damage,
            });
        }
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
