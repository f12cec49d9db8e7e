//! `plan`: every basic action and ability action checked against the rules
//! and turned into the rolls it makes ("Basic Actions", "Attack Abilities",
//! "Stalking Abilities", "Movement Abilities", "Support Abilities").
//!
//! [`plan()`] checks that the actor may act at all ([`check_may_act`]) and that
//! his turn allows this action ([`check_turn_allows`]), then hands the action
//! to its own step, one function per action, each reading the actor through
//! [`Actor`].

use super::*;
use crate::state::Combatant;

/// The actor as every action's plan reads him: his state, his health, his
/// turn and the modifiers to his rolls ("Basic Actions": cover -2 to rolls,
/// engage +2 to close range attacks; "Movement Abilities": swimming in water;
/// "Hit Points": healthy or injured).
struct Actor<'s> {
    /// The table.
    s: &'s State,
    /// The actor's index.
    a: usize,
    /// The actor.
    c: &'s Combatant,
    /// The actor's name, for the refusals.
    me: &'s str,
    /// The actor's turn as the rules read it for this command.
    now: TurnNow,
    /// The actor is healthy ("Hit Points").
    healthy: bool,
    /// The actor is injured ("Hit Points").
    injured: bool,
    /// The actor's turn counter ([`TurnNow::turns`]).
    turn: u32,
    /// -2 to every roll from cover, else 0 ("Basic Actions", take cover).
    cover_mod: i64,
    /// The modifier of a close range attack: cover, +2 when engaged this
    /// turn ("Basic Actions", engage), + swimming in water ("Movement
    /// Abilities").
    close_mod: i64,
    /// A wrestling hold while delayed, the one action a delayed character
    /// has ("Attack Abilities", R-SCR-4).
    hold_while_delayed: bool,
}

impl Actor<'_> {
    /// A normal attack roll at `t`'s agility with `level` and `modifier`,
    /// `dmg` damage and `auto` on an automatic success ("Rolls", "Attack
    /// Abilities", R-SCR-3).
    fn normal(&self, t: usize, level: u32, modifier: i64, dmg: u32, auto: u32) -> PlannedRoll {
        PlannedRoll {
            target: t,
            against: "agility",
            level,
            modifier,
            difficulty: self.s.agility(t),
            normal: dmg,
            automatic: auto,
            on_success: Vec::new(),
        }
    }

    /// The actor's level of `ab` (0 for none).
    fn lvl(&self, ab: Option<Ability>) -> u32 {
        ab.map(|x| self.c.level(x)).unwrap_or(0)
    }

    /// A long range action by a flier in room to fly takes him aloft
    /// ("Movement Abilities").
    fn flying_long(&self, p: &mut Plan) {
        if self.s.can_fly(self.a) {
            p.effects.push(Effect::Aloft);
        }
    }

    /// The actor delays himself through his next turn (knockout; shooting
    /// or blasting while injured: "Attack Abilities").
    fn delay_self(&self, p: &mut Plan) {
        p.after.push(Effect::Delayed {
            target: self.a,
            through: self.turn.saturating_add(1),
        });
    }
}

/// The plan of `action` by `a` on his turn `now`: the rules checked, the
/// rolls it makes and what it does ("Basic Actions", "Attack Abilities",
/// "Stalking Abilities", "Movement Abilities", "Support Abilities").
pub(crate) fn plan(s: &State, a: usize, now: TurnNow, action: &Action) -> Result<Plan, RuleError> {
    let Some(c) = s.get(a) else {
        return Err(unknown_character(s, ""));
    };
    let me = c.character.name();
    check_may_act(c, me)?;
    let health = c.hp_state(&s.rules);
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
    let slot = slot_of(action);
    let x = Actor {
        s,
        a,
        c,
        me,
        now,
        healthy: health == HitPointState::Healthy,
        injured: health == HitPointState::Injured,
        turn,
        cover_mod,
        close_mod,
        hold_while_delayed: c.delayed() && matches!(action, Action::Hold { .. }),
    };
    check_turn_allows(&x, action, slot)?;
    let mut p = Plan {
        kind: ActionKind::Attack,
        slot,
        ability: None,
        rolls: Vec::new(),
        effects: Vec::new(),
        after: Vec::new(),
    };
    let q = &mut p;
    match action {
        Action::End => {}
        Action::LeaveCover => leave_cover(&x, q)?,
        Action::Engage => engage(&x, q)?,
        Action::TakeCover => take_cover(&x, q)?,
        Action::Attack { target, with } => attack(&x, q, target, *with)?,
        Action::Throw { target } => throw(&x, q, target)?,
        Action::Hold { target, with } => hold(&x, q, target, *with)?,
        Action::Distract { target, with } => distract(&x, q, target, *with)?,
        Action::Evade { with } => evade(&x, q, *with)?,
        Action::Escape => escape(&x, q)?,
        Action::Shoot { target } => shoot(&x, q, target)?,
        Action::Blast { targets } => blast(&x, q, targets)?,
        Action::Knockout { target } => knockout(&x, q, target)?,
        Action::Fight { targets } => fight(&x, q, targets)?,
        Action::Surprise { target, with } => surprise(&x, q, target, *with)?,
        Action::Intimidate { target } => intimidate(&x, q, target)?,
        Action::Heal { target } => heal(&x, q, target)?,
    }
    Ok(p)
}

/// A character without toughness performs no actions during encounters
/// ("Toughness"); an incapacitated one performs none ("Hit Points").
fn check_may_act(c: &Combatant, me: &str) -> Result<(), RuleError> {
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
    Ok(())
}

/// Which of the turn's actions `action` takes: engage and take cover are
/// bonus actions, leaving cover and ending the turn free, the rest the
/// regular action ("Turns", "Basic Actions").
fn slot_of(action: &Action) -> Slot {
    match action {
        Action::Engage | Action::TakeCover => Slot::Bonus,
        Action::LeaveCover | Action::End => Slot::Free,
        _ => Slot::Regular,
    }
}

/// The actor's turn allows `action` in `slot`: not delayed (but for a hold
/// while delayed, "Attack Abilities", R-SCR-4), the slot not used yet
/// ("Turns"), not panicked ("Stalking Abilities"), a close range attack after
/// engaging (R-SCR-10), and nothing cover forbids ("Basic Actions").
fn check_turn_allows(x: &Actor<'_>, action: &Action, slot: Slot) -> Result<(), RuleError> {
    let (c, me, now) = (x.c, x.me, x.now);
    if c.delayed() && slot != Slot::Free && !x.hold_while_delayed {
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
    Ok(())
}

/// Leave cover, whenever he wants (free; "Basic Actions").
fn leave_cover(x: &Actor<'_>, p: &mut Plan) -> Result<(), RuleError> {
    if !x.c.in_cover {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            format!("{} is not in cover", x.me),
        ));
    }
    p.kind = ActionKind::LeaveCover;
    p.effects.push(Effect::LeftCover);
    Ok(())
}

/// Engage, a bonus action before a close range attack ("Basic Actions",
/// R-SCR-10): not after the regular action, and only when some close range
/// attack is possible.
fn engage(x: &Actor<'_>, p: &mut Plan) -> Result<(), RuleError> {
    if x.now.regular_used {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            "engage is used before a close range attack",
        ));
    }
    if !close_attack_possible(x.s, x.a) {
        return Err(RuleError::forbidden(
            rules::ENGAGE,
            format!(
                "engage is used before a close range attack, and {} can make none now: no character is within close range reach",
                x.me
            ),
        ));
    }
    p.kind = ActionKind::Engage;
    p.effects.push(Effect::Engaged);
    Ok(())
}

/// Take cover, a bonus action before any other, where there is cover
/// ("Basic Actions").
fn take_cover(x: &Actor<'_>, p: &mut Plan) -> Result<(), RuleError> {
    if !x.s.cover {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            "there is no cover here",
        ));
    }
    if x.c.in_cover {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            format!("{} is already in cover", x.me),
        ));
    }
    if x.now.regular_used || x.now.bonus_used {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            "take cover is used before any other action of the turn",
        ));
    }
    p.kind = ActionKind::TakeCover;
    p.effects.push(Effect::TookCover);
    Ok(())
}

/// Basic attack: a close range normal attack, 1 damage, adding fighting,
/// wrestling or knockout ("Basic Actions", R-SCR-5).
fn attack(
    x: &Actor<'_>,
    p: &mut Plan,
    target: &str,
    with: Option<Ability>,
) -> Result<(), RuleError> {
    let t = target_of(x.s, x.a, target, Some(Range::Close), false)?;
    let ab = pick(
        x.s,
        x.a,
        with,
        &[Ability::Fighting, Ability::Wrestling, Ability::Knockout],
    )?;
    p.ability = ab;
    p.rolls.push(x.normal(t, x.lvl(ab), x.close_mod, 1, 2));
    Ok(())
}

/// Throw object: a long range normal attack, 1 damage, when a throwable
/// object is at hand ("Basic Actions").
fn throw(x: &Actor<'_>, p: &mut Plan, target: &str) -> Result<(), RuleError> {
    if !x.s.throwable_objects {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            "no dangerous throwable object is available",
        ));
    }
    let t = target_of(x.s, x.a, target, Some(Range::Long), false)?;
    p.kind = ActionKind::Throw;
    p.rolls.push(x.normal(t, 0, x.cover_mod, 1, 2));
    x.flying_long(p);
    Ok(())
}

/// Hold: a close range force attack against strength that delays and holds
/// the target ("Basic Actions"); with wrestling while healthy it damages,
/// and it is the one action a delayed wrestler has against who held him
/// ("Attack Abilities", R-SCR-4).
fn hold(x: &Actor<'_>, p: &mut Plan, target: &str, with: Option<Ability>) -> Result<(), RuleError> {
    let (c, me) = (x.c, x.me);
    let t = target_of(x.s, x.a, target, Some(Range::Close), false)?;
    p.kind = ActionKind::Hold;
    let ab = if x.hold_while_delayed {
        if !c.has(Ability::Wrestling) || !x.healthy {
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
        pick(x.s, x.a, with, &opts)?
    };
    p.ability = ab;
    let damaging = ab == Some(Ability::Wrestling) && x.healthy && !c.delayed();
    p.rolls.push(PlannedRoll {
        target: t,
        against: "strength",
        level: x.lvl(ab),
        modifier: x.close_mod,
        difficulty: x.s.strength(t),
        normal: u32::from(damaging),
        automatic: if damaging { 2 } else { 0 },
        on_success: vec![OnSuccess::Delay, OnSuccess::Held],
    });
    Ok(())
}

/// Distract: an unrepeatable close range psychic attack against
/// intelligence with a movement ability; it delays ("Basic Actions").
fn distract(
    x: &Actor<'_>,
    p: &mut Plan,
    target: &str,
    with: Option<Ability>,
) -> Result<(), RuleError> {
    let t = target_of(x.s, x.a, target, Some(Range::Close), false)?;
    unrepeatable(x.s, x.a, t, Unrepeatable::Distract)?;
    p.kind = ActionKind::Distract;
    let ab = pick(x.s, x.a, with, &Ability::MOVEMENT)?;
    p.ability = ab;
    p.rolls.push(PlannedRoll {
        target: t,
        against: "intelligence",
        level: x.lvl(ab),
        modifier: x.close_mod,
        difficulty: x.s.intelligence(t),
        normal: 0,
        automatic: 0,
        on_success: vec![OnSuccess::Delay],
    });
    p.effects.push(Effect::Used {
        action: Unrepeatable::Distract,
        target: t,
    });
    Ok(())
}

/// Evade: add a movement ability's level to agility and strength until the
/// next turn ("Basic Actions", "Movement Abilities", R-SCR-5).
fn evade(x: &Actor<'_>, p: &mut Plan, with: Option<Ability>) -> Result<(), RuleError> {
    p.kind = ActionKind::Evade;
    let ab = pick(x.s, x.a, with, &Ability::MOVEMENT)?;
    p.ability = ab;
    p.effects.push(Effect::Evading {
        evading: Evading {
            ability: ab,
            level: x.lvl(ab),
        },
    });
    x.flying_long(p);
    Ok(())
}

/// Escape: leave the encounter, after evading on the last turn ("Basic
/// Actions").
fn escape(x: &Actor<'_>, p: &mut Plan) -> Result<(), RuleError> {
    let c = x.c;
    if c.evaded_on_turn.is_none() || c.evaded_on_turn != x.turn.checked_sub(1) {
        return Err(RuleError::forbidden(
            rules::BASIC_ACTIONS,
            format!("{} can escape only if he evaded on his last turn", x.me),
        ));
    }
    p.kind = ActionKind::Escape;
    p.effects.push(Effect::Escaped);
    Ok(())
}

/// Shooting: a powerful long range normal attack, 2 damage (5 automatic,
/// R-SCR-3); an injured shooter is delayed ("Attack Abilities").
fn shoot(x: &Actor<'_>, p: &mut Plan, target: &str) -> Result<(), RuleError> {
    let c = x.c;
    need(c.has(Ability::Shooting), x.me, Ability::Shooting)?;
    let t = target_of(x.s, x.a, target, Some(Range::Long), false)?;
    p.kind = ActionKind::Shoot;
    p.ability = Some(Ability::Shooting);
    p.rolls
        .push(x.normal(t, c.level(Ability::Shooting), x.cover_mod, 2, 5));
    x.flying_long(p);
    if x.injured {
        x.delay_self(p);
    }
    Ok(())
}

/// Blasting: a long range normal attack against one to three separate
/// enemies, 1 damage each ("Attack Abilities", R-SCR-10); an injured blaster
/// is delayed.
fn blast(x: &Actor<'_>, p: &mut Plan, targets: &[String]) -> Result<(), RuleError> {
    let (s, a, c, me) = (x.s, x.a, x.c, x.me);
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
            (Some(mine), Some(theirs)) if crate::state::names_match(mine, theirs)
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
            .push(x.normal(t, c.level(Ability::Blasting), x.cover_mod, 1, 2));
    }
    x.flying_long(p);
    if x.injured {
        x.delay_self(p);
    }
    Ok(())
}

/// Knockout: an extremely devastating close range normal attack, 4 damage
/// when healthy, 2 when injured; it delays the attacker ("Attack
/// Abilities").
fn knockout(x: &Actor<'_>, p: &mut Plan, target: &str) -> Result<(), RuleError> {
    let c = x.c;
    need(c.has(Ability::Knockout), x.me, Ability::Knockout)?;
    let t = target_of(x.s, x.a, target, Some(Range::Close), false)?;
    p.kind = ActionKind::Knockout;
    p.ability = Some(Ability::Knockout);
    let dmg = if x.healthy { 4 } else { 2 };
    p.rolls
        .push(x.normal(t, c.level(Ability::Knockout), x.close_mod, dmg, dmg + 1));
    x.delay_self(p);
    Ok(())
}

/// Fighting: a healthy attacker does two basic attacks as a single action
/// (at one target or two), an injured one a single attack ("Attack
/// Abilities").
fn fight(x: &Actor<'_>, p: &mut Plan, targets: &[String]) -> Result<(), RuleError> {
    let (c, me) = (x.c, x.me);
    need(c.has(Ability::Fighting), me, Ability::Fighting)?;
    let ids: Vec<&String> = match (targets, x.healthy) {
        ([one], true) => vec![one, one],
        ([one], false) => vec![one],
        ([first, second], true) => vec![first, second],
        ([_, _], false) => {
            return Err(RuleError::condition(
                rules::ATTACK_ABILITIES,
                "injured",
                format!("{me} is not healthy: fighting gives two basic attacks only when healthy"),
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
        let t = target_of(x.s, x.a, id, Some(Range::Close), false)?;
        p.rolls
            .push(x.normal(t, c.level(Ability::Fighting), x.close_mod, 1, 2));
    }
    Ok(())
}

/// Surprise: an unrepeatable long range psychic attack with stealth or
/// detection against intelligence; it panics ("Stalking Abilities").
fn surprise(
    x: &Actor<'_>,
    p: &mut Plan,
    target: &str,
    with: Option<Ability>,
) -> Result<(), RuleError> {
    let c = x.c;
    if !c.has(Ability::Stealth) && !c.has(Ability::Detection) {
        return Err(RuleError::not_held(
            rules::STALKING_ABILITIES,
            "stealth or detection",
            format!(
                "surprise requires stealth or detection; {} has neither",
                x.me
            ),
        ));
    }
    let t = target_of(x.s, x.a, target, Some(Range::Long), false)?;
    unrepeatable(x.s, x.a, t, Unrepeatable::Surprise)?;
    let ab = pick(x.s, x.a, with, &[Ability::Stealth, Ability::Detection])?;
    p.kind = ActionKind::Surprise;
    p.ability = ab;
    p.rolls.push(PlannedRoll {
        target: t,
        against: "intelligence",
        level: x.lvl(ab),
        modifier: x.cover_mod,
        difficulty: x.s.intelligence(t),
        normal: 0,
        automatic: 0,
        on_success: vec![OnSuccess::Panic],
    });
    p.effects.push(Effect::Used {
        action: Unrepeatable::Surprise,
        target: t,
    });
    x.flying_long(p);
    Ok(())
}

/// Intimidate: an unrepeatable long range psychic attack with command
/// against the greater of intelligence and strength; it panics ("Support
/// Abilities").
fn intimidate(x: &Actor<'_>, p: &mut Plan, target: &str) -> Result<(), RuleError> {
    let (s, c) = (x.s, x.c);
    need(c.has(Ability::Command), x.me, Ability::Command)?;
    let t = target_of(s, x.a, target, Some(Range::Long), false)?;
    unrepeatable(s, x.a, t, Unrepeatable::Intimidate)?;
    p.kind = ActionKind::Intimidate;
    p.ability = Some(Ability::Command);
    p.rolls.push(PlannedRoll {
        target: t,
        against: "intelligence or strength",
        level: c.level(Ability::Command),
        modifier: x.cover_mod,
        difficulty: s.intelligence(t).max(s.strength(t)),
        normal: 0,
        automatic: 0,
        on_success: vec![OnSuccess::Panic],
    });
    p.effects.push(Effect::Used {
        action: Unrepeatable::Intimidate,
        target: t,
    });
    x.flying_long(p);
    Ok(())
}

/// Healing: revive an incapacitated character (to 1 hit point) or heal an
/// injured one (to healthy), difficulty 10; never a minion during an
/// encounter, never one who is healthy ("Support Abilities").
fn heal(x: &Actor<'_>, p: &mut Plan, target: &str) -> Result<(), RuleError> {
    let (s, c) = (x.s, x.c);
    need(c.has(Ability::Healing), x.me, Ability::Healing)?;
    let t = target_of(s, x.a, target, None, true)?;
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
        modifier: x.cover_mod,
        difficulty: 10,
        normal: 0,
        automatic: 0,
        on_success: vec![OnSuccess::SetHp(to)],
    });
    Ok(())
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
