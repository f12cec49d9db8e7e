//! Issue 30, item 2: several keeps and drops on one group as `d20` 1.1.2
//! applies them, now with one by value (`4d6kh3k>2`, `4d6p<3kh2`) and on a
//! group that explodes or adds dice (`4d6e6kh3pl1`, `4d6ra6kh3kl1`): in the
//! order written, consecutive ones of a kind (`k`, or `p`) a union, each
//! among the dice still kept, the explosions' dice too. Exact odds, equal to
//! every roll walked here and to d20 itself in `data/d20_golden.json`.

mod common;

use common::{brute_force, roll};
use tabula_core::notation::{
    Dialect, Expr, MAX_NOTATION_WORK, NotationError, Select, kept_by_rank,
};
use tabula_core::odds::OddsError;

#[test]
fn keeps_and_drops_by_value_join_those_by_rank() {
    // Keeps merged: the highest three, or any above 4 (a union).
    let out = roll("4d6kh1k>4", &[5, 2, 6, 3]);
    assert_eq!(
        out.to_string(),
        "4d6kh1k>4 (5, 2 dropped, 6, 3 dropped) = 11"
    );
    // Drop those under 3, then keep the highest two left.
    assert_eq!(roll("4d6p<3kh2", &[1, 2, 3, 4]).total, 7);
    assert_eq!(roll("4d6p<3kh2", &[1, 2, 2, 3]).total, 3);
    // Keep three, then drop those under 3 among them.
    assert_eq!(roll("4d6kh3p<3", &[1, 2, 5, 2]).total, 5);
    // The public helper agrees, die by die.
    assert_eq!(
        kept_by_rank(
            &[5, 2, 6, 3],
            &[Select::KeepHighest(1), Select::KeepAbove(4)]
        ),
        [true, false, true, false]
    );
    assert_eq!(
        kept_by_rank(
            &[1, 2, 2, 3],
            &[Select::DropBelow(3), Select::KeepHighest(2)]
        ),
        [false, false, false, true]
    );
    // Printing reads back the same.
    for text in ["4d6kh3k>2", "4d6p<3kh2", "3d6k>3dl1", "4d6e6kh3dl1"] {
        let e = Expr::parse(text).unwrap();
        assert_eq!(e.to_string(), text);
        assert_eq!(Expr::parse(&e.to_string()), Ok(e.clone()), "{text}");
    }
    // Several are d20's: one keep or drop in Roll20 and Foundry.
    for d in [Dialect::Roll20, Dialect::Foundry] {
        assert!(matches!(
            Expr::parse_in("4d6kh3kl1", d),
            Err(NotationError::Misplaced { .. })
        ));
    }
}

#[test]
fn keeps_and_drops_after_explosions_and_added_dice_count_every_die() {
    // 6 explodes into 6 and 2: keep the three highest (6, 6, 4), drop the
    // lowest of those.
    let out = roll("3d6e6kh3pl1", &[6, 4, 1, 6, 2]);
    assert_eq!(out.total, 12);
    assert_eq!(
        out.to_string(),
        "3d6e6kh3dl1 (6!, 4 dropped, 1 dropped, 6!, 2 dropped) = 12"
    );
    // `ra` adds a die, then the highest and the lowest of the three.
    assert_eq!(roll("2d6ra6kh1kl1", &[6, 3, 1]).total, 7);
    // A rank past the dice rolled before explosions is still refused.
    assert!(matches!(
        Expr::parse("2d6e6kh1kh3"),
        Err(NotationError::SelectsMoreThanRolled { .. })
    ));
}

#[test]
fn several_keeps_and_drops_have_exact_odds() {
    for text in [
        "4d3kh2k>1",
        "4d3k>1kh2",
        "4d3p<2kh2",
        "3d4kh2p>3",
        "4d3k<3kh1kl1",
        "3d3ro1k>1kl1",
        "3dFkh2k>0",
        "3d3e3kh2pl1",
        "2d4e4kh1kl1",
        "3d3e3k>1pl1",
        "3d3e3kh2pl1>=2",
        "2d3e3p<2p>2",
        "2d3ra3kh2kl1",
        "2d3ra3e3kh2pl1",
        "3d3rol1kh2k>1",
        "2d3eh1kh2kl1",
    ] {
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
        let brute = brute_force(&expr);
        assert_eq!(odds.dist.len(), brute.len(), "{text}");
        for (v, p) in &brute {
            assert!((odds.dist.p(v) - p).abs() < 1e-9, "{text}: P({v})");
        }
        assert_eq!(odds.exact, !text.contains("e3") && !text.contains("e4"));
        assert!(odds.work <= MAX_NOTATION_WORK, "{text}");
    }
}

#[test]
fn several_keeps_and_drops_answer_or_refuse_within_the_budget() {
    // The example is answered.
    let o = Expr::parse("4d6e6kh3pl1").unwrap().odds().unwrap();
    assert_eq!(o.dist.range(), (2, 12));
    for text in [
        "1000d6e6kh500pl1",
        "20d10k>5kh5",
        "100d20e20kh50kl10",
        "6d6e6kh3pl1",
        "1000d6ra6kh999k>3",
        "10d10000kh5k>9000",
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
