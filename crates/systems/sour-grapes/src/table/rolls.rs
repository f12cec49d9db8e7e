//! Shared by every moment: who acts for which character, rolling a bet (dice up
//! to the Current Stat Value, tokens from one skill pool), which cards may be
//! played, what a card needs, and damage.
//!
//! Sour Grapes, "Check", "Stats", "Card Mechanics", "Injury, Exhaust & Damage"
//! (000_05a1db5b88f54528.txt); R-SG-1, R-SG-2, R-SG-4..R-SG-7, R-SG-10.

use super::*;

pub(super) struct Dec<'a> {
    pub(super) s: State,
    pub(super) events: Vec<Event>,
    pub(super) roller: &'a mut dyn Roller,
}

impl Dec<'_> {
    pub(super) fn emit(&mut self, e: Event) {
        SourGrapes::evolve(&mut self.s, &e);
        self.events.push(e);
    }
}

pub(super) fn not_permitted(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::NotPermitted, msg)
}

pub(super) fn wrong_phase(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::WrongPhase, msg)
}

pub(super) fn not_your_turn(rule: Rule, msg: impl Into<String>) -> RuleError {
    RuleError::new(rule, Refusal::NotYourTurn, msg)
}

pub(super) fn need_gm(seat: &Seat, what: &str, rule: Rule) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(not_permitted(
            rule,
            format!("only the storyteller may {what}"),
        ))
    }
}

/// The character a command from `seat` acts for.
pub(super) fn actor(
    s: &State,
    seat: &Seat,
    who: &Option<String>,
    rule: Rule,
) -> Result<String, RuleError> {
    if let Some(name) = who {
        let p = s
            .participant(name)
            .ok_or_else(|| RuleError::unknown(rule, "character", name))?;
        if &p.seat != seat {
            return Err(not_permitted(
                rules::SEATS,
                format!("{seat} does not play {}", p.character.name()),
            ));
        }
        return Ok(p.character.name().to_string());
    }
    let mine = s.controlled_by(seat);
    if let Some(t) = s.turn()
        && mine.iter().any(|m| m == &t.controller)
        && mine.len() > 1
    {
        return Ok(t.controller.clone());
    }
    match mine.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(not_permitted(
            rules::SEATS,
            format!("{seat} plays no character here"),
        )),
        _ => Err(not_permitted(
            rules::SEATS,
            format!("{seat} plays several characters: say which with `as NAME`"),
        )),
    }
}

/// A character by name, or refuse naming the field.
pub(super) fn who_known(s: &State, name: &str, rule: Rule) -> Result<String, RuleError> {
    s.participant(name)
        .map(|p| p.character.name().to_string())
        .ok_or_else(|| RuleError::unknown(rule, "character", name))
}

/// The +2 of Dazed. Sour Grapes, "Stats": "All actions are +2 difficulty to perform".
pub(super) fn dazed(s: &State, who: &str) -> u32 {
    if s.participant(who)
        .is_some_and(|p| p.character.has(Condition::Dazed))
    {
        2
    } else {
        0
    }
}

/// Check that `who` may roll `bet` on `stat` with `skill`, and roll it.
///
/// Sour Grapes, "Check" (dice up to the Current Stat Value, tokens up to the
/// skill); "Effects" (Intoxicated, Trained Breathing); R-SG-1, R-SG-4.
#[allow(clippy::too_many_arguments)]
pub(super) fn roll_for(
    d: &mut Dec<'_>,
    purpose: Purpose,
    who: &str,
    card: Option<&str>,
    stat: Stat,
    skill: Option<&str>,
    bet: Bet,
    needed: Option<u32>,
    spend_tokens: bool,
) -> Result<CheckRoll, RuleError> {
    let roll = prepare_roll(&d.s, who, stat, skill, bet, rules::CHECK)?;
    let dice = bet.dice.min(roll.0);
    let r = CheckRoll::roll(d.roller, dice, bet.tokens)?;
    let mut exhausts = vec![];
    let ones = r.ones;
    if ones > 0 {
        let moved = match d.s.effect_rule(
            who,
            |r| matches!(r, EffectRule::OnesExhaustInstead { roll, .. } if *roll == stat),
        ) {
            Some(EffectRule::OnesExhaustInstead { exhaust, .. }) => {
                let room =
                    d.s.participant(who)
                        .map_or(0, |p| p.character.stat(exhaust).current.saturating_sub(1));
                let m = ones.min(room);
                if m > 0 {
                    exhausts.push((exhaust, m));
                }
                m
            }
            _ => 0,
        };
        if ones > moved {
            exhausts.push((stat, ones - moved));
        }
    }
    let success = needed.map(|n| r.successes >= n);
    d.emit(Event::Rolled {
        purpose,
        who: who.to_string(),
        card: card.map(String::from),
        stat,
        skill: roll.1,
        roll: r.clone(),
        needed,
        success,
        exhausts,
        tokens_spent: if spend_tokens { bet.tokens } else { 0 },
    });
    Ok(r)
}

/// Validate a bet: returns (dice allowed = current, the skill's real name).
pub(super) fn prepare_roll(
    s: &State,
    who: &str,
    stat: Stat,
    skill: Option<&str>,
    bet: Bet,
    rule: Rule,
) -> Result<(u32, Option<String>), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| RuleError::unknown(rule, "character", who))?;
    let resolved = skill.map(|k| p.skill_for(k));
    let skill = resolved.as_deref();
    let current = p.character.stat(stat).current;
    if bet.dice > current {
        return Err(RuleError::new(
            rules::CHECK,
            Refusal::OutOfRange {
                field: "dice".into(),
                min: 0,
                max: i64::from(current),
                got: i64::from(bet.dice),
            },
            format!("{who} may roll at most {current} dice: the Current Stat Value of {stat}"),
        ));
    }
    let mut skill_name = None;
    if bet.tokens > 0 {
        let Some(skill) = skill else {
            return Err(RuleError::forbidden(
                rules::SKILLS,
                "tokens come from a skill, and this roll names none",
            ));
        };
        let Some(k) = p.character.skill(skill) else {
            return Err(RuleError::forbidden(
                rules::SKILLS,
                format!("{who} has no {skill} skill, so no tokens for it"),
            ));
        };
        if bet.tokens > k.available {
            return Err(RuleError::new(
                rules::SKILLS,
                Refusal::OutOfRange {
                    field: "tokens".into(),
                    min: 0,
                    max: i64::from(k.available),
                    got: i64::from(bet.tokens),
                },
                format!(
                    "{who} has {} of {} {} tokens left",
                    k.available, k.rating, k.name
                ),
            ));
        }
        skill_name = Some(k.name.clone());
        if bet.dice > 0
            && let Some(EffectRule::NoTokensWith { stat: st }) = s.effect_rule(
                who,
                |r| matches!(r, EffectRule::NoTokensWith { stat: st } if *st == stat),
            )
        {
            return Err(RuleError::forbidden(
                rules::EFFECTS,
                format!(
                    "{who} is under an effect: Skill Tokens and {st} points cannot be used in the same roll"
                ),
            ));
        }
    } else if let Some(skill) = skill {
        skill_name = p.character.skill(skill).map(|k| k.name.clone());
    }
    Ok((current, skill_name))
}

/// May `who` play `card` now? Depleted stats (Success/Result), Panicked,
/// Incapacitated, Dying, and the card being in their hand.
///
/// Sour Grapes, "Stats": "When a stat is depleted you cannot use any action, item
/// or ability that lists that stat as part of the Success or Result"; Panicked,
/// Incapacitated, Dying; R-SG-10.
pub(super) fn may_play(
    s: &State,
    who: &str,
    card: &ActionCard,
    kind: CardType,
) -> Result<(), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| RuleError::unknown(rules::CARDS, "character", who))?;
    if card.kind != kind {
        return Err(RuleError::forbidden(
            rules::CARDS,
            format!("{} is a {} card, not a {kind}", card.name, card.kind),
        ));
    }
    if !p.cards.iter().any(|c| key(c) == key(&card.name)) {
        return Err(RuleError::forbidden(
            rules::CARDS,
            format!("{who} does not have the {} card", card.name),
        ));
    }
    let c = &p.character;
    if c.has(Condition::Dying) {
        return Err(RuleError::forbidden(
            rules::CONDITIONS,
            format!("{who} is Dying: actions cannot be played"),
        ));
    }
    if card.is_mental() && c.has(Condition::Panicked) {
        return Err(RuleError::forbidden(
            rules::CONDITIONS,
            format!("{who} is Panicked: Mental actions cannot be played"),
        ));
    }
    if card.is_physical() && c.has(Condition::Incapacitated) {
        return Err(RuleError::forbidden(
            rules::CONDITIONS,
            format!("{who} is Incapacitated: Physical actions cannot be played"),
        ));
    }
    for st in [card.success, card.result].into_iter().flatten() {
        if c.stat(st).depleted() {
            return Err(RuleError::forbidden(
                rules::CONDITIONS,
                format!("{who}'s {st} is depleted: no action listing it in Success or Result"),
            ));
        }
    }
    Ok(())
}

pub(super) fn find_card(s: &State, name: &str) -> Result<ActionCard, RuleError> {
    s.card(name)
        .cloned()
        .ok_or_else(|| RuleError::unknown(rules::CARDS, "card", name))
}

/// Successes a card needs from `who` (R-SG-2, R-SG-5, R-SG-6), Dazed included.
pub(super) fn card_needs(s: &State, card: &ActionCard, who: &str, stunt_successes: u32) -> u32 {
    let base = match card.value {
        // Experience: a card bonus may lower a numeric value ("cost less").
        CardValue::Needs(n) => n.saturating_sub(
            s.participant(who)
                .map_or(0, |p| p.character.card_bonus(&card.name).easier),
        ),
        CardValue::Star(StarRule::AttackerAgility) => s
            .turn()
            .and_then(|t| s.participant(&t.controller))
            .map_or(0, |p| p.character.stat(Stat::Agility).current + 1),
        CardValue::Star(StarRule::BeatStunt) => stunt_successes + 1,
        CardValue::Star(StarRule::Notes) => 0,
    };
    base + dazed(s, who)
}

/// Step 4 (and every offered card): dice up to the Current Stat Value, and one
/// token pool for Success and Result.
/// Sour Grapes, "Turn Mechanics" (Targeting & Betting) (000_05a1db5b88f54528.txt); R-SG-4.
pub(super) fn check_bet_tokens(
    s: &State,
    who: &str,
    card: &ActionCard,
    success: Bet,
    result: Bet,
) -> Result<(), RuleError> {
    // R-SG-4: one pool for both rolls of a card.
    let total = success.tokens + result.tokens;
    if total > 0 {
        let avail = card
            .skill
            .as_deref()
            .and_then(|k| {
                s.participant(who)
                    .and_then(|p| p.character.skill(&p.skill_for(k)))
            })
            .map_or(0, |k| k.available);
        if total > avail {
            return Err(RuleError::out_of_range(
                rules::BETTING,
                "tokens (Success + Result, one pool)",
                0,
                i64::from(avail),
                i64::from(total),
            ));
        }
    }
    if result.dice > 0 || result.tokens > 0 {
        let Some(rs) = card.result else {
            return Err(RuleError::forbidden(
                rules::BETTING,
                format!("{} has no Result stat (N/A)", card.name),
            ));
        };
        prepare_roll(s, who, rs, card.skill.as_deref(), result, rules::BETTING)?;
    }
    let ss = card.success.ok_or_else(|| {
        RuleError::forbidden(rules::CARDS, format!("{} is never rolled", card.name))
    })?;
    prepare_roll(s, who, ss, card.skill.as_deref(), success, rules::BETTING)?;
    Ok(())
}

/// Damage to a stat's Current Stat Value, doubled once by Frail, Despised or Lost.
/// Sour Grapes, "Injury, Exhaust & Damage" and "Stats" (000_05a1db5b88f54528.txt); R-SG-7, R-SG-10.
pub(super) fn apply_damage(
    d: &mut Dec<'_>,
    who: &str,
    stat: Stat,
    points: u32,
    from: Option<Stat>,
    source: &str,
) {
    let factor =
        d.s.participant(who)
            .map_or(1, |p| p.character.damage_factor(stat, from));
    d.emit(Event::Damaged {
        who: who.to_string(),
        stat,
        points: points * factor,
        doubled: factor > 1,
        source: source.to_string(),
    });
}
