//! Rolling a planned action into its events, and the odds of the rolls it
//! would make ("Rolls", "Hit Points").

use super::*;

/// Roll the planned rolls and push the events onto `events`.
pub(super) fn execute(
    s: &State,
    a: usize,
    plan: Plan,
    roller: &mut dyn Roller,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Plan {
        kind,
        slot,
        ability,
        rolls: planned,
        mut effects,
        after,
    } = plan;
    let mut rolls = Vec::with_capacity(planned.len());
    // Each roll can add damage and up to two effects.
    effects.reserve(planned.len() * 3 + after.len());
    let mut hp: BTreeMap<usize, u32> = BTreeMap::new();
    let who = s.get(a).map_or("", |c| c.character.name());
    for r in &planned {
        // "ABILITY against TARGET's DEFENSE", for a manual roller's prompt.
        let ab = ability.map_or("a roll", |ab| ab.name());
        let target = s.get(r.target).map_or("", |c| c.character.name());
        let mut what = String::with_capacity(ab.len() + target.len() + r.against.len() + 12);
        what.push_str(ab);
        what.push_str(" against ");
        what.push_str(target);
        what.push_str("'s ");
        what.push_str(r.against);
        let roll = roll_d20_for(s.rules.d20, roller, who, &what)?;
        let check = Check::resolve(roll, ability, r.level, r.modifier, r.difficulty);
        if check.success {
            let dmg = if check.automatic() {
                r.automatic
            } else {
                r.normal
            };
            if dmg > 0 {
                let now = hp
                    .get(&r.target)
                    .copied()
                    .unwrap_or_else(|| s.get(r.target).map(|c| c.hit_points).unwrap_or(0));
                let after = now.saturating_sub(dmg);
                hp.insert(r.target, after);
                effects.push(Effect::Damage {
                    target: r.target,
                    amount: now - after,
                    hit_points: after,
                });
            }
            let through = s
                .get(r.target)
                .map(|c| c.turns.saturating_add(1))
                .unwrap_or(1);
            for o in &r.on_success {
                effects.push(match o {
                    OnSuccess::Delay => Effect::Delayed {
                        target: r.target,
                        through,
                    },
                    OnSuccess::Panic => Effect::Panicked {
                        target: r.target,
                        through,
                    },
                    OnSuccess::Held => Effect::Held {
                        target: r.target,
                        by: a,
                    },
                    OnSuccess::SetHp(v) => Effect::HitPoints {
                        target: r.target,
                        hit_points: *v,
                    },
                });
            }
        }
        rolls.push(TargetRoll {
            target: r.target,
            against: r.against.to_string(),
            check,
        });
    }
    effects.extend(after);
    events.reserve(2);
    if slot != Slot::Free || !effects.is_empty() {
        events.push(Event::Acted {
            actor: a,
            action: kind,
            slot,
            ability,
            rolls,
            effects,
        });
    }
    if slot == Slot::Regular {
        events.push(Event::TurnEnded { character: a });
    }
    Ok(())
}

/// The chance of each roll `action` would make now, if it is legal (for the
/// status line's odds next to each choice).
pub fn preview(state: &State, actor: usize, action: &Action) -> Option<Vec<RollPreview>> {
    let s = state;
    let p = plan(s, actor, TurnNow::of(state, actor), action).ok()?;
    let method = s.rules.d20;
    let mut out: Vec<RollPreview> = Vec::new();
    let mut dists: Vec<tabula_core::odds::Dist<i64>> = Vec::new();
    for r in &p.rolls {
        let id = s.get(r.target).map(|c| c.id.clone()).unwrap_or_default();
        let one = crate::rolls::damage_distribution(
            crate::rolls::DamageProfile {
                normal: r.normal,
                automatic: r.automatic,
                rolls: 1,
            },
            i64::from(r.level),
            r.difficulty,
            r.modifier,
            method,
        )
        .ok()?;
        match out.iter().position(|x| x.target == id) {
            Some(i) => {
                let merged = dists.get(i)?.add(&one).ok()?;
                if let Some(d) = dists.get_mut(i) {
                    *d = merged;
                }
            }
            None => {
                out.push(RollPreview {
                    target: id,
                    probability: crate::rolls::probability(
                        i64::from(r.level),
                        r.difficulty,
                        r.modifier,
                        method,
                    ),
                    damage: Vec::new(),
                });
                dists.push(one);
            }
        }
    }
    for (o, d) in out.iter_mut().zip(dists) {
        o.damage = d.iter().map(|(v, p)| (*v, p)).collect();
    }
    Some(out)
}
