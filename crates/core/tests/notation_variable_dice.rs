//! Issue 30, item 3: variable dice in Roll20 and Foundry (`(2+1)d6`,
//! `2d(1d4)`): the count and the sides are worked out first, then that many
//! dice of that many sides are summed, or rolled with the modifiers written
//! after them (`2d(1d4)kh1`, `(2+1)d6!`; issue 30, item 2's list). Exact
//! odds are checked against a walk of every roll; the caps are checked on
//! the count's and the sides' worst cases before anything is rolled; `d20`
//! does not read them.

mod common;

use common::brute_force;
use tabula_core::Scripted;
use tabula_core::notation::{Dialect, Expr, MAX_NOTATION_WORK, Node, NotationError};
use tabula_core::odds::OddsError;

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
        // Modifiers on them are read (below); a keep past the fewest dice
        // the count gives is refused.
        assert!(Expr::parse_in("(1d4)d6kh1", d).is_ok());
        assert!(matches!(
            Expr::parse_in("(1d4)d6kh2", d),
            Err(NotationError::SelectsMoreThanRolled { rolled: 1, .. })
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

/// Issue 30, item 3 (the brief's item 5): modifiers on variable dice mean
/// that group of dice written with the count and sides worked out.
#[test]
fn modifiers_on_variable_dice_roll_the_group_as_written_with_its_numbers() {
    let r20 = Dialect::Roll20;
    // The d4 first (3), then two d3 kept highest.
    let e = parse("2d(1d4)kh1", r20);
    assert!(matches!(e.root(), Node::ModifiedVarDice(_)));
    assert_eq!(e.to_string(), "2d(1d4)kh1");
    assert_eq!(parse(&e.to_string(), r20), e);
    let mut r = Scripted::dice([3, 2, 3]);
    let out = e.roll(&mut r).unwrap();
    assert_eq!(r.remaining(), 0);
    assert_eq!(
        out.to_string(),
        "2d(1d4 (3)): 2d3kh1 (2 dropped, 3) = 3 (roll20)"
    );
    assert_eq!(Some(out.total), out.root.evaluate());
    // Roll20's `!` on a computed count of d6: explodes on the 6.
    let e = parse("(2+1)d6!", r20);
    assert_eq!(e.to_string(), "(2 + 1)d6e6");
    assert_eq!(parse(&e.to_string(), r20), e);
    let mut r = Scripted::dice([6, 2, 1, 3]);
    assert_eq!(e.roll(&mut r).unwrap().total, 12);
    assert_eq!(r.remaining(), 0);
    // Foundry's spelling reads back in Foundry.
    let e = parse("(1d3)d4cs>=3df=1", Dialect::Foundry);
    assert_eq!(parse(&e.to_string(), Dialect::Foundry), e);
    // Exact odds, equal to every roll walked.
    for (text, d) in [
        ("2d(1d4)kh1", r20),
        ("2d(1d4)kh1", Dialect::Foundry),
        ("(1d3)d4!", r20),
        ("(1d3)d4x", Dialect::Foundry),
        ("(1d2+1)d4>3", r20),
        ("2d(1d3+1)r1", r20),
        ("2d(1d3+1)r1", Dialect::Foundry),
        ("(1d3)d3!!", r20),
        ("(1d3)d3!p", r20),
        ("(1d3)d4xo", Dialect::Foundry),
        ("(1d4)d6min3", Dialect::Foundry),
        ("2d(1d4)>3f1", r20),
        ("(1d2)d(1d3)kl1", r20),
        ("(1d3)d4cs>=3df=1", Dialect::Foundry),
        ("2d(1d4)cs>3", r20),
    ] {
        let expr = parse(text, d);
        let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
        let brute = brute_force(&expr);
        assert_eq!(odds.dist.len(), brute.len(), "{text}");
        for (v, p) in &brute {
            assert!((odds.dist.p(v) - p).abs() < 1e-9, "{text}: P({v})");
        }
        assert!(odds.work <= MAX_NOTATION_WORK);
    }
}

#[test]
fn modifiers_on_variable_dice_are_checked_for_every_die_they_may_roll() {
    for d in DIALECTS {
        // A reroll on every face of the smallest die (a d1) never stops.
        assert!(matches!(
            Expr::parse_in("2d(1d4)rr1", d),
            Err(NotationError::EveryFaceMatches { .. })
        ));
        // A minimum must be a face of every die the sides may give.
        assert!(matches!(
            Expr::parse_in("2d(1d4)mi3", d),
            Err(NotationError::NotAFace { .. })
        ));
        assert!(Expr::parse_in("2d(1d4 + 2)mi3", d).is_ok());
        // Glued only, as on any dice.
        assert!(matches!(
            Expr::parse_in("2d(1d4) kh1", d),
            Err(NotationError::NotInDialect { .. })
        ));
    }
    // The highest face, when the sides vary, is not one number: refused.
    for (text, d) in [
        ("2d(1d4)!", Dialect::Roll20),
        ("2d(1d4)x", Dialect::Foundry),
    ] {
        let e = Expr::parse_in(text, d).unwrap_err();
        assert!(matches!(e, NotationError::NotInDialect { .. }), "{e}");
        assert!(e.to_string().contains("compare point"), "{e}");
    }
    // With fixed sides it is that face.
    assert!(Expr::parse_in("(1d4)d6!", Dialect::Roll20).is_ok());
    // The worst case counts toward the caps before rolling, and the odds
    // answer or refuse within the budget.
    assert!(matches!(
        Expr::parse_in(
            "(1d1000)d6rr1 + (1d1000)d6rr1 + (1d1000)d6rr1",
            Dialect::Roll20
        ),
        Err(NotationError::TooManyDice { .. } | NotationError::TooManyRolls { .. })
    ));
    for text in [
        "(1d100)d(1d100)kh1",
        "(1d998)d(1d10000)!>2",
        "(1d20 + 3)d(1d20)!>10kh3",
    ] {
        match parse(text, Dialect::Roll20).odds() {
            Ok(o) => assert!(o.work <= MAX_NOTATION_WORK, "{text}"),
            Err(e) => assert!(
                matches!(
                    e,
                    OddsError::TooMuchWork { .. } | OddsError::TooManyStates { .. }
                ),
                "{text}: {e}"
            ),
        }
    }
}
