//! The storyteller's `adjust` (issue 27, item 6): a stat's Current Stat Value
//! set or changed, from the log, the storyteller's only, in range, and at zero
//! injured as a spend or damage leaves it.

mod common;
use common::*;
use tabula_core::testkit;
use tabula_core::{Scripted, Seat, System, Table, TextPlay};
use tabula_sour_grapes::event::Event;
use tabula_sour_grapes::{SourGrapes, Stat};

fn stat_of(t: &Table<SourGrapes>, who: &str, stat: Stat) -> (u32, bool) {
    let v = t.state().participant(who).unwrap().character.stat(stat);
    (v.current, v.injured)
}

#[test]
fn the_storyteller_sets_and_changes_a_stat() {
    let mut t = table_from(TWO_SHEETS);
    give(
        &mut t,
        "GM: adjust Hero Agility 2",
        &mut Scripted::default(),
    );
    assert_eq!(stat_of(&t, "Hero", Stat::Agility), (2, false));
    let last = t.log().entries().last().unwrap().event.clone();
    assert_eq!(
        last,
        Event::Adjusted {
            who: "Hero".into(),
            stat: Stat::Agility,
            from: 5,
            to: 2
        }
    );
    assert_eq!(
        SourGrapes::describe(t.state(), &last),
        "The storyteller sets Hero's Agility to 2 (was 5)."
    );
    give(
        &mut t,
        "GM: adjust Hero Agility +1",
        &mut Scripted::default(),
    );
    assert_eq!(stat_of(&t, "Hero", Stat::Agility), (3, false));
    // Lowered to zero: injured, as a spend or damage leaves it (R-SG-13).
    give(
        &mut t,
        "GM: adjust Hero Perception -7",
        &mut Scripted::default(),
    );
    assert_eq!(stat_of(&t, "Hero", Stat::Perception), (0, true));
    testkit::assert_replay_rebuilds(&t);
    let replayed = Table::<SourGrapes>::replay(t.initial(), t.log(), t.log().len());
    let hero = replayed.participant("Hero").unwrap();
    assert_eq!(hero.character.stat(Stat::Agility).current, 3);
    assert!(hero.character.stat(Stat::Perception).injured);
}

#[test]
fn refusals_change_nothing() {
    let mut t = table_from(TWO_SHEETS);
    let before = t.clone();
    let e = try_give(
        &mut t,
        "Sam: adjust Hero Agility 2",
        &mut Scripted::default(),
    )
    .unwrap_err();
    assert!(e.contains("storyteller") || e.contains("GM"), "{e}");
    let e = try_give(
        &mut t,
        "GM: adjust Hero Agility 6",
        &mut Scripted::default(),
    )
    .unwrap_err();
    assert!(
        e.contains("between 0 and its Actual Stat Value 5, not 6"),
        "{e}"
    );
    let e = try_give(
        &mut t,
        "GM: adjust Hero Agility -6",
        &mut Scripted::default(),
    )
    .unwrap_err();
    assert!(e.contains("not -1"), "{e}");
    let max = format!("GM: adjust Hero Agility +{}", i64::MAX);
    assert!(try_give(&mut t, &max, &mut Scripted::default()).is_err());
    // An injured stat does not recover: heal it first.
    assert!(try_give(&mut t, "GM: adjust Ogre Might 2", &mut Scripted::default()).is_err());
    assert!(
        try_give(
            &mut t,
            "GM: adjust Nobody Might 2",
            &mut Scripted::default()
        )
        .is_err()
    );
    assert!(try_give(&mut t, "GM: adjust Hero Mana 2", &mut Scripted::default()).is_err());
    assert!(t == before);
    let gm = SourGrapes::legal_commands(t.state(), &Seat::Gm);
    assert!(gm.iter().any(|c| c.name == "adjust"));
    let sam = SourGrapes::legal_commands(t.state(), &Seat::parse("Sam"));
    assert!(!sam.iter().any(|c| c.name == "adjust"));
}
