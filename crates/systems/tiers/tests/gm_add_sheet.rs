//! The GM's `add FILE.toml [as NAME] [at ZONE]` (issue 27, item 6: a
//! participant "from an uploaded sheet"): the sheet sent with the command is
//! read with the book's validating reader (`Character::from_toml`), checked
//! again when the command is decided, and its character joins exactly as a
//! copy of a known kind joins (`Event::Joined`, which carries the whole
//! character, so replaying the log needs no file).

mod common;

use std::collections::BTreeMap;

use common::{example_state, ok};
use tabula_core::files::{InMemoryFiles, NoSheets, SheetFiles};
use tabula_core::{
    CharacterBook, CommandParseError, Refusal, Scripted, Seat, System, Table, TextPlay,
};
use tabula_tiers::Tiers;
use tabula_tiers::character::{Character, Stat};
use tabula_tiers::command::Command;
use tabula_tiers::event::Event;
use tabula_tiers::rules;

/// "Leveling Up": Brawn, level 1 with +4 Strength (tier 2 open), a Warhammer.
const LEGAL: &str = include_str!("../../../../examples/tiers/level1-strength.toml");
/// A sheet that breaks several rules of "Character Creation" at once.
const BROKEN: &str = include_str!("../../../../examples/tiers/broken-character.toml");

fn files() -> InMemoryFiles {
    InMemoryFiles(BTreeMap::from([
        ("x.toml".to_string(), LEGAL.to_string()),
        ("broken.toml".to_string(), BROKEN.to_string()),
    ]))
}

fn in_combat() -> Table<Tiers> {
    let mut t = Table::new(example_state(false));
    ok(&mut t, "GM: fight", &[]);
    t
}

/// Parse `line` from `seat` with `sheets` and submit it (no dice).
fn give_with(
    t: &mut Table<Tiers>,
    seat: &Seat,
    line: &str,
    sheets: &dyn SheetFiles,
) -> Result<Vec<Event>, tabula_core::RuleError> {
    let cmd = Tiers::parse_command_with(t.state(), seat, line, sheets)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let before = t.clone();
    let out = t
        .submit(seat, &cmd, &mut Scripted::dice([]))
        .map(|entries| entries.iter().map(|e| e.event.clone()).collect());
    if out.is_err() {
        assert!(*t == before, "{line}: a refused command changed the table");
    }
    out
}

/// The GM's `add x.toml as Newcomer` is accepted: the newcomer is an NPC
/// ally with the sheet's values, the command carries the file's name and
/// text, and replaying the log (with no file) rebuilds the same table.
#[test]
fn gm_add_sheet_joins_with_the_sheets_values() {
    let mut t = in_combat();
    let sheet = Character::from_toml(LEGAL).unwrap();
    let cmd = Tiers::parse_command_with(
        t.state(),
        &Seat::Gm,
        "add x.toml as Newcomer at Yard",
        &files(),
    )
    .unwrap();
    assert_eq!(
        cmd,
        Command::Add {
            kind: "x.toml".into(),
            sheet: Some(LEGAL.into()),
            name: Some("Newcomer".into()),
            zone: Some("Yard".into()),
        }
    );

    let ev = give_with(
        &mut t,
        &Seat::Gm,
        "add x.toml as Newcomer at Yard",
        &files(),
    )
    .unwrap();
    let [Event::Joined { hero }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(hero.name(), "Newcomer");
    assert!(hero.ally && hero.joined && !hero.left);
    assert_eq!(hero.ap, 6);
    assert_eq!(hero.zone, t.state().zone("Yard").unwrap());
    let c = &hero.character;
    assert_eq!(c.level(), sheet.level());
    assert_eq!(c.total_sp(), 16);
    for s in Stat::ALL {
        assert_eq!(c.stat(s), sheet.stat(s), "{s:?}");
    }
    assert_eq!(c.stat(Stat::Strength).total(), 7);
    assert_eq!(c.items(), ["Warhammer"]);
    assert_eq!(hero.health, hero.max_health);
    let joined = t.state().hero("Newcomer").expect("at the table");
    assert_eq!(&t.state().heroes[joined], hero.as_ref());
    assert_eq!(
        t.state().psp,
        example_state(false).psp,
        "no part of the PSP"
    );
    assert!(
        Tiers::describe(t.state(), &ev[0]).starts_with("Newcomer joins the fight as an NPC ally"),
        "{}",
        Tiers::describe(t.state(), &ev[0])
    );

    // Without `as`, the sheet's own name; the same sheet again is "Brawn 2".
    give_with(&mut t, &Seat::Gm, "add x.toml", &files()).unwrap();
    give_with(&mut t, &Seat::Gm, "ADD x.toml", &files()).unwrap();
    let names: Vec<&str> = t.state().heroes.iter().map(|h| h.name()).collect();
    assert_eq!(names[3..], ["Newcomer", "Brawn", "Brawn 2"]);

    // A guest added mid-encounter is not written back to a campaign.
    let after: Vec<String> = Tiers::sheets_after(t.state())
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(after, ["John", "Cristy", "Steve"]);

    // The log needs no file: the event carries the whole character.
    assert!(t.replay_matches());
    let replayed = Table::<Tiers>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(&replayed, t.state());
}

/// A player's `add x.toml` is refused (`NotPermitted`) and changes nothing;
/// out of combat the GM's is refused too (`WrongPhase`).
#[test]
fn gm_add_sheet_is_the_gms_in_combat_only() {
    let mut t = Table::new(example_state(false));
    let e = give_with(&mut t, &Seat::Gm, "add x.toml", &files()).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
    ok(&mut t, "GM: fight", &[]);
    let e = give_with(
        &mut t,
        &Seat::Player("Cristy".into()),
        "add x.toml",
        &files(),
    )
    .unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(t.state().heroes.len(), 3);
}

/// A missing file and a broken sheet (several broken rules) are
/// `CommandParseError::Sheet` listing each problem; nothing changes. With
/// no sheets at all (`parse_command`), `add x.toml` names the file.
#[test]
fn gm_add_sheet_missing_or_broken_is_a_sheet_error() {
    let t = in_combat();
    let before = t.clone();

    let e = Tiers::parse_command_with(t.state(), &Seat::Gm, "add gone.toml", &files()).unwrap_err();
    let CommandParseError::Sheet { file, problems } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(file, "gone.toml");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("gone.toml"), "{problems:?}");

    let e = Tiers::parse_command_with(t.state(), &Seat::Gm, "add broken.toml as B", &files())
        .unwrap_err();
    let CommandParseError::Sheet { file, problems } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(file, "broken.toml");
    // Every broken rule of the file, each naming its field and rule.
    assert!(problems.len() >= 2, "{problems:?}");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("stats.skill tier 1") && p.contains("Starting Stats")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("stats.strength tier 2") && p.contains("R-TI-3")),
        "{problems:?}"
    );
    assert!(e.to_string().contains("broken.toml"), "{e}");

    // Text that is no character file at all: one problem naming the field.
    let junk = InMemoryFiles(BTreeMap::from([(
        "junk.toml".to_string(),
        "name = 3".to_string(),
    )]));
    let e = Tiers::parse_command_with(t.state(), &Seat::Gm, "add junk.toml", &junk).unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Sheet { problems, .. } if problems.len() == 1 && problems[0].contains("name")),
        "{e:?}"
    );

    for e in [
        Tiers::parse_command(t.state(), &Seat::Gm, "add x.toml").unwrap_err(),
        Tiers::parse_command_with(t.state(), &Seat::Gm, "add x.toml", &NoSheets).unwrap_err(),
    ] {
        let CommandParseError::Sheet { file, problems } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(file, "x.toml");
        assert!(problems[0].contains("x.toml"), "{problems:?}");
    }
    assert!(t == before);
}

/// A command sent as JSON cannot bypass the rules: `decide` reads the sheet
/// again, and refuses a broken one naming every rule; a file named without
/// its text is refused as such. A JSON `add` written before sheets (no
/// `sheet` field) still reads.
#[test]
fn gm_add_sheet_json_is_validated_again() {
    let t = in_combat();
    let broken = Command::Add {
        kind: "broken.toml".into(),
        sheet: Some(BROKEN.into()),
        name: None,
        zone: None,
    };
    let e = Tiers::decide(t.state(), &Seat::Gm, &broken, &mut Scripted::dice([])).unwrap_err();
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(
        e.message.contains("broken.toml")
            && e.message.contains("stats.skill tier 1")
            && e.message.contains("stats.strength tier 2"),
        "{}",
        e.message
    );

    let no_text = Command::Add {
        kind: "x.toml".into(),
        sheet: None,
        name: None,
        zone: None,
    };
    let e = Tiers::decide(t.state(), &Seat::Gm, &no_text, &mut Scripted::dice([])).unwrap_err();
    assert!(matches!(e.kind, Refusal::Unknown { .. }), "{e:?}");
    assert_eq!(e.rule, rules::GM_TOOLS);

    let old: Command =
        serde_json::from_str(r#"{"command":"add","kind":"John","name":"Jo"}"#).unwrap();
    assert_eq!(
        old,
        Command::Add {
            kind: "John".into(),
            sheet: None,
            name: Some("Jo".into()),
            zone: None,
        }
    );
    // A sheet's text round-trips through JSON.
    let with = Command::Add {
        kind: "x.toml".into(),
        sheet: Some(LEGAL.into()),
        name: None,
        zone: None,
    };
    let json = serde_json::to_string(&with).unwrap();
    assert_eq!(serde_json::from_str::<Command>(&json).unwrap(), with);
    assert!(Tiers::decide(t.state(), &Seat::Gm, &with, &mut Scripted::dice([])).is_ok());
}
