//! The policy ([`Policy`] for [`Sapio`]): every suggestion is accepted, the
//! example table plays to its end, the choices follow the odds, and `decide`
//! ends rounds exactly as a full evolve of a copy would.

use std::path::PathBuf;

use proptest::prelude::*;
use tabula_core::Seeded;
use tabula_core::decided::Decided;
use tabula_core::policy::{Awaiting, Policy};
use tabula_core::system::{Seat, System, Table, TextPlay};
use tabula_core::testkit::{self, STEP_CAP};
use tabula_sapio::checks::{self, PoolSpec};
use tabula_sapio::event::Event;
use tabula_sapio::policy::{DEFENSIVE_TN, LUCK_MIN_GAIN, ROUND_CAP, SIDE_GM, SIDE_PLAYERS};
use tabula_sapio::{Command, Sapio, State, odds};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/sapio")
}

fn example() -> State {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Sapio::setup(&text, &dir).unwrap()
}

/// The round end `decide` must announce, computed the slow way: the table
/// after every event but `RoundEnded` ([`Decided`], a copy evolved), then
/// ask whether every active participant has been focal ("Action Sequences
/// in Play").
fn reference_round_end(state: &State, events: &[Event]) -> Option<u32> {
    let mut decided = Decided::<Sapio>::new(state);
    decided.emit_all(
        events
            .iter()
            .filter(|e| !matches!(e, Event::RoundEnded { .. }))
            .cloned(),
    );
    let after = decided.state();
    let s = after.sequence.as_ref()?;
    let active: Vec<_> = s
        .participants
        .iter()
        .filter(|p| {
            after
                .characters
                .get(p.character)
                .is_some_and(|m| !m.character.out_of_action())
        })
        .collect();
    let complete = after.check.is_none()
        && !s.framed
        && s.turns > 0
        && !active.is_empty()
        && active.iter().all(|p| p.focal_done);
    complete.then_some(s.round)
}

fn announced_round_end(events: &[Event]) -> Option<u32> {
    events.iter().find_map(|e| match e {
        Event::RoundEnded { round } => Some(*round),
        _ => None,
    })
}

/// One step of a simulation: the first of `awaiting`, its suggestion,
/// decided with `roller` and evolved. Panics on anything the engine reports
/// as a policy bug.
fn step(state: &mut State, roller: &mut Seeded) -> Vec<Event> {
    let waiting = Sapio::awaiting(state);
    let first = waiting
        .first()
        .unwrap_or_else(|| panic!("nothing awaited before the end: {state:?}"));
    let cmd = Sapio::suggest_for(state, first)
        .unwrap_or_else(|| panic!("no suggestion for {first:?}: {state:?}"));
    let events = Sapio::decide(state, &first.seat, &cmd, roller)
        .unwrap_or_else(|e| panic!("{cmd:?} by {} refused: {e}", first.seat));
    assert_eq!(
        announced_round_end(&events),
        reference_round_end(state, &events),
        "{cmd:?}"
    );
    for e in &events {
        Sapio::evolve(state, e);
    }
    events
}

/// Play the example table to its end with `seed`
/// ([`testkit::play_policy`]), each step ending the round as a full evolve
/// says; the state and the steps.
fn play(seed: u64) -> (State, usize) {
    let mut t = Table::<Sapio>::new(example());
    let steps = testkit::play_policy(&mut t, seed, STEP_CAP, |before, logged| {
        let events: Vec<Event> = logged.iter().map(|e| e.event.clone()).collect();
        assert_eq!(
            announced_round_end(&events),
            reference_round_end(before, &events)
        );
    });
    (t.state().clone(), steps)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// At every step every awaited entry gets a suggestion `decide` accepts
    /// ([`testkit::assert_policy_choices_accepted`]), which ends the round
    /// exactly when a full evolve of a copy says; the table waits on someone
    /// until the encounter is over.
    #[test]
    fn every_awaited_step_has_an_accepted_suggestion(seed in any::<u64>(), steps in 1usize..400) {
        let mut t = Table::<Sapio>::new(example());
        testkit::assert_policy_choices_accepted(&mut t, seed, steps, |state, a, cmd| {
            let mut probe = Seeded::from_seed(seed);
            let events = Sapio::decide(state, &a.seat, cmd, &mut probe).expect("accepted");
            assert_eq!(
                announced_round_end(&events),
                reference_round_end(state, &events),
                "{cmd:?}"
            );
        });
    }

    /// The GM may also record harm by hand (a Severe Injury taking a
    /// participant out mid-round): `decide` still ends the round exactly
    /// when a full evolve of a copy says it is complete, and the policy
    /// carries on from there.
    #[test]
    fn rounds_end_as_a_full_evolve_says_with_harm_from_the_gm(
        seed in any::<u64>(),
        harms in proptest::collection::vec((0usize..4, 0usize..120), 0..6),
    ) {
        let mut state = example();
        let mut roller = Seeded::from_seed(seed);
        for n in 0..600 {
            if Sapio::finished(&state) {
                break;
            }
            for (k, (who, at)) in harms.iter().enumerate() {
                if *at == n {
                    let cmd = Command::Harm {
                        character: *who,
                        kind: tabula_sapio::harm::HarmKind::Stress,
                        level: tabula_sapio::harm::Level::Severe,
                        name: format!("Shock {k}"),
                        similar_to: None,
                    };
                    if let Ok(events) = Sapio::decide(&state, &Seat::Gm, &cmd, &mut roller) {
                        prop_assert_eq!(
                            announced_round_end(&events),
                            reference_round_end(&state, &events)
                        );
                        for e in &events {
                            Sapio::evolve(&mut state, e);
                        }
                    }
                }
            }
            if Sapio::finished(&state) {
                break;
            }
            step(&mut state, &mut roller);
        }
    }
}

/// A command of the GM's by number, over the four characters: the moves
/// that change an Action Sequence's turns (joining, leaving, fights, ending
/// the sequence, taking someone out, the GM removing or adding one).
fn gm_command(k: usize) -> Command {
    let i = k % 4;
    match k / 4 {
        0 => Command::Threaten { character: i },
        1 => Command::EnterFray { character: i },
        2 => Command::LeaveFray { character: i },
        3 => Command::Focal { character: i },
        4 => Command::Fight {
            aggressor: i,
            defender: (i + 1) % 4,
        },
        5 => Command::Harm {
            character: i,
            kind: tabula_sapio::harm::HarmKind::Injury,
            level: tabula_sapio::harm::Level::Severe,
            name: format!("Wound {i}"),
            similar_to: None,
        },
        6 => Command::Roll {
            weapon: None,
            target: None,
        },
        7 => Command::Tn {
            tn: 2,
            not_relevant: vec![],
        },
        8 => Command::Frame {
            text: "A turn".into(),
        },
        9 => Command::EndSequence,
        10 => Command::BeginSequence {
            goal: "Escape".into(),
        },
        11 => Command::Remove { character: i },
        _ => Command::Add {
            kind: ["enforcer", "Wren", "Vance", "desert-commando"][i].into(),
            name: None,
            to: None,
            sheet: None,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Policy steps mixed with the GM's own moves: whenever `decide` accepts
    /// a command, it ends the round exactly when a full evolve of a copy of
    /// the table says the round is complete (decide no longer clones the
    /// table to find out).
    #[test]
    fn decide_ends_rounds_as_a_full_evolve_says(
        seed in any::<u64>(),
        moves in proptest::collection::vec(proptest::option::weighted(0.3, 0usize..52), 1..300),
    ) {
        let mut state = example();
        let mut roller = Seeded::from_seed(seed);
        for m in moves {
            if Sapio::finished(&state) {
                break;
            }
            let (seat, cmd) = match m {
                Some(k) => (Seat::Gm, gm_command(k)),
                None => {
                    let waiting = Sapio::awaiting(&state);
                    let Some(first) = waiting.first() else { break };
                    match Sapio::suggest_for(&state, first) {
                        Some(cmd) => (first.seat.clone(), cmd),
                        None => break,
                    }
                }
            };
            if let Ok(events) = Sapio::decide(&state, &seat, &cmd, &mut roller) {
                prop_assert_eq!(
                    announced_round_end(&events),
                    reference_round_end(&state, &events),
                    "{:?}", cmd
                );
                for e in &events {
                    Sapio::evolve(&mut state, e);
                }
            }
        }
    }
}

/// The example table played to its end for 200 seeds: no refusal, within the
/// step cap, and a report whose fields agree with the table.
#[test]
fn the_example_table_plays_to_the_end_for_200_seeds() {
    let mut wins = [0u32; 2];
    let mut undecided = 0;
    for seed in 0..200 {
        let (state, steps) = play(seed);
        assert!(steps > 0);
        let r = Sapio::report(&state);
        assert_eq!(r.sides, vec![SIDE_PLAYERS.to_string(), SIDE_GM.to_string()]);
        assert_eq!(r.participants.len(), 4);
        assert!(r.round >= 1 && r.round <= ROUND_CAP, "round {}", r.round);
        for (p, m) in r.participants.iter().zip(&state.characters) {
            assert_eq!(p.name, m.character.name());
            assert_eq!(p.taken_out, m.character.out_of_action());
            let side = if m.character.player().is_some() {
                SIDE_PLAYERS
            } else {
                SIDE_GM
            };
            assert_eq!(p.side, side);
            let luck = p.resources.iter().find(|x| x.name == "Luck").unwrap();
            assert_eq!(luck.value, f64::from(m.character.luck()));
            assert_eq!(p.resources.len(), 7);
        }
        let standing = |side: &str| {
            r.participants
                .iter()
                .any(|p| p.side == side && !p.taken_out)
        };
        match r.winner.as_deref() {
            Some(w) => {
                assert!(
                    standing(w),
                    "seed {seed}: the winner {w} has nobody standing"
                );
                let other = if w == SIDE_PLAYERS {
                    SIDE_GM
                } else {
                    SIDE_PLAYERS
                };
                assert!(!standing(other), "seed {seed}: {other} still stands");
                wins[usize::from(w == SIDE_GM)] += 1;
            }
            None => {
                // Only the round cap ends an encounter both sides stand in.
                assert!(standing(SIDE_PLAYERS) && standing(SIDE_GM));
                assert_eq!(r.round, ROUND_CAP, "seed {seed}");
                undecided += 1;
            }
        }
        assert!(state.over, "seed {seed}: the GM ends the encounter");
    }
    assert_eq!(wins[0] + wins[1] + undecided, 200);
    // Three against one: the players win nearly always, but the dice decide.
    assert!(wins[0] > 150, "players won {} of 200", wins[0]);
}

/// The same seed plays the same encounter (the policy adds no randomness).
#[test]
fn the_same_seed_plays_the_same_encounter() {
    let (a, n) = play(7);
    let (b, m) = play(7);
    assert_eq!(n, m);
    assert_eq!(a, b);
}

/// Walk the policy until `until` holds for the state; panics after the cap.
fn walk_until(state: &mut State, roller: &mut Seeded, until: impl Fn(&State) -> bool) {
    for _ in 0..STEP_CAP {
        if until(state) {
            return;
        }
        step(state, roller);
    }
    panic!("never reached");
}

/// A second thug, carrying two Moderate Injuries already.
fn two_thugs() -> State {
    let dir = examples();
    let text = r#"
title = "Two thugs"

[[characters]]
file = "desert-commando.toml"

[[characters]]
file = "enforcer.toml"

[[characters]]
[characters.sheet]
name = "Rook"
qualities = ["Quick", "Heavy"]
principle = "Pay debts"
worst_impulse = "Greed"
profession = { name = "Street Tough", specializations = ["Knives"] }
side_professions = [{ name = "Dock Worker" }]
special_talents = [{ name = "Small Contraption", text = "Always makes a small contraption" }]
weapons = [{ name = "Knife", level = "minor" }]
injuries = { minor = ["Bruise", "Scrape"], moderate = ["Cut", "Burn"], debilitated = false }
"#;
    Sapio::setup(text, &dir).unwrap()
}

/// Sable (a Hunting Rifle) aims at the weakest reachable foe: Rook, whose
/// Moderate boxes are full, rather than the unhurt Vance; the GM sets the TN
/// Rook would set defending (R-SA-5, R-SA-11), and Sable calls out Deadly Aim for the
/// attack.
#[test]
fn the_policy_attacks_the_weakest_foe_at_the_tn_it_would_defend() {
    let mut state = two_thugs();
    let mut roller = Seeded::from_seed(3);
    let sable = state.find("Sable").unwrap();
    let rook = state.find("Rook").unwrap();
    walk_until(&mut state, &mut roller, |s| {
        s.check.as_ref().is_some_and(|c| c.focal == sable)
    });
    let gm = Awaiting::table(Seat::Gm);
    // Rook defending: Street Tough fully (2 dice, R-SA-11), Knives, Quick: TN 5.
    assert_eq!(
        Sapio::suggest_for(&state, &gm),
        Some(Command::Tn {
            tn: 5,
            not_relevant: vec![]
        })
    );
    walk_until(&mut state, &mut roller, |s| {
        s.check
            .as_ref()
            .is_some_and(|c| c.focal == sable && c.tn.is_some())
    });
    let mut talents = Vec::new();
    let roll = loop {
        let cmd = Sapio::suggest(&state, &Seat::Player("Cy".into())).unwrap();
        if let Command::Talent { name } = &cmd {
            talents.push(name.clone());
        }
        if matches!(cmd, Command::Roll { .. }) {
            break cmd;
        }
        step(&mut state, &mut roller);
    };
    assert_eq!(
        roll,
        Command::Roll {
            weapon: Some("Hunting Rifle".into()),
            target: Some(rook)
        }
    );
    assert_eq!(talents, vec!["Deadly Aim".to_string()]);
    // The pool: Desert Commando fully (2), Wilderness Survival, Tough, and
    // the starting die: five dice.
    let c = state.check.as_ref().unwrap();
    assert_eq!(c.built(), 5);
}

/// Luck goes on the pool only when each Luck moves the exact chance of
/// meeting the TN by at least `LUCK_MIN_GAIN` (one die, or a pair past six
/// that lowers the TN, R-SA-2); Wren, without a weapon, takes a defensive
/// action at the lower TN with neither Luck nor help.
#[test]
fn luck_follows_the_odds_and_a_defensive_turn_spends_nothing() {
    let mut spent = 0;
    for seed in 0..40 {
        let mut state = example();
        let mut roller = Seeded::from_seed(seed);
        for _ in 0..STEP_CAP {
            if Sapio::finished(&state) {
                break;
            }
            let waiting = Sapio::awaiting(&state);
            let first = waiting.first().unwrap();
            let cmd = Sapio::suggest_for(&state, first).unwrap();
            let gain = |state: &State, k: u32| {
                let c = state.check.as_ref().unwrap();
                let m = &state.characters[c.focal];
                let (spec, _) = c.spec(&m.character);
                let p = |bonus: u32| {
                    let pool = checks::settle(&PoolSpec { bonus, ..spec });
                    odds::p_success(pool.dice, pool.tn).unwrap()
                };
                p(spec.bonus + k) - p(spec.bonus)
            };
            if let (Some(c), Command::SpendLuck { amount }) = (&state.check, &cmd) {
                let m = &state.characters[c.focal];
                assert!(*amount == 1 || *amount == 2);
                assert!(!m.character.sheet().weapons.is_empty(), "no stake, no Luck");
                assert!(gain(&state, *amount) >= f64::from(*amount) * LUCK_MIN_GAIN);
                spent += amount;
            }
            if let (Some(c), Command::Roll { .. }) = (&state.check, &cmd) {
                let m = &state.characters[c.focal];
                let attacking = matches!(
                    cmd,
                    Command::Roll {
                        weapon: Some(_),
                        ..
                    }
                );
                let left = m.character.luck() - c.luck;
                if attacking {
                    for k in 1..=left.min(2) {
                        assert!(gain(&state, k) < f64::from(k) * LUCK_MIN_GAIN);
                    }
                }
                if m.character.name() == "Wren" {
                    assert!(!attacking);
                    assert_eq!(c.tn, Some(DEFENSIVE_TN));
                    assert_eq!(c.luck, 0);
                    assert!(c.help.is_empty());
                }
            }
            step(&mut state, &mut roller);
        }
    }
    assert!(spent > 0, "the policy never spent Luck");
}
