//! The events an Opposition records (what [`super::evolve`] applies).

use serde::{Deserialize, Serialize};
use tabula_core::cards::Card;

use crate::character::{Trait, Weapon};
use crate::deck::DrawStep;
use crate::fate::FateDrawResult;
use crate::state::{Combatant, Defense, Exchange, Side, Status};

/// Why cards were drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawReason {
    /// The Draw Step of an Opposition.
    Opening,
    /// The one card a hand draws.
    Hand,
    /// A mulligan.
    Mulligan,
    /// A Wildcard spent.
    Wildcard,
    /// Desperation (Spirit or Luck cards).
    Desperation,
    /// Tenacity, Faith or Careful.
    Advantage,
    /// Ass Pull.
    AssPull,
    /// Acrobat's redraw.
    Acrobat,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// Every card returned and shuffled (scene start, end of Opposition).
    Shuffled,
    /// An Opposition began.
    OppositionBegan,
    /// Cards drawn into a hand (every card and Joker in the steps).
    Drew {
        /// Combatant.
        who: usize,
        /// Steps.
        steps: Vec<DrawStep>,
        /// Why.
        reason: DrawReason,
    },
    /// Cards discarded from a hand.
    Discarded {
        /// Combatant.
        who: usize,
        /// Cards.
        cards: Vec<Card>,
    },
    /// An initiative card placed (its old card, if any, discarded).
    Initiative {
        /// Combatant.
        who: usize,
        /// Card.
        card: Card,
    },
    /// The turn order (lowest initiative first).
    Order {
        /// Indices.
        order: Vec<usize>,
    },
    /// A turn began.
    TurnBegan {
        /// Combatant.
        who: usize,
    },
    /// The draw step is done.
    DrawStepDone,
    /// An opposed hand was declared.
    Declared(Box<Exchange>),
    /// A face-down card was played.
    FaceDown {
        /// Side.
        side: Side,
        /// Card.
        card: Card,
        /// The defender's skill, bonus and face-up limit (defender only).
        defense: Option<Defense>,
    },
    /// A face-up card bet.
    FaceUp {
        /// Side.
        side: Side,
        /// Card.
        card: Card,
        /// From a Wildcard (drawn now, steps shown).
        wild: Option<Vec<DrawStep>>,
    },
    /// A side called.
    Called {
        /// Side.
        side: Side,
    },
    /// The face-down cards revealed and the hand settled.
    Revealed {
        /// Attacker total.
        attacker: i64,
        /// Defender total.
        defender: i64,
        /// The aggressor succeeded.
        success: bool,
        /// Attacker minus defender.
        margin: i64,
        /// Raises: full 2 points of margin (R-GB-4).
        raises: i64,
        /// Every card played, attacker's then defender's.
        cards: (Vec<Card>, Vec<Card>),
    },
    /// Damage dealt to a pool.
    Damage {
        /// Combatant.
        who: usize,
        /// The pool.
        pool: Trait,
        /// Damage before reductions.
        raw: i64,
        /// Taken.
        taken: i64,
    },
    /// Extras lost members (R-GB-9).
    MembersLost {
        /// Group.
        who: usize,
        /// Lost.
        lost: i64,
    },
    /// A pool point spent on an Advantage.
    Spent {
        /// Combatant.
        who: usize,
        /// Pool.
        pool: Trait,
        /// Why.
        why: String,
    },
    /// A Wildcard spent.
    WildcardSpent {
        /// Combatant.
        who: usize,
        /// Why.
        why: String,
    },
    /// A status changed.
    StatusChanged {
        /// Combatant.
        who: usize,
        /// New status.
        status: Status,
    },
    /// Became Desperate.
    Desperate {
        /// Combatant.
        who: usize,
    },
    /// Knocked out.
    KnockedOut {
        /// Combatant.
        who: usize,
    },
    /// Weapons in hand changed.
    Weapons {
        /// Combatant.
        who: usize,
        /// In hand.
        wielding: Vec<Weapon>,
        /// Carried.
        carried: Vec<Weapon>,
    },
    /// A weapon dropped to the ground (on the carried list of nobody).
    Dropped {
        /// Combatant.
        who: usize,
        /// The weapon.
        weapon: Weapon,
    },
    /// The exchange is over; the turn ends.
    TurnEnded,
    /// A round ended.
    RoundEnded {
        /// The new round number.
        round: u32,
    },
    /// The Opposition ended.
    OppositionEnded,
    /// A Fate Draw.
    FateDrawn {
        /// Who.
        who: usize,
        /// Skill.
        skill: String,
        /// Result.
        result: Box<FateDrawResult>,
    },
    /// Someone joined (Reinforce, Involve).
    Joined(Box<Combatant>),
    /// A Fated appeared.
    Appeared {
        /// Who.
        who: usize,
    },
    /// Distance declared.
    Distance {
        /// Who.
        who: usize,
        /// Rounds.
        rounds: u32,
    },
    /// The encounter is over.
    Finished,
    /// A new scene began ("The deck is shuffled at the beginning of every scene";
    /// Berserk and Distance last until the end of the scene).
    SceneBegan,
    /// A weapon picked up from the ground into a free hand.
    PickedUp {
        /// Combatant.
        who: usize,
        /// The weapon.
        weapon: Weapon,
    },
    /// Karmic Shuffle: everyone defends physically with Luck this Opposition.
    KarmicShuffle,
    /// The Dealer banked Wildcards.
    DealerWildcards {
        /// How many.
        gained: u32,
    },
    /// The Dealer (GM) set a combatant's value (`adjust`); the numbers are
    /// for the combatant's controller only when the value is a pool (R-GB-12).
    ///
    /// Issue 27, item 6.
    Adjusted {
        /// Combatant.
        who: usize,
        /// The value.
        value: crate::gm::Value,
        /// Before.
        from: i64,
        /// After.
        to: i64,
    },
    /// The Dealer (GM) brought a participant in (`add`): the whole combatant,
    /// so a replay needs no file. Issue 27, item 6.
    Added {
        /// The kind it copies.
        kind: String,
        /// The newcomer, as it joins (no cards yet).
        combatant: Box<Combatant>,
    },
    /// The Dealer (GM) took a participant out of the encounter (`remove`):
    /// its hand and initiative card go to the discard pile ("Shuffling").
    /// Issue 27, item 6.
    Removed {
        /// Combatant.
        who: usize,
    },
}
