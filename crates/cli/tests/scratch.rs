//! `tabula scratch ...` end to end: the example table and script, check, odds,
//! character files.

mod common;
use common::{tabula, tabula_text};
use std::process::Command;

#[test]
fn the_example_script_plays_without_a_refusal() {
    let out = tabula(&[
        "scratch",
        "play",
        "examples/scratch/table.toml",
        "--script",
        "examples/scratch/encounter.script",
        "--seed",
        "1",
        "--strict",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!text.contains("refused"), "{text}");
    assert!(text.contains("Thug 2 escapes the encounter"), "{text}");
}

#[test]
fn the_combat_example_plays_with_the_books_dice() {
    let dice = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/scratch/combat-example.dice"
    ))
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .args([
            "scratch",
            "play",
            "examples/scratch/combat-example.toml",
            "--script",
            "examples/scratch/combat-example.script",
            "--manual",
            "--strict",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&dice).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Breakhelm X-19 takes 2 damage: 0 hit points, incapacitated"),
        "{text}"
    );
    assert!(text.contains("The encounter is over."), "{text}");
}

#[test]
fn check_and_odds_print_json() {
    let out = tabula(&[
        "--json",
        "scratch",
        "check",
        "--level",
        "2",
        "--difficulty",
        "14",
        "--rolled",
        "12",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["success"], serde_json::Value::Bool(true));
    assert_eq!(v["total"], 14);
    assert_eq!(v["dice"][0], 12);

    let out = tabula(&[
        "--json",
        "scratch",
        "check",
        "--level",
        "0",
        "--difficulty",
        "30",
        "--rolled",
        "20",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["success"], serde_json::Value::Bool(true));
    assert_eq!(v["automatic"], serde_json::Value::Bool(true));

    let out = tabula(&[
        "--json",
        "scratch",
        "odds",
        "--level",
        "2",
        "--difficulty",
        "14",
        "--modifier",
        "-2",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = v["probability"].as_f64().unwrap();
    assert!((p - 0.35).abs() < 1e-12, "{p}");

    let out = tabula(&[
        "--json",
        "scratch",
        "odds",
        "--level",
        "4",
        "--difficulty",
        "10",
        "--attack",
        "shooting",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["damage"].as_array().unwrap().len(), 3);
}

#[test]
fn bad_input_exits_2_and_names_the_field() {
    let out = tabula(&[
        "scratch",
        "check",
        "--level",
        "2",
        "--difficulty",
        "14",
        "--rolled",
        "21",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = tabula(&[
        "scratch",
        "check",
        "--level",
        "2",
        "--difficulty",
        "14",
        "--rolled",
        "3,4",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let dir = std::env::temp_dir().join("tabula-scratch-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.toml");
    std::fs::write(
        &file,
        "name = \"Bad\"\n[abilities]\nshooting = 9\ntoughness = 5\n",
    )
    .unwrap();
    let out = tabula(&["scratch", "character", "validate", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("abilities.shooting")
            && err.contains("abilities.toughness")
            && err.contains("14 levels"),
        "{err}"
    );
}

#[test]
fn every_book_character_validates() {
    for f in [
        "zimzambamalam",
        "the-boss",
        "thug",
        "breakhelm-x-19",
        "chokestar",
        "flipfire",
    ] {
        let path = format!("examples/scratch/{f}.toml");
        // R-SCR-7: the table's [rules] bind the sheet; the example table seats
        // every book character.
        let out = tabula(&[
            "scratch",
            "character",
            "show",
            &path,
            "--table",
            "examples/scratch/table.toml",
        ]);
        assert!(
            out.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// R-SCR-7: a sheet cannot raise the table's CP or maximum level; the book's
/// Breakhelm X-19 needs a table that allows 14 CP and level 6.
#[test]
fn a_sheet_cannot_raise_the_tables_cp_or_maximum_level() {
    let (code, _, err) = tabula_text(&[
        "scratch",
        "character",
        "validate",
        "examples/scratch/breakhelm-x-19.toml",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("abilities.toughness") && err.contains("14 levels"),
        "{err}"
    );
    let (code, out, err) = tabula_text(&[
        "scratch",
        "character",
        "validate",
        "examples/scratch/breakhelm-x-19.toml",
        "--cp",
        "14",
        "--max-level",
        "6",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let dir = std::env::temp_dir().join("tabula-scratch-cli-r-scr-7");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("raiser.toml");
    std::fs::write(
        &file,
        "name = \"Raiser\"\ncp = 14\nmax_level = 6\n[abilities]\ntoughness = 3\n",
    )
    .unwrap();
    let (code, _, err) = tabula_text(&["scratch", "character", "validate", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cp: the sheet's 14 is above the table's 10")
            && err.contains("max_level: the sheet's 6 is above the table's 4")
            && err.contains("R-SCR-7"),
        "{err}"
    );
}

/// R-SCR-6: `--d20` reads every spelling the help and docs give, any case.
#[test]
fn the_d20_option_reads_every_spelling_the_docs_give() {
    for (spelling, dice, name) in [
        ("d20", "13", "d20"),
        ("D20", "13", "d20"),
        ("d6-table", "2,6", "d6-table"),
        ("lookup", "2,6", "d6-table"),
        ("Table", "2,6", "d6-table"),
        ("d6x4", "3", "d6x4"),
        ("D6X4", "3", "d6x4"),
        ("d6 x 4", "3", "d6x4"),
        ("d6-x4", "3", "d6x4"),
        ("d6*4", "3", "d6x4"),
        ("d6-times-4", "3", "d6x4"),
    ] {
        let out = tabula(&[
            "--json",
            "scratch",
            "check",
            "--level",
            "1",
            "--difficulty",
            "10",
            "--rolled",
            dice,
            "--d20",
            spelling,
        ]);
        assert!(out.status.success(), "{spelling}: {}", common::stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["method"], name, "{spelling}");
        let out = tabula(&[
            "scratch",
            "odds",
            "--level",
            "1",
            "--difficulty",
            "10",
            "--d20",
            spelling,
        ]);
        assert!(out.status.success(), "{spelling}: {}", common::stderr(&out));
    }
    let (code, _, err) = tabula_text(&[
        "scratch",
        "odds",
        "--level",
        "1",
        "--difficulty",
        "10",
        "--d20",
        "d12",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("d12") && err.contains("d6-table") && err.contains("d6x4"),
        "{err}"
    );
    // The help shows the spellings.
    let (_, help, _) = tabula_text(&["scratch", "check", "--help"]);
    assert!(help.contains("lookup") && help.contains("d6 x 4"), "{help}");
}

/// "Basic Actions": engage adds 2 to close range attack rolls only, in
/// `check` and in `odds` as in play.
#[test]
fn engage_bonus_is_for_close_range_attacks_only() {
    let (code, _, err) = tabula_text(&[
        "scratch",
        "odds",
        "--level",
        "4",
        "--difficulty",
        "10",
        "--engaged",
        "--attack",
        "shooting",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("close range") && err.contains("shooting"),
        "{err}"
    );
    let (code, _, err) = tabula_text(&[
        "scratch",
        "check",
        "--level",
        "1",
        "--difficulty",
        "10",
        "--engaged",
        "--rolled",
        "7",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("close range"), "{err}");
    let out = tabula(&[
        "--json",
        "scratch",
        "check",
        "--level",
        "1",
        "--difficulty",
        "10",
        "--engaged",
        "--attack",
        "basic",
        "--rolled",
        "7",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 10);
    assert_eq!(v["success"], true);
    let out = tabula(&[
        "--json",
        "scratch",
        "odds",
        "--level",
        "1",
        "--difficulty",
        "12",
        "--engaged",
        "--attack",
        "fighting",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        (v["probability"].as_f64().unwrap() - 0.6).abs() < 1e-12,
        "{v}"
    );
    // Cover forbids close range attacks, surprise and intimidate.
    let (code, _, err) = tabula_text(&[
        "scratch",
        "odds",
        "--level",
        "1",
        "--difficulty",
        "10",
        "--cover",
        "--attack",
        "surprise",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// Negative numbers work as arguments; a number past the integer range is
/// refused as too large; range errors name the parameter.
#[test]
fn negative_numbers_work_and_absurd_ones_are_refused() {
    let out = tabula(&[
        "--json",
        "scratch",
        "check",
        "--level",
        "2",
        "--difficulty",
        "-4",
        "--modifier",
        "-4",
        "--rolled",
        "3",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"], 1);
    for (args, want) in [
        (
            vec![
                "scratch",
                "check",
                "--level",
                "1",
                "--difficulty",
                "99999999999999999999",
            ],
            "too large",
        ),
        (
            vec![
                "scratch",
                "check",
                "--level",
                "1",
                "--difficulty",
                "10",
                "--modifier",
                "9223372036854775807",
                "--engaged",
                "--attack",
                "basic",
            ],
            "modifier",
        ),
        (
            vec!["scratch", "odds", "--level", "-1", "--difficulty", "10"],
            "level",
        ),
        (
            vec!["scratch", "odds", "--level", "1", "--difficulty", "5000"],
            "difficulty",
        ),
        (vec!["scratch", "carrying", "--strength", "-4"], "strength"),
        (
            vec!["scratch", "carrying", "--strength", "99999999999999999999"],
            "too large",
        ),
        (
            vec![
                "scratch",
                "character",
                "show",
                "examples/scratch/thug.toml",
                "--cp",
                "-3",
            ],
            "cp",
        ),
        (
            vec![
                "scratch",
                "character",
                "show",
                "examples/scratch/thug.toml",
                "--max-level",
                "0",
            ],
            "max-level",
        ),
    ] {
        let (code, _, err) = tabula_text(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
