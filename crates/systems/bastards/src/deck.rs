//! Drawing from the shoe with the book's Jokers and running out of cards.
//!
//! A Game of Bastards, "Shuffling" and "Jokers – Unbound by Fate"
//! (003_2dfeea144768d328.txt); R-GB-1, R-GB-3: a drawn Joker leaves the hand at
//! once, its holder gains a Wildcard, the draw is finished with a replacement card,
//! then the discard pile is shuffled into the deck. When the deck runs out in a
//! sustained Opposition the discards are shuffled back in (the other choice the book
//! gives, stopping, is the `end` command).

use serde::{Deserialize, Serialize};
use tabula_core::cards::{Card, Shoe};
use tabula_core::roller::{RollError, Roller};

/// The most cards one draw may ask for (a cap on user-given counts).
pub const MAX_DRAW: usize = 60;

/// One thing that happened while drawing, in order, so replaying the steps
/// rebuilds the shoe exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawStep {
    /// A card went into the hand.
    Card(Card),
    /// A Joker was drawn: it left the hand at once (to the discards) and its holder
    /// gained a Wildcard (R-GB-3).
    Joker(Card),
    /// The discard pile was shuffled back into the deck (after a Joker, or because
    /// the deck ran out).
    Reshuffle,
}

/// The cards that went into the hand.
pub fn cards(steps: &[DrawStep]) -> Vec<Card> {
    steps
        .iter()
        .filter_map(|s| match s {
            DrawStep::Card(c) => Some(*c),
            _ => None,
        })
        .collect()
}

/// How many Jokers were drawn (Wildcards gained).
pub fn jokers(steps: &[DrawStep]) -> u32 {
    steps
        .iter()
        .filter(|s| matches!(s, DrawStep::Joker(_)))
        .count() as u32
}

/// Draw `n` cards (capped at [`MAX_DRAW`]) into a hand from `shoe`, replacing each
/// Joker (R-GB-3); when the deck is empty the discards are shuffled back in.
///
/// # Errors
/// [`RollError::EmptyPile`] when neither the deck nor the discards hold a card;
/// whatever the roller reports.
pub fn draw(
    shoe: &mut Shoe,
    roller: &mut dyn Roller,
    n: usize,
) -> Result<Vec<DrawStep>, RollError> {
    let steps = draw_from(shoe, roller, n)?;
    apply(shoe, &steps);
    Ok(steps)
}

/// The steps of drawing `n` cards from `shoe` (capped at [`MAX_DRAW`]) into a
/// hand, replacing each Joker (R-GB-3) and shuffling the discards back in when
/// the deck is empty, without changing the shoe: [`apply`] then brings it to
/// where [`draw`] leaves it. Only the draw pile and the discard pile are
/// copied. Every iteration either adds a card, or discards one of the shoe's
/// few Jokers, or reshuffles a non-empty discard pile; the bound is generous.
///
/// # Errors
/// As [`draw`].
pub fn draw_from(
    shoe: &Shoe,
    roller: &mut dyn Roller,
    n: usize,
) -> Result<Vec<DrawStep>, RollError> {
    let n = n.min(MAX_DRAW);
    let mut pile = shoe.pile().to_vec();
    let mut discards = shoe.discards().to_vec();
    let reshuffle = |pile: &mut Vec<Card>, discards: &mut Vec<Card>| {
        pile.append(discards);
        pile.sort_by_key(|c| c.id);
    };
    let mut steps = Vec::new();
    let mut got = 0;
    let mut joker_seen = false;
    let mut budget = n * 3 + 64;
    while got < n {
        if budget == 0 {
            return Err(RollError::EmptyPile);
        }
        budget -= 1;
        if pile.is_empty() {
            if discards.is_empty() {
                return Err(RollError::EmptyPile);
            }
            reshuffle(&mut pile, &mut discards);
            steps.push(DrawStep::Reshuffle);
            continue;
        }
        // As `Shoe::draw`: the roller picks an index of the pile.
        let i = roller.draw(&pile)?;
        if i >= pile.len() {
            return Err(RollError::EmptyPile);
        }
        let card = pile.remove(i);
        if card.face.is_joker() {
            discards.push(card);
            steps.push(DrawStep::Joker(card));
            joker_seen = true;
        } else {
            steps.push(DrawStep::Card(card));
            got += 1;
        }
    }
    if joker_seen {
        steps.push(DrawStep::Reshuffle);
    }
    Ok(steps)
}

/// How many cards a hand can still get from `shoe`: the cards that are not
/// Jokers in the deck and in the discard pile (which is shuffled back in when
/// the deck runs out; a Joker is always replaced, R-GB-3). Drawing at most this
/// many never fails for want of cards.
///
/// A Game of Bastards, "Shuffling": when the deck runs out the discards are
/// shuffled back in; when there are none either (every card is in a hand or on
/// the table) nothing more can be drawn and the hand is played with what is held
/// (a Tabula decision, `docs/systems/bastards.md`).
pub fn drawable(shoe: &Shoe) -> usize {
    shoe.pile()
        .iter()
        .chain(shoe.discards().iter())
        .filter(|c| !c.face.is_joker())
        .count()
}

/// Replay drawn steps on a shoe (for `evolve`): never rolls, never fails.
pub fn apply(shoe: &mut Shoe, steps: &[DrawStep]) {
    for step in steps {
        match step {
            DrawStep::Card(c) => {
                shoe.take(*c);
            }
            DrawStep::Joker(c) => {
                shoe.take(*c);
                let _ = shoe.discard(*c);
            }
            DrawStep::Reshuffle => shoe.reshuffle_discards(),
        }
    }
}

/// Put cards that are out onto the discard pile (cards not out are skipped).
pub fn discard_all(shoe: &mut Shoe, cards: &[Card]) {
    for c in cards {
        let _ = shoe.discard(*c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::roller::Seeded;

    #[test]
    fn an_empty_deck_takes_the_discards_back_and_replay_matches() {
        let mut shoe = Shoe::new(2, true).unwrap();
        let mut r = Seeded::from_seed(5);
        let mut replayed = shoe.clone();
        // Draw the whole shoe into one hand (Jokers are replaced), discard it all.
        let mut steps = draw(&mut shoe, &mut r, 104).unwrap();
        assert_eq!(cards(&steps).len(), MAX_DRAW, "capped");
        steps.extend(draw(&mut shoe, &mut r, 44).unwrap());
        apply(&mut replayed, &steps);
        assert_eq!(cards(&steps).len(), 104);
        assert!(
            jokers(&steps) >= 4,
            "every Joker came out (and may come again)"
        );
        assert_eq!(shoe, replayed);
        let held = cards(&steps);
        discard_all(&mut shoe, &held[..50]);
        discard_all(&mut replayed, &held[..50]);
        // The deck (the four Jokers went back in after the draw) runs out: the
        // discards are shuffled back in to finish the draw.
        let more = draw(&mut shoe, &mut r, 10).unwrap();
        assert!(more.contains(&DrawStep::Reshuffle));
        assert_eq!(cards(&more).len(), 10);
        apply(&mut replayed, &more);
        assert_eq!(shoe, replayed);
        // Nothing left anywhere: refused.
        let mut empty = Shoe::new(1, false).unwrap();
        let all = draw(&mut empty, &mut r, 52).unwrap();
        assert_eq!(cards(&all).len(), 52);
        assert!(draw(&mut empty, &mut r, 1).is_err());
    }

    #[test]
    fn draw_from_gives_the_steps_draw_gives_and_leaves_the_shoe_alone() {
        // Many draws from one shoe, with discards so the deck runs out and the
        // Jokers come out: `draw_from` + `apply` is `draw`, step for step.
        for seed in 0..20 {
            let mut shoe = Shoe::new(2, true).unwrap();
            let (mut a, mut b) = (Seeded::from_seed(seed), Seeded::from_seed(seed));
            for n in [5usize, 1, 7, 30, 20, 3, 60, 12] {
                let before = shoe.clone();
                let from = draw_from(&shoe, &mut a, n);
                assert_eq!(shoe, before, "draw_from changes nothing");
                let mut drawn = shoe.clone();
                let steps = draw(&mut drawn, &mut b, n);
                assert_eq!(from, steps);
                let Ok(steps) = steps else { break };
                apply(&mut shoe, &steps);
                assert_eq!(shoe, drawn);
                let held = cards(&steps);
                discard_all(&mut shoe, &held[..held.len() / 2]);
            }
        }
        let mut empty = Shoe::new(1, false).unwrap();
        let mut r = Seeded::from_seed(1);
        let all = draw(&mut empty, &mut r, 52).unwrap();
        assert_eq!(cards(&all).len(), 52);
        assert!(draw_from(&empty, &mut r, 1).is_err());
    }
}
