//! The GM's `add` and `remove` (issue 27, item 6): a character joins the
//! encounter from a bundled sheet or as a copy of one at the table, or a GM
//! character leaves it; every refusal changes nothing; the log replays
//! without files; the legal commands offer both; the policy plays on.

use std::path::PathBuf;

use tabula_core::policy::Policy;
use tabula_core::system::{ParamKind, Seat, System, Table, TextPlay};
use tabula_core::testkit;
use tabula_core::{CharacterBook, Refusal, RuleError, Scripted};
use tabula_sapio::event::Event;
use tabula_sapio::table::MAX_CHARACTERS;
use tabula_sapio::{Command, Sapio, State};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio")
}

fn table() -> Table<Sapio> {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Sapio::setup(&text, &dir).unwrap())
}

fn seat(s: &str) -> Seat {
    Seat::parse(s)
}

/// Give `line` as `who`, with Hits on every die; panics on a refusal.
fn ok(t: &mut Table<Sapio>, who: &str, line: &str) -> Vec<Event> {
    let s = seat(who);
    let cmd = Sapio::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&s, &cmd, &mut Scripted::values(["H"; 12]))
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .iter()
        .map(|l| l.event.clone())
        .collect()
}

/// Give `cmd` as `who`, expect a refusal, and check nothing changed.
fn refused_cmd(t: &mut Table<Sapio>, who: &str, cmd: &Command) -> RuleError {
    let s = seat(who);
    let before = t.state().clone();
    let n = t.log().len();
    let err = t
        .submit(&s, cmd, &mut Scripted::values(["H"; 12]))
        .expect_err("a refusal");
    assert_eq!(t.state(), &before, "{cmd:?} changed the state");
    assert_eq!(t.log().len(), n, "{cmd:?} was logged");
    err
}

/// Parse `line` as `who`, expect `decide` to refuse it, nothing changed.
fn refused(t: &mut Table<Sapio>, who: &str, line: &str) -> RuleError {
    let cmd =
        Sapio::parse_command(t.state(), &seat(who), line).unwrap_or_else(|e| panic!("{line}: {e}"));
    refused_cmd(t, who, &cmd)
}

fn legal(state: &State, who: &str) -> Vec<tabula_core::CommandSpec> {
    <Sapio as System>::legal_commands(state, &seat(who))
}

fn options<'a>(spec: &'a tabula_core::CommandSpec, param: &str) -> &'a [String] {
    match &spec
        .params
        .iter()
        .find(|p| p.name == param)
        .unwrap_or_else(|| panic!("{} has no {param}", spec.name))
        .kind
    {
        ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => options,
        other => panic!("{param} is {other:?}"),
    }
}

fn names_on_sheets(state: &State) -> Vec<String> {
    Sapio::sheet_doc(state, &Seat::Gm)
        .characters
        .iter()
        .map(|c| c.name.clone())
        .collect()
}

/// A bundled sheet joins as the GM's, named "Vance 2" next to Vance, with
/// the whole sheet in its event; it is on every sheet document and acts: the
/// GM calls a check for it and builds its pool; it joins an Action Sequence
/// as any character does, threatened at a round's start.
#[test]
fn a_bundled_sheet_joins_and_acts() {
    let mut t = table();
    let ev = ok(&mut t, "GM", "add enforcer");
    let [Event::Added { newcomer }] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(newcomer.name(), "Vance 2");
    assert_eq!(newcomer.player(), None);
    assert_eq!(newcomer.sheet().profession.name, "Gang Enforcer");
    assert_eq!(
        Sapio::describe(t.state(), &ev[0]),
        "The GM adds Vance 2 to the encounter (a GM character)"
    );
    assert_eq!(t.state().characters.len(), 5);
    assert!(names_on_sheets(t.state()).contains(&"Vance 2".to_string()));
    assert_eq!(t.state().find("vance 2"), Some(4));

    ok(&mut t, "GM", r#"check "Vance 2" 2"#);
    ok(&mut t, "GM", r#"invoke "Gang Enforcer" full"#);
    let ev = ok(&mut t, "GM", "roll");
    assert!(matches!(&ev[0], Event::Rolled { check, .. } if check.focal == 4));

    ok(&mut t, "GM", "begin-sequence Hold the roof");
    ok(&mut t, "GM", r#"threaten "Vance 2""#);
    assert!(
        t.state()
            .sequence
            .as_ref()
            .unwrap()
            .participants
            .iter()
            .any(|p| p.character == 4 && p.threatened)
    );
    testkit::assert_replay_rebuilds(&t);
}

/// `as NAME` names it, `to SEAT` gives it to a player, who then acts for it
/// (and only for it among the newcomers); a second copy of a name gets
/// "NAME 2", then "NAME 3".
#[test]
fn as_names_it_and_to_gives_it_to_a_player_seat() {
    let mut t = table();
    let ev = ok(&mut t, "GM", r#"add roof-runner as "Kit Ashby" to ana"#);
    assert_eq!(
        Sapio::describe(t.state(), &ev[0]),
        "The GM adds Kit Ashby to the encounter (played by Ana)"
    );
    let kit = t.state().find("Kit Ashby").unwrap();
    assert_eq!(t.state().characters[kit].character.player(), Some("Ana"));
    ok(&mut t, "GM", r#"check "Kit Ashby" 2"#);
    ok(&mut t, "Ana", r#"invoke "Roof Runner" full"#);
    refused(&mut t, "Ben", r#"invoke Leaping"#);
    ok(&mut t, "Ana", "roll");
    let doc = Sapio::sheet_doc(t.state(), &seat("Ana"));
    let sheet = doc
        .characters
        .iter()
        .find(|c| c.name == "Kit Ashby")
        .unwrap();
    assert!(sheet.mine);

    ok(&mut t, "GM", "add Kit as Wren");
    ok(&mut t, "GM", "add Wren");
    let names = t.state().names();
    assert!(
        names.ends_with(&["Wren 2".to_string(), "Wren 3".to_string()]),
        "{names:?}"
    );
    // The copies are the GM's unless given `to` a seat.
    assert_eq!(t.state().characters[6].character.player(), None);
    assert_eq!(
        Sapio::parse_command(t.state(), &Seat::Gm, "add enforcer to GM").unwrap(),
        Command::Add {
            kind: "enforcer".into(),
            name: None,
            to: Some("GM".into()),
            sheet: None,
        }
    );
    assert_eq!(
        Sapio::parse_command(t.state(), &Seat::Gm, "add enf to c as Big Guy").unwrap(),
        Command::Add {
            kind: "enforcer".into(),
            name: Some("Big Guy".into()),
            to: Some("Cy".into()),
            sheet: None,
        }
    );
    testkit::assert_replay_rebuilds(&t);
}

/// A copy of a character at the table joins fresh: Injury and Stress tracks
/// clear, alive, nothing invoked; its Luck and elements are the character's.
#[test]
fn a_copy_of_a_table_character_joins_with_fresh_tracks() {
    let mut t = table();
    ok(&mut t, "GM", "injury Vance severe Gut wound");
    ok(&mut t, "GM", "stress Vance minor Rattled");
    ok(&mut t, "GM", "give-luck Vance 2");
    let ev = ok(&mut t, "GM", "add Vance as Goon");
    let Event::Added { newcomer } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert!(newcomer.injuries().entries().is_empty());
    assert!(newcomer.stresses().entries().is_empty());
    assert!(!newcomer.dead());
    assert_eq!(newcomer.luck(), t.state().characters[3].character.luck());
    assert_eq!(
        newcomer.elements(),
        t.state().characters[3].character.elements()
    );
    // The original keeps its harm.
    assert_eq!(
        t.state().characters[3].character.injuries().entries().len(),
        1
    );
}

/// The event carries the whole sheet: a log replayed from the initial state
/// alone (no file) rebuilds the same table, newcomers and removals included.
#[test]
fn replaying_the_log_rebuilds_added_and_removed_characters() {
    let mut t = table();
    ok(&mut t, "GM", "add desert-commando as Dune");
    ok(&mut t, "GM", "add Vance");
    ok(&mut t, "GM", "remove Vance");
    ok(&mut t, "GM", "injury Dune minor Graze");
    testkit::assert_replay_rebuilds(&t);
    // The events as stored (JSON), evolved from the initial state alone.
    let mut rebuilt = t.initial().clone();
    for row in t.log().entries() {
        let json = serde_json::to_string(&row.event).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(back, row.event);
        Sapio::evolve(&mut rebuilt, &back);
    }
    assert_eq!(&rebuilt, t.state());
    assert_eq!(rebuilt.find("Dune"), Some(4));
}

/// `remove`: the GM's character leaves; no list, name or sheet offers it any
/// more, commands naming it are refused, its index stays (the log still
/// names it), and the sheets the encounter leaves still hold it.
#[test]
fn remove_takes_a_gm_character_out_of_the_encounter() {
    let mut t = table();
    ok(&mut t, "GM", "injury Vance minor Cut");
    let ev = ok(&mut t, "GM", "remove Vance");
    assert_eq!(ev, vec![Event::Removed { character: 3 }]);
    assert_eq!(
        Sapio::describe(t.state(), &ev[0]),
        "The GM removes Vance from the encounter"
    );
    assert!(t.state().characters[3].removed);
    assert_eq!(t.state().names(), ["Wren", "Brannoc", "Sable"]);
    assert!(!names_on_sheets(t.state()).contains(&"Vance".to_string()));
    assert!(Sapio::parse_command(t.state(), &Seat::Gm, "check Vance 2").is_err());
    assert!(Sapio::sheet(t.state(), &Seat::Gm, Some("Vance")).is_err());
    let e = refused_cmd(
        &mut t,
        "GM",
        &Command::Check {
            character: 3,
            tn: 2,
            ongoing: false,
        },
    );
    assert!(matches!(e.kind, Refusal::Unknown { .. }), "{e:?}");
    for c in legal(t.state(), "GM") {
        for p in &c.params {
            if let ParamKind::Choice { options } = &p.kind
                && p.name != "kind"
            {
                assert!(
                    !options.contains(&"Vance".to_string()),
                    "{}: {options:?}",
                    c.name
                );
            }
        }
    }
    // The sheets the encounter leaves keep Vance's Cut.
    let after = <Sapio as CharacterBook>::sheets_after(t.state());
    let vance = after.iter().find(|s| s.name == "Vance").unwrap();
    assert!(vance.sheet.contains("Cut"), "{}", vance.sheet);
    // A copy of a removed character may come back, under a new name.
    ok(&mut t, "GM", "add Vance");
    assert_eq!(t.state().names().last().unwrap(), "Vance 2");
    // A guest is not the campaign's: no sheet goes back for Vance 2.
    let after = <Sapio as CharacterBook>::sheets_after(t.state());
    assert!(!after.iter().any(|s| s.name == "Vance 2"), "{after:?}");
    testkit::assert_replay_rebuilds(&t);
}

/// A participant removed between turns leaves the Action Sequence; when every
/// participant left has been focal, the round ends then.
#[test]
fn removing_the_last_participant_not_yet_focal_ends_the_round() {
    let mut t = table();
    ok(&mut t, "GM", "begin-sequence Chase");
    ok(&mut t, "GM", "threaten Wren");
    ok(&mut t, "GM", "threaten Vance");
    ok(&mut t, "GM", "frame Across the roofs");
    ok(&mut t, "Ana", "focal Wren");
    ok(&mut t, "GM", "tn 1");
    ok(&mut t, "Ana", "roll");
    let ev = ok(&mut t, "GM", "remove Vance");
    assert_eq!(
        ev,
        vec![
            Event::Removed { character: 3 },
            Event::RoundEnded { round: 1 }
        ]
    );
    let s = t.state().sequence.as_ref().unwrap();
    assert_eq!(s.round, 2);
    assert!(s.participants.iter().all(|p| p.character != 3));
    testkit::assert_replay_rebuilds(&t);
}

/// Every refusal names its rule and kind and changes nothing: a player seat,
/// a player's character, an unknown or removed character, an open check, a
/// framed turn, a fighter, the last character, an unknown kind or seat, a
/// full table, a name the sheet rules refuse, an encounter over.
#[test]
fn each_refusal_changes_nothing() {
    let mut t = table();
    let e = refused(&mut t, "Ana", "remove Vance");
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(e.rule, tabula_sapio::rules::RULE_GM_TOOLS);
    let e = refused(&mut t, "Ana", "add enforcer");
    assert_eq!(e.kind, Refusal::NotPermitted);
    let e = refused(&mut t, "GM", "remove Wren");
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(e.message.contains("Ana's character"), "{e}");
    let e = refused_cmd(&mut t, "GM", &Command::Remove { character: 9 });
    assert!(matches!(e.kind, Refusal::Unknown { .. }));
    let e = refused_cmd(
        &mut t,
        "GM",
        &Command::Add {
            kind: "dragon".into(),
            name: None,
            to: None,
            sheet: None,
        },
    );
    assert!(
        matches!(&e.kind, Refusal::Unknown { field, .. } if field == "kind"),
        "{e:?}"
    );
    assert!(e.message.contains("roof-runner"), "{e}");
    assert!(Sapio::parse_command(t.state(), &Seat::Gm, "add dragon").is_err());
    let e = refused_cmd(
        &mut t,
        "GM",
        &Command::Add {
            kind: "enforcer".into(),
            name: None,
            to: Some("Zed".into()),
            sheet: None,
        },
    );
    assert!(
        matches!(&e.kind, Refusal::Unknown { field, .. } if field == "seat"),
        "{e:?}"
    );
    assert!(Sapio::parse_command(t.state(), &Seat::Gm, "add enforcer to Zed").is_err());
    let long = "x".repeat(200);
    let e = refused_cmd(
        &mut t,
        "GM",
        &Command::Add {
            kind: "enforcer".into(),
            name: Some(long),
            to: None,
            sheet: None,
        },
    );
    assert_eq!(e.kind, Refusal::Forbidden, "{e:?}");

    // Not while a check is built (the focal character is mid-roll).
    ok(&mut t, "GM", "check Vance 2");
    let e = refused(&mut t, "GM", "remove Vance");
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert!(!legal(t.state(), "GM").iter().any(|c| c.name == "remove"));
    ok(&mut t, "GM", "tn 1");
    ok(&mut t, "GM", "roll");

    // Not while a framed turn waits for its focal character.
    ok(&mut t, "GM", "begin-sequence Chase");
    ok(&mut t, "GM", "threaten Vance");
    ok(&mut t, "GM", "frame Go");
    let e = refused(&mut t, "GM", "remove Vance");
    assert_eq!(e.kind, Refusal::WrongPhase);
    ok(&mut t, "GM", "focal Vance");
    ok(&mut t, "GM", "tn 1");
    ok(&mut t, "GM", "roll");
    ok(&mut t, "GM", "end-sequence");

    // Not a fighter while the fight goes on.
    ok(&mut t, "GM", "fight Vance Wren");
    let e = refused(&mut t, "GM", "remove Vance");
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(!legal(t.state(), "GM").iter().any(|c| c.name == "remove"));
    ok(&mut t, "GM", "end-sequence");

    // Not once removed.
    ok(&mut t, "GM", "remove Vance");
    let e = refused_cmd(&mut t, "GM", &Command::Remove { character: 3 });
    assert!(matches!(e.kind, Refusal::Unknown { .. }));

    // Not after the end.
    ok(&mut t, "GM", "end carry");
    refused(&mut t, "GM", "add enforcer");
    assert!(legal(t.state(), "GM").is_empty());
}

/// The last character present stays; a full table takes no newcomer.
#[test]
fn the_last_character_stays_and_a_full_table_takes_no_more() {
    let dir = examples();
    let text = "[[characters]]\nfile = \"enforcer.toml\"\n";
    let mut t: Table<Sapio> = Table::new(Sapio::setup(text, &dir).unwrap());
    let e = refused(&mut t, "GM", "remove Vance");
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(e.message.contains("last character"), "{e}");
    assert!(!legal(t.state(), "GM").iter().any(|c| c.name == "remove"));
    ok(&mut t, "GM", "add enforcer");
    ok(&mut t, "GM", "remove Vance");
    let e = refused(&mut t, "GM", r#"remove "Vance 2""#);
    assert_eq!(e.kind, Refusal::Forbidden);

    let mut t = table();
    while t.state().characters.len() < MAX_CHARACTERS {
        ok(&mut t, "GM", "add enforcer");
    }
    assert_eq!(t.state().names().last().unwrap(), "Vance 21");
    let e = refused(&mut t, "GM", "add enforcer");
    assert!(
        matches!(
            e.kind,
            Refusal::OutOfRange {
                max: 24,
                got: 25,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(!legal(t.state(), "GM").iter().any(|c| c.name == "add"));
    testkit::assert_replay_rebuilds(&t);
}

/// The GM's legal commands offer `add` (every kind, `as name`, `to seat`)
/// and `remove` (the GM's characters present) as choices the page spells,
/// and every option parses; the players are offered neither.
#[test]
fn the_legal_commands_offer_add_and_remove_as_choices() {
    let t = table();
    let gm = legal(t.state(), "GM");
    let add = gm.iter().find(|c| c.name == "add").unwrap();
    assert_eq!(
        add.params
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["kind", "as name", "to seat"]
    );
    assert_eq!(
        options(add, "kind"),
        [
            "arcane-knight",
            "desert-commando",
            "enforcer",
            "roof-runner",
            "Wren",
            "Brannoc",
            "Sable",
            "Vance"
        ]
    );
    assert_eq!(options(add, "to seat"), ["Ana", "Ben", "Cy"]);
    let remove = gm.iter().find(|c| c.name == "remove").unwrap();
    assert_eq!(options(remove, "character"), ["Vance"]);
    for kind in options(add, "kind") {
        for line in [
            format!("add \"{kind}\""),
            format!("add \"{kind}\" as \"New One\" to Ben"),
        ] {
            let cmd = Sapio::parse_command(t.state(), &Seat::Gm, &line).unwrap();
            let mut probe = t.state().clone();
            for e in Sapio::decide(t.state(), &Seat::Gm, &cmd, &mut Scripted::default()).unwrap() {
                Sapio::evolve(&mut probe, &e);
            }
            assert_eq!(probe.characters.len(), 5, "{line}");
        }
    }
    for who in ["Ana", "Ben", "Cy"] {
        assert!(
            !legal(t.state(), who)
                .iter()
                .any(|c| c.name == "add" || c.name == "remove")
        );
    }
    // In the reference and the parser's usage.
    for name in ["add", "remove"] {
        assert!(tabula_core::system::find_command(Sapio::COMMANDS, name).is_some());
    }
    let e = Sapio::parse_command(t.state(), &Seat::Gm, "add").unwrap_err();
    assert!(
        e.to_string()
            .contains("add KIND...|FILE.toml [as NAME...] [to SEAT...]"),
        "{e}"
    );
}

/// The policy plays a table the GM changed (a newcomer added, the NPC
/// removed, then another added) to its end: every awaited step gets a
/// suggestion `decide` accepts.
#[test]
fn the_policy_plays_on_after_add_and_remove() {
    for seed in 0..40u64 {
        let mut t = table();
        ok(&mut t, "GM", "add enforcer as Brute");
        ok(&mut t, "GM", "remove Vance");
        ok(&mut t, "GM", "add arcane-knight as Hexer");
        testkit::play_policy(&mut t, seed, 3000, |_, _| {});
        let state = t.state();
        let report = Sapio::report(state);
        assert!(report.participants.iter().all(|p| p.name != "Vance"));
        assert!(report.participants.iter().any(|p| p.name == "Hexer"));
    }
}
