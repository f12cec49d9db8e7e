//! `evolve`: applying one event, and the per-character and per-enemy parts
//! `decide` reads the state after a command's events with.

use crate::character::MAX_AP;
use crate::event::Event;
use crate::gm::Purchase;
use crate::state::*;

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
