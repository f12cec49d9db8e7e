//! The GM's `add FILE.toml [as NAME] [to SEAT]` (issue 27, item 6: add a
//! participant "from an uploaded sheet"): the sheet sent with the line is
//! read by the book's validating reader; its character joins as a bundled
//! sheet does (fresh tracks, the GM's or `to`'s, " 2" on a taken name, a
//! guest the campaign does not keep); a player may not; a file not sent, an
//! unreadable or a broken sheet is a `CommandParseError::Sheet` naming the
//! file and every broken rule, and changes nothing; a sheet sent as a JSON
//! command is checked again by `decide`; the log replays without the file.

use std::collections::BTreeMap;
use std::path::PathBuf;

use proptest::prelude::*;
use tabula_core::files::{InMemoryFiles, NoSheets};
use tabula_core::system::{CommandParseError, Seat, System, Table, TextPlay};
use tabula_core::{CharacterBook, Refusal, RuleError, Scripted};
use tabula_sapio::character::MAX_LUCK;
use tabula_sapio::event::Event;
use tabula_sapio::table::MAX_CHARACTERS;
use tabula_sapio::{Command, Sapio};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio")
}

fn table() -> Table<Sapio> {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Sapio::setup(&text, &dir).unwrap())
}

/// The book's example enforcer sheet (`examples/sapio/enforcer.toml`),
/// renamed Mira, with `luck` Luck: a legal character the table does not hold.
fn mira(luck: u32) -> String {
    let text = std::fs::read_to_string(examples().join("enforcer.toml")).unwrap();
    let text = text.replace("name = \"Vance\"", "name = \"Mira\"");
    assert!(text.contains("name = \"Mira\""));
    format!("luck = {luck}\n{text}")
}

/// The same sheet with two broken rules: a Quality too generic to be one
/// ("Lucky", R-SA-10) and Luck above the table's cap.
fn broken() -> String {
    mira(MAX_LUCK + 1).replace(
        "qualities = [\"Imposing\", \"Heavy\"]",
        "qualities = [\"Lucky\", \"Heavy\"]",
    )
}

fn files(entries: &[(&str, &str)]) -> InMemoryFiles {
    InMemoryFiles(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
    )
}

fn parse(
    t: &Table<Sapio>,
    who: &str,
    line: &str,
    sheets: &InMemoryFiles,
) -> Result<Command, CommandParseError> {
    Sapio::parse_command_with(t.state(), &Seat::parse(who), line, sheets)
}

/// Submit `cmd` as `who`; panics on a refusal.
fn submit(t: &mut Table<Sapio>, who: &str, cmd: &Command) -> Vec<Event> {
    t.submit(&Seat::parse(who), cmd, &mut Scripted::values(["H"; 12]))
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
        .iter()
        .map(|l| l.event.clone())
        .collect()
}

/// Submit `cmd` as `who`, expect a refusal, and check nothing changed.
fn refused(t: &mut Table<Sapio>, who: &str, cmd: &Command) -> RuleError {
    let before = t.state().clone();
    let n = t.log().len();
    let err = t
        .submit(&Seat::parse(who), cmd, &mut Scripted::values(["H"; 12]))
        .expect_err("a refusal");
    assert_eq!(t.state(), &before, "{cmd:?} changed the state");
    assert_eq!(t.log().len(), n, "{cmd:?} was logged");
    err
}

/// Parse `line` as `who` with `sheets`, expect a `Sheet` error naming
/// `file`, and check nothing changed; the problems.
fn sheet_error(
    t: &Table<Sapio>,
    who: &str,
    line: &str,
    sheets: &InMemoryFiles,
    file: &str,
) -> Vec<String> {
    let before = t.state().clone();
    let e = parse(t, who, line, sheets).expect_err("a sheet error");
    assert_eq!(t.state(), &before);
    assert!(e.to_string().contains(file), "{e}");
    match e {
        CommandParseError::Sheet { file: f, problems } => {
            assert_eq!(f, file);
            assert!(!problems.is_empty());
            problems
        }
        other => panic!("{line}: {other:?}"),
    }
}

/// The GM's `add mira.toml as Newcomer`: the command carries the sheet's
/// text; the newcomer joins with the sheet's values (Luck, Profession,
/// Qualities) as the GM's character, a guest the campaign does not keep;
/// without `as` it takes the sheet's name, and a second copy gets " 2";
/// `to SEAT` gives it to a player. Legal while a check is open, as `add
/// KIND` is.
#[test]
fn gm_add_sheet_brings_in_the_sheets_character() {
    let mut t = table();
    let text = mira(3);
    let sheets = files(&[("mira.toml", &text)]);
    let cmd = parse(&t, "GM", "add mira.toml as Newcomer", &sheets).unwrap();
    assert_eq!(
        cmd,
        Command::Add {
            kind: "mira.toml".into(),
            name: Some("Newcomer".into()),
            to: None,
            sheet: Some(text.clone()),
        }
    );
    let ev = submit(&mut t, "GM", &cmd);
    let [Event::Added { newcomer }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(
        Sapio::describe(t.state(), &ev[0]),
        "The GM adds Newcomer to the encounter (a GM character)"
    );
    let i = t.state().find("Newcomer").expect("the newcomer");
    let m = &t.state().characters[i];
    assert_eq!(&m.character, newcomer);
    assert!(m.added, "a guest");
    assert_eq!(m.character.player(), None);
    assert_eq!(m.character.luck(), 3);
    assert_eq!(m.character.sheet().profession.name, "Gang Enforcer");
    assert_eq!(m.character.sheet().qualities, ["Imposing", "Heavy"]);
    assert!(m.character.injuries().entries().is_empty());
    // A guest is not written back to a campaign.
    let after = <Sapio as CharacterBook>::sheets_after(t.state());
    assert!(!after.iter().any(|s| s.name == "Newcomer"), "{after:?}");

    // The sheet's own name, then " 2"; `to` a player seat; mid-check.
    let check = Sapio::parse_command(t.state(), &Seat::Gm, "check Wren 3").unwrap();
    submit(&mut t, "GM", &check);
    for line in ["add mira.toml", "add mira.toml to Ana"] {
        let cmd = parse(&t, "GM", line, &sheets).unwrap();
        submit(&mut t, "GM", &cmd);
    }
    let names = t.state().names();
    assert!(
        names.ends_with(&["Mira".to_string(), "Mira 2".to_string()]),
        "{names:?}"
    );
    let last = t.state().characters.last().unwrap();
    assert_eq!(last.character.player(), Some("Ana"));
    assert!(t.replay_matches());
}

/// A file name with a space, quoted, and any case of `.toml`.
#[test]
fn gm_add_sheet_reads_a_quoted_file_name() {
    let t = table();
    let text = mira(0);
    let sheets = files(&[("my sheet.TOML", &text)]);
    let cmd = parse(&t, "GM", r#"add "my sheet.TOML" as Mira to Cy"#, &sheets).unwrap();
    assert_eq!(
        cmd,
        Command::Add {
            kind: "my sheet.TOML".into(),
            name: Some("Mira".into()),
            to: Some("Cy".into()),
            sheet: Some(text),
        }
    );
}

/// A player's `add FILE.toml` is refused (only the GM adds), nothing changed.
#[test]
fn gm_add_sheet_by_a_player_is_refused() {
    let mut t = table();
    let sheets = files(&[("mira.toml", &mira(1))]);
    let cmd = parse(&t, "Ana", "add mira.toml as Newcomer", &sheets).unwrap();
    let e = refused(&mut t, "Ana", &cmd);
    assert_eq!(e.kind, Refusal::NotPermitted, "{e:?}");
    // Even with a broken sheet sent as JSON: the seat is refused first.
    let cmd = Command::Add {
        kind: "bad.toml".into(),
        name: None,
        to: None,
        sheet: Some(broken()),
    };
    let e = refused(&mut t, "Ana", &cmd);
    assert_eq!(e.kind, Refusal::NotPermitted, "{e:?}");
}

/// A file the line names but nothing sent: one problem, naming the file.
#[test]
fn gm_add_sheet_missing_file_is_a_sheet_error() {
    let t = table();
    let sheets = files(&[("mira.toml", &mira(1))]);
    let problems = sheet_error(&t, "GM", "add gone.toml as Newcomer", &sheets, "gone.toml");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("gone.toml"), "{problems:?}");
}

/// `add x.toml` with no sheets at all (`parse_command`, `NoSheets`): a
/// sheet error naming the file.
#[test]
fn gm_add_sheet_without_sheets_names_the_file() {
    let t = table();
    let e = Sapio::parse_command(t.state(), &Seat::Gm, "add x.toml").unwrap_err();
    let CommandParseError::Sheet { file, problems } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(file, "x.toml");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("x.toml"), "{problems:?}");
    let e2 = Sapio::parse_command_with(t.state(), &Seat::Gm, "add x.toml", &NoSheets).unwrap_err();
    assert_eq!(e, e2);
}

/// A sheet with two broken rules: both listed, each naming its field and
/// rule; TOML that does not parse is one problem. Nothing changes.
#[test]
fn gm_add_sheet_broken_sheet_lists_every_broken_rule() {
    let t = table();
    let bad = broken();
    let sheets = files(&[
        ("bad.toml", &bad),
        ("junk.toml", "name = \"X\"\nnot toml ="),
    ]);
    let problems = sheet_error(&t, "GM", "add bad.toml as Newcomer", &sheets, "bad.toml");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("qualities[0]") && p.contains("Lucky")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("luck:") && p.contains(&(MAX_LUCK + 1).to_string())),
        "{problems:?}"
    );
    assert!(
        problems.iter().all(|p| p.contains('[')),
        "each names its rule: {problems:?}"
    );
    let problems = sheet_error(&t, "GM", "add junk.toml", &sheets, "junk.toml");
    assert_eq!(problems.len(), 1, "{problems:?}");
}

/// A broken sheet sent as a JSON command (no parser): `decide` reads it
/// again and refuses it, naming the file and every broken rule.
#[test]
fn gm_add_sheet_sent_as_json_is_checked_by_decide() {
    let mut t = table();
    let json = serde_json::json!({
        "command": "add", "kind": "bad.toml", "name": "Newcomer", "sheet": broken()
    });
    let cmd: Command = serde_json::from_value(json).unwrap();
    let e = refused(&mut t, "GM", &cmd);
    assert_eq!(e.kind, Refusal::Forbidden, "{e:?}");
    assert!(e.message.contains("bad.toml"), "{e}");
    assert!(e.message.contains("qualities[0]"), "{e}");
    assert!(e.message.contains("luck:"), "{e}");
    // A command without `sheet` (as stored before) still reads.
    let old: Command =
        serde_json::from_value(serde_json::json!({"command": "add", "kind": "enforcer"})).unwrap();
    assert!(matches!(old, Command::Add { sheet: None, .. }));
    // And `sheet` is left out of a command that has none.
    let back = serde_json::to_value(&old).unwrap();
    assert!(back.get("sheet").is_none(), "{back}");
}

/// A full table refuses an uploaded sheet as it refuses a kind.
#[test]
fn gm_add_sheet_to_a_full_table_is_refused() {
    let mut t = table();
    let sheets = files(&[("mira.toml", &mira(1))]);
    while t.state().characters.len() < MAX_CHARACTERS {
        let cmd = parse(&t, "GM", "add mira.toml", &sheets).unwrap();
        submit(&mut t, "GM", &cmd);
    }
    let cmd = parse(&t, "GM", "add mira.toml", &sheets).unwrap();
    let e = refused(&mut t, "GM", &cmd);
    assert!(matches!(e.kind, Refusal::OutOfRange { .. }), "{e:?}");
}

/// The event carries the whole character: the log replays, and its events
/// (as stored, JSON) rebuild the table from the initial state, no file.
#[test]
fn gm_add_sheet_replays_without_the_file() {
    let mut t = table();
    let sheets = files(&[("mira.toml", &mira(4))]);
    let cmd = parse(&t, "GM", "add mira.toml as Newcomer", &sheets).unwrap();
    submit(&mut t, "GM", &cmd);
    let injury = Sapio::parse_command(t.state(), &Seat::Gm, "injury Newcomer minor Graze").unwrap();
    submit(&mut t, "GM", &injury);
    assert!(t.replay_matches());
    let replayed = Table::<Sapio>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(&replayed, t.state());
    let mut rebuilt = t.initial().clone();
    for row in t.log().entries() {
        let json = serde_json::to_string(&row.event).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        Sapio::evolve(&mut rebuilt, &back);
    }
    assert_eq!(&rebuilt, t.state());
    let i = rebuilt.find("Newcomer").unwrap();
    assert_eq!(rebuilt.characters[i].character.luck(), 4);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any Luck on an uploaded sheet: up to the cap it joins with that Luck;
    /// above, the parser names the `luck` rule and the file, and a JSON
    /// command with it is refused by `decide`, nothing changed.
    #[test]
    fn gm_add_sheet_luck_is_checked(luck in 0u32..=(2 * MAX_LUCK)) {
        let mut t = table();
        let text = mira(luck);
        let sheets = files(&[("m.toml", &text)]);
        match parse(&t, "GM", "add m.toml", &sheets) {
            Ok(cmd) => {
                prop_assert!(luck <= MAX_LUCK);
                submit(&mut t, "GM", &cmd);
                prop_assert_eq!(t.state().characters.last().unwrap().character.luck(), luck);
            }
            Err(CommandParseError::Sheet { file, problems }) => {
                prop_assert!(luck > MAX_LUCK);
                prop_assert_eq!(file, "m.toml");
                prop_assert_eq!(problems.len(), 1);
                prop_assert!(problems[0].starts_with("luck:"));
                let cmd = Command::Add { kind: "m.toml".into(), name: None, to: None, sheet: Some(text) };
                let e = refused(&mut t, "GM", &cmd);
                prop_assert_eq!(e.kind, Refusal::Forbidden);
            }
            Err(other) => prop_assert!(false, "{other:?}"),
        }
    }
}
