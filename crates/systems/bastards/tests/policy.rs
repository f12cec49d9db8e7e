//! The policy (`tabula_bastards::policy`): every suggestion is accepted, the
//! example table always plays to its end, and the choices are sensible.

mod common;
use common::{draft, fated, state};
use proptest::prelude::*;
use std::path::PathBuf;
use tabula_bastards::command::Command;
use tabula_bastards::odds::{BetMove, lead_chance_after};
use tabula_bastards::policy::{ROUND_CAP, opposition_over};
use tabula_bastards::state::{HandKind, Phase, Side, State};
use tabula_bastards::{Bastards, deck};
use tabula_core::cards::Card;
use tabula_core::policy::{Awaiting, EncounterReport, Policy};
use tabula_core::roller::Seeded;
use tabula_core::system::{Seat, System, Table, TextPlay};
use tabula_core::testkit::{self, STEP_CAP};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples/bastards")
}

fn initial(file: &str) -> State {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    Bastards::setup(&text, &dir).unwrap()
}

/// One step of a simulation: the first of `awaiting`, its suggestion,
/// decided and evolved. Panics on a refusal or a missing suggestion.
fn step(state: &mut State, roller: &mut Seeded) -> (Awaiting, Command) {
    let awaiting = Bastards::awaiting(state);
    let first = awaiting
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("nothing awaited before the end: {:?}", state.phase));
    let command = Bastards::suggest_for(state, &first)
        .unwrap_or_else(|| panic!("no suggestion for {first:?} in {:?}", state.phase));
    let events = Bastards::decide(state, &first.seat, &command, roller)
        .unwrap_or_else(|e| panic!("{first:?} {command:?} refused: {e}"));
    for e in &events {
        Bastards::evolve(state, e);
    }
    (first, command)
}

/// Play a whole encounter with the policy ([`testkit::play_policy`]); the
/// commands it took.
fn simulate(file: &str, seed: u64) -> (State, usize) {
    let mut t = Table::<Bastards>::new(initial(file));
    let steps = testkit::play_policy(&mut t, seed, STEP_CAP, |_, _| {});
    (t.state().clone(), steps)
}

fn check_report(state: &State, r: &EncounterReport) {
    assert_eq!(r.participants.len(), state.combatants.len());
    assert_eq!(r.round, state.round);
    for (p, c) in r.participants.iter().zip(&state.combatants) {
        assert_eq!(p.name, c.name);
        assert!(r.sides.contains(&p.side), "{} on an unknown side", p.name);
        assert_eq!(p.taken_out, c.knocked_out);
        assert!(p.resources.iter().all(|x| x.value >= 0.0));
        assert!(p.resources.iter().any(|x| x.name == "cards in hand"));
    }
    let standing: Vec<&str> = r
        .participants
        .iter()
        .zip(&state.combatants)
        .filter(|(_, c)| c.active())
        .map(|(p, _)| p.side.as_str())
        .collect();
    match &r.winner {
        Some(w) => {
            assert!(r.sides.contains(w));
            assert!(
                standing.iter().all(|s| s == w),
                "{w} won beside {standing:?}"
            );
            assert!(!standing.is_empty());
        }
        None => {
            // No winner: the sides gave up at the round cap (or nobody stands).
            let mut sides = standing.clone();
            sides.dedup();
            assert!(
                sides.len() != 1 || r.sides.len() < 2,
                "{sides:?} stand alone"
            );
        }
    }
}

#[test]
fn the_example_table_plays_to_the_end_for_200_seeds() {
    let mut wins = std::collections::BTreeMap::<String, u32>::new();
    let (mut longest, mut commands, mut rounds) = (0, 0, 0);
    for seed in 0..200 {
        let (state, steps) = simulate("table.toml", seed);
        longest = longest.max(steps);
        commands += steps;
        rounds += state.round;
        let r = Bastards::report(&state);
        check_report(&state, &r);
        assert_eq!(r.sides, ["players", "Dealer"]);
        assert!(r.round <= ROUND_CAP + 1, "seed {seed}: round {}", r.round);
        *wins
            .entry(r.winner.unwrap_or_else(|| "none".into()))
            .or_default() += 1;
    }
    // Most encounters end with a side standing, not at the round cap.
    assert!(wins.get("none").copied().unwrap_or(0) < 40, "{wins:?}");
    assert!(wins.get("players").copied().unwrap_or(0) > 0, "{wins:?}");
    assert!(longest < STEP_CAP);
    eprintln!(
        "table.toml, 200 seeds: {wins:?}, longest {longest} commands, mean {} commands, mean {} rounds",
        commands / 200,
        rounds / 200
    );
}

#[test]
fn the_indirect_table_plays_to_the_end() {
    for seed in 0..50 {
        let (state, _) = simulate("indirect.toml", seed);
        let r = Bastards::report(&state);
        check_report(&state, &r);
        assert_eq!(r.sides, ["Stella", "Blaine"]);
    }
}

/// `state` with everything `seat` cannot see changed (R-GB-12): other seats'
/// hands and face-down cards become other cards (as many), their characters'
/// pools change, the deck is reordered.
fn blind(state: &State, seat: &Seat) -> State {
    let mut s = state.clone();
    let other = card("2C", 3000).face;
    let theirs: Vec<bool> = s
        .combatants
        .iter()
        .map(|c| !c.controlled_by(seat))
        .collect();
    for (c, hidden) in s.combatants.iter_mut().zip(&theirs) {
        if !hidden {
            continue;
        }
        for k in &mut c.hand {
            k.face = other;
        }
        if let tabula_bastards::state::Body::Fated { pools, .. } = &mut c.body {
            *pools = [3, 3, 3, 3];
        }
    }
    if let Phase::Exchange(x) = &mut s.phase {
        for (i, down) in [
            (x.attacker, &mut x.attacker_down),
            (x.defender, &mut x.defender_down),
        ] {
            if theirs.get(i).copied().unwrap_or(false)
                && let Some(k) = down
            {
                k.face = other;
            }
        }
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// From the example table, at every step every entry of `awaiting` gets a
    /// suggestion that `decide` accepts on the current state; the first is
    /// applied; the table waits on someone until the encounter is finished.
    #[test]
    fn every_awaited_step_gets_an_accepted_suggestion(seed in any::<u64>(), steps in 1usize..400) {
        every_awaited_step("table.toml", seed, steps);
    }

    /// The same from the Indirect Opposition table (each seat a side).
    #[test]
    fn every_awaited_step_of_the_indirect_table_gets_an_accepted_suggestion(
        seed in any::<u64>(),
        steps in 1usize..200,
    ) {
        every_awaited_step("indirect.toml", seed, steps);
    }
}

fn every_awaited_step(file: &str, seed: u64, steps: usize) {
    every_awaited_step_from(initial(file), seed, steps)
}

/// [`every_awaited_step`] from `start`: [`testkit::assert_policy_choices_accepted`],
/// and nothing the seat cannot see changes the choice (R-GB-12).
fn every_awaited_step_from(start: State, seed: u64, steps: usize) {
    let mut t = Table::<Bastards>::new(start);
    testkit::assert_policy_choices_accepted(&mut t, seed, steps, |state, a, command| {
        assert_eq!(
            Bastards::suggest_for(&blind(state, &a.seat), a).as_ref(),
            Some(command),
            "{a:?}: a hidden card changed the choice"
        );
    });
}

// --- An empty shoe ------------------------------------------------------------

/// Twenty-four Fated (twelve players, twelve of the Dealer's): the Draw Step
/// deals every one of the shoe's 104 cards that are not Jokers (the last ones
/// dealt get fewer than five, or none, and act last), so the deck and the
/// discard pile are dry from the first draw.
fn crowded_table() -> State {
    let mut v = Vec::new();
    for k in 0..12 {
        v.push(fated(draft(&format!("P{k}"), &format!("p{k}"), &[])));
        v.push(fated(draft(&format!("D{k}"), "", &[])));
    }
    state(v)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// "Shuffling": no policy proposes a command `decide` refuses, on a table
    /// large enough to empty the shoe (deck and discard pile both empty).
    #[test]
    fn no_policy_proposes_a_refused_command_when_the_shoe_runs_dry(
        seed in any::<u64>(),
        steps in 1usize..500,
    ) {
        every_awaited_step_from(crowded_table(), seed, steps);
    }
}

#[test]
fn an_empty_shoe_draws_nothing_and_the_crowded_table_plays_to_the_end() {
    for seed in 0..3 {
        let mut state = crowded_table();
        let mut roller = Seeded::from_seed(seed);
        let mut dry_draws = 0;
        let mut steps = 0;
        while !Bastards::finished(&state) {
            assert!(steps < STEP_CAP, "seed {seed}: over {STEP_CAP} commands");
            let dry = deck::drawable(&state.shoe) == 0;
            let before = state.combatants.clone();
            let (_, command) = step(&mut state, &mut roller);
            if dry && command == Command::Draw {
                // The draw is accepted and draws nothing: the hand is played
                // with what is held.
                dry_draws += 1;
                let held: Vec<usize> = state.combatants.iter().map(|c| c.hand.len()).collect();
                let was: Vec<usize> = before.iter().map(|c| c.hand.len()).collect();
                assert_eq!(held, was, "seed {seed}: nothing to draw");
            }
            steps += 1;
        }
        assert!(
            dry_draws > 0,
            "seed {seed}: the shoe never ran dry at a draw"
        );
        check_report(&state, &Bastards::report(&state));
    }
}

// --- Sensible choices in hand-made situations -------------------------------

fn card(text: &str, id: u16) -> Card {
    let spec: tabula_core::cards::CardSpec = text.parse().unwrap();
    let tabula_core::cards::CardSpec::Face(face) = spec else {
        panic!("{text}")
    };
    Card {
        id: tabula_core::cards::CardId(id),
        face,
    }
}

/// The example table with the Opposition begun and Cynthia's turn under
/// way, her hand set: the seed does not matter.
fn cynthias_turn(hand: &[&str]) -> State {
    let mut state = initial("table.toml");
    let mut roller = Seeded::from_seed(3);
    for e in Bastards::decide(&state, &Seat::Gm, &Command::Begin, &mut roller).unwrap() {
        Bastards::evolve(&mut state, &e);
    }
    let cynthia = state
        .combatants
        .iter()
        .position(|c| c.name == "Cynthia")
        .unwrap();
    // Put the hand aside (ids far above the shoe's so nothing collides).
    let c = &mut state.combatants[cynthia];
    c.hand = hand
        .iter()
        .enumerate()
        .map(|(k, t)| card(t, 1000 + k as u16))
        .collect();
    state.phase = Phase::Turn {
        actor: cynthia,
        drawn: true,
    };
    state
}

#[test]
fn an_attack_goes_to_the_weakest_reachable_foe() {
    let state = cynthias_turn(&["KH", "9C", "4S"]);
    let stella = Seat::Player("Stella".into());
    let cmd = Bastards::suggest(&state, &stella).unwrap();
    // The Thugs (Extras, one "pool" of members, no Trait on defense) before
    // the fresh investor (two pools) and the Bodyguard (Power 3 on defense).
    let Command::Attack {
        target,
        skill,
        kind,
        ..
    } = cmd
    else {
        panic!("{cmd:?}")
    };
    assert_eq!(target, "Thugs");
    assert_eq!(skill, "Sword Combat"); // rank 2 and the cane sword's +2
    assert_eq!(kind, HandKind::Physical);
}

#[test]
fn a_desperate_foe_is_hit_where_it_still_has_points() {
    let mut state = cynthias_turn(&["KH", "9C", "4S"]);
    // Only the investor is left, and he is Desperate.
    for c in &mut state.combatants {
        if c.name == "Thugs" || c.name == "Bodyguard" {
            c.knocked_out = true;
        }
        if let tabula_bastards::state::Body::Fated { desperate, .. } = &mut c.body
            && c.name == "The investor"
        {
            *desperate = true;
        }
    }
    let cmd = Bastards::suggest(&state, &Seat::Player("Stella".into())).unwrap();
    let Command::Attack { target, kind, .. } = cmd else {
        panic!("{cmd:?}")
    };
    assert_eq!(target, "The investor");
    assert_ne!(kind, HandKind::Physical);
}

#[test]
fn an_empty_hand_holds_the_action_and_a_won_opposition_ends() {
    let mut state = cynthias_turn(&[]);
    let stella = Seat::Player("Stella".into());
    assert_eq!(Bastards::suggest(&state, &stella), Some(Command::Pass));
    for c in &mut state.combatants {
        if c.controller.is_gm() {
            c.knocked_out = true;
        }
    }
    assert!(opposition_over(&state));
    let first = Bastards::awaiting(&state).first().cloned().unwrap();
    assert_eq!(first, Awaiting::table(Seat::Gm));
    assert_eq!(Bastards::suggest_for(&state, &first), Some(Command::End));
    assert_eq!(Bastards::report(&state).winner.as_deref(), Some("players"));
}

#[test]
fn betting_follows_the_exact_odds() {
    // Cynthia (Body 2) attacks the Thugs with her cane sword: 4C face down
    // against an unseen card. Behind, she bets the lowest card that brings her
    // to 70% (QH, not the KD, not the 2C or 3C that leave her behind); far
    // ahead she calls.
    let mut state = cynthias_turn(&["2C", "3C", "QH", "KD"]);
    let stella = Seat::Player("Stella".into());
    let attack = Command::Attack {
        target: "Thugs".into(),
        skill: "Sword Combat".into(),
        kind: HandKind::Physical,
        options: Default::default(),
    };
    let mut roller = Seeded::from_seed(5);
    for e in Bastards::decide(&state, &stella, &attack, &mut roller).unwrap() {
        Bastards::evolve(&mut state, &e);
    }
    let Phase::Exchange(x) = &mut state.phase else {
        panic!("{:?}", state.phase)
    };
    x.attacker_down = Some(card("4C", 2000));
    x.defender_down = Some(card("KS", 2001));
    x.to_act = Side::Attacker;
    let chance = |state: &State, mv| lead_chance_after(state, &stella, Side::Attacker, mv).unwrap();
    let hand = state
        .combatants
        .iter()
        .find(|c| c.name == "Cynthia")
        .unwrap()
        .hand
        .clone();
    let p: Vec<f64> = hand
        .iter()
        .map(|k| chance(&state, BetMove::Bet(k)))
        .collect();
    assert!(chance(&state, BetMove::Call) < 0.7);
    assert!(p[0] < 0.7 && p[1] < 0.7 && p[2] >= 0.7, "{p:?}");
    assert_eq!(
        Bastards::suggest(&state, &stella),
        Some(Command::Bet { card: "QH".into() })
    );
    let Phase::Exchange(x) = &mut state.phase else {
        unreachable!()
    };
    x.attacker_up.push(card("KH", 2002));
    assert!(chance(&state, BetMove::Call) >= 0.7);
    assert_eq!(Bastards::suggest(&state, &stella), Some(Command::Call));
}

/// R-GB-16: the one acted against mulligans a thin hand (fewer than two cards)
/// when it has already acted this round, and never gives up a turn to come.
#[test]
fn the_one_acted_against_mulligans_a_thin_hand_when_no_action_is_lost_r_gb_16() {
    use tabula_core::roller::Scripted;
    let mut t = common::opened(
        fated(draft("A", "a", &[])),
        fated(draft("B", "b", &[])),
        ["2C", "9S", "5H", "KD", "4H"],
        ["3C", "7S", "6H", "QD", "8H"],
        "10C",
    );
    let mut r = Scripted::values(["2S"]);
    common::run(
        &mut t,
        &["a: attack B Unarmed_Combat physical", "a: play KD"],
        &mut r,
    );
    let mut state = t.state().clone();
    let b = state.combatants.iter().position(|c| c.name == "B").unwrap();
    state.combatants[b].hand.truncate(1);
    let awaiting = Bastards::awaiting(&state);
    let defender = awaiting.first().cloned().unwrap();
    // B's turn is still to come this round: it plays its one card.
    assert!(matches!(
        Bastards::suggest_for(&state, &defender),
        Some(Command::Play { .. })
    ));
    // B has acted this round (it came first): nothing is lost, it mulligans.
    state.order = vec![b, 1 - b];
    state.turn = 1;
    assert_eq!(
        Bastards::suggest_for(&state, &defender),
        Some(Command::Mulligan)
    );
    let mut probe = Seeded::from_seed(3);
    assert!(Bastards::decide(&state, &defender.seat, &Command::Mulligan, &mut probe).is_ok());
}
