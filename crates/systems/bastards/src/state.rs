//! The table's state: combatants, their bodies and statuses, the opposed hand
//! in progress, the phases ("Steps", "Skill Hands in Oppositions"; R-GB-5).

use serde::{Deserialize, Serialize};
use tabula_core::cards::{Card, Shoe};
use tabula_core::system::Seat;

use crate::advantages::{Advantage, Kind};
use crate::character::{Character, Trait, Weapon};
use crate::rules::HAND_SIZE;

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

pub(crate) fn trait_index(t: Trait) -> usize {
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

    pub(crate) fn pool(self) -> Trait {
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
    /// `Counter<Weapon>`: skill cards sacrificed now to counter-attack with on a
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
    /// `Counter<Weapon>`: cards the defender sacrificed to counter-attack with.
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
