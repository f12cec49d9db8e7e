//! Issue 30, item 2: the last of `d20` 1.1.2's forms, read as `d20` applies
//! them (`SetOperator.operate` in its `expression.py`): each operation of a
//! group in the order written, every later one among the dice still kept
//! (`4d6kh3ro1` rerolls a kept 1, never a dropped one), a second run of `e`
//! or `ra` after another modifier (`1d6e6ro1e5`, `2d6ra6ro1ra5`), and
//! several keeps and drops on a set (`(1d6, 1d6)kh1kl1`). Exact odds, equal
//! to every roll walked here and to d20 itself in `data/d20_golden.json`.

mod common;

use common::{brute_force, roll};
use tabula_core::notation::{
    Dialect, Expr, MAX_NOTATION_WORK, Modifier, Node, NotationError, Select,
};
use tabula_core::odds::OddsError;

fn values(out: &tabula_core::RollOutcome) -> Vec<i64> {
    out.root.dice().iter().map(|d| d.value).collect()
}

fn kept(out: &tabula_core::RollOutcome) -> Vec<bool> {
    out.root.dice().iter().map(|d| d.kept).collect()
}

#[test]
fn a_modifier_after_a_keep_acts_on_the_kept_dice_only() {
    // Keep three (6, 5 and the first 1), then reroll the kept 1 once: the
    // dropped 1 stays.
    let out = roll("4d6kh3ro1", &[1, 5, 1, 6, 4]);
    assert_eq!(values(&out), [4, 5, 1, 6]);
    assert_eq!(kept(&out), [true, true, false, true]);
    assert_eq!(out.total, 15);
    assert_eq!(out.root.dice()[0].rerolled_from, [1]);
    assert!(out.root.dice()[2].rerolled_from.is_empty());
    // Advantage, then a kept 1 rerolled (the earlier 1 is the higher).
    assert_eq!(roll("2d20kh1ro1 + 5", &[1, 1, 20]).total, 25);
    // Two 6s kept explode; the dropped 1 does not matter.
    let out = roll("3d6kh2e6", &[6, 6, 1, 1, 3]);
    assert_eq!(values(&out), [6, 6, 1, 1, 3]);
    assert_eq!(kept(&out), [true, true, false, true, true]);
    assert_eq!(out.total, 16);
    // Keep after a modifier after a keep: among the kept dice.
    assert_eq!(roll("4d6kh3ro1kh2", &[1, 5, 1, 6, 2]).total, 11);
    // `mi` and `ma` only change the kept dice.
    let out = roll("4d6kl2mi3", &[1, 2, 6, 5]);
    assert_eq!(values(&out), [3, 3, 6, 5]);
    assert_eq!(out.total, 6);
    // `ra` looks among the kept dice only: the dropped 4 adds nothing.
    assert_eq!(roll("3d4kh2ra4", &[2, 3, 4, 1]).total, 4 + 3 + 1);
    assert_eq!(roll("3d4kl2ra4", &[2, 3, 4]).total, 5);
    // The steps are kept in order, and the canonical spelling reads back.
    let e = Expr::parse("4d6kh3pl1ro1kh1").unwrap();
    let Node::Dice(d) = e.root() else {
        panic!("one group")
    };
    assert_eq!(
        d.modifiers,
        [
            Modifier::Select(Select::KeepHighest(3)),
            Modifier::Select(Select::DropLowest(1)),
            Modifier::RerollOnce(tabula_core::notation::Test {
                compare: tabula_core::notation::Compare::Equal,
                target: 1
            }),
        ]
    );
    assert_eq!(d.select, Some(Select::KeepHighest(1)));
    for text in [
        "4d6kh3ro1",
        "4d6kh3dl1ro1",
        "2d6kh1e6kh1",
        "4d6k>2ro3",
        "1d6e6ro1e5",
        "2d6ra6ro1ra5",
        "(1d6, 1d6)kh1kl1",
        "(1d6, 2d4, 3)dl1kh1",
    ] {
        let e = Expr::parse(text).unwrap();
        assert_eq!(e.to_string(), text);
        assert_eq!(Expr::parse(&e.to_string()), Ok(e.clone()), "{text}");
    }
    // Roll20 and Foundry apply their own order: still refused there.
    for d in [Dialect::Roll20, Dialect::Foundry] {
        assert!(
            Expr::parse_in("4d6kh3ro1", d).is_err(),
            "{d}: 4d6kh3ro1 is d20's"
        );
    }
}

#[test]
fn a_second_run_of_explosions_or_reroll_and_add_follows_the_other_modifiers() {
    // 6 explodes into 1, the 1 rerolls into 5, which explodes into 2.
    let out = roll("1d6e6ro1e5", &[6, 1, 5, 2]);
    assert_eq!(values(&out), [6, 5, 2]);
    assert_eq!(out.total, 13);
    // A 6 adds a die (1), the 1 rerolls once (5), then a 5 adds one more.
    assert_eq!(roll("2d6ra6ro1ra5", &[6, 2, 1, 5, 3]).total, 16);
    assert_eq!(roll("2d6ra6ro1ra5", &[2, 3]).total, 5);
    // `mi` between two explosions raises the first chain's last die, which
    // then explodes.
    let out = roll("1d6e6mi5e5", &[6, 1, 4]);
    assert_eq!(values(&out), [6, 5, 4]);
    assert_eq!(out.total, 15);
    // Explosions of other kinds stay one run (Roll20, Foundry).
    assert!(Expr::parse_in("1d6!ro1!", Dialect::Roll20).is_err());
}

#[test]
fn several_keeps_and_drops_on_a_set_apply_in_order() {
    // d20's ties: both take the first 4, so one item is kept.
    let out = roll("(1d6, 1d6)kh1kl1", &[4, 4]);
    assert_eq!(out.total, 4);
    assert_eq!(out.to_string(), "(1d6 (4), 1d6 (4) dropped)kh1kl1 = 4");
    assert_eq!(roll("(1d6, 1d6)kh1kl1", &[2, 5]).total, 7);
    // The higher two, then drop the lower of those.
    assert_eq!(roll("(1d6, 1d6, 1d6)kh2pl1", &[3, 6, 5]).total, 6);
    // On exact totals: 2.5 beats 2.
    assert_eq!(roll("(1d6 / 2, 1d4, 2)kh2kl1", &[5, 1]).total, 5);
    // More than the set has is refused in any of them.
    assert!(matches!(
        Expr::parse("(1d6, 1d6)kh1kl3"),
        Err(NotationError::SelectsMoreThanRolled { .. })
    ));
}

#[test]
fn the_new_orders_have_exact_odds() {
    for text in [
        "3d3kh2ro1",
        "3d3kh2rr1",
        "3d4kl2mi2",
        "3d3pl1ma2",
        "2d3kh1e3",
        "3d3kh2ra3",
        "3d3kh2ro1kh1",
        "3d3kh2rol1",
        "3d3k>1ro2",
        "3d3kh2e3kh2",
        "3d3kh2eh1",
        "1d3e3ro1e2",
        "2d3ra3ro1ra2",
        "1d3e3mi2e2 + 1",
        "2d3ra3mi2ra1kh2",
        "(1d3, 1d3)kh1kl1",
        "(1d3, 1d4, 1d2)kh2pl1",
        "(1d3, 1d3, 1d3)k>1kh1",
        "(1d4 / 2, 1d3, 1)kh2kl1",
        "(2d3kh1ro1, 1d4)kl1pl1",
    ] {
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
        let brute = brute_force(&expr);
        assert_eq!(odds.dist.len(), brute.len(), "{text}");
        for (v, p) in &brute {
            assert!(
                (odds.dist.p(v) - p).abs() < 1e-9,
                "{text}: P({v}) = {} vs {p}",
                odds.dist.p(v)
            );
        }
        let explodes = text.contains("e3") || text.contains("e2");
        assert_eq!(odds.exact, !explodes, "{text}");
        assert!(odds.work <= MAX_NOTATION_WORK, "{text}");
    }
}

#[test]
fn the_new_orders_answer_or_refuse_within_the_budget() {
    for text in [
        "1000d6kh999ro1",
        "100d20kh50ro1kh10",
        "40d6e6ro1e5kh20",
        "100d6ra6ro1ra5",
        "(1d100, 1d100, 1d100, 1d100, 1d100)kh2kl1",
        "(10d10, 10d10, 10d10, 10d10, 10d10, 10d10)kh3pl1",
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
    // A set's joint outcomes are counted before they are walked.
    assert!(matches!(
        Expr::parse("(1d100, 1d100, 1d100, 1d100, 1d100)kh2kl1")
            .unwrap()
            .odds(),
        Err(OddsError::TooMuchWork { .. })
    ));
}
