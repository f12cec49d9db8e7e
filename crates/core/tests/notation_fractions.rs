//! Issue 30, item 2: `d20`'s `/` keeps the fraction until the final total,
//! which is rounded toward zero (`int()` in d20 1.1.2), and decimals
//! (`1.5`, `.5`). Tabula holds the fractions exactly. The exact odds are
//! checked against a brute-force walk of every roll in exact fractions
//! (below) and against d20 itself in `data/d20_golden.json`.

use proptest::prelude::*;
use tabula_core::Scripted;
use tabula_core::notation::{Dialect, Expr, NotationError};

fn parse(text: &str) -> Expr {
    Expr::parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn err(text: &str) -> NotationError {
    match Expr::parse(text) {
        Ok(e) => panic!("{text:?} should be refused, parsed as {e:?}"),
        Err(e) => e,
    }
}

fn roll(text: &str, dice: &[u32]) -> tabula_core::RollOutcome {
    let expr = parse(text);
    let mut r = Scripted::dice(dice.iter().copied());
    let out = expr.roll(&mut r).unwrap();
    assert_eq!(r.remaining(), 0, "{text} left dice unused");
    assert_eq!(Some(out.total), out.root.evaluate(), "{out}");
    let mut r = Scripted::dice(dice.iter().copied());
    assert_eq!(expr.roll_total(&mut r).unwrap(), out.total, "{text}");
    out
}

#[test]
fn division_keeps_the_fraction_to_the_end() {
    // d20 1.1.2: `7/2*2` is 7, `-7/2` is -3, `1.5+1` is 2, `.5+1` is 1.
    assert_eq!(roll("7/2*2", &[]).total, 7);
    assert_eq!(roll("7 / 2 * 2", &[]).to_string(), "7 / 2 * 2 = 7");
    assert_eq!(roll("-7/2", &[]).total, -3);
    assert_eq!(roll("1.5+1", &[]).total, 2);
    assert_eq!(roll(".5+1", &[]).total, 1);
    assert_eq!(roll("1d1*2.5", &[1]).total, 2);
    assert_eq!(roll("7//2.0", &[]).total, 3);
    assert_eq!(roll("3.5 % 2", &[]).total, 1);
    assert_eq!(roll("7/2 >= 3.5", &[]).total, 1);
    assert_eq!(roll("7/2 > 3", &[]).total, 1);
    // Exact, not a float: d20's float gives 0.999... and so 0 here.
    assert_eq!(roll("(1 / 49) * 49", &[]).total, 1);
    // The example: d20 -1..1 (Tabula was -3..2).
    let out = roll("1d3ma2 + -(4d2rr2) / 2d12", &[1, 1, 1, 1, 1, 1, 1]);
    // 1 + -(4) / 2 = -1.
    assert_eq!(out.total, -1);
    let odds = parse("1d3ma2 + -(4d2rr2) / 2d12").odds().unwrap();
    let totals: Vec<i64> = odds.dist.iter().map(|(v, _)| *v).collect();
    assert_eq!(totals, [-1, 0, 1]);
    assert!(odds.exact);
}

#[test]
fn halving_damage_then_adding_rounds_once() {
    // 1d6 / 2 + 1d6 / 2 keeps both halves: 3 and 5 give 4, not 1 + 2 = 3.
    assert_eq!(roll("1d6 / 2 + 1d6 / 2", &[3, 5]).total, 4);
    // The odds of 1d4 / 2 * 2: every face back (2 * 1/2 = 1).
    let odds = parse("1d4 / 2 * 2").odds().unwrap();
    for v in 1..=4 {
        assert!((odds.dist.p(&v) - 0.25).abs() < 1e-12, "{v}");
    }
}

#[test]
fn decimals_read_and_print_as_written() {
    assert_eq!(parse("1.50 + 1d4").to_string(), "1.50 + 1d4");
    assert_eq!(parse(".5 * 1d6").to_string(), "0.5 * 1d6");
    assert_eq!(
        parse(parse(".5 * 1d6").to_string().as_str()),
        parse(".5 * 1d6")
    );
    assert_eq!(roll("1d6 * 0.5", &[5]).to_string(), "1d6 (5) * 0.5 = 2");
    let odds = parse("1d6 * 1.5").odds().unwrap();
    // 1.5, 3, 4.5, 6, 7.5, 9 rounded toward zero.
    for v in [1, 3, 4, 6, 7, 9] {
        assert!((odds.dist.p(&v) - 1.0 / 6.0).abs() < 1e-12, "{v}");
    }
    // A decimal is not a dice count, and needs a digit after its point.
    assert!(matches!(err("1.5d6"), NotationError::UnexpectedChar { .. }));
    assert!(matches!(
        err("1. + 2"),
        NotationError::UnexpectedChar { .. }
    ));
    assert!(matches!(
        err("0.1234567"),
        NotationError::TooManyDecimals { max: 6, .. }
    ));
    // d20 only: Roll20 and Foundry are refused, not misread.
    for d in [Dialect::Roll20, Dialect::Foundry] {
        assert!(matches!(
            Expr::parse_in("1d6 * 1.5", d),
            Err(NotationError::NotInDialect { .. })
        ));
    }
}

#[test]
fn bad_fractions_are_refused_naming_the_part() {
    // A divisor that can be 0, fractions included.
    assert!(matches!(
        err("1d6 / (1d2 / 2 - 1)"),
        NotationError::DivisionByZero { .. }
    ));
    // A fractional divisor away from 0 is read.
    assert_eq!(roll("1d6 / (1d4 / 2)", &[3, 1]).total, 6);
    assert_eq!(roll("1d6 / 0.5", &[3]).total, 6);
    // Too fine a fraction: three such divisions are read, four are not.
    // Its odds are refused within the work budget, before the work.
    let odds = parse("1d6 / 1d1000 / 1d1000 / 1d1000").odds();
    assert!(
        matches!(odds, Err(tabula_core::odds::OddsError::TooMuchWork { .. })),
        "{odds:?}"
    );
    assert!(matches!(
        err("1d6 / 1d1000 / 1d1000 / 1d1000 / 1d1000"),
        NotationError::FractionTooFine { .. }
    ));
    // Too large through a small divisor.
    assert!(matches!(
        err("1000000000 / 0.000001 * 1000000000"),
        NotationError::TotalTooLarge { .. }
    ));
    // Sets hold fractions too (issue 30, item 2): see below.
    parse("(1d6 / 2, 1d4)kh1");
    parse("(1d4, 1.5)kh1");
}

/// Issue 30, item 2: a fraction inside a set (`(1d6 / 2, 1d4)kh1`) is kept
/// or dropped on its exact total, as d20 compares its float totals, and the
/// set's total keeps the fraction until the end.
#[test]
fn sets_keep_and_drop_fractions_on_their_exact_totals() {
    // 3 / 2 = 1.5 against 1: the half is higher, and the total 1.5 rounds to 1.
    let out = roll("(1d6 / 2, 1d4)kh1", &[3, 1]);
    assert_eq!(out.total, 1);
    assert_eq!(out.to_string(), "(1d6 (3) / 2, 1d4 (1) dropped)kh1 = 1");
    // 1.5 + 1.5 kept: 3, not 1 + 1.
    assert_eq!(roll("(1d4 / 2, 1d4 / 2)k>1", &[3, 3]).total, 3);
    // 0.5 is not above 1: dropped by value.
    assert_eq!(roll("(1d4 / 2, 1d4 / 2)k>1", &[1, 3]).total, 1);
    // Equal exact totals: the earlier counts as the lower.
    let out = roll("(1d4 / 2, 1d2)kl1", &[2, 1]);
    assert_eq!(out.to_string(), "(1d4 (2) / 2, 1d2 (1) dropped)kl1 = 1");
    // The set's exact total goes on into the arithmetic around it.
    assert_eq!(roll("(1d6 / 2, 1d6 / 2) + 1d6 / 2", &[1, 1, 1]).total, 1);
    assert_eq!(roll("(1d4 / 4, 1d4 / 4, 1) * 4", &[1, 1]).total, 6);
    assert_eq!(roll("-(1d6 / 2, 1d4)kh1", &[5, 1]).total, -2);
    // Exact odds: every roll of a d6 and a d4 walked here.
    let odds = parse("(1d6 / 2, 1d4)kh1").odds().unwrap();
    let mut want = std::collections::BTreeMap::<i64, f64>::new();
    for a in 1..=6i64 {
        for b in 1..=4i64 {
            // max(a / 2, b), rounded toward zero.
            let total = if a > 2 * b { a / 2 } else { b };
            *want.entry(total).or_insert(0.0) += 1.0 / 24.0;
        }
    }
    assert_eq!(odds.dist.len(), want.len());
    for (v, p) in &want {
        assert!((odds.dist.p(v) - p).abs() < 1e-12, "P({v})");
    }
    assert!(odds.exact);
    // The kept fractions' sum is bounded like any fraction.
    assert!(matches!(
        err("(1d6 / 1d1000 / 1d1000, 1d6 / 1d1000 / 1d1000)kh1"),
        NotationError::FractionTooFine { .. }
    ));
}

/// Every roll of a small expression, in exact fractions: (numerator,
/// denominator) pairs, i128, reduced by the caller's comparisons.
#[derive(Clone, Debug)]
enum T {
    Num(i128, i128),
    Die(u32),
    Bin(char, Box<T>, Box<T>),
    Neg(Box<T>),
}

fn text(t: &T) -> String {
    match t {
        T::Num(n, 1) => n.to_string(),
        T::Num(n, d) => format!("{}.{}", n / d, n % d * 10 / d),
        T::Die(s) => format!("1d{s}"),
        T::Bin(op, a, b) => {
            let op = match op {
                'f' => "//".to_string(),
                c => c.to_string(),
            };
            format!("({} {op} {})", text(a), text(b))
        }
        T::Neg(x) => format!("-{}", text(x)),
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

fn norm((n, d): (i128, i128)) -> (i128, i128) {
    let g = gcd(n, d).max(1);
    let (n, d) = (n / g, d / g);
    if d < 0 { (-n, -d) } else { (n, d) }
}

/// Every value with its probability, by walking every die.
fn walk(t: &T) -> Option<Vec<((i128, i128), f64)>> {
    Some(match t {
        T::Num(n, d) => vec![(norm((*n, *d)), 1.0)],
        T::Die(s) => (1..=*s)
            .map(|v| ((i128::from(v), 1), 1.0 / f64::from(*s)))
            .collect(),
        T::Neg(x) => walk(x)?
            .into_iter()
            .map(|((n, d), p)| ((-n, d), p))
            .collect(),
        T::Bin(op, a, b) => {
            let (a, b) = (walk(a)?, walk(b)?);
            let mut out = Vec::new();
            for ((an, ad), p) in &a {
                for ((bn, bd), q) in &b {
                    let v = match op {
                        '+' => (an * bd + bn * ad, ad * bd),
                        '-' => (an * bd - bn * ad, ad * bd),
                        '*' => (an * bn, ad * bd),
                        '/' | 'f' | '%' => {
                            if *bn == 0 {
                                return None;
                            }
                            let (qn, qd) = norm((an * bd, ad * bn));
                            let fl = qn.div_euclid(qd);
                            match op {
                                '/' => (qn, qd),
                                'f' => (fl, 1),
                                // a - b * floor(a / b)
                                _ => (an * bd - fl * bn * ad, ad * bd),
                            }
                        }
                        _ => unreachable!(),
                    };
                    out.push((norm(v), p * q));
                }
            }
            out
        }
    })
}

fn tree() -> impl Strategy<Value = T> {
    let leaf = prop_oneof![
        (0i128..6).prop_map(|n| T::Num(n, 1)),
        (1i128..30).prop_map(|n| T::Num(n, 10)),
        (1u32..7).prop_map(T::Die),
    ];
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (
                prop_oneof![
                    Just('+'),
                    Just('-'),
                    Just('*'),
                    Just('/'),
                    Just('f'),
                    Just('%')
                ],
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| T::Bin(op, Box::new(a), Box::new(b))),
            inner.prop_map(|x| T::Neg(Box::new(x))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The odds of random expressions with `/`, `//`, `%` and decimals equal
    /// a walk of every roll in exact fractions, rounded toward zero at the
    /// end; a divisor that can be 0 is refused at parse time, never rolled.
    #[test]
    fn odds_equal_every_roll_in_exact_fractions(t in tree()) {
        let s = text(&t);
        let walked = walk(&t);
        match Expr::parse(&s) {
            Err(NotationError::DivisionByZero { .. }) => {}
            Err(NotationError::FractionTooFine { .. } | NotationError::TotalTooLarge { .. }) => {}
            Err(e) => prop_assert!(false, "{s}: {e}"),
            Ok(expr) => {
                // A zero divisor somewhere means the parser must refuse.
                let walked = walked.ok_or_else(|| TestCaseError::fail(format!("{s}: 0 divisor read")))?;
                let odds = expr.odds().unwrap();
                let mut want = std::collections::BTreeMap::<i64, f64>::new();
                for ((n, d), p) in walked {
                    *want.entry((n / d) as i64).or_insert(0.0) += p;
                }
                for (v, p) in &want {
                    prop_assert!((odds.dist.p(v) - p).abs() < 1e-9, "{s}: P({v}) {} vs {p}", odds.dist.p(v));
                }
                let mut r = tabula_core::Seeded::from_seed(7);
                let out = expr.roll(&mut r).unwrap();
                prop_assert_eq!(Some(out.total), out.root.evaluate(), "{}", out);
                prop_assert!(want.contains_key(&out.total), "{s}: {}", out);
            }
        }
    }
}
