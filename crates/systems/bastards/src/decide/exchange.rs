//! The opposed hand: `attack`, `play`, `bet`, `call` ("Steps" 4-9, "Skill
//! Hands in Oppositions"; R-GB-4, R-GB-15).

use super::*;

/// The commands of this module (`Attack`, `Play`, `Bet`); any other is left to the
/// caller.
///
/// # Errors
/// A [`RuleError`] naming the rule; [`decide`](super::decide) then returns
/// it and no event, so nothing changes.
pub(super) fn decide(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    match command {
        Command::Attack { .. } => attack(o, state, seat, command, roller),
        Command::Play { .. } => play(o, state, seat, command, roller),
        Command::Bet { .. } | Command::BetWild | Command::Call => {
            bet_or_call(o, state, seat, command, roller)
        }
        _ => Ok(()),
    }
}

/// `attack`: the acting character declares an opposed hand against someone
/// else still in the Opposition ("Steps" 4), unless Ass Pull's
/// discards or All-Out Defense stop it, or Distance keeps the target out of
/// melee ("Building A Scene"; R-GB-14); Wild Swing within 0..=10
/// ("Advantages").
fn attack(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let Command::Attack {
        target,
        skill,
        kind,
        options,
    } = command
    else {
        return Ok(());
    };
    let i = acting(state, seat)?;
    if options.penalty != 0 || options.counter_cards.is_some() {
        // Set only by Savage's follow-up and Counter, never by a seat.
        return Err(RuleError::forbidden(
            RULE_ADVANTAGES,
            "penalty and counter cards are not declared",
        ));
    }
    if !(0..=crate::character::MAX_TRAIT).contains(&options.wild_swing) {
        return Err(RuleError::out_of_range(
            RULE_ADVANTAGES,
            "Wild Swing",
            0,
            crate::character::MAX_TRAIT,
            options.wild_swing,
        ));
    }
    if o.c(i)?.status.must_discard > 0 {
        return Err(RuleError::forbidden(
            RULE_ADVANTAGES,
            "Ass Pull: discard two cards first",
        ));
    }
    if o.c(i)?.status.all_out_defense {
        return Err(RuleError::condition(
            RULE_ADVANTAGES,
            "All-Out Defense",
            "All-Out Defense: no actions this round",
        ));
    }
    let t = who(state, target)?;
    if t == i || !o.c(t)?.active() {
        return Err(RuleError::forbidden(
            RULE_BETTING,
            "the target must be someone else still in the Opposition",
        ));
    }
    // "Distance": "it takes a full round of movement before other
    // characters can engage the character in melee"; R-GB-14: a ranged
    // attack is not delayed.
    if let Some((name, rounds)) = &state.distance
        && *rounds > 0
        && *kind == HandKind::Physical
        && melee_skill(o.c(i)?, skill)
        && (o.c(t)?.name == *name || o.c(i)?.name == *name)
    {
        return Err(RuleError::forbidden(
            RULE_DRAMATIC,
            format!("Distance: {name} cannot be engaged in melee for {rounds} more round(s)"),
        ));
    }
    declare(o, i, t, skill, *kind, options.clone(), roller)?;
    Ok(())
}

/// `play`: the face-down card, the attacker's first, then the one affected
/// with its skill, Mind Over Matter or Counter ("Steps" 5-6, "Skill Hands in
/// Oppositions", "Advantages"); a simple hand is revealed at once ("Core
/// Mechanic"; R-GB-15).
fn play(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let Command::Play {
        card,
        skill,
        mind_over_matter,
        counter,
    } = command
    else {
        return Ok(());
    };
    let Phase::Exchange(x) = &state.phase else {
        return Err(RuleError::new(
            RULE_BETTING,
            Refusal::WrongPhase,
            "no opposed hand is in progress",
        ));
    };
    let side = if x.attacker_down.is_none() {
        Side::Attacker
    } else if x.defender_down.is_none() {
        Side::Defender
    } else {
        return Err(RuleError::new(
            RULE_BETTING,
            Refusal::WrongPhase,
            "both face-down cards are played: bet or call",
        ));
    };
    let i = if side == Side::Attacker {
        x.attacker
    } else {
        x.defender
    };
    may_command(state, seat, i)?;
    let c = o.c(i)?;
    let card = card_in_hand(c, card)?;
    let defense = if side == Side::Defender {
        Some(defense_terms(
            state,
            x,
            skill.as_deref(),
            *mind_over_matter,
            *counter,
        )?)
    } else {
        None
    };
    if defense.as_ref().is_some_and(|d| d.mind_over_matter) {
        o.need(i, &Advantage::MindOverMatter)?;
    }
    if o.c(i)?.status.next_defense.is_some()
        && side == Side::Defender
        && x.kind == HandKind::Physical
    {
        // Dodge / Serendipity last for the next physical defense draw only.
        let mut st = o.c(i)?.status.clone();
        st.next_defense = None;
        o.emit(Event::StatusChanged { who: i, status: st });
    }
    o.emit(Event::FaceDown {
        side,
        card,
        defense,
    });
    if side == Side::Defender && x.kind == HandKind::Simple {
        // "Core Mechanic": "each player simply chooses a card to play, with
        // the highest coming out better"; R-GB-15: no betting step, the
        // two cards are revealed at once.
        let Phase::Exchange(now) = &o.s().phase else {
            return Err(RuleError::forbidden(
                RULE_SIMPLE,
                "no opposed hand is in progress",
            ));
        };
        let now = now.clone();
        let (attacker, target) = (o.snapshot(now.attacker)?, o.snapshot(now.defender)?);
        reveal(o, &now, &attacker, &target, roller)?;
    }
    Ok(())
}

/// `bet`, `bet wild` and `call` by the side to act, once both face-down
/// cards are down; a simple hand takes only a call ("Steps" 6-8, "Skill
/// Hands in Oppositions"; R-GB-15).
fn bet_or_call(
    o: &mut Out,
    state: &State,
    seat: &Seat,
    command: &Command,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let Phase::Exchange(x) = &state.phase else {
        return Err(RuleError::new(
            RULE_BETTING,
            Refusal::WrongPhase,
            "no opposed hand is in progress",
        ));
    };
    if x.defender_down.is_none() {
        return Err(RuleError::new(
            RULE_BETTING,
            Refusal::WrongPhase,
            "both sides play a card face down first",
        ));
    }
    let i = if x.to_act == Side::Attacker {
        x.attacker
    } else {
        x.defender
    };
    may_command(state, seat, i).map_err(|_| {
        RuleError::new(
            RULE_BETTING,
            Refusal::NotYourTurn,
            format!(
                "it is {}'s bet",
                state.combatants.get(i).map_or("", |c| c.name.as_str())
            ),
        )
    })?;
    if x.kind == HandKind::Simple && *command != Command::Call {
        return Err(RuleError::forbidden(
            RULE_SIMPLE,
            "a simple hand is one card each: no bets and no raises",
        ));
    }
    match command {
        Command::Bet { card } => bet(o, x, i, card),
        Command::BetWild => bet_wild(o, state, x, i, roller),
        _ => call(o, x, roller),
    }
}

/// `bet CARD`: a card of the hand face up, while the skill's ranks allow
/// ("Skill Hands in Oppositions").
fn bet(o: &mut Out, x: &Exchange, i: usize, card: &str) -> Result<(), RuleError> {
    let limit = if x.to_act == Side::Attacker {
        x.attacker_limit
    } else {
        x.defender_limit
    };
    if limit <= 0 {
        return Err(RuleError::already_used(
            RULE_BETTING,
            "face up cards",
            "no more face-up cards from the hand: as many as the ranks in the skill (a Wildcard may still be bet)",
        ));
    }
    let card = card_in_hand(o.c(i)?, card)?;
    o.emit(Event::FaceUp {
        side: x.to_act,
        card,
        wild: None,
    });
    Ok(())
}

/// `bet wild`: a Wildcard spent on a card drawn and bet face up, past the
/// skill's limit ("Jokers – Unbound by Fate"; R-GB-3).
fn bet_wild(
    o: &mut Out,
    state: &State,
    x: &Exchange,
    i: usize,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    // The Wildcard spent does not change the shoe: draw first.
    o.has_wildcard(i, "a card bet face up")?;
    no_card_left(&state.shoe)?;
    let steps = deck::draw_from(&state.shoe, roller, 1)?;
    o.spend_wildcard(i, "a card bet face up")?;
    let card = deck::cards(&steps)
        .first()
        .copied()
        .ok_or_else(|| RuleError::forbidden(RULE_WILDCARD, "no card drawn"))?;
    o.emit(Event::FaceUp {
        side: x.to_act,
        card,
        wild: Some(steps),
    });
    Ok(())
}

/// `call`: when both sides have called, the hand is revealed and settled
/// ("Steps" 8-9).
fn call(o: &mut Out, x: &Exchange, roller: &mut dyn Roller) -> Result<(), RuleError> {
    // The two sides as they stand (a call changes neither).
    let sides = if x.called {
        Some((o.snapshot(x.attacker)?, o.snapshot(x.defender)?))
    } else {
        None
    };
    o.emit(Event::Called { side: x.to_act });
    if let Some((attacker, target)) = sides {
        reveal(o, x, &attacker, &target, roller)?;
    }
    Ok(())
}
