//! The dice notation: every feature, every error with its position, the caps,
//! manual and scripted rolling, and properties over arbitrary input: the
//! canonical spelling round-trips, a roll's total is its tree's evaluation, and
//! the exact odds equal brute-force enumeration of every roll on small cases.

use proptest::prelude::*;
use std::collections::BTreeMap;
use tabula_core::cards::Card;
use tabula_core::dice::{Die, MAX_POOL, MAX_SIDES};
use tabula_core::notation::{
    BinOp, Compare, DiceTerm, ExplodeKind, Expr, MAX_DEPTH, MAX_EXPLOSIONS, MAX_INPUT_LEN,
    MAX_NUMBER, MAX_REROLLS, MAX_ROLLS, MAX_TERMS, MAX_TOTAL, Modifier, Node, NodeOutcome,
    NotationError, Select, Sides, Test,
};
use tabula_core::odds::OddsError;
use tabula_core::{Manual, RollError, Roller, Scripted, Seeded};

fn parse(text: &str) -> Expr {
    Expr::parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn err(text: &str) -> NotationError {
    match Expr::parse(text) {
        Ok(e) => panic!("{text:?} should be refused, parsed as {e}"),
        Err(e) => e,
    }
}

fn roll(text: &str, dice: &[u32]) -> tabula_core::RollOutcome {
    let mut r = Scripted::dice(dice.iter().copied());
    let out = parse(text).roll(&mut r).unwrap();
    assert_eq!(r.remaining(), 0, "{text} left dice unused");
    out
}

fn dice(text: &str) -> DiceTerm {
    match parse(text).root() {
        Node::Dice(d) => d.clone(),
        other => panic!("{text} is not one dice group: {other:?}"),
    }
}

fn values(out: &tabula_core::RollOutcome) -> Vec<i64> {
    out.root.dice().iter().map(|d| d.value).collect()
}

// ---- features ------------------------------------------------------------

#[test]
fn dice_and_constants() {
    assert_eq!(
        dice("3d6"),
        DiceTerm {
            count: 3,
            sides: Sides::Number(6),
            modifiers: vec![],
            select: None,
            more_select: vec![],
            success: None,
            explode: ExplodeKind::Plain,
            failure: None,
            critical_success: None,
            critical_failure: None,
        }
    );
    assert_eq!(dice("d20").count, 1);
    assert_eq!(dice("d%").sides, Sides::Number(100));
    assert_eq!(dice("2d%").count, 2);
    assert_eq!(*parse("7").root(), Node::Number(7));
    assert_eq!(roll("1d20+5", &[14]).total, 19);
    assert_eq!(roll("1d20 - 5", &[14]).total, 9);
    assert_eq!(roll("-1d6", &[4]).total, -4);
    assert_eq!(roll("+1d6", &[4]).total, 4);
    assert_eq!(roll("-3", &[]).total, -3);
    assert_eq!(roll("2d6 + 1d4 - 2 + 3", &[1, 2, 4]).total, 8);
    assert_eq!(roll("0d6", &[]).total, 0);
    assert_eq!(roll("d%", &[100]).total, 100);
}

#[test]
fn whitespace_and_case_are_tolerated() {
    let canonical = parse("4d6kh3 + 1d20 - 2");
    for text in [
        "4d6kh3+1d20-2",
        "  4D6KH3 +1d20 -2  ",
        "4 d 6 kh 3 + 1D20 - 2",
        "4d6Kh3\t+\n1d20-2",
        "4d6kh3\u{a0}+ 1d20 - 2",
    ] {
        assert_eq!(parse(text), canonical, "{text:?}");
    }
    assert_eq!(canonical.to_string(), "4d6kh3 + 1d20 - 2");
}

#[test]
fn keep_and_drop() {
    assert_eq!(dice("4d6kh3").select, Some(Select::KeepHighest(3)));
    assert_eq!(dice("2d20kl1").select, Some(Select::KeepLowest(1)));
    assert_eq!(dice("4d6dl1").select, Some(Select::DropLowest(1)));
    assert_eq!(dice("4d6dh1").select, Some(Select::DropHighest(1)));
    assert_eq!(dice("4d6pl1").select, Some(Select::DropLowest(1)));
    assert_eq!(dice("4d6PH1").select, Some(Select::DropHighest(1)));

    assert_eq!(roll("4d6kh3", &[6, 5, 2, 4]).total, 15);
    assert_eq!(roll("2d20kl1", &[17, 3]).total, 3);
    assert_eq!(roll("4d6dl1", &[6, 5, 2, 4]).total, 15);
    assert_eq!(roll("4d6dh1", &[6, 5, 2, 4]).total, 11);

    let out = roll("4d6kh3", &[6, 5, 2, 4]);
    let kept: Vec<bool> = out.root.dice().into_iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, true, false, true]);
}

#[test]
fn keeping_or_dropping_more_dice_than_rolled_is_refused() {
    // Python d20 keeps them all; a table means something else by `3d6kh5`, so
    // it is refused and the message says how many were rolled.
    for text in [
        "3d6kh5",
        "3d6kl5",
        "3d6dl5",
        "3d6ph4",
        "0d6kh1",
        "2d6kh1000000000",
    ] {
        let e = Expr::parse(text).unwrap_err();
        assert!(
            matches!(e, NotationError::SelectsMoreThanRolled { .. }),
            "{text}: {e}"
        );
        assert_eq!(e.position(), 3, "{text}");
    }
    assert!(
        Expr::parse("3d6kh5")
            .unwrap_err()
            .to_string()
            .contains("cannot keep 5 dice of 3 rolled")
    );
    // Selecting exactly as many as rolled stays legal.
    assert_eq!(roll("3d6dh3", &[2, 5, 3]).total, 0);
    assert_eq!(roll("3d6kh3", &[2, 5, 3]).total, 10);
    assert_eq!(roll("4d6kh0", &[1, 4, 1, 1]).total, 0);
}

#[test]
fn ties_drop_the_earlier_die() {
    let out = roll("3d6kh2", &[4, 4, 4]);
    let kept: Vec<bool> = out.root.dice().into_iter().map(|d| d.kept).collect();
    assert_eq!(kept, [false, true, true]);
    let out = roll("3d6kl2", &[4, 4, 4]);
    let kept: Vec<bool> = out.root.dice().into_iter().map(|d| d.kept).collect();
    assert_eq!(kept, [true, true, false]);
}

#[test]
fn success_counting() {
    let faces = [6, 2, 5, 1, 3, 4, 4, 2, 1, 5];
    for (text, count) in [
        ("10d6>=5", 3),
        ("10d6>5", 1),
        ("10d6<=2", 4),
        ("10d6<2", 2),
        ("10d6=4", 2),
        ("10d6==4", 2),
        // Issue 30, item 2: after white space `>=` compares the total (d20's
        // meaning): 33 >= 5.
        ("10d6 >= 5", 1),
        ("10d6>=7", 0),
    ] {
        let out = roll(text, &faces);
        assert_eq!(out.total, count, "{text}");
        assert_eq!(out.root.value(), count, "{text}");
    }
    assert_eq!(
        dice("10d6==4").success,
        Some(Test {
            compare: Compare::Equal,
            target: 4
        })
    );
    // A test every face passes counts dice, not successes: refused.
    assert!(matches!(
        Expr::parse("10d6>=0"),
        Err(NotationError::EveryFaceSucceeds { .. })
    ));
    // A success term's value is the count: it adds to other terms like a number.
    assert_eq!(roll("3d6>=5 + 1", &[5, 6, 1]).total, 3);

    let out = roll("10d6>=5", &faces);
    let marks: Vec<Option<bool>> = out.root.dice().into_iter().map(|d| d.success).collect();
    assert_eq!(marks[..3], [Some(true), Some(false), Some(true)]);
}

#[test]
fn success_counting_after_a_selection_counts_kept_dice_only() {
    let out = roll("4d6kh3>=5", &[6, 1, 5, 6]);
    assert_eq!(out.total, 3);
    // The lowest three are 1, 5 and the first 6; the second 6 is dropped.
    let out = roll("4d6kl3>=5", &[6, 1, 5, 6]);
    assert_eq!(out.total, 2);
    let dropped = out.root.dice().into_iter().find(|d| !d.kept).unwrap();
    assert_eq!(dropped.success, None);
}

#[test]
fn dice_are_asked_left_to_right() {
    let out = roll("2d6 + 1d20 - 1d4", &[6, 2, 17, 3]);
    let seen: Vec<(u32, i64)> = out.root.dice().iter().map(|d| (d.sides, d.value)).collect();
    assert_eq!(seen, [(6, 6), (6, 2), (20, 17), (4, 3)]);
    assert_eq!(out.total, 22);
    assert_eq!(parse("2d6 + 1d20 - 1d4 + 5").dice_count(), 4);
    assert_eq!(parse("5").dice_count(), 0);
}

#[test]
fn manual_values() {
    let expr = parse("3d6");
    let mut m = Manual::from_list("6,2,1");
    let out = expr.roll(&mut m).unwrap();
    m.finish().unwrap();
    assert_eq!(out.total, 9);
    let faces: Vec<i64> = out.root.dice().into_iter().map(|d| d.value).collect();
    assert_eq!(faces, [6, 2, 1]);

    let mut m = Manual::from_list("6,2");
    expr.roll(&mut m).unwrap();
    let short = m.finish().unwrap_err();
    assert_eq!(short.to_string(), "need 1 more d6");

    let mut m = Manual::from_list("6,2,9");
    let refused = expr.roll(&mut m).unwrap_err();
    assert!(
        matches!(&refused, RollError::NotAFace { value, sides: 6, .. } if value == "9"),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "\"9\" is not a face of a d6 (faces 1 to 6)"
    );

    let mut m = Manual::from_list("6,2,1,4");
    expr.roll(&mut m).unwrap();
    assert!(matches!(m.finish(), Err(RollError::LeftOver { .. })));
}

#[test]
fn a_script_that_runs_out_is_an_error() {
    let mut r = Scripted::dice([3]);
    assert!(matches!(
        parse("2d6").roll(&mut r),
        Err(RollError::ScriptExhausted { .. })
    ));
}

#[test]
fn outcome_lines() {
    assert_eq!(
        roll("4d6kh3", &[6, 5, 2, 4]).to_string(),
        "4d6kh3 (6, 5, 2 dropped, 4) = 15"
    );
    assert_eq!(roll("1d20+5", &[14]).to_string(), "1d20 (14) + 5 = 19");
    assert_eq!(roll("-d%-2", &[40]).to_string(), "-1d100 (40) - 2 = -42");
    assert_eq!(
        roll("5d6>=5", &[6, 2, 5, 1, 3]).to_string(),
        "5d6>=5 (6*, 2, 5*, 1, 3) [2 successes] = 2"
    );
    assert_eq!(
        roll("3d6kh2>=5", &[6, 2, 1]).to_string(),
        "3d6kh2>=5 (6*, 2, 1 dropped) [1 success] = 1"
    );
    assert_eq!(roll("0d6", &[]).to_string(), "0d6 () = 0");
    assert_eq!(roll("3", &[]).to_string(), "3 = 3");
}

#[test]
fn outcomes_serialize_as_a_tree() {
    let out = roll("2d6kh1+1", &[3, 5]);
    let json = serde_json::to_value(&out).unwrap();
    let die = |value: i64, kept: bool| {
        serde_json::json!({"sides": 6, "fudge": false, "value": value, "kept": kept,
            "success": null, "rerolled_from": [], "clamped_from": null,
            "exploded": false, "from_explosion": false})
    };
    assert_eq!(
        json,
        serde_json::json!({
            "total": 6,
            "comment": null,
            "root": {"kind": "binary", "op": "add", "value": 6,
                "lhs": {"kind": "dice", "text": "2d6kh1", "value": 5, "counts_successes": false,
                    "dice": [die(3, false), die(5, true)]},
                "rhs": {"kind": "number", "value": 1}},
        })
    );
    let back: tabula_core::RollOutcome = serde_json::from_value(json).unwrap();
    assert_eq!(back, out);
    assert!(serde_json::to_string(&parse("4d6kh3-2")).is_ok());
    assert!(
        matches!(parse("-4d6kh3").root(), Node::Neg(_)),
        "leading minus"
    );

    // Rerolled, clamped and exploded dice carry their history.
    let out = roll("2d6ro1mi2e6", &[1, 6, 1, 6, 3]);
    let json = serde_json::to_value(&out).unwrap();
    let dice = &json["root"]["dice"];
    assert_eq!(dice[0]["rerolled_from"], serde_json::json!([1]));
    assert_eq!(dice[0]["clamped_from"], serde_json::json!(1));
    assert_eq!(dice[0]["value"], 2);
    assert_eq!(dice[1]["exploded"], true);
    assert_eq!(dice[2]["from_explosion"], true);
    assert_eq!(dice[2]["exploded"], true);
    assert_eq!(dice[3]["value"], 3);
    assert_eq!(out.total, 2 + 6 + 6 + 3);
}

#[test]
fn from_str_is_parse() {
    let e: Expr = "4d6kh3".parse().unwrap();
    assert_eq!(e, parse("4d6kh3"));
    assert!("4d6kh".parse::<Expr>().is_err());
}

// ---- errors --------------------------------------------------------------

#[test]
fn keep_without_a_number_is_an_unexpected_end() {
    let e = err("1d6kh");
    assert_eq!(
        e,
        NotationError::UnexpectedEnd {
            expected: "a number after `kh`".into(),
            position: 5
        }
    );
    assert_eq!(e.to_string(), "expected a number after `kh` at position 5");
    assert_eq!(e.position(), 5);
}

#[test]
fn a_huge_pool_is_refused_at_once() {
    let e = err("100000000d6");
    assert_eq!(
        e,
        NotationError::TooManyDice {
            count: 100_000_000,
            max: MAX_POOL,
            position: 0
        }
    );
    assert!(e.to_string().contains("at most 1000"), "{e}");
}

#[test]
fn the_pool_cap_counts_the_whole_expression() {
    assert_eq!(parse("1000d6").dice_count(), MAX_POOL);
    assert_eq!(parse("500d6 + 500d4").dice_count(), MAX_POOL);
    assert!(matches!(
        err("1001d6"),
        NotationError::TooManyDice {
            count: 1001,
            position: 0,
            ..
        }
    ));
    assert!(matches!(
        err("500d6 + 501d4"),
        NotationError::TooManyDice {
            count: 1001,
            position: 8,
            ..
        }
    ));
    assert!(matches!(
        err("1000d6 + d4"),
        NotationError::TooManyDice {
            count: 1001,
            position: 9,
            ..
        }
    ));
}

#[test]
fn sides_are_capped() {
    assert_eq!(dice("1d10000").sides, Sides::Number(MAX_SIDES));
    assert_eq!(
        err("1d10001"),
        NotationError::TooManySides {
            sides: 10_001,
            max: MAX_SIDES,
            position: 2
        }
    );
    assert_eq!(err("1d0"), NotationError::ZeroSides { position: 2 });
    assert_eq!(err("2 + d 0"), NotationError::ZeroSides { position: 6 });
}

#[test]
fn numbers_are_capped() {
    assert_eq!(*parse("1000000000").root(), Node::Number(MAX_NUMBER));
    for (text, position) in [
        ("1000000001", 0),
        ("99999999999999999999999999999", 0),
        ("1d6 + 18446744073709551616", 6),
        ("4d6kh99999999999", 5),
        ("10d6>=99999999999", 6),
        ("1d99999999999", 2),
    ] {
        assert_eq!(
            err(text),
            NotationError::NumberTooLarge {
                max: MAX_NUMBER,
                position
            },
            "{text}"
        );
    }
}

#[test]
fn input_length_and_terms_are_capped() {
    let long = "1".repeat(MAX_INPUT_LEN + 1);
    assert_eq!(
        err(&long),
        NotationError::TooLong {
            len: MAX_INPUT_LEN + 1,
            max: MAX_INPUT_LEN,
            position: MAX_INPUT_LEN
        }
    );
    let at_cap = format!("1{}", " ".repeat(MAX_INPUT_LEN - 1));
    assert!(Expr::parse(&at_cap).is_ok());

    let hundred = vec!["1"; MAX_TERMS].join("+");
    assert!(Expr::parse(&hundred).is_ok());
    let over = vec!["1"; MAX_TERMS + 1].join("+");
    assert_eq!(
        err(&over),
        NotationError::TooManyTerms {
            max: MAX_TERMS,
            position: 2 * MAX_TERMS
        }
    );
}

#[test]
fn syntax_errors_say_what_and_where() {
    use NotationError::{UnexpectedChar as Char, UnexpectedEnd as End};
    const OPERAND: &str = "a number, a die such as `d20` or `(`";
    // Issue 30, item 1: a label or a comment may follow a roll too.
    const AFTER: &str = "`+`, `-`, `*`, `/`, a comparison such as `>=`, a `[label]`, the end of the roll, or a comment (`#` and any text, or plain words after a space)";
    const IN_GROUP: &str = "`+`, `-`, `*`, `/` or `)`";
    const SIDES: &str = "the number of sides, `%` or `F` after `d`";
    let end = |expected: &str, position| End {
        expected: expected.into(),
        position,
    };
    let found = |found, expected: &str, position| Char {
        found,
        expected: expected.into(),
        position,
    };
    let cases: &[(&str, NotationError)] = &[
        ("", end(OPERAND, 0)),
        ("   ", end(OPERAND, 3)),
        ("1d6+", end(OPERAND, 4)),
        ("-", end(OPERAND, 1)),
        ("2*", end(OPERAND, 2)),
        ("(1d6", end(IN_GROUP, 4)),
        ("(1d6 + 2", end(IN_GROUP, 8)),
        ("1d", end(SIDES, 2)),
        ("1d6>=", end("a number after `>=`", 5)),
        ("2d20kl", end("a number after `kl`", 6)),
        ("4d6dl", end("a number after `dl`", 5)),
        ("1d6ro", end("a number after `ro`", 5)),
        ("1d6 rr", end("a number after `rr`", 6)),
        ("1d6e", end("a number after `e`", 4)),
        ("1d6mi", end("a number after `mi`", 5)),
        ("1d6 kh", end("a number after `kh`", 6)),
        ("1d6x", found('x', AFTER, 3)),
        ("1d6 2", found('2', AFTER, 4)),
        ("1d6 (2)", found('(', AFTER, 4)),
        ("1d6+é", found('é', OPERAND, 4)),
        ("é+1d6", found('é', OPERAND, 0)),
        ("1d6+1d6é", found('é', AFTER, 7)),
        ("2**3", found('*', OPERAND, 2)),
        ("1dx", found('x', SIDES, 2)),
        ("1d-6", found('-', SIDES, 2)),
        ("(1d6 x)", found('x', IN_GROUP, 5)),
        ("(1d6))", found(')', AFTER, 5)),
        (
            "1d6rx",
            found('x', "`o` or `r` after `r` (`ro1`, `rr1`)", 4),
        ),
        (
            "1d6mx",
            found('x', "`i` or `a` after `m` (`mi2`, `ma5`)", 4),
        ),
        ("1d6ro>x", found('x', "a number after `>`", 6)),
        (
            "1d6kx",
            found(
                'x',
                "`h` or `l` after `k` (`kh1` for the highest, `kl1` for the lowest)",
                4,
            ),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&err(text), want, "{text:?}");
    }
    // Bare `k3` is refused rather than guessed (d20 reads it as "keep the 3s").
    let e = err("4d6k3");
    assert_eq!(e.position(), 4);
    assert_eq!(
        e.to_string(),
        "expected `h` or `l` after `k` (`kh1` for the highest, `kl1` for the lowest) at position 4, found '3'"
    );
    assert_eq!(
        err("4d6p3").to_string(),
        "expected `h` or `l` after `p` (`ph1` for the highest, `pl1` for the lowest) at position 4, found '3'"
    );
}
// ---- arithmetic ------------------------------------------------------------

#[test]
fn arithmetic_follows_precedence_and_parentheses() {
    for (text, total) in [
        ("2 + 3 * 4", 14),
        ("(2 + 3) * 4", 20),
        ("2 * 3 + 4", 10),
        ("10 - 4 - 3", 3),
        ("100 / 10 / 5", 2),
        ("7 / 2", 3),
        ("-7 / 2", -3),
        ("7 / -2", -3),
        ("2 * -3", -6),
        ("--3", 3),
        ("-(2 + 3)", -5),
        ("+4", 4),
        ("((((1))))", 1),
        ("1d6++2", 6),
    ] {
        let dice: Vec<u32> = if text.contains('d') { vec![4] } else { vec![] };
        assert_eq!(roll(text, &dice).total, total, "{text}");
    }
    let out = roll("(1d4 + 1) * 2", &[3]);
    assert_eq!(out.total, 8);
    assert_eq!(out.to_string(), "(1d4 (3) + 1) * 2 = 8");
    assert!(matches!(
        parse("(1d4 + 1) * 2").root(),
        Node::Binary(BinOp::Mul, ab) if matches!(ab[0], Node::Group(_))
    ));
    assert_eq!(parse("(1d4+1)*2").to_string(), "(1d4 + 1) * 2");
    assert_eq!(parse("2d6 + 1d4").to_string(), "2d6 + 1d4");
}

#[test]
fn a_divisor_that_can_be_zero_is_refused() {
    for (text, position) in [
        ("1d6 / 0", 6),
        ("1d6 / (1d2 - 1)", 6),
        ("1 / 1dF", 4),
        ("10 / (3 - 3)", 5),
        ("1 / 0d6", 4),
        ("1 / 2d6>=5", 4),
    ] {
        let e = err(text);
        assert!(
            matches!(e, NotationError::DivisionByZero { .. }),
            "{text}: {e}"
        );
        assert_eq!(e.position(), position, "{text}");
    }
    assert_eq!(
        err("1d6/0").to_string(),
        "the divisor `0` can be 0 (position 4)"
    );
    assert_eq!(roll("1d6 / (1d2)", &[5, 2]).total, 2);
    assert_eq!(roll("-1d6 / (0 - 1d2)", &[5, 2]).total, 2);
}

#[test]
fn totals_that_could_overflow_are_refused() {
    let e = err("1000000000 * 1000000000");
    assert!(
        matches!(e, NotationError::TotalTooLarge { max: MAX_TOTAL, .. }),
        "{e}"
    );
    assert!(matches!(
        err("1000d10000 * 1000000000"),
        NotationError::TotalTooLarge { .. }
    ));
    // 2^53 - 1 is the edge: just under it is fine.
    assert!(Expr::parse("1000000 * 1000000 * 9000").is_ok());
    assert!(matches!(
        err("1000000 * 1000000 * 9008"),
        NotationError::TotalTooLarge { .. }
    ));
}

#[test]
fn nesting_is_capped() {
    let deep = format!("{}1{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
    assert_eq!(roll(&deep, &[]).total, 1);
    let deeper = format!(
        "{}1{}",
        "(".repeat(MAX_DEPTH + 1),
        ")".repeat(MAX_DEPTH + 1)
    );
    assert_eq!(
        err(&deeper),
        NotationError::TooDeep {
            max: MAX_DEPTH,
            position: MAX_DEPTH
        }
    );
    assert!(matches!(
        err(&"-".repeat(MAX_DEPTH + 1)),
        NotationError::TooDeep { .. }
    ));
}

// ---- modifiers -------------------------------------------------------------

#[test]
fn reroll_once_then_keep() {
    // 1 and 2 are under 3: rerolled once each, left to right, as 3 and 4.
    let out = roll("4d6ro<3kh3", &[1, 5, 2, 6, 3, 4]);
    assert_eq!(values(&out), [3, 5, 4, 6]);
    assert_eq!(out.total, 15);
    let d = out.root.dice();
    assert_eq!(d[0].rerolled_from, [1]);
    assert_eq!(d[2].rerolled_from, [2]);
    assert!(!d[0].kept && d[1].kept);
    assert_eq!(
        out.to_string(),
        "4d6ro<3kh3 (1 -> 3 dropped, 5, 2 -> 4, 6) = 15"
    );
    // Once means once: a reroll that matches again stands.
    assert_eq!(roll("1d6ro1", &[1, 1]).total, 1);
    assert_eq!(
        dice("4d6ro<3kh3").modifiers,
        [Modifier::RerollOnce(Test {
            compare: Compare::Below,
            target: 3
        })]
    );
}

#[test]
fn reroll_until_stops_at_its_cap() {
    let out = roll("2d6rr1", &[1, 4, 1, 1, 5]);
    assert_eq!(values(&out), [5, 4]);
    assert_eq!(out.root.dice()[0].rerolled_from, [1, 1, 1]);
    // Issue 30, item 4: the last reroll the cap allows draws among the faces
    // kept (2..6, a d5 asked of the roller), never ending on a 1: the 51st
    // value, 1, is the d5's first face, 2.
    let ones = vec![1; 1 + MAX_REROLLS as usize];
    let out = roll("1d6rr1", &ones);
    assert_eq!(out.total, 2);
    assert_eq!(out.root.dice()[0].rerolled_from.len(), MAX_REROLLS as usize);
}

#[test]
fn issue_30_item_4_rr_is_exact_in_closed_form() {
    let o = parse("1d20rr<20").odds().unwrap();
    assert!(o.exact);
    assert_eq!(o.truncated_mass, 0.0);
    assert_eq!(o.dist.p(&20), 1.0);
    assert_eq!(o.dist.len(), 1);
    // Uniform over the kept faces: 1d6rr1 is 2..6, each 1/5.
    let o = parse("1d6rr1").odds().unwrap();
    for v in 2..=6 {
        assert!((o.dist.p(&v) - 0.2).abs() < 1e-15);
    }
    assert_eq!(o.dist.p(&1), 0.0);
}

#[test]
fn issue_30_item_4_rr_never_ends_on_a_rerolled_face() {
    // 50 rerolls of 1..19 would end on 19 before; now the cap's last draw
    // is among the kept faces: only 20.
    let mut faces = vec![1; MAX_REROLLS as usize];
    faces.push(1);
    let mut script = Scripted::dice(faces);
    let out = parse("1d20rr<20").roll(&mut script).unwrap();
    assert_eq!(out.total, 20);
    let mut seeded = Seeded::from_seed(7);
    for _ in 0..200 {
        assert_eq!(parse("1d20rr<20").roll(&mut seeded).unwrap().total, 20);
    }
}

#[test]
fn minimum_and_maximum() {
    let out = roll("4d6mi3", &[1, 5, 2, 6]);
    assert_eq!(values(&out), [3, 5, 3, 6]);
    assert_eq!(out.root.dice()[0].clamped_from, Some(1));
    assert_eq!(out.root.dice()[1].clamped_from, None);
    assert_eq!(out.to_string(), "4d6mi3 (3 (was 1), 5, 3 (was 2), 6) = 17");
    assert_eq!(roll("4d6ma4", &[1, 5, 2, 6]).total, 11);
    assert_eq!(roll("4d6mi2ma5", &[1, 5, 2, 6]).total, 14);
    for (text, position) in [("1d6mi7", 3), ("1d6ma0", 3), ("1d20 + 1d6mi7", 10)] {
        let e = err(text);
        assert!(matches!(e, NotationError::NotAFace { .. }), "{text}: {e}");
        assert_eq!(e.position(), position);
    }
    assert_eq!(
        err("1d6mi7").to_string(),
        "mi7: 7 is not a face of a d6 (position 3)"
    );
}

#[test]
fn exploding_dice() {
    let out = roll("1d6e6 + 2", &[6, 6, 2]);
    assert_eq!(out.total, 16);
    assert_eq!(out.to_string(), "1d6e6 (6!, 6!, 2) + 2 = 16");
    let d = out.root.dice();
    assert!(d[0].exploded && !d[0].from_explosion);
    assert!(d[1].exploded && d[1].from_explosion);
    assert!(!d[2].exploded && d[2].from_explosion);
    // Explosions come after all the group's dice, in the order rolled.
    let out = roll("3d6e>=5", &[5, 1, 6, 2, 5, 3]);
    assert_eq!(values(&out), [5, 1, 6, 2, 5, 3]);
    // The chain stops at its cap: the last die counts but does not explode.
    let sixes = vec![6; 1 + MAX_EXPLOSIONS as usize];
    let out = roll("1d6e6", &sixes);
    assert_eq!(out.root.dice().len(), 1 + MAX_EXPLOSIONS as usize);
    assert!(!out.root.dice().last().unwrap().exploded);
    assert_eq!(out.total, 6 * (1 + i64::from(MAX_EXPLOSIONS)));
    // Explosion dice are counted, kept and dropped like the others.
    assert_eq!(roll("3d10e10>=8", &[10, 3, 8, 9]).total, 3);
    assert_eq!(roll("2d6e6kh1", &[6, 2, 3]).total, 6);
    // Modifiers written after `e` apply to the new dice, those before do not.
    assert_eq!(values(&roll("1d6e6ro1", &[6, 1, 4])), [6, 4]);
    assert_eq!(values(&roll("1d6ro1e6", &[1, 6, 1])), [6, 1]);
    // Issue 30, item 2: explosions written together merge as in d20 (one
    // pass on 5 or 6); an explosion on both sides of another modifier is
    // d20's: each run in turn (issue 30, item 2): 6 explodes into a 1, the
    // 1 rerolls once into a 5, which explodes into a 2.
    assert_eq!(values(&roll("1d6e6e5", &[5, 6, 2])), [5, 6, 2]);
    let out = roll("1d6e6ro1e5", &[6, 1, 5, 2]);
    assert_eq!(values(&out), [6, 5, 2]);
    assert_eq!(out.total, 13);
}

#[test]
fn long_explosion_chains_keep_their_depth() {
    // Three chains of sixes, each capped at MAX_EXPLOSIONS deep: the dice
    // an explosion adds come in rounds (one per original die), so more than
    // 32 dice are added and the depths of the later ones are kept past the
    // first 32.
    let n = 3 * (1 + MAX_EXPLOSIONS as usize);
    let out = roll("3d6e6", &vec![6; n]);
    let d = out.root.dice();
    assert_eq!(d.len(), n);
    assert_eq!(out.total, 6 * n as i64);
    let exploded: Vec<bool> = d.iter().map(|d| d.exploded).collect();
    assert!(exploded[..n - 3].iter().all(|e| *e));
    assert!(exploded[n - 3..].iter().all(|e| !*e));
}

#[test]
fn thresholds_every_face_meets_are_refused() {
    for (text, operator) in [
        ("1d6rr<7", "rr"),
        ("1d6e>=1", "e"),
        ("1d1e1", "e"),
        ("4dFrr<=1", "rr"),
    ] {
        match err(text) {
            NotationError::EveryFaceMatches {
                operator: op,
                position: 3,
                ..
            } => {
                assert_eq!(op, operator, "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(
        err("1d6rr<7").to_string(),
        "every face of a d6 matches rr<7, so it would never stop (position 3)"
    );
    // A test no face meets is harmless.
    assert_eq!(roll("1d6e7", &[6]).total, 6);
    assert_eq!(roll("1d6ro<1", &[1]).total, 1);
    // Rerolling every face once is just rolling again.
    assert_eq!(roll("1d6ro<7", &[1, 5]).total, 5);
}

#[test]
fn modifiers_come_before_keep_and_the_test_comes_last() {
    // A modifier after a keep or drop is d20's (issue 30, item 2): among
    // the dice still kept (`notation_order.rs`).
    assert_eq!(parse("4d6kh3 ro1").to_string(), "4d6kh3ro1");
    for (text, position) in [
        // Several keeps are d20's, by value too (issue 30, item 2:
        // `3d6k<3kl1` is read, `notation_keeps_and_drops.rs`).
        ("1d6>=5kh1", 6),
        ("1d6>=5e6", 6),
    ] {
        let e = err(text);
        assert!(matches!(e, NotationError::Misplaced { .. }), "{text}: {e}");
        assert_eq!(e.position(), position, "{text}");
    }
}

#[test]
fn fudge_and_percentile_dice() {
    let out = roll("4dF", &[1, 2, 3, 3]);
    assert_eq!(values(&out), [-1, 0, 1, 1]);
    assert_eq!(out.total, 1);
    assert_eq!(out.to_string(), "4dF (-1, 0, 1, 1) = 1");
    assert!(out.root.dice()[0].fudge);
    assert_eq!(dice("4df").sides, Sides::Fudge);
    assert_eq!(parse("4df + 1").to_string(), "4dF + 1");
    let mut m = Manual::from_list("-,0,+,+");
    let out = parse("4dF").roll(&mut m).unwrap();
    m.finish().unwrap();
    assert_eq!(out.total, 1);
    assert_eq!(roll("4dF>=1", &[1, 3, 3, 2]).total, 2);
    assert!(matches!(
        err("4dF<=1"),
        NotationError::EveryFaceSucceeds { .. }
    ));
    assert_eq!(roll("d%", &[100]).total, 100);
    assert_eq!(parse("d%").to_string(), "1d100");
}

#[test]
fn comments_follow_the_roll() {
    for (text, comment, canonical) in [
        ("1d20 + 5 dex save", "dex save", "1d20 + 5"),
        ("1d20 roll for stealth", "roll for stealth", "1d20"),
        ("4d6kh3 str  ", "str", "4d6kh3"),
        ("1d20 dex", "dex", "1d20"),
        ("2d6 + 3 damage (fire)", "damage (fire)", "2d6 + 3"),
        ("1d20 # to hit", "# to hit", "1d20"),
        ("1d6 x", "x", "1d6"),
        ("1d20 ex", "ex", "1d20"),
        ("1d20 mighty blow", "mighty blow", "1d20"),
        ("1d20 khaki", "khaki", "1d20"),
    ] {
        let e = parse(text);
        assert_eq!(e.comment(), Some(comment), "{text}");
        assert_eq!(e.root().to_string(), canonical, "{text}");
        assert_eq!(parse(&e.to_string()), e, "{text}");
    }
    let out = roll("1d20 + 5 dex save", &[12]);
    assert_eq!(out.to_string(), "dex save: 1d20 (12) + 5 = 17");
    assert_eq!(out.comment.as_deref(), Some("dex save"));
    // No comment without a space, nor inside parentheses.
    assert!(Expr::parse("1d20dex").is_err());
    assert!(Expr::parse("(1d20 dex)").is_err());
}

#[test]
fn rerolls_and_explosions_are_capped_before_rolling() {
    assert!(Expr::parse("1000d6e6").is_ok());
    let e = err("1000d6e6rr1rr1");
    assert!(
        matches!(
            e,
            NotationError::TooManyRolls {
                max: MAX_ROLLS,
                position: 0,
                ..
            }
        ),
        "{e}"
    );
    assert!(matches!(
        err("500d6e6rr1 + 500d6e6rr1"),
        NotationError::TooManyRolls { position: 13, .. }
    ));
}

#[test]
fn a_manual_roller_that_runs_short_stops_rerolling() {
    let expr = parse("1d6rr1e6");
    let mut m = Manual::from_list("1");
    expr.roll(&mut m).unwrap();
    assert_eq!(m.finish().unwrap_err().to_string(), "need 1 more d6");
}

// ---- properties ------------------------------------------------------------

fn ws() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(""), Just(""), Just(" "), Just("\t")]
}

/// A test after a modifier or as a success test: `3`, `<3`, `>=2`, `==1`.
fn loose_test(compare_required: bool) -> impl Strategy<Value = String> {
    let cmp = if compare_required {
        prop_oneof![
            Just(">="),
            Just(">"),
            Just("<="),
            Just("<"),
            Just("="),
            Just("==")
        ]
        .boxed()
    } else {
        prop_oneof![
            Just(""),
            Just(""),
            Just(">"),
            Just("<"),
            Just(">="),
            Just("<="),
            Just("=")
        ]
        .boxed()
    };
    (cmp, 0..=12u32).prop_map(|(c, n)| format!("{c}{n}"))
}

/// A dice group written loosely, as a player might.
fn loose_dice() -> impl Strategy<Value = String> {
    let count = prop_oneof![Just(String::new()), (0..=6u32).prop_map(|n| n.to_string())];
    let d = prop_oneof![Just("d"), Just("D")];
    let sides = prop_oneof![
        Just("%".to_string()),
        Just("F".to_string()),
        Just("f".to_string()),
        (1..=12u32).prop_map(|n| n.to_string()),
        (1..=MAX_SIDES).prop_map(|n| n.to_string()),
    ];
    let modifier = prop_oneof![
        (
            prop_oneof![
                Just("ro"),
                Just("RO"),
                Just("rr"),
                Just("e"),
                Just("E"),
                Just("ra"),
                Just("rA")
            ],
            loose_test(false)
        )
            .prop_map(|(op, t)| format!("{op}{t}")),
        (prop_oneof![Just("mi"), Just("ma"), Just("MI")], 0..=12u32)
            .prop_map(|(op, n)| format!("{op}{n}")),
    ];
    let select = prop_oneof![
        Just(String::new()),
        (
            prop_oneof![
                Just("kh"),
                Just("KL"),
                Just("dh"),
                Just("dl"),
                Just("ph"),
                Just("pL"),
                Just("k<"),
                Just("P>"),
                Just("d<")
            ],
            0..6u32
        )
            .prop_map(|(op, n)| format!("{op}{n}"))
    ];
    // Several keeps and drops (d20's, issue 30, item 2).
    let more = prop_oneof![
        3 => Just(""),
        1 => Just("pl1"),
        1 => Just("KH1"),
        1 => Just("kl2ph1"),
    ];
    let select = (select, more).prop_map(|(sel, more)| {
        if sel.is_empty() {
            sel
        } else {
            format!("{sel}{more}")
        }
    });
    let success = prop_oneof![Just(String::new()), loose_test(true)];
    (
        count,
        ws(),
        d,
        sides,
        proptest::collection::vec(modifier, 0..3),
        ws(),
        select,
        success,
    )
        .prop_map(|(c, w, d, s, mods, w2, sel, suc)| {
            // A success test is glued to its group (issue 30: after white
            // space a comparison compares totals).
            let w2 = if sel.is_empty() && !suc.is_empty() {
                ""
            } else {
                w2
            };
            format!("{c}{w}{d}{s}{}{w2}{sel}{suc}", mods.concat())
        })
}

fn loose_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (0..=20u32).prop_map(|n| n.to_string()),
        Just(MAX_NUMBER.to_string()),
        loose_dice(),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            (inner.clone(), ws()).prop_map(|(e, w)| format!("({w}{e}{w})")),
            (prop_oneof![Just("-"), Just("+"), Just("- ")], inner.clone())
                .prop_map(|(s, e)| format!("{s}{e}")),
            (
                inner.clone(),
                prop_oneof![Just(" + "), Just("-"), Just(" * "), Just("/"), Just(" - ")],
                inner
            )
                .prop_map(|(a, op, b)| format!("{a}{op}{b}")),
        ]
    })
}

/// Refusals that loose text may meet on purpose.
fn refused_on_purpose(e: &NotationError) -> bool {
    matches!(
        e,
        NotationError::SelectsMoreThanRolled { .. }
            | NotationError::EveryFaceSucceeds { .. }
            | NotationError::EveryFaceMatches { .. }
            | NotationError::NotAFace { .. }
            | NotationError::DivisionByZero { .. }
            | NotationError::TotalTooLarge { .. }
            | NotationError::TooManyRolls { .. }
            | NotationError::TooManyDice { .. }
            | NotationError::Misplaced { .. }
            | NotationError::FractionTooFine { .. }
    )
}

/// Every node's stored value equals its evaluation from the dice up.
fn check_tree(node: &NodeOutcome) -> Result<(), TestCaseError> {
    prop_assert_eq!(Some(node.value()), node.evaluate(), "{}", node);
    match node {
        NodeOutcome::Number { .. } | NodeOutcome::Decimal { .. } => {}
        NodeOutcome::VarDice {
            count, sides, dice, ..
        } => {
            check_tree(count)?;
            check_tree(sides)?;
            check_tree(dice)?;
        }
        NodeOutcome::Dice { dice, .. } => {
            for d in dice {
                let (lo, hi) = if d.fudge {
                    (-1, 1)
                } else {
                    (1, i64::from(d.sides))
                };
                // A penetrating extra die counts one less than its face; a
                // compounding die holds its chain's sum.
                let lo = if d.from_explosion { lo - 1 } else { lo };
                if d.compounded.is_empty() {
                    prop_assert!((lo..=hi).contains(&d.value), "{:?}", d);
                } else {
                    prop_assert_eq!(d.value, d.compounded.iter().sum::<i64>());
                }
            }
        }
        NodeOutcome::Neg { operand: x, .. }
        | NodeOutcome::Group { inner: x, .. }
        | NodeOutcome::Labelled { inner: x, .. }
        | NodeOutcome::Func { inner: x, .. } => check_tree(x)?,
        NodeOutcome::Set { items, .. } => {
            for item in items {
                check_tree(&item.outcome)?;
            }
        }
        NodeOutcome::Binary { operands, .. } => {
            check_tree(&operands.lhs)?;
            check_tree(&operands.rhs)?;
        }
    }
    Ok(())
}

/// A roller that walks every sequence of faces in turn, like an odometer:
/// `path` holds the face chosen and the sides of each die asked so far.
struct Walk {
    path: Vec<(u32, u32)>,
    at: usize,
}

impl Roller for Walk {
    fn roll(&mut self, die: Die) -> Result<u32, RollError> {
        if self.at == self.path.len() {
            self.path.push((1, die.sides()));
        }
        let face = self.path[self.at].0;
        self.at += 1;
        Ok(face)
    }

    fn draw(&mut self, _: &[Card]) -> Result<usize, RollError> {
        Err(RollError::EmptyPile)
    }
}

/// The distribution of the total by rolling every possible sequence of dice
/// (rerolls and explosions included), or `None` past `budget` sequences.
fn brute_force(expr: &Expr, budget: usize) -> Option<BTreeMap<i64, f64>> {
    let mut walk = Walk {
        path: Vec::new(),
        at: 0,
    };
    let mut dist = BTreeMap::new();
    for _ in 0..budget {
        walk.at = 0;
        let out = expr.roll(&mut walk).unwrap();
        walk.path.truncate(walk.at);
        let p: f64 = walk.path.iter().map(|(_, s)| 1.0 / f64::from(*s)).product();
        *dist.entry(out.total).or_insert(0.0) += p;
        loop {
            match walk.path.last_mut() {
                None => return Some(dist),
                Some(last) if last.0 < last.1 => {
                    last.0 += 1;
                    break;
                }
                Some(_) => {
                    walk.path.pop();
                }
            }
        }
    }
    None
}

/// A small dice group whose every roll can be enumerated: few dice, few sides,
/// rerolls-until and explosions on a single face.
fn small_dice() -> impl Strategy<Value = String> {
    let sides = prop_oneof![
        Just("F".to_string()),
        (1..=4u32).prop_map(|n| n.to_string()),
        Just("6".to_string())
    ];
    let modifier = prop_oneof![
        (loose_test(false)).prop_map(|t| format!("ro{t}")),
        (0..=6u32).prop_map(|n| format!("rr{n}")),
        (0..=6u32).prop_map(|n| format!("e{n}")),
        (0..=6u32).prop_map(|n| format!("mi{n}")),
        (0..=6u32).prop_map(|n| format!("ma{n}")),
        // Issue 30, item 2: d20's reroll and add.
        (0..=6u32).prop_map(|n| format!("ra{n}")),
        (prop_oneof![Just("rah"), Just("ral")], 0..=2u32).prop_map(|(op, n)| format!("{op}{n}")),
    ];
    let select = prop_oneof![
        2 => Just(String::new()),
        1 => (prop_oneof![Just("kh"), Just("kl"), Just("dh"), Just("dl")], 0..3u32)
            .prop_map(|(op, n)| format!("{op}{n}")),
        // Issue 30, item 2: several keeps and drops by rank.
        1 => (prop_oneof![Just("kh"), Just("dl")], 0..3u32, prop_oneof![Just("kl"), Just("ph"), Just("kh")], 0..3u32)
            .prop_map(|(a, n, b, m)| format!("{a}{n}{b}{m}")),
        // Issue 30: d20's selectors by value.
        1 => (prop_oneof![Just("k<"), Just("k>"), Just("p<"), Just("p>")], 0..7u32)
            .prop_map(|(op, n)| format!("{op}{n}"))
    ];
    let success = prop_oneof![2 => Just(String::new()), 1 => loose_test(true)];
    (
        0..=3u32,
        sides,
        proptest::collection::vec(modifier, 0..=2),
        select,
        success,
    )
        .prop_map(|(c, s, mods, sel, suc)| format!("{c}d{s}{}{sel}{suc}", mods.concat()))
}

fn small_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![(0..=4u32).prop_map(|n| n.to_string()), small_dice()];
    leaf.prop_recursive(2, 4, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| format!("-({e})")),
            (
                inner.clone(),
                prop_oneof![Just("+"), Just("-"), Just("*"), Just("/")],
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a}) {op} ({b})")),
            // Issue 30, item 2: d20's sets.
            (
                inner.clone(),
                inner,
                prop_oneof![Just(""), Just("kh1"), Just("pl1"), Just("k>2")]
            )
                .prop_map(|(a, b, s)| format!("({a}, {b}){s}")),
        ]
    })
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        if let Err(e) = Expr::parse(&text) {
            prop_assert!(e.position() <= text.len());
            prop_assert!(text.is_char_boundary(e.position()));
        }
    }

    #[test]
    fn notation_like_text_never_panics(text in "[0-9dDkKhHlLpPfFeErRoOmMiIa%<>=+*/()\\- ]{0,40}") {
        match Expr::parse(&text) {
            Ok(e) => {
                prop_assert_eq!(Expr::parse(&e.to_string()), Ok(e.clone()));
                let out = e.roll(&mut Seeded::from_seed(7)).unwrap();
                prop_assert_eq!(Some(out.total), out.root.evaluate());
            }
            Err(e) => {
                prop_assert!(e.position() <= text.len());
                prop_assert!(text.is_char_boundary(e.position()));
            }
        }
    }

    #[test]
    fn printing_then_parsing_round_trips_and_the_total_is_the_tree(
        text in loose_expr(),
        comment in prop_oneof![Just(""), Just(" dex save"), Just(" to hit")],
        seed in any::<u64>(),
    ) {
        let text = format!("{text}{comment}");
        let e = match Expr::parse(&text) {
            Err(e) if refused_on_purpose(&e) => return Ok(()),
            r => r.map_err(|err| TestCaseError::fail(format!("{text:?}: {err}")))?,
        };
        let printed = e.to_string();
        let again = Expr::parse(&printed);
        prop_assert_eq!(&again, &Ok(e.clone()), "{}", printed);
        prop_assert_eq!(again.unwrap().to_string(), printed.clone());
        let out = e.roll(&mut Seeded::from_seed(seed)).unwrap();
        prop_assert_eq!(Some(out.total), out.root.evaluate(), "{}", out);
        check_tree(&out.root)?;
        prop_assert!(out.total.abs() <= MAX_TOTAL);
        prop_assert!(out.root.dice().len() >= e.dice_count() as usize);
    }

    #[test]
    fn the_total_alone_is_the_roll_total_with_the_same_dice(
        text in loose_expr(),
        seed in any::<u64>(),
    ) {
        let e = match Expr::parse(&text) {
            Err(e) if refused_on_purpose(&e) => return Ok(()),
            r => r.map_err(|err| TestCaseError::fail(format!("{text:?}: {err}")))?,
        };
        let (mut a, mut b) = (Seeded::from_seed(seed), Seeded::from_seed(seed));
        let out = e.roll(&mut a).unwrap();
        prop_assert_eq!(e.roll_total(&mut b).unwrap(), out.total, "{}", out);
        // The same number of dice taken: the streams go on together.
        prop_assert_eq!(a.roll(Die::D20).unwrap(), b.roll(Die::D20).unwrap());
        // And from a script, die for die.
        let faces: Vec<u32> = out.root.dice().iter().map(|d| match d.fudge {
            true => (d.value + 2) as u32,
            false => d.value as u32,
        }).collect();
        if out.root.dice().iter().all(|d| d.rerolled_from.is_empty() && d.clamped_from.is_none()) {
            let mut script = Scripted::dice(faces);
            prop_assert_eq!(e.roll_total(&mut script).unwrap(), out.total);
            prop_assert_eq!(script.remaining(), 0);
        }
    }

    #[test]
    fn odds_equal_brute_force_on_small_cases(text in small_expr()) {
        let e = match Expr::parse(&text) {
            Err(e) if refused_on_purpose(&e) => return Ok(()),
            r => r.map_err(|err| TestCaseError::fail(format!("{text:?}: {err}")))?,
        };
        let odds = match e.odds() {
            // Issue 30, item 5: past the work budget the odds refuse; only
            // cases too large to enumerate here may be refused.
            Err(
                OddsError::TooMuchWork { .. }
                | OddsError::TooManyStates { .. }
                | OddsError::TooLarge { .. },
            ) => {
                // An explosion under a division has a new fraction for every
                // number of explosions: its odds may pass the outcome cap while
                // brute force lists a truncated few.
                prop_assert!(
                    text.contains('e') || brute_force(&e, 100_000).is_none(),
                    "{}: refused",
                    text
                );
                return Ok(());
            }
            r => r.map_err(|err| TestCaseError::fail(format!("{text:?}: {err}")))?,
        };
        let Some(brute) = brute_force(&e, 100_000) else { return Ok(()) };
        let mut total = 0.0;
        for (v, p) in &brute {
            let diff = (odds.dist.p(v) - p).abs();
            prop_assert!(diff < 1e-9, "{}: P({}) = {} vs brute force {}", text, v, odds.dist.p(v), p);
            total += p;
        }
        prop_assert!((total - 1.0).abs() < 1e-9);
        for (v, p) in odds.dist.iter() {
            prop_assert!(brute.contains_key(v) || p < 1e-12, "{}: {} not rolled", text, v);
        }
        prop_assert_eq!(odds.exact, !text.contains('e'));
    }
}

/// A case the property test above found: `1 / 1d6e1` has a new fraction for
/// every number of explosions, so its odds pass the outcome cap and are
/// refused (`TooLarge`, issue 30, item 5), never answered wrongly.
#[test]
fn an_expression_with_too_many_fractions_is_refused_not_misread() {
    let e = parse("((1) / (1d6e1), 0)");
    assert!(
        matches!(e.odds(), Err(OddsError::TooLarge { .. })),
        "{:?}",
        e.odds()
    );
}

#[test]
fn odds_of_the_acceptance_expressions() {
    let o = parse("(1d4 + 1) * 2").odds().unwrap();
    assert!(o.exact);
    assert_eq!(
        o.dist.iter().map(|(v, _)| *v).collect::<Vec<_>>(),
        [4, 6, 8, 10]
    );
    let o = parse("4d6ro<3kh3").odds().unwrap();
    assert!(o.exact);
    assert!((o.dist.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-12);
    let o = parse("1d6e6 + 2").odds().unwrap();
    assert!(!o.exact);
    // The chain reaches its cap and meets the test once more: (1/6)^21.
    let want = (1.0f64 / 6.0).powi(MAX_EXPLOSIONS as i32 + 1);
    assert!(
        (o.truncated_mass - want).abs() < 1e-12 * want,
        "{}",
        o.truncated_mass
    );
    assert!((o.dist.mean() - (3.5 * 6.0 / 5.0 + 2.0)).abs() < 1e-9);
    let o = parse("3d6e6kh2").odds().unwrap();
    assert!(!o.exact);
    assert_eq!(o.dist.range(), (2, 12));
}

/// Totals Python d20 1.1.2 gives for the same dice (its `random.randrange`
/// patched to return this sequence), for the notation both share (`ph`/`pl`
/// are d20's spelling of `dh`/`dl`).
#[test]
fn agrees_with_python_d20() {
    let faces = [6, 2, 5, 1, 3, 4, 4, 2, 1, 5, 6, 3];
    let other = [1, 1, 5, 1, 2, 6, 3, 4, 2, 2];
    for (seq, text, d20_total) in [
        (&faces[..], "4d6kh3", 13),
        (&faces, "2d20kl1", 2),
        (&faces, "4d6pl1", 13),
        (&faces, "4d6ph1", 8),
        (&faces, "4d6kh0", 0),
        (&faces, "1d20+5", 11),
        (&faces, "-1d6+2", -4),
        (&faces, "3d6kh2", 11),
        (&faces, "3d6kl2", 7),
        (&faces, "3d6pl1", 11),
        (&faces, "4d6ro<3kh3", 15),
        (&faces, "1d6e6+2", 10),
        (&faces, "2d6e6", 13),
        (&faces, "4d6rr<3", 18),
        (&faces, "4d6mi3", 17),
        (&faces, "4d6ma4", 11),
        (&faces, "4d6mi2ma5", 14),
        (&faces, "3d6ro2kl2", 6),
        (&faces, "5d6e6kh3", 15),
        (&faces, "(1d6+1)*2", 14),
        (&faces, "3d6e6ro1", 16),
        (&faces, "1d6e6mi3", 9),
        (&faces, "2d6e5", 8),
        (&faces, "7/2", 3),
        (&faces, "-7/2", -3),
        (&faces, "2*-3", -6),
        (&faces, "--3", 3),
        (&other, "3d6rr1", 13),
        (&other, "3d6rr<3", 14),
        (&other, "3d6e1", 16),
        (&other, "3d6ro1", 8),
        // Issue 30, item 2: `ra` (d20 1.1.2 with the same dice).
        (&faces, "2d6ra6", 13),
        (&faces, "3d6ra5", 14),
        (&faces, "4d6ra1kh3", 14),
        (&other, "3d6ra1", 8),
        (&other, "2d6ra1ro1", 8),
        (&faces, "2d6ra<3", 13),
        (&other, "4d6ra>4pl1", 9),
    ] {
        let mut r = Scripted::dice(seq.iter().copied());
        assert_eq!(parse(text).roll(&mut r).unwrap().total, d20_total, "{text}");
    }
}

/// The brute-force check on fixed cases covering every operator, so that each is
/// certainly exercised whatever the random cases draw.
#[test]
fn odds_equal_brute_force_for_every_operator() {
    for text in [
        "2d4ro1kh1",
        "1d4rr1 + 1",
        "2d3e3",
        "2d4e4>=3",
        "3dFmi0",
        "2dF>=1",
        "2d4ma2 * 1d3",
        "(1d4 + 1) / 1d2",
        "-1d4 - 2",
        "3d4dl1>=3",
        "3d4dh1",
        "3d3kl2",
        "2d6e6ro1",
        "1d4ro<3e4",
        "1d4mi2rr2",
        "0d6 + 3",
        "1d%",
        "2d3e3kh1",
        "3d2e2dl1",
        "2d4e4kl1>=2",
        "2d3e3dh1",
        "2d3ro1e3mi2kh1",
        "2d4ra4",
        "3d3ra1kh2",
        "2d4ra4ro1",
        "2d3ro1ra3dl1",
        "2d4ra<2>=3",
        "3d3ra3ra1k>1",
        "2dFra1",
        "2d3rah1",
        "3d3ral1kh2",
        "2d3ra3ral1",
        "2d4ral0",
        "4d3kh3kl2",
        "4d3kh1kl1",
        "4d4kh3pl1",
        "5d3pl1ph1>=2",
        "3d4ro1kh2kh1",
        "4dFkh1kl1",
    ] {
        let e = parse(text);
        let odds = e.odds().unwrap();
        let brute = brute_force(&e, 1_000_000).unwrap_or_else(|| panic!("{text}: too many rolls"));
        assert_eq!(odds.dist.len(), brute.len(), "{text}");
        for (v, p) in &brute {
            assert!((odds.dist.p(v) - p).abs() < 1e-9, "{text}: P({v})");
        }
    }
}

/// `d20`'s `ra` (issue 30, item 2): the first matching die adds one more die,
/// once per group; the added die takes the modifiers written after `ra`.
#[test]
fn reroll_and_add_adds_one_die_at_most() {
    let out = roll("3d6ra6", &[6, 6, 2, 6]);
    assert_eq!(out.total, 20);
    assert_eq!(out.root.to_string(), "3d6ra6 (6!, 6, 2, 6)");
    // No die matches: nothing added.
    assert_eq!(roll("2d6ra6", &[3, 4]).total, 7);
    // The added die is rerolled by a later `ro1`.
    assert_eq!(roll("1d6ra6ro1", &[6, 1, 4]).total, 10);
    // Merged runs: `ra1ra2` adds on a 1 or a 2, once.
    assert_eq!(roll("2d6ra1ra2", &[2, 1, 5]).total, 8);
    assert_eq!(dice("2d6ra1ra2").modifiers.len(), 2);
    // Exact odds: 2d6ra6 is 2d6 plus a d6 with chance 11/36.
    let o = parse("2d6ra6").odds().unwrap();
    assert!(o.exact);
    assert!((o.dist.mean() - (7.0 + 11.0 / 36.0 * 3.5)).abs() < 1e-12);
    assert_eq!(o.dist.range(), (2, 18));
    // Two runs of `ra` are d20's, each in turn (issue 30, item 2:
    // `notation_order.rs`), and `ra` with `e` (`notation_ra_explode.rs`).
    // Refused, never misread: no number.
    assert_eq!(roll("2d6ra6ro1ra5", &[6, 2, 1, 5, 3]).total, 6 + 2 + 5 + 3);
    assert!(matches!(
        err("1d6ra"),
        NotationError::UnexpectedEnd { position: 5, .. }
    ));
    assert!(matches!(
        err("1d6rax1"),
        NotationError::UnexpectedChar { position: 5, .. }
    ));
}

/// Several keeps and drops on one group, as `d20` applies them (issue 30,
/// item 2): in order, consecutive ones of a kind as one union; among equal
/// faces `d20` takes the earlier die first for the highest and the lowest.
#[test]
fn several_keeps_and_drops_apply_in_order() {
    // Keep three, then drop the lowest of those: the middle two.
    let out = roll("4d6kh3pl1", &[2, 5, 3, 6]);
    assert_eq!(out.total, 11);
    assert_eq!(
        out.root.to_string(),
        "4d6kh3dl1 (2 dropped, 5, 3 dropped, 6)"
    );
    // A union: the highest and the lowest.
    assert_eq!(roll("4d6kh1kl1", &[5, 2, 3, 2]).total, 7);
    // Ties (d20 1.1.2): both take the first 6, so one die is kept.
    assert_eq!(roll("4d6kh1kl1", &[6, 6, 6, 6]).total, 6);
    assert_eq!(roll("4d6kh3kl2", &[6, 6, 6, 6]).total, 18);
    assert_eq!(roll("4d6kh3kl2", &[1, 2, 3, 4]).total, 10);
    assert_eq!(dice("4d6kh3pl1").more_select, [Select::DropLowest(1)]);
    assert_eq!(parse("4d6kh3pl1").to_string(), "4d6kh3dl1");
    // Exact odds, agreeing with the brute force below and d20's golden file.
    let o = parse("4d6kh1kl1").odds().unwrap();
    assert!(o.exact);
    assert_eq!(o.dist.range(), (1, 11));
    // By value with another selection, and after an explosion or `ra`, are
    // read too (issue 30, item 2: `notation_keeps_and_drops.rs`), and a
    // modifier after them, among the dice they keep (`notation_order.rs`).
    // `kh3kl1` is one union (all four here), then the 6 explodes.
    assert_eq!(roll("4d6kh3kl1e6", &[6, 2, 3, 1, 4]).total, 16);
    assert_eq!(roll("4d6kh3pl1e6", &[6, 2, 3, 1, 4]).total, 6 + 3 + 4);
    // The work is known before it starts: too many multisets are refused.
    assert!(matches!(
        parse("100d20kh50kl10").odds(),
        Err(OddsError::TooMuchWork { .. })
    ));
}

/// `ra` with `d20`'s selectors by rank (issue 30, item 2): one more die
/// always (N of 1 or more), the highest or lowest die marked as d20 marks it.
#[test]
fn reroll_and_add_by_rank() {
    let out = roll("2d6rah1", &[3, 6, 5]);
    assert_eq!(out.total, 14);
    assert_eq!(out.root.to_string(), "2d6rah1 (3, 6!, 5)");
    // Equal lowest: the earlier is marked, as in d20.
    assert_eq!(
        roll("3d6ral1", &[5, 1, 1, 4]).root.to_string(),
        "3d6ral1 (5, 1!, 1, 4)"
    );
    // A 6 first, else the lowest (d20: `2d6ra6ral1 (2!, 5, 6)`).
    assert_eq!(
        roll("2d6ra6ral1", &[2, 5, 6]).root.to_string(),
        "2d6ra6ral1 (2!, 5, 6)"
    );
    assert_eq!(roll("2d6ral0", &[2, 5]).total, 7);
    assert_eq!(parse("2d6RAH1").to_string(), "2d6rah1");
    let o = parse("2d6rah1").odds().unwrap();
    assert!((o.dist.mean() - 10.5).abs() < 1e-12);
    assert!(matches!(
        err("2d6rah"),
        NotationError::UnexpectedEnd { position: 6, .. }
    ));
}
