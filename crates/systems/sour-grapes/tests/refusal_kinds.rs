//! Refusals a caller can match by kind (issue 26, item 6): each kind Sour
//! Grapes uses besides `Forbidden` — `Spent`, `AlreadyUsed`, `NotHeld`,
//! `Condition` — triggered through the text commands and `Table::submit`, with
//! the book's words in the kind and the table unchanged.

mod common;

use common::*;
use tabula_core::{Refusal, RuleError, Scripted, Table, TextPlay};
use tabula_sour_grapes::SourGrapes;

/// Parse `line` as its seat and submit it; it must be refused and change
/// nothing. The refusal.
fn refusal(t: &mut Table<SourGrapes>, line: &str) -> RuleError {
    let (seat, body) = seat_and_body(t.state(), line);
    let cmd = SourGrapes::parse_command(t.state(), &seat, &body)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let before = t.clone();
    let e = t
        .submit(&seat, &cmd, &mut Scripted::default())
        .expect_err(line);
    assert!(*t == before, "{line}: a refusal changed the table");
    e
}

fn with_experience() -> Table<SourGrapes> {
    table_from(&TWO_SHEETS.replace("title = \"test\"", "title = \"test\"\nexperience = true"))
}

/// Too little of what the command spends: experience points ("Experience"),
/// a depleted stat's points ("Spend").
#[test]
fn spent_names_what_runs_short() {
    let mut t = with_experience();
    let e = refusal(&mut t, "Sam: raise Agility");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "experience points"),
        "{e:?}"
    );
    assert!(e.message.contains("no experience points"), "{e}");
    // The Ogre's Might is at 0: nothing to spend.
    let e = refusal(&mut t, "gm: spend Might as Ogre");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "Might points"),
        "{e:?}"
    );
    assert!(e.message.contains("nothing to spend"), "{e}");
}

/// Done as often as allowed: one initiative per Event (R-SG-8), one free point
/// per turn ("Turn Mechanics" step 1).
#[test]
fn already_used_names_what_was_used() {
    let mut t = table_from(TWO_SHEETS);
    // Two 1s exhaust two points of Agility.
    give(
        &mut t,
        "Sam: check Agility 2 vs 0",
        &mut Scripted::dice([1, 1]),
    );
    give(&mut t, "gm: event", &mut Scripted::dice([]));
    give(
        &mut t,
        "Sam: initiative Agility 3",
        &mut Scripted::dice([4, 5, 6]),
    );
    let e = refusal(&mut t, "Sam: initiative Agility 3");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "Initiative"),
        "{e:?}"
    );
    give(
        &mut t,
        "gm: initiative Knowledge 1",
        &mut Scripted::dice([1]),
    );
    assert_eq!(t.state().turn().unwrap().controller, "Hero");
    give(&mut t, "Sam: recover Agility", &mut Scripted::dice([]));
    let e = refusal(&mut t, "Sam: recover Agility");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "free point"),
        "{e:?}"
    );
    assert_eq!(e.message, "the free point of this turn is used");
}

/// The character lacks what the command names: a card it does not hold
/// ("Experience"), an effect it does not have in play ("Effects").
#[test]
fn not_held_names_what_is_lacking() {
    let mut t = with_experience();
    give(&mut t, "gm: award 1 as Ogre", &mut Scripted::dice([]));
    let e = refusal(&mut t, "gm: improve Shove easier as Ogre");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Shove"),
        "{e:?}"
    );
    assert!(e.message.contains("Ogre does not hold Shove"), "{e}");
    let e = refusal(&mut t, "gm: cure Flame Weapon as Hero");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Flame Weapon"),
        "{e:?}"
    );
}

/// The character's condition forbids it: Dying allows no check (R-SG-12); an
/// injured stat does not recover ("Stat Mechanics").
#[test]
fn condition_names_the_condition() {
    let text = TWO_SHEETS.replacen(
        "vitality = 6",
        "vitality = { actual = 6, current = 0, injured = true }",
        1,
    );
    let mut t = table_from(&text);
    let e = refusal(&mut t, "Sam: check Agility 1 vs 1");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "Dying"),
        "{e:?}"
    );
    assert!(e.message.contains("R-SG-12"), "{e}");
    let mut t = table_from(TWO_SHEETS);
    let e = refusal(&mut t, "gm: adjust Ogre Might +1");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "injured Might"),
        "{e:?}"
    );
    assert_eq!(
        e.message,
        "Might is injured and does not recover until healed"
    );
}
