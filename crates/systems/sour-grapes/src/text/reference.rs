//! The command reference: every command of a Sour Grapes table once
//! ([`COMMANDS`]), with its usage, who gives it and the rule it cites.
//!
//! Sour Grapes, "Game Moments" to "Experience" (000_05a1db5b88f54528.txt).

use tabula_core::system::{CommandDoc, Giver};

use crate::rules;

/// Every command of a Sour Grapes table, once, in the order of the book's game
/// moments: the source of `help`, of `docs/COMMANDS.md` and of the parser,
/// each usage written in the usage language of [`tabula_core::usage`], which
/// reads every line against it ([`crate::text::parse`]). `as NAME` names the
/// character acting when a seat plays several (the storyteller, `gm`, acts
/// for anyone with it).
pub const COMMANDS: &[CommandDoc] = &[
    CommandDoc::new(
        "spend",
        &[],
        "spend STAT [as NAME...]",
        "Spend: exhaust a point of a stat without a roll (the storyteller may dictate it)",
        Giver::Player,
        rules::SPEND,
    ),
    CommandDoc::new(
        "check",
        &[],
        "check STAT DICE [TOKENS] vs|difficulty DIFFICULTY [with SKILL...] [as NAME...]",
        "Check: dice up to the stat's Current value plus skill tokens; a success needs more successes than the Difficulty",
        Giver::Player,
        rules::CHECK,
    ),
    CommandDoc::new(
        "giveback",
        &["give-back"],
        "giveback STAT|SKILL... [POINTS] as NAME...",
        "give exhausted stat points or spent skill tokens back (a reward)",
        Giver::Gm,
        rules::SPEND,
    ),
    CommandDoc::new(
        "adjust",
        &[],
        "adjust NAME... STAT AMOUNT",
        "the storyteller sets (N) or changes (+N, -N) a stat's Current Stat Value, 0 to its Actual Stat Value; at zero it is injured",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "add",
        &[],
        "add KIND...|FILE.toml [as NAME...] [to SEAT...]",
        "the storyteller brings a character into the encounter: a fresh copy of a table's character, of a book's sheet or of an uploaded sheet file (a taken name gets \" 2\"); played by the storyteller unless `to SEAT`",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "remove",
        &[],
        "remove NAME...",
        "the storyteller takes a character out of the encounter, with its cards and effects (not while it has a part in the turn in progress or the Situation)",
        Giver::Gm,
        crate::gm::GM_TOOLS,
    ),
    CommandDoc::new(
        "heal",
        &[],
        "heal STAT as NAME...",
        "remove the Injury marker from a stat",
        Giver::Gm,
        rules::STAT_MECHANICS,
    ),
    CommandDoc::new(
        "rest",
        &[],
        "rest",
        "a short rest away from the activity: exhausted stats that are not injured, and skill tokens, recover",
        Giver::Gm,
        rules::STAT_MECHANICS,
    ),
    CommandDoc::new(
        "situation",
        &[],
        "situation DIFFICULTY STAT [with SKILL...] as NAME...",
        "announce a Situation: a difficulty that rises and falls, ending in a final check",
        Giver::Gm,
        rules::SITUATION,
    ),
    CommandDoc::new(
        "difficulty",
        &[],
        "difficulty DIFFICULTY",
        "raise or lower the Situation's difficulty",
        Giver::Gm,
        rules::SITUATION,
    ),
    CommandDoc::new(
        "final",
        &[],
        "final DICE [TOKENS]",
        "the Situation's final check against the difficulty reached",
        Giver::Player,
        rules::SITUATION,
    ),
    CommandDoc::new(
        "event",
        &[],
        "event",
        "declare an Event: initiative, then rounds of turns",
        Giver::Gm,
        rules::EVENT,
    ),
    CommandDoc::new(
        "initiative",
        &[],
        "initiative STAT DICE [as NAME...]",
        "roll initiative: a check with any stat the player makes a case for, exhausting nothing, plus a d20",
        Giver::Player,
        rules::INITIATIVE,
    ),
    CommandDoc::new(
        "recover",
        &[],
        "recover STAT|SKILL...",
        "step 1, Prep: the Controller's free point back into an exhausted, uninjured stat or a skill",
        Giver::Any,
        rules::PREP,
    ),
    CommandDoc::new(
        "keep",
        &[],
        "keep EFFECT... DICE [TOKENS]",
        "step 1, Prep: roll for an effect to keep it; on a failure it is discarded",
        Giver::Any,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "discard",
        &[],
        "discard EFFECT...",
        "step 1, Prep: discard an effect",
        Giver::Any,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "stunt",
        &[],
        "stunt CARD...",
        "step 2: the Controller lays down a Stunt",
        Giver::Any,
        rules::STUNT,
    ),
    CommandDoc::new(
        "end",
        &["end-turn"],
        "end",
        "end the turn without a Stunt (effects not rolled for are discarded)",
        Giver::Any,
        rules::TURN,
    ),
    CommandDoc::new(
        "interrupt",
        &[],
        "interrupt CARD... DICE [TOKENS] [as NAME...]",
        "step 3: another player offers an Interrupt, rolled when the step closes; a success ends the turn",
        Giver::Player,
        rules::INTERRUPT,
    ),
    CommandDoc::new(
        "pass",
        &[],
        "pass",
        "close the open step (3 or 5): the offered cards roll",
        Giver::Any,
        rules::TURN,
    ),
    CommandDoc::new(
        "target",
        &[],
        "target [TARGETS...] [success DICE [TOKENS]] [result DICE [TOKENS]]",
        "step 4, Targeting & Betting: the targets (names separated by commas, or each quoted), and dice and tokens placed on Success and Result, not rolled",
        Giver::Any,
        rules::BETTING,
    ),
    CommandDoc::new(
        "compliment",
        &[],
        "compliment CARD... [success DICE [TOKENS]] [result DICE [TOKENS]] [as NAME...]",
        "step 5: offer a Compliment that modifies the Stunt",
        Giver::Player,
        rules::COMPLIMENT,
    ),
    CommandDoc::new(
        "divert",
        &[],
        "divert CARD... [success DICE [TOKENS]] to TARGET... [as NAME...]",
        "step 5: offer a Divert that redirects the Stunt to another receiver",
        Giver::Player,
        rules::DIVERT,
    ),
    CommandDoc::new(
        "reject",
        &[],
        "reject as NAME...",
        "reject a card offered in the open step as invalid: it is taken back unrolled",
        Giver::Gm,
        rules::TURN,
    ),
    CommandDoc::new(
        "react",
        &[],
        "react CARD... DICE [TOKENS] [as NAME...]",
        "step 7: a receiver plays a Reaction; it must beat the Stunt's successes",
        Giver::Player,
        rules::REACTION,
    ),
    CommandDoc::new(
        "take",
        &[],
        "take [as NAME...]",
        "step 7: a receiver takes the Stunt without a Reaction",
        Giver::Player,
        rules::REACTION,
    ),
    CommandDoc::new(
        "afflict",
        &[],
        "afflict EFFECT... as NAME...",
        "put an effect card in play on a character",
        Giver::Gm,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "cure",
        &[],
        "cure EFFECT... as NAME...",
        "remove an effect whose condition has been met",
        Giver::Gm,
        rules::EFFECTS,
    ),
    CommandDoc::new(
        "end-event",
        &[],
        "end-event",
        "end the Event",
        Giver::Gm,
        rules::EVENT,
    ),
    CommandDoc::new(
        "award",
        &[],
        "award POINTS as NAME...",
        "Experience: award experience points at a chapter's end",
        Giver::Gm,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "raise",
        &[],
        "raise STAT|SKILL... [as NAME...]",
        "Experience: spend a point to raise a stat or a skill by one (a new skill starts at 1)",
        Giver::Player,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "improve",
        &[],
        "improve CARD... easier|damage [as NAME...]",
        "Experience: spend a point on a card: one success less needed, or one more damage",
        Giver::Player,
        rules::EXPERIENCE,
    ),
    CommandDoc::new(
        "end-encounter",
        &[],
        "end-encounter",
        "end the encounter",
        Giver::Gm,
        rules::MOMENTS,
    ),
];

#[cfg(test)]
mod tests {
    use super::COMMANDS;

    /// Every usage is written in the usage language the parser reads it by
    /// ([`tabula_core::usage`]).
    #[test]
    fn every_usage_compiles() {
        assert_eq!(tabula_core::usage::check_all(COMMANDS), Ok(()));
    }
}
