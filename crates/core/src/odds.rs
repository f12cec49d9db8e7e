//! Exact odds: finite probability distributions.
//!
//! A [`Dist`] maps each outcome to its probability (an `f64`; every operation here
//! is exact arithmetic on those weights, so answers agree with exact rational
//! computation to about 1e-12). Outcomes are any ordered type: totals (`i64`),
//! counts, or tuples such as Sapio's (Hits, Spares, Spirals).
//!
//! The building blocks: a die ([`Dist::die`]), convolution ([`Dist::add`],
//! [`Dist::sum_of`]), any combination of two independent outcomes
//! ([`Dist::combine`]), best-of-k and keep-highest ([`Dist::keep_highest`]), counts
//! of successes ([`Dist::count_successes`]), and draws without replacement from a
//! finite deck ([`hypergeometric`], [`best_of_draws`]).
//!
//! Work is capped: an operation that would hold more than [`MAX_OUTCOMES`]
//! outcomes or states returns [`OddsError::TooLarge`] instead of running away.

use serde::Serialize;
use std::collections::BTreeMap;

/// The most distinct outcomes (or intermediate states) one distribution may hold.
pub const MAX_OUTCOMES: usize = 1_000_000;

/// The most elementary steps (state x outcome) one keep-highest computation may take.
const MAX_WORK: f64 = 5.0e7;

/// An odds computation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The computation would hold more than [`MAX_OUTCOMES`] outcomes or states.
    #[error("this odds computation is too large (more than {max} outcomes)")]
    TooLarge {
        /// [`MAX_OUTCOMES`].
        max: usize,
    },
    /// A distribution needs at least one outcome with positive weight.
    #[error("a distribution needs at least one outcome with positive weight")]
    Empty,
    /// Draws without replacement asked for more cards than the deck holds.
    #[error("cannot draw {draws} cards from a deck of {deck}")]
    TooManyDraws {
        /// Cards to draw.
        draws: u64,
        /// Cards in the deck.
        deck: u64,
    },
}

/// A finite probability distribution over outcomes of type `T`.
///
/// Probabilities are non-negative and sum to 1 (up to rounding). Outcomes with
/// probability 0 are not stored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dist<T: Ord = i64> {
    p: BTreeMap<T, f64>,
}

impl<T: Ord + Clone> Dist<T> {
    /// The distribution that is `value` with certainty.
    pub fn certain(value: T) -> Self {
        Dist {
            p: BTreeMap::from([(value, 1.0)]),
        }
    }

    /// A distribution from (outcome, weight) pairs; weights are normalised to sum
    /// to 1 and equal outcomes are merged.
    ///
    /// # Errors
    /// [`OddsError::Empty`] when no weight is positive.
    pub fn from_weights<I: IntoIterator<Item = (T, f64)>>(pairs: I) -> Result<Self, OddsError> {
        let mut p: BTreeMap<T, f64> = BTreeMap::new();
        for (v, w) in pairs {
            if w > 0.0 {
                *p.entry(v).or_insert(0.0) += w;
            }
        }
        let total: f64 = p.values().sum();
        if p.is_empty() || total <= 0.0 {
            return Err(OddsError::Empty);
        }
        for w in p.values_mut() {
            *w /= total;
        }
        Ok(Dist { p })
    }

    /// Each value equally likely (repeats count several times: a die with two
    /// identical faces).
    ///
    /// # Errors
    /// [`OddsError::Empty`] when `values` is empty.
    pub fn uniform<I: IntoIterator<Item = T>>(values: I) -> Result<Self, OddsError> {
        Self::from_weights(values.into_iter().map(|v| (v, 1.0)))
    }

    /// The probability of exactly `value`.
    pub fn p(&self, value: &T) -> f64 {
        self.p.get(value).copied().unwrap_or(0.0)
    }

    /// The probability that the outcome satisfies `pred`.
    pub fn p_where(&self, pred: impl Fn(&T) -> bool) -> f64 {
        self.p
            .iter()
            .filter(|(v, _)| pred(v))
            .map(|(_, w)| *w)
            .sum::<f64>()
            // The empty sum is -0.0; `+ 0.0` makes it 0.0.
            + 0.0
    }

    /// (outcome, probability) pairs in increasing order of outcome.
    pub fn iter(&self) -> impl Iterator<Item = (&T, f64)> {
        self.p.iter().map(|(v, w)| (v, *w))
    }

    /// The number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.p.len()
    }

    /// Always false: a distribution has at least one outcome.
    pub fn is_empty(&self) -> bool {
        self.p.is_empty()
    }

    /// Apply `f` to every outcome (outcomes that map together are merged).
    pub fn map<U: Ord + Clone>(&self, f: impl Fn(&T) -> U) -> Dist<U> {
        let mut p: BTreeMap<U, f64> = BTreeMap::new();
        for (v, w) in &self.p {
            *p.entry(f(v)).or_insert(0.0) += *w;
        }
        Dist { p }
    }

    /// The distribution of `f(a, b)` for independent `a` from `self` and `b` from
    /// `other`.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the product of the sizes exceeds
    /// [`MAX_OUTCOMES`].
    pub fn combine<U: Ord + Clone, V: Ord + Clone>(
        &self,
        other: &Dist<U>,
        f: impl Fn(&T, &U) -> V,
    ) -> Result<Dist<V>, OddsError> {
        if self.p.len().saturating_mul(other.p.len()) > MAX_OUTCOMES {
            return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
        }
        let mut p: BTreeMap<V, f64> = BTreeMap::new();
        for (a, wa) in &self.p {
            for (b, wb) in &other.p {
                *p.entry(f(a, b)).or_insert(0.0) += wa * wb;
            }
        }
        Ok(Dist { p })
    }

    /// The outcome of `n` independent repetitions folded with `f`, starting from
    /// `start` (n = 0 gives `start` with certainty). Uses repeated squaring when
    /// `f` is associative is not assumed: this folds one repetition at a time.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] as for [`Dist::combine`].
    pub fn repeat<A: Ord + Clone>(
        &self,
        n: u32,
        start: A,
        f: impl Fn(&A, &T) -> A,
    ) -> Result<Dist<A>, OddsError> {
        let mut acc = Dist::certain(start);
        for _ in 0..n {
            acc = acc.combine(self, &f)?;
        }
        Ok(acc)
    }
}

impl Dist<i64> {
    /// A fair die with `sides` faces numbered 1..=sides.
    ///
    /// # Errors
    /// [`OddsError::Empty`] when `sides` is 0; [`OddsError::TooLarge`] past
    /// [`MAX_OUTCOMES`].
    pub fn die(sides: u32) -> Result<Self, OddsError> {
        if sides as usize > MAX_OUTCOMES {
            return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
        }
        Self::uniform(1..=i64::from(sides))
    }

    /// The sum of independent outcomes (convolution).
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] as for [`Dist::combine`].
    pub fn add(&self, other: &Dist<i64>) -> Result<Self, OddsError> {
        self.combine(other, |a, b| a.saturating_add(*b))
    }

    /// The sum of `n` independent copies (n = 0 gives 0 with certainty), by
    /// repeated squaring.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] as for [`Dist::combine`].
    pub fn sum_of(&self, n: u32) -> Result<Self, OddsError> {
        let mut result = Dist::certain(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                result = result.add(&base)?;
            }
            k >>= 1;
            if k > 0 {
                base = base.add(&base)?;
            }
        }
        Ok(result)
    }

    /// Add a constant to every outcome.
    pub fn shift(&self, by: i64) -> Self {
        self.map(|v| v.saturating_add(by))
    }

    /// The number of successes among `n` independent copies, where an outcome
    /// is a success when `success` says so (a binomial distribution).
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] as for [`Dist::combine`].
    pub fn count_successes(
        &self,
        n: u32,
        success: impl Fn(i64) -> bool,
    ) -> Result<Self, OddsError> {
        let q = self.p_where(|v| success(*v));
        Dist::from_weights([(1i64, q), (0i64, 1.0 - q)])
            .unwrap_or_else(|_| Dist::certain(0))
            .sum_of(n)
    }

    /// The sum of the `keep` highest of `n` independent copies (best-of-k when
    /// `keep` is 1). `keep >= n` is the plain sum.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the intermediate states exceed [`MAX_OUTCOMES`].
    pub fn keep_highest(&self, n: u32, keep: u32) -> Result<Self, OddsError> {
        self.keep_by(n, keep, true, |v| v)
    }

    /// The sum of the `keep` lowest of `n` independent copies (worst-of-k when
    /// `keep` is 1).
    ///
    /// # Errors
    /// As [`Dist::keep_highest`].
    pub fn keep_lowest(&self, n: u32, keep: u32) -> Result<Self, OddsError> {
        self.keep_by(n, keep, false, |v| v)
    }

    /// Of `n` independent copies, keep the `keep` highest (`highest`) or lowest
    /// ones and sum `score` of each kept outcome: `score` is the identity for a
    /// sum, a 0/1 test for a count of successes among the kept dice.
    /// `keep >= n` keeps them all.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the intermediate states exceed [`MAX_OUTCOMES`]
    /// or the work would.
    pub fn keep_by(
        &self,
        n: u32,
        keep: u32,
        highest: bool,
        score: impl Fn(i64) -> i64,
    ) -> Result<Self, OddsError> {
        if keep >= n {
            return self.map(|v| score(*v)).sum_of(n);
        }
        if keep == 0 {
            return Ok(Dist::certain(0));
        }
        // Refuse before working: the states are multisets of `keep` values.
        let faces = self.p.len() as u64;
        let states_bound = choose(faces + u64::from(keep) - 1, u64::from(keep));
        if states_bound * faces as f64 * f64::from(n) > MAX_WORK {
            return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
        }
        // State: the kept values so far, sorted so that index 0 is the one to
        // evict next (the smallest when keeping highest).
        let mut states: BTreeMap<Vec<i64>, f64> = BTreeMap::from([(Vec::new(), 1.0)]);
        for _ in 0..n {
            let mut next: BTreeMap<Vec<i64>, f64> = BTreeMap::new();
            for (kept, w) in &states {
                for (v, wv) in &self.p {
                    let mut k = kept.clone();
                    k.push(*v);
                    if highest {
                        k.sort_unstable();
                    } else {
                        k.sort_unstable_by(|a, b| b.cmp(a));
                    }
                    if k.len() > keep as usize {
                        k.remove(0);
                    }
                    *next.entry(k).or_insert(0.0) += w * wv;
                }
                if next.len() > MAX_OUTCOMES {
                    return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
                }
            }
            states = next;
        }
        let mut p: BTreeMap<i64, f64> = BTreeMap::new();
        for (k, w) in states {
            *p.entry(k.iter().map(|v| score(*v)).sum()).or_insert(0.0) += w;
        }
        Ok(Dist { p })
    }

    /// The chance the outcome is at least `v`.
    pub fn p_at_least(&self, v: i64) -> f64 {
        self.p.range(v..).map(|(_, w)| *w).sum::<f64>() + 0.0
    }

    /// The chance the outcome is more than `v`.
    pub fn p_more_than(&self, v: i64) -> f64 {
        match v.checked_add(1) {
            Some(n) => self.p_at_least(n),
            None => 0.0,
        }
    }

    /// The expected value.
    pub fn mean(&self) -> f64 {
        self.p.iter().map(|(v, w)| *v as f64 * w).sum()
    }

    /// The smallest and largest outcomes.
    pub fn range(&self) -> (i64, i64) {
        let lo = self.p.keys().next().copied().unwrap_or(0);
        let hi = self.p.keys().next_back().copied().unwrap_or(0);
        (lo, hi)
    }
}

/// `C(n, k)` as an `f64` (exact for the sizes of real decks).
pub fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    let mut r = 1.0f64;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

/// Draws without replacement: the number of marked cards among `draws` cards
/// drawn from a deck of `deck` cards of which `marked` are marked.
///
/// # Errors
/// [`OddsError::TooManyDraws`] when `draws > deck`; [`OddsError::Empty`] when
/// `marked > deck`.
pub fn hypergeometric(deck: u64, marked: u64, draws: u64) -> Result<Dist<i64>, OddsError> {
    if draws > deck {
        return Err(OddsError::TooManyDraws { draws, deck });
    }
    if marked > deck {
        return Err(OddsError::Empty);
    }
    let total = choose(deck, draws);
    Dist::from_weights((0..=draws.min(marked)).map(|k| {
        (
            k as i64,
            choose(marked, k) * choose(deck - marked, draws - k) / total,
        )
    }))
}

/// Draws without replacement: the best (highest) value among `draws` cards drawn
/// from a deck whose cards carry `values` (one entry per physical card).
///
/// P(best <= v) = C(cards with value <= v, draws) / C(deck, draws).
///
/// # Errors
/// [`OddsError::TooManyDraws`] when `draws` is 0 or more than the deck holds.
pub fn best_of_draws(values: &[i64], draws: u64) -> Result<Dist<i64>, OddsError> {
    let deck = values.len() as u64;
    if draws == 0 || draws > deck {
        return Err(OddsError::TooManyDraws { draws, deck });
    }
    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
    for v in values {
        *counts.entry(*v).or_insert(0) += 1;
    }
    let total = choose(deck, draws);
    let mut below = 0u64;
    let mut prev_cdf = 0.0;
    let mut p = BTreeMap::new();
    for (v, c) in counts {
        below += c;
        let cdf = choose(below, draws) / total;
        p.insert(v, cdf - prev_cdf);
        prev_cdf = cdf;
    }
    Dist::from_weights(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn two_d6_sum_is_triangular() {
        let d = Dist::die(6).unwrap().sum_of(2).unwrap();
        assert!(close(d.p(&7), 6.0 / 36.0));
        assert!(close(d.p(&2), 1.0 / 36.0));
        assert!(close(d.mean(), 7.0));
    }

    #[test]
    fn four_d6_keep_three_matches_enumeration() {
        let d = Dist::die(6).unwrap().keep_highest(4, 3).unwrap();
        let mut counts = [0u32; 19];
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    for e in 1..=6 {
                        let mut v = [a, b, c, e];
                        v.sort();
                        counts[(v[1] + v[2] + v[3]) as usize] += 1;
                    }
                }
            }
        }
        for (t, n) in counts.iter().enumerate() {
            assert!(close(d.p(&(t as i64)), f64::from(*n) / 1296.0));
        }
        // icepool: (4@d6 kept 3) mean is 12.2446 (15869/1296).
        assert!(close(d.mean(), 15869.0 / 1296.0));
    }

    #[test]
    fn hypergeometric_and_best_of_draws() {
        // Two aces among four cards drawn from a 52-card deck.
        let h = hypergeometric(52, 4, 4).unwrap();
        assert!(close(h.p(&2), choose(4, 2) * choose(48, 2) / choose(52, 4)));
        // Best of 2 from {1,2,3}: P(3) = 2/3.
        let b = best_of_draws(&[1, 2, 3], 2).unwrap();
        assert!(close(b.p(&3), 2.0 / 3.0));
        assert!(close(b.p(&2), 1.0 / 3.0));
    }

    #[test]
    fn an_impossible_outcome_is_plain_zero() {
        let d = Dist::die(6).unwrap();
        assert!(d.p_at_least(7).is_sign_positive());
        assert!(d.p_where(|v| *v > 6).is_sign_positive());
    }

    #[test]
    fn caps_refuse_runaway_work() {
        let d = Dist::die(10_000).unwrap();
        assert!(matches!(
            d.keep_highest(50, 10),
            Err(OddsError::TooLarge { .. })
        ));
    }
}
