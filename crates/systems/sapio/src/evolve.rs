//! `evolve`: each event applied to the table.

use crate::name_match::same_name;

use crate::character::MAX_LUCK;
use crate::checks::CheckRoll;
use crate::event::{Event, Step};
use crate::harm::HarmKind;
use crate::invoking::{Declaration, Help, OpenCheck};
use crate::state::{Lock, Member, Participant, Sequence, State, Until};

/// Play resumes after the end-of-session step: the next session begins, and an
/// advancement not taken at the step is not carried into it (R-SA-9).
fn resume_play(state: &mut State) {
    state.session_over = false;
    for m in &mut state.characters {
        m.advancement_due = false;
    }
}

/// Apply `event` to `state` (never refuses: `decide` has judged it). Each
/// kind of event is applied by the step of the rules it belongs to, which
/// leaves every other kind alone.
pub(super) fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::CheckCalled { .. }
        | Event::TnSet { .. }
        | Event::Invoked { .. }
        | Event::Helped { .. }
        | Event::Defended { .. }
        | Event::TalentCalled { .. }
        | Event::LuckSpent { .. }
        | Event::Declared { .. }
        | Event::Ruled { .. }
        | Event::BonusGiven { .. } => check_step(state, event),
        Event::SequenceBegun { .. }
        | Event::Joined { .. }
        | Event::TurnFramed { .. }
        | Event::RoundEnded { .. }
        | Event::Left { .. }
        | Event::SequenceEnded => sequence_step(state, event),
        Event::Released { .. }
        | Event::LuckGained { .. }
        | Event::Harmed { .. }
        | Event::InjuryPending { .. }
        | Event::Killed { .. }
        | Event::Healed { .. }
        | Event::Adjusted {
            value: crate::gm::Value::Luck,
            ..
        } => record(state, event),
        Event::SessionEnded { .. }
        | Event::Advanced { .. }
        | Event::Changed { .. }
        | Event::EncounterEnded
        | Event::Added { .. }
        | Event::Removed { .. } => session_step(state, event),
        Event::Rolled {
            check, roll, until, ..
        } => rolled(state, check, roll, until.as_ref()),
    }
}

/// A check called and its pool built step by step: the TN, the elements
/// invoked, help, the defender's raise, Special Talents, Luck, a
/// declaration and the GM's ruling, bonus dice ("When to Roll", "Invoking an
/// Element", "Special Situations when Rolling", "Luck"; R-SA-5, R-SA-8,
/// R-SA-11).
fn check_step(state: &mut State, event: &Event) {
    match event {
        Event::CheckCalled { check } => {
            resume_play(state);
            state.next_check = check.id.saturating_add(1);
            if let Some(s) = &mut state.sequence {
                s.framed = false;
            }
            state.check = Some(check.clone());
        }
        Event::TnSet { tn, not_relevant } => {
            if let Some(c) = &mut state.check {
                c.tn = Some(*tn);
                c.not_relevant = not_relevant.clone();
            }
        }
        Event::Invoked { element, step } => {
            if let Some(c) = &mut state.check {
                match step {
                    Step::Profession(u) => c.profession = Some((element.clone(), *u)),
                    Step::Specialization => c.specialization = Some(element.clone()),
                    Step::Quality => c.quality = Some(element.clone()),
                }
            }
        }
        Event::Helped { helper, element } => {
            if let Some(c) = &mut state.check {
                c.help.push(Help {
                    helper: *helper,
                    element: element.clone(),
                });
            }
        }
        Event::Defended { element, tn } => {
            if let Some(c) = &mut state.check {
                c.defended_with.push(element.clone());
                c.tn = Some(*tn);
            }
        }
        Event::TalentCalled { name } => {
            if let Some(c) = &mut state.check {
                c.talents.push(name.clone());
            }
        }
        Event::LuckSpent { amount } => {
            if let Some(c) = &mut state.check {
                c.luck = c.luck.saturating_add(*amount);
            }
        }
        Event::Declared { nature, text } => {
            if let Some(c) = &mut state.check {
                c.declaration = Some(Declaration {
                    nature: *nature,
                    text: text.clone(),
                    accepted: None,
                });
            }
        }
        Event::Ruled { accepted } => {
            if let Some(c) = &mut state.check
                && let Some(d) = &mut c.declaration
            {
                d.accepted = Some(*accepted);
            }
        }
        Event::BonusGiven { dice } => {
            if let Some(c) = &mut state.check {
                c.gm_bonus = c.gm_bonus.saturating_add(*dice);
            }
        }
        _ => {}
    }
}

/// An Action Sequence: begun, joined, a turn framed, a round ended (its
/// elements free again), left, ended ("Action Sequences in Play",
/// "Players in the Action Sequence").
fn sequence_step(state: &mut State, event: &Event) {
    match event {
        Event::SequenceBegun { goal, fight } => {
            resume_play(state);
            state.sequence = Some(Sequence {
                goal: goal.clone(),
                round: 1,
                turns: 0,
                framed: false,
                participants: Vec::new(),
                fight: *fight,
            });
        }
        Event::Joined {
            character,
            threatened,
        } => {
            if let Some(s) = &mut state.sequence {
                match s
                    .participants
                    .iter_mut()
                    .find(|p| p.character == *character)
                {
                    Some(p) => p.threatened |= *threatened,
                    None => s.participants.push(Participant {
                        character: *character,
                        threatened: *threatened,
                        focal_done: false,
                    }),
                }
            }
        }
        Event::TurnFramed { .. } => {
            if let Some(s) = &mut state.sequence {
                s.framed = true;
                s.turns = s.turns.saturating_add(1);
            }
        }
        Event::RoundEnded { .. } => {
            if let Some(s) = &mut state.sequence {
                s.round += 1;
                s.turns = 0;
                s.framed = false;
                for p in &mut s.participants {
                    p.focal_done = false;
                    // Threatened "at the start of the round": the GM says so again.
                    p.threatened = false;
                }
            }
            for m in &mut state.characters {
                m.locked.retain(|l| l.until != Until::RoundEnd);
            }
        }
        Event::Left { character } => {
            if let Some(s) = &mut state.sequence {
                s.participants.retain(|p| p.character != *character);
            }
        }
        Event::SequenceEnded => {
            state.sequence = None;
            for m in &mut state.characters {
                m.locked.retain(|l| l.until != Until::RoundEnd);
            }
        }
        _ => {}
    }
}

/// The GM's records: a release, Luck gained, an Injury or Stress recorded,
/// pending or healed, a death, Luck set ("Invoking an Element", "Luck",
/// "Injuries and Stresses", "Weapons and causing Injury"; R-SA-4, R-SA-6;
/// the GM's tools, issue 27, item 6).
fn record(state: &mut State, event: &Event) {
    match event {
        Event::Released { character, element } => {
            if let Some(m) = state.characters.get_mut(*character) {
                match element {
                    Some(e) => m.locked.retain(|l| !same_name(&l.element, e)),
                    None => m.locked.retain(|l| !matches!(l.until, Until::TaskEnd(_))),
                }
            }
        }
        Event::LuckGained {
            character, amount, ..
        } => {
            if let Some(m) = state.characters.get_mut(*character) {
                let s = m.character.sheet_mut();
                s.luck = s.luck.saturating_add(*amount).min(MAX_LUCK);
            }
        }
        Event::Harmed {
            character,
            kind,
            recording,
        } => {
            if let Some(m) = state.characters.get_mut(*character) {
                let s = m.character.sheet_mut();
                match kind {
                    HarmKind::Injury => s.injuries.apply(recording),
                    HarmKind::Stress => s.stresses.apply(recording),
                }
            }
            if *kind == HarmKind::Injury
                && state
                    .pending_injury
                    .as_ref()
                    .is_some_and(|p| p.character == *character)
            {
                state.pending_injury = None;
            }
        }
        Event::InjuryPending { pending } => {
            state.pending_injury = Some(pending.clone());
        }
        Event::Killed { character, .. } => {
            if let Some(m) = state.characters.get_mut(*character) {
                m.character.sheet_mut().dead = true;
            }
        }
        Event::Healed {
            character,
            kind,
            at,
            ..
        } => {
            if let Some(m) = state.characters.get_mut(*character) {
                let s = m.character.sheet_mut();
                match kind {
                    HarmKind::Injury => s.injuries.clear(*at),
                    HarmKind::Stress => s.stresses.clear(*at),
                };
            }
        }
        Event::Adjusted {
            character,
            value: crate::gm::Value::Luck,
            to,
            ..
        } => {
            if let Some(m) = state.characters.get_mut(*character) {
                m.character.sheet_mut().luck = *to;
            }
        }
        _ => {}
    }
}

/// The session and the encounter: the end-of-session step, an advancement
/// or a cycle change, the encounter's end, a character added or removed
/// ("Advancement", R-SA-9; the GM's tools, issue 27, item 6).
fn session_step(state: &mut State, event: &Event) {
    match event {
        Event::SessionEnded { consequential } => {
            state.session_over = true;
            if *consequential {
                for m in state.characters.iter_mut().filter(|m| !m.removed) {
                    m.advancement_due = true;
                }
            }
        }
        Event::Advanced { character, advance } => {
            if let Some(m) = state.characters.get_mut(*character) {
                m.character.apply_advance(advance);
                m.advancement_due = false;
            }
        }
        Event::Changed { character, change } => {
            if let Some(m) = state.characters.get_mut(*character) {
                m.character.apply_change(change);
            }
        }
        Event::EncounterEnded => {
            state.over = true;
            state.check = None;
        }
        Event::Added { newcomer } => state.characters.push(Member {
            character: newcomer.clone(),
            locked: Vec::new(),
            advancement_due: false,
            removed: false,
            added: true,
        }),
        Event::Removed { character } => {
            if let Some(m) = state.characters.get_mut(*character) {
                m.removed = true;
                m.locked.clear();
                m.advancement_due = false;
            }
            if let Some(s) = &mut state.sequence {
                s.participants.retain(|p| p.character != *character);
            }
        }
        _ => {}
    }
}

/// The roll: the Luck spent leaves the sheet, the elements stay invoked
/// as long as the check says ("Invoking an Element"), the focal character
/// has had its turn ("Action Sequences in Play"), the check closes.
fn rolled(state: &mut State, check: &OpenCheck, roll: &CheckRoll, until: Option<&Until>) {
    if let Some(m) = state.characters.get_mut(check.focal) {
        let s = m.character.sheet_mut();
        s.luck = s.luck.saturating_sub(check.luck);
    }
    if let Some(until) = until {
        for (who, element) in check.locks() {
            if let Some(m) = state.characters.get_mut(who)
                && !m.is_locked(&element)
            {
                m.locked.push(Lock {
                    element,
                    until: *until,
                });
            }
        }
    }
    if let Some(s) = &mut state.sequence
        && let Some(p) = s
            .participants
            .iter_mut()
            .find(|p| p.character == check.focal)
    {
        p.focal_done = true;
    }
    state.last_roll = Some(roll.clone());
    state.check = None;
}
