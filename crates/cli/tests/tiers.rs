//! `tabula tiers ...` end to end: check, odds, character, play.

mod common;
use common::tabula;

use std::process::Output;

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// "How to Roleplay": John rolls 2 + 1 = 3.
#[test]
fn check_out_of_combat_with_rolled_dice() {
    let out = tabula(&[
        "--json",
        "tiers",
        "check",
        "--bonus",
        "1",
        "--goal",
        "very-easy",
        "--rolled",
        "2",
    ]);
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["success"], true);
    assert_eq!(v["roll"]["total"], 3);
    assert_eq!(v["roll"]["d6"][0], 2);
}

#[test]
fn check_in_combat_with_d3s() {
    let out = tabula(&[
        "--json", "tiers", "check", "--d3", "2", "--bonus", "1", "--goal", "7", "--rolled", "1,3",
    ]);
    let v = json(&out);
    assert_eq!(v["success"], false);
    assert_eq!(v["roll"]["total"], 5);
    // Halved d6s: 6 -> 3, 5 -> 3.
    let out = tabula(&[
        "--json",
        "tiers",
        "check",
        "--d3",
        "2",
        "--bonus",
        "1",
        "--goal",
        "7",
        "--halved-d6",
        "--rolled",
        "6,5",
    ]);
    assert_eq!(json(&out)["success"], true);
    let seeded = tabula(&[
        "--json", "tiers", "check", "--d3", "3", "--goal", "5", "--seed", "9",
    ]);
    assert!(seeded.status.success());
}

#[test]
fn check_refuses_missing_or_extra_dice() {
    let out = tabula(&[
        "tiers", "check", "--d3", "2", "--goal", "5", "--rolled", "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("need 1 more d3"));
    let out = tabula(&["tiers", "check", "--goal", "5", "--rolled", "1,2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tabula(&["tiers", "check", "--goal", "tricky", "--rolled", "1"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn odds_are_exact() {
    let v = json(&tabula(&[
        "--json", "tiers", "odds", "--bonus", "1", "--goal", "4",
    ]));
    assert!((v["probability"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-12);
    let v = json(&tabula(&[
        "--json", "tiers", "odds", "--d3", "2", "--bonus", "1", "--goal", "5",
    ]));
    assert!((v["probability"].as_f64().unwrap() - 6.0 / 9.0).abs() < 1e-12);
    // A Competing Roll against an enemy's free 1d3.
    let v = json(&tabula(&[
        "--json",
        "tiers",
        "odds",
        "--d3",
        "1",
        "--bonus",
        "1",
        "--versus-bonus",
        "0",
        "--versus-d3",
        "1",
    ]));
    assert!((v["probability"].as_f64().unwrap() - 6.0 / 9.0).abs() < 1e-12);
    // Damage of bought Rolls: 2d6 + 3d3 at least 5 is certain.
    let v = json(&tabula(&[
        "--json",
        "tiers",
        "odds",
        "--damage-d6",
        "2",
        "--damage-d3",
        "3",
        "--goal",
        "5",
    ]));
    assert!((v["probability"].as_f64().unwrap() - 1.0).abs() < 1e-12);
}

#[test]
fn character_validate_and_show() {
    let out = tabula(&["tiers", "character", "validate", "examples/tiers/john.toml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = tabula(&[
        "tiers",
        "character",
        "validate",
        "examples/tiers/broken-character.toml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("R-TI-3") && err.contains("total_sp") && err.contains("health"),
        "{err}"
    );
    let v = json(&tabula(&[
        "--json",
        "tiers",
        "character",
        "show",
        "examples/tiers/cristy.toml",
    ]));
    // The one character sheet of every book: Cristy's 20 SP and 30 Health.
    let items: Vec<&serde_json::Value> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["items"].as_array().unwrap())
        .collect();
    let sp = items.iter().find(|i| i["label"] == "SP").unwrap();
    assert_eq!(sp["value"], "20");
    let health = items.iter().find(|i| i["label"] == "Health").unwrap();
    assert_eq!(health["max"], 30);
}

#[test]
fn the_encounter_script_plays_strictly() {
    let out = tabula(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--script",
        "examples/tiers/encounter.script",
        "--seed",
        "1",
        "--strict",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("the players win"));
    assert!(!stdout.contains("refused"));
}

#[test]
fn sample_content_lists_the_books_data() {
    let v = json(&tabula(&["--json", "tiers", "content"]));
    assert_eq!(v["items"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["enemies"].as_array().map(Vec::len), Some(5));
    assert_eq!(v["npcs"].as_array().map(Vec::len), Some(3));
}

/// John's treasure roll from his sheet: Skill +1.
#[test]
fn check_takes_the_bonus_from_a_character() {
    let out = tabula(&[
        "--json",
        "tiers",
        "check",
        "--character",
        "examples/tiers/john.toml",
        "--stat",
        "skill",
        "--goal",
        "3",
        "--rolled",
        "2",
    ]);
    let v = json(&out);
    assert_eq!(v["roll"]["bonus"], 1);
    assert_eq!(v["success"], true);
}

/// A Hinder lowers a roll: `--bonus -4` is a value, not a flag; numbers past
/// the integer range are refused as too large, and ranges name the flag.
#[test]
fn negative_bonuses_work_and_absurd_numbers_are_refused_by_name() {
    let v = json(&tabula(&[
        "--json", "tiers", "check", "--bonus", "-4", "--goal", "3", "--rolled", "6",
    ]));
    assert_eq!(v["roll"]["bonus"], -4);
    assert_eq!(v["roll"]["total"], 2);
    assert_eq!(v["success"], false);
    let v = json(&tabula(&[
        "--json", "tiers", "odds", "--bonus", "-2", "--goal", "3",
    ]));
    assert!((v["probability"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-12);
    let v = json(&tabula(&[
        "--json",
        "tiers",
        "odds",
        "--bonus",
        "0",
        "--versus-bonus",
        "-1",
    ]));
    assert!(v["probability"].as_f64().unwrap() > 0.5);
    let (code, _, err) = common::tabula_text(&[
        "tiers",
        "check",
        "--bonus",
        "99999999999999999999999",
        "--goal",
        "3",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--bonus") && err.contains("too large"),
        "{err}"
    );
    let (code, _, err) =
        common::tabula_text(&["tiers", "check", "--bonus", "20000", "--goal", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--bonus must be between"), "{err}");
    let (code, _, err) = common::tabula_text(&["tiers", "check", "--d3", "-2", "--goal", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--d3") && err.contains("0 or more"), "{err}");
    let (code, _, err) =
        common::tabula_text(&["tiers", "odds", "--damage-d6", "4294967296", "--goal", "3"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--damage-d6") && err.contains("too large"),
        "{err}"
    );
    let (code, _, err) = common::tabula_text(&["tiers", "check", "--goal", "-3"]);
    assert_eq!(code, 2);
    assert!(err.contains("goal"), "{err}");
}

/// Every shipped script plays under --strict with no refusal.
#[test]
fn every_shipped_script_plays_strictly() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tiers");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "script") {
            let rel = format!(
                "examples/tiers/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            let (code, out, err) = common::tabula_text(&[
                "tiers",
                "play",
                "examples/tiers/table.toml",
                "--script",
                &rel,
                "--seed",
                "1",
                "--strict",
            ]);
            assert_eq!(code, 0, "{rel}: {out}{err}");
            assert!(!out.contains("refused"), "{rel}: {out}");
        }
    }
}
