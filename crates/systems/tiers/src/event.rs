//! What happened at the table: [`Event`], every die in it.

use serde::{Deserialize, Serialize};

use crate::character::Stat;
use crate::gm::Purchase;
use crate::roleplay::{CheckOutcome, Contest, ContestResult, RollResult};
use crate::state::*;

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
