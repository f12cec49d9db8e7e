//! The commands a seat gives ("Steps", "Advantages", "Building A Scene").

use serde::{Deserialize, Serialize};
use tabula_core::system::Seat;

use crate::character::{Trait, Weapon};
use crate::state::{AttackOptions, HandKind};

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
        /// `Counter<Weapon>` (defender): skill cards to sacrifice, 0 for none.
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
    /// The Dealer (GM) brings a new participant in (`add KIND|FILE.toml [as
    /// NAME] [to SEAT]`): a copy of one the table loaded or of the book's
    /// bundled sheets, or the character of an uploaded sheet (`gm::add`).
    ///
    /// Issue 27, item 6; the table's GM tools ([`crate::gm::GM_TOOLS`]).
    Add {
        /// The kind copied: a name the table loaded or a bundled sheet; for an
        /// uploaded sheet, the file's name as typed (only for the reader: the
        /// sheet's text decides).
        kind: String,
        /// Its name at the table (default: the kind's, or the sheet's
        /// character name).
        name: Option<String>,
        /// The seat that controls it (default: the GM).
        to: Option<Seat>,
        /// The text of an uploaded character sheet (TOML, at most
        /// [`tabula_core::files::MAX_FILE_BYTES`]): when given, the newcomer is
        /// its character and `kind` is not looked up. `decide` validates it
        /// again, so a command sent as JSON cannot bring in a broken sheet.
        /// Absent in JSON: `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
    },
    /// The Dealer (GM) takes a participant out of the encounter (`remove
    /// WHO`; `gm::remove`).
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
