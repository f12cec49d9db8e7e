//! Issue 30: `Expr::odds` agrees with Python d20 1.1.2 (Avrae's roller) to
//! 1e-9 on labels, comments, repeated modifiers merged as d20 merges them,
//! comparisons of totals, `%`, `//`, and keep and drop by value (`k<3`).
//! The expected distributions are in `data/d20_golden.json`, made by
//! `bench/d20_golden.py` (d20 rolling every sequence of dice, or icepool where
//! that would take too long; see the script), so this test needs no Python.

use serde_json::Value;
use tabula_core::notation::Expr;

#[test]
fn issue_30_every_expression_agrees_with_d20_to_1e_9() {
    let golden: Value = serde_json::from_str(include_str!("data/d20_golden.json")).unwrap();
    assert_eq!(golden["d20"], "1.1.2");
    let cases = golden["cases"].as_array().unwrap();
    assert!(cases.len() >= 300, "{} cases", cases.len());
    for case in cases {
        let text = case["expression"].as_str().unwrap();
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            expr.comment().is_some(),
            case["comments"].as_bool().unwrap(),
            "{text}"
        );
        let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
        let want = case["dist"].as_object().unwrap();
        let mut mass = 0.0;
        for (k, v) in want {
            let outcome: i64 = k.parse().unwrap();
            let p = v.as_f64().unwrap();
            let got = odds.dist.p(&outcome);
            assert!(
                (got - p).abs() < 1e-9,
                "{text} ({}): P({outcome}) = {got} vs d20 {p}",
                case["covers"]
            );
            mass += got;
        }
        // Nothing outside d20's outcomes (beyond rounding).
        assert!((mass - 1.0).abs() < 1e-9, "{text}: {mass}");
    }
}
