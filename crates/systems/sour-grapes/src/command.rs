//! What a seat asks of the table ([`Command`]), one variant per command of
//! [`crate::text::COMMANDS`].

use serde::{Deserialize, Serialize};

use tabula_core::Seat;

use crate::state::*;
use crate::stats::Stat;

/// A command from a seat. `who` is the character acting (`None`: the one the
/// seat controls, or the Controller).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// Spend: exhaust a point of a stat, no roll. Storyteller or the player.
    Spend {
        /// Who.
        who: Option<String>,
        /// The stat.
        stat: Stat,
    },
    /// A Check.
    Check {
        /// Who.
        who: Option<String>,
        /// The stat.
        stat: Stat,
        /// Dice, up to the Current Stat Value.
        dice: u32,
        /// Tokens, up to the skill's available tokens.
        tokens: u32,
        /// The skill.
        skill: Option<String>,
        /// The Difficulty.
        difficulty: u32,
    },
    /// The storyteller gives exhausted points back (reward).
    GiveBack {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
        /// Points.
        points: u32,
    },
    /// The storyteller gives spent skill tokens back (e.g. inside a Situation,
    /// "Skill Token ... recovery are up to the story teller").
    TokensBack {
        /// Who.
        who: String,
        /// The skill.
        skill: String,
        /// Tokens.
        points: u32,
    },
    /// The storyteller rejects a card offered in the open step as invalid
    /// ("If the player places an invalid interrupt it can be rejected by the
    /// table"): the offers of `who` are taken back unrolled.
    Reject {
        /// The character whose offers are rejected.
        who: String,
    },
    /// The storyteller removes an injury.
    Heal {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
    },
    /// A short rest for everyone (outside Events and Situations).
    Rest,
    /// The storyteller opens a Situation.
    Situation {
        /// Who works it.
        who: String,
        /// The final check's stat.
        stat: Stat,
        /// The final check's skill.
        skill: Option<String>,
        /// The starting difficulty.
        difficulty: u32,
    },
    /// The storyteller sets the Situation's difficulty.
    Difficulty {
        /// The new difficulty.
        value: u32,
    },
    /// The Situation's final check.
    Final {
        /// Dice.
        dice: u32,
        /// Tokens.
        tokens: u32,
    },
    /// The storyteller declares an Event.
    StartEvent,
    /// An initiative roll.
    Initiative {
        /// Who.
        who: Option<String>,
        /// The stat they make a case for.
        stat: Stat,
        /// Dice, up to the Current Stat Value.
        dice: u32,
    },
    /// Step 1: the free point.
    Recover {
        /// Where it goes.
        into: Pool,
    },
    /// Step 1: roll to keep an effect (R-SG-9).
    Keep {
        /// The effect.
        effect: String,
        /// Dice and tokens.
        bet: Bet,
    },
    /// Step 1: discard an effect.
    Discard {
        /// The effect.
        effect: String,
    },
    /// Step 2: lay down a Stunt.
    Stunt {
        /// The card.
        card: String,
    },
    /// Step 1-2: end the turn without a Stunt.
    EndTurn,
    /// Step 3: offer an Interrupt (rolled when the window closes).
    Interrupt {
        /// Who.
        who: Option<String>,
        /// The card.
        card: String,
        /// Dice and tokens.
        bet: Bet,
    },
    /// Close the open window (steps 3 and 5).
    Pass,
    /// Step 4: targets and bets.
    Target {
        /// The targets.
        targets: Vec<String>,
        /// Success bet.
        success: Bet,
        /// Result bet.
        result: Bet,
    },
    /// Step 5: offer a Compliment.
    Compliment {
        /// Who.
        who: Option<String>,
        /// The card.
        card: String,
        /// Success bet.
        success: Bet,
        /// Result bet.
        result: Bet,
    },
    /// Step 5: offer a Divert.
    Divert {
        /// Who.
        who: Option<String>,
        /// The card.
        card: String,
        /// Success bet.
        success: Bet,
        /// The new target (agreed with the storyteller).
        to: String,
    },
    /// Step 7: react.
    React {
        /// Who.
        who: Option<String>,
        /// The card.
        card: String,
        /// Dice and tokens.
        bet: Bet,
    },
    /// Step 7: no reaction.
    Take {
        /// Who.
        who: Option<String>,
    },
    /// The storyteller puts an effect card on a character (Intoxicated).
    Afflict {
        /// Who.
        who: String,
        /// The effect card.
        card: String,
    },
    /// The storyteller removes an effect ("until a specific action has occurred").
    Cure {
        /// Who.
        who: String,
        /// The effect.
        effect: String,
    },
    /// The storyteller ends the Event.
    EndEvent,
    /// Experience option: award points.
    Award {
        /// Who.
        who: String,
        /// Points.
        points: u32,
    },
    /// Experience option: spend a point to raise a stat or skill by one.
    Raise {
        /// Who.
        who: Option<String>,
        /// What.
        what: Pool,
    },
    /// Experience option: spend a point on a card bonus (one less success needed,
    /// or one more damage).
    Improve {
        /// Who.
        who: Option<String>,
        /// The card.
        card: String,
        /// True for +1 damage, false for one success less.
        damage: bool,
    },
    /// The storyteller ends the encounter.
    EndEncounter,
    /// The storyteller sets or changes a character's Current Stat Value
    /// (`adjust NAME STAT AMOUNT`).
    /// Sour Grapes, "Stat Mechanics" (000_05a1db5b88f54528.txt); R-SG-10,
    /// R-SG-13; issue 27, item 6.
    Adjust {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// The storyteller brings a character into the encounter
    /// (`add KIND|FILE.toml [as NAME] [to SEAT]`): a copy, fresh, of one of
    /// the table's characters, of the book's sheets bundled with the crate,
    /// or of a character sheet file sent with the line (an uploaded sheet).
    /// GM tools (issue 27, item 6).
    Add {
        /// The kind: a character of the table or a bundled sheet, by name; for
        /// an uploaded sheet, the file's name as typed (`rook.toml`).
        kind: String,
        /// The newcomer's name (default: the kind's, or the uploaded sheet's
        /// character name; a taken name gets ` 2`).
        name: Option<String>,
        /// Who plays it (default: the storyteller).
        seat: Option<Seat>,
        /// The uploaded sheet's TOML text, when `kind` names a sheet file:
        /// `decide` reads and validates it again (a command sent as JSON
        /// cannot bypass the sheet's rules). Absent from older commands.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
    },
    /// The storyteller takes a character out of the encounter (`remove NAME`).
    /// GM tools (issue 27, item 6).
    Remove {
        /// Who.
        who: String,
    },
}
