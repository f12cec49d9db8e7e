//! The Event's turn: the eight steps, slot conflicts, rounds and the next
//! Controller. The commands of the steps are in [`steps`].
//!
//! Sour Grapes, "Event", "Turn Mechanics", "Stunt", "Interrupt", "Compliment",
//! "Divert", "Reactions", "Effects" (000_05a1db5b88f54528.txt); R-SG-2, R-SG-4..R-SG-9.

use super::rolls::*;
use super::*;

mod steps;
pub(super) use steps::turn_command;

/// End the turn and begin the next one (skipping Dying participants), or end the
/// Event when one side is all Dying.
pub(super) fn end_turn(d: &mut Dec<'_>, reason: &str) {
    let Some(t) = d.s().turn().cloned() else {
        return;
    };
    discard_unrolled_effects(d);
    d.emit(Event::TurnEnded {
        controller: t.controller,
        reason: reason.to_string(),
    });
    next_turn(d);
}

/// "At the start of your turn Roll for this effect or discard the effect": a
/// turn that ends without the roll discards every effect still waiting for it.
/// Sour Grapes, "Effects", "Turn Mechanics" (Prep); R-SG-9.
pub(super) fn discard_unrolled_effects(d: &mut Dec<'_>) {
    let Some(t) = d.s().turn().cloned() else {
        return;
    };
    for effect in t.pending_effects {
        let held = d
            .s()
            .participant(&t.controller)
            .is_some_and(|p| p.effects.iter().any(|e| e.card == effect));
        if held {
            d.emit(Event::EffectRemoved {
                who: t.controller.clone(),
                effect,
            });
        }
    }
}

/// The next Controller in initiative order; "New Round" when the order wraps;
/// Dying participants are skipped; countdown effects lose a token.
/// Sour Grapes, "Event" (Rounds, Turn) and "Effects" (000_05a1db5b88f54528.txt).
pub(super) fn next_turn(d: &mut Dec<'_>) {
    if d.s().one_side_down() {
        d.emit(Event::EventEnded {
            reason: "one side is all Dying".into(),
        });
        return;
    }
    let Some(e) = d.s().event().cloned() else {
        return;
    };
    let n = e.order.len();
    if n == 0 {
        return;
    }
    let mut index = if e.round == 0 { n - 1 } else { e.index };
    let mut round = e.round;
    for _ in 0..=n {
        index += 1;
        if index >= n {
            index = 0;
            round += 1;
            d.emit(Event::NewRound { round });
            round_start_effects(d);
            if d.s().one_side_down() {
                d.emit(Event::EventEnded {
                    reason: "one side is all Dying".into(),
                });
                return;
            }
        }
        let Some(name) = e.order.get(index).cloned() else {
            return;
        };
        let alive = d
            .s()
            .participant(&name)
            .is_some_and(|p| !p.character.has(Condition::Dying));
        if alive {
            d.emit(Event::TurnBegan {
                controller: name.clone(),
                index,
            });
            // Step 1: countdown effects lose a token; at none they are discarded.
            let effects = d
                .s()
                .participant(&name)
                .map(|p| p.effects.clone())
                .unwrap_or_default();
            for eff in effects {
                let keep = d.s().card(&eff.card).and_then(|c| c.effect).map(|e| e.keep);
                if keep == Some(Keep::Countdown) {
                    let left = eff.tokens.saturating_sub(1);
                    d.emit(Event::EffectCountdown {
                        who: name.clone(),
                        effect: eff.card.clone(),
                        tokens: left,
                    });
                    if left == 0 {
                        d.emit(Event::EffectRemoved {
                            who: name.clone(),
                            effect: eff.card.clone(),
                        });
                    }
                }
            }
            return;
        }
    }
}

/// "New Round": effects that act at the beginning of a Round deal their damage
/// and count down. Sour Grapes, "Event" (Rounds).
pub(super) fn round_start_effects(d: &mut Dec<'_>) {
    let holders: Vec<(String, Vec<ActiveEffect>)> = d
        .s()
        .participants
        .iter()
        .map(|p| (p.character.name().to_string(), p.effects.clone()))
        .collect();
    for (who, effects) in holders {
        for eff in effects {
            let Some(rs) = d
                .s()
                .card(&eff.card)
                .and_then(|c| c.effect)
                .and_then(|e| e.round_start)
            else {
                continue;
            };
            if let Some(stat) = rs.stat
                && rs.damage > 0
            {
                apply_damage(d, &who, stat, rs.damage, None, &eff.card);
            }
            if rs.countdown {
                let left = eff.tokens.saturating_sub(1);
                d.emit(Event::EffectCountdown {
                    who: who.clone(),
                    effect: eff.card.clone(),
                    tokens: left,
                });
                if left == 0 {
                    d.emit(Event::EffectRemoved {
                        who: who.clone(),
                        effect: eff.card.clone(),
                    });
                }
            }
        }
    }
}

/// Settle a slot: the most points wins (ties: the earlier offer); losers roll
/// their Success bet for exhaustion. Returns the winner.
///
/// Sour Grapes, "Turn Mechanics", Notes.
pub(super) fn settle_slot(
    d: &mut Dec<'_>,
    slot: Slot,
    offers: &[CardPlay],
) -> Result<Option<CardPlay>, RuleError> {
    let Some(best) = offers
        .iter()
        .enumerate()
        .max_by_key(|(i, p)| {
            (
                p.success.points().saturating_add(p.result.points()),
                std::cmp::Reverse(*i),
            )
        })
        .map(|(_, p)| p.clone())
    else {
        return Ok(None);
    };
    let losers: Vec<CardPlay> = offers.iter().filter(|p| p.by != best.by).cloned().collect();
    if !losers.is_empty() {
        d.emit(Event::SlotWon {
            slot,
            by: best.by.clone(),
            over: losers.iter().map(|l| l.by.clone()).collect(),
        });
        for l in losers {
            let card = find_card(d.s(), &l.card)?;
            if let Some(st) = card.success {
                roll_for(
                    d,
                    Purpose::LostSlot,
                    &l.by,
                    Some(&card.name),
                    st,
                    card.skill.as_deref(),
                    l.success,
                    None,
                    true,
                )?;
            }
        }
    }
    Ok(Some(best))
}

/// The receiver a Reaction command is for: a receiver the seat plays who has not
/// reacted. Sour Grapes, "Turn Mechanics", Notes: only targets react, one each.
pub(super) fn reactor(
    s: &State,
    seat: &Seat,
    who: &Option<String>,
    t: &Turn,
) -> Result<String, RuleError> {
    let pending: Vec<&String> = t
        .receivers
        .iter()
        .filter(|r| !t.reactions.contains_key(*r))
        .collect();
    let mine: Vec<String> = pending
        .iter()
        .filter(|r| s.participant(r).is_some_and(|p| p.seat.same_seat(seat)))
        .map(|r| (*r).clone())
        .collect();
    match who {
        Some(w) => {
            let name = who_known(s, w, rules::REACTION)?;
            if !t.receivers.contains(&name) {
                return Err(RuleError::new(
                    rules::REACTION,
                    Refusal::NotPermitted,
                    format!("{name} is not a target of the Stunt: only targets react"),
                ));
            }
            if t.reactions.contains_key(&name) {
                return Err(RuleError::already_used(
                    rules::REACTION,
                    "Reaction",
                    format!("{name} has reacted: one Reaction per player"),
                ));
            }
            if !mine.contains(&name) {
                return Err(RuleError::new(
                    rules::SEATS,
                    Refusal::NotPermitted,
                    format!("{seat} does not play {name}"),
                ));
            }
            Ok(name)
        }
        None => mine.into_iter().next().ok_or_else(|| {
            RuleError::new(
                rules::REACTION,
                Refusal::NotYourTurn,
                format!(
                    "{seat} has no target left to react; waiting for {}",
                    pending
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        }),
    }
}

/// Step 3 closes: the one Interrupt (most points) rolls; if it succeeds it
/// applies and the turn is over.
/// Sour Grapes, "Interrupt" and "Turn Mechanics" step 3 (000_05a1db5b88f54528.txt); R-SG-2.
pub(super) fn close_interrupts(d: &mut Dec<'_>, t: &Turn) -> Result<(), RuleError> {
    let winner = settle_slot(d, Slot::Interrupt, &t.interrupts)?;
    if let Some(w) = winner {
        let card = find_card(d.s(), &w.card)?;
        let need = card_needs(d.s(), &card, &w.by, 0);
        let st = card.success.unwrap_or(Stat::Perception);
        let r = roll_for(
            d,
            Purpose::Interrupt,
            &w.by,
            Some(&card.name),
            st,
            card.skill.as_deref(),
            w.success,
            Some(need),
            true,
        )?;
        if r.successes >= need {
            if let Outcome::FixedDamage { points, stat } = card.outcome {
                apply_damage(d, &t.controller, stat, points, card.result, &card.name);
            }
            end_turn(
                d,
                &format!("{}'s {} interrupted the Stunt", w.by, card.name),
            );
            return Ok(());
        }
    }
    d.emit(Event::StepReached {
        step: Step::Targeting,
    });
    Ok(())
}

/// Step 5 closes and step 6 runs: the Divert's and the Compliment's success
/// rolls decide the receiver and the modification.
/// Sour Grapes, "Turn Mechanics" steps 5-6, "Compliment", "Divert" (000_05a1db5b88f54528.txt); R-SG-6.
pub(super) fn close_support(d: &mut Dec<'_>, t: &Turn) -> Result<(), RuleError> {
    // Step 6: success rolls for the Divert and the Compliment.
    if let Some(w) = settle_slot(d, Slot::Divert, &t.diverts)? {
        let card = find_card(d.s(), &w.card)?;
        let need = card_needs(d.s(), &card, &w.by, 0);
        let st = card.success.unwrap_or(Stat::Agility);
        let r = roll_for(
            d,
            Purpose::Divert,
            &w.by,
            Some(&card.name),
            st,
            card.skill.as_deref(),
            w.success,
            Some(need),
            true,
        )?;
        if r.successes >= need
            && let Some(to) = w.to
        {
            d.emit(Event::Diverted {
                from: t.receivers.clone(),
                to,
            });
        }
    }
    if let Some(w) = settle_slot(d, Slot::Compliment, &t.compliments)? {
        let card = find_card(d.s(), &w.card)?;
        let need = card_needs(d.s(), &card, &w.by, 0);
        let st = card.success.unwrap_or(Stat::Knowledge);
        let r = roll_for(
            d,
            Purpose::Compliment,
            &w.by,
            Some(&card.name),
            st,
            card.skill.as_deref(),
            w.success,
            Some(need),
            true,
        )?;
        if r.successes >= need {
            d.emit(Event::ComplimentApplies { play: w });
        }
    }
    d.emit(Event::StepReached {
        step: Step::Reaction,
    });
    skip_reactions(d);
    after_reaction(d)
}

/// Step 7 is skipped for a receiver who may not react against the Stunt: Dying
/// allows no card; Incapacitated: Physical actions "cannot be ... reacted
/// against"; Panicked: Mental ones. Sour Grapes, "Stats"; R-SG-12.
pub(super) fn skip_reactions(d: &mut Dec<'_>) {
    let Some(t) = d.s().turn().cloned() else {
        return;
    };
    let Some(stunt) = t.stunt.as_deref().and_then(|c| d.s().card(c)).cloned() else {
        return;
    };
    for r in &t.receivers {
        let Some(p) = d.s().participant(r) else {
            continue;
        };
        let c = &p.character;
        let reason = if c.has(Condition::Dying) {
            Some("Dying: no card can be played".to_string())
        } else if stunt.is_physical() && c.has(Condition::Incapacitated) {
            Some(format!(
                "Incapacitated: Physical actions ({}) cannot be reacted against",
                stunt.name
            ))
        } else if stunt.is_mental() && c.has(Condition::Panicked) {
            Some(format!(
                "Panicked: Mental actions ({}) cannot be reacted against",
                stunt.name
            ))
        } else {
            None
        };
        if let Some(reason) = reason {
            d.emit(Event::ReactionSkipped {
                who: r.clone(),
                reason,
            });
        }
    }
}

/// When every receiver has reacted (or there are none), run step 8.
pub(super) fn after_reaction(d: &mut Dec<'_>) -> Result<(), RuleError> {
    let Some(t) = d.s().turn().cloned() else {
        return Ok(());
    };
    if t.receivers.iter().any(|r| !t.reactions.contains_key(r)) {
        return Ok(());
    }
    final_rolls(d, &t)
}

/// Step 8: the Stunt's roll against each Reaction; damage rolled once and applied
/// to every failed Reaction. Sour Grapes, "Turn Mechanics" step 8; R-SG-5, R-SG-7,
/// R-SG-10.
pub(super) fn final_rolls(d: &mut Dec<'_>, t: &Turn) -> Result<(), RuleError> {
    let stunt = find_card(d.s(), t.stunt.as_deref().unwrap_or(""))?;
    let need = card_needs(d.s(), &stunt, &t.controller, 0);
    let st = stunt.success.unwrap_or(Stat::Agility);
    let r = roll_for(
        d,
        Purpose::Stunt,
        &t.controller,
        Some(&stunt.name),
        st,
        stunt.skill.as_deref(),
        t.success,
        Some(need),
        true,
    )?;
    let stunt_ok = r.successes >= need;
    let mut hit: Vec<String> = Vec::new();
    for recv in &t.receivers {
        let mut dodged = false;
        if let Some(Some(play)) = t.reactions.get(recv) {
            let card = find_card(d.s(), &play.card)?;
            let rneed = card_needs(d.s(), &card, recv, r.successes);
            let rst = card.success.unwrap_or(Stat::Agility);
            let rr = roll_for(
                d,
                Purpose::Reaction,
                recv,
                Some(&card.name),
                rst,
                card.skill.as_deref(),
                play.success,
                Some(rneed),
                true,
            )?;
            dodged = rr.successes >= rneed && card.outcome == Outcome::Evade;
        }
        if !dodged {
            hit.push(recv.clone());
        }
    }
    if stunt_ok {
        match stunt.outcome {
            Outcome::Damage if !hit.is_empty() => {
                let rs = stunt.result.unwrap_or(Stat::Might);
                let dmg = roll_for(
                    d,
                    Purpose::Damage,
                    &t.controller,
                    Some(&stunt.name),
                    rs,
                    stunt.skill.as_deref(),
                    t.result,
                    None,
                    true,
                )?;
                let extra = match &t.compliment {
                    Some(c) => {
                        let card = find_card(d.s(), &c.card)?;
                        match (card.outcome, card.result, card.target) {
                            (Outcome::ExtraDamage, Some(crs), Some(ct)) => {
                                let x = roll_for(
                                    d,
                                    Purpose::ExtraDamage,
                                    &c.by,
                                    Some(&card.name),
                                    crs,
                                    card.skill.as_deref(),
                                    c.result,
                                    None,
                                    true,
                                )?;
                                let bonus = d
                                    .s()
                                    .participant(&c.by)
                                    .map_or(0, |p| p.character.card_bonus(&card.name).damage);
                                Some((
                                    x.successes.saturating_add(bonus),
                                    ct,
                                    crs,
                                    card.name.clone(),
                                    false,
                                ))
                            }
                            (Outcome::LessDamage, Some(crs), _) => {
                                let x = roll_for(
                                    d,
                                    Purpose::LessDamage,
                                    &c.by,
                                    Some(&card.name),
                                    crs,
                                    card.skill.as_deref(),
                                    c.result,
                                    None,
                                    true,
                                )?;
                                Some((x.successes, crs, crs, card.name.clone(), true))
                            }
                            _ => None,
                        }
                    }
                    None => None,
                };
                let target = stunt.target.unwrap_or(Stat::Vitality);
                let less = match &extra {
                    Some((x, _, _, _, true)) => *x,
                    _ => 0,
                };
                let bonus = d
                    .s()
                    .participant(&t.controller)
                    .map_or(0, |p| p.character.card_bonus(&stunt.name).damage);
                let stunt_damage = dmg.successes.saturating_add(bonus).saturating_sub(less);
                for h in &hit {
                    if stunt_damage > 0 {
                        apply_damage(d, h, target, stunt_damage, Some(rs), &stunt.name);
                    }
                    if let Some((x, ct, crs, name, false)) = &extra
                        && *x > 0
                    {
                        apply_damage(d, h, *ct, *x, Some(*crs), name);
                    }
                }
            }
            Outcome::ApplyEffect => {
                let has = d
                    .s()
                    .participant(&t.controller)
                    .is_some_and(|p| p.effects.iter().any(|e| same_key(&e.card, &stunt.name)));
                if !has {
                    d.emit(Event::EffectAdded {
                        who: t.controller.clone(),
                        effect: stunt.name.clone(),
                        tokens: stunt.effect.map_or(0, |e| e.tokens),
                    });
                }
            }
            _ => {}
        }
    }
    end_turn(
        d,
        if stunt_ok {
            "the Stunt resolved"
        } else {
            "the Stunt failed"
        },
    );
    Ok(())
}
