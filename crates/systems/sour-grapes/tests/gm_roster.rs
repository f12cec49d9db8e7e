//! The storyteller's `add` and `remove` (issue 27, item 6): a participant
//! joins or leaves mid-encounter through the log; the newcomer is carried
//! whole by its event (replay reads no file); cards are never lost or
//! duplicated; refusals change nothing.

mod common;
use common::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use tabula_core::testkit;
use tabula_core::{Refusal, Scripted, Seat, Seeded, System, Table, TextPlay};
use tabula_sour_grapes::command::Command;
use tabula_sour_grapes::event::Event;
use tabula_sour_grapes::state::State;
use tabula_sour_grapes::{SourGrapes, Stat, gm};

fn names(t: &Table<SourGrapes>) -> Vec<String> {
    t.state().participant_names()
}

fn gm_legal(t: &Table<SourGrapes>) -> Vec<String> {
    SourGrapes::legal_commands(t.state(), &Seat::Gm)
        .into_iter()
        .map(|c| c.name)
        .collect()
}

/// The refusal of `cmd` from `seat`, checked to change nothing.
fn refused(t: &mut Table<SourGrapes>, seat: &Seat, cmd: &Command) -> tabula_core::RuleError {
    let before = t.clone();
    let e = t
        .submit(seat, cmd, &mut Scripted::default())
        .expect_err("refused");
    assert!(*t == before, "a refusal changed the table");
    e
}

#[test]
fn a_second_tavern_brute_joins_fresh_with_its_cards_and_can_check() {
    let mut t = example_table();
    // The original is hurt first: the copy is fresh all the same.
    give(
        &mut t,
        "gm: adjust \"Tavern Brute\" Vitality -4",
        &mut Scripted::default(),
    );
    give(&mut t, "gm: add Tavern Brute", &mut Scripted::default());
    let s = t.state();
    let brute = s.participant("Tavern Brute").unwrap();
    let two = s.participant("Tavern Brute 2").expect("the newcomer");
    assert_eq!(two.seat, Seat::Gm);
    assert_eq!(two.cards, brute.cards);
    assert_eq!(two.comparable, brute.comparable);
    assert!(two.character.is_monster());
    assert_eq!(two.character.stat(Stat::Vitality).current, 9);
    assert_eq!(brute.character.stat(Stat::Vitality).current, 5);
    let last = t.log().entries().last().unwrap().event.clone();
    assert!(
        matches!(&last, Event::Joined { participant, .. } if participant.character.name() == "Tavern Brute 2")
    );
    assert_eq!(
        SourGrapes::describe(t.state(), &last),
        "The storyteller brings Tavern Brute 2 into the encounter (the storyteller's; cards: Attack, Dodge, Shove)."
    );
    // The sheet shows it, to every seat.
    let doc =
        serde_json::to_string(&SourGrapes::sheet_doc(t.state(), &Seat::parse("Sam"))).unwrap();
    assert!(doc.contains("Tavern Brute 2"), "{doc}");
    // It acts: a check, from the storyteller's seat.
    let mut dice = Scripted::dice([6, 6, 6]);
    give(
        &mut t,
        "gm: check Might 3 vs 1 as \"Tavern Brute 2\"",
        &mut dice,
    );
    assert!(matches!(
        &t.log().entries().last().unwrap().event,
        Event::Rolled { who, .. } if who == "Tavern Brute 2"
    ));
    // A taken name gets " 2", " 3", ...; `as NAME` names it.
    give(&mut t, "gm: add Tavern Brute", &mut Scripted::default());
    give(
        &mut t,
        "gm: add Rook as \"Tavern Brute\"",
        &mut Scripted::default(),
    );
    assert!(names(&t).ends_with(&[
        "Tavern Brute 2".to_string(),
        "Tavern Brute 3".to_string(),
        "Tavern Brute 4".to_string()
    ]));
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn a_bundled_sheet_joins_a_table_that_never_loaded_it() {
    let mut t = table_from(TWO_SHEETS);
    assert!(gm::kinds(t.state()).contains(&"Rook".to_string()));
    give(
        &mut t,
        "GM: add rook as Crow to sam",
        &mut Scripted::default(),
    );
    let crow = t.state().participant("Crow").unwrap().clone();
    assert_eq!(crow.seat, Seat::parse("Sam"));
    // Dealt as the table deals a sheet without a list: every action card.
    let action: Vec<String> = t
        .state()
        .cards
        .iter()
        .filter(|c| c.kind != tabula_sour_grapes::CardType::Effect)
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(crow.cards, action);
    assert!(crow.character.skill("Ninjitsu").is_some());
    // The book's example character is fresh: its injured Resolve 2/4 is full.
    give(&mut t, "GM: add Example Player", &mut Scripted::default());
    let ex = t.state().participant("Example Player").unwrap();
    assert_eq!(ex.character.stat(Stat::Resolve).current, 4);
    assert!(!ex.character.stat(Stat::Resolve).injured);
    // Sam now plays two characters; the newcomer can check as Sam's.
    let mut dice = Scripted::dice([5, 5]);
    give(&mut t, "Sam: check Agility 2 vs 1 as Crow", &mut dice);
    // Replay from the log alone: the newcomer is in its event.
    let replayed = Table::<SourGrapes>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(&replayed, t.state());
    // Every bundled sheet is a valid character.
    assert_eq!(gm::bundled().len(), gm::BUNDLED_SHEETS.len());
}

#[test]
fn a_newcomer_rolls_initiative_or_joins_the_end_of_the_order_and_takes_a_turn() {
    let mut t = example_table();
    let mut r = Seeded::from_seed(3);
    give(&mut t, "gm: event", &mut r);
    // While initiative is rolled, the newcomer rolls too.
    give(&mut t, "gm: add Drunk Sailor as Deckhand", &mut r);
    assert_eq!(
        t.state().event().unwrap().initiative.get("Deckhand"),
        Some(&None)
    );
    assert!(gm_legal(&t).iter().any(|c| c == "giveback"));
    assert!(gm_legal(&t).iter().any(|c| c == "heal"));
    for l in [
        "Sam: initiative Agility 5",
        "Ana: initiative Perception 7",
        "gm: initiative Might 5 as Tavern Brute",
        "gm: initiative Agility 4 as Drunk Sailor",
        "gm: initiative Agility 2 as Deckhand",
    ] {
        give(&mut t, l, &mut r);
    }
    let order = t.state().event().unwrap().order.clone();
    assert_eq!(order.len(), 5);
    assert!(order.contains(&"Deckhand".to_string()));
    // Once the order is settled, a newcomer is last in it.
    give(&mut t, "gm: add Tavern Brute as Bouncer", &mut r);
    assert_eq!(
        t.state().event().unwrap().order.last().map(String::as_str),
        Some("Bouncer")
    );
    let doc = serde_json::to_string(&SourGrapes::sheet_doc(t.state(), &Seat::Gm)).unwrap();
    assert!(doc.contains("joined after initiative"), "{doc}");
    // giveback and heal are offered during the turns too (issue 27).
    let legal = gm_legal(&t);
    for c in ["giveback", "heal", "adjust", "add", "remove"] {
        assert!(legal.iter().any(|n| n == c), "{c} in {legal:?}");
    }
    // Every turn ends with `end` until the Bouncer is the Controller.
    for _ in 0..8 {
        let Some(turn) = t.state().turn().cloned() else {
            break;
        };
        if turn.controller == "Bouncer" {
            break;
        }
        let seat = t
            .state()
            .participant(&turn.controller)
            .unwrap()
            .seat
            .clone();
        let cmd = SourGrapes::parse_command(t.state(), &seat, "end").unwrap();
        t.submit(&seat, &cmd, &mut r).unwrap();
    }
    assert_eq!(
        t.state().turn().map(|t| t.controller.as_str()),
        Some("Bouncer")
    );
    // The Bouncer plays a Stunt with its cards.
    give(&mut t, "gm: stunt Attack", &mut r);
    assert_eq!(
        t.state().turn().and_then(|t| t.stunt.as_deref()),
        Some("Attack")
    );
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn remove_takes_a_character_out_with_its_cards() {
    let mut t = example_table();
    let sailor = t.state().participant("Drunk Sailor").unwrap().clone();
    give(&mut t, "gm: remove Drunk", &mut Scripted::default());
    assert!(t.state().participant("Drunk Sailor").is_none());
    assert_eq!(t.state().left, vec![sailor]);
    assert_eq!(
        SourGrapes::describe(t.state(), &t.log().entries().last().unwrap().event),
        "The storyteller takes Drunk Sailor out of the encounter, with their cards."
    );
    // Its sheet is still written for the campaign.
    let after = <SourGrapes as tabula_core::CharacterBook>::sheets_after(t.state());
    assert!(after.iter().any(|s| s.name == "Drunk Sailor"));
    // A name that left is not reused: a copy is "Drunk Sailor 2".
    assert!(gm::kinds(t.state()).contains(&"Drunk Sailor".to_string()));
    give(&mut t, "gm: add Drunk Sailor", &mut Scripted::default());
    assert!(t.state().participant("Drunk Sailor 2").is_some());
    // A guest the storyteller added is not the campaign's: no sheet is
    // written back for it.
    let after = <SourGrapes as tabula_core::CharacterBook>::sheets_after(t.state());
    assert!(
        !after.iter().any(|s| s.name == "Drunk Sailor 2"),
        "{after:?}"
    );
    // Only a seat the table has may play a newcomer.
    let cmd = SourGrapes::parse_command(t.state(), &Seat::Gm, "add Rook to stranger").unwrap();
    let e = refused(&mut t, &Seat::Gm, &cmd);
    assert!(
        matches!(e.kind, tabula_core::Refusal::Unknown { .. }),
        "{e}"
    );
    // In an Event, leaving before initiative is settled may settle it.
    let mut r = Seeded::from_seed(1);
    give(&mut t, "gm: event", &mut r);
    for l in [
        "Sam: initiative Agility 5",
        "Ana: initiative Perception 7",
        "gm: initiative Might 5 as Tavern Brute",
    ] {
        give(&mut t, l, &mut r);
    }
    assert!(t.state().event().unwrap().order.is_empty());
    give(&mut t, "gm: remove \"Drunk Sailor 2\"", &mut r);
    let e = t.state().event().unwrap();
    assert_eq!(e.order.len(), 3);
    assert!(t.state().turn().is_some(), "the first turn began");
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn refusals_name_the_rule_and_change_nothing() {
    let mut t = example_table();
    let sam = Seat::parse("Sam");
    let add = Command::Add {
        kind: "Rook".into(),
        name: None,
        seat: None,
        sheet: None,
    };
    let e = refused(&mut t, &sam, &add);
    assert_eq!(e.kind, Refusal::NotPermitted);
    assert_eq!(e.rule, gm::GM_TOOLS);
    let e = refused(&mut t, &sam, &Command::Remove { who: "Rook".into() });
    assert_eq!(e.kind, Refusal::NotPermitted);
    let e = refused(
        &mut t,
        &Seat::Gm,
        &Command::Add {
            kind: "Dragon".into(),
            name: None,
            seat: None,
            sheet: None,
        },
    );
    assert!(matches!(e.kind, Refusal::Unknown { .. }), "{e}");
    assert!(e.to_string().contains("Tavern Brute"), "{e}");
    let e = refused(
        &mut t,
        &Seat::Gm,
        &Command::Remove {
            who: "Nobody".into(),
        },
    );
    assert!(matches!(e.kind, Refusal::Unknown { .. }), "{e}");
    let e = refused(
        &mut t,
        &Seat::Gm,
        &Command::Add {
            kind: "Rook".into(),
            name: Some("Bad:Name\u{7}".into()),
            seat: None,
            sheet: None,
        },
    );
    assert_eq!(e.kind, Refusal::Forbidden);
    // The parser refuses what names nothing.
    assert!(SourGrapes::parse_command(t.state(), &Seat::Gm, "add Dragon").is_err());
    assert!(SourGrapes::parse_command(t.state(), &Seat::Gm, "add").is_err());
    assert!(SourGrapes::parse_command(t.state(), &Seat::Gm, "remove").is_err());
    assert!(SourGrapes::parse_command(t.state(), &Seat::Gm, "remove Nobody").is_err());
    assert!(SourGrapes::parse_command(t.state(), &Seat::Gm, "add Rook as").is_err());
    // Mid-check: the Situation's character cannot leave.
    give(
        &mut t,
        "gm: situation 10 Prestige as Rook",
        &mut Scripted::default(),
    );
    let e = refused(&mut t, &Seat::Gm, &Command::Remove { who: "Rook".into() });
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(e.to_string().contains("Situation"), "{e}");
    give(&mut t, "gm: end-encounter", &mut Scripted::default());
    // Over: nothing is added or removed.
    let e = refused(&mut t, &Seat::Gm, &add);
    assert_eq!(e.kind, Refusal::WrongPhase);
    // Mid-turn: the Controller and a target cannot leave; others may.
    let mut t = example_table();
    let mut r = Seeded::from_seed(2);
    for l in [
        "gm: event",
        "Sam: initiative Agility 5",
        "Ana: initiative Perception 7",
        "gm: initiative Might 5 as Tavern Brute",
        "gm: initiative Agility 4 as Drunk Sailor",
    ] {
        give(&mut t, l, &mut r);
    }
    let controller = t.state().turn().unwrap().controller.clone();
    let e = refused(
        &mut t,
        &Seat::Gm,
        &Command::Remove {
            who: controller.clone(),
        },
    );
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(e.to_string().contains("Controller"), "{e}");
    let legal = SourGrapes::legal_commands(t.state(), &Seat::Gm);
    let remove = legal.iter().find(|c| c.name == "remove").unwrap();
    let offered = serde_json::to_string(remove).unwrap();
    assert!(!offered.contains(&format!("\"{controller}\"")), "{offered}");
    // The last character cannot leave.
    let mut one = table_from(TWO_SHEETS);
    give(&mut one, "GM: remove Ogre", &mut Scripted::default());
    let e = refused(&mut one, &Seat::Gm, &Command::Remove { who: "Hero".into() });
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(
        !gm_legal(&one).iter().any(|c| c == "remove"),
        "nobody may leave"
    );
}

#[test]
fn add_and_remove_are_documented_and_offered_with_choices() {
    let t = example_table();
    let help = tabula_sour_grapes::text::COMMANDS;
    for c in ["add", "remove"] {
        assert!(help.iter().any(|d| d.name == c), "{c} in help");
    }
    let legal = SourGrapes::legal_commands(t.state(), &Seat::Gm);
    let add = legal.iter().find(|c| c.name == "add").unwrap();
    let params: Vec<&str> = add.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(params, ["kind", "as", "to"]);
    let json = serde_json::to_string(add).unwrap();
    for k in [
        "Tavern Brute",
        "Example Player",
        "Rook",
        "Drunk Sailor",
        "GM",
        "Sam",
        "Ana",
    ] {
        assert!(json.contains(k), "{k} in {json}");
    }
    assert!(
        !SourGrapes::legal_commands(t.state(), &Seat::parse("Sam"))
            .iter()
            .any(|c| c.name == "add" || c.name == "remove")
    );
}

/// Every character's cards, at the table or gone from it, by name.
fn hands(s: &State) -> BTreeMap<String, Vec<String>> {
    s.participants
        .iter()
        .chain(&s.left)
        .map(|p| (p.character.name().to_string(), p.cards.clone()))
        .collect()
}

/// Cards are never lost or duplicated: every character (at the table or
/// gone) holds the cards it came with, names are unique, and every card on
/// the table in the turn in progress is played by a character at the table
/// who holds it.
fn conserved(s: &State, dealt: &BTreeMap<String, Vec<String>>) {
    let all = s.participants.len() + s.left.len();
    assert_eq!(hands(s).len(), all, "two characters share a name");
    assert_eq!(&hands(s), dealt, "a hand changed");
    if let Some(t) = s.turn() {
        let holds = |who: &str, card: &str| {
            s.participant(who)
                .is_some_and(|p| p.cards.iter().any(|c| c == card))
        };
        if let Some(c) = &t.stunt {
            assert!(holds(&t.controller, c), "the Stunt {c} left the table");
        }
        for p in t
            .interrupts
            .iter()
            .chain(&t.compliments)
            .chain(&t.diverts)
            .chain(t.compliment.iter())
            .chain(t.reactions.values().flatten())
        {
            assert!(holds(&p.by, &p.card), "{p:?} left the table");
        }
    }
    for e in s.event().into_iter().flat_map(|e| e.order.iter()) {
        assert!(s.participant(e).is_some(), "{e} is in the order but gone");
    }
}

fn roster_line() -> impl Strategy<Value = String> {
    let who = prop::sample::select(vec![
        "Example Player",
        "Rook",
        "Tavern Brute",
        "Drunk Sailor",
        "Tavern Brute 2",
        "Rook 2",
        "Ghost",
    ]);
    let kind = prop::sample::select(vec![
        "Tavern Brute",
        "Rook",
        "Drunk Sailor",
        "Example Player",
    ]);
    let play = prop::sample::select(vec![
        "gm: event",
        "Sam: initiative Agility 5",
        "Ana: initiative Perception 7",
        "gm: initiative Might 5 as Tavern Brute",
        "gm: initiative Agility 4 as Drunk Sailor",
        "gm: initiative Agility 2 as Tavern Brute 2",
        "gm: initiative Agility 2 as Rook 2",
        "Ana: stunt Attack",
        "Sam: stunt Attack",
        "gm: stunt Attack",
        "Sam: interrupt Shove 2 0",
        "gm: pass",
        "Ana: target Tavern Brute success 2 result 2",
        "Sam: target Rook success 2 result 2",
        "gm: target Rook success 2 result 2",
        "Ana: compliment Flame Weapon success 2 result 1",
        "gm: take as Tavern Brute",
        "Ana: take",
        "Sam: take",
        "Sam: end",
        "Ana: end",
        "gm: end",
        "gm: end-event",
    ]);
    prop_oneof![
        3 => play.prop_map(String::from),
        1 => (kind, prop::option::of(prop::sample::select(vec!["Sam", "gm"])))
            .prop_map(|(k, to)| match to {
                Some(to) => format!("gm: add {k} to {to}"),
                None => format!("gm: add {k}"),
            }),
        1 => who.prop_map(|w| format!("gm: remove \"{w}\"")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A random walk of play with `add` and `remove` among it: no card is ever
    /// lost or duplicated, refusals change nothing, and the log replays to the
    /// same state.
    #[test]
    fn add_and_remove_never_lose_or_duplicate_cards(
        lines in prop::collection::vec(roster_line(), 1..120),
        seed in 0u64..1000,
    ) {
        let mut t = example_table();
        let mut r = Seeded::from_seed(seed);
        let mut dealt = hands(t.state());
        for l in &lines {
            let before = t.clone();
            let n = t.log().len();
            match try_give(&mut t, l, &mut r) {
                Err(_) => prop_assert!(t == before, "a refusal changed the table: {l}"),
                Ok(()) => {
                    for e in &t.log().entries()[n..] {
                        if let Event::Joined { participant, .. } = &e.event {
                            dealt.insert(
                                participant.character.name().to_string(),
                                participant.cards.clone(),
                            );
                        }
                    }
                }
            }
            conserved(t.state(), &dealt);
        }
        testkit::assert_replay_rebuilds(&t);
    }
}

/// A player whose only character the storyteller takes out keeps the seat:
/// it may still watch, talk and be handed a newcomer (`add ... to SEAT`).
#[test]
fn removing_a_players_only_character_keeps_the_seat() {
    let mut t = example_table();
    let seats = |t: &Table<SourGrapes>| {
        let mut s: Vec<String> = SourGrapes::seats(t.state())
            .iter()
            .map(ToString::to_string)
            .collect();
        s.sort();
        s
    };
    let before = seats(&t);
    give(
        &mut t,
        "gm: remove \"Example Player\"",
        &mut Scripted::default(),
    );
    assert!(t.state().participant("Example Player").is_none());
    assert_eq!(seats(&t), before);
    give(
        &mut t,
        "gm: add Rook as Wren to Sam",
        &mut Scripted::default(),
    );
    assert_eq!(
        t.state().participant("Wren").map(|p| p.seat.to_string()),
        Some("Sam".to_string())
    );
    testkit::assert_replay_rebuilds(&t);
}
