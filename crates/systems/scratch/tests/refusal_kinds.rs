//! The kinds of refusal a caller can match (issue 26, item 6): Scratch RPS
//! refuses with `AlreadyUsed` (an action slot of the turn, an unrepeatable
//! attack on the same target, a craftsmanship bonus), `NotHeld` (an ability
//! the command needs), and `Condition` (panicked, delayed, injured,
//! incapacitated, escaped). The book spends nothing ("Turns", "Hit Points",
//! the abilities in 001_337b5a42e331e513.txt), so it has no `Spent` refusal.
//! Every refusal here goes through the normal path: a text command parsed and
//! submitted at the table.

use tabula_core::{Refusal, RuleError, Scripted, Seat, Table, TextPlay};
use tabula_scratch::setup::{EncounterFile, build_state};
use tabula_scratch::{Character, Scratch, TableRules};

/// Room for any test character (R-SCR-7: the table's limits bind every sheet).
const ROOMY: TableRules = TableRules {
    cp: 40,
    max_level: 10,
    strength_base: 8,
    d20: tabula_scratch::D20Method::D20,
};

/// A character from inline TOML (name first, then `ability = level` pairs).
fn ch(name: &str, abilities: &str) -> Character {
    let text = format!("name = \"{name}\"\n[abilities]\n{abilities}\n");
    Character::from_toml(&text, &ROOMY).unwrap()
}

/// A table with seat `a` (side A) and seat `b` (side B), no terrain, no cover.
fn table(a: Vec<Character>, b: Vec<Character>) -> Table<Scratch> {
    let enc = EncounterFile {
        terrain: Vec::new(),
        cover: false,
        throwable_objects: false,
    };
    let groups = [("a", "A", a), ("b", "B", b)]
        .into_iter()
        .map(|(s, side, cs)| {
            (
                s.to_string(),
                side.to_string(),
                cs.into_iter().map(|c| ("test".to_string(), c)).collect(),
            )
        })
        .collect();
    Table::new(build_state(TableRules::default(), &enc, groups).unwrap())
}

/// Submits one text command with scripted dice.
fn go(t: &mut Table<Scratch>, seat: &str, line: &str, dice: &[u32]) -> Result<(), RuleError> {
    let s = Seat::parse(seat);
    let cmd = Scratch::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let before = t.clone();
    let out = t
        .submit(&s, &cmd, &mut Scripted::dice(dice.iter().copied()))
        .map(|_| ());
    if out.is_err() {
        assert_eq!(*t, before, "a refused command changes nothing");
    }
    out
}

fn ok(t: &mut Table<Scratch>, seat: &str, line: &str, dice: &[u32]) {
    go(t, seat, line, dice).unwrap_or_else(|e| panic!("{line}: {e}"));
}

fn refused(t: &mut Table<Scratch>, seat: &str, line: &str, dice: &[u32]) -> RuleError {
    match go(t, seat, line, dice) {
        Ok(()) => panic!("{line} was accepted"),
        Err(e) => e,
    }
}

fn already_used(e: &RuleError, expected: &str) -> bool {
    matches!(&e.kind, Refusal::AlreadyUsed { what } if what == expected)
}

fn not_held(e: &RuleError, expected: &str) -> bool {
    matches!(&e.kind, Refusal::NotHeld { what } if what == expected)
}

fn condition(e: &RuleError, expected: &str) -> bool {
    matches!(&e.kind, Refusal::Condition { condition } if condition == expected)
}

/// "Turns": one regular and one bonus action a turn; "Psychic Attacks":
/// distract, surprise and intimidate are unrepeatable per target;
/// "Support Abilities": one craftsmanship bonus per level.
#[test]
fn already_used_names_the_slot_the_attack_or_the_bonus() {
    let mut t = table(
        vec![ch("Boss", "command = 4\ntoughness = 3")],
        vec![
            ch("X", "toughness = 9\nwrestling = 5"),
            ch("Y", "toughness = 9"),
        ],
    );
    ok(&mut t, "gm", "initiative", &[20, 1]);
    ok(&mut t, "a", "boss engage", &[]);
    let e = refused(&mut t, "a", "boss engage", &[]);
    assert!(already_used(&e, "bonus action"), "{e:?}");
    assert!(e.message.contains("bonus action"), "{e}");
    ok(&mut t, "a", "boss attack x", &[1]);
    ok(&mut t, "b", "x end", &[]);
    ok(&mut t, "b", "y end", &[]);
    ok(&mut t, "a", "boss intimidate x", &[1]); // 5 < 15: fails, still used
    ok(&mut t, "b", "x end", &[]);
    ok(&mut t, "b", "y end", &[]);
    let e = refused(&mut t, "a", "boss intimidate x", &[20]);
    assert!(already_used(&e, "intimidate"), "{e:?}");
    assert!(e.message.contains("unrepeatable"), "{e}");

    let mut t = table(
        vec![
            ch("Smith", "craftsmanship = 1\ntoughness = 3"),
            ch("Ace", "shooting = 2\nstealth = 1\ntoughness = 3"),
        ],
        vec![ch("Foe", "toughness = 9")],
    );
    ok(&mut t, "a", "craft smith ace stealth", &[]);
    let e = refused(&mut t, "a", "craft smith ace shooting", &[]);
    assert!(already_used(&e, "craftsmanship bonuses"), "{e:?}");
    assert!(e.message.contains("one per level"), "{e}");
}

/// "Rolls": a character can only attempt a roll that requires an ability if
/// he has at least one level; "Stalking Abilities": surprise requires stealth
/// or detection; "Support Abilities": a bonus goes to an ability at level 1.
#[test]
fn not_held_names_the_missing_ability() {
    let mut t = table(
        vec![
            ch("Smith", "craftsmanship = 1\ntoughness = 3"),
            ch("Ace", "shooting = 2\ntoughness = 3"),
        ],
        vec![ch("Foe", "toughness = 9")],
    );
    let e = refused(&mut t, "a", "craft smith ace flying", &[]);
    assert!(not_held(&e, "flying"), "{e:?}");
    assert!(e.message.contains("already at level 1"), "{e}");
    ok(&mut t, "gm", "initiative", &[20, 1]);
    let e = refused(&mut t, "a", "smith shoot foe", &[10]);
    assert!(not_held(&e, "shooting"), "{e:?}");
    assert!(e.message.contains("has no shooting"), "{e}");
    let e = refused(&mut t, "a", "smith surprise foe", &[10]);
    assert!(not_held(&e, "stealth or detection"), "{e:?}");
    assert!(e.message.contains("stealth or detection"), "{e}");
}

/// "Knockout" delays the attacker; "Fighting" gives two attacks only when
/// healthy; "Hit Points": an incapacitated character is out of the fight;
/// "Stalking Abilities": a panicked character must evade or escape.
#[test]
fn condition_names_what_the_character_is() {
    let mut t = table(
        vec![ch("A", "knockout = 1\nfighting = 2\ntoughness = 4")],
        vec![ch("B", "toughness = 9\nshooting = 9")],
    );
    ok(&mut t, "gm", "initiative", &[20, 1]);
    ok(&mut t, "a", "a knockout b", &[9]);
    ok(&mut t, "b", "b shoot a", &[10]); // a: 4 -> 2, injured
    let e = refused(&mut t, "a", "a knockout b", &[20]);
    assert!(condition(&e, "delayed"), "{e:?}");
    assert!(e.message.contains("delayed"), "{e}");
    ok(&mut t, "a", "a end", &[]);
    ok(&mut t, "b", "b end", &[]);
    let e = refused(&mut t, "a", "a fight b b", &[10, 10]);
    assert!(condition(&e, "injured"), "{e:?}");
    assert!(e.message.contains("only when healthy"), "{e}");

    let mut t = table(
        vec![ch("Ace", "shooting = 9\ncommand = 9\ntoughness = 4")],
        vec![ch("X", "toughness = 2"), ch("Y", "toughness = 9")],
    );
    ok(&mut t, "gm", "initiative", &[20, 1]);
    ok(&mut t, "a", "ace shoot x", &[20]); // automatic: 5 damage, x: 0
    ok(&mut t, "b", "y end", &[]);
    let e = refused(&mut t, "a", "ace shoot x", &[20]);
    assert!(condition(&e, "incapacitated"), "{e:?}");
    assert!(e.message.contains("incapacitated"), "{e}");
    ok(&mut t, "a", "ace intimidate y", &[20]); // panicked
    let e = refused(&mut t, "b", "y attack ace", &[10]);
    assert!(condition(&e, "panicked"), "{e:?}");
    assert!(e.message.contains("panicked"), "{e}");
}
