//! Helpers the notation tests share: a roll with scripted dice, and the
//! exact distribution of a roll by walking every sequence of faces it can
//! ask for (an odometer over the dice), against which the odds are checked.
#![allow(dead_code)]

use std::collections::BTreeMap;

use tabula_core::notation::Expr;
use tabula_core::{Card, Die, RollError, RollOutcome, Roller, Scripted};

/// `text` (d20's notation) rolled with `faces`, every one used.
///
/// # Panics
/// When `text` does not read, the roll fails or faces are left over.
pub fn roll(text: &str, faces: &[u32]) -> RollOutcome {
    let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut dice = Scripted::dice(faces.iter().copied());
    let out = expr.roll(&mut dice).unwrap();
    assert_eq!(dice.remaining(), 0, "{text}: dice left");
    out
}

/// A roller that walks every sequence of faces in turn, like an odometer.
pub struct Walk {
    path: Vec<(u32, u32)>,
    at: usize,
}

impl Roller for Walk {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        if self.at == self.path.len() {
            self.path.push((1, die.sides()));
        }
        let face = self.path[self.at].0;
        self.at += 1;
        Ok(face)
    }

    fn draw(&mut self, _: &[Card]) -> Result<usize, RollError> {
        Err(RollError::EmptyPile)
    }
}

/// The distribution of the total over every sequence of dice the roll can
/// ask for (explosions to their cap included).
pub fn brute_force(expr: &Expr) -> BTreeMap<i64, f64> {
    let mut walk = Walk {
        path: Vec::new(),
        at: 0,
    };
    let mut dist = BTreeMap::new();
    loop {
        walk.at = 0;
        let out = expr.roll(&mut walk).unwrap();
        walk.path.truncate(walk.at);
        let p: f64 = walk.path.iter().map(|(_, s)| 1.0 / f64::from(*s)).product();
        *dist.entry(out.total).or_insert(0.0) += p;
        loop {
            match walk.path.last_mut() {
                None => return dist,
                Some(last) if last.0 < last.1 => {
                    last.0 += 1;
                    break;
                }
                Some(_) => {
                    walk.path.pop();
                }
            }
        }
    }
}
