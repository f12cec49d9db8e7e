//! The command reference ([`COMMANDS`]): every command of the table once, with
//! its usage, a summary in the book's words, who gives it and the rule it
//! plays. The character sheet in plain text is [`crate::sheet::sheet`].
//!
//! `help`, `docs/COMMANDS.md` and the parser are all made from [`COMMANDS`]:
//! each usage is written in the usage language of [`tabula_core::usage`],
//! which reads every line against it ([`crate::text::parse`]).

use tabula_core::system::{CommandDoc, Giver};

use crate::rules;

/// Every command of Tiers (002_631931fd73349179.txt), once each. The GM gives
/// an NPC ally's `act`, `move`, `item`, `roleplay`, `roll` and `rest` by
/// putting the ally's name first (`GM: Steve move Yard`; "Phases").
pub const COMMANDS: &[CommandDoc] = &[
    CommandDoc::new(
        "roll",
        &[],
        "roll STAT GOAL",
        "out of combat: roll a d6 and add the Stat's Roleplay Bonus; meet the Goal (a number or a difficulty) to succeed",
        Giver::Player,
        rules::ASKING_FOR_ROLLS,
    ),
    CommandDoc::new(
        "compete",
        &[],
        "compete CHARACTER STAT CHARACTER STAT",
        "Competing Rolls: both roll with their Roleplay Bonus; the higher total wins",
        Giver::Gm,
        rules::COMPETING_ROLLS,
    ),
    CommandDoc::new(
        "consent",
        &[],
        "consent ACTOR",
        "agree to be the Defendant of a PvP Roll by ACTOR",
        Giver::Player,
        rules::PVP_ROLLS,
    ),
    CommandDoc::new(
        "pvp",
        &[],
        "pvp ACTOR STAT DEFENDANT STAT",
        "a PvP Roll against a consenting Defendant; the Defendant wins ties",
        Giver::Gm,
        rules::PVP_ROLLS,
    ),
    CommandDoc::new(
        "super6",
        &["super-6"],
        "super6",
        "custom rule: roll 2d6 for an incredibly unlikely but very cool thing; it happens if both dice are 6s",
        Giver::Player,
        rules::SUPER_6,
    ),
    CommandDoc::new(
        "rest",
        &[],
        "rest HOURS",
        "custom rule: resting restores Health over time",
        Giver::Player,
        rules::RESTING,
    ),
    CommandDoc::new(
        "fight",
        &[],
        "fight",
        "combat starts: all enemies act in the Enemy Phase, then all players in the Player Phase",
        Giver::Gm,
        rules::PHASES,
    ),
    CommandDoc::new(
        "end-phase",
        &["next"],
        "end-phase",
        "end the current phase: the Enemy Phase gives way to the Player Phase, and the other way round",
        Giver::Gm,
        rules::PHASES,
    ),
    CommandDoc::new(
        "end-combat",
        &[],
        "end-combat",
        "the GM ends the combat",
        Giver::Gm,
        rules::AFTER_COMBAT,
    ),
    CommandDoc::new(
        "close",
        &[],
        "close",
        "the GM closes the session",
        Giver::Gm,
        rules::AFTER_COMBAT,
    ),
    CommandDoc::new(
        "adjust",
        &[],
        "adjust (CHARACTER|ENEMY VALUE AMOUNT | reserve AMOUNT)",
        "the GM sets (N) or changes (+N, -N) a character's Health (0 to max Health) or AP (0 to 6), an enemy's Health (to and from the pool's reserve) or the pool's reserve; 0 Health takes the character out, or defeats the enemy, as damage would",
        Giver::Gm,
        rules::GM_TOOLS,
    ),
    CommandDoc::new(
        "add",
        &[],
        "add CHARACTER...|FILE.toml [as NAME...] [at ZONE...]",
        "in combat, the GM brings in one of the table's characters, a bundled sheet (John, Cristy, Steve, Prologue, Even Steven, Brawn) or an uploaded character sheet FILE.toml as an NPC ally with full AP; a name already taken becomes \"NAME 2\"; enemies join by `spawn`",
        Giver::Gm,
        rules::GM_TOOLS,
    ),
    CommandDoc::new(
        "remove",
        &[],
        "remove CHARACTER...",
        "in combat, the GM takes an NPC ally or an enemy out of the encounter (not a player's character)",
        Giver::Gm,
        rules::GM_TOOLS,
    ),
    CommandDoc::new(
        "act",
        &[],
        "act ACTION... [on TARGET...] [cover]",
        "use an Action of a tier you have at least 1 SP in, paying its AP",
        Giver::Player,
        rules::ACTIONS,
    ),
    CommandDoc::new(
        "move",
        &[],
        "move PATH...",
        "move along PATH: a touching, accessible Zone, or several joined by > (Yard > Shop), for 1 AP each",
        Giver::Player,
        rules::MOVEMENT,
    ),
    CommandDoc::new(
        "item",
        &["use"],
        "item ITEM... [on PLAYER...]",
        "use an Item you carry, paying its AP",
        Giver::Player,
        rules::ITEMS,
    ),
    CommandDoc::new(
        "roleplay",
        &[],
        "roleplay STAT D3 (GOAL | vs ENEMY)",
        "roleplaying in combat: 1 AP per d3, added to the Stat's Roleplay Bonus, against a Goal or an enemy's 1d3",
        Giver::Player,
        rules::ROLEPLAYING_IN_COMBAT,
    ),
    CommandDoc::new(
        "answer",
        &[],
        "answer [d6=N] [d3=N] [cp=N]",
        "settle a Competing Roll against an enemy: its free 1d3, raised by Rolls or Combat Points",
        Giver::Gm,
        rules::ROLEPLAY_AGAINST_ENEMIES,
    ),
    CommandDoc::new(
        "spend",
        &[],
        "spend ENEMY USE... [on TARGET...] [d6=N] [d3=N] [cp=N] [heal=N] [to=ZONE]",
        "an enemy uses bought Rolls: Bite, Block, Fireball and the other roll uses",
        Giver::Gm,
        rules::DESCRIBING_ROLLS,
    ),
    CommandDoc::new(
        "move-enemy",
        &[],
        "move-enemy ENEMY ZONE... [pay=d3|cp]",
        "move an enemy to a touching, accessible Zone for a d3 or 1 Combat Point",
        Giver::Gm,
        rules::USING_ROLLS_MOVE,
    ),
    CommandDoc::new(
        "move-player",
        &[],
        "move-player PLAYER ZONE... [pay=d3|cp]",
        "enemy movement: move a player a Zone for a d3 or 2 Combat Points",
        Giver::Gm,
        rules::ENEMY_MOVEMENT,
    ),
    CommandDoc::new(
        "spawn",
        &[],
        "spawn NAME KIND... [health=N] zone=ZONE",
        "an enemy joins, its Health from the pool's reserve",
        Giver::Gm,
        rules::ENEMY_HEALTH,
    ),
    CommandDoc::new(
        "sink",
        &[],
        "sink ENEMY [pay=d3|d6]",
        "a Shadow Goblin sinks into a shadow when dealt damage, by itself: the command is refused",
        Giver::Gm,
        rules::SHADOW_GOBLIN,
    ),
    CommandDoc::new(
        "emerge",
        &[],
        "emerge ENEMY [pay=d3|d6]",
        "a Shadow Goblin spends any roll to leave its shadow",
        Giver::Gm,
        rules::SHADOW_GOBLIN,
    ),
    CommandDoc::new(
        "ensnare",
        &[],
        "ensnare ENEMY PLAYER [pay=d3|cp]",
        "the Enchanted Armor ensnares a player in its Zone who attacked it",
        Giver::Gm,
        rules::ENCHANTED_ARMOR,
    ),
    CommandDoc::new(
        "absorb",
        &[],
        "absorb ENEMY [d6=N] [d3=N] [cp=N]",
        "the Enchanted Armor absorbs Health from the player it ensnares",
        Giver::Gm,
        rules::ENCHANTED_ARMOR,
    ),
];

#[cfg(test)]
mod tests {
    use super::COMMANDS;

    /// Every usage is written in the usage language the parser reads lines
    /// with ([`tabula_core::usage`]).
    #[test]
    fn every_usage_compiles() {
        assert_eq!(tabula_core::usage::check_all(COMMANDS), Ok(()));
    }
}
