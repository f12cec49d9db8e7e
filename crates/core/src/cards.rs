//! Playing cards: the standard 52 plus two Jokers, and a shoe of N decks in which
//! every physical card keeps its own identity (two Queens of Hearts from two decks
//! are two cards with two [`CardId`]s).
//!
//! Suits answer to their tarot names as well, as A Game of Bastards allows
//! ("Using Tarot decks with Cups/Swords/Staves/Coins works if you prefer",
//! 003_2dfeea144768d328.txt, "Character Creation"): Clubs = Swords, Hearts = Cups,
//! Spades = Staves (or Wands), Diamonds = Coins (or Pentacles).
//!
//! Drawing is done through a [`Roller`], which picks one card of the draw pile: a
//! seeded roller picks uniformly, a manual or scripted one is told the card. The
//! draw pile therefore has no meaningful order and views show only its size.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use crate::roller::{RollError, Roller};

/// The most standard decks one shoe may hold.
pub const MAX_DECKS: u8 = 8;

/// A suit of the standard deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// Clubs (tarot: Swords).
    Clubs,
    /// Spades (tarot: Staves, Wands).
    Spades,
    /// Hearts (tarot: Cups).
    Hearts,
    /// Diamonds (tarot: Coins, Pentacles).
    Diamonds,
}

impl Suit {
    /// The four suits, in the order Clubs, Spades, Hearts, Diamonds.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// One letter: C, S, H, D.
    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
        }
    }

    /// The tarot name of the suit, as the Bastards book pairs them.
    pub fn tarot_name(self) -> &'static str {
        match self {
            Suit::Clubs => "Swords",
            Suit::Spades => "Staves",
            Suit::Hearts => "Cups",
            Suit::Diamonds => "Coins",
        }
    }

    /// Parse a suit from its letter, its name, its symbol or its tarot alias,
    /// case-insensitive. `None` when the text is none of them.
    pub fn parse(text: &str) -> Option<Suit> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "c" | "club" | "clubs" | "♣" | "sword" | "swords" => Suit::Clubs,
            "s" | "spade" | "spades" | "♠" | "stave" | "staves" | "wand" | "wands" => {
                Suit::Spades
            }
            "h" | "heart" | "hearts" | "♥" | "cup" | "cups" => Suit::Hearts,
            "d" | "diamond" | "diamonds" | "♦" | "coin" | "coins" | "pentacle" | "pentacles" => {
                Suit::Diamonds
            }
            _ => return None,
        })
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Suit::Clubs => "Clubs",
            Suit::Spades => "Spades",
            Suit::Hearts => "Hearts",
            Suit::Diamonds => "Diamonds",
        })
    }
}

/// A rank of the standard deck. Values are the systems' business; [`Rank::number`]
/// gives the conventional 2..=14 with Ace high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rank {
    /// 2
    Two,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// 10
    Ten,
    /// Jack
    Jack,
    /// Queen
    Queen,
    /// King
    King,
    /// Ace
    Ace,
}

impl Rank {
    /// The thirteen ranks, Two to Ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// 2..=10 for pips, Jack 11, Queen 12, King 13, Ace 14.
    pub fn number(self) -> u8 {
        Rank::ALL.iter().position(|r| *r == self).unwrap_or(0) as u8 + 2
    }

    /// The short name: 2..10, J, Q, K, A.
    pub fn short(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// Parse a rank from `2`..`10`, `T`, `J`, `Q`, `K`, `A`, `1` (Ace) or a name.
    pub fn parse(text: &str) -> Option<Rank> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "2" | "two" => Rank::Two,
            "3" | "three" => Rank::Three,
            "4" | "four" => Rank::Four,
            "5" | "five" => Rank::Five,
            "6" | "six" => Rank::Six,
            "7" | "seven" => Rank::Seven,
            "8" | "eight" => Rank::Eight,
            "9" | "nine" => Rank::Nine,
            "10" | "t" | "ten" => Rank::Ten,
            "j" | "jack" | "page" | "knave" => Rank::Jack,
            "q" | "queen" => Rank::Queen,
            "k" | "king" => Rank::King,
            "a" | "1" | "ace" => Rank::Ace,
            _ => return None,
        })
    }
}

/// The colour of a Joker (a standard deck has one of each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum JokerColor {
    /// The black Joker.
    Black,
    /// The red Joker.
    Red,
}

/// What is printed on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Face {
    /// One of the 52 standard cards.
    Standard {
        /// Its rank.
        rank: Rank,
        /// Its suit.
        suit: Suit,
    },
    /// A Joker.
    Joker(JokerColor),
}

impl Face {
    /// The 54 faces of one deck: 52 standard cards (suit by suit, Two to Ace) then
    /// the black and the red Joker.
    pub fn deck() -> impl Iterator<Item = Face> {
        Suit::ALL
            .into_iter()
            .flat_map(|suit| {
                Rank::ALL
                    .into_iter()
                    .map(move |rank| Face::Standard { rank, suit })
            })
            .chain([Face::Joker(JokerColor::Black), Face::Joker(JokerColor::Red)])
    }

    /// True for Jokers.
    pub fn is_joker(self) -> bool {
        matches!(self, Face::Joker(_))
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Face::Standard { rank, suit } => write!(f, "{}{}", rank.short(), suit.letter()),
            Face::Joker(JokerColor::Black) => f.write_str("Black Joker"),
            Face::Joker(JokerColor::Red) => f.write_str("Red Joker"),
        }
    }
}

/// What a person types to name a card: a face, or "a Joker" of either colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardSpec {
    /// Exactly this face.
    Face(Face),
    /// Any Joker.
    AnyJoker,
}

impl CardSpec {
    /// Whether `face` is a card this spec names.
    pub fn matches(self, face: Face) -> bool {
        match self {
            CardSpec::Face(f) => f == face,
            CardSpec::AnyJoker => face.is_joker(),
        }
    }
}

impl fmt::Display for CardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardSpec::Face(face) => face.fmt(f),
            CardSpec::AnyJoker => f.write_str("Joker"),
        }
    }
}

/// A card name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a card (write rank then suit, e.g. QH, 10S, 2 of cups, Joker)")]
pub struct CardParseError(pub String);

impl FromStr for CardSpec {
    type Err = CardParseError;

    /// Reads `QH`, `10s`, `Q♥`, `queen of hearts`, `2 of cups`, `Joker`,
    /// `red joker`, `JR`, `JB`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || CardParseError(s.trim().to_string());
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "joker" | "jk" | "*" => return Ok(CardSpec::AnyJoker),
            "jr" | "red joker" | "joker red" => {
                return Ok(CardSpec::Face(Face::Joker(JokerColor::Red)));
            }
            "jb" | "black joker" | "joker black" => {
                return Ok(CardSpec::Face(Face::Joker(JokerColor::Black)));
            }
            _ => {}
        }
        let (rank, suit) = if let Some((r, su)) = t.split_once(" of ") {
            (Rank::parse(r), Suit::parse(su))
        } else {
            // Short form: the suit is the last character (letter or symbol).
            let last = t.chars().last().ok_or_else(err)?;
            let cut = t.len() - last.len_utf8();
            (Rank::parse(&t[..cut]), Suit::parse(&last.to_string()))
        };
        match (rank, suit) {
            (Some(rank), Some(suit)) => Ok(CardSpec::Face(Face::Standard { rank, suit })),
            _ => Err(err()),
        }
    }
}

/// The identity of one physical card in a shoe: unique within the shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CardId(pub u16);

/// One physical card: its identity in the shoe and its face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// Which physical card this is.
    pub id: CardId,
    /// What is printed on it.
    pub face: Face,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.face.fmt(f)
    }
}

/// A card could not be returned to the shoe.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum CardError {
    /// A shoe holds 1..=[`MAX_DECKS`] decks.
    #[error("a shoe holds 1 to {max} decks, not {decks}")]
    Decks {
        /// Decks asked for.
        decks: u8,
        /// [`MAX_DECKS`].
        max: u8,
    },
    /// The card is not out of the shoe (never drawn, already discarded, or from
    /// another shoe), so discarding it would duplicate it.
    #[error("{card} is not a card drawn from this deck and still held")]
    NotOut {
        /// The card.
        card: String,
    },
}

/// A shoe of N standard decks: the draw pile, the discard pile, and the cards out
/// (in hands or on the table). Every card is in exactly one of the three.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shoe {
    pile: Vec<Card>,
    discards: Vec<Card>,
    out: BTreeSet<CardId>,
    size: u16,
    decks: u8,
    jokers: bool,
}

impl Shoe {
    /// `decks` standard decks, each of 52 cards plus two Jokers when `jokers`.
    ///
    /// # Errors
    /// [`CardError::Decks`] unless 1 <= `decks` <= [`MAX_DECKS`].
    pub fn new(decks: u8, jokers: bool) -> Result<Shoe, CardError> {
        if decks == 0 || decks > MAX_DECKS {
            return Err(CardError::Decks {
                decks,
                max: MAX_DECKS,
            });
        }
        let pile: Vec<Card> = (0..decks)
            .flat_map(|_| Face::deck().filter(move |f| jokers || !f.is_joker()))
            .enumerate()
            .map(|(i, face)| Card {
                id: CardId(i as u16),
                face,
            })
            .collect();
        let size = pile.len() as u16;
        Ok(Shoe {
            pile,
            discards: Vec::new(),
            out: BTreeSet::new(),
            size,
            decks,
            jokers,
        })
    }

    /// Every card of the shoe, wherever it is.
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// The cards that may be drawn, in no meaningful order.
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    /// The discard pile, oldest first.
    pub fn discards(&self) -> &[Card] {
        &self.discards
    }

    /// How many cards are out (in hands, face down, on the table).
    pub fn out_count(&self) -> usize {
        self.out.len()
    }

    /// Draw one card through `roller`; it is now out until discarded.
    ///
    /// # Errors
    /// [`RollError::EmptyPile`] when no card is left; whatever the roller reports.
    pub fn draw(&mut self, roller: &mut dyn Roller) -> Result<Card, RollError> {
        let i = roller.draw(&self.pile)?;
        if i >= self.pile.len() {
            return Err(RollError::EmptyPile);
        }
        let card = self.pile.remove(i);
        self.out.insert(card.id);
        Ok(card)
    }

    /// Take the specific physical card `card` out of the draw pile (used when
    /// replaying an event log: the event says which card was drawn).
    ///
    /// Returns false, changing nothing, when that card is not in the draw pile.
    pub fn take(&mut self, card: Card) -> bool {
        match self.pile.iter().position(|c| c.id == card.id) {
            Some(i) => {
                let c = self.pile.remove(i);
                self.out.insert(c.id);
                true
            }
            None => false,
        }
    }

    /// Put a card that is out onto the discard pile.
    ///
    /// # Errors
    /// [`CardError::NotOut`] if the card is not out (changes nothing).
    pub fn discard(&mut self, card: Card) -> Result<(), CardError> {
        if !self.out.remove(&card.id) {
            return Err(CardError::NotOut {
                card: card.to_string(),
            });
        }
        self.discards.push(card);
        Ok(())
    }

    /// Shuffle the discard pile back into the draw pile.
    pub fn reshuffle_discards(&mut self) {
        self.pile.append(&mut self.discards);
        self.pile.sort_by_key(|c| c.id);
    }

    /// Bring every card back (the cards out and the discards) to the draw pile:
    /// the caller has emptied every hand. Used at the start of a scene. Returns
    /// the identities of the cards that were out.
    pub fn recall_all(&mut self) -> Vec<CardId> {
        let recalled: Vec<CardId> = std::mem::take(&mut self.out).into_iter().collect();
        let fresh = Shoe::new(self.decks, self.jokers).map(|s| s.pile);
        if let Ok(pile) = fresh {
            self.pile = pile;
            self.discards.clear();
        }
        recalled
    }
}
