//! Initiative for newcomers, the round's order and the end of a turn
//! ("Initiative", "Steps" 10-12; R-GB-2).

use super::*;

/// Someone who enters mid-Opposition plays the lowest card of the hand just drawn
/// as initiative (a Tabula decision: the book does not say).
pub(crate) fn auto_initiative(o: &mut Out, k: usize) -> Result<(), RuleError> {
    let card = o
        .c(k)?
        .hand
        .iter()
        .min_by_key(|c| {
            values::initiative_value(c.face).unwrap_or(99) * 4
                + values::suit_of(c.face).map_or(0, |s| i64::from(values::suit_order(s)))
        })
        .copied();
    if let Some(card) = card {
        o.emit(Event::Initiative { who: k, card });
    }
    Ok(())
}

/// Whether the round waits for `c`'s initiative card: in the Opposition, none
/// played yet, and a card in hand to play ("Initiative"). One dealt no card
/// (every card of the shoe is in a hand or on the table) acts last.
pub(crate) fn awaits_initiative(c: &Combatant) -> bool {
    c.active() && c.initiative.is_none() && !c.hand.is_empty()
}

pub(crate) fn init_key(c: &Combatant, i: usize) -> (i64, u8, usize) {
    match c.initiative {
        Some(card) => (
            values::initiative_value(card.face).unwrap_or(99),
            values::suit_of(card.face).map_or(0, values::suit_order),
            i,
        ),
        None => (99, 9, i),
    }
}

pub(crate) fn start_round(o: &mut Out) {
    let s = o.people();
    let mut order: Vec<usize> = (0..s.combatants.len())
        .filter(|i| s.combatants.get(*i).is_some_and(Combatant::active))
        .collect();
    order.sort_by_key(|i| {
        s.combatants
            .get(*i)
            .map_or((99, 9, *i), |c| init_key(c, *i))
    });
    let first = order
        .iter()
        .copied()
        .find(|i| s.combatants.get(*i).is_some_and(|c| !c.status.sacrificed));
    let any = order.first().copied();
    let round = s.round + 1;
    o.emit(Event::Order { order });
    match (first, any) {
        (Some(f), _) => o.emit(Event::TurnBegan { who: f }),
        (None, Some(f)) => {
            // Everyone gave up this round's action: the round ends at once
            // (an order changes no round).
            o.emit(Event::RoundEnded { round });
            o.emit(Event::TurnBegan { who: f });
        }
        (None, None) => {
            o.emit(Event::OppositionEnded);
            o.emit(Event::Shuffled);
        }
    }
}

pub(crate) fn end_turn(o: &mut Out) {
    o.emit(Event::TurnEnded);
    let s = o.people();
    let next = s
        .order
        .iter()
        .skip(s.turn + 1)
        .find(|i| {
            s.combatants
                .get(**i)
                .is_some_and(|c| c.active() && !c.status.sacrificed)
        })
        .copied();
    let round = s.round + 1;
    match next {
        Some(n) => o.emit(Event::TurnBegan { who: n }),
        None => {
            o.emit(Event::RoundEnded { round });
            start_round(o);
        }
    }
}

/// Give up this round's action: now, if it is the character's own action (the
/// caller ends the turn: returns true); later, if its turn is still to come this
/// round (marked, the turn is skipped: returns false).
///
/// # Errors
/// When the character has already acted this round or is acting in an exchange.
pub(crate) fn sacrifice_action(o: &mut Out, i: usize) -> Result<bool, RuleError> {
    if own_action(o, i).is_ok() {
        return Ok(true);
    }
    let s = o.s();
    let later = match &s.phase {
        Phase::Initiative => true,
        Phase::Turn { actor, .. } => {
            *actor != i && s.order.iter().skip(s.turn + 1).any(|k| *k == i)
        }
        Phase::Exchange(x) => x.attacker != i && s.order.iter().skip(s.turn + 1).any(|k| *k == i),
        Phase::Scene => false,
    };
    if !later {
        return Err(RuleError::already_used(
            RULE_ADVANTAGES,
            "action",
            "the action of this round is already taken (or under way)",
        ));
    }
    let mut st = o.c(i)?.status.clone();
    st.sacrificed = true;
    o.emit(Event::StatusChanged { who: i, status: st });
    Ok(false)
}
