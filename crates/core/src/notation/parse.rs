//! The recursive-descent parser behind [`Expr::parse`]: one pass over the text,
//! with every cap and bound checked as each node is built.

use super::ratio::Ratio;
use super::{
    BinOp, Compare, Decimal, Dialect, DiceTerm, ExplodeKind, Expr, Func, MAX_DECIMALS,
    MAX_DENOMINATOR, MAX_DEPTH, MAX_EXPLOSIONS, MAX_INPUT_LEN, MAX_NUMBER, MAX_POOL, MAX_REROLLS,
    MAX_ROLLS, MAX_SIDES, MAX_TERMS, MAX_TOTAL, Modifier, Node, NotationError, Select, SetTerm,
    Sides, Test, VarDice,
};

/// The range of values a node can take, worked out before rolling: whole
/// numbers `lo..=hi` that enclose it, and for `d20`'s fractions (issue 30,
/// item 2) the exact real range `rlo..=rhi` and the largest denominator any
/// value can have (1 for a node that is always a whole number).
#[derive(Clone, Debug)]
struct Bounds {
    lo: i128,
    hi: i128,
    /// The exact range, only for a node built from fractions: boxed, so
    /// that the bounds of whole numbers, moved with every node the parser
    /// returns, stay small.
    real: Option<Box<Real>>,
}

/// The exact part of [`Bounds`]: `rlo..=rhi`, denominators up to `den`.
#[derive(Clone, Copy, Debug)]
struct Real {
    rlo: Ratio,
    rhi: Ratio,
    den: i128,
}

impl Bounds {
    fn int(lo: i128, hi: i128) -> Bounds {
        Bounds { lo, hi, real: None }
    }

    fn exact(v: i128) -> Bounds {
        Bounds::int(v, v)
    }

    fn of(values: [i128; 4]) -> Bounds {
        Bounds::int(
            values.into_iter().min().unwrap_or(0),
            values.into_iter().max().unwrap_or(0),
        )
    }

    /// The exact range `rlo..=rhi` with denominators up to `den`.
    fn real(rlo: Ratio, rhi: Ratio, den: i128) -> Bounds {
        Bounds {
            lo: rlo.floor(),
            hi: rhi.ceil(),
            real: Some(Box::new(Real { rlo, rhi, den })),
        }
    }

    /// The exact low end (`lo` for whole numbers).
    fn rlo(&self) -> Ratio {
        self.real.as_ref().map_or(Ratio::int(self.lo), |r| r.rlo)
    }

    /// The exact high end (`hi` for whole numbers).
    fn rhi(&self) -> Ratio {
        self.real.as_ref().map_or(Ratio::int(self.hi), |r| r.rhi)
    }

    /// The largest denominator a value can have (1 for whole numbers).
    fn den(&self) -> i128 {
        self.real.as_ref().map_or(1, |r| r.den)
    }

    /// The smallest and largest of four exact values.
    fn real_of(values: [Option<Ratio>; 4], den: i128) -> Option<Bounds> {
        let mut lo: Option<Ratio> = None;
        let mut hi: Option<Ratio> = None;
        for v in values {
            let v = v?;
            lo = Some(lo.map_or(v, |l| l.min(v)));
            hi = Some(hi.map_or(v, |h| h.max(v)));
        }
        Some(Bounds::real(lo?, hi?, den))
    }

    /// Whether some value may not be a whole number.
    fn fractional(&self) -> bool {
        self.den() > 1
    }
}

#[inline(always)]
pub(super) fn parse(text: &str, dialect: Dialect) -> Result<Expr, NotationError> {
    // One result, built where it is returned: the tree is parsed straight
    // into its place in the answer (a tree moved there after it was built
    // was read back wider than it was written: a stalled store-to-load
    // forward on every parse).
    let mut out = Ok(Expr {
        root: Node::Number(0),
        comment: None,
        dice: 0,
        dialect,
        fractional: false,
    });
    if text.len() > MAX_INPUT_LEN {
        out = Err(too_long(text));
    } else if let Ok(expr) = &mut out
        && !(dialect == Dialect::D20 && fast_into(text, expr))
        && let Err(e) = parse_full_into(text, expr)
    {
        out = Err(e);
    }
    out
}

/// The error for a text longer than [`MAX_INPUT_LEN`], out of the way of
/// [`parse`], which is inlined.
#[cold]
#[inline(never)]
fn too_long(text: &str) -> NotationError {
    NotationError::TooLong {
        len: text.len(),
        max: MAX_INPUT_LEN,
        position: MAX_INPUT_LEN,
    }
}

/// [`parse`] by the full recursive descent, whatever the text.
#[cfg(test)]
fn parse_full(text: &str, dialect: Dialect) -> Result<Expr, NotationError> {
    let mut expr = Expr {
        root: Node::Number(0),
        comment: None,
        dice: 0,
        dialect,
        fractional: false,
    };
    parse_full_into(text, &mut expr)?;
    Ok(expr)
}

/// [`parse`] by the full recursive descent into `expr`, which holds a
/// placeholder number for its root and the dialect to read in.
#[inline(never)]
fn parse_full_into(text: &str, expr: &mut Expr) -> Result<(), NotationError> {
    let dialect = expr.dialect;
    let mut p = Parser {
        text,
        pos: 0,
        dice: 0,
        rolls: 0,
        terms: 0,
        depth: 0,
        dialect,
        divs: Vec::new(),
        fractional: false,
        sides_vary: false,
    };
    p.skip_ws();
    let root = &mut expr.root;
    p.compare(root)?;
    let before = p.pos;
    p.skip_ws();
    let rest = text.get(p.pos..).unwrap_or_default();
    let comment = match p.peek_char() {
        None => None,
        Some('#') => Some(rest.trim_end().to_string()),
        Some(_) if p.pos > before && plain_words(rest) => Some(rest.trim_end().to_string()),
        Some(_) => return Err(p.unexpected(AFTER_ROLL)),
    };
    if dialect != Dialect::D20 {
        check_divs(root, false, &p.divs, &mut 0, dialect)?;
    }
    expr.comment = comment;
    expr.dice = p.dice as u32;
    expr.fractional = p.fractional;
    Ok(())
}

/// The most terms, dice in a group and sides [`fast_into`] reads: well within
/// every cap, so no check of the full parser can fail on what it accepts.
const FAST_TERMS: usize = 8;
const FAST_COUNT: u32 = 100;
const FAST_SIDES: u32 = 1_000;
const FAST_NUMBER: u32 = 1_000_000;
/// The deepest parentheses [`fast_into`] reads.
const FAST_DEPTH: usize = 4;
/// The largest value [`fast_into`] lets an expression reach, far below
/// [`MAX_TOTAL`].
const FAST_REACH: u128 = 1 << 50;

/// [`fast_into`] into a new expression (the tests compare it with
/// [`parse_full`]).
#[cfg(test)]
fn fast(text: &str) -> Option<Expr> {
    let mut expr = Expr {
        root: Node::Number(0),
        comment: None,
        dice: 0,
        dialect: Dialect::D20,
        fractional: false,
    };
    fast_into(text, &mut expr).then_some(expr)
}

/// The common forms in one pass, for speed (issue 30, item 6): sums and
/// products (`+`, `-`, `*`, spaces around them or not) of numbers, dice
/// groups and parenthesised sums, each group `NdS` with at most one `roT`
/// or `eT`, then at most one `khN`, `klN`, `dhN`, `dlN` (`phN`, `plN`),
/// then at most one glued success test: the benchmark's `10d6>=5`,
/// `4d6kh3`, `1d20+5`, `2d6 + 1d4`, `(1d4 + 1) * 2`, `4d6ro<3kh3`,
/// `1d6e6 + 2`. Lower case, at most [`FAST_TERMS`] terms, [`FAST_COUNT`]
/// dice of [`FAST_SIDES`] sides, numbers up to [`FAST_NUMBER`],
/// [`FAST_DEPTH`] parentheses deep, values within [`FAST_REACH`]: every cap
/// holds. Anything else (and anything the full parser would refuse, such as
/// a keep of more dice than rolled or a test every face passes) is refused
/// (`false`, `expr` left as it was), and the full parser reads it. What
/// this accepts, it builds exactly as the full parser does (the same tree
/// and dice count; property tests compare them), so the same seed rolls
/// the same dice.
///
/// `expr` holds a placeholder number for its root; the answer is whether
/// the text was read into it.
#[inline(never)]
fn fast_into(text: &str, expr: &mut Expr) -> bool {
    let mut f = Fast {
        b: text.as_bytes(),
        i: 0,
        dice: 0,
        terms: 0,
    };
    let read = f
        .sum(0, &mut expr.root)
        .is_some_and(|reach| f.i == f.b.len() && reach <= FAST_REACH);
    if read {
        expr.dice = f.dice;
    } else {
        // Back to the placeholder for the full parser.
        expr.root = Node::Number(0);
    }
    read
}

/// The state of [`fast_into`]: the text, where it stands, the dice and terms
/// read so far. Each level writes its node into its caller's slot, and an
/// operator's right operand is read straight into its box, so no node is
/// moved after it is built.
struct Fast<'a> {
    b: &'a [u8],
    i: usize,
    dice: u32,
    terms: usize,
}

/// Put `node` into `slot`, which holds a placeholder number: the
/// placeholder needs no drop (forgetting it frees nothing), so the drop
/// glue of a whole node is not run for it.
#[inline(always)]
fn put(slot: &mut Node, node: Node) {
    std::mem::forget(std::mem::replace(slot, node));
}

/// A box of two placeholders, written in its allocation (`Box::new` built
/// the pair on the stack and copied it whole).
#[inline(always)]
fn placeholder_pair() -> Box<[Node; 2]> {
    Box::write(Box::new_uninit(), [Node::Number(0), Node::Number(0)])
}

impl Fast<'_> {
    #[inline(always)]
    fn spaces(&mut self) {
        while self.b.get(self.i) == Some(&b' ') {
            self.i += 1;
        }
    }

    /// The operator at `i` after spaces, or `None` with `i` left as it was.
    #[inline(always)]
    fn operator(&mut self, products: bool) -> Option<BinOp> {
        let before = self.i;
        self.spaces();
        let op = match self.b.get(self.i) {
            Some(b'+') if !products => BinOp::Add,
            Some(b'-') if !products => BinOp::Sub,
            Some(b'*') if products => BinOp::Mul,
            _ => {
                self.i = before;
                return None;
            }
        };
        self.i += 1;
        self.spaces();
        Some(op)
    }

    /// `product (("+" | "-") product)*` into `out`; the largest value it
    /// reaches.
    fn sum(&mut self, depth: usize, out: &mut Node) -> Option<u128> {
        let (plus, times) = self.operators_ahead();
        if !plus {
            return self.product_ahead(depth, out, times);
        }
        // The first operand is read straight into the box it ends in, and
        // each operator's node into the box of the next (left to right, as
        // before): a group moved into its box after it was written was read
        // back wider than it was written, a stalled store-to-load forward.
        let mut pair = placeholder_pair();
        let reach = self.product_ahead(depth, &mut pair[0], times)?;
        self.chain(depth, out, pair, reach, false)
    }

    /// `atom ("*" atom)*` into `out`, its operands read into their boxes
    /// as [`Fast::sum`]'s are.
    #[inline(always)]
    fn product(&mut self, depth: usize, out: &mut Node) -> Option<u128> {
        let times = self.operators_ahead().1;
        self.product_ahead(depth, out, times)
    }

    /// [`Fast::product`], `times` telling whether a `*` stands ahead.
    #[inline(always)]
    fn product_ahead(&mut self, depth: usize, out: &mut Node, times: bool) -> Option<u128> {
        if !times {
            return self.atom(depth, out);
        }
        let mut pair = placeholder_pair();
        let reach = self.atom(depth, &mut pair[0])?;
        self.chain(depth, out, pair, reach, true)
    }

    /// The rest of a sum (`products` false: `+`/`-` between products) or
    /// of a product (`products` true: `*` between atoms) into `out`, its
    /// first operand already read into `pair[0]` reaching `reach`: each
    /// next operand is read into the pair's second box, and each
    /// operator's node into the first box of the next pair (left to
    /// right). The largest value the chain reaches (sums add, products
    /// multiply). Inlined into [`Fast::sum`] and [`Fast::product_ahead`],
    /// so `products` is a constant there.
    #[inline(always)]
    fn chain(
        &mut self,
        depth: usize,
        out: &mut Node,
        mut pair: Box<[Node; 2]>,
        mut reach: u128,
        products: bool,
    ) -> Option<u128> {
        let mut op = self.operator(products)?;
        loop {
            reach = if products {
                reach.saturating_mul(self.atom(depth, &mut pair[1])?)
            } else {
                reach.saturating_add(self.product(depth, &mut pair[1])?)
            };
            match self.operator(products) {
                Some(next) => {
                    pair = Box::write(Box::new_uninit(), [Node::Binary(op, pair), Node::Number(0)]);
                    op = next;
                }
                None => {
                    put(out, Node::Binary(op, pair));
                    return Some(reach);
                }
            }
        }
    }

    /// Whether operators stand ahead, outside parentheses, before the level
    /// ends (a `)` closing it, or the end): a `+` or `-` (a sum's), and a
    /// `*` before the first of those (the first product's). No number,
    /// dice group or modifier [`fast_into`] reads holds one of them. When it
    /// says yes but the text does not read, [`fast_into`] refuses it.
    #[inline(always)]
    fn operators_ahead(&self) -> (bool, bool) {
        let mut depth = 0u32;
        let mut times = false;
        for &c in self.b.get(self.i..).unwrap_or_default() {
            match c {
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                b'+' | b'-' if depth == 0 => return (true, times),
                b'*' if depth == 0 => times = true,
                _ => {}
            }
        }
        (false, times)
    }

    /// A number, a dice group or `"(" sum ")"` into `out`.
    #[inline(always)]
    fn atom(&mut self, depth: usize, out: &mut Node) -> Option<u128> {
        if self.b.get(self.i) != Some(&b'(') {
            self.terms += 1;
            if self.terms > FAST_TERMS {
                return None;
            }
            return fast_term(self.b, &mut self.i, &mut self.dice, out);
        }
        if depth >= FAST_DEPTH {
            return None;
        }
        self.i += 1;
        self.spaces();
        let mut inner = Box::write(Box::new_uninit(), Node::Number(0));
        let reach = self.sum(depth + 1, &mut inner)?;
        self.spaces();
        if self.b.get(self.i) != Some(&b')') {
            return None;
        }
        self.i += 1;
        put(out, Node::Group(inner));
        Some(reach)
    }
}

/// Digits at `i`, at most [`FAST_NUMBER`].
#[inline(always)]
fn fast_number(b: &[u8], i: &mut usize) -> Option<u32> {
    let start = *i;
    let mut v: u32 = 0;
    while let Some(d) = b.get(*i).filter(|d| d.is_ascii_digit()) {
        v = v * 10 + u32::from(d - b'0');
        *i += 1;
        if v > FAST_NUMBER {
            return None;
        }
    }
    (*i > start).then_some(v)
}

/// A test at `i` as [`Parser::test`] reads it in `d20` (no white space):
/// `>=5`, `>5`, `<=2`, `<3`, `=6`, `==6`, or with `bare` a number alone
/// (equal).
fn fast_test(b: &[u8], i: &mut usize, bare: bool) -> Option<Test> {
    let compare = match b.get(*i) {
        Some(b'>') => Compare::Above,
        Some(b'<') => Compare::Below,
        Some(b'=') => Compare::Equal,
        _ if bare => {
            return Some(Test {
                compare: Compare::Equal,
                target: fast_number(b, i)?,
            });
        }
        _ => return None,
    };
    *i += 1;
    let compare = if b.get(*i) == Some(&b'=') {
        *i += 1;
        match compare {
            Compare::Above => Compare::AtLeast,
            Compare::Below => Compare::AtMost,
            other => other,
        }
    } else {
        compare
    };
    Some(Test {
        compare,
        target: fast_number(b, i)?,
    })
}

/// Whether a number or a dice group of [`fast_into`] may end before `next`: an
/// operator, a closing parenthesis, a space or the end (anything else is
/// the full parser's: `4d6kh3ro1`, `1d20[STR]`, `1.5`).
fn fast_end(next: Option<&u8>) -> bool {
    matches!(next, None | Some(b'+' | b'-' | b'*' | b')' | b' '))
}

/// A number or a dice group of [`fast_into`] at `i` into `out`, and the
/// largest value it reaches.
#[inline(always)]
fn fast_term(b: &[u8], i: &mut usize, dice: &mut u32, out: &mut Node) -> Option<u128> {
    let count = if b.get(*i) == Some(&b'd') {
        1
    } else {
        let n = fast_number(b, i)?;
        if b.get(*i) != Some(&b'd') {
            if !fast_end(b.get(*i)) {
                return None;
            }
            put(out, Node::Number(n));
            return Some(u128::from(n));
        }
        n
    };
    *i += 1;
    let sides = fast_number(b, i)?;
    if !(1..=FAST_COUNT).contains(&count) || !(2..=FAST_SIDES).contains(&sides) {
        return None;
    }
    *dice += count;
    // Built in `out` itself, field by field: a group built on the stack and
    // moved into `out` was read back wider than it was written (a stalled
    // store-to-load forward: most of the time of a short parse).
    put(
        out,
        Node::Dice(DiceTerm::plain(count, Sides::Number(sides))),
    );
    let Node::Dice(term) = out else {
        return None;
    };
    // Whether every face 1..=sides passes a test: a test is a threshold or
    // an equality, so the lowest and the highest face tell (no loop over a
    // d1000's faces).
    let every_face = |t: Test| t.test(1) && t.test(i64::from(sides));
    // One `roT` or `eT`.
    match (b.get(*i), b.get(*i + 1)) {
        (Some(b'r'), Some(b'o')) => {
            *i += 2;
            term.modifiers = vec![Modifier::RerollOnce(fast_test(b, i, true)?)];
        }
        (Some(b'e'), _) => {
            *i += 1;
            let t = fast_test(b, i, true)?;
            // An explosion on every face is refused: the full parser says so.
            if every_face(t) {
                return None;
            }
            term.modifiers = vec![Modifier::Explode(t)];
        }
        _ => {}
    }
    // One keep or drop by rank, within the dice rolled.
    if let (Some(&k @ (b'k' | b'd' | b'p')), Some(&hl @ (b'h' | b'l'))) = (b.get(*i), b.get(*i + 1))
    {
        *i += 2;
        let n = fast_number(b, i)?;
        if n > count {
            return None;
        }
        term.select = Some(match (k == b'k', hl == b'h') {
            (true, true) => Select::KeepHighest(n),
            (true, false) => Select::KeepLowest(n),
            (false, true) => Select::DropHighest(n),
            (false, false) => Select::DropLowest(n),
        });
    }
    // One glued success test that some face fails.
    if matches!(b.get(*i), Some(b'>' | b'<' | b'=')) {
        let t = fast_test(b, i, false)?;
        if every_face(t) {
            return None;
        }
        term.success = Some(t);
    }
    if !fast_end(b.get(*i)) {
        return None;
    }
    // Every die exploding as often as rolling lets it, at its highest face.
    let chain = if term.modifiers.is_empty() {
        1
    } else {
        1 + u128::from(MAX_EXPLOSIONS)
    };
    Some(u128::from(count) * u128::from(sides) * chain)
}

/// Replace `out` by `out op rhs` (both operands in one allocation).
fn binary(out: &mut Node, op: BinOp, rhs: Node) {
    let lhs = std::mem::replace(out, Node::Number(0));
    *out = Node::Binary(op, Box::new([lhs, rhs]));
}

/// Roll20's and Foundry's `/` gives a fraction (issue 30, item 3): it is read
/// only as the whole argument of `floor()`, `ceil()` or `round()`, where the
/// quotient is rounded exactly. `divs` holds the position of each `/` in the
/// order written, which is the order an in-order walk meets them.
fn check_divs(
    node: &Node,
    allowed: bool,
    divs: &[usize],
    i: &mut usize,
    dialect: Dialect,
) -> Result<(), NotationError> {
    match node {
        Node::Number(_) | Node::Decimal(_) | Node::Dice(_) => Ok(()),
        Node::VarDice(cs) => cs
            .iter()
            .try_for_each(|x| check_divs(x, false, divs, i, dialect)),
        Node::ModifiedVarDice(v) => [&v.count, &v.sides]
            .into_iter()
            .try_for_each(|x| check_divs(x, false, divs, i, dialect)),
        Node::Group(x) => check_divs(x, allowed, divs, i, dialect),
        Node::Neg(x) | Node::Labelled(x, _) => check_divs(x, false, divs, i, dialect),
        Node::Func(f, x) => check_divs(x, *f != Func::Abs, divs, i, dialect),
        Node::Set(set) => set
            .items
            .iter()
            .try_for_each(|x| check_divs(x, false, divs, i, dialect)),
        Node::Binary(op, ab) => {
            check_divs(&ab[0], false, divs, i, dialect)?;
            if *op == BinOp::Div {
                let position = divs.get(*i).copied().unwrap_or_default();
                *i += 1;
                if !allowed {
                    return Err(NotationError::NotInDialect {
                        reason: "`/` gives a fraction; Tabula counts in whole numbers, so write the division as the whole of floor(), ceil() or round() (`floor(1d6 / 2)`)".into(),
                        dialect,
                        position,
                    });
                }
            }
            check_divs(&ab[1], false, divs, i, dialect)
        }
    }
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
    /// Whose meaning the text is read with.
    dialect: Dialect,
    /// Where each `/` stands, outside `d20` (see [`check_divs`]).
    divs: Vec<usize>,
    /// Whether a `d20` `/` or a decimal was read: the expression is then
    /// worked out in exact fractions (issue 30, item 2).
    fractional: bool,
    /// Whether the modifiers being read are those of variable dice whose
    /// sides vary (`2d(1d4)!`): a default highest face is then refused.
    sides_vary: bool,
}

/// What a dice group may be followed by, before its checks.
enum Suffix {
    Modifier(Modifier),
    Select(Select),
    Success(Test),
    /// Roll20's `!`, `!!`, `!p`, Foundry's `x`, `xo`.
    Explode(ExplodeKind, Test),
    /// Roll20's `f`, Foundry's `df`.
    Failure(Test),
    /// Roll20's `cs` (true) or `cf` (false).
    Critical(bool, Test),
}

/// Which face a Foundry modifier without a number means.
#[derive(Clone, Copy)]
enum DefaultFace {
    Lowest,
    Highest,
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

    /// Skip white space. Most calls stand on a byte that is not white
    /// space: that test is inlined, the loop is not.
    #[inline(always)]
    fn skip_ws(&mut self) {
        match self.peek() {
            Some(b) if b.is_ascii() && !char::from(b).is_whitespace() => {}
            None => {}
            Some(_) => self.skip_ws_loop(),
        }
    }

    fn skip_ws_loop(&mut self) {
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
        if b.den() > MAX_DENOMINATOR {
            return Err(NotationError::FractionTooFine {
                denominator: u64::try_from(b.den()).unwrap_or(u64::MAX),
                max: MAX_DENOMINATOR as u64,
                position: start,
            });
        }
        Ok(b)
    }

    /// Bounds worked out in fractions overflowed: far past every cap.
    fn too_large(&self, start: usize) -> NotationError {
        NotationError::TotalTooLarge {
            reach: i64::MAX,
            max: MAX_TOTAL,
            position: start,
        }
    }

    /// `expr (("==" | "!=" | "<=" | "<" | ">=" | ">") expr)*`: d20's
    /// comparison of totals, 0 or 1 (issue 30, item 2). Leaves `pos` just
    /// after the last operand.
    fn compare(&mut self, out: &mut Node) -> Result<Bounds, NotationError> {
        let mut b = self.expr(out)?;
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
                    return Ok(b);
                }
            };
            if self.dialect != Dialect::D20 {
                return Err(NotationError::NotInDialect {
                    reason: "a comparison of totals is d20's; glue `>`, `<` or `=` to a dice group to count its successes (`10d10>7`)".into(),
                    dialect: self.dialect,
                    position: self.pos,
                });
            }
            self.pos += len;
            self.skip_ws();
            let mut rhs = Node::Number(0);
            self.expr(&mut rhs)?;
            b = Bounds::int(0, 1);
            binary(out, op, rhs);
        }
    }

    /// `term (("+" | "-") term)*`. Leaves `pos` just after the last operand.
    #[inline(always)]
    fn expr(&mut self, out: &mut Node) -> Result<Bounds, NotationError> {
        let start = self.pos;
        let mut b = self.term(out)?;
        loop {
            let before = self.pos;
            self.skip_ws();
            let op = match self.peek() {
                Some(b'+') => BinOp::Add,
                Some(b'-') => BinOp::Sub,
                _ => {
                    self.pos = before;
                    return Ok(b);
                }
            };
            self.pos += 1;
            self.skip_ws();
            let mut rhs = Node::Number(0);
            let rb = self.term(&mut rhs)?;
            let nb = if b.fractional() || rb.fractional() {
                // d20's fractions (issue 30, item 2): exact real bounds.
                let den = b.den().saturating_mul(rb.den());
                let r = match op {
                    BinOp::Add => b.rlo().add(rb.rlo()).zip(b.rhi().add(rb.rhi())),
                    _ => b.rlo().sub(rb.rhi()).zip(b.rhi().sub(rb.rlo())),
                };
                let (lo, hi) = r.ok_or_else(|| self.too_large(start))?;
                Bounds::real(lo, hi, den)
            } else {
                match op {
                    BinOp::Add => Bounds::int(b.lo + rb.lo, b.hi + rb.hi),
                    _ => Bounds::int(b.lo - rb.hi, b.hi - rb.lo),
                }
            };
            b = self.check_bounds(nb, start)?;
            binary(out, op, rhs);
        }
    }

    /// `unary (("*" | "//" | "/" | "%") unary)*`.
    #[inline(always)]
    fn term(&mut self, out: &mut Node) -> Result<Bounds, NotationError> {
        let start = self.pos;
        let mut b = self.unary(out)?;
        loop {
            let before = self.pos;
            self.skip_ws();
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let d20 = self.dialect == Dialect::D20;
            let (op, len) = match rest {
                [b'*', ..] => (BinOp::Mul, 1),
                [b'/', b'/', ..] if !d20 => {
                    return Err(NotationError::NotInDialect {
                        reason: "`//` is d20's; write floor(a / b)".into(),
                        dialect: self.dialect,
                        position: self.pos,
                    });
                }
                [b'/', b'/', ..] => (BinOp::FloorDiv, 2),
                [b'/', ..] => (BinOp::Div, 1),
                // JavaScript's remainder in Roll20 and Foundry.
                [b'%', ..] if !d20 => (BinOp::Rem, 1),
                [b'%', ..] => (BinOp::Mod, 1),
                _ => {
                    self.pos = before;
                    return Ok(b);
                }
            };
            if op == BinOp::Div && !d20 {
                self.divs.push(self.pos);
            }
            self.pos += len;
            self.skip_ws();
            let rhs_at = self.pos;
            let mut rhs = Node::Number(0);
            let rb = self.unary(&mut rhs)?;
            let real = b.fractional() || rb.fractional() || (op == BinOp::Div && d20);
            if real {
                self.fractional = true;
            }
            let corners = |f: &dyn Fn(Ratio, Ratio) -> Option<Ratio>| {
                [
                    f(b.rlo(), rb.rlo()),
                    f(b.rlo(), rb.rhi()),
                    f(b.rhi(), rb.rlo()),
                    f(b.rhi(), rb.rhi()),
                ]
            };
            let nb = if op == BinOp::Mul && real {
                Bounds::real_of(corners(&|x, y| x.mul(y)), b.den().saturating_mul(rb.den()))
                    .ok_or_else(|| self.too_large(start))?
            } else if op == BinOp::Mul {
                Bounds::of([b.lo * rb.lo, b.lo * rb.hi, b.hi * rb.lo, b.hi * rb.hi])
            } else if real {
                // d20's `/` keeps the fraction (issue 30, item 2); `//` and
                // `%` of fractions as Python's floats.
                if rb.rlo() <= Ratio::ZERO && rb.rhi() >= Ratio::ZERO {
                    return Err(NotationError::DivisionByZero {
                        divisor: rhs.to_string(),
                        position: rhs_at,
                    });
                }
                // The quotient is monotonic in each operand away from a zero
                // divisor, so the corners bound it.
                let q = Bounds::real_of(corners(&|x, y| x.div(y)), 1)
                    .ok_or_else(|| self.too_large(start))?;
                // x / y = (p / dx) / (q / dy) = p dy / (dx q), |q| <= |y| dy.
                let ymax = rb.lo.abs().max(rb.hi.abs());
                match op {
                    BinOp::Div => Bounds::real(
                        q.rlo(),
                        q.rhi(),
                        b.den().saturating_mul(ymax).saturating_mul(rb.den()),
                    ),
                    BinOp::FloorDiv => Bounds::int(q.rlo().floor(), q.rhi().floor()),
                    // Python's remainder: the divisor's sign, smaller than it.
                    _ => {
                        let den = b.den().saturating_mul(rb.den());
                        if rb.rlo() > Ratio::ZERO {
                            Bounds::real(Ratio::ZERO, rb.rhi(), den)
                        } else {
                            Bounds::real(rb.rlo(), Ratio::ZERO, den)
                        }
                    }
                }
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
                    // JavaScript's remainder: the dividend's sign, smaller
                    // than the divisor.
                    BinOp::Rem => {
                        let m = rb.lo.abs().max(rb.hi.abs()) - 1;
                        Bounds::int(if b.lo < 0 { -m } else { 0 }, if b.hi > 0 { m } else { 0 })
                    }
                    // The remainder has the divisor's sign and is smaller
                    // than it.
                    _ if rb.lo > 0 => Bounds::int(0, rb.hi - 1),
                    _ => Bounds::int(rb.lo + 1, 0),
                }
            };
            b = self.check_bounds(nb, start)?;
            binary(out, op, rhs);
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
    #[inline(always)]
    fn unary(&mut self, out: &mut Node) -> Result<Bounds, NotationError> {
        match self.peek() {
            Some(sign @ (b'-' | b'+')) => {
                self.enter()?;
                self.pos += 1;
                self.skip_ws();
                let b = self.unary(out)?;
                self.depth -= 1;
                if sign == b'+' {
                    Ok(b)
                } else {
                    let nb = match (b.rhi().neg(), b.rlo().neg()) {
                        (Some(lo), Some(hi)) if b.fractional() => Bounds::real(lo, hi, b.den()),
                        _ => Bounds::int(-b.hi, -b.lo),
                    };
                    let inner = std::mem::replace(out, Node::Number(0));
                    *out = Node::Neg(Box::new(inner));
                    Ok(nb)
                }
            }
            _ => self.atom(out),
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
    #[inline(always)]
    fn atom(&mut self, out: &mut Node) -> Result<Bounds, NotationError> {
        let b = self.bare_atom(out)?;
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
        if !labels.is_empty() {
            let node = std::mem::replace(out, Node::Number(0));
            *out = Node::Labelled(Box::new(node), labels);
        }
        Ok(b)
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
    fn bare_atom(&mut self, out: &mut Node) -> Result<Bounds, NotationError> {
        let start = self.pos;
        // The rarer operands build their node and bounds whole.
        let mut put = |r: Result<(Node, Bounds), NotationError>| {
            r.map(|(node, b)| {
                *out = node;
                b
            })
        };
        match self.peek_lower() {
            Some(b'(') => {
                self.enter()?;
                self.pos += 1;
                self.skip_ws();
                let mut inner = Node::Number(0);
                let b = self.compare(&mut inner)?;
                self.skip_ws();
                // `(1d20, 1d20)kh1`: d20's sets (issue 30, item 2).
                if self.peek() == Some(b',') && self.dialect == Dialect::D20 {
                    return put(self.set(start, Some((inner, b))));
                }
                if self.peek() != Some(b')') {
                    return Err(self.unexpected(AFTER_OPERAND_IN_GROUP));
                }
                self.pos += 1;
                self.depth -= 1;
                let group = Node::Group(Box::new(inner));
                // `(2+1)d6`: Roll20's and Foundry's variable dice.
                if self.dialect != Dialect::D20 && self.peek_lower() == Some(b'd') {
                    self.count_term()?;
                    self.pos += 1;
                    return put(self.var_dice(start, group, b));
                }
                *out = group;
                Ok(b)
            }
            Some(b'0'..=b'9') => {
                self.count_term()?;
                let n = self.number(OPERAND)?;
                if self.peek() == Some(b'.') {
                    return put(self.decimal(start, n));
                }
                let before = self.pos;
                self.skip_ws();
                if self.peek_lower() != Some(b'd') {
                    self.pos = before;
                    *out = Node::Number(n);
                    return Ok(Bounds::exact(i128::from(n)));
                }
                // `5 dex save`: a number, then a comment, when the `d` after the
                // space does not read as a die.
                let saved = (self.dice, self.rolls);
                match self.dice(start, n, out) {
                    Err(NotationError::UnexpectedChar { .. }) if self.pos_after(before) => {
                        (self.dice, self.rolls) = saved;
                        self.pos = before;
                        *out = Node::Number(n);
                        Ok(Bounds::exact(i128::from(n)))
                    }
                    other => other,
                }
            }
            Some(b'd') => {
                self.count_term()?;
                self.dice(start, 1, out)
            }
            Some(b'.') => {
                self.count_term()?;
                put(self.decimal(start, 0))
            }
            Some(b'{') if self.dialect != Dialect::D20 => {
                self.enter()?;
                self.pos += 1;
                put(self.set(start, None))
            }
            Some(b'a'..=b'z') if self.dialect != Dialect::D20 => put(self.func()),
            _ => Err(self.unexpected(OPERAND)),
        }
    }

    /// Variable dice (issue 30, item 3), `pos` just after the `d`: the sides
    /// (a number or a parenthesised group), then the group's modifiers,
    /// keeps and drops and tests, as a group of dice reads them. The count's
    /// and the sides' ranges are checked against the caps before anything
    /// is rolled: at worst [`MAX_POOL`] dice in the expression and
    /// [`MAX_SIDES`] sides, at least 0 dice and 1 side.
    fn var_dice(
        &mut self,
        start: usize,
        count: Node,
        cb: Bounds,
    ) -> Result<(Node, Bounds), NotationError> {
        let sides_at = self.pos;
        let (sides, sb) = match self.peek() {
            Some(b'(') => {
                self.enter()?;
                self.pos += 1;
                self.skip_ws();
                let mut inner = Node::Number(0);
                let b = self.expr(&mut inner)?;
                self.skip_ws();
                if self.peek() != Some(b')') {
                    return Err(self.unexpected(AFTER_OPERAND_IN_GROUP));
                }
                self.pos += 1;
                self.depth -= 1;
                (Node::Group(Box::new(inner)), b)
            }
            _ => {
                let n = self.number("the number of sides or `(` after `d`")?;
                (Node::Number(n), Bounds::exact(i128::from(n)))
            }
        };
        if cb.lo < 0 || cb.hi > i128::from(MAX_POOL) {
            return Err(NotationError::VariableDiceOutOfRange {
                part: "count",
                lo: i64::try_from(cb.lo).unwrap_or(i64::MIN),
                hi: i64::try_from(cb.hi).unwrap_or(i64::MAX),
                allowed: (0, i64::from(MAX_POOL)),
                position: start,
            });
        }
        if sb.lo < 1 || sb.hi > i128::from(MAX_SIDES) {
            return Err(NotationError::VariableDiceOutOfRange {
                part: "sides",
                lo: i64::try_from(sb.lo).unwrap_or(i64::MIN),
                hi: i64::try_from(sb.hi).unwrap_or(i64::MAX),
                allowed: (1, i64::from(MAX_SIDES)),
                position: sides_at,
            });
        }
        // Counted at the most dice the count can reach.
        let most = cb.hi as u64;
        self.dice += most;
        if self.dice > u64::from(MAX_POOL) {
            return Err(NotationError::TooManyDice {
                count: self.dice,
                max: MAX_POOL,
                position: start,
            });
        }
        // Modifiers, keeps and drops and tests (issue 30, item 3): read as
        // a group's, checked for the fewest dice and sides the group can
        // have (a face every die has, a keep within every count, a test
        // some face of the smallest die fails), and bounded by the most.
        let (clo, chi) = (cb.lo as u32, cb.hi as u32);
        let (slo, shi) = (sb.lo as u32, sb.hi as u32);
        let mut term = DiceTerm::plain(clo, Sides::Number(slo));
        let before = self.pos;
        let vary = std::mem::replace(&mut self.sides_vary, slo != shi);
        let read = self.suffixes(&mut term);
        self.sides_vary = vary;
        read?;
        if self.pos == before {
            self.rolls = self.rolls.saturating_add(most);
            if self.rolls > MAX_ROLLS {
                return Err(NotationError::TooManyRolls {
                    count: self.rolls,
                    max: MAX_ROLLS,
                    position: start,
                });
            }
            let b = self.check_bounds(Bounds::int(cb.lo, cb.hi * sb.hi), start)?;
            return Ok((Node::VarDice(Box::new([count, sides])), b));
        }
        let b = self.group_reach(&term, clo, chi, Sides::Number(shi), start)?;
        Ok((
            Node::ModifiedVarDice(Box::new(VarDice { count, sides, term })),
            b,
        ))
    }

    /// The rest of a decimal from its `.`, `whole` the digits before it
    /// (`1.5`, `.25`; d20's, issue 30, item 2): at least one digit after the
    /// point, at most [`MAX_DECIMALS`]. Only in `d20`.
    fn decimal(&mut self, start: usize, whole: u32) -> Result<(Node, Bounds), NotationError> {
        if self.dialect != Dialect::D20 {
            return Err(NotationError::NotInDialect {
                reason: "decimals are read in d20 only; Tabula counts in whole numbers here".into(),
                dialect: self.dialect,
                position: self.pos,
            });
        }
        self.pos += 1;
        let at = self.pos;
        let mut digits = u64::from(whole);
        let mut scale = 0u32;
        while let Some(b) = self.peek().filter(u8::is_ascii_digit) {
            scale += 1;
            if scale > MAX_DECIMALS {
                return Err(NotationError::TooManyDecimals {
                    max: MAX_DECIMALS,
                    position: start,
                });
            }
            // whole <= MAX_NUMBER and scale <= MAX_DECIMALS: fits a u64.
            digits = digits * 10 + u64::from(b - b'0');
            self.pos += 1;
        }
        if scale == 0 {
            self.pos = at;
            return Err(self.unexpected("a digit after the decimal point"));
        }
        if self.peek_lower() == Some(b'd') {
            return Err(
                self.unexpected("an operator after a decimal: a dice count is a whole number")
            );
        }
        self.fractional = true;
        let d = Decimal { digits, scale };
        let v = d.value();
        let b = Bounds::real(v, v, v.den());
        Ok((Node::Decimal(d), b))
    }

    /// `("floor" | "ceil" | "round" | "abs") "(" expr ")"`: Roll20's and
    /// Foundry's functions (issue 30, item 3).
    fn func(&mut self) -> Result<(Node, Bounds), NotationError> {
        let rest = self.text.get(self.pos..).unwrap_or_default();
        let found = [
            ("floor(", Func::Floor),
            ("ceil(", Func::Ceil),
            ("round(", Func::Round),
            ("abs(", Func::Abs),
        ]
        .into_iter()
        .find(|(name, _)| {
            rest.get(..name.len())
                .is_some_and(|r| r.eq_ignore_ascii_case(name))
        });
        let Some((name, func)) = found else {
            return Err(self.unexpected(format!("{OPERAND}, floor(, ceil(, round( or abs(")));
        };
        self.enter()?;
        self.pos += name.len();
        self.skip_ws();
        let mut inner = Node::Number(0);
        let b = self.expr(&mut inner)?;
        self.skip_ws();
        if self.peek() != Some(b')') {
            return Err(self.unexpected(AFTER_OPERAND_IN_GROUP));
        }
        self.pos += 1;
        self.depth -= 1;
        // A rounded quotient is within one of the truncated quotient.
        let b = match func {
            Func::Abs => Bounds::int(
                if b.lo <= 0 && b.hi >= 0 {
                    0
                } else {
                    b.lo.abs().min(b.hi.abs())
                },
                b.lo.abs().max(b.hi.abs()),
            ),
            _ => Bounds::int(b.lo - 1, b.hi + 1),
        };
        Ok((Node::Func(func, Box::new(inner)), b))
    }

    /// `"{" expr ("," expr)* "}"` then a keep or drop, a success test and a
    /// failure test: Roll20's grouped rolls and Foundry's dice pools
    /// (issue 30, item 3); or d20's set `"(" expr ("," expr)* [","] ")"` then
    /// a keep or drop (issue 30, item 2), `first` its first item, already
    /// read. `pos` is just past the `{`, or on the `,` after `first`.
    fn set(
        &mut self,
        start: usize,
        first: Option<(Node, Bounds)>,
    ) -> Result<(Node, Bounds), NotationError> {
        let d20 = self.dialect == Dialect::D20;
        let close = if d20 { b')' } else { b'}' };
        let mut items = Vec::new();
        let mut bounds = Vec::new();
        if let Some((item, b)) = first {
            items.push(item);
            bounds.push(b);
            // On the `,`: a trailing one ends a set of one, `(1d6,)`.
            self.pos += 1;
            self.skip_ws();
            if self.peek() == Some(close) {
                self.pos += 1;
            } else {
                self.set_items(&mut items, &mut bounds, close)?;
            }
        } else {
            self.set_items(&mut items, &mut bounds, close)?;
        }
        self.depth -= 1;
        let mut set = SetTerm {
            items,
            select: None,
            more_select: Vec::new(),
            success: None,
            failure: None,
        };
        let foundry = self.dialect == Dialect::Foundry;
        loop {
            let at = self.pos;
            let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
            let second = rest.get(1).map(u8::to_ascii_lowercase);
            match self.peek_lower() {
                // d20's sets take a keep or drop only.
                // Several are d20's too (`(1d6, 1d6)kh1kl1`; issue 30, item
                // 2), applied as on a group of dice.
                Some(b'k' | b'p' | b'd') if d20 => {
                    let sel = self.select()?;
                    let (verb, n) = select_count(sel);
                    let rolled = set.items.len() as u32;
                    if n > rolled {
                        return Err(NotationError::SelectsMoreThanRolled {
                            verb,
                            selected: n,
                            rolled,
                            position: at,
                        });
                    }
                    if set.select.is_some() {
                        set.more_select.push(sel);
                    } else {
                        set.select = Some(sel);
                    }
                }
                _ if d20 => break,
                Some(b'<' | b'>' | b'=') if set.success.is_none() => {
                    set.success = Some(self.test(true, "")?);
                }
                Some(b'c')
                    if foundry && set.success.is_none() && matches!(second, Some(b's' | b'f')) =>
                {
                    self.pos += 2;
                    set.success = Some(self.compared_test("`cs` or `cf`")?);
                }
                Some(b'd') if foundry && second == Some(b'f') => {
                    self.pos += 2;
                    let t = self.compared_test("`df`")?;
                    self.set_failure(&mut set.failure, set.success.is_some(), t, at)?;
                }
                Some(b'f') if !foundry => {
                    self.pos += 1;
                    let t = self.test(false, "a number after `f`")?;
                    self.set_failure(&mut set.failure, set.success.is_some(), t, at)?;
                }
                Some(b'k' | b'd') if set.select.is_none() && set.success.is_none() => {
                    let sel = self.select()?;
                    let (verb, n) = select_count(sel);
                    let rolled = set.items.len() as u32;
                    if n > rolled {
                        return Err(NotationError::SelectsMoreThanRolled {
                            verb,
                            selected: n,
                            rolled,
                            position: at,
                        });
                    }
                    set.select = Some(sel);
                }
                _ => break,
            }
            // Roll20 applies a group's modifiers to the dice of a group of
            // one roll (`{5d6!!}>8` counts dice), to the totals otherwise:
            // Tabula reads only the second (issue 30, item 3).
            if set.items.len() == 1 && self.dialect == Dialect::Roll20 {
                return Err(NotationError::NotInDialect {
                    reason: "keep, drop or a test on a group of one roll works on its dice, which Tabula does not read yet; write it on the dice (`4d6kh3`, `10d10>7`) or give the group two rolls".into(),
                    dialect: self.dialect,
                    position: at,
                });
            }
        }
        let n = set.items.len() as i128;
        let kept = match set.select {
            _ if !set.more_select.is_empty() => n,
            Some(Select::KeepHighest(k) | Select::KeepLowest(k)) => i128::from(k),
            Some(Select::DropHighest(k) | Select::DropLowest(k)) => n - i128::from(k),
            _ => n,
        };
        let b = if set.success.is_some() {
            Bounds::int(if set.failure.is_some() { -kept } else { 0 }, kept)
        } else if bounds.iter().any(Bounds::fractional) {
            // d20's fractions in a set's items (issue 30, item 2): the kept
            // items' exact sum, its denominator at most the product of theirs.
            let (mut lo, mut hi, mut den) = (Ratio::ZERO, Ratio::ZERO, 1i128);
            for b in &bounds {
                lo = lo
                    .add(b.rlo().min(Ratio::ZERO))
                    .ok_or_else(|| self.too_large(start))?;
                hi = hi
                    .add(b.rhi().max(Ratio::ZERO))
                    .ok_or_else(|| self.too_large(start))?;
                den = den.saturating_mul(b.den());
            }
            Bounds::real(lo, hi, den)
        } else {
            Bounds::int(
                bounds.iter().map(|b| b.lo.min(0)).sum(),
                bounds.iter().map(|b| b.hi.max(0)).sum(),
            )
        };
        let b = self.check_bounds(b, start)?;
        Ok((Node::Set(Box::new(set)), b))
    }

    /// The items of a set after its first `,` (or `{`), up to and past
    /// `close`.
    fn set_items(
        &mut self,
        items: &mut Vec<Node>,
        bounds: &mut Vec<Bounds>,
        close: u8,
    ) -> Result<(), NotationError> {
        loop {
            self.skip_ws();
            let mut item = Node::Number(0);
            let b = self.expr(&mut item)?;
            items.push(item);
            bounds.push(b);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => {
                    return Err(self.unexpected(format!(
                        "`+`, `-`, `*`, `/`, `,` or `{}`",
                        char::from(close)
                    )));
                }
            }
        }
    }

    /// Set a failure test, which needs a success test before it.
    fn set_failure(
        &self,
        slot: &mut Option<Test>,
        has_success: bool,
        t: Test,
        at: usize,
    ) -> Result<(), NotationError> {
        if !has_success || slot.is_some() {
            return Err(NotationError::Misplaced {
                reason: "a failure test comes once, after a success test (`10d10>7f1`)",
                position: at,
            });
        }
        *slot = Some(t);
        Ok(())
    }

    /// Whether `d20`'s selector by rank starts at `pos`: `h` or `l`, then a
    /// digit (`h1` in `rol1`, `eh1`; issue 30, item 2), and which: the
    /// highest (true) or the lowest. Anything else (`1d20 roll for
    /// stealth`, another dialect) is a test, the parser's usual error, or a
    /// comment's plain words.
    fn rank_selector(&self) -> Option<bool> {
        let c @ (b'h' | b'l') = self.peek_lower()? else {
            return None;
        };
        let digit_after = self
            .text
            .as_bytes()
            .get(self.pos + 1)
            .is_some_and(u8::is_ascii_digit);
        (self.dialect == Dialect::D20 && digit_after).then_some(c == b'h')
    }

    /// `d20`'s selectors by rank on `rr` (`rrl1`, `rrh1`; issue 30, item
    /// 2), refused for good with a reason that names the modifier, never
    /// misread: `d20` 1.1.2 rerolls the selected dice in
    /// `SetOperator.reroll` until the selection is empty, and a highest or
    /// lowest die always exists, so they never stop there (it fails with
    /// `TooManyRolls`). `pos` is on what follows `rr`.
    fn refuse_rank_selector(&self, modifier: &str) -> Result<(), NotationError> {
        let Some(highest) = self.rank_selector() else {
            return Ok(());
        };
        let which = if highest { "highest" } else { "lowest" };
        let digits: String = self
            .text
            .get(self.pos + 1..)
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Err(NotationError::RankSelectorNotRead {
            modifier: format!("{modifier}{}{digits}", if highest { 'h' } else { 'l' }),
            reason: format!(
                "there is always a {which} die to reroll, so it never stops (d20 fails with \"Too many dice rolled\"); reroll by face instead (`rr1`, `rr<3`)"
            ),
            position: self.pos,
        })
    }

    /// A test that must start with a comparison (Foundry's `cs>=5`).
    fn compared_test(&mut self, after: &str) -> Result<Test, NotationError> {
        if !matches!(self.peek(), Some(b'<' | b'>' | b'=')) {
            return Err(self.unexpected(format!("a comparison such as `>=5` after {after}")));
        }
        self.test(true, "")
    }

    /// Whether there was white space after `before` (the parser skipped some).
    fn pos_after(&self, before: usize) -> bool {
        self.text
            .get(before..)
            .and_then(|s| s.chars().next())
            .is_some_and(char::is_whitespace)
    }

    /// The rest of a dice group from its `d`: sides, modifiers, selection, test.
    fn dice(&mut self, start: usize, count: u32, out: &mut Node) -> Result<Bounds, NotationError> {
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
            // `2d(1d4)`: Roll20's and Foundry's variable dice.
            Some(b'(') if self.dialect != Dialect::D20 => {
                self.dice -= u64::from(count);
                let (node, b) =
                    self.var_dice(start, Node::Number(count), Bounds::exact(i128::from(count)))?;
                *out = node;
                return Ok(b);
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
        let mut term = DiceTerm::plain(count, sides);
        self.suffixes(&mut term)?;
        let b = self.group_reach(&term, count, count, sides, start)?;
        *out = Node::Dice(term);
        Ok(b)
    }

    /// A group's modifiers, keeps and drops and tests, glued to it (or, in
    /// `d20`, after white space), each checked and added to `term`.
    #[inline(always)]
    fn suffixes(&mut self, term: &mut DiceTerm) -> Result<(), NotationError> {
        let sides = term.sides;
        loop {
            let before = self.pos;
            self.skip_ws();
            let had_ws = self.pos > before;
            let at = self.pos;
            // Roll20 and Foundry read modifiers glued to the group only. A
            // whole modifier after white space (`2d20 kh`, `4d6 kh1 + 2`) is
            // refused rather than taken for a comment; anything else there
            // (`1d20 dex save`) is the caller's.
            if had_ws && self.dialect != Dialect::D20 {
                let whole = match self.suffix(sides) {
                    Ok(Some(_)) => self
                        .peek_char()
                        .is_none_or(|c| c.is_whitespace() || "+-*/%),}[#".contains(c)),
                    Err(NotationError::UnexpectedEnd { .. }) => true,
                    _ => false,
                };
                if whole {
                    return Err(NotationError::NotInDialect {
                        reason:
                            "a modifier is read glued to its dice (`2d20kh`), not after a space"
                                .into(),
                        dialect: self.dialect,
                        position: at,
                    });
                }
                self.pos = before;
                break;
            }
            // After white space, a comparison compares totals (d20's meaning;
            // issue 30, item 2): only a glued one is the group's success test.
            if had_ws && matches!(self.peek(), Some(b'<' | b'>' | b'=')) {
                self.pos = before;
                break;
            }
            match self.suffix(sides) {
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
                Ok(Some(s)) => self.add_suffix(term, s, at)?,
            }
        }
        Ok(())
    }

    /// The worst case of a group's rerolls and explosions, counted toward
    /// [`MAX_ROLLS`], and the range of its value, for `count_lo..=count_hi`
    /// dice of at most `sides` (variable dice, issue 30, item 3, give a
    /// range; a group of its own count gives one number).
    fn group_reach(
        &mut self,
        term: &DiceTerm,
        count_lo: u32,
        count_hi: u32,
        sides: Sides,
        start: usize,
    ) -> Result<Bounds, NotationError> {
        let mut pool = u64::from(count_hi);
        let mut rolls = pool;
        // One pass per run of merged modifiers (d20 merges `ro1ro2`).
        for pass in super::passes(&term.modifiers) {
            match pass.first() {
                None => {}
                Some(Modifier::RerollOnce(_) | Modifier::RerollOnceRank { .. }) => rolls += pool,
                Some(Modifier::Reroll(_)) => rolls += pool * u64::from(MAX_REROLLS),
                // d20's explosion by rank alone (issue 30, item 2): each die
                // that explodes joins the N highest (or lowest) raising (or
                // lowering) their sum by at least one, or fills them, so at
                // most N times the faces explode, whatever the pool.
                Some(Modifier::Explode(_) | Modifier::ExplodeRank { .. })
                    if pass.iter().all(|m| m.rank().is_some()) =>
                {
                    let faces = sides.faces().count() as u64;
                    let most = pass
                        .iter()
                        .filter_map(|m| m.rank())
                        .map(|(_, n)| u64::from(n).saturating_mul(faces))
                        .fold(0u64, u64::saturating_add);
                    rolls = rolls.saturating_add(most);
                    pool = pool.saturating_add(most);
                }
                Some(Modifier::Explode(_) | Modifier::ExplodeRank { .. }) => match term.explode {
                    ExplodeKind::Once => {
                        rolls += pool;
                        pool *= 2;
                    }
                    // Compounded dice stay one die each.
                    ExplodeKind::Compound => rolls += pool * u64::from(MAX_EXPLOSIONS),
                    ExplodeKind::Plain | ExplodeKind::Penetrate => {
                        rolls += pool * u64::from(MAX_EXPLOSIONS);
                        pool *= 1 + u64::from(MAX_EXPLOSIONS);
                    }
                },
                // At most one more die for the whole group.
                Some(Modifier::RerollAdd(_) | Modifier::RerollAddRank { .. }) => {
                    rolls += 1;
                    pool += 1;
                }
                // A keep or drop before more modifiers (issue 30, item 2)
                // leaves the same dice or fewer.
                Some(Modifier::Min(_) | Modifier::Max(_) | Modifier::Select(_)) => {}
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
        let (pmin, pmax) = (i128::from(count_lo), i128::from(pool));
        let stepped = term.modifiers.iter().any(|m| m.select().is_some());
        let (kmin, kmax) = match term.select {
            // Several, or a keep or drop before more modifiers: how many are
            // kept depends on ties, faces and the dice added after it (issue
            // 30, item 2), none to all.
            _ if !term.more_select.is_empty() || stepped => (0, pmax),
            None => (pmin, pmax),
            Some(Select::KeepHighest(k) | Select::KeepLowest(k)) => (i128::from(k), i128::from(k)),
            Some(Select::DropHighest(k) | Select::DropLowest(k)) => {
                (pmin - i128::from(k), pmax - i128::from(k))
            }
            // By value: any number of dice, none to all.
            Some(_) => (0, pmax),
        };
        let b = if term.success.is_some() {
            Bounds::int(if term.failure.is_some() { -kmax } else { 0 }, kmax)
        } else {
            let (fmin, fmax) = sides.range();
            let (mut fmin, mut fmax) = (i128::from(fmin), i128::from(fmax));
            let exploding = term.modifiers.iter().any(Modifier::explodes);
            match term.explode {
                // An extra die counts one less than its face.
                ExplodeKind::Penetrate if exploding => fmin -= 1,
                // One die holds the sum of its chain.
                ExplodeKind::Compound if exploding => {
                    let chain = 1 + i128::from(MAX_EXPLOSIONS);
                    fmin = fmin.min(fmin * chain);
                    fmax = fmax.max(fmax * chain);
                }
                _ => {}
            }
            Bounds::of([kmin * fmin, kmax * fmin, kmin * fmax, kmax * fmax])
        };
        self.check_bounds(b, start)
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
        let ends = matches!(suffix, Suffix::Failure(_) | Suffix::Critical(..));
        if term.success.is_some() && !ends {
            return Err(NotationError::Misplaced {
                reason: "a success test comes last in a group of dice",
                position: at,
            });
        }
        let exploding = term.modifiers.iter().any(Modifier::explodes);
        // Roll20 and Foundry apply modifiers in their own order: an explosion
        // is read only alone in its group (issue 30, item 3).
        let lone_explosion = |explodes: bool| -> Result<(), NotationError> {
            let others = term.modifiers.iter().any(|m| !m.explodes());
            if self.dialect != Dialect::D20 && ((explodes && others) || (!explodes && exploding)) {
                return Err(NotationError::NotInDialect {
                    reason: "an explosion with rerolls, minimum or maximum in one group is applied in the dialect's own order, which Tabula does not read yet; roll them as two groups".into(),
                    dialect: self.dialect,
                    position: at,
                });
            }
            Ok(())
        };
        let suffix = match suffix {
            Suffix::Explode(kind, t) => {
                lone_explosion(true)?;
                if exploding && (kind != term.explode || !kind.is_plain()) {
                    return Err(NotationError::Misplaced {
                        reason: "one explosion per group with `!!`, `!p` or `xo`, and explosions of one kind only",
                        position: at,
                    });
                }
                term.explode = kind;
                Suffix::Modifier(Modifier::Explode(t))
            }
            Suffix::Modifier(m) => {
                let explodes = m.explodes();
                lone_explosion(explodes)?;
                let adds = Modifier::adds;
                let run_of_ra = term.modifiers.last().is_some_and(adds);
                // `ra` with `e` is d20's (issue 30, item 2): each pass in
                // the order written.
                // A second run of `ra` after another modifier is d20's too
                // (`2d6ra6ro1ra5`: each run in the order written).
                if adds(&m)
                    && !run_of_ra
                    && term.modifiers.iter().any(adds)
                    && self.dialect != Dialect::D20
                {
                    return Err(NotationError::Misplaced {
                        reason: "one run of `ra` per group (Tabula does not read a second yet)",
                        position: at,
                    });
                }
                if explodes && exploding && !term.explode.is_plain() {
                    return Err(NotationError::Misplaced {
                        reason: "one explosion per group with `!!`, `!p` or `xo`, and explosions of one kind only",
                        position: at,
                    });
                }
                Suffix::Modifier(m)
            }
            other => other,
        };
        match suffix {
            Suffix::Explode(..) => {}
            Suffix::Failure(t) => {
                self.set_failure(&mut term.failure, term.success.is_some(), t, at)?;
            }
            Suffix::Critical(success, t) => {
                let slot = if success {
                    &mut term.critical_success
                } else {
                    &mut term.critical_failure
                };
                if slot.is_some() {
                    return Err(NotationError::Misplaced {
                        reason: "at most one `cs` and one `cf` per group of dice",
                        position: at,
                    });
                }
                *slot = Some(t);
            }
            Suffix::Modifier(m) => {
                if let Some(select) = term.select {
                    if self.dialect != Dialect::D20 {
                        return Err(NotationError::Misplaced {
                            reason: "rerolls, `mi`, `ma` and `e` come before keep or drop",
                            position: at,
                        });
                    }
                    // d20 applies each operation in order, the later ones
                    // among the dice still kept (`4d6kh3ro1`; issue 30,
                    // item 2): the keeps and drops so far become steps.
                    term.modifiers.push(Modifier::Select(select));
                    term.modifiers
                        .extend(term.more_select.drain(..).map(Modifier::Select));
                    term.select = None;
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
                    // d20 reads a second run of `e` after another modifier
                    // (`1d6e6ro1e5`; issue 30, item 2): each in turn.
                    _ if m.explodes()
                        && run.is_empty()
                        && exploding
                        && self.dialect != Dialect::D20 =>
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
                    // d20's several keeps and drops on one group (issue 30,
                    // item 2): by rank or by value, on any pool.
                    if self.dialect != Dialect::D20 {
                        return Err(NotationError::Misplaced {
                            reason: "at most one keep or drop per group of dice, but several (`kh3pl1`) in d20's notation",
                            position: at,
                        });
                    }
                    let (verb, n) = select_count(s);
                    if n > term.count {
                        return Err(NotationError::SelectsMoreThanRolled {
                            verb,
                            selected: n,
                            rolled: term.count,
                            position: at,
                        });
                    }
                    term.more_select.push(s);
                    return Ok(());
                }
                let (verb, n) = select_count(s);
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
    /// none starts here. `sides` gives the faces Roll20's and Foundry's
    /// modifiers without a number mean.
    fn suffix(&mut self, sides: Sides) -> Result<Option<Suffix>, NotationError> {
        let Some(first) = self.peek_lower() else {
            return Ok(None);
        };
        let dialect = self.dialect;
        let second = self
            .text
            .as_bytes()
            .get(self.pos + 1)
            .map(u8::to_ascii_lowercase);
        match first {
            b'<' | b'>' | b'=' => Ok(Some(Suffix::Success(self.test(true, "")?))),
            b'e' => {
                self.pos += 1;
                self.skip_ws();
                // `eh1`, `el1`: d20's selectors by rank (issue 30, item 2).
                if let Some(highest) = self.rank_selector() {
                    self.pos += 1;
                    let count = self.number("a number after `eh` or `el`")?;
                    return Ok(Some(Suffix::Modifier(Modifier::ExplodeRank {
                        highest,
                        count,
                    })));
                }
                Ok(Some(Suffix::Modifier(Modifier::Explode(
                    self.test(false, "a number after `e`")?,
                ))))
            }
            // Roll20's explosions: `!`, `!!` compounding, `!p` penetrating,
            // on the highest face unless a compare point follows.
            b'!' if dialect == Dialect::Roll20 => {
                self.pos += 1;
                let kind = match self.peek_lower() {
                    Some(b'!') => ExplodeKind::Compound,
                    Some(b'p') => ExplodeKind::Penetrate,
                    _ => ExplodeKind::Plain,
                };
                if !kind.is_plain() {
                    self.pos += 1;
                }
                let t = self.optional_test(sides, DefaultFace::Highest, "`!`")?;
                Ok(Some(Suffix::Explode(kind, t)))
            }
            // Foundry's `x` and `xo` (explode once).
            b'x' if dialect == Dialect::Foundry => {
                self.pos += 1;
                let kind = if self.peek_lower() == Some(b'o') {
                    self.pos += 1;
                    ExplodeKind::Once
                } else {
                    ExplodeKind::Plain
                };
                let t = self.optional_test(sides, DefaultFace::Highest, "`x`")?;
                Ok(Some(Suffix::Explode(kind, t)))
            }
            b'r' => {
                self.pos += 1;
                let m = match (self.peek_lower(), dialect) {
                    (Some(b'o'), _) => {
                        self.pos += 1;
                        self.skip_ws();
                        // `roh1`, `rol1`: d20's selectors by rank (issue 30,
                        // item 2).
                        if let Some(highest) = self.rank_selector() {
                            self.pos += 1;
                            Modifier::RerollOnceRank {
                                highest,
                                count: self.number("a number after `roh` or `rol`")?,
                            }
                        } else {
                            Modifier::RerollOnce(self.test(false, "a number after `ro`")?)
                        }
                    }
                    (Some(b'r'), Dialect::Foundry) => {
                        self.pos += 1;
                        Modifier::Reroll(self.optional_test(sides, DefaultFace::Lowest, "`rr`")?)
                    }
                    (Some(b'r'), _) => {
                        self.pos += 1;
                        self.skip_ws();
                        self.refuse_rank_selector("rr")?;
                        Modifier::Reroll(self.test(false, "a number after `rr`")?)
                    }
                    // d20's `ra`, reroll and add (issue 30, item 2).
                    (Some(b'a'), Dialect::D20) => {
                        self.pos += 1;
                        self.skip_ws();
                        match self.peek_lower() {
                            // `rah1`, `ral1`: d20's selectors by rank.
                            Some(c @ (b'h' | b'l')) => {
                                self.pos += 1;
                                Modifier::RerollAddRank {
                                    highest: c == b'h',
                                    count: self.number("a number after `rah` or `ral`")?,
                                }
                            }
                            _ => Modifier::RerollAdd(self.test(false, "a number after `ra`")?),
                        }
                    }
                    // Roll20's `r` rerolls until the die no longer matches.
                    (_, Dialect::Roll20) => Modifier::Reroll(
                        self.test(false, "a compare point after `r` (`r1`, `r<2`)")?,
                    ),
                    // Foundry's `r` rerolls once, the lowest face by default.
                    (_, Dialect::Foundry) => Modifier::RerollOnce(self.optional_test(
                        sides,
                        DefaultFace::Lowest,
                        "`r`",
                    )?),
                    _ => return Err(self.unexpected("`o` or `r` after `r` (`ro1`, `rr1`)")),
                };
                Ok(Some(Suffix::Modifier(m)))
            }
            b'm' => {
                self.pos += 1;
                let min = match self.peek_lower() {
                    Some(b'i') => true,
                    Some(b'a') => false,
                    _ => return Err(self.unexpected("`i` or `a` after `m` (`mi2`, `ma5`)")),
                };
                self.pos += 1;
                // Foundry spells them `min` and `max`.
                if dialect == Dialect::Foundry
                    && self.peek_lower() == Some(if min { b'n' } else { b'x' })
                {
                    self.pos += 1;
                }
                self.skip_ws();
                Ok(Some(Suffix::Modifier(if min {
                    Modifier::Min(self.number("a number after `mi`")?)
                } else {
                    Modifier::Max(self.number("a number after `ma`")?)
                })))
            }
            // Roll20's critical points; Foundry's counts of successes (`cs`)
            // and of failures (`cf`: the dice meeting its test).
            b'c' if dialect != Dialect::D20 && matches!(second, Some(b's' | b'f')) => {
                self.pos += 2;
                let success = second == Some(b's');
                if dialect == Dialect::Roll20 {
                    let t = self.test(false, "a compare point after `cs` or `cf`")?;
                    Ok(Some(Suffix::Critical(success, t)))
                } else {
                    Ok(Some(Suffix::Success(self.compared_test("`cs` or `cf`")?)))
                }
            }
            b'f' if dialect == Dialect::Roll20 => {
                self.pos += 1;
                Ok(Some(Suffix::Failure(
                    self.test(false, "a compare point after `f`")?,
                )))
            }
            // Foundry's `df` (deduct failures), and Tabula's canonical `f`.
            b'f' if dialect == Dialect::Foundry => {
                self.pos += 1;
                Ok(Some(Suffix::Failure(self.compared_test("`f`")?)))
            }
            b'd' if dialect == Dialect::Foundry && second == Some(b'f') => {
                self.pos += 2;
                Ok(Some(Suffix::Failure(self.compared_test("`df`")?)))
            }
            b'k' | b'd' | b'p' => self.select().map(|s| Some(Suffix::Select(s))),
            _ => Ok(None),
        }
    }

    /// A test that may be left out, meaning the lowest or highest face
    /// (Roll20's `!`, Foundry's `x`, `r`, `rr`). Foundry's capped form
    /// (`r1=1`, `x2>5`: a count, then the test) is refused, never misread.
    fn optional_test(
        &mut self,
        sides: Sides,
        face: DefaultFace,
        after: &str,
    ) -> Result<Test, NotationError> {
        match self.peek() {
            Some(b'<' | b'>' | b'=') => return self.test(true, ""),
            Some(b'0'..=b'9') => {
                let t = self.test(false, "")?;
                if self.dialect == Dialect::Foundry
                    && matches!(self.peek(), Some(b'<' | b'>' | b'='))
                {
                    return Err(NotationError::NotInDialect {
                        reason: format!(
                            "a count before the test after {after} (Foundry's cap on rerolls or explosions) is not read yet"
                        ),
                        dialect: self.dialect,
                        position: self.pos,
                    });
                }
                return Ok(t);
            }
            _ => {}
        }
        if self.sides_vary && matches!(face, DefaultFace::Highest) {
            return Err(NotationError::NotInDialect {
                reason: format!(
                    "{after} without a number means the highest face, which differs among dice whose sides vary; write the compare point (`!>4`, `x>=4`)"
                ),
                dialect: self.dialect,
                position: self.pos,
            });
        }
        let (lo, hi) = sides.range();
        let target = match face {
            DefaultFace::Lowest => lo,
            DefaultFace::Highest => hi,
        };
        match u32::try_from(target) {
            Ok(target) => Ok(Test {
                compare: Compare::Equal,
                target,
            }),
            Err(_) => Err(NotationError::NotInDialect {
                reason: format!(
                    "{after} without a number means the lowest face, -1 on a dF; write the test (`<0`)"
                ),
                dialect: self.dialect,
                position: self.pos,
            }),
        }
    }

    fn select(&mut self) -> Result<Select, NotationError> {
        let (keep, first) = match self.peek_lower() {
            Some(b'k') => (true, 'k'),
            Some(b'd') => (false, 'd'),
            _ => (false, 'p'),
        };
        self.pos += 1;
        let d20 = self.dialect == Dialect::D20;
        // `k<3`, `p>4`: d20's selectors by value (issue 30, item 2).
        if let Some(below @ (b'<' | b'>')) = self.peek() {
            if !d20 {
                return Err(NotationError::NotInDialect {
                    reason: "keep or drop by value (`k<3`) is d20's".into(),
                    dialect: self.dialect,
                    position: self.pos - 1,
                });
            }
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
            // Roll20 and Foundry: `k3` keeps the highest, `d1` drops the
            // lowest (issue 30, item 3).
            _ if !d20 && first != 'p' => keep,
            _ => {
                return Err(self.unexpected(format!(
                    "`h` or `l` after `{first}` (`{first}h1` for the highest, `{first}l1` for the lowest)"
                )));
            }
        };
        if matches!(self.peek_lower(), Some(b'h' | b'l')) {
            self.pos += 1;
        }
        // Static messages: the happy path allocates nothing.
        let (select, expected): (fn(u32) -> Select, &str) = match (keep, high) {
            (true, true) => (Select::KeepHighest, "a number after `kh`"),
            (true, false) => (Select::KeepLowest, "a number after `kl`"),
            (false, true) => (Select::DropHighest, "a number after `dh`"),
            (false, false) => (Select::DropLowest, "a number after `dl`"),
        };
        if d20 {
            self.skip_ws();
            return Ok(select(self.number(expected)?));
        }
        // Roll20 and Foundry: one die when no number follows (`2d20kh`).
        if self.peek().is_some_and(|b| b.is_ascii_digit()) {
            Ok(select(self.number(expected)?))
        } else {
            Ok(select(1))
        }
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
        } else if self.dialect == Dialect::Roll20 {
            // Roll20's compare points: `>7` is at least 7, `<2` at most 2.
            match compare {
                Compare::Above => Compare::AtLeast,
                Compare::Below => Compare::AtMost,
                other => other,
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

/// The verb and count of a keep or drop by rank; by value, no count (0).
fn select_count(s: Select) -> (&'static str, u32) {
    match s {
        Select::KeepHighest(n) | Select::KeepLowest(n) => ("keep", n),
        Select::DropHighest(n) | Select::DropLowest(n) => ("drop", n),
        _ => ("keep", 0),
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, fast, parse_full};
    use proptest::prelude::*;

    /// Pieces of the flat forms and of what lies just past them.
    const PIECES: &[&str] = &[
        "1", "4", "10", "0", "6", "20", "100", "101", "1000", "1001", "d", "D", "d%", "dF", "kh",
        "kl", "dh", "dl", "ph", "pl", "k", "p", "ro", "rr", "e", "ra", "eh", "rol", ">=", ">",
        "<=", "<", "=", "==", "!=", "+", "-", "*", "/", " ", "  ", "(", ")", ",", "[a]", "#", "x",
        "mi", ".", "\t",
    ];

    /// Sums and products of numbers and groups, in parentheses or not.
    fn nested() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(
            &[
                "1",
                "0",
                "7",
                "1000000",
                "1d6",
                "d20",
                "4d6kh3",
                "2d4e4",
                "3d6ro1kl1",
                "10d6>=5",
                "1d1",
            ][..],
        )
        .prop_map(str::to_string);
        leaf.prop_recursive(5, 24, 2, |inner| {
            prop_oneof![
                (
                    inner.clone(),
                    prop::sample::select(&["(", "( "][..]),
                    prop::sample::select(&[")", " )"][..])
                )
                    .prop_map(|(a, o, c)| format!("{o}{a}{c}")),
                (
                    inner.clone(),
                    prop::sample::select(&["+", " - ", "*", " * ", "-", "/"][..]),
                    inner
                )
                    .prop_map(|(a, op, b)| format!("{a}{op}{b}")),
            ]
        })
    }

    fn same(text: &str) {
        if let Some(quick) = fast(text) {
            assert_eq!(parse_full(text, Dialect::D20), Ok(quick), "{text:?}");
        }
    }

    #[test]
    fn the_fast_path_reads_the_benchmark_and_its_neighbours_as_the_parser_does() {
        for text in [
            "10d6>=5",
            "4d6kh3",
            "1d20+5",
            "2d6 + 1d4",
            "4d6ro<3kh3",
            "1d6e6 + 2",
            "d20",
            "1d20 - 2",
            "3d6 + 2d4 - 1",
            "4d6dl1",
            "4d6ph1",
            "1d6e>=5",
            "1d20==20",
            "10d10<3",
            "2d6ro1",
            "1d6=6",
            "100d1000kh100>=1000",
            "(1d4 + 1) * 2",
            "2 * 3d6",
            "( 1d6 + 2 ) * (1d4 - 1)",
            "(((1d6)))",
            "1d6*2*3",
            "1 - 2 * 3",
        ] {
            assert!(fast(text).is_some(), "{text}");
            same(text);
        }
        // Left to the parser: what it refuses or reads otherwise.
        for text in [
            "4d6kh5",
            "1d6e<7",
            "1d6e<=6",
            "10d6>=1",
            "0d6",
            "1d1",
            "101d6",
            "1d1001",
            "1d20 ",
            " 1d20",
            "4d6 kh3",
            "1d20 dex save",
            "5 d6",
            "1d20 >= 5",
            "4D6",
            "4d6kh3ro1",
            "1d6ro1ro2",
            "1d20[STR]",
            "1d20+5 # hit",
            "1d6eh1",
            "4d6k3",
            "1d6!=3",
            "2d6+",
            "1d20+1000001",
            "(1d20 + 5",
            "(1d6,)",
            "1d6 / 2",
            "(((((1d6)))))",
            "1000000 * 1000000 * 1000000",
            "(1d4)d6",
            "(1d4) [a]",
        ] {
            assert!(fast(text).is_none(), "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn the_fast_path_builds_what_the_parser_builds(
            pieces in prop::collection::vec(prop::sample::select(PIECES), 1..12)
        ) {
            let text: String = pieces.concat();
            same(&text);
        }

        #[test]
        fn nested_sums_and_products_read_alike(text in nested()) {
            same(&text);
        }

        #[test]
        fn flat_sums_read_alike(
            terms in prop::collection::vec(
                (0u32..12, 1u32..25, prop::sample::select(&["", "ro1", "ro<3", "e6", "e>=5", "e=2"][..]),
                 prop::sample::select(&["", "kh1", "kl2", "dh1", "pl3", "kh0"][..]),
                 prop::sample::select(&["", ">=5", ">3", "<=2", "<4", "=6", "==1"][..]),
                 prop::sample::select(&[" + ", "+", "-", " - ", "  +  "][..]), any::<bool>()),
                1..6)
        ) {
            let mut text = String::new();
            for (i, (n, s, m, k, t, op, number)) in terms.iter().enumerate() {
                if i > 0 {
                    text.push_str(op);
                }
                if *number {
                    text.push_str(&n.to_string());
                } else {
                    text.push_str(&format!("{n}d{s}{m}{k}{t}"));
                }
            }
            same(&text);
        }
    }
}
