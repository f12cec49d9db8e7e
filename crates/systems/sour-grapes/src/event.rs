//! What happened at the table ([`Event`], with every die) and why a roll was
//! made ([`Purpose`]): the log that replays the table.

use serde::{Deserialize, Serialize};

use crate::cards::ActionCard;
use crate::check::CheckRoll;
use crate::state::*;
use crate::stats::Stat;

/// Why a roll was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    /// A single Check (or one inside a Situation).
    Check,
    /// The final check of a Situation.
    SituationFinal,
    /// Rolling to keep an effect (R-SG-9).
    KeepEffect,
    /// An Interrupt's roll (step 3).
    Interrupt,
    /// A Compliment's success roll (step 6).
    Compliment,
    /// A Divert's success roll (step 6).
    Divert,
    /// The Stunt's success roll (step 8).
    Stunt,
    /// A Reaction's roll (step 8).
    Reaction,
    /// The Stunt's Result (damage) roll, once (step 8).
    Damage,
    /// A Compliment's Result roll: additional damage (step 8).
    ExtraDamage,
    /// A negative Compliment's Result roll: less damage (step 8).
    LessDamage,
    /// A card that lost its slot still rolls for exhaustion.
    LostSlot,
}

impl Purpose {
    /// True for a roll of dice and tokens placed earlier (an offered card, the
    /// Stunt's bets, a Reaction): it rolls what is left of them and never
    /// refuses (R-SG-11). Checks and keep rolls are rolled as they are given.
    pub fn is_committed(&self) -> bool {
        !matches!(
            self,
            Purpose::Check | Purpose::SituationFinal | Purpose::KeepEffect
        )
    }
}

/// What happened at the table: every die is in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A point of a stat was exhausted without a roll (Spend).
    Spent {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
    },
    /// The storyteller gave exhausted points back (a reward).
    GivenBack {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
        /// Points (up to the exhausted points).
        points: u32,
    },
    /// The storyteller gave spent skill tokens back.
    TokensBack {
        /// Who.
        who: String,
        /// The skill.
        skill: String,
        /// Tokens.
        points: u32,
    },
    /// The storyteller rejected a character's offered cards in the open step.
    Rejected {
        /// Whose offers.
        who: String,
    },
    /// An injury was removed.
    Healed {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
    },
    /// A short rest: exhausted uninjured stats and skill tokens recover.
    Rested {
        /// Who rested.
        who: Vec<String>,
    },
    /// A roll: every die, tokens, what it needed, and what it exhausts.
    Rolled {
        /// Why.
        purpose: Purpose,
        /// Who rolled.
        who: String,
        /// The card, if any.
        card: Option<String>,
        /// The stat rolled.
        stat: Stat,
        /// The skill whose tokens were used.
        skill: Option<String>,
        /// The dice and tokens.
        roll: CheckRoll,
        /// Successes needed, at least (cards, R-SG-2) or more than difficulty - 1.
        needed: Option<u32>,
        /// Whether it succeeded (`None` for damage rolls).
        success: Option<bool>,
        /// Points exhausted, by stat (each 1; Trained Breathing may move them).
        exhausts: Vec<(Stat, u32)>,
        /// Skill tokens spent (0 for a single check: recovered at once).
        tokens_spent: u32,
        /// Dice and tokens placed earlier that could not be rolled: the stat's
        /// Current value or the skill's tokens had fallen below what was placed
        /// (R-SG-11: "the rest are lost").
        #[serde(default, skip_serializing_if = "Bet::is_empty")]
        lost: Bet,
    },
    /// A Situation began.
    SituationStarted {
        /// Who works it.
        who: String,
        /// The final check's stat.
        stat: Stat,
        /// The final check's skill.
        skill: Option<String>,
        /// The starting difficulty.
        difficulty: u32,
    },
    /// The storyteller set a new Situation difficulty.
    DifficultyChanged {
        /// Before.
        from: u32,
        /// After.
        to: u32,
    },
    /// The Situation ended; held skill tokens recover.
    SituationEnded {
        /// Who.
        who: String,
        /// Whether the final check succeeded.
        success: bool,
    },
    /// An Event was declared: initiative is next.
    EventStarted {
        /// Every participant.
        participants: Vec<String>,
    },
    /// One initiative roll: a check that exhausts nothing, plus a d20 (R-SG-8).
    InitiativeRolled {
        /// Who.
        who: String,
        /// The stat they made a case for.
        stat: Stat,
        /// The dice.
        roll: CheckRoll,
        /// The d20, if the table uses it.
        d20: Option<u32>,
        /// Successes plus the d20.
        total: u32,
    },
    /// Everyone has rolled: the order, with the tie-break d20s.
    InitiativeSettled {
        /// Highest first.
        order: Vec<String>,
        /// Tie-break rolls by participant.
        tiebreaks: Vec<(String, Vec<u32>)>,
    },
    /// "New Round".
    NewRound {
        /// The round number, from 1.
        round: u32,
    },
    /// A turn began: `controller` is the Controller.
    TurnBegan {
        /// The Controller.
        controller: String,
        /// Position in the order.
        index: usize,
    },
    /// A countdown effect lost a token at the start of its holder's turn.
    EffectCountdown {
        /// The holder.
        who: String,
        /// The effect.
        effect: String,
        /// Tokens left.
        tokens: u32,
    },
    /// An effect came into play.
    EffectAdded {
        /// The holder.
        who: String,
        /// The effect card.
        effect: String,
        /// Tokens placed on it.
        tokens: u32,
    },
    /// An effect left play.
    EffectRemoved {
        /// The holder.
        who: String,
        /// The effect card.
        effect: String,
    },
    /// An effect was rolled for and stays.
    EffectKept {
        /// The holder.
        who: String,
        /// The effect.
        effect: String,
    },
    /// The Controller's free point went into a stat or skill (step 1).
    FreePoint {
        /// The Controller.
        who: String,
        /// Where it went.
        into: Pool,
    },
    /// The Stunt card was laid down (step 2).
    StuntPlayed {
        /// The Controller.
        by: String,
        /// The card.
        card: String,
    },
    /// A card was offered for a slot (Interrupt, Compliment, Divert).
    Offered {
        /// The slot.
        slot: Slot,
        /// The card and its placed points.
        play: CardPlay,
    },
    /// A slot's conflict was settled: the most points wins.
    SlotWon {
        /// The slot.
        slot: Slot,
        /// The winning character.
        by: String,
        /// The losers (they still roll for exhaustion).
        over: Vec<String>,
    },
    /// The turn moved to a step that waits for commands.
    StepReached {
        /// The step.
        step: Step,
    },
    /// Step 4: targets and bets.
    TargetsDeclared {
        /// The targets.
        targets: Vec<String>,
        /// The Success bet.
        success: Bet,
        /// The Result bet.
        result: Bet,
    },
    /// Step 6: a Divert succeeded; the stunt goes to a new target.
    Diverted {
        /// The old receivers.
        from: Vec<String>,
        /// The new target.
        to: String,
    },
    /// Step 6: a Compliment succeeded and will modify the stunt.
    ComplimentApplies {
        /// The play.
        play: CardPlay,
    },
    /// Step 7 skipped for a receiver who may not react against this Stunt:
    /// Dying (no card), Incapacitated against a Physical action, Panicked against
    /// a Mental one ("cannot be reacted against", R-SG-12).
    ReactionSkipped {
        /// The receiver.
        who: String,
        /// The condition, in the book's words.
        reason: String,
    },
    /// Step 7: a receiver reacted (or takes it).
    Reacted {
        /// The receiver.
        who: String,
        /// The Reaction, or `None` to take it.
        play: Option<CardPlay>,
    },
    /// Damage to a stat's Current Stat Value (R-SG-10).
    Damaged {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
        /// Points after doubling.
        points: u32,
        /// True when Frail, Despised or Lost doubled it (once, R-SG-7).
        doubled: bool,
        /// The card that dealt it.
        source: String,
    },
    /// The turn ended.
    TurnEnded {
        /// The Controller.
        controller: String,
        /// Why, in words.
        reason: String,
    },
    /// The Event ended.
    EventEnded {
        /// Why.
        reason: String,
    },
    /// Experience points awarded (table rule).
    Awarded {
        /// Who.
        who: String,
        /// Points.
        points: u32,
    },
    /// An experience point raised a stat or skill by one.
    Raised {
        /// Who.
        who: String,
        /// What.
        what: Pool,
    },
    /// An experience point bought a card bonus.
    Improved {
        /// Who.
        who: String,
        /// The card.
        card: String,
        /// True for +1 damage, false for one success less.
        damage: bool,
    },
    /// The storyteller ended the encounter.
    EncounterEnded,
    /// The storyteller set a character's Current Stat Value (`adjust`).
    /// Sour Grapes, "Stat Mechanics" (000_05a1db5b88f54528.txt); issue 27, item 6.
    Adjusted {
        /// Who.
        who: String,
        /// The stat.
        stat: Stat,
        /// The Current Stat Value before.
        from: u32,
        /// After.
        to: u32,
    },
    /// The storyteller brought a character into the encounter (`add`): the
    /// whole participant, sheet, seat, cards and comparables, so replaying
    /// needs no file; `cards` are the card definitions it brings that the
    /// table did not have. In an Event it rolls initiative while the order is
    /// not settled, else it joins at the end of the order.
    /// GM tools (issue 27, item 6); docs/systems/sour-grapes.md.
    Joined {
        /// The newcomer.
        participant: Box<Participant>,
        /// Card definitions new to the table.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cards: Vec<ActionCard>,
        /// The file of the uploaded sheet it came from (`add rook.toml`), as
        /// the storyteller typed it; absent for a kind the table knows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
    },
    /// The storyteller took a character out of the encounter (`remove`): it
    /// leaves the table with its cards and effects, and the initiative order.
    /// GM tools (issue 27, item 6); docs/systems/sour-grapes.md.
    Left {
        /// Who.
        who: String,
    },
}
