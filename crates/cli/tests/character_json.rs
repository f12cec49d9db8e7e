//! `tabula <system> character validate|show`, defined once for all five books
//! (issue 26, item 4): `validate --json` prints the same keys for every book,
//! legal or not, each problem naming its field, message and rule; `show`
//! prints the values of the sheet file.

mod common;

use common::tabula_text;
use serde_json::Value;
use std::collections::BTreeSet;

/// The keys of a JSON object.
fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// A copy of an example sheet with `from` replaced by `to`, in `dir`.
fn broken(dir: &tempfile::TempDir, example: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(example),
    )
    .unwrap();
    assert!(text.contains(from), "{example} holds {from}");
    let path = dir.path().join(example.replace('/', "-"));
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn validate_json_has_one_shape_for_every_book() {
    let dir = tempfile::tempdir().unwrap();
    // (system, a legal sheet, a broken sheet, the rule's words the problem names)
    let books = [
        (
            "sour-grapes",
            "examples/sour-grapes/rook.toml".to_string(),
            broken(
                &dir,
                "examples/sour-grapes/rook.toml",
                "agility = 5",
                "agility = 50",
            ),
            "sour-grapes",
        ),
        (
            "scratch",
            "examples/scratch/thug.toml".to_string(),
            "examples/scratch/breakhelm-x-19.toml".to_string(),
            "scratch",
        ),
        (
            "tiers",
            "examples/tiers/john.toml".to_string(),
            "examples/tiers/broken-character.toml".to_string(),
            "tiers",
        ),
        (
            "bastards",
            "examples/bastards/carlton.toml".to_string(),
            "examples/bastards/broken.toml".to_string(),
            "bastards",
        ),
        (
            "sapio",
            "examples/sapio/roof-runner.toml".to_string(),
            broken(
                &dir,
                "examples/sapio/roof-runner.toml",
                "\"Perceptive\"",
                "\"Lucky\"",
            ),
            "sapio",
        ),
    ];
    let top: BTreeSet<String> = ["valid", "name", "problems"].map(String::from).into();
    let problem: BTreeSet<String> = ["field", "message", "rule"].map(String::from).into();
    let rule: BTreeSet<String> = ["system", "seed", "section", "ruling"]
        .map(String::from)
        .into();
    for (system, good, bad, id) in &books {
        let (code, out, err) = tabula_text(&["--json", system, "character", "validate", good]);
        assert_eq!(code, 0, "{system} {good}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(keys(&v), top, "{system}: {out}");
        assert_eq!(v["valid"], true, "{system}");
        assert!(v["name"].as_str().is_some_and(|n| !n.is_empty()), "{out}");
        assert_eq!(v["problems"].as_array().map(Vec::len), Some(0), "{out}");

        let (code, out, err) = tabula_text(&["--json", system, "character", "validate", bad]);
        assert_eq!(code, 2, "{system} {bad}: {out}");
        assert!(err.contains("not a legal"), "{system}: {err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(keys(&v), top, "{system}: {out}");
        assert_eq!(v["valid"], false, "{system}");
        let problems = v["problems"].as_array().unwrap();
        assert!(!problems.is_empty(), "{system}: {out}");
        for p in problems {
            assert_eq!(keys(p), problem, "{system}: {p}");
            assert_eq!(keys(&p["rule"]), rule, "{system}: {p}");
            assert_eq!(p["rule"]["system"], *id, "{system}: {p}");
            assert!(p["message"].as_str().is_some_and(|m| !m.is_empty()));
        }
    }
}

#[test]
fn validate_text_lists_each_problem_with_its_rule() {
    let (code, out, err) = tabula_text(&[
        "tiers",
        "character",
        "validate",
        "examples/tiers/broken-character.toml",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("R-TI-3") && err.contains("total_sp"), "{err}");
    assert!(err.contains("(Tiers, \""), "{err}");
    let (code, out, _) = tabula_text(&[
        "bastards",
        "character",
        "validate",
        "examples/bastards/carlton.toml",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Carlton is a legal"), "{out}");
}

#[test]
fn show_prints_the_sheet_files_values() {
    // examples/bastards/carlton.toml: Mind 3, Repair 2, Suit Spades.
    let (code, out, err) = tabula_text(&[
        "bastards",
        "character",
        "show",
        "examples/bastards/carlton.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Repair 2") && out.contains("Mind: 3"), "{out}");
    assert!(out.starts_with("Carlton (Spades"), "{out}");
    let (code, out, err) = tabula_text(&[
        "--json",
        "bastards",
        "character",
        "show",
        "examples/bastards/carlton.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["name"], "Carlton");
    let repair = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap())
        .filter_map(|i| i["rows"].as_array())
        .flatten()
        .find(|r| r["name"] == "Repair")
        .cloned()
        .unwrap();
    assert_eq!(repair["value"], "2");
    // examples/sour-grapes/rook.toml: Agility 5, Ninjitsu rated 2.
    let (code, out, err) = tabula_text(&[
        "sour-grapes",
        "character",
        "show",
        "examples/sour-grapes/rook.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Agility: 5/5") && out.contains("Ninjitsu 2/2"),
        "{out}"
    );
    // examples/sapio/roof-runner.toml: its Principle.
    let (code, out, _) = tabula_text(&[
        "sapio",
        "character",
        "show",
        "examples/sapio/roof-runner.toml",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Principle: Violence is not the answer"),
        "{out}"
    );
    // examples/scratch/thug.toml under the example table's rules.
    let (code, out, err) = tabula_text(&[
        "scratch",
        "character",
        "show",
        "examples/scratch/thug.toml",
        "--table",
        "examples/scratch/table.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Thug"), "{out}");
    assert!(out.contains("Abilities (level):"), "{out}");
}

/// Each book's `check` and `odds` are built from the book's declaration:
/// `--help` lists every declared flag with its help.
#[test]
fn every_book_declares_check_and_odds_with_their_flags() {
    for (system, flag) in [
        ("sour-grapes", "--dice"),
        ("scratch", "--level"),
        ("tiers", "--goal"),
        ("bastards", "--trait"),
        ("sapio", "--pool"),
    ] {
        let (code, out, _) = tabula_text(&[system, "--help"]);
        assert_eq!(code, 0);
        for sub in ["check", "odds", "character", "play", "simulate"] {
            assert!(out.contains(&format!("  {sub} ")), "{system}: {out}");
        }
        let (code, out, _) = tabula_text(&[system, "check", "--help"]);
        assert_eq!(code, 0);
        assert!(
            out.contains(flag) && out.contains("--rolled") && out.contains("--seed"),
            "{system}: {out}"
        );
        let (code, out, _) = tabula_text(&[system, "odds", "--help"]);
        assert_eq!(code, 0);
        assert!(
            out.contains(flag) && out.contains("--chart"),
            "{system}: {out}"
        );
        assert!(
            !out.contains("--rolled"),
            "{system}: hidden flags stay hidden: {out}"
        );
    }
}
