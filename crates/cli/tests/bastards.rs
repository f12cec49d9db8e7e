//! `tabula bastards ...` end to end: the built binary.

mod common;
use common::{tabula, tabula_text};

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

/// Item 21: a number out of range is named by the flag it was typed with
/// (`--bonus` and `--opponent-bonus` differ); negative numbers are accepted as
/// values; a number past the integer range is "too large", never wrapped; no value
/// panics.
#[test]
fn card_odds_range_errors_name_the_flag() {
    let run = |extra: &[&str]| {
        let mut args = vec!["bastards", "card-odds", "--card", "QH"];
        args.extend_from_slice(extra);
        tabula_text(&args)
    };
    let (code, _, err) = run(&["--opponent-bonus", "200"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--opponent-bonus: opponent bonus must be between -100 and 100, not 200"),
        "{err}"
    );
    let (code, _, err) = run(&["--bonus", "200"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--bonus: bonus must be between"), "{err}");
    assert!(!err.contains("opponent"), "{err}");
    let (code, out, err) = run(&["--bonus", "-4", "--opponent-bonus", "-2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("QH + -4 wins"), "{out}");
    let (code, _, err) = run(&["--bonus", "99999999999999999999"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("too large"), "{err}");
    let (code, _, err) = run(&["--bonus", "-9223372036854775808"]);
    assert_eq!(code, 2, "no panic: {err}");
    assert!(err.contains("--bonus:"), "{err}");
    let (code, _, err) = run(&["--opponent-draws", "-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--opponent-draws: opponent draws must be between 1 and 20"),
        "{err}"
    );
    let (code, _, err) = tabula_text(&["bastards", "check", "--trait", "-3", "--rank", "2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--trait: Trait must be between 1 and 20, not -3"),
        "{err}"
    );
    let (code, _, err) = tabula_text(&[
        "bastards",
        "odds",
        "--trait",
        "3",
        "--rank",
        "2",
        "--modifier",
        "-1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--modifier: Difficulty Modifier must be between 0 and 20"),
        "{err}"
    );
}

/// R-GB-3: a Joker drawn in a check is shown, with who gains its Wildcard.
#[test]
fn check_shows_a_drawn_joker_and_who_gains_the_wildcard() {
    let (code, out, err) = tabula_text(&[
        "bastards",
        "check",
        "--trait",
        "3",
        "--rank",
        "2",
        "--rolled",
        "Joker,9S,4C,JH,Joker,2D,7S",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Joker (you gain a Wildcard"), "{out}");
    assert!(out.contains("Joker (the Dealer gains a Wildcard"), "{out}");
}

/// Every shipped script plays under `--strict`: the Indirect Opposition too (the
/// defender discards before playing face down).
#[test]
fn the_indirect_script_plays_strict() {
    let (code, out, err) = tabula_text(&[
        "bastards",
        "play",
        "examples/bastards/indirect.toml",
        "--script",
        "examples/bastards/indirect.script",
        "--seed",
        "1",
        "--strict",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    // The terminal prints each line as the seat that gave the command sees it
    // (the acting seat sees its own discarded card).
    assert!(out.contains("Guards discards 3S"), "{out}");
    assert!(out.contains("The encounter is over."), "{out}");
}

/// `character advance` without `--gm` acts as the sheet's player (Cynthia's
/// `player = "Stella"`), not a seat called "player".
#[test]
fn advance_acts_as_the_sheets_player() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cynthia.toml");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/bastards/cynthia.toml"
        ),
        &file,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) = tabula_text(&[
        "bastards",
        "character",
        "advance",
        "--gm",
        file,
        "award",
        "1",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) =
        tabula_text(&["bastards", "character", "advance", file, "raise", "Body"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(std::fs::read_to_string(file).unwrap().contains("body = 3"));
}
