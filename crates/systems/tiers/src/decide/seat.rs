//! Who gives a command, and the checks every command shares: the seat, the
//! names, the phase, a character's Health and AP.

use super::*;

pub(crate) type R<T> = Result<T, RuleError>;

pub(crate) fn roll_err(e: RollProblem, rule: tabula_core::Rule) -> RuleError {
    match e {
        RollProblem::Roll(r) => RuleError::roll(r),
        RollProblem::NoDice => RuleError::forbidden(rule, e.to_string()),
        RollProblem::OutOfRange {
            field,
            min,
            max,
            got,
        } => RuleError::out_of_range(rules::CAPS, field, min, max, got),
    }
}

/// Who gives a command, once the seat is read: the GM, a player for their own
/// character (or the GM for an NPC ally), or a seat that may not act.
#[derive(Clone, Debug)]
pub(crate) enum By {
    /// The GM.
    Gm,
    /// The character (index) the command is for.
    Hero(usize),
    /// A seat that plays no character: why, for commands that need one.
    Refused(RuleError),
}

impl By {
    /// Read the seat: the GM, or the player whose character has the seat's name.
    /// An NPC ally's name is no player seat: the GM plays NPCs.
    pub(crate) fn of(s: &State, seat: &Seat) -> By {
        match seat {
            Seat::Gm => By::Gm,
            Seat::Player(name) => match s.hero(name) {
                Some(i) if s.heroes.get(i).is_some_and(|h| !h.ally) => By::Hero(i),
                Some(i) => {
                    let n = s.heroes.get(i).map_or("", |h| h.name());
                    By::Refused(RuleError::new(
                        rules::SEATS,
                        Refusal::NotPermitted,
                        format!(
                            "{n} is an NPC ally: the GM plays NPCs (`GM: {} move ZONE`)",
                            tabula_core::grammar::quote(n)
                        ),
                    ))
                }
                None => By::Refused(unknown_among(
                    rules::SEATS,
                    "player",
                    name,
                    s.heroes
                        .iter()
                        .filter(|h| !h.ally)
                        .map(|h| tabula_core::grammar::quote(h.name())),
                )),
            },
        }
    }
}

/// A refusal for a name the table does not know, listing the names it does
/// ([`RuleError::unknown_among`]; "(there are none)" when it knows none).
pub(crate) fn unknown_among(
    rule: tabula_core::Rule,
    field: &str,
    name: &str,
    choices: impl IntoIterator<Item = String>,
) -> RuleError {
    let list: Vec<String> = choices.into_iter().collect();
    let mut e = RuleError::unknown_among(rule, field, name, list.iter().map(String::as_str));
    if list.is_empty() {
        e.message.push_str(" (there are none)");
    }
    e
}

pub(crate) fn gm_only(seat: &By) -> R<()> {
    if matches!(seat, By::Gm) {
        Ok(())
    } else {
        Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            "only the GM gives this command",
        ))
    }
}

/// The character a command is for: a player's own, or an NPC ally the GM plays.
pub(crate) fn hero_seat(_s: &State, seat: &By) -> R<usize> {
    match seat {
        By::Gm => Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            "a player gives this command for their own character (prefix the line with the player's name); the GM plays an NPC ally with `GM: ALLY COMMAND`",
        )),
        By::Hero(i) => Ok(*i),
        By::Refused(e) => Err(e.clone()),
    }
}

pub(crate) fn find_hero(s: &State, name: &str) -> R<usize> {
    s.hero(name).ok_or_else(|| {
        unknown_among(
            rules::SEATS,
            "character",
            name,
            s.heroes
                .iter()
                .map(|h| tabula_core::grammar::quote(h.name())),
        )
    })
}

pub(crate) fn find_enemy(s: &State, name: &str) -> R<usize> {
    s.enemy(name).ok_or_else(|| {
        unknown_among(
            rules::SAMPLE_ENEMIES,
            "enemy",
            name,
            s.enemies
                .iter()
                .map(|e| tabula_core::grammar::quote(&e.name)),
        )
    })
}

pub(crate) fn find_zone(s: &State, name: &str) -> R<usize> {
    s.zone(name).ok_or_else(|| {
        unknown_among(
            rules::ZONES,
            "Zone",
            name,
            s.zones
                .names()
                .iter()
                .map(|z| tabula_core::grammar::quote(z)),
        )
    })
}

/// A character that is not dead (Death Rolls): the dead take no further part.
///
/// Tiers, "Death Rolls" (002_631931fd73349179.txt).
pub(crate) fn alive(s: &State, i: usize) -> R<&Hero> {
    let h = hero(s, i)?;
    if h.dead {
        Err(RuleError::condition(
            rules::DEATH_ROLLS,
            "dead",
            format!("{} is dead and takes no further part", h.name()),
        ))
    } else {
        Ok(h)
    }
}

pub(crate) fn hero(s: &State, i: usize) -> R<&Hero> {
    s.heroes
        .get(i)
        .ok_or_else(|| RuleError::unknown(rules::SEATS, "player", &i.to_string()))
}

pub(crate) fn enemy(s: &State, i: usize) -> R<&Enemy> {
    s.enemies
        .get(i)
        .ok_or_else(|| RuleError::unknown(rules::SAMPLE_ENEMIES, "enemy", &i.to_string()))
}

pub(crate) fn out_of_combat(s: &State) -> R<()> {
    match s.mode {
        Mode::Roleplay => Ok(()),
        Mode::Combat { .. } => Err(RuleError::new(
            rules::ROLEPLAYING_IN_COMBAT,
            Refusal::WrongPhase,
            "in combat, roleplay costs 1 AP per d3: use `roleplay STAT D3 GOAL`",
        )),
    }
}

pub(crate) fn in_combat(s: &State) -> R<Phase> {
    s.phase().ok_or_else(|| {
        RuleError::new(
            rules::PHASES,
            Refusal::WrongPhase,
            "there is no combat now (the GM starts one with `fight`)",
        )
    })
}

pub(crate) fn player_phase(s: &State, when: When) -> R<()> {
    let phase = in_combat(s)?;
    if phase == Phase::Player || when == When::AnyPhase {
        Ok(())
    } else {
        Err(RuleError::new(
            rules::PHASES,
            Refusal::WrongPhase,
            "unless an Action says otherwise, it can only be used during the Player Phase",
        ))
    }
}

pub(crate) fn up(s: &State, i: usize) -> R<&Hero> {
    let h = alive(s, i)?;
    if h.up() {
        Ok(h)
    } else {
        Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
            format!(
                "{} is at 0 Health and cannot contribute to the fight",
                h.name()
            ),
        ))
    }
}

pub(crate) fn spend_ap(s: &State, i: usize, ap: u32) -> R<Event> {
    let h = hero(s, i)?;
    if h.ap < ap {
        return Err(RuleError::spent(
            rules::ACTION_POINTS,
            "Action Points",
            format!("{} has {} AP left, this needs {ap}", h.name(), h.ap),
        ));
    }
    Ok(Event::ApSpent { hero: i, ap })
}
