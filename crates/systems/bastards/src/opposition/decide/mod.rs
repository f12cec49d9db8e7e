//! [`decide`]: a command checked against the rules, as events ("Steps").

use super::*;

mod action;
mod dramatic;
mod exchange;
mod skill_check;
mod table;
mod turn;

/// Decide a command. See [`crate::Bastards`].
///
/// # Errors
/// A [`RuleError`] naming the rule; nothing changes.
pub fn decide(
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    if state.finished {
        return Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "the encounter is over",
        ));
    }
    let mut o = Out::new(state);
    match command {
        Command::Fate { .. } => skill_check::decide(&mut o, state, seat, command, roller)?,
        Command::Begin | Command::Scene | Command::End | Command::Finish => {
            table::decide(&mut o, state, seat, command, roller)?
        }
        Command::Init { .. }
        | Command::Mulligan
        | Command::Draw
        | Command::Discard { .. }
        | Command::Wildcard { .. } => turn::decide(&mut o, state, seat, command, roller)?,
        Command::Attack { .. }
        | Command::Play { .. }
        | Command::Bet { .. }
        | Command::BetWild
        | Command::Call => exchange::decide(&mut o, state, seat, command, roller)?,
        Command::Reinit { .. }
        | Command::Wield { .. }
        | Command::Pickup { .. }
        | Command::Pass
        | Command::Use { .. } => action::decide(&mut o, state, seat, command, roller)?,
        Command::Reinforce { .. }
        | Command::Involve { .. }
        | Command::Appear { .. }
        | Command::Distance { .. } => dramatic::decide(&mut o, state, seat, command, roller)?,
        Command::Adjust { who, value, amount } => {
            crate::gm::adjust(&mut o, state, seat, who, *value, *amount, roller)?;
        }
        Command::Add {
            kind,
            name,
            to,
            sheet,
        } => {
            let source = match sheet {
                Some(text) => crate::gm::Source::Sheet(text),
                None => crate::gm::Source::Kind(kind),
            };
            crate::gm::add(
                &mut o,
                state,
                seat,
                source,
                name.as_deref(),
                to.as_ref(),
                roller,
            )?;
        }
        Command::Remove { who } => crate::gm::remove(&mut o, state, seat, who)?,
    }
    Ok(o.into_events())
}
