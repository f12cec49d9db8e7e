//! `decide`: the refusals and events of every command, by phase.

use crate::name_match::same_name;
use crate::rules::{
    RULE_INJURIES, RULE_INVOKE, RULE_LUCK, RULE_MAGIC_UNPAIRED, RULE_PLAYERS, RULE_SEATS,
    RULE_SESSION, RULE_SIMILAR,
};
use tabula_core::system::Seat;
use tabula_core::{Refusal, Roller, Rule, RuleError};

use crate::character::{Advance, CycleChange, MAX_LUCK};
use crate::checks::{self, MAX_BONUS, MAX_TN};
use crate::command::Command;
use crate::event::{Event, LuckReason, Step};
use crate::harm::{self, Damage, HarmKind, Level};
use crate::invoking::{self, Element, Nature, OpenCheck, ProfessionUse};
use crate::state::{Member, PendingInjury, State, Until};
use crate::table::{MAX_LUCK_SPEND, MAX_NARRATION};

mod check;
mod pool;
mod record;
mod roll;
mod sequence;
mod session;

pub(crate) use sequence::round_end_after;
pub use session::due_advancements;

/// Decide a command: the refusals every command shares (the encounter over, a
/// weapon's Injury waiting for the GM's call, R-SA-6), then the command's own.
pub(super) fn decide(
    state: &State,
    seat: &Seat,
    cmd: &Command,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    if state.over {
        return Err(RuleError::new(
            RULE_SEATS,
            Refusal::WrongPhase,
            "the encounter is over",
        ));
    }
    if let Some(p) = &state.pending_injury
        && !matches!(
            cmd,
            Command::SimilarInjury { .. } | Command::End | Command::EndCarrying
        )
    {
        return Err(RuleError::new(
            RULE_SIMILAR,
            Refusal::WrongPhase,
            format!(
                "the GM first says whether {}'s new {} Injury ({}) is similar to an existing one: `similar-to ENTRY` or `different`",
                state.name(p.character),
                p.level,
                p.name
            ),
        ));
    }
    match cmd {
        Command::Check {
            character,
            tn,
            ongoing,
        } => check::check(state, seat, character, tn, ongoing),
        Command::Confront {
            aggressor,
            defender,
        } => check::confront(state, seat, aggressor, defender),
        Command::Fight {
            aggressor,
            defender,
        } => sequence::fight(state, seat, aggressor, defender),
        Command::BeginSequence { goal } => sequence::begin_sequence(state, seat, goal),
        Command::Threaten { character } | Command::EnterFray { character } => {
            sequence::join(state, seat, cmd, character)
        }
        Command::Frame { text } => sequence::frame(state, seat, text),
        Command::Focal { character } => sequence::focal(state, seat, character),
        Command::Tn { tn, not_relevant } => check::tn(state, seat, tn, not_relevant),
        Command::Invoke { element, fully } => pool::invoke(state, seat, element, fully),
        Command::Help { helper, element } => pool::help(state, seat, helper, element),
        Command::Defend { element, fully } => pool::defend(state, seat, element, fully),
        Command::Talent { name } => pool::talent(state, seat, name),
        Command::SpendLuck { amount } => pool::spend_luck(state, seat, amount),
        Command::Declare { nature, text } => pool::declare(state, seat, nature, text),
        Command::Rule { accept } => pool::rule(state, seat, accept),
        Command::Bonus { dice } => pool::bonus(state, seat, dice),
        Command::Roll { weapon, target } => roll::roll(state, seat, weapon, target, roller),
        Command::SimilarInjury { similar_to } => roll::similar_injury(state, seat, similar_to),
        Command::EndSession { consequential } => session::end_session(state, seat, consequential),
        Command::Harm {
            character,
            kind,
            level,
            name,
            similar_to,
        } => record::harm(state, seat, character, kind, level, name, similar_to),
        Command::Heal {
            character,
            kind,
            name,
        } => record::heal(state, seat, character, kind, name),
        Command::LuckPrinciple { character } => record::luck_principle(state, seat, character),
        Command::LuckImpulse {
            character,
            beneficiary,
        } => record::luck_impulse(state, seat, character, beneficiary),
        Command::Adjust {
            character,
            value,
            amount,
        } => crate::gm::adjust(state, seat, *character, *value, *amount),
        Command::Add {
            kind,
            name,
            to,
            sheet: None,
        } => crate::gm::add(state, seat, kind, name.as_deref(), to.as_deref()),
        Command::Add {
            kind,
            name,
            to,
            sheet: Some(text),
        } => crate::gm::add_sheet(state, seat, kind, text, name.as_deref(), to.as_deref()),
        Command::Remove { character } => crate::gm::remove(state, seat, *character),
        Command::GiveLuck { character, amount } => {
            record::give_luck(state, seat, character, amount)
        }
        Command::Release {
            character,
            element: Some(element),
        } => pool::release_one(state, seat, character, element),
        Command::LeaveFray { character } => sequence::leave_fray(state, seat, character),
        Command::Release {
            character,
            element: None,
        } => pool::release_all(state, seat, character),
        Command::Advance { character, advance } => {
            session::advance(state, seat, character, advance)
        }
        Command::Change { character, change } => session::change(state, seat, character, change),
        Command::EndSequence => sequence::end_sequence(state, seat),
        Command::End => session::end(state, seat),
        Command::EndCarrying => session::end_carrying(seat),
    }
}

fn gm_only(seat: &Seat) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotPermitted,
            "only the GM may do this",
        ))
    }
}

fn may_act(state: &State, seat: &Seat, i: usize) -> bool {
    match seat {
        Seat::Gm => true,
        Seat::Player(p) => state
            .member(i)
            .and_then(|m| m.character.player())
            .is_some_and(|o| same_name(o, p)),
    }
}

/// A refusal for a name the table does not know, listing the names it does
/// ([`RuleError::unknown_among`]).
fn unknown_among(rule: Rule, field: &str, name: &str, choices: &[String]) -> RuleError {
    RuleError::unknown_among(rule, field, name.trim(), choices.iter().map(String::as_str))
}

fn unknown_character(state: &State, i: usize) -> RuleError {
    unknown_among(RULE_SEATS, "character", &format!("#{i}"), &state.names())
}

/// A player seat acts only for the characters whose sheet names it as `player`;
/// the GM acts for every character (NPCs, and to drive a table). Tabula's seat
/// rule ([`RULE_SEATS`]); "Players in the Action Sequence".
fn acts_for(state: &State, seat: &Seat, i: usize) -> Result<(), RuleError> {
    if state.member(i).is_none() {
        return Err(unknown_character(state, i));
    }
    if may_act(state, seat, i) {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotYourTurn,
            format!("{seat} does not play {}", state.name(i)),
        ))
    }
}

fn known(state: &State, i: usize) -> Result<&Member, RuleError> {
    state.member(i).ok_or_else(|| unknown_character(state, i))
}

/// An element of `m` by name, or a refusal listing its elements.
/// The element `name` of `m`'s sheet. A magic Quality gained alone by
/// advancement gives nothing until its pair is complete (R-SA-12): it is
/// refused wherever an element is invoked (a check, help, defending).
fn element_of(rule: Rule, m: &Member, name: &str) -> Result<Element, RuleError> {
    let el = invoking::element(&m.character, name).ok_or_else(|| {
        unknown_among(
            rule,
            &format!("element of {}", m.character.name()),
            name,
            &m.character.elements(),
        )
    })?;
    if m.character.is_unpaired(el.name()) {
        return Err(unpaired(el.name()));
    }
    Ok(el)
}

/// The refusal of a magic half that waits for its pair. R-SA-12.
fn unpaired(name: &str) -> RuleError {
    RuleError::forbidden(
        RULE_MAGIC_UNPAIRED,
        format!(
            "{name} is marked unpaired: it gives nothing until its magic pair (a Quality and a Special Talent) is complete"
        ),
    )
}

fn open_check(state: &State) -> Result<&OpenCheck, RuleError> {
    state.check.as_ref().ok_or_else(|| {
        RuleError::new(
            RULE_INVOKE,
            Refusal::WrongPhase,
            "no check is being built: the GM calls for one first",
        )
    })
}

fn no_check(state: &State) -> Result<(), RuleError> {
    if state.check.is_some() {
        Err(RuleError::new(
            RULE_INVOKE,
            Refusal::WrongPhase,
            "a check is being built; roll it first",
        ))
    } else {
        Ok(())
    }
}

fn focal_player<'a>(state: &'a State, seat: &Seat) -> Result<&'a OpenCheck, RuleError> {
    let c = open_check(state)?;
    if !may_act(state, seat, c.focal) {
        return Err(RuleError::new(
            RULE_PLAYERS,
            Refusal::NotYourTurn,
            format!(
                "only {}'s player (or the GM) builds this pool",
                state.name(c.focal)
            ),
        ));
    }
    Ok(c)
}

fn not_debilitated(state: &State, i: usize) -> Result<(), RuleError> {
    let m = known(state, i)?;
    if m.character.dead() {
        return Err(RuleError::condition(
            crate::rules::RULE_WEAPONS,
            "dead",
            format!("{} is dead", state.name(i)),
        ));
    }
    if m.character.debilitated() {
        return Err(RuleError::condition(
            RULE_INJURIES,
            "debilitated",
            format!(
                "{} is debilitated by a second Severe Injury or Stress",
                state.name(i)
            ),
        ));
    }
    Ok(())
}

fn luck_room(state: &State, i: usize, amount: u32) -> Result<(), RuleError> {
    let m = known(state, i)?;
    if m.character.luck().saturating_add(amount) > MAX_LUCK {
        return Err(RuleError::out_of_range(
            RULE_LUCK,
            "Luck held",
            0,
            i64::from(MAX_LUCK),
            i64::from(m.character.luck().saturating_add(amount)),
        ));
    }
    Ok(())
}

/// Advancement and cycle changes happen at the GM's end-of-session step (R-SA-9).
fn between_sessions(state: &State) -> Result<(), RuleError> {
    if !state.session_over || state.check.is_some() || state.sequence.is_some() {
        return Err(RuleError::new(
            RULE_SESSION,
            Refusal::WrongPhase,
            "advancement comes after a consequential session: the GM ends the session first (end-session consequential)",
        ));
    }
    Ok(())
}

fn talent_names(m: &Member) -> Vec<String> {
    m.character
        .sheet()
        .special_talents
        .iter()
        .map(|t| t.name.trim().to_string())
        .collect()
}

/// A refusal for an Injury or Stress that cannot be recorded as asked.
fn harm_refusal(m: &Member, kind: HarmKind, e: harm::HarmError) -> RuleError {
    match e {
        harm::HarmError::Words => RuleError::forbidden(RULE_INJURIES, e.to_string()),
        harm::HarmError::NoSuchEntry { name, .. } => {
            let track = match kind {
                HarmKind::Injury => m.character.injuries(),
                HarmKind::Stress => m.character.stresses(),
            };
            unknown_among(
                RULE_SIMILAR,
                &format!("{kind} of {}", m.character.name()),
                &name,
                &track
                    .entries()
                    .iter()
                    .map(|(_, n)| n.to_string())
                    .collect::<Vec<_>>(),
            )
        }
        harm::HarmError::OtherLevel { .. } => RuleError::forbidden(RULE_SIMILAR, e.to_string()),
    }
}

fn clip(s: &str) -> String {
    s.trim().chars().take(MAX_NARRATION).collect()
}
