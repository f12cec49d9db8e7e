//! Issue 30, item 2: `d20`'s `ra` (reroll and add) together with `e`
//! (explode) in one group, each pass in the order written as d20 1.1.2
//! applies them: `ra` adds one fresh die when its run selects any die, and
//! `e` explodes every matching die, the added one too (or, written first,
//! `ra` looks at the dice the explosions added). Exact odds (over pools of
//! dice), equal to every roll walked here and to d20 itself in
//! `data/d20_golden.json`.

mod common;

use common::{brute_force, roll};
use tabula_core::notation::{Expr, MAX_NOTATION_WORK};
use tabula_core::odds::OddsError;

#[test]
fn reroll_and_add_with_explode_apply_in_the_order_written() {
    // `ra6` adds a die on the 6; then both 6s explode.
    assert_eq!(
        roll("1d6ra6e6", &[6, 6, 2, 3]).to_string(),
        "1d6ra6e6 (6!, 6!, 2, 3) = 17"
    );
    // Written after `e`, `ra` sees the dice the explosion added.
    assert_eq!(
        roll("1d6e6ra1", &[6, 1, 4]).to_string(),
        "1d6e6ra1 (6!, 1!, 4) = 11"
    );
    // The added die explodes like the others.
    assert_eq!(roll("2d4ra4e4", &[4, 1, 4, 4, 2, 3]).total, 18);
    // At most one added die, whatever explodes.
    assert_eq!(roll("2d4ra4e4", &[4, 4, 1, 1, 2]).total, 12);
    // Printing reads back the same.
    for text in ["2d6ra6e6", "2d6e5e6ra1kh2", "2d4rah1e4"] {
        let e = Expr::parse(text).unwrap();
        assert_eq!(Expr::parse(&e.to_string()), Ok(e.clone()), "{text}");
    }
    // A second run of `ra` is d20's too, in its turn (issue 30, item 2:
    // `notation_order.rs`): a 6 adds a 2, the 6 explodes into a 1, then
    // the 5 adds a 3.
    assert_eq!(roll("2d6ra6e6ra5", &[6, 5, 2, 1, 3]).total, 17);
}

#[test]
fn reroll_and_add_with_explode_has_exact_odds() {
    for text in [
        "2d4ra4e4",
        "2d4e4ra4",
        "1d4ra1e4",
        "2d3ra3e3kh2",
        "2d3rah1e3",
        "2d3e3ral1ro1",
        "2d3ro1ra3e3mi2",
        "2d3e3ra1k>1",
        "2d4e4ra4>=3",
        "2dFra1e1",
    ] {
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
        let brute = brute_force(&expr);
        assert_eq!(odds.dist.len(), brute.len(), "{text}");
        for (v, p) in &brute {
            assert!((odds.dist.p(v) - p).abs() < 1e-9, "{text}: P({v})");
        }
        // Explosions are followed as deep as rolling goes: not exact for
        // unbounded dice, by a mass too small to see.
        assert!(!odds.exact, "{text}");
        assert!(odds.truncated_mass < 1e-9, "{text}");
        assert!(odds.work <= MAX_NOTATION_WORK, "{text}");
    }
}

#[test]
fn reroll_and_add_with_explode_answers_or_refuses_within_the_budget() {
    for text in [
        "1000d6ra6e6",
        "100d20ra20e20kh10",
        "10d10000ra1e10000",
        "20d6e6ra6",
        "4d6ra6e6",
    ] {
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        match expr.odds() {
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
    assert!(Expr::parse("4d6ra6e6").unwrap().odds().is_ok());
}
