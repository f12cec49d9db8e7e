//! Turns and rounds: the defender's mulligan, who acts, initiative, the
//! round's order, sacrificed actions ("Steps", "Initiative", "Core Mechanic";
//! R-GB-2, R-GB-16).

use super::*;

/// The mulligan of the one acted against: "If anyone involved is unsatisfied
/// with their entire hand, they may mulligan by sacrificing their action in the
/// hand and discarding all of their cards and drawing five new cards" ("Core
/// Mechanic"); R-GB-16: the character acted against included, once, before
/// playing in that hand. It discards its hand and draws its hand size (5, Power
/// Rating, or members); the action it sacrifices is its action of this round
/// when that is still to come (its turn is skipped), a Tabula reading of "their
/// action" for a character whose own turn is not now.
pub(crate) fn defender_mulligan(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let Phase::Exchange(x) = &state.phase else {
        return Err(RuleError::new(
            RULE_MULLIGAN,
            Refusal::WrongPhase,
            "no opposed hand is in progress",
        ));
    };
    let i = x.defender;
    if !state
        .combatants
        .get(i)
        .is_some_and(|c| c.controlled_by(seat))
    {
        return Err(RuleError::new(
            RULE_MULLIGAN,
            Refusal::NotYourTurn,
            "in an opposed hand only the one acted against may mulligan, before its face-down card; the acting character mulligans in its draw step",
        ));
    }
    if x.defender_down.is_some() {
        return Err(RuleError::new(
            RULE_MULLIGAN,
            Refusal::WrongPhase,
            "a mulligan comes before playing in the hand: the face-down card is already played",
        ));
    }
    let c = o.c(i)?;
    if c.status.mulliganed {
        return Err(RuleError::already_used(
            RULE_MULLIGAN,
            "mulligan",
            format!("{} has already mulliganed in this hand", c.name),
        ));
    }
    let hand = c.hand.clone();
    let n = c.hand_size();
    if !hand.is_empty() {
        o.emit(Event::Discarded {
            who: i,
            cards: hand,
        });
    }
    o.draw(i, n, DrawReason::Mulligan, roller)?;
    let later = x.attacker != i && state.order.iter().skip(state.turn + 1).any(|k| *k == i);
    let mut st = o.c(i)?.status.clone();
    st.mulliganed = true;
    if later {
        st.sacrificed = true;
    }
    o.emit(Event::StatusChanged { who: i, status: st });
    Ok(())
}

/// A Wildcard draws a card: refused (nothing spent) when the deck and the
/// discard pile hold none ("Shuffling"; every card is in a hand or on the table).
pub(crate) fn no_card_left(shoe: &Shoe) -> Result<(), RuleError> {
    if deck::drawable(shoe) == 0 {
        return Err(RuleError::forbidden(
            RULE_WILDCARD,
            "no card is left to draw: the deck and the discard pile are empty",
        ));
    }
    Ok(())
}

pub(crate) fn acting(state: &State, seat: &Seat) -> Result<usize, RuleError> {
    match &state.phase {
        Phase::Turn { actor, drawn: true } => {
            may_command(state, seat, *actor).map_err(|_| {
                RuleError::new(
                    RULE_STEPS,
                    Refusal::NotYourTurn,
                    format!(
                        "it is {}'s turn",
                        state.combatants.get(*actor).map_or("", |c| c.name.as_str())
                    ),
                )
            })?;
            Ok(*actor)
        }
        Phase::Turn { drawn: false, .. } => Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "draw or mulligan first",
        )),
        _ => Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "this is done in the acting character's active phase",
        )),
    }
}

pub(crate) fn actor_or_owner(state: &State, seat: &Seat) -> Result<usize, RuleError> {
    match actor(state) {
        Some(a)
            if state
                .combatants
                .get(a)
                .is_some_and(|c| c.controlled_by(seat)) =>
        {
            Ok(a)
        }
        _ => Err(RuleError::new(
            RULE_STEPS,
            Refusal::NotYourTurn,
            "only the acting character does this now",
        )),
    }
}
