//! The [`Command`] a seat gives, and the caps Tabula puts on its numbers.
//!
//! `decide` ([`crate::decide`]) says which seat may give which, and what it
//! produces.

use serde::{Deserialize, Serialize};

use crate::character::Stat;
use crate::gm::Purchase;

/// The most hours one rest may last (Tabula's cap).
pub const MAX_REST_HOURS: u32 = 24;
/// The most dice or Combat Points one enemy command may spend (Tabula's cap; the
/// pool limits it anyway).
pub const MAX_SPEND: u32 = 100;
/// The most times one Competing Roll is rolled again on ties (Tabula's cap).
pub const MAX_REROLLS: u32 = 10;

/// How the GM pays for moving a player or an enemy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pay {
    /// A d3 Roll.
    #[default]
    D3,
    /// Combat Points.
    Cp,
    /// A d6 Roll (only where "any roll" will do: shadow form).
    D6,
}

/// A command a seat gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    /// Player, out of combat: roll a d6 + the Stat's Roleplay Bonus against a Goal.
    ///
    /// Tiers, "Roleplay Bonus", "Asking for Rolls" (002_631931fd73349179.txt).
    Roll {
        /// The Stat the GM asked for.
        stat: Stat,
        /// The Goal.
        goal: u32,
    },
    /// GM, out of combat: Competing Rolls between two characters (any Stats).
    ///
    /// Tiers, "Competing Rolls", "Ties", "Stats" (002_631931fd73349179.txt).
    Compete {
        /// The first character.
        first: String,
        /// Their Stat.
        first_stat: Stat,
        /// The second character.
        second: String,
        /// Their Stat.
        second_stat: Stat,
    },
    /// A player consents to be the Defendant of a PvP Roll by `actor`.
    ///
    /// Tiers, "Player-Versus-Player Rolls" (002_631931fd73349179.txt).
    Consent {
        /// Who may roll against the consenting player.
        actor: String,
    },
    /// GM, out of combat: a PvP Roll (the Defendant must have consented).
    ///
    /// Tiers, "Defendants & Tied PvP Rolls" (002_631931fd73349179.txt).
    Pvp {
        /// The player acting (stealing, persuading).
        actor: String,
        /// Their Stat.
        actor_stat: Stat,
        /// The Defendant.
        defendant: String,
        /// Their Stat.
        defendant_stat: Stat,
    },
    /// Player (Super 6): roll 2d6 for something incredibly unlikely.
    ///
    /// Tiers, "Custom Rules": Super 6 (002_631931fd73349179.txt).
    Super6,
    /// Player, out of combat (Resting): rest `hours`, 1d6 Health per hour.
    ///
    /// Tiers, "Custom Rules": Resting (002_631931fd73349179.txt).
    Rest {
        /// Hours, 1..=24.
        hours: u32,
    },
    /// GM: combat begins.
    ///
    /// Tiers, "Phases", "Combat" (002_631931fd73349179.txt).
    Fight,
    /// GM: end the current phase and begin the next.
    ///
    /// Tiers, "Phases", "Player Phase", "Creating Combat" (002_631931fd73349179.txt).
    EndPhase,
    /// GM: end the combat now.
    ///
    /// Tiers, "Combat", "Player Phase" (002_631931fd73349179.txt).
    EndCombat,
    /// GM: close the session.
    Close,
    /// GM: set or change a character's Health or AP (`adjust CHARACTER VALUE
    /// AMOUNT`); Health reaching 0 has the consequences damage would have.
    /// CHARACTER may name an enemy (its Health, to and from the pool's
    /// reserve) or be `reserve` (the pool's reserve): see `gm::adjust`.
    ///
    /// Tiers, "Health", "Action Points", "Enemy Health" (002_631931fd73349179.txt); issue 27, item 6.
    Adjust {
        /// The character, an enemy, or `reserve`.
        character: String,
        /// The value.
        value: crate::gm::HeroValue,
        /// `N`, `+N` or `-N`.
        amount: crate::gm::Amount,
    },
    /// GM, in combat: a character joins as an NPC ally (`add KIND [as NAME]
    /// [at ZONE]`, or `add FILE.toml ...` with an uploaded sheet); see
    /// `gm::add`.
    ///
    /// Tiers, "Phases" (002_631931fd73349179.txt); the crate's GM tools (issue 27, item 6).
    Add {
        /// One of the table's characters or a bundled sheet, by name; with
        /// `sheet`, the uploaded file's name as typed (`mira.toml`).
        kind: String,
        /// The text of the uploaded character sheet `kind` names (`add
        /// FILE.toml`), validated again when the command is decided; absent
        /// for a kind the table knows (and in commands written before it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<String>,
        /// The newcomer's name (default: the sheet's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Where it stands (default: the first player character's Zone).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
    },
    /// GM, in combat: an NPC ally or an enemy leaves the encounter (`remove
    /// CHARACTER`); see `gm::remove`.
    ///
    /// Tiers, "Combat" (002_631931fd73349179.txt); the crate's GM tools (issue 27, item 6).
    Remove {
        /// The NPC ally or enemy.
        character: String,
    },
    /// Player, in combat: use an Action.
    ///
    /// Tiers, "Actions", "Stats and Tiers", "Rolling for Criticals"; R-TI-4, R-TI-6 (002_631931fd73349179.txt).
    Act {
        /// The Action.
        action: String,
        /// Its target (an enemy, a hero, or a Zone for movement).
        target: Option<String>,
        /// Cover: the target can't be seen (a Competing RP-Roll first).
        cover: bool,
    },
    /// Player, Player Phase: move through Zones, 1 AP each.
    ///
    /// Tiers, "Movement", "Zones" (002_631931fd73349179.txt).
    Move {
        /// The Zones in order; the last is where the player ends.
        path: Vec<String>,
    },
    /// Player, Player Phase: use an Item.
    ///
    /// Tiers, "Items", "Sample Items"; R-TI-7 (002_631931fd73349179.txt).
    UseItem {
        /// The Item.
        item: String,
        /// Who it is used on (default the user).
        target: Option<String>,
    },
    /// Player, in combat: roleplay against a Goal, 1 AP per d3.
    ///
    /// Tiers, "Roleplaying in Combat" (002_631931fd73349179.txt).
    Roleplay {
        /// The Stat.
        stat: Stat,
        /// d3 to roll (1 AP each).
        d3: u32,
        /// The Goal.
        goal: u32,
    },
    /// Player, in combat: roleplay against an enemy (it rolls a free 1d3, the GM
    /// may raise it with `answer`).
    ///
    /// Tiers, "Roleplaying in Combat", "Roleplaying Against Enemies" (002_631931fd73349179.txt).
    RoleplayVs {
        /// The enemy.
        enemy: String,
        /// The Stat.
        stat: Stat,
        /// d3 to roll (1 AP each).
        d3: u32,
    },
    /// GM: settle a waiting Competing Roll, raising the enemy's 1d3.
    ///
    /// Tiers, "Roleplaying Against Enemies", "Enemy Behavior" (002_631931fd73349179.txt).
    Answer {
        /// The raise.
        raise: Purchase,
    },
    /// GM, in combat: an enemy spends Rolls on a use (Bite, Block, Fireball...).
    ///
    /// Tiers, "Describing Rolls", "Spending Rolls for Actions", "Creating Combat" (002_631931fd73349179.txt).
    Spend {
        /// The enemy.
        enemy: String,
        /// The use.
        use_name: String,
        /// Rolls and Combat Points spent (before doubling in the Player Phase).
        dice: Purchase,
        /// Drain: extra d6 that heal.
        heal_d6: u32,
        /// The target: a player, an enemy (heals) or a Zone (Fireball).
        target: Option<String>,
        /// Shove: where the player ends up.
        to: Option<String>,
    },
    /// GM, in combat: move an enemy to a touching, accessible Zone (1d3 or 1 CP).
    ///
    /// Tiers, "Using Rolls", "Describing Rolls" (Move) (002_631931fd73349179.txt).
    MoveEnemy {
        /// The enemy.
        enemy: String,
        /// The Zone.
        to: String,
        /// How it is paid.
        pay: Pay,
    },
    /// GM, in combat: move a player (a d3 or 2 CP per Zone).
    ///
    /// Tiers, "Enemy Movement" (002_631931fd73349179.txt).
    MovePlayer {
        /// The player.
        player: String,
        /// The Zone.
        to: String,
        /// How it is paid.
        pay: Pay,
    },
    /// GM: an enemy joins, with Health from the pool's reserve.
    ///
    /// Tiers, "Enemy Health" (002_631931fd73349179.txt).
    Spawn {
        /// Its name (unused at the table; quoted when it has spaces).
        name: String,
        /// Its kind.
        kind: String,
        /// Its Health.
        health: u32,
        /// Its Zone.
        zone: String,
    },
    /// GM: a Shadow Goblin sinks into its shadow (any roll).
    ///
    /// Tiers, "Shadow Goblin" (002_631931fd73349179.txt).
    Sink {
        /// The enemy.
        enemy: String,
        /// Which roll pays.
        pay: Pay,
    },
    /// GM: a Shadow Goblin leaves its shadow (any roll).
    ///
    /// Tiers, "Shadow Goblin" (002_631931fd73349179.txt).
    Emerge {
        /// The enemy.
        enemy: String,
        /// Which roll pays.
        pay: Pay,
    },
    /// GM: the Enchanted Armor ensnares a player who attacked it (its movement).
    ///
    /// Tiers, "Enchanted Armor" (002_631931fd73349179.txt).
    Ensnare {
        /// The enemy.
        enemy: String,
        /// The player.
        player: String,
        /// How its movement is paid.
        pay: Pay,
    },
    /// GM: the Enchanted Armor absorbs life force from the ensnared player.
    ///
    /// Tiers, "Enchanted Armor" (002_631931fd73349179.txt).
    Absorb {
        /// The enemy.
        enemy: String,
        /// Rolls and Combat Points spent.
        dice: Purchase,
    },
    /// GM: a command for an NPC ally, who acts in the Player Phase like a
    /// player (`GM: Steve move Yard`). The GM plays NPCs; players play only
    /// their own characters.
    ///
    /// Tiers, "Phases" (002_631931fd73349179.txt).
    Ally {
        /// The NPC ally.
        ally: String,
        /// What the ally does: `act`, `move`, `item`, `roleplay`, `roll`, `rest`.
        does: Box<Command>,
    },
}

impl Command {
    /// True for the commands a character gives for itself, which the GM may
    /// give for an NPC ally.
    pub fn is_character_command(&self) -> bool {
        matches!(
            self,
            Command::Act { .. }
                | Command::Move { .. }
                | Command::UseItem { .. }
                | Command::Roleplay { .. }
                | Command::RoleplayVs { .. }
                | Command::Roll { .. }
                | Command::Rest { .. }
        )
    }
}
