//! Scratch RPS, "Combat Example" (001_337b5a42e331e513.txt), replayed with the
//! book's dice under the rules as written and ruled (R-SCR-4).
//!
//! The book narrates older wrestling rules: Chokestar makes a hold *and* a basic
//! attack in one turn. Under R-SCR-4 a wrestling hold is one regular action and
//! only fighting gives two basic attacks, so each of Chokestar's turns keeps the
//! first roll the book narrates for it. The divergences, all of them:
//!
//! 1. Round 1: Chokestar's basic attack (total 10, die 8) is not made: his hold
//!    (total 13) was his one regular action. Breakhelm X-19 stays at 6 hit
//!    points where the book has 5.
//! 2. Round 2: the book says the hold total 7 "fails to get past Breakhelm
//!    X-19's agility"; a hold is rolled against strength ("Basic Actions"), 14.
//!    It fails either way.
//! 3. Round 3: Chokestar's successful hold (15 against strength 14) also deals 1
//!    damage, because he is healthy (2 hit points, stamina 1) and not delayed
//!    (R-SCR-4): 6 -> 5. From here the hit points match the book again
//!    (Flipfire's shot: 3, injured; Chokestar's strike: 2; Flipfire's last
//!    shot: 0). His second attack that turn (total 9, a failure) is not made.
//! 4. Round 4: Chokestar's follow-up hold (total 11, a failure) is not made.
//! 5. The last shot's die is not printed ("reaches or exceeds Breakhelm X-19's
//!    agility"): the replay uses 10 (total 12), any of 8 to 19 gives the same.
//! 6. "A twenty-sided die is rolled for each character": with one initiative
//!    group per controlling person the example has three groups, one character
//!    each, and the same numbers (19, 17, 14).

use std::path::PathBuf;

use tabula_core::testkit;
use tabula_core::{Refusal, Scripted, Seat, Table, TextPlay};
use tabula_scratch::state::Phase;
use tabula_scratch::{HitPointState, Scratch, State};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch")
}

fn table() -> Table<Scratch> {
    let text = std::fs::read_to_string(dir().join("combat-example.toml")).unwrap();
    Table::new(Scratch::setup(&text, &dir()).unwrap())
}

fn seat(s: &str) -> Seat {
    Seat::parse(s)
}

fn submit(t: &mut Table<Scratch>, who: &str, line: &str, dice: &[u32]) {
    let s = seat(who);
    let cmd = Scratch::parse_command(t.state(), &s, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut roller = Scripted::dice(dice.iter().copied());
    t.submit(&s, &cmd, &mut roller)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(roller.remaining(), 0, "{line} used every die");
}

fn hp(t: &Table<Scratch>, id: &str) -> u32 {
    let s: &State = t.state();
    s.get(s.find(id).unwrap()).unwrap().hit_points
}

fn health(t: &Table<Scratch>, id: &str) -> HitPointState {
    let s: &State = t.state();
    s.get(s.find(id).unwrap()).unwrap().hp_state(&s.rules)
}

#[test]
fn the_combat_example_ends_with_breakhelm_incapacitated() {
    let mut t = table();
    // Initiative: Chokestar 13 + 2 x 3 stealth = 19, Flipfire 17, Breakhelm X-19 14.
    submit(&mut t, "gm", "initiative", &[13, 17, 14]);
    let s = t.state();
    let order: Vec<String> = s
        .order
        .iter()
        .map(|g| s.groups[*g].seat.to_string())
        .collect();
    assert_eq!(order, ["chokestar-player", "flipfire-player", "GM"]);
    assert_eq!(s.groups[0].initiative, Some(19));

    // Round 1.
    submit(
        &mut t,
        "chokestar-player",
        "chokestar hold breakhelm",
        &[11],
    ); // 11 + 2 = 13 < 14
    assert_eq!(hp(&t, "breakhelm"), 6);
    submit(&mut t, "flipfire-player", "flipfire shoot breakhelm", &[7]); // 9 < 10
    assert_eq!(hp(&t, "breakhelm"), 6);
    submit(&mut t, "gm", "breakhelm fight chokestar", &[14, 10]); // 18 and 14 vs 13
    assert_eq!(hp(&t, "chokestar"), 1);
    assert_eq!(health(&t, "chokestar"), HitPointState::Injured);

    // Round 2.
    submit(&mut t, "chokestar-player", "chokestar hold breakhelm", &[5]); // 7 < 14
    submit(&mut t, "flipfire-player", "flipfire heal chokestar", &[13]); // 14 >= 10
    assert_eq!(hp(&t, "chokestar"), 2);
    assert_eq!(health(&t, "chokestar"), HitPointState::Healthy);
    submit(&mut t, "gm", "breakhelm shoot flipfire", &[6]); // 10 < 11
    assert_eq!(hp(&t, "flipfire"), 4);

    // Round 3.
    submit(
        &mut t,
        "chokestar-player",
        "chokestar hold breakhelm",
        &[13],
    ); // 15 >= 14
    assert_eq!(
        hp(&t, "breakhelm"),
        5,
        "R-SCR-4: a healthy, undelayed wrestler's hold deals 1"
    );
    let b = t.state().find("breakhelm").unwrap();
    assert!(t.state().characters[b].delayed());
    submit(&mut t, "flipfire-player", "flipfire shoot breakhelm", &[17]); // 19 >= 10
    assert_eq!(hp(&t, "breakhelm"), 3);
    assert_eq!(health(&t, "breakhelm"), HitPointState::Injured);
    // Delayed: Breakhelm X-19 can do nothing but end his turn.
    let gm = seat("gm");
    let shoot = Scratch::parse_command(t.state(), &gm, "breakhelm shoot flipfire").unwrap();
    let before = t.clone();
    let err = t
        .submit(&gm, &shoot, &mut Scripted::dice([20]))
        .unwrap_err();
    assert!(
        matches!(&err.kind, Refusal::Condition { condition } if condition == "delayed"),
        "{:?}",
        err.kind
    );
    assert!(err.message.contains("delayed"), "{}", err.message);
    assert_eq!(t, before, "a refused command changes nothing");
    submit(&mut t, "gm", "breakhelm end", &[]);
    assert!(
        !t.state().characters[b].delayed(),
        "the delay ends with his turn"
    );

    // Round 4.
    submit(
        &mut t,
        "chokestar-player",
        "chokestar attack breakhelm",
        &[14],
    ); // 16 >= 10
    assert_eq!(hp(&t, "breakhelm"), 2);
    submit(&mut t, "flipfire-player", "flipfire shoot breakhelm", &[10]); // 12 >= 10
    assert_eq!(hp(&t, "breakhelm"), 0);
    assert_eq!(health(&t, "breakhelm"), HitPointState::Incapacitated);
    assert_eq!(t.state().phase, Phase::Over);
    assert!(Scratch::finished(t.state()));
    testkit::assert_replay_rebuilds(&t);
}

#[test]
fn the_narrated_second_wrestling_attack_is_refused_under_r_scr_4() {
    let mut t = table();
    submit(&mut t, "gm", "initiative", &[13, 17, 14]);
    submit(
        &mut t,
        "chokestar-player",
        "chokestar hold breakhelm",
        &[11],
    );
    // The book's "damaging basic attack" in the same turn: his turn is over.
    let s = seat("chokestar-player");
    let cmd = Scratch::parse_command(t.state(), &s, "chokestar attack breakhelm").unwrap();
    let before = t.clone();
    let err = t.submit(&s, &cmd, &mut Scripted::dice([8])).unwrap_err();
    assert_eq!(err.kind, Refusal::NotYourTurn);
    assert_eq!(t, before);
}

#[test]
fn odds_of_each_damage_outcome_in_the_example() {
    use tabula_scratch::{Action, decide::preview};
    let mut t = table();
    submit(&mut t, "gm", "initiative", &[13, 17, 14]);
    let s = t.state();
    let id = |x: &str| s.find(x).unwrap();
    let close = |a: &[(i64, f64)], b: &[(i64, f64)]| {
        assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
        for ((va, pa), (vb, pb)) in a.iter().zip(b) {
            assert_eq!(va, vb);
            assert!((pa - pb).abs() < 1e-12, "{a:?} vs {b:?}");
        }
    };
    // Chokestar's wrestling hold (healthy, undelayed) against strength 14.
    let p = preview(
        s,
        id("chokestar"),
        &Action::Hold {
            target: "breakhelm".into(),
            with: None,
        },
    )
    .unwrap();
    close(&p[0].damage, &[(0, 0.55), (1, 0.40), (2, 0.05)]);
    // Breakhelm X-19's fighting against Chokestar's agility 13: two rolls.
    let p = preview(
        s,
        id("breakhelm"),
        &Action::Fight {
            targets: vec!["chokestar".into()],
        },
    )
    .unwrap();
    close(
        &p[0].damage,
        &[(0, 0.16), (1, 0.44), (2, 0.3425), (3, 0.055), (4, 0.0025)],
    );
    // Flipfire's shooting against agility 10: 2, or 5 on a natural 20 (R-SCR-3).
    let p = preview(
        s,
        id("flipfire"),
        &Action::Shoot {
            target: "breakhelm".into(),
        },
    )
    .unwrap();
    close(&p[0].damage, &[(0, 0.35), (2, 0.60), (5, 0.05)]);
    // Breakhelm X-19's shooting against Flipfire's agility 11.
    let p = preview(
        s,
        id("breakhelm"),
        &Action::Shoot {
            target: "flipfire".into(),
        },
    )
    .unwrap();
    close(&p[0].damage, &[(0, 0.30), (2, 0.65), (5, 0.05)]);
}

/// Brute force over the d20's faces: the chance that d20 + `level` reaches
/// `difficulty`, a natural 20 always succeeding (Scratch RPS, "Rolls").
fn d20_chance(level: u32, difficulty: u32) -> f64 {
    (1..=20u32)
        .filter(|v| *v == 20 || v + level >= difficulty)
        .count() as f64
        / 20.0
}

/// `TextPlay::odds` in the combat example (Scratch RPS, "Combat Example",
/// "Rolls", "Basic Actions", "Attack Abilities"; R-SCR-3, R-SCR-4): the seat
/// whose character may act gets each action at each target with the chance of
/// its roll (brute force over the d20) and the damage split status prints next
/// to it; the seats whose turn it is not get nothing.
#[test]
fn odds_offered_to_the_seat_whose_turn_it_is() {
    let mut t = table();
    let nobody_else = |t: &Table<Scratch>, except: &str| {
        for s in ["chokestar-player", "flipfire-player", "gm"] {
            if s != except {
                assert!(Scratch::odds(t.state(), &seat(s)).is_empty(), "{s}");
            }
        }
    };
    // Before initiative nobody has a choice with odds.
    nobody_else(&t, "");
    submit(&mut t, "gm", "initiative", &[13, 17, 14]);
    // Round 1, Chokestar: a basic attack with wrestling 2 against agility 10,
    // a hold with wrestling 2 against strength 14.
    let who = seat("chokestar-player");
    let odds = Scratch::odds(t.state(), &who);
    let got: Vec<(&str, f64)> = odds
        .iter()
        .map(|o| (o.choice.as_str(), o.probability))
        .collect();
    assert_eq!(got.len(), 2, "{odds:?}");
    assert_eq!(got[0].0, "chokestar attack breakhelm");
    assert!((got[0].1 - d20_chance(2, 10)).abs() < 1e-12);
    assert_eq!(got[1].0, "chokestar hold breakhelm");
    assert!((got[1].1 - d20_chance(2, 14)).abs() < 1e-12);
    assert!(
        odds[1].detail.contains("[0: 55.0%, 1: 40.0%, 2: 5.0%]"),
        "{odds:?}"
    );
    // The same numbers as the status line.
    let status = Scratch::status(t.state(), &who);
    for o in &odds {
        let (_, action) = o.choice.split_once(' ').unwrap();
        let shown = format!("{action} {:.1}%", o.probability * 100.0);
        assert!(status.contains(&shown), "{shown} not in {status}");
        if let Some((_, split)) = o.detail.split_once("; damage ") {
            assert!(status.contains(&format!("{shown} {split}")), "{status}");
        }
    }
    nobody_else(&t, "chokestar-player");

    // Flipfire: shooting 2 against agility 10 deals 2, or 5 on a natural 20 (R-SCR-3).
    submit(
        &mut t,
        "chokestar-player",
        "chokestar hold breakhelm",
        &[11],
    );
    let odds = Scratch::odds(t.state(), &seat("flipfire-player"));
    let shoot = odds
        .iter()
        .find(|o| o.choice == "flipfire shoot breakhelm")
        .unwrap_or_else(|| panic!("{odds:?}"));
    assert!((shoot.probability - d20_chance(2, 10)).abs() < 1e-12);
    assert!(
        shoot.detail.contains("[0: 35.0%, 2: 60.0%, 5: 5.0%]"),
        "{shoot:?}"
    );
    nobody_else(&t, "flipfire-player");

    // Breakhelm X-19 (the GM's): fighting 4 against Chokestar's agility 13.
    submit(&mut t, "flipfire-player", "flipfire shoot breakhelm", &[7]);
    let odds = Scratch::odds(t.state(), &Seat::Gm);
    let fight = odds
        .iter()
        .find(|o| o.choice == "breakhelm fight chokestar")
        .unwrap_or_else(|| panic!("{odds:?}"));
    assert!((fight.probability - d20_chance(4, 13)).abs() < 1e-12);
    assert!(
        fight
            .detail
            .contains("[0: 16.0%, 1: 44.0%, 2: 34.2%, 3: 5.5%, 4: 0.3%]"),
        "{fight:?}"
    );
    nobody_else(&t, "gm");
}
