//! The opposed hand: declaring, the defender's terms, the reveal and its
//! consequences ("Skill Hands in Oppositions", "Combat", "Desperation";
//! R-GB-4, R-GB-5, R-GB-13).

use super::*;

pub(crate) fn unknown_skill(rule: Rule, ch: &Character, skill: &str) -> RuleError {
    RuleError::unknown_among(
        rule,
        "skill",
        skill,
        ch.skills()
            .keys()
            .map(String::as_str)
            .chain(["<Weapon> Combat", "Craft <Type>"]),
    )
}

pub(crate) fn unknown_specialty(rule: Rule, ch: &Character, name: &str) -> RuleError {
    RuleError::unknown_among(
        rule,
        "Specialty",
        name,
        ch.specialties().iter().map(|(n, _, _)| n.as_str()),
    )
}

pub(crate) fn skill_rank(c: &Combatant, skill: &str) -> Result<i64, RuleError> {
    match &c.body {
        Body::Fated { character, .. } => character
            .skill(skill)
            .ok_or_else(|| unknown_skill(RULE_BETTING, character, skill)),
        Body::Follower { power, .. } => Ok(*power),
        Body::Extras { power, .. } => Ok(power - 1),
    }
}

pub(crate) fn extra_cards(c: &Combatant, skill: &str, kind: HandKind) -> i64 {
    let s = skill.trim().to_ascii_lowercase();
    let mut n = 0;
    if kind == HandKind::Social && c.usable(&Advantage::CunningLinguist) > 0 {
        n += 1;
    }
    if (s == "stealth" || s == "influence") && c.usable(&Advantage::Criminal) > 0 {
        n += 1;
    }
    if (s == "athletics" || s == "dexterity" || s == "manual dexterity")
        && c.usable(&Advantage::Hearty) > 0
    {
        n += 1;
    }
    n
}

/// R-GB-7: -2 on the total with two weapons (Ambidextrous -1), when the hand uses
/// one of their skills; Florentine<W> removes it on defense with W.
pub(crate) fn two_weapon_penalty(c: &Combatant, skill: &str, defending: bool) -> i64 {
    if c.wielding.len() < 2
        || !c
            .wielding
            .iter()
            .any(|w| w.skill.eq_ignore_ascii_case(skill.trim()))
    {
        return 0;
    }
    if defending
        && c.wielding.iter().any(|w| {
            w.skill.eq_ignore_ascii_case(skill.trim())
                && c.usable(&Advantage::Florentine(w.name.clone())) > 0
        })
    {
        return 0;
    }
    if c.usable(&Advantage::Ambidextrous) > 0 {
        1
    } else {
        2
    }
}

/// Whether `c` can be the one acted against in a new hand: it holds a card to
/// play face down, or it will draw one ("Each hand, every player involved draws
/// a new card"), which it cannot when the deck and the discard pile are empty
/// (`shoe_dry`, "Shuffling").
pub fn can_play_in_a_hand(c: &Combatant, shoe_dry: bool) -> bool {
    !c.hand.is_empty() || !shoe_dry
}

/// Whether a hand with `skill` is a melee attack for `c`: a melee weapon in hand
/// for that skill, or Unarmed or Grapple Combat ("Random Rules", "Advantages").
pub(crate) fn melee_skill(c: &Combatant, skill: &str) -> bool {
    let lower = skill.to_ascii_lowercase();
    c.wielding
        .iter()
        .any(|w| w.melee && w.skill.eq_ignore_ascii_case(skill.trim()))
        || lower.contains("unarmed")
        || lower.contains("grapple")
}

pub(crate) fn desperate_trait(c: &Combatant) -> i64 {
    c.trait_score(Trait::Spirit).max(c.trait_score(Trait::Luck))
}

pub(crate) fn declare(
    o: &mut Out,
    i: usize,
    t: usize,
    skill: &str,
    kind: HandKind,
    opts: AttackOptions,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    // The acting character as it stands before paying for its options: the
    // Traits, ranks and Advantages below are read from here.
    let c = o.snapshot(i)?;
    if c.hand.is_empty() {
        return Err(RuleError::spent(
            RULE_BETTING,
            "cards in hand",
            format!("{} has no card to play face down", c.name),
        ));
    }
    let shoe_dry = deck::drawable(&o.s().shoe) == 0;
    if !can_play_in_a_hand(o.c(t)?, shoe_dry) {
        return Err(RuleError::forbidden(
            RULE_BETTING,
            format!(
                "{} holds no card to play face down and none is left to draw",
                o.c(t)?.name
            ),
        ));
    }
    let rank = skill_rank(&c, skill)?;
    let mut bonus = match (&c.body, kind) {
        (_, HandKind::Simple) => 0,
        (Body::Fated { .. }, HandKind::Physical) => c.trait_score(Trait::Body),
        (Body::Fated { .. }, HandKind::Social) => c.trait_score(Trait::Mind),
        (Body::Fated { .. }, HandKind::Fear) => c.trait_score(Trait::Spirit),
        (Body::Follower { power, .. }, _) => *power,
        (Body::Extras { .. }, _) => 0,
    };
    let chosen = [opts.zeal, opts.fortune, opts.disarm]
        .iter()
        .filter(|b| **b)
        .count();
    if chosen > 1 {
        return Err(RuleError::forbidden(
            RULE_ADVANTAGES,
            "Zeal, Fortune and Disarm each replace the Trait: choose one",
        ));
    }
    let physical = kind == HandKind::Physical;
    let melee = melee_skill(&c, skill);
    let needs_physical =
        opts.zeal || opts.fortune || opts.disarm || opts.savage || opts.wild_swing > 0;
    if needs_physical && !physical {
        return Err(RuleError::forbidden(
            RULE_ADVANTAGES,
            "Zeal, Fortune, Disarm, Savage and Wild Swing go with a physical attack",
        ));
    }
    if (opts.disarm || opts.savage || opts.wild_swing > 0) && !melee {
        return Err(RuleError::forbidden(
            RULE_ADVANTAGES,
            "Disarm, Savage and Wild Swing need a melee attack",
        ));
    }
    if opts.zeal {
        o.need(i, &Advantage::Zeal)?;
        o.spend_pool(i, Trait::Spirit, "Zeal", roller)?;
        bonus = c.trait_score(Trait::Spirit);
    }
    if opts.fortune {
        o.need(i, &Advantage::Fortune)?;
        o.spend_pool(i, Trait::Luck, "Fortune", roller)?;
        bonus = c.trait_score(Trait::Luck);
    }
    if opts.disarm {
        o.need(i, &Advantage::Disarm)?;
        o.spend_pool(i, Trait::Mind, "Disarm", roller)?;
        bonus = c.trait_score(Trait::Mind);
    }
    if opts.savage {
        o.need(i, &Advantage::Savage)?;
        o.spend_pool(i, Trait::Body, "Savage", roller)?;
    }
    if opts.wild_swing > 0 {
        o.need(i, &Advantage::WildSwing)?;
        if opts.wild_swing > c.trait_score(Trait::Body) {
            return Err(RuleError::out_of_range(
                RULE_ADVANTAGES,
                "Wild Swing",
                0,
                c.trait_score(Trait::Body),
                opts.wild_swing,
            ));
        }
        o.spend_pool(i, Trait::Body, "Wild Swing", roller)?;
    }
    // R-GB-13: a cost that emptied a second pool knocked the attacker out; the
    // attack is not made and the turn ends.
    if o.c(i)?.knocked_out {
        end_turn(o);
        return Ok(());
    }
    // "Desperation": the hand is played in Desperation (perhaps entered just now,
    // by a cost paid above) with Spirit or Luck instead of any other Trait.
    if o.c(i)?.desperate() && kind != HandKind::Simple {
        bonus = desperate_trait(&c);
    }
    // R-GB-17: Wild Swing lowers the roll bonus by N (and adds 2N damage);
    // Desperation's bonus is taken first and never erases the lowering.
    bonus -= opts.wild_swing;
    if let Some(sp) = &opts.specialty {
        let ch = c
            .character()
            .ok_or_else(|| RuleError::forbidden(RULE_BETTING, "only a Fated has Specialties"))?;
        let r = ch
            .specialty_rank(sp)
            .ok_or_else(|| unknown_specialty(RULE_BETTING, ch, sp))?;
        bonus += r;
    }
    bonus -= two_weapon_penalty(&c, skill, false) + opts.penalty;
    let mut limit = (rank + extra_cards(&c, skill, kind) - c.status.stance).max(0);
    if let Some(n) = opts.counter_cards {
        limit = n;
    }
    if kind == HandKind::Simple {
        // R-GB-15: a simple hand is one card each, no face-up cards.
        limit = 0;
    }
    let x = Exchange {
        attacker: i,
        defender: t,
        skill: skill.trim().to_string(),
        defense_skill: None,
        kind,
        options: opts,
        attacker_bonus: bonus,
        defender_bonus: 0,
        attacker_limit: limit,
        defender_limit: 0,
        attacker_down: None,
        defender_down: None,
        attacker_up: Vec::new(),
        defender_up: Vec::new(),
        to_act: Side::Defender,
        called: false,
        mind_over_matter: false,
        counter: 0,
    };
    // "Each hand, every player involved draws a new card from the deck": the
    // acting character drew in its draw step; the one affected draws now (the
    // declaration changes neither its hand nor the shoe, so the card is drawn
    // first and the events keep their order).
    let drew = o.drawn(t, 1, DrawReason::Hand, roller)?;
    o.emit(Event::Declared(Box::new(x)));
    if let Some(e) = drew {
        o.emit(e);
    }
    Ok(())
}

pub(crate) fn defense_terms(
    s: &State,
    x: &Exchange,
    skill: Option<&str>,
    mom: bool,
    counter: i64,
) -> Result<Defense, RuleError> {
    let c = |i: usize| {
        s.combatants
            .get(i)
            .ok_or_else(|| RuleError::unknown(RULE_SEATS, "combatant", &i.to_string()))
    };
    let d = c(x.defender)?;
    let skill = skill.unwrap_or(&x.skill).trim().to_string();
    let rank = skill_rank(d, &skill)?;
    let mut bonus = match (&d.body, x.kind) {
        (_, HandKind::Simple) => 0,
        (Body::Fated { .. }, HandKind::Physical | HandKind::Social) => d.trait_score(Trait::Mind),
        (Body::Fated { .. }, HandKind::Fear) => d.trait_score(Trait::Spirit),
        (Body::Follower { power, .. }, _) => *power,
        (Body::Extras { .. }, _) => 0,
    };
    if x.kind == HandKind::Physical && d.character().is_some() {
        if d.status.studied.contains(&x.attacker) && d.usable(&Advantage::Study) > 0 {
            bonus = 2 * d.trait_score(Trait::Mind);
        }
        if s.karmic_shuffle || x.options.fortune {
            bonus = d.trait_score(Trait::Luck);
        }
        if let Some(t) = d.status.next_defense {
            bonus = d.trait_score(t);
        }
        if d.status.all_out_defense {
            bonus = 2 * d.trait_score(Trait::Body);
        }
    }
    if d.desperate() && x.kind != HandKind::Simple {
        bonus = desperate_trait(d);
    }
    bonus -= two_weapon_penalty(d, &skill, true);
    let berserk = i64::from(d.status.berserk);
    let limit = if x.kind == HandKind::Simple {
        // R-GB-15: a simple hand is one card each, no face-up cards.
        0
    } else {
        (rank + extra_cards(d, &skill, x.kind) + d.status.stance - berserk).max(0)
    };
    if counter < 0 {
        return Err(RuleError::out_of_range(
            RULE_ADVANTAGES,
            "Counter cards",
            0,
            limit,
            counter,
        ));
    }
    if counter > 0 {
        // Counter<Weapon>: attacked with a melee weapon while wielding the chosen
        // weapon; any number of skill cards sacrificed, leaving at least the
        // face-down card.
        let a = c(x.attacker)?;
        let melee_attack = x.kind == HandKind::Physical
            && a.wielding
                .iter()
                .any(|w| w.melee && w.skill.eq_ignore_ascii_case(&x.skill));
        let counters: Vec<Advantage> = d
            .wielding
            .iter()
            .map(|w| Advantage::Counter(w.name.clone()))
            .collect();
        if !counters.iter().any(|a| d.usable(a) > 0) {
            let message = "Counter needs the Advantage for a weapon in hand".to_string();
            // Why: the first weapon in hand whose Counter is taken, if any.
            let taken = counters
                .iter()
                .find(|a| d.character().is_some_and(|ch| ch.has(a) > 0));
            return Err(match taken {
                Some(a) => super::out::unusable(d, a, RULE_ADVANTAGES, message),
                None => RuleError::not_held(RULE_ADVANTAGES, "Counter", message),
            });
        }
        if !melee_attack {
            return Err(RuleError::forbidden(
                RULE_ADVANTAGES,
                "Counter answers an attack with a melee weapon",
            ));
        }
        if counter > limit {
            return Err(RuleError::out_of_range(
                RULE_ADVANTAGES,
                "Counter cards",
                1,
                limit,
                counter,
            ));
        }
    }
    Ok(Defense {
        skill,
        bonus,
        limit: limit - counter.max(0),
        mind_over_matter: mom,
        counter: counter.max(0),
    })
}

pub(crate) fn total(down: Option<Card>, up: &[Card], bonus: i64) -> Total {
    let sum: i64 = down
        .iter()
        .chain(up.iter())
        .filter_map(|c| values::value(c.face))
        .sum();
    Total {
        total: sum + bonus,
        suit: down.and_then(|c| values::suit_of(c.face)),
    }
}

/// Steps 8-9: both called; `x` is the exchange, `attacker` and `target` its
/// two sides, as they stood when the second call came (a call changes none
/// of them).
pub(crate) fn reveal(
    o: &mut Out,
    x: &Exchange,
    attacker: &Combatant,
    target: &Combatant,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let a = total(x.attacker_down, &x.attacker_up, x.attacker_bonus);
    let d = total(x.defender_down, &x.defender_up, x.defender_bonus);
    let success = values::aggressor_wins(a, d);
    let margin = a.total - d.total;
    // R-GB-4; R-GB-15: a simple hand has no raises.
    let raises = if success && x.kind != HandKind::Simple {
        margin.max(0) / 2
    } else {
        0
    };
    let cards = (
        x.attacker_down
            .iter()
            .chain(x.attacker_up.iter())
            .copied()
            .collect(),
        x.defender_down
            .iter()
            .chain(x.defender_up.iter())
            .copied()
            .collect(),
    );
    o.emit(Event::Revealed {
        attacker: a.total,
        defender: d.total,
        success,
        margin,
        raises,
        cards,
    });
    let ti = x.defender;
    if x.kind != HandKind::Simple && success {
        if x.options.disarm {
            if let Some(w) = target.wielding.first().cloned() {
                o.emit(Event::Dropped {
                    who: ti,
                    weapon: w.clone(),
                });
                if raises >= 2 && o.c(x.attacker)?.wielding.len() < 2 {
                    o.emit(Event::PickedUp {
                        who: x.attacker,
                        weapon: w,
                    });
                }
            }
        } else {
            consequences(o, x, attacker, ti, target, margin, roller)?;
        }
    } else if x.kind != HandKind::Simple && target.usable(&Advantage::Careful) > 0 {
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    let follow_up = success
        && x.options.savage
        && x.options.penalty == 0
        && o.c(ti)?.active()
        && o.c(x.attacker)?.active()
        && !o.c(x.attacker)?.hand.is_empty();
    let shoe_dry = deck::drawable(&o.s().shoe) == 0;
    let follow_up = follow_up && can_play_in_a_hand(o.c(ti)?, shoe_dry);
    let counter = !success
        && x.counter > 0
        && o.c(ti)?.active()
        && o.c(x.attacker)?.active()
        && !o.c(ti)?.hand.is_empty()
        && can_play_in_a_hand(o.c(x.attacker)?, shoe_dry);
    if follow_up {
        let opts = AttackOptions {
            penalty: 2,
            specialty: x.options.specialty.clone(),
            ..AttackOptions::default()
        };
        declare(o, x.attacker, ti, &x.skill, x.kind, opts, roller)?;
    } else if counter {
        let skill = x.defense_skill.clone().unwrap_or_else(|| x.skill.clone());
        let opts = AttackOptions {
            counter_cards: Some(x.counter),
            ..AttackOptions::default()
        };
        declare(o, ti, x.attacker, &skill, HandKind::Physical, opts, roller)?;
    } else {
        end_turn(o);
    }
    Ok(())
}

pub(crate) fn consequences(
    o: &mut Out,
    x: &Exchange,
    attacker: &Combatant,
    ti: usize,
    target: &Combatant,
    margin: i64,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let matching: Vec<&Weapon> = attacker
        .wielding
        .iter()
        .filter(|w| w.skill.eq_ignore_ascii_case(&x.skill))
        .collect();
    // R-GB-7: with two weapons, the damage of both is added.
    let weapon: i64 = if matching.is_empty() {
        0
    } else if attacker.wielding.len() == 2 {
        attacker.wielding.iter().map(|w| w.damage).sum()
    } else {
        matching.iter().map(|w| w.damage).sum()
    };
    if let Body::Extras { .. } = target.body {
        let lost = (margin / 2).min(target.pool(Trait::Body)).max(0);
        o.emit(Event::MembersLost { who: ti, lost });
        // "the number of members determining the size of the group's hand": the
        // group keeps its best cards, one per member left.
        let left = usize::try_from(o.c(ti)?.pool(Trait::Body).max(0)).unwrap_or(0);
        let mut hand = o.c(ti)?.hand.clone();
        if hand.len() > left {
            hand.sort_by_key(|k| values::key(k.face).unwrap_or(-1));
            let gone: Vec<Card> = hand.iter().take(hand.len() - left).copied().collect();
            o.emit(Event::Discarded {
                who: ti,
                cards: gone,
            });
        }
        if o.c(ti)?.pool(Trait::Body) <= 0 {
            o.emit(Event::KnockedOut { who: ti });
        }
        return Ok(());
    }
    let mut raw = margin + weapon;
    let physical = x.kind == HandKind::Physical;
    let s = x.skill.to_ascii_lowercase();
    if physical && s == "unarmed combat" && attacker.usable(&Advantage::Brawler) > 0 {
        raw += skill_rank(attacker, "Unarmed Combat").unwrap_or(0);
    }
    if physical && s == "grapple combat" && attacker.usable(&Advantage::Grappler) > 0 {
        raw += skill_rank(attacker, "Grapple Combat").unwrap_or(0);
    }
    if physical && attacker.status.berserk {
        raw += 2 * attacker.trait_score(Trait::Body);
    }
    raw += 2 * x.options.wild_swing;
    if let Body::Follower { .. } = target.body {
        let taken = raw.min(target.pool(Trait::Body)).max(0);
        o.emit(Event::Damage {
            who: ti,
            pool: Trait::Body,
            raw,
            taken,
        });
        if o.c(ti)?.pool(Trait::Body) <= 0 {
            o.emit(Event::KnockedOut { who: ti });
        }
        return Ok(());
    }
    let mut pool = x.kind.pool();
    if pool == Trait::Body && x.mind_over_matter && target.pool(Trait::Mind) > 0 {
        o.spend_pool(ti, Trait::Mind, "Mind Over Matter", roller)?;
        pool = Trait::Mind;
    }
    // The target before the damage: its reductions, and the Advantages that
    // answer the hit (read before the damage, which may empty their pool).
    let t = o.c(ti)?;
    let mut reduce = 0;
    if pool == Trait::Body {
        reduce += t.usable(&Advantage::Toughness) as i64;
        reduce += t
            .character()
            .and_then(|c| c.armour())
            .map_or(0, |a| a.reduction);
        if t.status.iron_wall {
            reduce += t.trait_score(Trait::Body);
        }
    }
    if pool == Trait::Spirit {
        reduce += t.usable(&Advantage::Resolve) as i64;
    }
    if (pool == Trait::Body || pool == Trait::Spirit) && t.status.soul_of_steel {
        reduce += 2 * t.trait_score(Trait::Spirit);
    }
    let before = t.pool(pool);
    let careful = t.usable(&Advantage::Careful) > 0;
    let tenacity = t.usable(&Advantage::Tenacity) > 0;
    let faith = t.usable(&Advantage::Faith) > 0;
    let taken = (raw - reduce).max(0).min(before);
    o.emit(Event::Damage {
        who: ti,
        pool,
        raw,
        taken,
    });
    if taken == 0 && careful {
        // The attack landed but every point was stopped: damage avoided.
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    if taken > 0 && pool == Trait::Body && tenacity {
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    if taken > 0 && pool == Trait::Spirit && faith {
        o.draw(ti, 1, DrawReason::Advantage, roller)?;
    }
    pool_emptied(o, ti, roller)
}

/// The one place where "a pool reached zero" is settled, whatever lowered it:
/// damage, or paying an Advantage's or action's cost (Serendipity, Dodge,
/// Savage, Wild Swing, Zeal, Fortune, Disarm, Ass Pull, Mind Over Matter).
/// A Fated with one empty pool is Desperate and draws Spirit or Luck cards; with
/// two empty pools it is knocked out. Damage to a pool already empty empties
/// nothing new, so it does not "roll over" into a knock-out.
///
/// A Game of Bastards, "Desperation" (003_2dfeea144768d328.txt); R-GB-5, R-GB-13.
pub(crate) fn pool_emptied(
    o: &mut Out,
    who: usize,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let c = o.c(who)?;
    let Body::Fated {
        pools, desperate, ..
    } = &c.body
    else {
        return Ok(());
    };
    let empty = pools.iter().filter(|p| **p <= 0).count();
    let (desperate, knocked_out) = (*desperate, c.knocked_out);
    if empty >= 1 && !desperate {
        o.emit(Event::Desperate { who });
        if empty < 2 {
            let n = usize::try_from(desperate_trait(o.c(who)?)).unwrap_or(0);
            o.draw(who, n, DrawReason::Desperation, roller)?;
        }
    }
    if empty >= 2 && !knocked_out {
        o.emit(Event::KnockedOut { who });
    }
    Ok(())
}

/// After a cost was paid: a character knocked out by its own payment
/// (R-GB-13) takes no further part. If it was acting, its turn ends; if it was
/// in an opposed hand, the hand is abandoned (the cards played go to the
/// discard pile) and the turn ends; if it was the last to choose an initiative
/// card, the round starts without it.
pub(crate) fn knocked_out_by_cost(o: &mut Out) {
    takes_no_further_part(o, |c| c.knocked_out);
}

/// One for whom `gone` holds takes no further part (knocked out by its own
/// payment, R-GB-13; removed by the GM, issue 27 item 6): if it was acting,
/// its turn ends; if it was in an opposed hand, the hand is abandoned (the
/// cards played go to the discard pile) and the turn ends; if it was the last
/// to choose an initiative card, the round starts without it.
pub(crate) fn takes_no_further_part(o: &mut Out, gone: impl Fn(&Combatant) -> bool) {
    let s = o.s();
    let out = |i: usize| s.combatants.get(i).is_some_and(&gone);
    match &s.phase {
        Phase::Turn { actor, .. } if out(*actor) => end_turn(o),
        Phase::Exchange(x) if out(x.attacker) || out(x.defender) => {
            let x = x.clone();
            for (who, down, up) in [
                (x.attacker, x.attacker_down, &x.attacker_up),
                (x.defender, x.defender_down, &x.defender_up),
            ] {
                let cards: Vec<Card> = down.iter().chain(up.iter()).copied().collect();
                if !cards.is_empty() {
                    o.emit(Event::Discarded { who, cards });
                }
            }
            end_turn(o);
        }
        Phase::Initiative if !s.combatants.iter().any(awaits_initiative) => {
            start_round(o);
        }
        _ => {}
    }
}

pub(crate) fn in_opposition(o: &mut Out) -> Result<(), RuleError> {
    if o.s().phase == Phase::Scene {
        return Err(RuleError::new(
            RULE_ADVANTAGES,
            Refusal::WrongPhase,
            "this is used in an Opposition",
        ));
    }
    Ok(())
}

pub(crate) fn own_action(o: &mut Out, i: usize) -> Result<(), RuleError> {
    match o.s().phase {
        Phase::Turn { actor, drawn: true } if actor == i => Ok(()),
        _ => Err(RuleError::new(
            RULE_ADVANTAGES,
            Refusal::WrongPhase,
            "this is used during the character's own action",
        )),
    }
}
