//! Commands and `decide`: which seat may do what now, and what it produces.
//!
//! Every refusal names its rule ([`crate::rules`]) and changes nothing.

use serde::{Deserialize, Serialize};

use crate::character::Stat;
use crate::content::{ActionEffect, Reach, UseDie, UseEffect, When};
use crate::gm::Purchase;
use crate::roleplay::{self, Contest, ContestResult, RollKind, RollProblem, RollResult, TieRule};
use crate::rules;
use crate::table::{Enemy, Event, Hero, Mode, Outcome, Pending, Phase, State, Target, Turret};
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
        /// Its name (no spaces).
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
}

type R<T> = Result<T, RuleError>;

fn roll_err(e: RollProblem, rule: tabula_core::Rule) -> RuleError {
    match e {
        RollProblem::Roll(r) => RuleError::roll(r),
        RollProblem::NoDice => RuleError::forbidden(rule, e.to_string()),
        RollProblem::TooLarge { field, max, got } => RuleError::out_of_range(
            rules::CAPS,
            field,
            0,
            i64::try_from(max).unwrap_or(i64::MAX),
            i64::try_from(got).unwrap_or(i64::MAX),
        ),
    }
}

fn gm_only(seat: &Seat) -> R<()> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            "only the GM gives this command",
        ))
    }
}

fn hero_seat(s: &State, seat: &Seat) -> R<usize> {
    match seat {
        Seat::Gm => Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            "a player gives this command (prefix the line with the player's name)",
        )),
        Seat::Player(name) => s
            .hero(name)
            .ok_or_else(|| RuleError::unknown(rules::SEATS, "player", name)),
    }
}

fn find_hero(s: &State, name: &str) -> R<usize> {
    s.hero(name)
        .ok_or_else(|| RuleError::unknown(rules::SEATS, "player", name))
}

fn find_enemy(s: &State, name: &str) -> R<usize> {
    s.enemy(name)
        .ok_or_else(|| RuleError::unknown(rules::SAMPLE_ENEMIES, "enemy", name))
}

fn find_zone(s: &State, name: &str) -> R<usize> {
    s.zone(name)
        .ok_or_else(|| RuleError::unknown(rules::ZONES, "Zone", name))
}

fn hero(s: &State, i: usize) -> R<&Hero> {
    s.heroes
        .get(i)
        .ok_or_else(|| RuleError::unknown(rules::SEATS, "player", &i.to_string()))
}

fn enemy(s: &State, i: usize) -> R<&Enemy> {
    s.enemies
        .get(i)
        .ok_or_else(|| RuleError::unknown(rules::SAMPLE_ENEMIES, "enemy", &i.to_string()))
}

fn out_of_combat(s: &State) -> R<()> {
    match s.mode {
        Mode::Roleplay => Ok(()),
        Mode::Combat { .. } => Err(RuleError::new(
            rules::ROLEPLAYING_IN_COMBAT,
            Refusal::WrongPhase,
            "in combat, roleplay costs 1 AP per d3: use `roleplay STAT D3 GOAL`",
        )),
    }
}

fn in_combat(s: &State) -> R<Phase> {
    s.phase().ok_or_else(|| {
        RuleError::new(
            rules::PHASES,
            Refusal::WrongPhase,
            "there is no combat now (the GM starts one with `fight`)",
        )
    })
}

fn player_phase(s: &State, when: When) -> R<()> {
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

fn up(s: &State, i: usize) -> R<&Hero> {
    let h = hero(s, i)?;
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

fn spend_ap(s: &State, i: usize, ap: u32) -> R<Event> {
    let h = hero(s, i)?;
    if h.ap < ap {
        return Err(RuleError::forbidden(
            rules::ACTION_POINTS,
            format!("{} has {} AP left, this needs {ap}", h.name(), h.ap),
        ));
    }
    Ok(Event::ApSpent { hero: i, ap })
}

/// The cost of Rolls in the current phase: doubled in the Player Phase
/// ("Spending Rolls for Actions").
fn doubled(s: &State, p: Purchase) -> Purchase {
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

fn take_rolls(s: &State, want: Purchase) -> R<Event> {
    let left = s.rolls_left();
    if want.d6 > left.d6 || want.d3 > left.d3 || want.combat_points > left.combat_points {
        return Err(RuleError::forbidden(
            rules::USING_ROLLS,
            format!(
                "this needs {}d6 + {}d3 + {} CP{}, but only {}d6 + {}d3 + {} CP are left until the next Enemy Phase",
                want.d6,
                want.d3,
                want.combat_points,
                if s.phase() == Some(Phase::Player) {
                    " (doubled in the Player Phase)"
                } else {
                    ""
                },
                left.d6,
                left.d3,
                left.combat_points
            ),
        ));
    }
    Ok(Event::RollsSpent { spent: want })
}

fn cap(field: &str, v: u32) -> R<()> {
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

/// Roll `d6` d6 and `d3` d3 and add `bonus`.
fn roll_dice(s: &State, d6: u32, d3: u32, bonus: u32, roller: &mut dyn Roller) -> R<RollResult> {
    check_pool(u64::from(d6) + u64::from(d3)).map_err(|e| RuleError::roll(RollError::from(e)))?;
    let mut r = RollResult {
        d6: Vec::new(),
        d3: Vec::new(),
        bonus,
        total: bonus,
    };
    for _ in 0..d6 {
        let v = roller.roll(Die::D6)?;
        r.d6.push(v);
        r.total = r.total.saturating_add(v);
    }
    for _ in 0..d3 {
        let v = s.options.d3.roll(roller)?;
        r.d3.push(v);
        r.total = r.total.saturating_add(v.value);
    }
    Ok(r)
}

/// Damage to a hero: reduced by its reduction; 0 Health leaves the fight, with
/// Death Rolls and Permanent Wounds when the table plays them.
///
/// Tiers, "Health", "Death Rolls", "Permanent Wounds" (002_631931fd73349179.txt).
fn damage_hero(
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
        out.push(Event::FellToZero { hero: i });
        if s.options.custom.death_rolls {
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
    }
    Ok(())
}

/// Damage to an enemy: not in shadow form; reduced by its Block.
fn damage_enemy(s: &State, i: usize, rolled: u32, out: &mut Vec<Event>) -> R<()> {
    let e = enemy(s, i)?;
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

fn heal_hero(s: &State, i: usize, amount: u32, overheal: u32, out: &mut Vec<Event>) -> R<()> {
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

fn heal_enemy(s: &State, i: usize, amount: u32, out: &mut Vec<Event>) -> R<()> {
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

/// After damage: all players at 0 lose; all enemies at 0 with no reserve win.
///
/// Tiers, "Combat", "Enemy Health", "Player Phase" (002_631931fd73349179.txt).
fn settle(s: &State, events: &mut Vec<Event>) {
    let mut after = s.clone();
    for e in events.iter() {
        crate::table::evolve(&mut after, e);
    }
    if after.phase().is_none() {
        return;
    }
    let players_down = after.heroes.iter().filter(|h| !h.ally).all(|h| !h.up());
    let enemies_down = after.enemies.iter().all(|e| e.health == 0) && after.reserve == 0;
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
fn heals_after(s: &State) -> bool {
    !s.options.dungeon && !s.options.custom.resting
}

/// Decide a command. See [`Command`] for who may give which.
///
/// # Errors
/// A [`RuleError`] naming the rule that refuses it; nothing changes.
pub fn decide(s: &State, seat: &Seat, cmd: &Command, roller: &mut dyn Roller) -> R<Vec<Event>> {
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
            let bonus = hero(s, i)?.character.roleplay_bonus(*stat);
            let outcome =
                roleplay::check(RollKind::OutOfCombat, bonus, *goal, s.options.d3, roller)
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
            if !s.options.custom.super_6 {
                return Err(RuleError::forbidden(
                    rules::SUPER_6,
                    "this table does not play the Super 6 custom rule",
                ));
            }
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
            let h = hero(s, i)?;
            if h.dead {
                return Err(RuleError::forbidden(
                    rules::DEATH_ROLLS,
                    format!("{} is dead", h.name()),
                ));
            }
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
            if s.enemies.iter().all(|e| e.health == 0) {
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
        Command::Act {
            action,
            target,
            cover,
        } => act(s, seat, action, target.as_deref(), *cover, roller, &mut out)?,
        Command::Move { path } => {
            let i = hero_seat(s, seat)?;
            player_phase(s, When::PlayerPhase)?;
            let h = up(s, i)?;
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
            check_path(s, h.zone, &zones, Some(i))?;
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
            let outcome = roleplay::check(
                RollKind::InCombat { d3: *d3 },
                h.character.roleplay_bonus(*stat),
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
            let hero_roll = roll_dice(s, 0, p.d3, p.bonus, roller)?;
            let enemy_roll = roll_dice(s, raise.d6, raise.d3 + 1, raise.combat_points, roller)?;
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
        Command::MovePlayer { player, to, pay } => {
            gm_only(seat)?;
            in_combat(s)?;
            let i = find_hero(s, player)?;
            let h = up(s, i)?;
            let z = find_zone(s, to)?;
            let steps = s.zones.distance(h.zone, z).ok_or_else(|| {
                RuleError::forbidden(
                    rules::ENEMY_MOVEMENT,
                    format!(
                        "no accessible way leads from {} to {to}",
                        s.zones.name(h.zone)
                    ),
                )
            })?;
            if steps == 0 {
                return Err(RuleError::forbidden(
                    rules::ENEMY_MOVEMENT,
                    format!("{} is already in {to}", h.name()),
                ));
            }
            let cost = match pay {
                Pay::D3 => Purchase {
                    d3: steps,
                    ..Purchase::default()
                },
                Pay::Cp => Purchase {
                    combat_points: 2 * steps,
                    ..Purchase::default()
                },
                Pay::D6 => {
                    return Err(RuleError::forbidden(
                        rules::ENEMY_MOVEMENT,
                        "moving a player costs a d3 or 2 Combat Points per Zone",
                    ));
                }
            };
            out.push(take_rolls(s, doubled(s, cost))?);
            out.push(Event::HeroMoved {
                hero: i,
                path: vec![z],
            });
        }
        Command::Spawn {
            name,
            kind,
            health,
            zone,
        } => {
            gm_only(seat)?;
            let k = s
                .catalog
                .enemy(kind)
                .ok_or_else(|| RuleError::unknown(rules::SAMPLE_ENEMIES, "enemy kind", kind))?;
            let z = find_zone(s, zone)?;
            if name.trim().is_empty()
                || name.contains(char::is_whitespace)
                || name.contains(':')
                || s.enemy(name).is_some()
                || s.hero(name).is_some()
            {
                return Err(RuleError::forbidden(
                    rules::SEATS,
                    format!("{name:?} is not a free name for an enemy (one word, unused)"),
                ));
            }
            if *health == 0 || *health > s.reserve {
                return Err(RuleError::out_of_range(
                    rules::ENEMY_HEALTH,
                    "health",
                    1,
                    i64::from(s.reserve),
                    i64::from(*health),
                ));
            }
            if s.enemies.len() >= crate::setup::MAX_SEATS * 4 {
                return Err(RuleError::forbidden(rules::CAPS, "too many enemies"));
            }
            out.push(Event::EnemySpawned {
                enemy: Enemy {
                    name: name.trim().to_string(),
                    kind: k.name.clone(),
                    health: *health,
                    start_health: *health,
                    zone: z,
                    block: 0,
                    shadow: false,
                    ensnaring: None,
                    last_attacker: None,
                    moved: false,
                },
            });
        }
        Command::Sink { enemy: en, pay } | Command::Emerge { enemy: en, pay } => {
            gm_only(seat)?;
            in_combat(s)?;
            let sink = matches!(cmd, Command::Sink { .. });
            let e = find_enemy(s, en)?;
            let x = enemy(s, e)?;
            let shadowy = s.catalog.enemy(&x.kind).is_some_and(|k| k.shadow_form);
            if !shadowy {
                return Err(RuleError::forbidden(
                    rules::SHADOW_GOBLIN,
                    format!("{} ({}) has no shadow form", x.name, x.kind),
                ));
            }
            if x.health == 0 || x.shadow == sink {
                return Err(RuleError::forbidden(
                    rules::SHADOW_GOBLIN,
                    format!(
                        "{} is {}",
                        x.name,
                        if x.health == 0 {
                            "at 0 Health"
                        } else if sink {
                            "already in its shadow"
                        } else {
                            "not in its shadow"
                        }
                    ),
                ));
            }
            let cost = match pay {
                Pay::D6 => Purchase {
                    d6: 1,
                    ..Purchase::default()
                },
                Pay::D3 => Purchase {
                    d3: 1,
                    ..Purchase::default()
                },
                Pay::Cp => {
                    return Err(RuleError::forbidden(
                        rules::SHADOW_GOBLIN,
                        "the shadow form costs a roll (a d6 or a d3), not Combat Points",
                    ));
                }
            };
            out.push(take_rolls(s, cost)?);
            out.push(Event::Shadow { enemy: e, on: sink });
        }
        Command::Ensnare {
            enemy: en,
            player,
            pay,
        } => {
            gm_only(seat)?;
            in_combat(s)?;
            let e = find_enemy(s, en)?;
            let i = find_hero(s, player)?;
            let x = enemy(s, e)?;
            let h = up(s, i)?;
            let armor = s.catalog.enemy(&x.kind).is_some_and(|k| k.ensnare);
            let why = if !armor {
                Some(format!("{} ({}) cannot ensnare", x.name, x.kind))
            } else if x.health == 0 {
                Some(format!("{} is at 0 Health", x.name))
            } else if x.ensnaring.is_some() || h.ensnared_by.is_some() {
                Some("one ensnared character at a time".to_string())
            } else if x.zone != h.zone {
                Some(format!("{} is not in {}'s Zone", h.name(), x.name))
            } else if x.last_attacker != Some(i) {
                Some(format!("{} has not attacked {}", h.name(), x.name))
            } else if x.moved {
                Some(format!(
                    "{} approached this phase and cannot ensnare in the same turn",
                    x.name
                ))
            } else {
                None
            };
            if let Some(why) = why {
                return Err(RuleError::forbidden(rules::ENCHANTED_ARMOR, why));
            }
            out.push(take_rolls(s, doubled(s, move_cost(*pay)?))?);
            out.push(Event::Ensnared { enemy: e, hero: i });
        }
        Command::Absorb { enemy: en, dice } => {
            gm_only(seat)?;
            in_combat(s)?;
            let e = find_enemy(s, en)?;
            let x = enemy(s, e)?;
            let Some(victim) = x.ensnaring else {
                return Err(RuleError::forbidden(
                    rules::ENCHANTED_ARMOR,
                    format!("{} has no one ensnared", x.name),
                ));
            };
            if x.health == 0 {
                return Err(RuleError::forbidden(
                    rules::ENCHANTED_ARMOR,
                    format!("{} is at 0 Health", x.name),
                ));
            }
            cap("d6", dice.d6)?;
            cap("d3", dice.d3)?;
            cap("cp", dice.combat_points)?;
            if dice.d6 + dice.d3 == 0 {
                return Err(RuleError::forbidden(
                    rules::ENCHANTED_ARMOR,
                    "Absorb uses at least one roll",
                ));
            }
            out.push(take_rolls(s, doubled(s, *dice))?);
            let roll = roll_dice(s, dice.d6, dice.d3, dice.combat_points, roller)?;
            let total = roll.total;
            out.push(Event::EnemyRolled {
                enemy: e,
                use_name: "Absorb".into(),
                roll,
            });
            heal_enemy(s, e, total, &mut out)?;
            damage_hero(s, victim, total.div_ceil(2), roller, &mut out)?;
            settle(s, &mut out);
        }
    }
    Ok(out)
}

fn move_cost(pay: Pay) -> R<Purchase> {
    match pay {
        Pay::D3 => Ok(Purchase {
            d3: 1,
            ..Purchase::default()
        }),
        Pay::Cp => Ok(Purchase {
            combat_points: 1,
            ..Purchase::default()
        }),
        Pay::D6 => Err(RuleError::forbidden(
            rules::USING_ROLLS_MOVE,
            "moving an enemy costs 1d3 or 1 Combat Point",
        )),
    }
}

/// Move an enemy one Zone: 1d3 or 1 CP; a turret in the new Zone fires.
///
/// "Using Rolls", "Enemy Movement", "Sample Items" (Turret)
/// (002_631931fd73349179.txt).
fn move_enemy(s: &State, e: usize, z: usize, pay: Pay, out: &mut Vec<Event>) -> R<()> {
    let x = enemy(s, e)?;
    if x.health == 0 {
        return Err(RuleError::forbidden(
            rules::USING_ROLLS_MOVE,
            format!("{} is at 0 Health", x.name),
        ));
    }
    if x.ensnaring.is_some() {
        return Err(RuleError::forbidden(
            rules::ENCHANTED_ARMOR,
            "Enchanted Armor cannot move while it has a character ensnared",
        ));
    }
    if !s.zones.accessible(x.zone, z) {
        return Err(RuleError::forbidden(
            rules::USING_ROLLS_MOVE,
            format!(
                "{} is not a touching, accessible Zone of {}",
                s.zones.name(z),
                s.zones.name(x.zone)
            ),
        ));
    }
    out.push(take_rolls(s, doubled(s, move_cost(pay)?))?);
    out.push(Event::EnemyMoved { enemy: e, to: z });
    for (t, turret) in s.turrets.iter().enumerate() {
        if turret.zone == z && turret.health > 0 && !x.shadow {
            out.push(Event::TurretFired {
                turret: t,
                enemy: e,
            });
            let mut now = s.clone();
            for ev in out.iter() {
                crate::table::evolve(&mut now, ev);
            }
            if now.enemies.get(e).is_some_and(|en| en.health > 0) {
                damage_enemy(&now, e, turret.damage, out)?;
            }
        }
    }
    settle(s, out);
    Ok(())
}

fn check_free_to_move(s: &State, i: usize) -> R<()> {
    let h = hero(s, i)?;
    if h.ensnared_by.is_some() {
        return Err(RuleError::forbidden(
            rules::ENCHANTED_ARMOR,
            format!("{} is ensnared and cannot move away", h.name()),
        ));
    }
    if let Some(g) = h.grappled_by
        && s.enemies.get(g).is_some_and(|e| e.health > 0)
    {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            format!("{} is grappled and cannot move away", h.name()),
        ));
    }
    Ok(())
}

/// A path of touching, accessible Zones, never through a Zone holding players
/// or enemies (the last Zone may hold them).
///
/// Tiers, "Movement" (002_631931fd73349179.txt).
fn check_path(s: &State, from: usize, path: &[usize], mover: Option<usize>) -> R<()> {
    let mut at = from;
    for (k, &z) in path.iter().enumerate() {
        if !s.zones.accessible(at, z) {
            return Err(RuleError::forbidden(
                rules::MOVEMENT,
                format!(
                    "{} is not a touching, accessible Zone of {}",
                    s.zones.name(z),
                    s.zones.name(at)
                ),
            ));
        }
        if k + 1 < path.len() {
            let occupied = s
                .heroes
                .iter()
                .enumerate()
                .any(|(j, h)| Some(j) != mover && h.zone == z && h.up())
                || s.enemies.iter().any(|e| e.zone == z && e.health > 0);
            if occupied {
                return Err(RuleError::forbidden(
                    rules::MOVEMENT,
                    format!(
                        "you cannot move through players or enemies ({} is occupied)",
                        s.zones.name(z)
                    ),
                ));
            }
        }
        at = z;
    }
    Ok(())
}

fn reach_ok(s: &State, reach: Reach, from: usize, to: usize) -> bool {
    match reach {
        Reach::Melee => from == to,
        Reach::Ranged => s.zones.distance(from, to).is_some(),
        Reach::Own => true,
    }
}

fn reach_err(reach: Reach, name: &str) -> RuleError {
    match reach {
        Reach::Ranged => RuleError::forbidden(
            rules::ACTION_POINTS,
            format!("ranged actions can't shoot through inaccessible Zones: no way reaches {name}"),
        ),
        _ => RuleError::forbidden(
            rules::ACTIONS,
            format!("{name} is not in your Zone (this Action is melee)"),
        ),
    }
}

/// Roll an Action's dice, and the critical d6 for damage and healing (R-TI-6).
///
/// Tiers, "Rolling for Criticals" (002_631931fd73349179.txt); R-TI-6.
fn action_roll(
    s: &State,
    i: usize,
    a: &crate::content::ActionDef,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<u32> {
    let roll = roll_dice(s, a.d6, a.d3, a.flat, roller)?;
    let crits = matches!(a.effect, ActionEffect::Damage | ActionEffect::Heal);
    let critical = if crits {
        Some(roller.roll(Die::D6)?)
    } else {
        None
    };
    let amount = if critical == Some(6) {
        roll.total.saturating_mul(2)
    } else {
        roll.total
    };
    out.push(Event::ActionRolled {
        hero: i,
        action: a.name.clone(),
        roll,
        critical,
        amount,
    });
    Ok(amount)
}

fn act(
    s: &State,
    seat: &Seat,
    action: &str,
    target: Option<&str>,
    cover: bool,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let i = hero_seat(s, seat)?;
    let a = s
        .catalog
        .action(action)
        .ok_or_else(|| RuleError::unknown(rules::ACTIONS, "Action", action))?
        .clone();
    player_phase(s, a.when)?;
    let h = up(s, i)?;
    if !h.character.stat(a.stat).has_tier(a.tier) {
        return Err(RuleError::forbidden(
            rules::ACTIONS,
            format!(
                "{} needs at least 1 SP in tier {} of {} ({} has {})",
                a.name,
                a.tier,
                a.stat,
                h.name(),
                h.character.stat(a.stat).in_tier(a.tier)
            ),
        ));
    }
    if cover && !s.options.custom.cover {
        return Err(RuleError::forbidden(
            rules::COVER,
            "this table does not play the Cover custom rule",
        ));
    }
    match a.effect {
        ActionEffect::Damage | ActionEffect::Compete => {
            let name = target.ok_or_else(|| {
                RuleError::forbidden(rules::ACTIONS, format!("{} needs a target enemy", a.name))
            })?;
            let e = find_enemy(s, name)?;
            let x = enemy(s, e)?;
            if x.health == 0 {
                return Err(RuleError::forbidden(
                    rules::ACTIONS,
                    format!("{} is already at 0 Health", x.name),
                ));
            }
            if a.effect == ActionEffect::Damage && x.shadow {
                return Err(RuleError::forbidden(
                    rules::SHADOW_GOBLIN,
                    format!("{} is in its shadow form and cannot receive damage", x.name),
                ));
            }
            if !reach_ok(s, a.reach, h.zone, x.zone) {
                return Err(reach_err(a.reach, &x.name));
            }
            out.push(spend_ap(s, i, a.ap)?);
            // Remember the attacker (Enchanted Armor faces whoever attacked it).
            out.push(Event::Attacked { enemy: e, hero: i });
            if cover {
                // "Cover": a Competing RP-Roll, the player's 1d3 + Roleplay Bonus of
                // the Action's Stat against the target's 1d3; higher hits.
                let mine = roll_dice(s, 0, 1, h.character.roleplay_bonus(a.stat), roller)?;
                let theirs = roll_dice(s, 0, 1, 0, roller)?;
                let result = roleplay::contest(
                    mine.total,
                    theirs.total,
                    Contest::Competing { tie: s.options.tie },
                );
                out.push(Event::Contested {
                    first: h.name().to_string(),
                    second: x.name.clone(),
                    first_roll: mine,
                    second_roll: theirs,
                    contest: Contest::Competing { tie: s.options.tie },
                    result,
                    about: format!("cover ({})", a.name),
                });
                if result != ContestResult::First {
                    return Ok(());
                }
            }
            if a.effect == ActionEffect::Compete {
                let mine = roll_dice(
                    s,
                    a.d6,
                    a.d3,
                    a.flat + h.character.roleplay_bonus(a.stat),
                    roller,
                )?;
                let theirs = roll_dice(s, 0, 1, 0, roller)?;
                let result = roleplay::contest(
                    mine.total,
                    theirs.total,
                    Contest::Competing { tie: s.options.tie },
                );
                out.push(Event::Contested {
                    first: h.name().to_string(),
                    second: x.name.clone(),
                    first_roll: mine,
                    second_roll: theirs,
                    contest: Contest::Competing { tie: s.options.tie },
                    result,
                    about: a.name.clone(),
                });
                if result == ContestResult::First && h.grappled_by == Some(e) {
                    out.push(Event::Released { hero: i });
                }
                return Ok(());
            }
            let amount = action_roll(s, i, &a, roller, out)?;
            let mut now = s.clone();
            for ev in out.iter() {
                crate::table::evolve(&mut now, ev);
            }
            damage_enemy(&now, e, amount, out)?;
            settle(s, out);
        }
        ActionEffect::Heal | ActionEffect::Reduce => {
            let t = match target {
                Some(n) => find_hero(s, n)?,
                None => i,
            };
            let th = hero(s, t)?;
            if t != i && h.ensnared_by.is_some() {
                return Err(RuleError::forbidden(
                    rules::ENCHANTED_ARMOR,
                    "an ensnared player cannot help or heal their allies",
                ));
            }
            if t != i && !reach_ok(s, a.reach, h.zone, th.zone) {
                return Err(reach_err(a.reach, th.name()));
            }
            if t != i && a.reach == Reach::Own {
                return Err(RuleError::forbidden(
                    rules::ACTIONS,
                    format!("{} is used on yourself only", a.name),
                ));
            }
            if !th.up() {
                return Err(RuleError::forbidden(
                    rules::HEALTH_ZERO,
                    format!("{} is at 0 Health and cannot be healed", th.name()),
                ));
            }
            out.push(spend_ap(s, i, a.ap)?);
            let amount = action_roll(s, i, &a, roller, out)?;
            if a.effect == ActionEffect::Heal {
                heal_hero(s, t, amount, 0, out)?;
            } else {
                out.push(Event::Reduction { hero: t, amount });
            }
        }
        ActionEffect::Move => {
            let name = target.ok_or_else(|| {
                RuleError::forbidden(rules::MOVEMENT, format!("{} needs a Zone", a.name))
            })?;
            let z = find_zone(s, name)?;
            check_free_to_move(s, i)?;
            let occupied: Vec<usize> = (0..s.zones.names().len())
                .filter(|&zz| {
                    s.heroes
                        .iter()
                        .enumerate()
                        .any(|(j, o)| j != i && o.zone == zz && o.up())
                        || s.enemies.iter().any(|e| e.zone == zz && e.health > 0)
                })
                .collect();
            let steps = s
                .zones
                .distance_avoiding(h.zone, z, &occupied)
                .ok_or_else(|| {
                    RuleError::forbidden(
                        rules::MOVEMENT,
                        format!("no free, accessible way leads to {name}"),
                    )
                })?;
            out.push(spend_ap(s, i, a.ap)?);
            let amount = action_roll(s, i, &a, roller, out)?;
            if steps > amount {
                return Err(RuleError::forbidden(
                    rules::MOVEMENT,
                    format!(
                        "{} rolled {amount} Zones but {name} is {steps} away",
                        a.name
                    ),
                ));
            }
            out.push(Event::HeroMoved {
                hero: i,
                path: vec![z],
            });
        }
    }
    Ok(())
}

fn use_item(
    s: &State,
    seat: &Seat,
    item: &str,
    target: Option<&str>,
    out: &mut Vec<Event>,
) -> R<()> {
    let i = hero_seat(s, seat)?;
    player_phase(s, When::PlayerPhase)?;
    let h = up(s, i)?;
    let def = s
        .catalog
        .item(item)
        .ok_or_else(|| RuleError::unknown(rules::ITEMS, "Item", item))?
        .clone();
    if !h
        .items
        .iter()
        .any(|x| crate::table::norm(x) == crate::table::norm(&def.name))
    {
        return Err(RuleError::forbidden(
            rules::ITEMS,
            format!("{} does not carry a {}", h.name(), def.name),
        ));
    }
    let t = match target {
        Some(n) => find_hero(s, n)?,
        None => i,
    };
    let th = hero(s, t)?;
    if t != i {
        if h.ensnared_by.is_some() {
            return Err(RuleError::forbidden(
                rules::ENCHANTED_ARMOR,
                "an ensnared player cannot help or heal their allies",
            ));
        }
        if th.zone != h.zone {
            return Err(RuleError::forbidden(
                rules::ITEMS,
                format!("{} is not in your Zone", th.name()),
            ));
        }
    }
    if def.heal > 0 && !th.up() {
        return Err(RuleError::forbidden(
            rules::HEALTH_ZERO,
            format!("{} is at 0 Health and cannot be healed", th.name()),
        ));
    }
    out.push(spend_ap(s, i, def.ap())?);
    out.push(Event::ItemUsed {
        hero: i,
        item: def.name.clone(),
    });
    if def.heal > 0 {
        heal_hero(s, t, def.heal, def.overheal, out)?;
    }
    if def.turret {
        let level = h.character.level();
        out.push(Event::TurretPlaced {
            turret: Turret {
                owner: i,
                zone: h.zone,
                health: level,
                damage: level,
            },
        });
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn spend(
    s: &State,
    seat: &Seat,
    en: &str,
    use_name: &str,
    dice: Purchase,
    heal_d6: u32,
    target: Option<&str>,
    to: Option<&str>,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    gm_only(seat)?;
    in_combat(s)?;
    let e = find_enemy(s, en)?;
    let x = enemy(s, e)?;
    let u = s
        .catalog
        .roll_use(use_name)
        .ok_or_else(|| RuleError::unknown(rules::DESCRIBING_ROLLS, "roll use", use_name))?
        .clone();
    cap("d6", dice.d6)?;
    cap("d3", dice.d3)?;
    cap("cp", dice.combat_points)?;
    cap("heal", heal_d6)?;
    if x.health == 0 {
        return Err(RuleError::forbidden(
            rules::HEALTH_ZERO,
            format!("{} is at 0 Health", x.name),
        ));
    }
    let wrong_die = match u.die {
        UseDie::D6 => dice.d3 > 0,
        UseDie::D3 => dice.d6 > 0,
        UseDie::Any => false,
    };
    if wrong_die {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            format!(
                "{} uses {} Rolls",
                u.name,
                if u.die == UseDie::D6 { "d6" } else { "d3" }
            ),
        ));
    }
    if u.effect == UseEffect::Move {
        let to = to.or(target).ok_or_else(|| {
            RuleError::forbidden(rules::USING_ROLLS_MOVE, "Move needs a Zone (to=ZONE)")
        })?;
        let z = find_zone(s, to)?;
        let pay = match (dice.d3, dice.combat_points, dice.d6) {
            (1, 0, 0) => Pay::D3,
            (0, 1, 0) => Pay::Cp,
            _ => {
                return Err(RuleError::forbidden(
                    rules::USING_ROLLS_MOVE,
                    "moving an enemy to an adjacent Zone costs 1d3 or 1 CP",
                ));
            }
        };
        return move_enemy(s, e, z, pay, out);
    }
    let deals_damage = matches!(
        u.effect,
        UseEffect::Damage | UseEffect::Divided | UseEffect::Drain
    );
    if deals_damage && x.shadow {
        return Err(RuleError::forbidden(
            rules::SHADOW_GOBLIN,
            format!("{} is in its shadow form and cannot deal damage", x.name),
        ));
    }
    if u.effect != UseEffect::Drain && heal_d6 > 0 {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            "heal= is for Drain (Xd6 + Yd6)",
        ));
    }
    let rolls = dice.d6 + dice.d3;
    // The Healer's response heals "with Combat Points": a heal may use CP alone.
    let cp_only_heal = u.effect == UseEffect::Heal && dice.combat_points > 0;
    if rolls == 0 && !cp_only_heal {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            format!("{} uses at least one Roll", u.name),
        ));
    }
    if u.effect == UseEffect::Shove && dice.combat_points != dice.d3 {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            "Shove is Xd3 + X CP: as many Combat Points as d3",
        ));
    }
    let cost = Purchase {
        d6: dice.d6 + heal_d6,
        ..dice
    };
    // Resolve the target before spending anything.
    let hero_target = |s: &State| -> R<usize> {
        let name = target.ok_or_else(|| {
            RuleError::forbidden(
                rules::DESCRIBING_ROLLS,
                format!("{} needs a player", u.name),
            )
        })?;
        let t = find_hero(s, name)?;
        let th = up(s, t)?;
        if s.zones.distance(x.zone, th.zone).is_none() {
            return Err(RuleError::forbidden(
                rules::ZONES,
                format!("no accessible way leads from {} to {}", x.name, th.name()),
            ));
        }
        Ok(t)
    };
    match u.effect {
        UseEffect::Damage | UseEffect::Drain => {
            let t = hero_target(s)?;
            out.push(take_rolls(s, doubled(s, cost))?);
            let roll = roll_dice(s, dice.d6, dice.d3, dice.combat_points, roller)?;
            let total = roll.total;
            out.push(Event::EnemyRolled {
                enemy: e,
                use_name: u.name.clone(),
                roll,
            });
            damage_hero(s, t, total, roller, out)?;
            if u.effect == UseEffect::Drain {
                let heal = roll_dice(s, heal_d6, 0, 0, roller)?;
                let amount = heal.total;
                out.push(Event::EnemyRolled {
                    enemy: e,
                    use_name: format!("{} (heal)", u.name),
                    roll: heal,
                });
                if amount > 0 {
                    heal_enemy(s, e, amount, out)?;
                }
            }
        }
        UseEffect::Divided => {
            let zname = target.ok_or_else(|| {
                RuleError::forbidden(rules::SPENDING_ROLLS, format!("{} needs a Zone", u.name))
            })?;
            let z = find_zone(s, zname)?;
            let hit: Vec<usize> = s
                .heroes
                .iter()
                .enumerate()
                .filter(|(_, h)| h.zone == z && h.up())
                .map(|(j, _)| j)
                .collect();
            if hit.is_empty() {
                return Err(RuleError::forbidden(
                    rules::SPENDING_ROLLS,
                    format!("no player with Health is in {zname}"),
                ));
            }
            if s.zones.distance(x.zone, z).is_none() {
                return Err(RuleError::forbidden(
                    rules::ZONES,
                    format!("no accessible way leads from {} to {zname}", x.name),
                ));
            }
            out.push(take_rolls(s, doubled(s, cost))?);
            let roll = roll_dice(s, dice.d6, dice.d3, dice.combat_points, roller)?;
            let each = roll.total.div_ceil(hit.len() as u32);
            out.push(Event::EnemyRolled {
                enemy: e,
                use_name: u.name.clone(),
                roll,
            });
            for t in hit {
                damage_hero(s, t, each, roller, out)?;
            }
        }
        UseEffect::Block => {
            out.push(take_rolls(s, doubled(s, cost))?);
            let roll = roll_dice(s, dice.d6, dice.d3, dice.combat_points, roller)?;
            let total = roll.total;
            out.push(Event::EnemyRolled {
                enemy: e,
                use_name: u.name.clone(),
                roll,
            });
            out.push(Event::Blocked {
                enemy: e,
                amount: total,
            });
        }
        UseEffect::Heal => {
            let t = match target {
                Some(n) => find_enemy(s, n)?,
                None => e,
            };
            if enemy(s, t)?.health == 0 {
                return Err(RuleError::forbidden(
                    rules::HEALTH_ZERO,
                    format!("{} is at 0 Health", enemy(s, t)?.name),
                ));
            }
            out.push(take_rolls(s, doubled(s, cost))?);
            let roll = roll_dice(s, dice.d6, dice.d3, dice.combat_points, roller)?;
            let total = roll.total;
            out.push(Event::EnemyRolled {
                enemy: e,
                use_name: u.name.clone(),
                roll,
            });
            heal_enemy(s, t, total, out)?;
        }
        UseEffect::Grapple | UseEffect::Shove => {
            let t = hero_target(s)?;
            let dest = if u.effect == UseEffect::Shove {
                let to = to.ok_or_else(|| {
                    RuleError::forbidden(rules::DESCRIBING_ROLLS, "Shove needs to=ZONE")
                })?;
                let z = find_zone(s, to)?;
                let far = s.zones.distance(hero(s, t)?.zone, z);
                if !far.is_some_and(|d| d >= 1 && d <= dice.combat_points) {
                    return Err(RuleError::forbidden(
                        rules::DESCRIBING_ROLLS,
                        format!(
                            "Shove moves a player up to {} Zones away along accessible Zones",
                            dice.combat_points
                        ),
                    ));
                }
                Some(z)
            } else {
                if x.zone != hero(s, t)?.zone {
                    return Err(RuleError::forbidden(
                        rules::DESCRIBING_ROLLS,
                        "a grapple needs the player in the enemy's Zone",
                    ));
                }
                None
            };
            out.push(take_rolls(s, doubled(s, cost))?);
            let bonus = if u.effect == UseEffect::Shove {
                0
            } else {
                dice.combat_points
            };
            let theirs = roll_dice(s, dice.d6, dice.d3, bonus, roller)?;
            let th = hero(s, t)?;
            let mine = roll_dice(s, 0, 1, th.character.roleplay_bonus(Stat::Strength), roller)?;
            let result = roleplay::contest(
                theirs.total,
                mine.total,
                Contest::Competing { tie: s.options.tie },
            );
            out.push(Event::Contested {
                first: x.name.clone(),
                second: th.name().to_string(),
                first_roll: theirs,
                second_roll: mine,
                contest: Contest::Competing { tie: s.options.tie },
                result,
                about: u.name.clone(),
            });
            if result == ContestResult::First {
                match dest {
                    Some(z) => out.push(Event::HeroMoved {
                        hero: t,
                        path: vec![z],
                    }),
                    None => out.push(Event::Grappled { enemy: e, hero: t }),
                }
            }
        }
        UseEffect::Move => {}
    }
    settle(s, out);
    Ok(())
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
    let ra = roleplay::roll(
        RollKind::OutOfCombat,
        ha.character.roleplay_bonus(sa),
        s.options.d3,
        roller,
    )
    .map_err(|e| roll_err(e, rules::COMPETING_ROLLS))?;
    let rb = roleplay::roll(
        RollKind::OutOfCombat,
        hb.character.roleplay_bonus(sb),
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
