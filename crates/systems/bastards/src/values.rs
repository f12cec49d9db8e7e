//! Card values and ties: A Game of Bastards, "Combat" (003_2dfeea144768d328.txt);
//! R-GB-1, R-GB-2.
//!
//! Pips count their number, J = 11, Q = 12, K = 13, A = 14 (A = 1 when played for
//! initiative). Equal totals break by the suit of the card played, Clubs < Spades <
//! Hearts < Diamonds; identical cards tie, and a tie goes to the defender (in a Fate
//! Draw, the Dealer).

use serde::{Deserialize, Serialize};
use tabula_core::cards::{Card, Face, Rank, Suit};
use tabula_core::rule::Rule;

/// The seed file of the book.
pub const SEED: &str = "003_2dfeea144768d328.txt";

/// R-GB-1: the shoe is two standard decks with their Jokers (108 cards).
pub const RULE_SHOE: Rule = Rule::book(crate::BOOK, "Shuffling").ruling("R-GB-1");
/// R-GB-2: card values and ties.
pub const RULE_VALUES: Rule = Rule::book(crate::BOOK, "Combat").ruling("R-GB-2");
/// R-GB-3: Jokers.
pub const RULE_JOKERS: Rule = Rule::book(crate::BOOK, "Jokers – Unbound by Fate").ruling("R-GB-3");

/// The number of standard decks in the shoe (R-GB-1).
pub const DECKS: u8 = 2;

/// The value of a card in a hand: 2..=10, J 11, Q 12, K 13, A 14. `None` for a
/// Joker, which never stays in a hand (R-GB-3).
///
/// A Game of Bastards, "Combat" (003_2dfeea144768d328.txt); R-GB-2.
pub fn value(face: Face) -> Option<i64> {
    match face {
        Face::Standard { rank, .. } => Some(i64::from(rank.number())),
        Face::Joker(_) => None,
    }
}

/// The value of a card played for initiative: as [`value`], but the Ace is 1.
///
/// A Game of Bastards, "Combat" and "Initiative" (003_2dfeea144768d328.txt); R-GB-2.
pub fn initiative_value(face: Face) -> Option<i64> {
    match face {
        Face::Standard {
            rank: Rank::Ace, ..
        } => Some(1),
        other => value(other),
    }
}

/// The suit's place in the tie order, Clubs 0 < Spades 1 < Hearts 2 < Diamonds 3
/// (R-GB-2).
pub fn suit_order(suit: Suit) -> u8 {
    match suit {
        Suit::Clubs => 0,
        Suit::Spades => 1,
        Suit::Hearts => 2,
        Suit::Diamonds => 3,
    }
}

/// The suit of a standard card, `None` for a Joker.
pub fn suit_of(face: Face) -> Option<Suit> {
    match face {
        Face::Standard { suit, .. } => Some(suit),
        Face::Joker(_) => None,
    }
}

/// A card's strength key for choosing the best card of a hand: value first, then
/// suit (0..=51 for standard cards; Jokers have none).
pub fn key(face: Face) -> Option<i64> {
    let v = value(face)?;
    let s = suit_of(face)?;
    Some((v - 2) * 4 + i64::from(suit_order(s)))
}

/// The best card of `cards` to play (highest value, then highest suit), ignoring
/// Jokers. `None` when there is no standard card.
pub fn best(cards: &[Card]) -> Option<Card> {
    cards
        .iter()
        .filter_map(|c| key(c.face).map(|k| (k, *c)))
        .max_by_key(|(k, _)| *k)
        .map(|(_, c)| c)
}

/// One side's total in an opposed hand: the sum of its cards plus its bonus, and
/// the suit that breaks ties (the highest card's suit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Total {
    /// Card values plus bonuses.
    pub total: i64,
    /// The suit that breaks an equal total, `None` when no card was played.
    pub suit: Option<Suit>,
}

/// Whether the aggressor's total beats the defender's: a higher total wins; an
/// equal total goes to the higher suit (Clubs < Spades < Hearts < Diamonds); the
/// same suit (identical cards) goes to the defender.
///
/// A Game of Bastards, "Combat" (003_2dfeea144768d328.txt); R-GB-2.
pub fn aggressor_wins(aggressor: Total, defender: Total) -> bool {
    if aggressor.total != defender.total {
        return aggressor.total > defender.total;
    }
    let a = aggressor.suit.map(suit_order);
    let d = defender.suit.map(suit_order);
    a > d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Face {
        match s.parse::<tabula_core::cards::CardSpec>() {
            Ok(tabula_core::cards::CardSpec::Face(f)) => f,
            _ => panic!("bad card {s}"),
        }
    }

    #[test]
    fn values_follow_r_gb_2() {
        assert_eq!(value(f("2C")), Some(2));
        assert_eq!(value(f("10H")), Some(10));
        assert_eq!(value(f("JS")), Some(11));
        assert_eq!(value(f("QD")), Some(12));
        assert_eq!(value(f("KC")), Some(13));
        assert_eq!(value(f("AC")), Some(14));
        assert_eq!(initiative_value(f("AC")), Some(1));
        assert_eq!(initiative_value(f("KC")), Some(13));
        assert_eq!(value(f("JR")), None);
    }

    #[test]
    fn ties_break_by_suit_and_identical_cards_go_to_the_defender() {
        let t = |total, s: &str| Total {
            total,
            suit: Suit::parse(s),
        };
        assert!(aggressor_wins(t(12, "S"), t(12, "C")));
        assert!(!aggressor_wins(t(12, "S"), t(12, "H")));
        assert!(aggressor_wins(t(12, "D"), t(12, "H")));
        assert!(!aggressor_wins(t(12, "D"), t(12, "D")));
        assert!(aggressor_wins(t(13, "C"), t(12, "D")));
    }

    #[test]
    fn the_shoe_holds_108_cards() {
        let shoe = tabula_core::cards::Shoe::new(DECKS, true).unwrap();
        assert_eq!(shoe.size(), 108);
        assert_eq!(shoe.pile().iter().filter(|c| c.face.is_joker()).count(), 4);
    }
}
