//! Issue 26, item 6: refusals a caller can match by kind. Each kind the book
//! uses besides `Forbidden` is triggered here through the table's text
//! commands (`Table::submit`), and the refusal changes nothing.

use std::path::PathBuf;

use tabula_core::system::{Seat, Table, TextPlay};
use tabula_core::{Refusal, RuleError, Scripted};
use tabula_sapio::character::CycleChange;
use tabula_sapio::{Command, Sapio};

fn table() -> Table<Sapio> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio");
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Sapio::setup(&text, &dir).unwrap())
}

/// Give `line` as `who`; panics on refusal.
fn ok(t: &mut Table<Sapio>, who: &str, line: &str) {
    ok_rolling(t, who, line, &["H"; 12]);
}

/// Give `line` as `who` with the Spiral Die faces `faces`; panics on refusal.
fn ok_rolling(t: &mut Table<Sapio>, who: &str, line: &str, faces: &[&str]) {
    let s = Seat::parse(who);
    let cmd = Sapio::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&s, &cmd, &mut Scripted::values(faces.iter().copied()))
        .unwrap_or_else(|e| panic!("{line}: {e}"));
}

/// Give `line` as `who`, expect a refusal, and check nothing changed.
fn refused(t: &mut Table<Sapio>, who: &str, line: &str) -> RuleError {
    let s = Seat::parse(who);
    let cmd = Sapio::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    refused_cmd(t, who, &cmd)
}

/// Submit `cmd` as `who` without the parser (as a JSON client does), expect a
/// refusal, and check nothing changed.
fn refused_cmd(t: &mut Table<Sapio>, who: &str, cmd: &Command) -> RuleError {
    let before = t.state().clone();
    let n = t.log().len();
    let e = t
        .submit(&Seat::parse(who), cmd, &mut Scripted::values(["H"; 12]))
        .expect_err("a refusal");
    assert_eq!(t.state(), &before, "{cmd:?} changed the state");
    assert_eq!(t.log().len(), n);
    e
}

/// "Luck": spent one for one; Wren holds 1, so 2 is more than she has.
#[test]
fn luck_beyond_what_is_held_is_spent() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 3");
    let e = refused(&mut t, "Ana", "luck 2");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "Luck"),
        "{e:?}"
    );
    assert!(e.message.contains("has 1 Luck"), "{e}");
}

/// A change spends a completed advancement cycle; Wren has none.
#[test]
fn a_change_without_a_completed_cycle_is_spent() {
    let mut t = table();
    ok(&mut t, "GM", "end-session consequential");
    let e = refused(&mut t, "Ana", "change Wren quality Agile to Lithe");
    assert!(
        matches!(&e.kind, Refusal::Spent { resource } if resource == "completed advancement cycle"),
        "{e:?}"
    );
}

/// One Profession, one Quality, each Special Talent once, one declaration per
/// roll; a dedicated element is not invoked for a simultaneous task.
#[test]
fn what_a_roll_allows_once_is_already_used() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 3");
    ok(&mut t, "Ana", "invoke Roof Runner full");
    let e = refused(&mut t, "Ana", "invoke Roof Runner full");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "Profession"),
        "{e:?}"
    );
    ok(&mut t, "Ana", "invoke Agile");
    let e = refused(&mut t, "Ana", "invoke Agile");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "Quality"),
        "{e:?}"
    );
    ok(&mut t, "Ben", "help Brannoc Battle-hardened");
    let e = refused(&mut t, "Ben", "help Brannoc Battle-hardened");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "help"),
        "{e:?}"
    );

    let mut t = table();
    ok(&mut t, "GM", "check Sable 1");
    ok(&mut t, "Cy", "talent Deadly Aim");
    let e = refused(&mut t, "Cy", "talent Deadly Aim");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "Special Talent"),
        "{e:?}"
    );
}

/// "Action Sequences in Play": each participant is focal once a round, and a
/// supporting element is dedicated for the round.
#[test]
fn the_focal_turn_and_a_dedicated_element_are_already_used() {
    let mut t = table();
    ok(&mut t, "GM", "begin-sequence Escape");
    ok(&mut t, "GM", "threaten Wren");
    ok(&mut t, "Ben", "enter-fray Brannoc");
    ok(&mut t, "GM", "frame The roof door bursts open");
    ok(&mut t, "Ana", "focal Wren");
    ok(&mut t, "GM", "tn 2");
    ok(&mut t, "Ben", "support Brannoc Battle-hardened");
    ok(&mut t, "Ana", "roll");
    ok(&mut t, "GM", "frame Brannoc's turn");
    let e = refused(&mut t, "Ana", "focal Wren");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "focal turn"),
        "{e:?}"
    );
    ok(&mut t, "Ben", "focal Brannoc");
    ok(&mut t, "GM", "tn 1");
    let e = refused(&mut t, "Ben", "invoke Battle-hardened");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "dedicated element"),
        "{e:?}"
    );
}

/// R-SA-9: one advancement per consequential session; the cycle rule: every
/// type once before one repeats.
#[test]
fn an_advancement_taken_is_already_used() {
    let mut t = table();
    ok(&mut t, "GM", "end-session consequential");
    ok(&mut t, "Ana", "advance Wren quality Durable");
    let e = refused(&mut t, "Ana", "advance Wren specialization Quick Escapes");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "advancement"),
        "{e:?}"
    );
    ok(&mut t, "GM", "check Vance 1");
    ok(&mut t, "GM", "roll");
    ok(&mut t, "GM", "end-session consequential");
    let e = refused(&mut t, "Ana", "advance Wren quality Likeable");
    assert!(
        matches!(&e.kind, Refusal::AlreadyUsed { what } if what == "advancement type"),
        "{e:?}"
    );
    assert!(e.message.contains("cycle"), "{e}");
}

/// `release CHARACTER` ends an ongoing task; a character with no element
/// dedicated to one has nothing to release.
#[test]
fn nothing_dedicated_is_not_held() {
    let mut t = table();
    let e = refused(&mut t, "GM", "release Wren");
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "element dedicated to an ongoing task"),
        "{e:?}"
    );
}

/// A second Severe Injury or Stress debilitates: no check for Wren; a
/// threatened character must take a turn and does not leave the fray.
#[test]
fn a_condition_forbids_it() {
    let mut t = table();
    ok(&mut t, "GM", "stress Wren severe Terrified");
    ok(&mut t, "GM", "stress Wren severe Broken");
    let e = refused(&mut t, "GM", "check Wren 1");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "debilitated"),
        "{e:?}"
    );

    let mut t = table();
    ok(&mut t, "GM", "begin-sequence Escape");
    ok(&mut t, "GM", "threaten Wren");
    let e = refused(&mut t, "Ana", "leave-fray Wren");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "threatened"),
        "{e:?}"
    );
}

/// A completed cycle pays for one change, but only of what the sheet holds: a
/// Quality or Side Profession Wren does not have is not held.
#[test]
fn a_change_of_what_the_sheet_lacks_is_not_held() {
    let mut t = table();
    for advance in [
        "advance Wren quality Durable",
        "advance Wren specialization Quick Escapes",
        "advance Wren side-specialization Night Clerk Haggling",
        r#"advance Wren talent Weather Sense text="Knows when the rain comes""#,
    ] {
        ok(&mut t, "GM", "end-session consequential");
        ok(&mut t, "Ana", advance);
        ok(&mut t, "GM", "check Vance 1");
        ok(&mut t, "GM", "roll");
    }
    ok(&mut t, "GM", "end-session consequential");
    // The parser names the Qualities that fit; a client sending the command
    // itself meets the same rule in `decide`.
    let change = |change| Command::Change {
        character: 0,
        change,
    };
    let e = refused_cmd(
        &mut t,
        "Ana",
        &change(CycleChange::Quality {
            from: "Stubborn".into(),
            to: "Lithe".into(),
        }),
    );
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Quality"),
        "{e:?}"
    );
    let e = refused_cmd(
        &mut t,
        "Ana",
        &change(CycleChange::Swap {
            side: "Lamplighter".into(),
        }),
    );
    assert!(
        matches!(&e.kind, Refusal::NotHeld { what } if what == "Side Profession"),
        "{e:?}"
    );
    ok(&mut t, "Ana", "change Wren quality Agile to Lithe");
}

/// Past Severe a weapon kills (R-SA-4): the dead take no check and are not
/// attacked again.
#[test]
fn the_dead_are_in_no_condition_to_act_or_be_attacked() {
    let mut t = table();
    ok(&mut t, "GM", "check Brannoc 1");
    ok(&mut t, "Ben", "invoke Arcane Knight full");
    ok_rolling(
        &mut t,
        "Ben",
        "roll with Sword at Vance",
        &["HH", "HH", "HH"],
    );
    assert!(t.state().characters[3].character.dead());
    let e = refused(&mut t, "GM", "check Vance 1");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "dead"),
        "{e:?}"
    );
    ok(&mut t, "GM", "check Sable 1");
    let e = refused(&mut t, "Cy", "roll with Knife at Vance");
    assert!(
        matches!(&e.kind, Refusal::Condition { condition } if condition == "dead"),
        "{e:?}"
    );
}
