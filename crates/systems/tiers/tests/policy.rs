//! The policy (`tabula_tiers::policy`): on the example table every awaited
//! step has a command `decide` accepts, whole encounters reach `finished`
//! within the step cap with a consistent report, and the choice is sensible
//! in hand-made situations.

mod common;

use proptest::prelude::*;
use tabula_core::testkit::{self, STEP_CAP};
use tabula_core::{Policy, Seat, Table};
use tabula_tiers::Tiers;
use tabula_tiers::command::Command;
use tabula_tiers::policy::{ENEMIES, PLAYERS, ROUND_CAP};
use tabula_tiers::state::{Mode, Phase, State};

fn example_state() -> State {
    table_state(false)
}

/// The example table's state (see [`common::example_state`]).
fn table_state(every_rule: bool) -> State {
    common::example_state(every_rule)
}

/// Play the example table to `finished` with `seed` (see
/// [`testkit::play_policy`]); the number of commands.
fn play(seed: u64) -> (Table<Tiers>, usize) {
    let mut t: Table<Tiers> = Table::new(example_state());
    let n = testkit::play_policy(&mut t, seed, STEP_CAP, |_, _| {});
    (t, n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// At every step of a policy-played encounter, every awaited entry gets a
    /// command that `decide` accepts on the current state; the table always
    /// waits on someone until it is finished.
    #[test]
    fn every_awaited_step_has_an_accepted_suggestion(
        seed in any::<u64>(),
        every_rule in any::<bool>(),
        steps in 1usize..600,
    ) {
        let mut t: Table<Tiers> = Table::new(table_state(every_rule));
        testkit::assert_policy_choices_accepted(&mut t, seed, steps, |_, _, _| {});
    }
}

/// The example table played to `finished` for 200 seeds: no refusal, within
/// the step cap; the report names a winner (or, past the round cap, none) and
/// agrees with itself.
#[test]
fn two_hundred_example_encounters_finish_with_a_consistent_report() {
    let mut wins = 0;
    let mut rounds = 0;
    for seed in 0..200 {
        let (t, n) = play(seed);
        let s = t.state();
        let r = Tiers::report(s);
        assert!(n < STEP_CAP);
        assert_eq!(r.sides, vec![PLAYERS.to_string(), ENEMIES.to_string()]);
        assert_eq!(r.participants.len(), s.heroes.len() + s.enemies.len());
        assert!(r.round >= 1, "seed {seed}: a combat was fought");
        rounds += r.round;
        let players = r.participants.iter().filter(|p| p.side == PLAYERS);
        let enemies = r.participants.iter().filter(|p| p.side == ENEMIES);
        for p in &r.participants {
            let health = p.resources.iter().find(|x| x.name == "Health");
            let health = health.expect("every participant reports Health").value;
            assert_eq!(p.taken_out, health == 0.0, "seed {seed}: {}", p.name);
        }
        match r.winner.as_deref() {
            Some(PLAYERS) => {
                wins += 1;
                assert!(enemies.clone().all(|p| p.taken_out), "seed {seed}");
            }
            Some(ENEMIES) => {
                let pcs: Vec<_> = players
                    .filter(|p| s.heroes.iter().any(|h| h.name() == p.name && !h.ally))
                    .collect();
                assert!(pcs.iter().all(|p| p.taken_out), "seed {seed}");
            }
            None => assert!(r.round > ROUND_CAP, "seed {seed}: no winner before the cap"),
            Some(other) => panic!("seed {seed}: unknown side {other}"),
        }
        assert!(Tiers::awaiting(s).is_empty());
    }
    // A party of two (and Steve) against an Easy combat should mostly win.
    assert!(wins > 100, "the players won {wins} of 200");
    eprintln!("players won {wins}/200; {rounds} rounds in all");
}

/// The same seed plays the same encounter: the policy has no randomness.
#[test]
fn the_policy_is_deterministic() {
    let (a, _) = play(7);
    let (b, _) = play(7);
    assert_eq!(a.log(), b.log());
}

/// The example table in the Player Phase of round 1, every enemy but `keep`
/// defeated.
fn player_phase(keep: &[&str]) -> State {
    let mut s = example_state();
    s.mode = Mode::Combat {
        phase: Phase::Player,
        round: 1,
    };
    s.reserve = 0;
    for e in &mut s.enemies {
        if !keep.contains(&e.name.as_str()) {
            e.health = 0;
        }
    }
    s
}

fn john(s: &State) -> Option<Command> {
    Tiers::suggest(s, &Seat::Player("John".into()))
}

/// With 6 AP against a sturdy enemy in his Zone, John (Strength tier 2)
/// swings the Heavy Blow: 2d6 for 3 AP takes the most Health per AP (the
/// exact expectation with the critical d6: 8.17 / 3 against Slash's 4.08 / 2
/// and Throw Knife's 4.67 / 2).
#[test]
fn the_most_health_per_ap_against_a_sturdy_enemy() {
    let mut s = player_phase(&["Armor"]);
    let shop = s.zone("Shop").unwrap();
    let armor = s.enemy("Armor").unwrap();
    s.enemies[armor].zone = shop;
    s.enemies[armor].health = 20;
    s.enemies[armor].start_health = 20;
    assert_eq!(
        john(&s),
        Some(Command::Act {
            action: "Heavy Blow".into(),
            target: Some("Armor".into()),
            cover: false,
        })
    );
}

/// Against an enemy at 2 Health, more dice are wasted: Throw Knife's 2d3 is
/// sure to take both for 2 AP, where the Heavy Blow takes them for 3 and
/// Slash's 1d6 misses one on a 1 with no critical.
#[test]
fn a_weak_enemy_gets_the_sure_cheap_blow() {
    let mut s = player_phase(&["Armor"]);
    let shop = s.zone("Shop").unwrap();
    let armor = s.enemy("Armor").unwrap();
    s.enemies[armor].zone = shop;
    s.enemies[armor].health = 2;
    assert_eq!(
        john(&s),
        Some(Command::Act {
            action: "Throw Knife".into(),
            target: Some("Armor".into()),
            cover: false,
        })
    );
}

/// Low on Health, John drinks the Fast Potion (2 Health for 1 AP) rather
/// than Mend (1d3 + 1, 3.5 expected with the critical, for 2 AP) or attack.
#[test]
fn low_on_health_a_player_heals_first() {
    let mut s = player_phase(&["Armor"]);
    let j = s.hero("John").unwrap();
    s.heroes[j].health = 3;
    assert_eq!(
        john(&s),
        Some(Command::UseItem {
            item: "Fast Potion".into(),
            target: None,
        })
    );
}

/// Out of reach of every enemy (the Medic alone on the Roof, and no ranged
/// damaging Action at this table once Throw Knife is taken out), Steve moves
/// one Zone toward it: the only way up is the Alley's ladder ("Zones").
#[test]
fn a_melee_only_character_moves_toward_the_enemy() {
    let mut s = player_phase(&["Medic"]);
    s.catalog.actions.retain(|a| a.name != "Throw Knife");
    let steve = s.hero("Steve").unwrap();
    let street = s.zone("Street").unwrap();
    assert_eq!(s.heroes[steve].zone, street);
    let got = Tiers::suggest(&s, &Seat::Gm);
    // The GM's first step is Steve's (an NPC ally): one Zone toward the Roof.
    assert_eq!(
        got,
        Some(Command::Ally {
            ally: "Steve".into(),
            does: Box::new(Command::Move {
                path: vec!["Alley".into()],
            }),
        })
    );
}
