//! Table files: every broken one is refused with the field or file named.

use std::path::PathBuf;
use tabula_core::TextPlay;
use tabula_scratch::{Scratch, SetupError};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn setup(text: &str) -> Result<tabula_scratch::State, SetupError> {
    Scratch::setup(text, &dir())
}

const GROUPS: &str = r#"
[[groups]]
seat = "alice"
side = "heroes"
characters = ["chokestar.toml"]
[[groups]]
seat = "gm"
side = "villains"
characters = ["thug.toml", { file = "thug.toml", id = "thug-b" }]
"#;

#[test]
fn a_file_seated_twice_needs_its_own_id() {
    let s = setup(GROUPS).unwrap();
    assert!(s.find("thug").is_some() && s.find("thug-b").is_some());
    let twice = GROUPS.replace(r#"{ file = "thug.toml", id = "thug-b" }"#, r#""thug.toml""#);
    assert!(matches!(setup(&twice), Err(SetupError::DuplicateId { .. })));
    let bad_id = GROUPS.replace("thug-b", "thug b!");
    let err = setup(&bad_id).unwrap_err().to_string();
    assert!(err.contains("thug.toml") && err.contains("id"), "{err}");
}

#[test]
fn broken_table_files_name_the_field() {
    let cases: [(&str, &str); 6] = [
        ("[rules]\ncp = 0\n", "rules.cp"),
        ("[rules]\nd20 = \"d12\"\n", "d20"),
        ("[encounter]\nterrain = [\"lava\"]\n", "lava"),
        ("", "at least one initiative group"),
        (
            "[[groups]]\nseat = \"gm\"\nside = \"x\"\ncharacters = [\"nope.toml\"]\n",
            "nope.toml",
        ),
        (
            "[[groups]]\nseat = \"gm\"\nside = \"x\"\ncharacters = [\"zimzambamalam.toml\"]\n[[groups]]\nseat = \"GM\"\nside = \"y\"\ncharacters = [\"thug.toml\"]\n",
            "two initiative groups",
        ),
    ];
    for (text, want) in cases {
        let err = setup(text).unwrap_err().to_string();
        assert!(err.contains(want), "{text:?}: {err}");
    }
    // A character that breaks the table's limits names the file and the rule.
    let text = "[rules]\nmax_level = 2\n[[groups]]\nseat = \"gm\"\nside = \"x\"\ncharacters = [\"chokestar.toml\"]\n";
    let err = setup(text).unwrap_err().to_string();
    assert!(
        err.contains("chokestar.toml") && err.contains("abilities.stealth"),
        "{err}"
    );
}

#[test]
fn the_text_option_for_strength_and_the_d6_method() {
    let text = format!("[rules]\nstrength_base = 7\nd20 = \"d6-table\"\n{GROUPS}");
    let s = setup(&text).unwrap();
    let thug = s.find("thug").unwrap();
    assert_eq!(
        s.strength(thug),
        9,
        "7 + 2 toughness (the text's table option)"
    );
}
