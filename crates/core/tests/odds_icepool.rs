//! Every exact-odds building block agrees with icepool (PyPI `icepool` 2.1.3) to
//! 1e-9. The expected distributions are in `data/icepool_golden.json`, produced by
//! `python3 bench/icepool_golden.py` (see that script to regenerate them).

use serde_json::Value;
use tabula_core::odds::{self, Dist};

fn param(case: &Value, key: &str) -> u64 {
    case["params"][key]
        .as_u64()
        .unwrap_or_else(|| panic!("{}: missing {key}", case["name"]))
}

fn ours(case: &Value) -> Dist<i64> {
    let kind = case["kind"].as_str().unwrap_or("");
    let die = || Dist::die(param(case, "sides") as u32).unwrap();
    let n = || param(case, "n") as u32;
    match kind {
        "sum" => die().sum_of(n()).unwrap(),
        "sum_plus" => die().sum_of(n()).unwrap().shift(param(case, "plus") as i64),
        "keep_highest" => die().keep_highest(n(), param(case, "keep") as u32).unwrap(),
        "keep_lowest" => die().keep_lowest(n(), param(case, "keep") as u32).unwrap(),
        "count" => {
            let t = param(case, "at_least") as i64;
            die().count_successes(n(), |v| v >= t).unwrap()
        }
        "best_of_draws" => {
            let values: Vec<i64> = (2..=14).flat_map(|v| std::iter::repeat_n(v, 8)).collect();
            odds::best_of_draws(&values, param(case, "draws")).unwrap()
        }
        "hypergeometric" => odds::hypergeometric(
            param(case, "deck"),
            param(case, "marked"),
            param(case, "draws"),
        )
        .unwrap(),
        other => panic!("unknown case kind {other}"),
    }
}

#[test]
fn every_case_agrees_with_icepool_to_1e_9() {
    let text = include_str!("data/icepool_golden.json");
    let golden: Value = serde_json::from_str(text).unwrap();
    let cases = golden["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let got = ours(case);
        let want = case["dist"].as_object().unwrap();
        assert_eq!(got.len(), want.len(), "{name}: number of outcomes");
        for (k, v) in want {
            let outcome: i64 = k.parse().unwrap();
            let p = v.as_f64().unwrap();
            let diff = (got.p(&outcome) - p).abs();
            assert!(
                diff < 1e-9,
                "{name}: P({outcome}) = {} vs icepool {p}",
                got.p(&outcome)
            );
        }
    }
}
