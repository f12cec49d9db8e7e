//! Reading the state after the events a command has produced so far.

use super::*;

// ---- Reading the state after the events a command has produced so far.
//
// A command's later steps (the damage after a Block, a Response after the
// damage, the end of the combat after it all) read the state as its earlier
// events leave it. Rather than cloning the whole state and applying them
// (the catalog, the Zones and every character with it), these read only what
// is asked for: one character or enemy (borrowed when no event changed it,
// else a copy of that one with the events applied by the same per-entity
// parts of `evolve`), the phase, the Rolls left, the turrets.
//
// Not core's `tabula_core::decided::Decided` (issue 26, item 5): that copies
// the whole state the first time it is read after an event, and `settle`
// reads it after the events of every damaging Action, roll use and enemy
// move, so each of those would copy the state once (docs/systems/tiers.md,
// "Decide without cloning").

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
pub(crate) fn enemies_after(s: &State, out: &[Event]) -> usize {
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
    crate::state::rolls_left(s.rolls, spent)
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
