//! The table's state: the participants, the moment (Free, Situation, Event
//! with its turn), bets and cards in play, and the lookups every rule makes.
//!
//! Sour Grapes, "Game Moments", "Situation", "Event", "Turn Mechanics"
//! (000_05a1db5b88f54528.txt); R-SG-1..R-SG-12.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use tabula_core::Seat;

use crate::cards::{ActionCard, CardType, EffectRule, same_key};
use crate::character::{Character, same_name};
use crate::decide::rolls;
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
    pub(crate) fn new(controller: String, pending_effects: Vec<String>) -> Self {
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
    /// The names of the participants the storyteller's `add` brought in
    /// mid-encounter. They are guests: `sheets_after` leaves them out, so a
    /// copy (or a bundled sheet of the same name) never overwrites a campaign
    /// character's sheet (GM tools; docs/systems/sour-grapes.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
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

// ---------------------------------------------------------------- lookups

impl State {
    /// A participant by name (any case).
    pub fn participant(&self, name: &str) -> Option<&Participant> {
        self.participants
            .iter()
            .find(|p| same_name(p.character.name(), name))
    }

    pub(crate) fn participant_mut(&mut self, name: &str) -> Option<&mut Participant> {
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

    pub(crate) fn event_mut(&mut self) -> Option<&mut EventState> {
        match &mut self.moment {
            Moment::Event(e) => Some(e),
            _ => None,
        }
    }

    /// The turn in progress, if any.
    pub fn turn(&self) -> Option<&Turn> {
        self.event().and_then(|e| e.turn.as_ref())
    }

    pub(crate) fn turn_mut(&mut self) -> Option<&mut Turn> {
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
        self.check_block(who, stat).map(|(_, why)| why)
    }

    /// [`State::check_forbidden`] with the condition that forbids the check
    /// (`Dying`, `Incapacitated` or `Panicked`), for a
    /// [`tabula_core::Refusal::Condition`]. Sour Grapes, "Stats"; R-SG-12.
    pub(crate) fn check_block(&self, who: &str, stat: Stat) -> Option<(Condition, String)> {
        let c = &self.participant(who)?.character;
        if c.has(Condition::Dying) {
            return Some((
                Condition::Dying,
                format!("{who} is Dying: no check and no card (R-SG-12)"),
            ));
        }
        if stat.is_physical() && c.has(Condition::Incapacitated) {
            return Some((
                Condition::Incapacitated,
                format!(
                    "{who} is Incapacitated: no check or card that uses a Physical stat, and {stat} is Physical (R-SG-12)"
                ),
            ));
        }
        if stat.is_mental() && c.has(Condition::Panicked) {
            return Some((
                Condition::Panicked,
                format!(
                    "{who} is Panicked: no check or card that uses a Mental stat, and {stat} is Mental (R-SG-12)"
                ),
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
    pub(crate) fn effect_rule(
        &self,
        name: &str,
        pred: impl Fn(&EffectRule) -> bool,
    ) -> Option<EffectRule> {
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
    pub(crate) fn one_side_down(&self) -> bool {
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
