//! Rolling the pool and a weapon's Injury ("When to Roll", "Weapons and
//! causing Injury"; R-SA-4, R-SA-6).

use super::*;
use crate::rules::{RULE_SACRIFICE, RULE_SIMILAR, RULE_VERSUS};

/// `decide` for [`Command::Roll`].
pub(super) fn roll(
    state: &State,
    seat: &Seat,
    weapon: &Option<String>,
    target: &Option<usize>,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    let c = focal_player(state, seat)?;
    let m = known(state, c.focal)?;
    if c.tn.is_none() {
        return Err(RuleError::new(
            crate::rules::RULE_WHEN_TO_ROLL,
            Refusal::WrongPhase,
            "the GM sets the TN first",
        ));
    }
    if matches!(&c.declaration, Some(d) if d.accepted.is_none()) {
        return Err(RuleError::new(
            RULE_SACRIFICE,
            Refusal::WrongPhase,
            "the GM accepts or rejects the declaration first",
        ));
    }
    let w = match weapon {
        Some(w) => Some(m.character.find_weapon(w).ok_or_else(|| {
            unknown_among(
                crate::rules::RULE_WEAPONS,
                &format!("weapon of {}", m.character.name()),
                w,
                &m.character
                    .sheet()
                    .weapons
                    .iter()
                    .map(|x| x.name.trim().to_string())
                    .collect::<Vec<_>>(),
            )
        })?),
        None => None,
    };
    let target = attack_target(state, c, w.map(|w| w.name.trim()), *target)?;
    let (spec, auto) = c.spec(&m.character);
    let pool = checks::settle(&spec);
    let what = match (w, target) {
        (Some(w), Some(t)) => format!(
            "{} at {} against TN {}",
            w.name.trim(),
            state.name(t),
            pool.tn
        ),
        (Some(w), None) => format!("{} against TN {}", w.name.trim(), pool.tn),
        _ => format!("check against TN {}", pool.tn),
    };
    let roll = checks::roll_announced(&pool, &auto, roller, Some((m.character.name(), &what)))?;
    let weapon = match w {
        Some(w) if roll.success => Some((
            w.name.trim().to_string(),
            harm::weapon_damage(w.level, roll.extra_hits),
        )),
        _ => None,
    };
    let until = if state.sequence.is_some() {
        Some(Until::RoundEnd)
    } else if c.ongoing {
        Some(Until::TaskEnd(c.id))
    } else {
        None
    };
    let mut events = vec![Event::Rolled {
        check: c.clone(),
        spec,
        roll,
        weapon: weapon.clone(),
        target,
        until,
    }];
    if let (Some((w, damage)), Some(t)) = (weapon, target) {
        events.push(weapon_harm(state, t, &w, damage)?);
    }
    Ok(events)
}

/// `decide` for [`Command::SimilarInjury`].
pub(super) fn similar_injury(
    state: &State,
    seat: &Seat,
    similar_to: &Option<String>,
) -> Result<Vec<Event>, RuleError> {
    gm_only(seat)?;
    let p = state.pending_injury.as_ref().ok_or_else(|| {
        RuleError::new(
            RULE_SIMILAR,
            Refusal::WrongPhase,
            "no weapon's Injury waits for the GM's call",
        )
    })?;
    let m = known(state, p.character)?;
    let recording = m
        .character
        .injuries()
        .plan(HarmKind::Injury, p.level, &p.name, similar_to.as_deref())
        .map_err(|e| harm_refusal(m, HarmKind::Injury, e))?;
    Ok(vec![Event::Harmed {
        character: p.character,
        kind: HarmKind::Injury,
        recording,
    }])
}

/// Whom a weapon attacks: the defender in Character versus Character, else the
/// character named with `at`. "Weapons and causing Injury"; R-SA-4, R-SA-5.
fn attack_target(
    state: &State,
    c: &OpenCheck,
    weapon: Option<&str>,
    target: Option<usize>,
) -> Result<Option<usize>, RuleError> {
    let Some(w) = weapon else {
        return match target {
            Some(_) => Err(RuleError::forbidden(
                crate::rules::RULE_WEAPONS,
                "a target is named for an attack with a weapon: roll with WEAPON at TARGET",
            )),
            None => Ok(None),
        };
    };
    let t = match (c.versus, target) {
        (Some(d), None) => d,
        (Some(d), Some(t)) if t == d => d,
        (Some(d), Some(_)) => {
            return Err(RuleError::forbidden(
                RULE_VERSUS,
                format!("this attack is against the defender, {}", state.name(d)),
            ));
        }
        (None, Some(t)) => t,
        (None, None) => {
            return Err(RuleError::forbidden(
                crate::rules::RULE_WEAPONS,
                format!(
                    "name whom the {w} attacks: roll with {w} at TARGET; the Injury is recorded on the target"
                ),
            ));
        }
    };
    let m = known(state, t)?;
    if t == c.focal {
        return Err(RuleError::forbidden(
            crate::rules::RULE_WEAPONS,
            "a character does not attack themself",
        ));
    }
    if m.character.dead() {
        return Err(RuleError::condition(
            crate::rules::RULE_WEAPONS,
            "dead",
            format!("{} is dead already", m.character.name()),
        ));
    }
    Ok(Some(t))
}

/// What a weapon's damage does to its target: an Injury recorded at once when
/// the target has no Injury of that level it could be similar to; otherwise the
/// GM is asked which one it is similar to (R-SA-6); past Severe, death (R-SA-4).
fn weapon_harm(state: &State, t: usize, weapon: &str, damage: Damage) -> Result<Event, RuleError> {
    let m = known(state, t)?;
    let level = match damage {
        Damage::Death => {
            return Ok(Event::Killed {
                character: t,
                weapon: weapon.to_string(),
            });
        }
        Damage::Injury(level) => level,
    };
    let name: String = weapon.chars().take(harm::MAX_ENTRY_CHARS).collect();
    let track = m.character.injuries();
    if track.entries().iter().any(|(b, _)| b.level == level) {
        return Ok(Event::InjuryPending {
            pending: PendingInjury {
                character: t,
                level,
                name,
            },
        });
    }
    let recording = track
        .plan(HarmKind::Injury, level, &name, None)
        .map_err(|e| harm_refusal(m, HarmKind::Injury, e))?;
    Ok(Event::Harmed {
        character: t,
        kind: HarmKind::Injury,
        recording,
    })
}
