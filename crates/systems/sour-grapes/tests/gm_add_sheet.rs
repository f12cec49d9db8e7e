//! The storyteller's `add FILE.toml [as NAME] [to SEAT]` (issue 27, item 6:
//! add a participant "from an uploaded sheet"): the line reads the sheet from
//! the files sent with it and checks it with the book's own reader (the one
//! `character validate` and the table file's `file = "..."` use); the command
//! carries the sheet's text and `decide` checks it again; the `joined` event
//! carries the whole character, so the log replays without the file.

mod common;
use common::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use tabula_core::files::{InMemoryFiles, NoSheets};
use tabula_core::{CommandParseError, Refusal, Scripted, Seat, Table, TextPlay};
use tabula_sour_grapes::command::Command;
use tabula_sour_grapes::event::Event;
use tabula_sour_grapes::{SourGrapes, Stat, gm};

/// The example table's Rook sheet (`examples/sour-grapes/rook.toml`), called
/// Mira, with Perception 9 and a card list, so the newcomer's values are the
/// sheet's and not a copy of the Rook at the table.
fn mira() -> String {
    let rook = std::fs::read_to_string(examples().join("rook.toml")).unwrap();
    let text = rook
        .replace(
            "name = \"Rook\"",
            "name = \"Mira\"\ncards = [\"Attack\", \"Dodge\"]",
        )
        .replace("perception = 7", "perception = 9");
    assert_ne!(text, rook);
    text
}

fn files(pairs: &[(&str, &str)]) -> InMemoryFiles {
    InMemoryFiles(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
    )
}

fn parse(
    t: &Table<SourGrapes>,
    seat: &Seat,
    line: &str,
    sheets: &InMemoryFiles,
) -> Result<Command, CommandParseError> {
    SourGrapes::parse_command_with(t.state(), seat, line, sheets)
}

/// The `Sheet` error's file and problems.
fn sheet_error(e: CommandParseError) -> (String, Vec<String>) {
    match e {
        CommandParseError::Sheet { file, problems } => (file, problems),
        other => panic!("not a Sheet error: {other}"),
    }
}

#[test]
fn gm_add_sheet_joins_with_the_sheets_values_and_replays_without_the_file() {
    let mut t = example_table();
    let sheets = files(&[("x.toml", &mira())]);
    let before = t.state().participants.len();
    let cmd = parse(&t, &Seat::Gm, "add x.toml as Newcomer", &sheets).unwrap();
    assert!(
        matches!(&cmd, Command::Add { kind, sheet: Some(_), name: Some(n), .. } if kind == "x.toml" && n == "Newcomer")
    );
    t.submit(&Seat::Gm, &cmd, &mut Scripted::default()).unwrap();
    let s = t.state();
    assert_eq!(s.participants.len(), before + 1);
    let p = s.participant("Newcomer").expect("the newcomer");
    assert_eq!(p.seat, Seat::Gm);
    let perception = p.character.stat(Stat::Perception);
    assert_eq!((perception.actual, perception.current), (9, 9));
    assert_eq!(p.character.stat(Stat::Agility).actual, 5);
    assert_eq!(p.character.skill("Ninjitsu").map(|k| k.rating), Some(2));
    assert_eq!(p.cards, vec!["Attack".to_string(), "Dodge".to_string()]);
    // A guest: not written back to a campaign.
    assert!(s.added.contains(&"Newcomer".to_string()));
    let after = <SourGrapes as tabula_core::CharacterBook>::sheets_after(s);
    assert!(!after.iter().any(|c| c.name == "Newcomer"), "{after:?}");
    // The event names the file and carries the whole character.
    let last = t.log().entries().last().unwrap().event.clone();
    assert!(
        matches!(&last, Event::Joined { sheet: Some(f), participant, .. } if f == "x.toml" && participant.character.name() == "Newcomer")
    );
    assert_eq!(
        SourGrapes::describe(t.state(), &last),
        "The storyteller brings Newcomer into the encounter from the sheet x.toml (the storyteller's; cards: Attack, Dodge)."
    );
    // Replay: the log's events, through JSON, rebuild the same state; no file.
    let json = serde_json::to_string(t.log()).unwrap();
    let log = serde_json::from_str(&json).unwrap();
    let replayed = Table::<SourGrapes>::replay(t.initial(), &log, t.log().len());
    assert_eq!(&replayed, t.state());
    assert!(t.replay_matches());
    // The command, as JSON, still carries the sheet; an older command without
    // `sheet` still reads.
    let c: Command = serde_json::from_str(&serde_json::to_string(&cmd).unwrap()).unwrap();
    assert_eq!(c, cmd);
    let old: Command =
        serde_json::from_str(r#"{"command":"add","kind":"Rook","name":null,"seat":null}"#).unwrap();
    assert!(matches!(old, Command::Add { sheet: None, .. }));
}

#[test]
fn gm_add_sheet_takes_the_sheets_name_the_naming_rule_and_a_seat() {
    let mut t = example_table();
    let rook = std::fs::read_to_string(examples().join("rook.toml")).unwrap();
    let sheets = files(&[("sheets/rook.toml", &rook), ("m.TOML", &mira())]);
    // No `as`: the sheet's character name; taken at this table: " 2".
    let cmd = parse(&t, &Seat::Gm, "add sheets/rook.toml", &sheets).unwrap();
    t.submit(&Seat::Gm, &cmd, &mut Scripted::default()).unwrap();
    assert!(t.state().participant("Rook 2").is_some());
    // `to SEAT`: a seat of the table, any case.
    let cmd = parse(&t, &Seat::Gm, "add m.TOML to ana", &sheets).unwrap();
    t.submit(&Seat::Gm, &cmd, &mut Scripted::default()).unwrap();
    assert_eq!(
        t.state().participant("Mira").unwrap().seat,
        Seat::parse("Ana")
    );
    assert!(t.replay_matches());
}

#[test]
fn gm_add_sheet_is_the_storytellers_only() {
    let mut t = example_table();
    let sheets = files(&[("x.toml", &mira())]);
    let sam = Seat::parse("Sam");
    let cmd = parse(&t, &sam, "add x.toml as Newcomer", &sheets).unwrap();
    let before = t.clone();
    let e = t
        .submit(&sam, &cmd, &mut Scripted::default())
        .expect_err("refused");
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(e.rule, gm::GM_TOOLS);
    assert!(t == before, "a refusal changed the table");
}

#[test]
fn gm_add_sheet_missing_or_broken_is_a_sheet_error_listing_each_rule() {
    let t = example_table();
    let before = t.clone();
    // Not sent.
    let (file, problems) =
        sheet_error(parse(&t, &Seat::Gm, "add y.toml as Newcomer", &files(&[])).unwrap_err());
    assert_eq!(file, "y.toml");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("y.toml"), "{problems:?}");
    // Two broken rules: an Actual Stat Value of 11 and a skill rated 7.
    let broken = mira()
        .replace("agility = 5", "agility = 11")
        .replace("rating = 1", "rating = 7");
    let sheets = files(&[("bad.toml", &broken)]);
    let (file, problems) =
        sheet_error(parse(&t, &Seat::Gm, "add bad.toml as Newcomer", &sheets).unwrap_err());
    assert_eq!(file, "bad.toml");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("stats.Agility") && problems[0].contains("Stats"));
    assert!(problems[1].contains("rating") && problems[1].contains("Skills"));
    // Not TOML at all: one problem.
    let sheets = files(&[("b.toml", "name = \"Visitor\"\nthis is not toml =")]);
    let (_, problems) = sheet_error(parse(&t, &Seat::Gm, "add b.toml", &sheets).unwrap_err());
    assert_eq!(problems.len(), 1, "{problems:?}");
    // A card neither the table nor the book has, and an effect card.
    let cards = mira().replace(
        "cards = [\"Attack\", \"Dodge\"]",
        "cards = [\"Attack\", \"Moonbeam\", \"Intoxicated\"]",
    );
    let sheets = files(&[("c.toml", &cards)]);
    let (_, problems) = sheet_error(parse(&t, &Seat::Gm, "add c.toml", &sheets).unwrap_err());
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("Moonbeam"), "{problems:?}");
    assert!(
        problems[1].contains("Intoxicated is an effect"),
        "{problems:?}"
    );
    // The error names the file.
    let e = parse(
        &t,
        &Seat::Gm,
        "add bad.toml",
        &files(&[("bad.toml", &broken)]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("bad.toml"), "{e}");
    assert!(t == before);
}

#[test]
fn gm_add_sheet_sent_as_json_is_checked_again_by_decide() {
    let mut t = example_table();
    let before = t.clone();
    let broken = mira()
        .replace("agility = 5", "agility = 11")
        .replace("rating = 1", "rating = 7");
    let cmd = Command::Add {
        kind: "bad.toml".into(),
        name: None,
        seat: None,
        sheet: Some(broken),
    };
    let e = t
        .submit(&Seat::Gm, &cmd, &mut Scripted::default())
        .expect_err("refused");
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(e.message.contains("bad.toml"), "{e}");
    assert!(e.message.contains("stats.Agility"), "{e}");
    assert!(e.message.contains("rating"), "{e}");
    assert!(t == before, "a refusal changed the table");
}

#[test]
fn gm_add_sheet_without_files_names_the_file() {
    let t = example_table();
    for e in [
        SourGrapes::parse_command(t.state(), &Seat::Gm, "add x.toml").unwrap_err(),
        SourGrapes::parse_command_with(t.state(), &Seat::Gm, "add x.toml", &NoSheets).unwrap_err(),
    ] {
        let (file, problems) = sheet_error(e);
        assert_eq!(file, "x.toml");
        assert_eq!(problems, vec!["x.toml: no such file".to_string()]);
    }
    // A kind still reads as before.
    assert!(SourGrapes::parse_command(t.state(), &Seat::Gm, "add rook").is_ok());
}

#[test]
fn gm_add_sheet_usage_says_kind_or_file() {
    let add = SourGrapes::COMMANDS
        .iter()
        .find(|c| c.name == "add")
        .unwrap();
    for part in ["add KIND...|FILE.toml", "[as NAME...]", "[to SEAT...]"] {
        assert!(add.usage.contains(part), "{}", add.usage);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any Agility and skill rating: the sheet joins with exactly those
    /// values when both are legal ("Stats": 1-10; "Skills": 1-5), else the
    /// line is a Sheet error with one problem per broken rule, and the table
    /// is unchanged.
    #[test]
    fn gm_add_sheet_joins_exactly_when_legal(agility in 0i64..=12, rating in 0i64..=7) {
        let mut t = example_table();
        let text = mira()
            .replace("agility = 5", &format!("agility = {agility}"))
            .replace("rating = 1", &format!("rating = {rating}"));
        let sheets = files(&[("p.toml", &text)]);
        let broken = usize::from(!(1..=10).contains(&agility)) + usize::from(!(1..=5).contains(&rating));
        let before = t.clone();
        match parse(&t, &Seat::Gm, "add p.toml as Probe", &sheets) {
            Ok(cmd) => {
                prop_assert_eq!(broken, 0);
                t.submit(&Seat::Gm, &cmd, &mut Scripted::default()).unwrap();
                let p = t.state().participant("Probe").unwrap();
                prop_assert_eq!(i64::from(p.character.stat(Stat::Agility).actual), agility);
                prop_assert_eq!(p.character.skill("Athletics").map(|k| i64::from(k.rating)), Some(rating));
                prop_assert!(t.replay_matches());
            }
            Err(e) => {
                let (_, problems) = sheet_error(e);
                prop_assert_eq!(problems.len(), broken, "{:?}", problems);
                prop_assert!(t == before);
            }
        }
    }
}
