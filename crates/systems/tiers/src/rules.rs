//! Citations: every rule of the book this crate applies, as a [`Rule`] constant.
//!
//! Each names the seed file and the book's section heading, plus the ruling id
//! from `RULINGS.md` where one settles the point. Refusals carry these, so an error
//! always says which rule refused the command.

use tabula_core::Rule;

/// The seed file of the book.
pub const SEED: &str = "002_631931fd73349179.txt";

const fn book(section: &'static str) -> Rule {
    Rule::book(crate::BOOK, section)
}

/// "Starting Stats": level 0 starts with 12 SP, 3 in tier 1 of each Stat.
pub const STARTING_STATS: Rule = book("Starting Stats");
/// "Leveling Up": 4 SP per level on top of the 12; track total SP on the sheet.
pub const LEVELING_UP: Rule = book("Leveling Up");
/// "Stats and Tiers": six tiers per Stat; a point in a tier needs 6 SP in the
/// previous one; R-TI-3.
pub const STATS_AND_TIERS: Rule = book("Stats and Tiers").ruling("R-TI-3");
/// "Health": 10 max Health per level; R-TI-2.
pub const HEALTH: Rule = book("Health").ruling("R-TI-2");
/// "Health": at 0 Health you cannot contribute to the fight or be healed.
pub const HEALTH_ZERO: Rule = book("Health");
/// "Roleplay Bonus"; R-TI-1.
pub const ROLEPLAY_BONUS: Rule = book("Roleplay Bonus").ruling("R-TI-1");
/// "Asking for Rolls": d6 + Roleplay Bonus, meet or exceed the Goal.
pub const ASKING_FOR_ROLLS: Rule = book("Asking for Rolls");
/// "Suggested Difficulty Curve".
pub const DIFFICULTY_CURVE: Rule = book("Suggested Difficulty Curve");
/// "Competing Rolls" and "Ties".
pub const COMPETING_ROLLS: Rule = book("Competing Rolls");
/// "Player-Versus-Player Rolls" and "Defendants & Tied PvP Rolls".
pub const PVP_ROLLS: Rule = book("Defendants & Tied PvP Rolls");
/// "Starting Items".
pub const STARTING_ITEMS: Rule = book("Starting Items");
/// "Dice": Xd3, or a d6 halved and rounded up.
pub const DICE: Rule = book("Dice");
/// "Rounding": round decimals up.
pub const ROUNDING: Rule = book("Rounding");
/// "Phases": Enemy Phase, then Player Phase; NPC allies act in the Player Phase.
pub const PHASES: Rule = book("Phases");
/// "Action Points (AP)": 6 max AP, restored at the start of the Player Phase.
pub const ACTION_POINTS: Rule = book("Action Points (AP)");
/// "Actions" and "Stats and Tiers": an Action needs 1 SP in its tier; R-TI-4.
pub const ACTIONS: Rule = book("Actions").ruling("R-TI-4");
/// "Rolling for Criticals"; R-TI-6.
pub const CRITICALS: Rule = book("Rolling for Criticals").ruling("R-TI-6");
/// "Roleplaying in Combat": 1 AP per d3, plus the Roleplay Bonus.
pub const ROLEPLAYING_IN_COMBAT: Rule = book("Roleplaying in Combat");
/// "Movement": you cannot move through players or enemies; R-TI-8.
pub const MOVEMENT: Rule = book("Movement").ruling("R-TI-8");
/// "Zones".
pub const ZONES: Rule = book("Zones");
/// "Items" (speeds); R-TI-7.
pub const ITEMS: Rule = book("Items").ruling("R-TI-7");
/// "Sample Items".
pub const SAMPLE_ITEMS: Rule = book("Sample Items");
/// "Combat" (Help for the GM): all players at 0 Health lose the combat.
pub const COMBAT_OVERVIEW: Rule = book("Combat");
/// "Player Phase": fully healed after combat unless the GM says otherwise.
pub const AFTER_COMBAT: Rule = book("Player Phase");
/// "Player Stat Points as Currency".
pub const PARTY_STAT_POINTS: Rule = book("Player Stat Points as Currency");
/// "Enemy Health": the shared pool.
pub const ENEMY_HEALTH: Rule = book("Enemy Health");
/// "Creating Combat" and "Buying Rolls"; R-TI-5.
pub const BUYING_ROLLS: Rule = book("Buying Rolls").ruling("R-TI-5");
/// "Creating Combat": a used Roll comes back at the next Enemy Phase.
pub const USING_ROLLS: Rule = book("Creating Combat");
/// "Describing Rolls": the book's roll uses.
pub const DESCRIBING_ROLLS: Rule = book("Describing Rolls");
/// "Enemy Movement": moving a player costs a d3 or 2 CP per Zone.
pub const ENEMY_MOVEMENT: Rule = book("Enemy Movement");
/// "Using Rolls": moving an enemy costs a d3 or 1 CP.
pub const USING_ROLLS_MOVE: Rule = book("Using Rolls");
/// "Spending Rolls for Actions": divided damage; double cost in the Player Phase.
pub const SPENDING_ROLLS: Rule = book("Spending Rolls for Actions");
/// "Roleplaying Against Enemies": the enemy's free 1d3.
pub const ROLEPLAY_AGAINST_ENEMIES: Rule = book("Roleplaying Against Enemies");
/// "Enemy Behavior": Combat Points increase Roll results.
pub const ENEMY_BEHAVIOR: Rule = book("Enemy Behavior");
/// "Enemies" (Sample Content).
pub const SAMPLE_ENEMIES: Rule = book("Enemies");
/// "Goblin" (Responses: it blocks when attacked; R-TI-9).
pub const GOBLIN: Rule = book("Goblin").ruling("R-TI-9");
/// "Goblin Boss" (Responses: it screeches when dealt damage; R-TI-9).
pub const GOBLIN_BOSS: Rule = book("Goblin Boss").ruling("R-TI-9");
/// "Healer" (Responses: it heals allies with Combat Points; R-TI-9).
pub const HEALER: Rule = book("Healer").ruling("R-TI-9");
/// "Shadow Goblin".
pub const SHADOW_GOBLIN: Rule = book("Shadow Goblin");
/// "Enchanted Armor".
pub const ENCHANTED_ARMOR: Rule = book("Enchanted Armor");
/// "Custom Rules": Super 6.
pub const SUPER_6: Rule = book("Super 6");
/// "Custom Rules": Resting.
pub const RESTING: Rule = book("Resting");
/// "Custom Rules": Death Rolls.
pub const DEATH_ROLLS: Rule = book("Death Rolls");
/// "Custom Rules": Weighted Inventory.
pub const WEIGHTED_INVENTORY: Rule = book("Weighted Inventory");
/// "Custom Rules": Permanent Wounds.
pub const PERMANENT_WOUNDS: Rule = book("Permanent Wounds");
/// "Custom Rules": Cover.
pub const COVER: Rule = book("Cover");
/// Tabula's own caps on user-given counts (not a rule of the book).
pub const CAPS: Rule = Rule::table("Caps");
/// Tabula's own table mechanics: whose seat may give a command.
pub const SEATS: Rule = Rule::table("Seats");
/// Tabula's own: a character sheet file is TOML with the fields of
/// `character::CharacterDraft` (a file that does not read is refused whole).
pub const SHEET_FILE: Rule = Rule::table("Character sheet file");
/// The GM's tools (`adjust`): the book names no rule for the GM changing a
/// tracked value mid-encounter, so the citation is the table's own (issue 27,
/// item 6).
pub const GM_TOOLS: Rule = Rule::table("GM tools (issue 27, item 6)");
