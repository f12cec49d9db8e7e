//! Where dice values and card draws come from.
//!
//! One trait, [`Roller`], three sources:
//!
//! - [`Seeded`]: ChaCha20, a cryptographic-quality PRNG from the `rand` family. Its
//!   whole state serializes (serde), so a table stores it and resumes the same stream
//!   after a restart. Its `Debug` output hides the state: it is never shown to players.
//! - [`Manual`]: values typed in by people rolling physical dice or drawing physical
//!   cards. Every value is range-checked as it is taken. When the values run out,
//!   the roller keeps counting what the command still needs and [`Roller::finish`]
//!   reports it ("need 2 more d6"), so the command is refused whole and changes nothing.
//! - [`Scripted`]: a fixed list of values for tests and the books' worked examples;
//!   running out is an immediate error.
//!
//! Drawing a card is modelled as picking one card of the pile: a seeded roller picks
//! uniformly (the same as drawing the top card of a well-shuffled pile), a manual or
//! scripted roller is told which card was drawn and finds that physical card.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

use crate::cards::{Card, CardSpec};
use crate::dice::{DiceError, Die};

/// A source of die values and card draws.
pub trait Roller {
    /// Roll `die` once. Returns a value in `1..=die.sides()`.
    ///
    /// # Errors
    /// A manual value that is not a face of the die; a script that ran out.
    fn roll(&mut self, die: Die) -> Result<u32, RollError>;

    /// Draw one card from `pile` (the cards still in the deck, in no meaningful
    /// order). Returns the index of the drawn card in `pile`.
    ///
    /// # Errors
    /// [`RollError::EmptyPile`] when `pile` is empty; a manual card that is not in
    /// the pile; a script that ran out.
    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError>;

    /// Called once a command has taken all its dice and cards. A manual roller
    /// reports here what was still missing or left over; the others return `Ok`.
    ///
    /// # Errors
    /// [`RollError::NeedMore`] or [`RollError::LeftOver`].
    fn finish(&mut self) -> Result<(), RollError> {
        Ok(())
    }

    /// True when a manual roller has run out of values in this command: the
    /// values it returns from now on are stand-ins, counted so that
    /// [`Roller::finish`] can say "need 2 more d20". A rule that rolls until
    /// something happens (re-rolling ties) stops rolling when this is true.
    fn short(&self) -> bool {
        false
    }
}

/// Why a roller could not produce a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[non_exhaustive]
pub enum RollError {
    /// A typed value is not a face of the die it was given for.
    #[error("{value:?} is not a face of a {die} (faces 1 to {sides})")]
    NotAFace {
        /// The value typed.
        value: String,
        /// The die, e.g. `d6` or `Spiral Die`.
        die: String,
        /// Its number of sides.
        sides: u32,
    },
    /// A typed card is not a card name (e.g. `QH`, `10S`, `Joker`).
    #[error("{value:?} is not a card (write rank then suit, e.g. QH, 10S, 2 of cups, Joker)")]
    NotACard {
        /// The value typed.
        value: String,
    },
    /// The named card is not in the pile being drawn from.
    #[error("there is no {card} left in the deck to draw")]
    CardNotInPile {
        /// The card named.
        card: String,
    },
    /// The pile to draw from is empty.
    #[error("the deck is empty")]
    EmptyPile,
    /// A manual roller ran out: what the command still needs.
    #[error("{}", need_text(.dice, *.cards))]
    NeedMore {
        /// Each kind of die still needed, with how many.
        dice: Vec<(String, u32)>,
        /// Cards still needed.
        cards: u32,
    },
    /// A manual roller was given more values than the command used.
    #[error("{} value(s) left over, not used by this roll: {}", .values.len(), .values.join(", "))]
    LeftOver {
        /// The unused values, in order.
        values: Vec<String>,
    },
    /// A script ran out (tests and worked examples).
    #[error("the script has no value left for a {wanted}")]
    ScriptExhausted {
        /// What was asked for: a die name or `card`.
        wanted: String,
    },
    /// A die or pool outside the caps.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

fn need_text(dice: &[(String, u32)], cards: u32) -> String {
    let mut parts: Vec<String> = dice.iter().map(|(d, n)| format!("{n} more {d}")).collect();
    if cards > 0 {
        parts.push(format!(
            "{cards} more card{}",
            if cards == 1 { "" } else { "s" }
        ));
    }
    format!("need {}", parts.join(" and "))
}

/// The seeded source: ChaCha20, resumable from its serialized state.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeded {
    rng: ChaCha20Rng,
}

impl fmt::Debug for Seeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seeded { .. }")
    }
}

impl Seeded {
    /// A stream fixed by `seed`: the same seed gives the same dice.
    pub fn from_seed(seed: u64) -> Self {
        Seeded {
            rng: ChaCha20Rng::seed_from_u64(seed),
        }
    }

    /// A stream seeded from the operating system's entropy.
    pub fn from_entropy() -> Self {
        let mut thread = rand::rng();
        Seeded {
            rng: ChaCha20Rng::from_rng(&mut thread),
        }
    }
}

impl Roller for Seeded {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        Ok(self.rng.random_range(1..=die.sides()))
    }

    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError> {
        if pile.is_empty() {
            return Err(RollError::EmptyPile);
        }
        Ok(self.rng.random_range(0..pile.len()))
    }
}

/// Parse a typed value as a face of `die`: a number in 1..=sides, or, for
/// labelled dice, one of the labels (case-insensitive; the first face carrying it).
///
/// # Errors
/// [`RollError::NotAFace`].
pub fn parse_face(die: Die, text: &str) -> Result<u32, RollError> {
    let t = text.trim();
    if let Some(faces) = die.faces()
        && let Some(i) = faces.labels.iter().position(|l| l.eq_ignore_ascii_case(t))
    {
        return Ok(i as u32 + 1);
    }
    match t.parse::<u64>() {
        Ok(v) if v >= 1 && v <= u64::from(die.sides()) => Ok(v as u32),
        _ => Err(RollError::NotAFace {
            value: t.to_string(),
            die: die.to_string(),
            sides: die.sides(),
        }),
    }
}

/// Find the physical card named by `text` in `pile`.
///
/// # Errors
/// [`RollError::NotACard`] or [`RollError::CardNotInPile`].
pub fn find_card(pile: &[Card], text: &str) -> Result<usize, RollError> {
    let spec: CardSpec = text.parse().map_err(|_| RollError::NotACard {
        value: text.trim().to_string(),
    })?;
    pile.iter()
        .position(|c| spec.matches(c.face))
        .ok_or_else(|| RollError::CardNotInPile {
            card: spec.to_string(),
        })
}

/// What a manual roller asks the person at the table for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Roll this die and type its face.
    Die(Die),
    /// Draw a card and type it; `left` cards remain in the deck.
    Card {
        /// Cards remaining in the pile.
        left: usize,
    },
}

impl fmt::Display for Ask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ask::Die(d) => write!(f, "roll a {d}"),
            Ask::Card { left } => write!(f, "draw a card ({left} left in the deck)"),
        }
    }
}

/// A function that asks a person for one value: given what is asked and the
/// error the previous answer caused (if any), returns the typed text, or `None`
/// when the person has nothing more to give (end of input).
pub type Prompt = Box<dyn FnMut(Ask, Option<&RollError>) -> Option<String>>;

/// The most times a prompt is asked again after a bad answer before giving up.
pub const MAX_PROMPT_RETRIES: u32 = 5;

enum Source {
    Queue(VecDeque<String>),
    Prompt(Prompt),
}

/// The manual source: values typed in by people with physical dice and cards.
pub struct Manual {
    source: Source,
    short_dice: Vec<(String, u32)>,
    short_cards: u32,
}

impl fmt::Debug for Manual {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Manual")
            .field("short_dice", &self.short_dice)
            .field("short_cards", &self.short_cards)
            .finish_non_exhaustive()
    }
}

impl Manual {
    /// A manual roller that takes `values` in order (e.g. from `--rolled 6,2,1`).
    pub fn from_values<I, S>(values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Manual {
            source: Source::Queue(values.into_iter().map(Into::into).collect()),
            short_dice: Vec::new(),
            short_cards: 0,
        }
    }

    /// Split a comma-separated list (`"6,2,1"`, `"9S, 4C"`) into a manual roller.
    pub fn from_list(list: &str) -> Self {
        Self::from_values(
            list.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
        )
    }

    /// A manual roller that asks a person for each value through `prompt`.
    pub fn prompting(prompt: Prompt) -> Self {
        Manual {
            source: Source::Prompt(prompt),
            short_dice: Vec::new(),
            short_cards: 0,
        }
    }

    fn is_short(&self) -> bool {
        !self.short_dice.is_empty() || self.short_cards > 0
    }

    fn note_short_die(&mut self, die: Die) {
        let name = die.to_string();
        match self.short_dice.iter_mut().find(|(d, _)| *d == name) {
            Some((_, n)) => *n += 1,
            None => self.short_dice.push((name, 1)),
        }
    }

    /// Take the next answer and parse it; `None` when the source has run out.
    fn next<T>(
        &mut self,
        ask: Ask,
        parse: impl Fn(&str) -> Result<T, RollError>,
    ) -> Option<Result<T, RollError>> {
        match &mut self.source {
            Source::Queue(q) => q.pop_front().map(|v| parse(&v)),
            Source::Prompt(prompt) => {
                let mut last: Option<RollError> = None;
                for _ in 0..=MAX_PROMPT_RETRIES {
                    let text = prompt(ask, last.as_ref())?;
                    match parse(&text) {
                        Ok(v) => return Some(Ok(v)),
                        Err(e) => last = Some(e),
                    }
                }
                last.map(Err)
            }
        }
    }
}

impl Roller for Manual {
    fn short(&self) -> bool {
        self.is_short()
    }

    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        if !self.is_short()
            && let Some(r) = self.next(Ask::Die(die), |t| parse_face(die, t))
        {
            return r;
        }
        // Out of values: keep counting what is needed; the placeholder never
        // reaches the table because `finish` refuses the command.
        self.note_short_die(die);
        Ok(1)
    }

    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError> {
        if pile.is_empty() {
            return Err(RollError::EmptyPile);
        }
        if !self.is_short()
            && let Some(r) = self.next(Ask::Card { left: pile.len() }, |t| find_card(pile, t))
        {
            return r;
        }
        self.short_cards += 1;
        Ok(0)
    }

    fn finish(&mut self) -> Result<(), RollError> {
        if self.is_short() {
            let err = RollError::NeedMore {
                dice: std::mem::take(&mut self.short_dice),
                cards: std::mem::take(&mut self.short_cards),
            };
            return Err(err);
        }
        if let Source::Queue(q) = &mut self.source
            && !q.is_empty()
        {
            return Err(RollError::LeftOver {
                values: q.drain(..).collect(),
            });
        }
        Ok(())
    }
}

/// The scripted source: a fixed list of values, for tests and worked examples.
///
/// Values are text, parsed as the manual roller parses them (`"6"`, `"HH"`,
/// `"QH"`), so a worked example reads as the book prints it.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    values: VecDeque<String>,
}

impl Scripted {
    /// A script of die values.
    pub fn dice<I: IntoIterator<Item = u32>>(values: I) -> Self {
        Scripted {
            values: values.into_iter().map(|v| v.to_string()).collect(),
        }
    }

    /// A script of typed values (die faces or card names), in order.
    pub fn values<I, S>(values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Scripted {
            values: values.into_iter().map(Into::into).collect(),
        }
    }

    /// Append more values to the script.
    pub fn push(&mut self, value: impl Into<String>) {
        self.values.push_back(value.into());
    }

    /// Values not used yet.
    pub fn remaining(&self) -> usize {
        self.values.len()
    }
}

impl Roller for Scripted {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        let v = self
            .values
            .pop_front()
            .ok_or_else(|| RollError::ScriptExhausted {
                wanted: die.to_string(),
            })?;
        parse_face(die, &v)
    }

    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError> {
        if pile.is_empty() {
            return Err(RollError::EmptyPile);
        }
        let v = self
            .values
            .pop_front()
            .ok_or_else(|| RollError::ScriptExhausted {
                wanted: "card".into(),
            })?;
        find_card(pile, &v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_is_reproducible_and_resumable() {
        let mut a = Seeded::from_seed(7);
        let first: Vec<u32> = (0..5).map(|_| a.roll(Die::D6).unwrap()).collect();
        let mut b = Seeded::from_seed(7);
        let again: Vec<u32> = (0..5).map(|_| b.roll(Die::D6).unwrap()).collect();
        assert_eq!(first, again);
        let saved = serde_json::to_string(&a).unwrap();
        let mut resumed: Seeded = serde_json::from_str(&saved).unwrap();
        let next_a: Vec<u32> = (0..20).map(|_| a.roll(Die::D20).unwrap()).collect();
        let next_r: Vec<u32> = (0..20).map(|_| resumed.roll(Die::D20).unwrap()).collect();
        assert_eq!(next_a, next_r);
        assert_eq!(format!("{a:?}"), "Seeded { .. }");
    }

    #[test]
    fn manual_range_checks_and_counts_what_is_missing() {
        let mut m = Manual::from_list("6,9");
        assert_eq!(m.roll(Die::D6), Ok(6));
        assert!(matches!(m.roll(Die::D6), Err(RollError::NotAFace { .. })));

        let mut m = Manual::from_list("6");
        assert_eq!(m.roll(Die::D6), Ok(6));
        m.roll(Die::D6).unwrap();
        m.roll(Die::D6).unwrap();
        let err = m.finish().unwrap_err();
        assert_eq!(err.to_string(), "need 2 more d6");

        let mut m = Manual::from_list("6,2,1,4");
        for _ in 0..3 {
            m.roll(Die::D6).unwrap();
        }
        assert_eq!(
            m.finish(),
            Err(RollError::LeftOver {
                values: vec!["4".into()]
            })
        );
    }

    #[test]
    fn prompting_asks_again_after_a_bad_answer() {
        let mut answers = vec!["5".to_string(), "x".to_string()];
        let mut m = Manual::prompting(Box::new(move |_, _| answers.pop()));
        assert_eq!(m.roll(Die::D6), Ok(5));
        assert!(m.finish().is_ok());
    }
}
