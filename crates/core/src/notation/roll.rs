//! Rolling an [`Expr`]: the outcome tree, every die with its history.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::{BinOp, DiceTerm, Expr, MAX_EXPLOSIONS, MAX_REROLLS, Modifier, Node, Select, Sides};
use crate::dice::Die;
use crate::roller::{RollError, Roller};

/// The result of rolling an [`Expr`] once: the total and the whole tree, every
/// die shown (kept and dropped, rerolled and exploded), ready for a page to
/// draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOutcome {
    /// The value of the whole expression (within ±[`super::MAX_TOTAL`]).
    pub total: i64,
    /// The expression's tree with each node's value.
    pub root: NodeOutcome,
    /// The comment after the roll, if any.
    pub comment: Option<String>,
}

/// One node of a rolled expression, with its value. Serialized with a `kind`
/// tag: `number`, `dice`, `neg`, `group`, `binary` or `labelled`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NodeOutcome {
    /// A number written in the text.
    Number {
        /// The number.
        value: i64,
    },
    /// A group of dice.
    Dice {
        /// The group; serialized as `text`, its canonical notation (`"4d6kh3"`).
        #[serde(rename = "text", with = "term_text")]
        term: DiceTerm,
        /// The sum of the kept dice, or the count of successes.
        value: i64,
        /// Whether `value` counts successes rather than summing faces.
        counts_successes: bool,
        /// Every die: the group's dice in roll order, then the dice explosions
        /// added, in the order rolled.
        dice: Vec<DieOutcome>,
    },
    /// A negated operand.
    Neg {
        /// Minus the operand's value.
        value: i64,
        /// The operand.
        operand: Box<NodeOutcome>,
    },
    /// An operand in parentheses.
    Group {
        /// The operand's value.
        value: i64,
        /// The operand.
        inner: Box<NodeOutcome>,
    },
    /// Two operands and an operator.
    Binary {
        /// The operator.
        op: BinOp,
        /// `lhs op rhs` (division rounds toward zero).
        value: i64,
        /// The two operands (one allocation for both), serialized as the
        /// variant's `lhs` and `rhs` fields.
        #[serde(flatten)]
        operands: Box<Operands>,
    },
    /// An operand with its `[label]`s (d20's annotations; issue 30, item 1).
    Labelled {
        /// The operand's value (labels do not change it).
        value: i64,
        /// The operand.
        inner: Box<NodeOutcome>,
        /// The labels, without brackets, in the order written.
        labels: Vec<String>,
    },
}

/// The operands of a [`NodeOutcome::Binary`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operands {
    /// The left operand.
    pub lhs: NodeOutcome,
    /// The right operand.
    pub rhs: NodeOutcome,
}

impl NodeOutcome {
    /// The node's value.
    pub fn value(&self) -> i64 {
        match self {
            NodeOutcome::Number { value }
            | NodeOutcome::Dice { value, .. }
            | NodeOutcome::Neg { value, .. }
            | NodeOutcome::Group { value, .. }
            | NodeOutcome::Binary { value, .. }
            | NodeOutcome::Labelled { value, .. } => *value,
        }
    }

    /// The node's value worked out again from its dice and children (ignoring
    /// the stored values above the dice), or `None` on overflow or division by
    /// zero. For any outcome [`Expr::roll`] returns this equals
    /// [`NodeOutcome::value`] at every node.
    pub fn evaluate(&self) -> Option<i64> {
        match self {
            NodeOutcome::Number { value } => Some(*value),
            NodeOutcome::Dice {
                counts_successes,
                dice,
                ..
            } => {
                let kept = dice.iter().filter(|d| d.kept);
                Some(if *counts_successes {
                    kept.filter(|d| d.success == Some(true)).count() as i64
                } else {
                    kept.map(|d| d.value).sum()
                })
            }
            NodeOutcome::Neg { operand, .. } => operand.evaluate()?.checked_neg(),
            NodeOutcome::Group { inner, .. } | NodeOutcome::Labelled { inner, .. } => {
                inner.evaluate()
            }
            NodeOutcome::Binary { op, operands, .. } => {
                op.apply(operands.lhs.evaluate()?, operands.rhs.evaluate()?)
            }
        }
    }

    /// Every die of the tree, left to right.
    pub fn dice(&self) -> Vec<&DieOutcome> {
        let mut out = Vec::new();
        self.collect_dice(&mut out);
        out
    }

    fn collect_dice<'a>(&'a self, out: &mut Vec<&'a DieOutcome>) {
        match self {
            NodeOutcome::Number { .. } => {}
            NodeOutcome::Dice { dice, .. } => out.extend(dice.iter()),
            NodeOutcome::Neg { operand: x, .. }
            | NodeOutcome::Group { inner: x, .. }
            | NodeOutcome::Labelled { inner: x, .. } => x.collect_dice(out),
            NodeOutcome::Binary { operands, .. } => {
                operands.lhs.collect_dice(out);
                operands.rhs.collect_dice(out);
            }
        }
    }
}

/// One die as rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieOutcome {
    /// Sides of the die (3 for `dF`).
    pub sides: u32,
    /// True for the Fudge die `dF`.
    pub fudge: bool,
    /// The value it counts for: a face 1..=sides, or -1, 0, +1 for `dF`.
    pub value: i64,
    /// False when a keep or drop selection dropped this die.
    pub kept: bool,
    /// For a success-counting group, whether this kept die is a success;
    /// `None` for dropped dice and for groups that sum.
    pub success: Option<bool>,
    /// The faces rerolls replaced, oldest first (`ro`, `rr`).
    pub rerolled_from: Vec<i64>,
    /// The value before `mi` or `ma` first changed it.
    pub clamped_from: Option<i64>,
    /// True when this die met the explosion test and rolled another die.
    pub exploded: bool,
    /// True when an explosion added this die.
    pub from_explosion: bool,
}

impl fmt::Display for DieOutcome {
    /// The value, after any faces rerolls replaced (`1 -> 4`), then `(was 1)`
    /// when `mi`/`ma` changed it, `!` when it exploded, `*` for a success and
    /// ` dropped` for a dropped die.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for v in &self.rerolled_from {
            write!(f, "{v} -> ")?;
        }
        write!(f, "{}", self.value)?;
        if let Some(c) = self.clamped_from {
            write!(f, " (was {c})")?;
        }
        if self.exploded {
            f.write_str("!")?;
        }
        if self.success == Some(true) {
            f.write_str("*")?;
        }
        if !self.kept {
            f.write_str(" dropped")?;
        }
        Ok(())
    }
}

impl fmt::Display for NodeOutcome {
    /// The node as in the roll line: `4d6kh3 (6, 5, 2 dropped, 4)`,
    /// `(1d4 (3) + 1) * 2`, `1d8 (5) [slashing]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeOutcome::Number { value } => write!(f, "{value}"),
            NodeOutcome::Dice {
                term,
                value,
                counts_successes,
                dice,
            } => {
                write!(f, "{term} (")?;
                for (j, die) in dice.iter().enumerate() {
                    if j > 0 {
                        f.write_str(", ")?;
                    }
                    die.fmt(f)?;
                }
                f.write_str(")")?;
                if *counts_successes {
                    let s = if *value == 1 { "" } else { "es" };
                    write!(f, " [{value} success{s}]")?;
                }
                Ok(())
            }
            NodeOutcome::Neg { operand, .. } => write!(f, "-{operand}"),
            NodeOutcome::Group { inner, .. } => write!(f, "({inner})"),
            NodeOutcome::Binary { op, operands, .. } => {
                write!(f, "{} {} {}", operands.lhs, op.symbol(), operands.rhs)
            }
            NodeOutcome::Labelled { inner, labels, .. } => {
                inner.fmt(f)?;
                for l in labels {
                    write!(f, " [{l}]")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for RollOutcome {
    /// One line for the table, every die shown:
    /// `4d6kh3 (6, 5, 2 dropped, 4) + 1 = 16`,
    /// `10d6>=5 (6*, 2, 5*, 1, 3, 4, 4, 2, 1, 3) [2 successes] = 2`,
    /// `1d6e6 (6!, 6!, 2) + 2 = 16`, `dex save: 1d20 (12) + 5 = 17`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = &self.comment {
            write!(f, "{c}: ")?;
        }
        write!(f, "{} = {}", self.root, self.total)
    }
}

pub(super) fn roll(expr: &Expr, roller: &mut dyn Roller) -> Result<RollOutcome, RollError> {
    let root = roll_node(&expr.root, roller)?;
    Ok(RollOutcome {
        total: root.value(),
        root,
        comment: expr.comment.clone(),
    })
}

pub(super) fn roll_total(expr: &Expr, roller: &mut dyn Roller) -> Result<i64, RollError> {
    total_node(&expr.root, roller)
}

/// The value of `node` as [`roll_node`] would give it, asking the roller for
/// the same dice in the same order.
fn total_node(node: &Node, roller: &mut dyn Roller) -> Result<i64, RollError> {
    Ok(match node {
        Node::Number(v) => i64::from(*v),
        Node::Dice(d) if d.modifiers.is_empty() => total_plain(d, roller)?,
        Node::Dice(d) => roll_dice(d, roller)?.value(),
        // The parser's bounds keep every value within ±2^53.
        Node::Neg(x) => total_node(x, roller)?.saturating_neg(),
        Node::Group(x) | Node::Labelled(x, _) => total_node(x, roller)?,
        Node::Binary(op, ab) => {
            let lhs = total_node(&ab[0], roller)?;
            let rhs = total_node(&ab[1], roller)?;
            op.apply(lhs, rhs).unwrap_or(0)
        }
    })
}

/// The value of a group without modifiers: its dice rolled in chunks into a
/// stack buffer, summed or counted as they come; with a keep or drop, every
/// value is held (on the stack up to 64 dice) and the selection sorts them.
fn total_plain(term: &DiceTerm, roller: &mut dyn Roller) -> Result<i64, RollError> {
    const CHUNK: usize = 64;
    let sides = term.sides;
    let die = sides.die();
    let count = term.count as usize;
    let score = |v: i64| match term.success {
        Some(t) => i64::from(t.test(v)),
        None => v,
    };
    let Some(select) = term.select else {
        // A small chunk: zeroing it is part of every roll.
        let mut faces = [0u32; 16];
        let (mut left, mut total) = (count, 0i64);
        while left > 0 {
            let n = left.min(faces.len());
            let chunk = faces.get_mut(..n).unwrap_or_default();
            roller.roll_many(die, chunk)?;
            total += chunk.iter().map(|f| score(sides.value(*f))).sum::<i64>();
            left -= n;
        }
        return Ok(total);
    };
    if select.by_value().is_some() {
        // Each die kept or dropped by its own value: sum as rolled.
        let mut faces = [0u32; 16];
        let (mut left, mut total) = (count, 0i64);
        while left > 0 {
            let n = left.min(faces.len());
            let chunk = faces.get_mut(..n).unwrap_or_default();
            roller.roll_many(die, chunk)?;
            total += chunk
                .iter()
                .map(|f| sides.value(*f))
                .filter(|v| select.keeps_value(*v))
                .map(score)
                .sum::<i64>();
            left -= n;
        }
        return Ok(total);
    }
    let mut small = [0u32; CHUNK];
    let mut large = Vec::new();
    let faces: &mut [u32] = if count <= CHUNK {
        small.get_mut(..count).unwrap_or_default()
    } else {
        large.resize(count, 0);
        &mut large
    };
    roller.roll_many(die, faces)?;
    // Faces and values rise together (dF's -1, 0, +1 too), so sorting faces
    // sorts values; among equal values it does not matter which is kept.
    faces.sort_unstable();
    let k = |k: u32| (k as usize).min(count);
    let kept = match select {
        Select::KeepHighest(n) => count - k(n)..count,
        Select::KeepLowest(n) => 0..k(n),
        Select::DropHighest(n) => 0..count - k(n),
        Select::DropLowest(n) => k(n)..count,
        // Handled above.
        _ => 0..count,
    };
    Ok(faces
        .get(kept)
        .unwrap_or_default()
        .iter()
        .map(|f| score(sides.value(*f)))
        .sum())
}

fn roll_node(node: &Node, roller: &mut dyn Roller) -> Result<NodeOutcome, RollError> {
    Ok(match node {
        Node::Number(v) => NodeOutcome::Number {
            value: i64::from(*v),
        },
        Node::Dice(d) => roll_dice(d, roller)?,
        Node::Neg(x) => {
            let operand = roll_node(x, roller)?;
            NodeOutcome::Neg {
                // The parser's bounds keep every value within ±2^53.
                value: operand.value().saturating_neg(),
                operand: Box::new(operand),
            }
        }
        Node::Group(x) => {
            let inner = roll_node(x, roller)?;
            NodeOutcome::Group {
                value: inner.value(),
                inner: Box::new(inner),
            }
        }
        Node::Labelled(x, labels) => {
            let inner = roll_node(x, roller)?;
            NodeOutcome::Labelled {
                value: inner.value(),
                inner: Box::new(inner),
                labels: labels.clone(),
            }
        }
        Node::Binary(op, ab) => {
            let lhs = roll_node(&ab[0], roller)?;
            let rhs = roll_node(&ab[1], roller)?;
            // The parser's bounds rule out overflow and a zero divisor; 0 is
            // never reached.
            let value = op.apply(lhs.value(), rhs.value()).unwrap_or(0);
            NodeOutcome::Binary {
                op: *op,
                value,
                operands: Box::new(Operands { lhs, rhs }),
            }
        }
    })
}

fn new_die(die: Die, sides: Sides, value: i64, from_explosion: bool) -> DieOutcome {
    DieOutcome {
        sides: die.sides(),
        fudge: sides == Sides::Fudge,
        value,
        kept: true,
        success: None,
        rerolled_from: Vec::new(),
        clamped_from: None,
        exploded: false,
        from_explosion,
    }
}

fn roll_dice(term: &DiceTerm, roller: &mut dyn Roller) -> Result<NodeOutcome, RollError> {
    let sides = term.sides;
    let die = sides.die();
    let face =
        |roller: &mut dyn Roller| -> Result<i64, RollError> { Ok(sides.value(roller.roll(die)?)) };
    let mut dice = Vec::with_capacity(term.count as usize);
    // The group's dice in one call per chunk: no call per die through the
    // trait object for a seeded roller.
    let mut faces = [0u32; 64];
    let mut left = term.count as usize;
    while left > 0 {
        let chunk = faces.get_mut(..left.min(64)).unwrap_or_default();
        roller.roll_many(die, chunk)?;
        for &f in chunk.iter() {
            dice.push(new_die(die, sides, sides.value(f), false));
        }
        left -= chunk.len().max(1).min(left);
    }
    // One pass per run of merged modifiers: `ro1ro2` rerolls once each die
    // showing 1 or 2, as in d20 (issue 30, item 2).
    for pass in super::passes(&term.modifiers) {
        let matches = |v: i64| super::pass_matches(pass, v);
        let Some(first) = pass.first() else {
            continue;
        };
        match *first {
            Modifier::RerollOnce(_) => {
                for d in &mut dice {
                    if matches(d.value) && !roller.short() {
                        d.rerolled_from.push(d.value);
                        d.value = face(roller)?;
                    }
                }
            }
            Modifier::Reroll(_) => {
                // The faces a reroll may end on. The parser refuses a reroll
                // on every face, so there is at least one.
                let kept: Vec<i64> = sides.faces().filter(|v| !matches(*v)).collect();
                let kept_die = Die::new(kept.len() as u64).unwrap_or(Die::D6);
                for d in &mut dice {
                    let mut n = 0;
                    while n < MAX_REROLLS && matches(d.value) && !roller.short() {
                        d.rerolled_from.push(d.value);
                        n += 1;
                        // Issue 30, item 4: the last reroll the cap allows
                        // draws among the kept faces, so a die never ends on
                        // a face of the set: the same distribution as
                        // rerolling on without end, which the odds give.
                        d.value = if n == MAX_REROLLS {
                            let i = kept_die.roll(roller)? as usize;
                            kept.get(i.saturating_sub(1)).copied().unwrap_or(d.value)
                        } else {
                            face(roller)?
                        };
                    }
                }
            }
            Modifier::Min(x) | Modifier::Max(x) => {
                let x = i64::from(x);
                let min = matches!(first, Modifier::Min(_));
                for d in &mut dice {
                    if (min && d.value < x) || (!min && d.value > x) {
                        d.clamped_from.get_or_insert(d.value);
                        d.value = x;
                    }
                }
            }
            Modifier::Explode(_) => {
                // Each die's depth: how many explosions led to it.
                let mut depth: Vec<u32> = vec![0; dice.len()];
                let mut i = 0;
                while i < dice.len() {
                    if depth[i] < MAX_EXPLOSIONS && matches(dice[i].value) && !roller.short() {
                        dice[i].exploded = true;
                        let v = face(roller)?;
                        dice.push(new_die(die, sides, v, true));
                        depth.push(depth[i] + 1);
                    }
                    i += 1;
                }
            }
        }
    }
    if let Some(select) = term.select {
        apply_select(select, &mut dice);
    }
    let value = match term.success {
        Some(test) => {
            let mut hits: i64 = 0;
            for d in dice.iter_mut().filter(|d| d.kept) {
                let hit = test.test(d.value);
                d.success = Some(hit);
                hits += i64::from(hit);
            }
            hits
        }
        None => dice.iter().filter(|d| d.kept).map(|d| d.value).sum(),
    };
    Ok(NodeOutcome::Dice {
        term: term.clone(),
        value,
        counts_successes: term.success.is_some(),
        dice,
    })
}

/// Mark the dice that `select` drops.
fn apply_select(select: Select, dice: &mut [DieOutcome]) {
    if select.by_value().is_some() {
        for d in dice.iter_mut() {
            d.kept = select.keeps_value(d.value);
        }
        return;
    }
    // Indices from lowest to highest value; a stable sort keeps earlier dice
    // lower among equals. Small groups sort on the stack.
    const SMALL: usize = 32;
    let len = dice.len();
    if len <= SMALL {
        let mut small = [0usize; SMALL];
        for (i, slot) in small.iter_mut().enumerate().take(len) {
            *slot = i;
        }
        let order = &mut small[..len];
        order.sort_by_key(|&i| dice[i].value);
        mark_dropped(select, order, dice);
    } else {
        let mut order: Vec<usize> = (0..len).collect();
        order.sort_by_key(|&i| dice[i].value);
        mark_dropped(select, &order, dice);
    }
}

/// Mark as dropped the dice `select` drops, given their indices from lowest
/// to highest.
fn mark_dropped(select: Select, order: &[usize], dice: &mut [DieOutcome]) {
    let len = order.len();
    let n = |k: u32| usize::try_from(k).unwrap_or(usize::MAX).min(len);
    // The range of `order` that is dropped.
    let dropped = match select {
        Select::KeepHighest(k) => 0..len - n(k),
        Select::KeepLowest(k) => n(k)..len,
        Select::DropHighest(k) => len - n(k)..len,
        Select::DropLowest(k) => 0..n(k),
        // Selections by value never come here (see `apply_select`).
        _ => 0..0,
    };
    for &i in &order[dropped] {
        dice[i].kept = false;
    }
}

/// A dice group in JSON: its canonical notation, read back by the parser.
mod term_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use super::{DiceTerm, Expr, Node};

    pub(super) fn serialize<S: Serializer>(term: &DiceTerm, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(term)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DiceTerm, D::Error> {
        let text = String::deserialize(d)?;
        match Expr::parse(&text).map_err(D::Error::custom)?.root {
            Node::Dice(term) => Ok(term),
            _ => Err(D::Error::custom(format!(
                "{text:?} is not one group of dice"
            ))),
        }
    }
}
