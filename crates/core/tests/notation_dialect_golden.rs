//! Issue 30, item 3: `Expr::odds` of Roll20 and Foundry spellings, read in
//! their dialect, agrees to 1e-9 with their documented meaning built with
//! icepool 2.1.3 in `data/dialect_golden.json` (made by
//! `bench/dialect_golden.py`, which cites each roller's documentation), so
//! this test needs no Python.

use serde_json::Value;
use tabula_core::notation::{Dialect, Expr};

#[test]
fn issue_30_3_every_roll20_and_foundry_spelling_agrees_with_its_documented_meaning() {
    let golden: Value = serde_json::from_str(include_str!("data/dialect_golden.json")).unwrap();
    assert_eq!(golden["icepool"], "2.1.3");
    let cases = golden["cases"].as_array().unwrap();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    let mut seen = [0usize; 2];
    for case in cases {
        let text = case["expression"].as_str().unwrap();
        let dialect: Dialect = case["dialect"].as_str().unwrap().parse().unwrap();
        seen[usize::from(dialect == Dialect::Foundry)] += 1;
        let expr = Expr::parse_in(text, dialect).unwrap_or_else(|e| panic!("{text}: {e}"));
        let odds = expr
            .odds()
            .unwrap_or_else(|e| panic!("{text} ({dialect}): {e}"));
        let want = case["dist"].as_object().unwrap();
        let mut mass = 0.0;
        for (k, v) in want {
            let outcome: i64 = k.parse().unwrap();
            let p = v.as_f64().unwrap();
            let got = odds.dist.p(&outcome);
            assert!(
                (got - p).abs() < 1e-9,
                "{text} ({dialect}, {}): P({outcome}) = {got} vs {p}",
                case["covers"]
            );
            mass += got;
        }
        // Nothing outside the documented outcomes (beyond rounding and the
        // mass past 20 explosions).
        assert!((mass - 1.0).abs() < 1e-9, "{text}: {mass}");
    }
    assert!(seen[0] >= 30 && seen[1] >= 30, "{seen:?}");
}
