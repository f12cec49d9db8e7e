//! `plan`: every basic action and ability action checked against the rules
//! and turned into the rolls it makes ("Basic Actions", "Attack Abilities",
//! "Stalking Abilities", "Movement Abilities", "Support Abilities").

use super::*;

#[allow(clippy::too_many_lines)]
pub(super) fn plan(s: &State, a: usize, now: TurnNow, action: &Action) -> Result<Plan, RuleError> {
    let Some(c) = s.get(a) else {
        return Err(unknown_character(s, ""));
    };
    let me = c.character.name();
    if c.character.level(Ability::Toughness) == 0 {
        return Err(RuleError::not_held(
            rules::TOUGHNESS,
            "toughness",
            format!("{me} has no toughness and cannot perform actions during encounters"),
        ));
    }
    if c.hit_points == 0 {
        return Err(RuleError::condition(
            rules::HIT_POINTS,
            "incapacitated",
            format!("{me} is incapacitated and cannot perform actions"),
        ));
    }
    let health = c.hp_state(&s.rules);
    let healthy = health == HitPointState::Healthy;
    let injured = health == HitPointState::Injured;
    let turn = now.turns;
    let engaged_now = now.engaged_on_turn == Some(turn);
    let cover_mod: i64 = if c.in_cover { -2 } else { 0 };
    let close_mod = cover_mod
        + if engaged_now { 2 } else { 0 }
        + if s.in_water() {
            i64::from(c.level(Ability::Swimming))
        } else {
            0
        };
    let slot = match action {
        Action::Engage | Action::TakeCover => Slot::Bonus,
        Action::LeaveCover | Action::End => Slot::Free,
        _ => Slot::Regular,
    };
    // A wrestling hold while delayed is the one action a delayed character has.
    let hold_while_delayed = c.delayed() && matches!(action, Action::Hold { .. });
    if c.delayed() && slot != Slot::Free && !hold_while_delayed {
        return Err(RuleError::condition(
            rules::ATTACK_ABILITIES,
            "delayed",
            format!("{me} is delayed and cannot perform actions"),
        ));
    }
    match slot {
        Slot::Regular if now.regular_used => {
            return Err(RuleError::already_used(
                rules::TURNS,
                "regular action",
                format!("{me} has used his regular action this turn"),
            ));
        }
        Slot::Bonus if now.bonus_used => {
            return Err(RuleError::already_used(
                rules::TURNS,
                "bonus action",
                format!("{me} has used his bonus action this turn"),
            ));
        }
        _ => {}
    }
    if c.panicked()
        && !matches!(
            action,
            Action::Evade { .. } | Action::Escape | Action::LeaveCover | Action::End
        )
    {
        return Err(RuleError::condition(
            rules::STALKING_ABILITIES,
            "panicked",
            format!("{me} is panicked: he must evade or escape, and cannot attack or heal"),
        ));
    }
    if engage_pending(now) && !close_attack(action) {
        return Err(RuleError::forbidden(
            rules::ENGAGE,
            format!(
                "{me} engaged: engage is used before a close range attack, so his action this turn is a close range attack (attack, hold, distract, knockout or fight)"
            ),
        ));
    }
    let from_cover_forbidden = matches!(
        action,
        Action::Evade { .. }
            | Action::Attack { .. }
            | Action::Hold { .. }
            | Action::Knockout { .. }
            | Action::Fight { .. }
            | Action::Distract { .. }
            | Action::Surprise { .. }
            | Action::Intimidate { .. }
            | Action::Engage
    );
    if c.in_cover && from_cover_forbidden {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            format!(
                "{me} is in cover: no evading, close range attacks, distract, surprise or intimidate from cover (leave-cover first)"
            ),
        ));
    }
    let mut p = Plan {
        kind: ActionKind::Attack,
        slot,
        ability: None,
        rolls: Vec::new(),
        effects: Vec::new(),
        after: Vec::new(),
    };
    let flying_long = |p: &mut Plan| {
        if s.can_fly(a) {
            p.effects.push(Effect::Aloft);
        }
    };
    let normal = |t: usize, level: u32, modifier: i64, dmg: u32, auto: u32| PlannedRoll {
        target: t,
        against: "agility",
        level,
        modifier,
        difficulty: s.agility(t),
        normal: dmg,
        automatic: auto,
        on_success: Vec::new(),
    };
    let lvl = |ab: Option<Ability>| ab.map(|x| c.level(x)).unwrap_or(0);
    match action {
        Action::End => {}
        Action::LeaveCover => {
            if !c.in_cover {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    format!("{me} is not in cover"),
                ));
            }
            p.kind = ActionKind::LeaveCover;
            p.effects.push(Effect::LeftCover);
        }
        Action::Engage => {
            if now.regular_used {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    "engage is used before a close range attack",
                ));
            }
            if !close_attack_possible(s, a) {
                return Err(RuleError::forbidden(
                    rules::ENGAGE,
                    format!(
                        "engage is used before a close range attack, and {me} can make none now: no character is within close range reach"
                    ),
                ));
            }
            p.kind = ActionKind::Engage;
            p.effects.push(Effect::Engaged);
        }
        Action::TakeCover => {
            if !s.cover {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    "there is no cover here",
                ));
            }
            if c.in_cover {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    format!("{me} is already in cover"),
                ));
            }
            if now.regular_used || now.bonus_used {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    "take cover is used before any other action of the turn",
                ));
            }
            p.kind = ActionKind::TakeCover;
            p.effects.push(Effect::TookCover);
        }
        Action::Attack { target, with } => {
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            let ab = pick(
                s,
                a,
                *with,
                &[Ability::Fighting, Ability::Wrestling, Ability::Knockout],
            )?;
            p.ability = ab;
            p.rolls.push(normal(t, lvl(ab), close_mod, 1, 2));
        }
        Action::Throw { target } => {
            if !s.throwable_objects {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    "no dangerous throwable object is available",
                ));
            }
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            p.kind = ActionKind::Throw;
            p.rolls.push(normal(t, 0, cover_mod, 1, 2));
            flying_long(&mut p);
        }
        Action::Hold { target, with } => {
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            p.kind = ActionKind::Hold;
            let ab = if hold_while_delayed {
                if !c.has(Ability::Wrestling) || !healthy {
                    return Err(RuleError::forbidden(
                        rules::WRESTLING,
                        format!(
                            "{me} is delayed: only a healthy character with wrestling can hold while delayed"
                        ),
                    ));
                }
                if !c.held_by.contains(&t) {
                    return Err(RuleError::forbidden(
                        rules::WRESTLING,
                        format!(
                            "{me} can hold while delayed only a character who held him since his last turn"
                        ),
                    ));
                }
                if with.is_some_and(|w| w != Ability::Wrestling) {
                    return Err(RuleError::forbidden(
                        rules::WRESTLING,
                        "a hold while delayed uses wrestling",
                    ));
                }
                p.kind = ActionKind::HoldWhileDelayed;
                Some(Ability::Wrestling)
            } else {
                let mut opts = vec![Ability::Wrestling, Ability::Detection];
                opts.extend(Ability::MOVEMENT);
                pick(s, a, *with, &opts)?
            };
            p.ability = ab;
            let damaging = ab == Some(Ability::Wrestling) && healthy && !c.delayed();
            p.rolls.push(PlannedRoll {
                target: t,
                against: "strength",
                level: lvl(ab),
                modifier: close_mod,
                difficulty: s.strength(t),
                normal: u32::from(damaging),
                automatic: if damaging { 2 } else { 0 },
                on_success: vec![OnSuccess::Delay, OnSuccess::Held],
            });
        }
        Action::Distract { target, with } => {
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            unrepeatable(s, a, t, Unrepeatable::Distract)?;
            p.kind = ActionKind::Distract;
            let ab = pick(s, a, *with, &Ability::MOVEMENT)?;
            p.ability = ab;
            p.rolls.push(PlannedRoll {
                target: t,
                against: "intelligence",
                level: lvl(ab),
                modifier: close_mod,
                difficulty: s.intelligence(t),
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::Delay],
            });
            p.effects.push(Effect::Used {
                action: Unrepeatable::Distract,
                target: t,
            });
        }
        Action::Evade { with } => {
            p.kind = ActionKind::Evade;
            let ab = pick(s, a, *with, &Ability::MOVEMENT)?;
            p.ability = ab;
            p.effects.push(Effect::Evading {
                evading: Evading {
                    ability: ab,
                    level: lvl(ab),
                },
            });
            flying_long(&mut p);
        }
        Action::Escape => {
            if c.evaded_on_turn.is_none() || c.evaded_on_turn != turn.checked_sub(1) {
                return Err(RuleError::forbidden(
                    rules::BASIC_ACTIONS,
                    format!("{me} can escape only if he evaded on his last turn"),
                ));
            }
            p.kind = ActionKind::Escape;
            p.effects.push(Effect::Escaped);
        }
        Action::Shoot { target } => {
            need(c.has(Ability::Shooting), me, Ability::Shooting)?;
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            p.kind = ActionKind::Shoot;
            p.ability = Some(Ability::Shooting);
            p.rolls
                .push(normal(t, c.level(Ability::Shooting), cover_mod, 2, 5));
            flying_long(&mut p);
            if injured {
                p.after.push(Effect::Delayed {
                    target: a,
                    through: turn.saturating_add(1),
                });
            }
        }
        Action::Blast { targets } => {
            need(c.has(Ability::Blasting), me, Ability::Blasting)?;
            if targets.is_empty() || targets.len() > 3 {
                return Err(RuleError::out_of_range(
                    rules::ATTACK_ABILITIES,
                    "blasting targets",
                    1,
                    3,
                    targets.len() as i64,
                ));
            }
            p.kind = ActionKind::Blast;
            p.ability = Some(Ability::Blasting);
            let mut seen = Vec::new();
            for id in targets {
                let t = target_of(s, a, id, Some(Range::Long), false)?;
                let ally = matches!(
                    (s.side_of(a), s.side_of(t)),
                    (Some(x), Some(y)) if crate::encounter::names_match(x, y)
                );
                if ally {
                    return Err(RuleError::forbidden(
                        rules::BLASTING_ENEMIES,
                        format!(
                            "blasting targets up to three separate enemies; {} is on {me}'s side",
                            name(s, t)
                        ),
                    ));
                }
                if seen.contains(&t) {
                    return Err(RuleError::forbidden(
                        rules::ATTACK_ABILITIES,
                        "a blasting attack cannot target one character more than once",
                    ));
                }
                seen.push(t);
                p.rolls
                    .push(normal(t, c.level(Ability::Blasting), cover_mod, 1, 2));
            }
            flying_long(&mut p);
            if injured {
                p.after.push(Effect::Delayed {
                    target: a,
                    through: turn.saturating_add(1),
                });
            }
        }
        Action::Knockout { target } => {
            need(c.has(Ability::Knockout), me, Ability::Knockout)?;
            let t = target_of(s, a, target, Some(Range::Close), false)?;
            p.kind = ActionKind::Knockout;
            p.ability = Some(Ability::Knockout);
            let dmg = if healthy { 4 } else { 2 };
            p.rolls.push(normal(
                t,
                c.level(Ability::Knockout),
                close_mod,
                dmg,
                dmg + 1,
            ));
            p.after.push(Effect::Delayed {
                target: a,
                through: turn.saturating_add(1),
            });
        }
        Action::Fight { targets } => {
            need(c.has(Ability::Fighting), me, Ability::Fighting)?;
            let ids: Vec<&String> = match (targets.as_slice(), healthy) {
                ([one], true) => vec![one, one],
                ([one], false) => vec![one],
                ([x, y], true) => vec![x, y],
                ([_, _], false) => {
                    return Err(RuleError::condition(
                        rules::ATTACK_ABILITIES,
                        "injured",
                        format!(
                            "{me} is not healthy: fighting gives two basic attacks only when healthy"
                        ),
                    ));
                }
                _ => {
                    return Err(RuleError::out_of_range(
                        rules::ATTACK_ABILITIES,
                        "fighting targets",
                        1,
                        2,
                        targets.len() as i64,
                    ));
                }
            };
            p.kind = ActionKind::Fight;
            p.ability = Some(Ability::Fighting);
            for id in ids {
                let t = target_of(s, a, id, Some(Range::Close), false)?;
                p.rolls
                    .push(normal(t, c.level(Ability::Fighting), close_mod, 1, 2));
            }
        }
        Action::Surprise { target, with } => {
            if !c.has(Ability::Stealth) && !c.has(Ability::Detection) {
                return Err(RuleError::not_held(
                    rules::STALKING_ABILITIES,
                    "stealth or detection",
                    format!("surprise requires stealth or detection; {me} has neither"),
                ));
            }
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            unrepeatable(s, a, t, Unrepeatable::Surprise)?;
            let ab = pick(s, a, *with, &[Ability::Stealth, Ability::Detection])?;
            p.kind = ActionKind::Surprise;
            p.ability = ab;
            p.rolls.push(PlannedRoll {
                target: t,
                against: "intelligence",
                level: lvl(ab),
                modifier: cover_mod,
                difficulty: s.intelligence(t),
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::Panic],
            });
            p.effects.push(Effect::Used {
                action: Unrepeatable::Surprise,
                target: t,
            });
            flying_long(&mut p);
        }
        Action::Intimidate { target } => {
            need(c.has(Ability::Command), me, Ability::Command)?;
            let t = target_of(s, a, target, Some(Range::Long), false)?;
            unrepeatable(s, a, t, Unrepeatable::Intimidate)?;
            p.kind = ActionKind::Intimidate;
            p.ability = Some(Ability::Command);
            p.rolls.push(PlannedRoll {
                target: t,
                against: "intelligence or strength",
                level: c.level(Ability::Command),
                modifier: cover_mod,
                difficulty: s.intelligence(t).max(s.strength(t)),
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::Panic],
            });
            p.effects.push(Effect::Used {
                action: Unrepeatable::Intimidate,
                target: t,
            });
            flying_long(&mut p);
        }
        Action::Heal { target } => {
            need(c.has(Ability::Healing), me, Ability::Healing)?;
            let t = target_of(s, a, target, None, true)?;
            let Some(tc) = s.get(t) else {
                return Err(unknown_character(s, target));
            };
            if tc.leader.is_some() {
                return Err(RuleError::forbidden(
                    rules::SUPPORT_ABILITIES,
                    format!(
                        "{} is a minion: minions cannot be healed during an encounter",
                        tc.character.name()
                    ),
                ));
            }
            let d = tc.base_defenses(&s.rules);
            let to = match tc.hp_state(&s.rules) {
                HitPointState::Incapacitated => 1,
                HitPointState::Injured => d.max_hit_points / 2 + 1,
                HitPointState::Healthy => {
                    return Err(RuleError::forbidden(
                        rules::SUPPORT_ABILITIES,
                        format!(
                            "{} is healthy: there is nothing to heal",
                            tc.character.name()
                        ),
                    ));
                }
            };
            p.kind = ActionKind::Heal;
            p.ability = Some(Ability::Healing);
            p.rolls.push(PlannedRoll {
                target: t,
                against: "difficulty",
                level: c.level(Ability::Healing),
                modifier: cover_mod,
                difficulty: 10,
                normal: 0,
                automatic: 0,
                on_success: vec![OnSuccess::SetHp(to)],
            });
        }
    }
    Ok(p)
}

pub(super) fn need(has: bool, me: &str, ability: Ability) -> Result<(), RuleError> {
    if has {
        Ok(())
    } else {
        let rule = match ability {
            Ability::Shooting
            | Ability::Blasting
            | Ability::Knockout
            | Ability::Fighting
            | Ability::Wrestling => rules::ATTACK_ABILITIES,
            Ability::Command | Ability::Healing | Ability::Craftsmanship => {
                rules::SUPPORT_ABILITIES
            }
            _ => rules::ROLLS,
        };
        Err(RuleError::not_held(
            rule,
            ability.name(),
            format!("this roll requires {ability}; {me} has no {ability}"),
        ))
    }
}

pub(super) fn unrepeatable(
    s: &State,
    a: usize,
    t: usize,
    kind: Unrepeatable,
) -> Result<(), RuleError> {
    if s.unrepeatable.contains(&(a, kind, t)) {
        let what = match kind {
            Unrepeatable::Distract => "distract",
            Unrepeatable::Surprise => "surprise",
            Unrepeatable::Intimidate => "intimidate",
        };
        return Err(RuleError::already_used(
            rules::TURNS,
            what,
            format!(
                "{what} is unrepeatable: {} has already used it on {} this encounter",
                name(s, a),
                name(s, t)
            ),
        ));
    }
    Ok(())
}
