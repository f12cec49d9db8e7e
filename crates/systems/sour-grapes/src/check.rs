//! The Check roll and its odds.
//!
//! Sour Grapes, "Check" (000_05a1db5b88f54528.txt); R-SG-1: dice up to the
//! Current Stat Value, tokens up to the Skill; tokens are successes, dice not
//! showing 1 are successes, each 1 exhausts the stat by one; the check succeeds
//! when the successes are strictly more than the Difficulty.

use serde::{Deserialize, Serialize};
use tabula_core::odds::{Dist, OddsError};
use tabula_core::{Die, Roller, Rule, RuleError};

use crate::rules;

/// The most dice one check may roll (a stat is at most 10; the CLI accepts up to
/// this many so a table's house rules can go further).
pub const MAX_DICE: u32 = 100;
/// The most tokens one check may add.
pub const MAX_TOKENS: u32 = 100;
/// The largest Difficulty accepted.
pub const MAX_DIFFICULTY: u32 = 1_000;

/// One rolled check: every die, the tokens, the successes and the exhaustion.
///
/// Sour Grapes, "Check" (000_05a1db5b88f54528.txt); R-SG-1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRoll {
    /// Every d6 rolled, in order (faces 1..=6).
    pub dice: Vec<u32>,
    /// Skill tokens used: each is a success.
    pub tokens: u32,
    /// Tokens plus dice not showing 1.
    pub successes: u32,
    /// Dice showing 1: each exhausts the stat by one point.
    pub ones: u32,
}

impl CheckRoll {
    /// Count a roll from its faces and tokens.
    pub fn from_faces(dice: Vec<u32>, tokens: u32) -> Self {
        let ones = dice.iter().filter(|d| **d == 1).count() as u32;
        let landed = (dice.len() as u32).saturating_sub(ones);
        let successes = tokens.saturating_add(landed);
        CheckRoll {
            dice,
            tokens,
            successes,
            ones,
        }
    }

    /// Roll `dice` d6 through `roller` and add `tokens`.
    ///
    /// # Errors
    /// The roller's errors.
    pub fn roll(roller: &mut dyn Roller, dice: u32, tokens: u32) -> Result<Self, RuleError> {
        let mut faces = Vec::with_capacity(dice.min(MAX_DICE) as usize);
        for _ in 0..dice.min(MAX_DICE) {
            faces.push(roller.roll(Die::D6)?);
        }
        Ok(Self::from_faces(faces, tokens))
    }

    /// The dice and tokens written the way the book does: "Token, Token, Six, Two, One".
    pub fn shown(&self) -> String {
        let mut parts: Vec<String> = (0..self.tokens).map(|_| "token".to_string()).collect();
        parts.extend(self.dice.iter().map(|d| d.to_string()));
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// The outcome of a single Check: the roll, the difficulty, success and the
/// points of the stat exhausted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOutcome {
    /// The Difficulty threshold.
    pub difficulty: u32,
    /// The roll.
    pub roll: CheckRoll,
    /// The successes (tokens + dice not showing 1).
    pub successes: u32,
    /// True when successes > difficulty (R-SG-1).
    pub success: bool,
    /// Points of the stat exhausted (one per 1 rolled).
    pub exhausted: u32,
}

/// A single Check's inputs, as the CLI and the table give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckSpec {
    /// Dice to roll (at most the Current Stat Value when `stat` is given).
    pub dice: u32,
    /// Skill tokens to add.
    pub tokens: u32,
    /// The Difficulty.
    pub difficulty: u32,
    /// The Current Stat Value, when known: dice may not exceed it.
    pub stat: Option<u32>,
}

impl CheckSpec {
    /// Check the caps and "dice up to the Current Stat Value".
    ///
    /// # Errors
    /// [`RuleError`] (out of range) naming the field.
    pub fn validate(&self) -> Result<(), RuleError> {
        let max_dice = self.stat.unwrap_or(MAX_DICE).min(MAX_DICE);
        if self.dice > max_dice {
            return Err(RuleError::out_of_range(
                rules::CHECK,
                "dice",
                0,
                i64::from(max_dice),
                i64::from(self.dice),
            ));
        }
        if let Some(s) = self.stat
            && s > MAX_DICE
        {
            return Err(RuleError::out_of_range(
                rules::CHECK,
                "stat",
                0,
                i64::from(MAX_DICE),
                i64::from(s),
            ));
        }
        if self.tokens > MAX_TOKENS {
            return Err(RuleError::out_of_range(
                rules::CHECK,
                "tokens",
                0,
                i64::from(MAX_TOKENS),
                i64::from(self.tokens),
            ));
        }
        if self.difficulty > MAX_DIFFICULTY {
            return Err(RuleError::out_of_range(
                rules::CHECK,
                "difficulty",
                0,
                i64::from(MAX_DIFFICULTY),
                i64::from(self.difficulty),
            ));
        }
        Ok(())
    }
}

/// True when `successes` pass `difficulty`: strictly more (R-SG-1).
///
/// Sour Grapes, "Check" (000_05a1db5b88f54528.txt); R-SG-1.
pub fn passes(successes: u32, difficulty: u32) -> bool {
    successes > difficulty
}

/// Roll a single Check.
///
/// Sour Grapes, "Check" (000_05a1db5b88f54528.txt); R-SG-1.
///
/// # Errors
/// Out-of-range dice, tokens or difficulty; the roller's errors.
///
/// # Examples
/// The book's lock-pick: lock-pick 2, Perception 7, five dice against 5.
/// ```
/// use tabula_core::Scripted;
/// use tabula_sour_grapes::check::{check, CheckSpec};
/// let spec = CheckSpec { dice: 5, tokens: 2, difficulty: 5, stat: Some(7) };
/// let out = check(spec, &mut Scripted::dice([6, 2, 1, 1, 5])).unwrap();
/// assert_eq!((out.successes, out.success, out.exhausted), (5, false, 2));
/// ```
pub fn check(spec: CheckSpec, roller: &mut dyn Roller) -> Result<CheckOutcome, RuleError> {
    spec.validate()?;
    let roll = CheckRoll::roll(roller, spec.dice, spec.tokens)?;
    Ok(CheckOutcome {
        difficulty: spec.difficulty,
        successes: roll.successes,
        success: passes(roll.successes, spec.difficulty),
        exhausted: roll.ones,
        roll,
    })
}

/// The distribution of successes for `dice` d6 plus `tokens` (each die is a
/// success unless it shows 1).
///
/// # Errors
/// [`OddsError`] past the caps.
pub fn successes_dist(dice: u32, tokens: u32) -> Result<Dist<i64>, OddsError> {
    Ok(Dist::die(6)?
        .count_successes(dice, |v| v != 1)?
        .shift(i64::from(tokens)))
}

/// The odds of one choice of dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiceChoice {
    /// Dice rolled.
    pub dice: u32,
    /// The chance of success, 0..1 (exact).
    pub probability: f64,
    /// Expected points exhausted (dice / 6).
    pub expected_exhaustion: f64,
}

/// The odds of a Check: the chance for the dice asked, every dice count from 0 to
/// the Current Stat Value, and the fewest dice reaching a target chance.
///
/// Sour Grapes, "Check" (000_05a1db5b88f54528.txt): "The player may choose to use
/// less dice in a roll to prevent additional ones"; R-SG-1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckOdds {
    /// Dice asked about.
    pub dice: u32,
    /// Tokens.
    pub tokens: u32,
    /// Difficulty.
    pub difficulty: u32,
    /// The chance that `dice` dice plus `tokens` beat `difficulty` (exact, 0..1).
    pub probability: f64,
    /// Expected exhaustion for `dice` dice.
    pub expected_exhaustion: f64,
    /// Every dice count 0..=stat with its chance and expected exhaustion.
    pub choices: Vec<DiceChoice>,
    /// The target chance asked for (0..1).
    pub target: f64,
    /// The fewest dice (so the least expected exhaustion) that reach `target`,
    /// or `None` when even every die does not.
    pub best_dice: Option<u32>,
}

/// The chance of passing `need_more_than` with `dice` dice and `tokens` tokens.
///
/// # Errors
/// [`OddsError`] past the caps.
pub fn p_success(dice: u32, tokens: u32, difficulty: u32) -> Result<f64, OddsError> {
    // `+ 0.0` turns the -0.0 of an empty sum into 0.0.
    Ok((successes_dist(dice, tokens)?.p_more_than(i64::from(difficulty)) + 0.0).clamp(0.0, 1.0))
}

/// The odds of a Check for every dice count 0..=`stat` (the Current Stat Value;
/// `dice` when not given).
///
/// # Errors
/// Out-of-range inputs name the field.
pub fn odds(spec: CheckSpec, target: f64) -> Result<CheckOdds, RuleError> {
    spec.validate()?;
    let stat = spec.stat.unwrap_or(spec.dice);
    let to_err = |e: OddsError| RuleError::forbidden(rules::CHECK, e.to_string());
    let mut choices = Vec::new();
    for n in 0..=stat {
        choices.push(DiceChoice {
            dice: n,
            probability: p_success(n, spec.tokens, spec.difficulty).map_err(to_err)?,
            expected_exhaustion: f64::from(n) / 6.0,
        });
    }
    let probability = p_success(spec.dice, spec.tokens, spec.difficulty).map_err(to_err)?;
    let best_dice = choices
        .iter()
        .find(|c| c.probability + 1e-12 >= target)
        .map(|c| c.dice);
    Ok(CheckOdds {
        dice: spec.dice,
        tokens: spec.tokens,
        difficulty: spec.difficulty,
        probability,
        expected_exhaustion: f64::from(spec.dice) / 6.0,
        choices,
        target,
        best_dice,
    })
}

/// The chance of at least `need` successes with `dice` d6 and `tokens` tokens:
/// a card's value (R-SG-2: "at least that many successes"), or a check's
/// Difficulty plus one (R-SG-1: strictly more). A need of 0 always passes.
///
/// Sour Grapes, "Check", "Card Mechanics" (000_05a1db5b88f54528.txt); R-SG-1, R-SG-2.
///
/// # Errors
/// [`OddsError`] past the caps.
pub fn p_at_least(dice: u32, tokens: u32, need: u32) -> Result<f64, OddsError> {
    match need.checked_sub(1) {
        None => Ok(1.0),
        Some(difficulty) => p_success(dice, tokens, difficulty),
    }
}

/// The chance of every dice choice 0..=`max_dice` (at most [`MAX_DICE`]) with
/// `tokens` tokens of reaching `need` successes ([`p_at_least`]); `None` where
/// the odds are past the caps. What `status` prints and `odds` offers.
pub fn dice_chances(max_dice: u32, tokens: u32, need: u32) -> Vec<Option<f64>> {
    (0..=max_dice.min(MAX_DICE))
        .map(|n| p_at_least(n, tokens, need).ok())
        .collect()
}

/// Chances by dice count written short: `0d:0.0% 1d:83.3% ...` (percent, one decimal, as all odds in text) (`?` past the caps).
pub fn chances_line(chances: &[Option<f64>]) -> String {
    chances
        .iter()
        .enumerate()
        .map(|(n, p)| match p {
            Some(p) => format!("{n}d:{:.1}%", p * 100.0),
            None => format!("{n}d:?"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A short line of odds for every dice choice 0..=`max_dice` against a card or
/// check that needs at least `need` successes: `0d:0.0% 1d:83.3% ...`.
pub fn odds_line(max_dice: u32, tokens: u32, need: u32) -> String {
    chances_line(&dice_chances(max_dice, tokens, need))
}

/// The citation of a Check, for other modules.
pub const RULE: Rule = rules::CHECK;

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Scripted;

    /// Sour Grapes, "Check": the lock-pick example replays exactly.
    #[test]
    fn lock_pick_example() {
        let spec = CheckSpec {
            dice: 5,
            tokens: 2,
            difficulty: 5,
            stat: Some(7),
        };
        let out = check(spec, &mut Scripted::dice([6, 2, 1, 1, 5])).unwrap();
        assert_eq!(out.roll.dice, vec![6, 2, 1, 1, 5]);
        assert_eq!(out.successes, 5);
        assert!(!out.success, "5 against 5 fails (R-SG-1)");
        assert_eq!(out.exhausted, 2);
        assert_eq!(out.roll.shown(), "token, token, 6, 2, 1, 1, 5");
    }

    #[test]
    fn dice_above_stat_refused() {
        let spec = CheckSpec {
            dice: 8,
            tokens: 0,
            difficulty: 1,
            stat: Some(7),
        };
        assert!(check(spec, &mut Scripted::dice([])).is_err());
    }

    fn brute(dice: u32, tokens: u32, difficulty: u32) -> f64 {
        let total = 6u64.pow(dice);
        let mut good = 0u64;
        for i in 0..total {
            let mut x = i;
            let mut s = tokens;
            for _ in 0..dice {
                if x % 6 != 0 {
                    s += 1;
                }
                x /= 6;
            }
            if s > difficulty {
                good += 1;
            }
        }
        good as f64 / total as f64
    }

    #[test]
    fn odds_match_brute_force() {
        for dice in 0..=6 {
            for tokens in 0..=3 {
                for difficulty in 0..=9 {
                    let p = p_success(dice, tokens, difficulty).unwrap();
                    let b = brute(dice, tokens, difficulty);
                    assert!(
                        (p - b).abs() < 1e-9,
                        "{dice} {tokens} {difficulty}: {p} vs {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn best_dice_is_fewest() {
        let o = odds(
            CheckSpec {
                dice: 7,
                tokens: 2,
                difficulty: 5,
                stat: Some(7),
            },
            0.5,
        )
        .unwrap();
        assert_eq!(o.choices.len(), 8);
        let best = o.best_dice.unwrap();
        assert!(o.choices[best as usize].probability >= 0.5);
        assert!(best == 0 || o.choices[best as usize - 1].probability < 0.5);
    }
}
