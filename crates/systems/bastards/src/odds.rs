//! Odds in the betting step, from what a seat may see (R-GB-2, R-GB-11,
//! R-GB-12), and percent as the terminal writes it.

use tabula_core::system::Seat;

use crate::state::{Phase, Side, State};
use crate::{deck, values};

/// In the betting step, the chance that `seat`'s side wins if both call now: the
/// other side's face-down card is any card the seat cannot see (the 104 non-Joker
/// cards less the seat's own hands, its face-down card, and every card on the
/// table: face-up cards and initiative cards), equally likely. The discard pile
/// is face down (R-GB-12: only what the book puts on the table is seen), so its
/// cards count as unknown. `None` outside betting or for a seat not in the
/// exchange. The attacker's side when the seat plays both.
pub fn lead_chance(s: &State, seat: &Seat) -> Option<f64> {
    let Phase::Exchange(x) = &s.phase else {
        return None;
    };
    let owns = |i: usize| s.combatants.get(i).is_some_and(|c| c.controlled_by(seat));
    let side = if owns(x.attacker) {
        Side::Attacker
    } else if owns(x.defender) {
        Side::Defender
    } else {
        return None;
    };
    lead_chance_after(s, seat, side, BetMove::Call)
}

/// A move of the betting step ("Steps" 6-8, "Skill Hands in Oppositions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BetMove<'a> {
    /// Call: the cards stay as they are.
    Call,
    /// Bet this card of the hand face up.
    Bet(&'a tabula_core::cards::Card),
    /// Spend a Wildcard: draw a card (one the seat cannot see) and bet it face up
    /// (R-GB-3).
    BetWild,
}

/// The chance that `side` (played by `seat`) wins if both call after `mv`,
/// from what `seat` may see (R-GB-12): the other side's face-down card, and
/// for [`BetMove::BetWild`] the drawn card, are cards the seat cannot see,
/// equally likely, drawn without replacement from the 104 non-Joker cards
/// (R-GB-11) less the seat's own hands, its side's face-down card and every
/// card on the table (face-up and initiative cards). Exact counts; `None`
/// outside betting (both face-down cards played), or for a seat that does not
/// play `side`.
///
/// A Game of Bastards, "Skill Hands in Oppositions", "Steps" 5-9
/// (003_2dfeea144768d328.txt); R-GB-2, R-GB-3, R-GB-11, R-GB-12.
pub fn lead_chance_after(s: &State, seat: &Seat, side: Side, mv: BetMove<'_>) -> Option<f64> {
    let Phase::Exchange(x) = &s.phase else {
        return None;
    };
    let (attacker_down, defender_down) = (x.attacker_down?, x.defender_down?);
    let aggressor = side == Side::Attacker;
    let me = if aggressor { x.attacker } else { x.defender };
    if !s.combatants.get(me).is_some_and(|c| c.controlled_by(seat)) {
        return None;
    }
    let (my_down, my_up, my_bonus, their_up, their_bonus) = if aggressor {
        (
            attacker_down,
            &x.attacker_up,
            x.attacker_bonus,
            &x.defender_up,
            x.defender_bonus,
        )
    } else {
        (
            defender_down,
            &x.defender_up,
            x.defender_bonus,
            &x.attacker_up,
            x.attacker_bonus,
        )
    };
    // The cards the seat cannot see, by strength key: two of each (R-GB-1,
    // R-GB-11) less every card it has seen.
    let mut counts = vec![2u64; 52];
    let mut seen = |c: &tabula_core::cards::Card| {
        if let Some(k) = values::key(c.face).and_then(|k| usize::try_from(k).ok())
            && let Some(n) = counts.get_mut(k)
        {
            *n = n.saturating_sub(1);
        }
    };
    for c in s.combatants.iter().filter(|c| c.controlled_by(seat)) {
        c.hand.iter().for_each(&mut seen);
    }
    for c in &s.combatants {
        c.initiative.iter().for_each(&mut seen);
    }
    x.attacker_up
        .iter()
        .chain(x.defender_up.iter())
        .for_each(&mut seen);
    seen(&my_down);
    let sum = |cards: &[tabula_core::cards::Card]| -> i64 {
        cards
            .iter()
            .filter_map(|c| values::value(c.face))
            .fold(0i64, i64::saturating_add)
    };
    let face_value = |f| values::value(f).unwrap_or(0);
    let base = face_value(my_down.face)
        .saturating_add(sum(my_up))
        .saturating_add(my_bonus);
    let their_base = sum(their_up).saturating_add(their_bonus);
    // Each key's value and suit, once.
    let faces: Vec<(i64, Option<tabula_core::cards::Suit>)> = (0..counts.len())
        .map(|k| {
            let face = crate::chance::face_of_key(k);
            (face_value(face), values::suit_of(face))
        })
        .collect();
    let my_suit = values::suit_of(my_down.face);
    // Wins and outcomes, weighted by how many unseen cards give each.
    let won = |mine: i64, k: usize| {
        let (value, suit) = faces.get(k).copied().unwrap_or((0, None));
        let mine = values::Total {
            total: mine,
            suit: my_suit,
        };
        let theirs = values::Total {
            total: value.saturating_add(their_base),
            suit,
        };
        if aggressor {
            values::aggressor_wins(mine, theirs)
        } else {
            !values::aggressor_wins(theirs, mine)
        }
    };
    let tally = |mine: i64, counts: &[u64], weight: u64, wins: &mut u64, total: &mut u64| {
        for (k, n) in counts.iter().enumerate() {
            let w = n.saturating_mul(weight);
            if w == 0 {
                continue;
            }
            *total = total.saturating_add(w);
            if won(mine, k) {
                *wins = wins.saturating_add(w);
            }
        }
    };
    let (mut wins, mut total) = (0u64, 0u64);
    match mv {
        BetMove::Call => tally(base, &counts, 1, &mut wins, &mut total),
        BetMove::Bet(card) => tally(
            base.saturating_add(face_value(card.face)),
            &counts,
            1,
            &mut wins,
            &mut total,
        ),
        BetMove::BetWild => {
            // The drawn card of key k leaves the unseen cards for the other
            // side's face-down card: one count less, put back after.
            let mut rest = counts.clone();
            for (k, n) in counts.iter().enumerate() {
                if *n == 0 {
                    continue;
                }
                if let Some(r) = rest.get_mut(k) {
                    *r = n.saturating_sub(1);
                }
                let drawn = faces.get(k).map_or(0, |(v, _)| *v);
                tally(base.saturating_add(drawn), &rest, *n, &mut wins, &mut total);
                if let Some(r) = rest.get_mut(k) {
                    *r = *n;
                }
            }
        }
    }
    (total > 0).then(|| wins as f64 / total as f64)
}

/// The odds of each betting move in front of `seat`: when it is the turn of a
/// side the seat plays to bet (both face-down cards on the table), `call` (the
/// lead chance status prints), `bet CARD` for each card of the hand it may bet,
/// and `bet wild` when it has a Wildcard, each the chance of winning if both
/// call after it ([`lead_chance_after`]: only cards the seat has seen count as
/// known, R-GB-12). Nothing for any other seat or moment (the face-down card
/// is chosen before the other side's bonus is known).
///
/// A Game of Bastards, "Skill Hands in Oppositions", "Steps" 6-9
/// (003_2dfeea144768d328.txt); R-GB-2, R-GB-3, R-GB-11, R-GB-12.
pub fn bet_odds(s: &State, seat: &Seat) -> Vec<tabula_core::system::ChoiceOdds> {
    use tabula_core::system::ChoiceOdds;
    let mut out = Vec::new();
    let Phase::Exchange(x) = &s.phase else {
        return out;
    };
    if x.attacker_down.is_none() || x.defender_down.is_none() {
        return out;
    }
    let side = x.to_act;
    let i = if side == Side::Attacker {
        x.attacker
    } else {
        x.defender
    };
    let Some(c) = s.combatants.get(i).filter(|c| c.controlled_by(seat)) else {
        return out;
    };
    let detail = |when: &str, wild: bool| {
        format!(
            "{} wins if both call {when} (the other face-down card{} any card you have not seen)",
            c.name,
            if wild {
                " and the drawn card are"
            } else {
                " is"
            }
        )
    };
    if let Some(p) = lead_chance_after(s, seat, side, BetMove::Call) {
        out.push(ChoiceOdds {
            choice: "call".into(),
            probability: p.clamp(0.0, 1.0),
            detail: detail("now", false),
        });
    }
    let limit = if side == Side::Attacker {
        x.attacker_limit
    } else {
        x.defender_limit
    };
    if limit > 0 {
        let mut offered: Vec<tabula_core::cards::Face> = Vec::new();
        for card in &c.hand {
            if offered.contains(&card.face) {
                continue;
            }
            offered.push(card.face);
            if let Some(p) = lead_chance_after(s, seat, side, BetMove::Bet(card)) {
                out.push(ChoiceOdds {
                    choice: format!("bet {card}"),
                    probability: p.clamp(0.0, 1.0),
                    detail: detail(&format!("after betting {card} face up"), false),
                });
            }
        }
    }
    if c.wildcards > 0
        && deck::drawable(&s.shoe) > 0
        && let Some(p) = lead_chance_after(s, seat, side, BetMove::BetWild)
    {
        out.push(ChoiceOdds {
            choice: "bet wild".into(),
            probability: p.clamp(0.0, 1.0),
            detail: detail("after betting the Wildcard's card face up", true),
        });
    }
    out
}

/// A probability (`0.0..=1.0`) as the terminal writes every chance: percent
/// with one decimal (`80.4%`).
pub fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}
