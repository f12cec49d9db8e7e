//! The Dealer's (GM's) `adjust` (issue 27, item 6): pools, members and
//! Wildcards, from the log, the GM's only, in range, and a pool's numbers only
//! for its controller (R-GB-12).

mod common;
use common::*;
use tabula_bastards::Bastards;
use tabula_bastards::character::Trait;
use tabula_bastards::event::Event;
use tabula_bastards::gm::Value;
use tabula_core::roller::Scripted;
use tabula_core::system::Table;
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

fn adjusted(t: &Table<Bastards>) -> Event {
    t.log().entries().last().unwrap().event.clone()
}

#[test]
fn the_gm_sets_and_changes_a_pool_and_it_replays() {
    let mut t = table();
    // A: Body 2, so BP 10 when full.
    assert_eq!(c(&t, "A").pool(Trait::Body), 10);
    submit(
        &mut t,
        "gm: adjust A bp 7",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap();
    assert_eq!(c(&t, "A").pool(Trait::Body), 7);
    assert_eq!(
        adjusted(&t),
        Event::Adjusted {
            who: 0,
            value: Value::Pool(Trait::Body),
            from: 10,
            to: 7
        }
    );
    submit(
        &mut t,
        "gm: adjust A bp -2",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap();
    submit(
        &mut t,
        "gm: adjust B wildcards +3",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap();
    assert_eq!(c(&t, "A").pool(Trait::Body), 5);
    assert_eq!(c(&t, "B").wildcards, 3);
    testkit::assert_replay_rebuilds(&t);
    let replayed = Table::<Bastards>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(replayed.combatants[0].pool(Trait::Body), 5);
    assert_eq!(replayed.combatants[1].wildcards, 3);
}

#[test]
fn only_the_controller_reads_the_new_pool() {
    let mut t = table();
    submit(
        &mut t,
        "gm: adjust A sp 3",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap();
    let e = adjusted(&t);
    let own = Bastards::describe_for(t.state(), &e, &Seat::parse("a"));
    assert_eq!(own, "The GM sets A's SP to 3 (was 5).");
    for seat in [Seat::parse("b"), Seat::Gm] {
        let other = Bastards::describe_for(t.state(), &e, &seat);
        assert_eq!(other, "The GM adjusts A's SP.");
        assert!(!other.contains('3') && !other.contains('5'), "{other}");
    }
    let shared = Bastards::describe(t.state(), &e);
    assert!(!shared.contains('3'), "{shared}");
    for seat in [Seat::parse("a"), Seat::parse("b"), Seat::Gm] {
        assert_eq!(Bastards::event_for(t.state(), &e, &seat), None);
    }
}

#[test]
fn refusals_change_nothing() {
    let mut t = table();
    let before = t.clone();
    let e = submit(
        &mut t,
        "a: adjust A bp 3",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap_err();
    assert_eq!(e.kind, Refusal::NotPermitted);
    // The GM does not see A's pool: the range, no number.
    let e = submit(
        &mut t,
        "gm: adjust A bp +1",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap_err();
    assert_eq!(e.kind, Refusal::Forbidden);
    assert!(e.message.contains("between 0 and 10"), "{}", e.message);
    let e = submit(
        &mut t,
        "gm: adjust A bp 11",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap_err();
    assert!(e.message.contains("between 0 and 10"), "{}", e.message);
    let e = submit(
        &mut t,
        &format!("gm: adjust A bp +{}", i64::MAX),
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap_err();
    assert!(e.message.contains("between 0 and 10"), "{}", e.message);
    let e = submit(
        &mut t,
        "gm: adjust A members 2",
        &mut Scripted::values(Vec::<String>::new()),
    )
    .unwrap_err();
    assert!(
        e.message.contains("bp, sp, mp, lp, wildcards"),
        "{}",
        e.message
    );
    assert_eq!(t, before);
    assert!(parse(&t, "gm: adjust Nobody bp 1").1.is_err());
    assert!(parse(&t, "gm: adjust A hp 1").1.is_err());
    assert!(parse(&t, "gm: adjust A bp lots").1.is_err());
}

#[test]
fn a_pool_set_to_zero_is_desperation_and_the_legal_list_is_the_gms() {
    let mut t = table();
    // Emptying a pool: Desperate, and A draws Spirit (1) cards.
    submit(&mut t, "gm: adjust A lp 0", &mut Scripted::values(["2D"])).unwrap();
    assert!(c(&t, "A").desperate());
    // Five after initiative and the draw step, and the Desperation card.
    assert_eq!(c(&t, "A").hand.len(), 5 + 1);
    assert!(c(&t, "A").hand.iter().any(|k| k.to_string() == "2D"));
    testkit::assert_replay_rebuilds(&t);
    let gm = Bastards::legal_commands(t.state(), &Seat::Gm);
    assert!(gm.iter().any(|s| s.name == "adjust"));
    let a = Bastards::legal_commands(t.state(), &Seat::parse("a"));
    assert!(!a.iter().any(|s| s.name == "adjust"));
}
