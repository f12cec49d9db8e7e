//! The table's state: a Tiers game's heroes, enemies, Zones, mode and phase.
//!
//! A game starts out of combat (Roleplaying) or in combat. Combat runs in
//! phases ("Phases"): the Enemy Phase, where the GM spends the enemies' bought
//! Rolls, then the Player Phase, where players (and NPC allies) spend AP.
//! [`crate::Tiers`] ([`crate::table`]) implements [`tabula_core::System`] over
//! these types; the commands are [`crate::command`], the events
//! [`crate::event`], `decide` lives in [`crate::decide`], `evolve` in
//! [`crate::evolve`], the terminal text in [`crate::text`].

use serde::{Deserialize, Serialize};

use crate::character::{Character, Stat};
use crate::content::Catalog;
use crate::gm::{CombatDifficulty, Purchase};
use crate::roleplay::TieRule;
use crate::zones::Zones;
use tabula_core::D3Mode;

/// The custom rules a table switches on ("Custom Rules"); all off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomRules {
    /// Super 6: roll 2d6; both 6s and the unlikely, cool thing happens.
    #[serde(default)]
    pub super_6: bool,
    /// Resting: no automatic heal after combat; 1d6 Health per hour of rest.
    #[serde(default)]
    pub resting: bool,
    /// Death Rolls: at 0 Health roll 1d6; odd, the character is dead.
    #[serde(default)]
    pub death_rolls: bool,
    /// Weighted Inventory: 1 Item per SP in Strength.
    #[serde(default)]
    pub weighted_inventory: bool,
    /// Permanent Wounds: falling to 0 Health leaves a permanent scar.
    #[serde(default)]
    pub permanent_wounds: bool,
    /// Cover: an Action at a target you can't see needs a Competing RP-Roll.
    #[serde(default)]
    pub cover: bool,
}

/// The table's options: how the d3 is rolled, ties, dungeons, custom rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableOptions {
    /// True d3s, or d6s halved ("Dice").
    pub d3: D3Mode,
    /// What a tied Competing Roll does ("Ties": the GM's discretion).
    pub tie: TieRule,
    /// A dungeon: no full heal after combat ("Player Phase").
    pub dungeon: bool,
    /// The custom rules in play.
    pub custom: CustomRules,
}

/// A phase of combat ("Phases").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The GM describes enemy actions and spends Rolls.
    #[default]
    Enemy,
    /// Players (and NPC allies) spend AP.
    Player,
}

/// Out of combat or in combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "kebab-case")]
pub enum Mode {
    /// Out of combat: Stat rolls with a d6, Competing and PvP Rolls.
    Roleplay,
    /// In combat.
    Combat {
        /// The current phase.
        phase: Phase,
        /// The round, from 1 (an Enemy Phase and a Player Phase).
        round: u32,
    },
}

/// How a combat ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Every enemy is at 0 Health and no Health is left in the pool.
    Won,
    /// Every player is at 0 Health ("the players lose combat").
    Lost,
    /// The GM ended it (enemies fled, the story moved on).
    Ended,
}

/// How the last combat stood when it ended, kept for reports: after combat the
/// players are fully healed ("Player Phase"), so who fell is known only here.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatRecord {
    /// The round it ended in (from 1).
    pub round: u32,
    /// Each hero's Health (index as in [`State::heroes`]) when it ended,
    /// before the heal after combat.
    pub health: Vec<u32>,
}

/// A player character or NPC ally at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hero {
    /// The character sheet.
    pub character: Character,
    /// True for an NPC ally (acts in the Player Phase; not part of the PSP).
    pub ally: bool,
    /// Current Health (may pass the maximum by an overheal).
    pub health: u32,
    /// Max Health: 10 x (level + 1) plus perks (R-TI-2).
    pub max_health: u32,
    /// Action Points left, 0..=6.
    pub ap: u32,
    /// The Zone (index into the table's Zones).
    pub zone: usize,
    /// The Zone the hero last came from (R-TI-8: the only way out of a Zone
    /// holding a standing enemy); none for a hero placed by the table file.
    #[serde(default)]
    pub came_from: Option<usize>,
    /// Items carried (names; the Items of the catalog can be used).
    pub items: Vec<String>,
    /// Damage the next hit on this hero is reduced by.
    pub reduction: u32,
    /// The enemy (index) grappling this hero.
    pub grappled_by: Option<usize>,
    /// The enemy (index) that has this hero ensnared.
    pub ensnared_by: Option<usize>,
    /// Dead (Death Rolls).
    pub dead: bool,
    /// Permanent wounds suffered (Permanent Wounds).
    pub wounds: u32,
    /// True once the GM took this NPC ally out of the encounter (`remove`):
    /// it takes no further part, and its index stays taken so that every
    /// event's index keeps naming the same character (the crate's GM tools).
    #[serde(default, skip_serializing_if = "is_false")]
    pub left: bool,
    /// True for an NPC ally the GM brought in mid-encounter (`add`): not one
    /// of the table file's characters, so it leaves no sheet after the table.
    #[serde(default, skip_serializing_if = "is_false")]
    pub joined: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Hero {
    /// The hero's name.
    pub fn name(&self) -> &str {
        self.character.name()
    }

    /// True while the hero can act and be healed (Health above 0, not dead,
    /// still in the encounter).
    pub fn up(&self) -> bool {
        self.health > 0 && !self.dead && !self.left
    }

    /// True for a character of a player seat (not an NPC ally, not dead).
    pub fn plays(&self) -> bool {
        !self.ally && !self.dead
    }
}

/// An enemy in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enemy {
    /// Its name at this table ("Gob1").
    pub name: String,
    /// Its kind (a name in the catalog, e.g. "Goblin").
    pub kind: String,
    /// Current Health, drawn from the shared pool.
    pub health: u32,
    /// The Health it was given (heals stop there).
    pub start_health: u32,
    /// The Zone.
    pub zone: usize,
    /// Damage the next attack on it is reduced by (Block).
    pub block: u32,
    /// In shadow form (Shadow Goblin): cannot receive or deal damage.
    pub shadow: bool,
    /// The hero it has ensnared (Enchanted Armor).
    pub ensnaring: Option<usize>,
    /// The hero who attacked it most recently.
    pub last_attacker: Option<usize>,
    /// Heroes who attacked it in this phase.
    #[serde(default)]
    pub attacked_by: Vec<usize>,
    /// Heroes who attacked it in the phase before this one (with
    /// `attacked_by`: this round, for the Enchanted Armor's Ensnare).
    #[serde(default)]
    pub attacked_before: Vec<usize>,
    /// True once it was dealt damage this phase (the Healer's Response).
    #[serde(default)]
    pub hurt: bool,
    /// True once it moved this phase (Enchanted Armor cannot then ensnare).
    pub moved: bool,
    /// True once the GM took it out of the encounter (`remove`): it no longer
    /// stands, blocks or counts for the end of the combat; its index stays
    /// taken (the crate's GM tools).
    #[serde(default, skip_serializing_if = "is_false")]
    pub left: bool,
}

impl Enemy {
    /// A new enemy, standing, with `health`, in `zone`.
    pub fn new(name: String, kind: String, health: u32, zone: usize) -> Enemy {
        Enemy {
            name,
            kind,
            health,
            start_health: health,
            zone,
            block: 0,
            shadow: false,
            ensnaring: None,
            last_attacker: None,
            attacked_by: Vec::new(),
            attacked_before: Vec::new(),
            hurt: false,
            moved: false,
            left: false,
        }
    }

    /// True while it stands (Health above 0, still in the encounter).
    pub fn standing(&self) -> bool {
        self.health > 0 && !self.left
    }

    /// True when `hero` attacked it this round: in this phase or the one before
    /// ("Enchanted Armor").
    pub fn attacked_this_round_by(&self, hero: usize) -> bool {
        self.attacked_by.contains(&hero) || self.attacked_before.contains(&hero)
    }
}

/// A turret dropped by the Turret Item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turret {
    /// The hero who dropped it.
    pub owner: usize,
    /// Its Zone.
    pub zone: usize,
    /// Its Health (the owner's level).
    pub health: u32,
    /// Damage it deals to an enemy entering its Zone (the owner's level).
    pub damage: u32,
}

/// A Competing Roll a player started against an enemy, waiting for the GM to
/// say which Rolls or Combat Points raise the enemy's free 1d3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The hero rolling.
    pub hero: usize,
    /// The enemy.
    pub enemy: usize,
    /// The hero's Stat.
    pub stat: Stat,
    /// d3 the hero rolls (AP already spent).
    pub d3: u32,
    /// The hero's Roleplay Bonus added.
    pub bonus: u32,
    /// What the roll is for (an Action's name, or "roleplay").
    pub about: String,
}

/// Who takes damage or healing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "index", rename_all = "kebab-case")]
pub enum Target {
    /// A hero, by index.
    Hero(usize),
    /// An enemy, by index.
    Enemy(usize),
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The table's title.
    pub title: String,
    /// The options.
    pub options: TableOptions,
    /// The Zones.
    pub zones: Zones,
    /// Actions, perks, Items, roll uses, enemy kinds, NPCs.
    pub catalog: Catalog,
    /// Out of combat or in combat.
    pub mode: Mode,
    /// Which phase a combat starts with ("generally starts with an Enemy Phase").
    pub first_phase: Phase,
    /// Players and NPC allies.
    pub heroes: Vec<Hero>,
    /// Enemies.
    pub enemies: Vec<Enemy>,
    /// The combat's difficulty.
    pub difficulty: CombatDifficulty,
    /// Party Stat Points.
    pub psp: u32,
    /// The shared enemy Health pool.
    pub health_pool: u32,
    /// Health of the pool not yet given to an enemy (for `spawn`).
    pub reserve: u32,
    /// The Rolls bought with PSP.
    pub rolls: Purchase,
    /// The Rolls used since the last Enemy Phase began.
    pub spent: Purchase,
    /// A Competing Roll waiting for the GM.
    pub pending: Option<Pending>,
    /// PvP consents given: (Defendant, actor).
    pub consents: Vec<(usize, usize)>,
    /// Turrets in play.
    pub turrets: Vec<Turret>,
    /// How the last combat ended.
    pub outcome: Option<Outcome>,
    /// True when the GM closed the session.
    pub closed: bool,
    /// How the last combat stood when it ended (its round and each hero's
    /// Health before the heal after combat); none before any combat ended.
    #[serde(default)]
    pub last_combat: Option<CombatRecord>,
}

impl State {
    /// A hero's index by name (any case); one the GM removed is not found.
    pub fn hero(&self, name: &str) -> Option<usize> {
        self.heroes
            .iter()
            .position(|h| !h.left && tabula_core::names::same_name(h.name(), name))
    }

    /// An enemy's index by name (any case); one the GM removed is not found.
    pub fn enemy(&self, name: &str) -> Option<usize> {
        self.enemies
            .iter()
            .position(|e| !e.left && tabula_core::names::same_name(&e.name, name))
    }

    /// True when any character or enemy, one who left included, has `name`
    /// (any case): a name the GM's `add` does not give again.
    pub fn name_taken(&self, name: &str) -> bool {
        self.heroes
            .iter()
            .any(|h| tabula_core::names::same_name(h.name(), name))
            || self
                .enemies
                .iter()
                .any(|e| tabula_core::names::same_name(&e.name, name))
    }

    /// A Zone's index by name (any case; `_` for spaces).
    pub fn zone(&self, name: &str) -> Option<usize> {
        self.zones.index(&name.replace('_', " "))
    }

    /// The Rolls still usable this round.
    pub fn rolls_left(&self) -> Purchase {
        rolls_left(self.rolls, self.spent)
    }

    /// The phase, in combat.
    pub fn phase(&self) -> Option<Phase> {
        match self.mode {
            Mode::Combat { phase, .. } => Some(phase),
            Mode::Roleplay => None,
        }
    }

    /// The name of a target.
    pub fn target_name(&self, t: Target) -> String {
        match t {
            Target::Hero(i) => self.heroes.get(i).map_or("?", |h| h.name()).to_string(),
            Target::Enemy(i) => self
                .enemies
                .get(i)
                .map_or("?", |e| e.name.as_str())
                .to_string(),
        }
    }
}

/// The Rolls of `rolls` not yet `spent`.
pub(crate) fn rolls_left(rolls: Purchase, spent: Purchase) -> Purchase {
    Purchase {
        d6: rolls.d6.saturating_sub(spent.d6),
        d3: rolls.d3.saturating_sub(spent.d3),
        combat_points: rolls.combat_points.saturating_sub(spent.combat_points),
    }
}
