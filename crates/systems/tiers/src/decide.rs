//! Commands and `decide`: which seat may do what now, and what it produces.
//!
//! Every refusal names its rule ([`crate::rules`]) and changes nothing.

use serde::{Deserialize, Serialize};

use crate::character::Stat;
use crate::combat::{act, check_free_to_move, check_path, use_item};
use crate::content::When;
use crate::enemies::{absorb, ensnare, move_enemy, move_player, shadow, spawn, spend};
use crate::gm::Purchase;
use crate::roleplay::{self, Contest, ContestResult, RollKind, RollProblem, RollResult, TieRule};
use crate::rules;
use crate::table::{
    Enemy, Event, Hero, Mode, Outcome, Pending, Phase, State, Target, Turret, evolve_enemy,
    evolve_hero, evolve_mode, evolve_spent, touches_enemy, touches_hero,
};
use std::borrow::Cow;
use tabula_core::dice::check_pool;
use tabula_core::{Die, Refusal, RollError, Roller, RuleError, Seat};

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
    /// reserve) or be `reserve` (the pool's reserve): see [`crate::gm::adjust`].
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
    /// [at ZONE]`); see [`crate::gm::add`].
    ///
    /// Tiers, "Phases" (002_631931fd73349179.txt); the crate's GM tools (issue 27, item 6).
    Add {
        /// One of the table's characters or a bundled sheet, by name.
        kind: String,
        /// The newcomer's name (default: the sheet's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Where it stands (default: the first player character's Zone).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
    },
    /// GM, in combat: an NPC ally or an enemy leaves the encounter (`remove
    /// CHARACTER`); see [`crate::gm::remove`].
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

pub(crate) type R<T> = Result<T, RuleError>;

pub(crate) fn roll_err(e: RollProblem, rule: tabula_core::Rule) -> RuleError {
    match e {
        RollProblem::Roll(r) => RuleError::roll(r),
        RollProblem::NoDice => RuleError::forbidden(rule, e.to_string()),
        RollProblem::OutOfRange {
            field,
            min,
            max,
            got,
        } => RuleError::out_of_range(rules::CAPS, field, min, max, got),
    }
}

/// Who gives a command, once the seat is read: the GM, a player for their own
/// character (or the GM for an NPC ally), or a seat that may not act.
#[derive(Clone, Debug)]
pub(crate) enum By {
    /// The GM.
    Gm,
    /// The character (index) the command is for.
    Hero(usize),
    /// A seat that plays no character: why, for commands that need one.
    Refused(RuleError),
}

impl By {
    /// Read the seat: the GM, or the player whose character has the seat's name.
    /// An NPC ally's name is no player seat: the GM plays NPCs.
    fn of(s: &State, seat: &Seat) -> By {
        match seat {
            Seat::Gm => By::Gm,
            Seat::Player(name) => match s.hero(name) {
                Some(i) if s.heroes.get(i).is_some_and(|h| !h.ally) => By::Hero(i),
                Some(i) => {
                    let n = s.heroes.get(i).map_or("", |h| h.name());
                    By::Refused(RuleError::new(
                        rules::SEATS,
                        Refusal::NotPermitted,
                        format!(
                            "{n} is an NPC ally: the GM plays NPCs (`GM: {} move ZONE`)",
                            tabula_core::grammar::quote(n)
                        ),
                    ))
                }
                None => By::Refused(unknown_among(
                    rules::SEATS,
                    "player",
                    name,
                    s.heroes
                        .iter()
                        .filter(|h| !h.ally)
                        .map(|h| tabula_core::grammar::quote(h.name())),
                )),
            },
        }
    }
}

/// A refusal for a name the table does not know, listing the names it does
/// ([`RuleError::unknown_among`]; "(there are none)" when it knows none).
pub(crate) fn unknown_among(
    rule: tabula_core::Rule,
    field: &str,
    name: &str,
    choices: impl IntoIterator<Item = String>,
) -> RuleError {
    let list: Vec<String> = choices.into_iter().collect();
    let mut e = RuleError::unknown_among(rule, field, name, list.iter().map(String::as_str));
    if list.is_empty() {
        e.message.push_str(" (there are none)");
    }
    e
}

pub(crate) fn gm_only(seat: &By) -> R<()> {
    if matches!(seat, By::Gm) {
        Ok(())
    } else {
        Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            "only the GM gives this command",
        ))
    }
}

/// The character a command is for: a player's own, or an NPC ally the GM plays.
pub(crate) fn hero_seat(_s: &State, seat: &By) -> R<usize> {
    match seat {
        By::Gm => Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            "a player gives this command for their own character (prefix the line with the player's name); the GM plays an NPC ally with `GM: ALLY COMMAND`",
        )),
        By::Hero(i) => Ok(*i),
        By::Refused(e) => Err(e.clone()),
    }
}

pub(crate) fn find_hero(s: &State, name: &str) -> R<usize> {
    s.hero(name).ok_or_else(|| {
        unknown_among(
            rules::SEATS,
            "character",
            name,
            s.heroes
                .iter()
                .map(|h| tabula_core::grammar::quote(h.name())),
        )
    })
}

pub(crate) fn find_enemy(s: &State, name: &str) -> R<usize> {
    s.enemy(name).ok_or_else(|| {
        unknown_among(
            rules::SAMPLE_ENEMIES,
            "enemy",
            name,
            s.enemies
                .iter()
                .map(|e| tabula_core::grammar::quote(&e.name)),
        )
    })
}

pub(crate) fn find_zone(s: &State, name: &str) -> R<usize> {
    s.zone(name).ok_or_else(|| {
        unknown_among(
            rules::ZONES,
            "Zone",
            name,
            s.zones
                .names()
                .iter()
                .map(|z| tabula_core::grammar::quote(z)),
        )
    })
}

/// A character that is not dead (Death Rolls): the dead take no further part.
///
/// Tiers, "Death Rolls" (002_631931fd73349179.txt).
pub(crate) fn alive(s: &State, i: usize) -> R<&Hero> {
    let h = hero(s, i)?;
    if h.dead {
        Err(RuleError::forbidden(
            rules::DEATH_ROLLS,
            format!("{} is dead and takes no further part", h.name()),
        ))
    } else {
        Ok(h)
    }
}

pub(crate) fn hero(s: &State, i: usize) -> R<&Hero> {
    s.heroes
        .get(i)
        .ok_or_else(|| RuleError::unknown(rules::SEATS, "player", &i.to_string()))
}

pub(crate) fn enemy(s: &State, i: usize) -> R<&Enemy> {
    s.enemies
        .get(i)
        .ok_or_else(|| RuleError::unknown(rules::SAMPLE_ENEMIES, "enemy", &i.to_string()))
}

pub(crate) fn out_of_combat(s: &State) -> R<()> {
    match s.mode {
        Mode::Roleplay => Ok(()),
        Mode::Combat { .. } => Err(RuleError::new(
            rules::ROLEPLAYING_IN_COMBAT,
            Refusal::WrongPhase,
            "in combat, roleplay costs 1 AP per d3: use `roleplay STAT D3 GOAL`",
        )),
    }
}

pub(crate) fn in_combat(s: &State) -> R<Phase> {
    s.phase().ok_or_else(|| {
        RuleError::new(
            rules::PHASES,
            Refusal::WrongPhase,
            "there is no combat now (the GM starts one with `fight`)",
        )
    })
}

pub(crate) fn player_phase(s: &State, when: When) -> R<()> {
    let phase = in_combat(s)?;
    if phase == Phase::Player || when == When::AnyPhase {
        Ok(())
    } else {
        Err(RuleError::new(
            rules::PHASES,
            Refusal::WrongPhase,
            "unless an Action says otherwise, it can only be used during the Player Phase",
        ))
    }
}

pub(crate) fn up(s: &State, i: usize) -> R<&Hero> {
    let h = alive(s, i)?;
    if h.up() {
        Ok(h)
    } else {
        Err(RuleError::forbidden(
            rules::HEALTH_ZERO,
            format!(
                "{} is at 0 Health and cannot contribute to the fight",
                h.name()
            ),
        ))
    }
}

pub(crate) fn spend_ap(s: &State, i: usize, ap: u32) -> R<Event> {
    let h = hero(s, i)?;
    if h.ap < ap {
        return Err(RuleError::forbidden(
            rules::ACTION_POINTS,
            format!("{} has {} AP left, this needs {ap}", h.name(), h.ap),
        ));
    }
    Ok(Event::ApSpent { hero: i, ap })
}

// ---- Reading the state after the events a command has produced so far.
//
// A command's later steps (the damage after a Block, a Response after the
// damage, the end of the combat after it all) read the state as its earlier
// events leave it. Rather than cloning the whole state and applying them
// (the catalog, the Zones and every character with it), these read only what
// is asked for: one character or enemy (borrowed when no event changed it,
// else a copy of that one with the events applied by the same per-entity
// parts of `evolve`), the phase, the Rolls left, the turrets.

/// Character `i` after `s` and then `out`; none for no such character.
pub(crate) fn hero_after<'a>(s: &'a State, out: &[Event], i: usize) -> Option<Cow<'a, Hero>> {
    let mut now = Cow::Borrowed(s.heroes.get(i)?);
    for e in out {
        if touches_hero(e).includes(i) {
            evolve_hero(now.to_mut(), i, e);
        }
    }
    Some(now)
}

/// Enemy `i` after `s` and then `out` (one spawned by `out` included); none
/// for no such enemy.
pub(crate) fn enemy_after<'a>(s: &'a State, out: &[Event], i: usize) -> Option<Cow<'a, Enemy>> {
    let mut now: Option<Cow<'a, Enemy>> = s.enemies.get(i).map(Cow::Borrowed);
    let mut count = s.enemies.len();
    for e in out {
        if let Event::EnemySpawned { enemy } = e {
            if count == i {
                now = Some(Cow::Owned(enemy.clone()));
            }
            count = count.saturating_add(1);
        } else if let Some(en) = now.as_mut()
            && touches_enemy(e).includes(i)
        {
            evolve_enemy(en.to_mut(), i, e);
        }
    }
    now
}

/// [`enemy_after`], refused as [`enemy`] refuses an unknown index.
pub(crate) fn enemy_now<'a>(s: &'a State, out: &[Event], i: usize) -> R<Cow<'a, Enemy>> {
    enemy_after(s, out, i)
        .ok_or_else(|| RuleError::unknown(rules::SAMPLE_ENEMIES, "enemy", &i.to_string()))
}

/// The number of enemies after `s` and then `out`.
fn enemies_after(s: &State, out: &[Event]) -> usize {
    s.enemies.len().saturating_add(
        out.iter()
            .filter(|e| matches!(e, Event::EnemySpawned { .. }))
            .count(),
    )
}

/// The phase after `s` and then `out` (none out of combat).
pub(crate) fn phase_after(s: &State, out: &[Event]) -> Option<Phase> {
    let mut mode = s.mode;
    for e in out {
        evolve_mode(&mut mode, s.first_phase, e);
    }
    match mode {
        Mode::Combat { phase, .. } => Some(phase),
        Mode::Roleplay => None,
    }
}

/// The Rolls still usable after `s` and then `out`.
pub(crate) fn rolls_left_after(s: &State, out: &[Event]) -> Purchase {
    let mut spent = s.spent;
    for e in out {
        evolve_spent(&mut spent, e);
    }
    crate::table::rolls_left(s.rolls, spent)
}

/// The turrets in play after `s` and then `out`.
pub(crate) fn turrets_after<'a>(s: &'a State, out: &[Event]) -> Cow<'a, [Turret]> {
    let mut now = Cow::Borrowed(s.turrets.as_slice());
    for e in out {
        match e {
            Event::TurretPlaced { turret } => now.to_mut().push(turret.clone()),
            Event::CombatEnded { .. } => now = Cow::Owned(Vec::new()),
            _ => {}
        }
    }
    now
}

/// The cost of Rolls in the current phase: doubled in the Player Phase
/// ("Spending Rolls for Actions").
pub(crate) fn doubled(s: &State, p: Purchase) -> Purchase {
    let k = if s.phase() == Some(Phase::Player) {
        2
    } else {
        1
    };
    Purchase {
        d6: p.d6.saturating_mul(k),
        d3: p.d3.saturating_mul(k),
        combat_points: p.combat_points.saturating_mul(k),
    }
}

pub(crate) fn take_rolls(s: &State, want: Purchase) -> R<Event> {
    take_rolls_from(s.rolls_left(), want)
}

/// [`take_rolls`] from the Rolls `left`.
pub(crate) fn take_rolls_from(left: Purchase, want: Purchase) -> R<Event> {
    if want.d6 > left.d6 || want.d3 > left.d3 || want.combat_points > left.combat_points {
        return Err(RuleError::forbidden(
            rules::USING_ROLLS,
            format!(
                "this needs {}d6 + {}d3 + {} CP, but only {}d6 + {}d3 + {} CP are left until the next Enemy Phase (an enemy's Action costs double in the Player Phase)",
                want.d6, want.d3, want.combat_points, left.d6, left.d3, left.combat_points
            ),
        ));
    }
    Ok(Event::RollsSpent { spent: want })
}

pub(crate) fn cap(field: &str, v: u32) -> R<()> {
    if v > MAX_SPEND {
        Err(RuleError::out_of_range(
            rules::CAPS,
            field,
            0,
            i64::from(MAX_SPEND),
            i64::from(v),
        ))
    } else {
        Ok(())
    }
}

/// The die a d3 is rolled with at this table ("Dice": a true d3, or a d6
/// halved).
pub(crate) fn d3_die(s: &State) -> Die {
    match s.options.d3 {
        tabula_core::D3Mode::True => Die::D3,
        tabula_core::D3Mode::HalvedD6 => Die::D6,
    }
}

/// Roll `d6` d6 and `d3` d3 and add `bonus`. `who` rolls them for `what`
/// (`"John"`, `"Slash"`): each pool is announced to the roller first, so a
/// manual roller asks "John, Slash: roll 1 d6".
pub(crate) fn roll_dice(
    s: &State,
    d6: u32,
    d3: u32,
    bonus: u32,
    roller: &mut dyn Roller,
    (who, what): (&str, &str),
) -> R<RollResult> {
    check_pool(u64::from(d6) + u64::from(d3)).map_err(|e| RuleError::roll(RollError::from(e)))?;
    if d6 > 0 {
        roller.announce(who, what, d6, Die::D6);
    }
    if d3 > 0 {
        let label = format!("{what} ({d3}d3)");
        roller.announce(
            who,
            if d3_die(s) == Die::D3 { what } else { &label },
            d3,
            d3_die(s),
        );
    }
    let mut r = RollResult {
        d6: Vec::new(),
        d3: Vec::new(),
        bonus: i64::from(bonus),
        total: i64::from(bonus),
    };
    for _ in 0..d6 {
        let v = roller.roll(Die::D6)?;
        r.d6.push(v);
        r.total = r.total.saturating_add(i64::from(v));
    }
    for _ in 0..d3 {
        let v = s.options.d3.roll(roller)?;
        r.d3.push(v);
        r.total = r.total.saturating_add(i64::from(v.value));
    }
    Ok(r)
}

/// Damage to a hero: reduced by its reduction; 0 Health leaves the fight, with
/// Death Rolls and Permanent Wounds when the table plays them.
///
/// Tiers, "Health", "Death Rolls", "Permanent Wounds" (002_631931fd73349179.txt).
pub(crate) fn damage_hero(
    s: &State,
    i: usize,
    rolled: u32,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let h = hero(s, i)?;
    if !h.up() {
        return Ok(());
    }
    let prevented = rolled.min(h.reduction);
    let dealt = (rolled - prevented).min(h.health);
    out.push(Event::Damaged {
        target: Target::Hero(i),
        rolled,
        prevented,
        dealt,
    });
    if dealt == h.health && dealt > 0 {
        fall_to_zero(s, i, h.name(), roller, out)?;
    }
    Ok(())
}

/// A hero reached 0 Health: out of the fight, with a Death Roll and a
/// Permanent Wound when the table plays them.
///
/// Tiers, "Health", "Death Rolls", "Permanent Wounds" (002_631931fd73349179.txt).
pub(crate) fn fall_to_zero(
    s: &State,
    i: usize,
    name: &str,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    out.push(Event::FellToZero { hero: i });
    if s.options.custom.death_rolls {
        roller.announce(name, "Death Roll", 1, Die::D6);
        let die = roller.roll(Die::D6)?;
        out.push(Event::DeathRoll {
            hero: i,
            die,
            dead: die % 2 == 1,
        });
    }
    if s.options.custom.permanent_wounds {
        out.push(Event::Wounded { hero: i });
    }
    Ok(())
}

/// Damage to an enemy (as `out` has left it): reduced by its Block.
pub(crate) fn damage_enemy(s: &State, i: usize, rolled: u32, out: &mut Vec<Event>) -> R<()> {
    let e = enemy_now(s, out, i)?;
    let prevented = rolled.min(e.block);
    let dealt = (rolled - prevented).min(e.health);
    out.push(Event::Damaged {
        target: Target::Enemy(i),
        rolled,
        prevented,
        dealt,
    });
    if dealt == e.health && e.health > 0 {
        out.push(Event::EnemyDefeated { enemy: i });
    }
    Ok(())
}

pub(crate) fn heal_hero(
    s: &State,
    i: usize,
    amount: u32,
    overheal: u32,
    out: &mut Vec<Event>,
) -> R<()> {
    let h = hero(s, i)?;
    if !h.up() {
        return Err(RuleError::forbidden(
            rules::HEALTH_ZERO,
            format!("{} is at 0 Health and cannot be healed", h.name()),
        ));
    }
    let cap = h.max_health.saturating_add(overheal);
    let amount = amount.min(cap.saturating_sub(h.health));
    out.push(Event::Healed {
        target: Target::Hero(i),
        amount,
    });
    Ok(())
}

pub(crate) fn heal_enemy(s: &State, i: usize, amount: u32, out: &mut Vec<Event>) -> R<()> {
    let e = enemy(s, i)?;
    if e.health == 0 {
        return Err(RuleError::forbidden(
            rules::HEALTH_ZERO,
            format!("{} is at 0 Health", e.name),
        ));
    }
    let amount = amount.min(e.start_health.saturating_sub(e.health));
    out.push(Event::Healed {
        target: Target::Enemy(i),
        amount,
    });
    Ok(())
}

/// After damage: all players at 0 lose; every enemy in play defeated wins
/// (Health left in the pool's reserve does not keep a combat going: the GM
/// `spawn`s reinforcements before the last enemy falls).
///
/// Tiers, "Combat", "Enemy Health", "Player Phase" (002_631931fd73349179.txt).
pub(crate) fn settle(s: &State, events: &mut Vec<Event>) {
    if phase_after(s, events).is_none() {
        return;
    }
    let players_down = (0..s.heroes.len())
        .filter_map(|i| hero_after(s, events, i))
        .filter(|h| !h.ally)
        .all(|h| !h.up());
    let enemies_down = (0..enemies_after(s, events))
        .filter_map(|i| enemy_after(s, events, i))
        .all(|e| !e.standing());
    let outcome = if players_down {
        Some(Outcome::Lost)
    } else if enemies_down {
        Some(Outcome::Won)
    } else {
        None
    };
    if let Some(outcome) = outcome {
        events.push(Event::CombatEnded {
            outcome,
            healed: heals_after(s),
        });
    }
}

/// "After combat, players are fully healed unless killed or otherwise stated by
/// the GM" (dungeons; the Resting custom rule).
pub(crate) fn heals_after(s: &State) -> bool {
    !s.options.dungeon && !s.options.custom.resting
}

/// Decide a command. See [`Command`] for who may give which.
///
/// # Errors
/// A [`RuleError`] naming the rule that refuses it; nothing changes.
pub fn decide(s: &State, seat: &Seat, cmd: &Command, roller: &mut dyn Roller) -> R<Vec<Event>> {
    if let Command::Ally {
        ally,
        does: command,
    } = cmd
    {
        gm_only(&By::of(s, seat))?;
        let i = find_hero(s, ally)?;
        let h = hero(s, i)?;
        if !h.ally {
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                format!(
                    "{} is a player's character: only their player gives its commands",
                    h.name()
                ),
            ));
        }
        if !command.is_character_command() {
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                "an NPC ally may act, move, use an item, roleplay, roll or rest",
            ));
        }
        return decide_by(s, &By::Hero(i), command, roller);
    }
    decide_by(s, &By::of(s, seat), cmd, roller)
}

fn decide_by(s: &State, seat: &By, cmd: &Command, roller: &mut dyn Roller) -> R<Vec<Event>> {
    if s.closed {
        return Err(RuleError::new(
            rules::SEATS,
            Refusal::WrongPhase,
            "the session is closed",
        ));
    }
    if s.pending.is_some() && !matches!(cmd, Command::Answer { .. }) {
        return Err(RuleError::new(
            rules::ROLEPLAY_AGAINST_ENEMIES,
            Refusal::WrongPhase,
            "a Competing Roll against an enemy waits for the GM's `answer`",
        ));
    }
    let mut out = Vec::new();
    match cmd {
        Command::Roll { stat, goal } => {
            let i = hero_seat(s, seat)?;
            out_of_combat(s)?;
            let bonus = alive(s, i)?.character.roleplay_bonus(*stat);
            roller.announce(hero(s, i)?.name(), stat.name(), 1, Die::D6);
            let outcome = roleplay::check(
                RollKind::OutOfCombat,
                i64::from(bonus),
                *goal,
                s.options.d3,
                roller,
            )
            .map_err(|e| roll_err(e, rules::ASKING_FOR_ROLLS))?;
            out.push(Event::Rolled {
                hero: i,
                stat: *stat,
                outcome,
            });
        }
        Command::Compete {
            first,
            first_stat,
            second,
            second_stat,
        } => {
            gm_only(seat)?;
            out_of_combat(s)?;
            let a = find_hero(s, first)?;
            let b = find_hero(s, second)?;
            alive(s, a)?;
            alive(s, b)?;
            if a == b {
                return Err(RuleError::forbidden(
                    rules::COMPETING_ROLLS,
                    "a Competing Roll needs two characters",
                ));
            }
            // "Ties": when the table's GM has ties rolled again, the characters
            // do another Roll (every Roll shown), at most MAX_REROLLS times.
            for _ in 0..=MAX_REROLLS {
                let ev = contest_out_of_combat(
                    s,
                    (a, *first_stat),
                    (b, *second_stat),
                    Contest::Competing { tie: s.options.tie },
                    roller,
                )?;
                let again = matches!(
                    ev,
                    Event::Contested {
                        result: ContestResult::Tie(TieRule::RollAgain),
                        ..
                    }
                );
                out.push(ev);
                if !again {
                    break;
                }
            }
        }
        Command::Consent { actor } => {
            let d = hero_seat(s, seat)?;
            let a = find_hero(s, actor)?;
            alive(s, d)?;
            alive(s, a)?;
            if a == d {
                return Err(RuleError::forbidden(
                    rules::PVP_ROLLS,
                    "a PvP Roll is between two players",
                ));
            }
            out.push(Event::ConsentGiven {
                defendant: d,
                actor: a,
            });
        }
        Command::Pvp {
            actor,
            actor_stat,
            defendant,
            defendant_stat,
        } => {
            gm_only(seat)?;
            out_of_combat(s)?;
            let a = find_hero(s, actor)?;
            let d = find_hero(s, defendant)?;
            alive(s, a)?;
            alive(s, d)?;
            if !s.consents.contains(&(d, a)) {
                return Err(RuleError::forbidden(
                    rules::PVP_ROLLS,
                    format!(
                        "{} has not consented to a PvP Roll by {} (\"When in doubt, ask for consent!\")",
                        hero(s, d)?.name(),
                        hero(s, a)?.name()
                    ),
                ));
            }
            out.push(contest_out_of_combat(
                s,
                (a, *actor_stat),
                (d, *defendant_stat),
                Contest::Pvp {
                    first_defends: false,
                },
                roller,
            )?);
            out.push(Event::ConsentUsed {
                defendant: d,
                actor: a,
            });
        }
        Command::Super6 => {
            let i = hero_seat(s, seat)?;
            alive(s, i)?;
            if !s.options.custom.super_6 {
                return Err(RuleError::forbidden(
                    rules::SUPER_6,
                    "this table does not play the Super 6 custom rule",
                ));
            }
            roller.announce(hero(s, i)?.name(), "Super 6", 2, Die::D6);
            let a = roller.roll(Die::D6)?;
            let b = roller.roll(Die::D6)?;
            out.push(Event::Super6 {
                hero: i,
                dice: [a, b],
                success: a == 6 && b == 6,
            });
        }
        Command::Rest { hours } => {
            let i = hero_seat(s, seat)?;
            if !s.options.custom.resting {
                return Err(RuleError::forbidden(
                    rules::RESTING,
                    "this table does not play the Resting custom rule",
                ));
            }
            out_of_combat(s)?;
            if !(1..=MAX_REST_HOURS).contains(hours) {
                return Err(RuleError::out_of_range(
                    rules::CAPS,
                    "hours",
                    1,
                    i64::from(MAX_REST_HOURS),
                    i64::from(*hours),
                ));
            }
            let h = alive(s, i)?;
            roller.announce(h.name(), "Resting", *hours, Die::D6);
            let dice = (0..*hours)
                .map(|_| roller.roll(Die::D6))
                .collect::<Result<Vec<u32>, _>>()?;
            let sum: u32 = dice.iter().sum();
            let healed = sum.min(h.max_health.saturating_sub(h.health));
            out.push(Event::Rested {
                hero: i,
                dice,
                healed,
            });
        }
        Command::Fight => {
            gm_only(seat)?;
            if s.phase().is_some() {
                return Err(RuleError::new(
                    rules::PHASES,
                    Refusal::WrongPhase,
                    "combat is already on",
                ));
            }
            if s.enemies.iter().all(|e| !e.standing()) {
                return Err(RuleError::forbidden(
                    rules::ENEMY_HEALTH,
                    "no enemy with Health is in play (spawn one from the pool first)",
                ));
            }
            out.push(Event::CombatStarted);
            out.push(Event::PhaseBegan {
                phase: s.first_phase,
                round: 1,
            });
        }
        Command::EndPhase => {
            gm_only(seat)?;
            let Mode::Combat { phase, round } = s.mode else {
                return Err(in_combat(s).err().unwrap_or_else(|| {
                    RuleError::new(rules::PHASES, Refusal::WrongPhase, "no combat")
                }));
            };
            let (next, round) = match phase {
                Phase::Enemy if s.first_phase == Phase::Enemy => (Phase::Player, round),
                Phase::Enemy => (Phase::Player, round.saturating_add(1)),
                Phase::Player if s.first_phase == Phase::Player => (Phase::Enemy, round),
                Phase::Player => (Phase::Enemy, round.saturating_add(1)),
            };
            out.push(Event::PhaseBegan { phase: next, round });
        }
        Command::EndCombat => {
            gm_only(seat)?;
            in_combat(s)?;
            out.push(Event::CombatEnded {
                outcome: Outcome::Ended,
                healed: heals_after(s),
            });
        }
        Command::Close => {
            gm_only(seat)?;
            out.push(Event::Closed);
        }
        Command::Adjust {
            character,
            value,
            amount,
        } => {
            gm_only(seat)?;
            crate::gm::adjust(s, character, *value, *amount, roller, &mut out)?;
        }
        Command::Add { kind, name, zone } => {
            gm_only(seat)?;
            crate::gm::add(s, kind, name.as_deref(), zone.as_deref(), &mut out)?;
        }
        Command::Remove { character } => {
            gm_only(seat)?;
            crate::gm::remove(s, character, &mut out)?;
        }
        Command::Act {
            action,
            target,
            cover,
        } => act(s, seat, action, target.as_deref(), *cover, roller, &mut out)?,
        Command::Move { path } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            up(s, i)?;
            if path.is_empty() || path.len() > crate::character::MAX_AP as usize {
                return Err(RuleError::out_of_range(
                    rules::MOVEMENT,
                    "Zones in one move",
                    1,
                    i64::from(crate::character::MAX_AP),
                    path.len() as i64,
                ));
            }
            let zones = path
                .iter()
                .map(|z| find_zone(s, z))
                .collect::<R<Vec<usize>>>()?;
            check_free_to_move(s, i)?;
            check_path(s, i, &zones)?;
            out.push(spend_ap(s, i, zones.len() as u32)?);
            out.push(Event::HeroMoved {
                hero: i,
                path: zones,
            });
        }
        Command::UseItem { item, target } => {
            use_item(s, seat, item, target.as_deref(), &mut out)?;
        }
        Command::Roleplay { stat, d3, goal } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            let h = up(s, i)?;
            if *d3 == 0 {
                return Err(RuleError::forbidden(
                    rules::ROLEPLAYING_IN_COMBAT,
                    "roleplaying in combat takes at least 1 AP for 1d3",
                ));
            }
            out.push(spend_ap(s, i, *d3)?);
            roller.announce(h.name(), stat.name(), *d3, d3_die(s));
            let outcome = roleplay::check(
                RollKind::InCombat { d3: *d3 },
                i64::from(h.character.roleplay_bonus(*stat)),
                *goal,
                s.options.d3,
                roller,
            )
            .map_err(|e| roll_err(e, rules::ROLEPLAYING_IN_COMBAT))?;
            out.push(Event::Rolled {
                hero: i,
                stat: *stat,
                outcome,
            });
        }
        Command::RoleplayVs {
            enemy: en,
            stat,
            d3,
        } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            let h = up(s, i)?;
            let e = find_enemy(s, en)?;
            if enemy(s, e)?.health == 0 {
                return Err(RuleError::forbidden(
                    rules::ROLEPLAY_AGAINST_ENEMIES,
                    format!("{en} is already at 0 Health"),
                ));
            }
            if *d3 == 0 {
                return Err(RuleError::forbidden(
                    rules::ROLEPLAYING_IN_COMBAT,
                    "roleplaying in combat takes at least 1 AP for 1d3",
                ));
            }
            out.push(spend_ap(s, i, *d3)?);
            out.push(Event::PendingSet {
                pending: Pending {
                    hero: i,
                    enemy: e,
                    stat: *stat,
                    d3: *d3,
                    bonus: h.character.roleplay_bonus(*stat),
                    about: "roleplay".into(),
                },
            });
        }
        Command::Answer { raise } => {
            gm_only(seat)?;
            let Some(p) = &s.pending else {
                return Err(RuleError::new(
                    rules::ROLEPLAY_AGAINST_ENEMIES,
                    Refusal::WrongPhase,
                    "no Competing Roll waits for an answer",
                ));
            };
            cap("d6", raise.d6)?;
            cap("d3", raise.d3)?;
            cap("cp", raise.combat_points)?;
            if *raise != Purchase::default() {
                out.push(take_rolls(s, *raise)?);
            }
            let hero_name = hero(s, p.hero)?.name().to_string();
            let enemy_name = enemy(s, p.enemy)?.name.clone();
            let hero_roll = roll_dice(s, 0, p.d3, p.bonus, roller, (&hero_name, "roleplaying"))?;
            let enemy_roll = roll_dice(
                s,
                raise.d6,
                raise.d3.saturating_add(1),
                raise.combat_points,
                roller,
                (&enemy_name, "against roleplaying"),
            )?;
            let result = roleplay::contest(
                hero_roll.total,
                enemy_roll.total,
                Contest::Competing { tie: s.options.tie },
            );
            out.push(Event::Contested {
                first: hero(s, p.hero)?.name().to_string(),
                second: enemy(s, p.enemy)?.name.clone(),
                first_roll: hero_roll,
                second_roll: enemy_roll,
                contest: Contest::Competing { tie: s.options.tie },
                result,
                about: p.about.clone(),
            });
            out.push(Event::PendingCleared);
            if result == ContestResult::First && hero(s, p.hero)?.grappled_by == Some(p.enemy) {
                out.push(Event::Released { hero: p.hero });
            }
        }
        Command::Spend {
            enemy: en,
            use_name,
            dice,
            heal_d6,
            target,
            to,
        } => spend(
            s,
            seat,
            en,
            use_name,
            *dice,
            *heal_d6,
            target.as_deref(),
            to.as_deref(),
            roller,
            &mut out,
        )?,
        Command::MoveEnemy { enemy: en, to, pay } => {
            gm_only(seat)?;
            in_combat(s)?;
            let e = find_enemy(s, en)?;
            let z = find_zone(s, to)?;
            move_enemy(s, e, z, *pay, &mut out)?;
        }
        Command::MovePlayer { player, to, pay } => move_player(s, seat, player, to, pay, &mut out)?,
        Command::Spawn {
            name,
            kind,
            health,
            zone,
        } => spawn(s, seat, name, kind, health, zone, &mut out)?,
        Command::Sink { enemy: en, pay } | Command::Emerge { enemy: en, pay } => {
            shadow(s, seat, cmd, en, pay, &mut out)?
        }
        Command::Ensnare {
            enemy: en,
            player,
            pay,
        } => ensnare(s, seat, en, player, pay, &mut out)?,
        Command::Absorb { enemy: en, dice } => absorb(s, seat, en, dice, roller, &mut out)?,
        Command::Ally { .. } => {
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                "an NPC ally's command holds one command of the ally",
            ));
        }
    }
    Ok(out)
}

/// A contest out of combat: each rolls a d6 + the Stat's Roleplay Bonus.
fn contest_out_of_combat(
    s: &State,
    (a, sa): (usize, Stat),
    (b, sb): (usize, Stat),
    contest: Contest,
    roller: &mut dyn Roller,
) -> R<Event> {
    let ha = hero(s, a)?;
    let hb = hero(s, b)?;
    roller.announce(ha.name(), sa.name(), 1, Die::D6);
    let ra = roleplay::roll(
        RollKind::OutOfCombat,
        i64::from(ha.character.roleplay_bonus(sa)),
        s.options.d3,
        roller,
    )
    .map_err(|e| roll_err(e, rules::COMPETING_ROLLS))?;
    roller.announce(hb.name(), sb.name(), 1, Die::D6);
    let rb = roleplay::roll(
        RollKind::OutOfCombat,
        i64::from(hb.character.roleplay_bonus(sb)),
        s.options.d3,
        roller,
    )
    .map_err(|e| roll_err(e, rules::COMPETING_ROLLS))?;
    let result = roleplay::contest(ra.total, rb.total, contest);
    Ok(Event::Contested {
        first: ha.name().to_string(),
        second: hb.name().to_string(),
        first_roll: ra,
        second_roll: rb,
        contest,
        result,
        about: format!("{sa} against {sb}"),
    })
}
