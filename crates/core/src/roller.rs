//! Where dice values and card draws come from.
//!
//! One trait, [`Roller`], four sources:
//!
//! - [`Seeded`]: ChaCha20, a cryptographic-quality PRNG from the `rand` family. Its
//!   whole state serializes (serde), so a table stores it and resumes the same stream
//!   after a restart. Its `Debug` output hides the state: it is never shown to players.
//! - [`Fast`]: Xoshiro256++, `rand`'s small non-cryptographic generator, for
//!   simulations that roll millions of dice; serializable like [`Seeded`].
//! - [`Manual`]: values typed in by people rolling physical dice or drawing physical
//!   cards. Every value is range-checked as it is taken. When the values run out,
//!   the roller keeps counting what the command still needs and [`Roller::finish`]
//!   reports it ("need 2 more d6"), so the command is refused whole and changes nothing.
//! - [`Scripted`]: a fixed list of values for tests and the books' worked examples;
//!   running out is an immediate error.
//! - [`Typed`]: one seat's typed values over the table's roller: they reach only
//!   that seat's own rolls and draws, and a refusal never says where a card is
//!   (issue 28).
//!
//! Drawing a card is modelled as picking one card of the pile: a seeded roller picks
//! uniformly (the same as drawing the top card of a well-shuffled pile), a manual or
//! scripted roller is told which card was drawn and finds that physical card.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
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

    /// Roll `die` once for each slot of `out`, in order: the same values, and
    /// the same errors, as that many calls of [`Roller::roll`] (the default
    /// does exactly that). Seeded rollers override it to roll a whole pool
    /// without a call per die.
    ///
    /// # Errors
    /// As [`Roller::roll`], at the first die that fails; the slots after it
    /// are left as they were.
    fn roll_many(&mut self, die: Die, out: &mut [u32]) -> Result<(), RollError> {
        for o in out {
            *o = self.roll(die)?;
        }
        Ok(())
    }

    /// Say what the next `count` rolls of `die` are for: `who` rolls them for
    /// `what` (`"Ana"`, `"Dodge"`). A manual roller shows it at its prompt
    /// ("Ana, Dodge: roll 3 d6"); the others ignore it. Systems call it
    /// before each pool they roll.
    fn announce(&mut self, who: &str, what: &str, count: u32, die: Die) {
        let _ = (who, what, count, die);
    }

    /// Say what the next `count` cards drawn are for: `who` draws them for
    /// `what` ("Cynthia, Skill Hand: draw 3 cards" at a manual prompt).
    fn announce_draw(&mut self, who: &str, what: &str, count: u32) {
        let _ = (who, what, count);
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
    /// A typed card cannot be used for this draw. The same words whether the
    /// card is in another seat's hand, in the discards, out of play or drawn
    /// twice in one command, so a refusal never tells the sender where a card
    /// it does not hold is (issue 28, item 3).
    #[error("{card} cannot be typed for this draw: type the cards you drew, in order")]
    CannotBeTyped {
        /// The card named, as written back (`QH`).
        card: String,
    },
    /// Values were typed for a roll or draw that is not the sending seat's
    /// own: a seat types only the dice and cards of its own characters (the
    /// GM: of the GM's own), never another seat's (issue 28, item 2).
    #[error("a seat may type only its own characters' dice and cards, not {whose} (typed values left over: {})", .values.join(", "))]
    NotYourRoll {
        /// Whose roll or draw came after the sender's own, in the book's words
        /// (`The Dealer's Fate Draw`), or `another seat's roll` when the book
        /// did not say.
        whose: String,
        /// The values typed beyond the sender's own rolls and draws.
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
    /// The person rolling typed `undo` or `quit` at the dice prompt: the
    /// command is taken back before anything happened.
    #[error("the roll was withdrawn at the prompt; nothing changed")]
    Withdrawn {
        /// True when they typed `quit` (stop playing), false for `undo`.
        quit: bool,
    },
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

/// A face 1..=`sides` from 32-bit words of `rng`: Lemire's multiply-shift
/// with one more word when the first lands in the biased sliver, exactly as
/// `rand`'s `random_range(1..=sides)` for `u32` (so a pool rolled at once
/// shows the same faces as the same dice rolled one by one). `sides` is at
/// least 1 (a [`Die`] guarantees it).
#[inline(always)]
fn face<R: Rng + ?Sized>(rng: &mut R, sides: u32) -> u32 {
    let first = rng.next_u32();
    face_of(first, sides, || rng.next_u32())
}

/// [`face`] from a first word `x`, asking `more` for the second word when
/// needed.
#[inline(always)]
fn face_of(x: u32, sides: u32, more: impl FnOnce() -> u32) -> u32 {
    let m = u64::from(x) * u64::from(sides);
    let (mut hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > sides.wrapping_neg() {
        let hi2 = ((u64::from(more()) * u64::from(sides)) >> 32) as u32;
        if lo.checked_add(hi2).is_none() {
            hi += 1;
        }
    }
    hi + 1
}

impl Roller for Seeded {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        Ok(face(&mut self.rng, die.sides()))
    }

    fn roll_many(&mut self, die: Die, out: &mut [u32]) -> Result<(), RollError> {
        let sides = die.sides();
        for o in out {
            *o = face(&mut self.rng, sides);
        }
        Ok(())
    }

    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError> {
        if pile.is_empty() {
            return Err(RollError::EmptyPile);
        }
        Ok(self.rng.random_range(0..pile.len()))
    }
}

/// The fast seeded source, for simulation: Xoshiro256++ (`rand`'s small
/// generator), several times cheaper per die than [`Seeded`]'s ChaCha20 but
/// not cryptographic: use it where many dice are rolled to estimate odds,
/// never where a player could gain from predicting the stream. Its state
/// serializes (serde) like [`Seeded`]'s; its `Debug` output hides it.
///
/// Each 64-bit output gives two 32-bit words, low half first; a die takes one
/// word (rarely two, as in [`Seeded`]), so one output rolls two dice.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fast {
    rng: Xoshiro256PlusPlus,
    /// The high half of the last output, not used yet.
    spare: Option<u32>,
}

impl fmt::Debug for Fast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Fast { .. }")
    }
}

impl Fast {
    /// A stream fixed by `seed`: the same seed gives the same dice.
    pub fn from_seed(seed: u64) -> Self {
        Fast {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            spare: None,
        }
    }

    /// A stream seeded from the operating system's entropy.
    pub fn from_entropy() -> Self {
        let mut thread = rand::rng();
        Fast {
            rng: Xoshiro256PlusPlus::from_rng(&mut thread),
            spare: None,
        }
    }
}

impl Fast {
    /// The next 32-bit word: the spare half, or the low half of a new output.
    #[inline(always)]
    fn word(&mut self) -> u32 {
        match self.spare.take() {
            Some(w) => w,
            None => {
                let x = self.rng.next_u64();
                self.spare = Some((x >> 32) as u32);
                x as u32
            }
        }
    }
}

impl Roller for Fast {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        let x = self.word();
        Ok(face_of(x, die.sides(), || self.word()))
    }

    fn roll_many(&mut self, die: Die, out: &mut [u32]) -> Result<(), RollError> {
        let sides = die.sides();
        let n = out.len();
        let mut i = 0;
        while i < n {
            if self.spare.is_some() || i + 1 == n {
                let x = self.word();
                let f = face_of(x, sides, || self.word());
                if let Some(o) = out.get_mut(i) {
                    *o = f;
                }
                i += 1;
                continue;
            }
            // Two dice from one output, as two calls of `roll` would take
            // them: unless the first die needs a second word, which is then
            // the high half.
            let x = self.rng.next_u64();
            let (a, b) = (x as u32, (x >> 32) as u32);
            let mut took_b = false;
            let fa = face_of(a, sides, || {
                took_b = true;
                b
            });
            if let Some(o) = out.get_mut(i) {
                *o = fa;
            }
            i += 1;
            if took_b {
                continue;
            }
            let fb = face_of(b, sides, || self.word());
            if let Some(o) = out.get_mut(i) {
                *o = fb;
            }
            i += 1;
        }
        Ok(())
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

/// What the next dice are for, as a system [announced](Roller::announce) it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purpose {
    /// Who rolls (a character's name).
    pub who: String,
    /// What for (a Stat, a Skill, an attack).
    pub what: String,
    /// How many dice (or cards) there are.
    pub count: u32,
    /// The die, or `None` for cards.
    pub die: Option<Die>,
    /// How many of them have been asked for already.
    pub asked: u32,
}

/// One question a manual roller puts to a person: the die or card, and what it
/// is for when the system said so. Its `Display` is the prompt text: "Ana,
/// Dodge: roll 3 d6" for the first die of a pool (several values may be typed
/// on one line), "Ana, Dodge: die 2 of 3 (d6)" after that, "roll a d6" when
/// nobody said what for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The die or card asked for.
    pub ask: Ask,
    /// What it is for, when announced.
    pub purpose: Option<Purpose>,
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(p) = self.purpose.as_ref().filter(|p| p.asked < p.count) else {
            return write!(f, "{}", self.ask);
        };
        match (p.die, self.ask) {
            (Some(pd), Ask::Die(d)) if pd == d => {
                write!(f, "{}, {}: ", p.who, p.what)?;
                match (p.asked, p.count) {
                    (0, 1) => write!(f, "roll a {d}"),
                    (0, n) => write!(f, "roll {n} {d}"),
                    (i, n) => write!(f, "die {} of {n} ({d})", i + 1),
                }
            }
            (None, Ask::Card { left }) => {
                write!(f, "{}, {}: ", p.who, p.what)?;
                match (p.asked, p.count) {
                    (0, 1) => write!(f, "draw a card ({left} left in the deck)"),
                    (0, n) => write!(f, "draw {n} cards ({left} left in the deck)"),
                    (i, n) => write!(f, "card {} of {n} ({left} left in the deck)", i + 1),
                }
            }
            _ => write!(f, "{}", self.ask),
        }
    }
}

/// A person's answer at a manual roller's prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The typed text: one value, or several (dice: separated by spaces or
    /// commas; cards: by commas), used in order.
    Values(String),
    /// Take the command back before anything happens (`undo` at the prompt).
    Withdraw,
    /// Take the command back and stop playing (`quit` at the prompt).
    Quit,
    /// The input ended.
    End,
}

/// A function that asks a person for a value: given the question and the
/// error the previous answer caused (if any), returns their [`Answer`].
pub type Prompt = Box<dyn FnMut(&Question, Option<&RollError>) -> Answer>;

/// The most times a prompt is asked again after a bad answer before giving up.
pub const MAX_PROMPT_RETRIES: u32 = 5;

/// The most values one answer may hold.
pub const MAX_VALUES_PER_ANSWER: usize = 256;

enum Source {
    Queue(VecDeque<String>),
    Prompt(Prompt),
}

/// The manual source: values typed in by people with physical dice and cards.
pub struct Manual {
    source: Source,
    /// Values typed on one line beyond the first, used before asking again.
    pending: VecDeque<String>,
    purpose: Option<Purpose>,
    withdrawn: Option<bool>,
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
    fn with_source(source: Source) -> Self {
        Manual {
            source,
            pending: VecDeque::new(),
            purpose: None,
            withdrawn: None,
            short_dice: Vec::new(),
            short_cards: 0,
        }
    }

    /// A manual roller that takes `values` in order (e.g. from `--rolled 6,2,1`).
    pub fn from_values<I, S>(values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::with_source(Source::Queue(values.into_iter().map(Into::into).collect()))
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
        Self::with_source(Source::Prompt(prompt))
    }

    fn is_short(&self) -> bool {
        !self.short_dice.is_empty() || self.short_cards > 0 || self.withdrawn.is_some()
    }

    fn note_short_die(&mut self, die: Die) {
        let name = die.to_string();
        match self.short_dice.iter_mut().find(|(d, _)| *d == name) {
            Some((_, n)) => *n += 1,
            None => self.short_dice.push((name, 1)),
        }
    }

    /// Take the next answer and parse it; `None` when the source has run out
    /// (or the person withdrew the command).
    fn next<T>(
        &mut self,
        ask: Ask,
        parse: impl Fn(&str) -> Result<T, RollError>,
    ) -> Option<Result<T, RollError>> {
        if let Some(v) = self.pending.pop_front() {
            return Some(parse(&v));
        }
        let question = Question {
            ask,
            purpose: self.purpose.clone(),
        };
        match &mut self.source {
            Source::Queue(q) => q.pop_front().map(|v| parse(&v)),
            Source::Prompt(prompt) => {
                let mut last: Option<RollError> = None;
                for _ in 0..=MAX_PROMPT_RETRIES {
                    let text = match prompt(&question, last.as_ref()) {
                        Answer::Values(t) => t,
                        Answer::End => return None,
                        Answer::Withdraw => {
                            self.withdrawn = Some(false);
                            return None;
                        }
                        Answer::Quit => {
                            self.withdrawn = Some(true);
                            return None;
                        }
                    };
                    let mut values = split_answer(ask, &text);
                    if values.len() > MAX_VALUES_PER_ANSWER {
                        last = Some(RollError::LeftOver {
                            values: values.split_off(MAX_VALUES_PER_ANSWER),
                        });
                        continue;
                    }
                    let Some(first) = values.first().cloned() else {
                        continue;
                    };
                    match parse(&first) {
                        Ok(v) => {
                            self.pending.extend(values.into_iter().skip(1));
                            return Some(Ok(v));
                        }
                        Err(e) => last = Some(e),
                    }
                }
                last.map(Err)
            }
        }
    }

    fn count_asked(&mut self, die: Option<Die>) {
        if let Some(p) = &mut self.purpose
            && p.die == die
        {
            p.asked = p.asked.saturating_add(1);
            if p.asked >= p.count {
                self.purpose = None;
            }
        }
    }
}

/// Split one typed answer into values: dice by spaces or commas, cards by
/// commas only (a card may be written `9 of Spades`).
fn split_answer(ask: Ask, text: &str) -> Vec<String> {
    let parts: Vec<&str> = match ask {
        Ask::Die(_) => text.split([',', ' ', '\t']).collect(),
        Ask::Card { .. } => text.split(',').collect(),
    };
    parts
        .into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

impl Roller for Manual {
    fn short(&self) -> bool {
        self.is_short()
    }

    fn announce(&mut self, who: &str, what: &str, count: u32, die: Die) {
        self.purpose = (count > 0).then(|| Purpose {
            who: who.to_string(),
            what: what.to_string(),
            count,
            die: Some(die),
            asked: 0,
        });
    }

    fn announce_draw(&mut self, who: &str, what: &str, count: u32) {
        self.purpose = (count > 0).then(|| Purpose {
            who: who.to_string(),
            what: what.to_string(),
            count,
            die: None,
            asked: 0,
        });
    }

    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        if !self.is_short()
            && let Some(r) = self.next(Ask::Die(die), |t| parse_face(die, t))
        {
            self.count_asked(Some(die));
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
            self.count_asked(None);
            return r;
        }
        self.short_cards += 1;
        Ok(0)
    }

    fn finish(&mut self) -> Result<(), RollError> {
        self.purpose = None;
        if let Some(quit) = self.withdrawn.take() {
            self.short_dice.clear();
            self.short_cards = 0;
            self.pending.clear();
            return Err(RollError::Withdrawn { quit });
        }
        if self.is_short() {
            self.pending.clear();
            let err = RollError::NeedMore {
                dice: std::mem::take(&mut self.short_dice),
                cards: std::mem::take(&mut self.short_cards),
            };
            return Err(err);
        }
        if !self.pending.is_empty() {
            return Err(RollError::LeftOver {
                values: self.pending.drain(..).collect(),
            });
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

/// Who a roll or draw belongs to, for [`Typed`]: given the character a system
/// [announced](Roller::announce) the roll for (`None` when it announced none),
/// true when the roll is the sending seat's own.
pub type Owns<'a> = &'a dyn Fn(Option<&str>) -> bool;

/// Values one seat typed for its own rolls and draws (`rolled` on the server):
/// each roll or draw the system announces for one of that seat's own
/// characters takes the next typed value; every other roll and draw (another
/// seat's, the GM's Dealer, an unannounced one the book does not give the
/// sender) comes from `table`, the table's own roller. Typed values are never
/// consumed by another seat's roll (issue 28, item 2).
///
/// A refusal reveals nothing about hidden cards (issue 28, item 3): a typed
/// card that is not in the pile does not stop the command at once; the draw
/// goes on with a stand-in and [`Roller::finish`] first checks the count of
/// typed values ([`RollError::NeedMore`], [`RollError::LeftOver`],
/// [`RollError::NotYourRoll`]) and only then names the card with
/// [`RollError::CannotBeTyped`], the same words wherever that card is. (The
/// count a command needs is fixed by the command in every book, so the
/// stand-in does not change it.)
pub struct Typed<'a> {
    values: VecDeque<String>,
    table: &'a mut dyn Roller,
    owns: Owns<'a>,
    /// The announced roll: who, what, and how many of its dice or cards are left.
    purpose: Option<(String, String, u32)>,
    short_dice: Vec<(String, u32)>,
    short_cards: u32,
    bad_card: Option<String>,
    /// The first roll or draw that was not the sender's, in words.
    others: Option<String>,
    used: u32,
}

impl fmt::Debug for Typed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Typed")
            .field("left", &self.values.len())
            .field("used", &self.used)
            .finish_non_exhaustive()
    }
}

impl<'a> Typed<'a> {
    /// The typed `values` (in the order the sender's own rolls and draws use
    /// them) over the table's roller `table`; `owns` says which rolls are the
    /// sender's.
    pub fn new<I, S>(values: I, table: &'a mut dyn Roller, owns: Owns<'a>) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Typed {
            values: values.into_iter().map(Into::into).collect(),
            table,
            owns,
            purpose: None,
            short_dice: Vec::new(),
            short_cards: 0,
            bad_card: None,
            others: None,
            used: 0,
        }
    }

    /// How many typed values the command took (0: every die and card came
    /// from the table's roller).
    pub fn used(&self) -> u32 {
        self.used
    }

    /// True when the next roll or draw is the sender's own; counts it off the
    /// announced purpose, and notes it when it is another's.
    fn next_is_mine(&mut self) -> bool {
        let (mine, words) = match &mut self.purpose {
            Some((who, what, left)) if *left > 0 => {
                *left -= 1;
                ((self.owns)(Some(who)), format!("{who}'s {what}"))
            }
            _ => ((self.owns)(None), "another seat's roll".to_string()),
        };
        if !mine && self.others.is_none() {
            self.others = Some(words);
        }
        mine
    }

    fn is_short(&self) -> bool {
        !self.short_dice.is_empty() || self.short_cards > 0
    }
}

/// The card a [`Typed`] roller draws in place of a value it does not have:
/// the first card of `pile` that is not a Joker (a Joker would make a book
/// draw again and so change the count it reports, telling the sender where
/// the Jokers lie).
fn stand_in(pile: &[Card]) -> usize {
    pile.iter().position(|c| !c.face.is_joker()).unwrap_or(0)
}

impl Roller for Typed<'_> {
    fn short(&self) -> bool {
        self.is_short()
    }

    fn announce(&mut self, who: &str, what: &str, count: u32, die: Die) {
        self.purpose = Some((who.to_string(), what.to_string(), count));
        self.table.announce(who, what, count, die);
    }

    fn announce_draw(&mut self, who: &str, what: &str, count: u32) {
        self.purpose = Some((who.to_string(), what.to_string(), count));
        self.table.announce_draw(who, what, count);
    }

    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        if !self.next_is_mine() {
            return self.table.roll(die);
        }
        if !self.is_short()
            && let Some(v) = self.values.pop_front()
        {
            self.used = self.used.saturating_add(1);
            return parse_face(die, &v);
        }
        let name = die.to_string();
        match self.short_dice.iter_mut().find(|(d, _)| *d == name) {
            Some((_, n)) => *n = n.saturating_add(1),
            None => self.short_dice.push((name, 1)),
        }
        Ok(1)
    }

    fn draw(&mut self, pile: &[Card]) -> Result<usize, RollError> {
        if pile.is_empty() {
            return Err(RollError::EmptyPile);
        }
        if !self.next_is_mine() {
            return self.table.draw(pile);
        }
        if !self.is_short()
            && let Some(v) = self.values.pop_front()
        {
            self.used = self.used.saturating_add(1);
            let spec: CardSpec = v.parse().map_err(|_| RollError::NotACard {
                value: v.trim().to_string(),
            })?;
            // Not found: a stand-in, named only after the count is checked.
            return Ok(match pile.iter().position(|c| spec.matches(c.face)) {
                Some(i) => i,
                None => {
                    self.bad_card.get_or_insert_with(|| spec.to_string());
                    stand_in(pile)
                }
            });
        }
        self.short_cards = self.short_cards.saturating_add(1);
        Ok(stand_in(pile))
    }

    fn finish(&mut self) -> Result<(), RollError> {
        self.purpose = None;
        self.table.finish()?;
        if self.is_short() {
            self.values.clear();
            self.bad_card = None;
            return Err(RollError::NeedMore {
                dice: std::mem::take(&mut self.short_dice),
                cards: std::mem::take(&mut self.short_cards),
            });
        }
        if !self.values.is_empty() {
            self.bad_card = None;
            let values: Vec<String> = self.values.drain(..).collect();
            return Err(match self.others.take() {
                Some(whose) => RollError::NotYourRoll { whose, values },
                None => RollError::LeftOver { values },
            });
        }
        if let Some(card) = self.bad_card.take() {
            return Err(RollError::CannotBeTyped { card });
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
    fn a_pool_rolled_at_once_shows_the_same_faces_as_die_by_die() {
        for sides in [1u64, 2, 3, 6, 7, 10, 20, 100, 9_999, 10_000] {
            let die = Die::new(sides).unwrap();
            for seed in 0..20 {
                // The stream as rand's own range sampling reads it.
                let mut reference = ChaCha20Rng::seed_from_u64(seed);
                let want: Vec<u32> = (0..300)
                    .map(|_| reference.random_range(1..=die.sides()))
                    .collect();
                let mut one = Seeded::from_seed(seed);
                let singly: Vec<u32> = (0..300).map(|_| one.roll(die).unwrap()).collect();
                let mut many = Seeded::from_seed(seed);
                let mut pool = vec![0u32; 300];
                many.roll_many(die, &mut pool).unwrap();
                assert_eq!(singly, want);
                assert_eq!(pool, want);
                let mut fast = Fast::from_seed(seed);
                let mut fast_pool = vec![0u32; 300];
                fast.roll_many(die, &mut fast_pool).unwrap();
                let mut fast_one = Fast::from_seed(seed);
                let fast_singly: Vec<u32> = (0..300).map(|_| fast_one.roll(die).unwrap()).collect();
                assert_eq!(fast_pool, fast_singly);
                // Pools of odd sizes after single dice: the spare half goes
                // to the next die either way.
                let mut mixed = Fast::from_seed(seed);
                let mut got = vec![mixed.roll(die).unwrap()];
                for size in [3usize, 1, 0, 2, 5] {
                    let mut p = vec![0u32; size];
                    mixed.roll_many(die, &mut p).unwrap();
                    got.extend(p);
                    got.push(mixed.roll(die).unwrap());
                }
                assert_eq!(got, fast_singly[..got.len()]);
                assert!(fast_pool.iter().all(|v| (1..=die.sides()).contains(v)));
            }
        }
    }

    #[test]
    fn the_fast_roller_is_fair_and_resumable() {
        let mut f = Fast::from_seed(3);
        let mut counts = [0u32; 6];
        let mut pool = vec![0u32; 60_000];
        f.roll_many(Die::D6, &mut pool).unwrap();
        for v in &pool {
            counts[*v as usize - 1] += 1;
        }
        // Each face 10,000 times, give or take five standard deviations.
        assert!(
            counts.iter().all(|c| c.abs_diff(10_000) < 500),
            "{counts:?}"
        );
        let saved = serde_json::to_string(&f).unwrap();
        let mut resumed: Fast = serde_json::from_str(&saved).unwrap();
        assert_eq!(f.roll(Die::D20), resumed.roll(Die::D20));
        assert_eq!(format!("{f:?}"), "Fast { .. }");
    }

    #[test]
    fn the_default_roll_many_stops_at_the_first_error() {
        let mut s = Scripted::dice([3, 4]);
        let mut pool = [0u32; 3];
        assert!(s.roll_many(Die::D6, &mut pool).is_err());
        assert_eq!(pool, [3, 4, 0]);
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
        let mut m = Manual::prompting(Box::new(move |_, _| {
            answers.pop().map_or(Answer::End, Answer::Values)
        }));
        assert_eq!(m.roll(Die::D6), Ok(5));
        assert!(m.finish().is_ok());
    }

    #[test]
    fn the_prompt_says_whose_roll_and_takes_several_values() {
        use std::cell::RefCell;
        use std::rc::Rc;
        let asked = Rc::new(RefCell::new(Vec::new()));
        let seen = asked.clone();
        let mut answers = vec!["6".to_string(), "4 2".to_string()];
        let mut m = Manual::prompting(Box::new(move |q, _| {
            seen.borrow_mut().push(q.to_string());
            answers.pop().map_or(Answer::End, Answer::Values)
        }));
        m.announce("Ana", "Dodge", 3, Die::D6);
        let rolled: Vec<u32> = (0..3).map(|_| m.roll(Die::D6).unwrap()).collect();
        assert_eq!(rolled, [4, 2, 6]);
        assert!(m.finish().is_ok());
        assert_eq!(
            *asked.borrow(),
            ["Ana, Dodge: roll 3 d6", "Ana, Dodge: die 3 of 3 (d6)"]
        );
    }

    #[test]
    fn undo_and_quit_at_the_prompt_withdraw_the_command() {
        for (answer, quit) in [(Answer::Withdraw, false), (Answer::Quit, true)] {
            let mut once = Some(answer);
            let mut m = Manual::prompting(Box::new(move |_, _| once.take().unwrap_or(Answer::End)));
            let _ = m.roll(Die::D6);
            let _ = m.roll(Die::D6);
            assert!(m.short());
            assert_eq!(m.finish(), Err(RollError::Withdrawn { quit }));
        }
    }

    /// Issue 28, items 2 and 3: typed values go only to the sender's own
    /// draws; a card not in the pile is named only after the count is right,
    /// in the same words wherever the card is.
    #[test]
    fn issue_28_typed_values_reach_only_the_senders_draws_and_hide_the_pile() {
        let shoe = crate::cards::Shoe::new(1, false).unwrap();
        let pile = shoe.pile().to_vec();
        let without_qh: Vec<Card> = pile
            .iter()
            .filter(|c| c.face.to_string() != "QH")
            .copied()
            .collect();
        let owns = |who: Option<&str>| who == Some("Cynthia");
        let run = |typed: &[&str], pile: &[Card]| {
            let mut table = Seeded::from_seed(1);
            let mut t = Typed::new(typed.iter().copied(), &mut table, &owns);
            t.announce_draw("Cynthia", "Skill Hand", 2);
            let mine: Vec<usize> = (0..2).map(|_| t.draw(pile).unwrap()).collect();
            t.announce_draw("The Dealer", "Fate Draw", 2);
            let theirs: Vec<usize> = (0..2).map(|_| t.draw(pile).unwrap()).collect();
            (mine, theirs, t.used(), t.finish())
        };
        let (mine, _, used, done) = run(&["2C", "3C"], &pile);
        assert_eq!(done, Ok(()));
        assert_eq!(used, 2);
        assert_eq!(pile[mine[0]].face.to_string(), "2C");
        // A value for the Dealer's draw is refused, never drawn for it.
        let (_, _, _, done) = run(&["2C", "3C", "4C"], &pile);
        assert_eq!(
            done,
            Err(RollError::NotYourRoll {
                whose: "The Dealer's Fate Draw".into(),
                values: vec!["4C".into()]
            })
        );
        // QH in the pile or not: the same refusal for a wrong count...
        let a = run(&["QH", "3C", "4C"], &pile).3;
        let b = run(&["QH", "3C", "4C"], &without_qh).3;
        assert_eq!(a, b);
        let a = run(&["QH"], &pile).3;
        let b = run(&["QH"], &without_qh).3;
        assert_eq!(a, b);
        // ...and with the right count, a card not in the pile is named
        // without saying where it is.
        let b = run(&["QH", "3C"], &without_qh).3.unwrap_err();
        assert_eq!(b, RollError::CannotBeTyped { card: "QH".into() });
        assert!(!b.to_string().contains("deck"), "{b}");
    }

    #[test]
    fn values_typed_beyond_the_command_are_left_over() {
        let mut once = Some(Answer::Values("3, 5".into()));
        let mut m = Manual::prompting(Box::new(move |_, _| once.take().unwrap_or(Answer::End)));
        assert_eq!(m.roll(Die::D6), Ok(3));
        assert_eq!(
            m.finish(),
            Err(RollError::LeftOver {
                values: vec!["5".into()]
            })
        );
    }
}
