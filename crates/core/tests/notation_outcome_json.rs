//! Issue 30, item 6: the JSON of a rolled outcome (what the server sends and
//! the page draws, field by field) stays byte for byte what it was when the
//! outcome types were made faster. Every expression of the three golden files
//! (d20's, the dialects', the notation's) and the benchmark's is rolled from
//! two seeds; the FNV-1a hash of each outcome's JSON is compared with
//! `data/outcome_json_golden.txt`, written from the outcome types before that
//! work (set `TABULA_BLESS=1` to write it again, after a change of the JSON
//! that is meant). Each outcome also reads back from its JSON unchanged.

use serde_json::Value;
use tabula_core::Seeded;
use tabula_core::notation::{Dialect, Expr, RollOutcome};

/// The benchmark's expressions (`bench/dice_compare.sh`).
const BENCH: [&str; 7] = [
    "10d6>=5",
    "4d6kh3",
    "1d20+5",
    "2d6 + 1d4",
    "(1d4 + 1) * 2",
    "4d6ro<3kh3",
    "1d6e6 + 2",
];

/// FNV-1a, 64 bits: a hash that no Rust release changes.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// (dialect, expression) of every case, in the files' order.
fn cases() -> Vec<(Dialect, String)> {
    let mut out: Vec<(Dialect, String)> = BENCH
        .iter()
        .map(|t| (Dialect::D20, t.to_string()))
        .collect();
    for text in [
        include_str!("data/d20_golden.json"),
        include_str!("data/dialect_golden.json"),
        include_str!("data/notation_golden.json"),
    ] {
        let golden: Value = serde_json::from_str(text).unwrap();
        for case in golden["cases"].as_array().unwrap() {
            let dialect = match case["dialect"].as_str() {
                Some(d) => d.parse().unwrap(),
                None => Dialect::D20,
            };
            out.push((dialect, case["expression"].as_str().unwrap().to_string()));
        }
    }
    out
}

#[test]
fn issue_30_6_an_outcome_serializes_byte_for_byte_as_before() {
    let mut lines = Vec::new();
    for (dialect, text) in cases() {
        let expr = Expr::parse_in(&text, dialect).unwrap_or_else(|e| panic!("{text}: {e}"));
        for seed in [1, 2] {
            let outcome = expr.roll(&mut Seeded::from_seed(seed)).unwrap();
            let json = serde_json::to_string(&outcome).unwrap();
            let back: RollOutcome = serde_json::from_str(&json).unwrap();
            assert_eq!(back, outcome, "{text} ({dialect}) reads back");
            lines.push(format!(
                "{dialect}\t{text}\t{seed}\t{:016x}",
                fnv1a(json.as_bytes())
            ));
        }
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/outcome_json_golden.txt"
    );
    let got = lines.join("\n") + "\n";
    if std::env::var_os("TABULA_BLESS").is_some() {
        std::fs::write(path, &got).unwrap();
    }
    let want = include_str!("data/outcome_json_golden.txt");
    assert!(lines.len() > 1_000, "{} outcomes", lines.len());
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

/// The whole JSON of one benchmark roll, as the page reads it.
#[test]
fn issue_30_6_the_json_of_a_kept_group_is_as_before() {
    let expr = Expr::parse("4d6kh3 + 1").unwrap();
    let outcome = expr.roll(&mut Seeded::from_seed(7)).unwrap();
    let json = serde_json::to_string(&outcome).unwrap();
    if std::env::var_os("TABULA_BLESS").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/outcome_json_4d6kh3.json"
        );
        std::fs::write(path, format!("{json}\n")).unwrap();
    }
    assert_eq!(
        json,
        include_str!("data/outcome_json_4d6kh3.json").trim_end()
    );
}
