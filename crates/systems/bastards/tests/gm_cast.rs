//! The Dealer's (GM's) `add` and `remove` (issue 27, item 6): a participant
//! brought in (a copy of one the table loaded or of the book's bundled
//! sheets) or taken out mid-encounter, from the log, the GM's only, no card
//! lost or duplicated, and every refusal changes nothing.

mod common;
use common::*;
use std::path::PathBuf;
use tabula_bastards::Bastards;
use tabula_bastards::command::Command;
use tabula_bastards::event::Event;
use tabula_bastards::gm::{GM_TOOLS, bundled, kinds};
use tabula_bastards::state::{Body, Phase, State};
use tabula_core::roller::{Scripted, Seeded};
use tabula_core::sheet::SheetDoc;
use tabula_core::system::{ParamKind, Table};
use tabula_core::testkit;
use tabula_core::{Refusal, Seat, System, TextPlay};

const A_HAND: [&str; 5] = ["2C", "9S", "5H", "KD", "4H"];
const B_HAND: [&str; 5] = ["3C", "7S", "6H", "QD", "8H"];

fn table() -> Table<Bastards> {
    opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        A_HAND,
        B_HAND,
        "10C",
    )
}

fn example_table() -> Table<Bastards> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards");
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Bastards::setup(&text, &dir).unwrap())
}

/// Every card of the shoe is somewhere: the deck, the discard pile, a hand,
/// an initiative card or the opposed hand on the table (R-GB-1: 108).
fn cards(s: &State) -> usize {
    let table = match &s.phase {
        Phase::Exchange(x) => {
            x.attacker_down.iter().count()
                + x.defender_down.iter().count()
                + x.attacker_up.len()
                + x.defender_up.len()
        }
        _ => 0,
    };
    s.shoe.pile().len()
        + s.shoe.discards().len()
        + table
        + s.combatants
            .iter()
            .map(|c| c.hand.len() + c.initiative.iter().count())
            .sum::<usize>()
}

fn names(doc: &SheetDoc) -> Vec<String> {
    doc.characters.iter().map(|c| c.name.clone()).collect()
}

#[test]
fn the_four_bundled_sheets_are_characters_and_are_kinds() {
    let b: Vec<&str> = bundled().iter().map(|c| c.name()).collect();
    assert_eq!(b, ["Carlton", "Cynthia", "Kodos", "The investor"]);
    let t = table();
    let k: Vec<String> = kinds(t.state()).into_iter().map(|(n, _)| n).collect();
    assert_eq!(k, ["Carlton", "Cynthia", "Kodos", "The investor"]);
    // The example table loads four Fated, a Follower and Extras: each is a
    // kind once (its own, not the bundled copy).
    let t = example_table();
    let k: Vec<String> = kinds(t.state()).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        k,
        [
            "Cynthia",
            "Kodos",
            "The investor",
            "Carlton",
            "Bodyguard",
            "Thugs"
        ]
    );
}

#[test]
fn an_added_participant_joins_mid_opposition_draws_and_acts_and_it_replays() {
    let mut t = table();
    let before = cards(t.state());
    let mut r = Seeded::from_seed(3);
    submit(&mut t, "gm: add kodos", &mut r).unwrap();
    let k = c(&t, "Kodos");
    assert_eq!(k.controller, Seat::Gm);
    assert!(k.added && k.present && !k.removed);
    // A hand of five drawn, the lowest played as initiative.
    assert_eq!(k.hand.len(), 4);
    let init = k.initiative.expect("an initiative card");
    assert!(matches!(&k.body, Body::Fated { character, .. } if character.name() == "Kodos"));
    assert_eq!(cards(t.state()), before);
    match &t.log().entries()[t.log().len() - 3].event {
        Event::Added { kind, combatant } => {
            assert_eq!(kind, "Kodos");
            assert_eq!(combatant.name, "Kodos");
            assert!(combatant.hand.is_empty());
        }
        e => panic!("{e:?}"),
    }
    // It is on every seat's sheets, its hand hidden from everyone but the GM.
    for seat in [Seat::Gm, Seat::parse("a"), Seat::parse("b")] {
        let doc = Bastards::sheet_doc(t.state(), &seat);
        assert!(names(&doc).contains(&"Kodos".to_string()), "{seat}");
    }
    let gm_text = Bastards::sheet(t.state(), &Seat::Gm, Some("Kodos")).unwrap();
    let a_text = Bastards::sheet(t.state(), &Seat::parse("a"), Some("Kodos")).unwrap();
    assert!(gm_text.contains(&init.to_string()), "{gm_text}");
    assert!(a_text.contains("hidden"), "{a_text}");
    // Play on until Kodos' turn: it draws and acts like anyone at the table.
    for _ in 0..12 {
        if let Phase::Turn { actor, drawn } = t.state().phase.clone() {
            let who = t.state().combatants[actor].name.clone();
            let seat = if who == "Kodos" {
                "gm"
            } else {
                &who.to_lowercase()
            };
            if !drawn {
                submit(&mut t, &format!("{seat}: draw"), &mut r).unwrap();
            }
            if who == "Kodos" {
                let hand = c(&t, "Kodos").hand.len();
                assert_eq!(hand, 5, "Kodos drew its hand's card");
                submit(&mut t, "gm: attack A unarmed", &mut r).unwrap();
                assert!(matches!(&t.state().phase, Phase::Exchange(x) if x.defender == 0));
                assert_eq!(cards(t.state()), before);
                testkit::assert_replay_rebuilds(&t);
                return;
            }
            submit(&mut t, &format!("{seat}: pass"), &mut r).unwrap();
        }
    }
    panic!("Kodos never acted: {:?}", t.state().phase);
}

#[test]
fn copies_of_loaded_characters_take_free_names_and_the_seat_given() {
    let mut t = example_table();
    let mut r = Seeded::from_seed(1);
    run_seeded(
        &mut t,
        &["gm: add Thugs", "gm: add kodos as Rival to blaine"],
        &mut r,
    );
    // Before any Opposition: in the scene, nothing drawn.
    let thugs = c(&t, "Thugs 2");
    assert!(matches!(
        thugs.body,
        Body::Extras {
            members: 3,
            power: 2
        }
    ));
    assert!(thugs.hand.is_empty() && thugs.initiative.is_none());
    let rival = c(&t, "Rival");
    assert_eq!(rival.controller, Seat::parse("Blaine"));
    assert!(matches!(&rival.body, Body::Fated { character, .. } if character.name() == "Kodos"));
    run_seeded(&mut t, &["gm: add kodos", "gm: add kodos as Kodos"], &mut r);
    assert!(t.state().combatants.iter().any(|c| c.name == "Kodos 2"));
    assert!(t.state().combatants.iter().any(|c| c.name == "Kodos 3"));
    // A copy of one brought in absent (Carlton waits outside) is in the scene.
    submit(&mut t, "gm: add carlton", &mut r).unwrap();
    assert!(c(&t, "Carlton 2").present);
    // The Opposition deals every newcomer its hand.
    submit(&mut t, "gm: begin", &mut r).unwrap();
    assert_eq!(c(&t, "Thugs 2").hand.len(), 3);
    assert_eq!(c(&t, "Rival").hand.len(), 5);
    assert_eq!(cards(t.state()), 108);
    // Guests' sheets are not written back to a campaign.
    let after: Vec<String> = tabula_bastards::advance::sheets_after(t.state())
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(after, ["Cynthia", "Kodos", "The investor", "Carlton"]);
    testkit::assert_replay_rebuilds(&t);
}

fn run_seeded(t: &mut Table<Bastards>, lines: &[&str], r: &mut Seeded) {
    for l in lines {
        submit(t, l, r).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
}

#[test]
fn a_removed_participants_cards_go_to_the_discard_pile_and_its_turn_ends() {
    let mut t = table();
    let before = cards(t.state());
    let discards = t.state().shoe.discards().len();
    // A is acting (its draw step done): five cards in hand and 2C as initiative.
    assert_eq!(c(&t, "A").hand.len(), 5);
    submit(&mut t, "gm: remove A", &mut Scripted::values(["4C"])).unwrap();
    let a = c(&t, "A");
    assert!(a.removed && !a.active());
    assert!(a.hand.is_empty() && a.initiative.is_none());
    assert_eq!(t.state().shoe.discards().len(), discards + 6);
    assert_eq!(cards(t.state()), before);
    // B's turn now; A is no target, and not among the GM's `remove` choices.
    assert!(matches!(t.state().phase, Phase::Turn { actor: 1, .. }));
    assert!(
        submit(&mut t, "b: draw", &mut Scripted::values(["4C"])).is_ok(),
        "B acts"
    );
    let e = submit(&mut t, "b: attack A unarmed", &mut Scripted::values(["5C"]));
    assert!(e.is_err());
    let gm = Bastards::legal_commands(t.state(), &Seat::Gm);
    let remove = gm.iter().find(|s| s.name == "remove").unwrap();
    assert_eq!(
        remove.params[0].kind,
        ParamKind::Choice {
            options: vec!["B".into()]
        }
    );
    // Its sheet says so.
    let text = Bastards::sheet(t.state(), &Seat::parse("a"), Some("A")).unwrap();
    assert!(text.contains("removed from the encounter"), "{text}");
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn removing_one_in_the_opposed_hand_abandons_it() {
    let mut t = table();
    let mut r = Scripted::values(["4C", "5C"]);
    run(&mut t, &["a: attack B unarmed", "a: play 9S"], &mut r);
    assert!(matches!(t.state().phase, Phase::Exchange(_)));
    let before = cards(t.state());
    submit(&mut t, "gm: remove B", &mut r).unwrap();
    // The hand is abandoned, A's face-down card discarded, and the round goes
    // on with A alone.
    assert!(!matches!(t.state().phase, Phase::Exchange(_)));
    assert!(
        t.state()
            .shoe
            .discards()
            .iter()
            .any(|k| k.to_string() == "9S")
    );
    assert_eq!(cards(t.state()), before);
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn refusals_name_the_rule_and_change_nothing() {
    let mut t = table();
    let before = t.clone();
    let none = || Scripted::values(Vec::<String>::new());
    for line in ["a: remove B", "b: add Kodos"] {
        let e = submit(&mut t, line, &mut none()).unwrap_err();
        assert_eq!(e.kind, Refusal::NotPermitted, "{line}");
        assert_eq!(e.rule, GM_TOOLS, "{line}");
    }
    // Unknown names: the parser lists the names that fit; `decide` refuses a
    // command built without it with the kind Unknown.
    assert!(parse(&t, "gm: remove Nobody").1.is_err());
    assert!(parse(&t, "gm: add Nobody").1.is_err());
    assert!(parse(&t, "gm: add Kodos to nobody").1.is_err());
    assert!(parse(&t, "gm: add Kodos with Kodos").1.is_err());
    let cases = [
        Command::Remove {
            who: "Nobody".into(),
        },
        Command::Add {
            kind: "Nobody".into(),
            name: None,
            to: None,
            sheet: None,
        },
        Command::Add {
            kind: "Kodos".into(),
            name: None,
            to: Some(Seat::parse("nobody")),
            sheet: None,
        },
    ];
    for cmd in cases {
        let e = t.submit(&Seat::Gm, &cmd, &mut none()).unwrap_err();
        assert!(matches!(e.kind, Refusal::Unknown { .. }), "{cmd:?}: {e:?}");
    }
    let e = t
        .submit(
            &Seat::Gm,
            &Command::Add {
                kind: "Kodos".into(),
                name: Some("bad\u{7}name".into()),
                to: None,
                sheet: None,
            },
            &mut none(),
        )
        .unwrap_err();
    assert_eq!(e.kind, Refusal::Forbidden);
    assert_eq!(t, before);
    // Removed twice.
    submit(&mut t, "gm: remove B", &mut none()).unwrap();
    let after = t.clone();
    let e = submit(&mut t, "gm: remove B", &mut none()).unwrap_err();
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "removed"),
        "{e:?}"
    );
    // A removed Fated cannot make an Appearance back.
    let e = t
        .submit(
            &Seat::parse("b"),
            &Command::Appear { who: "B".into() },
            &mut none(),
        )
        .unwrap_err();
    assert_eq!(e.rule, GM_TOOLS);
    assert_eq!(t, after);
    // Outside the encounter (finished): refused as the encounter is over.
    submit(&mut t, "gm: finish", &mut none()).unwrap();
    let finished = t.clone();
    for line in ["gm: remove A", "gm: add Kodos"] {
        let e = submit(&mut t, line, &mut none()).unwrap_err();
        assert_eq!(e.kind, Refusal::WrongPhase, "{line}");
    }
    assert_eq!(t, finished);
    assert!(Bastards::legal_commands(t.state(), &Seat::Gm).is_empty());
}

#[test]
fn add_and_remove_are_the_gms_legal_commands_with_choices() {
    let t = example_table();
    let gm = Bastards::legal_commands(t.state(), &Seat::Gm);
    let add = gm.iter().find(|s| s.name == "add").unwrap();
    let p: Vec<&str> = add.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(p, ["kind", "as name", "to seat"]);
    match &add.params[0].kind {
        ParamKind::ChoiceOrSheet { options } => {
            assert!(options.contains(&"Thugs".to_string()));
            assert!(options.contains(&"Kodos".to_string()));
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(add.params[1].kind, ParamKind::Text);
    assert_eq!(
        add.params[2].kind,
        ParamKind::Choice {
            options: vec!["gm".into(), "Stella".into(), "Blaine".into(), "Pat".into()]
        }
    );
    assert!(gm.iter().any(|s| s.name == "remove"));
    for player in ["Stella", "Blaine"] {
        let legal = Bastards::legal_commands(t.state(), &Seat::parse(player));
        assert!(!legal.iter().any(|s| s.name == "add" || s.name == "remove"));
    }
    // Every spelling the page writes parses.
    for line in [
        "gm: add Thugs",
        "gm: add \"The investor\" as \"Second investor\" to Stella",
        "gm: add Kodos to gm",
        "gm: remove Thugs",
    ] {
        assert!(parse(&t, line).1.is_ok(), "{line}");
    }
}

#[test]
fn the_log_says_who_came_and_went_without_a_card() {
    let mut t = table();
    let mut r = Seeded::from_seed(5);
    submit(&mut t, "gm: add Cynthia as Guest to b", &mut r).unwrap();
    submit(&mut t, "gm: remove Guest", &mut r).unwrap();
    let texts: Vec<String> = t
        .log()
        .entries()
        .iter()
        .map(|e| Bastards::describe(t.state(), &e.event))
        .collect();
    assert!(
        texts.iter().any(
            |l| l == "The GM brings Guest (a copy of Cynthia) into the encounter, played by b."
        ),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|l| l.starts_with("The GM takes Guest out of the encounter")),
        "{texts:?}"
    );
}
