//! `tabula bastards ...` end to end: the built binary.

mod common;
use common::tabula;

#[test]
fn check_replays_carltons_repair() {
    let out = tabula(&[
        "--json",
        "bastards",
        "check",
        "--trait",
        "3",
        "--rank",
        "2",
        "--rolled",
        "9S,4C,JH,2D,7S",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["success"], true);
    assert_eq!(v["player_total"], 12);
    assert_eq!(v["dealer_total"], 11);
}

#[test]
fn check_with_too_few_cards_is_bad_input() {
    let out = tabula(&[
        "bastards", "check", "--trait", "3", "--rank", "2", "--rolled", "9S,4C",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn odds_prints_an_exact_probability() {
    let out = tabula(&[
        "--json",
        "bastards",
        "odds",
        "--trait",
        "3",
        "--rank",
        "2",
        "--modifier",
        "5",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = v["probability"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0);
    let out = tabula(&[
        "--json",
        "bastards",
        "card-odds",
        "--card",
        "QH",
        "--opponent-draws",
        "2",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["probability"].as_f64().unwrap() > 0.5);
}

#[test]
fn character_validate_lists_every_broken_rule() {
    let out = tabula(&[
        "--json",
        "bastards",
        "character",
        "validate",
        "examples/bastards/broken.toml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["problems"].as_array().unwrap().len(), 5);
    let out = tabula(&[
        "bastards",
        "character",
        "show",
        "examples/bastards/carlton.toml",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Repair 2"));
}

#[test]
fn the_encounter_script_plays_strict() {
    let out = tabula(&[
        "bastards",
        "play",
        "examples/bastards/table.toml",
        "--script",
        "examples/bastards/encounter.script",
        "--seed",
        "1",
        "--strict",
    ]);
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("The encounter is over."));
}
