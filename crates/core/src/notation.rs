//! The dice notation players type at the table for free rolls: `1d20+5`,
//! `4d6kh3`, `2d20kl1`, `10d6>=5`, `d%`.
//!
//! Text is parsed once into an [`Expr`] (a flat, signed sum of terms), checked
//! against every cap at parse time, and then rolled any number of times through
//! a [`Roller`]. Parsing never panics and never allocates in proportion to the
//! dice asked for: `100000000d6` is refused from its first number.
//!
//! # Grammar
//!
//! ```text
//! expr    := [sign] term (sign term)*
//! sign    := "+" | "-"
//! term    := number                         a constant
//!          | [number] "d" sides [select] [success]
//! sides   := number | "%"                   d% is d100
//! select  := ("kh" | "kl" | "dh" | "dl") number
//! success := (">=" | ">" | "<=" | "<" | "=" | "==") number
//! ```
//!
//! - The count before `d` is optional (`d20` is `1d20`).
//! - Letters are case-insensitive (`4D6KH3`); whitespace (any Unicode white
//!   space) may stand between any two tokens, though not inside `kh`, `>=` or a
//!   number.
//! - `kh N` keeps the highest N dice, `kl N` the lowest, `dh N` drops the highest
//!   N, `dl N` the lowest. `ph` and `pl` (Python `d20`'s spelling) are read as
//!   `dh` and `dl`. Keeping or dropping more dice than the term rolls is
//!   refused ([`NotationError::SelectsMoreThanRolled`]; Python `d20` silently
//!   keeps them all). Among equal dice, the earlier one counts as the lower.
//! - A success test counts the kept dice whose face passes it, and that count is
//!   the term's value: `10d6>=5` is the number of dice showing 5 or 6. (Python
//!   `d20` instead compares the whole sum and yields 1 or 0; Roll20's counting is
//!   what tables mean by it.) With a selection, only kept dice count:
//!   `4d6kh3>=5`. A test every face passes (`10d6>=1`) is refused
//!   ([`NotationError::EveryFaceSucceeds`]).
//! - `0d6` is allowed and is 0, as in `d20`.
//! - `d%` is a d100 (1 to 100). Python `d20` reads `d%` as the tens die of a
//!   percentile pair (0, 10, ..., 90) instead.
//!
//! Not supported: parentheses, `*`, rerolls and exploding dice, and `d20`'s
//! bare `k3` / `p3` (keep or drop the dice showing 3), which Roll20 reads as
//! "keep the highest 3": both are refused with a message asking for `h` or `l`
//! after the letter.
//!
//! # Caps
//!
//! | cap | value | error |
//! | --- | --- | --- |
//! | input length | [`MAX_INPUT_LEN`] bytes | [`NotationError::TooLong`] |
//! | terms | [`MAX_TERMS`] | [`NotationError::TooManyTerms`] |
//! | any number | [`MAX_NUMBER`] | [`NotationError::NumberTooLarge`] |
//! | dice in the whole expression | [`MAX_POOL`] | [`NotationError::TooManyDice`] |
//! | sides of a die | [`MAX_SIDES`] | [`NotationError::TooManySides`] |
//!
//! With these caps a total lies within ±(`MAX_TERMS` × `MAX_NUMBER` + `MAX_POOL`
//! × `MAX_SIDES`), about 10^11, far inside `i64`.
//!
//! # Roll order
//!
//! Dice are asked of the roller left to right, term by term and die by die, so
//! `--rolled 6,2,1` for `3d6` gives the dice 6, 2 and 1 in that order.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::dice::{Die, MAX_POOL, MAX_SIDES};
use crate::roller::{RollError, Roller};

/// The longest text [`Expr::parse`] reads, in bytes.
pub const MAX_INPUT_LEN: usize = 1_000;
/// The most terms (constants and dice groups) one expression may have.
pub const MAX_TERMS: usize = 100;
/// The largest number that may be written anywhere in an expression.
pub const MAX_NUMBER: u32 = 1_000_000_000;

/// A parsed dice expression: a signed sum of terms, within every cap.
///
/// Built only by [`Expr::parse`] (or [`str::parse`]), so every expression that
/// exists is within the caps listed in the [module documentation](self).
/// Its `Display` is the canonical spelling (`4d6kh3 + 1d20 - 2`), and parsing
/// that spelling gives back an equal `Expr`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Expr {
    terms: Vec<Term>,
}

/// One signed term of an [`Expr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Term {
    /// Whether the term is added or subtracted.
    pub sign: Sign,
    /// What the term is.
    pub atom: Atom,
}

/// Whether a term is added to or subtracted from the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sign {
    /// Added (`+`, or no sign on the first term).
    Plus,
    /// Subtracted (`-`).
    Minus,
}

impl Sign {
    /// `value` with this sign applied.
    pub fn apply(self, value: i64) -> i64 {
        match self {
            Sign::Plus => value,
            Sign::Minus => value.saturating_neg(),
        }
    }

    fn symbol(self) -> char {
        match self {
            Sign::Plus => '+',
            Sign::Minus => '-',
        }
    }
}

/// The body of a term: a constant or a group of dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Atom {
    /// A constant, 0..=[`MAX_NUMBER`].
    Constant(u32),
    /// A group of dice, e.g. `4d6kh3`.
    Dice(DiceTerm),
}

/// A group of identical dice with an optional selection and success test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiceTerm {
    /// How many dice are rolled (the whole expression rolls at most [`MAX_POOL`]).
    pub count: u32,
    /// Sides of each die, 1..=[`MAX_SIDES`] (`d%` is stored as 100).
    pub sides: u32,
    /// Which dice are kept; `None` keeps them all.
    pub select: Option<Select>,
    /// A success test: when present the term counts successes instead of summing.
    pub success: Option<Success>,
}

/// Which dice of a group are kept.
///
/// At most as many dice as the term rolls (the parser refuses more). Among
/// equal faces the earlier die counts as the lower one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Select {
    /// `khN`: keep the N highest.
    KeepHighest(u32),
    /// `klN`: keep the N lowest.
    KeepLowest(u32),
    /// `dhN` (or `phN`): drop the N highest.
    DropHighest(u32),
    /// `dlN` (or `plN`): drop the N lowest.
    DropLowest(u32),
}

/// A success test on each kept die: `>=5` in `10d6>=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Success {
    /// How a face is compared with the target.
    pub compare: Compare,
    /// The target number.
    pub target: u32,
}

/// A comparison of a die face with a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compare {
    /// `>=`
    AtLeast,
    /// `>`
    Above,
    /// `<=`
    AtMost,
    /// `<`
    Below,
    /// `=` (also written `==`)
    Equal,
}

impl Compare {
    /// Whether `face` passes this comparison with `target`.
    pub fn test(self, face: u32, target: u32) -> bool {
        match self {
            Compare::AtLeast => face >= target,
            Compare::Above => face > target,
            Compare::AtMost => face <= target,
            Compare::Below => face < target,
            Compare::Equal => face == target,
        }
    }

    /// The canonical symbol: `>=`, `>`, `<=`, `<` or `=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::AtLeast => ">=",
            Compare::Above => ">",
            Compare::AtMost => "<=",
            Compare::Below => "<",
            Compare::Equal => "=",
        }
    }
}

impl Success {
    /// Whether `face` is a success.
    pub fn test(self, face: u32) -> bool {
        self.compare.test(face, self.target)
    }
}

/// Why a text is not a dice expression. Every variant carries the 0-based byte
/// `position` of the problem in the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[non_exhaustive]
pub enum NotationError {
    /// A character that cannot stand here.
    #[error("expected {expected} at position {position}, found {found:?}")]
    UnexpectedChar {
        /// The character found.
        found: char,
        /// What could have stood here, in words (e.g. "a number after `kh`").
        expected: String,
        /// Its byte offset.
        position: usize,
    },
    /// The text ends where something more is needed (`1d6kh`).
    #[error("expected {expected} at position {position}")]
    UnexpectedEnd {
        /// What is missing, in words (e.g. "a number after `kh`").
        expected: String,
        /// The byte offset of the end of the text.
        position: usize,
    },
    /// A number above [`MAX_NUMBER`].
    #[error("the number at position {position} is too large (at most {max})")]
    NumberTooLarge {
        /// The largest number allowed, [`MAX_NUMBER`].
        max: u32,
        /// Where the number starts.
        position: usize,
    },
    /// The expression rolls more than [`MAX_POOL`] dice in total.
    #[error(
        "too many dice: the roll would use {count} dice by position {position}, at most {max} are allowed"
    )]
    TooManyDice {
        /// Dice counted up to and including this term.
        count: u64,
        /// [`MAX_POOL`].
        max: u32,
        /// Where the term that goes over the cap starts.
        position: usize,
    },
    /// A die with more than [`MAX_SIDES`] sides.
    #[error("a die may have at most {max} sides, not {sides} (position {position})")]
    TooManySides {
        /// The sides asked for.
        sides: u32,
        /// [`MAX_SIDES`].
        max: u32,
        /// Where the number of sides starts.
        position: usize,
    },
    /// A die with zero sides.
    #[error("a die needs at least one side (position {position})")]
    ZeroSides {
        /// Where the number of sides starts.
        position: usize,
    },
    /// The text is longer than [`MAX_INPUT_LEN`] bytes.
    #[error("the roll is {len} bytes long, at most {max} are allowed (position {position})")]
    TooLong {
        /// The length of the text, in bytes.
        len: usize,
        /// [`MAX_INPUT_LEN`].
        max: usize,
        /// The first byte past the cap ([`MAX_INPUT_LEN`]).
        position: usize,
    },
    /// A keep or drop of more dice than the term rolls (`2d6kh3`).
    #[error("cannot {verb} {selected} dice of {rolled} rolled (position {position})")]
    SelectsMoreThanRolled {
        /// `keep` or `drop`.
        verb: &'static str,
        /// The dice to keep or drop.
        selected: u32,
        /// The dice the term rolls.
        rolled: u32,
        /// Where the selection starts.
        position: usize,
    },
    /// A success test that every face of the die passes (`10d6>=1`): it counts
    /// the dice, not successes.
    #[error(
        "every face of a d{sides} passes {test}, so it counts no successes (position {position})"
    )]
    EveryFaceSucceeds {
        /// The test as written, e.g. `>=1`.
        test: String,
        /// The sides of the die.
        sides: u32,
        /// Where the test starts.
        position: usize,
    },
    /// More than [`MAX_TERMS`] terms.
    #[error("too many terms: at most {max} are allowed (position {position})")]
    TooManyTerms {
        /// [`MAX_TERMS`].
        max: usize,
        /// Where the first term over the cap starts.
        position: usize,
    },
}

impl NotationError {
    /// The 0-based byte offset of the problem in the text.
    pub fn position(&self) -> usize {
        match self {
            NotationError::UnexpectedChar { position, .. }
            | NotationError::UnexpectedEnd { position, .. }
            | NotationError::NumberTooLarge { position, .. }
            | NotationError::TooManyDice { position, .. }
            | NotationError::TooManySides { position, .. }
            | NotationError::ZeroSides { position }
            | NotationError::TooLong { position, .. }
            | NotationError::TooManyTerms { position, .. }
            | NotationError::SelectsMoreThanRolled { position, .. }
            | NotationError::EveryFaceSucceeds { position, .. } => *position,
        }
    }
}

impl Expr {
    /// Parse a dice expression such as `4d6kh3 + 2` or `10d6>=5`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::Expr;
    /// use tabula_core::Scripted;
    ///
    /// let expr = Expr::parse("4d6kh3 + 1")?;
    /// assert_eq!(expr.dice_count(), 4);
    /// let mut dice = Scripted::dice([6, 5, 2, 4]);
    /// let outcome = expr.roll(&mut dice)?;
    /// assert_eq!(outcome.total, 16);
    /// assert_eq!(outcome.to_string(), "4d6kh3 (6, 5, 2 dropped, 4) + 1 = 16");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`NotationError`] naming what is wrong and its byte position: a
    /// character that cannot stand where it is, a text that ends too soon
    /// (`1d6kh`), or a cap exceeded (see the [module documentation](self)).
    pub fn parse(text: &str) -> Result<Expr, NotationError> {
        if text.len() > MAX_INPUT_LEN {
            return Err(NotationError::TooLong {
                len: text.len(),
                max: MAX_INPUT_LEN,
                position: MAX_INPUT_LEN,
            });
        }
        Parser {
            text,
            pos: 0,
            dice: 0,
        }
        .expr()
    }

    /// Roll the expression once, asking `roller` for each die left to right.
    ///
    /// The roller is not finished here: when it is a [`crate::Manual`] roller, call
    /// [`Roller::finish`] afterwards, because a manual roller that runs short
    /// stands in a 1 for each missing die and reports the shortage only there
    /// ("need 1 more d6").
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::Expr;
    /// use tabula_core::{Manual, Roller};
    ///
    /// let expr: Expr = "3d6".parse()?;
    /// let mut rolled = Manual::from_list("6,2,1");
    /// let outcome = expr.roll(&mut rolled)?;
    /// rolled.finish()?;
    /// assert_eq!(outcome.total, 9);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Whatever the roller reports: a typed value that is not a face of its die
    /// ([`RollError::NotAFace`]), a script that ran out.
    pub fn roll(&self, roller: &mut dyn Roller) -> Result<RollOutcome, RollError> {
        let mut terms = Vec::with_capacity(self.terms.len());
        let mut total: i64 = 0;
        for term in &self.terms {
            let outcome = match term.atom {
                Atom::Constant(value) => TermOutcome {
                    sign: term.sign,
                    text: value.to_string(),
                    dice: Vec::new(),
                    value: i64::from(value),
                },
                Atom::Dice(dice) => roll_dice(term.sign, dice, roller)?,
            };
            // Cannot overflow within the caps (about 1e11); saturating all the same.
            total = total.saturating_add(term.sign.apply(outcome.value));
            terms.push(outcome);
        }
        Ok(RollOutcome { total, terms })
    }

    /// How many dice one roll of this expression asks for (at most [`MAX_POOL`]).
    pub fn dice_count(&self) -> u32 {
        self.terms
            .iter()
            .map(|t| match t.atom {
                Atom::Constant(_) => 0,
                Atom::Dice(d) => d.count,
            })
            .fold(0u32, u32::saturating_add)
    }

    /// The terms, left to right.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }
}

fn roll_dice(
    sign: Sign,
    dice: DiceTerm,
    roller: &mut dyn Roller,
) -> Result<TermOutcome, RollError> {
    let die = Die::new(u64::from(dice.sides))?;
    let mut rolled = Vec::with_capacity(dice.count as usize);
    for _ in 0..dice.count {
        rolled.push(DieOutcome {
            sides: dice.sides,
            value: roller.roll(die)?,
            kept: true,
            success: None,
        });
    }
    if let Some(select) = dice.select {
        apply_select(select, &mut rolled);
    }
    let value = match dice.success {
        Some(success) => {
            let mut hits: i64 = 0;
            for d in rolled.iter_mut().filter(|d| d.kept) {
                let hit = success.test(d.value);
                d.success = Some(hit);
                hits += i64::from(hit);
            }
            hits
        }
        None => rolled
            .iter()
            .filter(|d| d.kept)
            .map(|d| i64::from(d.value))
            .sum(),
    };
    Ok(TermOutcome {
        sign,
        text: Atom::Dice(dice).to_string(),
        dice: rolled,
        value,
    })
}

/// Mark the dice that `select` drops.
fn apply_select(select: Select, dice: &mut [DieOutcome]) {
    // Indices from lowest to highest face; a stable sort keeps earlier dice
    // lower among equals.
    let mut order: Vec<usize> = (0..dice.len()).collect();
    order.sort_by_key(|&i| dice[i].value);
    let len = dice.len();
    let n = |k: u32| usize::try_from(k).unwrap_or(usize::MAX).min(len);
    // The range of `order` that is dropped.
    let dropped = match select {
        Select::KeepHighest(k) => 0..len - n(k),
        Select::KeepLowest(k) => n(k)..len,
        Select::DropHighest(k) => len - n(k)..len,
        Select::DropLowest(k) => 0..n(k),
    };
    for &i in &order[dropped] {
        dice[i].kept = false;
    }
}

impl FromStr for Expr {
    type Err = NotationError;

    /// The same as [`Expr::parse`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Expr::parse(s)
    }
}

impl fmt::Display for Expr {
    /// The canonical spelling: terms separated by ` + ` and ` - `, a leading
    /// `-` when the first term is subtracted, counts always written (`1d20`),
    /// `d%` as `d100`, `=` for equality.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            write_sign(f, i, term.sign)?;
            term.atom.fmt(f)?;
        }
        Ok(())
    }
}

fn write_sign(f: &mut fmt::Formatter<'_>, index: usize, sign: Sign) -> fmt::Result {
    match (index, sign) {
        (0, Sign::Plus) => Ok(()),
        (0, Sign::Minus) => f.write_str("-"),
        (_, s) => write!(f, " {} ", s.symbol()),
    }
}

impl fmt::Display for Atom {
    /// The term without its sign: `5`, `4d6kh3`, `10d6>=5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Constant(v) => write!(f, "{v}"),
            Atom::Dice(d) => d.fmt(f),
        }
    }
}

impl fmt::Display for DiceTerm {
    /// `4d6kh3`, `10d6>=5`, `1d100`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        if let Some(s) = self.select {
            s.fmt(f)?;
        }
        if let Some(s) = self.success {
            write!(f, "{}{}", s.compare.symbol(), s.target)?;
        }
        Ok(())
    }
}

impl fmt::Display for Select {
    /// `kh3`, `kl1`, `dh1`, `dl1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Select::KeepHighest(n) => write!(f, "kh{n}"),
            Select::KeepLowest(n) => write!(f, "kl{n}"),
            Select::DropHighest(n) => write!(f, "dh{n}"),
            Select::DropLowest(n) => write!(f, "dl{n}"),
        }
    }
}

/// The result of rolling an [`Expr`] once: every term with every die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOutcome {
    /// The sum of the signed term values.
    pub total: i64,
    /// Each term, left to right.
    pub terms: Vec<TermOutcome>,
}

/// One term of a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermOutcome {
    /// Whether the value is added or subtracted.
    pub sign: Sign,
    /// The term in canonical notation, without its sign: `4d6kh3`, `5`.
    pub text: String,
    /// Every die rolled for the term, in roll order (empty for a constant).
    pub dice: Vec<DieOutcome>,
    /// The term's value before its sign: the constant, the sum of the kept dice,
    /// or the count of successes.
    pub value: i64,
}

impl TermOutcome {
    /// Whether the term counted successes (its value is a count, not a sum).
    pub fn counts_successes(&self) -> bool {
        self.dice.iter().any(|d| d.success.is_some()) || self.text.contains(['<', '>', '='])
    }
}

/// One die as rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieOutcome {
    /// Sides of the die.
    pub sides: u32,
    /// The face rolled, 1..=sides.
    pub value: u32,
    /// False when a keep or drop selection dropped this die.
    pub kept: bool,
    /// For a success-counting term, whether this kept die is a success;
    /// `None` for dropped dice and for terms that sum.
    pub success: Option<bool>,
}

impl fmt::Display for DieOutcome {
    /// The face, followed by `*` for a success and ` dropped` for a dropped die.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)?;
        if self.success == Some(true) {
            f.write_str("*")?;
        }
        if !self.kept {
            f.write_str(" dropped")?;
        }
        Ok(())
    }
}

impl fmt::Display for RollOutcome {
    /// One line for the table, every die shown:
    /// `4d6kh3 (6, 5, 2 dropped, 4) + 1 = 16`,
    /// `10d6>=5 (6*, 2, 5*, 1, 3, 4, 4, 2, 1, 3) [2 successes] = 2`.
    /// A dropped die is followed by ` dropped`, a success by `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            write_sign(f, i, term.sign)?;
            f.write_str(&term.text)?;
            if term.text.contains(['d', 'D']) {
                f.write_str(" (")?;
                for (j, die) in term.dice.iter().enumerate() {
                    if j > 0 {
                        f.write_str(", ")?;
                    }
                    die.fmt(f)?;
                }
                f.write_str(")")?;
                if term.counts_successes() {
                    let s = if term.value == 1 { "" } else { "es" };
                    write!(f, " [{} success{s}]", term.value)?;
                }
            }
        }
        write!(f, " = {}", self.total)
    }
}

/// A recursive-free, single-pass parser over the bytes of the text. It only
/// ever advances over ASCII bytes or whole characters, so `pos` is always a
/// character boundary.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Dice counted so far, across terms.
    dice: u64,
}

const TERM_START: &str = "a number or a die such as `d20`";

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn peek_lower(&self) -> Option<u8> {
        self.peek().map(|b| b.to_ascii_lowercase())
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b) if b.is_ascii() => {
                    if !char::from(b).is_whitespace() {
                        return;
                    }
                    self.pos += 1;
                }
                Some(_) => match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
                    Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                    _ => return,
                },
                None => return,
            }
        }
    }

    fn unexpected(&self, expected: impl Into<String>) -> NotationError {
        let expected = expected.into();
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            Some(found) => NotationError::UnexpectedChar {
                found,
                expected,
                position: self.pos,
            },
            None => NotationError::UnexpectedEnd {
                expected,
                position: self.pos,
            },
        }
    }

    /// A decimal number at `pos`, at most [`MAX_NUMBER`].
    fn number(&mut self, expected: &str) -> Result<u32, NotationError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(b) = self.peek().filter(u8::is_ascii_digit) {
            // value <= MAX_NUMBER here, so this cannot overflow a u64.
            value = value * 10 + u64::from(b - b'0');
            if value > u64::from(MAX_NUMBER) {
                return Err(NotationError::NumberTooLarge {
                    max: MAX_NUMBER,
                    position: start,
                });
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.unexpected(expected));
        }
        Ok(value as u32)
    }

    fn expr(mut self) -> Result<Expr, NotationError> {
        let mut terms = Vec::new();
        self.skip_ws();
        let mut sign = match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                Sign::Minus
            }
            Some(b'+') => {
                self.pos += 1;
                Sign::Plus
            }
            _ => Sign::Plus,
        };
        loop {
            self.skip_ws();
            if terms.len() >= MAX_TERMS {
                return Err(NotationError::TooManyTerms {
                    max: MAX_TERMS,
                    position: self.pos,
                });
            }
            let atom = self.atom()?;
            terms.push(Term { sign, atom });
            self.skip_ws();
            sign = match self.peek() {
                None => break,
                Some(b'+') => Sign::Plus,
                Some(b'-') => Sign::Minus,
                Some(_) => return Err(self.unexpected("`+`, `-` or the end of the roll")),
            };
            self.pos += 1;
        }
        Ok(Expr { terms })
    }

    fn atom(&mut self) -> Result<Atom, NotationError> {
        let start = self.pos;
        let count = match self.peek_lower() {
            Some(b'0'..=b'9') => Some(self.number(TERM_START)?),
            Some(b'd') => None,
            _ => return Err(self.unexpected(TERM_START)),
        };
        self.skip_ws();
        if self.peek_lower() != Some(b'd') {
            // A lone number: the caller checks what follows it.
            return Ok(Atom::Constant(count.unwrap_or(0)));
        }
        let count = count.unwrap_or(1);
        self.dice += u64::from(count);
        if self.dice > u64::from(MAX_POOL) {
            return Err(NotationError::TooManyDice {
                count: self.dice,
                max: MAX_POOL,
                position: start,
            });
        }
        self.pos += 1; // the `d`
        self.skip_ws();
        let sides_at = self.pos;
        let sides = if self.peek() == Some(b'%') {
            self.pos += 1;
            100
        } else {
            self.number("the number of sides or `%` after `d`")?
        };
        if sides == 0 {
            return Err(NotationError::ZeroSides { position: sides_at });
        }
        if sides > MAX_SIDES {
            return Err(NotationError::TooManySides {
                sides,
                max: MAX_SIDES,
                position: sides_at,
            });
        }
        self.skip_ws();
        let select_at = self.pos;
        let select = self.select()?;
        if let Some(sel) = select {
            let (verb, n) = match sel {
                Select::KeepHighest(n) | Select::KeepLowest(n) => ("keep", n),
                Select::DropHighest(n) | Select::DropLowest(n) => ("drop", n),
            };
            if n > count {
                return Err(NotationError::SelectsMoreThanRolled {
                    verb,
                    selected: n,
                    rolled: count,
                    position: select_at,
                });
            }
        }
        self.skip_ws();
        let success_at = self.pos;
        let success = self.success()?;
        if let Some(test) = success
            && (1..=sides).all(|face| test.test(face))
        {
            return Err(NotationError::EveryFaceSucceeds {
                test: format!("{}{}", test.compare.symbol(), test.target),
                sides,
                position: success_at,
            });
        }
        Ok(Atom::Dice(DiceTerm {
            count,
            sides,
            select,
            success,
        }))
    }

    fn select(&mut self) -> Result<Option<Select>, NotationError> {
        let (keep, first) = match self.peek_lower() {
            Some(b'k') => (true, 'k'),
            Some(b'd') => (false, 'd'),
            Some(b'p') => (false, 'p'),
            _ => return Ok(None),
        };
        self.pos += 1;
        let high = match self.peek_lower() {
            Some(b'h') => true,
            Some(b'l') => false,
            _ => {
                return Err(self.unexpected(format!(
                    "`h` or `l` after `{first}` (`{first}h1` for the highest, `{first}l1` for the lowest)"
                )));
            }
        };
        self.pos += 1;
        // Static messages: the happy path allocates nothing.
        let (select, expected): (fn(u32) -> Select, &str) = match (keep, high) {
            (true, true) => (Select::KeepHighest, "a number after `kh`"),
            (true, false) => (Select::KeepLowest, "a number after `kl`"),
            (false, true) => (Select::DropHighest, "a number after `dh`"),
            (false, false) => (Select::DropLowest, "a number after `dl`"),
        };
        self.skip_ws();
        Ok(Some(select(self.number(expected)?)))
    }

    fn success(&mut self) -> Result<Option<Success>, NotationError> {
        let compare = match self.peek() {
            Some(b'>') => Compare::Above,
            Some(b'<') => Compare::Below,
            Some(b'=') => Compare::Equal,
            _ => return Ok(None),
        };
        self.pos += 1;
        let compare = if self.peek() == Some(b'=') {
            self.pos += 1;
            match compare {
                Compare::Above => Compare::AtLeast,
                Compare::Below => Compare::AtMost,
                other => other, // `==`
            }
        } else {
            compare
        };
        self.skip_ws();
        let expected = match compare {
            Compare::AtLeast => "a number after `>=`",
            Compare::Above => "a number after `>`",
            Compare::AtMost => "a number after `<=`",
            Compare::Below => "a number after `<`",
            Compare::Equal => "a number after `=`",
        };
        let target = self.number(expected)?;
        Ok(Some(Success { compare, target }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_success_test_every_face_passes_is_refused() {
        for text in ["10d6>=1", "3d6>0", "2d6<=6", "2d6<7", "1d1=1"] {
            assert!(
                matches!(
                    Expr::parse(text),
                    Err(NotationError::EveryFaceSucceeds { .. })
                ),
                "{text}"
            );
        }
        assert!(Expr::parse("10d6>=2").is_ok());
        let e = Expr::parse("10d6>=1").unwrap_err().to_string();
        assert!(e.contains("every face of a d6 passes >=1"), "{e}");
    }

    fn select() -> impl Strategy<Value = Select> {
        prop_oneof![
            (0..40u32).prop_map(Select::KeepHighest),
            (0..40u32).prop_map(Select::KeepLowest),
            (0..40u32).prop_map(Select::DropHighest),
            (0..40u32).prop_map(Select::DropLowest),
            Just(Select::KeepHighest(MAX_NUMBER)),
        ]
    }

    fn success() -> impl Strategy<Value = Success> {
        let compare = prop_oneof![
            Just(Compare::AtLeast),
            Just(Compare::Above),
            Just(Compare::AtMost),
            Just(Compare::Below),
            Just(Compare::Equal),
        ];
        (compare, 0..=MAX_SIDES + 1).prop_map(|(compare, target)| Success { compare, target })
    }

    fn atom() -> impl Strategy<Value = Atom> {
        prop_oneof![
            (0..=MAX_NUMBER).prop_map(Atom::Constant),
            (
                0..=30u32,
                prop_oneof![1..=20u32, 1..=MAX_SIDES],
                proptest::option::of(select()),
                proptest::option::of(success()),
            )
                .prop_map(|(count, sides, select, success)| {
                    // Only what the parser accepts: no keeping or dropping more
                    // dice than rolled, no test every face passes.
                    let select = select.map(|s| match s {
                        Select::KeepHighest(n) => Select::KeepHighest(n.min(count)),
                        Select::KeepLowest(n) => Select::KeepLowest(n.min(count)),
                        Select::DropHighest(n) => Select::DropHighest(n.min(count)),
                        Select::DropLowest(n) => Select::DropLowest(n.min(count)),
                    });
                    let success = success.filter(|t| !(1..=sides).all(|f| t.test(f)));
                    Atom::Dice(DiceTerm {
                        count,
                        sides,
                        select,
                        success,
                    })
                }),
        ]
    }

    /// Any expression within the caps (at most 30 terms of at most 30 dice).
    pub(crate) fn expr() -> impl Strategy<Value = Expr> {
        let sign = prop_oneof![Just(Sign::Plus), Just(Sign::Minus)];
        proptest::collection::vec((sign, atom()), 1..=30).prop_map(|terms| Expr {
            terms: terms
                .into_iter()
                .map(|(sign, atom)| Term { sign, atom })
                .collect(),
        })
    }

    proptest! {
        #[test]
        fn keeping_or_dropping_more_dice_than_rolled_is_refused(n in 3u32..50) {
            for op in ["kh", "kl", "dh", "dl"] {
                let text = format!("2d6{op}{n}");
                let is_refused = matches!(
                    Expr::parse(&text),
                    Err(NotationError::SelectsMoreThanRolled { rolled: 2, .. })
                );
                prop_assert!(is_refused, "{}", text);
            }
        }

        #[test]
        fn printing_then_parsing_round_trips(e in expr()) {
            let text = e.to_string();
            prop_assert_eq!(Expr::parse(&text), Ok(e), "{}", text);
        }

        #[test]
        fn every_die_in_range_and_total_is_the_sum(e in expr(), seed in any::<u64>()) {
            let mut roller = crate::Seeded::from_seed(seed);
            let out = e.roll(&mut roller).unwrap();
            prop_assert_eq!(out.terms.len(), e.terms.len());
            let mut sum = 0i64;
            let mut dice = 0usize;
            for (t, o) in e.terms.iter().zip(&out.terms) {
                prop_assert_eq!(t.sign, o.sign);
                prop_assert_eq!(t.atom.to_string(), o.text.clone());
                for d in &o.dice {
                    prop_assert!(d.value >= 1 && d.value <= d.sides);
                }
                dice += o.dice.len();
                sum += t.sign.apply(o.value);
            }
            prop_assert_eq!(out.total, sum);
            prop_assert_eq!(dice, e.dice_count() as usize);
        }
    }

    #[test]
    fn largest_total_fits() {
        // 90 of the largest constants is as far as the input cap lets a text go.
        let text = vec!["1000000000"; 90].join("+");
        let e = Expr::parse(&text).unwrap();
        let out = e.roll(&mut crate::Seeded::from_seed(1)).unwrap();
        assert_eq!(out.total, 90_000_000_000);
    }
}
