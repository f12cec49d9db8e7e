//! The table: the book's worked procedures replayed with scripted dice, the
//! example encounter, refusals that change nothing, and property tests.

use std::path::PathBuf;

use proptest::prelude::*;
use tabula_core::system::{ParamKind, Seat, System, Table, TextPlay};
use tabula_core::testkit::{self, Choice};
use tabula_core::{Refusal, Roller, Scripted, Seeded};
use tabula_sapio::checks::Net;
use tabula_sapio::event::Event;
use tabula_sapio::harm::{Damage, Level};
use tabula_sapio::invoking::ProfessionUse;
use tabula_sapio::setup::SetupError;
use tabula_sapio::state::Until;
use tabula_sapio::{Sapio, State};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio")
}

fn table() -> Table<Sapio> {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Table::new(Sapio::setup(&text, &dir).unwrap())
}

fn seat(s: &str) -> Seat {
    Seat::parse(s)
}

/// Give `line` as `who`; panics on refusal (for the happy paths).
fn ok(t: &mut Table<Sapio>, who: &str, line: &str, roller: &mut dyn Roller) -> Vec<Event> {
    let s = seat(who);
    let cmd = Sapio::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    t.submit(&s, &cmd, roller)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .iter()
        .map(|l| l.event.clone())
        .collect()
}

/// Give `line` as `who`, expect a refusal, and check nothing changed.
fn refused(t: &mut Table<Sapio>, who: &str, line: &str) -> tabula_core::RuleError {
    let s = seat(who);
    let before = t.state().clone();
    let n = t.log().len();
    let cmd = Sapio::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let err = t
        .submit(&s, &cmd, &mut Scripted::values(["H"; 12]))
        .expect_err(line);
    assert_eq!(t.state(), &before, "{line} changed the state");
    assert_eq!(t.log().len(), n);
    err
}

/// Give `line` as `who`, expect the parser to refuse a name (listing the
/// names that fit), and check nothing changed. Returns the error's text.
fn refused_name(t: &mut Table<Sapio>, who: &str, line: &str) -> String {
    let before = t.state().clone();
    let e = Sapio::parse_command(t.state(), &seat(who), line).expect_err(line);
    assert!(
        matches!(e, tabula_core::system::CommandParseError::Name(_)),
        "{line}: {e:?}"
    );
    assert_eq!(t.state(), &before);
    e.to_string()
}

fn none() -> Scripted {
    Scripted::default()
}

fn rolled(
    events: &[Event],
) -> (
    &tabula_sapio::checks::PoolSpec,
    &tabula_sapio::checks::CheckRoll,
    &Option<(String, Damage)>,
) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Rolled {
                spec, roll, weapon, ..
            } => Some((spec, roll, weapon)),
            _ => None,
        })
        .expect("a roll")
}

fn built(t: &Table<Sapio>) -> (u32, u32) {
    let c = t.state().check.as_ref().unwrap();
    let m = &t.state().characters[c.focal];
    (c.built(), c.bonus(&m.character))
}

/// "When you invoke a character element": one die, the Main Profession fully
/// applicable (two), a Specialization of it, a Quality, then bonus dice to six,
/// and each two bonus dice past six lower the TN by 1 (R-SA-2).
#[test]
fn the_pool_is_built_step_by_step() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 3", &mut none());
    assert_eq!(built(&t), (1, 0), "1. You always roll at least one die");
    ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    assert_eq!(built(&t), (3, 0), "2a. fully applicable: two dice");
    ok(&mut t, "Ana", "invoke Leaping", &mut none());
    assert_eq!(built(&t), (4, 0), "3. a Specialization of it");
    ok(&mut t, "Ana", "invoke Agile", &mut none());
    assert_eq!(built(&t), (5, 0), "4. one Quality");
    ok(&mut t, "Ben", "help Brannoc Battle-hardened", &mut none());
    ok(&mut t, "Cy", "help Sable Quick", &mut none());
    ok(&mut t, "Ana", "luck 1", &mut none());
    ok(&mut t, "GM", "bonus 1", &mut none());
    assert_eq!(built(&t), (5, 4), "5. bonus dice: help, Luck, the GM's");
    let ev = ok(
        &mut t,
        "Ana",
        "roll",
        &mut Scripted::values(["H", "HH", "S", "blank", "@", "H@"]),
    );
    let (spec, roll, _) = rolled(&ev);
    assert_eq!((spec.built, spec.bonus, spec.tn), (5, 4, 3));
    // 9 dice: six rolled, three past six: TN 3 - 1 = 2, one lost.
    assert_eq!(roll.pool.dice, 6);
    assert_eq!(roll.pool.tn, 2);
    assert_eq!(roll.pool.bonus_lost, 1);
    assert_eq!(roll.rolls[0].len(), 6);
    assert_eq!(roll.hits, 4);
    assert!(roll.success);
    assert_eq!(roll.extra_hits, 2);
    assert_eq!(roll.net, Net::Spirals(1));
    // Luck was spent; the check is over and (not ongoing) locks nothing.
    assert_eq!(t.state().characters[0].character.luck(), 0);
    assert!(t.state().characters.iter().all(|m| m.locked.is_empty()));
}

#[test]
fn one_profession_one_specialization_of_it_one_quality() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 2", &mut none());
    let e = refused(&mut t, "Ana", "invoke Leaping");
    assert!(e.message.contains("invoke that Profession first"), "{e}");
    ok(&mut t, "Ana", "invoke Night Clerk", &mut none());
    assert_eq!(built(&t), (2, 0), "a Side Profession gives one die");
    refused(&mut t, "Ana", "invoke Roof Runner full");
    refused(&mut t, "Ana", "invoke Leaping");
    ok(&mut t, "Ana", "invoke Agile", &mut none());
    let e = refused(&mut t, "Ana", "invoke Perceptive");
    assert!(e.message.contains("only one Quality"));
    let e = refused(&mut t, "Ana", "invoke Hide in Plain Sight");
    assert!(matches!(e.kind, Refusal::Unknown { .. }));
}

/// "Invoking an Element": an element invoked for an ongoing task cannot serve a
/// simultaneous one, except the Main Profession (one die, fully applicable).
#[test]
fn ongoing_tasks_lock_their_elements_except_the_main_profession() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 2 ongoing", &mut none());
    ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    ok(&mut t, "Ana", "invoke Leaping", &mut none());
    ok(&mut t, "Ana", "invoke Agile", &mut none());
    ok(&mut t, "Ana", "roll", &mut Scripted::values(["H"; 5]));
    assert_eq!(t.state().characters[0].locked.len(), 3);
    ok(&mut t, "GM", "check Wren 2", &mut none());
    let e = refused(&mut t, "Ana", "invoke Roof Runner partial");
    assert!(e.message.contains("fully applicable"), "{e}");
    let ev = ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    assert!(matches!(
        ev[0],
        Event::Invoked {
            step: tabula_sapio::event::Step::Profession(ProfessionUse::MainAgain),
            ..
        }
    ));
    assert_eq!(built(&t), (2, 0), "the Main Profession again gives one die");
    refused(&mut t, "Ana", "invoke Agile");
    ok(&mut t, "Ana", "invoke Perceptive", &mut none());
    ok(
        &mut t,
        "Ana",
        "roll",
        &mut Scripted::values(["H", "H", "H"]),
    );
    // Net Spares may allow an element to be invoked again.
    ok(&mut t, "GM", "release Wren Agile", &mut none());
    assert_eq!(t.state().characters[0].locked.len(), 2);
    let e = refused_name(&mut t, "GM", "release Wren Agile");
    assert!(e.contains("Roof Runner, Leaping"), "{e}");
    ok(&mut t, "GM", "release Wren", &mut none());
    assert!(t.state().characters[0].locked.is_empty());
    refused(&mut t, "GM", "release Wren");
}

#[test]
fn help_is_one_element_each_and_never_a_talent_or_principle() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 3", &mut none());
    let e = refused(&mut t, "Ben", "help Brannoc Spellcaster");
    assert!(e.message.contains("Special Talents cannot"), "{e}");
    refused(&mut t, "Ben", "help Brannoc Protect the weak");
    refused(&mut t, "Ana", "help Wren Agile");
    refused(&mut t, "Ana", "help Brannoc Pyromancy");
    ok(&mut t, "Ben", "help Brannoc Pyromancy", &mut none());
    refused(&mut t, "Ben", "help Brannoc Battle-hardened");
    assert_eq!(built(&t), (1, 1));
}

/// R-SA-8: the Principle or Worst Impulse die needs the GM's acceptance.
#[test]
fn principle_bonus_die_needs_the_gm() {
    let mut t = table();
    ok(&mut t, "GM", "check Wren 3", &mut none());
    ok(
        &mut t,
        "Ana",
        "declare principle Wren leaps into the brawl to stop it",
        &mut none(),
    );
    assert_eq!(built(&t), (1, 0));
    let e = refused(&mut t, "Ana", "roll");
    assert!(e.rule.ruling == Some("R-SA-8"));
    refused(&mut t, "Ana", "accept");
    ok(&mut t, "GM", "accept", &mut none());
    assert_eq!(built(&t), (1, 1));
    refused(&mut t, "Ana", "declare impulse one more");
    ok(&mut t, "GM", "tn 2", &mut none());
    ok(&mut t, "Ana", "roll", &mut Scripted::values(["H", "H"]));
    ok(&mut t, "GM", "check Wren 3", &mut none());
    ok(
        &mut t,
        "Ana",
        "declare impulse Wren pockets the ledger",
        &mut none(),
    );
    ok(&mut t, "GM", "reject", &mut none());
    assert_eq!(built(&t), (1, 0));
}

#[test]
fn luck_is_gained_and_spent() {
    let mut t = table();
    ok(&mut t, "GM", "luck-principle Wren", &mut none());
    assert_eq!(t.state().characters[0].character.luck(), 2);
    ok(&mut t, "GM", "luck-impulse Wren Brannoc", &mut none());
    assert_eq!(t.state().characters[1].character.luck(), 1);
    refused(&mut t, "GM", "luck-impulse Wren Wren");
    refused(&mut t, "Ana", "luck-principle Wren");
    refused(&mut t, "GM", "give-luck Wren 4");
    ok(&mut t, "GM", "check Wren 3", &mut none());
    refused(&mut t, "Ana", "luck 3");
    ok(&mut t, "Ana", "luck 2", &mut none());
    assert_eq!(built(&t), (1, 2));
    ok(
        &mut t,
        "Ana",
        "roll",
        &mut Scripted::values(["H", "H", "H"]),
    );
    assert_eq!(t.state().characters[0].character.luck(), 0);
}

/// "Action Sequences in Play": the GM frames, the players choose a focal
/// character who has not been focal this round, supporters invoke one element,
/// locked for the round; the round ends when all have been focal; entering the
/// fray only at a round's start.
#[test]
fn action_sequence_rounds() {
    let mut t = table();
    ok(&mut t, "GM", "begin-sequence Escape", &mut none());
    refused(&mut t, "GM", "frame Nobody is here yet");
    ok(&mut t, "GM", "threaten Wren", &mut none());
    ok(&mut t, "Ben", "enter-fray Brannoc", &mut none());
    refused(&mut t, "Ben", "enter-fray Sable");
    refused(&mut t, "Ana", "focal Wren");
    ok(&mut t, "GM", "frame The roof door bursts open", &mut none());
    refused(&mut t, "Cy", "enter-fray Sable");
    refused(&mut t, "GM", "focal Sable");
    ok(&mut t, "Ana", "focal Wren", &mut none());
    refused(&mut t, "Ana", "roll");
    ok(&mut t, "GM", "tn 2", &mut none());
    ok(
        &mut t,
        "Ben",
        "support Brannoc Battle-hardened",
        &mut none(),
    );
    ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    ok(
        &mut t,
        "Ana",
        "roll",
        &mut Scripted::values(["H", "H", "H", "H"]),
    );
    assert!(
        t.state().characters[1]
            .locked
            .iter()
            .any(|l| l.element == "Battle-hardened" && l.until == Until::RoundEnd)
    );
    ok(&mut t, "GM", "frame Brannoc's turn", &mut none());
    refused(&mut t, "Ana", "focal Wren");
    ok(&mut t, "Ben", "focal Brannoc", &mut none());
    ok(&mut t, "GM", "tn 1", &mut none());
    let e = refused(&mut t, "Ben", "invoke Battle-hardened");
    assert!(e.message.contains("simultaneous"));
    let ev = ok(&mut t, "Ben", "roll", &mut Scripted::values(["H"]));
    assert!(matches!(ev.last(), Some(Event::RoundEnded { round: 1 })));
    let s = t.state().sequence.as_ref().unwrap();
    assert_eq!(s.round, 2);
    assert!(s.participants.iter().all(|p| !p.focal_done));
    assert!(t.state().characters.iter().all(|m| m.locked.is_empty()));
    // A new round: Sable may enter the fray now; Brannoc (not threatened) may
    // leave; Wren was threatened last round, this round only if the GM says so.
    ok(&mut t, "Cy", "enter-fray Sable", &mut none());
    ok(&mut t, "GM", "threaten Wren", &mut none());
    refused(&mut t, "Ana", "leave-fray Wren");
    ok(&mut t, "Ben", "leave-fray Brannoc", &mut none());
    assert_eq!(t.state().sequence.as_ref().unwrap().participants.len(), 2);
    ok(&mut t, "GM", "frame Round two", &mut none());
    refused(&mut t, "Cy", "leave-fray Sable");
    ok(&mut t, "GM", "end-sequence", &mut none());
    assert!(t.state().sequence.is_none());
}

/// R-SA-5: the TN starts at 1, each element the defender invokes adds 1, to 5.
#[test]
fn character_versus_character() {
    let mut t = table();
    ok(&mut t, "GM", "confront Brannoc Sable", &mut none());
    refused(&mut t, "GM", "tn 3");
    refused(&mut t, "Ben", "defend Tough");
    // R-SA-11: the fully applicable Main Profession raises the TN by its two
    // dice (Wilderness Survival would make it 5: see
    // `r_sa_11_the_defender_raises_the_tn_by_the_dice_and_nobody_spends_luck`).
    for (el, tn) in [("Tough", 2), ("Desert Commando", 4)] {
        ok(&mut t, "Cy", &format!("defend {el}"), &mut none());
        assert_eq!(t.state().check.as_ref().unwrap().tn, Some(tn));
    }
    let e = refused(&mut t, "Cy", "defend Field Medic");
    assert_eq!(e.rule.ruling, Some("R-SA-5"));
    refused(&mut t, "Cy", "help Sable Field Medic");
    ok(&mut t, "Ben", "invoke Arcane Knight full", &mut none());
    ok(&mut t, "Ben", "invoke Pyromancy", &mut none());
    let ev = ok(
        &mut t,
        "Ben",
        "roll with Sword",
        &mut Scripted::values(["HH", "HH", "H", "H"]),
    );
    let (_, roll, weapon) = rolled(&ev);
    assert_eq!((roll.hits, roll.extra_hits), (6, 2));
    // A Moderate weapon needs two extra Hits to become Severe (R-SA-4).
    assert_eq!(
        weapon,
        &Some(("Sword".to_string(), Damage::Injury(Level::Severe)))
    );
    // The attack is against the defender: the Injury is on Sable's sheet.
    assert_eq!(
        t.state().characters[2]
            .character
            .injuries()
            .severe
            .as_deref(),
        Some("Sword")
    );
}

/// Character versus Character (R-SA-11): each element the defender invokes
/// raises the TN by the dice it would add (a fully applicable Main Profession
/// 2, a partly applicable one 1, a Specialization 1, a Quality 1), so 5 is
/// reachable; "Players may not add luck to this": neither side spends Luck.
#[test]
fn r_sa_11_the_defender_raises_the_tn_by_the_dice_and_nobody_spends_luck() {
    let mut t = table();
    // Sable (2 Luck) attacks Brannoc.
    ok(&mut t, "GM", "confront Sable Brannoc", &mut none());
    for (el, tn) in [
        ("\"Arcane Knight\" full", 3),
        ("Pyromancy", 4),
        ("Battle-hardened", 5),
    ] {
        ok(&mut t, "Ben", &format!("defend {el}"), &mut none());
        assert_eq!(t.state().check.as_ref().unwrap().tn, Some(tn), "{el}");
    }
    // The aggressor may not add Luck; the defender neither.
    let e = refused(&mut t, "Cy", "luck 1");
    assert_eq!(e.rule.ruling, Some("R-SA-11"));
    refused(&mut t, "Ben", "luck 1");
    assert_eq!(t.state().characters[2].character.luck(), 2);
    ok(&mut t, "Cy", "invoke Desert Commando full", &mut none());
    let ev = ok(
        &mut t,
        "Cy",
        "roll",
        &mut Scripted::values(["HH", "HH", "H"]),
    );
    let (spec, roll, _) = rolled(&ev);
    assert_eq!((spec.tn, spec.bonus, roll.success), (5, 0, true));
    assert_eq!(t.state().characters[2].character.luck(), 2);

    // A partly applicable Main Profession raises it by 1.
    let mut t = table();
    ok(&mut t, "GM", "confront Brannoc Sable", &mut none());
    ok(&mut t, "Cy", "defend Tough", &mut none());
    ok(&mut t, "Cy", "defend Desert Commando partial", &mut none());
    ok(&mut t, "Cy", "defend Wilderness Survival", &mut none());
    assert_eq!(t.state().check.as_ref().unwrap().tn, Some(4));
    let e = refused(&mut t, "Ben", "luck 1");
    assert_eq!(e.rule.ruling, Some("R-SA-11"));
}

/// R-SA-12 at the table: a magic Quality or Special Talent gained alone at
/// the end-of-session step is kept, marked unpaired, and gives nothing (not
/// invoked, not called out, no help) until its pair comes.
#[test]
fn r_sa_12_a_lone_magic_half_gives_nothing_until_its_pair() {
    let mut t = table();
    ok(&mut t, "GM", "end-session consequential", &mut none());
    let ev = ok(
        &mut t,
        "Ana",
        "advance Wren quality Magically Trained",
        &mut none(),
    );
    let said = Sapio::describe(t.state(), &ev[0]);
    assert!(said.contains("marked unpaired"), "{said}");
    ok(
        &mut t,
        "Cy",
        "advance Sable talent Spellcaster",
        &mut none(),
    );
    let sheet = |t: &Table<Sapio>, i: usize| t.state().characters[i].character.sheet().clone();
    assert_eq!(sheet(&t, 0).unpaired.as_deref(), Some("Magically Trained"));
    assert_eq!(sheet(&t, 2).unpaired.as_deref(), Some("Spellcaster"));
    ok(&mut t, "GM", "check Wren 2", &mut none());
    let e = refused(&mut t, "Ana", "invoke Magically Trained");
    assert_eq!(e.rule.ruling, Some("R-SA-12"));
    refused(&mut t, "Ben", "help Wren Magically Trained");
    ok(&mut t, "GM", "roll", &mut Scripted::values(["H"]));
    ok(&mut t, "GM", "check Sable 2", &mut none());
    let e = refused(&mut t, "Cy", "talent Spellcaster");
    assert_eq!(e.rule.ruling, Some("R-SA-12"));
    ok(&mut t, "GM", "roll", &mut Scripted::values(["H"]));
    // The sheets the table leaves keep the mark and validate.
    let after = <Sapio as tabula_core::CharacterBook>::sheets_after(t.state());
    for s in &after {
        <Sapio as tabula_core::CharacterBook>::validate(&s.sheet)
            .unwrap_or_else(|p| panic!("{}: {p:?}", s.name));
    }
    assert!(after[0].sheet.contains("unpaired = \"Magically Trained\""));
    // The pair completes at the next advancement, and the Quality gives its die.
    ok(&mut t, "GM", "end-session consequential", &mut none());
    ok(
        &mut t,
        "Ana",
        r#"advance Wren talent Spellcaster text="This character can cast magical spells""#,
        &mut none(),
    );
    assert_eq!(sheet(&t, 0).unpaired, None);
    ok(&mut t, "GM", "check Wren 2", &mut none());
    ok(&mut t, "Ana", "invoke Magically Trained", &mut none());
    ok(&mut t, "Ana", "talent Spellcaster", &mut none());
}

/// A fight: an Action Sequence with the aggressor focal first; both fighters'
/// TNs come from the other's elements, which stay invoked through the round.
#[test]
fn a_fight_is_an_action_sequence() {
    let mut t = table();
    ok(&mut t, "GM", "fight Vance Wren", &mut none());
    ok(&mut t, "GM", "frame Vance charges", &mut none());
    let e = refused(&mut t, "Ana", "focal Wren");
    assert!(e.message.contains("aggressor"));
    ok(&mut t, "GM", "focal Vance", &mut none());
    ok(&mut t, "Ana", "defend Agile", &mut none());
    ok(&mut t, "GM", "invoke Gang Enforcer full", &mut none());
    let ev = ok(
        &mut t,
        "GM",
        "roll with Large Dagger",
        &mut Scripted::values(["HH", "H", "H"]),
    );
    let (_, roll, weapon) = rolled(&ev);
    assert_eq!((roll.pool.tn, roll.extra_hits), (2, 2));
    assert_eq!(
        weapon,
        &Some(("Large Dagger".into(), Damage::Injury(Level::Severe)))
    );
    assert!(
        t.state().characters[0]
            .locked
            .iter()
            .any(|l| l.element == "Agile")
    );
    // The dagger's Severe Injury is on Wren already (R-SA-4, no GM step).
    assert_eq!(
        t.state().characters[0]
            .character
            .injuries()
            .severe
            .as_deref(),
        Some("Large Dagger")
    );
    ok(&mut t, "GM", "frame Wren reels", &mut none());
    ok(&mut t, "Ana", "focal Wren", &mut none());
    assert_eq!(t.state().check.as_ref().unwrap().versus, Some(3));
    refused(&mut t, "Ana", "invoke Agile");
    ok(&mut t, "GM", "defend Imposing", &mut none());
    ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    // TN 2 from Vance, +2 for the Severe Injury (R-SA-7).
    let ev = ok(
        &mut t,
        "Ana",
        "roll",
        &mut Scripted::values(["H", "H", "H"]),
    );
    let (spec, roll, _) = rolled(&ev);
    assert_eq!((spec.tn, spec.penalty, roll.pool.tn), (2, 2, 4));
    assert!(matches!(ev.last(), Some(Event::RoundEnded { .. })));
}

#[test]
fn injuries_raise_the_tn_by_the_largest_penalty_and_talents_cap_it() {
    let mut t = table();
    ok(
        &mut t,
        "GM",
        "injury Wren moderate Sprained ankle",
        &mut none(),
    );
    ok(&mut t, "GM", "stress Wren severe Terrified", &mut none());
    ok(&mut t, "GM", "check Wren 4", &mut none());
    let ev = ok(&mut t, "Ana", "roll", &mut Scripted::values(["H"]));
    assert_eq!(
        rolled(&ev).1.pool.tn,
        6,
        "only the largest: +2, past 5 (R-SA-7)"
    );
    ok(&mut t, "GM", "check Wren 4", &mut none());
    ok(&mut t, "GM", "tn 4 except Terrified", &mut none());
    ok(&mut t, "Ana", "talent Hide in Plain Sight", &mut none());
    let ev = ok(&mut t, "Ana", "roll", &mut Scripted::values(["H"]));
    assert_eq!(rolled(&ev).1.pool.tn, 4, "+1 Moderate, capped at 4");
    // A second Severe debilitates.
    ok(&mut t, "GM", "stress Wren severe Broken", &mut none());
    assert!(t.state().characters[0].character.debilitated());
    refused(&mut t, "GM", "check Wren 1");
    ok(&mut t, "GM", "heal Wren injury Sprained ankle", &mut none());
    refused(&mut t, "GM", "heal Wren injury Sprained ankle");
}

#[test]
fn special_talents_change_the_roll() {
    let mut t = table();
    ok(&mut t, "GM", "check Sable 1", &mut none());
    ok(&mut t, "Cy", "talent Deadly Aim", &mut none());
    refused(&mut t, "Cy", "talent Deadly Aim");
    refused(&mut t, "Cy", "roll with Knife");
    let ev = ok(
        &mut t,
        "Cy",
        "roll with Knife at Vance",
        &mut Scripted::values(["H"]),
    );
    let (_, roll, weapon) = rolled(&ev);
    assert_eq!((roll.hits, roll.extra_hits), (2, 1));
    assert_eq!(
        weapon,
        &Some(("Knife".into(), Damage::Injury(Level::Moderate)))
    );
    // Usually Bloody ignores a single Injury's increase: the Severe burn's; the
    // Knife's Moderate Injury still gives +1.
    ok(&mut t, "GM", "injury Vance severe Burned", &mut none());
    ok(&mut t, "GM", "check Vance 2", &mut none());
    ok(&mut t, "GM", "talent Usually Bloody", &mut none());
    let ev = ok(&mut t, "GM", "roll", &mut Scripted::values(["H"]));
    assert_eq!(rolled(&ev).1.pool.tn, 3);
}

#[test]
fn out_of_turn_and_bad_input_change_nothing() {
    let mut t = table();
    let e = refused(&mut t, "Ana", "check Wren 3");
    assert_eq!(e.kind, Refusal::NotPermitted);
    ok(&mut t, "GM", "check Wren 3", &mut none());
    let e = refused(&mut t, "Ben", "invoke Roof Runner full");
    assert_eq!(e.kind, Refusal::NotYourTurn);
    refused(&mut t, "Ben", "help Sable Quick");
    refused(&mut t, "GM", "check Brannoc 2");
    refused(&mut t, "GM", "tn 6");
    refused(&mut t, "Ana", "advance Wren quality Durable");
    assert!(Sapio::parse_command(t.state(), &seat("GM"), "check Nobody 3").is_err());
    assert!(Sapio::parse_command(t.state(), &seat("GM"), "frobnicate").is_err());
    assert!(Sapio::parse_command(t.state(), &seat("GM"), "tn x").is_err());
    // The dice must be faces of a Spiral Die.
    let before = t.state().clone();
    let cmd = Sapio::parse_command(t.state(), &seat("Ana"), "roll").unwrap();
    assert!(
        t.submit(&seat("Ana"), &cmd, &mut Scripted::values(["7x"]))
            .is_err()
    );
    assert_eq!(t.state(), &before);
}

#[test]
fn a_broken_character_file_names_the_field() {
    let dir = examples();
    let text = "[[characters]]\nsheet = { name = \"X\", profession = { name = \"Very Long Profession\", specializations = [\"A\"] } }\n";
    match Sapio::setup(text, &dir) {
        Err(SetupError::Character { error, .. }) => {
            let msg = error.to_string();
            assert!(msg.contains("profession.name"), "{msg}");
            assert!(msg.contains("qualities"), "{msg}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        Sapio::setup("[[characters]]\nfile = \"missing.toml\"\n", &dir),
        Err(SetupError::File { .. })
    ));
    assert!(matches!(
        Sapio::setup("characters = []", &dir),
        Err(SetupError::Count(0))
    ));
}

/// Issue 27, bug 3: the GM could end the encounter while advancements were
/// still due, and the players' choice was lost. "After a consequential
/// session, the player may choose" ("Advancement"; R-SA-9): a plain `end` is
/// refused naming who still has one and the rule; `end carry` ends with them
/// left due on the sheets the encounter leaves; once every one is taken (or
/// play resumes and drops them) `end` is offered and accepted again.
#[test]
fn ending_while_an_advancement_is_due_is_refused_or_carried() {
    let mut t = table();
    ok(&mut t, "GM", "end-session consequential", &mut none());
    ok(&mut t, "Ana", "advance Wren quality Durable", &mut none());
    let e = refused(&mut t, "GM", "end");
    assert_eq!(e.kind, Refusal::WrongPhase);
    assert!(e.rule.to_string().contains("R-SA-9"), "{}", e.rule);
    assert!(e.rule.to_string().contains("Advancement"), "{}", e.rule);
    for who in ["Brannoc (Ben)", "Sable (Cy)", "Vance (GM)"] {
        assert!(e.message.contains(who), "{who}: {}", e.message);
    }
    assert!(!e.message.contains("Wren"), "Wren took hers: {}", e.message);
    assert!(e.message.contains("end carry"), "{}", e.message);
    // The GM's form offers `end` only with `carry` while one is due.
    let end = Sapio::legal_commands(t.state(), &seat("GM"))
        .into_iter()
        .find(|c| c.name == "end")
        .expect("end is offered");
    assert_eq!(end.params.len(), 1, "{end:?}");
    assert!(
        matches!(&end.params[0].kind, ParamKind::Choice { options } if options == &["carry".to_string()]),
        "{end:?}"
    );
    // `end carry` ends, and the due advancements stay on the sheets.
    let mut carried = t.clone();
    ok(&mut carried, "GM", "end carry", &mut none());
    assert!(Sapio::finished(carried.state()));
    let after = <Sapio as tabula_core::builder::CharacterBook>::sheets_after(carried.state());
    let sable = after.iter().find(|s| s.name == "Sable").expect("Sable");
    assert!(
        sable.sheet.contains("advancement_due = true"),
        "{}",
        sable.sheet
    );
    let wren = after.iter().find(|s| s.name == "Wren").expect("Wren");
    assert!(!wren.sheet.contains("advancement_due"), "{}", wren.sheet);
    // Once every advancement is taken, `end` is plain again.
    ok(
        &mut t,
        "Ben",
        "advance Brannoc specialization Swordplay",
        &mut none(),
    );
    ok(
        &mut t,
        "Cy",
        "advance Sable specialization Tracking",
        &mut none(),
    );
    refused(&mut t, "GM", "end");
    ok(&mut t, "GM", "advance Vance quality Patient", &mut none());
    let end = Sapio::legal_commands(t.state(), &seat("GM"))
        .into_iter()
        .find(|c| c.name == "end")
        .expect("end is offered");
    assert!(end.params.is_empty(), "{end:?}");
    ok(&mut t, "GM", "end", &mut none());
    assert!(Sapio::finished(t.state()));
    // Play resuming drops what was not taken (R-SA-9): then `end` is plain.
    let mut t = table();
    ok(&mut t, "GM", "end-session consequential", &mut none());
    ok(&mut t, "GM", "check Vance 1", &mut none());
    ok(&mut t, "GM", "roll", &mut Scripted::values(["H"]));
    ok(&mut t, "GM", "end", &mut none());
}

#[test]
fn advancement_at_the_table() {
    let mut t = table();
    let session = |t: &mut Table<Sapio>| {
        ok(t, "GM", "end-session consequential", &mut none());
    };
    let play_on = |t: &mut Table<Sapio>| {
        ok(t, "GM", "check Vance 1", &mut none());
        ok(t, "GM", "roll", &mut Scripted::values(["H"]));
    };
    session(&mut t);
    ok(&mut t, "Ana", "advance Wren quality Durable", &mut none());
    play_on(&mut t);
    session(&mut t);
    let e = refused(&mut t, "Ana", "advance Wren quality Likeable");
    assert!(e.message.contains("cycle"));
    refused(&mut t, "Ben", "advance Wren specialization Quick Escapes");
    ok(
        &mut t,
        "Ana",
        "advance Wren specialization Quick Escapes",
        &mut none(),
    );
    play_on(&mut t);
    session(&mut t);
    ok(
        &mut t,
        "Ana",
        "advance Wren side-specialization Night Clerk Haggling",
        &mut none(),
    );
    refused(&mut t, "Ana", "change Wren swap Night Clerk");
    play_on(&mut t);
    session(&mut t);
    ok(
        &mut t,
        "Ana",
        r#"advance Wren talent Weather Sense effect=bonus-dice amount=2 text="Knows when the rain comes""#,
        &mut none(),
    );
    // The Special Talent carries its roll effect ("Special Talents").
    let sense = t.state().characters[0]
        .character
        .sheet()
        .special_talents
        .iter()
        .find(|s| s.name == "Weather Sense")
        .cloned()
        .expect("the new Special Talent");
    assert_eq!(
        sense.effect,
        Some(tabula_sapio::character::TalentEffect::BonusDice { dice: 2 })
    );
    assert_eq!(sense.text, "Knows when the rain comes");
    ok(
        &mut t,
        "Ana",
        "change Wren word Roof Runner to Roof Dancer",
        &mut none(),
    );
    assert_eq!(
        t.state().characters[0].character.sheet().profession.name,
        "Roof Dancer"
    );
    refused(&mut t, "Ana", "change Wren quality Agile to Lithe");
    play_on(&mut t);
    session(&mut t);
    ok(&mut t, "Ana", "advance Wren quality Likeable", &mut none());
}

/// "Advancement": "After a consequential session, the player may choose from
/// one of the following options"; R-SA-9: the GM ends the session, marks it
/// consequential or not, and each character then takes one advancement.
#[test]
fn advancement_is_one_option_per_consequential_session() {
    let mut t = table();
    // Not before the session ends.
    let e = refused(&mut t, "Ana", "advance Wren quality Durable");
    assert_eq!(e.rule.ruling, Some("R-SA-9"), "{e}");
    // Not after an inconsequential one.
    refused(&mut t, "Ana", "end-session consequential");
    ok(&mut t, "GM", "end-session inconsequential", &mut none());
    let e = refused(&mut t, "Ana", "advance Wren quality Durable");
    assert!(e.message.contains("no advancement"), "{e}");
    // The session has ended: it is not ended twice.
    refused(&mut t, "GM", "end-session consequential");
    ok(&mut t, "GM", "check Wren 1", &mut none());
    ok(&mut t, "Ana", "roll", &mut Scripted::values(["H", "H"]));
    ok(&mut t, "GM", "end-session consequential", &mut none());
    // One option per character: the first is taken, a second is refused, even
    // of another type (the cycle rule alone would allow it).
    ok(&mut t, "Ana", "advance Wren quality Durable", &mut none());
    let e = refused(&mut t, "Ana", "advance Wren specialization Quick Escapes");
    assert_eq!(e.rule.ruling, Some("R-SA-9"), "{e}");
    // Every character has its own.
    ok(
        &mut t,
        "Ben",
        "advance Brannoc specialization Swordplay",
        &mut none(),
    );
    ok(&mut t, "GM", "advance Vance quality Strong", &mut none());
    // Play resumes: an advancement not taken at the step is not carried on.
    ok(&mut t, "GM", "begin-sequence Onward", &mut none());
    ok(&mut t, "GM", "end-sequence", &mut none());
    refused(&mut t, "Cy", "advance Sable quality Stoic");
    testkit::assert_replay_rebuilds(&t);
}

/// The example encounter plays through without a refusal, and replaying the log
/// rebuilds the same state.
#[test]
fn the_example_encounter_replays() {
    let mut t = table();
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    let mut roller = Seeded::from_seed(1);
    let mut n = 0;
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (who, body) = line.split_once(':').unwrap();
        ok(&mut t, who, body.trim(), &mut roller);
        n += 1;
    }
    assert!(n > 60);
    assert!(Sapio::finished(t.state()));
    testkit::assert_replay_rebuilds(&t);
}

/// "Special Situations when Rolling", Receiving Help: "the assisting player ...
/// invokes an applicable Profession, Specialization, or Quality. The focal player
/// may add a Bonus Die". `assist` (the spelling no driver command shadows),
/// `help` with arguments and `support` all reach the game, and the die arrives.
#[test]
fn receiving_help_adds_the_bonus_die() {
    let mut t = table();
    for line in [
        "assist Brannoc Battle-hardened",
        "help Brannoc Battle-hardened",
        "support brannoc battle-hardened",
        "ASSIST Brannoc Battle-hardened",
    ] {
        match Sapio::parse_command(t.state(), &seat("Ben"), line).unwrap() {
            tabula_sapio::Command::Help { helper, element } => {
                assert_eq!(helper, 1, "{line}");
                assert!(element.eq_ignore_ascii_case("Battle-hardened"), "{line}");
            }
            other => panic!("{line}: {other:?}"),
        }
    }
    ok(&mut t, "GM", "check Wren 3", &mut none());
    ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    ok(&mut t, "Ben", "assist Brannoc Battle-hardened", &mut none());
    assert_eq!(built(&t), (3, 1));
    let ev = ok(&mut t, "Ana", "roll", &mut Scripted::values(["H"; 4]));
    let (spec, roll, _) = rolled(&ev);
    assert_eq!((spec.built, spec.bonus, roll.pool.dice), (3, 1, 4));
    // The assisting element is named in the legal commands.
    ok(&mut t, "GM", "check Wren 3", &mut none());
    let names: Vec<String> = Sapio::legal_commands_for(t.state(), &seat("Ben"))
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert!(names.contains(&"assist".to_string()), "{names:?}");
}

/// The shipped encounter's first check gets its help die: 5 built dice, help and
/// Luck make 7, one past six is lost (R-SA-2).
#[test]
fn the_encounter_receives_help() {
    let mut t = table();
    let script = std::fs::read_to_string(examples().join("encounter.script")).unwrap();
    let mut roller = Seeded::from_seed(1);
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (who, body) = line.split_once(':').unwrap();
        let ev = ok(&mut t, who, body.trim(), &mut roller);
        if let Some(Event::Rolled { spec, roll, .. }) = ev.first() {
            assert_eq!((spec.built, spec.bonus), (5, 2));
            assert_eq!((roll.pool.dice, roll.pool.bonus_lost), (6, 1));
            return;
        }
    }
    panic!("no roll in the encounter");
}

/// A line that would do nothing, or less than it says, is refused by the parser.
#[test]
fn a_line_that_does_nothing_is_refused() {
    let t = table();
    let gm = seat("GM");
    for line in [
        "help",
        "assist",
        "assist Brannoc",
        "accept now",
        "reject it",
        "end please",
        "end-sequence now",
        "different kind",
        "similar-to",
        "end-session",
        "end-session maybe",
        "roll with",
        "roll Sword",
        "roll with Sword at",
        "roll with Sword at Nobody",
        "injury Wren minor Cut similar-to",
    ] {
        assert!(
            Sapio::parse_command(t.state(), &gm, line).is_err(),
            "{line} was read"
        );
    }
}

/// R-SA-5: "each invoked element increases the TN instead of adding a die" - the
/// elements a check allows: one Profession, one Specialization of that
/// Profession, one Quality ("When to Roll").
#[test]
fn defender_invokes_one_profession_one_specialization_of_it_one_quality() {
    let mut t = table();
    ok(&mut t, "GM", "confront Brannoc Sable", &mut none());
    // A Specialization needs its Profession first.
    let e = refused(&mut t, "Cy", "defend Wilderness Survival");
    assert!(e.message.contains("Profession first"), "{e}");
    ok(&mut t, "Cy", "defend Field Medic", &mut none());
    // One Profession: not a second one.
    let e = refused(&mut t, "Cy", "defend Desert Commando");
    assert!(e.message.contains("one Profession"), "{e}");
    // A Specialization of *that* Profession.
    let e = refused(&mut t, "Cy", "defend Wilderness Survival");
    assert!(
        e.message.contains("Specialization of Desert Commando"),
        "{e}"
    );
    ok(&mut t, "Cy", "defend Tough", &mut none());
    // One Quality.
    let e = refused(&mut t, "Cy", "defend Quick");
    assert!(e.message.contains("one Quality"), "{e}");
    assert_eq!(e.rule.ruling, Some("R-SA-5"));
    assert_eq!(t.state().check.as_ref().unwrap().tn, Some(3));
    // An unknown element lists the defender's elements.
    let e = refused_name(&mut t, "Cy", "defend Flying");
    assert!(e.contains("Wilderness Survival"), "{e}");
}

/// "Weapons and causing Injury": "hitting the TN should result in the specified
/// damage", upgraded by extra Hits (R-SA-4), recorded on the target at once; the
/// GM is asked only which existing Injury it is similar to (R-SA-6).
#[test]
fn a_weapon_records_its_injury_on_the_target() {
    let mut t = table();
    // Outside Character versus Character the target is named.
    ok(&mut t, "GM", "check Brannoc 2", &mut none());
    let e = refused(&mut t, "Ben", "roll with Sword");
    assert!(e.message.contains("at TARGET"), "{e}");
    refused(&mut t, "Ben", "roll with Sword at Brannoc");
    assert!(Sapio::parse_command(t.state(), &seat("Ben"), "roll at Vance").is_err());
    // A failure records nothing.
    let ev = ok(
        &mut t,
        "Ben",
        "roll with Sword at Vance",
        &mut Scripted::values(["H"]),
    );
    assert_eq!(ev.len(), 1);
    assert!(
        t.state().characters[3]
            .character
            .injuries()
            .entries()
            .is_empty()
    );
    // A success: the Sword's Moderate Injury goes on Vance's sheet, no GM step.
    ok(&mut t, "GM", "check Brannoc 1", &mut none());
    let ev = ok(
        &mut t,
        "Ben",
        "roll with Sword at Vance",
        &mut Scripted::values(["H"]),
    );
    assert!(
        matches!(ev[1], Event::Harmed { character: 3, .. }),
        "{ev:?}"
    );
    assert_eq!(
        t.state().characters[3].character.injuries().moderate[0].as_deref(),
        Some("Sword")
    );
    // A second Moderate: the GM is asked whether it is similar to "Sword".
    ok(&mut t, "GM", "check Sable 1", &mut none());
    let ev = ok(
        &mut t,
        "Cy",
        "roll with Hunting Rifle at Vance",
        &mut Scripted::values(["H"]),
    );
    assert!(matches!(ev[1], Event::InjuryPending { .. }), "{ev:?}");
    assert_eq!(Sapio::default_seat(t.state()), Seat::Gm);
    // Nothing else happens until the GM says.
    let e = refused(&mut t, "GM", "check Wren 1");
    assert_eq!(e.rule.ruling, Some("R-SA-6"));
    refused(&mut t, "Cy", "different");
    let e = refused_name(&mut t, "GM", "similar-to Shovel");
    assert!(e.contains("Sword"), "{e}");
    ok(&mut t, "GM", "similar-to sword", &mut none());
    let v = t.state().characters[3].character.injuries().clone();
    assert_eq!(v.moderate, [None, None]);
    assert_eq!(v.severe.as_deref(), Some("Hunting Rifle"));
    assert!(t.state().pending_injury.is_none());
    // A different one: recorded in the second box.
    ok(&mut t, "GM", "check Sable 1", &mut none());
    ok(
        &mut t,
        "Cy",
        "roll with Knife at Wren",
        &mut Scripted::values(["H"]),
    );
    ok(&mut t, "GM", "check Sable 1", &mut none());
    ok(
        &mut t,
        "Cy",
        "roll with Knife at Wren",
        &mut Scripted::values(["H"]),
    );
    ok(&mut t, "GM", "different", &mut none());
    let w = t.state().characters[0].character.injuries().clone();
    assert_eq!(w.minor, [Some("Knife".into()), Some("Knife".into())]);
    // Past Severe the weapon kills (R-SA-4): the Sword is Moderate; two extra
    // Hits make it Severe, three more kill.
    ok(&mut t, "GM", "check Brannoc 1", &mut none());
    ok(&mut t, "Ben", "invoke Arcane Knight full", &mut none());
    let ev = ok(
        &mut t,
        "Ben",
        "roll with Sword at Vance",
        &mut Scripted::values(["HH", "HH", "HH"]),
    );
    assert!(
        matches!(ev[1], Event::Killed { character: 3, .. }),
        "{ev:?}"
    );
    assert!(t.state().characters[3].character.dead());
    refused(&mut t, "GM", "check Vance 1");
    ok(&mut t, "GM", "check Sable 1", &mut none());
    refused(&mut t, "Cy", "roll with Knife at Vance");
    testkit::assert_replay_rebuilds(&t);
}

/// A player seat acts only for its own characters; the GM acts for the GM's
/// characters (and may drive any). Tabula's seat rule; "Players in the Action
/// Sequence".
#[test]
fn a_player_acts_only_for_their_own_characters() {
    let mut t = table();
    refused(&mut t, "Ben", "end-session consequential");
    ok(&mut t, "GM", "check Wren 2", &mut none());
    let e = refused(&mut t, "Ben", "invoke Roof Runner full");
    assert_eq!(e.kind, Refusal::NotYourTurn);
    refused(&mut t, "Ben", "talent Hide in Plain Sight");
    refused(&mut t, "Ben", "luck 1");
    refused(&mut t, "Ben", "roll");
    refused(&mut t, "Ben", "assist Sable Quick");
    refused(&mut t, "Ana", "assist Vance Heavy");
    // A seat name typed in another case is the same seat.
    ok(&mut t, "ana", "invoke Roof Runner full", &mut none());
    ok(&mut t, "GM", "assist Vance Heavy", &mut none());
    ok(&mut t, "ANA", "roll", &mut Scripted::values(["H"; 4]));
    ok(&mut t, "GM", "confront Wren Sable", &mut none());
    refused(&mut t, "Ana", "defend Tough");
    refused(&mut t, "Ben", "defend Tough");
    ok(&mut t, "Cy", "defend Tough", &mut none());
    ok(&mut t, "Ana", "roll", &mut Scripted::values(["H"]));
    ok(&mut t, "GM", "begin-sequence Run", &mut none());
    refused(&mut t, "Ben", "enter-fray Sable");
    ok(&mut t, "Cy", "enter-fray Sable", &mut none());
    ok(&mut t, "GM", "frame Go", &mut none());
    refused(&mut t, "Ben", "focal Sable");
    ok(&mut t, "Cy", "focal Sable", &mut none());
    ok(&mut t, "GM", "tn 1", &mut none());
    ok(&mut t, "Cy", "roll", &mut Scripted::values(["H"]));
    ok(&mut t, "GM", "end-sequence", &mut none());
    ok(&mut t, "GM", "end-session consequential", &mut none());
    refused(&mut t, "Ana", "advance Sable quality Stoic");
    refused(&mut t, "Ana", "advance Vance quality Stoic");
    ok(&mut t, "Ana", "advance Wren quality Stoic", &mut none());
}

/// Names typed in commands match without regard to case (also beyond ASCII);
/// an unknown name is refused with the valid choices listed.
#[test]
fn names_match_without_regard_to_case_and_unknown_names_list_the_choices() {
    let mut t = table();
    ok(&mut t, "GM", "check wREN 3", &mut none());
    ok(&mut t, "Ana", "invoke ROOF runner full", &mut none());
    ok(&mut t, "Ana", "invoke leaping", &mut none());
    let e = refused_name(&mut t, "Ana", "invoke Flying");
    assert!(e.contains("Agile, Perceptive"), "{e}");
    let e = refused_name(&mut t, "Ana", "talent Flight");
    assert!(e.contains("Hide in Plain Sight"), "{e}");
    let e = Sapio::parse_command(t.state(), &seat("GM"), "check Nobody 3").unwrap_err();
    assert!(e.to_string().contains("Wren, Brannoc, Sable, Vance"), "{e}");
    // Beyond ASCII.
    let dir = examples();
    let text = "[[characters]]\nfile = \"roof-runner.toml\"\n[[characters]]\nsheet = { name = \"Élodie\", player = \"Zoë\", qualities = [\"Strong\", \"Quick\"], principle = \"p\", worst_impulse = \"w\", profession = { name = \"Ship Pilot\", specializations = [\"Évasion\"] }, side_professions = [{ name = \"Cook\" }], special_talents = [{ name = \"Steady\" }] }\n";
    let mut t = Table::new(Sapio::setup(text, &dir).unwrap());
    ok(&mut t, "GM", "check ÉLODIE 2", &mut none());
    ok(&mut t, "ZOË", "invoke ship pilot full", &mut none());
    ok(&mut t, "zoë", "invoke éVASION", &mut none());
    assert_eq!(built(&t), (4, 0));
}

/// A table file refuses nonsense with an error naming the field: no
/// characters, control characters in a name, ':' in a player's seat name, the
/// GM's seat as a player, a Quality the book forbids (R-SA-10).
#[test]
fn a_table_file_refuses_nonsense_naming_the_field() {
    let dir = examples();
    assert!(matches!(
        Sapio::setup("characters = []", &dir),
        Err(SetupError::Count(0))
    ));
    let sheet = |name: &str, player: &str, quality: &str| {
        format!(
            "[[characters]]\nsheet = {{ name = \"{name}\", player = \"{player}\", qualities = [\"Strong\", \"{quality}\"], principle = \"p\", worst_impulse = \"w\", profession = {{ name = \"Ship Pilot\", specializations = [\"Docking\"] }}, side_professions = [{{ name = \"Cook\" }}], special_talents = [{{ name = \"Steady\" }}] }}\n"
        )
    };
    Sapio::setup(&sheet("Kit", "Jo", "Quick"), &dir).unwrap();
    for (text, field) in [
        (sheet("Ki\\u001b[2Jt", "Jo", "Quick"), "name"),
        (sheet("Kit", "Jo: GM", "Quick"), "player"),
        (sheet("Kit", "gm", "Quick"), "player"),
        (sheet("Kit", "Jo", "Lucky"), "qualities[1]"),
        (sheet("Kit", "Jo", "Magical"), "qualities[1]"),
    ] {
        match Sapio::setup(&text, &dir) {
            Err(e @ SetupError::Character { .. }) => {
                assert!(e.to_string().contains(field), "{field}: {e}")
            }
            other => panic!("{field}: {other:?}"),
        }
    }
}

const LINES: &[&str] = &[
    "GM: check Wren 3",
    "GM: check Sable 2 ongoing",
    "GM: confront Brannoc Sable",
    "GM: fight Vance Wren",
    "GM: begin-sequence Run",
    "GM: threaten Wren",
    "GM: threaten Vance",
    "Ben: enter-fray Brannoc",
    "Cy: enter-fray Sable",
    "GM: frame Action",
    "Ana: focal Wren",
    "Ben: focal Brannoc",
    "Cy: focal Sable",
    "GM: focal Vance",
    "GM: tn 2",
    "GM: tn 5",
    "Ana: invoke Roof Runner full",
    "Ana: invoke Roof Runner partial",
    "Ana: invoke Leaping",
    "Ana: invoke Agile",
    "Ben: invoke Arcane Knight full",
    "Ben: invoke Pyromancy",
    "Cy: invoke Desert Commando partial",
    "Cy: invoke Quick",
    "GM: invoke Gang Enforcer full",
    "Ben: help Brannoc Battle-hardened",
    "Cy: support Sable Tough",
    "Ana: help Wren Perceptive",
    "Cy: defend Tough",
    "Ana: defend Agile",
    "GM: defend Heavy",
    "Ana: talent Hide in Plain Sight",
    "Cy: talent Deadly Aim",
    "Ana: luck 1",
    "Cy: luck 2",
    "Ana: declare principle Sacrifice",
    "GM: accept",
    "GM: reject",
    "GM: bonus 3",
    "Ana: roll",
    "Ben: roll with Sword at Vance",
    "Ben: roll with Sword",
    "Cy: roll with Hunting Rifle at Vance",
    "GM: roll with Large Dagger at Wren",
    "GM: roll with Large Dagger",
    "GM: similar-to Sword",
    "GM: similar-to Large Dagger",
    "GM: different",
    "GM: end-session consequential",
    "GM: end-session inconsequential",
    "GM: injury Wren minor Cut",
    "GM: injury Wren minor Cut again similar-to Cut",
    "GM: stress Sable severe Shaken",
    "GM: injury Vance moderate Burned",
    "GM: heal Wren injury Cut",
    "GM: luck-principle Wren",
    "GM: luck-impulse Vance Sable",
    "GM: give-luck Brannoc 2",
    "GM: release Sable",
    "GM: release Wren Agile",
    "Ben: leave-fray Brannoc",
    "Ana: advance Wren quality Durable",
    "Ben: advance Brannoc specialization Swordplay",
    "GM: end-sequence",
    "GM: add enforcer",
    "GM: add Wren as Kit to Ana",
    "GM: remove Vance",
    "GM: remove Vance 2",
    "GM: end carry",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Random command sequences never panic, keep the invariants, and replaying
    /// the log rebuilds the same state.
    #[test]
    fn random_commands_keep_the_invariants(picks in proptest::collection::vec(0..LINES.len(), 1..120), seed in 0u64..1000) {
        let mut t = table();
        let mut roller = Seeded::from_seed(seed);
        for i in picks {
            let line = LINES[i];
            let (who, body) = line.split_once(':').unwrap();
            let s = seat(who);
            let before: State = t.state().clone();
            if let Ok(cmd) = Sapio::parse_command(t.state(), &s, body.trim()) {
                match t.submit(&s, &cmd, &mut roller) {
                    Ok(entries) => {
                        for e in entries {
                            if let Event::Rolled { roll, .. } = &e.event {
                                prop_assert!(roll.pool.dice <= 6);
                                prop_assert_eq!(roll.rolls[0].len() as u32, roll.pool.dice);
                            }
                        }
                    }
                    Err(_) => prop_assert_eq!(t.state(), &before),
                }
            }
            let st = t.state();
            for m in &st.characters {
                prop_assert!(m.character.luck() <= tabula_sapio::character::MAX_LUCK);
                let elements = m.character.elements();
                for l in &m.locked {
                    prop_assert!(elements.iter().any(|e| e.eq_ignore_ascii_case(&l.element)));
                }
            }
            if let Some(s) = &st.sequence {
                let mut seen: Vec<usize> = s.participants.iter().map(|p| p.character).collect();
                seen.sort_unstable();
                seen.dedup();
                prop_assert_eq!(seen.len(), s.participants.len());
            } else {
                prop_assert!(st.characters.iter().all(|m| m.locked.iter().all(|l| l.until != Until::RoundEnd)));
            }
            if let Some(c) = &st.check {
                prop_assert!(c.built() <= 5);
                prop_assert!(c.tn.unwrap_or(0) <= 5);
            }
        }
        testkit::assert_replay_rebuilds(&t);
    }
}

fn any_command() -> impl Strategy<Value = tabula_sapio::Command> {
    use tabula_sapio::Command as C;
    use tabula_sapio::harm::HarmKind;
    let who = 0usize..6;
    let n = prop_oneof![0u32..8, Just(u32::MAX), any::<u32>()];
    let word = prop_oneof![
        Just("Roof Runner".to_string()),
        Just("Leaping".to_string()),
        Just("Agile".to_string()),
        Just("Arcane Knight".to_string()),
        Just("Tough".to_string()),
        Just("Deadly Aim".to_string()),
        Just("Sword".to_string()),
        Just("Cut".to_string()),
        "[a-z ]{0,12}",
    ];
    prop_oneof![
        (who.clone(), n.clone(), any::<bool>()).prop_map(|(character, tn, ongoing)| C::Check {
            character,
            tn,
            ongoing
        }),
        (who.clone(), who.clone()).prop_map(|(aggressor, defender)| C::Confront {
            aggressor,
            defender
        }),
        (who.clone(), who.clone()).prop_map(|(aggressor, defender)| C::Fight {
            aggressor,
            defender
        }),
        Just(C::BeginSequence { goal: "g".into() }),
        who.clone().prop_map(|character| C::Threaten { character }),
        who.clone().prop_map(|character| C::EnterFray { character }),
        Just(C::Frame { text: "f".into() }),
        who.clone().prop_map(|character| C::Focal { character }),
        n.clone().prop_map(|tn| C::Tn {
            tn,
            not_relevant: vec![]
        }),
        (word.clone(), any::<bool>()).prop_map(|(element, fully)| C::Invoke { element, fully }),
        (who.clone(), word.clone()).prop_map(|(helper, element)| C::Help { helper, element }),
        (word.clone(), any::<bool>()).prop_map(|(element, fully)| C::Defend { element, fully }),
        word.clone().prop_map(|name| C::Talent { name }),
        n.clone().prop_map(|amount| C::SpendLuck { amount }),
        any::<bool>().prop_map(|accept| C::Rule { accept }),
        n.clone().prop_map(|dice| C::Bonus { dice }),
        (
            proptest::option::of(word.clone()),
            proptest::option::of(who.clone())
        )
            .prop_map(|(weapon, target)| C::Roll { weapon, target }),
        proptest::option::of(word.clone()).prop_map(|similar_to| C::SimilarInjury { similar_to }),
        any::<bool>().prop_map(|consequential| C::EndSession { consequential }),
        (
            who.clone(),
            word.clone(),
            proptest::option::of(word.clone())
        )
            .prop_map(|(character, name, similar_to)| C::Harm {
                character,
                kind: HarmKind::Injury,
                level: Level::Minor,
                name,
                similar_to,
            }),
        (who.clone(), n.clone()).prop_map(|(character, amount)| C::GiveLuck { character, amount }),
        (who.clone(), who.clone()).prop_map(|(character, beneficiary)| C::LuckImpulse {
            character,
            beneficiary
        }),
        who.clone()
            .prop_map(|character| C::LuckPrinciple { character }),
        (who.clone(), proptest::option::of(word.clone()))
            .prop_map(|(character, element)| C::Release { character, element }),
        who.clone().prop_map(|character| C::LeaveFray { character }),
        Just(C::EndSequence),
        who.prop_map(|character| C::Remove { character }),
        (
            prop_oneof![
                Just("enforcer".to_string()),
                Just("Wren".to_string()),
                "[a-z ]{0,12}"
            ],
            proptest::option::of(word.clone()),
            proptest::option::of(prop_oneof![
                Just("Ana".to_string()),
                Just("GM".to_string()),
                "[a-z]{0,4}"
            ]),
            // An uploaded sheet's text: a legal one, or junk.
            proptest::option::of(prop_oneof![
                Just(include_str!("../../../../examples/sapio/enforcer.toml").to_string()),
                "[a-z =\"\n\\[\\]]{0,24}"
            ])
        )
            .prop_map(|(kind, name, to, sheet)| C::Add {
                kind,
                name,
                to,
                sheet
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Structured commands with out-of-range characters and huge numbers never
    /// panic; a refusal changes nothing; the log replays.
    #[test]
    fn arbitrary_commands_never_panic(cmds in proptest::collection::vec((any::<bool>(), any_command()), 1..80), seed in 0u64..100) {
        let mut t = table();
        let mut roller = Seeded::from_seed(seed);
        for (gm, cmd) in cmds {
            let s = if gm { Seat::Gm } else { seat("Ana") };
            let before = t.state().clone();
            match t.submit(&s, &cmd, &mut roller) {
                Ok(entries) => {
                    let events: Vec<Event> = entries.iter().map(|e| e.event.clone()).collect();
                    for e in &events {
                        prop_assert!(!Sapio::describe(t.state(), e).is_empty());
                    }
                }
                Err(_) => prop_assert_eq!(t.state(), &before),
            }
            let _ = Sapio::legal_commands_for(t.state(), &s);
            prop_assert!(!Sapio::status(t.state(), &s).is_empty());
            for o in Sapio::odds(t.state(), &s) {
                prop_assert!((0.0..=1.0).contains(&o.probability), "{:?}", o);
            }
        }
        testkit::assert_replay_rebuilds(&t);
    }
}

trait Legal {
    fn legal_commands_for(state: &State, seat: &Seat) -> Vec<tabula_core::CommandSpec>;
}

impl Legal for Sapio {
    fn legal_commands_for(state: &State, seat: &Seat) -> Vec<tabula_core::CommandSpec> {
        <Sapio as tabula_core::System>::legal_commands(state, seat)
    }
}

/// A tiny deterministic random stream for the property below.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Free text a player might type: names from the sheets and a few phrases.
fn text_pool(state: &State) -> Vec<String> {
    let mut pool: Vec<String> = vec![
        "a goal".into(),
        "Cut".into(),
        "Night Clerk Haggling".into(),
        "Roof Runner to Roof Dancer".into(),
        "Agile to Lithe".into(),
        "Durable".into(),
        "Swordplay".into(),
    ];
    for m in &state.characters {
        pool.extend(m.character.elements());
        pool.extend(
            m.character
                .sheet()
                .special_talents
                .iter()
                .map(|t| t.name.clone()),
        );
        for track in [m.character.injuries(), m.character.stresses()] {
            pool.extend(track.entries().iter().map(|(_, n)| n.to_string()));
        }
    }
    pool
}

/// Type a legal command with random parameters in its advertised ranges. A
/// parameter whose name starts with a keyword (`with`, `at`, `except`,
/// `similar-to`) is optional and typed after its keyword; a free-text parameter
/// takes a word from `pool`.
fn type_command(spec: &tabula_core::CommandSpec, pool: &[String], rng: &mut Rng) -> String {
    let mut line = spec.name.clone();
    for p in &spec.params {
        let keyword = ["with", "at", "except", "similar-to", "as", "to"]
            .into_iter()
            .find(|k| p.name == *k || p.name.starts_with(&format!("{k} ")));
        let value = match &p.kind {
            ParamKind::Int { min, max } => {
                let span = (max - min).unsigned_abs() as usize + 1;
                (min + rng.below(span) as i64).to_string()
            }
            ParamKind::Choice { options } | ParamKind::ChoiceOrSheet { options } => {
                match options.get(rng.below(options.len())) {
                    Some(o) => o.clone(),
                    None => continue,
                }
            }
            ParamKind::Text => pool[rng.below(pool.len())].clone(),
            ParamKind::NumberOrName { min, .. } => min.to_string(),
        };
        let optional = keyword.is_some() || p.name == "ongoing";
        if optional && rng.below(2) == 0 {
            continue;
        }
        if let Some(k) = keyword {
            line.push(' ');
            line.push_str(k);
        }
        line.push(' ');
        line.push_str(&value);
    }
    line
}

/// Some typed legal command of `seat` is accepted (tried on a copy: `decide`
/// does not change the state).
fn some_command_is_accepted(state: &State, seat: &Seat, rng: &mut Rng) -> bool {
    let legal = <Sapio as System>::legal_commands(state, seat);
    if legal.is_empty() {
        return false;
    }
    let pool = text_pool(state);
    for _ in 0..80 {
        let spec = &legal[rng.below(legal.len())];
        let line = type_command(spec, &pool, rng);
        if let Ok(cmd) = Sapio::parse_command(state, seat, &line) {
            let mut roller = Seeded::from_seed(rng.next());
            if Sapio::decide(state, seat, &cmd, &mut roller).is_ok() {
                return true;
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random legal commands (from `legal_commands` of the seat whose turn it is,
    /// or of any seat, with random parameters in the advertised ranges) from the
    /// example table never lock the encounter up: until it is finished, the seat
    /// whose turn it is (or else some seat) has a command that is accepted; a
    /// refusal changes nothing; replaying the log rebuilds the same state.
    #[test]
    fn random_legal_commands_never_lock_up(seed in any::<u64>(), steps in 20usize..160) {
        let mut t = table();
        let mut rng = Rng(seed | 1);
        testkit::walk_legal(&mut t, seed, steps, |t, legal| {
            let state = t.state();
            let seats = Sapio::seats(state);
            let turn = Sapio::default_seat(state);
            assert!(seats.contains(&turn), "{turn} is no seat");
            let unlocked = some_command_is_accepted(state, &turn, &mut rng)
                || seats.iter().any(|s| some_command_is_accepted(state, s, &mut rng));
            assert!(unlocked, "locked up: {}", Sapio::status(state, &turn));
            // One random legal command, from the seat whose turn it is or any seat.
            let seat = if rng.below(3) < 2 { turn } else { seats[rng.below(seats.len())].clone() };
            let legal: Vec<&tabula_core::CommandSpec> =
                legal.iter().filter(|(s, _)| *s == seat).map(|(_, c)| c).collect();
            if legal.is_empty() {
                return Choice::Skip;
            }
            let mut spec = legal[rng.below(legal.len())];
            if spec.name == "end" && rng.below(10) != 0 {
                spec = legal[rng.below(legal.len())];
            }
            Choice::TryLine(seat, type_command(spec, &text_pool(state), &mut rng))
        }, |_, _| {});
    }
}

/// Brute force over every face of `n` Spiral Dice (R-SA-1): the chance of at
/// least `tn` Hits, where a roll of all double Hits that still falls short is
/// rolled again with one more die (Improbable Success, R-SA-3).
fn brute_success(n: u32, tn: u32) -> f64 {
    use tabula_sapio::spiral_dice::FACE_ORDER;
    let hits: Vec<u32> = FACE_ORDER.iter().map(|f| f.symbols().hits).collect();
    let outcomes = 12usize.pow(n);
    let mut p = 0.0;
    for mut i in 0..outcomes {
        let mut total = 0;
        for _ in 0..n {
            total += hits[i % 12];
            i /= 12;
        }
        if total >= tn {
            p += 1.0;
        } else if total == 2 * n {
            p += brute_success(n + 1, tn);
        }
    }
    p / outcomes as f64
}

/// `TextPlay::odds` while the pool is built ("When you invoke a character
/// element", "When to Roll", "Special Situations when Rolling"; R-SA-1,
/// R-SA-2, R-SA-3): the focal character's seat is offered rolling the pool as
/// it stands against the TN, the chance status prints, by brute force over
/// every face; the GM and the other players, with nothing to roll, get nothing,
/// and nobody does once the check is rolled.
#[test]
fn odds_of_the_pool_against_the_tn_for_the_focal_seat() {
    let mut t = table();
    for who in ["GM", "Ana", "Ben"] {
        assert!(Sapio::odds(t.state(), &seat(who)).is_empty(), "{who}");
    }
    ok(&mut t, "GM", "check Wren 3", &mut none());
    let ana = seat("Ana");
    let odds = Sapio::odds(t.state(), &ana);
    assert_eq!(odds.len(), 1, "{odds:?}");
    assert_eq!(odds[0].choice, "roll 1 die against TN 3");
    // One die cannot make 3 Hits but two Hits roll again with two dice (R-SA-3).
    let b = brute_success(1, 3);
    assert!(b > 0.0);
    assert!((odds[0].probability - b).abs() < 1e-12, "{odds:?} vs {b}");
    assert!(odds[0].detail.contains("Improbable Success"), "{odds:?}");
    for who in ["GM", "Ben"] {
        assert!(Sapio::odds(t.state(), &seat(who)).is_empty(), "{who}");
    }
    ok(&mut t, "Ana", "invoke Roof Runner full", &mut none());
    let odds = Sapio::odds(t.state(), &ana);
    assert_eq!(odds[0].choice, "roll 3 dice against TN 3");
    let b = brute_success(3, 3);
    assert!((odds[0].probability - b).abs() < 1e-12, "{odds:?} vs {b}");
    let status = Sapio::status(t.state(), &ana);
    assert!(
        status.contains(&format!("(chance {:.1}%)", odds[0].probability * 100.0)),
        "{status}"
    );
    ok(
        &mut t,
        "Ana",
        "roll",
        &mut Scripted::values(["H", "HH", "S"]),
    );
    for who in ["GM", "Ana", "Ben"] {
        assert!(Sapio::odds(t.state(), &seat(who)).is_empty(), "{who}");
    }
    // Vance has no player: the GM rolls for him and gets his odds.
    ok(&mut t, "GM", "check Vance 2", &mut none());
    let odds = Sapio::odds(t.state(), &Seat::Gm);
    assert_eq!(odds.len(), 1, "{odds:?}");
    let b = brute_success(1, 2);
    assert!((odds[0].probability - b).abs() < 1e-12, "{odds:?} vs {b}");
    assert!(Sapio::odds(t.state(), &ana).is_empty());
}

/// The example encounter's lines, `(seat, command)`.
fn script_lines() -> Vec<(String, String)> {
    std::fs::read_to_string(examples().join("encounter.script"))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (who, body) = l.split_once(':').unwrap();
            (who.to_string(), body.trim().to_string())
        })
        .collect()
}

/// Issue 18: over the example encounter, every command `legal_commands`
/// offers any seat is in the reference, and every name and alias of the
/// reference is a command the parser knows (never `Unknown`); the unknown
/// command error and the usage in an argument error come from the reference.
#[test]
fn the_reference_holds_every_command_and_the_parser_knows_it() {
    use tabula_core::system::{CommandParseError, find_command};
    let mut t = table();
    let mut roller = Seeded::from_seed(1);
    for (who, body) in script_lines() {
        for s in Sapio::seats(t.state()) {
            for c in <Sapio as System>::legal_commands(t.state(), &s) {
                assert!(
                    find_command(Sapio::COMMANDS, &c.name).is_some(),
                    "{} is not in COMMANDS",
                    c.name
                );
            }
            for doc in Sapio::COMMANDS {
                for word in std::iter::once(&doc.name).chain(doc.aliases) {
                    let e = Sapio::parse_command(t.state(), &s, word);
                    assert!(
                        !matches!(e, Err(CommandParseError::Unknown { .. })),
                        "{word}: {e:?}"
                    );
                }
            }
        }
        ok(&mut t, &who, &body, &mut roller);
    }
    let e = Sapio::parse_command(t.state(), &seat("GM"), "frobnicate").unwrap_err();
    let CommandParseError::Unknown { known, .. } = e else {
        panic!("{e:?}")
    };
    let names: Vec<&str> = Sapio::COMMANDS.iter().map(|d| d.name).collect();
    assert_eq!(known, names.join(", "));
    let e = Sapio::parse_command(t.state(), &seat("GM"), "give-luck Wren").unwrap_err();
    let CommandParseError::Arguments { usage, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(
        usage,
        find_command(Sapio::COMMANDS, "give-luck").unwrap().usage
    );
}

/// Issue 18: a multi-word element, talent, weapon or Injury works quoted, in
/// any letter case and by unique prefix (and unquoted in full, as before);
/// `_` still stands for a space.
#[test]
fn multi_word_names_work_quoted_in_any_case_and_by_prefix() {
    use tabula_sapio::Command;
    let t0 = table();
    let gm = seat("GM");
    let mut t = table();
    ok(&mut t, "GM", "check wren 3", &mut none());
    let ana = seat("Ana");
    for line in [
        r#"invoke "Roof Runner" full"#,
        r#"INVOKE "roof RUNNER" FULL"#,
        r#"invoke "roof r""#,
        "invoke roof",
        "invoke Roof_Runner",
        "invoke ROOF RUNNER full",
    ] {
        assert_eq!(
            Sapio::parse_command(t.state(), &ana, line).unwrap(),
            Command::Invoke {
                element: "Roof Runner".into(),
                fully: true
            },
            "{line}"
        );
    }
    assert_eq!(
        Sapio::parse_command(t.state(), &ana, r#"talent "hide in""#).unwrap(),
        Command::Talent {
            name: "Hide in Plain Sight".into()
        }
    );
    assert_eq!(
        Sapio::parse_command(t.state(), &seat("Ben"), r#"assist bran "arcane KNIGHT""#).unwrap(),
        Command::Help {
            helper: 1,
            element: "Arcane Knight".into()
        }
    );
    // Cy's weapon by prefix, Vance by prefix, in a quoted phrase.
    let mut t = table();
    ok(&mut t, "GM", "check Sable 3", &mut none());
    assert_eq!(
        Sapio::parse_command(t.state(), &seat("Cy"), r#"roll with "hunting" at "VAN""#).unwrap(),
        Command::Roll {
            weapon: Some("Hunting Rifle".into()),
            target: Some(3)
        }
    );
    // An Injury with spaces, recorded quoted and named again by prefix.
    let mut t = table();
    ok(
        &mut t,
        "GM",
        r#"injury Wren minor "Bruised ribs""#,
        &mut none(),
    );
    ok(
        &mut t,
        "GM",
        r#"injury wren MINOR "Cracked ribs" similar-to "bruised""#,
        &mut none(),
    );
    let cmd = Sapio::parse_command(t.state(), &gm, r#"heal Wren injury "CRACKED""#).unwrap();
    assert!(
        matches!(&cmd, Command::Heal { name, .. } if name == "Cracked ribs"),
        "{cmd:?}"
    );
    assert_eq!(t0.state(), table().state());
}

/// Issue 18: an ambiguous prefix and an unknown name are refused naming the
/// names that fit there, and nothing changes.
#[test]
fn ambiguous_and_unknown_names_are_refused_listing_the_candidates() {
    use tabula_core::names::NameLookupError;
    use tabula_core::system::CommandParseError;
    let dir = examples();
    let text = "[[characters]]\nsheet = { name = \"Iron Wolf\", player = \"Ana\", qualities = [\"Strong\", \"Quick\"], principle = \"p\", worst_impulse = \"w\", profession = { name = \"Ship Pilot\", specializations = [\"Evasion\"] }, side_professions = [{ name = \"Ship Cook\" }], special_talents = [{ name = \"Steady\" }] }\n[[characters]]\nsheet = { name = \"Iron Maiden\", player = \"Ben\", qualities = [\"Strong\", \"Quick\"], principle = \"p\", worst_impulse = \"w\", profession = { name = \"Ship Pilot\", specializations = [\"Evasion\"] }, side_professions = [{ name = \"Cook\" }], special_talents = [{ name = \"Steady\" }] }\n";
    let mut t: Table<Sapio> = Table::new(Sapio::setup(text, &dir).unwrap());
    let gm = seat("GM");
    let before = t.state().clone();
    let e = Sapio::parse_command(t.state(), &gm, "check iron 3").unwrap_err();
    match &e {
        CommandParseError::Name(NameLookupError::Ambiguous { matches, .. }) => {
            assert_eq!(matches, &["Iron Wolf", "Iron Maiden"]);
        }
        _ => panic!("{e:?}"),
    }
    assert!(e.to_string().contains("Iron Wolf or Iron Maiden"), "{e}");
    let e = Sapio::parse_command(t.state(), &gm, r#"check "Iron Man" 3"#).unwrap_err();
    assert_eq!(t.state(), &before, "a refused line changes nothing");
    assert!(
        e.to_string()
            .contains("the character names here: Iron Wolf, Iron Maiden"),
        "{e}"
    );
    ok(&mut t, "GM", r#"check "iron w" 3"#, &mut none());
    let e = Sapio::parse_command(t.state(), &seat("Ana"), "invoke ship").unwrap_err();
    assert!(
        matches!(&e, CommandParseError::Name(NameLookupError::Ambiguous { matches, .. }) if matches == &["Ship Pilot", "Ship Cook"]),
        "{e:?}"
    );
    let e = Sapio::parse_command(t.state(), &gm, r#"check "Iron Wolf 3"#).unwrap_err();
    assert!(matches!(e, CommandParseError::Grammar(_)), "{e:?}");
    assert_eq!(t.log().len(), 1, "only the accepted check is logged");
}

/// Issue 18: `sheet` lays out the character as the book does, with current
/// Luck, Injuries and conditions; names resolve as in commands; nothing in
/// Sapio is hidden, so any seat may read any sheet.
#[test]
fn the_sheet_shows_the_character_with_current_values() {
    let mut t = table();
    ok(
        &mut t,
        "GM",
        r#"injury Wren minor "Bruised ribs""#,
        &mut none(),
    );
    ok(&mut t, "GM", "stress Wren moderate Winded", &mut none());
    let s = Sapio::sheet(t.state(), &seat("Ana"), None).unwrap();
    assert!(s.starts_with("Wren (played by Ana)"), "{s}");
    for part in [
        "Profession: Roof Runner: Leaping",
        "Side Profession: Night Clerk",
        "Qualities: Agile, Perceptive",
        "Special Talent: Hide in Plain Sight",
        "Principle: Violence is not the answer",
        "Luck: 1",
        "Injuries: Minor [Bruised ribs] [ ]",
        "Stresses: Minor [ ] [ ]  Moderate [Winded] [ ]",
        "TN +1",
    ] {
        assert!(s.contains(part), "{part}: {s}");
    }
    assert!(!s.contains("Brannoc"), "{s}");
    let v = Sapio::sheet(t.state(), &seat("Ana"), Some("\"VAN\"")).unwrap();
    assert!(v.starts_with("Vance (a GM character)"), "{v}");
    assert!(v.contains("Weapon: Large Dagger"), "{v}");
    let all = Sapio::sheet(t.state(), &seat("GM"), None).unwrap();
    for n in ["Wren", "Brannoc", "Sable", "Vance"] {
        assert!(all.contains(&format!("{n} (")), "{all}");
    }
    let e = Sapio::sheet(t.state(), &seat("GM"), Some("Nobody")).unwrap_err();
    assert!(e.to_string().contains("Wren, Brannoc, Sable, Vance"), "{e}");
}

/// Issue 18 part 3: the roll tells a manual roller whose roll it is and what
/// for, before the pool and before each Improbable Success reroll.
#[test]
fn the_roll_says_whose_it_is_and_what_for() {
    struct Heard {
        inner: Scripted,
        said: Vec<(String, String, u32)>,
    }
    impl Roller for Heard {
        fn roll(&mut self, die: tabula_core::dice::Die) -> Result<u32, tabula_core::RollError> {
            self.inner.roll(die)
        }
        fn draw(
            &mut self,
            pile: &[tabula_core::cards::Card],
        ) -> Result<usize, tabula_core::RollError> {
            self.inner.draw(pile)
        }
        fn announce(&mut self, who: &str, what: &str, count: u32, _die: tabula_core::dice::Die) {
            self.said.push((who.into(), what.into(), count));
        }
    }
    let mut t = table();
    ok(&mut t, "GM", "check Sable 5", &mut none());
    ok(&mut t, "Cy", "invoke Tough", &mut none());
    let mut r = Heard {
        inner: Scripted::values(["HH", "HH", "H", "H", "H"]),
        said: Vec::new(),
    };
    ok(&mut t, "Cy", "roll with Hunting_Rifle at Vance", &mut r);
    assert_eq!(
        r.said,
        [
            (
                "Sable".to_string(),
                "Hunting Rifle at Vance against TN 5".to_string(),
                2
            ),
            (
                "Sable".to_string(),
                "Hunting Rifle at Vance against TN 5, Improbable Success (R-SA-3)".to_string(),
                3
            ),
        ]
    );
}

/// The GM's `adjust` (issue 27, item 6): Luck set or changed, from the log,
/// the GM's only, in range; Luck spent on the open check is the floor.
#[test]
fn the_gm_adjusts_luck() {
    let mut t = table();
    assert_eq!(t.state().characters[0].character.luck(), 1);
    let ev = ok(&mut t, "GM", "adjust Wren luck 5", &mut none());
    assert_eq!(t.state().characters[0].character.luck(), 5);
    assert_eq!(
        Sapio::describe(t.state(), &ev[0]),
        "The GM sets Wren's Luck to 5 (was 1)"
    );
    ok(&mut t, "GM", "adjust Wren luck -2", &mut none());
    assert_eq!(t.state().characters[0].character.luck(), 3);
    testkit::assert_replay_rebuilds(&t);
    let replayed = Table::<Sapio>::replay(t.initial(), t.log(), t.log().len());
    assert_eq!(replayed.characters[0].character.luck(), 3);

    let e = refused(&mut t, "Ana", "adjust Wren luck 9");
    assert_eq!(e.kind, Refusal::NotPermitted);
    let e = refused(&mut t, "GM", "adjust Wren luck -4");
    assert_eq!(
        e.kind,
        Refusal::OutOfRange {
            field: "luck".into(),
            min: 0,
            max: 99,
            got: -1
        }
    );
    refused(&mut t, "GM", "adjust Wren luck 100");
    refused(&mut t, "GM", &format!("adjust Wren luck +{}", i64::MAX));
    assert_eq!(t.state().characters[0].character.luck(), 3);
    assert!(Sapio::parse_command(t.state(), &seat("GM"), "adjust Nobody luck 1").is_err());
    assert!(Sapio::parse_command(t.state(), &seat("GM"), "adjust Wren harm 1").is_err());

    // Luck spent on the open check cannot be taken away.
    ok(&mut t, "GM", "check Wren 3", &mut none());
    ok(&mut t, "Ana", "luck 2", &mut none());
    let e = refused(&mut t, "GM", "adjust Wren luck 1");
    assert!(matches!(e.kind, Refusal::OutOfRange { min: 2, .. }));
    assert!(
        Sapio::legal_commands(t.state(), &seat("GM"))
            .iter()
            .any(|c| c.name == "adjust")
    );
    assert!(
        !Sapio::legal_commands(t.state(), &seat("Ana"))
            .iter()
            .any(|c| c.name == "adjust")
    );
}
