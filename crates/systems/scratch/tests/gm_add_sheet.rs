//! The GM's `add FILE.toml [as NAME] [to SEAT]` (issue 27, item 6: add a
//! participant "from an uploaded sheet"): the sheet sent with the line is
//! read by the book's validating reader under the table's rules ("Abilities",
//! R-SCR-7), the character joins as a copy of a known kind joins, a missing or
//! broken sheet is refused naming the file and every broken rule, and replay
//! needs no file.

use std::path::PathBuf;

use tabula_core::files::{InMemoryFiles, NoSheets};
use tabula_core::{
    CharacterBook, CommandParseError, Refusal, RuleError, Scripted, Seat, System, Table, TextPlay,
};
use tabula_scratch::{Ability, Command, Event, Phase, Scratch, rules};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn example(file: &str) -> String {
    std::fs::read_to_string(dir().join(file)).unwrap()
}

fn table(file: &str) -> Table<Scratch> {
    Table::new(Scratch::setup(&example(file), &dir()).unwrap())
}

/// The example table (14 CP, maximum level 8) after initiative: alice 1,
/// bob 2, gm 20, so the GM's group goes first.
fn in_turns() -> Table<Scratch> {
    let mut t = table("table.toml");
    let cmd = Scratch::parse_command(t.state(), &Seat::Gm, "initiative").unwrap();
    t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([1, 2, 20]))
        .unwrap();
    t
}

/// A sheet with two broken rules: shooting 9 above the table's maximum
/// level 8, and an ability the book does not have.
const BROKEN: &str = "name = \"Broken\"\n[abilities]\nshooting = 9\nflying_carpet = 1\n";

/// `x.toml`: Zimzambamalam's sheet (shooting 8, toughness 2); `the-boss.toml`:
/// The Boss with his two thugs; `broken.toml`: [`BROKEN`].
fn files() -> InMemoryFiles {
    let mut f = InMemoryFiles::default();
    f.0.insert("x.toml".into(), example("zimzambamalam.toml"));
    f.0.insert("the-boss.toml".into(), example("the-boss.toml"));
    f.0.insert("broken.toml".into(), BROKEN.into());
    f
}

fn parse(
    t: &Table<Scratch>,
    seat: &str,
    line: &str,
    sheets: &InMemoryFiles,
) -> Result<Command, CommandParseError> {
    Scratch::parse_command_with(t.state(), &Seat::parse(seat), line, sheets)
}

fn submit(t: &mut Table<Scratch>, seat: &str, cmd: &Command) -> Result<(), RuleError> {
    t.submit(&Seat::parse(seat), cmd, &mut Scripted::dice([]))
        .map(|_| ())
}

/// The GM's `add x.toml as Newcomer`: the newcomer joins the GM's group with
/// the sheet's values, at full hit points, as a guest; the log names the
/// sheet's character as the kind.
#[test]
fn gm_add_sheet_brings_in_the_uploaded_character() {
    let mut t = in_turns();
    let before = t.state().characters.len();
    let cmd = parse(&t, "gm", "add x.toml as Newcomer", &files()).unwrap();
    let Command::Add {
        kind, sheet, name, ..
    } = &cmd
    else {
        panic!("{cmd:?}")
    };
    assert_eq!(kind, "x.toml");
    assert_eq!(
        sheet.as_deref(),
        Some(example("zimzambamalam.toml").as_str())
    );
    assert_eq!(name.as_deref(), Some("Newcomer"));
    submit(&mut t, "gm", &cmd).unwrap();
    let s = t.state();
    assert_eq!(s.characters.len(), before + 1);
    let i = s.find("newcomer").unwrap();
    let c = &s.characters[i];
    assert_eq!(c.character.name(), "Newcomer");
    assert_eq!(c.character.level(Ability::Shooting), 8);
    assert_eq!(c.character.level(Ability::Toughness), 2);
    assert_eq!(c.hit_points, 2, "full hit points: toughness 2");
    assert!(c.added, "a guest");
    let gm_group = s.groups.iter().position(|g| g.seat.is_gm()).unwrap();
    assert!(s.groups[gm_group].members.contains(&i));
    let last = t.log().entries().last().unwrap().event.clone();
    let Event::Added { kind, .. } = &last else {
        panic!("{last:?}")
    };
    assert_eq!(kind, "Zimzambamalam", "the kind is the sheet's character");
    // Guests are not the campaign's: no sheet goes back for the newcomer.
    let after = Scratch::sheets_after(t.state());
    assert!(!after.iter().any(|s| s.name == "Newcomer"));
}

/// A sheet with minions brings them along, named as `add KIND` names them,
/// in the seat's group named by `to`.
#[test]
fn gm_add_sheet_with_minions_to_a_seat() {
    let mut t = in_turns();
    let before = t.state().characters.len();
    let cmd = parse(&t, "gm", "add the-boss.toml as Big Boss to alice", &files()).unwrap();
    submit(&mut t, "gm", &cmd).unwrap();
    let s = t.state();
    assert_eq!(s.characters.len(), before + 3, "The Boss and two thugs");
    let i = s.find("big-boss").unwrap();
    let alice = s
        .groups
        .iter()
        .position(|g| g.seat == Seat::parse("alice"))
        .unwrap();
    assert!(s.groups[alice].members.contains(&i));
    assert_eq!(
        s.characters.iter().filter(|c| c.leader == Some(i)).count(),
        2
    );
}

/// A player's `add x.toml` reads no file and is refused as `add KIND` is;
/// so is a player's command carrying a sheet's text (sent as JSON).
#[test]
fn gm_add_sheet_by_a_player_is_refused() {
    let mut t = in_turns();
    let before = t.clone();
    let cmd = parse(&t, "alice", "add x.toml", &files()).unwrap();
    let e = submit(&mut t, "alice", &cmd).unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(e.rule, rules::GM_TOOLS);
    let json = Command::Add {
        kind: "x.toml".into(),
        sheet: Some(example("zimzambamalam.toml")),
        name: None,
        to: None,
    };
    let e = submit(&mut t, "alice", &json).unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(t, before);
}

/// A missing file is one problem naming it; a broken sheet lists each broken
/// rule naming its field; nothing changes. The same broken text sent in a
/// command (as JSON) is refused by `decide` naming both rules.
#[test]
fn gm_add_sheet_missing_or_broken_is_a_sheet_error() {
    let mut t = in_turns();
    let before = t.clone();
    match parse(&t, "gm", "add nobody.toml as X", &files()) {
        Err(CommandParseError::Sheet { file, problems }) => {
            assert_eq!(file, "nobody.toml");
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(problems[0].contains("nobody.toml"), "{problems:?}");
        }
        other => panic!("{other:?}"),
    }
    match parse(&t, "gm", "add broken.toml", &files()) {
        Err(CommandParseError::Sheet { file, problems }) => {
            assert_eq!(file, "broken.toml");
            assert_eq!(problems.len(), 2, "{problems:?}");
            assert!(
                problems
                    .iter()
                    .any(|p| p.contains("abilities.shooting") && p.contains("maximum level 8")),
                "{problems:?}"
            );
            assert!(
                problems
                    .iter()
                    .any(|p| p.contains("abilities.flying_carpet")),
                "{problems:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    let cmd = Command::Add {
        kind: "broken.toml".into(),
        sheet: Some(BROKEN.into()),
        name: None,
        to: None,
    };
    let e = submit(&mut t, "gm", &cmd).unwrap_err();
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(
        e.message.contains("broken.toml")
            && e.message.contains("abilities.shooting")
            && e.message.contains("abilities.flying_carpet"),
        "{e}"
    );
    // Not TOML at all: one problem.
    let mut garbled = files();
    garbled.0.insert("g.toml".into(), "name = ".into());
    assert!(matches!(
        parse(&t, "gm", "add g.toml", &garbled),
        Err(CommandParseError::Sheet { problems, .. }) if problems.len() == 1
    ));
    assert_eq!(t, before);
}

/// The table's rules bind an uploaded sheet as they bind a bundled one: at
/// maximum level 6, Zimzambamalam's 8 shooting is refused (R-SCR-7); and
/// `add FILE.toml` is legal only when `add KIND` is (during the turns).
#[test]
fn gm_add_sheet_follows_the_tables_rules_and_phase() {
    let t = table("combat-example.toml");
    let e = parse(&t, "gm", "add x.toml", &files()).unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Sheet { problems, .. }
            if problems.iter().any(|p| p.contains("maximum level 6"))),
        "{e:?}"
    );
    // Before initiative: read, then refused as `add KIND` is.
    let mut t = table("table.toml");
    let before = t.clone();
    let cmd = parse(&t, "gm", "add x.toml", &files()).unwrap();
    let e = submit(&mut t, "gm", &cmd).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert_eq!(t, before);
}

/// The log carries the whole character: replaying it (also through JSON)
/// rebuilds the same state with no file; the command itself round-trips
/// through JSON, and a command without `sheet` (older JSON) still reads.
#[test]
fn gm_add_sheet_replay_needs_no_file() {
    let mut t = in_turns();
    let cmd = parse(&t, "gm", "add x.toml as Newcomer", &files()).unwrap();
    let json = serde_json::to_string(&cmd).unwrap();
    assert_eq!(serde_json::from_str::<Command>(&json).unwrap(), cmd);
    submit(&mut t, "gm", &cmd).unwrap();
    assert!(t.replay_matches());
    let log = serde_json::to_string(t.log()).unwrap();
    let back: tabula_core::EventLog<Event> = serde_json::from_str(&log).unwrap();
    let mut s = t.initial().clone();
    for e in back.entries() {
        Scratch::evolve(&mut s, &e.event);
    }
    assert_eq!(&s, t.state());
    let text = Scratch::describe(&s, &back.entries().last().unwrap().event);
    assert!(text.contains("Newcomer (Zimzambamalam)"), "{text}");
    assert_eq!(t.state().phase, Phase::Turns);
    let old: Command =
        serde_json::from_str(r#"{"command":"add","kind":"Thug","name":null,"to":null}"#).unwrap();
    assert!(matches!(old, Command::Add { sheet: None, .. }));
}

/// With no files sent (`parse_command`, [`NoSheets`]), `add x.toml` is a
/// sheet error naming the file.
#[test]
fn gm_add_sheet_without_files_names_the_file() {
    let t = in_turns();
    for e in [
        Scratch::parse_command(t.state(), &Seat::Gm, "add x.toml").unwrap_err(),
        Scratch::parse_command_with(t.state(), &Seat::Gm, "add x.toml", &NoSheets).unwrap_err(),
    ] {
        match e {
            CommandParseError::Sheet { file, problems } => {
                assert_eq!(file, "x.toml");
                assert_eq!(problems.len(), 1);
                assert!(problems[0].contains("x.toml"), "{problems:?}");
            }
            other => panic!("{other:?}"),
        }
    }
}
