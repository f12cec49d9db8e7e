//! Exact odds of an [`Expr`]: the distribution of its total.
//!
//! Dice groups are independent of each other, so the distribution of a tree is
//! built bottom-up: a group's distribution from its die, then `+ - * /` by
//! combining the two sides' distributions ([`Dist::combine`]).
//!
//! Within a group every die is independent too. A die's value after `ro`, `rr`,
//! `mi` and `ma` is a distribution worked out face by face (`rr` exactly as
//! rolled, stopping after [`super::MAX_REROLLS`] rerolls). Keep and drop then
//! use [`Dist::keep_by`]. An explosion makes each original die a chain of dice;
//! the chain's contribution (sum, or successes) is built from the deepest die
//! up, [`EXPLODE_DEPTH`] dice deep, which is where rolling stops too. Unbounded
//! exploding dice would go on, so an expression with `e` reports `exact: false`
//! and the probability that some chain reached the depth (`truncated_mass`):
//! only those outcomes would differ.

use serde::Serialize;
use std::collections::BTreeMap;

use super::{BinOp, DiceTerm, Expr, MAX_EXPLOSIONS, MAX_REROLLS, Modifier, Node, Select, Sides};
use crate::odds::{Dist, MAX_OUTCOMES, OddsError};

/// How many extra dice the odds follow one exploding die for: the same cap
/// rolling has ([`MAX_EXPLOSIONS`]).
pub const EXPLODE_DEPTH: u32 = MAX_EXPLOSIONS;

/// The most elementary steps (outcome pairs) one explosion computation may take.
const MAX_WORK: usize = 50_000_000;

/// The distribution of an expression's total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExprOdds {
    /// Each total with its probability.
    pub dist: Dist<i64>,
    /// False when an explosion was cut at [`EXPLODE_DEPTH`]: `dist` is exact
    /// for Tabula's capped explosions, and differs from unbounded exploding dice
    /// only on `truncated_mass`.
    pub exact: bool,
    /// The probability that some exploding die reached [`EXPLODE_DEPTH`] extra
    /// dice and still met its test (0 when `exact`).
    pub truncated_mass: f64,
}

type Weights = BTreeMap<i64, f64>;

/// Whether an explosion was cut, and the log of the probability that every
/// chain stayed short of the depth (a log, so that tiny masses survive).
struct Truncation {
    exact: bool,
    ln_survive: f64,
}

impl Expr {
    /// The exact distribution of this expression's total.
    ///
    /// # Examples
    ///
    /// ```
    /// use tabula_core::notation::Expr;
    ///
    /// let odds = Expr::parse("(1d4 + 1) * 2")?.odds()?;
    /// assert_eq!(odds.dist.p(&6), 0.25);
    /// assert!(odds.exact);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`OddsError::TooLarge`] when a step would hold more than
    /// [`MAX_OUTCOMES`] outcomes or take too long (`1d10000 * 1d10000`,
    /// `1000d6kh900`).
    pub fn odds(&self) -> Result<ExprOdds, OddsError> {
        let mut t = Truncation {
            exact: true,
            ln_survive: 0.0,
        };
        let dist = node(&self.root, &mut t)?;
        Ok(ExprOdds {
            dist,
            exact: t.exact,
            truncated_mass: if t.exact {
                0.0
            } else {
                (-t.ln_survive.exp_m1()).max(0.0)
            },
        })
    }
}

fn node(n: &Node, t: &mut Truncation) -> Result<Dist<i64>, OddsError> {
    match n {
        Node::Number(v) => Ok(Dist::certain(i64::from(*v))),
        Node::Dice(d) => dice(d, t),
        Node::Neg(x) => Ok(node(x, t)?.map(|v| -v)),
        Node::Group(x) | Node::Labelled(x, _) => node(x, t),
        Node::Binary(op, ab) => {
            let a = node(&ab[0], t)?;
            let b = node(&ab[1], t)?;
            let op = *op;
            match op {
                // Sums and differences by the dense convolution.
                BinOp::Add => a.add(&b),
                BinOp::Sub => a.add(&b.map(|v| v.saturating_neg())),
                // The parser rules out overflow and divisors that can be 0.
                _ => a.combine(&b, |x, y| op.apply(*x, *y).unwrap_or(0)),
            }
        }
    }
}

fn to_dist(w: Weights) -> Result<Dist<i64>, OddsError> {
    if w.len() > MAX_OUTCOMES {
        return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
    }
    Dist::from_weights(w)
}

fn uniform(sides: Sides) -> Weights {
    let (lo, hi) = sides.range();
    let p = 1.0 / (hi - lo + 1) as f64;
    (lo..=hi).map(|v| (v, p)).collect()
}

/// `Σ_v w(v) · f(v)`: a mixture of distributions.
fn mix<'a>(w: impl IntoIterator<Item = (&'a i64, &'a f64)>, f: impl Fn(i64) -> Weights) -> Weights {
    let mut out = Weights::new();
    for (v, p) in w {
        for (x, q) in f(*v) {
            *out.entry(x).or_insert(0.0) += p * q;
        }
    }
    out
}

/// The sum of two independent values.
fn conv(a: &Weights, b: &Weights) -> Weights {
    let mut out = Weights::new();
    for (x, p) in a {
        for (y, q) in b {
            *out.entry(x.saturating_add(*y)).or_insert(0.0) += p * q;
        }
    }
    out
}

fn certain(v: i64) -> Weights {
    Weights::from([(v, 1.0)])
}

/// A die's value distribution after one pass of modifiers (a run of merged
/// `ro`s or `rr`s, or one `mi` or `ma`; not an explosion).
fn apply(w: &Weights, pass: &[Modifier], u: &Weights) -> Weights {
    let matches = |v: i64| super::pass_matches(pass, v);
    match pass.first() {
        Some(Modifier::RerollOnce(_)) => {
            mix(w, |v| if matches(v) { u.clone() } else { certain(v) })
        }
        Some(Modifier::Reroll(_)) => {
            // The value a matching die ends on: reroll up to MAX_REROLLS times,
            // stopping at the first face that does not match.
            let mut after = u.clone();
            for _ in 1..MAX_REROLLS {
                after = mix(&after, |v| if matches(v) { u.clone() } else { certain(v) });
            }
            mix(w, |v| {
                if matches(v) {
                    after.clone()
                } else {
                    certain(v)
                }
            })
        }
        Some(Modifier::Min(x)) => mix(w, |v| certain(v.max(i64::from(*x)))),
        Some(Modifier::Max(x)) => mix(w, |v| certain(v.min(i64::from(*x)))),
        Some(Modifier::Explode(_)) | None => w.clone(),
    }
}

fn apply_all(mut w: Weights, mods: &[Modifier], u: &Weights) -> Weights {
    for pass in super::passes(mods) {
        w = apply(&w, pass, u);
    }
    w
}

fn p_where(w: &Weights, t: impl Fn(i64) -> bool) -> f64 {
    w.iter().filter(|(v, _)| t(**v)).map(|(_, p)| p).sum()
}

fn dice(term: &DiceTerm, trunc: &mut Truncation) -> Result<Dist<i64>, OddsError> {
    // The weights of one die as a map, for the modifiers worked face by face.
    let u = if term.modifiers.is_empty() {
        Weights::new()
    } else {
        uniform(term.sides)
    };
    let success = term.success;
    // A selection by value (`k<3`) keeps or drops each die on its own value:
    // a dropped die scores 0 (issue 30, item 2).
    let by_value = term.select.filter(|s| s.by_value().is_some());
    let g = move |v: i64| {
        if by_value.is_some_and(|s| !s.keeps_value(v)) {
            return 0;
        }
        match success {
            Some(t) => i64::from(t.test(v)),
            None => v,
        }
    };
    let explode_at = term
        .modifiers
        .iter()
        .position(|m| matches!(m, Modifier::Explode(_)));
    let Some(i) = explode_at else {
        let per_die = if term.modifiers.is_empty() {
            let (lo, hi) = term.sides.range();
            Dist::uniform_range(lo, hi)?
        } else {
            to_dist(apply_all(u.clone(), &term.modifiers, &u))?
        };
        let count = term.count;
        return match term.select {
            None => match success {
                None => per_die.sum_of(count),
                Some(t) => per_die.count_successes(count, |v| t.test(v)),
            },
            Some(_) if by_value.is_some() => per_die.map(|v| g(*v)).sum_of(count),
            Some(sel) => {
                let (keep, highest) = match sel {
                    Select::KeepHighest(k) => (k, true),
                    Select::KeepLowest(k) => (k, false),
                    Select::DropHighest(k) => (count - k, false),
                    Select::DropLowest(k) => (count - k, true),
                    // By value: handled above.
                    _ => return Err(OddsError::Empty),
                };
                per_die.keep_by(count, keep, highest, g)
            }
        };
    };
    // The run of merged explosions from `i` (`e5e6` explodes on 5 or 6).
    let run_len = term.modifiers[i..]
        .iter()
        .take_while(|m| matches!(m, Modifier::Explode(_)))
        .count();
    let run = &term.modifiers[i..i + run_len];
    let test = |v: i64| super::pass_matches(run, v);
    let pre = apply_all(u.clone(), &term.modifiers[..i], &u);
    let post = &term.modifiers[i + run_len..];
    // h(v): what one die showing v at the explosion contributes after the
    // modifiers written after `e`.
    let h: BTreeMap<i64, Weights> = u
        .keys()
        .map(|&v| {
            let after = apply_all(certain(v), post, &u);
            (v, mix(&after, |x| certain(g(x))))
        })
        .collect();
    let h_of = |v: i64| h.get(&v).cloned().unwrap_or_default();
    let p = p_where(&u, test);
    let reach = p_where(&pre, test) * p.powi(EXPLODE_DEPTH as i32);
    trunc.exact = false;
    trunc.ln_survive += f64::from(term.count) * (-reach).ln_1p();
    if let Some(select) = term.select.filter(|s| s.by_value().is_none()) {
        // Values, not contributions: the selection needs every die's value.
        let finals: BTreeMap<i64, Weights> = u
            .keys()
            .map(|&v| (v, apply_all(certain(v), post, &u)))
            .collect();
        return select_exploding(term.count, select, &pre, &u, &test, &finals, g);
    }
    // The chain from the deepest extra die up: S_D, then S_k from S_(k+1).
    let mut s = mix(&u, h_of);
    let mut work = 0usize;
    let matching = u.keys().filter(|v| test(**v)).count();
    for _ in 1..EXPLODE_DEPTH {
        work = work.saturating_add(matching.saturating_mul(s.len()));
        if work > MAX_WORK || s.len() > MAX_OUTCOMES {
            return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
        }
        s = mix(&u, |v| if test(v) { conv(&h_of(v), &s) } else { h_of(v) });
    }
    let chain = mix(&pre, |v| if test(v) { conv(&h_of(v), &s) } else { h_of(v) });
    to_dist(chain)?.sum_of(term.count)
}

/// The state of a keep or drop over a pool whose size is random: the values
/// held back (sorted so that index 0 is the next to let go) and the score of
/// the values already let go.
type Held = (Vec<i64>, i64);

/// Keep or drop after an explosion. The pool's dice are taken chain by chain
/// (an original die, then the dice its explosion added); the order does not
/// change which values a selection keeps. For keep, the `k` highest (or
/// lowest) values are held and the rest let go; for drop, the `k` to drop are
/// held and the score of the rest is summed as they are let go.
fn select_exploding(
    count: u32,
    select: Select,
    pre: &Weights,
    u: &Weights,
    test: &dyn Fn(i64) -> bool,
    finals: &BTreeMap<i64, Weights>,
    g: impl Fn(i64) -> i64,
) -> Result<Dist<i64>, OddsError> {
    let (k, highest, keep) = match select {
        Select::KeepHighest(k) => (k as usize, true, true),
        Select::KeepLowest(k) => (k as usize, false, true),
        Select::DropHighest(k) => (k as usize, true, false),
        Select::DropLowest(k) => (k as usize, false, false),
        // By value: the caller scores those through `g`.
        _ => return Err(OddsError::Empty),
    };
    let insert = |held: &Held, v: i64| -> Held {
        let (mut h, mut acc) = held.clone();
        let at = if highest {
            h.partition_point(|x| *x <= v)
        } else {
            h.partition_point(|x| *x >= v)
        };
        h.insert(at, v);
        if h.len() > k {
            let out = h.remove(0);
            if !keep {
                acc += g(out);
            }
        }
        (h, acc)
    };
    let mut work = 0usize;
    let mut step = |states: &BTreeMap<Held, f64>,
                    faces: &Weights,
                    may_explode: bool,
                    done: &mut BTreeMap<Held, f64>|
     -> Result<BTreeMap<Held, f64>, OddsError> {
        let mut active: BTreeMap<Held, f64> = BTreeMap::new();
        for (state, ps) in states {
            for (w, pw) in faces {
                let target = if may_explode && test(*w) {
                    &mut active
                } else {
                    &mut *done
                };
                for (f, pf) in finals.get(w).into_iter().flatten() {
                    *target.entry(insert(state, *f)).or_insert(0.0) += ps * pw * pf;
                }
            }
            work = work.saturating_add(faces.len());
        }
        if work > MAX_WORK || active.len() > MAX_OUTCOMES || done.len() > MAX_OUTCOMES {
            return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
        }
        Ok(active)
    };
    let mut states: BTreeMap<Held, f64> = BTreeMap::from([((Vec::new(), 0), 1.0)]);
    for _ in 0..count {
        let mut done = BTreeMap::new();
        let mut active = step(&states, pre, EXPLODE_DEPTH > 0, &mut done)?;
        for depth in 1..=EXPLODE_DEPTH {
            if active.is_empty() {
                break;
            }
            active = step(&active, u, depth < EXPLODE_DEPTH, &mut done)?;
        }
        states = done;
    }
    let mut out = Weights::new();
    for ((held, acc), p) in states {
        let score = if keep {
            held.iter().map(|v| g(*v)).sum()
        } else {
            acc
        };
        *out.entry(score).or_insert(0.0) += p;
    }
    to_dist(out)
}
