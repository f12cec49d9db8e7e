//! Other actions of a turn: `reinit`, `wield`, `pickup`, `pass`, `use`
//! ("Initiative", "Combat", "Advantages").

use super::*;

/// The commands of this module (`Reinit`, `Wield`, `Pickup`, `Pass`, `Use`); any other is left to the
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
        Command::Reinit { card } => {
            let i = acting(state, seat)?;
            let card = initiative_card(o.c(i)?, card)?;
            let speedy = o.c(i)?.usable(&Advantage::Speedy) > 0;
            o.emit(Event::Initiative { who: i, card });
            if !speedy {
                end_turn(o);
            }
        }
        Command::Wield { weapon } => {
            let i = actor_or_owner(state, seat)?;
            let c = o.c(i)?;
            let Some(pos) = c
                .carried
                .iter()
                .position(|w| w.name.eq_ignore_ascii_case(weapon.trim()))
            else {
                return Err(RuleError::unknown_among(
                    RULE_RANDOM,
                    "carried weapon",
                    weapon,
                    c.carried.iter().map(|w| w.name.as_str()),
                ));
            };
            if c.wielding.len() >= 2 {
                return Err(RuleError::forbidden(RULE_RANDOM, "both hands hold weapons"));
            }
            let mut carried = c.carried.clone();
            let w = carried.remove(pos);
            let ready = w.ready;
            if !ready && !matches!(state.phase, Phase::Turn { actor, drawn: true } if actor == i) {
                return Err(RuleError::forbidden(
                    RULE_RANDOM,
                    "an item that is not readily accessible takes your action to retrieve",
                ));
            }
            let mut wielding = c.wielding.clone();
            wielding.push(w);
            o.emit(Event::Weapons {
                who: i,
                wielding,
                carried,
            });
            if !ready {
                end_turn(o);
            }
        }
        Command::Pickup { weapon } => {
            let i = acting(state, seat)?;
            let c = o.c(i)?;
            if c.wielding.len() >= 2 {
                return Err(RuleError::forbidden(RULE_RANDOM, "both hands hold weapons"));
            }
            let Some(w) = state
                .ground
                .iter()
                .find(|w| w.name.eq_ignore_ascii_case(weapon.trim()))
                .cloned()
            else {
                return Err(RuleError::unknown_among(
                    RULE_RANDOM,
                    "weapon on the ground",
                    weapon,
                    state.ground.iter().map(|w| w.name.as_str()),
                ));
            };
            o.emit(Event::PickedUp { who: i, weapon: w });
            end_turn(o);
        }
        Command::Pass => {
            let i = acting(state, seat)?;
            if o.c(i)?.status.must_discard > 0 {
                return Err(RuleError::forbidden(
                    RULE_ADVANTAGES,
                    "Ass Pull: discard two cards first",
                ));
            }
            end_turn(o);
        }
        Command::Use {
            who: name,
            advantage,
        } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            use_advantage(o, i, advantage, roller)?;
            knocked_out_by_cost(o);
        }
        _ => {}
    }
    Ok(())
}
