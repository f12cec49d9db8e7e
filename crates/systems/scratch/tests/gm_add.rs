//! The GM's `add` (issue 27, item 6): a character joins the encounter
//! mid-way, from the table's own characters or the book's bundled sheets,
//! legal under the table's rules (R-SCR-7), at full hit points, in an
//! initiative group ("Turns"); refusals change nothing and replay rebuilds
//! the same state without files.

use std::path::PathBuf;
use tabula_core::testkit;

use tabula_core::{
    CommandParseError, ParamKind, Refusal, RuleError, Scripted, Seat, System, Table, TextPlay,
};
use tabula_scratch::{Command, Event, Phase, Scratch, rules};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn table(file: &str) -> Table<Scratch> {
    let text = std::fs::read_to_string(dir().join(file)).unwrap();
    Table::new(Scratch::setup(&text, &dir()).unwrap())
}

/// The example table after initiative: alice 1, bob 2, gm 20, so the GM's
/// group goes first.
fn in_turns() -> Table<Scratch> {
    let mut t = table("table.toml");
    gm(&mut t, "initiative", &[1, 2, 20]).unwrap();
    t
}

fn parse(t: &Table<Scratch>, seat: &str, line: &str) -> Result<Command, CommandParseError> {
    Scratch::parse_command(t.state(), &Seat::parse(seat), line)
}

fn submit(t: &mut Table<Scratch>, seat: &str, line: &str, dice: &[u32]) -> Result<(), RuleError> {
    let cmd = parse(t, seat, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(
        &Seat::parse(seat),
        &cmd,
        &mut Scripted::dice(dice.iter().copied()),
    )
    .map(|_| ())
}

fn gm(t: &mut Table<Scratch>, line: &str, dice: &[u32]) -> Result<(), RuleError> {
    submit(t, "gm", line, dice)
}

fn names(t: &Table<Scratch>) -> Vec<String> {
    t.state()
        .characters
        .iter()
        .map(|c| c.character.name().to_string())
        .collect()
}

fn kinds_offered(t: &Table<Scratch>, seat: &Seat) -> Option<Vec<String>> {
    let spec = Scratch::legal_commands(t.state(), seat)
        .into_iter()
        .find(|c| c.name == "add")?;
    match &spec.params[0].kind {
        ParamKind::ChoiceOrSheet { options } => Some(options.clone()),
        other => panic!("{other:?}"),
    }
}

/// A thug joins the GM's group at full hit points, shows on every seat's
/// sheets, takes a turn in the GM's group's turn and acts.
#[test]
fn an_added_character_is_on_the_sheets_gets_a_turn_and_acts() {
    let mut t = in_turns();
    let before = t.state().characters.len();
    gm(&mut t, "add thug", &[]).unwrap();
    let s = t.state();
    assert_eq!(s.characters.len(), before + 1);
    let i = s.find("thug").unwrap();
    let c = &s.characters[i];
    assert_eq!(c.character.name(), "Thug");
    assert_eq!(c.id, "thug");
    assert_eq!(c.hit_points, 2, "full hit points: toughness 2");
    assert_eq!(s.seat_of(i), Some(&Seat::Gm));
    assert_eq!(s.side_of(i), Some("villains"));
    let g = c.group;
    assert!(s.groups[g].members.contains(&i));
    for seat in ["gm", "alice", "bob"] {
        let doc = Scratch::sheet_doc(s, &Seat::parse(seat));
        assert!(
            doc.characters.iter().any(|c| c.name == "Thug"),
            "{seat} sees the newcomer"
        );
    }
    // The GM's group's turn is on: the newcomer may act now.
    assert!(
        Scratch::legal_commands(s, &Seat::Gm)
            .iter()
            .any(|c| c.name == "thug attack")
    );
    let hp = s.characters[s.find("chokestar").unwrap()].hit_points;
    // 20: automatic, 1 + 1 damage.
    gm(&mut t, "thug attack chokestar", &[20]).unwrap();
    let s = t.state();
    assert_eq!(s.characters[i].turns, 1, "the newcomer had its turn");
    assert_eq!(
        s.characters[s.find("chokestar").unwrap()].hit_points,
        hp - 2
    );
    testkit::assert_replay_rebuilds(&t);
}

/// A name in use gets "NAME 2", "NAME 3"; `as NAME` names the newcomer;
/// The Boss brings his two thugs, renamed the same way.
#[test]
fn names_in_use_get_a_number_and_minions_come_along() {
    let mut t = in_turns();
    gm(&mut t, "add thug", &[]).unwrap();
    // "Thug 2" is The Boss's minion: the next free one is "Thug 3".
    gm(&mut t, "add Thug", &[]).unwrap();
    assert!(names(&t).contains(&"Thug 3".to_string()), "{:?}", names(&t));
    assert!(t.state().find("thug-3").is_some());
    gm(&mut t, r#"add "the boss" as "Big Boss""#, &[]).unwrap();
    let s = t.state();
    let boss = s.find("big-boss").unwrap();
    assert_eq!(s.characters[boss].character.name(), "Big Boss");
    let minions: Vec<&str> = s
        .characters
        .iter()
        .filter(|c| c.leader == Some(boss))
        .map(|c| c.character.name())
        .collect();
    assert_eq!(minions, ["Thug 1 2", "Thug 2 2"]);
    // A second one of the same name; names of several words unquoted.
    gm(&mut t, "add The Boss to GM", &[]).unwrap();
    assert!(
        names(&t).contains(&"The Boss 2".to_string()),
        "{:?}",
        names(&t)
    );
    // Every id is unique.
    let ids: std::collections::BTreeSet<&str> =
        t.state().characters.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), t.state().characters.len());
    testkit::assert_replay_rebuilds(&t);
}

/// `to SEAT` puts the newcomer in that seat's group, on its side, with a turn
/// when that group's turn comes.
#[test]
fn to_seat_joins_that_group_and_its_side() {
    let mut t = in_turns();
    gm(&mut t, "add flipfire as Medic to bob", &[]).unwrap();
    let s = t.state();
    let i = s.find("medic").unwrap();
    assert_eq!(s.seat_of(i), Some(&Seat::parse("bob")));
    assert_eq!(s.side_of(i), Some("heroes"));
    assert!(s.may_start_turn(i));
    // bob may not act with it now: the GM's group's turn.
    assert!(submit(&mut t, "bob", "medic end", &[]).is_err());
    let e = parse(&t, "gm", "add thug to nobody").unwrap_err();
    assert!(e.to_string().contains("alice"), "{e}");
}

/// A player, an unknown kind, a sheet the table's rules refuse, a name that
/// is a command word, before initiative and after the end: refused, nothing
/// changes.
#[test]
fn refusals_change_nothing() {
    // Before initiative.
    let mut t = table("table.toml");
    let before = t.clone();
    let e = gm(&mut t, "add thug", &[]).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert_eq!(t, before);
    assert!(kinds_offered(&t, &Seat::Gm).is_none());

    let mut t = in_turns();
    let before = t.clone();
    // A player.
    let e = submit(&mut t, "alice", "add thug", &[]).unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(e.rule, rules::GM_TOOLS);
    assert!(kinds_offered(&t, &Seat::parse("alice")).is_none());
    // An unknown kind: the parser lists the kinds; decide refuses too.
    let e = parse(&t, "gm", "add dragon").unwrap_err();
    assert!(e.to_string().contains("Zimzambamalam"), "{e}");
    let cmd = Command::Add {
        kind: "dragon".into(),
        sheet: None,
        name: None,
        to: None,
    };
    let e = t
        .submit(&Seat::Gm, &cmd, &mut Scripted::dice([]))
        .unwrap_err();
    assert!(matches!(e.kind, Refusal::Unknown { .. }), "{e:?}");
    // A command word as a name.
    let e = gm(&mut t, "add thug as end", &[]).unwrap_err();
    assert_eq!(e.rule, rules::NAMES);
    // Bad arguments.
    assert!(parse(&t, "gm", "add").is_err());
    assert!(parse(&t, "gm", "add thug as").is_err());
    assert!(parse(&t, "gm", "add thug to").is_err());
    assert!(parse(&t, "gm", "add thug as a as b").is_err());
    assert!(parse(&t, "gm", "add as x").is_err());
    assert_eq!(t, before);

    // Over.
    gm(&mut t, "end-encounter", &[]).unwrap();
    let before = t.clone();
    let e = gm(&mut t, "add thug", &[]).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert_eq!(t, before);
}

/// At a table of 14 CP and maximum level 6, Zimzambamalam's 8 shooting is
/// refused naming the broken rule ("Abilities": maximum level; R-SCR-7), and
/// he is not offered.
#[test]
fn a_sheet_the_tables_rules_refuse_is_not_added() {
    let mut t = table("combat-example.toml");
    gm(&mut t, "initiative", &[13, 17, 14]).unwrap();
    let offered = kinds_offered(&t, &Seat::Gm).unwrap();
    assert!(offered.contains(&"Thug".to_string()), "{offered:?}");
    assert!(offered.contains(&"The Boss".to_string()), "{offered:?}");
    assert!(
        !offered.contains(&"Zimzambamalam".to_string()),
        "{offered:?}"
    );
    let before = t.clone();
    let e = gm(&mut t, "add zimzambamalam to chokestar-player", &[]).unwrap_err();
    assert_eq!(e.rule, rules::ABILITIES, "{e}");
    assert!(e.message.contains("max_level 6"), "{e}");
    assert_eq!(t, before);
    // The GM's own group here is "gm"; a legal one joins.
    gm(&mut t, "add thug", &[]).unwrap();
    assert_eq!(t.state().characters.len(), 4);
}

/// The log carries the whole sheet: replaying it (also through JSON)
/// rebuilds the same state, and the description names the group.
#[test]
fn replay_rebuilds_the_newcomer_without_files() {
    let mut t = in_turns();
    gm(&mut t, "add chokestar as Shadow to alice", &[]).unwrap();
    gm(&mut t, "add thug", &[]).unwrap();
    testkit::assert_replay_rebuilds(&t);
    let log = serde_json::to_string(t.log()).unwrap();
    assert!(log.contains("\"added\"") && log.contains("Shadow"), "{log}");
    let back: tabula_core::EventLog<Event> = serde_json::from_str(&log).unwrap();
    let events: Vec<Event> = back.entries().iter().map(|e| e.event.clone()).collect();
    let mut s = t.initial().clone();
    for e in &events {
        Scratch::evolve(&mut s, e);
    }
    assert_eq!(&s, t.state());
    let at = events
        .iter()
        .position(|e| matches!(e, Event::Added { .. }))
        .unwrap();
    let mut s = t.initial().clone();
    for e in &events[..=at] {
        Scratch::evolve(&mut s, e);
    }
    let text = Scratch::describe(&s, &events[at]);
    assert!(
        text.contains("Shadow (Chokestar)") && text.contains("alice"),
        "{text}"
    );
    assert_eq!(t.state().phase, Phase::Turns);
    // Guests are not the campaign's: no sheet goes back for them.
    let after = <Scratch as tabula_core::CharacterBook>::sheets_after(t.state());
    assert!(
        !after.iter().any(|s| s.name == "Shadow"),
        "{:?}",
        after.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    assert!(after.iter().any(|s| s.name == "Chokestar"));
}

/// `add` is offered to the GM during the turns with the legal kinds, an
/// optional `as name` and a `to seat` choice of the groups' seats.
#[test]
fn add_is_offered_with_its_choices() {
    let t = in_turns();
    let spec = Scratch::legal_commands(t.state(), &Seat::Gm)
        .into_iter()
        .find(|c| c.name == "add")
        .unwrap();
    let names: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["kind", "as name", "to seat"]);
    assert_eq!(spec.params[1].kind, ParamKind::Text);
    assert_eq!(
        spec.params[2].kind,
        ParamKind::Choice {
            options: vec!["alice".into(), "bob".into(), "gm".into()]
        }
    );
    let kinds = kinds_offered(&t, &Seat::Gm).unwrap();
    // The table's characters (minions included), then the book's other sheets.
    for k in ["Chokestar", "The Boss", "Thug 1", "Thug", "Breakhelm X-19"] {
        assert!(kinds.contains(&k.to_string()), "{k} in {kinds:?}");
    }
    assert_eq!(
        kinds.iter().filter(|k| k.as_str() == "Chokestar").count(),
        1
    );
}
