//! The one command grammar at a Scratch RPS table: quoted names in any letter
//! case and by unambiguous prefix, refusals that list the names, the command
//! reference ([`Scratch::COMMANDS`]) and the character sheet.

use proptest::prelude::*;
use std::path::PathBuf;

use tabula_core::names::NameLookupError;
use tabula_core::system::find_command;
use tabula_core::testkit;
use tabula_core::{CommandParseError, Scripted, Seat, Seeded, System, Table, TextPlay};
use tabula_scratch::{Action, Command, Scratch};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn table(file: &str) -> Table<Scratch> {
    let text = std::fs::read_to_string(dir().join(file)).unwrap();
    Table::new(Scratch::setup(&text, &dir()).unwrap())
}

/// The example table after initiative with dice that put the GM's group first.
fn in_turns() -> Table<Scratch> {
    let mut t = table("table.toml");
    let cmd = Scratch::parse_command(t.state(), &Seat::Gm, "initiative").unwrap();
    // alice 1, bob 2, gm 20: the GM's group goes first.
    t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([1, 2, 20]))
        .unwrap();
    t
}

fn parse(t: &Table<Scratch>, seat: &str, line: &str) -> Result<Command, CommandParseError> {
    Scratch::parse_command(t.state(), &Seat::parse(seat), line)
}

fn act(actor: &str, action: Action) -> Command {
    Command::Act {
        actor: actor.into(),
        action,
    }
}

#[test]
fn a_multi_word_name_works_quoted_in_any_case_and_by_prefix() {
    let t = in_turns();
    let want = act(
        "the-boss",
        Action::Intimidate {
            target: "chokestar".into(),
        },
    );
    for line in [
        r#""The Boss" intimidate Chokestar"#,
        r#""the boss" INTIMIDATE chokestar"#,
        r#""THE BOSS" intimidate CHOKE"#,
        "the_boss intimidate chokestar",
        "the-boss intimidate chokestar",
        r#""the b" intimidate "chokestar""#,
        "“The Boss” intimidate Chokestar",
    ] {
        assert_eq!(parse(&t, "gm", line).unwrap(), want, "{line}");
    }
    // Targets with spaces, and names with digits and dashes.
    assert_eq!(
        parse(&t, "gm", r#""thug 1" attack "zim""#).unwrap(),
        act(
            "thug-1",
            Action::Attack {
                target: "zimzambamalam".into(),
                with: None
            }
        )
    );
    assert_eq!(
        parse(&t, "gm", r#""breakhelm x-19" fight "FLIP" chokestar"#).unwrap(),
        act(
            "breakhelm",
            Action::Fight {
                targets: vec!["flipfire".into(), "chokestar".into()]
            }
        )
    );
    // Abilities by prefix, with a quoted `with`.
    assert_eq!(
        parse(&t, "gm", r#"breakhelm attack flipfire with "FIGHT""#).unwrap(),
        act(
            "breakhelm",
            Action::Attack {
                target: "flipfire".into(),
                with: Some(tabula_scratch::Ability::Fighting)
            }
        )
    );
    // Terrain with spaces or dashes.
    assert_eq!(
        parse(&t, "gm", r#"terrain add "Deep Water""#).unwrap(),
        Command::Terrain {
            terrain: tabula_scratch::Terrain::DeepWater,
            present: true
        }
    );
    assert_eq!(
        parse(&t, "gm", "terrain remove room_to").unwrap(),
        Command::Terrain {
            terrain: tabula_scratch::Terrain::RoomToFly,
            present: false
        }
    );
}

#[test]
fn an_ambiguous_prefix_and_an_unknown_name_list_the_candidates_and_change_nothing() {
    let mut t = in_turns();
    let before = t.clone();
    match parse(&t, "gm", r#""The Boss" shoot thug"#) {
        Err(CommandParseError::Name(NameLookupError::Ambiguous { matches, .. })) => {
            assert_eq!(matches, ["Thug 1", "Thug 2"]);
        }
        other => panic!("{other:?}"),
    }
    match parse(&t, "gm", r#""The Boss" shoot "Iron Wolf""#) {
        Err(CommandParseError::Name(NameLookupError::Unknown { candidates, .. })) => {
            assert_eq!(
                candidates,
                [
                    "Chokestar",
                    "Flipfire",
                    "Zimzambamalam",
                    "Breakhelm X-19",
                    "The Boss",
                    "Thug 1",
                    "Thug 2"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    let e = parse(&t, "gm", "nobody shoot flipfire").unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Unknown { known, .. } if known.contains("The Boss") && known.contains("initiative")),
        "{e}"
    );
    let e = parse(&t, "gm", r#""The Boss" shoot flipfire with "las"#).unwrap_err();
    assert!(matches!(e, CommandParseError::Grammar(_)), "{e}");
    let e = parse(&t, "gm", r#""The Boss" attack flipfire with s"#).unwrap_err();
    assert!(
        e.to_string().contains("shooting") && e.to_string().contains("stealth"),
        "{e}"
    );
    let e = parse(&t, "gm", "terrain add lava").unwrap_err().to_string();
    assert!(
        e.contains("level-ground") && e.contains("deep-water"),
        "{e}"
    );
    // Nothing was submitted, nothing changed; a refused command changes
    // nothing either.
    assert_eq!(t, before);
    let cmd = parse(&t, "alice", "chokestar hold flipfire").unwrap();
    assert!(
        t.submit(&Seat::parse("alice"), &cmd, &mut Seeded::from_seed(1))
            .is_err()
    );
    assert_eq!(t, before);
}

/// Every command `legal_commands` offers over a scripted play of the example
/// table is in `COMMANDS` (an action is offered as `ID ACTION`).
#[test]
fn every_legal_command_is_in_the_reference() {
    let mut t = table("table.toml");
    let script = std::fs::read_to_string(dir().join("encounter.script")).unwrap();
    let seats = Scratch::seats(t.state());
    let mut seen = 0;
    let mut check = |t: &Table<Scratch>| {
        for seat in &seats {
            for spec in t.legal_commands(seat) {
                let word = spec.name.rsplit(' ').next().unwrap_or_default();
                assert!(
                    find_command(Scratch::COMMANDS, word).is_some(),
                    "{} is not in COMMANDS",
                    spec.name
                );
                seen += 1;
            }
        }
    };
    let mut rng = Seeded::from_seed(1);
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line == "status" {
            continue;
        }
        check(&t);
        let (seat, rest) = tabula_core::grammar::seat_prefix(line, &seats).unwrap();
        let cmd = Scratch::parse_command(t.state(), &seat, rest).unwrap();
        t.submit(&seat, &cmd, &mut rng).unwrap();
    }
    check(&t);
    assert!(seen > 50, "{seen}");
}

/// Every usage in `COMMANDS` is written in the usage language the one core
/// parser reads lines with (`tabula_core::usage`, issue 26, item 1).
#[test]
fn every_usage_compiles() {
    tabula_core::usage::check_all(Scratch::COMMANDS).unwrap();
}

/// Lines the usage reads in more than one way build the command the book
/// means: a last `requires` is the switch, `as` and `to` of `add` come in
/// either order and once each (issue 26, item 1).
#[test]
fn ambiguous_looking_lines_read_as_meant() {
    let t = in_turns();
    assert_eq!(
        parse(&t, "gm", "roll breakhelm 12 requires").unwrap(),
        Command::Roll {
            character: "breakhelm".into(),
            ability: None,
            difficulty: 12,
            requires: true
        }
    );
    let a = parse(&t, "gm", "add The Boss as Big Boss to alice").unwrap();
    let b = parse(&t, "gm", "add The Boss to alice as Big Boss").unwrap();
    assert_eq!(a, b);
    assert!(
        matches!(&a, Command::Add { kind, name: Some(n), to: Some(s), .. }
        if kind == "The Boss" && n == "Big Boss" && s == "alice"),
        "{a:?}"
    );
    for (line, problem) in [
        ("add thug as a as b", "\"as\" is given twice"),
        ("add thug to alice to bob", "\"to\" is given twice"),
        ("add thug as", "NAME is missing"),
        ("add thug to", "SEAT is missing"),
        ("add thug as to alice", "NAME is missing"),
        ("add as x", "KIND is missing"),
        ("add", "expected KIND or FILE.toml at the end"),
    ] {
        match parse(&t, "gm", line) {
            Err(CommandParseError::Arguments { problem: p, .. }) => {
                assert_eq!(p, problem, "{line}")
            }
            other => panic!("{line}: {other:?}"),
        }
    }
}

/// Every name and alias in `COMMANDS` is a command the parser knows.
#[test]
fn every_command_in_the_reference_is_recognised() {
    let t = in_turns();
    for d in Scratch::COMMANDS {
        assert!(!d.usage.is_empty() && !d.summary.is_empty(), "{}", d.name);
        for word in std::iter::once(&d.name).chain(d.aliases) {
            let mut lines = vec![word.to_string()];
            if d.usage.starts_with("[CHARACTER]") {
                lines.push(format!("breakhelm {word}"));
            }
            for line in lines {
                let r = parse(&t, "gm", &line);
                assert!(
                    !matches!(r, Err(CommandParseError::Unknown { .. })),
                    "{line}: {r:?}"
                );
            }
        }
    }
}

#[test]
fn wrong_arguments_show_the_usage_from_the_reference() {
    let t = in_turns();
    match parse(&t, "gm", "roll breakhelm") {
        Err(CommandParseError::Arguments { usage, .. }) => {
            assert_eq!(
                usage,
                find_command(Scratch::COMMANDS, "roll").unwrap().usage
            );
        }
        other => panic!("{other:?}"),
    }
    match parse(&t, "gm", "breakhelm shoot") {
        Err(CommandParseError::Arguments { usage, command, .. }) => {
            assert_eq!(command, "shoot");
            assert_eq!(usage, "[CHARACTER] shoot TARGET");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        parse(&t, "gm", r#"roll "the boss" command 12 requires"#).unwrap(),
        Command::Roll {
            character: "the-boss".into(),
            ability: Some(tabula_scratch::Ability::Command),
            difficulty: 12,
            requires: true
        }
    );
}

#[test]
fn the_sheet_is_laid_out_as_the_book_prints_characters() {
    let mut t = in_turns();
    let gm = Seat::Gm;
    let s = Scratch::sheet(t.state(), &gm, Some("the b")).unwrap();
    // "Support Abilities": the book's line for The Boss, with the defenses of
    // R-SCR-2 (intelligence 14).
    assert!(
        s.starts_with("The Boss (10 agility, 14 intelligence, 11 strength, 1 stamina): an enforcer in a white suit"),
        "{s}"
    );
    assert!(s.contains("  4 command: accompanied by two thugs"), "{s}");
    assert!(s.contains("hit points 3 of 3: healthy"), "{s}");
    assert!(s.contains("states: none"), "{s}");
    // Without a name: a player's own characters; the GM's: everyone.
    let bob = Scratch::sheet(t.state(), &Seat::parse("BOB"), None).unwrap();
    assert!(
        bob.contains("Flipfire (")
            && bob.contains("Zimzambamalam (")
            && !bob.contains("Chokestar ("),
        "{bob}"
    );
    let all = Scratch::sheet(t.state(), &gm, None).unwrap();
    assert_eq!(all.matches(" stamina)").count(), 7, "{all}");
    let e = Scratch::sheet(t.state(), &gm, Some("thug")).unwrap_err();
    assert!(
        matches!(
            e,
            CommandParseError::Name(NameLookupError::Ambiguous { .. })
        ),
        "{e}"
    );
    let e = Scratch::sheet(t.state(), &gm, Some("nobody")).unwrap_err();
    assert!(e.to_string().contains("Chokestar"), "{e}");
    // Current values: damage and states show.
    let cmd = parse(&t, "gm", r#""The Boss" shoot chokestar"#).unwrap();
    t.submit(&gm, &cmd, &mut Scripted::dice([19])).unwrap();
    let s = Scratch::sheet(t.state(), &Seat::parse("alice"), None).unwrap();
    assert!(s.starts_with("Chokestar ("), "{s}");
    assert!(s.contains("hit points 1 of 3: injured"), "{s}");
}

proptest! {
    /// Any letter case of any character's name, quoted, names that character.
    #[test]
    fn any_case_of_a_quoted_name_resolves(flips in proptest::collection::vec(any::<bool>(), 20)) {
        let t = in_turns();
        for c in &t.state().characters {
            let name: String = c
                .character
                .name()
                .chars()
                .zip(flips.iter().cycle())
                .map(|(ch, up)| if *up { ch.to_ascii_uppercase() } else { ch.to_ascii_lowercase() })
                .collect();
            let line = format!("roll {} 10", tabula_core::grammar::quote(&name));
            let cmd = Scratch::parse_command(t.state(), &Seat::Gm, &line).unwrap();
            let ok = matches!(cmd, Command::Roll { character, .. } if character == c.id);
            prop_assert!(ok, "{}", line);
        }
    }

    /// Every seat sees the same sheets (Scratch RPS hides nothing), and a sheet
    /// never panics whatever name is asked for.
    #[test]
    fn sheets_never_panic(name in "\\PC{0,12}") {
        let t = in_turns();
        for seat in Scratch::seats(t.state()) {
            let _ = Scratch::sheet(t.state(), &seat, Some(&name));
        }
        let _ = Scratch::view(t.state(), &Seat::Gm);
    }
}

/// A roller that writes down what each pool is for.
struct Recording {
    dice: Scripted,
    asked: Vec<String>,
}

impl tabula_core::Roller for Recording {
    fn roll(&mut self, die: tabula_core::Die) -> Result<u32, tabula_core::RollError> {
        self.dice.roll(die)
    }

    fn draw(&mut self, pile: &[tabula_core::Card]) -> Result<usize, tabula_core::RollError> {
        self.dice.draw(pile)
    }

    fn announce(&mut self, who: &str, what: &str, count: u32, die: tabula_core::Die) {
        self.asked
            .push(format!("{who}, {what}: roll {count} {die}"));
    }
}

/// `--manual` prompts say whose roll it is and what for.
#[test]
fn each_roll_is_announced_with_who_and_what_for() {
    let mut t = table("table.toml");
    let mut r = Recording {
        dice: Scripted::dice([1, 2, 20, 19]),
        asked: Vec::new(),
    };
    let cmd = parse(&t, "gm", "initiative").unwrap();
    t.submit(&Seat::Gm, &cmd, &mut r).unwrap();
    let cmd = parse(&t, "gm", r#""the boss" shoot chokestar"#).unwrap();
    t.submit(&Seat::Gm, &cmd, &mut r).unwrap();
    assert_eq!(
        r.asked,
        [
            "alice, initiative: roll 1 d20",
            "bob, initiative: roll 1 d20",
            "GM, initiative: roll 1 d20",
            "The Boss, shooting against Chokestar's agility: roll 1 d20",
        ]
    );
}

/// The GM's `adjust` (issue 27, item 6): sets or changes hit points, replays
/// from the log, is the GM's only, stays in 0..=max; at 0 the character is
/// incapacitated.
#[test]
fn the_gm_adjusts_hit_points() {
    let mut t = in_turns();
    let i = t.state().find("chokestar").unwrap();
    let max = t.state().characters[i].max_hit_points(&t.state().rules);
    let gm = |t: &mut Table<Scratch>, line: &str| {
        let cmd = parse(t, "gm", line).unwrap();
        t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([]))
            .map(|e| e.to_vec())
    };
    let ev = gm(&mut t, "adjust chokestar hp 1").unwrap();
    assert_eq!(t.state().characters[i].hit_points, 1);
    assert_eq!(
        Scratch::describe(t.state(), &ev[0].event),
        format!("The GM sets Chokestar's hit points to 1 (was {max}), injured")
    );
    gm(&mut t, "adjust chokestar hit-points +2").unwrap();
    assert_eq!(t.state().characters[i].hit_points, 3);
    testkit::assert_replay_rebuilds(&t);
    let replayed = Table::<Scratch>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(replayed.characters[i].hit_points, 3);

    // Refusals change nothing.
    let before = t.clone();
    let e = gm(&mut t, "adjust chokestar hp -4").unwrap_err();
    assert!(matches!(
        e.kind,
        tabula_core::Refusal::OutOfRange {
            got: -1,
            min: 0,
            ..
        }
    ));
    let e = gm(&mut t, &format!("adjust chokestar hp {}", max + 1)).unwrap_err();
    assert!(
        matches!(e.kind, tabula_core::Refusal::OutOfRange { max: m, .. } if i64::from(max) == m)
    );
    assert!(gm(&mut t, &format!("adjust chokestar hp +{}", i64::MAX)).is_err());
    let cmd = parse(&t, "alice", "adjust chokestar hp 5").unwrap();
    let e = t
        .submit(&Seat::parse("alice"), &cmd, &mut Scripted::dice([]))
        .unwrap_err();
    assert_eq!(e.kind, tabula_core::Refusal::NotPermitted);
    assert_eq!(t, before);
    assert!(parse(&t, "gm", "adjust nobody hp 1").is_err());
    assert!(parse(&t, "gm", "adjust chokestar mana 1").is_err());
    assert!(parse(&t, "gm", "adjust chokestar hp five").is_err());

    // At 0 the character is incapacitated; legal for the GM only.
    gm(&mut t, "adjust chokestar hp 0").unwrap();
    assert_eq!(
        t.state().characters[i].hp_state(&t.state().rules),
        tabula_scratch::HitPointState::Incapacitated
    );
    assert!(
        Scratch::legal_commands(t.state(), &Seat::Gm)
            .iter()
            .any(|c| c.name == "adjust")
    );
    assert!(
        !Scratch::legal_commands(t.state(), &Seat::parse("alice"))
            .iter()
            .any(|c| c.name == "adjust")
    );
}

/// The GM ends the encounter early; once over, it cannot be ended again.
#[test]
fn the_gm_ends_the_encounter() {
    let mut t = in_turns();
    let cmd = parse(&t, "alice", "end-encounter").unwrap();
    assert!(
        t.submit(&Seat::parse("alice"), &cmd, &mut Scripted::dice([]))
            .is_err()
    );
    let cmd = parse(&t, "gm", "end-encounter").unwrap();
    t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([])).unwrap();
    assert_eq!(t.state().phase, tabula_scratch::Phase::Over);
    assert!(Scratch::finished(t.state()));
    assert!(t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([])).is_err());
    testkit::assert_replay_rebuilds(&t);
}

/// The GM takes a character out of the encounter: out as one who escaped,
/// its turn passes on, and a side with no one left ends the encounter.
#[test]
fn the_gm_removes_a_character() {
    let mut t = in_turns();
    let i = t.state().find("chokestar").unwrap();
    let cmd = parse(&t, "alice", "remove chokestar").unwrap();
    let before = t.clone();
    assert!(
        t.submit(&Seat::parse("alice"), &cmd, &mut Scripted::dice([]))
            .is_err()
    );
    assert_eq!(t, before);
    let cmd = parse(&t, "gm", "remove chokestar").unwrap();
    t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([])).unwrap();
    assert!(t.state().characters[i].escaped);
    assert!(!t.state().characters[i].takes_turns());
    // Already out: refused.
    let before = t.clone();
    assert!(t.submit(&Seat::Gm, &cmd, &mut Scripted::dice([])).is_err());
    assert_eq!(t, before);
    testkit::assert_replay_rebuilds(&t);
    let replayed = Table::<Scratch>::replay(t.initial(), t.log(), t.log().len());
    assert!(replayed.characters[i].escaped);
    assert!(
        !Scratch::legal_commands(t.state(), &Seat::Gm)
            .iter()
            .filter(|c| c.name == "remove")
            .any(|c| format!("{:?}", c.params).contains("\"chokestar\""))
    );
}
