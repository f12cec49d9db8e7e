//! Oppositions: initiative, the fourteen steps, skill hands with betting, damage,
//! Desperation, followers and extras, dramatic actions, and the Advantages.
//!
//! A Game of Bastards, "Steps" / "Opposition", "Skill Hands in Oppositions",
//! "Initiative", "Desperation", "Random Rules", "Advantages", "Optional Rules",
//! "Building A Scene" (003_2dfeea144768d328.txt); R-GB-2 .. R-GB-10.
//!
//! The fourteen steps map onto phases and commands: (1) the Draw Step is `begin`
//! (every hand drawn); initiative is chosen with `init`; (2) the acting character's
//! `draw` or `mulligan`; (3) the active phase: `discard`, `wield`, `wildcard` and
//! the quick Advantages; (4) `attack` (or `reinit`, `pickup`, `study`, `pass`...),
//! with raises counted from the margin (R-GB-4); (5) `play` face down, attacker then
//! defender; (6)-(8) `bet` / `call`, the affected side first, until both call;
//! (9) consequences, automatic; (10) the turn ends; (11) the next initiative acts;
//! (12) the round ends and restarts from the lowest initiative; (13) `end`; (14) all
//! cards are shuffled back into the deck.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use tabula_core::cards::{Card, Shoe};
use tabula_core::names::check_name;
use tabula_core::roller::Roller;
use tabula_core::rule::{Refusal, Rule, RuleError};
use tabula_core::system::Seat;

use crate::advantages::{Advantage, Kind};
use crate::character::{Character, Trait, Weapon};
use crate::deck::{self, DrawStep};
use crate::fate::{self, FateDrawResult, SkillHand};
use crate::values::{self, Total};

/// "Steps": the order of an Opposition.
pub const RULE_STEPS: Rule = Rule::book(crate::BOOK, "Steps");
/// "Skill Hands in Oppositions": face down, betting, reveal.
pub const RULE_BETTING: Rule = Rule::book(crate::BOOK, "Skill Hands in Oppositions");
/// "Initiative".
pub const RULE_INITIATIVE: Rule = Rule::book(crate::BOOK, "Initiative").ruling("R-GB-2");
/// "Core Mechanic": each hand draws one and may discard one; mulligan.
pub const RULE_HAND: Rule = Rule::book(crate::BOOK, "Core Mechanic");
/// "Core Mechanic": a simple hand, "each player simply chooses a card to play";
/// R-GB-15: one card each, no bets, no raises.
pub const RULE_SIMPLE: Rule = Rule::book(crate::BOOK, "Core Mechanic").ruling("R-GB-15");
/// "Core Mechanic": "If anyone involved is unsatisfied with their entire hand,
/// they may mulligan"; R-GB-16: the character acted against included, once,
/// before playing in that hand.
pub const RULE_MULLIGAN: Rule = Rule::book(crate::BOOK, "Core Mechanic").ruling("R-GB-16");
/// R-GB-5: pools and damage.
pub const RULE_POOLS: Rule = Rule::book(crate::BOOK, "Combat").ruling("R-GB-5");
/// "Advantages"; R-GB-8.
pub const RULE_ADVANTAGES: Rule = Rule::book(crate::BOOK, "Advantages").ruling("R-GB-8");
/// "Random Rules"; R-GB-7.
pub const RULE_RANDOM: Rule = Rule::book(crate::BOOK, "Random Rules").ruling("R-GB-7");
/// "Jokers – Unbound by Fate": spending a Wildcard.
pub const RULE_WILDCARD: Rule = values::RULE_JOKERS;
/// "Building A Scene": dramatic actions.
pub const RULE_DRAMATIC: Rule = Rule::book(crate::BOOK, "Building A Scene");
/// "Followers/Henchmen" and "Extras/Brutes"; R-GB-9.
pub const RULE_EXTRAS: Rule = Rule::book(crate::BOOK, "Optional Rules").ruling("R-GB-9");
/// Who may command whom.
pub const RULE_SEATS: Rule = Rule::table("Seats");

/// The cards in a Fated's hand ("a hand of five cards").
pub const HAND_SIZE: usize = 5;
/// The most combatants one table may hold (a cap).
pub const MAX_COMBATANTS: usize = 32;
/// The most members of one group of Extras.
pub const MAX_MEMBERS: i64 = 5;
/// The most cards a hand may hold (a cap; Wildcards and Advantages add cards).
pub const MAX_HAND: usize = 30;

/// What a combatant is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// A Fated: a full character with four pools (R-GB-5).
    Fated {
        /// The sheet.
        character: Box<Character>,
        /// BP, SP, MP, LP now.
        pools: [i64; 4],
        /// Desperate: one pool emptied.
        desperate: bool,
    },
    /// A Follower (Touched): a Power Rating and one Power Pool.
    Follower {
        /// 1..=5.
        power: i64,
        /// The Power Pool now (Power Rating x 5 when full; a Tabula decision).
        pool: i64,
    },
    /// A group of Extras (Brutes): up to five members.
    Extras {
        /// 1..=5: the cards they play.
        power: i64,
        /// Members left; the hand size.
        members: i64,
    },
}

/// Statuses Advantages set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// Berserk until the scene ends.
    pub berserk: bool,
    /// All-Out Defense this round (no actions).
    pub all_out_defense: bool,
    /// Iron Wall this round.
    pub iron_wall: bool,
    /// Soul of Steel this round.
    pub soul_of_steel: bool,
    /// Opponents Studied (indices), for the rest of the Opposition.
    pub studied: Vec<usize>,
    /// Defensive Stance: attack cards lowered (and defense cards raised) by this.
    pub stance: i64,
    /// Dodge or Serendipity: the Trait for the next physical defense draw.
    pub next_defense: Option<Trait>,
    /// Cards Ass Pull still requires to discard.
    pub must_discard: u32,
    /// A card was discarded this hand.
    pub discarded: bool,
    /// The action of this round was sacrificed before the character's turn
    /// (All-Out Defense, Soul of Steel, a defender's mulligan): the turn is
    /// skipped.
    pub sacrificed: bool,
    /// The one acted against mulliganed in this hand (once per hand, R-GB-16).
    #[serde(default)]
    pub mulliganed: bool,
}

/// One side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    /// Unique name.
    pub name: String,
    /// Who commands it.
    pub controller: Seat,
    /// Fated, Follower or Extras.
    pub body: Body,
    /// The hand (hidden from every other seat).
    pub hand: Vec<Card>,
    /// The initiative card, face up.
    pub initiative: Option<Card>,
    /// Wildcards banked.
    pub wildcards: u32,
    /// Knocked out.
    pub knocked_out: bool,
    /// In the scene (Appearance brings a Fated in).
    pub present: bool,
    /// Weapons in hand (at most two).
    pub wielding: Vec<Weapon>,
    /// Weapons carried but not in hand.
    pub carried: Vec<Weapon>,
    /// Statuses.
    pub status: Status,
    /// Taken out of the encounter by the GM's `remove`: it takes no further
    /// part, and its cards went to the discard pile (issue 27, item 6).
    #[serde(default)]
    pub removed: bool,
    /// Brought in by the GM's `add`: a guest of this encounter, whose sheet
    /// is not written back ([`crate::advance::sheets_after`] leaves it out;
    /// issue 27, item 6).
    #[serde(default)]
    pub added: bool,
}

impl Combatant {
    /// The Fated's character, if a Fated.
    pub fn character(&self) -> Option<&Character> {
        match &self.body {
            Body::Fated { character, .. } => Some(character),
            _ => None,
        }
    }

    /// A Trait score: a Fated's own; a Follower's Power Rating; 0 for Extras.
    pub fn trait_score(&self, t: Trait) -> i64 {
        match &self.body {
            Body::Fated { character, .. } => character.trait_score(t),
            Body::Follower { power, .. } => *power,
            Body::Extras { .. } => 0,
        }
    }

    /// A pool now (Fated), the Power Pool (Follower), members (Extras).
    pub fn pool(&self, t: Trait) -> i64 {
        match &self.body {
            Body::Fated { pools, .. } => pools[trait_index(t)],
            Body::Follower { pool, .. } => *pool,
            Body::Extras { members, .. } => *members,
        }
    }

    /// Desperate (a Fated with one pool empty).
    pub fn desperate(&self) -> bool {
        matches!(
            self.body,
            Body::Fated {
                desperate: true,
                ..
            }
        )
    }

    /// How many times it has `a` *and may use it now*: a Fated only; none from a
    /// suit whose pool is 0 ("Advantages"); a Berserk uses only offensive ones.
    pub fn usable(&self, a: &Advantage) -> usize {
        let Some(c) = self.character() else { return 0 };
        if self.pool(Trait::of_suit(a.suit())) <= 0 {
            return 0;
        }
        if self.status.berserk && a.kind() != Kind::Offensive {
            return 0;
        }
        c.has(a)
    }

    /// The hand size drawn at the start: 5, Power Rating, or members.
    pub fn hand_size(&self) -> usize {
        match &self.body {
            Body::Fated { .. } => HAND_SIZE,
            Body::Follower { power, .. } => *power as usize,
            Body::Extras { members, .. } => *members as usize,
        }
    }

    /// Still acting: present, not knocked out and not removed by the GM.
    pub fn active(&self) -> bool {
        self.present && !self.knocked_out && !self.removed
    }

    /// Whether `seat` commands this combatant (seat names match without regard to
    /// case). R-GB-12: only this seat sees its hand and its pools.
    pub fn controlled_by(&self, seat: &Seat) -> bool {
        // The same seat written the same way needs no comparison of names.
        self.controller == *seat || self.controller.same_seat(seat)
    }
}

fn trait_index(t: Trait) -> usize {
    match t {
        Trait::Body => 0,
        Trait::Spirit => 1,
        Trait::Mind => 2,
        Trait::Luck => 3,
    }
}

/// The kind of an opposed hand, which decides Traits and the pool hurt (R-GB-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandKind {
    /// Physical: Body to attack, Mind to defend, damage to BP.
    Physical,
    /// Social or mental: Mind against Mind, damage to MP.
    Social,
    /// Fear or sanity: Spirit against Spirit, damage to SP.
    Fear,
    /// A simple action ("Core Mechanic"): cards only, the higher wins, no damage.
    Simple,
}

impl HandKind {
    /// Read a kind.
    pub fn parse(t: &str) -> Option<HandKind> {
        Some(match t.to_ascii_lowercase().as_str() {
            "physical" | "melee" => HandKind::Physical,
            "social" | "mental" => HandKind::Social,
            "fear" | "sanity" => HandKind::Fear,
            "simple" => HandKind::Simple,
            _ => return None,
        })
    }

    fn pool(self) -> Trait {
        match self {
            HandKind::Physical | HandKind::Simple => Trait::Body,
            HandKind::Social => Trait::Mind,
            HandKind::Fear => Trait::Spirit,
        }
    }
}

/// The kind in words, as the table's text says it (`physical`, `social or
/// mental`, `fear or sanity`, `simple`; R-GB-5, "Core Mechanic").
impl std::fmt::Display for HandKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HandKind::Physical => "physical",
            HandKind::Social => "social or mental",
            HandKind::Fear => "fear or sanity",
            HandKind::Simple => "simple",
        })
    }
}

/// Options an attacker declares with the attack (step 4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOptions {
    /// Zeal: 1 SP, Spirit instead of Body.
    pub zeal: bool,
    /// Fortune: 1 LP, Luck instead of Body; the defender uses Luck.
    pub fortune: bool,
    /// Disarm: 1 MP, off Mind; no damage, the weapon is dropped.
    pub disarm: bool,
    /// Savage: 1 BP; on success a second attack at -2.
    pub savage: bool,
    /// Wild Swing: 1 BP; Body lowered by this much, twice it added to damage.
    pub wild_swing: i64,
    /// A Specialty whose rank is added.
    pub specialty: Option<String>,
    /// A penalty on the total (Savage's follow-up: -2).
    pub penalty: i64,
    /// A Counter's attack: the face-up cards are the sacrificed skill cards.
    pub counter_cards: Option<i64>,
}

/// The defender's terms, fixed when it plays its face-down card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defense {
    /// The skill defended with.
    pub skill: String,
    /// The bonus (Trait and modifiers).
    pub bonus: i64,
    /// Face-up cards it may bet from the hand.
    pub limit: i64,
    /// Mind Over Matter declared.
    pub mind_over_matter: bool,
    /// Counter<Weapon>: skill cards sacrificed now to counter-attack with on a
    /// successful defense.
    pub counter: i64,
}

/// Which side of an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The acting character.
    Attacker,
    /// The one affected.
    Defender,
}

/// The side in words (`the attacker`, `the defender`).
impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Attacker => "the attacker",
            Side::Defender => "the defender",
        })
    }
}

/// An opposed skill hand in progress (steps 4 to 9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    /// The acting combatant.
    pub attacker: usize,
    /// The affected combatant.
    pub defender: usize,
    /// The attacker's skill.
    pub skill: String,
    /// The defender's skill (set when it plays).
    pub defense_skill: Option<String>,
    /// The kind of hand.
    pub kind: HandKind,
    /// Declared options.
    pub options: AttackOptions,
    /// Attacker's bonus (Trait and modifiers).
    pub attacker_bonus: i64,
    /// Defender's bonus (set when it plays).
    pub defender_bonus: i64,
    /// Face-up cards the attacker may still bet from the hand.
    pub attacker_limit: i64,
    /// Face-up cards the defender may still bet from the hand.
    pub defender_limit: i64,
    /// The attacker's face-down card.
    pub attacker_down: Option<Card>,
    /// The defender's face-down card.
    pub defender_down: Option<Card>,
    /// The attacker's face-up cards.
    pub attacker_up: Vec<Card>,
    /// The defender's face-up cards.
    pub defender_up: Vec<Card>,
    /// Who bets next.
    pub to_act: Side,
    /// The other side called last (a second call reveals).
    pub called: bool,
    /// Mind Over Matter declared by the defender.
    pub mind_over_matter: bool,
    /// Counter<Weapon>: cards the defender sacrificed to counter-attack with.
    pub counter: i64,
}

/// Where the table is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Outside an Opposition: Fate Draws, dramatic actions, `begin`.
    Scene,
    /// Hands drawn; each chooses an initiative card.
    Initiative,
    /// A combatant's turn: `Draw` then `Act`.
    Turn {
        /// Index of the acting combatant.
        actor: usize,
        /// True once the draw-or-mulligan step is done.
        drawn: bool,
    },
    /// An opposed hand in progress.
    Exchange(Box<Exchange>),
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// A title.
    pub title: String,
    /// The shoe (R-GB-1).
    pub shoe: Shoe,
    /// Everyone in the scene.
    pub combatants: Vec<Combatant>,
    /// Where the table is.
    pub phase: Phase,
    /// Round number (from 1) in the Opposition.
    pub round: u32,
    /// Turn order by initiative, lowest first.
    pub order: Vec<usize>,
    /// Position in `order`.
    pub turn: usize,
    /// Wildcards the Dealer banked from Fate Draws.
    pub dealer_wildcards: u32,
    /// Distance was used this scene (only one player may), with rounds left.
    pub distance: Option<(String, u32)>,
    /// Karmic Shuffle is in force this Opposition.
    pub karmic_shuffle: bool,
    /// A game with no Dealer: the `gm` seat is the player running the Indirect
    /// Opposition.
    pub indirect: bool,
    /// The encounter is over.
    pub finished: bool,
    /// Weapons lying on the ground (dropped by Disarm).
    pub ground: Vec<Weapon>,
    /// Everyone as the table file set them up, before play: the kinds the
    /// GM's `add` copies (issue 27, item 6).
    #[serde(default)]
    pub loaded: Vec<Combatant>,
}

/// A command a seat gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Skill Check: a Fate Draw for `who` with `skill` off `trait_used`.
    /// "Building A Scene" (Skill Check), "Skill Hand"; R-GB-6.
    Fate {
        /// The Fated.
        who: String,
        /// The skill.
        skill: String,
        /// The Trait.
        trait_used: Trait,
        /// Difficulty Modifier 0..=20.
        modifier: i64,
        /// Acrobat: discard up to Body cards and redraw (extreme movement).
        acrobat: bool,
        /// A Specialty whose rank is added ("Specialties").
        specialty: Option<String>,
    },
    /// Begin an Opposition (GM): shuffle, draw every hand. "Steps" 1, "Initiative".
    Begin,
    /// Begin a new scene (GM): shuffle, Berserk and Distance end. "Shuffling".
    Scene,
    /// Choose an initiative card. "Initiative"; R-GB-2 (Ace = 1).
    Init {
        /// Who.
        who: String,
        /// The card.
        card: String,
    },
    /// Draw step: draw one card. "Core Mechanic", "Steps" 2.
    Draw,
    /// Draw step: mulligan (sacrifice the action, discard all, draw five).
    /// "Core Mechanic", "Steps" 2.
    Mulligan,
    /// Discard one card (once per hand; Ass Pull requires two). "Core Mechanic".
    Discard {
        /// The card.
        card: String,
    },
    /// Spend a Wildcard to draw a card into the hand (any time). "Jokers"; R-GB-3.
    Wildcard {
        /// Who.
        who: String,
    },
    /// Declare an opposed hand against a target. "Steps" 4.
    Attack {
        /// The target.
        target: String,
        /// The skill used.
        skill: String,
        /// The kind of hand.
        kind: HandKind,
        /// Options.
        options: AttackOptions,
    },
    /// Play the face-down card (attacker, then defender with its skill).
    /// "Steps" 5, "Skill Hands in Oppositions".
    Play {
        /// The card.
        card: String,
        /// The defender's skill (default: the attacker's).
        skill: Option<String>,
        /// Mind Over Matter (defender).
        mind_over_matter: bool,
        /// Counter<Weapon> (defender): skill cards to sacrifice, 0 for none.
        counter: i64,
    },
    /// Bet a face-up card from the hand. "Steps" 6-8, "Skill Hands in Oppositions".
    Bet {
        /// The card.
        card: String,
    },
    /// Bet a Wildcard: draw a new card and play it face up. "Skill Hands in
    /// Oppositions"; R-GB-3.
    BetWild,
    /// Call; when both call, reveal and settle. "Steps" 8-9.
    Call,
    /// Replace the initiative card (costs the action unless Speedy). "Initiative",
    /// "Speedy".
    Reinit {
        /// The new card.
        card: String,
    },
    /// Take a carried weapon in hand (ready: no action; else the action). "Random
    /// Rules".
    Wield {
        /// The weapon.
        weapon: String,
    },
    /// Pick up a weapon from the ground (the action). "Random Rules".
    Pickup {
        /// The weapon.
        weapon: String,
    },
    /// End the action without acting. "Steps" 10.
    Pass,
    /// Use an Advantage that is not part of an attack. "Advantages"; R-GB-8.
    Use {
        /// Who uses it.
        who: String,
        /// Which.
        advantage: UseAdvantage,
    },
    /// Reinforce: a Wildcard brings 5 Extras. "Building A Scene"; R-GB-9.
    Reinforce {
        /// Whose Wildcard.
        who: String,
        /// The group's name.
        name: String,
        /// One weapon type for the whole group: damage bonus at most the group's
        /// Power Rating.
        weapon: Option<Weapon>,
    },
    /// Involve: a Wildcard brings two Followers. "Building A Scene".
    Involve {
        /// Whose Wildcard.
        who: String,
        /// Their name (suffixed 1 and 2).
        name: String,
        /// One weapon each, of the controller's choice.
        weapon: Option<Weapon>,
    },
    /// Appearance: a Fated not yet present enters the Opposition. "Building A Scene".
    Appear {
        /// Who.
        who: String,
    },
    /// Distance: Wildcards for rounds before melee (once per scene). "Building A
    /// Scene".
    Distance {
        /// Whose Wildcards.
        who: String,
        /// How many.
        wildcards: u32,
    },
    /// End the Opposition (GM) and shuffle everything back. "Steps" 13-14.
    End,
    /// End the encounter (GM).
    Finish,
    /// The Dealer (GM) sets or changes a combatant's pool, members or
    /// Wildcards (`adjust WHO VALUE AMOUNT`).
    ///
    /// "Combat", "Desperation", "Optional Rules"; R-GB-5, R-GB-9, R-GB-13;
    /// issue 27, item 6.
    Adjust {
        /// The combatant.
        who: String,
        /// The value.
        value: crate::gm::Value,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// The Dealer (GM) brings a new participant in (`add KIND [as NAME] [to
    /// SEAT]`): a copy of one the table loaded or of the book's bundled
    /// sheets ([`crate::gm::add`]).
    ///
    /// Issue 27, item 6; the table's GM tools ([`crate::gm::GM_TOOLS`]).
    Add {
        /// The kind copied: a name the table loaded or a bundled sheet.
        kind: String,
        /// Its name at the table (default: the kind's).
        name: Option<String>,
        /// The seat that controls it (default: the GM).
        to: Option<Seat>,
    },
    /// The Dealer (GM) takes a participant out of the encounter (`remove
    /// WHO`; [`crate::gm::remove`]).
    ///
    /// Issue 27, item 6; "Shuffling" (its cards are discarded).
    Remove {
        /// The combatant.
        who: String,
    },
}

/// Advantages used on their own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UseAdvantage {
    /// All-Out Defense.
    AllOutDefense,
    /// Defensive Stance, lowering attack cards by N (<= Body).
    DefensiveStance(i64),
    /// Serendipity: 1 LP.
    Serendipity,
    /// Iron Wall: a Wildcard.
    IronWall,
    /// Karmic Shuffle: a Wildcard.
    KarmicShuffle,
    /// Soul of Steel: a Wildcard and the action.
    SoulOfSteel,
    /// Study a target (the action).
    Study(String),
    /// Dodge: 1 BP.
    Dodge,
    /// Ass Pull: 1 LP, draw two, discard two.
    AssPull,
    /// Berserk: a Wildcard.
    Berserk,
    /// End Berserk: sacrifice the action, Meditation Fate Draw off Mind.
    Calm,
}

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

fn err(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::forbidden(rule, msg)
}

/// Find a combatant by name: without regard to case, spaces may be written `-` or
/// `_`, or its first word (`investor` for `The investor`) when only one matches.
pub fn find(state: &State, name: &str) -> Option<usize> {
    let norm = |s: &str| s.trim().to_lowercase().replace(['-', '_'], " ");
    let n = norm(name);
    state
        .combatants
        .iter()
        .position(|c| norm(&c.name) == n)
        .or_else(|| {
            let hits: Vec<usize> = state
                .combatants
                .iter()
                .enumerate()
                .filter(|(_, c)| {
                    let cn = norm(&c.name);
                    cn.split_whitespace().next() == Some(n.as_str())
                        || cn
                            .strip_prefix("the ")
                            .and_then(|r| r.split_whitespace().next())
                            == Some(n.as_str())
                })
                .map(|(i, _)| i)
                .collect();
            if hits.len() == 1 {
                hits.first().copied()
            } else {
                None
            }
        })
}

/// An unknown name, refused with the valid choices listed.
fn unknown_among<'a>(
    rule: Rule,
    field: &str,
    name: &str,
    choices: impl IntoIterator<Item = &'a str>,
) -> RuleError {
    RuleError::unknown_among(rule, field, name, choices)
}

pub(crate) fn who(state: &State, name: &str) -> Result<usize, RuleError> {
    find(state, name).ok_or_else(|| {
        unknown_among(
            RULE_SEATS,
            "combatant",
            name,
            state.combatants.iter().map(|c| c.name.as_str()),
        )
    })
}

fn may_command(state: &State, seat: &Seat, i: usize) -> Result<(), RuleError> {
    let c = state
        .combatants
        .get(i)
        .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()))?;
    if c.controlled_by(seat) {
        Ok(())
    } else {
        Err(RuleError::new(
            RULE_SEATS,
            Refusal::NotPermitted,
            format!("{} is commanded by {}, not {seat}", c.name, c.controller),
        ))
    }
}

/// A card for initiative: as [`card_in_hand`], but `lowest` and `best` follow the
/// initiative values (the Ace is 1, R-GB-2).
fn initiative_card(c: &Combatant, text: &str) -> Result<Card, RuleError> {
    let sel = text.trim().to_ascii_lowercase();
    let key = |k: &Card| {
        values::initiative_value(k.face).unwrap_or(99) * 4
            + values::suit_of(k.face).map_or(0, |s| i64::from(values::suit_order(s)))
    };
    let pick = match sel.as_str() {
        "lowest" | "low" | "worst" => c.hand.iter().min_by_key(|k| key(k)),
        "best" | "high" | "highest" => c.hand.iter().max_by_key(|k| key(k)),
        _ => return card_in_hand(c, text),
    };
    pick.copied()
        .ok_or_else(|| err(RULE_HAND, format!("{} holds no card", c.name)))
}

/// A card of a hand named by `text`: a card (`QH`, `10s`, `2 of cups`), or `best`
/// (the highest value, then suit) or `lowest` (the lowest), so scripts need not
/// know a shuffled hand.
fn card_in_hand(c: &Combatant, text: &str) -> Result<Card, RuleError> {
    let sel = text.trim().to_ascii_lowercase();
    if matches!(
        sel.as_str(),
        "best" | "high" | "highest" | "lowest" | "low" | "worst"
    ) {
        let keyed = c
            .hand
            .iter()
            .filter_map(|k| values::key(k.face).map(|v| (v, *k)));
        let pick = if sel.starts_with('b') || sel.starts_with('h') {
            keyed.max_by_key(|(v, _)| *v)
        } else {
            keyed.min_by_key(|(v, _)| *v)
        };
        return pick
            .map(|(_, k)| k)
            .ok_or_else(|| err(RULE_HAND, format!("{} holds no card", c.name)));
    }
    let spec: tabula_core::cards::CardSpec = text
        .parse()
        .map_err(|_| RuleError::unknown(RULE_HAND, "card", text))?;
    c.hand
        .iter()
        .find(|k| spec.matches(k.face))
        .copied()
        .ok_or_else(|| err(RULE_HAND, format!("{} holds no {spec}", c.name)))
}

/// The acting combatant, if it is someone's turn.
pub fn actor(state: &State) -> Option<usize> {
    match &state.phase {
        Phase::Turn { actor, .. } => Some(*actor),
        Phase::Exchange(x) => Some(x.attacker),
        _ => None,
    }
}

/// The events of one command and the state they lead to. Each event is
/// applied as it is produced, so later checks see its effect; the events are
/// the result.
///
/// No copy of the state is made while the command only reads the state it was
/// given: events are kept, and the state is copied (once) and brought up to
/// date only when something is read after an event that changed it. Most
/// steps of an Opposition (a draw, a declaration, a face-down card, a bet, a
/// first call, a pass, a failed attack) never read what their events
/// changed, so they never copy.
pub(crate) struct Out<'a> {
    /// The state the command was given.
    base: &'a State,
    /// `base` with every event applied, once something was read after one.
    work: Option<State>,
    /// An event that changes the combatants, the turn order, the turn or the
    /// round was emitted and `work` is not made.
    stale: bool,
    /// An event that changes only the phase or the shoe was emitted and
    /// `work` is not made.
    stale_table: bool,
    events: Vec<Event>,
}

impl<'a> Out<'a> {
    fn new(s: &'a State) -> Self {
        Out {
            base: s,
            work: None,
            stale: false,
            stale_table: false,
            events: Vec::new(),
        }
    }
    /// The state now, with every event so far applied.
    pub(crate) fn s(&mut self) -> &State {
        if (self.stale || self.stale_table) && self.work.is_none() {
            let mut w = self.base.clone();
            for e in &self.events {
                evolve(&mut w, e);
            }
            self.work = Some(w);
        }
        self.work.as_ref().unwrap_or(self.base)
    }
    pub(crate) fn emit(&mut self, e: Event) {
        match &mut self.work {
            Some(w) => evolve(w, &e),
            None => match e {
                // The end of a turn changes nothing by itself.
                Event::TurnEnded => {}
                // Only the phase or the shoe.
                Event::DrawStepDone | Event::Called { .. } | Event::Revealed { .. } => {
                    self.stale_table = true;
                }
                _ => self.stale = true,
            },
        }
        self.events.push(e);
    }
    /// Combatant `i` as it stands now, to keep while emitting: borrowed from
    /// the given state while no event changed anything, else a copy.
    fn snapshot(&mut self, i: usize) -> Result<Cow<'a, Combatant>, RuleError> {
        if !self.stale && self.work.is_none() {
            let base: &'a State = self.base;
            return base
                .combatants
                .get(i)
                .map(Cow::Borrowed)
                .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()));
        }
        Ok(Cow::Owned(self.c(i)?.clone()))
    }
    pub(crate) fn draw(
        &mut self,
        who: usize,
        n: usize,
        reason: DrawReason,
        roller: &mut dyn Roller,
    ) -> Result<(), RuleError> {
        if let Some(e) = self.drawn(who, n, reason, roller)? {
            self.emit(e);
        }
        Ok(())
    }
    /// The cards `who` draws now, as the event to emit (`None`: no room in
    /// the hand); the state is not changed.
    fn drawn(
        &mut self,
        who: usize,
        n: usize,
        reason: DrawReason,
        roller: &mut dyn Roller,
    ) -> Result<Option<Event>, RuleError> {
        let s = self.s();
        let room = MAX_HAND.saturating_sub(s.combatants.get(who).map_or(0, |c| c.hand.len()));
        // "Shuffling": an empty deck takes the discards back; with neither, the
        // draw gets what is left, perhaps nothing (`deck::drawable`).
        let n = n.min(room).min(deck::drawable(&s.shoe));
        if n == 0 {
            return Ok(None);
        }
        let name = s
            .combatants
            .get(who)
            .map(|c| c.name.as_str())
            .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &who.to_string()))?;
        let what = match reason {
            DrawReason::Opening => "Draw Step",
            DrawReason::Hand => "draw",
            DrawReason::Mulligan => "mulligan",
            DrawReason::Wildcard => "Wildcard",
            DrawReason::Desperation => "Desperation",
            DrawReason::Advantage => "Advantage",
            DrawReason::AssPull => "Ass Pull",
            DrawReason::Acrobat => "Acrobat",
        };
        roller.announce_draw(name, what, n.try_into().unwrap_or(u32::MAX));
        let steps = deck::draw_from(&s.shoe, roller, n)?;
        Ok(Some(Event::Drew { who, steps, reason }))
    }
    /// The state now for its combatants, turn order, turn and round only:
    /// its phase and shoe may be behind (see [`Out::s`] for those).
    fn people(&mut self) -> &State {
        if self.stale && self.work.is_none() {
            return self.s();
        }
        self.work.as_ref().unwrap_or(self.base)
    }
    pub(crate) fn c(&mut self, i: usize) -> Result<&Combatant, RuleError> {
        self.people()
            .combatants
            .get(i)
            .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()))
    }
    /// Pay 1 point of `pool` for `why` (an Advantage's or action's cost), then
    /// settle a pool that reached zero ([`pool_emptied`], R-GB-13).
    fn spend_pool(
        &mut self,
        who: usize,
        pool: Trait,
        why: &str,
        roller: &mut dyn Roller,
    ) -> Result<(), RuleError> {
        if self.c(who)?.pool(pool) < 1 {
            return Err(err(
                RULE_ADVANTAGES,
                format!("{why} costs 1 {} and the pool is empty", pool.pool_name()),
            ));
        }
        self.emit(Event::Spent {
            who,
            pool,
            why: why.into(),
        });
        pool_emptied(self, who, roller)
    }
    fn has_wildcard(&mut self, who: usize, why: &str) -> Result<(), RuleError> {
        let c = self.c(who)?;
        if c.wildcards < 1 {
            return Err(err(
                RULE_WILDCARD,
                format!("{why} costs a Wildcard and {} has none", c.name),
            ));
        }
        Ok(())
    }
    fn spend_wildcard(&mut self, who: usize, why: &str) -> Result<(), RuleError> {
        self.has_wildcard(who, why)?;
        self.emit(Event::WildcardSpent {
            who,
            why: why.into(),
        });
        Ok(())
    }
    fn need(&mut self, who: usize, a: &Advantage) -> Result<(), RuleError> {
        if self.c(who)?.usable(a) == 0 {
            return Err(err(
                RULE_ADVANTAGES,
                format!(
                    "{} cannot use {a} (not taken, its suit's pool is 0, or Berserk allows only offensive Advantages)",
                    self.c(who)?.name
                ),
            ));
        }
        Ok(())
    }
}

/// Decide a command. See [`crate::Bastards`].
///
/// # Errors
/// A [`RuleError`] naming the rule; nothing changes.
pub fn decide(
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    if state.finished {
        return Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "the encounter is over",
        ));
    }
    let mut o = Out::new(state);
    match command {
        Command::Fate {
            who: name,
            skill,
            trait_used,
            modifier,
            acrobat,
            specialty,
        } => {
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
            fate_draw(&mut o, i, ask, roller)?;
        }
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
                return Err(err(
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
        Command::Init { who: name, card } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if state.phase != Phase::Initiative {
                return Err(RuleError::new(
                    RULE_INITIATIVE,
                    Refusal::WrongPhase,
                    "initiative is chosen at the start of an Opposition; during your turn use reinit",
                ));
            }
            let c = o.c(i)?;
            if c.initiative.is_some() {
                return Err(err(
                    RULE_INITIATIVE,
                    format!("{} has already played an initiative card", c.name),
                ));
            }
            let card = initiative_card(c, card)?;
            // Everyone else has an initiative card, or no card to play one
            // (an empty shoe dealt it none: it acts last) (read before the
            // event, which changes only this combatant's).
            let all = state
                .combatants
                .iter()
                .enumerate()
                .all(|(k, c)| k == i || !awaits_initiative(c));
            o.emit(Event::Initiative { who: i, card });
            if all {
                start_round(&mut o);
            }
        }
        Command::Mulligan if matches!(state.phase, Phase::Exchange(_)) => {
            defender_mulligan(&mut o, state, seat, roller)?;
        }
        Command::Draw | Command::Mulligan => {
            let Phase::Turn {
                actor,
                drawn: false,
            } = state.phase
            else {
                return Err(RuleError::new(
                    RULE_HAND,
                    Refusal::WrongPhase,
                    "draw or mulligan is the first step of your turn",
                ));
            };
            may_command(state, seat, actor)?;
            if *command == Command::Draw {
                o.draw(actor, 1, DrawReason::Hand, roller)?;
                o.emit(Event::DrawStepDone);
            } else {
                let hand = o.c(actor)?.hand.clone();
                o.emit(Event::Discarded {
                    who: actor,
                    cards: hand,
                });
                let n = o.c(actor)?.hand_size();
                o.draw(actor, n, DrawReason::Mulligan, roller)?;
                end_turn(&mut o);
            }
        }
        Command::Discard { card } => {
            // "Core Mechanic": "Each hand, every player involved draws a new card
            // from the deck, and may discard a card if they wish": the acting
            // character in its active phase, the one affected before it plays its
            // face-down card.
            let (i, defending) = match &state.phase {
                Phase::Turn { actor, drawn: true } => (*actor, false),
                Phase::Exchange(x) if x.defender_down.is_none() => (x.defender, true),
                _ => {
                    return Err(RuleError::new(
                        RULE_HAND,
                        Refusal::WrongPhase,
                        "discard after your draw, in your active phase, or as the one affected before playing your face-down card",
                    ));
                }
            };
            may_command(state, seat, i)?;
            let c = o.c(i)?;
            if c.status.discarded && c.status.must_discard == 0 {
                return Err(err(RULE_HAND, "a hand may discard one card"));
            }
            if defending && c.hand.len() < 2 {
                return Err(err(
                    RULE_BETTING,
                    format!("{} keeps a card to play face down", c.name),
                ));
            }
            let card = card_in_hand(c, card)?;
            let mut st = c.status.clone();
            o.emit(Event::Discarded {
                who: i,
                cards: vec![card],
            });
            if st.must_discard > 0 {
                st.must_discard -= 1;
            } else {
                st.discarded = true;
            }
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        Command::Wildcard { who: name } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if state.phase == Phase::Scene {
                return Err(RuleError::new(
                    RULE_WILDCARD,
                    Refusal::WrongPhase,
                    "a Wildcard adds a card to the current hand: hands exist in an Opposition",
                ));
            }
            no_card_left(&state.shoe)?;
            o.spend_wildcard(i, "a new card")?;
            o.draw(i, 1, DrawReason::Wildcard, roller)?;
        }
        Command::Attack {
            target,
            skill,
            kind,
            options,
        } => {
            let i = acting(state, seat)?;
            if options.penalty != 0 || options.counter_cards.is_some() {
                // Set only by Savage's follow-up and Counter, never by a seat.
                return Err(err(
                    RULE_ADVANTAGES,
                    "penalty and counter cards are not declared",
                ));
            }
            if !(0..=crate::character::MAX_TRAIT).contains(&options.wild_swing) {
                return Err(RuleError::out_of_range(
                    RULE_ADVANTAGES,
                    "Wild Swing",
                    0,
                    crate::character::MAX_TRAIT,
                    options.wild_swing,
                ));
            }
            if o.c(i)?.status.must_discard > 0 {
                return Err(err(RULE_ADVANTAGES, "Ass Pull: discard two cards first"));
            }
            if o.c(i)?.status.all_out_defense {
                return Err(err(
                    RULE_ADVANTAGES,
                    "All-Out Defense: no actions this round",
                ));
            }
            let t = who(state, target)?;
            if t == i || !o.c(t)?.active() {
                return Err(err(
                    RULE_BETTING,
                    "the target must be someone else still in the Opposition",
                ));
            }
            // "Distance": "it takes a full round of movement before other
            // characters can engage the character in melee"; R-GB-14: a ranged
            // attack is not delayed.
            if let Some((name, rounds)) = &state.distance
                && *rounds > 0
                && *kind == HandKind::Physical
                && melee_skill(o.c(i)?, skill)
                && (o.c(t)?.name == *name || o.c(i)?.name == *name)
            {
                return Err(err(
                    RULE_DRAMATIC,
                    format!(
                        "Distance: {name} cannot be engaged in melee for {rounds} more round(s)"
                    ),
                ));
            }
            declare(&mut o, i, t, skill, *kind, options.clone(), roller)?;
        }
        Command::Play {
            card,
            skill,
            mind_over_matter,
            counter,
        } => {
            let Phase::Exchange(x) = &state.phase else {
                return Err(RuleError::new(
                    RULE_BETTING,
                    Refusal::WrongPhase,
                    "no opposed hand is in progress",
                ));
            };
            let side = if x.attacker_down.is_none() {
                Side::Attacker
            } else if x.defender_down.is_none() {
                Side::Defender
            } else {
                return Err(RuleError::new(
                    RULE_BETTING,
                    Refusal::WrongPhase,
                    "both face-down cards are played: bet or call",
                ));
            };
            let i = if side == Side::Attacker {
                x.attacker
            } else {
                x.defender
            };
            may_command(state, seat, i)?;
            let c = o.c(i)?;
            let card = card_in_hand(c, card)?;
            let defense = if side == Side::Defender {
                Some(defense_terms(
                    state,
                    x,
                    skill.as_deref(),
                    *mind_over_matter,
                    *counter,
                )?)
            } else {
                None
            };
            if defense.as_ref().is_some_and(|d| d.mind_over_matter) {
                o.need(i, &Advantage::MindOverMatter)?;
            }
            if o.c(i)?.status.next_defense.is_some()
                && side == Side::Defender
                && x.kind == HandKind::Physical
            {
                // Dodge / Serendipity last for the next physical defense draw only.
                let mut st = o.c(i)?.status.clone();
                st.next_defense = None;
                o.emit(Event::StatusChanged { who: i, status: st });
            }
            o.emit(Event::FaceDown {
                side,
                card,
                defense,
            });
            if side == Side::Defender && x.kind == HandKind::Simple {
                // "Core Mechanic": "each player simply chooses a card to play, with
                // the highest coming out better"; R-GB-15: no betting step, the
                // two cards are revealed at once.
                let Phase::Exchange(now) = &o.s().phase else {
                    return Err(err(RULE_SIMPLE, "no opposed hand is in progress"));
                };
                let now = now.clone();
                let (attacker, target) = (o.snapshot(now.attacker)?, o.snapshot(now.defender)?);
                reveal(&mut o, &now, &attacker, &target, roller)?;
            }
        }
        Command::Bet { .. } | Command::BetWild | Command::Call => {
            let Phase::Exchange(x) = &state.phase else {
                return Err(RuleError::new(
                    RULE_BETTING,
                    Refusal::WrongPhase,
                    "no opposed hand is in progress",
                ));
            };
            if x.defender_down.is_none() {
                return Err(RuleError::new(
                    RULE_BETTING,
                    Refusal::WrongPhase,
                    "both sides play a card face down first",
                ));
            }
            let i = if x.to_act == Side::Attacker {
                x.attacker
            } else {
                x.defender
            };
            may_command(state, seat, i).map_err(|_| {
                RuleError::new(
                    RULE_BETTING,
                    Refusal::NotYourTurn,
                    format!(
                        "it is {}'s bet",
                        state.combatants.get(i).map_or("", |c| c.name.as_str())
                    ),
                )
            })?;
            if x.kind == HandKind::Simple && *command != Command::Call {
                return Err(err(
                    RULE_SIMPLE,
                    "a simple hand is one card each: no bets and no raises",
                ));
            }
            match command {
                Command::Bet { card } => {
                    let limit = if x.to_act == Side::Attacker {
                        x.attacker_limit
                    } else {
                        x.defender_limit
                    };
                    if limit <= 0 {
                        return Err(err(
                            RULE_BETTING,
                            "no more face-up cards from the hand: as many as the ranks in the skill (a Wildcard may still be bet)",
                        ));
                    }
                    let card = card_in_hand(o.c(i)?, card)?;
                    o.emit(Event::FaceUp {
                        side: x.to_act,
                        card,
                        wild: None,
                    });
                }
                Command::BetWild => {
                    // The Wildcard spent does not change the shoe: draw first.
                    o.has_wildcard(i, "a card bet face up")?;
                    no_card_left(&state.shoe)?;
                    let steps = deck::draw_from(&state.shoe, roller, 1)?;
                    o.spend_wildcard(i, "a card bet face up")?;
                    let card = deck::cards(&steps)
                        .first()
                        .copied()
                        .ok_or_else(|| err(RULE_WILDCARD, "no card drawn"))?;
                    o.emit(Event::FaceUp {
                        side: x.to_act,
                        card,
                        wild: Some(steps),
                    });
                }
                _ => {
                    // The two sides as they stand (a call changes neither).
                    let sides = if x.called {
                        Some((o.snapshot(x.attacker)?, o.snapshot(x.defender)?))
                    } else {
                        None
                    };
                    o.emit(Event::Called { side: x.to_act });
                    if let Some((attacker, target)) = sides {
                        reveal(&mut o, x, &attacker, &target, roller)?;
                    }
                }
            }
        }
        Command::Reinit { card } => {
            let i = acting(state, seat)?;
            let card = initiative_card(o.c(i)?, card)?;
            let speedy = o.c(i)?.usable(&Advantage::Speedy) > 0;
            o.emit(Event::Initiative { who: i, card });
            if !speedy {
                end_turn(&mut o);
            }
        }
        Command::Wield { weapon } => {
            let i = actor_or_owner(state, seat)?;
            let c = o.c(i)?;
            let Some(pos) = c
                .carried
                .iter()
                .position(|w| w.name.eq_ignore_ascii_case(weapon.trim()))
            else {
                return Err(unknown_among(
                    RULE_RANDOM,
                    "carried weapon",
                    weapon,
                    c.carried.iter().map(|w| w.name.as_str()),
                ));
            };
            if c.wielding.len() >= 2 {
                return Err(err(RULE_RANDOM, "both hands hold weapons"));
            }
            let mut carried = c.carried.clone();
            let w = carried.remove(pos);
            let ready = w.ready;
            if !ready && !matches!(state.phase, Phase::Turn { actor, drawn: true } if actor == i) {
                return Err(err(
                    RULE_RANDOM,
                    "an item that is not readily accessible takes your action to retrieve",
                ));
            }
            let mut wielding = c.wielding.clone();
            wielding.push(w);
            o.emit(Event::Weapons {
                who: i,
                wielding,
                carried,
            });
            if !ready {
                end_turn(&mut o);
            }
        }
        Command::Pickup { weapon } => {
            let i = acting(state, seat)?;
            let c = o.c(i)?;
            if c.wielding.len() >= 2 {
                return Err(err(RULE_RANDOM, "both hands hold weapons"));
            }
            let Some(w) = state
                .ground
                .iter()
                .find(|w| w.name.eq_ignore_ascii_case(weapon.trim()))
                .cloned()
            else {
                return Err(unknown_among(
                    RULE_RANDOM,
                    "weapon on the ground",
                    weapon,
                    state.ground.iter().map(|w| w.name.as_str()),
                ));
            };
            o.emit(Event::PickedUp { who: i, weapon: w });
            end_turn(&mut o);
        }
        Command::Pass => {
            let i = acting(state, seat)?;
            if o.c(i)?.status.must_discard > 0 {
                return Err(err(RULE_ADVANTAGES, "Ass Pull: discard two cards first"));
            }
            end_turn(&mut o);
        }
        Command::Use {
            who: name,
            advantage,
        } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            use_advantage(&mut o, i, advantage, roller)?;
            knocked_out_by_cost(&mut o);
        }
        Command::Reinforce {
            who: name,
            name: group,
            weapon,
        }
        | Command::Involve {
            who: name,
            name: group,
            weapon,
        } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if o.s().combatants.len() + 2 > MAX_COMBATANTS {
                return Err(err(RULE_DRAMATIC, "the table is full"));
            }
            let power = o
                .c(i)?
                .character()
                .map(Character::highest_trait)
                .ok_or_else(|| err(RULE_DRAMATIC, "only a Fated may call on this"))?
                .clamp(1, 5);
            let controller = o.c(i)?.controller.clone();
            let reinforce = matches!(command, Command::Reinforce { .. });
            for (field, text) in std::iter::once(("name", group.as_str()))
                .chain(weapon.iter().map(|w| ("weapon", w.name.as_str())))
            {
                check_name(field, text).map_err(|e| err(RULE_DRAMATIC, e.to_string()))?;
            }
            if let Some(w) = weapon {
                let max = if reinforce { power } else { 20 };
                if !(0..=max).contains(&w.damage) {
                    return Err(RuleError::out_of_range(
                        RULE_DRAMATIC,
                        "weapon damage bonus",
                        0,
                        max,
                        w.damage,
                    ));
                }
            }
            o.spend_wildcard(i, if reinforce { "Reinforce" } else { "Involve" })?;
            let make = |n: String, body: Body| Combatant {
                name: n,
                controller: controller.clone(),
                body,
                hand: Vec::new(),
                initiative: None,
                wildcards: 0,
                knocked_out: false,
                present: true,
                wielding: weapon.iter().cloned().collect(),
                carried: Vec::new(),
                status: Status::default(),
                removed: false,
                added: false,
            };
            let mut joined = Vec::new();
            if reinforce {
                joined.push(make(
                    group.clone(),
                    Body::Extras {
                        power,
                        members: MAX_MEMBERS,
                    },
                ));
            } else {
                for k in 1..=2 {
                    joined.push(make(
                        format!("{group} {k}"),
                        Body::Follower {
                            power,
                            pool: power * 5,
                        },
                    ));
                }
            }
            for j in joined {
                if find(o.s(), &j.name).is_some() {
                    return Err(err(
                        RULE_DRAMATIC,
                        format!("there is already someone called {}", j.name),
                    ));
                }
                o.emit(Event::Joined(Box::new(j)));
                let k = o.s().combatants.len() - 1;
                if o.s().phase != Phase::Scene {
                    let n = o.c(k)?.hand_size();
                    o.draw(k, n, DrawReason::Opening, roller)?;
                    auto_initiative(&mut o, k)?;
                }
            }
        }
        Command::Appear { who: name } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if o.c(i)?.removed {
                return Err(RuleError::forbidden(
                    crate::gm::GM_TOOLS,
                    "the GM removed this character from the encounter",
                ));
            }
            if o.c(i)?.present {
                return Err(err(RULE_DRAMATIC, "already in the scene"));
            }
            o.emit(Event::Appeared { who: i });
            if o.s().phase != Phase::Scene {
                o.draw(i, HAND_SIZE, DrawReason::Opening, roller)?;
                auto_initiative(&mut o, i)?;
            }
        }
        Command::Distance {
            who: name,
            wildcards,
        } => {
            let i = who(state, name)?;
            may_command(state, seat, i)?;
            if state.distance.is_some() {
                return Err(err(
                    RULE_DRAMATIC,
                    "only one player can use Distance in a scene",
                ));
            }
            if state.phase != Phase::Scene {
                return Err(RuleError::new(
                    RULE_DRAMATIC,
                    Refusal::WrongPhase,
                    "Distance is used at the beginning of the scene",
                ));
            }
            if *wildcards < 1 || *wildcards > o.c(i)?.wildcards {
                return Err(RuleError::out_of_range(
                    RULE_DRAMATIC,
                    "wildcards",
                    1,
                    i64::from(o.c(i)?.wildcards),
                    i64::from(*wildcards),
                ));
            }
            for _ in 0..*wildcards {
                o.spend_wildcard(i, "Distance")?;
            }
            o.emit(Event::Distance {
                who: i,
                rounds: *wildcards,
            });
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
        Command::Adjust { who, value, amount } => {
            crate::gm::adjust(&mut o, state, seat, who, *value, *amount, roller)?;
        }
        Command::Add { kind, name, to } => {
            crate::gm::add(
                &mut o,
                state,
                seat,
                kind,
                name.as_deref(),
                to.as_ref(),
                roller,
            )?;
        }
        Command::Remove { who } => crate::gm::remove(&mut o, state, seat, who)?,
    }
    Ok(o.events)
}

/// The mulligan of the one acted against: "If anyone involved is unsatisfied
/// with their entire hand, they may mulligan by sacrificing their action in the
/// hand and discarding all of their cards and drawing five new cards" ("Core
/// Mechanic"); R-GB-16: the character acted against included, once, before
/// playing in that hand. It discards its hand and draws its hand size (5, Power
/// Rating, or members); the action it sacrifices is its action of this round
/// when that is still to come (its turn is skipped), a Tabula reading of "their
/// action" for a character whose own turn is not now.
fn defender_mulligan(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let Phase::Exchange(x) = &state.phase else {
        return Err(RuleError::new(
            RULE_MULLIGAN,
            Refusal::WrongPhase,
            "no opposed hand is in progress",
        ));
    };
    let i = x.defender;
    if !state
        .combatants
        .get(i)
        .is_some_and(|c| c.controlled_by(seat))
    {
        return Err(RuleError::new(
            RULE_MULLIGAN,
            Refusal::NotYourTurn,
            "in an opposed hand only the one acted against may mulligan, before its face-down card; the acting character mulligans in its draw step",
        ));
    }
    if x.defender_down.is_some() {
        return Err(RuleError::new(
            RULE_MULLIGAN,
            Refusal::WrongPhase,
            "a mulligan comes before playing in the hand: the face-down card is already played",
        ));
    }
    let c = o.c(i)?;
    if c.status.mulliganed {
        return Err(err(
            RULE_MULLIGAN,
            format!("{} has already mulliganed in this hand", c.name),
        ));
    }
    let hand = c.hand.clone();
    let n = c.hand_size();
    if !hand.is_empty() {
        o.emit(Event::Discarded {
            who: i,
            cards: hand,
        });
    }
    o.draw(i, n, DrawReason::Mulligan, roller)?;
    let later = x.attacker != i && state.order.iter().skip(state.turn + 1).any(|k| *k == i);
    let mut st = o.c(i)?.status.clone();
    st.mulliganed = true;
    if later {
        st.sacrificed = true;
    }
    o.emit(Event::StatusChanged { who: i, status: st });
    Ok(())
}

/// A Wildcard draws a card: refused (nothing spent) when the deck and the
/// discard pile hold none ("Shuffling"; every card is in a hand or on the table).
fn no_card_left(shoe: &Shoe) -> Result<(), RuleError> {
    if deck::drawable(shoe) == 0 {
        return Err(err(
            RULE_WILDCARD,
            "no card is left to draw: the deck and the discard pile are empty",
        ));
    }
    Ok(())
}

fn acting(state: &State, seat: &Seat) -> Result<usize, RuleError> {
    match &state.phase {
        Phase::Turn { actor, drawn: true } => {
            may_command(state, seat, *actor).map_err(|_| {
                RuleError::new(
                    RULE_STEPS,
                    Refusal::NotYourTurn,
                    format!(
                        "it is {}'s turn",
                        state.combatants.get(*actor).map_or("", |c| c.name.as_str())
                    ),
                )
            })?;
            Ok(*actor)
        }
        Phase::Turn { drawn: false, .. } => Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "draw or mulligan first",
        )),
        _ => Err(RuleError::new(
            RULE_STEPS,
            Refusal::WrongPhase,
            "this is done in the acting character's active phase",
        )),
    }
}

fn actor_or_owner(state: &State, seat: &Seat) -> Result<usize, RuleError> {
    match actor(state) {
        Some(a)
            if state
                .combatants
                .get(a)
                .is_some_and(|c| c.controlled_by(seat)) =>
        {
            Ok(a)
        }
        _ => Err(RuleError::new(
            RULE_STEPS,
            Refusal::NotYourTurn,
            "only the acting character does this now",
        )),
    }
}

/// What a Skill Check asks for.
struct FateAsk<'a> {
    skill: &'a str,
    trait_used: Trait,
    modifier: i64,
    acrobat: bool,
    specialty: Option<&'a str>,
}

fn fate_draw(
    o: &mut Out,
    i: usize,
    ask: FateAsk<'_>,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let FateAsk {
        skill,
        trait_used,
        modifier,
        acrobat,
        specialty,
    } = ask;
    let c = o.snapshot(i)?;
    let hand = skill_hand(
        &c,
        &FateAsk {
            skill,
            trait_used,
            modifier,
            acrobat,
            specialty,
        },
    )?;
    if acrobat {
        o.need(i, &Advantage::Acrobat)?;
    }
    let ch = c
        .character()
        .ok_or_else(|| err(fate::RULE_SKILL_HAND, "only a Fated makes a Skill Check"))?;
    // "Shuffling": the cards of both sides must be there to draw.
    let need = hand.player_draws().saturating_add(hand.dealer_draws());
    let left = deck::drawable(&o.s().shoe);
    if left < need {
        return Err(err(
            fate::RULE_SKILL_HAND,
            format!(
                "this Skill Check draws {need} cards and {left} are left to draw (the rest are in hands or on the table)"
            ),
        ));
    }
    // A Skill Hand draws from a copy of the shoe: the event replays the draw.
    let mut shoe = o.s().shoe.clone();
    let what = format!("Skill Hand ({skill})");
    let result = fate::play_skill_hand_for(hand, ch.name(), &what, &mut shoe, roller)?;
    o.emit(Event::FateDrawn {
        who: i,
        skill: skill.to_string(),
        result: Box::new(result),
    });
    Ok(())
}

/// The Skill Hand `c` plays for `ask` ("Skill Hand"; R-GB-6): rank cards (more
/// with Acrobat), the Trait (Spirit or Luck in Desperation), the Difficulty
/// Modifier and a Specialty's rank.
///
/// # Errors
/// Not a Fated, an unknown skill or Specialty.
fn skill_hand(c: &Combatant, ask: &FateAsk<'_>) -> Result<SkillHand, RuleError> {
    let Some(ch) = c.character() else {
        return Err(err(
            fate::RULE_SKILL_HAND,
            "Followers and Extras make no Skill Checks here; their Power Rating stands in",
        ));
    };
    let rank = ch
        .skill(ask.skill)
        .ok_or_else(|| unknown_skill(fate::RULE_SKILL_HAND, ch, ask.skill))?;
    let mut t = ch.trait_score(ask.trait_used);
    if c.desperate() {
        t = ch
            .trait_score(Trait::Spirit)
            .max(ch.trait_score(Trait::Luck));
    }
    let mut r = rank;
    if ask.acrobat {
        // Discarding up to Body cards and drawing as many: only the best card is
        // played, so this is the same as drawing that many more (never the best).
        r += ch.trait_score(Trait::Body).min((rank - 1).max(0));
    }
    Ok(SkillHand {
        trait_score: t.clamp(1, fate::MAX_TRAIT),
        rank: r.min(fate::MAX_RANK),
        modifier: ask.modifier,
        specialty: match ask.specialty {
            Some(sp) => ch
                .specialty_rank(sp)
                .ok_or_else(|| unknown_specialty(fate::RULE_SKILL_HAND, ch, sp))?
                .min(fate::MAX_SPECIALTY),
            None => 0,
        },
    })
}

/// Whether `c` can make a Skill Check with `skill` off `trait_used` now, as far
/// as cards go: the deck and the discard pile hold the cards of both sides
/// ("Shuffling"). For the legal commands (`use W calm`).
pub fn fate_cards_left(s: &State, c: &Combatant, skill: &str, trait_used: Trait) -> bool {
    let ask = FateAsk {
        skill,
        trait_used,
        modifier: 0,
        acrobat: false,
        specialty: None,
    };
    skill_hand(c, &ask)
        .is_ok_and(|h| deck::drawable(&s.shoe) >= h.player_draws().saturating_add(h.dealer_draws()))
}

/// Someone who enters mid-Opposition plays the lowest card of the hand just drawn
/// as initiative (a Tabula decision: the book does not say).
pub(crate) fn auto_initiative(o: &mut Out, k: usize) -> Result<(), RuleError> {
    let card = o
        .c(k)?
        .hand
        .iter()
        .min_by_key(|c| {
            values::initiative_value(c.face).unwrap_or(99) * 4
                + values::suit_of(c.face).map_or(0, |s| i64::from(values::suit_order(s)))
        })
        .copied();
    if let Some(card) = card {
        o.emit(Event::Initiative { who: k, card });
    }
    Ok(())
}

/// Whether the round waits for `c`'s initiative card: in the Opposition, none
/// played yet, and a card in hand to play ("Initiative"). One dealt no card
/// (every card of the shoe is in a hand or on the table) acts last.
fn awaits_initiative(c: &Combatant) -> bool {
    c.active() && c.initiative.is_none() && !c.hand.is_empty()
}

fn init_key(c: &Combatant, i: usize) -> (i64, u8, usize) {
    match c.initiative {
        Some(card) => (
            values::initiative_value(card.face).unwrap_or(99),
            values::suit_of(card.face).map_or(0, values::suit_order),
            i,
        ),
        None => (99, 9, i),
    }
}

fn start_round(o: &mut Out) {
    let s = o.people();
    let mut order: Vec<usize> = (0..s.combatants.len())
        .filter(|i| s.combatants.get(*i).is_some_and(Combatant::active))
        .collect();
    order.sort_by_key(|i| {
        s.combatants
            .get(*i)
            .map_or((99, 9, *i), |c| init_key(c, *i))
    });
    let first = order
        .iter()
        .copied()
        .find(|i| s.combatants.get(*i).is_some_and(|c| !c.status.sacrificed));
    let any = order.first().copied();
    let round = s.round + 1;
    o.emit(Event::Order { order });
    match (first, any) {
        (Some(f), _) => o.emit(Event::TurnBegan { who: f }),
        (None, Some(f)) => {
            // Everyone gave up this round's action: the round ends at once
            // (an order changes no round).
            o.emit(Event::RoundEnded { round });
            o.emit(Event::TurnBegan { who: f });
        }
        (None, None) => {
            o.emit(Event::OppositionEnded);
            o.emit(Event::Shuffled);
        }
    }
}

fn end_turn(o: &mut Out) {
    o.emit(Event::TurnEnded);
    let s = o.people();
    let next = s
        .order
        .iter()
        .skip(s.turn + 1)
        .find(|i| {
            s.combatants
                .get(**i)
                .is_some_and(|c| c.active() && !c.status.sacrificed)
        })
        .copied();
    let round = s.round + 1;
    match next {
        Some(n) => o.emit(Event::TurnBegan { who: n }),
        None => {
            o.emit(Event::RoundEnded { round });
            start_round(o);
        }
    }
}

/// Give up this round's action: now, if it is the character's own action (the
/// caller ends the turn: returns true); later, if its turn is still to come this
/// round (marked, the turn is skipped: returns false).
///
/// # Errors
/// When the character has already acted this round or is acting in an exchange.
fn sacrifice_action(o: &mut Out, i: usize) -> Result<bool, RuleError> {
    if own_action(o, i).is_ok() {
        return Ok(true);
    }
    let s = o.s();
    let later = match &s.phase {
        Phase::Initiative => true,
        Phase::Turn { actor, .. } => {
            *actor != i && s.order.iter().skip(s.turn + 1).any(|k| *k == i)
        }
        Phase::Exchange(x) => x.attacker != i && s.order.iter().skip(s.turn + 1).any(|k| *k == i),
        Phase::Scene => false,
    };
    if !later {
        return Err(err(
            RULE_ADVANTAGES,
            "the action of this round is already taken (or under way)",
        ));
    }
    let mut st = o.c(i)?.status.clone();
    st.sacrificed = true;
    o.emit(Event::StatusChanged { who: i, status: st });
    Ok(false)
}

fn unknown_skill(rule: Rule, ch: &Character, skill: &str) -> RuleError {
    unknown_among(
        rule,
        "skill",
        skill,
        ch.skills()
            .keys()
            .map(String::as_str)
            .chain(["<Weapon> Combat", "Craft <Type>"]),
    )
}

fn unknown_specialty(rule: Rule, ch: &Character, name: &str) -> RuleError {
    unknown_among(
        rule,
        "Specialty",
        name,
        ch.specialties().iter().map(|(n, _, _)| n.as_str()),
    )
}

fn skill_rank(c: &Combatant, skill: &str) -> Result<i64, RuleError> {
    match &c.body {
        Body::Fated { character, .. } => character
            .skill(skill)
            .ok_or_else(|| unknown_skill(RULE_BETTING, character, skill)),
        Body::Follower { power, .. } => Ok(*power),
        Body::Extras { power, .. } => Ok(power - 1),
    }
}

fn extra_cards(c: &Combatant, skill: &str, kind: HandKind) -> i64 {
    let s = skill.trim().to_ascii_lowercase();
    let mut n = 0;
    if kind == HandKind::Social && c.usable(&Advantage::CunningLinguist) > 0 {
        n += 1;
    }
    if (s == "stealth" || s == "influence") && c.usable(&Advantage::Criminal) > 0 {
        n += 1;
    }
    if (s == "athletics" || s == "dexterity" || s == "manual dexterity")
        && c.usable(&Advantage::Hearty) > 0
    {
        n += 1;
    }
    n
}

/// R-GB-7: -2 on the total with two weapons (Ambidextrous -1), when the hand uses
/// one of their skills; Florentine<W> removes it on defense with W.
fn two_weapon_penalty(c: &Combatant, skill: &str, defending: bool) -> i64 {
    if c.wielding.len() < 2
        || !c
            .wielding
            .iter()
            .any(|w| w.skill.eq_ignore_ascii_case(skill.trim()))
    {
        return 0;
    }
    if defending
        && c.wielding.iter().any(|w| {
            w.skill.eq_ignore_ascii_case(skill.trim())
                && c.usable(&Advantage::Florentine(w.name.clone())) > 0
        })
    {
        return 0;
    }
    if c.usable(&Advantage::Ambidextrous) > 0 {
        1
    } else {
        2
    }
}

/// Whether `c` can be the one acted against in a new hand: it holds a card to
/// play face down, or it will draw one ("Each hand, every player involved draws
/// a new card"), which it cannot when the deck and the discard pile are empty
/// (`shoe_dry`, "Shuffling").
pub fn can_play_in_a_hand(c: &Combatant, shoe_dry: bool) -> bool {
    !c.hand.is_empty() || !shoe_dry
}

/// Whether a hand with `skill` is a melee attack for `c`: a melee weapon in hand
/// for that skill, or Unarmed or Grapple Combat ("Random Rules", "Advantages").
fn melee_skill(c: &Combatant, skill: &str) -> bool {
    let lower = skill.to_ascii_lowercase();
    c.wielding
        .iter()
        .any(|w| w.melee && w.skill.eq_ignore_ascii_case(skill.trim()))
        || lower.contains("unarmed")
        || lower.contains("grapple")
}

fn desperate_trait(c: &Combatant) -> i64 {
    c.trait_score(Trait::Spirit).max(c.trait_score(Trait::Luck))
}

fn declare(
    o: &mut Out,
    i: usize,
    t: usize,
    skill: &str,
    kind: HandKind,
    opts: AttackOptions,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    // The acting character as it stands before paying for its options: the
    // Traits, ranks and Advantages below are read from here.
    let c = o.snapshot(i)?;
    if c.hand.is_empty() {
        return Err(err(
            RULE_BETTING,
            format!("{} has no card to play face down", c.name),
        ));
    }
    let shoe_dry = deck::drawable(&o.s().shoe) == 0;
    if !can_play_in_a_hand(o.c(t)?, shoe_dry) {
        return Err(err(
            RULE_BETTING,
            format!(
                "{} holds no card to play face down and none is left to draw",
                o.c(t)?.name
            ),
        ));
    }
    let rank = skill_rank(&c, skill)?;
    let mut bonus = match (&c.body, kind) {
        (_, HandKind::Simple) => 0,
        (Body::Fated { .. }, HandKind::Physical) => c.trait_score(Trait::Body),
        (Body::Fated { .. }, HandKind::Social) => c.trait_score(Trait::Mind),
        (Body::Fated { .. }, HandKind::Fear) => c.trait_score(Trait::Spirit),
        (Body::Follower { power, .. }, _) => *power,
        (Body::Extras { .. }, _) => 0,
    };
    let chosen = [opts.zeal, opts.fortune, opts.disarm]
        .iter()
        .filter(|b| **b)
        .count();
    if chosen > 1 {
        return Err(err(
            RULE_ADVANTAGES,
            "Zeal, Fortune and Disarm each replace the Trait: choose one",
        ));
    }
    let physical = kind == HandKind::Physical;
    let melee = melee_skill(&c, skill);
    let needs_physical =
        opts.zeal || opts.fortune || opts.disarm || opts.savage || opts.wild_swing > 0;
    if needs_physical && !physical {
        return Err(err(
            RULE_ADVANTAGES,
            "Zeal, Fortune, Disarm, Savage and Wild Swing go with a physical attack",
        ));
    }
    if (opts.disarm || opts.savage || opts.wild_swing > 0) && !melee {
        return Err(err(
            RULE_ADVANTAGES,
            "Disarm, Savage and Wild Swing need a melee attack",
        ));
    }
    if opts.zeal {
        o.need(i, &Advantage::Zeal)?;
        o.spend_pool(i, Trait::Spirit, "Zeal", roller)?;
        bonus = c.trait_score(Trait::Spirit);
    }
    if opts.fortune {
        o.need(i, &Advantage::Fortune)?;
        o.spend_pool(i, Trait::Luck, "Fortune", roller)?;
        bonus = c.trait_score(Trait::Luck);
    }
    if opts.disarm {
        o.need(i, &Advantage::Disarm)?;
        o.spend_pool(i, Trait::Mind, "Disarm", roller)?;
        bonus = c.trait_score(Trait::Mind);
    }
    if opts.savage {
        o.need(i, &Advantage::Savage)?;
        o.spend_pool(i, Trait::Body, "Savage", roller)?;
    }
    if opts.wild_swing > 0 {
        o.need(i, &Advantage::WildSwing)?;
        if opts.wild_swing > c.trait_score(Trait::Body) {
            return Err(RuleError::out_of_range(
                RULE_ADVANTAGES,
                "Wild Swing",
                0,
                c.trait_score(Trait::Body),
                opts.wild_swing,
            ));
        }
        o.spend_pool(i, Trait::Body, "Wild Swing", roller)?;
    }
    // R-GB-13: a cost that emptied a second pool knocked the attacker out; the
    // attack is not made and the turn ends.
    if o.c(i)?.knocked_out {
        end_turn(o);
        return Ok(());
    }
    // "Desperation": the hand is played in Desperation (perhaps entered just now,
    // by a cost paid above) with Spirit or Luck instead of any other Trait.
    if o.c(i)?.desperate() && kind != HandKind::Simple {
        bonus = desperate_trait(&c);
    }
    // R-GB-17: Wild Swing lowers the roll bonus by N (and adds 2N damage);
    // Desperation's bonus is taken first and never erases the lowering.
    bonus -= opts.wild_swing;
    if let Some(sp) = &opts.specialty {
        let ch = c
            .character()
            .ok_or_else(|| err(RULE_BETTING, "only a Fated has Specialties"))?;
        let r = ch
            .specialty_rank(sp)
            .ok_or_else(|| unknown_specialty(RULE_BETTING, ch, sp))?;
        bonus += r;
    }
    bonus -= two_weapon_penalty(&c, skill, false) + opts.penalty;
    let mut limit = (rank + extra_cards(&c, skill, kind) - c.status.stance).max(0);
    if let Some(n) = opts.counter_cards {
        limit = n;
    }
    if kind == HandKind::Simple {
        // R-GB-15: a simple hand is one card each, no face-up cards.
        limit = 0;
    }
    let x = Exchange {
        attacker: i,
        defender: t,
        skill: skill.trim().to_string(),
        defense_skill: None,
        kind,
        options: opts,
        attacker_bonus: bonus,
        defender_bonus: 0,
        attacker_limit: limit,
        defender_limit: 0,
        attacker_down: None,
        defender_down: None,
        attacker_up: Vec::new(),
        defender_up: Vec::new(),
        to_act: Side::Defender,
        called: false,
        mind_over_matter: false,
        counter: 0,
    };
    // "Each hand, every player involved draws a new card from the deck": the
    // acting character drew in its draw step; the one affected draws now (the
    // declaration changes neither its hand nor the shoe, so the card is drawn
    // first and the events keep their order).
    let drew = o.drawn(t, 1, DrawReason::Hand, roller)?;
    o.emit(Event::Declared(Box::new(x)));
    if let Some(e) = drew {
        o.emit(e);
    }
    Ok(())
}

fn defense_terms(
    s: &State,
    x: &Exchange,
    skill: Option<&str>,
    mom: bool,
    counter: i64,
) -> Result<Defense, RuleError> {
    let c = |i: usize| {
        s.combatants
            .get(i)
            .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()))
    };
    let d = c(x.defender)?;
    let skill = skill.unwrap_or(&x.skill).trim().to_string();
    let rank = skill_rank(d, &skill)?;
    let mut bonus = match (&d.body, x.kind) {
        (_, HandKind::Simple) => 0,
        (Body::Fated { .. }, HandKind::Physical | HandKind::Social) => d.trait_score(Trait::Mind),
        (Body::Fated { .. }, HandKind::Fear) => d.trait_score(Trait::Spirit),
        (Body::Follower { power, .. }, _) => *power,
        (Body::Extras { .. }, _) => 0,
    };
    if x.kind == HandKind::Physical && d.character().is_some() {
        if d.status.studied.contains(&x.attacker) && d.usable(&Advantage::Study) > 0 {
            bonus = 2 * d.trait_score(Trait::Mind);
        }
        if s.karmic_shuffle || x.options.fortune {
            bonus = d.trait_score(Trait::Luck);
        }
        if let Some(t) = d.status.next_defense {
            bonus = d.trait_score(t);
        }
        if d.status.all_out_defense {
            bonus = 2 * d.trait_score(Trait::Body);
        }
    }
    if d.desperate() && x.kind != HandKind::Simple {
        bonus = desperate_trait(d);
    }
    bonus -= two_weapon_penalty(d, &skill, true);
    let berserk = i64::from(d.status.berserk);
    let limit = if x.kind == HandKind::Simple {
        // R-GB-15: a simple hand is one card each, no face-up cards.
        0
    } else {
        (rank + extra_cards(d, &skill, x.kind) + d.status.stance - berserk).max(0)
    };
    if counter < 0 {
        return Err(RuleError::out_of_range(
            RULE_ADVANTAGES,
            "Counter cards",
            0,
            limit,
            counter,
        ));
    }
    if counter > 0 {
        // Counter<Weapon>: attacked with a melee weapon while wielding the chosen
        // weapon; any number of skill cards sacrificed, leaving at least the
        // face-down card.
        let a = c(x.attacker)?;
        let melee_attack = x.kind == HandKind::Physical
            && a.wielding
                .iter()
                .any(|w| w.melee && w.skill.eq_ignore_ascii_case(&x.skill));
        let has = d
            .wielding
            .iter()
            .any(|w| d.usable(&Advantage::Counter(w.name.clone())) > 0);
        if !has {
            return Err(err(
                RULE_ADVANTAGES,
                "Counter needs the Advantage for a weapon in hand",
            ));
        }
        if !melee_attack {
            return Err(err(
                RULE_ADVANTAGES,
                "Counter answers an attack with a melee weapon",
            ));
        }
        if counter > limit {
            return Err(RuleError::out_of_range(
                RULE_ADVANTAGES,
                "Counter cards",
                1,
                limit,
                counter,
            ));
        }
    }
    Ok(Defense {
        skill,
        bonus,
        limit: limit - counter.max(0),
        mind_over_matter: mom,
        counter: counter.max(0),
    })
}

fn total(down: Option<Card>, up: &[Card], bonus: i64) -> Total {
    let sum: i64 = down
        .iter()
        .chain(up.iter())
        .filter_map(|c| values::value(c.face))
        .sum();
    Total {
        total: sum + bonus,
        suit: down.and_then(|c| values::suit_of(c.face)),
    }
}

/// Steps 8-9: both called; `x` is the exchange, `attacker` and `target` its
/// two sides, as they stood when the second call came (a call changes none
/// of them).
fn reveal(
    o: &mut Out,
    x: &Exchange,
    attacker: &Combatant,
    target: &Combatant,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let a = total(x.attacker_down, &x.attacker_up, x.attacker_bonus);
    let d = total(x.defender_down, &x.defender_up, x.defender_bonus);
    let success = values::aggressor_wins(a, d);
    let margin = a.total - d.total;
    // R-GB-4; R-GB-15: a simple hand has no raises.
    let raises = if success && x.kind != HandKind::Simple {
        margin.max(0) / 2
    } else {
        0
    };
    let cards = (
        x.attacker_down
            .iter()
            .chain(x.attacker_up.iter())
            .copied()
            .collect(),
        x.defender_down
            .iter()
            .chain(x.defender_up.iter())
            .copied()
            .collect(),
    );
    o.emit(Event::Revealed {
        attacker: a.total,
        defender: d.total,
        success,
        margin,
        raises,
        cards,
    });
    let ti = x.defender;
    if x.kind != HandKind::Simple && success {
        if x.options.disarm {
            if let Some(w) = target.wielding.first().cloned() {
                o.emit(Event::Dropped {
                    who: ti,
                    weapon: w.clone(),
                });
                if raises >= 2 && o.c(x.attacker)?.wielding.len() < 2 {
                    o.emit(Event::PickedUp {
                        who: x.attacker,
                        weapon: w,
                    });
                }
            }
        } else {
            consequences(o, x, attacker, ti, target, margin, roller)?;
        }
    } else if x.kind != HandKind::Simple && target.usable(&Advantage::Careful) > 0 {
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    let follow_up = success
        && x.options.savage
        && x.options.penalty == 0
        && o.c(ti)?.active()
        && o.c(x.attacker)?.active()
        && !o.c(x.attacker)?.hand.is_empty();
    let shoe_dry = deck::drawable(&o.s().shoe) == 0;
    let follow_up = follow_up && can_play_in_a_hand(o.c(ti)?, shoe_dry);
    let counter = !success
        && x.counter > 0
        && o.c(ti)?.active()
        && o.c(x.attacker)?.active()
        && !o.c(ti)?.hand.is_empty()
        && can_play_in_a_hand(o.c(x.attacker)?, shoe_dry);
    if follow_up {
        let opts = AttackOptions {
            penalty: 2,
            specialty: x.options.specialty.clone(),
            ..AttackOptions::default()
        };
        declare(o, x.attacker, ti, &x.skill, x.kind, opts, roller)?;
    } else if counter {
        let skill = x.defense_skill.clone().unwrap_or_else(|| x.skill.clone());
        let opts = AttackOptions {
            counter_cards: Some(x.counter),
            ..AttackOptions::default()
        };
        declare(o, ti, x.attacker, &skill, HandKind::Physical, opts, roller)?;
    } else {
        end_turn(o);
    }
    Ok(())
}

fn consequences(
    o: &mut Out,
    x: &Exchange,
    attacker: &Combatant,
    ti: usize,
    target: &Combatant,
    margin: i64,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let matching: Vec<&Weapon> = attacker
        .wielding
        .iter()
        .filter(|w| w.skill.eq_ignore_ascii_case(&x.skill))
        .collect();
    // R-GB-7: with two weapons, the damage of both is added.
    let weapon: i64 = if matching.is_empty() {
        0
    } else if attacker.wielding.len() == 2 {
        attacker.wielding.iter().map(|w| w.damage).sum()
    } else {
        matching.iter().map(|w| w.damage).sum()
    };
    if let Body::Extras { .. } = target.body {
        let lost = (margin / 2).min(target.pool(Trait::Body)).max(0);
        o.emit(Event::MembersLost { who: ti, lost });
        // "the number of members determining the size of the group's hand": the
        // group keeps its best cards, one per member left.
        let left = usize::try_from(o.c(ti)?.pool(Trait::Body).max(0)).unwrap_or(0);
        let mut hand = o.c(ti)?.hand.clone();
        if hand.len() > left {
            hand.sort_by_key(|k| values::key(k.face).unwrap_or(-1));
            let gone: Vec<Card> = hand.iter().take(hand.len() - left).copied().collect();
            o.emit(Event::Discarded {
                who: ti,
                cards: gone,
            });
        }
        if o.c(ti)?.pool(Trait::Body) <= 0 {
            o.emit(Event::KnockedOut { who: ti });
        }
        return Ok(());
    }
    let mut raw = margin + weapon;
    let physical = x.kind == HandKind::Physical;
    let s = x.skill.to_ascii_lowercase();
    if physical && s == "unarmed combat" && attacker.usable(&Advantage::Brawler) > 0 {
        raw += skill_rank(attacker, "Unarmed Combat").unwrap_or(0);
    }
    if physical && s == "grapple combat" && attacker.usable(&Advantage::Grappler) > 0 {
        raw += skill_rank(attacker, "Grapple Combat").unwrap_or(0);
    }
    if physical && attacker.status.berserk {
        raw += 2 * attacker.trait_score(Trait::Body);
    }
    raw += 2 * x.options.wild_swing;
    if let Body::Follower { .. } = target.body {
        let taken = raw.min(target.pool(Trait::Body)).max(0);
        o.emit(Event::Damage {
            who: ti,
            pool: Trait::Body,
            raw,
            taken,
        });
        if o.c(ti)?.pool(Trait::Body) <= 0 {
            o.emit(Event::KnockedOut { who: ti });
        }
        return Ok(());
    }
    let mut pool = x.kind.pool();
    if pool == Trait::Body && x.mind_over_matter && target.pool(Trait::Mind) > 0 {
        o.spend_pool(ti, Trait::Mind, "Mind Over Matter", roller)?;
        pool = Trait::Mind;
    }
    // The target before the damage: its reductions, and the Advantages that
    // answer the hit (read before the damage, which may empty their pool).
    let t = o.c(ti)?;
    let mut reduce = 0;
    if pool == Trait::Body {
        reduce += t.usable(&Advantage::Toughness) as i64;
        reduce += t
            .character()
            .and_then(|c| c.armour())
            .map_or(0, |a| a.reduction);
        if t.status.iron_wall {
            reduce += t.trait_score(Trait::Body);
        }
    }
    if pool == Trait::Spirit {
        reduce += t.usable(&Advantage::Resolve) as i64;
    }
    if (pool == Trait::Body || pool == Trait::Spirit) && t.status.soul_of_steel {
        reduce += 2 * t.trait_score(Trait::Spirit);
    }
    let before = t.pool(pool);
    let careful = t.usable(&Advantage::Careful) > 0;
    let tenacity = t.usable(&Advantage::Tenacity) > 0;
    let faith = t.usable(&Advantage::Faith) > 0;
    let taken = (raw - reduce).max(0).min(before);
    o.emit(Event::Damage {
        who: ti,
        pool,
        raw,
        taken,
    });
    if taken == 0 && careful {
        // The attack landed but every point was stopped: damage avoided.
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    if taken > 0 && pool == Trait::Body && tenacity {
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    if taken > 0 && pool == Trait::Spirit && faith {
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    pool_emptied(o, ti, roller)
}

/// The one place where "a pool reached zero" is settled, whatever lowered it:
/// damage, or paying an Advantage's or action's cost (Serendipity, Dodge,
/// Savage, Wild Swing, Zeal, Fortune, Disarm, Ass Pull, Mind Over Matter).
/// A Fated with one empty pool is Desperate and draws Spirit or Luck cards; with
/// two empty pools it is knocked out. Damage to a pool already empty empties
/// nothing new, so it does not "roll over" into a knock-out.
///
/// A Game of Bastards, "Desperation" (003_2dfeea144768d328.txt); R-GB-5, R-GB-13.
pub(crate) fn pool_emptied(
    o: &mut Out,
    who: usize,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let c = o.c(who)?;
    let Body::Fated {
        pools, desperate, ..
    } = &c.body
    else {
        return Ok(());
    };
    let empty = pools.iter().filter(|p| **p <= 0).count();
    let (desperate, knocked_out) = (*desperate, c.knocked_out);
    if empty >= 1 && !desperate {
        o.emit(Event::Desperate { who });
        if empty < 2 {
            let n = usize::try_from(desperate_trait(o.c(who)?)).unwrap_or(0);
            o.draw(who, n, DrawReason::Desperation, roller)?;
        }
    }
    if empty >= 2 && !knocked_out {
        o.emit(Event::KnockedOut { who });
    }
    Ok(())
}

/// After a cost was paid: a character knocked out by its own payment
/// (R-GB-13) takes no further part. If it was acting, its turn ends; if it was
/// in an opposed hand, the hand is abandoned (the cards played go to the
/// discard pile) and the turn ends; if it was the last to choose an initiative
/// card, the round starts without it.
fn knocked_out_by_cost(o: &mut Out) {
    takes_no_further_part(o, |c| c.knocked_out);
}

/// One for whom `gone` holds takes no further part (knocked out by its own
/// payment, R-GB-13; removed by the GM, issue 27 item 6): if it was acting,
/// its turn ends; if it was in an opposed hand, the hand is abandoned (the
/// cards played go to the discard pile) and the turn ends; if it was the last
/// to choose an initiative card, the round starts without it.
pub(crate) fn takes_no_further_part(o: &mut Out, gone: impl Fn(&Combatant) -> bool) {
    let s = o.s();
    let out = |i: usize| s.combatants.get(i).is_some_and(&gone);
    match &s.phase {
        Phase::Turn { actor, .. } if out(*actor) => end_turn(o),
        Phase::Exchange(x) if out(x.attacker) || out(x.defender) => {
            let x = x.clone();
            for (who, down, up) in [
                (x.attacker, x.attacker_down, &x.attacker_up),
                (x.defender, x.defender_down, &x.defender_up),
            ] {
                let cards: Vec<Card> = down.iter().chain(up.iter()).copied().collect();
                if !cards.is_empty() {
                    o.emit(Event::Discarded { who, cards });
                }
            }
            end_turn(o);
        }
        Phase::Initiative if !s.combatants.iter().any(awaits_initiative) => {
            start_round(o);
        }
        _ => {}
    }
}

fn in_opposition(o: &mut Out) -> Result<(), RuleError> {
    if o.s().phase == Phase::Scene {
        return Err(RuleError::new(
            RULE_ADVANTAGES,
            Refusal::WrongPhase,
            "this is used in an Opposition",
        ));
    }
    Ok(())
}

fn own_action(o: &mut Out, i: usize) -> Result<(), RuleError> {
    match o.s().phase {
        Phase::Turn { actor, drawn: true } if actor == i => Ok(()),
        _ => Err(RuleError::new(
            RULE_ADVANTAGES,
            Refusal::WrongPhase,
            "this is used during the character's own action",
        )),
    }
}

fn use_advantage(
    o: &mut Out,
    i: usize,
    a: &UseAdvantage,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let mut st = o.c(i)?.status.clone();
    match a {
        UseAdvantage::AllOutDefense => {
            o.need(i, &Advantage::AllOutDefense)?;
            in_opposition(o)?;
            // "At any point during or before this character's action this round":
            // no actions this round, so the action is given up.
            let now = sacrifice_action(o, i)?;
            let mut st = o.c(i)?.status.clone();
            st.all_out_defense = true;
            o.emit(Event::StatusChanged { who: i, status: st });
            if now {
                end_turn(o);
            }
        }
        UseAdvantage::DefensiveStance(n) => {
            o.need(i, &Advantage::DefensiveStance)?;
            own_action(o, i)?;
            let body = o.c(i)?.trait_score(Trait::Body);
            if !(0..=body).contains(n) {
                return Err(RuleError::out_of_range(
                    RULE_ADVANTAGES,
                    "Defensive Stance",
                    0,
                    body,
                    *n,
                ));
            }
            st.stance = *n;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::Serendipity | UseAdvantage::Dodge => {
            let (adv, pool) = if *a == UseAdvantage::Dodge {
                (Advantage::Dodge, Trait::Body)
            } else {
                (Advantage::Serendipity, Trait::Luck)
            };
            o.need(i, &adv)?;
            in_opposition(o)?;
            o.spend_pool(i, pool, adv.name(), roller)?;
            st.next_defense = Some(pool);
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::IronWall => {
            o.need(i, &Advantage::IronWall)?;
            in_opposition(o)?;
            o.spend_wildcard(i, "Iron Wall")?;
            st.iron_wall = true;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::KarmicShuffle => {
            o.need(i, &Advantage::KarmicShuffle)?;
            in_opposition(o)?;
            o.spend_wildcard(i, "Karmic Shuffle")?;
            o.emit(Event::KarmicShuffle);
        }
        UseAdvantage::SoulOfSteel => {
            o.need(i, &Advantage::SoulOfSteel)?;
            in_opposition(o)?;
            o.spend_wildcard(i, "Soul of Steel")?;
            let now = sacrifice_action(o, i)?;
            let mut st = o.c(i)?.status.clone();
            st.soul_of_steel = true;
            o.emit(Event::StatusChanged { who: i, status: st });
            if now {
                end_turn(o);
            }
        }
        UseAdvantage::Study(target) => {
            o.need(i, &Advantage::Study)?;
            own_action(o, i)?;
            let t = who(o.s(), target)?;
            if !st.studied.contains(&t) {
                st.studied.push(t);
            }
            o.emit(Event::StatusChanged { who: i, status: st });
            end_turn(o);
        }
        UseAdvantage::AssPull => {
            o.need(i, &Advantage::AssPull)?;
            own_action(o, i)?;
            o.spend_pool(i, Trait::Luck, "Ass Pull", roller)?;
            if o.c(i)?.knocked_out {
                // R-GB-13: the last LP emptied a second pool.
                return Ok(());
            }
            o.draw(i, 2, DrawReason::AssPull, roller)?;
            let mut st = o.c(i)?.status.clone();
            st.must_discard = 2;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::Berserk => {
            o.need(i, &Advantage::Berserk)?;
            own_action(o, i)?;
            o.spend_wildcard(i, "Berserk")?;
            st.berserk = true;
            o.emit(Event::StatusChanged { who: i, status: st });
        }
        UseAdvantage::Calm => {
            own_action(o, i)?;
            if !st.berserk {
                return Err(err(RULE_ADVANTAGES, "not Berserk"));
            }
            fate_draw(
                o,
                i,
                FateAsk {
                    skill: "Meditation",
                    trait_used: Trait::Mind,
                    modifier: 0,
                    acrobat: false,
                    specialty: None,
                },
                roller,
            )?;
            if let Some(Event::FateDrawn { result, .. }) = o.events.last()
                && result.success
            {
                let mut st = o.c(i)?.status.clone();
                st.berserk = false;
                o.emit(Event::StatusChanged { who: i, status: st });
            }
            end_turn(o);
        }
    }
    Ok(())
}

fn remove_from_hand(c: &mut Combatant, card: Card) {
    if let Some(p) = c.hand.iter().position(|k| k.id == card.id) {
        c.hand.remove(p);
    }
}

/// Apply one event. Never rolls, never fails.
pub fn evolve(s: &mut State, e: &Event) {
    match e {
        Event::Shuffled => {
            for c in &mut s.combatants {
                c.hand.clear();
                c.initiative = None;
            }
            s.shoe.recall_all();
        }
        Event::OppositionBegan => {
            s.phase = Phase::Initiative;
            s.round = 1;
            s.order.clear();
            s.turn = 0;
            s.karmic_shuffle = false;
            for c in &mut s.combatants {
                c.status = Status {
                    berserk: c.status.berserk,
                    ..Status::default()
                };
            }
        }
        Event::Drew { who, steps, .. } => {
            deck::apply(&mut s.shoe, steps);
            let jokers = deck::jokers(steps);
            if let Some(c) = s.combatants.get_mut(*who) {
                c.hand.extend(deck::cards(steps));
                c.wildcards = c.wildcards.saturating_add(jokers);
            }
        }
        Event::Discarded { who, cards } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                for k in cards {
                    remove_from_hand(c, *k);
                }
            }
            deck::discard_all(&mut s.shoe, cards);
        }
        Event::Initiative { who, card } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                remove_from_hand(c, *card);
                if let Some(old) = c.initiative.replace(*card) {
                    let _ = s.shoe.discard(old);
                }
            }
        }
        Event::Order { order } => {
            s.order = order.clone();
            s.turn = 0;
        }
        Event::TurnBegan { who } => {
            s.phase = Phase::Turn {
                actor: *who,
                drawn: false,
            };
            s.turn = s.order.iter().position(|i| i == who).unwrap_or(0);
            if let Some(c) = s.combatants.get_mut(*who) {
                c.status.discarded = false;
            }
        }
        Event::DrawStepDone => {
            if let Phase::Turn { actor, .. } = s.phase {
                s.phase = Phase::Turn { actor, drawn: true };
            }
        }
        Event::Declared(x) => {
            // A new hand: the one affected draws and may discard once in it.
            if let Some(c) = s.combatants.get_mut(x.defender) {
                c.status.discarded = false;
                c.status.mulliganed = false;
            }
            s.phase = Phase::Exchange(x.clone());
        }
        Event::FaceDown {
            side,
            card,
            defense,
        } => {
            if let Phase::Exchange(x) = &mut s.phase {
                let i = match side {
                    Side::Attacker => {
                        x.attacker_down = Some(*card);
                        x.attacker
                    }
                    Side::Defender => {
                        x.defender_down = Some(*card);
                        if let Some(d) = defense {
                            x.defense_skill = Some(d.skill.clone());
                            x.defender_bonus = d.bonus;
                            x.defender_limit = d.limit;
                            x.mind_over_matter = d.mind_over_matter;
                            x.counter = d.counter;
                        }
                        x.to_act = Side::Defender;
                        x.defender
                    }
                };
                if let Some(c) = s.combatants.get_mut(i) {
                    remove_from_hand(c, *card);
                }
            }
        }
        Event::FaceUp { side, card, wild } => {
            if let Some(steps) = wild {
                deck::apply(&mut s.shoe, steps);
            }
            if let Phase::Exchange(x) = &mut s.phase {
                let i = match side {
                    Side::Attacker => {
                        x.attacker_up.push(*card);
                        if wild.is_none() {
                            x.attacker_limit -= 1;
                        }
                        x.attacker
                    }
                    Side::Defender => {
                        x.defender_up.push(*card);
                        if wild.is_none() {
                            x.defender_limit -= 1;
                        }
                        x.defender
                    }
                };
                x.called = false;
                x.to_act = if *side == Side::Attacker {
                    Side::Defender
                } else {
                    Side::Attacker
                };
                if let Some(c) = s.combatants.get_mut(i) {
                    remove_from_hand(c, *card);
                    if let Some(steps) = wild {
                        c.wildcards = c.wildcards.saturating_add(deck::jokers(steps));
                    }
                }
            }
        }
        Event::Called { side } => {
            if let Phase::Exchange(x) = &mut s.phase {
                x.called = true;
                x.to_act = if *side == Side::Attacker {
                    Side::Defender
                } else {
                    Side::Attacker
                };
            }
        }
        Event::Revealed { cards, .. } => {
            deck::discard_all(&mut s.shoe, &cards.0);
            deck::discard_all(&mut s.shoe, &cards.1);
        }
        Event::Damage {
            who, pool, taken, ..
        } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                match &mut c.body {
                    Body::Fated { pools, .. } => {
                        let p = &mut pools[trait_index(*pool)];
                        *p = (*p - taken).max(0);
                    }
                    Body::Follower { pool, .. } => *pool = (*pool - taken).max(0),
                    Body::Extras { .. } => {}
                }
            }
        }
        Event::MembersLost { who, lost } => {
            if let Some(Combatant {
                body: Body::Extras { members, .. },
                ..
            }) = s.combatants.get_mut(*who)
            {
                *members = (*members - lost).max(0);
            }
        }
        Event::Spent { who, pool, .. } => {
            if let Some(Combatant {
                body: Body::Fated { pools, .. },
                ..
            }) = s.combatants.get_mut(*who)
            {
                let p = &mut pools[trait_index(*pool)];
                *p = (*p - 1).max(0);
            }
        }
        Event::WildcardSpent { who, .. } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.wildcards = c.wildcards.saturating_sub(1);
            }
        }
        Event::StatusChanged { who, status } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.status = status.clone();
            }
        }
        Event::Desperate { who } => {
            if let Some(Combatant {
                body: Body::Fated { desperate, .. },
                ..
            }) = s.combatants.get_mut(*who)
            {
                *desperate = true;
            }
        }
        Event::KnockedOut { who } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.knocked_out = true;
            }
        }
        Event::Weapons {
            who,
            wielding,
            carried,
        } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.wielding = wielding.clone();
                c.carried = carried.clone();
            }
        }
        Event::Dropped { who, weapon } => {
            if let Some(c) = s.combatants.get_mut(*who)
                && let Some(p) = c.wielding.iter().position(|w| w == weapon)
            {
                c.wielding.remove(p);
                s.ground.push(weapon.clone());
            }
        }
        Event::PickedUp { who, weapon } => {
            if let Some(p) = s.ground.iter().position(|w| w == weapon) {
                s.ground.remove(p);
                if let Some(c) = s.combatants.get_mut(*who) {
                    c.wielding.push(weapon.clone());
                }
            }
        }
        Event::TurnEnded => {}
        Event::RoundEnded { round } => {
            s.round = *round;
            for c in &mut s.combatants {
                c.status.all_out_defense = false;
                c.status.iron_wall = false;
                c.status.soul_of_steel = false;
                c.status.sacrificed = false;
            }
            if let Some((_, r)) = &mut s.distance {
                *r = r.saturating_sub(1);
            }
        }
        Event::OppositionEnded => {
            s.phase = Phase::Scene;
            s.order.clear();
            s.turn = 0;
            s.karmic_shuffle = false;
        }
        Event::FateDrawn { who, result, .. } => {
            deck::apply(&mut s.shoe, &result.player_draw);
            deck::apply(&mut s.shoe, &result.dealer_draw);
            deck::discard_all(&mut s.shoe, &deck::cards(&result.player_draw));
            deck::discard_all(&mut s.shoe, &deck::cards(&result.dealer_draw));
            s.shoe.reshuffle_discards();
            if let Some(c) = s.combatants.get_mut(*who) {
                c.wildcards = c.wildcards.saturating_add(result.player_wildcards);
            }
            s.dealer_wildcards = s.dealer_wildcards.saturating_add(result.dealer_wildcards);
        }
        Event::Joined(c) => s.combatants.push((**c).clone()),
        Event::Added { combatant, .. } => s.combatants.push((**combatant).clone()),
        Event::Removed { who } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                let cards: Vec<Card> = c.hand.drain(..).chain(c.initiative.take()).collect();
                c.removed = true;
                deck::discard_all(&mut s.shoe, &cards);
            }
        }
        Event::Appeared { who } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                c.present = true;
            }
        }
        Event::Distance { who, rounds } => {
            let name = s
                .combatants
                .get(*who)
                .map(|c| c.name.clone())
                .unwrap_or_default();
            s.distance = Some((name, *rounds));
        }
        Event::Finished => s.finished = true,
        Event::Adjusted { who, value, to, .. } => {
            if let Some(c) = s.combatants.get_mut(*who) {
                match (value, &mut c.body) {
                    (crate::gm::Value::Wildcards, _) => {
                        c.wildcards = u32::try_from(*to).unwrap_or(c.wildcards);
                    }
                    (crate::gm::Value::Pool(t), Body::Fated { pools, .. }) => {
                        pools[trait_index(*t)] = *to;
                    }
                    (crate::gm::Value::Pool(_), Body::Follower { pool, .. }) => *pool = *to,
                    (crate::gm::Value::Members, Body::Extras { members, .. }) => *members = *to,
                    _ => {}
                }
            }
        }
        Event::SceneBegan => {
            s.distance = None;
            s.karmic_shuffle = false;
            for c in &mut s.combatants {
                c.status = Status::default();
            }
        }
        Event::DealerWildcards { gained } => {
            s.dealer_wildcards = s.dealer_wildcards.saturating_add(*gained)
        }
        Event::KarmicShuffle => s.karmic_shuffle = true,
    }
}
