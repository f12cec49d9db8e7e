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
//!
//! The chance of success, the extra Hits and the net Spares / Spirals each
//! depend on one coordinate of the outcome only, so [`p_success`],
//! [`improbable_part`] and [`odds`] fold those marginals instead of the whole
//! triple: the Hits of one die (0, 1 or 2) and its net (-1 to +2) are dense
//! arrays of three and four cells, and each pool of the recursion is the one
//! before it with one more die. A rerolled pool drops its all-double-Hit rolls:
//! for the Hits the single cell `2n`; for the net, the rolls of faces 8 (net 0)
//! and 9 (net -1) only, whose nets are binomial. [`dice`] and [`final_roll`]
//! still give the whole triple.

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

/// The most dice [`dice`] folds before [`OddsError::TooLarge`]: 44 dice would
/// hold more (Hits, Spares, Spirals) outcomes than the core cap allows
/// (`tabula_core::odds::MAX_OUTCOMES`). The marginal computations below refuse
/// the same pools, so every query answers or fails as [`final_roll`] does.
const MAX_FOLDED_DICE: u32 = 43;

/// The pools a check of `n` dice against `tn` rolls, first to last: the first
/// roll, then one more die per Improbable Success reroll (R-SA-3) while
/// `2m < tn`, at most [`checks::MAX_IMPROBABLE_REROLLS`] times. Returns the
/// last pool.
///
/// # Errors
/// [`OddsError::TooLarge`] when a pool would exceed [`MAX_FOLDED_DICE`] (as
/// [`final_roll`] would refuse it).
fn deepest_pool(n: u32, tn: u32) -> Result<u32, OddsError> {
    let mut m = u64::from(n);
    let mut rerolls_left = checks::MAX_IMPROBABLE_REROLLS;
    while 2 * m < u64::from(tn) && rerolls_left > 0 {
        m += 1;
        rerolls_left -= 1;
    }
    u32::try_from(m)
        .ok()
        .filter(|m| *m <= MAX_FOLDED_DICE)
        .ok_or(OddsError::TooLarge {
            max: tabula_core::odds::MAX_OUTCOMES,
        })
}

/// The chance of 0, 1 and 2 Hits on one Spiral Die: its twelve faces (R-SA-1)
/// counted by their Hits.
fn hit_weights() -> [f64; 3] {
    let mut w = [0.0; 3];
    for f in FACE_ORDER {
        if let Some(c) = w.get_mut(f.symbols().hits as usize) {
            *c += 1.0 / 12.0;
        }
    }
    w
}

/// The chance of each net (Spares minus Spirals: -1, 0, +1, +2, at index
/// net + 1) on one Spiral Die (R-SA-1).
fn net_weights() -> [f64; 4] {
    let mut w = [0.0; 4];
    for f in FACE_ORDER {
        let s = f.symbols();
        let at = (i64::from(s.spares) - i64::from(s.spirals) + 1) as usize;
        if let Some(c) = w.get_mut(at) {
            *c += 1.0 / 12.0;
        }
    }
    w
}

/// One more die: `acc` (a dense distribution, index = value - lowest value)
/// convolved with `die` (index = value - the die's lowest value), written back
/// into `acc`.
fn add_die(acc: &mut Vec<f64>, die: &[f64]) {
    let old = acc.len();
    acc.resize(old + die.len().saturating_sub(1), 0.0);
    for i in (0..acc.len()).rev() {
        let mut sum = 0.0;
        for (j, dj) in die.iter().enumerate() {
            if let Some(src) = i.checked_sub(j).filter(|s| *s < old) {
                sum += dj * acc.get(src).copied().unwrap_or(0.0);
            }
        }
        if let Some(c) = acc.get_mut(i) {
            *c = sum;
        }
    }
}

/// The chance of every number of Hits (index = Hits) on the final roll of a
/// check of `n` dice against `tn`, Improbable Success rerolls (R-SA-3) taken:
/// the Hits marginal of [`final_roll`]. Dice are identical, so the Hits of
/// `m` dice are the `m`-fold convolution of the three-cell [`hit_weights`];
/// each pool adds the one before it one die.
///
/// # Errors
/// As [`deepest_pool`].
fn final_hits(n: u32, tn: u32) -> Result<Vec<f64>, OddsError> {
    let n = n.max(1);
    let deepest = deepest_pool(n, tn)?;
    let die = hit_weights();
    let mut h = Vec::with_capacity(2 * deepest as usize + 1);
    h.push(1.0);
    for _ in 0..n {
        add_die(&mut h, &die);
    }
    let mut out = vec![0.0; 2 * deepest as usize + 1];
    let mut weight = 1.0;
    for m in n..=deepest {
        // Every die showing two Hits, when that is still short of the TN, is
        // rerolled with one more die (R-SA-3); deepest_pool counted those.
        let all_double = 2 * m as usize;
        let reroll = m < deepest;
        for (i, (o, p)) in out.iter_mut().zip(&h).enumerate() {
            if !(reroll && i == all_double) {
                *o += weight * p;
            }
        }
        if reroll {
            weight *= h.get(all_double).copied().unwrap_or(0.0);
            add_die(&mut h, &die);
        }
    }
    Ok(out)
}

/// The chance of every net (Spares minus Spirals; index = net + the last
/// pool's dice) on the final roll of a check of `n` dice against `tn`: the
/// net marginal of [`final_roll`]. A rerolled pool contributes its net
/// without the rolls of all double Hits (each die a face 8, net 0, or a face
/// 9, net -1, one chance in twelve each).
///
/// # Errors
/// As [`deepest_pool`].
fn final_net(n: u32, tn: u32) -> Result<(i64, Vec<f64>), OddsError> {
    let n = n.max(1);
    let deepest = deepest_pool(n, tn)?;
    let die = net_weights();
    let mut d = Vec::with_capacity(3 * deepest as usize + 1);
    d.push(1.0);
    for _ in 0..n {
        add_die(&mut d, &die);
    }
    let lowest = -i64::from(deepest);
    let mut out = vec![0.0; 3 * deepest as usize + 1];
    let mut weight = 1.0;
    let mut all_double = Vec::with_capacity(deepest as usize + 1);
    for m in n..=deepest {
        // Index i of `d` is net i - m; of `out`, net i - deepest.
        let at = (deepest - m) as usize;
        let reroll = m < deepest;
        if let Some(o) = out.get_mut(at..) {
            for (o, p) in o.iter_mut().zip(&d) {
                *o += weight * p;
            }
        }
        if reroll {
            // The all-double rolls: net -k for k faces 9 among m, index m - k.
            all_double.clear();
            all_double.push(1.0);
            for _ in 0..m {
                add_die(&mut all_double, &[1.0 / 12.0, 1.0 / 12.0]);
            }
            if let Some(o) = out.get_mut(at..) {
                for (o, p) in o.iter_mut().zip(&all_double) {
                    *o -= weight * p;
                }
            }
            weight *= all_double.iter().sum::<f64>();
            add_die(&mut d, &die);
        }
    }
    Ok((lowest, out))
}

/// The chance that `n` dice meet `tn`, Improbable Success included (R-SA-3).
///
/// Computed from the Hits alone (a dense array per pool); the same number as
/// `final_roll(n, tn)?.p_where(|o| o.0 >= tn)` up to rounding.
///
/// # Errors
/// As [`final_roll`].
pub fn p_success(n: u32, tn: u32) -> Result<f64, OddsError> {
    let h = final_hits(n, tn)?;
    Ok(h.iter().skip(tn as usize).sum::<f64>() + 0.0)
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
    if 2 * u64::from(n) >= u64::from(tn) {
        return Ok(0.0);
    }
    let Some(more) = n.checked_add(1) else {
        return Ok(0.0);
    };
    if n > MAX_FOLDED_DICE {
        return Err(OddsError::TooLarge {
            max: tabula_core::odds::MAX_OUTCOMES,
        });
    }
    // All n dice show two Hits: faces 8 or 9, one chance in six each.
    let double = hit_weights()[2];
    Ok(double.powi(n as i32) * p_success(more, tn)?)
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
    let hits = final_hits(pool.dice, pool.tn).map_err(OddsFailure::Odds)?;
    let (lowest, nets) = final_net(pool.dice, pool.tn).map_err(OddsFailure::Odds)?;
    let extra_hits: Vec<ExtraHits> = hits
        .iter()
        .skip(pool.tn as usize)
        .zip(0i64..)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, extra)| ExtraHits { extra, p: *p })
        .collect();
    let probability = extra_hits.iter().map(|e| e.p).sum::<f64>() + 0.0;
    let improbable_part = improbable_part(pool.dice, pool.tn).map_err(OddsFailure::Odds)?;
    let net: Vec<NetChance> = nets
        .iter()
        .zip(lowest..)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, net)| NetChance { net, p: *p })
        .collect();
    let p_net_spares = net.iter().filter(|n| n.net > 0).map(|n| n.p).sum::<f64>() + 0.0;
    let p_net_spirals = net.iter().filter(|n| n.net < 0).map(|n| n.p).sum::<f64>() + 0.0;
    Ok(OddsReport {
        spec: *spec,
        pool,
        probability,
        improbable_part,
        extra_hits,
        net,
        p_net_spares,
        p_net_spirals,
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

    use proptest::prelude::*;

    /// The computation before the marginals (the oracle): everything read off
    /// the full (Hits, Spares, Spirals) distribution of [`final_roll`].
    mod folded {
        use super::super::*;

        pub fn p_success(n: u32, tn: u32) -> Result<f64, OddsError> {
            let tn = i64::from(tn);
            Ok(final_roll(n, tn as u32)?.p_where(|o| o.0 >= tn))
        }

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
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12
    }

    fn same_report(a: &OddsReport, b: &OddsReport) -> Result<(), TestCaseError> {
        prop_assert_eq!((a.spec, a.pool, a.method), (b.spec, b.pool, b.method));
        prop_assert!(close(a.probability, b.probability));
        prop_assert!(close(a.improbable_part, b.improbable_part));
        prop_assert!(close(a.p_net_spares, b.p_net_spares));
        prop_assert!(close(a.p_net_spirals, b.p_net_spirals));
        prop_assert_eq!(a.extra_hits.len(), b.extra_hits.len());
        for (x, y) in a.extra_hits.iter().zip(&b.extra_hits) {
            prop_assert_eq!(x.extra, y.extra);
            prop_assert!(close(x.p, y.p), "extra {}: {} vs {}", x.extra, x.p, y.p);
        }
        prop_assert_eq!(a.net.len(), b.net.len());
        for (x, y) in a.net.iter().zip(&b.net) {
            prop_assert_eq!(x.net, y.net);
            prop_assert!(close(x.p, y.p), "net {}: {} vs {}", x.net, x.p, y.p);
        }
        Ok(())
    }

    proptest! {
        /// Every check the caps allow (and some past them): the report from the marginals is the
        /// report read off the full distribution.
        #[test]
        fn odds_equal_the_folded_distribution(
            built in 0..=checks::MAX_DICE + 1,
            bonus in 0..=checks::MAX_BONUS + 1,
            tn in 0..=checks::MAX_TN + 1,
            penalty in 0u32..=3,
            tn_cap in proptest::option::of(0u32..=6),
            tn_reduction in 0u32..=6,
        ) {
            let spec = PoolSpec { built, bonus, tn, penalty, tn_cap, tn_reduction };
            match (odds(&spec), folded::odds(&spec)) {
                (Ok(a), Ok(b)) => same_report(&a, &b)?,
                (a, b) => prop_assert_eq!(a.err(), b.err()),
            }
        }

        /// Raw pools and TNs past the check's caps, long Improbable Success
        /// chains included (up to the reroll cap).
        #[test]
        fn chances_equal_the_folded_distribution(n in 0u32..=8, tn in 0u32..=24) {
            let (a, b) = (p_success(n, tn).unwrap(), folded::p_success(n, tn).unwrap());
            prop_assert!(close(a, b), "p_success({}, {}): {} vs {}", n, tn, a, b);
            let (a, b) = (improbable_part(n, tn).unwrap(), folded::improbable_part(n, tn).unwrap());
            prop_assert!(close(a, b), "improbable_part({}, {}): {} vs {}", n, tn, a, b);
        }
    }

    #[test]
    fn pools_past_the_fold_are_refused_alike() {
        // dice(44) is the first pool the fold refuses (44 dice would hold
        // more outcomes than the core cap); the marginals refuse it too.
        assert!(matches!(dice(44), Err(OddsError::TooLarge { .. })));
        assert!(p_success(43, 0).is_ok());
        assert!(matches!(p_success(44, 0), Err(OddsError::TooLarge { .. })));
        // 40 dice against TN 100 reroll eight times: 48 dice.
        assert!(matches!(
            p_success(40, 100),
            Err(OddsError::TooLarge { .. })
        ));
        assert!(matches!(
            improbable_part(44, 100),
            Err(OddsError::TooLarge { .. })
        ));
        assert_eq!(improbable_part(u32::MAX, 3), Ok(0.0));
        assert_eq!(
            folded::improbable_part(u32::MAX, 3),
            improbable_part(u32::MAX, 3)
        );
    }

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
