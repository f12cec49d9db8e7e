//! What happens in an encounter: the events, each with every die, the
//! effects of an action, and the unrepeatable actions ("Turns").

use serde::{Deserialize, Serialize};

use crate::abilities::{Ability, Terrain};
use crate::character::Character;
use crate::rolls::{Check, D20Roll};
use crate::state::Evading;

/// The unrepeatable actions ("Turns").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unrepeatable {
    /// Distract ("Basic Actions").
    Distract,
    /// Surprise ("Stalking Abilities").
    Surprise,
    /// Intimidate ("Support Abilities").
    Intimidate,
}

/// The kind of an action, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// Basic attack.
    Attack,
    /// Throw object.
    Throw,
    /// Hold.
    Hold,
    /// Hold while delayed (wrestling).
    HoldWhileDelayed,
    /// Distract.
    Distract,
    /// Evade.
    Evade,
    /// Escape.
    Escape,
    /// Engage (bonus).
    Engage,
    /// Take cover (bonus).
    TakeCover,
    /// Leave cover (free).
    LeaveCover,
    /// Shooting.
    Shoot,
    /// Blasting.
    Blast,
    /// Knockout.
    Knockout,
    /// Fighting.
    Fight,
    /// Surprise.
    Surprise,
    /// Intimidate.
    Intimidate,
    /// Healing: revive or heal.
    Heal,
}

impl ActionKind {
    /// The word typed for it.
    pub fn word(self) -> &'static str {
        match self {
            ActionKind::Attack => "attack",
            ActionKind::Throw => "throw",
            ActionKind::Hold => "hold",
            ActionKind::HoldWhileDelayed => "hold (while delayed)",
            ActionKind::Distract => "distract",
            ActionKind::Evade => "evade",
            ActionKind::Escape => "escape",
            ActionKind::Engage => "engage",
            ActionKind::TakeCover => "cover",
            ActionKind::LeaveCover => "leave-cover",
            ActionKind::Shoot => "shoot",
            ActionKind::Blast => "blast",
            ActionKind::Knockout => "knockout",
            ActionKind::Fight => "fight",
            ActionKind::Surprise => "surprise",
            ActionKind::Intimidate => "intimidate",
            ActionKind::Heal => "heal",
        }
    }
}

/// Which of the turn's actions an action uses ("Turns").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    /// The one regular action.
    Regular,
    /// The one bonus action.
    Bonus,
    /// Costs no action (leaving cover).
    Free,
}

/// One roll against one target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetRoll {
    /// The target's index.
    pub target: usize,
    /// What is rolled against: `agility`, `strength`, `intelligence`,
    /// `intelligence or strength`, or `difficulty`.
    pub against: String,
    /// The roll.
    pub check: Check,
}

/// What an action changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum Effect {
    /// Damage: hit points lowered (never below zero).
    Damage {
        /// Who.
        target: usize,
        /// Damage dealt.
        amount: u32,
        /// Hit points after.
        hit_points: u32,
    },
    /// Hit points set by healing or reviving.
    HitPoints {
        /// Who.
        target: usize,
        /// Hit points after.
        hit_points: u32,
    },
    /// Delayed until the end of its turn number `through`.
    Delayed {
        /// Who.
        target: usize,
        /// The turn number at whose end the delay ends.
        through: u32,
    },
    /// Panicked until the end of its turn number `through`.
    Panicked {
        /// Who.
        target: usize,
        /// The turn number at whose end the panic ends.
        through: u32,
    },
    /// A successful hold: stops evading and is remembered for a wrestling hold
    /// while delayed.
    Held {
        /// Who was held.
        target: usize,
        /// By whom.
        by: usize,
    },
    /// The actor evades.
    Evading {
        /// The movement ability and level added.
        evading: Evading,
    },
    /// A flying actor cannot be attacked at close range until its next turn.
    Aloft,
    /// The actor escaped.
    Escaped,
    /// The actor engaged.
    Engaged,
    /// The actor took cover.
    TookCover,
    /// The actor left cover.
    LeftCover,
    /// An unrepeatable action was used on a target.
    Used {
        /// Which.
        action: Unrepeatable,
        /// On whom.
        target: usize,
    },
}

/// One group's initiative roll ("Turns", "Stalking Abilities").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRoll {
    /// The group's index.
    pub group: usize,
    /// The die.
    pub roll: D20Roll,
    /// 2 x the highest stealth in the group.
    pub stealth: i64,
    /// 10 x the highest detection in the group.
    pub detection: i64,
    /// The total.
    pub total: i64,
    /// Dice rolled again to break ties, in order.
    pub tie_breaks: Vec<u32>,
}

/// What happened. Every die is in the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The GM changed the terrain.
    TerrainChanged {
        /// Which terrain.
        terrain: Terrain,
        /// Now present or not.
        present: bool,
    },
    /// A temporary craftsmanship bonus was added ("Support Abilities").
    Crafted {
        /// The crafter.
        crafter: usize,
        /// The companion.
        target: usize,
        /// The ability.
        ability: Ability,
        /// The roll when added in a hurry (difficulty 10).
        hurry: Option<Check>,
        /// False when the hurried roll failed.
        usable: bool,
    },
    /// A roll the GM called for outside the actions ("Rolls": "make a command
    /// roll (difficulty 25)").
    Rolled {
        /// Who rolled.
        character: usize,
        /// The roll.
        check: Check,
    },
    /// A temporary bonus was removed.
    Uncrafted {
        /// The companion.
        target: usize,
        /// The ability.
        ability: Ability,
    },
    /// Initiative was rolled; the order is highest first.
    InitiativeRolled {
        /// Each group's roll.
        rolls: Vec<InitiativeRoll>,
        /// Group indices in turn order.
        order: Vec<usize>,
    },
    /// A character's turn began.
    TurnStarted {
        /// Who.
        character: usize,
    },
    /// A character acted.
    Acted {
        /// Who.
        actor: usize,
        /// What.
        action: ActionKind,
        /// Which action of the turn it used.
        slot: Slot,
        /// The ability named or picked for the rolls (R-SCR-5).
        ability: Option<Ability>,
        /// Every roll.
        rolls: Vec<TargetRoll>,
        /// What changed.
        effects: Vec<Effect>,
    },
    /// A character's turn ended.
    TurnEnded {
        /// Who.
        character: usize,
    },
    /// The GM set a character's value (`adjust`).
    ///
    /// "Hit Points" (001_337b5a42e331e513.txt); issue 27, item 6.
    Adjusted {
        /// Who.
        character: usize,
        /// The value.
        value: crate::gm::Value,
        /// Before.
        from: u32,
        /// After.
        to: u32,
    },
    /// The GM took a character out of the encounter (`remove`): it is out
    /// as one who escaped is.
    ///
    /// "Basic Actions", "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    Removed {
        /// Who.
        character: usize,
    },
    /// The GM ended the encounter early (`end-encounter`).
    ///
    /// "Turns" (001_337b5a42e331e513.txt); issue 27, item 6.
    EncounterEnded,
    /// The GM added a character (`add`): it joins initiative group `group`
    /// at full hit points, its minions with it. The whole sheet is here, so
    /// replay reads no file.
    ///
    /// "Turns", "Hit Points" (001_337b5a42e331e513.txt); issue 27, item 6.
    Added {
        /// The kind named (the sheet it was made from).
        kind: String,
        /// The initiative group it joins.
        group: usize,
        /// The character, named and legal at this table.
        character: Character,
    },
}
