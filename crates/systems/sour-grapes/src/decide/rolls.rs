//! Shared by every moment: who acts for which character, rolling a bet (dice up
//! to the Current Stat Value, tokens from one skill pool), which cards may be
//! played, what a card needs, and damage.
//!
//! Sour Grapes, "Check", "Stats", "Card Mechanics", "Injury, Exhaust & Damage"
//! (000_05a1db5b88f54528.txt); R-SG-1, R-SG-2, R-SG-4..R-SG-7, R-SG-10.

use super::*;
use tabula_core::decided::Decided;

/// A decision in progress: the events decided so far and the state they
/// lead to ([`Decided`], the state after the events decided so far), and
/// the dice.
///
/// `decide` does not clone the state up front: a command is checked against
/// the state it is given, and most commands emit their events and return. Only
/// when a step reads the state after emitting (a turn that runs on to its
/// rolls, the next Controller, the end of the Event) is the state cloned, once,
/// and the events so far applied to the copy ([`Dec::s`]; [`Decided`]'s
/// laziness).
pub(crate) struct Dec<'a> {
    /// The state `decide` was given and the events emitted so far.
    decided: Decided<'a, SourGrapes>,
    pub(crate) roller: &'a mut dyn Roller,
}

impl<'a> Dec<'a> {
    pub(crate) fn new(base: &'a State, roller: &'a mut dyn Roller) -> Self {
        Dec {
            decided: Decided::new(base),
            roller,
        }
    }

    /// The state as it stands after every event emitted so far.
    pub(crate) fn s(&mut self) -> &State {
        self.decided.state()
    }

    /// Emit an event; it is applied when the state is next read.
    pub(crate) fn emit(&mut self, e: Event) {
        self.decided.emit(e);
    }

    /// The events emitted, in order: `decide`'s answer.
    pub(crate) fn into_events(self) -> Vec<Event> {
        self.decided.into_events()
    }
}

pub(crate) fn need_gm(seat: &Seat, what: &str, rule: Rule) -> Result<(), RuleError> {
    if seat.is_gm() {
        Ok(())
    } else {
        Err(RuleError::new(
            rule,
            Refusal::NotPermitted,
            format!("only the storyteller may {what}"),
        ))
    }
}

/// Refuse an unknown character name, listing the names the table knows.
pub(crate) fn unknown_character(s: &State, rule: Rule, name: &str) -> RuleError {
    let names = s.participant_names();
    RuleError::unknown_among(
        rule,
        "character",
        name.trim(),
        names.iter().map(String::as_str),
    )
}

/// The character a command from `seat` acts for. A player seat acts only for
/// the characters it plays; the storyteller for the monsters (Tabula's seats).
pub(crate) fn actor(
    s: &State,
    seat: &Seat,
    who: &Option<String>,
    rule: Rule,
) -> Result<String, RuleError> {
    if let Some(name) = who {
        let p = s
            .participant(name)
            .ok_or_else(|| unknown_character(s, rule, name))?;
        if !p.seat.same_seat(seat) {
            let mine = s.controlled_by(seat);
            return Err(RuleError::new(
                rules::SEATS,
                Refusal::NotPermitted,
                format!(
                    "{seat} does not play {}: a seat acts only for its own characters ({})",
                    p.character.name(),
                    if mine.is_empty() {
                        "none here".to_string()
                    } else {
                        mine.join(", ")
                    }
                ),
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
        [] => Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            format!("{seat} plays no character here"),
        )),
        _ => Err(RuleError::new(
            rules::SEATS,
            Refusal::NotPermitted,
            format!("{seat} plays several characters: say which with `as NAME`"),
        )),
    }
}

/// A character by name, or refuse naming the field.
pub(crate) fn who_known(s: &State, name: &str, rule: Rule) -> Result<String, RuleError> {
    s.participant(name)
        .map(|p| p.character.name().to_string())
        .ok_or_else(|| unknown_character(s, rule, name))
}

/// The +2 of Dazed. Sour Grapes, "Stats": "All actions are +2 difficulty to perform".
pub(crate) fn dazed(s: &State, who: &str) -> u32 {
    if s.participant(who)
        .is_some_and(|p| p.character.has(Condition::Dazed))
    {
        2
    } else {
        0
    }
}

/// "a" or "an" before a card type's name.
fn article(kind: CardType) -> &'static str {
    match kind {
        CardType::Interrupt | CardType::Effect => "an",
        _ => "a",
    }
}

/// What a roll is for, as a manual roller's prompt says it ("Rook, Dodge
/// (Reaction, Agility): roll 2 d6").
pub(crate) fn what_for(purpose: &Purpose, card: Option<&str>, stat: Stat) -> String {
    let card = card.unwrap_or("card");
    match purpose {
        Purpose::Check => format!("{stat} check"),
        Purpose::SituationFinal => format!("final check, {stat}"),
        Purpose::KeepEffect => format!("keep {card} ({stat})"),
        Purpose::Interrupt => format!("{card} (Interrupt, {stat})"),
        Purpose::Compliment => format!("{card} (Compliment, {stat})"),
        Purpose::Divert => format!("{card} (Divert, {stat})"),
        Purpose::Stunt => format!("{card} (Stunt, {stat})"),
        Purpose::Reaction => format!("{card} (Reaction, {stat})"),
        Purpose::Damage => format!("{card} damage ({stat})"),
        Purpose::ExtraDamage => format!("{card} additional damage ({stat})"),
        Purpose::LessDamage => format!("{card} damage taken off ({stat})"),
        Purpose::LostSlot => format!("{card} (lost the slot, {stat})"),
    }
}

/// Check that `who` may roll `bet` on `stat` with `skill`, and roll it.
///
/// Sour Grapes, "Check" (dice up to the Current Stat Value, tokens up to the
/// skill); "Effects" (Intoxicated, Trained Breathing); R-SG-1, R-SG-4.
#[allow(clippy::too_many_arguments)]
pub(crate) fn roll_for(
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
    let (bet, lost, skill_name) = if purpose.is_committed() {
        committed_bet(d.s(), who, stat, skill, bet)
    } else {
        let (_, skill_name) = prepare_roll(d.s(), who, stat, skill, bet, rules::CHECK)?;
        (bet, Bet::default(), skill_name)
    };
    if bet.dice > 0 {
        d.roller.announce(
            who,
            &what_for(&purpose, card, stat),
            bet.dice.min(crate::check::MAX_DICE),
            Die::D6,
        );
    }
    let r = CheckRoll::roll(d.roller, bet.dice, bet.tokens)?;
    let mut exhausts = vec![];
    let ones = r.ones;
    if ones > 0 {
        let moved = match d.s().effect_rule(
            who,
            |r| matches!(r, EffectRule::OnesExhaustInstead { roll, .. } if *roll == stat),
        ) {
            Some(EffectRule::OnesExhaustInstead { exhaust, .. }) => {
                let room = d
                    .s()
                    .participant(who)
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
        skill: skill_name,
        roll: r.clone(),
        needed,
        success,
        exhausts,
        tokens_spent: if spend_tokens { bet.tokens } else { 0 },
        lost,
    });
    Ok(r)
}

/// A bet placed earlier, as it can be rolled now: dice up to the stat's Current
/// value, tokens up to the skill's tokens left (and none with dice of a stat an
/// effect forbids them with, Intoxicated); the rest are lost. Returns the bet
/// rolled, the part lost and the skill's real name. Never refuses: a turn always
/// reaches its end.
///
/// Sour Grapes, "Turn Mechanics" steps 4 and 8, "Effects"; R-SG-11.
pub(crate) fn committed_bet(
    s: &State,
    who: &str,
    stat: Stat,
    skill: Option<&str>,
    bet: Bet,
) -> (Bet, Bet, Option<String>) {
    let Some(p) = s.participant(who) else {
        return (Bet::default(), bet, None);
    };
    let dice = bet.dice.min(p.character.stat(stat).current);
    let k = skill.and_then(|k| p.character.skill(&p.skill_for(k)));
    let mut tokens = bet.tokens.min(k.map_or(0, |k| k.available));
    if tokens > 0 && dice > 0 && s.no_tokens_with(who, stat) {
        tokens = 0;
    }
    let rolled = Bet { dice, tokens };
    let lost = Bet {
        dice: bet.dice - dice,
        tokens: bet.tokens - tokens,
    };
    (rolled, lost, k.map(|k| k.name.clone()))
}

/// Validate a bet: returns (dice allowed = current, the skill's real name).
pub(crate) fn prepare_roll(
    s: &State,
    who: &str,
    stat: Stat,
    skill: Option<&str>,
    bet: Bet,
    rule: Rule,
) -> Result<(u32, Option<String>), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| unknown_character(s, rule, who))?;
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
            return Err(RuleError::not_held(
                rules::SKILLS,
                &format!("Skill {skill}"),
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
pub(crate) fn may_play(
    s: &State,
    who: &str,
    card: &ActionCard,
    kind: CardType,
) -> Result<(), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| unknown_character(s, rules::CARDS, who))?;
    if card.kind != kind {
        return Err(RuleError::forbidden(
            rules::CARDS,
            format!(
                "{} is {} {} card, not {} {kind}",
                card.name,
                article(card.kind),
                card.kind,
                article(kind)
            ),
        ));
    }
    if !p.cards.iter().any(|c| same_key(c, &card.name)) {
        return Err(RuleError::not_held(
            rules::CARDS,
            &format!("the {} card", card.name),
            format!("{who} does not have the {} card", card.name),
        ));
    }
    card_usable(s, who, card)
}

/// May `who` use `card` (play it, or roll to keep it) with the stats they have
/// now? Dying: no card; Incapacitated: none that uses a Physical stat; Panicked:
/// none that uses a Mental stat (a card uses the stats of its Success and
/// Result); a depleted stat: no card listing it in Success or Result.
///
/// Sour Grapes, "Stats" (the conditions and the note on depleted stats);
/// R-SG-10, R-SG-12.
pub(crate) fn card_usable(s: &State, who: &str, card: &ActionCard) -> Result<(), RuleError> {
    let p = s
        .participant(who)
        .ok_or_else(|| unknown_character(s, rules::CARDS, who))?;
    match unusable(&p.character, card) {
        None => Ok(()),
        Some(Unusable::Dying) => Err(RuleError::condition(
            rules::DEPLETED,
            "Dying",
            format!("{who} is Dying: actions cannot be played"),
        )),
        Some(Unusable::Panicked) => Err(RuleError::condition(
            rules::DEPLETED,
            "Panicked",
            format!(
                "{who} is Panicked: Mental actions cannot be played ({} uses a Mental stat)",
                card.name
            ),
        )),
        Some(Unusable::Incapacitated) => Err(RuleError::condition(
            rules::DEPLETED,
            "Incapacitated",
            format!(
                "{who} is Incapacitated: Physical actions cannot be played ({} uses a Physical stat)",
                card.name
            ),
        )),
        Some(Unusable::Depleted(st)) => Err(RuleError::condition(
            rules::CONDITIONS,
            &format!("depleted {st}"),
            format!("{who}'s {st} is depleted: no action listing it in Success or Result"),
        )),
    }
}

/// Why a character may not use a card now, in the order [`card_usable`]
/// reports it.
pub(crate) enum Unusable {
    /// Dying: no card.
    Dying,
    /// Panicked: no card using a Mental stat.
    Panicked,
    /// Incapacitated: no card using a Physical stat.
    Incapacitated,
    /// A depleted stat in the card's Success or Result.
    Depleted(Stat),
}

/// The test of [`card_usable`] without the message: `None` when `c` may use
/// `card`. Sour Grapes, "Stats"; R-SG-10, R-SG-12.
pub(crate) fn unusable(c: &Character, card: &ActionCard) -> Option<Unusable> {
    if c.has(Condition::Dying) {
        return Some(Unusable::Dying);
    }
    if card.is_mental() && c.has(Condition::Panicked) {
        return Some(Unusable::Panicked);
    }
    if card.is_physical() && c.has(Condition::Incapacitated) {
        return Some(Unusable::Incapacitated);
    }
    [card.success, card.result]
        .into_iter()
        .flatten()
        .find(|st| c.stat(*st).depleted())
        .map(Unusable::Depleted)
}

/// A card of the table by name, or refuse listing the table's cards.
pub(crate) fn find_card(s: &State, name: &str) -> Result<ActionCard, RuleError> {
    s.card(name).cloned().ok_or_else(|| {
        let known: Vec<&str> = s.cards.iter().map(|c| c.name.as_str()).collect();
        RuleError::unknown_among(rules::CARDS, "card", name.trim(), known)
    })
}

/// Refuse an unknown skill of `who`, listing their skills.
pub(crate) fn unknown_skill(s: &State, rule: Rule, who: &str, name: &str) -> RuleError {
    let skills: Vec<&str> = s
        .participant(who)
        .map(|p| {
            p.character
                .skills()
                .iter()
                .map(|k| k.name.as_str())
                .collect()
        })
        .unwrap_or_default();
    RuleError::unknown_among(rule, "skill", name.trim(), skills)
}

/// Successes a card needs from `who` (R-SG-2, R-SG-5, R-SG-6), Dazed included.
pub(crate) fn card_needs(s: &State, card: &ActionCard, who: &str, stunt_successes: u32) -> u32 {
    let base = match card.value {
        // Experience: a card bonus may lower a numeric value ("cost less").
        CardValue::Needs(n) => n.saturating_sub(
            s.participant(who)
                .map_or(0, |p| p.character.card_bonus(&card.name).easier),
        ),
        CardValue::Star(StarRule::AttackerAgility) => s
            .turn()
            .and_then(|t| s.participant(&t.controller))
            .map_or(0, |p| {
                p.character.stat(Stat::Agility).current.saturating_add(1)
            }),
        CardValue::Star(StarRule::BeatStunt) => stunt_successes.saturating_add(1),
        CardValue::Star(StarRule::Notes) => 0,
    };
    base.saturating_add(dazed(s, who))
}

/// Tokens of `who`'s skill `skill` already placed on bets of this turn that are
/// not rolled yet: they are committed (R-SG-11) and one pool (R-SG-4), so a
/// later bet cannot place them again.
pub(crate) fn committed_tokens(s: &State, who: &str, skill: &str) -> u32 {
    let (Some(t), Some(p)) = (s.turn(), s.participant(who)) else {
        return 0;
    };
    let same_pool = |card: &str| {
        s.card(card)
            .and_then(|c| c.skill.as_deref())
            .is_some_and(|k| same_name(&p.skill_for(k), skill))
    };
    let mut n: u32 = 0;
    let mut add = |card: &str, bet: Bet| {
        if same_pool(card) {
            n = n.saturating_add(bet.tokens);
        }
    };
    if let Some(stunt) = &t.stunt
        && same_name(&t.controller, who)
        && matches!(t.step, Step::Support | Step::Reaction)
    {
        add(stunt, t.success);
        add(stunt, t.result);
    }
    let open: Vec<&CardPlay> = match t.step {
        Step::Interrupt => t.interrupts.iter().collect(),
        Step::Support => t.compliments.iter().chain(&t.diverts).collect(),
        _ => Vec::new(),
    };
    for play in open.into_iter().filter(|p| same_name(&p.by, who)) {
        add(&play.card, play.success);
        add(&play.card, play.result);
    }
    if t.step == Step::Reaction
        && let Some(Some(play)) = t.reactions.get(who)
    {
        add(&play.card, play.success);
    }
    n
}

/// Step 4 (and every offered card): dice up to the Current Stat Value, and one
/// token pool for Success and Result.
/// Sour Grapes, "Turn Mechanics" (Targeting & Betting) (000_05a1db5b88f54528.txt); R-SG-4.
pub(crate) fn check_bet_tokens(
    s: &State,
    who: &str,
    card: &ActionCard,
    success: Bet,
    result: Bet,
) -> Result<(), RuleError> {
    // R-SG-4: one pool for both rolls of a card; R-SG-11: tokens already
    // placed on another bet of this turn are committed there.
    let Some(total) = success.tokens.checked_add(result.tokens) else {
        return Err(RuleError::out_of_range(
            rules::BETTING,
            "tokens (Success + Result, one pool)",
            0,
            i64::from(crate::check::MAX_TOKENS),
            i64::from(success.tokens).saturating_add(i64::from(result.tokens)),
        ));
    };
    if total > 0 {
        let avail = s.tokens_free(who, card);
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
pub(crate) fn apply_damage(
    d: &mut Dec<'_>,
    who: &str,
    stat: Stat,
    points: u32,
    from: Option<Stat>,
    source: &str,
) {
    let factor = d
        .s()
        .participant(who)
        .map_or(1, |p| p.character.damage_factor(stat, from));
    d.emit(Event::Damaged {
        who: who.to_string(),
        stat,
        points: points.saturating_mul(factor),
        doubled: factor > 1,
        source: source.to_string(),
    });
}
