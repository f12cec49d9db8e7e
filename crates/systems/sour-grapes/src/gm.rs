//! The storyteller's (GM's) tools: `adjust` a character's Current Stat Value
//! mid-encounter (issue 27, item 6). The book leaves recovery "up to the story
//! teller" ("Skill Mechanics") but names no rule for setting a stat, so the
//! command cites the table's own [`GM_TOOLS`] and "Stat Mechanics" for the
//! stat's range.

use tabula_core::{Refusal, Rule, RuleError};

use crate::rules;
use crate::stats::Stat;
use crate::table::{Event, State};

/// The GM's tools: the table's own citation (issue 27, item 6).
pub const GM_TOOLS: Rule = Rule::table("GM tools (issue 27, item 6)");

/// The amount of an `adjust` (`N`, `+N`, `-N`), read as every book reads it.
pub use tabula_core::grammar::Amount;

/// The storyteller's `adjust`: set or change `who`'s Current Stat Value of
/// `stat`, within 0 to its Actual Stat Value. Lowered, it is exhausted as a
/// spend or damage exhausts it: at zero the stat is injured and its condition
/// applies (R-SG-10, R-SG-13; a Vitality at zero is Dying, and the Event ends
/// at the next turn when a side is all Dying, as after damage). Raised, it
/// recovers only where the book lets it recover (not an injured stat, not
/// under Crippled, Dazed or a zero Vitality; the storyteller `heal`s the
/// injury first).
///
/// Sour Grapes, "Stat Mechanics", "Stats" (000_05a1db5b88f54528.txt); R-SG-10,
/// R-SG-13; issue 27, item 6.
///
/// # Errors
/// An unknown character, a stat that may not recover, or a result out of
/// range ([`Refusal::OutOfRange`], an i64 overflow included); nothing changes.
pub(crate) fn adjust(s: &State, who: &str, stat: Stat, amount: Amount) -> Result<Event, RuleError> {
    let Some(p) = s.participant(who) else {
        return Err(RuleError::unknown(GM_TOOLS, "character", who));
    };
    let v = p.character.stat(stat);
    let (current, max) = (v.current, v.actual);
    let out = |got: i64| {
        RuleError::new(
            rules::STAT_MECHANICS,
            Refusal::OutOfRange {
                field: stat.name().into(),
                min: 0,
                max: i64::from(max),
                got,
            },
            format!(
                "{who}'s {stat} must stay between 0 and its Actual Stat Value {max}, not {got}"
            ),
        )
    };
    let to = match amount.apply(i64::from(current)) {
        None => return Err(out(i64::MAX)),
        Some(n) => match u32::try_from(n) {
            Ok(t) if t <= max => t,
            _ => return Err(out(n)),
        },
    };
    if to > current
        && let Some(why) = p.character.recovery_blocked(stat)
    {
        return Err(RuleError::forbidden(rules::STAT_MECHANICS, why));
    }
    Ok(Event::Adjusted {
        who: who.to_string(),
        stat,
        from: current,
        to,
    })
}
