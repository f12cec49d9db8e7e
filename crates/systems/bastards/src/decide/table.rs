//! The Dealer's table steps: `begin`, `scene`, `end`, `finish` ("Steps",
//! "Shuffling").

use super::*;

/// The commands of this module (`Begin`, `Scene`, `End`, `Finish`); any other is left to the
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
        Command::Begin => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::NotPermitted,
                    "the Dealer begins an Opposition",
                ));
            }
            if state.phase != Phase::Scene {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::WrongPhase,
                    "an Opposition is already running",
                ));
            }
            let present = state.combatants.iter().filter(|c| c.active()).count();
            if present < 2 {
                return Err(RuleError::forbidden(
                    RULE_HAND,
                    format!(
                        "an Opposition needs two sides: {present} character(s) in the scene (a Skill Check needs none: `fate`)"
                    ),
                ));
            }
            o.emit(Event::Shuffled);
            o.emit(Event::OppositionBegan);
            let count = o.s().combatants.len();
            for i in 0..count {
                if o.c(i)?.active() {
                    let n = o.c(i)?.hand_size();
                    o.draw(i, n, DrawReason::Opening, roller)?;
                }
            }
        }
        Command::Scene => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::NotPermitted,
                    "the Dealer sets the scene",
                ));
            }
            if state.phase != Phase::Scene {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::WrongPhase,
                    "end the Opposition first",
                ));
            }
            o.emit(Event::Shuffled);
            o.emit(Event::SceneBegan);
        }
        Command::End => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::NotPermitted,
                    "the Dealer ends the Opposition when the characters stop",
                ));
            }
            if state.phase == Phase::Scene {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::WrongPhase,
                    "no Opposition is running",
                ));
            }
            o.emit(Event::OppositionEnded);
            o.emit(Event::Shuffled);
        }
        Command::Finish => {
            if !seat.is_gm() {
                return Err(RuleError::new(
                    RULE_STEPS,
                    Refusal::NotPermitted,
                    "the Dealer ends the encounter",
                ));
            }
            if state.phase != Phase::Scene {
                o.emit(Event::OppositionEnded);
                o.emit(Event::Shuffled);
            }
            o.emit(Event::Finished);
        }
        _ => {}
    }
    Ok(())
}
