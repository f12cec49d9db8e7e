//! Skill Checks: the Fate Draw against a Skill Hand ("Building A Scene",
//! "Skill Hand"; R-GB-6).

use super::*;

/// The commands of this module (`Fate`); any other is left to the
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
    if let Command::Fate {
        who: name,
        skill,
        trait_used,
        modifier,
        acrobat,
        specialty,
    } = command
    {
        let i = who(state, name)?;
        // "Skill Check": any player may ask for it; the character's own seat
        // draws it (the Dealer draws for the Dealer's characters).
        may_command(state, seat, i)?;
        if !matches!(state.phase, Phase::Scene | Phase::Turn { drawn: true, .. }) {
            return Err(RuleError::new(
                fate::RULE_SKILL_HAND,
                Refusal::WrongPhase,
                "a Skill Check is made outside an opposed hand",
            ));
        }
        let ask = FateAsk {
            skill,
            trait_used: *trait_used,
            modifier: *modifier,
            acrobat: *acrobat,
            specialty: specialty.as_deref(),
        };
        fate_draw(o, i, ask, roller)?;
    }
    Ok(())
}

/// What a Skill Check asks for.
pub(crate) struct FateAsk<'a> {
    pub(crate) skill: &'a str,
    pub(crate) trait_used: Trait,
    pub(crate) modifier: i64,
    pub(crate) acrobat: bool,
    pub(crate) specialty: Option<&'a str>,
}

pub(crate) fn fate_draw(
    o: &mut Out,
    i: usize,
    ask: FateAsk<'_>,
    roller: &mut dyn Roller,
) -> Result<(), RuleError> {
    let FateAsk {
        skill,
        trait_used,
        modifier,
        acrobat,
        specialty,
    } = ask;
    let c = o.snapshot(i)?;
    let hand = skill_hand(
        &c,
        &FateAsk {
            skill,
            trait_used,
            modifier,
            acrobat,
            specialty,
        },
    )?;
    if acrobat {
        o.need(i, &Advantage::Acrobat)?;
    }
    let ch = c.character().ok_or_else(|| {
        RuleError::forbidden(fate::RULE_SKILL_HAND, "only a Fated makes a Skill Check")
    })?;
    // "Shuffling": the cards of both sides must be there to draw.
    let need = hand.player_draws().saturating_add(hand.dealer_draws());
    let left = deck::drawable(&o.s().shoe);
    if left < need {
        return Err(RuleError::forbidden(
            fate::RULE_SKILL_HAND,
            format!(
                "this Skill Check draws {need} cards and {left} are left to draw (the rest are in hands or on the table)"
            ),
        ));
    }
    // A Skill Hand draws from a copy of the shoe: the event replays the draw.
    let mut shoe = o.s().shoe.clone();
    let what = format!("Skill Hand ({skill})");
    let result = fate::play_skill_hand_for(hand, ch.name(), &what, &mut shoe, roller)?;
    o.emit(Event::FateDrawn {
        who: i,
        skill: skill.to_string(),
        result: Box::new(result),
    });
    Ok(())
}

/// The Skill Hand `c` plays for `ask` ("Skill Hand"; R-GB-6): rank cards (more
/// with Acrobat), the Trait (Spirit or Luck in Desperation), the Difficulty
/// Modifier and a Specialty's rank.
///
/// # Errors
/// Not a Fated, an unknown skill or Specialty.
pub(crate) fn skill_hand(c: &Combatant, ask: &FateAsk<'_>) -> Result<SkillHand, RuleError> {
    let Some(ch) = c.character() else {
        return Err(RuleError::forbidden(
            fate::RULE_SKILL_HAND,
            "Followers and Extras make no Skill Checks here; their Power Rating stands in",
        ));
    };
    let rank = ch
        .skill(ask.skill)
        .ok_or_else(|| unknown_skill(fate::RULE_SKILL_HAND, ch, ask.skill))?;
    let mut t = ch.trait_score(ask.trait_used);
    if c.desperate() {
        t = ch
            .trait_score(Trait::Spirit)
            .max(ch.trait_score(Trait::Luck));
    }
    let mut r = rank;
    if ask.acrobat {
        // Discarding up to Body cards and drawing as many: only the best card is
        // played, so this is the same as drawing that many more (never the best).
        r += ch.trait_score(Trait::Body).min((rank - 1).max(0));
    }
    Ok(SkillHand {
        trait_score: t.clamp(1, fate::MAX_TRAIT),
        rank: r.min(fate::MAX_RANK),
        modifier: ask.modifier,
        specialty: match ask.specialty {
            Some(sp) => ch
                .specialty_rank(sp)
                .ok_or_else(|| unknown_specialty(fate::RULE_SKILL_HAND, ch, sp))?
                .min(fate::MAX_SPECIALTY),
            None => 0,
        },
    })
}

/// Whether `c` can make a Skill Check with `skill` off `trait_used` now, as far
/// as cards go: the deck and the discard pile hold the cards of both sides
/// ("Shuffling"). For the legal commands (`use W calm`).
pub fn fate_cards_left(s: &State, c: &Combatant, skill: &str, trait_used: Trait) -> bool {
    let ask = FateAsk {
        skill,
        trait_used,
        modifier: 0,
        acrobat: false,
        specialty: None,
    };
    skill_hand(c, &ask)
        .is_ok_and(|h| deck::drawable(&s.shoe) >= h.player_draws().saturating_add(h.dealer_draws()))
}
