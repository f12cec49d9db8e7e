//! Building the pool: invoking elements, help, defending, Special Talents,
//! Luck, declarations, bonus dice, releasing elements ("When to Roll",
//! "Invoking an Element", "Special Situations when Rolling").

use super::*;
use crate::rules::{
    RULE_HELP, RULE_INVOKE, RULE_LOCKS, RULE_LUCK, RULE_PLAYERS, RULE_SACRIFICE, RULE_SEQUENCE,
    RULE_TALENT_USE, RULE_VERSUS, RULE_VERSUS_LUCK,
};

/// `decide` for [`Command::Invoke`].
pub(super) fn invoke(
    state: &State,
    seat: &Seat,
    element: &str,
    fully: &bool,
) -> Result<Vec<Event>, RuleError> {
    let c = focal_player(state, seat)?;
    let m = known(state, c.focal)?;
    let el = element_of(RULE_INVOKE, m, element)?;
    let locked = m.is_locked(el.name());
    match el {
        Element::Profession { name, main } => {
            if let Some((p, _)) = &c.profession {
                return Err(RuleError::already_used(
                    RULE_INVOKE,
                    "Profession",
                    format!("only one Profession per roll; {p} is invoked"),
                ));
            }
            let usage = match (main, *fully, locked) {
                (true, true, false) => ProfessionUse::MainFully,
                (true, false, false) => ProfessionUse::MainPartly,
                (true, true, true) => ProfessionUse::MainAgain,
                (true, false, true) => {
                    return Err(RuleError::forbidden(
                        RULE_LOCKS,
                        format!(
                            "{name} is invoked for a simultaneous task; invoked again it must be fully applicable (one die)"
                        ),
                    ));
                }
                (false, _, true) => {
                    return Err(RuleError::already_used(
                        RULE_LOCKS,
                        "dedicated element",
                        format!("{name} is dedicated to a simultaneous task"),
                    ));
                }
                (false, _, false) => ProfessionUse::Side,
            };
            Ok(vec![Event::Invoked {
                element: name,
                step: Step::Profession(usage),
            }])
        }
        Element::Specialization { name, profession } => {
            if c.specialization.is_some() {
                return Err(RuleError::already_used(
                    RULE_INVOKE,
                    "Specialization",
                    "only one Specialization per roll",
                ));
            }
            match &c.profession {
                Some((p, _)) if same_name(p, &profession) => {}
                _ => {
                    return Err(RuleError::forbidden(
                        RULE_INVOKE,
                        format!(
                            "{name} is a Specialization of {profession}: invoke that Profession first"
                        ),
                    ));
                }
            }
            if locked {
                return Err(RuleError::already_used(
                    RULE_LOCKS,
                    "dedicated element",
                    format!("{name} is dedicated to a simultaneous task"),
                ));
            }
            Ok(vec![Event::Invoked {
                element: name,
                step: Step::Specialization,
            }])
        }
        Element::Quality { name } => {
            if c.quality.is_some() {
                return Err(RuleError::already_used(
                    RULE_INVOKE,
                    "Quality",
                    "only one Quality may be invoked for each check",
                ));
            }
            if locked {
                return Err(RuleError::already_used(
                    RULE_LOCKS,
                    "dedicated element",
                    format!("{name} is dedicated to a simultaneous task"),
                ));
            }
            Ok(vec![Event::Invoked {
                element: name,
                step: Step::Quality,
            }])
        }
    }
}

/// `decide` for [`Command::Help`].
pub(super) fn help(
    state: &State,
    seat: &Seat,
    helper: &usize,
    element: &str,
) -> Result<Vec<Event>, RuleError> {
    acts_for(state, seat, *helper)?;
    let c = open_check(state)?;
    if *helper == c.focal {
        return Err(RuleError::forbidden(
            RULE_HELP,
            "the focal character cannot help themself",
        ));
    }
    if Some(*helper) == c.versus {
        return Err(RuleError::forbidden(
            RULE_VERSUS,
            "the defender cannot help the aggressor",
        ));
    }
    not_debilitated(state, *helper)?;
    if let Some(s) = &state.sequence
        && state.participant(*helper).is_none()
    {
        let _ = s;
        return Err(RuleError::forbidden(
            RULE_SEQUENCE,
            format!(
                "{} does not take part in this Action Sequence",
                state.name(*helper)
            ),
        ));
    }
    if c.help.iter().any(|h| h.helper == *helper) {
        return Err(RuleError::already_used(
            RULE_PLAYERS,
            "help",
            "a supporting character invokes one element to add a bonus die",
        ));
    }
    let m = known(state, *helper)?;
    if invoking::element(&m.character, element).is_none()
        && m.character.find_talent(element).is_some()
    {
        return Err(RuleError::forbidden(
            RULE_HELP,
            "Special Talents cannot be used to help: only Professions, Specializations and Qualities",
        ));
    }
    let el = element_of(RULE_HELP, m, element)?;
    let main = matches!(el, Element::Profession { main: true, .. });
    if m.is_locked(el.name()) && !main {
        return Err(RuleError::already_used(
            RULE_LOCKS,
            "dedicated element",
            format!("{} is dedicated to a simultaneous task", el.name()),
        ));
    }
    Ok(vec![Event::Helped {
        helper: *helper,
        element: el.name().to_string(),
    }])
}

/// `decide` for [`Command::Defend`].
pub(super) fn defend(
    state: &State,
    seat: &Seat,
    element: &str,
    fully: &bool,
) -> Result<Vec<Event>, RuleError> {
    let c = open_check(state)?;
    let d = c
        .versus
        .ok_or_else(|| RuleError::forbidden(RULE_VERSUS, "this check has no defender"))?;
    acts_for(state, seat, d)?;
    let m = known(state, d)?;
    let el = element_of(RULE_VERSUS, m, element)?;
    // R-SA-5: the defender invokes what a check allows: one Profession,
    // one Specialization of that Profession, one Quality.
    let (invoked, profession) = c.defender_invoked(&m.character);
    match &el {
        Element::Profession { .. } => {
            if let Some(p) = profession {
                return Err(RuleError::already_used(
                    RULE_VERSUS,
                    "Profession",
                    format!("the defender invokes one Profession, as in any check; {p} is invoked"),
                ));
            }
        }
        Element::Specialization {
            name,
            profession: of,
        } => {
            if let Some(s) = invoked
                .iter()
                .find(|e| matches!(e, Element::Specialization { .. }))
            {
                return Err(RuleError::already_used(
                    RULE_VERSUS,
                    "Specialization",
                    format!(
                        "the defender invokes one Specialization, as in any check; {} is invoked",
                        s.name()
                    ),
                ));
            }
            if !profession.as_deref().is_some_and(|p| same_name(p, of)) {
                return Err(RuleError::forbidden(
                    RULE_VERSUS,
                    format!(
                        "{name} is a Specialization of {of}: the defender invokes that Profession first"
                    ),
                ));
            }
        }
        Element::Quality { .. } => {
            if let Some(q) = invoked
                .iter()
                .find(|e| matches!(e, Element::Quality { .. }))
            {
                return Err(RuleError::already_used(
                    RULE_VERSUS,
                    "Quality",
                    format!(
                        "the defender invokes one Quality, as in any check; {} is invoked",
                        q.name()
                    ),
                ));
            }
        }
    }
    // "Invoking an Element": a dedicated element is not invoked for a
    // simultaneous task, except the Main Profession, which then gives
    // one die and only when fully applicable.
    let main = matches!(el, Element::Profession { main: true, .. });
    let locked = m.is_locked(el.name());
    if locked && !main {
        return Err(RuleError::already_used(
            RULE_LOCKS,
            "dedicated element",
            format!("{} is dedicated to a simultaneous task", el.name()),
        ));
    }
    // R-SA-11: the TN rises by the dice the element would add.
    let raise = match (main, *fully, locked) {
        (true, true, false) => ProfessionUse::MainFully.dice(),
        (true, false, true) => {
            return Err(RuleError::forbidden(
                RULE_LOCKS,
                format!(
                    "{} is invoked for a simultaneous task; invoked again it must be fully applicable (one die)",
                    el.name()
                ),
            ));
        }
        _ => 1,
    };
    let tn = c.tn.unwrap_or(1);
    let raised = tn.saturating_add(raise);
    if raised > MAX_TN {
        return Err(RuleError::out_of_range(
            RULE_VERSUS,
            "TN",
            1,
            i64::from(MAX_TN),
            i64::from(raised),
        ));
    }
    Ok(vec![Event::Defended {
        element: el.name().to_string(),
        tn: raised,
    }])
}

/// `decide` for [`Command::Talent`].
pub(super) fn talent(state: &State, seat: &Seat, name: &str) -> Result<Vec<Event>, RuleError> {
    let c = focal_player(state, seat)?;
    let m = known(state, c.focal)?;
    let t = m.character.find_talent(name).ok_or_else(|| {
        unknown_among(
            RULE_TALENT_USE,
            &format!("Special Talent of {}", m.character.name()),
            name,
            &talent_names(m),
        )
    })?;
    if m.character.is_unpaired(&t.name) {
        return Err(unpaired(t.name.trim()));
    }
    if c.talents.iter().any(|x| same_name(x, &t.name)) {
        return Err(RuleError::already_used(
            RULE_TALENT_USE,
            "Special Talent",
            format!("{} is called out already", t.name),
        ));
    }
    Ok(vec![Event::TalentCalled {
        name: t.name.trim().to_string(),
    }])
}

/// `decide` for [`Command::SpendLuck`].
pub(super) fn spend_luck(
    state: &State,
    seat: &Seat,
    amount: &u32,
) -> Result<Vec<Event>, RuleError> {
    let c = focal_player(state, seat)?;
    let m = known(state, c.focal)?;
    // "Players may not add luck to this": neither side of Character
    // versus Character spends Luck on its roll. R-SA-11.
    if c.versus.is_some() {
        return Err(RuleError::forbidden(
            RULE_VERSUS_LUCK,
            "players may not add Luck to a Character versus Character roll",
        ));
    }
    if *amount == 0 || c.luck.saturating_add(*amount) > MAX_LUCK_SPEND {
        return Err(RuleError::out_of_range(
            RULE_LUCK,
            "Luck spent on one roll",
            1,
            i64::from(MAX_LUCK_SPEND.saturating_sub(c.luck)),
            i64::from(*amount),
        ));
    }
    if c.luck.saturating_add(*amount) > m.character.luck() {
        return Err(RuleError::spent(
            RULE_LUCK,
            "Luck",
            format!("{} has {} Luck", m.character.name(), m.character.luck()),
        ));
    }
    Ok(vec![Event::LuckSpent { amount: *amount }])
}

/// `decide` for [`Command::Declare`].
pub(super) fn declare(
    state: &State,
    seat: &Seat,
    nature: &Nature,
    text: &str,
) -> Result<Vec<Event>, RuleError> {
    let c = focal_player(state, seat)?;
    if c.declaration.is_some() {
        return Err(RuleError::already_used(
            RULE_SACRIFICE,
            "Principle or Worst Impulse declaration",
            "one Principle or Worst Impulse declaration per roll",
        ));
    }
    if text.trim().is_empty() {
        return Err(RuleError::forbidden(
            RULE_SACRIFICE,
            "say what the character sacrifices or overindulges in",
        ));
    }
    Ok(vec![Event::Declared {
        nature: *nature,
        text: clip(text),
    }])
}

/// `decide` for [`Command::Rule`].
pub(super) fn rule(state: &State, seat: &Seat, accept: &bool) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let c = open_check(state)?;
    match &c.declaration {
        Some(d) if d.accepted.is_none() => Ok(vec![Event::Ruled { accepted: *accept }]),
        _ => Err(RuleError::new(
            RULE_SACRIFICE,
            Refusal::WrongPhase,
            "no declaration waits for the GM",
        )),
    }
}

/// `decide` for [`Command::Bonus`].
pub(super) fn bonus(state: &State, seat: &Seat, dice: &u32) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let c = open_check(state)?;
    if *dice == 0 || c.gm_bonus.saturating_add(*dice) > MAX_BONUS {
        return Err(RuleError::out_of_range(
            crate::rules::RULE_BONUS_PAST_SIX,
            "bonus dice",
            1,
            i64::from(MAX_BONUS.saturating_sub(c.gm_bonus)),
            i64::from(*dice),
        ));
    }
    Ok(vec![Event::BonusGiven { dice: *dice }])
}

/// `decide` for [`Command::Release`].
pub(super) fn release_one(
    state: &State,
    seat: &Seat,
    character: &usize,
    element: &str,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let m = known(state, *character)?;
    let lock = m
        .locked
        .iter()
        .find(|l| same_name(&l.element, element))
        .ok_or_else(|| {
            unknown_among(
                RULE_LOCKS,
                &format!("invoked element of {}", m.character.name()),
                element,
                &m.locked
                    .iter()
                    .map(|l| l.element.clone())
                    .collect::<Vec<_>>(),
            )
        })?;
    Ok(vec![Event::Released {
        character: *character,
        element: Some(lock.element.clone()),
    }])
}

/// `decide` for [`Command::Release`].
pub(super) fn release_all(
    state: &State,
    seat: &Seat,
    character: &usize,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let m = known(state, *character)?;
    if !m
        .locked
        .iter()
        .any(|l| matches!(l.until, Until::TaskEnd(_)))
    {
        return Err(RuleError::not_held(
            RULE_LOCKS,
            "element dedicated to an ongoing task",
            format!(
                "{} has no element dedicated to an ongoing task",
                m.character.name()
            ),
        ));
    }
    Ok(vec![Event::Released {
        character: *character,
        element: None,
    }])
}
