//! A character's command on its turn: whose turn it is, starting it, when it
//! may end, the targets an action may reach and the ability it adds ("Turns",
//! "Basic Actions"; R-SCR-5).

use super::*;

pub(super) fn act(
    state: &State,
    seat: &Seat,
    actor: &str,
    action: &Action,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    let (events, turn, a) = start(state, seat, actor)?;
    let mut events = events;
    if matches!(action, Action::End) {
        may_end(state, a, turn)?;
        events.push(Event::TurnEnded { character: a });
        return Ok(events);
    }
    let plan = plan(state, a, turn, action)?;
    execute(state, a, plan, roller, &mut events)?;
    Ok(events)
}

/// A panicked character who can act must evade or escape before his turn ends
/// ("Stalking Abilities"). One who cannot perform actions has no such duty
/// and ends his turn: delayed ("Basic Actions"), incapacitated ("Hit
/// Points"), or without toughness ("Toughness": "characters without
/// toughness may not perform actions during encounters"; such a character
/// acts only if revived, and once panicked he could otherwise never end his
/// turn; the book is silent, see docs/systems/scratch.md).
///
/// After engage, the turn's action is a close range attack (R-SCR-10): the
/// turn does not end before it is made, unless no close range attack is
/// possible at all (engage is refused then, so this guards a lock-up only).
pub(crate) fn may_end(s: &State, a: usize, turn: TurnNow) -> Result<(), RuleError> {
    if engage_pending(turn) && close_attack_possible(s, a) {
        return Err(RuleError::forbidden(
            rules::ENGAGE,
            format!(
                "{} engaged: engage is used before a close range attack, so his turn's action is a close range attack (attack, hold, distract, knockout or fight) before the turn ends",
                name(s, a)
            ),
        ));
    }
    match s.get(a) {
        Some(c)
            if c.panicked()
                && !c.delayed()
                && c.hit_points > 0
                && c.character.level(Ability::Toughness) > 0
                && !turn.regular_used =>
        {
            Err(RuleError::condition(
                rules::STALKING_ABILITIES,
                "panicked",
                format!(
                    "{} is panicked: he must evade or escape",
                    c.character.name()
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// True when the actor engaged this turn and has not yet made the close
/// range attack engage comes before (R-SCR-10).
pub(super) fn engage_pending(turn: TurnNow) -> bool {
    turn.engaged_on_turn == Some(turn.turns) && !turn.regular_used
}

/// True for the close range attacks ("Basic Actions", "Attack Abilities"):
/// basic attack, hold, distract, knockout and fighting.
pub(super) fn close_attack(action: &Action) -> bool {
    matches!(
        action,
        Action::Attack { .. }
            | Action::Hold { .. }
            | Action::Distract { .. }
            | Action::Knockout { .. }
            | Action::Fight { .. }
    )
}

/// True when `a` could make a close range attack on some character now (a
/// basic attack needs no ability; the target must be one a close range
/// attack may reach). Engage is refused without one (R-SCR-10).
pub(super) fn close_attack_possible(s: &State, a: usize) -> bool {
    s.characters
        .iter()
        .any(|t| target_of(s, a, &t.id, Some(Range::Close), false).is_ok())
}

/// Check whose turn it is and start `actor`'s turn if needed: the events so far,
/// the actor's turn after them, and the actor's index.
pub(super) fn start(
    state: &State,
    seat: &Seat,
    actor: &str,
) -> Result<(Vec<Event>, TurnNow, usize), RuleError> {
    if state.phase != Phase::Turns {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::WrongPhase,
            match state.phase {
                Phase::Preparation => "roll initiative first (command: initiative)",
                _ => "the encounter is over",
            },
        ));
    }
    let a = find(state, actor)?;
    if !state.controls(seat, a) {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotPermitted,
            format!(
                "{seat} does not control {}: each person's initiative group holds the characters they control",
                name(state, a)
            ),
        ));
    }
    let g = state.get(a).map(|c| c.group);
    if g != state.current_group() {
        let whose = state
            .current_group()
            .and_then(|g| state.groups.get(g))
            .map(|g| g.seat.to_string())
            .unwrap_or_default();
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotYourTurn,
            format!("it is {whose}'s initiative group's turn"),
        ));
    }
    match state.active {
        Some(x) if x == a => Ok((Vec::new(), TurnNow::of(state, a), a)),
        Some(x) => Err(RuleError::new(
            rules::TURNS,
            Refusal::NotYourTurn,
            format!(
                "{}'s turn is on; end it first ({} end)",
                name(state, x),
                state.get(x).map(|c| c.id.as_str()).unwrap_or("")
            ),
        )),
        None => {
            if !state.may_start_turn(a) {
                return Err(RuleError::new(
                    rules::TURNS,
                    Refusal::NotYourTurn,
                    format!("{} has no turn left this round", name(state, a)),
                ));
            }
            // Room for the action and the end of the turn that follow.
            let mut events = Vec::with_capacity(3);
            events.push(Event::TurnStarted { character: a });
            Ok((events, TurnNow::of(state, a), a))
        }
    }
}

pub(super) fn target_of(
    s: &State,
    actor: usize,
    id: &str,
    range: Option<Range>,
    friendly: bool,
) -> Result<usize, RuleError> {
    let t = find(s, id)?;
    let Some(tc) = s.get(t) else {
        return Err(unknown_character(s, id));
    };
    if tc.escaped {
        return Err(RuleError::condition(
            rules::BASIC_ACTIONS,
            "escaped",
            format!(
                "{} escaped: he cannot be attacked (or helped) for the rest of the encounter",
                tc.character.name()
            ),
        ));
    }
    if t == actor {
        return Err(RuleError::forbidden(
            if friendly {
                rules::SUPPORT_ABILITIES
            } else {
                rules::BASIC_ACTIONS
            },
            if friendly {
                "a character cannot heal himself"
            } else {
                "a character does not attack himself"
            },
        ));
    }
    if friendly {
        return Ok(t);
    }
    if tc.hit_points == 0 {
        return Err(RuleError::condition(
            rules::HIT_POINTS,
            "incapacitated",
            format!("{} is already incapacitated", tc.character.name()),
        ));
    }
    let Some(range) = range else { return Ok(t) };
    if matches!(range, Range::Close) && tc.aloft && !s.can_fly(actor) {
        return Err(RuleError::forbidden(
            rules::MOVEMENT_ABILITIES,
            format!(
                "{} is flying: no close range attacks until his next turn, unless the attacker can also fly",
                tc.character.name()
            ),
        ));
    }
    if s.swims_away(actor, t, matches!(range, Range::Long)) {
        return Err(RuleError::forbidden(
            rules::MOVEMENT_ABILITIES,
            format!(
                "{} is evading by swimming in deep water: no long range attacks, and only swimmers may attack",
                tc.character.name()
            ),
        ));
    }
    Ok(t)
}

/// Pick the ability to add: the one named (it must be among `options`, held and
/// usable), else the highest (R-SCR-5).
pub(super) fn pick(
    s: &State,
    actor: usize,
    named: Option<Ability>,
    options: &[Ability],
) -> Result<Option<Ability>, RuleError> {
    let Some(c) = s.get(actor) else {
        return Ok(None);
    };
    let usable = |a: Ability| c.has(a) && (a.terrain().is_none() || s.terrain_allows(a));
    match named {
        Some(a) => {
            if !options.contains(&a) {
                return Err(RuleError::forbidden(
                    rules::NAMED_ABILITY,
                    format!(
                        "{a} cannot be added to this roll (it takes {})",
                        options
                            .iter()
                            .map(|o| o.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            if !c.has(a) {
                return Err(RuleError::not_held(
                    rules::ROLLS,
                    a.name(),
                    format!("{} has no {a}", c.character.name()),
                ));
            }
            if !usable(a) {
                return Err(RuleError::forbidden(
                    rules::MOVEMENT_ABILITIES,
                    format!(
                        "{a} needs {} here",
                        a.terrain().map(|t| t.name()).unwrap_or("its terrain")
                    ),
                ));
            }
            Ok(Some(a))
        }
        None => Ok(options
            .iter()
            .copied()
            .filter(|a| usable(*a))
            .max_by_key(|a| (c.level(*a), std::cmp::Reverse(*a)))),
    }
}

pub(crate) fn movement(s: &State) -> Vec<Ability> {
    Ability::MOVEMENT
        .into_iter()
        .filter(|a| s.terrain_allows(*a))
        .collect()
}
