//! The example table and script, hidden information for every seat, bad input,
//! and property tests (replay, random command sequences).

mod common;
use common::*;
use proptest::prelude::*;
use std::path::PathBuf;
use tabula_bastards::Bastards;
use tabula_bastards::character::Trait;
use tabula_bastards::command::Command;
use tabula_bastards::state::{Phase, State};
use tabula_bastards::view::PhaseView;
use tabula_core::names::NameLookupError;
use tabula_core::roller::{Scripted, Seeded};
use tabula_core::rule::Refusal;
use tabula_core::system::{CommandParseError, Seat, System, Table, TextPlay, find_command};
use tabula_core::testkit;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards")
}

fn load() -> Table<Bastards> {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Bastards::setup(&text, &dir).unwrap())
}

fn script() -> Vec<String> {
    std::fs::read_to_string(examples().join("encounter.script"))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

fn seats(s: &State) -> Vec<Seat> {
    let mut v: Vec<Seat> = s.combatants.iter().map(|c| c.controller.clone()).collect();
    v.push(Seat::Gm);
    v.push(Seat::Player("a stranger".into()));
    v.sort();
    v.dedup();
    v
}

/// Every seat's view hides what it must hide.
fn assert_hidden(s: &State) {
    for seat in seats(s) {
        let v = Bastards::view(s, &seat);
        for (c, cv) in s.combatants.iter().zip(&v.combatants) {
            if c.controller == seat {
                assert_eq!(cv.hand.as_ref(), Some(&c.hand));
            } else {
                assert!(cv.hand.is_none(), "{seat} sees {}'s hand", c.name);
            }
            assert_eq!(cv.hand_size, c.hand.len());
        }
        if let (Phase::Exchange(x), PhaseView::Exchange(xv)) = (&s.phase, &v.phase) {
            let owns = |i: usize| s.combatants[i].controller == seat;
            if !owns(x.attacker) {
                assert!(
                    xv.attacker_down.is_none(),
                    "{seat} sees the attacker's face-down card"
                );
            }
            if !owns(x.defender) {
                assert!(
                    xv.defender_down.is_none(),
                    "{seat} sees the defender's face-down card"
                );
            }
        }
        // The deck is a count only: no card of the pile is in the view.
        let json = serde_json::to_value(&v).unwrap();
        assert!(json.get("shoe").is_none() && json.get("pile").is_none());
        assert_eq!(v.deck, s.shoe.pile().len());
    }
}

fn conserve(s: &State) {
    let mut out = 0;
    for c in &s.combatants {
        out += c.hand.len() + usize::from(c.initiative.is_some());
    }
    if let Phase::Exchange(x) = &s.phase {
        out += usize::from(x.attacker_down.is_some()) + usize::from(x.defender_down.is_some());
        out += x.attacker_up.len() + x.defender_up.len();
    }
    assert_eq!(
        out,
        s.shoe.out_count(),
        "every card out of the shoe is in a hand or on the table"
    );
    assert_eq!(
        s.shoe.pile().len() + s.shoe.discards().len() + s.shoe.out_count(),
        108
    );
    for c in &s.combatants {
        for t in tabula_bastards::character::Trait::ALL {
            assert!(c.pool(t) >= 0);
        }
    }
}

#[test]
fn the_encounter_script_plays_through_with_seed_1() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    for line in script() {
        submit(&mut t, &line, &mut r).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_hidden(t.state());
        conserve(t.state());
    }
    assert!(Bastards::finished(t.state()));
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn the_dealer_never_sees_a_players_hand_nor_a_player_the_dealers() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    for line in script().iter().take(12) {
        submit(&mut t, line, &mut r).unwrap();
    }
    let gm = Bastards::view(t.state(), &Seat::Gm);
    let stella = Bastards::view(t.state(), &Seat::Player("Stella".into()));
    for (gv, sv) in gm.combatants.iter().zip(&stella.combatants) {
        assert_eq!(gv.controller == Seat::Gm, gv.hand.is_some());
        assert_eq!(
            sv.controller == Seat::Player("Stella".into()),
            sv.hand.is_some()
        );
    }
}

#[test]
fn a_face_down_card_is_hidden_from_everyone_else_until_the_reveal() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    let lines = script();
    let upto = lines.iter().position(|l| l == "play best").unwrap() + 1;
    for line in &lines[..upto] {
        submit(&mut t, line, &mut r).unwrap();
    }
    let Phase::Exchange(x) = &t.state().phase else {
        panic!("in an exchange")
    };
    assert!(x.attacker_down.is_some());
    for seat in seats(t.state()) {
        let PhaseView::Exchange(xv) = Bastards::view(t.state(), &seat).phase else {
            panic!()
        };
        assert!(xv.attacker_down_played);
        assert_eq!(
            xv.attacker_down.is_some(),
            seat == Seat::Player("Blaine".into()),
            "{seat}"
        );
    }
}

#[test]
fn out_of_turn_and_illegal_commands_are_refused_and_change_nothing() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    for line in script().iter().take(7) {
        submit(&mut t, line, &mut r).unwrap();
    }
    // Kodos (Blaine) is to draw.
    let before = t.state().clone();
    let len = t.log().len();
    let e = submit(&mut t, "Stella: draw", &mut r).unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    let e = submit(&mut t, "Blaine: bet best", &mut r).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert!(e.rule.section.contains("Skill Hands"));
    let e = submit(&mut t, "Blaine: attack investor Influence", &mut r).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase, "draw first");
    let e = submit(&mut t, "Stella: begin", &mut r).unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    let e = submit(&mut t, "Blaine: init Kodos 5H", &mut r).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert_eq!(t.state(), &before);
    assert_eq!(t.log().len(), len);
    let gm = Seat::Gm;
    assert!(Bastards::parse_command(t.state(), &gm, "attack").is_err());
    assert!(Bastards::parse_command(t.state(), &gm, "juggle").is_err());
    assert!(Bastards::parse_command(t.state(), &gm, "use Kodos flying").is_err());
    // Options side by side come in any order, once each (`tabula_core::usage`;
    // issue 26, item 1).
    let blaine = Seat::parse("Blaine");
    let read = |line: &str| Bastards::parse_command(t.state(), &blaine, line);
    let a = read("attack investor Influence social zeal").unwrap();
    assert_eq!(read("attack investor Influence zeal social").unwrap(), a);
    assert!(read("attack investor Influence zeal social zeal").is_err());
}

#[test]
fn broken_table_files_name_the_problem() {
    let dir = examples();
    let e =
        Bastards::setup("[[extras]]\nname = \"T\"\npower = 9\nmembers = 3\n", &dir).unwrap_err();
    assert!(e.to_string().contains("power"), "{e}");
    let e = Bastards::setup("[[fated]]\nfile = \"broken.toml\"\n", &dir).unwrap_err();
    assert!(e.to_string().contains("Moons"), "{e}");
    let e = Bastards::setup("[[fated]]\nfile = \"nobody.toml\"\n", &dir).unwrap_err();
    assert!(e.to_string().contains("nobody.toml"), "{e}");
    let e = Bastards::setup("colour = 3\n", &dir).unwrap_err();
    assert!(e.to_string().contains("colour"), "{e}");
    let e = Bastards::setup(
        "[[fated]]\nfile = \"kodos.toml\"\n[[fated]]\nfile = \"kodos.toml\"\n",
        &dir,
    )
    .unwrap_err();
    assert!(e.to_string().contains("Kodos"), "{e}");
}

#[test]
fn the_books_characters_are_legal() {
    for f in [
        "kodos.toml",
        "cynthia.toml",
        "investor.toml",
        "carlton.toml",
    ] {
        let text = std::fs::read_to_string(examples().join(f)).unwrap();
        tabula_bastards::character::Character::from_toml(&text)
            .unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

#[test]
fn carltons_repair_as_a_skill_check_at_the_table() {
    let mut t = load();
    let mut r = Scripted::values(["9S", "4C", "JH", "2D", "7S"]);
    submit(&mut t, "Pat: fate Carlton Repair Mind", &mut r).unwrap();
    let last = t.log().entries().last().unwrap();
    let tabula_bastards::Event::FateDrawn { result, .. } = &last.event else {
        panic!()
    };
    assert!(result.success);
    assert_eq!((result.player_total, result.dealer_total), (12, 11));
    conserve(t.state());
}

const LINES: &[&str] = &[
    "gm: begin",
    "gm: end",
    "draw",
    "mulligan",
    "discard lowest",
    "discard best",
    "pass",
    "call",
    "bet best",
    "bet wild",
    "play best",
    "play lowest",
    "play best Business",
    "play lowest mom",
    "Stella: init Cynthia lowest",
    "Blaine: init Kodos best",
    "gm: init investor lowest",
    "gm: init Bodyguard best",
    "gm: init Thugs lowest",
    "attack investor Influence social",
    "attack Kodos Unarmed_Combat physical",
    "attack Cynthia Club_Combat physical savage",
    "attack Thugs Sword_Combat physical",
    "attack Kodos Unarmed_Combat physical fortune",
    "reinit lowest",
    "Blaine: use Kodos dodge",
    "Blaine: use Kodos study investor",
    "Stella: fate Cynthia Business Mind 3",
    "Pat: appear Carlton",
    "Stella: wildcard Cynthia",
    "gm: wildcard investor",
    "wield Wrench",
    "gm: finish",
    "gm: scene",
    "play best counter=1",
    "use Kodos stance 1",
    "Stella: use Cynthia all-out-defense",
    "gm: reinforce investor Guards",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_commands_never_panic_and_keep_invariants(picks in proptest::collection::vec(0..LINES.len(), 1..60), seed in 0u64..1000) {
        let mut t = load();
        let mut r = Seeded::from_seed(seed);
        for i in picks {
            let line = LINES[i];
            let before = t.state().clone();
            let len = t.log().len();
            // A name resolved at parse time may name nothing in this state
            // ("wield Wrench" when the actor carries none): a refused line,
            // and nothing was submitted.
            let (seat, cmd) = parse(&t, line);
            let Ok(cmd) = cmd else {
                prop_assert_eq!(t.state(), &before);
                continue;
            };
            if t.submit(&seat, &cmd, &mut r).is_err() {
                prop_assert_eq!(t.state(), &before);
                prop_assert_eq!(t.log().len(), len);
            }
            conserve(t.state());
            assert_hidden(t.state());
        }
        testkit::assert_replay_rebuilds(&t);
        // Replaying the log from the start rebuilds the same state.
        let rebuilt = Table::<Bastards>::replay(t.initial(), t.log(), usize::MAX);
        prop_assert_eq!(&rebuilt, t.state());
    }
}

#[test]
fn a_specialty_adds_its_rank_to_a_fate_draw() {
    let mut t = load();
    let mut r = Scripted::values(["9S", "4C", "2H", "JH", "2D", "7S"]);
    submit(
        &mut t,
        "Blaine: fate Kodos Technology Mind spec=Invent",
        &mut r,
    )
    .unwrap();
    let tabula_bastards::Event::FateDrawn { result, .. } = &t.log().entries().last().unwrap().event
    else {
        panic!()
    };
    // Mind 3 + Invent (Technology 3 x Influence 2: rank 2) = 5; 9 + 5 = 14 > 11.
    assert_eq!(result.player_total, 14);
    assert!(result.success);
    let e = submit(&mut t, "Stella: wildcard Cynthia", &mut r).unwrap_err();
    assert_eq!(e.kind, Refusal::WrongPhase);
}

#[test]
fn every_legal_command_is_a_command_the_parser_knows_and_the_next_line_is_legal() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    for line in script() {
        let (seat, body) = match line.split_once(':') {
            Some((s, rest)) => (Seat::parse(s), rest.trim().to_string()),
            None => (Bastards::default_seat(t.state()), line.clone()),
        };
        let legal = Bastards::legal_commands(t.state(), &seat);
        let word = body.split_whitespace().next().unwrap().to_string();
        assert!(
            legal
                .iter()
                .any(|c| c.name.split_whitespace().next() == Some(word.as_str())),
            "{line}: not among {:?}",
            legal.iter().map(|c| c.name.clone()).collect::<Vec<_>>()
        );
        for s in seats(t.state()) {
            for c in Bastards::legal_commands(t.state(), &s) {
                let word = c.name.split_whitespace().next().unwrap_or_default();
                assert!(
                    find_command(Bastards::COMMANDS, word).is_some(),
                    "{} is not in COMMANDS",
                    c.name
                );
                let e = Bastards::parse_command(t.state(), &s, &c.name);
                assert!(
                    !matches!(
                        e,
                        Err(tabula_core::system::CommandParseError::Unknown { .. })
                    ),
                    "{}",
                    c.name
                );
            }
        }
        submit(&mut t, &line, &mut r).unwrap();
    }
}

#[test]
fn the_state_survives_a_json_round_trip() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    for line in script().iter().take(20) {
        submit(&mut t, line, &mut r).unwrap();
    }
    let json = serde_json::to_string(t.state()).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, t.state());
}

#[test]
fn indirect_opposition_gives_the_opposing_hands_to_the_player_not_involved() {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("indirect.toml")).unwrap();
    let mut t = Table::<Bastards>::new(Bastards::setup(&text, &dir).unwrap());
    assert!(t.state().indirect);
    let mut r = Seeded::from_seed(2);
    submit(&mut t, "gm: begin", &mut r).unwrap();
    let blaine = Seat::Player("Blaine".into());
    let v = Bastards::view(t.state(), &blaine);
    assert!(
        v.combatants
            .iter()
            .any(|c| c.name == "Guards" && c.hand.is_some())
    );
    assert!(
        v.combatants
            .iter()
            .any(|c| c.name == "Cynthia" && c.hand.is_none())
    );
    let gm = Bastards::view(t.state(), &Seat::Gm);
    assert!(gm.combatants.iter().all(|c| c.hand.is_none()));
    submit(&mut t, "Blaine: init Guards lowest", &mut r).unwrap();
    assert_hidden(t.state());
}

fn any_command() -> impl Strategy<Value = tabula_bastards::Command> {
    use tabula_bastards::Command as C;
    use tabula_bastards::character::Trait;
    use tabula_bastards::command::UseAdvantage;
    use tabula_bastards::state::{AttackOptions, HandKind};
    let name = prop::sample::select(vec![
        "Cynthia",
        "Kodos",
        "investor",
        "Carlton",
        "Bodyguard",
        "Thugs",
        "nobody",
        "",
    ])
    .prop_map(String::from);
    let card = prop::sample::select(vec!["best", "lowest", "QH", "Joker", "zz", "10S"])
        .prop_map(String::from);
    let skill = prop::sample::select(vec![
        "Influence",
        "Unarmed Combat",
        "Business",
        "Sword Combat",
        "x",
    ])
    .prop_map(String::from);
    let num = prop::sample::select(vec![i64::MIN, -1, 0, 1, 2, 3, 20, 21, i64::MAX]);
    let kind = prop::sample::select(vec![
        HandKind::Physical,
        HandKind::Social,
        HandKind::Fear,
        HandKind::Simple,
    ]);
    prop_oneof![
        Just(C::Begin),
        Just(C::Scene),
        Just(C::Draw),
        Just(C::Mulligan),
        Just(C::Call),
        Just(C::BetWild),
        Just(C::Pass),
        Just(C::End),
        (name.clone(), card.clone()).prop_map(|(who, card)| C::Init { who, card }),
        card.clone().prop_map(|card| C::Discard { card }),
        card.clone().prop_map(|card| C::Bet { card }),
        card.clone().prop_map(|card| C::Reinit { card }),
        (
            card.clone(),
            proptest::option::of(skill.clone()),
            any::<bool>(),
            num.clone()
        )
            .prop_map(|(card, skill, mind_over_matter, counter)| C::Play {
                card,
                skill,
                mind_over_matter,
                counter
            }),
        (
            name.clone(),
            skill.clone(),
            kind,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            num.clone(),
            num.clone()
        )
            .prop_map(
                |(target, skill, kind, zeal, fortune, savage, wild_swing, penalty)| C::Attack {
                    target,
                    skill,
                    kind,
                    options: AttackOptions {
                        zeal,
                        fortune,
                        savage,
                        wild_swing,
                        penalty,
                        ..AttackOptions::default()
                    },
                }
            ),
        (name.clone(), skill.clone(), num.clone(), any::<bool>()).prop_map(
            |(who, skill, modifier, acrobat)| C::Fate {
                who,
                skill,
                trait_used: Trait::Mind,
                modifier,
                acrobat,
                specialty: None,
            }
        ),
        (name.clone(), num.clone()).prop_map(|(who, n)| C::Use {
            who,
            advantage: UseAdvantage::DefensiveStance(n)
        }),
        name.clone().prop_map(|who| C::Use {
            who,
            advantage: UseAdvantage::Dodge
        }),
        name.clone().prop_map(|who| C::Wildcard { who }),
        name.clone().prop_map(|who| C::Appear { who }),
        (name.clone(), any::<u32>()).prop_map(|(who, wildcards)| C::Distance { who, wildcards }),
        name.clone().prop_map(|who| C::Reinforce {
            who,
            name: "Crowd".into(),
            weapon: None
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_commands_from_any_seat_never_panic(
        cmds in proptest::collection::vec((any_command(), 0usize..8), 1..80),
        seed in 0u64..1000,
    ) {
        let seats = [
            Seat::Gm,
            Seat::Player("Stella".into()),
            Seat::Player("Blaine".into()),
            Seat::Player("Pat".into()),
            Seat::Player("x".into()),
        ];
        let mut t = load();
        let mut r = Seeded::from_seed(seed);
        for (cmd, s) in cmds {
            // Mostly the seat whose move it is, sometimes anyone.
            let seat = &seats.get(s).cloned().unwrap_or_else(|| Bastards::default_seat(t.state()));
            let before = t.state().clone();
            if t.submit(seat, &cmd, &mut r).is_err() {
                prop_assert_eq!(t.state(), &before);
            }
            conserve(t.state());
        }
        testkit::assert_replay_rebuilds(&t);
    }
}

/// Issue 18: every command word and alias of the reference is one the parser
/// knows, at any moment of the encounter, and the unknown-command error lists
/// the reference's names.
#[test]
fn every_command_of_the_reference_is_recognised() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    let lines = script();
    for (n, line) in lines.iter().enumerate() {
        if n % 7 == 0 {
            for doc in Bastards::COMMANDS {
                for word in std::iter::once(&doc.name).chain(doc.aliases) {
                    for seat in seats(t.state()) {
                        let e = Bastards::parse_command(t.state(), &seat, word);
                        assert!(
                            !matches!(e, Err(CommandParseError::Unknown { .. })),
                            "{word}: {e:?}"
                        );
                    }
                }
            }
        }
        submit(&mut t, line, &mut r).unwrap();
    }
    let e = Bastards::parse_command(t.state(), &Seat::Gm, "juggle").unwrap_err();
    let CommandParseError::Unknown { known, .. } = e else {
        panic!("{e:?}")
    };
    let names: Vec<&str> = Bastards::COMMANDS.iter().map(|d| d.name).collect();
    assert_eq!(known, names.join(", "));
    // The usage in an argument error is the reference's.
    let e = Bastards::parse_command(t.state(), &Seat::Gm, "attack").unwrap_err();
    let CommandParseError::Arguments { usage, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(
        usage,
        find_command(Bastards::COMMANDS, "attack").unwrap().usage
    );
}

/// Issue 18: a character with spaces in its name works quoted, in any letter
/// case and by unique prefix (`_` still works); so do skills, Traits and
/// Specialties. An ambiguous prefix and an unknown name are refused listing
/// the names that fit, and nothing changes.
#[test]
fn names_match_quoted_in_any_case_and_by_unique_prefix() {
    let t = load();
    let gm = Seat::Gm;
    let stella = Seat::Player("Stella".into());
    let fate = |who: &str, skill: &str, tr: Trait| Command::Fate {
        who: who.into(),
        skill: skill.into(),
        trait_used: tr,
        modifier: 0,
        acrobat: false,
        specialty: None,
    };
    for line in [
        r#"fate "The investor" Business Mind"#,
        r#"FATE "the INVESTOR" business MIND"#,
        r#"fate "the inv" bus m"#,
        "fate The_Investor BUSINESS mind",
        "check investor Business Mind",
    ] {
        assert_eq!(
            Bastards::parse_command(t.state(), &gm, line).unwrap(),
            fate("The investor", "Business", Trait::Mind),
            "{line}"
        );
    }
    assert_eq!(
        Bastards::parse_command(t.state(), &stella, r#"fate cyn "unarmed COMBAT" body"#).unwrap(),
        fate("Cynthia", "Unarmed Combat", Trait::Body)
    );
    // A book skill the sheet does not list is still a skill ("Skills").
    assert_eq!(
        Bastards::parse_command(t.state(), &stella, r#"fate Cynthia "Rope Combat" Body"#).unwrap(),
        fate("Cynthia", "Rope Combat", Trait::Body)
    );
    // Keyword options take quoted values, by prefix too (`spec="inv"`).
    let blaine = Seat::Player("Blaine".into());
    for line in [
        r#"fate kodos tech MIND SPEC="Invent" 2"#,
        r#"fate Kodos Technology Mind spec="inv" +2"#,
    ] {
        let cmd = Bastards::parse_command(t.state(), &blaine, line).unwrap();
        assert!(
            matches!(&cmd, Command::Fate { specialty: Some(s), modifier: 2, skill, .. } if s == "Invent" && skill == "Technology"),
            "{line}: {cmd:?}"
        );
    }
    let e = Bastards::parse_command(
        t.state(),
        &blaine,
        "fate Kodos Technology Mind spec=Knitting",
    )
    .unwrap_err();
    assert!(e.to_string().contains("Invent"), "{e}");
    // Ambiguous: Cynthia and Carlton.
    let e = Bastards::parse_command(t.state(), &stella, "fate c Business Mind").unwrap_err();
    match &e {
        CommandParseError::Name(NameLookupError::Ambiguous { matches, .. }) => {
            assert!(matches.contains(&"Cynthia".to_string()), "{e}");
            assert!(matches.contains(&"Carlton".to_string()), "{e}");
        }
        _ => panic!("{e:?}"),
    }
    let e = Bastards::parse_command(t.state(), &stella, "fate Cynthia Basketry Mind").unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Name(NameLookupError::Unknown { field, .. }) if field == "skill"),
        "{e:?}"
    );
    assert!(e.to_string().contains("Business"), "{e}");
    let e = Bastards::parse_command(t.state(), &stella, "fate Cynthia Business Toe").unwrap_err();
    assert!(e.to_string().contains("Body, Spirit, Mind, Luck"), "{e}");
    let e = Bastards::parse_command(t.state(), &stella, r#"fate "Ana Maria" Business Mind"#)
        .unwrap_err();
    assert!(e.to_string().contains("The investor"), "{e}");
    let e =
        Bastards::parse_command(t.state(), &stella, r#"fate "Cynthia Business Mind"#).unwrap_err();
    assert!(matches!(e, CommandParseError::Grammar(_)), "{e:?}");
    // Refused lines change nothing: the table is as loaded.
    assert_eq!(t.state(), load().state());
    assert!(t.log().is_empty());
}

/// Issue 18: cards keep the book's syntax (`QH`, `"queen of hearts"`, `best`)
/// and a card of the seat's own hand is found by unique prefix; a card that is
/// no card is refused listing only that seat's own hand (R-GB-12).
#[test]
fn cards_are_named_by_syntax_or_by_the_seats_own_hand() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    submit(&mut t, "gm: begin", &mut r).unwrap();
    let stella = Seat::Player("Stella".into());
    let hand = c(&t, "Cynthia").hand.clone();
    let first = hand[0].to_string();
    let cmd =
        Bastards::parse_command(t.state(), &stella, "init cynthia \"queen of hearts\"").unwrap();
    assert_eq!(
        cmd,
        Command::Init {
            who: "Cynthia".into(),
            card: "QH".into()
        }
    );
    let cmd =
        Bastards::parse_command(t.state(), &stella, &format!("init cynthia {first}")).unwrap();
    assert!(matches!(cmd, Command::Init { card, .. } if card == first));
    let e = Bastards::parse_command(t.state(), &stella, "init Cynthia Xylophone").unwrap_err();
    let text = e.to_string();
    for k in &hand {
        assert!(text.contains(&k.to_string()), "{text}");
    }
    // Another seat's refusal lists only its own hand, never Cynthia's.
    let blaine = Seat::Player("Blaine".into());
    let e = Bastards::parse_command(t.state(), &blaine, "init Cynthia Xylophone").unwrap_err();
    let CommandParseError::Name(NameLookupError::Unknown { candidates, .. }) = e else {
        panic!("{e:?}")
    };
    assert_eq!(candidates, ["best", "lowest"]);
}

/// Issue 18: `sheet` lays out the index card; pools and hand only for the
/// seat that commands the character (R-GB-12), even the Dealer sees a
/// player's as hidden.
#[test]
fn the_sheet_shows_pools_and_hand_only_to_their_seat() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    submit(&mut t, "gm: begin", &mut r).unwrap();
    let stella = Seat::Player("Stella".into());
    let own = Bastards::sheet(t.state(), &stella, None).unwrap();
    assert!(own.starts_with("Cynthia (Fated"), "{own}");
    assert!(own.contains("Body") && own.contains("BP "), "{own}");
    let hand: Vec<String> = c(&t, "Cynthia")
        .hand
        .iter()
        .map(|k| k.to_string())
        .collect();
    assert!(own.contains(&format!("Hand: {}", hand.join(" "))), "{own}");
    assert!(!own.contains("Kodos"), "{own}");
    let dealer = Bastards::sheet(t.state(), &Seat::Gm, Some("cyn")).unwrap();
    assert!(dealer.contains("BP hidden"), "{dealer}");
    assert!(dealer.contains("Hand: 5 cards (hidden)"), "{dealer}");
    let all = Bastards::sheet(t.state(), &Seat::Gm, None).unwrap();
    for c in &t.state().combatants {
        assert!(all.contains(&c.name), "{all}");
    }
    let inv = Bastards::sheet(t.state(), &Seat::Gm, Some("\"THE INVESTOR\"")).unwrap();
    assert!(inv.starts_with("The investor"), "{inv}");
    let inv = Bastards::sheet(t.state(), &Seat::Gm, Some("the inv")).unwrap();
    assert!(inv.contains("LP 15/15"), "{inv}");
    let e = Bastards::sheet(t.state(), &stella, Some("Nobody")).unwrap_err();
    assert!(e.to_string().contains("Cynthia, Kodos"), "{e}");
}

/// Every shipped script plays through with seed 1 as the terminal reads it:
/// the `SEAT:` prefix split by the core grammar against the table's seats,
/// the rest parsed by the system, no line refused.
#[test]
fn every_shipped_script_plays_through_as_the_terminal_reads_it() {
    use tabula_core::grammar::seat_prefix;
    let dir = examples();
    for (table_file, script_file) in [
        ("table.toml", "encounter.script"),
        ("indirect.toml", "indirect.script"),
    ] {
        let text = std::fs::read_to_string(dir.join(table_file)).unwrap();
        let mut t = Table::<Bastards>::new(Bastards::setup(&text, &dir).unwrap());
        let mut r = Seeded::from_seed(1);
        let script = std::fs::read_to_string(dir.join(script_file)).unwrap();
        for line in script
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let seats = Bastards::seats(t.state());
            let (seat, body) = seat_prefix(line, &seats)
                .unwrap_or_else(|| (Bastards::default_seat(t.state()), line));
            let cmd = Bastards::parse_command(t.state(), &seat, body)
                .unwrap_or_else(|e| panic!("{script_file}: {line}: {e}"));
            t.submit(&seat, &cmd, &mut r)
                .unwrap_or_else(|e| panic!("{script_file}: {line}: {e}"));
        }
        assert!(Bastards::finished(t.state()), "{script_file}");
    }
}

/// After the Dealer's `finish` the status says the encounter is over, for
/// every seat, not the phase it stopped in (issue 27, bug 4: "round 2 - scene"
/// after the end), and nobody may act.
#[test]
fn after_finish_the_status_says_the_encounter_is_over() {
    let mut t = load();
    let mut r = Seeded::from_seed(1);
    for line in script().iter().take(7) {
        submit(&mut t, line, &mut r).unwrap();
    }
    submit(&mut t, "gm: finish", &mut r).unwrap();
    assert!(Bastards::finished(t.state()));
    for seat in seats(t.state()) {
        let status = Bastards::status(t.state(), &seat);
        let first = status.lines().next().unwrap_or_default();
        assert!(first.ends_with("the encounter is over"), "{seat}: {status}");
        assert!(status.contains("may: nothing now"), "{seat}: {status}");
    }
}
