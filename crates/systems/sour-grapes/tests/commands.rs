//! The one command grammar at a Sour Grapes table: quoted names, names matched
//! without regard to case and by unambiguous prefix, refusals listing the names
//! that fit, the command reference (`COMMANDS`), the sheet, and the manual
//! roller's prompts.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use common::*;
use tabula_core::names::NameLookupError;
use tabula_core::roller::Answer;
use tabula_core::{CommandParseError, Manual, Scripted, Seat, Seeded, System, Table, TextPlay};
use tabula_sour_grapes::command::Command;
use tabula_sour_grapes::state::{Bet, Pool};
use tabula_sour_grapes::text::COMMANDS;
use tabula_sour_grapes::{SourGrapes, Stat};

fn gm() -> Seat {
    Seat::Gm
}

fn player(name: &str) -> Seat {
    Seat::Player(name.into())
}

fn parse(t: &Table<SourGrapes>, seat: &Seat, line: &str) -> Result<Command, CommandParseError> {
    SourGrapes::parse_command(t.state(), seat, line)
}

/// The example script's lines (comments and blanks left out).
fn script_lines() -> Vec<String> {
    std::fs::read_to_string(examples().join("encounter.script"))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// Every command `legal_commands` offers any seat at any moment of the example
/// play is in `COMMANDS`, and every name and alias of `COMMANDS` is one the
/// parser knows (whatever it then says of the arguments).
#[test]
fn commands_lists_every_command_and_the_parser_knows_them_all() {
    let mut t = example_table();
    let mut roller = Seeded::from_seed(1);
    let seats = SourGrapes::seats(t.state());
    let mut offered = std::collections::BTreeSet::new();
    let lines = script_lines();
    for line in &lines {
        for seat in &seats {
            for spec in t.legal_commands(seat) {
                offered.insert(spec.name);
            }
        }
        give(&mut t, line, &mut roller);
    }
    assert!(offered.len() > 20, "{offered:?}");
    for name in &offered {
        assert!(
            COMMANDS.iter().any(|c| c.name == name),
            "{name} is offered but not in COMMANDS"
        );
    }
    let t = example_table();
    for doc in COMMANDS {
        for word in std::iter::once(&doc.name).chain(doc.aliases) {
            for typed in [word.to_string(), word.to_uppercase()] {
                let got = parse(&t, &gm(), &typed);
                assert!(
                    !matches!(got, Err(CommandParseError::Unknown { .. })),
                    "{typed}: {got:?}"
                );
            }
        }
    }
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(names.len(), unique.len(), "a command is listed twice");
}

/// The parser's usage text is the usage of `COMMANDS`, and an unknown command
/// lists them all.
#[test]
fn usage_and_the_command_list_come_from_commands() {
    let t = example_table();
    let err = parse(&t, &player("Ana"), "check Agility 3").unwrap_err();
    let check = COMMANDS.iter().find(|c| c.name == "check").unwrap();
    assert_eq!(
        err,
        CommandParseError::Arguments {
            command: "check".into(),
            problem: "expected TOKENS, vs or difficulty at the end".into(),
            usage: check.usage.into(),
        }
    );
    let CommandParseError::Unknown { known, .. } = parse(&t, &gm(), "dance").unwrap_err() else {
        panic!("not unknown")
    };
    for c in COMMANDS {
        assert!(known.contains(c.name), "{known}");
    }
    // An alias is the command.
    assert_eq!(parse(&t, &gm(), "END-TURN").unwrap(), Command::EndTurn);
}

/// A name with spaces works quoted (or with `_`), in any letter case, and by
/// unique prefix, for characters, Stats, Skills and cards alike; `KEY=VALUE`
/// works with a quoted value.
#[test]
fn multi_word_names_work_quoted_in_any_case_and_by_prefix() {
    let t = example_table();
    let want = Command::Spend {
        who: Some("Example Player".into()),
        stat: Stat::Stamina,
    };
    for line in [
        r#"spend Stamina as "Example Player""#,
        r#"spend stamina as "example player""#,
        r#"SPEND STAMINA AS "EXAMPLE PLAYER""#,
        "spend Stamina as Example_Player",
        "spend Stamina as Example Player",
        r#"spend stam as "exam""#,
        "spend STA as ex",
        r#"spend Stamina as="example player""#,
        "spend Stamina as “Example Player”",
    ] {
        assert_eq!(parse(&t, &gm(), line).unwrap(), want, "{line}");
    }
    // A Skill of the character acting, quoted and by prefix.
    let Command::Check { skill, .. } =
        parse(&t, &player("ana"), r#"check Prestige 3 vs 2 with "fast t""#).unwrap()
    else {
        panic!()
    };
    assert_eq!(skill.as_deref(), Some("Fast Talking"));
    // Cards: quoted, by prefix, by the card's key.
    for line in [
        r#"stunt "Sand Strike""#,
        r#"stunt "sand strike""#,
        "stunt sand-strike",
        "stunt Sand_Strike",
        r#"stunt "SAND S""#,
        "stunt sa",
    ] {
        assert_eq!(
            parse(&t, &player("Ana"), line).unwrap(),
            Command::Stunt {
                card: "Sand Strike".into()
            },
            "{line}"
        );
    }
    // Several targets: each quoted, or separated by commas.
    let both = Command::Target {
        targets: vec!["Tavern Brute".into(), "Drunk Sailor".into()],
        success: Bet { dice: 3, tokens: 1 },
        result: Bet::default(),
    };
    for line in [
        r#"target "tavern brute" "drunk sailor" success 3 1"#,
        r#"target "Tavern Brute", "Drunk Sailor" success 3 1"#,
        "target Tavern Brute, drunk success 3 1",
    ] {
        assert_eq!(parse(&t, &player("Ana"), line).unwrap(), both, "{line}");
    }
    // A Divert's new target and its card.
    assert_eq!(
        parse(
            &t,
            &gm(),
            r#"divert shove success 3 1 to "example player" as "tavern brute""#
        )
        .unwrap(),
        Command::Divert {
            who: Some("Tavern Brute".into()),
            card: "Shove".into(),
            success: Bet { dice: 3, tokens: 1 },
            to: "Example Player".into(),
        }
    );
    // A stat or a skill: the skill by prefix; a new skill for `raise`.
    assert_eq!(
        parse(&t, &player("Sam"), "raise fenc").unwrap(),
        Command::Raise {
            who: None,
            what: Pool::Skill("fencing".into()),
        }
    );
    assert_eq!(
        parse(&t, &player("Sam"), r#"raise "Knife Fighting""#).unwrap(),
        Command::Raise {
            who: None,
            what: Pool::Skill("Knife Fighting".into()),
        }
    );
    assert_eq!(
        parse(&t, &gm(), r#"giveback "fire magic" as rook"#).unwrap(),
        Command::TokensBack {
            who: "Rook".into(),
            skill: "Fire Magic".into(),
            points: 1,
        }
    );
    // Strength is Might (R-SG-3), by prefix too.
    assert_eq!(
        parse(&t, &gm(), "spend stren as rook").unwrap(),
        Command::Spend {
            who: Some("Rook".into()),
            stat: Stat::Might,
        }
    );
}

const IRON: &str = r#"
title = "two of a name"

[[participant]]
file = "rook.toml"
seat = "Ana"

[[participant]]
cards = ["Attack", "Dodge"]
[participant.sheet]
name = "Iron Wolf"
monster = true
[participant.sheet.stats]
agility = 2
might = 3
knowledge = 1
perception = 2
prestige = 1
resolve = 2
spirit = 1
stamina = 5
vitality = 8

[[participant]]
cards = ["Attack", "Dodge"]
[participant.sheet]
name = "Iron Maiden"
monster = true
[participant.sheet.stats]
agility = 2
might = 3
knowledge = 1
perception = 2
prestige = 1
resolve = 2
spirit = 1
stamina = 5
vitality = 8
"#;

/// An ambiguous prefix is refused naming the names it could be; an unknown name
/// is refused listing every name that fits there; neither changes the table.
#[test]
fn ambiguous_and_unknown_names_are_refused_listing_the_candidates() {
    let mut t = table_from(IRON);
    let before = t.clone();
    let mut none = Scripted::dice([]);
    match parse(&t, &gm(), "spend Agility as iron").unwrap_err() {
        CommandParseError::Name(NameLookupError::Ambiguous { matches, .. }) => {
            assert_eq!(matches, ["Iron Wolf", "Iron Maiden"]);
        }
        other => panic!("{other:?}"),
    }
    let err = try_give(&mut t, "gm: spend Agility as iron", &mut none).unwrap_err();
    assert!(err.contains("Iron Wolf or Iron Maiden"), "{err}");
    assert_eq!(
        parse(&t, &gm(), r#"spend Agility as "iron m""#).unwrap(),
        Command::Spend {
            who: Some("Iron Maiden".into()),
            stat: Stat::Agility,
        }
    );
    match parse(&t, &gm(), "spend Agility as Nobody").unwrap_err() {
        CommandParseError::Name(NameLookupError::Unknown { candidates, .. }) => {
            assert_eq!(candidates, ["Rook", "Iron Wolf", "Iron Maiden"]);
        }
        other => panic!("{other:?}"),
    }
    for (line, needle) in [
        ("gm: spend p as Rook", "Perception or Prestige"),
        ("gm: spend Luck as Rook", "Agility, Might, Knowledge"),
        ("Ana: stunt s", "Sand Strike"),
        (
            "Ana: check Agility 2 vs 1 with Swimming",
            "the Skill names here: Ninjitsu, Judo, Fire Magic",
        ),
        ("gm: afflict Hangover as Rook", "Intoxicated"),
        (
            "gm: target Nobody success 1",
            "Rook, Iron Wolf, Iron Maiden",
        ),
        (r#"gm: spend Agility as "Iron Wolf"#, "never closed"),
    ] {
        let err = try_give(&mut t, line, &mut none).unwrap_err();
        assert!(err.contains(needle), "{line}: {err}");
    }
    assert_eq!(t, before);
}

/// The example script plays the same with every quoted name in lower case.
#[test]
fn the_script_plays_the_same_in_any_letter_case() {
    let play = |lower: bool| {
        let mut t = example_table();
        let mut roller = Seeded::from_seed(1);
        for line in script_lines() {
            let line = if lower {
                let mut parts: Vec<String> = line.split('"').map(String::from).collect();
                for (i, p) in parts.iter_mut().enumerate() {
                    if i % 2 == 1 {
                        *p = p.to_lowercase();
                    }
                }
                parts.join("\"")
            } else {
                line
            };
            give(&mut t, &line, &mut roller);
        }
        t
    };
    let (a, b) = (play(false), play(true));
    assert!(a.log().entries().len() > 50);
    assert_eq!(a, b);
}

/// `sheet`: a seat's own character without a name, every character for the
/// storyteller, any character by name (case-blind prefix); an unknown name
/// lists the characters. The book's example stat sheet shows Resolve Actual 4,
/// Current 2, injured; a depleted stat shows its condition.
#[test]
fn the_sheet_lays_out_the_book_sheet_with_current_values() {
    let t = example_table();
    let s = t.state();
    let sam = SourGrapes::sheet(s, &player("sam"), None).unwrap();
    assert!(sam.starts_with("Example Player, played by Sam"), "{sam}");
    assert!(sam.contains("Resolve (RES) Mental: Fearlessness"), "{sam}");
    assert!(
        sam.contains("Actual  4  Current  2  ##..  injured  (at 0: Panicked)"),
        "{sam}"
    );
    assert!(sam.contains("Skills (tokens available / rating): fencing"));
    assert!(sam.contains("Trained Breathing (Stunt"), "{sam}");
    assert!(sam.contains("Comparable skills: Athletics as acrobatics"));
    assert!(!sam.contains("Rook"), "{sam}");
    let all = SourGrapes::sheet(s, &gm(), None).unwrap();
    for name in ["Example Player", "Rook", "Tavern Brute", "Drunk Sailor"] {
        assert!(
            all.contains(&format!("\n{name}")) || all.starts_with(name),
            "{name}: {all}"
        );
    }
    assert!(all.contains("Effects in play: Intoxicated"), "{all}");
    let brute = SourGrapes::sheet(s, &player("Ana"), Some("TAVERN B")).unwrap();
    assert!(brute.starts_with("Tavern Brute (monster), played by GM"));
    assert_eq!(
        SourGrapes::sheet(s, &player("Ana"), Some("tav")).unwrap(),
        brute
    );
    match SourGrapes::sheet(s, &player("Ana"), Some("Nobody")).unwrap_err() {
        CommandParseError::Name(NameLookupError::Unknown { candidates, .. }) => {
            assert_eq!(
                candidates,
                ["Example Player", "Rook", "Tavern Brute", "Drunk Sailor"]
            );
        }
        other => panic!("{other:?}"),
    }
    let ogre = table_from(TWO_SHEETS);
    let o = SourGrapes::sheet(ogre.state(), &gm(), Some("ogre")).unwrap();
    assert!(
        o.contains("Actual  5  Current  0  .....  injured  DEPLETED: Frail"),
        "{o}"
    );
    assert!(o.contains("Conditions: Frail"), "{o}");
}

/// Sour Grapes hides nothing (the book plays with sheets and cards on the
/// table; every seat's view holds the whole table): every seat reads the same
/// sheet of a character, at every moment of the example play, and every card
/// it lists is one that seat's view shows the character holding.
#[test]
fn every_seat_reads_the_same_sheet() {
    let mut t = example_table();
    let mut roller = Seeded::from_seed(1);
    let seats = SourGrapes::seats(t.state());
    for line in script_lines() {
        for who in t.state().participant_names() {
            let sheets: Vec<String> = seats
                .iter()
                .map(|seat| SourGrapes::sheet(t.state(), seat, Some(&who)).unwrap())
                .collect();
            assert!(sheets.windows(2).all(|w| w[0] == w[1]), "{who}");
            for seat in &seats {
                let view = SourGrapes::view(t.state(), seat);
                let p = view.state.participant(&who).unwrap();
                for card in &t.state().cards {
                    let listed = sheets[0].contains(&format!("\n    {} (", card.name));
                    assert_eq!(listed, p.cards.contains(&card.name), "{who} {}", card.name);
                }
            }
        }
        give(&mut t, &line, &mut roller);
    }
}

/// A manual roller's prompt says whose roll it is and what for: the character,
/// the stat or card, and how many dice.
#[test]
fn manual_prompts_say_whose_roll_and_what_for() {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let seen = asked.clone();
    let mut t = table_from(TWO_SHEETS);
    let mut m = Manual::prompting(Box::new(move |q, _| {
        seen.borrow_mut().push(q.to_string());
        Answer::Values("5 5".into())
    }));
    give(&mut t, "Sam: check Perception 2 vs 1", &mut m);
    give(&mut t, "gm: event", &mut m);
    give(&mut t, "Sam: initiative Agility 2", &mut m);
    assert_eq!(
        *asked.borrow(),
        [
            "Hero, Perception check: roll 2 d6",
            "Hero, initiative (Agility): roll 2 d6",
        ]
    );
}

proptest::proptest! {
    /// Any start of a character's name, in any letter case, quoted or with `_`
    /// for its spaces, names that character when no other name starts the same
    /// way, and is refused naming every character it could be otherwise.
    #[test]
    fn any_unique_prefix_in_any_case_names_the_character(
        index in 0usize..3,
        cut in 1usize..12,
        upper in proptest::collection::vec(proptest::bool::ANY, 12),
        underscore in proptest::bool::ANY,
    ) {
        let t = table_from(IRON);
        let names = t.state().participant_names();
        let name = &names[index];
        let typed: String = name
            .chars()
            .take(cut)
            .zip(&upper)
            .map(|(c, up)| if *up { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
            .collect();
        let typed = if underscore { typed.replace(' ', "_") } else { typed };
        let norm = |s: &str| s.to_lowercase().replace('_', " ").trim().to_string();
        let starts: Vec<&String> = names.iter().filter(|n| norm(n).starts_with(&norm(&typed))).collect();
        let exact = names.iter().find(|n| norm(n) == norm(&typed));
        let line = format!("spend Agility as \"{typed}\"");
        let want = exact.or(if starts.len() == 1 { Some(starts[0]) } else { None });
        match (want, parse(&t, &gm(), &line)) {
            (Some(n), Ok(Command::Spend { who, .. })) => {
                proptest::prop_assert_eq!(who.as_deref(), Some(n.as_str()));
            }
            (None, Err(CommandParseError::Name(NameLookupError::Ambiguous { matches, .. }))) => {
                let many: Vec<String> = starts.iter().map(|s| s.to_string()).collect();
                proptest::prop_assert_eq!(matches, many);
            }
            (w, got) => proptest::prop_assert!(false, "{typed:?}: {w:?} {got:?}"),
        }
    }
}
