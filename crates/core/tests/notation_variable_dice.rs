//! Issue 30, item 3: variable dice in Roll20 and Foundry (`(2+1)d6`,
//! `2d(1d4)`): the count and the sides are worked out first, then that many
//! dice of that many sides are summed. Exact odds are checked against a
//! walk of every roll; the caps are checked on the count's and the sides'
//! worst cases before anything is rolled; `d20` does not read them.

use tabula_core::Scripted;
use tabula_core::notation::{Dialect, Expr, NotationError};

const DIALECTS: [Dialect; 2] = [Dialect::Roll20, Dialect::Foundry];

fn parse(text: &str, d: Dialect) -> Expr {
    Expr::parse_in(text, d).unwrap_or_else(|e| panic!("{text:?} in {d}: {e}"))
}

#[test]
fn count_and_sides_are_worked_out_then_rolled() {
    for d in DIALECTS {
        let e = parse("(2+1)d6", d);
        assert_eq!(e.to_string(), "(2 + 1)d6");
        assert_eq!(parse(&e.to_string(), d), e);
        let mut r = Scripted::dice([2, 5, 1]);
        let out = e.roll(&mut r).unwrap();
        assert_eq!(out.total, 8);
        assert_eq!(r.remaining(), 0);
        assert_eq!(Some(out.total), out.root.evaluate());
        // 2d(1d4): the d4 first, then two dice of that many sides.
        let mut r = Scripted::dice([3, 2, 3]);
        let out = parse("2d(1d4) + 1", d).roll(&mut r).unwrap();
        assert_eq!(out.total, 6);
        assert_eq!(r.remaining(), 0);
        assert!(
            out.to_string()
                .starts_with("2d(1d4 (3)): 2d3 (2, 3) + 1 = 6"),
            "{out}"
        );
        assert_eq!(Some(out.total), out.root.evaluate());
        assert_eq!(out.root.dice().len(), 3);
    }
}

/// Every total of `count` dice of `sides` sides, as (total, chance).
fn walk(counts: &[(i64, f64)], sides: &[(i64, f64)]) -> std::collections::BTreeMap<i64, f64> {
    let mut out = std::collections::BTreeMap::new();
    for &(c, pc) in counts {
        for &(s, ps) in sides {
            let n = s.pow(c as u32);
            for i in 0..n {
                let (mut x, mut t) = (i, 0);
                for _ in 0..c {
                    t += x % s + 1;
                    x /= s;
                }
                *out.entry(t).or_insert(0.0) += pc * ps / n as f64;
            }
        }
    }
    out
}

#[test]
fn odds_equal_a_walk_of_every_roll() {
    let d4: Vec<(i64, f64)> = (1..=4).map(|v| (v, 0.25)).collect();
    let cases = [
        ("2d(1d4)", walk(&[(2, 1.0)], &d4)),
        ("(1d4)d6", walk(&d4, &[(6, 1.0)])),
        ("(1d4)d(1d4)", walk(&d4, &d4)),
        ("(2+1)d6", walk(&[(3, 1.0)], &[(6, 1.0)])),
        (
            "(1d4 - 1)d4",
            walk(&[(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)], &[(4, 1.0)]),
        ),
    ];
    for d in DIALECTS {
        for (text, want) in &cases {
            let odds = parse(text, d).odds().unwrap();
            assert!(odds.exact, "{text}");
            for (v, p) in want {
                assert!(
                    (odds.dist.p(v) - p).abs() < 1e-12,
                    "{text}: P({v}) {} vs {p}",
                    odds.dist.p(v)
                );
            }
            let mass: f64 = odds.dist.iter().map(|(_, p)| p).sum();
            assert!((mass - 1.0).abs() < 1e-9, "{text}");
        }
    }
}

#[test]
fn out_of_range_counts_and_sides_are_refused_before_rolling() {
    for d in DIALECTS {
        let e = Expr::parse_in("(1d4 - 2)d6", d).unwrap_err();
        assert!(
            matches!(
                e,
                NotationError::VariableDiceOutOfRange {
                    part: "count",
                    lo: -1,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = Expr::parse_in("2d(1d4 - 1)", d).unwrap_err();
        assert!(
            matches!(
                e,
                NotationError::VariableDiceOutOfRange {
                    part: "sides",
                    lo: 0,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = Expr::parse_in("(1d10000 * 1d10)d6", d).unwrap_err();
        assert!(
            matches!(
                e,
                NotationError::VariableDiceOutOfRange {
                    part: "count",
                    hi: 100000,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = Expr::parse_in("2d(1d10000 + 1)", d).unwrap_err();
        assert!(
            matches!(
                e,
                NotationError::VariableDiceOutOfRange {
                    part: "sides",
                    hi: 10001,
                    ..
                }
            ),
            "{e:?}"
        );
        // No modifiers on them yet: refused, not misread.
        assert!(matches!(
            Expr::parse_in("(1d4)d6kh1", d),
            Err(NotationError::NotInDialect { .. })
        ));
        // Big but within the caps: odds refused within the budget, not run.
        let odds = parse("(1d500)d(1d100)", d).odds();
        assert!(
            matches!(odds, Err(tabula_core::odds::OddsError::TooMuchWork { .. })),
            "{odds:?}"
        );
    }
    // d20 reads neither (d20 1.1.2: "expected DICE_VALUE").
    assert!(Expr::parse("2d(1d4)").is_err());
    assert!(Expr::parse("(2+1)d6").is_err());
}
