//! Issue 30, item 2: `d20`'s selectors by rank on rerolls and explosions.
//! `rol1`, `roh2`, `eh1`, `el1` are read with `d20` 1.1.2's meaning (the
//! dice the run selects, the earlier of equal dice first; `e` in rounds
//! until no new die joins the highest or lowest), with exact odds, and
//! agree with d20 itself in `data/d20_golden.json`. `rrh1` and `rrl1` stay
//! refused for good: a highest or lowest die always exists, so d20 never
//! stops there (it fails with "Too many dice rolled").

mod common;

use common::{brute_force, roll};
use tabula_core::notation::{Dialect, Expr, MAX_NOTATION_WORK, Modifier, Node, NotationError};
use tabula_core::odds::OddsError;

fn refused(text: &str) -> (String, String, usize) {
    match Expr::parse(text) {
        Err(NotationError::RankSelectorNotRead {
            modifier,
            reason,
            position,
        }) => (modifier, reason, position),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn reroll_until_by_rank_is_refused_for_never_stopping() {
    let (m, reason, at) = refused("3d6rrl1");
    assert_eq!(m, "rrl1");
    assert_eq!(at, 5);
    assert!(reason.contains("never stops"), "{reason}");
    let (m, reason, _) = refused("1d20rrh2 + 5");
    assert_eq!(m, "rrh2");
    assert!(reason.contains("highest"), "{reason}");
    // Letters in any case.
    assert_eq!(refused("4D6RRL1").0, "rrl1");
}

fn odds_are_brute_force(text: &str) {
    let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    // Printing reads back the same.
    assert_eq!(Expr::parse(&expr.to_string()), Ok(expr.clone()), "{text}");
    let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
    let brute = brute_force(&expr);
    assert_eq!(odds.dist.len(), brute.len(), "{text}");
    for (v, p) in &brute {
        assert!((odds.dist.p(v) - p).abs() < 1e-12, "{text}: P({v})");
    }
    assert!(odds.work <= MAX_NOTATION_WORK);
}

#[test]
fn reroll_once_by_rank_rerolls_the_dice_selected_when_it_starts() {
    let out = roll("4d6rol1", &[3, 1, 5, 2, 6]);
    assert_eq!(out.to_string(), "4d6rol1 (3, 1 -> 6, 5, 2) = 16");
    let e = Expr::parse("4d6rol1").unwrap();
    let Node::Dice(term) = e.root() else {
        panic!("{e:?}")
    };
    assert_eq!(
        term.modifiers,
        [Modifier::RerollOnceRank {
            highest: false,
            count: 1
        }]
    );
    // Among equal faces the earlier die is taken, for the highest too.
    assert_eq!(
        roll("3d6rol1", &[2, 2, 5, 4]).to_string(),
        "3d6rol1 (2 -> 4, 2, 5) = 11"
    );
    assert_eq!(
        roll("3d6roh1", &[6, 3, 6, 1]).to_string(),
        "3d6roh1 (6 -> 1, 3, 6) = 10"
    );
    // A run with a test rerolls a die once when either selects it.
    assert_eq!(roll("3d6ro1rol1", &[1, 1, 4, 5, 6]).total, 15);
    assert_eq!(roll("3d6ro6rol1", &[6, 2, 4, 1, 3]).total, 8);
    // None, or more than the group rolls: every die.
    assert_eq!(roll("3d6rol0", &[1, 1, 1]).total, 3);
    assert_eq!(roll("2d6rol3", &[1, 2, 6, 6]).total, 12);
    // Keep after: the brief's example.
    assert_eq!(roll("4d6rol1kh3", &[1, 4, 4, 5, 2]).total, 13);
    for text in [
        "4d6rol1",
        "3d6roh2",
        "3d4ro1rol1",
        "3d4rol1kh2",
        "3d4roh1rol1 >= 8",
        "2d4rol1ro4",
        "3d3rol1mi2",
        "3d4mi2rol1pl1",
        "3dFrol1",
        "2d4rol1rr1",
        "2d3rol1e3kh1",
    ] {
        odds_are_brute_force(text);
    }
    assert!(Expr::parse("4d6rol1").unwrap().odds().unwrap().exact);
}

#[test]
fn explode_by_rank_goes_in_d20s_rounds_and_always_stops() {
    // The highest explodes; the new 6 beats it and explodes; the 2 does not.
    assert_eq!(
        roll("2d6eh1", &[3, 5, 6, 2]).to_string(),
        "2d6eh1 (3, 5!, 6!, 2) = 16"
    );
    // A new die equal to the highest does not join it (the earlier first).
    assert_eq!(roll("1d6eh1", &[4, 4]).to_string(), "1d6eh1 (4!, 4) = 8");
    // The lowest: 2 explodes, the 1 is lower and explodes, the next 1 ties.
    assert_eq!(
        roll("3d4el1", &[2, 3, 2, 1, 1]).to_string(),
        "3d4el1 (2!, 3, 2, 1!, 1) = 9"
    );
    // Two highest: both explode; a new die joins them only above the lower.
    assert_eq!(roll("2d6eh2", &[2, 3, 1, 4, 1]).total, 11);
    // With a test in the run: a 4 or the highest.
    assert_eq!(roll("2d4e4eh1", &[4, 1, 2]).total, 7);
    for text in [
        "1d6eh1",
        "2d4eh1",
        "2d4el1",
        "2d3eh2",
        "3d3eh1kh2",
        "2d4eh1el1",
        "2d3eh1>=2",
        "2d4eh1ro1",
        "1d3ro1eh1",
        "2dFeh1",
    ] {
        odds_are_brute_force(text);
    }
    // By rank alone it always stops: exact odds. With a test, as deep as `e`.
    assert!(Expr::parse("2d6eh1").unwrap().odds().unwrap().exact);
    let o = Expr::parse("2d4e4eh1").unwrap().odds().unwrap();
    assert!(!o.exact && o.truncated_mass > 0.0 && o.truncated_mass < 1e-10);
}

#[test]
fn ranks_on_rerolls_and_explosions_are_bounded_before_they_start() {
    // At most N times the faces explode: counted before rolling.
    assert!(matches!(
        Expr::parse("1000d10000eh1000"),
        Err(NotationError::TooManyRolls { .. })
    ));
    assert!(Expr::parse("10d100eh10").is_ok());
    // Odds past the budget are refused, never run long.
    for text in [
        "1000d6rol1",
        "100d20roh50kh10",
        "50d10eh5",
        "20d6e6eh2kh3",
        "1000d10000ro<9999rol1",
        "3d10000rol1",
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
}

#[test]
fn tests_on_faces_are_unchanged_and_other_dialects_keep_their_errors() {
    for text in ["3d6rr1", "4d6ro<3kh3", "1d6e6", "2d6ro1ro2", "1d6e>5"] {
        Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    // Not d20's selector there: the dialect's own reading or error.
    for d in [Dialect::Roll20, Dialect::Foundry] {
        assert!(!matches!(
            Expr::parse_in("3d6rol1", d),
            Err(NotationError::RankSelectorNotRead { .. }) | Ok(_)
        ));
    }
}

#[test]
fn words_that_start_like_a_selector_stay_a_comment() {
    let e = Expr::parse("1d20 roll for stealth").unwrap();
    assert_eq!(e.comment(), Some("roll for stealth"));
    let e = Expr::parse("2d6 reroll lows").unwrap();
    assert_eq!(e.comment(), Some("reroll lows"));
}
