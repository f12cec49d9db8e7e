//! Exact odds of a dice group whose dice stop being independent of each
//! other (issue 30, item 2): `d20`'s `ro` and `e` with selectors by rank
//! (`4d6rol1`, `2d6eh1`), `ra` together with `e` (`2d6ra6e6`), and several
//! keeps and drops on a group that explodes or adds dice (`4d6e6kh3pl1`).
//!
//! The distribution is carried over *pools*: how many dice show each face
//! (a multiset of faces, in the order of the faces). Which die of a face is
//! which never changes a total: `d20` takes the earlier of equal dice first
//! both for the highest and the lowest, so every selector takes a prefix of
//! each face's dice ([`super::picked_counts`]), and the dice of one face go
//! on alike. So each pass maps pools to pools exactly:
//!
//! - a pass on each die alone (`ro` and `rr` by test, `mi`, `ma`) sends the
//!   dice of each face through that face's distribution (a multinomial);
//! - `ro` with a rank takes the selected dice out and puts as many fresh
//!   dice in (a multinomial of the die);
//! - `ra` adds one fresh die when its run selects any die;
//! - `e` by test adds, for each matching die, the dice of its chain of
//!   explosions ([`MAX_EXPLOSIONS`] deep, as rolling goes);
//! - `e` with a rank runs `d20`'s rounds on pools that also count, face by
//!   face, the dice that have exploded (again a prefix of the face's dice,
//!   since new dice come last).
//!
//! Then the keeps and drops of [`super::kept_counts`] and the score of each
//! kept die. The pools before the first pass that needs them are every
//! multiset of the group's dice with its multinomial chance. With no keep
//! or drop (or one by value), the last passes that act on each die alone or
//! explode by tests are not carried over pools: each die of a pool adds,
//! independently, what one die of its face comes to through them
//! ([`summed`]). Every pass counts its steps against the budget before it
//! makes them ([`MAX_NOTATION_WORK`](super::MAX_NOTATION_WORK)): each pool
//! made and inserted costs [`POOL_STEPS`] plus two steps per face, and the
//! pools held at once are capped at [`MAX_STATE_VALUES`] values.

use std::collections::BTreeMap;

use super::odds::{
    Budget, Truncation, Weights, apply, apply_all, certain, conv, mix, refuse_past_budget, to_dist,
    uniform,
};
use super::{
    DiceTerm, MAP_STEPS, MAX_EXPLOSIONS, MAX_STATE_VALUES, Modifier, Pick, Select, kept_counts,
    passes, picked_counts,
};
use crate::odds::{Dist, OddsError};

/// How many dice show each face, lowest face first.
type Counts = Vec<u32>;

/// A distribution over pools.
type Pools = BTreeMap<Counts, f64>;

/// The steps of one pool made and inserted into a map, besides two per
/// face it counts. Measured on `4d6ra6e6` and `4d20roh1` with release
/// builds: 100 to 240 ns a pool, of six to forty counts, where a step is
/// about five nanoseconds (see [`MAX_NOTATION_WORK`](super::MAX_NOTATION_WORK)).
const POOL_STEPS: u64 = 32;

/// Whether the group's odds need pools: its dice depend on each other
/// (`ro` or `e` by rank, `ra` with `e`), or it keeps and drops several times
/// among a pool that grows (`e`, `ra`).
pub(super) fn needed(term: &DiceTerm) -> bool {
    let mods = &term.modifiers;
    let by_rank = mods.iter().any(|m| {
        matches!(
            m,
            Modifier::RerollOnceRank { .. } | Modifier::ExplodeRank { .. }
        )
    });
    let adds = mods.iter().any(Modifier::adds);
    let explodes = mods.iter().any(Modifier::explodes);
    let several = !term.more_select.is_empty();
    // d20's order of operations (issue 30, item 2): a keep or drop before
    // more modifiers (`4d6kh3ro1`), or a second run of `e` or `ra` after
    // another modifier (`1d6e6ro1e5`, `2d6ra6ro1ra5`).
    let stepped = mods.iter().any(|m| m.select().is_some());
    let runs = |f: fn(&Modifier) -> bool| passes(mods).filter(|p| p.first().is_some_and(f)).count();
    let again = runs(Modifier::explodes) > 1 || runs(Modifier::adds) > 1;
    by_rank || (adds && explodes) || (several && (adds || explodes)) || stepped || again
}

/// What the pools are worked out with: the faces, one fresh die, the budget.
struct Ctx<'a> {
    values: Vec<i64>,
    /// A fresh die: each face index with its chance.
    fresh: Vec<(usize, f64)>,
    b: &'a Budget,
    /// Pools of `n` fresh dice, by `n`.
    fresh_pools: BTreeMap<u32, Vec<(Counts, f64)>>,
}

impl Ctx<'_> {
    fn faces(&self) -> usize {
        self.values.len()
    }

    /// The steps of one pool made and inserted.
    fn per_pool(&self) -> u64 {
        POOL_STEPS + 2 * self.faces() as u64
    }

    /// Refuse, before it starts, work that makes `pools` more pools.
    fn refuse(&self, pools: u64) -> Result<(), OddsError> {
        refuse_past_budget(self.b, pools.saturating_mul(self.per_pool()))
    }

    /// Count the work of `pools` pools made.
    fn spend(&self, pools: u64) {
        self.b.spend(pools.saturating_mul(self.per_pool()));
    }

    /// Refuse pools that hold too many values at once.
    fn hold(&self, pools: usize, width: usize) -> Result<(), OddsError> {
        let values = (pools as u64).saturating_mul(width as u64);
        if values > MAX_STATE_VALUES {
            return Err(OddsError::TooManyStates {
                values,
                max: MAX_STATE_VALUES,
            });
        }
        Ok(())
    }

    /// Every pool of `n` dice whose faces have the chances `weights` (face
    /// index, chance), each with its multinomial chance. The number of them
    /// is known before any is made, and refused past the budget.
    fn multinomial(
        &self,
        n: u32,
        weights: &[(usize, f64)],
    ) -> Result<Vec<(Counts, f64)>, OddsError> {
        let m = weights.len();
        if m == 0 {
            return Ok(if n == 0 {
                vec![(vec![0; self.faces()], 1.0)]
            } else {
                Vec::new()
            });
        }
        // C(n + m - 1, m - 1), saturating.
        let mut count: u128 = 1;
        for i in 1..m as u128 {
            count = count.saturating_mul(u128::from(n) + i) / i;
            if count > u128::from(u64::MAX) {
                break;
            }
        }
        let count = u64::try_from(count).unwrap_or(u64::MAX);
        self.refuse(count)?;
        self.hold(usize::try_from(count).unwrap_or(usize::MAX), self.faces())?;
        self.spend(count);
        let n_us = n as usize;
        let mut ln_fact = vec![0.0f64; n_us + 1];
        for i in 1..=n_us {
            ln_fact[i] = ln_fact[i - 1] + (i as f64).ln();
        }
        let ln_p: Vec<f64> = weights.iter().map(|(_, p)| p.ln()).collect();
        let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        // Every composition of n into m parts (Nijenhuis and Wilf's NEXCOM).
        let mut c = vec![0u32; m];
        c[0] = n;
        let (mut t, mut h) = (n, 0usize);
        loop {
            let mut ln_w = ln_fact[n_us];
            let mut counts = vec![0u32; self.faces()];
            for (j, &cj) in c.iter().enumerate() {
                if cj > 0 {
                    ln_w += f64::from(cj) * ln_p[j] - ln_fact[cj as usize];
                    counts[weights[j].0] += cj;
                }
            }
            out.push((counts, ln_w.exp()));
            if c[m - 1] == n {
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
        Ok(out)
    }

    /// Pools of `n` fresh dice, made once and kept ([`Ctx::fresh_of`]);
    /// the steps of adding them to one pool are counted here.
    fn fresh(&mut self, n: u32) -> Result<(), OddsError> {
        if !self.fresh_pools.contains_key(&n) {
            let fresh = self.fresh.clone();
            let pools = self.multinomial(n, &fresh)?;
            self.fresh_pools.insert(n, pools);
        }
        let made = self.fresh_of(n).len() as u64;
        self.refuse(made)?;
        self.spend(made);
        Ok(())
    }

    /// Pools of `n` fresh dice, once [`Ctx::fresh`] has made them.
    fn fresh_of(&self, n: u32) -> &[(Counts, f64)] {
        self.fresh_pools
            .get(&n)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The face index of `v`.
    fn index(&self, v: i64) -> usize {
        let lowest = self.values.first().copied().unwrap_or(v);
        usize::try_from(v - lowest).unwrap_or(0)
    }
}

/// `a + b`, face by face.
fn plus(a: &[u32], b: &[u32]) -> Counts {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// The group's total: its pools through every pass, then the keeps and
/// drops, each kept die scored by `score` (its value, or a success).
pub(super) fn group(
    term: &DiceTerm,
    score: &dyn Fn(i64) -> i64,
    t: &mut Truncation,
    b: &Budget,
) -> Result<Dist<i64>, OddsError> {
    let u = uniform(term.sides);
    let mut ctx = Ctx {
        values: term.sides.faces().collect(),
        fresh: Vec::new(),
        b,
        fresh_pools: BTreeMap::new(),
    };
    ctx.fresh = u.iter().map(|(v, p)| (ctx.index(*v), *p)).collect();
    let all: Vec<&[Modifier]> = passes(&term.modifiers).collect();
    // The passes on each die alone before the first that is not: one die's
    // distribution.
    let lead = all.iter().take_while(|p| alone(p)).count();
    let mut w = u.clone();
    for pass in all.get(..lead).unwrap_or_default() {
        w = apply(b, &w, pass, &u);
    }
    b.check()?;
    let start: Vec<(usize, f64)> = w
        .iter()
        .filter(|(_, p)| **p > 0.0)
        .map(|(v, p)| (ctx.index(*v), *p))
        .collect();
    let mut pools: Pools = BTreeMap::new();
    for (c, p) in ctx.multinomial(term.count, &start)? {
        *pools.entry(c).or_insert(0.0) += p;
    }
    let selects: Vec<Select> = term
        .select
        .iter()
        .chain(&term.more_select)
        .copied()
        .collect();
    // With no keep or drop but by value, the passes at the end that act on
    // each die alone (or explode by tests, a chain per die) are summed die by
    // die, not over pools.
    // `Some(None)`: no keep or drop; `Some(Some(s))`: one by value.
    let by_value: Option<Option<Select>> = match selects.as_slice() {
        [] => Some(None),
        [s] if s.by_value().is_some() => Some(Some(*s)),
        _ => None,
    };
    // At most one explosion among them (a chain per die); the passes
    // before a second are over pools.
    let mut explosions = 0;
    let tail = match by_value {
        Some(_) => all
            .get(lead..)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|p| {
                if explodes_by_test(p) {
                    explosions += 1;
                    explosions == 1
                } else {
                    alone(p)
                }
            })
            .count(),
        None => 0,
    };
    let head_end = all.len() - tail;
    for pass in all.get(lead..head_end).unwrap_or_default() {
        pools = step(&mut ctx, pools, pass, &u, t)?;
        ctx.hold(pools.len(), ctx.faces())?;
        b.check()?;
    }
    if tail > 0 {
        let select = by_value.flatten();
        let kept = move |v: i64| select.is_none_or(|s| s.keeps_value(v));
        let scored = |v: i64| if kept(v) { score(v) } else { 0 };
        return summed(
            &ctx,
            pools,
            all.get(head_end..).unwrap_or_default(),
            &u,
            &scored,
            t,
        );
    }
    // Keeps and drops, then the score of each kept die.
    ctx.refuse(pools.len() as u64)?;
    ctx.spend(pools.len() as u64);
    let mut out = Weights::new();
    for (c, p) in pools {
        let kept = if selects.is_empty() {
            c
        } else {
            kept_counts(&c, &ctx.values, &selects)
        };
        let total: i64 = kept
            .iter()
            .zip(&ctx.values)
            .map(|(k, v)| i64::from(*k) * score(*v))
            .sum();
        *out.entry(total).or_insert(0.0) += p;
    }
    to_dist(out)
}

/// Whether a pass explodes by tests alone (`e6`, `e5e6`): a chain per die.
fn explodes_by_test(pass: &[Modifier]) -> bool {
    pass.iter().all(|m| matches!(m, Modifier::Explode(_)))
}

/// The total of pools whose last passes (`tail`) act on each die alone or
/// explode by tests: each die of face j adds, independently, what one die
/// of that face comes to through the tail (its chain of explosions
/// included, [`MAX_EXPLOSIONS`] deep), scored by `score`. Each pool's
/// total is the sum of those, face by face; pools in order share their
/// first faces, so the partial sums of a pool are kept for the next.
fn summed(
    ctx: &Ctx<'_>,
    pools: Pools,
    tail: &[&[Modifier]],
    u: &Weights,
    score: &dyn Fn(i64) -> i64,
    t: &mut Truncation,
) -> Result<Dist<i64>, OddsError> {
    let b = ctx.b;
    let at = tail.iter().position(|p| explodes_by_test(p));
    let (before, explosion, after) = match at {
        Some(i) => (
            tail.get(..i).unwrap_or_default(),
            tail.get(i).copied(),
            tail.get(i + 1..).unwrap_or_default(),
        ),
        None => (tail, None, &[][..]),
    };
    let apply_passes =
        |w: Weights, passes: &[&[Modifier]]| passes.iter().fold(w, |w, p| apply_all(b, w, p, u));
    // What a die showing v at the explosion (or at the end) scores after
    // the passes written after it.
    let after_of: BTreeMap<i64, Weights> = ctx
        .values
        .iter()
        .map(|&v| {
            (
                v,
                mix(b, &apply_passes(certain(v), after), |x| certain(score(x))),
            )
        })
        .collect();
    b.check()?;
    let of = |v: i64| after_of.get(&v).cloned().unwrap_or_default();
    // The chain below a die that explodes: fresh dice, each exploding while
    // it matches and is less than [`MAX_EXPLOSIONS`] deep.
    let matches = |v: i64| explosion.is_some_and(|p| super::pass_matches(p, v));
    let mut below = Weights::new();
    let mut reach = 0.0;
    if explosion.is_some() {
        below = mix(b, u, of);
        for _ in 1..MAX_EXPLOSIONS {
            let work = u
                .keys()
                .map(|v| {
                    let n = after_of.get(v).map_or(0, |w| w.len() as u64);
                    n.saturating_mul(below.len() as u64 + 1)
                        .saturating_mul(2 * MAP_STEPS)
                })
                .fold(0u64, u64::saturating_add);
            refuse_past_budget(b, work)?;
            below = mix(b, u, |v| {
                if matches(v) {
                    conv(b, &of(v), &below)
                } else {
                    of(v)
                }
            });
            b.check()?;
        }
        let p: f64 = u.iter().filter(|(v, _)| matches(**v)).map(|(_, p)| p).sum();
        reach = p.powi(MAX_EXPLOSIONS as i32);
    }
    // What one die of each face comes to, and the chance its chain was cut.
    let mut per_face: Vec<Weights> = Vec::with_capacity(ctx.faces());
    let mut cut: Vec<f64> = Vec::with_capacity(ctx.faces());
    for &v in &ctx.values {
        let pre = apply_passes(certain(v), before);
        refuse_past_budget(
            b,
            (pre.len() as u64)
                .saturating_mul(below.len() as u64 + 1)
                .saturating_mul(8 * MAP_STEPS),
        )?;
        per_face.push(mix(b, &pre, |x| {
            if matches(x) {
                conv(b, &of(x), &below)
            } else {
                of(x)
            }
        }));
        let hit: f64 = pre
            .iter()
            .filter(|(x, _)| matches(**x))
            .map(|(_, p)| p)
            .sum();
        cut.push(hit * reach);
        b.check()?;
    }
    // Each pool: the sum over its faces of that many dice of the face.
    let faces = ctx.faces();
    let mut powers: BTreeMap<(usize, u32), Weights> = BTreeMap::new();
    let mut partial: Vec<Weights> = vec![certain(0); faces + 1];
    let mut last: Option<Counts> = None;
    let mut out = Weights::new();
    let mut truncated = 0.0;
    for (c, p) in pools {
        let same = last
            .as_ref()
            .map_or(0, |l| l.iter().zip(&c).take_while(|(a, b)| a == b).count());
        for j in same..faces {
            let n = c[j];
            if n > 0 && !powers.contains_key(&(j, n)) {
                let mut w = certain(0);
                for _ in 0..n {
                    refuse_past_budget(
                        b,
                        (w.len() as u64)
                            .saturating_mul(per_face[j].len() as u64)
                            .saturating_mul(MAP_STEPS),
                    )?;
                    w = conv(b, &w, &per_face[j]);
                }
                powers.insert((j, n), w);
            }
            let next = match powers.get(&(j, n)) {
                Some(w) if n > 0 => {
                    refuse_past_budget(
                        b,
                        (partial[j].len() as u64)
                            .saturating_mul(w.len() as u64)
                            .saturating_mul(MAP_STEPS),
                    )?;
                    conv(b, &partial[j], w)
                }
                _ => partial[j].clone(),
            };
            partial[j + 1] = next;
        }
        for (x, q) in &partial[faces] {
            *out.entry(*x).or_insert(0.0) += p * q;
        }
        b.spend((partial[faces].len() as u64).saturating_mul(MAP_STEPS));
        let survive: f64 = c
            .iter()
            .zip(&cut)
            .map(|(n, q)| f64::from(*n) * (-q).ln_1p())
            .sum();
        truncated += p * -survive.exp_m1();
        last = Some(c);
        b.check()?;
    }
    if explosion.is_some() {
        t.exact = false;
        t.ln_survive += (-truncated).ln_1p();
    }
    to_dist(out)
}

/// Whether a pass acts on each die alone: `ro` and `rr` by test, `mi`, `ma`.
fn alone(pass: &[Modifier]) -> bool {
    pass.iter().all(|m| {
        matches!(
            m,
            Modifier::RerollOnce(_) | Modifier::Reroll(_) | Modifier::Min(_) | Modifier::Max(_)
        )
    })
}

/// The pools after one pass.
fn step(
    ctx: &mut Ctx<'_>,
    pools: Pools,
    pass: &[Modifier],
    u: &Weights,
    t: &mut Truncation,
) -> Result<Pools, OddsError> {
    let first = pass.first();
    if first.is_some_and(|m| m.select().is_some()) {
        // A keep or drop before more modifiers (`4d6kh3ro1`; issue 30, item
        // 2): the dice it drops take no part in anything after it, as in
        // d20 (every later operator selects among the kept dice), so the
        // pool goes on with the kept dice alone.
        let run: Vec<Select> = pass.iter().filter_map(Modifier::select).collect();
        ctx.refuse(pools.len() as u64)?;
        ctx.spend(pools.len() as u64);
        let mut next = Pools::new();
        for (c, p) in pools {
            *next
                .entry(kept_counts(&c, &ctx.values, &run))
                .or_insert(0.0) += p;
        }
        return Ok(next);
    }
    let picks: Vec<Pick> = pass.iter().filter_map(Modifier::pick).collect();
    if alone(pass) {
        return each_die(ctx, pools, pass, u);
    }
    if first.is_some_and(Modifier::rerolls_once) {
        // `ro` with a rank: the selected dice out, as many fresh dice in.
        let mut next = Pools::new();
        for (c, p) in pools {
            let sel: Vec<u32> = picked_counts(&c, &ctx.values, &picks).collect();
            let n: u32 = sel.iter().sum();
            let rest: Counts = c.iter().zip(&sel).map(|(x, s)| x - s).collect();
            ctx.fresh(n)?;
            for (a, q) in ctx.fresh_of(n) {
                *next.entry(plus(&rest, a)).or_insert(0.0) += p * q;
            }
        }
        return Ok(next);
    }
    if first.is_some_and(Modifier::adds) {
        // `ra`: one fresh die when the run selects any die (d20's
        // `max_targets=1`).
        let mut next = Pools::new();
        for (c, p) in pools {
            if picked_counts(&c, &ctx.values, &picks).any(|s| s > 0) {
                ctx.fresh(1)?;
                for (a, q) in ctx.fresh_of(1) {
                    *next.entry(plus(&c, a)).or_insert(0.0) += p * q;
                }
            } else {
                *next.entry(c).or_insert(0.0) += p;
            }
        }
        return Ok(next);
    }
    if picks.iter().all(|p| matches!(p, Pick::Face(_))) {
        return explode_by_test(ctx, pools, pass, t);
    }
    explode_by_rank(ctx, pools, &picks, t)
}

/// A pass on each die alone: the dice of each face through that face's
/// distribution after the pass.
fn each_die(
    ctx: &mut Ctx<'_>,
    pools: Pools,
    pass: &[Modifier],
    u: &Weights,
) -> Result<Pools, OddsError> {
    // Each face's distribution after the pass, or `None` when it stays: a
    // reroll of each face may reach every face (known before it starts).
    let faces = ctx.faces() as u64;
    refuse_past_budget(
        ctx.b,
        faces
            .saturating_mul(faces.saturating_add(1))
            .saturating_mul(super::MAP_STEPS),
    )?;
    let through: Vec<Option<Vec<(usize, f64)>>> = ctx
        .values
        .iter()
        .map(|&v| {
            let w = apply(ctx.b, &certain(v), pass, u);
            if w.len() == 1 && w.contains_key(&v) {
                None
            } else {
                Some(
                    w.iter()
                        .filter(|(_, p)| **p > 0.0)
                        .map(|(x, p)| (ctx.index(*x), *p))
                        .collect(),
                )
            }
        })
        .collect();
    ctx.b.check()?;
    let mut cache: BTreeMap<(usize, u32), Vec<(Counts, f64)>> = BTreeMap::new();
    let mut next = Pools::new();
    for (c, p) in pools {
        let mut partial: Vec<(Counts, f64)> = vec![(
            c.iter()
                .zip(&through)
                .map(|(x, t)| if t.is_some() { 0 } else { *x })
                .collect(),
            p,
        )];
        for (j, t) in through.iter().enumerate() {
            let (Some(t), n @ 1..) = (t, c[j]) else {
                continue;
            };
            if let std::collections::btree_map::Entry::Vacant(e) = cache.entry((j, n)) {
                e.insert(ctx.multinomial(n, t)?);
            }
            let m = cache.get(&(j, n)).map(Vec::as_slice).unwrap_or_default();
            let made = (partial.len() as u64).saturating_mul(m.len() as u64);
            ctx.refuse(made)?;
            ctx.spend(made);
            let mut grown = Vec::with_capacity(usize::try_from(made).unwrap_or(0));
            for (x, px) in &partial {
                for (a, q) in m {
                    grown.push((plus(x, a), px * q));
                }
            }
            partial = grown;
        }
        for (x, q) in partial {
            *next.entry(x).or_insert(0.0) += q;
        }
    }
    Ok(next)
}

/// `e` by tests alone: each matching die adds the dice of its chain, which
/// explode on the run's tests up to [`MAX_EXPLOSIONS`] deep (as rolling
/// goes), every die of the pool starting a chain. The chance that a chain
/// reached that depth still matching is the truncated mass.
fn explode_by_test(
    ctx: &mut Ctx<'_>,
    pools: Pools,
    pass: &[Modifier],
    t: &mut Truncation,
) -> Result<Pools, OddsError> {
    let matches: Vec<bool> = ctx
        .values
        .iter()
        .map(|&v| super::pass_matches(pass, v))
        .collect();
    let p_match: f64 = ctx
        .fresh
        .iter()
        .filter(|(j, _)| matches[*j])
        .map(|(_, p)| p)
        .sum();
    // The dice a chain adds below a die at depth d, from the deepest up:
    // a fresh die, and below it, when it matches and is not at the depth,
    // the chain below it.
    let faces = ctx.faces();
    let unit = |j: usize| {
        let mut c = vec![0u32; faces];
        c[j] = 1;
        c
    };
    let mut below: Pools = ctx.fresh.iter().map(|(j, p)| (unit(*j), *p)).collect();
    for _ in 1..MAX_EXPLOSIONS {
        let made = (ctx.fresh.len() as u64).saturating_mul(below.len() as u64);
        ctx.refuse(made)?;
        ctx.spend(made);
        let mut next = Pools::new();
        for (j, p) in &ctx.fresh {
            if matches[*j] {
                for (c, q) in &below {
                    let mut c = c.clone();
                    c[*j] += 1;
                    *next.entry(c).or_insert(0.0) += p * q;
                }
            } else {
                *next.entry(unit(*j)).or_insert(0.0) += p;
            }
        }
        ctx.hold(next.len(), faces)?;
        below = next;
    }
    // The chain of one matching die is `below`; of m dice, its m-fold sum.
    let chain: Vec<(Counts, f64)> = below.into_iter().collect();
    let reach = p_match.powi(MAX_EXPLOSIONS as i32);
    let mut powers: Vec<Vec<(Counts, f64)>> = vec![vec![(vec![0; faces], 1.0)]];
    let mut next = Pools::new();
    let mut truncated = 0.0;
    for (c, p) in pools {
        let m: u32 = c
            .iter()
            .zip(&matches)
            .filter(|(_, m)| **m)
            .map(|(x, _)| *x)
            .sum();
        while powers.len() <= m as usize {
            let last = powers.last().map(Vec::as_slice).unwrap_or_default();
            let made = (last.len() as u64).saturating_mul(chain.len() as u64);
            ctx.refuse(made)?;
            ctx.spend(made);
            let mut sum = Pools::new();
            for (x, px) in last {
                for (y, py) in &chain {
                    *sum.entry(plus(x, y)).or_insert(0.0) += px * py;
                }
            }
            ctx.hold(sum.len(), faces)?;
            powers.push(sum.into_iter().collect());
        }
        let added = powers
            .get(m as usize)
            .map(Vec::as_slice)
            .unwrap_or_default();
        ctx.refuse(added.len() as u64)?;
        ctx.spend(added.len() as u64);
        for (a, q) in added {
            *next.entry(plus(&c, a)).or_insert(0.0) += p * q;
        }
        truncated += p * -(f64::from(m) * (-reach).ln_1p()).exp_m1();
    }
    t.exact = false;
    t.ln_survive += (-truncated).ln_1p();
    Ok(next)
}

/// `e` with a rank, in `d20`'s rounds (`SetOperator.explode`): every die the
/// run selects that has not exploded explodes, one fresh die each, until a
/// round selects none. A pool here is the dice of each face and, after
/// them, how many of those have exploded (the first ones: a face's dice
/// are selected earliest first, and new dice come last). With tests in the
/// run, rounds stop at [`MAX_EXPLOSIONS`] (a die that deep does not explode,
/// as in rolling) and what is left is the truncated mass; by rank alone
/// they always stop (each explosion raises the sum of the N highest, or
/// lowers that of the N lowest, or fills them).
fn explode_by_rank(
    ctx: &mut Ctx<'_>,
    pools: Pools,
    picks: &[Pick],
    t: &mut Truncation,
) -> Result<Pools, OddsError> {
    let faces = ctx.faces();
    let capped = picks.iter().any(|p| matches!(p, Pick::Face(_)));
    let mut done = Pools::new();
    let mut active: Pools = pools
        .into_iter()
        .map(|(mut c, p)| {
            c.resize(2 * faces, 0);
            (c, p)
        })
        .collect();
    let mut round = 0u32;
    let mut truncated = 0.0;
    while !active.is_empty() {
        let mut next = Pools::new();
        for (cx, p) in active {
            let (c, x) = cx.split_at(faces);
            let sel: Vec<u32> = picked_counts(c, &ctx.values, picks).collect();
            let n: u32 = sel.iter().zip(x).map(|(s, e)| s.saturating_sub(*e)).sum();
            if n == 0 || (capped && round >= MAX_EXPLOSIONS) {
                if n > 0 {
                    truncated += p;
                }
                *done.entry(c.to_vec()).or_insert(0.0) += p;
                continue;
            }
            let exploded: Counts = sel.iter().zip(x).map(|(s, e)| *s.max(e)).collect();
            ctx.fresh(n)?;
            for (a, q) in ctx.fresh_of(n) {
                let mut key = plus(c, a);
                key.extend_from_slice(&exploded);
                *next.entry(key).or_insert(0.0) += p * q;
            }
        }
        ctx.hold(next.len() + done.len(), 2 * faces)?;
        ctx.b.check()?;
        active = next;
        round += 1;
    }
    if capped {
        t.exact = false;
        t.ln_survive += (-truncated).ln_1p();
    }
    Ok(done)
}
