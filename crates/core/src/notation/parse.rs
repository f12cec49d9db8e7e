//! The recursive-descent parser behind [`Expr::parse`]: one pass over the text,
//! with every cap and bound checked as each node is built.

use super::{
    BinOp, Compare, DiceTerm, Expr, MAX_DEPTH, MAX_EXPLOSIONS, MAX_INPUT_LEN, MAX_NUMBER, MAX_POOL,
    MAX_REROLLS, MAX_ROLLS, MAX_SIDES, MAX_TERMS, MAX_TOTAL, Modifier, Node, NotationError, Select,
    Sides, Test,
};

/// The range of values a node can take, worked out before rolling.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    lo: i128,
    hi: i128,
}

impl Bounds {
    fn exact(v: i128) -> Bounds {
        Bounds { lo: v, hi: v }
    }

    fn of(values: [i128; 4]) -> Bounds {
        Bounds {
            lo: values.into_iter().min().unwrap_or(0),
            hi: values.into_iter().max().unwrap_or(0),
        }
    }
}

pub(super) fn parse(text: &str) -> Result<Expr, NotationError> {
    if text.len() > MAX_INPUT_LEN {
        return Err(NotationError::TooLong {
            len: text.len(),
            max: MAX_INPUT_LEN,
            position: MAX_INPUT_LEN,
        });
    }
    let mut p = Parser {
        text,
        pos: 0,
        dice: 0,
        rolls: 0,
        terms: 0,
        depth: 0,
    };
    p.skip_ws();
    let (root, _) = p.compare()?;
    let before = p.pos;
    p.skip_ws();
    let rest = text.get(p.pos..).unwrap_or_default();
    let comment = match p.peek_char() {
        None => None,
        Some('#') => Some(rest.trim_end().to_string()),
        Some(_) if p.pos > before && plain_words(rest) => Some(rest.trim_end().to_string()),
        Some(_) => return Err(p.unexpected(AFTER_ROLL)),
    };
    Ok(Expr {
        root,
        comment,
        dice: p.dice as u32,
    })
}

/// Whether `rest` (the text after the roll and its white space) is plain
/// words, which may stand as a comment without `#`: it starts with a letter and
/// holds only letters, white space, a `-` or `'` between two letters and the
/// punctuation `. , ; : ! ? " ( )`. No digit and no other sign, so no part of
/// a roll is ever taken for a comment. Issue 30, item 1.
fn plain_words(rest: &str) -> bool {
    let mut prev: Option<char> = None;
    let mut chars = rest.chars().peekable();
    if !chars.peek().is_some_and(|c| c.is_alphabetic()) {
        return false;
    }
    while let Some(c) = chars.next() {
        let ok = c.is_alphabetic()
            || c.is_whitespace()
            || matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '"' | '(' | ')')
            || (matches!(c, '-' | '\'')
                && prev.is_some_and(char::is_alphabetic)
                && chars.peek().is_some_and(|n| n.is_alphabetic()));
        if !ok {
            return false;
        }
        prev = Some(c);
    }
    true
}

const OPERAND: &str = "a number, a die such as `d20` or `(`";
const AFTER_ROLL: &str = "`+`, `-`, `*`, `/`, a comparison such as `>=`, a `[label]`, the end of the roll, or a comment (`#` and any text, or plain words after a space)";
const AFTER_OPERAND_IN_GROUP: &str = "`+`, `-`, `*`, `/` or `)`";

/// A parser over the bytes of the text. It only ever advances over ASCII bytes
/// or whole characters, so `pos` is always a character boundary.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Dice counted so far, before rerolls and explosions.
    dice: u64,
    /// The most dice the roller could be asked for so far.
    rolls: u64,
    /// Numbers and dice groups so far.
    terms: usize,
    /// Current nesting of parentheses and signs.
    depth: usize,
}

/// What a dice group may be followed by, before its checks.
enum Suffix {
    Modifier(Modifier),
    Select(Select),
    Success(Test),
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn peek_lower(&self) -> Option<u8> {
        self.peek().map(|b| b.to_ascii_lowercase())
    }

    fn peek_char(&self) -> Option<char> {
        self.text.get(self.pos..).and_then(|s| s.chars().next())
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b) if b.is_ascii() => {
                    if !char::from(b).is_whitespace() {
                        return;
                    }
                    self.pos += 1;
                }
                Some(_) => match self.peek_char() {
                    Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                    _ => return,
                },
                None => return,
            }
        }
    }

    fn unexpected(&self, expected: impl Into<String>) -> NotationError {
        let expected = expected.into();
        match self.peek_char() {
            Some(found) => NotationError::UnexpectedChar {
                found,
                expected,
                position: self.pos,
            },
            None => NotationError::UnexpectedEnd {
                expected,
                position: self.pos,
            },
        }
    }

    /// A decimal number at `pos`, at most [`MAX_NUMBER`].
    fn number(&mut self, expected: &str) -> Result<u32, NotationError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(b) = self.peek().filter(u8::is_ascii_digit) {
            // value <= MAX_NUMBER here, so this cannot overflow a u64.
            value = value * 10 + u64::from(b - b'0');
            if value > u64::from(MAX_NUMBER) {
                return Err(NotationError::NumberTooLarge {
                    max: MAX_NUMBER,
                    position: start,
                });
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.unexpected(expected));
        }
        Ok(value as u32)
    }

    fn check_bounds(&self, b: Bounds, start: usize) -> Result<Bounds, NotationError> {
        let max = i128::from(MAX_TOTAL);
        for reach in [b.lo, b.hi] {
            if reach.abs() > max {
                return Err(NotationError::TotalTooLarge {
                    reach: reach.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
                    max: MAX_TOTAL,
                    position: start,
                });
            }
        }
        Ok(b)
    }

    /// `expr (("==" | "!=" | "<=" | "<" | ">=" | ">") expr)*`: d20's
    /// comparison of totals, 0 or 1 (issue 30, item 2). Leaves `pos` just
    /// after the last operand.
    fn compare(&mut self) -> Result<(Node, Bounds), NotationError> {
        let (mut node, mut b) = self.expr()?;
        loop {
            let before = self.pos;
            self.skip_ws();
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let (op, len) = match rest {
                [b'=', b'=', ..] => (BinOp::Eq, 2),
                [b'!', b'=', ..] => (BinOp::Ne, 2),
                [b'<', b'=', ..] => (BinOp::Le, 2),
                [b'>', b'=', ..] => (BinOp::Ge, 2),
                [b'<', ..] => (BinOp::Lt, 1),
                [b'>', ..] => (BinOp::Gt, 1),
                _ => {
                    self.pos = before;
                    return Ok((node, b));
                }
            };
            self.pos += len;
            self.skip_ws();
            let (rhs, _) = self.expr()?;
            b = Bounds { lo: 0, hi: 1 };
            node = Node::Binary(op, Box::new([node, rhs]));
        }
    }

    /// `term (("+" | "-") term)*`. Leaves `pos` just after the last operand.
    fn expr(&mut self) -> Result<(Node, Bounds), NotationError> {
        let start = self.pos;
        let (mut node, mut b) = self.term()?;
        loop {
            let before = self.pos;
            self.skip_ws();
            let op = match self.peek() {
                Some(b'+') => BinOp::Add,
                Some(b'-') => BinOp::Sub,
                _ => {
                    self.pos = before;
                    return Ok((node, b));
                }
            };
            self.pos += 1;
            self.skip_ws();
            let (rhs, rb) = self.term()?;
            let nb = match op {
                BinOp::Add => Bounds {
                    lo: b.lo + rb.lo,
                    hi: b.hi + rb.hi,
                },
                _ => Bounds {
                    lo: b.lo - rb.hi,
                    hi: b.hi - rb.lo,
                },
            };
            b = self.check_bounds(nb, start)?;
            node = Node::Binary(op, Box::new([node, rhs]));
        }
    }

    /// `unary (("*" | "//" | "/" | "%") unary)*`.
    fn term(&mut self) -> Result<(Node, Bounds), NotationError> {
        let start = self.pos;
        let (mut node, mut b) = self.unary()?;
        loop {
            let before = self.pos;
            self.skip_ws();
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let (op, len) = match rest {
                [b'*', ..] => (BinOp::Mul, 1),
                [b'/', b'/', ..] => (BinOp::FloorDiv, 2),
                [b'/', ..] => (BinOp::Div, 1),
                [b'%', ..] => (BinOp::Mod, 1),
                _ => {
                    self.pos = before;
                    return Ok((node, b));
                }
            };
            self.pos += len;
            self.skip_ws();
            let rhs_at = self.pos;
            let (rhs, rb) = self.unary()?;
            let nb = if op == BinOp::Mul {
                Bounds::of([b.lo * rb.lo, b.lo * rb.hi, b.hi * rb.lo, b.hi * rb.hi])
            } else {
                if rb.lo <= 0 && rb.hi >= 0 {
                    return Err(NotationError::DivisionByZero {
                        divisor: rhs.to_string(),
                        position: rhs_at,
                    });
                }
                match op {
                    // i128 division truncates toward zero, as rolling does;
                    // rounding down is as monotonic, so the corners bound it.
                    BinOp::Div | BinOp::FloorDiv => {
                        let d = |x: i128, y: i128| {
                            let q = x / y;
                            if op == BinOp::FloorDiv && x % y != 0 && ((x < 0) != (y < 0)) {
                                q - 1
                            } else {
                                q
                            }
                        };
                        Bounds::of([
                            d(b.lo, rb.lo),
                            d(b.lo, rb.hi),
                            d(b.hi, rb.lo),
                            d(b.hi, rb.hi),
                        ])
                    }
                    // The remainder has the divisor's sign and is smaller
                    // than it.
                    _ if rb.lo > 0 => Bounds {
                        lo: 0,
                        hi: rb.hi - 1,
                    },
                    _ => Bounds {
                        lo: rb.lo + 1,
                        hi: 0,
                    },
                }
            };
            b = self.check_bounds(nb, start)?;
            node = Node::Binary(op, Box::new([node, rhs]));
        }
    }

    fn enter(&mut self) -> Result<(), NotationError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(NotationError::TooDeep {
                max: MAX_DEPTH,
                position: self.pos,
            });
        }
        Ok(())
    }

    /// `("-" | "+") unary | atom`.
    fn unary(&mut self) -> Result<(Node, Bounds), NotationError> {
        match self.peek() {
            Some(sign @ (b'-' | b'+')) => {
                self.enter()?;
                self.pos += 1;
                self.skip_ws();
                let (inner, b) = self.unary()?;
                self.depth -= 1;
                if sign == b'+' {
                    Ok((inner, b))
                } else {
                    Ok((
                        Node::Neg(Box::new(inner)),
                        Bounds {
                            lo: -b.hi,
                            hi: -b.lo,
                        },
                    ))
                }
            }
            _ => self.atom(),
        }
    }

    fn count_term(&mut self) -> Result<(), NotationError> {
        if self.terms >= MAX_TERMS {
            return Err(NotationError::TooManyTerms {
                max: MAX_TERMS,
                position: self.pos,
            });
        }
        self.terms += 1;
        Ok(())
    }

    /// `(number | dice | "(" expr ")") label*`.
    fn atom(&mut self) -> Result<(Node, Bounds), NotationError> {
        let (node, b) = self.bare_atom()?;
        let mut labels = Vec::new();
        loop {
            let before = self.pos;
            self.skip_ws();
            if self.peek() != Some(b'[') {
                self.pos = before;
                break;
            }
            labels.push(self.label()?);
        }
        if labels.is_empty() {
            Ok((node, b))
        } else {
            Ok((Node::Labelled(Box::new(node), labels), b))
        }
    }

    /// `"[" any text but "]" "]"` at `pos` (on the `[`): the text between the
    /// brackets. d20's annotation; issue 30, item 1.
    fn label(&mut self) -> Result<String, NotationError> {
        let open = self.pos;
        let rest = self.text.get(open + 1..).unwrap_or_default();
        match rest.find(']') {
            Some(len) => {
                self.pos = open + 1 + len + 1;
                Ok(rest.get(..len).unwrap_or_default().to_string())
            }
            None => Err(NotationError::UnexpectedEnd {
                expected: format!("`]` to close the label opened at position {open}"),
                position: self.text.len(),
            }),
        }
    }

    /// `number | dice | "(" expr ")"`.
    fn bare_atom(&mut self) -> Result<(Node, Bounds), NotationError> {
        let start = self.pos;
        match self.peek_lower() {
            Some(b'(') => {
                self.enter()?;
                self.pos += 1;
                self.skip_ws();
                let (inner, b) = self.compare()?;
                self.skip_ws();
                if self.peek() != Some(b')') {
                    return Err(self.unexpected(AFTER_OPERAND_IN_GROUP));
                }
                self.pos += 1;
                self.depth -= 1;
                Ok((Node::Group(Box::new(inner)), b))
            }
            Some(b'0'..=b'9') => {
                self.count_term()?;
                let n = self.number(OPERAND)?;
                let before = self.pos;
                self.skip_ws();
                if self.peek_lower() != Some(b'd') {
                    self.pos = before;
                    return Ok((Node::Number(n), Bounds::exact(i128::from(n))));
                }
                // `5 dex save`: a number, then a comment, when the `d` after the
                // space does not read as a die.
                let saved = (self.dice, self.rolls);
                match self.dice(start, n) {
                    Err(NotationError::UnexpectedChar { .. }) if self.pos_after(before) => {
                        (self.dice, self.rolls) = saved;
                        self.pos = before;
                        Ok((Node::Number(n), Bounds::exact(i128::from(n))))
                    }
                    other => other,
                }
            }
            Some(b'd') => {
                self.count_term()?;
                self.dice(start, 1)
            }
            _ => Err(self.unexpected(OPERAND)),
        }
    }

    /// Whether there was white space after `before` (the parser skipped some).
    fn pos_after(&self, before: usize) -> bool {
        self.text
            .get(before..)
            .and_then(|s| s.chars().next())
            .is_some_and(char::is_whitespace)
    }

    /// The rest of a dice group from its `d`: sides, modifiers, selection, test.
    fn dice(&mut self, start: usize, count: u32) -> Result<(Node, Bounds), NotationError> {
        self.dice += u64::from(count);
        if self.dice > u64::from(MAX_POOL) {
            return Err(NotationError::TooManyDice {
                count: self.dice,
                max: MAX_POOL,
                position: start,
            });
        }
        self.pos += 1; // the `d`
        self.skip_ws();
        let sides_at = self.pos;
        let sides = match self.peek_lower() {
            Some(b'%') => {
                self.pos += 1;
                Sides::Number(100)
            }
            Some(b'f') => {
                self.pos += 1;
                Sides::Fudge
            }
            _ => {
                let n = self.number("the number of sides, `%` or `F` after `d`")?;
                if n == 0 {
                    return Err(NotationError::ZeroSides { position: sides_at });
                }
                if n > MAX_SIDES {
                    return Err(NotationError::TooManySides {
                        sides: n,
                        max: MAX_SIDES,
                        position: sides_at,
                    });
                }
                Sides::Number(n)
            }
        };
        let mut term = DiceTerm {
            count,
            sides,
            modifiers: Vec::new(),
            select: None,
            success: None,
        };
        loop {
            let before = self.pos;
            self.skip_ws();
            let had_ws = self.pos > before;
            let at = self.pos;
            // After white space, a comparison compares totals (d20's meaning;
            // issue 30, item 2): only a glued one is the group's success test.
            if had_ws && matches!(self.peek(), Some(b'<' | b'>' | b'=')) {
                self.pos = before;
                break;
            }
            match self.suffix() {
                Ok(None) => {
                    self.pos = before;
                    break;
                }
                // `1d20 dex save`: after a space, what does not read as a
                // modifier is the comment (the caller decides).
                Err(NotationError::UnexpectedChar { .. }) if had_ws => {
                    self.pos = before;
                    break;
                }
                Err(e) => return Err(e),
                Ok(Some(s)) => self.add_suffix(&mut term, s, at)?,
            }
        }
        // The worst case of rerolls and explosions.
        let mut pool = u64::from(count);
        let mut rolls = pool;
        // One pass per run of merged modifiers (d20 merges `ro1ro2`).
        for pass in super::passes(&term.modifiers) {
            match pass.first() {
                None => {}
                Some(Modifier::RerollOnce(_)) => rolls += pool,
                Some(Modifier::Reroll(_)) => rolls += pool * u64::from(MAX_REROLLS),
                Some(Modifier::Explode(_)) => {
                    rolls += pool * u64::from(MAX_EXPLOSIONS);
                    pool *= 1 + u64::from(MAX_EXPLOSIONS);
                }
                Some(Modifier::Min(_) | Modifier::Max(_)) => {}
            }
        }
        self.rolls = self.rolls.saturating_add(rolls);
        if self.rolls > MAX_ROLLS {
            return Err(NotationError::TooManyRolls {
                count: self.rolls,
                max: MAX_ROLLS,
                position: start,
            });
        }
        let (pmin, pmax) = (i128::from(count), i128::from(pool));
        let (kmin, kmax) = match term.select {
            None => (pmin, pmax),
            Some(Select::KeepHighest(k) | Select::KeepLowest(k)) => (i128::from(k), i128::from(k)),
            Some(Select::DropHighest(k) | Select::DropLowest(k)) => {
                (pmin - i128::from(k), pmax - i128::from(k))
            }
            // By value: any number of dice, none to all.
            Some(_) => (0, pmax),
        };
        let b = if term.success.is_some() {
            Bounds { lo: 0, hi: kmax }
        } else {
            let (fmin, fmax) = sides.range();
            let (fmin, fmax) = (i128::from(fmin), i128::from(fmax));
            Bounds::of([kmin * fmin, kmax * fmin, kmin * fmax, kmax * fmax])
        };
        let b = self.check_bounds(b, start)?;
        Ok((Node::Dice(term), b))
    }

    /// Check a suffix against what the group already has, and add it.
    fn add_suffix(
        &mut self,
        term: &mut DiceTerm,
        suffix: Suffix,
        at: usize,
    ) -> Result<(), NotationError> {
        let sides = term.sides;
        let die = || sides.to_string();
        let every = |t: Test| term.sides.faces().all(|v| t.test(v));
        let test_text = |t: Test| format!("{}{}", t.compare.symbol(), t.target);
        if term.success.is_some() {
            return Err(NotationError::Misplaced {
                reason: "a success test comes last in a group of dice",
                position: at,
            });
        }
        match suffix {
            Suffix::Modifier(m) => {
                if term.select.is_some() {
                    return Err(NotationError::Misplaced {
                        reason: "rerolls, `mi`, `ma` and `e` come before keep or drop",
                        position: at,
                    });
                }
                // The run this modifier joins (d20 merges `ro1ro2` into one
                // pass): its tests together must leave some face unmatched.
                let run_start = term
                    .modifiers
                    .iter()
                    .rposition(|prev| !prev.merges_with(&m))
                    .map_or(0, |i| i + 1);
                let run = term.modifiers.get(run_start..).unwrap_or_default();
                let every_in_run = |t: Test| {
                    term.sides
                        .faces()
                        .all(|v| t.test(v) || super::pass_matches(run, v))
                };
                match m {
                    Modifier::Reroll(t) | Modifier::Explode(t) if every_in_run(t) => {
                        // `<7`, or for a run the whole run after its first
                        // operator: `1rr2` in `rr1rr2`.
                        let test = if run.is_empty() {
                            test_text(t)
                        } else {
                            let op_len = if matches!(m, Modifier::Reroll(_)) {
                                2
                            } else {
                                1
                            };
                            let mut all: String = run.iter().map(ToString::to_string).collect();
                            all.push_str(&m.to_string());
                            all.get(op_len..).unwrap_or_default().to_string()
                        };
                        return Err(NotationError::EveryFaceMatches {
                            operator: if matches!(m, Modifier::Reroll(_)) {
                                "rr"
                            } else {
                                "e"
                            },
                            test,
                            die: die(),
                            position: at,
                        });
                    }
                    Modifier::Explode(_)
                        if run.is_empty()
                            && term
                                .modifiers
                                .iter()
                                .any(|m| matches!(m, Modifier::Explode(_))) =>
                    {
                        return Err(NotationError::Misplaced {
                            reason: "explosions go together in one run (`e5e6`), not on both sides of other modifiers",
                            position: at,
                        });
                    }
                    Modifier::Min(n) | Modifier::Max(n) => {
                        let (lo, hi) = term.sides.range();
                        if !(lo..=hi).contains(&i64::from(n)) {
                            return Err(NotationError::NotAFace {
                                operator: if matches!(m, Modifier::Min(_)) {
                                    "mi"
                                } else {
                                    "ma"
                                },
                                target: n,
                                die: die(),
                                position: at,
                            });
                        }
                    }
                    _ => {}
                }
                term.modifiers.push(m);
            }
            Suffix::Select(s) => {
                if term.select.is_some() {
                    return Err(NotationError::Misplaced {
                        reason: "at most one keep or drop per group of dice",
                        position: at,
                    });
                }
                let (verb, n) = match s {
                    Select::KeepHighest(n) | Select::KeepLowest(n) => ("keep", n),
                    Select::DropHighest(n) | Select::DropLowest(n) => ("drop", n),
                    // By value: no count to check.
                    _ => ("keep", 0),
                };
                if n > term.count {
                    return Err(NotationError::SelectsMoreThanRolled {
                        verb,
                        selected: n,
                        rolled: term.count,
                        position: at,
                    });
                }
                term.select = Some(s);
            }
            Suffix::Success(t) => {
                if every(t) {
                    return Err(NotationError::EveryFaceSucceeds {
                        test: test_text(t),
                        die: die(),
                        position: at,
                    });
                }
                term.success = Some(t);
            }
        }
        Ok(())
    }

    /// A modifier, selection or success test starting at `pos`, or `None` when
    /// none starts here.
    fn suffix(&mut self) -> Result<Option<Suffix>, NotationError> {
        let Some(first) = self.peek_lower() else {
            return Ok(None);
        };
        match first {
            b'<' | b'>' | b'=' => Ok(Some(Suffix::Success(self.test(true, "")?))),
            b'e' => {
                self.pos += 1;
                self.skip_ws();
                Ok(Some(Suffix::Modifier(Modifier::Explode(
                    self.test(false, "a number after `e`")?,
                ))))
            }
            b'r' => {
                self.pos += 1;
                let once = match self.peek_lower() {
                    Some(b'o') => true,
                    Some(b'r') => false,
                    _ => return Err(self.unexpected("`o` or `r` after `r` (`ro1`, `rr1`)")),
                };
                self.pos += 1;
                self.skip_ws();
                let t = if once {
                    self.test(false, "a number after `ro`")?
                } else {
                    self.test(false, "a number after `rr`")?
                };
                Ok(Some(Suffix::Modifier(if once {
                    Modifier::RerollOnce(t)
                } else {
                    Modifier::Reroll(t)
                })))
            }
            b'm' => {
                self.pos += 1;
                let min = match self.peek_lower() {
                    Some(b'i') => true,
                    Some(b'a') => false,
                    _ => return Err(self.unexpected("`i` or `a` after `m` (`mi2`, `ma5`)")),
                };
                self.pos += 1;
                self.skip_ws();
                Ok(Some(Suffix::Modifier(if min {
                    Modifier::Min(self.number("a number after `mi`")?)
                } else {
                    Modifier::Max(self.number("a number after `ma`")?)
                })))
            }
            b'k' | b'd' | b'p' => self.select().map(|s| Some(Suffix::Select(s))),
            _ => Ok(None),
        }
    }

    fn select(&mut self) -> Result<Select, NotationError> {
        let (keep, first) = match self.peek_lower() {
            Some(b'k') => (true, 'k'),
            Some(b'd') => (false, 'd'),
            _ => (false, 'p'),
        };
        self.pos += 1;
        // `k<3`, `p>4`: d20's selectors by value (issue 30, item 2).
        if let Some(below @ (b'<' | b'>')) = self.peek() {
            self.pos += 1;
            self.skip_ws();
            let below = below == b'<';
            let (select, expected): (fn(u32) -> Select, &str) = match (keep, below) {
                (true, true) => (Select::KeepBelow, "a number after `k<`"),
                (true, false) => (Select::KeepAbove, "a number after `k>`"),
                (false, true) => (Select::DropBelow, "a number after `p<`"),
                (false, false) => (Select::DropAbove, "a number after `p>`"),
            };
            return Ok(select(self.number(expected)?));
        }
        let high = match self.peek_lower() {
            Some(b'h') => true,
            Some(b'l') => false,
            _ => {
                return Err(self.unexpected(format!(
                    "`h` or `l` after `{first}` (`{first}h1` for the highest, `{first}l1` for the lowest)"
                )));
            }
        };
        self.pos += 1;
        // Static messages: the happy path allocates nothing.
        let (select, expected): (fn(u32) -> Select, &str) = match (keep, high) {
            (true, true) => (Select::KeepHighest, "a number after `kh`"),
            (true, false) => (Select::KeepLowest, "a number after `kl`"),
            (false, true) => (Select::DropHighest, "a number after `dh`"),
            (false, false) => (Select::DropLowest, "a number after `dl`"),
        };
        self.skip_ws();
        Ok(select(self.number(expected)?))
    }

    /// `compare number`, or with `compare_required` false also a bare number
    /// (equality). `expected_bare` names what is missing when nothing follows.
    fn test(&mut self, compare_required: bool, expected_bare: &str) -> Result<Test, NotationError> {
        let compare = match self.peek() {
            Some(b'>') => Some(Compare::Above),
            Some(b'<') => Some(Compare::Below),
            Some(b'=') => Some(Compare::Equal),
            _ => None,
        };
        let Some(compare) = compare else {
            debug_assert!(!compare_required);
            let target = self.number(expected_bare)?;
            return Ok(Test {
                compare: Compare::Equal,
                target,
            });
        };
        self.pos += 1;
        let compare = if self.peek() == Some(b'=') {
            self.pos += 1;
            match compare {
                Compare::Above => Compare::AtLeast,
                Compare::Below => Compare::AtMost,
                other => other, // `==`
            }
        } else {
            compare
        };
        self.skip_ws();
        let expected = match compare {
            Compare::AtLeast => "a number after `>=`",
            Compare::Above => "a number after `>`",
            Compare::AtMost => "a number after `<=`",
            Compare::Below => "a number after `<`",
            Compare::Equal => "a number after `=`",
        };
        let target = self.number(expected)?;
        Ok(Test { compare, target })
    }
}
