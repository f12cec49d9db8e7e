//! The table: state, commands and events of a Tiers game, and `evolve`.
//!
//! A game starts out of combat (Roleplaying) or in combat. Combat runs in
//! phases ("Phases"): the Enemy Phase, where the GM spends the enemies' bought
//! Rolls, then the Player Phase, where players (and NPC allies) spend AP.
//! [`crate::Tiers`] implements [`tabula_core::System`] over these types;
//! `decide` lives in [`crate::decide`], the terminal text in [`crate::text`].

use serde::{Deserialize, Serialize};

use crate::character::{Character, MAX_AP, Stat};
use crate::content::Catalog;
use crate::gm::{CombatDifficulty, Purchase};
use crate::roleplay::{CheckOutcome, Contest, ContestResult, RollResult, TieRule};
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

/// What happened. Every die is in the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A Stat roll against a Goal: d6 out of combat, Xd3 in combat.
    Rolled {
        /// The hero.
        hero: usize,
        /// The Stat.
        stat: Stat,
        /// The roll and its result.
        outcome: CheckOutcome,
    },
    /// A Competing or PvP Roll.
    Contested {
        /// The first roller's name.
        first: String,
        /// The second roller's name.
        second: String,
        /// The first roll.
        first_roll: RollResult,
        /// The second roll.
        second_roll: RollResult,
        /// Competing or PvP.
        contest: Contest,
        /// Who won.
        result: ContestResult,
        /// What it was for.
        about: String,
    },
    /// A Defendant consented to a PvP Roll.
    ConsentGiven {
        /// The Defendant.
        defendant: usize,
        /// Who may roll against them.
        actor: usize,
    },
    /// A consent was used by a PvP Roll.
    ConsentUsed {
        /// The Defendant.
        defendant: usize,
        /// The actor.
        actor: usize,
    },
    /// A Super 6 roll.
    Super6 {
        /// The hero.
        hero: usize,
        /// The two d6.
        dice: [u32; 2],
        /// Both 6s.
        success: bool,
    },
    /// A rest (Resting): 1d6 per hour.
    Rested {
        /// The hero.
        hero: usize,
        /// One d6 per hour.
        dice: Vec<u32>,
        /// Health gained (up to the maximum).
        healed: u32,
    },
    /// Combat began.
    CombatStarted,
    /// A phase began: the Player Phase restores AP, the Enemy Phase the Rolls.
    PhaseBegan {
        /// The phase.
        phase: Phase,
        /// The round.
        round: u32,
    },
    /// AP spent.
    ApSpent {
        /// The hero.
        hero: usize,
        /// AP.
        ap: u32,
    },
    /// Enemy Rolls spent (doubled in the Player Phase).
    RollsSpent {
        /// What was spent.
        spent: Purchase,
    },
    /// An Action's dice, with the critical die when it deals damage or heals.
    ActionRolled {
        /// The hero.
        hero: usize,
        /// The Action.
        action: String,
        /// The dice.
        roll: RollResult,
        /// The critical d6 (6 doubles), for damage and healing.
        critical: Option<u32>,
        /// The amount after the critical.
        amount: u32,
    },
    /// An enemy rolled its bought Rolls for a use.
    EnemyRolled {
        /// The enemy.
        enemy: usize,
        /// The use (Bite, Block...).
        use_name: String,
        /// The dice; `bonus` is the Combat Points added.
        roll: RollResult,
    },
    /// Damage dealt.
    Damaged {
        /// Who.
        target: Target,
        /// Damage before reduction.
        rolled: u32,
        /// Damage a reduction or Block took away (and is used up).
        prevented: u32,
        /// Health lost.
        dealt: u32,
    },
    /// Health restored.
    Healed {
        /// Who.
        target: Target,
        /// Health gained.
        amount: u32,
    },
    /// A hero's next damage is reduced.
    Reduction {
        /// The hero.
        hero: usize,
        /// By how much.
        amount: u32,
    },
    /// A hero attacked an enemy (the Enchanted Armor remembers who).
    Attacked {
        /// The enemy.
        enemy: usize,
        /// The hero.
        hero: usize,
    },
    /// An enemy blocks the next attack.
    Blocked {
        /// The enemy.
        enemy: usize,
        /// By how much.
        amount: u32,
    },
    /// A hero moved along Zones.
    HeroMoved {
        /// The hero.
        hero: usize,
        /// The Zones passed, the last one where the hero ends.
        path: Vec<usize>,
    },
    /// An enemy moved.
    EnemyMoved {
        /// The enemy.
        enemy: usize,
        /// Its new Zone.
        to: usize,
    },
    /// An Item was used (and is gone from the inventory).
    ItemUsed {
        /// The hero.
        hero: usize,
        /// The Item.
        item: String,
    },
    /// A turret was dropped.
    TurretPlaced {
        /// The turret.
        turret: Turret,
    },
    /// A turret hit an enemy entering its Zone.
    TurretFired {
        /// The turret (index).
        turret: usize,
        /// The enemy.
        enemy: usize,
    },
    /// A hero is grappled.
    Grappled {
        /// The enemy.
        enemy: usize,
        /// The hero.
        hero: usize,
    },
    /// A hero is free of a grapple (an ensnare ends only when the Armor is
    /// defeated).
    Released {
        /// The hero.
        hero: usize,
    },
    /// A Goblin Boss screeches at its attacker ("Goblin Boss", Responses).
    Screeched {
        /// The enemy.
        enemy: usize,
        /// The hero who dealt the damage, when one did.
        hero: Option<usize>,
    },
    /// A hero is ensnared by the Enchanted Armor.
    Ensnared {
        /// The enemy.
        enemy: usize,
        /// The hero.
        hero: usize,
    },
    /// A Shadow Goblin sank into (or left) its shadow form.
    Shadow {
        /// The enemy.
        enemy: usize,
        /// True when it sank.
        on: bool,
    },
    /// A hero reached 0 Health: out of the fight, cannot be healed.
    FellToZero {
        /// The hero.
        hero: usize,
    },
    /// A Death Roll.
    DeathRoll {
        /// The hero.
        hero: usize,
        /// The d6.
        die: u32,
        /// True on an odd roll.
        dead: bool,
    },
    /// A permanent wound.
    Wounded {
        /// The hero.
        hero: usize,
    },
    /// An enemy reached 0 Health.
    EnemyDefeated {
        /// The enemy.
        enemy: usize,
    },
    /// An enemy joined, its Health taken from the pool's reserve.
    EnemySpawned {
        /// The enemy.
        enemy: Enemy,
    },
    /// A Competing Roll waits for the GM's answer.
    PendingSet {
        /// The roll.
        pending: Pending,
    },
    /// The waiting roll was settled.
    PendingCleared,
    /// Combat ended.
    CombatEnded {
        /// How.
        outcome: Outcome,
        /// True when players were fully healed.
        healed: bool,
    },
    /// The GM closed the session.
    Closed,
    /// The GM set a character's Health or AP (`adjust`).
    ///
    /// Tiers, "Health", "Action Points" (002_631931fd73349179.txt); issue 27, item 6.
    Adjusted {
        /// The hero.
        hero: usize,
        /// The value.
        value: crate::gm::HeroValue,
        /// Before.
        from: u32,
        /// After.
        to: u32,
    },
    /// The GM set an enemy's Health (`adjust ENEMY health AMOUNT`): the
    /// difference comes from, or goes back to, the pool's reserve ("Enemy
    /// Health": "All enemies share a pool of Health Points that you choose how
    /// to distribute"). The GM's numbers: a player gets no copy.
    EnemyAdjusted {
        /// The enemy.
        enemy: usize,
        /// Health before.
        from: u32,
        /// Health after.
        to: u32,
    },
    /// The GM set the pool's reserve, the Health not yet given to an enemy
    /// (`adjust reserve AMOUNT`); the pool grows or shrinks by as much. The
    /// GM's numbers: a player gets no copy.
    ReserveAdjusted {
        /// Reserve before.
        from: u32,
        /// Reserve after.
        to: u32,
    },
    /// The GM brought a character into the encounter as an NPC ally (`add`):
    /// the whole character, so replaying the log needs no file ("Phases": "If
    /// any non-player characters (NPCs) join combat, they act during the
    /// Player Phase"). Its index is the next one.
    Joined {
        /// The newcomer, as it joins.
        hero: Box<Hero>,
    },
    /// The GM took an NPC ally or an enemy out of the encounter (`remove`).
    Left {
        /// Who.
        target: Target,
    },
}

/// Which characters or enemies an event changes: none, one (by index), or
/// every one. [`evolve`] applies [`evolve_hero`] and [`evolve_enemy`] to
/// exactly these, and `decide` reads one character or enemy after the events
/// a command has produced so far the same way (`decide::hero_after`,
/// `decide::enemy_after`) instead of cloning the whole state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Touch {
    /// None of them.
    None,
    /// The one with this index.
    One(usize),
    /// Every one.
    All,
}

impl Touch {
    /// True when the one with index `i` is changed.
    pub(crate) fn includes(self, i: usize) -> bool {
        match self {
            Touch::None => false,
            Touch::One(j) => j == i,
            Touch::All => true,
        }
    }
}

/// The characters (heroes) `e` changes.
pub(crate) fn touches_hero(e: &Event) -> Touch {
    match e {
        Event::Rested { hero, .. }
        | Event::ApSpent { hero, .. }
        | Event::Reduction { hero, .. }
        | Event::HeroMoved { hero, .. }
        | Event::ItemUsed { hero, .. }
        | Event::Grappled { hero, .. }
        | Event::Released { hero }
        | Event::Ensnared { hero, .. }
        | Event::FellToZero { hero }
        | Event::DeathRoll { hero, .. }
        | Event::Wounded { hero }
        | Event::Adjusted { hero, .. }
        | Event::Left {
            target: Target::Hero(hero),
        } => Touch::One(*hero),
        Event::Left {
            target: Target::Enemy(_),
        } => Touch::All,
        Event::Damaged {
            target: Target::Hero(i),
            ..
        }
        | Event::Healed {
            target: Target::Hero(i),
            ..
        } => Touch::One(*i),
        Event::CombatStarted
        | Event::PhaseBegan {
            phase: Phase::Player,
            ..
        }
        | Event::EnemyDefeated { .. }
        | Event::CombatEnded { .. } => Touch::All,
        _ => Touch::None,
    }
}

/// The enemies (already in play) `e` changes; an [`Event::EnemySpawned`]
/// adds one instead.
pub(crate) fn touches_enemy(e: &Event) -> Touch {
    match e {
        Event::Attacked { enemy, .. }
        | Event::Blocked { enemy, .. }
        | Event::EnemyMoved { enemy, .. }
        | Event::Ensnared { enemy, .. }
        | Event::Shadow { enemy, .. }
        | Event::EnemyDefeated { enemy }
        | Event::EnemyAdjusted { enemy, .. }
        | Event::Left {
            target: Target::Enemy(enemy),
        } => Touch::One(*enemy),
        Event::Left {
            target: Target::Hero(_),
        } => Touch::All,
        Event::Damaged {
            target: Target::Enemy(i),
            ..
        }
        | Event::Healed {
            target: Target::Enemy(i),
            ..
        } => Touch::One(*i),
        Event::PhaseBegan { .. } | Event::CombatEnded { .. } => Touch::All,
        _ => Touch::None,
    }
}

/// The Rolls used since the last Enemy Phase began, after `e`.
pub(crate) fn evolve_spent(spent: &mut Purchase, e: &Event) {
    match e {
        Event::CombatStarted
        | Event::PhaseBegan {
            phase: Phase::Enemy,
            ..
        } => *spent = Purchase::default(),
        Event::RollsSpent { spent: more } => {
            spent.d6 = spent.d6.saturating_add(more.d6);
            spent.d3 = spent.d3.saturating_add(more.d3);
            spent.combat_points = spent.combat_points.saturating_add(more.combat_points);
        }
        _ => {}
    }
}

/// Out of combat or the phase and round, after `e` (`first` is the table's
/// first phase).
pub(crate) fn evolve_mode(mode: &mut Mode, first: Phase, e: &Event) {
    match e {
        Event::CombatStarted => {
            *mode = Mode::Combat {
                phase: first,
                round: 1,
            }
        }
        Event::PhaseBegan { phase, round } => {
            *mode = Mode::Combat {
                phase: *phase,
                round: *round,
            }
        }
        Event::CombatEnded { .. } => *mode = Mode::Roleplay,
        _ => {}
    }
}

/// Apply one event. Never rolls, never fails.
pub fn evolve(s: &mut State, e: &Event) {
    // The table's own fields first: the combat record reads the round and
    // the Health before the heal after combat.
    match e {
        Event::ConsentGiven { defendant, actor } if !s.consents.contains(&(*defendant, *actor)) => {
            s.consents.push((*defendant, *actor));
        }
        Event::ConsentUsed { defendant, actor } => {
            s.consents.retain(|c| *c != (*defendant, *actor));
        }
        Event::CombatStarted => s.outcome = None,
        Event::TurretPlaced { turret } => s.turrets.push(turret.clone()),
        Event::EnemySpawned { enemy } => {
            s.reserve = s.reserve.saturating_sub(enemy.health);
            s.enemies.push(enemy.clone());
        }
        Event::EnemyAdjusted { from, to, .. } => {
            s.reserve = s.reserve.saturating_add(*from).saturating_sub(*to);
        }
        Event::ReserveAdjusted { from, to } => {
            s.health_pool = s.health_pool.saturating_add(*to).saturating_sub(*from);
            s.reserve = *to;
        }
        Event::Joined { hero } => s.heroes.push(hero.as_ref().clone()),
        Event::Left {
            target: Target::Hero(i),
        } => s.consents.retain(|(d, a)| d != i && a != i),
        Event::PendingSet { pending } => s.pending = Some(pending.clone()),
        Event::PendingCleared => s.pending = None,
        Event::CombatEnded { outcome, .. } => {
            let round = match s.mode {
                Mode::Combat { round, .. } => round,
                Mode::Roleplay => 0,
            };
            s.last_combat = Some(CombatRecord {
                round,
                health: s.heroes.iter().map(|h| h.health).collect(),
            });
            s.outcome = Some(*outcome);
            s.pending = None;
            s.turrets.clear();
        }
        Event::Closed => s.closed = true,
        _ => {}
    }
    evolve_mode(&mut s.mode, s.first_phase, e);
    evolve_spent(&mut s.spent, e);
    match touches_hero(e) {
        Touch::None => {}
        Touch::One(i) => {
            if let Some(h) = s.heroes.get_mut(i) {
                evolve_hero(h, i, e);
            }
        }
        Touch::All => {
            for (i, h) in s.heroes.iter_mut().enumerate() {
                evolve_hero(h, i, e);
            }
        }
    }
    match touches_enemy(e) {
        Touch::None => {}
        Touch::One(i) => {
            if let Some(en) = s.enemies.get_mut(i) {
                evolve_enemy(en, i, e);
            }
        }
        Touch::All => {
            for (i, en) in s.enemies.iter_mut().enumerate() {
                evolve_enemy(en, i, e);
            }
        }
    }
}

/// What `e` does to character `h` (index `i`): its part of [`evolve`].
pub(crate) fn evolve_hero(h: &mut Hero, i: usize, e: &Event) {
    match e {
        Event::Rested { hero, healed, .. } if *hero == i => {
            h.health = h.health.saturating_add(*healed);
        }
        Event::CombatStarted => h.ap = MAX_AP,
        Event::PhaseBegan {
            phase: Phase::Player,
            ..
        } if h.up() => h.ap = MAX_AP,
        Event::ApSpent { hero, ap } if *hero == i => h.ap = h.ap.saturating_sub(*ap),
        // A reduction soaks one attack ("Reduce Xd6 damage from an attack"),
        // then is gone.
        Event::Damaged {
            target: Target::Hero(t),
            rolled,
            prevented,
            dealt,
        } if *t == i => {
            h.reduction = if *rolled > 0 {
                0
            } else {
                h.reduction.saturating_sub(*prevented)
            };
            h.health = h.health.saturating_sub(*dealt);
        }
        Event::Healed {
            target: Target::Hero(t),
            amount,
        } if *t == i => h.health = h.health.saturating_add(*amount),
        Event::Reduction { hero, amount } if *hero == i => {
            h.reduction = h.reduction.saturating_add(*amount);
        }
        Event::HeroMoved { hero, path } if *hero == i => {
            if let Some(&to) = path.last() {
                let before = path.len().checked_sub(2).and_then(|k| path.get(k));
                h.came_from = Some(before.copied().unwrap_or(h.zone));
                h.zone = to;
            }
        }
        Event::ItemUsed { hero, item } if *hero == i => {
            if let Some(pos) = h
                .items
                .iter()
                .position(|x| tabula_core::names::same_name(x, item))
            {
                h.items.remove(pos);
            }
        }
        Event::Grappled { enemy, hero } if *hero == i => h.grappled_by = Some(*enemy),
        Event::Released { hero } if *hero == i => h.grappled_by = None,
        Event::Ensnared { enemy, hero } if *hero == i => h.ensnared_by = Some(*enemy),
        Event::FellToZero { hero } if *hero == i => {
            h.health = 0;
            h.ap = 0;
            h.reduction = 0;
        }
        Event::DeathRoll { hero, dead, .. } if *hero == i => h.dead = *dead,
        Event::Wounded { hero } if *hero == i => h.wounds = h.wounds.saturating_add(1),
        Event::Adjusted {
            hero,
            value: crate::gm::HeroValue::Health,
            to,
            ..
        } if *hero == i => h.health = *to,
        Event::Adjusted {
            hero,
            value: crate::gm::HeroValue::Ap,
            to,
            ..
        } if *hero == i => h.ap = *to,
        Event::Left {
            target: Target::Hero(t),
        } if *t == i => {
            h.left = true;
            h.ap = 0;
            h.reduction = 0;
            h.grappled_by = None;
            h.ensnared_by = None;
        }
        Event::EnemyDefeated { enemy }
        | Event::Left {
            target: Target::Enemy(enemy),
        } => {
            if h.grappled_by == Some(*enemy) {
                h.grappled_by = None;
            }
            if h.ensnared_by == Some(*enemy) {
                h.ensnared_by = None;
            }
        }
        Event::CombatEnded { healed, .. } => {
            h.grappled_by = None;
            h.ensnared_by = None;
            h.reduction = 0;
            h.ap = MAX_AP;
            if *healed && !h.dead {
                h.health = h.max_health;
            } else {
                h.health = h.health.min(h.max_health);
            }
        }
        _ => {}
    }
}

/// What `e` does to enemy `en` (index `i`): its part of [`evolve`].
pub(crate) fn evolve_enemy(en: &mut Enemy, i: usize, e: &Event) {
    match e {
        Event::PhaseBegan { .. } => {
            en.moved = false;
            en.hurt = false;
            en.attacked_before = std::mem::take(&mut en.attacked_by);
        }
        // A Block soaks one attack, then is gone.
        Event::Damaged {
            target: Target::Enemy(t),
            rolled,
            prevented,
            dealt,
        } if *t == i => {
            en.block = if *rolled > 0 {
                0
            } else {
                en.block.saturating_sub(*prevented)
            };
            en.health = en.health.saturating_sub(*dealt);
            en.hurt |= *dealt > 0;
        }
        Event::Healed {
            target: Target::Enemy(t),
            amount,
        } if *t == i => en.health = en.health.saturating_add(*amount),
        Event::Attacked { enemy, hero } if *enemy == i => {
            en.last_attacker = Some(*hero);
            if !en.attacked_by.contains(hero) {
                en.attacked_by.push(*hero);
            }
        }
        Event::Blocked { enemy, amount } if *enemy == i => {
            en.block = en.block.saturating_add(*amount);
        }
        Event::EnemyMoved { enemy, to } if *enemy == i => {
            en.zone = *to;
            en.moved = true;
        }
        Event::Ensnared { enemy, hero } if *enemy == i => en.ensnaring = Some(*hero),
        Event::EnemyAdjusted { enemy, to, .. } if *enemy == i => {
            en.health = *to;
            en.start_health = en.start_health.max(*to);
        }
        Event::Left {
            target: Target::Enemy(t),
        } if *t == i => {
            en.left = true;
            en.block = 0;
            en.ensnaring = None;
            en.shadow = false;
        }
        Event::Left {
            target: Target::Hero(h),
        } if en.ensnaring == Some(*h) => en.ensnaring = None,
        Event::Shadow { enemy, on } if *enemy == i => en.shadow = *on,
        Event::EnemyDefeated { enemy } if *enemy == i => {
            en.health = 0;
            en.block = 0;
            en.ensnaring = None;
        }
        Event::CombatEnded { .. } => {
            en.block = 0;
            en.ensnaring = None;
            en.shadow = false;
        }
        _ => {}
    }
}
