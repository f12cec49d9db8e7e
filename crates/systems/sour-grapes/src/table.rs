//! The table: the game moments (Spend, Check, Situation, Event) as a decide/evolve
//! [`System`].
//!
//! Sour Grapes, "Game Moments", "Spend", "Check", "Situation", "Event", "Turn
//! Mechanics", "Stunt", "Interrupt", "Compliment", "Divert", "Reactions",
//! "Effects", "Injury, Exhaust & Damage", "Experience" (000_05a1db5b88f54528.txt);
//! R-SG-1..R-SG-10.
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
use crate::cards::{ActionCard, CardType, CardValue, EffectRule, Keep, Outcome, StarRule, key};
use crate::character::{Character, MAX_EXPERIENCE};
use crate::check::{CheckRoll, MAX_DIFFICULTY, passes};
use crate::rules;
use crate::stats::{Condition, Stat};

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
    /// Points committed: dice plus tokens (for slot conflicts).
    pub fn points(&self) -> u32 {
        self.dice + self.tokens
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
            .find(|(from, _)| key(from) == key(k))
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
}

// ---------------------------------------------------------------- lookups

impl State {
    /// A participant by name (any case).
    pub fn participant(&self, name: &str) -> Option<&Participant> {
        self.participants
            .iter()
            .find(|p| p.character.name().eq_ignore_ascii_case(name.trim()))
    }

    fn participant_mut(&mut self, name: &str) -> Option<&mut Participant> {
        self.participants
            .iter_mut()
            .find(|p| p.character.name().eq_ignore_ascii_case(name.trim()))
    }

    /// A card by name (`sand-strike`, `Sand Strike`).
    pub fn card(&self, name: &str) -> Option<&ActionCard> {
        let k = key(name);
        self.cards.iter().find(|c| key(&c.name) == k)
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

    /// The characters `seat` plays.
    pub fn controlled_by(&self, seat: &Seat) -> Vec<String> {
        self.participants
            .iter()
            .filter(|p| &p.seat == seat)
            .map(|p| p.character.name().to_string())
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

// ---------------------------------------------------------------- decide helpers

struct Dec<'a> {
    s: State,
    events: Vec<Event>,
    roller: &'a mut dyn Roller,
}

impl Dec<'_> {
    fn emit(&mut self, e: Event) {
        SourGrapes::evolve(&mut self.s, &e);
        self.events.push(e);
    }
}

fn not_permitted(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::NotPermitted, msg)
}

fn wrong_phase(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::WrongPhase, msg)
}

fn not_your_turn(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::NotYourTurn, msg)
}

fn need_gm(seat: &Seat, what: &str, rule: Rule) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(not_permitted(
            rule,
            format!("only the storyteller may {what}"),
        ))
    }
}

/// The character a command from `seat` acts for.
fn actor(s: &State, seat: &Seat, who: &Option<String>, rule: Rule) -> Result<String, RuleError> {
    if let Some(name) = who {
        let p = s
            .participant(name)
            .ok_or_else(|| RuleError::unknown(rule, "character", name))?;
        if &p.seat != seat {
            return Err(not_permitted(
                rules::SEATS,
                format!("{seat} does not play {}", p.character.name()),
            ));
        }
        return Ok(p.character.name().to_string());
    }
    let mine = s.controlled_by(seat);
    if let Some(t) = s.turn()
        && mine.iter().any(|m| m == &t.controller)
        && mine.len() > 1
    {
        return Ok(t.controller.clone());
    }
    match mine.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(not_permitted(
            rules::SEATS,
            format!("{seat} plays no character here"),
        )),
        _ => Err(not_permitted(
            rules::SEATS,
            format!("{seat} plays several characters: say which with `as NAME`"),
        )),
    }
}

/// A character by name, or refuse naming the field.
fn who_known(s: &State, name: &str, rule: Rule) -> Result<String, RuleError> {
    s.participant(name)
        .map(|p| p.character.name().to_string())
        .ok_or_else(|| RuleError::unknown(rule, "character", name))
}

/// The +2 of Dazed. Sour Grapes, "Stats": "All actions are +2 difficulty to perform".
fn dazed(s: &State, who: &str) -> u32 {
    if s.participant(who)
        .is_some_and(|p| p.character.has(Condition::Dazed))
    {
        2
    } else {
        0
    }
}

/// Check that `who` may roll `bet` on `stat` with `skill`, and roll it.
///
/// Sour Grapes, "Check" (dice up to the Current Stat Value, tokens up to the
/// skill); "Effects" (Intoxicated, Trained Breathing); R-SG-1, R-SG-4.
#[allow(clippy::too_many_arguments)]
fn roll_for(
    d: &mut Dec<'_>,
    purpose: Purpose,
    who: &str,
    card: Option<&str>,
    stat: Stat,
    skill: Option<&str>,
    bet: Bet,
    needed: Option<u32>,
    spend_tokens: bool,
) -> Result<CheckRoll, RuleError> {
    let roll = prepare_roll(&d.s, who, stat, skill, bet, rules::CHECK)?;
    let dice = bet.dice.min(roll.0);
    let r = CheckRoll::roll(d.roller, dice, bet.tokens)?;
    let mut exhausts = vec![];
    let ones = r.ones;
    if ones > 0 {
        let moved = match d.s.effect_rule(
            who,
            |r| matches!(r, EffectRule::OnesExhaustInstead { roll, .. } if *roll == stat),
        ) {
            Some(EffectRule::OnesExhaustInstead { exhaust, .. }) => {
                let room =
                    d.s.participant(who)
                        .map_or(0, |p| p.character.stat(exhaust).current.saturating_sub(1));
                let m = ones.min(room);
                if m > 0 {
                    exhausts.push((exhaust, m));
                }
                m
            }
            _ => 0,
        };
        if ones > moved {
            exhausts.push((stat, ones - moved));
        }
    }
    let success = needed.map(|n| r.successes >= n);
    d.emit(Event::Rolled {
        purpose,
        who: who.to_string(),
        card: card.map(String::from),
        stat,
        skill: roll.1,
        roll: r.clone(),
        needed,
        success,
        exhausts,
        tokens_spent: if spend_tokens { bet.tokens } else { 0 },
    });
    Ok(r)
}

/// Validate a bet: returns (dice allowed = current, the skill's real name).
fn prepare_roll(
    s: &State,
    who: &str,
    stat: Stat,
    skill: Option<&str>,
    bet: Bet,
    rule: Rule,
) -> Result<(u32, Option<String>), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| RuleError::unknown(rule, "character", who))?;
    let resolved = skill.map(|k| p.skill_for(k));
    let skill = resolved.as_deref();
    let current = p.character.stat(stat).current;
    if bet.dice > current {
        return Err(RuleError::new(
            rules::CHECK,
            Refusal::OutOfRange {
                field: "dice".into(),
                min: 0,
                max: i64::from(current),
                got: i64::from(bet.dice),
            },
            format!("{who} may roll at most {current} dice: the Current Stat Value of {stat}"),
        ));
    }
    let mut skill_name = None;
    if bet.tokens > 0 {
        let Some(skill) = skill else {
            return Err(RuleError::forbidden(
                rules::SKILLS,
                "tokens come from a skill, and this roll names none",
            ));
        };
        let Some(k) = p.character.skill(skill) else {
            return Err(RuleError::forbidden(
                rules::SKILLS,
                format!("{who} has no {skill} skill, so no tokens for it"),
            ));
        };
        if bet.tokens > k.available {
            return Err(RuleError::new(
                rules::SKILLS,
                Refusal::OutOfRange {
                    field: "tokens".into(),
                    min: 0,
                    max: i64::from(k.available),
                    got: i64::from(bet.tokens),
                },
                format!(
                    "{who} has {} of {} {} tokens left",
                    k.available, k.rating, k.name
                ),
            ));
        }
        skill_name = Some(k.name.clone());
        if bet.dice > 0
            && let Some(EffectRule::NoTokensWith { stat: st }) = s.effect_rule(
                who,
                |r| matches!(r, EffectRule::NoTokensWith { stat: st } if *st == stat),
            )
        {
            return Err(RuleError::forbidden(
                rules::EFFECTS,
                format!(
                    "{who} is under an effect: Skill Tokens and {st} points cannot be used in the same roll"
                ),
            ));
        }
    } else if let Some(skill) = skill {
        skill_name = p.character.skill(skill).map(|k| k.name.clone());
    }
    Ok((current, skill_name))
}

/// May `who` play `card` now? Depleted stats (Success/Result), Panicked,
/// Incapacitated, Dying, and the card being in their hand.
///
/// Sour Grapes, "Stats": "When a stat is depleted you cannot use any action, item
/// or ability that lists that stat as part of the Success or Result"; Panicked,
/// Incapacitated, Dying; R-SG-10.
fn may_play(s: &State, who: &str, card: &ActionCard, kind: CardType) -> Result<(), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| RuleError::unknown(rules::CARDS, "character", who))?;
    if card.kind != kind {
        return Err(RuleError::forbidden(
            rules::CARDS,
            format!("{} is a {} card, not a {kind}", card.name, card.kind),
        ));
    }
    if !p.cards.iter().any(|c| key(c) == key(&card.name)) {
        return Err(RuleError::forbidden(
            rules::CARDS,
            format!("{who} does not have the {} card", card.name),
        ));
    }
    let c = &p.character;
    if c.has(Condition::Dying) {
        return Err(RuleError::forbidden(
            rules::CONDITIONS,
            format!("{who} is Dying: actions cannot be played"),
        ));
    }
    if card.is_mental() && c.has(Condition::Panicked) {
        return Err(RuleError::forbidden(
            rules::CONDITIONS,
            format!("{who} is Panicked: Mental actions cannot be played"),
        ));
    }
    if card.is_physical() && c.has(Condition::Incapacitated) {
        return Err(RuleError::forbidden(
            rules::CONDITIONS,
            format!("{who} is Incapacitated: Physical actions cannot be played"),
        ));
    }
    for st in [card.success, card.result].into_iter().flatten() {
        if c.stat(st).depleted() {
            return Err(RuleError::forbidden(
                rules::CONDITIONS,
                format!("{who}'s {st} is depleted: no action listing it in Success or Result"),
            ));
        }
    }
    Ok(())
}

fn find_card(s: &State, name: &str) -> Result<ActionCard, RuleError> {
    s.card(name)
        .cloned()
        .ok_or_else(|| RuleError::unknown(rules::CARDS, "card", name))
}

/// Successes a card needs from `who` (R-SG-2, R-SG-5, R-SG-6), Dazed included.
fn card_needs(s: &State, card: &ActionCard, who: &str, stunt_successes: u32) -> u32 {
    let base = match card.value {
        // Experience: a card bonus may lower a numeric value ("cost less").
        CardValue::Needs(n) => n.saturating_sub(
            s.participant(who)
                .map_or(0, |p| p.character.card_bonus(&card.name).easier),
        ),
        CardValue::Star(StarRule::AttackerAgility) => s
            .turn()
            .and_then(|t| s.participant(&t.controller))
            .map_or(0, |p| p.character.stat(Stat::Agility).current + 1),
        CardValue::Star(StarRule::BeatStunt) => stunt_successes + 1,
        CardValue::Star(StarRule::Notes) => 0,
    };
    base + dazed(s, who)
}

/// Step 4 (and every offered card): dice up to the Current Stat Value, and one
/// token pool for Success and Result.
/// Sour Grapes, "Turn Mechanics" (Targeting & Betting) (000_05a1db5b88f54528.txt); R-SG-4.
fn check_bet_tokens(
    s: &State,
    who: &str,
    card: &ActionCard,
    success: Bet,
    result: Bet,
) -> Result<(), RuleError> {
    // R-SG-4: one pool for both rolls of a card.
    let total = success.tokens + result.tokens;
    if total > 0 {
        let avail = card
            .skill
            .as_deref()
            .and_then(|k| {
                s.participant(who)
                    .and_then(|p| p.character.skill(&p.skill_for(k)))
            })
            .map_or(0, |k| k.available);
        if total > avail {
            return Err(RuleError::out_of_range(
                rules::BETTING,
                "tokens (Success + Result, one pool)",
                0,
                i64::from(avail),
                i64::from(total),
            ));
        }
    }
    if result.dice > 0 || result.tokens > 0 {
        let Some(rs) = card.result else {
            return Err(RuleError::forbidden(
                rules::BETTING,
                format!("{} has no Result stat (N/A)", card.name),
            ));
        };
        prepare_roll(s, who, rs, card.skill.as_deref(), result, rules::BETTING)?;
    }
    let ss = card.success.ok_or_else(|| {
        RuleError::forbidden(rules::CARDS, format!("{} is never rolled", card.name))
    })?;
    prepare_roll(s, who, ss, card.skill.as_deref(), success, rules::BETTING)?;
    Ok(())
}

/// Damage to a stat's Current Stat Value, doubled once by Frail, Despised or Lost.
/// Sour Grapes, "Injury, Exhaust & Damage" and "Stats" (000_05a1db5b88f54528.txt); R-SG-7, R-SG-10.
fn apply_damage(
    d: &mut Dec<'_>,
    who: &str,
    stat: Stat,
    points: u32,
    from: Option<Stat>,
    source: &str,
) {
    let factor =
        d.s.participant(who)
            .map_or(1, |p| p.character.damage_factor(stat, from));
    d.emit(Event::Damaged {
        who: who.to_string(),
        stat,
        points: points * factor,
        doubled: factor > 1,
        source: source.to_string(),
    });
}

/// End the turn and begin the next one (skipping Dying participants), or end the
/// Event when one side is all Dying.
fn end_turn(d: &mut Dec<'_>, reason: &str) {
    let Some(t) = d.s.turn().cloned() else { return };
    d.emit(Event::TurnEnded {
        controller: t.controller,
        reason: reason.to_string(),
    });
    next_turn(d);
}

/// The next Controller in initiative order; "New Round" when the order wraps;
/// Dying participants are skipped; countdown effects lose a token.
/// Sour Grapes, "Event" (Rounds, Turn) and "Effects" (000_05a1db5b88f54528.txt).
fn next_turn(d: &mut Dec<'_>) {
    if d.s.one_side_down() {
        d.emit(Event::EventEnded {
            reason: "one side is all Dying".into(),
        });
        return;
    }
    let Some(e) = d.s.event().cloned() else {
        return;
    };
    let n = e.order.len();
    if n == 0 {
        return;
    }
    let mut index = if e.round == 0 { n - 1 } else { e.index };
    let mut round = e.round;
    for _ in 0..=n {
        index += 1;
        if index >= n {
            index = 0;
            round += 1;
            d.emit(Event::NewRound { round });
            round_start_effects(d);
            if d.s.one_side_down() {
                d.emit(Event::EventEnded {
                    reason: "one side is all Dying".into(),
                });
                return;
            }
        }
        let Some(name) = e.order.get(index).cloned() else {
            return;
        };
        let alive =
            d.s.participant(&name)
                .is_some_and(|p| !p.character.has(Condition::Dying));
        if alive {
            d.emit(Event::TurnBegan {
                controller: name.clone(),
                index,
            });
            // Step 1: countdown effects lose a token; at none they are discarded.
            let effects =
                d.s.participant(&name)
                    .map(|p| p.effects.clone())
                    .unwrap_or_default();
            for eff in effects {
                let keep = d.s.card(&eff.card).and_then(|c| c.effect).map(|e| e.keep);
                if keep == Some(Keep::Countdown) {
                    let left = eff.tokens.saturating_sub(1);
                    d.emit(Event::EffectCountdown {
                        who: name.clone(),
                        effect: eff.card.clone(),
                        tokens: left,
                    });
                    if left == 0 {
                        d.emit(Event::EffectRemoved {
                            who: name.clone(),
                            effect: eff.card.clone(),
                        });
                    }
                }
            }
            return;
        }
    }
}

/// "New Round": effects that act at the beginning of a Round deal their damage
/// and count down. Sour Grapes, "Event" (Rounds).
fn round_start_effects(d: &mut Dec<'_>) {
    let holders: Vec<(String, Vec<ActiveEffect>)> =
        d.s.participants
            .iter()
            .map(|p| (p.character.name().to_string(), p.effects.clone()))
            .collect();
    for (who, effects) in holders {
        for eff in effects {
            let Some(rs) =
                d.s.card(&eff.card)
                    .and_then(|c| c.effect)
                    .and_then(|e| e.round_start)
            else {
                continue;
            };
            if let Some(stat) = rs.stat
                && rs.damage > 0
            {
                apply_damage(d, &who, stat, rs.damage, None, &eff.card);
            }
            if rs.countdown {
                let left = eff.tokens.saturating_sub(1);
                d.emit(Event::EffectCountdown {
                    who: who.clone(),
                    effect: eff.card.clone(),
                    tokens: left,
                });
                if left == 0 {
                    d.emit(Event::EffectRemoved {
                        who: who.clone(),
                        effect: eff.card.clone(),
                    });
                }
            }
        }
    }
}

/// Settle a slot: the most points wins (ties: the earlier offer); losers roll
/// their Success bet for exhaustion. Returns the winner.
///
/// Sour Grapes, "Turn Mechanics", Notes.
fn settle_slot(
    d: &mut Dec<'_>,
    slot: Slot,
    offers: &[CardPlay],
) -> Result<Option<CardPlay>, RuleError> {
    let Some(best) = offers
        .iter()
        .enumerate()
        .max_by_key(|(i, p)| {
            (
                p.success.points() + p.result.points(),
                std::cmp::Reverse(*i),
            )
        })
        .map(|(_, p)| p.clone())
    else {
        return Ok(None);
    };
    let losers: Vec<CardPlay> = offers.iter().filter(|p| p.by != best.by).cloned().collect();
    if !losers.is_empty() {
        d.emit(Event::SlotWon {
            slot,
            by: best.by.clone(),
            over: losers.iter().map(|l| l.by.clone()).collect(),
        });
        for l in losers {
            let card = find_card(&d.s, &l.card)?;
            if let Some(st) = card.success {
                roll_for(
                    d,
                    Purpose::LostSlot,
                    &l.by,
                    Some(&card.name),
                    st,
                    card.skill.as_deref(),
                    l.success,
                    None,
                    true,
                )?;
            }
        }
    }
    Ok(Some(best))
}

// ---------------------------------------------------------------- decide

/// Check a command against the rules and produce its events.
/// Sour Grapes, "Game Moments" (000_05a1db5b88f54528.txt) and the sections cited below.
fn decide(d: &mut Dec<'_>, seat: &Seat, cmd: &Command) -> Result<(), RuleError> {
    if d.s.over {
        return Err(wrong_phase(rules::MOMENTS, "the encounter is over"));
    }
    match cmd {
        Command::Spend { who, stat } => {
            let who = if seat.is_gm() {
                match who {
                    Some(w) => who_known(&d.s, w, rules::SPEND)?,
                    None => {
                        return Err(RuleError::forbidden(
                            rules::SPEND,
                            "say who spends: `as NAME`",
                        ));
                    }
                }
            } else {
                actor(&d.s, seat, who, rules::SPEND)?
            };
            let cur =
                d.s.participant(&who)
                    .map_or(0, |p| p.character.stat(*stat).current);
            if cur == 0 {
                return Err(RuleError::forbidden(
                    rules::SPEND,
                    format!("{who}'s {stat} is depleted: nothing to spend"),
                ));
            }
            d.emit(Event::Spent { who, stat: *stat });
        }
        Command::Check {
            who,
            stat,
            dice,
            tokens,
            skill,
            difficulty,
        } => {
            if matches!(d.s.moment, Moment::Event(_)) {
                return Err(wrong_phase(
                    rules::MOMENTS,
                    "inside an Event, actions are cards",
                ));
            }
            let who = actor(&d.s, seat, who, rules::CHECK)?;
            if *difficulty > MAX_DIFFICULTY {
                return Err(RuleError::out_of_range(
                    rules::CHECK,
                    "difficulty",
                    0,
                    i64::from(MAX_DIFFICULTY),
                    i64::from(*difficulty),
                ));
            }
            let in_situation = matches!(d.s.moment, Moment::Situation(_));
            let diff = difficulty + dazed(&d.s, &who);
            roll_for(
                d,
                Purpose::Check,
                &who,
                None,
                *stat,
                skill.as_deref(),
                Bet {
                    dice: *dice,
                    tokens: *tokens,
                },
                Some(diff + 1),
                in_situation,
            )?;
        }
        Command::GiveBack { who, stat, points } => {
            need_gm(seat, "give exhausted points back", rules::SPEND)?;
            let who = who_known(&d.s, who, rules::SPEND)?;
            let c = d.s.participant(&who).map(|p| p.character.clone());
            if let Some(c) = c {
                if let Some(why) = c.recovery_blocked(*stat) {
                    return Err(RuleError::forbidden(rules::STAT_MECHANICS, why));
                }
                let ex = c.stat(*stat).exhausted();
                if *points == 0 || *points > ex.min(MAX_POINTS) {
                    return Err(RuleError::out_of_range(
                        rules::SPEND,
                        "points",
                        1,
                        i64::from(ex),
                        i64::from(*points),
                    ));
                }
            }
            d.emit(Event::GivenBack {
                who,
                stat: *stat,
                points: *points,
            });
        }
        Command::TokensBack { who, skill, points } => {
            need_gm(seat, "give skill tokens back", rules::SKILLS)?;
            let who = who_known(&d.s, who, rules::SKILLS)?;
            let Some(k) =
                d.s.participant(&who)
                    .and_then(|p| p.character.skill(skill).cloned())
            else {
                return Err(RuleError::unknown(rules::SKILLS, "skill", skill));
            };
            let spent = k.rating - k.available;
            if *points == 0 || *points > spent {
                return Err(RuleError::out_of_range(
                    rules::SKILLS,
                    "tokens",
                    1,
                    i64::from(spent),
                    i64::from(*points),
                ));
            }
            d.emit(Event::TokensBack {
                who,
                skill: k.name,
                points: *points,
            });
        }
        Command::Reject { who } => {
            need_gm(seat, "reject a card", rules::TURN)?;
            let who = who_known(&d.s, who, rules::TURN)?;
            let Some(t) = d.s.turn() else {
                return Err(wrong_phase(rules::TURN, "no turn is running"));
            };
            let offered = t
                .interrupts
                .iter()
                .chain(&t.compliments)
                .chain(&t.diverts)
                .any(|p| p.by == who);
            if !offered || !matches!(t.step, Step::Interrupt | Step::Support) {
                return Err(RuleError::forbidden(
                    rules::TURN,
                    format!("{who} has no card offered in the open step"),
                ));
            }
            d.emit(Event::Rejected { who });
        }
        Command::Heal { who, stat } => {
            need_gm(seat, "remove an injury", rules::STAT_MECHANICS)?;
            let who = who_known(&d.s, who, rules::STAT_MECHANICS)?;
            let injured =
                d.s.participant(&who)
                    .is_some_and(|p| p.character.stat(*stat).injured);
            if !injured {
                return Err(RuleError::forbidden(
                    rules::STAT_MECHANICS,
                    format!("{who}'s {stat} is not injured"),
                ));
            }
            d.emit(Event::Healed { who, stat: *stat });
        }
        Command::Rest => {
            need_gm(seat, "call a rest", rules::STAT_MECHANICS)?;
            if !matches!(d.s.moment, Moment::Free) {
                return Err(wrong_phase(
                    rules::STAT_MECHANICS,
                    "rest after the Situation or Event is over",
                ));
            }
            let who =
                d.s.participants
                    .iter()
                    .map(|p| p.character.name().to_string())
                    .collect();
            d.emit(Event::Rested { who });
        }
        Command::Situation {
            who,
            stat,
            skill,
            difficulty,
        } => {
            need_gm(seat, "announce a Situation", rules::SITUATION)?;
            if !matches!(d.s.moment, Moment::Free) {
                return Err(wrong_phase(
                    rules::SITUATION,
                    "a Situation starts between other moments",
                ));
            }
            let who = who_known(&d.s, who, rules::SITUATION)?;
            if *difficulty > MAX_DIFFICULTY {
                return Err(RuleError::out_of_range(
                    rules::SITUATION,
                    "difficulty",
                    0,
                    i64::from(MAX_DIFFICULTY),
                    i64::from(*difficulty),
                ));
            }
            d.emit(Event::SituationStarted {
                who,
                stat: *stat,
                skill: skill.clone(),
                difficulty: *difficulty,
            });
        }
        Command::Difficulty { value } => {
            need_gm(seat, "change the Situation's difficulty", rules::SITUATION)?;
            let Moment::Situation(sit) = &d.s.moment else {
                return Err(wrong_phase(rules::SITUATION, "no Situation is running"));
            };
            if *value > MAX_DIFFICULTY {
                return Err(RuleError::out_of_range(
                    rules::SITUATION,
                    "difficulty",
                    0,
                    i64::from(MAX_DIFFICULTY),
                    i64::from(*value),
                ));
            }
            let from = sit.difficulty;
            d.emit(Event::DifficultyChanged { from, to: *value });
        }
        Command::Final { dice, tokens } => {
            let Moment::Situation(sit) = d.s.moment.clone() else {
                return Err(wrong_phase(rules::SITUATION, "no Situation is running"));
            };
            let seat_ok =
                seat.is_gm() || d.s.participant(&sit.who).is_some_and(|p| &p.seat == seat);
            if !seat_ok {
                return Err(not_your_turn(
                    rules::SITUATION,
                    format!("the final check is {}'s", sit.who),
                ));
            }
            let diff = sit.difficulty + dazed(&d.s, &sit.who);
            let r = roll_for(
                d,
                Purpose::SituationFinal,
                &sit.who,
                None,
                sit.stat,
                sit.skill.as_deref(),
                Bet {
                    dice: *dice,
                    tokens: *tokens,
                },
                Some(diff + 1),
                true,
            )?;
            d.emit(Event::SituationEnded {
                who: sit.who,
                success: passes(r.successes, diff),
            });
        }
        Command::StartEvent => {
            need_gm(seat, "declare an Event", rules::INITIATIVE)?;
            if !matches!(d.s.moment, Moment::Free) {
                return Err(wrong_phase(
                    rules::INITIATIVE,
                    "an Event starts between other moments",
                ));
            }
            let participants =
                d.s.participants
                    .iter()
                    .map(|p| p.character.name().to_string())
                    .collect();
            d.emit(Event::EventStarted { participants });
        }
        Command::Initiative { who, stat, dice } => initiative(d, seat, who, *stat, *dice)?,
        Command::EndEvent => {
            need_gm(seat, "end the Event", rules::INITIATIVE)?;
            if d.s.event().is_none() {
                return Err(wrong_phase(rules::INITIATIVE, "no Event is running"));
            }
            d.emit(Event::EventEnded {
                reason: "the storyteller ended it".into(),
            });
        }
        Command::Cure { who, effect } => {
            need_gm(seat, "remove an effect", rules::EFFECTS)?;
            let who = who_known(&d.s, who, rules::EFFECTS)?;
            let card = find_card(&d.s, effect)?;
            let has =
                d.s.participant(&who)
                    .is_some_and(|p| p.effects.iter().any(|e| key(&e.card) == key(&card.name)));
            if !has {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("{who} has no {} in play", card.name),
                ));
            }
            d.emit(Event::EffectRemoved {
                who,
                effect: card.name.clone(),
            });
        }
        Command::Afflict { who, card } => {
            need_gm(seat, "put an effect in play", rules::EFFECTS)?;
            let who = who_known(&d.s, who, rules::EFFECTS)?;
            let c = find_card(&d.s, card)?;
            let Some(spec) = c.effect else {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("{} is not an effect", c.name),
                ));
            };
            if d.s
                .participant(&who)
                .is_some_and(|p| p.effects.iter().any(|e| key(&e.card) == key(&c.name)))
            {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("{who} already has {}", c.name),
                ));
            }
            d.emit(Event::EffectAdded {
                who,
                effect: c.name.clone(),
                tokens: spec.tokens,
            });
        }
        Command::Award { who, points } => {
            need_gm(seat, "award experience", rules::EXPERIENCE)?;
            if !d.s.options.experience {
                return Err(RuleError::forbidden(
                    rules::EXPERIENCE,
                    "this table does not use the Experience rule (experience = true)",
                ));
            }
            let who = who_known(&d.s, who, rules::EXPERIENCE)?;
            let have =
                d.s.participant(&who)
                    .map_or(0, |p| p.character.experience());
            if *points == 0 || *points > MAX_POINTS || have + points > MAX_EXPERIENCE {
                return Err(RuleError::out_of_range(
                    rules::EXPERIENCE,
                    "points",
                    1,
                    i64::from(MAX_POINTS.min(MAX_EXPERIENCE - have)),
                    i64::from(*points),
                ));
            }
            d.emit(Event::Awarded {
                who,
                points: *points,
            });
        }
        Command::Raise { who, what } => {
            if !d.s.options.experience {
                return Err(RuleError::forbidden(
                    rules::EXPERIENCE,
                    "this table does not use the Experience rule (experience = true)",
                ));
            }
            if !matches!(d.s.moment, Moment::Free) {
                return Err(wrong_phase(
                    rules::EXPERIENCE,
                    "points are spent between moments (at chapter ends)",
                ));
            }
            let who = actor(&d.s, seat, who, rules::EXPERIENCE)?;
            let Some(p) = d.s.participant(&who) else {
                return Ok(());
            };
            if p.character.experience() == 0 {
                return Err(RuleError::forbidden(
                    rules::EXPERIENCE,
                    format!("{who} has no experience points"),
                ));
            }
            match what {
                Pool::Stat(st) if p.character.stat(*st).actual >= crate::stats::MAX_STAT => {
                    return Err(RuleError::forbidden(
                        rules::STATS,
                        format!("{st} is already 10"),
                    ));
                }
                Pool::Skill(k) => {
                    if k.is_empty() || k.len() > crate::character::MAX_NAME {
                        return Err(RuleError::forbidden(
                            rules::SKILLS,
                            "a skill needs a name of 1 to 80 bytes",
                        ));
                    }
                    match p.character.skill(k) {
                        Some(s) if s.rating >= crate::character::MAX_SKILL => {
                            return Err(RuleError::forbidden(
                                rules::SKILLS,
                                format!("{} is already masterclass (5)", s.name),
                            ));
                        }
                        None if p.character.skills().len() >= crate::character::MAX_SKILLS => {
                            return Err(RuleError::forbidden(
                                rules::SKILLS,
                                "the skill page is full",
                            ));
                        }
                        _ => {}
                    }
                }
                Pool::Stat(_) => {}
            }
            d.emit(Event::Raised {
                who,
                what: what.clone(),
            });
        }
        Command::Improve { who, card, damage } => {
            if !d.s.options.experience {
                return Err(RuleError::forbidden(
                    rules::EXPERIENCE,
                    "this table does not use the Experience rule (experience = true)",
                ));
            }
            if !matches!(d.s.moment, Moment::Free) {
                return Err(wrong_phase(
                    rules::EXPERIENCE,
                    "points are spent between moments (at chapter ends)",
                ));
            }
            let who = actor(&d.s, seat, who, rules::EXPERIENCE)?;
            let c = find_card(&d.s, card)?;
            let Some(p) = d.s.participant(&who) else {
                return Ok(());
            };
            if p.character.experience() == 0 {
                return Err(RuleError::forbidden(
                    rules::EXPERIENCE,
                    format!("{who} has no experience points"),
                ));
            }
            let b = p.character.card_bonus(&c.name);
            let (now, useful) = if *damage {
                (
                    b.damage,
                    matches!(c.outcome, Outcome::Damage | Outcome::ExtraDamage),
                )
            } else {
                (
                    b.easier,
                    matches!(c.value, CardValue::Needs(n) if n > b.easier),
                )
            };
            if !useful || now >= crate::character::MAX_CARD_BONUS {
                return Err(RuleError::forbidden(
                    rules::EXPERIENCE,
                    format!(
                        "{} cannot be made {} (a numeric value above the bonus, or a damage card; at most {} per card)",
                        c.name,
                        if *damage {
                            "to deal more damage"
                        } else {
                            "easier"
                        },
                        crate::character::MAX_CARD_BONUS
                    ),
                ));
            }
            d.emit(Event::Improved {
                who,
                card: c.name.clone(),
                damage: *damage,
            });
        }
        Command::EndEncounter => {
            need_gm(seat, "end the encounter", rules::MOMENTS)?;
            d.emit(Event::EncounterEnded);
        }
        _ => turn_command(d, seat, cmd)?,
    }
    Ok(())
}

/// Initiative: a check with any chosen stat that exhausts nothing, plus a d20;
/// remaining ties roll again. Sour Grapes, "Event"; R-SG-8.
fn initiative(
    d: &mut Dec<'_>,
    seat: &Seat,
    who: &Option<String>,
    stat: Stat,
    dice: u32,
) -> Result<(), RuleError> {
    let Some(e) = d.s.event().cloned() else {
        return Err(wrong_phase(
            rules::INITIATIVE,
            "no Event is running: the storyteller declares one with `event`",
        ));
    };
    if !e.order.is_empty() {
        return Err(wrong_phase(
            rules::INITIATIVE,
            "initiative is already settled",
        ));
    }
    // Without `as NAME`, the seat's first character still to roll.
    let pending_mine =
        d.s.controlled_by(seat)
            .into_iter()
            .find(|n| e.initiative.get(n).is_some_and(Option::is_none));
    let who = match (who, pending_mine) {
        (None, Some(n)) => n,
        _ => actor(&d.s, seat, who, rules::INITIATIVE)?,
    };
    if e.initiative.get(&who).is_some_and(Option::is_some) {
        return Err(RuleError::forbidden(
            rules::INITIATIVE,
            format!("{who} has rolled initiative"),
        ));
    }
    prepare_roll(
        &d.s,
        &who,
        stat,
        None,
        Bet { dice, tokens: 0 },
        rules::INITIATIVE,
    )?;
    let roll = CheckRoll::roll(d.roller, dice, 0)?;
    let d20 = if d.s.options.initiative_d20 {
        Some(d.roller.roll(Die::D20)?)
    } else {
        None
    };
    let total = roll.successes + d20.unwrap_or(0);
    d.emit(Event::InitiativeRolled {
        who,
        stat,
        roll,
        d20,
        total,
    });
    let e = d.s.event().cloned();
    if let Some(e) = e
        && e.initiative.values().all(Option::is_some)
    {
        // Order: highest total first; ties roll a d20 again (R-SG-8).
        let mut keys: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for (name, t) in &e.initiative {
            keys.insert(name.clone(), vec![t.unwrap_or(0)]);
        }
        let table_order: Vec<String> =
            d.s.participants
                .iter()
                .map(|p| p.character.name().to_string())
                .collect();
        for _ in 0..MAX_TIEBREAKS {
            let mut groups: BTreeMap<Vec<u32>, Vec<String>> = BTreeMap::new();
            for (n, k) in &keys {
                groups.entry(k.clone()).or_default().push(n.clone());
            }
            let tied: Vec<String> = groups
                .values()
                .filter(|g| g.len() > 1)
                .flatten()
                .cloned()
                .collect();
            if tied.is_empty() {
                break;
            }
            for n in tied {
                let r = d.roller.roll(Die::D20)?;
                if let Some(k) = keys.get_mut(&n) {
                    k.push(r);
                }
            }
        }
        let mut order = table_order.clone();
        order.sort_by(|a, b| {
            let ka = keys.get(a).cloned().unwrap_or_default();
            let kb = keys.get(b).cloned().unwrap_or_default();
            kb.cmp(&ka)
        });
        let tiebreaks = keys
            .iter()
            .filter(|(_, k)| k.len() > 1)
            .map(|(n, k)| (n.clone(), k.iter().skip(1).copied().collect()))
            .collect();
        d.emit(Event::InitiativeSettled { order, tiebreaks });
        next_turn(d);
    }
    Ok(())
}

/// The commands of a turn's steps.
/// Sour Grapes, "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn turn_command(d: &mut Dec<'_>, seat: &Seat, cmd: &Command) -> Result<(), RuleError> {
    let Some(t) = d.s.turn().cloned() else {
        return Err(wrong_phase(
            rules::TURN,
            match d.s.event() {
                Some(_) => "initiative first: every participant rolls `initiative STAT DICE`",
                None => "that is done on a turn of an Event; no Event is running",
            },
        ));
    };
    let controller_seat = d.s.participant(&t.controller).map(|p| p.seat.clone());
    let is_controller = controller_seat.as_ref() == Some(seat);
    let controller_only = |what: &str| -> Result<(), RuleError> {
        if is_controller {
            Ok(())
        } else {
            Err(not_your_turn(
                rules::TURN,
                format!("only the Controller, {}, may {what}", t.controller),
            ))
        }
    };
    let step_is = |step: Step, rule: Rule| -> Result<(), RuleError> {
        if t.step == step {
            Ok(())
        } else {
            Err(wrong_phase(
                rule,
                format!("the turn is at {}, not {}", t.step.title(), step.title()),
            ))
        }
    };
    match cmd {
        Command::Recover { into } => {
            controller_only("use the free point")?;
            step_is(Step::Prep, rules::PREP)?;
            if !t.free_point {
                return Err(RuleError::forbidden(
                    rules::PREP,
                    "the free point of this turn is used",
                ));
            }
            let Some(p) = d.s.participant(&t.controller) else {
                return Ok(());
            };
            match into {
                Pool::Stat(st) => {
                    if let Some(why) = p.character.recovery_blocked(*st) {
                        return Err(RuleError::forbidden(rules::PREP, why));
                    }
                    if p.character.stat(*st).exhausted() == 0 {
                        return Err(RuleError::forbidden(
                            rules::PREP,
                            format!("{st} is not exhausted"),
                        ));
                    }
                }
                Pool::Skill(k) => match p.character.skill(k) {
                    None => return Err(RuleError::unknown(rules::PREP, "skill", k)),
                    Some(s) if s.available >= s.rating => {
                        return Err(RuleError::forbidden(
                            rules::PREP,
                            format!("{} has no spent token", s.name),
                        ));
                    }
                    _ => {}
                },
            }
            d.emit(Event::FreePoint {
                who: t.controller.clone(),
                into: into.clone(),
            });
        }
        Command::Keep { effect, bet } => {
            controller_only("roll for an effect")?;
            step_is(Step::Prep, rules::EFFECTS)?;
            let card = find_card(&d.s, effect)?;
            if !t.pending_effects.iter().any(|e| key(e) == key(&card.name)) {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("{} is not an effect to roll for now", card.name),
                ));
            }
            let Some(st) = card.success else {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("{} has no Success stat to roll", card.name),
                ));
            };
            let need = card_needs(&d.s, &card, &t.controller, 0);
            let r = roll_for(
                d,
                Purpose::KeepEffect,
                &t.controller,
                Some(&card.name),
                st,
                card.skill.as_deref(),
                *bet,
                Some(need),
                true,
            )?;
            if r.successes >= need {
                d.emit(Event::EffectKept {
                    who: t.controller.clone(),
                    effect: card.name.clone(),
                });
            } else {
                d.emit(Event::EffectRemoved {
                    who: t.controller.clone(),
                    effect: card.name.clone(),
                });
            }
        }
        Command::Discard { effect } => {
            controller_only("discard an effect")?;
            step_is(Step::Prep, rules::EFFECTS)?;
            let card = find_card(&d.s, effect)?;
            let has =
                d.s.participant(&t.controller)
                    .is_some_and(|p| p.effects.iter().any(|e| key(&e.card) == key(&card.name)));
            if !has {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("{} has no {} in play", t.controller, card.name),
                ));
            }
            if matches!(
                card.effect.map(|e| e.keep),
                Some(Keep::Countdown | Keep::Stays)
            ) {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!(
                        "{} cannot be discarded until its tokens are gone or the storyteller removes it",
                        card.name
                    ),
                ));
            }
            d.emit(Event::EffectRemoved {
                who: t.controller.clone(),
                effect: card.name.clone(),
            });
        }
        Command::EndTurn => {
            controller_only("end the turn")?;
            step_is(Step::Prep, rules::TURN)?;
            end_turn(d, "the Controller ended the turn without a Stunt");
        }
        Command::Stunt { card } => {
            controller_only("lay down a Stunt")?;
            step_is(Step::Prep, rules::STUNT)?;
            if let Some(e) = t.pending_effects.first() {
                return Err(RuleError::forbidden(
                    rules::EFFECTS,
                    format!("first roll for {e} (`keep`) or discard it"),
                ));
            }
            let c = find_card(&d.s, card)?;
            may_play(&d.s, &t.controller, &c, CardType::Stunt)?;
            d.emit(Event::StuntPlayed {
                by: t.controller.clone(),
                card: c.name.clone(),
            });
        }
        Command::Interrupt { who, card, bet } => {
            step_is(Step::Interrupt, rules::INTERRUPT)?;
            let who = actor(&d.s, seat, who, rules::INTERRUPT)?;
            if who == t.controller {
                return Err(not_permitted(
                    rules::INTERRUPT,
                    "the Controller does not interrupt their own Stunt",
                ));
            }
            if t.interrupts.iter().any(|p| p.by == who) {
                return Err(RuleError::forbidden(
                    rules::INTERRUPT,
                    format!("{who} has offered an Interrupt"),
                ));
            }
            let c = find_card(&d.s, card)?;
            may_play(&d.s, &who, &c, CardType::Interrupt)?;
            check_bet_tokens(&d.s, &who, &c, *bet, Bet::default())?;
            d.emit(Event::Offered {
                slot: Slot::Interrupt,
                play: CardPlay {
                    by: who,
                    card: c.name.clone(),
                    success: *bet,
                    result: Bet::default(),
                    to: None,
                },
            });
        }
        Command::Pass => {
            if !(is_controller || seat.is_gm()) {
                return Err(not_your_turn(
                    rules::TURN,
                    format!(
                        "the Controller ({}) or the storyteller closes the step",
                        t.controller
                    ),
                ));
            }
            match t.step {
                Step::Interrupt => close_interrupts(d, &t)?,
                Step::Support => close_support(d, &t)?,
                other => {
                    return Err(wrong_phase(
                        rules::TURN,
                        format!("nothing to pass at {}", other.title()),
                    ));
                }
            }
        }
        Command::Target {
            targets,
            success,
            result,
        } => {
            controller_only("declare targets and bets")?;
            step_is(Step::Targeting, rules::BETTING)?;
            let c = find_card(&d.s, t.stunt.as_deref().unwrap_or(""))?;
            let mut names = Vec::new();
            for n in targets {
                let n = who_known(&d.s, n, rules::BETTING)?;
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            let wants_targets = matches!(c.outcome, Outcome::Damage) || c.target.is_some();
            if wants_targets && names.is_empty() {
                return Err(RuleError::forbidden(
                    rules::BETTING,
                    format!("{} needs a target", c.name),
                ));
            }
            if !wants_targets && !names.is_empty() {
                return Err(RuleError::forbidden(
                    rules::BETTING,
                    format!("{} has no Target (N/A)", c.name),
                ));
            }
            if let Some(m) = c.max_targets
                && names.len() > m as usize
            {
                return Err(RuleError::out_of_range(
                    rules::BETTING,
                    "targets",
                    1,
                    i64::from(m),
                    names.len() as i64,
                ));
            }
            check_bet_tokens(&d.s, &t.controller, &c, *success, *result)?;
            d.emit(Event::TargetsDeclared {
                targets: names,
                success: *success,
                result: *result,
            });
        }
        Command::Compliment {
            who,
            card,
            success,
            result,
        } => {
            step_is(Step::Support, rules::COMPLIMENT)?;
            let who = actor(&d.s, seat, who, rules::COMPLIMENT)?;
            if t.compliments.iter().any(|p| p.by == who) {
                return Err(RuleError::forbidden(
                    rules::COMPLIMENT,
                    format!("{who} has offered a Compliment"),
                ));
            }
            let c = find_card(&d.s, card)?;
            may_play(&d.s, &who, &c, CardType::Compliment)?;
            check_bet_tokens(&d.s, &who, &c, *success, *result)?;
            d.emit(Event::Offered {
                slot: Slot::Compliment,
                play: CardPlay {
                    by: who,
                    card: c.name.clone(),
                    success: *success,
                    result: *result,
                    to: None,
                },
            });
        }
        Command::Divert {
            who,
            card,
            success,
            to,
        } => {
            step_is(Step::Support, rules::DIVERT)?;
            let who = actor(&d.s, seat, who, rules::DIVERT)?;
            if t.diverts.iter().any(|p| p.by == who) {
                return Err(RuleError::forbidden(
                    rules::DIVERT,
                    format!("{who} has offered a Divert"),
                ));
            }
            let to = who_known(&d.s, to, rules::DIVERT)?;
            let c = find_card(&d.s, card)?;
            may_play(&d.s, &who, &c, CardType::Divert)?;
            check_bet_tokens(&d.s, &who, &c, *success, Bet::default())?;
            d.emit(Event::Offered {
                slot: Slot::Divert,
                play: CardPlay {
                    by: who,
                    card: c.name.clone(),
                    success: *success,
                    result: Bet::default(),
                    to: Some(to),
                },
            });
        }
        Command::React { who, card, bet } => {
            step_is(Step::Reaction, rules::REACTION)?;
            let who = reactor(&d.s, seat, who, &t)?;
            let c = find_card(&d.s, card)?;
            may_play(&d.s, &who, &c, CardType::Reaction)?;
            let stunt = find_card(&d.s, t.stunt.as_deref().unwrap_or(""))?;
            if let Some(p) = d.s.participant(&who) {
                if stunt.is_mental() && p.character.has(Condition::Panicked) {
                    return Err(RuleError::forbidden(
                        rules::CONDITIONS,
                        format!("{who} is Panicked: Mental actions cannot be reacted against"),
                    ));
                }
                if stunt.is_physical() && p.character.has(Condition::Incapacitated) {
                    return Err(RuleError::forbidden(
                        rules::CONDITIONS,
                        format!(
                            "{who} is Incapacitated: Physical actions cannot be reacted against"
                        ),
                    ));
                }
            }
            check_bet_tokens(&d.s, &who, &c, *bet, Bet::default())?;
            d.emit(Event::Reacted {
                who,
                play: Some(CardPlay {
                    by: String::new(),
                    card: c.name.clone(),
                    success: *bet,
                    result: Bet::default(),
                    to: None,
                }),
            });
            after_reaction(d)?;
        }
        Command::Take { who } => {
            step_is(Step::Reaction, rules::REACTION)?;
            let who = reactor(&d.s, seat, who, &t)?;
            d.emit(Event::Reacted { who, play: None });
            after_reaction(d)?;
        }
        _ => {
            return Err(wrong_phase(
                rules::MOMENTS,
                "that command is not for this moment",
            ));
        }
    }
    Ok(())
}

/// The receiver a Reaction command is for: a receiver the seat plays who has not
/// reacted. Sour Grapes, "Turn Mechanics", Notes: only targets react, one each.
fn reactor(s: &State, seat: &Seat, who: &Option<String>, t: &Turn) -> Result<String, RuleError> {
    let pending: Vec<&String> = t
        .receivers
        .iter()
        .filter(|r| !t.reactions.contains_key(*r))
        .collect();
    let mine: Vec<String> = pending
        .iter()
        .filter(|r| s.participant(r).is_some_and(|p| &p.seat == seat))
        .map(|r| (*r).clone())
        .collect();
    match who {
        Some(w) => {
            let name = who_known(s, w, rules::REACTION)?;
            if !t.receivers.contains(&name) {
                return Err(not_permitted(
                    rules::REACTION,
                    format!("{name} is not a target of the Stunt: only targets react"),
                ));
            }
            if t.reactions.contains_key(&name) {
                return Err(RuleError::forbidden(
                    rules::REACTION,
                    format!("{name} has reacted: one Reaction per player"),
                ));
            }
            if !mine.contains(&name) {
                return Err(not_permitted(
                    rules::SEATS,
                    format!("{seat} does not play {name}"),
                ));
            }
            Ok(name)
        }
        None => mine.into_iter().next().ok_or_else(|| {
            not_your_turn(
                rules::REACTION,
                format!(
                    "{seat} has no target left to react; waiting for {}",
                    pending
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        }),
    }
}

/// Step 3 closes: the one Interrupt (most points) rolls; if it succeeds it
/// applies and the turn is over.
/// Sour Grapes, "Interrupt" and "Turn Mechanics" step 3 (000_05a1db5b88f54528.txt); R-SG-2.
fn close_interrupts(d: &mut Dec<'_>, t: &Turn) -> Result<(), RuleError> {
    let winner = settle_slot(d, Slot::Interrupt, &t.interrupts)?;
    if let Some(w) = winner {
        let card = find_card(&d.s, &w.card)?;
        let need = card_needs(&d.s, &card, &w.by, 0);
        let st = card.success.unwrap_or(Stat::Perception);
        let r = roll_for(
            d,
            Purpose::Interrupt,
            &w.by,
            Some(&card.name),
            st,
            card.skill.as_deref(),
            w.success,
            Some(need),
            true,
        )?;
        if r.successes >= need {
            if let Outcome::FixedDamage { points, stat } = card.outcome {
                apply_damage(d, &t.controller, stat, points, card.result, &card.name);
            }
            end_turn(
                d,
                &format!("{}'s {} interrupted the Stunt", w.by, card.name),
            );
            return Ok(());
        }
    }
    d.emit(Event::StepReached {
        step: Step::Targeting,
    });
    Ok(())
}

/// Step 5 closes and step 6 runs: the Divert's and the Compliment's success
/// rolls decide the receiver and the modification.
/// Sour Grapes, "Turn Mechanics" steps 5-6, "Compliment", "Divert" (000_05a1db5b88f54528.txt); R-SG-6.
fn close_support(d: &mut Dec<'_>, t: &Turn) -> Result<(), RuleError> {
    // Step 6: success rolls for the Divert and the Compliment.
    if let Some(w) = settle_slot(d, Slot::Divert, &t.diverts)? {
        let card = find_card(&d.s, &w.card)?;
        let need = card_needs(&d.s, &card, &w.by, 0);
        let st = card.success.unwrap_or(Stat::Agility);
        let r = roll_for(
            d,
            Purpose::Divert,
            &w.by,
            Some(&card.name),
            st,
            card.skill.as_deref(),
            w.success,
            Some(need),
            true,
        )?;
        if r.successes >= need
            && let Some(to) = w.to
        {
            d.emit(Event::Diverted {
                from: t.receivers.clone(),
                to,
            });
        }
    }
    if let Some(w) = settle_slot(d, Slot::Compliment, &t.compliments)? {
        let card = find_card(&d.s, &w.card)?;
        let need = card_needs(&d.s, &card, &w.by, 0);
        let st = card.success.unwrap_or(Stat::Knowledge);
        let r = roll_for(
            d,
            Purpose::Compliment,
            &w.by,
            Some(&card.name),
            st,
            card.skill.as_deref(),
            w.success,
            Some(need),
            true,
        )?;
        if r.successes >= need {
            d.emit(Event::ComplimentApplies { play: w });
        }
    }
    d.emit(Event::StepReached {
        step: Step::Reaction,
    });
    after_reaction(d)
}

/// When every receiver has reacted (or there are none), run step 8.
fn after_reaction(d: &mut Dec<'_>) -> Result<(), RuleError> {
    let Some(t) = d.s.turn().cloned() else {
        return Ok(());
    };
    if t.receivers.iter().any(|r| !t.reactions.contains_key(r)) {
        return Ok(());
    }
    final_rolls(d, &t)
}

/// Step 8: the Stunt's roll against each Reaction; damage rolled once and applied
/// to every failed Reaction. Sour Grapes, "Turn Mechanics" step 8; R-SG-5, R-SG-7,
/// R-SG-10.
fn final_rolls(d: &mut Dec<'_>, t: &Turn) -> Result<(), RuleError> {
    let stunt = find_card(&d.s, t.stunt.as_deref().unwrap_or(""))?;
    let need = card_needs(&d.s, &stunt, &t.controller, 0);
    let st = stunt.success.unwrap_or(Stat::Agility);
    let r = roll_for(
        d,
        Purpose::Stunt,
        &t.controller,
        Some(&stunt.name),
        st,
        stunt.skill.as_deref(),
        t.success,
        Some(need),
        true,
    )?;
    let stunt_ok = r.successes >= need;
    let mut hit: Vec<String> = Vec::new();
    for recv in &t.receivers {
        let mut dodged = false;
        if let Some(Some(play)) = t.reactions.get(recv) {
            let card = find_card(&d.s, &play.card)?;
            let rneed = card_needs(&d.s, &card, recv, r.successes);
            let rst = card.success.unwrap_or(Stat::Agility);
            let rr = roll_for(
                d,
                Purpose::Reaction,
                recv,
                Some(&card.name),
                rst,
                card.skill.as_deref(),
                play.success,
                Some(rneed),
                true,
            )?;
            dodged = rr.successes >= rneed && card.outcome == Outcome::Evade;
        }
        if !dodged {
            hit.push(recv.clone());
        }
    }
    if stunt_ok {
        match stunt.outcome {
            Outcome::Damage if !hit.is_empty() => {
                let rs = stunt.result.unwrap_or(Stat::Might);
                let dmg = roll_for(
                    d,
                    Purpose::Damage,
                    &t.controller,
                    Some(&stunt.name),
                    rs,
                    stunt.skill.as_deref(),
                    t.result,
                    None,
                    true,
                )?;
                let extra = match &t.compliment {
                    Some(c) => {
                        let card = find_card(&d.s, &c.card)?;
                        match (card.outcome, card.result, card.target) {
                            (Outcome::ExtraDamage, Some(crs), Some(ct)) => {
                                let x = roll_for(
                                    d,
                                    Purpose::ExtraDamage,
                                    &c.by,
                                    Some(&card.name),
                                    crs,
                                    card.skill.as_deref(),
                                    c.result,
                                    None,
                                    true,
                                )?;
                                let bonus =
                                    d.s.participant(&c.by)
                                        .map_or(0, |p| p.character.card_bonus(&card.name).damage);
                                Some((x.successes + bonus, ct, crs, card.name.clone(), false))
                            }
                            (Outcome::LessDamage, Some(crs), _) => {
                                let x = roll_for(
                                    d,
                                    Purpose::LessDamage,
                                    &c.by,
                                    Some(&card.name),
                                    crs,
                                    card.skill.as_deref(),
                                    c.result,
                                    None,
                                    true,
                                )?;
                                Some((x.successes, crs, crs, card.name.clone(), true))
                            }
                            _ => None,
                        }
                    }
                    None => None,
                };
                let target = stunt.target.unwrap_or(Stat::Vitality);
                let less = match &extra {
                    Some((x, _, _, _, true)) => *x,
                    _ => 0,
                };
                let bonus =
                    d.s.participant(&t.controller)
                        .map_or(0, |p| p.character.card_bonus(&stunt.name).damage);
                let stunt_damage = (dmg.successes + bonus).saturating_sub(less);
                for h in &hit {
                    if stunt_damage > 0 {
                        apply_damage(d, h, target, stunt_damage, Some(rs), &stunt.name);
                    }
                    if let Some((x, ct, crs, name, false)) = &extra
                        && *x > 0
                    {
                        apply_damage(d, h, *ct, *x, Some(*crs), name);
                    }
                }
            }
            Outcome::ApplyEffect => {
                let has = d
                    .s
                    .participant(&t.controller)
                    .is_some_and(|p| p.effects.iter().any(|e| key(&e.card) == key(&stunt.name)));
                if !has {
                    d.emit(Event::EffectAdded {
                        who: t.controller.clone(),
                        effect: stunt.name.clone(),
                        tokens: stunt.effect.map_or(0, |e| e.tokens),
                    });
                }
            }
            _ => {}
        }
    }
    end_turn(
        d,
        if stunt_ok {
            "the Stunt resolved"
        } else {
            "the Stunt failed"
        },
    );
    Ok(())
}

// ---------------------------------------------------------------- evolve

/// Apply one event; never rolls, never fails.
fn evolve(s: &mut State, e: &Event) {
    match e {
        Event::Spent { who, stat } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).lower(1);
            }
        }
        Event::GivenBack { who, stat, points } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).raise(*points);
            }
        }
        Event::TokensBack { who, skill, points } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.recover_skill(skill, *points);
            }
        }
        Event::Rejected { who } => {
            if let Some(t) = s.turn_mut() {
                t.interrupts.retain(|p| &p.by != who);
                t.compliments.retain(|p| &p.by != who);
                t.diverts.retain(|p| &p.by != who);
            }
        }
        Event::Healed { who, stat } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).injured = false;
            }
        }
        Event::Rested { who } => {
            for w in who {
                if let Some(p) = s.participant_mut(w) {
                    for st in Stat::ALL {
                        if p.character.recovery_blocked(st).is_none() {
                            let v = p.character.stat(st);
                            p.character.stat_mut(st).raise(v.exhausted());
                        }
                    }
                    p.character.recover_all_skills();
                }
            }
        }
        Event::Rolled {
            who,
            skill,
            exhausts,
            tokens_spent,
            ..
        } => {
            if let Some(p) = s.participant_mut(who) {
                for (st, n) in exhausts {
                    p.character.stat_mut(*st).lower(*n);
                }
                if let Some(k) = skill
                    && *tokens_spent > 0
                {
                    p.character.spend_tokens(k, *tokens_spent);
                }
            }
        }
        Event::SituationStarted {
            who,
            stat,
            skill,
            difficulty,
        } => {
            s.moment = Moment::Situation(Situation {
                who: who.clone(),
                stat: *stat,
                skill: skill.clone(),
                difficulty: *difficulty,
                history: vec![*difficulty],
            });
        }
        Event::DifficultyChanged { to, .. } => {
            if let Moment::Situation(sit) = &mut s.moment {
                sit.difficulty = *to;
                sit.history.push(*to);
            }
        }
        Event::SituationEnded { who, .. } => {
            s.moment = Moment::Free;
            if let Some(p) = s.participant_mut(who) {
                p.character.recover_all_skills();
            }
        }
        Event::EventStarted { participants } => {
            s.moment = Moment::Event(Box::new(EventState {
                initiative: participants.iter().map(|p| (p.clone(), None)).collect(),
                order: Vec::new(),
                round: 0,
                index: 0,
                turn: None,
            }));
        }
        Event::InitiativeRolled { who, total, .. } => {
            if let Some(e) = s.event_mut() {
                e.initiative.insert(who.clone(), Some(*total));
            }
        }
        Event::InitiativeSettled { order, .. } => {
            if let Some(e) = s.event_mut() {
                e.order = order.clone();
            }
        }
        Event::NewRound { round } => {
            if let Some(e) = s.event_mut() {
                e.round = *round;
            }
        }
        Event::TurnBegan { controller, index } => {
            let pending: Vec<String> = s
                .participant(controller)
                .map(|p| {
                    p.effects
                        .iter()
                        .filter(|e| {
                            s.card(&e.card).and_then(|c| c.effect).map(|x| x.keep)
                                == Some(Keep::Roll)
                        })
                        .map(|e| e.card.clone())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(e) = s.event_mut() {
                e.index = *index;
                e.turn = Some(Turn::new(controller.clone(), pending));
            }
        }
        Event::EffectCountdown {
            who,
            effect,
            tokens,
        } => {
            if let Some(p) = s.participant_mut(who)
                && let Some(x) = p.effects.iter_mut().find(|x| &x.card == effect)
            {
                x.tokens = *tokens;
            }
        }
        Event::EffectAdded {
            who,
            effect,
            tokens,
        } => {
            if let Some(p) = s.participant_mut(who) {
                p.effects.push(ActiveEffect {
                    card: effect.clone(),
                    tokens: *tokens,
                });
            }
        }
        Event::EffectRemoved { who, effect } => {
            if let Some(p) = s.participant_mut(who) {
                p.effects.retain(|x| &x.card != effect);
            }
            if let Some(t) = s.turn_mut() {
                t.pending_effects.retain(|x| x != effect);
            }
        }
        Event::EffectKept { effect, .. } => {
            if let Some(t) = s.turn_mut() {
                t.pending_effects.retain(|x| x != effect);
            }
        }
        Event::FreePoint { who, into } => {
            if let Some(p) = s.participant_mut(who) {
                match into {
                    Pool::Stat(st) => p.character.stat_mut(*st).raise(1),
                    Pool::Skill(k) => p.character.recover_skill(k, 1),
                }
            }
            if let Some(t) = s.turn_mut() {
                t.free_point = false;
            }
        }
        Event::StuntPlayed { card, .. } => {
            if let Some(t) = s.turn_mut() {
                t.stunt = Some(card.clone());
                t.step = Step::Interrupt;
            }
        }
        Event::Offered { slot, play } => {
            if let Some(t) = s.turn_mut() {
                match slot {
                    Slot::Interrupt => t.interrupts.push(play.clone()),
                    Slot::Compliment => t.compliments.push(play.clone()),
                    Slot::Divert => t.diverts.push(play.clone()),
                }
            }
        }
        Event::SlotWon { .. } => {}
        Event::StepReached { step } => {
            if let Some(t) = s.turn_mut() {
                t.step = *step;
            }
        }
        Event::TargetsDeclared {
            targets,
            success,
            result,
        } => {
            if let Some(t) = s.turn_mut() {
                t.targets = targets.clone();
                t.receivers = targets.clone();
                t.success = *success;
                t.result = *result;
                t.step = Step::Support;
            }
        }
        Event::Diverted { to, .. } => {
            if let Some(t) = s.turn_mut() {
                t.receivers = vec![to.clone()];
            }
        }
        Event::ComplimentApplies { play } => {
            if let Some(t) = s.turn_mut() {
                t.compliment = Some(play.clone());
            }
        }
        Event::Reacted { who, play } => {
            if let Some(t) = s.turn_mut() {
                t.reactions.insert(who.clone(), play.clone());
            }
        }
        Event::Damaged {
            who, stat, points, ..
        } => {
            if let Some(p) = s.participant_mut(who) {
                p.character.stat_mut(*stat).lower(*points);
            }
        }
        Event::TurnEnded { .. } => {
            if let Some(e) = s.event_mut() {
                e.turn = None;
            }
        }
        Event::EventEnded { .. } => {
            s.moment = Moment::Free;
        }
        Event::Awarded { who, points } => {
            if let Some(p) = s.participant_mut(who) {
                let x = p.character.experience().saturating_add(*points);
                p.character.set_experience(x);
            }
        }
        Event::Improved { who, card, damage } => {
            if let Some(p) = s.participant_mut(who) {
                let x = p.character.experience().saturating_sub(1);
                p.character.set_experience(x);
                p.character.improve_card(card, *damage);
            }
        }
        Event::Raised { who, what } => {
            if let Some(p) = s.participant_mut(who) {
                let x = p.character.experience().saturating_sub(1);
                p.character.set_experience(x);
                match what {
                    Pool::Stat(st) => p.character.raise_stat(*st),
                    Pool::Skill(k) => p.character.raise_skill(k),
                }
            }
        }
        Event::EncounterEnded => {
            s.over = true;
        }
    }
}

// ---------------------------------------------------------------- view & legal

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

fn names(s: &State) -> Vec<String> {
    s.participants
        .iter()
        .map(|p| p.character.name().to_string())
        .collect()
}

fn stat_names() -> Vec<String> {
    Stat::ALL.iter().map(|s| s.name().to_string()).collect()
}

fn cards_of(s: &State, who: &str, kind: CardType) -> Vec<String> {
    s.participant(who)
        .map(|p| {
            p.cards
                .iter()
                .filter_map(|c| s.card(c))
                .filter(|c| c.kind == kind && may_play(s, who, c, kind).is_ok())
                .map(|c| c.name.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn legal(s: &State, seat: &Seat) -> Vec<CommandSpec> {
    let mut out = Vec::new();
    if s.over {
        return out;
    }
    let mine = s.controlled_by(seat);
    let gm = seat.is_gm();
    if gm {
        out.push(CommandSpec::new(
            "afflict",
            "put an effect card on a character. `afflict EFFECT as NAME`",
            vec![
                ParamSpec::choice(
                    "card",
                    s.cards
                        .iter()
                        .filter(|c| c.effect.is_some())
                        .map(|c| c.name.clone()),
                ),
                ParamSpec::choice("as", names(s)),
            ],
        ));
        let in_play: Vec<String> = s
            .participants
            .iter()
            .flat_map(|p| p.effects.iter().map(|e| e.card.clone()))
            .collect();
        if !in_play.is_empty() {
            out.push(CommandSpec::new(
                "cure",
                "remove an effect (its condition is met). `cure EFFECT as NAME`",
                vec![
                    ParamSpec::choice("effect", in_play),
                    ParamSpec::choice("as", names(s)),
                ],
            ));
        }
    }
    let max_cur = |who: &str, st: Option<Stat>| {
        s.participant(who)
            .and_then(|p| st.map(|st| i64::from(p.character.stat(st).current)))
            .unwrap_or(0)
    };
    match &s.moment {
        Moment::Free | Moment::Situation(_) => {
            if !mine.is_empty() && !gm {
                out.push(CommandSpec::new(
                    "spend",
                    "Spend: exhaust a point of a stat, no roll",
                    vec![ParamSpec::choice("stat", stat_names())],
                ));
                out.push(CommandSpec::new("check", "Check: dice up to the stat, tokens up to the skill; success when more than the difficulty. `check STAT DICE [TOKENS] vs D [with SKILL]`", vec![
                    ParamSpec::choice("stat", stat_names()),
                    ParamSpec::int("dice", 0, 10),
                    ParamSpec::int("tokens", 0, 5),
                    ParamSpec::int("difficulty (vs)", 0, i64::from(MAX_DIFFICULTY)),
                    ParamSpec::text("skill (with)"),
                ]));
            }
            if gm {
                out.push(CommandSpec::new(
                    "spend",
                    "Spend, dictated to a player (`as NAME`)",
                    vec![
                        ParamSpec::choice("stat", stat_names()),
                        ParamSpec::choice("as", names(s)),
                    ],
                ));
                out.push(CommandSpec::new(
                    "check",
                    "a Check for a monster (`as NAME`)",
                    vec![
                        ParamSpec::choice("stat", stat_names()),
                        ParamSpec::int("dice", 0, 10),
                        ParamSpec::int("tokens", 0, 5),
                        ParamSpec::int("difficulty (vs)", 0, i64::from(MAX_DIFFICULTY)),
                        ParamSpec::text("skill (with)"),
                        ParamSpec::choice("as", mine.clone()),
                    ],
                ));
                out.push(CommandSpec::new(
                    "giveback",
                    "give exhausted points (or skill tokens) back. `giveback STAT-or-SKILL [N] as NAME`",
                    vec![
                        ParamSpec::choice("stat", stat_names()),
                        ParamSpec::int("points", 1, 10),
                        ParamSpec::choice("as", names(s)),
                    ],
                ));
                out.push(CommandSpec::new(
                    "heal",
                    "remove an injury",
                    vec![
                        ParamSpec::choice("stat", stat_names()),
                        ParamSpec::choice("as", names(s)),
                    ],
                ));
            }
            if let Moment::Situation(sit) = &s.moment {
                if gm {
                    out.push(CommandSpec::new(
                        "difficulty",
                        "raise or lower the Situation's difficulty",
                        vec![ParamSpec::int("difficulty", 0, i64::from(MAX_DIFFICULTY))],
                    ));
                }
                if gm || mine.contains(&sit.who) {
                    out.push(CommandSpec::new(
                        "final",
                        "the Situation's final check",
                        vec![
                            ParamSpec::int("dice", 0, max_cur(&sit.who, Some(sit.stat))),
                            ParamSpec::int("tokens", 0, 5),
                        ],
                    ));
                }
            } else if gm {
                out.push(CommandSpec::new(
                    "situation",
                    "announce a Situation: a running difficulty ending in a final check. `situation D STAT [with SKILL] as NAME`",
                    vec![
                        ParamSpec::int("difficulty", 0, i64::from(MAX_DIFFICULTY)),
                        ParamSpec::choice("stat", stat_names()),
                        ParamSpec::text("skill (with)"),
                        ParamSpec::choice("as", names(s)),
                    ],
                ));
                out.push(CommandSpec::new(
                    "event",
                    "declare an Event: initiative, rounds, turns",
                    vec![],
                ));
                out.push(CommandSpec::new(
                    "rest",
                    "a short rest: uninjured stats and skills recover",
                    vec![],
                ));
                out.push(CommandSpec::new(
                    "end-encounter",
                    "end the encounter",
                    vec![],
                ));
                if s.options.experience {
                    out.push(CommandSpec::new(
                        "award",
                        "Experience: award points",
                        vec![
                            ParamSpec::int("points", 1, i64::from(MAX_POINTS)),
                            ParamSpec::choice("as", names(s)),
                        ],
                    ));
                }
            }
            if matches!(s.moment, Moment::Free)
                && s.options.experience
                && mine.iter().any(|m| {
                    s.participant(m)
                        .is_some_and(|p| p.character.experience() > 0)
                })
            {
                out.push(CommandSpec::new(
                    "raise",
                    "Experience: spend a point to raise a stat or skill by one",
                    vec![ParamSpec::text("stat or skill")],
                ));
                out.push(CommandSpec::new(
                    "improve",
                    "Experience: spend a point on a card: one success less, or one more damage. `improve CARD easier|damage`",
                    vec![
                        ParamSpec::choice(
                            "card",
                            s.cards
                                .iter()
                                .filter(|c| c.kind != CardType::Effect)
                                .map(|c| c.name.clone()),
                        ),
                        ParamSpec::choice("bonus", ["easier", "damage"]),
                    ],
                ));
            }
        }
        Moment::Event(e) => {
            if gm {
                out.push(CommandSpec::new("end-event", "end the Event", vec![]));
            }
            if e.order.is_empty() {
                for m in &mine {
                    if e.initiative.get(m).is_some_and(Option::is_none) {
                        out.push(CommandSpec::new(
                            "initiative",
                            &format!("{m}: initiative, a check that exhausts nothing (+ d20)"),
                            vec![
                                ParamSpec::choice("stat", stat_names()),
                                ParamSpec::int("dice", 0, 10),
                                ParamSpec::choice("as", [m.clone()]),
                            ],
                        ));
                    }
                }
            }
            let Some(t) = &e.turn else { return out };
            let ctl = mine.contains(&t.controller);
            let others: Vec<&String> = mine.iter().filter(|m| **m != t.controller).collect();
            match t.step {
                Step::Prep => {
                    if ctl {
                        if t.free_point {
                            out.push(CommandSpec::new(
                                "recover",
                                "the free point: one exhausted uninjured stat point or skill token",
                                vec![ParamSpec::text("stat or skill")],
                            ));
                        }
                        for p in &t.pending_effects {
                            out.push(CommandSpec::new(
                                "keep",
                                &format!("roll to keep {p} (R-SG-9)"),
                                vec![
                                    ParamSpec::choice("effect", [p.clone()]),
                                    ParamSpec::int("dice", 0, 10),
                                    ParamSpec::int("tokens", 0, 5),
                                ],
                            ));
                        }
                        if let Some(p) = s.participant(&t.controller) {
                            let disc: Vec<String> = p
                                .effects
                                .iter()
                                .filter(|x| {
                                    s.card(&x.card)
                                        .and_then(|c| c.effect)
                                        .map(|e| e.keep)
                                        .is_none_or(|k| k == Keep::Roll || k == Keep::Discard)
                                })
                                .map(|x| x.card.clone())
                                .collect();
                            if !disc.is_empty() {
                                out.push(CommandSpec::new(
                                    "discard",
                                    "discard an effect",
                                    vec![ParamSpec::choice("effect", disc)],
                                ));
                            }
                        }
                        if t.pending_effects.is_empty() {
                            let c = cards_of(s, &t.controller, CardType::Stunt);
                            if !c.is_empty() {
                                out.push(CommandSpec::new(
                                    "stunt",
                                    "step 2: lay down a Stunt",
                                    vec![ParamSpec::choice("card", c)],
                                ));
                            }
                        }
                        out.push(CommandSpec::new(
                            "end",
                            "end the turn without a Stunt",
                            vec![],
                        ));
                    }
                }
                Step::Interrupt => {
                    for o in &others {
                        let c = cards_of(s, o, CardType::Interrupt);
                        if !c.is_empty() && !t.interrupts.iter().any(|p| &&p.by == o) {
                            out.push(CommandSpec::new(
                                "interrupt",
                                &format!("{o}: offer an Interrupt (rolled when the step closes)"),
                                vec![
                                    ParamSpec::choice("card", c),
                                    ParamSpec::int("dice", 0, 10),
                                    ParamSpec::int("tokens", 0, 5),
                                    ParamSpec::choice("as", [(*o).clone()]),
                                ],
                            ));
                        }
                    }
                    if gm && !t.interrupts.is_empty() {
                        out.push(CommandSpec::new(
                            "reject",
                            "reject an invalid card offered now",
                            vec![ParamSpec::choice(
                                "as",
                                t.interrupts.iter().map(|p| p.by.clone()),
                            )],
                        ));
                    }
                    if ctl || gm {
                        out.push(CommandSpec::new(
                            "pass",
                            "close step 3 and roll the Interrupt, if any",
                            vec![],
                        ));
                    }
                }
                Step::Targeting => {
                    if ctl {
                        let c = t.stunt.as_deref().and_then(|c| s.card(c));
                        out.push(CommandSpec::new(
                            "target",
                            "step 4: targets, and dice + tokens on Success and Result (not rolled). `target NAME[, NAME] success D [T] [result D [T]]`",
                            vec![
                                ParamSpec::text("targets, comma-separated"),
                                ParamSpec::int(
                                    "success dice",
                                    0,
                                    max_cur(&t.controller, c.and_then(|c| c.success)),
                                ),
                                ParamSpec::int("success tokens", 0, 5),
                                ParamSpec::int(
                                    "result dice",
                                    0,
                                    max_cur(&t.controller, c.and_then(|c| c.result)),
                                ),
                                ParamSpec::int("result tokens", 0, 5),
                            ],
                        ));
                    }
                }
                Step::Support => {
                    for o in &mine {
                        let c = cards_of(s, o, CardType::Compliment);
                        if !c.is_empty() && !t.compliments.iter().any(|p| &p.by == o) {
                            out.push(CommandSpec::new(
                                "compliment",
                                &format!("{o}: offer a Compliment. `compliment CARD success D [T] [result D [T]] as {o}`"),
                                vec![
                                    ParamSpec::choice("card", c),
                                    ParamSpec::int("success dice", 0, 10),
                                    ParamSpec::int("success tokens", 0, 5),
                                    ParamSpec::int("result dice", 0, 10),
                                    ParamSpec::int("result tokens", 0, 5),
                                    ParamSpec::choice("as", [o.clone()]),
                                ],
                            ));
                        }
                        let c = cards_of(s, o, CardType::Divert);
                        if !c.is_empty() && !t.diverts.iter().any(|p| &p.by == o) {
                            out.push(CommandSpec::new(
                                "divert",
                                &format!("{o}: offer a Divert. `divert CARD success D [T] to NAME as {o}`"),
                                vec![
                                    ParamSpec::choice("card", c),
                                    ParamSpec::int("success dice", 0, 10),
                                    ParamSpec::int("success tokens", 0, 5),
                                    ParamSpec::choice("to", names(s)),
                                    ParamSpec::choice("as", [o.clone()]),
                                ],
                            ));
                        }
                    }
                    let offered: Vec<String> = t
                        .compliments
                        .iter()
                        .chain(&t.diverts)
                        .map(|p| p.by.clone())
                        .collect();
                    if gm && !offered.is_empty() {
                        out.push(CommandSpec::new(
                            "reject",
                            "reject an invalid card offered now",
                            vec![ParamSpec::choice("as", offered)],
                        ));
                    }
                    if ctl || gm {
                        out.push(CommandSpec::new(
                            "pass",
                            "close step 5: step 6 rolls the Divert and Compliment",
                            vec![],
                        ));
                    }
                }
                Step::Reaction => {
                    for r in t
                        .receivers
                        .iter()
                        .filter(|r| !t.reactions.contains_key(*r) && mine.contains(r))
                    {
                        let c = cards_of(s, r, CardType::Reaction);
                        if !c.is_empty() {
                            out.push(CommandSpec::new(
                                "react",
                                &format!("{r}: play a Reaction (rolled in step 8)"),
                                vec![
                                    ParamSpec::choice("card", c),
                                    ParamSpec::int("dice", 0, 10),
                                    ParamSpec::int("tokens", 0, 5),
                                    ParamSpec::choice("as", [r.clone()]),
                                ],
                            ));
                        }
                        out.push(CommandSpec::new(
                            "take",
                            &format!("{r}: no Reaction"),
                            vec![ParamSpec::choice("as", [r.clone()])],
                        ));
                    }
                }
            }
        }
    }
    out
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
        let mut d = Dec {
            s: state.clone(),
            events: Vec::new(),
            roller,
        };
        decide(&mut d, seat, command)?;
        Ok(d.events)
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve(state, event);
    }

    fn view(state: &State, seat: &Seat) -> View {
        View {
            seat: seat.clone(),
            plays: state.controlled_by(seat),
            state: state.clone(),
            may: legal(state, seat),
        }
    }

    fn legal_commands(state: &State, seat: &Seat) -> Vec<CommandSpec> {
        legal(state, seat)
    }
}
