//! Exact odds: a roll against a Goal (d6 or N d3, plus a bonus), a Competing
//! Roll, and the damage of an enemy's bought Rolls.
//!
//! A halved d6 gives each d3 face with chance 1/3, the same as a true d3, so the
//! table's [`tabula_core::D3Mode`] does not change any odds.

use serde::Serialize;

use crate::roleplay::{Contest, ContestResult, RollKind, TieRule, contest};
use tabula_core::odds::{Dist, OddsError};

/// The distribution of one roll's total: d6 + bonus, or Nd3 + bonus.
///
/// Tiers, "Roleplay Bonus", "Roleplaying in Combat", "Dice" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn total(kind: RollKind, bonus: i64) -> Result<Dist, OddsError> {
    let dice = match kind {
        RollKind::OutOfCombat => Dist::die(6)?,
        RollKind::InCombat { d3 } => {
            tabula_core::dice::check_pool(u64::from(d3)).map_err(|_| OddsError::TooLarge {
                max: tabula_core::odds::MAX_OUTCOMES,
            })?;
            Dist::die(3)?.sum_of(d3)?
        }
    };
    Ok(dice.shift(bonus))
}

/// The odds of a roll against a Goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckOdds {
    /// The chance the total meets or exceeds the Goal, exact, 0..=1.
    pub probability: f64,
    /// The Goal.
    pub goal: u32,
    /// The bonus added (may be negative).
    pub bonus: i64,
    /// d3s rolled (in combat), or none (one d6 out of combat).
    pub d3: Option<u32>,
    /// The smallest and largest totals.
    pub range: (i64, i64),
    /// The mean total.
    pub mean: f64,
}

/// The chance that a roll of `kind` plus `bonus` meets or exceeds `goal`.
///
/// Tiers, "Asking for Rolls" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn check(kind: RollKind, bonus: i64, goal: u32) -> Result<CheckOdds, OddsError> {
    let d = total(kind, bonus)?;
    Ok(CheckOdds {
        probability: d.p_at_least(i64::from(goal)),
        goal,
        bonus,
        d3: match kind {
            RollKind::OutOfCombat => None,
            RollKind::InCombat { d3 } => Some(d3),
        },
        range: d.range(),
        mean: d.mean(),
    })
}

/// The odds of a Competing (or PvP) Roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContestOdds {
    /// The chance the first roller wins (for PvP, ties counted for the Defendant).
    pub probability: f64,
    /// The chance the second roller wins.
    pub second: f64,
    /// The chance of a tie that nothing or a re-roll settles (0 for PvP).
    pub tie: f64,
}

/// The odds of a contest between two independent totals.
///
/// Tiers, "Competing Rolls", "Defendants & Tied PvP Rolls" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn contest_odds(first: &Dist, second: &Dist, kind: Contest) -> Result<ContestOdds, OddsError> {
    let d = first.combine(second, |a, b| {
        let r = contest(*a, *b, kind);
        match r {
            ContestResult::First => 0i64,
            ContestResult::Second => 1,
            ContestResult::Tie(_) => 2,
        }
    })?;
    Ok(ContestOdds {
        probability: d.p(&0),
        second: d.p(&1),
        tie: d.p(&2),
    })
}

/// The distribution of an enemy's bought Rolls used for damage: `d6` d6 plus `d3`
/// d3 plus `combat_points`.
///
/// Tiers, "Creating Combat", "Enemy Behavior" (002_631931fd73349179.txt).
///
/// # Errors
/// [`OddsError::TooLarge`] past the core caps.
pub fn damage(d6: u32, d3: u32, combat_points: u32) -> Result<Dist, OddsError> {
    for n in [d6, d3] {
        tabula_core::dice::check_pool(u64::from(n)).map_err(|_| OddsError::TooLarge {
            max: tabula_core::odds::MAX_OUTCOMES,
        })?;
    }
    Ok(Dist::die(6)?
        .sum_of(d6)?
        .add(&Dist::die(3)?.sum_of(d3)?)?
        .shift(i64::from(combat_points)))
}

/// The default tie rule used where a contest's odds need one.
pub const DEFAULT_TIE: TieRule = TieRule::NothingHappens;

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Brute force: every face of every die, counted.
    fn enumerate(d6: u32, d3: u32) -> Vec<i64> {
        let mut totals = vec![0i64];
        for _ in 0..d6 {
            totals = totals
                .iter()
                .flat_map(|t| (1..=6).map(move |f| t + f))
                .collect();
        }
        for _ in 0..d3 {
            totals = totals
                .iter()
                .flat_map(|t| (1..=3).map(move |f| t + f))
                .collect();
        }
        totals
    }

    #[test]
    fn check_odds_match_enumeration() {
        // Negative bonuses too: a Hinder lowers a roll.
        for bonus in -3..=6i64 {
            for goal in 0..=14u32 {
                let all = enumerate(1, 0);
                let want = all
                    .iter()
                    .filter(|t| **t + bonus >= i64::from(goal))
                    .count() as f64
                    / all.len() as f64;
                let got = check(RollKind::OutOfCombat, bonus, goal)
                    .unwrap()
                    .probability;
                assert!(close(got, want), "d6+{bonus} vs {goal}");
                for n in 1..=5u32 {
                    let all = enumerate(0, n);
                    let want = all
                        .iter()
                        .filter(|t| **t + bonus >= i64::from(goal))
                        .count() as f64
                        / all.len() as f64;
                    let got = check(RollKind::InCombat { d3: n }, bonus, goal)
                        .unwrap()
                        .probability;
                    assert!(close(got, want), "{n}d3+{bonus} vs {goal}");
                }
            }
        }
    }

    #[test]
    fn contest_odds_match_enumeration() {
        let a = total(RollKind::OutOfCombat, 1).unwrap();
        let b = total(RollKind::OutOfCombat, 2).unwrap();
        let (mut win, mut lose, mut tie) = (0, 0, 0);
        for x in 1..=6 {
            for y in 1..=6 {
                match (x + 1).cmp(&(y + 2)) {
                    std::cmp::Ordering::Greater => win += 1,
                    std::cmp::Ordering::Less => lose += 1,
                    std::cmp::Ordering::Equal => tie += 1,
                }
            }
        }
        let o = contest_odds(&a, &b, Contest::Competing { tie: DEFAULT_TIE }).unwrap();
        assert!(close(o.probability, f64::from(win) / 36.0));
        assert!(close(o.second, f64::from(lose) / 36.0));
        assert!(close(o.tie, f64::from(tie) / 36.0));
        let pvp = contest_odds(
            &a,
            &b,
            Contest::Pvp {
                first_defends: true,
            },
        )
        .unwrap();
        assert!(close(pvp.probability, f64::from(win + tie) / 36.0));
        assert!(close(pvp.tie, 0.0));
    }

    #[test]
    fn damage_of_bought_rolls_matches_enumeration() {
        let d = damage(2, 3, 1).unwrap();
        let all = enumerate(2, 3);
        for v in 0..=40i64 {
            let want = all.iter().filter(|t| **t + 1 == v).count() as f64 / all.len() as f64;
            assert!(close(d.p(&v), want));
        }
        assert!(close(d.mean(), 7.0 + 6.0 + 1.0));
    }

    #[test]
    fn caps_refuse() {
        assert!(total(RollKind::InCombat { d3: 1_000_000 }, 0).is_err());
        assert!(damage(5000, 0, 0).is_err());
    }
}
