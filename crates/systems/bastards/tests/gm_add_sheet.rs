//! The Dealer's (GM's) `add FILE.toml [as NAME] [to SEAT]` (issue 27, item 6:
//! a participant "from an uploaded sheet"): the file sent with the command is
//! read with the book's validating sheet reader; the character joins exactly
//! as a copy of a known kind joins (the same `Added` event, so a replay needs
//! no file); a missing file or a broken sheet is a `CommandParseError::Sheet`
//! naming every problem, and a command sent without the parser (JSON) is
//! validated again by `decide`.

mod common;
use common::*;
use std::collections::BTreeMap;
use tabula_bastards::Bastards;
use tabula_bastards::character::{Character, Trait};
use tabula_bastards::command::Command;
use tabula_bastards::event::Event;
use tabula_bastards::gm::GM_TOOLS;
use tabula_bastards::state::Body;
use tabula_core::files::{InMemoryFiles, NoSheets};
use tabula_core::roller::{Scripted, Seeded};
use tabula_core::system::{CommandParseError, Table};
use tabula_core::{Refusal, Seat, TextPlay};

const A_HAND: [&str; 5] = ["2C", "9S", "5H", "KD", "4H"];
const B_HAND: [&str; 5] = ["3C", "7S", "6H", "QD", "8H"];

/// The example Kodos (`examples/bastards/kodos.toml`), renamed Mira so the
/// newcomer is no kind the table already knows.
fn mira() -> String {
    include_str!("../../../../examples/bastards/kodos.toml")
        .replace("name = \"Kodos\"", "name = \"Mira\"")
}

/// Mira's sheet with two broken rules: a suit that is not a suit ("Suits")
/// and a skill that is not in the book ("Skills").
fn broken() -> String {
    mira()
        .replace("suit = \"Spades\"", "suit = \"Moons\"")
        .replace("[skills]\n", "[skills]\nJuggling = 3\n")
}

fn files(entries: &[(&str, String)]) -> InMemoryFiles {
    InMemoryFiles(
        entries
            .iter()
            .map(|(n, t)| (n.to_string(), t.clone()))
            .collect::<BTreeMap<_, _>>(),
    )
}

/// Two Fated, A (seat a) and B (seat b), in an Opposition.
fn table() -> Table<Bastards> {
    opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    )
}

fn parse_with(
    t: &Table<Bastards>,
    seat: &str,
    line: &str,
    sheets: &InMemoryFiles,
) -> Result<Command, CommandParseError> {
    Bastards::parse_command_with(t.state(), &Seat::parse(seat), line, sheets)
}

fn sheet_error(e: CommandParseError) -> (String, Vec<String>) {
    match e {
        CommandParseError::Sheet { file, problems } => (file, problems),
        e => panic!("not a sheet error: {e:?}"),
    }
}

#[test]
fn gm_add_sheet_brings_in_the_sheets_character_and_the_log_replays_without_the_file() {
    let mut t = table();
    let sheets = files(&[("x.toml", mira())]);
    let cmd = parse_with(&t, "gm", "add x.toml as Newcomer", &sheets).unwrap();
    assert_eq!(
        cmd,
        Command::Add {
            kind: "x.toml".into(),
            name: Some("Newcomer".into()),
            to: None,
            sheet: Some(mira()),
        }
    );
    let mut r = Seeded::from_seed(7);
    t.submit(&Seat::Gm, &cmd, &mut r).unwrap();
    let n = c(&t, "Newcomer");
    assert!(n.added && n.present && !n.removed);
    assert_eq!(n.controller, Seat::Gm);
    // The sheet's values: its character, pools full, its weapon in hand.
    let want = Character::from_toml(&mira()).unwrap();
    match &n.body {
        Body::Fated {
            character, pools, ..
        } => {
            assert_eq!(**character, want);
            assert_eq!(character.name(), "Mira");
            assert_eq!(character.trait_score(Trait::Mind), 3);
            assert_eq!(character.skill("Technology"), Some(3));
            assert_eq!(pools[2], 15, "MP = Mind x 5");
        }
        b => panic!("{b:?}"),
    }
    assert_eq!(n.wielding.len(), 1);
    assert_eq!(n.wielding[0].name, "Wrench");
    // Mid-Opposition it drew five and played its lowest as initiative.
    assert_eq!(n.hand.len(), 4);
    assert!(n.initiative.is_some());
    // The event names the sheet's character (the kind), not the file.
    let added = t
        .log()
        .entries()
        .iter()
        .find_map(|e| match &e.event {
            Event::Added { kind, combatant } => Some((kind.clone(), combatant.name.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(added, ("Mira".to_string(), "Newcomer".to_string()));
    // A replay of the log rebuilds the same state: no file is read.
    assert!(t.replay_matches());
    let replayed = Table::<Bastards>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(&replayed, t.state());
    // Guests are not written back to a campaign.
    let after: Vec<String> = tabula_bastards::advance::sheets_after(t.state())
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(after, ["A", "B"]);
}

#[test]
fn gm_add_sheet_takes_a_free_name_and_the_seat_given() {
    let mut t = table();
    let sheets = files(&[("sheets/mira.toml", mira())]);
    let mut r = Seeded::from_seed(2);
    for line in [
        "add sheets/mira.toml",
        "add sheets/mira.toml to b",
        "add SHEETS/MIRA.TOML",
    ] {
        let cmd = parse_with(&t, "gm", line, &sheets);
        if line.starts_with("add SHEETS") {
            // The file is named as typed: the upload's name is another.
            let (file, problems) = sheet_error(cmd.unwrap_err());
            assert_eq!(file, "SHEETS/MIRA.TOML");
            assert_eq!(problems.len(), 1);
            continue;
        }
        t.submit(&Seat::Gm, &cmd.unwrap(), &mut r).unwrap();
    }
    assert_eq!(c(&t, "Mira").controller, Seat::Gm);
    assert_eq!(c(&t, "Mira 2").controller, Seat::parse("b"));
    assert!(t.replay_matches());
}

#[test]
fn gm_add_sheet_from_a_player_is_refused_and_changes_nothing() {
    let mut t = table();
    let before = t.clone();
    let sheets = files(&[("x.toml", mira())]);
    let cmd = parse_with(&t, "a", "add x.toml as Newcomer", &sheets).unwrap();
    let e = t
        .submit(
            &Seat::parse("a"),
            &cmd,
            &mut Scripted::values(Vec::<String>::new()),
        )
        .unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(e.rule, GM_TOOLS);
    assert_eq!(t, before);
}

#[test]
fn gm_add_sheet_missing_or_broken_is_a_sheet_error_listing_each_problem() {
    let t = table();
    let before = t.clone();
    let sheets = files(&[("x.toml", mira()), ("broken.toml", broken())]);
    // Not sent: one problem, naming the file.
    let (file, problems) =
        sheet_error(parse_with(&t, "gm", "add y.toml as Newcomer", &sheets).unwrap_err());
    assert_eq!(file, "y.toml");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("y.toml"), "{problems:?}");
    // Two broken rules: both listed, each naming its field and rule.
    let (file, problems) =
        sheet_error(parse_with(&t, "gm", "add broken.toml", &sheets).unwrap_err());
    assert_eq!(file, "broken.toml");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("suit:") && p.contains("Suits")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("skills.Juggling:") && p.contains("Skills")),
        "{problems:?}"
    );
    // Not TOML at all: one problem.
    let garbled = files(&[("g.toml", "name = [".to_string())]);
    let (_, problems) = sheet_error(parse_with(&t, "gm", "add g.toml", &garbled).unwrap_err());
    assert_eq!(problems.len(), 1);
    assert_eq!(t, before);
}

#[test]
fn gm_add_sheet_sent_as_json_is_validated_again_by_decide() {
    let mut t = table();
    let before = t.clone();
    let cmd = Command::Add {
        kind: "broken.toml".into(),
        name: None,
        to: None,
        sheet: Some(broken()),
    };
    let e = t
        .submit(&Seat::Gm, &cmd, &mut Scripted::values(Vec::<String>::new()))
        .unwrap_err();
    assert_eq!(e.kind, Refusal::Forbidden);
    assert_eq!(e.rule, GM_TOOLS);
    assert!(
        e.message.contains("suit:") && e.message.contains("skills.Juggling:"),
        "{e}"
    );
    assert_eq!(t, before);
    // A JSON `add` without `sheet` still reads (the field is optional) and
    // one without a sheet writes no `sheet`.
    let json = r#"{"Add":{"kind":"Kodos","name":null,"to":null}}"#;
    let old: Command = serde_json::from_str(json).unwrap();
    assert!(matches!(&old, Command::Add { sheet: None, .. }));
    assert_eq!(serde_json::to_string(&old).unwrap(), json);
}

#[test]
fn gm_add_sheet_without_files_is_a_sheet_error_naming_the_file() {
    let t = table();
    let e = Bastards::parse_command(t.state(), &Seat::Gm, "add x.toml").unwrap_err();
    let (file, problems) = sheet_error(e);
    assert_eq!(file, "x.toml");
    assert!(problems[0].contains("x.toml"), "{problems:?}");
    let e = Bastards::parse_command_with(t.state(), &Seat::Gm, "add x.toml", &NoSheets);
    assert!(matches!(e, Err(CommandParseError::Sheet { .. })));
    // The reference says a file may stand for the kind.
    let doc = tabula_bastards::text::COMMANDS
        .iter()
        .find(|d| d.name == "add")
        .unwrap();
    assert_eq!(doc.usage, "add KIND|FILE.toml [as NAME] [to SEAT]");
}
