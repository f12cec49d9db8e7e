//! Table files: every broken one is refused with the field or file named.

use std::path::PathBuf;
use tabula_core::TextPlay;
use tabula_core::files::InMemoryFiles;
use tabula_scratch::character::Problem;
use tabula_scratch::{D20Method, LoadError, Scratch, SetupError};

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
            "[[groups]]\nseat = \"gm\"\nside = \"x\"\ncharacters = [\"chokestar.toml\"]\n[[groups]]\nseat = \"GM\"\nside = \"y\"\ncharacters = [\"thug.toml\"]\n",
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

/// Sheets given as texts (a table file's `characters` name them).
fn with_sheets(table: &str, sheets: &[(&str, &str)]) -> Result<tabula_scratch::State, SetupError> {
    let files = InMemoryFiles(
        sheets
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    );
    Scratch::setup(table, &files)
}

const TWO_SIDES: &str = r#"
[rules]
cp = 10
max_level = 4
[[groups]]
seat = "alice"
side = "heroes"
characters = ["hero.toml"]
[[groups]]
seat = "gm"
side = "villains"
characters = ["foe.toml"]
"#;

const FOE: &str = "name = \"Foe\"\n[abilities]\ntoughness = 3\n";
const HERO: &str = "name = \"Hero\"\n[abilities]\ntoughness = 3\n";

/// R-SCR-7: a table's `[rules]` bind every character; a sheet's own `cp` or
/// `max_level` cannot raise them (a lower one only tightens the check).
#[test]
fn a_sheet_cannot_raise_the_tables_cp_or_maximum_level() {
    let big = "name = \"Big\"\ncp = 14\nmax_level = 6\n[abilities]\nshooting = 4\nfighting = 4\ntoughness = 6\n";
    let err = with_sheets(TWO_SIDES, &[("hero.toml", big), ("foe.toml", FOE)]).unwrap_err();
    let SetupError::Character {
        file,
        error: LoadError::Character(ce),
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!(file, "hero.toml");
    assert!(ce.problems.contains(&Problem::AboveTableLimit {
        field: "cp",
        value: 14,
        table: 10
    }));
    assert!(ce.problems.contains(&Problem::AboveTableLimit {
        field: "max_level",
        value: 6,
        table: 4
    }));
    // The levels are checked against the table's limits, not the sheet's.
    assert!(
        ce.problems
            .contains(&Problem::OverBudget { spent: 14, cp: 10 })
    );
    let text = err.to_string();
    assert!(text.contains("R-SCR-7") && text.contains("cp: "), "{text}");
    // The same sheet at a table whose rules allow him.
    let roomy = TWO_SIDES
        .replace("cp = 10", "cp = 14")
        .replace("max_level = 4", "max_level = 6");
    assert!(with_sheets(&roomy, &[("hero.toml", big), ("foe.toml", FOE)]).is_ok());
    // A sheet's lower limit is checked (it only tightens).
    let tight = "name = \"Tight\"\ncp = 3\n[abilities]\ntoughness = 4\n";
    let err = with_sheets(TWO_SIDES, &[("hero.toml", tight), ("foe.toml", FOE)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("4 levels distributed but only 3 CP"), "{err}");
    // Minions: their sheets cannot raise the leader's command either.
    let boss = "name = \"Boss\"\n[abilities]\ncommand = 2\ntoughness = 3\n[[minions]]\nname = \"Goon\"\ncp = 5\n[minions.abilities]\ntoughness = 2\n";
    let err = with_sheets(TWO_SIDES, &[("hero.toml", boss), ("foe.toml", FOE)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("minions.Goon: cp: the sheet's 5"), "{err}");
}

/// R-SCR-6: the `d20` option reads every spelling the docs and the help give,
/// in any case; an unknown one is refused with the valid ones listed.
#[test]
fn the_d20_option_reads_every_spelling_the_docs_give() {
    let cases = [
        ("d20", D20Method::D20),
        ("D20", D20Method::D20),
        ("d6-table", D20Method::D6Table),
        ("D6 Table", D20Method::D6Table),
        ("table", D20Method::D6Table),
        ("lookup", D20Method::D6Table),
        ("Lookup-Table", D20Method::D6Table),
        ("d6-lookup", D20Method::D6Table),
        ("6x6", D20Method::D6Table),
        ("d6x4", D20Method::D6Times4),
        ("D6X4", D20Method::D6Times4),
        ("d6 x 4", D20Method::D6Times4),
        ("d6-x4", D20Method::D6Times4),
        ("d6*4", D20Method::D6Times4),
        ("d6-times-4", D20Method::D6Times4),
        ("d6 times 4", D20Method::D6Times4),
        ("times4", D20Method::D6Times4),
        // What earlier saves wrote.
        ("d6-times4", D20Method::D6Times4),
    ];
    for (spelling, want) in cases {
        let table = TWO_SIDES.replace(
            "max_level = 4",
            &format!("max_level = 4\nd20 = \"{spelling}\""),
        );
        let s = with_sheets(&table, &[("hero.toml", HERO), ("foe.toml", FOE)])
            .unwrap_or_else(|e| panic!("{spelling}: {e}"));
        assert_eq!(s.rules.d20, want, "{spelling}");
        assert_eq!(D20Method::parse(spelling), Some(want), "{spelling}");
    }
    // Every spelling the shipped example table names in its comment is read.
    let example = std::fs::read_to_string(dir().join("table.toml")).unwrap();
    let line = example.lines().find(|l| l.starts_with("d20")).unwrap();
    for quoted in line.split('"').skip(1).step_by(2) {
        assert!(D20Method::parse(quoted).is_some(), "{quoted} in {line}");
    }
    let table = TWO_SIDES.replace("max_level = 4", "max_level = 4\nd20 = \"d12\"");
    let err = with_sheets(&table, &[("hero.toml", HERO), ("foe.toml", FOE)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("d12")
            && err.contains("d6-table")
            && err.contains("d6x4")
            && err.contains("R-SCR-6"),
        "{err}"
    );
    // Written back under one name.
    assert_eq!(
        serde_json::to_string(&D20Method::D6Times4).unwrap(),
        "\"d6x4\""
    );
}

#[test]
fn a_table_with_no_characters_or_one_side_only_is_refused() {
    let none = "[[groups]]\nseat = \"gm\"\nside = \"x\"\ncharacters = []\n";
    assert!(matches!(setup(none), Err(SetupError::EmptyGroup { .. })));
    assert!(
        setup(none)
            .unwrap_err()
            .to_string()
            .contains("groups.characters")
    );
    let one_side = TWO_SIDES.replace("villains", "Heroes");
    let err = with_sheets(&one_side, &[("hero.toml", HERO), ("foe.toml", FOE)]).unwrap_err();
    assert!(matches!(err, SetupError::OneSide { .. }), "{err}");
    assert!(err.to_string().contains("two sides"), "{err}");
    // One side however capitalised: the first spelling is kept.
    let three = format!(
        "{TWO_SIDES}[[groups]]\nseat = \"bob\"\nside = \"HEROES\"\ncharacters = [\"third.toml\"]\n"
    );
    let s = with_sheets(
        &three,
        &[
            ("hero.toml", "name = \"Hero\"\n[abilities]\ntoughness = 2\n"),
            ("foe.toml", FOE),
            (
                "third.toml",
                "name = \"Third\"\n[abilities]\ntoughness = 2\n",
            ),
        ],
    )
    .unwrap();
    assert_eq!(s.groups[2].side, "heroes");
    assert_eq!(s.sides_standing().len(), 2);
}

#[test]
fn names_with_control_characters_and_seat_names_with_colons_are_refused() {
    let colon = TWO_SIDES.replace("\"alice\"", "\"ali:ce\"");
    let err = with_sheets(&colon, &[("hero.toml", HERO), ("foe.toml", FOE)]).unwrap_err();
    assert!(
        err.to_string().contains("seat") && err.to_string().contains("':'"),
        "{err}"
    );
    let escape = TWO_SIDES.replace("\"alice\"", "\"ali\\u001b[2Jce\"");
    let err = with_sheets(&escape, &[("hero.toml", HERO), ("foe.toml", FOE)]).unwrap_err();
    assert!(err.to_string().contains("control characters"), "{err}");
    let side = TWO_SIDES.replace("\"heroes\"", "\"he\\nroes\"");
    let err = with_sheets(&side, &[("hero.toml", HERO), ("foe.toml", FOE)]).unwrap_err();
    assert!(err.to_string().contains("side"), "{err}");
    let bad_name = "name = \"Fo\\u0007e\"\n[abilities]\ntoughness = 3\n";
    let err = with_sheets(TWO_SIDES, &[("hero.toml", bad_name), ("foe.toml", FOE)]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("hero.toml")
            && text.contains("name: a name may not contain control characters"),
        "{text}"
    );
    // A seat written twice in another case is one seat.
    let twice = TWO_SIDES.replace("\"gm\"", "\"ALICE\"");
    assert!(matches!(
        with_sheets(&twice, &[("hero.toml", HERO), ("foe.toml", FOE)]),
        Err(SetupError::DuplicateSeat(_))
    ));
}
