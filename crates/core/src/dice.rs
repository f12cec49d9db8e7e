//! Dice: one die within explicit caps, pools of dice, and the Tiers book's d3.
//!
//! Caps are explicit so that no message from a player can hang or exhaust the
//! process: a die has at most [`MAX_SIDES`] sides and one pool at most
//! [`MAX_POOL`] dice.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::roller::{RollError, Roller};

/// The most sides a die may have (a d10000 is allowed, a d10001 is not).
pub const MAX_SIDES: u32 = 10_000;
/// The most dice one pool (or one notation expression) may roll.
pub const MAX_POOL: u32 = 1_000;

/// A named set of face labels for dice whose faces are symbols, not numbers
/// (the Sapio Spiral Die). Face `i` (1-based) carries `labels[i - 1]`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct FaceSet {
    /// What the die is called, e.g. `"Spiral Die"`.
    pub name: &'static str,
    /// One label per face, in face order; labels may repeat (two Spiral faces).
    pub labels: &'static [&'static str],
}

/// One die: `sides` faces numbered 1..=sides, optionally labelled.
///
/// Built only through [`Die::new`] (or the constants), so `sides` is always in
/// 1..=[`MAX_SIDES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Die {
    sides: u32,
    faces: Option<&'static FaceSet>,
}

/// A die could not be built or a pool is too large.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum DiceError {
    /// A die must have between 1 and [`MAX_SIDES`] sides.
    #[error("a die must have between 1 and {max} sides, not {sides}")]
    Sides {
        /// The number of sides asked for.
        sides: u64,
        /// [`MAX_SIDES`].
        max: u32,
    },
    /// A pool may hold at most [`MAX_POOL`] dice.
    #[error("at most {max} dice may be rolled at once, not {count}")]
    TooMany {
        /// The number of dice asked for.
        count: u64,
        /// [`MAX_POOL`].
        max: u32,
    },
}

impl Die {
    /// The six-sided die.
    pub const D6: Die = Die {
        sides: 6,
        faces: None,
    };
    /// The twenty-sided die.
    pub const D20: Die = Die {
        sides: 20,
        faces: None,
    };
    /// The true three-sided die.
    pub const D3: Die = Die {
        sides: 3,
        faces: None,
    };

    /// A die with `sides` numbered faces.
    ///
    /// # Errors
    /// [`DiceError::Sides`] unless 1 <= `sides` <= [`MAX_SIDES`].
    pub fn new(sides: u64) -> Result<Die, DiceError> {
        if sides == 0 || sides > u64::from(MAX_SIDES) {
            return Err(DiceError::Sides {
                sides,
                max: MAX_SIDES,
            });
        }
        Ok(Die {
            sides: sides as u32,
            faces: None,
        })
    }

    /// A die whose faces carry the labels of `faces` (one side per label).
    ///
    /// # Errors
    /// [`DiceError::Sides`] if the face set is empty or larger than [`MAX_SIDES`].
    pub fn labelled(faces: &'static FaceSet) -> Result<Die, DiceError> {
        let sides = Die::new(faces.labels.len() as u64)?.sides;
        Ok(Die {
            sides,
            faces: Some(faces),
        })
    }

    /// The number of sides, 1..=[`MAX_SIDES`].
    pub fn sides(&self) -> u32 {
        self.sides
    }

    /// The face labels, for symbol dice.
    pub fn faces(&self) -> Option<&'static FaceSet> {
        self.faces
    }

    /// The label of face `value` (1-based), or its number for numbered dice.
    pub fn face_label(&self, value: u32) -> String {
        match self.faces {
            Some(f) => f
                .labels
                .get(value.saturating_sub(1) as usize)
                .map(|s| s.to_string())
                .unwrap_or_else(|| value.to_string()),
            None => value.to_string(),
        }
    }

    /// Roll this die once: a value in 1..=sides.
    ///
    /// # Errors
    /// Whatever the roller reports (manual values out of range, a script run out).
    pub fn roll(self, roller: &mut dyn Roller) -> Result<u32, RollError> {
        roller.roll(self)
    }

    /// Roll `count` of this die.
    ///
    /// # Errors
    /// [`RollError::Dice`] when `count` exceeds [`MAX_POOL`]; otherwise whatever
    /// the roller reports.
    pub fn roll_pool(self, count: u32, roller: &mut dyn Roller) -> Result<Vec<u32>, RollError> {
        check_pool(u64::from(count)).map_err(RollError::Dice)?;
        (0..count).map(|_| roller.roll(self)).collect()
    }
}

/// Check that a pool of `count` dice is within [`MAX_POOL`].
///
/// # Errors
/// [`DiceError::TooMany`] when it is not.
pub fn check_pool(count: u64) -> Result<(), DiceError> {
    if count > u64::from(MAX_POOL) {
        Err(DiceError::TooMany {
            count,
            max: MAX_POOL,
        })
    } else {
        Ok(())
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.faces {
            Some(faces) => f.write_str(faces.name),
            None => write!(f, "d{}", self.sides),
        }
    }
}

/// How a table rolls the Tiers book's d3.
///
/// Tiers, "Dice" (002_631931fd73349179.txt): "If you don't have three-sided dice,
/// then you can roll 1d6 and halve the result, rounding up."
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum D3Mode {
    /// A real three-sided die.
    #[default]
    True,
    /// A d6, halved and rounded up: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3.
    HalvedD6,
}

/// One d3 as rolled: its value and, when rolled as a halved d6, the d6 face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct D3Roll {
    /// The d3 value, 1..=3.
    pub value: u32,
    /// The d6 face shown, when the d3 was a halved d6.
    pub d6: Option<u32>,
}

impl D3Mode {
    /// Roll one d3 in this mode.
    ///
    /// Tiers, "Dice" (002_631931fd73349179.txt).
    ///
    /// # Errors
    /// Whatever the roller reports.
    pub fn roll(self, roller: &mut dyn Roller) -> Result<D3Roll, RollError> {
        match self {
            D3Mode::True => Ok(D3Roll {
                value: roller.roll(Die::D3)?,
                d6: None,
            }),
            D3Mode::HalvedD6 => {
                let d6 = roller.roll(Die::D6)?;
                Ok(D3Roll {
                    value: d6.div_ceil(2),
                    d6: Some(d6),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roller::Scripted;

    #[test]
    fn caps_are_enforced() {
        assert!(Die::new(0).is_err());
        assert!(Die::new(u64::from(MAX_SIDES) + 1).is_err());
        assert_eq!(Die::new(20).unwrap(), Die::D20);
        let mut r = Scripted::dice([1]);
        assert!(matches!(
            Die::D6.roll_pool(MAX_POOL + 1, &mut r),
            Err(RollError::Dice(DiceError::TooMany { .. }))
        ));
    }

    #[test]
    fn halved_d6_rounds_up() {
        let mut r = Scripted::dice([1, 2, 3, 4, 5, 6]);
        let got: Vec<u32> = (0..6)
            .map(|_| D3Mode::HalvedD6.roll(&mut r).unwrap().value)
            .collect();
        assert_eq!(got, vec![1, 1, 2, 2, 3, 3]);
    }
}
