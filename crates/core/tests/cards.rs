//! The shoe never loses or duplicates a physical card, whatever is done to it.

use proptest::prelude::*;
use std::collections::BTreeSet;
use tabula_core::cards::MAX_DECKS;
use tabula_core::{Card, CardId, Seeded, Shoe};

#[derive(Clone, Debug)]
enum Op {
    Draw,
    /// Discard the held card at this index (modulo the hand size).
    Discard(usize),
    /// Try to discard a card that is not out (drawn from a fresh shoe's pile).
    DiscardStranger(usize),
    Reshuffle,
    RecallAll,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Draw),
        4 => any::<usize>().prop_map(Op::Discard),
        1 => any::<usize>().prop_map(Op::DiscardStranger),
        1 => Just(Op::Reshuffle),
        1 => Just(Op::RecallAll),
    ]
}

/// Every card id of the shoe is in exactly one of pile, discards and out, and
/// the hand the test holds is exactly the cards out.
fn check(shoe: &Shoe, hand: &[Card]) -> Result<(), TestCaseError> {
    let mut seen = BTreeSet::new();
    for c in shoe.pile().iter().chain(shoe.discards()).chain(hand) {
        prop_assert!(seen.insert(c.id), "card {:?} is in two places", c.id);
    }
    prop_assert_eq!(shoe.out_count(), hand.len());
    prop_assert_eq!(seen.len(), shoe.size());
    let all: BTreeSet<CardId> = (0..shoe.size() as u16).map(CardId).collect();
    prop_assert_eq!(seen, all);
    Ok(())
}

proptest! {
    #[test]
    fn no_card_is_lost_or_duplicated(
        decks in 1..=MAX_DECKS,
        jokers in any::<bool>(),
        seed in any::<u64>(),
        ops in proptest::collection::vec(op(), 0..150),
    ) {
        let mut shoe = Shoe::new(decks, jokers).unwrap();
        let size = shoe.size();
        prop_assert_eq!(size, usize::from(decks) * if jokers { 54 } else { 52 });
        let fresh = shoe.clone();
        let mut roller = Seeded::from_seed(seed);
        let mut hand: Vec<Card> = Vec::new();
        for op in ops {
            match op {
                Op::Draw => match shoe.draw(&mut roller) {
                    Ok(card) => hand.push(card),
                    Err(_) => prop_assert!(shoe.pile().is_empty()),
                },
                Op::Discard(i) if !hand.is_empty() => {
                    let card = hand.remove(i % hand.len());
                    prop_assert!(shoe.discard(card).is_ok());
                }
                Op::Discard(_) => {}
                Op::DiscardStranger(i) => {
                    let stranger = fresh.pile()[i % fresh.pile().len()];
                    if !hand.iter().any(|c| c.id == stranger.id) {
                        let before = shoe.clone();
                        prop_assert!(shoe.discard(stranger).is_err());
                        prop_assert_eq!(&shoe, &before, "a refused discard changed the shoe");
                    }
                }
                Op::Reshuffle => shoe.reshuffle_discards(),
                Op::RecallAll => {
                    let recalled: BTreeSet<CardId> = shoe.recall_all().into_iter().collect();
                    let held: BTreeSet<CardId> = hand.drain(..).map(|c| c.id).collect();
                    prop_assert_eq!(recalled, held);
                    prop_assert_eq!(shoe.pile().len(), size);
                }
            }
            prop_assert_eq!(shoe.size(), size);
            check(&shoe, &hand)?;
        }
    }
}
