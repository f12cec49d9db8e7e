//! Initiative and a turn's draw step: `init`, `draw`, `mulligan`, `discard`,
//! `wildcard` ("Initiative", "Core Mechanic", "Jokers"; R-GB-2, R-GB-3, R-GB-16).

use super::*;

/// The commands of this module (`Init`, `Mulligan`, `Draw`, `Discard`, `Wildcard`); any other is left to the
/// caller.
///
/// # Errors
/// A [`RuleError`] naming the rule; [`decide`](super::decide) then returns
/// it and no event, so nothing changes.
pub(super) fn decide(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    match command {
        Command::Init { who: name, card } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if state.phase != Phase::Initiative {
                return Err(RuleError::new(
                    RULE_INITIATIVE,
                    Refusal::WrongPhase,
                    "initiative is chosen at the start of an Opposition; during your turn use reinit",
                ));
            }
            let c = o.c(i)?;
            if c.initiative.is_some() {
                return Err(RuleError::already_used(
                    RULE_INITIATIVE,
                    "initiative card",
                    format!("{} has already played an initiative card", c.name),
                ));
            }
            let card = initiative_card(c, card)?;
            // Everyone else has an initiative card, or no card to play one
            // (an empty shoe dealt it none: it acts last) (read before the
            // event, which changes only this combatant's).
            let all = state
                .combatants
                .iter()
                .enumerate()
                .all(|(k, c)| k == i || !awaits_initiative(c));
            o.emit(Event::Initiative { who: i, card });
            if all {
                start_round(o);
            }
        }
        Command::Mulligan if matches!(state.phase, Phase::Exchange(_)) => {
            defender_mulligan(o, state, seat, roller)?;
        }
        Command::Draw | Command::Mulligan => {
            let Phase::Turn {
                actor,
                drawn: false,
            } = state.phase
            else {
                return Err(RuleError::new(
                    RULE_HAND,
                    Refusal::WrongPhase,
                    "draw or mulligan is the first step of your turn",
                ));
            };
            may_command(state, seat, actor)?;
            if *command == Command::Draw {
                o.draw(actor, 1, DrawReason::Hand, roller)?;
                o.emit(Event::DrawStepDone);
            } else {
                let hand = o.c(actor)?.hand.clone();
                o.emit(Event::Discarded {
                    who: actor,
                    cards: hand,
                });
                let n = o.c(actor)?.hand_size();
                o.draw(actor, n, DrawReason::Mulligan, roller)?;
                end_turn(o);
            }
        }
        Command::Discard { card } => {
            // "Core Mechanic": "Each hand, every player involved draws a new card
            // from the deck, and may discard a card if they wish": the acting
            // character in its active phase, the one affected before it plays its
            // face-down card.
            let (i, defending) = match &state.phase {
                Phase::Turn { actor, drawn: true } => (*actor, false),
                Phase::Exchange(x) if x.defender_down.is_none() => (x.defender, true),
                _ => {
                    return Err(RuleError::new(
                        RULE_HAND,
                        Refusal::WrongPhase,
                        "discard after your draw, in your active phase, or as the one affected before playing your face-down card",
                    ));
                }
            };
            may_command(state, seat, i)?;
            let c = o.c(i)?;
            if c.status.discarded && c.status.must_discard == 0 {
                return Err(RuleError::already_used(
                    RULE_HAND,
                    "discard",
                    "a hand may discard one card",
                ));
            }
            if defending && c.hand.len() < 2 {
                return Err(RuleError::spent(
                    RULE_BETTING,
                    "cards in hand",
                    format!("{} keeps a card to play face down", c.name),
                ));
            }
            let card = card_in_hand(c, card)?;
            let mut st = c.status.clone();
            o.emit(Event::Discarded {
                who: i,
                cards: vec![card],
            });
            if st.must_discard > 0 {
                st.must_discard -= 1;
            } else {
                st.discarded = true;
            }
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        Command::Wildcard { who: name } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if state.phase == Phase::Scene {
                return Err(RuleError::new(
                    RULE_WILDCARD,
                    Refusal::WrongPhase,
                    "a Wildcard adds a card to the current hand: hands exist in an Opposition",
                ));
            }
            no_card_left(&state.shoe)?;
            o.spend_wildcard(i, "a new card")?;
            o.draw(i, 1, DrawReason::Wildcard, roller)?;
        }
        _ => {}
    }
    Ok(())
}
