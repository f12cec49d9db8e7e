//! `spend`: an enemy spends Rolls (and Combat Points) on a roll use
//! ("Describing Rolls", "Spending Rolls for Actions"), one step of the rule
//! per function: which use, what it may spend, the Healer's Response, then
//! what each kind of use does.

use super::{move_enemy, moved_by_enemies};
use crate::character::Stat;
use crate::command::Pay;
use crate::content::{Response, RollUse, UseDie, UseEffect};
use crate::decide::*;
use crate::event::Event;
use crate::gm::Purchase;
use crate::roleplay::{self, Contest, ContestResult};
use crate::rules;
use crate::state::{Enemy, State};
use tabula_core::{Roller, RuleError};

/// One spend, its checks passed: the enemy, the use, what is spent and on
/// whom, and what it costs (doubled in the Player Phase unless it is a
/// Response).
struct Spending<'a> {
    /// The enemy's index.
    e: usize,
    /// The enemy.
    x: &'a Enemy,
    /// The roll use.
    u: &'a RollUse,
    /// Rolls and Combat Points spent (before doubling).
    dice: Purchase,
    /// Drain: extra d6 that heal.
    heal_d6: u32,
    /// What is taken from the GM's Rolls.
    cost: Purchase,
    /// The target: a player, an enemy (heals) or a Zone (Fireball).
    target: Option<&'a str>,
    /// Shove: where the player ends up.
    to: Option<&'a str>,
}

/// Spend Rolls (and Combat Points) on a roll use: Move, Grapple, Bite, Block,
/// Fireball (divided, rounded up), Drain, Shove, or a table's own; doubled in the
/// Player Phase; a Roll is used once per Enemy Phase.
///
/// Tiers, "Describing Rolls", "Spending Rolls for Actions", "Creating Combat",
/// "Enemy Behavior" (002_631931fd73349179.txt).
#[allow(clippy::too_many_arguments)]
pub(crate) fn spend(
    s: &State,
    seat: &By,
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
    let u = roll_use_of(s, x, use_name)?;
    check_spend_limits(x, u, dice, heal_d6)?;
    if u.effect == UseEffect::Move {
        return spend_on_move(s, e, dice, to.or(target), out);
    }
    let response = check_rolls(s, e, x, u, dice, heal_d6, target)?;
    let cost = Purchase {
        d6: dice.d6.saturating_add(heal_d6),
        ..dice
    };
    // A Response is not an Action: not doubled in the Player Phase.
    let cost = if response { cost } else { doubled(s, cost) };
    let sp = Spending {
        e,
        x,
        u,
        dice,
        heal_d6,
        cost,
        target,
        to,
    };
    match u.effect {
        UseEffect::Damage | UseEffect::Drain => spend_on_damage(s, &sp, roller, out)?,
        UseEffect::Divided => spend_divided(s, &sp, roller, out)?,
        UseEffect::Block => {
            let amount = pay_and_roll(s, &sp, roller, out)?;
            out.push(Event::Blocked { enemy: e, amount });
        }
        UseEffect::Heal => spend_on_heal(s, &sp, roller, out)?,
        UseEffect::Grapple | UseEffect::Shove => spend_on_contest(s, &sp, roller, out)?,
        UseEffect::Move => {}
    }
    settle(s, out);
    Ok(())
}

/// The roll use `use_name`, which enemy `x`'s kind must have: a roll any
/// enemy may use, or a kind's named roll (the Healer's Heal).
///
/// Tiers, "Describing Rolls", "Sample Enemies" (002_631931fd73349179.txt); R-TI-9.
fn roll_use_of<'a>(s: &'a State, x: &Enemy, use_name: &str) -> R<&'a RollUse> {
    let usable = |u: &&crate::content::RollUse| u.usable_by(&x.kind);
    let u = s.catalog.roll_use(use_name).ok_or_else(|| {
        unknown_among(
            rules::DESCRIBING_ROLLS,
            "roll use",
            use_name,
            s.catalog
                .uses
                .iter()
                .filter(usable)
                .map(|u| tabula_core::grammar::quote(&u.name)),
        )
    })?;
    if !u.usable_by(&x.kind) {
        return Err(RuleError::not_held(
            rules::SAMPLE_ENEMIES,
            "Roll",
            format!(
                "{} is a roll of {}; {} is a {}",
                u.name,
                u.kinds.join(", "),
                x.name,
                x.kind
            ),
        ));
    }
    Ok(u)
}

/// What any spend may not do: more dice than Tabula's cap, an enemy at 0
/// Health, the other die than the use's.
///
/// Tiers, "Describing Rolls", "Health" (002_631931fd73349179.txt); Tabula's caps.
fn check_spend_limits(x: &Enemy, u: &RollUse, dice: Purchase, heal_d6: u32) -> R<()> {
    cap("d6", dice.d6)?;
    cap("d3", dice.d3)?;
    cap("cp", dice.combat_points)?;
    cap("heal", heal_d6)?;
    if x.health == 0 {
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
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
    Ok(())
}

/// The Move roll use: to a touching, accessible Zone for 1d3 or 1 CP
/// ([`move_enemy`]).
///
/// Tiers, "Using Rolls", "Describing Rolls" (Move) (002_631931fd73349179.txt).
fn spend_on_move(
    s: &State,
    e: usize,
    dice: Purchase,
    to: Option<&str>,
    out: &mut Vec<Event>,
) -> R<()> {
    let to = to.ok_or_else(|| {
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
    move_enemy(s, e, z, pay, out)
}

/// What the spend's Rolls may do: no damage from the shadow form, `heal=`
/// only for Drain, at least one Roll (but for the Healer's Response of
/// Combat Points alone), Shove's Combat Points as many as its d3. Returns
/// true for the Healer's Response.
///
/// Tiers, "Describing Rolls", "Shadow Goblin", "Healer", "Combat Points"
/// (002_631931fd73349179.txt); R-TI-9.
fn check_rolls(
    s: &State,
    e: usize,
    x: &Enemy,
    u: &RollUse,
    dice: Purchase,
    heal_d6: u32,
    target: Option<&str>,
) -> R<bool> {
    let deals_damage = matches!(
        u.effect,
        UseEffect::Damage | UseEffect::Divided | UseEffect::Drain
    );
    if deals_damage && x.shadow {
        return Err(RuleError::condition(
            rules::SHADOW_GOBLIN,
            "shadow form",
            format!("{} is in its shadow form and cannot deal damage", x.name),
        ));
    }
    if u.effect != UseEffect::Drain && heal_d6 > 0 {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            "heal= is for Drain (Xd6 + Yd6)",
        ));
    }
    let rolls = dice.d6.saturating_add(dice.d3);
    // "Healer", Responses: "Whenever one of their allies takes large amounts of
    // damage, Healers respond by healing with Combat Points": a heal of Combat
    // Points alone is that Response (R-TI-9). Every other use needs a Roll
    // ("Combat Points can increase Roll results").
    let response = rolls == 0 && u.effect == UseEffect::Heal && dice.combat_points > 0;
    if rolls == 0 && !response {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            format!("{} uses at least one Roll", u.name),
        ));
    }
    if response {
        check_healer_response(s, e, x, target)?;
    }
    if u.effect == UseEffect::Shove && dice.combat_points != dice.d3 {
        return Err(RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            "Shove is Xd3 + X CP: as many Combat Points as d3",
        ));
    }
    Ok(response)
}

/// The Healer's Response, a heal of Combat Points alone: only a kind that
/// responds so, on one of its allies (not itself) dealt damage this phase.
///
/// Tiers, "Healer" (002_631931fd73349179.txt); R-TI-9.
fn check_healer_response(s: &State, e: usize, x: &Enemy, target: Option<&str>) -> R<()> {
    let heals_with_cp = s
        .catalog
        .enemy(&x.kind)
        .is_some_and(|k| k.response == Some(Response::HealWithCombatPoints));
    let ally = match target {
        Some(n) => find_enemy(s, n)?,
        None => e,
    };
    let why = if !heals_with_cp {
        Some(RuleError::not_held(
            rules::HEALER,
            "Response",
            format!(
                "{} ({}) does not respond by healing with Combat Points",
                x.name, x.kind
            ),
        ))
    } else if ally == e {
        Some(RuleError::forbidden(
            rules::HEALER,
            "the Healer's Response heals one of its allies",
        ))
    } else if !enemy(s, ally)?.hurt {
        Some(RuleError::forbidden(
            rules::HEALER,
            format!(
                "{} was dealt no damage this phase: the Healer's Response answers an ally's damage (a heal otherwise uses a Roll)",
                enemy(s, ally)?.name
            ),
        ))
    } else {
        None
    };
    match why {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// The player the use is aimed at: named, with Health, and reachable from
/// the enemy along accessible Zones. Resolved before anything is spent.
///
/// Tiers, "Describing Rolls", "Zones" (002_631931fd73349179.txt).
fn hero_target(s: &State, sp: &Spending) -> R<usize> {
    let name = sp.target.ok_or_else(|| {
        RuleError::forbidden(
            rules::DESCRIBING_ROLLS,
            format!("{} needs a player", sp.u.name),
        )
    })?;
    let t = find_hero(s, name)?;
    let th = up(s, t)?;
    if s.zones.distance(sp.x.zone, th.zone).is_none() {
        return Err(RuleError::forbidden(
            rules::ZONES,
            format!(
                "no accessible way leads from {} to {}",
                sp.x.name,
                th.name()
            ),
        ));
    }
    Ok(t)
}

/// Take the spend's cost from the GM's Rolls and roll its dice (Combat
/// Points added), logged under the use's name. Returns the amount.
///
/// Tiers, "Describing Rolls", "Combat Points" (002_631931fd73349179.txt).
fn pay_and_roll(s: &State, sp: &Spending, roller: &mut dyn Roller, out: &mut Vec<Event>) -> R<u32> {
    out.push(take_rolls(s, sp.cost)?);
    let roll = roll_dice(
        s,
        sp.dice.d6,
        sp.dice.d3,
        sp.dice.combat_points,
        roller,
        (&sp.x.name, &sp.u.name),
    )?;
    let total = roll.amount();
    out.push(Event::EnemyRolled {
        enemy: sp.e,
        use_name: sp.u.name.clone(),
        roll,
    });
    Ok(total)
}

/// Damage to one player (Bite, Claws); Drain also heals the enemy by its
/// `heal=` d6.
///
/// Tiers, "Describing Rolls" (Drain) (002_631931fd73349179.txt).
fn spend_on_damage(
    s: &State,
    sp: &Spending,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let t = hero_target(s, sp)?;
    let total = pay_and_roll(s, sp, roller, out)?;
    damage_hero(s, t, total, roller, out)?;
    if sp.u.effect == UseEffect::Drain {
        let heal = roll_dice(s, sp.heal_d6, 0, 0, roller, (&sp.x.name, "Drain, healing"))?;
        let amount = heal.amount();
        out.push(Event::EnemyRolled {
            enemy: sp.e,
            use_name: format!("{} (heal)", sp.u.name),
            roll: heal,
        });
        if amount > 0 {
            heal_enemy(s, sp.e, amount, out)?;
        }
    }
    Ok(())
}

/// Damage divided among the players with Health in a Zone, rounded up
/// (Fireball).
///
/// Tiers, "Describing Rolls" (Fireball), "Spending Rolls for Actions",
/// "Rounding" (002_631931fd73349179.txt).
fn spend_divided(s: &State, sp: &Spending, roller: &mut dyn Roller, out: &mut Vec<Event>) -> R<()> {
    let zname = sp.target.ok_or_else(|| {
        RuleError::forbidden(rules::SPENDING_ROLLS, format!("{} needs a Zone", sp.u.name))
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
    if s.zones.distance(sp.x.zone, z).is_none() {
        return Err(RuleError::forbidden(
            rules::ZONES,
            format!("no accessible way leads from {} to {zname}", sp.x.name),
        ));
    }
    let total = pay_and_roll(s, sp, roller, out)?;
    let each = total.div_ceil(u32::try_from(hit.len()).unwrap_or(u32::MAX));
    for t in hit {
        damage_hero(s, t, each, roller, out)?;
    }
    Ok(())
}

/// A heal of an enemy with Health (itself unless another is named); the
/// Healer's Response of Combat Points alone too.
///
/// Tiers, "Describing Rolls", "Healer" (002_631931fd73349179.txt).
fn spend_on_heal(s: &State, sp: &Spending, roller: &mut dyn Roller, out: &mut Vec<Event>) -> R<()> {
    let t = match sp.target {
        Some(n) => find_enemy(s, n)?,
        None => sp.e,
    };
    if enemy(s, t)?.health == 0 {
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
            format!("{} is at 0 Health", enemy(s, t)?.name),
        ));
    }
    let total = pay_and_roll(s, sp, roller, out)?;
    heal_enemy(s, t, total, out)
}

/// Where Shove moves the player: `to=ZONE`, at most its Combat Points of
/// Zones away along accessible Zones; a grapple needs the player in the
/// enemy's Zone (no move: none).
///
/// Tiers, "Describing Rolls" (Grapple, Shove) (002_631931fd73349179.txt).
fn contest_destination(s: &State, sp: &Spending, t: usize) -> R<Option<Vec<usize>>> {
    if sp.u.effect == UseEffect::Shove {
        let to = sp
            .to
            .ok_or_else(|| RuleError::forbidden(rules::DESCRIBING_ROLLS, "Shove needs to=ZONE"))?;
        let z = find_zone(s, to)?;
        let way = s.zones.route(hero(s, t)?.zone, z, |_, _| true);
        let far = way.as_ref().map(Vec::len);
        if !far.is_some_and(|d| d >= 1 && d <= sp.dice.combat_points as usize) {
            return Err(RuleError::forbidden(
                rules::DESCRIBING_ROLLS,
                format!(
                    "Shove moves a player up to {} Zones away along accessible Zones",
                    sp.dice.combat_points
                ),
            ));
        }
        Ok(way)
    } else {
        if sp.x.zone != hero(s, t)?.zone {
            return Err(RuleError::forbidden(
                rules::DESCRIBING_ROLLS,
                "a grapple needs the player in the enemy's Zone",
            ));
        }
        Ok(None)
    }
}

/// Grapple and Shove: a Competing Roll, the enemy's dice (Grapple adds its
/// Combat Points) against the player's 1d3 + Strength Roleplay Bonus; the
/// enemy winning grapples the player or shoves them along the way.
///
/// Tiers, "Describing Rolls" (Grapple, Shove), "Competing Rolls", "Ties"
/// (002_631931fd73349179.txt).
fn spend_on_contest(
    s: &State,
    sp: &Spending,
    roller: &mut dyn Roller,
    out: &mut Vec<Event>,
) -> R<()> {
    let (e, x, u) = (sp.e, sp.x, sp.u);
    let t = hero_target(s, sp)?;
    let dest = contest_destination(s, sp, t)?;
    out.push(take_rolls(s, sp.cost)?);
    let bonus = if u.effect == UseEffect::Shove {
        0
    } else {
        sp.dice.combat_points
    };
    let theirs = roll_dice(s, sp.dice.d6, sp.dice.d3, bonus, roller, (&x.name, &u.name))?;
    let th = hero(s, t)?;
    let against = format!("Strength against {}", u.name);
    let mine = roll_dice(
        s,
        0,
        1,
        th.character.roleplay_bonus(Stat::Strength),
        roller,
        (th.name(), &against),
    )?;
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
            Some(path) => moved_by_enemies(s, t, path, out),
            None => out.push(Event::Grappled { enemy: e, hero: t }),
        }
    }
    Ok(())
}
