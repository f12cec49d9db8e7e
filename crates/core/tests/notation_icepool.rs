//! `Expr::odds` agrees with icepool (PyPI `icepool` 2.1.3) to 1e-9 on every
//! operator: arithmetic, keep/drop, `ro`/`rr`, `mi`/`ma`, explosions (at
//! Tabula's depth), success counting, `dF` and `d%`. The expected distributions
//! are in `data/notation_golden.json`, produced by `bench/notation_golden.py`
//! (see that script to regenerate them), so this test needs no Python.

use serde_json::Value;
use tabula_core::notation::Expr;

#[test]
fn every_expression_agrees_with_icepool_to_1e_9() {
    let golden: Value = serde_json::from_str(include_str!("data/notation_golden.json")).unwrap();
    let cases = golden["cases"].as_array().unwrap();
    assert!(cases.len() >= 20);
    for case in cases {
        let text = case["expression"].as_str().unwrap();
        let expr = Expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let odds = expr.odds().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(odds.exact, !text.contains('e'), "{text}");
        let want = case["dist"].as_object().unwrap();
        let mut mass = 0.0;
        for (k, v) in want {
            let outcome: i64 = k.parse().unwrap();
            let p = v.as_f64().unwrap();
            let got = odds.dist.p(&outcome);
            assert!(
                (got - p).abs() < 1e-9,
                "{text}: P({outcome}) = {got} vs icepool {p}"
            );
            mass += got;
        }
        // Nothing outside icepool's outcomes (beyond rounding).
        assert!((mass - 1.0).abs() < 1e-9, "{text}: {mass}");
    }
}
