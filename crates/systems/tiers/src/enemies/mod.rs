//! Help for the GM, in combat: spending the enemies' Rolls and Combat Points on
//! roll uses ("Describing Rolls"), moving enemies and players ("Enemy
//! Movement", "Using Rolls"), and the sample enemies' own rules.

use crate::command::{Command, Pay};
use crate::content::Response;
use crate::decide::*;
use crate::event::Event;
use crate::gm::Purchase;
use crate::rules;
use crate::state::{Enemy, State, Target};
use tabula_core::{Roller, RuleError};

mod spend;

pub(crate) use spend::spend;

pub(crate) fn move_cost(pay: Pay) -> R<Purchase> {
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

/// Move an enemy one Zone: 1d3 or 1 CP (doubled in the Player Phase).
///
/// "Using Rolls", "Enemy Movement", "Spending Rolls for Actions"
/// (002_631931fd73349179.txt).
pub(crate) fn move_enemy(s: &State, e: usize, z: usize, pay: Pay, out: &mut Vec<Event>) -> R<()> {
    let cost = doubled(s, move_cost(pay)?);
    move_enemy_paid(s, e, z, cost, out)
}

/// Move an enemy one Zone for `cost`: not while it ensnares someone; a grapple
/// ends when the grappler leaves the character's Zone; a turret in the new
/// Zone fires at it.
///
/// "Using Rolls", "Enemy Movement", "Describing Rolls" (Grapple), "Enchanted
/// Armor", "Sample Items" (Turret) (002_631931fd73349179.txt).
pub(crate) fn move_enemy_paid(
    s: &State,
    e: usize,
    z: usize,
    cost: Purchase,
    out: &mut Vec<Event>,
) -> R<()> {
    // Read as the command's earlier events left it (an Enchanted Armor's
    // approach comes after the damage that set it off).
    let x = enemy_now(s, out, e)?;
    if !x.standing() {
        return Err(RuleError::condition(
            rules::USING_ROLLS_MOVE,
            "0 Health",
            format!("{} is at 0 Health", x.name),
        ));
    }
    if x.ensnaring.is_some() {
        return Err(RuleError::condition(
            rules::ENCHANTED_ARMOR,
            "ensnaring",
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
    let turrets = turrets_after(s, out);
    let released: Vec<usize> = (0..s.heroes.len())
        .filter(|&i| hero_after(s, out, i).is_some_and(|h| h.grappled_by == Some(e) && h.zone != z))
        .collect();
    out.push(take_rolls_from(rolls_left_after(s, out), cost)?);
    out.push(Event::EnemyMoved { enemy: e, to: z });
    for i in released {
        out.push(Event::Released { hero: i });
    }
    for (t, turret) in turrets.iter().enumerate() {
        if turret.zone == z && turret.health > 0 && !x.shadow {
            out.push(Event::TurretFired {
                turret: t,
                enemy: e,
            });
            if enemy_after(s, out, e).is_some_and(|en| en.standing()) {
                damage_enemy(s, e, turret.damage, out)?;
                respond_to_damage(s, e, None, out)?;
            }
        }
    }
    settle(s, out);
    Ok(())
}

/// The kind's built-in Response (R-TI-9).
fn response_of(s: &State, x: &Enemy) -> Option<Response> {
    s.catalog.enemy(&x.kind).and_then(|k| k.response)
}

/// Before an attack's damage: "When a goblin is attacked, they will block with
/// whatever is nearby": a 1d6 Block when a d6 is left and no Block is up. A
/// Response, not an Action: not doubled in the Player Phase.
///
/// Tiers, "Goblin", "Describing Rolls" (Block) (002_631931fd73349179.txt); R-TI-9.
pub(crate) fn respond_to_attack(
    s: &State,
    e: usize,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let x = enemy_now(s, out, e)?;
    let left = rolls_left_after(s, out);
    if response_of(s, &x) != Some(Response::Block)
        || !x.standing()
        || x.block > 0
        || phase_after(s, out).is_none()
        || left.d6 == 0
    {
        return Ok(());
    }
    out.push(take_rolls_from(
        left,
        Purchase {
            d6: 1,
            ..Purchase::default()
        },
    )?);
    let roll = roll_dice(s, 1, 0, 0, roller, (&x.name, "Block"))?;
    let amount = roll.amount();
    out.push(Event::EnemyRolled {
        enemy: e,
        use_name: "Block (its Response to the attack)".into(),
        roll,
    });
    out.push(Event::Blocked { enemy: e, amount });
    Ok(())
}

/// After damage was dealt to enemy `e` (by hero `by`, when a hero's Action
/// dealt it), its kind's Response, built in (R-TI-9). Responses are not
/// Actions: they are not doubled in the Player Phase.
///
/// - Shadow Goblin: "Whenever a Shadow Goblin is dealt damage, they spend any
///   roll to sink into a shadow" (a d3 if one is left, else a d6).
/// - Goblin Boss: "When Goblin Boss is dealt damage, it will screech at the
///   attacker".
/// - Enchanted Armor: "Whenever this enemy takes damage, it will face whoever
///   most recently attacked it and use its Movement to approach that
///   character": one Zone toward them (1 CP if one is left, else 1d3), once a
///   phase, never while it has someone ensnared.
///
/// Tiers, "Shadow Goblin", "Goblin Boss", "Enchanted Armor"
/// (002_631931fd73349179.txt); R-TI-9.
pub(crate) fn respond_to_damage(
    s: &State,
    e: usize,
    by: Option<usize>,
    out: &mut Vec<Event>,
) -> R<()> {
    let dealt = out
        .iter()
        .rev()
        .find_map(|ev| match ev {
            Event::Damaged {
                target: Target::Enemy(j),
                dealt,
                ..
            } if *j == e => Some(*dealt),
            _ => None,
        })
        .unwrap_or(0);
    let x = enemy_now(s, out, e)?;
    if dealt == 0 || !x.standing() || phase_after(s, out).is_none() {
        return Ok(());
    }
    let left = rolls_left_after(s, out);
    match response_of(s, &x) {
        Some(Response::Screech) => out.push(Event::Screeched { enemy: e, hero: by }),
        Some(Response::Sink) if !x.shadow => {
            let cost = if left.d3 > 0 {
                Purchase {
                    d3: 1,
                    ..Purchase::default()
                }
            } else if left.d6 > 0 {
                Purchase {
                    d6: 1,
                    ..Purchase::default()
                }
            } else {
                return Ok(());
            };
            out.push(take_rolls_from(left, cost)?);
            out.push(Event::Shadow { enemy: e, on: true });
        }
        Some(Response::Approach) if x.ensnaring.is_none() && !x.moved => {
            let Some(target) = x.last_attacker.and_then(|h| hero_after(s, out, h)) else {
                return Ok(());
            };
            let Some(&step) = s
                .zones
                .route(x.zone, target.zone, |_, _| true)
                .and_then(|r| r.first().copied())
                .as_ref()
            else {
                return Ok(());
            };
            let cost = if left.combat_points > 0 {
                Purchase {
                    combat_points: 1,
                    ..Purchase::default()
                }
            } else if left.d3 > 0 {
                Purchase {
                    d3: 1,
                    ..Purchase::default()
                }
            } else {
                return Ok(());
            };
            // On an error the whole command is refused, so nothing of the
            // move is kept either way.
            move_enemy_paid(s, e, step, cost, out)?;
        }
        _ => {}
    }
    Ok(())
}

/// Move a player: a d3 or 2 CP per Zone, doubled in the Player Phase.
///
/// Tiers, "Enemy Movement", "Spending Rolls for Actions" (002_631931fd73349179.txt).
pub(crate) fn move_player(
    s: &State,
    seat: &By,
    player: &str,
    to: &str,
    pay: &Pay,
    out: &mut Vec<Event>,
) -> R<()> {
    gm_only(seat)?;
    in_combat(s)?;
    let i = find_hero(s, player)?;
    let h = up(s, i)?;
    let z = find_zone(s, to)?;
    let path = s.zones.route(h.zone, z, |_, _| true).ok_or_else(|| {
        RuleError::forbidden(
            rules::ENEMY_MOVEMENT,
            format!(
                "no accessible way leads from {} to {to}",
                s.zones.name(h.zone)
            ),
        )
    })?;
    if path.is_empty() {
        return Err(RuleError::forbidden(
            rules::ENEMY_MOVEMENT,
            format!("{} is already in {to}", h.name()),
        ));
    }
    let steps = u32::try_from(path.len()).unwrap_or(u32::MAX);
    let cost = match pay {
        Pay::D3 => Purchase {
            d3: steps,
            ..Purchase::default()
        },
        Pay::Cp => Purchase {
            combat_points: steps.saturating_mul(2),
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
    moved_by_enemies(s, i, path, out);
    Ok(())
}

/// The enemies move a character (Enemy Movement, Shove) along `path`; a grapple
/// ends when the grappler is no longer in the character's Zone.
///
/// Tiers, "Enemy Movement", "Describing Rolls" (Grapple, Shove)
/// (002_631931fd73349179.txt).
fn moved_by_enemies(s: &State, i: usize, path: Vec<usize>, out: &mut Vec<Event>) {
    let to = path.last().copied();
    let grappler = s
        .heroes
        .get(i)
        .and_then(|h| h.grappled_by)
        .and_then(|g| s.enemies.get(g));
    out.push(Event::HeroMoved { hero: i, path });
    if grappler.is_some_and(|g| Some(g.zone) != to) {
        out.push(Event::Released { hero: i });
    }
}

/// An enemy joins, its Health from the pool's reserve.
///
/// Tiers, "Enemy Health" (002_631931fd73349179.txt).
pub(crate) fn spawn(
    s: &State,
    seat: &By,
    name: &str,
    kind: &str,
    health: &u32,
    zone: &str,
    out: &mut Vec<Event>,
) -> R<()> {
    gm_only(seat)?;
    let k = s.catalog.enemy(kind).ok_or_else(|| {
        unknown_among(
            rules::SAMPLE_ENEMIES,
            "enemy kind",
            kind,
            s.catalog
                .enemies
                .iter()
                .map(|k| tabula_core::grammar::quote(&k.name)),
        )
    })?;
    let z = find_zone(s, zone)?;
    if let Err(e) = tabula_core::names::check_seat_name("name", name) {
        return Err(RuleError::forbidden(rules::SEATS, e.to_string()));
    }
    if name.trim().is_empty()
        || name.contains(':')
        || s.enemy(name).is_some()
        || s.hero(name).is_some()
    {
        return Err(RuleError::forbidden(
            rules::SEATS,
            format!("{name:?} is not a free name for an enemy (unused, no ':')"),
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
        enemy: Enemy::new(name.trim().to_string(), k.name.clone(), *health, z),
    });
    Ok(())
}

/// A Shadow Goblin sinks into (or leaves) its shadow for any one roll.
///
/// Tiers, "Shadow Goblin" (002_631931fd73349179.txt).
pub(crate) fn shadow(
    s: &State,
    seat: &By,
    cmd: &Command,
    en: &str,
    pay: &Pay,
    out: &mut Vec<Event>,
) -> R<()> {
    gm_only(seat)?;
    in_combat(s)?;
    let sink = matches!(cmd, Command::Sink { .. });
    let e = find_enemy(s, en)?;
    let x = enemy(s, e)?;
    let shadowy = s.catalog.enemy(&x.kind).is_some_and(|k| k.shadow_form);
    if !shadowy {
        return Err(RuleError::not_held(
            rules::SHADOW_GOBLIN,
            "shadow form",
            format!("{} ({}) has no shadow form", x.name, x.kind),
        ));
    }
    if sink {
        // "Responses": it sinks whenever dealt damage, by itself (R-TI-9).
        return Err(RuleError::forbidden(
            rules::SHADOW_GOBLIN,
            format!(
                "{} sinks into its shadow by itself whenever it is dealt damage (its Response, paid with any roll left); the GM does not sink it otherwise",
                x.name
            ),
        ));
    }
    if x.health == 0 {
        return Err(RuleError::condition(
            rules::SHADOW_GOBLIN,
            "0 Health",
            format!("{} is at 0 Health", x.name),
        ));
    }
    if x.shadow == sink {
        return Err(RuleError::forbidden(
            rules::SHADOW_GOBLIN,
            format!(
                "{} is {}",
                x.name,
                if sink {
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
    // "Actions": "Spend any roll to get out of their shadow form": an Action,
    // doubled in the Player Phase ("Spending Rolls for Actions").
    out.push(take_rolls(s, doubled(s, cost))?);
    out.push(Event::Shadow { enemy: e, on: sink });
    Ok(())
}

/// The Enchanted Armor ensnares a player in its Zone who attacked it this round
/// (this phase or the one before), with its movement (1d3 or 1 CP, doubled in
/// the Player Phase), unless it approached someone this phase.
///
/// Tiers, "Enchanted Armor" (002_631931fd73349179.txt).
pub(crate) fn ensnare(
    s: &State,
    seat: &By,
    en: &str,
    player: &str,
    pay: &Pay,
    out: &mut Vec<Event>,
) -> R<()> {
    gm_only(seat)?;
    in_combat(s)?;
    let e = find_enemy(s, en)?;
    let i = find_hero(s, player)?;
    let x = enemy(s, e)?;
    let h = up(s, i)?;
    let armor = s.catalog.enemy(&x.kind).is_some_and(|k| k.ensnare);
    let rule = rules::ENCHANTED_ARMOR;
    let why = if !armor {
        Some(RuleError::not_held(
            rule,
            "Ensnare",
            format!("{} ({}) cannot ensnare", x.name, x.kind),
        ))
    } else if x.health == 0 {
        Some(RuleError::condition(
            rule,
            "0 Health",
            format!("{} is at 0 Health", x.name),
        ))
    } else if x.ensnaring.is_some() || h.ensnared_by.is_some() {
        Some(RuleError::condition(
            rule,
            "ensnared",
            "one ensnared character at a time",
        ))
    } else if x.zone != h.zone {
        Some(RuleError::forbidden(
            rule,
            format!("{} is not in {}'s Zone", h.name(), x.name),
        ))
    } else if !x.attacked_this_round_by(i) {
        Some(RuleError::forbidden(
            rule,
            format!(
                "{} has not attacked {} this round (this phase or the one before)",
                h.name(),
                x.name
            ),
        ))
    } else if x.moved {
        // "Ensnare": "it will use its movement to ensnare that player"; one
        // that approached this turn has used it.
        Some(RuleError::already_used(
            rule,
            "movement",
            format!(
                "{} approached this phase and cannot ensnare in the same turn",
                x.name
            ),
        ))
    } else {
        None
    };
    if let Some(why) = why {
        return Err(why);
    }
    out.push(take_rolls(s, doubled(s, move_cost(*pay)?))?);
    out.push(Event::Ensnared { enemy: e, hero: i });
    Ok(())
}

/// Absorb: heal the Enchanted Armor for the rolls, and deal half (rounded up)
/// to the ensnared player.
///
/// Tiers, "Enchanted Armor", "Rounding" (002_631931fd73349179.txt).
pub(crate) fn absorb(
    s: &State,
    seat: &By,
    en: &str,
    dice: &Purchase,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
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
        return Err(RuleError::condition(
            rules::ENCHANTED_ARMOR,
            "0 Health",
            format!("{} is at 0 Health", x.name),
        ));
    }
    // "absorb life force from the creature": none is left at 0 Health.
    if !hero(s, victim)?.up() {
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
            format!(
                "{} is at 0 Health: no life force is left to absorb",
                hero(s, victim)?.name()
            ),
        ));
    }
    cap("d6", dice.d6)?;
    cap("d3", dice.d3)?;
    cap("cp", dice.combat_points)?;
    if dice.d6.saturating_add(dice.d3) == 0 {
        return Err(RuleError::forbidden(
            rules::ENCHANTED_ARMOR,
            "Absorb uses at least one roll",
        ));
    }
    out.push(take_rolls(s, doubled(s, *dice))?);
    let roll = roll_dice(
        s,
        dice.d6,
        dice.d3,
        dice.combat_points,
        roller,
        (&x.name, "Absorb"),
    )?;
    let total = roll.amount();
    out.push(Event::EnemyRolled {
        enemy: e,
        use_name: "Absorb".into(),
        roll,
    });
    heal_enemy(s, e, total, out)?;
    damage_hero(s, victim, total.div_ceil(2), roller, out)?;
    settle(s, out);
    Ok(())
}
