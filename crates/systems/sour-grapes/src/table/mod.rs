//! The table: the game moments (Spend, Check, Situation, Event) as a decide/evolve
//! [`System`].
//!
//! Sour Grapes, "Game Moments", "Spend", "Check", "Situation", "Event", "Turn
//! Mechanics", "Stunt", "Interrupt", "Compliment", "Divert", "Reactions",
//! "Effects", "Injury, Exhaust & Damage", "Experience" (000_05a1db5b88f54528.txt);
//! R-SG-1..R-SG-12.
//!
//! The moment is one of [`Moment::Free`] (single Spends and Checks),
//! [`Moment::Situation`] (a running difficulty ending in a final check) or
//! [`Moment::Event`] (initiative, rounds, and each turn's eight steps):
//!
//! | step | who | command |
//! |---|---|---|
//! | 1 Prep | Controller | `recover` (the free point), `keep`/`discard` effects |
//! | 2 Stunt | Controller | `stunt CARD` (or `end` the turn without one) |
//! | 3 Interrupt | any other | `interrupt CARD DICE TOKENS`; `pass` closes the window |
//! | 4 Targeting & Betting | Controller | `target WHO success D T result D T` |
//! | 5 Compliments & Diversions | any | `compliment`, `divert`; `pass` closes |
//! | 6 their success rolls | automatic | |
//! | 7 Reactions | each receiver | `react CARD DICE TOKENS` or `take` |
//! | 8 Final rolls | automatic | stunt, reactions, damage once |
//!
//! The storyteller (seat `gm`) also runs the monsters, opens Situations and
//! Events, gives points and tokens back (`giveback`), heals injuries, puts effects
//! on and takes them off (`afflict`, `cure`), rejects invalid cards (`reject`),
//! and awards experience (`award`; players `raise` and `improve`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use tabula_core::{CommandSpec, Die, ParamSpec, Refusal, Roller, Rule, RuleError, Seat, System};

use crate::SourGrapes;
use crate::cards::{
    ActionCard, CardType, CardValue, EffectRule, Keep, Outcome, StarRule, same_key,
};
use crate::character::{Character, MAX_EXPERIENCE, same_name};
use crate::check::{CheckRoll, MAX_DIFFICULTY, passes};
use crate::rules;
use crate::stats::{Condition, Stat};

mod evolve;
mod legal;
mod moments;
mod rolls;
mod turn;

use evolve::evolve;
use legal::legal;
use moments::decide;
use rolls::Dec;

/// The most participants one table may hold.
pub const MAX_PARTICIPANTS: usize = 30;
/// The most initiative tie-break rounds before ties fall back to table order.
pub const MAX_TIEBREAKS: u32 = 20;
/// The most points one give-back or award may be.
pub const MAX_POINTS: u32 = 100;

/// Dice and tokens placed on one roll, not rolled yet ("Targeting & Betting").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bet {
    /// d6 to roll.
    pub dice: u32,
    /// Skill tokens (successes).
    pub tokens: u32,
}

impl Bet {
    /// Points committed: dice plus tokens (for slot conflicts). Saturates: a bet
    /// is capped long before it could overflow (dice up to a stat, tokens up to a
    /// skill), but the sum never wraps.
    pub fn points(&self) -> u32 {
        self.dice.saturating_add(self.tokens)
    }

    /// True for no dice and no tokens.
    pub fn is_empty(&self) -> bool {
        self.dice == 0 && self.tokens == 0
    }
}

impl fmt::Display for Bet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} dice + {} tokens", self.dice, self.tokens)
    }
}

/// A card laid down with its placed dice and tokens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardPlay {
    /// The character playing it.
    pub by: String,
    /// The card's name.
    pub card: String,
    /// The Success roll.
    pub success: Bet,
    /// The Result roll.
    pub result: Bet,
    /// A Divert's new target.
    pub to: Option<String>,
}

/// An effect in play on a character, with its counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveEffect {
    /// The effect card's name.
    pub card: String,
    /// Tokens on the card (countdown effects).
    pub tokens: u32,
}

/// A character at the table: the sheet, who plays it, the cards they may play and
/// the effects on them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// The sheet.
    pub character: Character,
    /// The seat that plays it (monsters: the storyteller).
    pub seat: Seat,
    /// The action cards this character may play (card names).
    pub cards: Vec<String>,
    /// Effects in play on them.
    pub effects: Vec<ActiveEffect>,
    /// Skills the table agreed are comparable: a card's skill (F) -> this
    /// character's skill ("Skills": "make a case for a skill being a comparable
    /// for another").
    #[serde(default)]
    pub comparable: BTreeMap<String, String>,
}

impl Participant {
    /// The character's skill used for a card's skill `k`: the skill itself, or
    /// the comparable the table agreed on.
    pub fn skill_for(&self, k: &str) -> String {
        if let Some(own) = self.character.skill(k) {
            return own.name.clone();
        }
        self.comparable
            .iter()
            .find(|(from, _)| same_key(from, k))
            .map_or_else(|| k.to_string(), |(_, to)| to.clone())
    }
}

/// Table options where the book leaves a choice to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableOptions {
    /// Add a d20 to initiative (the book's "simple fix", R-SG-8). Default true.
    pub initiative_d20: bool,
    /// The Experience table rule: award points at chapter ends to raise a stat or
    /// skill. Default false.
    pub experience: bool,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            initiative_d20: true,
            experience: false,
        }
    }
}

/// A running Situation: one character, a stat and skill for the final check, and
/// the difficulty the storyteller raises or lowers.
///
/// Sour Grapes, "Situation" (000_05a1db5b88f54528.txt).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Situation {
    /// The character working the scene.
    pub who: String,
    /// The stat of the final check.
    pub stat: Stat,
    /// The skill of the final check.
    pub skill: Option<String>,
    /// The difficulty now.
    pub difficulty: u32,
    /// Every difficulty so far, first to last.
    pub history: Vec<u32>,
    /// Skill tokens spent inside the Situation and not given back yet, by
    /// character and skill: they all come back when the Situation ends ("Skill
    /// Mechanics": "Skill is not recovered until end of Situation"), for every
    /// character who spent them, not only the one it was called for.
    #[serde(default)]
    pub held: BTreeMap<String, BTreeMap<String, u32>>,
}

/// A step of the turn that waits for commands (steps 6 and 8 run by themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Steps 1 and 2: the free point, effects, then the Stunt.
    Prep,
    /// Step 3: Interrupts.
    Interrupt,
    /// Step 4: targeting and betting.
    Targeting,
    /// Step 5: one Compliment and one Divert.
    Support,
    /// Step 7: Reactions.
    Reaction,
}

impl Step {
    /// The step's number and name as the book gives them.
    pub fn title(self) -> &'static str {
        match self {
            Step::Prep => "steps 1-2: Prep, then Stunt",
            Step::Interrupt => "step 3: Interrupt",
            Step::Targeting => "step 4: Targeting & Betting",
            Step::Support => "step 5: Compliments & Diversions",
            Step::Reaction => "step 7: Reaction",
        }
    }
}

/// One turn in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The Controller.
    pub controller: String,
    /// The step waiting for commands.
    pub step: Step,
    /// True while the free point is unused.
    pub free_point: bool,
    /// Effects that must be rolled for or discarded before the Stunt (R-SG-9).
    pub pending_effects: Vec<String>,
    /// The Stunt card on the table.
    pub stunt: Option<String>,
    /// Interrupt offers (one slot; the most points wins).
    pub interrupts: Vec<CardPlay>,
    /// Targets declared in step 4.
    pub targets: Vec<String>,
    /// The Stunt's Success and Result bets.
    pub success: Bet,
    /// The Stunt's Result bet.
    pub result: Bet,
    /// Compliment offers.
    pub compliments: Vec<CardPlay>,
    /// Divert offers.
    pub diverts: Vec<CardPlay>,
    /// The receivers after step 6.
    pub receivers: Vec<String>,
    /// The Compliment that succeeded in step 6.
    pub compliment: Option<CardPlay>,
    /// Reactions by receiver (`None`: takes it).
    pub reactions: BTreeMap<String, Option<CardPlay>>,
}

impl Turn {
    fn new(controller: String, pending_effects: Vec<String>) -> Self {
        Turn {
            controller,
            step: Step::Prep,
            free_point: true,
            pending_effects,
            stunt: None,
            interrupts: Vec::new(),
            targets: Vec::new(),
            success: Bet::default(),
            result: Bet::default(),
            compliments: Vec::new(),
            diverts: Vec::new(),
            receivers: Vec::new(),
            compliment: None,
            reactions: BTreeMap::new(),
        }
    }
}

/// An Event in progress: initiative, order, round, turn.
///
/// Sour Grapes, "Event" (000_05a1db5b88f54528.txt); R-SG-8.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventState {
    /// Initiative totals by participant (`None`: not rolled yet).
    pub initiative: BTreeMap<String, Option<u32>>,
    /// The order, highest initiative first (empty until everyone rolled).
    pub order: Vec<String>,
    /// The round, from 1 (0 before the first).
    pub round: u32,
    /// The Controller's position in `order`.
    pub index: usize,
    /// The turn in progress.
    pub turn: Option<Turn>,
}

/// Which game moment the table is in. Sour Grapes, "Game Moments".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Moment {
    /// Between moments: single Spends and Checks.
    Free,
    /// A Situation.
    Situation(Situation),
    /// An Event.
    Event(Box<EventState>),
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The table's title.
    pub title: String,
    /// Options.
    pub options: TableOptions,
    /// The action cards known to the table, by name.
    pub cards: Vec<ActionCard>,
    /// The participants, in table order.
    pub participants: Vec<Participant>,
    /// The moment.
    pub moment: Moment,
    /// True once the storyteller ends the encounter (or an Event ends with one side Dying).
    pub over: bool,
    /// The rounds the last Event has run (its round number, kept when the Event
    /// ends), for encounter reports; 0 before any Event.
    #[serde(default)]
    pub rounds: u32,
    /// The characters the storyteller took out of the encounter (`remove`),
    /// in the order they left, with their cards and effects: out of play, kept
    /// for the sheets the encounter leaves. Sour Grapes has no deck: a
    /// character's action cards are its own and leave with it (issue 27,
    /// item 6; docs/systems/sour-grapes.md, GM tools).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<Participant>,
}

/// A stat or a skill: what a free point, a give-back or an experience point goes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pool {
    /// A stat.
    Stat(Stat),
    /// A skill, by name.
    Skill(String),
}

impl Pool {
    /// A stat name is a stat; anything else a skill.
    pub fn parse(text: &str) -> Pool {
        match Stat::parse(text) {
            Some(s) => Pool::Stat(s),
            None => Pool::Skill(text.trim().to_string()),
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pool::Stat(s) => write!(f, "{s}"),
            Pool::Skill(k) => write!(f, "{k} (skill)"),
        }
    }
}

/// The slots of a turn where only one card may lie and conflicts go to the most points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// The one Interrupt.
    Interrupt,
    /// The one Compliment.
    Compliment,
    /// The one Divert.
    Divert,
}

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
    },
    /// The storyteller took a character out of the encounter (`remove`): it
    /// leaves the table with its cards and effects, and the initiative order.
    /// GM tools (issue 27, item 6); docs/systems/sour-grapes.md.
    Left {
        /// Who.
        who: String,
    },
}

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
    /// (`add KIND [as NAME] [to SEAT]`): a copy, fresh, of one of the table's
    /// characters or of the book's sheets bundled with the crate.
    /// GM tools (issue 27, item 6).
    Add {
        /// The kind: a character of the table or a bundled sheet, by name.
        kind: String,
        /// The newcomer's name (default: the kind's; a taken name gets ` 2`).
        name: Option<String>,
        /// Who plays it (default: the storyteller).
        seat: Option<Seat>,
    },
    /// The storyteller takes a character out of the encounter (`remove NAME`).
    /// GM tools (issue 27, item 6).
    Remove {
        /// Who.
        who: String,
    },
}

// ---------------------------------------------------------------- lookups

impl State {
    /// A participant by name (any case).
    pub fn participant(&self, name: &str) -> Option<&Participant> {
        self.participants
            .iter()
            .find(|p| same_name(p.character.name(), name))
    }

    fn participant_mut(&mut self, name: &str) -> Option<&mut Participant> {
        self.participants
            .iter_mut()
            .find(|p| same_name(p.character.name(), name))
    }

    /// A card by name (`sand-strike`, `Sand Strike`).
    pub fn card(&self, name: &str) -> Option<&ActionCard> {
        self.cards.iter().find(|c| same_key(&c.name, name))
    }

    /// The Event, if one is running.
    pub fn event(&self) -> Option<&EventState> {
        match &self.moment {
            Moment::Event(e) => Some(e),
            _ => None,
        }
    }

    fn event_mut(&mut self) -> Option<&mut EventState> {
        match &mut self.moment {
            Moment::Event(e) => Some(e),
            _ => None,
        }
    }

    /// The turn in progress, if any.
    pub fn turn(&self) -> Option<&Turn> {
        self.event().and_then(|e| e.turn.as_ref())
    }

    fn turn_mut(&mut self) -> Option<&mut Turn> {
        self.event_mut().and_then(|e| e.turn.as_mut())
    }

    /// Every participant's name, in table order.
    pub fn participant_names(&self) -> Vec<String> {
        self.participants
            .iter()
            .map(|p| p.character.name().to_string())
            .collect()
    }

    /// The names of the characters `seat` controls, in table order (a player
    /// seat's name matches without regard to case).
    pub fn controlled_by(&self, seat: &Seat) -> Vec<String> {
        self.participants
            .iter()
            .filter(|p| p.seat.same_seat(seat))
            .map(|p| p.character.name().to_string())
            .collect()
    }

    /// The seat as the table spells it: a player seat typed in another case
    /// (`sam` for `Sam`) is that seat; anything else is left as it is.
    pub fn seat(&self, seat: &Seat) -> Seat {
        self.participants
            .iter()
            .find(|p| p.seat.same_seat(seat))
            .map_or_else(|| seat.clone(), |p| p.seat.clone())
    }

    /// Successes `who` needs on `card` now: the printed value less the
    /// character's Experience "easier" bonus, a `*` worked out from its rule
    /// (R-SG-5, R-SG-6), plus 2 when Dazed. `stunt_successes` is the Stunt's
    /// roll (for a Reaction that must beat it).
    ///
    /// Sour Grapes, "Card Mechanics", "Experience", "Stats" (Dazed);
    /// R-SG-2, R-SG-5, R-SG-6.
    pub fn needs(&self, card: &ActionCard, who: &str, stunt_successes: u32) -> u32 {
        rolls::card_needs(self, card, who, stunt_successes)
    }

    /// Why `who` may not make a check with `stat` now, if they may not: Dying
    /// allows no check; Incapacitated none with a Physical stat; Panicked none
    /// with a Mental stat (Perception is both). Sour Grapes, "Stats"; R-SG-12.
    pub fn check_forbidden(&self, who: &str, stat: Stat) -> Option<String> {
        let c = &self.participant(who)?.character;
        if c.has(Condition::Dying) {
            return Some(format!("{who} is Dying: no check and no card (R-SG-12)"));
        }
        if stat.is_physical() && c.has(Condition::Incapacitated) {
            return Some(format!(
                "{who} is Incapacitated: no check or card that uses a Physical stat, and {stat} is Physical (R-SG-12)"
            ));
        }
        if stat.is_mental() && c.has(Condition::Panicked) {
            return Some(format!(
                "{who} is Panicked: no check or card that uses a Mental stat, and {stat} is Mental (R-SG-12)"
            ));
        }
        None
    }

    /// Tokens `who` may still place on `card`: the available tokens of the skill
    /// the card draws on (its own skill F or the agreed comparable), less those
    /// already placed on bets of this turn not rolled yet (R-SG-4, R-SG-11).
    pub fn tokens_free(&self, who: &str, card: &ActionCard) -> u32 {
        let Some(p) = self.participant(who) else {
            return 0;
        };
        card.skill
            .as_deref()
            .and_then(|k| p.character.skill(&p.skill_for(k)))
            .map_or(0, |k| {
                k.available
                    .saturating_sub(rolls::committed_tokens(self, who, &k.name))
            })
    }

    /// The stats `who` may make a check with now (R-SG-12).
    pub fn check_stats(&self, who: &str) -> Vec<Stat> {
        Stat::ALL
            .into_iter()
            .filter(|st| self.check_forbidden(who, *st).is_none())
            .collect()
    }

    /// True when `name`'s effects include one whose rule is `pred`.
    fn effect_rule(&self, name: &str, pred: impl Fn(&EffectRule) -> bool) -> Option<EffectRule> {
        let p = self.participant(name)?;
        p.effects.iter().find_map(|e| {
            self.card(&e.card)
                .and_then(|c| c.effect)
                .map(|s| s.rule)
                .filter(|r| pred(r))
        })
    }

    /// True when an effect on `name` forbids Skill Tokens with points of `stat`
    /// in one roll (Intoxicated).
    pub fn no_tokens_with(&self, name: &str, stat: Stat) -> bool {
        self.effect_rule(
            name,
            |r| matches!(r, EffectRule::NoTokensWith { stat: s } if *s == stat),
        )
        .is_some()
    }

    /// May `who` play `card` as a `kind` card now (in their hand, no depleted
    /// stat in its Success or Result, no blocking condition)? The same test
    /// `decide` makes. Sour Grapes, "Stats"; R-SG-10, R-SG-12.
    pub(crate) fn may_play(&self, who: &str, card: &ActionCard, kind: CardType) -> bool {
        // The test of `rolls::may_play`, without building its refusals.
        self.participant(who).is_some_and(|p| {
            card.kind == kind
                && p.cards.iter().any(|c| same_key(c, &card.name))
                && rolls::unusable(&p.character, card).is_none()
        })
    }

    /// May `who` use `card`'s stats now (to roll to keep it)? R-SG-12.
    pub(crate) fn card_usable(&self, who: &str, card: &ActionCard) -> bool {
        self.participant(who)
            .is_some_and(|p| rolls::unusable(&p.character, card).is_none())
    }

    /// True when the Event is at an end: one side (players / monsters) all Dying.
    fn one_side_down(&self) -> bool {
        let down = |monster: bool| {
            let side: Vec<&Participant> = self
                .participants
                .iter()
                .filter(|p| p.character.is_monster() == monster)
                .collect();
            !side.is_empty() && side.iter().all(|p| p.character.has(Condition::Dying))
        };
        down(true) || down(false)
    }
}

/// What a seat sees: the whole table (the book keeps nothing hidden beyond the
/// sheets on the table), which characters it plays, and what it may do.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The seat.
    pub seat: Seat,
    /// The characters it plays.
    pub plays: Vec<String>,
    /// The table.
    pub state: State,
    /// What it may do now.
    pub may: Vec<CommandSpec>,
}

impl System for SourGrapes {
    const ID: &'static str = crate::ID;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn decide(
        state: &State,
        seat: &Seat,
        command: &Command,
        roller: &mut dyn Roller,
    ) -> Result<Vec<Event>, RuleError> {
        let seat = state.seat(seat);
        let mut d = Dec::new(state, roller);
        decide(&mut d, &seat, command)?;
        Ok(d.events)
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve(state, event);
    }

    fn view(state: &State, seat: &Seat) -> View {
        let seat = &state.seat(seat);
        View {
            seat: seat.clone(),
            plays: state.controlled_by(seat),
            state: state.clone(),
            may: legal(state, seat),
        }
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        legal(state, &state.seat(seat))
    }
}
