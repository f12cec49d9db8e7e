//! `tabula sour-grapes ...` end to end: check, odds, character, play.

mod common;
use common::tabula_text as tabula;

#[test]
fn lock_pick_check_json() {
    let (code, out, _) = tabula(&[
        "--json",
        "sour-grapes",
        "check",
        "--dice",
        "5",
        "--tokens",
        "2",
        "--difficulty",
        "5",
        "--stat",
        "7",
        "--rolled",
        "6,2,1,1,5",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["success"], false);
    assert_eq!(v["successes"], 5);
    assert_eq!(v["exhausted"], 2);
}

#[test]
fn dice_above_the_stat_is_bad_input() {
    let (code, _, err) = tabula(&[
        "sour-grapes",
        "check",
        "--dice",
        "8",
        "--difficulty",
        "5",
        "--stat",
        "7",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("R-SG-1"), "{err}");
}

#[test]
fn odds_json_probability() {
    let (code, out, _) = tabula(&[
        "--json",
        "sour-grapes",
        "odds",
        "--dice",
        "1",
        "--tokens",
        "0",
        "--difficulty",
        "0",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = v["probability"].as_f64().unwrap();
    assert!((p - 5.0 / 6.0).abs() < 1e-12);
}

#[test]
fn character_validate_and_show() {
    let (code, out, _) = tabula(&[
        "sour-grapes",
        "character",
        "show",
        "examples/sour-grapes/example-character.toml",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Resolve"), "{out}");
    let (code, _, _) = tabula(&[
        "sour-grapes",
        "character",
        "validate",
        "examples/sour-grapes/rook.toml",
    ]);
    assert_eq!(code, 0);
    let (code, _, err) = tabula(&[
        "sour-grapes",
        "character",
        "validate",
        "examples/sour-grapes/table.toml",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_encounter_script_plays_strictly() {
    let (code, out, err) = tabula(&[
        "sour-grapes",
        "play",
        "examples/sour-grapes/table.toml",
        "--script",
        "examples/sour-grapes/encounter.script",
        "--seed",
        "1",
        "--strict",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("The encounter is over."));
}

/// Negative numbers reach the rule and are refused naming the parameter and
/// its range; a number past the integer range is refused as too large.
#[test]
fn check_numbers_out_of_range_name_the_parameter() {
    let (code, _, err) = tabula(&[
        "sour-grapes",
        "check",
        "--dice",
        "-4",
        "--difficulty",
        "3",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--dice must be between 0 and 100, not -4"),
        "{err}"
    );
    let (code, _, err) = tabula(&["sour-grapes", "odds", "--dice", "2", "--difficulty", "-1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--difficulty must be between 0 and 1000, not -1"),
        "{err}"
    );
    let (code, _, err) = tabula(&[
        "sour-grapes",
        "check",
        "--dice",
        "99999999999999999999",
        "--difficulty",
        "3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("too large"), "{err}");
    let (code, _, err) = tabula(&[
        "sour-grapes",
        "check",
        "--dice",
        "4294967296",
        "--difficulty",
        "3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--dice must be between 0 and 100"), "{err}");
    let (code, _, err) = tabula(&[
        "sour-grapes",
        "odds",
        "--dice",
        "2",
        "--difficulty",
        "1",
        "--target",
        "-0.5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--target must be between 0 and 1"), "{err}");
}
