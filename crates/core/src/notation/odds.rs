//! Exact odds of an [`Expr`]: the distribution of its total.
//!
//! Dice groups are independent of each other, so the distribution of a tree is
//! built bottom-up: a group's distribution from its die, then `+ - * /` by
//! combining the two sides' distributions ([`Dist::combine`]).
//!
//! Within a group every die is independent too. A die's value after `ro`, `rr`,
//! `mi` and `ma` is a distribution worked out face by face, linear in the
//! faces. `rr` is exact in closed form (issue 30, item 4): a die that matches
//! ends uniform over the faces that do not, which is also how a roll ends at
//! [`super::MAX_REROLLS`] (its last reroll draws among the kept faces). Keep and drop then
//! use [`Dist::keep_by`]. An explosion makes each original die a chain of dice;
//! the chain's contribution (sum, or successes) is built from the deepest die
//! up, [`EXPLODE_DEPTH`] dice deep, which is where rolling stops too. Unbounded
//! exploding dice would go on, so an expression with `e` reports `exact: false`
//! and the probability that some chain reached the depth (`truncated_mass`):
//! only those outcomes would differ.
//!
//! # Work budget (issue 30, item 5; issue 28, item 10)
//!
//! Every step of the notation's own work is counted ([`ExprOdds::work`]):
//! [`MAP_STEPS`] per weight added to a map, and, for keep or drop after an
//! explosion, [`STATE_STEPS`] plus one per value for every state copied and
//! inserted (the copies are the real cost). Before each chain level and each
//! state is worked its steps are known, and a computation that would pass
//! [`MAX_NOTATION_WORK`] is refused before that step starts
//! ([`OddsError::TooMuchWork`], with the steps it would need so far); the
//! states held at once are capped at [`MAX_STATE_VALUES`] values
//! ([`OddsError::TooManyStates`]). So `30d6e6kh15`, `40d6e6kh20`,
//! `100d6e6kh50` and `1000d20e20kl999` are refused in well under a tenth of a
//! second, and small pools (`4d6e6kh3`, `8d6e6kh3`, `4d6e6dl1`) are answered.
//! Drop after an explosion is the dearest (its states carry the sum of the
//! dice let go): `6d10e10dl2` is refused.

use serde::Serialize;
use std::cell::Cell;
use std::collections::BTreeMap;

use super::ratio::Ratio;
use super::{
    BinOp, DiceTerm, ExplodeKind, Expr, MAX_EXPLOSIONS, Modifier, Node, Select, SetTerm, Sides,
};
use crate::odds::{Dist, MAX_OUTCOMES, OddsError};

/// How many extra dice the odds follow one exploding die for: the same cap
/// rolling has ([`MAX_EXPLOSIONS`]).
pub const EXPLODE_DEPTH: u32 = MAX_EXPLOSIONS;

/// The most steps the notation's own work for one expression may take
/// (issue 30, item 5; issue 28, item 10). A step is about five nanoseconds of
/// work: one value copied is a step, one weight added into a map
/// [`MAP_STEPS`], one kept-dice state made and inserted [`STATE_STEPS`] plus
/// its values (measured: `4d6e6dl1`, 19 million steps, 0.1 s). So the
/// budget is about a tenth of a second; the [`Dist`]
/// operations it calls keep their own caps ([`crate::odds::MAX_WORK`]).
pub const MAX_NOTATION_WORK: u64 = 20_000_000;

/// The steps of one weight added into a map of outcomes.
pub const MAP_STEPS: u64 = 12;

/// The steps of one kept-dice state made (an allocation) and inserted into
/// a map, besides one step per value it holds.
pub const STATE_STEPS: u64 = 64;

/// The most values the states of an explode-then-keep may hold at once
/// (about 8 bytes each: 16 MB), whatever their number.
pub const MAX_STATE_VALUES: u64 = 2_000_000;

/// The steps counted so far, refused past [`MAX_NOTATION_WORK`].
pub(super) struct Budget {
    used: Cell<u64>,
}

impl Budget {
    /// Count `n` steps (no check: the caller checks at the next checkpoint,
    /// and every single spend is bounded by the caps on sides and outcomes).
    pub(super) fn spend(&self, n: u64) {
        self.used.set(self.used.get().saturating_add(n));
    }

    /// Refuse once the budget is spent.
    pub(super) fn check(&self) -> Result<(), OddsError> {
        let steps = self.used.get();
        if steps > MAX_NOTATION_WORK {
            return Err(OddsError::TooMuchWork {
                steps,
                max: MAX_NOTATION_WORK,
            });
        }
        Ok(())
    }
}

/// The distribution of an expression's total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExprOdds {
    /// Each total with its probability.
    pub dist: Dist<i64>,
    /// False when a cap truncated anything (issue 30, item 4): an explosion
    /// cut at [`EXPLODE_DEPTH`] (`dist` is exact for Tabula's capped
    /// explosions, and differs from unbounded exploding dice only on
    /// `truncated_mass`), or totals whose chance underflowed to 0 and are not
    /// listed (`1000d6` lists 1597..5403). `rr` is exact (closed form).
    pub exact: bool,
    /// The probability that some exploding die reached [`EXPLODE_DEPTH`] extra
    /// dice and still met its test, plus at most the smallest normal `f64`
    /// for each total lost to underflow (0 when `exact`).
    pub truncated_mass: f64,
    /// The steps the notation's own work took (at most
    /// [`MAX_NOTATION_WORK`]): the counter the tests of the caps read.
    #[serde(skip)]
    pub work: u64,
}

pub(super) type Weights = BTreeMap<i64, f64>;

/// Whether an explosion was cut, and the log of the probability that every
/// chain stayed short of the depth (a log, so that tiny masses survive).
pub(super) struct Truncation {
    pub(super) exact: bool,
    pub(super) ln_survive: f64,
    /// At most this much probability underflowed to 0 (issue 30, item 4).
    underflow: f64,
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
            underflow: 0.0,
        };
        let budget = Budget { used: Cell::new(0) };
        let dist = if self.fractional {
            let exact = exact_node(&self.root, &mut t, &budget)?;
            let mut w = Weights::new();
            for (v, p) in exact {
                *w.entry(v.trunc_i64().unwrap_or(0)).or_insert(0.0) += p;
            }
            to_dist(w)?
        } else {
            node(&self.root, &mut t, &budget)?
        };
        Ok(ExprOdds {
            work: budget.used.get(),
            dist,
            exact: t.exact,
            truncated_mass: if t.exact {
                0.0
            } else {
                (-t.ln_survive.exp_m1()).max(0.0) + t.underflow
            },
        })
    }
}

/// The exact values of a node of a fractional expression (`d20`'s `/` and
/// decimals; issue 30, item 2) with their probabilities: every pair of
/// operand values combined in exact fractions, one step per pair, refused
/// past the budget or [`MAX_OUTCOMES`] values.
fn exact_node(
    n: &Node,
    t: &mut Truncation,
    budget: &Budget,
) -> Result<BTreeMap<Ratio, f64>, OddsError> {
    let whole = |d: Dist<i64>| -> BTreeMap<Ratio, f64> {
        d.iter()
            .map(|(v, p)| (Ratio::int(i128::from(*v)), p))
            .collect()
    };
    Ok(match n {
        Node::Decimal(d) => BTreeMap::from([(d.value(), 1.0)]),
        Node::Neg(x) => {
            let inner = exact_node(x, t, budget)?;
            let mut out = BTreeMap::new();
            for (v, p) in inner {
                *out.entry(v.neg().unwrap_or(Ratio::ZERO)).or_insert(0.0) += p;
            }
            out
        }
        Node::Group(x) | Node::Labelled(x, _) => exact_node(x, t, budget)?,
        Node::Set(set) => exact_set(set, t, budget)?,
        Node::Binary(op, ab) => {
            let a = exact_node(&ab[0], t, budget)?;
            let b = exact_node(&ab[1], t, budget)?;
            let pairs = (a.len() as u64).saturating_mul(b.len() as u64);
            refuse_past_budget(budget, pairs.saturating_mul(MAP_STEPS))?;
            budget.spend(pairs.saturating_mul(MAP_STEPS));
            let mut out = BTreeMap::new();
            for (x, p) in &a {
                for (y, q) in &b {
                    // The parser's bounds rule out overflow and a zero divisor.
                    let v = op.apply_exact(*x, *y).unwrap_or(Ratio::ZERO);
                    *out.entry(v).or_insert(0.0) += p * q;
                }
                if out.len() > MAX_OUTCOMES {
                    return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
                }
            }
            out
        }
        // Numbers, dice, sets (of whole items) and functions are whole.
        _ => whole(node(n, t, budget)?),
    })
}

/// The exact totals of `d20`'s set whose items may hold fractions (issue 30,
/// item 2): every item's exact values scaled by the least common multiple
/// of their denominators to whole numbers, kept and dropped as whole totals
/// are ([`set_of`]: scaling keeps their order and their sums), then scaled
/// back. Refused when the scaled totals would not fit.
fn exact_set(
    set: &SetTerm,
    t: &mut Truncation,
    b: &Budget,
) -> Result<BTreeMap<Ratio, f64>, OddsError> {
    let mut items = Vec::with_capacity(set.items.len());
    for item in &set.items {
        items.push(exact_node(item, t, b)?);
    }
    let too_large = OddsError::TooLarge { max: MAX_OUTCOMES };
    let mut scale: i128 = 1;
    for v in items.iter().flat_map(|m| m.keys()) {
        let d = v.den();
        let g = gcd(scale, d);
        scale = (scale / g).checked_mul(d).ok_or(too_large.clone())?;
        if scale > super::MAX_DENOMINATOR {
            return Err(too_large);
        }
    }
    // Every item's scaled values, and their sum, within ±2^62.
    let limit = i128::from(i64::MAX / 2);
    let mut reach: i128 = 0;
    let mut scaled = Vec::with_capacity(items.len());
    for m in &items {
        let mut w = Weights::new();
        let mut most: i128 = 0;
        for (v, p) in m {
            let x = v.mul(Ratio::int(scale)).ok_or(too_large.clone())?.trunc();
            most = most.max(x.abs());
            let x = i64::try_from(x).map_err(|_| too_large.clone())?;
            *w.entry(x).or_insert(0.0) += p;
        }
        reach = reach.saturating_add(most);
        if reach > limit {
            return Err(too_large);
        }
        scaled.push(to_dist(w)?);
    }
    let scale64 = i64::try_from(scale).map_err(|_| too_large.clone())?;
    let d = set_of(set, &scaled, scale64, b)?;
    let mut out = BTreeMap::new();
    for (v, p) in d.iter() {
        let r = Ratio::new(i128::from(*v), scale).ok_or(too_large.clone())?;
        *out.entry(r).or_insert(0.0) += p;
    }
    Ok(out)
}

/// The greatest common divisor of two positive numbers.
fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}

fn node(n: &Node, t: &mut Truncation, budget: &Budget) -> Result<Dist<i64>, OddsError> {
    match n {
        Node::Number(v) => Ok(Dist::certain(i64::from(*v))),
        // Only in a fractional expression, which `exact_node` reads.
        Node::Decimal(d) => Ok(Dist::certain(d.value().trunc_i64().unwrap_or(0))),
        Node::Dice(d) => dice(d, t, budget),
        Node::Neg(x) => Ok(node(x, t, budget)?.map(|v| -v)),
        Node::Group(x) | Node::Labelled(x, _) => node(x, t, budget),
        Node::Binary(op, ab) => {
            let a = node(&ab[0], t, budget)?;
            let b = node(&ab[1], t, budget)?;
            let op = *op;
            match op {
                // Sums and differences by the dense convolution.
                BinOp::Add => a.add(&b),
                BinOp::Sub => a.add(&b.map(|v| v.saturating_neg())),
                // The parser rules out overflow and divisors that can be 0.
                _ => a.combine(&b, |x, y| op.apply(*x, *y).unwrap_or(0)),
            }
        }
        Node::Func(func, x) => {
            let func = *func;
            match div_operands(x) {
                // The exact quotient, rounded (issue 30, item 3).
                Some([lhs, rhs]) => {
                    let a = node(lhs, t, budget)?;
                    let b = node(rhs, t, budget)?;
                    a.combine(&b, |x, y| func.of_quotient(*x, *y).unwrap_or(0))
                }
                None => Ok(node(x, t, budget)?.map(|v| func.of_integer(*v).unwrap_or(0))),
            }
        }
        Node::Set(set) => set_odds(set, t, budget),
        Node::VarDice(cs) => var_dice(cs, t, budget),
        Node::ModifiedVarDice(v) => modified_var_dice(v, t, budget),
    }
}

/// Variable dice with modifiers (issue 30, item 3): for each count and
/// number of sides, the odds of that group of dice with the modifiers, mixed
/// by their chances; the truncated mass of explosions mixed the same way.
/// Each group's work is bounded before any is done (about as many steps as
/// summing its dice one by one: count squared times sides squared), and
/// refused past the budget.
fn modified_var_dice(
    v: &super::VarDice,
    t: &mut Truncation,
    b: &Budget,
) -> Result<Dist<i64>, OddsError> {
    let count = node(&v.count, t, b)?;
    let sides = node(&v.sides, t, b)?;
    let mut steps: u64 = 0;
    for (s, _) in sides.iter() {
        for (c, _) in count.iter() {
            let (c, s) = ((*c).max(0) as u64 + 1, (*s).max(1) as u64);
            steps = steps.saturating_add(
                c.saturating_mul(c)
                    .saturating_mul(s)
                    .saturating_mul(s)
                    .saturating_mul(MAP_STEPS),
            );
        }
    }
    refuse_past_budget(b, steps)?;
    b.spend(steps);
    let mut out = Weights::new();
    let mut cut = 0.0;
    for (s, ps) in sides.iter() {
        for (c, pc) in count.iter() {
            let term = DiceTerm {
                count: u32::try_from(*c).unwrap_or(0),
                sides: Sides::Number(u32::try_from(*s).unwrap_or(1).max(1)),
                ..v.term.clone()
            };
            let mut tc = Truncation {
                exact: true,
                ln_survive: 0.0,
                underflow: 0.0,
            };
            let d = dice(&term, &mut tc, b)?;
            b.check()?;
            for (x, q) in d.iter() {
                *out.entry(*x).or_insert(0.0) += ps * pc * q;
            }
            t.exact &= tc.exact;
            t.underflow += ps * pc * tc.underflow;
            cut += ps * pc * (-tc.ln_survive.exp_m1()).max(0.0);
        }
    }
    t.ln_survive += (-cut).ln_1p();
    to_dist(out)
}

/// Variable dice (issue 30, item 3): for each number of sides, the sums of
/// 0, 1, 2, ... dice by repeated convolution, mixed by the count's and the
/// sides' chances. The convolutions' steps are counted before any is made
/// and refused past the budget.
fn var_dice(cs: &[Node; 2], t: &mut Truncation, b: &Budget) -> Result<Dist<i64>, OddsError> {
    let count = node(&cs[0], t, b)?;
    let sides = node(&cs[1], t, b)?;
    let most = count.iter().map(|(c, _)| *c).max().unwrap_or(0).max(0) as u64;
    let mut steps: u64 = 0;
    for (s, _) in sides.iter() {
        let s = (*s).max(1) as u64;
        // Sum k of at most k*s values, times s faces, for k up to `most`.
        steps = steps.saturating_add(
            most.saturating_mul(most.saturating_mul(s))
                .saturating_mul(s)
                .saturating_mul(MAP_STEPS),
        );
    }
    refuse_past_budget(b, steps)?;
    let mut out = Weights::new();
    for (s, ps) in sides.iter() {
        let die = uniform(Sides::Number(u32::try_from(*s).unwrap_or(1).max(1)));
        let mut sum = certain(0);
        for k in 0..=most as i64 {
            let pc = count.p(&k);
            if pc > 0.0 {
                for (v, q) in &sum {
                    *out.entry(*v).or_insert(0.0) += ps * pc * q;
                }
            }
            if k < most as i64 {
                sum = conv(b, &sum, &die);
            }
        }
    }
    to_dist(out)
}

/// The operands of a `/` directly inside `n` (through parentheses).
fn div_operands(n: &Node) -> Option<&[Node; 2]> {
    match n {
        Node::Group(x) => div_operands(x),
        Node::Binary(BinOp::Div, ab) => Some(ab),
        _ => None,
    }
}

/// A group in braces: its items are independent but not alike, so a keep or
/// drop holds the kept (or dropped) totals item by item, as an explosion's
/// keep does ([`select_exploding`]'s states), within the same budget.
fn set_odds(set: &SetTerm, t: &mut Truncation, b: &Budget) -> Result<Dist<i64>, OddsError> {
    let mut items = Vec::with_capacity(set.items.len());
    for item in &set.items {
        items.push(node(item, t, b)?);
    }
    set_of(set, &items, 1, b)
}

/// [`set_odds`] of items whose totals are given, each `scale` times its
/// value (`d20`'s items with fractions, scaled to whole numbers; issue 30,
/// item 2): a keep or drop by value compares with its number times `scale`.
fn set_of(
    set: &SetTerm,
    items: &[Dist<i64>],
    scale: i64,
    b: &Budget,
) -> Result<Dist<i64>, OddsError> {
    let (success, failure) = (set.success, set.failure);
    let g = move |v: i64| match success {
        Some(s) => i64::from(s.test(v)) - i64::from(failure.is_some_and(|f| f.test(v))),
        None => v,
    };
    if !set.more_select.is_empty() {
        return set_several(set, items, scale, &g, b);
    }
    // No selection, or d20's by value (`k<3`): each item on its own total.
    let by_value = set.select.filter(|s| s.by_value().is_some());
    let Some(select) = set.select.filter(|_| by_value.is_none()) else {
        let keeps = |v: i64| {
            by_value.is_none_or(|s| match s.by_value() {
                Some((t, keep)) => {
                    t.compare.test(v, i64::from(t.target).saturating_mul(scale)) == keep
                }
                None => true,
            })
        };
        let mut total = Dist::certain(0);
        for d in items {
            total = total.add(&d.map(|v| if keeps(*v) { g(*v) } else { 0 }))?;
        }
        return Ok(total);
    };
    let (k, highest, keep) = match select {
        Select::KeepHighest(k) => (k as usize, true, true),
        Select::KeepLowest(k) => (k as usize, false, true),
        Select::DropHighest(k) => (k as usize, true, false),
        Select::DropLowest(k) => (k as usize, false, false),
        // The parser reads no selection by value on a group.
        _ => return Err(OddsError::Empty),
    };
    // Held values sorted so that index 0 is the next to let go; ties go to
    // the earlier item, as rolling's stable sort does (the totals are equal,
    // so the score is the same either way).
    let mut states: BTreeMap<Held, f64> = BTreeMap::from([((Vec::new(), 0), 1.0)]);
    for d in items {
        let per_state = (d.len() as u64).saturating_mul(k as u64 + 1 + STATE_STEPS);
        refuse_past_budget(b, per_state.saturating_mul(states.len() as u64))?;
        let mut next: BTreeMap<Held, f64> = BTreeMap::new();
        for ((held, acc), p) in &states {
            for (v, q) in d.iter() {
                b.spend(k as u64 + 1 + STATE_STEPS);
                let mut h = held.clone();
                let at = if highest {
                    h.partition_point(|x| *x <= *v)
                } else {
                    h.partition_point(|x| *x >= *v)
                };
                h.insert(at, *v);
                let mut acc = *acc;
                if h.len() > k {
                    let out = h.remove(0);
                    if !keep {
                        acc += g(out);
                    }
                }
                *next.entry((h, acc)).or_insert(0.0) += p * q;
            }
        }
        let held = (next.len() as u64).saturating_mul(k as u64 + 2);
        if held > MAX_STATE_VALUES {
            return Err(OddsError::TooManyStates {
                values: held,
                max: MAX_STATE_VALUES,
            });
        }
        states = next;
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

/// A set with several keeps and drops (`d20`'s `(1d6, 1d6)kh1kl1`; issue
/// 30, item 2): every joint outcome of its items, kept as rolling keeps
/// them ([`super::kept_by_rank`], ties to the earlier item), each kept
/// item scored by `g`. The items are not alike, so no multiset shortcut:
/// the joint outcomes are counted first and refused past the budget.
fn set_several(
    set: &SetTerm,
    items: &[Dist<i64>],
    scale: i64,
    g: &dyn Fn(i64) -> i64,
    b: &Budget,
) -> Result<Dist<i64>, OddsError> {
    let selects: Vec<Select> = set.select.iter().chain(&set.more_select).copied().collect();
    let supports: Vec<Vec<(i64, f64)>> = items
        .iter()
        .map(|d| d.iter().map(|(v, p)| (*v, p)).collect())
        .collect();
    let joint = supports
        .iter()
        .map(|s| s.len() as u64)
        .fold(1u64, u64::saturating_mul);
    let per = (supports.len() as u64 + 1)
        .saturating_mul(selects.len() as u64 + 1)
        .saturating_add(STATE_STEPS);
    refuse_past_budget(b, joint.saturating_mul(per))?;
    let test =
        move |t: super::Test, v: i64| t.compare.test(v, i64::from(t.target).saturating_mul(scale));
    let mut at = vec![0usize; supports.len()];
    let mut values = vec![0i64; supports.len()];
    let mut out = Weights::new();
    if supports.iter().any(Vec::is_empty) {
        return to_dist(out);
    }
    loop {
        let mut p = 1.0;
        for ((s, i), v) in supports.iter().zip(&at).zip(values.iter_mut()) {
            let (x, q) = s[*i];
            *v = x;
            p *= q;
        }
        b.spend(per);
        let kept = super::kept_by_rank_of(&values, &selects, &test);
        let score: i64 = values
            .iter()
            .zip(kept)
            .filter(|(_, k)| *k)
            .map(|(v, _)| g(*v))
            .sum();
        *out.entry(score).or_insert(0.0) += p;
        // The next joint outcome, the last item fastest.
        let mut j = supports.len();
        loop {
            if j == 0 {
                return to_dist(out);
            }
            j -= 1;
            at[j] += 1;
            if at[j] < supports[j].len() {
                break;
            }
            at[j] = 0;
        }
    }
}

pub(super) fn to_dist(w: Weights) -> Result<Dist<i64>, OddsError> {
    if w.len() > MAX_OUTCOMES {
        return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
    }
    Dist::from_weights(w)
}

pub(super) fn uniform(sides: Sides) -> Weights {
    let (lo, hi) = sides.range();
    let p = 1.0 / (hi - lo + 1) as f64;
    (lo..=hi).map(|v| (v, p)).collect()
}

/// `Σ_v w(v) · f(v)`: a mixture of distributions (one step per weight added).
pub(super) fn mix<'a>(
    b: &Budget,
    w: impl IntoIterator<Item = (&'a i64, &'a f64)>,
    f: impl Fn(i64) -> Weights,
) -> Weights {
    let mut out = Weights::new();
    for (v, p) in w {
        let fv = f(*v);
        b.spend((fv.len() as u64).saturating_mul(MAP_STEPS));
        for (x, q) in fv {
            *out.entry(x).or_insert(0.0) += p * q;
        }
    }
    out
}

/// The sum of two independent values (one step per pair).
pub(super) fn conv(budget: &Budget, a: &Weights, b: &Weights) -> Weights {
    budget.spend(
        (a.len() as u64)
            .saturating_mul(b.len() as u64)
            .saturating_mul(MAP_STEPS),
    );
    let mut out = Weights::new();
    for (x, p) in a {
        for (y, q) in b {
            *out.entry(x.saturating_add(*y)).or_insert(0.0) += p * q;
        }
    }
    out
}

pub(super) fn certain(v: i64) -> Weights {
    Weights::from([(v, 1.0)])
}

/// A die's value distribution after one pass of modifiers (a run of merged
/// `ro`s or `rr`s, or one `mi` or `ma`; not an explosion).
pub(super) fn apply(b: &Budget, w: &Weights, pass: &[Modifier], u: &Weights) -> Weights {
    let matches = |v: i64| super::pass_matches(pass, v);
    match pass.first() {
        Some(Modifier::RerollOnce(_)) => rerolled(b, w, &matches, u),
        Some(Modifier::Reroll(_)) => {
            // Rerolling until the face leaves the set ends on a face outside
            // it, each equally likely: the die conditioned on the faces kept
            // (issue 30, item 4). Exact, with no cap: rolling draws among the
            // kept faces at its last reroll, the same distribution.
            rerolled(b, w, &matches, &kept_faces(u, matches))
        }
        Some(Modifier::Min(x)) => mix(b, w, |v| certain(v.max(i64::from(*x)))),
        Some(Modifier::Max(x)) => mix(b, w, |v| certain(v.min(i64::from(*x)))),
        // Passes that change the pool, not one die: the callers (and
        // `super::pool`) work them out.
        Some(
            Modifier::Explode(_)
            | Modifier::RerollAdd(_)
            | Modifier::RerollAddRank { .. }
            | Modifier::RerollOnceRank { .. }
            | Modifier::ExplodeRank { .. }
            | Modifier::Select(_),
        )
        | None => w.clone(),
    }
}

/// The faces of `w` that do not match stay; the chance of those that do goes
/// to `then`, the distribution of the face they are rerolled to: linear in
/// the faces, not a product of them.
fn rerolled(b: &Budget, w: &Weights, matches: &dyn Fn(i64) -> bool, then: &Weights) -> Weights {
    let moved: f64 = w.iter().filter(|(v, _)| matches(**v)).map(|(_, p)| p).sum();
    let mut out: Weights = w
        .iter()
        .filter(|(v, _)| !matches(**v))
        .map(|(v, p)| (*v, *p))
        .collect();
    if moved > 0.0 {
        for (v, q) in then {
            *out.entry(*v).or_insert(0.0) += moved * q;
        }
    }
    b.spend(((w.len() + then.len()) as u64).saturating_mul(MAP_STEPS));
    out
}

/// The die `u` conditioned on the faces that do not match: uniform over them.
/// The parser refuses a reroll on every face, so some face is kept.
fn kept_faces(u: &Weights, matches: impl Fn(i64) -> bool) -> Weights {
    let kept: Vec<i64> = u.keys().copied().filter(|v| !matches(*v)).collect();
    let p = 1.0 / kept.len().max(1) as f64;
    kept.into_iter().map(|v| (v, p)).collect()
}

pub(super) fn apply_all(b: &Budget, mut w: Weights, mods: &[Modifier], u: &Weights) -> Weights {
    for pass in super::passes(mods) {
        w = apply(b, &w, pass, u);
    }
    w
}

fn p_where(w: &Weights, t: impl Fn(i64) -> bool) -> f64 {
    w.iter().filter(|(v, _)| t(**v)).map(|(_, p)| p).sum()
}

fn dice(term: &DiceTerm, trunc: &mut Truncation, b: &Budget) -> Result<Dist<i64>, OddsError> {
    // The weights of one die as a map, for the modifiers worked face by face.
    let u = if term.modifiers.is_empty() {
        Weights::new()
    } else {
        uniform(term.sides)
    };
    let success = term.success;
    let failure = term.failure;
    // A kept die's score: its value, or a success (1) less a failure (1;
    // Roll20's `f`, Foundry's `df`; issue 30, item 3).
    let score = move |v: i64| match success {
        Some(t) => i64::from(t.test(v)) - i64::from(failure.is_some_and(|f| f.test(v))),
        None => v,
    };
    // A single selection by value (`k<3`) keeps or drops each die on its own
    // value: a dropped die scores 0 (issue 30, item 2).
    let by_value = term.select.filter(|s| s.by_value().is_some());
    let g = move |v: i64| {
        if by_value.is_some_and(|s| !s.keeps_value(v)) {
            return 0;
        }
        score(v)
    };
    // Dice that depend on each other, or several keeps and drops on a pool
    // that grows: over pools (issue 30, item 2).
    if super::pool::needed(term) {
        return super::pool::group(term, &score, trunc, b);
    }
    if !term.more_select.is_empty() {
        // Several keeps and drops on independent dice (no explosion, no
        // `ra`: those are over pools), by rank or by value.
        let per_die = apply_all(
            b,
            uniform(term.sides),
            &term.modifiers,
            &uniform(term.sides),
        );
        b.check()?;
        let selects: Vec<Select> = term
            .select
            .iter()
            .chain(&term.more_select)
            .copied()
            .collect();
        return ranked(b, term.count, &per_die, &selects, &score);
    }
    if let Some(i) = term.modifiers.iter().position(Modifier::adds) {
        return reroll_add(term, i, &u, &g, b);
    }
    let explode_at = term
        .modifiers
        .iter()
        .position(|m| matches!(m, Modifier::Explode(_)));
    let Some(i) = explode_at else {
        let per_die = if term.modifiers.is_empty() {
            let (lo, hi) = term.sides.range();
            Dist::uniform_range(lo, hi)?
        } else {
            let w = apply_all(b, u.clone(), &term.modifiers, &u);
            b.check()?;
            to_dist(w)?
        };
        return finish(term, &per_die, &g, trunc);
    };
    // The run of merged explosions from `i` (`e5e6` explodes on 5 or 6).
    let run_len = term.modifiers[i..]
        .iter()
        .take_while(|m| matches!(m, Modifier::Explode(_)))
        .count();
    let run = &term.modifiers[i..i + run_len];
    let test = |v: i64| super::pass_matches(run, v);
    let pre = apply_all(b, u.clone(), &term.modifiers[..i], &u);
    b.check()?;
    let post = &term.modifiers[i + run_len..];
    let kind = term.explode;
    // How many extra dice a chain may have: one for Foundry's `xo`.
    let cap = if kind == ExplodeKind::Once {
        1
    } else {
        EXPLODE_DEPTH
    };
    // An extra die's value from its face: one less for Roll20's `!p`.
    let shift = if kind == ExplodeKind::Penetrate { 1 } else { 0 };
    if kind != ExplodeKind::Once {
        let p = p_where(&u, test);
        let reach = p_where(&pre, test) * p.powi(EXPLODE_DEPTH as i32);
        trunc.exact = false;
        trunc.ln_survive += f64::from(term.count) * (-reach).ln_1p();
    }
    // The final values of a die showing v at the explosion, after the
    // modifiers written after `e`: for an original die, and an extra one.
    let finals_of = |shift: i64| -> BTreeMap<i64, Weights> {
        u.keys()
            .map(|&v| (v, apply_all(b, certain(v - shift), post, &u)))
            .collect()
    };
    let finals = finals_of(0);
    let finals_extra = finals_of(shift);
    b.check()?;
    if kind == ExplodeKind::Compound {
        // Roll20's `!!`: each chain is one die whose value is its sum; keep,
        // drop and successes then work on those dice.
        let per_die = to_dist(chain(b, &u, &pre, &test, &finals, &finals_extra, cap)?)?;
        return finish(term, &per_die, &g, trunc);
    }
    if let Some(select) = term.select.filter(|s| s.by_value().is_none()) {
        let ex = Exploding {
            pre: &pre,
            u: &u,
            test: &test,
            finals: &finals,
            finals_extra: &finals_extra,
            cap,
        };
        return select_exploding(b, term.count, select, &ex, g);
    }
    // h(v): what one die showing v at the explosion contributes.
    let score = |m: &BTreeMap<i64, Weights>| -> BTreeMap<i64, Weights> {
        m.iter()
            .map(|(v, w)| (*v, mix(b, w, |x| certain(g(x)))))
            .collect()
    };
    let (h, h_extra) = (score(&finals), score(&finals_extra));
    b.check()?;
    let c = chain(b, &u, &pre, &test, &h, &h_extra, cap)?;
    to_dist(c)?.sum_of(term.count)
}

/// The contribution of one exploding die's chain: the original die (faces
/// `pre`) contributes `h[v]`, each extra die (faces `u`) `h_extra[v]`, and a
/// die explodes when its face passes `test`, at most `cap` extra dice deep.
/// Built from the deepest extra die up: S_cap, then S_k from S_(k+1).
fn chain(
    b: &Budget,
    u: &Weights,
    pre: &Weights,
    test: &dyn Fn(i64) -> bool,
    h: &BTreeMap<i64, Weights>,
    h_extra: &BTreeMap<i64, Weights>,
    cap: u32,
) -> Result<Weights, OddsError> {
    let of = |m: &BTreeMap<i64, Weights>, v: i64| m.get(&v).cloned().unwrap_or_default();
    // Each level's work, known before it runs: a pair per matching face's
    // contribution and the level below, then the mixture.
    let level = |s: &Weights, faces: &Weights, m: &BTreeMap<i64, Weights>| -> u64 {
        faces
            .keys()
            .map(|v| {
                let hv = m.get(v).map_or(0, |w| w.len() as u64);
                if test(*v) {
                    hv.saturating_mul(s.len() as u64)
                        .saturating_mul(2 * MAP_STEPS)
                } else {
                    hv.saturating_mul(MAP_STEPS)
                }
            })
            .fold(0u64, u64::saturating_add)
    };
    let mut s = mix(b, u, |v| of(h_extra, v));
    for _ in 1..cap {
        if s.len() > MAX_OUTCOMES {
            return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
        }
        b.check()?;
        refuse_past_budget(b, level(&s, u, h_extra))?;
        s = mix(b, u, |v| {
            if test(v) {
                conv(b, &of(h_extra, v), &s)
            } else {
                of(h_extra, v)
            }
        });
    }
    if s.len() > MAX_OUTCOMES {
        return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
    }
    refuse_past_budget(b, level(&s, pre, h))?;
    let top = mix(b, pre, |v| {
        if test(v) {
            conv(b, &of(h, v), &s)
        } else {
            of(h, v)
        }
    });
    b.check()?;
    Ok(top)
}

/// The total of a group whose dice are independent with values `per_die`:
/// summed, counted or kept and dropped, each scored by `g`.
fn finish(
    term: &DiceTerm,
    per_die: &Dist<i64>,
    g: &dyn Fn(i64) -> i64,
    trunc: &mut Truncation,
) -> Result<Dist<i64>, OddsError> {
    let count = term.count;
    let by_value = term.select.is_some_and(|s| s.by_value().is_some());
    // How many dice are summed.
    let summed = match term.select {
        Some(Select::KeepHighest(k) | Select::KeepLowest(k)) if !by_value => k.min(count),
        Some(Select::DropHighest(k) | Select::DropLowest(k)) if !by_value => {
            count.saturating_sub(k)
        }
        _ => count,
    };
    let scores: Vec<i64> = per_die.iter().map(|(v, _)| g(*v)).collect();
    let r = match term.select {
        None => match (term.success, term.failure) {
            (None, _) => per_die.sum_of(count),
            (Some(t), None) => per_die.count_successes(count, |v| t.test(v)),
            (Some(_), Some(_)) => per_die.map(|v| g(*v)).sum_of(count),
        },
        Some(_) if by_value => per_die.map(|v| g(*v)).sum_of(count),
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
    }?;
    note_underflow(&scores, summed, &r, trunc);
    Ok(r)
}

/// Issue 30, item 4: a sum of `summed` dice whose scores fill a range of
/// integers `a..=b` reaches every total from `summed * a` to `summed * b`
/// (every multiset of kept values can be the one kept). A total missing from
/// `r` is one whose chance underflowed to 0 (`1000d6` below 1597 and above
/// 5403): the odds are then not exact, and the lost mass is at most the
/// smallest normal `f64` per missing total.
fn note_underflow(scores: &[i64], summed: u32, r: &Dist<i64>, t: &mut Truncation) {
    let (Some(&a), Some(&b)) = (scores.iter().min(), scores.iter().max()) else {
        return;
    };
    let distinct: std::collections::BTreeSet<i64> = scores.iter().copied().collect();
    let contiguous = i128::from(b) - i128::from(a) + 1 == distinct.len() as i128;
    if !contiguous {
        return;
    }
    let expected = (i128::from(b) - i128::from(a)) * i128::from(summed) + 1;
    let missing = expected - r.len() as i128;
    if missing > 0 {
        t.exact = false;
        t.underflow += missing as f64 * f64::MIN_POSITIVE;
    }
}

/// Refuse, before it starts, a step of `steps` that would spend the budget,
/// with what the whole would take so far.
pub(super) fn refuse_past_budget(b: &Budget, steps: u64) -> Result<(), OddsError> {
    let total = b.used.get().saturating_add(steps);
    if total > MAX_NOTATION_WORK {
        return Err(OddsError::TooMuchWork {
            steps: total,
            max: MAX_NOTATION_WORK,
        });
    }
    Ok(())
}

/// The (face, final value) pairs one state meets when a die of `faces` is
/// added.
fn faces_pairs(faces: &Weights, finals: &BTreeMap<i64, Weights>) -> u64 {
    faces
        .keys()
        .map(|w| finals.get(w).map_or(0, |f| f.len() as u64))
        .sum()
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
/// One exploding die: the faces of the original (`pre`) and of an extra die
/// (`u`), the test that explodes, the final values of an original and of an
/// extra die by face, and how many extra dice deep a chain may go.
struct Exploding<'a> {
    pre: &'a Weights,
    u: &'a Weights,
    test: &'a dyn Fn(i64) -> bool,
    finals: &'a BTreeMap<i64, Weights>,
    finals_extra: &'a BTreeMap<i64, Weights>,
    cap: u32,
}

fn select_exploding(
    b: &Budget,
    count: u32,
    select: Select,
    ex: &Exploding<'_>,
    g: impl Fn(i64) -> i64,
) -> Result<Dist<i64>, OddsError> {
    let Exploding {
        pre,
        u,
        test,
        finals,
        finals_extra,
        cap,
    } = *ex;
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
    // Steps per state: every (face, final value) pair copies the state's
    // values and inserts the copy (issue 30, item 5: the copies are counted).
    let pairs: u64 = faces_pairs(pre, finals).max(faces_pairs(u, finals_extra));
    let state_values = |n: usize| (n as u64).saturating_mul(k as u64 + 2);
    let step = |states: &BTreeMap<Held, f64>,
                faces: &Weights,
                finals: &BTreeMap<i64, Weights>,
                may_explode: bool,
                done: &mut BTreeMap<Held, f64>|
     -> Result<BTreeMap<Held, f64>, OddsError> {
        let mut active: BTreeMap<Held, f64> = BTreeMap::new();
        for (state, ps) in states {
            // Known before the state is worked: refuse rather than start it.
            let per_pair = state.0.len() as u64 + 1 + STATE_STEPS;
            refuse_past_budget(b, pairs.saturating_mul(per_pair))?;
            for (w, pw) in faces {
                let target = if may_explode && test(*w) {
                    &mut active
                } else {
                    &mut *done
                };
                for (f, pf) in finals.get(w).into_iter().flatten() {
                    b.spend(per_pair);
                    *target.entry(insert(state, *f)).or_insert(0.0) += ps * pw * pf;
                }
            }
            // Memory: every state held now, each up to k + 2 values.
            let held = state_values(states.len() + active.len() + done.len());
            if held > MAX_STATE_VALUES {
                return Err(OddsError::TooManyStates {
                    values: held,
                    max: MAX_STATE_VALUES,
                });
            }
            if active.len() > MAX_OUTCOMES || done.len() > MAX_OUTCOMES {
                return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
            }
        }
        b.check()?;
        Ok(active)
    };
    let mut states: BTreeMap<Held, f64> = BTreeMap::from([((Vec::new(), 0), 1.0)]);
    for _ in 0..count {
        let mut done = BTreeMap::new();
        let mut active = step(&states, pre, finals, cap > 0, &mut done)?;
        for depth in 1..=cap {
            if active.is_empty() {
                break;
            }
            active = step(&active, u, finals_extra, depth < cap, &mut done)?;
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

/// `d20`'s `ra` (issue 30, item 2): the first die whose face matches the run
/// of `ra` from `at` adds one more die to the group. Exact: the dice are
/// taken one by one with a flag saying whether one has matched yet, and the
/// extra die is added to the totals where one has. Each die's final value
/// comes from its face at the `ra` through the modifiers written after it;
/// the extra die's from a fresh face through the same. `ra` with `e` in
/// one group goes over pools instead (`super::pool`); the parser refuses a
/// second run of `ra`.
fn reroll_add(
    term: &DiceTerm,
    at: usize,
    u: &Weights,
    g: &dyn Fn(i64) -> i64,
    b: &Budget,
) -> Result<Dist<i64>, OddsError> {
    let run_len = term.modifiers[at..].iter().take_while(|m| m.adds()).count();
    let run = &term.modifiers[at..at + run_len];
    let post = &term.modifiers[at + run_len..];
    let test = |v: i64| super::pass_matches(run, v);
    let pre = apply_all(b, u.clone(), &term.modifiers[..at], u);
    // Final values by face at the `ra`, and the extra die's.
    let finals: BTreeMap<i64, Weights> = pre
        .keys()
        .map(|&v| (v, apply_all(b, certain(v), post, u)))
        .collect();
    let extra = apply_all(b, u.clone(), post, u);
    b.check()?;
    let by_rank = term.select.filter(|s| s.by_value().is_none());
    let Some(select) = by_rank else {
        // Sums of scores: (no die matched yet, one has).
        let score = |w: &Weights| mix(b, w, |x| certain(g(x)));
        let mut hit = Weights::new();
        let mut miss = Weights::new();
        for (v, p) in &pre {
            let target = if test(*v) { &mut hit } else { &mut miss };
            for (x, q) in score(&finals[v]) {
                *target.entry(x).or_insert(0.0) += p * q;
            }
        }
        let both: Weights = {
            let mut w = hit.clone();
            for (x, q) in &miss {
                *w.entry(*x).or_insert(0.0) += q;
            }
            w
        };
        let mut none = certain(0);
        let mut some = Weights::new();
        for _ in 0..term.count {
            refuse_past_budget(
                b,
                ((none.len() + some.len()) as u64)
                    .saturating_mul(both.len() as u64)
                    .saturating_mul(2 * MAP_STEPS),
            )?;
            let mut next_some = conv(b, &some, &both);
            for (x, q) in conv(b, &none, &hit) {
                *next_some.entry(x).or_insert(0.0) += q;
            }
            none = conv(b, &none, &miss);
            some = next_some;
            if some.len() > MAX_OUTCOMES || none.len() > MAX_OUTCOMES {
                return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
            }
        }
        let mut out = conv(b, &some, &score(&extra));
        for (x, q) in none {
            *out.entry(x).or_insert(0.0) += q;
        }
        b.check()?;
        return to_dist(out);
    };
    // Keep or drop by rank: the states of a keep or drop over the pool
    // (as after an explosion), with the flag.
    let (k, highest, keep) = match select {
        Select::KeepHighest(k) => (k as usize, true, true),
        Select::KeepLowest(k) => (k as usize, false, true),
        Select::DropHighest(k) => (k as usize, true, false),
        Select::DropLowest(k) => (k as usize, false, false),
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
    let pairs = faces_pairs(&pre, &finals);
    let mut states: BTreeMap<(Held, bool), f64> = BTreeMap::from([(((Vec::new(), 0), false), 1.0)]);
    let step = |states: &BTreeMap<(Held, bool), f64>,
                faces: &Weights,
                finals: &dyn Fn(i64) -> Option<Weights>,
                pairs: u64,
                flag: bool|
     -> Result<BTreeMap<(Held, bool), f64>, OddsError> {
        let mut next: BTreeMap<(Held, bool), f64> = BTreeMap::new();
        for ((state, matched), ps) in states {
            let per_pair = state.0.len() as u64 + 1 + STATE_STEPS;
            refuse_past_budget(b, pairs.saturating_mul(per_pair))?;
            for (w, pw) in faces {
                let Some(fin) = finals(*w) else { continue };
                for (f, pf) in &fin {
                    b.spend(per_pair);
                    let m = *matched || (flag && test(*w));
                    *next.entry((insert(state, *f), m)).or_insert(0.0) += ps * pw * pf;
                }
            }
            let held = (states.len() + next.len()) as u64 * (k as u64 + 2);
            if held > MAX_STATE_VALUES {
                return Err(OddsError::TooManyStates {
                    values: held,
                    max: MAX_STATE_VALUES,
                });
            }
            if next.len() > MAX_OUTCOMES {
                return Err(OddsError::TooLarge { max: MAX_OUTCOMES });
            }
        }
        b.check()?;
        Ok(next)
    };
    let of_face = |w: i64| finals.get(&w).cloned();
    for _ in 0..term.count {
        states = step(&states, &pre, &of_face, pairs, true)?;
    }
    // The extra die where one matched.
    let (hit, mut done): (BTreeMap<_, _>, BTreeMap<_, _>) =
        states.into_iter().partition(|((_, m), _)| *m);
    let extra_face = |_: i64| Some(extra.clone());
    let one = certain(0);
    let added = step(&hit, &one, &extra_face, extra.len() as u64, false)?;
    done.extend(added);
    let mut out = Weights::new();
    for (((held, acc), _), p) in done {
        let score = if keep {
            held.iter().map(|v| g(*v)).sum()
        } else {
            acc
        };
        *out.entry(score).or_insert(0.0) += p;
    }
    to_dist(out)
}

/// The total of `n` independent dice with values `per_die` after several
/// keeps and drops by rank (issue 30, item 2), each kept die scored by `g`.
/// Exact: every multiset of faces (how many dice show each face) with its
/// multinomial chance, and what `d20` keeps of it ([`super::kept_counts`]:
/// ties decide how many a union keeps, so ranks alone do not suffice). The
/// number of multisets is known before any work and refused past the budget.
fn ranked(
    b: &Budget,
    n: u32,
    per_die: &Weights,
    selects: &[super::Select],
    g: &dyn Fn(i64) -> i64,
) -> Result<Dist<i64>, OddsError> {
    let faces: Vec<(i64, f64)> = per_die.iter().map(|(v, p)| (*v, *p)).collect();
    let f = faces.len();
    if f == 0 {
        return Err(OddsError::Empty);
    }
    // Multisets: C(n + f - 1, f - 1), saturating.
    let mut multisets: u128 = 1;
    for i in 1..f as u128 {
        multisets = multisets.saturating_mul(u128::from(n) + i) / i;
        if multisets > u128::from(MAX_NOTATION_WORK) {
            break;
        }
    }
    let per_multiset = (f as u64).saturating_mul(2 + selects.len() as u64);
    refuse_past_budget(
        b,
        u64::try_from(multisets)
            .unwrap_or(u64::MAX)
            .saturating_mul(per_multiset),
    )?;
    let n_us = n as usize;
    let mut ln_fact = vec![0.0f64; n_us + 1];
    for i in 1..=n_us {
        ln_fact[i] = ln_fact[i - 1] + (i as f64).ln();
    }
    let ln_p: Vec<f64> = faces.iter().map(|(_, p)| p.ln()).collect();
    let values: Vec<i64> = faces.iter().map(|(v, _)| *v).collect();
    let mut out = Weights::new();
    // Every composition of n into f parts (Nijenhuis and Wilf's NEXCOM).
    let mut c = vec![0u32; f];
    c[0] = n;
    let (mut t, mut h) = (n, 0usize);
    loop {
        b.spend(per_multiset);
        let mut ln_w = ln_fact[n_us];
        for (j, &cj) in c.iter().enumerate() {
            if cj > 0 {
                ln_w += f64::from(cj) * ln_p[j] - ln_fact[cj as usize];
            }
        }
        let kept = super::kept_counts(&c, &values, selects);
        let total: i64 = kept
            .iter()
            .zip(&faces)
            .map(|(k, (v, _))| i64::from(*k) * g(*v))
            .sum();
        *out.entry(total).or_insert(0.0) += ln_w.exp();
        if c[f - 1] == n {
            break;
        }
        if t > 1 {
            h = 0;
        }
        h += 1;
        t = c[h - 1];
        c[h - 1] = 0;
        c[0] = t - 1;
        c[h] += 1;
    }
    b.check()?;
    to_dist(out)
}
