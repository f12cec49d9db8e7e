//! Rolling an [`Expr`]: the outcome tree, every die with its history.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::ratio::Ratio;
use super::{
    BinOp, Compare, Decimal, Dialect, DiceTerm, ExplodeKind, Expr, Func, MAX_EXPLOSIONS,
    MAX_REROLLS, Modifier, Node, Select, SetTerm, Sides, Test,
};
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
    /// The dialect that read the expression (issue 30, item 3); `d20` in
    /// outcomes written before dialects. Left out of JSON when `d20`.
    #[serde(default, skip_serializing_if = "Dialect::is_d20")]
    pub dialect: Dialect,
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
    /// A decimal written in the text (`d20`'s; issue 30, item 2).
    Decimal {
        /// The decimal rounded toward zero.
        value: i64,
        /// The decimal as written.
        decimal: Decimal,
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
    /// `floor(x)`, `ceil(x)`, `round(x)` or `abs(x)` (Roll20, Foundry).
    Func {
        /// The function.
        func: Func,
        /// Its value: of the exact quotient when the argument is a `/`.
        value: i64,
        /// The argument.
        inner: Box<NodeOutcome>,
    },
    /// Variable dice (Roll20, Foundry; issue 30, item 3): the count and the
    /// sides worked out, then the dice they give.
    VarDice {
        /// The sum of the dice.
        value: i64,
        /// The count's outcome (a number or a group).
        count: Box<NodeOutcome>,
        /// The sides' outcome (a number or a group).
        sides: Box<NodeOutcome>,
        /// The dice rolled, as a plain group (`3d6 (2, 5, 1)`).
        dice: Box<NodeOutcome>,
    },
    /// A group of rolls in braces (Roll20, Foundry).
    Set {
        /// The sum of the kept items (their exact sum rounded toward zero
        /// when they hold `d20`'s fractions), or the successes less the
        /// failures.
        value: i64,
        /// Whether `value` counts successes rather than summing.
        counts_successes: bool,
        /// The keep or drop and tests after the braces, as written
        /// canonically (`kh1`, `>=12`).
        suffix: String,
        /// Every item, in the order written.
        items: Vec<SetItemOutcome>,
        /// True for d20's set, written in parentheses (`(1d20, 1d20)kh1`);
        /// false for Roll20's and Foundry's braces.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        parentheses: bool,
    },
}

/// One item of a rolled group in braces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetItemOutcome {
    /// The item rolled.
    pub outcome: NodeOutcome,
    /// False when the group's keep or drop dropped it.
    pub kept: bool,
    /// For a group that counts successes, whether this kept item passes.
    pub success: Option<bool>,
    /// For a group with a failure test, whether this kept item fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<bool>,
}

/// The operands of a [`NodeOutcome::Binary`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operands {
    /// The left operand.
    pub lhs: NodeOutcome,
    /// The right operand.
    pub rhs: NodeOutcome,
}

impl Default for Operands {
    /// Two zeros: the placeholders the roll writes each operand over.
    fn default() -> Self {
        Operands {
            lhs: NodeOutcome::Number { value: 0 },
            rhs: NodeOutcome::Number { value: 0 },
        }
    }
}

impl NodeOutcome {
    /// The node's value.
    pub fn value(&self) -> i64 {
        match self {
            NodeOutcome::Number { value }
            | NodeOutcome::Decimal { value, .. }
            | NodeOutcome::Dice { value, .. }
            | NodeOutcome::Neg { value, .. }
            | NodeOutcome::Group { value, .. }
            | NodeOutcome::Binary { value, .. }
            | NodeOutcome::Labelled { value, .. }
            | NodeOutcome::Func { value, .. }
            | NodeOutcome::VarDice { value, .. }
            | NodeOutcome::Set { value, .. } => *value,
        }
    }

    /// The node's value worked out again from its dice and children (ignoring
    /// the stored values above the dice), or `None` on overflow or division by
    /// zero. For any outcome [`Expr::roll`] returns this equals
    /// [`NodeOutcome::value`] at every node. Below a `d20` `/` or a decimal
    /// the value is worked out in exact fractions and rounded toward zero
    /// only here, as `d20` rounds its total (issue 30, item 2; `7 / 2 * 2`
    /// is 7).
    pub fn evaluate(&self) -> Option<i64> {
        match self {
            NodeOutcome::Decimal { .. }
            | NodeOutcome::Neg { .. }
            | NodeOutcome::Group { .. }
            | NodeOutcome::Labelled { .. }
            | NodeOutcome::Binary { .. }
            | NodeOutcome::Set { .. } => self.exact()?.trunc_i64(),
            _ => self.evaluate_whole(),
        }
    }

    /// The node's exact value, a fraction below a `d20` `/` or a decimal.
    pub(crate) fn exact(&self) -> Option<Ratio> {
        match self {
            NodeOutcome::Decimal { decimal, .. } => Some(decimal.value()),
            NodeOutcome::Neg { operand, .. } => operand.exact()?.neg(),
            NodeOutcome::Group { inner, .. } | NodeOutcome::Labelled { inner, .. } => inner.exact(),
            NodeOutcome::Binary { op, operands, .. } => {
                op.apply_exact(operands.lhs.exact()?, operands.rhs.exact()?)
            }
            // The kept items' exact sum (d20's items may hold fractions;
            // issue 30, item 2), or the successes less the failures.
            NodeOutcome::Set {
                counts_successes,
                items,
                ..
            } => {
                let mut total = Ratio::ZERO;
                for item in items.iter().filter(|i| i.kept) {
                    total = total.add(if *counts_successes {
                        Ratio::int(
                            i128::from(item.success == Some(true))
                                - i128::from(item.failure == Some(true)),
                        )
                    } else {
                        item.outcome.exact()?
                    })?;
                }
                Some(total)
            }
            _ => Some(Ratio::int(i128::from(self.evaluate_whole()?))),
        }
    }

    /// [`NodeOutcome::evaluate`] of a node whose value is a whole number.
    fn evaluate_whole(&self) -> Option<i64> {
        match self {
            NodeOutcome::Number { value } | NodeOutcome::Decimal { value, .. } => Some(*value),
            NodeOutcome::Dice {
                counts_successes,
                dice,
                ..
            } => {
                let kept = dice.iter().filter(|d| d.kept);
                Some(if *counts_successes {
                    kept.map(|d| {
                        i64::from(d.success == Some(true)) - i64::from(d.failure == Some(true))
                    })
                    .sum()
                } else {
                    kept.map(|d| d.value).sum()
                })
            }
            NodeOutcome::VarDice {
                count, sides, dice, ..
            } => {
                // The dice match the count and sides worked out.
                let NodeOutcome::Dice { term, .. } = &**dice else {
                    return None;
                };
                let ok = i64::from(term.count) == count.evaluate()?
                    && term.sides == Sides::Number(u32::try_from(sides.evaluate()?).ok()?);
                if ok { dice.evaluate() } else { None }
            }
            NodeOutcome::Func { func, inner, .. } => match quotient(inner) {
                Some(operands) => {
                    func.of_quotient(operands.lhs.evaluate()?, operands.rhs.evaluate()?)
                }
                None => func.of_integer(inner.evaluate()?),
            },
            NodeOutcome::Set {
                counts_successes,
                items,
                ..
            } => {
                let mut total = 0i64;
                for item in items.iter().filter(|i| i.kept) {
                    total = total.checked_add(if *counts_successes {
                        i64::from(item.success == Some(true))
                            - i64::from(item.failure == Some(true))
                    } else {
                        item.outcome.evaluate()?
                    })?;
                }
                Some(total)
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
            NodeOutcome::Number { .. } | NodeOutcome::Decimal { .. } => {}
            NodeOutcome::Dice { dice, .. } => out.extend(dice.iter()),
            NodeOutcome::Neg { operand: x, .. }
            | NodeOutcome::Group { inner: x, .. }
            | NodeOutcome::Labelled { inner: x, .. }
            | NodeOutcome::Func { inner: x, .. } => x.collect_dice(out),
            NodeOutcome::VarDice {
                count, sides, dice, ..
            } => {
                count.collect_dice(out);
                sides.collect_dice(out);
                dice.collect_dice(out);
            }
            NodeOutcome::Set { items, .. } => {
                for item in items {
                    item.outcome.collect_dice(out);
                }
            }
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
    /// For a group with a failure test (Roll20's `f`), whether this kept
    /// die fails (it subtracts one success).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<bool>,
    /// Roll20's critical marks (`cs`, `cf`): shown, not counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical: Option<Critical>,
    /// For a compounding die (Roll20's `!!`), the faces added into `value`,
    /// in the order rolled (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compounded: Vec<i64>,
}

/// A die marked by Roll20's `cs` or `cf` (issue 30, item 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Critical {
    /// Its face meets `cs`.
    Success,
    /// Its face meets `cf`.
    Failure,
}

/// The operands of a `/` directly inside `node` (through parentheses).
fn quotient(node: &NodeOutcome) -> Option<&Operands> {
    match node {
        NodeOutcome::Group { inner, .. } => quotient(inner),
        NodeOutcome::Binary {
            op: BinOp::Div,
            operands,
            ..
        } => Some(operands),
        _ => None,
    }
}

impl fmt::Display for DieOutcome {
    /// The value, after any faces rerolls replaced (`1 -> 4`), then `(was 1)`
    /// when `mi`/`ma` changed it, `!` when it exploded, `*` for a success and
    /// ` dropped` for a dropped die.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for v in &self.rerolled_from {
            write!(f, "{v} -> ")?;
        }
        if self.compounded.len() > 1 {
            let faces: Vec<String> = self.compounded.iter().map(i64::to_string).collect();
            write!(f, "{}=", faces.join("+"))?;
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
        if self.failure == Some(true) {
            f.write_str(" failure")?;
        }
        match self.critical {
            Some(Critical::Success) => f.write_str(" critical")?,
            Some(Critical::Failure) => f.write_str(" fumble")?,
            None => {}
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
            NodeOutcome::Decimal { decimal, .. } => write!(f, "{decimal}"),
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
            NodeOutcome::Func { func, inner, .. } => write!(f, "{}({inner})", func.name()),
            NodeOutcome::VarDice {
                count, sides, dice, ..
            } => write!(f, "{count}d{sides}: {dice}"),
            NodeOutcome::Set {
                value,
                counts_successes,
                suffix,
                items,
                parentheses,
            } => {
                f.write_str(if *parentheses { "(" } else { "{" })?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    item.outcome.fmt(f)?;
                    if item.success == Some(true) {
                        f.write_str("*")?;
                    }
                    if item.failure == Some(true) {
                        f.write_str(" failure")?;
                    }
                    if !item.kept {
                        f.write_str(" dropped")?;
                    }
                }
                if *parentheses && items.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(if *parentheses { ")" } else { "}" })?;
                f.write_str(suffix)?;
                if *counts_successes {
                    let s = if *value == 1 { "" } else { "es" };
                    write!(f, " [{value} success{s}]")?;
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
        write!(f, "{} = {}", self.root, self.total)?;
        if self.dialect != Dialect::D20 {
            write!(f, " ({})", self.dialect)?;
        }
        Ok(())
    }
}

/// [`Expr::roll`]: small, so that it is inlined and the outcome is built
/// where the caller keeps it (an outcome returned from a call is copied
/// into the caller's place, read back wider than it was written).
#[inline]
pub(super) fn roll(expr: &Expr, roller: &mut dyn Roller) -> Result<RollOutcome, RollError> {
    let mut outcome = RollOutcome {
        total: 0,
        root: NodeOutcome::Number { value: 0 },
        comment: None,
        dialect: expr.dialect,
    };
    roll_outcome(expr, roller, &mut outcome)?;
    Ok(outcome)
}

/// Roll `expr` into `outcome`, which holds a placeholder number for its
/// root.
#[inline(never)]
fn roll_outcome(
    expr: &Expr,
    roller: &mut dyn Roller,
    outcome: &mut RollOutcome,
) -> Result<(), RollError> {
    let total = roll_into(&expr.root, roller, expr.dialect, &mut outcome.root)?;
    outcome.total = if expr.fractional {
        exact_values(&mut outcome.root);
        outcome.root.value()
    } else {
        total
    };
    outcome.comment.clone_from(&expr.comment);
    Ok(())
}

pub(super) fn roll_total(expr: &Expr, roller: &mut dyn Roller) -> Result<i64, RollError> {
    if expr.fractional {
        return Ok(roll(expr, roller)?.total);
    }
    total_node(&expr.root, roller)
}

/// Set every value above the dice from the exact fractions below it,
/// rounded toward zero (`d20`'s `int()` of its float total; issue 30,
/// item 2), and return the node's exact value. The parser's bounds rule out
/// overflow and a zero divisor.
fn exact_values(node: &mut NodeOutcome) -> Ratio {
    let (exact, slot) = match node {
        NodeOutcome::Decimal { decimal, value } => (decimal.value(), value),
        NodeOutcome::Neg { operand, value } => {
            (exact_values(operand).neg().unwrap_or(Ratio::ZERO), value)
        }
        NodeOutcome::Group { inner, value } | NodeOutcome::Labelled { inner, value, .. } => {
            (exact_values(inner), value)
        }
        NodeOutcome::Binary {
            op,
            operands,
            value,
        } => {
            let a = exact_values(&mut operands.lhs);
            let b = exact_values(&mut operands.rhs);
            (op.apply_exact(a, b).unwrap_or(Ratio::ZERO), value)
        }
        // d20's set of items with fractions: the kept items' exact sum.
        NodeOutcome::Set {
            value,
            items,
            counts_successes,
            ..
        } => {
            let mut sum = Ratio::ZERO;
            for item in items.iter_mut() {
                let e = exact_values(&mut item.outcome);
                if item.kept {
                    let e = if *counts_successes {
                        Ratio::int(
                            i128::from(item.success == Some(true))
                                - i128::from(item.failure == Some(true)),
                        )
                    } else {
                        e
                    };
                    sum = sum.add(e).unwrap_or(sum);
                }
            }
            (sum, value)
        }
        other => return Ratio::int(i128::from(other.value())),
    };
    *slot = exact.trunc_i64().unwrap_or(0);
    exact
}

/// The value of `node` as [`roll_node`] would give it, asking the roller for
/// the same dice in the same order.
fn total_node(node: &Node, roller: &mut dyn Roller) -> Result<i64, RollError> {
    Ok(match node {
        Node::Number(v) => i64::from(*v),
        // Only in a fractional expression, which `roll_total` rolls whole.
        Node::Decimal(d) => d.value().trunc_i64().unwrap_or(0),
        Node::Dice(d)
            if d.modifiers.is_empty() && d.failure.is_none() && d.more_select.is_empty() =>
        {
            total_plain(d, roller)?
        }
        Node::Dice(d) => roll_dice(d, roller)?.value(),
        // The parser's bounds keep every value within ±2^53.
        Node::Neg(x) => total_node(x, roller)?.saturating_neg(),
        Node::Group(x) | Node::Labelled(x, _) => total_node(x, roller)?,
        Node::Binary(op, ab) => {
            let lhs = total_node(&ab[0], roller)?;
            let rhs = total_node(&ab[1], roller)?;
            op.apply(lhs, rhs).unwrap_or(0)
        }
        Node::Func(..) | Node::Set(_) | Node::VarDice(_) | Node::ModifiedVarDice(_) => {
            roll_node(node, roller, Dialect::D20)?.value()
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

fn roll_node(
    node: &Node,
    roller: &mut dyn Roller,
    dialect: Dialect,
) -> Result<NodeOutcome, RollError> {
    let mut out = NodeOutcome::Number { value: 0 };
    roll_into(node, roller, dialect, &mut out)?;
    Ok(out)
}

/// Put `node` into `slot`, which holds a placeholder number (every caller
/// of [`roll_into`] and [`roll_dice_into`] passes a fresh
/// `NodeOutcome::Number`): the placeholder owns nothing, so forgetting it
/// frees nothing, and the drop glue of a whole outcome is not run for it.
#[inline(always)]
fn put(slot: &mut NodeOutcome, node: NodeOutcome) {
    let old = std::mem::replace(slot, node);
    debug_assert!(matches!(old, NodeOutcome::Number { .. }));
    std::mem::forget(old);
}

/// A box holding a placeholder number, written in its allocation
/// (`Box::new` built a whole outcome on the stack and copied it).
#[inline(always)]
fn placeholder_box() -> Box<NodeOutcome> {
    Box::write(Box::new_uninit(), NodeOutcome::Number { value: 0 })
}

/// Roll `node` into `out`, in place: an operator's operands are rolled
/// straight into their one allocation, a group's dice into the outcome, so
/// that no outcome is moved after it is built. Asks the roller for the same
/// dice in the same order as [`roll_node`] (left operand first). Returns
/// the node's value, so that an operator does not read it back from its
/// operands' outcomes.
fn roll_into(
    node: &Node,
    roller: &mut dyn Roller,
    dialect: Dialect,
    out: &mut NodeOutcome,
) -> Result<i64, RollError> {
    Ok(match node {
        Node::Number(v) => {
            let value = i64::from(*v);
            put(out, NodeOutcome::Number { value });
            value
        }
        Node::Dice(d) => roll_group_into(d, roller, out)?,
        Node::Neg(x) => {
            let mut operand = placeholder_box();
            // The parser's bounds keep every value within ±2^53.
            let value = roll_into(x, roller, dialect, &mut operand)?.saturating_neg();
            put(out, NodeOutcome::Neg { value, operand });
            value
        }
        Node::Group(x) => {
            let mut inner = placeholder_box();
            let value = roll_into(x, roller, dialect, &mut inner)?;
            put(out, NodeOutcome::Group { value, inner });
            value
        }
        Node::Binary(op, ab) => {
            // Built in its allocation (`Box::default` writes in place), not
            // on the stack and copied.
            let mut operands: Box<Operands> = Box::default();
            let lhs = roll_into(&ab[0], roller, dialect, &mut operands.lhs)?;
            let rhs = roll_into(&ab[1], roller, dialect, &mut operands.rhs)?;
            // The parser's bounds rule out overflow and a zero divisor; 0 is
            // never reached.
            let value = op.apply(lhs, rhs).unwrap_or(0);
            put(
                out,
                NodeOutcome::Binary {
                    op: *op,
                    value,
                    operands,
                },
            );
            value
        }
        _ => {
            put(out, roll_other(node, roller, dialect)?);
            out.value()
        }
    })
}

/// The rarer nodes of [`roll_into`], built whole.
fn roll_other(
    node: &Node,
    roller: &mut dyn Roller,
    dialect: Dialect,
) -> Result<NodeOutcome, RollError> {
    Ok(match node {
        Node::Number(_) | Node::Dice(_) | Node::Neg(_) | Node::Group(_) | Node::Binary(..) => {
            roll_node(node, roller, dialect)?
        }
        Node::Decimal(d) => NodeOutcome::Decimal {
            value: d.value().trunc_i64().unwrap_or(0),
            decimal: *d,
        },
        Node::Labelled(x, labels) => {
            let inner = roll_node(x, roller, dialect)?;
            NodeOutcome::Labelled {
                value: inner.value(),
                inner: Box::new(inner),
                labels: labels.clone(),
            }
        }
        Node::Func(func, x) => {
            let inner = roll_node(x, roller, dialect)?;
            // The parser's bounds rule out overflow; 0 is never reached.
            let value = match quotient(&inner) {
                Some(o) => func.of_quotient(o.lhs.value(), o.rhs.value()),
                None => func.of_integer(inner.value()),
            }
            .unwrap_or(0);
            NodeOutcome::Func {
                func: *func,
                value,
                inner: Box::new(inner),
            }
        }
        Node::Set(set) => roll_set(set, roller, dialect)?,
        Node::VarDice(cs) => roll_var_dice(&cs[0], &cs[1], None, roller, dialect)?,
        Node::ModifiedVarDice(v) => {
            roll_var_dice(&v.count, &v.sides, Some(&v.term), roller, dialect)?
        }
    })
}

/// Variable dice (issue 30, item 3): the count, then the sides, then that
/// many dice of that many sides, with `modifiers`' modifiers, keeps and
/// drops and tests when given.
fn roll_var_dice(
    count: &Node,
    sides: &Node,
    modifiers: Option<&DiceTerm>,
    roller: &mut dyn Roller,
    dialect: Dialect,
) -> Result<NodeOutcome, RollError> {
    let count = roll_node(count, roller, dialect)?;
    let sides = roll_node(sides, roller, dialect)?;
    // The parser's bounds keep both within the caps.
    let n = u32::try_from(count.value()).unwrap_or(0);
    let s = Sides::Number(u32::try_from(sides.value()).unwrap_or(1).max(1));
    let term = match modifiers {
        Some(m) => DiceTerm {
            count: n,
            sides: s,
            ..m.clone()
        },
        None => DiceTerm::plain(n, s),
    };
    let dice = roll_dice(&term, roller)?;
    Ok(NodeOutcome::VarDice {
        value: dice.value(),
        count: Box::new(count),
        sides: Box::new(sides),
        dice: Box::new(dice),
    })
}

/// A group in braces: every item rolled left to right, then the keep or
/// drop on their totals, then the tests.
fn roll_set(
    set: &SetTerm,
    roller: &mut dyn Roller,
    dialect: Dialect,
) -> Result<NodeOutcome, RollError> {
    let mut items = Vec::with_capacity(set.items.len());
    for item in &set.items {
        items.push(SetItemOutcome {
            outcome: roll_node(item, roller, dialect)?,
            kept: true,
            success: None,
            failure: None,
        });
    }
    // d20's items may hold fractions (issue 30, item 2): kept and dropped
    // on their exact totals, as d20 compares its float totals.
    let exact = |o: &NodeOutcome| o.exact().unwrap_or(Ratio::int(i128::from(o.value())));
    if !set.more_select.is_empty() {
        // Several keeps and drops (d20's, issue 30, item 2), on the exact
        // totals.
        let totals: Vec<Ratio> = items.iter().map(|i| exact(&i.outcome)).collect();
        let selects: Vec<Select> = set.select.iter().chain(&set.more_select).copied().collect();
        let kept = super::kept_by_rank_of(&totals, &selects, &|t: Test, v: Ratio| t.test_exact(v));
        for (item, k) in items.iter_mut().zip(kept) {
            item.kept = k;
        }
    } else if let Some(select) = set.select.filter(|s| s.by_value().is_some()) {
        // d20's `k<3`, `p>4` on a set: each item on its own total.
        for item in &mut items {
            item.kept = select.keeps_exact(exact(&item.outcome));
        }
    } else if let Some(select) = set.select {
        let totals: Vec<Ratio> = items.iter().map(|i| exact(&i.outcome)).collect();
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| totals[i]);
        let mut kept = vec![true; items.len()];
        dropped_by_rank(select, &order, |i| kept[i] = false);
        for (item, k) in items.iter_mut().zip(kept) {
            item.kept = k;
        }
    }
    let mut value = 0i64;
    for item in items.iter_mut().filter(|i| i.kept) {
        let v = item.outcome.value();
        value = value.saturating_add(match set.success {
            Some(t) => {
                let hit = t.test(v);
                item.success = Some(hit);
                let miss = set.failure.map(|f| f.test(v));
                item.failure = miss;
                i64::from(hit) - i64::from(miss == Some(true))
            }
            None => v,
        });
    }
    let mut suffix = String::new();
    // Writing into a String cannot fail.
    let _ = set.fmt_suffix(&mut suffix);
    Ok(NodeOutcome::Set {
        value,
        counts_successes: set.success.is_some(),
        suffix,
        items,
        parentheses: dialect == Dialect::D20,
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
        failure: None,
        critical: None,
        compounded: Vec::new(),
    }
}

/// `term.clone()`, without a vector's clone for the empty lists of
/// modifiers and extra selections most groups have.
fn clone_term(term: &DiceTerm) -> DiceTerm {
    fn copy<T: Clone>(v: &[T]) -> Vec<T> {
        if v.is_empty() { Vec::new() } else { v.to_vec() }
    }
    DiceTerm {
        modifiers: copy(&term.modifiers),
        more_select: copy(&term.more_select),
        ..*term
    }
}

fn roll_dice(term: &DiceTerm, roller: &mut dyn Roller) -> Result<NodeOutcome, RollError> {
    let mut out = NodeOutcome::Number { value: 0 };
    roll_dice_into(term, roller, &mut out)?;
    Ok(out)
}

/// The most dice [`roll_plain_into`] rolls: their faces on the stack.
const PLAIN_DICE: usize = 16;

/// Roll a group of dice into `out`, by [`roll_plain_into`] when it is a
/// plain group (the common forms: `4d6kh3`, `10d6>=5`, `1d20`), by
/// [`roll_dice_into`] otherwise; returns the group's value.
#[inline(always)]
fn roll_group_into(
    term: &DiceTerm,
    roller: &mut dyn Roller,
    out: &mut NodeOutcome,
) -> Result<i64, RollError> {
    if is_plain(term) {
        roll_plain_into(term, roller, out)
    } else {
        roll_dice_into(term, roller, out)
    }
}

/// Whether [`roll_plain_into`] rolls `term`: at most [`PLAIN_DICE`] dice,
/// no modifier, at most one keep or drop, no failure test and no critical
/// marks.
#[inline(always)]
fn is_plain(term: &DiceTerm) -> bool {
    term.count as usize <= PLAIN_DICE
        && term.modifiers.is_empty()
        && term.more_select.is_empty()
        && term.failure.is_none()
        && term.critical_success.is_none()
        && term.critical_failure.is_none()
}

/// [`roll_dice_into`] for a group [`is_plain`] accepts (issue 30, item 6),
/// without its passes over modifiers, its steps of keeps and drops and its
/// critical marks: the faces rolled onto the stack in one call, each die
/// built in the vector, then the keep or drop and the success test. The
/// same dice asked of the roller in the same order, and the same outcome,
/// as [`roll_dice_into`] (a test compares them on every plain group of up
/// to [`PLAIN_DICE`] dice).
#[inline(never)]
fn roll_plain_into(
    term: &DiceTerm,
    roller: &mut dyn Roller,
    out: &mut NodeOutcome,
) -> Result<i64, RollError> {
    let sides = term.sides;
    let die = sides.die();
    let mut buffer = [0u32; PLAIN_DICE];
    let faces = buffer.get_mut(..term.count as usize).unwrap_or_default();
    roller.roll_many(die, faces)?;
    let mut dice = Vec::with_capacity(faces.len());
    dice.extend(
        faces
            .iter()
            .map(|&f| new_die(die, sides, sides.value(f), false)),
    );
    if let Some(select) = term.select {
        apply_select(select, &mut dice);
    }
    let success = term.success;
    let value = match success {
        Some(test) => mark_successes(test, &mut dice),
        None => dice.iter().map(|d| d.value & -i64::from(d.kept)).sum(),
    };
    put(
        out,
        NodeOutcome::Dice {
            // A plain group's lists are empty: a copy of its other fields.
            term: DiceTerm {
                modifiers: Vec::new(),
                more_select: Vec::new(),
                ..*term
            },
            value,
            counts_successes: success.is_some(),
            dice,
        },
    );
    Ok(value)
}

/// Roll a group of dice into `out`; returns the group's value.
fn roll_dice_into(
    term: &DiceTerm,
    roller: &mut dyn Roller,
    out: &mut NodeOutcome,
) -> Result<i64, RollError> {
    let sides = term.sides;
    let die = sides.die();
    let face =
        |roller: &mut dyn Roller| -> Result<i64, RollError> { Ok(sides.value(roller.roll(die)?)) };
    // Room for a few dice explosions or `ra` add, so that the first of
    // them does not move the whole vector.
    let spare = if term.modifiers.iter().any(|m| m.explodes() || m.adds()) {
        4
    } else {
        0
    };
    let mut dice = Vec::with_capacity(term.count as usize + spare);
    // The group's dice in one call per chunk: no call per die through the
    // trait object for a seeded roller.
    // A small chunk: zeroing it is part of every roll.
    let mut faces = [0u32; 16];
    let mut left = term.count as usize;
    while left > 0 {
        let chunk = faces.get_mut(..left.min(16)).unwrap_or_default();
        roller.roll_many(die, chunk)?;
        // Built in place by `extend` (a die built on the stack and pushed
        // was copied, through a stalled store-to-load forward of its small
        // fields: most of the time of a plain group).
        dice.extend(
            chunk
                .iter()
                .map(|&f| new_die(die, sides, sides.value(f), false)),
        );
        left -= chunk.len().max(1).min(left);
    }
    // One pass per run of merged modifiers: `ro1ro2` rerolls once each die
    // showing 1 or 2, as in d20 (issue 30, item 2).
    // Whether a keep or drop comes before more modifiers: every modifier
    // then acts on the dice still kept (issue 30, item 2).
    let stepped = term.modifiers.iter().any(|m| m.select().is_some());
    for pass in super::passes(&term.modifiers) {
        let matches = |v: i64| super::pass_matches(pass, v);
        let Some(first) = pass.first() else {
            continue;
        };
        match *first {
            // A keep or drop with more modifiers after it (issue 30, item
            // 2): among the dice still kept, as d20's `keptset`.
            Modifier::Select(_) => {
                let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
                let mut kept: Vec<bool> = dice.iter().map(|d| d.kept).collect();
                let run: Vec<Select> = pass.iter().filter_map(Modifier::select).collect();
                super::keep_among(&values, &mut kept, &run);
                for (d, k) in dice.iter_mut().zip(kept) {
                    d.kept = k;
                }
            }
            // d20's `ro` by rank (issue 30, item 2): the dice the run
            // selects when it starts, each rerolled once.
            Modifier::RerollOnce(_) | Modifier::RerollOnceRank { .. }
                if pass.iter().any(|m| m.rank().is_some()) =>
            {
                let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
                let all: Vec<bool> = dice.iter().map(|d| d.kept).collect();
                let chosen = super::picked(&values, &all, pass.iter().filter_map(Modifier::pick));
                for (d, c) in dice.iter_mut().zip(chosen) {
                    if c && !roller.short() {
                        rerolled_once(d);
                        d.value = face(roller)?;
                    }
                }
            }
            Modifier::RerollOnce(_) | Modifier::RerollOnceRank { .. } => {
                for d in &mut dice {
                    if d.kept && matches(d.value) && !roller.short() {
                        rerolled_once(d);
                        d.value = face(roller)?;
                    }
                }
            }
            Modifier::Reroll(_) => {
                // The faces a reroll may end on. The parser refuses a reroll
                // on every face, so there is at least one.
                let kept: Vec<i64> = sides.faces().filter(|v| !matches(*v)).collect();
                let kept_die = Die::new(kept.len() as u64).unwrap_or(Die::D6);
                for d in dice.iter_mut().filter(|d| d.kept) {
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
            // d20's `ra` (issue 30, item 2): the first matching die adds
            // one more die to the group, which does not add again.
            Modifier::RerollAdd(_) | Modifier::RerollAddRank { .. } => {
                // The die d20 marks: the first selector of the run that
                // selects any (`SetOperator.select` with `max_targets=1`).
                let marked = pass.iter().find_map(|m| match *m {
                    Modifier::RerollAddRank { count: 0, .. } => None,
                    Modifier::RerollAddRank { highest, .. } => {
                        let key = |i: &usize| dice[*i].value;
                        let kept = |i: &usize| dice[*i].kept;
                        if highest {
                            // The earlier die first among equals, as d20's
                            // stable sort with `reverse=True`.
                            (0..dice.len()).rev().filter(kept).max_by_key(key)
                        } else {
                            (0..dice.len()).filter(kept).min_by_key(key)
                        }
                    }
                    _ => dice
                        .iter()
                        .position(|d| d.kept && m.test().is_some_and(|t| t.test(d.value))),
                });
                if let Some(i) = marked
                    && !roller.short()
                {
                    dice[i].exploded = true;
                    let v = face(roller)?;
                    dice.push(new_die(die, sides, v, true));
                }
            }
            Modifier::Min(x) | Modifier::Max(x) => {
                let x = i64::from(x);
                let min = matches!(first, Modifier::Min(_));
                for d in dice.iter_mut().filter(|d| d.kept) {
                    if (min && d.value < x) || (!min && d.value > x) {
                        d.clamped_from.get_or_insert(d.value);
                        d.value = x;
                    }
                }
            }
            // d20's `e` by rank (issue 30, item 2).
            Modifier::Explode(_) | Modifier::ExplodeRank { .. }
                if pass.iter().any(|m| m.rank().is_some()) =>
            {
                explode_by_rank(pass, &mut dice, roller, die, sides)?;
            }
            Modifier::Explode(_) if term.explode == ExplodeKind::Compound => {
                // Roll20's `!!`: the chain's faces added into the die.
                for d in dice.iter_mut().filter(|d| d.kept) {
                    let mut last = d.value;
                    let mut n = 0;
                    while n < MAX_EXPLOSIONS && matches(last) && !roller.short() {
                        if d.compounded.is_empty() {
                            d.compounded.push(d.value);
                        }
                        d.exploded = true;
                        last = face(roller)?;
                        d.compounded.push(last);
                        d.value += last;
                        n += 1;
                    }
                }
            }
            Modifier::Explode(_) | Modifier::ExplodeRank { .. } => {
                let cap = if term.explode == ExplodeKind::Once {
                    1
                } else {
                    MAX_EXPLOSIONS
                };
                let penetrate = term.explode == ExplodeKind::Penetrate;
                // The dice there before the pass are at depth 0 (no
                // explosion led to them) and show their value. Each die the
                // pass adds is one deeper than the die that rolled it, and
                // showed one more than it counts when it penetrates: its
                // depth is kept, on the stack for the first 32 (no
                // allocation for the common chains), in a vector after.
                let before = dice.len();
                let mut near = [0u32; 32];
                let mut far: Vec<u32> = Vec::new();
                let mut i = 0;
                while let Some(d) = dice.get(i) {
                    let (depth, shown) = match i.checked_sub(before) {
                        None => (0, d.value),
                        Some(k) => (
                            near.get(k)
                                .or_else(|| far.get(k - near.len()))
                                .copied()
                                .unwrap_or(cap),
                            if penetrate { d.value + 1 } else { d.value },
                        ),
                    };
                    if depth < cap && d.kept && matches(shown) && !roller.short() {
                        dice[i].exploded = true;
                        let v = face(roller)?;
                        let value = if penetrate { v - 1 } else { v };
                        match near.get_mut(dice.len() - before) {
                            Some(slot) => *slot = depth + 1,
                            None => far.push(depth + 1),
                        }
                        dice.push(new_die(die, sides, value, true));
                    }
                    i += 1;
                }
            }
        }
    }
    if stepped {
        // After a keep or drop with modifiers after it (issue 30, item 2):
        // the last keeps and drops among the dice still kept.
        let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
        let mut kept: Vec<bool> = dice.iter().map(|d| d.kept).collect();
        let selects: Vec<Select> = term
            .select
            .iter()
            .chain(&term.more_select)
            .copied()
            .collect();
        super::keep_among(&values, &mut kept, &selects);
        for (d, k) in dice.iter_mut().zip(kept) {
            d.kept = k;
        }
    } else if !term.more_select.is_empty() {
        // Several keeps and drops by rank (d20's, issue 30, item 2): the
        // ranks kept, then the dice at those ranks.
        let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
        let selects: Vec<Select> = term
            .select
            .iter()
            .chain(&term.more_select)
            .copied()
            .collect();
        for (d, keep) in dice.iter_mut().zip(super::kept_by_rank(&values, &selects)) {
            d.kept = keep;
        }
    } else if let Some(select) = term.select {
        apply_select(select, &mut dice);
    }
    let value = match term.success {
        Some(test) if term.failure.is_none() => mark_successes(test, &mut dice),
        Some(test) => {
            let mut hits: i64 = 0;
            for d in dice.iter_mut().filter(|d| d.kept) {
                let hit = test.test(d.value);
                d.success = Some(hit);
                hits += i64::from(hit);
                if let Some(f) = term.failure {
                    let miss = f.test(d.value);
                    d.failure = Some(miss);
                    hits -= i64::from(miss);
                }
            }
            hits
        }
        // Without a branch on which dice a keep dropped (mispredicted: it
        // depends on the faces).
        None => dice.iter().map(|d| d.value & -i64::from(d.kept)).sum(),
    };
    mark_critical(term.critical_success, Critical::Success, &mut dice);
    mark_critical(term.critical_failure, Critical::Failure, &mut dice);
    put(
        out,
        NodeOutcome::Dice {
            term: clone_term(term),
            value,
            counts_successes: term.success.is_some(),
            dice,
        },
    );
    Ok(value)
}

/// `d20`'s explosion with selectors by rank (`eh1`, `el2`, `e6eh1`; its
/// `SetOperator.explode`; issue 30, item 2), in rounds: every die the run
/// selects that has not exploded yet explodes, rolling one more die each (in
/// the order of the dice), until a round selects none. Among equal faces the
/// earlier die ranks first, so a new die joins the N highest only when it is
/// strictly higher than one of them, and the rounds always end when every
/// selector is by rank (at most N times the faces explode: the parser's
/// bound). With tests on faces in the run (`e6eh1`) a die
/// [`MAX_EXPLOSIONS`] deep does not explode, as in a plain `e`: every die a
/// round adds is one deeper than the round.
fn explode_by_rank(
    pass: &[Modifier],
    dice: &mut Vec<DieOutcome>,
    roller: &mut dyn Roller,
    die: Die,
    sides: Sides,
) -> Result<(), RollError> {
    let capped = pass.iter().any(|m| m.test().is_some());
    let picks: Vec<super::Pick> = pass.iter().filter_map(Modifier::pick).collect();
    // Whether each die has exploded in this pass (a die `ra` marked has not).
    let mut done = vec![false; dice.len()];
    let mut round = 0u32;
    loop {
        if capped && round >= MAX_EXPLOSIONS {
            return Ok(());
        }
        let values: Vec<i64> = dice.iter().map(|d| d.value).collect();
        let all: Vec<bool> = dice.iter().map(|d| d.kept).collect();
        let chosen = super::picked(&values, &all, picks.iter().copied());
        let now: Vec<usize> = (0..dice.len()).filter(|&i| chosen[i] && !done[i]).collect();
        if now.is_empty() {
            return Ok(());
        }
        for i in now {
            if roller.short() {
                return Ok(());
            }
            done[i] = true;
            dice[i].exploded = true;
            let v = sides.value(roller.roll(die)?);
            dice.push(new_die(die, sides, v, true));
            done.push(false);
        }
        round += 1;
    }
}

/// Record that `d` is rerolled once from its face: a vector of exactly one
/// face when it is the first (a push grows an empty vector through the
/// general path, to room for four).
fn rerolled_once(d: &mut DieOutcome) {
    if d.rerolled_from.is_empty() {
        d.rerolled_from = vec![d.value];
    } else {
        d.rerolled_from.push(d.value);
    }
}

/// Mark each kept die's success on `test` and count them: the comparison
/// chosen once for the group, not once a die.
fn mark_successes(test: Test, dice: &mut [DieOutcome]) -> i64 {
    fn count(dice: &mut [DieOutcome], pass: impl Fn(i64) -> bool) -> i64 {
        let mut hits = 0;
        for d in dice.iter_mut().filter(|d| d.kept) {
            let hit = pass(d.value);
            d.success = Some(hit);
            hits += i64::from(hit);
        }
        hits
    }
    let t = i64::from(test.target);
    match test.compare {
        Compare::AtLeast => count(dice, |v| v >= t),
        Compare::Above => count(dice, |v| v > t),
        Compare::AtMost => count(dice, |v| v <= t),
        Compare::Below => count(dice, |v| v < t),
        Compare::Equal => count(dice, |v| v == t),
    }
}

/// Mark the dice whose value meets Roll20's `cs` or `cf` (a success marks
/// over a failure).
fn mark_critical(test: Option<Test>, mark: Critical, dice: &mut [DieOutcome]) {
    let Some(test) = test else {
        return;
    };
    for d in dice.iter_mut() {
        if test.test(d.value) && d.critical.is_none() {
            d.critical = Some(mark);
        }
    }
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
    let len = dice.len();
    if len <= 8 {
        drop_by_ranks(select, dice);
    } else if len <= 32 {
        drop_small::<32>(select, dice);
    } else {
        let mut order: Vec<usize> = (0..len).collect();
        order.sort_by_key(|&i| dice[i].value);
        mark_dropped(select, &order, dice);
    }
}

/// [`apply_select`] by rank for at most 8 dice (all kept), without
/// sorting or a branch on the faces (a sort's comparisons of random faces
/// were mispredicted, most of the time of a keep). The dropped ranks are
/// the lowest or the highest few, so each is found in turn: the lowest (or
/// highest) die still kept, by a key that is its value with its index in
/// the low bits, so that no two are equal and the earlier of equal values
/// is the lower (the stable order of [`drop_small`]).
fn drop_by_ranks(select: Select, dice: &mut [DieOutcome]) {
    // Values are within ±2^53 (the parser's bounds), so the shift keeps
    // them.
    let key = |(i, d): (usize, &DieOutcome)| (d.value << 3) | (i & 7) as i64;
    let dropped = dropped_range(select, dice.len().min(8));
    let lowest = dropped.start == 0;
    // A die already dropped stands past every key, where the search never
    // takes it (no branch on which dice were dropped).
    let gone = if lowest { i64::MAX } else { i64::MIN };
    for _ in dropped {
        let live = dice
            .iter()
            .enumerate()
            .map(|(i, d)| if d.kept { key((i, d)) } else { gone });
        let found = if lowest { live.min() } else { live.max() };
        if let Some(d) = found
            .filter(|k| *k != gone)
            .and_then(|k| dice.get_mut((k & 7) as usize))
        {
            d.kept = false;
        }
    }
}

/// [`apply_select`] by rank for at most `N` dice, sorted on the stack:
/// (value, index) pairs side by side, put in order by insertion (stable: an
/// equal value stays after the earlier die), so the sort reads no die.
fn drop_small<const N: usize>(select: Select, dice: &mut [DieOutcome]) {
    let len = dice.len().min(N);
    let mut pairs = [(0i64, 0usize); N];
    for (i, d) in dice.iter().enumerate().take(len) {
        let mut j = i;
        while j > 0 && pairs[j - 1].0 > d.value {
            pairs[j] = pairs[j - 1];
            j -= 1;
        }
        pairs[j] = (d.value, i);
    }
    for &(_, i) in pairs.get(dropped_range(select, len)).unwrap_or_default() {
        if let Some(d) = dice.get_mut(i) {
            d.kept = false;
        }
    }
}

/// Mark as dropped the dice `select` drops, given their indices from lowest
/// to highest.
fn mark_dropped(select: Select, order: &[usize], dice: &mut [DieOutcome]) {
    dropped_by_rank(select, order, |i| dice[i].kept = false);
}

/// Call `drop` on each index `select` drops, given the indices from lowest to
/// highest (a selection by rank; by value drops none here).
fn dropped_by_rank(select: Select, order: &[usize], mut drop: impl FnMut(usize)) {
    for &i in order
        .get(dropped_range(select, order.len()))
        .unwrap_or_default()
    {
        drop(i);
    }
}

/// The ranks, from the lowest (0) to the highest (`len - 1`), that a
/// selection by rank drops among `len` dice (none for one by value).
fn dropped_range(select: Select, len: usize) -> std::ops::Range<usize> {
    let n = |k: u32| usize::try_from(k).unwrap_or(usize::MAX).min(len);
    match select {
        Select::KeepHighest(k) => 0..len - n(k),
        Select::KeepLowest(k) => n(k)..len,
        Select::DropHighest(k) => len - n(k)..len,
        Select::DropLowest(k) => 0..n(k),
        // Selections by value never come here (see `apply_select`).
        _ => 0..0,
    }
}

/// A dice group in JSON: its canonical notation, read back by the parser.
mod term_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use super::{Dialect, DiceTerm, Expr, Node};

    pub(super) fn serialize<S: Serializer>(term: &DiceTerm, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(term)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DiceTerm, D::Error> {
        let text = String::deserialize(d)?;
        // The canonical spelling of a group reads the same in every dialect
        // that reads it; `d20` first, then Roll20 (`!!`, `cs`), then
        // Foundry (`xo`).
        let mut first_error = None;
        for dialect in Dialect::ALL {
            match Expr::parse_in(&text, dialect) {
                Ok(expr) => {
                    if let Node::Dice(term) = expr.root {
                        return Ok(term);
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(match first_error {
            Some(e) => D::Error::custom(e),
            None => D::Error::custom(format!("{text:?} is not one group of dice")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{
        DiceTerm, DieOutcome, NodeOutcome, PLAIN_DICE, Select, Sides, drop_by_ranks, drop_small,
        is_plain, new_die, roll_dice_into, roll_plain_into,
    };
    use crate::dice::Die;
    use crate::notation::{Compare, Test};
    use crate::roller::{Roller, Seeded};

    /// Every plain group of 0 to [`PLAIN_DICE`] dice of a few sizes (dF
    /// too), each keep and drop by rank and by value, with and without a
    /// success test, rolled from a few seeds: the plain roll gives the
    /// same outcome as the general one and leaves the roller at the same
    /// place (issue 30, item 6).
    #[test]
    fn the_plain_roll_is_the_general_roll() {
        let tests = [
            None,
            Some(Test {
                compare: Compare::AtLeast,
                target: 2,
            }),
            Some(Test {
                compare: Compare::Equal,
                target: 1,
            }),
        ];
        for count in 0..=PLAIN_DICE as u32 {
            let mut selects = vec![None, Some(Select::KeepBelow(3)), Some(Select::DropAbove(1))];
            for k in 0..=count {
                selects.extend([
                    Some(Select::KeepHighest(k)),
                    Some(Select::KeepLowest(k)),
                    Some(Select::DropHighest(k)),
                    Some(Select::DropLowest(k)),
                ]);
            }
            for sides in [
                Sides::Number(2),
                Sides::Number(6),
                Sides::Number(20),
                Sides::Fudge,
            ] {
                for select in &selects {
                    for success in tests {
                        let term = DiceTerm {
                            select: *select,
                            success,
                            ..DiceTerm::plain(count, sides)
                        };
                        assert!(is_plain(&term));
                        for seed in 0..4 {
                            let (mut a, mut b) = (Seeded::from_seed(seed), Seeded::from_seed(seed));
                            let mut plain = NodeOutcome::Number { value: 0 };
                            let mut general = NodeOutcome::Number { value: 0 };
                            let va = roll_plain_into(&term, &mut a, &mut plain);
                            let vb = roll_dice_into(&term, &mut b, &mut general);
                            assert_eq!(va, vb, "{term}");
                            assert_eq!(plain, general, "{term}");
                            assert_eq!(a.roll(Die::D20), b.roll(Die::D20), "{term}");
                        }
                    }
                }
            }
        }
    }

    /// Every group of 1 to 6 dice of faces 1 to 3 (many ties), each keep
    /// and drop by rank: finding the dropped dice in turn marks the same
    /// dice as the stable sort it stands in for (issue 30, item 6).
    #[test]
    fn dropping_in_turn_marks_what_the_stable_sort_marks() {
        let die = Die::new(3).unwrap_or(Die::D6);
        for len in 1..=6u32 {
            for code in 0..3u32.pow(len) {
                let dice: Vec<DieOutcome> = (0..len)
                    .map(|i| {
                        let face = i64::from(code / 3u32.pow(i) % 3) + 1;
                        new_die(die, Sides::Number(3), face, false)
                    })
                    .collect();
                for k in 0..=len {
                    for select in [
                        Select::KeepHighest(k),
                        Select::KeepLowest(k),
                        Select::DropHighest(k),
                        Select::DropLowest(k),
                    ] {
                        let mut fast = dice.clone();
                        drop_by_ranks(select, &mut fast);
                        let mut sorted = dice.clone();
                        drop_small::<8>(select, &mut sorted);
                        assert_eq!(fast, sorted, "{select:?} of {code} ({len} dice)");
                    }
                }
            }
        }
    }
}
