//! The policy (`tabula_scratch::policy`): every suggestion is accepted, the
//! example table always plays to its end, the report is consistent, and the
//! choice is the sensible one in a hand-made situation.

use proptest::prelude::*;
use std::path::PathBuf;

use tabula_core::policy::{Awaiting, Policy};
use tabula_core::testkit::{self, STEP_CAP};
use tabula_core::{Seat, Seeded, System, Table, TextPlay};
use tabula_scratch::state::Phase;
use tabula_scratch::{Action, Command, Scratch, State};

fn example() -> State {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/scratch");
    let text = std::fs::read_to_string(dir.join("table.toml")).unwrap();
    Scratch::setup(&text, &dir).unwrap()
}

/// Give `cmd` for `awaiting` and apply its events.
fn step(state: &mut State, awaiting: &Awaiting, cmd: &Command, roller: &mut Seeded) {
    let events = Scratch::decide(state, &awaiting.seat, cmd, roller)
        .unwrap_or_else(|e| panic!("{cmd:?} for {awaiting:?} refused: {e}"));
    assert!(!events.is_empty(), "{cmd:?} produced no events");
    for e in &events {
        Scratch::evolve(state, e);
    }
}

/// Play `state` with the policy to its end, as `simulate` does
/// ([`testkit::play_policy`]). Returns the commands given.
fn play_out(state: &mut State, seed: u64) -> usize {
    let mut t = Table::<Scratch>::new(state.clone());
    let steps = testkit::play_policy(&mut t, seed, STEP_CAP, |_, _| {});
    *state = t.state().clone();
    steps
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// At every step, every awaited entry gets a suggestion that `decide`
    /// accepts on the current state, the same one twice; the table waits on
    /// someone until the end ([`testkit::assert_policy_choices_accepted`]).
    #[test]
    fn every_suggestion_is_accepted(seed in any::<u64>(), steps in 1usize..400) {
        let mut t = Table::<Scratch>::new(example());
        testkit::assert_policy_choices_accepted(&mut t, seed, steps, |_, _, _| {});
    }
}

/// 200 seeds of the example table play to the end without a refusal, within
/// the step cap, and each report names the winner and agrees with the state.
#[test]
fn the_example_table_plays_to_the_end_for_200_seeds() {
    let mut wins = std::collections::BTreeMap::<String, u32>::new();
    for seed in 0..200 {
        let mut state = example();
        let steps = play_out(&mut state, seed);
        assert!(steps < STEP_CAP);
        assert_eq!(state.phase, Phase::Over);
        assert!(Scratch::awaiting(&state).is_empty());
        let report = Scratch::report(&state);
        assert_eq!(report.sides, vec!["heroes", "villains"]);
        assert_eq!(report.round, state.round);
        assert!(report.round >= 1);
        let winner = report.winner.clone().expect("one side stands at the end");
        assert!(report.sides.contains(&winner));
        assert_eq!(report.participants.len(), state.characters.len());
        for (p, c) in report.participants.iter().zip(&state.characters) {
            assert_eq!(p.name, c.id);
            assert!(report.sides.contains(&p.side));
            assert_eq!(p.taken_out, c.hit_points == 0 || c.escaped);
            let hp = p.resources.iter().find(|r| r.name == "hit points").unwrap();
            let max = p.resources.iter().find(|r| r.name == "toughness").unwrap();
            assert_eq!(hp.value, f64::from(c.hit_points));
            assert!(hp.value <= max.value);
            // Everyone on the losing side is out; someone on the winning one is not.
            if p.side != winner {
                assert!(p.taken_out, "{} of the losing side still stands", p.name);
            }
        }
        assert!(
            report
                .participants
                .iter()
                .any(|p| p.side == winner && !p.taken_out)
        );
        *wins.entry(winner).or_default() += 1;
    }
    // Both sides can win the example encounter.
    assert_eq!(wins.values().sum::<u32>(), 200);
    assert_eq!(wins.len(), 2, "{wins:?}");
}

/// Same seed, same encounter: the policy adds no randomness.
#[test]
fn a_seed_replays_the_same_encounter() {
    let mut a = example();
    let mut b = example();
    let sa = play_out(&mut a, 42);
    let sb = play_out(&mut b, 42);
    assert_eq!(sa, sb);
    assert_eq!(a, b);
    assert_eq!(Scratch::report(&a), Scratch::report(&b));
}

/// Before the encounter the GM rolls initiative; afterwards the group whose
/// turn it is.
#[test]
fn the_table_waits_on_the_gm_then_on_the_group_whose_turn_it_is() {
    let mut state = example();
    let awaiting = Scratch::awaiting(&state);
    assert_eq!(awaiting, vec![Awaiting::table(Seat::Gm)]);
    assert_eq!(
        Scratch::suggest_for(&state, &awaiting[0]),
        Some(Command::Initiative)
    );
    // A player is not asked for initiative.
    assert_eq!(
        Scratch::suggest_for(&state, &Awaiting::table(Seat::parse("alice"))),
        None
    );
    let mut roller = Seeded::from_seed(3);
    step(&mut state, &awaiting[0], &Command::Initiative, &mut roller);
    let awaiting = Scratch::awaiting(&state);
    let g = state.current_group().unwrap();
    let group = &state.groups[g];
    assert!(!awaiting.is_empty());
    for a in &awaiting {
        assert!(a.seat.same_seat(&group.seat));
        let i = state.find(a.participant.as_deref().unwrap()).unwrap();
        assert_eq!(state.characters[i].group, g);
    }
    // Nobody else is asked.
    let other = state
        .groups
        .iter()
        .find(|x| !x.seat.same_seat(&group.seat))
        .unwrap()
        .seat
        .clone();
    assert_eq!(Scratch::suggest(&state, &other), None);
}

/// Start the encounter and give the turn to `actor`'s group: initiative with a
/// fixed roller, then everyone else's turns ended until it is `actor`'s.
fn turn_of(state: &mut State, actor: &str) {
    let mut roller = Seeded::from_seed(9);
    step(
        state,
        &Awaiting::table(Seat::Gm),
        &Command::Initiative,
        &mut roller,
    );
    let a = state.find(actor).unwrap();
    let mut guard = 0;
    while state.current_group() != Some(state.characters[a].group) {
        guard += 1;
        assert!(guard < 50);
        let g = state.current_group().unwrap();
        let seat = state.groups[g].seat.clone();
        let who = state.groups[g]
            .members
            .iter()
            .copied()
            .find(|m| state.may_start_turn(*m))
            .unwrap();
        let cmd = Command::Act {
            actor: state.characters[who].id.clone(),
            action: Action::End,
        };
        step(state, &Awaiting::table(seat), &cmd, &mut roller);
    }
}

/// Zimzambamalam (8 shooting) shoots, and shoots the weakest reachable foe:
/// with The Boss's thugs at 1 hit point and Breakhelm X-19 at 6, a thug
/// (agility 10: 2 damage on 95% of rolls takes him out) rather than the
/// stronger foes.
#[test]
fn the_policy_shoots_the_weakest_reachable_foe() {
    let mut state = example();
    turn_of(&mut state, "zimzambamalam");
    let thug = state.find("Thug 2").unwrap();
    state.characters[thug].hit_points = 1;
    let seat = Seat::parse("bob");
    let cmd = Scratch::suggest_for(
        &state,
        &Awaiting::participant(seat.clone(), "zimzambamalam"),
    )
    .unwrap();
    assert_eq!(
        cmd,
        Command::Act {
            actor: "zimzambamalam".into(),
            action: Action::Shoot {
                target: state.characters[thug].id.clone()
            },
        }
    );
    // With every foe at full hit points he still shoots (his best odds
    // times damage), at a foe he is likeliest to take out: a thug (2 hit
    // points, agility 10), not Breakhelm X-19 (6).
    let mut fresh = example();
    turn_of(&mut fresh, "zimzambamalam");
    let Some(Command::Act {
        action: Action::Shoot { target },
        ..
    }) = Scratch::suggest_for(&fresh, &Awaiting::participant(seat, "zimzambamalam"))
    else {
        panic!("Zimzambamalam does not shoot");
    };
    let t = fresh.find(&target).unwrap();
    assert!(fresh.characters[t].character.name().starts_with("Thug"));
}

/// A healer heals an injured ally when that is worth more than her attacks;
/// a healthy fighter engages before his close range attack.
#[test]
fn the_healer_heals_and_the_fighter_engages() {
    let mut state = example();
    turn_of(&mut state, "flipfire");
    let zim = state.find("zimzambamalam").unwrap();
    // Zimzambamalam (2 toughness) is down: reviving him brings back 8 shooting.
    state.characters[zim].hit_points = 0;
    let cmd = Scratch::suggest_for(
        &state,
        &Awaiting::participant(Seat::parse("bob"), "flipfire"),
    )
    .unwrap();
    assert_eq!(
        cmd,
        Command::Act {
            actor: "flipfire".into(),
            action: Action::Heal {
                target: "zimzambamalam".into()
            },
        }
    );

    let mut state = example();
    turn_of(&mut state, "breakhelm");
    let gm = Seat::Gm;
    let first =
        Scratch::suggest_for(&state, &Awaiting::participant(gm.clone(), "breakhelm")).unwrap();
    // Breakhelm X-19 is healthy and fights at close range: engage first.
    assert_eq!(
        first,
        Command::Act {
            actor: "breakhelm".into(),
            action: Action::Engage,
        }
    );
    let mut roller = Seeded::from_seed(1);
    step(
        &mut state,
        &Awaiting::table(gm.clone()),
        &first,
        &mut roller,
    );
    let second = Scratch::suggest_for(&state, &Awaiting::participant(gm, "breakhelm")).unwrap();
    assert!(
        matches!(
            second,
            Command::Act {
                action: Action::Fight { .. } | Action::Attack { .. } | Action::Knockout { .. },
                ..
            }
        ),
        "{second:?}"
    );
}
