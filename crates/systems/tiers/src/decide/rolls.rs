//! Rolls, damage and healing, and the end of a combat: the steps commands
//! share.

use super::*;

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
        return Err(RuleError::spent(
            rules::USING_ROLLS,
            "Rolls",
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
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
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
        return Err(RuleError::condition(
            rules::HEALTH_ZERO,
            "0 Health",
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
