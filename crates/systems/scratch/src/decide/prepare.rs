//! The preparation: initiative ("Turns", "Stalking Abilities") and crafting
//! ("Support Abilities").

use super::*;

pub(super) fn initiative(
    state: &State,
    seat: &Seat,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    if state.phase != Phase::Preparation {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::WrongPhase,
            "initiative is rolled once, at the beginning of the encounter",
        ));
    }
    if !seat.is_gm() {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotPermitted,
            format!(
                "only the GM rolls initiative for every group at the beginning of the encounter ({seat} controls only its own characters)"
            ),
        ));
    }
    let mut rolls = Vec::new();
    for (gi, g) in state.groups.iter().enumerate() {
        let best = |a: Ability| {
            g.members
                .iter()
                .filter_map(|m| state.get(*m))
                .map(|c| c.level(a))
                .max()
                .unwrap_or(0)
        };
        let stealth = 2 * i64::from(best(Ability::Stealth));
        let detection = 10 * i64::from(best(Ability::Detection));
        let roll = roll_d20_for(state.rules.d20, roller, &g.seat.to_string(), "initiative")?;
        let total = i64::from(roll.value) + stealth + detection;
        rolls.push(InitiativeRoll {
            group: gi,
            roll,
            stealth,
            detection,
            total,
            tie_breaks: Vec::new(),
        });
    }
    // Ties: the tied groups roll again until one rolls higher.
    for _ in 0..MAX_TIE_ROLLS {
        let mut keys: BTreeMap<(i64, Vec<u32>), Vec<usize>> = BTreeMap::new();
        for (i, r) in rolls.iter().enumerate() {
            keys.entry((r.total, r.tie_breaks.clone()))
                .or_default()
                .push(i);
        }
        let tied: Vec<usize> = keys
            .into_values()
            .filter(|v| v.len() > 1)
            .flatten()
            .collect();
        // A manual roller out of values: stop here and let the command be
        // refused with "need N more d20" (Roller::finish) instead of looping.
        if tied.is_empty() || roller.short() {
            break;
        }
        for i in tied {
            let who = rolls
                .get(i)
                .and_then(|r| state.groups.get(r.group))
                .map(|g| g.seat.to_string())
                .unwrap_or_default();
            let v = roll_d20_for(state.rules.d20, roller, &who, "initiative tie")?.value;
            if let Some(r) = rolls.get_mut(i) {
                r.tie_breaks.push(v);
            }
        }
    }
    let mut order: Vec<usize> = (0..rolls.len()).collect();
    order.sort_by(|a, b| {
        let ka = rolls.get(*a).map(|r| (r.total, r.tie_breaks.clone()));
        let kb = rolls.get(*b).map(|r| (r.total, r.tie_breaks.clone()));
        kb.cmp(&ka)
    });
    let unresolved = order.windows(2).any(|w| {
        let k = |i: usize| rolls.get(i).map(|r| (r.total, r.tie_breaks.clone()));
        w.first().map(|a| k(*a)) == w.get(1).map(|b| k(*b))
    });
    if unresolved && !roller.short() {
        return Err(RuleError::forbidden(
            rules::CAPS,
            format!("initiative ties not broken after {MAX_TIE_ROLLS} re-rolls"),
        ));
    }
    Ok(vec![Event::InitiativeRolled { rolls, order }])
}

pub(super) fn craft_parties(
    state: &State,
    seat: &Seat,
    crafter: &str,
    target: &str,
) -> Result<(usize, usize), RuleError> {
    if state.phase != Phase::Preparation {
        return Err(RuleError::new(
            rules::SUPPORT_ABILITIES,
            Refusal::WrongPhase,
            "a crafter cannot remove or add bonuses during an encounter",
        ));
    }
    let c = find(state, crafter)?;
    let t = find(state, target)?;
    if !state.controls(seat, c) {
        return Err(RuleError::new(
            rules::TURNS,
            Refusal::NotPermitted,
            format!("{seat} does not control {}", name(state, c)),
        ));
    }
    Ok((c, t))
}

pub(super) fn craft(
    state: &State,
    seat: &Seat,
    crafter: &str,
    target: &str,
    ability: Ability,
    hurry: bool,
    roller: &mut dyn Roller,
) -> Result<Vec<Event>, RuleError> {
    let (c, t) = craft_parties(state, seat, crafter, target)?;
    let (Some(cc), Some(tc)) = (state.get(c), state.get(t)) else {
        return Err(unknown_character(state, target));
    };
    let level = cc.character.level(Ability::Craftsmanship);
    if level == 0 {
        return Err(RuleError::not_held(
            rules::SUPPORT_ABILITIES,
            "craftsmanship",
            format!("{} has no craftsmanship", cc.character.name()),
        ));
    }
    if c == t || state.side_of(c) != state.side_of(t) {
        return Err(RuleError::forbidden(
            rules::SUPPORT_ABILITIES,
            format!(
                "craftsmanship gives bonuses to a traveling companion; {} is not one of {}'s",
                tc.character.name(),
                cc.character.name()
            ),
        ));
    }
    let given = state
        .characters
        .iter()
        .flat_map(|x| x.bonuses.values())
        .filter(|b| b.crafter == c)
        .count();
    if given as u32 >= level {
        return Err(RuleError::already_used(
            rules::SUPPORT_ABILITIES,
            "craftsmanship bonuses",
            format!(
                "{} has given {given} bonuses: one per level of craftsmanship ({level})",
                cc.character.name()
            ),
        ));
    }
    if tc.character.level(ability) == 0 {
        return Err(RuleError::not_held(
            rules::SUPPORT_ABILITIES,
            ability.name(),
            format!(
                "{} has no {ability}: a bonus goes to an ability already at level 1",
                tc.character.name()
            ),
        ));
    }
    if tc.bonuses.contains_key(&ability) {
        return Err(RuleError::already_used(
            rules::SUPPORT_ABILITIES,
            "temporary bonus",
            format!(
                "{}'s {ability} already has a temporary bonus",
                tc.character.name()
            ),
        ));
    }
    let (check, usable) = if hurry {
        let roll = roll_d20_for(
            state.rules.d20,
            roller,
            cc.character.name(),
            "craftsmanship in a hurry against 10",
        )?;
        // The roll adds the crafter's craftsmanship with any temporary bonus on
        // it; the number of bonuses he may give is his own level.
        let ch = Check::resolve(
            roll,
            Some(Ability::Craftsmanship),
            cc.level(Ability::Craftsmanship),
            0,
            10,
        );
        let ok = ch.success;
        (Some(ch), ok)
    } else {
        (None, true)
    };
    Ok(vec![Event::Crafted {
        crafter: c,
        target: t,
        ability,
        hurry: check,
        usable,
    }])
}
