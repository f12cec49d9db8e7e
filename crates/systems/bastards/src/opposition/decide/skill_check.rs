//! A Skill Check at the table ("Building A Scene", "Skill Hand"; R-GB-6).

use super::*;

/// The commands of this module (`Fate`); any other is left to the
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
    if let Command::Fate {
        who: name,
        skill,
        trait_used,
        modifier,
        acrobat,
        specialty,
    } = command
    {
        let i = who(state, name)?;
        // "Skill Check": any player may ask for it; the character's own seat
        // draws it (the Dealer draws for the Dealer's characters).
        may_command(state, seat, i)?;
        if !matches!(state.phase, Phase::Scene | Phase::Turn { drawn: true, .. }) {
            return Err(RuleError::new(
                fate::RULE_SKILL_HAND,
                Refusal::WrongPhase,
                "a Skill Check is made outside an opposed hand",
            ));
        }
        let ask = FateAsk {
            skill,
            trait_used: *trait_used,
            modifier: *modifier,
            acrobat: *acrobat,
            specialty: specialty.as_deref(),
        };
        fate_draw(o, i, ask, roller)?;
    }
    Ok(())
}
