//! `tabula <system> play` as a new user meets it: saves that keep saving, input
//! that is refused in bounded memory, files named in every error (issue "Rules
//! the table must keep", items 29 and 30).

mod common;
use common::tabula_text;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-play-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn resume_keeps_saving_to_the_resumed_file() {
    let dir = temp("resume");
    let save = dir.join("t.json");
    let first = dir.join("first.script");
    std::fs::write(&first, "John: roll skill very-easy\n").unwrap();
    let save_s = save.to_str().unwrap();
    let (code, out, err) = tabula_text(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--seed",
        "3",
        "--save",
        save_s,
        "--script",
        first.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let rows = |path: &std::path::Path| {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        v["rows"].as_array().unwrap().len()
    };
    let after_one = rows(&save);
    assert!(after_one > 0);
    let second = dir.join("second.script");
    std::fs::write(&second, "GM: compete John skill Cristy skill\n").unwrap();
    let (code, out, err) = tabula_text(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--resume",
        save_s,
        "--script",
        second.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        rows(&save) > after_one,
        "the resumed file was saved to again"
    );
}

#[test]
fn seed_with_resume_is_refused_not_ignored() {
    let (code, _, err) = tabula_text(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--resume",
        "x.json",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--seed") && err.contains("--resume"), "{err}");
}

#[test]
fn a_save_of_another_system_says_which_it_is() {
    let dir = temp("other");
    let save = dir.join("b.json");
    let script = dir.join("s.script");
    std::fs::write(&script, "quit\n").unwrap();
    let (code, _, err) = tabula_text(&[
        "bastards",
        "play",
        "examples/bastards/table.toml",
        "--save",
        save.to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = tabula_text(&[
        "sapio",
        "play",
        "examples/sapio/table.toml",
        "--resume",
        save.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("bastards"), "{err}");
}

#[test]
fn an_unwritable_save_path_exits_2_and_names_the_file() {
    let (code, _, err) = tabula_text(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--save",
        "/nonexistent-dir/save.json",
        "--script",
        "examples/tiers/encounter.script",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent-dir/save.json"), "{err}");
}

#[test]
fn a_directory_as_script_exits_2_and_names_it() {
    let (code, _, err) = tabula_text(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--script",
        "examples",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("examples") && err.contains("directory"),
        "{err}"
    );
}

#[test]
fn a_table_or_script_that_never_ends_is_refused_in_bounded_memory() {
    if !std::path::Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero on this machine");
        return;
    }
    let (code, _, err) = tabula_text(&["tiers", "play", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("larger than"),
        "{err}"
    );
    let (code, _, err) = tabula_text(&[
        "tiers",
        "play",
        "examples/tiers/table.toml",
        "--script",
        "/dev/zero",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than"), "{err}");
}
