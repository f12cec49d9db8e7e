//! The commands of a turn's steps, one function each: the free point and the
//! effects of step 1 (Prep), the Stunt (step 2), the Interrupt (step 3),
//! Targeting & Betting (step 4), the Compliment and the Divert (step 5), the
//! Reaction (step 7) and closing a step.
//!
//! Sour Grapes, "Turn Mechanics", "Stunt", "Interrupt", "Compliment",
//! "Divert", "Reactions", "Effects" (000_05a1db5b88f54528.txt); R-SG-4..R-SG-9.

use super::*;

/// The turn in progress as a command finds it, and whether the seat giving
/// the command plays its Controller.
struct OnTurn {
    /// The turn, as it stood before the command.
    t: Turn,
    /// True when the seat plays the Controller.
    is_controller: bool,
}

impl OnTurn {
    /// Only the Controller may `what`. Sour Grapes, "Turn Mechanics".
    fn controller_only(&self, what: &str) -> Result<(), RuleError> {
        if self.is_controller {
            Ok(())
        } else {
            Err(RuleError::new(
                rules::TURN,
                Refusal::NotYourTurn,
                format!("only the Controller, {}, may {what}", self.t.controller),
            ))
        }
    }

    /// The turn must be at `step`; refused under `rule` otherwise.
    fn step_is(&self, step: Step, rule: Rule) -> Result<(), RuleError> {
        if self.t.step == step {
            Ok(())
        } else {
            Err(RuleError::new(
                rule,
                Refusal::WrongPhase,
                format!(
                    "the turn is at {}, not {}",
                    self.t.step.title(),
                    step.title()
                ),
            ))
        }
    }
}

/// The commands of a turn's steps: the turn in progress, then the command's
/// own step.
/// Sour Grapes, "Turn Mechanics" (000_05a1db5b88f54528.txt).
pub(in crate::decide) fn turn_command(
    d: &mut Dec<'_>,
    seat: &Seat,
    cmd: &Command,
) -> Result<(), RuleError> {
    let Some(t) = d.s().turn().cloned() else {
        return Err(RuleError::new(
            rules::TURN,
            Refusal::WrongPhase,
            match d.s().event() {
                Some(_) => "initiative first: every participant rolls `initiative STAT DICE`",
                None => "that is done on a turn of an Event; no Event is running",
            },
        ));
    };
    let is_controller = d
        .s()
        .participant(&t.controller)
        .is_some_and(|p| p.seat.same_seat(seat));
    let on = OnTurn { t, is_controller };
    match cmd {
        Command::Recover { into } => recover(d, &on, into)?,
        Command::Keep { effect, bet } => keep_effect(d, &on, effect, *bet)?,
        Command::Discard { effect } => discard_effect(d, &on, effect)?,
        Command::EndTurn => {
            on.controller_only("end the turn")?;
            on.step_is(Step::Prep, rules::TURN)?;
            end_turn(d, "the Controller ended the turn without a Stunt");
        }
        Command::Stunt { card } => lay_stunt(d, &on, card)?,
        Command::Interrupt { who, card, bet } => offer_interrupt(d, &on, seat, who, card, *bet)?,
        Command::Pass => pass(d, &on, seat)?,
        Command::Target {
            targets,
            success,
            result,
        } => declare_targets(d, &on, targets, *success, *result)?,
        Command::Compliment {
            who,
            card,
            success,
            result,
        } => offer_compliment(d, &on, seat, who, card, *success, *result)?,
        Command::Divert {
            who,
            card,
            success,
            to,
        } => offer_divert(d, &on, seat, who, card, *success, to)?,
        Command::React { who, card, bet } => react(d, &on, seat, who, card, *bet)?,
        Command::Take { who } => {
            on.step_is(Step::Reaction, rules::REACTION)?;
            let who = reactor(d.s(), seat, who, &on.t)?;
            d.emit(Event::Reacted { who, play: None });
            after_reaction(d)?;
        }
        _ => {
            return Err(RuleError::new(
                rules::MOMENTS,
                Refusal::WrongPhase,
                "that command is not for this moment",
            ));
        }
    }
    Ok(())
}

/// Step 1, Prep: the Controller's free point back into an exhausted stat
/// that nothing keeps from recovering, or a skill with a spent token.
/// Sour Grapes, "Event", "Turn Mechanics" step 1 (000_05a1db5b88f54528.txt).
fn recover(d: &mut Dec<'_>, on: &OnTurn, into: &Pool) -> Result<(), RuleError> {
    let t = &on.t;
    on.controller_only("use the free point")?;
    on.step_is(Step::Prep, rules::PREP)?;
    if !t.free_point {
        return Err(RuleError::already_used(
            rules::PREP,
            "free point",
            "the free point of this turn is used",
        ));
    }
    let Some(p) = d.s().participant(&t.controller) else {
        return Ok(());
    };
    match into {
        Pool::Stat(st) => {
            if let Some((condition, why)) = p.character.recovery_block(*st) {
                return Err(RuleError::condition(rules::PREP, &condition, why));
            }
            if p.character.stat(*st).exhausted() == 0 {
                return Err(RuleError::forbidden(
                    rules::PREP,
                    format!("{st} is not exhausted"),
                ));
            }
        }
        Pool::Skill(k) => match p.character.skill(k) {
            None => return Err(unknown_skill(d.s(), rules::PREP, &t.controller, k)),
            Some(s) if s.available >= s.rating => {
                return Err(RuleError::forbidden(
                    rules::PREP,
                    format!("{} has no spent token", s.name),
                ));
            }
            _ => {}
        },
    }
    d.emit(Event::FreePoint {
        who: t.controller.clone(),
        into: into.clone(),
    });
    Ok(())
}

/// Step 1, Prep: roll for an effect to keep it; it is discarded on a failure.
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt); R-SG-9, R-SG-12.
fn keep_effect(d: &mut Dec<'_>, on: &OnTurn, effect: &str, bet: Bet) -> Result<(), RuleError> {
    let t = &on.t;
    on.controller_only("roll for an effect")?;
    on.step_is(Step::Prep, rules::EFFECTS)?;
    let card = find_card(d.s(), effect)?;
    if !t.pending_effects.iter().any(|e| same_key(e, &card.name)) {
        return Err(RuleError::forbidden(
            rules::EFFECTS,
            format!("{} is not an effect to roll for now", card.name),
        ));
    }
    let Some(st) = card.success else {
        return Err(RuleError::forbidden(
            rules::EFFECTS,
            format!("{} has no Success stat to roll", card.name),
        ));
    };
    // Rolling for the effect uses the card's stats (R-SG-12); a holder who
    // may not use them discards it (`discard`, or `end` the turn).
    card_usable(d.s(), &t.controller, &card)?;
    let need = card_needs(d.s(), &card, &t.controller, 0);
    let r = roll_for(
        d,
        Purpose::KeepEffect,
        &t.controller,
        Some(&card.name),
        st,
        card.skill.as_deref(),
        bet,
        Some(need),
        true,
    )?;
    if r.successes >= need {
        d.emit(Event::EffectKept {
            who: t.controller.clone(),
            effect: card.name.clone(),
        });
    } else {
        d.emit(Event::EffectRemoved {
            who: t.controller.clone(),
            effect: card.name.clone(),
        });
    }
    Ok(())
}

/// Step 1, Prep: the Controller discards an effect in play on them (not one
/// that counts down or stays until removed).
/// Sour Grapes, "Effects" (000_05a1db5b88f54528.txt).
fn discard_effect(d: &mut Dec<'_>, on: &OnTurn, effect: &str) -> Result<(), RuleError> {
    let t = &on.t;
    on.controller_only("discard an effect")?;
    on.step_is(Step::Prep, rules::EFFECTS)?;
    let card = find_card(d.s(), effect)?;
    let has = d
        .s()
        .participant(&t.controller)
        .is_some_and(|p| p.effects.iter().any(|e| same_key(&e.card, &card.name)));
    if !has {
        return Err(RuleError::not_held(
            rules::EFFECTS,
            &card.name,
            format!("{} has no {} in play", t.controller, card.name),
        ));
    }
    if matches!(
        card.effect.map(|e| e.keep),
        Some(Keep::Countdown | Keep::Stays)
    ) {
        return Err(RuleError::forbidden(
            rules::EFFECTS,
            format!(
                "{} cannot be discarded until its tokens are gone or the storyteller removes it",
                card.name
            ),
        ));
    }
    d.emit(Event::EffectRemoved {
        who: t.controller.clone(),
        effect: card.name.clone(),
    });
    Ok(())
}

/// Step 2: the Controller lays down a Stunt, once every effect to roll for
/// is kept or discarded.
/// Sour Grapes, "Stunt", "Effects" (000_05a1db5b88f54528.txt).
fn lay_stunt(d: &mut Dec<'_>, on: &OnTurn, card: &str) -> Result<(), RuleError> {
    let t = &on.t;
    on.controller_only("lay down a Stunt")?;
    on.step_is(Step::Prep, rules::STUNT)?;
    if let Some(e) = t.pending_effects.first() {
        return Err(RuleError::forbidden(
            rules::EFFECTS,
            format!("first roll for {e} (`keep`) or discard it"),
        ));
    }
    let c = find_card(d.s(), card)?;
    may_play(d.s(), &t.controller, &c, CardType::Stunt)?;
    d.emit(Event::StuntPlayed {
        by: t.controller.clone(),
        card: c.name.clone(),
    });
    Ok(())
}

/// Step 3: another player offers an Interrupt, one each, rolled when the
/// step closes.
/// Sour Grapes, "Interrupt" (000_05a1db5b88f54528.txt); R-SG-4.
fn offer_interrupt(
    d: &mut Dec<'_>,
    on: &OnTurn,
    seat: &Seat,
    who: &Option<String>,
    card: &str,
    bet: Bet,
) -> Result<(), RuleError> {
    let t = &on.t;
    on.step_is(Step::Interrupt, rules::INTERRUPT)?;
    let who = actor(d.s(), seat, who, rules::INTERRUPT)?;
    if who == t.controller {
        return Err(RuleError::new(
            rules::INTERRUPT,
            Refusal::NotPermitted,
            "the Controller does not interrupt their own Stunt",
        ));
    }
    if t.interrupts.iter().any(|p| p.by == who) {
        return Err(RuleError::already_used(
            rules::INTERRUPT,
            "Interrupt",
            format!("{who} has offered an Interrupt"),
        ));
    }
    let c = find_card(d.s(), card)?;
    may_play(d.s(), &who, &c, CardType::Interrupt)?;
    check_bet_tokens(d.s(), &who, &c, bet, Bet::default())?;
    d.emit(Event::Offered {
        slot: Slot::Interrupt,
        play: CardPlay {
            by: who,
            card: c.name.clone(),
            success: bet,
            result: Bet::default(),
            to: None,
        },
    });
    Ok(())
}

/// The Controller or the storyteller closes step 3 (the Interrupt rolls) or
/// step 5 (step 6 rolls the Divert and the Compliment).
/// Sour Grapes, "Turn Mechanics" (000_05a1db5b88f54528.txt).
fn pass(d: &mut Dec<'_>, on: &OnTurn, seat: &Seat) -> Result<(), RuleError> {
    let t = &on.t;
    if !(on.is_controller || seat.is_gm()) {
        return Err(RuleError::new(
            rules::TURN,
            Refusal::NotYourTurn,
            format!(
                "the Controller ({}) or the storyteller closes the step",
                t.controller
            ),
        ));
    }
    match t.step {
        Step::Interrupt => close_interrupts(d, t),
        Step::Support => close_support(d, t),
        other => Err(RuleError::new(
            rules::TURN,
            Refusal::WrongPhase,
            format!("nothing to pass at {}", other.title()),
        )),
    }
}

/// Step 4, Targeting & Betting: the Stunt's targets (as many as it allows;
/// none for a card without a Target) and the dice and tokens placed on its
/// Success and Result, not rolled.
/// Sour Grapes, "Turn Mechanics" step 4 (000_05a1db5b88f54528.txt); R-SG-4.
fn declare_targets(
    d: &mut Dec<'_>,
    on: &OnTurn,
    targets: &[String],
    success: Bet,
    result: Bet,
) -> Result<(), RuleError> {
    let t = &on.t;
    on.controller_only("declare targets and bets")?;
    on.step_is(Step::Targeting, rules::BETTING)?;
    let c = find_card(d.s(), t.stunt.as_deref().unwrap_or(""))?;
    let mut names = Vec::new();
    for n in targets {
        let n = who_known(d.s(), n, rules::BETTING)?;
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let wants_targets = matches!(c.outcome, Outcome::Damage) || c.target.is_some();
    if wants_targets && names.is_empty() {
        return Err(RuleError::forbidden(
            rules::BETTING,
            format!("{} needs a target", c.name),
        ));
    }
    if !wants_targets && !names.is_empty() {
        return Err(RuleError::forbidden(
            rules::BETTING,
            format!("{} has no Target (N/A)", c.name),
        ));
    }
    if let Some(m) = c.max_targets
        && names.len() > m as usize
    {
        return Err(RuleError::out_of_range(
            rules::BETTING,
            "targets",
            1,
            i64::from(m),
            names.len() as i64,
        ));
    }
    check_bet_tokens(d.s(), &t.controller, &c, success, result)?;
    d.emit(Event::TargetsDeclared {
        targets: names,
        success,
        result,
    });
    Ok(())
}

/// Step 5: a player offers a Compliment that modifies the Stunt, one each,
/// rolled in step 6.
/// Sour Grapes, "Compliment" (000_05a1db5b88f54528.txt); R-SG-4.
fn offer_compliment(
    d: &mut Dec<'_>,
    on: &OnTurn,
    seat: &Seat,
    who: &Option<String>,
    card: &str,
    success: Bet,
    result: Bet,
) -> Result<(), RuleError> {
    let t = &on.t;
    on.step_is(Step::Support, rules::COMPLIMENT)?;
    let who = actor(d.s(), seat, who, rules::COMPLIMENT)?;
    if t.compliments.iter().any(|p| p.by == who) {
        return Err(RuleError::already_used(
            rules::COMPLIMENT,
            "Compliment",
            format!("{who} has offered a Compliment"),
        ));
    }
    let c = find_card(d.s(), card)?;
    may_play(d.s(), &who, &c, CardType::Compliment)?;
    check_bet_tokens(d.s(), &who, &c, success, result)?;
    d.emit(Event::Offered {
        slot: Slot::Compliment,
        play: CardPlay {
            by: who,
            card: c.name.clone(),
            success,
            result,
            to: None,
        },
    });
    Ok(())
}

/// Step 5: a player offers a Divert that redirects the Stunt to another
/// receiver, one each, rolled in step 6.
/// Sour Grapes, "Divert" (000_05a1db5b88f54528.txt); R-SG-4, R-SG-6.
fn offer_divert(
    d: &mut Dec<'_>,
    on: &OnTurn,
    seat: &Seat,
    who: &Option<String>,
    card: &str,
    success: Bet,
    to: &str,
) -> Result<(), RuleError> {
    let t = &on.t;
    on.step_is(Step::Support, rules::DIVERT)?;
    let who = actor(d.s(), seat, who, rules::DIVERT)?;
    if t.diverts.iter().any(|p| p.by == who) {
        return Err(RuleError::already_used(
            rules::DIVERT,
            "Divert",
            format!("{who} has offered a Divert"),
        ));
    }
    let to = who_known(d.s(), to, rules::DIVERT)?;
    let c = find_card(d.s(), card)?;
    may_play(d.s(), &who, &c, CardType::Divert)?;
    check_bet_tokens(d.s(), &who, &c, success, Bet::default())?;
    d.emit(Event::Offered {
        slot: Slot::Divert,
        play: CardPlay {
            by: who,
            card: c.name.clone(),
            success,
            result: Bet::default(),
            to: Some(to),
        },
    });
    Ok(())
}

/// Step 7: a receiver plays a Reaction (not against a Mental Stunt while
/// Panicked, nor a Physical one while Incapacitated), rolled in step 8.
/// Sour Grapes, "Reactions" (000_05a1db5b88f54528.txt); R-SG-5, R-SG-12.
fn react(
    d: &mut Dec<'_>,
    on: &OnTurn,
    seat: &Seat,
    who: &Option<String>,
    card: &str,
    bet: Bet,
) -> Result<(), RuleError> {
    let t = &on.t;
    on.step_is(Step::Reaction, rules::REACTION)?;
    let who = reactor(d.s(), seat, who, t)?;
    let c = find_card(d.s(), card)?;
    may_play(d.s(), &who, &c, CardType::Reaction)?;
    let stunt = find_card(d.s(), t.stunt.as_deref().unwrap_or(""))?;
    if let Some(p) = d.s().participant(&who) {
        if stunt.is_mental() && p.character.has(Condition::Panicked) {
            return Err(RuleError::condition(
                rules::DEPLETED,
                "Panicked",
                format!("{who} is Panicked: Mental actions cannot be reacted against"),
            ));
        }
        if stunt.is_physical() && p.character.has(Condition::Incapacitated) {
            return Err(RuleError::condition(
                rules::DEPLETED,
                "Incapacitated",
                format!("{who} is Incapacitated: Physical actions cannot be reacted against"),
            ));
        }
    }
    check_bet_tokens(d.s(), &who, &c, bet, Bet::default())?;
    d.emit(Event::Reacted {
        who,
        play: Some(CardPlay {
            by: String::new(),
            card: c.name.clone(),
            success: bet,
            result: Bet::default(),
            to: None,
        }),
    });
    after_reaction(d)
}
