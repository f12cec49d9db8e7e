//! Combat, the players' side: Actions (R-TI-4, R-TI-6), Movement through Zones,
//! Items by speed.

use crate::content::{ActionDef, ActionEffect, Reach, When};
use crate::decide::*;
use crate::event::Event;
use crate::roleplay::{self, Contest, ContestResult};
use crate::rules;
use crate::state::{State, Turret};
use tabula_core::{Die, Roller, RuleError};

pub(crate) fn check_free_to_move(s: &State, i: usize) -> R<()> {
    let h = hero(s, i)?;
    if h.ensnared_by.is_some() {
        return Err(RuleError::condition(
            rules::ENCHANTED_ARMOR,
            "ensnared",
            format!("{} is ensnared and cannot move away", h.name()),
        ));
    }
    if let Some(g) = h.grappled_by
        && s.enemies.get(g).is_some_and(|e| e.health > 0)
    {
        return Err(RuleError::condition(
            rules::DESCRIBING_ROLLS,
            "grappled",
            format!("{} is grappled and cannot move away", h.name()),
        ));
    }
    Ok(())
}

/// True when a standing enemy is in Zone `z` (R-TI-8: it stops movement).
pub(crate) fn enemy_in(s: &State, z: usize) -> bool {
    s.enemies.iter().any(|e| e.zone == z && e.standing())
}

/// Where a character may step from `from` having come from `came`: anywhere
/// touching and accessible, except out of a Zone holding a standing enemy,
/// which lets them go only back the way they came.
///
/// Tiers, "Movement" (002_631931fd73349179.txt); R-TI-8.
pub(crate) fn step_ok(s: &State, from: usize, came: Option<usize>, to: usize) -> bool {
    s.zones.accessible(from, to) && (!enemy_in(s, from) || came == Some(to))
}

/// The Zones a character may move to in one step now (R-TI-8).
pub(crate) fn steps_for(s: &State, i: usize) -> Vec<usize> {
    s.heroes.get(i).map_or_else(Vec::new, |h| {
        s.zones
            .neighbours(h.zone)
            .into_iter()
            .filter(|&z| step_ok(s, h.zone, h.came_from, z))
            .collect()
    })
}

/// A path of touching, accessible Zones for character `i`. Other players never
/// block; a Zone holding a standing enemy stops the character, who may leave
/// it only back to the Zone they came from (or once the enemy is defeated).
///
/// Tiers, "Movement" (002_631931fd73349179.txt); R-TI-8.
pub(crate) fn check_path(s: &State, i: usize, path: &[usize]) -> R<()> {
    let h = hero(s, i)?;
    let mut at = h.zone;
    let mut came = h.came_from;
    for &z in path {
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
        if !step_ok(s, at, came, z) {
            return Err(RuleError::forbidden(
                rules::MOVEMENT,
                match came {
                    Some(c) => format!(
                        "you cannot move through enemies: a standing enemy in {} stops {}, who may leave it only back to {} until the enemy is defeated",
                        s.zones.name(at),
                        h.name(),
                        s.zones.name(c)
                    ),
                    None => format!(
                        "you cannot move through enemies: a standing enemy in {} stops {}, who came from no other Zone and may leave it only once the enemy is defeated",
                        s.zones.name(at),
                        h.name()
                    ),
                },
            ));
        }
        came = Some(at);
        at = z;
    }
    Ok(())
}

pub(crate) fn reach_ok(s: &State, reach: Reach, from: usize, to: usize) -> bool {
    match reach {
        Reach::Melee => from == to,
        Reach::Ranged => s.zones.distance(from, to).is_some(),
        Reach::Own => true,
    }
}

pub(crate) fn reach_err(reach: Reach, name: &str) -> RuleError {
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
pub(crate) fn action_roll(
    s: &State,
    i: usize,
    a: &crate::content::ActionDef,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<u32> {
    let who = hero(s, i)?.name().to_string();
    let roll = roll_dice(s, a.d6, a.d3, a.flat, roller, (&who, &a.name))?;
    let crits = matches!(a.effect, ActionEffect::Damage | ActionEffect::Heal);
    let critical = if crits {
        roller.announce(&who, &format!("{}, critical", a.name), 1, Die::D6);
        Some(roller.roll(Die::D6)?)
    } else {
        None
    };
    let amount = if critical == Some(6) {
        roll.amount().saturating_mul(2)
    } else {
        roll.amount()
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

/// Use an Action: Player Phase (unless it says otherwise), 1 SP in its tier, its
/// AP, its reach; damage and healing roll a critical d6 (players only); Cover
/// asks a Competing RP-Roll first.
///
/// Tiers, "Actions", "Stats and Tiers", "Rolling for Criticals", "Cover"
/// (002_631931fd73349179.txt); R-TI-4, R-TI-6.
pub(crate) fn act(
    s: &State,
    seat: &By,
    action: &str,
    target: Option<&str>,
    cover: bool,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let i = hero_seat(s, seat)?;
    let a = s.catalog.action(action).ok_or_else(|| {
        crate::decide::unknown_among(
            rules::ACTIONS,
            "Action",
            action,
            s.catalog
                .actions
                .iter()
                .map(|a| tabula_core::grammar::quote(&a.name)),
        )
    })?;
    player_phase(s, a.when)?;
    let h = up(s, i)?;
    if !h.character.stat(a.stat).has_tier(a.tier) {
        return Err(RuleError::not_held(
            rules::ACTIONS,
            "Action",
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
            act_on_enemy(s, i, a, target, cover, roller, out)
        }
        ActionEffect::Heal | ActionEffect::Reduce => act_on_player(s, i, a, target, roller, out),
        ActionEffect::Move => act_to_move(s, i, a, target, roller, out),
    }
}

/// The enemy an Action that deals damage or competes is used on: named,
/// with Health, not in its shadow form for damage, the one that ensnares
/// the player if one does, within the Action's reach.
///
/// Tiers, "Actions", "Shadow Goblin", "Enchanted Armor", "Zones"
/// (002_631931fd73349179.txt); R-TI-4.
fn enemy_target(s: &State, i: usize, a: &ActionDef, target: Option<&str>) -> R<usize> {
    let h = up(s, i)?;
    let name = target.ok_or_else(|| {
        RuleError::forbidden(rules::ACTIONS, format!("{} needs a target enemy", a.name))
    })?;
    let e = find_enemy(s, name)?;
    let x = enemy(s, e)?;
    if x.health == 0 {
        return Err(RuleError::condition(
            rules::ACTIONS,
            "0 Health",
            format!("{} is already at 0 Health", x.name),
        ));
    }
    if a.effect == ActionEffect::Damage && x.shadow {
        return Err(RuleError::condition(
            rules::SHADOW_GOBLIN,
            "shadow form",
            format!("{} is in its shadow form and cannot receive damage", x.name),
        ));
    }
    // "Enchanted Armor": an ensnared player "can still damage the
    // Enchanted Armor" (and, trapped inside it, nothing else).
    if let Some(armor) = h.ensnared_by
        && armor != e
    {
        return Err(RuleError::condition(
            rules::ENCHANTED_ARMOR,
            "ensnared",
            format!(
                "{} is ensnared and can reach only {}",
                h.name(),
                enemy(s, armor)?.name
            ),
        ));
    }
    if !reach_ok(s, a.reach, h.zone, x.zone) {
        return Err(reach_err(a.reach, &x.name));
    }
    Ok(e)
}

/// An Action on an enemy: its AP, the attack remembered (damage), Cover's
/// Competing RP-Roll first; a Compete Action is a Competing Roll (winning
/// frees a grappled player); damage waits for a Goblin's Block, rolls
/// (with the critical d6), and the enemy's Response follows.
///
/// Tiers, "Actions", "Cover", "Competing Rolls", "Rolling for Criticals",
/// "Enemies" (002_631931fd73349179.txt); R-TI-4, R-TI-6, R-TI-9.
fn act_on_enemy(
    s: &State,
    i: usize,
    a: &ActionDef,
    target: Option<&str>,
    cover: bool,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let e = enemy_target(s, i, a, target)?;
    let h = up(s, i)?;
    let x = enemy(s, e)?;
    out.push(spend_ap(s, i, a.ap)?);
    if a.effect == ActionEffect::Damage {
        // Remember the attacker (Enchanted Armor faces whoever attacked it
        // and may ensnare whoever attacked it this round).
        out.push(Event::Attacked { enemy: e, hero: i });
    }
    if cover && !cover_hits(s, i, e, a, roller, out)? {
        return Ok(());
    }
    if a.effect == ActionEffect::Compete {
        let mine = roll_dice(
            s,
            a.d6,
            a.d3,
            a.flat.saturating_add(h.character.roleplay_bonus(a.stat)),
            roller,
            (h.name(), &a.name),
        )?;
        let against = format!("against {}", a.name);
        let theirs = roll_dice(s, 0, 1, 0, roller, (&x.name, &against))?;
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
    // "Goblin" Responses: it blocks before the damage lands (R-TI-9).
    crate::enemies::respond_to_attack(s, e, roller, out)?;
    let amount = action_roll(s, i, a, roller, out)?;
    damage_enemy(s, e, amount, out)?;
    // "Shadow Goblin", "Goblin Boss", "Enchanted Armor": Responses to
    // damage (R-TI-9).
    crate::enemies::respond_to_damage(s, e, Some(i), out)?;
    settle(s, out);
    Ok(())
}

/// "Cover": a Competing RP-Roll, the player's 1d3 + Roleplay Bonus of the
/// Action's Stat against the target's 1d3; higher hits. True when the
/// player wins.
///
/// Tiers, "Custom Rules": Cover, "Competing Rolls" (002_631931fd73349179.txt).
fn cover_hits(
    s: &State,
    i: usize,
    e: usize,
    a: &ActionDef,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<bool> {
    let h = up(s, i)?;
    let x = enemy(s, e)?;
    let mine = roll_dice(
        s,
        0,
        1,
        h.character.roleplay_bonus(a.stat),
        roller,
        (h.name(), "Cover"),
    )?;
    let theirs = roll_dice(s, 0, 1, 0, roller, (&x.name, "against Cover"))?;
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
    Ok(result == ContestResult::First)
}

/// A healing or damage-reducing Action on a player (yourself by default):
/// not another while ensnared, within reach, not "on yourself only" for
/// another, never one at 0 Health.
///
/// Tiers, "Actions", "Enchanted Armor", "Health", "Rolling for Criticals"
/// (002_631931fd73349179.txt); R-TI-4, R-TI-6.
fn act_on_player(
    s: &State,
    i: usize,
    a: &ActionDef,
    target: Option<&str>,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let h = up(s, i)?;
    let t = match target {
        Some(n) => find_hero(s, n)?,
        None => i,
    };
    let th = hero(s, t)?;
    if t != i && h.ensnared_by.is_some() {
        return Err(RuleError::condition(
            rules::ENCHANTED_ARMOR,
            "ensnared",
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
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
            format!("{} is at 0 Health and cannot be healed", th.name()),
        ));
    }
    out.push(spend_ap(s, i, a.ap)?);
    let amount = action_roll(s, i, a, roller, out)?;
    if a.effect == ActionEffect::Heal {
        heal_hero(s, t, amount, 0, out)?;
    } else {
        out.push(Event::Reduction { hero: t, amount });
    }
    Ok(())
}

/// A movement Action: to a Zone along accessible Zones that pass no
/// standing enemy, as many Zones as it rolls.
///
/// Tiers, "Actions", "Movement", "Zones" (002_631931fd73349179.txt); R-TI-8.
fn act_to_move(
    s: &State,
    i: usize,
    a: &ActionDef,
    target: Option<&str>,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let h = up(s, i)?;
    let name = target
        .ok_or_else(|| RuleError::forbidden(rules::MOVEMENT, format!("{} needs a Zone", a.name)))?;
    let z = find_zone(s, name)?;
    check_free_to_move(s, i)?;
    let start = h.zone;
    let route = s
        .zones
        .route(start, z, |from, to| {
            step_ok(s, from, if from == start { h.came_from } else { None }, to)
        })
        .filter(|r| !r.is_empty())
        .ok_or_else(|| {
            RuleError::forbidden(
                rules::MOVEMENT,
                format!("no accessible way to {name} that passes no standing enemy (R-TI-8)"),
            )
        })?;
    let steps = u32::try_from(route.len()).unwrap_or(u32::MAX);
    out.push(spend_ap(s, i, a.ap)?);
    let amount = action_roll(s, i, a, roller, out)?;
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
        path: route,
    });
    Ok(())
}

/// Use an Item: its speed's AP, on yourself or a player in your Zone; heals
/// stop at max Health (the Slow Shield's overheal above it); the Turret drops a
/// turret. The Item is used up.
///
/// Tiers, "Items", "Sample Items" (002_631931fd73349179.txt); R-TI-7.
pub(crate) fn use_item(
    s: &State,
    seat: &By,
    item: &str,
    target: Option<&str>,
    out: &mut Vec<Event>,
) -> R<()> {
    let i = hero_seat(s, seat)?;
    player_phase(s, When::PlayerPhase)?;
    let h = up(s, i)?;
    let def = s.catalog.item(item).ok_or_else(|| {
        crate::decide::unknown_among(
            rules::ITEMS,
            "Item",
            item,
            s.catalog
                .items
                .iter()
                .map(|i| tabula_core::grammar::quote(&i.name)),
        )
    })?;
    if !h
        .items
        .iter()
        .any(|x| tabula_core::names::same_name(x, &def.name))
    {
        return Err(RuleError::not_held(
            rules::ITEMS,
            "Item",
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
            return Err(RuleError::condition(
                rules::ENCHANTED_ARMOR,
                "ensnared",
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
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
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
