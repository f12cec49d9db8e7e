//! `tabula scratch ...` end to end: the example table and script, check, odds,
//! character files.

mod common;
use common::tabula;
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
        let out = tabula(&["scratch", "character", "show", &path]);
        assert!(
            out.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
