//! The choice at each step: initiative, the Stunt's targets and bets, Interrupts,
//! Compliments, Diverts, Reactions, a Situation's final check, each by the exact
//! odds weighed against what it costs (see the [parent module](super)).

use super::*;

/// Initiative: the Stat with the highest Current value it may check with,
/// every die (initiative exhausts nothing, R-SG-8); 0 dice when no Stat is
/// allowed (R-SG-12).
pub(super) fn initiative(state: &State, who: &str) -> Command {
    let best = state
        .check_stats(who)
        .into_iter()
        .max_by_key(|st| (cur(state, who, *st), std::cmp::Reverse(st.index())));
    match best {
        Some(stat) => Command::Initiative {
            who: Some(who.to_string()),
            stat,
            dice: cur(state, who, stat),
        },
        None => Command::Initiative {
            who: Some(who.to_string()),
            stat: Stat::Agility,
            dice: 0,
        },
    }
}

/// The free point ("Turn Mechanics" Prep: "replenish a spent Skill Token or
/// uninjured Stat Point"): Vitality first (it keeps the character from
/// Dying), then the exhausted Stat the character's cards use with the lowest
/// Current value, then any other exhausted Stat, then the most spent skill.
/// `None` when nothing may recover.
pub fn free_point(state: &State, who: &str) -> Option<Pool> {
    let p = state.participant(who)?;
    let c = &p.character;
    let can = |st: Stat| c.stat(st).exhausted() > 0 && c.recovery_blocked(st).is_none();
    if can(Stat::Vitality) {
        return Some(Pool::Stat(Stat::Vitality));
    }
    let used: Vec<Stat> = p
        .cards
        .iter()
        .filter_map(|n| state.card(n))
        .flat_map(|card| [card.success, card.result])
        .flatten()
        .collect();
    let lowest = |pool: &mut dyn Iterator<Item = Stat>| {
        pool.filter(|st| can(*st))
            .min_by_key(|st| (c.stat(*st).current, st.index()))
    };
    if let Some(st) = lowest(&mut used.iter().copied()) {
        return Some(Pool::Stat(st));
    }
    if let Some(st) = lowest(&mut Stat::ALL.into_iter()) {
        return Some(Pool::Stat(st));
    }
    c.skills()
        .iter()
        .filter(|k| k.available < k.rating)
        .max_by_key(|k| k.rating - k.available)
        .map(|k| Pool::Skill(k.name.clone()))
}

/// Steps 1-2 for the Controller.
pub(super) fn prep(state: &State, t: &Turn) -> Command {
    let ctl = t.controller.as_str();
    if t.free_point
        && let Some(into) = free_point(state, ctl)
    {
        return Command::Recover { into };
    }
    if let Some(effect) = t.pending_effects.first() {
        // R-SG-9: roll for it when the odds are worth it, else discard it.
        let keep = state.card(effect).and_then(|card| {
            let stat = card.success?;
            if !state.card_usable(ctl, card) {
                return None;
            }
            let need = state.needs(card, ctl, 0);
            let roll = Roll::of(state, ctl, stat, state.tokens_free(ctl, card));
            let (bet, worth) = best_bet(roll, KEEP_VALUE, |d| at_least(d, need));
            (worth > 0.0).then_some(bet)
        });
        return match keep {
            Some(bet) => Command::Keep {
                effect: effect.clone(),
                bet,
            },
            None => Command::Discard {
                effect: effect.clone(),
            },
        };
    }
    match damage_stunt(state, ctl) {
        Some(card) if standing_foes(state, ctl).next().is_some() => Command::Stunt {
            card: card.name.clone(),
        },
        _ => Command::EndTurn,
    }
}

/// The Stunt's placed Success roll as it can be rolled now (R-SG-11): dice up
/// to the Controller's Current value, tokens up to the skill's tokens left,
/// none with dice an effect forbids them with.
pub(super) fn stunt_now(state: &State, t: &Turn, stunt: &ActionCard) -> Bet {
    let Some(st) = stunt.success else {
        return Bet::default();
    };
    let dice = t.success.dice.min(cur(state, &t.controller, st));
    let left = state.participant(&t.controller).map_or(0, |p| {
        stunt
            .skill
            .as_deref()
            .and_then(|k| p.character.skill(&p.skill_for(k)))
            .map_or(0, |k| k.available)
    });
    let mut tokens = t.success.tokens.min(left);
    if dice > 0 && state.no_tokens_with(&t.controller, st) {
        tokens = 0;
    }
    Bet { dice, tokens }
}

/// Expected damage of the Stunt's placed Result to `to`, if it lands
/// ("Stunt"; the Compliment's extra damage, "Compliment"; doubling, R-SG-7).
pub(super) fn expected_damage(state: &State, t: &Turn, stunt: &ActionCard, to: &str) -> f64 {
    if stunt.outcome != Outcome::Damage {
        return 0.0;
    }
    let ctl = &t.controller;
    let rs = stunt.result.unwrap_or(Stat::Might);
    let dice = t.result.dice.min(cur(state, ctl, rs));
    let bonus = state
        .participant(ctl)
        .map_or(0, |p| p.character.card_bonus(&stunt.name).damage);
    let target = stunt.target.unwrap_or(Stat::Vitality);
    let factor = state
        .participant(to)
        .map_or(1, |p| p.character.damage_factor(target, Some(rs)));
    let mut e = (f64::from(dice) * 5.0 / 6.0 + f64::from(t.result.tokens) + f64::from(bonus))
        * f64::from(factor);
    if let Some(c) = &t.compliment
        && state
            .card(&c.card)
            .is_some_and(|k| k.outcome == Outcome::ExtraDamage)
    {
        e += f64::from(c.result.dice) * 5.0 / 6.0 + f64::from(c.result.tokens);
    }
    e
}

/// The chance that a Reaction of `who` with `card` evades a Stunt that rolls
/// `s` successes, rolling `dist` (R-SG-5: it must beat the Stunt's roll).
pub(super) fn evade_given(
    state: &State,
    card: &ActionCard,
    who: &str,
    s: u32,
    dist: &[f64],
) -> f64 {
    if card.outcome != Outcome::Evade {
        return 0.0;
    }
    at_least(dist, state.needs(card, who, s))
}

/// The Reaction `who` would play against `stunt` and the successes of its
/// strongest roll (every die and token), for the Controller's odds: `None`
/// when `who` cannot react ("Reactions"; R-SG-12).
pub(super) fn best_dodge<'a>(
    state: &'a State,
    who: &'a str,
    stunt: &ActionCard,
) -> Option<(&'a ActionCard, &'static [f64])> {
    let p = state.participant(who)?;
    let c = &p.character;
    if dying(p)
        || (stunt.is_physical() && c.has(Condition::Incapacitated))
        || (stunt.is_mental() && c.has(Condition::Panicked))
    {
        return None;
    }
    playable(state, who, CardType::Reaction)
        .into_iter()
        .filter(|r| r.outcome == Outcome::Evade)
        .find_map(|r| {
            let st = r.success?;
            let roll = Roll::of(state, who, st, state.tokens_free(who, r));
            let tokens = if roll.mix || roll.max_dice == 0 {
                roll.tokens
            } else {
                0
            };
            Some((r, dist(roll.max_dice, tokens)))
        })
}

/// Step 4: the foe and the bets with the greatest expected damage less costs.
pub(super) fn target(state: &State, t: &Turn) -> Option<Command> {
    let ctl = t.controller.as_str();
    let card = state.card(t.stunt.as_deref()?)?;
    let wants_targets = card.outcome == Outcome::Damage || card.target.is_some();
    let need = state.needs(card, ctl, 0);
    let pool = state.tokens_free(ctl, card);
    let ss = card.success?;
    let s_roll = Roll::of(state, ctl, ss, pool);
    // A Stunt is an attempt: a bet that cannot reach the card's need is a
    // certain miss, so only bets that can are weighed, unless none can
    // (issue 27, bug 12: 0 dice and 0 tokens placed on Success).
    let can_reach = |b: &Bet| b.dice + b.tokens >= need;
    let reachable = s_roll.bets(pool).any(|b| can_reach(&b));
    if !wants_targets {
        let (bet, _) = best_bet_where(
            s_roll,
            KEEP_VALUE,
            |d| at_least(d, need),
            |b| !reachable || can_reach(b),
        );
        return Some(Command::Target {
            targets: Vec::new(),
            success: bet,
            result: Bet::default(),
        });
    }
    let r_roll = card.result.map(|rs| Roll::of(state, ctl, rs, pool));
    let bonus = state
        .participant(ctl)
        .map_or(0, |p| p.character.card_bonus(&card.name).damage);
    let mut candidates: Vec<&Participant> = standing_foes(state, ctl).collect();
    if candidates.is_empty() {
        candidates = state
            .participants
            .iter()
            .filter(|p| p.character.name() != ctl && standing(p))
            .collect();
    }
    let tstat = card.target.unwrap_or(Stat::Vitality);
    let mut best: Option<(f64, u32, String, Bet, Bet)> = None;
    for foe in candidates {
        let name = foe.character.name();
        let factor = f64::from(foe.character.damage_factor(tstat, card.result));
        // The chance the foe's strongest Dodge evades a Stunt of `s`
        // successes, for every `s` the bet can roll.
        let most = s_roll.max_dice + s_roll.tokens;
        let evade: Vec<f64> = match best_dodge(state, name, card) {
            Some((r, d)) => (0..=most)
                .map(|s| evade_given(state, r, name, s, d))
                .collect(),
            None => vec![0.0; most as usize + 1],
        };
        for sb in s_roll.bets(pool).filter(|b| !reachable || can_reach(b)) {
            let dist = dist(sb.dice, sb.tokens);
            let hit: f64 = dist
                .iter()
                .zip(&evade)
                .skip(need as usize)
                .map(|(p, e)| p * (1.0 - e))
                .sum();
            let s_cost = s_roll.cost(sb);
            let left = pool - sb.tokens;
            let results: Vec<Bet> = match r_roll {
                Some(r) => r.bets(left).collect(),
                None => vec![Bet::default()],
            };
            for rb in results {
                let dmg =
                    (f64::from(rb.dice) * 5.0 / 6.0 + f64::from(rb.tokens) + f64::from(bonus))
                        * factor;
                let r_cost = r_roll.map_or(0.0, |r| r.cost(rb));
                let worth = hit * dmg - s_cost - r_cost;
                let weak = foe.character.stat(tstat).current;
                let better = match &best {
                    None => true,
                    Some((w, v, ..)) => {
                        worth > w + 1e-9 || ((worth - w).abs() <= 1e-9 && weak < *v)
                    }
                };
                if better {
                    best = Some((worth, weak, name.to_string(), sb, rb));
                }
            }
        }
    }
    let (_, _, name, success, result) = best?;
    Some(Command::Target {
        targets: vec![name],
        success,
        result,
    })
}

/// Step 3: the Interrupt `who` offers, if it is worth it: only against a
/// foe's damaging Stunt, and only when no ally has offered one.
pub(super) fn interrupt(state: &State, t: &Turn, who: &str) -> Option<Command> {
    let p = state.participant(who)?;
    let ctl = t.controller.as_str();
    if who == ctl || dying(p) || !foes(state, who, ctl) {
        return None;
    }
    if t.interrupts
        .iter()
        .any(|o| o.by == who || !foes(state, &o.by, ctl))
    {
        return None;
    }
    let stunt = state.card(t.stunt.as_deref()?)?;
    if stunt.outcome != Outcome::Damage {
        return None;
    }
    // What the turn would deal if it goes on: the Controller's Result dice.
    let threat = stunt
        .result
        .map_or(0.0, |rs| f64::from(cur(state, ctl, rs)) * 5.0 / 6.0)
        + 1.0;
    playable(state, who, CardType::Interrupt)
        .into_iter()
        .filter_map(|card| {
            let st = card.success?;
            let need = state.needs(card, who, 0);
            let fixed = match card.outcome {
                Outcome::FixedDamage { points, stat } => {
                    let f = state
                        .participant(ctl)
                        .map_or(1, |c| c.character.damage_factor(stat, card.result));
                    f64::from(points.saturating_mul(f))
                }
                _ => 0.0,
            };
            let roll = Roll::of(state, who, st, state.tokens_free(who, card));
            let (bet, worth) = best_bet(roll, threat + fixed, |d| at_least(d, need));
            (worth > 0.0).then(|| (worth, card.name.clone(), bet))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, card, bet)| Command::Interrupt {
            who: Some(who.to_string()),
            card,
            bet,
        })
}

/// The chance the Stunt's placed Success roll reaches its value.
pub(super) fn stunt_odds(state: &State, t: &Turn, stunt: &ActionCard) -> f64 {
    let b = stunt_now(state, t, stunt);
    at_least(dist(b.dice, b.tokens), state.needs(stunt, &t.controller, 0))
}

/// Step 5: the Compliment `who` offers, if worth it. Extra damage is offered
/// by the Controller's side when a foe receives the Stunt; less damage by the
/// receivers' side. One per side.
pub(super) fn compliment(state: &State, t: &Turn, who: &str) -> Option<Command> {
    let p = state.participant(who)?;
    if dying(p) || t.compliments.iter().any(|o| o.by == who) {
        return None;
    }
    let ctl = t.controller.as_str();
    let stunt = state.card(t.stunt.as_deref()?)?;
    if stunt.outcome != Outcome::Damage || t.receivers.is_empty() {
        return None;
    }
    let p_stunt = stunt_odds(state, t, stunt);
    playable(state, who, CardType::Compliment)
        .into_iter()
        .filter_map(|card| {
            let helps = match card.outcome {
                Outcome::ExtraDamage => {
                    !foes(state, who, ctl) && t.receivers.iter().any(|r| foes(state, who, r))
                }
                Outcome::LessDamage => {
                    foes(state, who, ctl) && t.receivers.iter().any(|r| !foes(state, who, r))
                }
                _ => false,
            };
            let ally_offered = t.compliments.iter().any(|o| !foes(state, &o.by, who));
            if !helps || ally_offered {
                return None;
            }
            let st = card.success?;
            let rs = card.result?;
            let need = state.needs(card, who, 0);
            let pool = state.tokens_free(who, card);
            let s_roll = Roll::of(state, who, st, pool);
            let r_roll = Roll::of(state, who, rs, pool);
            let mut best: Option<(f64, Bet, Bet)> = None;
            for sb in s_roll.bets(pool) {
                let p = at_least(dist(sb.dice, sb.tokens), need) * p_stunt;
                for rb in r_roll.bets(pool - sb.tokens) {
                    let value = f64::from(rb.dice) * 5.0 / 6.0 + f64::from(rb.tokens);
                    let worth = p * value - s_roll.cost(sb) - r_roll.cost(rb);
                    if best.as_ref().is_none_or(|b| worth > b.0 + 1e-12) {
                        best = Some((worth, sb, rb));
                    }
                }
            }
            let (worth, success, result) = best?;
            (worth > 0.0).then(|| (worth, card.name.clone(), success, result))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, card, success, result)| Command::Compliment {
            who: Some(who.to_string()),
            card,
            success,
            result,
        })
}

/// Step 5: the Divert `who` offers, if worth it: when the Stunt goes to them or
/// an ally, onto the Controller's weakest standing ally (or the Controller),
/// R-SG-6. One per side.
pub(super) fn divert(state: &State, t: &Turn, who: &str) -> Option<Command> {
    let p = state.participant(who)?;
    let ctl = t.controller.as_str();
    if dying(p) || who == ctl || !foes(state, who, ctl) {
        return None;
    }
    if t.diverts.iter().any(|o| !foes(state, &o.by, who)) {
        return None;
    }
    let stunt = state.card(t.stunt.as_deref()?)?;
    let mine: Vec<&String> = t
        .receivers
        .iter()
        .filter(|r| !foes(state, who, r))
        .collect();
    if mine.is_empty() {
        return None;
    }
    let kept: f64 = mine
        .iter()
        .map(|r| expected_damage(state, t, stunt, r))
        .sum::<f64>()
        * stunt_odds(state, t, stunt);
    let to = state
        .participants
        .iter()
        .filter(|q| {
            let n = q.character.name();
            n != ctl && standing(q) && !foes(state, n, ctl)
        })
        .min_by_key(|q| q.character.stat(Stat::Vitality).current)
        .map_or_else(|| ctl.to_string(), |q| q.character.name().to_string());
    playable(state, who, CardType::Divert)
        .into_iter()
        .filter_map(|card| {
            let st = card.success?;
            let need = state.needs(card, who, 0);
            let roll = Roll::of(state, who, st, state.tokens_free(who, card));
            let (bet, worth) = best_bet(roll, kept, |d| at_least(d, need));
            (worth > 0.0).then(|| (worth, card.name.clone(), bet))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, card, success)| Command::Divert {
            who: Some(who.to_string()),
            card,
            success,
            to: to.clone(),
        })
}

/// Step 7: the Reaction of receiver `who`: the Dodge bet with the most damage
/// kept off less costs, against the Stunt's placed dice (R-SG-5, R-SG-11), or
/// `take` when none is worth it.
pub(super) fn react(state: &State, t: &Turn, who: &str) -> Command {
    let take = Command::Take {
        who: Some(who.to_string()),
    };
    let Some(stunt) = t.stunt.as_deref().and_then(|s| state.card(s)) else {
        return take;
    };
    let damage = expected_damage(state, t, stunt, who);
    if damage <= 0.0 {
        return take;
    }
    let b = stunt_now(state, t, stunt);
    let sdist = dist(b.dice, b.tokens);
    let need = state.needs(stunt, &t.controller, 0);
    let mut best: Option<(f64, String, Bet)> = None;
    if let Some((_, _)) = best_dodge(state, who, stunt) {
        for card in playable(state, who, CardType::Reaction) {
            let Some(st) = card.success else { continue };
            let roll = Roll::of(state, who, st, state.tokens_free(who, card));
            if card.outcome != Outcome::Evade {
                continue;
            }
            // What the Reaction needs against each roll of the Stunt (R-SG-5).
            let needs: Vec<u32> = (0..sdist.len() as u32)
                .map(|s| state.needs(card, who, s))
                .collect();
            let (bet, worth) = best_bet(roll, damage, |d| {
                sdist
                    .iter()
                    .zip(&needs)
                    .skip(need as usize)
                    .map(|(p, n)| p * at_least(d, *n))
                    .sum()
            });
            if worth > 0.0 && best.as_ref().is_none_or(|x| worth > x.0 + 1e-12) {
                best = Some((worth, card.name.clone(), bet));
            }
        }
    }
    match best {
        Some((_, card, bet)) => Command::React {
            who: Some(who.to_string()),
            card,
            bet,
        },
        None => take,
    }
}

/// The Situation's final check: the dice and tokens with the best odds
/// against the Difficulty less costs ("Situation"; R-SG-1); `final 0` when the
/// check may not be made (R-SG-12).
pub(super) fn final_check(state: &State, who: &str) -> Option<Command> {
    let Moment::Situation(sit) = &state.moment else {
        return None;
    };
    if state.check_forbidden(who, sit.stat).is_some() {
        return Some(Command::Final { dice: 0, tokens: 0 });
    }
    let p = state.participant(who)?;
    let tokens = sit
        .skill
        .as_deref()
        .and_then(|k| p.character.skill(&p.skill_for(k)))
        .map_or(0, |k| k.available);
    let need = sit
        .difficulty
        .saturating_add(if p.character.has(Condition::Dazed) {
            2
        } else {
            0
        })
        .saturating_add(1);
    let roll = Roll::of(state, who, sit.stat, tokens);
    // A Situation is worth a few points: the storyteller set it for the story.
    let (bet, _) = best_bet(roll, 3.0, |d| at_least(d, need));
    Some(Command::Final {
        dice: bet.dice,
        tokens: bet.tokens,
    })
}

pub(super) fn seat_of(state: &State, who: &str) -> Seat {
    state.participant(who).map_or(Seat::Gm, |p| p.seat.clone())
}

pub(super) fn waiting_on(state: &State, who: &str) -> Awaiting {
    Awaiting::participant(seat_of(state, who), who)
}
