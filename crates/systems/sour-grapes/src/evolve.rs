//! Applying events: never rolls, never fails, so replaying the log rebuilds the
//! table.

use std::collections::BTreeMap;

use crate::cards::Keep;
use crate::character::same_name;
use crate::event::Event;
use crate::state::*;
use crate::stats::Stat;

/// Apply one event; never rolls, never fails: each kind of event is applied
/// by the step of the rules it belongs to.
pub(crate) fn evolve(s: &mut State, e: &Event) {
    match e {
        Event::Spent { .. }
        | Event::GivenBack { .. }
        | Event::TokensBack { .. }
        | Event::Healed { .. }
        | Event::Rested { .. }
        | Event::Rolled { .. }
        | Event::Damaged { .. }
        | Event::Adjusted { .. }
        | Event::Awarded { .. }
        | Event::Improved { .. }
        | Event::Raised { .. } => character_event(s, e),
        Event::SituationStarted { .. }
        | Event::DifficultyChanged { .. }
        | Event::SituationEnded { .. } => situation_event(s, e),
        Event::EventStarted { .. }
        | Event::InitiativeRolled { .. }
        | Event::InitiativeSettled { .. }
        | Event::NewRound { .. }
        | Event::TurnBegan { .. }
        | Event::TurnEnded { .. }
        | Event::EventEnded { .. } => event_moment(s, e),
        Event::EffectCountdown { .. }
        | Event::EffectAdded { .. }
        | Event::EffectRemoved { .. }
        | Event::EffectKept { .. }
        | Event::FreePoint { .. }
        | Event::StuntPlayed { .. }
        | Event::Offered { .. }
        | Event::Rejected { .. }
        | Event::SlotWon { .. }
        | Event::StepReached { .. }
        | Event::TargetsDeclared { .. }
        | Event::Diverted { .. }
        | Event::ComplimentApplies { .. }
        | Event::ReactionSkipped { .. }
        | Event::Reacted { .. } => turn_event(s, e),
        Event::Joined { .. } | Event::Left { .. } | Event::EncounterEnded => roster_event(s, e),
    }
}

/// An event on a character's sheet: a stat spent, exhausted by a roll,
/// damaged, given back, healed, rested or set by the storyteller; skill
/// tokens spent and given back (held until a Situation ends); experience
/// awarded and spent.
/// Sour Grapes, "Stat Mechanics", "Skill Mechanics", "Check", "Injury,
/// Exhaust & Damage", "Experience" (000_05a1db5b88f54528.txt); R-SG-4,
/// R-SG-10, R-SG-13.
fn character_event(s: &mut State, e: &Event) {
    match e {
        Event::Spent { who, stat } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).lower(1);
            }
        }
        Event::GivenBack { who, stat, points } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).raise(*points);
            }
        }
        Event::TokensBack { who, skill, points } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.recover_skill(skill, *points);
            }
            // Given back inside a Situation: no longer held until its end.
            if let Moment::Situation(sit) = &mut s.moment
                && let Some(n) = sit
                    .held
                    .get_mut(who)
                    .and_then(|by_skill| by_skill.get_mut(skill))
            {
                *n = n.saturating_sub(*points);
            }
        }
        Event::Healed { who, stat } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).injured = false;
            }
        }
        Event::Rested { who } => {
            for w in who {
                if let Some(p) = s.participant_mut(w) {
                    for st in Stat::ALL {
                        if p.character.recovery_blocked(st).is_none() {
                            let v = p.character.stat(st);
                            p.character.stat_mut(st).raise(v.exhausted());
                        }
                    }
                    p.character.recover_all_skills();
                }
            }
        }
        Event::Rolled {
            who,
            skill,
            exhausts,
            tokens_spent,
            ..
        } => {
            if let Some(p) = s.participant_mut(who) {
                for (st, n) in exhausts {
                    p.character.stat_mut(*st).lower(*n);
                }
                if let Some(k) = skill
                    && *tokens_spent > 0
                {
                    p.character.spend_tokens(k, *tokens_spent);
                    // Inside a Situation the tokens are held until it ends.
                    if let Moment::Situation(sit) = &mut s.moment {
                        let n = sit
                            .held
                            .entry(who.clone())
                            .or_default()
                            .entry(k.clone())
                            .or_default();
                        *n = n.saturating_add(*tokens_spent);
                    }
                }
            }
        }
        Event::Damaged {
            who, stat, points, ..
        } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).lower(*points);
            }
        }
        Event::Adjusted {
            who,
            stat,
            from,
            to,
        } => {
            if let Some(p) = s.participant_mut(who) {
                let v = p.character.stat_mut(*stat);
                if to < from {
                    v.lower(from - to);
                } else {
                    v.raise(to - from);
                }
            }
        }
        Event::Awarded { who, points } => {
            if let Some(p) = s.participant_mut(who) {
                let x = p.character.experience().saturating_add(*points);
                p.character.set_experience(x);
            }
        }
        Event::Improved { who, card, damage } => {
            if let Some(p) = s.participant_mut(who) {
                let x = p.character.experience().saturating_sub(1);
                p.character.set_experience(x);
                p.character.improve_card(card, *damage);
            }
        }
        Event::Raised { who, what } => {
            if let Some(p) = s.participant_mut(who) {
                let x = p.character.experience().saturating_sub(1);
                p.character.set_experience(x);
                match what {
                    Pool::Stat(st) => p.character.raise_stat(*st),
                    Pool::Skill(k) => p.character.raise_skill(k),
                }
            }
        }
        _ => {}
    }
}

/// A Situation starts, its difficulty moves, it ends and every held skill
/// token comes back.
/// Sour Grapes, "Situation", "Skill Mechanics" (000_05a1db5b88f54528.txt).
fn situation_event(s: &mut State, e: &Event) {
    match e {
        Event::SituationStarted {
            who,
            stat,
            skill,
            difficulty,
        } => {
            s.moment = Moment::Situation(Situation {
                who: who.clone(),
                stat: *stat,
                skill: skill.clone(),
                difficulty: *difficulty,
                history: vec![*difficulty],
                held: BTreeMap::new(),
            });
        }
        Event::DifficultyChanged { to, .. } => {
            if let Moment::Situation(sit) = &mut s.moment {
                sit.difficulty = *to;
                sit.history.push(*to);
            }
        }
        Event::SituationEnded { .. } => {
            // Every character's held tokens come back ("Skill Mechanics").
            let held = match std::mem::replace(&mut s.moment, Moment::Free) {
                Moment::Situation(sit) => sit.held,
                _ => BTreeMap::new(),
            };
            for (who, by_skill) in held {
                if let Some(p) = s.participant_mut(&who) {
                    for (skill, n) in by_skill {
                        p.character.recover_skill(&skill, n);
                    }
                }
            }
        }
        _ => {}
    }
}

/// An Event starts, its initiative is rolled and settled, rounds and turns
/// begin and end, and it ends.
/// Sour Grapes, "Event", "Turn Mechanics" (000_05a1db5b88f54528.txt); R-SG-8.
fn event_moment(s: &mut State, e: &Event) {
    match e {
        Event::EventStarted { participants } => {
            s.rounds = 0;
            s.moment = Moment::Event(Box::new(EventState {
                initiative: participants.iter().map(|p| (p.clone(), None)).collect(),
                order: Vec::new(),
                round: 0,
                index: 0,
                turn: None,
            }));
        }
        Event::InitiativeRolled { who, total, .. } => {
            if let Some(e) = s.event_mut() {
                e.initiative.insert(who.clone(), Some(*total));
            }
        }
        Event::InitiativeSettled { order, .. } => {
            if let Some(e) = s.event_mut() {
                e.order = order.clone();
            }
        }
        Event::NewRound { round } => {
            if let Some(e) = s.event_mut() {
                e.round = *round;
            }
            s.rounds = *round;
        }
        Event::TurnBegan { controller, index } => {
            let pending: Vec<String> = s
                .participant(controller)
                .map(|p| {
                    p.effects
                        .iter()
                        .filter(|e| {
                            s.card(&e.card).and_then(|c| c.effect).map(|x| x.keep)
                                == Some(Keep::Roll)
                        })
                        .map(|e| e.card.clone())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(e) = s.event_mut() {
                e.index = *index;
                e.turn = Some(Turn::new(controller.clone(), pending));
            }
        }
        Event::TurnEnded { .. } => {
            if let Some(e) = s.event_mut() {
                e.turn = None;
            }
        }
        Event::EventEnded { .. } => {
            s.moment = Moment::Free;
        }
        _ => {}
    }
}

/// The steps of the turn in progress: effects kept, discarded and counted
/// down, the free point, the Stunt, cards offered, rejected and winning
/// their slot, targets and bets, the Divert and Compliment, the Reactions.
/// Sour Grapes, "Turn Mechanics", "Effects", "Divert", "Reactions"
/// (000_05a1db5b88f54528.txt); R-SG-5, R-SG-9.
fn turn_event(s: &mut State, e: &Event) {
    match e {
        Event::EffectCountdown {
            who,
            effect,
            tokens,
        } => {
            if let Some(p) = s.participant_mut(who)
                && let Some(x) = p.effects.iter_mut().find(|x| &x.card == effect)
            {
                x.tokens = *tokens;
            }
        }
        Event::EffectAdded {
            who,
            effect,
            tokens,
        } => {
            if let Some(p) = s.participant_mut(who) {
                p.effects.push(ActiveEffect {
                    card: effect.clone(),
                    tokens: *tokens,
                });
            }
        }
        Event::EffectRemoved { who, effect } => {
            if let Some(p) = s.participant_mut(who) {
                p.effects.retain(|x| &x.card != effect);
            }
            if let Some(t) = s.turn_mut() {
                t.pending_effects.retain(|x| x != effect);
            }
        }
        Event::EffectKept { effect, .. } => {
            if let Some(t) = s.turn_mut() {
                t.pending_effects.retain(|x| x != effect);
            }
        }
        Event::FreePoint { who, into } => {
            if let Some(p) = s.participant_mut(who) {
                match into {
                    Pool::Stat(st) => p.character.stat_mut(*st).raise(1),
                    Pool::Skill(k) => p.character.recover_skill(k, 1),
                }
            }
            if let Some(t) = s.turn_mut() {
                t.free_point = false;
            }
        }
        Event::StuntPlayed { card, .. } => {
            if let Some(t) = s.turn_mut() {
                t.stunt = Some(card.clone());
                t.step = Step::Interrupt;
            }
        }
        Event::Offered { slot, play } => {
            if let Some(t) = s.turn_mut() {
                match slot {
                    Slot::Interrupt => t.interrupts.push(play.clone()),
                    Slot::Compliment => t.compliments.push(play.clone()),
                    Slot::Divert => t.diverts.push(play.clone()),
                }
            }
        }
        Event::Rejected { who } => {
            if let Some(t) = s.turn_mut() {
                t.interrupts.retain(|p| &p.by != who);
                t.compliments.retain(|p| &p.by != who);
                t.diverts.retain(|p| &p.by != who);
            }
        }
        Event::SlotWon { .. } => {}
        Event::StepReached { step } => {
            if let Some(t) = s.turn_mut() {
                t.step = *step;
            }
        }
        Event::TargetsDeclared {
            targets,
            success,
            result,
        } => {
            if let Some(t) = s.turn_mut() {
                t.targets = targets.clone();
                t.receivers = targets.clone();
                t.success = *success;
                t.result = *result;
                t.step = Step::Support;
            }
        }
        Event::Diverted { to, .. } => {
            if let Some(t) = s.turn_mut() {
                t.receivers = vec![to.clone()];
            }
        }
        Event::ComplimentApplies { play } => {
            if let Some(t) = s.turn_mut() {
                t.compliment = Some(play.clone());
            }
        }
        Event::ReactionSkipped { who, .. } => {
            if let Some(t) = s.turn_mut() {
                t.reactions.insert(who.clone(), None);
            }
        }
        Event::Reacted { who, play } => {
            if let Some(t) = s.turn_mut() {
                t.reactions.insert(who.clone(), play.clone());
            }
        }
        _ => {}
    }
}

/// The storyteller brings a character in (into the initiative, or at the end
/// of the order once it is settled) or takes one out, and the encounter ends.
/// Sour Grapes, "Game Moments" (000_05a1db5b88f54528.txt); GM tools (issue
/// 27, item 6).
fn roster_event(s: &mut State, e: &Event) {
    match e {
        Event::Joined {
            participant, cards, ..
        } => {
            for c in cards {
                if s.card(&c.name).is_none() {
                    s.cards.push(c.clone());
                }
            }
            let name = participant.character.name().to_string();
            s.participants.push((**participant).clone());
            s.added.push(name.clone());
            if let Some(e) = s.event_mut() {
                if e.order.is_empty() {
                    e.initiative.insert(name, None);
                } else {
                    e.order.push(name);
                }
            }
        }
        Event::Left { who } => {
            if let Some(i) = s
                .participants
                .iter()
                .position(|p| same_name(p.character.name(), who))
            {
                let p = s.participants.remove(i);
                s.left.push(p);
            }
            if let Some(e) = s.event_mut() {
                e.initiative.retain(|n, _| !same_name(n, who));
                if let Some(pos) = e.order.iter().position(|n| same_name(n, who)) {
                    e.order.remove(pos);
                    if pos < e.index {
                        e.index -= 1;
                    }
                }
            }
        }
        Event::EncounterEnded => {
            s.over = true;
        }
        _ => {}
    }
}
