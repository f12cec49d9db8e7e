//! `tabula sapio ...` end to end: check, odds, character files, and the example
//! encounter played from its script.

mod common;
use common::tabula_text as tabula;

#[test]
fn check_with_rolled_faces_prints_success_as_json() {
    let (code, out, err) = tabula(&[
        "--json",
        "sapio",
        "check",
        "--pool",
        "4",
        "--tn",
        "2",
        "--rolled",
        "H,HH,S,blank",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["success"], true);
    assert_eq!(v["hits"], 3);
    assert_eq!(v["extra_hits"], 1);
    assert_eq!(v["rolls"][0].as_array().unwrap().len(), 4);
}

#[test]
fn check_bonus_past_six_lowers_the_tn() {
    let (code, out, err) = tabula(&[
        "--json",
        "sapio",
        "check",
        "--pool",
        "5",
        "--tn",
        "3",
        "--bonus",
        "3",
        "--rolled",
        "H,H,blank,blank,blank,blank",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["pool"]["tn"], 2);
    assert_eq!(v["success"], true);
}

#[test]
fn check_refuses_missing_or_wrong_faces() {
    let (code, _, err) = tabula(&[
        "sapio", "check", "--pool", "3", "--tn", "2", "--rolled", "H,HH",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("need 1 more Spiral Die"), "{err}");
    let (code, _, _) = tabula(&[
        "sapio", "check", "--pool", "1", "--tn", "2", "--rolled", "HHH",
    ]);
    assert_eq!(code, 2);
    let (code, _, err) = tabula(&["sapio", "check", "--pool", "7", "--tn", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("When to Roll"), "{err}");
}

#[test]
fn odds_prints_an_exact_probability() {
    let (code, out, err) = tabula(&["--json", "sapio", "odds", "--pool", "1", "--tn", "1"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!((v["probability"].as_f64().unwrap() - 0.5).abs() < 1e-12);
}

#[test]
fn character_files() {
    let (code, out, err) = tabula(&[
        "sapio",
        "character",
        "validate",
        "examples/sapio/roof-runner.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("legal"));
    let (code, out, _) = tabula(&[
        "sapio",
        "character",
        "show",
        "examples/sapio/roof-runner.toml",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Violence is not the answer"));
    let dir = std::env::temp_dir().join("tabula-sapio-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"X\"\n[profession]\nname = \"Gas Station Clerk\"\n",
    )
    .unwrap();
    let (code, _, err) = tabula(&["sapio", "character", "validate", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("profession.name"), "{err}");
    assert!(err.contains("special_talents"), "{err}");
}

#[test]
fn the_example_encounter_plays_through() {
    let (code, out, err) = tabula(&[
        "sapio",
        "play",
        "examples/sapio/table.toml",
        "--script",
        "examples/sapio/encounter.script",
        "--seed",
        "1",
        "--strict",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("refused"), "{out}");
    assert!(out.contains("The encounter is over."));
}

/// Receiving Help reaches the game from the shipped script: `assist` is read by
/// Sapio, and the first check's pool gets the help die (5 built + help + Luck).
#[test]
fn the_example_encounter_receives_help() {
    let (code, out, err) = tabula(&[
        "sapio",
        "play",
        "examples/sapio/table.toml",
        "--script",
        "examples/sapio/encounter.script",
        "--seed",
        "1",
        "--strict",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("Brannoc helps with Battle-hardened: +1 bonus die"),
        "{out}"
    );
    assert!(
        out.contains("Wren rolls 6 dice (5 built + 2 bonus)"),
        "{out}"
    );
    // The weapon's Injury is on the target without a GM step (R-SA-4).
    assert!(
        out.contains("Vance takes a Moderate Injury: Sword; recorded as Moderate"),
        "{out}"
    );
    // Advancement comes at the end-of-session step (R-SA-9).
    assert!(out.contains("ends a consequential session"), "{out}");
}

/// Negative numbers reach the parser and are refused by name; numbers past the
/// integer range are refused as too large, never wrapped.
#[test]
fn negative_and_huge_numbers_are_refused_by_name() {
    for (flag, value, says) in [
        ("--bonus", "-4", "negative"),
        ("--tn", "-1", "negative"),
        ("--penalty", "-2", "negative"),
        ("--bonus", "4294967296", "too large"),
        ("--bonus", "99999999999999999999999", "too large"),
        (
            "--bonus",
            "999999999999999999999999999999999999999999999999",
            "too large",
        ),
    ] {
        let mut args = vec!["sapio", "check", "--pool", "3", "--tn", "2"];
        if flag == "--tn" {
            args = vec!["sapio", "check", "--pool", "3"];
        }
        args.extend([flag, value]);
        let (code, _, err) = tabula(&args);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
        assert!(err.contains(says), "{flag} {value}: {err}");
    }
    let (code, _, err) = tabula(&["sapio", "odds", "--pool", "-3", "--tn", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--pool") && err.contains("negative"), "{err}");
    // In range of the integer, out of the book's range: the rule is named.
    let (code, _, err) = tabula(&[
        "sapio", "check", "--pool", "3", "--tn", "2", "--bonus", "25",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("bonus dice"), "{err}");
}

/// "Lucky" and "Competent" are refused as Qualities, and magic needs its
/// Quality and Special Talent pair (R-SA-10): errors, not warnings.
#[test]
fn character_validate_refuses_lucky_and_unpaired_magic() {
    let dir = std::env::temp_dir().join("tabula-sapio-cli-r-sa-10");
    std::fs::create_dir_all(&dir).unwrap();
    let sheet = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/sapio/roof-runner.toml"),
    )
    .unwrap();
    let lucky = dir.join("lucky.toml");
    std::fs::write(&lucky, sheet.replace("\"Perceptive\"", "\"Lucky\"")).unwrap();
    let (code, _, err) = tabula(&["sapio", "character", "validate", lucky.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("qualities[1]") && err.contains("R-SA-10"),
        "{err}"
    );
    let magic = dir.join("magic.toml");
    std::fs::write(&magic, sheet.replace("\"Perceptive\"", "\"Magical\"")).unwrap();
    let (code, _, err) = tabula(&["sapio", "character", "validate", magic.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Special Talent that grants"), "{err}");
    let (code, out, err) = tabula(&[
        "sapio",
        "character",
        "validate",
        "examples/sapio/arcane-knight.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("legal"));
}

/// A copy of an example sheet in a temporary directory.
fn sheet_copy(dir: &tempfile::TempDir, example: &str) -> String {
    let to = dir.path().join(example.rsplit('/').next().unwrap());
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(example);
    std::fs::copy(from, &to).unwrap();
    to.to_str().unwrap().to_string()
}

/// `character advance` without `--gm` acts as the sheet's player (Wren's
/// `player = "Ana"`), not a seat called "player"; `--seat` says otherwise.
#[test]
fn advance_acts_as_the_sheets_player() {
    let dir = tempfile::tempdir().unwrap();
    let file = sheet_copy(&dir, "examples/sapio/roof-runner.toml");
    let due = |file: &str| {
        let (code, out, err) = tabula(&[
            "sapio",
            "character",
            "advance",
            "--gm",
            file,
            "end-session",
            "consequential",
        ]);
        assert_eq!(code, 0, "{out}\n{err}");
    };
    due(&file);
    let (code, out, err) = tabula(&[
        "sapio",
        "character",
        "advance",
        &file,
        "advance",
        "quality",
        "Durable",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(std::fs::read_to_string(&file).unwrap().contains("Durable"));
    // Another player's seat is refused, and the sheet is unchanged.
    due(&file);
    let before = std::fs::read_to_string(&file).unwrap();
    let (code, _, err) = tabula(&[
        "sapio",
        "character",
        "advance",
        "--seat",
        "Ben",
        &file,
        "advance",
        "specialization",
        "Quick Escapes",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("Ben does not play Wren"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    // Naming the sheet's own player works too.
    let (code, out, err) = tabula(&[
        "sapio",
        "character",
        "advance",
        "--seat",
        "ana",
        &file,
        "advance",
        "specialization",
        "Quick Escapes",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
}

/// An argument with spaces keeps its words (the shell took its quotes off):
/// `text="This character can cast magical spells"` is the Special Talent's
/// text, not part of its name. The magic Talent gained alone is kept, marked
/// unpaired (R-SA-12).
#[test]
fn an_advance_argument_with_spaces_keeps_its_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = sheet_copy(&dir, "examples/sapio/roof-runner.toml");
    let (code, out, err) = tabula(&[
        "sapio",
        "character",
        "advance",
        "--gm",
        &file,
        "end-session",
        "consequential",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = tabula(&[
        "sapio",
        "character",
        "advance",
        &file,
        "advance",
        "talent",
        "Spellcaster",
        "text=This character can cast magical spells",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let sheet = std::fs::read_to_string(&file).unwrap();
    assert!(sheet.contains("name = \"Spellcaster\""), "{sheet}");
    assert!(
        sheet.contains("text = \"This character can cast magical spells\""),
        "{sheet}"
    );
    assert!(sheet.contains("unpaired = \"Spellcaster\""), "{sheet}");
    let (code, out, err) = tabula(&["sapio", "character", "validate", &file]);
    assert_eq!(code, 0, "{out}\n{err}");
}
