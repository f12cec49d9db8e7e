//! Exact odds of a check: the chance of meeting the TN (Improbable Success
//! included), the distribution of extra Hits, and of net Spares / Spirals.
//!
//! The Sapio System, "When to Roll" and "Special Situations when Rolling"
//! (004_f39b4146df158cae.txt); R-SA-1 (the faces), R-SA-2, R-SA-3.
//!
//! # Method (exact, no truncated series)
//!
//! The outcome of `n` dice is the exact distribution of (Hits, Spares, Spirals),
//! the `n`-fold convolution of the die of R-SA-1. Improbable Success (R-SA-3) is a
//! repetition, but a finite one: `n` dice all showing two Hits give `2n` Hits, so a
//! reroll happens only while `2n < TN`. With `F(n)` the distribution of the final
//! outcome from `n` dice,
//!
//! ```text
//! F(n) = D(n) restricted to "not all double Hits"  +  (1/6)^n * F(n + 1)   if 2n < TN
//! F(n) = D(n)                                                                otherwise
//! ```
//!
//! (`n` dice show `2n` Hits exactly when every die shows two Hits, which has chance
//! `(2/12)^n`.) The recursion ends after at most `TN/2` steps, so the probability is
//! a finite sum of exact terms: a closed form, accurate to floating-point rounding
//! (about 1e-15), not a truncated series.

use serde::Serialize;
use std::collections::BTreeMap;
use tabula_core::odds::{Dist, OddsError};

use crate::checks::{self, Pool, PoolSpec};
use crate::spiral_dice::FACE_ORDER;

/// (Hits, Spares, Spirals) of a roll.
pub type Outcome = (i64, i64, i64);

/// The exact distribution of one Spiral Die (R-SA-1).
///
/// # Errors
/// Never in practice; passes on [`OddsError`].
pub fn die() -> Result<Dist<Outcome>, OddsError> {
    Dist::uniform(FACE_ORDER.iter().map(|f| {
        let s = f.symbols();
        (i64::from(s.hits), i64::from(s.spares), i64::from(s.spirals))
    }))
}

/// The exact distribution of `n` Spiral Dice.
///
/// # Errors
/// [`OddsError::TooLarge`] for pools far past anything a check rolls.
pub fn dice(n: u32) -> Result<Dist<Outcome>, OddsError> {
    die()?.repeat(n, (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
}

/// The exact distribution of the final roll of a check of `n` dice against `tn`,
/// with Improbable Success rerolls (R-SA-3) taken whenever allowed.
///
/// # Errors
/// [`OddsError::TooLarge`] for pools far past anything a check rolls.
pub fn final_roll(n: u32, tn: u32) -> Result<Dist<Outcome>, OddsError> {
    let n = n.max(1);
    Dist::from_weights(final_weights(
        n,
        i64::from(tn),
        1.0,
        checks::MAX_IMPROBABLE_REROLLS,
    )?)
}

fn final_weights(
    n: u32,
    tn: i64,
    weight: f64,
    rerolls_left: u32,
) -> Result<BTreeMap<Outcome, f64>, OddsError> {
    let d = dice(n)?;
    let all_double_hits = 2 * i64::from(n);
    let reroll = all_double_hits < tn && rerolls_left > 0;
    let mut out: BTreeMap<Outcome, f64> = BTreeMap::new();
    let mut p_all_double = 0.0;
    for (o, p) in d.iter() {
        if reroll && o.0 == all_double_hits {
            p_all_double += p;
        } else {
            *out.entry(*o).or_insert(0.0) += weight * p;
        }
    }
    if reroll {
        for (o, p) in final_weights(n + 1, tn, weight * p_all_double, rerolls_left - 1)? {
            *out.entry(o).or_insert(0.0) += p;
        }
    }
    Ok(out)
}

/// The chance that `n` dice meet `tn`, Improbable Success included (R-SA-3).
///
/// # Errors
/// As [`final_roll`].
pub fn p_success(n: u32, tn: u32) -> Result<f64, OddsError> {
    let tn = i64::from(tn);
    Ok(final_roll(n, tn as u32)?.p_where(|o| o.0 >= tn))
}

/// The part of [`p_success`] that comes from Improbable Success (R-SA-3): every
/// die of the first roll shows two Hits and still falls short of the TN, and
/// the reroll with one more die succeeds.
///
/// The Sapio System, "Special Situations when Rolling" (004_f39b4146df158cae.txt);
/// R-SA-3.
///
/// # Errors
/// As [`final_roll`].
pub fn improbable_part(n: u32, tn: u32) -> Result<f64, OddsError> {
    let all_double = 2 * i64::from(n);
    if all_double >= i64::from(tn) {
        return Ok(0.0);
    }
    let Some(more) = n.checked_add(1) else {
        return Ok(0.0);
    };
    Ok(dice(n)?.p_where(|o| o.0 == all_double) * p_success(more, tn)?)
}

/// The odds of one check, as `tabula sapio odds --json` prints them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OddsReport {
    /// What was asked.
    pub spec: PoolSpec,
    /// The settled pool and TN (R-SA-2, R-SA-7).
    pub pool: Pool,
    /// The chance of success (Hits >= TN), Improbable Success included; exact.
    pub probability: f64,
    /// The part of `probability` that comes from Improbable Success rerolls.
    pub improbable_part: f64,
    /// Chance of exactly `extra` Hits beyond the TN and success, for each `extra`
    /// (sums to `probability`).
    pub extra_hits: Vec<ExtraHits>,
    /// Chance of each net: positive is net Spares, negative net Spirals.
    pub net: Vec<NetChance>,
    /// Chance of net Spares (at least one).
    pub p_net_spares: f64,
    /// Chance of net Spirals (at least one).
    pub p_net_spirals: f64,
    /// How the numbers were computed.
    pub method: &'static str,
}

/// One row of the extra Hits distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExtraHits {
    /// Hits beyond the TN.
    pub extra: i64,
    /// The chance of succeeding with exactly this many.
    pub p: f64,
}

/// One row of the net Spares / Spirals distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NetChance {
    /// Spares minus Spirals.
    pub net: i64,
    /// Its chance.
    pub p: f64,
}

/// The method line in every report.
pub const METHOD: &str = "exact: convolution of the twelve faces of R-SA-1; Improbable Success (R-SA-3) as a finite recursion F(n) = D(n) without all-double-Hit rolls + (1/6)^n F(n+1) while 2n < TN (closed form, no truncation)";

/// The odds of a check with the given pool, bonus dice and TN.
///
/// # Errors
/// [`checks::CheckError`] for numbers out of range (as the check refuses them).
pub fn odds(spec: &PoolSpec) -> Result<OddsReport, OddsFailure> {
    checks::validate(spec).map_err(OddsFailure::Check)?;
    let pool = checks::settle(spec);
    let tn = i64::from(pool.tn);
    let fin = final_roll(pool.dice, pool.tn).map_err(OddsFailure::Odds)?;
    let probability = fin.p_where(|o| o.0 >= tn);
    let improbable_part = improbable_part(pool.dice, pool.tn).map_err(OddsFailure::Odds)?;
    let extra = fin.map(|o| if o.0 >= tn { o.0 - tn } else { -1 });
    let extra_hits = extra
        .iter()
        .filter(|(e, _)| **e >= 0)
        .map(|(e, p)| ExtraHits { extra: *e, p })
        .collect();
    let net_d = fin.map(|o| o.1 - o.2);
    let net = net_d
        .iter()
        .map(|(n, p)| NetChance { net: *n, p })
        .collect();
    Ok(OddsReport {
        spec: *spec,
        pool,
        probability,
        improbable_part,
        extra_hits,
        net,
        p_net_spares: net_d.p_where(|n| *n > 0),
        p_net_spirals: net_d.p_where(|n| *n < 0),
        method: METHOD,
    })
}

/// Odds could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsFailure {
    /// The numbers were out of range.
    #[error(transparent)]
    Check(checks::CheckError),
    /// The computation was too large.
    #[error(transparent)]
    Odds(OddsError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spiral_dice::Face;

    /// Brute force: enumerate every face of every die, rerolling per R-SA-3.
    fn brute(n: u32, tn: u32, weight: f64, acc: &mut BTreeMap<Outcome, f64>) {
        let count = 12usize.pow(n);
        let w = weight / count as f64;
        for idx in 0..count {
            let mut k = idx;
            let mut faces = Vec::new();
            for _ in 0..n {
                faces.push(FACE_ORDER[k % 12]);
                k /= 12;
            }
            let s = crate::spiral_dice::count(&faces);
            let all_double = faces.iter().all(|f: &Face| f.is_double_hit());
            if all_double && s.hits < tn {
                brute(n + 1, tn, w, acc);
            } else {
                *acc.entry((i64::from(s.hits), i64::from(s.spares), i64::from(s.spirals)))
                    .or_insert(0.0) += w;
            }
        }
    }

    #[test]
    fn odds_match_brute_force_enumeration() {
        for n in 1..=4u32 {
            for tn in 0..=7u32 {
                let mut acc = BTreeMap::new();
                brute(n, tn, 1.0, &mut acc);
                let exact = final_roll(n, tn).unwrap();
                for (o, p) in &acc {
                    assert!((exact.p(o) - p).abs() < 1e-12, "n={n} tn={tn} {o:?}");
                }
                assert_eq!(exact.len(), acc.len());
                let ps = p_success(n, tn).unwrap();
                let bs: f64 = acc
                    .iter()
                    .filter(|(o, _)| o.0 >= i64::from(tn))
                    .map(|(_, p)| p)
                    .sum();
                assert!((ps - bs).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn one_die_by_hand() {
        // Faces with a Hit: 6,7,8,9,10,11 -> 6/12; two Hits: 8,9 -> 2/12.
        assert!((p_success(1, 1).unwrap() - 0.5).abs() < 1e-15);
        // TN 3 with one die: only via Improbable Success: 1/6 * P(2 dice >= 3).
        let two = dice(2).unwrap().p_where(|o| o.0 >= 3);
        // Two dice all double (4 Hits) meet 3, so no further reroll.
        assert!((p_success(1, 3).unwrap() - two / 6.0).abs() < 1e-15);
        assert!((p_success(3, 0).unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn report_sums_and_bonus_dice() {
        let r = odds(&PoolSpec {
            built: 5,
            bonus: 3,
            tn: 4,
            ..PoolSpec::default()
        })
        .unwrap();
        assert_eq!((r.pool.dice, r.pool.tn), (6, 3));
        let sum: f64 = r.extra_hits.iter().map(|e| e.p).sum();
        assert!((sum - r.probability).abs() < 1e-12);
        let net: f64 = r.net.iter().map(|e| e.p).sum();
        assert!((net - 1.0).abs() < 1e-12);
        assert_eq!(r.improbable_part, 0.0);
        let r = odds(&PoolSpec {
            built: 1,
            tn: 3,
            ..PoolSpec::default()
        })
        .unwrap();
        assert!((r.improbable_part - r.probability).abs() < 1e-15);
    }
}
