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
//! # Method and caps
//!
//! Distributions of integers ([`Dist<i64>`]) and of pairs of integers are
//! worked in dense arrays (an offset and one weight per value in the range):
//! a convolution is then one multiply-add per pair of array cells, with no
//! map lookups. Keep-highest and keep-lowest use the multiset method: the
//! faces are taken from the highest down (lowest up for keep-lowest), and the
//! state is (dice not yet placed, sum kept so far); the number of the
//! remaining dice that show the current face is binomial, and a state whose
//! kept dice are complete is final. The work is about
//! `faces x range of the kept sum x keep x keep / 2` steps, instead of one
//! step per multiset of kept values.
//!
//! Work is capped by what it costs: an operation whose elementary steps (one
//! multiply-add into an array, or one map insertion for the general
//! [`Dist::combine`]) would exceed [`MAX_WORK`], or whose result would hold
//! more than [`MAX_OUTCOMES`] outcomes, returns [`OddsError::TooLarge`]
//! instead of running away. `500d6` (about 4 million steps) and `100d20kh10`
//! (about half a million) are answered in milliseconds; `1000d10000` or
//! `1000d6kh900` are refused before any work is done.

use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// The most distinct outcomes (or intermediate states) one distribution may hold.
pub const MAX_OUTCOMES: usize = 1_000_000;

/// The most elementary steps one computation may take: multiply-adds into a
/// dense array (about a nanosecond each, so the cap is a fraction of a
/// second). The general map-based [`Dist::combine`] is capped at
/// [`MAX_OUTCOMES`] pairs instead, its steps being a hundred times dearer.
pub const MAX_WORK: u64 = 300_000_000;

/// The most elementary steps (state x outcome) the enumeration of kept
/// multisets may take; it is used only when the dense method cannot be (kept
/// values spread over a range too wide for an array) or costs more.
const MAX_ENUMERATION_WORK: f64 = 5.0e7;

/// An odds computation was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The computation would hold more than [`MAX_OUTCOMES`] outcomes or states,
    /// or take more than [`MAX_WORK`] steps.
    #[error("this odds computation is too large (more than {max} outcomes)")]
    TooLarge {
        /// [`MAX_OUTCOMES`].
        max: usize,
    },
    /// The computation would take more than `max` elementary steps: `steps`
    /// is what it was found to need before any work (an estimate), or the
    /// steps it had counted when it stopped (then a lower bound). Nothing
    /// is left running and no more than the budget was spent.
    #[error(
        "this odds computation is too large: it needs more than {max} steps (at least {steps})"
    )]
    TooMuchWork {
        /// The steps the computation needs (at least).
        steps: u64,
        /// The budget, in the same steps.
        max: u64,
    },
    /// The computation would hold more than `max` values in its states at
    /// once (`values` when it stopped: at least that many).
    #[error(
        "this odds computation is too large: it would hold more than {max} values at once (at least {values})"
    )]
    TooManyStates {
        /// The values held when it stopped.
        values: u64,
        /// The most it may hold.
        max: u64,
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

const TOO_LARGE: OddsError = OddsError::TooLarge { max: MAX_OUTCOMES };

/// A finite probability distribution over outcomes of type `T`.
///
/// Probabilities are non-negative and sum to 1 (up to rounding). Outcomes with
/// probability 0 are not stored. Serializes as a map from outcome to
/// probability, in increasing order of outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist<T: Ord = i64> {
    /// (outcome, probability), strictly increasing in outcome, every
    /// probability positive.
    p: Vec<(T, f64)>,
}

impl<T: Ord + Serialize> Serialize for Dist<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.p.iter().map(|(v, w)| (v, w)))
    }
}

/// Sort (outcome, weight) pairs by outcome and add up the weights of equal
/// outcomes, in the order given (a stable sort, so the sums are the same as
/// adding into a map one pair at a time); weights of 0 are dropped.
fn merge_sorted<T: Ord>(mut pairs: Vec<(T, f64)>) -> Vec<(T, f64)> {
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(T, f64)> = Vec::with_capacity(pairs.len());
    for (v, w) in pairs {
        match out.last_mut() {
            Some(last) if last.0 == v => last.1 += w,
            _ => out.push((v, w)),
        }
    }
    out.retain(|(_, w)| *w > 0.0);
    out
}

impl<T: Ord + Clone> Dist<T> {
    fn from_map(p: BTreeMap<T, f64>) -> Self {
        Dist {
            p: p.into_iter().filter(|(_, w)| *w > 0.0).collect(),
        }
    }

    /// The distribution that is `value` with certainty.
    pub fn certain(value: T) -> Self {
        Dist {
            p: vec![(value, 1.0)],
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
        Ok(Self::from_map(p))
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
        match self.p.binary_search_by(|(v, _)| v.cmp(value)) {
            Ok(i) => self.p.get(i).map_or(0.0, |(_, w)| *w),
            Err(_) => 0.0,
        }
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
        Dist {
            p: merge_sorted(self.p.iter().map(|(v, w)| (f(v), *w)).collect()),
        }
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
            return Err(TOO_LARGE);
        }
        let mut pairs: Vec<(V, f64)> = Vec::with_capacity(self.p.len() * other.p.len());
        for (a, wa) in &self.p {
            for (b, wb) in &other.p {
                pairs.push((f(a, b), wa * wb));
            }
        }
        Ok(Dist {
            p: merge_sorted(pairs),
        })
    }

    /// The outcome of `n` independent repetitions folded with `f`, starting from
    /// `start` (n = 0 gives `start` with certainty). Associativity of `f` is
    /// not assumed: this folds one repetition at a time.
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

/// `out[j + i] += b[j] * a[i]` for every `i`, `j`: the convolution of two
/// dense weight arrays, written into `out` (resized to fit).
fn convolve(a: &[f64], b: &[f64], out: &mut Vec<f64>) {
    out.clear();
    if a.is_empty() || b.is_empty() {
        return;
    }
    out.resize(a.len() + b.len() - 1, 0.0);
    for (j, &bj) in b.iter().enumerate() {
        if bj == 0.0 {
            continue;
        }
        axpy(out, j, bj, a);
    }
}

/// Convolve the first `len` cells of `acc` with `b` in place (cells past
/// `len` are taken as 0 and written); returns the new length, clamped to the
/// buffer.
fn convolve_in_place(acc: &mut [f64], len: usize, b: &[f64]) -> usize {
    let new_len = (len + b.len()).saturating_sub(1).min(acc.len());
    for i in (0..new_len).rev() {
        // Cell i from cells i - j, all at or below i: not yet overwritten.
        let mut sum = 0.0;
        for (j, bj) in b.iter().enumerate() {
            if let Some(src) = i.checked_sub(j).filter(|s| *s < len) {
                sum += bj * acc.get(src).copied().unwrap_or(0.0);
            }
        }
        if let Some(c) = acc.get_mut(i) {
            *c = sum;
        }
    }
    new_len
}

/// `out[at + i] += k * a[i]`; cells past the end of `out` are not written
/// (callers size `out` so that none are).
#[inline]
fn axpy(out: &mut [f64], at: usize, k: f64, a: &[f64]) {
    if let Some(o) = out.get_mut(at..at.saturating_add(a.len())) {
        for (x, y) in o.iter_mut().zip(a) {
            *x += k * y;
        }
    }
}

/// A distribution of integers as an offset and a dense weight array.
struct Dense {
    lo: i64,
    w: Vec<f64>,
}

impl Dist<i64> {
    /// The number of integers from the lowest outcome to the highest.
    fn span(&self) -> u64 {
        let (lo, hi) = self.range();
        (hi as i128 - lo as i128 + 1).clamp(0, i128::from(u64::MAX)) as u64
    }

    /// The dense form, when the range is at most [`MAX_OUTCOMES`] wide.
    fn dense(&self) -> Option<Dense> {
        let span = usize::try_from(self.span()).ok()?;
        if span > MAX_OUTCOMES {
            return None;
        }
        let (lo, _) = self.range();
        let mut w = vec![0.0; span];
        for (v, p) in &self.p {
            let i = usize::try_from(v.checked_sub(lo)?).ok()?;
            *w.get_mut(i)? = *p;
        }
        Some(Dense { lo, w })
    }

    /// Back from the dense form (cells of weight 0 are not outcomes).
    fn from_dense(lo: i64, w: &[f64]) -> Self {
        let p: Vec<(i64, f64)> = w
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0.0)
            .filter_map(|(i, w)| Some((lo.checked_add(i64::try_from(i).ok()?)?, *w)))
            .collect();
        if p.is_empty() {
            return Dist::certain(lo);
        }
        Dist { p }
    }

    /// A fair die with `sides` faces numbered 1..=sides.
    ///
    /// # Errors
    /// [`OddsError::Empty`] when `sides` is 0; [`OddsError::TooLarge`] past
    /// [`MAX_OUTCOMES`].
    pub fn die(sides: u32) -> Result<Self, OddsError> {
        if sides as usize > MAX_OUTCOMES {
            return Err(TOO_LARGE);
        }
        Self::uniform_range(1, i64::from(sides))
    }

    /// Every integer from `lo` to `hi` equally likely.
    ///
    /// # Errors
    /// [`OddsError::Empty`] when `lo > hi`; [`OddsError::TooLarge`] past
    /// [`MAX_OUTCOMES`] values.
    pub(crate) fn uniform_range(lo: i64, hi: i64) -> Result<Self, OddsError> {
        if lo > hi {
            return Err(OddsError::Empty);
        }
        let count = i128::from(hi) - i128::from(lo) + 1;
        if count > MAX_OUTCOMES as i128 {
            return Err(TOO_LARGE);
        }
        let w = 1.0 / count as f64;
        Ok(Dist {
            p: (lo..=hi).map(|v| (v, w)).collect(),
        })
    }

    /// The sum of independent outcomes (convolution).
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the dense convolution would take more than
    /// [`MAX_WORK`] steps, or (outcomes spread too wide for an array) the
    /// product of the sizes exceeds [`MAX_OUTCOMES`].
    pub fn add(&self, other: &Dist<i64>) -> Result<Self, OddsError> {
        let (sa, sb) = (self.span(), other.span());
        let dense_ok = sa.saturating_add(sb) <= MAX_OUTCOMES as u64
            && sa.saturating_mul(sb) <= MAX_WORK
            // Dense pays when the arrays are not mostly holes.
            && sa.saturating_mul(sb)
                <= 16 * (self.len() as u64).saturating_mul(other.len() as u64) + 4096;
        if dense_ok && let (Some(a), Some(b)) = (self.dense(), other.dense()) {
            let mut out = Vec::new();
            convolve(&a.w, &b.w, &mut out);
            return Ok(Self::from_dense(a.lo.saturating_add(b.lo), &out));
        }
        self.combine(other, |a, b| a.saturating_add(*b))
    }

    /// The sum of `n` independent copies (n = 0 gives 0 with certainty).
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the result would hold more than
    /// [`MAX_OUTCOMES`] outcomes or the work exceed [`MAX_WORK`].
    pub fn sum_of(&self, n: u32) -> Result<Self, OddsError> {
        if n == 0 {
            return Ok(Dist::certain(0));
        }
        let span = self.span();
        let total_span = span
            .saturating_sub(1)
            .saturating_mul(u64::from(n))
            .saturating_add(1);
        // One pass per copy over the array so far, one multiply-add per
        // nonzero weight of the copy: about n^2 (span - 1) len / 2.
        let work = u64::from(n)
            .saturating_mul(u64::from(n))
            .saturating_mul(span)
            .saturating_mul(self.len() as u64)
            / 2;
        if total_span <= MAX_OUTCOMES as u64
            && work <= MAX_WORK
            && let Some(d) = self.dense()
        {
            let lo = d.lo.saturating_mul(i64::from(n));
            if total_span <= 48 {
                // Small results: one buffer, each copy convolved in place
                // from the top down (one allocation fewer).
                let mut acc = vec![0.0; total_span as usize];
                acc.get_mut(..d.w.len())
                    .unwrap_or_default()
                    .copy_from_slice(&d.w);
                let mut len = d.w.len();
                for _ in 1..n {
                    len = convolve_in_place(&mut acc, len, &d.w);
                }
                return Ok(Self::from_dense(lo, &acc));
            }
            let mut acc = d.w.clone();
            let mut next = Vec::with_capacity(total_span as usize);
            for _ in 1..n {
                convolve(&acc, &d.w, &mut next);
                std::mem::swap(&mut acc, &mut next);
            }
            return Ok(Self::from_dense(lo, &acc));
        }
        self.sum_of_by_squaring(n)
    }

    /// [`Dist::sum_of`] through the general map-based convolution, by repeated
    /// squaring: for outcomes spread too wide for an array.
    fn sum_of_by_squaring(&self, n: u32) -> Result<Self, OddsError> {
        let mut result: Dist<i64> = Dist::certain(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                result = result.combine(&base, |a: &i64, b: &i64| a.saturating_add(*b))?;
            }
            k >>= 1;
            if k > 0 {
                base = base.combine(&base, |a, b| a.saturating_add(*b))?;
            }
        }
        Ok(result)
    }

    /// Add a constant to every outcome.
    pub fn shift(&self, by: i64) -> Self {
        let (lo, hi) = self.range();
        if lo.checked_add(by).is_some() && hi.checked_add(by).is_some() {
            // No outcome saturates, so the order and the outcomes stay distinct.
            return Dist {
                p: self.p.iter().map(|(v, w)| (v + by, *w)).collect(),
            };
        }
        self.map(|v| v.saturating_add(by))
    }

    /// The number of successes among `n` independent copies, where an outcome
    /// is a success when `success` says so (a binomial distribution).
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] as for [`Dist::sum_of`].
    pub fn count_successes(
        &self,
        n: u32,
        success: impl Fn(i64) -> bool,
    ) -> Result<Self, OddsError> {
        let q = self.p_where(|v| success(*v)).clamp(0.0, 1.0);
        if q <= 0.0 || q >= 1.0 {
            return Ok(Dist::certain(if q >= 1.0 { i64::from(n) } else { 0 }));
        }
        // P(k) for k = 0..=n: the tail from k = 0 is the whole binomial.
        let mut w = Vec::with_capacity(n as usize + 1);
        binomial_head(n as usize, q, n as usize + 1, &mut w);
        Ok(Self::from_dense(0, &w))
    }

    /// The sum of the `keep` highest of `n` independent copies (best-of-k when
    /// `keep` is 1). `keep >= n` is the plain sum.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the work would exceed [`MAX_WORK`] (see
    /// [`Dist::keep_by`]).
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
    /// By the multiset method (see the [module documentation](self)): about
    /// `faces x (keep x score range) x keep x (keep + 1) / 2` steps.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when that work would exceed [`MAX_WORK`] and
    /// the enumeration of kept multisets would be larger still.
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
        let plan = KeepPlan::new(self, n, keep, highest, &score);
        let enumeration = enumeration_work(self.len(), n, keep);
        match plan {
            // A dense step is far cheaper than an enumeration step (a vector
            // clone, a sort and a map insertion).
            Some(plan) if plan.work <= MAX_WORK && (plan.work as f64) <= enumeration * 50.0 => {
                Ok(plan.run())
            }
            _ if enumeration <= MAX_ENUMERATION_WORK => {
                keep_by_enumeration(self, n, keep, highest, score)
            }
            _ => Err(TOO_LARGE),
        }
    }

    /// The chance the outcome is at least `v`.
    pub fn p_at_least(&self, v: i64) -> f64 {
        let from = self.p.partition_point(|(x, _)| *x < v);
        self.p.iter().skip(from).map(|(_, w)| *w).sum::<f64>() + 0.0
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
        let lo = self.p.first().map_or(0, |(v, _)| *v);
        let hi = self.p.last().map_or(0, |(v, _)| *v);
        (lo, hi)
    }
}

impl Dist<(i64, i64)> {
    /// The componentwise sum of `n` independent copies of a pair of counts
    /// (n = 0 gives (0, 0) with certainty): the joint distribution of, say,
    /// successes and ones over a pool, worked in a dense two-dimensional
    /// array.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] when the result would hold more than
    /// [`MAX_OUTCOMES`] cells or the work exceed [`MAX_WORK`].
    pub fn sum_of(&self, n: u32) -> Result<Self, OddsError> {
        if n == 0 {
            return Ok(Dist::certain((0, 0)));
        }
        let (mut lo0, mut hi0, mut lo1, mut hi1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for ((a, b), _) in &self.p {
            lo0 = lo0.min(*a);
            hi0 = hi0.max(*a);
            lo1 = lo1.min(*b);
            hi1 = hi1.max(*b);
        }
        let span = |lo: i64, hi: i64| -> Option<usize> {
            let s = i128::from(hi) - i128::from(lo);
            let total = s.checked_mul(i128::from(n))?.checked_add(1)?;
            usize::try_from(total).ok()
        };
        let (Some(w0), Some(w1)) = (span(lo0, hi0), span(lo1, hi1)) else {
            return Err(TOO_LARGE);
        };
        let cells = w0.checked_mul(w1).ok_or(TOO_LARGE)?;
        let work = (cells as u64)
            .saturating_mul(u64::from(n))
            .saturating_mul(self.len() as u64);
        if cells > MAX_OUTCOMES || work > MAX_WORK {
            return Err(TOO_LARGE);
        }
        // Cell (i, j) holds outcome (n lo0 + i, n lo1 + j), at i * w1 + j.
        let steps: Vec<(usize, usize, f64)> = self
            .p
            .iter()
            .filter_map(|((a, b), p)| {
                Some((
                    usize::try_from(a.checked_sub(lo0)?).ok()?,
                    usize::try_from(b.checked_sub(lo1)?).ok()?,
                    *p,
                ))
            })
            .collect();
        let mut acc = vec![0.0; cells];
        if let Some(c) = acc.first_mut() {
            *c = 1.0;
        }
        let mut next = vec![0.0; cells];
        // After k copies the nonzero cells lie in rows 0..=k*(hi0-lo0) and
        // columns 0..=k*(hi1-lo1).
        let (d0, d1) = ((hi0 - lo0) as usize, (hi1 - lo1) as usize);
        for k in 0..n as usize {
            let (rows, cols) = (k * d0 + 1, k * d1 + 1);
            for c in next.iter_mut().take(((k + 1) * d0 + 1) * w1) {
                *c = 0.0;
            }
            for i in 0..rows {
                let Some(src) = acc.get(i * w1..i * w1 + cols) else {
                    continue;
                };
                for &(a, b, p) in &steps {
                    axpy(&mut next, (i + a) * w1 + b, p, src);
                }
            }
            std::mem::swap(&mut acc, &mut next);
        }
        let (base0, base1) = (
            lo0.saturating_mul(i64::from(n)),
            lo1.saturating_mul(i64::from(n)),
        );
        let p: Vec<((i64, i64), f64)> = acc
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0.0)
            .map(|(c, w)| {
                (
                    (
                        base0.saturating_add((c / w1) as i64),
                        base1.saturating_add((c % w1) as i64),
                    ),
                    *w,
                )
            })
            .collect();
        if p.is_empty() {
            return Err(OddsError::Empty);
        }
        Ok(Dist { p })
    }
}

/// A keep-highest (or lowest) by the multiset method, sized before any work.
struct KeepPlan {
    n: u32,
    keep: usize,
    /// (probability of the face given the faces not yet taken, its score), in
    /// the order taken: highest face first when keeping the highest.
    faces: Vec<(f64, i64)>,
    /// The lowest kept sum an array cell stands for.
    lo: i64,
    /// Cells per array: every kept sum from `lo` up.
    span: usize,
    /// Estimated multiply-adds.
    work: u64,
}

impl KeepPlan {
    fn new(
        d: &Dist<i64>,
        n: u32,
        keep: u32,
        highest: bool,
        score: &impl Fn(i64) -> i64,
    ) -> Option<Self> {
        let mut faces: Vec<(f64, i64)> = d.p.iter().map(|(v, p)| (*p, score(*v))).collect();
        if highest {
            faces.reverse();
        }
        // Conditional chance of each face among those not yet taken, from the
        // tail sums (more accurate than subtracting from 1).
        let mut rest = 0.0;
        for f in faces.iter_mut().rev() {
            rest += f.0;
            f.0 = if rest > 0.0 {
                (f.0 / rest).min(1.0)
            } else {
                1.0
            };
        }
        if let Some(last) = faces.last_mut() {
            last.0 = 1.0;
        }
        let smin = faces.iter().map(|f| f.1).min()?.min(0);
        let smax = faces.iter().map(|f| f.1).max()?.max(0);
        let k = i64::from(keep);
        let lo = k.checked_mul(smin)?;
        let hi = k.checked_mul(smax)?;
        let span = usize::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
        let keep = keep as usize;
        if span.checked_mul(keep)? > 4 * MAX_OUTCOMES {
            return None;
        }
        let pairs = (keep as u64) * (keep as u64 + 1) / 2;
        let work = (faces.len() as u64)
            .saturating_mul(span as u64)
            .saturating_mul(pairs)
            .saturating_add((faces.len() as u64).saturating_mul(u64::from(n)));
        Some(KeepPlan {
            n,
            keep,
            faces,
            lo,
            span,
            work,
        })
    }

    fn run(&self) -> Dist<i64> {
        let (k, span) = (self.keep, self.span);
        // Row j: the states with j dice placed (all kept, j < keep); cell i
        // the kept sum lo + i. `done`: the final kept sums.
        let mut cur = vec![0.0; k * span];
        let mut next = vec![0.0; k * span];
        let mut done = vec![0.0; span];
        // Nonzero cells of each row lie in first..last (empty when first > last).
        let mut bounds: Vec<(usize, usize)> = vec![(usize::MAX, 0); k];
        let zero = usize::try_from(-self.lo).unwrap_or(0);
        if let (Some(c), Some(b)) = (cur.get_mut(zero), bounds.first_mut()) {
            *c = 1.0;
            *b = (zero, zero);
        }
        let mut row_p = Vec::with_capacity(k + 1);
        for &(q, s) in &self.faces {
            let mut next_bounds: Vec<(usize, usize)> = vec![(usize::MAX, 0); k];
            for c in next.iter_mut() {
                *c = 0.0;
            }
            for j in 0..k {
                let (first, last) = bounds.get(j).copied().unwrap_or((usize::MAX, 0));
                if first > last {
                    continue;
                }
                let Some(src) = cur.get(j * span + first..=j * span + last) else {
                    continue;
                };
                let m = self.n as usize - j;
                let room = k - j;
                let tail = binomial_head(m, q, room, &mut row_p);
                for (c, &pc) in row_p.iter().enumerate() {
                    if pc == 0.0 {
                        continue;
                    }
                    let shift = c as i64 * s;
                    let at = (first as i64 + shift) as usize;
                    axpy(&mut next, (j + c) * span + at, pc, src);
                    if let Some(b) = next_bounds.get_mut(j + c) {
                        b.0 = b.0.min(at);
                        b.1 = b.1.max(at + (last - first));
                    }
                }
                if tail > 0.0 {
                    let at = (first as i64 + room as i64 * s) as usize;
                    axpy(&mut done, at, tail, src);
                }
            }
            std::mem::swap(&mut cur, &mut next);
            bounds = next_bounds;
        }
        Dist::from_dense(self.lo, &done)
    }
}

/// `out[c]` = P(X = c) for c in 0..room, X binomial with `m` trials of
/// chance `q`; returns P(X >= room). The terms by the ratio of successive
/// terms from the first one that does not underflow (logarithms only to find
/// it), and the tail summed directly when it is small, so small
/// probabilities keep their relative accuracy.
fn binomial_head(m: usize, q: f64, room: usize, out: &mut Vec<f64>) -> f64 {
    out.clear();
    out.resize(room, 0.0);
    if q >= 1.0 {
        return if room > m { 0.0 } else { 1.0 };
    }
    if q <= 0.0 {
        if let Some(o) = out.first_mut() {
            *o = 1.0;
        }
        return if room == 0 { 1.0 } else { 0.0 };
    }
    let ratio = q / (1.0 - q);
    let l1q = (-q).ln_1p();
    // P(X = c) from its logarithm (for the first term, and after underflow).
    let ln_term = |c: usize, ln_choose: f64| ln_choose + c as f64 * q.ln() + (m - c) as f64 * l1q;
    // While the terms underflow (or are subnormal), each comes from its logarithm (ln C(m, c)
    // kept up to date); from the first that does not, by the ratio.
    let mut ln_choose = 0.0;
    let mut t = 0.0;
    let mut by_logs = true;
    let mut head = 0.0;
    for c in 0..room.min(m + 1) {
        if by_logs {
            t = ln_term(c, ln_choose).exp();
            // A subnormal start would carry its few bits into every term.
            by_logs = t < f64::MIN_POSITIVE;
        }
        if let Some(o) = out.get_mut(c) {
            *o = t;
        }
        head += t;
        if by_logs {
            ln_choose += ((m - c) as f64 / (c + 1) as f64).ln();
        } else {
            t *= (m - c) as f64 / (c + 1) as f64 * ratio;
        }
    }
    if room > m {
        return 0.0;
    }
    if head <= 0.5 {
        return (1.0 - head).max(0.0);
    }
    // The median is below `room`, so the terms from `room` on decrease: sum
    // them until they no longer count.
    let mut tail = 0.0;
    for c in room..=m {
        tail += t;
        if t == 0.0 || t < tail * 1e-18 {
            break;
        }
        t *= (m - c) as f64 / (c + 1) as f64 * ratio;
    }
    tail
}

/// The steps [`keep_by_enumeration`] would take: multisets of `keep` values
/// x faces x dice.
fn enumeration_work(faces: usize, n: u32, keep: u32) -> f64 {
    let faces = faces as u64;
    choose(faces + u64::from(keep) - 1, u64::from(keep)) * faces as f64 * f64::from(n)
}

/// Keep by enumerating the multisets of kept values, one die at a time: the
/// first method, kept for outcomes spread too wide for the dense arrays and
/// as the reference the tests check the multiset method against.
fn keep_by_enumeration(
    d: &Dist<i64>,
    n: u32,
    keep: u32,
    highest: bool,
    score: impl Fn(i64) -> i64,
) -> Result<Dist<i64>, OddsError> {
    // State: the kept values so far, sorted so that index 0 is the one to
    // evict next (the smallest when keeping highest).
    let mut states: BTreeMap<Vec<i64>, f64> = BTreeMap::from([(Vec::new(), 1.0)]);
    for _ in 0..n {
        let mut next: BTreeMap<Vec<i64>, f64> = BTreeMap::new();
        for (kept, w) in &states {
            for (v, wv) in &d.p {
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
                return Err(TOO_LARGE);
            }
        }
        states = next;
    }
    let mut p: BTreeMap<i64, f64> = BTreeMap::new();
    for (k, w) in states {
        *p.entry(k.iter().map(|v| score(*v)).sum()).or_insert(0.0) += w;
    }
    Ok(Dist::from_map(p))
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
        assert!(matches!(d.sum_of(1000), Err(OddsError::TooLarge { .. })));
        assert!(matches!(
            Dist::die(6).unwrap().keep_highest(1000, 900),
            Err(OddsError::TooLarge { .. })
        ));
    }

    #[test]
    fn a_large_count_of_successes_matches_the_convolution() {
        let d6 = Dist::die(6).unwrap();
        let fast = d6.count_successes(1000, |v| v >= 2).unwrap();
        let two = Dist::from_weights([(0i64, 1.0), (1, 5.0)]).unwrap();
        let slow = two.sum_of(1000).unwrap();
        assert_eq!(fast.len(), slow.len());
        for (v, w) in slow.iter() {
            assert!((fast.p(v) - w).abs() < 1e-13);
            // Relative accuracy too, down to the smallest normal numbers.
            if w > 1e-290 {
                assert!(
                    (fast.p(v) - w).abs() <= w * 1e-10,
                    "{v}: {} vs {w}",
                    fast.p(v)
                );
            }
        }
    }

    #[test]
    fn the_issue_queries_are_answered() {
        let d6 = Dist::die(6).unwrap();
        let s = d6.sum_of(500).unwrap();
        // The extreme totals (6^-500) are below the smallest f64 and vanish.
        let (lo, hi) = s.range();
        assert!((500..1000).contains(&lo) && (2501..=3000).contains(&hi));
        assert!((s.mean() - 1750.0).abs() < 1e-9);
        let k = Dist::die(20).unwrap().keep_highest(100, 10).unwrap();
        assert_eq!(k.range(), (10, 200));
        assert!((k.iter().map(|(_, w)| w).sum::<f64>() - 1.0).abs() < 1e-12);
        // All ten kept dice show 20 when at least ten of the hundred do.
        let fewer: f64 = (0..10)
            .map(|c| choose(100, c) * 0.05f64.powi(c as i32) * 0.95f64.powi(100 - c as i32))
            .sum();
        assert!((k.p(&200) - (1.0 - fewer)).abs() < 1e-12);
    }

    /// The sum of `n` copies by the map-based convolution, one at a time.
    fn sum_by_maps(d: &Dist<i64>, n: u32) -> Dist<i64> {
        d.repeat(n, 0i64, |a, b| a + b).unwrap()
    }

    fn assert_same(a: &Dist<i64>, b: &Dist<i64>) -> Result<(), TestCaseError> {
        let diff = a
            .iter()
            .map(|(v, w)| (w - b.p(v)).abs())
            .chain(b.iter().map(|(v, w)| (w - a.p(v)).abs()))
            .fold(0.0, f64::max);
        prop_assert!(diff < 1e-12, "max difference {diff}: {a:?} vs {b:?}");
        Ok(())
    }

    fn small_die() -> impl Strategy<Value = Dist<i64>> {
        proptest::collection::vec((-4i64..9, 0.05f64..1.0), 1..6)
            .prop_map(|faces| Dist::from_weights(faces).unwrap())
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn dense_sums_match_map_sums(d in small_die(), e in small_die(), n in 0u32..7) {
            assert_same(&d.sum_of(n).unwrap(), &sum_by_maps(&d, n))?;
            assert_same(&d.sum_of(n).unwrap(), &d.sum_of_by_squaring(n).unwrap())?;
            assert_same(&d.add(&e).unwrap(), &d.combine(&e, |a, b| a + b).unwrap())?;
            let q = d.p_where(|v| *v > 2);
            let c = d.count_successes(n, |v| v > 2).unwrap();
            for k in 0..=n {
                let want = choose(u64::from(n), u64::from(k))
                    * q.powi(k as i32)
                    * (1.0 - q).powi((n - k) as i32);
                prop_assert!((c.p(&i64::from(k)) - want).abs() < 1e-12);
            }
        }

        #[test]
        fn multiset_keep_matches_enumeration(
            d in small_die(),
            n in 1u32..7,
            keep in 1u32..6,
            highest: bool,
            count in proptest::option::of(-2i64..6),
        ) {
            let keep = keep.min(n);
            let score = |v: i64| match count {
                Some(t) => i64::from(v >= t),
                None => v,
            };
            let fast = d.keep_by(n, keep, highest, score).unwrap();
            let slow = if keep >= n {
                d.map(|v| score(*v)).sum_of(n).unwrap()
            } else {
                keep_by_enumeration(&d, n, keep, highest, score).unwrap()
            };
            assert_same(&fast, &slow)?;
        }

        #[test]
        fn dense_joint_matches_map_joint(
            faces in proptest::collection::vec(((0i64..3, 0i64..2), 0.05f64..1.0), 1..5),
            n in 0u32..6,
        ) {
            let d = Dist::from_weights(faces).unwrap();
            let fast = d.sum_of(n).unwrap();
            let slow = d.repeat(n, (0i64, 0i64), |a, b| (a.0 + b.0, a.1 + b.1)).unwrap();
            prop_assert_eq!(fast.len(), slow.len());
            for (v, w) in slow.iter() {
                prop_assert!((fast.p(v) - w).abs() < 1e-12);
            }
        }

        #[test]
        fn binomial_head_and_tail_sum_to_one(m in 1usize..400, q in 0.0f64..1.0, room in 1usize..40) {
            let room = room.min(m);
            let mut out = Vec::new();
            let tail = binomial_head(m, q, room, &mut out);
            let total: f64 = out.iter().sum::<f64>() + tail;
            prop_assert!((total - 1.0).abs() < 1e-12, "{total}");
        }
    }
}
